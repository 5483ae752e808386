/* util.h - allocation that cannot fail, and a growable string buffer.
 *
 * Out of memory is not recovered from: xmalloc() and friends print a message
 * and exit with ECG_EXIT_INTERNAL.  Everything else reports failure by return
 * value (see err.h).
 */
#ifndef ECG_UTIL_H
#define ECG_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (of *alloc elements of size elsize) to hold at least n. */
void xgrow(void **arr, size_t *alloc, size_t n, size_t elsize);

/* The typed form: GROW(arr, alloc, n) makes the heap array `arr` (any
 * element type, xmalloc'd or NULL) of `alloc` elements (a size_t lvalue)
 * hold at least n, doubling; the element size comes from the array, and
 * no cast to void ** is needed.  Cannot fail (OOM exits). */
void *xgrow_to(void *arr, size_t *alloc, size_t n, size_t elsize);
#define GROW(arr, alloc, n) ((arr) = xgrow_to((arr), &(alloc), (n), sizeof *(arr)))

/* buf_t: a growable byte string.
 * Invariant: after buf_init(), b->buf is never NULL and b->buf[b->len] == 0,
 * so b->buf can always be used as a C string.  The buffer owns b->buf. */
typedef struct {
	char *buf;
	size_t len;
	size_t alloc;
} buf_t;

void buf_init(buf_t *b);
void buf_free(buf_t *b);
void buf_reset(buf_t *b);
void buf_add(buf_t *b, const void *data, size_t n);
void buf_addstr(buf_t *b, const char *s);
void buf_addch(buf_t *b, char c);
void buf_addf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(buf_t *b, const char *fmt, va_list ap);
/* Hand the string to the caller (who frees it).  b is left released, as
 * after buf_free(): buf_init() it again to reuse it. */
char *buf_detach(buf_t *b);

/* Text for a terminal: the bytes of s with every control character made
 * visible, so that a name read from a repository or a record cannot move
 * the cursor, set the window title, ring the bell or forge a line.
 * \n \r \t become those two-character escapes; the other C0 bytes, DEL,
 * the C1 controls (U+0080..U+009F, in UTF-8 C2 80..C2 9F) and bytes that
 * are not UTF-8 become \xNN (one per byte).  Well-formed UTF-8 and
 * backslashes are kept as they are.
 * buf_addvis() appends the visible form of s to b.
 * vis() returns s itself when nothing needs escaping, else its visible
 * form in one of VIS_SLOTS static buffers, reused in turn: use the result
 * at once (in the argument list of one printf, say), never keep it, and
 * only from the main thread (buf_addvis() has no state).  NULL stays
 * NULL. */
#define VIS_SLOTS 16
void buf_addvis(buf_t *b, const char *s);
const char *vis(const char *s);

/* FNV-1a over n bytes, continuing from h (FNV1A_INIT to start): the hash
 * of ecg's string tables and the tree cache's checksum. */
#define FNV1A_INIT 1469598103934665603ULL
uint64_t fnv1a(uint64_t h, const void *p, size_t n);

/* Length (1..4) of the well-formed UTF-8 sequence at s (of `avail` bytes),
 * or 0 when it is not one (a stray byte, an overlong form, a surrogate,
 * past U+10FFFF). */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

#endif
