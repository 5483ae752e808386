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

#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/interp.h"
#include "ecg/modtree.h"
#include "ecg/parsepool.h"
#include "ecg/schedule.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/util.h"

#define EXTRACT_DEFAULT_MAX_FILE (16UL << 20)

static const char extract_usage[] =
"usage: ecg extract [--repo PATH] [--rev REV | --worktree] [--entry FILE]\n"
"                   [--out DIR] [--max-file-size BYTES] [--helpers-dir DIR] [-q]\n"
"                   [--set KEY=VALUE]... [--config FILE] [--model NAME]\n"
"                   [-j N] [--stats]\n"
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
"                        `dirty` is set when they differ from REV\n"
"  --entry FILE          the job's entry script, relative to PATH (or to the\n"
"                        repository root); it must exist at REV\n"
"  --out DIR             where to write the records (default: records/ at the\n"
"                        work tree's root; required for a bare repository)\n"
"  --max-file-size BYTES larger .py files are not parsed and are reported in\n"
"                        parse_errors (default: 16777216)\n"
"  --helpers-dir DIR     where ecg's Python helpers are (default: found\n"
"                        next to the build tree, else the installed ones)\n"
"  -q, --quiet           do not print per-file warnings\n"
"  --set KEY=VALUE       the job's configuration value KEY (an argparse option,\n"
"                        a dataclass field, a global of the entry script, a\n"
"                        config file key) is VALUE, as in the run profiled;\n"
"                        repeatable\n"
"  --config FILE         a JSON, TOML or YAML file of KEY: VALUE pairs, each\n"
"                        applied as --set (nested keys by their last name)\n"
"  --model NAME          the model to record, by the name the job binds it to\n"
"                        or its class, when the job calls several\n"
"  -j, --jobs N          parse in N worker processes (default: one per CPU\n"
"                        for 200 files or more, else none); the records are\n"
"                        the same for every N\n"
"  --stats               print where the time went, phase by phase, on stderr\n"
"  -- JOB-ARGS...        the job's own command line (what follows the script\n"
"                        name), read by its argparse or configurator, so that\n"
"                        the record matches the run that was profiled\n"
"  -h, --help            show this help\n"
"\n"
"A file that does not parse, is too large, or cannot be read becomes an entry\n"
"in parse_errors and the run goes on.  Symbolic links and submodules are not\n"
"followed; they are listed in `unresolved`.  The record files are replaced\n"
"atomically: a failed run leaves earlier records as they were.  On success the\n"
"paths of the two records are printed, one per line.\n"
"\n"
"Exit status: 0 records written; 2 bad usage; 3 not a repository, empty\n"
"repository, unknown revision, or entry not found; 4 records not written;\n"
"5 internal error.\n";

struct extract_opts {
	const char *repo;
	const char *rev;
	const char *entry;
	const char *out;
	const char *helpers_dir;
	int worktree;
	int quiet;
	int stats;
	int jobs;                   /* 0: auto */
	const char *model;          /* --model NAME */
	const char **sets;          /* --set KEY=VALUE, in order */
	size_t nsets;
	const char *config;         /* --config FILE */
	size_t max_file;
	char **job_argv;            /* after `--`: the job's own command line */
	size_t job_argc;
};

static int extract_parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end || v == 0)
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
		{ "out", required_argument, NULL, 'o' },
		{ "worktree", no_argument, NULL, 'w' },
		{ "max-file-size", required_argument, NULL, 'm' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "set", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "model", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof *o);
	o->repo = ".";
	o->max_file = EXTRACT_DEFAULT_MAX_FILE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+qhj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->repo = optarg; break;
		case 'R': o->rev = optarg; break;
		case 'e': o->entry = optarg; break;
		case 'o': o->out = optarg; break;
		case 'w': o->worktree = 1; break;
		case 'H': o->helpers_dir = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'S': o->stats = 1; break;
		case 's':
			if (!strchr(optarg, '=') || optarg[0] == '=')
				return err_set(ECG_EXIT_USAGE, "--set takes KEY=VALUE, not '%s'", optarg);
			o->sets = xrealloc(o->sets, (o->nsets + 1) * sizeof *o->sets);
			o->sets[o->nsets++] = optarg;
			break;
		case 'c': o->config = optarg; break;
		case 'M': o->model = optarg; break;
		case 'j': {
			size_t j;

			if (extract_parse_size(optarg, &j) < 0 || j > 64)
				return err_set(ECG_EXIT_USAGE, "-j takes a number of processes from 1 to 64, not '%s'", optarg);
			o->jobs = (int)j;
			break;
		}
		case 'm':
			if (extract_parse_size(optarg, &o->max_file) < 0)
				return err_set(ECG_EXIT_USAGE, "--max-file-size takes a positive number of bytes, not '%s'", optarg);
			break;
		case 'h':
			fputs(extract_usage, stdout);
			return 1;
		default:
			if (optopt)
				return err_set(ECG_EXIT_USAGE, "extract: unknown option '-%c' (see 'ecg extract --help')", optopt);
			return err_set(ECG_EXIT_USAGE, "extract: unknown or incomplete option '%s' (see 'ecg extract --help')",
			               argv[optind - 1]);
		}
	}
	if (optind < argc && optind > 1 && !strcmp(argv[optind - 1], "--")) {
		o->job_argv = argv + optind;
		o->job_argc = (size_t)(argc - optind);
	} else if (optind < argc) {
		return err_set(ECG_EXIT_USAGE, "extract: unexpected argument '%s' (see 'ecg extract --help')", argv[optind]);
	}
	if (o->worktree && o->rev)
		return err_set(ECG_EXIT_USAGE, "extract: --worktree reads the work tree against HEAD; it does not take --rev");
	if (!o->rev)
		o->rev = "HEAD";
	return 0;
}

/* Normalise a relative path: drop "." components and empty ones, resolve
 * "..".  Returns an owned copy, or NULL if ".." climbs above the start. */
static char *extract_norm_path(const char *p)
{
	buf_t b;
	const char *seg = p, *end;

	buf_init(&b);
	while (*seg) {
		size_t n;

		end = strchr(seg, '/');
		if (!end)
			end = seg + strlen(seg);
		n = (size_t)(end - seg);
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			char *slash;

			if (b.len == 0) {
				buf_free(&b);
				return NULL;
			}
			slash = strrchr(b.buf, '/');
			b.len = slash ? (size_t)(slash - b.buf) : 0;
			b.buf[b.len] = 0;
		} else if (n > 0 && !(n == 1 && seg[0] == '.')) {
			if (b.len)
				buf_addch(&b, '/');
			buf_add(&b, seg, n);
		}
		seg = *end ? end + 1 : end;
	}
	return buf_detach(&b);
}

static const repo_file_t *extract_find(const repo_file_t *files, size_t n, const char *path)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(files[mid].path, path);

		if (c == 0)
			return &files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int extract_is_py(const char *path)
{
	size_t n = strlen(path);

	return n >= 3 && strcmp(path + n - 3, ".py") == 0;
}

/* In --worktree mode: *dirty = 1 when the Python files read differ from the
 * commit's (added, removed, or other bytes).  Other paths, such as the
 * records directory itself, do not make the code that was read differ. */
static int extract_worktree_dirty(repo_t *repo, const char *commit, const repo_file_t *wt,
                                  size_t nwt, int *dirty)
{
	repo_file_t *at = NULL;
	size_t nat = 0, i = 0, j = 0;

	*dirty = 0;
	if (repo_list(repo, commit, 0, ".py", &at, &nat) < 0)
		return -1;
	while (!*dirty && (i < nwt || j < nat)) {
		if (i < nwt && !extract_is_py(wt[i].path)) {
			i++;
			continue;
		}
		if (i == nwt || j == nat || strcmp(wt[i].path, at[j].path) ||
		    strcmp(wt[i].blob, at[j].blob) || wt[i].kind != at[j].kind)
			*dirty = 1;
		i++;
		j++;
	}
	repo_files_free(at, nat);
	return 0;
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

/* Parse one file and convert its tree; record what went wrong.  The file
 * goes into `prog` either way (with no tree if it did not parse), so that an
 * import of it is known to be the repository's.  0, or -1 if the runtime
 * failed. */
static int extract_read_one(repo_t *repo, const repo_file_t *f, const struct extract_opts *o,
                            cJSON *files, cJSON *perrs, struct prog *prog, int keep)
{
	char *data = NULL;
	size_t len = 0;
	PyObject *mod = NULL;
	pyast_error pe = { 0, 0, NULL };
	struct ast_arena *arena = NULL;
	struct ast_Module *cmod = NULL;
	cJSON *fe;
	int rc;

	fe = cJSON_CreateObject();
	cJSON_AddStringToObject(fe, "path", f->path);
	cJSON_AddStringToObject(fe, "blob", f->blob);
	cJSON_AddItemToArray(files, fe);

	if (repo_read(repo, f, o->worktree, o->max_file, &data, &len) < 0) {
		records_add_parse_error(perrs, f->path, 0, 0, err_last());
		if (!o->quiet)
			err_warn("warning: %s: %s", f->path, err_last());
		err_clear();
		prog_add(prog, f->path, NULL, 0, NULL, NULL);
		return 0;
	}
	rc = pyast_parse(f->path, data, len, &mod, &pe);
	if (rc < 0) {
		free(data);
		return -1;
	}
	if (rc > 0) {
		records_add_parse_error(perrs, f->path, pe.line, pe.col, pe.message);
		if (!o->quiet) {
			if (pe.line > 0)
				err_warn("warning: %s:%ld:%ld: %s", f->path, pe.line, pe.col, pe.message);
			else
				err_warn("warning: %s: %s", f->path, pe.message);
		}
		pyast_error_clear(&pe);
		prog_add(prog, f->path, data, len, NULL, NULL);
		return 0;
	}
	if (!keep) {
		/* no analysis to feed: the parse was the check */
		Py_DECREF(mod);
		free(data);
		return 0;
	}
	/* Copy the tree into plain C and drop the Python one at once. */
	arena = ast_arena_new();
	if (astconv_module(mod, arena, &cmod) < 0) {
		Py_DECREF(mod);
		if (err_code() != ECG_EXIT_INPUT) {
			ast_arena_free(arena);
			free(data);
			return -1;
		}
		records_add_parse_error(perrs, f->path, 0, 0, err_last());
		if (!o->quiet)
			err_warn("warning: %s: %s", f->path, err_last());
		err_clear();
		ast_arena_free(arena);
		prog_add(prog, f->path, data, len, NULL, NULL);
		return 0;
	}
	Py_DECREF(mod);
	prog_add(prog, f->path, data, len, arena, cmod);
	return 0;
}

/* -j: worker processes for parsing.  Auto (0): one per CPU when there are
 * enough files to pay for the workers' start-up, else in this process. */
static int extract_jobs(const struct extract_opts *o, size_t nfiles)
{
	long ncpu;

	if (o->jobs > 0)
		return o->jobs;
	if (nfiles < 200)
		return 1;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	return ncpu > 8 ? 8 : (int)ncpu;
}

/* Reading a file again, for the analysis, after workers parsed it. */
struct extract_lazy {
	repo_t *repo;
	const repo_file_t *all;
	size_t nall;
	const struct extract_opts *o;
};

static void extract_lazy_load(void *vctx, struct sfile *sf)
{
	struct extract_lazy *c = vctx;
	const repo_file_t *f = extract_find(c->all, c->nall, sf->path);
	char *data = NULL;
	size_t len = 0;
	PyObject *mod = NULL;
	pyast_error pe = { 0, 0, NULL };
	struct ast_arena *arena;
	struct ast_Module *cmod = NULL;
	int rc;

	if (!f || repo_read(c->repo, f, c->o->worktree, c->o->max_file, &data, &len) < 0) {
		err_clear();
		return;     /* the workers already reported it */
	}
	sf->src = data;
	sf->len = len;
	rc = pyast_parse(f->path, data, len, &mod, &pe);
	if (rc != 0) {
		pyast_error_clear(&pe);
		err_clear();
		return;
	}
	arena = ast_arena_new();
	if (astconv_module(mod, arena, &cmod) < 0) {
		err_clear();
		ast_arena_free(arena);
	} else {
		sf->arena = arena;
		sf->mod = cmod;
	}
	Py_DECREF(mod);
}

/* The job's data files (configs) as the interpreter asks for them. */
struct extract_loadctx {
	repo_t *repo;
	const repo_file_t *all;
	size_t nall;
	const struct extract_opts *o;
	PyObject *helper;             /* pyhelpers/ecg_config.py, owned; loaded lazily */
	int helper_failed;
	const char *helpers_dir;
	const struct catalog *cat;    /* the torch.nn catalogue, borrowed */
	cJSON *config_overrides;      /* --config FILE as {"key": "literal"}, owned */
	char why[512];
};

static cJSON *extract_load(void *vctx, const char *path, const char *entry_dir, const char **why)
{
	struct extract_loadctx *c = vctx;
	const repo_file_t *f = NULL;
	char *cand, *norm, *data = NULL;
	size_t len = 0, n;
	cJSON *j = NULL;
	PyObject *r = NULL;
	const char *text;

	*why = NULL;
	if (path[0] == '/') {
		*why = "an absolute path, outside the repository";
		return NULL;
	}
	cand = xasprintf("%s%s", entry_dir, path);
	norm = extract_norm_path(cand);
	f = norm ? extract_find(c->all, c->nall, norm) : NULL;
	free(cand);
	free(norm);
	if (!f) {
		norm = extract_norm_path(path);
		f = norm ? extract_find(c->all, c->nall, norm) : NULL;
		free(norm);
	}
	if (!f || f->kind != REPO_FILE) {
		*why = "the file is not in the repository at this commit";
		return NULL;
	}
	if (repo_read(c->repo, f, c->o->worktree, c->o->max_file, &data, &len) < 0) {
		snprintf(c->why, sizeof c->why, "%s", err_last());
		err_clear();
		*why = c->why;
		return NULL;
	}
	n = strlen(f->path);
	if (n >= 5 && !strcmp(f->path + n - 5, ".json")) {
		j = cJSON_ParseWithLength(data, len);
		if (!j)
			*why = "the file is not valid JSON";
		free(data);
		return j;
	}
	if (!c->helper && !c->helper_failed) {
		/* loaded on the first configuration file that needs it: its
		 * imports cost milliseconds a job without such files need not pay */
		if (helpers_load(c->helpers_dir, "ecg_config", &c->helper) < 0) {
			c->helper_failed = 1;
			snprintf(c->why, sizeof c->why, "%s", err_last());
			err_clear();
		}
	}
	if (!c->helper) {
		free(data);
		*why = c->helper_failed ? c->why : "no reader for this format";
		return NULL;
	}
	r = PyObject_CallMethod(c->helper, "load_as_json", "sy#", f->path, data, (Py_ssize_t)len);
	free(data);
	if (!r) {
		pyrt_error(f->path);
		snprintf(c->why, sizeof c->why, "%s", err_last());
		err_clear();
		*why = c->why;
		return NULL;
	}
	text = PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
	if (text)
		j = cJSON_Parse(text);
	else
		PyErr_Clear();
	Py_DECREF(r);
	if (!j)
		*why = "the configuration file's reader gave nothing usable";
	return j;
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

/* --config FILE (on this machine, not in the repository): JSON, TOML or
 * YAML, each scalar applied as --set under its own key. */
static int extract_read_overrides(struct extract_loadctx *lc, const char *path)
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
		if (!lc->helper && helpers_load(lc->helpers_dir, "ecg_config", &lc->helper) < 0) {
			buf_free(&b);
			return -1;
		}
		r = PyObject_CallMethod(lc->helper, "load_as_json", "sy#", path, b.buf, (Py_ssize_t)b.len);
		if (!r) {
			buf_free(&b);
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
	lc->config_overrides = cJSON_CreateObject();
	extract_flatten(j, lc->config_overrides, 0);
	cJSON_Delete(j);
	return 0;
}

/* What kind of job this is, on the evidence the interpreter saw; where it
 * starts, and its step.  Strings go into the arena of `in`. */
struct extract_job {
	const char *type;             /* static */
	char *entry_anchor;           /* owned */
	char *step_anchor;            /* owned */
	cJSON *evidence;              /* owned */
};

static void extract_classify(struct interp *in, const char *entry, const struct mt_model *models,
                             size_t nmodels, struct extract_job *job)
{
	const struct interp_evidence *ev = interp_evidence(in);
	const struct root_call *first = NULL, *handled = NULL, *nograd = NULL, *train = NULL;
	size_t i;

	const struct root_call *roots;
	size_t nroots;

	roots = interp_roots(in, &nroots);
	(void)models;
	(void)nmodels;
	for (i = 0; i < nroots; i++) {
		const struct root_call *rc = &roots[i];

		if (!first)
			first = rc;
		if (!rc->no_grad && !train)
			train = rc;
		if (rc->handler && !handled)
			handled = rc;
		if (rc->no_grad && !nograd)
			nograd = rc;
	}
	job->evidence = cJSON_CreateArray();
	if (ev->backward) {
		job->type = "training";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->backward));
		if (ev->optimizer_step)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->optimizer_step));
	} else if (handled && ev->server) {
		job->type = "inference_serving";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->server));
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(handled->anchor));
	} else if (first && (nograd || ev->no_grad) && (ev->write || first->loop_anchor)) {
		job->type = "batch";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(nograd ? nograd->anchor : first->anchor));
		if (ev->no_grad)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->no_grad));
		if (ev->write)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->write));
	}
	job->entry_anchor = ev->main_guard ? xstrdup(ev->main_guard) : NULL;
	if (handled && job->type && !strcmp(job->type, "inference_serving"))
		job->step_anchor = xstrdup(handled->handler);
	else {
		/* a training job's step is where the model runs with gradients,
		 * above its accumulation loop */
		const struct root_call *step = job->type && !strcmp(job->type, "training") && train ? train : first;
		const char *loop = schedule_step_anchor(in);

		if (loop && step && step->loop_anchor)
			job->step_anchor = xstrdup(loop);
		else if (step && (step->loop_anchor || step->function_anchor))
			job->step_anchor = xstrdup(step->loop_anchor ? step->loop_anchor : step->function_anchor);
	}
	(void)entry;
}

/* Read the job from its entry script: the models it calls, and what their
 * forwards do. */
static int extract_analyse(struct prog *prog, const char *entry, const struct extract_opts *o,
                           struct extract_loadctx *lc, cJSON *modules, cJSON *unres, cJSON *config,
                           struct extract_job *job, cJSON *sched_parts)
{
	struct sfile *ef = prog_file(prog, entry);
	struct interp *in;
	const struct root_call *roots;
	struct mt_model *models;
	const struct interp_note *notes;
	size_t nroots, nmodels = 0, i, k, nnotes;
	const char *slash;

	if (!ef)
		return 0;
	prog_ensure(prog, ef);
	if (!ef->mod)
		return 0;
	slash = strrchr(entry, '/');
	free(prog->entry_dir);
	prog->entry_dir = slash ? xstrndup(entry, (size_t)(slash - entry) + 1) : xstrdup("");
	in = interp_new(prog, lc->cat);
	if (o->job_argc)
		interp_set_argv(in, (const char *const *)o->job_argv, o->job_argc);
	interp_set_loader(in, extract_load, lc);
	for (i = 0; i < o->nsets; i++) {
		const char *eq = strchr(o->sets[i], '=');
		char *key = xstrndup(o->sets[i], (size_t)(eq - o->sets[i]));

		interp_set_override(in, key, eq + 1);
		free(key);
	}
	if (lc->config_overrides) {
		const cJSON *c;

		cJSON_ArrayForEach(c, lc->config_overrides)
			interp_set_override(in, c->string, c->valuestring);
	}
	interp_run_entry(in, ef);
	roots = interp_roots(in, &nroots);
	models = xcalloc(nroots + 1, sizeof *models);
	for (i = 0; i < nroots; i++) {
		int dup = 0;

		for (k = 0; k < nmodels; k++)
			if (models[k].root == roots[i].inst)
				dup = 1;
		if (dup)
			continue;
		models[nmodels].root = roots[i].inst;
		models[nmodels].name = roots[i].inst->bound_name ? roots[i].inst->bound_name
		                       : roots[i].binding ? roots[i].binding : "model";
		models[nmodels].call = &roots[i];
		nmodels++;
	}
	if (nmodels == 0) {
		/* no call of a model seen (handed to a framework's trainer, or
		 * called where ecg cannot follow): the module instances the job
		 * built and named are the candidates, all listed */
		struct vinst *const *cands;
		const char *const *where;
		size_t nc = interp_candidates(in, &cands, &where);

		models = xrealloc(models, (nc + 1) * sizeof *models);
		for (i = 0; i < nc; i++) {
			int dup = 0;

			for (k = 0; k < nmodels; k++)
				if (models[k].root == cands[i])
					dup = 1;
			if (dup || cands[i]->parent)
				continue;
			models[nmodels].root = cands[i];
			models[nmodels].name = cands[i]->bound_name;
			models[nmodels].call = NULL;
			nmodels++;
		}
		if (nmodels)
			records_add_unresolved(unres, entry, "which model the job runs",
			                       nmodels > 1 ? "the job calls no model where ecg can see it; every module it builds and names is listed"
			                                   : "the job calls no model where ecg can see it; the one module it builds and names is listed");
	}
	extract_classify(in, entry, models, nmodels, job);
	if (o->model) {
		size_t keep = 0;

		for (k = 0; k < nmodels; k++) {
			if (!strcmp(models[k].name, o->model) || !strcmp(interp_class_name(models[k].root), o->model))
				models[keep++] = models[k];
		}
		if (!keep) {
			buf_t b;

			buf_init(&b);
			for (k = 0; k < nmodels; k++)
				buf_addf(&b, "%s%s (%s)", k ? ", " : "", models[k].name, interp_class_name(models[k].root));
			err_set(ECG_EXIT_INPUT, "--model %s: the job calls %s", o->model, nmodels ? b.buf : "no model");
			buf_free(&b);
			free(models);
			interp_free(in);
			return -1;
		}
		nmodels = keep;
	}
	modtree_emit(in, models, nmodels, modules, config);
	/* after the forwards were read: their syncs and collectives count */
	schedule_emit(in, job->type, sched_parts);
	notes = interp_notes(in, &nnotes);
	for (i = 0; i < nnotes; i++)
		records_add_unresolved(unres, notes[i].anchor, notes[i].what, notes[i].reason);
	free(models);
	interp_free(in);
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	struct extract_opts o;
	repo_t *repo = NULL;
	repo_file_t *all = NULL;
	size_t nall = 0, i;
	char commit[41];
	char *out_dir = NULL, *entry = NULL, *helpers = NULL;
	char *graph_text = NULL, *sched_text = NULL;
	PyObject *cfg_helper = NULL;
	struct catalog *cat = NULL;
	char *catdir = NULL;
	cJSON *files = NULL, *perrs = NULL, *unres = NULL, *config = NULL;
	cJSON *graph = NULL, *sched = NULL, *modules = NULL, *sched_parts = NULL;
	struct prog prog;
	records_header_t h;
	struct stats st;
	struct extract_lazy lazy;
	struct extract_job job;
	size_t *pyidx = NULL, npy = 0, k;
	int dirty = 0, rc, jobs;

	prog_init(&prog);
	memset(&st, 0, sizeof st);
	memset(&job, 0, sizeof job);
	rc = extract_parse_args(argc, argv, &o);
	if (o.stats) {
		st.on = 1;
		st.t0 = st.last = stats_now();
	}
	if (rc > 0) {
		rc = ECG_EXIT_OK;          /* --help */
		goto cleanup;
	}
	if (rc < 0)
		goto fail;

	helpers = helpers_find(o.helpers_dir);
	if (!helpers)
		goto fail;
	if (o.entry) {
		catdir = catalog_dir_beside(helpers);
		if (!catdir || catalog_load(catdir, &cat) < 0)
			goto fail;
		stats_mark(&st, "catalogue loaded");
	}
	if (repo_open(o.repo, &repo) < 0)
		goto fail;
	if (o.worktree && repo_is_bare(repo)) {
		err_set(ECG_EXIT_USAGE, "--worktree: '%s' is a bare repository, it has no work tree", o.repo);
		goto fail;
	}
	if (repo_resolve(repo, o.rev, commit) < 0)
		goto fail;
	if (o.out) {
		out_dir = xstrdup(o.out);
	} else if (repo_is_bare(repo)) {
		err_set(ECG_EXIT_USAGE, "'%s' is a bare repository: give --out DIR for the records", o.repo);
		goto fail;
	} else {
		out_dir = xasprintf("%srecords", repo_workdir(repo));
	}
	if (repo_list(repo, commit, o.worktree, NULL, &all, &nall) < 0)
		goto fail;
	stats_mark(&st, "repository listed");

	if (o.entry) {
		char *rel = extract_norm_path(o.entry);
		char *under = xasprintf("%s%s", repo_prefix(repo), o.entry);
		char *norm = extract_norm_path(under);
		const repo_file_t *f = norm ? extract_find(all, nall, norm) : NULL;

		if (!f && rel)
			f = extract_find(all, nall, rel);
		free(under);
		free(norm);
		free(rel);
		if (!f || f->kind != REPO_FILE) {
			err_set(ECG_EXIT_INPUT, "entry '%s' is not a file %s %.12s", o.entry,
			        o.worktree ? "in the work tree of" : "at commit", commit);
			goto fail;
		}
		entry = xstrdup(f->path);
	}
	if (o.worktree && extract_worktree_dirty(repo, commit, all, nall, &dirty) < 0)
		goto fail;

	/* Fail on an unwritable output directory before the long part. */
	if (emit_mkdirs(out_dir) < 0)
		goto fail;

	files = cJSON_CreateArray();
	perrs = cJSON_CreateArray();
	unres = cJSON_CreateArray();
	config = cJSON_CreateArray();
	pyidx = xmalloc((nall + 1) * sizeof *pyidx);
	for (i = 0; i < nall; i++) {
		const repo_file_t *f = &all[i];

		if (!extract_is_py(f->path))
			continue;
		if (f->kind == REPO_SYMLINK) {
			char *what = xasprintf("symbolic link to '%s'", f->link_target ? f->link_target : "");

			records_add_unresolved(unres, f->path, what,
			                       "symbolic links are not followed; the file it names is read on its own if it is in the repository");
			free(what);
			continue;
		}
		if (f->kind == REPO_GITLINK) {
			char *what = xasprintf("submodule at commit %s", f->blob);

			records_add_unresolved(unres, f->path, what, "submodules are not read");
			free(what);
			continue;
		}
		pyidx[npy++] = i;
	}
	jobs = extract_jobs(&o, npy);
	if (jobs > 1) {
		/* Parse in worker processes; the analysis reads the files it
		 * needs again, on demand, in this process. */
		struct pp_result *res = xcalloc(npy + 1, sizeof *res);

		if (parsepool_run(repo, all, pyidx, npy, o.worktree, o.max_file, jobs, helpers, res) < 0) {
			parsepool_results_free(res, npy);
			goto fail;
		}
		for (k = 0; k < npy; k++) {
			const repo_file_t *f = &all[pyidx[k]];
			cJSON *fe = cJSON_CreateObject();

			cJSON_AddStringToObject(fe, "path", f->path);
			cJSON_AddStringToObject(fe, "blob", f->blob);
			cJSON_AddItemToArray(files, fe);
			if (res[k].status != PP_OK) {
				records_add_parse_error(perrs, f->path, res[k].line, res[k].col,
				                        res[k].message ? res[k].message : "not parsed");
				if (!o.quiet) {
					if (res[k].line > 0)
						err_warn("warning: %s:%ld:%ld: %s", f->path, res[k].line, res[k].col, res[k].message);
					else
						err_warn("warning: %s: %s", f->path, res[k].message ? res[k].message : "not parsed");
				}
			}
			if (entry)
				prog_add_lazy(&prog, f->path);
		}
		parsepool_results_free(res, npy);
		stats_mark(&st, "files parsed (workers)");
		if (pyrt_init(helpers) < 0)
			goto fail;
		stats_mark(&st, "python started");
		lazy.repo = repo;
		lazy.all = all;
		lazy.nall = nall;
		lazy.o = &o;
		prog.load = extract_lazy_load;
		prog.load_ctx = &lazy;
	} else {
		if (pyrt_init(helpers) < 0)
			goto fail;
		stats_mark(&st, "python started");
		for (k = 0; k < npy; k++)
			if (extract_read_one(repo, &all[pyidx[k]], &o, files, perrs, &prog, entry != NULL) < 0)
				goto fail;
	}
	/* The Python trees are gone; the interpreter stays for the config
	 * file readers in pyhelpers/. */
	stats_mark(&st, "files parsed");
	/* Directories that are submodules (any name) are worth saying too. */
	for (i = 0; i < nall; i++) {
		const repo_file_t *f = &all[i];

		if (f->kind == REPO_GITLINK && !extract_is_py(f->path)) {
			char *what = xasprintf("submodule at commit %s", f->blob);

			records_add_unresolved(unres, f->path, what, "submodules are not read");
			free(what);
		}
	}

	memset(&h, 0, sizeof h);
	h.commit = commit;
	h.dirty = dirty;
	h.python = pyrt_version();
	h.entry_file = entry;
	h.files = files;
	h.parse_errors = perrs;
	h.unresolved = unres;
	h.config = config;
	modules = cJSON_CreateArray();
	if (entry) {
		struct extract_loadctx lc;

		memset(&lc, 0, sizeof lc);
		lc.repo = repo;
		lc.all = all;
		lc.nall = nall;
		lc.o = &o;
		lc.helpers_dir = helpers;
		lc.cat = cat;
		if (o.config && extract_read_overrides(&lc, o.config) < 0) {
			cJSON_Delete(lc.config_overrides);
			Py_XDECREF(lc.helper);
			goto fail;
		}
		records_header_t ph;

		memset(&ph, 0, sizeof ph);
		ph.commit = commit;
		ph.python = "";
		sched_parts = records_schedule_new(&ph);
		rc = extract_analyse(&prog, entry, &o, &lc, modules, unres, config, &job, sched_parts);
		cJSON_Delete(lc.config_overrides);
		if (rc < 0) {
			Py_XDECREF(lc.helper);
			goto fail;
		}
		cfg_helper = lc.helper;
		stats_mark(&st, "analysis");
	}
	h.entry_anchor = job.entry_anchor;
	h.step_anchor = job.step_anchor;
	h.job_type = job.type;
	h.job_evidence = job.evidence;
	graph = records_graph_new(&h);
	sched = records_schedule_new(&h);
	cJSON_ReplaceItemInObjectCaseSensitive(graph, "modules", modules);
	modules = NULL;
	if (sched_parts) {
		static const char *const sections[] = { "phases", "data_path", "host_device", "device_device",
		                                        "compute", "overlap", NULL };
		size_t si;

		for (si = 0; sections[si]; si++)
			cJSON_ReplaceItemInObjectCaseSensitive(sched, sections[si],
			        cJSON_DetachItemFromObjectCaseSensitive(sched_parts, sections[si]));
	}
	graph_text = emit_render(graph);
	sched_text = emit_render(sched);
	if (emit_write_atomic(out_dir, RECORDS_GRAPH_FILE, graph_text, strlen(graph_text)) < 0)
		goto fail;
	if (emit_write_atomic(out_dir, RECORDS_SCHEDULE_FILE, sched_text, strlen(sched_text)) < 0)
		goto fail;
	stats_mark(&st, "records written");
	printf("%s/%s\n%s/%s\n", out_dir, RECORDS_GRAPH_FILE, out_dir, RECORDS_SCHEDULE_FILE);
	if (!o.quiet)
		err_warn("read %d Python files at %.12s%s: %d did not parse, %d not followed",
		         cJSON_GetArraySize(files), commit, dirty ? " (dirty work tree)" : "",
		         cJSON_GetArraySize(perrs), cJSON_GetArraySize(unres));
	rc = ECG_EXIT_OK;
	goto cleanup;

fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	Py_XDECREF(cfg_helper);
	astconv_fini();
	pyrt_fini();
	stats_mark(&st, "python finalized");
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	cJSON_Delete(modules);
	cJSON_Delete(sched_parts);
	cJSON_Delete(job.evidence);
	free(job.entry_anchor);
	free(job.step_anchor);
	cJSON_Delete(files);
	cJSON_Delete(perrs);
	cJSON_Delete(unres);
	cJSON_Delete(config);
	free(graph_text);
	free(sched_text);
	free(helpers);
	free(catdir);
	catalog_free(cat);
	free(entry);
	free(out_dir);
	repo_files_free(all, nall);
	repo_free(repo);
	prog_free(&prog);
	free(pyidx);
	return rc;
}
