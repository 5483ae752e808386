/* main.c - argument parsing and subcommand dispatch only. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/nearest.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

#include <stdlib.h>

static const char main_usage[] =
"usage: ecg <command> [options]\n"
"       ecg --help | --version\n"
"\n"
"Read a PyTorch job's code at a git commit, without running it, and write two\n"
"records: records/computation_graph.json (what is computed) and\n"
"records/execution_schedule.json (when and where).\n"
"\n"
"Commands:\n"
"  extract    read a commit and write both records (see 'ecg extract --help')\n"
"  jobs       list the runnable jobs of a commit, with their type and step\n"
"  check      tell whether the records still hold at a revision\n"
"  refresh    bring the records to a revision, keeping fields added by hand\n"
"  show       print the records for a person: module tree, costliest units,\n"
"             or the schedule\n"
"  render     write the records as one self-contained HTML page\n"
"  attribute  read a profiler trace against the records: time per entry,\n"
"             backward included, and the idle gaps with what caused them\n"
"  help CMD   show the help of a command\n"
"\n"
"Options:\n"
"  -h, --help     show this help\n"
"  -V, --version  show the version, the embedded parser and the helpers' place\n"
"\n"
"Exit status: 0 success; 1 (check) the records are stale, (attribute) calls\n"
"disagree with the records; 2 bad usage; 3 bad input (not a repository,\n"
"unknown revision, ...); 4 records not written; 5 internal error.\n"
"See ecg(1).\n";

static const struct {
	const char *name;
	int (*fn)(int, char **);
} main_cmds[] = {
	{ "extract", cmd_extract },
	{ "jobs", cmd_jobs },
	{ "check", cmd_check },
	{ "refresh", cmd_refresh },
	{ "show", cmd_show },
	{ "render", cmd_render },
	{ "attribute", cmd_attribute },
};

/* "no such command" with the nearest command's name when one is near */
static int main_no_such(const char *cmd)
{
	const char *names[sizeof main_cmds / sizeof main_cmds[0] + 1];
	const char *g;
	size_t i;

	for (i = 0; i < sizeof main_cmds / sizeof main_cmds[0]; i++)
		names[i] = main_cmds[i].name;
	names[i] = "help";
	g = nearest(cmd, names, i + 1);
	if (g)
		err_warn("no such command '%s'; did you mean '%s'? (see 'ecg --help')", cmd, g);
	else
		err_warn("no such command '%s' (see 'ecg --help')", cmd);
	return ECG_EXIT_USAGE;
}

static int main_version(void)
{
	char *dir;

	printf("ecg (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	printf("parser: CPython %s (embedded, isolated)\n", pyrt_version());
	dir = helpers_find(NULL);
	printf("helpers: %s\n", dir ? dir : "(not found)");
	free(dir);
	return ECG_EXIT_OK;
}

int main(int argc, char **argv)
{
	size_t i;
	const char *cmd;

	emit_init();
	if (argc < 2) {
		fputs(main_usage, stderr);
		return ECG_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(main_usage, stdout);
		return ECG_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version"))
		return main_version();
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			fputs(main_usage, stdout);
			return ECG_EXIT_OK;
		}
		for (i = 0; i < sizeof main_cmds / sizeof main_cmds[0]; i++) {
			if (!strcmp(argv[2], main_cmds[i].name)) {
				char *hargv[] = { argv[2], (char *)"--help", NULL };

				return main_cmds[i].fn(2, hargv);
			}
		}
		return main_no_such(argv[2]);
	}
	for (i = 0; i < sizeof main_cmds / sizeof main_cmds[0]; i++)
		if (!strcmp(cmd, main_cmds[i].name))
			return main_cmds[i].fn(argc - 1, argv + 1);
	return main_no_such(cmd);
}
