/*
 * yacssub.c -- objects of a repository class that derives from a yacs
 * node class.
 *
 *     from fvcore.common.config import CfgNode as _CfgNode
 *     class CfgNode(_CfgNode):
 *         def merge_from_file(self, cfg_filename, allow_unsafe=True):
 *             loaded_cfg = self.load_yaml_with_base(cfg_filename, allow_unsafe=allow_unsafe)
 *             loaded_cfg = type(self)(loaded_cfg)
 *             ...
 *             self.merge_from_other_cfg(loaded_cfg)
 *     _C = CfgNode(); _C.MODEL = CfgNode(); _C.MODEL.DEVICE = "cuda"
 *
 * detectron2's configuration (and that of the projects built on it): the
 * job's defaults, its YAML layers and its command-line overrides live in
 * objects of such a class.  When the class's outside base is a node class
 * the catalog names (yacs_node_classes) and no class of the repository on
 * its MRO defines __new__ or __init__ (the library's constructor makes the
 * object), the object is that library's node (yacs.c), the repository
 * class noted on it and on its child nodes (vdict.cls, as the library's
 * constructor makes the children with cls(v)).  On it dictsub.c answers
 * an attribute by Python's order: the repository class's own members (its
 * merge_from_file above, run as written), then the node class's methods
 * (yacs.c), then the node's items (yacs's __getattr__); a write goes to
 * the class's __setattr__ if it has one, else to the node (yacs_set).
 * type(obj) is the repository class, so type(self)(loaded_cfg) makes one
 * more such node.
 *
 * yacssub_new() answers NULL when c is no such class, or when a class of
 * the repository on the way constructs it itself (object.c goes on as
 * before: an object whose attributes are not read as a node's).  Values
 * live in the interpreter's arena; nothing here fails.
 */
#include "config.h"
#include "internal.h"

/* Does a class of the repository on c's MRO (vclass.mro: the
 * repository's classes only) define `name`? */
static int repo_defines(const struct vclass *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nmro; i++)
		if (vdict_gets(c->mro[i]->ns, name))
			return 1;
	return 0;
}

value_t *yacssub_new(struct frame *f, struct vclass *c, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	const char *ext = class_ext_base(c), *base;

	if (!ext || !(base = yacs_node_class(f->in, canon_ext(f->in, ext))))
		return NULL;
	if (repo_defines(c, "__new__") || repo_defines(c, "__init__"))
		return NULL;
	return yacs_new(f, base, c, args, nargs, kw, site);
}
