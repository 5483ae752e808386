/* site.h - the job's installed libraries, found and read as data.
 *
 * A job builds part of its model from installed packages (torchvision,
 * timm, fairscale ...).  Their sources are right there on a login node: a
 * site-packages directory named with --site, found from --python's path,
 * or from an active VIRTUAL_ENV / CONDA_PREFIX or a .venv/ at the
 * repository root.  Nothing here is imported or run: directories are
 * listed, `.pth` files are read as lines of paths (an `import` line is
 * skipped, never run), and a distribution's name and version come from
 * its `*.dist-info/METADATA` or `*.egg-info` (PKG-INFO) headers.
 *
 * torch itself (torch, torchgen, functorch) is never read: the catalogue
 * covers it.
 *
 * Ownership: a struct site owns every string in it; site_free() frees it.
 * Nothing here fails the run: a directory that cannot be read is noted
 * (site_notes) and skipped.
 */
#ifndef ECG_SITE_H
#define ECG_SITE_H

#include <stddef.h>

struct site_dist {
	char *name;                 /* "torchvision" (METADATA Name:) */
	char *version;              /* "0.14.1" or NULL */
	char *path;                 /* the site directory that holds it */
	char **tops;                /* top-level import names it provides */
	size_t ntops;
	int used;                   /* a file of it was read */
	int requires_torch;         /* its metadata requires torch (an extra too) */
};

struct site {
	char **given;               /* the directories as given / found, in order */
	char **dirs;                /* those that are directories, plus .pth paths */
	size_t ngiven, ndirs;
	struct site_dist *dists;
	size_t ndists;
	char **notes;               /* what was skipped and why, for warnings */
	size_t nnotes;
	char **decided;             /* top-level names judged by */
	int *verdict;               /* site_locate()'s torch-library test, and the verdict */
	size_t ndecided;
	char **absent;              /* names the job looked up and found in none
	                               (site_note_absent), in order, once each */
	size_t nabsent;
};

/* Where a job's site-packages are, without running anything.
 * `sites` (--site, in order), `python` (--python PATH, or NULL),
 * `repo_dir` (the repository's directory on disk, or NULL for a bare
 * one), `use_env` (0 with --no-site-env: VIRTUAL_ENV, CONDA_PREFIX and
 * .venv/ are not looked at).  Returns a site (never NULL; with no
 * directory when none was found). */
struct site *site_discover(const char *const *sites, size_t nsites, const char *python,
                           const char *repo_dir, int use_env);
void site_free(struct site *s);

/* Whether any directory is there to read. */
int site_any(const struct site *s);

/* The file at `rel`, a path inside site-packages ("torchvision/models/
 * resnet.py"), as Python would find it: in the first site directory that
 * holds its top-level package (each, for a namespace package).  The path
 * on disk (owned), or NULL: not there, not a plain relative path, a
 * package the catalogue covers (torch), or a library not built on torch
 * (its metadata requires torch, or one of its first 200 .py files
 * imports it; judged once per name). */
char *site_locate(struct site *s, const char *rel);

/* The distribution that holds `rel` (a path inside site-packages) was
 * read from: the header names it.  Nothing when none provides it. */
void site_mark_used(struct site *s, const char *rel);

/* The distribution that provides top-level name `top`, or NULL. */
struct site_dist *site_dist_of(const struct site *s, const char *top);

/* The distribution named `name` (importlib.metadata.version's argument),
 * names compared as pip does (case, and runs of '-', '_', '.', alike),
 * or NULL. */
struct site_dist *site_dist_named(const struct site *s, const char *name);

/* Whether top-level module `top` is installed in one of the site
 * directories: a package directory, a module file (.py, or an extension
 * top.*.so / top.pyd), or a distribution's top-level name; read or not. */
int site_has_top(const struct site *s, const char *top);

/* The analysis decided on `name` (a distribution or a top-level module)
 * not being installed in these directories (importlib.metadata.version,
 * find_spec): the header lists it (environment.absent) so that `ecg
 * check` sees it appear.  Kept once. */
void site_note_absent(struct site *s, const char *name);

/* Read a site file's bytes (at most `cap`): 0, or -1 with err_set()
 * (ECG_EXIT_INPUT) saying why. *data is NUL-terminated, owned. */
int site_read(const char *fspath, size_t cap, char **data, size_t *len);

#endif
