/* site.c - see include/ecg/site.h */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/site.h"
#include "ecg/util.h"

/* What the catalogue covers: never read from an environment. */
static const char *const site_covered[] = { "functorch", "torch", "torchgen" };

/* Bounds on what is listed: a site directory with more entries, or a
 * .pth file longer than this, is read only this far (and noted). */
#define SITE_MAX_ENTRIES 100000
#define SITE_MAX_PTH (256 * 1024)
#define SITE_MAX_META (1024 * 1024)
/* How many of a package's files are looked at for an import of torch
 * (site_is_torch_library) before it is judged not a torch library. */
#define SITE_SCAN_FILES 200

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static void add_str(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static int has_str(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void note(struct site *s, const char *what, const char *why)
{
	char *m = xasprintf("%s: %s", what, why);

	s->notes = xrealloc(s->notes, (s->nnotes + 1) * sizeof *s->notes);
	s->notes[s->nnotes++] = m;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

int site_read(const char *fspath, size_t cap, char **data, size_t *len)
{
	int fd = open(fspath, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t off = 0;
	char *b;

	*data = NULL;
	*len = 0;
	if (fd < 0) {
		err_set(ECG_EXIT_INPUT, "cannot open '%s': %s", fspath, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err_set(ECG_EXIT_INPUT, "'%s' is not a regular file", fspath);
		close(fd);
		return -1;
	}
	if ((unsigned long long)st.st_size > cap) {
		err_set(ECG_EXIT_INPUT, "'%s' is larger than the limit (%zu bytes)", fspath, cap);
		close(fd);
		return -1;
	}
	b = xmalloc((size_t)st.st_size + 1);
	while (off < (size_t)st.st_size) {
		ssize_t r = read(fd, b + off, (size_t)st.st_size - off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	b[off] = 0;
	*data = b;
	*len = off;
	return 0;
}

/* ------------------------------------------------------------ .pth files */

/* A .pth file's lines, as site.py reads them but without running any:
 * blank lines and comments are skipped, an `import` line is skipped (it
 * would run code), any other line is a directory, relative to the site
 * directory, added when it exists. */
static void read_pth(struct site *s, const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file), *data, *line, *next;
	size_t len;

	if (site_read(path, SITE_MAX_PTH, &data, &len) < 0) {
		note(s, path, err_last());
		err_clear();
		free(path);
		return;
	}
	for (line = data; line && *line; line = next) {
		char *e, *cand;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		e = line + strlen(line);
		while (e > line && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
		if (!*line || *line == '#')
			continue;
		if (!strncmp(line, "import ", 7) || !strncmp(line, "import\t", 7))
			continue;   /* code: never run */
		cand = line[0] == '/' ? xstrdup(line) : xasprintf("%s/%s", dir, line);
		if (is_dir(cand) && !has_str(s->dirs, s->ndirs, cand))
			add_str(&s->dirs, &s->ndirs, cand);
		free(cand);
	}
	free(data);
	free(path);
}

/* ------------------------------------------------------ distributions */

/* The value of header `key` ("Name") in RFC 822 style metadata, up to
 * the first blank line; owned, or NULL. */
static char *meta_field(const char *data, const char *key)
{
	size_t kl = strlen(key);
	const char *p = data;

	while (p && *p && *p != '\n' && !(p[0] == '\r' && p[1] == '\n')) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n > kl && !strncasecmp(p, key, kl) && p[kl] == ':') {
			const char *v = p + kl + 1;
			const char *ve = p + n;

			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' '))
				ve--;
			return xstrndup(v, (size_t)(ve - v));
		}
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

/* Whether metadata lists torch among its requirements (an extra's
 * too): "Requires-Dist: torch (>=1.7)", "Requires-Dist: torch; extra ==". */
static int meta_requires_torch(const char *data)
{
	const char *p = data;

	while ((p = strstr(p, "Requires-Dist:")) != NULL) {
		p += 14;
		while (*p == ' ')
			p++;
		if (!strncmp(p, "torch", 5) && !(p[5] == '_' || p[5] == '-' || (p[5] >= 'a' && p[5] <= 'z') ||
		                                 (p[5] >= '0' && p[5] <= '9')))
			return 1;
	}
	return 0;
}

/* The top-level names a distribution provides: top_level.txt, else the
 * first components of RECORD's .py paths, else its own name. */
static void dist_tops(struct site_dist *d, const char *meta_dir)
{
	char *path = xasprintf("%s/top_level.txt", meta_dir), *data = NULL, *line, *next;
	size_t len;
	int record = 0;

	if (site_read(path, SITE_MAX_META, &data, &len) < 0) {
		err_clear();
		free(path);
		path = xasprintf("%s/RECORD", meta_dir);
		record = 1;
		if (site_read(path, SITE_MAX_META * 8, &data, &len) < 0) {
			err_clear();
			data = NULL;
		}
	}
	free(path);
	for (line = data; line && *line; line = next) {
		char *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (record) {
			char *slash = strchr(line, '/');
			char *comma = strchr(line, ',');

			if (comma)
				*comma = 0;
			if (!slash) {
				size_t n = strlen(line);

				if (n > 3 && !strcmp(line + n - 3, ".py"))
					line[n - 3] = 0;
				else
					continue;
			} else {
				*slash = 0;
			}
			if (strstr(line, ".dist-info") || strstr(line, ".data") || !strcmp(line, "..") ||
			    !strcmp(line, "__pycache__"))
				continue;
		}
		e = line + strlen(line);
		while (e > line && (e[-1] == '\r' || e[-1] == ' '))
			*--e = 0;
		if (*line && !has_str(d->tops, d->ntops, line))
			add_str(&d->tops, &d->ntops, line);
	}
	free(data);
	if (d->ntops == 0 && d->name) {
		char *t = xstrdup(d->name), *c;

		for (c = t; *c; c++)
			if (*c == '-' || *c == '.')
				*c = '_';
		add_str(&d->tops, &d->ntops, t);
		free(t);
	}
}

/* One `*.dist-info` or `*.egg-info` entry of a site directory. */
static void read_dist(struct site *s, const char *dir, const char *entry)
{
	char *meta_dir = xasprintf("%s/%s", dir, entry);
	char *meta, *data = NULL;
	size_t len;
	struct site_dist d;

	memset(&d, 0, sizeof d);
	if (is_dir(meta_dir)) {
		meta = xasprintf("%s/%s", meta_dir, strstr(entry, ".dist-info") ? "METADATA" : "PKG-INFO");
	} else {
		meta = xstrdup(meta_dir);   /* an egg-info file is PKG-INFO itself */
	}
	if (site_read(meta, SITE_MAX_META, &data, &len) < 0) {
		note(s, meta, err_last());
		err_clear();
		free(meta);
		free(meta_dir);
		return;
	}
	d.requires_torch = meta_requires_torch(data);
	d.name = meta_field(data, "Name");
	d.version = meta_field(data, "Version");
	{
		char *r = realpath(dir, NULL);   /* where it is, whatever the name given */

		d.path = r ? r : xstrdup(dir);
	}
	free(data);
	if (!d.name) {
		free(d.version);
		free(d.path);
		free(meta);
		free(meta_dir);
		return;
	}
	if (is_dir(meta_dir))
		dist_tops(&d, meta_dir);
	else
		add_str(&d.tops, &d.ntops, d.name);
	s->dists = xrealloc(s->dists, (s->ndists + 1) * sizeof *s->dists);
	s->dists[s->ndists++] = d;
	free(meta);
	free(meta_dir);
}


static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List one site directory: its .pth files and its distributions.  The
 * modules themselves are found by path when imported (site_find). */
static void read_dir(struct site *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **pth = NULL;
	size_t npth = 0, i, seen = 0;

	if (!d) {
		note(s, dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)) != NULL && seen++ < SITE_MAX_ENTRIES) {
		if (e->d_name[0] == '.')
			continue;
		if (ends_with(e->d_name, ".pth"))
			add_str(&pth, &npth, e->d_name);
		else if (ends_with(e->d_name, ".dist-info") || ends_with(e->d_name, ".egg-info"))
			read_dist(s, dir, e->d_name);
	}
	closedir(d);
	/* site.py reads them in name order */
	if (npth > 1)
		qsort(pth, npth, sizeof *pth, cmp_str);
	for (i = 0; i < npth; i++) {
		read_pth(s, dir, pth[i]);
		free(pth[i]);
	}
	free(pth);
}

/* ------------------------------------------------------------ discovery */

/* PREFIX/lib/python3.X/site-packages, each that exists (glob order). */
static void add_prefix(struct site *s, char ***cand, size_t *ncand, const char *prefix)
{
	char *pat = xasprintf("%s/lib/python3*/site-packages", prefix);
	glob_t g;
	size_t i;

	(void)s;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			if (!has_str(*cand, *ncand, g.gl_pathv[i]))
				add_str(cand, ncand, g.gl_pathv[i]);
		globfree(&g);
	}
	free(pat);
}

/* The site-packages of the interpreter at `python`, from its path alone:
 * PREFIX/bin/python -> PREFIX/lib/python3.X/site-packages (a venv, conda,
 * /usr/local), resolved through links when the path as given has none. */
static void add_python(struct site *s, char ***cand, size_t *ncand, const char *python)
{
	char *p = xstrdup(python), *slash;
	size_t before = *ncand;

	slash = strrchr(p, '/');
	if (slash) {
		*slash = 0;
		slash = strrchr(p, '/');
		if (slash && !strcmp(slash + 1, "bin")) {
			*slash = 0;
			add_prefix(s, cand, ncand, *p ? p : "/");
		}
	}
	free(p);
	if (*ncand == before) {
		char *r = realpath(python, NULL);

		if (r && strcmp(r, python))
			add_python(s, cand, ncand, r);
		else if (!r || *ncand == before)
			note(s, python, "no site-packages found from the interpreter's path");
		free(r);
	}
}

struct site *site_discover(const char *const *sites, size_t nsites, const char *python,
                           const char *repo_dir, int use_env)
{
	struct site *s = xcalloc(1, sizeof *s);
	char **cand = NULL;
	size_t ncand = 0, i;

	for (i = 0; i < nsites; i++)
		if (!has_str(cand, ncand, sites[i]))
			add_str(&cand, &ncand, sites[i]);
	if (python)
		add_python(s, &cand, &ncand, python);
	if (use_env) {
		const char *v = getenv("VIRTUAL_ENV"), *c = getenv("CONDA_PREFIX");

		if (v && *v)
			add_prefix(s, &cand, &ncand, v);
		if (c && *c)
			add_prefix(s, &cand, &ncand, c);
		if (repo_dir) {
			char *venv = xasprintf("%s/.venv", repo_dir);

			if (is_dir(venv))
				add_prefix(s, &cand, &ncand, venv);
			free(venv);
		}
	}
	for (i = 0; i < ncand; i++) {
		add_str(&s->given, &s->ngiven, cand[i]);
		if (!is_dir(cand[i])) {
			note(s, cand[i], "not a directory");
		} else if (!has_str(s->dirs, s->ndirs, cand[i])) {
			size_t first = s->ndirs;

			add_str(&s->dirs, &s->ndirs, cand[i]);
			read_dir(s, s->dirs[first]);
		}
		free(cand[i]);
	}
	free(cand);
	return s;
}

void site_free(struct site *s)
{
	size_t i, j;

	if (!s)
		return;
	for (i = 0; i < s->ngiven; i++)
		free(s->given[i]);
	for (i = 0; i < s->ndirs; i++)
		free(s->dirs[i]);
	for (i = 0; i < s->ndists; i++) {
		free(s->dists[i].name);
		free(s->dists[i].version);
		free(s->dists[i].path);
		for (j = 0; j < s->dists[i].ntops; j++)
			free(s->dists[i].tops[j]);
		free(s->dists[i].tops);
	}
	for (i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	for (i = 0; i < s->ndecided; i++)
		free(s->decided[i]);
	free(s->decided);
	free(s->verdict);
	for (i = 0; i < s->nabsent; i++)
		free(s->absent[i]);
	free(s->absent);
	free(s->given);
	free(s->dirs);
	free(s->dists);
	free(s->notes);
	free(s);
}

int site_any(const struct site *s)
{
	return s && s->ndirs > 0;
}

static int covered(const char *top)
{
	size_t lo = 0, hi = sizeof site_covered / sizeof site_covered[0];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(site_covered[mid], top);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The site directory Python would take `top` from: the first that holds
 * it as a package or a module (a namespace package, a directory without
 * __init__.py, spans them all: -1 then, "look in each"). */
static long top_dir(const struct site *s, const char *top)
{
	size_t i;

	for (i = 0; i < s->ndirs; i++) {
		char *pkg = xasprintf("%s/%s/__init__.py", s->dirs[i], top);
		char *mod = xasprintf("%s/%s.py", s->dirs[i], top);
		int hit = is_file(pkg) || is_file(mod);

		free(pkg);
		free(mod);
		if (hit)
			return (long)i;
	}
	return -1;
}

/* Whether the text of a Python file imports torch: "import torch" or
 * "from torch" at the start of a line (indented too). */
static int text_uses_torch(const char *t)
{
	const char *p = t;

	while ((p = strstr(p, "torch")) != NULL) {
		const char *l = p;

		while (l > t && l[-1] != '\n')
			l--;
		while (*l == ' ' || *l == '\t')
			l++;
		if ((!strncmp(l, "import ", 7) || !strncmp(l, "from ", 5)) &&
		    (p[5] == '.' || p[5] == ' ' || p[5] == '\n' || p[5] == ',' || p[5] == '\r') &&
		    (p[-1] == ' ' || p[-1] == ','))
			return 1;
		p += 5;
	}
	return 0;
}

/* A bounded look through the .py files under dir (breadth first, at
 * most *budget files) for one that imports torch. */
static int dir_uses_torch(const char *dir, int depth, size_t *budget)
{
	DIR *d;
	struct dirent *e;
	char **subs = NULL;
	size_t nsubs = 0, i;
	int hit = 0;

	if (depth > 4 || !(d = opendir(dir)))
		return 0;
	while (!hit && *budget > 0 && (e = readdir(d)) != NULL) {
		char *p;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "__pycache__") || !strcmp(e->d_name, "tests"))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (ends_with(e->d_name, ".py") && is_file(p)) {
			char *data;
			size_t len;

			(*budget)--;
			if (site_read(p, 4 * 1024 * 1024, &data, &len) == 0) {
				hit = text_uses_torch(data);
				free(data);
			} else {
				err_clear();
			}
		} else if (is_dir(p)) {
			add_str(&subs, &nsubs, p);
		}
		free(p);
	}
	closedir(d);
	for (i = 0; i < nsubs; i++) {
		if (!hit && *budget > 0)
			hit = dir_uses_torch(subs[i], depth + 1, budget);
		free(subs[i]);
	}
	free(subs);
	return hit;
}

/* Whether top-level package `top` is a library built on torch, whose
 * modules are worth reading: its metadata requires torch, or one of its
 * first SITE_SCAN_FILES .py files imports it.  A library that is not
 * (numpy, PIL, requests) stays external: reading it would cost the budget
 * and tell nothing about the model.  Judged once per name. */
static int site_is_torch_library(struct site *s, const char *top)
{
	struct site_dist *d = site_dist_of(s, top);
	size_t i, budget = SITE_SCAN_FILES;
	long k;
	int hit = 0;

	for (i = 0; i < s->ndecided; i++)
		if (!strcmp(s->decided[i], top))
			return s->verdict[i];
	if (d && d->requires_torch) {
		hit = 1;
	} else if ((k = top_dir(s, top)) >= 0) {
		char *pkg = xasprintf("%s/%s", s->dirs[k], top), *mod = xasprintf("%s/%s.py", s->dirs[k], top);

		if (is_dir(pkg)) {
			hit = dir_uses_torch(pkg, 0, &budget);
		} else {
			char *data;
			size_t len;

			if (site_read(mod, 4 * 1024 * 1024, &data, &len) == 0) {
				hit = text_uses_torch(data);
				free(data);
			} else {
				err_clear();
			}
		}
		free(pkg);
		free(mod);
	}
	add_str(&s->decided, &s->ndecided, top);
	s->verdict = xrealloc(s->verdict, s->ndecided * sizeof *s->verdict);
	s->verdict[s->ndecided - 1] = hit;
	return hit;
}

/* The top-level import name a path inside site-packages is under
 * ("torchvision" for torchvision/models/resnet.py, "six" for six.py);
 * owned. */
static char *rel_top(const char *rel)
{
	char *top = xstrndup(rel, strcspn(rel, "/")), *dot;

	if (!strchr(rel, '/') && (dot = strrchr(top, '.')) != NULL)
		*dot = 0;           /* "mod.py" */
	return top;
}

char *site_locate(struct site *s, const char *rel)
{
	char *top;
	long d;
	size_t i;

	if (!site_any(s) || !*rel || *rel == '/' || strstr(rel, "..") || strstr(rel, "//"))
		return NULL;
	top = rel_top(rel);
	if (!*top || covered(top) || !site_is_torch_library(s, top)) {
		free(top);
		return NULL;
	}
	d = top_dir(s, top);
	free(top);
	for (i = d >= 0 ? (size_t)d : 0; i < s->ndirs; i++) {
		char *p = xasprintf("%s/%s", s->dirs[i], rel);

		if (is_file(p))
			return p;
		free(p);
		if (d >= 0)
			break;
	}
	return NULL;
}

void site_mark_used(struct site *s, const char *rel)
{
	char *top = rel_top(rel);
	struct site_dist *d = site_dist_of(s, top);

	if (d)
		d->used = 1;
	free(top);
}

struct site_dist *site_dist_of(const struct site *s, const char *top)
{
	size_t i, j;

	if (!s)
		return NULL;
	for (i = 0; i < s->ndists; i++)
		for (j = 0; j < s->dists[i].ntops; j++)
			if (!strcmp(s->dists[i].tops[j], top))
				return &s->dists[i];
	return NULL;
}

/* a and b the same distribution name: case and runs of - _ . alike */
static int dist_name_eq(const char *a, const char *b)
{
	for (;;) {
		int sa = *a == '-' || *a == '_' || *a == '.', sb = *b == '-' || *b == '_' || *b == '.';

		if (sa || sb) {
			if (!sa || !sb)
				return 0;
			while (*a == '-' || *a == '_' || *a == '.')
				a++;
			while (*b == '-' || *b == '_' || *b == '.')
				b++;
			continue;
		}
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
		if (!*a)
			return 1;
		a++, b++;
	}
}

struct site_dist *site_dist_named(const struct site *s, const char *name)
{
	size_t i;

	for (i = 0; s && i < s->ndists; i++)
		if (s->dists[i].name && dist_name_eq(s->dists[i].name, name))
			return &s->dists[i];
	return NULL;
}

/* an extension module's file name for `top`: top.so, top.pyd, top.<tag>.so */
static int is_ext_name(const char *e, const char *top)
{
	size_t n = strlen(top);

	return !strncmp(e, top, n) && e[n] == '.' && (ends_with(e + n, ".so") || ends_with(e + n, ".pyd"));
}

int site_has_top(const struct site *s, const char *top)
{
	size_t i;

	if (!s || !*top || strchr(top, '/') || !strcmp(top, ".") || !strcmp(top, ".."))
		return 0;
	if (site_dist_of(s, top))
		return 1;
	for (i = 0; i < s->ndirs; i++) {
		char *pkg = xasprintf("%s/%s", s->dirs[i], top);
		char *mod = xasprintf("%s/%s.py", s->dirs[i], top);
		int hit = is_dir(pkg) || is_file(mod);
		DIR *d;
		struct dirent *e;

		free(pkg);
		free(mod);
		if (hit)
			return 1;
		if (!(d = opendir(s->dirs[i])))
			continue;
		while (!hit && (e = readdir(d)) != NULL)
			hit = is_ext_name(e->d_name, top);
		closedir(d);
		if (hit)
			return 1;
	}
	return 0;
}

void site_note_absent(struct site *s, const char *name)
{
	if (s && name && *name && !has_str(s->absent, s->nabsent, name))
		add_str(&s->absent, &s->nabsent, name);
}
