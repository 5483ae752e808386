/* inflate.c - see include/ecg/inflate.h
 *
 * A state machine over units that are decoded whole: a block header, one
 * code length, one literal or length/distance pair, one gzip header byte.
 * Before a unit starts, input is moved into the 64-bit bit buffer until it
 * holds the unit's longest form (at most 48 bits: a 15-bit length code,
 * 5 extra bits, a 15-bit distance code, 13 extra bits).  When the input
 * runs out first the step returns, and the unit starts again with the next
 * chunk.  At eof a unit is decoded with whatever is left and every take of
 * bits is checked, so a cut stream ends in "truncated", never in a read
 * past the data.
 *
 * Output goes to buf: 32 KiB of history, then fresh bytes.  Matches are
 * copied inside buf, the caller's chunks are copied out of it, and when it
 * is nearly full and all of it has been handed out, its last 32 KiB slide
 * to the front.
 *
 * Huffman codes are decoded with a 10-bit table for the short codes and
 * the canonical walk over the code counts (as in zlib's puff.c) for longer
 * ones; a bit pattern with no code falls through to the walk and fails.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/err.h"
#include "ecg/inflate.h"
#include "ecg/util.h"

#define WSIZE 32768u
#define BUFSZ (4 * WSIZE)
#define MAXMATCH 258u
#define MAXBITS 15
#define FASTBITS 10
#define FASTMASK ((1u << FASTBITS) - 1)

struct huff {
	uint16_t fast[1 << FASTBITS];  /* next FASTBITS bits -> symbol << 4 | length, 0: none */
	uint16_t count[MAXBITS + 1];   /* number of codes of each length */
	uint16_t sym[288];             /* symbols in code order */
};

enum state {
	ST_GZHEAD, ST_GZXLEN, ST_GZEXTRA, ST_GZNAME, ST_GZCOMMENT, ST_GZHCRC,
	ST_BLOCK, ST_STORED, ST_COPY, ST_DYNHEAD, ST_CLENS, ST_LENS, ST_CODES,
	ST_CRC, ST_ISIZE, ST_MEMBER_END, ST_DONE, ST_ERROR
};

struct inflate_stream {
	enum inflate_format fmt;
	enum state st;
	const uint8_t *in, *end;  /* the caller's input, during a step */
	int eof;
	uint64_t bb;              /* bit buffer: the next bc input bits, lowest first */
	unsigned bc;
	int last;                 /* BFINAL of the current block */
	unsigned nlen, ndist, ncode, i, flags;
	uint32_t remain;          /* stored bytes left; FEXTRA bytes left */
	uint8_t lens[286 + 30];
	struct huff clen, lit, dist, fixlit, fixdist;
	const struct huff *plit, *pdist;
	uint32_t hcrc, crc, size; /* header CRC, data CRC and ISIZE so far */
	uint64_t members;
	char msg[200];            /* the error, repeated by later calls */
	uint8_t *buf;
	size_t pos;               /* end of the decoded output */
	size_t rd;                /* output handed out ends here */
	size_t crc_pos;           /* output in crc and size ends here */
	size_t mstart;            /* the member's first output byte (0 once slid past) */
};

static const uint16_t lbase[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23,
	27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t lext[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dbase[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97,
	129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
	12289, 16385, 24577 };
static const uint8_t dext[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };
/* code length symbols 16 (repeat the last), 17 and 18 (zeros) */
static const uint8_t rep_bits[3] = { 2, 3, 7 }, rep_base[3] = { 3, 3, 11 };
static const uint8_t clen_order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4,
	12, 3, 13, 2, 14, 1, 15 };

/* ---------------------------------------------------------------- CRC-32 */

static uint32_t crc_tab[8][256];

static void crc_init(void)
{
	uint32_t c, n, k;

	if (crc_tab[0][1])
		return;
	for (n = 0; n < 256; n++) {
		for (c = n, k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_tab[0][n] = c;
	}
	for (n = 0; n < 256; n++)
		for (c = crc_tab[0][n], k = 1; k < 8; k++) {
			c = crc_tab[0][c & 0xff] ^ (c >> 8);
			crc_tab[k][n] = c;
		}
}

/* Slicing by 8: eight table lookups per eight bytes. */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	for (; n >= 8; p += 8, n -= 8) {
		uint32_t a = crc ^ (p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t b = p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		crc = crc_tab[7][a & 0xff] ^ crc_tab[6][a >> 8 & 0xff] ^
			crc_tab[5][a >> 16 & 0xff] ^ crc_tab[4][a >> 24] ^
			crc_tab[3][b & 0xff] ^ crc_tab[2][b >> 8 & 0xff] ^
			crc_tab[1][b >> 16 & 0xff] ^ crc_tab[0][b >> 24];
	}
	while (n--)
		crc = crc_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint32_t crc_byte(uint32_t crc, uint32_t byte)
{
	uint8_t b = (uint8_t)byte;

	return crc32_update(crc, &b, 1);
}

/* ---------------------------------------------------------------- Huffman */

/* Build h from code lengths (each 0..15).  Returns 0 for a complete code,
 * > 0 for an incomplete one, -1 for an over-subscribed one (unusable). */
static int build(struct huff *h, const uint8_t *lens, unsigned n)
{
	uint16_t offs[MAXBITS + 1], next[MAXBITS + 1];
	unsigned sym, len, code, k;
	int left = 1;

	memset(h->count, 0, sizeof h->count);
	for (sym = 0; sym < n; sym++)
		h->count[lens[sym]]++;
	for (len = 1; len <= MAXBITS; len++) {
		left = 2 * left - h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = next[1] = 0;
	for (len = 1; len < MAXBITS; len++) {
		offs[len + 1] = offs[len] + h->count[len];
		next[len + 1] = (uint16_t)((next[len] + h->count[len]) << 1);
	}
	memset(h->fast, 0, sizeof h->fast);
	for (sym = 0; sym < n; sym++) {
		if (!(len = lens[sym]))
			continue;
		h->sym[offs[len]++] = (uint16_t)sym;
		code = next[len]++;
		if (len <= FASTBITS) {
			unsigned rev = 0;

			for (k = 0; k < len; k++)
				rev |= (code >> k & 1) << (len - 1 - k);
			for (k = rev; k <= FASTMASK; k += 1u << len)
				h->fast[k] = (uint16_t)(sym << 4 | len);
		}
	}
	return left;
}

/* zlib's rule: a code must be complete, except one with a single code of
 * length 1 (or none at all, for distances in a block of literals only). */
static int usable(const struct huff *h, int left, unsigned n)
{
	return left == 0 || (left > 0 && h->count[0] + h->count[1] == n);
}

/* The next symbol: >= 0, -1 for a bit pattern that is no code, -2 when the
 * code runs past the bits there are (only at eof). */
static inline int decode(const struct huff *h, uint64_t *bb, unsigned *bc)
{
	unsigned e = h->fast[*bb & FASTMASK], len, code = 0, first = 0, index = 0;
	uint64_t bits = *bb;
	int sym = -1;

	if (e) {
		len = e & 15;
		sym = e >> 4;
	} else {
		for (len = 1; len <= MAXBITS; len++) {
			code |= bits & 1;
			bits >>= 1;
			if (code < first + h->count[len]) {
				sym = h->sym[index + code - first];
				break;
			}
			index += h->count[len];
			first = (first + h->count[len]) << 1;
			code <<= 1;
		}
		if (sym < 0)
			return -1;
	}
	if (len > *bc)
		return -2;
	*bb >>= len;
	*bc -= len;
	return sym;
}

/* ---------------------------------------------------------------- errors */

static int fail(inflate_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(inflate_stream *s, const char *fmt, ...)
{
	const char *what = s->fmt == INFLATE_GZIP ? "gzip" : "deflate";
	char detail[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	snprintf(s->msg, sizeof s->msg, "bad %s data: %s", what, detail);
	s->st = ST_ERROR;
	return -1;
}

static int truncated(inflate_stream *s)
{
	snprintf(s->msg, sizeof s->msg, "truncated %s data", s->fmt == INFLATE_GZIP ? "gzip" : "deflate");
	s->st = ST_ERROR;
	return -1;
}

/* ---------------------------------------------------------------- decoding */

/* Move input into the bit buffer; whether it now holds n bits. */
static int fill(inflate_stream *s, unsigned n)
{
	while (s->bc <= 56 && s->in < s->end) {
		s->bb |= (uint64_t)*s->in++ << s->bc;
		s->bc += 8;
	}
	return s->bc >= n;
}

static uint32_t take(inflate_stream *s, unsigned n)
{
	uint32_t v = (uint32_t)(s->bb & ((1ull << n) - 1));

	s->bb >>= n;
	s->bc -= n;
	return v;
}

/* Suspend until n bits are there (at eof, go on: GET checks each take). */
#define NEED(n) do { if (!fill(s, (n)) && !s->eof) return 0; } while (0)
#define GET(v, n) do { if (s->bc < (n)) return truncated(s); (v) = take(s, (n)); } while (0)
#define HBYTE(v) do { NEED(8); GET(v, 8); s->hcrc = crc_byte(s->hcrc, v); } while (0)

static void sync_crc(inflate_stream *s)
{
	if (s->fmt == INFLATE_GZIP) {
		s->crc = crc32_update(s->crc, s->buf + s->crc_pos, s->pos - s->crc_pos);
		s->size += (uint32_t)(s->pos - s->crc_pos);
	}
	s->crc_pos = s->pos;
}

static void end_block(inflate_stream *s)
{
	if (!s->last)
		s->st = ST_BLOCK;
	else if (s->fmt == INFLATE_GZIP)
		s->st = ST_CRC;
	else {
		take(s, s->bc & 7);
		s->members = 1;
		s->st = ST_DONE;
	}
}

/* Literals and matches of a Huffman block, with the state in locals. */
static int codes(inflate_stream *s)
{
	uint64_t bb = s->bb;
	unsigned bc = s->bc, n;
	const uint8_t *in = s->in, *end = s->end;
	uint8_t *buf = s->buf;
	size_t pos = s->pos, len, dist;
	const char *bad = NULL;
	int sym, ended = 0, trunc = 0;

	for (;;) {
		if (pos > BUFSZ - MAXMATCH)
			break;
		while (bc <= 56 && in < end) {
			bb |= (uint64_t)*in++ << bc;
			bc += 8;
		}
		if (bc < 48 && !s->eof)
			break;
		sym = decode(s->plit, &bb, &bc);
		if (sym >= 0 && sym < 256) {
			buf[pos++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256) {
			ended = 1;
			break;
		}
		if (sym < 0 || sym > 285) {
			trunc = sym == -2;
			bad = "invalid literal/length code";
			break;
		}
		sym -= 257;
		if ((n = lext[sym]) > bc) {
			trunc = 1;
			break;
		}
		len = lbase[sym] + (size_t)(bb & ((1u << n) - 1));
		bb >>= n;
		bc -= n;
		sym = decode(s->pdist, &bb, &bc);
		if (sym < 0 || sym > 29) {
			trunc = sym == -2;
			bad = "invalid distance code";
			break;
		}
		if ((n = dext[sym]) > bc) {
			trunc = 1;
			break;
		}
		dist = dbase[sym] + (size_t)(bb & ((1u << n) - 1));
		bb >>= n;
		bc -= n;
		if (dist > pos - s->mstart) {
			bad = "distance too far back";
			break;
		}
		if (dist >= len)
			memcpy(buf + pos, buf + pos - dist, len);
		else
			for (n = 0; n < len; n++)
				buf[pos + n] = buf[pos + n - dist];
		pos += len;
	}
	s->bb = bb;
	s->bc = bc;
	s->in = in;
	s->pos = pos;
	if (trunc)
		return truncated(s);
	if (bad)
		return fail(s, "%s", bad);
	if (ended)
		end_block(s);
	return ended;
}

/* Decode until the input runs out (0), the output room does (0), the
 * stream ends (0), or an error (-1). */
static int run(inflate_stream *s)
{
	uint32_t v;
	int left;

	for (;;)
		switch (s->st) {
		case ST_GZHEAD:
			for (; s->i < 10; s->i++) {
				HBYTE(v);
				if ((s->i == 0 && v != 0x1f) || (s->i == 1 && v != 0x8b))
					return s->members ? fail(s, "data after member %llu is not gzip",
						(unsigned long long)s->members) : fail(s, "no gzip magic");
				if (s->i == 2 && v != 8)
					return fail(s, "compression method %u is not deflate", v);
				if (s->i == 3 && (v & 0xe0))
					return fail(s, "reserved flag bits set (0x%02x)", v);
				if (s->i == 3)
					s->flags = v;
			}
			s->i = 0;
			s->remain = 0;
			s->st = ST_GZXLEN;
			break;
		case ST_GZXLEN:
			for (; (s->flags & 4) && s->i < 2; s->i++) {
				HBYTE(v);
				s->remain |= v << (8 * s->i);
			}
			s->st = ST_GZEXTRA;
			break;
		case ST_GZEXTRA:
			for (; s->remain; s->remain--)
				HBYTE(v);
			s->st = ST_GZNAME;
			break;
		case ST_GZNAME:
		case ST_GZCOMMENT:
			if (s->flags & (s->st == ST_GZNAME ? 8 : 16))
				do
					HBYTE(v);
				while (v);
			s->st = s->st == ST_GZNAME ? ST_GZCOMMENT : ST_GZHCRC;
			break;
		case ST_GZHCRC:
			if (s->flags & 2) {
				NEED(16);
				GET(v, 16);
				if (v != (s->hcrc & 0xffff))
					return fail(s, "header CRC mismatch");
			}
			s->st = ST_BLOCK;
			break;
		case ST_BLOCK:
			NEED(3);
			GET(v, 3);
			s->last = v & 1;
			if (v >> 1 == 0)
				s->st = ST_STORED;
			else if (v >> 1 == 1) {
				s->plit = &s->fixlit;
				s->pdist = &s->fixdist;
				s->st = ST_CODES;
			} else if (v >> 1 == 2)
				s->st = ST_DYNHEAD;
			else
				return fail(s, "invalid block type 3");
			break;
		case ST_STORED:
			take(s, s->bc & 7);
			NEED(32);
			GET(v, 32);
			if ((v & 0xffff) != (~v >> 16))
				return fail(s, "stored block length does not match its complement");
			s->remain = v & 0xffff;
			s->st = ST_COPY;
			break;
		case ST_COPY:
			while (s->remain) {
				size_t n = s->remain, room = BUFSZ - s->pos;

				if (!room)
					return 0;
				if (s->bc >= 8) {
					s->buf[s->pos++] = (uint8_t)take(s, 8);
					s->remain--;
					continue;
				}
				if (s->in == s->end)
					return s->eof ? truncated(s) : 0;
				if (n > room)
					n = room;
				if (n > (size_t)(s->end - s->in))
					n = (size_t)(s->end - s->in);
				memcpy(s->buf + s->pos, s->in, n);
				s->pos += n;
				s->in += n;
				s->remain -= (uint32_t)n;
			}
			end_block(s);
			break;
		case ST_DYNHEAD:
			NEED(14);
			GET(v, 14);
			s->nlen = 257 + (v & 31);
			s->ndist = 1 + (v >> 5 & 31);
			s->ncode = 4 + (v >> 10);
			if (s->nlen > 286 || s->ndist > 30)
				return fail(s, "too many length or distance codes");
			s->i = 0;
			s->st = ST_CLENS;
			break;
		case ST_CLENS:
			for (; s->i < 19; s->i++) {
				v = 0;
				if (s->i < s->ncode) {
					NEED(3);
					GET(v, 3);
				}
				s->lens[clen_order[s->i]] = (uint8_t)v;
			}
			if (build(&s->clen, s->lens, 19) != 0)
				return fail(s, "bad code lengths code");
			s->i = 0;
			s->st = ST_LENS;
			break;
		case ST_LENS:
			while (s->i < s->nlen + s->ndist) {
				int sym;
				unsigned rep, len = 0;

				NEED(14);
				if ((sym = decode(&s->clen, &s->bb, &s->bc)) < 0)
					return sym == -2 ? truncated(s) : fail(s, "invalid code length code");
				if (sym < 16) {
					s->lens[s->i++] = (uint8_t)sym;
					continue;
				}
				if (sym == 16 && s->i == 0)
					return fail(s, "repeat with no length before it");
				if (sym == 16)
					len = s->lens[s->i - 1];
				GET(rep, rep_bits[sym - 16]);
				rep += rep_base[sym - 16];
				if (s->i + rep > s->nlen + s->ndist)
					return fail(s, "too many code lengths");
				while (rep--)
					s->lens[s->i++] = (uint8_t)len;
			}
			if (!s->lens[256])
				return fail(s, "no end-of-block code");
			left = build(&s->lit, s->lens, s->nlen);
			if (!usable(&s->lit, left, s->nlen))
				return fail(s, "bad literal/length code");
			left = build(&s->dist, s->lens + s->nlen, s->ndist);
			if (!usable(&s->dist, left, s->ndist))
				return fail(s, "bad distance code");
			s->plit = &s->lit;
			s->pdist = &s->dist;
			s->st = ST_CODES;
			break;
		case ST_CODES:
			if ((left = codes(s)) <= 0)
				return left;
			break;
		case ST_CRC:
			take(s, s->bc & 7);
			NEED(32);
			GET(v, 32);
			sync_crc(s);
			if (v != s->crc)
				return fail(s, "CRC mismatch (stored 0x%08x, computed 0x%08x)", v, s->crc);
			s->st = ST_ISIZE;
			break;
		case ST_ISIZE:
			NEED(32);
			GET(v, 32);
			if (v != s->size)
				return fail(s, "length mismatch (stored %u, decoded %u mod 2^32)", v, s->size);
			s->members++;
			s->st = ST_MEMBER_END;
			break;
		case ST_MEMBER_END:
			if (!fill(s, 8)) {
				if (!s->eof)
					return 0;
				s->st = ST_DONE;
				break;
			}
			s->st = ST_GZHEAD;
			s->i = 0;
			s->hcrc = s->crc = s->size = 0;
			s->mstart = s->crc_pos = s->pos;
			break;
		case ST_DONE:
			fill(s, 0);
			if (s->bc || s->in < s->end)
				return fail(s, "data after the end of the stream");
			return 0;
		case ST_ERROR:
			return -1;
		}
}

/* ---------------------------------------------------------------- the API */

inflate_stream *inflate_new(enum inflate_format fmt)
{
	inflate_stream *s = xcalloc(1, sizeof *s);
	uint8_t lens[288];

	crc_init();
	s->fmt = fmt;
	s->st = fmt == INFLATE_GZIP ? ST_GZHEAD : ST_BLOCK;
	s->buf = xmalloc(BUFSZ);
	memset(lens, 8, 144);
	memset(lens + 144, 9, 112);
	memset(lens + 256, 7, 24);
	memset(lens + 280, 8, 8);
	build(&s->fixlit, lens, 288);
	memset(lens, 5, 32);
	build(&s->fixdist, lens, 32);
	return s;
}

ptrdiff_t inflate_step(inflate_stream *s, const uint8_t **in, size_t *in_len,
	uint8_t *out, size_t cap, int eof)
{
	size_t done = 0, n, before;

	s->in = *in;
	s->end = *in_len ? *in + *in_len : *in;  /* no NULL + 0 */
	s->eof = eof;
	for (;;) {
		n = s->pos - s->rd;
		if (n > cap - done)
			n = cap - done;
		memcpy(out + done, s->buf + s->rd, n);
		s->rd += n;
		done += n;
		if (done == cap || s->st == ST_ERROR)
			break;
		if (s->pos > BUFSZ - MAXMATCH) {
			size_t shift = s->pos - WSIZE;

			sync_crc(s);
			memmove(s->buf, s->buf + shift, WSIZE);
			s->pos = s->rd = s->crc_pos = WSIZE;
			s->mstart = s->mstart > shift ? s->mstart - shift : 0;
		}
		before = s->pos;
		if (run(s) == 0 && s->pos == before)
			break;
		/* after an error, what was decoded before it is handed out first */
	}
	*in_len = (size_t)(s->end - s->in);
	*in = s->in;
	s->in = s->end = NULL;
	if (s->st == ST_ERROR && done == 0)
		return err_set(ECG_EXIT_INPUT, "%s", s->msg);
	return (ptrdiff_t)done;
}

uint64_t inflate_members(const inflate_stream *s)
{
	return s->members;
}

void inflate_free(inflate_stream *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s);
}
