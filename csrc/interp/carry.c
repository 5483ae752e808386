/*
 * carry.c -- a test decided on a loop-carried name's value from before the
 * loop.
 *
 *     iter_num = 0
 *     while True:
 *         ...
 *         if iter_num > 0:
 *             torch.save(...)
 *         iter_num += 1
 *
 * ecg reads a job loop's body once for all its iterations (exec.c).  That
 * reading sees iter_num at its value before the loop (0), so `iter_num >
 * 0` reads false -- true of the first iteration only: every later one
 * takes the branch.  A test that reads a name the loop's own body binds,
 * while the name still holds the value it had before the loop, is
 * decided for the first iteration alone.
 *
 * exec.c keeps a struct carry on the frame for each loop it reads in job
 * mode (innermost first, `up` to the enclosing loops of the same frame):
 * the loop's body and the frame's names as they were before the loop.
 * exec_if() asks carry_decided() about each test it decides; a yes marks
 * every loop of the chain whose body binds the name (hit), and exec.c
 * then reads that loop's body once more as a later iteration would run
 * it (carry_reread there): the names the first reading changed not
 * known, the events at lines the first reading did not reach kept.
 *
 * A name the body only ever rebinds to the constant it held before the
 * loop (`resume = False` under `if resume:`) cannot change from one
 * iteration to the next: its tests stay decided (body_keeps).
 *
 * Only names: an attribute (self.step) or an item is not followed.  The
 * functions here never fail and allocate nothing.
 *
 * The second reading's event at a line the first reading recorded too
 * is that event again (exec.c keeps one copy).  When the second reading
 * reached it under an undecided `if` that the first reading decided true
 * on a name's value from before the loop (`if best is None or val <
 * best:` with best None), the later iterations run it only under that
 * test: carry_cond_added() tells exec.c to keep the later context, so
 * the row carries the condition instead of claiming every pass.  In
 * that second reading a test on a name the body binds that still holds
 * its value from before the loop -- the first reading never reached the
 * binding (`best = val` inside `if step > 0 and step % 500 == 0:`) -- is
 * not decided either (carry_later_undecided): a later iteration may
 * have bound it -- unless an `and` (`or`) holds an operand on no such
 * name that is false (true) now, before any that reads one: Python never
 * gets to the rest (`ids is not None and i in ids` with ids None).
 */
#include "config.h"

#include <string.h>

#include "internal.h"

struct binds_walk {
	const char *id;
};

int carry_target_has(const struct ast_hdr *t, const char *id)
{
	unsigned i;
	const struct ast_list *elts = NULL;

	if (!t)
		return 0;
	if (AST_IS(t, Name))
		return !strcmp(AST_AS(t, Name)->id, id);
	if (AST_IS(t, Starred))
		return carry_target_has(AST_AS(t, Starred)->value, id);
	if (AST_IS(t, Tuple))
		elts = &AST_AS(t, Tuple)->elts;
	else if (AST_IS(t, List))
		elts = &AST_AS(t, List)->elts;
	for (i = 0; elts && i < elts->n; i++)
		if (carry_target_has(elts->items[i], id))
			return 1;
	return 0;
}

/* Does the node (a statement of the body, or one inside it) bind w->id?
 * Function and class bodies are other scopes: not entered. */
static int binds_cb(const struct ast_hdr *n, void *ctx)
{
	const struct binds_walk *w = ctx;
	unsigned i;

	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(n, Assign);

		for (i = 0; i < a->targets.n; i++)
			if (carry_target_has(a->targets.items[i], w->id))
				return 1;
		return 0;
	}
	case AST_AugAssign:
		return carry_target_has(AST_AS(n, AugAssign)->target, w->id);
	case AST_AnnAssign:
		return AST_AS(n, AnnAssign)->value && carry_target_has(AST_AS(n, AnnAssign)->target, w->id);
	case AST_For: case AST_AsyncFor:
		if (carry_target_has(((const struct ast_For *)n)->target, w->id))
			return 1;
		break;
	case AST_NamedExpr:
		if (carry_target_has(AST_AS(n, NamedExpr)->target, w->id))
			return 1;
		break;
	default:
		break;
	}
	return ast_visit_children(n, binds_cb, ctx);
}

int carry_stmt_binds(const struct ast_hdr *st, const char *id)
{
	struct binds_walk w = { id };

	return binds_cb(st, &w);
}

static int body_binds(const struct ast_list *body, const char *id)
{
	struct binds_walk w = { id };
	unsigned i;

	for (i = 0; i < body->n; i++)
		if (binds_cb(body->items[i], &w))
			return 1;
	return 0;
}

struct reads_walk {
	struct frame *f;
	int hit;
	int later;                     /* carry_later_undecided: the very value
	                                  object from before the loop, no marks */
};

/* Is the name's value now the one it had before the loop of c? */
static int still_before(struct frame *f, const struct carry *c, const char *id)
{
	value_t *now = lookup(f, id), *was;

	if (!now)
		return 0;
	was = vdict_gets(c->before, id);
	return was && (was == now || (value_is_known_scalar(now) && value_key_eq(now, was)));
}

/* A name the body only ever rebinds to the value it already holds:
 *
 *     for batch in loader:
 *         if resume:              # resume False before the loop
 *             ...
 *             resume = False
 *
 * Every binding of id in the body is `id = <constant>` (plain name
 * targets) whose constant is v (None, a bool, an int or a string): no
 * iteration can give the name another value, so a test on it is decided
 * for every iteration, not the first one alone.  0 for any other binding
 * (an augmented one, a loop target, an unpacking, a walrus). */
struct same_walk {
	const char *id;
	const value_t *v;
	int other;                     /* a binding of another form or value */
};

static int const_is(const struct ast_hdr *e, const value_t *v)
{
	const struct ast_const *c;

	if (!e || !AST_IS(e, Constant))
		return 0;
	c = &AST_AS(e, Constant)->value;
	switch (c->kind) {
	case AST_CONST_NONE:
		return v->k == VK_NONE;
	case AST_CONST_TRUE: case AST_CONST_FALSE:
		return v->k == VK_BOOL && !v->u.b == (c->kind == AST_CONST_FALSE);
	case AST_CONST_INT:
		return !c->big && v->k == VK_INT && v->u.i == c->i;
	case AST_CONST_STR:
		return v->k == VK_STR && v->u.str.len == c->len && !memcmp(v->u.str.s, c->s, c->len);
	default:
		return 0;
	}
}

static int same_cb(const struct ast_hdr *n, void *ctx)
{
	struct same_walk *w = ctx;
	struct binds_walk b = { w->id };
	unsigned i;

	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(n, Assign);
		int mine = 0;

		for (i = 0; i < a->targets.n; i++) {
			if (!carry_target_has(a->targets.items[i], w->id))
				continue;
			if (!AST_IS(a->targets.items[i], Name))
				break;
			mine = 1;
		}
		if (i < a->targets.n || (mine && !const_is(a->value, w->v))) {
			w->other = 1;
			return 1;
		}
		return ast_visit_children(a->value, same_cb, ctx);
	}
	case AST_AugAssign:
		w->other = carry_target_has(AST_AS(n, AugAssign)->target, w->id);
		return w->other;
	case AST_AnnAssign:
		w->other = binds_cb(n, &b);
		return w->other;
	case AST_For: case AST_AsyncFor:
		if (carry_target_has(((const struct ast_For *)n)->target, w->id)) {
			w->other = 1;
			return 1;
		}
		return ast_visit_children(n, same_cb, ctx);
	case AST_NamedExpr:
		if (carry_target_has(AST_AS(n, NamedExpr)->target, w->id)) {
			w->other = 1;
			return 1;
		}
		return ast_visit_children(n, same_cb, ctx);
	default:
		return ast_visit_children(n, same_cb, ctx);
	}
}

static int body_keeps(const struct ast_list *body, const char *id, const value_t *v)
{
	struct same_walk w = { id, v, 0 };
	unsigned i;

	if (!v || !value_is_known_scalar(v) || v->k == VK_FLOAT)
		return 0;
	for (i = 0; i < body->n && !w.other; i++)
		(void)same_cb(body->items[i], &w);
	return !w.other;
}

/* A name bound in the body only under tests that are false now and stay
 * so:
 *
 *     for epoch in range(start, cfg.MAX_EPOCH):
 *         if cfg.MULTIGRID.LONG_CYCLE:             # False
 *             cfg, changed = update_long_cycle(cfg, epoch)
 *
 * id is not the loop's target, and each statement of the body that binds
 * it is an `if` whose test is pure, reads neither the target nor a name
 * the body binds but id itself, and is false on the values
 * the names hold now (id's from before the loop), the binding in its
 * body; its else branch, if any, binds id nowhere or only so again.  Then
 * no iteration binds id: by induction the test stays false while id keeps
 * its value, so tests on id are decided for every iteration (a later
 * iteration's reading included).  0 when a binding may run. */
struct only_walk {
	const struct carry *c;         /* the loop */
	const struct ast_list *body;   /* its body */
	const char *id;
	int ok;
};

static int test_names_ok(const struct ast_hdr *n, void *ctx)
{
	const struct only_walk *w = ctx;

	if (AST_IS(n, Name)) {
		const char *nm = AST_AS(n, Name)->id;

		return strcmp(nm, w->id) && (body_binds(w->body, nm) ||
		                             (w->c->target && carry_target_has(w->c->target, nm)) ||
		                             (w->c->for_target && carry_target_has(w->c->for_target, nm)));
	}
	return ast_visit_children(n, test_names_ok, ctx);
}

static int binds_only_off(struct frame *f, const struct carry *c, const struct ast_list *stmts,
                          const char *id, int depth)
{
	unsigned i;

	for (i = 0; i < stmts->n; i++) {
		const struct ast_hdr *st = stmts->items[i];
		const struct ast_If *s;
		struct only_walk w = { c, c->body, id, 1 };

		if (!carry_stmt_binds(st, id))
			continue;
		if (!AST_IS(st, If) || depth > 8)
			return 0;
		s = AST_AS(st, If);
		if (!test_pure(s->test) || test_names_ok(s->test, &w) || value_truth(eval(f, s->test)) != 0)
			return 0;
		if (!binds_only_off(f, c, &s->orelse, id, depth + 1))
			return 0;
	}
	return 1;
}

static int body_binds_only_off(struct frame *f, const struct carry *c, const char *id)
{
	/* (the loop's own target is bound by every iteration) */
	if ((c->target && carry_target_has(c->target, id)) || (c->for_target && carry_target_has(c->for_target, id)))
		return 0;
	return binds_only_off(f, c, c->body, id, 0);
}

static int reads_cb(const struct ast_hdr *n, void *ctx)
{
	struct reads_walk *w = ctx;

	if (AST_IS(n, Name)) {
		const char *id = AST_AS(n, Name)->id;
		struct carry *c;

		if (w->later) {
			c = w->f->carry;
			if (lookup(w->f, id) && lookup(w->f, id) == vdict_gets(c->before, id) && body_binds(c->body, id) &&
			    !body_binds_only_off(w->f, c, id))
				w->hit = 1;
			return 0;
		}
		for (c = w->f->carry; c; c = c->up)
			if (still_before(w->f, c, id) && body_binds(c->body, id) &&
			    !body_keeps(c->body, id, vdict_gets(c->before, id)) &&
			    !body_binds_only_off(w->f, c, id)) {
				c->hit = 1;
				w->hit = 1;
			}
		return 0;
	}
	return ast_visit_children(n, reads_cb, ctx);
}

int carry_decided(struct frame *f, const struct ast_hdr *test)
{
	struct reads_walk w = { f, 0, 0 };

	if (!f->carry || f->carry->later || !test || f->mode == M_FWD)
		return 0;
	reads_cb(test, &w);
	return w.hit;
}

/* The loop's own exit test: does test read a name the body of the
 * innermost loop of the frame binds (`last_step = step == n` ... `if
 * last_step: break`)?  Then a break under it ends the loop, and what
 * follows runs on every iteration that goes on: not a condition of that
 * work.  A test on names the loop never changes (`if args.dry_run:
 * break`) is one.  Never fails, allocates nothing. */
struct varies_walk {
	const struct carry *c;
	int hit;
	int target;                   /* the loop's own target counts too */
};

static int varies_cb(const struct ast_hdr *n, void *ctx)
{
	struct varies_walk *w = ctx;

	if (AST_IS(n, Name)) {
		const char *id = AST_AS(n, Name)->id;

		if ((w->target && w->c->target && carry_target_has(w->c->target, id)) || body_binds(w->c->body, id))
			w->hit = 1;
		return 0;
	}
	return ast_visit_children(n, varies_cb, ctx);
}

int carry_varies(const struct frame *f, const struct ast_hdr *test)
{
	struct varies_walk w;

	if (!f->carry || f->carry->later || !test || f->mode == M_FWD)
		return 0;
	w.c = f->carry;
	w.hit = 0;
	w.target = 0;
	varies_cb(test, &w);
	return w.hit;
}

/* Does e read a name that varies from one iteration of c's loop to the
 * next: its target, or a name its body binds? */
int carry_reads_varying(const struct carry *c, const struct ast_hdr *e)
{
	struct varies_walk w = { c, 0, 1 };

	if (!c || !e)
		return 0;
	(void)varies_cb(e, &w);
	return w.hit;
}
/* `ids is not None and i in ids` with ids None: Python stops at the
 * first operand that settles an `and` (a false one) or an `or` (a true
 * one).  Read left to right: an operand on a name a later iteration may
 * see otherwise leaves the test open; one on no such name that settles
 * it now (a test_pure() one, evaluated again) settles it on every
 * iteration, whatever the operands after it read. */
static int boolop_later_undecided(struct frame *f, const struct ast_BoolOp *b)
{
	int settles = b->op == AST_BOOL_OR;     /* the truth that ends it */
	unsigned i;

	for (i = 0; i < b->values.n; i++) {
		const struct ast_hdr *v = b->values.items[i];
		struct reads_walk w = { f, 0, 1 };

		reads_cb(v, &w);
		if (w.hit)
			return 1;
		if (test_pure(v) && value_truth(eval(f, v)) == settles)
			return 0;
	}
	return 0;
}

int carry_later_undecided(struct frame *f, const struct ast_hdr *test)
{
	struct reads_walk w = { f, 0, 1 };

	if (!f->carry || !f->carry->later || !test || f->mode == M_FWD)
		return 0;
	if (AST_IS(test, BoolOp))
		return boolop_later_undecided(f, AST_AS(test, BoolOp));
	reads_cb(test, &w);
	return w.hit;
}

int carry_reads_bound(const struct frame *f, const struct ast_hdr *test)
{
	const struct carry *c;
	struct varies_walk w;

	if (!test || f->mode == M_FWD)
		return 0;
	for (c = f->carry; c; c = c->up) {
		w.c = c;
		w.hit = 0;
		w.target = 0;
		varies_cb(test, &w);
		if (w.hit)
			return 1;
	}
	return 0;
}

/* Is an `if` at anchor `at` among the undecided conditions (JC_COND) of
 * chain c, up to (not including) stop? */
static int chain_has_cond(const struct jctx *c, const struct jctx *stop, const char *at)
{
	for (; c && c != stop; c = c->up)
		if (c->kind == JC_COND && c->anchor && !strcmp(c->anchor, at))
			return 1;
	return 0;
}

/* Is c, in a later chain, an undecided test on a loop-carried name that
 * the first chain lacks? */
static int cond_added(const struct jctx *c, const struct jctx *first, const struct jctx *loop)
{
	return c->kind == JC_COND && c->carried && c->anchor && !chain_has_cond(first, loop, c->anchor);
}

static int same_node(const struct jctx *a, const struct jctx *b)
{
	return a->kind == b->kind && (a->anchor == b->anchor || (a->anchor && b->anchor && !strcmp(a->anchor, b->anchor)));
}

/* Only for the same event on the same path: the later chain, less the
 * added tests, is the first chain node for node (kind and anchor) up to
 * the loop -- not another call of a helper whose line the first reading
 * reached on another path. */
int carry_cond_added(const struct jctx *first, const struct jctx *later, const struct jctx *loop)
{
	const struct jctx *a = first, *b = later;
	int added = 0;

	for (;;) {
		while (b && b != loop && cond_added(b, first, loop)) {
			added = 1;
			b = b->up;
		}
		if (!a || a == loop || !b || b == loop)
			break;
		if (!same_node(a, b))
			return 0;
		a = a->up;
		b = b->up;
	}
	return added && (!a || a == loop) && (!b || b == loop);
}

/* Does the node hold a `continue` of the loop whose body it is in (not of
 * an inner loop, though one in an inner loop's else is; not in another
 * scope)?  ast_visit_children's callback (ctx unused): 1 stops the walk. */
static int continue_cb(const struct ast_hdr *n, void *ctx)
{
	(void)ctx;
	switch (n->kind) {
	case AST_Continue:
		return 1;
	case AST_For: case AST_AsyncFor: case AST_While: {
		const struct ast_list *orelse = AST_IS(n, While) ? &AST_AS(n, While)->orelse :
		                                AST_IS(n, For) ? &AST_AS(n, For)->orelse : &AST_AS(n, AsyncFor)->orelse;
		unsigned k;

		for (k = 0; k < orelse->n; k++)
			if (continue_cb(orelse->items[k], ctx))
				return 1;
		return 0;
	}
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	default:
		return ast_visit_children(n, continue_cb, ctx);
	}
}

int holds_loop_continue(const struct ast_hdr *st)
{
	return continue_cb(st, NULL);
}

/* Is statement n `id += ...` (or `id = id + ...`)? */
static int increments(const struct ast_hdr *n, const char *id)
{
	if (AST_IS(n, AugAssign))
		return carry_target_has(AST_AS(n, AugAssign)->target, id);
	if (AST_IS(n, Assign) && AST_AS(n, Assign)->targets.n == 1 &&
	    carry_target_has(AST_AS(n, Assign)->targets.items[0], id) && AST_IS(AST_AS(n, Assign)->value, BinOp)) {
		const struct ast_hdr *l = AST_AS(AST_AS(n, Assign)->value, BinOp)->left;

		return AST_IS(l, Name) && !strcmp(AST_AS(l, Name)->id, id);
	}
	return 0;
}

int carry_counts_passes(const struct frame *f, const char *id)
{
	const struct carry *c = f->carry;
	struct binds_walk w = { id };
	unsigned i;
	int skipped = 0;

	if (!c || !id)
		return -1;
	if (c->target && carry_target_has(c->target, id))
		return 1;
	for (i = 0; i < c->body->n; i++) {
		const struct ast_hdr *st = c->body->items[i];

		if (increments(st, id))
			return skipped ? 0 : 1;
		if (binds_cb(st, &w))
			return -1;      /* set otherwise: not read here */
		skipped |= holds_loop_continue(st);
	}
	return -1;
}

int carry_for_target_binds(const struct frame *f, const char *id)
{
	const struct carry *c = f->carry;

	return c && id && c->for_target && carry_target_has(c->for_target, id);
}

/* xs[-1] where the body appends to xs after the read:
 *
 *     xs = [x]
 *     for i in steps:
 *         xt = xs[-1].to('cuda')        # x on the first pass only
 *         ...
 *         xs.append(xt_next.to('cpu'))
 *
 * The first reading sees the item from before the loop; every later
 * iteration reads the one the body appended (a host copy here).  Marked
 * as a test decided on a value from before the loop is: the body is read
 * again as a later iteration (exec.c carry_reread), where xs[-1] is the
 * appended item. */
struct append_walk {
	const char *id;
	int after;                     /* only calls at lines after this one */
	int hit;
};

static int append_cb(const struct ast_hdr *n, void *ctx)
{
	struct append_walk *w = ctx;

	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	case AST_Call: {
		const struct ast_Call *c = AST_AS(n, Call);

		if (n->line > w->after && AST_IS(c->func, Attribute) &&
		    !strcmp(AST_AS(c->func, Attribute)->attr, "append") &&
		    AST_IS(AST_AS(c->func, Attribute)->value, Name) &&
		    !strcmp(AST_AS(AST_AS(c->func, Attribute)->value, Name)->id, w->id)) {
			w->hit = 1;
			return 1;
		}
		break;
	}
	default:
		break;
	}
	return ast_visit_children(n, append_cb, ctx);
}

/* Is e the index -1? */
static int minus_one(const struct ast_hdr *e)
{
	const struct ast_Constant *k;

	if (!e || !AST_IS(e, UnaryOp) || AST_AS(e, UnaryOp)->op != AST_UNARY_USUB ||
	    !AST_IS(AST_AS(e, UnaryOp)->operand, Constant))
		return 0;
	k = AST_AS(AST_AS(e, UnaryOp)->operand, Constant);
	return k->value.kind == AST_CONST_INT && !k->value.big && k->value.i == 1;
}

int carry_last_item(struct frame *f, const struct ast_Subscript *s, const value_t *obj)
{
	struct carry *c;
	const char *id;
	int marked = 0;

	if (!f->carry || f->carry->later || f->mode == M_FWD || !obj || obj->k != VK_LIST ||
	    !AST_IS(s->value, Name) || !minus_one(s->slice))
		return 0;
	id = AST_AS(s->value, Name)->id;
	for (c = f->carry; c; c = c->up) {
		struct append_walk w = { id, s->h.line, 0 };
		unsigned i;

		/* the list the name held before the loop, appended to later */
		if (!still_before(f, c, id))
			continue;
		for (i = 0; i < c->body->n && !w.hit; i++)
			append_cb(c->body->items[i], &w);
		if (w.hit)
			c->hit = marked = 1;
	}
	return marked;
}
