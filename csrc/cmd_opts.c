/* cmd_opts.c - option checks the subcommands share. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/cmd.h"
#include "ecg/err.h"
#include "ecg/nearest.h"
#include "ecg/termfit.h"

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

/* " (did you mean '--name'?)" for an unknown long option near a known
 * one, else "": into out. */
static const char *cmd_opt_guess(const char *arg, const struct option *longopts, char *out, size_t n)
{
	const char *names[CMD_OPTS_MAX + 8], *eq, *g;
	char word[128];
	size_t k = 0;

	out[0] = '\0';
	if (!longopts || !arg || strncmp(arg, "--", 2))
		return out;
	eq = strchr(arg, '=');
	snprintf(word, sizeof word, "%.*s", eq ? (int)(eq - arg - 2) : (int)strlen(arg + 2), arg + 2);
	for (; longopts->name && k < sizeof names / sizeof names[0]; longopts++)
		names[k++] = longopts->name;
	g = nearest(word, names, k);
	if (g)
		snprintf(out, n, " (did you mean '--%s'?)", g);
	return out;
}

int cmd_opt_width(const char *arg, int *out)
{
	char *end;
	long v;

	if (*arg < '0' || *arg > '9')
		goto bad;
	v = strtol(arg, &end, 10);
	if (*end || v < TERMFIT_MIN || v > 1000)
		goto bad;
	*out = (int)v;
	return 0;
bad:
	return err_set(ECG_EXIT_USAGE, "--width takes a number of columns from %d to 1000, not '%s'", TERMFIT_MIN, arg);
}

int cmd_opt_unknown(const char *cmd, char **argv)
{
	return cmd_opt_unknown_in(cmd, argv, NULL);
}

int cmd_opt_unknown_in(const char *cmd, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	char guess[160];

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
	return err_set(ECG_EXIT_USAGE, "%s: unknown or incomplete option '%s'%s (see 'ecg %s --help')", cmd,
	               arg ? arg : "?", cmd_opt_guess(arg, longopts, guess, sizeof guess), cmd);
}

int cmd_opt_rev(const char *cmd, int worktree, const char **rev)
{
	if (worktree && *rev)
		return err_set(ECG_EXIT_USAGE, "%s: --worktree reads the work tree against HEAD; it does not take --rev", cmd);
	if (!*rev)
		*rev = "HEAD";
	return 0;
}

/* ------------------------------------------------------------------ the common options */

/* The options every command that reads a repository spells the same way,
 * with the codes getopt_long() returns for them (the commands' own
 * options use other codes). */
static int take_repo(struct cmd_opts *co, const char *arg) { co->repo = arg; return 1; }
static int take_rev(struct cmd_opts *co, const char *arg) { co->rev = arg; return 1; }
static int take_worktree(struct cmd_opts *co, const char *arg) { (void)arg; co->worktree = 1; return 1; }
static int take_jobs(struct cmd_opts *co, const char *arg) { return cmd_opt_jobs(arg, &co->jobs) < 0 ? -1 : 1; }
static int take_cache_dir(struct cmd_opts *co, const char *arg) { co->cache_dir = arg; return 1; }
static int take_no_cache(struct cmd_opts *co, const char *arg) { (void)arg; co->no_cache = 1; return 1; }
static int take_quiet(struct cmd_opts *co, const char *arg) { (void)arg; co->quiet = 1; return 1; }

static const struct {
	unsigned bit;                /* CMD_O_*: the commands that take it say so */
	struct option opt;
	int (*take)(struct cmd_opts *co, const char *arg);
} cmd_common_table[] = {
	{ CMD_O_REPO, { "repo", required_argument, NULL, 'r' }, take_repo },
	{ CMD_O_REV, { "rev", required_argument, NULL, 'R' }, take_rev },
	{ CMD_O_WORKTREE, { "worktree", no_argument, NULL, 'w' }, take_worktree },
	{ CMD_O_JOBS, { "jobs", required_argument, NULL, 'j' }, take_jobs },
	{ CMD_O_CACHE, { "cache-dir", required_argument, NULL, 'C' }, take_cache_dir },
	{ CMD_O_CACHE, { "no-cache", no_argument, NULL, 'N' }, take_no_cache },
	{ CMD_O_QUIET, { "quiet", no_argument, NULL, 'q' }, take_quiet },
};

#define NCOMMON (sizeof cmd_common_table / sizeof cmd_common_table[0])

void cmd_opts_init(struct cmd_opts *co, unsigned which, const struct option *own, const char *own_short)
{
	size_t i, n = 0;

	memset(co, 0, sizeof *co);
	co->which = which;
	co->repo = ".";
	for (i = 0; i < NCOMMON; i++)
		if (which & cmd_common_table[i].bit)
			co->longopts[n++] = cmd_common_table[i].opt;
	for (i = 0; own[i].name && n + 1 < CMD_OPTS_MAX; i++)
		co->longopts[n++] = own[i];
	/* zeroed: the table's end.  "+" (stop at the first operand), then
	 * quiet, the command's own, -j */
	snprintf(co->shortopts, sizeof co->shortopts, "+%s%s%s", which & CMD_O_QUIET ? "q" : "", own_short,
	         which & CMD_O_JOBS ? "j:" : "");
}

int cmd_opts_take(struct cmd_opts *co, int c, const char *arg)
{
	size_t i;

	for (i = 0; i < NCOMMON; i++)
		if (cmd_common_table[i].opt.val == c && (co->which & cmd_common_table[i].bit))
			return cmd_common_table[i].take(co, arg);
	return 0;
}
