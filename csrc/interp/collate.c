/* interp/collate.c - a DataLoader's batch from the sample its dataset
 * gives, by torch's default collate
 *
 * torch's DataLoader without a collate_fn of the job's own batches
 * samples with torch.utils.data.default_collate, which keeps the
 * sample's structure and turns each leaf into a tensor:
 *
 *   - a tensor, a numpy array, a Python int, float or bool: a tensor of
 *     the batch (its rows the samples': [B, *S]);
 *   - a dict (a Mapping): a dict of the same keys, each value collated;
 *   - a tuple or list: a list (torch makes a tuple's a list, "backwards
 *     compatibility"), its items collated position by position;
 *   - a str: a list of the batch's strs -- also a str not known whose
 *     facts say it is one (facts.c str_prefix: 'a picture of ' + caption).
 *
 * A leaf stacked from a tensor on the host for sure (hostsure.c:
 * torch.LongTensor(list) in __getitem__) is one on the host for sure
 * when the batch stays on the host (pinned or not).
 *
 * collate_default() builds that from the sample read from the code.
 * What the sample holds that ecg does not know (an array read from a
 * file, a transform's result, a repository object) is a loose host
 * tensor, as the whole batch was before: it may be a list or a dict
 * of tensors.  So what is gained is the structure the code states: a
 * dataset returning `arr, out_dict` with `out_dict = {}` gives a batch
 * whose second part is an empty dict, over whose items nothing is
 * copied.  A sample that the default collate refuses (None), a dict
 * whose keys are not all known, or a structure deeper than 8 gives
 * NULL: the caller keeps the loose tensor for the whole batch.
 *
 * sample_side_iter() reads one sample of an iterable-style dataset (a
 * repository IterableDataset whose __iter__ is a generator) on the side
 * in the same way: the first item its generator yields, which the
 * loader's workers batch (or, given batch_size=None, hand over as it is).
 *
 * sample_side_read() reads one sample when the loader's workers are
 * other processes (num_workers > 0, or not known): the dataset's
 * __getitem__ runs there, so what it does is none of the job's
 * events.  It is read on the side: its events, notes and hooks are
 * dropped and its attribute writes undone (a journal discarded), and
 * only what it returns is kept.  side_call() reads a call of any
 * callable so (a dataset's transform on a sample, in a worker).
 *
 * Values live in the interpreter's arena.  Nothing here fails: where a
 * batch or sample cannot be read, NULL.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define COLLATE_DEPTH 8

/* A tensor of the batch standing for leaf x of the sample: host (pinned
 * as the loader pins) or on the device, of x's elements' kind.  Its shape
 * is not stated: the graph reads the model's inputs with the shapes'
 * symbols (b, t), as it did for a loose batch. */
static value_t *collate_leaf(struct interp *in, const value_t *x, int dev, int pinned)
{
	value_t *t = v_tensor_dev(in->a, dev, dev == DEV_HOST ? pinned : 0);

	switch (x->k) {
	case VK_TENSOR:
		t->dt = x->dt;
		/* stacked from host tensors for sure, left on the host:
		 * on the host for sure (hostsure.c) */
		t->host_sure = dev == DEV_HOST && x->dev == DEV_HOST && x->host_sure;
		break;
	case VK_INT:
		t->dt = DT_INT;
		break;
	case VK_BOOL:
		t->dt = DT_BOOL;
		break;
	case VK_FLOAT:
		t->dt = DT_FLOAT;
		break;
	default:
		/* not known what it is: it may be a list or dict of
		 * tensors once collated */
		if (!(x->k == VK_UNKNOWN && x->arr_shape))
			t->loose = 1;
		break;
	}
	/* samples of no element (labels of width 0) stack to a batch of
	 * none: [B, 0] */
	t->no_elems = tensor_empty(x);
	return t;
}

static value_t *collate(struct interp *in, const value_t *x, int dev, int pinned, int depth)
{
	value_t *r;
	size_t i;

	if (depth > COLLATE_DEPTH)
		return NULL;
	/* a str not known (its facts say it is one: prompt + caption) */
	if (x->k == VK_UNKNOWN && x->str_prefix && !x->alts)
		goto str;
	switch (x->k) {
	case VK_NONE:
		return NULL;            /* default_collate raises on None */
	case VK_STR: str: {
		value_t *s = v_seq(in->a, VK_LIST, 1);

		vseq_push(in->a, s->u.seq, v_unknown(in->a, NULL, "a str of the batch's samples"));
		s->u.seq->unk_reason = "the batch's strs, one per sample";
		s->u.seq->unk_expr = "batch";
		return s;
	}
	case VK_DICT: {
		const struct vdict *d = x->u.dict;

		if (d->anykey || d->missing)
			return NULL;
		r = v_dict(in->a);
		for (i = 0; i < d->n; i++) {
			value_t *c;

			if (d->keys[i]->k != VK_STR || !(c = collate(in, d->vals[i], dev, pinned, depth + 1)))
				return NULL;
			vdict_sets(in->a, r->u.dict, d->keys[i]->u.str.s, c);
		}
		return r;
	}
	case VK_TUPLE:
	case VK_LIST:
		if (x->u.seq->unk_reason || x->u.seq->ntclass)
			break;          /* a length not known, a named tuple: a leaf */
		r = v_seq(in->a, VK_LIST, x->u.seq->n);
		for (i = 0; i < x->u.seq->n; i++) {
			value_t *c = collate(in, x->u.seq->items[i], dev, pinned, depth + 1);

			if (!c)
				return NULL;
			vseq_push(in->a, r->u.seq, c);
		}
		return r;
	default:
		break;
	}
	return collate_leaf(in, x, dev, pinned);
}

value_t *collate_default(struct interp *in, const value_t *sample, int dev, int pinned)
{
	value_t *r;

	/* a tuple's parts come as a list (torch: "backwards compatibility") */
	if (!sample || (sample->k != VK_DICT && sample->k != VK_TUPLE && sample->k != VK_LIST))
		return NULL;            /* nothing gained over a loose tensor */
	r = collate(in, sample, dev, pinned, 0);
	return r;
}

/* What a side read changes that is not kept: the events, notes, hooks
 * and model calls it adds, and the interpreter's device state. */
struct side_state {
	struct attr_journal j;
	size_t nsev, nnotes, nhooks, nmc;
	long job_events;
	int gpu, default_dev, default_on_device;
};

static void side_open(struct interp *in, struct side_state *s)
{
	s->nsev = in->nsev;
	s->nnotes = in->nnotes;
	s->nhooks = in->nhooks;
	s->nmc = in->nmodel_calls;
	s->job_events = in->job_events;
	s->gpu = in->gpu;
	s->default_dev = in->default_dev;
	s->default_on_device = in->default_on_device;
	/* attribute writes undone; the items written into dicts kept (the
	 * dict the sample returns is filled so: `out_dict["y"] = ...`) */
	journal_open(in, &s->j);
}

static void side_close(struct interp *in, struct side_state *s)
{
	struct vdict *nokeep = NULL;

	journal_discard(in, &s->j, &nokeep, 0);
	in->nsev = s->nsev;
	in->nnotes = s->nnotes;
	in->nhooks = s->nhooks;
	in->nmodel_calls = s->nmc;
	in->job_events = s->job_events;
	in->gpu = s->gpu;
	in->default_dev = s->default_dev;
	in->default_on_device = s->default_on_device;
}

value_t *sample_side_read(struct frame *f, value_t *ds, struct vfunc *gi, const struct ast_hdr *site)
{
	struct side_state s;
	value_t *idx, *r;

	idx = v_unknown(f->in->a, "index", "a sample's index, the sampler's");
	idx->nonneg = FACT_NONNEG_INT;
	side_open(f->in, &s);
	r = call_function(f, gi, ds, &idx, 1, NULL, f->mode, f->ev, site);
	side_close(f->in, &s);
	return r;
}

value_t *sample_side_iter(struct frame *f, value_t *ds, struct vfunc *it, const struct ast_hdr *site)
{
	struct side_state s;
	value_t *g, *r = NULL;

	side_open(f->in, &s);
	g = call_function(f, it, ds, NULL, 0, NULL, f->mode, f->ev, site);
	if (is_gen_value(g))
		r = gen_next(f, g->u.inst, site);
	side_close(f->in, &s);
	/* a yield under an undecided `if` (a batch yielded once full, the
	 * rest after the loop): the two items, dicts of the same keys, as
	 * one (dictjoin.c) */
	if (r && r->k == VK_UNKNOWN && r->alts && dict_plain(r->alts[0]) && dict_plain(r->alts[1]))
		r = dict_pair_join(f->in, r->alts[0], r->alts[1], r->alt_cond);
	return r;
}

/* Is every leaf of v (a dict's values, a tuple's or list's items, to
 * depth 8) a tensor? */
int tensor_leaves(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > COLLATE_DEPTH)
		return 0;
	if (v->k == VK_TENSOR)
		return 1;
	if (v->k == VK_DICT) {
		if (!v->u.dict->n || v->u.dict->anykey || v->u.dict->missing)
			return 0;
		for (i = 0; i < v->u.dict->n; i++)
			if (v->u.dict->keys[i]->k != VK_STR || !tensor_leaves(v->u.dict->vals[i], depth + 1))
				return 0;
		return 1;
	}
	if ((v->k == VK_TUPLE || v->k == VK_LIST) && v->u.seq->n && !v->u.seq->unk_reason) {
		for (i = 0; i < v->u.seq->n; i++)
			if (!tensor_leaves(v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	}
	return 0;
}

value_t *side_call(struct frame *f, value_t *fn, value_t *arg, const struct ast_hdr *site)
{
	struct side_state s;
	value_t *r;

	side_open(f->in, &s);
	r = call(f, fn, &arg, 1, NULL, site);
	side_close(f->in, &s);
	return r;
}
