/* interp/argpsub.c - a repository class deriving from argparse.ArgumentParser
 *
 * class P(argparse.ArgumentParser) (torchtune's TuneRecipeArgumentParser:
 * an --config option added in __init__, parse_known_args overridden to
 * load a YAML file's values as defaults and parse again) makes objects
 * that are parsers: an object of such a class carries a parser's state
 * (argparse.c: ext "argparse.ArgumentParser", its option list), so that
 *   - self.add_argument / self.set_defaults / self.parse_args, not defined
 *     by the class, are the parser's (attr.c inst_attr: the class's own
 *     methods first, then argp_method);
 *   - super().add_argument / super().parse_known_args in the class's
 *     methods are the parser's (argp_super_attr, asked by attr.c
 *     super_attr after the repository classes of the MRO);
 *   - super().__init__(parents=[...]) copies the parents' options
 *     (argp_base_init, from the base constructor of module.c).
 * The state belongs to the object (struct vinst), as a parser's does.
 * Nothing here knows any repository: only argparse's ArgumentParser.
 */
#include "config.h"

#include "internal.h"

static int derives_from_argparser(struct interp *in, struct vclass *c)
{
	const char *b = c ? class_ext_base(c) : NULL;

	return b && !strcmp(canon_ext(in, b), "argparse.ArgumentParser");
}

/* m, a new object of a repository class: a parser when the class derives
 * from ArgumentParser (called by object.c instantiate before __init__). */
void argp_subclass_init(struct interp *in, struct vinst *m)
{
	if (m->mod == VM_NONE && !m->ext && derives_from_argparser(in, m->cls))
		argp_init_inst(in, m);
}

/* super().name in a method of such a class, no repository class of the
 * MRO defining name: the parser's method bound to self, or NULL. */
value_t *argp_super_attr(struct interp *in, value_t *self, const char *name)
{
	if (self->k != VK_INST || !self->u.inst->cls || !is_argparser(self))
		return NULL;
	return argp_method(in, self, name);
}

/* super().__init__(..., parents=[...]) of such a class. */
void argp_base_init(struct interp *in, value_t *self, const struct vdict *kw)
{
	if (self->k == VK_INST && self->u.inst->cls && is_argparser(self))
		argp_parents(in, self, kw);
}
