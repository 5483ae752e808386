/*
 * oneshot.c -- `if self.flag:` blocks that turn their own flag off.
 *
 * A method called every step that does its work once:
 *
 *     if self.need_to_sync:
 *         torch.cuda.synchronize()
 *         self.need_to_sync = False
 *
 * reads the flag true the first time round and false on every later one:
 * the events of the block run once, not every step.  ecg reads a loop's
 * body once for all its iterations, so the block is read taken; exec_if()
 * asks one_shot_if() whether it is such a block and then puts its events
 * under a JC_ONCE context (schedule.c: "once").
 *
 * The test is `self.X` or `not self.X` (X an attribute of the method's
 * own object); the branch that runs sets self.X, at its own top level, to
 * a constant that makes the test false, or calls, at its top level, a
 * method of the object's class that does so at its own top level
 * (`if not self.loaded: self.load()`, load ending `self.loaded = True`); and nothing else in the class or
 * its repository bases sets self.X again -- only __init__ may, and only
 * to a constant (the flag's start).  Anything else (a method that turns
 * the flag back on, an assignment from a value, an augmented assignment,
 * a flag set on another object) and the block is not one-shot: it keeps
 * the frequency of the code around it.
 *
 * one_shot_move: `self.X = self.X.<m>(...)`, m a move that leaves a
 * tensor already in place alone (catalog stored_back_moves), copies on
 * the first call only.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* The attribute X of `self.X` (self a local name bound to the method's
 * own object), or NULL. */
static const char *self_attr(const struct frame *f, const struct ast_hdr *e)
{
	const struct ast_Attribute *a;
	const value_t *v;

	if (!e || !AST_IS(e, Attribute))
		return NULL;
	a = AST_AS(e, Attribute);
	if (!AST_IS(a->value, Name) || !f->locals)
		return NULL;
	v = vdict_gets(f->locals, AST_AS(a->value, Name)->id);
	if (!v || v->k != VK_INST || v->u.inst != f->self->u.inst)
		return NULL;
	return a->attr;
}

/* Whether `t` is `<name>.<attr>` for any name (self in another method
 * may be spelled otherwise; any object's .attr counts, to be safe). */
static int sets_attr(const struct ast_hdr *t, const char *attr)
{
	return t && AST_IS(t, Attribute) && !strcmp(AST_AS(t, Attribute)->attr, attr);
}

/* Whether e is an expression whose value is never None: a call (an
 * object built), a container display or comprehension, a constant other
 * than None. */
static int never_none(const struct ast_hdr *e)
{
	if (!e)
		return 0;
	if (AST_IS(e, Constant))
		return AST_AS(e, Constant)->value.kind != AST_CONST_NONE;
	return AST_IS(e, Call) || AST_IS(e, List) || AST_IS(e, Tuple) || AST_IS(e, Dict) || AST_IS(e, Set) ||
	       AST_IS(e, ListComp) || AST_IS(e, DictComp) || AST_IS(e, SetComp);
}

/* A walk of a class's writes of self.<attr> (flag_walk_cb; move_walk_cb
 * for one_shot_move, own and lazy unused, cat its catalog). */
struct flag_walk {
	const char *attr;
	const struct catalog *cat;      /* move_walk_cb: catalog stored_back_moves */
	const struct ast_hdr *own;      /* the assignment that turns the flag off */
	int in_init;
	int lazy;                       /* `is None` test: writes of never_none() values keep it off */
	int bad;                        /* another write of the flag was found */
};

/* Whether a write of value e (elsewhere than `own`) keeps the test as the
 * block left it. */
static int write_ok(const struct flag_walk *w, const struct ast_hdr *e)
{
	if (w->lazy)
		return never_none(e) || (w->in_init && e && AST_IS(e, Constant) &&
		                         AST_AS(e, Constant)->value.kind == AST_CONST_NONE);
	return w->in_init && const_truth(e) >= 0;
}

static int flag_walk_cb(const struct ast_hdr *n, void *ctx)
{
	struct flag_walk *w = ctx;
	unsigned i;

	if (w->bad)
		return 1;
	if (AST_IS(n, Assign) && n != w->own) {
		const struct ast_Assign *a = AST_AS(n, Assign);

		for (i = 0; i < a->targets.n; i++)
			if (sets_attr(a->targets.items[i], w->attr) && !write_ok(w, a->value)) {
				w->bad = 1;
				return 1;
			}
	} else if (AST_IS(n, AugAssign) && sets_attr(AST_AS(n, AugAssign)->target, w->attr)) {
		w->bad = 1;
		return 1;
	} else if (AST_IS(n, AnnAssign) && sets_attr(AST_AS(n, AnnAssign)->target, w->attr) &&
	           !write_ok(w, AST_AS(n, AnnAssign)->value)) {
		w->bad = 1;
		return 1;
	}
	return ast_visit_children(n, flag_walk_cb, ctx);
}

/* Does a statement of a class of c's MRO (the repository's) make cb set
 * w->bad -- w->in_init set while a class's __init__ is walked?  A class
 * whose source is not read counts as one that does. */
static int mro_walk_bad(const struct vclass *c, ast_visit_fn cb, struct flag_walk *w)
{
	size_t k;
	unsigned i;

	for (k = 0; k < c->nmro; k++) {
		const struct ast_ClassDef *d = c->mro[k]->def;

		if (!d)
			return 1;
		for (i = 0; i < d->body.n; i++) {
			const struct ast_hdr *st = d->body.items[i];

			w->in_init = AST_IS(st, FunctionDef) && !strcmp(AST_AS(st, FunctionDef)->name, "__init__");
			cb(st, w);
			if (w->bad)
				return 1;
		}
	}
	return 0;
}

/* Whether any class of c's MRO (the repository's) writes .attr other than
 * by `own` and __init__'s constants. */
static int flag_written_elsewhere(const struct vclass *c, const char *attr, const struct ast_hdr *own, int lazy)
{
	struct flag_walk w = { attr, NULL, own, 0, lazy, 0 };

	return mro_walk_bad(c, flag_walk_cb, &w);
}

/* `self.m(...)` at the branch's top level, m a method of the object's
 * class whose own top level sets <its self>.attr to a constant of truth
 * `want` (`if not self.stats_loaded: self.load_stats()` where load_stats
 * ends with `self.stats_loaded = True`): that assignment, or NULL. */
static const struct ast_hdr *method_sets_flag(const struct frame *f, const struct ast_hdr *st, const char *attr,
                                              int want)
{
	const struct ast_Call *c;
	const struct ast_FunctionDef *d;
	const char *m;
	value_t *fn;
	unsigned i, k;

	if (!AST_IS(st, Expr) || !AST_IS(AST_AS(st, Expr)->value, Call))
		return NULL;
	c = AST_AS(AST_AS(st, Expr)->value, Call);
	if (!(m = self_attr(f, c->func)) || !(fn = class_lookup(f->self->u.inst->cls, m, NULL)) ||
	    fn->k != VK_FUNC || !AST_IS(fn->u.fn->def, FunctionDef))
		return NULL;
	d = AST_AS(fn->u.fn->def, FunctionDef);
	if (!d->args || !d->args->args.n)
		return NULL;
	for (i = 0; i < d->body.n; i++) {
		const struct ast_hdr *a = d->body.items[i];

		if (!AST_IS(a, Assign))
			continue;
		for (k = 0; k < AST_AS(a, Assign)->targets.n; k++) {
			const struct ast_hdr *t = AST_AS(a, Assign)->targets.items[k];

			if (sets_attr(t, attr) && AST_IS(AST_AS(t, Attribute)->value, Name) &&
			    !strcmp(AST_AS(AST_AS(t, Attribute)->value, Name)->id,
			            AST_AS(d->args->args.items[0], arg)->arg) &&
			    const_truth(AST_AS(a, Assign)->value) == want)
				return a;
		}
	}
	return NULL;
}

int one_shot_if(const struct frame *f, const struct ast_If *s, int taken)
{
	const struct ast_hdr *test = s->test;
	const struct ast_list *body = taken ? &s->body : &s->orelse;
	const struct ast_hdr *own = NULL;
	const char *attr;
	int negated = 0, lazy = 0;
	unsigned i, k;

	if (f->mode == M_FWD || !f->self || f->self->k != VK_INST || !f->self->u.inst->cls || !taken)
		return 0;
	/* `self.X is None`: a lazy start */
	if (AST_IS(test, Compare) && AST_AS(test, Compare)->ops.n == 1 &&
	    AST_AS(test, Compare)->ops.items[0] == AST_CMP_IS &&
	    AST_IS(AST_AS(test, Compare)->comparators.items[0], Constant) &&
	    AST_AS(AST_AS(test, Compare)->comparators.items[0], Constant)->value.kind == AST_CONST_NONE) {
		lazy = 1;
		test = AST_AS(test, Compare)->left;
	} else if (AST_IS(test, UnaryOp) && AST_AS(test, UnaryOp)->op == AST_UNARY_NOT) {
		negated = 1;
		test = AST_AS(test, UnaryOp)->operand;
	}
	if (!(attr = self_attr(f, test)))
		return 0;
	/* the branch turns the flag off at its own top level */
	for (i = 0; i < body->n && !own; i++) {
		const struct ast_hdr *st = body->items[i];

		if (!lazy && (own = method_sets_flag(f, st, attr, negated)))
			break;
		if (!AST_IS(st, Assign))
			continue;
		for (k = 0; k < AST_AS(st, Assign)->targets.n; k++) {
			const char *t = self_attr(f, AST_AS(st, Assign)->targets.items[k]);

			if (t && !strcmp(t, attr) &&
			    (lazy ? never_none(AST_AS(st, Assign)->value) : const_truth(AST_AS(st, Assign)->value) == negated))
				own = st;
		}
	}
	return own && !flag_written_elsewhere(f->self->u.inst->cls, attr, own, lazy);
}

/* Is e `<recv>.<m>(...)`, m a move that keeps a tensor already in place
 * (catalog stored_back_moves: to, cuda, type_as)?  Its receiver, or NULL. */
static const struct ast_hdr *move_recv(const struct catalog *cat, const struct ast_hdr *e)
{
	const struct ast_hdr *fn;

	if (!e || !AST_IS(e, Call) || !AST_IS(fn = AST_AS(e, Call)->func, Attribute))
		return NULL;
	return catalog_fact(cat, CATALOG_F_STORED_BACK_MOVES, AST_AS(fn, Attribute)->attr)
	       ? AST_AS(fn, Attribute)->value : NULL;
}

/* Is e `<obj>.<attr>` with obj the plain name `obj`? */
static int attr_of_name(const struct ast_hdr *e, const char *obj, const char *attr)
{
	return e && sets_attr(e, attr) && AST_IS(AST_AS(e, Attribute)->value, Name) &&
	       !strcmp(AST_AS(AST_AS(e, Attribute)->value, Name)->id, obj);
}

/* The statement `self.X = self.X.to(...)` (or .cuda(...), .type_as(y):
 * catalog stored_back_moves), or its list
 * form `self.X = [t.to(...) for t in self.X]`: a tensor (or a list of
 * them) of the object moved and stored back in its place (a scheduler's
 * table moved to the samples' device on its first use, a rotary table
 * or an anchor generator's cell anchors moved in a forward).  The first
 * call copies; every later one finds self.X there already and copies
 * nothing -- the move runs once.  Only when nothing else in the class
 * (and its repository bases) writes self.X but __init__ (its start), a
 * lazy start (`if self.X is None: self.X = <never None>`) and other
 * statements of this same form, and no augmented assignment does. */
static int move_of_attr(const struct catalog *cat, const struct ast_hdr *st, const char *attr)
{
	const struct ast_Assign *a;
	const struct ast_hdr *t, *r;
	const char *obj;

	if (!AST_IS(st, Assign))
		return 0;
	a = AST_AS(st, Assign);
	t = a->targets.items[0];
	if (a->targets.n != 1 || !sets_attr(t, attr) || !AST_IS(AST_AS(t, Attribute)->value, Name))
		return 0;
	obj = AST_AS(AST_AS(t, Attribute)->value, Name)->id;
	if ((r = move_recv(cat, a->value)))
		return attr_of_name(r, obj, attr);
	if (AST_IS(a->value, ListComp)) {
		const struct ast_ListComp *lc = AST_AS(a->value, ListComp);
		const struct ast_comprehension *g;

		if (lc->generators.n != 1)
			return 0;
		g = AST_AS(lc->generators.items[0], comprehension);
		return !g->ifs.n && !g->is_async && AST_IS(g->target, Name) && attr_of_name(g->iter, obj, attr) &&
		       (r = move_recv(cat, lc->elt)) && AST_IS(r, Name) &&
		       !strcmp(AST_AS(r, Name)->id, AST_AS(g->target, Name)->id);
	}
	return 0;
}

/* Is e `<name>.<attr> is None`? */
static int is_none_test(const struct ast_hdr *e, const char *attr)
{
	const struct ast_Compare *c;

	if (!e || !AST_IS(e, Compare))
		return 0;
	c = AST_AS(e, Compare);
	return c->ops.n == 1 && c->ops.items[0] == AST_CMP_IS && AST_IS(c->comparators.items[0], Constant) &&
	       AST_AS(c->comparators.items[0], Constant)->value.kind == AST_CONST_NONE &&
	       sets_attr(c->left, attr) && AST_IS(AST_AS(c->left, Attribute)->value, Name);
}

/* Is st `<name>.<attr> = <a value never None>` (never_none)? */
static int lazy_fill(const struct ast_hdr *st, const char *attr)
{
	return AST_IS(st, Assign) && AST_AS(st, Assign)->targets.n == 1 &&
	       sets_attr(AST_AS(st, Assign)->targets.items[0], attr) && never_none(AST_AS(st, Assign)->value);
}

static int move_walk_cb(const struct ast_hdr *n, void *ctx)
{
	struct flag_walk *w = ctx;
	unsigned i;

	if (w->bad)
		return 1;
	/* a lazy start, `if self.X is None: self.X = <never None>`: it
	 * fills self.X once, and after it only the moves write it (so a
	 * rotary table built on the first forward and moved there) -- its
	 * fills are no rebuild on the host; the rest of the block and the
	 * else branch are walked as usual */
	if (AST_IS(n, If) && is_none_test(AST_AS(n, If)->test, w->attr)) {
		const struct ast_If *s = AST_AS(n, If);

		for (i = 0; i < s->body.n && !w->bad; i++)
			if (!lazy_fill(s->body.items[i], w->attr))
				move_walk_cb(s->body.items[i], w);
		for (i = 0; i < s->orelse.n && !w->bad; i++)
			move_walk_cb(s->orelse.items[i], w);
		return w->bad;
	}
	if (AST_IS(n, Assign) && !w->in_init && !move_of_attr(w->cat, n, w->attr)) {
		const struct ast_Assign *a = AST_AS(n, Assign);

		for (i = 0; i < a->targets.n; i++)
			if (sets_attr(a->targets.items[i], w->attr)) {
				w->bad = 1;
				return 1;
			}
	} else if ((AST_IS(n, AugAssign) && sets_attr(AST_AS(n, AugAssign)->target, w->attr)) ||
	           (AST_IS(n, AnnAssign) && !w->in_init && sets_attr(AST_AS(n, AnnAssign)->target, w->attr))) {
		w->bad = 1;
		return 1;
	}
	return ast_visit_children(n, move_walk_cb, ctx);
}

int one_shot_move(const struct frame *f, const struct ast_hdr *st)
{
	const struct vclass *c;
	const char *attr;
	struct flag_walk w = { NULL, f->in->cat, NULL, 0, 0, 0 };

	if (!f->self || f->self->k != VK_INST || !(c = f->self->u.inst->cls) ||
	    !AST_IS(st, Assign) || AST_AS(st, Assign)->targets.n != 1 ||
	    !(attr = self_attr(f, AST_AS(st, Assign)->targets.items[0])) || !move_of_attr(w.cat, st, attr))
		return 0;
	w.attr = attr;
	return !mro_walk_bad(c, move_walk_cb, &w);
}
