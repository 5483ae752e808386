/* Python's re on known strings: re.split, re.sub, re.subn, re.findall,
 * re.fullmatch/match/search (whether there is a match) and re.escape,
 * with a pattern and a subject both known.
 *
 * The engine is a backtracking one, as CPython's sre: a pattern is parsed
 * to a tree, compiled to a small program (a character set, any, split
 * with the preferred branch first, jump, save, assertions, match) and run
 * depth first, so a greedy or lazy quantifier and an alternation pick
 * what sre picks (the first match in priority order, not POSIX's
 * longest).  What it does not emulate leaves the result unknown, never a
 * guess: flags other than 0, lookarounds, backreferences, named groups,
 * inline flags, conditionals, possessive and atomic forms, a non-ASCII
 * pattern or subject (\d, \w and case differ there), a repl that is not
 * a str or names a group by name, a run past its step or depth bound (an
 * empty body repeated: sre stops such a loop, this engine gives up). */
#include "internal.h"

#include <string.h>

enum { RN_SET, RN_ANY, RN_CAT, RN_ALT, RN_REP, RN_GROUP, RN_BOL, RN_EOL, RN_WB, RN_NWB, RN_BOS, RN_EOS };

struct rnode {
	int k;
	unsigned char set[32];
	struct rnode **kids;
	int nkids;
	int min, max, greedy;   /* RN_REP: max -1 is no bound */
	int group;              /* RN_GROUP: its number, 0 for (?:...) */
};

enum { RI_SET, RI_ANY, RI_SPLIT, RI_JMP, RI_SAVE, RI_MATCH, RI_BOL, RI_EOL, RI_WB, RI_NWB, RI_BOS, RI_EOS };

struct rinst {
	int op, x, y;
	const unsigned char *set;
};

struct rx {
	const char *p;          /* the pattern, being parsed */
	int bad;
	int ngroups;
	struct rnode **nodes;   /* everything allocated, to free */
	size_t nn, nalloc;
	struct rinst *code;
	int ncode, alloc;
	/* a run */
	const char *s;
	int len;
	long steps;
	int depth;
	int must_advance, full, start;
	int *caps;              /* 2 per group, group 0 the whole match */
};

#define RX_MAX_STEPS 200000L
#define RX_MAX_DEPTH 4000
#define RX_MAX_CODE 4096
#define RX_MAX_GROUPS 32

static struct rnode *rnew(struct rx *r, int k)
{
	struct rnode *n = xcalloc(1, sizeof *n);

	n->k = k;
	if (r->nn == r->nalloc) {
		r->nalloc = r->nalloc ? 2 * r->nalloc : 16;
		r->nodes = xrealloc(r->nodes, r->nalloc * sizeof *r->nodes);
	}
	r->nodes[r->nn++] = n;
	return n;
}

static void radd(struct rnode *n, struct rnode *kid)
{
	n->kids = xrealloc(n->kids, (size_t)(n->nkids + 1) * sizeof *n->kids);
	n->kids[n->nkids++] = kid;
}

static void set_add(unsigned char *set, int c) { set[c >> 3] |= (unsigned char)(1u << (c & 7)); }
static int set_has(const unsigned char *set, int c) { return set[c >> 3] >> (c & 7) & 1; }

static int is_word(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

/* \d \w \s and their negations into set; 0 when c is none of them */
static int class_escape(unsigned char *set, int c)
{
	int i, neg = c == 'D' || c == 'W' || c == 'S', lc = c | 32;

	if (lc != 'd' && lc != 'w' && lc != 's')
		return 0;
	for (i = 0; i < 128; i++) {
		int in = lc == 'd' ? (i >= '0' && i <= '9') : lc == 'w' ? is_word(i) : is_space(i);
		if (in != neg)
			set_add(set, i);
	}
	return 1;
}

/* A one-character escape's character (\n, \., ...), or -1 when it is not
 * one this engine reads the same as Python. */
static int char_escape(const char **pp)
{
	int c = (unsigned char)**pp;

	(*pp)++;
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'a': return '\a';
	}
	if (c && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) && c < 128)
		return c;
	return -1;
}

static struct rnode *parse_alt(struct rx *r);

static struct rnode *parse_class(struct rx *r)
{
	struct rnode *n = rnew(r, RN_SET);
	int neg = 0, first = 1, i;
	unsigned char set[32];

	memset(set, 0, sizeof set);
	if (*r->p == '^')
		neg = 1, r->p++;
	for (;;) {
		int lo, hi;

		if (!*r->p || r->p[0] == '[') {   /* nested sets and [: :] warn in Python: not read */
			r->bad = 1;
			return n;
		}
		if (*r->p == ']' && !first)
			break;
		first = 0;
		if (*r->p == '\\') {
			r->p++;
			if (class_escape(set, (unsigned char)*r->p)) {
				r->p++;
				continue;
			}
			if (*r->p == 'b') {
				r->p++;
				lo = '\b';
			} else if ((lo = char_escape(&r->p)) < 0) {
				r->bad = 1;
				return n;
			}
		} else
			lo = (unsigned char)*r->p++;
		hi = lo;
		if (r->p[0] == '-' && r->p[1] && r->p[1] != ']') {
			r->p++;
			if (*r->p == '\\') {
				r->p++;
				if ((hi = char_escape(&r->p)) < 0) {
					r->bad = 1;
					return n;
				}
			} else
				hi = (unsigned char)*r->p++;
			if (hi < lo) {
				r->bad = 1;
				return n;
			}
		}
		for (i = lo; i <= hi && i < 256; i++)
			set_add(set, i);
	}
	r->p++;
	for (i = 0; i < 32; i++)
		n->set[i] = neg ? (unsigned char)~set[i] : set[i];
	if (neg)   /* ASCII only: the engine refuses other subjects anyway */
		for (i = 128; i < 256; i++)
			n->set[i >> 3] &= (unsigned char)~(1u << (i & 7));
	return n;
}

static struct rnode *parse_atom(struct rx *r)
{
	struct rnode *n;
	int c = (unsigned char)*r->p;

	if (c == '(') {
		int g = 0;

		r->p++;
		if (r->p[0] == '?') {
			if (r->p[1] != ':') {   /* lookarounds, names, flags, comments */
				r->bad = 1;
				return NULL;
			}
			r->p += 2;
		} else {
			if (++r->ngroups >= RX_MAX_GROUPS) {
				r->bad = 1;
				return NULL;
			}
			g = r->ngroups;
		}
		n = rnew(r, RN_GROUP);
		n->group = g;
		radd(n, parse_alt(r));
		if (*r->p != ')')
			r->bad = 1;
		else
			r->p++;
		return n;
	}
	if (c == '[') {
		r->p++;
		return parse_class(r);
	}
	r->p++;
	if (c == '.')
		return rnew(r, RN_ANY);
	if (c == '^')
		return rnew(r, RN_BOL);
	if (c == '$')
		return rnew(r, RN_EOL);
	if (c == '*' || c == '+' || c == '?' || c == '{' || c == ')') {   /* nothing to repeat, or a { Python reads literally */
		r->bad = 1;
		return NULL;
	}
	n = rnew(r, RN_SET);
	if (c == '\\') {
		int e = (unsigned char)*r->p;

		if (class_escape(n->set, e)) {
			r->p++;
			return n;
		}
		if (e == 'b' || e == 'B' || e == 'A' || e == 'Z') {
			r->p++;
			n->k = e == 'b' ? RN_WB : e == 'B' ? RN_NWB : e == 'A' ? RN_BOS : RN_EOS;
			return n;
		}
		if ((c = char_escape(&r->p)) < 0) {
			r->bad = 1;
			return n;
		}
	}
	set_add(n->set, c);
	return n;
}

static int parse_int(struct rx *r, int *v)
{
	int d = 0;

	*v = 0;
	while (*r->p >= '0' && *r->p <= '9' && *v < 100000)
		*v = *v * 10 + (*r->p++ - '0'), d++;
	return d;
}

static struct rnode *parse_seq(struct rx *r)
{
	struct rnode *cat = rnew(r, RN_CAT);

	while (!r->bad && *r->p && *r->p != '|' && *r->p != ')') {
		struct rnode *a = parse_atom(r), *q;
		int min, max;

		if (r->bad)
			break;
		if (*r->p == '*')
			min = 0, max = -1, r->p++;
		else if (*r->p == '+')
			min = 1, max = -1, r->p++;
		else if (*r->p == '?')
			min = 0, max = 1, r->p++;
		else if (*r->p == '{') {
			const char *save = r->p;

			r->p++;
			if (!parse_int(r, &min)) {
				r->bad = 1;   /* {,n} and a literal { */
				(void)save;
				break;
			}
			max = min;
			if (*r->p == ',') {
				r->p++;
				if (!parse_int(r, &max))
					max = -1;
			}
			if (*r->p != '}' || (max >= 0 && max < min) || min > 1000 || max > 1000) {
				r->bad = 1;
				break;
			}
			r->p++;
		} else {
			radd(cat, a);
			continue;
		}
		if (a->k == RN_BOL || a->k == RN_EOL || a->k == RN_WB || a->k == RN_NWB || a->k == RN_BOS || a->k == RN_EOS) {
			r->bad = 1;
			break;
		}
		q = rnew(r, RN_REP);
		q->min = min, q->max = max, q->greedy = 1;
		if (*r->p == '?')
			q->greedy = 0, r->p++;
		if (*r->p == '*' || *r->p == '+' || *r->p == '?' || *r->p == '{') {   /* possessive, multiple repeat */
			r->bad = 1;
			break;
		}
		radd(q, a);
		radd(cat, q);
	}
	return cat;
}

static struct rnode *parse_alt(struct rx *r)
{
	struct rnode *alt = rnew(r, RN_ALT);

	radd(alt, parse_seq(r));
	while (!r->bad && *r->p == '|') {
		r->p++;
		radd(alt, parse_seq(r));
	}
	return alt;
}

static int rx_emit(struct rx *r, int op, int x, int y, const unsigned char *set)
{
	if (r->ncode >= RX_MAX_CODE) {
		r->bad = 1;
		return r->ncode - 1;
	}
	if (r->ncode == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 64;
		r->code = xrealloc(r->code, (size_t)r->alloc * sizeof *r->code);
	}
	r->code[r->ncode].op = op, r->code[r->ncode].x = x, r->code[r->ncode].y = y, r->code[r->ncode].set = set;
	return r->ncode++;
}

static void rx_compile_node(struct rx *r, const struct rnode *n)
{
	int i, L1, L2, j;

	if (r->bad)
		return;
	switch (n->k) {
	case RN_SET: rx_emit(r, RI_SET, 0, 0, n->set); break;
	case RN_ANY: rx_emit(r, RI_ANY, 0, 0, NULL); break;
	case RN_BOL: rx_emit(r, RI_BOL, 0, 0, NULL); break;
	case RN_EOL: rx_emit(r, RI_EOL, 0, 0, NULL); break;
	case RN_WB: rx_emit(r, RI_WB, 0, 0, NULL); break;
	case RN_NWB: rx_emit(r, RI_NWB, 0, 0, NULL); break;
	case RN_BOS: rx_emit(r, RI_BOS, 0, 0, NULL); break;
	case RN_EOS: rx_emit(r, RI_EOS, 0, 0, NULL); break;
	case RN_CAT:
		for (i = 0; i < n->nkids; i++)
			rx_compile_node(r, n->kids[i]);
		break;
	case RN_GROUP:
		if (n->group)
			rx_emit(r, RI_SAVE, 2 * n->group, 0, NULL);
		rx_compile_node(r, n->kids[0]);
		if (n->group)
			rx_emit(r, RI_SAVE, 2 * n->group + 1, 0, NULL);
		break;
	case RN_ALT: {
		int jumps[256], nj = 0;

		if (n->nkids > 256) {
			r->bad = 1;
			return;
		}
		for (i = 0; i < n->nkids; i++) {
			if (i < n->nkids - 1) {
				L1 = rx_emit(r, RI_SPLIT, 0, 0, NULL);
				r->code[L1].x = r->ncode;
				rx_compile_node(r, n->kids[i]);
				jumps[nj++] = rx_emit(r, RI_JMP, 0, 0, NULL);
				r->code[L1].y = r->ncode;
			} else
				rx_compile_node(r, n->kids[i]);
		}
		if (r->bad)
			return;
		for (j = 0; j < nj; j++)
			r->code[jumps[j]].x = r->ncode;
		break;
	}
	case RN_REP:
		for (i = 0; i < n->min; i++)
			rx_compile_node(r, n->kids[0]);
		if (n->max < 0) {
			L1 = rx_emit(r, RI_SPLIT, 0, 0, NULL);
			rx_compile_node(r, n->kids[0]);
			rx_emit(r, RI_JMP, L1, 0, NULL);
			if (r->bad)
				return;
			L2 = r->ncode;
			r->code[L1].x = n->greedy ? L1 + 1 : L2;
			r->code[L1].y = n->greedy ? L2 : L1 + 1;
		} else {
			int splits[1001], ns = 0;

			for (i = n->min; i < n->max; i++) {
				splits[ns++] = rx_emit(r, RI_SPLIT, 0, 0, NULL);
				rx_compile_node(r, n->kids[0]);
			}
			if (r->bad)
				return;
			for (j = 0; j < ns; j++) {
				r->code[splits[j]].x = n->greedy ? splits[j] + 1 : r->ncode;
				r->code[splits[j]].y = n->greedy ? r->ncode : splits[j] + 1;
			}
		}
		break;
	}
}

static void rx_free(struct rx *r)
{
	size_t i;

	for (i = 0; i < r->nn; i++) {
		free(r->nodes[i]->kids);
		free(r->nodes[i]);
	}
	free(r->nodes);
	free(r->code);
	free(r->caps);
}

static int ascii_only(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 128 || !s[i])
			return 0;
	return 1;
}

/* 0 when pattern is one this engine reads as Python does */
static int rx_compile(struct rx *r, const value_t *pat)
{
	struct rnode *root;

	memset(r, 0, sizeof *r);
	if (!ascii_only(pat->u.str.s, pat->u.str.len))
		return -1;
	r->p = pat->u.str.s;
	root = parse_alt(r);
	if (r->bad || *r->p)
		return -1;
	rx_compile_node(r, root);
	rx_emit(r, RI_MATCH, 0, 0, NULL);
	if (r->bad)
		return -1;
	r->caps = xcalloc((size_t)(2 * (r->ngroups + 1)), sizeof *r->caps);
	return 0;
}

/* 1 a match (caps set), 0 none, -1 past the bounds */
static int rx_run(struct rx *r, int pc, int sp)
{
	int ncap = 2 * (r->ngroups + 1), res;

	if (++r->depth > RX_MAX_DEPTH) {
		r->depth--;
		return -1;
	}
	for (;;) {
		const struct rinst *c = &r->code[pc];
		int a, b;

		if (++r->steps > RX_MAX_STEPS) {
			res = -1;
			break;
		}
		switch (c->op) {
		case RI_SET:
			if (sp >= r->len || !set_has(c->set, (unsigned char)r->s[sp]))
				goto fail;
			sp++, pc++;
			continue;
		case RI_ANY:
			if (sp >= r->len || r->s[sp] == '\n')
				goto fail;
			sp++, pc++;
			continue;
		case RI_BOL:
		case RI_BOS:
			if (sp != 0)
				goto fail;
			pc++;
			continue;
		case RI_EOL:
			if (sp != r->len && !(sp == r->len - 1 && r->s[sp] == '\n'))
				goto fail;
			pc++;
			continue;
		case RI_EOS:
			if (sp != r->len)
				goto fail;
			pc++;
			continue;
		case RI_WB:
		case RI_NWB:
			a = sp > 0 && is_word((unsigned char)r->s[sp - 1]);
			b = sp < r->len && is_word((unsigned char)r->s[sp]);
			if ((a != b) != (c->op == RI_WB))
				goto fail;
			pc++;
			continue;
		case RI_JMP:
			pc = c->x;
			continue;
		case RI_SAVE: {
			int old = r->caps[c->x];

			r->caps[c->x] = sp;
			res = rx_run(r, pc + 1, sp);
			if (res == 0)
				r->caps[c->x] = old;
			goto out;
		}
		case RI_SPLIT: {
			int *save = xmalloc((size_t)ncap * sizeof *save);

			memcpy(save, r->caps, (size_t)ncap * sizeof *save);
			res = rx_run(r, c->x, sp);
			if (res == 0) {
				memcpy(r->caps, save, (size_t)ncap * sizeof *save);
				free(save);
				pc = c->y;
				continue;
			}
			free(save);
			goto out;
		}
		case RI_MATCH:
			if ((r->must_advance && sp == r->start) || (r->full && sp != r->len))
				goto fail;
			r->caps[1] = sp;
			res = 1;
			goto out;
		}
	fail:
		res = 0;
		break;
	}
out:
	r->depth--;
	return res;
}

/* The first match at or after from (at from only when anchored): 1 with
 * caps set, 0 none, -1 not decided. */
static int rx_search(struct rx *r, int from, int anchored)
{
	int i, st, g;

	for (st = from; st <= r->len; st++) {
		for (g = 0; g < 2 * (r->ngroups + 1); g++)
			r->caps[g] = -1;
		r->caps[0] = st;
		r->start = from;
		r->depth = 0;
		i = rx_run(r, 0, st);
		if (i)
			return i;
		r->must_advance = 0;   /* only at the search's start */
		if (anchored)
			return 0;
	}
	return 0;
}

static value_t *group_value(struct interp *in, struct rx *r, int g)
{
	if (r->caps[2 * g] < 0 || r->caps[2 * g + 1] < 0)
		return v_none(in->a);
	return v_strn(in->a, r->s + r->caps[2 * g], (size_t)(r->caps[2 * g + 1] - r->caps[2 * g]));
}

/* count / maxsplit from a positional or keyword argument: 0 when absent,
 * -1 when not a known int */
static long long int_arg(value_t **args, size_t nargs, size_t at, struct vdict *kw, const char *name)
{
	const value_t *v = nargs > at ? args[at] : kw ? vdict_gets(kw, name) : NULL;

	if (!v)
		return 0;
	if (v->k != VK_INT || v->u.i < 0)
		return -1;
	return v->u.i;
}

static int kw_only(struct vdict *kw, const char *a, const char *b)
{
	size_t i;

	for (i = 0; kw && i < kw->n; i++) {
		const value_t *k = kw->keys[i];
		if (k->k != VK_STR || ((!a || strcmp(k->u.str.s, a)) && (!b || strcmp(k->u.str.s, b))))
			return 0;
	}
	return 1;
}

/* flags=0 only */
static int flags_zero(value_t **args, size_t nargs, size_t at, struct vdict *kw)
{
	const value_t *v = nargs > at ? args[at] : kw ? vdict_gets(kw, "flags") : NULL;

	return !v || (v->k == VK_INT && v->u.i == 0) || (v->k == VK_BOOL && !v->u.b);
}

/* repl's template expanded for the current match into b; -1 when the
 * template is one not read (a named group, an unknown escape) */
static int expand(struct rx *r, const char *t, buf_t *b)
{
	for (; *t; t++) {
		int g = -1;

		if (*t != '\\') {
			buf_addch(b, *t);
			continue;
		}
		t++;
		if (*t >= '0' && *t <= '9') {
			if (*t == '0')
				return -1;   /* octal */
			g = *t - '0';
			if (t[1] >= '0' && t[1] <= '9')
				return -1;
		} else if (*t == 'g' && t[1] == '<') {
			char *e;
			long v = strtol(t + 2, &e, 10);

			if (e == t + 2 || *e != '>')
				return -1;
			g = (int)v;
			t = e;
		} else {
			const char *q = t;
			int c;

			if (!*t)
				return -1;
			if (*t == '\\') {
				buf_addch(b, '\\');
			} else if ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z')) {
				if ((*t != 'n' && *t != 't' && *t != 'r') || (c = char_escape(&q)) < 0)
					return -1;   /* \a \b \f \v read here as not known; other letters are errors */
				buf_addch(b, (char)c);
			} else {
				buf_addch(b, '\\');
				buf_addch(b, *t);
			}
			continue;
		}
		if (g > r->ngroups || g < 0)
			return -1;
		if (r->caps[2 * g] >= 0 && r->caps[2 * g + 1] >= 0)
			buf_add(b, r->s + r->caps[2 * g], (size_t)(r->caps[2 * g + 1] - r->caps[2 * g]));
	}
	return 0;
}

static value_t *re_escape(struct frame *f, const value_t *s)
{
	buf_t b;
	value_t *v;
	size_t i;

	buf_init(&b);
	for (i = 0; i < s->u.str.len; i++) {
		char c = s->u.str.s[i];
		if (c && strchr("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", c))
			buf_addch(&b, '\\');
		buf_addch(&b, c);
	}
	charge(f, 0, s->u.str.len);
	v = v_strn(f->in->a, b.buf, b.len);
	buf_free(&b);
	return v;
}

value_t *regex_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *fn = d + 3;
	const value_t *pat, *subj, *repl = NULL;
	size_t subj_at = 1;
	long long count = 0;
	struct rx r;
	value_t *res = NULL;
	int rc = 0;

	if (strcmp(fn, "escape") && strcmp(fn, "sub") && strcmp(fn, "subn") && strcmp(fn, "split") && strcmp(fn, "findall") &&
	    strcmp(fn, "match") && strcmp(fn, "fullmatch") && strcmp(fn, "search"))
		return NULL;
	if (!strcmp(fn, "escape")) {
		if (nargs == 1 && (!kw || !kw->n) && args[0]->k == VK_STR && ascii_only(args[0]->u.str.s, args[0]->u.str.len))
			return re_escape(f, args[0]);
		return unknown_at(f, site, "re.escape() of a value not known");
	}
	if (!strcmp(fn, "sub") || !strcmp(fn, "subn")) {
		subj_at = 2;
		repl = nargs > 1 ? args[1] : NULL;
		count = int_arg(args, nargs, 3, kw, "count");
		if (!flags_zero(args, nargs, 4, kw) || !kw_only(kw, "count", "flags"))
			return unknown_at(f, site, afmt(in, "re.%s() with flags or arguments not read", fn));
	} else if (!strcmp(fn, "split")) {
		count = int_arg(args, nargs, 2, kw, "maxsplit");
		if (!flags_zero(args, nargs, 3, kw) || !kw_only(kw, "maxsplit", "flags"))
			return unknown_at(f, site, "re.split() with flags or arguments not read");
	} else if (!flags_zero(args, nargs, 2, kw) || !kw_only(kw, "flags", NULL))
		return unknown_at(f, site, afmt(in, "re.%s() with flags or arguments not read", fn));
	if (nargs <= subj_at || args[0]->k != VK_STR || args[subj_at]->k != VK_STR || count < 0 ||
	    (repl && repl->k != VK_STR))
		return unknown_at(f, site, afmt(in, "re.%s() of values not known", fn));
	pat = args[0], subj = args[subj_at];
	memset(&r, 0, sizeof r);
	if (!ascii_only(subj->u.str.s, subj->u.str.len) || subj->u.str.len > 65536 || rx_compile(&r, pat) < 0) {
		rx_free(&r);
		return unknown_at(f, site, afmt(in, "re.%s() with a pattern or string ecg does not match as Python", fn));
	}
	r.s = subj->u.str.s;
	r.len = (int)subj->u.str.len;
	charge(f, 0, subj->u.str.len + pat->u.str.len);
	if (!strcmp(fn, "match") || !strcmp(fn, "fullmatch") || !strcmp(fn, "search")) {
		r.full = fn[0] == 'f';
		rc = rx_search(&r, 0, fn[0] != 's');
		/* a match object is not emulated: only its absence is stated */
		res = rc == 0 ? v_none(in->a) : NULL;
		if (rc > 0)
			rc = -2;
	} else if (!strcmp(fn, "split") || !strcmp(fn, "findall")) {
		value_t *l = v_seq(in->a, VK_LIST, 0);
		int last = 0, pos = 0, g;
		long long n = 0;

		while ((!count || n < count) && (rc = rx_search(&r, pos, 0)) == 1) {
			if (fn[0] == 's') {
				vseq_push(in->a, l->u.seq, v_strn(in->a, r.s + last, (size_t)(r.caps[0] - last)));
				for (g = 1; g <= r.ngroups; g++)
					vseq_push(in->a, l->u.seq, group_value(in, &r, g));
			} else if (r.ngroups == 0)
				vseq_push(in->a, l->u.seq, group_value(in, &r, 0));
			else if (r.ngroups == 1)
				vseq_push(in->a, l->u.seq, r.caps[2] < 0 || r.caps[3] < 0 ? v_str(in->a, "") : group_value(in, &r, 1));
			else {
				value_t *t = v_seq(in->a, VK_TUPLE, 0);
				for (g = 1; g <= r.ngroups; g++)
					vseq_push(in->a, t->u.seq, r.caps[2 * g] < 0 || r.caps[2 * g + 1] < 0 ? v_str(in->a, "") : group_value(in, &r, g));
				vseq_push(in->a, l->u.seq, t);
			}
			n++;
			r.must_advance = r.caps[1] == r.caps[0];
			last = pos = r.caps[1];
			if (l->u.seq->n > 100000) {
				rc = -1;
				break;
			}
		}
		if (rc >= 0) {
			if (fn[0] == 's')
				vseq_push(in->a, l->u.seq, v_strn(in->a, r.s + last, (size_t)(r.len - last)));
			res = l;
		}
	} else if (!strcmp(fn, "sub") || !strcmp(fn, "subn")) {
		buf_t b;
		int i = 0, pos = 0;
		long long n = 0;

		buf_init(&b);
		while ((!count || n < count) && (rc = rx_search(&r, pos, 0)) == 1) {
			buf_add(&b, r.s + i, (size_t)(r.caps[0] - i));
			if (expand(&r, repl->u.str.s, &b) < 0 || b.len > MAX_STR_BYTES) {
				rc = -1;
				break;
			}
			i = r.caps[1];
			n++;
			r.must_advance = r.caps[1] == r.caps[0];
			pos = r.caps[1];
		}
		if (rc >= 0) {
			buf_add(&b, r.s + i, (size_t)(r.len - i));
			res = v_strn(in->a, b.buf, b.len);
			if (fn[3] == 'n') {
				value_t *t = v_seq(in->a, VK_TUPLE, 2);
				vseq_push(in->a, t->u.seq, res);
				vseq_push(in->a, t->u.seq, v_int(in->a, n));
				res = t;
			}
		}
		buf_free(&b);
	} else
		rc = -2;
	rx_free(&r);
	if (rc == -2)
		return NULL;
	if (!res)
		return unknown_at(f, site, afmt(in, "re.%s() past the bounds of ecg's matcher", fn));
	return res;
}
