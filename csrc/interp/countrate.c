/*
 * countrate.c -- a counter the job loop advances on every Nth pass only.
 *
 * A loop over micro-batches counts optimizer steps in a name of its own,
 * advanced only on the pass that ends an accumulation, and tests that
 * count on the same pass:
 *
 *     for i, batch in enumerate(loader):          # one micro-batch a pass
 *         is_update_step = (i + 1) % accum == 0
 *         ...
 *         if global_step % eval_interval == 0 and is_update_step:
 *             evaluate()                          # every eval_interval * accum passes
 *         if is_update_step:
 *             global_step += 1
 *
 * countrate_period(f, test, m, &expr) answers N (> 1) for the guard TEST
 * whose periodic part is M (`global_step % eval_interval`, find_modulo()
 * of jobctx.c) when every one of these holds, else 0:
 *
 *   - the frame is reading a job loop (f->carry) and M's left operand is a
 *     plain name C;
 *   - exactly one statement at the top level of that loop's body binds C
 *     (or deletes or declares it: carry.c's walk), and it is `if T:` with no
 *     else whose own body increments C at its top level (`C += 1`, `C = C +
 *     1`) and binds C nowhere else;
 *   - find_modulo() reads T as periodic (a flag bound to `(i + 1) % accum
 *     == 0`, guardflag.c, or the modulo written in), its period a known
 *     int N > 1, its left operand the loop's pass counter (the first name
 *     of an `enumerate()` target of the loop, or a name carry.c's
 *     carry_counts_passes() says advances every pass) or that name plus or
 *     minus a constant;
 *   - TEST is an `and` one of whose operands find_modulo() reads to that
 *     same modulo: the guarded block runs on the pass that advances C, so
 *     once every period counts of C, every period * N passes.
 *
 * EXPR is "<T's period expression>" for the record's text.  A counter
 * advanced on every pass, on one path of an undecided test, twice, or
 * before the loop is none (the guard keeps its own period).  Nothing is
 * allocated; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* Is statement n, at the top level, `id += ...` or `id = id + ...`? */
static int bumps(const struct ast_hdr *n, const char *id)
{
	if (AST_IS(n, AugAssign))
		return AST_IS(AST_AS(n, AugAssign)->target, Name) &&
		       !strcmp(AST_AS(AST_AS(n, AugAssign)->target, Name)->id, id) &&
		       AST_AS(n, AugAssign)->op == AST_OP_ADD;
	if (AST_IS(n, Assign) && AST_AS(n, Assign)->targets.n == 1 &&
	    AST_IS(AST_AS(n, Assign)->targets.items[0], Name) &&
	    !strcmp(AST_AS(AST_AS(n, Assign)->targets.items[0], Name)->id, id) &&
	    AST_IS(AST_AS(n, Assign)->value, BinOp) && AST_AS(AST_AS(n, Assign)->value, BinOp)->op == AST_OP_ADD) {
		const struct ast_hdr *l = AST_AS(AST_AS(n, Assign)->value, BinOp)->left;

		return AST_IS(l, Name) && !strcmp(AST_AS(l, Name)->id, id);
	}
	return 0;
}

/* Is e the name of the loop's pass counter: the first name of the
 * `for i, x in enumerate(...)` target of the loop the frame reads, or a
 * name carry_counts_passes() says advances every pass? */
static int pass_counter(const struct frame *f, const struct ast_hdr *e)
{
	const struct ast_For *s = f->loop_for;
	const char *id;

	if (!AST_IS(e, Name))
		return 0;
	id = AST_AS(e, Name)->id;
	if (carry_counts_passes(f, id) == 1)
		return 1;
	if (!s || !f->carry || f->carry->body != &s->body || !AST_IS(s->iter, Call) ||
	    !AST_IS(AST_AS(s->iter, Call)->func, Name) || strcmp(AST_AS(AST_AS(s->iter, Call)->func, Name)->id, "enumerate") ||
	    AST_AS(s->iter, Call)->args.n != 1 || AST_AS(s->iter, Call)->keywords.n || !AST_IS(s->target, Tuple) ||
	    AST_AS(s->target, Tuple)->elts.n != 2)
		return 0;
	return AST_IS(AST_AS(s->target, Tuple)->elts.items[0], Name) &&
	       !strcmp(AST_AS(AST_AS(s->target, Tuple)->elts.items[0], Name)->id, id);
}

/* the pass counter, alone or plus or minus an int literal */
static int pass_expr(const struct frame *f, const struct ast_hdr *e)
{
	if (AST_IS(e, BinOp) && (AST_AS(e, BinOp)->op == AST_OP_ADD || AST_AS(e, BinOp)->op == AST_OP_SUB) &&
	    AST_IS(AST_AS(e, BinOp)->right, Constant))
		return pass_counter(f, AST_AS(e, BinOp)->left);
	return pass_counter(f, e);
}

long long countrate_period(struct frame *f, const struct ast_hdr *test, const struct ast_BinOp *m, const char **expr)
{
	const struct ast_list *body;
	const struct ast_If *adv = NULL;
	const struct ast_BinOp *tm;
	const char *id;
	unsigned i, nb = 0;
	long long n;
	int ok, same = 0;

	if (!f->carry || !m || !AST_IS(m->left, Name) || !test || !AST_IS(test, BoolOp) ||
	    AST_AS(test, BoolOp)->op != AST_BOOL_AND)
		return 0;
	id = AST_AS(m->left, Name)->id;
	body = f->carry->body;
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *st = body->items[i];

		if (!carry_stmt_binds(st, id))
			continue;
		nb++;
		if (AST_IS(st, If))
			adv = AST_AS(st, If);
	}
	if (nb != 1 || !adv || adv->orelse.n)
		return 0;
	{
		unsigned bumped = 0, other = 0;

		for (i = 0; i < adv->body.n; i++) {
			if (bumps(adv->body.items[i], id))
				bumped++;
			else if (carry_stmt_binds(adv->body.items[i], id))
				other++;
		}
		if (bumped != 1 || other)
			return 0;
	}
	if (!(tm = find_modulo(f, adv->test, 0)) || !pass_expr(f, tm->left))
		return 0;
	n = as_int(eval(f, tm->right), &ok);
	if (!ok || n <= 1)
		return 0;
	for (i = 0; i < AST_AS(test, BoolOp)->values.n; i++)
		if (find_modulo(f, AST_AS(test, BoolOp)->values.items[i], 0) == tm)
			same = 1;
	if (!same)
		return 0;
	if (expr)
		*expr = text_of(f, tm->right);
	return n;
}
