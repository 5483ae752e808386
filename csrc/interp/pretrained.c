/* interp/pretrained.c - a loader that builds its class from a download
 * and the components it is given, read not run
 *
 * diffusers' `StableDiffusionControlNetPipeline.from_pretrained(path,
 * unet=unet, safety_checker=None, torch_dtype=...)` (catalog
 * component_loaders: the loader's module and qualified name).  The real
 * method reads model_index.json of a downloaded model, loads each
 * component it lists and builds the class it was called on with
 * cls(**components), the objects given by keyword taking the place of the
 * ones it would load.  Its body loops over that downloaded config, so
 * reading it line by line loses what the job pinned down: the keys of
 * the dict it builds are not known, and every component, the given ones
 * too, came out not known (`self.safety_checker is None` then read False
 * where the job passed None: a safety checker's rows stated that never run).
 *
 * pretrained_call() builds the class the loader was called on as the
 * loader does: each parameter of its __init__ given by keyword gets that
 * object; each other one gets a value not known (what the download
 * holds), with the reason.  It answers only when the receiver is a
 * repository class below the loader's own (the loader called on its
 * own class takes the class from the download: _get_pipeline_class) and
 * no custom_pipeline is named; else NULL and the caller reads the body.
 *
 * Returns NULL (nothing done) or the instance (never NULL); allocates
 * only in the interpreter's arena; does not fail otherwise.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define PRETRAINED_REASON "a component the loader reads from the downloaded model's files (not in the code)"

/* Is "modname.qualname" of fn, or its tail after any '.' of modname (a
 * src/ layout: src.diffusers.pipelines...), listed in component_loaders? */
static int is_component_loader(struct interp *in, const struct vfunc *fn)
{
	const char *full;
	size_t i, n;

	if (!fn->file || !fn->file->modname || !fn->qualname)
		return 0;
	full = adot(in, fn->file->modname, fn->qualname);
	if (catalog_fact(in->cat, CATALOG_F_COMPONENT_LOADERS, full))
		return 1;
	for (i = 0, n = strlen(fn->file->modname); i < n; i++)
		if (full[i] == '.' && catalog_fact(in->cat, CATALOG_F_COMPONENT_LOADERS, full + i + 1))
			return 1;
	return 0;
}

/* Is c below base in its method order, and not base itself? */
static int below(const struct vclass *c, const struct vclass *base)
{
	size_t i;

	for (i = 1; i < c->nmro; i++)
		if (c->mro[i] == base)
			return 1;
	return 0;
}

/* Bind one __init__ parameter: the keyword given, else not known. */
static void bind_component(struct frame *f, struct vdict *out, struct vdict *kw, const char *name,
                           const struct ast_hdr *site)
{
	value_t *v = kw ? vdict_gets(kw, name) : NULL;

	vdict_sets(f->in->a, out, name, v ? v : unknown_at(f, site, PRETRAINED_REASON));
}

value_t *pretrained_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vfunc *loader;
	struct vclass *c, *owner = NULL;
	const struct ast_arguments *a;
	value_t *init;
	struct vdict *ckw;
	size_t i;

	(void)args;
	(void)nargs;
	if (fn->k != VK_BOUND || fn->u.bound.fn->k != VK_FUNC || !fn->u.bound.self ||
	    fn->u.bound.self->k != VK_CLASS)
		return NULL;
	loader = fn->u.bound.fn->u.fn;
	c = fn->u.bound.self->u.cls;
	if (!loader->is_classmethod || !loader->owner || !is_component_loader(in, loader) || !below(c, loader->owner))
		return NULL;
	if (kw && vdict_gets(kw, "custom_pipeline"))
		return NULL;
	init = class_lookup(c, "__init__", &owner);
	if (!init || init->k != VK_FUNC || !owner || owner == loader->owner || !(a = fn_args(init->u.fn->def)))
		return NULL;
	ckw = vdict_new(in->a);
	for (i = 0; i < a->posonlyargs.n + a->args.n; i++) {
		const struct ast_arg *p = i < a->posonlyargs.n ? AST_AS(a->posonlyargs.items[i], arg)
		                                                : AST_AS(a->args.items[i - a->posonlyargs.n], arg);

		if (i > 0)       /* self */
			bind_component(f, ckw, kw, p->arg, site);
	}
	for (i = 0; i < a->kwonlyargs.n; i++)
		bind_component(f, ckw, kw, AST_AS(a->kwonlyargs.items[i], arg)->arg, site);
	return instantiate(f, c, NULL, 0, ckw, site);
}
