/*
 * keyalts.c -- d[k] of a plain dict of two classes (or functions) under a
 * key not known: the two entries kept as alternatives (alts.c).
 *
 *     return {"mamba": Mamba, "transformer": Transformer}[
 *         args_dict.get("model_type", "transformer")]
 *
 * The key comes from data ecg does not read (a params.json beside the
 * weights): which class the job builds is not decided here.  Before, the
 * subscript was an unknown, so `model_cls.from_folder(...)` built nothing
 * and the job had no model, no step.  Now the value is alternatives
 * whose condition is `<key> == <first key>`: alts[0] the first entry,
 * alts[1] the second, and the readers of alternatives (alts_getattr,
 * alts_call) follow both paths, each under its side of the condition --
 * the same as `if key == "mamba": cls = Mamba else: cls = Transformer`.
 *
 * keyalts_subscript(f, s, obj, idx) gives those alternatives when obj is
 * a plain dict (dictjoin.c dict_plain: no key written that is not known,
 * no stand-in, no default factory) of exactly two entries whose keys are
 * known str or int and whose values are both objects alternatives keep
 * (alts_object: classes, functions, instances), and idx is an unknown
 * that is not itself alternatives.  NULL otherwise: the caller goes on
 * as before (an unknown).  Two entries only: a longer registry read
 * under a key not known stays unknown (which of many is not guessed, and
 * alternatives are two paths).  The value and the condition's text live
 * in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include "internal.h"

static const char *key_repr(struct frame *f, const value_t *k)
{
	if (k->k == VK_STR)
		return afmt(f->in, "'%s'", k->u.str.s);
	if (k->k == VK_INT)
		return afmt(f->in, "%lld", (long long)k->u.i);
	return NULL;
}

value_t *keyalts_subscript(struct frame *f, const struct ast_Subscript *s, value_t *obj, value_t *idx)
{
	const struct vdict *d;
	const char *kr, *kt;

	if (!dict_plain(obj) || !idx || idx->k != VK_UNKNOWN || idx->alts)
		return NULL;
	d = obj->u.dict;
	if (d->n != 2 || !alts_object(d->vals[0]) || !alts_object(d->vals[1]))
		return NULL;
	if (!key_repr(f, d->keys[1]) || !(kr = key_repr(f, d->keys[0])))
		return NULL;
	kt = text_of(f, s->slice);
	if (!kt)
		return NULL;
	return v_alts(f, afmt(f->in, "%s == %s", kt, kr), d->vals[0], d->vals[1]);
}
