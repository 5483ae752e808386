/* interp/torch.c - torch and other external callables that build or run models
 *
 * call_torch() is a torch.* call that is not a Tensor method: module
 * classes (new_torch_module: an external module instance with its
 * constructor arguments bound by the catalogue), factories, ops with their
 * shapes, collectives and parallel wrappers (schedule events through
 * jobctx.c), devices and syncs.  Also the canonical dotted names of
 * externals (canon_ext, short_ext) and the DataLoader's batches.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

static value_t *call_torch_(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site, int any_tensor);

/* ------------------------------------------------------------------ external names */

/* Canonical dotted name for an external: aliases of torch modules folded. */
const char *canon_ext(struct interp *in, const char *d)
{
	static const struct { const char *from, *to; } folds[] = {
		{ "torch.nn.modules.module.Module", "torch.nn.Module" },
		{ "torch.nn.parallel.distributed.DistributedDataParallel", "torch.nn.parallel.DistributedDataParallel" },
		{ "torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.DistributedDataParallel" },
		{ "torch.functional.F", "torch.nn.functional" },
	};
	size_t i;

	for (i = 0; i < sizeof folds / sizeof folds[0]; i++)
		if (!strcmp(d, folds[i].from))
			return folds[i].to;
	/* torch.nn.modules.<file>.<Class> -> torch.nn.<Class> */
	if (!strncmp(d, "torch.nn.modules.", 17)) {
		const char *last = strrchr(d, '.');

		if (last && last[1] >= 'A' && last[1] <= 'Z')
			return afmt(in, "torch.nn.%s", last + 1);
	}
	return d;
}

/* Call a repo function.  self (may be NULL) is prepended to the args. */
int is_loader(const value_t *v)
{
	return v->k == VK_INST && v->u.inst->ext && strstr(v->u.inst->ext, "DataLoader");
}

/* One batch of DataLoader dl: host tensors, pinned if it pins.  The
 * iteration is recorded as `what` (a data hop), unless what is NULL. */
value_t *loader_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *pm = vdict_gets(dl->attrs, "pin_memory");
	value_t *ds = vdict_gets(dl->attrs, "dataset"), *bs = vdict_gets(dl->attrs, "batch_size");
	value_t *tensors = ds && ds->k == VK_INST ? vdict_gets(ds->u.inst->attrs, "tensors") : NULL;
	int pinned = pm ? value_truth(pm) == 1 : 0;

	if (what)
		sev(f, SEV_LOADER_ITER, what, site);
	if (tensors && tensors->k == VK_TUPLE && !tensors->u.seq->unk_reason && bs) {
		/* a TensorDataset: each batch is a tuple of the tensors' first
		 * batch_size rows (the default collate stacks rows) */
		value_t *r = v_seq(in->a, VK_TUPLE, tensors->u.seq->n);
		size_t i;

		for (i = 0; i < tensors->u.seq->n; i++) {
			const struct vshape *x = shape_of(tensors->u.seq->items[i]);
			value_t *t = v_tensor_dev(in->a, DEV_HOST, pinned);

			if (tensors->u.seq->items[i]->k == VK_TENSOR)
				t->dt = tensors->u.seq->items[i]->dt;
			if (x && x->nd >= 1) {
				struct vshape *b = shape_new(in->a, x->nd);
				long long n;
				const char *sym;

				*b = *x;
				if (bs->k == VK_NONE) {         /* no batching: one row */
					t->shape = shape_index(in->a, x, v_int(in->a, 0));
					vseq_push(in->a, r->u.seq, t);
					continue;
				}
				shape_dim_of(bs, &n, &sym);
				/* the first batch: batch_size rows, or all of them */
				if (n >= 0 && x->n[0] >= 0 && x->n[0] < n)
					n = x->n[0];
				b->n[0] = n;
				b->sym[0] = n >= 0 ? NULL : sym;
				t->shape = b;
			}
			vseq_push(in->a, r->u.seq, t);
		}
		return r;
	}
	return v_tensor_dev(in->a, DEV_HOST, pinned);
}

/* ------------------------------------------------------------------ instances */

/* Make a module instance out of a torch.nn class. */
struct vinst *new_torch_module(struct frame *f, const char *dotted, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = new_inst(in);
	enum cg_kind k = cg_kind_of(in->cat, dotted);
	size_t i;

	m->ext = dotted;
	m->mod = k == CG_CONTAINER ? VM_CONTAINER : k == CG_LAYER ? VM_LAYER : VM_EXTERNAL;
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = site ? text_of(f, site) : NULL;
	m->cond = f->cond.text;
	m->args = vdict_new(in->a);
	if (m->mod == VM_CONTAINER) {
		size_t idx = 0, j;

		if (!strcmp(dotted, "torch.nn.ModuleDict") && nargs > 0 && args[0]->k == VK_DICT) {
			struct vdict *d = args[0]->u.dict;

			for (j = 0; j < d->n; j++)
				if (d->keys[j]->k == VK_STR && d->vals[j]->k == VK_INST)
					vinst_add_child(in->a, m, d->keys[j]->u.str.s, d->vals[j]->u.inst);
		} else if (!strcmp(dotted, "torch.nn.Sequential") && nargs == 1 && args[0]->k == VK_DICT) {
			struct vdict *d = args[0]->u.dict;   /* OrderedDict */

			for (j = 0; j < d->n; j++)
				if (d->keys[j]->k == VK_STR && d->vals[j]->k == VK_INST)
					vinst_add_child(in->a, m, d->keys[j]->u.str.s, d->vals[j]->u.inst);
		} else {
			/* Sequential(*mods) or ModuleList(iterable) */
			int unk = 0;
			const char *unk_expr = NULL, *unk_reason = NULL;

			for (i = 0; i < nargs; i++) {
				value_t *a = args[i];

				if (!strcmp(dotted, "torch.nn.Sequential") && a->k == VK_INST) {
					vinst_add_child(in->a, m, afmt(in, "%zu", idx++), a->u.inst);
				} else if ((a->k == VK_LIST || a->k == VK_TUPLE) && i == 0) {
					if (a->u.seq->len_expr)
						vdict_sets(in->a, m->attrs, "__ecg_len_expr__", v_str(in->a, a->u.seq->len_expr));
					if (a->u.seq->len_src)
						vdict_sets(in->a, m->attrs, "__ecg_len_src__", v_str(in->a, a->u.seq->len_src));
					vdict_sets(in->a, m->attrs, "__ecg_len_via__", v_int(in->a, a->u.seq->len_via));
					for (j = 0; j < a->u.seq->n; j++)
						if (a->u.seq->items[j]->k == VK_INST)
							vinst_add_child(in->a, m, afmt(in, "%zu", idx++),
							                a->u.seq->items[j]->u.inst);
					if (a->u.seq->unk_reason) {
						unk = 1;
						unk_expr = a->u.seq->unk_expr;
						unk_reason = a->u.seq->unk_reason;
					}
				} else if (a->k == VK_UNKNOWN && f->unk_star && i + 1 == nargs) {
					/* Sequential(*layers), layers of a length not
					 * known (appended to in a loop whose trip count
					 * is not known): the items seen stand for all */
					unk = 1;
					unk_expr = a->expr ? a->expr : f->unk_star;
					unk_reason = a->reason;
				} else if (a->k == VK_UNKNOWN && nargs > 1 && !strcmp(dotted, "torch.nn.Sequential")) {
					/* Sequential(conv, <unknown>, ...): one element not
					 * known; it keeps its index, the others are not
					 * grouped with it */
					note(in, m->constructed_at,
					     afmt(in, "element %zu of %s", idx, m->ctor_expr ? m->ctor_expr : dotted),
					     a->reason ? a->reason : "the module is not known");
					idx++;
				} else if (a->k == VK_UNKNOWN) {
					unk = 1;
					unk_expr = a->expr;
					unk_reason = a->reason;
				}
			}
			if (unk) {
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, unk_expr, unk_reason ? unk_reason : "its length is not known"));
			}
		}
		return m;
	}
	/* bind arguments to parameter names */
	for (i = 0; i < nargs; i++) {
		const char *pn = cg_param_at(in->cat, dotted, i);

		vdict_sets(in->a, m->args, pn ? pn : afmt(in, "arg%zu", i), args[i]);
	}
	if (kw)
		for (i = 0; i < kw->n; i++)
			if (kw->keys[i]->k == VK_STR)
				vdict_set(in->a, m->args, kw->keys[i], kw->vals[i]);
	return m;
}

/* Wrappers that return the model they wrap (for finding the model). */
int is_wrapper(const char *d)
{
	static const char *const w[] = {
		"torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel",
		"torch.nn.parallel.DataParallel",
		"torch.distributed.fsdp.FullyShardedDataParallel",
		"torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
		"torch.compile", "torch.compile.__wrap__", "torch.jit.script", "torch.jit.trace",
		"torch.distributed.fsdp.fully_shard", "torch.distributed._composable.fsdp.fully_shard",
		"torch.nn.SyncBatchNorm.convert_sync_batchnorm", "deepspeed.initialize",
		"accelerate.Accelerator.prepare", "torch.ao.quantization.quantize_dynamic",
		"torch.quantization.quantize_dynamic", "torch.nn.utils.parametrizations.weight_norm",
	};
	size_t i;

	for (i = 0; i < sizeof w / sizeof w[0]; i++)
		if (!strcmp(d, w[i]))
			return 1;
	/* DDP/FSDP imported under their short names */
	if (strstr(d, "DistributedDataParallel") || strstr(d, "FullyShardedDataParallel"))
		return 1;
	return 0;
}

/* A class of a third-party library that is an nn.Module: the libraries
 * whose classes are modules, less their config and tokenizer classes. */
int ext_is_module_class(const char *d)
{
	static const char *const pkgs[] = {
		"torchvision.ops.", "torchvision.models.", "timm.", "einops.layers.", "torch_geometric.nn.",
		"flash_attn.", "apex.normalization.", "apex.", "transformer_engine.", "xformers.", "mamba_ssm.",
		"torchaudio.models.", "transformers.", "diffusers.models.", "open_clip.", "peft.",
		"torchvision.transforms.v2.", "fairscale.nn.", NULL
	};
	static const char *const not_modules[] = { "Config", "Tokenizer", "TokenizerFast", "Processor", "Output",
	                                           "Scheduler", "Pipeline", "Args", "Arguments", NULL };
	const char *last = strrchr(d, '.');
	size_t i, n;

	if (!last || !(last[1] >= 'A' && last[1] <= 'Z'))
		return 0;
	/* transformer_engine.pytorch.optimizers.FusedAdam, apex.optimizers.*:
	 * optimizers, not modules */
	if (strstr(d, ".optimizers.") || strstr(d, ".optim."))
		return 0;
	last++;
	n = strlen(last);
	for (i = 0; not_modules[i]; i++) {
		size_t k = strlen(not_modules[i]);

		if (n >= k && !strcmp(last + n - k, not_modules[i]))
			return 0;
	}
	for (i = 0; pkgs[i]; i++)
		if (!strncmp(d, pkgs[i], strlen(pkgs[i])))
			return 1;
	return 0;
}

const char *short_ext(const char *d)
{
	const char *dot = strrchr(d, '.');

	return dot ? dot + 1 : d;
}

/* The collective a torch.distributed function is, or NULL. */
static const char *collective_of(const char *d)
{
	static const char *const names[] = {
		"all_reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter",
		"reduce_scatter_tensor", "broadcast", "all_to_all", "all_to_all_single", "reduce",
		"gather", "scatter", "send", "recv", "isend", "irecv", "barrier", "all_reduce_coalesced",
		"all_gather_coalesced", "all_gather_object", "broadcast_object_list", "gather_object",
		"scatter_object_list", "batch_isend_irecv", "monitored_barrier",
		/* torch.distributed._functional_collectives */
		"all_gather_tensor", "all_gather_tensor_autograd", "reduce_scatter_tensor_autograd",
		"all_to_all_single_autograd", "permute_tensor", NULL
	};
	const char *last = short_ext(d);
	size_t i;

	if (strncmp(d, "torch.distributed.", 18))
		return NULL;
	for (i = 0; names[i]; i++)
		if (!strcmp(last, names[i]))
			return names[i];
	return NULL;
}

/* Which parallelism a collective serves, from its group's name. */
static const char *parallelism_of(struct frame *f, const char *op, const struct ast_hdr *site,
                                  const value_t *group)
{
	/* the call's words, the group's own expression, then where the call
	 * is written (tensor_parallel.py, _ReduceFromTP.forward) */
	const char *t = afmt(f->in, "%s %s", site ? text_of(f, site) : "", group && group->expr ? group->expr : "");
	const char *w = afmt(f->in, "%s %s", f->file->path, f->qualname ? f->qualname : "");
	char low[1024], where[1024];
	size_t i;

	for (i = 0; t[i] && i < sizeof low - 1; i++)
		low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	low[i] = 0;
	for (i = 0; w[i] && i < sizeof where - 1; i++)
		where[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] + 32 : w[i]);
	where[i] = 0;

	if (strstr(low, "tp_group") || strstr(low, "tensor_parallel") || strstr(low, "tp_pg") || strstr(low, "model_parallel"))
		return "tensor";
	if (strstr(low, "pp_group") || strstr(low, "pipeline") || strstr(low, "pp_pg"))
		return "pipeline";
	if (strstr(low, "ep_group") || strstr(low, "expert") || strstr(low, "moe"))
		return "expert";
	if (strstr(low, "cp_group") || strstr(low, "context_parallel"))
		return "context";
	if (strstr(low, "sp_group") || strstr(low, "sequence_parallel"))
		return "sequence";
	/* the group's name did not say; a tensor-parallel helper says so by
	 * its own name (_ReduceFromTP, tensor_parallel.py) */
	if (strstr(where, "totp") || strstr(where, "fromtp") || strstr(where, "tensor_parallel") ||
	    strstr(where, "columnparallel") || strstr(where, "rowparallel"))
		return "tensor";
	if (op && (!strcmp(op, "all_to_all") || !strcmp(op, "all_to_all_single")) && f->mode == M_FWD)
		return "expert";
	if (op && (!strcmp(op, "send") || !strcmp(op, "recv") || !strcmp(op, "isend") || !strcmp(op, "irecv")))
		return "pipeline";
	return "data";
}

/* torch.*: ops in forward; in job code, the objects, copies, syncs and
 * collectives the schedule needs. */

value_t *call_torch(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                    struct vdict *kw, const struct ast_hdr *site, int any_tensor)
{
	struct interp *in = f->in;

	if (f->mode == M_FWD && nargs >= 1 && args[0]->k == VK_TENSOR &&
	    (!strcmp(last, "chunk") || !strcmp(last, "split") || !strcmp(last, "unbind") ||
	     !strcmp(last, "tensor_split")) && !strncmp(d, "torch.", 6) && !strchr(d + 6, '.')) {
		const struct vshape *pieces[64];
		size_t n = shape_pieces(in->a, d, args, nargs, kw, pieces, 64), i;

		if (n) {
			value_t *r = v_seq(in->a, VK_TUPLE, n);
			size_t mark = ev_mark(f);

			emit_op(f, d, site);
			for (i = 0; i < n; i++) {
				value_t *t = v_tensor_dev(in->a, args[0]->dev, 0);

				t->shape = pieces[i];
				vseq_push(in->a, r->u.seq, t);
			}
			op_io(f, mark, args, nargs, kw, r);
			return r;
		}
	}
	if (!strcmp(d, "torch.meshgrid") && nargs >= 1) {
		/* meshgrid(a, b, ...) of 1-D tensors: one tensor per input, each
		 * of the shape [len(a), len(b), ...] ("xy" swaps the first two) */
		value_t *const *xs = args;
		size_t n = nargs, i;
		value_t *ix = kw ? vdict_gets(kw, "indexing") : NULL;
		struct vshape *s;
		value_t *r;

		if (nargs == 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && !args[0]->u.seq->unk_reason) {
			xs = args[0]->u.seq->items;
			n = args[0]->u.seq->n;
		}
		s = n <= VSHAPE_MAX ? shape_new(in->a, (unsigned)n) : NULL;
		for (i = 0; s && i < n; i++) {
			const struct vshape *x = shape_of(xs[i]);

			if (!x || x->nd != 1) {
				s = NULL;
				break;
			}
			s->n[i] = x->n[0];
			s->sym[i] = x->sym[0];
		}
		if (s && n >= 2 && ix && ix->k == VK_STR && !strcmp(ix->u.str.s, "xy")) {
			long long t = s->n[0];
			const char *ts = s->sym[0];

			s->n[0] = s->n[1];
			s->sym[0] = s->sym[1];
			s->n[1] = t;
			s->sym[1] = ts;
		}
		if (f->mode == M_FWD)
			emit_op(f, d, site);
		r = v_seq(in->a, VK_TUPLE, n);
		for (i = 0; i < n; i++) {
			value_t *t = v_tensor_dev(in->a, is_tensorish(xs[i]) ? xs[i]->dev : DEV_UNKNOWN, 0);

			t->shape = s;
			vseq_push(in->a, r->u.seq, t);
		}
		return r;
	}
	{
		size_t mark = ev_mark(f);
		value_t *r = call_torch_(f, d, last, args, nargs, kw, site, any_tensor);

		if (!f->unk_star)    /* *args not known: they do not say the shape */
			r = with_shape(in, r, d, args, nargs, kw);

		op_io(f, mark, args, nargs, kw, r);
		return r;
	}
}

/* v holds nothing on a device: known scalars and strings, tensors known
 * to be on the host, and containers of those (an unknown value, a module
 * or an object might hold device tensors). */
static int host_only(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > 8)
		return 0;
	switch (v->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
		return 1;
	case VK_TENSOR:
		return v->dev == DEV_HOST;
	case VK_TUPLE: case VK_LIST:
		if (v->u.seq->unk_reason)
			return 0;
		for (i = 0; i < v->u.seq->n; i++)
			if (!host_only(v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	case VK_DICT:
		/* (an empty dict may be a comprehension over items not known) */
		if (!v->u.dict->n)
			return 0;
		for (i = 0; i < v->u.dict->n; i++)
			if (!host_only(v->u.dict->vals[i], depth + 1))
				return 0;
		return 1;
	default:
		return 0;
	}
}

static value_t *call_torch_(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site, int any_tensor)
{
	struct interp *in = f->in;
	const char *coll = collective_of(d);
	struct sched_ev *e;
	size_t i;
	int dev = DEV_UNKNOWN;

	/* a torch class built (no_grad(), device(...), Size(...)) is not an
	 * op: torch's function hooks never see it */
	if (f->mode == M_FWD &&
	    !(!strchr(d + 6, '.') && (catalog_torch_name(in->cat, d + 6) & CATALOG_N_CLASS)))
		emit_op(f, d, site);
	if (coll) {
		e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site);
		if (e) {
			value_t *a = kw ? vdict_gets(kw, "async_op") : NULL;

			e->op = coll;
			e->async_op = !strncmp(coll, "i", 1) && strcmp(coll, "init_process_group") ? 1
			              : a ? value_truth(a) : 0;
			e->parallelism = parallelism_of(f, coll, site, kw ? vdict_gets(kw, "group") : NULL);
		}
		return !strcmp(coll, "barrier") ? v_none(in->a) : unknown_at(f, site, "a collective's work handle");
	}
	if (!strcmp(d, "torch.cuda.synchronize") || !strcmp(d, "torch.cuda.current_stream.synchronize")) {
		sev(f, SEV_SYNC, "torch.cuda.synchronize()", site);
		return v_none(in->a);
	}
	/* CUDA streams and events: synchronize() blocks the host; record(),
	 * query(), wait_stream(), wait_event() do not */
	if ((strstr(d, "Stream.") || strstr(d, "Event.")) && !strncmp(d, "torch.cuda.", 11)) {
		if (!strcmp(last, "synchronize")) {
			const struct ast_hdr *fx = AST_IS(site, Call) ? AST_AS(site, Call)->func : NULL;

			sev(f, SEV_SYNC, fx ? afmt(in, "%s()", text_of(f, fx)) : afmt(in, "%s()", d), site);
			return v_none(in->a);
		}
		if (!strcmp(last, "query"))
			return unknown_at(f, site, "whether the event has completed (cudaEventQuery: no wait)");
		if (!strcmp(last, "elapsed_time"))
			return unknown_at(f, site, "a time measured at run time");
		return v_none(in->a);
	}
	if (!strcmp(d, "torch.cuda.stream") && nargs >= 1) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.cuda.stream";
		vdict_sets(in->a, c->attrs, "text", v_str(in->a, AST_IS(site, Call) && AST_AS(site, Call)->args.n
		                                                  ? text_of(f, AST_AS(site, Call)->args.items[0]) : "a stream"));
		return mk_inst_value(in, c);
	}
	if (!strcmp(d, "torch.save")) {
		sev(f, SEV_SAVE, "torch.save", site);
		/* what is saved copies device tensors to the host, unless every
		 * tensor in it is known to be on the host already */
		if (in->gpu && f->mode != M_FWD && !(nargs >= 1 && host_only(args[0], 0)))
			sev(f, SEV_SYNC, "torch.save (copies device tensors to the host)", site);
		return v_none(in->a);
	}
	if (!strcmp(d, "torch.compile") && nargs >= 1) {
		value_t *mode = kw ? vdict_gets(kw, "mode") : NULL;

		e = sev(f, SEV_COMPILE, "torch.compile", site);
		if (e) {
			e->target = AST_IS(site, Call) && AST_AS(site, Call)->args.n ? text_of(f, AST_AS(site, Call)->args.items[0]) : NULL;
			e->op = mode && mode->k == VK_STR ? mode->u.str.s : NULL;
			e->model = args[0]->k == VK_INST ? args[0]->u.inst : NULL;
		}
		if (args[0]->k == VK_INST)
			return call_ext(f, v_ext(in->a, "torch.compile.__wrap__"), args, nargs, kw, site);
		return args[0];      /* a compiled function is the function */
	}
	if (!strcmp(d, "torch.utils.checkpoint.checkpoint") || !strcmp(d, "torch.utils.checkpoint.checkpoint_sequential") ||
	    !strcmp(last, "checkpoint_wrapper") || !strcmp(last, "apply_activation_checkpointing")) {
		e = sev(f, SEV_CHECKPOINT_ACT, d, site);
		if (e && AST_IS(site, Call) && AST_AS(site, Call)->args.n)
			e->target = text_of(f, AST_AS(site, Call)->args.items[0]);
		if (e && AST_IS(site, Call)) {
			/* the policy: use_reentrant, context_fn (selective
			 * checkpointing), check_fn (which blocks), ... as written */
			const struct ast_Call *c = AST_AS(site, Call);
			buf_t b;
			size_t k;

			buf_init(&b);
			for (k = 0; k < c->keywords.n; k++) {
				const struct ast_keyword *kwd = AST_AS(c->keywords.items[k], keyword);

				if (!kwd->arg)
					continue;
				buf_addf(&b, "%s%s=%s", b.len ? ", " : "", kwd->arg, text_of(f, kwd->value));
			}
			if (b.len)
				e->detail_text = afmt(in, "%s", b.buf);
			buf_free(&b);
		}
		if (!strcmp(last, "checkpoint_wrapper") || !strcmp(last, "apply_activation_checkpointing"))
			return nargs >= 1 ? args[0] : v_none(in->a);   /* the module, wrapped: the same tree */
		/* the checkpointed function runs in this forward */
		if (nargs >= 1 && strstr(d, "sequential") == NULL)
			return call(f, args[0], args + 1, nargs - 1, NULL, site);
		return v_tensor_dev(in->a, f->mode == M_FWD && in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
	}
	if (!strcmp(last, "no_grad") || !strcmp(last, "inference_mode")) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.no_grad";
		vdict_sets(in->a, c->attrs, "anchor", v_str(in->a, anchor_at(f, site)));
		return mk_inst_value(in, c);
	}
	if (!strcmp(last, "autocast")) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.autocast";
		vdict_sets(in->a, c->attrs, "text", v_str(in->a, text_of(f, site)));
		return mk_inst_value(in, c);
	}
	if (!strcmp(d, "torch.device")) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.device";
		if (nargs >= 1)
			vdict_sets(in->a, c->attrs, "type", args[0]);
		return mk_inst_value(in, c);
	}
	/* with the environment known (extract --env / --no-env), no process
	 * group exists before the job's code starts one; a job that has not
	 * (on any path read so far) runs as one process */
	if (!strcmp(d, "torch.distributed.is_initialized") && in->environ && !in->dist_init)
		return v_bool(in->a, 0);
	if ((!strncmp(d, "torch.cuda.", 11) || !strncmp(d, "torch.distributed.", 18) || !strncmp(d, "torch.backends.", 15)) &&
	    last[0] >= 'a' && last[0] <= 'z')
		return unknown_at(f, site, "a value the runtime reports (a number, not a tensor)");
	if (!strcmp(last, "enable_grad") || !strcmp(last, "dtype") || !strcmp(last, "is_available") ||
	    !strcmp(last, "device_count") || !strcmp(last, "current_device") || !strcmp(last, "get_rank") ||
	    !strcmp(last, "get_world_size") || !strcmp(last, "is_initialized") || !strcmp(last, "manual_seed"))
		return unknown_at(f, site, "a property of the machine the job runs on");
	if (f->mode != M_FWD && last[0] >= 'A' && last[0] <= 'Z' && strcmp(last, "Tensor") &&
	    strncmp(d, "torch.nn.", 9)) {
		/* torch.optim.AdamW, torch.cuda.amp.GradScaler, DataLoader ... */
		struct vinst *o = new_inst(in);

		o->ext = d;
		if (!strncmp(d, "torch.optim.", 12) && strstr(d, "lr_scheduler"))
			o->ext = afmt(in, "scheduler:%s", d);
		if (!strcmp(last, "GradScaler")) {
			/* enabled=: by keyword (its place differs between
			 * torch.cuda.amp's and torch.amp's); not known when
			 * the arguments reach it by position */
			value_t *en = kw ? vdict_gets(kw, "enabled") : NULL;

			if (en || nargs < 5)
				vdict_sets(in->a, o->attrs, "enabled", en ? en : v_bool(in->a, 1));
		}
		if (!strcmp(last, "DataLoader")) {
			e = sev(f, SEV_LOADER, "DataLoader", site);
			if (e) {
				e->detail = vdict_new(in->a);
				if (kw)
					for (i = 0; i < kw->n; i++)
						vdict_set(in->a, e->detail, kw->keys[i], kw->vals[i]);
				if (nargs >= 1)
					vdict_sets(in->a, e->detail, "dataset", args[0]);
				if (nargs >= 2 && !vdict_gets(e->detail, "batch_size"))
					vdict_sets(in->a, e->detail, "batch_size", args[1]);
			}
			vdict_sets(in->a, o->attrs, "pin_memory", v_bool(in->a, kw_bool(kw, "pin_memory")));
			vdict_sets(in->a, o->attrs, "__anchor__", v_str(in->a, anchor_at(f, site)));
			{
				value_t *ds = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "dataset") : NULL;
				value_t *bs = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "batch_size") : NULL;

				if (ds)
					vdict_sets(in->a, o->attrs, "dataset", ds);
				/* batch_size defaults to 1; a batch_sampler decides it
				 * otherwise */
				if (!bs && !(kw && vdict_gets(kw, "batch_sampler")))
					bs = v_int(in->a, 1);
				if (bs)
					vdict_sets(in->a, o->attrs, "batch_size", bs);
			}
		}
		if (!strcmp(last, "TensorDataset")) {
			value_t *t = v_seq(in->a, VK_TUPLE, nargs);

			for (i = 0; i < nargs; i++)
				vseq_push(in->a, t->u.seq, args[i]);
			vdict_sets(in->a, o->attrs, "tensors", t);
		}
		return mk_inst_value(in, o);
	}
	/* where a new tensor lives */
	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_TENSOR && args[i]->dev > dev)
			dev = args[i]->dev;
	if (kw && vdict_gets(kw, "device")) {
		int host = dev_is_host(vdict_gets(kw, "device"));

		dev = host == 1 ? DEV_HOST : DEV_DEVICE;
		if (dev == DEV_DEVICE)
			in->gpu = 1;
		/* torch.tensor(python data, device=cuda): the data is copied over */
		if (dev == DEV_DEVICE && f->mode != M_FWD &&
		    (!strcmp(last, "tensor") || !strcmp(last, "as_tensor") || !strcmp(last, "from_numpy"))) {
			struct sched_ev *ce = sev(f, SEV_H2D, afmt(in, "torch.%s(..., device=...)", last), site);

			if (ce) {
				ce->pinned = 0;
				ce->non_blocking = 0;
			}
		}
	} else if (!any_tensor) {
		static const char *const factories[] = {
			"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "rand", "randn",
			"randint", "randperm", "tensor", "as_tensor", "from_numpy", "eye", "zeros_like", "ones_like",
			"empty_like", "full_like", "rand_like", "randn_like", "Tensor", "LongTensor", "FloatTensor", NULL
		};
		size_t k;
		int factory = 0;

		for (k = 0; factories[k]; k++)
			if (!strcmp(last, factories[k]))
				factory = 1;
		if (factory)
			dev = f->mode == M_FWD ? DEV_UNKNOWN : DEV_HOST;     /* a factory: on the host */
		else
			dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;             /* clip_grad_norm_ & co */
	}
	if ((!strcmp(d, "torch.nonzero") || (!strcmp(d, "torch.where") && nargs == 1)) && dev == DEV_DEVICE)
		sev(f, SEV_SYNC, afmt(in, "%s (its output size depends on the data)", d), site);
	return v_tensor_dev(in->a, dev, 0);
}

/* optimizer.step / optimizer.zero_grad of a torch.optim instance: in job
 * mode the schedule event (and the first step's anchor as evidence); the
 * value is step (which calls a closure) or a no-op.  NULL for another
 * name. */
value_t *optim_method(struct frame *f, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (strcmp(name, "step") && strcmp(name, "zero_grad"))
		return NULL;
	if (f->mode != M_FWD) {
		if (!strcmp(name, "step") && !in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, !strcmp(name, "step") ? SEV_OPT_STEP : SEV_ZERO_GRAD,
		    !strcmp(name, "step") ? "optimizer.step()" : "optimizer.zero_grad()", site);
	}
	return mk_builtin(in, !strcmp(name, "step") ? BI_OPT_STEP : BI_NOOP, NULL);
}

/* torch's wrappers of a model, from call_ext(): GradScaler.scale(loss)
 * is loss; torch.compile(...) is call_torch's; DDP, FSDP, fully_shard,
 * deepspeed, torch.compile(model), jit, quantization ... hand back the
 * model marked as wrapped (and, for the parallel ones, a schedule event).
 * NULL when d is none of them. */
value_t *torch_ext_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site, int any_tensor)
{
	struct interp *in = f->in;

	if (strstr(d, "GradScaler.") && !strcmp(last, "scale") && nargs == 1)
		return args[0];
	if (!strcmp(d, "torch.compile"))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	if (is_wrapper(d) && nargs >= 1 && args[0]->k == VK_INST) {
		value_t *w = v_copy(in->a, args[0]);
		struct vinst *m = args[0]->u.inst;
		const char **nw = ast_arena_alloc(in->a, (m->nwrapped + 1) * sizeof *nw);

		if (!strcmp(d, "torch.compile.__wrap__"))
			d = "torch.compile";
		if (strstr(d, "DistributedDataParallel") || strstr(d, "FullyShardedDataParallel") ||
		    strstr(d, "fully_shard") || strstr(d, "deepspeed")) {
			struct sched_ev *e = sev(f, SEV_WRAP, d, site);

			if (e) {
				e->model = m;
				e->target = AST_IS(site, Call) && AST_AS(site, Call)->args.n
				            ? text_of(f, AST_AS(site, Call)->args.items[0]) : NULL;
				e->implied_by = strstr(d, "DistributedDataParallel") ? "DistributedDataParallel"
				                : strstr(d, "deepspeed") ? "deepspeed.initialize"
				                : strstr(d, "fully_shard") ? "fully_shard" : "FullyShardedDataParallel";
			}
		}

		if (m->nwrapped)
			memcpy(nw, m->wrapped_by, m->nwrapped * sizeof *nw);
		nw[m->nwrapped] = d;
		m->wrapped_by = nw;
		m->nwrapped++;
		return w;
	}
	return NULL;
}

/* The class a torchvision.models factory builds (resnet18 -> ResNet), by
 * the factory's name; NULL when the name is not one of these families.
 * Longest prefixes first. */
static const char *tv_factory_class(const char *factory)
{
	static const struct { const char *prefix, *cls; } fam[] = {
		{ "wide_resnet", "ResNet" }, { "resnext", "ResNet" }, { "resnet", "ResNet" },
		{ "vgg", "VGG" }, { "densenet", "DenseNet" }, { "alexnet", "AlexNet" },
		{ "mobilenet_v2", "MobileNetV2" }, { "mobilenet_v3", "MobileNetV3" },
		{ "efficientnet_", "EfficientNet" }, { "vit_", "VisionTransformer" },
		{ "convnext_", "ConvNeXt" }, { "regnet_", "RegNet" }, { "squeezenet", "SqueezeNet" },
		{ "shufflenet_v2", "ShuffleNetV2" }, { "googlenet", "GoogLeNet" },
		{ "inception_v3", "Inception3" }, { "mnasnet", "MNASNet" }, { "swin_", "SwinTransformer" },
		{ "maxvit", "MaxVit" },
	};
	size_t i;

	for (i = 0; i < sizeof fam / sizeof fam[0]; i++)
		if (!strncmp(factory, fam[i].prefix, strlen(fam[i].prefix)))
			return fam[i].cls;
	return NULL;
}

/* A module of a third-party library (an external module instance with its
 * constructor arguments) or, in job mode, a third-party model class
 * (torchvision.models.resnet50(), timm.*, transformers.*).  NULL when d
 * is neither. */
value_t *ext_module_new(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	/* a module class of a third-party library: an external module */
	if (ext_is_module_class(d)) {
		struct vinst *m = new_inst(in);
		size_t k;

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->cond = f->cond.text;
		m->args = vdict_new(in->a);
		for (k = 0; k < nargs; k++)
			vdict_sets(in->a, m->args, afmt(in, "arg%zu", k), args[k]);
		if (kw)
			for (k = 0; k < kw->n; k++)
				if (kw->keys[k]->k == VK_STR)
					vdict_set(in->a, m->args, kw->keys[k], kw->vals[k]);
		return mk_inst_value(in, m);
	}
	/* a third-party model class, e.g. torchvision.models.resnet50() */
	if (f->mode != M_FWD && (strstr(d, ".models.") || !strncmp(d, "timm.", 5) ||
	                         !strncmp(d, "transformers.", 13)) &&
	    (last[0] >= 'a' && last[0] <= 'z' ? strstr(d, ".models.") != NULL : 1) &&
	    strcmp(last, "create_model") && strcmp(last, "from_pretrained")) {
		struct vinst *m = new_inst(in);
		const char *cls = NULL;

		m->ext = d;
		/* a factory of torchvision.models (resnet18): the class it
		 * builds when its name says it, the factory kept in any case */
		if (!strncmp(d, "torchvision.models.", 19) && !strchr(d + 19, '.') && last[0] >= 'a' && last[0] <= 'z') {
			vdict_sets(in->a, m->attrs, "__ecg_factory__", v_str(in->a, d));
			if ((cls = tv_factory_class(last)))
				m->ext = afmt(in, "torchvision.models.%s", cls);
		}
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->args = vdict_new(in->a);
		return mk_inst_value(in, m);
	}
	return NULL;
}
