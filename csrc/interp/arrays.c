/* interp/arrays.c - arrays of another library (numpy) whose shape is known
 * in part, and windows of a known length
 *
 * A job's data is often an array read at run time: np.memmap(path,
 * dtype=...) of a token file, np.fromfile, np.frombuffer (catalog:
 * array_readers).  Its length is the data's, but it is one-dimensional:
 * its value stays not known, with arr_shape [?] (values.h).  What keeps
 * that shape known in part:
 *  - a method of catalog array_shape_methods (a.astype(np.int64), copy):
 *    the array's shape;
 *  - a window a[i:i+k] (upper bound written as the lower one plus k, k a
 *    known int >= 0, no step; the terms of both bounds written alike
 *    cancel, so a[i+1:i+k+1] and a[i:i+k+1] are windows too) whose start
 *    is a tensor -- an index drawn at
 *    run time (ix = torch.randint(len(a) - k, (B,)); for i in ix): k items
 *    on that axis, the other axes as they were.  A window shorter than k
 *    is one the code's draw did not keep inside the data; windows drawn
 *    at random and stacked could not all be cut short alike, so torch.stack
 *    of them would raise.  A start that is a Python int (a chunking loop
 *    whose last chunk may be shorter) is not read: the length stays not
 *    known.  The same window of a tensor whose first axis is not known
 *    gives that axis k (arr_tensor_window);
 *  - torch.from_numpy / torch.tensor / torch.as_tensor of the array: a
 *    tensor of its shape (shapes.c's "data" rule reads arr_shape).
 * An array a factory makes (catalog array_factories: np.zeros((n, m)))
 * has the shape its argument gives, each axis known or not.  Such an
 * array, of either kind, is on the host and not a tensor: indexed with a
 * device tensor (m[i, gc], gc a 0-d CUDA tensor) numpy reads the tensor
 * (__index__, or __array__ for an index array): a sync in job mode.
 * Every other use of the array is a value not known, as before.
 *
 * Nothing here fails: each function returns NULL (or leaves the value as
 * it was) when the value is none of these.  Shapes and values live in the
 * interpreter's arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define ARR_METHOD_REASON "a method of an array whose shape is known in part"

/* An expression whose second evaluation calls nothing and records
 * nothing: names, constants, attributes of those (outside a forward,
 * where a tensor's attribute read is an op), arithmetic of those. */
static int pure_expr(const struct frame *f, const struct ast_hdr *e, int depth)
{
	if (!e || depth > 8)
		return 0;
	if (AST_IS(e, Name) || AST_IS(e, Constant))
		return 1;
	if (AST_IS(e, Attribute))
		return f->mode != M_FWD && pure_expr(f, AST_AS(e, Attribute)->value, depth + 1);
	if (AST_IS(e, BinOp))
		return pure_expr(f, AST_AS(e, BinOp)->left, depth + 1) && pure_expr(f, AST_AS(e, BinOp)->right, depth + 1);
	return 0;
}

/* An expression that names the same value wherever it is written in one
 * slice: names, constants, attributes and subscripts of those. */
static int stable_expr(const struct ast_hdr *e, int depth)
{
	if (!e || depth > 8)
		return 0;
	if (AST_IS(e, Name) || AST_IS(e, Constant))
		return 1;
	if (AST_IS(e, Attribute))
		return stable_expr(AST_AS(e, Attribute)->value, depth + 1);
	if (AST_IS(e, Subscript))
		return stable_expr(AST_AS(e, Subscript)->value, depth + 1) &&
		       stable_expr(AST_AS(e, Subscript)->slice, depth + 1);
	return 0;
}

#define WIN_TERMS 8

struct win_term {
	const struct ast_hdr *e;
	const char *text;
	int sign;               /* +1, -1; 0 once cancelled */
};

/* The terms of a sum e (a + b - c ...), each with its sign; 0 when there
 * are more than WIN_TERMS or the sum is nested too deep. */
static int sum_terms(struct frame *f, const struct ast_hdr *e, int sign, struct win_term *t, int *n, int depth)
{
	if (!e || depth > 8)
		return 0;
	if (AST_IS(e, BinOp) && (AST_AS(e, BinOp)->op == AST_OP_ADD || AST_AS(e, BinOp)->op == AST_OP_SUB)) {
		const struct ast_BinOp *b = AST_AS(e, BinOp);

		return sum_terms(f, b->left, sign, t, n, depth + 1) &&
		       sum_terms(f, b->right, b->op == AST_OP_SUB ? -sign : sign, t, n, depth + 1);
	}
	if (*n >= WIN_TERMS)
		return 0;
	t[*n].e = e;
	t[*n].text = text_of(f, e);
	t[*n].sign = sign;
	if (!t[*n].text || !t[*n].text[0])
		return 0;
	(*n)++;
	return 1;
}

/* The window's length k of x[lo:hi], from the slice's code and its value
 * idx: its start a tensor, no step, and hi - lo a known int k >= 0 once
 * the terms written alike in both bounds cancel (x[i:i+k], x[i+1:i+1+k],
 * x[i+1:i+k+1], x[i:i+k+1], x[i-k:i]); -1 otherwise.  The terms that
 * cancel must name the same value in both bounds (names, attributes,
 * subscripts: no call); the ones left must each be a known int, so the
 * start, a tensor, cancels out. */
static long long window_len(struct frame *f, const struct ast_hdr *slice, const value_t *idx)
{
	const struct ast_Slice *sl;
	struct win_term t[WIN_TERMS];
	int n = 0, i, j, cancelled = 0;
	long long k = 0;

	if (!idx || idx->k != VK_SLICE || idx->u.slice.step->k != VK_NONE || idx->u.slice.lo->k != VK_TENSOR ||
	    !AST_IS(slice, Slice))
		return -1;
	sl = AST_AS(slice, Slice);
	if (!sl->lower || !sl->upper || sl->step)
		return -1;
	if (!sum_terms(f, sl->upper, 1, t, &n, 0) || !sum_terms(f, sl->lower, -1, t, &n, 0))
		return -1;
	for (i = 0; i < n; i++)
		for (j = i + 1; t[i].sign && j < n; j++)
			if (t[j].sign == -t[i].sign && !strcmp(t[i].text, t[j].text) && stable_expr(t[i].e, 0)) {
				t[i].sign = t[j].sign = 0;
				cancelled = 1;
			}
	if (!cancelled)
		return -1;
	for (i = 0; i < n; i++) {
		value_t *v;

		if (!t[i].sign)
			continue;
		if (!pure_expr(f, t[i].e, 0))
			return -1;
		v = eval(f, t[i].e);
		if (v->k != VK_INT || (t[i].sign > 0 ? __builtin_add_overflow(k, v->u.i, &k) :
		                                       __builtin_sub_overflow(k, v->u.i, &k)))
			return -1;
	}
	return k >= 0 ? k : -1;
}

/* The argument "keyword:position" names in args/kw, or NULL */
static const value_t *named_arg(const char *spec, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const char *colon = strchr(spec, ':');
	size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
	long pos = colon ? strtol(colon + 1, NULL, 10) : -1;
	size_t i;

	if (pos >= 0 && (size_t)pos < nargs)
		return args[pos];
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR && kw->keys[i]->u.str.len == klen &&
		    !memcmp(kw->keys[i]->u.str.s, spec, klen))
			return kw->vals[i];
	return NULL;
}

/* The shape a factory's shape argument gives: an int n >= 0 is [n]; a
 * tuple or list of known length each axis (an item that is no known int
 * >= 0 an axis not known); NULL for anything else. */
static struct vshape *factory_shape(struct frame *f, const value_t *a)
{
	struct vshape *s;
	size_t i;

	if (a && a->k == VK_INT && a->u.i >= 0) {
		if ((s = shape_new(f->in->a, 1)))
			s->n[0] = a->u.i;
		return s;
	}
	if (!a || (a->k != VK_TUPLE && a->k != VK_LIST) || a->u.seq->unk_reason || a->u.seq->n > VSHAPE_MAX)
		return NULL;
	if (!(s = shape_new(f->in->a, (unsigned)a->u.seq->n)))
		return NULL;
	for (i = 0; i < a->u.seq->n; i++) {
		const value_t *x = a->u.seq->items[i];

		s->n[i] = x->k == VK_INT && x->u.i >= 0 ? x->u.i : -1;
		s->sym[i] = NULL;
	}
	return s;
}

void arr_reader_result(struct frame *f, const char *d, value_t *const *args, size_t nargs,
                       const struct vdict *kw, value_t *r)
{
	const char *other = catalog_fact(f->in->cat, CATALOG_F_ARRAY_READERS, d);
	const char *fac = catalog_fact(f->in->cat, CATALOG_F_ARRAY_FACTORIES, d);
	struct vshape *s;

	if (fac && r && r->k == VK_UNKNOWN && !r->alts && !kw_unk(kw, 1)) {
		if ((s = factory_shape(f, named_arg(fac, args, nargs, kw))))
			r->arr_shape = s;
		return;
	}

	if (!other || !r || r->k != VK_UNKNOWN || r->alts)
		return;
	if (other[0]) {
		/* "keyword:position": given and not None, another shape */
		const char *colon = strchr(other, ':');
		size_t klen = colon ? (size_t)(colon - other) : strlen(other);
		long pos = colon ? strtol(colon + 1, NULL, 10) : -1;
		size_t i;

		if (pos >= 0 && (size_t)pos < nargs && args[pos]->k != VK_NONE)
			return;
		for (i = 0; kw && i < kw->n; i++)
			if (kw->keys[i]->k == VK_STR && kw->keys[i]->u.str.len == klen &&
			    !memcmp(kw->keys[i]->u.str.s, other, klen) && kw->vals[i]->k != VK_NONE)
				return;
		if (kw_unk(kw, 1))
			return;        /* *args or **kwargs not known: the shape may be in them */
	}
	s = shape_new(f->in->a, 1);
	if (s)
		r->arr_shape = s;
}

value_t *arr_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	value_t *m;

	if (!obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts ||
	    !catalog_fact(f->in->cat, CATALOG_F_ARRAY_SHAPE_METHODS, name))
		return NULL;
	m = unknown_at(f, site, ARR_METHOD_REASON);
	m->recv = obj;
	return m;
}

value_t *arr_call(struct frame *f, const value_t *fn, const struct ast_hdr *site)
{
	value_t *r;

	if (!fn || fn->k != VK_UNKNOWN || !fn->reason || strcmp(fn->reason, ARR_METHOD_REASON) || !fn->recv ||
	    !fn->recv->arr_shape)
		return NULL;
	r = unknown_at(f, site, fn->recv->reason ? fn->recv->reason : "an array of another library");
	r->arr_shape = fn->recv->arr_shape;
	return r;
}

value_t *arr_window(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx)
{
	long long k;
	struct vshape *sh;
	value_t *r;

	if (!obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts || !obj->arr_shape->nd)
		return NULL;
	if ((k = window_len(f, s->slice, idx)) < 0)
		return NULL;
	sh = shape_new(f->in->a, obj->arr_shape->nd);
	if (!sh)
		return NULL;
	*sh = *obj->arr_shape;
	sh->n[0] = k;
	sh->sym[0] = NULL;
	r = unknown_at(f, &s->h, obj->reason ? obj->reason : "an array of another library");
	r->arr_shape = sh;
	return r;
}

void arr_tensor_window(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx,
                       value_t *t)
{
	const struct vshape *x = shape_of(obj);
	long long k;
	struct vshape *sh;

	if (!x || !x->nd || x->n[0] >= 0 || !t || !t->shape || t->shape->nd != x->nd || t->shape->n[0] >= 0)
		return;
	if ((k = window_len(f, s->slice, idx)) < 0)
		return;
	sh = shape_new(f->in->a, t->shape->nd);
	if (!sh)
		return;
	*sh = *t->shape;
	sh->n[0] = k;
	sh->sym[0] = NULL;
	t->shape = sh;
}

/* Is v a device tensor, or a tuple index holding one? */
static int has_device_tensor(const value_t *v)
{
	size_t i;

	if (v->k == VK_TENSOR)
		return v->dev == DEV_DEVICE;
	if (v->k != VK_TUPLE)
		return 0;
	for (i = 0; i < v->u.seq->n; i++)
		if (v->u.seq->items[i]->k == VK_TENSOR && v->u.seq->items[i]->dev == DEV_DEVICE)
			return 1;
	return 0;
}

void arr_device_index(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx)
{
	if (f->mode == M_FWD || !obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts || !idx ||
	    !has_device_tensor(idx))
		return;
	sev(f, SEV_SYNC, "indexing a host array with a device tensor (numpy reads it)", &s->h);
}
