/* interp/loadersampler.c - the samplers torch's DataLoader builds itself
 *
 * DataLoader(dataset, batch_size=1, shuffle=None, sampler=None,
 * batch_sampler=None, num_workers=0, collate_fn=None, pin_memory=False,
 * drop_last=False, timeout=0, worker_init_fn=None,
 * multiprocessing_context=None, generator=None, ...) (torch/utils/data/
 * dataloader.py, DataLoader.__init__):
 *
 *   - it refuses an IterableDataset given with shuffle, a sampler or a
 *     batch_sampler (ValueError), so a loader built with one of them holds
 *     a map-style dataset: its .dataset, when the dataset is a value not
 *     known (a library's, datasets.load_dataset's), is kept marked
 *     (value.map_dataset) and isinstance() of it against torch's
 *     IterableDataset is False (builtins.c);
 *   - with no sampler, a map-style dataset gets RandomSampler(dataset,
 *     generator=generator) when shuffle is true, SequentialSampler(dataset)
 *     otherwise (an IterableDataset gets _InfiniteConstantSampler: when
 *     the dataset's kind is not known and shuffle is off, no sampler is
 *     stated);
 *   - with no batch_sampler and a batch_size not None, BatchSampler(
 *     sampler, batch_size, drop_last); batch_size None: batch_sampler None.
 *
 * These become the loader's .sampler and .batch_sampler: objects of those
 * torch classes holding the attributes their constructors set (so that
 * hasattr() of them answers), which a library re-sharding a loader reads
 * (accelerate's prepare_data_loader: isinstance(dl.sampler, BatchSampler),
 * dl.batch_sampler.sampler, hasattr(sampler, "generator")).  A sampler or
 * batch_sampler the job gives is left as it was (not set here).
 *
 * Nothing fails; values live in the interpreter's arena.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* DataLoader's argument NAME, by keyword or at position POS (its place in
 * the signature above); NULL when not given */
static value_t *dl_arg(value_t **args, size_t nargs, struct vdict *kw, const char *name, size_t pos)
{
	value_t *v = kw ? vdict_gets(kw, name) : NULL;

	return v ? v : pos < nargs ? args[pos] : NULL;
}

/* given and not None */
static int given(const value_t *v)
{
	return v && v->k != VK_NONE;
}

/* an object of the torch class CLS (a dotted name) with no attributes yet */
static value_t *torch_obj(struct interp *in, const char *cls)
{
	struct vinst *o = new_inst(in);

	o->ext = canon_ext(in, cls);
	return mk_inst_value(in, o);
}

/* Is DS a map-style dataset for sure (a list or tuple, or an object that
 * is no IterableDataset)?  1 or 0 (not known). */
static int map_style_dataset(struct interp *in, const value_t *ds)
{
	if (ds->k == VK_LIST || ds->k == VK_TUPLE || (ds->k == VK_UNKNOWN && ds->map_dataset))
		return 1;
	return ds->k == VK_INST && isinstance_dotted(in, ds, "torch.utils.data.IterableDataset") == 0;
}

void loader_samplers(struct frame *f, struct vinst *o, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	value_t *ds = dl_arg(args, nargs, kw, "dataset", 0);
	value_t *bs = dl_arg(args, nargs, kw, "batch_size", 1);
	value_t *sh = dl_arg(args, nargs, kw, "shuffle", 2);
	value_t *sp = dl_arg(args, nargs, kw, "sampler", 3);
	value_t *bsp = dl_arg(args, nargs, kw, "batch_sampler", 4);
	value_t *dl = dl_arg(args, nargs, kw, "drop_last", 8);
	value_t *gen = dl_arg(args, nargs, kw, "generator", 12);
	value_t *sampler = NULL, *s, *b;
	int shuffle = sh && sh->k != VK_NONE ? value_truth(sh) : 0;
	int map_style;

	if (!ds || (kw && vdict_gets(kw, KW_UNK_DSTAR)))
		return;                 /* **kwargs not known: any of these may be in it */
	map_style = shuffle == 1 || given(sp) || given(bsp) || map_style_dataset(in, ds);
	if (map_style && ds->k == VK_UNKNOWN && !ds->map_dataset) {
		ds = v_copy(in->a, ds);
		ds->map_dataset = 1;
		vdict_sets(in->a, o->attrs, "dataset", ds);
	}
	if (given(sp)) {
		sampler = sp;
	} else if (map_style && shuffle >= 0) {
		{
			s = torch_obj(in, shuffle ? "torch.utils.data.RandomSampler" : "torch.utils.data.SequentialSampler");
			vdict_sets(in->a, s->u.inst->attrs, "data_source", ds);
			if (shuffle) {
				vdict_sets(in->a, s->u.inst->attrs, "replacement", v_bool(in->a, 0));
				vdict_sets(in->a, s->u.inst->attrs, "_num_samples", v_none(in->a));
				vdict_sets(in->a, s->u.inst->attrs, "generator", gen ? gen : v_none(in->a));
			}
			vdict_sets(in->a, o->attrs, "sampler", s);
			sampler = s;
		}
	}
	if (given(bsp))
		return;
	if (bs && bs->k == VK_NONE) {
		vdict_sets(in->a, o->attrs, "batch_sampler", v_none(in->a));
		return;
	}
	if (bs && bs->k != VK_INT && bs->k != VK_UNKNOWN)
		return;
	if (bs && bs->k == VK_UNKNOWN && bs->may_none)
		return;                 /* None on one path: no batch sampler there */
	b = torch_obj(in, "torch.utils.data.BatchSampler");
	vdict_sets(in->a, b->u.inst->attrs, "sampler",
	           sampler ? sampler : v_unknown(in->a, "sampler", "the sampler DataLoader made for a dataset of a kind not known"));
	vdict_sets(in->a, b->u.inst->attrs, "batch_size", bs ? bs : v_int(in->a, 1));
	vdict_sets(in->a, b->u.inst->attrs, "drop_last", dl ? dl : v_bool(in->a, 0));
	vdict_sets(in->a, o->attrs, "batch_sampler", b);
}
