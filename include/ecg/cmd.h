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
int cmd_opt_rev(const char *cmd, int worktree, const char **rev); /* default HEAD */

#endif
