/* cmd_opts.c - option checks the subcommands share. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>

#include "ecg/cmd.h"
#include "ecg/err.h"

int cmd_opt_jobs(const char *arg, int *out)
{
	char *end;
	long j;

	if (*arg < '0' || *arg > '9')
		goto bad;
	j = strtol(arg, &end, 10);
	if (*end || j < 1 || j > 64)
		goto bad;
	*out = (int)j;
	return 0;
bad:
	return err_set(ECG_EXIT_USAGE, "-j takes a number of processes from 1 to 64, not '%s'", arg);
}

int cmd_opt_unknown(const char *cmd, char **argv)
{
	if (optopt)
		return err_set(ECG_EXIT_USAGE, "%s: unknown option '-%c' (see 'ecg %s --help')", cmd, optopt, cmd);
	return err_set(ECG_EXIT_USAGE, "%s: unknown or incomplete option '%s' (see 'ecg %s --help')", cmd,
	               argv[optind - 1], cmd);
}

int cmd_opt_rev(const char *cmd, int worktree, const char **rev)
{
	if (worktree && *rev)
		return err_set(ECG_EXIT_USAGE, "%s: --worktree reads the work tree against HEAD; it does not take --rev", cmd);
	if (!*rev)
		*rev = "HEAD";
	return 0;
}
