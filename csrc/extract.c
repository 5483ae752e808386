/* extract.c - see include/ecg/extract.h: one job at a commit read into
 * both records, for `ecg extract` and `ecg refresh`.
 *
 * The data flows one way: repository -> blobs -> parser -> analysis ->
 * records.  Each file's AST is dropped as soon as it has been read, so
 * memory follows the index, not the sum of all trees.
 */
#include "config.h"

#include <errno.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ecg/analyse.h"
#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/anchors.h"
#include "ecg/emit.h"
#include "ecg/extract.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/interp.h"
#include "ecg/job.h"
#include "ecg/launcher.h"
#include "ecg/load.h"
#include "ecg/nearest.h"
#include "ecg/progress.h"
#include "ecg/modtree.h"
#include "ecg/parsepool.h"
#include "ecg/schedule.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/records.h"
#include "ecg/site.h"
#include "ecg/repo.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

/* load.c answers the interpreter's tree queries in its own layer's terms */
_Static_assert((int)LOAD_TREE_NONE == (int)INTERP_TREE_NONE && (int)LOAD_TREE_FILE == (int)INTERP_TREE_FILE &&
               (int)LOAD_TREE_DIR == (int)INTERP_TREE_DIR, "load.h's LOAD_TREE_* are interp.h's INTERP_TREE_*");

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

/* What kind of job this is, on the evidence the interpreter saw; where it
 * starts, and its step.  Strings go into the arena of `in`. */
/* Read the job from its entry script: the models it calls, and what their
 * forwards do. */
/* The default output directory, records/ in the work tree, is written
 * only if it is a directory or not there yet: a `records` committed as a
 * symbolic link would send the records anywhere.  (--out DIR is followed:
 * the user named it.)  0, or -1 with err_set(ECG_EXIT_OUTPUT). */
int extract_default_dir_ok(const char *dir)
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
	const char **envs = NULL;
	int rc;

	memset(&ao, 0, sizeof ao);
	ao.entry_spec = o->entry;
	ao.argv = (const char *const *)o->job_argv;
	ao.argc = o->job_argc;
	ao.sets = (const char *const *)o->sets;
	ao.nsets = o->nsets;
	ao.overrides = overrides;
	ao.model = o->model;
	ao.machine = o->machine;
	ao.loader = load_config_file;
	ao.text_loader = load_text_file;
	ao.tree = load_tree_entry;
	ao.fs_json_loader = load_fs_json;
	ao.loader_ctx = L;
	ao.interp_bytes = &L->interp_bytes;
	if (o->no_env && !o->env_set) {
		ao.env_known = 1;
		ao.envs = o->envs;
		ao.nenvs = o->nenvs;
	} else if (o->nlaunch_envs) {
		/* what the launcher sets, then --env's (which win); any
		 * other variable may be set, --no-env or not: the launcher
		 * sets more than these (MASTER_ADDR, OMP_NUM_THREADS ...) */
		size_t i;

		envs = xcalloc(o->nlaunch_envs + o->nenvs, sizeof *envs);
		for (i = 0; i < o->nlaunch_envs; i++)
			envs[i] = o->launch_envs[i];
		for (i = 0; i < o->nenvs; i++)
			envs[o->nlaunch_envs + i] = o->envs[i];
		ao.env_known = 1;
		ao.env_partial = 1;
		ao.envs = envs;
		ao.nenvs = o->nlaunch_envs + o->nenvs;
	}
	rc = analyse_job(&L->prog, entry, func, &ao, cat, modules, unres, config, job, sched_parts);
	free(envs);
	return rc;
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
	{
		/* did you mean: the nearest Python file's path */
		const char **names = xcalloc(L->nall + 1, sizeof *names), *g;
		size_t i, n = 0;
		char guess[1200] = "";

		for (i = 0; i < L->nall; i++)
			if (L->all[i].kind == REPO_FILE && load_is_py(L->all[i].path))
				names[n++] = L->all[i].path;
		g = nearest(spec, names, n);
		if (g)
			snprintf(guess, sizeof guess, "; did you mean '%s'?", g);
		err_set(ECG_EXIT_INPUT, "entry '%s' is not a file (or FILE:FUNCTION, MODULE:FUNCTION) %s %.12s%s", spec,
		        worktree ? "in the work tree of" : "at commit", L->commit, guess);
		free(names);
		return -1;
	}
}

/* The variables a launcher of torch.distributed jobs sets in each process
 * it starts, when it starts a known number: WORLD_SIZE, and RANK and
 * LOCAL_RANK (0 for one process; set, to a value that differs between the
 * processes, for more).  torchrun and torch.distributed.launch (the elastic
 * agent), deepspeed and composer set them; accelerate launch only when it
 * starts more than one process (one runs the script as it is).  srun and
 * mpirun set their own (SLURM_PROCID ...), which the job maps itself. */
static void extract_launch_env(struct extract_opts *o, const struct launch *la)
{
	static const char *const sets[] = { "torchrun", "torch.distributed.launch", "deepspeed", "composer", NULL };
	size_t i;
	int known = 0;

	o->nlaunch_envs = 0;
	if (!o->machine)                /* --machine wins */
		o->machine = la->machine;
	for (i = 0; sets[i]; i++)
		known |= !strcmp(la->launcher, sets[i]);
	known |= !strcmp(la->launcher, "accelerate") && la->world > 1;
	if (!known || la->world <= 0)
		return;
	snprintf(o->launch_world, sizeof o->launch_world, "WORLD_SIZE=%ld", la->world);
	o->launch_envs[o->nlaunch_envs++] = o->launch_world;
	o->launch_envs[o->nlaunch_envs++] = la->world == 1 ? "RANK=0" : "RANK";
	o->launch_envs[o->nlaunch_envs++] = la->world == 1 ? "LOCAL_RANK=0" : "LOCAL_RANK";
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
	extract_launch_env(o, la);
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
	/* the variables it sets that the reading used (extract_launch_env) */
	a = cJSON_AddArrayToObject(j, "sets_env");
	for (i = 0; i < o->nlaunch_envs; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(o->launch_envs[i]));
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
	/* the machine named (--machine, a launcher's --multi_gpu), or null */
	if (o->machine == INTERP_MACHINE_CUDA || o->machine == INTERP_MACHINE_CPU)
		cJSON_AddStringToObject(inv, "machine", o->machine == INTERP_MACHINE_CUDA ? "cuda" : "cpu");
	else
		cJSON_AddNullToObject(inv, "machine");
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

/* Whether an unresolved entry tells of a budget spent, or of the job's
 * own end (argparse rejecting its command line): the likeliest reasons a
 * model or a step was not found. */
static int extract_is_budget(const cJSON *u)
{
	static const char *const words[] = { "evaluation steps", "memory bound", "budget", "too deep", "the run ends", NULL };
	const char *r = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(u, "reason"));
	size_t i;

	for (i = 0; r && words[i]; i++)
		if (strstr(r, words[i]))
			return 1;
	return 0;
}

/* With --entry: no model, or no step, is said on stderr and in the
 * records (`incomplete`), with the unresolved entries most likely behind
 * it -- a budget spent or the run's end first, then the first calls not
 * followed (not a model left out of the list: the reading went on).  NULL
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
				    (what && (!strcmp(what, "which model the job runs") ||
				              !strcmp(what, "another module bound to the same name"))) ||
				    extract_is_budget(u) != (pass == 0))
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
int extract_build(const struct extract_opts *o_, const cJSON *inline_overrides, cJSON **graph_out,
                         cJSON **sched_out, char **out_dir_out, int *incomplete_out)
{
	struct extract_opts o = *o_;
	struct load_opts lo;
	struct load L;
	char *out_dir = NULL, *entry = NULL, *func = NULL, *helpers = NULL;
	struct catalog *cat = NULL;
	char *catdir = NULL, *cache_dir = NULL;
	cJSON *config = NULL, *overrides = NULL, *invocation = NULL, *incomplete = NULL, *environment = NULL;
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
	progress_begin("extract", o.quiet);
	progress_say("listing the files of %s", o.repo);
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

	progress_say("parsing %s", entry ? "the files the job imports" : "every Python file");
	if (load_parse(&L, entry != NULL, extract_mark, &st) < 0)
		goto fail;
	progress_say("reading the job from %s", entry ? entry : "(no entry)");
	if (entry) {
		struct site *site = site_discover(o.sites, o.nsites, o.python, repo_workdir(L.repo), !o.no_site_env);
		size_t k;

		for (k = 0; k < site->nnotes && !o.quiet; k++)
			err_warn("warning: installed libraries: %s", vis(site->notes[k]));
		load_set_site(&L, site);
	}
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
		else if (o.config && load_config_overrides(&L, o.config, &overrides) < 0)
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
			if (L.site_read)
				fprintf(stderr, "ecg: stats: of which installed libraries' files: %zu (%zu trees from the cache)\n",
				        L.site_read, L.site_hits);
			fprintf(stderr, "ecg: stats: memory: C trees %.1f MB (%zu files), interpreter %.1f MB\n",
			        ast / 1048576.0, nast, L.interp_bytes / 1048576.0);
		}
	}
	if (load_finish(&L) < 0 || load_worktree_dirty_read(&L, &dirty) < 0)
		goto fail;
	if (entry)
		incomplete = extract_incomplete(entry, cJSON_GetArraySize(modules) == 0 && !job.loaded_model,
		                                job.step_anchor == NULL,
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
	h.job_type_reason = job.reason;
	h.invocation = invocation;
	h.incomplete = incomplete;
	environment = load_environment(&L);
	h.environment = environment;
	records_assemble(&h, modules, sched_parts, &graph, &sched);
	modules = NULL;
	progress_end();
	if (!o.quiet)
		err_warn("read %d files %s%.12s%s: %d did not parse, %d not followed",
		         cJSON_GetArraySize(L.files), *L.commit ? "at " : "in a directory with no commit", L.commit,
		         dirty ? " (dirty work tree)" : "",
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
	progress_end();
	err_warn("%s", err_last());
	rc = err_code();
	if (rc == ECG_EXIT_OK)
		rc = ECG_EXIT_INTERNAL;
cleanup:
	progress_end();
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
	cJSON_Delete(environment);
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
int extract_write(const char *out_dir, cJSON *graph, cJSON *sched, int say, int locked)
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
