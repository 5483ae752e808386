/* shapes.c - see include/ecg/shapes.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "ecg/shapes.h"

const char shape_dim_reason[] = "a size known only at run time";
const char size_unknown_reason[] = "a tensor's shape known only at run time (a torch.Size of Python ints)";

#define MAXD VSHAPE_MAX

struct vshape *shape_new(struct ast_arena *a, unsigned nd)
{
	struct vshape *s;
	unsigned i;

	if (nd > MAXD)
		return NULL;
	s = ast_arena_alloc(a, sizeof *s);
	s->nd = nd;
	for (i = 0; i < nd; i++)
		s->n[i] = -1;
	return s;
}

void slice_bounds(long long n, long long *lo, long long *hi)
{
	if (*lo < 0)
		*lo = *lo + n < 0 ? 0 : *lo + n;
	if (*hi < 0)
		*hi = *hi + n < 0 ? 0 : *hi + n;
	if (*lo > n)
		*lo = n;
	if (*hi > n)
		*hi = n;
}

static struct vshape *dup(struct ast_arena *a, const struct vshape *x)
{
	struct vshape *s = ast_arena_alloc(a, sizeof *s);

	*s = *x;
	return s;
}

const struct vshape *shape_of(const value_t *v)
{
	return v && v->k == VK_TENSOR ? v->shape : NULL;
}

int tensor_empty(const value_t *v)
{
	const struct vshape *s;
	unsigned i;

	if (!v)
		return 0;
	if (v->k == VK_TENSOR && v->no_elems)
		return 1;
	s = v->k == VK_TENSOR ? v->shape : v->k == VK_UNKNOWN && !v->alts ? v->arr_shape : NULL;
	for (i = 0; s && i < s->nd; i++)
		if (s->n[i] == 0)
			return 1;
	return 0;
}

static int is_name_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* "B", "T", "config.n_embd", "self.dim": a plain or dotted name, or
 * "x.shape[0]" (a dim the code did not name) */
static int is_dotted_name(const char *s)
{
	size_t len = strlen(s);
	int first = 1;
	const char *br = strstr(s, ".shape[");

	if (!len || len > 48)
		return 0;
	if (br) {
		const char *d = br + 7;

		if (*d < '0' || *d > '9')
			return 0;
		while (*d >= '0' && *d <= '9')
			d++;
		if (strcmp(d, "]"))
			return 0;
		len = (size_t)(br - s);
	}
	for (; *s && len; s++, len--) {
		if (*s == '.') {
			if (first)
				return 0;
			first = 1;
			continue;
		}
		if (!is_name_char(*s, first))
			return 0;
		first = 0;
	}
	return !first;
}

void shape_dim_of(const value_t *v, long long *n, const char **sym)
{
	*n = -1;
	*sym = NULL;
	if (!v)
		return;
	if (v->k == VK_INT && v->u.i >= 0)
		*n = v->u.i;
	else if (v->k == VK_UNKNOWN && v->expr && is_dotted_name(v->expr))
		*sym = v->expr;
}

value_t *shape_dim_value(struct ast_arena *a, const struct vshape *s, unsigned i, const char *expr)
{
	if (s && i < s->nd && s->n[i] >= 0)
		return v_int(a, s->n[i]);
	if (s && i < s->nd && s->sym[i])
		return v_unknown(a, s->sym[i], shape_dim_reason);
	return v_unknown(a, expr, shape_dim_reason);
}

static int dim_eq(const struct vshape *x, unsigned i, const struct vshape *y, unsigned j)
{
	if (x->n[i] >= 0 || y->n[j] >= 0)
		return x->n[i] == y->n[j];
	return x->sym[i] && y->sym[j] && !strcmp(x->sym[i], y->sym[j]);
}

int shape_same(const struct vshape *x, const struct vshape *y)
{
	unsigned k;

	if (!x || !y || x->nd != y->nd)
		return 0;
	for (k = 0; k < x->nd; k++)
		if (!dim_eq(x, k, y, k))
			return 0;
	return 1;
}

static void dim_copy(struct vshape *to, unsigned i, const struct vshape *from, unsigned j)
{
	to->n[i] = from->n[j];
	to->sym[i] = from->sym[j];
}

static void dim_set(struct vshape *to, unsigned i, long long n, const char *sym)
{
	to->n[i] = n;
	to->sym[i] = n >= 0 ? NULL : sym;
}

const struct vshape *shape_broadcast(struct ast_arena *a, const struct vshape *x, const struct vshape *y)
{
	struct vshape *s;
	unsigned nd, k;

	if (!x || !y)
		return NULL;
	nd = x->nd > y->nd ? x->nd : y->nd;
	s = shape_new(a, nd);
	if (!s)
		return NULL;
	for (k = 0; k < nd; k++) {
		/* aligned from the right */
		int hx = k < x->nd, hy = k < y->nd;
		unsigned ix = x->nd - 1 - k, iy = y->nd - 1 - k, o = nd - 1 - k;

		if (!hx) {
			dim_copy(s, o, y, iy);
		} else if (!hy) {
			dim_copy(s, o, x, ix);
		} else if (dim_eq(x, ix, y, iy)) {
			dim_copy(s, o, x, ix);
		} else if (x->n[ix] == 1) {
			dim_copy(s, o, y, iy);
		} else if (y->n[iy] == 1) {
			dim_copy(s, o, x, ix);
		} else if (x->n[ix] >= 0 && y->n[iy] >= 0) {
			return NULL;            /* does not broadcast: not what runs */
		} else if (x->n[ix] > 1) {
			dim_copy(s, o, x, ix);  /* the other is 1 or the same */
		} else if (y->n[iy] > 1) {
			dim_copy(s, o, y, iy);
		} else {
			dim_set(s, o, -1, NULL);
		}
	}
	return s;
}

static int is_number(const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL)
		return 1;
	return v->k == VK_UNKNOWN && v->reason == shape_dim_reason;
}

const struct vshape *shape_binop(struct ast_arena *a, const value_t *l, const value_t *r)
{
	int lt = l && l->k == VK_TENSOR, rt = r && r->k == VK_TENSOR;

	if (lt && rt)
		return shape_broadcast(a, l->shape, r->shape);
	if (lt && is_number(r))
		return l->shape;
	if (rt && is_number(l))
		return r->shape;
	return NULL;
}

/* Python's slice length for a dim of known size n. */
static long long slice_len(long long n, const value_t *lo, const value_t *hi, const value_t *st, int *ok)
{
	long long start, stop, step = 1, len;

	*ok = 0;
	if (st && st->k != VK_NONE) {
		if (st->k != VK_INT || st->u.i == 0)
			return -1;
		step = st->u.i;
	}
	if (lo && lo->k != VK_NONE && lo->k != VK_INT)
		return -1;
	if (hi && hi->k != VK_NONE && hi->k != VK_INT)
		return -1;
	if (step > 0) {
		start = lo && lo->k == VK_INT ? lo->u.i : 0;
		stop = hi && hi->k == VK_INT ? hi->u.i : n;
		slice_bounds(n, &start, &stop);
		len = stop > start ? (stop - start + step - 1) / step : 0;
	} else {
		start = lo && lo->k == VK_INT ? lo->u.i : n - 1;
		stop = hi && hi->k == VK_INT ? hi->u.i : -n - 1;
		if (start < 0)
			start = start + n < -1 ? -1 : start + n;
		if (stop < 0)
			stop = stop + n < -1 ? -1 : stop + n;
		if (start >= n)
			start = n - 1;
		if (stop >= n)
			stop = n - 1;
		len = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
	}
	*ok = 1;
	return len;
}

/* A list of known length whose items are all ints (x[:, [0, 2]]). */
static int list_of_ints(const value_t *v)
{
	size_t k;

	if (v->k != VK_LIST || v->u.seq->unk_reason || !v->u.seq->n)
		return 0;
	for (k = 0; k < v->u.seq->n; k++)
		if (v->u.seq->items[k]->k != VK_INT)
			return 0;
	return 1;
}

static int is_ellipsis(const value_t *v)
{
	return v->k == VK_UNKNOWN && v->expr && !strcmp(v->expr, "...");
}

const struct vshape *shape_index(struct ast_arena *a, const struct vshape *x, const value_t *idx)
{
	const value_t *one[1];
	value_t *const *items;
	size_t nitems, i, used = 0;
	struct vshape *s;
	unsigned in = 0, o = 0;
	int seen_ellipsis = 0, nlists = 0, nints = 0;

	if (!x || !idx)
		return NULL;
	if (idx->k == VK_TUPLE) {
		if (idx->u.seq->unk_reason)
			return NULL;
		items = idx->u.seq->items;
		nitems = idx->u.seq->n;
	} else {
		one[0] = idx;
		items = (value_t *const *)one;
		nitems = 1;
	}
	/* how many input dims the index consumes */
	for (i = 0; i < nitems; i++) {
		const value_t *v = items[i];

		if (v->k == VK_INT || v->k == VK_SLICE) {
			used++;
			nints += v->k == VK_INT;
		} else if (v->k == VK_LIST && list_of_ints(v)) {
			used++;
			nlists++;
		} else if (v->k == VK_NONE)
			continue;
		else if (v->k == VK_TENSOR && v->dt == DT_INT && nitems == 1 && v->shape && v->shape->nd + x->nd - 1 <= MAXD) {
			/* x[idx] with an integer tensor: idx's shape, then x's
			 * other dims */
			struct vshape *r = dup(a, v->shape);
			unsigned k;

			if (!x->nd)
				return NULL;
			for (k = 1; k < x->nd; k++)
				dim_copy(r, r->nd++, x, k);
			return r;
		} else if (is_ellipsis(v)) {
			if (seen_ellipsis)
				return NULL;
			seen_ellipsis = 1;
		} else {
			return NULL;            /* a tensor, a list, something not known */
		}
	}
	if (used > x->nd || (nlists && (nlists > 1 || nints)))
		return NULL;     /* lists with other advanced indices: not read */
	s = shape_new(a, 0);
	for (i = 0; i < nitems; i++) {
		const value_t *v = items[i];

		if (o >= MAXD)
			return NULL;
		if (v->k == VK_NONE) {
			dim_set(s, o++, 1, NULL);
		} else if (v->k == VK_INT) {
			long long k = v->u.i;

			if (x->n[in] >= 0 && (k >= x->n[in] || k < -x->n[in]))
				return NULL;    /* out of range: raises */
			in++;
		} else if (v->k == VK_LIST) {
			/* x[:, [-1], :]: the one advanced index, a list of n
			 * integers, gives a dim of n in its place */
			size_t k;

			for (k = 0; k < v->u.seq->n; k++) {
				long long j = v->u.seq->items[k]->u.i;

				if (x->n[in] >= 0 && (j >= x->n[in] || j < -x->n[in]))
					return NULL;    /* out of range: raises */
			}
			dim_set(s, o++, (long long)v->u.seq->n, NULL);
			in++;
		} else if (v->k == VK_SLICE) {
			const value_t *lo = v->u.slice.lo, *hi = v->u.slice.hi, *st = v->u.slice.step;
			int ok;

			if (x->n[in] >= 0) {
				long long len = slice_len(x->n[in], lo, hi, st, &ok);

				dim_set(s, o, ok ? len : -1, NULL);
			} else if (lo->k == VK_NONE && hi->k == VK_NONE && st->k == VK_NONE) {
				dim_copy(s, o, x, in);
			} else {
				dim_set(s, o, -1, NULL);
			}
			/* x[:T] of a longer buffer (a causal mask cut to the
			 * sequence): T, when T is a symbol the code names */
			if (s->n[o] < 0 && (lo->k == VK_NONE || (lo->k == VK_INT && lo->u.i == 0)) &&
			    st->k == VK_NONE && hi->k == VK_UNKNOWN) {
				long long n;
				const char *sym;

				shape_dim_of(hi, &n, &sym);
				if (sym && x->n[in] < 0 && x->sym[in] && !strcmp(sym, x->sym[in]))
					dim_copy(s, o, x, in);
				else if (sym && x->n[in] >= 0)
					dim_set(s, o, -1, sym);
			}
			o++;
			in++;
		} else {                        /* ...: the dims no index names */
			unsigned k, rest = (unsigned)(x->nd - used);

			for (k = 0; k < rest; k++) {
				if (o >= MAXD)
					return NULL;
				dim_copy(s, o++, x, in++);
			}
		}
	}
	while (in < x->nd) {
		if (o >= MAXD)
			return NULL;
		dim_copy(s, o++, x, in++);
	}
	s->nd = o;
	return s;
}

/* ------------------------------------------------------------------ calls */

static const value_t *kwv(const struct vdict *kw, const char *name)
{
	return kw ? vdict_gets(kw, name) : NULL;
}

/* positional i, else keyword name */
static const value_t *arg(value_t *const *args, size_t nargs, size_t i, const struct vdict *kw, const char *name)
{
	if (i < nargs)
		return args[i];
	return name ? kwv(kw, name) : NULL;
}

static int int_of(const value_t *v, long long *out)
{
	if (v && v->k == VK_INT) {
		*out = v->u.i;
		return 1;
	}
	return 0;
}

/* dim index d of a rank-nd tensor, normalised; -1 when out of range */
static int norm_dim(long long d, unsigned nd)
{
	if (d < 0)
		d += nd;
	return d >= 0 && d < (long long)nd ? (int)d : -1;
}

/* Sizes given as f(2, 3) or f((2, 3)) or f(torch.Size) from args[from]. */
static struct vshape *sizes_from(struct ast_arena *a, value_t *const *args, size_t nargs, size_t from,
                                 const value_t *kwsize)
{
	value_t *const *items;
	size_t n, i;
	struct vshape *s;

	if (nargs > from && (args[from]->k == VK_TUPLE || args[from]->k == VK_LIST)) {
		if (args[from]->u.seq->unk_reason || nargs > from + 1)
			return NULL;
		items = args[from]->u.seq->items;
		n = args[from]->u.seq->n;
	} else if (nargs == from + 1 && args[from]->k == VK_UNKNOWN && args[from]->reason != shape_dim_reason) {
		return NULL;            /* one value not known: a size or a torch.Size? */
	} else if (nargs > from) {
		items = args + from;
		n = nargs - from;
	} else if (kwsize && (kwsize->k == VK_TUPLE || kwsize->k == VK_LIST) && !kwsize->u.seq->unk_reason) {
		items = kwsize->u.seq->items;
		n = kwsize->u.seq->n;
	} else {
		return NULL;
	}
	s = shape_new(a, (unsigned)(n > MAXD ? MAXD + 1 : n));
	if (!s)
		return NULL;
	for (i = 0; i < n; i++) {
		if (items[i]->k == VK_TENSOR || items[i]->k == VK_EXT || items[i]->k == VK_FLOAT)
			return NULL;
		shape_dim_of(items[i], &s->n[i], &s->sym[i]);
	}
	return s;
}

static const struct vshape *first_tensor(value_t *const *args, size_t nargs, const struct vdict *kw)
{
	size_t i;

	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_TENSOR)
			return args[i]->shape;
	for (i = 0; kw && i < kw->n; i++)
		if (kw->vals[i]->k == VK_TENSOR)
			return kw->vals[i]->shape;
	return NULL;
}

static const struct vshape *broadcast_all(struct ast_arena *a, value_t *const *args, size_t nargs)
{
	const struct vshape *s = NULL;
	size_t i;
	int seen = 0;

	for (i = 0; i < nargs; i++) {
		if (args[i]->k == VK_TENSOR) {
			if (!args[i]->shape)
				return NULL;
			s = seen ? shape_broadcast(a, s, args[i]->shape) : args[i]->shape;
			seen = 1;
			if (!s)
				return NULL;
		} else if (!is_number(args[i])) {
			return NULL;
		}
	}
	return s;
}

static const struct vshape *view(struct ast_arena *a, const struct vshape *x, value_t *const *args,
                                 size_t nargs, size_t from)
{
	struct vshape *s = sizes_from(a, args, nargs, from, NULL);
	unsigned i, minus = MAXD + 1, nminus = 0;
	long long known_in = 1, known_out = 1;

	if (!s)
		return NULL;
	for (i = 0; i < s->nd; i++) {
		if (s->n[i] < 0 && !s->sym[i]) {
			/* -1, or a value not known */
			const value_t *v = args[from]->k == VK_TUPLE || args[from]->k == VK_LIST
			                   ? args[from]->u.seq->items[i] : args[from + i];

			if (v->k == VK_INT && v->u.i == -1) {
				minus = i;
				nminus++;
			}
		} else if (s->n[i] >= 0) {
			known_out *= s->n[i] ? s->n[i] : 1;
		}
	}
	/* negative ints other than -1 were rejected by shape_dim_of (n = -1,
	 * no symbol); they raise at run time */
	if (nminus > 1)
		return NULL;
	if (nminus == 1) {
		int all = x != NULL;

		for (i = 0; x && i < x->nd; i++) {
			if (x->n[i] < 0)
				all = 0;
			else
				known_in *= x->n[i];
		}
		for (i = 0; i < s->nd; i++)
			if (i != minus && s->n[i] < 0)
				all = 0;
		if (all && known_out && known_in % known_out == 0)
			s->n[minus] = known_in / known_out;
		else if (x && x->nd == s->nd) {
			/* x.view(B, T, -1) of a [B, T, C]: the other dims are
			 * the same, so is this one */
			int same = 1;

			for (i = 0; i < s->nd; i++)
				if (i != minus && !dim_eq(x, i, s, i))
					same = 0;
			if (same)
				dim_copy(s, minus, x, minus);
		}
	}
	return s;
}

static const struct vshape *permute(struct ast_arena *a, const struct vshape *x, value_t *const *args,
                                    size_t nargs, size_t from)
{
	value_t *const *items;
	size_t n, i;
	struct vshape *s;

	if (!x)
		return NULL;
	if (nargs == from + 1 && (args[from]->k == VK_TUPLE || args[from]->k == VK_LIST)) {
		if (args[from]->u.seq->unk_reason)
			return NULL;
		items = args[from]->u.seq->items;
		n = args[from]->u.seq->n;
	} else {
		items = args + from;
		n = nargs - from;
	}
	if (n != x->nd)
		return NULL;
	s = shape_new(a, x->nd);
	for (i = 0; i < n; i++) {
		long long d;
		int k;

		if (!int_of(items[i], &d) || (k = norm_dim(d, x->nd)) < 0)
			return NULL;
		dim_copy(s, (unsigned)i, x, (unsigned)k);
	}
	return s;
}

static const struct vshape *reduce(struct ast_arena *a, const struct vshape *x, const value_t *dim,
                                   const value_t *keepdim)
{
	struct vshape *s;
	int keep = keepdim && keepdim->k == VK_BOOL ? keepdim->u.b : keepdim && keepdim->k == VK_INT ? keepdim->u.i != 0 : 0;
	int drop[MAXD] = { 0 };
	unsigned i, o = 0;

	if (!x)
		return NULL;
	if (keepdim && keepdim->k != VK_BOOL && keepdim->k != VK_INT && keepdim->k != VK_NONE)
		return NULL;
	if (!dim || dim->k == VK_NONE) {
		if (keep) {
			s = shape_new(a, x->nd);
			for (i = 0; i < x->nd; i++)
				dim_set(s, i, 1, NULL);
			return s;
		}
		return shape_new(a, 0);
	}
	if (dim->k == VK_INT) {
		int k = norm_dim(dim->u.i, x->nd);

		if (k < 0)
			return NULL;
		drop[k] = 1;
	} else if ((dim->k == VK_TUPLE || dim->k == VK_LIST) && !dim->u.seq->unk_reason) {
		size_t j;

		for (j = 0; j < dim->u.seq->n; j++) {
			long long d;
			int k;

			if (!int_of(dim->u.seq->items[j], &d) || (k = norm_dim(d, x->nd)) < 0)
				return NULL;
			drop[k] = 1;
		}
	} else {
		return NULL;
	}
	s = shape_new(a, x->nd);
	for (i = 0; i < x->nd; i++) {
		if (!drop[i])
			dim_copy(s, o++, x, i);
		else if (keep)
			dim_set(s, o++, 1, NULL);
	}
	s->nd = o;
	return s;
}

static const struct vshape *matmul(struct ast_arena *a, const struct vshape *x, const struct vshape *y)
{
	struct vshape bx, by, *s;
	const struct vshape *b;
	unsigned i;

	if (!x || !y || !x->nd || !y->nd)
		return NULL;
	if (x->nd == 1 && y->nd == 1)
		return dim_eq(x, 0, y, 0) || x->n[0] < 0 || y->n[0] < 0 ? shape_new(a, 0) : NULL;
	if (y->nd == 1) {               /* [..., n, k] @ [k] -> [..., n] */
		s = dup(a, x);
		s->nd--;
		return s;
	}
	if (x->nd == 1) {               /* [k] @ [..., k, m] -> [..., m] */
		s = dup(a, y);
		dim_copy(s, y->nd - 2, y, y->nd - 1);
		s->nd--;
		return s;
	}
	if (x->n[x->nd - 1] >= 0 && y->n[y->nd - 2] >= 0 && x->n[x->nd - 1] != y->n[y->nd - 2])
		return NULL;            /* raises */
	/* batch dims broadcast */
	memset(&bx, 0, sizeof bx);
	memset(&by, 0, sizeof by);
	bx.nd = x->nd - 2;
	by.nd = y->nd - 2;
	for (i = 0; i < bx.nd; i++)
		dim_copy(&bx, i, x, i);
	for (i = 0; i < by.nd; i++)
		dim_copy(&by, i, y, i);
	b = shape_broadcast(a, &bx, &by);
	if (!b || b->nd + 2 > MAXD)
		return NULL;
	s = dup(a, b);
	s->nd = b->nd + 2;
	dim_copy(s, b->nd, x, x->nd - 2);
	dim_copy(s, b->nd + 1, y, y->nd - 1);
	return s;
}

/* torch.cat / torch.stack of a known sequence of tensors */
static const struct vshape *cat_stack(struct ast_arena *a, const value_t *seq, const value_t *dimv, int stack)
{
	const struct vshape *x;
	struct vshape *s;
	long long d = 0, sum = 0;
	size_t i;
	int k, all = 1;

	if (!seq || (seq->k != VK_TUPLE && seq->k != VK_LIST) || seq->u.seq->unk_reason || !seq->u.seq->n)
		return NULL;
	if (dimv && !int_of(dimv, &d))
		return NULL;
	for (i = 0; i < seq->u.seq->n; i++)
		if (!shape_of(seq->u.seq->items[i]))
			return NULL;
	x = seq->u.seq->items[0]->shape;
	if (stack) {
		if (x->nd + 1 > MAXD || (k = norm_dim(d, x->nd + 1)) < 0)
			return NULL;
		s = shape_new(a, x->nd + 1);
		for (i = 0; i < (size_t)k; i++)
			dim_copy(s, (unsigned)i, x, (unsigned)i);
		dim_set(s, (unsigned)k, (long long)seq->u.seq->n, NULL);
		for (i = (size_t)k; i < x->nd; i++)
			dim_copy(s, (unsigned)i + 1, x, (unsigned)i);
		return s;
	}
	if ((k = norm_dim(d, x->nd)) < 0)
		return NULL;
	for (i = 0; i < seq->u.seq->n; i++) {
		const struct vshape *y = seq->u.seq->items[i]->shape;

		if (y->nd != x->nd)
			return NULL;
		if (y->n[k] < 0)
			all = 0;
		else
			sum += y->n[k];
	}
	s = dup(a, x);
	if (seq->u.seq->n == 1)
		return s;
	dim_set(s, (unsigned)k, all ? sum : -1, NULL);
	return s;
}

/* torch.tensor(nested lists): the nesting's lengths */
static const struct vshape *data_shape(struct ast_arena *a, const value_t *v)
{
	struct vshape *s = shape_new(a, 0);

	while (v && (v->k == VK_LIST || v->k == VK_TUPLE)) {
		if (v->u.seq->unk_reason || s->nd >= MAXD)
			return NULL;
		dim_set(s, s->nd++, (long long)v->u.seq->n, NULL);
		if (!v->u.seq->n)
			break;
		v = v->u.seq->items[0];
	}
	if (v && v->k != VK_INT && v->k != VK_FLOAT && v->k != VK_BOOL && !(v->k == VK_LIST || v->k == VK_TUPLE))
		return NULL;
	return s;
}

static const struct vshape *arange(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const value_t *start = NULL, *end = NULL, *step = NULL;
	struct vshape *s;
	double fs, fe, fp = 1;

	if (nargs == 1) {
		end = args[0];
	} else if (nargs >= 2) {
		start = args[0];
		end = args[1];
		step = nargs >= 3 ? args[2] : NULL;
	} else {
		end = kwv(kw, "end");
		start = kwv(kw, "start");
	}
	if (!step)
		step = kwv(kw, "step");
	if (!end)
		return NULL;
	s = shape_new(a, 1);
	if ((!start || (start->k == VK_INT && start->u.i == 0)) && (!step || (step->k == VK_INT && step->u.i == 1))) {
		long long n;
		const char *sym;

		shape_dim_of(end, &n, &sym);
		if (end->k == VK_FLOAT)
			return NULL;
		dim_set(s, 0, n, sym);
		return s;
	}
#define NUM(v, out) ((v)->k == VK_INT ? ((out) = (double)(v)->u.i, 1) : (v)->k == VK_FLOAT ? ((out) = (v)->u.f, 1) : 0)
	fs = 0;
	if ((start && !NUM(start, fs)) || !NUM(end, fe) || (step && !NUM(step, fp)) || fp == 0)
		return s;       /* rank 1, length not known */
#undef NUM
	{
		double len = (fe - fs) / fp;
		long long n = (long long)len;

		if ((double)n < len)
			n++;
		dim_set(s, 0, n < 0 ? 0 : n, NULL);
	}
	return s;
}

static const struct vshape *einsum(struct ast_arena *a, value_t *const *args, size_t nargs);

/* ------------------------------------------------------------------ shape rules */

/* One call being shaped: x is args[0]'s shape (NULL when not known). */
struct sc {
	struct ast_arena *a;
	const char *name;
	value_t *const *args;
	size_t nargs;
	const struct vdict *kw;
	const struct vshape *x;
	int tensor_m;
};

typedef const struct vshape *shape_rule_fn(const struct sc *c);

/* operators as methods: x.__add__(y) */
static const struct vshape *r_broadcast2(const struct sc *c)
{
	return c->nargs == 2 ? shape_binop(c->a, c->args[0], c->args[1]) : NULL;
}

static const struct vshape *r_matmul2(const struct sc *c)
{
	return c->nargs == 2 ? matmul(c->a, c->x, shape_of(c->args[1])) : NULL;
}

/* the shape of the tensor itself (x.to(...), -x) */
static const struct vshape *r_self(const struct sc *c)
{
	return c->x;
}

static const struct vshape *r_same(const struct sc *c)
{
	return first_tensor(c->args, c->nargs, c->kw);
}

static const struct vshape *r_broadcast(const struct sc *c)
{
	return broadcast_all(c->a, c->args, c->nargs);
}

/* torch.zeros(*size) */
static const struct vshape *r_sizes(const struct sc *c)
{
	return sizes_from(c->a, c->args, c->nargs, 0, kwv(c->kw, "size"));
}

/* x.new_zeros(*size) */
static const struct vshape *r_new_sizes(const struct sc *c)
{
	return sizes_from(c->a, c->args, c->nargs, 1, kwv(c->kw, "size"));
}

static const struct vshape *r_new_full(const struct sc *c)
{
	return c->nargs >= 2 ? sizes_from(c->a, c->args + 1, 1, 0, NULL) : NULL;
}

static const struct vshape *r_full(const struct sc *c)
{
	return c->nargs >= 1 ? sizes_from(c->a, c->args, 1, 0, NULL) : NULL;
}

/* randint(high, size) or randint(low, high, size) */
static const struct vshape *r_randint(const struct sc *c)
{
	size_t i;

	for (i = c->nargs; i-- > 0;)
		if (c->args[i]->k == VK_TUPLE || c->args[i]->k == VK_LIST)
			return sizes_from(c->a, c->args + i, 1, 0, NULL);
	return sizes_from(c->a, NULL, 0, 0, kwv(c->kw, "size"));
}

/* a 1-D tensor of n elements, n the argument at pos or keyword kwname */
static const struct vshape *one_dim(const struct sc *c, size_t pos, const char *kwname)
{
	const value_t *n = arg(c->args, c->nargs, pos, c->kw, kwname);
	struct vshape *s;

	if (!n)
		return NULL;
	s = shape_new(c->a, 1);
	shape_dim_of(n, &s->n[0], &s->sym[0]);
	return s;
}

static const struct vshape *r_randperm(const struct sc *c)
{
	return one_dim(c, 0, "n");
}

/* linspace / logspace(start, end, steps) */
static const struct vshape *r_steps(const struct sc *c)
{
	return one_dim(c, 2, "steps");
}

static const struct vshape *r_arange(const struct sc *c)
{
	return arange(c->a, c->args, c->nargs, c->kw);
}

static const struct vshape *r_eye(const struct sc *c)
{
	struct vshape *s;

	if (c->nargs < 1)
		return NULL;
	s = shape_new(c->a, 2);
	shape_dim_of(c->args[0], &s->n[0], &s->sym[0]);
	if (c->nargs >= 2)
		shape_dim_of(c->args[1], &s->n[1], &s->sym[1]);
	else
		dim_copy(s, 1, s, 0);
	return s;
}

/* torch.tensor(data) */
static const struct vshape *r_data(const struct sc *c)
{
	if (c->nargs < 1)
		return NULL;
	if (c->args[0]->k == VK_UNKNOWN)     /* an array whose shape is known (interp/arrays.c) */
		return c->args[0]->arr_shape && !c->args[0]->alts ? c->args[0]->arr_shape : NULL;
	return c->args[0]->k == VK_TENSOR ? c->args[0]->shape : data_shape(c->a, c->args[0]);
}

static const struct vshape *r_view(const struct sc *c)
{
	if (c->tensor_m && c->nargs == 2 && c->args[1]->k == VK_EXT)
		return c->x;               /* view(dtype) */
	return view(c->a, c->x, c->args, c->nargs, 1);
}

static const struct vshape *r_einsum(const struct sc *c)
{
	return einsum(c->a, c->args, c->nargs);
}

static const struct vshape *r_cat(const struct sc *c)
{
	return cat_stack(c->a, arg(c->args, c->nargs, 0, c->kw, "tensors"), arg(c->args, c->nargs, 1, c->kw, "dim"), 0);
}

static const struct vshape *r_stack(const struct sc *c)
{
	return cat_stack(c->a, arg(c->args, c->nargs, 0, c->kw, "tensors"), arg(c->args, c->nargs, 1, c->kw, "dim"), 1);
}

/* x.view_as(y): y's shape */
static const struct vshape *r_like(const struct sc *c)
{
	return c->nargs >= 2 ? shape_of(c->args[1]) : NULL;
}

static const struct vshape *r_flatten(const struct sc *c)
{
	const struct vshape *x = c->x;
	const value_t *sv = arg(c->args, c->nargs, 1, c->kw, "start_dim"), *ev = arg(c->args, c->nargs, 2, c->kw, "end_dim");
	struct vshape *s;
	long long d = 0, e = -1, prod = 1;
	unsigned i, o = 0;
	int ks, ke, all = 1;

	if (!x) {
		/* x.flatten(2) of a tensor whose shape is not known: whatever its
		 * rank (3 or more, or it raises), the result has rank 3 */
		if (c->nargs < 1 || c->args[0]->k != VK_TENSOR)
			return NULL;
		if ((sv && !int_of(sv, &d)) || (ev && !int_of(ev, &e)) || e != -1 || d < 0 || d + 1 > MAXD)
			return NULL;
		return shape_new(c->a, (unsigned)d + 1);
	}
	if ((sv && !int_of(sv, &d)) || (ev && !int_of(ev, &e)))
		return NULL;
	if (!x->nd)
		return NULL;
	if ((ks = norm_dim(d, x->nd)) < 0 || (ke = norm_dim(e, x->nd)) < 0 || ks > ke)
		return NULL;
	s = shape_new(c->a, x->nd);
	for (i = 0; i < (unsigned)ks; i++)
		dim_copy(s, o++, x, i);
	for (i = (unsigned)ks; i <= (unsigned)ke; i++) {
		if (x->n[i] < 0)
			all = 0;
		else
			prod *= x->n[i];
	}
	if (ks == ke)
		dim_copy(s, o++, x, (unsigned)ks);
	else
		dim_set(s, o++, all ? prod : -1, NULL);
	for (i = (unsigned)ke + 1; i < x->nd; i++)
		dim_copy(s, o++, x, i);
	s->nd = o;
	return s;
}

static const struct vshape *r_transpose(const struct sc *c)
{
	const struct vshape *x = c->x;
	struct vshape *s;
	long long d, e;
	int i, j;

	if (c->nargs < 3 || !int_of(c->args[1], &d) || !int_of(c->args[2], &e) ||
	    (i = norm_dim(d, x->nd)) < 0 || (j = norm_dim(e, x->nd)) < 0)
		return NULL;
	s = dup(c->a, x);
	dim_copy(s, (unsigned)i, x, (unsigned)j);
	dim_copy(s, (unsigned)j, x, (unsigned)i);
	return s;
}

static const struct vshape *r_t(const struct sc *c)
{
	const struct vshape *x = c->x;
	struct vshape *s;

	if (x->nd > 2)
		return NULL;
	s = dup(c->a, x);
	if (x->nd == 2) {
		dim_copy(s, 0, x, 1);
		dim_copy(s, 1, x, 0);
	}
	return s;
}

static const struct vshape *r_permute(const struct sc *c)
{
	return permute(c->a, c->x, c->args, c->nargs, 1);
}

static const struct vshape *r_unsqueeze(const struct sc *c)
{
	const struct vshape *x = c->x;
	const value_t *dv = arg(c->args, c->nargs, 1, c->kw, "dim");
	struct vshape *s;
	long long d;
	unsigned i;
	int k;

	if (!int_of(dv, &d) || (k = norm_dim(d, x->nd + 1)) < 0 || x->nd + 1 > MAXD)
		return NULL;
	s = shape_new(c->a, x->nd + 1);
	for (i = 0; i < (unsigned)k; i++)
		dim_copy(s, i, x, i);
	dim_set(s, (unsigned)k, 1, NULL);
	for (i = (unsigned)k; i < x->nd; i++)
		dim_copy(s, i + 1, x, i);
	return s;
}

static const struct vshape *r_squeeze(const struct sc *c)
{
	const struct vshape *x = c->x;
	const value_t *dv = arg(c->args, c->nargs, 1, c->kw, "dim");
	struct vshape *s;
	long long d;
	unsigned i, o = 0;
	int k;

	s = shape_new(c->a, x->nd);
	if (!dv) {
		for (i = 0; i < x->nd; i++) {
			if (x->n[i] < 0)
				return NULL;
			if (x->n[i] != 1)
				dim_copy(s, o++, x, i);
		}
		s->nd = o;
		return s;
	}
	if (!int_of(dv, &d) || (k = norm_dim(d, x->nd)) < 0)
		return NULL;
	if (x->n[k] < 0)
		return NULL;
	for (i = 0; i < x->nd; i++)
		if (i != (unsigned)k || x->n[i] != 1)
			dim_copy(s, o++, x, i);
	s->nd = o;
	return s;
}

static const struct vshape *r_expand(const struct sc *c)
{
	const struct vshape *x = c->x;
	value_t *const *args = c->args;
	struct vshape *t = sizes_from(c->a, args, c->nargs, 1, NULL);
	unsigned i;

	if (!t || t->nd < x->nd)
		return NULL;
	for (i = 0; i < t->nd; i++) {
		const value_t *v = args[1]->k == VK_TUPLE || args[1]->k == VK_LIST
		                   ? args[1]->u.seq->items[i] : args[1 + i];
		unsigned off = t->nd - x->nd;

		if (v->k == VK_INT && v->u.i == -1) {
			if (i < off)
				return NULL;
			dim_copy(t, i, x, i - off);
		}
	}
	return t;
}

static const struct vshape *r_repeat(const struct sc *c)
{
	const struct vshape *x = c->x;
	struct vshape *t = sizes_from(c->a, c->args, c->nargs, 1, NULL);
	unsigned i, off;

	if (!t || t->nd < x->nd)
		return NULL;
	off = t->nd - x->nd;
	for (i = off; i < t->nd; i++) {
		if (t->n[i] == 1)
			dim_copy(t, i, x, i - off);
		else if (t->n[i] >= 0 && x->n[i - off] >= 0)
			t->n[i] *= x->n[i - off];
		else
			dim_set(t, i, -1, NULL);
	}
	return t;
}

static const struct vshape *r_reduce(const struct sc *c)
{
	return reduce(c->a, c->x, arg(c->args, c->nargs, 1, c->kw, "dim"),
	              kwv(c->kw, "keepdim") ? kwv(c->kw, "keepdim") : c->nargs >= 3 ? c->args[2] : NULL);
}

/* max(x), min(x), norm(x): the whole tensor's (a scalar) */
static const struct vshape *r_whole(const struct sc *c)
{
	return c->nargs == 1 && !kwv(c->kw, "dim") ? shape_new(c->a, 0) : NULL;
}

static const struct vshape *r_matmul(const struct sc *c)
{
	return c->nargs >= 2 ? matmul(c->a, c->x, shape_of(c->args[1])) : NULL;
}

static const struct vshape *r_linear(const struct sc *c)
{
	const struct vshape *x = c->x, *w = shape_of(arg(c->args, c->nargs, 1, c->kw, "weight"));
	struct vshape *s;

	if (!w || w->nd != 2 || !x->nd)
		return NULL;
	if (x->n[x->nd - 1] >= 0 && w->n[1] >= 0 && x->n[x->nd - 1] != w->n[1])
		return NULL;
	s = dup(c->a, x);
	dim_copy(s, x->nd - 1, w, 0);
	return s;
}

static const struct vshape *r_embedding(const struct sc *c)
{
	const struct vshape *x = c->x, *w = shape_of(arg(c->args, c->nargs, 1, c->kw, "weight"));
	struct vshape *s;

	if (!w || w->nd != 2 || x->nd + 1 > MAXD)
		return NULL;
	s = dup(c->a, x);
	s->nd++;
	dim_copy(s, x->nd, w, 1);
	return s;
}

/* scaled_dot_product_attention(q, k, v): q's shape with v's last dim */
static const struct vshape *r_sdpa(const struct sc *c)
{
	const struct vshape *x = c->x, *v = shape_of(arg(c->args, c->nargs, 2, c->kw, "value"));
	struct vshape *s;

	if (!v || !v->nd || !x->nd)
		return NULL;
	s = dup(c->a, x);
	dim_copy(s, x->nd - 1, v, v->nd - 1);
	return s;
}

/* losses: a scalar with the default reduction */
static const struct vshape *r_loss(const struct sc *c)
{
	const value_t *r = kwv(c->kw, "reduction");

	if (!r || (r->k == VK_STR && (!strcmp(r->u.str.s, "mean") || !strcmp(r->u.str.s, "sum"))))
		return shape_new(c->a, 0);
	return NULL;
}

static const struct vshape *r_outer(const struct sc *c)
{
	const struct vshape *x = c->x, *y;
	struct vshape *s;

	if (c->nargs < 2)
		return NULL;
	y = shape_of(c->args[1]);
	if (x->nd != 1 || !y || y->nd != 1)
		return NULL;
	s = shape_new(c->a, 2);
	dim_copy(s, 0, x, 0);
	dim_copy(s, 1, y, 0);
	return s;
}

/* The rules by the names torch_facts.json's "shape_rules" gives them,
 * sorted; needs_x: NULL when the input's shape is not known. */
static const struct shape_rule {
	const char *name;
	shape_rule_fn *fn;
	int needs_x;
} SHAPE_RULES[] = {
	{ "arange", r_arange, 0 }, { "broadcast", r_broadcast, 0 }, { "broadcast2", r_broadcast2, 0 },
	{ "cat", r_cat, 0 }, { "data", r_data, 0 }, { "einsum", r_einsum, 0 }, { "embedding", r_embedding, 1 },
	{ "expand", r_expand, 1 }, { "eye", r_eye, 0 }, { "flatten", r_flatten, 0 }, { "full", r_full, 0 },
	{ "like", r_like, 0 }, { "linear", r_linear, 1 }, { "loss", r_loss, 1 }, { "matmul", r_matmul, 1 },
	{ "matmul2", r_matmul2, 0 }, { "new_full", r_new_full, 0 }, { "new_sizes", r_new_sizes, 0 },
	{ "outer", r_outer, 1 }, { "permute", r_permute, 1 }, { "polar", r_broadcast, 1 },
	{ "randint", r_randint, 0 }, { "randperm", r_randperm, 0 }, { "reduce", r_reduce, 1 },
	{ "repeat", r_repeat, 1 }, { "same", r_same, 0 }, { "sdpa", r_sdpa, 1 }, { "self", r_self, 0 },
	{ "sizes", r_sizes, 0 }, { "squeeze", r_squeeze, 1 }, { "stack", r_stack, 0 }, { "steps", r_steps, 0 },
	{ "t", r_t, 1 }, { "transpose", r_transpose, 1 }, { "unsqueeze", r_unsqueeze, 1 },
	{ "view", r_view, 0 }, { "whole", r_whole, 1 },
};

static int cmp_named(const void *key, const void *elt)
{
	return strcmp(key, *(const char *const *)elt);
}

const struct vshape *shape_of_call(const struct catalog *cat, struct ast_arena *a, const char *op,
                                   value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const char *name = strrchr(op, '.');
	int tensor_m = !strncmp(op, "Tensor.", 7);
	int functional = !strncmp(op, "torch.nn.functional.", 20);
	const struct shape_rule *r;
	const char *rule;
	struct sc c;

	name = name ? name + 1 : op;
	if (!tensor_m && !functional && strncmp(op, "torch.", 6))
		return NULL;
	if (!tensor_m && !functional && strchr(op + 6, '.'))
		return NULL;            /* torch.cuda.*, torch.distributed.* ... */
	rule = catalog_fact_on(cat, CATALOG_F_SHAPE_RULES, name,
	                       tensor_m ? CATALOG_ON_TENSOR : functional ? CATALOG_ON_FUNCTIONAL : CATALOG_ON_TORCH);
	r = rule ? bsearch(rule, SHAPE_RULES, sizeof SHAPE_RULES / sizeof SHAPE_RULES[0], sizeof SHAPE_RULES[0],
	                   cmp_named) : NULL;
	if (!r)
		return NULL;
	c.a = a;
	c.name = name;
	c.args = args;
	c.nargs = nargs;
	c.kw = kw;
	c.x = nargs ? shape_of(args[0]) : NULL;
	c.tensor_m = tensor_m;
	if (r->needs_x && !c.x)
		return NULL;
	return r->fn(&c);
}

/* torch.einsum("bhqd,bhkd->bhqk", q, k): the output letters' sizes from
 * the operands (an explicit "->" and no "..." only) */
static const struct vshape *einsum(struct ast_arena *a, value_t *const *args, size_t nargs)
{
	long long n[128];
	const char *sym[128];
	const char *spec, *arrow, *p;
	size_t op = 1;
	unsigned k;
	struct vshape *s;

	if (nargs < 2 || args[0]->k != VK_STR)
		return NULL;
	spec = args[0]->u.str.s;
	if (strstr(spec, "...") || !(arrow = strstr(spec, "->")))
		return NULL;
	for (k = 0; k < 128; k++) {
		n[k] = -2;          /* letter not seen */
		sym[k] = NULL;
	}
	if (nargs == 2 && (args[1]->k == VK_LIST || args[1]->k == VK_TUPLE))
		return NULL;        /* einsum(spec, [a, b]): not followed */
	k = 0;
	for (p = spec; p < arrow; p++) {
		const struct vshape *x;
		unsigned char c = (unsigned char)*p;

		if (c == ' ')
			continue;
		if (c == ',') {
			op++;
			k = 0;
			continue;
		}
		if (c >= 128 || op >= nargs || !(x = shape_of(args[op])) || k >= x->nd)
			return NULL;
		if (n[c] == -2 || (n[c] < 0 && !sym[c])) {
			n[c] = x->n[k];
			sym[c] = x->sym[k];
		} else if (n[c] < 0 && x->n[k] >= 0) {
			n[c] = x->n[k];             /* a known size beats a symbol */
			sym[c] = NULL;
		}
		k++;
	}
	s = shape_new(a, 0);
	for (p = arrow + 2; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ')
			continue;
		if (c >= 128 || n[c] == -2 || s->nd >= MAXD)
			return NULL;
		dim_set(s, s->nd++, n[c], sym[c]);
	}
	return s;
}

/* unbind(x, dim): one piece per index of dim, without it */
static size_t pieces_unbind(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
                            const struct vshape **out, size_t cap)
{
	const struct vshape *x = shape_of(args[0]);
	const value_t *dimv = arg(args, nargs, 1, kw, "dim");
	long long d = 0;
	size_t i;
	int k;

	if ((dimv && !int_of(dimv, &d)) || !x || (k = norm_dim(d, x->nd)) < 0 || x->n[k] < 0 ||
	    x->n[k] > (long long)cap)
		return 0;
	for (i = 0; i < (size_t)x->n[k]; i++) {
		struct vshape *s = shape_new(a, x->nd - 1);
		unsigned j, o = 0;

		for (j = 0; j < x->nd; j++)
			if (j != (unsigned)k)
				dim_copy(s, o++, x, j);
		out[i] = s;
	}
	return (size_t)x->n[k];
}

/* split(x, [a, b, c], dim) or split(x, n, dim): pieces of n along dim
 * (how many needs the dim's size) */
static size_t pieces_split(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
                           const struct vshape **out, size_t cap)
{
	const struct vshape *x = shape_of(args[0]);
	const value_t *what = arg(args, nargs, 1, kw, "split_size_or_sections"), *dimv = arg(args, nargs, 2, kw, "dim");
	long long d = 0, n;
	size_t count, i;
	int k;

	if (!what || (dimv && !int_of(dimv, &d)))
		return 0;
	k = x ? norm_dim(d, x->nd) : -1;
	if (what->k == VK_LIST || what->k == VK_TUPLE) {
		if (what->u.seq->unk_reason || what->u.seq->n > cap)
			return 0;
		for (i = 0; i < what->u.seq->n; i++) {
			struct vshape *s;

			out[i] = NULL;
			if (k < 0)
				continue;
			s = dup(a, x);
			shape_dim_of(what->u.seq->items[i], &s->n[k], &s->sym[k]);
			out[i] = s;
		}
		return what->u.seq->n;
	}
	if (!int_of(what, &n) || n <= 0)
		return 0;
	if (k < 0 || x->n[k] < 0)
		return 0;
	count = (size_t)((x->n[k] + n - 1) / n);
	if (count > cap)
		return 0;
	for (i = 0; i < count; i++) {
		struct vshape *s = dup(a, x);

		s->n[k] = i + 1 < count || x->n[k] % n == 0 ? n : x->n[k] % n;
		out[i] = s;
	}
	return count;
}

/* chunk(n) and tensor_split(n): n pieces when the dim divides (chunk may
 * give fewer otherwise); how_many is the count's keyword */
static size_t pieces_even(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
                          const struct vshape **out, size_t cap, const char *how_many)
{
	const struct vshape *x = shape_of(args[0]);
	const value_t *what = arg(args, nargs, 1, kw, how_many), *dimv = arg(args, nargs, 2, kw, "dim");
	long long d = 0, n, per;
	size_t i;
	int k;

	if (!what || (dimv && !int_of(dimv, &d)))
		return 0;
	k = x ? norm_dim(d, x->nd) : -1;
	if (!int_of(what, &n) || n <= 0)
		return 0;
	if ((size_t)n > cap)
		return 0;
	if (k < 0 || x->n[k] < 0 || x->n[k] % n)
		return 0;
	per = x->n[k] / n;
	for (i = 0; i < (size_t)n; i++) {
		struct vshape *s = dup(a, x);

		s->n[k] = per;
		out[i] = s;
	}
	return (size_t)n;
}

static size_t pieces_chunk(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
                           const struct vshape **out, size_t cap)
{
	return pieces_even(a, args, nargs, kw, out, cap, "chunks");
}

static size_t pieces_tensor_split(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
                                  const struct vshape **out, size_t cap)
{
	return pieces_even(a, args, nargs, kw, out, cap, "indices_or_sections");
}

/* by the names torch_facts.json's "pieces" gives them, sorted */
static const struct pieces_rule {
	const char *name;
	size_t (*fn)(struct ast_arena *a, value_t *const *args, size_t nargs, const struct vdict *kw,
	             const struct vshape **out, size_t cap);
} PIECES_RULES[] = {
	{ "chunk", pieces_chunk }, { "split", pieces_split }, { "tensor_split", pieces_tensor_split },
	{ "unbind", pieces_unbind },
};

size_t shape_pieces(const struct catalog *cat, struct ast_arena *a, const char *op, value_t *const *args,
                    size_t nargs, const struct vdict *kw, const struct vshape **out, size_t cap)
{
	const char *name = strrchr(op, '.');
	const char *rule;
	const struct pieces_rule *r;

	name = name ? name + 1 : op;
	rule = nargs ? catalog_fact(cat, CATALOG_F_PIECES, name) : NULL;
	r = rule ? bsearch(rule, PIECES_RULES, sizeof PIECES_RULES / sizeof PIECES_RULES[0], sizeof PIECES_RULES[0],
	                   cmp_named) : NULL;
	return r ? r->fn(a, args, nargs, kw, out, cap) : 0;
}

const struct vshape *shape_named(struct ast_arena *a, const struct vshape *x, const char *const *names,
                                 unsigned nd)
{
	struct vshape *s;
	unsigned i;

	if (x && x->nd != nd)
		return NULL;
	s = x ? dup(a, x) : shape_new(a, nd);
	if (!s)
		return NULL;
	for (i = 0; i < nd; i++)
		if (s->n[i] < 0 && !s->sym[i] && names[i])
			s->sym[i] = names[i];
	return s;
}

const struct vshape *shape_join(struct ast_arena *a, const struct vshape *x, const struct vshape *y)
{
	struct vshape *s;
	unsigned i;

	if (!x || !y || x->nd != y->nd)
		return NULL;
	s = dup(a, x);
	for (i = 0; i < x->nd; i++)
		if (!dim_eq(x, i, y, i))
			dim_set(s, i, -1, NULL);
	return s;
}

/* DT_* of a dtype rule's name in torch_facts.json ("int", "bool", "float") */
static int dt_named(const char *dt)
{
	if (!dt)
		return DT_UNKNOWN;
	if (!strcmp(dt, "bool"))
		return DT_BOOL;
	if (!strcmp(dt, "int"))
		return DT_INT;
	if (!strcmp(dt, "float"))
		return DT_FLOAT;
	return DT_UNKNOWN;
}

static int dt_of_dtype(const struct catalog *cat, const value_t *d)
{
	const char *dt;

	if (!d || d->k != VK_EXT)
		return DT_UNKNOWN;
	dt = catalog_fact(cat, CATALOG_F_DTYPES, d->u.ext);
	return dt_named(dt ? dt : catalog_fact_match(cat, CATALOG_F_DTYPE_PREFIXES, d->u.ext));
}

/* the dtype of the first tensor argument (or of a list's first tensor) */
static int dt_kept(value_t *const *args, size_t nargs)
{
	size_t i;

	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_TENSOR)
			return args[i]->dt;
	if (nargs && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->n &&
	    args[0]->u.seq->items[0]->k == VK_TENSOR)
		return args[0]->u.seq->items[0]->dt;
	return DT_UNKNOWN;
}

int shape_dtype_of_call(const struct catalog *cat, const char *op, value_t *const *args, size_t nargs,
                        const struct vdict *kw)
{
	const char *name = strrchr(op, '.');
	const value_t *dt = kw ? vdict_gets(kw, "dtype") : NULL;
	const char *rule;
	size_t i;

	name = name ? name + 1 : op;
	if (dt)
		return dt_of_dtype(cat, dt);
	rule = catalog_fact(cat, CATALOG_F_DTYPE_RULES, name);
	if (!rule)
		return DT_UNKNOWN;
	if (!strcmp(rule, "to")) {
		/* x.to(torch.long) / x.to(device, torch.long); else x's */
		for (i = 1; i < nargs; i++)
			if (dt_of_dtype(cat, args[i]) != DT_UNKNOWN)
				return dt_of_dtype(cat, args[i]);
		return dt_kept(args, nargs);
	}
	if (!strcmp(rule, "keep"))
		return dt_kept(args, nargs);
	if (!strcmp(rule, "arange")) {
		for (i = 0; i < nargs; i++)
			if (args[i]->k != VK_INT && !(args[i]->k == VK_UNKNOWN && args[i]->reason == shape_dim_reason))
				return args[i]->k == VK_FLOAT ? DT_FLOAT : DT_UNKNOWN;
		return nargs ? DT_INT : DT_UNKNOWN;
	}
	return dt_named(rule);
}
