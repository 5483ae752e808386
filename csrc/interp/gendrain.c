/* interp/gendrain.c - a repository generator drained whole: list(G(...))
 *
 * `token_list = list(generate_fn(model, prompt, ...))` consumes every item
 * of a generator at once.  Advancing a generator (function.c gen_next, a
 * `for` loop over it) reads its body up to its first yield only; drained,
 * its body is read as a function call, start to end: the loops before and
 * around its yields run as a function's loops do (the job's step may be
 * one of them, a decode loop, and the events inside run as often as they
 * do), and each yield hands its item to the result instead of returning.
 *
 * gen_drain() is called by list()/tuple() of a generator object
 * (builtins.c); drain_yield() by exec.c at a yield statement of a body
 * being drained.  The result holds the first item yielded as the
 * representative one, its length not known (a loop's trips, an early
 * return and the branches decide it); nothing yielded on the reading:
 * unknown.  Not drained (NULL, the caller keeps its own answer): a
 * generator running already, one met inside a model's forward.
 *
 * gen_drain_ctx() enters a @contextmanager whose yield is not a top-level
 * statement (`if enabled: with profile() as p: yield p else: yield
 * None`), which function.c cannot resume after its yield: its body is
 * drained at the `with`, so what it does before and after its yield runs
 * once there, before the block rather than around it (as function.c's
 * `with cm(): yield` does); the `as` value is its first item.
 *
 * Everything is allocated in the interpreter's arena.
 */
#include "config.h"

#include "internal.h"

/* The collector of the generator being drained (frame.drain points here). */
struct gdrain {
	value_t *first;               /* the first item yielded, NULL before */
};

value_t *gen_drain(struct frame *f, struct vinst *g, int tuple, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct gdrain d = { NULL };
	value_t *r;

	if (f->mode == M_FWD || !g || !g->gen)
		return NULL;
	if (gen_run_whole(f, g, &d, site) < 0)
		return NULL;
	if (!d.first)
		return unknown_at(f, site, "the items of a generator (none yielded on the reading)");
	r = v_seq(in->a, tuple ? VK_TUPLE : VK_LIST, 1);
	vseq_push(in->a, r->u.seq, d.first);
	r->u.seq->unk_expr = site ? text_of(f, site) : NULL;
	r->u.seq->unk_reason = "the items of a generator drained whole (their number not known)";
	return r;
}

/* A statement `yield x` or `yield from it` in a drained body: its item
 * (the first one of `it`) kept when it is the first; the body goes on.
 * 1 when st is such a statement (handled), else 0. */
int drain_yield(struct frame *f, const struct ast_hdr *st)
{
	struct gdrain *d = f->drain;
	const struct ast_hdr *e;
	value_t *v;

	if (!d || !AST_IS(st, Expr))
		return 0;
	e = AST_AS(st, Expr)->value;
	if (AST_IS(e, Yield)) {
		v = AST_AS(e, Yield)->value ? eval(f, AST_AS(e, Yield)->value) : v_none(f->in->a);
	} else if (AST_IS(e, YieldFrom)) {
		value_t *src = eval(f, AST_AS(e, YieldFrom)->value);
		struct vseq *items = NULL;

		if (is_gen_value(src))
			v = gen_drain(f, src->u.inst, 0, e);
		else
			v = src;
		/* the first item of what it delegates to, when it shows one */
		if (v && !iter_items(f, v, &items) && items)
			v = items->n ? items->items[0] : NULL;
		else if (v && (v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq->n)
			v = v->u.seq->items[0];
		else
			v = v ? iter_rep_item(f, v) : NULL;
	} else {
		return 0;
	}
	if (!d->first && v)
		d->first = v;
	return 1;
}

value_t *gen_drain_ctx(struct frame *f, struct vinst *g, const struct ast_hdr *site)
{
	value_t *r = gen_drain(f, g, 0, site);

	if (!r)
		return NULL;
	if (r->k == VK_LIST && r->u.seq->n)
		return r->u.seq->items[0];
	return r;
}
