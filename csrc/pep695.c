/* pep695.c - see include/ecg/pep695.h
 *
 * A byte scanner, not a tokenizer: it knows strings (prefixes, triple
 * quotes, escapes), comments, bracket depth, backslash continuations and
 * where a statement starts (a line's first non-blank byte outside brackets,
 * or after a `;`).  At a statement's start it looks for the three PEP 695
 * forms and rewrites them in place in the copy; nothing else is touched.
 * The forms are syntax errors before 3.12, so a file that parsed never
 * reaches this, and a rewrite that is wrong only costs a second failed parse
 * (pyast.c then reports the first error).
 *
 * Owns nothing after return: the copy belongs to the caller.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/pep695.h"
#include "ecg/util.h"

static int is_ident(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

static int is_quote(char c)
{
	return c == '\'' || c == '"';
}

/* An identifier of at most 3 bytes made of string-prefix letters. */
static int is_prefix(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 3)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("rRbBfFuU", s[i]))
			return 0;
	return 1;
}

/* s[i] is a quote: the index just past the string literal (or len). */
static size_t skip_string(const char *s, size_t len, size_t i)
{
	char q = s[i];
	int triple = i + 2 < len && s[i + 1] == q && s[i + 2] == q;

	i += triple ? 3 : 1;
	while (i < len) {
		if (s[i] == '\\') {
			i += 2;
			continue;
		}
		if (s[i] == q) {
			if (!triple)
				return i + 1;
			if (i + 2 < len && s[i + 1] == q && s[i + 2] == q)
				return i + 3;
		} else if (!triple && s[i] == '\n') {
			return i;
		}
		i++;
	}
	return len;
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f'))
		i++;
	return i;
}

static size_t skip_ident(const char *s, size_t len, size_t i)
{
	while (i < len && is_ident((unsigned char)s[i]))
		i++;
	return i;
}

/* s[i] is '[': the index of its matching ']', or len when there is none. */
static size_t match_bracket(const char *s, size_t len, size_t i)
{
	int depth = 0;

	while (i < len) {
		char c = s[i];

		if (is_quote(c)) {
			i = skip_string(s, len, i);
			continue;
		}
		if (c == '#') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (--depth == 0)
				return c == ']' ? i : len;
		}
		i++;
	}
	return len;
}

/* Bytes a..b (inclusive) of out become blanks; newlines stay. */
static void blank(char *out, size_t a, size_t b)
{
	for (; a <= b; a++)
		if (out[a] != '\n' && out[a] != '\r')
			out[a] = ' ';
}

static int word_is(const char *s, size_t a, size_t b, const char *w)
{
	return b - a == strlen(w) && memcmp(s + a, w, b - a) == 0;
}

/* A statement starts at s[i]: rewrite a PEP 695 form there into out. */
static int rewrite_at(const char *s, size_t len, size_t i, char *out)
{
	size_t w = skip_ident(s, len, i), name, name_end, j;

	if (word_is(s, i, w, "async")) {
		size_t k = skip_blanks(s, len, w);

		if (k == w)
			return 0;
		i = k;
		w = skip_ident(s, len, i);
		if (!word_is(s, i, w, "def"))
			return 0;
	}
	if (word_is(s, i, w, "def") || word_is(s, i, w, "class")) {
		name = skip_blanks(s, len, w);
		if (name == w)
			return 0;
		name_end = skip_ident(s, len, name);
		if (name_end == name)
			return 0;
		j = skip_blanks(s, len, name_end);
		if (j >= len || s[j] != '[')
			return 0;
		{
			size_t close = match_bracket(s, len, j);

			if (close >= len)
				return 0;
			blank(out, j, close);
		}
		return 1;
	}
	if (word_is(s, i, w, "type")) {
		size_t eq;

		name = skip_blanks(s, len, w);
		if (name == w)
			return 0;
		name_end = skip_ident(s, len, name);
		if (name_end == name || (s[name] >= '0' && s[name] <= '9'))
			return 0;
		j = skip_blanks(s, len, name_end);
		if (j < len && s[j] == '[') {
			j = match_bracket(s, len, j);
			if (j >= len)
				return 0;
			j = skip_blanks(s, len, j + 1);
		}
		if (j >= len || s[j] != '=' || (j + 1 < len && s[j + 1] == '='))
			return 0;
		eq = j;
		blank(out, i, eq - 1);
		memcpy(out + i, s + name, name_end - name);
		return 1;
	}
	return 0;
}

char *pep695_downgrade(const char *src, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i = 0;
	int depth = 0, at_start = 1, changed = 0;

	memcpy(out, src, len);
	out[len] = '\0';
	while (i < len) {
		char c = src[i];

		if (at_start && depth == 0) {
			i = skip_blanks(src, len, i);
			at_start = 0;
			if (i < len && is_ident((unsigned char)src[i]))
				changed |= rewrite_at(src, len, i, out);
			continue;
		}
		if (c == '#') {
			while (i < len && src[i] != '\n')
				i++;
		} else if (c == '\\' && i + 1 < len && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
			i += 2;
			if (i < len && src[i - 1] == '\r' && src[i] == '\n')
				i++;
		} else if (c == '\n') {
			i++;
			if (depth == 0)
				at_start = 1;
		} else if (is_quote(c)) {
			i = skip_string(src, len, i);
		} else if (is_ident((unsigned char)c)) {
			size_t e = skip_ident(src, len, i);

			if (e < len && is_quote(src[e]) && is_prefix(src + i, e - i))
				e = skip_string(src, len, e);
			i = e;
		} else {
			if (c == '(' || c == '[' || c == '{')
				depth++;
			else if ((c == ')' || c == ']' || c == '}') && depth > 0)
				depth--;
			else if (c == ';' && depth == 0)
				at_start = 1;
			i++;
		}
	}
	if (!changed) {
		free(out);
		return NULL;
	}
	return out;
}
