/* interp/exitstack.c - contextlib.ExitStack's enter_context()
 *
 * Python's stack.enter_context(cm) enters cm as `with cm:` would -- the
 * body of a @contextmanager generator up to its yield, or the __enter__
 * of an object of a repository class -- and returns the value entered;
 * cm is left (the rest of the generator, __exit__) when the stack is
 * closed, last entered first: at the end of the `with ExitStack() as
 * stack:` block that made it.  exitstack_enter() is the method (by
 * methods.c's ext_methods); exitstack_exit() is what exec_with() calls
 * for an ExitStack left.
 *
 * The context managers entered are kept on the stack object, in its
 * attribute __ecg_entered__ (a list value in the interpreter's arena);
 * nothing here owns memory.  A context manager that is neither (a torch
 * or library object) is returned as entered, as a `with` over it binds
 * it; one that opens a job context in a `with` (torch.no_grad(),
 * autocast, a stream: jobctx.c with_jctx) opens it here for the rest of
 * the frame's `with ExitStack()` block (exec_with drops the frame's
 * contexts when the block ends; the no_grad depth is given back by
 * exitstack_exit, counted in __ecg_no_grad__) -- detectron2's evaluation
 * loop under stack.enter_context(torch.no_grad()).  What a library's
 * object does on entry is not followed otherwise.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define ENTERED "__ecg_entered__"
#define NO_GRAD "__ecg_no_grad__"

/* cm, a context manager of torch (or a library) entered on the stack at
 * the call site: the job context a `with` over it opens, made the
 * frame's; a no_grad counted on the stack object */
static void enter_jctx(struct frame *f, value_t *stack, value_t *cm, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct ast_withitem wi;
	const struct jctx *pushed;
	const value_t *n;
	int ng = 0;

	if (!site || !AST_IS(site, Call) || AST_AS(site, Call)->args.n != 1)
		return;
	memset(&wi, 0, sizeof wi);
	wi.context_expr = AST_AS(site, Call)->args.items[0];
	if (!(pushed = with_jctx(f, site, &wi, cm, &ng)))
		return;
	f->jc = pushed;
	if (ng && stack && stack->k == VK_INST) {
		f->no_grad += ng;
		n = vdict_gets(stack->u.inst->attrs, NO_GRAD);
		vdict_sets(in->a, stack->u.inst->attrs, NO_GRAD,
		           v_int(in->a, (n && n->k == VK_INT ? n->u.i : 0) + ng));
	}
}

value_t *exitstack_enter(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *stack = fn->u.bi.self, *cm, *y, *list;
	int skip = 0;

	(void)kw;
	if (nargs != 1)
		return unknown_at(f, site, "enter_context() ecg does not follow");
	cm = args[0];
	if (is_gen_value(cm))
		y = gen_ctx_enter(f, cm->u.inst, site);
	else
		y = ctxclass_enter(f, cm, site, &skip);
	if (!y) {
		/* not a context manager of the repository: the object itself
		 * stands for what it gives (as exec_with binds it) */
		if (cm->k == VK_INST && !is_gen_value(cm))
			enter_jctx(f, stack, cm, site);
		return cm->k == VK_INST && !is_gen_value(cm) ? cm : unknown_at(f, site, "a context manager's value");
	}
	if (stack && stack->k == VK_INST) {
		list = vdict_gets(stack->u.inst->attrs, ENTERED);
		if (!list || list->k != VK_LIST) {
			list = v_seq(in->a, VK_LIST, 2);
			vdict_sets(in->a, stack->u.inst->attrs, ENTERED, list);
		}
		vseq_push(in->a, list->u.seq, cm);
	}
	return y;
}

/* The context managers an ExitStack entered, left last first (the block
 * ended normally); 1 when cv is such a stack. */
int exitstack_exit(struct frame *f, value_t *cv, const struct ast_hdr *st)
{
	value_t *list;
	size_t k;

	if (!cv || cv->k != VK_INST || !cv->u.inst->ext || strcmp(cv->u.inst->ext, "contextlib.ExitStack"))
		return 0;
	{
		const value_t *n = vdict_gets(cv->u.inst->attrs, NO_GRAD);

		if (n && n->k == VK_INT) {
			f->no_grad -= (int)n->u.i;
			vdict_sets(f->in->a, cv->u.inst->attrs, NO_GRAD, v_int(f->in->a, 0));
		}
	}
	list = vdict_gets(cv->u.inst->attrs, ENTERED);
	for (k = list && list->k == VK_LIST ? list->u.seq->n : 0; k-- > 0;) {
		value_t *cm = list->u.seq->items[k];

		if (is_gen_value(cm))
			gen_ctx_exit(f, cm->u.inst, st);
		else
			ctxclass_exit(f, cm, st);
	}
	if (list && list->k == VK_LIST)
		list->u.seq->n = 0;
	return 1;
}
