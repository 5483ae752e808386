/* treecache.h - converted trees kept on disk, by blob sha.
 *
 * Parsing is most of what an analysis costs on a large job (Megatron-LM:
 * 1.5 s of 2.1).  A blob's tree never changes, so the C tree of every file
 * the analysis parsed is written to a cache directory under the blob's sha,
 * with the blob's bytes, and read back instead of read from the repository
 * and parsed the next time the same blob is needed: `ecg refresh` after a
 * one-file change parses that file only.
 *
 * A cache file is named by the blob sha and by what makes its content
 * valid (the tree format, the ast.h field tables, the Python version of
 * the parser); it holds a checksum of its payload.  Reading one is reading
 * untrusted input: every count, kind, enum and string is checked against
 * the bytes that are left and against the field tables, the nesting is
 * bounded by ASTCONV_MAX_DEPTH, and anything wrong is a miss (the file is
 * parsed), never a crash.  Writing is best effort: temporary file, then
 * rename(); a failure is a cache that stays cold, not an error.
 *
 * What is trusted is checked: the directory and its trees/ are used only
 * when they are directories themselves (not symbolic links), the user's
 * own and writable by no one else, and every directory and link above
 * them (as named and as resolved) is root's or the user's and, when
 * others may write to it, sticky (else one warning, and the run goes on
 * without the cache); cache files are made 0600 and read only when they
 * are the user's, no larger than 64 MB (fstat() first), and when the
 * bytes they hold hash to the blob id they are named by (git's sha1 of
 * "blob <len>\0" and the bytes): a cache file copied under another
 * blob's name is a miss.
 *
 * Layout: DIR/trees/<40 hex>-<tag>.t, one directory (a fan-out into 256
 * subdirectories made the first run's directory creation cost more than
 * its writes: ext4).
 */
#ifndef ECG_TREECACHE_H
#define ECG_TREECACHE_H

#include <stddef.h>

#include "ecg/ast.h"

/* The default cache directory: $XDG_CACHE_HOME/ecg when XDG_CACHE_HOME is
 * absolute and it or its parent exists, else $HOME/.cache/ecg when HOME
 * is an existing directory, else NULL (no cache; HOME=/nonexistent makes
 * nothing).  Newly allocated. */
char *treecache_default_dir(void);

/* Look `blob` (40 hex digits) up in `dir`.  1: *arena and *mod are the
 * tree (the caller owns the arena), *src and *srclen the blob's bytes as
 * stored with it (newly allocated, NUL-terminated: the caller frees it);
 * 0: a miss (absent, stale, damaged: all four are NULL/0).  Never fails
 * otherwise. */
int treecache_load(const char *dir, const char *blob, struct ast_arena **arena, struct ast_Module **mod,
                   char **src, size_t *srclen);

/* Store the tree of `blob` and the blob's bytes `src` (`srclen` of them).
 * Best effort: returns 0 when written, -1 when not (no error is set). */
int treecache_store(const char *dir, const char *blob, const struct ast_Module *mod, const char *src,
                    size_t srclen);

/* Reading ahead, on another thread: refresh knows which files the job
 * read last time (the records' `files`), and the trees of the unchanged
 * ones are read and decoded there while this thread runs the job.
 * treecache_prefetch_start() starts it for `n` blobs (duplicates and
 * malformed shas are dropped): NULL when there is nothing to do, one CPU
 * only, or no thread (then nothing is read ahead; not an error).
 * treecache_prefetch_take() hands over blob's tree as treecache_load()
 * would (1, the caller owns it all), waiting if the thread is reading it
 * right now; 0 when it is not in the list, was a miss, was taken already,
 * or has not been reached yet (then the thread leaves it to the caller).
 * treecache_prefetch_stop() (NULL is fine) joins the thread and frees
 * whatever was not taken. */
struct treecache_prefetch;
struct treecache_prefetch *treecache_prefetch_start(const char *dir, const char *const *blobs, size_t n);
int treecache_prefetch_take(struct treecache_prefetch *pf, const char *blob, struct ast_arena **arena,
                            struct ast_Module **mod, char **src, size_t *srclen);
void treecache_prefetch_stop(struct treecache_prefetch *pf);

/* The serialised form alone (the fuzz target and the unit test): append
 * the tree to `out`; read `len` bytes back into a new arena (1), or 0 when
 * they are not a valid tree. */
void treecache_encode(const struct ast_Module *mod, buf_t *out);
int treecache_decode(const unsigned char *p, size_t len, struct ast_arena **arena, struct ast_Module **mod);

#endif
