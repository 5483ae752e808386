/* cmd.h - subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit code. */
#ifndef ECG_CMD_H
#define ECG_CMD_H

int cmd_extract(int argc, char **argv);
int cmd_jobs(int argc, char **argv);

#endif
