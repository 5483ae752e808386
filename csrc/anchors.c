/* anchors.c - see include/ecg/anchors.h: the records' anchors judged at a
 * revision, for `ecg check` (the report) and `ecg refresh` (the fast path).
 *
 * Every code anchor in both records ("model.py:Block.forward:103") is
 * looked up again at REV.  A file whose blob is the one recorded is not
 * read at all: its anchors are fresh.  A file that changed is parsed in
 * both versions (the recorded blob, when the repository still has it, and
 * REV's) and each anchor's symbol is found again (symtab.h):
 *
 *   fresh    same file, same symbol, same line;
 *   moved    the symbol's code is the same, its line (or file) is not: the
 *            new anchor is given;
 *   changed  the symbol is there but its code changed (for a class or the
 *            module: the statement holding the anchor changed): its ops,
 *            arguments or repeat expression may differ;
 *   gone     the symbol (or the file) is not there any more.
 *
 * A configuration value whose source anchor is not fresh is reported too,
 * with the new value when the new code still assigns a literal to the same
 * name.  Nothing is run; Python is started only when a file changed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/anchors.h"
#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/repo.h"
#include "ecg/site.h"
#include "ecg/symtab.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

static const char *const astatus_name[] = { "fresh", "moved", "changed", "gone" };

static const repo_file_t *find_now(const struct check *k, const char *path)
{
	size_t lo = 0, hi = k->nall;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(k->all[mid].path, path);

		if (!c)
			return k->all[mid].kind == REPO_FILE ? &k->all[mid] : NULL;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct cfile *find_file(struct check *k, const char *path)
{
	size_t i;

	for (i = 0; i < k->nfiles; i++)
		if (!strcmp(k->files[i].path, path))
			return &k->files[i];
	return NULL;
}

int check_is_py(const char *path)
{
	size_t n = strlen(path);

	return n >= 3 && !strcmp(path + n - 3, ".py");
}

/* A file the job reads that is not Python (a configuration file): it has
 * no anchors to judge, so its changing at all makes the records stale --
 * its values may differ.  (A move counts: the job opens it by its path.) */
static int data_file_stale(const struct cfile *cf)
{
	return !check_is_py(cf->path) && cf->st != F_SAME;
}

/* Everything that makes the records stale: anchors not fresh, config
 * values whose source changed, and data files that changed. */
size_t check_stale(const struct check *k)
{
	size_t i, n = k->counts[A_MOVED] + k->counts[A_CHANGED] + k->counts[A_GONE] +
	           (size_t)cJSON_GetArraySize(k->config);

	for (i = 0; i < k->nfiles; i++)
		n += (size_t)data_file_stale(&k->files[i]);
	return n + (size_t)cJSON_GetArraySize(k->env);
}

/* ------------------------------------------------------------------ the environment */

/* Files the records say the job read outside the repository, at most this
 * big (a checkpoint's config.json). */
#define ENV_FILE_MAX ((size_t)1 << 30)

static void env_add(struct check *k, const char *kind, const char *path, const char *name, const char *status,
                    const char *recorded, const char *now)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "kind", kind);
	cJSON_AddStringToObject(e, "path", path);
	if (name)
		cJSON_AddStringToObject(e, "name", name);
	cJSON_AddStringToObject(e, "status", status);
	cJSON_AddItemToObject(e, "recorded", recorded ? cJSON_CreateString(recorded) : cJSON_CreateNull());
	cJSON_AddItemToObject(e, "now", now ? cJSON_CreateString(now) : cJSON_CreateNull());
	cJSON_AddItemToArray(k->env, e);
}

void check_environment(struct check *k, const cJSON *graph)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(graph, "environment"), *e;

	if (!k->env)
		k->env = cJSON_CreateArray();
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(env, "files")) {
		const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
		const char *blob = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "blob"));
		char *data = NULL, now[41];
		size_t len;

		if (!path)
			continue;
		if (site_read(path, ENV_FILE_MAX, &data, &len) < 0) {
			err_clear();
			env_add(k, "file", path, NULL, "gone", blob, NULL);
			continue;
		}
		if (repo_hash_bytes(data, len, now) < 0) {
			err_clear();
			strcpy(now, "?");
		}
		free(data);
		if (!blob || strcmp(blob, now))
			env_add(k, "file", path, NULL, "changed", blob, now);
	}
	{
		/* one directory read for the packages that are in it (the
		 * records list them by name, most in one site-packages) */
		struct site *s = NULL;
		const char *s_path = NULL;

		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(env, "packages")) {
			const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
			const char *ver = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "version"));
			const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
			const struct site_dist *d;

			if (!name || !path)
				continue;
			if (!s_path || strcmp(s_path, path)) {
				const char *dirs[1];

				dirs[0] = path;
				site_free(s);
				s = site_discover(dirs, 1, NULL, NULL, 0);
				s_path = path;
			}
			d = site_dist_named(s, name);
			if (!d)
				env_add(k, "package", path, name, "gone", ver, NULL);
			else if (!ver != !d->version || (ver && strcmp(ver, d->version)))
				env_add(k, "package", path, name, "changed", ver, d->version);
		}
		site_free(s);
	}
	/* names found in none of the directories then (environment.absent):
	 * one installed since would decide otherwise */
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(env, "absent")) > 0) {
		const cJSON *sl = cJSON_GetObjectItemCaseSensitive(env, "site");
		const char **dirs = xcalloc((size_t)cJSON_GetArraySize(sl) + 1, sizeof *dirs);
		size_t n = 0;
		struct site *s;

		cJSON_ArrayForEach(e, sl)
			if (cJSON_IsString(e))
				dirs[n++] = e->valuestring;
		s = site_discover(dirs, n, NULL, NULL, 0);
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(env, "absent")) {
			const struct site_dist *d;

			if (!cJSON_IsString(e))
				continue;
			d = site_dist_named(s, e->valuestring);
			if (d)
				env_add(k, "package", d->path, e->valuestring, "installed", NULL, d->version);
			else if (site_has_top(s, e->valuestring))
				env_add(k, "package", n ? dirs[0] : "", e->valuestring, "installed", NULL, NULL);
		}
		site_free(s);
		free(dirs);
	}
}

/* Parse one version of a file into p (one file) and t.  1 parsed, 0 not
 * (unreadable or not Python any more), -1 the runtime failed. */
static int parse_version(struct check *k, const repo_file_t *f, int worktree, struct prog *p, struct symtab *t)
{
	char *data = NULL;
	size_t len = 0;
	PyObject *mod = NULL;
	pyast_error pe = { 0, 0, NULL };
	struct ast_arena *arena;
	struct ast_Module *cmod = NULL;
	struct sfile *sf;
	int rc;

	prog_init(p);
	/* a blob whose tree is in the cache (refresh: the old version, the
	 * job read it) is not parsed, and needs no interpreter */
	if (!worktree && k->o->cache_dir && f->kind == REPO_FILE &&
	    treecache_load(k->o->cache_dir, f->blob, &arena, &cmod, &data, &len)) {
		sf = prog_add(p, f->path, data, len, arena, cmod);
		symtab_build(sf, t);
		return 1;
	}
	if (!k->py_started && !k->py_borrowed) {
		/* a process that already runs the interpreter lends it */
		if (Py_IsInitialized()) {
			k->py_borrowed = 1;
		} else {
			if (pyrt_init(k->helpers) < 0)
				return -1;
			k->py_started = 1;
		}
	}
	if (repo_read(k->repo, f, worktree, 64UL << 20, &data, &len) < 0) {
		err_clear();
		return 0;
	}
	rc = pyast_parse(f->path, data, len, &mod, &pe);
	if (rc < 0) {
		free(data);
		return -1;
	}
	if (rc > 0) {
		pyast_error_clear(&pe);
		free(data);
		return 0;
	}
	arena = ast_arena_new();
	if (astconv_module(mod, arena, &cmod) < 0) {
		Py_DECREF(mod);
		ast_arena_free(arena);
		free(data);
		if (err_code() != ECG_EXIT_INPUT)
			return -1;
		err_clear();
		return 0;
	}
	Py_DECREF(mod);
	/* the job's reading that follows finds it there */
	if (!worktree && k->o->cache_dir)
		(void)treecache_store(k->o->cache_dir, f->blob, cmod, data, len);
	sf = prog_add(p, f->path, data, len, arena, cmod);
	symtab_build(sf, t);
	return 1;
}

static int ensure_parsed(struct check *k, struct cfile *cf)
{
	repo_file_t old;
	int r;

	if (cf->parsed)
		return 0;
	cf->parsed = 1;
	memset(&old, 0, sizeof old);
	old.path = cf->path;
	memcpy(old.blob, cf->blob, sizeof old.blob);
	old.kind = REPO_FILE;
	if ((r = parse_version(k, &old, 0, &cf->oldp, &cf->olds)) < 0)
		return -1;
	cf->old_ok = r;
	if (cf->now) {
		if ((r = parse_version(k, cf->now, k->o->worktree, &cf->newp, &cf->news)) < 0)
			return -1;
		cf->new_ok = r;
	}
	return 0;
}

/* "file:Sym.bol:123" -> its parts (file and sym owned by the caller). */
static int split_anchor(const char *a, char **file, char **sym, int *line)
{
	const char *c2 = strrchr(a, ':'), *c1;
	char *end;
	long l;

	if (!c2 || c2 == a)
		return -1;
	l = strtol(c2 + 1, &end, 10);
	if (*end || end == c2 + 1 || l < 0 || l > 100000000)
		return -1;
	for (c1 = c2 - 1; c1 > a && *c1 != ':'; c1--)
		;
	if (c1 == a || c1 + 1 >= c2)
		return -1;
	*file = xstrndup(a, (size_t)(c1 - a));
	*sym = xstrndup(c1 + 1, (size_t)(c2 - c1 - 1));
	*line = (int)l;
	return 0;
}

struct verdict {
	enum astatus st;
	char *new_anchor;              /* owned, or NULL */
	const char *reason;            /* static or owned by the check, or NULL */
	const struct sym_stmt *old_stmt, *new_stmt;   /* for config values */
	struct cfile *cf;
};

/* Where anchor a is now.  -1 when the runtime failed. */
static int judge(struct check *k, const char *a, struct verdict *v)
{
	char *file = NULL, *sym = NULL;
	int line;
	struct cfile *cf;
	const struct sym *os, *ns;

	memset(v, 0, sizeof *v);
	if (split_anchor(a, &file, &sym, &line) < 0 || !(cf = find_file(k, file))) {
		free(file);
		free(sym);
		return 1;               /* not an anchor into a recorded file */
	}
	v->cf = cf;
	if (cf->st == F_SAME) {
		v->st = A_FRESH;
		goto done;
	}
	if (cf->st == F_MOVED) {
		v->st = A_MOVED;
		v->new_anchor = xasprintf("%s:%s:%d", cf->now->path, sym, line);
		v->reason = "the file moved, unchanged";
		goto done;
	}
	if (cf->st == F_GONE) {
		v->st = A_GONE;
		v->reason = "the file is not there any more";
		goto done;
	}
	if (ensure_parsed(k, cf) < 0) {
		free(file);
		free(sym);
		return -1;
	}
	if (!cf->new_ok) {
		v->st = A_CHANGED;
		v->reason = "the file does not parse at this revision";
		goto done;
	}
	ns = symtab_find(&cf->news, sym);
	if (!ns) {
		v->st = A_GONE;
		v->reason = "the symbol is not in the file any more";
		goto done;
	}
	os = cf->old_ok ? symtab_find(&cf->olds, sym) : NULL;
	if (!os) {
		v->st = A_CHANGED;
		v->reason = cf->old_ok ? "the recorded symbol is not in the recorded file"
		                       : "the recorded version of the file is not in the repository: not compared";
		goto done;
	}
	if (os->kind == SYM_FUNCTION) {
		int nl = line + (ns->line - os->line);

		if (os->hash == ns->hash) {
			v->st = nl == line ? A_FRESH : A_MOVED;
			if (nl != line)
				v->new_anchor = xasprintf("%s:%s:%d", file, sym, nl);
		} else {
			v->st = A_CHANGED;
			v->reason = "the symbol's code changed";
			if (line == os->line && ns->line != line)
				v->new_anchor = xasprintf("%s:%s:%d", file, sym, ns->line);
		}
		goto done;
	}
	/* a class body or the module: statement by statement */
	if (line == os->line && os->kind == SYM_CLASS) {
		v->st = ns->line == line ? A_FRESH : A_MOVED;
		if (ns->line != line)
			v->new_anchor = xasprintf("%s:%s:%d", file, sym, ns->line);
		goto done;
	}
	v->old_stmt = symtab_stmt_at(&cf->olds, os, line);
	if (!v->old_stmt) {
		v->st = A_CHANGED;
		v->reason = "the recorded line is not a statement of the symbol";
		goto done;
	}
	v->new_stmt = symtab_stmt_like(&cf->news, ns, v->old_stmt->hash, v->old_stmt->line + (ns->line - os->line));
	if (!v->new_stmt) {
		size_t i;

		v->st = A_CHANGED;
		v->reason = "the statement changed";
		/* the same name assigned again: for the config report */
		for (i = 0; v->old_stmt->target && i < cf->news.nstmts; i++) {
			const struct sym_stmt *x = &cf->news.stmts[i];

			if (&cf->news.syms[x->owner] == ns && x->target && !strcmp(x->target, v->old_stmt->target)) {
				v->new_stmt = x;
				break;
			}
		}
		goto done;
	}
	{
		int nl = v->new_stmt->line + (line - v->old_stmt->line);

		v->st = nl == line ? A_FRESH : A_MOVED;
		if (nl != line)
			v->new_anchor = xasprintf("%s:%s:%d", file, sym, nl);
	}
done:
	free(file);
	free(sym);
	return 0;
}

static void report_anchor(struct check *k, const char *record, const char *id, const char *field, const char *a,
                          const struct verdict *v)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "record", record);
	cJSON_AddStringToObject(e, "id", id);
	cJSON_AddStringToObject(e, "field", field);
	cJSON_AddStringToObject(e, "status", astatus_name[v->st]);
	cJSON_AddStringToObject(e, "anchor", a);
	if (v->new_anchor)
		cJSON_AddStringToObject(e, "new_anchor", v->new_anchor);
	else
		cJSON_AddNullToObject(e, "new_anchor");
	if (v->reason)
		cJSON_AddStringToObject(e, "reason", v->reason);
	cJSON_AddItemToArray(k->entries, e);
	k->counts[v->st]++;
}

/* Every anchor string under j; id/field name where it is. */
static int walk(struct check *k, const char *record, const cJSON *j, const char *id, const char *path, int depth)
{
	const cJSON *c;
	int i = 0;

	if (depth > 32)
		return 0;
	if (cJSON_IsString(j)) {
		struct verdict v;
		int r = judge(k, j->valuestring, &v);

		if (r < 0)
			return -1;
		if (r == 0)
			report_anchor(k, record, id, path, j->valuestring, &v);
		free(v.new_anchor);
		return 0;
	}
	cJSON_ArrayForEach(c, j) {
		char *sub;
		int r;

		if (cJSON_IsArray(j))
			sub = xasprintf("%s[%d]", path, i);
		else
			sub = path[0] ? xasprintf("%s.%s", path, c->string ? c->string : "?") : xstrdup(c->string ? c->string : "?");
		i++;
		r = walk(k, record, c, id, sub, depth + 1);
		free(sub);
		if (r < 0)
			return -1;
	}
	return 0;
}

int check_records(struct check *k, const cJSON *graph, const cJSON *sched)
{
	const cJSON *mods = cJSON_GetObjectItemCaseSensitive(graph, "modules"), *e, *c;
	static const char *const skip[] = { "files", "parse_errors", "modules", "config", "commit", NULL };

	/* the graph's entries, by id */
	cJSON_ArrayForEach(e, mods) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");

		cJSON_ArrayForEach(c, e) {
			if (!c->string || !strcmp(c->string, "id") || !strcmp(c->string, "parent"))
				continue;
			if (walk(k, "computation_graph", c, cJSON_IsString(id) ? id->valuestring : "?", c->string, 0) < 0)
				return -1;
		}
	}
	/* the headers and the schedule's sections, by where they are */
	cJSON_ArrayForEach(c, graph) {
		size_t s;
		int skipit = 0;

		for (s = 0; skip[s]; s++)
			if (c->string && !strcmp(c->string, skip[s]))
				skipit = 1;
		if (!skipit && walk(k, "computation_graph", c, "", c->string ? c->string : "?", 0) < 0)
			return -1;
	}
	cJSON_ArrayForEach(c, sched) {
		size_t s;
		int skipit = 0;

		for (s = 0; skip[s]; s++)
			if (c->string && !strcmp(c->string, skip[s]))
				skipit = 1;
		if (!skipit && walk(k, "execution_schedule", c, "", c->string ? c->string : "?", 0) < 0)
			return -1;
	}
	/* configuration values whose source is not fresh */
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(graph, "config")) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *src = cJSON_GetObjectItemCaseSensitive(e, "source");
		const cJSON *val = cJSON_GetObjectItemCaseSensitive(e, "value");
		struct verdict v;
		cJSON *r;
		char *old;
		int rc;

		if (!cJSON_IsString(src) || !cJSON_IsString(name))
			continue;
		{
			struct cfile *df = find_file(k, src->valuestring);

			/* a value read from a configuration file: what became of
			 * the file (its new value is the job's to read again) */
			if (df && !check_is_py(df->path)) {
				if (!data_file_stale(df))
					continue;
				r = cJSON_CreateObject();
				cJSON_AddStringToObject(r, "name", name->valuestring);
				cJSON_AddItemToObject(r, "value", val ? cJSON_Duplicate(val, 1) : cJSON_CreateNull());
				cJSON_AddStringToObject(r, "source", src->valuestring);
				cJSON_AddStringToObject(r, "status", df->st == F_CHANGED ? "changed" : "gone");
				cJSON_AddNullToObject(r, "new_value_text");
				cJSON_AddItemToArray(k->config, r);
				continue;
			}
		}
		rc = judge(k, src->valuestring, &v);
		if (rc < 0)
			return -1;
		if (rc > 0 || v.st == A_FRESH || v.st == A_MOVED) {
			free(v.new_anchor);
			continue;
		}
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "name", name->valuestring);
		cJSON_AddItemToObject(r, "value", val ? cJSON_Duplicate(val, 1) : cJSON_CreateNull());
		cJSON_AddStringToObject(r, "source", src->valuestring);
		cJSON_AddStringToObject(r, "status", astatus_name[v.st]);
		old = val ? cJSON_PrintUnformatted(val) : NULL;
		if (v.new_stmt && v.new_stmt->value && v.cf && v.cf->new_ok) {
			const char *text = prog_text(&v.cf->newp.files[0], v.new_stmt->value,
			                             v.cf->newp.files[0].arena);

			char *f = NULL, *sym = NULL;
			int line;

			cJSON_AddStringToObject(r, "new_value_text", text);
			if (split_anchor(src->valuestring, &f, &sym, &line) == 0) {
				char *na = xasprintf("%s:%s:%d", f, sym, v.new_stmt->line);

				cJSON_AddStringToObject(r, "new_source", na);
				free(na);
			}
			free(f);
			free(sym);
		} else {
			cJSON_AddNullToObject(r, "new_value_text");
		}
		free(old);
		cJSON_AddItemToArray(k->config, r);
		free(v.new_anchor);
	}
	return 0;
}

/* Each recorded file: the same blob at REV, changed, moved unchanged (the
 * same blob under another path that the records do not list), or gone. */
void check_classify_files(struct check *k, const cJSON *files)
{
	const cJSON *f;
	size_t n = 0, i;

	k->files = xcalloc((size_t)cJSON_GetArraySize(files) + 1, sizeof *k->files);
	cJSON_ArrayForEach(f, files) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(f, "path");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(f, "blob");
		struct cfile *cf;

		if (!cJSON_IsString(p) || !cJSON_IsString(b) || strlen(b->valuestring) != 40)
			continue;
		cf = &k->files[n++];
		cf->path = xstrdup(p->valuestring);
		memcpy(cf->blob, b->valuestring, 41);
		cf->now = find_now(k, cf->path);
		cf->st = !cf->now ? F_GONE : strcmp(cf->now->blob, cf->blob) ? F_CHANGED : F_SAME;
	}
	k->nfiles = n;
	for (i = 0; i < n; i++) {
		struct cfile *cf = &k->files[i];
		size_t j;

		if (cf->st != F_GONE)
			continue;
		for (j = 0; j < k->nall; j++) {
			const repo_file_t *x = &k->all[j];

			if (x->kind == REPO_FILE && !strcmp(x->blob, cf->blob) && !find_file(k, x->path)) {
				cf->st = F_MOVED;
				cf->now = x;
				break;
			}
		}
	}
}

void check_free(struct check *k)
{
	size_t i;

	for (i = 0; i < k->nfiles; i++) {
		struct cfile *cf = &k->files[i];

		free(cf->path);
		if (cf->parsed) {
			symtab_free(&cf->olds);
			symtab_free(&cf->news);
			prog_free(&cf->oldp);
			prog_free(&cf->newp);
		}
	}
	free(k->files);
	repo_files_free(k->all, k->nall);
	repo_free(k->repo);
	cJSON_Delete(k->entries);
	cJSON_Delete(k->config);
	cJSON_Delete(k->env);
	free(k->helpers);
}

/* ------------------------------------------------------------------ refresh's fast path */

/* Do the two versions of a changed file differ only in where things are
 * (blank lines, comments outside every function, a block moved down)? */
static int relocation_only(const struct cfile *cf)
{
	size_t i;

	if (!cf->old_ok || !cf->new_ok || cf->olds.nsyms != cf->news.nsyms || cf->olds.nstmts != cf->news.nstmts)
		return 0;
	for (i = 0; i < cf->olds.nsyms; i++) {
		const struct sym *a = &cf->olds.syms[i], *b = &cf->news.syms[i];

		if (strcmp(a->qual, b->qual) || a->kind != b->kind || (a->kind == SYM_FUNCTION && a->hash != b->hash))
			return 0;
	}
	for (i = 0; i < cf->olds.nstmts; i++)
		if (cf->olds.stmts[i].hash != cf->news.stmts[i].hash || cf->olds.stmts[i].owner != cf->news.stmts[i].owner)
			return 0;
	return 1;
}

/* Every anchor string under j moved to where it is now; 0, or 1 when one
 * is not simply moved (changed, gone), -1 when the runtime failed. */
static int relocate_walk(struct check *k, cJSON *j, int depth)
{
	cJSON *c;

	if (depth > 32)
		return 1;
	if (cJSON_IsString(j)) {
		struct verdict v;
		int r = judge(k, j->valuestring, &v);

		if (r < 0)
			return -1;
		if (r == 0 && (v.st == A_CHANGED || v.st == A_GONE)) {
			free(v.new_anchor);
			return 1;
		}
		if (r == 0 && v.st == A_MOVED && v.new_anchor)
			cJSON_SetValuestring(j, v.new_anchor);
		free(v.new_anchor);
		return 0;
	}
	cJSON_ArrayForEach(c, j) {
		int r = relocate_walk(k, c, depth + 1);

		if (r)
			return r;
	}
	return 0;
}

int check_relocate(const char *repo_path, const char *rev, const char *helpers_dir, const char *cache_dir,
                   const cJSON *graph, const cJSON *sched, cJSON **graph_out, cJSON **sched_out)
{
	struct check_opts o;
	struct check k;
	cJSON *g = NULL, *s = NULL, *f;
	size_t i;
	int rc = -1;

	*graph_out = *sched_out = NULL;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	o.repo = repo_path;
	o.rev = rev;
	o.helpers_dir = helpers_dir;
	o.cache_dir = cache_dir;
	k.o = &o;
	k.entries = cJSON_CreateArray();
	k.config = cJSON_CreateArray();
	if (!(k.helpers = helpers_find(helpers_dir)) || repo_open(repo_path, &k.repo) < 0 ||
	    repo_resolve(k.repo, rev, k.commit) < 0 || repo_list(k.repo, k.commit, 0, NULL, &k.all, &k.nall) < 0)
		goto out;
	check_classify_files(&k, cJSON_GetObjectItemCaseSensitive(graph, "files"));
	rc = 0;
	check_environment(&k, graph);
	if (cJSON_GetArraySize(k.env) > 0)
		goto out;                    /* a file or library outside the repository changed */
	for (i = 0; i < k.nfiles; i++) {
		struct cfile *cf = &k.files[i];

		if (cf->st == F_GONE || cf->st == F_MOVED)
			goto out;            /* a file left or moved: read the job again */
		if (cf->st != F_CHANGED)
			continue;
		if (!check_is_py(cf->path))
			goto out;            /* a configuration file changed: its values */
		if (ensure_parsed(&k, cf) < 0) {
			rc = -1;
			goto out;
		}
		if (!relocation_only(cf))
			goto out;
	}
	g = cJSON_Duplicate(graph, 1);
	s = cJSON_Duplicate(sched, 1);
	{
		int r1 = relocate_walk(&k, g, 0), r2 = r1 ? r1 : relocate_walk(&k, s, 0);

		if (r1 < 0 || r2 < 0) {
			rc = -1;
			goto out;
		}
		if (r1 || r2)
			goto out;
	}
	/* the header: this commit, these blobs */
	/* (no commit: a directory outside any git repository, records.c) */
	cJSON_ReplaceItemInObjectCaseSensitive(g, "commit", *k.commit ? cJSON_CreateString(k.commit) : cJSON_CreateNull());
	cJSON_ReplaceItemInObjectCaseSensitive(s, "commit", *k.commit ? cJSON_CreateString(k.commit) : cJSON_CreateNull());
	cJSON_ReplaceItemInObjectCaseSensitive(g, "dirty", *k.commit ? cJSON_CreateFalse() : cJSON_CreateNull());
	cJSON_ReplaceItemInObjectCaseSensitive(s, "dirty", *k.commit ? cJSON_CreateFalse() : cJSON_CreateNull());
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(g, "files")) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
		struct cfile *cf = p ? find_file(&k, p) : NULL;

		if (cf && cf->now)
			cJSON_ReplaceItemInObjectCaseSensitive(f, "blob", cJSON_CreateString(cf->now->blob));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(s, "files",
	                                       cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(g, "files"), 1));
	*graph_out = g;
	*sched_out = s;
	g = s = NULL;
	rc = 1;
out:
	if (rc < 0 && err_code() == ECG_EXIT_OK)
		err_set(ECG_EXIT_INTERNAL, "refresh: reading the changed files failed");
	cJSON_Delete(g);
	cJSON_Delete(s);
	check_free(&k);
	if (k.py_started) {
		astconv_fini();
		/* when the job is read next (rc 0), it parses with this one */
		if (rc == 0)
			pyrt_release();
		else
			pyrt_fini();
	}
	return rc;
}
