/* cmd.h - subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit code. */
#ifndef ECG_CMD_H
#define ECG_CMD_H

int cmd_extract(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_refresh(int argc, char **argv);

int cmd_show(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_attribute(int argc, char **argv);

/* Option checks shared by the subcommands (after getopt_long); each
 * returns 0, or -1 with err_set(ECG_EXIT_USAGE, ...). */
int cmd_opt_jobs(const char *arg, int *out);           /* -j N, 1..64 */
int cmd_opt_unknown(const char *cmd, char **argv);     /* getopt's '?' */
struct option;
/* ... and "did you mean '--NAME'?" for a long option near one of longopts */
int cmd_opt_unknown_in(const char *cmd, char **argv, const struct option *longopts);
int cmd_opt_width(const char *arg, int *out);          /* --width N, 40..1000 */
int cmd_opt_rev(const char *cmd, int worktree, const char **rev); /* default HEAD */

/* The options the commands that read a repository share, parsed from one
 * table (cmd_opts.c) instead of each command's own switch:
 *   --repo PATH  --rev REV  --worktree  -j/--jobs N
 *   --cache-dir DIR  --no-cache  -q/--quiet
 * A command names the ones it takes (CMD_O_*), and gives its own options
 * (a getopt_long table ended by a zero entry, whose codes are none of
 * r R w j C N q) and its own short options.  Usage:
 *     cmd_opts_init(&co, CMD_O_REPO | ..., own, "h");
 *     while ((c = getopt_long(argc, argv, co.shortopts, co.longopts, NULL)) != -1) {
 *         if ((k = cmd_opts_take(&co, c, optarg)) < 0) fail; else if (k) continue;
 *         switch (c) { the command's own }
 *     }
 * No allocation: nothing to free. */
#include <getopt.h>

enum {
	CMD_O_REPO = 1, CMD_O_REV = 2, CMD_O_WORKTREE = 4, CMD_O_JOBS = 8, CMD_O_CACHE = 16, CMD_O_QUIET = 32
};
#define CMD_OPTS_MAX 40

struct cmd_opts {
	unsigned which;
	const char *repo;            /* "." when not given */
	const char *rev;             /* NULL when not given (cmd_opt_rev() defaults it) */
	int worktree, jobs, no_cache, quiet;
	const char *cache_dir;
	struct option longopts[CMD_OPTS_MAX];
	char shortopts[24];
};

void cmd_opts_init(struct cmd_opts *co, unsigned which, const struct option *own, const char *own_short);
/* 1: c was a common option, taken; 0: not one (the command's own); -1:
 * its value is bad (err_set(ECG_EXIT_USAGE)). */
int cmd_opts_take(struct cmd_opts *co, int c, const char *arg);

#endif
