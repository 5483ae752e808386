/* cmd_opts.c - option checks the subcommands share. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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

/* The short options that take a value, per subcommand (their getopt
 * strings): getopt_long() returns the same '?' for "-j" without its value
 * as for an unknown "-x". */
static const struct {
	const char *cmd, *valued;
} cmd_opt_valued[] = {
	{ "extract", "j" }, { "refresh", "j" }, { "jobs", "j" }, { "render", "o" },
};

static int cmd_opt_takes_value(const char *cmd, int c)
{
	size_t i;

	for (i = 0; i < sizeof cmd_opt_valued / sizeof cmd_opt_valued[0]; i++)
		if (!strcmp(cmd_opt_valued[i].cmd, cmd))
			return c && strchr(cmd_opt_valued[i].valued, c) != NULL;
	return 0;
}

int cmd_opt_unknown(const char *cmd, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	/* a known long option (getopt puts its value in optopt): it lacks its
	 * value, or has one it does not take */
	if (optopt && arg && !strncmp(arg, "--", 2)) {
		const char *eq = strchr(arg, '=');

		if (eq)
			return err_set(ECG_EXIT_USAGE, "%s: option '%.*s' takes no value (see 'ecg %s --help')", cmd,
			               (int)(eq - arg), arg, cmd);
		return err_set(ECG_EXIT_USAGE, "%s: option '%s' needs a value (see 'ecg %s --help')", cmd, arg, cmd);
	}
	/* a short option that takes a value, last on the line */
	if (optopt && cmd_opt_takes_value(cmd, optopt) && arg && arg[0] == '-' && arg[strlen(arg) - 1] == optopt)
		return err_set(ECG_EXIT_USAGE, "%s: option '-%c' needs a value (see 'ecg %s --help')", cmd, optopt, cmd);
	if (optopt)
		return err_set(ECG_EXIT_USAGE, "%s: unknown option '-%c' (see 'ecg %s --help')", cmd, optopt, cmd);
	return err_set(ECG_EXIT_USAGE, "%s: unknown or incomplete option '%s' (see 'ecg %s --help')", cmd,
	               arg ? arg : "?", cmd);
}

int cmd_opt_rev(const char *cmd, int worktree, const char **rev)
{
	if (worktree && *rev)
		return err_set(ECG_EXIT_USAGE, "%s: --worktree reads the work tree against HEAD; it does not take --rev", cmd);
	if (!*rev)
		*rev = "HEAD";
	return 0;
}
