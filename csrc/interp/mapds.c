/* mapds.c - a library's map-style dataset, whose value is not known.
 *
 * torch's DataLoader and the libraries that re-shard it branch on whether
 * a dataset is a torch IterableDataset (accelerate's prepare_data_loader:
 * `dispatch_batches = isinstance(new_dataset, IterableDataset)`).  What
 * Hugging Face's datasets.load_dataset(...) returns is a DatasetDict of
 * map-style Datasets -- unless it is given streaming=True, when it is an
 * IterableDatasetDict whose splits are torch IterableDatasets.  The value
 * stays not known (it is outside the repository); it is marked
 * (value.map_dataset), and isinstance() of it against torch's
 * IterableDataset is False (builtins.c), as loadersampler.c marks a
 * dataset a loader with shuffle=True proved map-style.  The mark goes on
 * through:
 *
 *   - catalog map_dataset_calls: the calls that make one ->  the keyword
 *     that, true or not known, makes it iterable ("streaming"), or "";
 *   - a subscript of one (a split, a row: a row is no IterableDataset
 *     either);
 *   - catalog map_dataset_methods: its methods that return a map-style
 *     dataset again (.map, .filter, .select, .remove_columns ...), not
 *     .to_iterable_dataset(): the bound method is marked (attr.c), and
 *     so is what a call of it returns (eval.c).
 *
 * Values live in the interpreter's arena; nothing here fails.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

/* r, a value not known, marked (a copy: r may be shared) */
static value_t *marked(struct interp *in, value_t *r)
{
	if (!r || r->k != VK_UNKNOWN || r->alts || r->map_dataset)
		return r;
	r = v_copy(in->a, r);
	r->map_dataset = 1;
	return r;
}

value_t *mapds_call(struct frame *f, const char *d, struct vdict *kw, value_t *r)
{
	const char *key = catalog_fact(f->in->cat, CATALOG_F_MAP_DATASET_CALLS, d);
	value_t *k;

	if (!key)
		return r;
	if (key[0] && kw && (k = vdict_gets(kw, key)) && value_truth(k) != 0)
		return r;               /* streaming=True, or not known */
	return marked(f->in, r);
}

value_t *mapds_item(struct frame *f, const value_t *obj, value_t *r)
{
	if (obj && obj->k == VK_UNKNOWN && obj->map_dataset && !obj->alts)
		return marked(f->in, r);
	return r;
}

value_t *mapds_method(struct frame *f, const value_t *recv, const char *name, value_t *r)
{
	if (recv && recv->k == VK_UNKNOWN && recv->map_dataset && !recv->alts && name &&
	    catalog_fact(f->in->cat, CATALOG_F_MAP_DATASET_METHODS, name))
		return marked(f->in, r);
	return r;
}

value_t *mapds_result(struct frame *f, const value_t *fn, value_t *r)
{
	if (fn && fn->k == VK_UNKNOWN && fn->map_dataset && !fn->alts)
		return marked(f->in, r);
	return r;
}
