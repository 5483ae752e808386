/*
 * extbase.c -- a method a repository class inherits from an outside base,
 * read by that base's catalog facts.
 *
 *     class Tacotron2Logger(SummaryWriter):
 *         def log_training(self, loss, grad_norm, it):
 *             self.add_scalar("grad.norm", grad_norm, it)
 *
 * self is an object of a repository class; add_scalar is defined by no
 * class of the repository in its MRO, so it is the outside base's own
 * method (torch.utils.tensorboard.SummaryWriter.add_scalar), and what the
 * catalog says of that method holds here as on a SummaryWriter.
 *
 * ext_base_method(f, obj, name) answers, for such an object whose classes
 * of the repository define no `name` (attr.c asks after class_lookup()
 * found none), the outside method as an external value bound to obj
 * (v->recv), called through call_ext() -- only when '<base>.<name>' (the
 * base's canonical dotted name) is listed in one of the catalog facts of
 * inherited_fact_kinds[] below, whose effects call_ext() applies by that
 * dotted name.  Any other name: NULL (the attribute stays not known, as
 * before: nothing is claimed of a method the catalog does not describe).
 *
 * The same of a repository module whose outside base is a library's
 * module class (catalog module_base_classes: transformers'
 * PreTrainedModel, which object.c records as a module, not as ext_base):
 *
 *     class LlamaForCausalLM(LlamaPreTrainedModel):   # (PreTrainedModel)
 *     ...
 *     model.module.save_pretrained(directory)
 *
 * a method of catalog module_state_savers that no repository class in the
 * MRO defines is the base's own (PreTrainedModel.save_pretrained), bound
 * to obj; call.c gives it to libvalues.c libv_inst_save, which writes the
 * save (and the sync when the module is on the device) as for an outside
 * module of that library.
 *
 * Values in the interpreter's arena; never fails.
 */
#include "config.h"
#include "internal.h"
#include "ecg/catalog.h"

/* the catalog facts, keyed '<class>.<method>', that a subclass inherits */
static const enum catalog_fact inherited_fact_kinds[] = {
	CATALOG_F_HOST_COPYING_METHODS,   /* SummaryWriter.add_scalar ... (jobctx.c) */
};

static int inherited_fact(struct interp *in, const char *dotted)
{
	size_t i;

	for (i = 0; i < sizeof inherited_fact_kinds / sizeof inherited_fact_kinds[0]; i++)
		if (catalog_fact(in->cat, inherited_fact_kinds[i], dotted))
			return 1;
	return 0;
}

const char *class_module_base(struct interp *in, struct vclass *c)
{
	size_t i, j;
	struct vclass *const *mro = c->mro;

	for (i = 0; i < c->nmro; i++)
		for (j = 0; j < mro[i]->nbases; j++) {
			const value_t *b = mro[i]->bases[j];
			const char *d;

			if (b && b->k == VK_EXT &&
			    catalog_fact(in->cat, CATALOG_F_MODULE_BASE_CLASSES, d = canon_ext(in, b->u.ext)))
				return d;
		}
	return NULL;
}

/* obj.<name> of a repository module whose library module base saves its
 * state by that method (catalog module_state_savers); NULL otherwise */
static value_t *module_base_saver(struct frame *f, value_t *obj, const char *name)
{
	struct interp *in = f->in;
	const struct vinst *m = obj->u.inst;
	const char *base;
	value_t *v;

	if (m->mod != VM_REPO || !catalog_fact(in->cat, CATALOG_F_MODULE_STATE_SAVERS, name) ||
	    !(base = class_module_base(in, m->cls)))
		return NULL;
	v = v_ext(in->a, adot(in, base, name));
	v->recv = obj;
	return v;
}

value_t *ext_base_method(struct frame *f, value_t *obj, const char *name)
{
	struct interp *in = f->in;
	const struct vinst *m = obj && obj->k == VK_INST ? obj->u.inst : NULL;
	const char *base, *dotted;
	value_t *v;

	if (!m || !m->cls || m->mod == VM_EXTERNAL || !name[0] || name[0] == '_')
		return NULL;
	if (!(base = class_ext_base(m->cls)))
		return module_base_saver(f, obj, name);
	dotted = adot(in, canon_ext(in, base), name);
	if (!inherited_fact(in, dotted))
		return NULL;
	v = v_ext(in->a, dotted);
	v->recv = obj;
	return v;
}
