/*
 * objreg.c -- a library's registry object, filled by name and read back
 * by name.
 *
 * fvcore's Registry (fvcore/common/registry.py), through which detectron2
 * and the projects built on it (and others) build their models:
 *
 *     from fvcore.common.registry import Registry
 *     META_ARCH_REGISTRY = Registry("META_ARCH")
 *
 *     @META_ARCH_REGISTRY.register()
 *     class GeneralizedRCNN(nn.Module): ...
 *
 *     BACKBONE_REGISTRY.register(build_resnet_backbone)   # the call form
 *     model = META_ARCH_REGISTRY.get(cfg.MODEL.META_ARCHITECTURE)(cfg)
 *
 * Without this, the registry was an object of an outside class: get()
 * gave a value not known, and the job's model was never built.
 *
 * An object of a class of catalog name_registry_classes is an instance of
 * that outside class (vinst.ext) holding, as fvcore's does, `_name` and
 * `_obj_map` (a dict).  Its methods, as fvcore documents and writes them:
 *
 *   register()      a decorator that files what it decorates (a class or
 *                   a function of the repository) under its __name__ and
 *                   returns it unchanged;
 *   register(obj)   files obj so, and returns None;
 *   get(name)       what is filed under name.  A name not known, or one
 *                   nothing was filed under (fvcore raises KeyError; here
 *                   the module that files it may simply not have been
 *                   read), gives a value not known, never a guess.
 *
 * A filing under an undecided `if` is journaled like any dict store
 * (journal.c), so it holds on that path only.  Something filed whose
 * __name__ is not known is filed nowhere (a get of its name then finds
 * nothing: not known).
 *
 * objreg_new() answers NULL when d is no such class; objreg_method()
 * NULL when obj is not such an object or name no method emulated here;
 * objreg_file() 1 when deco is a registry's decorator (what it decorates
 * is then filed, and stays as it is), else 0.  Values live in the
 * interpreter's arena; nothing here fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

#define MAP_ATTR "_obj_map"

static int is_registry(struct interp *in, const value_t *obj)
{
	return obj && obj->k == VK_INST && obj->u.inst->ext && !obj->u.inst->cls &&
	       catalog_fact(in->cat, CATALOG_F_NAME_REGISTRY_CLASSES, obj->u.inst->ext);
}

/* The registry's map, or NULL when something replaced it. */
static struct vdict *obj_map(const value_t *reg)
{
	const value_t *m = vdict_gets(reg->u.inst->attrs, MAP_ATTR);

	return m && m->k == VK_DICT ? m->u.dict : NULL;
}

/* __name__ of what is filed: a repository class's or function's own name,
 * or NULL when it is neither. */
static const char *dunder_name(const value_t *obj)
{
	const char *q, *dot;

	if (obj->k == VK_CLASS)
		return obj->u.cls->name;
	if (obj->k != VK_FUNC || !(q = obj->u.fn->qualname))
		return NULL;
	dot = strrchr(q, '.');
	return dot ? dot + 1 : q;
}

static void file_obj(struct interp *in, value_t *reg, value_t *obj)
{
	struct vdict *map = obj_map(reg);
	const char *name = dunder_name(obj);
	value_t *key;

	if (!map || !name)
		return;
	key = v_str(in->a, name);
	journal_note_key(in, map, key);
	vdict_set(in->a, map, key, obj);
}

value_t *objreg_new(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o;
	value_t *name;

	if (!catalog_fact(in->cat, CATALOG_F_NAME_REGISTRY_CLASSES, d))
		return NULL;
	name = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "name") : NULL;
	o = new_inst(in);
	o->ext = d;
	o->constructed_at = anchor_at(f, site);
	vdict_sets(in->a, o->attrs, "_name", name ? name : unknown_at(f, site, "a registry's name not given"));
	vdict_sets(in->a, o->attrs, MAP_ATTR, v_dict(in->a));
	return mk_inst_value(in, o);
}

/* register(obj=None) */
static value_t *m_register(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *obj = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "obj") : NULL;

	(void)site;
	if (!obj || obj->k == VK_NONE)
		return mk_builtin(in, BI_M_OBJREG_DECO, fn->u.bi.self);
	file_obj(in, fn->u.bi.self, obj);
	return v_none(in->a);
}

/* the decorator register() returned, applied: deco(func_or_class) */
static value_t *m_deco(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	(void)kw;
	if (nargs != 1)
		return unknown_at(f, site, "a registry's decorator applied to other than one object");
	file_obj(f->in, fn->u.bi.self, args[0]);
	return args[0];
}

/* get(name) */
static value_t *m_get(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *name = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "name") : NULL, *r;
	struct vdict *map = obj_map(fn->u.bi.self);

	if (!name || name->k != VK_STR)
		return unknown_at(f, site, "a registry's entry by a name not known");
	if (!map || !(r = vdict_gets(map, name->u.str.s)))
		return unknown_at(f, site, afmt(in, "a registry's entry '%s' that no module read files", name->u.str.s));
	return r;
}

static const struct native objreg_methods[] = {
	{ "(deco)", m_deco, BI_M_OBJREG_DECO },   /* not an attribute: register()'s result */
	{ "get", m_get, BI_M_OBJREG_GET },
	{ "register", m_register, BI_M_OBJREG_REGISTER },
};

const struct ntab objreg_methods_ntab = NTAB(objreg_methods);

value_t *objreg_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;

	if (!is_registry(in, obj) || name[0] == '(' || !(m = NTAB_FIND(objreg_methods, name)))
		return NULL;
	return mk_builtin(in, (int)m->id, obj);
}

int objreg_file(struct frame *f, const value_t *deco, value_t *obj)
{
	if (!deco || deco->k != VK_BUILTIN || deco->u.bi.id != BI_M_OBJREG_DECO)
		return 0;
	file_obj(f->in, deco->u.bi.self, obj);
	return 1;
}
