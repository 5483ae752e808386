/* launcher.c - shell launchers read as data: see include/ecg/launcher.h.
 *
 * Three layers, bottom up:
 *   words     the lexer: one word at a time, quotes, $-expansions, arrays,
 *             here-documents skipped; each word expands to fields, each
 *             field known (literal) or not (its shell text kept);
 *   commands  simple commands between separators; assignments, the
 *             control words (if/elif/else/fi, loops, case, functions) and
 *             `[ ... ]` tests on known values, decided three ways;
 *   launches  a command whose program is a Python launcher, its options
 *             read from the tables below, its process count worked out.
 *
 * Bounds: nesting of control words (64), variables (4096), fields in a
 * command (4096), expansion depth (16); past them, things become unknown.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/interp.h"
#include "ecg/launcher.h"
#include "ecg/util.h"

#define MAX_FRAMES 64
#define MAX_VARS 4096
#define MAX_FIELDS 4096
#define MAX_DEPTH 16

/* ------------------------------------------------------------ fields */

struct field {
	char *text;
	int known;
};

struct fields {
	struct field *v;
	size_t n, alloc;
};

static void fields_push(struct fields *f, char *text, int known)
{
	if (f->n >= MAX_FIELDS) {
		free(text);
		return;
	}
	GROW(f->v, f->alloc, f->n + 1);
	f->v[f->n].text = text;
	f->v[f->n].known = known;
	f->n++;
}

static void fields_free(struct fields *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].text);
	free(f->v);
	memset(f, 0, sizeof *f);
}

static void fields_copy(struct fields *dst, const struct fields *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		fields_push(dst, xstrdup(src->v[i].text), src->v[i].known);
}

/* ------------------------------------------------------------ variables */

struct var {
	char *name;
	int known;          /* scalar: value known */
	char *value;        /* scalar value, or the shell text when !known */
	int is_array;
	struct fields arr;  /* array elements */
};

enum tri { T_FALSE = 0, T_TRUE = 1, T_UNKNOWN = 2 };

enum frame_kind { F_IF, F_LOOP, F_CASE, F_FUNC, F_GROUP };

struct frame {
	enum frame_kind kind;
	enum tri state;      /* the branch being read */
	enum tri taken;      /* an earlier branch of this if: surely/maybe taken */
	int awaiting_then;   /* between if/elif and then */
	char *cond;          /* the condition text of this branch, or NULL */
	char *all_conds;     /* the earlier branches' conditions (for else) */
};

struct sh {
	const char *start, *p, *end;
	size_t line;
	struct var *vars;
	size_t nvars, avars;
	const char *const *pos;
	size_t npos;
	int have_pos;
	struct frame fr[MAX_FRAMES];
	int depth;
	int overflow;         /* frames past MAX_FRAMES: all unknown */
	struct {
		long nodes, ntasks, ntasks_per_node, gpus_per_node;
	} sb;                 /* #SBATCH directives */
	char *heredoc;        /* a pending here-document's delimiter */
	int heredoc_strip;
	int stopped;          /* an `exit` the launcher surely reaches */
	struct launch_list *out;
};

static struct var *var_find(struct sh *s, const char *name, size_t n)
{
	size_t i;

	for (i = s->nvars; i-- > 0;)
		if (strlen(s->vars[i].name) == n && !memcmp(s->vars[i].name, name, n))
			return &s->vars[i];
	return NULL;
}

static struct var *var_make(struct sh *s, const char *name, size_t n)
{
	struct var *v = var_find(s, name, n);

	if (v) {
		free(v->value);
		v->value = NULL;
		fields_free(&v->arr);
		v->is_array = 0;
		return v;
	}
	if (s->nvars >= MAX_VARS)
		return NULL;
	GROW(s->vars, s->avars, s->nvars + 1);
	v = &s->vars[s->nvars++];
	memset(v, 0, sizeof *v);
	v->name = xstrndup(name, n);
	return v;
}

/* ------------------------------------------------------------ frames */

/* Whether the line being read runs: T_FALSE in a branch decided false,
 * T_UNKNOWN under an undecided one (or a loop, a case arm, a function). */
static enum tri sh_live(const struct sh *s)
{
	enum tri t = T_TRUE;
	int i;

	if (s->overflow)
		t = T_UNKNOWN;
	for (i = 0; i < s->depth; i++) {
		if (s->fr[i].awaiting_then)
			return T_FALSE;    /* the condition itself is not a launch */
		if (s->fr[i].state == T_FALSE)
			return T_FALSE;
		if (s->fr[i].state == T_UNKNOWN)
			t = T_UNKNOWN;
	}
	return t;
}

/* The conditions of the frames the line runs under, joined; owned or NULL. */
static char *sh_condition(const struct sh *s)
{
	buf_t b;
	int i;

	buf_init(&b);
	for (i = 0; i < s->depth; i++) {
		if (s->fr[i].state != T_UNKNOWN || !s->fr[i].cond)
			continue;
		if (b.len)
			buf_addstr(&b, " and ");
		buf_addstr(&b, s->fr[i].cond);
	}
	if (s->overflow)
		buf_addstr(&b, b.len ? " and nested too deep to read" : "nested too deep to read");
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

static void frame_push(struct sh *s, enum frame_kind k, enum tri state, char *cond)
{
	struct frame *f;

	if (s->depth >= MAX_FRAMES) {
		s->overflow++;
		free(cond);
		return;
	}
	f = &s->fr[s->depth++];
	memset(f, 0, sizeof *f);
	f->kind = k;
	f->state = state;
	f->taken = T_FALSE;
	f->cond = cond;
}

static void frame_pop(struct sh *s, enum frame_kind k)
{
	struct frame *f;

	if (s->overflow) {
		s->overflow--;
		return;
	}
	if (!s->depth || s->fr[s->depth - 1].kind != k)
		return;   /* unbalanced: keep what is open */
	f = &s->fr[--s->depth];
	free(f->cond);
	free(f->all_conds);
}

/* ------------------------------------------------------------ words */

/* A word being built: the fields finished so far and the current one. */
struct wb {
	struct fields out;
	buf_t cur;
	int known;
	int started;      /* the current field exists (even if empty: "") */
	int at_empty;     /* a quoted "$@" / "${A[@]}" expanded to nothing */
};

static void wb_init(struct wb *w)
{
	memset(w, 0, sizeof *w);
	buf_init(&w->cur);
	w->known = 1;
}

static void wb_break(struct wb *w)
{
	if (w->started)
		fields_push(&w->out, xstrndup(w->cur.buf, w->cur.len), w->known);
	buf_reset(&w->cur);
	w->known = 1;
	w->started = 0;
}

static void wb_add(struct wb *w, const char *t, size_t n, int known)
{
	buf_add(&w->cur, t, n);
	w->known &= known;
	w->started = 1;
}

static void wb_done(struct wb *w, struct fields *out)
{
	wb_break(w);
	*out = w->out;
	buf_free(&w->cur);
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A value expanded into the word: as is when quoted, else split on blanks. */
static void wb_expand(struct wb *w, const char *v, int known, int quoted)
{
	const char *p = v, *q;

	if (quoted || !known) {
		wb_add(w, v, strlen(v), known);
		return;
	}
	if (*p && isspace((unsigned char)*p))
		wb_break(w);
	while (*p) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		for (q = p; *q && !isspace((unsigned char)*q); q++)
			;
		wb_add(w, p, (size_t)(q - p), 1);
		p = q;
		if (*p)
			wb_break(w);
	}
}

/* Fields expanded into the word ("$@", "${A[@]}"): one field each when
 * quoted, each split when not. */
static void wb_expand_fields(struct wb *w, const struct fields *f, int quoted)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (i)
			wb_break(w);
		wb_expand(w, f->v[i].text, f->v[i].known, quoted);
	}
	if (quoted && !f->n)
		w->at_empty = 1;  /* "$@" with nothing: no field (sh_word_text) */
}

static int name_start(int c)
{
	return c == '_' || isalpha(c);
}

static int name_char(int c)
{
	return c == '_' || isalnum(c);
}

/* The end of a bracketed span starting at p (just after the opener):
 * nesting of open/close and quotes skipped.  Returns a pointer at the
 * closer, or at end. */
static const char *span_end(const char *p, const char *end, char open, char close)
{
	int depth = 1;

	while (p < end) {
		if (*p == '\\' && p + 1 < end) {
			p += 2;
			continue;
		}
		if (*p == '\'') {
			for (p++; p < end && *p != '\''; p++)
				;
		} else if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
		} else if (*p == open) {
			depth++;
		} else if (*p == close) {
			if (--depth == 0)
				return p;
		}
		if (p < end)
			p++;
	}
	return end;
}

static void sh_word_text(struct sh *s, const char *p, const char *end, int quoted, int depth, struct wb *w);

/* A string expanded whole (a default value, an arithmetic operand):
 * *known says whether it was literal.  Owned. */
static char *sh_expand_string(struct sh *s, const char *p, const char *end, int depth, int *known)
{
	struct wb w;
	struct fields f;
	buf_t b;
	size_t i;

	wb_init(&w);
	sh_word_text(s, p, end, 0, depth, &w);
	wb_done(&w, &f);
	buf_init(&b);
	*known = 1;
	for (i = 0; i < f.n; i++) {
		if (i)
			buf_addch(&b, ' ');
		buf_addstr(&b, f.v[i].text);
		*known &= f.v[i].known;
	}
	fields_free(&f);
	return buf_detach(&b);
}

/* --- arithmetic: + - * / % and parentheses over integers and variables */

struct arith {
	struct sh *s;
	const char *p, *end;
	int ok;
	int depth;
};

static long arith_expr(struct arith *a);

static void arith_ws(struct arith *a)
{
	while (a->p < a->end && isspace((unsigned char)*a->p))
		a->p++;
}

static long arith_atom(struct arith *a)
{
	long v = 0;

	arith_ws(a);
	if (a->p >= a->end) {
		a->ok = 0;
		return 0;
	}
	if (*a->p == '(') {
		a->p++;
		if (++a->depth > 32) {
			a->ok = 0;
			return 0;
		}
		v = arith_expr(a);
		a->depth--;
		arith_ws(a);
		if (a->p < a->end && *a->p == ')')
			a->p++;
		else
			a->ok = 0;
		return v;
	}
	if (*a->p == '-' || *a->p == '+') {
		int neg = *a->p == '-';

		a->p++;
		v = arith_atom(a);
		return neg ? -v : v;
	}
	if (isdigit((unsigned char)*a->p)) {
		while (a->p < a->end && isdigit((unsigned char)*a->p)) {
			if (v > 100000000000L)
				a->ok = 0;
			else
				v = v * 10 + (*a->p - '0');
			a->p++;
		}
		return v;
	}
	{
		const char *n;
		struct var *var;
		char *e;

		if (*a->p == '$')
			a->p++;
		if (a->p < a->end && *a->p == '{')
			a->p++;
		n = a->p;
		while (a->p < a->end && name_char((unsigned char)*a->p))
			a->p++;
		if (a->p < a->end && *a->p == '}')
			a->p++;
		var = a->p > n ? var_find(a->s, n, (size_t)(a->p - n)) : NULL;
		if (!var || var->is_array || !var->known || !var->value) {
			a->ok = 0;
			return 0;
		}
		v = strtol(var->value, &e, 10);
		if (*e || e == var->value)
			a->ok = 0;
		return v;
	}
}

static long arith_term(struct arith *a)
{
	long v = arith_atom(a), r;

	for (;;) {
		arith_ws(a);
		if (a->p >= a->end || (*a->p != '*' && *a->p != '/' && *a->p != '%'))
			return v;
		{
			char op = *a->p++;

			r = arith_atom(a);
			if (op == '*') {
				if ((v && labs(r) > 1000000000000L / (labs(v) ? labs(v) : 1)))
					a->ok = 0;
				else
					v *= r;
			} else if (r == 0) {
				a->ok = 0;
			} else {
				v = op == '/' ? v / r : v % r;
			}
		}
	}
}

static long arith_expr(struct arith *a)
{
	long v = arith_term(a);

	for (;;) {
		arith_ws(a);
		if (a->p >= a->end || (*a->p != '+' && *a->p != '-'))
			return v;
		if (*a->p++ == '+')
			v += arith_term(a);
		else
			v -= arith_term(a);
		if (labs(v) > 1000000000000L)
			a->ok = 0;
	}
}

/* --- $-expansions */

/* The value of a special or positional parameter, or of a variable; its
 * fields when it is an array or "$@".  Returns 1 when found (set). */
static int sh_param(struct sh *s, const char *name, size_t n, const char *index, size_t nindex,
                    struct fields *f, char **scalar, int *known)
{
	struct var *v;

	*scalar = NULL;
	*known = 1;
	if (n == 1 && (name[0] == '@' || name[0] == '*')) {
		size_t i;

		if (!s->have_pos)
			return 1;   /* nobody gave the launcher arguments */
		for (i = 0; i < s->npos; i++)
			fields_push(f, xstrdup(s->pos[i]), 1);
		return 1;
	}
	if (n == 1 && name[0] == '#') {
		*scalar = s->have_pos ? xasprintf("%zu", s->npos) : NULL;
		*known = s->have_pos;
		return s->have_pos;
	}
	if (isdigit((unsigned char)name[0])) {
		long k = strtol(name, NULL, 10);

		if (k == 0) {
			*scalar = xstrdup("launcher");
			*known = 0;
			return 1;
		}
		if (!s->have_pos) {
			*known = 0;
			return 0;
		}
		*scalar = xstrdup((size_t)k <= s->npos ? s->pos[k - 1] : "");
		return (size_t)k <= s->npos;
	}
	if (!name_start((unsigned char)name[0])) {
		*known = 0;   /* $$ $? $! $- */
		return 1;
	}
	v = var_find(s, name, n);
	if (!v)
		return 0;
	if (v->is_array) {
		if (index && nindex == 1 && (index[0] == '@' || index[0] == '*')) {
			fields_copy(f, &v->arr);
			return 1;
		}
		{
			long k = index ? strtol(index, NULL, 10) : 0;

			if (index && !(nindex && isdigit((unsigned char)index[0]))) {
				*known = 0;
				return 1;
			}
			if (k < 0 || (size_t)k >= v->arr.n)
				return 0;
			*scalar = xstrdup(v->arr.v[k].text);
			*known = v->arr.v[k].known;
			return 1;
		}
	}
	*scalar = xstrdup(v->value ? v->value : "");
	*known = v->known;
	return 1;
}

/* One $-expansion at s->p (pointing at '$'), into w; returns the end. */
static const char *sh_dollar(struct sh *s, const char *p, const char *end, int quoted, int depth, struct wb *w)
{
	const char *q = p + 1, *name, *index = NULL, *e;
	size_t n, nindex = 0;
	struct fields f = { 0 };
	char *scalar = NULL;
	int known = 1, set;

	if (q >= end) {
		wb_add(w, "$", 1, 1);
		return q;
	}
	if (*q == '(' && q + 1 < end && q[1] == '(') {
		/* $(( arithmetic )) */
		const char *close = span_end(q + 2, end, '(', ')');
		struct arith a = { s, q + 2, close, 1, 0 };
		long v;

		v = arith_expr(&a);
		arith_ws(&a);
		e = close < end ? close + 1 : end;
		if (e < end && *e == ')')
			e++;
		if (a.ok && a.p == close && depth < MAX_DEPTH) {
			char tmp[32];

			snprintf(tmp, sizeof tmp, "%ld", v);
			wb_add(w, tmp, strlen(tmp), 1);
		} else {
			wb_add(w, p, (size_t)(e - p), 0);
		}
		return e;
	}
	if (*q == '(') {
		/* $( command substitution ): not run */
		const char *close = span_end(q + 1, end, '(', ')');

		e = close < end ? close + 1 : end;
		wb_add(w, p, (size_t)(e - p), 0);
		return e;
	}
	if (*q == '{') {
		const char *close = span_end(q + 1, end, '{', '}'), *op;
		int length = 0;

		e = close < end ? close + 1 : end;
		name = q + 1;
		if (name < close && *name == '#' && name + 1 < close && name[1] != '}') {
			length = 1;
			name++;
		}
		op = name;
		if (op < close && (name_start((unsigned char)*op))) {
			while (op < close && name_char((unsigned char)*op))
				op++;
		} else if (op < close && isdigit((unsigned char)*op)) {
			while (op < close && isdigit((unsigned char)*op))
				op++;
		} else if (op < close) {
			op++;   /* @ * # ? $ ! */
		}
		n = (size_t)(op - name);
		if (op < close && *op == '[') {
			const char *ie = memchr(op, ']', (size_t)(close - op));

			if (!ie) {
				wb_add(w, p, (size_t)(e - p), 0);
				return e;
			}
			index = op + 1;
			nindex = (size_t)(ie - index);
			op = ie + 1;
		}
		if (!n || depth >= MAX_DEPTH) {
			wb_add(w, p, (size_t)(e - p), 0);
			return e;
		}
		set = sh_param(s, name, n, index, nindex, &f, &scalar, &known);
		if (length) {
			if (set && known && scalar && op == close) {
				char tmp[32];

				snprintf(tmp, sizeof tmp, "%zu", strlen(scalar));
				wb_add(w, tmp, strlen(tmp), 1);
			} else {
				wb_add(w, p, (size_t)(e - p), 0);
			}
		} else if (op == close) {
			if (!set && !f.n)
				wb_add(w, p, (size_t)(e - p), 0);   /* unset: the environment's */
			else if (scalar && known)
				wb_expand(w, scalar, known, quoted);
			else if (scalar)
				wb_add(w, p, (size_t)(e - p), 0);   /* not known: as written here */
			else if (known)
				wb_expand_fields(w, &f, quoted);
			else
				wb_add(w, p, (size_t)(e - p), 0);
		} else {
			int colon = *op == ':';
			char o = colon && op + 1 < close ? op[1] : *op;
			const char *arg = op + (colon ? 2 : 1);
			int empty = set && known && scalar && !*scalar && !f.n;
			int use_default;

			if (o != '-' && o != '=' && o != '+' && o != '?') {
				/* ${V#pat} ${V%pat} ${V/a/b} ${V:off:len}: not read */
				wb_add(w, p, (size_t)(e - p), 0);
			} else if (set && !known) {
				wb_add(w, p, (size_t)(e - p), 0);
			} else {
				use_default = !set || (colon && empty);
				if (o == '+')
					use_default = !use_default;
				if (use_default && o != '?') {
					int dk;
					char *d = sh_expand_string(s, arg, close, depth + 1, &dk);

					wb_add(w, d, strlen(d), dk);
					if (o == '=' && arg <= close && n && name_start((unsigned char)*name)) {
						struct var *v = var_make(s, name, n);

						if (v) {
							v->value = xstrdup(d);
							v->known = dk;
						}
					}
					free(d);
				} else if (o == '+') {
					/* set, and + gives nothing */
					w->started = 1;
				} else if (scalar) {
					wb_expand(w, scalar, known, quoted);
				} else if (!use_default) {
					wb_expand_fields(w, &f, quoted);
				} else {
					wb_add(w, p, (size_t)(e - p), 0);
				}
			}
		}
		free(scalar);
		fields_free(&f);
		return e;
	}
	/* $NAME, $1, $@, $# ... */
	name = q;
	if (name_start((unsigned char)*q)) {
		while (q < end && name_char((unsigned char)*q))
			q++;
	} else if (isdigit((unsigned char)*q) || strchr("@*#?$!-", *q)) {
		q++;
	} else {
		wb_add(w, "$", 1, 1);
		return q;
	}
	n = (size_t)(q - name);
	set = sh_param(s, name, n, NULL, 0, &f, &scalar, &known);
	if (!set && !f.n)
		wb_add(w, p, (size_t)(q - p), 0);
	else if (scalar && known)
		wb_expand(w, scalar, known, quoted);
	else if (scalar)
		wb_add(w, p, (size_t)(q - p), 0);
	else if (known)
		wb_expand_fields(w, &f, quoted);
	else
		wb_add(w, p, (size_t)(q - p), 0);
	free(scalar);
	fields_free(&f);
	return q;
}

/* The text [p, end) of one word (already cut out), expanded into w. */
static void sh_word_text(struct sh *s, const char *p, const char *end, int quoted, int depth, struct wb *w)
{
	while (p < end) {
		char c = *p;

		if (c == '\\' && p + 1 < end) {
			if (p[1] == '\n') {
				p += 2;
				continue;
			}
			if (!quoted || strchr("\"\\$`", p[1]))
				p++;
			wb_add(w, p, 1, 1);
			p++;
		} else if (c == '\'' && !quoted) {
			const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));

			if (!q)
				q = end;
			wb_add(w, p + 1, (size_t)(q - p - 1), 1);
			p = q < end ? q + 1 : end;
		} else if (c == '"' && !quoted) {
			const char *q = p + 1;

			while (q < end && *q != '"') {
				if (*q == '\\' && q + 1 < end)
					q++;
				else if (*q == '$' && q + 1 < end && q[1] == '(')
					q = span_end(q + 2, end, '(', ')');
				else if (*q == '$' && q + 1 < end && q[1] == '{')
					q = span_end(q + 2, end, '{', '}');
				if (q < end)
					q++;
			}
			{
				int before = w->started;
				size_t len0 = w->cur.len;

				w->started = 1;
				w->at_empty = 0;
				sh_word_text(s, p + 1, q, 1, depth, w);
				if (w->at_empty && !before && w->cur.len == len0)
					w->started = 0;
				w->at_empty = 0;
			}
			p = q < end ? q + 1 : end;
		} else if (c == '$') {
			p = sh_dollar(s, p, end, quoted, depth, w);
		} else if (c == '`') {
			const char *q = p + 1;

			while (q < end && *q != '`')
				q += (*q == '\\' && q + 1 < end) ? 2 : 1;
			q = q < end ? q + 1 : end;
			wb_add(w, p, (size_t)(q - p), 0);
			p = q;
		} else {
			wb_add(w, p, 1, 1);
			p++;
		}
	}
}

/* ------------------------------------------------------------ the lexer */

enum tok { TK_WORD, TK_SEP, TK_AND, TK_OR, TK_PIPE, TK_REDIR, TK_OPEN, TK_CLOSE, TK_END };

static int is_op_char(int c)
{
	return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')' || c == '\n';
}

/* Skip blanks, continuations and comments; #SBATCH lines are read. */
static void sb_directive(struct sh *s, const char *p, const char *eol);

static void sh_skip(struct sh *s, int at_line_start)
{
	while (s->p < s->end) {
		if (is_blank(*s->p)) {
			s->p++;
		} else if (*s->p == '\\' && s->p + 1 < s->end && s->p[1] == '\n') {
			s->p += 2;
			s->line++;
		} else if (*s->p == '#') {
			const char *eol = memchr(s->p, '\n', (size_t)(s->end - s->p));

			if (!eol)
				eol = s->end;
			if (at_line_start && eol - s->p > 7 && !memcmp(s->p, "#SBATCH", 7))
				sb_directive(s, s->p + 7, eol);
			s->p = eol;
		} else {
			return;
		}
	}
}

/* A here-document's body, skipped after the line that opened it. */
static void sh_skip_heredoc(struct sh *s)
{
	size_t n = strlen(s->heredoc);

	while (s->p < s->end) {
		const char *eol = memchr(s->p, '\n', (size_t)(s->end - s->p)), *b = s->p;

		if (!eol)
			eol = s->end;
		if (s->heredoc_strip)
			while (b < eol && *b == '\t')
				b++;
		s->p = eol < s->end ? eol + 1 : eol;
		s->line++;
		if ((size_t)(eol - b) == n && !memcmp(b, s->heredoc, n))
			break;
	}
	free(s->heredoc);
	s->heredoc = NULL;
}

/* The next token.  For a word, [*ws, *we) is its source text. */
static enum tok sh_token(struct sh *s, int at_line_start, const char **ws, const char **we)
{
	const char *p;

	sh_skip(s, at_line_start);
	if (s->p >= s->end)
		return TK_END;
	p = s->p;
	*ws = p;
	if (*p == '\n') {
		s->p++;
		s->line++;
		if (s->heredoc)
			sh_skip_heredoc(s);
		return TK_SEP;
	}
	if (*p == ';') {
		s->p += (p + 1 < s->end && p[1] == ';') ? 2 : 1;
		return TK_SEP;
	}
	if (*p == '&') {
		if (p + 1 < s->end && p[1] == '&') {
			s->p += 2;
			return TK_AND;
		}
		if (p + 1 < s->end && p[1] == '>') {
			s->p += 2;
			if (s->p < s->end && *s->p == '>')
				s->p++;
			return TK_REDIR;
		}
		s->p++;
		return TK_SEP;
	}
	if (*p == '|') {
		if (p + 1 < s->end && p[1] == '|') {
			s->p += 2;
			return TK_OR;
		}
		s->p++;
		return TK_PIPE;
	}
	if (*p == '(') {
		s->p++;
		return TK_OPEN;
	}
	if (*p == ')') {
		s->p++;
		return TK_CLOSE;
	}
	if (*p == '<' || *p == '>') {
		int here = p + 1 < s->end && p[0] == '<' && p[1] == '<' && !(p + 2 < s->end && p[2] == '<');

		s->p++;
		while (s->p < s->end && (*s->p == '<' || *s->p == '>' || *s->p == '&' || *s->p == '-' ||
		                         (isdigit((unsigned char)*s->p) && s->p[-1] == '&')))
			s->p++;
		if (here) {
			/* the delimiter word, its quotes removed */
			const char *d, *de;
			buf_t b;

			s->heredoc_strip = p + 2 < s->end && p[2] == '-';
			sh_skip(s, 0);
			d = s->p;
			while (s->p < s->end && !is_blank(*s->p) && !is_op_char(*s->p))
				s->p++;
			de = s->p;
			buf_init(&b);
			for (; d < de; d++)
				if (*d != '\'' && *d != '"' && *d != '\\')
					buf_addch(&b, *d);
			free(s->heredoc);
			s->heredoc = buf_detach(&b);
			if (!*s->heredoc) {
				free(s->heredoc);
				s->heredoc = NULL;
			}
			*we = s->p;
			return TK_REDIR;
		}
		*we = s->p;
		return TK_REDIR;
	}
	/* an fd number before a redirection (2>&1) belongs to it */
	{
		const char *d = p;

		while (d < s->end && isdigit((unsigned char)*d))
			d++;
		if (d > p && d < s->end && (*d == '<' || *d == '>')) {
			s->p = d;
			return sh_token(s, 0, ws, we);
		}
	}
	/* a word: up to an unquoted blank or operator */
	while (s->p < s->end && !is_blank(*s->p) && !is_op_char(*s->p)) {
		char c = *s->p;

		if (c == '\\' && s->p + 1 < s->end) {
			if (s->p[1] == '\n')
				s->line++;
			s->p += 2;
		} else if (c == '\'' || c == '"' || c == '`') {
			const char *q = s->p + 1;

			while (q < s->end && *q != c) {
				if (c != '\'' && *q == '\\' && q + 1 < s->end)
					q++;
				else if (c == '"' && *q == '$' && q + 1 < s->end && (q[1] == '(' || q[1] == '{'))
					q = span_end(q + 2, s->end, q[1], q[1] == '(' ? ')' : '}');
				if (q < s->end && *q == '\n')
					s->line++;
				if (q < s->end)
					q++;
			}
			s->p = q < s->end ? q + 1 : s->end;
		} else if (c == '$' && s->p + 1 < s->end && (s->p[1] == '(' || s->p[1] == '{')) {
			const char *q = span_end(s->p + 2, s->end, s->p[1], s->p[1] == '(' ? ')' : '}');
			const char *x;

			for (x = s->p; x < q; x++)
				s->line += *x == '\n';
			s->p = q < s->end ? q + 1 : s->end;
		} else {
			s->p++;
		}
	}
	*we = s->p;
	return TK_WORD;
}

/* ------------------------------------------------------------ #SBATCH */

static long parse_count(const char *v)
{
	char *e;
	long n;

	if (!v || !isdigit((unsigned char)*v))
		return -1;
	n = strtol(v, &e, 10);
	return *e || n <= 0 || n > 1000000 ? -1 : n;
}

/* The #SBATCH options that set a process count, and where it goes. */
static const struct {
	const char *opt;
	size_t off;                /* of the long in struct sh */
} sb_counts[] = {
	{ "--nodes", offsetof(struct sh, sb.nodes) },
	{ "-N", offsetof(struct sh, sb.nodes) },
	{ "--ntasks", offsetof(struct sh, sb.ntasks) },
	{ "-n", offsetof(struct sh, sb.ntasks) },
	{ "--ntasks-per-node", offsetof(struct sh, sb.ntasks_per_node) },
	{ "--gpus-per-node", offsetof(struct sh, sb.gpus_per_node) },
};

static void sb_directive(struct sh *s, const char *p, const char *eol)
{
	char *line = xstrndup(p, (size_t)(eol - p)), *save = NULL, *t;
	char *opt = NULL;
	size_t i;

	for (t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		char *val = NULL, *eq;

		if (t[0] == '#')
			break;
		if (opt) {
			val = t;
			t = opt;
			opt = NULL;
		} else if ((eq = strchr(t, '='))) {
			*eq = 0;
			val = eq + 1;
		} else if (!strcmp(t, "-N") || !strcmp(t, "-n") || !strncmp(t, "--", 2)) {
			opt = t;
			continue;
		} else if (t[0] == '-' && (t[1] == 'N' || t[1] == 'n') && t[2]) {
			val = t + 2;
			t[2] = 0;
		}
		if (!val)
			continue;
		for (i = 0; i < sizeof sb_counts / sizeof sb_counts[0]; i++)
			if (!strcmp(t, sb_counts[i].opt)) {
				*(long *)(void *)((char *)s + sb_counts[i].off) = parse_count(val);
				break;
			}
	}
	free(line);
}

/* ------------------------------------------------------------ launches */

/* How a launcher's options are read: those that take a value (the rest
 * are flags), and which of them set the process counts. */
struct opt_rule {
	const char *name;     /* "--nproc_per_node"; '_' and '-' are the same */
	int takes_value;
	int role;             /* ROLE_* */
};

enum { ROLE_NONE, ROLE_NPROC, ROLE_NNODES, ROLE_MODULE, ROLE_STANDALONE, ROLE_TOTAL, ROLE_STOP,
       ROLE_GPUS, ROLE_CPU };   /* the machine: GPUs (CUDA), the CPU only */

static const struct opt_rule torchrun_opts[] = {
	{ "--nproc_per_node", 1, ROLE_NPROC }, { "--nproc-per-node", 1, ROLE_NPROC },
	{ "--nnodes", 1, ROLE_NNODES }, { "--standalone", 0, ROLE_STANDALONE },
	{ "--module", 0, ROLE_MODULE }, { "-m", 0, ROLE_MODULE },
	{ "--no_python", 0, ROLE_NONE }, { "--no-python", 0, ROLE_NONE },
	{ "--run_path", 0, ROLE_NONE }, { "--run-path", 0, ROLE_NONE },
	{ "--use_env", 0, ROLE_NONE }, { "--use-env", 0, ROLE_NONE },
	{ NULL, 0, 0 }
};

static const struct opt_rule deepspeed_opts[] = {
	{ "--num_gpus", 1, ROLE_NPROC }, { "--num-gpus", 1, ROLE_NPROC },
	{ "--num_nodes", 1, ROLE_NNODES }, { "--num-nodes", 1, ROLE_NNODES },
	{ "--module", 0, ROLE_MODULE }, { "--no_python", 0, ROLE_NONE }, { "--no_local_rank", 0, ROLE_NONE },
	{ "--force_multi", 0, ROLE_NONE }, { "--autotuning", 1, ROLE_NONE }, { "--elastic_training", 0, ROLE_NONE },
	{ "--bind_cores_to_rank", 0, ROLE_NONE }, { "--no_ssh_check", 0, ROLE_NONE }, { "--save_pid", 0, ROLE_NONE },
	{ "--enable_each_rank_log", 1, ROLE_NONE },
	{ NULL, 0, 0 }
};

static const struct opt_rule accelerate_opts[] = {
	{ "--num_processes", 1, ROLE_TOTAL }, { "--num-processes", 1, ROLE_TOTAL },
	{ "--num_machines", 1, ROLE_NNODES }, { "--num-machines", 1, ROLE_NNODES },
	{ "-m", 0, ROLE_MODULE }, { "--module", 0, ROLE_MODULE },
	{ "--multi_gpu", 0, ROLE_GPUS }, { "--multi-gpu", 0, ROLE_GPUS }, { "--cpu", 0, ROLE_CPU },
	{ "--use_deepspeed", 0, ROLE_NONE }, { "--use_fsdp", 0, ROLE_NONE }, { "--use_megatron_lm", 0, ROLE_NONE },
	{ "--use-deepspeed", 0, ROLE_NONE }, { "--use-fsdp", 0, ROLE_NONE }, { "--tpu", 0, ROLE_NONE },
	{ "--debug", 0, ROLE_NONE }, { "--no_python", 0, ROLE_NONE }, { "--quiet", 0, ROLE_NONE },
	{ "-q", 0, ROLE_NONE }, { "--same_network", 0, ROLE_NONE }, { "--rdzv_conf", 1, ROLE_NONE },
	{ NULL, 0, 0 }
};

static const struct opt_rule composer_opts[] = {
	{ "-n", 1, ROLE_NPROC }, { "--nproc", 1, ROLE_NPROC },
	{ "--world_size", 1, ROLE_TOTAL }, { "--world-size", 1, ROLE_TOTAL },
	{ "--node_rank", 1, ROLE_NONE }, { "--master_addr", 1, ROLE_NONE }, { "--master_port", 1, ROLE_NONE },
	{ "-m", 0, ROLE_MODULE }, { "--module_mode", 0, ROLE_MODULE },
	{ "--stdout", 1, ROLE_NONE }, { "--stderr", 1, ROLE_NONE }, { "-v", 0, ROLE_NONE }, { "--verbose", 0, ROLE_NONE },
	{ NULL, 0, 0 }
};

/* The python interpreter's own options: those that take a value. */
static const char *const python_value_opts[] = { "-W", "-X", "--check-hash-based-pycs", NULL };

static int opt_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '_' || *a == '-') && (*b == '_' || *b == '-')))
			return 0;
	return *a == *b;
}

/* The rule of option tok[0..n) ('_' and '-' alike), or NULL. */
static const struct opt_rule *opt_lookup(const struct opt_rule *t, const char *tok, size_t n)
{
	char *name = xstrndup(tok, n);

	for (; t->name && !opt_eq(t->name, name); t++)
		;
	free(name);
	return t->name ? t : NULL;
}

static int is_python(const char *b)
{
	return !strncmp(b, "python", 6) &&
	       (!b[6] || isdigit((unsigned char)b[6]));
}

static const char *base_of(const char *t)
{
	const char *s = strrchr(t, '/');

	return s ? s + 1 : t;
}

static struct launch_arg *args_from(const struct fields *f, size_t from, size_t to, size_t *n)
{
	struct launch_arg *a = xcalloc(to > from ? to - from : 1, sizeof *a);
	size_t i;

	for (i = from; i < to; i++) {
		a[i - from].text = xstrdup(f->v[i].text);
		a[i - from].known = f->v[i].known;
	}
	*n = to > from ? to - from : 0;
	return a;
}

/* A count from a launcher option's value: -1 when not a literal number. */
static long count_of(const struct field *f)
{
	return f && f->known ? parse_count(f->text) : -1;
}

struct wrap {
	const char *name;     /* "srun", "mpirun" */
	long nodes, ntasks, ntasks_per_node;
};

/* Commands that run the next word with their options before it. */
static const char *const wrapper_words[] = { "env", "nohup", "exec", "time", "stdbuf", "unbuffer", NULL };
/* Commands that start processes on nodes: their -N/-n/-np counts. */
static const char *const mpi_words[] = { "srun", "mpirun", "mpiexec", NULL };

static int word_in(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

/* The launchers run as commands (torchrun ..., accelerate launch ...):
 * their name, the subcommand they need (or NULL), and how their options
 * are read. */
static const struct {
	const char *cmd, *sub;
	const struct opt_rule *rules;
} launcher_cmds[] = {
	{ "torchrun", NULL, torchrun_opts },
	{ "deepspeed", NULL, deepspeed_opts },
	{ "accelerate", "launch", accelerate_opts },
	{ "composer", NULL, composer_opts },
};

/* The launch a command's fields make, if any: wrappers, then the program
 * and its options, then the script and the job's own arguments. */
static void sh_launch(struct sh *s, const struct fields *f, size_t line, size_t end_line, char *cond)
{
	struct wrap wr = { NULL, -1, -1, -1 };
	const struct opt_rule *rules = NULL;
	const char *launcher = NULL;
	struct launch L;
	size_t i = 0;
	long nproc = -1, nnodes = -1, total = -1;
	int module = 0, standalone = 0, nproc_seen = 0, nnodes_seen = 0;
	char *nproc_text = NULL;

	memset(&L, 0, sizeof L);
	/* wrappers and environment assignments */
	while (i < f->n) {
		const char *t = f->v[i].text, *b = base_of(t);

		if (strchr(t, '=') && name_start((unsigned char)t[0]) && !strchr(t, '/')) {
			const char *e = t;

			while (name_char((unsigned char)*e))
				e++;
			if (*e == '=') {
				i++;
				continue;
			}
		}
		if (word_in(b, wrapper_words)) {
			i++;
			while (i < f->n && f->v[i].text[0] == '-')
				i++;
			continue;
		}
		if (!strcmp(b, "uv") && i + 1 < f->n && !strcmp(f->v[i + 1].text, "run")) {
			i += 2;
			continue;
		}
		if (word_in(b, mpi_words)) {
			wr.name = b[0] == 's' ? "srun" : "mpirun";
			for (i++; i < f->n; i++) {
				const char *o = f->v[i].text, *v = NULL, *eq;
				const struct field *vf = NULL;
				struct field tmp;
				size_t on;

				if (o[0] != '-')
					break;
				eq = strchr(o, '=');
				on = eq ? (size_t)(eq - o) : strlen(o);
				if (eq) {
					v = eq + 1;
					tmp.text = (char *)v;
					tmp.known = f->v[i].known;
					vf = &tmp;
				} else if (o[1] != '-' && o[2]) {
					tmp.text = (char *)o + 2;   /* -N4 */
					tmp.known = f->v[i].known;
					vf = &tmp;
					on = 2;
				} else if (i + 1 < f->n && f->v[i + 1].text[0] != '-' &&
				           !is_python(base_of(f->v[i + 1].text)) && strcmp(base_of(f->v[i + 1].text), "torchrun") &&
				           (o[1] != '-' || strncmp(o, "--export", 8))) {
					/* options of srun/mpirun mostly take a value */
					vf = &f->v[++i];
				}
				if (!vf)
					continue;
				if ((on == 2 && !strncmp(o, "-N", 2)) || (on == 7 && !strncmp(o, "--nodes", 7)))
					wr.nodes = count_of(vf);
				else if ((on == 2 && !strncmp(o, "-n", 2)) || (on == 8 && !strncmp(o, "--ntasks", 8)) ||
				         (on == 3 && !strncmp(o, "-np", 3)))
					wr.ntasks = count_of(vf);
				else if (on == 17 && !strncmp(o, "--ntasks-per-node", 17))
					wr.ntasks_per_node = count_of(vf);
			}
			continue;
		}
		break;
	}
	if (i >= f->n)
		return;
	{
		const char *b = base_of(f->v[i].text);

		if (is_python(b)) {
			/* python [opts] script | -m module */
			for (i++; i < f->n; i++) {
				const char *t = f->v[i].text;
				size_t j;

				if (!strcmp(t, "-m") && i + 1 < f->n) {
					const char *m = f->v[i + 1].text;

					if (!strcmp(m, "torch.distributed.run") || !strcmp(m, "torch.distributed.launch")) {
						launcher = !strcmp(m, "torch.distributed.run") ? "torchrun" : "torch.distributed.launch";
						rules = torchrun_opts;
						i += 2;
						break;
					}
					if (!strcmp(m, "deepspeed.launcher.runner")) {
						launcher = "deepspeed";
						rules = deepspeed_opts;
						i += 2;
						break;
					}
					if (!strcmp(m, "accelerate.commands.launch")) {
						launcher = "accelerate";
						rules = accelerate_opts;
						i += 2;
						break;
					}
					launcher = "python";
					module = 1;
					i++;
					break;
				}
				if (!strcmp(t, "-c"))
					return;   /* inline code: no script */
				if (t[0] != '-' || !t[1]) {
					launcher = "python";
					break;
				}
				for (j = 0; python_value_opts[j]; j++)
					if (!strcmp(t, python_value_opts[j]))
						i++;
			}
		} else {
			size_t k;

			for (k = 0; k < sizeof launcher_cmds / sizeof launcher_cmds[0]; k++)
				if (!strcmp(b, launcher_cmds[k].cmd) &&
				    (!launcher_cmds[k].sub || (i + 1 < f->n && !strcmp(f->v[i + 1].text, launcher_cmds[k].sub)))) {
					launcher = launcher_cmds[k].cmd;
					rules = launcher_cmds[k].rules;
					i += launcher_cmds[k].sub ? 2 : 1;
					break;
				}
		}
	}
	if (!launcher)
		return;
	/* the launcher's own options */
	if (rules) {
		for (; i < f->n; i++) {
			const char *t = f->v[i].text, *eq;
			const struct opt_rule *r;
			const struct field *vf = NULL;
			struct field tmp;
			size_t n;

			if (t[0] != '-' || !t[1] || !strcmp(t, "--")) {
				if (!strcmp(t, "--"))
					i++;
				break;
			}
			eq = strchr(t, '=');
			n = eq ? (size_t)(eq - t) : strlen(t);
			r = opt_lookup(rules, t, n);
			if (eq) {
				tmp.text = (char *)eq + 1;
				tmp.known = f->v[i].known;
				vf = &tmp;
			} else if (r ? r->takes_value : (i + 1 < f->n && f->v[i + 1].text[0] != '-' &&
			                                   !strstr(f->v[i + 1].text, ".py"))) {
				if (i + 1 < f->n)
					vf = &f->v[++i];
			}
			if (!r)
				continue;
			switch (r->role) {
			case ROLE_NPROC:
				nproc = count_of(vf);
				nproc_seen = 1;
				free(nproc_text);
				nproc_text = vf ? xstrdup(vf->text) : NULL;
				break;
			case ROLE_NNODES:
				nnodes_seen = 1;
				if (vf && vf->known && strchr(vf->text, ':')) {
					/* MIN:MAX: one number only when both are */
					char *c = strchr(vf->text, ':');
					long a = strtol(vf->text, NULL, 10), b2 = strtol(c + 1, NULL, 10);

					nnodes = a > 0 && a == b2 ? a : -1;
				} else {
					nnodes = count_of(vf);
				}
				break;
			case ROLE_TOTAL:
				total = count_of(vf);
				break;
			case ROLE_MODULE:
				module = 1;
				break;
			case ROLE_STANDALONE:
				standalone = 1;
				break;
			case ROLE_GPUS:
				L.machine = INTERP_MACHINE_CUDA;
				break;
			case ROLE_CPU:
				L.machine = INTERP_MACHINE_CPU;
				break;
			}
		}
	}
	if (i >= f->n) {
		free(nproc_text);
		return;
	}
	/* the script or module, then the job's arguments */
	if (module)
		L.module = xstrdup(f->v[i].text);
	else
		L.script = xstrdup(f->v[i].text);
	if (!f->v[i].known) {
		/* the script itself is not known: no job can be named */
		free(L.module);
		free(L.script);
		free(nproc_text);
		return;
	}
	L.argv = args_from(f, i + 1, f->n, &L.argc);
	L.command = args_from(f, 0, f->n, &L.ncommand);
	L.line = line;
	L.end_line = end_line;
	L.launcher = launcher;
	L.wrapper = wr.name;
	L.condition = cond;
	L.nproc_per_node = L.nnodes = L.world = -1;
	/* how many processes */
	if (!strcmp(launcher, "python")) {
		long nodes = wr.nodes > 0 ? wr.nodes : s->sb.nodes;
		long tpn = wr.ntasks_per_node > 0 ? wr.ntasks_per_node : s->sb.ntasks_per_node;
		long tasks = wr.ntasks > 0 ? wr.ntasks : s->sb.ntasks;

		if (!wr.name) {
			L.world = 1;
			L.nproc_per_node = L.nnodes = 1;
			L.world_source = xstrdup("one python process");
		} else if (tasks > 0) {
			L.world = tasks;
			L.world_source = xasprintf("%s tasks (%s)", wr.name, wr.ntasks > 0 ? "its -n" : "#SBATCH --ntasks");
		} else if (nodes > 0 && tpn > 0) {
			L.world = nodes * tpn;
			L.nnodes = nodes;
			L.nproc_per_node = tpn;
			L.world_source = xasprintf("%s: nodes x tasks per node", wr.name);
		} else {
			L.world_reason = xasprintf("the number of %s tasks is not in the launcher", wr.name);
		}
	} else if (total > 0) {
		L.world = total;
		L.world_source = xstrdup("--num_processes");
	} else {
		const char *dflt_reason = NULL;

		if (!nproc_seen) {
			if (!strcmp(launcher, "torchrun") || !strcmp(launcher, "torch.distributed.launch"))
				nproc = 1;   /* torchrun's default */
			else if (!strcmp(launcher, "deepspeed"))
				dflt_reason = "deepspeed starts one process per visible GPU (no --num_gpus)";
			else if (!strcmp(launcher, "accelerate"))
				dflt_reason = "accelerate takes the process count from its config file (no --num_processes)";
			else
				dflt_reason = "composer starts one process per visible GPU (no -n)";
		}
		if (!nnodes_seen) {
			if (standalone || (wr.nodes < 0 && s->sb.nodes < 0))
				nnodes = 1;
			else
				nnodes = wr.nodes > 0 ? wr.nodes : s->sb.nodes;
		}
		L.nproc_per_node = nproc;
		L.nnodes = nnodes;
		if (nproc > 0 && nnodes > 0) {
			L.world = nproc * nnodes;
			L.world_source = xasprintf("%s x %s", nproc_seen ? "processes per node" : "one process per node (default)",
			                           nnodes_seen ? "nodes" : "one node (default)");
		} else if (dflt_reason) {
			L.world_reason = xstrdup(dflt_reason);
		} else if (nproc_seen && nproc < 0) {
			L.world_reason = xasprintf("processes per node '%s' are the machine's (not a number here)",
			                           nproc_text ? nproc_text : "");
		} else {
			L.world_reason = xstrdup("the number of nodes is not a literal number");
		}
	}
	free(nproc_text);
	GROW(s->out->v, s->out->alloc, s->out->n + 1);
	s->out->v[s->out->n++] = L;
}

/* ------------------------------------------------------------ tests */

/* `[ ... ]`, `[[ ... ]]` or `test ...` on fields [from, to): decided when
 * every field is known and the form is one of -n -z = == != -eq -ne -lt
 * -le -gt -ge, possibly under `!`. */
/* test's integer comparisons: [ X -eq Y ] and the others. */
static int int_eq(long x, long y) { return x == y; }
static int int_ne(long x, long y) { return x != y; }
static int int_lt(long x, long y) { return x < y; }
static int int_le(long x, long y) { return x <= y; }
static int int_gt(long x, long y) { return x > y; }
static int int_ge(long x, long y) { return x >= y; }

static const struct {
	const char *op;
	int (*fn)(long x, long y);
} int_tests[] = {
	{ "-eq", int_eq }, { "-ne", int_ne }, { "-lt", int_lt }, { "-le", int_le }, { "-gt", int_gt }, { "-ge", int_ge },
};

static enum tri sh_test(const struct fields *f, size_t from, size_t to)
{
	int neg = 0;
	size_t n, i, k;
	const struct field *a;

	if (from >= to)
		return T_UNKNOWN;
	if (!strcmp(f->v[from].text, "!")) {
		neg = 1;
		from++;
	}
	if (from >= to)
		return T_UNKNOWN;
	if (!strcmp(f->v[from].text, "[") || !strcmp(f->v[from].text, "[[")) {
		const char *close = f->v[from].text[1] ? "]]" : "]";

		if (strcmp(f->v[to - 1].text, close))
			return T_UNKNOWN;
		from++;
		to--;
	} else if (!strcmp(f->v[from].text, "test")) {
		from++;
	} else {
		return T_UNKNOWN;
	}
	if (from < to && !strcmp(f->v[from].text, "!")) {
		neg = !neg;
		from++;
	}
	for (i = from; i < to; i++)
		if (!f->v[i].known)
			return T_UNKNOWN;
	n = to - from;
	a = &f->v[from];
	{
		int r = -1;

		if (n == 1)
			r = a[0].text[0] != 0;
		else if (n == 2 && !strcmp(a[0].text, "-n"))
			r = a[1].text[0] != 0;
		else if (n == 2 && !strcmp(a[0].text, "-z"))
			r = a[1].text[0] == 0;
		else if (n == 3 && (!strcmp(a[1].text, "=") || !strcmp(a[1].text, "==")))
			r = !strchr(a[2].text, '*') && !strchr(a[2].text, '?') ? !strcmp(a[0].text, a[2].text) : -1;
		else if (n == 3 && !strcmp(a[1].text, "!="))
			r = !strchr(a[2].text, '*') && !strchr(a[2].text, '?') ? strcmp(a[0].text, a[2].text) != 0 : -1;
		else if (n == 3 && a[1].text[0] == '-') {
			char *e1, *e2;
			long x = strtol(a[0].text, &e1, 10), y = strtol(a[2].text, &e2, 10);

			if (*e1 || *e2 || !*a[0].text || !*a[2].text)
				return T_UNKNOWN;
			for (k = 0; k < sizeof int_tests / sizeof int_tests[0]; k++)
				if (!strcmp(a[1].text, int_tests[k].op)) {
					r = int_tests[k].fn(x, y);
					break;
				}
		}
		if (r < 0)
			return T_UNKNOWN;
		return (r ^ neg) ? T_TRUE : T_FALSE;
	}
}

static enum tri tri_and(enum tri a, enum tri b)
{
	if (a == T_FALSE || b == T_FALSE)
		return T_FALSE;
	return a == T_TRUE && b == T_TRUE ? T_TRUE : T_UNKNOWN;
}

static enum tri tri_or(enum tri a, enum tri b)
{
	if (a == T_TRUE || b == T_TRUE)
		return T_TRUE;
	return a == T_FALSE && b == T_FALSE ? T_FALSE : T_UNKNOWN;
}

static char *trimmed(const char *p, const char *e)
{
	while (p < e && isspace((unsigned char)*p))
		p++;
	while (e > p && (isspace((unsigned char)e[-1]) || e[-1] == ';'))
		e--;
	return xstrndup(p, (size_t)(e - p));
}

/* ------------------------------------------------------------ commands */

/* An assignment word NAME=... at fields level is not enough (arrays,
 * quoting): it is read from the source text. */
static int sh_is_assignment(const char *ws, const char *we, size_t *name_len)
{
	const char *p = ws;

	if (p >= we || !name_start((unsigned char)*p))
		return 0;
	while (p < we && name_char((unsigned char)*p))
		p++;
	if (p + 1 < we && *p == '+' && p[1] == '=') {
		*name_len = (size_t)(p - ws);
		return 2;   /* += */
	}
	if (p < we && *p == '=') {
		*name_len = (size_t)(p - ws);
		return 1;
	}
	return 0;
}

/* export, declare, local, readonly, typeset: their NAME=value words are
 * assignments. */
static int is_declaring(const char *ws, const char *we)
{
	static const char *const names[] = { "export", "declare", "local", "readonly", "typeset", NULL };
	size_t i, n = (size_t)(we - ws);

	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !memcmp(ws, names[i], n))
			return 1;
	return 0;
}

/* Apply one assignment (text [ws, we), or an array when *array_open). */
static void sh_assign(struct sh *s, const char *ws, const char *we, size_t nl, int append, enum tri live,
                      const struct fields *array)
{
	struct var *v, *old;
	const char *val = ws + nl + (append ? 2 : 1);

	if (live == T_FALSE)
		return;
	old = var_find(s, ws, nl);
	if (array) {
		struct fields keep = { 0 };

		if (append && old && old->is_array)
			fields_copy(&keep, &old->arr);
		v = var_make(s, ws, nl);
		if (!v) {
			fields_free(&keep);
			return;
		}
		v->is_array = 1;
		v->arr = keep;
		fields_copy(&v->arr, array);
		v->known = live == T_TRUE;
		if (live != T_TRUE) {
			size_t i;

			for (i = 0; i < v->arr.n; i++)
				v->arr.v[i].known = 0;
		}
		return;
	}
	{
		int known;
		char *x = sh_expand_string(s, val, we, 0, &known);

		if (append && old && !old->is_array && old->value) {
			char *y = xasprintf("%s%s", old->value, x);

			known &= old->known;
			free(x);
			x = y;
		}
		v = var_make(s, ws, nl);
		if (!v) {
			free(x);
			return;
		}
		if (live != T_TRUE) {
			/* maybe assigned: the text, not a value */
			free(x);
			x = xstrndup(ws, (size_t)(we - ws));
			known = 0;
		}
		v->value = x;
		v->known = known;
	}
}

/* Control words at the start of a command, one small function each (the
 * table controls[] below).  Each returns as sh_control() does: how many
 * fields the word consumed (then the rest of the command is read as
 * usual), or -1 when the whole command was the control word's. */
typedef int ctl_fn(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd);

/* The condition's text: the command after its keyword. */
static const char *cond_start(const char *cs, const char *ce, const char *w)
{
	while (cs < ce && isspace((unsigned char)*cs))
		cs++;
	return cs + strlen(w);
}

static int ctl_if(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	enum tri t = sh_test(f, 1, f->n);

	frame_push(s, F_IF, t, trimmed(cond_start(cs, ce, f->v[0].text), ce));
	if (s->depth && !s->overflow)
		s->fr[s->depth - 1].awaiting_then = 1;
	*cond_cmd = 1;
	return -1;
}

static int ctl_elif(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	enum tri t = sh_test(f, 1, f->n);
	struct frame *fr;

	if (!s->depth || s->fr[s->depth - 1].kind != F_IF || s->overflow)
		return -1;
	fr = &s->fr[s->depth - 1];
	fr->taken = tri_or(fr->taken, fr->state);
	if (fr->cond) {
		char *a = fr->all_conds ? xasprintf("%s or %s", fr->all_conds, fr->cond) : xstrdup(fr->cond);

		free(fr->all_conds);
		fr->all_conds = a;
	}
	free(fr->cond);
	fr->cond = trimmed(cond_start(cs, ce, f->v[0].text), ce);
	fr->state = fr->taken == T_TRUE ? T_FALSE : fr->taken == T_UNKNOWN ? tri_and(T_UNKNOWN, t) : t;
	if (fr->taken == T_UNKNOWN && t != T_FALSE)
		fr->state = T_UNKNOWN;
	fr->awaiting_then = 1;
	*cond_cmd = 1;
	return -1;
}

static int ctl_while(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)cs;
	(void)ce;
	frame_push(s, F_LOOP, T_UNKNOWN, xasprintf("in a `%s` loop", f->v[0].text));
	if (s->depth && !s->overflow)
		s->fr[s->depth - 1].awaiting_then = 1;   /* until `do` */
	*cond_cmd = 1;
	return -1;
}

static int ctl_then(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	if (s->depth && !s->overflow)
		s->fr[s->depth - 1].awaiting_then = 0;
	return 1;
}

static int ctl_else(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	struct frame *fr;

	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	if (!s->depth || s->fr[s->depth - 1].kind != F_IF || s->overflow)
		return 1;
	fr = &s->fr[s->depth - 1];
	fr->taken = tri_or(fr->taken, fr->state);
	if (fr->cond) {
		char *a = fr->all_conds ? xasprintf("%s or %s", fr->all_conds, fr->cond) : xstrdup(fr->cond);

		free(fr->all_conds);
		fr->all_conds = a;
	}
	free(fr->cond);
	fr->cond = fr->all_conds ? xasprintf("not (%s)", fr->all_conds) : NULL;
	fr->state = fr->taken == T_TRUE ? T_FALSE : fr->taken == T_FALSE ? T_TRUE : T_UNKNOWN;
	return 1;
}

static int ctl_fi(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	frame_pop(s, F_IF);
	return 1;
}

static int ctl_done(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	frame_pop(s, F_LOOP);
	return 1;
}

static int ctl_for(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	char *c = f->n > 1 ? xasprintf("in a `for %s` loop", f->v[1].text) : xstrdup("in a `for` loop");

	(void)cs, (void)ce, (void)cond_cmd;
	frame_push(s, F_LOOP, T_UNKNOWN, c);
	if (f->n > 1 && name_start((unsigned char)f->v[1].text[0])) {
		struct var *v = var_make(s, f->v[1].text, strlen(f->v[1].text));

		if (v) {
			v->value = xstrdup(f->v[1].text);
			v->known = 0;
		}
	}
	return -1;
}

static int ctl_case(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	frame_push(s, F_CASE, T_UNKNOWN, xstrdup("in a `case` arm"));
	return -1;
}

static int ctl_esac(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	frame_pop(s, F_CASE);
	return 1;
}

static int ctl_function(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)cs, (void)ce, (void)cond_cmd;
	frame_push(s, F_FUNC, T_UNKNOWN,
	           f->n > 1 ? xasprintf("in function %s", f->v[1].text) : xstrdup("in a function"));
	return -1;
}

static int ctl_open(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	frame_push(s, F_GROUP, T_TRUE, NULL);
	return 1;
}

static int ctl_close(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	(void)f, (void)cs, (void)ce, (void)cond_cmd;
	if (s->depth && !s->overflow && s->fr[s->depth - 1].kind == F_FUNC)
		frame_pop(s, F_FUNC);
	else
		frame_pop(s, F_GROUP);
	return 1;
}

static const struct {
	const char *word;
	ctl_fn *fn;
} controls[] = {
	{ "if", ctl_if }, { "elif", ctl_elif }, { "while", ctl_while }, { "until", ctl_while },
	{ "then", ctl_then }, { "do", ctl_then }, { "else", ctl_else }, { "fi", ctl_fi },
	{ "done", ctl_done }, { "for", ctl_for }, { "select", ctl_for }, { "case", ctl_case },
	{ "esac", ctl_esac }, { "function", ctl_function }, { "{", ctl_open }, { "}", ctl_close },
};

static int sh_control(struct sh *s, struct fields *f, const char *cs, const char *ce, int *cond_cmd)
{
	size_t i;

	if (!f->n || !f->v[0].known)
		return 0;
	for (i = 0; i < sizeof controls / sizeof controls[0]; i++)
		if (!strcmp(f->v[0].text, controls[i].word))
			return controls[i].fn(s, f, cs, ce, cond_cmd);
	return 0;
}

/* The words that run test(1): [ ... ], [[ ... ]], test ... */
static int is_test_word(const char *w)
{
	static const char *const words[] = { "[", "[[", "test" };
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(w, words[i]))
			return 1;
	return 0;
}

/* Read the whole text, one command at a time. */
static void sh_run(struct sh *s)
{
	enum tri prev = T_TRUE;   /* the result of the command before && / || */
	enum tok joined = TK_SEP; /* how this command is joined to the previous one */
	int at_line_start = 1;

	while (!s->stopped) {
		struct fields f = { 0 };
		const char *cs = NULL, *ce = NULL, *ws = NULL, *we = NULL;
		size_t line = 0, end_line = 0;
		enum tok t;
		int cond_cmd = 0, skip, all_assign = 1, nwords = 0, func_def = 0;
		enum tri result = T_TRUE, live;
		struct {
			const char *ws, *we;
			size_t nl;
			int append;
			struct fields arr;
			int is_array;
		} asg[32];
		size_t nasg = 0, ai;

		/* the words of one simple command */
		for (;;) {
			const char *save = s->p;
			size_t save_line = s->line;

			t = sh_token(s, at_line_start, &ws, &we);
			at_line_start = 0;
			if (t != TK_WORD) {
				if (t == TK_REDIR) {
					/* its target word is not an argument */
					const char *a, *b;
					enum tok t2 = sh_token(s, 0, &a, &b);

					if (t2 != TK_WORD) {
						s->p = save;
						s->line = save_line;
						/* an operator after a redirection: read it next */
						t = sh_token(s, 0, &ws, &we);
						if (t == TK_REDIR)
							continue;
					} else {
						continue;
					}
				}
				if (t == TK_OPEN && nwords == 1 && f.n == 1 && s->p < s->end && *s->p == ')') {
					/* name() { ... }: a function definition */
					s->p++;
					func_def = 1;
					continue;
				}
				break;
			}
			if (!cs) {
				cs = ws;
				line = s->line;
			}
			ce = we;
			end_line = s->line;
			nwords++;
			{
				size_t nl = 0;
				int kind = all_assign ? sh_is_assignment(ws, we, &nl) : 0;

				if (kind && nasg < 32) {
					/* an assignment: NAME=value, NAME+=value, NAME=( ... ) */
					asg[nasg].ws = ws;
					asg[nasg].we = we;
					asg[nasg].nl = nl;
					asg[nasg].append = kind == 2;
					asg[nasg].is_array = 0;
					memset(&asg[nasg].arr, 0, sizeof asg[nasg].arr);
					if (we == ws + nl + kind && s->p < s->end && *s->p == '(') {
						/* an array: the words up to ')' */
						const char *a, *b;
						enum tok t2;

						s->p++;
						asg[nasg].is_array = 1;
						for (;;) {
							t2 = sh_token(s, 1, &a, &b);
							if (t2 == TK_CLOSE || t2 == TK_END)
								break;
							if (t2 == TK_WORD) {
								struct wb w;
								struct fields ef;

								wb_init(&w);
								sh_word_text(s, a, b, 0, 0, &w);
								wb_done(&w, &ef);
								{
									size_t i;

									for (i = 0; i < ef.n; i++) {
										fields_push(&asg[nasg].arr, ef.v[i].text, ef.v[i].known);
										ef.v[i].text = NULL;
									}
								}
								fields_free(&ef);
							}
						}
						ce = s->p;
					}
					nasg++;
					/* `export X=1`-style and plain prefixes both land here */
					fields_push(&f, xstrndup(ws, (size_t)(we - ws)), 1);
					continue;
				}
				if (all_assign && nwords == 1 + (int)nasg && f.n == nasg && is_declaring(ws, we)) {
					/* the builtin itself; its NAME=value words are assignments */
					fields_push(&f, xstrndup(ws, (size_t)(we - ws)), 1);
					continue;
				}
			}
			all_assign = 0;
			{
				struct wb w;
				struct fields ef;
				size_t i;

				wb_init(&w);
				sh_word_text(s, ws, we, 0, 0, &w);
				wb_done(&w, &ef);
				for (i = 0; i < ef.n; i++) {
					fields_push(&f, ef.v[i].text, ef.v[i].known);
					ef.v[i].text = NULL;
				}
				fields_free(&ef);
			}
		}
		live = sh_live(s);
		/* && and ||: the previous command's result decides this one */
		if (joined == TK_AND && prev == T_FALSE)
			live = T_FALSE;
		else if (joined == TK_OR && prev == T_TRUE)
			live = T_FALSE;
		else if ((joined == TK_AND || joined == TK_OR) && prev == T_UNKNOWN && live == T_TRUE)
			live = T_UNKNOWN;

		skip = 0;
		if (func_def) {
			/* name() { ...: the body is a function's, closed by its `}` */
			size_t drop = f.n > 1 && !strcmp(f.v[1].text, "{") ? 2 : 1, i;

			frame_push(s, F_FUNC, T_UNKNOWN, xasprintf("in function %s", f.n ? f.v[0].text : "?"));
			for (i = 0; i < drop && i < f.n; i++)
				free(f.v[i].text);
			drop = drop < f.n ? drop : f.n;
			memmove(f.v, f.v + drop, (f.n - drop) * sizeof *f.v);
			f.n -= drop;
			live = sh_live(s);
		}
		if (f.n && nasg == 0) {
			int c = sh_control(s, &f, cs, ce, &cond_cmd);

			if (c < 0) {
				skip = 1;
			} else if (c > 0) {
				/* then/do/else/fi/{...: the rest is a command of its own */
				size_t i;

				for (i = 0; i < (size_t)c; i++)
					free(f.v[i].text);
				memmove(f.v, f.v + c, (f.n - (size_t)c) * sizeof *f.v);
				f.n -= (size_t)c;
				live = sh_live(s);
				while (f.n) {
					int c2 = sh_control(s, &f, cs, ce, &cond_cmd);

					if (c2 <= 0) {
						skip = c2 < 0;
						break;
					}
					for (i = 0; i < (size_t)c2; i++)
						free(f.v[i].text);
					memmove(f.v, f.v + c2, (f.n - (size_t)c2) * sizeof *f.v);
					f.n -= (size_t)c2;
					live = sh_live(s);
				}
			}
		}
		/* the condition of an if/elif joined by && / || */
		if (!skip && f.n && s->depth && !s->overflow && s->fr[s->depth - 1].awaiting_then &&
		    (joined == TK_AND || joined == TK_OR)) {
			struct frame *fr = &s->fr[s->depth - 1];
			enum tri t2 = sh_test(&f, 0, f.n);

			if (fr->kind == F_IF)
				fr->state = joined == TK_AND ? tri_and(fr->state, t2) : tri_or(fr->state, t2);
			if (cs && ce && fr->cond) {
				char *c2 = trimmed(cs, ce);
				char *n = xasprintf("%s %s %s", fr->cond, joined == TK_AND ? "&&" : "||", c2);

				free(fr->cond);
				fr->cond = n;
				free(c2);
			}
			skip = 1;
		}
		if (!skip && f.n) {
			if (nasg && f.n == nasg) {
				/* only assignments: they set the launcher's variables */
				for (ai = 0; ai < nasg; ai++)
					sh_assign(s, asg[ai].ws, asg[ai].we, asg[ai].nl, asg[ai].append, live,
					          asg[ai].is_array ? &asg[ai].arr : NULL);
			} else if (f.v[0].known && is_declaring(f.v[0].text, f.v[0].text + strlen(f.v[0].text))) {
				for (ai = 0; ai < nasg; ai++)
					sh_assign(s, asg[ai].ws, asg[ai].we, asg[ai].nl, asg[ai].append, live,
					          asg[ai].is_array ? &asg[ai].arr : NULL);
			} else if (f.v[0].known && !strcmp(f.v[0].text, "exit") && live == T_TRUE && !s->depth) {
				s->stopped = 1;
			} else if (f.v[0].known && !strcmp(f.v[0].text, "shift") && live == T_TRUE && s->have_pos) {
				long k = f.n > 1 ? parse_count(f.v[1].text) : 1;

				if (k > 0 && (size_t)k <= s->npos) {
					s->pos += k;
					s->npos -= (size_t)k;
				}
			} else if (live != T_FALSE) {
				char *cond = live == T_UNKNOWN ? sh_condition(s) : NULL;

				if (live == T_UNKNOWN && !cond && (joined == TK_AND || joined == TK_OR))
					cond = xstrdup("after an undecided && or ||");
				if (live == T_UNKNOWN && !cond)
					cond = xstrdup("undecided");
				sh_launch(s, &f, line, end_line, cond);
				/* sh_launch took cond when it made a launch */
				if (!s->out->n || s->out->v[s->out->n - 1].condition != cond)
					free(cond);
			}
			if (!cond_cmd)  /* a test's outcome; any other command succeeds */
				result = is_test_word(f.v[0].text) ? sh_test(&f, 0, f.n) : T_TRUE;
		}
		for (ai = 0; ai < nasg; ai++)
			fields_free(&asg[ai].arr);
		fields_free(&f);
		if (t == TK_END)
			break;
		if (t == TK_AND || t == TK_OR) {
			prev = (joined == TK_AND && prev == T_FALSE) || (joined == TK_OR && prev == T_TRUE) ? prev : result;
			joined = t;
		} else {
			prev = T_TRUE;
			joined = TK_SEP;
			at_line_start = s->p > s->start && s->p[-1] == '\n';
		}
		if (t == TK_CLOSE || t == TK_OPEN)
			at_line_start = 0;
	}
}

void launcher_scan(const char *text, size_t len, const char *const *positional, size_t npos,
                   int have_positional, struct launch_list *out)
{
	struct sh s;
	size_t i;

	memset(&s, 0, sizeof s);
	s.start = s.p = text;
	s.end = text + len;
	s.line = 1;
	s.pos = positional;
	s.npos = have_positional ? npos : 0;
	s.have_pos = have_positional;
	s.sb.nodes = s.sb.ntasks = s.sb.ntasks_per_node = s.sb.gpus_per_node = -1;
	s.out = out;
	sh_run(&s);
	for (i = 0; i < s.nvars; i++) {
		free(s.vars[i].name);
		free(s.vars[i].value);
		fields_free(&s.vars[i].arr);
	}
	free(s.vars);
	while (s.depth) {
		s.depth--;
		free(s.fr[s.depth].cond);
		free(s.fr[s.depth].all_conds);
	}
	free(s.heredoc);
}

const struct launch *launch_at(const struct launch_list *l, size_t line)
{
	size_t i;

	if (!line)
		return l->n == 1 ? &l->v[0] : NULL;
	for (i = 0; i < l->n; i++)
		if (l->v[i].line <= line && line <= l->v[i].end_line)
			return &l->v[i];
	return NULL;
}

static void args_free(struct launch_arg *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i].text);
	free(a);
}

void launch_list_free(struct launch_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct launch *L = &l->v[i];

		free(L->script);
		free(L->module);
		args_free(L->argv, L->argc);
		args_free(L->command, L->ncommand);
		free(L->world_source);
		free(L->world_reason);
		free(L->condition);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
