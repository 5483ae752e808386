/* util.c - see include/ecg/util.h */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/err.h"
#include "ecg/util.h"

static void oom(size_t n)
{
	fprintf(stderr, "ecg: out of memory (allocating %zu bytes)\n", n);
	exit(ECG_EXIT_INTERNAL);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	buf_t b;
	va_list ap;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

void xgrow(void **arr, size_t *alloc, size_t n, size_t elsize)
{
	size_t na;

	if (n <= *alloc)
		return;
	na = *alloc ? *alloc : 8;
	while (na < n) {
		if (na > SIZE_MAX / 2)
			oom(SIZE_MAX);
		na *= 2;
	}
	if (na > SIZE_MAX / elsize)
		oom(SIZE_MAX);
	*arr = xrealloc(*arr, na * elsize);
	*alloc = na;
}

void *xgrow_to(void *arr, size_t *alloc, size_t n, size_t elsize)
{
	xgrow(&arr, alloc, n, elsize);
	return arr;
}

void buf_init(buf_t *b)
{
	b->alloc = 64;
	b->len = 0;
	b->buf = xmalloc(b->alloc);
	b->buf[0] = 0;
}

void buf_free(buf_t *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->alloc = 0;
}

void buf_reset(buf_t *b)
{
	b->len = 0;
	b->buf[0] = 0;
}

static void buf_reserve(buf_t *b, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - b->len - 1)
		oom(SIZE_MAX);
	need = b->len + extra + 1;
	if (need > b->alloc)
		GROW(b->buf, b->alloc, need);
}

void buf_add(buf_t *b, const void *data, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->buf + b->len, data, n);
	b->len += n;
	b->buf[b->len] = 0;
}

void buf_addstr(buf_t *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addch(buf_t *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vaddf(buf_t *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= b->alloc - b->len) {
		buf_reserve(b, (size_t)n);
		vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void buf_addf(buf_t *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *buf_detach(buf_t *b)
{
	char *s = b->buf;

	b->buf = NULL;
	b->len = b->alloc = 0;
	return s;
}

uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

/* The length of the well-formed UTF-8 sequence at s that is not a C1
 * control, or 0 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF). */
static size_t utf8_ok(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 && !(c == 0xc2 && s[1] <= 0x9f) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* The bytes of s that can go out as they are, from the start. */
static size_t vis_plain(const unsigned char *s)
{
	size_t i = 0, k;

	while (s[i]) {
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			i++;
			continue;
		}
		if (s[i] < 0x80 || !(k = utf8_ok(s + i)))
			break;
		i += k;
	}
	return i;
}

void buf_addvis(buf_t *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		size_t k = vis_plain(u);

		buf_add(b, u, k);
		u += k;
		if (!*u)
			break;
		switch (*u) {
		case '\n': buf_addstr(b, "\\n"); break;
		case '\r': buf_addstr(b, "\\r"); break;
		case '\t': buf_addstr(b, "\\t"); break;
		default: buf_addf(b, "\\x%02x", *u); break;
		}
		u++;
	}
}

const char *vis(const char *s)
{
	static buf_t slot[VIS_SLOTS];
	static unsigned next;
	buf_t *b;

	if (!s || !s[vis_plain((const unsigned char *)s)])
		return s;
	b = &slot[next++ % VIS_SLOTS];
	if (!b->buf)
		buf_init(b);
	buf_reset(b);
	buf_addvis(b, s);
	return b->buf;
}

size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	size_t n, i;
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}
