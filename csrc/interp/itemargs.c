/* interp/itemargs.c - a loop's per-iteration values passed into a call
 *
 *     for epoch in range(start, args.epochs):
 *         train_one_epoch(...)
 *         completed_epoch = epoch + 1
 *         evaluate(model, data, completed_epoch, args)
 *
 *     def evaluate(model, data, epoch, args):      # -> zero_shot_eval(..., epoch, ...)
 *         if (epoch % args.zeroshot_frequency) != 0 and epoch != args.epochs:
 *             return {}
 *
 * ecg reads a job loop's body once for all its iterations (exec.c); a test
 * decided on the loop's target, or on a name its body binds, makes it read
 * a later iteration too (carry.c, exec.c carry_reread), the loop variable
 * not known.  A test in a function the body calls, on a parameter whose
 * argument is such a value, is the same test: "every 2 epochs" decided
 * false at the first epoch would drop the evaluation altogether.
 *
 * itemargs_note(), when job code in a loop read so calls a function of the
 * repository, marks the callee's parameters whose argument expression
 * reads a per-iteration name (the loop's target, a name the loop's body
 * binds, or the caller's own marked parameters, transitively) with that
 * loop's carry; itemargs_test(), at a test exec_if decided in the callee,
 * marks the carry hit when the test reads one of them.  Arguments passed
 * with * or ** and parameters beyond ITEM_PARAMS are not followed (a test
 * on them stays decided as read, as before).  Nothing here allocates or
 * fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

struct name_reads {
	const char *const *names;
	unsigned n;
	int hit;
};

static int reads_names_cb(const struct ast_hdr *e, void *ctx)
{
	struct name_reads *w = ctx;
	unsigned i;

	if (AST_IS(e, Name)) {
		for (i = 0; i < w->n; i++)
			if (!strcmp(AST_AS(e, Name)->id, w->names[i]))
				return w->hit = 1;
		return 0;
	}
	if (AST_IS(e, Lambda))
		return 0;
	return ast_visit_children(e, reads_names_cb, ctx);
}

/* Does e read one of f's marked parameters? */
static int reads_item_params(const struct frame *f, const struct ast_hdr *e)
{
	struct name_reads w = { f->item_params, f->n_item_params, 0 };

	if (!e || !f->n_item_params)
		return 0;
	(void)reads_names_cb(e, &w);
	return w.hit;
}

/* The loop of f whose per-iteration value e reads: f's own innermost
 * loop that e reads a name of, else the loop f's parameters came from;
 * NULL when e reads none. */
static struct carry *varying_loop(const struct frame *f, const struct ast_hdr *e)
{
	struct carry *c;

	for (c = f->carry; c; c = c->up)
		if (carry_reads_varying(c, e))
			return c;
	return reads_item_params(f, e) ? f->item_carry : NULL;
}

static void mark(struct frame *cf, struct carry **on, const char *name, struct carry *c)
{
	unsigned i;

	if (!name || !c || (*on && *on != c) || cf->n_item_params >= ITEM_PARAMS)
		return;
	for (i = 0; i < cf->n_item_params; i++)
		if (!strcmp(cf->item_params[i], name))
			return;
	*on = c;
	cf->item_params[cf->n_item_params++] = name;
}

void itemargs_note(struct frame *f, struct frame *cf, const struct vfunc *fn, const struct ast_hdr *site,
                   int bound)
{
	const struct ast_arguments *fa;
	const struct ast_Call *call;
	struct carry *on = NULL;
	size_t np, i, k;

	if (f->mode == M_FWD || cf->mode == M_FWD || (!f->carry && !f->n_item_params) || !site ||
	    !AST_IS(site, Call) || !(fa = fn_args(fn->def)))
		return;
	call = AST_AS(site, Call);
	np = fa->posonlyargs.n + fa->args.n;
	for (i = 0; i < call->args.n; i++) {
		const struct ast_hdr *a = call->args.items[i];
		size_t p = i + (bound ? 1 : 0);
		const struct ast_arg *pa;

		if (AST_IS(a, Starred) || p >= np)
			break;
		pa = AST_AS(p < fa->posonlyargs.n ? fa->posonlyargs.items[p] : fa->args.items[p - fa->posonlyargs.n],
		            arg);
		mark(cf, &on, pa->arg, varying_loop(f, a));
	}
	for (k = 0; k < call->keywords.n; k++) {
		const struct ast_keyword *kw = AST_AS(call->keywords.items[k], keyword);

		if (kw->arg)
			mark(cf, &on, kw->arg, varying_loop(f, kw->value));
	}
	cf->item_carry = on;
}

void itemargs_test(struct frame *f, const struct ast_hdr *test)
{
	if (f->mode != M_FWD && f->item_carry && reads_item_params(f, test))
		f->item_carry->hit = 1;
}
