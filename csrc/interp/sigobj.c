/*
 * sigobj.c -- inspect.signature() of the repository's functions, and
 * inspect's is-tests.
 *
 * Code that adapts a call to what its callee takes reads the callee's
 * parameters:
 *
 *     signature = inspect.signature(from_config_func)     # detectron2's
 *     if list(signature.parameters.keys())[0] != "cfg": raise ...
 *     support_var_arg = any(p.kind in [p.VAR_POSITIONAL, p.VAR_KEYWORD]
 *                           for p in signature.parameters.values())
 *
 *     if "generator" in inspect.signature(fn).parameters: ...
 *
 * Without this both ways of such an `if` were read, and what came out of
 * them (the arguments @configurable builds a model with) was not known.
 *
 * inspect.signature(obj), as Python makes it, for obj one of:
 *   - a function of the repository (a def or lambda): its parameters in
 *     order, following functools.wraps to the function it shows (as
 *     inspect.signature's follow_wrapped does);
 *   - such a function bound to an object or a class (a method, a
 *     classmethod read through its class): without the first parameter;
 *   - a class of the repository whose __init__ the repository defines
 *     (and no __new__): __init__'s, without self.
 * Anything else (a library's function, a builtin) answers NULL: the call
 * is read as before (a value not known).
 *
 * The Signature is an object of class inspect.Signature whose
 * `parameters` is a dict (ordered, as Python's mapping proxy) of name ->
 * an inspect.Parameter object with `name`, `kind` (the int of inspect's
 * _ParameterKind, an IntEnum: POSITIONAL_ONLY 0 .. VAR_KEYWORD 4), the
 * five kind constants, `default` (the value evaluated at the def, else
 * not known; inspect.Parameter.empty when there is none) and `annotation`
 * (not read: not known).
 *
 * inspect.isfunction / ismethod / isclass answer True or False for the
 * values whose kind decides it (a repository function, a bound one, a
 * class; None, numbers, strings and containers are none of them), NULL
 * for others.  Values live in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

enum { POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD };

static const char *const kind_names[] = {
	"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD",
};

#define EMPTY "inspect.Parameter.empty"

static value_t *param_obj(struct frame *f, const char *name, int kind, value_t *dflt, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *p = new_inst(in);
	size_t k;

	p->ext = "inspect.Parameter";
	vdict_sets(in->a, p->attrs, "name", v_str(in->a, name));
	vdict_sets(in->a, p->attrs, "kind", v_int(in->a, kind));
	vdict_sets(in->a, p->attrs, "default", dflt ? dflt : v_ext(in->a, EMPTY));
	vdict_sets(in->a, p->attrs, "annotation", unknown_at(f, site, "a parameter's annotation (not read)"));
	vdict_sets(in->a, p->attrs, "empty", v_ext(in->a, EMPTY));
	for (k = 0; k < NTAB_LEN(kind_names); k++)
		vdict_sets(in->a, p->attrs, kind_names[k], v_int(in->a, (long long)k));
	return mk_inst_value(in, p);
}

/* The parameters of fn's def into params, the first `skip` positional
 * ones left out; 0 when fn has no def to read. */
static int read_params(struct frame *f, const struct vfunc *fn, size_t skip, struct vdict *params,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct ast_arguments *a = fn_args(fn->def);
	size_t npos, i, j, first_dflt;

	if (!a)
		return 0;
	npos = a->posonlyargs.n + a->args.n;
	/* defaults belong to the last positionals; fn->defaults holds them
	 * evaluated, in order, when the def was read */
	first_dflt = npos >= a->defaults.n ? npos - a->defaults.n : 0;
	for (i = 0; i < npos; i++) {
		const struct ast_arg *p = AST_AS(i < a->posonlyargs.n ? a->posonlyargs.items[i]
		                                                        : a->args.items[i - a->posonlyargs.n], arg);
		value_t *d = NULL;

		if (i < skip)
			continue;
		if (i >= first_dflt) {
			j = i - first_dflt;
			d = j < fn->ndefaults && fn->defaults[j] ? fn->defaults[j]
			                                        : unknown_at(f, site, "a parameter's default (not evaluated)");
		}
		vdict_sets(in->a, params, p->arg,
		           param_obj(f, p->arg, i < a->posonlyargs.n ? POSITIONAL_ONLY : POSITIONAL_OR_KEYWORD, d, site));
	}
	if (skip > npos && !a->vararg)
		return 0;   /* a bound method with nothing to bind to: not read */
	if (a->vararg)
		vdict_sets(in->a, params, a->vararg->arg, param_obj(f, a->vararg->arg, VAR_POSITIONAL, NULL, site));
	for (i = 0; i < a->kwonlyargs.n; i++) {
		const char *name = AST_AS(a->kwonlyargs.items[i], arg)->arg;
		value_t *d = NULL;

		if (i < a->kw_defaults.n && a->kw_defaults.items[i]) {
			d = fn->kwdefaults ? vdict_gets(fn->kwdefaults, name) : NULL;
			if (!d)
				d = unknown_at(f, site, "a parameter's default (not evaluated)");
		}
		vdict_sets(in->a, params, name, param_obj(f, name, KEYWORD_ONLY, d, site));
	}
	if (a->kwarg)
		vdict_sets(in->a, params, a->kwarg->arg, param_obj(f, a->kwarg->arg, VAR_KEYWORD, NULL, site));
	return 1;
}

/* The function whose parameters obj shows and how many of its first
 * positionals are bound, or NULL. */
static const struct vfunc *sig_target(const value_t *obj, size_t *skip)
{
	const value_t *v = obj;
	int hops;

	*skip = 0;
	if (v->k == VK_BOUND) {
		*skip = 1;
		v = v->u.bound.fn;
	} else if (v->k == VK_CLASS) {
		struct vclass *c = v->u.cls;

		if (class_lookup(c, "__new__", NULL))
			return NULL;
		v = class_lookup(c, "__init__", NULL);
		*skip = 1;
	}
	for (hops = 0; v && v->k == VK_FUNC && v->u.fn->wraps && hops < 8; hops++) {
		if (v->u.fn->wraps->k == VK_BOUND) {
			*skip += 1;
			v = v->u.fn->wraps->u.bound.fn;
		} else
			v = v->u.fn->wraps;
	}
	if (!v || v->k != VK_FUNC || v->u.fn->is_static)
		return NULL;
	return v->u.fn;
}

value_t *inspect_signature(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vfunc *fn;
	struct vinst *s;
	value_t *params;
	size_t skip;

	if (nargs != 1 || kw || !(fn = sig_target(args[0], &skip)))
		return NULL;
	params = v_dict(in->a);
	if (!read_params(f, fn, skip, params->u.dict, site))
		return NULL;
	s = new_inst(in);
	s->ext = "inspect.Signature";
	vdict_sets(in->a, s->attrs, "parameters", params);
	vdict_sets(in->a, s->attrs, "return_annotation", unknown_at(f, site, "a return annotation (not read)"));
	return mk_inst_value(in, s);
}

/* 1 / 0 when v's kind decides whether it is a function, a method or a
 * class; -1 when it does not */
static int plain_value(const value_t *v)
{
	switch (v->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
	case VK_TUPLE: case VK_LIST: case VK_DICT: case VK_RANGE: case VK_SLICE: case VK_TENSOR:
		return 1;
	default:
		return 0;
	}
}

value_t *inspect_is(struct frame *f, const char *what, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	const value_t *v;
	int r;

	if (nargs != 1)
		return NULL;
	v = args[0];
	if (plain_value(v))
		return v_bool(in->a, 0);
	if (v->k != VK_FUNC && v->k != VK_BOUND && v->k != VK_CLASS &&
	    !(v->k == VK_INST && v->u.inst->cls))
		return NULL;   /* a library's object, a builtin, a value not known */
	if (!strcmp(what, "isfunction"))
		r = v->k == VK_FUNC;
	else if (!strcmp(what, "ismethod")) {
		if (v->k == VK_BOUND && v->u.bound.fn->k != VK_FUNC)
			return NULL;   /* a builtin's method is no method to inspect */
		r = v->k == VK_BOUND;
	}
	else if (!strcmp(what, "isclass"))
		r = v->k == VK_CLASS;
	else
		return NULL;
	return v_bool(in->a, r);
}
