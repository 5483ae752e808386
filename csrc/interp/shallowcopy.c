/*
 * shallowcopy.c -- copy.copy(x), as Python's copy module makes it.
 *
 *     args2 = copy.copy(args); args2.batch_size = 1          # a config
 *     data = copy.copy(self._data)                           # pyg's get()
 *     layers = copy.copy(self.layers); layers.append(head)
 *
 * Without it the copy was a value not known, so what the job read from
 * it (a flag, a size) was not known, and neither was anything the code
 * decided by it.
 *
 * copy_shallow() answers, for x:
 *   - None, bool, int, float, str, tuple, range, slice, a function, a
 *     class, an outside name: x itself (copy's atomic and immutable
 *     types; a tuple of items is returned as it is);
 *   - a list: a new list of the same items (and the same facts of the
 *     items it does not list);
 *   - a dict: a new dict of the same entries -- of a repository subclass
 *     of dict (dictsub.c) or a yacs node, the same class and a copy of
 *     the object's own __dict__;
 *   - an object of a repository class (not a module): the class's own
 *     __copy__ called, when it has one; else a new object of that class
 *     whose __dict__ is a new dict of the same attributes (copy's
 *     __reduce_ex__ path for a plain class) -- unless the class defines
 *     __reduce__, __reduce_ex__, __getstate__, __setstate__ or __new__,
 *     which copy would call (not read here: NULL);
 *   - an argparse.Namespace: likewise.
 * NULL for anything else (a module, a tensor, a library's object, a value
 * not known): the caller keeps the call not read.  Values live in the
 * interpreter's arena; nothing here fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static const char *const reduce_hooks[] = {
	"__getstate__", "__new__", "__reduce__", "__reduce_ex__", "__setstate__",
};

static struct vdict *dict_dup(struct interp *in, const struct vdict *d)
{
	struct vdict *r = vdict_new(in->a);
	size_t i;

	for (i = 0; i < d->n; i++)
		vdict_set(in->a, r, d->keys[i], d->vals[i]);
	return r;
}

static value_t *list_copy(struct interp *in, const value_t *x)
{
	value_t *r = seq_from(in, VK_LIST, x->u.seq);

	r->u.seq->unk_expr = x->u.seq->unk_expr;
	r->u.seq->unk_reason = x->u.seq->unk_reason;
	r->u.seq->len_expr = x->u.seq->len_expr;
	r->u.seq->len_src = x->u.seq->len_src;
	r->u.seq->len_via = x->u.seq->len_via;
	return r;
}

static value_t *dict_copy(struct interp *in, const value_t *x)
{
	const struct vdict *d = x->u.dict;
	value_t *r = v_dict(in->a);

	r->u.dict = dict_dup(in, d);
	dict_keep_may_hold(r->u.dict, d);
	r->u.dict->dictconfig = d->dictconfig;
	r->u.dict->cfgnode = d->cfgnode;
	r->u.dict->cfgpath = d->cfgpath;
	r->u.dict->cfgbase = d->cfgbase;
	r->u.dict->cls = d->cls;
	r->u.dict->attr_items = d->attr_items;
	if (d->attrs)
		r->u.dict->attrs = dict_dup(in, d->attrs);
	return r;
}

/* A new object of m's class with a new __dict__ of the same attributes. */
static value_t *inst_copy(struct interp *in, const struct vinst *m)
{
	struct vinst *o = new_inst(in);
	struct vdict *attrs = o->attrs;

	*o = *m;
	o->attrs = attrs;
	for (size_t i = 0; i < m->attrs->n; i++)
		vdict_set(in->a, o->attrs, m->attrs->keys[i], m->attrs->vals[i]);
	return mk_inst_value(in, o);
}

value_t *copy_shallow(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *x, *cp;
	const struct vinst *m;
	size_t i;

	if (nargs != 1 || (kw && kw->n))
		return NULL;
	x = args[0];
	switch (x->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR: case VK_TUPLE:
	case VK_RANGE: case VK_SLICE: case VK_FUNC: case VK_CLASS: case VK_EXT:
		return x;
	case VK_LIST:
		return list_copy(in, x);
	case VK_DICT:
		if (x->u.dict->cls && (cp = class_lookup(x->u.dict->cls, "__copy__", NULL)) && cp->k == VK_FUNC)
			return call_function(f, cp->u.fn, x, NULL, 0, NULL, f->mode, f->ev, site);
		for (i = 0; x->u.dict->cls && i < NTAB_LEN(reduce_hooks); i++)
			if (class_lookup(x->u.dict->cls, reduce_hooks[i], NULL))
				return NULL;
		return dict_copy(in, x);
	case VK_INST:
		m = x->u.inst;
		if (m->mod != VM_NONE)
			return NULL;
		if (!m->cls)
			return m->ext && !strcmp(m->ext, "argparse.Namespace") ? inst_copy(in, m) : NULL;
		if ((cp = class_lookup(m->cls, "__copy__", NULL)) && cp->k == VK_FUNC)
			return call_function(f, cp->u.fn, x, NULL, 0, NULL, f->mode, f->ev, site);
		if (m->ext || m->cls->ext_base)
			return NULL;   /* an outside base's state: not read */
		for (i = 0; i < NTAB_LEN(reduce_hooks); i++)
			if (class_lookup(m->cls, reduce_hooks[i], NULL))
				return NULL;
		return inst_copy(in, m);
	default:
		return NULL;
	}
}
