/* interp/mixeditems.c - a loop over a few known items that are not of
 * one kind is read item by item
 *
 * exec.c reads a loop whose body copies or syncs once for all: one
 * iteration says what every one does.  That holds for items of one kind
 * (batches, parameters, blocks).  A record class that keeps its columns
 * in a dict -- a device tensor, a host tensor, a list -- and loops over
 * them (`for k, v in self._stats.items(): if isinstance(v, torch.Tensor):
 * ... elif isinstance(v, list): ...`) takes another branch for each kind,
 * and reading the first item for all would miss the others' events and
 * then read the body with an item not known (its branches under
 * conditions no item meets).  mixed_items() says when the items are so:
 * at most MIXED_ITEMS_MAX known items among which two differ in kind (a
 * tensor and a list) or are tensors on different sides (host and
 * device), or host tensors one in pinned memory and one not (a loader's
 * pinned batch and a latent made by torch.randn: their copies differ).
 * A value not known, or one of alternatives, differs from nothing (it may
 * be of any kind).  exec.c then reads every item, as
 * Python does, and the loop's trip count is no event's count (an event
 * of some items only).
 *
 * alike_items() says the converse, more strictly: every item is of the
 * first one's kind -- tensors on the same known side, objects of the same
 * class whose parameters (a module's moves; an optimizer's
 * "__ecg_params_dev__") sit on the same side, tuples and lists of alike
 * parts, Python scalars by type; a value not known is like nothing.  A
 * loop over such items read once for all makes, on each later item, what
 * it made on the first one: journal.c keeps a host container stored in it
 * host data.  (A range's ints are alike: items NULL.)
 *
 * Items are compared as given (a tuple item of d.items() by its parts);
 * nothing is allocated or owned here.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define MIXED_ITEMS_MAX 8

/* the kind of v for the branches of a loop body: tensors by their side
 * (and, on the host, by pinned memory) */
static int item_kind(const value_t *v)
{
	if (v->k == VK_TENSOR)
		return 100 + v->dev + (v->dev == DEV_HOST && v->pinned == 1 ? 10 : 0);
	return (int)v->k;
}

static int items_differ(const value_t *a, const value_t *b)
{
	size_t i;

	/* a value not known may be of either kind: no difference known */
	if (a->k == VK_UNKNOWN || b->k == VK_UNKNOWN || a->alts || b->alts)
		return 0;
	if (a->k == VK_TENSOR && b->k == VK_TENSOR && (a->dev == DEV_UNKNOWN || b->dev == DEV_UNKNOWN))
		return 0;
	if (item_kind(a) != item_kind(b))
		return 1;
	if ((a->k == VK_TUPLE || a->k == VK_LIST) && a->k == b->k && !a->u.seq->unk_reason &&
	    !b->u.seq->unk_reason && a->u.seq->n == b->u.seq->n && a->k == VK_TUPLE) {
		for (i = 0; i < a->u.seq->n; i++)
			if (items_differ(a->u.seq->items[i], b->u.seq->items[i]))
				return 1;
	}
	return 0;
}

int mixed_items(const struct vseq *items)
{
	size_t i;

	if (!items || items->unk_reason || items->n < 2 || items->n > MIXED_ITEMS_MAX)
		return 0;
	for (i = 1; i < items->n; i++)
		if (items_differ(items->items[0], items->items[i]))
			return 1;
	return 0;
}

static int params_dev(const value_t *v)
{
	const value_t *d = vdict_gets(v->u.inst->attrs, "__ecg_params_dev__");

	return d && d->k == VK_INT ? (int)d->u.i : -1;
}

static int alike(const value_t *a, const value_t *b, int depth)
{
	size_t i;

	if (depth > 4 || a->k != b->k || a->alts || b->alts)
		return 0;
	switch (a->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
		return 1;
	case VK_TENSOR:
		return a->dev != DEV_UNKNOWN && a->dev == b->dev;
	case VK_INST:
		return a->u.inst->cls == b->u.inst->cls && a->u.inst->mod == b->u.inst->mod &&
		       (a->u.inst->cls || (a->u.inst->ext && b->u.inst->ext && !strcmp(a->u.inst->ext, b->u.inst->ext))) &&
		       params_dev(a) == params_dev(b) && a->u.inst->on_device == b->u.inst->on_device &&
		       a->u.inst->on_host == b->u.inst->on_host && a->u.inst->on_meta == b->u.inst->on_meta;
	case VK_TUPLE: case VK_LIST:
		if (a->u.seq->unk_reason || b->u.seq->unk_reason || a->u.seq->n != b->u.seq->n)
			return 0;
		for (i = 0; i < a->u.seq->n; i++)
			if (!alike(a->u.seq->items[i], b->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	default:
		return 0;
	}
}

int alike_items(const struct vseq *items)
{
	size_t i;

	if (!items)
		return 1;
	if (items->unk_reason)
		return 0;
	for (i = 1; i < items->n; i++)
		if (!alike(items->items[0], items->items[i], 0))
			return 0;
	return 1;
}
