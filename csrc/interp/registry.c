/*
 * registry.c -- a library's registry of functions filed by name.
 *
 * timm's pattern, which many vision repositories follow:
 *
 *     from timm.models.registry import register_model
 *     @register_model
 *     def convnext_tiny(pretrained=False, **kwargs):
 *         return ConvNeXt(depths=[3, 3, 9, 3], **kwargs)
 *     ...
 *     model = create_model(args.model, pretrained=False, drop_path_rate=0.1)
 *
 * The decorator (catalog name_registrars) files the function under its
 * __name__ and returns it unchanged; the factory (catalog
 * name_registry_factories) looks the name up and calls what is filed.
 * Without this, ecg read create_model as the library's own model, built
 * somewhere it cannot see: no model, and the job's other objects taken
 * for one.
 *
 * What is filed is kept in interp.registry: a dict of str keys
 * "<registry>:<name>", values the functions (the arena's, as the
 * interpreter's).  A name is filed only by a decorator read, on the path
 * Python runs: the modules the job imports (`import models.convnext`).
 *
 * registry_file() answers 1 when it filed fn (the decorator is then
 * done: it returns fn), 0 when deco is no registrar; it never fails.
 * registry_create() returns what the filed function returned, or NULL
 * when d is no factory, the name is not a known str, it names a hub's
 * model ("hf-hub:...", "timm/...") or the repository filed no such
 * name: the caller goes on as before (a library's module).
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

#define REG_KEY_MAX 256

/* "<registry>:<name>" in buf, or NULL when it does not fit. */
static const char *reg_key(char *buf, const char *reg, const char *name, size_t nlen)
{
	size_t rl = strlen(reg);

	if (rl + 1 + nlen + 1 > REG_KEY_MAX)
		return NULL;
	memcpy(buf, reg, rl);
	buf[rl] = ':';
	memcpy(buf + rl + 1, name, nlen);
	buf[rl + 1 + nlen] = 0;
	return buf;
}

/* The __name__ of a function of the repository: its qualname's last part. */
static const char *fn_name(const struct vfunc *fn)
{
	const char *q = fn->qualname, *dot;

	if (!q)
		return NULL;
	dot = strrchr(q, '.');
	return dot ? dot + 1 : q;
}

int registry_file(struct frame *f, const value_t *deco, value_t *fn)
{
	struct interp *in = f->in;
	const char *reg, *name;
	char buf[REG_KEY_MAX];
	const char *key;

	if (objreg_file(f, deco, fn))   /* @REGISTRY.register() of a registry object */
		return 1;
	if (!deco || deco->k != VK_EXT || !fn || fn->k != VK_FUNC)
		return 0;
	if (!(reg = catalog_fact(in->cat, CATALOG_F_NAME_REGISTRARS, canon_ext(in, deco->u.ext))))
		return 0;
	if (!(name = fn_name(fn->u.fn)) || !(key = reg_key(buf, reg, name, strlen(name))))
		return 1;       /* filed where no call can find it: the function all the same */
	if (!in->registry)
		in->registry = vdict_new(in->a);
	vdict_sets(in->a, in->registry, astr(in, key), fn);
	return 1;
}

/* The name asked for: the first argument, or model_name=. */
static const value_t *asked_name(value_t **args, size_t nargs, struct vdict *kw)
{
	if (nargs >= 1)
		return args[0];
	return kw ? vdict_gets(kw, "model_name") : NULL;
}

value_t *registry_create(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *reg, *s, *dot, *key;
	const value_t *name;
	value_t *fn, *pretrained = NULL;
	struct vdict *pass;
	char buf[REG_KEY_MAX];
	size_t i, nlen;

	if (!in->registry || !(reg = catalog_fact(in->cat, CATALOG_F_NAME_REGISTRY_FACTORIES, d)))
		return NULL;
	name = asked_name(args, nargs, kw);
	if (!name || name->k != VK_STR || nargs > 2)
		return NULL;
	s = name->u.str.s;
	if (strchr(s, ':') || strchr(s, '/'))
		return NULL;            /* a hub's model: its config names the architecture */
	dot = strchr(s, '.');
	nlen = dot ? (size_t)(dot - s) : strlen(s);
	if (!(key = reg_key(buf, reg, s, nlen)) || !(fn = vdict_gets(in->registry, key)))
		return NULL;
	/* fn(pretrained=pretrained, **kwargs): kwargs without the factory's
	 * own keywords and without those whose value is None */
	pass = vdict_new(in->a);
	if (nargs == 2)
		pretrained = args[1];
	for (i = 0; kw && i < kw->n; i++) {
		const value_t *k = kw->keys[i];

		if (k->k != VK_STR)
			return NULL;
		if (!strcmp(k->u.str.s, "model_name"))
			continue;
		if (!strcmp(k->u.str.s, "pretrained")) {
			pretrained = kw->vals[i];
			continue;
		}
		if (catalog_fact(in->cat, CATALOG_F_NAME_REGISTRY_HELD_KEYWORDS, k->u.str.s) ||
		    kw->vals[i]->k == VK_NONE)
			continue;
		vdict_sets(in->a, pass, k->u.str.s, kw->vals[i]);
	}
	vdict_sets(in->a, pass, "pretrained", pretrained ? pretrained : v_bool(in->a, 0));
	return call(f, fn, NULL, 0, pass, site);
}
