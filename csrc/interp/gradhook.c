/* interp/gradhook.c - the job's own work in the backward pass
 *
 * param.register_hook(fn) on a parameter of one of the job's modules
 * makes autograd call fn(grad) whenever a backward computes that
 * parameter's gradient; a function handed to the engine's queue inside
 * the backward (Variable._execution_engine.queue_callback(cb), catalog
 * backward_callback_queues) runs once that backward has finished.  Data
 * parallelism written by hand is built so (NVIDIA's
 * apply_gradient_allreduce: a hook on every parameter queues a callback
 * that flattens the gradients and all-reduces them over the group).
 *
 * gradhook_register(): a repository callable registered in the job's
 * code (not in a forward) on a tensor ecg knows to be a module's
 * parameter is kept with that module, the job context it was registered
 * in and where; the handle it returns takes it off (remove(): through
 * module.c's RemovableHandle.remove, gradhook_removed()).
 * gradhook_backward(): at a backward of the job's, each hook in force
 * whose module the job called since its previous backward is read in
 * the job's context there as the backward's work (events in_backward:
 * phase backward), then the callbacks the hooks queued, in order.  The
 * parameters are one representative: a hook and the callbacks it queues
 * run once per hooked parameter, a number not known (a JC_REPEAT of
 * unknown trips around them); each undecided test the registration was
 * made under (`if param.requires_grad:`) is their condition too.  A hook
 * on anything else (an activation in a forward, a tensor ecg does not
 * know as a parameter) is not kept: its events are not read -- a row
 * missing, never a wrong one.
 *
 * An all_reduce over the default group made so is the job's data
 * parallelism (parallel.c parallel_note_grad_reduce).
 *
 * Nothing here fails.  The records are in->grad_hooks / in->bwd_queue
 * (malloc'd, freed by interp_free); values and contexts live in the
 * interpreter's arena.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

static int callable_of_repo(const value_t *v)
{
	return v && (v->k == VK_FUNC || v->k == VK_BOUND);
}

value_t *gradhook_register(struct frame *f, value_t *recv, value_t **args, size_t nargs,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *h = new_inst(in);
	value_t *hv;
	struct grad_hook *g;

	h->mod = VM_NONE;
	h->ext = "torch.utils.hooks.RemovableHandle";
	hv = mk_inst_value(in, h);
	vdict_sets(in->a, h->attrs, "remove", mk_builtin(in, BI_M_HOOK_REMOVE, hv));
	if (f->mode == M_FWD || nargs < 1 || !callable_of_repo(args[0]) || !recv || recv->k != VK_TENSOR ||
	    !recv->is_param || !recv->param_of)
		return hv;
	GROW(in->grad_hooks, in->agrad_hooks, in->ngrad_hooks + 1);
	g = &in->grad_hooks[in->ngrad_hooks];
	memset(g, 0, sizeof *g);
	g->fn = args[0];
	g->m = recv->param_of;
	g->dev = recv->dev;
	g->reg_at = in->nsev;
	g->reg_jc = jc_here(f);
	g->anchor = site ? anchor_at(f, site) : NULL;
	vdict_sets(in->a, h->attrs, "__ecg_grad_hook__", v_int(in->a, (long long)in->ngrad_hooks));
	in->ngrad_hooks++;
	return hv;
}

void gradhook_removed(struct interp *in, long long ix)
{
	if (ix >= 0 && (size_t)ix < in->ngrad_hooks)
		in->grad_hooks[ix].removed = 1;
}

value_t *gradhook_queue_call(struct frame *f, const char *d, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	struct bwd_callback *q;

	if (!catalog_fact(in->cat, CATALOG_F_BACKWARD_CALLBACK_QUEUES, d))
		return NULL;
	/* outside a hook's reading (torch raises there), or a callable
	 * not the repository's: nothing to read */
	if (in->bwd_queue_open && nargs >= 1 && callable_of_repo(args[0])) {
		GROW(in->bwd_queue, in->abwd_queue, in->nbwd_queue + 1);
		q = &in->bwd_queue[in->nbwd_queue++];
		q->fn = args[0];
		q->jc = f->jc;
	}
	return v_none(in->a);
}

/* Did the job call module m (a call of it, or of what wraps it) among
 * the events [from, to)? */
static int module_called(const struct interp *in, const struct vinst *m, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to && i < in->nsev; i++)
		if (in->sev[i].kind == SEV_MODEL_CALL && !in->sev[i].in_forward && in->sev[i].model == m)
			return 1;
	return 0;
}

/* Is a node like c (kind, anchor, text) in the context chain `in`? */
static int jc_holds(const struct jctx *chain, const struct jctx *c)
{
	for (; chain; chain = chain->up)
		if (chain == c || (chain->kind == c->kind && chain->anchor && c->anchor &&
		                   !strcmp(chain->anchor, c->anchor) && chain->text && c->text &&
		                   !strcmp(chain->text, c->text)))
			return 1;
	return 0;
}

/* f->jc with a JC_REPEAT for the hooked parameters and the undecided
 * tests the registration was made under that the backward is not. */
static const struct jctx *hook_context(struct frame *f, const struct grad_hook *g)
{
	const struct jctx *c, *here = f->jc;
	const struct jctx *saved = f->jc;

	f->jc = jc_push(f, JC_REPEAT, g->anchor, "each hooked parameter's gradient (register_hook)");
	for (c = g->reg_jc; c; c = c->up)
		if (c->kind == JC_COND && !jc_holds(here, c))
			f->jc = jc_push(f, JC_COND, c->anchor, c->text);
	here = f->jc;
	f->jc = saved;
	return here;
}

void gradhook_backward(struct frame *f, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	int ob = f->in_backward;
	size_t i, from = 0, bwd, nq;

	if (f->mode == M_FWD || !in->ngrad_hooks || in->bwd_queue_open || !in->nsev)
		return;
	/* this backward's event is the last one made; the span since the
	 * job's previous backward holds the calls it goes back through */
	bwd = in->nsev - 1;
	for (i = bwd; i-- > 0;)
		if (in->sev[i].kind == SEV_BACKWARD && !in->sev[i].in_forward) {
			from = i + 1;
			break;
		}
	in->bwd_queue_open = 1;
	in->bwd_jc = ojc;
	nq = in->nbwd_queue;
	f->in_backward = 1;
	for (i = 0; i < in->ngrad_hooks; i++) {
		const struct grad_hook *g = &in->grad_hooks[i];
		value_t *grad;

		if (g->removed || g->reg_at > bwd || !module_called(in, g->m, from, bwd))
			continue;
		f->jc = hook_context(f, g);
		grad = v_tensor_dev(in->a, g->dev, 0);
		(void)call(f, g->fn, &grad, 1, NULL, site);
		f->jc = ojc;
	}
	/* the engine's final callbacks, in the order queued (one may
	 * queue another: read too, up to the budget of the queue's growth) */
	for (i = nq; i < in->nbwd_queue && i < nq + 64; i++) {
		value_t *cb = in->bwd_queue[i].fn;   /* the queue may grow (move) in the call */

		f->jc = in->bwd_queue[i].jc;
		(void)call(f, cb, NULL, 0, NULL, site);
	}
	in->nbwd_queue = nq;
	f->jc = ojc;
	f->in_backward = ob;
	in->bwd_queue_open = 0;
}
