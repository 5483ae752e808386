/* interp/ctxclass.c - `with obj:` over an object of a repository class,
 * and a parallel wrapper's sync-skip context entered by name
 *
 * Python's `with obj as x:` calls type(obj).__enter__(obj), binds what it
 * returns to x, runs the block, then calls type(obj).__exit__(obj, None,
 * None, None).  ctxclass_enter() and ctxclass_exit() read those two
 * methods of a repository class so, in job code (in a forward the object
 * is bound and its methods are not read).  A timer class that
 * synchronizes the device in __exit__, a helper that averages the
 * parameters when it is left: their events are the job's, at the `with`
 * and after its block.
 *
 * model.no_sync of a module a parallel wrapper returned (catalog
 * wrapper_sync_skips: '<wrapper word>.<method>') is a method whose call
 * gives a context object (`with model.no_sync():` itself is read by
 * with_jctx, by its text).  Its __enter__() and __exit__() called by name
 * hold and release the skip (in->sync_skips_held).  When a repository class's
 * __enter__ leaves a skip held (accelerate's LocalSGD: self.model_sync_obj
 * = self.model.no_sync(); self.model_sync_obj.__enter__()), the `with`
 * block it opens is a no_sync block: the backwards in it reduce no
 * gradients.  A skip entered by name anywhere else is not followed.
 *
 * Values live in the interpreter's arena; nothing here owns memory.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

#define SKIP_CTX "__ecg_wrapper_sync_skip__"

/* The key '<wrapper word>.<name>' of wrapper_sync_skips that module m's
 * wrappers (innermost last) give to name, or NULL. */
static const char *skip_key(struct interp *in, const struct vinst *m, const char *name, size_t *which)
{
	size_t k;

	for (k = m->nwrapped; k-- > 0;) {
		const char *w = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, m->wrapped_by[k]);
		const char *key;

		if (!w)
			continue;
		key = afmt(in, "%s.%s", w, name);
		if (catalog_fact(in->cat, CATALOG_F_WRAPPER_SYNC_SKIPS, key)) {
			if (which)
				*which = k;
			return key;
		}
	}
	return NULL;
}

value_t *sync_skip_attr(struct frame *f, value_t *obj, const char *name)
{
	struct interp *in = f->in;
	const struct vinst *m;
	value_t *v;
	size_t k;

	if (obj->k != VK_INST || !(m = obj->u.inst)->nwrapped || !skip_key(in, m, name, &k))
		return NULL;
	v = v_ext(in->a, adot(in, m->wrapped_by[k], name));
	v->recv = obj;
	return v;
}

static int is_sync_skip_ctx(const value_t *v)
{
	return v && v->k == VK_INST && !v->u.inst->cls && v->u.inst->ext && vdict_gets(v->u.inst->attrs, SKIP_CTX);
}

value_t *sync_skip_call(struct frame *f, const char *d, const char *last, value_t *recv)
{
	struct interp *in = f->in;
	struct vinst *o;

	if (!recv)
		return NULL;
	if (is_sync_skip_ctx(recv)) {
		if (!strcmp(last, "__enter__"))
			in->sync_skips_held++;
		else if (!strcmp(last, "__exit__") && in->sync_skips_held > 0)
			in->sync_skips_held--;
		else
			return NULL;
		return v_none(in->a);
	}
	if (recv->k != VK_INST || !recv->u.inst->nwrapped || !skip_key(in, recv->u.inst, last, NULL))
		return NULL;
	o = new_inst(in);
	o->ext = d;
	vdict_sets(in->a, o->attrs, SKIP_CTX, v_bool(in->a, 1));
	return mk_inst_value(in, o);
}

value_t *ctxclass_enter(struct frame *f, value_t *cv, const struct ast_hdr *st, int *holds_skip)
{
	struct interp *in = f->in;
	struct vfunc *en;
	int held = in->sync_skips_held;
	value_t *r;

	*holds_skip = 0;
	if (f->mode == M_FWD || !(en = repo_method(in, cv, "__enter__", 0)) || !repo_method(in, cv, "__exit__", 0))
		return NULL;
	r = call_function(f, en, cv, NULL, 0, NULL, f->mode, f->ev, st);
	*holds_skip = in->sync_skips_held > held;
	return r;
}

void ctxclass_exit(struct frame *f, value_t *cv, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	struct vfunc *ex = repo_method(in, cv, "__exit__", 0);
	value_t *args[3];

	if (!ex)
		return;
	args[0] = args[1] = args[2] = v_none(in->a);
	(void)call_function(f, ex, cv, args, 3, NULL, f->mode, f->ev, st);
}
