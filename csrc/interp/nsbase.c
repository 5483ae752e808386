/*
 * nsbase.c -- objects of a repository class derived from a namespace
 * class of the standard library.
 *
 *     class Metadata(types.SimpleNamespace):          # detectron2's
 *         def __setattr__(self, key, val): ...
 *     m = Metadata(name=name)                          # m.name is name
 *
 * The base's constructor sets one attribute per keyword:
 * types.SimpleNamespace's (C, Objects/namespaceobject.c) updates the
 * object's __dict__ directly, past any __setattr__ of the class;
 * argparse.Namespace's calls setattr(self, name, value) for each, which a
 * class's own __setattr__ would see -- a class that defines one is not
 * read here.  Before, such a base's constructor was a third party's whose
 * effects were not known, so every attribute it set was not known.
 *
 * ns_base_init() applies the base's constructor to self when self's class
 * derives from one (its outside base, canonical), for a constructor call
 * the class does not define (object.c instantiate) or a
 * super().__init__(**kw) (module.c's base-init builtin); 1 when it did,
 * 0 when self is no such object.  Positional arguments (a TypeError in
 * Python) set nothing.  Values live in the interpreter's arena.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

int ns_base_init(struct interp *in, value_t *self, const struct vdict *kw)
{
	struct vinst *m;
	const char *base;
	size_t i;

	if (!self || self->k != VK_INST || !(m = self->u.inst)->cls || m->mod != VM_NONE ||
	    !(base = class_ext_base(m->cls)))
		return 0;
	base = canon_ext(in, base);
	if (strcmp(base, "types.SimpleNamespace") &&
	    (strcmp(base, "argparse.Namespace") || class_lookup(m->cls, "__setattr__", NULL)))
		return 0;
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR)
			vdict_set(in->a, m->attrs, kw->keys[i], kw->vals[i]);
	return 1;
}
