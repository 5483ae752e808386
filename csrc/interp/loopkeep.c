/*
 * loopkeep.c -- what a loop not read to its end leaves bound: a tuple or
 * list of tensors keeps its items.
 *
 * After a loop whose iterations are not all read (a validation loop over a
 * loader of unknown length), exec.c's widen_names() makes a name the body
 * bound anew not known, since the iterations not read bind it again --
 * but a tensor, a module or an object keeps its kind: every iteration's
 * binding comes from the same code, so it is a tensor where this one is.
 * The same holds of a tuple or a list built there of such values:
 *
 *     for i, batch in enumerate(val_loader):
 *         x, y = model.parse_batch(batch)      # a tuple of device tensors
 *         y_pred = model(x)                    # a list of device tensors
 *     logger.log_validation(val_loss, model, y, y_pred, iteration)
 *
 * the last iteration's y and y_pred are sequences of the same tensors'
 * kinds; their items' values were never known.
 *
 * loop_keeps_kind(v) answers 1 when v keeps its kind across iterations:
 * any value but a Python scalar (None, bool, int, float, str), a dict or a
 * range (a value not known stays as it is); a tuple or list when every
 * item keeps its kind (an item not known only beside one that is a
 * tensor, module or object), nested up to a few levels.  A list whose
 * length is not known (unk_reason: built by a loop of unknown trips,
 * `scores.append(conf)` over a batch's rows) keeps it not known: its
 * items stand for every item, as they do for each iteration's list.  A
 * list grown across iterations is the same list object before and after
 * (widen_names() leaves it alone).
 *
 * Pure: reads v, allocates nothing, no error.
 */
#include "config.h"
#include "internal.h"

enum { LOOPKEEP_DEPTH = 4 };

/* 1: keeps its kind; 2: the same, and is (or holds) no unknown alone;
 * 0: does not */
static int keeps(const value_t *v, int depth)
{
	size_t i;
	int some = 0, r;

	switch (v->k) {
	case VK_UNKNOWN:
		return 1;
	case VK_NONE:
	case VK_BOOL:
	case VK_INT:
	case VK_FLOAT:
	case VK_STR:
	case VK_DICT:
	case VK_RANGE:
		return 0;
	case VK_TUPLE:
	case VK_LIST:
		if (depth >= LOOPKEEP_DEPTH || !v->u.seq->n)
			return 0;
		for (i = 0; i < v->u.seq->n; i++) {
			if (!v->u.seq->items[i] || !(r = keeps(v->u.seq->items[i], depth + 1)))
				return 0;
			some |= r == 2;
		}
		return some ? 2 : 0;
	default:
		return 2;
	}
}

int loop_keeps_kind(const value_t *v)
{
	return v && keeps(v, 0) != 0;
}
