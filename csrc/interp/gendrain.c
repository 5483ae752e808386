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
 * Exact items: when the run stood in for nothing Python does (interp.
 * approx unchanged: every loop read item by item over known items, every
 * `if` decided, no `while`, each `yield from` over a known list) and
 * yielded at most MAX_ITEMS items, the result is every item yielded, in
 * order, its length known -- what a directory scan gives
 * (`[n for n in scandir(folder) if n.endswith('_arch.py')]`, osdir.c).
 *
 * gen_import_items(): a `for` loop or a comprehension over a repository
 * generator in a module's top-level code run at import (not __main__'s,
 * not in a function): the generator drained (its items exact when they
 * are), as list(G) would -- import-time code computes which modules to
 * import and what to register from such lists.  Elsewhere a loop over a
 * generator keeps reading its first item (function.c gen_next).
 *
 * gen_drain_ctx() enters a @contextmanager whose yield is not a top-level
 * statement (`if enabled: with profile() as p: yield p else: yield
 * None`), which function.c cannot resume after its yield: its body is
 * drained at the `with`, so what it does before and after its yield runs
 * once there, before the block rather than around it (as function.c's
 * `with cm(): yield` does); the `as` value is its first item.
 *
 * drain_count(): how many yields the body f drains has handed over so far
 * (-1 when f drains none): exec.c leaves a `while True:` of a drained
 * body after a pass that yielded, read once for all its passes (the
 * result keeps the first item, its length not known, as it does for any
 * while loop read).
 *
 * Everything is allocated in the interpreter's arena.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* The collector of the generator being drained (frame.drain points here). */
struct gdrain {
	value_t *first;               /* the first item yielded, NULL before */
	value_t *all;                 /* every item yielded (a list), in order */
	int partial;                  /* a `yield from` whose items were not all known */
};

value_t *gen_drain(struct frame *f, struct vinst *g, int tuple, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct gdrain d = { NULL, NULL, 0 };
	value_t *r;
	long approx0 = in->approx;

	if (f->mode == M_FWD || !g || !g->gen)
		return NULL;
	d.all = v_seq(in->a, tuple ? VK_TUPLE : VK_LIST, 0);
	if (gen_run_whole(f, g, &d, site) < 0)
		return NULL;
	if (in->approx == approx0 && !d.partial && d.all->u.seq->n <= MAX_ITEMS)
		return d.all;    /* every item, exactly */
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
		/* the first item of what it delegates to, when it shows one;
		 * all of them when they are known */
		if (v && !iter_items(f, v, &items) && items) {
			for (size_t i = 0; i < items->n; i++)
				vseq_push(f->in->a, d->all->u.seq, items->items[i]);
			if (!d->first && items->n)
				d->first = items->items[0];
			return 1;
		}
		d->partial = 1;
		if (v && (v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq->n)
			v = v->u.seq->items[0];
		else
			v = v ? iter_rep_item(f, v) : NULL;
	} else {
		return 0;
	}
	if (v)
		vseq_push(f->in->a, d->all->u.seq, v);
	else
		d->partial = 1;
	if (!d->first && v)
		d->first = v;
	return 1;
}

value_t *gen_import_items(struct frame *f, value_t *it, const struct ast_hdr *site)
{
	const struct frame *m = f;
	value_t *nm, *r;

	while (m->outer_comp)       /* a comprehension's scope: the code around it */
		m = m->outer_comp;
	if (f->mode == M_FWD || m->locals || !is_gen_value(it) || it->u.inst->enumerated ||
	    !(nm = vdict_gets(m->globals->dict, "__name__")) || nm->k != VK_STR || !strcmp(nm->u.str.s, "__main__"))
		return it;
	r = gen_drain(f, it->u.inst, 0, site);
	return r ? r : it;
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

long drain_count(const struct frame *f)
{
	if (!f->drain)
		return -1;
	return (long)f->drain->all->u.seq->n + f->drain->partial;
}
