/* interp/tensor.c - Tensor methods and properties
 *
 * call_tensor_method() is x.<m>(...) for a tensor x: the result's shape
 * (shapes.c), device and dtype, host<->device copies and syncs (.item(),
 * .cpu(), .to(...)) as schedule events, and the ops it records in forward
 * mode; the methods with a rule of their own are one function each in
 * tensor_methods[].  tensor_attr() reads x.<name> without a call; the
 * properties only the run knows are the catalogue's (facts: tensor_state).
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* Is this device argument the host?  1 yes, 0 a device, -1 not known. */
int dev_is_host(const value_t *v)
{
	if (!v)
		return -1;
	if (v->k == VK_STR)
		return !strncmp(v->u.str.s, "cpu", 3);
	if (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device")) {
		value_t *t = vdict_gets(v->u.inst->attrs, "type");

		return t && t->k == VK_STR ? !strncmp(t->u.str.s, "cpu", 3) : -1;
	}
	return -1;
}

/* 1 when v is a torch dtype: a name of catalog dtypes or dtype_prefixes
 * (torch.bfloat16, torch.float16, ...), x.dtype of a tensor, or one of two
 * dtypes an undecided `if` chose (function.c ret_join); else 0
 * (a device, a string, a value not known). */
int value_is_dtype(const struct catalog *cat, const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_EXT)
		return catalog_fact(cat, CATALOG_F_DTYPES, v->u.ext) ||
		       catalog_fact_match(cat, CATALOG_F_DTYPE_PREFIXES, v->u.ext);
	return v->k == VK_UNKNOWN && !v->alts && v->reason &&
	       (!strcmp(v->reason, TENSOR_DTYPE_REASON) || !strcmp(v->reason, PATH_DTYPE_REASON));
}

/* The reason of x.device for an x not known to be on the device: a .to()
 * to it moves nothing ecg can state (tm_to). */
static const char why_device_unpinned[] = "the device of a tensor not known to be on the device";

/* v is x.device of a host tensor x a loader gave (a batch, or a sample a
 * collate_fn reads) or a forward holds on the host: x, so that a tensor
 * made with device=v is where x is (the host); NULL for any other value,
 * a tensor ecg places on the host for want of knowing better among them. */
const value_t *device_of_tensor(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && v->reason == why_device_unpinned && v->recv && v->recv->k == VK_TENSOR
	       ? v->recv : NULL;
}

int kw_bool(const struct vdict *kw, const char *name)
{
	value_t *v = kw ? vdict_gets(kw, name) : NULL;

	return v ? value_truth(v) : 0;
}

/* x.<m>(...) on a tensor: an op in forward, and where data moves or the
 * host waits, a schedule event. */

value_t *tensor_join(struct interp *in, const value_t *a, const value_t *b)
{
	value_t *r = v_tensor_dev(in->a, a->dev > b->dev ? a->dev : b->dev, pin_join(a->pinned, b->pinned));

	r->shape = a->shape && b->shape ? shape_join(in->a, a->shape, b->shape) : NULL;
	r->dt = a->dt == b->dt ? a->dt : DT_UNKNOWN;
	r->is_param = a->is_param && b->is_param;
	r->loose = a->loose || b->loose;
	/* on the host for sure on both paths: so after them (hostsure.c) */
	r->host_sure = a->host_sure && b->host_sure && a->dev == DEV_HOST && b->dev == DEV_HOST;
	/* 0-d on one path, or maybe: its rank not known after them */
	r->may_scalar = !r->shape && (a->may_scalar || b->may_scalar || (a->shape && !a->shape->nd) ||
	                              (b->shape && !b->shape->nd));
	return r;
}

/* Give r, the result of op, the shape its arguments decide.  r is copied
 * first when it is one of the arguments (a value is an object). */
value_t *with_shape(struct interp *in, value_t *r, const char *op, value_t **args, size_t nargs,
                    struct vdict *kw)
{
	const struct vshape *s;
	int dt;
	size_t i;

	if (!r || r->k != VK_TENSOR || (r->shape && r->dt))
		return r;
	s = r->shape ? NULL : shape_of_call(in->cat, in->a, op, args, nargs, kw);
	dt = r->dt ? DT_UNKNOWN : shape_dtype_of_call(in->cat, op, args, nargs, kw);
	if (!s && !dt)
		return r;
	for (i = 0; i < nargs; i++)
		if (args[i] == r)
			r = v_copy(in->a, r);
	for (i = 0; kw && i < kw->n; i++)
		if (kw->vals[i] == r)
			r = v_copy(in->a, r);
	if (s)
		r->shape = s;
	if (dt)
		r->dt = (unsigned char)dt;
	return r;
}

/* The size of a tensor read as Python values: x.size(), x.size(i),
 * x.shape, x.dim(), x.numel(); NULL when its shape is not known. */
value_t *size_read(struct frame *f, value_t *x, const char *what, value_t *i, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vshape *s = shape_of(x);
	unsigned k;

	if (!s)
		return NULL;
	if (!strcmp(what, "dim") || !strcmp(what, "ndim") || !strcmp(what, "ndimension"))
		return v_int(in->a, s->nd);
	if (!strcmp(what, "numel") || !strcmp(what, "nelement")) {
		long long n = 1;

		for (k = 0; k < s->nd; k++) {
			if (s->n[k] < 0 || (s->n[k] && n > (1LL << 53) / s->n[k]))
				return NULL;
			n *= s->n[k];
		}
		return v_int(in->a, n);
	}
	if (i) {
		int ok;
		long long d = as_int(i, &ok);

		if (!ok)
			return NULL;
		if (d < 0)
			d += s->nd;
		if (d < 0 || d >= (long long)s->nd)
			return NULL;
		return shape_dim_value(in->a, s, (unsigned)d, text_of(f, site));
	}
	{
		value_t *t = v_seq(in->a, VK_TUPLE, s->nd);

		for (k = 0; k < s->nd; k++)
			vseq_push(in->a, t->u.seq, shape_dim_value(in->a, s, k, afmt(in, "%s[%u]", text_of(f, site), k)));
		return t;
	}
}

/* The methods of Tensor: one function each (or per small family), in
 * tensor_methods[] below by name.  A method not in the table makes a
 * tensor where the receiver lives (an op). */
typedef value_t *tensor_method_fn(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                                  struct vdict *kw, const struct ast_hdr *site);

enum {
	TM_SIZE = 1,     /* x.size() &c: read from a known shape first */
	TM_PIECES = 2,   /* x.chunk() &c: pieces with their shapes, in forward */
	TM_SAME_ELEMS = 4, /* x.to() &c: the receiver's elements, moved, pinned
	                    or cut in pieces: a tensor of none gives none */
};

static const struct tensor_method {
	const char *name;
	tensor_method_fn *fn;         /* NULL: a tensor where the receiver lives */
	unsigned flags;               /* TM_* */
} *tensor_method_of(const char *m);

static int recv_dev(const value_t *fn)
{
	return fn->recv && fn->recv->k == VK_TENSOR ? fn->recv->dev : DEV_UNKNOWN;
}

static int recv_pinned(const value_t *fn)
{
	return fn->recv && fn->recv->k == VK_TENSOR ? fn->recv->pinned : 0;
}

/* x.size() &c on a tensor of known shape: the size as Python values
 * (emitted as an op in forward); NULL when it is not known. */
static value_t *size_method(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	value_t *recv = fn->recv, *r;

	if (!recv || recv->k != VK_TENSOR || !recv->shape ||
	    !(r = size_read(f, recv, m, nargs ? args[0] : kw ? vdict_gets(kw, "dim") : NULL, site)))
		return NULL;
	if (f->mode == M_FWD)
		emit_op(f, fn->u.ext, site);
	return r;
}

/* x.chunk() &c in forward: the pieces with the shapes the arguments
 * decide, as one op; NULL when their number is not known. */
static value_t *pieces_method(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *recv = fn->recv, **a2, *r;
	const struct vshape *pieces[64];
	size_t n, i;

	if (f->mode != M_FWD || !recv || recv->k != VK_TENSOR)
		return NULL;
	a2 = xmalloc((nargs + 1) * sizeof *a2);
	a2[0] = recv;
	for (i = 0; i < nargs; i++)
		a2[i + 1] = args[i];
	n = shape_pieces(in->cat, in->a, fn->u.ext, a2, nargs + 1, kw, pieces, 64);
	free(a2);
	if (n) {
		size_t mark = ev_mark(f);

		r = v_seq(in->a, VK_TUPLE, n);
		emit_op(f, fn->u.ext, site);
		for (i = 0; i < n; i++) {
			value_t *t = v_tensor_dev(in->a, recv->dev, 0);

			t->shape = pieces[i];
			vseq_push(in->a, r->u.seq, t);
		}
		a2 = xmalloc((nargs + 1) * sizeof *a2);
		a2[0] = recv;
		for (i = 0; i < nargs; i++)
			a2[i + 1] = args[i];
		op_io(f, mark, a2, nargs + 1, kw, r);
		free(a2);
		return r;
	}
	return NULL;
}

/* v is Python data a tensor can be made of, on the host: a number (known,
 * or an unknown known to be a plain number), or a non-empty list or tuple
 * of such (nested).  0 when not known. */
static int host_data(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > 4)
		return 0;
	if (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL)
		return 1;
	if (v->k == VK_UNKNOWN)
		return !v->alts && !v->str_prefix && (v->plain || v->nonneg);
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && !v->u.seq->unk_reason && v->u.seq->n >= 1) {
		for (i = 0; i < v->u.seq->n; i++)
			if (!host_data(v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	}
	return 0;
}

/* x.new([v]), x.new_tensor(data) of a method catalog/torch_facts.json
 * lists (tensor_data_methods): a new tensor where x lives, made of the
 * Python data given; when x is on the device, a host-to-device copy of
 * it.  NULL (not decided here) for another method, or when the argument
 * is not known to be data ("list": a non-empty list literal, whatever its
 * items -- torch reads each on the host -- "data": Python data). */
static value_t *data_method(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *how = catalog_fact(in->cat, CATALOG_F_TENSOR_DATA_METHODS, m);
	value_t *data = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "data") : NULL;
	struct sched_ev *e;
	int dev = recv_dev(fn);

	if (!how || !data || f->mode == M_FWD)
		return NULL;
	if (!strcmp(how, "list") ? !(nargs == 1 && data->k == VK_LIST && !data->u.seq->unk_reason && data->u.seq->n >= 1)
	                         : !host_data(data, 0))
		return NULL;
	if (kw && vdict_gets(kw, "device"))
		return NULL;               /* device= given: not where x lives */
	if (dev == DEV_DEVICE && (e = sev(f, SEV_H2D, afmt(in, "x.%s(<Python data>)", m), site))) {
		e->pinned = 0;
		e->non_blocking = 0;
		e->of_values = 1;
	}
	return v_tensor_dev(in->a, dev, 0);
}

/* r, what a method of a tensor of no element made of it (TM_SAME_ELEMS):
 * a tensor, or pieces, of none */
static void mark_no_elems(value_t *r)
{
	size_t i;

	if (r->k == VK_TENSOR)
		r->no_elems = 1;
	else if (r->k == VK_TUPLE || r->k == VK_LIST)
		for (i = 0; i < r->u.seq->n; i++)
			if (r->u.seq->items[i]->k == VK_TENSOR)
				r->u.seq->items[i]->no_elems = 1;
}

value_t *call_tensor_method(struct frame *f, value_t *fn, const char *m, value_t **args,
                            size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct tensor_method *tm = tensor_method_of(m);
	value_t *recv = fn->recv;
	value_t **a2, *r;
	size_t i;

	if (tm && (tm->flags & TM_SIZE) && (r = size_method(f, fn, m, args, nargs, kw, site)))
		return r;
	if (tm && (tm->flags & TM_PIECES) && (r = pieces_method(f, fn, args, nargs, kw, site)))
		return r;
	if ((r = data_method(f, fn, m, args, nargs, kw, site)))
		return r;
	{
		size_t mark = ev_mark(f);

		if (f->mode == M_FWD)
			emit_op(f, fn->u.ext, site);
		r = tm && tm->fn ? tm->fn(f, fn, m, args, nargs, kw, site)
		                 : v_tensor_dev(in->a, recv_dev(fn), 0);
		if (!recv || recv->k != VK_TENSOR || !r)
			return r;
		if (tm && (tm->flags & TM_SAME_ELEMS) && recv->no_elems)
			mark_no_elems(r);
		/* an op on a host tensor of values with no tensor argument
		 * (torch.from_numpy(mel).float()): values still, no batch */
		if (!(tm && tm->fn) && r->k == VK_TENSOR && recv->from_values == 1 && recv->dev == DEV_HOST &&
		    r->dev == DEV_HOST && f->mode != M_FWD) {
			int tensors = 0;

			for (i = 0; i < nargs; i++)
				tensors |= is_tensorish(args[i]);
			if (!tensors)
				r->from_values = 1;
		}
		a2 = xmalloc((nargs + 1) * sizeof *a2);
		a2[0] = recv;
		for (i = 0; i < nargs; i++)
			a2[i + 1] = args[i];
		/* (x.reshape(b, c, *spatial) with spatial not known: the
		 * arguments do not say the rank) */
		if (r->k == VK_TENSOR && !f->unk_star)
			r = hostints_method(in, m, recv, with_shape(in, r, fn->u.ext, a2, nargs + 1, kw));
		op_io(f, mark, a2, nargs + 1, kw, r);
		free(a2);
		return r;
	}
}

/* x.backward(): the step's backward (job mode). */
static value_t *tm_backward(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)fn, (void)m, (void)args, (void)nargs, (void)kw;
	if (f->mode != M_FWD) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, ".backward()", site);
		gradhook_backward(f, site);   /* the job's hooks on its parameters */
	}
	return v_none(in->a);
}

/* param.register_hook(fn): a hook autograd runs in each backward
 * (gradhook.c); its handle */
static value_t *tm_register_hook(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                                 struct vdict *kw, const struct ast_hdr *site)
{
	(void)m;
	if (!nargs && kw && vdict_gets(kw, "hook")) {
		value_t *h = vdict_gets(kw, "hook");

		return gradhook_register(f, fn->recv, &h, 1, site);
	}
	return gradhook_register(f, fn->recv, args, nargs, site);
}

/* x.chunk(n), split, unbind, tensor_split in job code: splitting a batch
 * into micro-batches, pieces that live where the batch lives; how many is
 * known when the receiver's shape and the arguments decide it (shapes.c's
 * pieces rules: x.split(32) of a [96, 512] tensor is 3 pieces of [32, 512])
 * or for chunk(n) with n known, else one representative piece.  (In
 * forward, what pieces_method() left: a tensor.) */
static value_t *tm_pieces(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                          struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int dev = recv_dev(fn), pinned = recv_pinned(fn);
	value_t *n = nargs ? args[0] : kw ? vdict_gets(kw, "chunks") : NULL;
	value_t *r;
	long long k;

	if (f->mode == M_FWD)
		return v_tensor_dev(in->a, dev, 0);
	/* x.split(size, dim) / chunk(n, dim) / unbind(dim): at most two
	 * arguments after the receiver */
	if (fn->recv && fn->recv->k == VK_TENSOR && fn->recv->shape && nargs && nargs <= 3) {
		const struct vshape *pieces[64];
		value_t *a2[4];
		size_t np, i;

		a2[0] = fn->recv;
		for (i = 0; i < nargs; i++)
			a2[i + 1] = args[i];
		np = shape_pieces(in->cat, in->a, fn->u.ext, a2, nargs + 1, kw, pieces, 64);
		if (np) {
			r = v_seq(in->a, VK_TUPLE, np);
			for (i = 0; i < np; i++) {
				value_t *t = v_tensor_dev(in->a, dev, pinned);

				t->shape = pieces[i];
				t->dt = fn->recv->dt;
				vseq_push(in->a, r->u.seq, t);
			}
			return r;
		}
	}
	if (!strcmp(m, "chunk") && n && n->k == VK_INT && n->u.i > 0 && n->u.i <= 64) {
		r = v_seq(in->a, VK_TUPLE, (size_t)n->u.i);
		for (k = 0; k < n->u.i; k++)
			vseq_push(in->a, r->u.seq, v_tensor_dev(in->a, dev, pinned));
		return r;
	}
	r = v_seq(in->a, VK_TUPLE, 1);
	vseq_push(in->a, r->u.seq, v_tensor_dev(in->a, dev, pinned));
	r->u.seq->unk_expr = text_of(f, site);
	r->u.seq->unk_reason = TENSOR_PIECES_REASON;
	return r;
}

/* t, the result of a move that names the host (x.cpu(), x.to('cpu')),
 * marked on the host for sure in job code (hostsure.c): its .device is
 * the CPU, a tensor made at it is made there */
static value_t *moved_to_host(struct frame *f, value_t *t)
{
	if (f->mode != M_FWD)
		t->host_sure = 1;
	return t;
}

/* Is the tensor `site` moves the call that made it, unnamed
 * (`torch.zeros(...).cuda()`): nothing wrote into it in between? */
static int moved_as_made(const struct ast_hdr *site)
{
	const struct ast_Call *c;

	if (!site || !AST_IS(site, Call))
		return 0;
	c = AST_AS(site, Call);
	return AST_IS(c->func, Attribute) && AST_IS(AST_AS(c->func, Attribute)->value, Call);
}

/* x.to(device), x.cuda(): a host->device copy (or device->host for
 * .to("cpu")); .to(dtype) alone moves nothing; .to(other) goes where the
 * tensor other is (and x.type_as(other), tm_type_as). */
static value_t *tm_to(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int dev = recv_dev(fn), pinned = recv_pinned(fn);
	int cuda = !strcmp(m, "cuda");
	value_t *target = cuda ? NULL : nargs ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
	int host = cuda ? 0 : dev_is_host(target);
	struct sched_ev *e;

	if (!cuda && value_is_dtype(in->cat, target))
		return v_tensor_dev(in->a, dev, pinned);
	/* x.to(None), x.to(device=None) (a helper's device parameter left
	 * at its default): torch moves nothing */
	if (!cuda && (!target || target->k == VK_NONE))
		return v_tensor_dev(in->a, dev, pinned);
	/* x.to(y) of a tensor y: to y's dtype and device -- a copy only when
	 * where y lives is known */
	if (!cuda && target->k == VK_TENSOR) {
		if (target->dev == DEV_HOST)
			host = 1;
		else if (target->dev != DEV_DEVICE)
			return v_tensor_dev(in->a, dev == target->dev ? dev : DEV_UNKNOWN, 0);
	}
	/* x.to(y.device) with y not known to be on the device (a CPU
	 * tensor's device): no copy ecg can state */
	if (!cuda && target->k == VK_UNKNOWN && target->reason == why_device_unpinned) {
		/* ... but y known, and x where y is: x stays there */
		const value_t *at = device_of_tensor(target);

		return at && at->dev == dev && dev != DEV_UNKNOWN ? v_tensor_dev(in->a, dev, pinned)
		                                                  : v_tensor_dev(in->a, DEV_UNKNOWN, 0);
	}
	if (host == 1) {
		value_t *r = v_tensor_dev(in->a, DEV_HOST, 0);

		if (dev == DEV_DEVICE) {
			e = sev(f, SEV_D2H, !cuda ? ".to(cpu)" : ".cpu()", site);
			if (e)
				e->non_blocking = kw_bool(kw, "non_blocking");
		}
		/* .to('cpu') names the host: there for sure (not .to(y) of a
		 * tensor y ecg places on the host) */
		return dev_is_host(target) == 1 ? moved_to_host(f, r) : r;
	}
	in->gpu = 1;
	devchoice_place(f, target);
	/* a tensor of no element (labels of width 0): torch's copy_ returns
	 * before any transfer */
	if (dev != DEV_DEVICE && !(f->mode == M_FWD && dev == DEV_UNKNOWN) && !tensor_empty(fn->recv)) {
		e = sev(f, SEV_H2D, cuda ? ".cuda()" : ".to(device)", site);
		if (e) {
			e->non_blocking = kw_bool(kw, "non_blocking");
			e->pinned = dev == DEV_HOST ? pin_state(pinned) : -1;
			e->of_values = fn->recv && fn->recv->k == VK_TENSOR &&
			               (fn->recv->from_values == 1 ||
			                (fn->recv->from_values == FROM_FILL && moved_as_made(site)));
		}
	}
	return v_tensor_dev(in->a, DEV_DEVICE, 0);
}

/* x.type_as(y): self.type(y.type()), whose type name holds the device
 * (torch.cuda.FloatTensor): where y is.  A copy is stated only when x is
 * on the host for sure (made there, hostsure.c) and y on the device, or
 * x on the device and y on the host (tm_to's .to(y)); else no copy, the
 * result where y is when that is known. */
static value_t *tm_type_as(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	const value_t *x = fn->recv, *y = nargs == 1 && !(kw && kw->n) ? args[0] : NULL;

	(void)m;
	if (x && y && x->k == VK_TENSOR && y->k == VK_TENSOR &&
	    ((x->dev == DEV_HOST && x->host_sure && y->dev == DEV_DEVICE) ||
	     (x->dev == DEV_DEVICE && y->dev == DEV_HOST)))
		return tm_to(f, fn, "to", args, nargs, kw, site);
	return v_tensor_dev(f->in->a, y && y->k == VK_TENSOR ? y->dev : DEV_UNKNOWN, 0);
}

/* torch.as_tensor(t, device=d) of a tensor t: torch returns t itself
 * when it is already on d (and of the dtype asked), else t.to(d) -- so
 * no copy on its own device, a host->device copy of a host tensor, a
 * blocking device->host copy of a device tensor to the host, and none
 * ecg can state where t's place is not known (it may be on d: code calls
 * as_tensor to make sure of that) or d's is not (tm_to's rules).
 * Without a device, t where it is. */
value_t *tensor_as_tensor(struct frame *f, value_t *t, value_t *device, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t fn;
	value_t *r;
	struct vdict *kw;

	if (!device || device->k == VK_NONE) {
		r = v_tensor_dev(in->a, t->dev, t->pinned);
		r->shape = t->shape;
		r->dt = t->dt;
		r->loose = t->loose;
		return r;
	}
	if (t->dev == DEV_UNKNOWN) {
		/* t's place not known: it may be on d already (as_tensor is
		 * how code makes sure of that), so no copy is stated */
		int h = dev_is_host(device);

		r = v_tensor_dev(in->a, h == 1 ? DEV_HOST : h == 0 ? DEV_DEVICE : DEV_UNKNOWN, 0);
		r->shape = t->shape;
		r->dt = t->dt;
		return r;
	}
	memset(&fn, 0, sizeof fn);
	fn.k = VK_EXT;
	fn.recv = t;
	kw = v_dict(in->a)->u.dict;
	vdict_sets(in->a, kw, "device", device);
	r = tm_to(f, &fn, "to", NULL, 0, kw, site);
	if (r->k == VK_TENSOR) {    /* the same data, wherever it went */
		r->shape = t->shape;
		r->dt = t->dt;
	}
	return r;
}

/* x.to(<the host>) or x.cpu() of an x ecg does not know (an item of a
 * model's output mapping, a value a library returned): whatever x is --
 * a tensor, a module, a mapping with its own .to -- the result is on the
 * host, so a host tensor stands for it (its .tolist() reads nothing from
 * a device; torch ops over it make host tensors).  No copy is stated: x
 * is not known to be on the device.  NULL (the caller goes on) when the
 * call is not one of these, the target is not known to be the host, or x
 * is an object torch.load read (a loaded model: call.c calls it) or has
 * alternatives (alts.c's). */
value_t *loaded_to_device(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	const struct ast_Attribute *a;
	const value_t *target;
	struct sched_ev *e;

	if (f->mode == M_FWD || !fn || fn->k != VK_UNKNOWN || fn->alts || !fn->reason ||
	    strcmp(fn->reason, LOADED_ON_HOST_REASON) || !site || !AST_IS(site, Call) ||
	    !AST_IS(AST_AS(site, Call)->func, Attribute))
		return NULL;
	a = AST_AS(AST_AS(site, Call)->func, Attribute);
	if (!strcmp(a->attr, "cuda")) {
		if (nargs > 1)
			return NULL;
	} else if (!strcmp(a->attr, "to")) {
		/* a device named, not the host, a dtype, a tensor or the
		 * meta device (no data) */
		target = nargs ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
		if (dev_is_host(target) != 0 || (target->k == VK_STR && !strncmp(target->u.str.s, "meta", 4)))
			return NULL;
	} else {
		return NULL;
	}
	f->in->gpu = 1;
	if ((e = sev(f, SEV_H2D, afmt(f->in, "%s (an object loaded onto the host, moved)", text_of(f, AST_AS(site, Call)->func)),
	             site))) {
		e->pinned = 0;
		e->non_blocking = kw_bool(kw, "non_blocking");
	}
	return unknown_at(f, site, LOADED_ON_DEVICE_REASON);
}

/* What an object loaded onto the device (torch.load with a device
 * map_location; an item of it, or what a method keeping the place made
 * of it) becomes through a method that leaves the device: x.to(<the
 * host>) is an object loaded onto the host (its .to(device) copies
 * again: loaded_to_device); x.numpy(), x.tolist(), x.item() are values
 * on the host (plain, nothing more known: no event, x may be no
 * tensor).  So what keeps LOADED_ON_DEVICE_REASON is on the device
 * (transforms.c's Normalize reads it so).  NULL for any other call. */
value_t *loaded_leaves_device(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	const char *m;
	const value_t *target;

	if (!fn || fn->k != VK_UNKNOWN || fn->alts || !fn->reason || strcmp(fn->reason, LOADED_ON_DEVICE_REASON) ||
	    !site || !AST_IS(site, Call) || !AST_IS(AST_AS(site, Call)->func, Attribute))
		return NULL;
	m = AST_AS(AST_AS(site, Call)->func, Attribute)->attr;
	if (!strcmp(m, "to")) {
		target = nargs ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
		return target && dev_is_host(target) == 1 ? unknown_at(f, site, LOADED_ON_HOST_REASON) : NULL;
	}
	if (!strcmp(m, "numpy") || !strcmp(m, "tolist") || !strcmp(m, "item"))
		return fact_set_plain(unknown_at(f, site, "a value read on the host from an object loaded onto the device"));
	return NULL;
}

value_t *unknown_to_host(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	const struct ast_Attribute *a;
	const value_t *target;

	if (!fn || fn->k != VK_UNKNOWN || fn->alts || IS_LOADED_REASON(fn->reason) || !site || !AST_IS(site, Call) ||
	    !AST_IS(AST_AS(site, Call)->func, Attribute))
		return NULL;
	a = AST_AS(AST_AS(site, Call)->func, Attribute);
	if (!strcmp(a->attr, "cpu")) {
		if (nargs || (kw && kw->n))
			return NULL;
	} else if (!strcmp(a->attr, "to")) {
		target = nargs ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
		if (dev_is_host(target) != 1)
			return NULL;
	} else {
		return NULL;
	}
	return v_tensor_dev(f->in->a, DEV_HOST, 0);
}

/* dst.copy_(src): a copy between the two tensors' places when both are
 * known and differ: host src into a device dst is host->device, device
 * src into a host dst device->host (a blocking one unless non_blocking);
 * the result is dst, where it lives. */
static value_t *tm_copy(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	int dev = recv_dev(fn), pinned = recv_pinned(fn);
	value_t *src = nargs ? args[0] : kw ? vdict_gets(kw, "src") : NULL;
	int sdev = src && src->k == VK_TENSOR ? src->dev : DEV_UNKNOWN;
	struct sched_ev *e = NULL;

	(void)m;
	if (dev == DEV_DEVICE && sdev == DEV_HOST) {
		f->in->gpu = 1;
		if ((e = sev(f, SEV_H2D, ".copy_(<host tensor>)", site)))
			e->pinned = pin_state(src->pinned);
	} else if (dev == DEV_HOST && sdev == DEV_DEVICE) {
		e = sev(f, SEV_D2H, ".copy_(<device tensor>)", site);
	} else if (dev == DEV_DEVICE && src &&
	           (src->k == VK_INT || src->k == VK_FLOAT || src->k == VK_BOOL || (src->k == VK_UNKNOWN && src->plain))) {
		/* t.copy_(n) of a Python number: torch wraps n in a 0-d tensor
		 * in pageable host memory and copies that over */
		f->in->gpu = 1;
		if ((e = sev(f, SEV_H2D, ".copy_(<Python number>)", site)))
			e->pinned = 0;
	}
	if (e)
		e->non_blocking = kw_bool(kw, "non_blocking");
	return v_tensor_dev(f->in->a, dev, pinned);
}

/* the reasons of x.type() of a tensor on a known side: its type's name,
 * "torch.cuda.HalfTensor" or "torch.FloatTensor", of a dtype not known */
static const char type_name_device[] = "the type name of a tensor on the device (torch.cuda.<dtype>Tensor)";
static const char type_name_host[] = "the type name of a tensor on the host (torch.<dtype>Tensor)";

/* Where x.type(T) puts x: 1 a CUDA tensor type (torch.cuda.FloatTensor,
 * its name, or the name y.type() gave of a y on the device), 0 a host
 * tensor type (torch.FloatTensor), -1 neither (a dtype) or not known. */
static int type_arg_cuda(const value_t *t)
{
	const char *n = t->k == VK_EXT ? t->u.ext : t->k == VK_STR ? t->u.str.s : NULL;
	size_t len = n ? strlen(n) : 0;

	if (t->k == VK_UNKNOWN && !t->alts && (t->reason == type_name_device || t->reason == type_name_host))
		return t->reason == type_name_device;
	if (!n || len < 6 || strcmp(n + len - 6, "Tensor"))
		return -1;
	return !strncmp(n, "torch.cuda.", 11) ? 1 : !strncmp(n, "torch.", 6) && !strchr(n + 6, '.') ? 0 : -1;
}

/* x.type(torch.cuda.FloatTensor): a copy to the device (x on the host),
 * x.type(torch.FloatTensor) to the host; x.type(T) with T a type the
 * code does not decide (Tensor = torch.cuda.FloatTensor if cuda else
 * torch.FloatTensor) a copy of a host x under that condition, to a place
 * not known.  x.type(dtype) moves nothing; x.type() is the type's name. */
static value_t *tm_type(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int dev = recv_dev(fn), pinned = recv_pinned(fn);
	value_t *t = nargs ? args[0] : kw ? vdict_gets(kw, "dtype") : NULL;
	int cuda = t ? type_arg_cuda(t) : -1;
	struct sched_ev *e = NULL;

	(void)m;
	if (!t) {
		/* x.type(): the name holds the side x is on, when known (YOLOX's
		 * grid.type(xin[0].type()) of a grid made on the host) */
		value_t *r = unknown_at(f, site, "the name of a tensor's type");

		if (fn->recv && fn->recv->k == VK_TENSOR && !fn->recv->alts &&
		    (dev == DEV_DEVICE || (dev == DEV_HOST && fn->recv->host_sure))) {
			r->reason = dev == DEV_DEVICE ? type_name_device : type_name_host;
			r->plain = 1;   /* a str */
		}
		return r;
	}
	if (cuda == 1) {
		in->gpu = 1;
		devchoice_place(f, NULL);
		if (dev == DEV_HOST || (dev == DEV_UNKNOWN && f->mode != M_FWD))
			e = sev(f, SEV_H2D, ".type(<CUDA tensor type>)", site);
		if (e) {
			e->non_blocking = kw_bool(kw, "non_blocking");
			e->pinned = dev == DEV_HOST ? pin_state(pinned) : -1;
		}
		return v_tensor_dev(in->a, DEV_DEVICE, 0);
	}
	if (cuda == 0) {
		if (dev == DEV_DEVICE && (e = sev(f, SEV_D2H, ".type(<host tensor type>)", site)))
			e->non_blocking = 0;
		return v_tensor_dev(in->a, DEV_HOST, 0);
	}
	if (t->k == VK_UNKNOWN && dev == DEV_HOST && f->mode != M_FWD) {
		const struct jctx *ojc = f->jc;

		f->jc = jc_push(f, JC_COND, anchor_at(f, site),
		                afmt(in, "%s is a CUDA tensor type", t->expr ? t->expr : text_of(f, site)));
		if ((e = sev(f, SEV_H2D, ".type(<a tensor type not decided>)", site))) {
			e->non_blocking = kw_bool(kw, "non_blocking");
			e->pinned = pin_state(pinned);
		}
		f->jc = ojc;
		return v_tensor_dev(in->a, DEV_UNKNOWN, 0);
	}
	return v_tensor_dev(in->a, dev, pinned);
}

static value_t *tm_pin_memory(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	(void)fn, (void)m, (void)args, (void)nargs, (void)kw, (void)site;
	return v_tensor_dev(f->in->a, DEV_HOST, 1);
}

/* x.cpu(), x.numpy(): one event, a blocking copy to the host (which is
 * how it syncs). */
static value_t *tm_cpu(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                       struct vdict *kw, const struct ast_hdr *site)
{
	struct sched_ev *e;

	(void)args, (void)nargs, (void)kw;
	if (recv_dev(fn) == DEV_DEVICE && (e = sev(f, SEV_D2H, !strcmp(m, "cpu") ? ".cpu()" : ".numpy()", site)))
		e->non_blocking = 0;
	if (!strcmp(m, "numpy")) {
		/* an array in host memory (a device tensor's .numpy() raises) */
		value_t *r = unknown_at(f, site, "a numpy array");

		r->dev = DEV_HOST;
		return r;
	}
	return moved_to_host(f, v_tensor_dev(f->in->a, DEV_HOST, 0));
}

/* torch.equal(x, y), x.allclose(y) ...: a Python bool computed on the
 * tensors' device and read on the host: a sync when dev is the device.
 * Not known (a bool from the data), never a tensor.  Never NULL. */
value_t *host_compare(struct frame *f, const char *m, int dev, const struct ast_hdr *site)
{
	if (dev == DEV_DEVICE)
		sev(f, SEV_SYNC, afmt(f->in, "%s() (a Python bool read from the device)", m), site);
	return fact_set_plain(unknown_at(f, site, TENSOR_READ_REASON));
}

/* x.item(), x.tolist(): the host waits for the value. */
static value_t *tm_item(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	value_t *known;

	(void)args, (void)nargs, (void)kw;
	if (recv_dev(fn) == DEV_DEVICE)
		sev(f, SEV_SYNC, !strcmp(m, "item") ? ".item()" : ".tolist()", site);
	/* a small host integer tensor's elements (hostints.c) */
	if (!nargs && !kw && (known = hostints_read(f->in, m, fn->recv)))
		return known;
	if (!strcmp(m, "item"))      /* a Python number */
		return fact_set_plain(unknown_at(f, site, TENSOR_READ_REASON));
	{
		/* .tolist(): Python numbers (or lists of them), host data */
		value_t *r = unknown_at(f, site, TENSOR_READ_REASON);

		r->dev = DEV_HOST;
		return r;
	}
}

/* x.equal(y), x.allclose(y): a Python bool, the comparison's result
 * read on the host -- a sync when x or y is on the device. */
static value_t *tm_host_compare(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	int dev = recv_dev(fn);

	(void)kw;
	if (dev != DEV_DEVICE && nargs >= 1 && args[0]->k == VK_TENSOR)
		dev = args[0]->dev;
	return host_compare(f, m, dev, site);
}

/* x.argmax(), x.multinomial(): a token chosen from the scores (in a loop
 * that calls the model, a decode loop); the result is a tensor where x is. */
static value_t *tm_token_choice(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	int dev = recv_dev(fn);

	(void)args, (void)nargs, (void)kw;
	token_choice(f, !strcmp(m, "argmax") ? ".argmax()" : ".multinomial()", dev, site);
	return v_tensor_dev(f->in->a, dev, 0);
}

/* x.topk(k), x.sort(), x.kthvalue(k) in job code: the named pair
 * (values, indices), both where x is, so that `zip(*x.topk(k))` yields
 * device scalars whose .item() reads the device, and `.values` /
 * `.indices` are read (namedtuple.c nt_pair); topk's indices are
 * candidates chosen from the scores (a beam search's tokens: in a loop
 * that calls the model, a decode loop).  In forward the op is one tensor,
 * as any other (its shape rule). */
static value_t *tm_values_indices(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                                  struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int dev = recv_dev(fn);

	(void)args, (void)nargs, (void)kw;
	if (f->mode == M_FWD)
		return v_tensor_dev(in->a, dev, 0);
	if (!strcmp(m, "topk"))
		token_choice(f, ".topk()", dev, site);
	return nt_pair(in, afmt(in, "torch.return_types.%s", m), v_tensor_dev(in->a, dev, 0), v_tensor_dev(in->a, dev, 0));
}

/* x.max(dim), x.min(dim=1), x.median(dim), x.mode(dim): with a dim
 * (an int, not a tensor: x.max(y) is elementwise) the named pair
 * (values, indices), in job code, as tm_values_indices; without one a
 * tensor.  `x.max(dim=1).values` reads the values where x is. */
static value_t *tm_reduce_pair(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site)
{
	const value_t *d = nargs ? args[0] : kw ? vdict_gets(kw, "dim") : NULL;

	if (f->mode == M_FWD || !d || d->k == VK_TENSOR || (d->k != VK_INT && !(d->k == VK_UNKNOWN && d->plain)))
		return v_tensor_dev(f->in->a, recv_dev(fn), 0);
	return tm_values_indices(f, fn, m, args, nargs, kw, site);
}

/* x.nonzero() &c: the output's size depends on the data (a sync). */
static value_t *tm_data_sized(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	int dev = recv_dev(fn);

	(void)args, (void)nargs, (void)kw;
	if (dev == DEV_DEVICE)
		sev(f, SEV_SYNC, afmt(f->in, ".%s() (its output size depends on the data)", m), site);
	return v_tensor_dev(f->in->a, dev, 0);
}

/* x.items(), x.keys(): a tensor has none; this is a mapping ecg holds as
 * a device value (a model's output dict), whose keys are no device
 * tensors to read.  Its items are (key, value) pairs, how many not known,
 * each value a device tensor (as x.values() -- a Tensor method name --
 * iterates device rows): a list of one representative pair. */
static value_t *tm_mapping(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int dev = recv_dev(fn);
	value_t *r, *pair;

	(void)args, (void)nargs, (void)kw;
	if (dev != DEV_DEVICE)
		return v_tensor_dev(in->a, dev, 0);
	if (strcmp(m, "items"))
		return unknown_at(f, site, "the keys of a mapping of device tensors");
	pair = v_seq(in->a, VK_TUPLE, 2);
	vseq_push(in->a, pair->u.seq, unknown_at(f, site, "the keys of a mapping of device tensors"));
	vseq_push(in->a, pair->u.seq, v_tensor_dev(in->a, DEV_DEVICE, 0));
	r = v_seq(in->a, VK_LIST, 1);
	vseq_push(in->a, r->u.seq, pair);
	r->u.seq->unk_expr = text_of(f, site);
	r->u.seq->unk_reason = "the items of a mapping of device tensors (how many not known)";
	return r;
}

/* x.size() &c when the shape is not known: read at run time, no sync. */
static value_t *tm_shape_read(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	value_t *r;

	(void)fn, (void)args, (void)kw;
	/* x.size() of a shape not known: a torch.Size; x.size(d): an int */
	if (!strcmp(m, "size") && !kw)
		return unknown_at(f, site, nargs ? shape_dim_reason : size_unknown_reason);
	r = unknown_at(f, site, "a shape read at run time (no sync)");
	/* x.numel(), x.dim(), x.stride(d): a Python int >= 0 (not x.stride(),
	 * a tuple) -- Python data, as a len() is (torch.IntTensor([x.numel()])
	 * is a tensor of values, no batch) */
	if (strcmp(m, "stride") || nargs)
		r->nonneg = FACT_NONNEG_INT;
	return r;
}

/* x.data_ptr(), x.element_size(), x.get_device(), x.is_contiguous(),
 * x.is_floating_point() and the other dtype/flag queries: the tensor's
 * metadata, a Python value the host has (no sync) */
static value_t *tm_meta_read(struct frame *f, value_t *fn, const char *m, value_t **args, size_t nargs,
                             struct vdict *kw, const struct ast_hdr *site)
{
	(void)args, (void)nargs, (void)kw;
	/* x.is_floating_point() of an x whose elements are known to be
	 * floats, ints or bools (shapes.c's dtype class): that bool */
	if (!strcmp(m, "is_floating_point") && fn && fn->recv && fn->recv->k == VK_TENSOR &&
	    fn->recv->dt != DT_UNKNOWN)
		return v_bool(f->in->a, fn->recv->dt == DT_FLOAT);
	return fact_set_plain(unknown_at(f, site, "a tensor's metadata, read at run time (no sync)"));
}

static const struct tensor_method tensor_methods[] = {
	{ "allclose", tm_host_compare, 0 },
	{ "argmax", tm_token_choice, 0 },
	{ "backward", tm_backward, 0 },
	{ "bincount", tm_data_sized, 0 },
	{ "chunk", tm_pieces, TM_PIECES | TM_SAME_ELEMS },
	{ "copy_", tm_copy, 0 },
	{ "cpu", tm_cpu, 0 },
	{ "cuda", tm_to, TM_SAME_ELEMS },
	{ "data_ptr", tm_meta_read, 0 },
	{ "dim", tm_shape_read, TM_SIZE },
	{ "element_size", tm_meta_read, 0 },
	{ "equal", tm_host_compare, 0 },
	{ "get_device", tm_meta_read, 0 },
	{ "is_complex", tm_meta_read, 0 },
	{ "is_conj", tm_meta_read, 0 },
	{ "is_contiguous", tm_meta_read, 0 },
	{ "is_floating_point", tm_meta_read, 0 },
	{ "is_inference", tm_meta_read, 0 },
	{ "is_neg", tm_meta_read, 0 },
	{ "is_pinned", tm_meta_read, 0 },
	{ "is_signed", tm_meta_read, 0 },
	{ "item", tm_item, 0 },
	{ "items", tm_mapping, 0 },
	{ "keys", tm_mapping, 0 },
	{ "kthvalue", tm_values_indices, 0 },
	{ "masked_select", tm_data_sized, 0 },
	{ "max", tm_reduce_pair, 0 },
	{ "median", tm_reduce_pair, 0 },
	{ "min", tm_reduce_pair, 0 },
	{ "mode", tm_reduce_pair, 0 },
	{ "multinomial", tm_token_choice, 0 },
	{ "ndimension", NULL, TM_SIZE },
	{ "nelement", tm_shape_read, TM_SIZE },
	{ "nonzero", tm_data_sized, 0 },
	{ "numel", tm_shape_read, TM_SIZE },
	{ "numpy", tm_cpu, 0 },
	{ "pin_memory", tm_pin_memory, TM_SAME_ELEMS },
	{ "register_hook", tm_register_hook, 0 },
	{ "size", tm_shape_read, TM_SIZE },
	{ "sort", tm_values_indices, 0 },
	{ "split", tm_pieces, TM_PIECES | TM_SAME_ELEMS },
	{ "stride", tm_shape_read, 0 },
	{ "tensor_split", tm_pieces, TM_PIECES | TM_SAME_ELEMS },
	{ "to", tm_to, TM_SAME_ELEMS },
	{ "tolist", tm_item, 0 },
	{ "topk", tm_values_indices, 0 },
	{ "type", tm_type, 0 },
	{ "type_as", tm_type_as, TM_SAME_ELEMS },
	{ "unbind", tm_pieces, TM_PIECES | TM_SAME_ELEMS },
	{ "unique", tm_data_sized, 0 },
};

const struct ntab tensor_ntab = NTAB(tensor_methods);

static const struct tensor_method *tensor_method_of(const char *m)
{
	return NTAB_FIND(tensor_methods, m);
}

/* ------------------------------------------------------------------ attributes */

/* x.<name> for a tensor x: shape and ndim from its shape, .T/.mT/.H as
 * .mH as ops with the transposed shape, every other property (the
 * catalogue's) unknown, and anything else a Tensor method bound to x (called through call_ext).
 * Never NULL. */
/* Whether name is one of the NULL-ended list. */
static int name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

/* x.T, x.mT, x.H, x.mH: a transposed view; x.items()/keys()/values(): a
 * mapping's views (a host batch standing for collated dicts). */
static const char *const transposes[] = { "T", "mT", "H", "mH", NULL };
static const char *const mapping_views[] = { "items", "keys", "values", NULL };

value_t *tensor_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;

	if ((!strcmp(name, "shape") || !strcmp(name, "ndim")) && (v = size_read(f, obj, name, NULL, site)))
		return v;
	if (!strcmp(name, "shape"))
		return unknown_at(f, site, size_unknown_reason);      /* a torch.Size all the same */
	if (catalog_fact(in->cat, CATALOG_F_TENSOR_ALIASES, name)) {
		v = v_tensor_dev(in->a, obj->dev, obj->pinned);
		v->shape = obj->shape;
		return v;
	}
	/* out.logits of what a library's module seen moved to the device
	 * returned (call.c: lib_out): no Tensor has such a field, so the value
	 * is a ModelOutput of tensors there (catalog library_output_fields)
	 * -- that field is one, its shape not known */
	if (f->mode != M_FWD && obj->lib_out && catalog_fact(in->cat, CATALOG_F_LIBRARY_OUTPUT_FIELDS, name))
		return v_tensor_dev(in->a, obj->dev, 0);
	/* x.device of a tensor known to be on the host (a parameter of a
	 * module built there, and still not moved when .device is read:
	 * `params = list(m.parameters()); m.cuda()` moves them in place):
	 * torch.device('cpu') -- a .to() to it of a device tensor is a copy
	 * to the host */
	if (!strcmp(name, "device") && obj->k == VK_TENSOR && obj->dev == DEV_HOST && obj->host_sure &&
	    f->mode != M_FWD && (!obj->param_of || module_built_on_host(in, obj->param_of))) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.device";
		vdict_sets(in->a, c->attrs, "type", v_str(in->a, "cpu"));
		vdict_sets(in->a, c->attrs, "index", v_none(in->a));
		return mk_inst_value(in, c);
	}
	/* x.is_cuda: True of a tensor on the device (a CUDA GPU, as its
	 * .device's type below), False of one on the host for sure (as its
	 * .device above); not known otherwise */
	if (!strcmp(name, "is_cuda") && obj->k == VK_TENSOR && obj->dev == DEV_DEVICE)
		return v_bool(in->a, 1);
	if (!strcmp(name, "is_cuda") && obj->k == VK_TENSOR && obj->dev == DEV_HOST && obj->host_sure &&
	    f->mode != M_FWD && (!obj->param_of || module_built_on_host(in, obj->param_of)))
		return v_bool(in->a, 0);
	if (!strcmp(name, "device") && obj->dev != DEV_DEVICE && f->mode != M_FWD) {
		v = v_unknown(in->a, text_of(f, site), why_device_unpinned);
		if (obj->k == VK_TENSOR && obj->loose && obj->dev == DEV_HOST)
			v->recv = obj;  /* a loader's sample: device_of_tensor() */
		return v;
	}
	/* x.device in a forward of an x the reading holds on the host (the
	 * job's call gave the model host data, or a layer's output of it):
	 * where x is -- y.to(x.device) of a y there moves nothing (tm_to), a
	 * factory given it makes its tensor there (device_of_tensor); a y
	 * elsewhere moved to it is no copy ecg can state.  An x whose place
	 * is not known keeps the reading's default (the device) */
	if (!strcmp(name, "device") && obj->k == VK_TENSOR && obj->dev == DEV_HOST && f->mode == M_FWD) {
		v = v_unknown(in->a, text_of(f, site), why_device_unpinned);
		v->recv = obj;
		return v;
	}
	/* x.device of a tensor on the device: a torch.device of type 'cuda'
	 * (ecg reads a job as run on CUDA GPUs or the CPU: catalog
	 * absent_modules), its index not known -- `'mps' in x.device.type`
	 * is False, `x.device.type == 'cuda'` True */
	if (!strcmp(name, "device") && obj->dev == DEV_DEVICE) {
		struct vinst *c = new_inst(in);

		c->ext = "torch.device";
		vdict_sets(in->a, c->attrs, "type", v_str(in->a, "cuda"));
		v = unknown_at(f, site, TENSOR_DEVICE_INDEX_REASON);
		v->nonneg = FACT_NONNEG_INT;
		vdict_sets(in->a, c->attrs, "index", v);
		return mk_inst_value(in, c);
	}
	/* x.grad in job code: None until a backward has filled it (or when x
	 * needs no gradient), else a tensor where x is, of x's shape: the two
	 * kept as alternatives (alts.c), `is None` not decided */
	if (!strcmp(name, "grad") && f->mode != M_FWD) {
		v = v_tensor_dev(in->a, obj->dev, 0);
		v->shape = obj->shape;
		return v_alts(f, "a gradient was computed for it", v, v_none(in->a));
	}
	if (!strcmp(name, "dtype"))
		return unknown_at(f, site, TENSOR_DTYPE_REASON);
	if (catalog_fact(in->cat, CATALOG_F_TENSOR_STATE, name))
		return unknown_at(f, site, "a tensor attribute read at run time");
	if (name_in(name, transposes)) {
		const struct vshape *s = shape_of(obj);

		emit_op(f, adot(in, "Tensor", name), site);
		/* a view: where x lives, of x's dtype */
		v = v_tensor_dev(in->a, obj->dev, obj->pinned);
		v->dt = obj->dt;
		if (s && (s->nd == 2 || (name[0] == 'm' && s->nd >= 2) || (name[0] == 'T' && s->nd <= 2))) {
			struct vshape *t = shape_new(in->a, s->nd);

			*t = *s;
			if (s->nd >= 2) {
				t->n[s->nd - 1] = s->n[s->nd - 2];
				t->sym[s->nd - 1] = s->sym[s->nd - 2];
				t->n[s->nd - 2] = s->n[s->nd - 1];
				t->sym[s->nd - 2] = s->sym[s->nd - 1];
			}
			v->shape = t;
		}
		return v;
	}
	/* any other property (is_meta, is_sparse, real, output_nr ...): a
	 * value the run knows, not a method -- bound, it would test true */
	if (catalog_is_tensor_property(in->cat, name))
		return unknown_at(f, site, "a tensor property read at run time");
	/* a name torch's Tensor does not have (xs.items() of a library
	 * module's output ecg took for a tensor): no op, not known */
	if (!catalog_tensor_name(in->cat, name) &&
	    !(f->mode != M_FWD && obj->dev == DEV_HOST && name_in(name, mapping_views)) &&
	    !(f->mode != M_FWD && obj->dev == DEV_DEVICE && !strcmp(name, "items")))
		/* (a host batch in job code stands for whatever the loader
		 * collated -- per-sample target dicts: their items are rows;
		 * a model's output on the device, a mapping of device tensors:
		 * tm_mapping) */
		return unknown_at(f, site, afmt(in, "'%s' is no attribute of a Tensor: the value is not known to be a tensor", name));
	v = v_ext(in->a, adot(in, "Tensor", name));
	v->recv = obj;
	return v;
}
