/*
 * wrapkw.c -- the module a wrapper is handed by keyword.
 *
 *     model = torch.nn.parallel.DistributedDataParallel(
 *         module=model, device_ids=[cur_device], output_device=cur_device)
 *
 * torch's wrappers take the module they wrap as their first parameter;
 * a call may name it instead (DDP's and DataParallel's `module`,
 * FSDP's and fully_shard's `module`, torch.compile's `model`).  catalog
 * wrapper_module_keywords maps a wrapper (its dotted name, or for the
 * ones imported under another path the class name alone) to that
 * parameter.  For a call with no positional argument that gives it,
 * wrap_module_by_keyword() hands back the arguments as the positional
 * form would be: the module first, the keywords without it -- so the
 * wrap (its model, its schedule event, its keywords) is read as
 * DDP(model, ...) is.  wrap_target_text() is the wrapped expression's
 * source text in either form.
 *
 * Contract: nothing is changed when the call has a positional argument,
 * when the wrapper has no such parameter in the catalogue or when the
 * keyword is not given.  What it makes lives in the interpreter's arena;
 * the caller's arrays are never written.  Never fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

/* the catalogue's keyword of the module d wraps: by its dotted name, else
 * by the class name alone (DDP imported under another path) */
static const char *module_keyword(const struct catalog *cat, const char *d)
{
	const char *k = catalog_fact(cat, CATALOG_F_WRAPPER_MODULE_KEYWORDS, d);
	const char *last = strrchr(d, '.');

	if (k || !last)
		return k;
	return catalog_fact(cat, CATALOG_F_WRAPPER_MODULE_KEYWORDS, last + 1);
}

value_t **wrap_module_by_keyword(struct interp *in, const char *d, value_t **args, size_t *nargs,
                                 struct vdict **kw)
{
	const char *key;
	value_t *m, **one;
	struct vdict *rest;
	size_t i;

	if (*nargs || !*kw || !is_wrapper(in->cat, d) || !(key = module_keyword(in->cat, d)) ||
	    !(m = vdict_gets(*kw, key)))
		return args;
	rest = vdict_new(in->a);
	for (i = 0; i < (*kw)->n; i++)
		if (!((*kw)->keys[i]->k == VK_STR && !strcmp((*kw)->keys[i]->u.str.s, key)))
			vdict_set(in->a, rest, (*kw)->keys[i], (*kw)->vals[i]);
	one = ast_arena_alloc(in->a, sizeof *one);
	one[0] = m;
	*nargs = 1;
	*kw = rest;
	return one;
}

const char *wrap_target_text(struct frame *f, const char *d, const struct ast_hdr *site)
{
	const struct ast_Call *c = AST_IS(site, Call) ? AST_AS(site, Call) : NULL;
	const char *key;
	size_t k;

	if (!c)
		return NULL;
	if (c->args.n)
		return text_of(f, c->args.items[0]);
	if (!(key = module_keyword(f->in->cat, d)))
		return NULL;
	for (k = 0; k < c->keywords.n; k++) {
		const struct ast_keyword *kwd = AST_AS(c->keywords.items[k], keyword);

		if (kwd->arg && !strcmp(kwd->arg, key))
			return text_of(f, kwd->value);
	}
	return NULL;
}
