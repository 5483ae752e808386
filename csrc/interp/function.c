/* interp/function.c - functions: definitions, parameters, calls, generators
 *
 * make_function() turns a def or lambda into a vfunc (defaults evaluated
 * where it is defined); call_function() runs one in a new frame after
 * bind_params() has bound the arguments as Python does (unknown for what
 * cannot be decided), in job or forward mode, within the depth, recursion
 * and cost bounds of budget.c.  A generator is read from its start up to
 * its first yield each time it is advanced (gen_next), or whole when it is
 * drained (gen_run_whole, for gendrain.c).
 */
#include "config.h"

#include "internal.h"
#include "ecg/shapes.h"

static int is_generator_walk(const struct ast_hdr *def);

/* Whether the function `def` is a generator (a yield in its own body): a
 * walk of the body, once per def (every call asks). */

static int is_generator(struct interp *in, const struct ast_hdr *def)
{
	struct amemo *m = amemo_slot(&in->genmemo, def, def, 0);

	if (m->key != def || !m->line) {
		m->file = def;
		m->key = def;
		m->line = 1 + is_generator_walk(def);
	}
	return m->line - 1;
}

/* ------------------------------------------------------------------ functions */

const struct ast_arguments *fn_args(const struct ast_hdr *def)
{
	if (AST_IS(def, FunctionDef))
		return AST_AS(def, FunctionDef)->args;
	if (AST_IS(def, AsyncFunctionDef))
		return AST_AS(def, AsyncFunctionDef)->args;
	if (AST_IS(def, Lambda))
		return AST_AS(def, Lambda)->args;
	return NULL;
}

static const struct ast_list *fn_body(const struct ast_hdr *def)
{
	if (AST_IS(def, FunctionDef))
		return &AST_AS(def, FunctionDef)->body;
	if (AST_IS(def, AsyncFunctionDef))
		return &AST_AS(def, AsyncFunctionDef)->body;
	return NULL;
}

static int contains_yield_cb(const struct ast_hdr *n, void *ctx)
{
	(void)ctx;
	if (AST_IS(n, Yield) || AST_IS(n, YieldFrom))
		return 1;
	if (AST_IS(n, FunctionDef) || AST_IS(n, AsyncFunctionDef) || AST_IS(n, Lambda) ||
	    AST_IS(n, ClassDef))
		return 0;
	return ast_visit_children(n, contains_yield_cb, ctx);
}

int ast_contains_yield(const struct ast_hdr *n)
{
	return n && contains_yield_cb(n, NULL);
}

static int is_generator_walk(const struct ast_hdr *def)
{
	const struct ast_list *body = fn_body(def);
	unsigned i;

	if (!body)
		return 0;
	for (i = 0; i < body->n; i++)
		if (contains_yield_cb(body->items[i], NULL))
			return 1;
	return 0;
}

value_t *make_function(struct frame *f, const struct ast_hdr *def, const char *name)
{
	struct interp *in = f->in;
	const struct ast_arguments *args = fn_args(def);
	struct vfunc *fn = ast_arena_alloc(in->a, sizeof *fn);
	value_t *v = ast_arena_alloc(in->a, sizeof *v);
	unsigned i;

	int in_class_body = f->cls && f->locals == f->cls->ns;

	fn->def = def;
	fn->file = f->file;
	fn->globals = f->globals;
	if (in_class_body)
		fn->qualname = adot(in, f->cls->qualname, name);
	else if (f->qualname && f->locals)
		fn->qualname = afmt(in, "%s.<locals>.%s", f->qualname, name);
	else
		fn->qualname = astr(in, name);
	/* a lambda is no def: its body's anchors name the scope around it */
	if (AST_IS(def, Lambda))
		fn->anchor_qual = f->anchor_q ? f->anchor_q : f->qualname ? f->qualname : "<module>";
	/* a class body is not an enclosing scope for its methods: they see
	 * the scopes around the class */
	fn->closure = in_class_body ? f->closure : f->locals;
	if (in_class_body) {
		fn->closure_up = f->closure_up;
	} else if (f->closure) {
		struct vscope *up = ast_arena_alloc(in->a, sizeof *up);

		up->d = f->closure;
		up->up = f->closure_up;
		fn->closure_up = up;
	}
	fn->owner = in_class_body ? f->cls : NULL;
	if (args) {
		fn->ndefaults = args->defaults.n;
		if (fn->ndefaults) {
			fn->defaults = ast_arena_alloc(in->a, fn->ndefaults * sizeof *fn->defaults);
			for (i = 0; i < args->defaults.n; i++)
				fn->defaults[i] = eval(f, args->defaults.items[i]);
		}
		fn->kwdefaults = vdict_new(in->a);
		for (i = 0; i < args->kwonlyargs.n; i++) {
			const struct ast_arg *a = AST_AS(args->kwonlyargs.items[i], arg);

			if (i < args->kw_defaults.n && args->kw_defaults.items[i])
				vdict_sets(in->a, fn->kwdefaults, a->arg, eval(f, args->kw_defaults.items[i]));
		}
	}
	v->k = VK_FUNC;
	v->u.fn = fn;
	return v;
}

/* Is v None, or a value that may be None (an undecided `if`'s merge)? */
static int may_be_none(const value_t *v)
{
	return v && (v->k == VK_NONE || (v->k == VK_UNKNOWN && v->may_none));
}

/* Bind arguments to a function's parameters in `locals`.  Missing ones
 * become unknown ("not passed"); one a *args or **kwargs not known may
 * set is unknown, and may be None when its default is. */
static void bind_params(struct frame *cf, struct vfunc *fn, value_t **args, size_t nargs,
                        struct vdict *kw, int prefix)
{
	struct interp *in = cf->in;
	const struct ast_arguments *a = fn_args(fn->def);
	size_t npos, i, k;
	value_t *star = NULL, *dstar = NULL;
	const struct ast_arg **pos;

	if (!a)
		return;
	npos = a->posonlyargs.n + a->args.n;
	pos = xmalloc((npos ? npos : 1) * sizeof *pos);
	for (i = 0; i < a->posonlyargs.n; i++)
		pos[i] = AST_AS(a->posonlyargs.items[i], arg);
	for (i = 0; i < a->args.n; i++)
		pos[a->posonlyargs.n + i] = AST_AS(a->args.items[i], arg);
	if (a->vararg)
		star = v_seq(in->a, VK_TUPLE, 0);
	if (a->kwarg)
		dstar = v_dict(in->a);
	for (i = 0; i < nargs; i++) {
		if (i < npos && i + 1 == nargs && args[i]->k == VK_UNKNOWN && kw && vdict_gets(kw, KW_UNK_STAR) &&
		    i + fn->ndefaults >= npos && may_be_none(fn->defaults[i + fn->ndefaults - npos])) {
			/* the last item stands for the rest of a *args not known
			 * (none, maybe): the parameter may keep its default None */
			value_t *u = v_unknown(in->a, args[i]->expr, args[i]->reason);

			u->may_none = 1;
			vdict_sets(in->a, cf->locals, pos[i]->arg, u);
		} else if (i < npos)
			vdict_sets(in->a, cf->locals, pos[i]->arg, args[i]);
		else if (star)
			vseq_push(in->a, star->u.seq, args[i]);
	}
	if (kw) {
		for (k = 0; k < kw->n; k++) {
			const char *name = kw->keys[k]->k == VK_STR ? kw->keys[k]->u.str.s : NULL;
			int found = 0;

			if (!name || kw_is_marker(kw->keys[k]))
				continue;
			for (i = a->posonlyargs.n; i < npos; i++)
				if (!strcmp(pos[i]->arg, name))
					found = 1;
			for (i = 0; i < a->kwonlyargs.n; i++)
				if (!strcmp(AST_AS(a->kwonlyargs.items[i], arg)->arg, name))
					found = 1;
			if (found)
				vdict_sets(in->a, cf->locals, name, kw->vals[k]);
			else if (dstar)
				vdict_sets(in->a, dstar->u.dict, name, kw->vals[k]);
		}
	}
	/* defaults for what was not passed -- unless a *args or **kwargs
	 * whose contents are not known may have passed it */
	for (i = 0; i < npos; i++) {
		value_t *mk;

		if (vdict_gets(cf->locals, pos[i]->arg))
			continue;
		if ((mk = kw_unk(kw, 1))) {
			value_t *u = v_unknown(in->a, astr(in, pos[i]->arg), mk->reason);

			/* the *args may not reach it: then it is its default */
			if (i + fn->ndefaults >= npos)
				u->may_none = may_be_none(fn->defaults[i + fn->ndefaults - npos]);
			vdict_sets(in->a, cf->locals, pos[i]->arg, u);
		} else if (i + fn->ndefaults >= npos)
			vdict_sets(in->a, cf->locals, pos[i]->arg, fn->defaults[i + fn->ndefaults - npos]);
		else
			vdict_sets(in->a, cf->locals, pos[i]->arg,
			           v_unknown(in->a, astr(in, pos[i]->arg), "a parameter the caller did not pass"));
	}
	for (i = 0; i < a->kwonlyargs.n; i++) {
		const char *name = AST_AS(a->kwonlyargs.items[i], arg)->arg;
		value_t *d;

		if (vdict_gets(cf->locals, name))
			continue;
		d = fn->kwdefaults ? vdict_gets(fn->kwdefaults, name) : NULL;
		if (kw_unk(kw, 0)) {
			int none = d && may_be_none(d);

			d = v_unknown(in->a, astr(in, name), kw_unk(kw, 0)->reason);
			d->may_none = (unsigned char)none;     /* the **kwargs may not hold it */
		}
		vdict_sets(in->a, cf->locals, name,
		           d ? d : v_unknown(in->a, astr(in, name), "a parameter the caller did not pass"));
	}
	if (star && kw && vdict_gets(kw, KW_UNK_STAR)) {
		star->u.seq->unk_expr = vdict_gets(kw, KW_UNK_STAR)->expr;
		star->u.seq->unk_reason = vdict_gets(kw, KW_UNK_STAR)->reason;
		star->u.seq->prefix = (unsigned char)prefix;
	}
	if (star)
		vdict_sets(in->a, cf->locals, a->vararg->arg, star);
	/* a `**d` of the call whose entries are not all listed: the
	 * **kwargs holds the listed ones and may hold others, which hold what
	 * d's entries not listed hold (eval.c dstar_unlisted), when every such
	 * `**` was a dict and that is a value known in kind (a tensor, an
	 * object); otherwise it is not known */
	if (dstar && kw_unk(kw, 0)) {
		const value_t *mk = kw_unk(kw, 0), *h = mk->recv;

		if (h && h->k == VK_DICT && h->u.dict->anyval && h->u.dict->anyval->k != VK_UNKNOWN &&
		    !vdict_gets(kw, KW_UNK_STAR)) {
			dstar->u.dict->anykey = h->u.dict->anykey;
			dstar->u.dict->anyval = h->u.dict->anyval;
			dstar->u.dict->anymixed = h->u.dict->anymixed;
			dstar->u.dict->exact = 0;
		} else {
			dstar = v_unknown(in->a, astr(in, a->kwarg->arg), mk->reason);
		}
	}
	if (dstar)
		vdict_sets(in->a, cf->locals, a->kwarg->arg, dstar);
	free(pos);
}

/* A generator object: the call that made it, read again (up to its first
 * yield) each time it is advanced. */
struct vgen {
	struct vfunc *fn;
	value_t *self;
	value_t **args;
	size_t nargs;
	struct vdict *kw;
	int running;
	struct vdict *locals;         /* a context manager's, at its yield */
	unsigned yield_at;            /* the index of that yield in the body */
	struct vinst *inner;          /* the generator its `yield from` entered */
	int held;                     /* its yield was reached: what follows is held */
	int held_no_grad;             /* frame.no_grad at its yield */
	const struct jctx *held_jc;   /* frame.jc at its yield: the contexts of the
	                                 `with` around it (no_grad, autocast) over
	                                 the caller's jc */
	long long items;              /* how many items it gives (genitems.c), as
	                                 its last reading up to its yield found;
	                                 -1 not known */
};

int is_gen_value(const value_t *v)
{
	return v->k == VK_INST && v->u.inst->gen;
}

/* next(gen) or one iteration of `for x in gen`: the generator's body read
 * from the start up to its first yield, whose value it returns (events on
 * the way, a DataLoader iterated, are the caller's step's), paired with an
 * index not known when g was made by enumerate(gen).  Unknown when no
 * yield is reached. */
value_t *gen_next(struct frame *f, struct vinst *g, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vgen *st = g->gen;
	value_t *r;

	if (st->running)
		return unknown_at(f, site, "a generator advanced from inside itself");
	st->running = 1;
	in->gen_entering = st->fn;
	{
		long long outer = in->gen_yield_items;   /* a generator advanced by this one's caller */

		in->gen_yield_items = -1;
		r = call_function(f, st->fn, st->self, st->args, st->nargs, st->kw, f->mode, f->ev, site);
		st->items = in->gen_yield_items;
		in->gen_yield_items = outer;
	}
	in->gen_entering = NULL;
	st->running = 0;
	if (g->enumerated) {
		/* enumerate(gen): the item comes with an index not known */
		value_t *pair = v_seq(in->a, VK_TUPLE, 2);

		vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the index", "a loop counter"));
		vseq_push(in->a, pair->u.seq, r);
		r = pair;
	}
	return r;
}

int gen_run_whole(struct frame *f, struct vinst *g, struct gdrain *d, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vgen *st = g->gen;

	if (st->running)
		return -1;
	st->running = 1;
	in->gen_draining = st->fn;
	in->drain_next = d;
	(void)call_function(f, st->fn, st->self, st->args, st->nargs, st->kw, f->mode, f->ev, site);
	in->gen_draining = NULL;
	in->drain_next = NULL;
	st->running = 0;
	return 0;
}

long long gen_item_count(const struct vinst *g)
{
	const struct vgen *st = g ? g->gen : NULL;

	return st ? st->items : -1;
}

const char *gen_function_name(const struct vinst *g)
{
	const struct vgen *st = g ? g->gen : NULL;

	return st && st->fn ? st->fn->qualname : NULL;
}

/* `yield` alone, yielding nothing or a value that holds no yield */
static int plain_yield(const struct ast_hdr *s)
{
	return AST_IS(s, Expr) && AST_IS(AST_AS(s, Expr)->value, Yield) &&
	       !(AST_AS(AST_AS(s, Expr)->value, Yield)->value &&
	         contains_yield_cb(AST_AS(AST_AS(s, Expr)->value, Yield)->value, NULL));
}

/* `with cm(...): yield`: a with statement whose body is that one yield
 * and whose context managers hold none.  Entered as a context manager,
 * the generator runs cm's entry and, when its yield returns, cm's exit
 * (exec.c exec_with leaves what it entered), before the caller's block
 * rather than around it: the same events, once each. */
static int with_just_yield(const struct ast_hdr *s)
{
	const struct ast_With *w;
	unsigned i;

	if (!AST_IS(s, With))
		return 0;
	w = AST_AS(s, With);
	if (w->body.n != 1 || !plain_yield(w->body.items[0]))
		return 0;
	for (i = 0; i < w->items.n; i++)
		if (contains_yield_cb(AST_AS(w->items.items[i], withitem)->context_expr, NULL))
			return 0;
	return 1;
}

/* `if C: ...; yield X; return` with no else, its test and its other
 * statements holding no yield: an early way out of a generator that
 * yields once there and ends (accelerate's split_between_processes with
 * one process) */
static int yield_return_guard(const struct ast_hdr *s)
{
	const struct ast_If *iff;
	const struct ast_hdr *last;
	unsigned i;

	if (!AST_IS(s, If))
		return 0;
	iff = AST_AS(s, If);
	if (iff->orelse.n || iff->body.n < 2 || contains_yield_cb(iff->test, NULL))
		return 0;
	last = iff->body.items[iff->body.n - 1];
	if (!AST_IS(last, Return) || AST_AS(last, Return)->value || !plain_yield(iff->body.items[iff->body.n - 2]))
		return 0;
	for (i = 0; i + 2 < iff->body.n; i++)
		if (contains_yield_cb(iff->body.items[i], NULL))
			return 0;
	return 1;
}

/* The index of the one top-level `yield` (or `yield from`, or `with
 * ...: yield`) statement of def's body, or -1 when the body has another
 * yield (nested, or a second one) or none.  Early-way-out guards
 * (yield_return_guard) before it are allowed when it is the body's last
 * statement: whichever yield is reached, leaving the context manager
 * runs nothing more. */
static int top_level_yield(const struct ast_hdr *def)
{
	const struct ast_list *body = fn_body(def);
	unsigned i;
	int at = -1, guarded = 0;

	for (i = 0; body && i < body->n; i++) {
		const struct ast_hdr *s = body->items[i];

		if (at < 0 && yield_return_guard(s)) {
			guarded = 1;
			continue;
		}
		if (with_just_yield(s) || (AST_IS(s, Expr) && AST_IS(AST_AS(s, Expr)->value, Yield) &&
		     !(AST_AS(AST_AS(s, Expr)->value, Yield)->value &&
		       contains_yield_cb(AST_AS(AST_AS(s, Expr)->value, Yield)->value, NULL))) ||
		    (AST_IS(s, Expr) && AST_IS(AST_AS(s, Expr)->value, YieldFrom) &&
		     !contains_yield_cb(AST_AS(AST_AS(s, Expr)->value, YieldFrom)->value, NULL))) {
			if (at >= 0)
				return -1;
			at = (int)i;
		} else if (contains_yield_cb(s, NULL)) {
			return -1;
		}
	}
	if (guarded && at >= 0 && (unsigned)at + 1 != body->n)
		return -1;
	return at;
}

/* g entered as a context manager; decorated: g's function must be a
 * @contextmanager (a `with` of it), else any generator (one a context
 * manager delegates to with `yield from`) */
static value_t *ctx_enter(struct frame *f, struct vinst *g, const struct ast_hdr *site, int decorated)
{
	struct interp *in = f->in;
	struct vgen *st = g->gen;
	int at;
	value_t *r;

	if (!st || st->running || (decorated && !st->fn->ctxmanager))
		return NULL;
	if ((at = top_level_yield(st->fn->def)) < 0) {
		/* a yield nested in the body (under an if, a with, a try):
		 * not resumable here; a @contextmanager's body is drained
		 * at the entry, once (gendrain.c) */
		st->locals = NULL;
		st->inner = NULL;
		return decorated ? gen_drain_ctx(f, g, site) : NULL;
	}
	st->yield_at = (unsigned)at;
	st->locals = NULL;
	st->inner = NULL;
	st->held = 0;
	st->held_jc = NULL;
	st->running = 1;
	in->gen_entering = st->fn;
	in->gen_capture = st;
	r = call_function(f, st->fn, st->self, st->args, st->nargs, st->kw, f->mode, f->ev, site);
	in->gen_entering = NULL;
	in->gen_capture = NULL;
	st->running = 0;
	return r;
}

value_t *gen_ctx_enter(struct frame *f, struct vinst *g, const struct ast_hdr *site)
{
	return ctx_enter(f, g, site, 1);
}

void gen_ctx_note_yield(struct frame *f)
{
	struct vgen *st = f->ctx_gen;

	if (!st)
		return;
	st->held = 1;
	st->held_no_grad = f->no_grad;
	st->held_jc = f->jc;
}

int gen_ctx_held(const struct frame *f, const struct vinst *g, const struct jctx **jc)
{
	const struct vgen *st = g ? g->gen : NULL;
	const struct jctx *j;

	*jc = NULL;
	if (!st || !st->held)
		return 0;
	/* the contexts around the yield extend the caller's chain (cf.jc
	 * starts as the caller's): kept only then */
	for (j = st->held_jc; j && j != f->jc; j = j->up)
		;
	if (j == f->jc && st->held_jc != f->jc)
		*jc = st->held_jc;
	return st->held_no_grad > f->no_grad ? st->held_no_grad - f->no_grad : 0;
}

value_t *gen_ctx_delegate(struct frame *f, value_t *src, const struct ast_hdr *site)
{
	value_t *y;

	if (!f->ctx_gen || !is_gen_value(src) || !(y = ctx_enter(f, src->u.inst, site, 0)))
		return NULL;
	f->ctx_gen->inner = src->u.inst;
	return y;
}

void gen_ctx_exit(struct frame *f, struct vinst *g, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vgen *st = g->gen;

	if (!st || st->running || !st->locals)
		return;
	if (st->inner) {
		/* the generator its `yield from` entered: left first */
		struct vinst *inner = st->inner;

		st->inner = NULL;
		gen_ctx_exit(f, inner, site);
	}
	st->running = 1;
	in->gen_entering = st->fn;
	in->gen_resume = st;
	(void)call_function(f, st->fn, st->self, st->args, st->nargs, st->kw, f->mode, f->ev, site);
	in->gen_entering = NULL;
	in->gen_resume = NULL;
	st->running = 0;
	st->locals = NULL;
}

struct vfunc *repo_method(struct interp *in, const value_t *v, const char *name, int gen)
{
	if (v->k != VK_INST || !v->u.inst->cls || v->u.inst->mod != VM_NONE || v->u.inst->gen)
		return NULL;
	return class_method(in, v->u.inst->cls, name, gen);
}

struct vfunc *class_method(struct interp *in, struct vclass *c, const char *name, int gen)
{
	value_t *m = class_lookup(c, name, NULL);

	if (!m || m->k != VK_FUNC || m->u.fn->is_static || m->u.fn->is_classmethod || m->u.fn->is_property ||
	    !fn_body(m->u.fn->def) || (gen >= 0 && is_generator(in, m->u.fn->def) != gen))
		return NULL;
	return m->u.fn;
}

value_t *iter_dunder_gen(struct frame *f, value_t *v, const struct ast_hdr *site)
{
	struct vfunc *m;
	value_t *g;

	if (f->mode == M_FWD || is_loader(v) || !(m = repo_method(f->in, v, "__iter__", 1)))
		return NULL;
	g = call_function(f, m, v, NULL, 0, NULL, f->mode, f->ev, site);
	return is_gen_value(g) ? g : NULL;
}

/* next(v) of an object of a repository class with its own __next__, a
 * plain method (a cycling iterator over a loader): that method's result,
 * read where next() is called; NULL when v is no such object. */
value_t *next_dunder(struct frame *f, value_t *v, const struct ast_hdr *site)
{
	struct vfunc *m = repo_method(f->in, v, "__next__", 0);

	return m ? call_function(f, m, v, NULL, 0, NULL, f->mode, f->ev, site) : NULL;
}

/* v is an object of a repository class that is its own iterator: a
 * plain __iter__ whose every return is `return self`, and a __next__
 * next_dunder() reads.  Nothing is run; never fails. */
int iter_self_next(struct frame *f, value_t *v)
{
	struct vfunc *m;
	const struct ast_list *body;
	unsigned i, nret = 0;

	if (f->mode == M_FWD || is_loader(v) || !(m = repo_method(f->in, v, "__iter__", 0)))
		return 0;
	body = fn_body(m->def);
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *st = body->items[i];
		const struct ast_Return *r;

		if (AST_IS(st, Expr) && AST_IS(AST_AS(st, Expr)->value, Constant))
			continue;               /* its docstring */
		if (!AST_IS(st, Return))
			return 0;
		r = AST_AS(st, Return);
		if (!AST_IS(r->value, Name) || strcmp(AST_AS(r->value, Name)->id, "self"))
			return 0;
		nret++;
	}
	return nret && repo_method(f->in, v, "__next__", 0);
}

/* Walk for iter_endless: *raise counts raise statements, *restart
 * handlers of StopIteration. */
struct endless_walk {
	int raises, restarts;
};

static int endless_cb(const struct ast_hdr *n, void *ctx)
{
	struct endless_walk *w = ctx;

	if (AST_IS(n, Raise))
		w->raises++;
	if (AST_IS(n, ExceptHandler) && AST_AS(n, ExceptHandler)->type && AST_IS(AST_AS(n, ExceptHandler)->type, Name) &&
	    !strcmp(AST_AS(AST_AS(n, ExceptHandler)->type, Name)->id, "StopIteration"))
		w->restarts++;
	return ast_visit_children(n, endless_cb, ctx);
}

/* v is an iterator object of a repository class (iter_self_next) whose
 * __next__ never ends the iteration: it catches StopIteration (starting
 * its source again: a cycling iterator) and raises nothing itself.  Nothing
 * is run; never fails. */
int iter_endless(struct frame *f, value_t *v)
{
	struct vfunc *m;
	const struct ast_list *body;
	struct endless_walk w = { 0, 0 };
	unsigned i;

	if (!iter_self_next(f, v) || !(m = repo_method(f->in, v, "__next__", 0)))
		return 0;
	body = fn_body(m->def);
	for (i = 0; i < body->n; i++)
		endless_cb(body->items[i], &w);
	return !w.raises && w.restarts;
}

/* ECG_TRACE_CALLS=N (a development aid): the calls at depth < N are
 * printed as they are entered, with the steps spent so far. */
static int trace_calls_depth(void)
{
	static int depth = -1;

	if (depth < 0) {
		const char *s = getenv("ECG_TRACE_CALLS");

		depth = s ? atoi(s) : 0;
	}
	return depth;
}

/* Two values a function may return, on the two paths of a condition not
 * decided here: a scalar, string or container that differs is not known
 * (has_checkpoint_state(): `if not found: return False ... return True`);
 * objects, tensors and functions keep the later one, as before. */
static int ret_structural(const value_t *v)
{
	return v->k == VK_INST || v->k == VK_TENSOR || v->k == VK_FUNC || v->k == VK_BOUND ||
	       v->k == VK_CLASS || v->k == VK_EXT || v->k == VK_NS || v->k == VK_BUILTIN;
}

/* what a path may return where the other returns None, kept as
 * alternatives by ret_join: a plain object, or a value not known (not
 * already alternatives), never a module nor a tensor */
static int ret_maybe_none_alt(const value_t *v)
{
	if (v->k == VK_UNKNOWN)
		return !v->alts;
	return alts_object(v) && !(v->k == VK_INST && v->u.inst->mod != VM_NONE);
}

/* The one repo class of every item of a list (known or read once), or
 * NULL; *n counts the items. */
static struct vclass *list_item_class(const value_t *v, size_t *n)
{
	struct vclass *c = NULL;
	size_t i;

	for (i = 0; i < v->u.seq->n; i++) {
		const value_t *x = v->u.seq->items[i];

		if (x->k != VK_INST || !x->u.inst->cls || (c && x->u.inst->cls != c))
			return NULL;
		c = x->u.inst->cls;
	}
	*n += v->u.seq->n;
	return c ? c : (struct vclass *)1;
}

/* `if not buffers: return []` ... `return [Group(b) for b in buffers]`:
 * two lists of objects of one repo class (or empty) on the two paths: a
 * list of a length not known, one of those objects standing for its items
 * (a loop over it reads its body once, its count not known). NULL when
 * they are not such lists. */
static value_t *same_class_lists(struct frame *f, value_t *a, value_t *b, const char *cond)
{
	struct vclass *ca, *cb;
	size_t n = 0;
	value_t *r;

	if (a->k != VK_LIST || b->k != VK_LIST || a->alts || b->alts)
		return NULL;
	ca = list_item_class(a, &n);
	cb = ca ? list_item_class(b, &n) : NULL;
	if (!ca || !cb || !n || (ca != (struct vclass *)1 && cb != (struct vclass *)1 && ca != cb))
		return NULL;
	r = v_seq(f->in->a, VK_LIST, 1);
	vseq_push(f->in->a, r->u.seq, b->u.seq->n ? b->u.seq->items[0] : a->u.seq->items[0]);
	r->u.seq->unk_reason = afmt_memo(f->in, "returned on a path `%s` decides, which is not decided here: its length is not known",
	                                 cond, NULL);
	return r;
}

/* `return [torch.zeros([], device=d)]` on one path, `return res` (a
 * list of one tensor) on the other: two lists (or two tuples) as long,
 * each item a tensor on both paths -- a list of those tensors, each
 * where both paths put it (else where is not known), its shape the
 * join; NULL otherwise. */
value_t *tensor_seqs_join(struct frame *f, const value_t *a, const value_t *b)
{
	struct interp *in = f->in;
	value_t *r;
	size_t i;

	if (a->k != b->k || (a->k != VK_LIST && a->k != VK_TUPLE) || a->u.seq->unk_reason || b->u.seq->unk_reason ||
	    a->u.seq->n != b->u.seq->n || !a->u.seq->n || a->u.seq->n > 64)
		return NULL;
	for (i = 0; i < a->u.seq->n; i++)
		if (a->u.seq->items[i]->k != VK_TENSOR || b->u.seq->items[i]->k != VK_TENSOR)
			return NULL;
	r = v_seq(in->a, a->k, a->u.seq->n);
	for (i = 0; i < a->u.seq->n; i++) {
		const value_t *x = a->u.seq->items[i], *y = b->u.seq->items[i];
		value_t *t = tensor_join(in, x, y);

		t->dev = x->dev == y->dev ? x->dev : DEV_UNKNOWN;
		vseq_push(in->a, r->u.seq, t);
	}
	return r;
}

/* a dtype the job names, or a tuple or list holding one (`return
 * torch.float32, "why"`) */
static int ret_holds_dtype(struct interp *in, const value_t *v)
{
	size_t i;

	if (v->k == VK_EXT)
		return value_is_dtype(in->cat, v);
	for (i = 0; (v->k == VK_TUPLE || v->k == VK_LIST) && v->u.seq && i < v->u.seq->n && i < 16; i++)
		if (v->u.seq->items[i]->k == VK_EXT && value_is_dtype(in->cat, v->u.seq->items[i]))
			return 1;
	return 0;
}

value_t *ret_join(struct frame *f, value_t *a, value_t *b, const char *cond)
{
	if (!a || !b || a == b)
		return b ? b : a;
	if (value_is_known_scalar(a) && value_is_known_scalar(b) && value_key_eq(a, b))
		return b;
	if (a->k == VK_NONE && b->k == VK_NONE)
		return b;
	/* `if cuda: return torch.device("cuda")` / `return torch.device("cpu")`:
	 * a device whose type the path decides, not the later one */
	if (a->k == VK_INST && b->k == VK_INST && a->u.inst->ext && b->u.inst->ext &&
	    !strcmp(a->u.inst->ext, "torch.device") && !strcmp(b->u.inst->ext, "torch.device")) {
		value_t *ta = vdict_gets(a->u.inst->attrs, "type"), *tb = vdict_gets(b->u.inst->attrs, "type");
		value_t *ia = vdict_gets(a->u.inst->attrs, "index"), *ib = vdict_gets(b->u.inst->attrs, "index");
		int same_type = ta && tb && ta->k == VK_STR && tb->k == VK_STR && !strcmp(ta->u.str.s, tb->u.str.s);
		struct vinst *c;

		if (same_type && ia && ib && value_is_known_scalar(ia) && value_is_known_scalar(ib) &&
		    value_key_eq(ia, ib))
			return b;
		c = new_inst(f->in);
		c->ext = "torch.device";
		/* two known types: the device chosen at run time (devchoice.c) */
		vdict_sets(f->in->a, c->attrs, "type", same_type ? tb
		           : ta && tb && (ta->k == VK_STR || alts_scalars(ta)) && (tb->k == VK_STR || alts_scalars(tb))
		           ? v_alts(f, cond, ta, tb)
		           : v_unknown(f->in->a, NULL, afmt_memo(f->in, "a device type `%s` decides", cond, NULL)));
		vdict_sets(f->in->a, c->attrs, "index",
		           v_unknown(f->in->a, NULL, afmt_memo(f->in, "a device index `%s` decides", cond, NULL)));
		return mk_inst_value(f->in, c);
	}
	/* `if not enabled: return None ... return mesh`: None on one path, an
	 * object or a value not known on the other.  Keeping the later one
	 * would decide `is None` (an unknown is never None) and run a branch
	 * the job may skip; kept as alternatives (alts.c), `is None` stays
	 * undecided while attributes and calls follow the other path.  A
	 * module is kept as before (the model tree). */
	if ((a->k == VK_NONE && ret_maybe_none_alt(b)) || (b->k == VK_NONE && ret_maybe_none_alt(a)))
		return v_alts(f, cond, a, b);
	/* the side reading of what a job's model call returns (modelret.c):
	 * the job reads the structure, so never one path's -- two tensors
	 * join (shape and place); a tensor and another value are not known
	 * (alternatives would let a reader take the other path: alts.c's
	 * device-tensor pairs) */
	if (f->in->rv_reading && a->k == VK_TENSOR && b->k == VK_TENSOR) {
		value_t *r = v_tensor_dev(f->in->a, a->dev == b->dev ? a->dev : DEV_UNKNOWN, 0);

		r->shape = a->shape && b->shape ? shape_join(f->in->a, a->shape, b->shape) : NULL;
		r->dt = a->dt == b->dt ? a->dt : DT_UNKNOWN;
		return r;
	}
	if (f->in->rv_reading && (a->k == VK_TENSOR || b->k == VK_TENSOR))
		return v_unknown(f->in->a, NULL,
		                 afmt_memo(f->in, "returned on a path `%s` decides, which is not decided here", cond, NULL));
	/* `if cuda: return torch.bfloat16` / `return torch.float32`: a dtype,
	 * not the later one -- keeping it would decide `dtype ==
	 * torch.bfloat16` (dtypeeq.c); still a dtype, so .to() of it casts */
	if (a->k == VK_EXT && b->k == VK_EXT && value_is_dtype(f->in->cat, a) && value_is_dtype(f->in->cat, b) &&
	    strcmp(a->u.ext, b->u.ext))
		return v_unknown(f->in->a, NULL, PATH_DTYPE_REASON);
	if (ret_structural(a) || ret_structural(b))
		return b;
	/* a value not known on one path, a string or number on the other
	 * (`if x is None: return "eager" ... return x`): keeping the later
	 * one would decide which; unknown, below */
	if ((a->k == VK_UNKNOWN || b->k == VK_UNKNOWN) && !value_is_known_scalar(a) && !value_is_known_scalar(b) &&
	    !ret_holds_dtype(f->in, a) && !ret_holds_dtype(f->in, b))
		return b;       /* (not a dtype, nor a tuple holding one: the
		                 * later path's would decide a comparison) */
	/* `if rank0: return {...} else: return {}`, both host data: kept as
	 * alternatives, so that saving it is known to copy nothing from a
	 * device (torch.c host_only); every other reader sees an unknown */
	{
		/* (two lists of objects of one class first: host data too, now
		 * that such objects may be known to hold only host data) */
		value_t *l = same_class_lists(f, a, b, cond);

		if (l)
			return l;
		if (host_only(a, 0) && host_only(b, 0))
			return v_alts(f, cond, a, b);
		if ((l = dict_pair_join(f->in, a, b, cond)))
			return l;       /* two dicts of the same keys (dictjoin.c) */
		if ((l = tensor_seqs_join(f, a, b)))
			return l;
	}
	return v_unknown(f->in->a, NULL,
	                 afmt_memo(f->in, "returned on a path `%s` decides, which is not decided here", cond, NULL));
}

/* A generator's body reached a yield: f->ret is its value.  The first one
 * reached is kept (gen_item), and the return under way is a yield's. */
void gen_note_yield(struct frame *f, const struct ast_hdr *st)
{
	if (f->yield_site && f->yield_site != st)
		f->yield_sites = 1;
	if (!f->yield_site)
		f->yield_site = st;
	if (!f->yield_first)
		f->yield_first = f->ret;
	f->ret_is_yield = 1;
}

/* What one advance of a generator gives, its body read up to a yield:
 * RET, what the reading returned (a later yield joined with one on a path
 * of an undecided `if`), unless the reading ended by a `return` or at
 * the body's end -- which gives no item in Python (StopIteration): then
 * the item is the value of the yield reached on a path of an undecided
 * `if` (`for b in loader: if valid(b): yield b` and a `return` after the
 * loop: the item is b, not None).  A reading that reached one yield
 * statement gives that yield's value whatever else it met (`if
 * len(batch) == size: yield collate(batch)` in a loop over items not
 * known, inside `while True:`): every item Python takes on the paths it
 * read is one. */
value_t *gen_item(const struct frame *cf, enum flow fl, value_t *ret)
{
	if (cf->yield_first && (!(fl == FL_RETURN && cf->ret_is_yield) || !cf->yield_sites))
		return cf->yield_first;
	return ret;
}

/* v was returned on one path of the undecided `if cond`; the other path
 * goes on to a later return. */
void ret_note_alt(struct frame *f, value_t *v, const char *cond)
{
	if (!v)
		return;
	f->ret_alt = f->ret_alt ? ret_join(f, f->ret_alt, v, f->ret_alt_cond) : v;
	if (!f->ret_alt_cond)
		f->ret_alt_cond = cond;
}

/* one argument of two calls: the same value, two values not known, or
 * equal known scalars */
static int same_arg(const value_t *a, const value_t *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	if (a->k == VK_UNKNOWN && b->k == VK_UNKNOWN)
		return !a->alts && !b->alts;
	if (a->k == VK_NONE && b->k == VK_NONE)
		return 1;
	return value_is_known_scalar(a) && value_is_known_scalar(b) && value_key_eq(a, b);
}

/* A call of def, which is running, with the arguments of its innermost
 * running call (each the same value, or not known there and here):
 * reading it again reads what that call reads, a level deeper, to learn
 * nothing (Transformer Engine's gather_along_first_dim calls itself on
 * the two parts of a tensor whose type is not decided here, 2^6 times). */
static int same_as_caller(const struct interp *in, const struct ast_hdr *def, const value_t *self,
                          value_t **args, size_t nargs, const struct vdict *kw)
{
	int i;
	size_t k;

	for (i = in->nactive - 1; i >= 0 && in->active[i].def != def; i--)
		;
	/* a method called on another object (a child module's) is not */
	if (i < 0 || in->active[i].nargs != nargs || in->active[i].self != self)
		return 0;
	for (k = 0; k < nargs; k++)
		if (!same_arg(args[k], in->active[i].args[k]))
			return 0;
	if ((kw ? kw->n : 0) != (in->active[i].kw ? in->active[i].kw->n : 0))
		return 0;
	for (k = 0; kw && k < kw->n; k++) {
		value_t *o = vdict_get(in->active[i].kw, kw->keys[k]);

		if (!o || !same_arg(kw->vals[k], o))
			return 0;
	}
	return 1;
}

value_t *call_function(struct frame *f, struct vfunc *fn, value_t *self, value_t **args,
                       size_t nargs, struct vdict *kw, enum mode mode, struct fseq *ev,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct frame cf;
	struct vgen *capture, *resume;
	value_t **all = NULL;
	value_t *ret;
	size_t i;
	struct fncost *cost;
	const struct ast_hdr *cost_site;
	long steps0;
	int level0, outermost, nact = 0, nkey;
	const void *key;
	long long ofo;
	const struct sched_call *ocall;

	if (in->depth >= MAX_DEPTH || (nact = fn_active(in, fn->def)) >= MAX_SAME_FN)
		return unknown_at(f, site, in->depth >= MAX_DEPTH ? "calls nested too deeply to follow"
		                                                 : "a recursive call");
	if (nact > 0 && nargs + (kw ? kw->n : 0) > 0) {
		/* a function calling itself again on values none of which is
		 * known (a type walker's `_extract_type(get_args(t)[0])` under
		 * undecided `if`s): each level would read both paths of each
		 * branch again, 2^depth times, to learn nothing */
		size_t k, known = 0;

		for (k = 0; k < nargs; k++)
			if (args[k]->k != VK_UNKNOWN)
				known++;
		for (k = 0; kw && k < kw->n; k++)
			if (kw->vals[k]->k != VK_UNKNOWN)
				known++;
		if (!known) {
			value_t *u = unknown_at(f, site, "a recursive call on values that are not known");

			/* the function may hand an argument back as it is (a
			 * converter's `else: return opt` over a dict's leaves):
			 * one that may be None keeps `is None` of the result
			 * undecided (a path found by a glob, or None) */
			for (k = 0; k < nargs && !u->may_none; k++)
				u->may_none = alts_may_none(args[k], 0);
			for (k = 0; kw && k < kw->n && !u->may_none; k++)
				u->may_none = alts_may_none(kw->vals[k], 0);
			return u;
		}
		if (same_as_caller(in, fn->def, self, args, nargs, kw))
			return unknown_at(f, site, "a recursive call on the values of the call it is in");
	}
	/* a call from a module's own statements (an import runs them once)
	 * is charged to its site: timm's @register_model runs once at each
	 * of 1,300 model defs, ~210 steps each, and past 250,000 in all the
	 * models of the modules read last had no registry entry.  Calls from
	 * a function's body share the function's one account. */
	cost_site = !f->locals ? site : NULL;
	/* a closure has an account of its own (cost_key_of): the one wrapper
	 * def of a decorator (misc.profiled_function's `decorator`) is each
	 * function it wraps, and the steps of a costly one (a modulated conv)
	 * are not the share of a cheap one (training_stats.report) */
	key = cost_key_of(fn);
	nkey = key == (const void *)fn->def ? nact : cost_key_active(in, key);   /* a def: counted above */
	cost = fn_cost(in, key);
	if (*site_cost(in, key, cost_site) + (nkey ? level_steps(in, cost->level) - cost->since : 0) > MAX_FN_STEPS) {
		/* a helper that recurses over data or loops over a whole state
		 * dict: it has had its share of the budget (a recursive one
		 * counts what its running outermost call has spent so far:
		 * one merge over a model's state dict took 680,000 steps) */
		if (!cost->noted) {
			cost->noted = 1;
			note(in, aanchor(in, fn->file->path, fn->qualname, func_first_line(fn->def)), "a costly function",
			     afmt(in, "not followed again after %ld evaluation steps spent in it; its later results are unknown",
			          (long)MAX_FN_STEPS));
		}
		return unknown_at(f, site, "a function not followed again (it cost too many evaluation steps)");
	}
	if (trace_calls_depth() > in->depth)
		fprintf(stderr, "call: %*s%s:%s (%ld steps)\n", in->depth, "", fn->file->path,
		        fn->qualname ? fn->qualname : "?", in->steps);
	outermost = nkey == 0;
	level0 = in->ctor_level;
	steps0 = level_steps(in, level0);
	if (outermost) {
		cost->since = steps0;
		cost->level = level0;
	}
	if (is_generator(in, fn->def) && !in->run_generators && fn != in->gen_entering && fn != in->gen_draining) {
		/* a generator object: its body is read when it is iterated */
		struct vinst *g;
		struct vgen *st;

		if (mode == M_FWD)
			return unknown_at(f, site, "a generator function");
		g = new_inst(in);
		g->ext = "<generator>";
		st = ast_arena_alloc(in->a, sizeof *st);
		st->fn = fn;
		st->self = self;
		st->nargs = nargs;
		st->args = ast_arena_alloc(in->a, (nargs + 1) * sizeof *st->args);
		for (i = 0; i < nargs; i++)
			st->args[i] = args[i];
		st->kw = kw;
		st->items = -1;
		g->gen = st;
		return mk_inst_value(in, g);
	}
	memset(&cf, 0, sizeof cf);
	cf.gen_body = fn == in->gen_entering;
	in->gen_entering = NULL;
	if (fn == in->gen_draining)
		cf.drain = in->drain_next;
	in->gen_draining = NULL;
	in->drain_next = NULL;
	/* a context manager's generator entered (its locals kept at the
	 * yield) or left (its body after the yield, in those locals) */
	capture = cf.gen_body && in->gen_capture && in->gen_capture->fn == fn ? in->gen_capture : NULL;
	resume = cf.gen_body && in->gen_resume && in->gen_resume->fn == fn ? in->gen_resume : NULL;
	in->gen_capture = NULL;
	in->gen_resume = NULL;
	cf.ctx_gen = capture;
	cf.in = in;
	cf.file = fn->file;
	cf.globals = fn->globals;
	cf.locals = vdict_new(in->a);
	cf.closure = fn->closure;
	cf.closure_up = fn->closure_up;
	cf.qualname = fn->qualname;
	cf.anchor_q = fn->anchor_qual;
	cf.def_line = func_first_line(fn->def);
	cf.scope_def = fn->def;
	cf.cls = fn->owner;
	cf.mode = mode;
	cf.ev = ev;
	cf.mult.n = 1;
	cf.cond.taken = -1;
	cf.depth = f->depth + 1;
	cf.loop_anchor = f->loop_anchor;
	cf.jc = f->jc;
	cf.jc_entry = f->jc;
	/* an lru_cache'd function in job code: its first call computes, the
	 * others return what it did -- its events happen once, outside the
	 * loops of the call that ran it */
	if (fn->cached && mode != M_FWD) {
		if (fn->cache_ret)
			return fn->cache_ret;
		cf.jc = NULL;
		cf.loop_anchor = NULL;
	}
	cf.in_backward = f->in_backward;
	cf.item_cond = f->item_cond;
	cf.no_grad = f->no_grad + fn->no_grad;
	if (fn->no_grad)
		cf.jc = jc_push(f, JC_NO_GRAD, aanchor(in, fn->file->path, fn->qualname, func_first_line(fn->def)),
		                "@torch.no_grad()");
	cf.handler = f->handler;
	if (fn->no_grad && mode != M_FWD && !in->ev.no_grad)
		in->ev.no_grad = aanchor(in, fn->file->path, fn->qualname, func_first_line(fn->def));
	if (self) {
		all = xmalloc((nargs + 1) * sizeof *all);
		all[0] = self;
		for (i = 0; i < nargs; i++)
			all[i + 1] = args[i];
		bind_params(&cf, fn, all, nargs + 1, kw, f->unk_star_prefix);
		cf.self = self;
		free(all);
	} else {
		bind_params(&cf, fn, args, nargs, kw, f->unk_star_prefix);
		if (nargs > 0 && fn->owner)
			cf.self = args[0];
	}
	itemargs_note(f, &cf, fn, site, self != NULL);
	parallel_note_params(f, &cf, site);
	ocall = in->cur_call;
	if (mode != M_FWD) {
		/* a call of job code: its node (sched_ev.in_call) */
		struct sched_call *sc = ast_arena_alloc(in->a, sizeof *sc);

		sc->up = ocall;
		sc->at = f->jc;
		sc->site = site;
		sc->evals = 0;
		/* opt.step() of the repository's own optimizer class: its
		 * collectives and reads are the optimizer step's (schedule.c) */
		sc->opt_step = self && is_optimizer(self) && AST_IS(fn->def, FunctionDef) &&
		               !strcmp(AST_AS(fn->def, FunctionDef)->name, "step");
		in->cur_call = sc;
	}
	in->depth++;
	in->active[in->nactive].def = fn->def;
	in->active[in->nactive].cost_key = key;
	in->active[in->nactive].self = self;
	in->active[in->nactive].args = args;
	in->active[in->nactive].nargs = nargs;
	in->active[in->nactive].kw = kw;
	in->nactive++;
	ofo = in->fwd_outer;
	if (mode == M_FWD && f->mode == M_FWD)
		/* a helper called from a forward runs as often as the call:
		 * the schedule counts its events so (jobctx.c) */
		in->fwd_outer = runs_times(ofo, f->mult.n);
	if (resume) {
		struct ast_list rest = *fn_body(fn->def);

		struct exit_writes ew = { NULL, 0, 0 }, *oew = in->exit_writes;

		cf.locals = resume->locals;
		rest.items += resume->yield_at + 1;
		rest.n -= resume->yield_at + 1;
		in->exit_writes = &ew;
		(void)exec_block(&cf, &rest);
		in->exit_writes = oew;
		exit_writes_apply(in, &ew);
		ret = v_none(in->a);
	} else if (AST_IS(fn->def, Lambda)) {
		ret = eval(&cf, AST_AS(fn->def, Lambda)->body);
	} else {
		struct exit_writes ew = { NULL, 0, 0 }, *oew = in->exit_writes;
		enum flow fl;

		in->exit_writes = &ew;
		fl = exec_block(&cf, fn_body(fn->def));
		in->exit_writes = oew;
		exit_writes_apply(in, &ew);   /* early returns' writes, for the caller */

		ret = fl == FL_RETURN && cf.ret ? cf.ret : v_none(in->a);
		/* (in a forward the later return is kept for the graph; the
		 * side reading of a job call's return joins them, and so do two
		 * bools, numbers or strs: `if x.dtype not in (..): return
		 * False ... return True` decides nothing when the test does not) */
		if (cf.ret_alt && (mode != M_FWD || in->rv_reading ||
		                   (cf.ret_alt->k != VK_NONE && ret->k != VK_NONE &&
		                    value_is_known_scalar(cf.ret_alt) && value_is_known_scalar(ret))))
			ret = ret_join(&cf, cf.ret_alt, ret, cf.ret_alt_cond);
		if (cf.gen_body && !capture)
			ret = gen_item(&cf, fl, ret);
		if (fl == FL_RAISE)
			ret = unknown_at(f, site, "the function raises on this path");
		if (capture && fl == FL_RETURN && cf.yielded)
			capture->locals = cf.locals;
	}
	in->fwd_outer = ofo;
	in->nactive--;
	in->depth--;
	in->cur_call = ocall;
	if (fn->cached && mode != M_FWD)
		fn->cache_ret = ret;
	if (outermost)
		*site_cost(in, key, cost_site) += level_steps(in, level0) - steps0;
	return ret;
}
