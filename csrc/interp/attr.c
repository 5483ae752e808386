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

#include "ecg/catalog.h"
#include "internal.h"
#include "ecg/catalog.h"

value_t *bound(struct interp *in, value_t *fnv, value_t *self)
{
	value_t *b = ast_arena_alloc(in->a, sizeof *b);

	b->k = VK_BOUND;
	b->u.bound.fn = fnv;
	b->u.bound.self = self;
	return b;
}

/* The methods of module instances that are builtins (module.c runs
 * them), by name. */
static const struct native module_methods[] = {
	{ "_apply", call_module_method, BI_M_MOD_SELF },   /* nn.Module._apply(fn) returns self */
	{ "add_module", call_module_method, BI_M_MOD_ADD_MODULE },
	{ "append", call_module_method, BI_M_MOD_APPEND },
	{ "apply", call_module_method, BI_M_MOD_SELF },
	{ "bfloat16", call_module_method, BI_M_MOD_SELF },
	{ "children", call_module_method, BI_M_MOD_CHILDREN },
	{ "compile", call_module_method, BI_M_MOD_COMPILE },
	{ "cpu", call_module_method, BI_M_MOD_CPU },
	{ "cuda", call_module_method, BI_M_MOD_TO },
	{ "double", call_module_method, BI_M_MOD_SELF },
	{ "eval", call_module_method, BI_M_MOD_EVAL },
	{ "extend", call_module_method, BI_M_MOD_EXTEND },
	{ "float", call_module_method, BI_M_MOD_SELF },
	{ "half", call_module_method, BI_M_MOD_SELF },
	{ "insert", call_module_method, BI_M_MOD_INSERT },
	{ "items", call_module_method, BI_M_MOD_ITEMS },
	{ "keys", call_module_method, BI_M_MOD_KEYS },
	{ "load_state_dict", call_module_method, BI_M_MOD_LOAD_STATE_DICT },
	{ "modules", call_module_method, BI_M_MOD_MODULES },
	{ "named_children", call_module_method, BI_M_MOD_NAMED_CHILDREN },
	{ "named_modules", call_module_method, BI_M_MOD_NAMED_MODULES },
	{ "named_parameters", call_module_method, BI_M_MOD_NAMED_PARAMETERS },
	{ "parameters", call_module_method, BI_M_MOD_PARAMETERS },
	{ "register_buffer", call_module_method, BI_M_MOD_REGISTER_BUFFER },
	{ "register_forward_hook", call_module_method, BI_M_MOD_FWD_HOOK },
	{ "register_forward_pre_hook", call_module_method, BI_M_MOD_FWD_PRE_HOOK },
	{ "register_module", call_module_method, BI_M_MOD_ADD_MODULE },
	{ "register_parameter", call_module_method, BI_M_MOD_REGISTER_PARAMETER },
	{ "requires_grad_", call_module_method, BI_M_MOD_SELF },
	{ "share_memory", call_module_method, BI_M_MOD_SELF },
	{ "state_dict", call_module_method, BI_M_MOD_STATE_DICT },
	{ "to", call_module_method, BI_M_MOD_TO },
	{ "to_empty", call_module_method, BI_M_MOD_TO_EMPTY },
	{ "train", call_module_method, BI_M_MOD_TRAIN },
	{ "update", call_module_method, BI_M_MOD_UPDATE },
	{ "values", call_module_method, BI_M_MOD_VALUES },
};

const struct ntab module_methods_ntab = NTAB(module_methods);

static value_t *module_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m = NTAB_FIND(module_methods, name);

	return m ? mk_builtin(in, m->id, obj) : NULL;
}

/* Whether the n bytes at w are one of the space-separated words of a
 * catalog entry's value (internal.h). */
int word_listed(const char *words, const char *w, size_t n)
{
	const char *p;

	for (p = words; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (strcspn(p, " ") == n && !strncmp(p, w, n))
			return 1;
	return 0;
}

/* model.generate of a module a library built (transformers' models):
 * catalog module_generate_methods names the method and the packages
 * whose modules have it.  The call runs the module's forward under
 * no_grad (module.c); the per-token loop is the library's, not read. */
static int library_generate(struct interp *in, const char *ext, const char *name)
{
	const char *pkgs = catalog_fact(in->cat, CATALOG_F_MODULE_GENERATE_METHODS, name);

	return pkgs && ext && word_listed(pkgs, ext, strcspn(ext, "."));
}

/* The outside classes whose objects are emulated here (their attributes
 * are not methods of the class, called through call_ext). */
static const char *const emulated_exts[] = { "argparse.Namespace", "contextlib.ExitStack", "io.TextIOWrapper", "os.DirEntry",
                                               "os.environ", "pathlib.Path" };

const struct ntab emulated_exts_ntab = NTAB(emulated_exts);

/* The attributes of functions and classes that Python sets. */
static value_t *func_dunder(struct interp *in, const struct vfunc *fn, const char *name)
{
	const char *q = fn->qualname, *dot = q ? strrchr(q, '.') : NULL;

	/* functools.wraps(w): w's names, and w as __wrapped__ */
	if (fn->wraps && !strcmp(name, "__wrapped__"))
		return fn->wraps;
	if (fn->wraps && (!strcmp(name, "__name__") || !strcmp(name, "__qualname__") || !strcmp(name, "__module__")))
		return fn->wraps->k == VK_FUNC ? func_dunder(in, fn->wraps->u.fn, name) : NULL;

	if (!strcmp(name, "__name__"))
		return v_str(in->a, dot ? dot + 1 : q ? q : "<lambda>");
	if (!strcmp(name, "__qualname__"))
		return v_str(in->a, q ? q : "<lambda>");
	if (!strcmp(name, "__module__"))
		return v_str(in->a, fn->file->modname);
	return NULL;
}

static value_t *class_dunder(struct interp *in, const struct vclass *c, const char *name)
{
	if (!strcmp(name, "__name__"))
		return v_str(in->a, c->name);
	if (!strcmp(name, "__qualname__"))
		return v_str(in->a, c->qualname);
	if (!strcmp(name, "__module__"))
		return v_str(in->a, c->file->modname);
	if (!strcmp(name, "__dict__")) {
		/* the class's own namespace (a read-only view in Python) */
		value_t *v = v_dict(in->a);

		v->u.dict = c->ns;
		return v;
	}
	return NULL;
}

/* C.name for a repo class C. */
static value_t *class_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vclass *owner = NULL;
	value_t *v;

	if (!strcmp(name, "apply") && class_ext_base(obj->u.cls) &&
	    !strcmp(class_ext_base(obj->u.cls), "torch.autograd.Function"))
		return mk_builtin(in, BI_FN_APPLY, obj);
	if ((v = class_dunder(in, obj->u.cls, name)))
		return v;
	if ((v = hf_class_attr(f, obj, name)))
		return v;
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
}

/* bn.running_mean of a torch.nn layer: a buffer the catalogue lists
 * (torch_facts.json layer_buffers), a tensor where the layer is -- None
 * when the constructor was given False for the parameter it needs; NULL
 * when that is not known or the name is no such buffer. */
static value_t *layer_buffer(struct interp *in, const struct vinst *m, const char *name)
{
	const char *need;
	const value_t *on;
	int t;

	if (m->mod != VM_LAYER || !m->ext || !(need = catalog_fact(in->cat, CATALOG_F_LAYER_BUFFERS, adot(in, m->ext, name))))
		return NULL;
	on = m->args ? vdict_gets(m->args, need) : NULL;
	if (on && (t = value_truth(on)) <= 0)
		return t == 0 ? v_none(in->a) : NULL;
	return m->on_device ? v_tensor_dev(in->a, DEV_DEVICE, 0) : v_tensor(in->a);
}

/* m.name for a module instance m, after its attributes and class: the
 * methods module.c runs, forward (the module itself), weight and bias
 * (tensors), a layer's buffers (layer_buffer); NULL for any other. */
static value_t *module_attr(struct interp *in, value_t *obj, const char *name)
{
	value_t *v;

	if (!strcmp(name, "__setattr__"))
		return mk_builtin(in, BI_SETATTR, obj);
	if ((v = module_method(in, obj, name)))
		return v;
	if (!strcmp(name, "forward"))
		return obj;
	if (!strcmp(name, "weight") || !strcmp(name, "bias")) {
		v = obj->k == VK_INST && obj->u.inst->on_device ? v_tensor_dev(in->a, DEV_DEVICE, 0) : v_tensor(in->a);
		/* a layer not moved, built on the host with torch's default
		 * device never moved: its weight is on the host for sure, as
		 * module.c's parameters() lists them (what is made from it
		 * there -- a plain tensor attribute, weight.new_zeros(...) --
		 * stays there when the module moves) */
		if (obj->k == VK_INST && !obj->u.inst->on_device && !in->default_dev && obj->u.inst->mod != VM_NONE &&
		    module_built_on_host(in, obj->u.inst)) {
			v = v_tensor_dev(in->a, DEV_HOST, 0);
			v->host_sure = 1;
		}
		if (obj->k == VK_INST && obj->u.inst->mod == VM_LAYER) {
			/* whose parameter it is: a tie (other.weight = this.weight)
			 * names it (modtree.c counts it once) */
			v->param_of = obj->u.inst;
			v->param_name = astr(in, name);
		}
		return v;
	}
	if (obj->k == VK_INST)
		return layer_buffer(in, obj->u.inst, name);
	return NULL;
}

/* Is v the very tensor m registered with register_buffer (not a value
 * assigned to the name since, which stays where it was made)? */
static int is_registered_buffer(const struct vinst *m, const value_t *v)
{
	const value_t *bufs = vdict_gets(m->attrs, "__ecg_buffers__");
	size_t i;

	for (i = 0; bufs && bufs->k == VK_LIST && i < bufs->u.seq->n; i++)
		if (bufs->u.seq->items[i] == v)
			return 1;
	return 0;
}

/* Does class c (or a class of its MRO) extend an outside class other
 * than nn.Module (nn.Embedding: its attributes are set by torch's
 * constructor, which is not read)? */
/* Whether name is no attribute of an object of the outside class ext
 * whose attributes catalog closed_classes lists all of (torch's
 * DataLoader: `getattr(dl, "_is_accelerate_prepared", False)`, hasattr(dl,
 * "state_dict")).  Dunder names (Python's own, __class__ ...) are never
 * decided here. */
static int closed_class_lacks(struct interp *in, const char *ext, const char *name)
{
	const char *names = catalog_fact(in->cat, CATALOG_F_CLOSED_CLASSES, ext);
	size_t n = strlen(name);

	if (!names || !n || (n > 4 && !strncmp(name, "__", 2) && !strcmp(name + n - 2, "__")))
		return 0;
	return !word_listed(names, name, n);
}

static int inherits_ext(const struct vclass *c)
{
	size_t i;

	if (!c)
		return 1;
	for (i = 0; i < c->nmro; i++)
		if (c->mro[i]->ext_base)
			return 1;
	return 0;
}

/* model.process_group of the module a parallel wrapper returned (catalog
 * wrapper_group_attributes: '<wrapper>.<attribute>' -> the keyword): the
 * group the last such wrap was given there, the default group when it
 * was given no group at all (nor a device mesh, nor keywords not known);
 * else not known.  NULL when no wrap of m keeps one under that name. */
static value_t *wrapper_group_attr(struct frame *f, const struct vinst *m, const char *name,
                                   const struct ast_hdr *site)
{
	static const char *const group_kw[] = { "process_group", "device_mesh", "mesh", "group", NULL };
	const char *kwname = NULL;
	const struct vdict *kw;
	const value_t *g;
	size_t k, i;

	for (k = m->nwrapped; k-- > 0 && !kwname;) {
		const char *w = strrchr(m->wrapped_by[k], '.');
		char key[160];
		int n = snprintf(key, sizeof key, "%s.%s", w ? w + 1 : m->wrapped_by[k], name);

		if (n > 0 && (size_t)n < sizeof key)
			kwname = catalog_fact(f->in->cat, CATALOG_F_WRAPPER_GROUP_ATTRS, key);
		if (kwname) {
			kw = m->wrap_kw ? m->wrap_kw[k] : NULL;
			if (kw && (g = vdict_gets(kw, kwname)) && g->k != VK_NONE)
				return (value_t *)g;
			if (kw && vdict_gets(kw, KW_UNK_DSTAR))
				return unknown_at(f, site, "the wrapper's process group (keywords not known)");
			for (i = 0; kw && group_kw[i]; i++)
				if ((g = vdict_gets(kw, group_kw[i])) && g->k != VK_NONE)
					return unknown_at(f, site, "the wrapper's process group (from its device mesh)");
			return default_group_value(f, site);
		}
	}
	return NULL;
}

/* obj.name for an instance: a wrapper's module, a child module, its
 * attributes, its class's (methods bound, properties run), the methods of
 * what is emulated (parsers, optimizers, files, os.environ, modules), a
 * method of an outside class (a dotted name). */
static value_t *inst_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = obj->u.inst;
	struct vinst *c;
	struct vclass *owner = NULL;
	value_t *v;

	if (m->nwrapped && (!strcmp(name, "module") || !strcmp(name, "_orig_mod")))
		return mk_inst_value(in, m);
	/* obj.__class__ of a repository class's object: its class, as type(obj) */
	if (!strcmp(name, "__class__") && m->cls && !m->nwrapped) {
		v = ast_arena_alloc(in->a, sizeof *v);
		v->k = VK_CLASS;
		v->u.cls = m->cls;
		return v;
	}
	/* loader.__iter__() / it.__next__() called by name (a wrapper that
	 * iterates one batch ahead: accelerate's DataLoaderShard): as iter()
	 * and next() of it -- the loader's iterator, a batch */
	if (is_loader(obj) && !strcmp(name, "__iter__"))
		return mk_builtin(in, BI_LOADER_ITER, obj);
	if (is_loader(obj) && !strcmp(name, "__next__"))
		return mk_builtin(in, BI_LOADER_NEXT, obj);
	/* engine.step(), engine.local_rank of a DeepSpeed engine (dsengine.c) */
	if (m->nwrapped && (v = ds_engine_attr(f, obj, name, site)))
		return v;
	/* model.last_loss after a job call whose forward set it (modelret.c) */
	if (f->mode != M_FWD && !in->rv_reading && (v = vdict_gets(m->attrs, RV_AFTER_KEY)) && v->k == VK_DICT &&
	    (v = vdict_gets(v->u.dict, name)))
		return v;
	/* a method of the wrapper itself that communicates (FSDP's
	 * clip_grad_norm_): the wrapper's, before the wrapped class's */
	for (size_t k = m->nwrapped; k-- > 0;) {
		const char *w = strrchr(m->wrapped_by[k], '.');
		char key[160];
		int n = snprintf(key, sizeof key, "%s.%s", w ? w + 1 : m->wrapped_by[k], name);

		if (n > 0 && (size_t)n < sizeof key && catalog_fact(in->cat, CATALOG_F_WRAPPER_METHODS, key)) {
			v = v_ext(in->a, adot(in, m->wrapped_by[k], name));
			v->recv = obj;
			return v;
		}
	}
	/* model.no_sync of a wrapped module: its context object's maker */
	if (m->nwrapped && (v = sync_skip_attr(f, obj, name)))
		return v;
	if (obj->via_wrapper && (v = wrapper_group_attr(f, m, name, site)))
		return v;
	if (!strcmp(name, "training") && m->mod != VM_NONE) {
		/* nn.Module.training: in a forward, as it was when the model
		 * was first called (module_snapshot_training); in job code, and
		 * in the side reading of what a job call returns (modelret.c), as
		 * .train()/.eval() left it (True at first) */
		if (f->mode == M_FWD && !in->rv_reading)
			return (v = vdict_gets(m->attrs, "__ecg_training_at_call__")) ? v
			       : unknown_at(f, site, "the training flag when the model was called is not known");
		return (v = vdict_gets(m->attrs, "training")) ? v : v_bool(in->a, 1);
	}
	if ((c = vinst_child(m, name)))
		return mk_inst_value(in, c);
	if ((v = vdict_gets(m->attrs, name))) {
		/* a parameter or a registered buffer of a module moved to the
		 * device moved with it (a plain tensor attribute did not) */
		if (m->on_device && v->k == VK_TENSOR && (v->is_param || is_registered_buffer(m, v)) &&
		    v->dev != DEV_DEVICE) {
			v = v_copy(in->a, v);
			v->dev = DEV_DEVICE;
			v->pinned = 0;
		}
		return v;
	}
	if (!strcmp(name, "__dict__") && (m->mod == VM_NONE || m->mod == VM_REPO) &&
	    (m->cls || !m->ext || !strcmp(m->ext, "argparse.Namespace"))) {
		/* the object's own namespace: writes through it
		 * (self.__dict__.update(d)) set its attributes -- of a
		 * module too, past nn.Module.__setattr__: a module or a
		 * parameter written so is a plain attribute, not registered
		 * (yolov5's DetectMultiBackend: self.__dict__.update(locals())) */
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
	/* self.add_scalar of a repository subclass of tensorboard's
	 * SummaryWriter: the base's method, by its catalog facts (extbase.c) */
	if (m->cls && (v = ext_base_method(f, obj, name)))
		return v;
	if ((v = tapargs_method(in, obj, name)))   /* Args(Tap).parse_args */
		return v;
	if ((v = hfargs_method(in, obj, name)))    /* P(HfArgumentParser).parse_args_into_dataclasses */
		return v;
	if (m->ext && (is_optim_ext(m->ext) || ext_is_optimizer_class(in->cat, m->ext)) &&
	    catalog_fact(in->cat, CATALOG_F_OPTIMIZER_HOST_ATTRS, name)) {
		/* optimizer.defaults: host data, not known */
		v = unknown_at(f, site, afmt(in, "an optimizer's %s (host data)", name));
		v->dev = DEV_HOST;
		return v;
	}
	/* of torch's optimizer, or of the repository's subclass of one
	 * that does not define it (class_lookup above found none):
	 * torch's Optimizer.load_state_dict */
	if (((m->ext && (is_optim_ext(m->ext) || ext_is_optimizer_class(in->cat, m->ext))) || is_optimizer(obj)) &&
	    !strcmp(name, "load_state_dict"))
		return mk_builtin(in, BI_OPT_LOAD_STATE, obj);   /* torch.c optim_load_state */
	/* optimizer.step / zero_grad: their events are the call's, made
	 * where it is called -- a read of the bound method kept to call
	 * later is none (builtins.c bi_opt_call) */
	if (m->ext && (is_optim_ext(m->ext) || ext_is_optimizer_class(in->cat, m->ext)) &&
	    (!strcmp(name, "step") || !strcmp(name, "zero_grad")))
		return mk_builtin(in, !strcmp(name, "step") ? BI_OPT_CALL_STEP : BI_OPT_CALL_ZERO, obj);
	if (m->ext && (is_optim_ext(m->ext) || ext_is_optimizer_class(in->cat, m->ext)) &&
	    (v = optim_method(f, name, site))) {
		if (!strcmp(name, "step"))
			optim_step_collective(f, m, site);
		framework_optimizer_step(f, m, name, site);
		return v;
	}
	if (m->ext && NAME_IN(emulated_exts, m->ext) && (v = ext_method(in, obj, name)))
		return v;
	if (m->ext && (v = objreg_method(in, obj, name)))   /* REGISTRY.register / .get */
		return v;
	/* meter.update of a library meter (a module library's class, too):
	 * libvalues.c libv_meter_update, through call_ext */
	if (m->ext && catalog_fact(in->cat, CATALOG_F_VALUE_METERS, adot(in, m->ext, name))) {
		v = v_ext(in->a, adot(in, m->ext, name));
		v->recv = obj;
		return v;
	}
	/* ema.update of a library module that reads its own buffers on the
	 * host: called through call_ext (jobctx.c ext_job_effects) */
	if (m->ext && m->mod != VM_NONE &&
	    catalog_fact(in->cat, CATALOG_F_DEVICE_MODULE_HOST_READS, adot(in, m->ext, name))) {
		v = v_ext(in->a, adot(in, m->ext, name));
		v->recv = obj;
		return v;
	}
	if (is_path(obj) && (v = path_attr(f, obj, name, site)))
		return v;
	if (m->mod == VM_EXTERNAL && library_generate(in, m->ext, name))
		return mk_builtin(in, BI_M_MOD_GENERATE, obj);
	if (m->mod == VM_EXTERNAL && (v = hfbase_method(f, obj, name)))
		return v;
	if (m->mod != VM_NONE && !strcmp(name, "_modules"))
		return module_children_dict(f, obj, site);
	if (m->mod != VM_NONE && (v = module_attr(in, obj, name)))
		return v;
	/* model.save_pretrained of an outside module of the library model
	 * class the job named (hf.c hf_named_unread): called through
	 * call_ext (libvalues.c libv_inst_save) */
	if (m->mod == VM_EXTERNAL && m->ext && !m->cls && vdict_gets(m->attrs, HF_NAMED_CLASS_ATTR) &&
	    catalog_fact(in->cat, CATALOG_F_MODULE_STATE_SAVERS, name)) {
		v = v_ext(in->a, adot(in, m->ext, name));
		v->recv = obj;
		return v;
	}
	if (libv_is_tensor_method(in, m, name)) {
		/* metric.compute of a library's module: called through
		 * call_ext (libvalues.c) */
		v = v_ext(in->a, adot(in, m->ext, name));
		v->recv = obj;
		return v;
	}
	if ((v = framework_attr(f, obj, name)))
		return v;
	/* an object of an outside record class (catalog record_classes: a
	 * dataclass of its keywords, transformers' generation outputs): the
	 * value given for that field */
	if (m->ext && m->mod == VM_NONE && m->args &&
	    catalog_fact_match(in->cat, CATALOG_F_RECORD_CLASSES, canon_ext(in, m->ext)) &&
	    (v = vdict_gets(m->args, name)))
		return v;
	if (m->ext && m->mod == VM_NONE && !NAME_IN(emulated_exts, m->ext)) {
		/* an attribute a class of catalog closed_classes does not
		 * have, the job not having set it: absent (getattr() gives
		 * its default, hasattr() False) */
		if (closed_class_lacks(in, m->ext, name))
			return unknown_at(f, site, afmt(in, "a %s has no attribute '%s'", m->ext, name));
		/* a method of an object of an outside class: its dotted name
		 * (GradScaler.scale, an app's method), called through call_ext */
		v = v_ext(in->a, adot(in, m->ext, name));
		v->recv = obj;
		return v;
	}
	if (m->ext && m->mod == VM_NONE)
		return unknown_at(f, site, afmt(in, "an attribute of a %s", m->ext));
	/* a repository module whose forward calls an attribute it was not
	 * seen to get: something ecg did not follow sets it (nanotron's
	 * PipelineBlock.build_and_set_rank builds self.pp_block later), maybe
	 * a submodule.  The value says whose it is; eval.c marks the module's
	 * children not known when it is called (modtree.c: no count) */
	if (f->mode == M_FWD && m->mod == VM_REPO && name[0] != '_' && !inherits_ext(m->cls)) {
		v = unknown_at(f, site, afmt(in, "'%s' is not set on this object", name));
		v->recv = obj;
		v->may_module = 1;
		return v;
	}
	return unknown_at(f, site, afmt(in, "'%s' is not set on this object", name));
}

/* super().name: the classes after the defining one in self's MRO, then
 * (torch's or a third party's) base: nothing read, __init__ a no-op,
 * module methods as a module's.  NULL when obj is no super(). */
static value_t *super_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = obj->u.bi.self, *v;
	struct vclass *after, *cls;
	size_t i;
	int past = 0;

	if (obj->u.bi.id != BI_SUPER)
		return NULL;
	after = obj->u.bi.after;
	cls = self->k == VK_INST ? self->u.inst->cls : dictsub_class(self);
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
	/* the next class is torch's DataLoader: its iterator over batches */
	if (!strcmp(name, "__iter__") && self->k == VK_INST && class_is_torch_loader(in, self->u.inst->cls))
		return mk_builtin(in, BI_LOADER_ITER, self);
	/* the next class is argparse's ArgumentParser (argpsub.c) */
	if (strcmp(name, "__init__") && (v = argp_super_attr(in, self, name)))
		return v;
	/* the next class is dict (or defaultdict, OrderedDict), for an
	 * object of a dict subclass: its __init__ fills the (new, empty)
	 * dict -- update(), a defaultdict's factory first (dictsub.c) */
	if (!strcmp(name, "__init__") && dictsub_class(self))
		return mk_builtin(in, BI_DICTSUB_INIT, self);
	/* ... and dict's other methods (super().get(key) in a __getitem__
	 * of the class's own) */
	if (strcmp(name, "__init__") && dictsub_class(self) && (v = type_method(in, self, name)))
		return v;
	/* the next class is torch's (or third-party): nothing to read */
	if (!strcmp(name, "__init__"))
		return mk_builtin(in, self->k == VK_INST ? BI_M_MOD_BASE_INIT : BI_NOOP, self);
	if (self->k == VK_INST && (v = module_method(in, self, name)))
		return v;
	return unknown_at(f, site, "a method of a base class outside the repository");
}

value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;

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
		if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__") || !strcmp(name, "__module__")) {
			/* a torch.nn class of the catalogue: the names its class
			 * statement gave it; of another outside object, not
			 * known (not a name of the library to call) */
			const struct catalog_class *cc = catalog_class(in->cat, canon_ext(in, obj->u.ext));
			const char *dot = cc ? strrchr(cc->name, '.') : NULL;

			if (dot)
				return v_str(in->a, name[2] == 'm' ? cc->module : dot + 1);
			return unknown_at(f, site, afmt(in, "the %s of %s, an outside object not read", name,
			                                 obj->u.ext));
		}
		return v_ext(in->a, canon_ext(in, adot(in, obj->u.ext, name)));
	case VK_TENSOR:
		return tensor_attr(f, obj, name, site);
	case VK_FUNC:
		if ((v = func_dunder(in, obj->u.fn, name)))
			return v;
		break;
	case VK_CLASS:
		return class_attr(f, obj, name, site);
	case VK_INST:
		return inst_attr(f, obj, name, site);
	case VK_TUPLE:
		if ((v = nt_attr(f, obj, name)))
			return v;
		break;
	case VK_LIST:
	case VK_STR:
		if ((v = type_method(in, obj, name)))
			return v;
		break;
	case VK_DICT:
		if ((v = dictsub_attr(f, obj, name, site)))
			return v;
		if ((v = type_method(in, obj, name)))
			return v;
		/* attribute-style config dicts (EasyDict, OmegaConf) */
		if ((v = vdict_gets(obj->u.dict, name)))
			return v;
		break;
	case VK_BUILTIN:
		if ((v = super_attr(f, obj, name, site)))
			return v;
		break;
	case VK_UNKNOWN:
		if (alts_dev_path(obj) >= 0)
			return alts_dev_getattr(f, obj, name, site);
		if (obj->alts && alts_tensor_path(obj) < 0)
			return alts_getattr(f, obj, name, site);
		if ((v = libv_attr(f, obj, name, site)))
			return v;
		/* batch.src of a batch a library's iterator made (devbatch.c) */
		if ((v = devbatch_attr(f, obj, name)))
			return v;
		/* f'cuda:{r}'.startswith('cuda'): the known prefix answers */
		if ((v = fact_str_method(in, obj, name)))
			return v;
		if ((v = arr_attr(f, obj, name, site)))
			return v;
		/* tokenizer.pad_token_id of a tokenizer ecg does not know
		 * (catalog token_id_attributes): a Python int, or None */
		if (!obj->may_module && catalog_fact(in->cat, CATALOG_F_TOKEN_ID_ATTRIBUTES, name)) {
			v = fact_set_plain(unknown_at(f, site, "a token id that a tokenizer not known holds"));
			v->may_none = 1;
			return v;
		}
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
	v = unknown_at(f, site, obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an attribute ecg cannot follow");
	/* an attribute (a method) of host data: host data (hostdata.c) */
	hostdata_keep(obj, v);
	return mapds_method(f, obj, name, v);
}
