/* interp/itemproto.c - the item protocol of a repository class: obj[k],
 * obj[k] = v and del obj[k] call its __getitem__, __setitem__ and
 * __delitem__
 *
 * Python evaluates obj[k] as type(obj).__getitem__(obj, k), obj[k] = v as
 * type(obj).__setitem__(obj, k, v) and del obj[k] as
 * type(obj).__delitem__(obj, k).  For an instance of a plain repository
 * class (not an nn.Module: containers keep their own indexing, modules
 * and their children are module.c's) that defines the method with a
 * body, these functions read that method at the subscript, in the mode
 * of the frame: a record class that keeps its columns in a dict
 * (self._stats[key]) gives back what was stored, and the events of the
 * method's body (a copy, a sync in a __getitem__) are the caller's.
 *
 * An object of a repository subclass of dict (dictsub.c: a dict value
 * whose vdict names its class) is read the same way when its class
 * defines the method (a lazy registry: __getitem__ imports the module a
 * key names and stores what it found with self[key] = cls, which, with
 * no __setitem__ of its own, is dict's store).
 *
 * Each returns NULL / 0 when obj is not such an instance or the class
 * does not define the method: the caller goes on with its own rules.
 * Values live in the interpreter's arena; nothing here owns memory.
 */
#include "config.h"

#include "internal.h"

/* The repository's own method `name` of obj's class (a plain method with
 * a body), for an instance or an object of a dict subclass; NULL else. */
static struct vfunc *item_method(struct interp *in, const value_t *obj, const char *name)
{
	struct vclass *dc = dictsub_class(obj);

	return dc ? class_method(in, dc, name, 0) : repo_method(in, obj, name, 0);
}

value_t *itemproto_get(struct frame *f, value_t *obj, value_t *idx, const struct ast_hdr *site)
{
	struct vfunc *m = item_method(f->in, obj, "__getitem__");

	if (!m)
		return NULL;
	return call_function(f, m, obj, &idx, 1, NULL, f->mode, f->ev, site);
}

int itemproto_set(struct frame *f, value_t *obj, value_t *idx, value_t *v, const struct ast_hdr *site)
{
	struct vfunc *m = item_method(f->in, obj, "__setitem__");
	value_t *args[2];

	if (!m)
		return 0;
	args[0] = idx;
	args[1] = v;
	(void)call_function(f, m, obj, args, 2, NULL, f->mode, f->ev, site);
	return 1;
}

int itemproto_del(struct frame *f, value_t *obj, value_t *idx, const struct ast_hdr *site)
{
	struct vfunc *m = item_method(f->in, obj, "__delitem__");

	if (!m)
		return 0;
	(void)call_function(f, m, obj, &idx, 1, NULL, f->mode, f->ev, site);
	return 1;
}
