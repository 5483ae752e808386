/* interp/lazybind.c - a name an except handler binds on its first use
 *
 *     try:                                     try:
 *         x, y = next(self.iter)                   x_ref = next(iter_ref).to(device)
 *     except (AttributeError, StopIteration):  except:
 *         self.iter = iter(self.loader)            iter_ref = iter(loader_ref)
 *         x, y = next(self.iter)                   x_ref = next(iter_ref).to(device)
 *
 * The first time the `try` runs, its body's first statement reads a name
 * the function has not bound yet (an UnboundLocalError, a NameError) or
 * an attribute the instance does not have (an AttributeError): Python
 * raises there, before the statement does anything, and the handler that
 * catches it binds the name and does the work.  Every later time (the
 * next call of the method, the next pass of the loop) the name is bound
 * and the body runs.
 *
 * lazybind_handler() finds that handler, surely: the body's first
 * statement reads the name (a Name, or NAME.attr of a local instance);
 * the name is bound nowhere the frame sees (lookup), or the instance --
 * of a repository class with no outside base and no __getattr__, whose
 * attributes are all known -- has no such attribute, nor its class; a
 * handler catching the exception (named, Exception, BaseException, bare)
 * assigns that very name at its top level and holds only plain
 * statements (no return, raise, break or continue: it falls through to
 * what follows the `try`).  exec.c then reads that handler (the first
 * pass: the name bound) and the body after it (the later passes), so that
 * the events of both are seen, with the values the body really uses (a
 * pinned loader's batch, not a value not known).  NULL when not sure.
 *
 * Reads only; allocates nothing; never fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* the name read: a Name id, or the attribute of a Name (obj.attr) */
struct lazy_name {
	const char *id;          /* the Name, or the object's Name */
	const char *attr;        /* NULL for a plain name */
};

static int reads_cb(const struct ast_hdr *n, void *ctx)
{
	const struct lazy_name *ln = ctx;

	if (!ln->attr && AST_IS(n, Name) && AST_AS(n, Name)->ctx == AST_CTX_LOAD && !strcmp(AST_AS(n, Name)->id, ln->id))
		return 1;
	if (ln->attr && AST_IS(n, Attribute) && AST_AS(n, Attribute)->ctx == AST_CTX_LOAD &&
	    !strcmp(AST_AS(n, Attribute)->attr, ln->attr) && AST_IS(AST_AS(n, Attribute)->value, Name) &&
	    !strcmp(AST_AS(AST_AS(n, Attribute)->value, Name)->id, ln->id))
		return 1;
	/* not inside a nested scope: a lambda or comprehension reads later */
	if (AST_IS(n, Lambda) || AST_IS(n, ListComp) || AST_IS(n, SetComp) || AST_IS(n, DictComp) ||
	    AST_IS(n, GeneratorExp))
		return 0;
	return ast_visit_children(n, reads_cb, ctx);
}

/* Is target the name ln (a Name, or Name.attr)? */
static int is_target(const struct ast_hdr *t, const struct lazy_name *ln)
{
	if (!ln->attr)
		return AST_IS(t, Name) && !strcmp(AST_AS(t, Name)->id, ln->id);
	return AST_IS(t, Attribute) && !strcmp(AST_AS(t, Attribute)->attr, ln->attr) &&
	       AST_IS(AST_AS(t, Attribute)->value, Name) && !strcmp(AST_AS(AST_AS(t, Attribute)->value, Name)->id, ln->id);
}

/* The handler binds ln at its top level and falls through. */
static int handler_binds(const struct ast_ExceptHandler *h, const struct lazy_name *ln)
{
	int binds = 0;
	unsigned i, j;

	for (i = 0; i < h->body.n; i++) {
		const struct ast_hdr *st = h->body.items[i];

		if (AST_IS(st, Assign)) {
			for (j = 0; j < AST_AS(st, Assign)->targets.n; j++)
				binds |= is_target(AST_AS(st, Assign)->targets.items[j], ln);
		} else if (!AST_IS(st, Expr) && !AST_IS(st, AugAssign) && !AST_IS(st, Pass))
			return 0;
	}
	return binds;
}

/* obj.attr surely absent: a local instance of a repository class with no
 * outside base and no __getattr__, its attributes all known, none named
 * attr, nor anything of its class. */
static int attr_surely_absent(struct frame *f, const char *obj, const char *attr)
{
	const value_t *v = lookup(f, obj);
	const struct vinst *m;

	if (!v || v->k != VK_INST)
		return 0;
	m = v->u.inst;
	return m->cls && m->mod == VM_NONE && m->attrs && !m->attrs->anyname && !m->attrs->anykey &&
	       class_ext_bases_only(f->in, m->cls, "object") && !vdict_gets(m->attrs, attr) &&
	       !class_lookup(m->cls, attr, NULL) && !class_lookup(m->cls, "__getattr__", NULL) &&
	       !class_lookup(m->cls, "__getattribute__", NULL);
}

static const struct ast_ExceptHandler *handler_for(struct frame *f, const struct ast_Try *t,
                                                   const struct lazy_name *ln, const char *exc)
{
	unsigned i;

	for (i = 0; i < t->handlers.n; i++) {
		const struct ast_ExceptHandler *h = AST_AS(t->handlers.items[i], ExceptHandler);

		if (handler_catches(f, h, exc))
			return handler_binds(h, ln) ? h : NULL;     /* the first that catches it runs */
	}
	return NULL;
}

/* A name read by the first statement that the handler binds: tried for
 * each top-level target of each handler. */
const struct ast_ExceptHandler *lazybind_handler(struct frame *f, const struct ast_Try *t)
{
	const struct ast_hdr *first = t->body.n ? t->body.items[0] : NULL;
	unsigned i, j, k;

	if (!first || f->mode == M_FWD)
		return NULL;
	for (i = 0; i < t->handlers.n; i++) {
		const struct ast_ExceptHandler *h = AST_AS(t->handlers.items[i], ExceptHandler);

		for (j = 0; j < h->body.n; j++) {
			const struct ast_hdr *st = h->body.items[j];

			if (!AST_IS(st, Assign))
				continue;
			for (k = 0; k < AST_AS(st, Assign)->targets.n; k++) {
				const struct ast_hdr *tg = AST_AS(st, Assign)->targets.items[k];
				struct lazy_name ln = { NULL, NULL };
				const struct ast_ExceptHandler *r;

				if (AST_IS(tg, Name))
					ln.id = AST_AS(tg, Name)->id;
				else if (AST_IS(tg, Attribute) && AST_IS(AST_AS(tg, Attribute)->value, Name)) {
					ln.id = AST_AS(AST_AS(tg, Attribute)->value, Name)->id;
					ln.attr = AST_AS(tg, Attribute)->attr;
				} else
					continue;
				if (!reads_cb(first, &ln))
					continue;
				if (!ln.attr && !lookup(f, ln.id) && (r = handler_for(f, t, &ln, "NameError")))
					return r;
				if (ln.attr && attr_surely_absent(f, ln.id, ln.attr) &&
				    (r = handler_for(f, t, &ln, "AttributeError")))
					return r;
			}
		}
	}
	return NULL;
}
