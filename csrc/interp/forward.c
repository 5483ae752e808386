/* interp/forward.c - forward mode: a module's forward read into events
 *
 * emit()/emit_op() append forward events (fev) to the frame's sequence;
 * op_io() fills an op's input and output shapes.  forward_of() reads a
 * module instance's forward once per group of identical children
 * (container_groups), calling into call_module_fwd() for submodules and
 * sequential_forward() for containers; layer_result() is an external
 * module's output from the catalogue.  container_slice() is seq[a:b] in a
 * forward, whose call runs those children where they are in the tree.
 */
#include "config.h"

#include "ecg/catalog.h"
#include "internal.h"

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site);

/* Do two argument lists hold tensors of the same known shapes? */
static int same_shapes(value_t **a, size_t na, value_t **b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		if ((a[i]->k == VK_TENSOR) != (b[i]->k == VK_TENSOR))
			return 0;
		if (a[i]->k == VK_TENSOR && !shape_same(shape_of(a[i]), shape_of(b[i])))
			return 0;
	}
	return 1;
}

struct fev *emit(struct frame *f, enum fev_kind kind, const struct ast_hdr *site)
{
	struct fseq *s = f->ev;
	struct fev *e;

	if (!s)
		return NULL;
	ARENA_GROW(f->in->a, s->ev, s->n, s->alloc, 16);
	e = &s->ev[s->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->anchor = anchor_at(f, site);
	e->repeat = f->mult.n;
	e->repeat_expr = f->mult.expr;
	e->repeat_src = f->mult.src;
	e->repeat_via = f->mult.via;
	e->repeat_reason = f->mult.reason;
	e->cond = f->cond.text;
	e->cond_taken = f->cond.taken;
	return e;
}

void emit_op(struct frame *f, const char *op, const struct ast_hdr *site)
{
	struct fev *e;

	if (f->mode != M_FWD)
		return;
	e = emit(f, FEV_OP, site);
	if (e)
		e->op = op;
}

/* Where the next event of this frame goes (for op_io). */
size_t ev_mark(const struct frame *f)
{
	return f->mode == M_FWD && f->ev ? f->ev->n : (size_t)-1;
}

/* The op emitted at `mark` took args (then kw's values) and gave ret:
 * kept on its event, for the shapes of the record's op entry.  Every op
 * comes here, in job code too: ret is marked on the host for sure when its
 * inputs are (hostsure.c). */
void op_io(struct frame *f, size_t mark, value_t *const *args, size_t nargs, const struct vdict *kw,
           value_t *ret)
{
	struct fev *e;
	size_t i, n = nargs + (kw ? kw->n : 0);

	host_sure_op(f, args, nargs, kw, ret);   /* job code: hostsure.c */
	if (mark == (size_t)-1 || !f->ev || mark >= f->ev->n)
		return;
	e = &f->ev->ev[mark];
	if (e->kind != FEV_OP || e->args)
		return;
	e->args = ast_arena_alloc(f->in->a, (n + 1) * sizeof *e->args);
	for (i = 0; i < nargs; i++)
		e->args[i] = args[i];
	for (i = 0; kw && i < kw->n; i++)
		e->args[nargs + i] = kw->vals[i];
	e->nargs = n;
	e->ret = ret;
}

/* The same constructor arguments, by name and as written. */
static int same_args(struct interp *in, const struct vdict *x, const struct vdict *y)
{
	size_t i;

	if (!x || !y || x->n != y->n)
		return 0;
	for (i = 0; i < x->n; i++) {
		const char *rx = value_repr(in->a, x->vals[i]);
		const char *ry = value_repr(in->a, y->vals[i]);

		if (!value_key_eq(x->keys[i], y->keys[i]))
			return 0;
		if ((rx || ry) && (!rx || !ry || strcmp(rx, ry)))
			return 0;
	}
	return 1;
}

/* Structural equality of two module instances: same class, same layer
 * arguments, same children, recursively.  Groups of equal children of a
 * container become one entry (`h.*`, `layer3.1:6`). */
static int inst_struct_eq(struct interp *in, const struct vinst *x, const struct vinst *y, int depth)
{
	size_t i;

	if (x == y)
		return 1;
	if (depth > 64 || x->cls != y->cls || x->mod != y->mod)
		return 0;
	if ((x->ext || y->ext) && (!x->ext || !y->ext || strcmp(x->ext, y->ext)))
		return 0;
	if (x->nchildren != y->nchildren)
		return 0;
	if (x->mod == VM_LAYER || x->mod == VM_EXTERNAL) {
		if (!same_args(in, x->args, y->args))
			return 0;
	} else if (x->mod == VM_REPO) {
		/* a repository class on a torch.nn layer (class Linear(nn.Linear)):
		 * the arguments its base was given (module.c layer_base_init) */
		const value_t *bx = vdict_gets(x->attrs, "__ecg_base_args__");
		const value_t *by = vdict_gets(y->attrs, "__ecg_base_args__");

		if ((bx || by) && (!bx || !by || bx->k != VK_DICT || by->k != VK_DICT ||
		                   !same_args(in, bx->u.dict, by->u.dict)))
			return 0;
	}
	for (i = 0; i < x->nchildren; i++) {
		if (strcmp(x->children[i].name, y->children[i].name))
			return 0;
		if (!inst_struct_eq(in, x->children[i].inst, y->children[i].inst, depth + 1))
			return 0;
	}
	return 1;
}

/* Runs of structurally equal consecutive children: writes the start of
 * each run into starts[] (caller frees), returns the number of runs. */
size_t container_groups(struct interp *in, const struct vinst *m, size_t **starts)
{
	size_t n = 0, i;

	*starts = xmalloc((m->nchildren + 2) * sizeof **starts);
	if (m->nchildren && vdict_gets(m->attrs, "__ecg_len_unknown__")) {
		/* built by a loop whose trip count is not known: the children
		 * seen stand for all of them, in one entry with no count */
		(*starts)[0] = 0;
		(*starts)[1] = m->nchildren;
		return 1;
	}
	for (i = 0; i < m->nchildren; i++)
		if (i == 0 || !inst_struct_eq(in, m->children[i - 1].inst, m->children[i].inst, 0))
			(*starts)[n++] = i;
	(*starts)[n] = m->nchildren;
	return n;
}

size_t interp_container_groups(struct interp *in, const struct vinst *m, size_t **starts)
{
	return container_groups(in, m, starts);
}

/* A call of module m from forward code (or from a Sequential). */
value_t *call_module_fwd(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                         struct vdict *kw, const struct ast_hdr *site)
{
	struct fev *e = emit(f, FEV_MODULE, site);

	if (e) {
		/* the caller's array may be its own (freed after the call): the
		 * event keeps a copy in the arena */
		value_t **a = ast_arena_alloc(f->in->a, (nargs + 1) * sizeof *a);

		if (nargs)
			memcpy(a, args, nargs * sizeof *a);
		e->inst = m;
		e->args = a;
		e->nargs = nargs;
		e->kwargs = kw;
	}
	tp_call(f, m, site);    /* a tensor-parallel style's collectives */
	syncbn_call(f, m, site, NULL);   /* SyncBatchNorm's all-gather */
	return forward_of(f, m, args, nargs, kw, site);
}

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	void **slot = fwd_entry_slot(in, m);
	struct fwdinfo *fi = *slot;

	if (!fi) {
		fi = ast_arena_alloc(in->a, sizeof *fi);
		*slot = fi;
	}
	/* a call in another mode (reverse=True) reads the forward again */
	fi = fwd_mode_reading(in, fi, fwd_mode_sig(in, m, args, nargs, kw));
	if (!fi->call_anchor)
		fi->call_anchor = site ? anchor_at(f, site) : f->ev && f->ev->n ? f->ev->ev[f->ev->n - 1].anchor : NULL;
	/* the first call with gradients on (an evaluation's call under
	 * no_grad is not where a wrapper's per-forward broadcast runs) */
	if (!m->grad_call_anchor && !jc_find(f->jc, JC_NO_GRAD))
		m->grad_call_anchor = site ? anchor_at(f, site) : fi->call_anchor;
	if (fi->state == 1)
		return v_tensor(in->a);     /* recursion through the same module */
	if (fi->state == 2) {
		/* called again: its events are known; what it returns depends
		 * on what it is given this time.  Its schedule events run again
		 * too, as often as this call does: their count is not the
		 * first read's any more (unless this is a model's reading for
		 * another job call, fwdmode.c: that call counts its own runs) */
		size_t k;

		for (k = fi->sev_from; k < fi->sev_to && k < in->nsev && !in->fwd_mode_call; k++)
			if (in->sev[k].in_forward)
				in->sev[k].fwd_mult = -1;
		syncbn_container_again(f, m, site);
		if (m->mod == VM_LAYER)
			return layer_result(in, m, args, nargs, kw);
		if (!fi->ret)
			return v_tensor(in->a);
		if (fi->ret->k == VK_TENSOR && fi->ret->shape && !same_shapes(fi->args, fi->nargs, args, nargs)) {
			value_t *r = v_copy(in->a, fi->ret);

			r->shape = NULL;
			return r;
		}
		return fi->ret;
	}
	fi->state = 1;
	fi->args = args;
	fi->nargs = nargs;
	{
		/* its forward runs as often as the call: the caller's own
		 * count times the loops (or the group) around the call */
		long long oo = in->fwd_outer;

		in->fwd_outer = runs_times(oo, f->mult.n);
		fi->sev_from = in->nsev;
		fi->ret = interp_forward(in, m, args, nargs, kw, &fi->seq);
		fi->sev_to = in->nsev;
		in->fwd_outer = oo;
	}
	fi->state = 2;
	(void)site;
	return fi->ret;
}

/* Sequential: its children in order, one event per group. */
value_t *sequential_forward(struct interp *in, struct vinst *m, value_t *x, struct fseq *out,
                            struct frame *proto, const char *anchor)
{
	struct frame cf;
	size_t *starts, ng, g;
	value_t *cur = x;

	memset(&cf, 0, sizeof cf);
	cf = *proto;
	cf.ev = out;
	ng = container_groups(in, m, &starts);
	for (g = 0; g < ng; g++) {
		size_t lo = starts[g], hi = starts[g + 1];
		struct fev *e;

		cf.mult.n = (long long)(hi - lo);
		cf.mult.expr = hi - lo > 1 ? afmt(in, "%zu identical children", hi - lo) : NULL;
		cf.mult.src = m->constructed_at;
		{
			/* built in a loop whose trip count is not known: the
			 * children seen stand for all of them, how many is not
			 * known */
			const value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");

			if (unk) {
				cf.mult.n = -1;
				cf.mult.expr = unk->expr ? unk->expr : cf.mult.expr;
				cf.mult.reason = unk->k == VK_UNKNOWN && unk->reason ? unk->reason
				                 : "the Sequential's length is not known";
			}
		}
		e = emit(&cf, FEV_MODULE, NULL);
		if (e) {
			value_t **a1 = ast_arena_alloc(in->a, sizeof *a1);

			a1[0] = cur;
			e->inst = m->children[lo].inst;
			e->anchor = anchor ? anchor : m->constructed_at;
			e->args = a1;
			e->nargs = 1;
		}
		syncbn_call(&cf, m->children[lo].inst, NULL, anchor ? anchor : m->constructed_at);
		cur = forward_of(&cf, m->children[lo].inst, &cur, 1, NULL, NULL);
	}
	free(starts);
	return cur;
}

/* What a layer (or a module ecg cannot read) returns: a tensor that lives
 * where its input does, with the shape the catalogue's rule gives. */
value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                      struct vdict *kwargs)
{
	int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;
	size_t i;
	value_t *r;
	struct vshape os;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]) && args[i]->dev == DEV_HOST)
			dev = DEV_HOST;
	r = v_tensor_dev(in->a, dev, 0);
	if (m->mod == VM_LAYER && cg_out_shape(in->cat, m, -1, args, nargs, kwargs, &os) == 0) {
		struct vshape *s = shape_new(in->a, os.nd);

		if (s) {
			*s = os;
			r->shape = s;
		}
	}
	if (m->mod == VM_LAYER && m->ext) {
		/* the layers that return a tuple: (output, h_n), (output,
		 * (h_n, c_n)), (attn_output, attn_weights or None) */
		const char *shape = catalog_fact(in->cat, CATALOG_F_TUPLE_OUTPUTS, m->ext);
		value_t *t;

		if (shape && (!strcmp(shape, "output_hidden") || !strcmp(shape, "output_hidden_cell"))) {
			t = v_seq(in->a, VK_TUPLE, 2);
			vseq_push(in->a, t->u.seq, r);
			if (!strcmp(shape, "output_hidden_cell")) {
				value_t *hc = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, t->u.seq, hc);
			} else {
				vseq_push(in->a, t->u.seq, v_tensor_dev(in->a, dev, 0));
			}
			return t;
		}
		if (shape && !strcmp(shape, "output_weights")) {
			value_t *nw = kwargs ? vdict_gets(kwargs, "need_weights") : NULL;

			t = v_seq(in->a, VK_TUPLE, 2);
			vseq_push(in->a, t->u.seq, r);
			vseq_push(in->a, t->u.seq, !nw || value_truth(nw) == 1 ? v_tensor_dev(in->a, dev, 0)
			                           : value_truth(nw) == 0 ? v_none(in->a)
			                           : v_unknown(in->a, "need_weights", "need_weights is not known"));
			return t;
		}
	}
	return r;
}

/* seq[a:b] in a forward (guided-diffusion's `in_rest = self.in_layers[:-1]`):
 * a new Sequential holding the same modules, so calling it runs each of
 * them under its own path (named_modules() does not know the slice).  It
 * is marked __ecg_slice__ and never attached to the tree.  NULL when the
 * bounds, the step or the container's length are not known. */
value_t *container_slice(struct frame *f, struct vinst *m, const value_t *idx)
{
	struct interp *in = f->in;
	long long n = (long long)m->nchildren, lo = 0, hi = n, k;
	int ok1 = 1, ok2 = 1;
	struct vinst *s;

	if (idx->k != VK_SLICE || vdict_gets(m->attrs, "__ecg_len_unknown__") ||
	    !(idx->u.slice.step->k == VK_NONE || (idx->u.slice.step->k == VK_INT && idx->u.slice.step->u.i == 1)))
		return NULL;
	if (idx->u.slice.lo->k != VK_NONE)
		lo = as_int(idx->u.slice.lo, &ok1);
	if (idx->u.slice.hi->k != VK_NONE)
		hi = as_int(idx->u.slice.hi, &ok2);
	if (!ok1 || !ok2)
		return NULL;
	if (lo < 0) lo += n;
	if (hi < 0) hi += n;
	if (lo < 0) lo = 0;
	if (hi > n) hi = n;
	s = new_inst(in);
	s->mod = VM_CONTAINER;
	s->ext = "torch.nn.Sequential";
	s->constructed_at = m->constructed_at;
	s->args = vdict_new(in->a);
	vdict_sets(in->a, s->attrs, "__ecg_slice__", v_bool(in->a, 1));
	for (k = lo; k < hi; k++)
		vinst_add_child(in->a, s, afmt(in, "%lld", k - lo), m->children[k].inst);
	return mk_inst_value(in, s);
}

/* A call of a slice made by container_slice(): its modules one after the
 * other, each called from here (as `for l in seq[a:b]: x = l(x)`). */
value_t *slice_forward(struct frame *f, struct vinst *s, value_t **args, size_t nargs,
                       struct vdict *kw, const struct ast_hdr *site)
{
	value_t *cur = nargs ? args[0] : v_tensor(f->in->a);
	size_t i;

	(void)kw;
	for (i = 0; i < s->nchildren; i++) {
		value_t **a1 = ast_arena_alloc(f->in->a, sizeof *a1);   /* kept on the event */

		a1[0] = cur;
		cur = call_module_fwd(f, s->children[i].inst, a1, 1, NULL, site);
	}
	return cur;
}
