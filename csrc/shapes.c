/* shapes.c - see include/ecg/shapes.h */
#include "config.h"

#include <string.h>

#include "ecg/shapes.h"

const char shape_dim_reason[] = "a size known only at run time";

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
		if (start < 0)
			start = start + n < 0 ? 0 : start + n;
		if (stop < 0)
			stop = stop + n < 0 ? 0 : stop + n;
		if (start > n)
			start = n;
		if (stop > n)
			stop = n;
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
	int seen_ellipsis = 0;

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

		if (v->k == VK_INT || v->k == VK_SLICE)
			used++;
		else if (v->k == VK_NONE)
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
	if (used > x->nd)
		return NULL;
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

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

/* the same shape as the first tensor argument */
static const char *const SAME[] = {
	"contiguous", "float", "half", "bfloat16", "double", "long", "int", "bool", "type", "type_as",
	"clone", "detach", "detach_", "relu", "relu_", "gelu", "silu", "sigmoid", "tanh", "exp", "log", "log1p",
	"sqrt", "rsqrt", "abs", "neg", "sin", "cos", "softmax", "log_softmax", "dropout", "dropout1d",
	"dropout2d", "dropout3d", "alpha_dropout", "layer_norm", "group_norm", "batch_norm", "instance_norm",
	"rms_norm", "normalize", "leaky_relu", "elu", "selu", "celu", "mish", "hardswish", "hardsigmoid",
	"hardtanh", "relu6", "softplus", "softsign", "tril", "triu", "masked_fill", "masked_fill_", "cuda",
	"cpu", "pin_memory", "requires_grad_", "fill_", "zero_", "zeros_like", "ones_like", "randn_like",
	"rand_like", "empty_like", "full_like", "clamp", "clamp_", "clip", "cumsum", "cumprod", "flip",
	"roll", "square", "erf", "reciprocal", "sign", "floor", "ceil", "round", "nan_to_num", "add_",
	"mul_", "sub_", "div_", "copy_", "normal_", "uniform_", "sigmoid_", "tanh_", "exp_", "silu_",
	"gelu_", "logsigmoid", "tanhshrink", "dropout_", "bernoulli", "bernoulli_", "neg_",
	"to", "gumbel_softmax", "softmin", "pow_", "clamp_min", "clamp_max", "logit", "erfinv",
	"sinh", "cosh", "log2", "log10", "exp2", "expm1", "trunc", "frac", "sgn", "isnan", "isinf",
	"isfinite", "logical_not", "bitwise_not", "positive", "requires_grad", "argsort", NULL
};

/* elementwise over several tensors: the broadcast shape */
static const char *const ELEMENTWISE[] = {
	"add", "sub", "mul", "div", "true_divide", "floor_divide", "pow", "maximum", "minimum", "where",
	"lerp", "addcmul", "addcdiv", "eq", "ne", "lt", "gt", "le", "ge", "logical_and", "logical_or",
	"logical_xor", "fmod", "remainder", "atan2", "multiply", "subtract", "divide", "hypot", "fmax",
	"fmin", "xlogy", "bitwise_and", "bitwise_or", "bitwise_xor", "isclose", "copysign", NULL
};

/* torch.x(*size): a new tensor of that size */
static const char *const FACTORY[] = {
	"zeros", "ones", "empty", "rand", "randn", NULL
};

/* reductions with dim= and keepdim= */
static const char *const REDUCE[] = {
	"sum", "mean", "amax", "amin", "std", "var", "prod", "argmax", "argmin", "logsumexp", "any", "all",
	"nansum", "nanmean", "count_nonzero", NULL
};

/* losses: a scalar with the default reduction */
static const char *const LOSS[] = {
	"cross_entropy", "mse_loss", "l1_loss", "nll_loss", "binary_cross_entropy",
	"binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div", "huber_loss", "cosine_embedding_loss",
	"margin_ranking_loss", "soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", NULL
};

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

const struct vshape *shape_of_call(struct ast_arena *a, const char *op, value_t *const *args, size_t nargs,
                                   const struct vdict *kw)
{
	const char *name = strrchr(op, '.');
	int tensor_m = !strncmp(op, "Tensor.", 7);
	int functional = !strncmp(op, "torch.nn.functional.", 20);
	const struct vshape *x = nargs ? shape_of(args[0]) : NULL;
	struct vshape *s;
	long long d, e;
	int k;

	name = name ? name + 1 : op;
	if (!tensor_m && !functional && strncmp(op, "torch.", 6))
		return NULL;
	if (!tensor_m && !functional && strchr(op + 6, '.'))
		return NULL;            /* torch.cuda.*, torch.distributed.* ... */

	/* operators as methods: x.__add__(y) */
	if (name[0] == '_' && name[1] == '_') {
		static const char *const dunder[] = {
			"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
			"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__iadd__", "__isub__", "__imul__",
			"__itruediv__", "__and__", "__or__", "__xor__", "__eq__", "__ne__", "__lt__", "__le__",
			"__gt__", "__ge__", NULL
		};

		if (!strcmp(name, "__matmul__") && nargs == 2)
			return matmul(a, x, shape_of(args[1]));
		if (in_list(name, dunder) && nargs == 2)
			return shape_binop(a, args[0], args[1]);
		if (!strcmp(name, "__neg__") || !strcmp(name, "__invert__"))
			return x;
		return NULL;
	}
	if (in_list(name, SAME)) {
		if (!strcmp(name, "type_as") || !strcmp(name, "to") || !strcmp(name, "type"))
			return x;
		return first_tensor(args, nargs, kw);
	}
	if (in_list(name, ELEMENTWISE))
		return broadcast_all(a, args, nargs);
	if (!tensor_m && !functional && in_list(name, FACTORY))
		return sizes_from(a, args, nargs, 0, kwv(kw, "size"));
	if (tensor_m && (!strcmp(name, "new_zeros") || !strcmp(name, "new_ones") || !strcmp(name, "new_empty")))
		return sizes_from(a, args, nargs, 1, kwv(kw, "size"));
	if (tensor_m && !strcmp(name, "new_full") && nargs >= 2)
		return sizes_from(a, args + 1, 1, 0, NULL);
	if (!tensor_m && !functional && !strcmp(name, "full") && nargs >= 1)
		return sizes_from(a, args, 1, 0, NULL);
	if (!tensor_m && !functional && !strcmp(name, "randint")) {
		/* randint(high, size) or randint(low, high, size) */
		size_t i;

		for (i = nargs; i-- > 0;)
			if (args[i]->k == VK_TUPLE || args[i]->k == VK_LIST)
				return sizes_from(a, args + i, 1, 0, NULL);
		return sizes_from(a, NULL, 0, 0, kwv(kw, "size"));
	}
	if (!tensor_m && !functional && (!strcmp(name, "randperm") || !strcmp(name, "linspace") ||
	                                 !strcmp(name, "logspace"))) {
		const value_t *n = !strcmp(name, "randperm") ? arg(args, nargs, 0, kw, "n")
		                   : arg(args, nargs, 2, kw, "steps");

		if (!n)
			return NULL;
		s = shape_new(a, 1);
		shape_dim_of(n, &s->n[0], &s->sym[0]);
		return s;
	}
	if (!tensor_m && !functional && !strcmp(name, "arange"))
		return arange(a, args, nargs, kw);
	if (!tensor_m && !functional && !strcmp(name, "eye") && nargs >= 1) {
		s = shape_new(a, 2);
		shape_dim_of(args[0], &s->n[0], &s->sym[0]);
		if (nargs >= 2)
			shape_dim_of(args[1], &s->n[1], &s->sym[1]);
		else
			dim_copy(s, 1, s, 0);
		return s;
	}
	if (!tensor_m && !functional && (!strcmp(name, "tensor") || !strcmp(name, "as_tensor")) && nargs >= 1)
		return args[0]->k == VK_TENSOR ? args[0]->shape : data_shape(a, args[0]);
	if (!strcmp(name, "view") || !strcmp(name, "reshape")) {
		if (tensor_m && nargs == 2 && args[1]->k == VK_EXT)
			return x;               /* view(dtype) */
		return view(a, x, args, nargs, 1);
	}
	if (!tensor_m && !functional && !strcmp(name, "einsum"))
		return einsum(a, args, nargs);
	if (!tensor_m && !functional && (!strcmp(name, "cat") || !strcmp(name, "concat") || !strcmp(name, "stack")))
		return cat_stack(a, arg(args, nargs, 0, kw, "tensors"), arg(args, nargs, 1, kw, "dim"), name[0] == 's');
	if (!strcmp(name, "view_as") || !strcmp(name, "reshape_as") || !strcmp(name, "expand_as"))
		return nargs >= 2 ? shape_of(args[1]) : NULL;
	if (!x && !strcmp(name, "flatten") && nargs >= 1 && args[0]->k == VK_TENSOR) {
		/* x.flatten(2) of a tensor whose shape is not known: whatever its
		 * rank (3 or more, or it raises), the result has rank 3 */
		const value_t *sv = arg(args, nargs, 1, kw, "start_dim"), *ev = arg(args, nargs, 2, kw, "end_dim");

		d = 0;
		e = -1;
		if ((sv && !int_of(sv, &d)) || (ev && !int_of(ev, &e)) || e != -1 || d < 0 || d + 1 > MAXD)
			return NULL;
		return shape_new(a, (unsigned)d + 1);
	}
	if (!x)
		return NULL;
	if (!strcmp(name, "transpose") || !strcmp(name, "swapaxes") || !strcmp(name, "swapdims")) {
		int i, j;

		if (nargs < 3 || !int_of(args[1], &d) || !int_of(args[2], &e) ||
		    (i = norm_dim(d, x->nd)) < 0 || (j = norm_dim(e, x->nd)) < 0)
			return NULL;
		s = dup(a, x);
		dim_copy(s, (unsigned)i, x, (unsigned)j);
		dim_copy(s, (unsigned)j, x, (unsigned)i);
		return s;
	}
	if (!strcmp(name, "t") && x->nd <= 2) {
		s = dup(a, x);
		if (x->nd == 2) {
			dim_copy(s, 0, x, 1);
			dim_copy(s, 1, x, 0);
		}
		return s;
	}
	if (!strcmp(name, "permute"))
		return permute(a, x, args, nargs, 1);
	if (!strcmp(name, "unsqueeze")) {
		const value_t *dv = arg(args, nargs, 1, kw, "dim");
		unsigned i;

		if (!int_of(dv, &d) || (k = norm_dim(d, x->nd + 1)) < 0 || x->nd + 1 > MAXD)
			return NULL;
		s = shape_new(a, x->nd + 1);
		for (i = 0; i < (unsigned)k; i++)
			dim_copy(s, i, x, i);
		dim_set(s, (unsigned)k, 1, NULL);
		for (i = (unsigned)k; i < x->nd; i++)
			dim_copy(s, i + 1, x, i);
		return s;
	}
	if (!strcmp(name, "squeeze")) {
		const value_t *dv = arg(args, nargs, 1, kw, "dim");
		unsigned i, o = 0;

		s = shape_new(a, x->nd);
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
	if (!strcmp(name, "flatten")) {
		const value_t *sv = arg(args, nargs, 1, kw, "start_dim"), *ev = arg(args, nargs, 2, kw, "end_dim");
		long long prod = 1;
		unsigned i, o = 0;
		int ks, ke, all = 1;

		d = 0;
		e = -1;
		if ((sv && !int_of(sv, &d)) || (ev && !int_of(ev, &e)))
			return NULL;
		if (!x->nd)
			return NULL;
		if ((ks = norm_dim(d, x->nd)) < 0 || (ke = norm_dim(e, x->nd)) < 0 || ks > ke)
			return NULL;
		s = shape_new(a, x->nd);
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
	if (!strcmp(name, "expand") && tensor_m) {
		struct vshape *t = sizes_from(a, args, nargs, 1, NULL);
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
	if (!strcmp(name, "repeat") && tensor_m) {
		struct vshape *t = sizes_from(a, args, nargs, 1, NULL);
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
	if (in_list(name, REDUCE))
		return reduce(a, x, arg(args, nargs, 1, kw, "dim"), kwv(kw, "keepdim") ? kwv(kw, "keepdim")
		                                                   : nargs >= 3 ? args[2] : NULL);
	if ((!strcmp(name, "max") || !strcmp(name, "min") || !strcmp(name, "norm")) &&
	    nargs == 1 && !kwv(kw, "dim"))
		return shape_new(a, 0);         /* the whole tensor's */
	if (!strcmp(name, "matmul") || !strcmp(name, "bmm") || !strcmp(name, "mm"))
		return nargs >= 2 ? matmul(a, x, shape_of(args[1])) : NULL;
	if (functional && !strcmp(name, "linear")) {
		const struct vshape *w = shape_of(arg(args, nargs, 1, kw, "weight"));

		if (!w || w->nd != 2 || !x->nd)
			return NULL;
		if (x->n[x->nd - 1] >= 0 && w->n[1] >= 0 && x->n[x->nd - 1] != w->n[1])
			return NULL;
		s = dup(a, x);
		dim_copy(s, x->nd - 1, w, 0);
		return s;
	}
	if (functional && !strcmp(name, "embedding")) {
		const struct vshape *w = shape_of(arg(args, nargs, 1, kw, "weight"));

		if (!w || w->nd != 2 || x->nd + 1 > MAXD)
			return NULL;
		s = dup(a, x);
		s->nd++;
		dim_copy(s, x->nd, w, 1);
		return s;
	}
	if (functional && !strcmp(name, "scaled_dot_product_attention")) {
		const struct vshape *v = shape_of(arg(args, nargs, 2, kw, "value"));

		if (!v || !v->nd || !x->nd)
			return NULL;
		s = dup(a, x);
		dim_copy(s, x->nd - 1, v, v->nd - 1);
		return s;
	}
	if (functional && in_list(name, LOSS)) {
		const value_t *r = kwv(kw, "reduction");

		if (!r || (r->k == VK_STR && (!strcmp(r->u.str.s, "mean") || !strcmp(r->u.str.s, "sum"))))
			return shape_new(a, 0);
		return NULL;
	}
	if (!tensor_m && (!strcmp(name, "outer") || !strcmp(name, "ger")) && nargs >= 2) {
		const struct vshape *y = shape_of(args[1]);

		if (x->nd != 1 || !y || y->nd != 1)
			return NULL;
		s = shape_new(a, 2);
		dim_copy(s, 0, x, 0);
		dim_copy(s, 1, y, 0);
		return s;
	}
	if (!tensor_m && !functional && !strcmp(name, "polar"))
		return broadcast_all(a, args, nargs);
	return NULL;
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

size_t shape_pieces(struct ast_arena *a, const char *op, value_t *const *args, size_t nargs,
                    const struct vdict *kw, const struct vshape **out, size_t cap)
{
	const char *name = strrchr(op, '.');
	const size_t off = 1;      /* torch.split(x, ...) and x.split(...): args[0] is x either way */
	const struct vshape *x = nargs ? shape_of(args[0]) : NULL;
	const value_t *what, *dimv;
	long long d = 0, n, per;
	size_t count, i;
	int k;

	name = name ? name + 1 : op;
	if (!nargs || (strcmp(name, "chunk") && strcmp(name, "split") && strcmp(name, "unbind") &&
	               strcmp(name, "tensor_split")))
		return 0;
	if (!strcmp(name, "unbind")) {
		dimv = arg(args, nargs, off, kw, "dim");
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
	what = arg(args, nargs, off, kw, !strcmp(name, "chunk") ? "chunks" : !strcmp(name, "split") ? "split_size_or_sections" : "indices_or_sections");
	dimv = arg(args, nargs, off + 1, kw, "dim");
	if (!what || (dimv && !int_of(dimv, &d)))
		return 0;
	k = x ? norm_dim(d, x->nd) : -1;
	if (!strcmp(name, "split") && (what->k == VK_LIST || what->k == VK_TUPLE)) {
		/* split(x, [a, b, c], dim) */
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
	if (!strcmp(name, "split")) {
		/* pieces of n along dim: how many needs the dim's size */
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
	/* chunk(n) and tensor_split(n): n pieces when the dim divides; chunk
	 * may give fewer otherwise */
	if ((size_t)n > cap)
		return 0;
	if (!strcmp(name, "chunk") && (k < 0 || x->n[k] < 0 || x->n[k] % n))
		return 0;
	if (!strcmp(name, "tensor_split") && (k < 0 || x->n[k] < 0 || x->n[k] % n))
		return 0;
	per = x->n[k] / n;
	for (i = 0; i < (size_t)n; i++) {
		struct vshape *s = dup(a, x);

		s->n[k] = per;
		out[i] = s;
	}
	return (size_t)n;
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

static int dt_of_dtype(const value_t *d)
{
	const char *e;

	if (!d || d->k != VK_EXT)
		return DT_UNKNOWN;
	e = d->u.ext;
	if (!strcmp(e, "torch.bool"))
		return DT_BOOL;
	if (!strcmp(e, "torch.long") || !strcmp(e, "torch.int64") || !strcmp(e, "torch.int") ||
	    !strcmp(e, "torch.int32") || !strcmp(e, "torch.int16") || !strcmp(e, "torch.short") ||
	    !strcmp(e, "torch.int8"))
		return DT_INT;
	if (!strncmp(e, "torch.float", 11) || !strcmp(e, "torch.half") || !strcmp(e, "torch.double") ||
	    !strcmp(e, "torch.bfloat16"))
		return DT_FLOAT;
	return DT_UNKNOWN;
}

int shape_dtype_of_call(const char *op, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	static const char *const INT_OPS[] = {
		"randint", "randperm", "argmax", "argmin", "argsort", "multinomial", "nonzero", "bucketize",
		"searchsorted", "long", "int", "short", "randint_like", NULL
	};
	static const char *const KEEP[] = {
		"to", "cuda", "cpu", "pin_memory", "contiguous", "clone", "detach", "view", "reshape", "transpose",
		"permute", "unsqueeze", "squeeze", "flatten", "expand", "repeat", "t", "narrow", "roll", "flip",
		"masked_fill", "tril", "triu", "cat", "stack", "chunk", "split", "unbind", "gather", "index_select",
		"repeat_interleave", "expand_as", "view_as", "reshape_as", "clamp", NULL
	};
	const char *name = strrchr(op, '.');
	const value_t *dt = kw ? vdict_gets(kw, "dtype") : NULL;
	size_t i;

	name = name ? name + 1 : op;
	if (dt)
		return dt_of_dtype(dt);
	if (!strcmp(name, "to")) {
		/* x.to(torch.long) / x.to(device, torch.long) */
		for (i = 1; i < nargs; i++)
			if (dt_of_dtype(args[i]) != DT_UNKNOWN)
				return dt_of_dtype(args[i]);
	}
	if (in_list(name, INT_OPS))
		return DT_INT;
	if (!strcmp(name, "bool") || in_list(name, (const char *const[]){ "eq", "ne", "lt", "gt", "le", "ge",
	                                                                  "logical_and", "logical_or",
	                                                                  "logical_not", "isnan", "isinf", NULL }))
		return DT_BOOL;
	if (!strcmp(name, "float") || !strcmp(name, "half") || !strcmp(name, "double") || !strcmp(name, "bfloat16") ||
	    !strcmp(name, "rand") || !strcmp(name, "randn") || !strcmp(name, "rand_like") || !strcmp(name, "randn_like") ||
	    !strcmp(name, "linspace"))
		return DT_FLOAT;
	if (!strcmp(name, "arange")) {
		for (i = 0; i < nargs; i++)
			if (args[i]->k != VK_INT && !(args[i]->k == VK_UNKNOWN && args[i]->reason == shape_dim_reason))
				return args[i]->k == VK_FLOAT ? DT_FLOAT : DT_UNKNOWN;
		return nargs ? DT_INT : DT_UNKNOWN;
	}
	if (in_list(name, KEEP)) {
		for (i = 0; i < nargs; i++)
			if (args[i]->k == VK_TENSOR)
				return args[i]->dt;
		if (nargs && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->n &&
		    args[0]->u.seq->items[0]->k == VK_TENSOR)
			return args[0]->u.seq->items[0]->dt;
	}
	return DT_UNKNOWN;
}
