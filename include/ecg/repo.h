/* repo.h - reading a job's code out of a git repository with libgit2.
 *
 * Nothing is checked out and nothing the repository contains is run.
 * A bare repository, a work tree, or any directory inside one can be opened.
 * All paths handed out are relative to the repository root, '/'-separated.
 *
 * Errors: functions returning int give 0 on success and -1 with err_set()
 * (class ECG_EXIT_INPUT unless said otherwise).
 */
#ifndef ECG_REPO_H
#define ECG_REPO_H

#include <stddef.h>

typedef struct repo repo_t;

enum repo_kind {
	REPO_FILE = 0,   /* a regular (or executable) file: a blob */
	REPO_SYMLINK,    /* a symbolic link: not followed; target in link_target */
	REPO_GITLINK     /* a submodule commit: its tree is not in this repository */
};

typedef struct {
	char *path;          /* owned; relative to the repository root, escaped
	                        as the records write it (repo_path_escape()) */
	char blob[41];       /* hex sha of the blob (in --worktree mode: the sha the
	                        file's bytes would have as a blob); for a gitlink,
	                        the submodule commit */
	enum repo_kind kind;
	char *link_target;   /* owned; REPO_SYMLINK only, else NULL */
	char *raw;           /* owned: the path's own bytes when `path` is their
	                        escaped form (repo_path_escape()), else NULL */
	                     /* "" for an untracked work-tree file over the
	                        hashing limit (repo_set_hash_cap()): listed,
	                        never hashed, never read */
	size_t size;         /* bytes, for REPO_FILE in --worktree mode;
	                        REPO_SIZE_UNKNOWN for a commit's file (see
	                        repo_file_size()); 0 otherwise */
} repo_file_t;

#define REPO_SIZE_UNKNOWN ((size_t)-1)

/* Start libgit2's global initialisation in a background thread, to be
 * joined by the next repo_open() (whatever its outcome).  Only a head
 * start: nothing changes if it is not called, or if the thread cannot be
 * made.  Call it with no other thread of libgit2's running, and call
 * repo_open() before forking. */
void repo_lib_prestart(void);

/* Open the repository containing `path` (searching upwards).  A
 * directory outside any git repository opens as a plain work tree
 * (repo_is_plain()): it has no commit (repo_resolve() gives "" for HEAD
 * and fails for any other revision), every file in it is listed and read
 * from disk whatever `worktree` says, with the blob id its bytes would
 * have, except hidden directories (a name starting with '.') and
 * __pycache__; repo_blob_at() gives the file on disk, and it is never
 * dirty. */
int repo_open(const char *path, repo_t **out);
void repo_free(repo_t *r);   /* NULL is fine */
int repo_is_plain(const repo_t *r);

int repo_is_bare(const repo_t *r);
/* The work tree root with a trailing '/', or NULL for a bare repository.
 * Borrowed from r. */
const char *repo_workdir(const repo_t *r);
/* Where `path` given to repo_open() sits inside the work tree: "" at the
 * root, else "sub/dir/" (trailing '/').  "" for a bare repository.  Borrowed. */
const char *repo_prefix(const repo_t *r);

/* Resolve a revision (sha, branch, tag, HEAD~2, ...) to a commit; writes
 * the 40-hex sha and a NUL into sha.  Fails on an empty repository (no
 * commit yet), an unknown revision, or a revision that is not a commit. */
int repo_resolve(repo_t *r, const char *rev, char sha[41]);

/* List the files of `commit`'s tree (worktree == 0) or of the work tree
 * (worktree != 0: tracked files plus untracked files that are not ignored),
 * keeping only paths that end in `suffix` (NULL: every file).  Sorted by
 * path (byte order).  *out is owned by the caller: repo_files_free().
 * In the work tree nothing is read through a symbolic link: a tracked path
 * below a link (a tracked directory replaced by one) is not there, as for
 * git; links to directories are not walked; nested repositories are not
 * entered; a directory nested deeper than 100 levels is skipped with a
 * warning; an untracked file over the hashing limit is listed with an
 * empty blob and its size. */
/* A repository path as the records write it, so that every path is valid
 * UTF-8, fits the records' relpath pattern and stays distinct: each byte
 * of a sequence that is not UTF-8, each control character (0x01-0x1f,
 * 0x7f), ':' and '%' become "%XX" (two upper-case hex digits); everything
 * else is kept.  One-to-one, reversed by repo_path_unescape().  Both
 * return a string owned by the caller and cannot fail. */
char *repo_path_escape(const char *raw);
char *repo_path_unescape(const char *escaped);

/* Untracked work-tree files over `cap` bytes are not hashed (default 64
 * MB): set it to the largest file the caller may read.  Cannot fail. */
void repo_set_hash_cap(repo_t *r, size_t cap);

/* The blob id of `path` in `commit`'s tree: 1 with blob set, 0 when the
 * path is not a file there, -1 with err_set(ECG_EXIT_INPUT). */
int repo_blob_at(repo_t *r, const char *commit, const char *path, char blob[41]);

int repo_list(repo_t *r, const char *commit, int worktree, const char *suffix,
              repo_file_t **out, size_t *n);
void repo_files_free(repo_file_t *files, size_t n);

/* The size of a REPO_FILE in bytes: f->size when known, else from the
 * blob's header (a commit's listing does not look: the analysis reads a
 * few hundred of a repository's thousands of files, and a header lookup
 * in a pack costs about as much as the read).  0 when the blob is missing
 * or f is not a REPO_FILE.  Never fails otherwise. */
size_t repo_file_size(repo_t *r, const repo_file_t *f);

/* Read a REPO_FILE's bytes: from its blob, or from disk in work-tree mode.
 * Files over `cap` bytes are refused.  On success *data (NUL-terminated, so
 * one byte longer than *len) is owned by the caller.  Every failure here is
 * about this one file: the caller records it and goes on. */
int repo_read(repo_t *r, const repo_file_t *f, int worktree, size_t cap,
              char **data, size_t *len);

/* The git blob id of `len` bytes (sha1 of "blob <len>\0" and the bytes),
 * as 40 hex digits in hex.  0, or -1 (no error set). */
int repo_hash_bytes(const char *data, size_t len, char hex[41]);

/* *dirty = 1 if the work tree or index differs from `commit` (modified,
 * added, deleted or untracked-not-ignored files), else 0.  A bare
 * repository is never dirty. */
int repo_dirty(repo_t *r, const char *commit, int *dirty);

#endif
