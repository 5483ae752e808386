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
 *  - integers numpy draws at random (catalog array_draws:
 *    np.random.randint(hi, size=(B,))) are an array of the size's shape
 *    whose items are starts drawn at run time, as torch.randint's are: a
 *    window at one of them (plus known ints) has its length too;
 *  - an array whose first axis is known has that many rows (a `for`, a
 *    comprehension, an unpacking over it: arr_rows), each of the shape of
 *    the other axes; np.stack of a list of known length of arrays of one
 *    rank (catalog array_stackers, axis 0) is [n, *S]; np.array/asarray
 *    of one (array_converters; no ndmin) keeps its shape;
 *  - torch.from_numpy / torch.tensor / torch.as_tensor of the array: a
 *    tensor of its shape (shapes.c's "data" rule reads arr_shape);
 *  - a row of a 1-D array is 0-d (a numpy scalar: np.float64 is a float,
 *    so isinstance(x, float) of one stays undecided, builtins.c);
 *    arithmetic (+ - * / // % **) of an array with a Python number or a
 *    0-d array, or of two arrays of one fully known shape, has the
 *    array's shape (arr_binop: numpy's broadcasting, only where it
 *    changes nothing); np.array of a list or tuple of n Python numbers
 *    and 0-d arrays is [n] (array_converters); a running reduction along
 *    axis 0 of a 1-D array keeps its [n] (array_scans);
 *  - a.shape is a tuple of its axes (each known or not), a.ndim its rank,
 *    a.size the product of its axes when all are known, len(a) its first
 *    axis when known (arr_len);
 *  - numbers parsed out of a known str (catalog array_text_parsers:
 *    np.fromstring('4-3-2', dtype=int, sep='-')) are a 1-D array of as
 *    many items as the separator cuts the text into, each a number;
 *  - np.arange (catalog array_ranges) is 1-D: [n] for arange(n), its
 *    length not known with a start or a step; a slice a[lo:hi] of an
 *    array that is no window keeps the array's rank, its first axis not
 *    known (numpy's basic slicing never drops an axis).
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

/* The reason of integers drawn at random on the host (catalog
 * array_draws) and of their items: known by this address */
static const char arr_draw_reason[] = "integers drawn at random at run time";

/* The reason of an array's .dtype whose kind of elements is known (dt):
 * known by this address (dtypeeq.c compares it with a named dtype) */
const char arr_dtype_reason[] = "the dtype of an array";

/* The kind of elements (DT_*) of another library's dtype d the job named
 * (catalog array_dtypes: numpy.float32 -> float), or DT_UNKNOWN */
int arr_dtype_kind(const struct catalog *cat, const value_t *d)
{
	const char *k = d && d->k == VK_EXT ? catalog_fact(cat, CATALOG_F_ARRAY_DTYPES, d->u.ext) : NULL;

	if (!k)
		return DT_UNKNOWN;
	return !strcmp(k, "int") ? DT_INT : !strcmp(k, "float") ? DT_FLOAT : !strcmp(k, "bool") ? DT_BOOL : DT_UNKNOWN;
}

/* Is v a start drawn at run time: a tensor (torch.randint's items), or
 * one integer of another library's draw? */
static int drawn_start(const value_t *v)
{
	if (v->k == VK_TENSOR)
		return 1;
	return v->k == VK_UNKNOWN && v->reason == arr_draw_reason && !v->alts && v->arr_shape && !v->arr_shape->nd;
}

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
	int lower;              /* a term of the lower bound */
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
	t[*n].lower = 0;
	if (!t[*n].text || !t[*n].text[0])
		return 0;
	(*n)++;
	return 1;
}

/* The window's length k of x[lo:hi], from the slice's code and its value
 * idx: its start drawn (drawn_start: a tensor, or a drawn integer plus
 * known ints), no step, and hi - lo a known int k >= 0 once
 * the terms written alike in both bounds cancel (x[i:i+k], x[i+1:i+1+k],
 * x[i+1:i+k+1], x[i:i+k+1], x[i-k:i]); -1 otherwise.  The terms that
 * cancel must name the same value in both bounds (names, attributes,
 * subscripts: no call); the ones left must each be a known int, so the
 * start cancels out. */
static long long window_len(struct frame *f, const struct ast_hdr *slice, const value_t *idx)
{
	const struct ast_Slice *sl;
	struct win_term t[WIN_TERMS];
	int n = 0, i, j, cancelled = 0;
	long long k = 0;

	if (!idx || idx->k != VK_SLICE || idx->u.slice.step->k != VK_NONE ||
	    (!drawn_start(idx->u.slice.lo) && idx->u.slice.lo->k != VK_UNKNOWN) || !AST_IS(slice, Slice))
		return -1;
	sl = AST_AS(slice, Slice);
	if (!sl->lower || !sl->upper || sl->step)
		return -1;
	if (!sum_terms(f, sl->upper, 1, t, &n, 0))
		return -1;
	j = n;
	if (!sum_terms(f, sl->lower, -1, t, &n, 0))
		return -1;
	for (i = j; i < n; i++)
		t[i].lower = 1;
	for (i = 0; i < n; i++)
		for (j = i + 1; t[i].sign && j < n; j++)
			if (t[j].sign == -t[i].sign && !strcmp(t[i].text, t[j].text) && stable_expr(t[i].e, 0)) {
				t[i].sign = t[j].sign = 0;
				cancelled = 1;
			}
	if (!cancelled)
		return -1;
	if (!drawn_start(idx->u.slice.lo)) {
		/* the start a value not known (i + 1 of a drawn i): each term of
		 * the lower bound that cancels a drawn integer or a known int,
		 * one at least drawn */
		int drawn = 0;

		for (i = 0; i < n; i++) {
			value_t *v;

			if (t[i].sign || !t[i].lower)
				continue;
			v = eval(f, t[i].e);
			if (drawn_start(v))
				drawn = 1;
			else if (v->k != VK_INT)
				return -1;
		}
		if (!drawn)
			return -1;
	}
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

value_t *colon_arg(const char *spec, value_t *const *args, size_t nargs, const struct vdict *kw)
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

/* The shape np.stack(seq) gives: seq a list or tuple of known length n
 * (1..VSHAPE_MAX-1 axes each) of arrays whose shape is known in part, all
 * of one rank: [n, *S], an axis of S known when every array knows it
 * alike; NULL otherwise.  A sequence a loop of a trip count not known
 * built (one representative item, every item made by the same code) is
 * [?, *S]: the representative's shape was read with the loop's variable
 * not known, so what it knows holds for every item (labels `np.stack`ed
 * from `[ds[i] for i in idx]`, rows of width 0: no element). */
/* The shape of an array x, known in part: its own, or, for an array on
 * each path of an undecided `if` (alternatives, alts.c), the two joined
 * when they are of one rank (an axis known when both know it alike).
 * NULL when x is no such array.  In the arena. */
static const struct vshape *item_arr_shape(struct frame *f, const value_t *x)
{
	const struct vshape *a, *b;
	struct vshape *j;
	unsigned d;

	if (x->k != VK_UNKNOWN)
		return NULL;
	if (!x->alts)
		return x->arr_shape;
	if (!x->alts[0] || !x->alts[1] || x->alts[0]->k != VK_UNKNOWN || x->alts[1]->k != VK_UNKNOWN ||
	    x->alts[0]->alts || x->alts[1]->alts || !(a = x->alts[0]->arr_shape) || !(b = x->alts[1]->arr_shape) ||
	    a->nd != b->nd || !(j = shape_new(f->in->a, a->nd)))
		return NULL;
	for (d = 0; d < a->nd; d++) {
		j->n[d] = a->n[d] == b->n[d] ? a->n[d] : -1;
		j->sym[d] = NULL;
	}
	return j;
}

static struct vshape *stack_shape(struct frame *f, const value_t *seq)
{
	const struct vshape **sh;
	const struct vshape *a0;
	struct vshape *s;
	size_t i;
	unsigned d;
	int rep;

	if (!seq || (seq->k != VK_LIST && seq->k != VK_TUPLE) || !seq->u.seq->n)
		return NULL;
	rep = seq->u.seq->unk_reason != NULL;
	if (rep && (seq->u.seq->prefix || seq->u.seq->n != 1))
		return NULL;
	sh = ast_arena_alloc(f->in->a, seq->u.seq->n * sizeof *sh);
	for (i = 0; i < seq->u.seq->n; i++)
		if (!(sh[i] = item_arr_shape(f, seq->u.seq->items[i])) || sh[i]->nd != sh[0]->nd)
			return NULL;
	a0 = sh[0];
	if (a0->nd + 1 > VSHAPE_MAX || !(s = shape_new(f->in->a, a0->nd + 1)))
		return NULL;
	s->n[0] = rep ? -1 : (long long)seq->u.seq->n;
	s->sym[0] = NULL;
	for (d = 0; d < a0->nd; d++) {
		s->n[d + 1] = a0->n[d];
		s->sym[d + 1] = a0->sym[d];      /* (a size the config may set keeps its name) */
		for (i = 1; i < seq->u.seq->n; i++)
			if (sh[i]->n[d] != a0->n[d] || sh[i]->sym[d] != a0->sym[d]) {
				s->n[d + 1] = -1;
				s->sym[d + 1] = NULL;
			}
	}
	return s;
}

/* The rank of a (an array whose shape is known in part, a list or tuple
 * of known length of Python numbers: 1), or -1 */
static int arr_rank(const value_t *a)
{
	size_t i;

	if (a->k == VK_UNKNOWN && !a->alts && a->arr_shape)
		return (int)a->arr_shape->nd;
	if ((a->k != VK_LIST && a->k != VK_TUPLE) || a->u.seq->unk_reason)
		return -1;
	for (i = 0; i < a->u.seq->n; i++) {
		enum vkind k = a->u.seq->items[i]->k;

		if (k != VK_INT && k != VK_FLOAT && k != VK_BOOL)
			return -1;
	}
	return 1;
}

/* Is v a 0-d array (a numpy scalar: a row of a 1-D array, arithmetic of
 * one) or a Python number? */
static int scalar_item(const value_t *v)
{
	if (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL)
		return 1;
	return v->k == VK_UNKNOWN && !v->alts && v->arr_shape && !v->arr_shape->nd;
}

/* The shape np.array(seq) gives: seq a list or tuple of known length n
 * whose items are all Python numbers or 0-d arrays: [n]; NULL otherwise */
static struct vshape *scalars_shape(struct frame *f, const value_t *seq)
{
	struct vshape *s;
	size_t i;

	if (seq->u.seq->unk_reason || !seq->u.seq->n)
		return NULL;
	for (i = 0; i < seq->u.seq->n; i++)
		if (!scalar_item(seq->u.seq->items[i]))
			return NULL;
	if ((s = shape_new(f->in->a, 1))) {
		s->n[0] = (long long)seq->u.seq->n;
		s->sym[0] = NULL;
	}
	return s;
}

/* Is keyword name given in kw? */
static int has_kw(const struct vdict *kw, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR && kw->keys[i]->u.str.len == len && !memcmp(kw->keys[i]->u.str.s, name, len))
			return 1;
	return 0;
}

/* Is s[0..n) one decimal number as numpy's text parser reads it between
 * separators: spaces around it, an optional sign, digits with at most
 * one point (at least one digit)? */
static int text_number(const char *s, size_t n)
{
	size_t i = 0, digits = 0, points = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] == '.' && !points)
			points++;
		else
			return 0;
	}
	return digits > 0;
}

/* np.fromstring(text, dtype, sep=sep) of a known text and separator
 * (catalog array_text_parsers): the number of pieces, each a number,
 * or -1. */
static long long text_pieces(const char *spec, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const value_t *t = colon_arg("string:0", args, nargs, kw), *sep = colon_arg(spec, args, nargs, kw);
	const value_t *count = colon_arg("count:2", args, nargs, kw);
	const char *p, *q, *end;
	long long n = 0;
	size_t sl;

	if (!t || t->k != VK_STR || !sep || sep->k != VK_STR || !(sl = sep->u.str.len) ||
	    (count && !(count->k == VK_INT && count->u.i == -1)) || kw_unk(kw, 1))
		return -1;
	p = t->u.str.s;
	end = p + t->u.str.len;
	for (;;) {
		q = p;
		while (q + sl <= end && memcmp(q, sep->u.str.s, sl))
			q++;
		if (q + sl > end)
			q = end;
		if (!text_number(p, (size_t)(q - p)))
			return -1;
		n++;
		if (q == end)
			return n;
		p = q + sl;
	}
}

void arr_reader_result(struct frame *f, const char *d, value_t *const *args, size_t nargs,
                       const struct vdict *kw, value_t *r)
{
	const char *text = catalog_fact(f->in->cat, CATALOG_F_ARRAY_TEXT_PARSERS, d);
	const char *other = catalog_fact(f->in->cat, CATALOG_F_ARRAY_READERS, d);
	const char *fac = catalog_fact(f->in->cat, CATALOG_F_ARRAY_FACTORIES, d);
	const char *draw = catalog_fact(f->in->cat, CATALOG_F_ARRAY_DRAWS, d);
	const char *stk = catalog_fact(f->in->cat, CATALOG_F_ARRAY_STACKERS, d);
	const char *conv = catalog_fact(f->in->cat, CATALOG_F_ARRAY_CONVERTERS, d);
	const char *scan = catalog_fact(f->in->cat, CATALOG_F_ARRAY_SCANS, d);
	const char *rng = catalog_fact(f->in->cat, CATALOG_F_ARRAY_RANGES, d);
	const char *tile = catalog_fact(f->in->cat, CATALOG_F_ARRAY_TILERS, d);
	const char *keep = catalog_fact(f->in->cat, CATALOG_F_ARRAY_SHAPE_KEEPERS, d);
	struct vshape *s;

	/* whatever its shape, what such a function returns is an array of
	 * its library, never a tensor (np.array(t) of a tensor makes an
	 * ndarray, or raises for a CUDA one), a list, a tuple or a dict:
	 * host data (facts.c host_datum), so `isinstance(x, torch.Tensor)`
	 * is False.  Not a running reduction's (np.cumsum(t) calls the
	 * tensor's own cumsum) */
	if ((text || other || fac || draw || stk || conv || rng || tile || keep) && r && r->k == VK_UNKNOWN &&
	    !r->alts && !r->nonneg)
		r->nonneg = FACT_HOST_DATA;
	if (keep && r && r->k == VK_UNKNOWN && !r->alts && nargs + (kw ? kw->n : 0) == 1) {
		/* np.sort(a), nothing else given: a's shape */
		const value_t *a = colon_arg(keep, args, nargs, kw);

		if (a && a->k == VK_UNKNOWN && !a->alts && a->arr_shape) {
			r->arr_shape = a->arr_shape;
			r->dt = a->dt;
		}
		return;
	}

	if (rng && r && r->k == VK_UNKNOWN && !r->alts && !kw_unk(kw, 1)) {
		/* np.arange(n): [n]; with a start or a step: 1-D, length not known */
		const value_t *n = colon_arg(rng, args, nargs, kw);
		int alone = nargs + (kw ? kw->n : 0) == 1 || (nargs == 1 && !has_kw(kw, "stop") &&
		            !has_kw(kw, "step") && !has_kw(kw, "start"));

		if ((s = shape_new(f->in->a, 1))) {
			s->n[0] = alone && n && n->k == VK_INT && n->u.i >= 0 ? n->u.i : -1;
			s->sym[0] = NULL;
			r->arr_shape = s;
			r->dt = (unsigned char)arr_dtype_kind(f->in->cat, kw ? vdict_gets(kw, "dtype") : NULL);
		}
		return;
	}
	if ((draw || stk || conv || scan) && (!r || r->k != VK_UNKNOWN || r->alts || kw_unk(kw, 1)))
		return;
	if (text) {
		/* np.fromstring('4-3-2', dtype=int, sep='-'): [3] */
		long long n = r && r->k == VK_UNKNOWN && !r->alts ? text_pieces(text, args, nargs, kw) : -1;

		if (n >= 0 && (s = shape_new(f->in->a, 1))) {
			s->n[0] = n;
			s->sym[0] = NULL;
			r->arr_shape = s;
		}
		return;
	}
	if (scan) {
		/* np.cumsum(a) with no axis: a flattened, so [n] for a list of
		 * n Python numbers (a nested item would add its own) or a 1-D
		 * array of n items */
		const value_t *a = colon_arg(scan, args, nargs, kw), *axis = colon_arg("axis:1", args, nargs, kw);
		long long n = -1;
		size_t i;

		/* axis 0 (or -1) of a 1-D array is the array itself */
		if (!a || (axis && axis->k != VK_NONE &&
		           !(axis->k == VK_INT && (axis->u.i == 0 || axis->u.i == -1) && arr_rank(a) == 1)))
			return;
		if ((a->k == VK_LIST || a->k == VK_TUPLE) && !a->u.seq->unk_reason) {
			/* every item one Python number, or a value not known of
			 * which the numbers beside it fix the shape: numpy makes
			 * the list an array of one shape (a scalar's, ()) or
			 * refuses it (an item of another shape: inhomogeneous) */
			size_t nums = 0;

			for (i = 0; i < a->u.seq->n; i++) {
				enum vkind k = a->u.seq->items[i]->k;

				if (k == VK_INT || k == VK_FLOAT || k == VK_BOOL)
					nums++;
				else if (k != VK_UNKNOWN || a->u.seq->items[i]->arr_shape)
					return;
			}
			if (!nums)
				return;
			n = (long long)a->u.seq->n;
		} else if (a->k == VK_UNKNOWN && !a->alts && a->arr_shape && a->arr_shape->nd == 1 && a->arr_shape->n[0] >= 0) {
			n = a->arr_shape->n[0];
		}
		if (n >= 0 && (s = shape_new(f->in->a, 1))) {
			s->n[0] = n;
			s->sym[0] = NULL;
			r->arr_shape = s;
		}
		return;
	}
	if (draw) {
		/* integers drawn at random: size not given (or None) is one */
		const value_t *size = colon_arg(draw, args, nargs, kw);

		if (!size || size->k == VK_NONE)
			s = shape_new(f->in->a, 0);
		else
			s = factory_shape(f, size);
		if (s) {
			r->arr_shape = s;
			r->reason = arr_draw_reason;
		}
		return;
	}
	if (stk) {
		/* np.stack(seq) on the first axis only */
		const value_t *axis = colon_arg("axis:1", args, nargs, kw);

		if (axis && !(axis->k == VK_INT && axis->u.i == 0))
			return;
		if ((s = stack_shape(f, colon_arg(stk, args, nargs, kw))))
			r->arr_shape = s;
		return;
	}
	if (conv) {
		/* np.array(a, dtype): a's shape; ndmin (or more positional
		 * arguments, where old numpy took it) may add axes */
		const value_t *a = colon_arg(conv, args, nargs, kw);

		if (nargs > 2 || has_kw(kw, "ndmin") || !a)
			return;
		if ((a->k == VK_LIST || a->k == VK_TUPLE) && (s = scalars_shape(f, a)))
			r->arr_shape = s;
		if (a->k != VK_UNKNOWN || a->alts || !a->arr_shape)
			return;
		r->arr_shape = a->arr_shape;
		return;
	}

	if (fac && r && r->k == VK_UNKNOWN && !r->alts && !kw_unk(kw, 1)) {
		/* np.zeros(shape, dtype): its elements' kind, float64 when
		 * none is given (array_float_defaults) */
		int fdef = catalog_fact(f->in->cat, CATALOG_F_ARRAY_FLOAT_DEFAULTS, d) != NULL;
		const value_t *dt = kw ? vdict_gets(kw, "dtype") : NULL;

		if ((s = factory_shape(f, colon_arg(fac, args, nargs, kw)))) {
			r->arr_shape = s;
			if (fdef && !dt && nargs >= 2)
				dt = args[1];
			r->dt = dt ? (unsigned char)arr_dtype_kind(f->in->cat, dt) : fdef && nargs < 2 ? DT_FLOAT : DT_UNKNOWN;
		}
		return;
	}
	if (tile && r && r->k == VK_UNKNOWN && !r->alts && !kw_unk(kw, 1)) {
		/* np.tile(A, k), k an int: A repeated along its last axis */
		const value_t *a = colon_arg(tile, args, nargs, kw), *reps = colon_arg("reps:1", args, nargs, kw);
		unsigned nd;

		if (!a || a->k != VK_UNKNOWN || a->alts || !a->arr_shape || !(nd = a->arr_shape->nd) ||
		    !reps || reps->k != VK_INT || reps->u.i < 0 || !(s = shape_new(f->in->a, nd)))
			return;
		*s = *a->arr_shape;
		if (s->n[nd - 1] >= 0 && __builtin_mul_overflow(s->n[nd - 1], reps->u.i, &s->n[nd - 1]))
			s->n[nd - 1] = -1;
		s->sym[nd - 1] = NULL;
		r->arr_shape = s;
		r->dt = a->dt;
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

value_t *arr_join(struct interp *in, const value_t *a, const value_t *b)
{
	struct vshape *s;
	value_t *r;
	unsigned d;

	if (!a || !b || a->k != VK_UNKNOWN || b->k != VK_UNKNOWN || a->alts || b->alts || !a->arr_shape ||
	    !b->arr_shape || a->arr_shape->nd != b->arr_shape->nd || !(s = shape_new(in->a, a->arr_shape->nd)))
		return NULL;
	for (d = 0; d < s->nd; d++) {
		s->n[d] = a->arr_shape->n[d] == b->arr_shape->n[d] ? a->arr_shape->n[d] : -1;
		s->sym[d] = NULL;
	}
	r = v_unknown(in->a, a->expr, "an array of another library");
	r->arr_shape = s;
	r->dt = a->dt == b->dt ? a->dt : DT_UNKNOWN;
	return r;
}

/* The shape of a row of an array of shape a (rank >= 1): its other axes */
static struct vshape *row_shape(struct frame *f, const struct vshape *a)
{
	struct vshape *row = shape_new(f->in->a, a->nd - 1);
	unsigned d;

	for (d = 1; row && d < a->nd; d++) {
		row->n[d - 1] = a->n[d];
		row->sym[d - 1] = a->sym[d];
	}
	return row;
}

int arr_rows(struct frame *f, const value_t *it, size_t max, struct vseq **out)
{
	const struct vshape *a;
	struct vshape *row;
	struct vseq *s;
	long long i;

	*out = NULL;
	if (!it || it->k != VK_UNKNOWN || it->alts || !(a = it->arr_shape) || a->nd < 1 || a->n[0] < 0 ||
	    (unsigned long long)a->n[0] > max)
		return 0;
	if (!(row = row_shape(f, a)))
		return 0;
	s = ast_arena_alloc(f->in->a, sizeof *s);
	for (i = 0; i < a->n[0]; i++) {
		value_t *x = v_unknown(f->in->a, NULL, it->reason ? it->reason : "an array of another library");

		x->dt = it->dt;

		/* a 0-d row is a numpy scalar: one of a draw is an integer (no
		 * Python int), another's type is the array's (np.float64 is a
		 * float: builtins.c's isinstance leaves float undecided) */
		x->arr_shape = row;
		vseq_push(f->in->a, s, x);
	}
	*out = s;
	return 1;
}

value_t *arr_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	value_t *m;

	if (!obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts)
		return NULL;
	if (!strcmp(name, "ndim"))
		return v_int(f->in->a, (long long)obj->arr_shape->nd);
	if (!strcmp(name, "size")) {
		/* numpy's ndarray.size: the product of the axes, when all
		 * are known */
		long long n = 1;
		unsigned d;

		for (d = 0; d < obj->arr_shape->nd; d++)
			if (obj->arr_shape->n[d] < 0 || __builtin_mul_overflow(n, obj->arr_shape->n[d], &n))
				return unknown_at(f, site, "the size of an array not known");
		return v_int(f->in->a, n);
	}
	if (!strcmp(name, "shape")) {
		/* numpy's ndarray.shape: a tuple of ints, one an axis */
		unsigned d;

		m = v_seq(f->in->a, VK_TUPLE, obj->arr_shape->nd);
		for (d = 0; d < obj->arr_shape->nd; d++)
			vseq_push(f->in->a, m->u.seq, obj->arr_shape->n[d] >= 0 ? v_int(f->in->a, obj->arr_shape->n[d])
			          : unknown_at(f, site, "an axis of an array not known"));
		return m;
	}
	if (!strcmp(name, "dtype") && obj->dt) {
		/* its kind of elements known: compared with a named dtype
		 * (dtypeeq.c) */
		m = unknown_at(f, site, arr_dtype_reason);
		m->dt = obj->dt;
		return m;
	}
	if (!catalog_fact(f->in->cat, CATALOG_F_ARRAY_SHAPE_METHODS, name))
		return NULL;
	m = unknown_at(f, site, ARR_METHOD_REASON);
	m->recv = obj;
	m->dt = !strcmp(name, "copy") ? obj->dt : DT_UNKNOWN;   /* astype changes it */
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
	r->dt = fn->dt;
	return r;
}

int arr_may_be_float(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->arr_shape && !v->arr_shape->nd && v->reason != arr_draw_reason;
}

value_t *arr_len(struct frame *f, const value_t *a)
{
	if (!a || a->k != VK_UNKNOWN || a->alts || !a->arr_shape || a->arr_shape->nd < 1 || a->arr_shape->n[0] < 0)
		return NULL;
	return v_int(f->in->a, a->arr_shape->n[0]);
}

/* The shape of an arithmetic operator's result when one operand is an
 * array whose shape is known in part: with a Python number or a 0-d
 * array beside it, the array's; two arrays of one shape known on every
 * axis, that shape; else NULL (broadcasting that may change the shape) */
static const struct vshape *binop_shape(const value_t *l, const value_t *r)
{
	const struct vshape *a = l->k == VK_UNKNOWN && !l->alts ? l->arr_shape : NULL;
	const struct vshape *b = r->k == VK_UNKNOWN && !r->alts ? r->arr_shape : NULL;
	unsigned d;

	if (!a && !b)
		return NULL;
	if (a && (scalar_item(r) || (b && !b->nd)))
		return a;
	if (b && (scalar_item(l) || (a && !a->nd)))
		return b;
	if (!a || !b || a->nd != b->nd)
		return NULL;
	for (d = 0; d < a->nd; d++)
		if (a->n[d] < 0 || a->n[d] != b->n[d])
			return NULL;
	return a;
}

value_t *arr_binop(struct frame *f, enum ast_operator op, const value_t *l, const value_t *r,
                   const struct ast_hdr *site)
{
	const struct vshape *sh;
	value_t *v;

	if (op != AST_OP_ADD && op != AST_OP_SUB && op != AST_OP_MULT && op != AST_OP_DIV && op != AST_OP_FLOORDIV &&
	    op != AST_OP_MOD && op != AST_OP_POW)
		return NULL;
	if (!(sh = binop_shape(l, r)))
		return NULL;
	v = unknown_at(f, site, "arithmetic of an array of another library");
	v->arr_shape = sh;
	return v;
}

value_t *arr_window(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx)
{
	long long k;
	struct vshape *sh;
	value_t *r;

	if (!obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts || !obj->arr_shape->nd)
		return NULL;
	/* a slice that is no window: the rank kept, the first axis not known */
	if ((k = window_len(f, s->slice, idx)) < 0 && (!idx || idx->k != VK_SLICE))
		return NULL;
	sh = shape_new(f->in->a, obj->arr_shape->nd);
	if (!sh)
		return NULL;
	*sh = *obj->arr_shape;
	sh->n[0] = k;
	sh->sym[0] = NULL;
	r = unknown_at(f, &s->h, obj->reason ? obj->reason : "an array of another library");
	r->arr_shape = sh;
	r->dt = obj->dt;
	return r;
}

/* Is v one integer as an index: a Python int, a 0-d array (a row of a
 * 1-D array, an integer drawn at run time), an int >= 0 not known (a
 * sampler's index)? */
static int int_index(const value_t *v)
{
	if (v->k == VK_INT)
		return 1;
	if (v->k != VK_UNKNOWN || v->alts)
		return 0;
	return (v->arr_shape && !v->arr_shape->nd) || v->nonneg == FACT_NONNEG_INT;
}

value_t *arr_item(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx)
{
	struct vshape *sh;
	value_t *r;

	if (!obj || obj->k != VK_UNKNOWN || !obj->arr_shape || obj->alts || !obj->arr_shape->nd || !idx ||
	    !int_index(idx))
		return NULL;
	if (!(sh = row_shape(f, obj->arr_shape)))
		return NULL;
	/* a row of a draw is a drawn integer, as arr_rows gives it */
	r = unknown_at(f, &s->h, obj->reason ? obj->reason : "an array of another library");
	r->arr_shape = sh;
	r->dt = obj->dt;
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
