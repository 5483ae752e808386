/* interp/attr.c - attribute reads: getattr_v()
 *
 * obj.name for every kind of value: instance attributes then the class's
 * MRO (methods bound), module namespaces, externals (a longer dotted
 * name), super().  What a concern knows is asked of its file: tensors'
 * attributes (tensor.c tensor_attr), list/dict/str methods (methods.c
 * type_method), ArgumentParser methods (argparse.c), optimizer.step
 * (torch.c optim_method), sys.argv and os.environ (stdlib.c).  Never NULL.
 */
#include "config.h"

#include "internal.h"

value_t *bound(struct interp *in, value_t *fnv, value_t *self)
{
	value_t *b = ast_arena_alloc(in->a, sizeof *b);

	b->k = VK_BOUND;
	b->u.bound.fn = fnv;
	b->u.bound.self = self;
	return b;
}

static value_t *module_method(struct interp *in, value_t *obj, const char *name)
{
	static const struct { const char *n; int id; } mm[] = {
		{ "add_module", BI_M_MOD_ADD_MODULE }, { "register_module", BI_M_MOD_ADD_MODULE },
		{ "append", BI_M_MOD_APPEND }, { "extend", BI_M_MOD_EXTEND }, { "insert", BI_M_MOD_INSERT },
		{ "to", BI_M_MOD_TO }, { "cuda", BI_M_MOD_TO }, { "cpu", BI_M_MOD_SELF },
		{ "train", BI_M_MOD_TRAIN }, { "eval", BI_M_MOD_EVAL }, { "half", BI_M_MOD_SELF },
		{ "float", BI_M_MOD_SELF }, { "bfloat16", BI_M_MOD_SELF }, { "double", BI_M_MOD_SELF },
		{ "requires_grad_", BI_M_MOD_SELF }, { "apply", BI_M_MOD_SELF }, { "share_memory", BI_M_MOD_SELF },
		{ "to_empty", BI_M_MOD_SELF },
		{ "register_buffer", BI_M_MOD_REGISTER_BUFFER },
		{ "register_parameter", BI_M_MOD_REGISTER_PARAMETER },
		{ "children", BI_M_MOD_CHILDREN }, { "modules", BI_M_MOD_CHILDREN },
		{ "named_modules", BI_M_MOD_CHILDREN }, { "named_children", BI_M_MOD_CHILDREN },
	};
	size_t i;

	for (i = 0; i < sizeof mm / sizeof mm[0]; i++)
		if (!strcmp(mm[i].n, name))
			return mk_builtin(in, mm[i].id, obj);
	return NULL;
}

value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;
	struct vclass *owner = NULL;

	switch (obj->k) {
	case VK_NS:
		v = ns_attr(f, obj->u.ns, name);
		if (v)
			return v;
		return unknown_at(f, site, afmt(in, "'%s' is not defined in %s", name,
		                                 obj->u.ns->file ? obj->u.ns->file->path : "that package"));
	case VK_EXT:
		if ((v = stdlib_attr(in, obj->u.ext, name)))
			return v;
		return v_ext(in->a, canon_ext(in, adot(in, obj->u.ext, name)));
	case VK_TENSOR:
		return tensor_attr(f, obj, name, site);
	case VK_FUNC:
		if (!strcmp(name, "__name__")) {
			const char *q = obj->u.fn->qualname, *dot = q ? strrchr(q, '.') : NULL;

			return v_str(in->a, dot ? dot + 1 : q ? q : "<lambda>");
		}
		if (!strcmp(name, "__qualname__"))
			return v_str(in->a, obj->u.fn->qualname ? obj->u.fn->qualname : "<lambda>");
		if (!strcmp(name, "__module__"))
			return v_str(in->a, obj->u.fn->file->modname);
		break;
	case VK_CLASS:
		if (!strcmp(name, "apply") && class_ext_base(obj->u.cls) &&
		    !strcmp(class_ext_base(obj->u.cls), "torch.autograd.Function"))
			return mk_builtin(in, BI_FN_APPLY, obj);
		if (!strcmp(name, "__name__"))
			return v_str(in->a, obj->u.cls->name);
		if (!strcmp(name, "__qualname__"))
			return v_str(in->a, obj->u.cls->qualname);
		if (!strcmp(name, "__module__"))
			return v_str(in->a, obj->u.cls->file->modname);
		v = class_lookup(obj->u.cls, name, &owner);
		if (v) {
			if (v->k == VK_FUNC && v->u.fn->is_classmethod)
				return bound(in, v, obj);
			return v;
		}
		if (obj->u.cls->ext_base)
			return v_ext(in->a, adot(in, class_ext_base(obj->u.cls), name));
		return unknown_at(f, site, afmt(in, "class %s has no attribute '%s' in the repository",
		                                 obj->u.cls->name, name));
	case VK_INST: {
		struct vinst *m = obj->u.inst;
		struct vinst *c;

		if (m->nwrapped && (!strcmp(name, "module") || !strcmp(name, "_orig_mod")))
			return mk_inst_value(in, m);
		if (!strcmp(name, "training") && m->mod != VM_NONE) {
			/* nn.Module.training: in a forward, as it was when the
			 * model was first called (module_snapshot_training); in
			 * job code, as .train()/.eval() left it (True at first) */
			if (f->mode == M_FWD)
				return (v = vdict_gets(m->attrs, "__ecg_training_at_call__")) ? v
				       : unknown_at(f, site, "the training flag when the model was called is not known");
			return (v = vdict_gets(m->attrs, "training")) ? v : v_bool(in->a, 1);
		}
		if ((c = vinst_child(m, name)))
			return mk_inst_value(in, c);
		if ((v = vdict_gets(m->attrs, name)))
			return v;
		if (!strcmp(name, "__dict__") && m->mod == VM_NONE && (m->cls || !m->ext)) {
			/* the object's own namespace: writes through it
			 * (self.__dict__.update(d)) set its attributes */
			v = v_dict(in->a);
			v->u.dict = m->attrs;
			return v;
		}
		if (m->cls && (v = class_lookup(m->cls, name, &owner))) {
			if (v->k == VK_FUNC && !v->u.fn->is_static) {
				if (v->u.fn->is_property)
					return call_function(f, v->u.fn, obj, NULL, 0, NULL, f->mode, f->ev, site);
				return bound(in, v, v->u.fn->is_classmethod ? mk_inst_value(in, m) : obj);
			}
			return v;
		}
		if ((v = argp_method(in, obj, name)))
			return v;
		if (m->ext && !strncmp(m->ext, "torch.optim.", 12) && (v = optim_method(f, name, site)))
			return v;
		if (m->ext && !strcmp(m->ext, "io.TextIOWrapper") && !strcmp(name, "read"))
			return mk_builtin(in, BI_M_FILE_READ, obj);
		if (m->ext && !strcmp(m->ext, "os.environ") && (!strcmp(name, "get") || !strcmp(name, "setdefault")))
			return mk_builtin(in, BI_M_DICT_GET, obj);
		if (m->mod != VM_NONE) {
			if (!strcmp(name, "__setattr__"))
				return mk_builtin(in, BI_SETATTR, obj);
			if ((v = module_method(in, obj, name)))
				return v;
			if (!strcmp(name, "forward"))
				return obj;
			if (!strcmp(name, "weight") || !strcmp(name, "bias"))
				return v_tensor(in->a);
		}
		if (m->ext && m->mod == VM_NONE && strcmp(m->ext, "argparse.Namespace") && strcmp(m->ext, "os.environ") &&
		    strcmp(m->ext, "io.TextIOWrapper")) {
			/* a method of an object of an outside class: its dotted name
			 * (GradScaler.scale, an app's method), called through call_ext */
			v = v_ext(in->a, adot(in, m->ext, name));
			v->recv = obj;
			return v;
		}
		if (m->ext && m->mod == VM_NONE)
			return unknown_at(f, site, afmt(in, "an attribute of a %s", m->ext));
		return unknown_at(f, site, afmt(in, "'%s' is not set on this object", name));
	}
	case VK_LIST:
	case VK_STR:
		if ((v = type_method(in, obj, name)))
			return v;
		break;
	case VK_DICT:
		if ((v = type_method(in, obj, name)))
			return v;
		/* attribute-style config dicts (EasyDict, OmegaConf) */
		if ((v = vdict_gets(obj->u.dict, name)))
			return v;
		break;
	case VK_BUILTIN:
		if (obj->u.bi.id == BI_SUPER) {
			value_t *self = obj->u.bi.self;
			struct vclass *after = (struct vclass *)obj->expr;
			struct vclass *cls = self->k == VK_INST ? self->u.inst->cls : NULL;
			size_t i;
			int past = 0;

			if (cls) {
				for (i = 0; i < cls->nmro; i++) {
					if (past && (v = vdict_gets(cls->mro[i]->ns, name))) {
						if (v->k == VK_FUNC)
							return bound(in, v, self);
						return v;
					}
					if (cls->mro[i] == after)
						past = 1;
				}
			}
			/* the next class is torch's (or third-party): nothing to read */
			if (!strcmp(name, "__init__"))
				return mk_builtin(in, self->k == VK_INST ? BI_M_MOD_BASE_INIT : BI_NOOP, self);
			if (self->k == VK_INST && (v = module_method(in, self, name)))
				return v;
			return unknown_at(f, site, "a method of a base class outside the repository");
		}
		break;
	case VK_UNKNOWN:
		if (!strcmp(name, "backward") && f->mode != M_FWD) {
			/* losses[i].backward(): the name says what it is */
			v = v_ext(in->a, "Tensor.backward");
			v->recv = v_tensor(in->a);
			return v;
		}
		break;
	default:
		break;
	}
	return unknown_at(f, site, obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an attribute ecg cannot follow");
}
