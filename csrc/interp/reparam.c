/* interp/reparam.c - weight_norm / spectral_norm of a module, read not run
 *
 * `weight_norm(nn.Conv1d(...))`, `spectral_norm(layer, name='weight')`
 * (catalog reparametrizations) change the module they are given in place
 * -- the parameter split or renamed, a forward pre-hook that recomputes
 * it -- and return that same module.  So the value is the module given:
 * a ModuleList of weight-normed convolutions holds the convolutions.  What
 * the catalogue says each adds beside the parameters decides the rest:
 * "buffers" (spectral_norm's power-iteration vectors <name>_u and
 * <name>_v, registered with register_buffer) makes them buffers of the
 * module (module_add_buffer: they move with it, and a DDP over a model
 * holding it broadcasts buffers before its forwards); "parameters"
 * (weight_norm's <name>_g and <name>_v) adds nothing the schedule sees.
 *
 * reparam_call() owns nothing; it allocates only in the interpreter's
 * arena and never fails.  NULL when the callee is no such function or the
 * argument is no module instance ecg built (the caller goes on as for
 * any outside call).
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

value_t *reparam_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	const char *adds = catalog_fact(in->cat, CATALOG_F_REPARAMETRIZATIONS, d);
	const value_t *name;
	const char *base;
	struct vinst *m;

	if (!adds || nargs < 1 || args[0]->k != VK_INST || args[0]->u.inst->mod == VM_NONE)
		return NULL;
	m = args[0]->u.inst;
	if (!strcmp(adds, "buffers")) {
		/* the vectors' names follow the parameter's: name= (the
		 * second argument), 'weight' when not given; one not known
		 * still makes two buffers, under names no code reads */
		name = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "name") : NULL;
		base = !name ? "weight" : name->k == VK_STR ? name->u.str.s : "<name>";

		module_add_buffer(in, m, afmt(in, "%s_u", base), NULL);
		module_add_buffer(in, m, afmt(in, "%s_v", base), NULL);
	}
	return args[0];
}
