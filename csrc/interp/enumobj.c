/* interp/enumobj.c - a repository enum's members as objects, and iterating the enum
 *
 * class DeviceSupport(Enum): CUDA = ("cuda", "GPU", "nccl") with an
 * __init__(self, device_type, device_name, backend) that sets attributes:
 * each member is an object of the class on which __init__ ran with the
 * member's value (a tuple's items as the arguments, as Enum does), whose
 * .value / .name are the value and the member's name.  enum_member_objects()
 * makes them when the class body has run (object.c exec_classdef, after
 * enum_members() made the plain members) and puts each in the class's
 * namespace in place of its value, so that `E.CUDA` reads the object and
 * `x is E.CUDA` is identity.  An enum without an __init__ of its own
 * keeps its members as enum_members() made them (their values).
 *
 * enum_iter_members() is `for m in E` / list(E): the members in
 * definition order (an alias -- a later name bound to an equal value --
 * is not told from a member: each name counts).  NULL when E is no repository enum or
 * a public name holds a value ecg does not know (the members are then
 * not known).  The members live in the interpreter's arena.
 */
#include "config.h"

#include "internal.h"

/* Is the class namespace's entry (k, v) a member: a public name bound to
 * data (not a function, class or descriptor)? -1 when it may be one but
 * its value is not known. */
static int is_member_entry(const value_t *k, const value_t *v)
{
	if (k->k != VK_STR || k->u.str.s[0] == '_')
		return 0;
	switch (v->k) {
	case VK_FUNC: case VK_CLASS: case VK_EXT: case VK_BUILTIN:
		return 0;
	case VK_UNKNOWN:
		return -1;
	default:
		return 1;
	}
}

void enum_member_objects(struct frame *f, struct vclass *c)
{
	struct interp *in = f->in;
	struct vclass *owner = NULL;
	value_t *init;
	size_t j, i;

	if (!class_is_repo_enum(in, c))
		return;
	init = class_lookup(c, "__init__", &owner);
	if (!init || init->k != VK_FUNC)
		return;
	for (j = 0; j < c->ns->n; j++) {
		const value_t *k = c->ns->keys[j];
		value_t *v = c->ns->vals[j], *self, *args[8];
		struct vinst *m;
		size_t nargs = 0;

		if (is_member_entry(k, v) != 1)
			continue;
		if (v->k == VK_TUPLE || v->k == VK_LIST) {
			if (v->u.seq->unk_reason || v->u.seq->n > sizeof args / sizeof args[0])
				continue;
			for (i = 0; i < v->u.seq->n; i++)
				args[nargs++] = v->u.seq->items[i];
		} else {
			args[nargs++] = v;
		}
		m = new_inst(in);
		m->cls = c;
		m->mod = VM_NONE;
		self = mk_inst_value(in, m);
		vdict_sets(in->a, m->attrs, "_value_", v);
		vdict_sets(in->a, m->attrs, "value", v);
		vdict_sets(in->a, m->attrs, "_name_", (value_t *)k);
		vdict_sets(in->a, m->attrs, "name", (value_t *)k);
		(void)call_function(f, init->u.fn, self, args, nargs, NULL, M_JOB, NULL, &c->def->h);
		c->ns->vals[j] = self;
	}
}

value_t *enum_iter_members(struct interp *in, const value_t *cls)
{
	struct vclass *c;
	value_t *out;
	size_t j;

	if (!cls || cls->k != VK_CLASS || !class_is_repo_enum(in, cls->u.cls))
		return NULL;
	c = cls->u.cls;
	out = v_seq(in->a, VK_LIST, 0);
	for (j = 0; j < c->ns->n; j++) {
		int mem = is_member_entry(c->ns->keys[j], c->ns->vals[j]);

		if (mem < 0)
			return NULL;
		if (!mem)
			continue;
		vseq_push(in->a, out->u.seq, c->ns->vals[j]);
	}
	return out;
}
