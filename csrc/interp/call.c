/* interp/call.c - calls: one entry for every callable
 *
 * call() dispatches on the callee's kind: functions and bound methods
 * (function.c), classes (object.c), builtins (builtins.c), module
 * instances (forward.c), tensors' methods (tensor.c) and externals.
 * call_ext() asks each concern in a fixed order, the first answer wins:
 * the job's side effects (jobctx.c), Tensor methods, torch's wrappers
 * (torch.c), argparse, frameworks (framework.c), the standard library
 * (stdlib.c), torch.nn classes and torch ops, third-party modules; what is
 * left is an op in forward mode, an object of an outside class, or
 * unknown.  Never NULL: an unknown result carries the call's text.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* A call of the model from job code, recorded for the job's step and
 * type: a new entry of in->roots with the call's anchor, arguments and the
 * frame's context (loop, no_grad, handler, function).  The caller sets
 * the binding and the instance.  Never fails (allocation aborts). */
static struct root_call *root_call_new(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct root_call *rc;
	size_t i;

	GROW(in->roots, in->aroots, in->nroots + 1);
	rc = &in->roots[in->nroots++];
	memset(rc, 0, sizeof *rc);
	rc->anchor = anchor_at(f, site);
	rc->nargs = nargs;
	rc->args = ast_arena_alloc(in->a, (nargs + 1) * sizeof *rc->args);
	for (i = 0; i < nargs; i++)
		rc->args[i] = args[i];
	rc->kwargs = kw;
	rc->loop_anchor = f->loop_anchor;
	rc->no_grad = f->no_grad;
	rc->handler = f->handler;
	rc->function_anchor = f->qualname && f->def_line
	                      ? aanchor(in, f->file->path, f->qualname, f->def_line) : NULL;
	rc->ctx = f->jc;
	rc->train_mode = -1;
	in->job_events++;
	return rc;
}

/* Job code calling, with tensors, an object torch.load read whole from a
 * file (`model = torch.load(f); out = model(x)`): a model whose class the
 * file decides.  A root call with no instance -- the job's step and type
 * see it, the modules list does not (analyse.c skips it) -- and its output
 * a tensor where the loaded tensors went. */
static value_t *loaded_model_call(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct root_call *rc = root_call_new(f, args, nargs, kw, site);

	if (site && AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Name))
		rc->binding = astr(in, AST_AS(AST_AS(site, Call)->func, Name)->id);
	(void)sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);
	return v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
}

/* A library method that runs the model inside it (a DeepSpeed pipeline
 * engine's train_batch: interp/dspipe.c): a root call with no instance,
 * as a library module's, so the step and the job type see it. */
void lib_step_call(struct frame *f, const struct ast_hdr *site)
{
	struct root_call *rc = root_call_new(f, NULL, 0, NULL, site);

	rc->lib_model = 1;
	rc->binding = "model";
	(void)sev(f, SEV_MODEL_CALL, "model", site);
}

/* Job code calling a module a library built (timm.create_model(...),
 * not read: libvalues.c) with tensors: a model call, as a loaded
 * model's (a root call with no instance: the step and the job type see
 * it, the modules list does not), its result libv_module_call's.  NULL
 * when fn is no such module or no tensor is given. */
static value_t *lib_model_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct root_call *rc;
	value_t *r;
	size_t i;
	int tensors = 0;

	for (i = 0; i < nargs; i++)
		tensors |= is_tensorish(args[i]);
	for (i = 0; kw && i < kw->n; i++)
		tensors |= is_tensorish(kw->vals[i]);
	if (!tensors || !(r = libv_module_call(f, fn, site)))
		return NULL;
	rc = root_call_new(f, args, nargs, kw, site);
	rc->lib_model = 1;
	if (site && AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Name))
		rc->binding = astr(in, AST_AS(AST_AS(site, Call)->func, Name)->id);
	(void)sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);
	return r;
}

/* Where the tensors of v are: v a tensor, or a list or tuple of tensors
 * all on one device (a list of unknown length: its representative items),
 * DEV_UNKNOWN otherwise or for an empty one. */
static int tensors_device(const value_t *v)
{
	size_t i;
	int dev = DEV_UNKNOWN;

	if (is_tensorish(v))
		return v->dev;
	if ((v->k != VK_LIST && v->k != VK_TUPLE) || !v->u.seq->n)   /* unk_reason: representatives */
		return DEV_UNKNOWN;
	for (i = 0; i < v->u.seq->n; i++) {
		const value_t *x = v->u.seq->items[i];

		if (!is_tensorish(x) || (i && x->dev != dev))
			return DEV_UNKNOWN;
		dev = x->dev;
	}
	return dev;
}

/* v is a tensor, or a non-empty list or tuple of tensors */
static int tensors_given(const value_t *v)
{
	size_t i;

	if (is_tensorish(v))
		return 1;
	if ((v->k != VK_LIST && v->k != VK_TUPLE) || !v->u.seq->n)
		return 0;
	for (i = 0; i < v->u.seq->n; i++)
		if (!is_tensorish(v->u.seq->items[i]))
			return 0;
	return 1;
}

/* Whether a call is given Python numbers only (known ones), at least one. */
static int numbers_only(value_t **args, size_t nargs, const struct vdict *kw)
{
	size_t i, n = 0;

	for (i = 0; i < nargs; i++, n++)
		if (args[i]->k != VK_INT && args[i]->k != VK_FLOAT && args[i]->k != VK_BOOL && args[i]->k != VK_NONE)
			return 0;
	for (i = 0; kw && i < kw->n; i++, n++)
		if (kw->vals[i]->k != VK_INT && kw->vals[i]->k != VK_FLOAT && kw->vals[i]->k != VK_BOOL &&
		    kw->vals[i]->k != VK_NONE)
			return 0;
	return n > 0;
}

/* The name catalog host_state_calls lists a call by: a method of a torch
 * LR scheduler (torch_object marks its class "scheduler:") by its base
 * class's, torch.optim.lr_scheduler.LRScheduler.<method>; any other as it
 * is. */
static const char *host_state_key(struct interp *in, const char *d)
{
	static const char mark[] = "scheduler:";
	const char *m;

	if (strncmp(d, mark, sizeof mark - 1) || !(m = strrchr(d, '.')))
		return d;
	return afmt(in, "torch.optim.lr_scheduler.LRScheduler%s", m);
}

/* External callables: torch, third-party libraries, the standard library. */
value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *d = canon_ext(in, fn->u.ext);
	const char *last = short_ext(d);
	value_t *r;
	size_t i;
	int any_tensor = 0;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]))
			any_tensor = 1;

	ext_job_effects(f, d, last, fn->recv, args, nargs, kw, site);
	/* hparams.parse("fp16_run=True"): a record's fields rewritten */
	if (fn->recv && (r = record_update_call(f, d, fn->recv, args, nargs)))
		return r;
	/* accelerate's is_xpu_available(): the machine's answer */
	if ((r = machine_library_query(f, d, site)))
		return r;
	/* model.no_sync() of a wrapped module; its context's __enter__() */
	if (fn->recv && (r = sync_skip_call(f, d, last, fn->recv)))
		return r;
	intargs_reads(f, d, args, nargs, kw, site);
	/* transforms.Compose([...]), TF.to_tensor(img): an image pipeline */
	if ((r = transform_ext_call(f, d, last, args, nargs, kw, site)))
		return r;
	/* tqdm(loader): the loader, its batches with it */
	if (nargs >= 1 && catalog_fact(in->cat, CATALOG_F_ITER_PASSTHROUGH, d))
		return args[0];
	/* torch.jit.script(fn), torch.onnx.export(...): code may run
	 * scripted or traced from now on */
	{
		const char *jit = catalog_fact(in->cat, CATALOG_F_JIT_COMPILERS, d);

		if (jit && !strcmp(jit, "script"))
			in->jit_script = 1;
		else if (jit)
			in->jit_trace = 1;
	}
	/* make_grid(images), rearrange(x, ...): a tensor where the images
	 * are; nothing stated of another argument (einops given a numpy
	 * array returns an array) */
	if (nargs >= 1 && catalog_fact(in->cat, CATALOG_F_LIBRARY_TENSOR_OPS, d) && tensors_given(args[0]))
		return v_tensor_dev(in->a, tensors_device(args[0]), 0);
	/* np.sqrt(t): numpy computes on the tensor's host memory (a CUDA
	 * tensor raises) and Tensor.__array_wrap__ makes the result a torch
	 * tensor again: on the host for sure (hostsure.c) when it returns */
	if (nargs == 1 && !kw && catalog_fact(in->cat, CATALOG_F_NUMPY_TENSOR_UFUNCS, d) && args[0]->k == VK_TENSOR &&
	    args[0]->dev == DEV_HOST && !args[0]->loose) {
		r = v_tensor_dev(in->a, DEV_HOST, 0);
		r->shape = args[0]->shape;
		r->host_sure = f->mode != M_FWD;
		return r;
	}
	/* torchvision.ops.nms(boxes, scores, iou) read as a call (torchvision
	 * not read from a site): the kept indices, where the boxes are, their
	 * number decided by the scores -- sized on the host when the boxes
	 * are on the device (the torch op's own rule, torch.c) */
	if (nargs >= 1 && strncmp(d, "torch.", 6) && catalog_fact(in->cat, CATALOG_F_DATA_SIZED_CALLS, d)) {
		int dev = tensors_device(args[0]);

		if (dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, "%s (its output size depends on the data)", d), site);
		if (f->mode == M_FWD)
			emit_op(f, d, site);
		r = v_tensor_dev(in->a, dev, 0);
		r->dt = DT_INT;
		return r;
	}
	/* a request handler handing a repo generator to its framework
	 * (StreamingResponse(gen)): the framework iterates it for the
	 * request; its body is read here, as the loop over it would be */
	if (f->handler && f->mode != M_FWD)
		for (i = 0; i < nargs; i++)
			if (is_gen_value(args[i]))
				(void)gen_next(f, args[i]->u.inst, site);
	if ((r = path_open_call(f, d, args, nargs, kw, site)))   /* pathmgr.open(path, "r") */
		return r;
	if ((r = optimizer_factory_call(f, d, site)) || (r = topk_metric_call(f, d, args, nargs, kw)) ||
	    (r = library_object_call(f, d)) || (r = libv_device_name(f, d, args, nargs, kw, site)) || (r = libv_device_load(f, d, args, nargs, kw, site)) || (r = libv_pipeline(f, d, kw, site)))
		return r;
	if (fn->recv && (r = libv_module_method(f, last, fn->recv)))
		return r;
	if (fn->recv && (r = libv_inst_save(f, last, fn->recv, kw, site)))   /* model.save_pretrained() */
		return r;
	/* scaler.state_dict(), scaler.get_scale(): what a method of
	 * object_host_reads gives back is what it read to the host (Python
	 * numbers; {} or 1.0 when the scaler is disabled): host data, so
	 * torch.save of it copies nothing off a device */
	if (fn->recv && fn->recv->k == VK_INST && fn->recv->u.inst->ext && object_host_read_gate(in, d, NULL)) {
		r = v_unknown(in->a, NULL, afmt(in, "the values %s() read to the host", d));
		r->dev = DEV_HOST;
		return r;
	}
	if (!strncmp(d, "Tensor.", 7))
		return call_tensor_method(f, fn, last, args, nargs, kw, site);
	if (is_mesh(fn->recv) && (r = mesh_method(f, fn->recv, last, args, nargs, kw, site)))
		return r;
	if (fn->recv && (r = categorical_method(f, d, last, fn->recv, args, nargs, site)))
		return r;
	/* meter.update(x) of a library meter: x kept on it (libvalues.c) */
	if (fn->recv && (r = libv_meter_update(f, d, fn->recv, args, nargs, site)))
		return r;
	/* model.clip_grad_norm_() of an FSDP-wrapped model: the wrapper's */
	if (fn->recv && wrapper_method_op(in, d, NULL))
		return wrapper_method_call(f, d, fn->recv, site);
	if (fn->recv && (r = accelds_call(f, d, last, fn->recv, args, nargs, site)))   /* accelerate -> DeepSpeed */
		return r;
	framework_prepare_note(f, d, fn->recv, args, nargs, site);
	if (fn->recv && (r = framework_launcher_call(f, d, fn->recv, args, nargs, kw, site)))
		return r;
	if ((r = ds_call(f, d, fn->recv, args, nargs, kw, site)))
		return r;
	if ((r = passthru_call(f, d, args, nargs, kw)))     /* apex's amp.initialize */
		return r;
	if ((r = gradhook_queue_call(f, d, args, nargs)))   /* the engine's queue_callback */
		return r;
	if ((r = torch_ext_call(f, d, last, args, nargs, kw, site, any_tensor)))
		return r;
	if (fn->recv && (r = framework_lib_call(f, d, last, fn->recv, args, nargs, site)))
		return r;
	if (!strcmp(d, "argparse.ArgumentParser")) {
		r = argp_new(in);
		argp_parents(in, r, kw);
		return r;
	}
	if ((r = cap_new(f, d, args, nargs, kw, site)))
		return r;
	if ((r = framework_call(f, d, last, args, nargs, site)))
		return r;
	if ((r = hfargs_call(f, d, fn->recv, args, nargs, kw, site)))
		return r;
	if ((r = tapargs_call(f, d, fn->recv, args, nargs, kw, site)))
		return r;
	if ((r = libloop_call(f, d, fn->recv, args, nargs, kw, site)))
		return r;
	if ((r = call_tyro_cli(f, d, args, nargs, kw, site)))
		return r;
	if ((r = call_import_module(f, d, args, nargs, kw, site)))
		return r;
	if ((r = stdlib_call(f, d, args, nargs, kw, site)))
		return r;
	/* torch.nn classes: modules */
	if (!strncmp(d, "torch.nn.", 9) && strchr(d + 9, '.') == NULL && d[9] >= 'A' && d[9] <= 'Z') {
		if (!strcmp(d, "torch.nn.Parameter")) {
			value_t *p = v_tensor(in->a);
			value_t *data = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "data") : NULL;

			p->shape = data ? shape_of(data) : NULL;
			/* a Parameter is its data's storage: where the data is */
			if (data && data->k == VK_TENSOR)
				p->dev = data->dev;
			p->is_param = 1;
			return p;
		}
		return mk_inst_value(in, new_torch_module(f, d, args, nargs, kw, site));
	}
	/* ops */
	if (!strncmp(d, "torch.", 6))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	if ((r = call_torch_fact(f, d, last, args, nargs, kw, site)))
		return r;
	/* create_model('convnext_tiny') of a name the repository filed with
	 * @register_model: its function (registry.c) */
	if ((r = registry_create(f, d, args, nargs, kw, site)))
		return r;
	/* Registry("META_ARCH"): a registry object (objreg.c) */
	if ((r = objreg_new(f, d, args, nargs, kw, site)))
		return r;
	if ((r = libv_module_factory(f, d, kw, site)))
		return r;
	if ((r = ext_module_new(f, d, last, args, nargs, kw, site)))
		return r;
	if (f->mode == M_FWD && any_tensor) {
		emit_op(f, d, site);
		return v_tensor(in->a);
	}
	if (f->mode != M_FWD && last[0] >= 'A' && last[0] <= 'Z') {
		/* an object of a class outside the repository (a web app, a
		 * tokenizer, a logger): its type is known, nothing else */
		struct vinst *o = new_inst(in);
		value_t *ls = kw ? vdict_gets(kw, "lifespan") : NULL;

		if (ls && ls->k == VK_FUNC && in->nstartup < 16)
			in->startup[in->nstartup++] = ls;

		o->ext = d;
		/* its constructor's keywords (a library object's settings:
		 * framework.c reads accelerate's) */
		o->args = vdict_new(in->a);
		for (i = 0; kw && i < kw->n; i++)
			vdict_set(in->a, o->args, kw->keys[i], kw->vals[i]);
		if (nargs)
			vdict_sets(in->a, o->args, "__ecg_positional__", v_bool(in->a, 1));
		/* wds.WebLoader(dataset, ...): a torch DataLoader */
		(void)outside_loader_init(f, d, o, args, nargs, kw, site);
		/* datasets.ImageFolder(root, transform): its samples are
		 * the transform's (visionds.c) */
		visionds_init(f, d, o, args, nargs, kw);
		/* torchtext's BucketIterator(..., device=device): batches
		 * made on that device */
		(void)devbatch_init(f, d, o, args, nargs, kw);
		/* timm's ModelEma(model): its .ema a copy of the model */
		libv_model_copy(f, d, o, args, nargs, kw);
		return mk_inst_value(in, o);
	}
	r = unknown_at(f, site, afmt(in, OUTSIDE_RESULT_PREFIX "%s, which is outside the repository", d));
	/* librosa's mel(sr=..., n_fft=...): what an outside function makes of
	 * Python numbers alone is no loader's batch (from_values on an
	 * unknown: torch.from_numpy of it is a tensor of values).  Not a
	 * method of an outside object: reader.read(5), env.step(0) return
	 * what the object holds.  So is what pickle.dumps(obj) makes of a
	 * Python object (catalog host_serialisers): its bytes */
	if (f->mode != M_FWD && !fn->recv && strncmp(d, "torch.", 6) &&
	    (numbers_only(args, nargs, kw) || catalog_fact(in->cat, CATALOG_F_HOST_SERIALISERS, d)))
		r->from_values = 1;
	/* random.getstate(), scheduler.state_dict(): host data (catalog
	 * host_state_calls) */
	if (catalog_fact(in->cat, CATALOG_F_HOST_STATE_CALLS, host_state_key(in, d)))
		r->dev = DEV_HOST;
	arr_reader_result(f, d, args, nargs, kw, r);
	return mapds_call(f, d, kw, r);
}

/* TABLE[key](...) in build mode, the key not known, where TABLE (a name
 * or an attribute) is a dict whose values are all module classes
 * (transformers' LLAMA_ATTENTION_CLASSES[config._attn_implementation]):
 * a module is built there, but which one is not decided.  Dropping it
 * would leave its parent's count short; it is an external module whose
 * class is the expression as written, with its submodules and parameter
 * count unknown and the candidates named in the reason (modtree.c reads
 * __ecg_subtree_reason__).  NULL when the call is not of that form. */
static value_t *table_class_call(struct frame *f, value_t *fn, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct ast_Subscript *sub;
	const struct ast_hdr *tab;
	value_t *d;
	struct vinst *m;
	buf_t names;
	size_t i;

	if (f->mode == M_FWD || fn->alts || !site || !AST_IS(site, Call) ||
	    !AST_IS(AST_AS(site, Call)->func, Subscript))
		return NULL;
	sub = AST_AS(AST_AS(site, Call)->func, Subscript);
	tab = sub->value;
	if (!AST_IS(tab, Name) && !(AST_IS(tab, Attribute) && AST_IS(AST_AS(tab, Attribute)->value, Name)))
		return NULL;
	d = eval(f, tab);
	if (d->k != VK_DICT || d->u.dict->n == 0)
		return NULL;
	for (i = 0; i < d->u.dict->n; i++) {
		const value_t *c = d->u.dict->vals[i];

		if (c->k != VK_CLASS || !c->u.cls->is_module)
			return NULL;
	}
	buf_init(&names);
	for (i = 0; i < d->u.dict->n; i++)
		buf_addf(&names, "%s%s", i ? ", " : "", d->u.dict->vals[i]->u.cls->name);
	m = new_inst(in);
	m->ext = text_of(f, &sub->h);
	m->mod = VM_EXTERNAL;
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = text_of(f, site);
	m->cond = f->cond.text;
	m->built_ctx = f->jc;
	m->args = vdict_new(in->a);
	vdict_sets(in->a, m->attrs, "__ecg_subtree_reason__",
	           v_str(in->a, afmt(in, "the class is one of %s, by a key not known here (%s): its submodules and "
	                                 "parameter count are not known", names.buf,
	                             fn->reason ? fn->reason : "not known")));
	buf_free(&names);
	return mk_inst_value(in, m);
}

/* Whether vf is the forward that m's class resolves to (m.forward), as
 * against a base class's forward reached by super().forward or
 * Base.forward(self, ...): 0 only when vf is a "forward" of a class of
 * m's MRO other than the resolved one (1 when m has no repository class,
 * as before). */
static int is_own_forward(const struct vinst *m, const struct vfunc *vf)
{
	value_t *own, *v;
	size_t i;

	if (!m->cls || !(own = class_lookup(m->cls, "forward", NULL)) || own->k != VK_FUNC ||
	    own->u.fn == vf)
		return 1;
	for (i = 0; i < m->cls->nmro; i++)
		if ((v = vdict_gets(m->cls->mro[i]->ns, "forward")) && v->k == VK_FUNC && v->u.fn == vf)
			return 0;
	return 1;
}
/* A host tensor in a, or in the lists, tuples and dicts a holds (as
 * torch's _recursive_to walks them), or NULL. */
const value_t *host_tensor_in(const value_t *a, int depth)
{
	const value_t *t = NULL;
	size_t i;

	if (!a || depth > 8)
		return NULL;
	if (a->k == VK_TENSOR)
		return a->dev == DEV_HOST ? a : NULL;
	if ((a->k == VK_LIST || a->k == VK_TUPLE) && a->u.seq)
		for (i = 0; i < a->u.seq->n && !t; i++)
			t = host_tensor_in(a->u.seq->items[i], depth + 1);
	if (a->k == VK_DICT && a->u.dict)
		for (i = 0; i < a->u.dict->n && !t; i++)
			t = host_tensor_in(a->u.dict->vals[i], depth + 1);
	return t;
}

/* A call of a model through DistributedDataParallel built with device_ids
 * (DDP(model, device_ids=[rank])): its forward moves every input tensor
 * not on device_ids[0] there first (torch.distributed.utils _to_kwargs /
 * _recursive_to: obj.to(target), blocking, on a side stream by default;
 * through lists, tuples and dicts of them too: a multi-crop batch given
 * as a list), so a host tensor given to it is a host-to-device copy at
 * the call.  An input not known to be on the host states nothing. */
static void ddp_input_copies(struct frame *f, const struct vinst *m, value_t **args, size_t nargs,
                             const struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *ids = NULL, *host = NULL;
	struct sched_ev *e;
	size_t i, k;

	if (f->mode == M_FWD)
		return;
	for (k = m->nwrapped; k-- > 0;) {
		const char *w = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, m->wrapped_by[k]);

		if (w && !strcmp(w, "DistributedDataParallel")) {
			ids = m->wrap_kw && m->wrap_kw[k] ? vdict_gets(m->wrap_kw[k], "device_ids") : NULL;
			break;
		}
	}
	if (!ids || (ids->k != VK_LIST && ids->k != VK_TUPLE) || !ids->u.seq->n)
		return;
	for (i = 0; i < nargs + (kw ? kw->n : 0) && !host; i++) {
		host = host_tensor_in(i < nargs ? args[i] : kw->vals[i - nargs], 0);
	}
	if (!host)
		return;
	if ((e = sev(f, SEV_H2D, afmt(in, "%s (DDP moves its host inputs to device_ids[0])", text_of(f, site)), site))) {
		e->pinned = pin_state(host->pinned);
		e->non_blocking = 0;
	}
}


value_t *call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
              struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i, root_ix = (size_t)-1;   /* this call's entry of in->roots, if any */

	hostints_call(fn, args, nargs, kw);   /* a tensor it may write: elements forgotten */
	if (!budget(f))
		return unknown_at(f, site, "the analysis step budget ran out");
	if (f->mode != M_FWD)
		ema_call(f, fn, site);
	if (fn->k == VK_BOUND || fn->k == VK_EXT) {
		value_t *r = hf_call(f, fn, args, nargs, kw, site);   /* transformers' from_pretrained */

		if (r)
			libv_hf_placed(f, r, kw, site);   /* device_map naming a device */
		else
			r = pretrained_call(f, fn, args, nargs, kw, site);   /* diffusers' pipelines */

		if (r)
			return r;
	}
	switch (fn->k) {
	case VK_FUNC:
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub;
			value_t *r;

			if (!e)
				return call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, f->ev, site);
			e->func = fn->u.fn->qualname;
			e->func_anchor = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
			                      func_first_line(fn->u.fn->def));
			sub = ast_arena_alloc(in->a, sizeof *sub);
			{
				size_t idx = (size_t)(e - f->ev->ev);

				r = call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, sub, site);
				e = &f->ev->ev[idx];   /* the event array may have moved */
			}
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		/* main() of a @click.command(): click parses the command line */
		if (fn->u.fn->click_cmd && !nargs && (!kw || !kw->n) && f->mode != M_FWD)
			kw = click_kwargs(f, fn->u.fn, site);
		return call_function(f, fn->u.fn, NULL, args, nargs, kw, f->mode, NULL, site);
	case VK_BOUND: {
		value_t *self = fn->u.bound.self;
		struct vfunc *vf = fn->u.bound.fn->u.fn;

		/* m.forward(x) is m(x); super().forward(x) (a base's forward,
		 * not the one m's class resolves to) is that function, read
		 * inline: calling m again would be m's own forward */
		if (self->k == VK_INST && self->u.inst->mod != VM_NONE && AST_IS(vf->def, FunctionDef) &&
		    !strcmp(AST_AS(vf->def, FunctionDef)->name, "forward") &&
		    is_own_forward(self->u.inst, vf)) {
			value_t *mv = mk_inst_value(in, self->u.inst);

			mv->via_scatter = self->via_scatter;   /* net.forward(x) of a DataParallel: its forward */
			return call(f, mv, args, nargs, kw, site);
		}
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub = ast_arena_alloc(in->a, sizeof *sub);
			size_t idx;
			value_t *r;

			if (!e)
				return call_function(f, vf, self, args, nargs, kw, M_FWD, f->ev, site);
			e->func = vf->qualname;
			e->func_anchor = aanchor(in, vf->file->path, vf->qualname, func_first_line(vf->def));
			idx = (size_t)(e - f->ev->ev);
			r = call_function(f, vf, self, args, nargs, kw, M_FWD, sub, site);
			e = &f->ev->ev[idx];
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		/* step()/zero_grad() of the repository's own optimizer (a
		 * torch.optim.Optimizer subclass, nanochat's MuonAdamW): the
		 * job's optimizer step, as for torch's */
		if (self->k == VK_INST && self->u.inst->cls && AST_IS(vf->def, FunctionDef) &&
		    (!strcmp(AST_AS(vf->def, FunctionDef)->name, "step") ||
		     !strcmp(AST_AS(vf->def, FunctionDef)->name, "zero_grad"))) {
			const char *base = class_ext_base(self->u.inst->cls);

			if (is_optim_ext(base))
				(void)optim_method(f, AST_AS(vf->def, FunctionDef)->name, site);
		}
		return call_function(f, vf, self, args, nargs, kw, f->mode, NULL, site);
	}
	case VK_CLASS: {
		/* building an object is charged to the class's own methods,
		 * not to its caller's MAX_FN_STEPS: a factory that builds the
		 * whole trainer (`self._owner(config=self)`) can still be
		 * followed when the trainer calls it for its optimizer */
		value_t *r;

		ctor_enter(in);
		r = instantiate(f, fn->u.cls, args, nargs, kw, site);
		ctor_leave(in);
		return r;
	}
	case VK_INST: {
		struct vinst *m = fn->u.inst;
		value_t *ls;

		if (m->ext && (ls = loss_scaler_call(f, m->ext, args, nargs, kw, site)))
			return ls;
		/* a transform of an image pipeline (transforms.c) */
		if (m->ext && (ls = transform_inst_call(f, m, args, nargs, kw, site)))
			return ls;
		/* a collections.namedtuple class: a tuple of named items */
		if (nt_is_class(fn) && (ls = nt_call(f, m, args, nargs, kw, site)))
			return ls;
		if (m->mod == VM_NONE && m->ext && !strcmp(m->ext, "functools.partial")) {
			value_t *pf = vdict_gets(m->attrs, "func"), *pa = vdict_gets(m->attrs, "args");
			value_t *pk = vdict_gets(m->attrs, "keywords");
			size_t np = pa ? pa->u.seq->n : 0;
			value_t **all = xmalloc((np + nargs + 1) * sizeof *all);
			struct vdict *mk = vdict_new(in->a);
			value_t *r;

			for (i = 0; i < np; i++)
				all[i] = pa->u.seq->items[i];
			for (i = 0; i < nargs; i++)
				all[np + i] = args[i];
			for (i = 0; pk && i < pk->u.dict->n; i++)
				vdict_set(in->a, mk, pk->u.dict->keys[i], pk->u.dict->vals[i]);
			for (i = 0; kw && i < kw->n; i++)
				vdict_set(in->a, mk, kw->keys[i], kw->vals[i]);
			r = pf ? call(f, pf, all, np + nargs, mk, site) : unknown_at(f, site, "a partial of nothing");
			free(all);
			/* a partial of a callable not known (a norm layer chosen
			 * on a path not decided) made a value not known: it may
			 * be a module, as a direct call of it (eval.c) */
			if (pf && pf->k == VK_UNKNOWN && !pf->alts && r->k == VK_UNKNOWN && !r->plain &&
			    !r->may_module && f->mode != M_FWD) {
				r = v_copy(in->a, r);
				r->may_module = 1;
			}
			return r;
		}
		if (m->mod == VM_NONE && m->ext && !strcmp(m->ext, "torch.no_grad") && nargs == 1 && !kw &&
		    args[0]->k == VK_FUNC) {
			/* torch.no_grad()(fn), torch.inference_mode()(fn): a new
			 * function that runs fn under no_grad (a decorator made
			 * by a repository's factory); fn itself is unchanged */
			value_t *nv = ast_arena_alloc(in->a, sizeof *nv);
			struct vfunc *nf = ast_arena_alloc(in->a, sizeof *nf);

			*nf = *args[0]->u.fn;
			nf->no_grad = 1;
			*nv = *args[0];
			nv->u.fn = nf;
			return nv;
		}
		if (m->mod == VM_NONE) {
			value_t *c = m->cls ? class_lookup(m->cls, "__call__", NULL) : NULL;

			if (c && c->k == VK_FUNC)
				return call_function(f, c->u.fn, fn, args, nargs, kw, f->mode, f->ev, site);
			return unknown_at(f, site, "a call of an object that is not a module");
		}
		if (f->mode == M_FWD && m->mod == VM_CONTAINER && vdict_gets(m->attrs, "__ecg_slice__"))
			return slice_forward(f, m, args, nargs, kw, site);
		if (f->mode == M_FWD)
			return call_module_fwd(f, m, args, nargs, kw, site);
		/* job code calling a model: a root call.  A torch.nn built-in
		 * called from job code is the model when it has parameters and
		 * is not a loss (`model = nn.Linear(20, 1)`; not `criterion`,
		 * not an nn.Softmax); none while a module is being built (object.c
		 * counts its constructors running): a constructor calling a submodule
		 * is not the job running its model */
		if (!in->building && (m->mod != VM_LAYER ||
		    (m->ext && !strstr(m->ext, "Loss") && cg_param_count(in->cat, m) != 0))) {
			struct root_call *rc;

			module_snapshot_training(in, m, 0);
			rc = root_call_new(f, args, nargs, kw, site);
			rc->inst = m;
			{
				const value_t *tr = vdict_gets(m->attrs, "training");

				rc->train_mode = !tr ? 1 : tr->k == VK_BOOL ? tr->u.b : -1;
			}
			root_ix = in->nroots - 1;
			if (site && AST_IS(site, Call)) {
				const struct ast_hdr *fe = AST_AS(site, Call)->func;

				if (AST_IS(fe, Name))
					rc->binding = astr(in, AST_AS(fe, Name)->id);
				else if (AST_IS(fe, Attribute))
					rc->binding = astr(in, AST_AS(fe, Attribute)->attr);
			}
			{
				struct sched_ev *e = sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);

				if (e) {
					e->model = m;
					e->via_wrapper = fn->via_wrapper;
					/* model.train()/.eval() before the call: which
					 * paths of `if self.training:` it runs */
					e->train_mode = rc->train_mode;
				}
				/* the engine's forward: a call of the value initialize
				 * returned, not of the module it wraps (a GAN's
				 * `netD(real)` beside `engineD.backward(...)`) */
				if (m->nwrapped && fn->via_wrapper)
					ds_engine_forward(f, m, site);
				if (m->nwrapped && fn->via_wrapper)
					ddp_input_copies(f, m, args, nargs, kw, site);
				if (m->nwrapped && fn->via_scatter)
					scatter_input_copies(f, m, args, nargs, kw, site);
			}
		}
		{
			int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;
			value_t *r;

			/* a repository module given host data only: its forward is
			 * job code (modelret.c) */
			if (!in->building && (r = host_input_forward(f, m, fn, args, nargs, kw, site))) {
				if (root_ix < in->nroots)
					in->roots[root_ix].host_input = 1;
				return r;
			}
			/* a repository module: what its forward returns (modelret.c) */
			if (!in->building && (r = model_call_result(f, m, args, nargs, kw)))
				return r;
			/* a loss or other layer called from job code: where its input is */
			if (m->mod == VM_LAYER)
				for (i = 0, dev = DEV_UNKNOWN; i < nargs; i++)
					if (is_tensorish(args[i]) && args[i]->dev > dev)
						dev = args[i]->dev;
			r = v_tensor_dev(in->a, dev, 0);
			/* a library's module seen moved to the device (transformers'
			 * ModelOutput): its fields are tensors there; so is one of the
			 * model class the job named (hf.c) moved under a condition
			 * not decided (accelerate's prepare on one process), as a
			 * library's module not read (libvalues.c libv_module_call):
			 * its rows carry that condition */
			r->lib_out = m->mod == VM_EXTERNAL && dev == DEV_DEVICE &&
			             (m->on_device == 1 || (m->on_device && vdict_gets(m->attrs, HF_NAMED_CLASS_ATTR)));
			return r;
		}
	}
	case VK_EXT:
		return call_ext(f, fn, args, nargs, kw, site);
	case VK_BUILTIN:
		return call_builtin(f, fn, args, nargs, kw, site);
	case VK_UNKNOWN: {
		value_t *r;

		if (alts_dev_path(fn) >= 0 && fn->alts[alts_dev_path(fn)]->k == VK_EXT)
			return alts_dev_call(f, fn, args, nargs, kw, site);
		if (fn->alts && !alts_modules(fn) && alts_tensor_path(fn) < 0)
			return alts_call(f, fn, args, nargs, kw, site);
		if ((r = libv_call(f, fn, args, nargs, kw, site)) || (r = lib_model_call(f, fn, args, nargs, kw, site)))
			return r;
		if ((r = arr_call(f, fn, site)))
			return r;
		if ((r = loaded_to_device(f, fn, args, nargs, kw, site)))  /* ckpt["model"].to(device) */
			return r;
		if ((r = unknown_to_host(f, fn, args, nargs, kw, site)))   /* x.to("cpu"), x.cpu() */
			return r;
		if ((r = loaded_leaves_device(f, fn, args, nargs, kw, site)))   /* ckpt["x"].numpy() */
			return r;
		if ((r = table_class_call(f, fn, site)))
			return r;
		break;
	}
	default:
		break;
	}
	if (f->mode == M_FWD)
		for (i = 0; i < nargs; i++)
			if (is_tensorish(args[i]))
				return v_tensor(in->a);
	if (fn->k == VK_UNKNOWN && IS_LOADED_REASON(fn->reason))
		for (i = 0; i < nargs; i++)
			if (is_tensorish(args[i]))
				return loaded_model_call(f, args, nargs, kw, site);
	{
		value_t *r = dtensor_method_call(f, site);

		if (r)
			return r;
	}
	unknown_call_effects(f, site, args, nargs);
	{
		value_t *r = unknown_at(f, site, fn->k == VK_UNKNOWN && fn->reason ? fn->reason : "a call ecg cannot follow");

		/* a method of host data given no tensor: host data (hostdata.c) */
		if (hostdata_args(args, nargs, kw))
			hostdata_keep(fn, r);

		/* m.get(key) or m.get(key, None) of a mapping not known: None
		 * when the key is absent (`is None` of it is not decided) */
		if (site && AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Attribute) &&
		    !strcmp(AST_AS(AST_AS(site, Call)->func, Attribute)->attr, "get") && !kw &&
		    (nargs == 1 || (nargs == 2 && args[1]->k == VK_NONE)) && r->k == VK_UNKNOWN)
			r->may_none = 1;
		return r;
	}
}
