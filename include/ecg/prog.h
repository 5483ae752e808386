/* prog.h - the job's source files as the analysis sees them: each file's
 * path, bytes and plain-C AST, and Python's rules for finding a module by
 * its dotted name.
 *
 * A prog owns everything in it.  Files are added once, in path order; the
 * AST of a file that did not parse is NULL (the file is still known, so an
 * import of it resolves to "seen, not readable" rather than "external").
 */
#ifndef ECG_PROG_H
#define ECG_PROG_H

#include <stddef.h>

#include "ecg/ast.h"
#include "ecg/site.h"

struct sfile {
	char *path;                 /* repository-relative, e.g. "pkg/model.py" */
	char *modname;              /* dotted, relative to the repository root:
	                               "pkg.model"; "pkg" for pkg/__init__.py */
	int is_package;             /* an __init__.py */
	char *src;                  /* the bytes (NUL-terminated), owned */
	size_t len;
	struct ast_arena *arena;    /* owns mod */
	struct ast_Module *mod;     /* NULL if the file did not parse */
	size_t *line_off;           /* byte offset of each line start (1-based
	                               index; line_off[0] unused) */
	size_t nlines;
	int loaded;                 /* src/mod are filled (see prog_ensure) */
	size_t id;                  /* 0..n-1 for the repository's files (their
	                               index), n.. for installed-library files,
	                               in the order they were first found */
	char *fspath;               /* an installed library's file: its path on
	                               disk (path is then "site:<rel>"); NULL for
	                               the repository's files */
};

/* The installed libraries' files found so far (site.h): each allocated on
 * its own, so that pointers to them stay valid as more are found. */
struct prog_site {
	struct site *site;          /* not owned */
	struct sfile **files;
	size_t n, alloc;
	/* reads and parses a site file (src NULL, loaded 0), as p->load */
	void (*load)(void *ctx, struct sfile *sf);
	void *load_ctx;
};

struct prog {
	struct sfile *files;        /* sorted by path */
	size_t n, alloc;
	char *entry_dir;            /* directory of the entry script ("" = root),
	                               with a trailing '/' unless empty; owned */
	/* Reads and parses a file added unloaded (src NULL, loaded 0): fills
	 * src, len, arena and mod, or leaves mod NULL if it does not parse. */
	void (*load)(void *ctx, struct sfile *sf);
	void *load_ctx;
	struct prog_site *site;     /* owned; NULL when no library is read */
	struct pkgdir *pkgdir;      /* setup.py's package_dir (pkgdir.h): read on
	                               the first lookup that needs it; owned */
};

/* Prefix of the path of an installed library's file. */
#define PROG_SITE_PREFIX "site:"

void prog_init(struct prog *p);
void prog_free(struct prog *p);

/* Add a file; takes ownership of src, arena and mod (either may be NULL).
 * Files must be added in strictly increasing path order. */
struct sfile *prog_add(struct prog *p, const char *path, char *src, size_t len,
                       struct ast_arena *arena, struct ast_Module *mod);

/* Add a file whose bytes are read only when the analysis needs them
 * (prog_ensure). */
struct sfile *prog_add_lazy(struct prog *p, const char *path);

/* Make sure sf's bytes and tree are there (calls p->load once). */
void prog_ensure(const struct prog *p, struct sfile *sf);

/* The file with this exact path, or NULL.  A path "site:<rel>" names an
 * installed library's file: found on disk (site_locate) the first time it
 * is asked for and added then, unloaded -- when its package is a library
 * built on torch (site_locate); else NULL, as for a package
 * not installed. */
struct sfile *prog_file(const struct prog *p, const char *path);

/* Read installed libraries from `site` (not owned; outlives p), their
 * files read and parsed by load(ctx, sf). */
void prog_set_site(struct prog *p, struct site *site, void (*load)(void *ctx, struct sfile *sf),
                   void *ctx);

/* How many files have ids (the repository's and the libraries' found so
 * far): every sf->id is below it. */
size_t prog_nids(const struct prog *p);

/* Find the module `dotted` as Python would for a job started as
 * `python <entry>`: first under the entry script's directory (sys.path[0]),
 * then the repository root, then src/, then the project the entry script
 * belongs to (the nearest directory above the entry's, below the root,
 * that holds a setup.py: a sub-project installed with `pip install -e`,
 * its packages importable from anywhere), then -- for a name whose
 * top-level package is the repository's -- the directory the root
 * setup.py's package_dir maps it to (pkgdir.h), then the installed
 * libraries (prog_set_site).  "a.b" is a/b.py or a/b/__init__.py.  NULL if it is
 * in none of them. */
struct sfile *prog_find_module(const struct prog *p, const char *dotted);

/* The package a relative import of `level` dots in `from` starts at, as a
 * directory prefix ("" or "pkg/sub/"); NULL if it climbs out of the
 * repository.  Owned by the caller. */
char *prog_relative_base(const struct sfile *from, int level);

/* Find "<base><dotted as path>" as a module (base from prog_relative_base). */
struct sfile *prog_find_under(const struct prog *p, const char *base, const char *dotted);

/* The source text of [line:col, end_line:end_col) (AST positions: 1-based
 * lines, 0-based byte columns), as a string in `a`; "" if out of range.
 * Newlines inside are kept. */
const char *prog_text(const struct sfile *f, const struct ast_hdr *node, struct ast_arena *a);

/* The same text in place: *p points into f->src (not NUL-terminated), *n
 * bytes.  0, or -1 (and "", 0) when the position is out of range. */
int prog_span(const struct sfile *f, const struct ast_hdr *node, const char **p, size_t *n);

#endif
