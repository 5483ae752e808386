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

#endif
