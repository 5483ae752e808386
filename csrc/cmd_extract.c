/* cmd_extract.c - `ecg extract`: read a commit's Python files, write both records.
 *
 * Options only: the reading itself is extract.c's (extract.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/cmd.h"
#include "ecg/err.h"
#include "ecg/extract.h"
#include "ecg/interp.h"
#include "ecg/pyast.h"
#include "ecg/util.h"

static const char extract_usage[] =
"usage: ecg extract [--repo PATH] [--rev REV | --worktree]\n"
"                   [--entry FILE | --launcher FILE[:LINE]]\n"
"                   [--out DIR] [--all] [--max-file-size BYTES]\n"
"                   [--max-file-tokens N] [--helpers-dir DIR] [-q]\n"
"                   [--set KEY=VALUE]... [--config FILE] [--model NAME]\n"
"                   [--env KEY[=VALUE]]... [--no-env] [--machine cuda|cpu]\n"
"                   [-j N] [--stats] [--cache-dir DIR | --no-cache]\n"
"                   [-- JOB-ARGS...]\n"
"\n"
"Read the Python files of a commit, without checking anything out and without\n"
"running anything, and write records/computation_graph.json and\n"
"records/execution_schedule.json.\n"
"\n"
"  --repo PATH           the repository: a work tree, any directory inside one,\n"
"                        or a bare repository (default: .); a directory outside\n"
"                        git is read as it is on disk, with no commit (the\n"
"                        records' commit and dirty null, files' content hashes)\n"
"  --rev REV             the commit to read: a sha, branch, tag, HEAD~2, ...\n"
"                        (default: HEAD)\n"
"  --worktree            read the files in the work tree instead of the commit's\n"
"                        blobs (tracked files and untracked ones not ignored);\n"
"                        `dirty` is set when they differ from REV; nothing is\n"
"                        read through a symbolic link, untracked files over\n"
"                        --max-file-size are not hashed, and directories\n"
"                        nested deeper than 100 levels are skipped (a warning)\n"
"  --entry FILE          the job's entry script, relative to PATH (or to the\n"
"                        repository root); it must exist at REV.  FILE:FUNC\n"
"                        or MODULE:FUNC (a console script) imports the file\n"
"                        and starts the job at that function ('ecg jobs'\n"
"                        lists the entries); a file that is not a .py file\n"
"                        is refused\n"
"  --launcher FILE[:LINE] read the job as the shell launcher or Slurm script\n"
"                        FILE starts it on LINE (the only launch when no LINE):\n"
"                        its script or -m module is the entry and its expanded\n"
"                        arguments the job's command line; JOB-ARGS after --\n"
"                        are then the launcher's own ($1, \"$@\").  Words the\n"
"                        launcher does not pin down ($1 not given, $(...)) are\n"
"                        passed as written and listed; the processes it starts\n"
"                        are recorded in `invocation` ('ecg jobs' lists launches);\n"
"                        torchrun's (and deepspeed's ...) WORLD_SIZE, RANK and\n"
"                        LOCAL_RANK are known to the reading, no other variable\n"
"  --out DIR             where to write the records (default: records/ at the\n"
"                        work tree's root, refused if it is a symbolic link;\n"
"                        required for a bare repository)\n"
"  --all                 parse every .py file of the commit; by default, with\n"
"                        --entry, only the files the job reaches through its\n"
"                        imports are read (and listed in `files`)\n"
"  --max-file-size BYTES larger .py files are not parsed and are reported in\n"
"                        parse_errors (default: 16777216; at most 2147483648)\n"
"  --max-file-tokens N   .py files of more than about N tokens are not parsed\n"
"                        (CPython's tree takes about 1 KB a token) and are\n"
"                        reported in parse_errors (default: 1000000; at most\n"
"                        2147483648)\n"
"  --helpers-dir DIR     where ecg's Python helpers are (default: found\n"
"                        next to the build tree, else the installed ones)\n"
"  -q, --quiet           do not print per-file warnings\n"
"  --set KEY=VALUE       the job's configuration value KEY (an argparse option,\n"
"                        a dataclass field, a global of the entry script, a\n"
"                        config file key) is VALUE, as in the run profiled;\n"
"                        repeatable\n"
"  --config FILE         a JSON, TOML or YAML file of KEY: VALUE pairs, each\n"
"                        applied as --set (nested keys by their last name);\n"
"                        one that does not parse is bad usage (exit 2)\n"
"  --env KEY[=VALUE]     the job's environment variable KEY is VALUE (KEY alone:\n"
"                        set, to a value not known, as RANK is); with any\n"
"                        --env, or with --no-env, the job's other variables\n"
"                        are unset (os.environ.get(K, d) is d) and branches\n"
"                        on them are decided; repeatable.  Without either the\n"
"                        environment is not known, and neither is it when a\n"
"                        --launcher's torchrun, srun ... sets it\n"
"  --no-env              the job runs with none of its variables set (a plain\n"
"                        `python script.py`)\n"
"  --machine cuda|cpu    the machine the job runs on: cuda, CUDA GPUs and no\n"
"                        other accelerator (torch.cuda.is_available() is True,\n"
"                        torch.backends.mps.is_available() False ...); cpu,\n"
"                        no accelerator (every such test False).  Without it\n"
"                        (and without a launcher that names GPUs, as\n"
"                        accelerate launch --multi_gpu) those tests are\n"
"                        undecided, and a device the job chooses by them\n"
"                        puts a condition on its host-device rows\n"
"  --model NAME          the model to record, by the name the job binds it to\n"
"                        or its class, when the job calls several\n"
"  -j, --jobs N          parse in N worker processes when every file is parsed\n"
"                        (--all, or no --entry; default: one per CPU, and with\n"
"                        --entry --all only for 200 files or more; -j 1: in\n"
"                        this process); the records are the same for every N\n"
"  --stats               print where the time went, phase by phase, on stderr\n"
"  --cache-dir DIR       keep the trees of the files the analysis parses, with\n"
"                        their bytes, in DIR, by blob sha, and read them from\n"
"                        there instead of reading and parsing the same blob\n"
"                        again (default: $XDG_CACHE_HOME/ecg, else\n"
"                        ~/.cache/ecg)\n"
"  --no-cache            neither read nor write the tree cache\n"
"  --site DIR            a site-packages directory of the job's environment:\n"
"                        modules the repository does not hold are read from\n"
"                        there (parsed, never imported; .pth files are read as\n"
"                        lists of paths, never run; torch itself is not read:\n"
"                        the catalogue covers it); repeatable, in order\n"
"  --python PATH         the job's interpreter: its site-packages is found from\n"
"                        the path alone (PREFIX/bin/python ->\n"
"                        PREFIX/lib/python3.X/site-packages), never run\n"
"  --no-site-env         do not look for an environment in VIRTUAL_ENV,\n"
"                        CONDA_PREFIX or a .venv/ at the repository root (which\n"
"                        are read by default); the header's `environment` names\n"
"                        the directories and the packages read, with versions\n"
"  -- JOB-ARGS...        the job's own command line (what follows the script\n"
"                        name), read by its argparse or configurator, so that\n"
"                        the record matches the run that was profiled\n"
"  -h, --help            show this help\n"
"\n"
"A file that does not parse, is too large, or cannot be read becomes an entry\n"
"in parse_errors and the run goes on.  Symbolic links and submodules are not\n"
"followed; they are listed in `unresolved`.  In paths, bytes that are not\n"
"UTF-8, control characters, ':' and '%' are written %XX.  The two records\n"
"are one unit: both are written and flushed before either replaces the old\n"
"one (a failed run leaves the earlier pair as it was), writers lock\n"
"DIR/.ecg.lock, and both end with the same `run` id.  On success the paths\n"
"of the two records are printed, one per line.\n"
"\n"
"With --entry or --launcher, a job in which no model or no step is found is\n"
"said on stderr with what stopped the reading (a budget spent, a call not\n"
"followed), and in both records' `incomplete`.\n"
"\n"
"Exit status: 0 records written; 2 bad usage (an option without its value, a\n"
"bad value, a --config file that does not parse); 3 not a repository, empty\n"
"repository, unknown revision, or entry not found or not a Python file;\n"
"4 records not written; 5 internal error; 6 records written, but no model or\n"
"no step was found.\n";

/* A positive decimal number up to `max`; 0, or -1 (a sign, a fraction,
 * trailing bytes, zero, or more than max -- an overflow included). */
static int extract_parse_size(const char *s, size_t max, size_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || v == 0 || errno == ERANGE || v > max)
		return -1;
	*out = (size_t)v;
	return 0;
}

static int extract_parse_args(int argc, char **argv, struct extract_opts *o)
{
	static const struct option longopts[] = {
		{ "entry", required_argument, NULL, 'e' },
		{ "launcher", required_argument, NULL, 'L' },
		{ "out", required_argument, NULL, 'o' },
		{ "max-file-size", required_argument, NULL, 'm' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "stats", no_argument, NULL, 'S' },
		{ "set", required_argument, NULL, 's' },
		{ "env", required_argument, NULL, 'E' },
		{ "no-env", no_argument, NULL, 'U' },
		{ "machine", required_argument, NULL, 'G' },
		{ "config", required_argument, NULL, 'c' },
		{ "model", required_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'A' },
		{ "max-file-tokens", required_argument, NULL, 'T' },
		{ "site", required_argument, NULL, 'P' },
		{ "python", required_argument, NULL, 'Y' },
		{ "no-site-env", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cmd_opts co;
	int c, k;

	memset(o, 0, sizeof *o);
	o->max_file = EXTRACT_DEFAULT_MAX_FILE;
	o->max_tokens = PYAST_DEFAULT_MAX_TOKENS;
	cmd_opts_init(&co, CMD_O_REPO | CMD_O_REV | CMD_O_WORKTREE | CMD_O_JOBS | CMD_O_CACHE | CMD_O_QUIET, longopts,
	              "h");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, co.shortopts, co.longopts, NULL)) != -1) {
		if ((k = cmd_opts_take(&co, c, optarg)) < 0)
			return -1;
		if (k)
			continue;
		switch (c) {
		case 'e': o->entry = optarg; break;
		case 'L': o->launcher = optarg; break;
		case 'o': o->out = optarg; break;
		case 'H': o->helpers_dir = optarg; break;
		case 'S': o->stats = 1; break;
		case 's':
			if (!strchr(optarg, '=') || optarg[0] == '=')
				return err_set(ECG_EXIT_USAGE, "--set takes KEY=VALUE, not '%s'", optarg);
			GROW(o->sets, o->asets, o->nsets + 1);
			o->sets[o->nsets++] = optarg;
			break;
		case 'E':
			if (!optarg[0] || optarg[0] == '=')
				return err_set(ECG_EXIT_USAGE, "--env takes KEY=VALUE or KEY, not '%s'", optarg);
			GROW(o->envs, o->aenvs, o->nenvs + 1);
			o->envs[o->nenvs++] = optarg;
			o->no_env = 1;
			break;
		case 'U': o->no_env = 1; break;
		case 'G':
			if ((o->machine = interp_machine_parse(optarg)) < 0)
				return err_set(ECG_EXIT_USAGE, "--machine takes cuda or cpu, not '%s'", optarg);
			break;
		case 'c': o->config = optarg; break;
		case 'M': o->model = optarg; break;
		case 'A': o->all = 1; break;
		case 'P':
			GROW(o->sites, o->asites, o->nsites + 1);
			o->sites[o->nsites++] = optarg;
			break;
		case 'Y': o->python = optarg; break;
		case 'V': o->no_site_env = 1; break;
		case 'T':
			if (extract_parse_size(optarg, EXTRACT_MAX_TOKENS, &o->max_tokens) < 0)
				return err_set(ECG_EXIT_USAGE, "--max-file-tokens takes a number from 1 to %lu, not '%s'",
				               (unsigned long)EXTRACT_MAX_TOKENS, optarg);
			break;
		case 'm':
			if (extract_parse_size(optarg, EXTRACT_MAX_FILE, &o->max_file) < 0)
				return err_set(ECG_EXIT_USAGE, "--max-file-size takes a number of bytes from 1 to %lu, not '%s'",
				               (unsigned long)EXTRACT_MAX_FILE, optarg);
			break;
		case 'h':
			fputs(extract_usage, stdout);
			return 1;
		default:
			return cmd_opt_unknown_in("extract", argv, co.longopts);
		}
	}
	o->repo = co.repo;
	o->rev = co.rev;
	o->worktree = co.worktree;
	o->jobs = co.jobs;
	o->cache_dir = co.cache_dir;
	o->no_cache = co.no_cache;
	o->quiet = co.quiet;
	if (o->entry && o->launcher)
		return err_set(ECG_EXIT_USAGE, "extract: --entry and --launcher name the job twice: give one");
	if (optind < argc && optind > 1 && !strcmp(argv[optind - 1], "--")) {
		o->job_argv = argv + optind;
		o->job_argc = (size_t)(argc - optind);
	} else if (optind < argc) {
		return err_set(ECG_EXIT_USAGE, "extract: unexpected argument '%s' (see 'ecg extract --help')", argv[optind]);
	}
	return cmd_opt_rev("extract", o->worktree, &o->rev);
}

int cmd_extract(int argc, char **argv)
{
	struct extract_opts o;
	cJSON *graph = NULL, *sched = NULL;
	char *out_dir = NULL;
	int rc = extract_parse_args(argc, argv, &o);

	if (rc > 0) {
		rc = ECG_EXIT_OK;          /* --help */
	} else if (rc < 0) {
		err_warn("%s", err_last());
		rc = err_code();
	} else {
		int incomplete = 0;

		rc = extract_build(&o, NULL, &graph, &sched, &out_dir, &incomplete);
		if (rc == ECG_EXIT_OK)
			rc = extract_write(out_dir, graph, sched, 1, 0);
		if (rc == ECG_EXIT_OK && incomplete)
			rc = ECG_EXIT_INCOMPLETE;
	}
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	free(out_dir);
	free(o.sets);
	free(o.envs);
	free(o.sites);
	return rc;
}
