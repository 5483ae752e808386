/* interp/genitems.c - how many items a repository generator gives, when
 * its code pins it
 *
 * A job's loop over a repository generator (`for sample in
 * self.p_sample_loop_progressive(...)`) is read once, its item the
 * generator's first yield (function.c gen_next): its trip count is the
 * number of items the generator gives, which is not known in general.
 * The code pins it when:
 *  - the generator's function holds one yield, a statement `yield x`, and
 *    no `return`; the statements from its body down to that yield are
 *    `for` loops (their body, not their else) and `with` blocks only, and
 *    none of those loops holds a `break` or a `continue`: each iteration
 *    of each of them reaches the yield once (an exception ends the job);
 *    gen_yield_trips() at the yield: the product of those loops' trip
 *    counts as the reading knows them (jctx.trips, each known), one loop
 *    context per `for` of the path;
 *  - the job's loop takes every item from the start: its iterable is a
 *    call of the generator's function by its name (a fresh generator;
 *    enumerate() of one too) and its body holds no `break` or `return`
 *    (gen_loop_trips()).
 * Anything else: -1 (not known), as before.  Nothing here allocates.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* Does n hold a statement of kind k1 or k2 (not in a nested function,
 * lambda or class)? */
struct has_kind {
	enum ast_kind k1, k2;
};

static int has_kind_cb(const struct ast_hdr *n, void *ctx)
{
	const struct has_kind *h = ctx;

	if (n->kind == h->k1 || n->kind == h->k2)
		return 1;
	if (AST_IS(n, FunctionDef) || AST_IS(n, AsyncFunctionDef) || AST_IS(n, Lambda) || AST_IS(n, ClassDef))
		return 0;
	return ast_visit_children(n, has_kind_cb, ctx);
}

static int holds(const struct ast_list *body, enum ast_kind k1, enum ast_kind k2)
{
	struct has_kind h = { k1, k2 };
	unsigned i;

	for (i = 0; i < body->n; i++)
		if (has_kind_cb(body->items[i], &h))
			return 1;
	return 0;
}

/* How many yields n holds (not in a nested scope), at most 2 */
static int count_yields_cb(const struct ast_hdr *n, void *ctx)
{
	int *c = ctx;

	if (AST_IS(n, Yield) || AST_IS(n, YieldFrom)) {
		if (++*c >= 2)
			return 1;
	}
	if (AST_IS(n, FunctionDef) || AST_IS(n, AsyncFunctionDef) || AST_IS(n, Lambda) || AST_IS(n, ClassDef))
		return 0;
	return ast_visit_children(n, count_yields_cb, ctx);
}

/* The `for` loops on the path from body down to statement y, when that
 * path runs through `for` bodies and `with` bodies only, none of the
 * loops holding a break or a continue: their number; -1 when y is not
 * reached so. */
static int path_fors(const struct ast_list *body, const struct ast_hdr *y, int depth)
{
	unsigned i;

	if (depth > 32)
		return -1;
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *s = body->items[i];
		int n;

		if (s == y)
			return 0;
		if (AST_IS(s, For)) {
			const struct ast_For *fo = AST_AS(s, For);

			if ((n = path_fors(&fo->body, y, depth + 1)) < 0)
				continue;
			return holds(&fo->body, AST_Break, AST_Continue) ? -1 : n + 1;
		}
		if (AST_IS(s, With) && (n = path_fors(&AST_AS(s, With)->body, y, depth + 1)) >= 0)
			return n;
	}
	return -1;
}

long long gen_yield_trips(const struct frame *f, const struct ast_hdr *y)
{
	const struct ast_hdr *def = f->scope_def;
	const struct ast_list *body;
	const struct jctx *c;
	long long n = 1;
	int fors, loops = 0, yields = 0;
	unsigned i;

	if (!def || !AST_IS(def, FunctionDef) || !AST_IS(y, Expr) || !AST_IS(AST_AS(y, Expr)->value, Yield))
		return -1;
	body = &AST_AS(def, FunctionDef)->body;
	for (i = 0; i < body->n && yields < 2; i++)
		count_yields_cb(body->items[i], &yields);
	if (yields != 1 || holds(body, AST_Return, AST_Return) || (fors = path_fors(body, y, 0)) < 0)
		return -1;
	for (c = f->jc; c && c != f->jc_entry; c = c->up) {
		if (c->kind != JC_LOOP)
			continue;
		if (c->trips <= 0 || n > (1LL << 40) / c->trips)
			return -1;
		n *= c->trips;
		loops++;
	}
	return loops == fors ? n : -1;
}

/* The name a call's callee is written with (`f` of f(...), `gen` of
 * self.gen(...)), or NULL */
static const char *callee_name(const struct ast_hdr *e)
{
	const struct ast_Call *c;

	if (!e || !AST_IS(e, Call))
		return NULL;
	c = AST_AS(e, Call);
	if (AST_IS(c->func, Name))
		return AST_AS(c->func, Name)->id;
	if (AST_IS(c->func, Attribute))
		return AST_AS(c->func, Attribute)->attr;
	return NULL;
}

long long gen_loop_trips(const struct ast_For *s, const struct vinst *g)
{
	const char *fn = gen_function_name(g), *name = callee_name(s->iter);
	const char *last;

	if (name && !strcmp(name, "enumerate") && AST_AS(s->iter, Call)->args.n == 1 &&
	    !AST_AS(s->iter, Call)->keywords.n)
		name = callee_name(AST_AS(s->iter, Call)->args.items[0]);
	if (!fn || !name)
		return -1;
	last = strrchr(fn, '.');
	if (strcmp(last ? last + 1 : fn, name) || holds(&s->body, AST_Break, AST_Return))
		return -1;
	return gen_item_count(g);
}
