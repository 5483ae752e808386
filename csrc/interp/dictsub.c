/* interp/dictsub.c - objects of a repository class that derives from dict
 *
 * `class EasyDict(dict)` with a __getattr__ and a __setattr__ that map
 * attributes to items (NVlabs' dnnlib.EasyDict, the AttrDicts of many
 * repositories): the job's configuration lives in such objects, handed on
 * with ** to the functions that build its dataset, model and optimizer.
 * The base may be collections.defaultdict too (dict_bases[]: a
 * MeterBuffer(defaultdict) whose missing keys get a fresh meter; an
 * OrderedDict subclass -- diffusers' FrozenDict, ModelOutput -- is not
 * taken: what it would open up is not read well enough yet):
 * super().__init__(factory, ...) sets the dict's default factory
 * (dictsub_base_init), and a missing key read calls it, as for a
 * defaultdict value (stdlib.c).
 *
 * When no repository class in the MRO defines __new__, the object is
 * made by dict's own constructor (and then the class's own __init__, if
 * any, runs on it: super().__init__(*args, **kw) fills it), so it is a
 * dict: here a dict
 * value (every dict operation, **, json and dict() read it as the dict it
 * is) whose vdict's `cls` names the class (values.h).  On such a dict:
 *   dictsub_new()      the object, dict(*args, **kw) as the builtin makes
 *                      it, the class noted; NULL when c is not such a class
 *                      (object.c instantiate() goes on)
 *   dictsub_attr()     obj.name by Python's order: a name the class's MRO
 *                      defines (a method bound to the dict, a class
 *                      constant), then dict's own methods (NULL: attr.c's
 *                      type_method), then the class's __getattr__ called;
 *                      without one Python raises AttributeError: unknown
 *   dictsub_setattr()  obj.name = v: the class's __setattr__ called (it
 *                      writes the item); without one the name goes to the
 *                      object's __dict__ (vdict.attrs), not an item, and
 *                      dictsub_attr() reads it back before the class's
 *                      members -- unless that __dict__ is the dict itself
 *                      (`self.__dict__ = self`, the AttrDict recipe:
 *                      vdict.attr_items), when the name is an item, as
 *                      every attribute read is.  0 when obj is not such a
 *                      dict (object.c set_attr goes on)
 *   dictsub_class()    the class of such a dict (type(), isinstance()), or
 *                      NULL
 * A copy made by dict(x), {**x} or a comprehension is a plain dict (cls is
 * not kept), as in Python.  The same dicts answer for a repository
 * subclass of a yacs node class (yacssub.c: vdict.cfgnode set), whose
 * items come after the class's members and the node's methods, and whose
 * attributes are written to the node when the class has no __setattr__.
 * A subclass of collections.UserDict is read the same way (vdict.userdict:
 * its items are those of its `data`, which dictsub_attr gives as the same
 * items seen as a plain dict, value.dict_view), except that it is no dict
 * for isinstance.  Values live in the interpreter's arena; nothing
 * here fails (an unknown is the answer).
 */
#include "config.h"

#include "internal.h"

/* The standard library's dict classes a repository class may derive
 * from as it does from dict: their objects are dicts (sorted). */
static const char *const dict_bases[] = {
	"collections.UserDict", "collections.defaultdict",
};

/* Is d (canonical) one of dict_bases[]: 2 for defaultdict (a factory
 * first), 3 for UserDict (a dict of its own in `data`, which every
 * mapping method reads -- the same items, here kept as the object's),
 * 0 when none. */
static int dict_base_kind(const char *d)
{
	size_t i;

	for (i = 0; d && i < sizeof dict_bases / sizeof dict_bases[0]; i++)
		if (!strcmp(d, dict_bases[i]))
			return !strcmp(d, "collections.defaultdict") ? 2 : 3;
	return 0;
}

/* Does c derive from the builtin dict (or a class of dict_bases[]), with
 * no __new__ of the repository's own on the way (dict's constructor
 * makes the object; an __init__ of the repository's then runs on it)?
 * 2 when a base is defaultdict, 3 UserDict, 1 for another dict, 0 when
 * not. */
static int dict_made(struct interp *in, struct vclass *c)
{
	size_t i, j, n = c->nmro;
	struct vclass *const *mro = c->mro;
	int is_dict = 0;

	for (i = 0; i < n; i++) {
		if (vdict_gets(mro[i]->ns, "__new__"))
			return 0;
		if (mro[i]->is_module || mro[i]->is_dataclass ||
		    (mro[i]->ext_base && !dict_base_kind(canon_ext(in, mro[i]->ext_base))))
			return 0;
		for (j = 0; j < mro[i]->nbases; j++) {
			const value_t *b = mro[i]->bases[j];
			int kind;

			if (b->k == VK_BUILTIN && !b->u.bi.self && b->u.bi.id == BI_DICT)
				is_dict = is_dict ? is_dict : 1;
			else if (b->k == VK_EXT && (kind = dict_base_kind(canon_ext(in, b->u.ext))))
				is_dict = kind > is_dict ? kind : is_dict;
			else if (b->k != VK_CLASS && b->k != VK_BUILTIN)
				return 0;    /* another outside base: not read here */
		}
	}
	return is_dict;
}

/* What a defaultdict may take as its factory: something to call. */
static int factory_ok(const value_t *v)
{
	return v->k == VK_BUILTIN || v->k == VK_FUNC || v->k == VK_CLASS || v->k == VK_BOUND ||
	       (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "functools.partial"));
}

/* dict's (defaultdict's) __init__ on self, a dict of a subclass */
static value_t *base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *upd;

	if (!dictsub_class(self))
		return v_none(in->a);
	if (dict_made(in, self->u.dict->cls) == 2 && nargs >= 1) {
		/* defaultdict(default_factory=None, /, ...): the rest fills it */
		self->u.dict->missing = factory_ok(args[0]) ? args[0] : NULL;
		args++;
		nargs--;
	}
	if (!nargs && (!kw || !kw->n))
		return v_none(in->a);
	upd = type_method(in, self, "update");
	return upd ? call(f, upd, args, nargs, kw, site) : v_none(in->a);
}

value_t *dictsub_base_init(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	return base_init(f, fn->u.bi.self, args, nargs, kw, site);
}

value_t *dictsub_new(struct frame *f, struct vclass *c, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;

	value_t *init;
	int made = dict_made(f->in, c);

	if (!made)
		return NULL;
	init = class_lookup(c, "__init__", NULL);
	if (init && init->k == VK_FUNC) {
		/* the class's own __init__ on the new, empty dict: it fills
		 * it through super().__init__(...) (attr.c: dict's update) */
		r = v_dict(in->a);
		r->u.dict->cls = c;
		r->u.dict->userdict = made == 3;
		(void)call_function(f, init->u.fn, r, args, nargs, kw, f->mode, f->ev, site);
		return r;
	}
	if (init)
		return NULL;         /* an __init__ not read: not this */
	if (made == 2) {
		/* defaultdict's own constructor: the factory, then the items */
		r = v_dict(in->a);
		r->u.dict->cls = c;
		(void)base_init(f, r, args, nargs, kw, site);
		return r;
	}
	r = call(f, mk_builtin(in, BI_DICT, NULL), args, nargs, kw, site);
	if (r->k != VK_DICT)
		return r;
	r->u.dict->cls = c;
	r->u.dict->userdict = made == 3;
	return r;
}

struct vclass *dictsub_class(const value_t *v)
{
	return v && v->k == VK_DICT && !v->dict_view ? v->u.dict->cls : NULL;
}

/* A name the class's MRO defines, as seen on obj; NULL when none does. */
static value_t *class_member(struct frame *f, value_t *obj, const char *name)
{
	value_t *v = class_lookup(obj->u.dict->cls, name, NULL);

	if (!v)
		return NULL;
	if (v->k != VK_FUNC || v->u.fn->is_static || v->u.fn->is_property)
		return v->k == VK_FUNC && v->u.fn->is_property
		               ? unknown_at(f, NULL, "a property of a dict subclass (not read)") : v;
	if (v->u.fn->is_classmethod) {
		value_t *cv = ast_arena_alloc(f->in->a, sizeof *cv);

		cv->k = VK_CLASS;
		cv->u.cls = obj->u.dict->cls;
		return bound(f->in, v, cv);
	}
	return bound(f->in, v, obj);
}

value_t *dictsub_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v, *ga, *arg;

	if (!dictsub_class(obj))
		return NULL;
	/* an AttrDict's item, as its instance attribute (which comes
	 * before the class's methods) */
	if (obj->u.dict->attr_items && (v = vdict_gets(obj->u.dict, name)))
		return v;
	/* a UserDict's `data` (set by its constructor in the object's
	 * __dict__): its items, as a plain dict */
	if (obj->u.dict->userdict && !strcmp(name, "data")) {
		v = v_copy(in->a, obj);
		v->dict_view = 1;
		return v;
	}
	/* an attribute set on the object (its __dict__), unless the class
	 * holds a property of that name (a data descriptor comes first) */
	if (obj->u.dict->attrs && (v = vdict_gets(obj->u.dict->attrs, name))) {
		value_t *cm = class_lookup(obj->u.dict->cls, name, NULL);

		if (!cm || cm->k != VK_FUNC || !cm->u.fn->is_property)
			return v;
	}
	if ((v = class_member(f, obj, name)))
		return v;
	if ((v = type_method(in, obj, name)))
		return v;
	if (obj->u.dict->cfgnode && (v = vdict_gets(obj->u.dict, name)))
		return v;   /* a yacs node's item (yacssub.c): the node class's __getattr__ */
	ga = class_lookup(obj->u.dict->cls, "__getattr__", NULL);
	if (!ga || ga->k != VK_FUNC)
		return unknown_at(f, site, afmt(in, "'%s' is no attribute of a %s", name, obj->u.dict->cls->name));
	arg = v_str(in->a, name);
	return call_function(f, ga->u.fn, obj, &arg, 1, NULL, f->mode, f->ev, site);
}

int dictsub_setattr(struct frame *f, value_t *obj, const char *name, value_t *v)
{
	struct interp *in = f->in;
	value_t *sa, *args[2];

	if (!dictsub_class(obj))
		return 0;
	/* self.__dict__ = self: its attributes are its items from now on */
	if (!strcmp(name, "__dict__") && v && v->k == VK_DICT && v->u.dict == obj->u.dict) {
		obj->u.dict->attr_items = 1;
		return 1;
	}
	sa = class_lookup(obj->u.dict->cls, "__setattr__", NULL);
	if ((!sa || sa->k != VK_FUNC) && obj->u.dict->userdict && !strcmp(name, "data")) {
		/* self.data = d: the items are d's from now on (a copy here:
		 * the object's storage is its own) */
		size_t i;

		if (!v || v->k != VK_DICT || v->u.dict == obj->u.dict) {
			if (!v || v->k != VK_DICT)
				clobber_dict(in->a, obj->u.dict, "a UserDict's data replaced by a value not known");
			return 1;
		}
		obj->u.dict->n = 0;
		for (i = 0; i < v->u.dict->n; i++)
			vdict_set(in->a, obj->u.dict, v->u.dict->keys[i], v->u.dict->vals[i]);
		return 1;
	}
	if ((!sa || sa->k != VK_FUNC) && obj->u.dict->attr_items) {
		vdict_sets(in->a, obj->u.dict, name, v);
		return 1;
	}
	if ((!sa || sa->k != VK_FUNC) && obj->u.dict->cfgnode) {
		yacs_set(in, obj->u.dict, name, v);   /* the node class's __setattr__ (yacssub.c) */
		return 1;
	}
	if (!sa || sa->k != VK_FUNC) {
		/* the object's own __dict__ */
		if (!obj->u.dict->attrs)
			obj->u.dict->attrs = vdict_new(in->a);
		vdict_sets(in->a, obj->u.dict->attrs, name, v);
		return 1;
	}
	args[0] = v_str(in->a, name);
	args[1] = v;
	(void)call_function(f, sa->u.fn, obj, args, 2, NULL, f->mode, f->ev, NULL);
	return 1;
}
