/* cmd.h - subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit code. */
#ifndef ECG_CMD_H
#define ECG_CMD_H

int cmd_extract(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_refresh(int argc, char **argv);

/* refresh's fast path (cmd_check.c): when every file the records list is
 * unchanged at REV, or changed only in where its code sits (the same
 * symbols with the same code, moved by blank lines or comments outside
 * functions), the records at REV are these with every anchor moved and
 * the header's commit and blobs updated.  The changed files' trees come
 * from, and go to, the tree cache in cache_dir (treecache.h; NULL: none).
 * 1 with *graph_out and *sched_out
 * (the caller deletes them); 0 when the job must be read again; -1 with
 * err_set(). */
struct cJSON;
int check_relocate(const char *repo_path, const char *rev, const char *helpers_dir, const char *cache_dir,
                   const struct cJSON *graph, const struct cJSON *sched, struct cJSON **graph_out,
                   struct cJSON **sched_out);
int cmd_show(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_attribute(int argc, char **argv);

/* Option checks shared by the subcommands (after getopt_long); each
 * returns 0, or -1 with err_set(ECG_EXIT_USAGE, ...). */
int cmd_opt_jobs(const char *arg, int *out);           /* -j N, 1..64 */
int cmd_opt_unknown(const char *cmd, char **argv);     /* getopt's '?' */
int cmd_opt_rev(const char *cmd, int worktree, const char **rev); /* default HEAD */

#endif
