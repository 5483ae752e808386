/*
 * guardflag.c -- a periodic guard spelt through a flag the loop binds.
 *
 * StyleGAN2's lazy regularisation names its step test before using it:
 *
 *     for idx in pbar:
 *         i = idx + args.start_iter
 *         ...
 *         d_regularize = i % args.d_reg_every == 0
 *         if d_regularize:
 *             ...                      # every d_reg_every steps
 *
 * `if d_regularize:` is `if i % args.d_reg_every == 0:` under another
 * name.  find_modulo() (jobctx.c) asks flag_modulo() about a Name in a
 * test; flag_modulo() answers with the modulo the flag was bound to when
 * every one of these holds, else NULL:
 *
 *   - the frame is reading a job loop (f->carry: the innermost loop of
 *     this frame exec.c reads in job mode, `for` or `while`), and the
 *     test lies inside that loop's body;
 *   - exactly one statement of that body, at the body's own top level,
 *     binds the name: `NAME = TEST` (one target, a plain name), before
 *     the test's line, and nothing else in the body binds, deletes or
 *     declares the name (so each iteration binds it afresh before the
 *     test reads it);
 *   - find_modulo() reads TEST as a periodic test (`x % n == 0`, `not
 *     x % n`, an `and`/`or` holding one, a divisible_by-like helper);
 *   - when the modulo's left operand is a plain name, nothing in the body
 *     binds that name between the flag's statement and the test (the
 *     counter the flag was computed from is the one the test runs with).
 *
 * flag_bound_test() gives the whole TEST such a flag was bound to, so that
 * exec.c's guard_dead() can read an operand of it decided false whatever
 * the counter (`should_test = (args.test_freq > 0) and (... % args.test_freq
 * == 0 ...)` with --test-freq=0: the guarded block never runs); only when
 * no name TEST reads is bound again between the flag's statement and the
 * test, and TEST holds no lambda or comprehension.
 *
 * A flag bound before the loop (`first = start % n == 0`), in a function
 * the loop calls, on one branch only, twice, or by augmented assignment
 * is none: it does not recur with the loop's counter.
 *
 * flag_cycle_modulo() reads such a flag bound to `x % n != K` (or `==`)
 * for its cycle only: a library's sync-skip block given the flag
 * (`enabled=is_accumulating`) takes n passes a step (jobctx.c).  Only a name: an
 * attribute (self.do_eval) or an item is not followed.  Nested defs,
 * lambdas, classes and comprehensions are other scopes: not walked.
 * Nothing is allocated; nothing fails.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "internal.h"

struct bind_walk {
	const char *id;
	int lo, hi;                 /* count bindings whose line is in [lo, hi] */
	const struct ast_hdr *skip; /* the flag's own statement: not counted */
	unsigned n;                 /* bindings found */
};

static int str_is(const char *s, const char *id)
{
	return s && !strcmp(s, id);
}

/* Does the node itself bind or declare w->id (a stored or deleted name,
 * an except/import/match/def name, global/nonlocal)? */
static int node_binds(const struct ast_hdr *n, const char *id)
{
	unsigned i;

	switch (n->kind) {
	case AST_Name:
		return AST_AS(n, Name)->ctx != AST_CTX_LOAD && str_is(AST_AS(n, Name)->id, id);
	case AST_ExceptHandler:
		return str_is(AST_AS(n, ExceptHandler)->name, id);
	case AST_alias: {
		const struct ast_alias *a = AST_AS(n, alias);
		size_t k;

		if (a->asname)
			return str_is(a->asname, id);
		k = strlen(id);
		return a->name && !strncmp(a->name, id, k) && (a->name[k] == '\0' || a->name[k] == '.');
	}
	case AST_Global:
		for (i = 0; i < AST_AS(n, Global)->names.n; i++)
			if (str_is(AST_AS(n, Global)->names.items[i], id))
				return 1;
		return 0;
	case AST_Nonlocal:
		for (i = 0; i < AST_AS(n, Nonlocal)->names.n; i++)
			if (str_is(AST_AS(n, Nonlocal)->names.items[i], id))
				return 1;
		return 0;
	case AST_MatchAs:
		return str_is(AST_AS(n, MatchAs)->name, id);
	case AST_MatchStar:
		return str_is(AST_AS(n, MatchStar)->name, id);
	case AST_MatchMapping:
		return str_is(AST_AS(n, MatchMapping)->rest, id);
	case AST_FunctionDef:
		return str_is(AST_AS(n, FunctionDef)->name, id);
	case AST_AsyncFunctionDef:
		return str_is(AST_AS(n, AsyncFunctionDef)->name, id);
	case AST_ClassDef:
		return str_is(AST_AS(n, ClassDef)->name, id);
	default:
		return 0;
	}
}

static int bind_cb(const struct ast_hdr *n, void *ctx)
{
	struct bind_walk *w = ctx;

	if (n == w->skip)
		return 0;
	if (node_binds(n, w->id) && n->line >= w->lo && n->line <= w->hi)
		w->n++;
	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
	case AST_ListComp: case AST_SetComp: case AST_DictComp: case AST_GeneratorExp:
		return 0;   /* another scope (a comprehension's walrus: refused by walrus_cb) */
	default:
		break;
	}
	return ast_visit_children(n, bind_cb, ctx);
}

unsigned body_bindings(const struct ast_list *body, const char *id, int lo, int hi, const struct ast_hdr *skip)
{
	struct bind_walk w = { id, lo, hi, skip, 0 };
	unsigned i;

	for (i = 0; i < body->n; i++)
		bind_cb(body->items[i], &w);
	return w.n;
}

/* Does the expression hold a walrus (`(flag := ...)` may bind the flag
 * from inside a comprehension the walk does not enter)? */
static int walrus_cb(const struct ast_hdr *n, void *ctx)
{
	(void)ctx;
	if (AST_IS(n, NamedExpr))
		return 1;
	return ast_visit_children(n, walrus_cb, ctx);
}

/* The flag's one statement `NAME = TEST` at the top level of the body of
 * the job loop the frame reads, before the test that reads `name`, with
 * nothing else in the body binding NAME (no walrus anywhere in it), and
 * the body in *bodyp; else NULL. */
static const struct ast_Assign *flag_stmt(struct frame *f, const struct ast_Name *name, int depth,
                                          const struct ast_list **bodyp)
{
	const struct ast_list *body;
	const struct ast_hdr *stmt = NULL, *first, *last;
	int at;
	unsigned i;

	if (!f || !name || f->mode == M_FWD || !f->carry || depth > 8)
		return NULL;
	body = f->carry->body;
	if (!body || !body->n)
		return NULL;
	at = name->h.line;
	first = body->items[0];
	last = body->items[body->n - 1];
	if (at < first->line || at > last->end_line)
		return NULL;
	/* the flag's statement: `NAME = TEST` at the body's top level, before the test */
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *s = body->items[i];

		if (s->line >= at)
			break;
		if (AST_IS(s, Assign) && AST_AS(s, Assign)->targets.n == 1 &&
		    AST_IS(AST_AS(s, Assign)->targets.items[0], Name) &&
		    !strcmp(AST_AS(AST_AS(s, Assign)->targets.items[0], Name)->id, name->id))
			stmt = s;
	}
	if (!stmt)
		return NULL;
	/* nothing else in the body binds the flag, anywhere; a walrus may
	 * bind it where the walk does not look (a comprehension) */
	if (body_bindings(body, name->id, 0, INT_MAX, stmt))
		return NULL;
	for (i = 0; i < body->n; i++)
		if (ast_visit_children(body->items[i], walrus_cb, NULL))
			return NULL;
	*bodyp = body;
	return AST_AS(stmt, Assign);
}

const struct ast_BinOp *flag_modulo(struct frame *f, const struct ast_Name *name, int depth)
{
	const struct ast_list *body = NULL;
	const struct ast_Assign *a = flag_stmt(f, name, depth, &body);
	const struct ast_BinOp *m;

	if (!a || !(m = find_modulo(f, a->value, depth + 1)))
		return NULL;
	/* the counter the flag read is the one the test runs with */
	if (AST_IS(m->left, Name) && body_bindings(body, AST_AS(m->left, Name)->id, a->h.line, name->h.line, &a->h))
		return NULL;
	return m;
}

struct loads_walk {
	const struct ast_list *body;
	const struct ast_hdr *skip;
	int lo, hi;
	int rebound;
};

/* Is a name the expression loads bound again in the body between the
 * flag's statement and the test (lines lo..hi)? */
static int loads_cb(const struct ast_hdr *n, void *ctx)
{
	struct loads_walk *w = ctx;

	if (AST_IS(n, Name) && AST_AS(n, Name)->ctx == AST_CTX_LOAD &&
	    body_bindings(w->body, AST_AS(n, Name)->id, w->lo, w->hi, w->skip))
		w->rebound = 1;
	if (w->rebound)
		return 1;
	switch (n->kind) {
	case AST_Lambda: case AST_ListComp: case AST_SetComp: case AST_DictComp: case AST_GeneratorExp:
		w->rebound = 1;   /* another scope: not followed, not trusted */
		return 1;
	default:
		break;
	}
	return ast_visit_children(n, loads_cb, ctx);
}

const struct ast_hdr *flag_bound_test(struct frame *f, const struct ast_Name *name, int depth)
{
	const struct ast_list *body = NULL;
	const struct ast_Assign *a = flag_stmt(f, name, depth, &body);
	struct loads_walk w;

	if (!a || !flag_modulo(f, name, depth))
		return NULL;
	w.body = body;
	w.skip = &a->h;
	w.lo = a->h.line;
	w.hi = name->h.line;
	w.rebound = 0;
	loads_cb(a->value, &w);
	return w.rebound ? NULL : a->value;
}

const struct ast_BinOp *flag_cycle_modulo(struct frame *f, const struct ast_Name *name)
{
	const struct ast_list *body = NULL;
	const struct ast_Assign *a = flag_stmt(f, name, 0, &body);
	const struct ast_Compare *c;
	const struct ast_BinOp *m;

	if (!a || !AST_IS(a->value, Compare))
		return NULL;
	c = AST_AS(a->value, Compare);
	if (c->ops.n != 1 || (c->ops.items[0] != AST_CMP_EQ && c->ops.items[0] != AST_CMP_NOTEQ) ||
	    !AST_IS(c->left, BinOp) || AST_AS(c->left, BinOp)->op != AST_OP_MOD ||
	    !AST_IS(c->comparators.items[0], Constant) ||
	    AST_AS(c->comparators.items[0], Constant)->value.kind != AST_CONST_INT)
		return NULL;
	m = AST_AS(c->left, BinOp);
	/* the counter the flag read is the one the test runs with */
	if (AST_IS(m->left, Name) && body_bindings(body, AST_AS(m->left, Name)->id, a->h.line, name->h.line, &a->h))
		return NULL;
	return m;
}
