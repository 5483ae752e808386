/* interp/dacite.c - dacite.from_dict: a repository dataclass built from a dict
 *
 *     config = from_dict(data_class=Config, data=yaml.safe_load(f),
 *                        config=dacite.Config(type_hooks={torch.dtype: to_dtype}))
 *
 * (huggingface/nanotron's configuration, and many research trainers'.)
 * dacite builds the dataclass field by field: a field the dict holds takes
 * its value, converted by the field's type -- a nested dataclass from its
 * own dict, the items of a List[...] and the values of a Dict[...] as
 * their type says, an Optional[...] or Union[...] by the first of its
 * types that takes the value, a type named in the config's type_hooks by
 * its hook (called: the job's own function), a type in its cast list by
 * calling it -- and a field the dict lacks keeps its default; then the
 * class is called with those keywords, so __post_init__ runs as it does
 * in the job.  Field types are read as dataclasses.fields() reads them
 * (argparse.c).  Only a dict ecg saw whole is read: a dict that may hold
 * more, or data of another kind, gives an unknown with the reason.
 * Values live in the interpreter's arena; nothing here fails otherwise.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define DACITE_MAX_DEPTH 16

/* The keyword argument k of the dacite.Config object cfg (its constructor
 * arguments), or NULL. */
static value_t *dacite_cfg(const value_t *cfg, const char *k)
{
	if (!cfg || cfg->k != VK_INST || !cfg->u.inst->args)
		return NULL;
	return vdict_gets(cfg->u.inst->args, k);
}

/* Are a and b the same type: one value, one repository class, or one
 * outside dotted name? */
static int same_type(struct interp *in, const value_t *a, const value_t *b)
{
	if (a == b)
		return 1;
	if (a->k == VK_CLASS && b->k == VK_CLASS)
		return a->u.cls == b->u.cls;
	if (a->k == VK_EXT && b->k == VK_EXT)
		return !strcmp(canon_ext(in, a->u.ext), canon_ext(in, b->u.ext));
	return 0;
}

/* The hook the config names for type t (type_hooks), or NULL. */
static value_t *dacite_hook(struct interp *in, const value_t *cfg, const value_t *t)
{
	const value_t *hooks = dacite_cfg(cfg, "type_hooks");
	size_t i;

	if (!hooks || hooks->k != VK_DICT)
		return NULL;
	for (i = 0; i < hooks->u.dict->n; i++)
		if (same_type(in, hooks->u.dict->keys[i], t))
			return hooks->u.dict->vals[i];
	return NULL;
}

/* Is t in the config's cast list? */
static int dacite_cast(struct interp *in, const value_t *cfg, const value_t *t)
{
	const value_t *cast = dacite_cfg(cfg, "cast");
	size_t i;

	if (!cast || (cast->k != VK_LIST && cast->k != VK_TUPLE))
		return 0;
	for (i = 0; i < cast->u.seq->n; i++)
		if (same_type(in, cast->u.seq->items[i], t))
			return 1;
	return 0;
}

static value_t *dacite_build(struct frame *f, value_t *cls, value_t *data, const value_t *cfg, int depth,
                             const struct ast_hdr *site);

static int is_repo_dataclass(const value_t *t)
{
	return t->k == VK_CLASS && t->u.cls->is_dataclass;
}

/* The generic form t is (typing._GenericAlias, argparse.c ann_type): its
 * origin and args, 1; 0 when t is none. */
static int generic(const value_t *t, value_t **origin, value_t **args)
{
	if (t->k != VK_INST || !t->u.inst->ext || strcmp(t->u.inst->ext, "typing._GenericAlias"))
		return 0;
	*origin = vdict_gets(t->u.inst->attrs, "__origin__");
	*args = vdict_gets(t->u.inst->attrs, "__args__");
	return *origin && *args && (*args)->k == VK_TUPLE;
}

/* Can dataclass t be built from dict v as dacite tries a Union's types:
 * every field without a default is in v and, under strict=True, every
 * key of v is a field?  1, 0, or -1 when v is not a dict seen whole. */
static int dacite_fits(struct frame *f, value_t *t, const value_t *v, const value_t *cfg)
{
	value_t *fields = dataclass_fields_call(f, t);
	const value_t *strict = dacite_cfg(cfg, "strict");
	size_t i, j;

	if (!fields || v->k != VK_DICT || dict_may_hold(v->u.dict))
		return -1;
	for (i = 0; i < fields->u.seq->n; i++) {
		const struct vinst *fo = fields->u.seq->items[i]->u.inst;
		const value_t *name = vdict_gets(fo->attrs, "name"), *d = vdict_gets(fo->attrs, "default");
		const value_t *fac = vdict_gets(fo->attrs, "default_factory");
		int has_default = !(d && d->k == VK_EXT && !strcmp(d->u.ext, "dataclasses.MISSING")) ||
		                  !(fac && fac->k == VK_EXT && !strcmp(fac->u.ext, "dataclasses.MISSING"));

		if (!has_default && name && name->k == VK_STR && !vdict_gets(v->u.dict, name->u.str.s))
			return 0;
	}
	if (!strict || value_truth(strict) != 1)
		return 1;
	for (j = 0; j < v->u.dict->n; j++) {
		const value_t *k = v->u.dict->keys[j];

		for (i = 0; i < fields->u.seq->n; i++) {
			const value_t *name = vdict_gets(fields->u.seq->items[i]->u.inst->attrs, "name");

			if (name && k->k == VK_STR && name->k == VK_STR && !strcmp(name->u.str.s, k->u.str.s))
				break;
		}
		if (i == fields->u.seq->n)
			return 0;
	}
	return 1;
}

/* v, the dict's value of a field of type t, as dacite converts it. */
static value_t *dacite_value(struct frame *f, value_t *t, value_t *v, const value_t *cfg, int depth,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *origin, *args, *hook;
	size_t i;

	if (depth > DACITE_MAX_DEPTH || !t)
		return v;
	if (v->k != VK_NONE && (hook = dacite_hook(in, cfg, t)))
		return call(f, hook, &v, 1, NULL, site);
	if (is_repo_dataclass(t) && v->k == VK_DICT)
		return dacite_build(f, t, v, cfg, depth + 1, site);
	if (v->k != VK_NONE && dacite_cast(in, cfg, t))
		return call(f, t, &v, 1, NULL, site);
	if (!generic(t, &origin, &args))
		return v;
	if (origin->k == VK_EXT && (!strcmp(origin->u.ext, "typing.Union") || !strcmp(origin->u.ext, "types.UnionType"))) {
		/* Optional[X] / Union[...]: None as it is; else the first
		 * type that takes it -- a dataclass from a dict, a hooked type
		 * (dacite tries the types in order) */
		if (v->k == VK_NONE)
			return v;
		for (i = 0; i < args->u.seq->n; i++) {
			value_t *a = args->u.seq->items[i];
			value_t *o2, *a2;

			if ((hook = dacite_hook(in, cfg, a)))
				return call(f, hook, &v, 1, NULL, site);
			if (is_repo_dataclass(a) && v->k == VK_DICT) {
				int fit = dacite_fits(f, a, v, cfg);

				if (fit < 0)
					return unknown_at(f, site, "which type of the Union dacite builds from data not known whole");
				if (fit)
					return dacite_build(f, a, v, cfg, depth + 1, site);
				continue;
			}
			if (generic(a, &o2, &a2))
				return dacite_value(f, a, v, cfg, depth + 1, site);
		}
		return v;
	}
	if (origin->k == VK_BUILTIN && origin->u.bi.id == BI_LIST && args->u.seq->n == 1 && v->k == VK_LIST &&
	    !v->u.seq->unk_reason) {
		value_t *r = v_seq(in->a, VK_LIST, v->u.seq->n);

		for (i = 0; i < v->u.seq->n; i++)
			vseq_push(in->a, r->u.seq, dacite_value(f, args->u.seq->items[0], v->u.seq->items[i], cfg, depth + 1, site));
		return r;
	}
	if (origin->k == VK_BUILTIN && origin->u.bi.id == BI_DICT && args->u.seq->n == 2 && v->k == VK_DICT &&
	    !dict_may_hold(v->u.dict)) {
		value_t *r = v_dict(in->a);

		for (i = 0; i < v->u.dict->n; i++)
			vdict_set(in->a, r->u.dict, v->u.dict->keys[i],
			          dacite_value(f, args->u.seq->items[1], v->u.dict->vals[i], cfg, depth + 1, site));
		return r;
	}
	return v;
}

/* cls(**fields of data, converted), or an unknown with the reason. */
static value_t *dacite_build(struct frame *f, value_t *cls, value_t *data, const value_t *cfg, int depth,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *fields = dataclass_fields_call(f, cls);
	struct vdict *kw;
	size_t i;

	if (!fields || data->k != VK_DICT || dict_may_hold(data->u.dict) || depth > DACITE_MAX_DEPTH)
		return unknown_at(f, site, "dacite.from_dict of data not known whole");
	kw = vdict_new(in->a);
	for (i = 0; i < fields->u.seq->n; i++) {
		const value_t *fo = fields->u.seq->items[i];
		value_t *name = vdict_gets(fo->u.inst->attrs, "name");
		value_t *type = vdict_gets(fo->u.inst->attrs, "type");
		value_t *v = name && name->k == VK_STR ? vdict_gets(data->u.dict, name->u.str.s) : NULL;

		if (v)
			vdict_set(in->a, kw, name, dacite_value(f, type, v, cfg, depth, site));
	}
	return call(f, cls, NULL, 0, kw, site);
}

value_t *dacite_from_dict(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	value_t *cls = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "data_class") : NULL;
	value_t *data = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "data") : NULL;
	value_t *cfg = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "config") : NULL;

	if (!cls || !is_repo_dataclass(cls) || !data)
		return unknown_at(f, site, "dacite.from_dict of a class that is not a dataclass of the repository");
	return dacite_build(f, cls, data, cfg, 0, site);
}
