/* astdump.c - see include/ecg/ast.h: the C tree as Python 3.11's
 * ast.dump(node, include_attributes=True) prints it.
 *
 * The rules of ast.dump() (Lib/ast.py, 3.11) that matter here:
 *   - every field is printed as name=value, in _fields order, then the
 *     _attributes (lineno, col_offset, end_lineno, end_col_offset);
 *   - a field or attribute is left out only when its value is None AND the
 *     class default for it is None, i.e. the grammar marks it `?`
 *     (AST_F_OPTNODE / AST_F_OPTSTR / AST_F_OPTINT here, and the end_*
 *     attributes).  A None that is not optional is printed: the value of
 *     Constant(value=None) and MatchSingleton(value=None), and the None
 *     items of Dict.keys and arguments.kw_defaults;
 *   - empty lists are printed ("[]"), not left out (3.13 changed that);
 *   - without indent, the one-line and the multi-line forms are the same
 *     text;
 *   - leaves are repr(): str with Python's choice of quote and escapes
 *     (printability from libpython's Unicode tables), bytes, float repr
 *     (shortest round-trip, 1e+16 / 1e-05 exponent forms, inf), complex
 *     (3j, not 3.0j), ints of any size.
 *
 * Needs libpython linked (for _PyUnicode_IsPrintable, a table lookup), not
 * a running interpreter.
 */
#include "config.h"

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/util.h"

static const char hexdigits[] = "0123456789abcdef";

/* ------------------------------------------------------------------ str, bytes */

/* Decode one character of (CPython-made) UTF-8 at s[*i], advancing *i.
 * Surrogates encoded as 3 bytes ("surrogatepass") decode like any other
 * 3-byte sequence.  A byte that starts no valid sequence (never produced
 * by the converter) decodes as U+DC00 + byte, as with "surrogateescape",
 * and so prints as \udcXX. */
static uint32_t utf8_next(const unsigned char *s, size_t len, size_t *i)
{
	uint32_t c = s[*i];
	size_t n, k;

	if (c < 0x80) {
		(*i)++;
		return c;
	}
	if ((c & 0xE0) == 0xC0) {
		n = 1;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		n = 2;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		n = 3;
		c &= 0x07;
	} else {
		goto bad;
	}
	if (*i + n >= len)
		goto bad;
	for (k = 1; k <= n; k++) {
		if ((s[*i + k] & 0xC0) != 0x80)
			goto bad;
		c = c << 6 | (s[*i + k] & 0x3F);
	}
	*i += n + 1;
	return c;
bad:
	return 0xDC00 | s[(*i)++];
}

static void add_hex(buf_t *out, char esc, uint32_t c, int ndigits)
{
	char tmp[12];
	int k;

	tmp[0] = '\\';
	tmp[1] = esc;
	for (k = 0; k < ndigits; k++)
		tmp[2 + k] = hexdigits[(c >> (4 * (ndigits - 1 - k))) & 0xF];
	buf_add(out, tmp, (size_t)(2 + ndigits));
}

/* repr(str) of UTF-8 text (Objects/unicodeobject.c, unicode_repr). */
static void repr_str(buf_t *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	int squote = 0, dquote = 0;
	char quote = '\'';
	size_t i, start;
	uint32_t c;

	for (i = 0; i < len; i++) {
		if (u[i] == '\'')
			squote = 1;
		else if (u[i] == '"')
			dquote = 1;
	}
	if (squote && !dquote)
		quote = '"';
	buf_addch(out, quote);
	for (i = 0; i < len;) {
		start = i;
		c = utf8_next(u, len, &i);
		if (c == (uint32_t)quote || c == '\\') {
			buf_addch(out, '\\');
			buf_addch(out, (char)c);
		} else if (c == '\t') {
			buf_add(out, "\\t", 2);
		} else if (c == '\n') {
			buf_add(out, "\\n", 2);
		} else if (c == '\r') {
			buf_add(out, "\\r", 2);
		} else if (c < ' ' || c == 0x7f) {
			add_hex(out, 'x', c, 2);
		} else if (c < 0x7f) {
			buf_addch(out, (char)c);
		} else if (c <= 0x10FFFF && Py_UNICODE_ISPRINTABLE((Py_UCS4)c)) {
			buf_add(out, s + start, i - start);
		} else if (c < 0x100) {
			add_hex(out, 'x', c, 2);
		} else if (c < 0x10000) {
			add_hex(out, 'u', c, 4);
		} else {
			add_hex(out, 'U', c, 8);
		}
	}
	buf_addch(out, quote);
}

/* repr(bytes) (Objects/bytesobject.c, PyBytes_Repr with smartquotes). */
static void repr_bytes(buf_t *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	int squote = 0, dquote = 0;
	char quote = '\'';
	size_t i;

	for (i = 0; i < len; i++) {
		if (u[i] == '\'')
			squote = 1;
		else if (u[i] == '"')
			dquote = 1;
	}
	if (squote && !dquote)
		quote = '"';
	buf_addch(out, 'b');
	buf_addch(out, quote);
	for (i = 0; i < len; i++) {
		unsigned char c = u[i];

		if (c == (unsigned char)quote || c == '\\') {
			buf_addch(out, '\\');
			buf_addch(out, (char)c);
		} else if (c == '\t') {
			buf_add(out, "\\t", 2);
		} else if (c == '\n') {
			buf_add(out, "\\n", 2);
		} else if (c == '\r') {
			buf_add(out, "\\r", 2);
		} else if (c < ' ' || c >= 0x7f) {
			add_hex(out, 'x', c, 2);
		} else {
			buf_addch(out, (char)c);
		}
	}
	buf_addch(out, quote);
}

/* ------------------------------------------------------------------ float */

/* Is there a p-digit decimal that reads back as x?  If so, m and exp10
 * get it: x == m * 10**exp10 once read back.
 *
 * The correctly rounded p-digit decimal (printf %.*e) is the closest
 * p-digit candidate; if it does not read back, only its neighbour on the
 * other side of x can (the rounding interval is asymmetric at powers of
 * two).  glibc's printf() and strtod() are exact, so the test is the one
 * dtoa makes. */
static int digits_at(double x, int p, uint64_t *m, int *exp10)
{
	char tmp[64], *e;
	uint64_t c0 = 0, cand[3];
	int k, ex;

	snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
	for (e = tmp; *e && *e != 'e'; e++)
		if (*e >= '0' && *e <= '9')
			c0 = c0 * 10 + (uint64_t)(*e - '0');
	ex = atoi(e + 1) - (p - 1);
	cand[0] = c0;
	cand[1] = c0 - 1;
	cand[2] = c0 + 1;
	for (k = 0; k < 3; k++) {
		if (cand[k] == 0)
			continue;
		snprintf(tmp, sizeof tmp, "%" PRIu64 "e%d", cand[k], ex);
		if (strtod(tmp, NULL) == x) {
			*m = cand[k];
			*exp10 = ex;
			return 1;
		}
	}
	return 0;
}

/* The shortest decimal digits that read back as x (finite, > 0), as
 * David Gay's dtoa mode 0 gives them to repr(): digits without trailing
 * zeros, x = 0.DIGITS * 10**decpt.  Having p digits that read back implies
 * having p + 1, so the shortest length is found by bisection; 17 always
 * suffice. */
static void shortest_digits(double x, char *digits, int *decpt)
{
	uint64_t m = 0;
	int lo = 1, hi = 17, mid, exp10 = 0, n;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (digits_at(x, mid, &m, &exp10))
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!digits_at(x, lo, &m, &exp10)) {
		/* not reached: 17 significant digits always read back */
		m = 0;
		exp10 = 0;
	}
	while (m && m % 10 == 0) {
		m /= 10;
		exp10++;
	}
	n = snprintf(digits, 24, "%" PRIu64, m);
	*decpt = n + exp10;
}

/* PyOS_double_to_string(x, 'r', 0, flags, NULL): add_dot_0 for float
 * repr, sign for the imaginary part of a complex with a real part. */
static void repr_double(buf_t *out, double x, int add_dot_0, int sign)
{
	char digits[24];
	int decpt, nd, k, exp;

	if (isnan(x)) {
		buf_addstr(out, sign ? "+nan" : "nan");
		return;
	}
	if (signbit(x)) {
		buf_addch(out, '-');
		x = -x;
	} else if (sign) {
		buf_addch(out, '+');
	}
	if (isinf(x)) {
		buf_addstr(out, "inf");
		return;
	}
	if (x == 0) {
		strcpy(digits, "0");
		decpt = 1;
	} else {
		shortest_digits(x, digits, &decpt);
	}
	nd = (int)strlen(digits);
	if (decpt <= -4 || decpt > 16) {
		exp = decpt - 1;
		buf_addch(out, digits[0]);
		if (nd > 1) {
			buf_addch(out, '.');
			buf_add(out, digits + 1, (size_t)(nd - 1));
		}
		buf_addf(out, "e%+.02d", exp);
	} else if (decpt <= 0) {
		buf_add(out, "0.", 2);
		for (k = 0; k < -decpt; k++)
			buf_addch(out, '0');
		buf_add(out, digits, (size_t)nd);
	} else if (decpt >= nd) {
		buf_add(out, digits, (size_t)nd);
		for (k = nd; k < decpt; k++)
			buf_addch(out, '0');
		if (add_dot_0)
			buf_add(out, ".0", 2);
	} else {
		buf_add(out, digits, (size_t)decpt);
		buf_addch(out, '.');
		buf_add(out, digits + decpt, (size_t)(nd - decpt));
	}
}

/* ------------------------------------------------------------------ constants */

void astdump_const(const struct ast_const *c, buf_t *out)
{
	switch (c->kind) {
	case AST_CONST_NONE:
		buf_addstr(out, "None");
		break;
	case AST_CONST_TRUE:
		buf_addstr(out, "True");
		break;
	case AST_CONST_FALSE:
		buf_addstr(out, "False");
		break;
	case AST_CONST_ELLIPSIS:
		buf_addstr(out, "Ellipsis");
		break;
	case AST_CONST_INT:
		if (c->big)
			buf_add(out, c->s, c->len);
		else
			buf_addf(out, "%" PRId64, c->i);
		break;
	case AST_CONST_FLOAT:
		repr_double(out, c->f, 1, 0);
		break;
	case AST_CONST_COMPLEX:
		/* complex_repr(): a +0.0 real part is left out, with it the
		 * parentheses. */
		if (c->f == 0 && !signbit(c->f)) {
			repr_double(out, c->imag, 0, 0);
			buf_addch(out, 'j');
		} else {
			buf_addch(out, '(');
			repr_double(out, c->f, 0, 0);
			repr_double(out, c->imag, 0, 1);
			buf_add(out, "j)", 2);
		}
		break;
	case AST_CONST_STR:
		repr_str(out, c->s, c->len);
		break;
	case AST_CONST_BYTES:
		repr_bytes(out, c->s, c->len);
		break;
	default:
		buf_addstr(out, "?");
		break;
	}
}

/* ------------------------------------------------------------------ nodes */

static void dump_node(const struct ast_hdr *n, buf_t *out);

static void dump_list(const struct ast_list *l, buf_t *out)
{
	unsigned i;

	buf_addch(out, '[');
	for (i = 0; i < l->n; i++) {
		if (i)
			buf_add(out, ", ", 2);
		dump_node(l->items[i], out);
	}
	buf_addch(out, ']');
}

static void dump_field(const struct ast_field *f, const char *base, buf_t *out)
{
	const struct ast_hdr *child;
	const char *s;
	unsigned i;
	int v;

	switch (f->type) {
	case AST_F_NODE:
	case AST_F_OPTNODE:
		memcpy(&child, base + f->offset, sizeof child);
		dump_node(child, out);
		break;
	case AST_F_LIST:
		dump_list((const struct ast_list *)(const void *)(base + f->offset), out);
		break;
	case AST_F_STR:
	case AST_F_OPTSTR:
		memcpy(&s, base + f->offset, sizeof s);
		if (s)
			repr_str(out, s, strlen(s));
		else
			buf_addstr(out, "None");
		break;
	case AST_F_STRLIST: {
		const struct ast_strlist *l = (const void *)(base + f->offset);

		buf_addch(out, '[');
		for (i = 0; i < l->n; i++) {
			if (i)
				buf_add(out, ", ", 2);
			repr_str(out, l->items[i], strlen(l->items[i]));
		}
		buf_addch(out, ']');
		break;
	}
	case AST_F_INT:
	case AST_F_OPTINT:
		buf_addf(out, "%d", *(const int *)(const void *)(base + f->offset));
		break;
	case AST_F_CONST:
		astdump_const((const struct ast_const *)(const void *)(base + f->offset), out);
		break;
	case AST_F_OPERATOR:
	case AST_F_BOOLOP:
	case AST_F_UNARYOP:
	case AST_F_CTX:
		v = *(const int *)(const void *)(base + f->offset);
		buf_addstr(out, f->type == AST_F_OPERATOR ? ast_operator_name(v) :
		                f->type == AST_F_BOOLOP ? ast_boolop_name(v) :
		                f->type == AST_F_UNARYOP ? ast_unaryop_name(v) :
		                ast_ctx_name(v));
		buf_add(out, "()", 2);
		break;
	case AST_F_CMPLIST: {
		const struct ast_cmplist *l = (const void *)(base + f->offset);

		buf_addch(out, '[');
		for (i = 0; i < l->n; i++) {
			if (i)
				buf_add(out, ", ", 2);
			buf_addstr(out, ast_cmpop_name(l->items[i]));
			buf_add(out, "()", 2);
		}
		buf_addch(out, ']');
		break;
	}
	default:
		buf_addstr(out, "?");
		break;
	}
}

/* Is optional field f None (left out by ast.dump)? */
static int field_absent(const struct ast_field *f, const char *base)
{
	const void *p;

	switch (f->type) {
	case AST_F_OPTNODE:
	case AST_F_OPTSTR:
		memcpy(&p, base + f->offset, sizeof p);
		return p == NULL;
	case AST_F_OPTINT:
		return *(const int *)(const void *)(base + f->offset) == -1;
	default:
		return 0;
	}
}

static void dump_node(const struct ast_hdr *n, buf_t *out)
{
	const struct ast_kind_info *ki;
	const char *base = (const char *)n;
	unsigned i;
	int first = 1;

	if (!n) {
		buf_addstr(out, "None");
		return;
	}
	ki = ast_kind_info(n->kind);
	buf_addstr(out, ki->name);
	buf_addch(out, '(');
	for (i = 0; i < ki->nfields; i++) {
		const struct ast_field *f = &ki->fields[i];

		if (field_absent(f, base))
			continue;
		if (!first)
			buf_add(out, ", ", 2);
		first = 0;
		buf_addstr(out, f->name);
		buf_addch(out, '=');
		dump_field(f, base, out);
	}
	if (ki->has_pos) {
		buf_addf(out, "%slineno=%d, col_offset=%d", first ? "" : ", ",
		         n->line, n->col);
		if (n->end_line != -1)
			buf_addf(out, ", end_lineno=%d", n->end_line);
		if (n->end_col != -1)
			buf_addf(out, ", end_col_offset=%d", n->end_col);
	}
	buf_addch(out, ')');
}

void astdump(const struct ast_hdr *node, buf_t *out)
{
	dump_node(node, out);
}
