/* interp/interp.c - the public side of include/ecg/interp.h, and the part
 * of the evaluator not yet moved to its own file of csrc/interp/ */
#include "config.h"

#include "internal.h"

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site);
static value_t *bound(struct interp *in, value_t *fnv, value_t *self);
static void assign(struct frame *f, const struct ast_hdr *t, value_t *v);
static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range);
static value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                             struct vdict *kwargs);

/* "EMA" as a word of a name: ModelEma, ema_model, update_ema, EMA --
 * not "schema" or "emails" (a lowercase "ema" inside a word). */
static int has_ema(const char *s)
{
	const char *p;

	for (p = s; p && *p; p++) {
		int starts, ends;

		/* p[0..2] are "ema" in any case before p[3] is read (it is at
		 * most the terminating NUL then); a NUL stops the && chain */
		if ((p[0] | 0x20) != 'e' || (p[1] | 0x20) != 'm' || (p[2] | 0x20) != 'a')
			continue;
		starts = p == s || !(p[-1] >= 'a' && p[-1] <= 'z') || p[0] == 'E';
		ends = !(p[3] >= 'a' && p[3] <= 'z') || p[2] == 'A';
		if (starts && ends)
			return 1;
	}
	return 0;
}

/* An exponential moving average of the weights updated from job code:
 * ema.update(model) on an object whose class says EMA (ModelEma,
 * timm's ModelEmaV3), or a function named for it (update_ema). */
static void ema_call(struct frame *f, const value_t *fn, const struct ast_hdr *site)
{
	const char *what = NULL;

	if (fn->k == VK_BOUND && fn->u.bound.fn->k == VK_FUNC && fn->u.bound.self && fn->u.bound.self->k == VK_INST) {
		const struct vinst *m = fn->u.bound.self->u.inst;
		const char *cls = m->cls ? m->cls->name : m->ext;
		const char *meth = fn->u.bound.fn->u.fn->qualname;
		const char *dot = meth ? strrchr(meth, '.') : NULL;

		if (cls && has_ema(cls) && dot && (!strcmp(dot + 1, "update") || !strcmp(dot + 1, "step")))
			what = meth;
	} else if (fn->k == VK_FUNC && fn->u.fn->qualname && has_ema(fn->u.fn->qualname) &&
	           strstr(fn->u.fn->qualname, "update")) {
		what = fn->u.fn->qualname;
	} else if (fn->k == VK_EXT && has_ema(fn->u.ext) && (strstr(fn->u.ext, ".update") || strstr(fn->u.ext, ".step"))) {
		what = fn->u.ext;
	}
	if (what)
		sev(f, SEV_EMA, what, site);
}

struct sched_ev *sev(struct frame *f, enum sev_kind kind, const char *call, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e;

	if (in->nsev >= 100000)
		return NULL;
	xgrow((void **)&in->sev, &in->asev, in->nsev + 1, sizeof *in->sev);
	e = &in->sev[in->nsev++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->call = call;
	e->anchor = anchor_at(f, site);
	e->ctx = f->jc;
	e->in_forward = f->mode == M_FWD;
	e->in_backward = f->in_backward;
	e->non_blocking = -1;
	e->pinned = -1;
	e->async_op = -1;
	return e;
}

const struct jctx *jc_push(struct frame *f, enum jctx_kind kind, const char *anchor, const char *text)
{
	struct jctx *j = ast_arena_alloc(f->in->a, sizeof *j);

	j->kind = kind;
	j->anchor = anchor;
	j->text = text;
	j->period = -1;
	j->trips = -1;
	j->up = f->jc;
	return j;
}

/* Do two argument lists hold tensors of the same known shapes? */
static int same_shapes(value_t **a, size_t na, value_t **b, size_t nb)
{
	size_t i;
	unsigned k;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		const struct vshape *x = shape_of(a[i]), *y = shape_of(b[i]);

		if ((a[i]->k == VK_TENSOR) != (b[i]->k == VK_TENSOR))
			return 0;
		if (a[i]->k != VK_TENSOR)
			continue;
		if (!x || !y || x->nd != y->nd)
			return 0;
		for (k = 0; k < x->nd; k++) {
			if (x->n[k] != y->n[k])
				return 0;
			if (x->n[k] < 0 && (!x->sym[k] || !y->sym[k] || strcmp(x->sym[k], y->sym[k])))
				return 0;
		}
	}
	return 1;
}

static struct fev *emit(struct frame *f, enum fev_kind kind, const struct ast_hdr *site)
{
	struct fseq *s = f->ev;
	struct fev *e;

	if (!s)
		return NULL;
	if (s->n == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		struct fev *ev = ast_arena_alloc(f->in->a, na * sizeof *ev);

		if (s->n)
			memcpy(ev, s->ev, s->n * sizeof *ev);
		s->ev = ev;
		s->alloc = na;
	}
	e = &s->ev[s->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->anchor = anchor_at(f, site);
	e->repeat = f->mult;
	e->repeat_expr = f->mult_expr;
	e->repeat_src = f->mult_src;
	e->repeat_via = f->mult_via;
	e->repeat_reason = f->mult_reason;
	e->cond = f->cond;
	e->cond_taken = f->cond_taken;
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
 * kept on its event, for the shapes of the record's op entry. */
void op_io(struct frame *f, size_t mark, value_t *const *args, size_t nargs, const struct vdict *kw,
                  value_t *ret)
{
	struct fev *e;
	size_t i, n = nargs + (kw ? kw->n : 0);

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
		if (!x->args || !y->args || x->args->n != y->args->n)
			return 0;
		for (i = 0; i < x->args->n; i++) {
			const char *rx = value_repr(in->a, x->args->vals[i]);
			const char *ry = value_repr(in->a, y->args->vals[i]);

			if (!value_key_eq(x->args->keys[i], y->args->keys[i]))
				return 0;
			if ((rx || ry) && (!rx || !ry || strcmp(rx, ry)))
				return 0;
		}
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
static size_t container_groups(struct interp *in, const struct vinst *m, size_t **starts)
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
static value_t *call_module_fwd(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	struct fev *e = emit(f, FEV_MODULE, site);

	if (e) {
		e->inst = m;
		e->args = args;
		e->nargs = nargs;
		e->kwargs = kw;
	}
	return forward_of(f, m, args, nargs, kw, site);
}

static value_t *forward_of(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                           struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct fwdinfo *fi = m->entry;

	if (!fi) {
		fi = ast_arena_alloc(in->a, sizeof *fi);
		m->entry = fi;
	}
	if (!fi->call_anchor)
		fi->call_anchor = site ? anchor_at(f, site) : f->ev && f->ev->n ? f->ev->ev[f->ev->n - 1].anchor : NULL;
	if (fi->state == 1)
		return v_tensor(in->a);     /* recursion through the same module */
	if (fi->state == 2) {
		/* called again: its events are known; what it returns depends
		 * on what it is given this time */
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
	fi->ret = interp_forward(in, m, args, nargs, kw, &fi->seq);
	fi->state = 2;
	(void)site;
	return fi->ret;
}

/* Sequential: its children in order, one event per group. */
static value_t *sequential_forward(struct interp *in, struct vinst *m, value_t *x, struct fseq *out,
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

		cf.mult = (long long)(hi - lo);
		cf.mult_expr = hi - lo > 1 ? afmt(in, "%zu identical children", hi - lo) : NULL;
		cf.mult_src = m->constructed_at;
		e = emit(&cf, FEV_MODULE, NULL);
		if (e) {
			value_t **a1 = ast_arena_alloc(in->a, sizeof *a1);

			a1[0] = cur;
			e->inst = m->children[lo].inst;
			e->anchor = anchor ? anchor : m->constructed_at;
			e->args = a1;
			e->nargs = 1;
		}
		cur = forward_of(&cf, m->children[lo].inst, &cur, 1, NULL, NULL);
	}
	free(starts);
	return cur;
}

/* External callables: torch, third-party libraries, the standard library. */
value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *d = canon_ext(in, fn->u.ext);
	const char *last = short_ext(d);
	size_t i;
	int any_tensor = 0;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]))
			any_tensor = 1;

	/* itertools.repeat(x, n) with n known: n times x */
	if (!strcmp(d, "itertools.repeat") && nargs == 2 && args[1]->k == VK_INT && args[1]->u.i >= 0 &&
	    args[1]->u.i <= MAX_UNROLL) {
		value_t *r = v_seq(in->a, VK_TUPLE, (size_t)args[1]->u.i);
		long long k;

		for (k = 0; k < args[1]->u.i; k++)
			vseq_push(in->a, r->u.seq, args[0]);
		return r;
	}
	/* worker processes run job code: mp.spawn(fn, args=(...)) calls
	 * fn(rank, *args) in each; Process(target=fn, args=(...)) calls
	 * fn(*args).  Read once, as one process of the job. */
	if (f->mode != M_FWD &&
	    (!strcmp(d, "torch.multiprocessing.spawn") || !strcmp(d, "torch.multiprocessing.start_processes") ||
	     !strcmp(d, "torch.multiprocessing.Process") || !strcmp(d, "multiprocessing.Process") ||
	     !strcmp(d, "torch.multiprocessing.spawn.spawn"))) {
		int spawn = strcmp(last, "Process") != 0;
		value_t *target = spawn ? (nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "fn") : NULL)
		                        : kw ? vdict_gets(kw, "target") : NULL;
		value_t *pargs = kw ? vdict_gets(kw, "args") : NULL;

		if (!pargs && spawn && nargs >= 2)
			pargs = args[1];
		if (target && target->k == VK_FUNC) {
			size_t np = pargs && (pargs->k == VK_TUPLE || pargs->k == VK_LIST) ? pargs->u.seq->n : 0;
			value_t **cargs = ast_arena_alloc(in->a, (np + 2) * sizeof *cargs);
			size_t nc = 0;

			if (spawn)
				cargs[nc++] = v_unknown(in->a, "rank", "the process index mp.spawn passes");
			for (i = 0; i < np; i++)
				cargs[nc++] = pargs->u.seq->items[i];
			(void)call_function(f, target->u.fn, NULL, cargs, nc, NULL, M_JOB, NULL, site);
		}
	}
	if (f->mode != M_FWD && !in->ev.write &&
	    (!strcmp(d, "torch.save") || !strcmp(d, "json.dump") || !strcmp(d, "numpy.save") ||
	     !strcmp(d, "numpy.savez") || !strcmp(d, "pickle.dump") || !strcmp(last, "to_csv") ||
	     !strcmp(last, "to_parquet") || !strcmp(last, "save_image") || !strcmp(d, "np.save")))
		in->ev.write = anchor_at(f, site);
	if (f->mode != M_FWD && !strcmp(last, "step") && nargs >= 1 &&
	    args[0]->k == VK_INST && args[0]->u.inst->ext && !strncmp(args[0]->u.inst->ext, "torch.optim.", 12)) {
		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, SEV_OPT_STEP, "scaler.step(optimizer)", site);
		if (strstr(d, "GradScaler"))
			sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
	}
	if (!strncmp(d, "Tensor.", 7))
		return call_tensor_method(f, fn, last, args, nargs, kw, site);
	if (strstr(d, "GradScaler.") && !strcmp(last, "scale") && nargs == 1)
		return args[0];
	if (!strcmp(d, "torch.compile"))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	if (is_wrapper(d) && nargs >= 1 && args[0]->k == VK_INST) {
		value_t *w = v_copy(in->a, args[0]);
		struct vinst *m = args[0]->u.inst;
		const char **nw = ast_arena_alloc(in->a, (m->nwrapped + 1) * sizeof *nw);

		if (!strcmp(d, "torch.compile.__wrap__"))
			d = "torch.compile";
		if (strstr(d, "DistributedDataParallel") || strstr(d, "FullyShardedDataParallel") ||
		    strstr(d, "fully_shard") || strstr(d, "deepspeed")) {
			struct sched_ev *e = sev(f, SEV_WRAP, d, site);

			if (e) {
				e->model = m;
				e->target = AST_IS(site, Call) && AST_AS(site, Call)->args.n
				            ? text_of(f, AST_AS(site, Call)->args.items[0]) : NULL;
				e->implied_by = strstr(d, "DistributedDataParallel") ? "DistributedDataParallel"
				                : strstr(d, "deepspeed") ? "deepspeed.initialize"
				                : strstr(d, "fully_shard") ? "fully_shard" : "FullyShardedDataParallel";
			}
		}

		if (m->nwrapped)
			memcpy(nw, m->wrapped_by, m->nwrapped * sizeof *nw);
		nw[m->nwrapped] = d;
		m->wrapped_by = nw;
		m->nwrapped++;
		return w;
	}
	if (!strcmp(d, "argparse.ArgumentParser"))
		return argp_new(in);
	/* fabric.backward(loss), accelerator.backward(loss), engine.backward(loss) */
	if (f->mode != M_FWD && !strcmp(last, "backward") &&
	    ((nargs >= 1 && is_tensorish(args[0])) || !strcmp(d, "torch.autograd.backward") ||
	     !strcmp(d, "torch.distributed.autograd.backward"))) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, afmt(in, "%s(loss)", text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)), site);
		return v_none(in->a);
	}
	if (f->mode != M_FWD && nargs >= 1 && !strcmp(last, "setup_optimizers"))
		return args[0];
	/* fabric.setup(model, opt), accelerator.prepare(model, opt, loader):
	 * framework wrappers hand back what they were given */
	if (f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	    (!strcmp(last, "setup") || !strcmp(last, "setup_module") || !strcmp(last, "prepare") ||
	     !strcmp(last, "prepare_model") || !strcmp(last, "wrap"))) {
		value_t *t;

		if (nargs == 1)
			return args[0];
		t = v_seq(in->a, VK_TUPLE, nargs);
		for (i = 0; i < nargs; i++)
			vseq_push(in->a, t->u.seq, args[i]);
		return t;
	}
	if (f->mode != M_FWD && (!strcmp(last, "CLI") || !strcmp(d, "fire.Fire") || !strcmp(d, "typer.run") ||
	                         !strcmp(d, "jsonargparse.auto_cli") || !strcmp(d, "hydra.main"))) {
		/* a command-line dispatcher: it calls the function it is given
		 * with the job's arguments -- here, the function's defaults */
		for (i = 0; i < nargs; i++) {
			if (args[i]->k == VK_FUNC)
				return call(f, args[i], NULL, 0, NULL, site);
			/* {"pretrain": fn, ...}: the subcommand is the job's first argument */
			if (args[i]->k == VK_DICT && in->argv && in->argv->u.seq->n) {
				value_t *fn2 = vdict_get(args[i]->u.dict, in->argv->u.seq->items[0]);

				if (fn2 && (fn2->k == VK_FUNC || fn2->k == VK_BOUND))
					return call(f, fn2, NULL, 0, NULL, site);
			}
		}
	}
	if (!strcmp(d, "functools.partial") && nargs >= 1) {
		struct vinst *p = new_inst(in);
		value_t *pa = v_seq(in->a, VK_LIST, 0), *pk = v_dict(in->a);

		p->ext = "functools.partial";
		for (i = 1; i < nargs; i++)
			vseq_push(in->a, pa->u.seq, args[i]);
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, pk->u.dict, kw->keys[i], kw->vals[i]);
		vdict_sets(in->a, p->attrs, "func", args[0]);
		vdict_sets(in->a, p->attrs, "args", pa);
		vdict_sets(in->a, p->attrs, "keywords", pk);
		return mk_inst_value(in, p);
	}
	if (!strcmp(d, "ast.literal_eval") && nargs == 1 && args[0]->k == VK_STR)
		return literal_eval(f, args[0]->u.str.s, site);
	if (!strcmp(d, "os.path.dirname") || !strcmp(d, "os.path.basename")) {
		if (nargs == 1 && args[0]->k == VK_STR) {
			const char *p = args[0]->u.str.s, *sl = strrchr(p, '/');

			if (!strcmp(d, "os.path.dirname"))
				return sl ? v_strn(in->a, p, (size_t)(sl - p)) : v_str(in->a, "");
			return v_str(in->a, sl ? sl + 1 : p);
		}
		return unknown_at(f, site, "a path not known");
	}
	if ((!strcmp(d, "os.path.abspath") || !strcmp(d, "os.path.realpath") || !strcmp(d, "os.path.expanduser") ||
	     !strcmp(d, "os.path.normpath")) && nargs == 1 && args[0]->k == VK_STR)
		return args[0];
	if (!strcmp(d, "json.load") || !strcmp(d, "json.loads") || !strcmp(d, "tomllib.load") ||
	    !strcmp(d, "tomllib.loads") || !strcmp(d, "toml.load") || !strcmp(d, "tomli.load") ||
	    !strcmp(d, "yaml.safe_load") || !strcmp(d, "yaml.load") || !strcmp(d, "yaml.full_load") ||
	    !strcmp(d, "omegaconf.OmegaConf.load"))
		return load_config(f, d, nargs ? args[0] : NULL, site);
	if (!strcmp(d, "copy.deepcopy") && nargs == 1)
		return deepcopy_value(in, args[0], 0);
	if (!strncmp(d, "math.", 5))
		return math_call(f, d + 5, args, nargs, site);
	if ((!strcmp(d, "collections.OrderedDict") || !strcmp(d, "OrderedDict"))) {
		value_t *r = v_dict(in->a);
		struct vseq *items = NULL;

		if (nargs == 1 && args[0]->k == VK_DICT)
			return args[0];
		if (nargs == 1 && iter_items(f, args[0], &items) == NULL && items) {
			for (i = 0; i < items->n; i++) {
				value_t *p = items->items[i];

				if ((p->k == VK_TUPLE || p->k == VK_LIST) && p->u.seq->n == 2)
					vdict_set(in->a, r->u.dict, p->u.seq->items[0], p->u.seq->items[1]);
			}
		}
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	if (!strcmp(d, "os.path.join")) {
		buf_t b;
		value_t *r;

		for (i = 0; i < nargs; i++)
			if (args[i]->k != VK_STR)
				return unknown_at(f, site, "a path built from values that are not known");
		buf_init(&b);
		for (i = 0; i < nargs; i++) {
			if (args[i]->u.str.s[0] == '/')
				buf_reset(&b);
			else if (b.len && b.buf[b.len - 1] != '/')
				buf_addch(&b, '/');
			buf_addstr(&b, args[i]->u.str.s);
		}
		r = v_str(in->a, b.buf);
		buf_free(&b);
		return r;
	}
	/* torch.nn classes: modules */
	if (!strncmp(d, "torch.nn.", 9) && strchr(d + 9, '.') == NULL && d[9] >= 'A' && d[9] <= 'Z') {
		if (!strcmp(d, "torch.nn.Parameter")) {
			value_t *p = v_tensor(in->a);

			p->shape = nargs >= 1 ? shape_of(args[0]) : kw ? shape_of(vdict_gets(kw, "data")) : NULL;
			p->is_param = 1;
			return p;
		}
		return mk_inst_value(in, new_torch_module(f, d, args, nargs, kw, site));
	}
	/* ops */
	if (!strncmp(d, "torch.", 6))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	/* a module class of a third-party library: an external module */
	if (ext_is_module_class(d)) {
		struct vinst *m = new_inst(in);
		size_t k;

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->cond = f->cond;
		m->args = vdict_new(in->a);
		for (k = 0; k < nargs; k++)
			vdict_sets(in->a, m->args, afmt(in, "arg%zu", k), args[k]);
		if (kw)
			for (k = 0; k < kw->n; k++)
				if (kw->keys[k]->k == VK_STR)
					vdict_set(in->a, m->args, kw->keys[k], kw->vals[k]);
		return mk_inst_value(in, m);
	}
	/* a third-party model class, e.g. torchvision.models.resnet50() */
	if (f->mode != M_FWD && (strstr(d, ".models.") || !strncmp(d, "timm.", 5) ||
	                         !strncmp(d, "transformers.", 13)) &&
	    (last[0] >= 'a' && last[0] <= 'z' ? strstr(d, ".models.") != NULL : 1) &&
	    strcmp(last, "create_model") && strcmp(last, "from_pretrained")) {
		struct vinst *m = new_inst(in);

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->args = vdict_new(in->a);
		return mk_inst_value(in, m);
	}
	if (f->mode == M_FWD && any_tensor) {
		emit_op(f, d, site);
		return v_tensor(in->a);
	}
	if (f->mode != M_FWD && last[0] >= 'A' && last[0] <= 'Z') {
		/* an object of a class outside the repository (a web app, a
		 * tokenizer, a logger): its type is known, nothing else */
		struct vinst *o = new_inst(in);
		value_t *ls = kw ? vdict_gets(kw, "lifespan") : NULL;

		if (ls && ls->k == VK_FUNC && in->nstartup < 16)
			in->startup[in->nstartup++] = ls;

		o->ext = d;
		return mk_inst_value(in, o);
	}
	(void)kw;
	return unknown_at(f, site, afmt(in, "the result of %s, which is outside the repository", d));
}

value_t *call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (!budget(f))
		return unknown_at(f, site, "the analysis step budget ran out");
	if (f->mode != M_FWD)
		ema_call(f, fn, site);
	switch (fn->k) {
	case VK_FUNC:
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub;
			value_t *r;

			if (!e)
				return call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, f->ev, site);
			e->func = fn->u.fn->qualname;
			e->func_anchor = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
			                      fn->u.fn->def->line);
			sub = ast_arena_alloc(in->a, sizeof *sub);
			{
				size_t idx = (size_t)(e - f->ev->ev);

				r = call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, sub, site);
				e = &f->ev->ev[idx];   /* the event array may have moved */
			}
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		return call_function(f, fn->u.fn, NULL, args, nargs, kw, f->mode, NULL, site);
	case VK_BOUND: {
		value_t *self = fn->u.bound.self;
		struct vfunc *vf = fn->u.bound.fn->u.fn;

		if (self->k == VK_INST && self->u.inst->mod != VM_NONE && AST_IS(vf->def, FunctionDef) &&
		    !strcmp(AST_AS(vf->def, FunctionDef)->name, "forward")) {
			value_t *mv = mk_inst_value(in, self->u.inst);

			return call(f, mv, args, nargs, kw, site);
		}
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub = ast_arena_alloc(in->a, sizeof *sub);
			size_t idx;
			value_t *r;

			if (!e)
				return call_function(f, vf, self, args, nargs, kw, M_FWD, f->ev, site);
			e->func = vf->qualname;
			e->func_anchor = aanchor(in, vf->file->path, vf->qualname, vf->def->line);
			idx = (size_t)(e - f->ev->ev);
			r = call_function(f, vf, self, args, nargs, kw, M_FWD, sub, site);
			e = &f->ev->ev[idx];
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		return call_function(f, vf, self, args, nargs, kw, f->mode, NULL, site);
	}
	case VK_CLASS:
		return instantiate(f, fn->u.cls, args, nargs, kw, site);
	case VK_INST: {
		struct vinst *m = fn->u.inst;

		if (m->mod == VM_NONE && m->ext && !strcmp(m->ext, "functools.partial")) {
			value_t *pf = vdict_gets(m->attrs, "func"), *pa = vdict_gets(m->attrs, "args");
			value_t *pk = vdict_gets(m->attrs, "keywords");
			size_t np = pa ? pa->u.seq->n : 0;
			value_t **all = xmalloc((np + nargs + 1) * sizeof *all);
			struct vdict *mk = vdict_new(in->a);
			value_t *r;

			for (i = 0; i < np; i++)
				all[i] = pa->u.seq->items[i];
			for (i = 0; i < nargs; i++)
				all[np + i] = args[i];
			for (i = 0; pk && i < pk->u.dict->n; i++)
				vdict_set(in->a, mk, pk->u.dict->keys[i], pk->u.dict->vals[i]);
			for (i = 0; kw && i < kw->n; i++)
				vdict_set(in->a, mk, kw->keys[i], kw->vals[i]);
			r = pf ? call(f, pf, all, np + nargs, mk, site) : unknown_at(f, site, "a partial of nothing");
			free(all);
			return r;
		}
		if (m->mod == VM_NONE) {
			value_t *c = m->cls ? class_lookup(m->cls, "__call__", NULL) : NULL;

			if (c && c->k == VK_FUNC)
				return call_function(f, c->u.fn, fn, args, nargs, kw, f->mode, f->ev, site);
			return unknown_at(f, site, "a call of an object that is not a module");
		}
		if (f->mode == M_FWD)
			return call_module_fwd(f, m, args, nargs, kw, site);
		/* job code calling a model: a root call.  A torch.nn built-in
		 * called from job code is the model when it has parameters and
		 * is not a loss (`model = nn.Linear(20, 1)`; not `criterion`,
		 * not an nn.Softmax) */
		if (m->mod != VM_LAYER ||
		    (m->ext && !strstr(m->ext, "Loss") && cg_param_count(in->cat, m) != 0)) {
			struct root_call *rc;

			xgrow((void **)&in->roots, &in->aroots, in->nroots + 1, sizeof *in->roots);
			rc = &in->roots[in->nroots++];
			memset(rc, 0, sizeof *rc);
			rc->inst = m;
			rc->anchor = anchor_at(f, site);
			if (site && AST_IS(site, Call)) {
				const struct ast_hdr *fe = AST_AS(site, Call)->func;

				if (AST_IS(fe, Name))
					rc->binding = astr(in, AST_AS(fe, Name)->id);
				else if (AST_IS(fe, Attribute))
					rc->binding = astr(in, AST_AS(fe, Attribute)->attr);
			}
			rc->nargs = nargs;
			rc->args = ast_arena_alloc(in->a, (nargs + 1) * sizeof *rc->args);
			for (i = 0; i < nargs; i++)
				rc->args[i] = args[i];
			rc->kwargs = kw;
			rc->loop_anchor = f->loop_anchor;
			rc->no_grad = f->no_grad;
			rc->handler = f->handler;
			rc->function_anchor = f->qualname && f->def_line
			                      ? aanchor(in, f->file->path, f->qualname, f->def_line) : NULL;
			rc->ctx = f->jc;
			in->job_events++;
			{
				struct sched_ev *e = sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);

				if (e)
					e->model = m;
			}
		}
		{
			int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;

			/* a loss or other layer called from job code: where its input is */
			if (m->mod == VM_LAYER)
				for (i = 0, dev = DEV_UNKNOWN; i < nargs; i++)
					if (is_tensorish(args[i]) && args[i]->dev > dev)
						dev = args[i]->dev;
			return v_tensor_dev(in->a, dev, 0);
		}
	}
	case VK_EXT:
		return call_ext(f, fn, args, nargs, kw, site);
	case VK_BUILTIN:
		return call_builtin(f, fn, args, nargs, kw, site);
	default:
		break;
	}
	if (f->mode == M_FWD)
		for (i = 0; i < nargs; i++)
			if (is_tensorish(args[i]))
				return v_tensor(in->a);
	return unknown_at(f, site, fn->k == VK_UNKNOWN && fn->reason ? fn->reason : "a call ecg cannot follow");
}

static value_t *bound(struct interp *in, value_t *fnv, value_t *self)
{
	value_t *b = ast_arena_alloc(in->a, sizeof *b);

	b->k = VK_BOUND;
	b->u.bound.fn = fnv;
	b->u.bound.self = self;
	return b;
}

static value_t *module_method(struct interp *in, value_t *obj, const char *name)
{
	static const struct { const char *n; int id; } mm[] = {
		{ "add_module", BI_M_MOD_ADD_MODULE }, { "register_module", BI_M_MOD_ADD_MODULE },
		{ "append", BI_M_MOD_APPEND }, { "extend", BI_M_MOD_EXTEND }, { "insert", BI_M_MOD_INSERT },
		{ "to", BI_M_MOD_TO }, { "cuda", BI_M_MOD_TO }, { "cpu", BI_M_MOD_SELF },
		{ "train", BI_M_MOD_SELF }, { "eval", BI_M_MOD_SELF }, { "half", BI_M_MOD_SELF },
		{ "float", BI_M_MOD_SELF }, { "bfloat16", BI_M_MOD_SELF }, { "double", BI_M_MOD_SELF },
		{ "requires_grad_", BI_M_MOD_SELF }, { "apply", BI_M_MOD_SELF }, { "share_memory", BI_M_MOD_SELF },
		{ "to_empty", BI_M_MOD_SELF },
		{ "register_buffer", BI_M_MOD_REGISTER_BUFFER },
		{ "register_parameter", BI_M_MOD_REGISTER_PARAMETER },
		{ "children", BI_M_MOD_CHILDREN }, { "modules", BI_M_MOD_CHILDREN },
		{ "named_modules", BI_M_MOD_CHILDREN }, { "named_children", BI_M_MOD_CHILDREN },
	};
	size_t i;

	for (i = 0; i < sizeof mm / sizeof mm[0]; i++)
		if (!strcmp(mm[i].n, name))
			return mk_builtin(in, mm[i].id, obj);
	return NULL;
}

value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;
	struct vclass *owner = NULL;

	switch (obj->k) {
	case VK_NS:
		v = ns_attr(f, obj->u.ns, name);
		if (v)
			return v;
		return unknown_at(f, site, afmt(in, "'%s' is not defined in %s", name,
		                                 obj->u.ns->file ? obj->u.ns->file->path : "that package"));
	case VK_EXT:
		if (!strcmp(obj->u.ext, "sys") && !strcmp(name, "argv")) {
			value_t *r = v_seq(in->a, VK_LIST, 0);
			size_t i;

			vseq_push(in->a, r->u.seq, v_str(in->a, in->entry_path ? in->entry_path : "main.py"));
			if (in->argv) {
				for (i = 0; i < in->argv->u.seq->n; i++)
					vseq_push(in->a, r->u.seq, in->argv->u.seq->items[i]);
			}
			return r;
		}
		if (!strcmp(obj->u.ext, "os") && !strcmp(name, "environ")) {
			struct vinst *env = new_inst(in);

			env->ext = "os.environ";
			return mk_inst_value(in, env);
		}
		return v_ext(in->a, canon_ext(in, adot(in, obj->u.ext, name)));
	case VK_TENSOR:
		if ((!strcmp(name, "shape") || !strcmp(name, "ndim")) && (v = size_read(f, obj, name, NULL, site)))
			return v;
		if (is_tensor_prop(name))
			return unknown_at(f, site, "a tensor attribute read at run time");
		if (!strcmp(name, "T") || !strcmp(name, "mT") || !strcmp(name, "H")) {
			const struct vshape *s = shape_of(obj);

			emit_op(f, adot(in, "Tensor", name), site);
			v = v_tensor(in->a);
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
		v = v_ext(in->a, adot(in, "Tensor", name));
		v->recv = obj;
		return v;
	case VK_FUNC:
		if (!strcmp(name, "__name__")) {
			const char *q = obj->u.fn->qualname, *dot = q ? strrchr(q, '.') : NULL;

			return v_str(in->a, dot ? dot + 1 : q ? q : "<lambda>");
		}
		if (!strcmp(name, "__qualname__"))
			return v_str(in->a, obj->u.fn->qualname ? obj->u.fn->qualname : "<lambda>");
		if (!strcmp(name, "__module__"))
			return v_str(in->a, obj->u.fn->file->modname);
		break;
	case VK_CLASS:
		if (!strcmp(name, "apply") && class_ext_base(obj->u.cls) &&
		    !strcmp(class_ext_base(obj->u.cls), "torch.autograd.Function"))
			return mk_builtin(in, BI_FN_APPLY, obj);
		if (!strcmp(name, "__name__"))
			return v_str(in->a, obj->u.cls->name);
		if (!strcmp(name, "__qualname__"))
			return v_str(in->a, obj->u.cls->qualname);
		if (!strcmp(name, "__module__"))
			return v_str(in->a, obj->u.cls->file->modname);
		v = class_lookup(obj->u.cls, name, &owner);
		if (v) {
			if (v->k == VK_FUNC && v->u.fn->is_classmethod)
				return bound(in, v, obj);
			return v;
		}
		if (obj->u.cls->ext_base)
			return v_ext(in->a, adot(in, class_ext_base(obj->u.cls), name));
		return unknown_at(f, site, afmt(in, "class %s has no attribute '%s' in the repository",
		                                 obj->u.cls->name, name));
	case VK_INST: {
		struct vinst *m = obj->u.inst;
		struct vinst *c;

		if (m->nwrapped && (!strcmp(name, "module") || !strcmp(name, "_orig_mod")))
			return mk_inst_value(in, m);
		if ((c = vinst_child(m, name)))
			return mk_inst_value(in, c);
		if ((v = vdict_gets(m->attrs, name)))
			return v;
		if (m->cls && (v = class_lookup(m->cls, name, &owner))) {
			if (v->k == VK_FUNC && !v->u.fn->is_static) {
				if (v->u.fn->is_property)
					return call_function(f, v->u.fn, obj, NULL, 0, NULL, f->mode, f->ev, site);
				return bound(in, v, v->u.fn->is_classmethod ? mk_inst_value(in, m) : obj);
			}
			return v;
		}
		if (is_argparser(obj)) {
			if (!strcmp(name, "add_argument"))
				return mk_builtin(in, BI_M_ARGP_ADD, obj);
			if (!strcmp(name, "parse_args") || !strcmp(name, "parse_known_args"))
				return mk_builtin(in, BI_M_ARGP_PARSE, obj);
			if (!strcmp(name, "add_argument_group") || !strcmp(name, "add_mutually_exclusive_group"))
				return mk_builtin(in, BI_M_ARGP_GROUP, obj);
			if (!strcmp(name, "set_defaults"))
				return mk_builtin(in, BI_M_ARGP_SETDEF, obj);
		}
		if (m->ext && !strncmp(m->ext, "torch.optim.", 12) && (!strcmp(name, "step") || !strcmp(name, "zero_grad"))) {
			if (f->mode != M_FWD) {
				if (!strcmp(name, "step") && !in->ev.optimizer_step)
					in->ev.optimizer_step = anchor_at(f, site);
				sev(f, !strcmp(name, "step") ? SEV_OPT_STEP : SEV_ZERO_GRAD,
				    !strcmp(name, "step") ? "optimizer.step()" : "optimizer.zero_grad()", site);
			}
			return mk_builtin(in, !strcmp(name, "step") ? BI_OPT_STEP : BI_PRINT, NULL);
		}
		if (m->ext && !strcmp(m->ext, "io.TextIOWrapper") && !strcmp(name, "read"))
			return mk_builtin(in, BI_M_FILE_READ, obj);
		if (m->ext && !strcmp(m->ext, "os.environ") && (!strcmp(name, "get") || !strcmp(name, "setdefault")))
			return mk_builtin(in, BI_M_DICT_GET, obj);
		if (m->mod != VM_NONE) {
			if ((v = module_method(in, obj, name)))
				return v;
			if (!strcmp(name, "forward"))
				return obj;
			if (!strcmp(name, "weight") || !strcmp(name, "bias"))
				return v_tensor(in->a);
		}
		if (m->ext && m->mod == VM_NONE && strcmp(m->ext, "argparse.Namespace") && strcmp(m->ext, "os.environ") &&
		    strcmp(m->ext, "io.TextIOWrapper")) {
			/* a method of an object of an outside class: its dotted name
			 * (GradScaler.scale, an app's method), called through call_ext */
			v = v_ext(in->a, adot(in, m->ext, name));
			v->recv = obj;
			return v;
		}
		if (m->ext && m->mod == VM_NONE)
			return unknown_at(f, site, afmt(in, "an attribute of a %s", m->ext));
		return unknown_at(f, site, afmt(in, "'%s' is not set on this object", name));
	}
	case VK_LIST:
		if (!strcmp(name, "append")) return mk_builtin(in, BI_M_LIST_APPEND, obj);
		if (!strcmp(name, "extend")) return mk_builtin(in, BI_M_LIST_EXTEND, obj);
		if (!strcmp(name, "insert")) return mk_builtin(in, BI_M_LIST_INSERT, obj);
		if (!strcmp(name, "pop")) return mk_builtin(in, BI_M_LIST_POP, obj);
		if (!strcmp(name, "copy")) return mk_builtin(in, BI_M_COPY, obj);
		break;
	case VK_DICT:
		if (!strcmp(name, "get")) return mk_builtin(in, BI_M_DICT_GET, obj);
		if (!strcmp(name, "items")) return mk_builtin(in, BI_M_DICT_ITEMS, obj);
		if (!strcmp(name, "keys")) return mk_builtin(in, BI_M_DICT_KEYS, obj);
		if (!strcmp(name, "values")) return mk_builtin(in, BI_M_DICT_VALUES, obj);
		if (!strcmp(name, "update")) return mk_builtin(in, BI_M_DICT_UPDATE, obj);
		if (!strcmp(name, "pop")) return mk_builtin(in, BI_M_DICT_POP, obj);
		if (!strcmp(name, "setdefault")) return mk_builtin(in, BI_M_DICT_SETDEFAULT, obj);
		if (!strcmp(name, "copy")) return mk_builtin(in, BI_M_COPY, obj);
		/* attribute-style config dicts (EasyDict, OmegaConf) */
		if ((v = vdict_gets(obj->u.dict, name)))
			return v;
		break;
	case VK_STR:
		if (!strcmp(name, "format")) return mk_builtin(in, BI_M_STR_FORMAT, obj);
		if (!strcmp(name, "join")) return mk_builtin(in, BI_M_STR_JOIN, obj);
		if (!strcmp(name, "split")) return mk_builtin(in, BI_M_STR_SPLIT, obj);
		if (!strcmp(name, "lower")) return mk_builtin(in, BI_M_STR_LOWER, obj);
		if (!strcmp(name, "upper")) return mk_builtin(in, BI_M_STR_UPPER, obj);
		if (!strcmp(name, "startswith")) return mk_builtin(in, BI_M_STR_STARTSWITH, obj);
		if (!strcmp(name, "endswith")) return mk_builtin(in, BI_M_STR_ENDSWITH, obj);
		if (!strcmp(name, "replace")) return mk_builtin(in, BI_M_STR_REPLACE, obj);
		if (!strcmp(name, "strip") || !strcmp(name, "lstrip") || !strcmp(name, "rstrip"))
			return mk_builtin(in, BI_M_STR_STRIP, obj);
		if (!strcmp(name, "partition")) return mk_builtin(in, BI_M_STR_PARTITION, obj);
		break;
	case VK_BUILTIN:
		if (obj->u.bi.id == BI_SUPER) {
			value_t *self = obj->u.bi.self;
			struct vclass *after = (struct vclass *)obj->expr;
			struct vclass *cls = self->k == VK_INST ? self->u.inst->cls : NULL;
			size_t i;
			int past = 0;

			if (cls) {
				for (i = 0; i < cls->nmro; i++) {
					if (past && (v = vdict_gets(cls->mro[i]->ns, name))) {
						if (v->k == VK_FUNC)
							return bound(in, v, self);
						return v;
					}
					if (cls->mro[i] == after)
						past = 1;
				}
			}
			/* the next class is torch's (or third-party): nothing to read */
			if (!strcmp(name, "__init__"))
				return mk_builtin(in, BI_PRINT, NULL);
			if (self->k == VK_INST && (v = module_method(in, self, name)))
				return v;
			return unknown_at(f, site, "a method of a base class outside the repository");
		}
		break;
	case VK_UNKNOWN:
		if (!strcmp(name, "backward") && f->mode != M_FWD) {
			/* losses[i].backward(): the name says what it is */
			v = v_ext(in->a, "Tensor.backward");
			v->recv = v_tensor(in->a);
			return v;
		}
		break;
	default:
		break;
	}
	return unknown_at(f, site, obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an attribute ecg cannot follow");
}

/* ------------------------------------------------------------------ expressions */

static const char *binop_dunder(enum ast_operator op)
{
	switch (op) {
	case AST_OP_ADD: return "add";
	case AST_OP_SUB: return "sub";
	case AST_OP_MULT: return "mul";
	case AST_OP_MATMULT: return "matmul";
	case AST_OP_DIV: return "truediv";
	case AST_OP_MOD: return "mod";
	case AST_OP_POW: return "pow";
	case AST_OP_LSHIFT: return "lshift";
	case AST_OP_RSHIFT: return "rshift";
	case AST_OP_BITOR: return "or";
	case AST_OP_BITXOR: return "xor";
	case AST_OP_BITAND: return "and";
	case AST_OP_FLOORDIV: return "floordiv";
	}
	return "op";
}

static value_t *num_binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x, y;
	int li = l->k == VK_INT || l->k == VK_BOOL, ri = r->k == VK_INT || r->k == VK_BOOL;

	if (li && ri) {
		long long a = l->k == VK_INT ? l->u.i : l->u.b, b = r->k == VK_INT ? r->u.i : r->u.b, res;

		switch (op) {
		case AST_OP_ADD: if (__builtin_add_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_SUB: if (__builtin_sub_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_MULT: if (__builtin_mul_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_FLOORDIV:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a / b;
			if ((a % b != 0) && ((a < 0) != (b < 0)))
				res--;
			return v_int(in->a, res);
		case AST_OP_MOD:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a % b;
			if (res != 0 && ((res < 0) != (b < 0)))
				res += b;
			return v_int(in->a, res);
		case AST_OP_POW:
			if (b >= 0 && b < 64) {
				long long p = 1;
				int k, of = 0;

				for (k = 0; k < b && !of; k++)
					of = __builtin_mul_overflow(p, a, &p);
				if (!of)
					return v_int(in->a, p);
			}
			break;
		case AST_OP_DIV:
			if (b != 0)
				return v_float(in->a, (double)a / (double)b);
			break;
		case AST_OP_LSHIFT: if (b >= 0 && b < 62 && a >= 0 && a < (1LL << (62 - b))) return v_int(in->a, a << b); break;
		case AST_OP_RSHIFT: if (b >= 0 && b < 64) return v_int(in->a, a >> b); break;
		case AST_OP_BITOR: return v_int(in->a, a | b);
		case AST_OP_BITAND: return v_int(in->a, a & b);
		case AST_OP_BITXOR: return v_int(in->a, a ^ b);
		default: break;
		}
		return unknown_at(f, site, "an integer operation ecg does not compute (overflow or division by zero)");
	}
	if (as_num(l, &x) && as_num(r, &y)) {
		switch (op) {
		case AST_OP_ADD: return v_float(in->a, x + y);
		case AST_OP_SUB: return v_float(in->a, x - y);
		case AST_OP_MULT: return v_float(in->a, x * y);
		case AST_OP_DIV: if (y != 0) return v_float(in->a, x / y); break;
		case AST_OP_POW: return v_float(in->a, pow(x, y));
		case AST_OP_FLOORDIV: if (y != 0) return v_float(in->a, floor(x / y)); break;
		default: break;
		}
	}
	return unknown_at(f, site, "an arithmetic result ecg does not compute");
}

static value_t *binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
                      const struct ast_hdr *site, int inplace)
{
	struct interp *in = f->in;
	size_t i;

	if (is_tensorish(l) || is_tensorish(r) ||
	    (f->mode == M_FWD && ((l->k == VK_UNKNOWN && is_tensorish(r)) || (r->k == VK_UNKNOWN && is_tensorish(l))))) {
		int dev = DEV_UNKNOWN;
		size_t mark = ev_mark(f);

		if (f->mode == M_FWD) {
			if (is_tensorish(l) || l->k == VK_UNKNOWN)
				emit_op(f, afmt(in, "Tensor.__%s%s__", inplace ? "i" : "", binop_dunder(op)), site);
			else
				emit_op(f, afmt(in, "Tensor.__r%s__", binop_dunder(op)), site);
		}
		if (is_tensorish(l))
			dev = l->dev;
		if (is_tensorish(r) && r->dev > dev)
			dev = r->dev;
		{
			value_t *t = v_tensor_dev(in->a, dev, 0);

			t->shape = op == AST_OP_MATMULT ? shape_of_call(in->a, "Tensor.__matmul__", (value_t *[]){ l, r }, 2, NULL)
			                                : shape_binop(in->a, l, r);
			/* a reflected operator (2 * x) takes x first */
			op_io(f, mark, is_tensorish(l) || l->k == VK_UNKNOWN ? (value_t *[]){ l, r } : (value_t *[]){ r, l }, 2,
			      NULL, t);
			return t;
		}
	}
	if (l->k == VK_STR && r->k == VK_STR && op == AST_OP_ADD) {
		buf_t b;
		value_t *v;

		buf_init(&b);
		buf_add(&b, l->u.str.s, l->u.str.len);
		buf_add(&b, r->u.str.s, r->u.str.len);
		v = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && l->k == r->k && op == AST_OP_ADD) {
		value_t *v = seq_from(in, l->k, l->u.seq);

		for (i = 0; i < r->u.seq->n; i++)
			vseq_push(in->a, v->u.seq, r->u.seq->items[i]);
		if (l->u.seq->unk_reason || r->u.seq->unk_reason) {
			v->u.seq->unk_expr = l->u.seq->unk_reason ? l->u.seq->unk_expr : r->u.seq->unk_expr;
			v->u.seq->unk_reason = l->u.seq->unk_reason ? l->u.seq->unk_reason : r->u.seq->unk_reason;
		}
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && r->k == VK_INT && op == AST_OP_MULT &&
	    r->u.i >= 0 && (size_t)r->u.i * l->u.seq->n <= MAX_UNROLL) {
		value_t *v = v_seq(in->a, l->k, 0);
		long long k;

		for (k = 0; k < r->u.i; k++)
			for (i = 0; i < l->u.seq->n; i++)
				vseq_push(in->a, v->u.seq, l->u.seq->items[i]);
		return v;
	}
	if (l->k == VK_DICT && r->k == VK_DICT && op == AST_OP_BITOR) {
		value_t *v = v_dict(in->a);

		for (i = 0; i < l->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, l->u.dict->keys[i], l->u.dict->vals[i]);
		for (i = 0; i < r->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, r->u.dict->keys[i], r->u.dict->vals[i]);
		return v;
	}
	if (value_is_known_scalar(l) && value_is_known_scalar(r) && l->k != VK_STR && r->k != VK_STR &&
	    l->k != VK_NONE && r->k != VK_NONE)
		return num_binop(f, op, l, r, site);
	/* 0 + T, T * 1: still the size T */
	if (op == AST_OP_ADD && l->k == VK_INT && l->u.i == 0 && r->k == VK_UNKNOWN && r->reason == shape_dim_reason)
		return r;
	if ((op == AST_OP_ADD || op == AST_OP_SUB) && r->k == VK_INT && r->u.i == 0 && l->k == VK_UNKNOWN &&
	    l->reason == shape_dim_reason)
		return l;
	if (l->k == VK_STR && op == AST_OP_MOD)
		return unknown_at(f, site, "string formatting is not followed");
	if (f->mode == M_FWD && l->k == VK_UNKNOWN && r->k == VK_UNKNOWN)
		return unknown_at(f, site, "an operation on values not known");
	return unknown_at(f, site, l->k == VK_UNKNOWN && l->reason ? l->reason
	                           : r->k == VK_UNKNOWN && r->reason ? r->reason : "an operation on values not known");
}

static int compare_known(enum ast_cmpop op, value_t *l, value_t *r)
{
	double x, y;

	switch (op) {
	case AST_CMP_IS:
		if (l->k == VK_NONE || r->k == VK_NONE)
			return l->k == r->k;
		if (l->k == VK_BOOL && r->k == VK_BOOL)
			return l->u.b == r->u.b;
		if (l->k == VK_INST && r->k == VK_INST)
			return l->u.inst == r->u.inst;
		return -1;
	case AST_CMP_ISNOT: {
		int t = compare_known(AST_CMP_IS, l, r);

		return t < 0 ? -1 : !t;
	}
	case AST_CMP_EQ: case AST_CMP_NOTEQ: {
		int eq;

		if (!value_is_known_scalar(l) || !value_is_known_scalar(r)) {
			if ((l->k == VK_TUPLE || l->k == VK_LIST) && l->k == r->k)
				eq = value_key_eq(l, r);
			else
				return -1;
		} else if (as_num(l, &x) && as_num(r, &y)) {
			eq = x == y;
		} else {
			eq = value_key_eq(l, r);
		}
		return op == AST_CMP_EQ ? eq : !eq;
	}
	case AST_CMP_LT: case AST_CMP_LTE: case AST_CMP_GT: case AST_CMP_GTE:
		if (!as_num(l, &x) || !as_num(r, &y))
			return -1;
		return op == AST_CMP_LT ? x < y : op == AST_CMP_LTE ? x <= y : op == AST_CMP_GT ? x > y : x >= y;
	case AST_CMP_IN: case AST_CMP_NOTIN: {
		size_t i;
		int found = 0, unk = 0;

		if (r->k == VK_DICT) {
			found = vdict_get(r->u.dict, l) != NULL;
		} else if ((r->k == VK_LIST || r->k == VK_TUPLE) && !r->u.seq->unk_reason) {
			for (i = 0; i < r->u.seq->n; i++) {
				if (value_is_known_scalar(r->u.seq->items[i]) && value_is_known_scalar(l)) {
					if (value_key_eq(r->u.seq->items[i], l))
						found = 1;
				} else {
					unk = 1;
				}
			}
			if (!found && unk)
				return -1;
		} else if (r->k == VK_STR && l->k == VK_STR) {
			found = strstr(r->u.str.s, l->u.str.s) != NULL;
		} else {
			return -1;
		}
		if (!value_is_known_scalar(l) && r->k != VK_DICT)
			return -1;
		return op == AST_CMP_IN ? found : !found;
	}
	}
	return -1;
}

static const char *cmp_dunder(enum ast_cmpop op)
{
	switch (op) {
	case AST_CMP_EQ: return "eq";
	case AST_CMP_NOTEQ: return "ne";
	case AST_CMP_LT: return "lt";
	case AST_CMP_LTE: return "le";
	case AST_CMP_GT: return "gt";
	case AST_CMP_GTE: return "ge";
	default: return NULL;
	}
}

static value_t *eval_compare(struct frame *f, const struct ast_Compare *c)
{
	struct interp *in = f->in;
	value_t *l = eval(f, c->left);
	int result = 1;
	unsigned i;

	for (i = 0; i < c->ops.n && i < c->comparators.n; i++) {
		value_t *r = eval(f, c->comparators.items[i]);
		enum ast_cmpop op = c->ops.items[i];
		int t;

		if ((is_tensorish(l) || is_tensorish(r)) && cmp_dunder(op)) {
			int dev = is_tensorish(l) ? l->dev : DEV_UNKNOWN;
			size_t mark = ev_mark(f);

			if (is_tensorish(r) && r->dev > dev)
				dev = r->dev;
			emit_op(f, afmt(in, "Tensor.__%s__", cmp_dunder(op)), &c->h);
			{
				value_t *t2 = v_tensor_dev(in->a, dev, 0);

				t2->shape = shape_binop(in->a, l, r);
				t2->dt = DT_BOOL;
				op_io(f, mark, (value_t *[]){ l, r }, 2, NULL, t2);
				return t2;
			}
		}
		t = compare_known(op, l, r);
		if (t < 0)
			return unknown_at(f, &c->h, l->k == VK_UNKNOWN && l->reason ? l->reason
			                            : r->k == VK_UNKNOWN && r->reason ? r->reason
			                            : "a comparison of values not known");
		if (!t)
			result = 0;
		l = r;
	}
	return v_bool(in->a, result);
}

/* Evaluate call arguments, expanding *seq and **dict. */
static void eval_args(struct frame *f, const struct ast_Call *c, value_t ***args, size_t *nargs,
                      struct vdict **kw, int *unk_star)
{
	struct interp *in = f->in;
	struct vseq *s = ast_arena_alloc(in->a, sizeof *s);
	unsigned i;

	*kw = NULL;
	*unk_star = 0;
	for (i = 0; i < c->args.n; i++) {
		const struct ast_hdr *a = c->args.items[i];

		if (AST_IS(a, Starred)) {
			value_t *sv = eval(f, AST_AS(a, Starred)->value);
			struct vseq *items = NULL;

			if (!iter_items(f, sv, &items)) {
				size_t k;

				for (k = 0; k < items->n; k++)
					vseq_push(in->a, s, items->items[k]);
			} else if ((sv->k == VK_LIST || sv->k == VK_TUPLE)) {
				size_t k;

				for (k = 0; k < sv->u.seq->n; k++)
					vseq_push(in->a, s, sv->u.seq->items[k]);
				*unk_star = 1;
				vseq_push(in->a, s, v_unknown(in->a, sv->u.seq->unk_expr, sv->u.seq->unk_reason));
			} else {
				*unk_star = 1;
				vseq_push(in->a, s, v_unknown(in->a, text_of(f, a), "*args whose items are not known"));
			}
		} else {
			vseq_push(in->a, s, eval(f, a));
		}
	}
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);
		value_t *v = eval(f, k->value);

		if (!*kw)
			*kw = vdict_new(in->a);
		if (k->arg) {
			vdict_sets(in->a, *kw, k->arg, v);
		} else if (v->k == VK_DICT) {
			size_t j;

			for (j = 0; j < v->u.dict->n; j++)
				vdict_set(in->a, *kw, v->u.dict->keys[j], v->u.dict->vals[j]);
		} else if (v->k == VK_INST && v->u.inst->attrs) {
			/* **vars(cfg) / **cfg.__dict__ style */
			size_t j;

			for (j = 0; j < v->u.inst->attrs->n; j++)
				vdict_set(in->a, *kw, v->u.inst->attrs->keys[j], v->u.inst->attrs->vals[j]);
		} else {
			*unk_star = 1;
		}
	}
	*args = s->items;
	*nargs = s->n;
}

static value_t *eval_call(struct frame *f, const struct ast_Call *c)
{
	value_t *fn = eval(f, c->func);
	value_t **args;
	size_t nargs;
	struct vdict *kw;
	int unk;

	eval_args(f, c, &args, &nargs, &kw, &unk);
	return call(f, fn, args, nargs, kw, &c->h);
}

static value_t *eval_subscript(struct frame *f, const struct ast_Subscript *s)
{
	struct interp *in = f->in;
	value_t *obj = eval(f, s->value);
	value_t *idx = eval(f, s->slice);
	int ok;
	long long i;

	if (is_tensorish(obj)) {
		size_t mark = ev_mark(f);

		emit_op(f, "Tensor.__getitem__", &s->h);
		/* x[mask] sizes its output from the data */
		if (obj->dev == DEV_DEVICE && is_tensorish(idx) && f->mode != M_FWD)
			sev(f, SEV_SYNC, "indexing with a tensor (boolean mask or index array)", &s->h);
		{
			value_t *t = v_tensor_dev(in->a, obj->dev, obj->pinned);

			t->shape = shape_index(in->a, shape_of(obj), idx);
			t->dt = obj->dt;
			op_io(f, mark, (value_t *[]){ obj, idx }, 2, NULL, t);
			return t;
		}
	}
	switch (obj->k) {
	case VK_LIST: case VK_TUPLE:
		i = as_int(idx, &ok);
		if (ok && !obj->u.seq->unk_reason) {
			if (i < 0)
				i += (long long)obj->u.seq->n;
			if (i >= 0 && (size_t)i < obj->u.seq->n)
				return obj->u.seq->items[i];
		}
		if (idx->k == VK_SLICE && !obj->u.seq->unk_reason) {
			long long n = (long long)obj->u.seq->n, lo = 0, hi = n, k;
			int ok1 = 1, ok2 = 1;
			value_t *r;

			if (idx->u.slice.lo->k != VK_NONE)
				lo = as_int(idx->u.slice.lo, &ok1);
			if (idx->u.slice.hi->k != VK_NONE)
				hi = as_int(idx->u.slice.hi, &ok2);
			if (ok1 && ok2 && idx->u.slice.step->k == VK_NONE) {
				if (lo < 0) lo += n;
				if (hi < 0) hi += n;
				if (lo < 0) lo = 0;
				if (hi > n) hi = n;
				r = v_seq(in->a, obj->k, 0);
				for (k = lo; k < hi; k++)
					vseq_push(in->a, r->u.seq, obj->u.seq->items[k]);
				return r;
			}
		}
		break;
	case VK_DICT: {
		value_t *v = vdict_get(obj->u.dict, idx);

		if (v)
			return v;
		if (value_is_known_scalar(idx))
			return unknown_at(f, &s->h, afmt(in, "key %s is not in the mapping",
			                                 value_repr(in->a, idx) ? value_repr(in->a, idx) : "?"));
		break;
	}
	case VK_INST:
		if (obj->u.inst->mod == VM_CONTAINER) {
			struct vinst *m = obj->u.inst;
			struct vinst *c = NULL;

			i = as_int(idx, &ok);
			if (ok && !vdict_gets(m->attrs, "__ecg_len_unknown__")) {
				if (i < 0)
					i += (long long)m->nchildren;
				if (i >= 0 && (size_t)i < m->nchildren)
					c = m->children[i].inst;
			} else if (idx->k == VK_STR) {
				c = vinst_child(m, idx->u.str.s);
			}
			if (c)
				return mk_inst_value(in, c);
		}
		break;
	case VK_EXT:
		/* typing subscripts, torchvision.models.__dict__[name] */
		if (idx->k == VK_STR && !strcmp(short_ext(obj->u.ext), "__dict__")) {
			const char *base = obj->u.ext;
			size_t n = strlen(base) - strlen(".__dict__");

			return v_ext(in->a, afmt(in, "%.*s.%s", (int)n, base, idx->u.str.s));
		}
		return obj;
	case VK_NS:
		break;
	default:
		break;
	}
	return unknown_at(f, &s->h, idx->k == VK_UNKNOWN && idx->reason ? idx->reason
	                            : obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an index ecg cannot follow");
}

/* Comprehensions: unrolled when the iterables are known. */
struct comp_ctx {
	const struct ast_list *gens;
	const struct ast_hdr *elt, *key;
	value_t *out;
	int unknown;
	const char *unk_expr, *unk_reason;
};

static void comp_loop(struct frame *f, struct comp_ctx *cc, unsigned gi)
{
	struct interp *in = f->in;
	const struct ast_comprehension *g;
	value_t *it;
	struct vseq *items = NULL;
	size_t i;
	unsigned k;

	if (gi == cc->gens->n) {
		if (cc->key) {
			value_t *kv = eval(f, cc->key);

			vdict_set(in->a, cc->out->u.dict, kv, eval(f, cc->elt));
		} else {
			vseq_push(in->a, cc->out->u.seq, eval(f, cc->elt));
		}
		return;
	}
	g = AST_AS(cc->gens->items[gi], comprehension);
	it = eval(f, g->iter);
	if (iter_items(f, it, &items)) {
		/* unknown: one representative pass */
		value_t *why = iter_items(f, it, &items);

		cc->unknown = 1;
		cc->unk_expr = text_of(f, g->iter);
		cc->unk_reason = why->reason ? why->reason : "an iterable whose items are not known";
		assign(f, g->target, v_unknown(in->a, text_of(f, g->target), "an item of an iterable not known"));
		comp_loop(f, cc, gi + 1);
		return;
	}
	for (i = 0; i < items->n; i++) {
		int keep = 1;

		if (!budget(f))
			return;
		assign(f, g->target, items->items[i]);
		for (k = 0; k < g->ifs.n; k++) {
			int t = value_truth(eval(f, g->ifs.items[k]));

			if (t == 0)
				keep = 0;
		}
		if (keep)
			comp_loop(f, cc, gi + 1);
	}
}

static value_t *eval_comp(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	struct comp_ctx cc;
	struct frame cf = *f;

	memset(&cc, 0, sizeof cc);
	cf.locals = vdict_new(in->a);
	cf.outer_comp = f;
	cf.closure = NULL;
	switch (e->kind) {
	case AST_ListComp: cc.gens = &AST_AS(e, ListComp)->generators; cc.elt = AST_AS(e, ListComp)->elt; break;
	case AST_SetComp: cc.gens = &AST_AS(e, SetComp)->generators; cc.elt = AST_AS(e, SetComp)->elt; break;
	case AST_GeneratorExp: cc.gens = &AST_AS(e, GeneratorExp)->generators; cc.elt = AST_AS(e, GeneratorExp)->elt; break;
	case AST_DictComp:
		cc.gens = &AST_AS(e, DictComp)->generators;
		cc.elt = AST_AS(e, DictComp)->value;
		cc.key = AST_AS(e, DictComp)->key;
		break;
	default:
		return unknown_at(f, e, "not a comprehension");
	}
	cc.out = cc.key ? v_dict(in->a) : v_seq(in->a, VK_LIST, 0);
	comp_loop(&cf, &cc, 0);
	if (!cc.key && cc.gens->n == 1 && !AST_AS(cc.gens->items[0], comprehension)->ifs.n) {
		/* the length's provenance: range(n) -> n */
		value_t *it = eval(&cf, AST_AS(cc.gens->items[0], comprehension)->iter);

		if (it->k == VK_RANGE) {
			cc.out->u.seq->len_expr = it->expr;
			cc.out->u.seq->len_src = it->src;
			cc.out->u.seq->len_via = it->via;
		}
	}
	if (cc.unknown && !cc.key) {
		cc.out->u.seq->unk_expr = cc.unk_expr;
		cc.out->u.seq->unk_reason = cc.unk_reason;
	}
	return cc.out;
}

/* Formatting an instance of a repo class runs its __format__ / __str__ /
 * __repr__ (a metric whose __format__ reads a device tensor with .item()
 * is a sync in the log line): read it as a call.  `how` is 's', 'r' or 0
 * (format(), an f-string without conversion). */
void format_hook(struct frame *f, value_t *v, int how, const struct ast_hdr *site)
{
	static const char *const names_s[] = { "__str__", "__repr__", NULL };
	static const char *const names_r[] = { "__repr__", NULL };
	static const char *const names_f[] = { "__format__", "__str__", "__repr__", NULL };
	const char *const *names = how == 's' ? names_s : how == 'r' || how == 'a' ? names_r : names_f;
	struct vclass *owner = NULL;
	value_t *m = NULL;
	size_t i;

	if (v->k != VK_INST || !v->u.inst->cls || v->u.inst->mod != VM_NONE)
		return;
	for (i = 0; names[i] && !m; i++) {
		m = class_lookup(v->u.inst->cls, names[i], &owner);
		if (m && m->k != VK_FUNC)
			m = NULL;
		if (m && !strcmp(names[i], "__format__")) {
			value_t *spec = v_str(f->in->a, "");

			(void)call_function(f, m->u.fn, v, &spec, 1, NULL, f->mode, f->ev, site);
			return;
		}
	}
	if (m)
		(void)call_function(f, m->u.fn, v, NULL, 0, NULL, f->mode, f->ev, site);
}

static value_t *eval_fstring(struct frame *f, const struct ast_JoinedStr *js)
{
	struct interp *in = f->in;
	buf_t b;
	value_t *r;
	unsigned i;

	buf_init(&b);
	for (i = 0; i < js->values.n; i++) {
		const struct ast_hdr *p = js->values.items[i];
		value_t *v;

		if (AST_IS(p, Constant) && AST_AS(p, Constant)->value.kind == AST_CONST_STR) {
			buf_add(&b, AST_AS(p, Constant)->value.s, AST_AS(p, Constant)->value.len);
			continue;
		}
		if (!AST_IS(p, FormattedValue)) {
			buf_free(&b);
			return unknown_at(f, &js->h, "an f-string ecg cannot format");
		}
		v = eval(f, AST_AS(p, FormattedValue)->value);
		if (v->k == VK_TENSOR && v->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "f-string of a device tensor", AST_AS(p, FormattedValue)->value);
		format_hook(f, v, AST_AS(p, FormattedValue)->conversion, AST_AS(p, FormattedValue)->value);
		if (AST_AS(p, FormattedValue)->format_spec || AST_AS(p, FormattedValue)->conversion > 0 ||
		    !(v->k == VK_STR || v->k == VK_INT)) {
			/* read the other parts all the same: they may sync */
			unsigned k;

			for (k = i + 1; k < js->values.n; k++)
				if (AST_IS(js->values.items[k], FormattedValue)) {
					value_t *w = eval(f, AST_AS(js->values.items[k], FormattedValue)->value);

					if (w->k == VK_TENSOR && w->dev == DEV_DEVICE)
						sev(f, SEV_SYNC, "f-string of a device tensor",
						    AST_AS(js->values.items[k], FormattedValue)->value);
					format_hook(f, w, AST_AS(js->values.items[k], FormattedValue)->conversion,
					            AST_AS(js->values.items[k], FormattedValue)->value);
				}
			buf_free(&b);
			return unknown_at(f, &js->h, "an f-string of values not known");
		}
		if (v->k == VK_STR)
			buf_add(&b, v->u.str.s, v->u.str.len);
		else
			buf_addf(&b, "%lld", v->u.i);
	}
	r = v_strn(in->a, b.buf, b.len);
	buf_free(&b);
	return r;
}

static value_t *eval_const(struct frame *f, const struct ast_Constant *c)
{
	struct interp *in = f->in;
	value_t *v;

	switch (c->value.kind) {
	case AST_CONST_NONE: v = v_none(in->a); break;
	case AST_CONST_TRUE: v = v_bool(in->a, 1); break;
	case AST_CONST_FALSE: v = v_bool(in->a, 0); break;
	case AST_CONST_INT:
		v = c->value.big ? v_unknown(in->a, c->value.s, "an integer too large for ecg") : v_int(in->a, c->value.i);
		break;
	case AST_CONST_FLOAT: v = v_float(in->a, c->value.f); break;
	case AST_CONST_STR: v = v_str_ref(in->a, c->value.s, c->value.len); break;   /* the tree outlives the run */
	default: v = v_unknown(in->a, text_of(f, &c->h), "a constant ecg does not use"); break;
	}
	v->src = anchor_at(f, &c->h);
	if (f->config_exec)
		v->via = VIA_CONFIG_FILE;
	return v;
}

value_t *eval(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	value_t *v;
	unsigned i;

	if (!e)
		return v_none(in->a);
	if (!budget(f))
		return unknown_at(f, e, "the analysis step budget ran out");
	switch (e->kind) {
	case AST_Constant:
		return eval_const(f, AST_AS(e, Constant));
	case AST_Name: {
		const char *id = AST_AS(e, Name)->id;

		v = lookup(f, id);
		if (v)
			return v;
		return v_unknown(in->a, astr(in, id), "a name that is not defined where it is used");
	}
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(e, Attribute);
		value_t *obj = eval(f, a->value);

		v = getattr_v(f, obj, a->attr, e);
		if (v->k == VK_UNKNOWN && !v->expr)
			v->expr = text_of(f, e);
		if (value_is_known_scalar(v) && !v->expr) {
			v = v_copy(in->a, v);
			v->expr = text_of(f, e);
		}
		return v;
	}
	case AST_Call:
		return eval_call(f, AST_AS(e, Call));
	case AST_BinOp: {
		const struct ast_BinOp *b = AST_AS(e, BinOp);

		value_t *l = eval(f, b->left);   /* left first, as Python */
		value_t *r = eval(f, b->right);

		return binop(f, b->op, l, r, e, 0);
	}
	case AST_UnaryOp: {
		const struct ast_UnaryOp *u = AST_AS(e, UnaryOp);
		value_t *x = eval(f, u->operand);
		int t;

		if (is_tensorish(x)) {
			if (u->op == AST_UNARY_USUB)
				emit_op(f, "Tensor.__neg__", e);
			else if (u->op == AST_UNARY_INVERT)
				emit_op(f, "Tensor.__invert__", e);
			if (u->op == AST_UNARY_NOT && x->dev == DEV_DEVICE)
				sev(f, SEV_SYNC, afmt(in, "%s (the truth of a device tensor)", text_of(f, e)), e);
			if (u->op == AST_UNARY_NOT)
				return unknown_at(f, e, "the truth of a tensor at run time");
			{
				value_t *t2 = v_tensor_dev(in->a, x->dev, 0);

				t2->shape = x->shape;
				t2->dt = x->dt;
				return t2;
			}
		}
		switch (u->op) {
		case AST_UNARY_NOT:
			t = value_truth(x);
			return t < 0 ? unknown_at(f, e, x->reason ? x->reason : "the truth of a value not known")
			             : v_bool(in->a, !t);
		case AST_UNARY_USUB:
			if (x->k == VK_INT && x->u.i != LLONG_MIN)
				return v_int(in->a, -x->u.i);
			if (x->k == VK_FLOAT)
				return v_float(in->a, -x->u.f);
			break;
		case AST_UNARY_UADD:
			if (x->k == VK_INT || x->k == VK_FLOAT)
				return x;
			break;
		case AST_UNARY_INVERT:
			if (x->k == VK_INT)
				return v_int(in->a, ~x->u.i);
			break;
		}
		return unknown_at(f, e, x->reason ? x->reason : "an operation on a value not known");
	}
	case AST_BoolOp: {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);
		value_t *last = NULL;

		for (i = 0; i < b->values.n; i++) {
			int t;

			last = eval(f, b->values.items[i]);
			t = value_truth(last);
			if (t < 0) {
				/* evaluate the rest for their effects, result unknown */
				for (i++; i < b->values.n; i++)
					(void)eval(f, b->values.items[i]);
				return unknown_at(f, e, last->reason ? last->reason : "the truth of a value not known");
			}
			if (b->op == AST_BOOL_AND ? !t : t)
				return last;
		}
		return last ? last : v_none(in->a);
	}
	case AST_Compare:
		return eval_compare(f, AST_AS(e, Compare));
	case AST_IfExp: {
		const struct ast_IfExp *x = AST_AS(e, IfExp);
		int t = value_truth(eval(f, x->test));

		if (t == 1)
			return eval(f, x->body);
		if (t == 0)
			return eval(f, x->orelse);
		{
			value_t *a = eval(f, x->body), *b = eval(f, x->orelse);

			if (is_tensorish(a) || is_tensorish(b))
				return v_tensor(in->a);
			if (value_key_eq(a, b))
				return a;
			return unknown_at(f, e, "a conditional expression whose condition is not known");
		}
	}
	case AST_List: case AST_Tuple: case AST_Set: {
		const struct ast_list *elts = e->kind == AST_List ? &AST_AS(e, List)->elts
		                             : e->kind == AST_Tuple ? &AST_AS(e, Tuple)->elts : &AST_AS(e, Set)->elts;

		v = v_seq(in->a, e->kind == AST_Tuple ? VK_TUPLE : VK_LIST, elts->n);
		v->u.seq->born = f->loop_serial;
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred)) {
				value_t *sv = eval(f, AST_AS(x, Starred)->value);
				struct vseq *items;

				if (!iter_items(f, sv, &items)) {
					size_t k;

					for (k = 0; k < items->n; k++)
						vseq_push(in->a, v->u.seq, items->items[k]);
				} else {
					v->u.seq->unk_expr = text_of(f, x);
					v->u.seq->unk_reason = "built from items not known";
				}
			} else {
				vseq_push(in->a, v->u.seq, eval(f, x));
			}
		}
		return v;
	}
	case AST_Dict: {
		const struct ast_Dict *d = AST_AS(e, Dict);

		v = v_dict(in->a);
		for (i = 0; i < d->keys.n && i < d->values.n; i++) {
			if (!d->keys.items[i]) {
				value_t *m = eval(f, d->values.items[i]);
				size_t k;

				if (m->k == VK_DICT)
					for (k = 0; k < m->u.dict->n; k++)
						vdict_set(in->a, v->u.dict, m->u.dict->keys[k], m->u.dict->vals[k]);
				continue;
			}
			{
				value_t *k = eval(f, d->keys.items[i]);
				value_t *x = eval(f, d->values.items[i]);

				vdict_set(in->a, v->u.dict, k, x);
			}
		}
		return v;
	}
	case AST_ListComp: case AST_SetComp: case AST_DictComp: case AST_GeneratorExp:
		return eval_comp(f, e);
	case AST_Subscript:
		return eval_subscript(f, AST_AS(e, Subscript));
	case AST_Slice: {
		const struct ast_Slice *s = AST_AS(e, Slice);

		v = ast_arena_alloc(in->a, sizeof *v);
		v->k = VK_SLICE;
		v->u.slice.lo = s->lower ? eval(f, s->lower) : v_none(in->a);
		v->u.slice.hi = s->upper ? eval(f, s->upper) : v_none(in->a);
		v->u.slice.step = s->step ? eval(f, s->step) : v_none(in->a);
		return v;
	}
	case AST_Lambda:
		return make_function(f, e, "<lambda>");
	case AST_JoinedStr:
		return eval_fstring(f, AST_AS(e, JoinedStr));
	case AST_NamedExpr: {
		const struct ast_NamedExpr *n = AST_AS(e, NamedExpr);

		v = eval(f, n->value);
		assign(f, n->target, v);
		return v;
	}
	case AST_Starred:
		return eval(f, AST_AS(e, Starred)->value);
	case AST_Await:
		return eval(f, AST_AS(e, Await)->value);
	default:
		return unknown_at(f, e, "an expression ecg does not evaluate");
	}
}

/* ------------------------------------------------------------------ statements */

static void assign(struct frame *f, const struct ast_hdr *t, value_t *v)
{
	struct interp *in = f->in;
	unsigned i;

	switch (t->kind) {
	case AST_Name:
		scope_bind(f, AST_AS(t, Name)->id, v);
		return;
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(t, Attribute);

		set_attr(f, eval(f, a->value), a->attr, v);
		return;
	}
	case AST_Subscript: {
		const struct ast_Subscript *s = AST_AS(t, Subscript);
		value_t *obj = eval(f, s->value), *idx = eval(f, s->slice);
		int ok;
		long long k;

		if (is_tensorish(obj)) {
			emit_op(f, "Tensor.__setitem__", t);
		} else if (obj->k == VK_DICT) {
			vdict_set(in->a, obj->u.dict, idx, v);
		} else if (obj->k == VK_LIST) {
			k = as_int(idx, &ok);
			if (ok && k < 0)
				k += (long long)obj->u.seq->n;
			if (ok && k >= 0 && (size_t)k < obj->u.seq->n)
				obj->u.seq->items[k] = v;
		} else if (obj->k == VK_INST && obj->u.inst->mod == VM_CONTAINER && v->k == VK_INST) {
			if (idx->k == VK_STR)
				vinst_add_child(in->a, obj->u.inst, idx->u.str.s, v->u.inst);
		}
		return;
	}
	case AST_Tuple: case AST_List: {
		const struct ast_list *elts = t->kind == AST_Tuple ? &AST_AS(t, Tuple)->elts : &AST_AS(t, List)->elts;
		struct vseq *items = NULL;
		int star = -1;

		for (i = 0; i < elts->n; i++)
			if (AST_IS(elts->items[i], Starred))
				star = (int)i;
		if ((v->k == VK_TUPLE || v->k == VK_LIST) && !iter_items(f, v, &items) &&
		    (star >= 0 ? items->n + 1 >= elts->n : items->n == elts->n)) {
			size_t after = star >= 0 ? elts->n - (size_t)star - 1 : 0;

			for (i = 0; i < elts->n; i++) {
				if ((int)i == star) {
					value_t *rest = v_seq(in->a, VK_LIST, 0);
					size_t k;

					for (k = i; k < items->n - after; k++)
						vseq_push(in->a, rest->u.seq, items->items[k]);
					assign(f, AST_AS(elts->items[i], Starred)->value, rest);
				} else if (star >= 0 && (int)i > star) {
					assign(f, elts->items[i], items->items[items->n - (elts->n - i)]);
				} else {
					assign(f, elts->items[i], items->items[i]);
				}
			}
			return;
		}
		/* a tensor unpacks into tensors; anything else into unknowns */
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred))
				x = AST_AS(x, Starred)->value;
			if (is_tensorish(v)) {
				/* rows of the tensor: its shape without dim 0 */
				value_t *row = v_tensor_dev(in->a, v->dev, v->pinned);
				const struct vshape *s = shape_of(v);

				if (s && s->nd >= 1 && s->n[0] == (long long)elts->n)
					row->shape = shape_index(in->a, s, v_int(in->a, 0));
				row->dt = v->dt;
				assign(f, x, row);
			} else {
				assign(f, x, v_unknown(in->a, text_of(f, x), v->reason ? v->reason : "unpacked from a value not known"));
			}
		}
		return;
	}
	case AST_Starred:
		assign(f, AST_AS(t, Starred)->value, v);
		return;
	default:
		return;
	}
}

/* ECG_TRACE_SHAPES=1 (a development aid): every assignment's value kind
 * and shape on stderr, "file:line: kind [dims]". */
static void trace_shape(struct frame *f, const struct ast_hdr *st, const value_t *v)
{
	const struct vshape *s = shape_of(v);
	unsigned i;

	fprintf(stderr, "shape %s:%d: k=%d dt=%d", f->file ? f->file->path : "?", st->line, (int)v->k, (int)v->dt);
	if (v->k == VK_TUPLE || v->k == VK_LIST)
		fprintf(stderr, " len=%zu%s", v->u.seq->n, v->u.seq->unk_reason ? "?" : "");
	if (s) {
		fputs(" [", stderr);
		for (i = 0; i < s->nd; i++) {
			if (s->n[i] >= 0)
				fprintf(stderr, "%s%lld", i ? ", " : "", s->n[i]);
			else
				fprintf(stderr, "%s%s", i ? ", " : "", s->sym[i] ? s->sym[i] : "?");
		}
		fputc(']', stderr);
	} else if (v->k == VK_UNKNOWN) {
		fprintf(stderr, " (%s)", v->reason ? v->reason : "");
	}
	fputc('\n', stderr);
}

/* A plain name or a chain of attributes of one: reading it runs nothing. */
static int is_pure_ref(const struct ast_hdr *e, int depth)
{
	if (depth > 8)
		return 0;
	if (AST_IS(e, Name))
		return 1;
	return AST_IS(e, Attribute) && is_pure_ref(AST_AS(e, Attribute)->value, depth + 1);
}

/* `B, T, C = x.size()` (or x.shape) names x's dims: where a dim of x is
 * not known, it takes the name the code gives it, and every shape built
 * from it later says "B" or "T". */
static void name_dims(struct frame *f, const struct ast_hdr *target, const struct ast_hdr *value)
{
	const struct ast_list *elts;
	const struct ast_hdr *x = NULL;
	const char *names[VSHAPE_MAX];
	const struct vshape *s;
	value_t *obj;
	size_t i;

	if (AST_IS(target, Tuple))
		elts = &AST_AS(target, Tuple)->elts;
	else if (AST_IS(target, List))
		elts = &AST_AS(target, List)->elts;
	else
		return;
	if (!elts->n || elts->n > VSHAPE_MAX)
		return;
	if (AST_IS(value, Attribute) && !strcmp(AST_AS(value, Attribute)->attr, "shape"))
		x = AST_AS(value, Attribute)->value;
	else if (AST_IS(value, Call) && !AST_AS(value, Call)->args.n && !AST_AS(value, Call)->keywords.n &&
	         AST_IS(AST_AS(value, Call)->func, Attribute) &&
	         !strcmp(AST_AS(AST_AS(value, Call)->func, Attribute)->attr, "size"))
		x = AST_AS(AST_AS(value, Call)->func, Attribute)->value;
	if (!x || !is_pure_ref(x, 0))
		return;
	for (i = 0; i < elts->n; i++) {
		const struct ast_hdr *t = elts->items[i];

		if (!AST_IS(t, Name))
			return;         /* *rest and the like: the rank is not known */
		/* `_`: the dim is still x's dim i, and says so */
		names[i] = strcmp(AST_AS(t, Name)->id, "_") ? AST_AS(t, Name)->id
		           : AST_IS(x, Name) ? afmt(f->in, "%s.shape[%zu]", AST_AS(x, Name)->id, i) : NULL;
	}
	obj = eval(f, x);
	if (obj->k != VK_TENSOR)
		return;
	s = shape_named(f->in->a, obj->shape, names, (unsigned)elts->n);
	if (s)
		obj->shape = s;
}

/* A loop body under repeat: forward mode records the multiplier. */
static enum flow run_body_once(struct frame *f, const struct ast_list *body, long long n, const char *expr,
                               const char *src, int via, const char *reason)
{
	long long om = f->mult;
	const char *oe = f->mult_expr, *os = f->mult_src, *orr = f->mult_reason;
	int ov = f->mult_via;
	unsigned ol = f->loop_serial;
	enum flow fl;

	if (n < 0 || om < 0) {
		f->mult = -1;
		f->mult_reason = reason ? reason : orr;
	} else if (n > 0 && om > LLONG_MAX / n) {
		f->mult = -1;
		f->mult_reason = "a repeat count too large to hold";
	} else {
		f->mult = om * n;
	}
	if (n != 1) {
		f->mult_expr = om != 1 && oe ? afmt(f->in, "%s * %s", oe, expr ? expr : "?") : expr;
		f->mult_src = src;
		f->mult_via = via;
		f->loop_serial = ++f->in->loop_serials;
	}
	fl = exec_block(f, body);
	f->loop_serial = ol;
	f->mult = om;
	f->mult_expr = oe;
	f->mult_src = os;
	f->mult_via = ov;
	f->mult_reason = orr;
	return fl == FL_BREAK || fl == FL_CONTINUE ? FL_NORMAL : fl;
}

static enum flow exec_for(struct frame *f, const struct ast_For *s)
{
	struct interp *in = f->in;
	value_t *it = eval(f, s->iter);
	struct vseq *items = NULL;
	value_t *why;
	size_t i;

	if (f->mode == M_FWD) {
		const char *expr = text_of(f, s->iter);

		/* a container of modules: one pass per group of identical children */
		if (it->k == VK_INST && it->u.inst->mod == VM_CONTAINER && it->u.inst->nchildren) {
			struct vinst *m = it->u.inst;
			value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");
			size_t *starts, ng = container_groups(in, m, &starts), g;
			enum flow fl = FL_NORMAL;

			value_t *le = vdict_gets(m->attrs, "__ecg_len_expr__");
			value_t *ls = vdict_gets(m->attrs, "__ecg_len_src__");
			value_t *lv = vdict_gets(m->attrs, "__ecg_len_via__");
			const char *lexpr = le ? le->u.str.s : afmt(in, "len(%s)", expr);
			const char *lsrc = ls ? ls->u.str.s : m->constructed_at;

			for (g = 0; g < ng && fl != FL_RETURN && fl != FL_RAISE; g++) {
				struct vinst *rep = m->children[starts[g]].inst;
				size_t lo = starts[g], hi = starts[g + 1];

				value_t *item = m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")
				                ? v_str(in->a, m->children[lo].name) : mk_inst_value(in, rep);

				if (vdict_gets(m->attrs, "__enumerate__")) {
					value_t *pair = v_seq(in->a, VK_TUPLE, 2);

					vseq_push(in->a, pair->u.seq, hi - lo == 1 ? v_int(in->a, (long long)lo)
					                                      : v_unknown(in->a, "the index", "the loop counter"));
					vseq_push(in->a, pair->u.seq, item);
					item = pair;
				}
				assign(f, s->target, item);
				fl = run_body_once(f, &s->body, unk ? -1 : (long long)(hi - lo),
				                   ng == 1 ? lexpr : afmt(in, "children %zu..%zu of %s", lo, hi - 1, expr),
				                   lsrc, ls && lv && lv->k == VK_INT ? (int)lv->u.i : VIA_DEFAULT,
				                   unk ? (unk->reason ? unk->reason : "the container's length is not known") : NULL);
			}
			free(starts);
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}
		/* range(n) with n known: n iterations, however many (the body is
		 * read once either way) */
		if (it->k == VK_RANGE && range_len(it) > MAX_UNROLL) {
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, range_len(it), it->expr ? it->expr : expr, it->src, it->via, NULL);
		}
		/* range(n), n <= MAX_UNROLL: the same, without making the n
		 * items (only the first and the count are used below; making
		 * them cost ~7 MB a loop, and a fuzzed job of nested loops 3.7
		 * GB) */
		if (it->k == VK_RANGE) {
			long long n = range_len(it);

			if (n <= 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? v_int(in->a, it->u.range.start)
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		/* enumerate/zip over a container: the same, with the index unknown */
		why = iter_items(f, it, &items);
		if (!why && items && it->k != VK_RANGE && items->n <= MAX_FWD_UNROLL) {
			/* zip(self.layers, self.windows), enumerate(...), a list:
			 * each iteration is read with its own items; the module
			 * tree merges what repeats at the same call site */
			for (i = 0; i < items->n; i++) {
				enum flow fl;

				assign(f, s->target, items->items[i]);
				fl = exec_block(f, &s->body);
				if (fl == FL_BREAK)
					break;
				if (fl == FL_RETURN || fl == FL_RAISE)
					return fl;
			}
			return FL_NORMAL;
		}
		if (!why && items) {
			long long n = (long long)items->n;

			/* items of equal kind: one pass with the first */
			if (n == 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? items->items[0]
			                    : items->items[0]->k == VK_INST ? items->items[0]
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->k == VK_RANGE && it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop variable"));
		return run_body_once(f, &s->body, -1, expr, NULL, VIA_DEFAULT,
		                     afmt(in, "the trip count of `for ... in %s` is not known%s%s", expr,
		                          why && why->reason ? ": " : "", why && why->reason ? why->reason : ""));
	}
	/* A range is iterated without making its items first: a loop that
	 * stops after one iteration (below) would otherwise have made up to
	 * MAX_UNROLL of them (~7 MB), again at each of its executions. */
	if (it->k == VK_RANGE && range_len(it) <= MAX_UNROLL) {
		why = NULL;
		items = NULL;
	} else
		why = iter_items(f, it, &items);
	if (why) {
		/* read the body once; lists built in it have an unknown length */
		const char *omr = f->mult_reason, *ome = f->mult_expr;
		enum flow fl;
		const struct jctx *ojc = f->jc;
		const char *ol = f->loop_anchor;
		int from_loader = is_loader(it);
		struct jctx *lj;

		lj = (struct jctx *)jc_push(f, JC_LOOP, anchor_at(f, &s->h), afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
		f->jc = lj;
		if (from_loader) {
			value_t *batch = loader_batch(f, it->u.inst, afmt_memo(in, "for ... in %s", text_of(f, s->iter), NULL), &s->h);

			f->mult_reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
			f->mult_expr = text_of(f, s->iter);
			if (vdict_gets(it->u.inst->attrs, "__enumerate__")) {
				value_t *pair = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the batch index", "a loop counter"));
				vseq_push(in->a, pair->u.seq, batch);
				batch = pair;
			}
			assign(f, s->target, batch);
			f->loop_anchor = lj->anchor;
			fl = exec_block(f, &s->body);
			f->loop_anchor = ol;
			f->mult_reason = omr;
			f->mult_expr = ome;
			f->jc = ojc;
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}

		f->mult_reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
		f->mult_expr = text_of(f, s->iter);
		f->loop_anchor = anchor_at(f, &s->h);
		if (is_gen_value(it))
			/* a repo generator: each item is what its first yield gives */
			assign(f, s->target, gen_next(f, it->u.inst, &s->h));
		else if ((it->k == VK_LIST || it->k == VK_TUPLE) && it->u.seq->unk_reason && it->u.seq->n >= 1)
			/* a sequence of unknown length: its representative item */
			assign(f, s->target, it->u.seq->items[0]);
		else
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), why->reason ? why->reason : "the loop variable"));
		fl = exec_block(f, &s->body);
		f->loop_anchor = ol;
		f->mult_reason = omr;
		f->mult_expr = ome;
		f->jc = ojc;
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	{
		/* a known iterable: its trip count is known too */
		struct jctx *lj = (struct jctx *)jc_push(f, JC_LOOP, anchor_at(f, &s->h),
		                                         afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
		const struct jctx *ojc = f->jc;
		enum flow fl = FL_NORMAL;

		lj->trips = items ? (long long)items->n : range_len(it);
		if (it->k == VK_RANGE && it->expr)
			lj->period_expr = it->expr;     /* for a loop: the trip count's expression */
		f->jc = lj;
		fl = exec_for_items(f, s, items, items ? NULL : it);
		f->jc = ojc;
		return fl;
	}
}

/* Did the job make, since event `from`, a copy, a sync, a collective or
 * a loader hop (what a loop over run-time work does each iteration)? */
static int runtime_events(const struct interp *in, size_t from)
{
	size_t i;

	for (i = from; i < in->nsev; i++) {
		enum sev_kind k = in->sev[i].kind;

		if (k == SEV_SYNC || k == SEV_H2D || k == SEV_D2H || k == SEV_COLLECTIVE || k == SEV_LOADER_ITER)
			return 1;
	}
	return 0;
}

/* The loop over items->items, or (items NULL) over the values of `range`,
 * made one at a time. */
static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range)
{
	struct interp *in = f->in;
	size_t i, n = items ? items->n : (size_t)(range_len(range) > 0 ? range_len(range) : 0);

	for (i = 0; i < n; i++) {
		long long before = in->job_events;
		size_t sev_before = in->nsev;
		enum flow fl;
		const char *ol = f->loop_anchor;

		if (!budget(f))
			break;
		assign(f, s->target, items ? items->items[i]
		                     : v_int(in->a, (long long)((__int128)range->u.range.start +
		                                                (__int128)i * range->u.range.step)));
		f->loop_anchor = anchor_at(f, &s->h);
		fl = exec_block(f, &s->body);
		f->loop_anchor = ol;
		if (fl == FL_BREAK)
			break;
		if (fl == FL_RETURN || fl == FL_RAISE)
			return fl;
		/* a training or serving loop: one iteration says what it does;
		 * so does any loop whose body copies, syncs, talks to other
		 * ranks or loads data -- the schedule records it once, with the
		 * loop around it, not once per iteration */
		if (in->job_events != before || (f->mode != M_FWD && runtime_events(in, sev_before)))
			break;
	}
	if (s->orelse.n)
		return exec_block(f, &s->orelse);
	return FL_NORMAL;
}

/* `it % eval_interval == 0` (alone or inside an `and`): a periodic guard
 * with its period resolved when the config pins it. */
static const struct ast_BinOp *find_modulo(const struct ast_hdr *e, int depth)
{
	unsigned i;

	if (!e || depth > 8)
		return NULL;
	if (AST_IS(e, BoolOp)) {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);

		for (i = 0; i < b->values.n; i++) {
			const struct ast_BinOp *m = find_modulo(b->values.items[i], depth + 1);

			if (m)
				return m;
		}
		return NULL;
	}
	if (AST_IS(e, Compare)) {
		const struct ast_Compare *c = AST_AS(e, Compare);

		if (c->ops.n == 1 && (c->ops.items[0] == AST_CMP_EQ) && AST_IS(c->left, BinOp) &&
		    AST_AS(c->left, BinOp)->op == AST_OP_MOD)
			return AST_AS(c->left, BinOp);
	}
	return NULL;
}

static const struct jctx *guard_ctx(struct frame *f, const struct ast_hdr *test, const char *text)
{
	const struct ast_BinOp *m = find_modulo(test, 0);
	struct jctx *j;

	if (!m)
		return jc_push(f, JC_COND, anchor_at(f, test), text);
	j = (struct jctx *)jc_push(f, JC_GUARD, anchor_at(f, test), text);
	{
		value_t *p = eval(f, m->right);
		int ok;
		long long n = as_int(p, &ok);

		j->period = ok && n > 0 ? n : -1;
		j->period_expr = text_of(f, m->right);
	}
	return j;
}

static void dict_save(struct interp *in, const struct vdict *d, struct vdict *out)
{
	out->n = d->n;
	out->alloc = d->n;
	out->a = in->a;
	out->ix = NULL;
	out->keys = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->keys);
	out->vals = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->vals);
	if (d->n) {
		memcpy(out->keys, d->keys, d->n * sizeof *out->keys);
		memcpy(out->vals, d->vals, d->n * sizeof *out->vals);
	}
}

/* d becomes a copy of from (a dict_save() or a merge of them: no key
 * twice), in place. */
static void dict_restore(struct interp *in, struct vdict *d, const struct vdict *from)
{
	if (d->alloc < from->n) {
		size_t na = from->n < 8 ? 8 : from->n;

		d->keys = ast_arena_alloc(in->a, na * sizeof *d->keys);
		d->vals = ast_arena_alloc(in->a, na * sizeof *d->vals);
		d->alloc = na;
	}
	if (from->n) {
		memcpy(d->keys, from->keys, from->n * sizeof *d->keys);
		memcpy(d->vals, from->vals, from->n * sizeof *d->vals);
	}
	d->n = from->n;
	vdict_truncated(d);   /* its positions are other keys now */
}

/* After both paths of an undecided `if`: d holds the else path's names.
 * A name both paths left alike keeps its value; tensors stay tensors; a
 * module built on one path is kept (it is conditional, and says so); any
 * other difference is unknown, depending on the condition (cond: its
 * text_of(), interned). */
static void merge_branches(struct frame *f, struct vdict *d, const struct vdict *before,
                           const struct vdict *body, const char *cond)
{
	struct interp *in = f->in;
	struct vdict merged;
	size_t i, p = 0, lim = before->n;

	/* The names bound before the `if` keep their places (and key
	 * objects) on both paths, unless one deleted a name: over that
	 * common prefix the three dicts are read by position, not looked up
	 * (a module's few hundred names, at every undecided `if`). */
	if (body->n < lim)
		lim = body->n;
	if (d->n < lim)
		lim = d->n;
	while (p < lim && body->keys[p] == before->keys[p] && d->keys[p] == before->keys[p])
		p++;
	dict_save(in, d, &merged);
	for (i = 0; i < p; i++)
		if (!merged.vals[i])
			merged.vals[i] = body->vals[i];
	for (i = p; i < body->n; i++)
		if (!vdict_get(&merged, body->keys[i]))
			vdict_set(in->a, &merged, body->keys[i], body->vals[i]);
	for (i = 0; i < merged.n; i++) {
		value_t *k = merged.keys[i];
		value_t *a, *b, *o;
		value_t *r;

		if (i < p) {
			a = body->vals[i];
			b = d->vals[i];
			o = before->vals[i];
		} else {
			a = vdict_get(body, k);
			b = vdict_get(d, k);
			o = vdict_get(before, k);
		}

		if (!a)
			a = o;
		if (!b)
			b = o;
		if (a == b || (a && b && value_is_known_scalar(a) && value_key_eq(a, b)))
			continue;
		if (a && b && a->k == VK_TENSOR && b->k == VK_TENSOR) {
			r = v_tensor_dev(in->a, a->dev > b->dev ? a->dev : b->dev, a->pinned && b->pinned);
			r->shape = shape_join(in->a, a->shape, b->shape);
		} else if (a && a->k == VK_INST && a->u.inst->mod != VM_NONE) {
			r = a;
		} else if (b && b->k == VK_INST && b->u.inst->mod != VM_NONE) {
			r = b;
		} else if (!a || !b) {
			r = a ? a : b;      /* bound on one path only: it exists if that path ran */
		} else {
			r = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL,
			              afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
		}
		merged.vals[i] = r;
	}
	dict_restore(in, d, &merged);
}

static enum flow exec_if(struct frame *f, const struct ast_If *s)
{
	value_t *tv = eval(f, s->test);
	int t = value_truth(tv);
	const char *oc = f->cond;
	int ot = f->cond_taken;
	enum flow fl, fl2;
	const char *text;

	if (is_tensorish(tv)) {
		if (tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(f->in, "if %s (a branch on a device tensor)", text_of(f, s->test)), &s->h);
		t = -1;
	}
	text = text_of(f, s->test);
	/* `if it % N == 0` in job code: periodic.  ecg reads one iteration;
	 * when `it` there skips the guard, the guarded code is still read (a
	 * constructor's `if i % 2 == 0` keeps its meaning: it is not job code) */
	if (f->mode != M_FWD && find_modulo(s->test, 0)) {
		const struct jctx *ojc = f->jc;
		enum flow gfl;

		if (t == 1 || (t == 0 && !f->cls && f->loop_anchor)) {
			f->jc = guard_ctx(f, s->test, text);
			gfl = exec_block(f, &s->body);
			f->jc = ojc;
			if (t == 1)
				return gfl;
			/* t == 0: the else branch runs on the other iterations */
			return exec_block(f, &s->orelse);
		}
	}
	if (!f->locals && f->globals == f->in->entry_ns && !f->in->ev.main_guard && strstr(text, "__name__") &&
	    strstr(text, "__main__"))
		f->in->ev.main_guard = anchor_at(f, &s->h);
	if (t == 1 || t == 0) {
		if (f->mode == M_FWD) {
			f->cond = t ? text : afmt_memo(f->in, "not (%s)", text, NULL);
			f->cond_taken = 1;
		}
		fl = exec_block(f, t ? &s->body : &s->orelse);
		f->cond = oc;
		f->cond_taken = ot;
		return fl;
	}
	f->cond = text;
	f->cond_taken = -1;
	{
		const struct jctx *ojc = f->jc;
		struct vdict *d = f->locals ? f->locals : f->globals->dict;
		struct vdict snap, after_body;

		/* Each branch starts from the same names; afterwards a name
		 * bound differently on the two paths is what the condition
		 * decides (see merge_branches). */
		dict_save(f->in, d, &snap);
		if (f->mode != M_FWD)
			f->jc = guard_ctx(f, s->test, text);
		fl = exec_block(f, &s->body);
		dict_save(f->in, d, &after_body);
		dict_restore(f->in, d, &snap);
		if (f->mode != M_FWD)
			f->jc = jc_push(f, JC_COND, anchor_at(f, &s->h), afmt_memo(f->in, "not (%s)", text, NULL));
		f->cond = afmt_memo(f->in, "not (%s)", text, NULL);
		fl2 = exec_block(f, &s->orelse);
		f->jc = ojc;
		if (fl == FL_RETURN || fl == FL_RAISE)
			;                                     /* only the else path goes on */
		else if (fl2 == FL_RETURN || fl2 == FL_RAISE)
			dict_restore(f->in, d, &after_body);  /* only the body's */
		else
			merge_branches(f, d, &snap, &after_body, text);
	}
	f->cond = oc;
	f->cond_taken = ot;
	/* both paths end the block only if both do */
	if (fl == FL_RETURN && fl2 == FL_RETURN)
		return FL_RETURN;
	if ((fl == FL_RAISE || fl == FL_RETURN) && (fl2 == FL_RAISE || fl2 == FL_RETURN))
		return fl == FL_RETURN ? FL_RETURN : fl2;
	return FL_NORMAL;
}

/* @app.post("/generate"), @app.route(...), @router.get(...) on an object of
 * a web framework: a request handler the framework will call. */
static int is_route_decorator(struct frame *f, const struct ast_hdr *d)
{
	static const char *const routes[] = { "get", "post", "put", "patch", "delete", "route",
	                                      "websocket", "api_route", NULL };
	static const char *const frameworks[] = { "fastapi.", "flask.", "starlette.", "sanic.", "aiohttp.",
	                                          "quart.", "litserve.", "bentoml.", "ray.serve.", NULL };
	const struct ast_Attribute *a;
	value_t *obj;
	size_t i;
	int route = 0;

	if (!AST_IS(d, Call) || !AST_IS(AST_AS(d, Call)->func, Attribute))
		return 0;
	a = AST_AS(AST_AS(d, Call)->func, Attribute);
	for (i = 0; routes[i]; i++)
		if (!strcmp(a->attr, routes[i]))
			route = 1;
	if (!route)
		return 0;
	obj = eval(f, a->value);
	if (obj->k != VK_INST || !obj->u.inst->ext)
		return 0;
	for (i = 0; frameworks[i]; i++)
		if (!strncmp(obj->u.inst->ext, frameworks[i], strlen(frameworks[i])))
			return 1;
	return 0;
}

static enum flow exec_stmt(struct frame *f, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	unsigned i;

	if (!budget(f))
		return FL_RAISE;
	switch (st->kind) {
	case AST_Expr:
		/* a lifespan's `yield`: what follows runs at shutdown */
		if (in->run_generators && (AST_IS(AST_AS(st, Expr)->value, Yield) ||
		                           AST_IS(AST_AS(st, Expr)->value, YieldFrom))) {
			f->ret = v_none(in->a);
			return FL_RETURN;
		}
		/* a generator object advanced: its first yield is the item */
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, Yield)) {
			const struct ast_Yield *y = AST_AS(AST_AS(st, Expr)->value, Yield);

			f->ret = y->value ? eval(f, y->value) : v_none(in->a);
			return FL_RETURN;
		}
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, YieldFrom)) {
			f->ret = unknown_at(f, st, "an item of `yield from`");
			return FL_RETURN;
		}
		if (AST_IS(AST_AS(st, Expr)->value, Constant)) {
			/* a docstring (or `...`): nothing to read, but the
			 * step that eval() would count */
			(void)budget(f);
			return FL_NORMAL;
		}
		(void)eval(f, AST_AS(st, Expr)->value);
		return FL_NORMAL;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(st, Assign);
		value_t *v;

		if (a->targets.n == 1)
			name_dims(f, a->targets.items[0], a->value);
		v = eval(f, a->value);
		if (in->trace_shapes)
			trace_shape(f, st, v);

		for (i = 0; i < a->targets.n; i++)
			assign(f, a->targets.items[i], v);
		return FL_NORMAL;
	}
	case AST_AnnAssign: {
		const struct ast_AnnAssign *a = AST_AS(st, AnnAssign);

		if (a->value)
			assign(f, a->target, eval(f, a->value));
		return FL_NORMAL;
	}
	case AST_AugAssign: {
		const struct ast_AugAssign *a = AST_AS(st, AugAssign);
		value_t *cur = eval(f, a->target), *r = eval(f, a->value);

		if (cur->k == VK_LIST && a->op == AST_OP_ADD && !iter_items(f, r, &(struct vseq *){ NULL })) {
			struct vseq *items;

			(void)iter_items(f, r, &items);
			for (i = 0; i < items->n; i++)
				vseq_push(in->a, cur->u.seq, items->items[i]);
			return FL_NORMAL;
		}
		assign(f, a->target, binop(f, a->op, cur, r, st, 1));
		return FL_NORMAL;
	}
	case AST_FunctionDef:
	case AST_AsyncFunctionDef: {
		const char *name = st->kind == AST_FunctionDef ? AST_AS(st, FunctionDef)->name
		                                                : AST_AS(st, AsyncFunctionDef)->name;
		const struct ast_list *decos = st->kind == AST_FunctionDef ? &AST_AS(st, FunctionDef)->decorator_list
		                                                           : &AST_AS(st, AsyncFunctionDef)->decorator_list;
		value_t *fv = make_function(f, st, name);

		for (i = 0; i < decos->n; i++) {
			const struct ast_hdr *d = decos->items[i];

			{
				const struct ast_hdr *dd = AST_IS(d, Call) ? AST_AS(d, Call)->func : d;
				value_t *dv = AST_IS(dd, Attribute) || AST_IS(dd, Name) ? eval(f, dd) : NULL;

				if (dv && dv->k == VK_EXT && (!strcmp(dv->u.ext, "torch.no_grad") ||
				                              !strcmp(dv->u.ext, "torch.inference_mode")))
					fv->u.fn->no_grad = 1;
			}
			if (f->mode != M_FWD && AST_IS(d, Call) && AST_IS(AST_AS(d, Call)->func, Attribute) &&
			    !strcmp(AST_AS(AST_AS(d, Call)->func, Attribute)->attr, "on_event") && in->nstartup < 16)
				in->startup[in->nstartup++] = fv;
			else if (f->mode != M_FWD && is_route_decorator(f, d) && in->nhandlers < 64) {
				in->handlers[in->nhandlers].fn = fv;
				in->handlers[in->nhandlers].anchor = anchor_at(f, st);
				in->nhandlers++;
				if (!in->ev.server)
					in->ev.server = anchor_at(f, d);
			}
			if (AST_IS(d, Name)) {
				const char *dn = AST_AS(d, Name)->id;

				if (!strcmp(dn, "staticmethod"))
					fv->u.fn->is_static = 1;
				else if (!strcmp(dn, "classmethod"))
					fv->u.fn->is_classmethod = 1;
				else if (!strcmp(dn, "property"))
					fv->u.fn->is_property = 1;
			}
		}
		/* Decorators written in the repository run, innermost first, as
		 * Python runs them: @register_model fills a registry.  What one
		 * returns is the function's value if it is a function; anything
		 * else keeps the function itself (a wrapper ecg cannot see into
		 * still calls it). */
		{
			value_t *cur = fv;
			unsigned k;

			for (k = decos->n; k-- > 0;) {
				value_t *dv = eval(f, decos->items[k]);
				value_t *r;

				if (dv->k != VK_FUNC && dv->k != VK_BOUND)
					continue;
				r = call(f, dv, &cur, 1, NULL, decos->items[k]);
				if (r->k == VK_FUNC || r->k == VK_BOUND)
					cur = r;
			}
			scope_bind(f, name, cur);
		}
		return FL_NORMAL;
	}
	case AST_ClassDef:
		exec_classdef(f, AST_AS(st, ClassDef));
		return FL_NORMAL;
	case AST_Return:
		f->ret = AST_AS(st, Return)->value ? eval(f, AST_AS(st, Return)->value) : v_none(in->a);
		return FL_RETURN;
	case AST_If:
		return exec_if(f, AST_AS(st, If));
	case AST_For: case AST_AsyncFor:
		return exec_for(f, (const struct ast_For *)st);
	case AST_Assert: {
		/* assert <a device tensor condition>: its truth is read on the host */
		value_t *tv = eval(f, AST_AS(st, Assert)->test);

		if (is_tensorish(tv) && tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, "assert %s (the truth of a device tensor)", text_of(f, AST_AS(st, Assert)->test)),
			    st);
		return FL_NORMAL;
	}
	case AST_While: {
		const struct ast_While *w = AST_AS(st, While);
		value_t *tv = eval(f, w->test);
		enum flow fl;

		if (is_tensorish(tv) && tv->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, afmt(in, "while %s (a loop condition on a device tensor)", text_of(f, w->test)),
			    &w->h);

		if (value_truth(tv) == 0)
			return exec_block(f, &w->orelse);
		if (f->mode == M_FWD) {
			fl = run_body_once(f, &w->body, -1, text_of(f, w->test), NULL, VIA_DEFAULT,
			                   afmt(in, "the trip count of `while %s` is not known", text_of(f, w->test)));
		} else {
			const char *ol = f->loop_anchor;
			const struct jctx *ojc = f->jc;

			f->jc = jc_push(f, JC_LOOP, anchor_at(f, st), afmt(in, "while %s", text_of(f, w->test)));
			f->loop_anchor = anchor_at(f, st);
			fl = exec_block(f, &w->body);
			f->loop_anchor = ol;
			f->jc = ojc;
		}
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	case AST_With: case AST_AsyncWith: {
		const struct ast_With *w = (const struct ast_With *)st;
		int ng = 0;
		enum flow fl;
		const struct jctx *ojc = f->jc, *pushed = NULL;

		for (i = 0; i < w->items.n; i++) {
			const struct ast_withitem *wi = AST_AS(w->items.items[i], withitem);
			value_t *cv = eval(f, wi->context_expr);

			if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.no_grad")) {
				ng = 1;
				if (!in->ev.no_grad && f->mode != M_FWD)
					in->ev.no_grad = anchor_at(f, st);
				pushed = jc_push(f, JC_NO_GRAD, anchor_at(f, st), text_of(f, wi->context_expr));
			} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.autocast")) {
				pushed = jc_push(f, JC_AUTOCAST, anchor_at(f, st), text_of(f, wi->context_expr));
			} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.cuda.stream")) {
				value_t *t = vdict_gets(cv->u.inst->attrs, "text");

				pushed = jc_push(f, JC_STREAM, anchor_at(f, st), t && t->k == VK_STR ? t->u.str.s : "a stream");
			} else if (AST_IS(wi->context_expr, Call) && AST_IS(AST_AS(wi->context_expr, Call)->func, Attribute) &&
			           !strcmp(AST_AS(AST_AS(wi->context_expr, Call)->func, Attribute)->attr, "no_sync")) {
				pushed = jc_push(f, JC_NO_SYNC, anchor_at(f, st), text_of(f, wi->context_expr));
			}
			if (pushed) {
				f->jc = pushed;
				pushed = NULL;
			}
			if (wi->optional_vars)
				assign(f, wi->optional_vars, cv->k == VK_INST ? cv
				       : v_unknown(in->a, text_of(f, wi->optional_vars), "a context manager's value"));
		}
		f->no_grad += ng;
		fl = exec_block(f, &w->body);
		f->no_grad -= ng;
		f->jc = ojc;
		return fl;
	}
	case AST_Try: case AST_TryStar: {
		const struct ast_Try *t = (const struct ast_Try *)st;
		enum flow fl = exec_block(f, &t->body);

		if (fl == FL_NORMAL && t->orelse.n)
			fl = exec_block(f, &t->orelse);
		if (t->finalbody.n) {
			enum flow f2 = exec_block(f, &t->finalbody);

			if (f2 != FL_NORMAL)
				fl = f2;
		}
		return fl == FL_RAISE ? FL_NORMAL : fl;
	}
	case AST_Import:
		exec_import(f, AST_AS(st, Import));
		return FL_NORMAL;
	case AST_ImportFrom:
		exec_import_from(f, AST_AS(st, ImportFrom));
		return FL_NORMAL;
	case AST_Global: {
		const struct ast_Global *g = AST_AS(st, Global);

		if (!f->globals_decl)
			f->globals_decl = ast_arena_alloc(in->a, sizeof *f->globals_decl);
		for (i = 0; i < g->names.n; i++) {
			const char **ns = ast_arena_alloc(in->a, (f->globals_decl->n + 1) * sizeof *ns);

			if (f->globals_decl->n)
				memcpy(ns, f->globals_decl->s, f->globals_decl->n * sizeof *ns);
			ns[f->globals_decl->n++] = g->names.items[i];
			f->globals_decl->s = ns;
		}
		return FL_NORMAL;
	}
	case AST_Raise:
		return FL_RAISE;
	case AST_Break:
		return FL_BREAK;
	case AST_Continue:
		return FL_CONTINUE;
	case AST_Delete: {
		const struct ast_Delete *d = AST_AS(st, Delete);

		for (i = 0; i < d->targets.n; i++) {
			const struct ast_hdr *t = d->targets.items[i];

			if (AST_IS(t, Name) && f->locals)
				vdict_del(f->locals, v_str(in->a, AST_AS(t, Name)->id));
		}
		return FL_NORMAL;
	}
	case AST_Match:
		return FL_NORMAL;
	default:
		return FL_NORMAL;
	}
}

enum flow exec_block(struct frame *f, const struct ast_list *body)
{
	unsigned i;

	if (!body)
		return FL_NORMAL;
	for (i = 0; i < body->n; i++) {
		enum flow fl = exec_stmt(f, body->items[i]);

		if (fl != FL_NORMAL)
			return fl;
	}
	return FL_NORMAL;
}

/* ------------------------------------------------------------------ the public side */

struct interp *interp_new(struct prog *p, const struct catalog *cat)
{
	static const struct { const char *n; int id; } bis[] = {
		{ "range", BI_RANGE }, { "len", BI_LEN }, { "int", BI_INT }, { "float", BI_FLOAT },
		{ "str", BI_STR }, { "bool", BI_BOOL }, { "list", BI_LIST }, { "tuple", BI_TUPLE },
		{ "dict", BI_DICT }, { "set", BI_SET }, { "frozenset", BI_SET }, { "enumerate", BI_ENUMERATE },
		{ "zip", BI_ZIP }, { "min", BI_MIN }, { "max", BI_MAX }, { "sum", BI_SUM }, { "abs", BI_ABS },
		{ "round", BI_ROUND }, { "print", BI_PRINT }, { "isinstance", BI_ISINSTANCE },
		{ "getattr", BI_GETATTR }, { "setattr", BI_SETATTR }, { "hasattr", BI_HASATTR },
		{ "super", BI_SUPER }, { "open", BI_OPEN }, { "exec", BI_EXEC }, { "sorted", BI_SORTED },
		{ "reversed", BI_REVERSED }, { "any", BI_ANY }, { "all", BI_ALL },
		{ "staticmethod", BI_STATICMETHOD }, { "classmethod", BI_CLASSMETHOD }, { "property", BI_PROPERTY },
		{ "globals", BI_GLOBALS }, { "iter", BI_ITER }, { "next", BI_NEXT },
	};
	struct interp *in = xcalloc(1, sizeof *in);
	size_t i;

	in->prog = p;
	in->cat = cat;
	in->a = ast_arena_new_large();
	in->ns = xcalloc(p->n + 1, sizeof *in->ns);
	in->builtins = vdict_new(in->a);
	in->overrides = vdict_new(in->a);
	for (i = 0; i < sizeof bis / sizeof bis[0]; i++)
		vdict_sets(in->a, in->builtins, bis[i].n, mk_builtin(in, bis[i].id, NULL));
	vdict_sets(in->a, in->builtins, "__name__", v_str(in->a, "builtins"));
	in->trace_shapes = getenv("ECG_TRACE_SHAPES") != NULL;
	in->trace_steps = getenv("ECG_TRACE_STEPS") != NULL;
	return in;
}

static int hot_cmp(const void *a, const void *b)
{
	long x = ((const struct hot *)a)->n, y = ((const struct hot *)b)->n;

	return (y > x) - (y < x);
}

void interp_free(struct interp *in)
{
	size_t i;

	if (!in)
		return;
	if (in->trace_steps) {
		qsort(in->hot, in->nhot, sizeof in->hot[0], hot_cmp);
		fprintf(stderr, "steps: %ld in all\n", in->steps);
		for (i = 0; i < in->nhot && i < 25; i++)
			fprintf(stderr, "steps: %8ld  %s\n", in->hot[i].n * 1024, in->hot[i].key);
	}
	ast_arena_free(in->a);
	free(in->ns);
	free(in->roots);
	free(in->models);
	free(in->model_names);
	free(in->notes);
	free(in->sev);
	free(in->strs);
	free(in->amemo);
	free(in->tmemo);
	free(in->genmemo);
	free(in->fmemo);
	free(in->fncost);
	free(in);
}

struct ast_arena *interp_arena(struct interp *in)
{
	return in->a;
}

const struct catalog *interp_catalog(const struct interp *in)
{
	return in->cat;
}

void interp_set_override(struct interp *in, const char *key, const char *text)
{
	char *end;
	long long i = strtoll(text, &end, 0);
	value_t *v;
	size_t n = strlen(text);

	if (*text && !*end) {
		v = v_int(in->a, i);
	} else {
		double d = strtod(text, &end);

		if (*text && !*end)
			v = v_float(in->a, d);
		else if (!strcmp(text, "True") || !strcmp(text, "true"))
			v = v_bool(in->a, 1);
		else if (!strcmp(text, "False") || !strcmp(text, "false"))
			v = v_bool(in->a, 0);
		else if (!strcmp(text, "None") || !strcmp(text, "null"))
			v = v_none(in->a);
		else if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
			v = v_strn(in->a, text + 1, n - 2);
		else
			v = v_str(in->a, text);
	}
	vdict_sets(in->a, in->overrides, key, v);
}

void interp_set_loader(struct interp *in, interp_load_fn fn, void *ctx)
{
	in->load = fn;
	in->load_ctx = ctx;
}

void interp_set_argv(struct interp *in, const char *const *argv, size_t n)
{
	size_t i;

	in->argv = v_seq(in->a, VK_LIST, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, in->argv->u.seq, v_str(in->a, argv[i]));
}

/* Run a file as the job does: as __main__ (func NULL), or imported under
 * its own name and then func() called, as a console script's wrapper does. */
static int interp_run(struct interp *in, struct sfile *entry, const char *func)
{
	size_t idx = (size_t)(entry - in->prog->files);
	struct vns *ns;
	struct frame f;

	in->entry_path = entry->path;
	prog_ensure(in->prog, entry);
	if (!entry->mod)
		return -1;
	ns = ast_arena_alloc(in->a, sizeof *ns);
	ns->file = entry;
	ns->dict = vdict_new(in->a);
	ns->state = 1;
	in->ns[idx] = ns;
	in->entry_ns = ns;
	vdict_sets(in->a, ns->dict, "__name__", v_str(in->a, func && entry->modname ? entry->modname : "__main__"));
	vdict_sets(in->a, ns->dict, "__file__", v_str(in->a, entry->path));
	memset(&f, 0, sizeof f);
	f.in = in;
	f.file = entry;
	f.globals = ns;
	f.mode = M_JOB;
	f.mult = 1;
	f.cond_taken = -1;
	(void)exec_block(&f, &entry->mod->body);
	ns->state = 2;
	if (func) {
		value_t *fn = vdict_gets(ns->dict, func);

		if (!fn || fn->k != VK_FUNC)
			return -1;
		/* the job starts at the function: its definition is the anchor */
		in->ev.main_guard = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
		                         fn->u.fn->def->line);
		(void)call_function(&f, fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
	}
	/* the server's start-up (lifespan, on_event("startup")), then the
	 * request handlers the framework would call, once each */
	{
		size_t i;

		in->run_generators = 1;
		for (i = 0; i < in->nstartup; i++) {
			struct frame sf = f;
			value_t *app = v_unknown(in->a, "app", "the application object");

			(void)call_function(&sf, in->startup[i]->u.fn, NULL, &app, 1, NULL, M_JOB, NULL, NULL);
		}
		in->run_generators = 0;

		for (i = 0; i < in->nhandlers; i++) {
			struct frame hf = f;

			hf.handler = in->handlers[i].anchor;
			(void)call_function(&hf, in->handlers[i].fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
		}
	}
	return 0;
}

void interp_run_entry(struct interp *in, struct sfile *entry)
{
	(void)interp_run(in, entry, NULL);
}

int interp_run_function(struct interp *in, struct sfile *file, const char *func)
{
	return interp_run(in, file, func);
}

const struct root_call *interp_roots(const struct interp *in, size_t *n)
{
	*n = in->nroots;
	return in->roots;
}

struct vinst *const *interp_models(const struct interp *in, const char *const **names, size_t *n)
{
	*n = in->nmodels;
	*names = in->model_names;
	return in->models;
}

/* What a layer (or a module ecg cannot read) returns: a tensor that lives
 * where its input does, with the shape the catalogue's rule gives. */
static value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
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
		const char *c = m->ext;
		value_t *t;

		if (!strcmp(c, "torch.nn.RNN") || !strcmp(c, "torch.nn.GRU") || !strcmp(c, "torch.nn.LSTM")) {
			t = v_seq(in->a, VK_TUPLE, 2);
			vseq_push(in->a, t->u.seq, r);
			if (!strcmp(c, "torch.nn.LSTM")) {
				value_t *hc = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, hc->u.seq, v_tensor_dev(in->a, dev, 0));
				vseq_push(in->a, t->u.seq, hc);
			} else {
				vseq_push(in->a, t->u.seq, v_tensor_dev(in->a, dev, 0));
			}
			return t;
		}
		if (!strcmp(c, "torch.nn.MultiheadAttention")) {
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

value_t *interp_forward(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                        struct vdict *kwargs, struct fseq *out)
{
	struct frame f;
	value_t *fwd;
	struct vclass *owner = NULL;
	struct fwdinfo *fi = m->entry;

	memset(&f, 0, sizeof f);
	f.in = in;
	f.mode = M_FWD;
	f.ev = out;
	f.mult = 1;
	f.cond_taken = -1;
	if (m->mod == VM_CONTAINER) {
		if (m->ext && !strcmp(m->ext, "torch.nn.Sequential") && in->prog->n) {
			f.file = &in->prog->files[0];
			f.qualname = "<module>";
			return sequential_forward(in, m, nargs ? args[0] : v_tensor(in->a), out, &f,
			                          fi ? fi->call_anchor : NULL);
		}
		return v_unknown(in->a, NULL, "a container is not callable");
	}
	if (m->mod != VM_REPO || !m->cls || !(fwd = class_lookup(m->cls, "forward", &owner)) || fwd->k != VK_FUNC)
		return layer_result(in, m, args, nargs, kwargs);
	f.file = fwd->u.fn->file;
	f.globals = fwd->u.fn->globals;
	f.qualname = fwd->u.fn->qualname;
	{
		value_t **a2 = xmalloc((nargs + 1) * sizeof *a2);
		size_t i;
		value_t *r;

		/* arguments not known at the call are tensors in a forward */
		for (i = 0; i < nargs; i++)
			a2[i] = args[i]->k == VK_UNKNOWN ? v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0) : args[i];
		r = call_function(&f, fwd->u.fn, mk_inst_value(in, m), a2, nargs, kwargs, M_FWD, out, NULL);
		free(a2);
		return r;
	}
}

const char *interp_forward_anchor(struct interp *in, struct vinst *m)
{
	value_t *fwd;
	struct vclass *owner = NULL;

	if (!m->cls)
		return NULL;
	fwd = class_lookup(m->cls, "forward", &owner);
	if (!fwd || fwd->k != VK_FUNC)
		return NULL;
	return aanchor(in, fwd->u.fn->file->path, fwd->u.fn->qualname, fwd->u.fn->def->line);
}

const struct interp_note *interp_notes(const struct interp *in, size_t *n)
{
	*n = in->nnotes;
	return in->notes;
}

const char *interp_class_name(const struct vinst *m)
{
	if (m->cls)
		return m->cls->name;
	return m->ext ? m->ext : "?";
}

const struct fseq *interp_events_of(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? &fi->seq : NULL;
}

value_t *interp_forward_ret(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi && fi->state == 2 ? fi->ret : NULL;
}

const char *interp_call_anchor(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? fi->call_anchor : NULL;
}

int interp_saw_backward(const struct interp *in)
{
	return in->saw_backward;
}

const struct interp_evidence *interp_evidence(const struct interp *in)
{
	return &in->ev;
}

size_t interp_candidates(const struct interp *in, struct vinst *const **insts, const char *const **anchors)
{
	*insts = in->models;
	*anchors = in->model_names;
	return in->nmodels;
}

const struct sched_ev *interp_sched(const struct interp *in, size_t *n)
{
	*n = in->nsev;
	return in->sev;
}
