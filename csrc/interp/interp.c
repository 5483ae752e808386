/* interp/interp.c - the public side of include/ecg/interp.h, and the part
 * of the evaluator not yet moved to its own file of csrc/interp/ */
#include "config.h"

#include "internal.h"

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site);
static value_t *call_tensor_method_(struct frame *f, value_t *fn, const char *m, value_t **args,
                                    size_t nargs, struct vdict *kw, const struct ast_hdr *site);
static value_t *call_torch_(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site, int any_tensor);
static value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);
static value_t *iter_items(struct frame *f, value_t *it, struct vseq **out);
static value_t *call_builtin(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                             struct vdict *kw, const struct ast_hdr *site);
static value_t *bound(struct interp *in, value_t *fnv, value_t *self);
static value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
static void format_hook(struct frame *f, value_t *v, int how, const struct ast_hdr *site);
static void assign(struct frame *f, const struct ast_hdr *t, value_t *v);
static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range);
static value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                             struct vdict *kwargs);

/* "EMA" as a word of a name: ModelEma, ema_model, update_ema, EMA --
 * not "schema" or "emails" (a lowercase "ema" inside a word). */
static int has_ema(const char *s)
{
	const char *p;

	for (p = s; p && *p; p++) {
		int starts, ends;

		/* p[0..2] are "ema" in any case before p[3] is read (it is at
		 * most the terminating NUL then); a NUL stops the && chain */
		if ((p[0] | 0x20) != 'e' || (p[1] | 0x20) != 'm' || (p[2] | 0x20) != 'a')
			continue;
		starts = p == s || !(p[-1] >= 'a' && p[-1] <= 'z') || p[0] == 'E';
		ends = !(p[3] >= 'a' && p[3] <= 'z') || p[2] == 'A';
		if (starts && ends)
			return 1;
	}
	return 0;
}

/* An exponential moving average of the weights updated from job code:
 * ema.update(model) on an object whose class says EMA (ModelEma,
 * timm's ModelEmaV3), or a function named for it (update_ema). */
static void ema_call(struct frame *f, const value_t *fn, const struct ast_hdr *site)
{
	const char *what = NULL;

	if (fn->k == VK_BOUND && fn->u.bound.fn->k == VK_FUNC && fn->u.bound.self && fn->u.bound.self->k == VK_INST) {
		const struct vinst *m = fn->u.bound.self->u.inst;
		const char *cls = m->cls ? m->cls->name : m->ext;
		const char *meth = fn->u.bound.fn->u.fn->qualname;
		const char *dot = meth ? strrchr(meth, '.') : NULL;

		if (cls && has_ema(cls) && dot && (!strcmp(dot + 1, "update") || !strcmp(dot + 1, "step")))
			what = meth;
	} else if (fn->k == VK_FUNC && fn->u.fn->qualname && has_ema(fn->u.fn->qualname) &&
	           strstr(fn->u.fn->qualname, "update")) {
		what = fn->u.fn->qualname;
	} else if (fn->k == VK_EXT && has_ema(fn->u.ext) && (strstr(fn->u.ext, ".update") || strstr(fn->u.ext, ".step"))) {
		what = fn->u.ext;
	}
	if (what)
		sev(f, SEV_EMA, what, site);
}

struct sched_ev *sev(struct frame *f, enum sev_kind kind, const char *call, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e;

	if (in->nsev >= 100000)
		return NULL;
	xgrow((void **)&in->sev, &in->asev, in->nsev + 1, sizeof *in->sev);
	e = &in->sev[in->nsev++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->call = call;
	e->anchor = anchor_at(f, site);
	e->ctx = f->jc;
	e->in_forward = f->mode == M_FWD;
	e->in_backward = f->in_backward;
	e->non_blocking = -1;
	e->pinned = -1;
	e->async_op = -1;
	return e;
}

const struct jctx *jc_push(struct frame *f, enum jctx_kind kind, const char *anchor, const char *text)
{
	struct jctx *j = ast_arena_alloc(f->in->a, sizeof *j);

	j->kind = kind;
	j->anchor = anchor;
	j->text = text;
	j->period = -1;
	j->trips = -1;
	j->up = f->jc;
	return j;
}

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
static int is_loader(const value_t *v)
{
	return v->k == VK_INST && v->u.inst->ext && strstr(v->u.inst->ext, "DataLoader");
}

/* One batch of DataLoader dl: host tensors, pinned if it pins.  The
 * iteration is recorded as `what` (a data hop), unless what is NULL. */
static value_t *loader_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site)
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
static struct vinst *new_torch_module(struct frame *f, const char *dotted, value_t **args, size_t nargs,
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
	m->cond = f->cond;
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
static int is_wrapper(const char *d)
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
static int ext_is_module_class(const char *d)
{
	static const char *const pkgs[] = {
		"torchvision.ops.", "torchvision.models.", "timm.", "einops.layers.", "torch_geometric.nn.",
		"flash_attn.", "apex.normalization.", "apex.", "transformer_engine.", "xformers.", "mamba_ssm.",
		"torchaudio.models.", "transformers.", "diffusers.models.", "open_clip.", "peft.",
		"torchvision.transforms.v2.", NULL
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

static const char *short_ext(const char *d)
{
	const char *dot = strrchr(d, '.');

	return dot ? dot + 1 : d;
}

/* Do two argument lists hold tensors of the same known shapes? */
static int same_shapes(value_t **a, size_t na, value_t **b, size_t nb)
{
	size_t i;
	unsigned k;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		const struct vshape *x = shape_of(a[i]), *y = shape_of(b[i]);

		if ((a[i]->k == VK_TENSOR) != (b[i]->k == VK_TENSOR))
			return 0;
		if (a[i]->k != VK_TENSOR)
			continue;
		if (!x || !y || x->nd != y->nd)
			return 0;
		for (k = 0; k < x->nd; k++) {
			if (x->n[k] != y->n[k])
				return 0;
			if (x->n[k] < 0 && (!x->sym[k] || !y->sym[k] || strcmp(x->sym[k], y->sym[k])))
				return 0;
		}
	}
	return 1;
}

static struct fev *emit(struct frame *f, enum fev_kind kind, const struct ast_hdr *site)
{
	struct fseq *s = f->ev;
	struct fev *e;

	if (!s)
		return NULL;
	if (s->n == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		struct fev *ev = ast_arena_alloc(f->in->a, na * sizeof *ev);

		if (s->n)
			memcpy(ev, s->ev, s->n * sizeof *ev);
		s->ev = ev;
		s->alloc = na;
	}
	e = &s->ev[s->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->anchor = anchor_at(f, site);
	e->repeat = f->mult;
	e->repeat_expr = f->mult_expr;
	e->repeat_src = f->mult_src;
	e->repeat_via = f->mult_via;
	e->repeat_reason = f->mult_reason;
	e->cond = f->cond;
	e->cond_taken = f->cond_taken;
	return e;
}

static void emit_op(struct frame *f, const char *op, const struct ast_hdr *site)
{
	struct fev *e;

	if (f->mode != M_FWD)
		return;
	e = emit(f, FEV_OP, site);
	if (e)
		e->op = op;
}

/* Where the next event of this frame goes (for op_io). */
static size_t ev_mark(const struct frame *f)
{
	return f->mode == M_FWD && f->ev ? f->ev->n : (size_t)-1;
}

/* The op emitted at `mark` took args (then kw's values) and gave ret:
 * kept on its event, for the shapes of the record's op entry. */
static void op_io(struct frame *f, size_t mark, value_t *const *args, size_t nargs, const struct vdict *kw,
                  value_t *ret)
{
	struct fev *e;
	size_t i, n = nargs + (kw ? kw->n : 0);

	if (mark == (size_t)-1 || !f->ev || mark >= f->ev->n)
		return;
	e = &f->ev->ev[mark];
	if (e->kind != FEV_OP || e->args)
		return;
	e->args = ast_arena_alloc(f->in->a, (n + 1) * sizeof *e->args);
	for (i = 0; i < nargs; i++)
		e->args[i] = args[i];
	for (i = 0; kw && i < kw->n; i++)
		e->args[nargs + i] = kw->vals[i];
	e->nargs = n;
	e->ret = ret;
}

/* Structural equality of two module instances: same class, same layer
 * arguments, same children, recursively.  Groups of equal children of a
 * container become one entry (`h.*`, `layer3.1:6`). */
static int inst_struct_eq(struct interp *in, const struct vinst *x, const struct vinst *y, int depth)
{
	size_t i;

	if (x == y)
		return 1;
	if (depth > 64 || x->cls != y->cls || x->mod != y->mod)
		return 0;
	if ((x->ext || y->ext) && (!x->ext || !y->ext || strcmp(x->ext, y->ext)))
		return 0;
	if (x->nchildren != y->nchildren)
		return 0;
	if (x->mod == VM_LAYER || x->mod == VM_EXTERNAL) {
		if (!x->args || !y->args || x->args->n != y->args->n)
			return 0;
		for (i = 0; i < x->args->n; i++) {
			const char *rx = value_repr(in->a, x->args->vals[i]);
			const char *ry = value_repr(in->a, y->args->vals[i]);

			if (!value_key_eq(x->args->keys[i], y->args->keys[i]))
				return 0;
			if ((rx || ry) && (!rx || !ry || strcmp(rx, ry)))
				return 0;
		}
	}
	for (i = 0; i < x->nchildren; i++) {
		if (strcmp(x->children[i].name, y->children[i].name))
			return 0;
		if (!inst_struct_eq(in, x->children[i].inst, y->children[i].inst, depth + 1))
			return 0;
	}
	return 1;
}

/* Runs of structurally equal consecutive children: writes the start of
 * each run into starts[] (caller frees), returns the number of runs. */
static size_t container_groups(struct interp *in, const struct vinst *m, size_t **starts)
{
	size_t n = 0, i;

	*starts = xmalloc((m->nchildren + 2) * sizeof **starts);
	if (m->nchildren && vdict_gets(m->attrs, "__ecg_len_unknown__")) {
		/* built by a loop whose trip count is not known: the children
		 * seen stand for all of them, in one entry with no count */
		(*starts)[0] = 0;
		(*starts)[1] = m->nchildren;
		return 1;
	}
	for (i = 0; i < m->nchildren; i++)
		if (i == 0 || !inst_struct_eq(in, m->children[i - 1].inst, m->children[i].inst, 0))
			(*starts)[n++] = i;
	(*starts)[n] = m->nchildren;
	return n;
}

size_t interp_container_groups(struct interp *in, const struct vinst *m, size_t **starts)
{
	return container_groups(in, m, starts);
}

/* A call of module m from forward code (or from a Sequential). */
static value_t *call_module_fwd(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	struct fev *e = emit(f, FEV_MODULE, site);

	if (e) {
		e->inst = m;
		e->args = args;
		e->nargs = nargs;
		e->kwargs = kw;
	}
	return forward_of(f, m, args, nargs, kw, site);
}

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct fwdinfo *fi = m->entry;

	if (!fi) {
		fi = ast_arena_alloc(in->a, sizeof *fi);
		m->entry = fi;
	}
	if (!fi->call_anchor)
		fi->call_anchor = site ? anchor_at(f, site) : f->ev && f->ev->n ? f->ev->ev[f->ev->n - 1].anchor : NULL;
	if (fi->state == 1)
		return v_tensor(in->a);     /* recursion through the same module */
	if (fi->state == 2) {
		/* called again: its events are known; what it returns depends
		 * on what it is given this time */
		if (m->mod == VM_LAYER)
			return layer_result(in, m, args, nargs, kw);
		if (!fi->ret)
			return v_tensor(in->a);
		if (fi->ret->k == VK_TENSOR && fi->ret->shape && !same_shapes(fi->args, fi->nargs, args, nargs)) {
			value_t *r = v_copy(in->a, fi->ret);

			r->shape = NULL;
			return r;
		}
		return fi->ret;
	}
	fi->state = 1;
	fi->args = args;
	fi->nargs = nargs;
	fi->ret = interp_forward(in, m, args, nargs, kw, &fi->seq);
	fi->state = 2;
	(void)site;
	return fi->ret;
}

/* Sequential: its children in order, one event per group. */
static value_t *sequential_forward(struct interp *in, struct vinst *m, value_t *x, struct fseq *out,
                                   struct frame *proto, const char *anchor)
{
	struct frame cf;
	size_t *starts, ng, g;
	value_t *cur = x;

	memset(&cf, 0, sizeof cf);
	cf = *proto;
	cf.ev = out;
	ng = container_groups(in, m, &starts);
	for (g = 0; g < ng; g++) {
		size_t lo = starts[g], hi = starts[g + 1];
		struct fev *e;

		cf.mult = (long long)(hi - lo);
		cf.mult_expr = hi - lo > 1 ? afmt(in, "%zu identical children", hi - lo) : NULL;
		cf.mult_src = m->constructed_at;
		e = emit(&cf, FEV_MODULE, NULL);
		if (e) {
			value_t **a1 = ast_arena_alloc(in->a, sizeof *a1);

			a1[0] = cur;
			e->inst = m->children[lo].inst;
			e->anchor = anchor ? anchor : m->constructed_at;
			e->args = a1;
			e->nargs = 1;
		}
		cur = forward_of(&cf, m->children[lo].inst, &cur, 1, NULL, NULL);
	}
	free(starts);
	return cur;
}

/* ------------------------------------------------------------------ calls */

static struct vinst *deepcopy_inst(struct interp *in, struct vinst *m, int depth)
{
	struct vinst *c = new_inst(in);
	size_t i;

	*c = *m;
	c->attrs = vdict_new(in->a);
	for (i = 0; m->attrs && i < m->attrs->n; i++)
		vdict_set(in->a, c->attrs, m->attrs->keys[i], m->attrs->vals[i]);
	c->children = NULL;
	c->nchildren = c->achildren = 0;
	for (i = 0; i < m->nchildren; i++)
		vinst_add_child(in->a, c, m->children[i].name,
		                depth < 64 ? deepcopy_inst(in, m->children[i].inst, depth + 1) : m->children[i].inst);
	c->entry = NULL;
	c->id = NULL;
	c->seen = 0;
	return c;
}

static value_t *deepcopy_value(struct interp *in, value_t *v, int depth)
{
	if (v->k == VK_INST && v->u.inst->mod != VM_NONE)
		return mk_inst_value(in, deepcopy_inst(in, v->u.inst, depth));
	return v;
}

static value_t *math_call(struct frame *f, const char *name, value_t **args, size_t nargs,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x, y;

	if (nargs >= 1 && as_num(args[0], &x)) {
		if (!strcmp(name, "sqrt") && x >= 0)
			return v_float(in->a, sqrt(x));
		if (!strcmp(name, "log") && x > 0)
			return nargs >= 2 && as_num(args[1], &y) && y > 0 && y != 1 ? v_float(in->a, log(x) / log(y))
			                                                             : v_float(in->a, log(x));
		if (!strcmp(name, "log2") && x > 0)
			return v_float(in->a, log2(x));
		if (!strcmp(name, "exp"))
			return v_float(in->a, exp(x));
		if (!strcmp(name, "ceil") && fabs(x) < 9e15)
			return v_int(in->a, (long long)ceil(x));
		if (!strcmp(name, "floor") && fabs(x) < 9e15)
			return v_int(in->a, (long long)floor(x));
		if (!strcmp(name, "pow") && nargs >= 2 && as_num(args[1], &y))
			return v_float(in->a, pow(x, y));
	}
	return unknown_at(f, site, "a math function of a value that is not known");
}

static value_t *literal_eval(struct frame *f, const char *text, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	char *end;
	long long i;
	double d;
	size_t n = strlen(text);

	if (!strcmp(text, "True") || !strcmp(text, "False"))
		return v_bool(in->a, text[0] == 'T');
	if (!strcmp(text, "None"))
		return v_none(in->a);
	i = strtoll(text, &end, 10);
	if (*text && !*end)
		return v_int(in->a, i);
	d = strtod(text, &end);
	if (*text && !*end)
		return v_float(in->a, d);
	if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
		return v_strn(in->a, text + 1, n - 2);
	return unknown_at(f, site, "literal_eval() of text ecg does not evaluate");
}

static value_t *from_json(struct interp *in, const cJSON *j, const char *src, int depth)
{
	value_t *v;
	const cJSON *c;

	if (depth > 64)
		return v_unknown(in->a, NULL, "nested too deeply");
	if (cJSON_IsObject(j)) {
		v = v_dict(in->a);
		for (c = j->child; c; c = c->next) {
			value_t *x = from_json(in, c, src, depth + 1);

			if (c->string && value_is_known_scalar(x))
				x = overridden(in, c->string, x);
			vdict_sets(in->a, v->u.dict, c->string ? c->string : "", x);
		}
		return v;
	}
	if (cJSON_IsArray(j)) {
		v = v_seq(in->a, VK_LIST, 0);
		for (c = j->child; c; c = c->next)
			vseq_push(in->a, v->u.seq, from_json(in, c, src, depth + 1));
		return v;
	}
	if (cJSON_IsString(j))
		v = v_str(in->a, j->valuestring ? j->valuestring : "");
	else if (cJSON_IsBool(j))
		v = v_bool(in->a, cJSON_IsTrue(j));
	else if (cJSON_IsNumber(j))
		v = j->valuedouble == (double)(long long)j->valuedouble && fabs(j->valuedouble) < 9e15
		    ? v_int(in->a, (long long)j->valuedouble) : v_float(in->a, j->valuedouble);
	else
		v = v_none(in->a);
	v->src = src;
	v->via = VIA_CONFIG_FILE;
	return v;
}

/* json.load(open(p)), yaml.safe_load(...), tomllib.load(...): the job's
 * configuration files, read from the repository by the loader. */
static value_t *load_config(struct frame *f, const char *how, value_t *arg, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *path = NULL, *why = NULL;
	cJSON *j;
	value_t *v;

	if (arg && arg->k == VK_STR && (!strcmp(how, "json.loads") || !strcmp(how, "tomllib.loads"))) {
		if (!strcmp(how, "json.loads") && (j = cJSON_Parse(arg->u.str.s))) {
			v = from_json(in, j, anchor_at(f, site), 0);
			cJSON_Delete(j);
			return v;
		}
		return unknown_at(f, site, "a configuration string ecg does not parse");
	}
	if (arg && arg->k == VK_STR)
		path = arg->u.str.s;
	else if (arg && arg->k == VK_INST && arg->u.inst->ext && !strcmp(arg->u.inst->ext, "io.TextIOWrapper")) {
		value_t *nm = vdict_gets(arg->u.inst->attrs, "name");

		path = nm && nm->k == VK_STR ? nm->u.str.s : NULL;
	}
	if (!path)
		return unknown_at(f, site, "a configuration file whose path is not known");
	if (!in->load)
		return unknown_at(f, site, "configuration files are not read in this mode");
	j = in->load(in->load_ctx, path, in->prog->entry_dir, &why);
	if (!j) {
		note(in, anchor_at(f, site), afmt(in, "configuration file '%s'", path), why ? why : "not read");
		return unknown_at(f, site, why ? why : "a configuration file ecg could not read");
	}
	v = from_json(in, j, astr(in, path), 0);
	cJSON_Delete(j);
	return v;
}

/* Is this device argument the host?  1 yes, 0 a device, -1 not known. */
static int dev_is_host(const value_t *v)
{
	if (!v)
		return -1;
	if (v->k == VK_STR)
		return !strncmp(v->u.str.s, "cpu", 3);
	if (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device")) {
		value_t *t = vdict_gets(v->u.inst->attrs, "type");

		return t && t->k == VK_STR ? !strncmp(t->u.str.s, "cpu", 3) : -1;
	}
	return -1;
}

static int kw_bool(const struct vdict *kw, const char *name)
{
	value_t *v = kw ? vdict_gets(kw, name) : NULL;

	return v ? value_truth(v) : 0;
}

/* x.<m>(...) on a tensor: an op in forward, and where data moves or the
 * host waits, a schedule event. */

/* Give r, the result of op, the shape its arguments decide.  r is copied
 * first when it is one of the arguments (a value is an object). */
static value_t *with_shape(struct interp *in, value_t *r, const char *op, value_t **args, size_t nargs,
                           struct vdict *kw)
{
	const struct vshape *s;
	int dt;
	size_t i;

	if (!r || r->k != VK_TENSOR || (r->shape && r->dt))
		return r;
	s = r->shape ? NULL : shape_of_call(in->a, op, args, nargs, kw);
	dt = r->dt ? DT_UNKNOWN : shape_dtype_of_call(op, args, nargs, kw);
	if (!s && !dt)
		return r;
	for (i = 0; i < nargs; i++)
		if (args[i] == r)
			r = v_copy(in->a, r);
	for (i = 0; kw && i < kw->n; i++)
		if (kw->vals[i] == r)
			r = v_copy(in->a, r);
	if (s)
		r->shape = s;
	if (dt)
		r->dt = (unsigned char)dt;
	return r;
}

/* The size of a tensor read as Python values: x.size(), x.size(i),
 * x.shape, x.dim(), x.numel(); NULL when its shape is not known. */
static value_t *size_read(struct frame *f, value_t *x, const char *what, value_t *i, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vshape *s = shape_of(x);
	unsigned k;

	if (!s)
		return NULL;
	if (!strcmp(what, "dim") || !strcmp(what, "ndim") || !strcmp(what, "ndimension"))
		return v_int(in->a, s->nd);
	if (!strcmp(what, "numel")) {
		long long n = 1;

		for (k = 0; k < s->nd; k++) {
			if (s->n[k] < 0 || (s->n[k] && n > (1LL << 53) / s->n[k]))
				return NULL;
			n *= s->n[k];
		}
		return v_int(in->a, n);
	}
	if (i) {
		int ok;
		long long d = as_int(i, &ok);

		if (!ok)
			return NULL;
		if (d < 0)
			d += s->nd;
		if (d < 0 || d >= (long long)s->nd)
			return NULL;
		return shape_dim_value(in->a, s, (unsigned)d, text_of(f, site));
	}
	{
		value_t *t = v_seq(in->a, VK_TUPLE, s->nd);

		for (k = 0; k < s->nd; k++)
			vseq_push(in->a, t->u.seq, shape_dim_value(in->a, s, k, afmt(in, "%s[%u]", text_of(f, site), k)));
		return t;
	}
}

static value_t *call_tensor_method(struct frame *f, value_t *fn, const char *m, value_t **args,
                                   size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *recv = fn->recv;
	value_t **a2, *r;
	size_t i;

	if (recv && recv->k == VK_TENSOR && recv->shape &&
	    (!strcmp(m, "size") || !strcmp(m, "dim") || !strcmp(m, "numel") || !strcmp(m, "ndimension")) &&
	    (r = size_read(f, recv, m, nargs ? args[0] : kw ? vdict_gets(kw, "dim") : NULL, site))) {
		if (f->mode == M_FWD)
			emit_op(f, fn->u.ext, site);
		return r;
	}
	if (f->mode == M_FWD && recv && recv->k == VK_TENSOR &&
	    (!strcmp(m, "chunk") || !strcmp(m, "split") || !strcmp(m, "unbind") || !strcmp(m, "tensor_split"))) {
		const struct vshape *pieces[64];
		size_t n;

		a2 = xmalloc((nargs + 1) * sizeof *a2);
		a2[0] = recv;
		for (i = 0; i < nargs; i++)
			a2[i + 1] = args[i];
		n = shape_pieces(in->a, fn->u.ext, a2, nargs + 1, kw, pieces, 64);
		free(a2);
		if (n) {
			size_t mark = ev_mark(f);

			r = v_seq(in->a, VK_TUPLE, n);
			emit_op(f, fn->u.ext, site);
			for (i = 0; i < n; i++) {
				value_t *t = v_tensor_dev(in->a, recv->dev, 0);

				t->shape = pieces[i];
				vseq_push(in->a, r->u.seq, t);
			}
			a2 = xmalloc((nargs + 1) * sizeof *a2);
			a2[0] = recv;
			for (i = 0; i < nargs; i++)
				a2[i + 1] = args[i];
			op_io(f, mark, a2, nargs + 1, kw, r);
			free(a2);
			return r;
		}
	}
	{
		size_t mark = ev_mark(f);

		r = call_tensor_method_(f, fn, m, args, nargs, kw, site);
		if (!recv || recv->k != VK_TENSOR || !r)
			return r;
		a2 = xmalloc((nargs + 1) * sizeof *a2);
		a2[0] = recv;
		for (i = 0; i < nargs; i++)
			a2[i + 1] = args[i];
		if (r->k == VK_TENSOR)
			r = with_shape(in, r, fn->u.ext, a2, nargs + 1, kw);
		op_io(f, mark, a2, nargs + 1, kw, r);
		free(a2);
		return r;
	}
}

static value_t *call_tensor_method_(struct frame *f, value_t *fn, const char *m, value_t **args,
                                    size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *recv = fn->recv;
	int dev = recv && recv->k == VK_TENSOR ? recv->dev : DEV_UNKNOWN;
	int pinned = recv && recv->k == VK_TENSOR ? recv->pinned : 0;
	struct sched_ev *e;

	if (f->mode == M_FWD)
		emit_op(f, fn->u.ext, site);
	if (!strcmp(m, "backward")) {
		if (f->mode != M_FWD) {
			in->job_events++;
			in->saw_backward = 1;
			if (!in->ev.backward)
				in->ev.backward = anchor_at(f, site);
			sev(f, SEV_BACKWARD, ".backward()", site);
		}
		return v_none(in->a);
	}
	if (f->mode != M_FWD && (!strcmp(m, "chunk") || !strcmp(m, "split") || !strcmp(m, "unbind") ||
	                         !strcmp(m, "tensor_split"))) {
		/* job code splitting a batch into micro-batches: pieces that live
		 * where the batch lives; how many is known for chunk(n) with n
		 * known, else one representative piece */
		value_t *n = nargs ? args[0] : kw ? vdict_gets(kw, "chunks") : NULL;
		value_t *r;
		long long k;

		if (!strcmp(m, "chunk") && n && n->k == VK_INT && n->u.i > 0 && n->u.i <= 64) {
			r = v_seq(in->a, VK_TUPLE, (size_t)n->u.i);
			for (k = 0; k < n->u.i; k++)
				vseq_push(in->a, r->u.seq, v_tensor_dev(in->a, dev, pinned));
			return r;
		}
		r = v_seq(in->a, VK_TUPLE, 1);
		vseq_push(in->a, r->u.seq, v_tensor_dev(in->a, dev, pinned));
		r->u.seq->unk_expr = text_of(f, site);
		r->u.seq->unk_reason = "the number of pieces is not known";
		return r;
	}
	if (!strcmp(m, "to") || !strcmp(m, "cuda")) {
		value_t *target = !strcmp(m, "cuda") ? NULL : nargs ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
		int host = !strcmp(m, "cuda") ? 0 : dev_is_host(target);

		/* .to(dtype) alone moves nothing */
		if (!strcmp(m, "to") && target && target->k == VK_EXT && strstr(target->u.ext, "torch.float") == target->u.ext)
			return v_tensor_dev(in->a, dev, pinned);
		if (!strcmp(m, "to") && !target)
			return v_tensor_dev(in->a, dev, pinned);
		if (host == 1) {
			if (dev == DEV_DEVICE) {
				e = sev(f, SEV_D2H, !strcmp(m, "to") ? ".to(cpu)" : ".cpu()", site);
				if (e)
					e->non_blocking = kw_bool(kw, "non_blocking");
			}
			return v_tensor_dev(in->a, DEV_HOST, 0);
		}
		in->gpu = 1;
		if (dev != DEV_DEVICE && !(f->mode == M_FWD && dev == DEV_UNKNOWN)) {
			e = sev(f, SEV_H2D, !strcmp(m, "cuda") ? ".cuda()" : ".to(device)", site);
			if (e) {
				e->non_blocking = kw_bool(kw, "non_blocking");
				e->pinned = dev == DEV_HOST ? pinned : -1;
			}
		}
		return v_tensor_dev(in->a, DEV_DEVICE, 0);
	}
	if (!strcmp(m, "pin_memory"))
		return v_tensor_dev(in->a, DEV_HOST, 1);
	if (!strcmp(m, "cpu") || !strcmp(m, "numpy")) {
		if (dev == DEV_DEVICE) {
			sev(f, SEV_D2H, !strcmp(m, "cpu") ? ".cpu()" : ".numpy()", site);
			sev(f, SEV_SYNC, !strcmp(m, "cpu") ? ".cpu()" : ".numpy()", site);
		}
		if (!strcmp(m, "numpy"))
			return unknown_at(f, site, "a numpy array");
		return v_tensor_dev(in->a, DEV_HOST, 0);
	}
	if (!strcmp(m, "item") || !strcmp(m, "tolist")) {
		if (dev == DEV_DEVICE)
			sev(f, SEV_SYNC, !strcmp(m, "item") ? ".item()" : ".tolist()", site);
		return unknown_at(f, site, "a value read from a tensor at run time");
	}
	if (!strcmp(m, "nonzero") || !strcmp(m, "unique") || !strcmp(m, "masked_select")) {
		if (dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, ".%s() (its output size depends on the data)", m), site);
		return v_tensor_dev(in->a, dev, 0);
	}
	if (!strcmp(m, "size") || !strcmp(m, "dim") || !strcmp(m, "numel") || !strcmp(m, "stride"))
		return unknown_at(f, site, "a shape read at run time (no sync)");
	return v_tensor_dev(in->a, dev, 0);
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

static value_t *call_torch(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
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
		value_t *r = with_shape(in, call_torch_(f, d, last, args, nargs, kw, site, any_tensor), d, args, nargs, kw);

		op_io(f, mark, args, nargs, kw, r);
		return r;
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

	if (f->mode == M_FWD)
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
		if (in->gpu && f->mode != M_FWD)
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

/* External callables: torch, third-party libraries, the standard library. */
static value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *d = canon_ext(in, fn->u.ext);
	const char *last = short_ext(d);
	size_t i;
	int any_tensor = 0;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]))
			any_tensor = 1;

	/* itertools.repeat(x, n) with n known: n times x */
	if (!strcmp(d, "itertools.repeat") && nargs == 2 && args[1]->k == VK_INT && args[1]->u.i >= 0 &&
	    args[1]->u.i <= MAX_UNROLL) {
		value_t *r = v_seq(in->a, VK_TUPLE, (size_t)args[1]->u.i);
		long long k;

		for (k = 0; k < args[1]->u.i; k++)
			vseq_push(in->a, r->u.seq, args[0]);
		return r;
	}
	/* worker processes run job code: mp.spawn(fn, args=(...)) calls
	 * fn(rank, *args) in each; Process(target=fn, args=(...)) calls
	 * fn(*args).  Read once, as one process of the job. */
	if (f->mode != M_FWD &&
	    (!strcmp(d, "torch.multiprocessing.spawn") || !strcmp(d, "torch.multiprocessing.start_processes") ||
	     !strcmp(d, "torch.multiprocessing.Process") || !strcmp(d, "multiprocessing.Process") ||
	     !strcmp(d, "torch.multiprocessing.spawn.spawn"))) {
		int spawn = strcmp(last, "Process") != 0;
		value_t *target = spawn ? (nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "fn") : NULL)
		                        : kw ? vdict_gets(kw, "target") : NULL;
		value_t *pargs = kw ? vdict_gets(kw, "args") : NULL;

		if (!pargs && spawn && nargs >= 2)
			pargs = args[1];
		if (target && target->k == VK_FUNC) {
			size_t np = pargs && (pargs->k == VK_TUPLE || pargs->k == VK_LIST) ? pargs->u.seq->n : 0;
			value_t **cargs = ast_arena_alloc(in->a, (np + 2) * sizeof *cargs);
			size_t nc = 0;

			if (spawn)
				cargs[nc++] = v_unknown(in->a, "rank", "the process index mp.spawn passes");
			for (i = 0; i < np; i++)
				cargs[nc++] = pargs->u.seq->items[i];
			(void)call_function(f, target->u.fn, NULL, cargs, nc, NULL, M_JOB, NULL, site);
		}
	}
	if (f->mode != M_FWD && !in->ev.write &&
	    (!strcmp(d, "torch.save") || !strcmp(d, "json.dump") || !strcmp(d, "numpy.save") ||
	     !strcmp(d, "numpy.savez") || !strcmp(d, "pickle.dump") || !strcmp(last, "to_csv") ||
	     !strcmp(last, "to_parquet") || !strcmp(last, "save_image") || !strcmp(d, "np.save")))
		in->ev.write = anchor_at(f, site);
	if (f->mode != M_FWD && !strcmp(last, "step") && nargs >= 1 &&
	    args[0]->k == VK_INST && args[0]->u.inst->ext && !strncmp(args[0]->u.inst->ext, "torch.optim.", 12)) {
		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, SEV_OPT_STEP, "scaler.step(optimizer)", site);
		if (strstr(d, "GradScaler"))
			sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
	}
	if (!strncmp(d, "Tensor.", 7))
		return call_tensor_method(f, fn, last, args, nargs, kw, site);
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
	if (!strcmp(d, "argparse.ArgumentParser"))
		return argp_new(in);
	/* fabric.backward(loss), accelerator.backward(loss), engine.backward(loss) */
	if (f->mode != M_FWD && !strcmp(last, "backward") &&
	    ((nargs >= 1 && is_tensorish(args[0])) || !strcmp(d, "torch.autograd.backward") ||
	     !strcmp(d, "torch.distributed.autograd.backward"))) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, afmt(in, "%s(loss)", text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)), site);
		return v_none(in->a);
	}
	if (f->mode != M_FWD && nargs >= 1 && !strcmp(last, "setup_optimizers"))
		return args[0];
	/* fabric.setup(model, opt), accelerator.prepare(model, opt, loader):
	 * framework wrappers hand back what they were given */
	if (f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	    (!strcmp(last, "setup") || !strcmp(last, "setup_module") || !strcmp(last, "prepare") ||
	     !strcmp(last, "prepare_model") || !strcmp(last, "wrap"))) {
		value_t *t;

		if (nargs == 1)
			return args[0];
		t = v_seq(in->a, VK_TUPLE, nargs);
		for (i = 0; i < nargs; i++)
			vseq_push(in->a, t->u.seq, args[i]);
		return t;
	}
	if (f->mode != M_FWD && (!strcmp(last, "CLI") || !strcmp(d, "fire.Fire") || !strcmp(d, "typer.run") ||
	                         !strcmp(d, "jsonargparse.auto_cli") || !strcmp(d, "hydra.main"))) {
		/* a command-line dispatcher: it calls the function it is given
		 * with the job's arguments -- here, the function's defaults */
		for (i = 0; i < nargs; i++) {
			if (args[i]->k == VK_FUNC)
				return call(f, args[i], NULL, 0, NULL, site);
			/* {"pretrain": fn, ...}: the subcommand is the job's first argument */
			if (args[i]->k == VK_DICT && in->argv && in->argv->u.seq->n) {
				value_t *fn2 = vdict_get(args[i]->u.dict, in->argv->u.seq->items[0]);

				if (fn2 && (fn2->k == VK_FUNC || fn2->k == VK_BOUND))
					return call(f, fn2, NULL, 0, NULL, site);
			}
		}
	}
	if (!strcmp(d, "functools.partial") && nargs >= 1) {
		struct vinst *p = new_inst(in);
		value_t *pa = v_seq(in->a, VK_LIST, 0), *pk = v_dict(in->a);

		p->ext = "functools.partial";
		for (i = 1; i < nargs; i++)
			vseq_push(in->a, pa->u.seq, args[i]);
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, pk->u.dict, kw->keys[i], kw->vals[i]);
		vdict_sets(in->a, p->attrs, "func", args[0]);
		vdict_sets(in->a, p->attrs, "args", pa);
		vdict_sets(in->a, p->attrs, "keywords", pk);
		return mk_inst_value(in, p);
	}
	if (!strcmp(d, "ast.literal_eval") && nargs == 1 && args[0]->k == VK_STR)
		return literal_eval(f, args[0]->u.str.s, site);
	if (!strcmp(d, "os.path.dirname") || !strcmp(d, "os.path.basename")) {
		if (nargs == 1 && args[0]->k == VK_STR) {
			const char *p = args[0]->u.str.s, *sl = strrchr(p, '/');

			if (!strcmp(d, "os.path.dirname"))
				return sl ? v_strn(in->a, p, (size_t)(sl - p)) : v_str(in->a, "");
			return v_str(in->a, sl ? sl + 1 : p);
		}
		return unknown_at(f, site, "a path not known");
	}
	if ((!strcmp(d, "os.path.abspath") || !strcmp(d, "os.path.realpath") || !strcmp(d, "os.path.expanduser") ||
	     !strcmp(d, "os.path.normpath")) && nargs == 1 && args[0]->k == VK_STR)
		return args[0];
	if (!strcmp(d, "json.load") || !strcmp(d, "json.loads") || !strcmp(d, "tomllib.load") ||
	    !strcmp(d, "tomllib.loads") || !strcmp(d, "toml.load") || !strcmp(d, "tomli.load") ||
	    !strcmp(d, "yaml.safe_load") || !strcmp(d, "yaml.load") || !strcmp(d, "yaml.full_load") ||
	    !strcmp(d, "omegaconf.OmegaConf.load"))
		return load_config(f, d, nargs ? args[0] : NULL, site);
	if (!strcmp(d, "copy.deepcopy") && nargs == 1)
		return deepcopy_value(in, args[0], 0);
	if (!strncmp(d, "math.", 5))
		return math_call(f, d + 5, args, nargs, site);
	if ((!strcmp(d, "collections.OrderedDict") || !strcmp(d, "OrderedDict"))) {
		value_t *r = v_dict(in->a);
		struct vseq *items = NULL;

		if (nargs == 1 && args[0]->k == VK_DICT)
			return args[0];
		if (nargs == 1 && iter_items(f, args[0], &items) == NULL && items) {
			for (i = 0; i < items->n; i++) {
				value_t *p = items->items[i];

				if ((p->k == VK_TUPLE || p->k == VK_LIST) && p->u.seq->n == 2)
					vdict_set(in->a, r->u.dict, p->u.seq->items[0], p->u.seq->items[1]);
			}
		}
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	if (!strcmp(d, "os.path.join")) {
		buf_t b;
		value_t *r;

		for (i = 0; i < nargs; i++)
			if (args[i]->k != VK_STR)
				return unknown_at(f, site, "a path built from values that are not known");
		buf_init(&b);
		for (i = 0; i < nargs; i++) {
			if (args[i]->u.str.s[0] == '/')
				buf_reset(&b);
			else if (b.len && b.buf[b.len - 1] != '/')
				buf_addch(&b, '/');
			buf_addstr(&b, args[i]->u.str.s);
		}
		r = v_str(in->a, b.buf);
		buf_free(&b);
		return r;
	}
	/* torch.nn classes: modules */
	if (!strncmp(d, "torch.nn.", 9) && strchr(d + 9, '.') == NULL && d[9] >= 'A' && d[9] <= 'Z') {
		if (!strcmp(d, "torch.nn.Parameter")) {
			value_t *p = v_tensor(in->a);

			p->shape = nargs >= 1 ? shape_of(args[0]) : kw ? shape_of(vdict_gets(kw, "data")) : NULL;
			p->is_param = 1;
			return p;
		}
		return mk_inst_value(in, new_torch_module(f, d, args, nargs, kw, site));
	}
	/* ops */
	if (!strncmp(d, "torch.", 6))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	/* a module class of a third-party library: an external module */
	if (ext_is_module_class(d)) {
		struct vinst *m = new_inst(in);
		size_t k;

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->cond = f->cond;
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

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->args = vdict_new(in->a);
		return mk_inst_value(in, m);
	}
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
		return mk_inst_value(in, o);
	}
	(void)kw;
	return unknown_at(f, site, afmt(in, "the result of %s, which is outside the repository", d));
}

value_t *call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (!budget(f))
		return unknown_at(f, site, "the analysis step budget ran out");
	if (f->mode != M_FWD)
		ema_call(f, fn, site);
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
			                      fn->u.fn->def->line);
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
		return call_function(f, fn->u.fn, NULL, args, nargs, kw, f->mode, NULL, site);
	case VK_BOUND: {
		value_t *self = fn->u.bound.self;
		struct vfunc *vf = fn->u.bound.fn->u.fn;

		if (self->k == VK_INST && self->u.inst->mod != VM_NONE && AST_IS(vf->def, FunctionDef) &&
		    !strcmp(AST_AS(vf->def, FunctionDef)->name, "forward")) {
			value_t *mv = mk_inst_value(in, self->u.inst);

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
			e->func_anchor = aanchor(in, vf->file->path, vf->qualname, vf->def->line);
			idx = (size_t)(e - f->ev->ev);
			r = call_function(f, vf, self, args, nargs, kw, M_FWD, sub, site);
			e = &f->ev->ev[idx];
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		return call_function(f, vf, self, args, nargs, kw, f->mode, NULL, site);
	}
	case VK_CLASS:
		return instantiate(f, fn->u.cls, args, nargs, kw, site);
	case VK_INST: {
		struct vinst *m = fn->u.inst;

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
			return r;
		}
		if (m->mod == VM_NONE) {
			value_t *c = m->cls ? class_lookup(m->cls, "__call__", NULL) : NULL;

			if (c && c->k == VK_FUNC)
				return call_function(f, c->u.fn, fn, args, nargs, kw, f->mode, f->ev, site);
			return unknown_at(f, site, "a call of an object that is not a module");
		}
		if (f->mode == M_FWD)
			return call_module_fwd(f, m, args, nargs, kw, site);
		/* job code calling a model: a root call.  A torch.nn built-in
		 * called from job code is the model when it has parameters and
		 * is not a loss (`model = nn.Linear(20, 1)`; not `criterion`,
		 * not an nn.Softmax) */
		if (m->mod != VM_LAYER ||
		    (m->ext && !strstr(m->ext, "Loss") && cg_param_count(in->cat, m) != 0)) {
			struct root_call *rc;

			xgrow((void **)&in->roots, &in->aroots, in->nroots + 1, sizeof *in->roots);
			rc = &in->roots[in->nroots++];
			memset(rc, 0, sizeof *rc);
			rc->inst = m;
			rc->anchor = anchor_at(f, site);
			if (site && AST_IS(site, Call)) {
				const struct ast_hdr *fe = AST_AS(site, Call)->func;

				if (AST_IS(fe, Name))
					rc->binding = astr(in, AST_AS(fe, Name)->id);
				else if (AST_IS(fe, Attribute))
					rc->binding = astr(in, AST_AS(fe, Attribute)->attr);
			}
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
			in->job_events++;
			{
				struct sched_ev *e = sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);

				if (e)
					e->model = m;
			}
		}
		{
			int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;

			/* a loss or other layer called from job code: where its input is */
			if (m->mod == VM_LAYER)
				for (i = 0, dev = DEV_UNKNOWN; i < nargs; i++)
					if (is_tensorish(args[i]) && args[i]->dev > dev)
						dev = args[i]->dev;
			return v_tensor_dev(in->a, dev, 0);
		}
	}
	case VK_EXT:
		return call_ext(f, fn, args, nargs, kw, site);
	case VK_BUILTIN:
		return call_builtin(f, fn, args, nargs, kw, site);
	default:
		break;
	}
	if (f->mode == M_FWD)
		for (i = 0; i < nargs; i++)
			if (is_tensorish(args[i]))
				return v_tensor(in->a);
	return unknown_at(f, site, fn->k == VK_UNKNOWN && fn->reason ? fn->reason : "a call ecg cannot follow");
}

/* The items of an iterable, when they are known.  Returns NULL and sets
 * *out, or returns an unknown value (and *out NULL) saying why not. */
/* len(range(...)), computed without overflow (clamped to LLONG_MAX). */
static long long range_len(const value_t *it)
{
	__int128 a = it->u.range.start, b = it->u.range.stop, st = it->u.range.step, n;

	if (st == 0)
		return 0;
	n = st > 0 ? (b > a ? (b - a + st - 1) / st : 0) : (a > b ? (a - b - st - 1) / -st : 0);
	return n > (__int128)LLONG_MAX ? LLONG_MAX : (long long)n;
}

static value_t *iter_items(struct frame *f, value_t *it, struct vseq **out)
{
	struct interp *in = f->in;
	struct vseq *s;
	size_t i;

	*out = NULL;
	switch (it->k) {
	case VK_LIST: case VK_TUPLE:
		if (it->u.seq->unk_reason)
			return v_unknown(in->a, it->u.seq->unk_expr, it->u.seq->unk_reason);
		*out = it->u.seq;
		return NULL;
	case VK_RANGE: {
		long long a = it->u.range.start, st = it->u.range.step, x;
		long long n = range_len(it);

		if (n > MAX_UNROLL)
			return v_unknown(in->a, it->expr, afmt(in, "a range of %lld items is too long to follow", n));
		s = ast_arena_alloc(in->a, sizeof *s);
		for (x = 0; x < n; x++)
			vseq_push(in->a, s, v_int(in->a, (long long)((__int128)a + (__int128)x * st)));
		*out = s;
		return NULL;
	}
	case VK_DICT:
		s = ast_arena_alloc(in->a, sizeof *s);
		for (i = 0; i < it->u.dict->n; i++)
			vseq_push(in->a, s, it->u.dict->keys[i]);
		*out = s;
		return NULL;
	case VK_STR:
		s = ast_arena_alloc(in->a, sizeof *s);
		for (i = 0; i < it->u.str.len; i++)
			vseq_push(in->a, s, v_strn(in->a, it->u.str.s + i, 1));
		*out = s;
		return NULL;
	case VK_INST:
		if (it->u.inst->mod == VM_CONTAINER) {
			struct vinst *m = it->u.inst;
			value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");

			if (unk)
				return unk;
			s = ast_arena_alloc(in->a, sizeof *s);
			if (m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")) {
				for (i = 0; i < m->nchildren; i++)
					vseq_push(in->a, s, v_str(in->a, m->children[i].name));
			} else {
				for (i = 0; i < m->nchildren; i++)
					vseq_push(in->a, s, mk_inst_value(in, m->children[i].inst));
			}
			*out = s;
			return NULL;
		}
		break;
	default:
		break;
	}
	return v_unknown(in->a, it->expr, it->k == VK_UNKNOWN && it->reason ? it->reason
	                                  : "an iterable whose items are not known");
}

static value_t *seq_from(struct interp *in, enum vkind k, struct vseq *src)
{
	value_t *v = v_seq(in->a, k, src ? src->n : 0);
	size_t i;

	for (i = 0; src && i < src->n; i++)
		vseq_push(in->a, v->u.seq, src->items[i]);
	return v;
}

static value_t *minmax(struct frame *f, value_t **args, size_t nargs, int want_max, const struct ast_hdr *site)
{
	struct vseq *items = NULL, tmp;
	double best = 0, x;
	value_t *bestv = NULL;
	size_t i;

	if (nargs == 1) {
		if (iter_items(f, args[0], &items))
			return unknown_at(f, site, "min/max of values that are not known");
	} else {
		tmp.items = args;
		tmp.n = nargs;
		items = &tmp;
	}
	for (i = 0; items && i < items->n; i++) {
		if (!as_num(items->items[i], &x))
			return unknown_at(f, site, "min/max of values that are not known");
		if (!bestv || (want_max ? x > best : x < best)) {
			best = x;
			bestv = items->items[i];
		}
	}
	return bestv ? bestv : unknown_at(f, site, "min/max of nothing");
}

/* isinstance(v, t) for one type: 1, 0, or -1 when not known. */
/* Whether v is a class or function itself (not an instance): a repo class
 * or function, or an external name that is a torch name or a class name,
 * where Python's types of scalars and containers are out. */
static int is_type_ref(struct interp *in, const value_t *v)
{
	if (v->k == VK_CLASS || v->k == VK_FUNC || v->k == VK_BOUND)
		return 1;
	if (v->k == VK_EXT) {
		const char *d = canon_ext(in, v->u.ext);

		return !strncmp(d, "torch.", 6) || value_ext_is_class(d);
	}
	return 0;
}

static int isinstance_of(struct interp *in, const value_t *v, const value_t *t)
{
	size_t i;

	/* isinstance(nn.BatchNorm2d, functools.partial), (..., str): a class
	 * or function is none of these (timm's get_norm_layer) */
	if (is_type_ref(in, v)) {
		if (t->k == VK_BUILTIN) {
			switch (t->u.bi.id) {
			case BI_INT: case BI_FLOAT: case BI_STR: case BI_BOOL:
			case BI_LIST: case BI_TUPLE: case BI_DICT:
				return 0;
			case BI_TYPE:
				return v->k == VK_CLASS ? 1 : v->k == VK_FUNC || v->k == VK_BOUND ? 0 : -1;
			default:
				break;
			}
		}
		if (t->k == VK_EXT) {
			const char *d = canon_ext(in, t->u.ext);

			if (!strcmp(d, "functools.partial") || !strncmp(d, "collections.abc.", 16) ||
			    !strncmp(d, "typing.", 7))
				return 0;
			if (!strcmp(d, "types.FunctionType"))
				return v->k == VK_FUNC ? 1 : v->k == VK_CLASS ? 0 : -1;
		}
	}

	if (t->k == VK_CLASS) {
		struct vclass *c;

		if (v->k != VK_INST)
			return v->k == VK_UNKNOWN || v->k == VK_TENSOR ? -1 : 0;
		c = v->u.inst->cls;
		if (!c)
			return 0;     /* a torch or third-party object is not a repo class */
		for (i = 0; i < c->nmro; i++)
			if (c->mro[i] == t->u.cls)
				return 1;
		return 0;
	}
	if (t->k == VK_EXT) {
		const char *d = canon_ext(in, t->u.ext);

		if (v->k == VK_INST) {
			const struct vinst *m = v->u.inst;

			if (!strcmp(d, "torch.nn.Module"))
				return m->mod != VM_NONE;
			if (m->ext && !strcmp(m->ext, d))
				return 1;
			if (m->cls && class_ext_base(m->cls))
				return !strcmp(class_ext_base(m->cls), d) ? 1 : -1;
			return m->ext || m->cls ? 0 : -1;
		}
		if (v->k == VK_TENSOR)
			return !strcmp(d, "torch.Tensor") ? 1 : 0;
		if (!strcmp(d, "collections.abc.Iterable") || !strcmp(d, "collections.abc.Sequence")) {
			if (v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_STR || v->k == VK_RANGE)
				return 1;
			if (v->k == VK_DICT)
				return !strcmp(d, "collections.abc.Iterable");
			if (value_is_known_scalar(v) || v->k == VK_NONE)
				return 0;
		}
		if (!strcmp(d, "collections.abc.Mapping"))
			return v->k == VK_DICT ? 1 : value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
			       v->k == VK_TUPLE ? 0 : -1;
		return -1;
	}
	if (t->k == VK_BUILTIN) {
		switch (t->u.bi.id) {
		case BI_INT: return v->k == VK_INT || v->k == VK_BOOL ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
		case BI_FLOAT: return v->k == VK_FLOAT ? 1 : value_is_known_scalar(v) ? 0 : -1;
		case BI_STR: return v->k == VK_STR ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE ? 0 : -1;
		case BI_BOOL: return v->k == VK_BOOL ? 1 : value_is_known_scalar(v) ? 0 : -1;
		case BI_LIST: return v->k == VK_LIST ? 1 : value_is_known_scalar(v) || v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
		case BI_TUPLE: return v->k == VK_TUPLE ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_DICT ? 0 : -1;
		case BI_DICT: return v->k == VK_DICT ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE ? 0 : -1;
		default: return -1;
		}
	}
	return -1;
}

static value_t *call_builtin(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                             struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *items = NULL;
	double x;
	size_t i;
	int ok;

	switch (fn->u.bi.id) {
	case BI_RANGE: {
		long long a = 0, b, st = 1;
		value_t *r;

		if (nargs == 1) {
			b = as_int(args[0], &ok);
		} else if (nargs >= 2) {
			int ok2 = 1;

			a = as_int(args[0], &ok);
			b = as_int(args[1], &ok2);
			ok = ok && ok2;
			if (nargs >= 3) {
				st = as_int(args[2], &ok2);
				ok = ok && ok2 && st != 0;
			}
		} else {
			ok = 0;
			b = 0;
		}
		if (!ok)
			return unknown_at(f, site, "a range whose bounds are not known");
		r = ast_arena_alloc(in->a, sizeof *r);
		r->k = VK_RANGE;
		r->u.range.start = a;
		r->u.range.stop = b;
		r->u.range.step = st;
		r->expr = site ? text_of(f, site) : NULL;
		if (nargs == 1 && site && AST_IS(site, Call) && AST_AS(site, Call)->args.n == 1)
			r->expr = text_of(f, AST_AS(site, Call)->args.items[0]);
		r->src = nargs == 1 ? args[0]->src : NULL;
		r->via = nargs == 1 ? args[0]->via : VIA_DEFAULT;
		return r;
	}
	case BI_LEN:
		if (nargs == 1) {
			value_t *a = args[0];

			if ((a->k == VK_LIST || a->k == VK_TUPLE) && !a->u.seq->unk_reason)
				return v_int(in->a, (long long)a->u.seq->n);
			if (a->k == VK_DICT)
				return v_int(in->a, (long long)a->u.dict->n);
			if (a->k == VK_STR)
				return v_int(in->a, (long long)a->u.str.len);
			if (a->k == VK_INST && a->u.inst->mod == VM_CONTAINER &&
			    !vdict_gets(a->u.inst->attrs, "__ecg_len_unknown__"))
				return v_int(in->a, (long long)a->u.inst->nchildren);
			if (a->k == VK_RANGE) {
				struct vseq *s;

				if (!iter_items(f, a, &s) && s)
					return v_int(in->a, (long long)s->n);
			}
		}
		return unknown_at(f, site, "the length of something not known");
	case BI_INT:
		if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "int(<a device tensor>)", site);
		if (nargs == 0)
			return v_int(in->a, 0);
		if (args[0]->k == VK_INT || args[0]->k == VK_BOOL) {
			value_t *r = v_int(in->a, args[0]->k == VK_INT ? args[0]->u.i : args[0]->u.b);

			r->src = args[0]->src;
			return r;
		}
		if (args[0]->k == VK_FLOAT && fabs(args[0]->u.f) < 9e15)
			return v_int(in->a, (long long)args[0]->u.f);
		if (args[0]->k == VK_STR) {
			char *end;
			long long v = strtoll(args[0]->u.str.s, &end, 10);

			if (*args[0]->u.str.s && !*end)
				return v_int(in->a, v);
		}
		return unknown_at(f, site, args[0]->k == VK_UNKNOWN && args[0]->reason ? args[0]->reason
		                                                                       : "int() of a value not known");
	case BI_FLOAT:
		if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "float(<a device tensor>)", site);
		if (nargs == 1 && as_num(args[0], &x))
			return v_float(in->a, x);
		if (nargs == 1 && args[0]->k == VK_STR) {
			char *end;
			double d = strtod(args[0]->u.str.s, &end);

			if (*args[0]->u.str.s && !*end)
				return v_float(in->a, d);
		}
		return unknown_at(f, site, "float() of a value not known");
	case BI_BOOL:
		if (nargs == 0)
			return v_bool(in->a, 0);
		if (is_tensorish(args[0]) && args[0]->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "bool(<a device tensor>)", site);
		ok = value_truth(args[0]);
		return ok < 0 ? unknown_at(f, site, "bool() of a value not known") : v_bool(in->a, ok);
	case BI_STR:
		if (nargs == 1 && args[0]->k == VK_STR)
			return args[0];
		if (nargs == 1 && args[0]->k == VK_INT)
			return v_str(in->a, afmt(in, "%lld", args[0]->u.i));
		return unknown_at(f, site, "str() of a value not known");
	case BI_LIST: case BI_TUPLE: case BI_SET:
		if (nargs == 0)
			return v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, 0);
		if (!iter_items(f, args[0], &items))
			return seq_from(in, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, items);
		if ((args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->n >= 1 &&
		    fn->u.bi.id != BI_SET) {
			/* length unknown: keep the representative item */
			value_t *r = v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, 1);

			vseq_push(in->a, r->u.seq, args[0]->u.seq->items[0]);
			r->u.seq->unk_expr = args[0]->u.seq->unk_expr;
			r->u.seq->unk_reason = args[0]->u.seq->unk_reason;
			return r;
		}
		return unknown_at(f, site, "a sequence of items not known");
	case BI_DICT: {
		value_t *r = v_dict(in->a);

		if (nargs == 1 && args[0]->k == VK_DICT)
			for (i = 0; i < args[0]->u.dict->n; i++)
				vdict_set(in->a, r->u.dict, args[0]->u.dict->keys[i], args[0]->u.dict->vals[i]);
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	case BI_ENUMERATE:
		if (f->mode == M_FWD && nargs == 1 && args[0]->k == VK_INST && args[0]->u.inst->mod == VM_CONTAINER) {
			/* enumerate(self.blocks) in a forward: read like the
			 * container itself, one pass per group, index unknown */
			struct vinst *l = new_inst(in);

			*l = *args[0]->u.inst;
			l->attrs = vdict_new(in->a);
			for (i = 0; i < args[0]->u.inst->attrs->n; i++)
				vdict_set(in->a, l->attrs, args[0]->u.inst->attrs->keys[i], args[0]->u.inst->attrs->vals[i]);
			vdict_sets(in->a, l->attrs, "__enumerate__", v_bool(in->a, 1));
			return mk_inst_value(in, l);
		}
		if (nargs >= 1 && is_loader(args[0])) {
			/* enumerate(loader): batches with an index */
			struct vinst *l = new_inst(in);

			*l = *args[0]->u.inst;
			l->attrs = vdict_new(in->a);
			for (i = 0; i < args[0]->u.inst->attrs->n; i++)
				vdict_set(in->a, l->attrs, args[0]->u.inst->attrs->keys[i], args[0]->u.inst->attrs->vals[i]);
			vdict_sets(in->a, l->attrs, "__enumerate__", v_bool(in->a, 1));
			return mk_inst_value(in, l);
		}
		if (nargs >= 1 && !iter_items(f, args[0], &items)) {
			value_t *r = v_seq(in->a, VK_LIST, items->n);

			for (i = 0; i < items->n; i++) {
				value_t *p = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, p->u.seq, v_int(in->a, (long long)i));
				vseq_push(in->a, p->u.seq, items->items[i]);
				vseq_push(in->a, r->u.seq, p);
			}
			return r;
		}
		return unknown_at(f, site, "enumerate() of items not known");
	case BI_ZIP: {
		struct vseq **all = xcalloc(nargs + 1, sizeof *all);
		size_t n = (size_t)-1;
		value_t *r;

		/* zip over a DataLoader, a generator or a sequence of unknown
		 * length (with range()s and lists beside): one representative
		 * tuple, length unknown */
		{
			value_t **rep = xcalloc(nargs + 1, sizeof *rep);
			int unk = 0, zok = nargs > 0;

			for (i = 0; zok && i < nargs; i++) {
				value_t *a = args[i];

				if ((a->k == VK_LIST || a->k == VK_TUPLE) && a->u.seq->n >= 1) {
					rep[i] = a->u.seq->items[0];
					unk |= a->u.seq->unk_reason != NULL;
				} else if (a->k == VK_RANGE) {
					rep[i] = v_unknown(in->a, "the index", "a loop counter");
				} else if (is_loader(a)) {
					const struct ast_hdr *an = AST_IS(site, Call) && AST_AS(site, Call)->args.n > i
					                           ? AST_AS(site, Call)->args.items[i] : site;

					rep[i] = loader_batch(f, a->u.inst, f->mode != M_FWD ? afmt(in, "zip(..., %s)", text_of(f, an)) : NULL,
					                      site);
					unk = 1;
				} else if (is_gen_value(a)) {
					rep[i] = gen_next(f, a->u.inst, site);
					unk = 1;
				} else {
					zok = 0;
				}
			}
			if (zok && unk) {
				value_t *t = v_seq(in->a, VK_TUPLE, nargs);

				r = v_seq(in->a, VK_LIST, 1);
				for (i = 0; i < nargs; i++)
					vseq_push(in->a, t->u.seq, rep[i]);
				vseq_push(in->a, r->u.seq, t);
				r->u.seq->unk_expr = text_of(f, site);
				r->u.seq->unk_reason = "zip() over an iterable whose length is not known";
				free(rep);
				free(all);
				return r;
			}
			free(rep);
		}
		for (i = 0; i < nargs; i++) {
			if (iter_items(f, args[i], &all[i])) {
				free(all);
				return unknown_at(f, site, "zip() of items not known");
			}
			if (all[i]->n < n)
				n = all[i]->n;
		}
		if (nargs == 0)
			n = 0;
		r = v_seq(in->a, VK_LIST, n);
		for (i = 0; i < n; i++) {
			value_t *t = v_seq(in->a, VK_TUPLE, nargs);
			size_t k;

			for (k = 0; k < nargs; k++)
				vseq_push(in->a, t->u.seq, all[k]->items[i]);
			vseq_push(in->a, r->u.seq, t);
		}
		free(all);
		return r;
	}
	case BI_MIN: return minmax(f, args, nargs, 0, site);
	case BI_MAX: return minmax(f, args, nargs, 1, site);
	case BI_SUM: {
		double tot = 0;
		int all_int = 1;

		if (nargs >= 1 && !iter_items(f, args[0], &items)) {
			for (i = 0; i < items->n; i++) {
				if (!as_num(items->items[i], &x))
					return unknown_at(f, site, "sum() of values not known");
				if (items->items[i]->k == VK_FLOAT)
					all_int = 0;
				tot += x;
			}
			return all_int ? v_int(in->a, (long long)tot) : v_float(in->a, tot);
		}
		return unknown_at(f, site, "sum() of values not known");
	}
	case BI_ABS:
		if (nargs == 1 && args[0]->k == VK_INT)
			return v_int(in->a, llabs(args[0]->u.i));
		if (nargs == 1 && as_num(args[0], &x))
			return v_float(in->a, fabs(x));
		return unknown_at(f, site, "abs() of a value not known");
	case BI_ROUND:
		if (nargs == 1 && as_num(args[0], &x) && fabs(x) < 9e15)
			return v_int(in->a, (long long)llround(x));
		return unknown_at(f, site, "round() of a value not known");
	case BI_PRINT:
		if (fn->u.bi.self == NULL && site) {
			for (i = 0; i < nargs; i++) {
				if (args[i]->k == VK_TENSOR && args[i]->dev == DEV_DEVICE)
					sev(f, SEV_SYNC, "print(<a device tensor>)", site);
				format_hook(f, args[i], 's', site);
			}
			if (f->mode != M_FWD)
				sev(f, SEV_LOG, "print", site);
		}
		return v_none(in->a);
	case BI_OPT_STEP: {
		/* LBFGS & co: step(closure) re-evaluates the loss, backward included */
		value_t *closure = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "closure") : NULL;

		if (closure && closure->k == VK_FUNC && f->mode != M_FWD)
			return call_function(f, closure->u.fn, NULL, NULL, 0, NULL, f->mode, f->ev, site);
		return v_none(in->a);
	}
	case BI_ISINSTANCE:
		if (nargs == 2) {
			struct vseq one, *types = &one;
			value_t *tv = args[1];
			int r = 0, unk = 0;

			if (tv->k == VK_TUPLE) {
				types = tv->u.seq;
			} else {
				one.items = &args[1];
				one.n = 1;
			}
			for (i = 0; i < types->n; i++) {
				int t = isinstance_of(in, args[0], types->items[i]);

				if (t > 0)
					r = 1;
				else if (t < 0)
					unk = 1;
			}
			if (r)
				return v_bool(in->a, 1);
			if (!unk)
				return v_bool(in->a, 0);
		}
		return unknown_at(f, site, "isinstance() of something ecg does not know the type of");
	case BI_GETATTR:
		if (nargs >= 2 && args[1]->k == VK_STR) {
			value_t *r = getattr_v(f, args[0], args[1]->u.str.s, site);

			if (r->k == VK_UNKNOWN && nargs >= 3 && args[0]->k != VK_UNKNOWN)
				return args[2];
			return r;
		}
		return unknown_at(f, site, "getattr() with a name not known");
	case BI_SETATTR:
		if (nargs == 3 && args[1]->k == VK_STR)
			set_attr(f, args[0], args[1]->u.str.s, args[2]);
		return v_none(in->a);
	case BI_HASATTR:
		if (nargs == 2 && args[1]->k == VK_STR && args[0]->k != VK_EXT && args[0]->k != VK_UNKNOWN) {
			value_t *r = getattr_v(f, args[0], args[1]->u.str.s, site);

			return v_bool(in->a, r->k != VK_UNKNOWN);
		}
		return unknown_at(f, site, "hasattr() of something outside the repository (depends on its version)");
	case BI_SUPER: {
		/* super() inside a method: the next class after the defining one */
		value_t *r;

		if (!f->cls || !f->self)
			return unknown_at(f, site, "super() outside a method");
		r = ast_arena_alloc(in->a, sizeof *r);
		r->k = VK_BUILTIN;
		r->u.bi.id = BI_SUPER;
		r->u.bi.self = f->self;
		r->expr = (const char *)f->cls;   /* the class to start after */
		return r;
	}
	case BI_OPEN:
		if (f->mode != M_FWD && !in->ev.write &&
		    ((nargs >= 2 && args[1]->k == VK_STR && strpbrk(args[1]->u.str.s, "wax")) ||
		     (kw && vdict_gets(kw, "mode") && vdict_gets(kw, "mode")->k == VK_STR &&
		      strpbrk(vdict_gets(kw, "mode")->u.str.s, "wax"))))
			in->ev.write = anchor_at(f, site);
		if (nargs >= 1 && args[0]->k == VK_STR) {
			struct vinst *fo = new_inst(in);

			fo->ext = "io.TextIOWrapper";
			vdict_sets(in->a, fo->attrs, "name", args[0]);
			return mk_inst_value(in, fo);
		}
		return unknown_at(f, site, "open() of a path not known");
	case BI_M_FILE_READ: {
		value_t *nm = vdict_gets(self->u.inst->attrs, "name");
		struct sfile *sf = NULL;
		value_t *r;

		if (nm && nm->k == VK_STR) {
			sf = prog_file(in->prog, nm->u.str.s);
			if (!sf && in->prog->entry_dir[0]) {
				char *p = xasprintf("%s%s", in->prog->entry_dir, nm->u.str.s);

				sf = prog_file(in->prog, p);
				free(p);
			}
		}
		if (!sf)
			return unknown_at(f, site, "the text of a file ecg does not read");
		prog_ensure(in->prog, sf);
		r = v_strn(in->a, sf->src, sf->len);
		r->expr = (const char *)sf;  /* marks "the text of this repo file" */
		r->reason = "__ecg_file_text__";
		return r;
	}
	case BI_EXEC:
		if (nargs >= 1 && args[0]->k == VK_STR && args[0]->reason &&
		    !strcmp(args[0]->reason, "__ecg_file_text__")) {
			struct sfile *sf = (struct sfile *)args[0]->expr;
			struct frame cf;

			if (!sf->mod)
				return v_none(in->a);
			if (in->depth >= MAX_DEPTH) {
				/* a configurator that exec()s itself */
				note(in, anchor_at(f, site), "exec() nested too deeply",
				     "the exec()'d file runs exec() again; not followed further");
				return v_none(in->a);
			}
			cf = *f;
			cf.file = sf;
			cf.locals = f->locals;
			cf.qualname = NULL;
			cf.config_exec = 1;
			in->depth++;
			(void)exec_block(&cf, &sf->mod->body);
			in->depth--;
			return v_none(in->a);
		}
		note(in, anchor_at(f, site), "exec() of code ecg does not read", "only exec(open(<repo file>).read()) is followed");
		return v_none(in->a);
	case BI_SORTED: case BI_REVERSED:
		if (nargs >= 1 && !iter_items(f, args[0], &items)) {
			value_t *r = seq_from(in, VK_LIST, items);

			if (fn->u.bi.id == BI_REVERSED)
				for (i = 0; i < r->u.seq->n / 2; i++) {
					value_t *t = r->u.seq->items[i];

					r->u.seq->items[i] = r->u.seq->items[r->u.seq->n - 1 - i];
					r->u.seq->items[r->u.seq->n - 1 - i] = t;
				}
			return r;
		}
		return unknown_at(f, site, "the items are not known");
	case BI_ANY: case BI_ALL:
		if (nargs == 1 && !iter_items(f, args[0], &items)) {
			int any = 0, all = 1;

			for (i = 0; i < items->n; i++) {
				int t = value_truth(items->items[i]);

				if (t < 0)
					return unknown_at(f, site, "truth of values not known");
				any |= t;
				all &= t;
			}
			return v_bool(in->a, fn->u.bi.id == BI_ANY ? any : all);
		}
		return unknown_at(f, site, "the items are not known");
	case BI_STATICMETHOD: case BI_CLASSMETHOD: case BI_PROPERTY:
		return nargs ? args[0] : v_none(in->a);
	case BI_GLOBALS: {
		value_t *r = ast_arena_alloc(in->a, sizeof *r);

		r->k = VK_DICT;
		r->u.dict = f->globals->dict;   /* the namespace itself: writes go through */
		return r;
	}
	case BI_M_LIST_APPEND:
		if (nargs == 1 && (self->k == VK_LIST)) {
			vseq_push(in->a, self->u.seq, args[0]);
			if (f->mult_reason && !self->u.seq->unk_reason) {
				self->u.seq->unk_expr = f->mult_expr;
				self->u.seq->unk_reason = f->mult_reason;
			} else if (f->mode == M_FWD && f->loop_serial && self->u.seq->born != f->loop_serial &&
			           !self->u.seq->unk_reason) {
				/* a list made outside a loop that is read once:
				 * one append stands for every iteration's */
				self->u.seq->unk_expr = f->mult_expr;
				self->u.seq->unk_reason = "appended to in a loop that ecg reads once";
			}
		}
		return v_none(in->a);
	case BI_M_LIST_EXTEND:
		if (nargs == 1 && self->k == VK_LIST) {
			if (!iter_items(f, args[0], &items)) {
				for (i = 0; i < items->n; i++)
					vseq_push(in->a, self->u.seq, items->items[i]);
			} else {
				self->u.seq->unk_expr = args[0]->expr;
				self->u.seq->unk_reason = "extended with items not known";
			}
			if (f->mult_reason && !self->u.seq->unk_reason) {
				self->u.seq->unk_expr = f->mult_expr;
				self->u.seq->unk_reason = f->mult_reason;
			}
		}
		return v_none(in->a);
	case BI_M_LIST_INSERT:
		if (nargs == 2 && self->k == VK_LIST) {
			long long at = as_int(args[0], &ok);
			struct vseq *s = self->u.seq;

			vseq_push(in->a, s, args[1]);
			if (ok) {
				if (at < 0)
					at += (long long)s->n - 1;
				if (at < 0)
					at = 0;
				if ((size_t)at < s->n - 1) {
					memmove(s->items + at + 1, s->items + at, (s->n - 1 - (size_t)at) * sizeof *s->items);
					s->items[at] = args[1];
				}
			}
		}
		return v_none(in->a);
	case BI_M_LIST_POP:
		if (self->k == VK_LIST && self->u.seq->n > 0 && !self->u.seq->unk_reason) {
			long long at = nargs ? as_int(args[0], &ok) : -1;
			struct vseq *s = self->u.seq;
			value_t *r;

			if (nargs && !ok)
				return unknown_at(f, site, "pop() at an index not known");
			if (at < 0)
				at += (long long)s->n;
			if (at < 0 || (size_t)at >= s->n)
				return unknown_at(f, site, "pop() out of range");
			r = s->items[at];
			memmove(s->items + at, s->items + at + 1, (s->n - 1 - (size_t)at) * sizeof *s->items);
			s->n--;
			return r;
		}
		return unknown_at(f, site, "pop() from a list not known");
	case BI_M_DICT_GET:
		if (self->k == VK_DICT && nargs >= 1) {
			value_t *r = vdict_get(self->u.dict, args[0]);

			return r ? r : nargs >= 2 ? args[1] : v_none(in->a);
		}
		if (self->k == VK_INST && self->u.inst->ext && !strcmp(self->u.inst->ext, "os.environ"))
			return unknown_at(f, site, "an environment variable at run time");
		return unknown_at(f, site, "get() on a mapping not known");
	case BI_M_DICT_ITEMS: case BI_M_DICT_KEYS: case BI_M_DICT_VALUES:
		if (self->k == VK_DICT) {
			value_t *r = v_seq(in->a, VK_LIST, self->u.dict->n);

			for (i = 0; i < self->u.dict->n; i++) {
				if (fn->u.bi.id == BI_M_DICT_ITEMS) {
					value_t *p = v_seq(in->a, VK_TUPLE, 2);

					vseq_push(in->a, p->u.seq, self->u.dict->keys[i]);
					vseq_push(in->a, p->u.seq, self->u.dict->vals[i]);
					vseq_push(in->a, r->u.seq, p);
				} else {
					vseq_push(in->a, r->u.seq, fn->u.bi.id == BI_M_DICT_KEYS ? self->u.dict->keys[i]
					                                                          : self->u.dict->vals[i]);
				}
			}
			return r;
		}
		return unknown_at(f, site, "a mapping not known");
	case BI_M_DICT_UPDATE:
		if (self->k == VK_DICT) {
			if (nargs == 1 && args[0]->k == VK_DICT)
				for (i = 0; i < args[0]->u.dict->n; i++)
					vdict_set(in->a, self->u.dict, args[0]->u.dict->keys[i], args[0]->u.dict->vals[i]);
			if (kw)
				for (i = 0; i < kw->n; i++)
					vdict_set(in->a, self->u.dict, kw->keys[i], kw->vals[i]);
		}
		return v_none(in->a);
	case BI_M_DICT_POP:
		if (self->k == VK_DICT && nargs >= 1) {
			value_t *r = vdict_get(self->u.dict, args[0]);

			if (r) {
				vdict_del(self->u.dict, args[0]);
				return r;
			}
			return nargs >= 2 ? args[1] : unknown_at(f, site, "pop() of a missing key");
		}
		return unknown_at(f, site, "pop() on a mapping not known");
	case BI_M_DICT_SETDEFAULT:
		if (self->k == VK_DICT && nargs >= 1) {
			value_t *r = vdict_get(self->u.dict, args[0]);

			if (!r) {
				r = nargs >= 2 ? args[1] : v_none(in->a);
				vdict_set(in->a, self->u.dict, args[0], r);
			}
			return r;
		}
		return unknown_at(f, site, "setdefault() on a mapping not known");
	case BI_M_COPY:
		if (self->k == VK_DICT) {
			value_t *r = v_dict(in->a);

			for (i = 0; i < self->u.dict->n; i++)
				vdict_set(in->a, r->u.dict, self->u.dict->keys[i], self->u.dict->vals[i]);
			return r;
		}
		if (self->k == VK_LIST)
			return seq_from(in, VK_LIST, self->u.seq);
		return unknown_at(f, site, "copy() of something not known");
	case BI_M_STR_LOWER: case BI_M_STR_UPPER: {
		char *t = xstrdup(self->u.str.s), *c;
		value_t *r;

		for (c = t; *c; c++)
			*c = fn->u.bi.id == BI_M_STR_LOWER ? (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c)
			                                   : (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
		r = v_str(in->a, t);
		free(t);
		return r;
	}
	case BI_M_STR_STARTSWITH: case BI_M_STR_ENDSWITH:
		if (nargs == 1 && args[0]->k == VK_STR) {
			size_t n = args[0]->u.str.len, L = self->u.str.len;

			if (n > L)
				return v_bool(in->a, 0);
			return v_bool(in->a, fn->u.bi.id == BI_M_STR_STARTSWITH
			                         ? !memcmp(self->u.str.s, args[0]->u.str.s, n)
			                         : !memcmp(self->u.str.s + L - n, args[0]->u.str.s, n));
		}
		return unknown_at(f, site, "a string test with a value not known");
	case BI_M_STR_JOIN:
		if (nargs == 1 && !iter_items(f, args[0], &items)) {
			buf_t b;
			value_t *r;

			buf_init(&b);
			for (i = 0; i < items->n; i++) {
				if (items->items[i]->k != VK_STR) {
					buf_free(&b);
					return unknown_at(f, site, "a join of values not known");
				}
				if (i)
					buf_add(&b, self->u.str.s, self->u.str.len);
				buf_add(&b, items->items[i]->u.str.s, items->items[i]->u.str.len);
			}
			r = v_strn(in->a, b.buf, b.len);
			buf_free(&b);
			return r;
		}
		return unknown_at(f, site, "a join of values not known");
	case BI_M_STR_STRIP:
		return self;
	case BI_M_STR_SPLIT: {
		const char *str = self->u.str.s, *sep = NULL;
		size_t seplen = 0, L = self->u.str.len, pos = 0;
		long long maxsplit;
		value_t *r = v_seq(in->a, VK_LIST, 0);

		if (nargs >= 1 && args[0]->k == VK_STR && args[0]->u.str.len) {
			sep = args[0]->u.str.s;
			seplen = args[0]->u.str.len;
		} else if (nargs >= 1 && args[0]->k != VK_NONE) {
			return unknown_at(f, site, "split() with a separator not known");
		}
		{
			value_t *ms = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "maxsplit") : NULL;

			if (ms && ms->k != VK_INT)
				return unknown_at(f, site, "split() with a maxsplit not known");
			maxsplit = ms ? ms->u.i : -1;
		}
		if (sep) {
			for (;;) {
				const char *hit = pos <= L && maxsplit != 0 ? strstr(str + pos, sep) : NULL;

				if (maxsplit > 0)
					maxsplit--;
				if (!hit) {
					vseq_push(in->a, r->u.seq, v_strn(in->a, str + pos, L - pos));
					break;
				}
				vseq_push(in->a, r->u.seq, v_strn(in->a, str + pos, (size_t)(hit - (str + pos))));
				pos = (size_t)(hit - str) + seplen;
			}
		} else {
			while (pos < L) {
				size_t st;

				while (pos < L && (str[pos] == ' ' || str[pos] == '\t' || str[pos] == '\n'))
					pos++;
				if (pos >= L)
					break;
				st = pos;
				if (maxsplit == 0) {
					/* the rest, as it is */
					vseq_push(in->a, r->u.seq, v_strn(in->a, str + st, L - st));
					break;
				}
				if (maxsplit > 0)
					maxsplit--;
				while (pos < L && !(str[pos] == ' ' || str[pos] == '\t' || str[pos] == '\n'))
					pos++;
				vseq_push(in->a, r->u.seq, v_strn(in->a, str + st, pos - st));
			}
		}
		return r;
	}
	case BI_M_STR_PARTITION:
		if (nargs == 1 && args[0]->k == VK_STR && args[0]->u.str.len) {
			const char *hit = strstr(self->u.str.s, args[0]->u.str.s);
			value_t *t = v_seq(in->a, VK_TUPLE, 3);

			if (!hit) {
				vseq_push(in->a, t->u.seq, self);
				vseq_push(in->a, t->u.seq, v_str(in->a, ""));
				vseq_push(in->a, t->u.seq, v_str(in->a, ""));
			} else {
				vseq_push(in->a, t->u.seq, v_strn(in->a, self->u.str.s, (size_t)(hit - self->u.str.s)));
				vseq_push(in->a, t->u.seq, args[0]);
				vseq_push(in->a, t->u.seq, v_str(in->a, hit + args[0]->u.str.len));
			}
			return t;
		}
		return unknown_at(f, site, "partition() with a separator not known");
	case BI_M_STR_REPLACE:
		if (nargs == 2 && args[0]->k == VK_STR && args[1]->k == VK_STR && args[0]->u.str.len) {
			buf_t b;
			const char *p = self->u.str.s, *hit;
			value_t *r;

			buf_init(&b);
			while ((hit = strstr(p, args[0]->u.str.s))) {
				buf_add(&b, p, (size_t)(hit - p));
				buf_add(&b, args[1]->u.str.s, args[1]->u.str.len);
				p = hit + args[0]->u.str.len;
			}
			buf_addstr(&b, p);
			r = v_strn(in->a, b.buf, b.len);
			buf_free(&b);
			return r;
		}
		return unknown_at(f, site, "replace() with values not known");
	case BI_M_STR_FORMAT:
		return unknown_at(f, site, "string formatting is not followed");
	case BI_M_ARGP_ADD:
		argp_add(f, self, args, nargs, kw, site);
		return v_none(in->a);
	case BI_M_ARGP_GROUP:
		return self;
	case BI_M_ARGP_SETDEF: {
		value_t *opts = vdict_gets(self->u.inst->attrs, "__ecg_opts__");

		for (i = 0; kw && opts && i < kw->n; i++) {
			size_t k;

			for (k = 0; k < opts->u.seq->n; k++) {
				struct vdict *o = opts->u.seq->items[k]->u.dict;

				if (value_key_eq(vdict_gets(o, "dest"), kw->keys[i]))
					vdict_sets(in->a, o, "default", kw->vals[i]);
			}
		}
		return v_none(in->a);
	}
	case BI_M_ARGP_PARSE: {
		value_t *nsv = argp_parse_args(f, self, site);

		if (site && AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Attribute) &&
		    !strcmp(AST_AS(AST_AS(site, Call)->func, Attribute)->attr, "parse_known_args")) {
			value_t *t = v_seq(in->a, VK_TUPLE, 2);

			vseq_push(in->a, t->u.seq, nsv);
			vseq_push(in->a, t->u.seq, v_seq(in->a, VK_LIST, 0));
			return t;
		}
		return nsv;
	}
	case BI_M_MOD_ADD_MODULE:
		if (nargs == 2 && args[0]->k == VK_STR)
			set_attr(f, self, args[0]->u.str.s, args[1]);
		return v_none(in->a);
	case BI_M_MOD_APPEND:
		if (nargs == 1 && args[0]->k == VK_INST && self->k == VK_INST) {
			struct vinst *m = self->u.inst;

			vinst_add_child(in->a, m, afmt(in, "%zu", m->nchildren), args[0]->u.inst);
			if (f->mult_reason && !vdict_gets(m->attrs, "__ecg_len_unknown__"))
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, f->mult_expr, f->mult_reason));
		}
		return v_none(in->a);
	case BI_M_MOD_EXTEND:
		if (nargs == 1 && self->k == VK_INST) {
			struct vinst *m = self->u.inst;

			if (!iter_items(f, args[0], &items)) {
				for (i = 0; i < items->n; i++)
					if (items->items[i]->k == VK_INST)
						vinst_add_child(in->a, m, afmt(in, "%zu", m->nchildren), items->items[i]->u.inst);
			} else {
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, args[0]->expr, "extended with modules not known"));
			}
		}
		return v_none(in->a);
	case BI_M_MOD_INSERT:
		return v_none(in->a);
	case BI_FN_APPLY: {
		/* MyFunction.apply(x): its forward now, its backward in the
		 * backward pass (both read, collectives in each recorded) */
		struct vclass *c = self->u.cls;
		value_t *fwd = class_lookup(c, "forward", NULL), *bwd = class_lookup(c, "backward", NULL);
		value_t **all = xmalloc((nargs + 1) * sizeof *all);
		value_t *r = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);

		all[0] = v_unknown(in->a, "ctx", "autograd's context object");
		for (i = 0; i < nargs; i++)
			all[i + 1] = args[i];
		if (fwd && fwd->k == VK_FUNC)
			r = call_function(f, fwd->u.fn, NULL, all, nargs + 1, kw, f->mode, f->ev, site);
		if (bwd && bwd->k == VK_FUNC) {
			value_t *g[2];
			int ob = f->in_backward;
			struct fseq sink;

			memset(&sink, 0, sizeof sink);
			g[0] = all[0];
			g[1] = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
			f->in_backward = 1;
			/* the backward's ops are not this forward's: they go nowhere */
			(void)call_function(f, bwd->u.fn, NULL, g, 2, NULL, f->mode, &sink, site);
			f->in_backward = ob;
		}
		free(all);
		return r;
	}
	case BI_M_MOD_SELF:
		return self;
	case BI_M_MOD_TO:
		if (!(nargs >= 1 && dev_is_host(args[0]) == 1) &&
		    !(nargs >= 1 && args[0]->k == VK_EXT && !strncmp(args[0]->u.ext, "torch.float", 11)) &&
		    !(nargs == 0 && kw && !vdict_gets(kw, "device"))) {
			struct sched_ev *e;

			in->gpu = 1;
			if (f->mode != M_FWD && (e = sev(f, SEV_H2D, "model.to(device): parameters and buffers", site))) {
				e->pinned = 0;
				e->non_blocking = kw_bool(kw, "non_blocking");
			}
		}
		return self;
	case BI_ITER:
		return nargs ? args[0] : unknown_at(f, site, "iter() of nothing");
	case BI_NEXT:
		if (nargs >= 1 && is_gen_value(args[0]))
			return gen_next(f, args[0]->u.inst, site);
		if (nargs >= 1 && is_loader(args[0]))
			return loader_batch(f, args[0]->u.inst, "next(<DataLoader>)", site);
		return unknown_at(f, site, "next() of an iterator ecg does not follow");
	case BI_M_MOD_REGISTER_PARAMETER:
		if (nargs >= 2 && args[0]->k == VK_STR && self->k == VK_INST) {
			value_t *p = args[1];

			if (p->k == VK_TENSOR && !p->is_param) {
				p = v_copy(in->a, p);
				p->is_param = 1;
			}
			vdict_sets(in->a, self->u.inst->attrs, args[0]->u.str.s, p);
		}
		return v_none(in->a);
	case BI_M_MOD_REGISTER_BUFFER:
		if (nargs >= 2 && args[0]->k == VK_STR && self->k == VK_INST)
		{
			value_t *b = v_tensor(in->a);

			b->shape = shape_of(args[1]);
			vdict_sets(in->a, self->u.inst->attrs, args[0]->u.str.s, b);
		}
		return v_none(in->a);
	case BI_M_MOD_CHILDREN:
		return unknown_at(f, site, "an iterator over modules is not followed");
	default:
		break;
	}
	(void)kw;
	return unknown_at(f, site, "a builtin ecg does not follow");
}

/* ------------------------------------------------------------------ attributes */

static const char *const tensor_props[] = {
	"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "grad", "data",
	"layout", "is_leaf", "names", "itemsize", "nbytes", "grad_fn", NULL
};

static int is_tensor_prop(const char *name)
{
	size_t i;

	for (i = 0; tensor_props[i]; i++)
		if (!strcmp(tensor_props[i], name))
			return 1;
	return 0;
}

static value_t *bound(struct interp *in, value_t *fnv, value_t *self)
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
		{ "train", BI_M_MOD_SELF }, { "eval", BI_M_MOD_SELF }, { "half", BI_M_MOD_SELF },
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

static value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
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
		if (!strcmp(obj->u.ext, "sys") && !strcmp(name, "argv")) {
			value_t *r = v_seq(in->a, VK_LIST, 0);
			size_t i;

			vseq_push(in->a, r->u.seq, v_str(in->a, in->entry_path ? in->entry_path : "main.py"));
			if (in->argv) {
				for (i = 0; i < in->argv->u.seq->n; i++)
					vseq_push(in->a, r->u.seq, in->argv->u.seq->items[i]);
			}
			return r;
		}
		if (!strcmp(obj->u.ext, "os") && !strcmp(name, "environ")) {
			struct vinst *env = new_inst(in);

			env->ext = "os.environ";
			return mk_inst_value(in, env);
		}
		return v_ext(in->a, canon_ext(in, adot(in, obj->u.ext, name)));
	case VK_TENSOR:
		if ((!strcmp(name, "shape") || !strcmp(name, "ndim")) && (v = size_read(f, obj, name, NULL, site)))
			return v;
		if (is_tensor_prop(name))
			return unknown_at(f, site, "a tensor attribute read at run time");
		if (!strcmp(name, "T") || !strcmp(name, "mT") || !strcmp(name, "H")) {
			const struct vshape *s = shape_of(obj);

			emit_op(f, adot(in, "Tensor", name), site);
			v = v_tensor(in->a);
			if (s && (s->nd == 2 || (name[0] == 'm' && s->nd >= 2) || (name[0] == 'T' && s->nd <= 2))) {
				struct vshape *t = shape_new(in->a, s->nd);

				*t = *s;
				if (s->nd >= 2) {
					t->n[s->nd - 1] = s->n[s->nd - 2];
					t->sym[s->nd - 1] = s->sym[s->nd - 2];
					t->n[s->nd - 2] = s->n[s->nd - 1];
					t->sym[s->nd - 2] = s->sym[s->nd - 1];
				}
				v->shape = t;
			}
			return v;
		}
		v = v_ext(in->a, adot(in, "Tensor", name));
		v->recv = obj;
		return v;
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
		if ((c = vinst_child(m, name)))
			return mk_inst_value(in, c);
		if ((v = vdict_gets(m->attrs, name)))
			return v;
		if (m->cls && (v = class_lookup(m->cls, name, &owner))) {
			if (v->k == VK_FUNC && !v->u.fn->is_static) {
				if (v->u.fn->is_property)
					return call_function(f, v->u.fn, obj, NULL, 0, NULL, f->mode, f->ev, site);
				return bound(in, v, v->u.fn->is_classmethod ? mk_inst_value(in, m) : obj);
			}
			return v;
		}
		if (is_argparser(obj)) {
			if (!strcmp(name, "add_argument"))
				return mk_builtin(in, BI_M_ARGP_ADD, obj);
			if (!strcmp(name, "parse_args") || !strcmp(name, "parse_known_args"))
				return mk_builtin(in, BI_M_ARGP_PARSE, obj);
			if (!strcmp(name, "add_argument_group") || !strcmp(name, "add_mutually_exclusive_group"))
				return mk_builtin(in, BI_M_ARGP_GROUP, obj);
			if (!strcmp(name, "set_defaults"))
				return mk_builtin(in, BI_M_ARGP_SETDEF, obj);
		}
		if (m->ext && !strncmp(m->ext, "torch.optim.", 12) && (!strcmp(name, "step") || !strcmp(name, "zero_grad"))) {
			if (f->mode != M_FWD) {
				if (!strcmp(name, "step") && !in->ev.optimizer_step)
					in->ev.optimizer_step = anchor_at(f, site);
				sev(f, !strcmp(name, "step") ? SEV_OPT_STEP : SEV_ZERO_GRAD,
				    !strcmp(name, "step") ? "optimizer.step()" : "optimizer.zero_grad()", site);
			}
			return mk_builtin(in, !strcmp(name, "step") ? BI_OPT_STEP : BI_PRINT, NULL);
		}
		if (m->ext && !strcmp(m->ext, "io.TextIOWrapper") && !strcmp(name, "read"))
			return mk_builtin(in, BI_M_FILE_READ, obj);
		if (m->ext && !strcmp(m->ext, "os.environ") && (!strcmp(name, "get") || !strcmp(name, "setdefault")))
			return mk_builtin(in, BI_M_DICT_GET, obj);
		if (m->mod != VM_NONE) {
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
		if (!strcmp(name, "append")) return mk_builtin(in, BI_M_LIST_APPEND, obj);
		if (!strcmp(name, "extend")) return mk_builtin(in, BI_M_LIST_EXTEND, obj);
		if (!strcmp(name, "insert")) return mk_builtin(in, BI_M_LIST_INSERT, obj);
		if (!strcmp(name, "pop")) return mk_builtin(in, BI_M_LIST_POP, obj);
		if (!strcmp(name, "copy")) return mk_builtin(in, BI_M_COPY, obj);
		break;
	case VK_DICT:
		if (!strcmp(name, "get")) return mk_builtin(in, BI_M_DICT_GET, obj);
		if (!strcmp(name, "items")) return mk_builtin(in, BI_M_DICT_ITEMS, obj);
		if (!strcmp(name, "keys")) return mk_builtin(in, BI_M_DICT_KEYS, obj);
		if (!strcmp(name, "values")) return mk_builtin(in, BI_M_DICT_VALUES, obj);
		if (!strcmp(name, "update")) return mk_builtin(in, BI_M_DICT_UPDATE, obj);
		if (!strcmp(name, "pop")) return mk_builtin(in, BI_M_DICT_POP, obj);
		if (!strcmp(name, "setdefault")) return mk_builtin(in, BI_M_DICT_SETDEFAULT, obj);
		if (!strcmp(name, "copy")) return mk_builtin(in, BI_M_COPY, obj);
		/* attribute-style config dicts (EasyDict, OmegaConf) */
		if ((v = vdict_gets(obj->u.dict, name)))
			return v;
		break;
	case VK_STR:
		if (!strcmp(name, "format")) return mk_builtin(in, BI_M_STR_FORMAT, obj);
		if (!strcmp(name, "join")) return mk_builtin(in, BI_M_STR_JOIN, obj);
		if (!strcmp(name, "split")) return mk_builtin(in, BI_M_STR_SPLIT, obj);
		if (!strcmp(name, "lower")) return mk_builtin(in, BI_M_STR_LOWER, obj);
		if (!strcmp(name, "upper")) return mk_builtin(in, BI_M_STR_UPPER, obj);
		if (!strcmp(name, "startswith")) return mk_builtin(in, BI_M_STR_STARTSWITH, obj);
		if (!strcmp(name, "endswith")) return mk_builtin(in, BI_M_STR_ENDSWITH, obj);
		if (!strcmp(name, "replace")) return mk_builtin(in, BI_M_STR_REPLACE, obj);
		if (!strcmp(name, "strip") || !strcmp(name, "lstrip") || !strcmp(name, "rstrip"))
			return mk_builtin(in, BI_M_STR_STRIP, obj);
		if (!strcmp(name, "partition")) return mk_builtin(in, BI_M_STR_PARTITION, obj);
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
				return mk_builtin(in, BI_PRINT, NULL);
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

/* ------------------------------------------------------------------ expressions */

static const char *binop_dunder(enum ast_operator op)
{
	switch (op) {
	case AST_OP_ADD: return "add";
	case AST_OP_SUB: return "sub";
	case AST_OP_MULT: return "mul";
	case AST_OP_MATMULT: return "matmul";
	case AST_OP_DIV: return "truediv";
	case AST_OP_MOD: return "mod";
	case AST_OP_POW: return "pow";
	case AST_OP_LSHIFT: return "lshift";
	case AST_OP_RSHIFT: return "rshift";
	case AST_OP_BITOR: return "or";
	case AST_OP_BITXOR: return "xor";
	case AST_OP_BITAND: return "and";
	case AST_OP_FLOORDIV: return "floordiv";
	}
	return "op";
}

static value_t *num_binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x, y;
	int li = l->k == VK_INT || l->k == VK_BOOL, ri = r->k == VK_INT || r->k == VK_BOOL;

	if (li && ri) {
		long long a = l->k == VK_INT ? l->u.i : l->u.b, b = r->k == VK_INT ? r->u.i : r->u.b, res;

		switch (op) {
		case AST_OP_ADD: if (__builtin_add_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_SUB: if (__builtin_sub_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_MULT: if (__builtin_mul_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_FLOORDIV:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a / b;
			if ((a % b != 0) && ((a < 0) != (b < 0)))
				res--;
			return v_int(in->a, res);
		case AST_OP_MOD:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a % b;
			if (res != 0 && ((res < 0) != (b < 0)))
				res += b;
			return v_int(in->a, res);
		case AST_OP_POW:
			if (b >= 0 && b < 64) {
				long long p = 1;
				int k, of = 0;

				for (k = 0; k < b && !of; k++)
					of = __builtin_mul_overflow(p, a, &p);
				if (!of)
					return v_int(in->a, p);
			}
			break;
		case AST_OP_DIV:
			if (b != 0)
				return v_float(in->a, (double)a / (double)b);
			break;
		case AST_OP_LSHIFT: if (b >= 0 && b < 62 && a >= 0 && a < (1LL << (62 - b))) return v_int(in->a, a << b); break;
		case AST_OP_RSHIFT: if (b >= 0 && b < 64) return v_int(in->a, a >> b); break;
		case AST_OP_BITOR: return v_int(in->a, a | b);
		case AST_OP_BITAND: return v_int(in->a, a & b);
		case AST_OP_BITXOR: return v_int(in->a, a ^ b);
		default: break;
		}
		return unknown_at(f, site, "an integer operation ecg does not compute (overflow or division by zero)");
	}
	if (as_num(l, &x) && as_num(r, &y)) {
		switch (op) {
		case AST_OP_ADD: return v_float(in->a, x + y);
		case AST_OP_SUB: return v_float(in->a, x - y);
		case AST_OP_MULT: return v_float(in->a, x * y);
		case AST_OP_DIV: if (y != 0) return v_float(in->a, x / y); break;
		case AST_OP_POW: return v_float(in->a, pow(x, y));
		case AST_OP_FLOORDIV: if (y != 0) return v_float(in->a, floor(x / y)); break;
		default: break;
		}
	}
	return unknown_at(f, site, "an arithmetic result ecg does not compute");
}

static value_t *binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
                      const struct ast_hdr *site, int inplace)
{
	struct interp *in = f->in;
	size_t i;

	if (is_tensorish(l) || is_tensorish(r) ||
	    (f->mode == M_FWD && ((l->k == VK_UNKNOWN && is_tensorish(r)) || (r->k == VK_UNKNOWN && is_tensorish(l))))) {
		int dev = DEV_UNKNOWN;
		size_t mark = ev_mark(f);

		if (f->mode == M_FWD) {
			if (is_tensorish(l) || l->k == VK_UNKNOWN)
				emit_op(f, afmt(in, "Tensor.__%s%s__", inplace ? "i" : "", binop_dunder(op)), site);
			else
				emit_op(f, afmt(in, "Tensor.__r%s__", binop_dunder(op)), site);
		}
		if (is_tensorish(l))
			dev = l->dev;
		if (is_tensorish(r) && r->dev > dev)
			dev = r->dev;
		{
			value_t *t = v_tensor_dev(in->a, dev, 0);

			t->shape = op == AST_OP_MATMULT ? shape_of_call(in->a, "Tensor.__matmul__", (value_t *[]){ l, r }, 2, NULL)
			                                : shape_binop(in->a, l, r);
			/* a reflected operator (2 * x) takes x first */
			op_io(f, mark, is_tensorish(l) || l->k == VK_UNKNOWN ? (value_t *[]){ l, r } : (value_t *[]){ r, l }, 2,
			      NULL, t);
			return t;
		}
	}
	if (l->k == VK_STR && r->k == VK_STR && op == AST_OP_ADD) {
		buf_t b;
		value_t *v;

		buf_init(&b);
		buf_add(&b, l->u.str.s, l->u.str.len);
		buf_add(&b, r->u.str.s, r->u.str.len);
		v = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && l->k == r->k && op == AST_OP_ADD) {
		value_t *v = seq_from(in, l->k, l->u.seq);

		for (i = 0; i < r->u.seq->n; i++)
			vseq_push(in->a, v->u.seq, r->u.seq->items[i]);
		if (l->u.seq->unk_reason || r->u.seq->unk_reason) {
			v->u.seq->unk_expr = l->u.seq->unk_reason ? l->u.seq->unk_expr : r->u.seq->unk_expr;
			v->u.seq->unk_reason = l->u.seq->unk_reason ? l->u.seq->unk_reason : r->u.seq->unk_reason;
		}
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && r->k == VK_INT && op == AST_OP_MULT &&
	    r->u.i >= 0 && (size_t)r->u.i * l->u.seq->n <= MAX_UNROLL) {
		value_t *v = v_seq(in->a, l->k, 0);
		long long k;

		for (k = 0; k < r->u.i; k++)
			for (i = 0; i < l->u.seq->n; i++)
				vseq_push(in->a, v->u.seq, l->u.seq->items[i]);
		return v;
	}
	if (l->k == VK_DICT && r->k == VK_DICT && op == AST_OP_BITOR) {
		value_t *v = v_dict(in->a);

		for (i = 0; i < l->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, l->u.dict->keys[i], l->u.dict->vals[i]);
		for (i = 0; i < r->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, r->u.dict->keys[i], r->u.dict->vals[i]);
		return v;
	}
	if (value_is_known_scalar(l) && value_is_known_scalar(r) && l->k != VK_STR && r->k != VK_STR &&
	    l->k != VK_NONE && r->k != VK_NONE)
		return num_binop(f, op, l, r, site);
	/* 0 + T, T * 1: still the size T */
	if (op == AST_OP_ADD && l->k == VK_INT && l->u.i == 0 && r->k == VK_UNKNOWN && r->reason == shape_dim_reason)
		return r;
	if ((op == AST_OP_ADD || op == AST_OP_SUB) && r->k == VK_INT && r->u.i == 0 && l->k == VK_UNKNOWN &&
	    l->reason == shape_dim_reason)
		return l;
	if (l->k == VK_STR && op == AST_OP_MOD)
		return unknown_at(f, site, "string formatting is not followed");
	if (f->mode == M_FWD && l->k == VK_UNKNOWN && r->k == VK_UNKNOWN)
		return unknown_at(f, site, "an operation on values not known");
	return unknown_at(f, site, l->k == VK_UNKNOWN && l->reason ? l->reason
	                           : r->k == VK_UNKNOWN && r->reason ? r->reason : "an operation on values not known");
}

static int compare_known(enum ast_cmpop op, value_t *l, value_t *r)
{
	double x, y;

	switch (op) {
	case AST_CMP_IS:
		if (l->k == VK_NONE || r->k == VK_NONE)
			return l->k == r->k;
		if (l->k == VK_BOOL && r->k == VK_BOOL)
			return l->u.b == r->u.b;
		if (l->k == VK_INST && r->k == VK_INST)
			return l->u.inst == r->u.inst;
		return -1;
	case AST_CMP_ISNOT: {
		int t = compare_known(AST_CMP_IS, l, r);

		return t < 0 ? -1 : !t;
	}
	case AST_CMP_EQ: case AST_CMP_NOTEQ: {
		int eq;

		if (!value_is_known_scalar(l) || !value_is_known_scalar(r)) {
			if ((l->k == VK_TUPLE || l->k == VK_LIST) && l->k == r->k)
				eq = value_key_eq(l, r);
			else
				return -1;
		} else if (as_num(l, &x) && as_num(r, &y)) {
			eq = x == y;
		} else {
			eq = value_key_eq(l, r);
		}
		return op == AST_CMP_EQ ? eq : !eq;
	}
	case AST_CMP_LT: case AST_CMP_LTE: case AST_CMP_GT: case AST_CMP_GTE:
		if (!as_num(l, &x) || !as_num(r, &y))
			return -1;
		return op == AST_CMP_LT ? x < y : op == AST_CMP_LTE ? x <= y : op == AST_CMP_GT ? x > y : x >= y;
	case AST_CMP_IN: case AST_CMP_NOTIN: {
		size_t i;
		int found = 0, unk = 0;

		if (r->k == VK_DICT) {
			found = vdict_get(r->u.dict, l) != NULL;
		} else if ((r->k == VK_LIST || r->k == VK_TUPLE) && !r->u.seq->unk_reason) {
			for (i = 0; i < r->u.seq->n; i++) {
				if (value_is_known_scalar(r->u.seq->items[i]) && value_is_known_scalar(l)) {
					if (value_key_eq(r->u.seq->items[i], l))
						found = 1;
				} else {
					unk = 1;
				}
			}
			if (!found && unk)
				return -1;
		} else if (r->k == VK_STR && l->k == VK_STR) {
			found = strstr(r->u.str.s, l->u.str.s) != NULL;
		} else {
			return -1;
		}
		if (!value_is_known_scalar(l) && r->k != VK_DICT)
			return -1;
		return op == AST_CMP_IN ? found : !found;
	}
	}
	return -1;
}

static const char *cmp_dunder(enum ast_cmpop op)
{
	switch (op) {
	case AST_CMP_EQ: return "eq";
	case AST_CMP_NOTEQ: return "ne";
	case AST_CMP_LT: return "lt";
	case AST_CMP_LTE: return "le";
	case AST_CMP_GT: return "gt";
	case AST_CMP_GTE: return "ge";
	default: return NULL;
	}
}

static value_t *eval_compare(struct frame *f, const struct ast_Compare *c)
{
	struct interp *in = f->in;
	value_t *l = eval(f, c->left);
	int result = 1;
	unsigned i;

	for (i = 0; i < c->ops.n && i < c->comparators.n; i++) {
		value_t *r = eval(f, c->comparators.items[i]);
		enum ast_cmpop op = c->ops.items[i];
		int t;

		if ((is_tensorish(l) || is_tensorish(r)) && cmp_dunder(op)) {
			int dev = is_tensorish(l) ? l->dev : DEV_UNKNOWN;
			size_t mark = ev_mark(f);

			if (is_tensorish(r) && r->dev > dev)
				dev = r->dev;
			emit_op(f, afmt(in, "Tensor.__%s__", cmp_dunder(op)), &c->h);
			{
				value_t *t2 = v_tensor_dev(in->a, dev, 0);

				t2->shape = shape_binop(in->a, l, r);
				t2->dt = DT_BOOL;
				op_io(f, mark, (value_t *[]){ l, r }, 2, NULL, t2);
				return t2;
			}
		}
		t = compare_known(op, l, r);
		if (t < 0)
			return unknown_at(f, &c->h, l->k == VK_UNKNOWN && l->reason ? l->reason
			                            : r->k == VK_UNKNOWN && r->reason ? r->reason
			                            : "a comparison of values not known");
		if (!t)
			result = 0;
		l = r;
	}
	return v_bool(in->a, result);
}

/* Evaluate call arguments, expanding *seq and **dict. */
static void eval_args(struct frame *f, const struct ast_Call *c, value_t ***args, size_t *nargs,
                      struct vdict **kw, int *unk_star)
{
	struct interp *in = f->in;
	struct vseq *s = ast_arena_alloc(in->a, sizeof *s);
	unsigned i;

	*kw = NULL;
	*unk_star = 0;
	for (i = 0; i < c->args.n; i++) {
		const struct ast_hdr *a = c->args.items[i];

		if (AST_IS(a, Starred)) {
			value_t *sv = eval(f, AST_AS(a, Starred)->value);
			struct vseq *items = NULL;

			if (!iter_items(f, sv, &items)) {
				size_t k;

				for (k = 0; k < items->n; k++)
					vseq_push(in->a, s, items->items[k]);
			} else if ((sv->k == VK_LIST || sv->k == VK_TUPLE)) {
				size_t k;

				for (k = 0; k < sv->u.seq->n; k++)
					vseq_push(in->a, s, sv->u.seq->items[k]);
				*unk_star = 1;
				vseq_push(in->a, s, v_unknown(in->a, sv->u.seq->unk_expr, sv->u.seq->unk_reason));
			} else {
				*unk_star = 1;
				vseq_push(in->a, s, v_unknown(in->a, text_of(f, a), "*args whose items are not known"));
			}
		} else {
			vseq_push(in->a, s, eval(f, a));
		}
	}
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);
		value_t *v = eval(f, k->value);

		if (!*kw)
			*kw = vdict_new(in->a);
		if (k->arg) {
			vdict_sets(in->a, *kw, k->arg, v);
		} else if (v->k == VK_DICT) {
			size_t j;

			for (j = 0; j < v->u.dict->n; j++)
				vdict_set(in->a, *kw, v->u.dict->keys[j], v->u.dict->vals[j]);
		} else if (v->k == VK_INST && v->u.inst->attrs) {
			/* **vars(cfg) / **cfg.__dict__ style */
			size_t j;

			for (j = 0; j < v->u.inst->attrs->n; j++)
				vdict_set(in->a, *kw, v->u.inst->attrs->keys[j], v->u.inst->attrs->vals[j]);
		} else {
			*unk_star = 1;
		}
	}
	*args = s->items;
	*nargs = s->n;
}

static value_t *eval_call(struct frame *f, const struct ast_Call *c)
{
	value_t *fn = eval(f, c->func);
	value_t **args;
	size_t nargs;
	struct vdict *kw;
	int unk;

	eval_args(f, c, &args, &nargs, &kw, &unk);
	return call(f, fn, args, nargs, kw, &c->h);
}

static value_t *eval_subscript(struct frame *f, const struct ast_Subscript *s)
{
	struct interp *in = f->in;
	value_t *obj = eval(f, s->value);
	value_t *idx = eval(f, s->slice);
	int ok;
	long long i;

	if (is_tensorish(obj)) {
		size_t mark = ev_mark(f);

		emit_op(f, "Tensor.__getitem__", &s->h);
		/* x[mask] sizes its output from the data */
		if (obj->dev == DEV_DEVICE && is_tensorish(idx) && f->mode != M_FWD)
			sev(f, SEV_SYNC, "indexing with a tensor (boolean mask or index array)", &s->h);
		{
			value_t *t = v_tensor_dev(in->a, obj->dev, obj->pinned);

			t->shape = shape_index(in->a, shape_of(obj), idx);
			t->dt = obj->dt;
			op_io(f, mark, (value_t *[]){ obj, idx }, 2, NULL, t);
			return t;
		}
	}
	switch (obj->k) {
	case VK_LIST: case VK_TUPLE:
		i = as_int(idx, &ok);
		if (ok && !obj->u.seq->unk_reason) {
			if (i < 0)
				i += (long long)obj->u.seq->n;
			if (i >= 0 && (size_t)i < obj->u.seq->n)
				return obj->u.seq->items[i];
		}
		if (idx->k == VK_SLICE && !obj->u.seq->unk_reason) {
			long long n = (long long)obj->u.seq->n, lo = 0, hi = n, k;
			int ok1 = 1, ok2 = 1;
			value_t *r;

			if (idx->u.slice.lo->k != VK_NONE)
				lo = as_int(idx->u.slice.lo, &ok1);
			if (idx->u.slice.hi->k != VK_NONE)
				hi = as_int(idx->u.slice.hi, &ok2);
			if (ok1 && ok2 && idx->u.slice.step->k == VK_NONE) {
				if (lo < 0) lo += n;
				if (hi < 0) hi += n;
				if (lo < 0) lo = 0;
				if (hi > n) hi = n;
				r = v_seq(in->a, obj->k, 0);
				for (k = lo; k < hi; k++)
					vseq_push(in->a, r->u.seq, obj->u.seq->items[k]);
				return r;
			}
		}
		break;
	case VK_DICT: {
		value_t *v = vdict_get(obj->u.dict, idx);

		if (v)
			return v;
		if (value_is_known_scalar(idx))
			return unknown_at(f, &s->h, afmt(in, "key %s is not in the mapping",
			                                 value_repr(in->a, idx) ? value_repr(in->a, idx) : "?"));
		break;
	}
	case VK_INST:
		if (obj->u.inst->mod == VM_CONTAINER) {
			struct vinst *m = obj->u.inst;
			struct vinst *c = NULL;

			i = as_int(idx, &ok);
			if (ok && !vdict_gets(m->attrs, "__ecg_len_unknown__")) {
				if (i < 0)
					i += (long long)m->nchildren;
				if (i >= 0 && (size_t)i < m->nchildren)
					c = m->children[i].inst;
			} else if (idx->k == VK_STR) {
				c = vinst_child(m, idx->u.str.s);
			}
			if (c)
				return mk_inst_value(in, c);
		}
		break;
	case VK_EXT:
		/* typing subscripts, torchvision.models.__dict__[name] */
		if (idx->k == VK_STR && !strcmp(short_ext(obj->u.ext), "__dict__")) {
			const char *base = obj->u.ext;
			size_t n = strlen(base) - strlen(".__dict__");

			return v_ext(in->a, afmt(in, "%.*s.%s", (int)n, base, idx->u.str.s));
		}
		return obj;
	case VK_NS:
		break;
	default:
		break;
	}
	return unknown_at(f, &s->h, idx->k == VK_UNKNOWN && idx->reason ? idx->reason
	                            : obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an index ecg cannot follow");
}

/* Comprehensions: unrolled when the iterables are known. */
struct comp_ctx {
	const struct ast_list *gens;
	const struct ast_hdr *elt, *key;
	value_t *out;
	int unknown;
	const char *unk_expr, *unk_reason;
};

static void comp_loop(struct frame *f, struct comp_ctx *cc, unsigned gi)
{
	struct interp *in = f->in;
	const struct ast_comprehension *g;
	value_t *it;
	struct vseq *items = NULL;
	size_t i;
	unsigned k;

	if (gi == cc->gens->n) {
		if (cc->key) {
			value_t *kv = eval(f, cc->key);

			vdict_set(in->a, cc->out->u.dict, kv, eval(f, cc->elt));
		} else {
			vseq_push(in->a, cc->out->u.seq, eval(f, cc->elt));
		}
		return;
	}
	g = AST_AS(cc->gens->items[gi], comprehension);
	it = eval(f, g->iter);
	if (iter_items(f, it, &items)) {
		/* unknown: one representative pass */
		value_t *why = iter_items(f, it, &items);

		cc->unknown = 1;
		cc->unk_expr = text_of(f, g->iter);
		cc->unk_reason = why->reason ? why->reason : "an iterable whose items are not known";
		assign(f, g->target, v_unknown(in->a, text_of(f, g->target), "an item of an iterable not known"));
		comp_loop(f, cc, gi + 1);
		return;
	}
	for (i = 0; i < items->n; i++) {
		int keep = 1;

		if (!budget(f))
			return;
		assign(f, g->target, items->items[i]);
		for (k = 0; k < g->ifs.n; k++) {
			int t = value_truth(eval(f, g->ifs.items[k]));

			if (t == 0)
				keep = 0;
		}
		if (keep)
			comp_loop(f, cc, gi + 1);
	}
}

static value_t *eval_comp(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	struct comp_ctx cc;
	struct frame cf = *f;

	memset(&cc, 0, sizeof cc);
	cf.locals = vdict_new(in->a);
	cf.outer_comp = f;
	cf.closure = NULL;
	switch (e->kind) {
	case AST_ListComp: cc.gens = &AST_AS(e, ListComp)->generators; cc.elt = AST_AS(e, ListComp)->elt; break;
	case AST_SetComp: cc.gens = &AST_AS(e, SetComp)->generators; cc.elt = AST_AS(e, SetComp)->elt; break;
	case AST_GeneratorExp: cc.gens = &AST_AS(e, GeneratorExp)->generators; cc.elt = AST_AS(e, GeneratorExp)->elt; break;
	case AST_DictComp:
		cc.gens = &AST_AS(e, DictComp)->generators;
		cc.elt = AST_AS(e, DictComp)->value;
		cc.key = AST_AS(e, DictComp)->key;
		break;
	default:
		return unknown_at(f, e, "not a comprehension");
	}
	cc.out = cc.key ? v_dict(in->a) : v_seq(in->a, VK_LIST, 0);
	comp_loop(&cf, &cc, 0);
	if (!cc.key && cc.gens->n == 1 && !AST_AS(cc.gens->items[0], comprehension)->ifs.n) {
		/* the length's provenance: range(n) -> n */
		value_t *it = eval(&cf, AST_AS(cc.gens->items[0], comprehension)->iter);

		if (it->k == VK_RANGE) {
			cc.out->u.seq->len_expr = it->expr;
			cc.out->u.seq->len_src = it->src;
			cc.out->u.seq->len_via = it->via;
		}
	}
	if (cc.unknown && !cc.key) {
		cc.out->u.seq->unk_expr = cc.unk_expr;
		cc.out->u.seq->unk_reason = cc.unk_reason;
	}
	return cc.out;
}

/* Formatting an instance of a repo class runs its __format__ / __str__ /
 * __repr__ (a metric whose __format__ reads a device tensor with .item()
 * is a sync in the log line): read it as a call.  `how` is 's', 'r' or 0
 * (format(), an f-string without conversion). */
static void format_hook(struct frame *f, value_t *v, int how, const struct ast_hdr *site)
{
	static const char *const names_s[] = { "__str__", "__repr__", NULL };
	static const char *const names_r[] = { "__repr__", NULL };
	static const char *const names_f[] = { "__format__", "__str__", "__repr__", NULL };
	const char *const *names = how == 's' ? names_s : how == 'r' || how == 'a' ? names_r : names_f;
	struct vclass *owner = NULL;
	value_t *m = NULL;
	size_t i;

	if (v->k != VK_INST || !v->u.inst->cls || v->u.inst->mod != VM_NONE)
		return;
	for (i = 0; names[i] && !m; i++) {
		m = class_lookup(v->u.inst->cls, names[i], &owner);
		if (m && m->k != VK_FUNC)
			m = NULL;
		if (m && !strcmp(names[i], "__format__")) {
			value_t *spec = v_str(f->in->a, "");

			(void)call_function(f, m->u.fn, v, &spec, 1, NULL, f->mode, f->ev, site);
			return;
		}
	}
	if (m)
		(void)call_function(f, m->u.fn, v, NULL, 0, NULL, f->mode, f->ev, site);
}

static value_t *eval_fstring(struct frame *f, const struct ast_JoinedStr *js)
{
	struct interp *in = f->in;
	buf_t b;
	value_t *r;
	unsigned i;

	buf_init(&b);
	for (i = 0; i < js->values.n; i++) {
		const struct ast_hdr *p = js->values.items[i];
		value_t *v;

		if (AST_IS(p, Constant) && AST_AS(p, Constant)->value.kind == AST_CONST_STR) {
			buf_add(&b, AST_AS(p, Constant)->value.s, AST_AS(p, Constant)->value.len);
			continue;
		}
		if (!AST_IS(p, FormattedValue)) {
			buf_free(&b);
			return unknown_at(f, &js->h, "an f-string ecg cannot format");
		}
		v = eval(f, AST_AS(p, FormattedValue)->value);
		if (v->k == VK_TENSOR && v->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "f-string of a device tensor", AST_AS(p, FormattedValue)->value);
		format_hook(f, v, AST_AS(p, FormattedValue)->conversion, AST_AS(p, FormattedValue)->value);
		if (AST_AS(p, FormattedValue)->format_spec || AST_AS(p, FormattedValue)->conversion > 0 ||
		    !(v->k == VK_STR || v->k == VK_INT)) {
			/* read the other parts all the same: they may sync */
			unsigned k;

			for (k = i + 1; k < js->values.n; k++)
				if (AST_IS(js->values.items[k], FormattedValue)) {
					value_t *w = eval(f, AST_AS(js->values.items[k], FormattedValue)->value);

					if (w->k == VK_TENSOR && w->dev == DEV_DEVICE)
						sev(f, SEV_SYNC, "f-string of a device tensor",
						    AST_AS(js->values.items[k], FormattedValue)->value);
					format_hook(f, w, AST_AS(js->values.items[k], FormattedValue)->conversion,
					            AST_AS(js->values.items[k], FormattedValue)->value);
				}
			buf_free(&b);
			return unknown_at(f, &js->h, "an f-string of values not known");
		}
		if (v->k == VK_STR)
			buf_add(&b, v->u.str.s, v->u.str.len);
		else
			buf_addf(&b, "%lld", v->u.i);
	}
	r = v_strn(in->a, b.buf, b.len);
	buf_free(&b);
	return r;
}

static value_t *eval_const(struct frame *f, const struct ast_Constant *c)
{
	struct interp *in = f->in;
	value_t *v;

	switch (c->value.kind) {
	case AST_CONST_NONE: v = v_none(in->a); break;
	case AST_CONST_TRUE: v = v_bool(in->a, 1); break;
	case AST_CONST_FALSE: v = v_bool(in->a, 0); break;
	case AST_CONST_INT:
		v = c->value.big ? v_unknown(in->a, c->value.s, "an integer too large for ecg") : v_int(in->a, c->value.i);
		break;
	case AST_CONST_FLOAT: v = v_float(in->a, c->value.f); break;
	case AST_CONST_STR: v = v_str_ref(in->a, c->value.s, c->value.len); break;   /* the tree outlives the run */
	default: v = v_unknown(in->a, text_of(f, &c->h), "a constant ecg does not use"); break;
	}
	v->src = anchor_at(f, &c->h);
	if (f->config_exec)
		v->via = VIA_CONFIG_FILE;
	return v;
}

value_t *eval(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	value_t *v;
	unsigned i;

	if (!e)
		return v_none(in->a);
	if (!budget(f))
		return unknown_at(f, e, "the analysis step budget ran out");
	switch (e->kind) {
	case AST_Constant:
		return eval_const(f, AST_AS(e, Constant));
	case AST_Name: {
		const char *id = AST_AS(e, Name)->id;

		v = lookup(f, id);
		if (v)
			return v;
		return v_unknown(in->a, astr(in, id), "a name that is not defined where it is used");
	}
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(e, Attribute);
		value_t *obj = eval(f, a->value);

		v = getattr_v(f, obj, a->attr, e);
		if (v->k == VK_UNKNOWN && !v->expr)
			v->expr = text_of(f, e);
		if (value_is_known_scalar(v) && !v->expr) {
			v = v_copy(in->a, v);
			v->expr = text_of(f, e);
		}
		return v;
	}
	case AST_Call:
		return eval_call(f, AST_AS(e, Call));
	case AST_BinOp: {
		const struct ast_BinOp *b = AST_AS(e, BinOp);

		value_t *l = eval(f, b->left);   /* left first, as Python */
		value_t *r = eval(f, b->right);

		return binop(f, b->op, l, r, e, 0);
	}
	case AST_UnaryOp: {
		const struct ast_UnaryOp *u = AST_AS(e, UnaryOp);
		value_t *x = eval(f, u->operand);
		int t;

		if (is_tensorish(x)) {
			if (u->op == AST_UNARY_USUB)
				emit_op(f, "Tensor.__neg__", e);
			else if (u->op == AST_UNARY_INVERT)
				emit_op(f, "Tensor.__invert__", e);
			if (u->op == AST_UNARY_NOT && x->dev == DEV_DEVICE)
				sev(f, SEV_SYNC, afmt(in, "%s (the truth of a device tensor)", text_of(f, e)), e);
			if (u->op == AST_UNARY_NOT)
				return unknown_at(f, e, "the truth of a tensor at run time");
			{
				value_t *t2 = v_tensor_dev(in->a, x->dev, 0);

				t2->shape = x->shape;
				t2->dt = x->dt;
				return t2;
			}
		}
		switch (u->op) {
		case AST_UNARY_NOT:
			t = value_truth(x);
			return t < 0 ? unknown_at(f, e, x->reason ? x->reason : "the truth of a value not known")
			             : v_bool(in->a, !t);
		case AST_UNARY_USUB:
			if (x->k == VK_INT && x->u.i != LLONG_MIN)
				return v_int(in->a, -x->u.i);
			if (x->k == VK_FLOAT)
				return v_float(in->a, -x->u.f);
			break;
		case AST_UNARY_UADD:
			if (x->k == VK_INT || x->k == VK_FLOAT)
				return x;
			break;
		case AST_UNARY_INVERT:
			if (x->k == VK_INT)
				return v_int(in->a, ~x->u.i);
			break;
		}
		return unknown_at(f, e, x->reason ? x->reason : "an operation on a value not known");
	}
	case AST_BoolOp: {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);
		value_t *last = NULL;

		for (i = 0; i < b->values.n; i++) {
			int t;

			last = eval(f, b->values.items[i]);
			t = value_truth(last);
			if (t < 0) {
				/* evaluate the rest for their effects, result unknown */
				for (i++; i < b->values.n; i++)
					(void)eval(f, b->values.items[i]);
				return unknown_at(f, e, last->reason ? last->reason : "the truth of a value not known");
			}
			if (b->op == AST_BOOL_AND ? !t : t)
				return last;
		}
		return last ? last : v_none(in->a);
	}
	case AST_Compare:
		return eval_compare(f, AST_AS(e, Compare));
	case AST_IfExp: {
		const struct ast_IfExp *x = AST_AS(e, IfExp);
		int t = value_truth(eval(f, x->test));

		if (t == 1)
			return eval(f, x->body);
		if (t == 0)
			return eval(f, x->orelse);
		{
			value_t *a = eval(f, x->body), *b = eval(f, x->orelse);

			if (is_tensorish(a) || is_tensorish(b))
				return v_tensor(in->a);
			if (value_key_eq(a, b))
				return a;
			return unknown_at(f, e, "a conditional expression whose condition is not known");
		}
	}
	case AST_List: case AST_Tuple: case AST_Set: {
		const struct ast_list *elts = e->kind == AST_List ? &AST_AS(e, List)->elts
		                             : e->kind == AST_Tuple ? &AST_AS(e, Tuple)->elts : &AST_AS(e, Set)->elts;

		v = v_seq(in->a, e->kind == AST_Tuple ? VK_TUPLE : VK_LIST, elts->n);
		v->u.seq->born = f->loop_serial;
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred)) {
				value_t *sv = eval(f, AST_AS(x, Starred)->value);
				struct vseq *items;

				if (!iter_items(f, sv, &items)) {
					size_t k;

					for (k = 0; k < items->n; k++)
						vseq_push(in->a, v->u.seq, items->items[k]);
				} else {
					v->u.seq->unk_expr = text_of(f, x);
					v->u.seq->unk_reason = "built from items not known";
				}
			} else {
				vseq_push(in->a, v->u.seq, eval(f, x));
			}
		}
		return v;
	}
	case AST_Dict: {
		const struct ast_Dict *d = AST_AS(e, Dict);

		v = v_dict(in->a);
		for (i = 0; i < d->keys.n && i < d->values.n; i++) {
			if (!d->keys.items[i]) {
				value_t *m = eval(f, d->values.items[i]);
				size_t k;

				if (m->k == VK_DICT)
					for (k = 0; k < m->u.dict->n; k++)
						vdict_set(in->a, v->u.dict, m->u.dict->keys[k], m->u.dict->vals[k]);
				continue;
			}
			{
				value_t *k = eval(f, d->keys.items[i]);
				value_t *x = eval(f, d->values.items[i]);

				vdict_set(in->a, v->u.dict, k, x);
			}
		}
		return v;
	}
	case AST_ListComp: case AST_SetComp: case AST_DictComp: case AST_GeneratorExp:
		return eval_comp(f, e);
	case AST_Subscript:
		return eval_subscript(f, AST_AS(e, Subscript));
	case AST_Slice: {
		const struct ast_Slice *s = AST_AS(e, Slice);

		v = ast_arena_alloc(in->a, sizeof *v);
		v->k = VK_SLICE;
		v->u.slice.lo = s->lower ? eval(f, s->lower) : v_none(in->a);
		v->u.slice.hi = s->upper ? eval(f, s->upper) : v_none(in->a);
		v->u.slice.step = s->step ? eval(f, s->step) : v_none(in->a);
		return v;
	}
	case AST_Lambda:
		return make_function(f, e, "<lambda>");
	case AST_JoinedStr:
		return eval_fstring(f, AST_AS(e, JoinedStr));
	case AST_NamedExpr: {
		const struct ast_NamedExpr *n = AST_AS(e, NamedExpr);

		v = eval(f, n->value);
		assign(f, n->target, v);
		return v;
	}
	case AST_Starred:
		return eval(f, AST_AS(e, Starred)->value);
	case AST_Await:
		return eval(f, AST_AS(e, Await)->value);
	default:
		return unknown_at(f, e, "an expression ecg does not evaluate");
	}
}

/* ------------------------------------------------------------------ statements */

static void assign(struct frame *f, const struct ast_hdr *t, value_t *v)
{
	struct interp *in = f->in;
	unsigned i;

	switch (t->kind) {
	case AST_Name:
		scope_bind(f, AST_AS(t, Name)->id, v);
		return;
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(t, Attribute);

		set_attr(f, eval(f, a->value), a->attr, v);
		return;
	}
	case AST_Subscript: {
		const struct ast_Subscript *s = AST_AS(t, Subscript);
		value_t *obj = eval(f, s->value), *idx = eval(f, s->slice);
		int ok;
		long long k;

		if (is_tensorish(obj)) {
			emit_op(f, "Tensor.__setitem__", t);
		} else if (obj->k == VK_DICT) {
			vdict_set(in->a, obj->u.dict, idx, v);
		} else if (obj->k == VK_LIST) {
			k = as_int(idx, &ok);
			if (ok && k < 0)
				k += (long long)obj->u.seq->n;
			if (ok && k >= 0 && (size_t)k < obj->u.seq->n)
				obj->u.seq->items[k] = v;
		} else if (obj->k == VK_INST && obj->u.inst->mod == VM_CONTAINER && v->k == VK_INST) {
			if (idx->k == VK_STR)
				vinst_add_child(in->a, obj->u.inst, idx->u.str.s, v->u.inst);
		}
		return;
	}
	case AST_Tuple: case AST_List: {
		const struct ast_list *elts = t->kind == AST_Tuple ? &AST_AS(t, Tuple)->elts : &AST_AS(t, List)->elts;
		struct vseq *items = NULL;
		int star = -1;

		for (i = 0; i < elts->n; i++)
			if (AST_IS(elts->items[i], Starred))
				star = (int)i;
		if ((v->k == VK_TUPLE || v->k == VK_LIST) && !iter_items(f, v, &items) &&
		    (star >= 0 ? items->n + 1 >= elts->n : items->n == elts->n)) {
			size_t after = star >= 0 ? elts->n - (size_t)star - 1 : 0;

			for (i = 0; i < elts->n; i++) {
				if ((int)i == star) {
					value_t *rest = v_seq(in->a, VK_LIST, 0);
					size_t k;

					for (k = i; k < items->n - after; k++)
						vseq_push(in->a, rest->u.seq, items->items[k]);
					assign(f, AST_AS(elts->items[i], Starred)->value, rest);
				} else if (star >= 0 && (int)i > star) {
					assign(f, elts->items[i], items->items[items->n - (elts->n - i)]);
				} else {
					assign(f, elts->items[i], items->items[i]);
				}
			}
			return;
		}
		/* a tensor unpacks into tensors; anything else into unknowns */
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred))
				x = AST_AS(x, Starred)->value;
			if (is_tensorish(v)) {
				/* rows of the tensor: its shape without dim 0 */
				value_t *row = v_tensor_dev(in->a, v->dev, v->pinned);
				const struct vshape *s = shape_of(v);

				if (s && s->nd >= 1 && s->n[0] == (long long)elts->n)
					row->shape = shape_index(in->a, s, v_int(in->a, 0));
				row->dt = v->dt;
				assign(f, x, row);
			} else {
				assign(f, x, v_unknown(in->a, text_of(f, x), v->reason ? v->reason : "unpacked from a value not known"));
			}
		}
		return;
	}
	case AST_Starred:
		assign(f, AST_AS(t, Starred)->value, v);
		return;
	default:
		return;
	}
}

/* ECG_TRACE_SHAPES=1 (a development aid): every assignment's value kind
 * and shape on stderr, "file:line: kind [dims]". */
static void trace_shape(struct frame *f, const struct ast_hdr *st, const value_t *v)
{
	const struct vshape *s = shape_of(v);
	unsigned i;

	fprintf(stderr, "shape %s:%d: k=%d dt=%d", f->file ? f->file->path : "?", st->line, (int)v->k, (int)v->dt);
	if (v->k == VK_TUPLE || v->k == VK_LIST)
		fprintf(stderr, " len=%zu%s", v->u.seq->n, v->u.seq->unk_reason ? "?" : "");
	if (s) {
		fputs(" [", stderr);
		for (i = 0; i < s->nd; i++) {
			if (s->n[i] >= 0)
				fprintf(stderr, "%s%lld", i ? ", " : "", s->n[i]);
			else
				fprintf(stderr, "%s%s", i ? ", " : "", s->sym[i] ? s->sym[i] : "?");
		}
		fputc(']', stderr);
	} else if (v->k == VK_UNKNOWN) {
		fprintf(stderr, " (%s)", v->reason ? v->reason : "");
	}
	fputc('\n', stderr);
}

/* A plain name or a chain of attributes of one: reading it runs nothing. */
static int is_pure_ref(const struct ast_hdr *e, int depth)
{
	if (depth > 8)
		return 0;
	if (AST_IS(e, Name))
		return 1;
	return AST_IS(e, Attribute) && is_pure_ref(AST_AS(e, Attribute)->value, depth + 1);
}

/* `B, T, C = x.size()` (or x.shape) names x's dims: where a dim of x is
 * not known, it takes the name the code gives it, and every shape built
 * from it later says "B" or "T". */
static void name_dims(struct frame *f, const struct ast_hdr *target, const struct ast_hdr *value)
{
	const struct ast_list *elts;
	const struct ast_hdr *x = NULL;
	const char *names[VSHAPE_MAX];
	const struct vshape *s;
	value_t *obj;
	size_t i;

	if (AST_IS(target, Tuple))
		elts = &AST_AS(target, Tuple)->elts;
	else if (AST_IS(target, List))
		elts = &AST_AS(target, List)->elts;
	else
		return;
	if (!elts->n || elts->n > VSHAPE_MAX)
		return;
	if (AST_IS(value, Attribute) && !strcmp(AST_AS(value, Attribute)->attr, "shape"))
		x = AST_AS(value, Attribute)->value;
	else if (AST_IS(value, Call) && !AST_AS(value, Call)->args.n && !AST_AS(value, Call)->keywords.n &&
	         AST_IS(AST_AS(value, Call)->func, Attribute) &&
	         !strcmp(AST_AS(AST_AS(value, Call)->func, Attribute)->attr, "size"))
		x = AST_AS(AST_AS(value, Call)->func, Attribute)->value;
	if (!x || !is_pure_ref(x, 0))
		return;
	for (i = 0; i < elts->n; i++) {
		const struct ast_hdr *t = elts->items[i];

		if (!AST_IS(t, Name))
			return;         /* *rest and the like: the rank is not known */
		/* `_`: the dim is still x's dim i, and says so */
		names[i] = strcmp(AST_AS(t, Name)->id, "_") ? AST_AS(t, Name)->id
		           : AST_IS(x, Name) ? afmt(f->in, "%s.shape[%zu]", AST_AS(x, Name)->id, i) : NULL;
	}
	obj = eval(f, x);
	if (obj->k != VK_TENSOR)
		return;
	s = shape_named(f->in->a, obj->shape, names, (unsigned)elts->n);
	if (s)
		obj->shape = s;
}

/* A loop body under repeat: forward mode records the multiplier. */
static enum flow run_body_once(struct frame *f, const struct ast_list *body, long long n, const char *expr,
                               const char *src, int via, const char *reason)
{
	long long om = f->mult;
	const char *oe = f->mult_expr, *os = f->mult_src, *orr = f->mult_reason;
	int ov = f->mult_via;
	unsigned ol = f->loop_serial;
	enum flow fl;

	if (n < 0 || om < 0) {
		f->mult = -1;
		f->mult_reason = reason ? reason : orr;
	} else if (n > 0 && om > LLONG_MAX / n) {
		f->mult = -1;
		f->mult_reason = "a repeat count too large to hold";
	} else {
		f->mult = om * n;
	}
	if (n != 1) {
		f->mult_expr = om != 1 && oe ? afmt(f->in, "%s * %s", oe, expr ? expr : "?") : expr;
		f->mult_src = src;
		f->mult_via = via;
		f->loop_serial = ++f->in->loop_serials;
	}
	fl = exec_block(f, body);
	f->loop_serial = ol;
	f->mult = om;
	f->mult_expr = oe;
	f->mult_src = os;
	f->mult_via = ov;
	f->mult_reason = orr;
	return fl == FL_BREAK || fl == FL_CONTINUE ? FL_NORMAL : fl;
}

static enum flow exec_for(struct frame *f, const struct ast_For *s)
{
	struct interp *in = f->in;
	value_t *it = eval(f, s->iter);
	struct vseq *items = NULL;
	value_t *why;
	size_t i;

	if (f->mode == M_FWD) {
		const char *expr = text_of(f, s->iter);

		/* a container of modules: one pass per group of identical children */
		if (it->k == VK_INST && it->u.inst->mod == VM_CONTAINER && it->u.inst->nchildren) {
			struct vinst *m = it->u.inst;
			value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");
			size_t *starts, ng = container_groups(in, m, &starts), g;
			enum flow fl = FL_NORMAL;

			value_t *le = vdict_gets(m->attrs, "__ecg_len_expr__");
			value_t *ls = vdict_gets(m->attrs, "__ecg_len_src__");
			value_t *lv = vdict_gets(m->attrs, "__ecg_len_via__");
			const char *lexpr = le ? le->u.str.s : afmt(in, "len(%s)", expr);
			const char *lsrc = ls ? ls->u.str.s : m->constructed_at;

			for (g = 0; g < ng && fl != FL_RETURN && fl != FL_RAISE; g++) {
				struct vinst *rep = m->children[starts[g]].inst;
				size_t lo = starts[g], hi = starts[g + 1];

				value_t *item = m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")
				                ? v_str(in->a, m->children[lo].name) : mk_inst_value(in, rep);

				if (vdict_gets(m->attrs, "__enumerate__")) {
					value_t *pair = v_seq(in->a, VK_TUPLE, 2);

					vseq_push(in->a, pair->u.seq, hi - lo == 1 ? v_int(in->a, (long long)lo)
					                                      : v_unknown(in->a, "the index", "the loop counter"));
					vseq_push(in->a, pair->u.seq, item);
					item = pair;
				}
				assign(f, s->target, item);
				fl = run_body_once(f, &s->body, unk ? -1 : (long long)(hi - lo),
				                   ng == 1 ? lexpr : afmt(in, "children %zu..%zu of %s", lo, hi - 1, expr),
				                   lsrc, ls && lv && lv->k == VK_INT ? (int)lv->u.i : VIA_DEFAULT,
				                   unk ? (unk->reason ? unk->reason : "the container's length is not known") : NULL);
			}
			free(starts);
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}
		/* range(n) with n known: n iterations, however many (the body is
		 * read once either way) */
		if (it->k == VK_RANGE && range_len(it) > MAX_UNROLL) {
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, range_len(it), it->expr ? it->expr : expr, it->src, it->via, NULL);
		}
		/* range(n), n <= MAX_UNROLL: the same, without making the n
		 * items (only the first and the count are used below; making
		 * them cost ~7 MB a loop, and a fuzzed job of nested loops 3.7
		 * GB) */
		if (it->k == VK_RANGE) {
			long long n = range_len(it);

			if (n <= 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? v_int(in->a, it->u.range.start)
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		/* enumerate/zip over a container: the same, with the index unknown */
		why = iter_items(f, it, &items);
		if (!why && items && it->k != VK_RANGE && items->n <= MAX_FWD_UNROLL) {
			/* zip(self.layers, self.windows), enumerate(...), a list:
			 * each iteration is read with its own items; the module
			 * tree merges what repeats at the same call site */
			for (i = 0; i < items->n; i++) {
				enum flow fl;

				assign(f, s->target, items->items[i]);
				fl = exec_block(f, &s->body);
				if (fl == FL_BREAK)
					break;
				if (fl == FL_RETURN || fl == FL_RAISE)
					return fl;
			}
			return FL_NORMAL;
		}
		if (!why && items) {
			long long n = (long long)items->n;

			/* items of equal kind: one pass with the first */
			if (n == 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? items->items[0]
			                    : items->items[0]->k == VK_INST ? items->items[0]
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->k == VK_RANGE && it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop variable"));
		return run_body_once(f, &s->body, -1, expr, NULL, VIA_DEFAULT,
		                     afmt(in, "the trip count of `for ... in %s` is not known%s%s", expr,
		                          why && why->reason ? ": " : "", why && why->reason ? why->reason : ""));
	}
	/* A range is iterated without making its items first: a loop that
	 * stops after one iteration (below) would otherwise have made up to
	 * MAX_UNROLL of them (~7 MB), again at each of its executions. */
	if (it->k == VK_RANGE && range_len(it) <= MAX_UNROLL) {
		why = NULL;
		items = NULL;
	} else
		why = iter_items(f, it, &items);
	if (why) {
		/* read the body once; lists built in it have an unknown length */
		const char *omr = f->mult_reason, *ome = f->mult_expr;
		enum flow fl;
		const struct jctx *ojc = f->jc;
		const char *ol = f->loop_anchor;
		int from_loader = is_loader(it);
		struct jctx *lj;

		lj = (struct jctx *)jc_push(f, JC_LOOP, anchor_at(f, &s->h), afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
		f->jc = lj;
		if (from_loader) {
			value_t *batch = loader_batch(f, it->u.inst, afmt_memo(in, "for ... in %s", text_of(f, s->iter), NULL), &s->h);

			f->mult_reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
			f->mult_expr = text_of(f, s->iter);
			if (vdict_gets(it->u.inst->attrs, "__enumerate__")) {
				value_t *pair = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the batch index", "a loop counter"));
				vseq_push(in->a, pair->u.seq, batch);
				batch = pair;
			}
			assign(f, s->target, batch);
			f->loop_anchor = lj->anchor;
			fl = exec_block(f, &s->body);
			f->loop_anchor = ol;
			f->mult_reason = omr;
			f->mult_expr = ome;
			f->jc = ojc;
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}

		f->mult_reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
		f->mult_expr = text_of(f, s->iter);
		f->loop_anchor = anchor_at(f, &s->h);
		if (is_gen_value(it))
			/* a repo generator: each item is what its first yield gives */
			assign(f, s->target, gen_next(f, it->u.inst, &s->h));
		else if ((it->k == VK_LIST || it->k == VK_TUPLE) && it->u.seq->unk_reason && it->u.seq->n >= 1)
			/* a sequence of unknown length: its representative item */
			assign(f, s->target, it->u.seq->items[0]);
		else
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), why->reason ? why->reason : "the loop variable"));
		fl = exec_block(f, &s->body);
		f->loop_anchor = ol;
		f->mult_reason = omr;
		f->mult_expr = ome;
		f->jc = ojc;
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	{
		/* a known iterable: its trip count is known too */
		struct jctx *lj = (struct jctx *)jc_push(f, JC_LOOP, anchor_at(f, &s->h),
		                                         afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
		const struct jctx *ojc = f->jc;
		enum flow fl = FL_NORMAL;

		lj->trips = items ? (long long)items->n : range_len(it);
		if (it->k == VK_RANGE && it->expr)
			lj->period_expr = it->expr;     /* for a loop: the trip count's expression */
		f->jc = lj;
		fl = exec_for_items(f, s, items, items ? NULL : it);
		f->jc = ojc;
		return fl;
	}
}

/* Did the job make, since event `from`, a copy, a sync, a collective or
 * a loader hop (what a loop over run-time work does each iteration)? */
static int runtime_events(const struct interp *in, size_t from)
{
	size_t i;

	for (i = from; i < in->nsev; i++) {
		enum sev_kind k = in->sev[i].kind;

		if (k == SEV_SYNC || k == SEV_H2D || k == SEV_D2H || k == SEV_COLLECTIVE || k == SEV_LOADER_ITER)
			return 1;
	}
	return 0;
}

/* The loop over items->items, or (items NULL) over the values of `range`,
 * made one at a time. */
static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range)
{
	struct interp *in = f->in;
	size_t i, n = items ? items->n : (size_t)(range_len(range) > 0 ? range_len(range) : 0);

	for (i = 0; i < n; i++) {
		long long before = in->job_events;
		size_t sev_before = in->nsev;
		enum flow fl;
		const char *ol = f->loop_anchor;

		if (!budget(f))
			break;
		assign(f, s->target, items ? items->items[i]
		                     : v_int(in->a, (long long)((__int128)range->u.range.start +
		                                                (__int128)i * range->u.range.step)));
		f->loop_anchor = anchor_at(f, &s->h);
		fl = exec_block(f, &s->body);
		f->loop_anchor = ol;
		if (fl == FL_BREAK)
			break;
		if (fl == FL_RETURN || fl == FL_RAISE)
			return fl;
		/* a training or serving loop: one iteration says what it does;
		 * so does any loop whose body copies, syncs, talks to other
		 * ranks or loads data -- the schedule records it once, with the
		 * loop around it, not once per iteration */
		if (in->job_events != before || (f->mode != M_FWD && runtime_events(in, sev_before)))
			break;
	}
	if (s->orelse.n)
		return exec_block(f, &s->orelse);
	return FL_NORMAL;
}

/* `it % eval_interval == 0` (alone or inside an `and`): a periodic guard
 * with its period resolved when the config pins it. */
static const struct ast_BinOp *find_modulo(const struct ast_hdr *e, int depth)
{
	unsigned i;

	if (!e || depth > 8)
		return NULL;
	if (AST_IS(e, BoolOp)) {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);

		for (i = 0; i < b->values.n; i++) {
			const struct ast_BinOp *m = find_modulo(b->values.items[i], depth + 1);

			if (m)
				return m;
		}
		return NULL;
	}
	if (AST_IS(e, Compare)) {
		const struct ast_Compare *c = AST_AS(e, Compare);

		if (c->ops.n == 1 && (c->ops.items[0] == AST_CMP_EQ) && AST_IS(c->left, BinOp) &&
		    AST_AS(c->left, BinOp)->op == AST_OP_MOD)
			return AST_AS(c->left, BinOp);
	}
	return NULL;
}

static const struct jctx *guard_ctx(struct frame *f, const struct ast_hdr *test, const char *text)
{
	const struct ast_BinOp *m = find_modulo(test, 0);
	struct jctx *j;

	if (!m)
		return jc_push(f, JC_COND, anchor_at(f, test), text);
	j = (struct jctx *)jc_push(f, JC_GUARD, anchor_at(f, test), text);
	{
		value_t *p = eval(f, m->right);
		int ok;
		long long n = as_int(p, &ok);

		j->period = ok && n > 0 ? n : -1;
		j->period_expr = text_of(f, m->right);
	}
	return j;
}

static void dict_save(struct interp *in, const struct vdict *d, struct vdict *out)
{
	out->n = d->n;
	out->alloc = d->n;
	out->a = in->a;
	out->ix = NULL;
	out->keys = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->keys);
	out->vals = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->vals);
	if (d->n) {
		memcpy(out->keys, d->keys, d->n * sizeof *out->keys);
		memcpy(out->vals, d->vals, d->n * sizeof *out->vals);
	}
}

/* d becomes a copy of from (a dict_save() or a merge of them: no key
 * twice), in place. */
static void dict_restore(struct interp *in, struct vdict *d, const struct vdict *from)
{
	if (d->alloc < from->n) {
		size_t na = from->n < 8 ? 8 : from->n;

		d->keys = ast_arena_alloc(in->a, na * sizeof *d->keys);
		d->vals = ast_arena_alloc(in->a, na * sizeof *d->vals);
		d->alloc = na;
	}
	if (from->n) {
		memcpy(d->keys, from->keys, from->n * sizeof *d->keys);
		memcpy(d->vals, from->vals, from->n * sizeof *d->vals);
	}
	d->n = from->n;
	vdict_truncated(d);   /* its positions are other keys now */
}

/* After both paths of an undecided `if`: d holds the else path's names.
 * A name both paths left alike keeps its value; tensors stay tensors; a
 * module built on one path is kept (it is conditional, and says so); any
 * other difference is unknown, depending on the condition (cond: its
 * text_of(), interned). */
static void merge_branches(struct frame *f, struct vdict *d, const struct vdict *before,
                           const struct vdict *body, const char *cond)
{
	struct interp *in = f->in;
	struct vdict merged;
	size_t i, p = 0, lim = before->n;

	/* The names bound before the `if` keep their places (and key
	 * objects) on both paths, unless one deleted a name: over that
	 * common prefix the three dicts are read by position, not looked up
	 * (a module's few hundred names, at every undecided `if`). */
	if (body->n < lim)
		lim = body->n;
	if (d->n < lim)
		lim = d->n;
	while (p < lim && body->keys[p] == before->keys[p] && d->keys[p] == before->keys[p])
		p++;
	dict_save(in, d, &merged);
	for (i = 0; i < p; i++)
		if (!merged.vals[i])
			merged.vals[i] = body->vals[i];
	for (i = p; i < body->n; i++)
		if (!vdict_get(&merged, body->keys[i]))
			vdict_set(in->a, &merged, body->keys[i], body->vals[i]);
	for (i = 0; i < merged.n; i++) {
		value_t *k = merged.keys[i];
		value_t *a, *b, *o;
		value_t *r;

		if (i < p) {
			a = body->vals[i];
			b = d->vals[i];
			o = before->vals[i];
		} else {
			a = vdict_get(body, k);
			b = vdict_get(d, k);
			o = vdict_get(before, k);
		}

		if (!a)
			a = o;
		if (!b)
			b = o;
		if (a == b || (a && b && value_is_known_scalar(a) && value_key_eq(a, b)))
			continue;
		if (a && b && a->k == VK_TENSOR && b->k == VK_TENSOR) {
			r = v_tensor_dev(in->a, a->dev > b->dev ? a->dev : b->dev, a->pinned && b->pinned);
			r->shape = shape_join(in->a, a->shape, b->shape);
		} else if (a && a->k == VK_INST && a->u.inst->mod != VM_NONE) {
			r = a;
		} else if (b && b->k == VK_INST && b->u.inst->mod != VM_NONE) {
			r = b;
		} else if (!a || !b) {
			r = a ? a : b;      /* bound on one path only: it exists if that path ran */
		} else {
			r = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL,
			              afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
		}
		merged.vals[i] = r;
	}
	dict_restore(in, d, &merged);
}

static enum flow exec_if(struct frame *f, const struct ast_If *s)
{
	value_t *tv = eval(f, s->test);
	int t = value_truth(tv);
	const char *oc = f->cond;
	int ot = f->cond_taken;
	enum flow fl, fl2;
	const char *text;

	if (is_tensorish(tv)) {
		if (tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(f->in, "if %s (a branch on a device tensor)", text_of(f, s->test)), &s->h);
		t = -1;
	}
	text = text_of(f, s->test);
	/* `if it % N == 0` in job code: periodic.  ecg reads one iteration;
	 * when `it` there skips the guard, the guarded code is still read (a
	 * constructor's `if i % 2 == 0` keeps its meaning: it is not job code) */
	if (f->mode != M_FWD && find_modulo(s->test, 0)) {
		const struct jctx *ojc = f->jc;
		enum flow gfl;

		if (t == 1 || (t == 0 && !f->cls && f->loop_anchor)) {
			f->jc = guard_ctx(f, s->test, text);
			gfl = exec_block(f, &s->body);
			f->jc = ojc;
			if (t == 1)
				return gfl;
			/* t == 0: the else branch runs on the other iterations */
			return exec_block(f, &s->orelse);
		}
	}
	if (!f->locals && f->globals == f->in->entry_ns && !f->in->ev.main_guard && strstr(text, "__name__") &&
	    strstr(text, "__main__"))
		f->in->ev.main_guard = anchor_at(f, &s->h);
	if (t == 1 || t == 0) {
		if (f->mode == M_FWD) {
			f->cond = t ? text : afmt_memo(f->in, "not (%s)", text, NULL);
			f->cond_taken = 1;
		}
		fl = exec_block(f, t ? &s->body : &s->orelse);
		f->cond = oc;
		f->cond_taken = ot;
		return fl;
	}
	f->cond = text;
	f->cond_taken = -1;
	{
		const struct jctx *ojc = f->jc;
		struct vdict *d = f->locals ? f->locals : f->globals->dict;
		struct vdict snap, after_body;

		/* Each branch starts from the same names; afterwards a name
		 * bound differently on the two paths is what the condition
		 * decides (see merge_branches). */
		dict_save(f->in, d, &snap);
		if (f->mode != M_FWD)
			f->jc = guard_ctx(f, s->test, text);
		fl = exec_block(f, &s->body);
		dict_save(f->in, d, &after_body);
		dict_restore(f->in, d, &snap);
		if (f->mode != M_FWD)
			f->jc = jc_push(f, JC_COND, anchor_at(f, &s->h), afmt_memo(f->in, "not (%s)", text, NULL));
		f->cond = afmt_memo(f->in, "not (%s)", text, NULL);
		fl2 = exec_block(f, &s->orelse);
		f->jc = ojc;
		if (fl == FL_RETURN || fl == FL_RAISE)
			;                                     /* only the else path goes on */
		else if (fl2 == FL_RETURN || fl2 == FL_RAISE)
			dict_restore(f->in, d, &after_body);  /* only the body's */
		else
			merge_branches(f, d, &snap, &after_body, text);
	}
	f->cond = oc;
	f->cond_taken = ot;
	/* both paths end the block only if both do */
	if (fl == FL_RETURN && fl2 == FL_RETURN)
		return FL_RETURN;
	if ((fl == FL_RAISE || fl == FL_RETURN) && (fl2 == FL_RAISE || fl2 == FL_RETURN))
		return fl == FL_RETURN ? FL_RETURN : fl2;
	return FL_NORMAL;
}

/* @app.post("/generate"), @app.route(...), @router.get(...) on an object of
 * a web framework: a request handler the framework will call. */
static int is_route_decorator(struct frame *f, const struct ast_hdr *d)
{
	static const char *const routes[] = { "get", "post", "put", "patch", "delete", "route",
	                                      "websocket", "api_route", NULL };
	static const char *const frameworks[] = { "fastapi.", "flask.", "starlette.", "sanic.", "aiohttp.",
	                                          "quart.", "litserve.", "bentoml.", "ray.serve.", NULL };
	const struct ast_Attribute *a;
	value_t *obj;
	size_t i;
	int route = 0;

	if (!AST_IS(d, Call) || !AST_IS(AST_AS(d, Call)->func, Attribute))
		return 0;
	a = AST_AS(AST_AS(d, Call)->func, Attribute);
	for (i = 0; routes[i]; i++)
		if (!strcmp(a->attr, routes[i]))
			route = 1;
	if (!route)
		return 0;
	obj = eval(f, a->value);
	if (obj->k != VK_INST || !obj->u.inst->ext)
		return 0;
	for (i = 0; frameworks[i]; i++)
		if (!strncmp(obj->u.inst->ext, frameworks[i], strlen(frameworks[i])))
			return 1;
	return 0;
}

static enum flow exec_stmt(struct frame *f, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	unsigned i;

	if (!budget(f))
		return FL_RAISE;
	switch (st->kind) {
	case AST_Expr:
		/* a lifespan's `yield`: what follows runs at shutdown */
		if (in->run_generators && (AST_IS(AST_AS(st, Expr)->value, Yield) ||
		                           AST_IS(AST_AS(st, Expr)->value, YieldFrom))) {
			f->ret = v_none(in->a);
			return FL_RETURN;
		}
		/* a generator object advanced: its first yield is the item */
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, Yield)) {
			const struct ast_Yield *y = AST_AS(AST_AS(st, Expr)->value, Yield);

			f->ret = y->value ? eval(f, y->value) : v_none(in->a);
			return FL_RETURN;
		}
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, YieldFrom)) {
			f->ret = unknown_at(f, st, "an item of `yield from`");
			return FL_RETURN;
		}
		if (AST_IS(AST_AS(st, Expr)->value, Constant)) {
			/* a docstring (or `...`): nothing to read, but the
			 * step that eval() would count */
			(void)budget(f);
			return FL_NORMAL;
		}
		(void)eval(f, AST_AS(st, Expr)->value);
		return FL_NORMAL;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(st, Assign);
		value_t *v;

		if (a->targets.n == 1)
			name_dims(f, a->targets.items[0], a->value);
		v = eval(f, a->value);
		if (in->trace_shapes)
			trace_shape(f, st, v);

		for (i = 0; i < a->targets.n; i++)
			assign(f, a->targets.items[i], v);
		return FL_NORMAL;
	}
	case AST_AnnAssign: {
		const struct ast_AnnAssign *a = AST_AS(st, AnnAssign);

		if (a->value)
			assign(f, a->target, eval(f, a->value));
		return FL_NORMAL;
	}
	case AST_AugAssign: {
		const struct ast_AugAssign *a = AST_AS(st, AugAssign);
		value_t *cur = eval(f, a->target), *r = eval(f, a->value);

		if (cur->k == VK_LIST && a->op == AST_OP_ADD && !iter_items(f, r, &(struct vseq *){ NULL })) {
			struct vseq *items;

			(void)iter_items(f, r, &items);
			for (i = 0; i < items->n; i++)
				vseq_push(in->a, cur->u.seq, items->items[i]);
			return FL_NORMAL;
		}
		assign(f, a->target, binop(f, a->op, cur, r, st, 1));
		return FL_NORMAL;
	}
	case AST_FunctionDef:
	case AST_AsyncFunctionDef: {
		const char *name = st->kind == AST_FunctionDef ? AST_AS(st, FunctionDef)->name
		                                                : AST_AS(st, AsyncFunctionDef)->name;
		const struct ast_list *decos = st->kind == AST_FunctionDef ? &AST_AS(st, FunctionDef)->decorator_list
		                                                           : &AST_AS(st, AsyncFunctionDef)->decorator_list;
		value_t *fv = make_function(f, st, name);

		for (i = 0; i < decos->n; i++) {
			const struct ast_hdr *d = decos->items[i];

			{
				const struct ast_hdr *dd = AST_IS(d, Call) ? AST_AS(d, Call)->func : d;
				value_t *dv = AST_IS(dd, Attribute) || AST_IS(dd, Name) ? eval(f, dd) : NULL;

				if (dv && dv->k == VK_EXT && (!strcmp(dv->u.ext, "torch.no_grad") ||
				                              !strcmp(dv->u.ext, "torch.inference_mode")))
					fv->u.fn->no_grad = 1;
			}
			if (f->mode != M_FWD && AST_IS(d, Call) && AST_IS(AST_AS(d, Call)->func, Attribute) &&
			    !strcmp(AST_AS(AST_AS(d, Call)->func, Attribute)->attr, "on_event") && in->nstartup < 16)
				in->startup[in->nstartup++] = fv;
			else if (f->mode != M_FWD && is_route_decorator(f, d) && in->nhandlers < 64) {
				in->handlers[in->nhandlers].fn = fv;
				in->handlers[in->nhandlers].anchor = anchor_at(f, st);
				in->nhandlers++;
				if (!in->ev.server)
					in->ev.server = anchor_at(f, d);
			}
			if (AST_IS(d, Name)) {
				const char *dn = AST_AS(d, Name)->id;

				if (!strcmp(dn, "staticmethod"))
					fv->u.fn->is_static = 1;
				else if (!strcmp(dn, "classmethod"))
					fv->u.fn->is_classmethod = 1;
				else if (!strcmp(dn, "property"))
					fv->u.fn->is_property = 1;
			}
		}
		/* Decorators written in the repository run, innermost first, as
		 * Python runs them: @register_model fills a registry.  What one
		 * returns is the function's value if it is a function; anything
		 * else keeps the function itself (a wrapper ecg cannot see into
		 * still calls it). */
		{
			value_t *cur = fv;
			unsigned k;

			for (k = decos->n; k-- > 0;) {
				value_t *dv = eval(f, decos->items[k]);
				value_t *r;

				if (dv->k != VK_FUNC && dv->k != VK_BOUND)
					continue;
				r = call(f, dv, &cur, 1, NULL, decos->items[k]);
				if (r->k == VK_FUNC || r->k == VK_BOUND)
					cur = r;
			}
			scope_bind(f, name, cur);
		}
		return FL_NORMAL;
	}
	case AST_ClassDef:
		exec_classdef(f, AST_AS(st, ClassDef));
		return FL_NORMAL;
	case AST_Return:
		f->ret = AST_AS(st, Return)->value ? eval(f, AST_AS(st, Return)->value) : v_none(in->a);
		return FL_RETURN;
	case AST_If:
		return exec_if(f, AST_AS(st, If));
	case AST_For: case AST_AsyncFor:
		return exec_for(f, (const struct ast_For *)st);
	case AST_Assert: {
		/* assert <a device tensor condition>: its truth is read on the host */
		value_t *tv = eval(f, AST_AS(st, Assert)->test);

		if (is_tensorish(tv) && tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, "assert %s (the truth of a device tensor)", text_of(f, AST_AS(st, Assert)->test)),
			    st);
		return FL_NORMAL;
	}
	case AST_While: {
		const struct ast_While *w = AST_AS(st, While);
		value_t *tv = eval(f, w->test);
		enum flow fl;

		if (is_tensorish(tv) && tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, "while %s (a loop condition on a device tensor)", text_of(f, w->test)),
			    &w->h);

		if (value_truth(tv) == 0)
			return exec_block(f, &w->orelse);
		if (f->mode == M_FWD) {
			fl = run_body_once(f, &w->body, -1, text_of(f, w->test), NULL, VIA_DEFAULT,
			                   afmt(in, "the trip count of `while %s` is not known", text_of(f, w->test)));
		} else {
			const char *ol = f->loop_anchor;
			const struct jctx *ojc = f->jc;

			f->jc = jc_push(f, JC_LOOP, anchor_at(f, st), afmt(in, "while %s", text_of(f, w->test)));
			f->loop_anchor = anchor_at(f, st);
			fl = exec_block(f, &w->body);
			f->loop_anchor = ol;
			f->jc = ojc;
		}
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	case AST_With: case AST_AsyncWith: {
		const struct ast_With *w = (const struct ast_With *)st;
		int ng = 0;
		enum flow fl;
		const struct jctx *ojc = f->jc, *pushed = NULL;

		for (i = 0; i < w->items.n; i++) {
			const struct ast_withitem *wi = AST_AS(w->items.items[i], withitem);
			value_t *cv = eval(f, wi->context_expr);

			if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.no_grad")) {
				ng = 1;
				if (!in->ev.no_grad && f->mode != M_FWD)
					in->ev.no_grad = anchor_at(f, st);
				pushed = jc_push(f, JC_NO_GRAD, anchor_at(f, st), text_of(f, wi->context_expr));
			} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.autocast")) {
				pushed = jc_push(f, JC_AUTOCAST, anchor_at(f, st), text_of(f, wi->context_expr));
			} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.cuda.stream")) {
				value_t *t = vdict_gets(cv->u.inst->attrs, "text");

				pushed = jc_push(f, JC_STREAM, anchor_at(f, st), t && t->k == VK_STR ? t->u.str.s : "a stream");
			} else if (AST_IS(wi->context_expr, Call) && AST_IS(AST_AS(wi->context_expr, Call)->func, Attribute) &&
			           !strcmp(AST_AS(AST_AS(wi->context_expr, Call)->func, Attribute)->attr, "no_sync")) {
				pushed = jc_push(f, JC_NO_SYNC, anchor_at(f, st), text_of(f, wi->context_expr));
			}
			if (pushed) {
				f->jc = pushed;
				pushed = NULL;
			}
			if (wi->optional_vars)
				assign(f, wi->optional_vars, cv->k == VK_INST ? cv
				       : v_unknown(in->a, text_of(f, wi->optional_vars), "a context manager's value"));
		}
		f->no_grad += ng;
		fl = exec_block(f, &w->body);
		f->no_grad -= ng;
		f->jc = ojc;
		return fl;
	}
	case AST_Try: case AST_TryStar: {
		const struct ast_Try *t = (const struct ast_Try *)st;
		enum flow fl = exec_block(f, &t->body);

		if (fl == FL_NORMAL && t->orelse.n)
			fl = exec_block(f, &t->orelse);
		if (t->finalbody.n) {
			enum flow f2 = exec_block(f, &t->finalbody);

			if (f2 != FL_NORMAL)
				fl = f2;
		}
		return fl == FL_RAISE ? FL_NORMAL : fl;
	}
	case AST_Import:
		exec_import(f, AST_AS(st, Import));
		return FL_NORMAL;
	case AST_ImportFrom:
		exec_import_from(f, AST_AS(st, ImportFrom));
		return FL_NORMAL;
	case AST_Global: {
		const struct ast_Global *g = AST_AS(st, Global);

		if (!f->globals_decl)
			f->globals_decl = ast_arena_alloc(in->a, sizeof *f->globals_decl);
		for (i = 0; i < g->names.n; i++) {
			const char **ns = ast_arena_alloc(in->a, (f->globals_decl->n + 1) * sizeof *ns);

			if (f->globals_decl->n)
				memcpy(ns, f->globals_decl->s, f->globals_decl->n * sizeof *ns);
			ns[f->globals_decl->n++] = g->names.items[i];
			f->globals_decl->s = ns;
		}
		return FL_NORMAL;
	}
	case AST_Raise:
		return FL_RAISE;
	case AST_Break:
		return FL_BREAK;
	case AST_Continue:
		return FL_CONTINUE;
	case AST_Delete: {
		const struct ast_Delete *d = AST_AS(st, Delete);

		for (i = 0; i < d->targets.n; i++) {
			const struct ast_hdr *t = d->targets.items[i];

			if (AST_IS(t, Name) && f->locals)
				vdict_del(f->locals, v_str(in->a, AST_AS(t, Name)->id));
		}
		return FL_NORMAL;
	}
	case AST_Match:
		return FL_NORMAL;
	default:
		return FL_NORMAL;
	}
}

enum flow exec_block(struct frame *f, const struct ast_list *body)
{
	unsigned i;

	if (!body)
		return FL_NORMAL;
	for (i = 0; i < body->n; i++) {
		enum flow fl = exec_stmt(f, body->items[i]);

		if (fl != FL_NORMAL)
			return fl;
	}
	return FL_NORMAL;
}

/* ------------------------------------------------------------------ the public side */

struct interp *interp_new(struct prog *p, const struct catalog *cat)
{
	static const struct { const char *n; int id; } bis[] = {
		{ "range", BI_RANGE }, { "len", BI_LEN }, { "int", BI_INT }, { "float", BI_FLOAT },
		{ "str", BI_STR }, { "bool", BI_BOOL }, { "list", BI_LIST }, { "tuple", BI_TUPLE },
		{ "dict", BI_DICT }, { "set", BI_SET }, { "frozenset", BI_SET }, { "enumerate", BI_ENUMERATE },
		{ "zip", BI_ZIP }, { "min", BI_MIN }, { "max", BI_MAX }, { "sum", BI_SUM }, { "abs", BI_ABS },
		{ "round", BI_ROUND }, { "print", BI_PRINT }, { "isinstance", BI_ISINSTANCE },
		{ "getattr", BI_GETATTR }, { "setattr", BI_SETATTR }, { "hasattr", BI_HASATTR },
		{ "super", BI_SUPER }, { "open", BI_OPEN }, { "exec", BI_EXEC }, { "sorted", BI_SORTED },
		{ "reversed", BI_REVERSED }, { "any", BI_ANY }, { "all", BI_ALL },
		{ "staticmethod", BI_STATICMETHOD }, { "classmethod", BI_CLASSMETHOD }, { "property", BI_PROPERTY },
		{ "globals", BI_GLOBALS }, { "iter", BI_ITER }, { "next", BI_NEXT },
	};
	struct interp *in = xcalloc(1, sizeof *in);
	size_t i;

	in->prog = p;
	in->cat = cat;
	in->a = ast_arena_new_large();
	in->ns = xcalloc(p->n + 1, sizeof *in->ns);
	in->builtins = vdict_new(in->a);
	in->overrides = vdict_new(in->a);
	for (i = 0; i < sizeof bis / sizeof bis[0]; i++)
		vdict_sets(in->a, in->builtins, bis[i].n, mk_builtin(in, bis[i].id, NULL));
	vdict_sets(in->a, in->builtins, "__name__", v_str(in->a, "builtins"));
	in->trace_shapes = getenv("ECG_TRACE_SHAPES") != NULL;
	in->trace_steps = getenv("ECG_TRACE_STEPS") != NULL;
	return in;
}

static int hot_cmp(const void *a, const void *b)
{
	long x = ((const struct hot *)a)->n, y = ((const struct hot *)b)->n;

	return (y > x) - (y < x);
}

void interp_free(struct interp *in)
{
	size_t i;

	if (!in)
		return;
	if (in->trace_steps) {
		qsort(in->hot, in->nhot, sizeof in->hot[0], hot_cmp);
		fprintf(stderr, "steps: %ld in all\n", in->steps);
		for (i = 0; i < in->nhot && i < 25; i++)
			fprintf(stderr, "steps: %8ld  %s\n", in->hot[i].n * 1024, in->hot[i].key);
	}
	ast_arena_free(in->a);
	free(in->ns);
	free(in->roots);
	free(in->models);
	free(in->model_names);
	free(in->notes);
	free(in->sev);
	free(in->strs);
	free(in->amemo);
	free(in->tmemo);
	free(in->genmemo);
	free(in->fmemo);
	free(in->fncost);
	free(in);
}

struct ast_arena *interp_arena(struct interp *in)
{
	return in->a;
}

const struct catalog *interp_catalog(const struct interp *in)
{
	return in->cat;
}

void interp_set_override(struct interp *in, const char *key, const char *text)
{
	char *end;
	long long i = strtoll(text, &end, 0);
	value_t *v;
	size_t n = strlen(text);

	if (*text && !*end) {
		v = v_int(in->a, i);
	} else {
		double d = strtod(text, &end);

		if (*text && !*end)
			v = v_float(in->a, d);
		else if (!strcmp(text, "True") || !strcmp(text, "true"))
			v = v_bool(in->a, 1);
		else if (!strcmp(text, "False") || !strcmp(text, "false"))
			v = v_bool(in->a, 0);
		else if (!strcmp(text, "None") || !strcmp(text, "null"))
			v = v_none(in->a);
		else if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
			v = v_strn(in->a, text + 1, n - 2);
		else
			v = v_str(in->a, text);
	}
	vdict_sets(in->a, in->overrides, key, v);
}

void interp_set_loader(struct interp *in, interp_load_fn fn, void *ctx)
{
	in->load = fn;
	in->load_ctx = ctx;
}

void interp_set_argv(struct interp *in, const char *const *argv, size_t n)
{
	size_t i;

	in->argv = v_seq(in->a, VK_LIST, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, in->argv->u.seq, v_str(in->a, argv[i]));
}

/* Run a file as the job does: as __main__ (func NULL), or imported under
 * its own name and then func() called, as a console script's wrapper does. */
static int interp_run(struct interp *in, struct sfile *entry, const char *func)
{
	size_t idx = (size_t)(entry - in->prog->files);
	struct vns *ns;
	struct frame f;

	in->entry_path = entry->path;
	prog_ensure(in->prog, entry);
	if (!entry->mod)
		return -1;
	ns = ast_arena_alloc(in->a, sizeof *ns);
	ns->file = entry;
	ns->dict = vdict_new(in->a);
	ns->state = 1;
	in->ns[idx] = ns;
	in->entry_ns = ns;
	vdict_sets(in->a, ns->dict, "__name__", v_str(in->a, func && entry->modname ? entry->modname : "__main__"));
	vdict_sets(in->a, ns->dict, "__file__", v_str(in->a, entry->path));
	memset(&f, 0, sizeof f);
	f.in = in;
	f.file = entry;
	f.globals = ns;
	f.mode = M_JOB;
	f.mult = 1;
	f.cond_taken = -1;
	(void)exec_block(&f, &entry->mod->body);
	ns->state = 2;
	if (func) {
		value_t *fn = vdict_gets(ns->dict, func);

		if (!fn || fn->k != VK_FUNC)
			return -1;
		/* the job starts at the function: its definition is the anchor */
		in->ev.main_guard = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
		                         fn->u.fn->def->line);
		(void)call_function(&f, fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
	}
	/* the server's start-up (lifespan, on_event("startup")), then the
	 * request handlers the framework would call, once each */
	{
		size_t i;

		in->run_generators = 1;
		for (i = 0; i < in->nstartup; i++) {
			struct frame sf = f;
			value_t *app = v_unknown(in->a, "app", "the application object");

			(void)call_function(&sf, in->startup[i]->u.fn, NULL, &app, 1, NULL, M_JOB, NULL, NULL);
		}
		in->run_generators = 0;

		for (i = 0; i < in->nhandlers; i++) {
			struct frame hf = f;

			hf.handler = in->handlers[i].anchor;
			(void)call_function(&hf, in->handlers[i].fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
		}
	}
	return 0;
}

void interp_run_entry(struct interp *in, struct sfile *entry)
{
	(void)interp_run(in, entry, NULL);
}

int interp_run_function(struct interp *in, struct sfile *file, const char *func)
{
	return interp_run(in, file, func);
}

const struct root_call *interp_roots(const struct interp *in, size_t *n)
{
	*n = in->nroots;
	return in->roots;
}

struct vinst *const *interp_models(const struct interp *in, const char *const **names, size_t *n)
{
	*n = in->nmodels;
	*names = in->model_names;
	return in->models;
}

/* What a layer (or a module ecg cannot read) returns: a tensor that lives
 * where its input does, with the shape the catalogue's rule gives. */
static value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                             struct vdict *kwargs)
{
	int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;
	size_t i;
	value_t *r;
	struct vshape os;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]) && args[i]->dev == DEV_HOST)
			dev = DEV_HOST;
	r = v_tensor_dev(in->a, dev, 0);
	if (m->mod == VM_LAYER && cg_out_shape(in->cat, m, -1, args, nargs, kwargs, &os) == 0) {
		struct vshape *s = shape_new(in->a, os.nd);

		if (s) {
			*s = os;
			r->shape = s;
		}
	}
	if (m->mod == VM_LAYER && m->ext) {
		/* the layers that return a tuple: (output, h_n), (output,
		 * (h_n, c_n)), (attn_output, attn_weights or None) */
		const char *c = m->ext;
		value_t *t;

		if (!strcmp(c, "torch.nn.RNN") || !strcmp(c, "torch.nn.GRU") || !strcmp(c, "torch.nn.LSTM")) {
			t = v_seq(in->a, VK_TUPLE, 2);
			vseq_push(in->a, t->u.seq, r);
			if (!strcmp(c, "torch.nn.LSTM")) {
				value_t *hc = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, t->u.seq, hc);
			} else {
				vseq_push(in->a, t->u.seq, v_tensor_dev(in->a, dev, 0));
			}
			return t;
		}
		if (!strcmp(c, "torch.nn.MultiheadAttention")) {
			value_t *nw = kwargs ? vdict_gets(kwargs, "need_weights") : NULL;

			t = v_seq(in->a, VK_TUPLE, 2);
			vseq_push(in->a, t->u.seq, r);
			vseq_push(in->a, t->u.seq, !nw || value_truth(nw) == 1 ? v_tensor_dev(in->a, dev, 0)
			                           : value_truth(nw) == 0 ? v_none(in->a)
			                           : v_unknown(in->a, "need_weights", "need_weights is not known"));
			return t;
		}
	}
	return r;
}

value_t *interp_forward(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                        struct vdict *kwargs, struct fseq *out)
{
	struct frame f;
	value_t *fwd;
	struct vclass *owner = NULL;
	struct fwdinfo *fi = m->entry;

	memset(&f, 0, sizeof f);
	f.in = in;
	f.mode = M_FWD;
	f.ev = out;
	f.mult = 1;
	f.cond_taken = -1;
	if (m->mod == VM_CONTAINER) {
		if (m->ext && !strcmp(m->ext, "torch.nn.Sequential") && in->prog->n) {
			f.file = &in->prog->files[0];
			f.qualname = "<module>";
			return sequential_forward(in, m, nargs ? args[0] : v_tensor(in->a), out, &f,
			                          fi ? fi->call_anchor : NULL);
		}
		return v_unknown(in->a, NULL, "a container is not callable");
	}
	if (m->mod != VM_REPO || !m->cls || !(fwd = class_lookup(m->cls, "forward", &owner)) || fwd->k != VK_FUNC)
		return layer_result(in, m, args, nargs, kwargs);
	f.file = fwd->u.fn->file;
	f.globals = fwd->u.fn->globals;
	f.qualname = fwd->u.fn->qualname;
	{
		value_t **a2 = xmalloc((nargs + 1) * sizeof *a2);
		size_t i;
		value_t *r;

		/* arguments not known at the call are tensors in a forward */
		for (i = 0; i < nargs; i++)
			a2[i] = args[i]->k == VK_UNKNOWN ? v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0) : args[i];
		r = call_function(&f, fwd->u.fn, mk_inst_value(in, m), a2, nargs, kwargs, M_FWD, out, NULL);
		free(a2);
		return r;
	}
}

const char *interp_forward_anchor(struct interp *in, struct vinst *m)
{
	value_t *fwd;
	struct vclass *owner = NULL;

	if (!m->cls)
		return NULL;
	fwd = class_lookup(m->cls, "forward", &owner);
	if (!fwd || fwd->k != VK_FUNC)
		return NULL;
	return aanchor(in, fwd->u.fn->file->path, fwd->u.fn->qualname, fwd->u.fn->def->line);
}

const struct interp_note *interp_notes(const struct interp *in, size_t *n)
{
	*n = in->nnotes;
	return in->notes;
}

const char *interp_class_name(const struct vinst *m)
{
	if (m->cls)
		return m->cls->name;
	return m->ext ? m->ext : "?";
}

const struct fseq *interp_events_of(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? &fi->seq : NULL;
}

value_t *interp_forward_ret(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi && fi->state == 2 ? fi->ret : NULL;
}

const char *interp_call_anchor(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? fi->call_anchor : NULL;
}

int interp_saw_backward(const struct interp *in)
{
	return in->saw_backward;
}

const struct interp_evidence *interp_evidence(const struct interp *in)
{
	return &in->ev;
}

size_t interp_candidates(const struct interp *in, struct vinst *const **insts, const char *const **anchors)
{
	*insts = in->models;
	*anchors = in->model_names;
	return in->nmodels;
}

const struct sched_ev *interp_sched(const struct interp *in, size_t *n)
{
	*n = in->nsev;
	return in->sev;
}
