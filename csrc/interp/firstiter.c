/*
 * firstiter.c -- `if i == 0:` in `for i in range(n)`: the loop's first
 * iteration.
 *
 * A decode loop that does its prefill in its first iteration:
 *
 *     for i in range(max_new_tokens):
 *         if i == 0:
 *             out = model(input_ids=start_ids)      # prefill
 *             x = logits.tolist()
 *         else:
 *             out = model(input_ids=token)           # one token
 *
 * runs the block once each time the loop runs, not once per iteration:
 * its work belongs to what is around the loop (the request, the step),
 * not to the loop.  exec_if() asks first_iter_ctx() for such a test, when
 * it cannot decide it (the counter is not known: ecg reads one iteration
 * for all), and reads the body in the context it sets: the contexts
 * between the `if` and the loop, copied onto what is around the loop (the
 * loop left out; arena memory, never freed alone).  The else branch keeps
 * the loop's context.  It returns 1 and sets *out (NULL: no context is
 * around the loop) for such a test, else 0; it never fails.
 *
 * The test is `NAME == K` (or `K == NAME`), K an int literal; the `for`
 * the frame runs innermost (frame.loop_for) binds NAME as its counter and
 * starts it at K: `for NAME in range(n)` (K 0), `range(K, n[, s])`,
 * `for NAME, x in enumerate(xs)` (K 0, or start=K / its second argument).
 * Anything else (a while loop, a loop of the caller's, a counter bound
 * otherwise, `i == 1`) is no first iteration here.
 */
#include "config.h"

#include "internal.h"

/* The int literal e, in *out: 1, or 0 when e is none. */
static int int_literal(const struct ast_hdr *e, long long *out)
{
	const struct ast_Constant *c;

	if (!e || !AST_IS(e, Constant))
		return 0;
	c = AST_AS(e, Constant);
	if (c->value.kind != AST_CONST_INT || c->value.big)
		return 0;
	*out = (long long)c->value.i;
	return 1;
}

/* The name the `for` binds as its counter, and where the counter
 * starts (*start): range's, enumerate's.  NULL when the loop has none. */
static const char *loop_counter(const struct ast_For *s, long long *start)
{
	const struct ast_Call *call;
	const char *fn;
	unsigned i;

	if (!s || !AST_IS(s->iter, Call) || !AST_IS(AST_AS(s->iter, Call)->func, Name))
		return NULL;
	call = AST_AS(s->iter, Call);
	fn = AST_AS(call->func, Name)->id;
	if (!strcmp(fn, "range") && AST_IS(s->target, Name) && call->args.n >= 1 && call->args.n <= 3 &&
	    !call->keywords.n) {
		*start = 0;
		if (call->args.n >= 2 && !int_literal(call->args.items[0], start))
			return NULL;
		return AST_AS(s->target, Name)->id;
	}
	if (!strcmp(fn, "enumerate") && AST_IS(s->target, Tuple) && AST_AS(s->target, Tuple)->elts.n == 2 &&
	    AST_IS(AST_AS(s->target, Tuple)->elts.items[0], Name) && call->args.n >= 1 && call->args.n <= 2) {
		*start = 0;
		if (call->args.n == 2 && !int_literal(call->args.items[1], start))
			return NULL;
		for (i = 0; i < call->keywords.n; i++) {
			const struct ast_keyword *k = AST_AS(call->keywords.items[i], keyword);

			if (!k->arg || strcmp(k->arg, "start") || !int_literal(k->value, start))
				return NULL;
		}
		return AST_AS(AST_AS(s->target, Tuple)->elts.items[0], Name)->id;
	}
	return NULL;
}

int first_iter_ctx(struct frame *f, const struct ast_hdr *test, const struct jctx **out)
{
	const struct ast_Compare *c;
	const struct ast_hdr *a, *b;
	const struct jctx *l, *n;
	struct jctx *head = NULL, **tail = &head;
	const char *name, *lanchor;
	long long k, start;

	if (f->mode == M_FWD || !f->loop_for || !f->jc || !test || !AST_IS(test, Compare))
		return 0;
	c = AST_AS(test, Compare);
	if (c->ops.n != 1 || c->ops.items[0] != AST_CMP_EQ || c->comparators.n != 1)
		return 0;
	a = c->left;
	b = c->comparators.items[0];
	if (AST_IS(b, Name) && int_literal(a, &k))
		a = b;
	else if (!AST_IS(a, Name) || !int_literal(b, &k))
		return 0;
	if (!(name = loop_counter(f->loop_for, &start)) || start != k || strcmp(name, AST_AS(a, Name)->id))
		return 0;
	/* the innermost loop around the `if` must be that `for` */
	for (l = f->jc; l && l->kind != JC_LOOP; l = l->up)
		;
	lanchor = anchor_at(f, &f->loop_for->h);
	if (!l || !l->anchor || !lanchor || strcmp(l->anchor, lanchor))
		return 0;
	for (n = f->jc; n != l; n = n->up) {
		struct jctx *j = ast_arena_alloc(f->in->a, sizeof *j);

		*j = *n;
		j->rerooted = NULL;
		*tail = j;
		tail = (struct jctx **)&j->up;
	}
	*tail = (struct jctx *)l->up;
	*out = head ? head : l->up;
	return 1;
}
