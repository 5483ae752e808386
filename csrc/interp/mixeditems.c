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
 * Items are compared as given (a tuple item of d.items() by its parts);
 * nothing is allocated or owned here.
 */
#include "config.h"

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
