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

#include <ctype.h>
#include <strings.h>

#include "ecg/catalog.h"
#include "internal.h"
#include "ecg/catalog.h"

/* The place every tensor of a list or tuple v lives (DEV_HOST or
 * DEV_DEVICE), when v's items are known (or v is x.unbind()'s pieces of
 * a number not known: where x is), there is at least one, and all are
 * tensors in the same known place; DEV_UNKNOWN otherwise. */
static int seq_tensors_dev(const value_t *v)
{
	int dev = DEV_UNKNOWN;
	size_t i;

	if (!v || (v->k != VK_LIST && v->k != VK_TUPLE) || !v->u.seq->n ||
	    (v->u.seq->unk_reason && strcmp(v->u.seq->unk_reason, TENSOR_PIECES_REASON)))
		return DEV_UNKNOWN;
	for (i = 0; i < v->u.seq->n; i++) {
		const value_t *t = v->u.seq->items[i];

		if (t->k != VK_TENSOR || t->dev == DEV_UNKNOWN || (dev != DEV_UNKNOWN && t->dev != dev))
			return DEV_UNKNOWN;
		dev = t->dev;
	}
	return dev;
}

static value_t *call_torch_(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site, int any_tensor);

/* ------------------------------------------------------------------ external names */

/* Canonical dotted name for an external: aliases of torch modules folded. */
const char *canon_ext(struct interp *in, const char *d)
{
	const char *to = catalog_fact(in->cat, CATALOG_F_NAME_FOLDS, d);

	if (to)
		return to;
	/* torch.nn.modules.<file>.<Class> -> torch.nn.<Class> */
	if (!strncmp(d, "torch.nn.modules.", 17)) {
		const char *last = strrchr(d, '.');

		if (last && last[1] >= 'A' && last[1] <= 'Z')
			return afmt(in, "torch.nn.%s", last + 1);
	}
	return d;
}

/* Is c a repository class whose external base is torch's DataLoader
 * (class InfiniteDataLoader(torch.utils.data.DataLoader))? */
int class_is_torch_loader(struct interp *in, struct vclass *c)
{
	const char *b = c ? class_ext_base(c) : NULL;

	b = b ? canon_ext(in, b) : NULL;
	return b && !strncmp(b, "torch.", 6) && !strcmp(short_ext(b), "DataLoader");
}

/* A DataLoader: torch's or another library's (an external whose name says
 * so), its iterator (super().__iter__() of a subclass, loader_iter), or an
 * instance of a repository subclass of torch's whose base constructor ran
 * (loader_init marked it) and which keeps the base's __iter__: its batches
 * are the base's.  A subclass with an __iter__ of its own is not one: its
 * __iter__ is read (a generator: iter_dunder_gen). */
int is_loader(const value_t *v)
{
	if (v->k != VK_INST)
		return 0;
	if (v->u.inst->ext)
		return strstr(v->u.inst->ext, "DataLoader") != NULL ||
		       (!v->u.inst->cls && vdict_gets(v->u.inst->attrs, "__ecg_loader__"));
	return v->u.inst->cls && v->u.inst->mod == VM_NONE && vdict_gets(v->u.inst->attrs, "__ecg_loader__") &&
	       !class_lookup(v->u.inst->cls, "__iter__", NULL);
}

/* Is cf a collate_fn of the job's own: a repository function, or an
 * object of a repository class whose __call__ is a plain method
 * (class DataCollator: def __call__(self, data): ...)? */
static int own_collate(struct interp *in, const value_t *cf)
{
	return cf->k == VK_FUNC || repo_method(in, cf, "__call__", 0) != NULL;
}

/* What torch's DataLoader constructor keeps of its arguments, set on o
 * (a DataLoader, or a repository subclass's instance whose
 * super().__init__ reached torch's): pin_memory, dataset, batch_size,
 * the anchor; and the schedule's DataLoader event with the arguments. */
static void loader_init(struct frame *f, struct vinst *o, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e = sev(f, SEV_LOADER, "DataLoader", site);
	value_t *ds = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "dataset") : NULL;
	value_t *bs = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "batch_size") : NULL;
	size_t i;

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
	/* pin_memory as given: alternatives of a `**(d1 if c else d2)`
	 * kept (loader_pins reads them) */
	{
		value_t *pm = kw ? vdict_gets(kw, "pin_memory") : NULL;

		vdict_sets(in->a, o->attrs, "pin_memory",
		           pm && (pm->alts || value_truth(pm) < 0) ? pm : v_bool(in->a, kw_bool(kw, "pin_memory")));
	}
	/* num_workers (0 by default: the samples are fetched in the job's
	 * own process, loader_batch) */
	vdict_sets(in->a, o->attrs, "num_workers",
	           kw && vdict_gets(kw, "num_workers") ? vdict_gets(kw, "num_workers")
	           : nargs >= 6 ? args[5] : v_int(in->a, 0));
	vdict_sets(in->a, o->attrs, "__anchor__", v_str(in->a, anchor_at(f, site)));
	vdict_sets(in->a, o->attrs, "__ecg_loader__", v_bool(in->a, 1));
	/* what torch's constructor sets on every loader (_iterator = None):
	 * catalog loader_init_attrs, only None values read */
	{
		const char *name, *val;

		for (i = 0; (name = catalog_fact_key_at(in->cat, CATALOG_F_LOADER_INIT_ATTRS, i, &val)); i++)
			if (val && !strcmp(val, "None"))
				vdict_sets(in->a, o->attrs, name, v_none(in->a));
	}
	if (ds)
		vdict_sets(in->a, o->attrs, "dataset", ds);
	/* batch_size defaults to 1; a batch_sampler decides it otherwise */
	if (!bs && !(kw && vdict_gets(kw, "batch_sampler")))
		bs = v_int(in->a, 1);
	if (bs)
		vdict_sets(in->a, o->attrs, "batch_size", bs);
	/* a collate_fn of the job's own (a function, or an object of a
	 * class of the job's with a __call__): loader_batch reads it */
	if (kw && vdict_gets(kw, "collate_fn") && own_collate(in, vdict_gets(kw, "collate_fn")))
		vdict_sets(in->a, o->attrs, "__ecg_collate_fn__", vdict_gets(kw, "collate_fn"));
	/* no collate_fn given (none, or None; not through a `**` of keys
	 * not known): torch's default collate makes the batch (collate.c) */
	if (nargs < 7 && !(kw && (vdict_gets(kw, KW_UNK_DSTAR) || vdict_gets(kw, KW_UNK_STAR)))
	    && (!kw || !vdict_gets(kw, "collate_fn") || vdict_gets(kw, "collate_fn")->k == VK_NONE))
		vdict_sets(in->a, o->attrs, "__ecg_default_collate__", v_bool(in->a, 1));
	/* the samplers it builds when none is given (loadersampler.c) */
	loader_samplers(f, o, args, nargs, kw);
}

/* An object of an outside class that is a torch DataLoader (catalog
 * outside_loaders: webdataset's WebLoader wraps one, same arguments):
 * marked a loader (is_loader), read as torch's constructor reads its
 * arguments.  1 when d is one, else 0. */
int outside_loader_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	if (!catalog_fact(f->in->cat, CATALOG_F_OUTSIDE_LOADERS, d))
		return 0;
	vdict_sets(f->in->a, o->attrs, "__ecg_loader__", v_bool(f->in->a, 1));
	loader_init(f, o, args, nargs, kw, site);
	return 1;
}

/* super().__init__(...) of a repository subclass of torch's DataLoader
 * (self an instance of it): the base's constructor, loader_init.  1 when
 * self is such an instance (done), 0 otherwise (nothing done). */
int loader_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	if (f->mode == M_FWD || self->k != VK_INST || self->u.inst->mod != VM_NONE ||
	    !class_is_torch_loader(f->in, self->u.inst->cls))
		return 0;
	loader_init(f, self->u.inst, args, nargs, kw, site);
	return 1;
}

/* super().__iter__() of a repository subclass of torch's DataLoader
 * (self->attrs what its base constructor kept): the base's iterator over
 * the loader's batches, an object of its own sharing the loader's
 * attributes; next() of it is a batch (is_loader). */
value_t *loader_iter(struct interp *in, value_t *self)
{
	struct vinst *it = new_inst(in);

	it->ext = "torch.utils.data.dataloader._BaseDataLoaderIter";
	it->attrs = self->u.inst->attrs;
	return mk_inst_value(in, it);
}


/* The number of items of the tuple every `return` of a function's body
 * gives (return img, target: 2), or 0 when one gives anything else, none
 * is there, or it yields.  Nested functions and classes are not read. */
static size_t returns_tuple_len(const struct ast_list *body, size_t k)
{
	size_t i, j;

	for (i = 0; i < body->n && k != (size_t)-1; i++) {
		const struct ast_hdr *st = body->items[i];

		switch (st->kind) {
		case AST_Return: {
			const struct ast_hdr *v = AST_AS(st, Return)->value;
			size_t n;

			if (!AST_IS(v, Tuple)) {
				k = (size_t)-1;
				break;
			}
			n = AST_AS(v, Tuple)->elts.n;
			for (j = 0; j < n; j++)
				if (AST_IS(AST_AS(v, Tuple)->elts.items[j], Starred))
					n = 0;
			k = !n || (k && k != n) ? (size_t)-1 : n;
			break;
		}
		case AST_If:
			k = returns_tuple_len(&AST_AS(st, If)->orelse, returns_tuple_len(&AST_AS(st, If)->body, k));
			break;
		case AST_For:
			k = returns_tuple_len(&AST_AS(st, For)->orelse, returns_tuple_len(&AST_AS(st, For)->body, k));
			break;
		case AST_While:
			k = returns_tuple_len(&AST_AS(st, While)->orelse, returns_tuple_len(&AST_AS(st, While)->body, k));
			break;
		case AST_With:
			k = returns_tuple_len(&AST_AS(st, With)->body, k);
			break;
		case AST_Try:
			k = returns_tuple_len(&AST_AS(st, Try)->body, k);
			k = returns_tuple_len(&AST_AS(st, Try)->orelse, k);
			k = returns_tuple_len(&AST_AS(st, Try)->finalbody, k);
			for (j = 0; j < AST_AS(st, Try)->handlers.n; j++)
				k = returns_tuple_len(&AST_AS(AST_AS(st, Try)->handlers.items[j], ExceptHandler)->body, k);
			break;
		case AST_Expr:
			if (AST_IS(AST_AS(st, Expr)->value, Yield) || AST_IS(AST_AS(st, Expr)->value, YieldFrom))
				k = (size_t)-1;
			break;
		default:
			break;
		}
	}
	return k;
}

/* One sample of dataset ds as its collate_fn receives it, when the
 * shape of it is read from the code: a repository class's own
 * __getitem__ whose every return is a tuple of k items gives k host
 * tensors standing each for what is there (loose: what the item is
 * is not read); NULL otherwise. */
static value_t *dataset_sample(struct interp *in, const value_t *ds)
{
	value_t *gi = ds && ds->k == VK_INST && ds->u.inst->cls && ds->u.inst->mod == VM_NONE
	              ? class_lookup(ds->u.inst->cls, "__getitem__", NULL) : NULL;
	const struct ast_hdr *def = gi && gi->k == VK_FUNC ? gi->u.fn->def : NULL;
	value_t *t;
	size_t k, i;

	if (!AST_IS(def, FunctionDef))
		return NULL;
	k = returns_tuple_len(&AST_AS(def, FunctionDef)->body, 0);
	if (!k || k == (size_t)-1)
		return NULL;
	t = v_seq(in->a, VK_TUPLE, k);
	for (i = 0; i < k; i++) {
		value_t *x = v_tensor_dev(in->a, DEV_HOST, 0);

		x->loose = 1;
		vseq_push(in->a, t->u.seq, x);
	}
	return t;
}

/* A collective of Python objects (catalog object_collectives) on a NCCL
 * group: the pickled objects copied to the current device (an H2D of
 * values, not a batch) and their sizes read on the host (a sync), at the
 * call. */
void object_collective_nccl(struct frame *f, const char *coll, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *h = sev(f, SEV_H2D, afmt(in, "%s (the pickled objects copied to the device: NCCL)", coll), site);

	if (h) {
		h->pinned = 0;
		h->non_blocking = 0;
		h->of_values = 1;       /* Python objects, no batch */
	}
	(void)sev(f, SEV_SYNC, afmt(in, "%s (the objects' sizes read on the host: NCCL)", coll), site);
}

/* torch's DataLoader with num_workers 0 fetches each sample of a batch in
 * the job's own process: the dataset's __getitem__ (a method of the
 * repository's Dataset class) runs batch_size times per batch, where the
 * loop takes the batch.  Read once under a JC_REPEAT of that many trips
 * (not known: a batch size not known or a batch_sampler), so what it does
 * on the device (a sample moved with .cuda()) is the batch's.  Its
 * result is not the batch (collate decides that): it is returned, one
 * sample as read (the index an int >= 0 not known, as a sampler gives
 * it), for a collate_fn of the job's own.  Nothing, and NULL, when the
 * workers are other processes, or their number is not known. */
static value_t *loader_fetch_samples(struct frame *f, const struct vinst *dl, value_t *ds, const value_t *bs,
                                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *nw = vdict_gets(dl->attrs, "num_workers");
	const struct jctx *ojc = f->jc;
	struct jctx *j;
	struct vfunc *gi;
	value_t *idx;
	value_t *r;
	long long w, b;
	int ok = 0, okb = 0;

	if (f->mode == M_FWD || !vdict_gets(dl->attrs, "__ecg_loader__") || !ds || !nw)
		return NULL;
	w = as_int(nw, &ok);
	if (!ok || w != 0 || !(gi = repo_method(in, ds, "__getitem__", -1)))
		return NULL;
	b = bs ? as_int(bs, &okb) : -1;
	j = (struct jctx *)jc_push(f, JC_REPEAT, anchor_at(f, site),
	                           afmt(in, "each sample of the batch (%s.__getitem__)", ds->u.inst->cls->name));
	j->trips = okb && b > 0 ? b : -1;
	f->jc = j;
	idx = v_unknown(in->a, "index", "a sample's index, the sampler's");
	idx->nonneg = FACT_NONNEG_INT;
	r = call_function(f, gi, ds, &idx, 1, NULL, f->mode, f->ev, site);
	f->jc = ojc;
	return r;
}

/* One sample of ds read on the side (collate.c) for a torch DataLoader
 * whose workers are other processes (num_workers not 0, or not known):
 * what the dataset's __getitem__ returns there, without its events; of
 * an iterable-style dataset of the repository's (no __getitem__, an
 * __iter__ that is a generator: class D(IterableDataset)), the first item
 * its __iter__ yields there.  Given batch_size=None the loader does not
 * collate: it hands each item over through default_convert, which leaves
 * a tensor as it is but not a Python number -- so such an item is taken
 * only when every leaf of it is a tensor (then the default collate's
 * structure is the item's own).  NULL when the loader fetches in the
 * job's process (loader_fetch_samples read it), or the dataset has no
 * such method of the repository's. */
static value_t *loader_side_sample(struct frame *f, const struct vinst *dl, value_t *ds, const value_t *bs,
                                   const struct ast_hdr *site)
{
	const value_t *nw = vdict_gets(dl->attrs, "num_workers");
	struct vfunc *gi;
	value_t *r;
	long long w;
	int ok = 0;

	if (f->mode == M_FWD || !vdict_gets(dl->attrs, "__ecg_loader__") || !ds)
		return NULL;
	w = nw ? as_int(nw, &ok) : -1;
	if (ok && w == 0)
		return NULL;
	if ((gi = repo_method(f->in, ds, "__getitem__", -1)))
		return sample_side_read(f, ds, gi, site);
	if (!(gi = repo_method(f->in, ds, "__iter__", 1)) || !(r = sample_side_iter(f, ds, gi, site)))
		return NULL;
	return !bs || bs->k != VK_NONE || tensor_leaves(r, 0) ? r : NULL;
}

/* Is v a non-empty dict or tuple whose every part is a tensor (a batch
 * as a collate_fn builds it)? */
static int tensor_parts(const value_t *v)
{
	size_t i, n;

	if (v->k == VK_DICT) {
		if (!(n = v->u.dict->n))
			return 0;
		for (i = 0; i < n; i++)
			if (v->u.dict->vals[i]->k != VK_TENSOR)
				return 0;
		return 1;
	}
	if (v->k != VK_TUPLE || v->u.seq->unk_reason || !(n = v->u.seq->n))
		return 0;
	for (i = 0; i < n; i++)
		if (v->u.seq->items[i]->k != VK_TENSOR)
			return 0;
	return 1;
}

/* Does a loader told pin_memory=pm pin its batches: 1, 0, or -1 when not
 * known.  Alternatives of the condition under which the job's device is a
 * GPU (devchoice.c: `kwargs = {"pin_memory": True} if use_cuda else {}`
 * with the device chosen by use_cuda) are read on that condition's side:
 * a batch is copied to the device only there.  A side that does not pass
 * the keyword is DataLoader's default, False.  A machine query
 * (torch.cuda.is_available()), or a value that depends on the device's
 * own condition, is true where a batch reaches a CUDA device; any other
 * value the code does not decide: not known. */
static int loader_pins(struct interp *in, const value_t *pm)
{
	const char *gpu = interp_gpu_condition(in);

	if (pm && pm->k == VK_UNKNOWN && pm->alts && pm->alt_cond && gpu && !strcmp(pm->alt_cond, gpu)) {
		const value_t *side = pm->alts[0];

		return side->k == VK_UNKNOWN && side->reason && !strcmp(side->reason, KW_ABSENT_REASON)
		       ? 0 : value_truth(side);
	}
	/* pin_memory=torch.cuda.is_available(), or a value two paths of the
	 * device's own choice left (`if use_cuda: kwargs.update(pin_memory=
	 * True)`): pinning is asked for a GPU, and a batch is copied to a
	 * CUDA device only on that side */
	if (pm && pm->k == VK_UNKNOWN && !pm->alts && pm->reason &&
	    (!strcmp(pm->reason, MACHINE_REASON) ||
	     (gpu && !strcmp(pm->reason, afmt_memo(in, "depends on `%s`, which is not decided here", gpu, NULL)))))
		return 1;
	return pm ? value_truth(pm) : 0;
}

/* One batch of DataLoader dl: host tensors, pinned if it pins (a loader
 * accelerate prepared, marked __ecg_to_device__: an H2D at the loop, device
 * tensors).  The
 * iteration is recorded as `what` (a data hop), unless what is NULL. */
value_t *loader_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *pm = vdict_gets(dl->attrs, "pin_memory");
	value_t *ds = vdict_gets(dl->attrs, "dataset"), *bs = vdict_gets(dl->attrs, "batch_size");
	const value_t *dc = vdict_gets(dl->attrs, "__ecg_device_cond__");
	value_t *tensors = ds && ds->k == VK_INST ? vdict_gets(ds->u.inst->attrs, "tensors") : NULL;
	value_t *fetched = NULL;      /* a sample __getitem__ gave (loader_fetch_samples) */
	/* what the copy's source is: pinned as torch's DataLoader kept it
	 * (False by default); a loader of another library's class pins as
	 * its constructor was told, else not known */
	int src_pinned = loader_pins(in, pm);
	int pinned = src_pinned < 0 ? PIN_UNKNOWN : src_pinned, to_dev = 0;
	value_t *made = devbatch_batch(f, dl, what, site);   /* a library's iterator's own batch */

	if (made)
		return made;

	if (!vdict_gets(dl->attrs, "__ecg_loader__") && !pm) {
		const value_t *a = dl->args ? vdict_gets(dl->args, "pin_memory") : NULL;

		src_pinned = a ? value_truth(a) : -1;
		pinned = src_pinned < 0 ? PIN_UNKNOWN : src_pinned;
	}

	if (what)
		sev(f, SEV_LOADER_ITER, what, site);
	if (what)
		fetched = loader_fetch_samples(f, dl, ds, bs, site);
	/* a loader that synchronizes the device as each batch is taken
	 * (DeepSpeed's throughput timer: dsengine.c) */
	if (what && vdict_gets(dl->attrs, "__ecg_batch_sync__") && vdict_gets(dl->attrs, "__ecg_batch_sync__")->k == VK_STR)
		sev(f, SEV_SYNC, vdict_gets(dl->attrs, "__ecg_batch_sync__")->u.str.s, site);
	/* a loader a framework prepared (accelerate's DataLoaderShard):
	 * each batch sent to the device at the loop, blocking, pinned as
	 * the loader says; the batch is then on the device.  With one
	 * process, under the condition that device is a GPU (kept on the
	 * loader by framework.c's prepare note: __ecg_device_cond__),
	 * whether or not the job has moved anything yet */
	if (what && (in->gpu || (dc && dc->k == VK_STR)) && vdict_gets(dl->attrs, "__ecg_to_device__")) {
		const struct jctx *ojc = f->jc;
		struct sched_ev *e;

		if (dc && dc->k == VK_STR)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site), dc->u.str.s);
		e = sev(f, SEV_H2D, afmt(in, "%s (the prepared DataLoader sends the batch to the device)", what), site);
		f->jc = ojc;
		if (e) {
			/* Lightning's move_data_to_device copies with
			 * non_blocking=True (framework.c marks its loaders) */
			e->non_blocking = vdict_gets(dl->attrs, "__ecg_non_blocking__") ? 1 : 0;
			e->pinned = src_pinned;
		}
		pinned = 0;
		to_dev = 1;
	}
	if (tensors && tensors->k == VK_TUPLE && !tensors->u.seq->unk_reason && bs) {
		/* a TensorDataset: each batch is a tuple of the tensors' first
		 * batch_size rows (the default collate stacks rows) */
		value_t *r = v_seq(in->a, VK_TUPLE, tensors->u.seq->n);
		size_t i;

		for (i = 0; i < tensors->u.seq->n; i++) {
			const struct vshape *x = shape_of(tensors->u.seq->items[i]);
			value_t *t = v_tensor_dev(in->a, to_dev ? DEV_DEVICE : DEV_HOST, pinned);

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
	{
		/* any other dataset: a host tensor stands for the batch, which
		 * the default collate may have made a list or a dict of them */
		value_t *t = v_tensor_dev(in->a, to_dev ? DEV_DEVICE : DEV_HOST, pinned);
		value_t *cf = vdict_gets(dl->attrs, "__ecg_collate_fn__"), *sample;

		/* a collate_fn of the job's own, on a loader that neither pins
		 * nor is moved to the device by a framework: the batch is what
		 * it makes of a list (of a length not known) of samples, each a
		 * host tensor standing for what the dataset gives -- read only
		 * when it makes something known (an object of a class of the
		 * job's own, a tuple of parts) */
		if (cf && !to_dev && pinned != 1) {
			/* the sample's parts read from the dataset's
			 * __getitem__; else a loose host tensor stands for a
			 * sample, as t stands for the batch, and the collate's
			 * result is kept only when it is a dict or tuple of
			 * tensors (the batch's structure, read from the
			 * collate: {"input_ids": torch.cat(...), ...}) */
			value_t *lst = v_seq(in->a, VK_LIST, 1), *r;
			int read = (sample = fetched && fetched->k == VK_TUPLE && !fetched->u.seq->unk_reason
			                     ? fetched : dataset_sample(in, ds)) != NULL;

			if (!read) {
				sample = v_tensor_dev(in->a, DEV_HOST, 0);
				sample->loose = 1;
			}
			vseq_push(in->a, lst->u.seq, sample);
			lst->u.seq->unk_reason = "the samples of one batch, as many as the batch size";
			lst->u.seq->unk_expr = "batch";
			r = call(f, cf, &lst, 1, NULL, site);
			if (r && r->k != VK_UNKNOWN && (read || tensor_parts(r)))
				return r;
		}

		/* torch's default collate of the sample, read from the
		 * dataset's __getitem__ (collate.c): the structure it
		 * states, a loose tensor for each part not known */
		if (!cf && what && vdict_gets(dl->attrs, "__ecg_default_collate__")) {
			value_t *one = fetched ? fetched : loader_side_sample(f, dl, ds, bs, site), *b;

			/* a torchvision dataset: (transform(picture), target) */
			if (!one)
				one = visionds_sample(f, ds, site);
			b = collate_default(in, one, to_dev ? DEV_DEVICE : DEV_HOST, pinned);

			if (b)
				return b;
		}
		t->loose = 1;
		return t;
	}
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
	/* built while torch's default is a GPU's: its parameters made there */
	if ((m->mod == VM_LAYER || m->mod == VM_CONTAINER) && in->default_on_device && f->mode != M_FWD)
		m->on_device = 1;
	m->on_meta = in->default_meta && f->mode != M_FWD;   /* built on the meta device */
	if (m->mod == VM_LAYER)
		module_note_built_device(f, m, kw);   /* nn.Linear(..., device='cuda') */
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = site ? text_of(f, site) : NULL;
	m->cond = f->cond.text;
	m->built_ctx = f->jc;
	m->args = vdict_new(in->a);
	if (m->mod == VM_CONTAINER) {
		size_t idx = 0, j;

		if (!strcmp(dotted, "torch.nn.ModuleDict") && nargs > 0 && args[0]->k == VK_DICT) {
			struct vdict *d = args[0]->u.dict;

			for (j = 0; j < d->n; j++)
				if (d->keys[j]->k == VK_STR && d->vals[j]->k == VK_INST)
					vinst_add_child(in->a, m, d->keys[j]->u.str.s, d->vals[j]->u.inst);
			/* {str(i): layers[i] for i in stage}, the items not
			 * known (a pipeline stage's layers): the one module the
			 * comprehension's read made stands for every entry, as
			 * many as there are not known */
			if (d->rep && d->rep->k == VK_INST && d->rep->u.inst->mod != VM_NONE && !m->nchildren)
				vinst_add_child(in->a, m, "*", d->rep->u.inst);
			/* ... and a dict of keys not known has a length not known */
			if (d->rep || d->anykey)
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, args[0]->expr, d->rep ? DICT_COMP_REASON : DICT_ANYKEY_REASON));
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
					if (a->u.seq->stage_whole && nargs == 1 && !strcmp(dotted, "torch.nn.ModuleList"))
						vdict_sets(in->a, m->attrs, STAGE_WHOLE_ATTR,
						           v_int(in->a, (long long)a->u.seq->stage_whole));
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

/* Wrappers that return the model they wrap (for finding the model);
 * DDP/FSDP also imported under another path.  A word names the class
 * called, the last part of d: FSDP.fsdp_modules(model) and
 * FSDP.state_dict_type(model, ...) are static helpers of the class, called
 * with the model too, and wrap nothing. */
int is_wrapper(const struct catalog *cat, const char *d)
{
	const char *last = strrchr(d, '.');
	const char *w;

	if (catalog_fact(cat, CATALOG_F_WRAPPERS, d))
		return 1;
	last = last ? last + 1 : d;
	w = catalog_fact_match(cat, CATALOG_F_WRAPPER_WORDS, last);
	return w && !strcmp(w, last);
}

/* A class of a third-party library that is an nn.Module: the libraries
 * whose classes are modules, less their config and tokenizer classes,
 * their optimizers and their loss scalers (timm's NativeScaler). */
int ext_is_module_class(const struct catalog *cat, const char *d)
{
	const char *last = strrchr(d, '.');

	if (!last || !(last[1] >= 'A' && last[1] <= 'Z'))
		return 0;
	if (catalog_fact(cat, CATALOG_F_LOSS_SCALERS, d) || catalog_fact_match(cat, CATALOG_F_NOT_MODULE_PATHS, d) ||
	    catalog_fact_match(cat, CATALOG_F_NOT_MODULE_SUFFIXES, last + 1))
		return 0;
	return catalog_fact_match(cat, CATALOG_F_MODULE_PACKAGES, d) != NULL;
}

/* An optimizer class of a third-party library, named under an optimizer
 * package (transformer_engine.pytorch.optimizers.FusedAdam,
 * apex.optimizers.FusedAdam: catalog/torch_facts.json not_module_paths),
 * not a learning-rate scheduler: its step() is the job's optimizer step. */
int ext_is_optimizer_class(const struct catalog *cat, const char *d)
{
	const char *last = strrchr(d, '.');

	if (!last || !(last[1] >= 'A' && last[1] <= 'Z') || strstr(d, "Scheduler") || strstr(d, "lr_scheduler") ||
	    !strncmp(d, "torch.", 6))
		return 0;
	return catalog_fact_match(cat, CATALOG_F_NOT_MODULE_PATHS, d) != NULL;
}

const char *short_ext(const char *d)
{
	const char *dot = strrchr(d, '.');

	return dot ? dot + 1 : d;
}

/* The collective a torch.distributed function is, or NULL. */
static const char *collective_of(struct interp *in, const char *d)
{
	if (strncmp(d, "torch.distributed.", 18))
		return NULL;
	return catalog_fact(in->cat, CATALOG_F_COLLECTIVES, short_ext(d));
}

/* The one module global that holds the group object (the library's own
 * name for it: fairscale's _MODEL_PARALLEL_GROUP, which a getter returns
 * to the collective's caller as a local `group`), or NULL when none or
 * several do. */
static const char *group_global_name(struct interp *in, const value_t *group)
{
	const char *name = NULL;
	size_t i, k;

	if (!group || group->k == VK_NONE || value_is_known_scalar(group))
		return NULL;
	for (i = 0; i < in->ns_alloc; i++) {
		const struct vdict *d = in->ns[i] ? in->ns[i]->dict : NULL;

		for (k = 0; d && k < d->n; k++) {
			const value_t *v = d->vals[k];

			if (v != group && !(v->k == VK_UNKNOWN && v->alts && (v->alts[0] == group || v->alts[1] == group)))
				continue;
			if (d->keys[k]->k != VK_STR)
				continue;
			if (name && strcmp(name, d->keys[k]->u.str.s))
				return NULL;
			name = d->keys[k]->u.str.s;
		}
	}
	return name;
}

/* A process group made by new_group() with no ranks (None or empty):
 * every process of the world, in a communicator of its own (another
 * backend, often: new_group(backend="gloo")).  Its size is the world's,
 * and a collective over it serves what one over the default group does:
 * data parallelism. */
#define WORLD_GROUP "a process group of every rank (torch.distributed.new_group)"

/* The same group made with a backend of its own named (new_group(backend=
 * "gloo")): its reason says which, for get_backend(group).  Sorted. */
static const struct world_backend {
	const char *name;
	const char *reason;
} WORLD_BACKENDS[] = {
	{ "gloo", "a process group of every rank (torch.distributed.new_group, backend gloo)" },
	{ "mpi", "a process group of every rank (torch.distributed.new_group, backend mpi)" },
	{ "nccl", "a process group of every rank (torch.distributed.new_group, backend nccl)" },
	{ "ucc", "a process group of every rank (torch.distributed.new_group, backend ucc)" },
};

/* The WORLD_BACKENDS entry whose reason v carries, or NULL. */
static const struct world_backend *world_backend_of(const value_t *v)
{
	size_t i;

	if (!v || v->k != VK_UNKNOWN || v->alts || !v->reason)
		return NULL;
	for (i = 0; i < sizeof WORLD_BACKENDS / sizeof WORLD_BACKENDS[0]; i++)
		if (!strcmp(v->reason, WORLD_BACKENDS[i].reason))
			return &WORLD_BACKENDS[i];
	return NULL;
}

int is_world_group(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->reason &&
	       (!strcmp(v->reason, WORLD_GROUP) || world_backend_of(v));
}

/* Does group g span every process on every path: None or the default
 * group, a new_group() of every rank, the world group torch names
 * (catalog world_groups: dist.group.WORLD), or alternatives of those
 * (`new_group(backend="gloo") if get_backend() == "nccl" else
 * dist.group.WORLD`)? */
static int spans_world(struct interp *in, const value_t *g, int depth)
{
	if (!g || depth > 32)
		return 0;
	if (g->k == VK_NONE || is_default_group(g) || is_world_group(g))
		return 1;
	if (g->k == VK_EXT)
		return catalog_fact(in->cat, CATALOG_F_WORLD_GROUPS, canon_ext(in, g->u.ext)) != NULL;
	return g->k == VK_UNKNOWN && g->alts && spans_world(in, g->alts[0], depth + 1) &&
	       spans_world(in, g->alts[1], depth + 1);
}

/* Which parallelism a collective serves, from its group's name. */
static const char *parallelism_of(struct frame *f, const char *op, const struct ast_hdr *site,
                                  const value_t *group)
{
	/* the call's words, the group's own expression, then where the call
	 * is written (tensor_parallel.py, _ReduceFromTP.forward) */
	const char *gname = group_global_name(f->in, group);
	const char *t = afmt(f->in, "%s %s %s", site ? text_of(f, site) : "", group && group->expr ? group->expr : "",
	                     gname ? gname : "");
	const char *w = afmt(f->in, "%s %s", f->file->path, f->qualname ? f->qualname : "");
	const struct catalog *cat = f->in->cat;
	const char *p;
	char low[1024], where[1024];
	size_t i;

	for (i = 0; t[i] && i < sizeof low - 1; i++)
		low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	low[i] = 0;
	for (i = 0; w[i] && i < sizeof where - 1; i++)
		where[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] + 32 : w[i]);
	where[i] = 0;

	/* a device mesh (or its get_group()): what its axes serve, more
	 * than one (null) included -- before the words of its name, which
	 * name one of them (dp_cp_group) */
	if (group && (p = mesh_parallelism(f->in, is_mesh(group) ? group : group->recv)))
		return p;
	if ((p = catalog_fact_match(cat, CATALOG_F_PARALLELISM_WORDS, low)))
		return p;
	/* the group's name did not say; a tensor-parallel helper says so by
	 * its own name (_ReduceFromTP, tensor_parallel.py) */
	if ((p = catalog_fact_match(cat, CATALOG_F_PARALLELISM_PLACES, where)))
		return p;
	if (f->mode == M_FWD && (p = catalog_fact(cat, CATALOG_F_PARALLELISM_OPS_FWD, op)))
		return p;
	if ((p = catalog_fact(cat, CATALOG_F_PARALLELISM_OPS, op)))
		return p;
	/* A collective over a group nothing names serves a parallelism the
	 * code does not say (Megatron's broadcast over the tensor-parallel
	 * group from get_tensor_model_parallel_group(); in a forward, tensor,
	 * sequence or context parallel).  Over the default group (no group,
	 * or None: all ranks, as DETR's loss sums its box count) -- or over
	 * another group of every rank (detectron2's gloo group for objects)
	 * -- it is the data parallel one. */
	if (group && !spans_world(f->in, group, 0))
		return SCHED_PARALLELISM_UNKNOWN;
	return "data";
}

/* torch.*: ops in forward; in job code, the objects, copies, syncs and
 * collectives the schedule needs. */

/* Where a torch op puts its result when an argument is part of what
 * torch.load read (the reason of the unknown value says so: an attribute
 * or item of the loaded object keeps it): on the device when the load
 * mapped it there, on the host when it mapped it to the CPU, and not known
 * when the file's tensors go back where they were saved -- a file ecg has
 * not seen written (a dataset's processed file) may hold host tensors, so
 * the job's use of a GPU does not place them.  -1 when no argument is
 * loaded.  Never fails. */
static int loaded_args_dev(value_t *const *args, size_t nargs)
{
	size_t i;

	for (i = 0; i < nargs; i++) {
		const value_t *a = args[i];

		if (a->k != VK_UNKNOWN || a->alts || !IS_LOADED_REASON(a->reason))
			continue;
		return !strcmp(a->reason, LOADED_ON_DEVICE_REASON) ? DEV_DEVICE
		     : !strcmp(a->reason, LOADED_ON_HOST_REASON) ? DEV_HOST : DEV_UNKNOWN;
	}
	return -1;
}

/* Where torch.zeros_like(v) puts its result, v not a tensor: the device
 * of v's two paths' tensors when an undecided `if` bound a tensor on
 * each, on one device (alts.c); in a forward, where torch's other ops of
 * values not known put theirs (the device when the job uses one: a
 * forward's values not known are its tensors); else not known.  Never
 * fails. */
static int like_dev(const struct frame *f, const value_t *v)
{
	if (v->k == VK_UNKNOWN && v->alts && v->alts[0] && v->alts[1] && v->alts[0]->k == VK_TENSOR &&
	    v->alts[1]->k == VK_TENSOR && v->alts[0]->dev == v->alts[1]->dev)
		return v->alts[0]->dev;
	if (f->mode == M_FWD && v->k == VK_UNKNOWN)
		return f->in->gpu ? DEV_DEVICE : DEV_UNKNOWN;
	return DEV_UNKNOWN;
}

value_t *call_torch(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                    struct vdict *kw, const struct ast_hdr *site, int any_tensor)
{
	struct interp *in = f->in;

	if (f->mode == M_FWD && nargs >= 1 && args[0]->k == VK_TENSOR &&
	    catalog_fact(in->cat, CATALOG_F_PIECES, last) && !strncmp(d, "torch.", 6) && !strchr(d + 6, '.')) {
		const struct vshape *pieces[64];
		size_t n = shape_pieces(in->cat, in->a, d, args, nargs, kw, pieces, 64), i;

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

		if (!f->unk_star) {    /* *args not known: they do not say the shape */
			r = with_shape(in, r, d, args, nargs, kw);
			if (!strchr(d + 6, '.'))
				r = hostints_range(f, last, args, nargs, kw, r);
		}

		op_io(f, mark, args, nargs, kw, r);
		return r;
	}
}

/* v holds nothing on a device: known scalars and strings, tensors known
 * to be on the host, and containers of those (an unknown value, a module
 * or an object might hold device tensors). */
/* Python numbers, or a list/tuple of them (of any length: the items of
 * a comprehension over data not known are its representative): data
 * that lives on the host, not a tensor. */
static int python_data(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > 4)
		return 0;
	if (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL)
		return 1;
	if (v->k == VK_UNKNOWN && v->reason && (v->reason == shape_dim_reason || v->reason == size_unknown_reason ||
	                                        !strcmp(v->reason, "the length of something not known") ||
	                                        !strcmp(v->reason, SUM_OF_INTS_REASON)))
		return 1;                       /* a dim, a len(), a sum of them: Python ints */
	if (v->k == VK_UNKNOWN && !v->alts && !v->arr_shape && v->nonneg == FACT_NONNEG_INT)
		return 1;                       /* an int >= 0 (an enumerate() index) */
	if (v->k == VK_UNKNOWN && !v->alts && v->from_values == 1)
		return 1;                       /* an outside function's array of numbers
		                                 * given numbers (call.c): no batch */
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq->n >= 1) {
		for (i = 0; i < v->u.seq->n; i++)
			if (!python_data(v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	}
	return 0;
}

/* Whether every argument of a call is Python data (python_data). */
static int all_python_data(value_t **args, size_t nargs, const struct vdict *kw)
{
	size_t i;

	for (i = 0; i < nargs; i++)
		if (!python_data(args[i], 0))
			return 0;
	for (i = 0; kw && i < kw->n; i++)
		if (!python_data(kw->vals[i], 0) && kw->vals[i]->k != VK_NONE && kw->vals[i]->k != VK_EXT &&
		    kw->vals[i]->k != VK_STR)
			return 0;           /* (dtype=, device=, layout= are no data) */
	return 1;
}

/* Whether v holds no device tensor for certain (torch.save of it copies
 * nothing to the host): Python scalars, host tensors, and containers of
 * those (a dict filled under keys not known counts what was stored). */
int host_only(const value_t *v, int depth)
{
	return host_only_cat(NULL, v, depth);
}

int host_only_cat(const struct catalog *cat, const value_t *v, int depth)
{
	/* libraries that make no torch tensor: what their objects hold
	 * (COCOeval.eval, a DataFrame, an image) lives on the host; Python's
	 * time module's clocks (time.time(): a float) too */
	static const char *const host_libs[] = { "numpy.", "pycocotools.", "scipy.", "pandas.", "sklearn.",
	                                         "PIL.", "cv2.", "matplotlib.", "time.", NULL };
	const char *ext = !v ? NULL : v->k == VK_EXT ? v->u.ext : v->k == VK_INST && v->u.inst->mod == VM_NONE &&
	                  !v->u.inst->cls ? v->u.inst->ext : NULL;
	size_t i;

	if (!v || depth > 8)
		return 0;
	/* a value not known that such a library made (call.c: "the result
	 * of numpy.arange, ..."), and what its attributes and methods give
	 * (`.tolist()`, which keep that reason) */
	if (v->k == VK_UNKNOWN && !v->alts && v->reason &&
	    !strncmp(v->reason, OUTSIDE_RESULT_PREFIX, sizeof OUTSIDE_RESULT_PREFIX - 1))
		ext = v->reason + sizeof OUTSIDE_RESULT_PREFIX - 1;
	for (i = 0; ext && host_libs[i]; i++)
		if (!strncmp(ext, host_libs[i], strlen(host_libs[i])))
			return 1;
	switch (v->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
		return 1;
	case VK_TENSOR:
		return v->dev == DEV_HOST;
	case VK_INST:
		/* a torch.nn layer that registers no parameter and no buffer
		 * (catalog tensorless_layers: an activation, a pooling), moved
		 * or not: nothing in it is a tensor */
		if (cat && v->u.inst->mod == VM_LAYER && v->u.inst->ext && v->u.inst->nchildren == 0 &&
		    catalog_fact(cat, CATALOG_F_TENSORLESS_LAYERS, v->u.inst->ext))
			return 1;
		/* a dataset -- torch's (Subset, ConcatDataset, TensorDataset:
		 * the datasets and tensors given to it) or a repository class
		 * that is no module -- holds host data when all it holds is */
		if (v->u.inst->mod != VM_NONE || (!v->u.inst->cls && !(v->u.inst->ext &&
		    !strncmp(v->u.inst->ext, "torch.utils.data.", 17) &&
		    (strstr(v->u.inst->ext, "Dataset") || strstr(v->u.inst->ext, "Subset")))))
			return 0;
		for (i = 0; i < v->u.inst->attrs->n; i++) {
			const value_t *k = v->u.inst->attrs->keys[i];

			if (!(k->k == VK_STR && !strncmp(k->u.str.s, "__ecg_", 6)) &&
			    !host_only_cat(cat, v->u.inst->attrs->vals[i], depth + 1))
				return 0;
		}
		return 1;
	case VK_UNKNOWN:
		/* one of two values (alts.c), each host data; or a value not
		 * known but known to be host data (dev HOST: an optimizer's
		 * param_groups, optim_state_dict) */
		if (v->alts)
			return host_only_cat(cat, v->alts[0], depth + 1) && host_only_cat(cat, v->alts[1], depth + 1);
		/* (or a library's mapping of host tensors: a tokenizer's
		 * return_tensors="pt" output, libvalues.c) */
		/* (or a Python number or str: plain) */
		return v->dev == DEV_HOST || v->plain || (v->reason && !strcmp(v->reason, HOST_TENSOR_MAP_REASON));
	case VK_TUPLE: case VK_LIST:
		/* built by a loop read once: its items stand for every item
		 * (values.h), unless they are only the first ones (prefix) */
		if (v->u.seq->unk_reason && (v->u.seq->prefix || !v->u.seq->n))
			return 0;
		for (i = 0; i < v->u.seq->n; i++)
			if (!host_only_cat(cat, v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	case VK_DICT:
		/* (an empty dict may be a comprehension over items not known) */
		if (v->u.dict->anykey == 2 || (!v->u.dict->n && v->u.dict->anykey != 1 && !v->u.dict->exact))
			return 0;
		for (i = 0; i < v->u.dict->n; i++)
			if (!host_only_cat(cat, v->u.dict->vals[i], depth + 1))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ named torch calls */

/* The torch calls with behaviour of their own, each a small function named
 * by torch_facts.json's "torch_calls" (by dotted name) and
 * "torch_calls_by_name" (by last name).  NULL: not this call after all
 * (its arguments do not fit); call_torch_ goes on with the generic rules. */
typedef value_t *torch_call_fn(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site);

static value_t *tc_synchronize(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site)
{
	(void)d, (void)last, (void)args, (void)nargs, (void)kw;
	sev(f, SEV_SYNC, "torch.cuda.synchronize()", site);
	return v_none(f->in->a);
}

static value_t *tc_stream(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                          struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *c;

	(void)d, (void)last, (void)args, (void)kw;
	if (nargs < 1)
		return NULL;
	c = new_inst(in);
	c->ext = "torch.cuda.stream";
	vdict_sets(in->a, c->attrs, "text", v_str(in->a, AST_IS(site, Call) && AST_AS(site, Call)->args.n
	                                          ? text_of(f, AST_AS(site, Call)->args.items[0]) : "a stream"));
	return mk_inst_value(in, c);
}

/* torch.cuda.graph(g, pool=...): a context manager object of that class,
 * its keywords kept; what entering it does is jobctx.c's (catalog
 * syncing_contexts) */
static value_t *tc_context(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *c = new_inst(in);
	size_t i;

	(void)last, (void)args, (void)nargs, (void)site;
	c->ext = d;
	c->args = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, c->args, kw->keys[i], kw->vals[i]);
	return mk_inst_value(in, c);
}

/* init_device_mesh(device_type, shape, mesh_dim_names=...): a mesh whose
 * axes' names and sizes mesh.c follows */
static value_t *tc_device_mesh(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site)
{
	(void)d, (void)last;
	return mesh_init(f, "torch.distributed.device_mesh.DeviceMesh", args, nargs, kw, site);
}

/* WORLD_SIZE when the environment is known and pins it to one number
 * (the launcher exports the same in every process), else 0. */
/* the machine's number of devices: not known, an int >= 0 */
static value_t *machine_count(struct frame *f, const struct ast_hdr *site)
{
	value_t *u = unknown_at(f, site, MACHINE_REASON);

	u->nonneg = FACT_NONNEG_INT;
	return u;
}

static long long pinned_world_size(struct interp *in)
{
	long long n;

	return interp_env_int(in, "WORLD_SIZE", &n) ? n : 0;
}

/* The default group's size: WORLD_SIZE when pinned (a launcher's world);
 * else, once the job's own init_process_group has run on every path
 * (dist_init_sure), the world_size it gave that call when every such call
 * gave the same known int (parallel.c parallel_note_group: a script that
 * starts its processes itself, mp.spawn or one Process per device).
 * 0: not known. */
static long long default_group_size(struct interp *in)
{
	long long n = pinned_world_size(in);

	return n ? n : in->dist_init_sure && in->group_world > 0 ? in->group_world : 0;
}

/* torch.cuda.device_count(): the devices the job's environment makes
 * visible -- CUDA_VISIBLE_DEVICES of a pinned environment, a list of
 * distinct device numbers (empty: none).  Not set, not pinned, or ids ecg
 * does not count (UUIDs, a negative number, which ends CUDA's list): the
 * machine's count, not known -- a property of the machine (MACHINE_REASON),
 * so that a test of it (`"cuda" if torch.cuda.device_count() > 0 else
 * "cpu"`) chooses the job's device at run time as is_available() does
 * (devchoice.c).  An int >= 0 either way. */
static value_t *tc_device_count(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *v;
	const char *p;
	long long seen[64];
	size_t n = 0, i;

	(void)d, (void)last, (void)args, (void)kw;
	if (nargs || !in->environ || in->environ->k != VK_DICT ||
	    !(v = vdict_gets(in->environ->u.dict, "CUDA_VISIBLE_DEVICES")) || v->k != VK_STR)
		return machine_count(f, site);
	for (p = v->u.str.s; *p;) {
		char *end;
		long long id;

		if (*p < '0' || *p > '9')
			return machine_count(f, site);
		id = strtoll(p, &end, 10);
		for (i = 0; i < n; i++)
			if (seen[i] == id)
				return machine_count(f, site);
		if (n == sizeof seen / sizeof *seen)
			return machine_count(f, site);
		seen[n++] = id;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return machine_count(f, site);
	}
	return v_int(in->a, (long long)n);
}

value_t *torch_device_count(struct frame *f, const struct ast_hdr *site)
{
	return tc_device_count(f, NULL, NULL, NULL, 0, NULL, site);
}

/* A process group made by new_group(ranks) is an unknown value (the
 * run's object) whose reason starts with this text and whose u.i holds
 * its number of ranks, when the ranks were known (a list, tuple or range
 * of known length).  Nothing else reads an unknown's union. */
#define GROUP_OF_RANKS "a process group of its ranks"

int is_ranks_group(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->reason &&
	       !strncmp(v->reason, GROUP_OF_RANKS, sizeof GROUP_OF_RANKS - 1) && v->u.i > 0;
}

/* The default process group (all processes) as an object: what a
 * parallel wrapper built with no group keeps as its group (attr.c
 * wrapper_group_attr).  A collective over it serves data parallelism,
 * as one with no group does, and its size is the world's; it is no None
 * (`group is not None` stays undecided: the test is of the object). */
#define DEFAULT_GROUP "the default process group (all processes)"

value_t *default_group_value(struct frame *f, const struct ast_hdr *site)
{
	return unknown_at(f, site, DEFAULT_GROUP);
}

int is_default_group(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->reason && !strcmp(v->reason, DEFAULT_GROUP);
}

/* new_group(ranks=None, ...): ranks None or empty is the whole world
 * (WORLD_GROUP, its size default_group_size's); a sequence of known length
 * is that many ranks.  Else the group's size is not known: the generic
 * value. */
static value_t *tc_new_group(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                             struct vdict *kw, const struct ast_hdr *site)
{
	value_t *r = nargs ? args[0] : kw ? vdict_gets(kw, "ranks") : NULL, *g;
	long long n = 0;

	(void)d, (void)last;
	if (r && r->k == VK_RANGE && r->u.range.step > 0)
		n = r->u.range.stop > r->u.range.start
		    ? (r->u.range.stop - r->u.range.start + r->u.range.step - 1) / r->u.range.step : 0;
	else if (r && r->k == VK_RANGE && r->u.range.step < 0)
		n = r->u.range.start > r->u.range.stop
		    ? (r->u.range.start - r->u.range.stop - r->u.range.step - 1) / -r->u.range.step : 0;
	else if (r && (r->k == VK_LIST || r->k == VK_TUPLE) && !r->u.seq->unk_reason)
		n = (long long)r->u.seq->n;
	else if (!r || r->k == VK_NONE)
		n = 0;
	else
		return NULL;
	if (!n) {
		const value_t *b = kw ? vdict_gets(kw, "backend") : NULL;
		const void *wb = b && b->k == VK_STR ? ntab_find(WORLD_BACKENDS, NTAB_LEN(WORLD_BACKENDS),
		                                                  sizeof WORLD_BACKENDS[0], b->u.str.s) : NULL;

		return unknown_at(f, site, wb ? ((const struct world_backend *)wb)->reason : WORLD_GROUP);
	}
	g = unknown_at(f, site, GROUP_OF_RANKS " (torch.distributed.new_group)");
	g->u.i = n;
	return g;
}

/* get_backend(group=None): the backend's name.  The default group's (no
 * group, None, the default group object) is what the job's
 * init_process_group calls named -- when they all named the same one, on
 * no undecided path; a new_group() of every rank made with backend=NAME
 * has NAME.  Else not known (the generic value). */
static value_t *tc_backend(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *g = nargs ? args[0] : kw ? vdict_gets(kw, "group") : NULL;
	const struct world_backend *wb;

	(void)d, (void)last, (void)site;
	if (!g || g->k == VK_NONE || is_default_group(g))
		return in->dist_backend && !in->dist_backend_mixed && !in->dist_backend_cond
		       ? v_str(in->a, in->dist_backend) : NULL;
	wb = world_backend_of(g);
	return wb ? v_str(in->a, wb->name) : NULL;
}

/* new_subgroups_by_enumeration(ranks_per_subgroup_list): (the group of
 * the calling process, the list of every group).  Which list holds the
 * caller is the run's, but when every list given has the same known
 * length n the caller's group has n ranks whichever it is: a group of n
 * ranks, as new_group's.  Lists of lengths not known or not all equal:
 * the generic value. */
static value_t *tc_new_subgroups(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                                 struct vdict *kw, const struct ast_hdr *site)
{
	value_t *l = nargs ? args[0] : kw ? vdict_gets(kw, "ranks_per_subgroup_list") : NULL, *g, *t;
	long long n = 0;
	size_t i;

	(void)d, (void)last;
	if (!l || (l->k != VK_LIST && l->k != VK_TUPLE) || l->u.seq->unk_reason || !l->u.seq->n)
		return NULL;
	for (i = 0; i < l->u.seq->n; i++) {
		const value_t *r = l->u.seq->items[i];

		if ((r->k != VK_LIST && r->k != VK_TUPLE) || r->u.seq->unk_reason || !r->u.seq->n ||
		    (n && (long long)r->u.seq->n != n))
			return NULL;
		n = (long long)r->u.seq->n;
	}
	g = unknown_at(f, site, GROUP_OF_RANKS " (torch.distributed.new_subgroups_by_enumeration)");
	g->u.i = n;
	t = v_seq(f->in->a, VK_TUPLE, 2);
	vseq_push(f->in->a, t->u.seq, g);
	vseq_push(f->in->a, t->u.seq, unknown_at(f, site, "the process groups of every subgroup"));
	return t;
}

/* The size of the process group g: the default group (None) is
 * default_group_size's; a group of new_group with known ranks, that many (its
 * caller is taken to be one of them, as a group a job keeps for itself
 * is); the two objects an undecided `if` left, their size when both have
 * the same.  In a world of one process every group is that one process:
 * 1.  0: not known. */
static long long group_size(struct interp *in, const value_t *g, int depth)
{
	long long a, b, ws = default_group_size(in);

	if (!g || g->k == VK_NONE || is_default_group(g) || is_world_group(g))
		return ws;
	if (ws == 1 && !value_is_known_scalar(g))
		return 1;
	if (g->k != VK_UNKNOWN || depth > 32)
		return 0;
	if (g->alts)
		return (a = group_size(in, g->alts[0], depth + 1)) && (b = group_size(in, g->alts[1], depth + 1)) &&
		       a == b ? a : 0;
	if (is_ranks_group(g))
		return g->u.i;
	return 0;
}

/* get_world_size(group=None): the default group's size, which a launcher
 * (torchrun, the env:// rendezvous) starts with the WORLD_SIZE it exports,
 * so with the environment known and WORLD_SIZE one number in every
 * process, it is that number, and a job that starts its own processes
 * gives init_process_group (default_group_size); of another group,
 * group_size's.  Not known
 * (a property of the run): NULL. */
static value_t *tc_world_size(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	value_t *g = nargs ? args[0] : kw ? vdict_gets(kw, "group") : NULL;
	long long n;

	(void)d, (void)last, (void)site;
	if (nargs > 1 || (kw && kw->n > (nargs ? 0u : vdict_gets(kw, "group") ? 1u : 0u)))
		return NULL;
	n = group_size(f->in, g, 0);
	return n > 0 ? v_int(f->in->a, n) : NULL;
}

/* The number of processes the invocation starts, for a library that
 * distributes only with more than one (catalog multi_process_wrappers,
 * multi_process_collectives): WORLD_SIZE of the job's environment (torchrun
 * and accelerate launch --num_processes export it), a number; 0 when it is
 * not pinned or a multi_process_vetoes variable is set to a true word (the
 * library then distributes otherwise).  Never fails. */
long long multi_process_count(struct interp *in)
{
	long long n = pinned_world_size(in);

	return !n || multi_process_vetoed(in) ? 0 : n;
}

/* The number of processes the invocation starts, whatever engine holds
 * the library's model (a multi_process_vetoes variable set or not):
 * accelerate's process group spans them all the same under DeepSpeed,
 * FSDP or Megatron-LM (state.py: every distributed type of several
 * processes), so its collectives (catalog multi_process_collectives) run
 * there as under DDP.  WORLD_SIZE pinned, else 0.  Never fails. */
long long multi_process_launched(struct interp *in)
{
	return pinned_world_size(in);
}

/* The job's environment may hand the library's objects to another engine
 * (a multi_process_vetoes variable set to a true word), or is not known
 * in full (a veto may be set among the variables a launcher does not
 * set): 1; a complete environment with no veto: 0. */
int multi_process_vetoed(struct interp *in)
{
	struct vdict *env = in->environ && in->environ->k == VK_DICT ? in->environ->u.dict : NULL;
	size_t i;

	if (!env || !env_complete(in))
		return 1;
	for (i = 0; i < env->n; i++) {
		const value_t *k = env->keys[i], *v = env->vals[i];

		if (k->k == VK_STR && catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_VETOES, k->u.str.s) &&
		    (v->k != VK_STR || (strcasecmp(v->u.str.s, "false") && strcmp(v->u.str.s, "0") &&
		                        strcasecmp(v->u.str.s, "no") && v->u.str.len)))
			return 1;
	}
	return 0;
}

/* The text of the file a torch.save / torch.load names: a str path, or
 * the file object open(path) gave (bi_open's io.TextIOWrapper and its
 * name); NULL when not known. */
static const char *saved_file_text(const value_t *v)
{
	const value_t *n;

	if (v && v->k == VK_STR)
		return v->u.str.s;
	if (v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "io.TextIOWrapper") &&
	    (n = vdict_gets(v->u.inst->attrs, "name")) && n->k == VK_STR)
		return n->u.str.s;
	return NULL;
}

static value_t *tc_save(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)d, (void)last;
	sev(f, SEV_SAVE, "torch.save", site);
	/* what is saved copies device tensors to the host, unless every
	 * tensor in it is known to be on the host already */
	if (in->gpu && f->mode != M_FWD && !(nargs >= 1 && host_only_cat(in->cat, args[0], 0))) {
		const char *path = saved_file_text(nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "f") : NULL);
		struct strmap_slot *sl;
		int added;

		sev(f, SEV_SYNC, "torch.save (copies device tensors to the host)", site);
		/* the file now holds device tensors (tc_load) */
		if (path && !strmap_get(&in->device_saved, path)) {
			sl = strmap_put(&in->device_saved, path, &added);
			sl->key = astr(in, path);
		}
	}
	return v_none(in->a);
}

/* torchvision's save_image(tensor, fp, ...) and its like (catalog
 * image_savers): a picture of the tensor written to a file -- the image
 * grid made of it copied to the host first, a sync, unless the tensor is
 * known to be on the host.  No save event: a picture is no checkpoint of
 * the job's state, so its phase is the work around it.  The row names
 * the function called (d), not torch.save. */
static value_t *tc_save_image(struct frame *f, const char *d, value_t **args, size_t nargs,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (in->gpu && f->mode != M_FWD && !(nargs >= 1 && host_only(args[0], 0)))
		sev(f, SEV_SYNC, afmt(in, "%s (copies the image grid it makes to the host)", d), site);
	return v_none(in->a);
}

/* the file v names is one torch.save wrote device tensors to (tc_save) */
static int in_gpu_saved(struct frame *f, const value_t *v)
{
	const char *path = saved_file_text(v);

	return path && f->in->gpu && strmap_get(&f->in->device_saved, path) != NULL;
}

/* The H2D copy of a checkpoint torch.load reads back onto the device:
 * pageable, blocking, weights (not the data hop). */
static void load_copy(struct frame *f, const char *call, const struct ast_hdr *site)
{
	struct sched_ev *e = sev(f, SEV_H2D, call, site);

	if (e) {
		e->pinned = 0;
		e->non_blocking = 0;
		e->weights = 1;
	}
}

/* map_location given as a lambda: the name of its first parameter (the
 * storage torch hands it), its body in *body; NULL when loc is no lambda
 * with one. */
static const char *loc_lambda(const value_t *loc, const struct ast_hdr **body)
{
	const struct ast_Lambda *l;
	const struct ast_arguments *a;
	const struct ast_arg *first;

	if (!loc || loc->k != VK_FUNC || !loc->u.fn->def || !AST_IS(loc->u.fn->def, Lambda))
		return NULL;
	l = AST_AS(loc->u.fn->def, Lambda);
	a = l->args;
	if (!a || !l->body)
		return NULL;
	first = a->posonlyargs.n ? (const struct ast_arg *)a->posonlyargs.items[0]
	      : a->args.n ? (const struct ast_arg *)a->args.items[0] : NULL;
	*body = l->body;
	return first ? first->arg : NULL;
}

/* 1 when map_location is a lambda that returns its first parameter
 * (`lambda storage, loc: storage`): torch calls it with each storage as
 * first deserialized, on the host, so what it returns stays there -- the
 * same as map_location='cpu'.  0 for any other value. */
static int loc_keeps_host_storage(const value_t *loc)
{
	const struct ast_hdr *body = NULL;
	const char *first = loc_lambda(loc, &body);

	return first && AST_IS(body, Name) && !strcmp(first, AST_AS(body, Name)->id);
}

/* 1 when map_location is a lambda whose body calls, on its first
 * parameter, a method that puts a storage on a GPU (catalog
 * map_location_moves: `lambda storage, loc: storage.cuda(k)`, torch.load's
 * documented form): what the load gives is on the device.  0 otherwise. */
static int loc_moves_storage(const struct catalog *cat, const value_t *loc)
{
	const struct ast_hdr *body = NULL, *fn;
	const char *first = loc_lambda(loc, &body);

	if (!first || !AST_IS(body, Call) || !AST_IS(fn = AST_AS(body, Call)->func, Attribute) ||
	    !AST_IS(AST_AS(fn, Attribute)->value, Name) ||
	    !catalog_fact(cat, CATALOG_F_MAP_LOCATION_MOVES, AST_AS(fn, Attribute)->attr))
		return 0;
	return !strcmp(first, AST_AS(AST_AS(fn, Attribute)->value, Name)->id);
}

/* torch.load(f, map_location=...): what a file holds is read at run time
 * (a state dict, an epoch number, a whole pickled model), so the value is
 * not known -- not a tensor: `ckpt["epoch"]` is a Python int.  With a
 * map_location that names a device (or a device not known, as .to() reads
 * one) the loaded tensors are copied there: one host-to-device event.
 * So does a lambda moving the storage it is given to a GPU
 * (loc_moves_storage).  'cpu', another function or a dict of remappings:
 * no event; 'cpu' and a lambda returning the storage it is given
 * (loc_keeps_host_storage) leave what is loaded on the host.  None: the tensors go back where they were
 * saved -- one host-to-device event when the file is one this job's
 * torch.save wrote device tensors to (in_gpu_saved), else nothing known,
 * no event. */
static value_t *tc_load(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	value_t *loc = kw ? vdict_gets(kw, "map_location") : NULL;
	int on_device = 0;

	(void)d, (void)last;
	/* no map_location, and the file is one this job's torch.save wrote
	 * device tensors to: they are restored to the device they were saved
	 * from (the checkpoint of the best model read back for the test) */
	if (!loc && f->mode != M_FWD && in_gpu_saved(f, nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "f") : NULL)) {
		struct sched_ev *e = sev(f, SEV_H2D, "torch.load (restores the device tensors this job saved there)", site);

		if (e) {
			e->pinned = 0;
			e->non_blocking = 0;
			e->weights = 1;    /* a checkpoint read back onto the device */
		}
		return unknown_at(f, site, LOADED_ON_DEVICE_REASON);
	}
	if (loc && f->mode != M_FWD && loc_moves_storage(f->in->cat, loc)) {
		load_copy(f, "torch.load(..., map_location=<moves to a GPU>)", site);
		f->in->gpu = 1;
		on_device = 1;
	} else if (loc && f->mode != M_FWD && dev_is_host(loc) != 1 &&
	    (loc->k == VK_STR || loc->k == VK_INT || loc->k == VK_UNKNOWN ||
	     (loc->k == VK_INST && loc->u.inst->ext && !strcmp(loc->u.inst->ext, "torch.device")))) {
		load_copy(f, "torch.load(..., map_location=<device>)", site);
		f->in->gpu = 1;
		/* a device named (not the meta device, which holds no data),
		 * or the device the job chooses at run time (devchoice.c):
		 * on it under the condition every such row carries */
		on_device = (dev_is_host(loc) == 0 && !(loc->k == VK_STR && !strncmp(loc->u.str.s, "meta", 4))) ||
		            devchoice_cond(f->in, loc) != NULL;
	}
	return unknown_at(f, site, on_device ? LOADED_ON_DEVICE_REASON
	                           : loc && f->mode != M_FWD && (dev_is_host(loc) == 1 || loc_keeps_host_storage(loc))
	                             ? LOADED_ON_HOST_REASON
	                           : LOADED_OBJECT_REASON);
}

/* torch.set_default_device(...), torch.set_default_tensor_type(...):
 * factories in a forward may then make device tensors; the call itself
 * goes on as any other */
static value_t *tc_default_device(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                                  struct vdict *kw, const struct ast_hdr *site)
{
	(void)d, (void)last, (void)kw, (void)site;
	f->in->default_dev = 1;
	/* a device named: torch.cuda.*Tensor (the type, or its name as a
	 * string: 'torch.cuda.FloatTensor'), or a device string; anything
	 * else (the host, 'torch.FloatTensor', a value not known) says no
	 * device */
	f->in->default_on_device = nargs >= 1 &&
	                           ((args[0]->k == VK_EXT && !strncmp(args[0]->u.ext, "torch.cuda.", 11)) ||
	                            (args[0]->k == VK_STR && !strncmp(args[0]->u.str.s, "torch.", 6) &&
	                             !strncmp(args[0]->u.str.s, "torch.cuda.", 11)) ||
	                            (args[0]->k == VK_STR && strncmp(args[0]->u.str.s, "torch.", 6) &&
	                             dev_is_host(args[0]) == 0 && strncmp(args[0]->u.str.s, "meta", 4)));
	f->in->default_meta = nargs >= 1 && args[0]->k == VK_STR && !strncmp(args[0]->u.str.s, "meta", 4);
	return NULL;
}

/* torch.Tensor([...]), torch.tensor(a numpy array) with no device= while
 * torch's default is a GPU's (catalog default_device_factories, kind
 * "data" or "sizes"): the data is built on the host and copied over --
 * when it is known to hold no device tensor (host_only: Python numbers,
 * an array of a host library); a tensor given is no data (an alias, or
 * where it is), and torch.Tensor(3, 4)'s ints are sizes. */
static void default_device_copy(struct frame *f, const char *kind, const char *what, value_t **args, size_t nargs,
                                const struct ast_hdr *site)
{
	struct sched_ev *e;
	const value_t *a = nargs >= 1 ? args[0] : NULL;

	if (!a || (strcmp(kind, "data") && strcmp(kind, "sizes")))
		return;
	if (!strcmp(kind, "sizes") && (a->k == VK_INT || (a->k == VK_UNKNOWN && fact_plain(a))))
		return;
	if (a->k == VK_TENSOR || a->k == VK_NONE || a->k == VK_STR || !host_only(a, 0))
		return;
	if ((a->k == VK_LIST || a->k == VK_TUPLE) && (a->u.seq->unk_reason || !a->u.seq->n) && !strcmp(kind, "sizes"))
		return;
	if ((e = sev(f, SEV_H2D, what, site))) {
		e->pinned = 0;
		e->non_blocking = 0;
		/* Python numbers: the step's own tensor; an array: data */
		e->of_values = python_data(a, 0);
		e->of_array = !e->of_values;
	}
}

/* torch.compile(mode=..., fullgraph=...) with no function: the decorator
 * it returns, torch.compile with those options bound (a functools.partial,
 * which call() applies to the def it decorates). */
static value_t *compile_decorator(struct frame *f, struct vdict *kw)
{
	struct interp *in = f->in;
	struct vinst *p = new_inst(in);
	value_t *pk = v_dict(in->a);
	size_t i;

	p->ext = "functools.partial";
	for (i = 0; i < kw->n; i++)
		vdict_set(in->a, pk->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, p->attrs, "func", v_ext(in->a, "torch.compile"));
	vdict_sets(in->a, p->attrs, "args", v_seq(in->a, VK_LIST, 0));
	vdict_sets(in->a, p->attrs, "keywords", pk);
	return mk_inst_value(in, p);
}

/* torch.compile(self.function) where the function is a def of the
 * repository held by an object (not a module) a plain name reaches: a
 * wrapper that compiles
 * what it was given (`@flags.compile_wrap` over a def, compiled on its
 * first call).  The region is that def, anchored where its code object
 * starts (its first decorator's line, as @torch.compile's) in the scope
 * it is written in ("<module>", "Block", "main") -- the call
 * inside the wrapper is shared by every function it wraps.  1 and *anchor,
 * *target; 0 when args is no such function.  Never fails. */
static int compile_wrapped_def(struct frame *f, const struct ast_hdr *site, const value_t *fn,
                               const char **anchor, const char **target)
{
	const struct ast_hdr *a;
	const struct vfunc *vf;
	const char *q, *dot;
	value_t *owner;

	if (fn->k != VK_FUNC || !(vf = fn->u.fn)->def || !vf->qualname || !vf->file || AST_IS(vf->def, Lambda) ||
	    !AST_IS(site, Call) || !AST_AS(site, Call)->args.n ||
	    !AST_IS(a = AST_AS(site, Call)->args.items[0], Attribute) || !AST_IS(AST_AS(a, Attribute)->value, Name))
		return 0;
	owner = eval(f, AST_AS(a, Attribute)->value);    /* a name: reading it runs nothing */
	if (owner->k != VK_INST || owner->u.inst->mod != VM_NONE)
		return 0;
	q = vf->qualname;
	dot = strrchr(q, '.');
	if (!dot)
		q = "<module>";
	else {
		size_t n = (size_t)(dot - q);

		if (n > 9 && !strncmp(dot - 9, ".<locals>", 9))
			n -= 9;
		q = afmt(f->in, "%.*s", (int)n, q);
	}
	*anchor = aanchor(f->in, vf->file->path, q, func_first_line(vf->def));
	*target = vf->qualname;
	return 1;
}

static value_t *tc_compile(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *mode = kw ? vdict_gets(kw, "mode") : NULL;
	struct sched_ev *e;

	(void)d, (void)last;
	in->jit_compile = 1;     /* torch.compiler.is_compiling() not known from now on */
	if (nargs == 0 && kw && !kw_unk(kw, 1))
		return compile_decorator(f, kw);
	if (nargs < 1)
		return NULL;
	/* torch.compile(fn, disable=True): fn itself, nothing compiled
	 * (`disable=not cfg.compile_prefilling` with the flag off) */
	if (kw && vdict_gets(kw, "disable") && value_truth(vdict_gets(kw, "disable")) == 1)
		return args[0];
	e = sev(f, SEV_COMPILE, "torch.compile", site);
	if (e) {
		e->target = AST_IS(site, Call) && AST_AS(site, Call)->args.n ? text_of(f, AST_AS(site, Call)->args.items[0]) : NULL;
		compile_wrapped_def(f, site, args[0], &e->anchor, &e->target);
		/* @torch.compile(...) over a def: the function's name */
		if (!e->target && args[0]->k == VK_FUNC && args[0]->u.fn->qualname)
			e->target = args[0]->u.fn->qualname;
		e->op = mode && mode->k == VK_STR ? mode->u.str.s : NULL;
		e->model = args[0]->k == VK_INST ? args[0]->u.inst : NULL;
	}
	if (args[0]->k == VK_INST)
		return call_ext(f, v_ext(in->a, "torch.compile.__wrap__"), args, nargs, kw, site);
	return args[0];      /* a compiled function is the function */
}

/* The activation-checkpointing event, with its target and its policy
 * (use_reentrant, context_fn, check_fn, ... as written). */
static void checkpoint_event(struct frame *f, const char *d, const struct ast_hdr *site)
{
	struct sched_ev *e = sev(f, SEV_CHECKPOINT_ACT, d, site);

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
			e->detail_text = afmt(f->in, "%s", b.buf);
		buf_free(&b);
	}
}

/* checkpoint(fn, *args): the checkpointed function runs in this forward;
 * checkpoint_sequential: a tensor */
static value_t *tc_checkpoint(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)last, (void)kw;
	checkpoint_event(f, d, site);
	if (nargs >= 1 && strstr(d, "sequential") == NULL)
		return call(f, args[0], args + 1, nargs - 1, NULL, site);
	return v_tensor_dev(in->a, f->mode == M_FWD && in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
}

/* checkpoint_wrapper(module), apply_activation_checkpointing(model): the
 * module, wrapped: the same tree */
static value_t *tc_checkpoint_wrapper(struct frame *f, const char *d, const char *last, value_t **args,
                                      size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	(void)last, (void)kw;
	checkpoint_event(f, d, site);
	return nargs >= 1 ? args[0] : v_none(f->in->a);
}

static value_t *tc_no_grad(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *c = new_inst(in);

	(void)d, (void)last, (void)args, (void)nargs, (void)kw;
	c->ext = "torch.no_grad";
	vdict_sets(in->a, c->attrs, "anchor", v_str(in->a, anchor_at(f, site)));
	return mk_inst_value(in, c);
}

static value_t *tc_autocast(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *c = new_inst(in);

	(void)d, (void)last, (void)args, (void)nargs, (void)kw;
	c->ext = "torch.autocast";
	vdict_sets(in->a, c->attrs, "text", v_str(in->a, text_of(f, site)));
	return mk_inst_value(in, c);
}

/* torch.device(spec[, index]) / torch.device(type=, index=): attrs "type",
 * the part of the spec before ':' ('cuda' of 'cuda:0' and of
 * f'cuda:{rank}'), and "index", the number after it (None when the spec
 * has none and no index is given).  What the arguments do not pin down is
 * a value not known, with its reason; torch.device(d) of a device is d. */
static value_t *tc_device(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                          struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *c;
	value_t *spec = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "type") : NULL;
	value_t *idx = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "index") : NULL;
	value_t *type, *index;

	(void)d;
	if (spec && spec->k == VK_INST && spec->u.inst->ext && !strcmp(spec->u.inst->ext, "torch.device"))
		return spec;
	if (!spec && !strcmp(last, "current_accelerator")) {   /* the machine's, when it is named */
		const char *acc;

		if (machine_accelerator(in, &acc)) {
			if (!acc)
				return v_none(in->a);
			spec = v_str(in->a, acc);
		}
	}
	c = new_inst(in);
	c->ext = "torch.device";
	if (spec && spec->k == VK_STR) {
		const char *colon = memchr(spec->u.str.s, ':', spec->u.str.len);

		if (!colon) {
			type = spec;
			index = idx ? idx : v_none(in->a);
		} else {
			const char *n = colon + 1;
			size_t nl = spec->u.str.len - (size_t)(n - spec->u.str.s), i;
			long long k = 0;

			type = v_strn(in->a, spec->u.str.s, (size_t)(colon - spec->u.str.s));
			for (i = 0; i < nl && i < 9 && n[i] >= '0' && n[i] <= '9'; i++)
				k = k * 10 + (n[i] - '0');
			index = nl && i == nl ? v_int(in->a, k)
			                      : unknown_at(f, site, "a device index not read from its spec");
		}
	} else if (spec && spec->k == VK_UNKNOWN && spec->alts && spec->alt_cond && devchoice_specs(spec->alts[0], spec->alts[1])) {
		/* torch.device("cuda" if torch.cuda.is_available() else "cpu"):
		 * the type chosen at run time (devchoice.c) */
		value_t *t2[2];
		int i;

		for (i = 0; i < 2; i++) {
			const char *s2 = spec->alts[i]->u.str.s, *colon = memchr(s2, ':', spec->alts[i]->u.str.len);

			t2[i] = colon ? v_strn(in->a, s2, (size_t)(colon - s2)) : spec->alts[i];
		}
		type = v_alts(f, spec->alt_cond, t2[0], t2[1]);
		index = idx ? idx : unknown_at(f, site, "a device index of a spec chosen at run time");
	} else if (spec && spec->k == VK_UNKNOWN && spec->str_prefix && strchr(spec->str_prefix, ':')) {
		/* f'cuda:{rank}': the type is known, the number is not */
		type = v_strn(in->a, spec->str_prefix, (size_t)(strchr(spec->str_prefix, ':') - spec->str_prefix));
		index = idx ? idx : unknown_at(f, site, "a device index of a spec not known");
		if (index->k == VK_UNKNOWN && !idx)
			index->nonneg = FACT_NONNEG_INT;
	} else {
		type = unknown_at(f, site, "the type of a device whose spec is not known");
		index = idx ? idx : unknown_at(f, site, "a device index of a spec not known");
	}
	vdict_sets(in->a, c->attrs, "type", type);
	vdict_sets(in->a, c->attrs, "index", index);
	return mk_inst_value(in, c);
}

/* torch.Size(dims): a tuple subclass of ints on the host, the tuple of
 * its argument's items (its numel() and the like are no tensors); NULL
 * (not decided here) when the items are not a known sequence */
static value_t *tc_size(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;
	size_t i;

	(void)d, (void)last, (void)kw;
	if (nargs == 0)
		return v_seq(in->a, VK_TUPLE, 0);
	if (nargs != 1 || (args[0]->k != VK_LIST && args[0]->k != VK_TUPLE) || args[0]->u.seq->unk_reason)
		return unknown_at(f, site, "a torch.Size of dimensions not known (a tuple of ints on the host)");
	r = v_seq(in->a, VK_TUPLE, args[0]->u.seq->n);
	for (i = 0; i < args[0]->u.seq->n; i++)
		vseq_push(in->a, r->u.seq, args[0]->u.seq->items[i]);
	return r;
}

/* with the environment known (extract --env / --no-env), no process
 * group exists before the job's code starts one; a job that has not
 * (on any path read so far) runs as one process.  Once the job's
 * init_process_group has run on every path (dist_init_sure), the group
 * exists.  is_available(): true once that group exists (it could not be
 * made otherwise), else the build's answer, not known. */
static value_t *tc_dist_is_initialized(struct frame *f, const char *d, const char *last, value_t **args,
                                       size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)d, (void)args, (void)nargs, (void)kw, (void)site;
	if (in->dist_init_sure)
		return v_bool(in->a, 1);
	return strcmp(last, "is_available") && env_complete(in) && !in->dist_init ? v_bool(in->a, 0) : NULL;
}

/* torch.is_tensor(x), torch.is_floating_point(x) ...: a Python bool from
 * the type of x, read on the host (no sync): is_tensor is known when x's
 * kind is, the others are not known */
static value_t *tc_type_query(struct frame *f, const char *d, const char *last, value_t **args,
                              size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *x = nargs >= 1 ? args[0] : NULL;

	(void)d, (void)kw;
	if (x && !strcmp(last, "is_tensor")) {
		if (x->k == VK_TENSOR)
			return v_bool(in->a, 1);
		if (x->k == VK_NONE || x->k == VK_BOOL || x->k == VK_INT || x->k == VK_FLOAT || x->k == VK_STR ||
		    x->k == VK_TUPLE || x->k == VK_LIST || x->k == VK_DICT || x->k == VK_RANGE)
			return v_bool(in->a, 0);
	}
	return unknown_at(f, site, "a type query read on the host (a Python bool, no sync)");
}

/* torch.numel(x): the number of x's elements, read from its shape -- a
 * Python int on the host (no sync), known when the shape is */
static value_t *tc_shape_query(struct frame *f, const char *d, const char *last, value_t **args,
                               size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	value_t *r = NULL;

	(void)d, (void)kw;
	if (nargs >= 1 && args[0]->k == VK_TENSOR && args[0]->shape)
		r = size_read(f, args[0], last, NULL, site);
	if (r)
		return r;
	r = unknown_at(f, site, "a shape read at run time (no sync)");
	r->dev = DEV_HOST;
	return r;
}

/* torch.jit.is_scripting(), torch.jit.is_tracing(),
 * torch._C._get_tracing_state(), torch.is_grad_enabled() ...: a Python
 * value torch keeps on the host (a bool, a tracing state or None, a
 * dtype).  Not known here -- scripting or tracing the code, or a grad
 * mode set elsewhere, changes it -- but never a tensor: a branch on it
 * reads nothing from a device.  Never NULL. */
static value_t *tc_host_query(struct frame *f, const char *d, const char *last, value_t **args,
                              size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	value_t *r = unknown_at(f, site, afmt(f->in, "%s(): a Python value torch keeps on the host (no sync)", d));

	(void)last, (void)args, (void)nargs, (void)kw;
	r->dev = DEV_HOST;
	return r;
}

/* torch.finfo(dtype), torch.iinfo(dtype): an object whose numeric fields
 * (catalog type_info_fields: bits, eps, max, min, tiny, ...) are Python
 * numbers (torch's "Type Info" documentation), their values not stated
 * here: a record (catalog record_classes) of host numbers that are no
 * loader's data (from_values), so torch.tensor(torch.finfo(t).min,
 * device=d) is a copy of Python data and a branch on one reads nothing
 * from a device.  Never NULL. */
static value_t *tc_type_info(struct frame *f, const char *d, const char *last, value_t **args,
                             size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = new_inst(in);
	const char *fields = catalog_fact(in->cat, CATALOG_F_TYPE_INFO_FIELDS, d), *p, *e;

	(void)last, (void)args, (void)nargs, (void)kw;
	o->ext = d;
	o->args = vdict_new(in->a);
	for (p = fields; p && *p; p = *e ? e + 1 : e) {
		value_t *x = unknown_at(f, site, afmt(in, "a field of %s(): a Python number", d));

		e = strchr(p, ' ');
		if (!e)
			e = p + strlen(p);
		x->dev = DEV_HOST;
		x->from_values = 1;
		vdict_sets(in->a, o->args, astr(in, afmt(in, "%.*s", (int)(e - p), p)), x);
	}
	return mk_inst_value(in, o);
}

/* torch.nn.modules.utils' _single, _pair, _triple, _quadruple (x): x made
 * a tuple of 1..4 items, as _ntuple does (torch/nn/modules/utils.py):
 * tuple(x) of a list or tuple, x repeated otherwise -- Python values on
 * the host, never a tensor (torchvision's roi_align: _pair(output_size)).
 * A value not known, or a call with other arguments, is a host value not
 * known. */
static value_t *tc_ntuple(struct frame *f, const char *d, const char *last, value_t **args,
                          size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	static const struct { const char *name; size_t n; } arity[] = {
		{ "_pair", 2 }, { "_quadruple", 4 }, { "_single", 1 }, { "_triple", 3 },
	};
	const char *name = strrchr(d, '.') ? strrchr(d, '.') + 1 : d;
	size_t n = 0, i;
	value_t *r, *x = nargs == 1 && (!kw || !kw->n) ? args[0] : NULL;
	const struct vseq *q = x && (x->k == VK_TUPLE || x->k == VK_LIST) ? x->u.seq : NULL;

	(void)last;
	for (i = 0; i < sizeof arity / sizeof arity[0]; i++)
		if (!strcmp(name, arity[i].name))
			n = arity[i].n;
	if (n && x && (q ? !q->unk_reason : value_is_known_scalar(x))) {
		r = v_seq(f->in->a, VK_TUPLE, 0);
		for (i = 0; i < (q ? q->n : n); i++)
			vseq_push(f->in->a, r->u.seq, q ? q->items[i] : x);
		return r;
	}
	r = unknown_at(f, site, afmt(f->in, "%s(): a tuple of Python values not known", d));
	r->dev = DEV_HOST;
	return r;
}

/* torch.equal(x, y), torch.allclose(x, y): a Python bool read from the
 * tensors (tensor.c host_compare): a sync when one is on the device. */
static value_t *tc_host_compare(struct frame *f, const char *d, const char *last, value_t **args,
                                size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	int dev = DEV_HOST;
	size_t i;

	(void)d, (void)kw;
	for (i = 0; i < nargs && i < 2; i++)
		if (args[i]->k == VK_TENSOR && args[i]->dev != DEV_HOST)
			dev = args[i]->dev == DEV_DEVICE || dev == DEV_DEVICE ? DEV_DEVICE : DEV_UNKNOWN;
	return host_compare(f, last, dev, site);
}

/* torch.jit.is_scripting(): False in Python run eagerly, unless the job
 * has scripted code (catalog jit_compilers); then not known (host). */
static value_t *tc_scripting_query(struct frame *f, const char *d, const char *last, value_t **args,
                                   size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	if (f->in->jit_script)
		return tc_host_query(f, d, last, args, nargs, kw, site);
	return v_bool(f->in->a, 0);
}

/* torch.jit.is_tracing() (False) and torch._C._get_tracing_state()
 * (None) in Python run eagerly, unless the job has traced code; then not
 * known (host). */
static value_t *tc_tracing_query(struct frame *f, const char *d, const char *last, value_t **args,
                                 size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	if (f->in->jit_trace)
		return tc_host_query(f, d, last, args, nargs, kw, site);
	return !strcmp(last, "_get_tracing_state") ? v_none(f->in->a) : v_bool(f->in->a, 0);
}

/* torch.compiler.is_compiling() and its older names: False in Python run
 * eagerly, unless the job has compiled code (torch.compile, as a call or
 * a decorator); then not known (host). */
static value_t *tc_compiling_query(struct frame *f, const char *d, const char *last, value_t **args,
                                   size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	if (f->in->jit_compile)
		return tc_host_query(f, d, last, args, nargs, kw, site);
	return v_bool(f->in->a, 0);
}

/* Does a torch.distributions object built with validate_args v (NULL:
 * not given) check its arguments: 1 yes, 0 no, -1 not known.  None (or
 * not given) is the default, on under plain python unless the job set it
 * off (in->dist_novalidate). */
static int dist_validates(const struct interp *in, const value_t *v)
{
	if (v && v->k == VK_BOOL)
		return v->u.b != 0;
	if (v && v->k != VK_NONE)
		return -1;
	return in->dist_novalidate == 0 ? 1 : in->dist_novalidate == 1 ? 0 : -1;
}

/* Distribution.set_default_validate_args(value): the default the later
 * objects take (dist_validates).  None. */
static value_t *tc_dist_validate_default(struct frame *f, const char *d, const char *last, value_t **args,
                                         size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	value_t *v = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "value") : NULL;

	(void)d, (void)last, (void)site;
	f->in->dist_novalidate = v && v->k == VK_BOOL ? !v->u.b : 2;
	return v_none(f->in->a);
}

/* Categorical(probs) / Categorical(logits=...): an object of that class
 * that keeps its scores (inst->args "probs", "logits") and whether it
 * validates ("__ecg_validates__", dist_validates); its sample() and
 * log_prob() are categorical_method's.  Validating, the constructor
 * checks its scores' constraint and reads `valid.all()` on the host: a
 * sync when they are on the device.  Never NULL. */
static value_t *tc_categorical(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = new_inst(in);
	value_t *p = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "probs") : NULL;
	value_t *l = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "logits") : NULL;
	value_t *va = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "validate_args") : NULL;
	value_t *s = p && p->k != VK_NONE ? p : l;
	int val = dist_validates(in, va);

	(void)last;
	o->ext = d;
	o->args = vdict_new(in->a);
	if (p)
		vdict_sets(in->a, o->args, "probs", p);
	if (l)
		vdict_sets(in->a, o->args, "logits", l);
	vdict_sets(in->a, o->args, "__ecg_validates__", v_int(in->a, val));
	if (val == 1 && f->mode != M_FWD && s && s->k == VK_TENSOR && s->dev == DEV_DEVICE)
		sev(f, SEV_SYNC, "Categorical(...) validating its argument (the constraint check's .all() read on the host)",
		    site);
	return mk_inst_value(in, o);
}

/* recv.sample() of a Categorical made by tc_categorical: torch.multinomial
 * over its scores -- a token chosen, and a host read when they are on the
 * device (token_choice).  The sample is where the scores are.
 * recv.log_prob(value) of one that validates: _validate_sample reads
 * `valid.all()` of the value on the host, a sync when the value is on the
 * device (the result is left to the caller: NULL).  NULL: not such a
 * call. */
value_t *categorical_method(struct frame *f, const char *d, const char *last, const value_t *recv,
                            value_t **args, size_t nargs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vinst *o = recv && recv->k == VK_INST ? recv->u.inst : NULL;
	const char *kind;
	value_t *s;
	int dev;

	(void)d;
	if (!o || !o->ext || !o->args || (strcmp(last, "sample") && strcmp(last, "log_prob")))
		return NULL;
	kind = catalog_fact(in->cat, CATALOG_F_TORCH_CALLS, o->ext);
	if (!kind || strcmp(kind, "categorical"))
		return NULL;
	if (!strcmp(last, "log_prob")) {
		const value_t *v = vdict_gets(o->args, "__ecg_validates__");

		if (v && v->k == VK_INT && v->u.i == 1 && f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_TENSOR &&
		    args[0]->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "Categorical.log_prob validating its value (the support check's .all() read on the host)",
			    site);
		return NULL;
	}
	s = vdict_gets(o->args, "logits");
	if (!s)
		s = vdict_gets(o->args, "probs");
	dev = s && s->k == VK_TENSOR ? s->dev : DEV_UNKNOWN;
	token_choice(f, "torch.multinomial (Categorical.sample)", dev, site);
	return v_tensor_dev(in->a, dev, 0);
}

/* The functions by the names torch_facts.json gives them, sorted. */
struct torch_call {
	const char *name;
	torch_call_fn *fn;
};

static const struct torch_call TORCH_CALLS[] = {
	{ "autocast", tc_autocast },
	{ "backend", tc_backend },
	{ "categorical", tc_categorical },
	{ "checkpoint", tc_checkpoint },
	{ "checkpoint_wrapper", tc_checkpoint_wrapper },
	{ "compile", tc_compile },
	{ "compiling_query", tc_compiling_query },
	{ "context", tc_context },
	{ "default_device", tc_default_device },
	{ "device", tc_device },
	{ "device_count", tc_device_count },
	{ "device_mesh", tc_device_mesh },
	{ "dist_is_initialized", tc_dist_is_initialized },
	{ "dist_validate_default", tc_dist_validate_default },
	{ "host_compare", tc_host_compare },
	{ "host_query", tc_host_query },
	{ "load", tc_load },
	{ "new_group", tc_new_group },
	{ "new_subgroups", tc_new_subgroups },
	{ "no_grad", tc_no_grad },
	{ "ntuple", tc_ntuple },
	{ "save", tc_save },
	{ "scripting_query", tc_scripting_query },
	{ "shape_query", tc_shape_query },
	{ "size", tc_size },
	{ "stream", tc_stream },
	{ "synchronize", tc_synchronize },
	{ "tracing_query", tc_tracing_query },
	{ "type_info", tc_type_info },
	{ "type_query", tc_type_query },
	{ "world_size", tc_world_size },
};

const struct ntab torch_calls_ntab = NTAB(TORCH_CALLS);

static torch_call_fn *torch_call_named(const char *name)
{
	const void *p = ntab_find(TORCH_CALLS, NTAB_LEN(TORCH_CALLS), sizeof TORCH_CALLS[0], name);

	return p ? ((const struct torch_call *)p)->fn : NULL;
}

/* Another library's function that catalog torch_calls names (it only
 * asks torch's state: torchvision._is_tracing), read as that entry says;
 * NULL when it names none. */
value_t *call_torch_fact(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                         struct vdict *kw, const struct ast_hdr *site)
{
	torch_call_fn *fn = torch_call_named(catalog_fact(f->in->cat, CATALOG_F_TORCH_CALLS, d));

	return fn ? fn(f, d, last, args, nargs, kw, site) : NULL;
}

/* The kind of object a torch callable d makes by the catalogue's
 * torch_calls / torch_calls_by_name ("no_grad" for torch.no_grad and
 * torch.inference_mode), or NULL when it has none of its own. */
const char *torch_call_kind(struct interp *in, const char *d)
{
	const char *k, *last;

	if (!d || strncmp(d, "torch.", 6))
		return NULL;
	if ((k = catalog_fact(in->cat, CATALOG_F_TORCH_CALLS, d)))
		return k;
	last = strrchr(d, '.');
	return catalog_fact(in->cat, CATALOG_F_TORCH_CALLS_BY_NAME, last ? last + 1 : d);
}

/* CUDA streams and events: synchronize() blocks the host; record(),
 * query(), wait_stream(), wait_event() do not */
static value_t *stream_method(struct frame *f, const char *d, const char *last, const struct ast_hdr *site)
{
	struct interp *in = f->in;

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

/* Where the tensors of a sequence argument live (torch.cat((a, b), 1),
 * torch.stack(xs) with xs of a length not known: its representative
 * item): on the device when one item is; on the host when all are; else
 * DEV_UNKNOWN when one item is known to be on the host or all are
 * tensors (the others not known); -1 when no argument is such a sequence
 * (the caller's own reading then). */
static int tensor_seq_dev(value_t **args, size_t nargs)
{
	size_t i, k;

	for (i = 0; i < nargs; i++) {
		const struct vseq *s = args[i]->k == VK_LIST || args[i]->k == VK_TUPLE ? args[i]->u.seq : NULL;
		size_t host = 0, tens = 0;

		for (k = 0; s && k < s->n; k++) {
			if (s->items[k]->k == VK_TENSOR && s->items[k]->dev == DEV_DEVICE)
				return DEV_DEVICE;
			host += s->items[k]->k == VK_TENSOR && s->items[k]->dev == DEV_HOST;
			tens += s->items[k]->k == VK_TENSOR;
		}
		if (host || (s && s->n && tens == s->n))
			return host == s->n ? DEV_HOST : DEV_UNKNOWN;
	}
	return -1;
}

/* torch.optim.AdamW, torch.cuda.amp.GradScaler, DataLoader ...: an object
 * of a torch class, in job code */
/* The place of the tensors of an optimizer's params argument (a list of
 * parameters, or of param groups {"params": [...]}): DEV_HOST or
 * DEV_DEVICE when every tensor read there is known to be in that place
 * (at least one), DEV_UNKNOWN otherwise (a list not known, a generator
 * ecg does not hold, a mix). */
static int params_dev(const value_t *p, int depth)
{
	int dev = DEV_UNKNOWN, d;
	size_t i;

	if (!p || depth > 2 || (p->k != VK_LIST && p->k != VK_TUPLE) || !p->u.seq->n)
		return DEV_UNKNOWN;
	for (i = 0; i < p->u.seq->n; i++) {
		const value_t *it = p->u.seq->items[i];

		if (it->k == VK_TENSOR)
			d = it->dev;
		else if (it->k == VK_DICT && vdict_gets(it->u.dict, "params"))
			d = params_dev(vdict_gets(it->u.dict, "params"), depth + 1);
		else
			return DEV_UNKNOWN;
		if (it->k == VK_DICT && (vdict_gets(it->u.dict, "params")->k == VK_LIST ||
		                         vdict_gets(it->u.dict, "params")->k == VK_TUPLE) &&
		    !vdict_gets(it->u.dict, "params")->u.seq->n)
			continue;   /* an empty group: no tensor */
		if (d == DEV_UNKNOWN || (dev != DEV_UNKNOWN && d != dev))
			return DEV_UNKNOWN;
		dev = d;
	}
	return dev;
}

/* torch.optim.X(params, ...): where its parameters are, when known
 * (attrs "__ecg_params_dev__", an int DEV_*), for load_state_dict */
static void optim_note_params(struct interp *in, struct vinst *o, const value_t *params)
{
	int dev = params_dev(params, 0);

	if (dev != DEV_UNKNOWN)
		vdict_sets(in->a, o->attrs, "__ecg_params_dev__", v_int(in->a, dev));
}

/* super().__init__(params, defaults) in the repository's own subclass of
 * a torch optimizer (class LARS(optim.Optimizer)): torch's Optimizer
 * constructor takes the parameters first, as torch.optim.X(params, ...)
 * does -- where they are noted for load_state_dict.  Nothing for another
 * base. */
void optim_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw)
{
	struct vinst *o = self && self->k == VK_INST ? self->u.inst : NULL;

	if (!o || o->ext || !o->cls || !is_optim_ext(class_ext_base(o->cls)))
		return;
	optim_note_params(f->in, o, nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "params") : NULL);
}

static value_t *torch_object(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                             struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = new_inst(in);
	size_t i;

	o->ext = d;
	if (!strncmp(d, "torch.optim.", 12) && strstr(d, "lr_scheduler"))
		o->ext = afmt(in, "scheduler:%s", d);
	if (catalog_fact_match(in->cat, CATALOG_F_OPTIMIZER_STEP_COLLECTIVES, d)) {
		/* ZeroRedundancyOptimizer(params, optimizer_class, process_group,
		 * parameters_as_bucket_view, overlap_with_ddp, ...): with the
		 * overlap, DDP's communication hook broadcasts in backward and
		 * step() does not; by position not known */
		value_t *ov = kw ? vdict_gets(kw, "overlap_with_ddp") : NULL;

		vdict_sets(in->a, o->attrs, "overlap_with_ddp",
		           ov ? ov : nargs < 5 ? v_bool(in->a, 0)
		                             : unknown_at(f, site, "overlap_with_ddp given by position"));
	}
	if (is_optim_ext(d))
		optim_note_params(in, o, nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "params") : NULL);
	/* torch.optim.AdamW(..., fused=True): its step takes the GradScaler's
	 * found_inf into the fused kernel (catalog amp_scaling_optimizers):
	 * whether it does, by the keyword (not given: no) -- jobctx.c reads it
	 * at scaler.step(optimizer) */
	{
		const char *key = catalog_fact(in->cat, CATALOG_F_AMP_SCALING_OPTIMIZERS, d);

		if (key) {
			value_t *fu = kw ? vdict_gets(kw, key) : NULL;

			vdict_sets(in->a, o->attrs, OPT_SCALES_OWN_STEP,
			           !fu || fu->k == VK_NONE ? v_bool(in->a, 0)
			           : value_truth(fu) >= 0 ? v_bool(in->a, value_truth(fu))
			           : unknown_at(f, site, afmt(in, "%s= not known", key)));
		}
	}
	tp_keep_args(in, o, last, args, nargs, kw);   /* tensor-parallel styles, placements */
	sdfull_keep_config(in, o, last, nargs, kw);   /* FSDP's state-dict configs */
	if (!strcmp(last, "GradScaler") || !strcmp(last, "ShardedGradScaler")) {
		/* enabled=: by keyword (its place differs between
		 * torch.cuda.amp's and torch.amp's, and FSDP's takes the
		 * device first); not known when the arguments reach it by
		 * position */
		value_t *en = kw ? vdict_gets(kw, "enabled") : NULL;

		if (en || nargs < 5)
			vdict_sets(in->a, o->attrs, "enabled", en ? en : v_bool(in->a, 1));
		/* _scale: None until the first scale(loss) makes the scale
		 * tensor on the device (torch's lazy init); state_dict() and
		 * get_scale() read it only then (catalog object_host_reads'
		 * second gate) -- ext_job_effects sets it at scale() */
		vdict_sets(in->a, o->attrs, "_scale", v_none(in->a));
	}
	if (!strcmp(last, "DataLoader"))
		loader_init(f, o, args, nargs, kw, site);
	/* Subset(dataset, indices), ConcatDataset(datasets): what they
	 * hold, by torch's attribute names (host_only reads them) */
	if (!strcmp(last, "Subset") || !strcmp(last, "ConcatDataset")) {
		int sub = last[0] == 'S';
		const char *names[2] = { sub ? "dataset" : "datasets", sub ? "indices" : NULL };

		for (i = 0; i < 2 && names[i]; i++) {
			value_t *a = kw && vdict_gets(kw, names[i]) ? vdict_gets(kw, names[i]) : i < nargs ? args[i] : NULL;

			vdict_sets(in->a, o->attrs, names[i], a ? a : unknown_at(f, site, "an argument not given by position"));
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

static value_t *call_torch_(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site, int any_tensor)
{
	struct interp *in = f->in;
	const char *coll = collective_of(in, d);
	struct sched_ev *e;
	torch_call_fn *fn;
	value_t *r;
	size_t i;
	int dev = DEV_UNKNOWN, seq_dev;
	int made_on_host = 0;   /* a factory's tensor made on the host by what the call says */
	int dev_guessed = 0;    /* dev is the job's GPU for want of a tensor argument */

	/* torch.get_rng_state() (a CPU ByteTensor), torch.cuda.
	 * get_rng_state_all() (a list of them): host data (catalog
	 * host_state_calls) */
	if (f->mode != M_FWD && catalog_fact(in->cat, CATALOG_F_HOST_STATE_CALLS, d)) {
		if (!strcmp(catalog_fact(in->cat, CATALOG_F_HOST_STATE_CALLS, d), "tensor"))
			return v_tensor_dev(in->a, DEV_HOST, 0);
		r = unknown_at(f, site, "host data torch keeps (a random number generator's state)");
		r->dev = DEV_HOST;
		return r;
	}
	/* torch.utils.cpp_extension._get_build_directory(name) &c: a Python
	 * helper outside the tensor API (catalog host_helper_modules) makes
	 * host data -- a path, a module --, never a tensor, and no op */
	{
		const char *dot = strrchr(d, '.');

		if (dot && dot - d < 128) {
			char mod[128];

			memcpy(mod, d, (size_t)(dot - d));
			mod[dot - d] = 0;
			if (catalog_fact(in->cat, CATALOG_F_HOST_HELPER_MODULES, mod)) {
				r = unknown_at(f, site, "host data a torch helper outside the tensor API returns");
				r->dev = DEV_HOST;
				return r;
			}
		}
	}
	/* a torch class built (no_grad(), device(...), Size(...)) is not an
	 * op: torch's function hooks never see it */
	if (f->mode == M_FWD &&
	    !(!strchr(d + 6, '.') && (catalog_torch_name(in->cat, d + 6) & CATALOG_N_CLASS)) &&
	    !catalog_fact(in->cat, CATALOG_F_NOT_DISPATCHED, d))
		emit_op(f, d, site);
	if (coll) {
		e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site);
		if (e) {
			value_t *a = kw ? vdict_gets(kw, "async_op") : NULL;

			e->op = coll;
			e->async_op = catalog_fact(in->cat, CATALOG_F_ASYNC_COLLECTIVES, coll) ? 1
			              : a ? value_truth(a) : 0;
			e->parallelism = parallelism_of(f, coll, site, kw ? vdict_gets(kw, "group") : NULL);
			parallel_note_grad_reduce(f, coll, nargs, kw, site);   /* by hand, in backward hooks */
		}
		/* all_gather_object ... on NCCL: the pickled bytes copied to the
		 * device, their sizes read on the host */
		if (catalog_fact(in->cat, CATALOG_F_OBJECT_COLLECTIVES, coll) && in->dist_backend &&
		    !in->dist_backend_mixed && !strcmp(in->dist_backend, "nccl") && f->mode != M_FWD) {
			const struct jctx *ojc = f->jc;

			if (in->dist_backend_cond)
				f->jc = jc_push(f, JC_COND, anchor_at(f, site), in->dist_backend_cond);
			object_collective_nccl(f, coll, site);
			f->jc = ojc;
		}
		return !strcmp(coll, "barrier") ? v_none(in->a) : unknown_at(f, site, "a collective's work handle");
	}
	if ((strstr(d, "Stream.") || strstr(d, "Event.")) && !strncmp(d, "torch.cuda.", 11))
		return stream_method(f, d, last, site);
	if ((fn = torch_call_named(catalog_fact(in->cat, CATALOG_F_TORCH_CALLS, d))) &&
	    (r = fn(f, d, last, args, nargs, kw, site)))
		return r;
	if ((fn = torch_call_named(catalog_fact(in->cat, CATALOG_F_TORCH_CALLS_BY_NAME, last))) &&
	    (r = fn(f, d, last, args, nargs, kw, site)))
		return r;
	/* torch.cuda.is_available(), torch.backends.mps.is_available() */
	if (catalog_fact(in->cat, CATALOG_F_MACHINE_QUERIES, last))
		return machine_query(f, d, site);
	if ((!strncmp(d, "torch.cuda.", 11) || !strncmp(d, "torch.distributed.", 18) || !strncmp(d, "torch.backends.", 15)) &&
	    last[0] >= 'a' && last[0] <= 'z')
		return unknown_at(f, site, "a value the runtime reports (a number, not a tensor)");
	if (catalog_fact(in->cat, CATALOG_F_RUNTIME_QUERIES, last))
		return unknown_at(f, site, MACHINE_REASON);
	/* (not torch.tensor([...]) while torch's default device is a GPU's:
	 * made there, below) */
	if (!strchr(d + 6, '.') &&
	    !(in->default_on_device && catalog_fact(in->cat, CATALOG_F_DEFAULT_DEVICE_FACTORIES, last)) &&
	    (r = hostints_factory(f, last, args, nargs, kw)))
		return r;
	/* torch.cuda.FloatTensor([...]): a typed constructor of a GPU type
	 * (torch.cuda.<name> of catalog typed_host_constructors' names) makes
	 * its tensor on the current GPU: Python or numpy data given is built
	 * on the host and copied there (a blocking H2D), ints are its sizes
	 * (nothing copied) -- as a factory under a GPU default type */
	if (!strncmp(d, "torch.cuda.", 11) && !strchr(d + 11, '.') &&
	    catalog_fact(in->cat, CATALOG_F_TYPED_HOST_CONSTRUCTORS, last)) {
		in->gpu = 1;
		if (f->mode != M_FWD)
			default_device_copy(f, "sizes", afmt(in, "%s(host data): made on the GPU", d), args, nargs, site);
		return v_tensor_dev(in->a, DEV_DEVICE, 0);
	}
	/* a torch class's object -- not the legacy typed constructors
	 * (torch.ByteTensor([flag]): a host tensor, host_factories) */
	if (f->mode != M_FWD && last[0] >= 'A' && last[0] <= 'Z' && strcmp(last, "Tensor") &&
	    strncmp(d, "torch.nn.", 9) && (strchr(d + 6, '.') || !catalog_fact(in->cat, CATALOG_F_HOST_FACTORIES, last)))
		return torch_object(f, d, last, args, nargs, kw, site);
	/* torch.as_tensor of a tensor: that tensor, moved only where the
	 * device asked differs (tensor.c) */
	if (!strcmp(d, "torch.as_tensor") && nargs >= 1 && args[0]->k == VK_TENSOR && !args[0]->alts) {
		value_t *t = tensor_as_tensor(f, args[0], nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "device") : NULL,
		                              site);

		if (t->k == VK_TENSOR && (nargs >= 2 || (kw && vdict_gets(kw, "dtype"))))
			t->dt = DT_UNKNOWN;   /* cast to the dtype asked */
		return t;
	}
	/* where a new tensor lives */
	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_TENSOR && args[i]->dev > dev)
			dev = args[i]->dev;
	/* torch.stack((a, b)), torch.cat([x, y]) in job code: where the
	 * sequence's tensors all are (torch.tensor([...]) of them is a new
	 * host tensor of their values: not here).  Not in a forward yet: a
	 * host tensor built there and moved is a copy whose phase depends on
	 * the training flag at the call, which the forward's one reading
	 * does not always know (yolov3's eval-only grid would become a copy
	 * of every training step) */
	if (f->mode != M_FWD && !any_tensor && nargs >= 1 && !catalog_fact(in->cat, CATALOG_F_DATA_FACTORIES, last) &&
	    (seq_dev = seq_tensors_dev(args[0])) != DEV_UNKNOWN) {
		dev = seq_dev;
		any_tensor = 1;
	}
	if (!strchr(d + 6, '.') && catalog_fact(in->cat, CATALOG_F_TYPED_HOST_CONSTRUCTORS, last)) {
		/* torch.ByteTensor(storage), torch.IntTensor([n]): a CPU type's
		 * legacy constructor makes a host tensor whatever it is given
		 * (a storage ecg places nowhere, a tensor), as host_factories
		 * (below) when it is given none */
		dev = f->mode == M_FWD && in->default_dev ? DEV_UNKNOWN : DEV_HOST;
		made_on_host = dev == DEV_HOST;
	} else if (kw && device_of_tensor(vdict_gets(kw, "device"))) {
		/* device=x.device of an x not known to be on the device: made
		 * where x is, nothing copied */
		dev = device_of_tensor(vdict_gets(kw, "device"))->dev;
	} else if (kw && vdict_gets(kw, "device")) {
		int host = dev_is_host(vdict_gets(kw, "device"));

		dev = host == 1 ? DEV_HOST : DEV_DEVICE;
		made_on_host = host == 1;   /* device='cpu': host for sure (hostsure.c) */
		if (dev == DEV_DEVICE) {
			in->gpu = 1;
			devchoice_place(f, vdict_gets(kw, "device"));
		}
		/* torch.tensor(python data, device=cuda): the data is copied over
		 * (in a forward too -- a loss's torch.as_tensor([num_boxes],
		 * device=...) -- when the data is known to be Python's and the
		 * place a device: not x.device of an x not known, which may be
		 * on the host) */
		/* ... but torch.tensor([], device=...) of a sequence known to
		 * be empty (narrow.c: the arm of `len(b) > 0` where b is
		 * empty) makes an empty tensor: no byte is copied */
		if (dev == DEV_DEVICE &&
		    (f->mode != M_FWD || (nargs >= 1 && python_data(args[0], 0) && !host)) &&
		    !(nargs >= 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && !args[0]->u.seq->n &&
		      !args[0]->u.seq->unk_reason) &&
		    catalog_fact(in->cat, CATALOG_F_DATA_FACTORIES, last)) {
			struct sched_ev *ce = sev(f, SEV_H2D, afmt(in, "torch.%s(..., device=...)", last), site);

			if (ce) {
				ce->pinned = 0;
				ce->non_blocking = 0;
			}
		}
	} else if (!any_tensor && nargs >= 1 && catalog_fact(in->cat, CATALOG_F_LIKE_FACTORIES, last)) {
		/* torch.zeros_like(t) of a t not known as a tensor: where t is
		 * (each path's tensor, when both paths bind one on the same
		 * device), else not known -- never the host for want of a
		 * tensor argument */
		dev = like_dev(f, args[0]);
	} else if (!any_tensor) {
		/* a factory: on the host, unless the job moves torch's default
		 * device (then a forward's factory is where that is) */
		int sd = f->mode != M_FWD ? tensor_seq_dev(args, nargs) : -1, ld;
		const char *dd = catalog_fact(in->cat, CATALOG_F_DEFAULT_DEVICE_FACTORIES, last);

		if (dd && in->default_on_device && !strchr(d + 6, '.')) {
			/* torch's default tensor type or device is a GPU's: made
			 * there; host data given to it copied over */
			dev = DEV_DEVICE;
			in->gpu = 1;
			default_device_copy(f, dd, afmt(in, "torch.%s(host data) under a device default tensor type", last),
			                    args, nargs, site);
		} else if (catalog_fact(in->cat, CATALOG_F_HOST_FACTORIES, last)) {
			dev = f->mode == M_FWD && in->default_dev ? DEV_UNKNOWN : DEV_HOST;
			made_on_host = 1;   /* no device=: host for sure unless the default moved */
		} else if (sd >= 0)
			dev = sd;      /* torch.cat([a, b]), torch.stack(xs): where the tensors are */
		else if ((ld = loaded_args_dev(args, nargs)) >= 0)
			dev = ld;      /* torch.unique(loaded.y): where the load put it */
		else {
			dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;             /* clip_grad_norm_ & co */
			dev_guessed = f->mode != M_FWD;   /* (in a forward, values not known are its tensors) */
		}
	}
	/* torch.tensor([a, b]) with a device tensor among the items reads it
	 * on the host to build the new tensor; a list of a count not known
	 * (appended to in a loop) whose every item seen is a device tensor
	 * reads them too */
	if ((!strcmp(last, "tensor") || !strcmp(last, "as_tensor")) && nargs >= 1 && f->mode != M_FWD &&
	    (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE)) {
		const struct vseq *s = args[0]->u.seq;
		size_t ndev = 0;

		for (i = 0; i < s->n; i++)
			ndev += s->items[i]->k == VK_TENSOR && s->items[i]->dev == DEV_DEVICE;
		if (ndev && (!s->unk_reason || ndev == s->n))
			sev(f, SEV_SYNC, afmt(in, "torch.%s([...]) of a device tensor (read on the host)", last), site);
	}
	/* (torch.multinomial of device probabilities syncs: token_choice()) */
	/* (not, in job code, of a value not known to be a tensor, placed on
	 * the GPU for want of one: torch.unique(data.y) of a dataset's labels,
	 * which may well be on the host) */
	if ((catalog_fact(in->cat, CATALOG_F_DATA_SIZED_CALLS, d) || (!strcmp(d, "torch.where") && nargs == 1)) &&
	    dev == DEV_DEVICE && !dev_guessed)
		sev(f, SEV_SYNC, afmt(in, "%s (its output size depends on the data)", d), site);
	/* torch.linalg.solve(A, B) & co of a device tensor: the solver's info
	 * read on the host to raise on a singular input */
	if (catalog_fact(in->cat, CATALOG_F_HOST_CHECKED_CALLS, d) && dev == DEV_DEVICE)
		sev(f, SEV_SYNC, afmt(in, "%s (the solver's info read on the host)", d), site);
	if (!strcmp(d, "torch.multinomial") || !strcmp(d, "torch.argmax"))
		token_choice(f, d, nargs >= 1 && args[0]->k == VK_TENSOR ? args[0]->dev : DEV_UNKNOWN, site);
	{
		/* torch.empty(n, pin_memory=True): a host tensor in page-locked
		 * memory, which its views keep and a later .to(device,
		 * non_blocking=True) copies from without staging */
		value_t *t = v_tensor_dev(in->a, dev, dev == DEV_HOST && kw_bool(kw, "pin_memory") == 1);

		if (made_on_host)
			host_sure_factory(f, t, kw ? vdict_gets(kw, "device") : NULL);
		/* torch.tensor(loss_value), torch.tensor([count, total]),
		 * torch.IntTensor([t.numel()]): a host tensor of Python numbers,
		 * whose later copy is no batch's -- not torch.LongTensor(b, n),
		 * a typed constructor given ints: sizes of a buffer not filled */
		t->from_values = dev == DEV_HOST && nargs >= 1 && f->mode != M_FWD &&
		                 catalog_fact(in->cat, CATALOG_F_PYTHON_DATA_FACTORIES, last) &&
		                 (!catalog_fact(in->cat, CATALOG_F_TYPED_HOST_CONSTRUCTORS, last) ||
		                  (nargs == 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE))) &&
		                 (python_data(args[0], 0) || (args[0]->k == VK_UNKNOWN && args[0]->reason &&
		                                              strstr(args[0]->reason, TENSOR_READ_REASON)));
		/* ... and torch.ByteTensor(storage) of a storage over such data
		 * (pickled bytes: from_buffer of pickle.dumps' result) */
		if (!t->from_values && dev == DEV_HOST && nargs == 1 && f->mode != M_FWD && args[0]->k == VK_TENSOR &&
		    args[0]->from_values == 1 && catalog_fact(in->cat, CATALOG_F_TYPED_HOST_CONSTRUCTORS, last))
			t->from_values = 1;
		/* torch.hann_window(n), torch.arange(n): values computed from
		 * Python numbers (catalog value_factories), no batch's */
		if (!t->from_values && dev == DEV_HOST && f->mode != M_FWD &&
		    catalog_fact(in->cat, CATALOG_F_VALUE_FACTORIES, d) && all_python_data(args, nargs, kw))
			t->from_values = 1;
		/* torch.zeros(2, n, d): a constant fill, no batch until something
		 * is written into it (DETR's padded batch); tensor.c trusts it
		 * where it is moved in the expression that made it */
		if (!t->from_values && dev == DEV_HOST && nargs >= 1 && f->mode != M_FWD &&
		    (!strcmp(last, "zeros") || !strcmp(last, "ones") || !strcmp(last, "full")))
			t->from_values = FROM_FILL;
		return t;
	}
}

/* optimizer.state_dict(): {"state": per-parameter tensors, where the
 * parameters live (not known here), "param_groups": the groups'
 * hyperparameters and parameter indices, host data whatever their
 * number}.  torch.save of the param_groups copies nothing from a device;
 * of the state, it may. */
value_t *optim_state_dict(struct frame *f, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *d = v_dict(in->a), *groups = unknown_at(f, site, "an optimizer's param_groups (host data)");

	groups->dev = DEV_HOST;
	vdict_sets(in->a, d->u.dict, "state", unknown_at(f, site, "an optimizer's per-parameter state"));
	vdict_sets(in->a, d->u.dict, "param_groups", groups);
	return d;
}

/* optimizer.load_state_dict(sd) of an optimizer whose parameters are
 * known to be on the device (optim_note_params), sd what torch.load read
 * onto the host (map_location='cpu', LOADED_ON_HOST_REASON, or a part
 * of it): torch's Optimizer.load_state_dict casts each state tensor to
 * its parameter's device, a host-to-device copy.  Anything less certain
 * states nothing.  None, as torch returns. */
value_t *optim_load_state(struct frame *f, const value_t *self, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *sd = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "state_dict") : NULL;
	const value_t *pd = self && self->k == VK_INST ? vdict_gets(self->u.inst->attrs, "__ecg_params_dev__") : NULL;
	struct sched_ev *e;

	if (f->mode != M_FWD && pd && pd->k == VK_INT && pd->u.i == DEV_DEVICE && sd && sd->k == VK_UNKNOWN &&
	    !sd->alts && sd->reason && !strcmp(sd->reason, LOADED_ON_HOST_REASON) &&
	    (e = sev(f, SEV_H2D, "optimizer.load_state_dict of a state loaded on the host (cast to the parameters' device)",
	             site))) {
		e->pinned = 0;
		e->non_blocking = 0;
	}
	return v_none(in->a);
}

/* optimizer.step / optimizer.zero_grad / optimizer.state_dict /
 * optimizer.load_state_dict of a torch.optim instance: in job mode the
 * schedule event (and the first step's anchor as evidence); the value is
 * step (which calls a closure), a no-op (zero_grad; load_state_dict,
 * which returns None -- no tensor to format or read), or state_dict's
 * (optim_state_dict).  NULL for another name. */
value_t *optim_method(struct frame *f, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int step = !strcmp(name, "step");

	if (!strcmp(name, "state_dict"))
		return mk_builtin(in, BI_OPT_STATE_DICT, NULL);
	if (!strcmp(name, "load_state_dict"))
		return mk_builtin(in, BI_NOOP, NULL);
	if (!step && strcmp(name, "zero_grad"))
		return NULL;
	if (f->mode != M_FWD) {
		if (step && !in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, step ? SEV_OPT_STEP : SEV_ZERO_GRAD, step ? "optimizer.step()" : "optimizer.zero_grad()", site);
	}
	return mk_builtin(in, step ? BI_OPT_STEP : BI_NOOP, NULL);
}

/* optimizer.step() of an optimizer of class ext (its dotted name) whose
 * step communicates (torch_facts.json optimizer_step_collectives:
 * ZeroRedundancyOptimizer broadcasts the updated parameters from their
 * owners, unless overlap_with_ddp moves it into DDP's backward hook): in
 * job mode the collective event there, over the data-parallel
 * ranks it shards the state across, issued by the optimizer itself
 * (implied by its class).  Nothing for another class. */
void optim_step_collective(struct frame *f, const struct vinst *m, const struct ast_hdr *site)
{
	const char *ext = m ? m->ext : NULL;
	const char *op = ext ? catalog_fact_match(f->in->cat, CATALOG_F_OPTIMIZER_STEP_COLLECTIVES, ext) : NULL;
	const value_t *ov = op ? vdict_gets(m->attrs, "overlap_with_ddp") : NULL;
	const char *last;
	struct sched_ev *e;

	/* overlap_with_ddp on (or not known): the broadcast is DDP's hook's,
	 * in backward -- none here */
	if (!op || f->mode == M_FWD || (ov && value_truth(ov) != 0) || !(e = sev(f, SEV_COLLECTIVE, "optimizer.step()", site)))
		return;
	last = strrchr(ext, '.');
	e->op = op;
	e->parallelism = "data";
	e->async_op = -1;
	e->implied_by = last ? last + 1 : ext;
}

/* x.full_tensor() on a value not known, in job code (call()'s last
 * resort): the name is DTensor's alone, so x is a DTensor.  When the
 * job's DTensors all come from fully_shard (a Shard(0) parameter or its
 * optimizer state, over one mesh of known parallelism) and nothing made
 * DTensors of another placement, it is that placement's collective
 * (torch_facts.json dtensor_collective_methods: all_gather), made
 * synchronously, and its value the full tensor on the device.  NULL
 * otherwise (the caller goes on: a value not known). */
value_t *dtensor_method_call(struct frame *f, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct ast_hdr *fe;
	const char *op;
	struct sched_ev *e;

	if (f->mode == M_FWD || !site || !AST_IS(site, Call) || !in->dtensor_par || in->dtensor_mixed)
		return NULL;
	fe = AST_AS(site, Call)->func;
	if (!AST_IS(fe, Attribute) ||
	    !(op = catalog_fact(in->cat, CATALOG_F_DTENSOR_COLLECTIVE_METHODS, AST_AS(fe, Attribute)->attr)))
		return NULL;
	if ((e = sev(f, SEV_COLLECTIVE, text_of(f, fe), site))) {
		e->op = op;
		e->parallelism = in->dtensor_par;
		e->async_op = 0;
	}
	return v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
}

/* distribute_tensor(t, mesh, placements) or DTensor.from_local(t, mesh,
 * placements) given the placements of a DTensor that exists
 * (`p.placements`, a checkpoint loaded in the sharding of the model's own
 * parameters): a DTensor of a layout already there, no new one. */
static int placements_copied(value_t **args, size_t nargs, struct vdict *kw)
{
	const value_t *p = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "placements") : NULL;
	size_t n = p && p->expr ? strlen(p->expr) : 0;

	return n > 11 && !strcmp(p->expr + n - 11, ".placements");
}

/* fully_shard(module, mesh=...): the parallelism its DTensors are sharded
 * over (the default mesh is the world's: data), for dtensor_method_call. */
static void dtensor_note_shard(struct interp *in, struct vdict *kw)
{
	const value_t *mesh = kw ? vdict_gets(kw, "mesh") : NULL;
	const char *p = !mesh || mesh->k == VK_NONE ? "data" : mesh_parallelism(in, mesh);

	if (!p || !strcmp(p, SCHED_PARALLELISM_UNKNOWN) || (in->dtensor_par && strcmp(in->dtensor_par, p)))
		in->dtensor_mixed = 1;
	else
		in->dtensor_par = p;
}

/* Is there an undecided condition among the contexts c runs in? */
static int jc_undecided(const struct jctx *c)
{
	for (; c; c = c->up)
		if (c->kind == JC_COND)
			return 1;
	return 0;
}

/* The collective a method of a parallel wrapper issues (catalog
 * wrapper_methods), by the last two parts of its dotted name d
 * ("...FullyShardedDataParallel.clip_grad_norm_"): the op, and in *word
 * what implies the event (catalog parallel_wrappers).  NULL when d names
 * none (then *word is untouched). */
const char *wrapper_method_op(struct interp *in, const char *d, const char **word)
{
	const char *last = strrchr(d, '.'), *cls = last, *op;

	if (!last || last == d)
		return NULL;
	while (cls > d && cls[-1] != '.')
		cls--;
	if (!(op = catalog_fact(in->cat, CATALOG_F_WRAPPER_METHODS, cls)))
		return NULL;
	if (word)
		*word = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS,
		                           afmt(in, "%.*s", (int)(last - cls), cls));
	return op;
}

const char *sd_type_method(struct interp *in, const char *d)
{
	const char *last = strrchr(d, '.'), *cls = last;

	if (!last || last == d)
		return NULL;
	while (cls > d && cls[-1] != '.')
		cls--;
	return catalog_fact(in->cat, CATALOG_F_FSDP_STATE_DICT, cls);
}

/* What an FSDP wrap's sharding does between forward and backward, from its
 * keywords and the catalogue (fsdp_sharding): "regather", "keep",
 * "unsharded", or NULL when the keyword's value is not known.  FSDP's
 * sharding_strategy= names a ShardingStrategy member (FULL_SHARD when
 * absent); fully_shard's reshard_after_forward= is a bool (True when
 * absent; an int, a smaller group to reshard to, still regathers). */
const char *wrap_sharding(const struct catalog *cat, const struct sched_ev *w)
{
	const value_t *v;

	if (!strcmp(w->implied_by, "fully_shard")) {
		v = w->detail ? vdict_gets(w->detail, "reshard_after_forward") : NULL;
		if (!v || (v->k == VK_BOOL && v->u.b) || v->k == VK_INT)
			return catalog_fact(cat, CATALOG_F_FSDP_SHARDING, "reshard_after_forward=True");
		if (v->k == VK_BOOL)
			return catalog_fact(cat, CATALOG_F_FSDP_SHARDING, "reshard_after_forward=False");
		return NULL;
	}
	v = w->detail ? vdict_gets(w->detail, "sharding_strategy") : NULL;
	if (!v || v->k == VK_NONE)
		return catalog_fact(cat, CATALOG_F_FSDP_SHARDING, "FULL_SHARD");
	if (v->k == VK_EXT) {
		const char *last = strrchr(v->u.ext, '.');

		return catalog_fact(cat, CATALOG_F_FSDP_SHARDING, last ? last + 1 : v->u.ext);
	}
	if (v->k == VK_STR && v->u.str.len < 64) {
		/* a strategy's name as a string (Lightning's FSDPStrategy reads
		 * ShardingStrategy[name.upper()]) */
		char up[64];
		size_t i;

		for (i = 0; v->u.str.s[i]; i++)
			up[i] = (char)toupper((unsigned char)v->u.str.s[i]);
		up[i] = 0;
		return catalog_fact(cat, CATALOG_F_FSDP_SHARDING, up);
	}
	return NULL;
}

/* Whether the last wrap of m seen (its SEV_WRAP event) shards it
 * (wrap_sharding): 1 sharded, 0 NO_SHARD, -1 not known (no wrap event
 * seen, or a strategy whose value is not known). */
int wrap_sharded(struct interp *in, const struct vinst *m)
{
	const struct sched_ev *w = NULL;
	const char *how;
	size_t i;

	for (i = in->nsev; m && i-- > 0;)
		if (in->sev[i].kind == SEV_WRAP && in->sev[i].model == m) {
			w = &in->sev[i];
			break;
		}
	if (!w)
		return -1;
	how = wrap_sharding(in->cat, w);
	return !how ? -1 : strcmp(how, "unsharded") != 0;
}

/* A call of a parallel wrapper's communicating method (wrapper_method_op)
 * on the wrapped module self (the instance, or the first argument of a call
 * on the class; may be NULL): in job mode a collective event, implied by
 * the wrapper, anchored at the call -- none when the wrap is known not to
 * shard (FSDP's clip_grad_norm_ under NO_SHARD is torch's plain one), a
 * condition in detail_text when that is not known; its value the result
 * (the total norm, a tensor where the gradients are).  NULL when d is no
 * such method. */
value_t *wrapper_method_call(struct frame *f, const char *d, const value_t *self, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *word = NULL, *op = wrapper_method_op(in, d, &word);
	struct sched_ev *e;
	int sharded;

	if (!op)
		return NULL;
	sharded = wrap_sharded(in, self && self->k == VK_INST ? self->u.inst : NULL);
	if (f->mode != M_FWD && sharded != 0 &&
	    (e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site))) {
		e->op = op;
		e->async_op = -1;                 /* issued and waited inside the method */
		e->parallelism = "data";
		e->implied_by = word;
		if (sharded < 0)
			e->detail_text = "the wrap shards the module (not NO_SHARD): its sharding strategy is not known";
	}
	return v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
}

/* The keywords a wrap is kept with (vinst.wrap_kw): kw, plus the device
 * list given by position under its keyword (catalog
 * wrapper_input_scatters' 'KEY@POS': DataParallel(model, [0, 1]) is
 * device_ids=[0, 1]).  kw itself, or a copy in the arena; never fails. */
static const struct vdict *wrap_kw_positional(struct interp *in, const char *d, value_t **args, size_t nargs,
                                              struct vdict *kw)
{
	const char *spec = catalog_fact(in->cat, CATALOG_F_WRAPPER_INPUT_SCATTERS, d), *key;
	value_t *ids;
	struct vdict *c;
	size_t i;

	if (!spec || !(ids = wrapper_device_list(spec, args, nargs, kw)))
		return kw;
	key = wrapper_device_key(in, spec);
	if (kw && vdict_gets(kw, key))
		return kw;      /* given by keyword */
	c = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, c, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, c, key, ids);
	return c;
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

	args = wrap_module_by_keyword(in, d, args, &nargs, &kw);   /* DDP(module=m): wrapkw.c */
	if (catalog_fact_match(in->cat, CATALOG_F_DTENSOR_SOURCES, d) && !placements_copied(args, nargs, kw))
		in->dtensor_mixed = 1;
	if (strstr(d, "GradScaler.") && !strcmp(last, "scale") && nargs == 1)
		return args[0];
	{
		value_t *r = reparam_call(f, d, args, nargs, kw);   /* weight_norm(conv): reparam.c */

		if (r)
			return r;
	}
	/* accelerator.unwrap_model(model) (catalog unwrappers): the model
	 * itself, not through the wrapper prepare put around it */
	if (catalog_fact(in->cat, CATALOG_F_UNWRAPPERS, d) && nargs >= 1 && args[0]->k == VK_INST &&
	    args[0]->u.inst->mod != VM_NONE) {
		value_t *u = v_copy(in->a, args[0]);

		u->via_wrapper = 0;
		return u;
	}
	/* a library's module ecg does not read (libvalues.c) is handed back
	 * as it is: prepare wrapped nothing around it here */
	if (catalog_fact(in->cat, CATALOG_F_UNWRAPPERS, d) && nargs >= 1 && libv_is_module(args[0]))
		return args[0];
	if (wrapper_method_op(in, d, NULL))
		return wrapper_method_call(f, d, nargs >= 1 ? args[0] : NULL, site);   /* FSDP.clip_grad_norm_(model, ...) */
	{
		/* FSDP.set_state_dict_type(model, ...): another state-dict type
		 * for good (the context manager state_dict_type: exec.c) */
		const char *sdt = sd_type_method(in, d);

		if (sdt && !strcmp(sdt, "set")) {
			in->sd_type_set = 1;
			return unknown_at(f, site, "the state-dict settings before the call");
		}
		/* FSDP.optim_state_dict(model, optim) (sdfull.c) */
		if (sdt && !strcmp(sdt, "optim"))
			return sdfull_optim_call(f, d, args, nargs, kw, site);
	}
	if (!strcmp(d, "torch.compile"))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	/* safetensors' save_file: torch.save's copy to the host */
	if (catalog_fact(in->cat, CATALOG_F_TENSOR_SAVERS, d))
		return tc_save(f, d, last, args, nargs, kw, site);
	if (catalog_fact(in->cat, CATALOG_F_IMAGE_SAVERS, d))
		return tc_save_image(f, d, args, nargs, site);
	/* DDP of a model ecg did not build (a library's factory): the wrap
	 * all the same -- its start-up broadcast, its gradient all-reduce at
	 * the backward calls after it -- when the code surely runs it (under
	 * no condition left undecided: whether a library wraps a model it
	 * was handed is its run-time state); the value stays what it was */
	if (is_wrapper(in->cat, d) && nargs >= 1 && args[0]->k == VK_UNKNOWN && !args[0]->alts && f->mode != M_FWD &&
	    !jc_undecided(f->jc)) {
		const char *implied = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, d);
		struct sched_ev *e;

		if (implied && !strcmp(implied, "DistributedDataParallel") && (e = sev(f, SEV_WRAP, d, site))) {
			e->target = wrap_target_text(f, d, site);
			e->detail = kw;
			e->implied_by = implied;
		}
	}
	/* FSDP(model, device_id=...) / DDP(model) of a module a library built
	 * (libvalues.c: its value is not read): the wrapper runs that module,
	 * which stays the library's module -- on the device once FSDP's
	 * device_id placed it there (FSDP moves a module on the host to
	 * device_id; that copy is not stated) */
	if (is_wrapper(in->cat, d) && nargs >= 1 && libv_is_module(args[0]) && f->mode != M_FWD &&
	    !catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d)) {
		const char *word = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, d);
		const value_t *dev_id = kw ? vdict_gets(kw, "device_id") : NULL;
		value_t *m = args[0];

		if (word && !strcmp(word, "FullyShardedDataParallel") && dev_id && dev_id->k != VK_NONE) {
			m = v_copy(in->a, m);
			m->reason = LIB_MODULE_DEVICE_REASON;
		}
		return m;
	}
	/* accelerator.prepare(loader), prepare(optimizer, model, loader):
	 * a library's prepare wraps the modules it is handed, whatever their
	 * place, and hands back the rest as they are (its DataLoaders then
	 * send each batch to the device, loader_batch); with no module among
	 * them nothing is wrapped */
	if (is_wrapper(in->cat, d) && nargs >= 1 && catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d) &&
	    !(args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE)) {
		size_t i, wi = nargs;
		value_t *t, *w = NULL;

		for (i = 0; i < nargs && wi == nargs; i++)
			if (args[i]->k == VK_INST && args[i]->u.inst->mod != VM_NONE)
				wi = i;
		if (wi < nargs) {
			size_t n0 = in->nsev;

			if ((w = torch_ext_call(f, d, last, args + wi, 1, kw, site, any_tensor)) == NULL)
				w = args[wi];
			/* the wrap's target: the module's argument, not the first */
			if (in->nsev > n0 && in->sev[in->nsev - 1].kind == SEV_WRAP && AST_IS(site, Call) &&
			    wi < AST_AS(site, Call)->args.n)
				in->sev[in->nsev - 1].target = text_of(f, AST_AS(site, Call)->args.items[wi]);
		}
		for (i = 0; i < nargs; i++)
			if (is_loader(args[i]) && f->mode != M_FWD)
				vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_to_device__", v_bool(in->a, 1));
		if (nargs == 1)
			return args[0];
		t = v_seq(in->a, VK_TUPLE, nargs);
		for (i = 0; i < nargs; i++)
			vseq_push(in->a, t->u.seq, i == wi ? w : args[i]);
		return t;
	}
	syncbn_convert(f, d, args, nargs, kw);     /* convert_sync_batchnorm (syncbn.c) */
	if (f->mode != M_FWD && catalog_fact(in->cat, CATALOG_F_TP_PARALLELIZE_CALLS, d))
		tp_plan_apply(f, args, nargs, kw);     /* the plan's hooks (tplan.c) */
	if (is_wrapper(in->cat, d) && nargs >= 1 && args[0]->k == VK_INST) {
		value_t *w = v_copy(in->a, args[0]);
		struct vinst *m = args[0]->u.inst;
		const char **nw = ast_arena_alloc(in->a, (m->nwrapped + 1) * sizeof *nw);
		const char *implied;

		if (!strcmp(d, "torch.compile.__wrap__"))
			d = "torch.compile";
		implied = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, d);
		/* DataParallel: calling the value copies its host inputs */
		if (catalog_fact(in->cat, CATALOG_F_WRAPPER_INPUT_SCATTERS, d))
			w->via_scatter = 1;
		/* FSDP(model, device_id=d): the module moved to d as it is
		 * wrapped (catalog wrapper_device_keywords), unless a
		 * param_init_fn materialises it there */
		{
			const char *dk = catalog_fact(in->cat, CATALOG_F_WRAPPER_DEVICE_KEYWORDS, d);
			const value_t *pif = kw ? vdict_gets(kw, "param_init_fn") : NULL;

			if (dk && kw && f->mode != M_FWD && (!pif || pif->k == VK_NONE))
				module_moved_by_wrapper(f, args[0], d, vdict_gets(kw, dk), site);
		}
		/* DataParallel over its one device: the module moved there */
		onedev_wrap(f, d, args, nargs, kw, site);
		/* accelerate's prepare: DDP only with more than one process */
		if (!implied && catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d) &&
		    multi_process_count(in) > 1 && f->mode != M_FWD)
			implied = catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d);
		if (implied) {
			struct sched_ev *e = sev(f, SEV_WRAP, d, site);

			w->via_wrapper = 1;

			if (e) {
				e->model = m;
				e->target = wrap_target_text(f, d, site);
				e->detail = kw;     /* broadcast_buffers=, find_unused_parameters= ... */
				e->implied_by = implied;
			}
			if (!strcmp(implied, "fully_shard"))
				dtensor_note_shard(in, kw);
			parallel_note_wrap(f, implied, kw, site);
		}

		const struct vdict **nk = ast_arena_alloc(in->a, (m->nwrapped + 1) * sizeof *nk);

		if (m->nwrapped) {
			memcpy(nw, m->wrapped_by, m->nwrapped * sizeof *nw);
			if (m->wrap_kw)
				memcpy(nk, m->wrap_kw, m->nwrapped * sizeof *nk);
			else
				memset(nk, 0, m->nwrapped * sizeof *nk);
		}
		nw[m->nwrapped] = d;
		nk[m->nwrapped] = wrap_kw_positional(in, d, args, nargs, kw);
		m->wrapped_by = nw;
		m->wrap_kw = nk;
		m->nwrapped++;
		/* accelerator.prepare(model, optimizer, loader, ...): everything
		 * handed back, in order; its DataLoaders send each batch to
		 * the device (loader_batch) */
		if (nargs > 1 && catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d)) {
			value_t *t = v_seq(in->a, VK_TUPLE, nargs);
			size_t i;

			vseq_push(in->a, t->u.seq, w);
			for (i = 1; i < nargs; i++) {
				if (is_loader(args[i]) && f->mode != M_FWD)
					vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_to_device__", v_bool(in->a, 1));
				vseq_push(in->a, t->u.seq, args[i]);
			}
			return t;
		}
		return w;
	}
	return NULL;
}

struct vinst *ext_module_inst(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = new_inst(in);
	size_t k;

	m->ext = d;
	m->mod = VM_EXTERNAL;
	module_note_built_device(f, m, kw);   /* RotaryEmbedding(..., device='cuda') */
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = text_of(f, site);
	m->cond = f->cond.text;
	m->built_ctx = f->jc;
	m->args = vdict_new(in->a);
	for (k = 0; k < nargs; k++)
		vdict_sets(in->a, m->args, afmt(in, "arg%zu", k), args[k]);
	for (k = 0; kw && k < kw->n; k++)
		if (kw->keys[k]->k == VK_STR)
			vdict_set(in->a, m->args, kw->keys[k], kw->vals[k]);
	return m;
}

/* A module of a third-party library (an external module instance with its
 * constructor arguments) or, in job mode, a third-party model class
 * (torchvision.models.resnet50(), transformers.*; not a private or a
 * helper module's function).  NULL when d is neither. */
value_t *ext_module_new(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	/* a module class of a third-party library: an external module */
	if (ext_is_module_class(in->cat, d))
		return mk_inst_value(in, ext_module_inst(f, d, args, nargs, kw, site));
	/* a third-party model class, e.g. torchvision.models.resnet50() */
	if (f->mode != M_FWD && (strstr(d, ".models.") || !strncmp(d, "transformers.", 13)) &&
	    last[0] != '_' &&     /* a private helper (vision_transformer._cfg) */
	    (last[0] >= 'a' && last[0] <= 'z'
	         ? strstr(d, ".models.") && !catalog_fact_match(in->cat, CATALOG_F_MODEL_HELPER_MODULES, d)
	         : 1) &&
	    strcmp(last, "create_model") && strcmp(last, "from_pretrained") &&
	    !catalog_fact(in->cat, CATALOG_F_LOSS_SCALERS, d) &&
	    !catalog_fact_match(in->cat, CATALOG_F_NOT_MODULE_SUFFIXES, last)) {
		struct vinst *m = new_inst(in);
		const char *cls = NULL;

		m->ext = d;
		/* a factory of torchvision.models (resnet18): the class it
		 * builds when its name says it, the factory kept in any case */
		if (!strncmp(d, "torchvision.models.", 19) && !strchr(d + 19, '.') && last[0] >= 'a' && last[0] <= 'z') {
			vdict_sets(in->a, m->attrs, "__ecg_factory__", v_str(in->a, d));
			/* and the keywords it was given (syncbn.c: norm_layer) */
			if (kw && kw->n) {
				value_t *kv = v_dict(in->a);
				size_t k;

				for (k = 0; k < kw->n; k++)
					vdict_set(in->a, kv->u.dict, kw->keys[k], kw->vals[k]);
				vdict_sets(in->a, m->attrs, "__ecg_factory_kw__", kv);
			}
			if ((cls = catalog_fact_match(in->cat, CATALOG_F_TORCHVISION_FACTORIES, last)))
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
