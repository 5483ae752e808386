/*
 * firstiter.c -- `if i == 0:` in `for i in range(n)`: the loop's first
 * iteration (and a flag true on its last one).
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
 * The test is `NAME == K` (or `K == NAME`), K an int literal, alone or as
 * a part of an `and` (whose other parts, when the `if` cannot decide
 * them, stay the block's condition: exec.c); the `for`
 * the frame runs innermost (frame.loop_for) binds NAME as its counter and
 * starts it at K: `for NAME in range(n)` (K 0), `range(K, n[, s])`,
 * `for NAME, x in enumerate(xs)` (K 0, or start=K / its second argument).
 * Anything else (a while loop, a loop of the caller's, a counter bound
 * otherwise, `i == 1`) is no first iteration here.
 *
 * first_flag_ctx() is the same for a flag the `if` turns off (a decode
 * loop's prefill):
 *
 *     prefill = True
 *     for i in range(n):
 *         ...
 *         if prefill:
 *             prefill = False
 *             input_pos = torch.tensor([size], device=device)
 *
 * the test a bare NAME read true (exec_if decided it), the `if`'s body
 * holding `NAME = False` among its own statements, and no other store
 * into NAME in the body of the `for` the frame runs innermost: the block
 * runs once each time the loop runs.
 *
 * last_iter_ctx() is the same for a flag true on the loop's last
 * iteration only, an `if` the test cannot decide (nanochat's loop, which
 * runs one iteration more to evaluate and save at the end):
 *
 *     while True:
 *         last_step = step == num_iterations
 *         if last_step or (save_every > 0 and step % save_every == 0):
 *             save_checkpoint(...)
 *         if last_step:
 *             break
 *
 * the live part of the test (an `or`'s parts guard_dead() finds false on
 * every iteration -- save_every -1 -- left out) a NAME bound once in the
 * body of the `for` or `while` the frame runs innermost, at its top
 * level before the test; the body breaks on NAME (`if NAME: ... break`)
 * at its top level after the test; no `continue` of that loop.  NAME is
 * then true on one iteration at most, the last.  The else branch keeps
 * the loop's context.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static int loop_outside_ctx(struct frame *f, const struct ast_hdr *loop, const struct jctx **out);

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

/* Is e `NAME == K` on the counter of the `for` the frame runs innermost,
 * K where the counter starts? */
static int first_iter_test(struct frame *f, const struct ast_hdr *e)
{
	const struct ast_Compare *c;
	const struct ast_hdr *a, *b;
	const char *name;
	long long k, start;

	if (!e || !AST_IS(e, Compare))
		return 0;
	c = AST_AS(e, Compare);
	if (c->ops.n != 1 || c->ops.items[0] != AST_CMP_EQ || c->comparators.n != 1)
		return 0;
	a = c->left;
	b = c->comparators.items[0];
	if (AST_IS(b, Name) && int_literal(a, &k))
		a = b;
	else if (!AST_IS(a, Name) || !int_literal(b, &k))
		return 0;
	return (name = loop_counter(f->loop_for, &start)) && start == k && !strcmp(name, AST_AS(a, Name)->id);
}

int first_iter_ctx(struct frame *f, const struct ast_hdr *test, const struct jctx **out)
{
	int hit = 0;

	if (f->mode == M_FWD || !f->loop_for || !f->jc || !test)
		return 0;
	if (AST_IS(test, BoolOp) && AST_AS(test, BoolOp)->op == AST_BOOL_AND) {
		/* `i == 0 and tokenizer.no_speech is not None`: the first
		 * iteration at most, whatever the other parts decide */
		const struct ast_list *vs = &AST_AS(test, BoolOp)->values;
		size_t i;

		for (i = 0; i < vs->n && !hit; i++)
			hit = first_iter_test(f, vs->items[i]);
	} else {
		hit = first_iter_test(f, test);
	}
	return hit && loop_outside_ctx(f, &f->loop_for->h, out);
}

/* The contexts between the frame's innermost loop context and f->jc,
 * copied onto what is around the loop: *out, 1; 0 when the innermost
 * loop context is not the loop statement `loop` the frame runs. */
static int loop_outside_ctx(struct frame *f, const struct ast_hdr *loop, const struct jctx **out)
{
	const struct jctx *l, *n;
	struct jctx *head = NULL, **tail = &head;
	const char *lanchor;

	/* the innermost loop around the `if` must be that loop */
	for (l = f->jc; l && l->kind != JC_LOOP; l = l->up)
		;
	lanchor = anchor_at(f, loop);
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

/* Stores into the local name `name` under n (not in a nested scope),
 * counted in the walk's n (stops at 2) */
struct name_stores {
	const char *name;
	int n;
};

static int name_stores_cb(const struct ast_hdr *n, void *ctx)
{
	struct name_stores *c = ctx;

	if (AST_IS(n, Name) && AST_AS(n, Name)->ctx != AST_CTX_LOAD && !strcmp(AST_AS(n, Name)->id, c->name) &&
	    ++c->n >= 2)
		return 1;
	if (AST_IS(n, FunctionDef) || AST_IS(n, AsyncFunctionDef) || AST_IS(n, Lambda) || AST_IS(n, ClassDef))
		return 0;
	return ast_visit_children(n, name_stores_cb, ctx);
}

/* `NAME = ...`, a statement */
static int binds(const struct ast_hdr *st, const char *name)
{
	const struct ast_Assign *a;

	if (!AST_IS(st, Assign))
		return 0;
	a = AST_AS(st, Assign);
	return a->targets.n == 1 && AST_IS(a->targets.items[0], Name) &&
	       !strcmp(AST_AS(a->targets.items[0], Name)->id, name);
}

/* `NAME = False`, a statement */
static int turns_off(const struct ast_hdr *st, const char *name)
{
	const struct ast_hdr *v = binds(st, name) ? AST_AS(st, Assign)->value : NULL;

	return AST_IS(v, Constant) && AST_AS(v, Constant)->value.kind == AST_CONST_FALSE;
}

int first_flag_ctx(struct frame *f, const struct ast_If *s, const struct jctx **out)
{
	const char *name;
	struct name_stores c;
	unsigned i;

	if (f->mode == M_FWD || !f->loop_for || !f->jc || !s || !AST_IS(s->test, Name))
		return 0;
	name = AST_AS(s->test, Name)->id;
	for (i = 0; i < s->body.n && !turns_off(s->body.items[i], name); i++)
		;
	if (i == s->body.n)
		return 0;
	/* that store is the only one in the loop (its target too) */
	c.name = name;
	c.n = 0;
	(void)name_stores_cb(f->loop_for->target, &c);
	for (i = 0; i < f->loop_for->body.n && c.n < 2; i++)
		(void)name_stores_cb(f->loop_for->body.items[i], &c);
	if (c.n != 1)
		return 0;
	return loop_outside_ctx(f, &f->loop_for->h, out);
}

/* The loop statement the frame runs innermost, when it is the innermost
 * loop context around the code running: its header, its body in *body
 * and (a `for`) its target in *target; NULL when none. */
static const struct ast_hdr *innermost_loop(struct frame *f, const struct ast_list **body,
                                            const struct ast_hdr **target)
{
	const struct jctx *l;
	const char *la;

	for (l = f->jc; l && l->kind != JC_LOOP; l = l->up)
		;
	if (!l || !l->anchor)
		return NULL;
	if (f->loop_for && (la = anchor_at(f, &f->loop_for->h)) && !strcmp(la, l->anchor)) {
		*body = &f->loop_for->body;
		*target = f->loop_for->target;
		return &f->loop_for->h;
	}
	if (f->loop_while && (la = anchor_at(f, &f->loop_while->h)) && !strcmp(la, l->anchor)) {
		*body = &f->loop_while->body;
		*target = NULL;
		return &f->loop_while->h;
	}
	return NULL;
}

/* `if NAME: ... break` (no else; the break among the block's own
 * statements) */
static int breaks_on(const struct ast_hdr *st, const char *name)
{
	const struct ast_If *s;
	unsigned i;

	if (!AST_IS(st, If) || !AST_IS((s = AST_AS(st, If))->test, Name) || strcmp(AST_AS(s->test, Name)->id, name) ||
	    s->orelse.n)
		return 0;
	for (i = 0; i < s->body.n; i++)
		if (AST_IS(s->body.items[i], Break))
			return 1;
	return 0;
}

/* The one part of test that can be true: test itself, or the one part of
 * an `or` whose others guard_dead() finds false on every iteration; NULL
 * when more than one part is live. */
static const struct ast_hdr *live_part(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_BoolOp *b;
	const struct ast_hdr *live = NULL;
	unsigned i;

	if (!AST_IS(test, BoolOp) || AST_AS(test, BoolOp)->op != AST_BOOL_OR)
		return test;
	b = AST_AS(test, BoolOp);
	for (i = 0; i < b->values.n; i++) {
		if (guard_dead(f, b->values.items[i]))
			continue;
		if (live)
			return NULL;
		live = b->values.items[i];
	}
	return live;
}

/* NAME, true on at most one iteration of the loop whose body is body:
 * bound once per iteration, at the body's top level, before the test at
 * line `at`; the body breaks on it (`if NAME: break`) at its top level
 * after that line; no `continue` of the loop may skip that break. */
int last_iter_ctx(struct frame *f, const struct ast_hdr *test, const struct jctx **out)
{
	const struct ast_list *body;
	const struct ast_hdr *loop, *target, *live;
	const char *name;
	struct name_stores c;
	int bound = 0, breaks = 0;
	unsigned i;

	if (f->mode == M_FWD || !f->jc || !test || !(live = live_part(f, test)) || !AST_IS(live, Name) ||
	    !(loop = innermost_loop(f, &body, &target)))
		return 0;
	name = AST_AS(live, Name)->id;
	c.name = name;
	c.n = 0;
	if (target)
		(void)name_stores_cb(target, &c);
	for (i = 0; i < body->n && c.n < 2; i++)
		(void)name_stores_cb(body->items[i], &c);
	if (c.n != 1)
		return 0;
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *st = body->items[i];

		if (holds_loop_continue(st))
			return 0;
		if (binds(st, name) && st->line < test->line)
			bound = 1;
		if (breaks_on(st, name) && st->line > test->line)
			breaks = 1;
	}
	return bound && breaks && loop_outside_ctx(f, loop, out);
}
