/* interp/adapters.c - layers a library adds to a module already on the device
 *
 *     unet.to(accelerator.device, dtype=weight_dtype)
 *     inject_adapter_in_model(LoraConfig(r=4, target_modules=[...]), unet)
 *
 * peft's inject_adapter_in_model and get_peft_model (catalog
 * adapter_injectors, "KEY@POS" of the module argument) wrap each target
 * layer of the module they are given in an adapter layer whose own
 * weights (LoRA's A and B) are built and initialised on the host, then
 * moved to the device and dtype of the base layer's weight.  Called on a
 * module moved to the device (vinst.on_device), that move is a
 * host-to-device copy at the call (not pinned, blocking); under a
 * condition when the module's own move was (on_device 2).  A module on
 * the host, or not known, states nothing.  The added layers are not read
 * as submodules: what the module's forward runs is its own.
 *
 * adapter_injection_call() is asked by call_ext's job effects (jobctx.c)
 * for every call of an outside function; job mode only.  It allocates
 * only in the interpreter's arena; nothing here can fail.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

void adapter_injection_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec;
	const value_t *m;
	const struct jctx *ojc = f->jc;
	struct sched_ev *e;

	if (f->mode == M_FWD || !(spec = catalog_fact(in->cat, CATALOG_F_ADAPTER_INJECTORS, d)))
		return;
	m = spec_arg(spec, strlen(spec), NULL, args, nargs, kw);
	if (!m || m->k != VK_INST || m->u.inst->mod == VM_NONE || !m->u.inst->on_device)
		return;
	if (m->u.inst->on_device != 1)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site),
		                "the module was moved to the device (under a condition not decided here)");
	e = sev(f, SEV_H2D,
	        afmt(in, "%s(...) (the adapter's layers, built on the host, moved to the device of the module's "
	                 "parameters)", short_ext(d)),
	        site);
	if (e) {
		e->pinned = 0;
		e->non_blocking = 0;
	}
	f->jc = ojc;
}
