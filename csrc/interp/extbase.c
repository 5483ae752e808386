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

value_t *ext_base_method(struct frame *f, value_t *obj, const char *name)
{
	struct interp *in = f->in;
	const struct vinst *m = obj && obj->k == VK_INST ? obj->u.inst : NULL;
	const char *base, *dotted;
	value_t *v;

	if (!m || !m->cls || m->mod == VM_EXTERNAL || !name[0] || name[0] == '_' ||
	    !(base = class_ext_base(m->cls)))
		return NULL;
	dotted = adot(in, canon_ext(in, base), name);
	if (!inherited_fact(in, dotted))
		return NULL;
	v = v_ext(in->a, dotted);
	v->recv = obj;
	return v;
}
