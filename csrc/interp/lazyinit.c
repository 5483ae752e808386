/* interp/lazyinit.c - None or a value: a lazy initialisation's two paths
 *
 *     if self._labels is None:                  if self._label_shape is None:
 *         self._labels = np.zeros([n, 0])            self._label_shape = raw.shape[1:]
 *     return self._labels                       return list(self._label_shape)
 *
 * Read once for all passes of a loop, or first under an undecided `if`
 * (`if rank == 0: print(ds.label_shape)`), the attribute is None on one
 * path and the value on the other.  Joining the two into a value not
 * known makes every later `is None` undecided and the value lost; so the
 * pair is kept as alternatives of the value and None (alts.c), and in the
 * arm where a test says it is not None, narrow.c reads the value
 * (lazy_not_none).  A second reading's recomputed value then joins with
 * the same value, not with None.
 *
 * The values kept so: an array of another library whose shape is known
 * in part (arrays.c; two such arrays of one rank join, arr_join), and a
 * tuple of known Python scalars (a shape's tail; two equal ones are one).
 * Objects are not: alts.c reads each path of those under its condition.
 *
 * Everything is allocated in the interpreter's arena; nothing here can
 * fail (NULL says "no such value").
 */
#include "config.h"

#include "internal.h"

/* A value a lazy initialisation may hold and a join keeps: a plain
 * array known in part, or a tuple of known Python scalars. */
static int lazy_value(const value_t *v)
{
	size_t i;

	if (v->k == VK_UNKNOWN)
		return !v->alts && v->arr_shape != NULL;
	if (v->k != VK_TUPLE || v->u.seq->unk_reason)
		return 0;
	for (i = 0; i < v->u.seq->n; i++)
		if (!value_is_known_scalar(v->u.seq->items[i]))
			return 0;
	return 1;
}

/* Is v None, such a value, or alternatives of those (nested at most 4
 * deep)? */
static int lazy_or_none(const value_t *v, int depth)
{
	if (!v || depth > 4)
		return 0;
	if (v->k == VK_NONE)
		return 1;
	if (v->k == VK_UNKNOWN && v->alts)
		return lazy_or_none(v->alts[0], depth + 1) && lazy_or_none(v->alts[1], depth + 1);
	return lazy_value(v);
}

int lazy_same(const value_t *a, const value_t *b)
{
	return a && b && a->k == VK_TUPLE && b->k == VK_TUPLE && lazy_value(a) && lazy_value(b) && value_key_eq(a, b);
}

/* Two such values as one: arrays of one rank joined (arr_join), equal
 * tuples; NULL otherwise. */
static value_t *lazy_join(struct interp *in, value_t *a, value_t *b)
{
	if (a->k == VK_TUPLE && b->k == VK_TUPLE)
		return lazy_same(a, b) ? a : NULL;
	return arr_join(in, a, b);
}

int lazy_none_pair(const value_t *a, const value_t *b)
{
	return lazy_or_none(a, 0) && lazy_or_none(b, 0) && !(a->k == VK_NONE && b->k == VK_NONE) &&
	       !(a->k != VK_NONE && !a->alts && b->k != VK_NONE && !b->alts);
}

value_t *lazy_not_none(struct interp *in, value_t *v, int depth)
{
	value_t *x, *y;

	if (!v || depth > 4 || v->k == VK_NONE)
		return NULL;
	if (!(v->k == VK_UNKNOWN && v->alts))
		return lazy_value(v) ? v : NULL;
	x = lazy_not_none(in, v->alts[0], depth + 1);
	y = lazy_not_none(in, v->alts[1], depth + 1);
	if (x && y)
		return lazy_join(in, x, y);
	return x ? x : y;
}

value_t *lazy_none_join(struct interp *in, const char *cond, value_t *a, value_t *b)
{
	value_t *v = v_alts_in(in, cond, a, b), *x = lazy_not_none(in, v, 0);

	return x ? v_alts_in(in, cond, x, v_none(in->a)) : v;
}
