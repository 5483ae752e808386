/*
 * guardrange.c -- a periodic guard the loop's own counter never meets.
 *
 *     step = 0
 *     while cfg.max_tokens is None or tokens < cfg.max_tokens:
 *         ...
 *         step += 1
 *         if step % cfg.save_frequency == 0:      # 300
 *             save_checkpoint(...)
 *         if step >= cfg.total_train_steps:       # 200
 *             break
 *
 * ecg reads a job loop's body once for all its iterations, so a periodic
 * guard (`x % n == 0`) is read as true every n-th pass (exec.c).  When the
 * loop's own counter never reaches a multiple of n before the loop breaks,
 * the guarded block never runs: the save above is no row.
 *
 * guard_out_of_range() answers 1 when every one of these holds, else 0:
 *
 *   - the test is `x % n == 0` (or `0 == x % n`, or `not x % n`), x a
 *     plain name, n a name, attribute or constant-indexed item chain (no
 *     call) that reads a known positive int;
 *   - the test lies in the body of a loop the frame reads in job mode
 *     (f->carry, innermost first; the first whose body's top level
 *     increments x), the outermost of the frame's loops (a loop inside
 *     another is entered again with x where it was left), and x is not
 *     the loop's own `for` target;
 *   - that body's top level holds `x += 1`, and nothing else in the body
 *     binds x (so x only counts the passes);
 *   - after the increment, at the body's top level, `if x >= N: break`
 *     (`>`, `==` too), N read as x is (no call, a known int), the `if`'s
 *     own body ending in `break` with no `else`;
 *   - no `continue` of this loop anywhere in the body (one could skip the
 *     break's test after the increment);
 *   - x held a known int x0 >= 0 before the loop (the carry's names).
 *
 * x then takes the values x0 .. N (x0+1 .. N after the increment) inside
 * the body; the guard is dead when no multiple of n lies in that range.
 * A bound an exception, a `return` or another `break` reaches earlier
 * only shortens the range.  Nothing is allocated; nothing fails.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "internal.h"

/* A name, attribute or constant-indexed item chain: read again without
 * running any code. */
static int plain_read(const struct ast_hdr *e, int depth)
{
	if (!e || depth > 8)
		return 0;
	switch (e->kind) {
	case AST_Name: case AST_Constant:
		return 1;
	case AST_Attribute:
		return plain_read(AST_AS(e, Attribute)->value, depth + 1);
	case AST_Subscript:
		return AST_IS(AST_AS(e, Subscript)->slice, Constant) && plain_read(AST_AS(e, Subscript)->value, depth + 1);
	default:
		return 0;
	}
}

/* The known int a plain read gives, in *out: 1, else 0. */
static int known_int(struct frame *f, const struct ast_hdr *e, long long *out)
{
	const value_t *v;

	if (!plain_read(e, 0) || !(v = eval(f, e)) || v->k != VK_INT)
		return 0;
	*out = v->u.i;
	return 1;
}

static int is_int_const(const struct ast_hdr *e, long long want)
{
	const struct ast_Constant *c;

	if (!AST_IS(e, Constant))
		return 0;
	c = AST_AS(e, Constant);
	return c->value.kind == AST_CONST_INT && !c->value.big && c->value.i == want;
}

/* The `x % n` of `x % n == 0`, `0 == x % n` or `not x % n`, else NULL. */
static const struct ast_BinOp *zero_modulo(const struct ast_hdr *test)
{
	const struct ast_hdr *m = NULL;

	if (AST_IS(test, UnaryOp) && AST_AS(test, UnaryOp)->op == AST_UNARY_NOT)
		m = AST_AS(test, UnaryOp)->operand;
	else if (AST_IS(test, Compare)) {
		const struct ast_Compare *c = AST_AS(test, Compare);

		if (c->ops.n != 1 || c->ops.items[0] != AST_CMP_EQ)
			return NULL;
		if (is_int_const(c->comparators.items[0], 0))
			m = c->left;
		else if (is_int_const(c->left, 0))
			m = c->comparators.items[0];
	}
	if (!m || !AST_IS(m, BinOp) || AST_AS(m, BinOp)->op != AST_OP_MOD)
		return NULL;
	return AST_AS(m, BinOp);
}

static int names(const struct ast_hdr *e, const char *id)
{
	return e && AST_IS(e, Name) && !strcmp(AST_AS(e, Name)->id, id);
}

/* Is the statement `id += 1`? */
static int is_increment(const struct ast_hdr *s, const char *id)
{
	const struct ast_AugAssign *a;

	if (!AST_IS(s, AugAssign))
		return 0;
	a = AST_AS(s, AugAssign);
	return a->op == AST_OP_ADD && names(a->target, id) && is_int_const(a->value, 1);
}

/* `if id >= N: ... break` (`>`, `==`): the largest value id takes while
 * the loop goes on past this test's pass, in *hi; 1, else 0. */
static int break_bound(struct frame *f, const struct ast_hdr *s, const char *id, long long *hi)
{
	const struct ast_If *i;
	const struct ast_Compare *c;
	long long n;

	if (!AST_IS(s, If))
		return 0;
	i = AST_AS(s, If);
	if (i->orelse.n || !i->body.n || !AST_IS(i->body.items[i->body.n - 1], Break) || !AST_IS(i->test, Compare))
		return 0;
	c = AST_AS(i->test, Compare);
	if (c->ops.n != 1 || !names(c->left, id) || !known_int(f, c->comparators.items[0], &n))
		return 0;
	switch (c->ops.items[0]) {
	case AST_CMP_GTE: case AST_CMP_EQ:
		*hi = n;
		return 1;
	case AST_CMP_GT:
		*hi = n + 1;
		return 1;
	default:
		return 0;
	}
}

/* In carry c's body: the counter's range [lo, hi] at line `at`; 1, else 0. */
static int counter_range(struct frame *f, const struct carry *c, const char *id, int at, long long *lo,
                         long long *hi)
{
	const struct ast_list *body = c->body;
	const struct ast_hdr *inc = NULL;
	const value_t *x0;
	long long top = 0;
	int bounded = 0;
	unsigned i;

	if (!body || !body->n || at < body->items[0]->line || at > body->items[body->n - 1]->end_line)
		return 0;
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *s = body->items[i];

		if (!inc && is_increment(s, id))
			inc = s;
		else if (inc && !bounded && break_bound(f, s, id, &top))
			bounded = 1;
		if (holds_loop_continue(s))
			return 0;
	}
	if (!inc || !bounded || body_bindings(body, id, 0, INT_MAX, inc) || carry_target_has(c->for_target, id))
		return 0;
	/* a loop inside another of the frame's loops is entered again with
	 * x where the last entry left it: x0 is the first entry's only */
	if (c->up || c->inner)
		return 0;
	if (!c->before || !(x0 = vdict_gets(c->before, id)) || x0->k != VK_INT || x0->u.i < 0)
		return 0;
	*lo = at > inc->end_line ? x0->u.i + 1 : x0->u.i;
	*hi = top;
	return 1;
}

int guard_out_of_range(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_BinOp *m;
	const struct carry *c;
	const char *id;
	long long n, lo, hi;

	if (!f || !test || f->mode == M_FWD || !(m = zero_modulo(test)) || !AST_IS(m->left, Name))
		return 0;
	id = AST_AS(m->left, Name)->id;
	if (!known_int(f, m->right, &n) || n <= 0)
		return 0;
	for (c = f->carry; c; c = c->up)
		if (counter_range(f, c, id, test->line, &lo, &hi))
			/* no multiple of n in [lo, hi] */
			return lo <= hi && (hi / n) * n < lo;
	return 0;
}
