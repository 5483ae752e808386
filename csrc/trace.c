/* trace.c - see include/ecg/trace.h
 *
 * Three layers, each a loop over 64 KiB chunks:
 *   the file    read(2) into `in`;
 *   the text    `in` itself for a plain file, or zlib's inflate() output
 *               (gunzip(): members back to back, each checked, nothing
 *               after the last);
 *   the JSON    a byte-level state machine over the document's top level
 *               (the grammar below); a member value or an event is cut out
 *               by a small scanner that knows strings, escapes and nesting
 *               depth, then its text goes to cJSON.
 *
 *   document  = ws ( object | events ) ws
 *   object    = "{" [ member *( "," member ) ] "}"
 *   member    = key ":" ( events if the key is traceEvents | value )
 *   events    = "[" [ "{...}" *( "," "{...}" ) ] "]"
 *
 * The scanner does not validate what it cuts out: cJSON does, for every
 * event and for the members that are kept.  A member of 1 MiB or more is
 * skipped unparsed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "ecg/err.h"
#include "ecg/trace.h"
#include "ecg/util.h"

#define CHUNK (64 * 1024)
#define META_MAX (1024 * 1024)       /* members kept for trace_meta() are smaller */
#define EVENT_MAX (64 * 1024 * 1024) /* an event may not be larger */

enum tstate {
	T_START,       /* before the document (whitespace, a BOM) */
	T_KEY_OR_END,  /* after "{" */
	T_KEY,         /* after "," in the object */
	T_KEYTEXT,     /* in a key */
	T_COLON,
	T_VALUE,       /* before a member's value */
	T_VALTEXT,     /* in a member's value */
	T_MEMBER_END,  /* after a member */
	T_EV_OR_END,   /* after the "[" of the events */
	T_EV,          /* after "," in the events */
	T_EVTEXT,      /* in an event */
	T_EV_END,      /* after an event */
	T_END          /* after the document */
};

/* Where a value being cut out stands. */
struct vscan {
	uint64_t depth;   /* open { and [ */
	int in_str, esc, scalar;
};

struct trace_reader {
	char *name;             /* for messages */
	int fd, own_fd;         /* own_fd: closed by trace_close() (not stdin) */
	int gzip;
	z_stream z;             /* gzip only (zinit: inflateInit2() done) */
	int zinit, zend;        /* zend: a member ended, the next not begun */
	uint64_t members;       /* gzip members read to their end */
	char zerr[160];         /* a fault found after text still to hand out */
	uint8_t *in;            /* the file's bytes */
	const uint8_t *in_pos;
	size_t in_len;          /* not yet used, from in_pos */
	int in_eof;
	uint8_t *tbuf;          /* decompressed text (gzip only) */
	const char *text;       /* the current text chunk: in or tbuf */
	size_t tlen, tpos;
	uint64_t text_base;     /* text offset of text[0] */
	uint64_t bytes_in, bytes_text, nev;
	int status;             /* 1 reading, 0 finished, -1 failed */
	int cut;                /* failed because the input ended early */
	char *msg;              /* the error, repeated by later calls */
	enum tstate st;
	int bare, seen_events, keep, bom;
	struct vscan v;
	buf_t acc;              /* text of the key, member or event being cut out */
	uint64_t acc_start;     /* its text offset */
	char *key;              /* the current member's key */
	cJSON *meta;
};

/* ---------------------------------------------------------------- errors */

static int stop(trace_reader *r)
{
	free(r->msg);
	r->msg = xstrdup(err_last());
	r->status = -1;
	return -1;
}

/* "NAME: WHAT at byte N (after event K[, gzip byte M])[: DETAIL]" */
static int fail_at(trace_reader *r, uint64_t off, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(trace_reader *r, uint64_t off, const char *what, const char *fmt, ...)
{
	char detail[512] = "", gz[64] = "";
	va_list ap;

	if (fmt) {
		detail[0] = ':';
		detail[1] = ' ';
		va_start(ap, fmt);
		vsnprintf(detail + 2, sizeof detail - 2, fmt, ap);
		va_end(ap);
	}
	if (r->gzip)
		snprintf(gz, sizeof gz, ", gzip byte %llu",
			(unsigned long long)(r->bytes_in - r->in_len));
	err_set(ECG_EXIT_INPUT, "%s: %s at byte %llu (after event %llu%s)%s", r->name, what,
		(unsigned long long)off, (unsigned long long)r->nev, gz, detail);
	return stop(r);
}

/* A byte for a message: 'x' or 0xNN. */
static const char *show(char c, char out[8])
{
	unsigned char u = (unsigned char)c;

	snprintf(out, 8, u > 0x20 && u < 0x7f ? "'%c'" : "0x%02x", u);
	return out;
}

static int syntax(trace_reader *r, uint64_t off, char c, const char *expected)
{
	char b[8];

	return fail_at(r, off, "bad JSON", "expected %s, found %s", expected, show(c, b));
}

/* ---------------------------------------------------------------- input */

static ptrdiff_t xread(trace_reader *r, uint8_t *buf, size_t cap)
{
	ssize_t n;

	do
		n = read(r->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		err_set(ECG_EXIT_INPUT, "%s: %s", r->name, strerror(errno));
		return stop(r);
	}
	r->bytes_in += (uint64_t)n;
	if (!n)
		r->in_eof = 1;
	return n;
}

/* The first bytes decide between gzip and plain text. */
static int detect(trace_reader *r)
{
	ptrdiff_t n;

	while (r->in_len < 2 && !r->in_eof) {
		if ((n = xread(r, r->in + r->in_len, CHUNK - r->in_len)) < 0)
			return -1;
		r->in_len += (size_t)n;
	}
	r->in_pos = r->in;
	r->gzip = r->in_len >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b;
	if (r->gzip) {
		/* 16 + MAX_WBITS: gzip framing, its CRC-32 and ISIZE checked */
		if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) {
			err_set(ECG_EXIT_INTERNAL, "%s: zlib: %s", r->name, r->z.msg ? r->z.msg : "cannot start inflate");
			return stop(r);
		}
		r->zinit = 1;
		r->tbuf = xmalloc(CHUNK);
	}
	return 0;
}

/* zlib's message for a bad stream, in the words ecg's messages have
 * always used (trace.h). */
static const char *gz_why(const char *zmsg)
{
	static const struct {
		const char *zlib, *ecg;
	} words[] = {
		{ "incorrect data check", "CRC mismatch" },
		{ "incorrect length check", "length mismatch" },
		{ "incorrect header check", "no gzip magic" },
		{ "unknown compression method", "compression method is not deflate" },
		{ "unknown header flags set", "reserved flag bits set" },
		{ "header crc mismatch", "header CRC mismatch" },
	};
	size_t i;

	if (!zmsg)
		return "unknown error";
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(zmsg, words[i].zlib))
			return words[i].ecg;
	return zmsg;
}

/* Gzip text into tbuf: its length (> 0), 0 at the clean end of the last
 * member, -1 after err_set().  A member is followed by another member or
 * by the end of the file; anything else is "bad gzip data" (as is a CRC,
 * length or DEFLATE error), input that ends inside a member is "truncated
 * gzip data". */
static ptrdiff_t gunzip(trace_reader *r)
{
	ptrdiff_t n;
	size_t used;
	int ret;

	if (r->zerr[0])
		return err_set(ECG_EXIT_INPUT, "%s", r->zerr);
	for (;;) {
		if (r->in_len < 2 && !r->in_eof) {
			/* keep what is left (a byte of the next member's magic) */
			memmove(r->in, r->in_pos, r->in_len);
			r->in_pos = r->in;
			if ((n = xread(r, r->in + r->in_len, CHUNK - r->in_len)) < 0)
				return -1;
			r->in_len += (size_t)n;
			continue;
		}
		if (r->zend) {
			if (!r->in_len)
				return 0;
			if (r->in_len < 2 || r->in_pos[0] != 0x1f || r->in_pos[1] != 0x8b)
				return err_set(ECG_EXIT_INPUT, "bad gzip data: data after member %llu is not gzip",
				               (unsigned long long)r->members);
			if (inflateReset(&r->z) != Z_OK)
				return err_set(ECG_EXIT_INTERNAL, "zlib: inflateReset failed");
			r->zend = 0;
		}
		r->z.next_in = (Bytef *)(uintptr_t)r->in_pos;
		r->z.avail_in = (uInt)r->in_len;
		r->z.next_out = r->tbuf;
		r->z.avail_out = CHUNK;
		ret = inflate(&r->z, Z_NO_FLUSH);
		used = r->in_len - r->z.avail_in;
		r->in_pos += used;
		r->in_len = r->z.avail_in;
		n = (ptrdiff_t)(CHUNK - r->z.avail_out);
		if (ret == Z_STREAM_END) {
			r->members++;
			r->zend = 1;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			/* the text decoded before the fault goes out first (the
			 * fault's offset is then where it stands in the text) */
			snprintf(r->zerr, sizeof r->zerr, "bad gzip data: %s",
			         ret == Z_MEM_ERROR ? "out of memory" : gz_why(r->z.msg));
			if (!n)
				return err_set(ECG_EXIT_INPUT, "%s", r->zerr);
		} else if (!n && !used && r->in_eof) {
			/* no progress, and no more input will come */
			return err_set(ECG_EXIT_INPUT, "truncated gzip data");
		}
		if (n > 0)
			return n;
	}
}

/* The next chunk of text: 1, 0 at its end, -1 after err_set(). */
static int next_text(trace_reader *r)
{
	ptrdiff_t n;

	r->text_base += r->tlen;
	r->tlen = r->tpos = 0;
	for (;;) {
		if (!r->in_len && !r->in_eof) {
			if ((n = xread(r, r->in, CHUNK)) < 0)
				return -1;
			r->in_pos = r->in;
			r->in_len = (size_t)n;
		}
		if (!r->gzip) {
			if (!r->in_len)
				return 0;
			r->text = (const char *)r->in_pos;
			r->tlen = r->in_len;
			r->in_len = 0;
			break;
		}
		n = gunzip(r);
		if (n < 0) {
			char why[256];

			if (r->status < 0)      /* a read error, said already */
				return -1;
			r->cut = !strcmp(err_last(), "truncated gzip data");
			snprintf(why, sizeof why, "%s", err_last());
			return fail_at(r, r->bytes_text, why, NULL);
		}
		if (n == 0)
			return 0;
		r->text = (const char *)r->tbuf;
		r->tlen = (size_t)n;
		break;
	}
	r->bytes_text += r->tlen;
	return 1;
}

/* ---------------------------------------------------------------- the scanner */

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Start cutting out a value whose first byte is c. */
static void vscan_start(struct vscan *v, char c)
{
	v->depth = c == '{' || c == '[';
	v->in_str = c == '"';
	v->esc = 0;
	v->scalar = !v->depth && !v->in_str;
}

/* How many bytes of p[0..n) belong to the value; *end is set when it ends
 * there.  A scalar ends before the delimiter that follows it. */
static size_t vscan(struct vscan *v, const char *p, size_t n, int *end)
{
	size_t i = 0;
	char c;

	while (i < n) {
		if (v->in_str) {
			if (v->esc) {
				v->esc = 0;
				i++;
				continue;
			}
			while (i < n && p[i] != '"' && p[i] != '\\')
				i++;
			if (i == n)
				break;
			if (p[i++] == '\\') {
				v->esc = 1;
				continue;
			}
			v->in_str = 0;
			if (!v->depth)
				goto ended;
			continue;
		}
		c = p[i];
		if (v->scalar) {
			if (c == ',' || c == '}' || c == ']' || is_ws(c))
				goto ended;
			i++;
			continue;
		}
		i++;
		if (c == '"')
			v->in_str = 1;
		else if (c == '{' || c == '[')
			v->depth++;
		else if ((c == '}' || c == ']') && --v->depth == 0)
			goto ended;
	}
	return n;
ended:
	*end = 1;
	return i;
}

/* The cut-out text as JSON: NULL after fail_at() unless all of it is one
 * value. */
static cJSON *parse_acc(trace_reader *r)
{
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(r->acc.buf, r->acc.len, &end, 0);
	char what[128];

	if (j && end == r->acc.buf + r->acc.len)
		return j;
	if (!j)
		end = cJSON_GetErrorPtr();
	cJSON_Delete(j);
	if (!end || end < r->acc.buf || end > r->acc.buf + r->acc.len)
		end = r->acc.buf;
	if (r->st == T_KEYTEXT)
		snprintf(what, sizeof what, "a top-level key");
	else if (r->st == T_VALTEXT)
		snprintf(what, sizeof what, "the top-level member \"%.60s\"", r->key);
	else
		snprintf(what, sizeof what, "event %llu", (unsigned long long)r->nev + 1);
	fail_at(r, r->acc_start + (uint64_t)(end - r->acc.buf), "bad JSON", "in %s", what);
	return NULL;
}

static void begin(trace_reader *r, enum tstate st, char c, uint64_t off)
{
	buf_reset(&r->acc);
	buf_addch(&r->acc, c);
	r->acc_start = off;
	vscan_start(&r->v, c);
	r->keep = 1;
	r->st = st;
}

/* A value, key or event has been cut out: 1 with *ev set for an event,
 * 0 otherwise, -1 after err_set(). */
static int finish(trace_reader *r, cJSON **ev)
{
	cJSON *j = NULL;

	switch (r->st) {
	case T_KEYTEXT:
		if (!(j = parse_acc(r)))
			return -1;
		free(r->key);
		r->key = xstrdup(cJSON_GetStringValue(j));
		cJSON_Delete(j);
		r->st = T_COLON;
		return 0;
	case T_VALTEXT:
		if (r->keep && !(j = parse_acc(r)))
			return -1;
		r->st = T_MEMBER_END;
		if (!r->keep)
			return 0;
		if (cJSON_GetObjectItemCaseSensitive(r->meta, r->key))
			cJSON_ReplaceItemInObjectCaseSensitive(r->meta, r->key, j);
		else
			cJSON_AddItemToObject(r->meta, r->key, j);
		return 0;
	default: /* T_EVTEXT */
		if (!(*ev = parse_acc(r)))
			return -1;
		r->nev++;
		r->st = T_EV_END;
		if (r->acc.alloc > 4 * CHUNK) {  /* give back a big event's buffer */
			buf_free(&r->acc);
			buf_init(&r->acc);
		}
		return 1;
	}
}

static int end_object(trace_reader *r)
{
	if (!r->seen_events) {
		err_set(ECG_EXIT_INPUT, "%s: not a trace: no traceEvents", r->name);
		return stop(r);
	}
	r->st = T_END;
	return 0;
}

/* One byte outside the values, at text offset off. */
static int structural(trace_reader *r, char c, uint64_t off)
{
	static const char bom[] = "\xef\xbb\xbf";
	char b[8];

	if (is_ws(c))
		return 0;
	switch (r->st) {
	case T_START:
		if (r->bom < 3 && off == (uint64_t)r->bom && c == bom[r->bom]) {
			r->bom++;
			return 0;
		}
		if ((c != '{' && c != '[') || (r->bom && r->bom < 3)) {
			err_set(ECG_EXIT_INPUT, "%s: not JSON: found %s at byte %llu where { or [ should be",
				r->name, show(c, b), (unsigned long long)off);
			return stop(r);
		}
		r->bare = c == '[';
		r->seen_events = r->bare;
		r->st = r->bare ? T_EV_OR_END : T_KEY_OR_END;
		return 0;
	case T_KEY_OR_END:
	case T_KEY:
		if (c == '}' && r->st == T_KEY_OR_END)
			return end_object(r);
		if (c != '"')
			return syntax(r, off, c, "a key");
		begin(r, T_KEYTEXT, c, off);
		return 0;
	case T_COLON:
		if (c != ':')
			return syntax(r, off, c, "':'");
		r->st = T_VALUE;
		return 0;
	case T_VALUE:
		if (!strcmp(r->key, "traceEvents")) {
			if (r->seen_events)
				return fail_at(r, off, "bad trace", "a second traceEvents");
			if (c != '[')
				return fail_at(r, off, "bad trace", "traceEvents is not an array");
			r->seen_events = 1;
			r->st = T_EV_OR_END;
			return 0;
		}
		if (c == ',' || c == ':' || c == '}' || c == ']')
			return syntax(r, off, c, "a value");
		begin(r, T_VALTEXT, c, off);
		return 0;
	case T_MEMBER_END:
		if (c == '}')
			return end_object(r);
		if (c != ',')
			return syntax(r, off, c, "',' or '}'");
		r->st = T_KEY;
		return 0;
	case T_EV_OR_END:
	case T_EV:
		if (c == ']' && r->st == T_EV_OR_END)
			break;
		if (c != '{')
			return fail_at(r, off, "bad trace", "event %llu is not an object (found %s)",
				(unsigned long long)r->nev + 1, show(c, b));
		begin(r, T_EVTEXT, c, off);
		return 0;
	case T_EV_END:
		if (c == ']')
			break;
		if (c != ',')
			return syntax(r, off, c, "',' or ']'");
		r->st = T_EV;
		return 0;
	case T_END:
		return fail_at(r, off, "bad JSON", "data after the end of the document (%s)", show(c, b));
	default:
		return fail_at(r, off, "internal error", "scanner state %d", (int)r->st);
	}
	/* the end of the events */
	r->st = r->bare ? T_END : T_MEMBER_END;
	return 0;
}

/* Go through the current chunk until an event is complete (1), the chunk
 * is used up (0) or an error (-1). */
static int scan(trace_reader *r, cJSON **ev)
{
	while (r->tpos < r->tlen) {
		const char *p = r->text + r->tpos;
		size_t n = r->tlen - r->tpos, used;
		int end = 0, rc;

		if (r->st != T_KEYTEXT && r->st != T_VALTEXT && r->st != T_EVTEXT) {
			r->tpos++;
			if (structural(r, *p, r->text_base + r->tpos - 1) < 0)
				return -1;
			continue;
		}
		used = vscan(&r->v, p, n, &end);
		r->tpos += used;
		if (r->keep) {
			/* the first length that is too much */
			size_t lim = r->st == T_EVTEXT ? EVENT_MAX + 1 : META_MAX;

			if (r->acc.len + used >= lim) {
				if (r->st == T_EVTEXT)
					return fail_at(r, r->acc_start, "event too large", "event %llu has more than 64 MiB of text",
						(unsigned long long)r->nev + 1);
				if (r->st == T_KEYTEXT)
					return fail_at(r, r->acc_start, "bad trace", "a top-level key of 1 MiB or more");
				r->keep = 0;  /* a big member: skipped */
				buf_free(&r->acc);
				buf_init(&r->acc);
			} else
				buf_add(&r->acc, p, used);
		}
		if (end && (rc = finish(r, ev)) != 0)
			return rc;
	}
	return 0;
}

/* ---------------------------------------------------------------- the API */

trace_reader *trace_open(const char *path)
{
	trace_reader *r;
	int fd = 0;

	if (strcmp(path, "-") && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		err_set(ECG_EXIT_INPUT, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r = xcalloc(1, sizeof *r);
	r->name = xstrdup(strcmp(path, "-") ? path : "<stdin>");
	r->fd = fd;
	r->own_fd = strcmp(path, "-") != 0;
	r->in = xmalloc(CHUNK);
	r->status = 1;
	r->st = T_START;
	buf_init(&r->acc);
	r->meta = cJSON_CreateObject();
	if (detect(r) < 0) {
		trace_close(r);
		return NULL;
	}
	return r;
}

int trace_next(trace_reader *r, cJSON **ev)
{
	int rc;

	*ev = NULL;
	if (r->status < 0)
		return err_set(ECG_EXIT_INPUT, "%s", r->msg);
	while (r->status > 0) {
		if (r->tpos == r->tlen) {
			if ((rc = next_text(r)) < 0)
				return -1;
			if (rc == 0) {
				if (r->st == T_END)
					r->status = 0;
				else if (r->st == T_START) {
					err_set(ECG_EXIT_INPUT, "%s: not JSON: %s", r->name,
						r->bytes_text ? "only whitespace" : "empty");
					return stop(r);
				} else {
					r->cut = 1;
					return fail_at(r, r->bytes_text, "truncated", NULL);
				}
				break;
			}
		}
		if ((rc = scan(r, ev)) != 0)
			return rc;
	}
	return r->status;
}

const cJSON *trace_meta(const trace_reader *r)
{
	return r->meta;
}

uint64_t trace_bytes_in(const trace_reader *r)
{
	return r->bytes_in;
}

uint64_t trace_bytes_text(const trace_reader *r)
{
	return r->bytes_text;
}

uint64_t trace_events(const trace_reader *r)
{
	return r->nev;
}

int trace_cut(const trace_reader *r)
{
	return r->status < 0 && r->cut;
}

int trace_is_gzip(const trace_reader *r)
{
	return r->gzip;
}

void trace_close(trace_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	if (r->zinit)
		inflateEnd(&r->z);
	free(r->in);
	free(r->tbuf);
	buf_free(&r->acc);
	free(r->key);
	free(r->msg);
	free(r->name);
	cJSON_Delete(r->meta);
	free(r);
}
