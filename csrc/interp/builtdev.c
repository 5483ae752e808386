/* interp/builtdev.c - a module whose tensors were all made on the device
 *
 * A model can be built on a GPU without a move and without a default
 * device: every torch.nn layer given device='cuda' (the factory_kwargs
 * pattern: nn.Linear(..., device=device, dtype=dtype)) and every
 * parameter of the repository's own modules made from a tensor on the
 * device (nn.Parameter(torch.ones(d, device=device))).
 * module_note_built_device() marks a torch.nn layer or an outside module
 * built with device= a GPU (not the host, not meta) on_device, as
 * torch's factory_kwargs convention makes its tensors there (torch.c
 * new_torch_module, ext_module_inst);
 * module_built_on_device() says whether a whole module is so: m itself
 * on_device, or a repository module / container each of whose tensors
 * (attributes holding tensors: attr_on_device) is on the device and each of whose
 * submodules is built on the device or owns no tensor (nn.SiLU()), with
 * at least one tensor somewhere.  load_state_dict of a state loaded on
 * the host into it copies host to device (module.c).  A tensor attribute
 * not known to be on the device, an attribute not known at all, or an
 * outside module makes the answer 0 (not sure).  Nothing is allocated.
 */
#include "config.h"

#include "internal.h"

/* An attribute of a repository module: a tensor (a parameter, a
 * registered buffer, a plain tensor) must be on the device; the two
 * objects an undecided `if` bound (alts.c) must both be.  A value not
 * known otherwise is no parameter or buffer: ecg reads nn.Parameter(...)
 * and register_buffer as tensors always (call.c, module.c), so an unknown
 * there is a Python value (a config field from a JSON file). */
static int attr_on_device(const value_t *v, int *any, int depth)
{
	if (!v || depth > 8)
		return 1;
	if (v->k == VK_TENSOR) {
		if (v->dev != DEV_DEVICE)
			return 0;
		*any = 1;
		return 1;
	}
	if (v->k == VK_UNKNOWN && v->alts)
		return attr_on_device(v->alts[0], any, depth + 1) && attr_on_device(v->alts[1], any, depth + 1);
	return 1;
}

/* 1 all on the device (*any set when a tensor was seen), 0 not sure */
static int built_on_device(struct interp *in, const struct vinst *m, int *any, int depth)
{
	size_t i;

	if (!m || depth > 64)
		return 0;
	if (m->on_device == 1) {
		*any = 1;
		return 1;
	}
	if (m->mod == VM_LAYER)
		return module_layer_owns_no_tensor(in, m);
	if (m->mod != VM_REPO && m->mod != VM_CONTAINER)
		return 0;
	for (i = 0; m->attrs && i < m->attrs->n; i++)
		if (!attr_on_device(m->attrs->vals[i], any, 0))
			return 0;
	for (i = 0; i < m->nchildren; i++)
		if (m->children[i].inst != m && !built_on_device(in, m->children[i].inst, any, depth + 1))
			return 0;
	return 1;
}

int module_built_on_device(struct interp *in, const struct vinst *m)
{
	int any = 0;

	return built_on_device(in, m, &any, 0) && any;
}

void module_note_built_device(struct frame *f, struct vinst *m, const struct vdict *kw)
{
	const value_t *dv = kw ? vdict_gets(kw, "device") : NULL, *dt;

	if (!dv || f->mode == M_FWD || m->on_device)
		return;
	dt = is_device_value(dv) ? vdict_gets(dv->u.inst->attrs, "type") : dv;
	if (dev_is_host(dv) == 0 && dt && dt->k == VK_STR && strncmp(dt->u.str.s, "meta", 4))
		m->on_device = 1;
}
