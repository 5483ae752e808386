/*
 * residual.c -- the text of a boolean test as far as the run leaves it
 * undecided.
 *
 * `if opt.accel and torch.accelerator.is_available():` run with --accel:
 * opt.accel is True, so the test holds exactly when the machine has an
 * accelerator.  Its text, the condition every row under it carries, is
 * then "torch.accelerator.is_available()", not the whole test -- written
 * whole it reads as if opt.accel were undecided too.
 *
 * eval.c's `and`/`or` builds the residual as it reads the operands:
 * residual_join() adds one operand's text to it.  The operands before the
 * first undecided one are left out (each was known truthy for `and`,
 * falsy for `or`, or the reading would have stopped there): the value is
 * then exactly the rest's (`a and b` with a truthy is b).  As an `if`
 * test, a later operand whose known truth cannot change the outcome
 * (truthy for `and`, falsy for `or`) is left out too: only the test's
 * truth is read there.  The result, when something was left out, is the
 * unknown value's expression; test_text() gives an `if` or a conditional
 * expression that text for its test.
 *
 * Only where what ecg knows of an operand holds on every run of the test:
 * in job code outside every loop, repeat and request handler (the code
 * around a test, and the functions it calls, are read once for all their
 * iterations, and a value known on that one reading -- `step > 0` false
 * with step 0, `iter_num % eval_interval == 0` true -- may differ on the
 * next), and not in a model's forward (read with one call's arguments).
 * Elsewhere the test's text is kept whole.
 *
 * Strings live in the interpreter's arena; nothing here can fail.
 */
#include "config.h"

#include "internal.h"

/* an operand written inside a longer `and`/`or` keeps its grouping:
 * Python's spans leave out the parentheses around it */
static int needs_parens(const struct ast_hdr *e)
{
	return AST_IS(e, BoolOp) || AST_IS(e, IfExp) || AST_IS(e, Lambda) || AST_IS(e, NamedExpr);
}

int residual_may_drop(const struct frame *f)
{
	return f->mode != M_FWD && !jc_find(f->jc, JC_LOOP) && !jc_find(f->jc, JC_REPEAT) &&
	       !jc_find(f->jc, JC_HANDLER) && !jc_find(f->jc, JC_FORWARD);
}

const char *residual_join(struct frame *f, const struct ast_BoolOp *b, const char *sofar,
                          const struct ast_hdr *operand)
{
	const char *t = text_of(f, operand);

	if (needs_parens(operand))
		t = afmt(f->in, "(%s)", t);
	if (!sofar)
		return t;
	return afmt(f->in, "%s %s %s", sofar, b->op == AST_BOOL_AND ? "and" : "or", t);
}

const char *test_text(struct frame *f, const struct ast_hdr *test, const value_t *tv)
{
	if (test && AST_IS(test, BoolOp) && tv && tv->k == VK_UNKNOWN && !tv->alts && tv->expr && *tv->expr)
		return tv->expr;
	return text_of(f, test);
}
