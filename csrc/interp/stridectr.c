/*
 * stridectr.c -- a periodic test on a counter the job loop advances by a
 * known stride every pass.
 *
 * A training loop that counts images (or tokens) instead of steps tests
 * that count against intervals given in the same unit:
 *
 *     while True:
 *         if state.cur_nimg % status_nimg == 0:     # status_nimg = 131072
 *             report()                              # every 131072 / 2048 = 64 passes
 *         ...
 *         state.cur_nimg += batch_size              # batch_size = 2048
 *
 * stride_period(f, m, &expr) answers N >= 1, the passes between two runs of
 * the block, for the periodic part M (`C % P`, find_modulo() of jobctx.c,
 * P already evaluated to a known int > 0) when every one of these holds,
 * else 0:
 *
 *   - the frame is reading a job loop (f->carry), not a forward;
 *   - M's left operand C is a name or an attribute chain of names
 *     (`state.cur_nimg`);
 *   - exactly one statement of the loop's body, at its top level, binds C,
 *     and it is `C += K` with K evaluating here to a known int > 1; no other
 *     statement of the body (at any depth, outside nested defs) assigns C
 *     or, for a name, binds it (carry_stmt_binds); K is a name, an
 *     attribute chain or a literal (read here without side effects);
 *   - no `continue` of the loop comes before that statement (a pass that
 *     skips the increment would not advance C).
 *
 * Counting from a multiple of K (0 on a fresh run), C is a multiple of P
 * every P / gcd(P, K) passes.  EXPR is "<P's text>/<K's text>" for the
 * record's text.  A counter advanced by 1, by a value not known, on one
 * path only, twice, or in a nested block is none (the guard keeps its own
 * period).  Only arena memory (afmt) is allocated; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* Is e a Name or an Attribute chain ending in a Name? */
static int dotted(const struct ast_hdr *e)
{
	while (AST_IS(e, Attribute))
		e = AST_AS(e, Attribute)->value;
	return AST_IS(e, Name);
}

struct assigns_walk {
	struct frame *f;
	const char *text;      /* C's source text */
	unsigned n;            /* assignments to C seen */
};

/* Count the targets with C's text among an assignment's targets
 * (tuples and lists looked into). */
static unsigned target_is(struct frame *f, const struct ast_hdr *t, const char *text)
{
	unsigned n = 0, i;

	if (AST_IS(t, Tuple)) {
		for (i = 0; i < AST_AS(t, Tuple)->elts.n; i++)
			n += target_is(f, AST_AS(t, Tuple)->elts.items[i], text);
		return n;
	}
	if (AST_IS(t, List)) {
		for (i = 0; i < AST_AS(t, List)->elts.n; i++)
			n += target_is(f, AST_AS(t, List)->elts.items[i], text);
		return n;
	}
	if (AST_IS(t, Starred))
		return target_is(f, AST_AS(t, Starred)->value, text);
	return (AST_IS(t, Name) || AST_IS(t, Attribute)) && !strcmp(text_of(f, t), text);
}

static int assigns_cb(const struct ast_hdr *n, void *ctx)
{
	struct assigns_walk *w = ctx;
	unsigned i;

	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	case AST_Assign:
		for (i = 0; i < AST_AS(n, Assign)->targets.n; i++)
			w->n += target_is(w->f, AST_AS(n, Assign)->targets.items[i], w->text);
		break;
	case AST_AugAssign:
		w->n += target_is(w->f, AST_AS(n, AugAssign)->target, w->text);
		break;
	case AST_AnnAssign:
		w->n += target_is(w->f, AST_AS(n, AnnAssign)->target, w->text);
		break;
	default:
		break;
	}
	return ast_visit_children(n, assigns_cb, ctx);
}

static long long gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

long long stride_period(struct frame *f, const struct ast_BinOp *m, long long period, const char **expr)
{
	const struct carry *c = f->carry;
	const struct ast_AugAssign *inc = NULL;
	struct assigns_walk w;
	const char *text;
	unsigned i;
	int ok, cont = 0, cont_before = 0;
	long long k;
	value_t *kv;

	if (!c || f->mode == M_FWD || period <= 0 || !dotted(m->left))
		return 0;
	text = text_of(f, m->left);
	memset(&w, 0, sizeof w);
	w.f = f;
	w.text = text;
	for (i = 0; i < c->body->n; i++) {
		const struct ast_hdr *st = c->body->items[i];
		unsigned before = w.n;

		assigns_cb(st, &w);
		if (w.n > before && !inc && AST_IS(st, AugAssign) && AST_AS(st, AugAssign)->op == AST_OP_ADD &&
		    target_is(f, AST_AS(st, AugAssign)->target, text)) {
			inc = AST_AS(st, AugAssign);
			cont_before = cont;
		}
		cont |= holds_loop_continue(st);
	}
	if (!inc || w.n != 1 || cont_before)
		return 0;
	if (AST_IS(m->left, Name))
		for (i = 0; i < c->body->n; i++)
			if (c->body->items[i] != &inc->h && carry_stmt_binds(c->body->items[i], AST_AS(m->left, Name)->id))
				return 0;
	/* K read without side effects: a name, an attribute, a literal */
	if (!dotted(inc->value) && !AST_IS(inc->value, Constant))
		return 0;
	kv = eval(f, inc->value);
	k = as_int(kv, &ok);
	if (!ok || k <= 1)
		return 0;
	if (expr)
		*expr = afmt(f->in, "%s/%s", text_of(f, m->right), text_of(f, inc->value));
	return period / gcd(period, k);
}
