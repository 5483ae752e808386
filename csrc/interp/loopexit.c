/* interp/loopexit.c - an `if` block that leaves the loop around it
 *
 * A loop that decodes up to max_len tokens and stops when every sequence
 * has ended:
 *
 *     for step in range(2, max_len):
 *         ...
 *         if (eos_locs.sum(1) > 0).sum(0).item() == beam_size:
 *             _, ans_idx = scores.max(0)
 *             ans_idx = ans_idx.item()
 *             break
 *
 * reads its test on every iteration, but the block's work runs on the
 * iteration that leaves the loop only: at most once each time the loop
 * runs, not once an iteration.  ecg reads a loop's body once for all its
 * iterations; exec_if() asks loop_exit_ctx() for the context of an
 * undecided test's block, which is the test's context with a JC_LOOP_EXIT
 * marker pushed when the block's last statement, at its own top level, is
 * `break` (schedule.c then counts the block's events as the code around
 * the loop; the condition stays the test's).  A block that breaks only
 * inside a nested statement, or whose test the invocation decides, is
 * none of these: it keeps the frequency of the code around it.
 *
 * loop_exit_ctx() owns nothing: the context is pushed in the
 * interpreter's arena, as jc_push() does.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* Are anchors a and b ("path:Qual.name:line") in the same function? */
static int same_scope(const char *a, const char *b)
{
	const char *ea = a ? strrchr(a, ':') : NULL, *eb = b ? strrchr(b, ':') : NULL;

	return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

const struct jctx *loop_exit_ctx(struct frame *f, const struct ast_list *body, const struct ast_hdr *site,
                                 const char *text)
{
	const struct jctx *loop = f->jc ? jc_find(f->jc, JC_LOOP) : NULL;
	const char *at;

	if (f->mode == M_FWD || !loop || !body || !body->n || !AST_IS(body->items[body->n - 1], Break))
		return f->jc;
	/* the loop `break` leaves: the innermost one, in this function */
	at = anchor_at(f, site);
	if (!same_scope(loop->anchor, at))
		return f->jc;
	return jc_push(f, JC_LOOP_EXIT, at, text);
}
