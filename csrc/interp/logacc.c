/*
 * logacc.c -- stores into a name that the code only logs.
 *
 * A step that counts for its log keeps a local container and fills it
 * with values read from the device:
 *
 *     lossbin = {i: 0 for i in range(10)}
 *     for t, l in blsct:
 *         lossbin[int(t * 10)] += l          # int() of a device tensor
 *     print(f"{lossbin[i] / losscnt[i]}")
 *
 * The host read is made for the log as much as one in print()'s own
 * arguments is (eval_call's in_log).  log_accum_store() tells exec() that
 * the statement it runs -- an assignment or augmented assignment to a
 * local name X, or to an item of it (X[k], X[k][j]) -- stores into such a
 * name: in the function (or module) whose body holds it, every other read
 * of X is inside the arguments of a logging call (print, wandb.log,
 * logger.info: log_sink_name()), at least one is, and X is bound there by
 * an assignment (not a parameter, not declared global or nonlocal).  Any
 * other read -- X returned, passed to a call that does not log, aliased,
 * read in a nested function, X.append(v) -- and the store is not one: its
 * reads keep the phase of the code around them.  The walk is over the
 * whole scope, nested functions and classes included (a read there
 * counts against X, shadowing or not): it can only refuse more.
 */
#include "config.h"

#include "internal.h"

struct la {
	const char *name;
	int ok;              /* no read of name outside a log call's arguments */
	int logged;          /* a read of it inside one */
	int bound;           /* bound by an assignment of the scope */
	int in_log;          /* depth of logging calls' arguments around */
};

/* Is call c a logging call by its written name (print(...), wandb.log,
 * logger.info, writer.add_scalar), not arithmetic (torch.log, np.log,
 * math.log)? */
static int static_log_call(const struct ast_Call *c)
{
	static const char *const math[] = { "torch", "np", "numpy", "math", "scipy", "F", NULL };
	const struct ast_hdr *b;
	size_t i;

	if (AST_IS(c->func, Name))
		return log_sink_name(AST_AS(c->func, Name)->id);
	if (!AST_IS(c->func, Attribute) || !log_sink_name(AST_AS(c->func, Attribute)->attr))
		return 0;
	for (b = AST_AS(c->func, Attribute)->value; AST_IS(b, Attribute); b = AST_AS(b, Attribute)->value)
		;
	if (!AST_IS(b, Name))
		return 0;
	for (i = 0; math[i]; i++)
		if (!strcmp(AST_AS(b, Name)->id, math[i]))
			return 0;
	return 1;
}

/* The name at the base of a store target X, X[k], X[k][j]; NULL for any
 * other target (an attribute, a tuple). */
static const struct ast_Name *store_base(const struct ast_hdr *t)
{
	while (AST_IS(t, Subscript))
		t = AST_AS(t, Subscript)->value;
	return AST_IS(t, Name) ? AST_AS(t, Name) : NULL;
}

static int la_cb(const struct ast_hdr *n, void *ctx);

/* Walk a store target: the base name X is the store itself, not a read;
 * the subscripts are read. */
static int la_target(const struct ast_hdr *t, struct la *la)
{
	while (AST_IS(t, Subscript)) {
		if (la_cb(AST_AS(t, Subscript)->slice, la))
			return 1;
		t = AST_AS(t, Subscript)->value;
	}
	if (AST_IS(t, Name))
		return 0;
	return la_cb(t, la);
}

static int la_cb(const struct ast_hdr *n, void *ctx)
{
	struct la *la = ctx;

	if (!n)
		return 0;
	if (AST_IS(n, Name)) {
		const struct ast_Name *nm = AST_AS(n, Name);

		if (strcmp(nm->id, la->name))
			return 0;
		if (nm->ctx == AST_CTX_LOAD) {
			if (!la->in_log) {
				la->ok = 0;
				return 1;
			}
			la->logged = 1;
		}
		return 0;
	}
	if (AST_IS(n, Assign)) {
		const struct ast_Assign *a = AST_AS(n, Assign);
		unsigned i;

		for (i = 0; i < a->targets.n; i++) {
			const struct ast_Name *b = store_base(a->targets.items[i]);

			if (b && !strcmp(b->id, la->name)) {
				if (AST_IS(a->targets.items[i], Name))
					la->bound = 1;
				if (la_target(a->targets.items[i], la))
					return 1;
			} else if (la_cb(a->targets.items[i], la)) {
				return 1;
			}
		}
		return la_cb(a->value, la);
	}
	if (AST_IS(n, AugAssign)) {
		const struct ast_AugAssign *a = AST_AS(n, AugAssign);
		const struct ast_Name *b = store_base(a->target);

		if (b && !strcmp(b->id, la->name) ? la_target(a->target, la) : la_cb(a->target, la))
			return 1;
		return la_cb(a->value, la);
	}
	if (AST_IS(n, Global) || AST_IS(n, Nonlocal)) {
		const struct ast_strlist *l = AST_IS(n, Global) ? &AST_AS(n, Global)->names : &AST_AS(n, Nonlocal)->names;
		unsigned i;

		for (i = 0; i < l->n; i++)
			if (!strcmp(l->items[i], la->name)) {
				la->ok = 0;
				return 1;
			}
		return 0;
	}
	if (AST_IS(n, arg) && !strcmp(AST_AS(n, arg)->arg, la->name)) {
		la->ok = 0;          /* a parameter: the caller's value */
		return 1;
	}
	if (AST_IS(n, Call) && static_log_call(AST_AS(n, Call))) {
		const struct ast_Call *c = AST_AS(n, Call);
		int r;

		if (la_cb(c->func, la))
			return 1;
		la->in_log++;
		r = ast_visit_children(n, la_cb, la);
		la->in_log--;
		return r;
	}
	return ast_visit_children(n, la_cb, la);
}

int log_accum_store(struct frame *f, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	const struct ast_hdr *t, *scope;
	const struct ast_Name *base;
	struct ptrmap_slot *sl;
	struct la la;
	int added;

	if (f->mode == M_FWD)
		return 0;
	if (AST_IS(st, AugAssign))
		t = AST_AS(st, AugAssign)->target;
	else if (AST_IS(st, Assign) && AST_AS(st, Assign)->targets.n == 1)
		t = AST_AS(st, Assign)->targets.items[0];
	else
		return 0;
	base = store_base(t);
	scope = f->scope_def                                                ? f->scope_def
	        : !f->locals && !f->qualname && !f->config_exec && f->file && f->file->mod ? &f->file->mod->h
	                                                                    : NULL;
	if (!base || !scope)
		return 0;
	sl = ptrmap_put(&in->log_accum, st, &added);
	if (!added)
		return sl->a;
	memset(&la, 0, sizeof la);
	la.name = base->id;
	la.ok = 1;
	if (AST_IS(scope, Module)) {
		(void)ast_visit_children(scope, la_cb, &la);
	} else {
		/* the def's own name and decorators are the enclosing scope's */
		const struct ast_list *body = AST_IS(scope, FunctionDef) ? &AST_AS(scope, FunctionDef)->body
		                              : AST_IS(scope, AsyncFunctionDef) ? &AST_AS(scope, AsyncFunctionDef)->body
		                              : NULL;
		const struct ast_arguments *args = AST_IS(scope, FunctionDef) ? AST_AS(scope, FunctionDef)->args
		                                   : AST_IS(scope, AsyncFunctionDef) ? AST_AS(scope, AsyncFunctionDef)->args
		                                   : NULL;
		unsigned i;

		if (!body)
			la.ok = 0;
		if (la.ok && args)
			(void)ast_visit_children(&args->h, la_cb, &la);
		for (i = 0; la.ok && body && i < body->n; i++)
			if (la_cb(body->items[i], &la))
				break;
	}
	sl->a = la.ok && la.logged && la.bound;
	return sl->a;
}
