/* cmd_extract.c - `ecg extract`: read a commit's Python files, write both records.
 *
 * The data flows one way: repository -> blobs -> parser -> (analysis passes,
 * as they land) -> records.  Each file's AST is dropped as soon as it has
 * been read, so memory follows the index, not the sum of all trees.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ecg/analyse.h"
#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/cmd.h"
#include "ecg/anchors.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/interp.h"
#include "ecg/job.h"
#include "ecg/launcher.h"
#include "ecg/load.h"
#include "ecg/modtree.h"
#include "ecg/parsepool.h"
#include "ecg/schedule.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

#define EXTRACT_DEFAULT_MAX_FILE (16UL << 20)
/* The largest limits taken: a file is read whole into memory, and a
 * token costs about 1 KB of CPython's tree. */
#define EXTRACT_MAX_FILE (1UL << 31)
#define EXTRACT_MAX_TOKENS (1UL << 31)

static const char extract_usage[] =
"usage: ecg extract [--repo PATH] [--rev REV | --worktree]\n"
"                   [--entry FILE | --launcher FILE[:LINE]]\n"
"                   [--out DIR] [--all] [--max-file-size BYTES]\n"
"                   [--max-file-tokens N] [--helpers-dir DIR] [-q]\n"
"                   [--set KEY=VALUE]... [--config FILE] [--model NAME]\n"
"                   [--env KEY[=VALUE]]... [--no-env]\n"
"                   [-j N] [--stats] [--cache-dir DIR | --no-cache]\n"
"                   [-- JOB-ARGS...]\n"
"\n"
"Read the Python files of a commit, without checking anything out and without\n"
"running anything, and write records/computation_graph.json and\n"
"records/execution_schedule.json.\n"
"\n"
"  --repo PATH           the repository: a work tree, any directory inside one,\n"
"                        or a bare repository (default: .)\n"
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
"                        are recorded in `invocation` ('ecg jobs' lists launches)\n"
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

struct extract_opts {
	const char *repo;
	const char *rev;
	const char *entry;
	const char *launcher;       /* --launcher FILE[:LINE] */
	const char *out;
	const char *helpers_dir;
	int worktree;
	int quiet;
	int stats;
	int jobs;                   /* 0: auto */
	const char *model;          /* --model NAME */
	const char **sets;          /* --set KEY=VALUE, in order */
	size_t nsets, asets;
	const char *config;         /* --config FILE */
	size_t max_file;
	size_t max_tokens;          /* --max-file-tokens */
	int all;                    /* --all: parse every file */
	const char *cache_dir;      /* --cache-dir DIR */
	int no_cache;               /* --no-cache */
	char **job_argv;            /* after `--`: the job's own command line */
	size_t job_argc;
	char **launcher_argv;       /* with --launcher: the launcher's own arguments */
	size_t launcher_argc;
	int env_set;                /* the launcher sets the job's environment (torchrun, srun ...) */
	const char **envs;          /* --env KEY=VALUE, in order */
	size_t nenvs, aenvs;
	int no_env;                 /* --no-env (or --env given): other variables are unset */
	const char **prefetch;      /* refresh: the paths the records' job read */
	size_t nprefetch;
};

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
		{ "repo", required_argument, NULL, 'r' },
		{ "rev", required_argument, NULL, 'R' },
		{ "entry", required_argument, NULL, 'e' },
		{ "launcher", required_argument, NULL, 'L' },
		{ "out", required_argument, NULL, 'o' },
		{ "worktree", no_argument, NULL, 'w' },
		{ "max-file-size", required_argument, NULL, 'm' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' },
		{ "env", required_argument, NULL, 'E' },
		{ "no-env", no_argument, NULL, 'U' },
		{ "config", required_argument, NULL, 'c' },
		{ "model", required_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'A' },
		{ "max-file-tokens", required_argument, NULL, 'T' },
		{ "cache-dir", required_argument, NULL, 'C' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof *o);
	o->repo = ".";
	o->max_file = EXTRACT_DEFAULT_MAX_FILE;
	o->max_tokens = PYAST_DEFAULT_MAX_TOKENS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+qhj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->repo = optarg; break;
		case 'R': o->rev = optarg; break;
		case 'e': o->entry = optarg; break;
		case 'L': o->launcher = optarg; break;
		case 'o': o->out = optarg; break;
		case 'w': o->worktree = 1; break;
		case 'H': o->helpers_dir = optarg; break;
		case 'q': o->quiet = 1; break;
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
		case 'c': o->config = optarg; break;
		case 'M': o->model = optarg; break;
		case 'A': o->all = 1; break;
		case 'C': o->cache_dir = optarg; break;
		case 'N': o->no_cache = 1; break;
		case 'T':
			if (extract_parse_size(optarg, EXTRACT_MAX_TOKENS, &o->max_tokens) < 0)
				return err_set(ECG_EXIT_USAGE, "--max-file-tokens takes a number from 1 to %lu, not '%s'",
				               (unsigned long)EXTRACT_MAX_TOKENS, optarg);
			break;
		case 'j':
			if (cmd_opt_jobs(optarg, &o->jobs) < 0)
				return -1;
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
			return cmd_opt_unknown("extract", argv);
		}
	}
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

/* --stats: where the time went, on stderr. */
struct stats {
	int on;
	double t0, last;
};

static double stats_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void stats_mark(struct stats *st, const char *what)
{
	double t;

	if (!st->on)
		return;
	t = stats_now();
	fprintf(stderr, "ecg: stats: %-22s %8.2f ms  (at %8.2f ms)\n", what, t - st->last, t - st->t0);
	st->last = t;
}

static void extract_flatten(const cJSON *j, cJSON *out, int depth)
{
	const cJSON *c;

	if (depth > 16)
		return;
	cJSON_ArrayForEach(c, j) {
		char tmp[64];

		if (!c->string)
			continue;
		if (cJSON_IsObject(c)) {
			extract_flatten(c, out, depth + 1);
			continue;
		}
		if (cJSON_IsString(c)) {
			char *q = xasprintf("'%s'", c->valuestring);

			cJSON_AddStringToObject(out, c->string, q);
			free(q);
		} else if (cJSON_IsBool(c)) {
			cJSON_AddStringToObject(out, c->string, cJSON_IsTrue(c) ? "True" : "False");
		} else if (cJSON_IsNull(c)) {
			cJSON_AddStringToObject(out, c->string, "None");
		} else if (cJSON_IsNumber(c)) {
			if (c->valuedouble == (double)(long long)c->valuedouble)
				snprintf(tmp, sizeof tmp, "%lld", (long long)c->valuedouble);
			else
				snprintf(tmp, sizeof tmp, "%.17g", c->valuedouble);
			cJSON_AddStringToObject(out, c->string, tmp);
		}
	}
}

/* The pending Python exception, a reader's complaint about --config FILE:
 * err_set(ECG_EXIT_USAGE) with its message; clears it.  Returns -1. */
static int extract_config_error(const char *path)
{
	PyObject *type = NULL, *val = NULL, *tb = NULL, *str = NULL;
	const char *msg = NULL;
	size_t n = strlen(path);
	const char *what = n >= 5 && !strcmp(path + n - 5, ".toml") ? "TOML"
	                   : (n >= 5 && !strcmp(path + n - 5, ".yaml")) || (n >= 4 && !strcmp(path + n - 4, ".yml"))
	                   ? "YAML" : NULL;

	PyErr_Fetch(&type, &val, &tb);
	if (val)
		str = PyObject_Str(val);
	if (str)
		msg = PyUnicode_AsUTF8(str);
	PyErr_Clear();
	if (what)
		err_set(ECG_EXIT_USAGE, "--config '%s' is not valid %s: %s", path, what, msg && *msg ? msg : "unreadable");
	else
		err_set(ECG_EXIT_USAGE, "--config '%s': %s (ecg reads .json, .toml, .yaml and .yml files)", path,
		        msg && *msg ? msg : "unreadable");
	Py_XDECREF(str);
	Py_XDECREF(type);
	Py_XDECREF(val);
	Py_XDECREF(tb);
	return -1;
}

/* --config FILE (on this machine, not in the repository): JSON, TOML or
 * YAML, each scalar applied as --set under its own key.  A file that
 * cannot be read or parsed is bad usage (ECG_EXIT_USAGE), never an
 * internal error. */
static int extract_read_overrides(struct load *L, const char *path, cJSON **out)
{
	FILE *f = fopen(path, "rb");
	buf_t b;
	char tmp[8192];
	size_t n;
	cJSON *j = NULL;
	const char *why = NULL;
	PyObject *r = NULL;

	if (!f)
		return err_set(ECG_EXIT_USAGE, "--config '%s': %s", path, strerror(errno));
	buf_init(&b);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0 && b.len < (16u << 20))
		buf_add(&b, tmp, n);
	fclose(f);
	n = strlen(path);
	if (n >= 5 && !strcmp(path + n - 5, ".json")) {
		j = cJSON_ParseWithLength(b.buf, b.len);
		if (!j)
			why = "not valid JSON";
	} else {
		if (!L->helper) {
			PyObject *h = NULL;

			if (pyrt_need_main() < 0 || helpers_load(L->o->helpers, "ecg_config", &h) < 0) {
				buf_free(&b);
				return -1;
			}
			L->helper = h;
		}
		r = PyObject_CallMethod((PyObject *)L->helper, "load_as_json", "sy#", path, b.buf, (Py_ssize_t)b.len);
		if (!r) {
			buf_free(&b);
			/* the file's fault (the reader's ValueError: a syntax
			 * error, not UTF-8, an unknown format; nesting too deep)
			 * is bad input on the command line, not ecg's failure */
			if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_RecursionError))
				return extract_config_error(path);
			pyrt_error(path);
			return err_prefix("--config");
		}
		if (PyUnicode_Check(r) && PyUnicode_AsUTF8(r))
			j = cJSON_Parse(PyUnicode_AsUTF8(r));
		PyErr_Clear();
		Py_DECREF(r);
		if (!j)
			why = "not a mapping of values";
	}
	buf_free(&b);
	if (!j || !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return err_set(ECG_EXIT_USAGE, "--config '%s': %s", path, why ? why : "not a mapping of values");
	}
	*out = cJSON_CreateObject();
	extract_flatten(j, *out, 0);
	cJSON_Delete(j);
	return 0;
}

/* What kind of job this is, on the evidence the interpreter saw; where it
 * starts, and its step.  Strings go into the arena of `in`. */
/* Read the job from its entry script: the models it calls, and what their
 * forwards do. */
/* The default output directory, records/ in the work tree, is written
 * only if it is a directory or not there yet: a `records` committed as a
 * symbolic link would send the records anywhere.  (--out DIR is followed:
 * the user named it.)  0, or -1 with err_set(ECG_EXIT_OUTPUT). */
static int extract_default_dir_ok(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0 || S_ISDIR(st.st_mode))
		return 0;
	return err_set(ECG_EXIT_OUTPUT, "'%s' is %s, not a directory: the records are not written through it "
	               "(give --out DIR)", dir, S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
}

/* The analysis of the job at `entry` (FUNC: started at that function),
 * with this run's options. */
static int extract_analyse(struct load *L, const char *entry, const char *func, const struct extract_opts *o,
                           const struct catalog *cat, const cJSON *overrides, cJSON *modules, cJSON *unres,
                           cJSON *config, struct job_info *job, cJSON *sched_parts)
{
	struct analyse_opts ao;

	memset(&ao, 0, sizeof ao);
	ao.entry_spec = o->entry;
	ao.argv = (const char *const *)o->job_argv;
	ao.argc = o->job_argc;
	ao.sets = (const char *const *)o->sets;
	ao.nsets = o->nsets;
	ao.overrides = overrides;
	ao.model = o->model;
	ao.loader = load_config_file;
	ao.loader_ctx = L;
	ao.interp_bytes = &L->interp_bytes;
	if (o->no_env && !o->env_set) {
		ao.env_known = 1;
		ao.envs = o->envs;
		ao.nenvs = o->nenvs;
	}
	return analyse_job(&L->prog, entry, func, &ao, cat, modules, unres, config, job, sched_parts);
}

/* A path as given (relative to where --repo pointed, or to the root), or
 * NULL. */
static const repo_file_t *extract_find_file(struct load *L, const char *given)
{
	char *under = xasprintf("%s%s", repo_prefix(L->repo), given);
	char *esc = repo_path_escape(under);
	const repo_file_t *f = load_find_file(L, under);

	/* a name with bytes the records escape, typed as it is on disk */
	if (!f)
		f = load_find_file(L, esc);
	free(under);
	free(esc);
	if (!f) {
		esc = repo_path_escape(given);
		f = load_find_file(L, given);
		if (!f)
			f = load_find_file(L, esc);
		free(esc);
	}
	return f;
}

/* An --entry that names a file ecg does not read as Python. */
static int extract_not_python(const char *spec, const char *path)
{
	return err_set(ECG_EXIT_INPUT, "entry '%s': %s is not a Python file (ecg reads a job from a .py script, "
	               "FILE:FUNCTION or MODULE:FUNCTION; 'ecg jobs' lists the entries, launchers included)",
	               spec, path);
}

/* --entry: FILE, FILE:FUNCTION or MODULE:FUNCTION (a console script's
 * form).  *path (owned) and *func (owned, or NULL).  0, or -1 with err_set(). */
static int extract_find_entry(struct load *L, const char *spec, int worktree, char **path, char **func)
{
	const repo_file_t *f = extract_find_file(L, spec);
	const char *colon = strrchr(spec, ':');

	*path = NULL;
	*func = NULL;
	if (f) {
		if (!load_is_py(f->path))
			return extract_not_python(spec, f->path);
		*path = xstrdup(f->path);
		return 0;
	}
	if (colon && colon[1] && colon > spec) {
		char *left = xstrndup(spec, (size_t)(colon - spec));

		f = extract_find_file(L, left);
		if (f && !load_is_py(f->path)) {
			free(left);
			return extract_not_python(spec, f->path);
		}
		if (f)
			*path = xstrdup(f->path);
		else
			*path = job_module_file(L, left, 0);
		free(left);
		if (*path) {
			*func = xstrdup(colon + 1);
			return 0;
		}
	}
	return err_set(ECG_EXIT_INPUT, "entry '%s' is not a file (or FILE:FUNCTION, MODULE:FUNCTION) %s %.12s", spec,
	               worktree ? "in the work tree of" : "at commit", L->commit);
}

/* --launcher FILE[:LINE]: the launch on LINE (or the only one) of FILE,
 * read with the launcher's own arguments (o->job_argv, moved to
 * o->launcher_argv); its script becomes *entry and its arguments the
 * job's command line (o->job_argv, pointing into *launches; *argv_out is
 * the array, the caller frees it).  -1 with ECG_EXIT_INPUT when there is
 * no such file or launch, naming the launches there are. */
static int extract_launcher(struct load *L, struct extract_opts *o, struct launch_list *launches,
                            const struct launch **launch, char **entry, char ***argv_out)
{
	const char *colon = strrchr(o->launcher, ':');
	char *file, *data = NULL, *path;
	const repo_file_t *f;
	const struct launch *la;
	size_t line = 0, len = 0, i;

	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		file = xstrndup(o->launcher, (size_t)(colon - o->launcher));
		line = strtoul(colon + 1, NULL, 10);
	} else {
		file = xstrdup(o->launcher);
	}
	f = extract_find_file(L, file);
	if (!f || f->kind != REPO_FILE ||
	    repo_read(L->repo, f, o->worktree, o->max_file, &data, &len) < 0) {
		err_set(ECG_EXIT_INPUT, "launcher '%s' is not a readable file %s %.12s", file,
		        o->worktree ? "in the work tree of" : "at commit", L->commit);
		free(file);
		return -1;
	}
	load_add_file(L, f);   /* check and refresh see the launcher change */
	o->launcher_argv = o->job_argv;
	o->launcher_argc = o->job_argc;
	launcher_scan(data, len, (const char *const *)o->launcher_argv, o->launcher_argc, o->launcher_argc > 0,
	              launches);
	free(data);
	la = launch_at(launches, line);
	if (!la) {
		buf_t b;

		buf_init(&b);
		for (i = 0; i < launches->n; i++)
			buf_addf(&b, "%s%s:%zu (%s %s)", i ? ", " : "", f->path, launches->v[i].line,
			         launches->v[i].launcher,
			         launches->v[i].script ? launches->v[i].script : launches->v[i].module);
		if (!launches->n)
			err_set(ECG_EXIT_INPUT, "launcher %s starts no Python job that ecg can read", f->path);
		else if (line)
			err_set(ECG_EXIT_INPUT, "launcher %s starts no job on line %zu; its launches: %s", f->path, line, b.buf);
		else
			err_set(ECG_EXIT_INPUT, "launcher %s starts several jobs: give FILE:LINE, one of %s", f->path, b.buf);
		buf_free(&b);
		free(file);
		return -1;
	}
	path = job_launch_file(L, f->path, la);
	if (!path) {
		err_set(ECG_EXIT_INPUT, "%s:%zu starts %s, which is not a file of the repository", f->path, la->line,
		        la->script ? la->script : la->module);
		free(file);
		return -1;
	}
	if (!o->quiet) {
		if (la->condition)
			err_warn("%s:%zu runs only when %s", f->path, la->line, la->condition);
		for (i = 0; i < la->ncommand; i++)
			if (!la->command[i].known)
				err_warn("%s:%zu: '%s' is not pinned down by the launcher: passed as written",
				         f->path, la->line, la->command[i].text);
	}
	*argv_out = xcalloc(la->argc + 1, sizeof **argv_out);
	for (i = 0; i < la->argc; i++)
		(*argv_out)[i] = la->argv[i].text;
	o->job_argv = *argv_out;
	o->job_argc = la->argc;
	/* a plain `python script.py` gives the job no variables of its own;
	 * torchrun, deepspeed, accelerate, srun, mpirun set RANK & co. */
	o->env_set = strcmp(la->launcher, "python") || la->wrapper;
	*launch = la;
	*entry = path;
	free(file);
	return 0;
}

static void extract_mark(void *ctx, const char *what)
{
	stats_mark(ctx, what);
}

/* The invocation, recorded in both headers so that `ecg refresh` can
 * read the job again the same way. */
/* The launch a --launcher run read, for `invocation`: where it is, the
 * launcher's own arguments, and how many processes it starts. */
static cJSON *extract_launch_json(const struct extract_opts *o, const struct launch *la)
{
	cJSON *j = cJSON_CreateObject(), *a;
	const char *colon = strrchr(o->launcher, ':');
	size_t i;

	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		char *f = xstrndup(o->launcher, (size_t)(colon - o->launcher));

		cJSON_AddStringToObject(j, "file", f);
		free(f);
	} else {
		cJSON_AddStringToObject(j, "file", o->launcher);
	}
	cJSON_AddNumberToObject(j, "line", (double)la->line);
	cJSON_AddStringToObject(j, "launcher", la->launcher);
	a = cJSON_AddArrayToObject(j, "args");
	for (i = 0; i < o->launcher_argc; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(o->launcher_argv[i]));
	a = cJSON_AddArrayToObject(j, "not_literal");
	for (i = 0; i < la->ncommand; i++)
		if (!la->command[i].known)
			cJSON_AddItemToArray(a, cJSON_CreateString(la->command[i].text));
	if (la->world > 0) {
		cJSON_AddNumberToObject(j, "world_size", (double)la->world);
		cJSON_AddStringToObject(j, "world_size_from", la->world_source ? la->world_source : "");
	} else {
		cJSON_AddNullToObject(j, "world_size");
		cJSON_AddStringToObject(j, "world_size_reason", la->world_reason ? la->world_reason : "not known");
	}
	if (la->condition)
		cJSON_AddStringToObject(j, "condition", la->condition);
	else
		cJSON_AddNullToObject(j, "condition");
	return j;
}

static cJSON *extract_invocation(const struct extract_opts *o, const char *entry, const char *func,
                                 const cJSON *overrides, const struct launch *launch)
{
	cJSON *inv = cJSON_CreateObject(), *a;
	size_t i;

	/* the entry as found (repository-relative), not as typed */
	if (func) {
		char *e = xasprintf("%s:%s", entry, func);

		cJSON_AddStringToObject(inv, "entry", e);
		free(e);
	} else {
		cJSON_AddStringToObject(inv, "entry", entry);
	}
	a = cJSON_AddArrayToObject(inv, "argv");
	for (i = 0; i < o->job_argc; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(o->job_argv[i]));
	a = cJSON_AddArrayToObject(inv, "set");
	for (i = 0; i < o->nsets; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(o->sets[i]));
	if (overrides)
		cJSON_AddItemToObject(inv, "config_values", cJSON_Duplicate(overrides, 1));
	else
		cJSON_AddNullToObject(inv, "config_values");
	if (o->model)
		cJSON_AddStringToObject(inv, "model", o->model);
	else
		cJSON_AddNullToObject(inv, "model");
	if (launch)
		cJSON_AddItemToObject(inv, "launcher", extract_launch_json(o, launch));
	/* the environment as read: KEY=VALUE strings, KEY alone for a variable
	 * set to a value not known (others unset), or null when it was not
	 * known */
	if (o->no_env && !o->env_set) {
		a = cJSON_AddArrayToObject(inv, "env");
		for (i = 0; i < o->nenvs; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(o->envs[i]));
	} else {
		cJSON_AddNullToObject(inv, "env");
	}
	return inv;
}

/* Whether an unresolved entry tells of a budget spent (the likeliest
 * reason a model or a step was not found). */
static int extract_is_budget(const cJSON *u)
{
	static const char *const words[] = { "evaluation steps", "memory bound", "budget", "too deep", NULL };
	const char *r = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "reason"));
	size_t i;

	for (i = 0; r && words[i]; i++)
		if (strstr(r, words[i]))
			return 1;
	return 0;
}

/* With --entry: no model, or no step, is said on stderr and in the
 * records (`incomplete`), with the unresolved entries most likely behind
 * it -- a budget spent first, then the first calls not followed.  NULL
 * when both were found.  Owned. */
static cJSON *extract_incomplete(const char *entry, int no_model, int no_step, const cJSON *unres, int quiet)
{
	static const struct {
		const char *what, *reason;
	} kinds[] = {
		{ "model", "no model the job builds and calls was found" },
		{ "step", "no step (the loop or handler around the model call) was found" },
	};
	cJSON *out, *e, *by;
	const cJSON *u;
	buf_t b;
	int k, pass, n;

	if (!no_model && !no_step)
		return NULL;
	out = cJSON_CreateArray();
	buf_init(&b);
	for (k = 0; k < 2; k++) {
		if ((k == 0 && !no_model) || (k == 1 && !no_step))
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "what", kinds[k].what);
		cJSON_AddStringToObject(e, "reason", kinds[k].reason);
		by = cJSON_AddArrayToObject(e, "stopped_by");
		buf_reset(&b);
		n = 0;
		for (pass = 0; pass < 2 && n < 3; pass++) {
			cJSON_ArrayForEach(u, unres) {
				const char *what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "what"));
				const char *anchor = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "anchor"));
				const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "reason"));

				/* code the reading gave up on: an anchor, not a file */
				if (n >= 3 || !anchor || !reason || !strchr(anchor, ':') ||
				    (what && !strcmp(what, "which model the job runs")) || extract_is_budget(u) != (pass == 0))
					continue;
				cJSON_AddItemToArray(by, cJSON_Duplicate(u, 1));
				buf_addf(&b, "%s%s: %s", n ? "; " : "", anchor, reason);
				n++;
			}
		}
		cJSON_AddItemToArray(out, e);
		if (!quiet)
			err_warn("warning: %s: %s%s%s", entry, kinds[k].reason,
			         n ? "; what stopped the reading: " : " (nothing ecg gave up on explains it)", b.buf);
	}
	buf_free(&b);
	return out;
}

/* Read and analyse as the options say.  ECG_EXIT_OK with *graph, *sched
 * (the caller deletes them) and *out_dir (the caller frees it) set; else
 * the exit status, the error already printed.  `inline_overrides`, when
 * not NULL, stands for --config FILE's values (refresh replays the
 * recorded ones). */
static int extract_build(const struct extract_opts *o_, const cJSON *inline_overrides, cJSON **graph_out,
                         cJSON **sched_out, char **out_dir_out, int *incomplete_out)
{
	struct extract_opts o = *o_;
	struct load_opts lo;
	struct load L;
	char *out_dir = NULL, *entry = NULL, *func = NULL, *helpers = NULL;
	struct catalog *cat = NULL;
	char *catdir = NULL, *cache_dir = NULL;
	cJSON *config = NULL, *overrides = NULL, *invocation = NULL, *incomplete = NULL;
	cJSON *graph = NULL, *sched = NULL, *modules = NULL, *sched_parts = NULL;
	records_header_t h;
	struct stats st;
	struct job_info job;
	struct launch_list launches = { 0 };
	const struct launch *launch = NULL;
	char **launch_argv = NULL;
	int dirty = 0, rc, loaded = 0;

	memset(&st, 0, sizeof st);
	memset(&job, 0, sizeof job);
	memset(&L, 0, sizeof L);      /* load_open() initialises it */
	*graph_out = *sched_out = NULL;
	*out_dir_out = NULL;
	if (o.stats) {
		st.on = 1;
		st.t0 = st.last = stats_now();
	}

	helpers = helpers_find(o.helpers_dir);
	if (!helpers)
		goto fail;
	if (o.entry || o.launcher) {
		catdir = catalog_dir_beside(helpers);
		if (!catdir || catalog_load(catdir, &cat) < 0)
			goto fail;
		stats_mark(&st, "catalogue loaded");
	}
	memset(&lo, 0, sizeof lo);
	lo.repo = o.repo;
	lo.rev = o.rev;
	lo.worktree = o.worktree;
	lo.max_file = o.max_file;
	lo.quiet = o.quiet;
	lo.jobs = o.jobs;
	lo.helpers = helpers;
	lo.all = o.all;
	/* the tree cache serves the analysis (treecache.h) */
	if ((o.entry || o.launcher) && !o.no_cache)
		cache_dir = o.cache_dir ? xstrdup(o.cache_dir) : treecache_default_dir();
	lo.cache_dir = cache_dir;
	lo.parse_only = o.entry == NULL && o.launcher == NULL;
	lo.prefetch = o.prefetch;
	lo.nprefetch = o.nprefetch;
	pyast_set_max_tokens(o.max_tokens);
	loaded = 1;
	if (load_open(&L, &lo) < 0)
		goto fail;
	if (o.out) {
		out_dir = xstrdup(o.out);
	} else if (repo_is_bare(L.repo)) {
		err_set(ECG_EXIT_USAGE, "'%s' is a bare repository: give --out DIR for the records", o.repo);
		goto fail;
	} else {
		out_dir = xasprintf("%srecords", repo_workdir(L.repo));
		if (extract_default_dir_ok(out_dir) < 0)
			goto fail;
	}
	stats_mark(&st, "listed, python started");

	if (o.launcher) {
		if (extract_launcher(&L, &o, &launches, &launch, &entry, &launch_argv) < 0)
			goto fail;
		o.entry = entry;
	} else if (o.entry && extract_find_entry(&L, o.entry, o.worktree, &entry, &func) < 0) {
		goto fail;
	}
	if (load_worktree_dirty(&L, &dirty) < 0)
		goto fail;

	/* Fail on an unwritable output directory before the long part. */
	if (emit_mkdirs(out_dir) < 0)
		goto fail;

	if (load_parse(&L, entry != NULL, extract_mark, &st) < 0)
		goto fail;
	/* The Python trees are gone; the interpreter stays for the config
	 * file readers in pyhelpers/. */

	config = cJSON_CreateArray();
	modules = cJSON_CreateArray();
	if (entry) {
		records_header_t ph;

		memset(&ph, 0, sizeof ph);
		ph.commit = L.commit;
		ph.python = "";
		sched_parts = records_schedule_new(&ph);
		if (inline_overrides)
			overrides = cJSON_Duplicate(inline_overrides, 1);
		else if (o.config && extract_read_overrides(&L, o.config, &overrides) < 0)
			goto fail;
		invocation = extract_invocation(&o, entry, func, overrides, launch);
		if (extract_analyse(&L, entry, func, &o, cat, overrides, modules, L.unresolved, config, &job, sched_parts) < 0)
			goto fail;
		stats_mark(&st, "analysis");
		if (st.on) {
			size_t i, ast = 0, nast = 0;

			for (i = 0; i < L.prog.n; i++)
				if (L.prog.files[i].arena) {
					ast += ast_arena_reserved(L.prog.files[i].arena);
					nast++;
				}
			fprintf(stderr, "ecg: stats: of the analysis, reading and parsing %zu files: %.2f ms "
			        "(%zu trees from the cache)\n", L.nread, L.read_ms, L.cache_hits);
			fprintf(stderr, "ecg: stats: memory: C trees %.1f MB (%zu files), interpreter %.1f MB\n",
			        ast / 1048576.0, nast, L.interp_bytes / 1048576.0);
		}
	}
	if (load_finish(&L) < 0 || load_worktree_dirty_read(&L, &dirty) < 0)
		goto fail;
	if (entry)
		incomplete = extract_incomplete(entry, cJSON_GetArraySize(modules) == 0, job.step_anchor == NULL,
		                                L.unresolved, 0);   /* not a per-file warning: -q keeps it */
	memset(&h, 0, sizeof h);
	h.commit = L.commit;
	h.dirty = dirty;
	h.python = pyrt_version();
	h.entry_file = entry;
	h.files = L.files;
	h.parse_errors = L.parse_errors;
	h.unresolved = L.unresolved;
	h.config = config;
	h.entry_anchor = job.entry_anchor;
	h.step_anchor = job.step_anchor;
	h.job_type = job.type;
	h.job_evidence = job.evidence;
	h.invocation = invocation;
	h.incomplete = incomplete;
	records_assemble(&h, modules, sched_parts, &graph, &sched);
	modules = NULL;
	if (!o.quiet)
		err_warn("read %d files at %.12s%s: %d did not parse, %d not followed",
		         cJSON_GetArraySize(L.files), L.commit, dirty ? " (dirty work tree)" : "",
		         cJSON_GetArraySize(L.parse_errors), cJSON_GetArraySize(L.unresolved));
	*graph_out = graph;
	*sched_out = sched;
	*out_dir_out = out_dir;
	graph = sched = NULL;
	out_dir = NULL;
	if (incomplete_out)
		*incomplete_out = incomplete != NULL;
	rc = ECG_EXIT_OK;
	goto cleanup;

fail:
	err_warn("%s", err_last());
	rc = err_code();
	if (rc == ECG_EXIT_OK)
		rc = ECG_EXIT_INTERNAL;
cleanup:
	if (loaded)
		load_free(&L);           /* the config helper before the interpreter */
	astconv_fini();
	pyrt_fini();
	stats_mark(&st, "python finalized");
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	cJSON_Delete(modules);
	cJSON_Delete(sched_parts);
	cJSON_Delete(config);
	cJSON_Delete(overrides);
	cJSON_Delete(invocation);
	cJSON_Delete(incomplete);
	job_info_free(&job);
	free(helpers);
	free(catdir);
	free(cache_dir);
	catalog_free(cat);
	free(entry);
	free(func);
	free(out_dir);
	free(launch_argv);
	launch_list_free(&launches);
	return rc;
}

/* Write both records into out_dir as one pair, and say where.  `locked`:
 * the caller holds the directory's lock (refresh, from its reading on);
 * else it is taken here.  Temporaries a killed run left are removed under
 * the lock. */
static int extract_write(const char *out_dir, cJSON *graph, cJSON *sched, int say, int locked)
{
	static const char *const names[2] = { RECORDS_GRAPH_FILE, RECORDS_SCHEDULE_FILE };
	char *graph_text = NULL, *sched_text = NULL;
	const char *texts[2];
	size_t lens[2];
	int rc = ECG_EXIT_OK, lock = -1;

	if (!locked && (lock = emit_lock(out_dir, 1)) < 0) {
		err_warn("%s", err_last());
		return err_code();
	}
	emit_clean_temps(out_dir, 2, names);
	records_seal(graph, sched, &graph_text, &sched_text);
	texts[0] = graph_text;
	texts[1] = sched_text;
	lens[0] = strlen(graph_text);
	lens[1] = strlen(sched_text);
	if (emit_write_set(out_dir, 2, names, texts, lens) < 0) {
		err_warn("%s", err_last());
		rc = err_code();
	} else if (say) {
		printf("%s/%s\n%s/%s\n", out_dir, RECORDS_GRAPH_FILE, out_dir, RECORDS_SCHEDULE_FILE);
	}
	emit_unlock(lock);
	free(graph_text);
	free(sched_text);
	return rc;
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
	return rc;
}

/* ------------------------------------------------------------------ refresh */

static const char refresh_usage[] =
"usage: ecg refresh [--repo PATH] [--rev REV | --worktree] [--out DIR]\n"
"                   [--helpers-dir DIR] [-j N] [--json] [-q]\n"
"                   [--cache-dir DIR | --no-cache]\n"
"\n"
"Bring both records in DIR to REV: read the job again as the records say\n"
"it was read (their `invocation`: entry, the job's command line, --set,\n"
"--config values, --model), keep the fields a person added to an entry whose\n"
"id still exists (and to the records' top level), leave removed entries out\n"
"(but never because their code stopped parsing: see the exit status),\n"
"and print what changed: entries added, removed and moved, repeat counts and\n"
"configuration values that changed.  The refreshed records are those\n"
"`ecg extract` writes at REV, plus the kept fields.\n"
"\n"
"  --repo PATH           the repository (default: .)\n"
"  --rev REV             the commit (default: HEAD)\n"
"  --worktree            read the work tree instead of the commit's blobs\n"
"  --out DIR             where the records are and go (default: records/ at\n"
"                        the work tree's root)\n"
"  --helpers-dir DIR     where ecg's Python helpers are\n"
"  -j, --jobs N          as for extract\n"
"  --cache-dir DIR, --no-cache\n"
"                        as for extract: the files that did not change are\n"
"                        not parsed again when their trees are in the cache\n"
"  --json                the change report as one JSON document\n"
"  -q, --quiet           no per-file warnings\n"
"  -h, --help            show this help\n"
"\n"
"Exit status: 0 records refreshed; 2 bad usage; 3 no records in DIR,\n"
"records without an invocation (written by an older ecg: extract again),\n"
"two records that are not one pair (their `run` ids differ), or a file\n"
"that parsed before does not parse at REV while entries with hand-added\n"
"fields would be dropped (nothing is written: fix the code first),\n"
"not a repository, unknown revision; 4 records not written; 5 internal\n"
"error.\n";

/* The keys ecg writes, per place; any other key was added by a person. */
static const char *const refresh_entry_keys[] = {
	"id", "kind", "parent", "order", "class", "op", "function", "code_anchor", "defined_at",
	"constructed_at", "args", "repeat", "total_repeat", "total_repeat_from_line", "condition",
	"shapes", "external", "params", NULL
};
static const char *const refresh_top_keys[] = {
	"schema", "tool", "commit", "dirty", "python", "entrypoint", "job_type", "config", "files",
	"parse_errors", "unresolved", "modules", "phases", "data_path", "host_device", "device_device",
	"compute", "overlap", "invocation", "incomplete", RECORDS_RUN_KEY, NULL
};

static int key_in(const char *k, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(k, *list))
			return 1;
	return 0;
}

/* Copy into `to` the keys of `from` a person added (not ecg's, not in to). */
static size_t refresh_keep(cJSON *to, const cJSON *from, const char *const *ecg_keys)
{
	const cJSON *c;
	size_t n = 0;

	cJSON_ArrayForEach(c, from) {
		if (!c->string || key_in(c->string, ecg_keys) || cJSON_GetObjectItemCaseSensitive(to, c->string))
			continue;
		cJSON_AddItemToObject(to, c->string, cJSON_Duplicate(c, 1));
		n++;
	}
	return n;
}

static const cJSON *by_id(const cJSON *mods, const char *id)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, mods) {
		const cJSON *i = cJSON_GetObjectItemCaseSensitive(e, "id");

		if (cJSON_IsString(i) && !strcmp(i->valuestring, id))
			return e;
	}
	return NULL;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int same_json(const cJSON *a, const cJSON *b)
{
	if (!a || !b)
		return a == b;
	return cJSON_Compare(a, b, 1);
}

/* The change report, and the hand-added fields carried over. */
static cJSON *refresh_merge(const cJSON *og, const cJSON *os, cJSON *ng, cJSON *ns)
{
	cJSON *rep = cJSON_CreateObject();
	cJSON *added = cJSON_AddArrayToObject(rep, "added");
	cJSON *removed = cJSON_AddArrayToObject(rep, "removed");
	cJSON *moved = cJSON_AddArrayToObject(rep, "moved");
	cJSON *repeats = cJSON_AddArrayToObject(rep, "repeat_changed");
	cJSON *config = cJSON_AddArrayToObject(rep, "config_changed");
	cJSON *kept = cJSON_AddArrayToObject(rep, "kept_fields");
	const cJSON *omods = cJSON_GetObjectItemCaseSensitive(og, "modules");
	cJSON *nmods = cJSON_GetObjectItemCaseSensitive(ng, "modules");
	const cJSON *e, *c;
	cJSON *n;

	cJSON_AddStringToObject(rep, "from_commit", str_of(og, "commit") ? str_of(og, "commit") : "?");
	cJSON_AddStringToObject(rep, "to_commit", str_of(ng, "commit") ? str_of(ng, "commit") : "?");
	cJSON_ArrayForEach(n, nmods) {
		const char *id = str_of(n, "id");
		const cJSON *o = id ? by_id(omods, id) : NULL;

		if (!id)
			continue;
		if (!o) {
			cJSON_AddItemToArray(added, cJSON_CreateString(id));
			continue;
		}
		if (!same_json(cJSON_GetObjectItemCaseSensitive(o, "code_anchor"),
		               cJSON_GetObjectItemCaseSensitive(n, "code_anchor"))) {
			cJSON *m = cJSON_CreateObject();

			cJSON_AddStringToObject(m, "id", id);
			cJSON_AddItemToObject(m, "from", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(o, "code_anchor"), 1));
			cJSON_AddItemToObject(m, "to", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(n, "code_anchor"), 1));
			cJSON_AddItemToArray(moved, m);
		}
		if (!same_json(cJSON_GetObjectItemCaseSensitive(o, "total_repeat"),
		               cJSON_GetObjectItemCaseSensitive(n, "total_repeat"))) {
			cJSON *m = cJSON_CreateObject();
			const cJSON *ot = cJSON_GetObjectItemCaseSensitive(o, "total_repeat");
			const cJSON *nt = cJSON_GetObjectItemCaseSensitive(n, "total_repeat");

			cJSON_AddStringToObject(m, "id", id);
			cJSON_AddItemToObject(m, "from", ot ? cJSON_Duplicate(ot, 1) : cJSON_CreateNull());
			cJSON_AddItemToObject(m, "to", nt ? cJSON_Duplicate(nt, 1) : cJSON_CreateNull());
			cJSON_AddItemToArray(repeats, m);
		}
		if (refresh_keep(n, o, refresh_entry_keys)) {
			cJSON_AddItemToArray(kept, cJSON_CreateString(id));
		}
	}
	cJSON_ArrayForEach(e, omods) {
		const char *id = str_of(e, "id");

		if (id && !by_id(nmods, id))
			cJSON_AddItemToArray(removed, cJSON_CreateString(id));
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(og, "config")) {
		const char *name = str_of(e, "name");
		const cJSON *hit = NULL;

		if (!name)
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(ng, "config"))
			if (str_of(c, "name") && !strcmp(str_of(c, "name"), name))
				hit = c;
		if (!hit || !same_json(cJSON_GetObjectItemCaseSensitive(e, "value"), cJSON_GetObjectItemCaseSensitive(hit, "value"))) {
			cJSON *m = cJSON_CreateObject();
			const cJSON *ov = cJSON_GetObjectItemCaseSensitive(e, "value");
			const cJSON *nv = hit ? cJSON_GetObjectItemCaseSensitive(hit, "value") : NULL;

			cJSON_AddStringToObject(m, "name", name);
			cJSON_AddItemToObject(m, "from", ov ? cJSON_Duplicate(ov, 1) : cJSON_CreateNull());
			cJSON_AddItemToObject(m, "to", nv ? cJSON_Duplicate(nv, 1) : cJSON_CreateNull());
			cJSON_AddItemToArray(config, m);
		}
	}
	if (refresh_keep(ng, og, refresh_top_keys))
		cJSON_AddItemToArray(kept, cJSON_CreateString("(computation_graph top level)"));
	if (refresh_keep(ns, os, refresh_top_keys))
		cJSON_AddItemToArray(kept, cJSON_CreateString("(execution_schedule top level)"));
	return rep;
}

/* Would writing ng lose a person's fields because the code stopped
 * parsing?  When a file that parsed before (it is not in og's
 * parse_errors) does not parse now, and an entry that carries fields a
 * person added is not in ng, the entry may be gone only because its code
 * could not be read: refuse, and write nothing (the old records keep the
 * fields; a refresh after the fix carries them over).  0, or -1 with
 * err_set(ECG_EXIT_INPUT) naming the files and the entries. */
static int refresh_guard(const cJSON *og, const cJSON *ng)
{
	const cJSON *e, *c;
	buf_t files, ids;
	size_t nfiles = 0, nids = 0;
	int rc = 0;

	buf_init(&files);
	buf_init(&ids);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ng, "parse_errors")) {
		const char *f = str_of(e, "file");
		int before = 0;
		double line = 0;

		if (!f)
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(og, "parse_errors"))
			if (str_of(c, "file") && !strcmp(str_of(c, "file"), f))
				before = 1;
		if (before)
			continue;
		if (nfiles++ < 5) {
			buf_addf(&files, "%s%s", files.len ? ", " : "", f);
			if (records_num(e, "line", &line))
				buf_addf(&files, ":%.0f", line);
			if (str_of(e, "message"))
				buf_addf(&files, " (%s)", str_of(e, "message"));
		}
	}
	if (!nfiles)
		goto done;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(og, "modules")) {
		const char *id = str_of(e, "id");
		int hand = 0;

		if (!id || by_id(cJSON_GetObjectItemCaseSensitive(ng, "modules"), id))
			continue;
		cJSON_ArrayForEach(c, e)
			if (c->string && !key_in(c->string, refresh_entry_keys))
				hand = 1;
		if (hand && nids++ < 5)
			buf_addf(&ids, "%s'%s'", ids.len ? ", " : "", id[0] ? id : "(the model)");
	}
	if (nids)
		rc = err_set(ECG_EXIT_INPUT, "refresh: %zu file%s that parsed before do%s not parse now (%s%s), and %zu "
		             "entr%s with fields a person added would be dropped (%s%s): nothing written.  Fix the "
		             "code and refresh again, or run ecg extract to start over",
		             nfiles, nfiles == 1 ? "" : "s", nfiles == 1 ? "es" : "", files.buf, nfiles > 5 ? ", ..." : "",
		             nids, nids == 1 ? "y" : "ies", ids.buf, nids > 5 ? ", ..." : "");
done:
	buf_free(&files);
	buf_free(&ids);
	return rc;
}

static void refresh_print(const cJSON *rep)
{
	static const char *const lists[] = { "added", "removed", "moved", "repeat_changed", "config_changed",
	                                     "kept_fields", NULL };
	size_t i;

	printf("refreshed %.12s -> %.12s%s\n", vis(str_of(rep, "from_commit")), vis(str_of(rep, "to_commit")),
	       cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rep, "read_again"))
	       ? " (only code moved: anchors relocated, the job not read again)" : "");
	for (i = 0; lists[i]; i++) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(rep, lists[i]), *e;

		cJSON_ArrayForEach(e, l) {
			if (cJSON_IsString(e)) {
				printf("  %-15s %s\n", lists[i], vis(e->valuestring));
			} else {
				char *from = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "from"));
				char *to = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "to"));
				const char *who = str_of(e, "id") ? str_of(e, "id") : str_of(e, "name");

				printf("  %-15s %s: %s -> %s\n", lists[i], !who ? "?" : who[0] ? vis(who) : "(the model)", vis(from),
				       vis(to));
				free(from);
				free(to);
			}
		}
	}
	printf("%d added, %d removed (dropped), %d moved, %d repeat counts and %d config values changed, "
	       "hand-added fields kept on %d entries\n",
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "added")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "removed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "moved")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "repeat_changed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "config_changed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "kept_fields")));
}

int cmd_refresh(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "rev", required_argument, NULL, 'R' },
		{ "worktree", no_argument, NULL, 'w' },
		{ "out", required_argument, NULL, 'o' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "cache-dir", required_argument, NULL, 'C' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct extract_opts o;
	cJSON *og = NULL, *os = NULL, *ng = NULL, *ns = NULL, *rep = NULL;
	const cJSON *inv, *a;
	char *out_dir = NULL, *dir = NULL, **argvv = NULL, *cache_dir = NULL, *launcher_spec = NULL;
	const cJSON *lj;
	int c, rc, json = 0, fast, lock = -1;
	size_t n = 0;
	repo_t *r = NULL;

	memset(&o, 0, sizeof o);
	o.repo = ".";
	o.max_file = EXTRACT_DEFAULT_MAX_FILE;
	o.max_tokens = PYAST_DEFAULT_MAX_TOKENS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+qhj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o.repo = optarg; break;
		case 'R': o.rev = optarg; break;
		case 'w': o.worktree = 1; break;
		case 'o': o.out = optarg; break;
		case 'H': o.helpers_dir = optarg; break;
		case 'J': json = 1; break;
		case 'q': o.quiet = 1; break;
		case 'C': o.cache_dir = optarg; break;
		case 'N': o.no_cache = 1; break;
		case 'j':
			if (cmd_opt_jobs(optarg, &o.jobs) < 0)
				goto fail;
			break;
		case 'h':
			fputs(refresh_usage, stdout);
			return ECG_EXIT_OK;
		default:
			cmd_opt_unknown("refresh", argv);
			goto fail;
		}
	}
	if (optind < argc) {
		err_set(ECG_EXIT_USAGE, "refresh: unexpected argument '%s' (see 'ecg refresh --help')", argv[optind]);
		goto fail;
	}
	if (cmd_opt_rev("refresh", o.worktree, &o.rev) < 0)
		goto fail;
	/* where the records are: as extract would write them */
	if (o.out) {
		dir = xstrdup(o.out);
	} else {
		if (repo_open(o.repo, &r) < 0)
			goto fail;
		if (repo_is_bare(r)) {
			err_set(ECG_EXIT_USAGE, "'%s' is a bare repository: give --out DIR", o.repo);
			goto fail;
		}
		dir = xasprintf("%srecords", repo_workdir(r));
		repo_free(r);
		r = NULL;
		if (extract_default_dir_ok(dir) < 0)
			goto fail;
	}
	/* one refresh at a time, and no extract between its reading and its
	 * writing (no lock file is made where there are no records) */
	{
		struct stat st;

		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (lock = emit_lock(dir, 1)) < 0)
			goto fail;
	}
	if (!(og = records_read(dir, RECORDS_GRAPH_FILE)) || !(os = records_read(dir, RECORDS_SCHEDULE_FILE)) ||
	    records_check_pair(og, os, dir) < 0)
		goto fail;
	inv = cJSON_GetObjectItemCaseSensitive(og, "invocation");
	if (!cJSON_IsObject(inv) || !str_of(inv, "entry")) {
		err_set(ECG_EXIT_INPUT, "%s/%s has no invocation (written by an older ecg, or without --entry): "
		        "run ecg extract again", dir, RECORDS_GRAPH_FILE);
		goto fail;
	}
	o.entry = str_of(inv, "entry");
	o.model = str_of(inv, "model");
	o.out = dir;
	a = cJSON_GetObjectItemCaseSensitive(inv, "argv");
	argvv = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *argvv);
	{
		const cJSON *x;

		cJSON_ArrayForEach(x, a)
			if (cJSON_IsString(x))
				argvv[n++] = x->valuestring;
		o.job_argv = argvv;
		o.job_argc = n;
		n = 0;
		/* read through the launcher again, with its own arguments */
		lj = cJSON_GetObjectItemCaseSensitive(inv, "launcher");
		if (cJSON_IsObject(lj) && str_of(lj, "file") &&
		    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(lj, "line"))) {
			launcher_spec = xasprintf("%s:%d", str_of(lj, "file"),
			                          cJSON_GetObjectItemCaseSensitive(lj, "line")->valueint);
			o.launcher = launcher_spec;
			o.entry = NULL;
			a = cJSON_GetObjectItemCaseSensitive(lj, "args");
			free(argvv);
			argvv = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *argvv);
			cJSON_ArrayForEach(x, a)
				if (cJSON_IsString(x))
					argvv[n++] = x->valuestring;
			o.job_argv = argvv;
			o.job_argc = n;
			n = 0;
		}
		a = cJSON_GetObjectItemCaseSensitive(inv, "set");
		o.sets = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o.sets);
		cJSON_ArrayForEach(x, a)
			if (cJSON_IsString(x) && strchr(x->valuestring, '='))
				o.sets[n++] = x->valuestring;
		o.nsets = n;
		n = 0;
		a = cJSON_GetObjectItemCaseSensitive(inv, "env");
		if (cJSON_IsArray(a)) {   /* the environment was known */
			o.no_env = 1;
			o.envs = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o.envs);
			cJSON_ArrayForEach(x, a)
				if (cJSON_IsString(x) && x->valuestring[0] && x->valuestring[0] != '=')
					o.envs[n++] = x->valuestring;
			o.nenvs = n;
		}
	}
	/* the files the job read last time: their trees are read ahead */
	{
		const cJSON *fl = cJSON_GetObjectItemCaseSensitive(og, "files"), *x;

		o.prefetch = xcalloc((size_t)cJSON_GetArraySize(fl) + 1, sizeof *o.prefetch);
		cJSON_ArrayForEach(x, fl) {
			const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "path"));

			if (p)
				o.prefetch[o.nprefetch++] = p;
		}
	}
	a = cJSON_GetObjectItemCaseSensitive(inv, "config_values");
	/* only moved code: move the anchors, read nothing else */
	/* the changed files' trees, old and new, from and to the tree cache */
	if (!o.no_cache)
		cache_dir = o.cache_dir ? xstrdup(o.cache_dir) : treecache_default_dir();
	fast = o.worktree ? 0 : check_relocate(o.repo, o.rev, o.helpers_dir, cache_dir, og, os, &ng, &ns);
	if (fast < 0)
		goto fail;
	if (fast) {
		out_dir = xstrdup(dir);
		rc = ECG_EXIT_OK;
	} else {
		rc = extract_build(&o, cJSON_IsObject(a) ? a : NULL, &ng, &ns, &out_dir, NULL);
		if (rc != ECG_EXIT_OK)
			goto cleanup;
	}
	if (refresh_guard(og, ng) < 0)
		goto fail;
	rep = refresh_merge(og, os, ng, ns);
	cJSON_AddBoolToObject(rep, "read_again", !fast);
	rc = extract_write(out_dir, ng, ns, !json, lock >= 0);
	if (rc == ECG_EXIT_OK) {
		if (json) {
			char *t = emit_render(rep);

			fputs(t, stdout);
			free(t);
		} else {
			refresh_print(rep);
		}
	}
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	emit_unlock(lock);
	repo_free(r);
	cJSON_Delete(og);
	cJSON_Delete(os);
	cJSON_Delete(ng);
	cJSON_Delete(ns);
	cJSON_Delete(rep);
	free(out_dir);
	free(dir);
	free(argvv);
	free(launcher_spec);
	free(o.sets);
	free(o.envs);
	free(o.prefetch);
	free(cache_dir);
	return rc;
}
