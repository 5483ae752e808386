/* interp/hostints.c - small host integer tensors known element by element
 *
 * A tensor made on the host from Python ints the interpreter knows --
 * torch.LongTensor(range(8)), torch.tensor([[0, 1], [2, 3]]) (catalog:
 * int_data_factories), torch.arange(8) (int_range_factories) -- is known
 * element by element: value.ints holds its
 * elements, row-major, as many as its known shape holds.  A library that
 * lays out its process groups with such a tensor (groups =
 * LongTensor(range(world_size)).reshape(dp, pp, mp); new_group(groups[i, j,
 * :].tolist())) then gives new_group ranks of a known number.
 *
 * What keeps the elements: a method that only reshapes (catalog:
 * layout_methods) to a known shape of as many elements; indexing by ints
 * and slices of known ints; tolist() and item() give them back as Python
 * ints.  Everything else -- arithmetic, comparisons with a value not
 * known, torch.where -- makes a tensor as before, with no elements: the
 * rank of the process is never guessed.  A tensor of more than
 * HOSTINTS_MAX elements is data, not a layout: not followed.
 *
 * The elements are forgotten (value.ints cleared: not known any more)
 * where the tensor may change: a store into it (x[i] = v), an augmented
 * assignment (x += 1), an in-place method (a name ending in `_`), and any
 * call the interpreter does not read (torch's, another library's, a
 * callee not known) that is given it: dist.broadcast(x, 0) writes it.
 *
 * Such a tensor is on the host for sure (host_sure_factory: no device=
 * while torch's default device is the CPU): indexing a device tensor with
 * it (x[:, idx] = 0, y = x[idx]) copies it to the device (eval.c).
 *
 * Nothing here fails: what cannot be followed returns NULL (the caller
 * makes the tensor it made before) or leaves the value as it was.  The
 * elements, shapes and values live in the interpreter's arena.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

#define HOSTINTS_MAX 4096

static long long numel_of(const struct vshape *s)
{
	long long n = 1;
	unsigned i;

	if (!s)
		return -1;
	for (i = 0; i < s->nd; i++) {
		if (s->n[i] < 0 || (s->n[i] && n > HOSTINTS_MAX / s->n[i]))
			return -1;
		n *= s->n[i];
	}
	return n;
}

/* The shape of data (a range, or a list/tuple of such), read down its
 * first items into s; 0 when it is not such data. */
static int data_shape(const value_t *v, struct vshape *s)
{
	for (;;) {
		long long len;

		if (s->nd >= VSHAPE_MAX)
			return 0;
		if (v->k == VK_RANGE) {
			if ((len = range_len(v)) < 0)
				return 0;
			s->n[s->nd++] = len;
			return 1;
		}
		if (v->k == VK_INT)
			return 1;
		if ((v->k != VK_LIST && v->k != VK_TUPLE) || v->u.seq->unk_reason || !v->u.seq->n)
			return 0;   /* [] says no dtype (float): not followed */
		s->n[s->nd++] = (long long)v->u.seq->n;
		v = v->u.seq->items[0];
	}
}

/* The ints of data at dimension d of s appended to out[*n]; 0 when the
 * data is not of that shape (ragged: Python raises) or holds a non-int. */
static int walk_data(const value_t *v, const struct vshape *s, unsigned d, long long *out, long long *n)
{
	long long len, i;

	if (d == s->nd) {
		if (v->k != VK_INT)
			return 0;
		out[(*n)++] = v->u.i;
		return 1;
	}
	if (v->k == VK_RANGE) {
		if (d + 1 != s->nd || (len = range_len(v)) != s->n[d])
			return 0;
		for (i = 0; i < len; i++)
			out[(*n)++] = v->u.range.start + i * v->u.range.step;
		return 1;
	}
	if ((v->k != VK_LIST && v->k != VK_TUPLE) || v->u.seq->unk_reason || (long long)v->u.seq->n != s->n[d])
		return 0;
	for (i = 0; i < s->n[d]; i++)
		if (!walk_data(v->u.seq->items[i], s, d + 1, out, n))
			return 0;
	return 1;
}

value_t *hostints_factory(struct frame *f, const char *last, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	struct vshape s, *sp;
	long long buf[HOSTINTS_MAX], n = 0, *ints;
	value_t *t;

	if (f->mode == M_FWD || nargs != 1 || (kw && kw->n) || !catalog_fact(in->cat, CATALOG_F_INT_DATA_FACTORIES, last))
		return NULL;
	memset(&s, 0, sizeof s);
	if (args[0]->k == VK_INT || !data_shape(args[0], &s) || numel_of(&s) < 0 || !walk_data(args[0], &s, 0, buf, &n) ||
	    n != numel_of(&s) || !n)
		return NULL;
	sp = ast_arena_alloc(in->a, sizeof *sp);
	*sp = s;
	ints = ast_arena_alloc(in->a, (size_t)(n ? n : 1) * sizeof *ints);
	memcpy(ints, buf, (size_t)n * sizeof *ints);
	t = v_tensor_dev(in->a, DEV_HOST, 0);
	t->shape = sp;
	t->dt = DT_INT;
	t->from_values = 1;
	t->ints = ints;
	/* made on the host from Python ints, as the factory it stands for
	 * would be (hostsure.c): a device tensor indexed with it copies it */
	host_sure_factory(f, t, NULL);
	return t;
}

/* torch.arange(end) / (start, end[, step]) of known ints and no keyword
 * (catalog: int_range_factories), r the host tensor the call made with
 * its 1-D shape: a copy of r holding the range's elements.  Anything
 * else (a device=, a float, a step of 0, a shape not that long): r. */
value_t *hostints_range(struct frame *f, const char *last, value_t **args, size_t nargs, const struct vdict *kw,
                        value_t *r)
{
	struct interp *in = f->in;
	long long a[3] = { 0, 0, 1 }, n, i, *ints;
	size_t k;

	if (f->mode == M_FWD || !r || r->k != VK_TENSOR || r->ints || r->dev != DEV_HOST || r->alts || !nargs ||
	    nargs > 3 || (kw && kw->n) || !catalog_fact(in->cat, CATALOG_F_INT_RANGE_FACTORIES, last))
		return r;
	for (k = 0; k < nargs; k++)
		if (args[k]->k != VK_INT)
			return r;
	if (nargs == 1)
		a[1] = args[0]->u.i;
	else {
		a[0] = args[0]->u.i, a[1] = args[1]->u.i;
		if (nargs == 3)
			a[2] = args[2]->u.i;
	}
	if (!a[2])
		return r;
	n = a[2] > 0 ? (a[1] > a[0] ? (a[1] - a[0] + a[2] - 1) / a[2] : 0)
	             : (a[0] > a[1] ? (a[0] - a[1] - a[2] - 1) / -a[2] : 0);
	if (n <= 0 || n > HOSTINTS_MAX || !r->shape || r->shape->nd != 1 || r->shape->n[0] != n)
		return r;
	ints = ast_arena_alloc(in->a, (size_t)n * sizeof *ints);
	for (i = 0; i < n; i++)
		ints[i] = a[0] + i * a[2];
	r = v_copy(in->a, r);
	r->dt = DT_INT;
	r->ints = ints;
	return r;
}

value_t *hostints_method(struct interp *in, const char *m, const value_t *recv, value_t *r)
{
	if (!recv || recv->k != VK_TENSOR || !recv->ints || !r || r->k != VK_TENSOR || r->ints ||
	    !catalog_fact(in->cat, CATALOG_F_LAYOUT_METHODS, m) || numel_of(r->shape) != numel_of(recv->shape) ||
	    numel_of(r->shape) < 0)
		return r;
	if (r == recv)
		return r;
	r = v_copy(in->a, r);
	r->ints = recv->ints;
	r->dt = DT_INT;
	r->dev = recv->dev;
	return r;
}

/* One index of a subscript on a dimension of n: start, step and count
 * of the positions it takes, *drop set for an int (the dimension goes).
 * 0: not an index followed here (or out of range: Python raises). */
static int one_index(const value_t *ix, long long n, long long *start, long long *step, long long *cnt, int *drop)
{
	int ok;
	long long i = as_int(ix, &ok), lo, hi, st = 1;

	if (ok && ix->k == VK_INT) {
		if (i < 0)
			i += n;
		if (i < 0 || i >= n)
			return 0;
		*start = i, *step = 1, *cnt = 1, *drop = 1;
		return 1;
	}
	if (ix->k != VK_SLICE)
		return 0;
	if (ix->u.slice.step->k != VK_NONE && ((st = as_int(ix->u.slice.step, &ok)), !ok || st <= 0))
		return 0;
	lo = 0, hi = n;
	if (ix->u.slice.lo->k != VK_NONE && ((lo = as_int(ix->u.slice.lo, &ok)), !ok))
		return 0;
	if (ix->u.slice.hi->k != VK_NONE && ((hi = as_int(ix->u.slice.hi, &ok)), !ok))
		return 0;
	slice_bounds(n, &lo, &hi);
	*start = lo, *step = st, *cnt = hi > lo ? (hi - lo + st - 1) / st : 0, *drop = 0;
	return 1;
}

value_t *hostints_index(struct interp *in, const value_t *t, const value_t *idx)
{
	const struct vshape *s = t->shape;
	long long start[VSHAPE_MAX], step[VSHAPE_MAX], cnt[VSHAPE_MAX], stride[VSHAPE_MAX];
	long long total = 1, *ints, k, at;
	int drop[VSHAPE_MAX];
	const value_t *const *ix;
	size_t nix, d;
	struct vshape *rs;
	value_t *r;

	if (!t->ints || numel_of(s) < 0)
		return NULL;
	if (idx->k == VK_TUPLE && !idx->u.seq->unk_reason) {
		ix = (const value_t *const *)idx->u.seq->items;
		nix = idx->u.seq->n;
	} else {
		ix = (const value_t *const *)&idx;
		nix = 1;
	}
	if (nix > s->nd)
		return NULL;
	rs = ast_arena_alloc(in->a, sizeof *rs);
	memset(rs, 0, sizeof *rs);
	for (d = s->nd; d-- > 0;)
		stride[d] = d + 1 < s->nd ? stride[d + 1] * s->n[d + 1] : 1;
	for (d = 0; d < s->nd; d++) {
		if (d < nix) {
			if (!one_index(ix[d], s->n[d], &start[d], &step[d], &cnt[d], &drop[d]))
				return NULL;
		} else
			start[d] = 0, step[d] = 1, cnt[d] = s->n[d], drop[d] = 0;
		total *= cnt[d];
		if (!drop[d])
			rs->n[rs->nd++] = cnt[d];
	}
	ints = ast_arena_alloc(in->a, (size_t)(total ? total : 1) * sizeof *ints);
	for (k = 0; k < total; k++) {
		long long rest = k;

		at = 0;
		for (d = s->nd; d-- > 0;) {
			long long c = cnt[d] ? rest % cnt[d] : 0;

			rest = cnt[d] ? rest / cnt[d] : 0;
			at += (start[d] + c * step[d]) * stride[d];
		}
		ints[k] = t->ints[at];
	}
	r = v_tensor_dev(in->a, t->dev, t->pinned);
	r->shape = rs;
	r->dt = DT_INT;
	r->from_values = t->from_values;
	r->ints = ints;
	return r;
}

static value_t *as_list(struct interp *in, const struct vshape *s, unsigned d, const long long *ints)
{
	value_t *l;
	long long i, inner = 1;
	unsigned e;

	if (d == s->nd)
		return v_int(in->a, ints[0]);
	for (e = d + 1; e < s->nd; e++)
		inner *= s->n[e];
	l = v_seq(in->a, VK_LIST, (size_t)s->n[d]);
	for (i = 0; i < s->n[d]; i++)
		vseq_push(in->a, l->u.seq, as_list(in, s, d + 1, ints + i * inner));
	return l;
}

value_t *hostints_read(struct interp *in, const char *m, const value_t *t)
{
	long long n;

	if (!t || t->k != VK_TENSOR || !t->ints || (n = numel_of(t->shape)) < 0)
		return NULL;
	if (!strcmp(m, "item"))
		return n == 1 ? v_int(in->a, t->ints[0]) : NULL;
	if (!strcmp(m, "tolist"))
		return as_list(in, t->shape, 0, t->ints);
	return NULL;
}

void hostints_forget(value_t *v)
{
	if (v && v->k == VK_TENSOR)
		v->ints = NULL;
}

void hostints_call(const value_t *fn, value_t **args, size_t nargs, const struct vdict *kw)
{
	const char *last;
	size_t i;

	if (fn->k == VK_FUNC || fn->k == VK_CLASS || fn->k == VK_BUILTIN ||
	    (fn->k == VK_BOUND && fn->u.bound.fn && fn->u.bound.fn->k == VK_FUNC))
		return;         /* read here: its own stores forget */
	for (i = 0; i < nargs; i++)
		hostints_forget(args[i]);
	for (i = 0; kw && i < kw->n; i++)
		hostints_forget(kw->vals[i]);
	if (fn->k == VK_EXT && fn->recv && fn->u.ext && (last = strrchr(fn->u.ext, '.')) &&
	    last[1] && last[strlen(last) - 1] == '_' && last[1] != '_')
		hostints_forget(fn->recv);   /* x.add_(1), x.fill_(0) */
}
