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
 * Each returns NULL / 0 when obj is not such an instance or the class
 * does not define the method: the caller goes on with its own rules.
 * Values live in the interpreter's arena; nothing here owns memory.
 */
#include "config.h"

#include "internal.h"

value_t *itemproto_get(struct frame *f, value_t *obj, value_t *idx, const struct ast_hdr *site)
{
	struct vfunc *m = repo_method(f->in, obj, "__getitem__", 0);

	if (!m)
		return NULL;
	return call_function(f, m, obj, &idx, 1, NULL, f->mode, f->ev, site);
}

int itemproto_set(struct frame *f, value_t *obj, value_t *idx, value_t *v, const struct ast_hdr *site)
{
	struct vfunc *m = repo_method(f->in, obj, "__setitem__", 0);
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
	struct vfunc *m = repo_method(f->in, obj, "__delitem__", 0);

	if (!m)
		return 0;
	(void)call_function(f, m, obj, &idx, 1, NULL, f->mode, f->ev, site);
	return 1;
}
