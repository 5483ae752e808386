/* prog.c - see include/ecg/prog.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/pkgdir.h"
#include "ecg/prog.h"
#include "ecg/util.h"

void prog_init(struct prog *p)
{
	memset(p, 0, sizeof *p);
	p->entry_dir = xstrdup("");
}

static void sfile_release(struct sfile *f)
{
	free(f->path);
	free(f->modname);
	free(f->src);
	free(f->line_off);
	free(f->fspath);
	ast_arena_free(f->arena);
}

void prog_free(struct prog *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		sfile_release(&p->files[i]);
	if (p->site) {
		for (i = 0; i < p->site->n; i++) {
			sfile_release(p->site->files[i]);
			free(p->site->files[i]);
		}
		free(p->site->files);
		free(p->site);
	}
	pkgdir_free(p->pkgdir);
	free(p->files);
	free(p->entry_dir);
	memset(p, 0, sizeof *p);
}

static char *prog_modname(const char *path, int *is_pkg)
{
	size_t n = strlen(path);
	char *m, *s;

	*is_pkg = 0;
	if (n >= 11 && (n == 11 || path[n - 12] == '/') && !strcmp(path + n - 11, "__init__.py")) {
		*is_pkg = 1;
		m = xstrndup(path, n == 11 ? 0 : n - 12);
	} else {
		m = xstrndup(path, n >= 3 ? n - 3 : n);
	}
	for (s = m; *s; s++)
		if (*s == '/')
			*s = '.';
	return m;
}

static void prog_index_lines(struct sfile *f)
{
	size_t n = 1, alloc = 64;
	const char *p = f->src, *end = f->src ? f->src + f->len : NULL, *nl;

	f->line_off = xmalloc(alloc * sizeof *f->line_off);
	f->line_off[0] = 0;
	f->line_off[1] = 0;
	/* memchr(): a byte-at-a-time loop was 4% of an analysis */
	while (p && p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (n + 2 > alloc)
			GROW(f->line_off, alloc, n + 2);
		f->line_off[++n] = (size_t)(nl - f->src) + 1;
		p = nl + 1;
	}
	f->nlines = n;
}

struct sfile *prog_add(struct prog *p, const char *path, char *src, size_t len,
                       struct ast_arena *arena, struct ast_Module *mod)
{
	struct sfile *f;

	GROW(p->files, p->alloc, p->n + 1);
	f = &p->files[p->n++];
	memset(f, 0, sizeof *f);
	f->id = p->n - 1;
	f->path = xstrdup(path);
	f->modname = prog_modname(path, &f->is_package);
	f->src = src ? src : xstrdup("");
	f->len = src ? len : 0;
	f->arena = arena;
	f->mod = mod;
	f->loaded = 1;
	prog_index_lines(f);
	return f;
}

struct sfile *prog_add_lazy(struct prog *p, const char *path)
{
	struct sfile *f = prog_add(p, path, NULL, 0, NULL, NULL);

	f->loaded = 0;
	return f;
}

void prog_ensure(const struct prog *p, struct sfile *sf)
{
	if (sf->loaded)
		return;
	sf->loaded = 1;
	if (sf->fspath ? !p->site || !p->site->load : !p->load)
		return;
	free(sf->src);
	sf->src = NULL;
	sf->len = 0;
	if (sf->fspath)
		p->site->load(p->site->load_ctx, sf);
	else
		p->load(p->load_ctx, sf);
	if (!sf->src) {
		sf->src = xstrdup("");
		sf->len = 0;
	}
	free(sf->line_off);
	prog_index_lines(sf);
}

void prog_set_site(struct prog *p, struct site *site, void (*load)(void *ctx, struct sfile *sf),
                   void *ctx)
{
	if (!p->site)
		p->site = xcalloc(1, sizeof *p->site);
	p->site->site = site;
	p->site->load = load;
	p->site->load_ctx = ctx;
}

size_t prog_nids(const struct prog *p)
{
	return p->n + (p->site ? p->site->n : 0);
}

/* An installed library's file by its "site:<rel>" path: one found
 * before, or found on disk now and added (unloaded). */
static struct sfile *prog_site_file(const struct prog *p, const char *path)
{
	struct prog_site *ps = p->site;
	const char *rel = path + strlen(PROG_SITE_PREFIX);
	struct sfile *f;
	char *fs;
	size_t i;

	if (!ps || !ps->site)
		return NULL;
	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->files[i]->path, path))
			return ps->files[i];
	fs = site_locate(ps->site, rel);
	if (!fs)
		return NULL;
	xgrow((void **)&ps->files, &ps->alloc, ps->n + 1, sizeof *ps->files);
	f = xcalloc(1, sizeof *f);
	ps->files[ps->n++] = f;
	f->path = xstrdup(path);
	f->modname = prog_modname(rel, &f->is_package);
	f->fspath = fs;
	f->src = xstrdup("");
	f->id = p->n + ps->n - 1;
	prog_index_lines(f);
	return f;
}

struct sfile *prog_file(const struct prog *p, const char *path)
{
	size_t lo = 0, hi = p->n;

	if (!strncmp(path, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)))
		return prog_site_file(p, path);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->files[mid].path, path);

		if (c == 0)
			return &p->files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct sfile *prog_find_under(const struct prog *p, const char *base, const char *dotted)
{
	buf_t b;
	struct sfile *f;
	size_t mark;
	const char *s;

	buf_init(&b);
	buf_addstr(&b, base);
	for (s = dotted; *s; s++)
		buf_addch(&b, *s == '.' ? '/' : *s);
	mark = b.len;
	buf_addstr(&b, ".py");
	f = prog_file(p, b.buf);
	if (!f) {
		b.len = mark;
		if (mark > 0 && b.buf[mark - 1] != '/')
			buf_addch(&b, '/');
		buf_addstr(&b, "__init__.py");
		f = prog_file(p, b.buf);
	}
	buf_free(&b);
	return f;
}

/* The nearest directory strictly above the entry's and below the root
 * that holds a setup.py ("dir/", owned), or NULL. */
static char *prog_project_dir(const struct prog *p)
{
	buf_t b;
	size_t len;

	if (!p->entry_dir || !*p->entry_dir)
		return NULL;
	len = strlen(p->entry_dir) - 1;             /* drop the trailing '/' */
	buf_init(&b);
	while (len > 0) {
		while (len > 0 && p->entry_dir[len - 1] != '/')
			len--;
		if (len == 0)
			break;
		b.len = 0;
		buf_add(&b, p->entry_dir, len);
		buf_addstr(&b, "setup.py");
		if (prog_file(p, b.buf)) {
			buf_free(&b);
			return xstrndup(p->entry_dir, len);
		}
		len--;                              /* the '/' before it */
	}
	buf_free(&b);
	return NULL;
}

/* Is the first name of `dotted` a package of the repository (found by the
 * searches above, not an installed library's)? */
static int repo_top_package(const struct prog *p, const char *dotted)
{
	char *top = xstrndup(dotted, strcspn(dotted, "."));
	struct sfile *f = NULL;

	if (p->entry_dir && *p->entry_dir)
		f = prog_find_under(p, p->entry_dir, top);
	if (!f)
		f = prog_find_under(p, "", top);
	if (!f)
		f = prog_find_under(p, "src/", top);
	free(top);
	return f && f->is_package;
}

struct sfile *prog_find_module(const struct prog *p, const char *dotted)
{
	struct sfile *f = NULL;

	if (!dotted || !*dotted)
		return NULL;
	if (p->entry_dir && *p->entry_dir)
		f = prog_find_under(p, p->entry_dir, dotted);
	if (!f)
		f = prog_find_under(p, "", dotted);
	if (!f)
		f = prog_find_under(p, "src/", dotted);
	if (!f) {
		char *proj = prog_project_dir(p);

		if (proj)
			f = prog_find_under(p, proj, dotted);
		free(proj);
	}
	if (!f && strchr(dotted, '.') && repo_top_package(p, dotted))
		f = pkgdir_find(p, dotted);
	if (!f && p->site)
		f = prog_find_under(p, PROG_SITE_PREFIX, dotted);
	return f;
}

char *prog_relative_base(const struct sfile *from, int level)
{
	char *dir = xstrdup(from->path);
	char *slash;
	int up = level - 1;

	/* the directory of the file: the package it is in */
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = 0;
	else
		dir[0] = 0;
	while (up-- > 0) {
		size_t n = strlen(dir);

		if (n == 0) {
			free(dir);
			return NULL;
		}
		dir[n - 1] = 0;
		slash = strrchr(dir, '/');
		if (slash)
			slash[1] = 0;
		else
			dir[0] = 0;
	}
	/* an installed library's file: never above its site directory */
	if (from->fspath && strncmp(dir, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)) != 0) {
		free(dir);
		return NULL;
	}
	return dir;
}

int prog_span(const struct sfile *f, const struct ast_hdr *node, const char **p, size_t *n)
{
	size_t s, e;

	*p = "";
	*n = 0;
	if (!node || node->line < 1 || (size_t)node->line > f->nlines ||
	    node->end_line < node->line || (size_t)node->end_line > f->nlines)
		return -1;
	s = f->line_off[node->line] + (size_t)(node->col > 0 ? node->col : 0);
	e = f->line_off[node->end_line] + (size_t)(node->end_col > 0 ? node->end_col : 0);
	if (s > f->len || e > f->len || e < s)
		return -1;
	*p = f->src + s;
	*n = e - s;
	return 0;
}

const char *prog_text(const struct sfile *f, const struct ast_hdr *node, struct ast_arena *a)
{
	const char *p;
	size_t n;

	if (prog_span(f, node, &p, &n) < 0)
		return "";
	return ast_arena_strndup(a, p, n);
}
