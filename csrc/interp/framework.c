/* interp/framework.c - training and command-line frameworks around the job
 *
 * framework_call() is call_ext()'s share for what Lightning Fabric,
 * accelerate, DeepSpeed engines and command-line dispatchers (Lightning
 * CLI, fire, typer, jsonargparse, hydra) do with the job's objects:
 * fabric.backward(loss) (and torch.autograd.backward) is the backward (an
 * event and evidence);
 * setup/prepare/wrap hand back what they were given; a dispatcher calls
 * the function it is given with its defaults (a dict of subcommands: the
 * one the job's first argument names).  Job mode only; NULL when the call
 * is none of these.
 */
#include "config.h"

#include "internal.h"

value_t *framework_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	/* fabric.backward(loss), accelerator.backward(loss), engine.backward(loss) */
	if (f->mode != M_FWD && !strcmp(last, "backward") &&
	    ((nargs >= 1 && is_tensorish(args[0])) || !strcmp(d, "torch.autograd.backward") ||
	     !strcmp(d, "torch.distributed.autograd.backward"))) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, afmt(in, "%s(loss)", text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)), site);
		return v_none(in->a);
	}
	if (f->mode != M_FWD && nargs >= 1 && !strcmp(last, "setup_optimizers"))
		return args[0];
	/* fabric.setup(model, opt), accelerator.prepare(model, opt, loader):
	 * framework wrappers hand back what they were given */
	if (f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	    (!strcmp(last, "setup") || !strcmp(last, "setup_module") || !strcmp(last, "prepare") ||
	     !strcmp(last, "prepare_model") || !strcmp(last, "wrap"))) {
		value_t *t;

		if (nargs == 1)
			return args[0];
		t = v_seq(in->a, VK_TUPLE, nargs);
		for (i = 0; i < nargs; i++)
			vseq_push(in->a, t->u.seq, args[i]);
		return t;
	}
	if (f->mode != M_FWD && (!strcmp(last, "CLI") || !strcmp(d, "fire.Fire") || !strcmp(d, "typer.run") ||
	                         !strcmp(d, "jsonargparse.auto_cli") || !strcmp(d, "hydra.main"))) {
		/* a command-line dispatcher: it calls the function it is given
		 * with the job's arguments -- here, the function's defaults */
		for (i = 0; i < nargs; i++) {
			if (args[i]->k == VK_FUNC)
				return call(f, args[i], NULL, 0, NULL, site);
			/* {"pretrain": fn, ...}: the subcommand is the job's first argument */
			if (args[i]->k == VK_DICT && in->argv && in->argv->u.seq->n) {
				value_t *fn2 = vdict_get(args[i]->u.dict, in->argv->u.seq->items[0]);

				if (fn2 && (fn2->k == VK_FUNC || fn2->k == VK_BOUND))
					return call(f, fn2, NULL, 0, NULL, site);
			}
		}
	}
	return NULL;
}
