/*
 * contguard.c -- gradient accumulation written as an early `continue`.
 *
 *     for batch_idx, batch in enumerate(dataloader):
 *         global_step += 1
 *         ...
 *         loss.backward()
 *         if global_step % args.gradient_accumulation != 0:
 *             continue
 *         optimizer.step()                 # every gradient_accumulation passes
 *         update_step += 1
 *
 * The rest of the body after such an `if` runs on the passes where the
 * test is false: `global_step % n == 0`, a periodic guard on the loop's
 * pass counter, as if the rest were written under `if global_step % n
 * == 0:`.  exec.c asks continue_guard_ctx() when an undecided `if`'s body
 * leaves the pass with `continue` and its else goes on; the guard it
 * pushes (jobctx.c guard_ctx_mod, its text the rest's condition) then
 * makes the schedule read the loop as micro-steps, n to a step, when the
 * optimizer step is under it (schedule.c sc_modulo_accum), as for
 * `if (i + 1) % n == 0:` around the step.
 *
 * The counter's value on the one pass ecg reads (1 after `+= 1` from 0)
 * would decide the test for that pass alone: continue_guard_if() tells
 * exec.c to leave such an `if` (its block ending in `continue`, no else)
 * undecided, so that both the pass that leaves and the rest are read.
 *
 * A counter of the steps such a loop takes, advanced after that `if`:
 *
 *         update_step += 1
 *         if update_step % args.eval_every == 0:   # every eval_every steps
 *
 * continue_count_rate() answers n for the guard on it: the counter is
 * bumped by one exactly on the passes the rest runs, so its period P in
 * counts is P * n passes of the pass counter (jobctx.c then reads the
 * guard as one on the pass counter, P * n, as countrate.c does for
 * `if is_update_step: global_step += 1`).  Only when the one statement of
 * the loop's body binding the counter is that bump, at the body's top
 * level after the `if`; else 0.
 *
 * Only when every one of these holds, else NULL and nothing is pushed
 * (the caller keeps the plain condition):
 *
 *   - the frame reads job code (not a forward);
 *   - the test is one comparison `X % N != 0` (0 an int literal);
 *   - X is the loop's pass counter: a name the body advances by one on
 *     every pass before any `continue` (carry.c carry_counts_passes), or
 *     the loop's own target (`(i + 1) % n` of `for i, x in enumerate`),
 *     alone or plus or minus an int literal (jobctx.c's reading);
 *   - N is a known int > 1 (with n = 1 every pass goes on: no guard).
 *
 * Nothing is allocated but the context; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* The Name of `NAME`, `NAME + K` or `NAME - K` (K an int literal). */
static const struct ast_hdr *counter_name(const struct ast_hdr *e)
{
	const struct ast_BinOp *b;

	if (AST_IS(e, Name))
		return e;
	if (!AST_IS(e, BinOp))
		return NULL;
	b = AST_AS(e, BinOp);
	if ((b->op != AST_OP_ADD && b->op != AST_OP_SUB) || !AST_IS(b->left, Name) || !AST_IS(b->right, Constant) ||
	    AST_AS(b->right, Constant)->value.kind != AST_CONST_INT)
		return NULL;
	return b->left;
}

/* The `x % n` of such a test, or NULL. */
static const struct ast_BinOp *continue_modulo(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_Compare *c;
	const struct ast_BinOp *m;
	const struct ast_hdr *x, *z;
	const char *id;
	long long n;
	int ok = 0;

	if (f->mode == M_FWD || !test || !AST_IS(test, Compare))
		return NULL;
	c = AST_AS(test, Compare);
	if (c->ops.n != 1 || c->ops.items[0] != AST_CMP_NOTEQ || c->comparators.n != 1 || !AST_IS(c->left, BinOp) ||
	    AST_AS(c->left, BinOp)->op != AST_OP_MOD)
		return NULL;
	z = c->comparators.items[0];
	if (!AST_IS(z, Constant) || AST_AS(z, Constant)->value.kind != AST_CONST_INT ||
	    AST_AS(z, Constant)->value.big || AST_AS(z, Constant)->value.i != 0)
		return NULL;
	m = AST_AS(c->left, BinOp);
	if (!(x = counter_name(m->left)))
		return NULL;
	id = AST_AS(x, Name)->id;
	if (carry_counts_passes(f, id) != 1 && !carry_for_target_binds(f, id))
		return NULL;
	n = as_int(eval(f, m->right), &ok);
	if (!ok || n <= 1)
		return NULL;
	return m;
}

int continue_guard_if(struct frame *f, const struct ast_If *s)
{
	return s->body.n >= 1 && AST_IS(s->body.items[s->body.n - 1], Continue) && !s->orelse.n &&
	       continue_modulo(f, s->test) != NULL;
}

const struct jctx *continue_guard_ctx(struct frame *f, const struct ast_hdr *test, const char *rest)
{
	const struct ast_BinOp *m = continue_modulo(f, test);

	return m ? guard_ctx_mod(f, test, m, rest) : NULL;
}

/* Is statement n `id += 1` or `id = id + 1`? */
static int bumps_one(const struct ast_hdr *n, const char *id)
{
	const struct ast_hdr *t = NULL, *k = NULL;

	if (AST_IS(n, AugAssign) && AST_AS(n, AugAssign)->op == AST_OP_ADD) {
		t = AST_AS(n, AugAssign)->target;
		k = AST_AS(n, AugAssign)->value;
	} else if (AST_IS(n, Assign) && AST_AS(n, Assign)->targets.n == 1 && AST_IS(AST_AS(n, Assign)->value, BinOp) &&
	           AST_AS(AST_AS(n, Assign)->value, BinOp)->op == AST_OP_ADD &&
	           AST_IS(AST_AS(AST_AS(n, Assign)->value, BinOp)->left, Name) &&
	           !strcmp(AST_AS(AST_AS(AST_AS(n, Assign)->value, BinOp)->left, Name)->id, id)) {
		t = AST_AS(n, Assign)->targets.items[0];
		k = AST_AS(AST_AS(n, Assign)->value, BinOp)->right;
	}
	return t && k && AST_IS(t, Name) && !strcmp(AST_AS(t, Name)->id, id) && AST_IS(k, Constant) &&
	       AST_AS(k, Constant)->value.kind == AST_CONST_INT && !AST_AS(k, Constant)->value.big &&
	       AST_AS(k, Constant)->value.i == 1;
}

long long continue_count_rate(struct frame *f, const struct ast_BinOp *m, const char **expr)
{
	const struct ast_list *body;
	const struct ast_BinOp *gm = NULL;
	const char *id;
	unsigned i, nb = 0, bumped = 0;
	long long n;
	int ok = 0;

	if (f->mode == M_FWD || !f->carry || !m || !AST_IS(m->left, Name))
		return 0;
	id = AST_AS(m->left, Name)->id;
	body = f->carry->body;
	for (i = 0; i < body->n; i++) {
		const struct ast_hdr *st = body->items[i];

		if (!gm && AST_IS(st, If) && continue_guard_if(f, AST_AS(st, If))) {
			gm = continue_modulo(f, AST_AS(st, If)->test);
			continue;
		}
		if (!carry_stmt_binds(st, id))
			continue;
		nb++;
		if (gm && bumps_one(st, id))
			bumped++;
	}
	if (!gm || nb != 1 || bumped != 1)
		return 0;
	n = as_int(eval(f, gm->right), &ok);
	if (!ok || n <= 1)
		return 0;
	if (expr)
		*expr = text_of(f, gm->right);
	return n;
}
