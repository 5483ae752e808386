/* interp/dictrefill.c - a loop that rewrites every entry of a dict whose
 * keys are not known
 *
 *     state_dict = net.state_dict()            # device tensors, names not known
 *     for key, param in state_dict.items():
 *         if key.startswith('module.'):
 *             key = key[7:]
 *         state_dict[key] = param.cpu()
 *     torch.save(save_dict, path)              # host tensors only: no sync
 *
 * A loop over a dict d (`d.items()`, `d.keys()`, `d`) whose keys are not
 * known is read once for all (exec.c).  When its body stores into d at its
 * top level -- `d[k] = v`, not under an `if`, `with`, `try` or an inner
 * loop -- and holds no `break`, `continue`, `return` or `raise` outside
 * inner loops and functions, every pass stores once, and no pass adds a
 * key (Python stops a loop over a dict whose size changed: RuntimeError),
 * so the stores rewrite the entries d holds: after the loop, what d holds
 * under keys not known is what those stores put (anykey / anyval of the
 * pass alone), not what it held before.  (A pass that renames a key onto
 * another one d holds leaves that key's old value: read as rewritten, a
 * row missed rather than a wrong one.)
 *
 * refill_begin() checks the pattern and clears d's record of unlisted
 * entries (the loop's item was bound before, from the old one);
 * refill_end() puts the old record back when the pass stored nothing
 * under a key not known or left the loop abnormally.  Only a dict that
 * lists no key of its own (d->n == 0) is rewritten.  Nothing allocates.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* the dict's name in `for ... in NAME.items()` / `NAME.keys()` / `NAME` */
static const char *iter_dict_name(const struct ast_hdr *it)
{
	if (AST_IS(it, Name))
		return AST_AS(it, Name)->id;
	if (AST_IS(it, Call) && !AST_AS(it, Call)->args.n && !AST_AS(it, Call)->keywords.n &&
	    AST_IS(AST_AS(it, Call)->func, Attribute)) {
		const struct ast_Attribute *a = AST_AS(AST_AS(it, Call)->func, Attribute);

		if (AST_IS(a->value, Name) && (!strcmp(a->attr, "items") || !strcmp(a->attr, "keys")))
			return AST_AS(a->value, Name)->id;
	}
	return NULL;
}

/* a way out of a pass: break, continue, return, raise (not in an inner
 * loop's body or a nested scope) */
static int exit_cb(const struct ast_hdr *n, void *ctx)
{
	(void)ctx;
	if (AST_IS(n, Break) || AST_IS(n, Continue) || AST_IS(n, Return) || AST_IS(n, Raise))
		return 1;
	if (AST_IS(n, For) || AST_IS(n, AsyncFor) || AST_IS(n, While) || AST_IS(n, FunctionDef) ||
	    AST_IS(n, AsyncFunctionDef) || AST_IS(n, Lambda) || AST_IS(n, ClassDef))
		return 0;
	return ast_visit_children(n, exit_cb, NULL);
}

/* `NAME[...] = ...` */
static int stores_into(const struct ast_hdr *st, const char *name)
{
	const struct ast_Assign *as;

	if (!AST_IS(st, Assign))
		return 0;
	as = AST_AS(st, Assign);
	return as->targets.n == 1 && AST_IS(as->targets.items[0], Subscript) &&
	       AST_IS(AST_AS(as->targets.items[0], Subscript)->value, Name) &&
	       !strcmp(AST_AS(AST_AS(as->targets.items[0], Subscript)->value, Name)->id, name);
}

int refill_begin(struct frame *f, const struct ast_For *s, struct dict_refill *r)
{
	const char *name = iter_dict_name(s->iter);
	value_t *d;
	unsigned i;
	int store = 0;

	r->d = NULL;
	if (!name || f->mode == M_FWD || !(d = lookup(f, name)) || d->k != VK_DICT || d->u.dict->n ||
	    !d->u.dict->anykey || s->orelse.n)
		return 0;
	for (i = 0; i < s->body.n; i++) {
		if (exit_cb(s->body.items[i], NULL))
			return 0;
		store |= stores_into(s->body.items[i], name);
	}
	if (!store)
		return 0;
	r->d = d->u.dict;
	r->anykey = r->d->anykey;
	r->anyval = r->d->anyval;
	r->anymixed = r->d->anymixed;
	r->d->anykey = 0;
	r->d->anyval = NULL;
	r->d->anymixed = 0;
	return 1;
}

void refill_end(struct dict_refill *r, enum flow fl)
{
	if (!r->d)
		return;
	if (fl == FL_NORMAL && r->d->anykey && !r->d->n)
		return;     /* rewritten */
	r->d->anykey = r->anykey > r->d->anykey ? r->anykey : r->d->anykey;
	if (!r->d->anyval || r->anykey == 2)
		r->d->anyval = r->anyval;
	r->d->anymixed |= r->anymixed;
}
