/* interp/jsonmerge.c - jsonmerge.merge(base, head): a JSON document merged
 *
 *     config = merge(defaults, json.loads(file.read_text()))
 *
 * (crowsonkb/k-diffusion's load_config layers a model type's defaults
 * under the job's JSON config this way.)  Without a schema jsonmerge's
 * documented default strategies are "objectMerge" for two objects -- key
 * by key, a key of head merged into base's entry, a key only one of them
 * holds kept -- and "overwrite" for anything else: head's value replaces
 * base's (a list, a number, null).  Neither argument is written: the
 * result is a new dict holding copies.  Only dicts seen whole are read;
 * a layer not known, or a dict whose keys are not all known, gives an
 * unknown with the reason.  Values live in the interpreter's arena;
 * nothing here fails otherwise.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define JM_MAX_DEPTH 32

/* base and head merged as jsonmerge does (objectMerge / overwrite) */
static value_t *jm_merge(struct interp *in, value_t *base, value_t *head, int depth)
{
	value_t *r;
	size_t i;

	if (base->k != VK_DICT || head->k != VK_DICT || depth >= JM_MAX_DEPTH)
		return deepcopy_value(in, head, depth + 1);
	r = deepcopy_value(in, base, depth + 1);
	for (i = 0; i < head->u.dict->n; i++) {
		value_t *have = vdict_get(r->u.dict, head->u.dict->keys[i]);
		value_t *v = head->u.dict->vals[i];

		vdict_set(in->a, r->u.dict, head->u.dict->keys[i],
		          have ? jm_merge(in, have, v, depth + 1) : deepcopy_value(in, v, depth + 1));
	}
	return r;
}

/* Does v hold a dict (itself or nested) with entries ecg did not see (a
 * store of a key not known, a comprehension over items not known)? */
static int jm_open(const value_t *v, int depth)
{
	size_t i;

	if (v->k != VK_DICT)
		return 0;
	if (depth > JM_MAX_DEPTH || v->u.dict->anykey || v->u.dict->rep)
		return 1;
	for (i = 0; i < v->u.dict->n; i++)
		if (jm_open(v->u.dict->vals[i], depth + 1))
			return 1;
	return 0;
}

/* a layer jm_merge can read whole, or the reason it cannot */
static const char *jm_unreadable(const value_t *v)
{
	if (v->k == VK_UNKNOWN)
		return "jsonmerge.merge of a document not known";
	if (jm_open(v, 0))
		return "jsonmerge.merge of a dict whose keys are not all known";
	return NULL;
}

value_t *jsonmerge_merge(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *why;
	size_t i;

	if (nargs != 2 || (kw && kw->n))
		return unknown_at(f, site, "jsonmerge.merge with a schema, a merge options or a *args");
	for (i = 0; i < 2; i++)
		if ((why = jm_unreadable(args[i])))
			return unknown_at(f, site, why);
	return jm_merge(in, args[0], args[1], 0);
}
