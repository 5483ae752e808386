/* interp/scope.c - names: lookup through the scopes, binding, --set overrides
 *
 * lookup() reads locals, the enclosing comprehension and closure scopes,
 * the module's globals, then the builtins (NULL: unbound).  scope_bind()
 * stores into locals or globals (a `global` declaration honoured), swaps
 * in a --set override for a known scalar bound at the entry script's
 * module level, and records a model instance the first time a name is
 * bound to it (interp->models).
 */
#include "config.h"

#include "internal.h"

/* --set KEY=VALUE: the value to use instead of `v` for configuration name
 * `key` (v itself when there is no override).  The override keeps v's
 * source (where the default was written) and says it was overridden. */
value_t *overridden(struct interp *in, const char *key, value_t *v)
{
	value_t *o = key ? vdict_gets(in->overrides, key) : NULL;
	value_t *r;

	/* the names the job reads, for interp_config_read() (only with --set) */
	if (key && in->overrides->n && !vdict_gets(in->config_asked, key))
		vdict_sets(in->a, in->config_asked, key, v_none(in->a));
	if (!o)
		return v;
	r = v_copy(in->a, o);
	r->src = v && v->src ? v->src : NULL;
	r->expr = v && v->expr ? v->expr : NULL;
	r->via = VIA_OVERRIDE;
	return r;
}

/* ------------------------------------------------------------------ scopes */

value_t *lookup(struct frame *f, const char *name)
{
	value_t *v;
	struct frame *c;
	struct vscope *up;

	for (c = f; c; c = c->outer_comp) {
		if (c->locals && (v = vdict_gets(c->locals, name)))
			return v;
		if (c->closure && (v = vdict_gets(c->closure, name)))
			return v;
		for (up = c->closure_up; up; up = up->up)
			if ((v = vdict_gets(up->d, name)))
				return v;
	}
	if (f->globals && (v = vdict_gets(f->globals->dict, name)))
		return v;
	if ((v = vdict_gets(f->in->builtins, name)))
		return v;
	return f->globals ? ns_star_ext(f->in, f->globals, name) : NULL;
}

static int declared_global(const struct frame *f, const char *name)
{
	size_t i;

	if (!f->globals_decl)
		return 0;
	for (i = 0; i < f->globals_decl->n; i++)
		if (!strcmp(f->globals_decl->s[i], name))
			return 1;
	return 0;
}

void scope_bind(struct frame *f, const char *name, value_t *v)
{
	if (!f->locals && f->globals && f->globals == f->in->entry_ns && value_is_known_scalar(v))
		v = overridden(f->in, name, v);
	if (f->mode != M_FWD && v->k == VK_INST && v->u.inst->mod != VM_NONE && !v->u.inst->bound_name &&
	    strcmp(name, "self") && !(f->cls && f->locals == f->cls->ns)) {
		struct interp *in = f->in;

		v->u.inst->bound_name = astr(in, name);
		if (v->u.inst->mod != VM_LAYER) {
			GROW(in->models, in->amodels, in->nmodels + 1);
			GROW(in->model_names, in->amodel_names, in->nmodels + 1);
			in->models[in->nmodels] = v->u.inst;
			in->model_names[in->nmodels] = v->u.inst->constructed_at;
			in->nmodels++;
		}
	}
	if (f->locals && f->closure && f->nonlocals_decl) {
		size_t i;

		/* `nonlocal name`: the enclosing function's binding changes */
		for (i = 0; i < f->nonlocals_decl->n; i++)
			if (!strcmp(f->nonlocals_decl->s[i], name)) {
				struct vdict *d = f->closure;
				struct vscope *up;

				/* the nearest enclosing function that binds it */
				for (up = f->closure_up; !vdict_gets(d, name) && up; up = up->up)
					if (vdict_gets(up->d, name))
						d = up->d;
				vdict_sets(f->in->a, d, name, v);
				return;
			}
	}
	if (f->locals && !declared_global(f, name)) {
		vdict_sets(f->in->a, f->locals, name, v);
	} else {
		/* a function's `global g; g = ...` under an undecided `if`:
		 * journalled as an attribute write is, so that the two paths
		 * merge (unknown where they differ), not the later one wins */
		if (f->locals)
			journal_note(f->in, f->globals->dict, name);
		vdict_sets(f->in->a, f->globals->dict, name, v);
	}
}
