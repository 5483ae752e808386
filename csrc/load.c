/* load.c - see include/ecg/load.h */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/load.h"
#include "ecg/parsepool.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/findings.h"
#include "ecg/repo.h"
#include "ecg/site.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

char *load_norm_path(const char *p)
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

const repo_file_t *load_find(const struct load *L, const char *path)
{
	size_t lo = 0, hi = L->nall;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(L->all[mid].path, path);

		if (c == 0)
			return &L->all[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const repo_file_t *load_find_file(const struct load *L, const char *path)
{
	char *norm = load_norm_path(path);
	const repo_file_t *f = norm ? load_find(L, norm) : NULL;

	free(norm);
	return f && f->kind == REPO_FILE ? f : NULL;
}

int load_is_py(const char *path)
{
	size_t n = strlen(path);

	return n >= 3 && strcmp(path + n - 3, ".py") == 0;
}

int load_open(struct load *L, const struct load_opts *o)
{
	memset(L, 0, sizeof *L);
	L->o = o;
	prog_init(&L->prog);
	/* Every caller parses next, so the interpreter is started now, on
	 * this thread, while libgit2 starts up on another (a few ms each).
	 * Pre-initialisation (setlocale) comes first, alone.  For a parse
	 * check only the core of the interpreter is started: the parser
	 * processes parse with it (see parsepool.c), and this one completes
	 * its start-up only if it parses itself.  A failure to start Python
	 * is reported where it used to happen, by load_parse(), after the
	 * repository's own errors. */
	if (pyrt_preinit() == 0) {
		repo_lib_prestart();
		if ((o->parse_only ? pyrt_init_lazy(o->helpers) : pyrt_init(o->helpers)) == 0) {
			L->py_started = 1;
			/* the ast classes, built by the first parse */
			pyast_warm();
		}
	}
	if (!L->py_started) {
		snprintf(L->py_why, sizeof L->py_why, "%s", err_last());
		err_clear();
	}
	if (repo_open(o->repo, &L->repo) < 0)
		return -1;
	if (o->worktree && repo_is_bare(L->repo))
		return err_set(ECG_EXIT_USAGE, "--worktree: '%s' is a bare repository, it has no work tree", o->repo);
	if (repo_resolve(L->repo, o->rev, L->commit) < 0)
		return -1;
	repo_set_hash_cap(L->repo, o->max_file);
	if (repo_list(L->repo, L->commit, o->worktree, NULL, &L->all, &L->nall) < 0)
		return -1;
	if (o->cache_dir && !o->parse_only && o->nprefetch) {
		/* the trees of the files the job read last time, at this
		 * revision's blobs, read ahead (treecache_prefetch_start) */
		const char **blobs = xcalloc(o->nprefetch + 1, sizeof *blobs);
		size_t i, n = 0;

		for (i = 0; i < o->nprefetch; i++) {
			const repo_file_t *f = o->prefetch[i] ? load_find(L, o->prefetch[i]) : NULL;

			if (f && f->kind == REPO_FILE)
				blobs[n++] = f->blob;
		}
		L->pf = treecache_prefetch_start(o->cache_dir, blobs, n);
		free(blobs);
	}
	return 0;
}

int load_worktree_dirty(struct load *L, int *dirty)
{
	repo_file_t *at = NULL;
	size_t nat = 0, i = 0, j = 0;

	/* the Python files read, against the commit's: other paths (the
	 * records directory itself) do not make the code differ */
	*dirty = 0;
	if (!L->o->worktree)
		return 0;
	if (repo_list(L->repo, L->commit, 0, ".py", &at, &nat) < 0)
		return -1;
	while (!*dirty && (i < L->nall || j < nat)) {
		if (i < L->nall && !load_is_py(L->all[i].path)) {
			i++;
			continue;
		}
		if (i == L->nall || j == nat || strcmp(L->all[i].path, at[j].path) ||
		    strcmp(L->all[i].blob, at[j].blob) || L->all[i].kind != at[j].kind)
			*dirty = 1;
		i++;
		j++;
	}
	repo_files_free(at, nat);
	return 0;
}

static void load_warn(const struct load *L, const char *path, long line, long col, const char *msg)
{
	if (L->o->quiet)
		return;
	if (line > 0)
		err_warn("warning: %s:%ld:%ld: %s", path, line, col, msg);
	else
		err_warn("warning: %s: %s", path, msg);
}

static void load_file_entry(struct load *L, const repo_file_t *f)
{
	cJSON *fe;

	if (!f->blob[0])
		return;   /* an untracked file too big to hash: parse_errors says so */
	fe = cJSON_CreateObject();
	cJSON_AddStringToObject(fe, "path", f->path);
	cJSON_AddStringToObject(fe, "blob", f->blob);
	cJSON_AddItemToArray(L->files, fe);
}

void load_add_file(struct load *L, const repo_file_t *f)
{
	const cJSON *x;

	if (!L->files)
		L->files = cJSON_CreateArray();
	cJSON_ArrayForEach(x, L->files) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(x, "path");

		if (cJSON_IsString(p) && !strcmp(p->valuestring, f->path))
			return;
	}
	load_file_entry(L, f);
}

/* Whether a file of `len` bytes may come from the tree cache: the token
 * limit can never refuse it (at most a token a byte). */
static int load_cacheable(size_t len)
{
	size_t lim = pyast_get_max_tokens();

	return lim == 0 || len <= lim;
}

/* Parse `len` bytes of `path` and, with keep, copy the tree into plain C
 * (*arena, *cmod; NULL when it does not parse) and keep it in the tree
 * cache under `blob` (NULL: not cached).  A file that does not parse is a
 * parse_errors entry (and a warning).  0, or -1 if the runtime failed
 * (err_set()). */
static int load_tree(struct load *L, const char *path, const char *data, size_t len, const char *blob,
                     int keep, struct ast_arena **arena, struct ast_Module **cmod)
{
	PyObject *mod = NULL;
	pyast_error pe = { 0, 0, NULL };
	int rc = pyast_parse(path, data, len, &mod, &pe);

	*arena = NULL;
	*cmod = NULL;
	if (rc < 0)
		return -1;
	if (rc > 0) {
		records_add_parse_error(L->parse_errors, path, pe.line, pe.col, pe.message);
		load_warn(L, path, pe.line, pe.col, pe.message);
		pyast_error_clear(&pe);
		return 0;
	}
	if (!keep) {
		/* no analysis to feed: the parse was the check */
		Py_DECREF(mod);
		return 0;
	}
	/* Copy the tree into plain C and drop the Python one at once. */
	*arena = ast_arena_new();
	if (astconv_module(mod, *arena, cmod) < 0) {
		Py_DECREF(mod);
		ast_arena_free(*arena);
		*arena = NULL;
		*cmod = NULL;
		if (err_code() != ECG_EXIT_INPUT)
			return -1;
		records_add_parse_error(L->parse_errors, path, 0, 0, err_last());
		load_warn(L, path, 0, 0, err_last());
		err_clear();
		return 0;
	}
	Py_DECREF(mod);
	if (blob && L->o->cache_dir && load_cacheable(len))
		(void)treecache_store(L->o->cache_dir, blob, *cmod, data, len);
	return 0;
}

/* Read and parse one file: its entry goes to `files`, a problem to
 * parse_errors (and a warning).  On return *data and *len hold its bytes
 * (NULL when it could not be read) and, when keep, *arena and *mod its tree
 * (NULL when it did not parse).  0, or -1 if the runtime failed. */
static int load_parse_file(struct load *L, const repo_file_t *f, int keep, char **data, size_t *len,
                           struct ast_arena **arena, struct ast_Module **cmod)
{
	*data = NULL;
	*len = 0;
	*arena = NULL;
	*cmod = NULL;
	load_file_entry(L, f);
	/* A blob whose tree is in the cache (treecache.h): neither read from
	 * the repository (its bytes are kept with the tree) nor parsed again.
	 * Not for a file the token limit or --max-file-size may refuse: the
	 * limits are this run's. */
	if (keep && L->o->cache_dir && f->kind == REPO_FILE &&
	    (treecache_prefetch_take(L->pf, f->blob, arena, cmod, data, len) ||
	     treecache_load(L->o->cache_dir, f->blob, arena, cmod, data, len))) {
		if (load_cacheable(*len) && *len <= L->o->max_file) {
			L->cache_hits++;
			return 0;
		}
		ast_arena_free(*arena);
		free(*data);
		*arena = NULL;
		*cmod = NULL;
		*data = NULL;
		*len = 0;
	}
	if (repo_read(L->repo, f, L->o->worktree, L->o->max_file, data, len) < 0) {
		records_add_parse_error(L->parse_errors, f->path, 0, 0, err_last());
		load_warn(L, f->path, 0, 0, err_last());
		err_clear();
		*data = NULL;
		*len = 0;
		return 0;
	}
	if (load_tree(L, f->path, *data, *len, f->blob, keep, arena, cmod) < 0) {
		free(*data);
		*data = NULL;
		return -1;
	}
	return 0;
}

/* Parse one file into prog (with no tree if it did not parse, so that an
 * import of it is known to be the repository's).  0, or -1 if the runtime
 * failed. */
static int load_read_one(struct load *L, const repo_file_t *f, int keep)
{
	char *data;
	size_t len;
	struct ast_arena *arena;
	struct ast_Module *cmod;

	if (load_parse_file(L, f, keep, &data, &len, &arena, &cmod) < 0)
		return -1;
	if (!keep) {
		free(data);
		data = NULL;
		len = 0;
	}
	prog_add(&L->prog, f->path, data, len, arena, cmod);
	return 0;
}

/* The runtime failed while reading a file on demand: remembered (the
 * first reason), and the run fails after the analysis (load_finish). */
static void load_fail(struct load *L)
{
	if (!L->failed)
		snprintf(L->why, sizeof L->why, "%s", err_last());
	L->failed = 1;
	err_clear();
}

/* The analysis reaching a file for the first time (an import, the entry):
 * read and parse it now, reported as the eager reading would. */
static void load_reach(void *vctx, struct sfile *sf)
{
	struct load *L = vctx;
	const repo_file_t *f = load_find(L, sf->path);
	struct timespec t0, t1;
	int rc;

	if (!f)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = load_parse_file(L, f, 1, &sf->src, &sf->len, &sf->arena, &sf->mod);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	L->read_ms += (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (rc < 0)
		load_fail(L);
	L->nread++;
}

/* Reading a file again, for the analysis, after workers parsed it. */
static void load_lazy(void *vctx, struct sfile *sf)
{
	struct load *L = vctx;
	const repo_file_t *f = load_find(L, sf->path);
	char *data = NULL;
	size_t len = 0;
	PyObject *mod = NULL;
	pyast_error pe = { 0, 0, NULL };
	struct ast_arena *arena;
	struct ast_Module *cmod = NULL;
	int rc;

	if (!f || repo_read(L->repo, f, L->o->worktree, L->o->max_file, &data, &len) < 0) {
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

/* An installed library's file reached by the analysis: read from disk
 * and parsed as a repository file is (its tree cached by its content's
 * blob id); problems go to parse_errors under its "site:" path.  The
 * distribution it belongs to is marked used (the header names it). */
static void load_site(void *vctx, struct sfile *sf)
{
	struct load *L = vctx;
	const char *rel = sf->path + strlen(PROG_SITE_PREFIX);
	char blob[41] = "";
	struct ast_arena *arena = NULL;
	struct ast_Module *cmod = NULL;

	site_mark_used(L->site, rel);
	if (site_read(sf->fspath, L->o->max_file, &sf->src, &sf->len) < 0) {
		records_add_parse_error(L->parse_errors, sf->path, 0, 0, err_last());
		load_warn(L, sf->path, 0, 0, err_last());
		err_clear();
		return;
	}
	L->nread++;
	L->site_read++;
	if (getenv("ECG_TRACE_SITE"))      /* bench/site.py: the floor parses the same files */
		fprintf(stderr, "ecg: site file: %s\n", sf->fspath);
	if (L->o->cache_dir && repo_hash_bytes(sf->src, sf->len, blob) == 0 && load_cacheable(sf->len)) {
		char *data = NULL;
		size_t len = 0;

		if (treecache_load(L->o->cache_dir, blob, &arena, &cmod, &data, &len)) {
			free(data);
			sf->arena = arena;
			sf->mod = cmod;
			L->cache_hits++;
			L->site_hits++;
			return;
		}
	}
	if (load_tree(L, sf->path, sf->src, sf->len, blob[0] ? blob : NULL, 1, &sf->arena, &sf->mod) < 0)
		load_fail(L);
}

void load_set_site(struct load *L, struct site *site)
{
	site_free(L->site);
	L->site = site;
	if (site_any(site))
		prog_set_site(&L->prog, site, load_site, L);
}

cJSON *load_environment(const struct load *L)
{
	cJSON *env, *a;
	size_t i;

	if ((!L->site || L->site->ngiven == 0) && !L->fs_files)
		return NULL;
	env = cJSON_CreateObject();
	if (L->fs_files)
		cJSON_AddItemToObject(env, "files", cJSON_Duplicate(L->fs_files, 1));
	if (!L->site || L->site->ngiven == 0)
		return env;
	a = cJSON_AddArrayToObject(env, "site");
	for (i = 0; i < L->site->ngiven; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(L->site->given[i]));
	a = cJSON_AddArrayToObject(env, "packages");
	for (i = 0; i < L->site->ndists; i++) {
		const struct site_dist *d = &L->site->dists[i];
		cJSON *p;

		if (!d->used)
			continue;
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "name", d->name);
		if (d->version)
			cJSON_AddStringToObject(p, "version", d->version);
		else
			cJSON_AddNullToObject(p, "version");
		cJSON_AddStringToObject(p, "path", d->path);
		cJSON_AddItemToArray(a, p);
	}
	if (L->site->nabsent > 0) {
		a = cJSON_AddArrayToObject(env, "absent");
		for (i = 0; i < L->site->nabsent; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(L->site->absent[i]));
	}
	return env;
}

/* -j: worker processes.  Auto, for a parse check (no analysis): one per
 * CPU (at most 8), whatever the size: the workers are forks of this
 * process with the core of its interpreter started (pyrt_init_lazy()), so
 * one costs about a millisecond, less than completing the start-up and
 * finalizing here (~8 ms) would.  When the analysis follows (--all), the
 * files it reads are parsed again in this process: workers pay from 200
 * files on. */
#define LOAD_AUTO_JOBS_FILES 200

static int load_jobs(const struct load_opts *o, int keep, size_t nfiles)
{
	long ncpu;

	if (o->jobs > 0)
		return o->jobs;
	if (keep && nfiles < LOAD_AUTO_JOBS_FILES)
		return 1;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	return ncpu > 8 ? 8 : (int)ncpu;
}

int load_parse(struct load *L, int keep, void (*mark)(void *ctx, const char *what), void *ctx)
{
	size_t *pyidx = xmalloc((L->nall + 1) * sizeof *pyidx), npy = 0, i, k;
	int jobs, pool, rc = -1;

	if (!L->files)
		L->files = cJSON_CreateArray();
	L->parse_errors = cJSON_CreateArray();
	L->unresolved = cJSON_CreateArray();
	for (i = 0; i < L->nall; i++) {
		const repo_file_t *f = &L->all[i];

		if (!load_is_py(f->path))
			continue;
		if (f->kind == REPO_SYMLINK) {
			char *what = xasprintf("symbolic link to '%s'", f->link_target ? f->link_target : "");

			records_add_unresolved(L->unresolved, f->path, what,
			                       "symbolic links are not followed; the file it names is read on its own if it is in the repository");
			free(what);
			continue;
		}
		if (f->kind == REPO_GITLINK) {
			char *what = xasprintf("submodule at commit %s", f->blob);

			records_add_unresolved(L->unresolved, f->path, what, "submodules are not read");
			free(what);
			continue;
		}
		pyidx[npy++] = i;
	}
	if (!L->py_started) {
		err_set(ECG_EXIT_INTERNAL, "%s", L->py_why);
		goto cleanup;
	}
	jobs = load_jobs(L->o, keep, npy);
	/* workers: when asked for (-j 2 and more), or by default for a
	 * parse check (even one, see load_jobs()) */
	pool = npy > 0 && (jobs > 1 || (!keep && L->o->jobs == 0));
	if (keep && !L->o->all) {
		/* only what the analysis reaches: each file is read and parsed
		 * when it is first imported (load_reach) */
		for (k = 0; k < npy; k++)
			prog_add_lazy(&L->prog, L->all[pyidx[k]].path);
		L->prog.load = load_reach;
		L->prog.load_ctx = L;
	} else if (pool) {
		/* Parse in worker processes; the analysis reads the files it
		 * needs again, on demand, in this process. */
		struct pp_result *res = xcalloc(npy + 1, sizeof *res);

		if (parsepool_run(L->repo, L->all, pyidx, npy, L->o->worktree, L->o->max_file, jobs,
		                  res) < 0) {
			parsepool_results_free(res, npy);
			goto cleanup;
		}
		for (k = 0; k < npy; k++) {
			const repo_file_t *f = &L->all[pyidx[k]];

			load_file_entry(L, f);
			if (res[k].status != PP_OK) {
				const char *msg = res[k].message ? res[k].message : "not parsed";

				records_add_parse_error(L->parse_errors, f->path, res[k].line, res[k].col, msg);
				load_warn(L, f->path, res[k].line, res[k].col, msg);
			}
			if (keep)
				prog_add_lazy(&L->prog, f->path);
		}
		parsepool_results_free(res, npy);
		if (mark)
			mark(ctx, "files parsed (workers)");
		L->prog.load = load_lazy;
		L->prog.load_ctx = L;
	} else {
		/* parsed here: by a complete interpreter (pyrt_init_lazy()) */
		if (npy > 0 && pyrt_need_main() < 0)
			goto cleanup;
		for (k = 0; k < npy; k++)
			if (load_read_one(L, &L->all[pyidx[k]], keep) < 0)
				goto cleanup;
		if (mark)
			mark(ctx, "files parsed");
	}
	/* Directories that are submodules (any name) are worth saying too. */
	for (i = 0; i < L->nall; i++) {
		const repo_file_t *f = &L->all[i];

		if (f->kind == REPO_GITLINK && !load_is_py(f->path)) {
			char *what = xasprintf("submodule at commit %s", f->blob);

			records_add_unresolved(L->unresolved, f->path, what, "submodules are not read");
			free(what);
		}
	}
	rc = 0;
cleanup:
	free(pyidx);
	return rc;
}

/* Order a list of objects by a string member (stable). */
struct keyed {
	cJSON *item;
	const char *key;
	int pos;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static void sort_by(cJSON *list, const char *key)
{
	int n = cJSON_GetArraySize(list), i;
	struct keyed *v;

	if (n < 2)
		return;
	v = xcalloc((size_t)n, sizeof *v);
	for (i = n - 1; i >= 0; i--) {
		const cJSON *k;

		v[i].item = cJSON_DetachItemFromArray(list, i);
		k = cJSON_GetObjectItemCaseSensitive(v[i].item, key);
		v[i].key = cJSON_IsString(k) ? k->valuestring : "";
		v[i].pos = i;
	}
	qsort(v, (size_t)n, sizeof *v, keyed_cmp);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(list, v[i].item);
	free(v);
}

int load_finish(struct load *L)
{
	if (L->files)
		sort_by(L->files, "path");
	if (L->parse_errors)
		sort_by(L->parse_errors, "file");
	if (L->failed) {
		err_set(ECG_EXIT_INTERNAL, "%s", L->why);
		return -1;
	}
	return 0;
}

int load_worktree_dirty_read(struct load *L, int *dirty)
{
	const cJSON *e;

	if (!L->o->worktree || *dirty)
		return 0;
	cJSON_ArrayForEach(e, L->files) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
		const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "blob"));
		char at[41];
		int rc;

		if (!p || !b || load_is_py(p))
			continue;            /* the .py files: load_worktree_dirty() */
		rc = repo_blob_at(L->repo, L->commit, p, at);
		if (rc < 0)
			return -1;
		if (rc == 0 || strcmp(at, b)) {
			*dirty = 1;
			return 0;
		}
	}
	return 0;
}

/* The job's file at `path` (as the job wrote it: the entry script's
 * directory first, then the repository's top), recorded in `files` and
 * read into *data (the caller frees it).  NULL with *why set when it is not
 * in the tree at the commit or cannot be read. */
static const repo_file_t *read_job_file(struct load *L, const char *path, const char *entry_dir, char **data,
                                        size_t *len, const char **why)
{
	const repo_file_t *f;
	char *cand;

	*why = NULL;
	if (path[0] == '/') {
		*why = "an absolute path, outside the repository";
		return NULL;
	}
	cand = xasprintf("%s%s", entry_dir, path);
	f = load_find_file(L, cand);
	free(cand);
	if (!f)
		f = load_find_file(L, path);
	if (!f) {
		*why = "the file is not in the repository at this commit";
		return NULL;
	}
	/* a file the job reads is part of the records: check and refresh
	 * see it change like code */
	load_add_file(L, f);
	if (repo_read(L->repo, f, L->o->worktree, L->o->max_file, data, len) < 0) {
		snprintf(L->why, sizeof L->why, "%s", err_last());
		err_clear();
		*why = L->why;
		return NULL;
	}
	return f;
}

/* What the normalised repository path `norm` is ("" the root), with the
 * names directly under it when names is not NULL (see load.h). */
static int tree_entry_at(const struct load *L, const char *norm, char ***names, size_t *nnames)
{
	const repo_file_t *f = *norm ? load_find(L, norm) : NULL;
	size_t lo = 0, hi = L->nall, k, plen, n = 0, cap = 0;
	char *prefix, **out = NULL;
	int kind = LOAD_TREE_NONE;

	if (f)
		return f->kind == REPO_FILE ? LOAD_TREE_FILE : LOAD_TREE_NONE;
	prefix = *norm ? xasprintf("%s/", norm) : xstrdup("");
	plen = strlen(prefix);
	while (lo < hi) {              /* the first path >= prefix: the directory's run starts there */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(L->all[mid].path, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < L->nall && !strncmp(L->all[k].path, prefix, plen); k++) {
		const char *rest = L->all[k].path + plen, *sl = strchr(rest, '/');
		size_t len = sl ? (size_t)(sl - rest) : strlen(rest);

		if (L->all[k].kind != REPO_FILE && !sl)
			continue;              /* a symlink or a submodule: what it is is not read */
		kind = LOAD_TREE_DIR;
		if (!names || !len)
			continue;
		/* a subdirectory's paths are one run in path order: once each */
		if (n && strlen(out[n - 1]) == len && !strncmp(out[n - 1], rest, len))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			out = xrealloc(out, cap * sizeof *out);
		}
		out[n++] = xstrndup(rest, len);
	}
	free(prefix);
	if (names) {
		if (kind != LOAD_TREE_DIR) {
			for (k = 0; k < n; k++)
				free(out[k]);
			free(out);
			out = NULL;
			n = 0;
		}
		*names = out;
		*nnames = n;
	}
	return kind;
}

int load_tree_entry(void *vctx, const char *path, const char *entry_dir, char ***names, size_t *nnames)
{
	struct load *L = vctx;
	char *cand, *norm;
	int kind = LOAD_TREE_NONE;

	if (names) {
		*names = NULL;
		*nnames = 0;
	}
	if (path[0] == '/')
		return LOAD_TREE_NONE;       /* outside the repository */
	cand = xasprintf("%s%s", entry_dir, path);
	norm = load_norm_path(cand);
	if (norm)
		kind = tree_entry_at(L, norm, names, nnames);
	free(norm);
	free(cand);
	if (kind == LOAD_TREE_NONE && *entry_dir && (norm = load_norm_path(path))) {
		kind = tree_entry_at(L, norm, names, nnames);
		free(norm);
	}
	return kind;
}

char *load_text_file(void *vctx, const char *path, const char *entry_dir, size_t *len, const char **why)
{
	struct load *L = vctx;
	char *data = NULL;

	*len = 0;
	if (!read_job_file(L, path, entry_dir, &data, len, why))
		return NULL;
	if (memchr(data, 0, *len)) {
		free(data);
		*why = "the file is not text (it holds NUL bytes)";
		return NULL;
	}
	return data;
}

cJSON *load_config_file(void *vctx, const char *path, const char *entry_dir, const char **why)
{
	struct load *L = vctx;
	const repo_file_t *f = NULL;
	char *data = NULL;
	size_t len = 0, n;
	cJSON *j = NULL;
	PyObject *r = NULL;
	const char *text;

	f = read_job_file(L, path, entry_dir, &data, &len, why);
	if (!f)
		return NULL;
	n = strlen(f->path);
	if (n >= 5 && !strcmp(f->path + n - 5, ".json")) {
		j = cJSON_ParseWithLength(data, len);
		if (!j)
			*why = "the file is not valid JSON";
		free(data);
		return j;
	}
	if (!L->helper && !L->helper_failed) {
		/* loaded on the first configuration file that needs it: its
		 * imports cost milliseconds a job without such files need not pay */
		PyObject *h = NULL;

		if (pyrt_need_main() < 0 || helpers_load(L->o->helpers, "ecg_config", &h) < 0) {
			L->helper_failed = 1;
			snprintf(L->why, sizeof L->why, "%s", err_last());
			err_clear();
		}
		L->helper = h;
	}
	if (!L->helper) {
		free(data);
		*why = L->helper_failed ? L->why : "no reader for this format";
		return NULL;
	}
	r = PyObject_CallMethod((PyObject *)L->helper, "load_as_json", "sy#", f->path, data, (Py_ssize_t)len);
	free(data);
	if (!r) {
		pyrt_error(f->path);
		snprintf(L->why, sizeof L->why, "%s", err_last());
		err_clear();
		*why = L->why;
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

cJSON *load_fs_json(void *vctx, const char *path, const char **why)
{
	struct load *L = vctx;
	char *data = NULL;
	size_t len = 0;
	char blob[41];
	cJSON *j, *e;

	if (path[0] != '/') {
		*why = "not an absolute path";
		return NULL;
	}
	if (site_read(path, L->o->max_file, &data, &len) < 0) {
		snprintf(L->why, sizeof L->why, "%s", err_last());
		err_clear();
		*why = L->why;
		return NULL;
	}
	j = cJSON_ParseWithLength(data, len);
	if (!j) {
		free(data);
		*why = "the file is not valid JSON";
		return NULL;
	}
	if (!L->fs_files)
		L->fs_files = cJSON_CreateArray();
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "path", path);
	if (repo_hash_bytes(data, len, blob) == 0)
		cJSON_AddStringToObject(e, "blob", blob);
	else {
		err_clear();
		cJSON_AddNullToObject(e, "blob");
	}
	cJSON_AddItemToArray(L->fs_files, e);
	free(data);
	return j;
}

void load_free(struct load *L)
{
	PyObject *h = L->helper;

	treecache_prefetch_stop(L->pf);
	L->pf = NULL;
	Py_XDECREF(h);
	L->helper = NULL;
	cJSON_Delete(L->files);
	cJSON_Delete(L->parse_errors);
	cJSON_Delete(L->unresolved);
	cJSON_Delete(L->fs_files);
	L->files = L->parse_errors = L->unresolved = L->fs_files = NULL;
	repo_files_free(L->all, L->nall);
	L->all = NULL;
	L->nall = 0;
	repo_free(L->repo);
	L->repo = NULL;
	prog_free(&L->prog);
	site_free(L->site);
	L->site = NULL;
}

/* ------------------------------------------------------------------ --config FILE */

/* A nested mapping flattened into KEY -> Python literal text, as --set
 * takes them. */
static void config_flatten(const cJSON *j, cJSON *out, int depth)
{
	const cJSON *c;

	if (depth > 16)
		return;
	cJSON_ArrayForEach(c, j) {
		char tmp[64];

		if (!c->string)
			continue;
		if (cJSON_IsObject(c)) {
			config_flatten(c, out, depth + 1);
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
static int config_error(const char *path)
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

/* see load.h */
int load_config_overrides(struct load *L, const char *path, cJSON **out)
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
				return config_error(path);
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
	config_flatten(j, *out, 0);
	cJSON_Delete(j);
	return 0;
}
