/*
 * dictjoin.c -- two dicts bound on the two paths of an undecided `if`,
 * written with the same keys: one dict of those keys.
 *
 *     if last_batch or not self.use_ddp:
 *         losses = compute_losses()
 *     else:
 *         with self.ddp_model.no_sync():
 *             losses = compute_losses()
 *
 * Both paths bind a dict of the keys "mse", "vb", "loss" (the same code
 * made them): after the `if` the name holds a dict of those keys, in that
 * order, so that a pass over its items runs as many times as it has keys
 * (before, the name was unknown and a comprehension over its items had
 * one entry standing for all: a count of one stated for three).
 *
 * dict_pair_join(in, a, b, cond) gives that dict when a and b are two
 * plain dicts (no key written that is not known, no comprehension's
 * stand-in, no default factory, no yacs or OmegaConf node) with the same
 * keys, each a known scalar, in the same order.  Each entry is joined: the
 * same value (or equal known scalars) is kept; two tensors are one tensor
 * where both paths put it (the more device-bound place, as merge_branches
 * joins two tensors) with the join of their shapes; two such dicts are
 * joined again (up to a few levels); anything else is unknown, depending on
 * the condition.  NULL when a and b are not such a pair: the caller goes
 * on as before.  Never a value taken from one path only where the other
 * differs.  dict_plain(v): is v such a plain dict (a `**` of it passes
 * exactly its listed keys: eval.c)?  The dict and its values live in
 * in's arena; nothing fails.
 */
#include "config.h"

#include "internal.h"
#include "ecg/shapes.h"

#define DICT_JOIN_DEPTH 4

int dict_plain(const value_t *v)
{
	const struct vdict *d;

	if (!v || v->k != VK_DICT || v->alts)
		return 0;
	d = v->u.dict;
	return !d->anykey && !d->rep && !d->missing && !d->cfgnode && !d->dictconfig;
}

static int same_keys(const struct vdict *a, const struct vdict *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!value_is_known_scalar(a->keys[i]) || !value_key_eq(a->keys[i], b->keys[i]))
			return 0;
	return 1;
}

static value_t *join_entry(struct interp *in, value_t *k, value_t *a, value_t *b, const char *cond, int depth);

static value_t *join_dicts(struct interp *in, const value_t *a, const value_t *b, const char *cond, int depth)
{
	value_t *r;
	size_t i;

	if (depth > DICT_JOIN_DEPTH || !dict_plain(a) || !dict_plain(b) || a == b ||
	    !same_keys(a->u.dict, b->u.dict))
		return NULL;
	r = v_dict(in->a);
	for (i = 0; i < a->u.dict->n; i++)
		vdict_set(in->a, r->u.dict, a->u.dict->keys[i],
		          join_entry(in, a->u.dict->keys[i], a->u.dict->vals[i], b->u.dict->vals[i], cond, depth));
	return r;
}

static value_t *join_entry(struct interp *in, value_t *k, value_t *a, value_t *b, const char *cond, int depth)
{
	value_t *r;

	if (a == b || (value_is_known_scalar(a) && value_is_known_scalar(b) && value_key_eq(a, b)))
		return a;
	if (a->k == VK_TENSOR && b->k == VK_TENSOR && a->is_param == b->is_param) {
		return tensor_join(in, a, b);
	}
	if ((r = join_dicts(in, a, b, cond, depth + 1)))
		return r;
	r = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL,
	              afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
	r->may_none = a->k == VK_NONE || b->k == VK_NONE || a->may_none || b->may_none;
	return r;
}

value_t *dict_pair_join(struct interp *in, const value_t *a, const value_t *b, const char *cond)
{
	return a && b ? join_dicts(in, a, b, cond, 0) : NULL;
}
