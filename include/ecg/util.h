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

/* FNV-1a over n bytes, continuing from h (FNV1A_INIT to start): the hash
 * of ecg's string tables and the tree cache's checksum. */
#define FNV1A_INIT 1469598103934665603ULL
uint64_t fnv1a(uint64_t h, const void *p, size_t n);

#endif
