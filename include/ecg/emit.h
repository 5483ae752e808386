/* emit.h - writing records: deterministic JSON text, atomic files.
 *
 * The text is UTF-8 JSON with a 2-space indent, keys in the order they were
 * added to the cJSON object, integers without a fraction, and a final
 * newline.  (cJSON_Print indents with tabs, hence our own printer.)
 */
#ifndef ECG_EMIT_H
#define ECG_EMIT_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Make cJSON allocate with xmalloc/free, so that no cJSON call returns
 * NULL for lack of memory (out of memory is fatal, see util.h).  Call once
 * before any cJSON use. */
void emit_init(void);

/* Render `doc`.  Returns a string owned by the caller.  Never fails (out of
 * memory is fatal, see util.h); a number that is not finite prints as null. */
char *emit_render(const cJSON *doc);

/* Make `dir` and its missing parents (mode 0777 & ~umask).
 * 0, or -1 with err_set(ECG_EXIT_OUTPUT). */
int emit_mkdirs(const char *dir);

/* Write `len` bytes to dir/name atomically: a temporary file in `dir`,
 * written, fsync()ed, then rename()d over dir/name, then the directory is
 * fsync()ed.  On any failure the temporary is removed and an existing
 * dir/name is left as it was.  0, or -1 with err_set(ECG_EXIT_OUTPUT). */
int emit_write_atomic(const char *dir, const char *name, const char *data, size_t len);

/* Write n files as one unit: every temporary ".NAME.XXXXXX" is written and
 * fsync()ed before the first rename(), so a failed write (ENOSPC, EIO)
 * leaves every existing dir/name as it was and no temporary behind.  The
 * renames follow in order; only a crash between two of them can leave a
 * mixed set, which the records' `run` id tells (records.h).  Hold
 * emit_lock(dir, 1) around it when several writers may race.  0, or -1
 * with err_set(ECG_EXIT_OUTPUT). */
int emit_write_set(const char *dir, size_t n, const char *const *names, const char *const *data,
                   const size_t *lens);

/* The output directory's lock: flock() on dir/.ecg.lock, exclusive for a
 * writer (the file is created, never through a symbolic link), shared for
 * a reader.  Waits for the holder.  Returns the descriptor to pass to
 * emit_unlock(); EMIT_NO_LOCK for a reader when there is no lock file (an
 * older ecg's records) or it cannot be opened for reading; -1 with
 * err_set(ECG_EXIT_OUTPUT) when the file cannot be created or locked. */
#define EMIT_LOCK_FILE ".ecg.lock"
#define EMIT_NO_LOCK (-2)
int emit_lock(const char *dir, int exclusive);
void emit_unlock(int fd);

/* Remove the temporaries ".NAME.XXXXXX" of `names` that a killed writer
 * left in dir.  Call with the exclusive lock held.  Cannot fail. */
void emit_clean_temps(const char *dir, size_t n, const char *const *names);

#endif
