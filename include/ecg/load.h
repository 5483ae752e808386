/* load.h - a job's repository read into a prog: open the repository,
 * resolve the revision, list its files, parse every Python file (in this
 * process, or in worker processes) and keep what the analysis needs, with
 * what went wrong per file.  Shared by `ecg extract` and `ecg jobs`.
 *
 * Errors: int functions return 0, or -1 with err_set(); a per-file
 * problem is never an error (it is a parse_errors entry).
 */
#ifndef ECG_LOAD_H
#define ECG_LOAD_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ecg/prog.h"
#include "ecg/repo.h"

struct treecache_prefetch;
struct site;

struct load_opts {
	const char *repo;            /* path given by the user */
	const char *rev;             /* revision (the work tree is read against it) */
	int worktree;
	size_t max_file;
	int quiet;                   /* no per-file warnings */
	int jobs;                    /* parser processes; 0: auto */
	const char *helpers;         /* the pyhelpers directory */
	int all;                     /* --all: parse every file, not only those
	                                the analysis reaches */
	const char *cache_dir;       /* trees kept by blob sha (treecache.h),
	                                or NULL */
	int parse_only;              /* no analysis follows (extract without
	                                --entry): the interpreter may start in
	                                two steps (pyrt_init_lazy()) */
	const char *const *prefetch; /* paths the analysis is expected to read
	                                (refresh: the records' files), whose
	                                trees are read ahead from the cache */
	size_t nprefetch;
};

struct load {
	const struct load_opts *o;
	repo_t *repo;
	char commit[41];
	repo_file_t *all;            /* every file, sorted by path */
	size_t nall;
	struct prog prog;            /* the .py files (trees kept or loaded lazily) */
	cJSON *files;                /* [{"path","blob"}] of the files read: .py
	                                files and the configuration files the
	                                job opens */
	cJSON *parse_errors;
	cJSON *unresolved;           /* symlinks and submodules not followed */
	/* configuration files, read for the interpreter (interp_set_loader) */
	void *helper;                /* pyhelpers/ecg_config.py module (PyObject *), or NULL */
	int helper_failed;
	char why[512];
	int failed;                  /* the runtime failed while reading a file on demand */
	int py_started;              /* load_open() started the interpreter */
	char py_why[512];            /* else why not (reported by load_parse()) */
	size_t nread;                /* files read on demand */
	double read_ms;              /* ... and the time it took (--stats) */
	size_t cache_hits;           /* ... of which trees from the cache */
	size_t interp_bytes;         /* the analysis' arena (for --stats) */
	struct treecache_prefetch *pf;  /* reading ahead (o->prefetch), or NULL */
	struct site *site;           /* installed libraries (load_set_site), owned */
	size_t site_read, site_hits; /* their files read, and of those from the cache */
	cJSON *fs_files;             /* [{"path","blob"}] of data files read outside the
	                                repository (load_fs_json), or NULL */
};

/* Start the interpreter (pyrt_init(), or pyrt_init_lazy() with
 * parse_only; meanwhile libgit2 starts up in another thread), open,
 * resolve and list.  L is initialised by this call (load_free() it
 * whatever the outcome, then pyrt_fini()).  A failure to start the
 * interpreter is not reported here but by load_parse(). */
int load_open(struct load *L, const struct load_opts *o);

/* The file at path, or NULL. */
const repo_file_t *load_find(const struct load *L, const char *path);

/* Normalise a relative path ("." and "" dropped, ".." resolved): owned,
 * or NULL when ".." climbs above the start. */
char *load_norm_path(const char *p);

/* The regular file at path once normalised (load_norm_path), or NULL
 * (not there, a symlink or a submodule, or climbing out of the tree). */
const repo_file_t *load_find_file(const struct load *L, const char *path);

int load_is_py(const char *path);

/* *dirty = 1 when, in work-tree mode, the Python files read differ from
 * the commit's. */
int load_worktree_dirty(struct load *L, int *dirty);

/* After the analysis, in work-tree mode: *dirty = 1 also when a file
 * other than Python that the job read (a configuration file, listed in
 * `files` by load_config_file()) differs from the commit's or is not in
 * it.  Leaves *dirty alone otherwise.  0, or -1 with err_set(). */
int load_worktree_dirty_read(struct load *L, int *dirty);

/* Parse the .py files.  Without `keep` (no
 * analysis: a parse check) every file is parsed and dropped.  With keep,
 * only the files the analysis reaches are read, each when it is first
 * needed (prog_ensure), unless the options say `all`: then every file is
 * parsed now (in worker processes with -j) and kept.
 * mark(ctx, phase) is called after each phase (for --stats), may be NULL. */
int load_parse(struct load *L, int keep, void (*mark)(void *ctx, const char *what), void *ctx);

/* After the analysis: `files` and parse_errors in path order (files read
 * on demand come in the order they were reached).  -1 with err_set() when
 * the runtime failed while reading one of them. */
int load_finish(struct load *L);

/* List a file the job's reading depends on that is not Python (a launcher)
 * in `files`, with its blob, so that check and refresh see it change.
 * Once per path.  Nothing fails. */
void load_add_file(struct load *L, const repo_file_t *f);

/* The interpreter's reader of configuration files (interp_load_fn; ctx is
 * the struct load).  A file found in the repository is listed in `files`
 * with its blob, once, whether it parses or not. */
cJSON *load_config_file(void *ctx, const char *path, const char *entry_dir, const char **why);
/* The interpreter's reader of text files (interp_text_fn): the file's
 * bytes, resolved and recorded as load_config_file() does; NULL with *why
 * when it is not in the tree or holds NUL bytes. */
char *load_text_file(void *ctx, const char *path, const char *entry_dir, size_t *len, const char **why);

/* The interpreter's view of the repository's tree (interp_tree_fn; ctx is
 * the struct load): whether `path` (resolved as load_config_file() does)
 * is a file or a directory of the tree at the commit, and a directory's
 * names.  Nothing is read and nothing is recorded in `files`. */
int load_tree_entry(void *ctx, const char *path, const char *entry_dir, char ***names, size_t *nnames);
/* What load_tree_entry() returns: the values of interp.h's INTERP_TREE_*
 * (that header is a layer above this one; extract.c checks they agree). */
enum { LOAD_TREE_NONE = 0, LOAD_TREE_FILE = 1, LOAD_TREE_DIR = 2 };

/* The interpreter's reader of a JSON data file outside the repository
 * (interp_fs_json_fn): `path` absolute, read from the filesystem (at most
 * max_file bytes), never run; recorded in the header's environment.files
 * with its blob id.  NULL with *why set when it is not there, not
 * readable or not JSON. */
cJSON *load_fs_json(void *ctx, const char *path, const char **why);

/* Read installed libraries from `site` (owned from now on) when the
 * analysis imports what the repository does not hold.  Their files are
 * parsed like the repository's (same isolation, same limits, the tree
 * cache by content), a problem with one is a parse_errors entry, and
 * they are not in `files` (the environment is named in the header). */
void load_set_site(struct load *L, struct site *site);

/* The header's `environment`: {"site": [dirs as given], "packages":
 * [{"name","version","path"}] of the distributions a file was read
 * from}; NULL when no site directory was named or found.  Owned. */
cJSON *load_environment(const struct load *L);

/* Releases everything, the config helper included (before pyrt_fini()). */
void load_free(struct load *L);

/* --config FILE (on this machine, not in the repository): JSON, TOML or
 * YAML (the last two read by pyhelpers/ecg_config.py in the embedded
 * interpreter, started on demand), each scalar a KEY -> Python literal in
 * *out (owned), applied as --set under its own key.  A file that cannot be
 * read or parsed is bad usage (-1, ECG_EXIT_USAGE), never an internal
 * error. */
int load_config_overrides(struct load *L, const char *path, cJSON **out);

#endif
