/* interp/narrow.c - what one arm of an undecided test knows of a list
 *
 *     b = torch.stack(b) if len(b) > 0 else torch.tensor(b, device=d)
 *
 * b is a list that a loop of unknown trip count built (its length is not
 * known, interp/exec.c).  The test is undecided, so both arms are read;
 * but in the arm where the test says b is empty, b *is* the empty list,
 * and `torch.tensor(b, device=d)` there copies nothing.  Without this the
 * else arm reads b as the loop's representative item list, and a copy of
 * host data that never happens becomes a row.
 *
 * Tests read (N a local name bound to a list or tuple of unknown length):
 *     len(N) > 0, len(N) != 0, len(N) >= 1, len(N), N    true: not empty
 *     len(N) == 0, len(N) < 1, len(N) <= 0               true: empty
 *     not <any of these>                                 the other arm
 *
 * narrow_empty() says which name is empty in which arm; narrow_enter()
 * binds it to an empty sequence of its kind for the arm, keeping in *nw
 * what to put back; narrow_leave() puts it back, unless the arm rebound
 * the name itself.
 *
 * The same holds of None in a lazy initialisation:
 *
 *     if self._labels is None:
 *         self._labels = np.zeros([n, 0])
 *     return self._labels
 *
 * read in a loop one pass for all, or after an undecided `if`, the
 * attribute is None on one path and an array of another library on
 * the other (alternatives, arrays.c arr_none_join).  In the arm where the
 * test says it is not None (the else arm of `is None`, the body of `is
 * not None`) it is the array (arr_not_none): narrow_none_attr() writes
 * that for the arm, through the attribute journal (journal.c), so the
 * `if`'s merge joins the body's array with it instead of with None.
 * Objects are left alone: alts.c reads each path of those, under its
 * condition.  Only `N.attr is [not] None`, N a
 * plain name bound to an instance (reading it twice runs nothing).
 *
 * And of a plain name bound to a value or None, as a loop over a
 * prefetcher reads it:
 *
 *     train_data = prefetcher.next()      # next(it), or None once spent
 *     while train_data is not None:
 *         model.feed_data(train_data)     # train_data['lq'].to(device)
 *         train_data = prefetcher.next()
 *
 * N (a name of the frame) is alternatives of None and one value (alts.c:
 * a `try: return next(it) except StopIteration: return None`).  In the
 * arm where the test says N is not None -- the body of `while N is not
 * None` or of `if N is not None`, the else of `if N is None` --
 * narrow_none_name() binds N to that value, keeping in *nw what to put
 * back; narrow_leave() puts it back unless the arm rebound N.
 *
 * Nothing here allocates outside the interpreter's arena; none of these
 * can fail.
 */
#include "config.h"

#include "internal.h"

/* N of `len(N)` or of a bare `N`; NULL for any other expression */
static const char *len_operand(const struct ast_hdr *e)
{
	if (AST_IS(e, Name))
		return AST_AS(e, Name)->id;
	if (AST_IS(e, Call)) {
		const struct ast_Call *c = AST_AS(e, Call);

		if (AST_IS(c->func, Name) && !strcmp(AST_AS(c->func, Name)->id, "len") && c->args.n == 1 &&
		    !c->keywords.n && AST_IS(c->args.items[0], Name))
			return AST_AS(c->args.items[0], Name)->id;
	}
	return NULL;
}

static int small_int(const struct ast_hdr *e, long long *out)
{
	const struct ast_Constant *c;

	if (!AST_IS(e, Constant))
		return 0;
	c = AST_AS(e, Constant);
	if (c->value.kind != AST_CONST_INT || c->value.big)
		return 0;
	*out = c->value.i;
	return 1;
}

/* `len(N) OP k`: 1 when the test being true means N is not empty, 0 when
 * it means N is empty, -1 when it says neither (len(N) > 3) */
static int compare_says(enum ast_cmpop op, long long k)
{
	if ((op == AST_CMP_GT && k == 0) || (op == AST_CMP_NOTEQ && k == 0) || (op == AST_CMP_GTE && k == 1))
		return 1;
	if ((op == AST_CMP_EQ && k == 0) || (op == AST_CMP_LT && k == 1) || (op == AST_CMP_LTE && k == 0))
		return 0;
	return -1;
}

/* the name the test is about, and through *empty_arm the arm (1: the test
 * true, 0: false) in which that name is empty; NULL: no such name */
static const char *test_empty(const struct ast_hdr *test, int *empty_arm, int depth)
{
	const char *n;

	if (depth > 4)
		return NULL;
	if (AST_IS(test, UnaryOp) && AST_AS(test, UnaryOp)->op == AST_UNARY_NOT) {
		n = test_empty(AST_AS(test, UnaryOp)->operand, empty_arm, depth + 1);
		if (n)
			*empty_arm = !*empty_arm;
		return n;
	}
	if (AST_IS(test, Compare)) {
		const struct ast_Compare *c = AST_AS(test, Compare);
		long long k;
		int says;

		if (c->ops.n != 1 || !AST_IS(c->left, Call) || !small_int(c->comparators.items[0], &k))
			return NULL;
		n = len_operand(c->left);
		says = compare_says(c->ops.items[0], k);
		if (!n || says < 0)
			return NULL;
		*empty_arm = says == 1 ? 0 : 1;
		return n;
	}
	n = len_operand(test);
	if (n)
		*empty_arm = 0;
	return n;
}

const char *narrow_empty(struct frame *f, const struct ast_hdr *test, int *empty_arm)
{
	const char *n = test_empty(test, empty_arm, 0);
	value_t *v;

	if (!n || !f->locals)
		return NULL;
	v = vdict_gets(f->locals, n);
	/* a list whose length is not known: a known length decides the test */
	if (!v || (v->k != VK_LIST && v->k != VK_TUPLE) || !v->u.seq->unk_reason)
		return NULL;
	return n;
}

void narrow_enter(struct frame *f, struct narrowing *nw)
{
	nw->was = vdict_gets(f->locals, nw->name);
	nw->empty = v_seq(f->in->a, nw->was->k, 0);
	nw->empty->src = nw->was->src;
	nw->empty->expr = nw->was->expr;
	vdict_sets(f->in->a, f->locals, nw->name, nw->empty);
}

void narrow_leave(struct frame *f, const struct narrowing *nw)
{
	struct vdict *d = f->locals ? f->locals : f->globals->dict;

	if (!nw->name)
		return;
	/* the arm bound the name itself: its binding stands */
	if (vdict_gets(d, nw->name) == nw->empty)
		vdict_sets(f->in->a, d, nw->name, nw->was);
}

/* `X is None` / `X is not None`, under any number of `not`: X, and through
 * *not_none_arm the arm (1: the test true, 0: false) in which X is not
 * None; NULL for any other test */
static const struct ast_hdr *test_none_operand(const struct ast_hdr *test, int *not_none_arm, int depth)
{
	const struct ast_Compare *c;
	const struct ast_hdr *r;

	if (depth > 4)
		return NULL;
	if (AST_IS(test, UnaryOp) && AST_AS(test, UnaryOp)->op == AST_UNARY_NOT) {
		const struct ast_hdr *x = test_none_operand(AST_AS(test, UnaryOp)->operand, not_none_arm, depth + 1);

		if (x)
			*not_none_arm = !*not_none_arm;
		return x;
	}
	if (!AST_IS(test, Compare))
		return NULL;
	c = AST_AS(test, Compare);
	if (c->ops.n != 1 || (c->ops.items[0] != AST_CMP_IS && c->ops.items[0] != AST_CMP_ISNOT))
		return NULL;
	r = c->comparators.items[0];
	if (!AST_IS(r, Constant) || AST_AS(r, Constant)->value.kind != AST_CONST_NONE)
		return NULL;
	*not_none_arm = c->ops.items[0] == AST_CMP_ISNOT;
	return c->left;
}

/* test_none_operand's X when it is a name N: N */
static const char *test_none_name(const struct ast_hdr *test, int *not_none_arm)
{
	const struct ast_hdr *x = test_none_operand(test, not_none_arm, 0);

	return x && AST_IS(x, Name) ? AST_AS(x, Name)->id : NULL;
}

int narrow_none_name(struct frame *f, const struct ast_hdr *test, int arm, struct narrowing *nw)
{
	int not_none_arm = -1;
	const char *n = test_none_name(test, &not_none_arm);
	struct vdict *d = f->locals ? f->locals : f->globals->dict;
	value_t *v;
	int none;

	nw->name = NULL;
	if (!n || arm != not_none_arm || !(v = vdict_gets(d, n)) || v->k != VK_UNKNOWN || !v->alts)
		return 0;
	none = v->alts[0]->k == VK_NONE ? 0 : v->alts[1]->k == VK_NONE ? 1 : -1;
	if (none < 0 || v->alts[1 - none]->k == VK_NONE)
		return 0;
	nw->name = n;
	nw->was = v;
	nw->empty = v->alts[1 - none];
	vdict_sets(f->in->a, d, n, nw->empty);
	return 1;
}

/* test_none_operand's X when it is an attribute of a name, N.a */
static const struct ast_Attribute *test_none_attr(const struct ast_hdr *test, int *not_none_arm)
{
	const struct ast_hdr *x = test_none_operand(test, not_none_arm, 0);

	return x && AST_IS(x, Attribute) && AST_IS(AST_AS(x, Attribute)->value, Name) ? AST_AS(x, Attribute) : NULL;
}

void narrow_none_attr(struct frame *f, const struct ast_hdr *test, int arm)
{
	int not_none_arm = -1;
	const struct ast_Attribute *a = test_none_attr(test, &not_none_arm);
	value_t *obj, *v, *other;

	if (!a || arm != not_none_arm)
		return;
	obj = lookup(f, AST_AS(a->value, Name)->id);
	if (!obj || obj->k != VK_INST || !obj->u.inst->attrs)
		return;
	v = vdict_gets(obj->u.inst->attrs, a->attr);
	/* arrays only: an object on one path is read on that path, under its
	 * condition, by alts.c already */
	if (!v || v->k != VK_UNKNOWN || !v->alts || !(other = lazy_not_none(f->in, v, 0)))
		return;
	journal_note(f->in, obj->u.inst->attrs, a->attr);
	vdict_sets(f->in->a, obj->u.inst->attrs, a->attr, other);
}
