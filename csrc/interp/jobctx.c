/* interp/jobctx.c - schedule events and the job context they happen in
 *
 * sev() appends one schedule event (sched_ev) at an anchor, inside the
 * frame's current job context (jc: loops, guards, with-blocks, handlers,
 * pushed by jc_push()).  guard_ctx() reads a step guard (`if step % n ==
 * 0`), runtime_events() tells whether a loop's body did something at run
 * time, is_route_decorator() finds a web framework's request handlers,
 * ema_call() an exponential moving average of the weights, log_sink() a
 * call that logs what it is given.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

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
void ema_call(struct frame *f, const value_t *fn, const struct ast_hdr *site)
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

/* The last component of a dotted name ("wandb.log" -> "log"). */
static const char *last_name(const char *s)
{
	const char *dot = s ? strrchr(s, '.') : NULL;

	return dot ? dot + 1 : s;
}

/* Names of calls that log the values they are given: a host read made
 * for their arguments is logging, not the step's work. */
static const char *const log_sink_names[] = {
	"add_scalar", "add_scalars", "info", "log", "log_dict", "log_metrics", "print", "print0",
	"set_description", "set_postfix", "warning", NULL
};

/* Is v an object of another library's class (not torch's or numpy's:
 * their .log is arithmetic) -- wandb.init()'s Run, whose log(...) logs? */
static int library_object(struct interp *in, const value_t *v)
{
	if (v->k != VK_INST || !v->u.inst->ext)
		return 0;
	/* (an LR scheduler ecg made itself: "scheduler:<kind>") */
	return strncmp(v->u.inst->ext, "scheduler:", 10) &&
	       !catalog_fact_match(in->cat, CATALOG_F_MATH_NAMESPACES, v->u.inst->ext);
}

/* Does calling fn log its arguments: the builtin print, write() of a file
 * open()ed for writing text (`with open(log_file, "a") as f:
 * f.write(f"{step} {loss.item()}")`; a binary file's bytes are data), or a function
 * or external name whose last component is a logging verb (wandb.log,
 * logger.info, writer.add_scalar, pbar.set_postfix, a job's print0)? */
int log_sink(struct interp *in, const value_t *fn)
{
	const char *name = NULL;

	if (fn->k == VK_BUILTIN)
		return (fn->u.bi.id == BI_PRINT && !fn->u.bi.self) ||
		       (fn->u.bi.id == BI_M_FILE_WRITE && file_writes_text(fn->u.bi.self));
	if (fn->k == VK_EXT) {
		/* torch.log, x.log(), np.log: arithmetic, not logging (the one
		 * verb that is also a math function); a tensor's method logs
		 * nothing; another library object's verb does (tensorboard's
		 * SummaryWriter.add_scalar, under torch.utils), log included
		 * when the object is of another library's class (a wandb Run:
		 * run.log({...})) */
		name = last_name(fn->u.ext);
		if (fn->recv && fn->recv->k == VK_TENSOR)
			return 0;
		if (!strcmp(name, "log") && catalog_fact_match(in->cat, CATALOG_F_MATH_NAMESPACES, fn->u.ext))
			return 0;
		if (fn->recv && !strcmp(name, "log") && !library_object(in, fn->recv))
			return 0;
	}
	else if (fn->k == VK_FUNC)
		name = last_name(fn->u.fn->qualname);
	else if (fn->k == VK_BOUND && fn->u.bound.fn->k == VK_FUNC)
		name = last_name(fn->u.bound.fn->u.fn->qualname);
	return log_sink_name(name);
}

int log_sink_name(const char *name)
{
	size_t i;

	for (i = 0; name && log_sink_names[i]; i++)
		if (!strcmp(name, log_sink_names[i]))
			return 1;
	return 0;
}

/* An event's context as the schedule reads it.  Code of a generator's
 * body outside its own loops runs once each time the loop over the
 * generator runs, not once per item: when a JC_GEN marker is reached with
 * no loop around the generator's yield between (jctx.yields; a loop of
 * the code before it -- a function the generator calls first, a walk over
 * its settings -- is no such loop), the marker and the consuming loop
 * (its up) are left out, the nodes below copied onto what is around that
 * loop.  Otherwise (no marker, or the event in a loop around the
 * generator's yield, which runs with the consuming loop's items) c as it
 * is: a marker left in is no kind the schedule reads.  One chain per context (memo in c->rerooted): sc_calls
 * compares them by address.  Never fails (arena). */
static const struct jctx *gen_reroot(struct interp *in, const struct jctx *c)
{
	const struct jctx *m, *top, *c0 = c;
	struct jctx *head = NULL, **tail = &head;

	if (!c)
		return NULL;
	if (c->rerooted)
		return c->rerooted;
	for (m = c; m && m->kind != JC_GEN && !(m->kind == JC_LOOP && (m->yields || m->gen_items)); m = m->up)
		;
	if (!m || m->kind == JC_LOOP)
		return c;
	top = gen_reroot(in, m->up && m->up->kind == JC_LOOP ? m->up->up : m->up);
	for (; c != m; c = c->up) {
		struct jctx *j = ast_arena_alloc(in->a, sizeof *j);

		*j = *c;
		j->rerooted = j;
		*tail = j;
		tail = (struct jctx **)&j->up;
	}
	*tail = (struct jctx *)top;
	if (!head)
		head = (struct jctx *)top;
	((struct jctx *)c0)->rerooted = head;
	return head;
}

/* The loop that takes the items of the generator whose code outside the
 * loop around its yield c is in (as gen_reroot finds it), or NULL. */
static const struct jctx *gen_consumer(const struct jctx *c)
{
	for (; c && c->kind != JC_GEN && !(c->kind == JC_LOOP && (c->yields || c->gen_items)); c = c->up)
		;
	return c && c->kind == JC_GEN && c->up && c->up->kind == JC_LOOP ? c->up : NULL;
}

struct sched_ev *sev(struct frame *f, enum sev_kind kind, const char *call, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e;

	if (in->nsev >= 100000)
		return NULL;
	GROW(in->sev, in->asev, in->nsev + 1);
	e = &in->sev[in->nsev++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->call = call;
	e->anchor = anchor_at(f, site);
	e->ctx = gen_reroot(in, f->jc);
	e->gen_loop = gen_consumer(f->jc);
	e->in_forward = f->mode == M_FWD;
	e->fwd_root = f->mode == M_FWD ? in->fwd_root : NULL;
	e->mode_call = f->mode == M_FWD ? in->fwd_mode_call : NULL;
	e->in_backward = f->in_backward;
	e->in_log = f->in_log > 0;
	e->item_cond = f->item_cond > 0;
	/* in a forward: the loops in it times how often it runs per call
	 * of the model */
	e->fwd_mult = f->mode == M_FWD ? runs_times(in->fwd_outer, f->mult.n) : 1;
	e->fwd_once = f->mode == M_FWD && in->fwd_once > 0;
	e->in_call = f->mode == M_FWD ? NULL : in->cur_call;
	e->frame = f->locals ? (const void *)f->locals : (const void *)f->globals;
	e->calls = in->cur_call;
	e->non_blocking = -1;
	e->pinned = -1;
	e->async_op = -1;
	if (kind == SEV_MODEL_CALL) {
		GROW(in->model_calls, in->amodel_calls, in->nmodel_calls + 1);
		in->model_calls[in->nmodel_calls++] = in->nsev - 1;
	}
	return e;
}

const struct jctx *jc_here(struct frame *f)
{
	return gen_reroot(f->in, f->jc);
}

const struct jctx *jc_find(const struct jctx *c, enum jctx_kind k)
{
	for (; c; c = c->up)
		if (c->kind == k)
			return c;
	return NULL;
}

/* Is text t "not (u)"? */
static int negates(const char *t, const char *u)
{
	size_t n = strlen(u);

	return !strncmp(t, "not (", 5) && !strncmp(t + 5, u, n) && !strcmp(t + 5 + n, ")");
}

int jc_exclusive(const struct jctx *a, const struct jctx *b)
{
	const struct jctx *x, *y;

	for (x = a; x; x = x->up) {
		if (x->kind != JC_COND || !x->anchor || !x->text)
			continue;
		for (y = b; y; y = y->up)
			if (y->kind == JC_COND && y != x && y->anchor && y->text && !strcmp(y->anchor, x->anchor) &&
			    (negates(x->text, y->text) || negates(y->text, x->text)) &&
			    (x->up == y->up || (x->up && y->up && x->up->kind == y->up->kind && x->up->anchor &&
			                        y->up->anchor && !strcmp(x->up->anchor, y->up->anchor))))
				return 1;
	}
	return 0;
}

const struct jctx *jc_push(struct frame *f, enum jctx_kind kind, const char *anchor, const char *text)
{
	struct jctx *j = ast_arena_alloc(f->in->a, sizeof *j);

	j->kind = kind;
	j->anchor = anchor;
	j->text = text;
	j->period = -1;
	j->counter = NULL;
	j->counts_loop = 0;
	j->counts_passes = 0;
	j->trips = -1;
	j->gen_items = 0;
	j->yields = 0;
	j->mode_only = 0;
	j->up = f->jc;
	j->rerooted = NULL;
	return j;
}

struct jctx *jc_push_loop(struct frame *f, const struct ast_hdr *loop, const char *text)
{
	struct jctx *j = (struct jctx *)jc_push(f, JC_LOOP, anchor_at(f, loop), text);

	j->yields = f->gen_body && ast_contains_yield(loop);
	j->feeds = loop_feeds_back(loop);
	return j;
}

int sev_is_runtime(enum sev_kind k)
{
	return k == SEV_SYNC || k == SEV_H2D || k == SEV_D2H || k == SEV_COLLECTIVE || k == SEV_LOADER_ITER;
}

long long runs_times(long long a, long long b)
{
	if (!a)
		a = 1;
	if (!b)
		b = 1;
	if (a < 0 || b < 0 || a > (1LL << 40) / b)
		return -1;
	return a * b;
}

/* Did the job make, since event `from`, a copy, a sync, a collective or
 * a loader hop (what a loop over run-time work does each iteration)? */
int runtime_events(const struct interp *in, size_t from)
{
	size_t i;

	for (i = from; i < in->nsev; i++)
		if (sev_is_runtime(in->sev[i].kind))
			return 1;
	return 0;
}

/* `it % eval_interval == 0` (alone or inside an `and`): a periodic guard
 * with its period resolved when the config pins it. */
/* Does e name a process rank (rank, args.rank, self.local_rank)?  `rank %
 * ngpus == 0` chooses processes; it does not recur. */
static int names_rank(const struct ast_hdr *e)
{
	const char *id = AST_IS(e, Name) ? AST_AS(e, Name)->id : AST_IS(e, Attribute) ? AST_AS(e, Attribute)->attr : NULL;

	return id && strstr(id, "rank") != NULL;
}

/* The index of the positional parameter e names in a, or -1. */
static int param_index(const struct ast_arguments *a, const struct ast_hdr *e)
{
	unsigned i;

	if (!a || !AST_IS(e, Name))
		return -1;
	for (i = 0; i < a->posonlyargs.n; i++)
		if (!strcmp(AST_AS(a->posonlyargs.items[i], arg)->arg, AST_AS(e, Name)->id))
			return (int)i;
	for (i = 0; i < a->args.n; i++)
		if (!strcmp(AST_AS(a->args.items[i], arg)->arg, AST_AS(e, Name)->id))
			return (int)(a->posonlyargs.n + i);
	return -1;
}

/* Whether every assignment to `name` in stmts, but the one at `first`,
 * keeps it a conjunction of its value so far (`name = name and X`), and
 * nothing else binds it: the modulo assigned first stays a conjunct. */
static int keeps_conjunct(const struct ast_list *stmts, const char *name, const struct ast_hdr *first, int depth)
{
	unsigned i, j;

	if (depth > 8)
		return 0;
	for (i = 0; i < stmts->n; i++) {
		const struct ast_hdr *st = stmts->items[i];

		if (st == first)
			continue;
		if (AST_IS(st, Assign)) {
			const struct ast_Assign *a = AST_AS(st, Assign);
			const struct ast_BoolOp *b;

			for (j = 0; j < a->targets.n; j++)
				if (AST_IS(a->targets.items[j], Name) && !strcmp(AST_AS(a->targets.items[j], Name)->id, name))
					break;
			if (j == a->targets.n)
				continue;
			if (!AST_IS(a->value, BoolOp) || (b = AST_AS(a->value, BoolOp))->op != AST_BOOL_AND ||
			    !AST_IS(b->values.items[0], Name) || strcmp(AST_AS(b->values.items[0], Name)->id, name))
				return 0;
		} else if (AST_IS(st, If)) {
			if (!keeps_conjunct(&AST_AS(st, If)->body, name, first, depth + 1) ||
			    !keeps_conjunct(&AST_AS(st, If)->orelse, name, first, depth + 1))
				return 0;
		} else if (!AST_IS(st, Expr) && !AST_IS(st, Return) && !AST_IS(st, Pass))
			return 0;
	}
	return 1;
}

/* The periodic test a helper's body returns: `return a % b == 0`, or
 * `t = a % b == 0` first, then only `t = t and X` (under ifs), then
 * `return t` (lingua's every_n_steps(state, freq, acc_step=...)). */
static const struct ast_hdr *returned_modulo_test(const struct ast_FunctionDef *fd)
{
	unsigned k = 0;
	const struct ast_hdr *last, *first;
	const struct ast_Assign *a;
	const char *name;

	if (fd->body.n >= 2 && AST_IS(fd->body.items[0], Expr))      /* a docstring */
		k = 1;
	if (fd->body.n < k + 1 || !AST_IS((last = fd->body.items[fd->body.n - 1]), Return) || !AST_AS(last, Return)->value)
		return NULL;
	if (fd->body.n == k + 1)
		return AST_AS(last, Return)->value;
	if (!AST_IS(AST_AS(last, Return)->value, Name) || !AST_IS((first = fd->body.items[k]), Assign))
		return NULL;
	name = AST_AS(AST_AS(last, Return)->value, Name)->id;
	a = AST_AS(first, Assign);
	if (a->targets.n != 1 || !AST_IS(a->targets.items[0], Name) || strcmp(AST_AS(a->targets.items[0], Name)->id, name) ||
	    !keeps_conjunct(&fd->body, name, first, 0))
		return NULL;
	return a->value;
}

/* A parameter's index for an operand of the helper's modulo: the
 * parameter itself, or an attribute of it (`state.step`), or -1. */
static int operand_param(const struct ast_arguments *args, const struct ast_hdr *e)
{
	while (AST_IS(e, Attribute))
		e = AST_AS(e, Attribute)->value;
	return param_index(args, e);
}

/* divisible_by(step, every): a call, by name, of a function of the job
 * whose body returns `a % b == 0` (returned_modulo_test) on two of its
 * positional parameters or their attributes -> that modulo on the call's
 * arguments (a BinOp made for it, placed at the call), or NULL. */
static const struct ast_BinOp *helper_modulo(struct frame *f, const struct ast_hdr *e, int depth)
{
	const struct ast_Call *c;
	const struct ast_FunctionDef *fd;
	const struct ast_hdr *ret;
	const struct ast_BinOp *m;
	struct ast_BinOp *b;
	value_t *fn;
	unsigned i;
	int li, ri;

	if (!f || !AST_IS(e, Call) || !AST_IS(AST_AS(e, Call)->func, Name))
		return NULL;
	c = AST_AS(e, Call);
	for (i = 0; i < c->args.n; i++)
		if (AST_IS(c->args.items[i], Starred))
			return NULL;
	for (i = 0; i < c->keywords.n; i++)
		if (!AST_AS(c->keywords.items[i], keyword)->arg)      /* **kw */
			return NULL;
	fn = eval(f, c->func);
	if (fn->k != VK_FUNC || !AST_IS(fn->u.fn->def, FunctionDef) || fn->u.fn->owner)
		return NULL;
	fd = AST_AS(fn->u.fn->def, FunctionDef);
	if (!(ret = returned_modulo_test(fd)) || !AST_IS(ret, Compare) || !(m = find_modulo(NULL, ret, depth + 1)))
		return NULL;
	li = operand_param(fd->args, m->left);
	ri = param_index(fd->args, m->right);
	if (li < 0 || ri < 0 || li == ri || (unsigned)li >= c->args.n || (unsigned)ri >= c->args.n ||
	    names_rank(c->args.items[li]))
		return NULL;
	b = ast_arena_alloc(f->in->a, sizeof *b);
	b->h = c->h;
	b->h.kind = AST_BinOp;
	b->left = c->args.items[li];
	b->op = AST_OP_MOD;
	b->right = c->args.items[ri];
	return b;
}

const struct ast_BinOp *find_modulo(struct frame *f, const struct ast_hdr *e, int depth)
{
	unsigned i;

	if (!e || depth > 8)
		return NULL;
	if (AST_IS(e, Call))
		return helper_modulo(f, e, depth);
	/* `if d_regularize:` after `d_regularize = i % n == 0` in the loop (guardflag.c) */
	if (AST_IS(e, Name))
		return flag_modulo(f, AST_AS(e, Name), depth);
	if (AST_IS(e, BoolOp)) {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);

		for (i = 0; i < b->values.n; i++) {
			const struct ast_BinOp *m = find_modulo(f, b->values.items[i], depth + 1);

			if (m)
				return m;
		}
		return NULL;
	}
	if (AST_IS(e, Compare)) {
		const struct ast_Compare *c = AST_AS(e, Compare);

		if (c->ops.n == 1 && (c->ops.items[0] == AST_CMP_EQ) && AST_IS(c->left, BinOp) &&
		    AST_AS(c->left, BinOp)->op == AST_OP_MOD && !names_rank(AST_AS(c->left, BinOp)->left))
			return AST_AS(c->left, BinOp);
	}
	/* `not it % N`: it % N == 0 (guided-diffusion's `not step % args.log_interval`) */
	if (AST_IS(e, UnaryOp) && AST_AS(e, UnaryOp)->op == AST_UNARY_NOT) {
		const struct ast_hdr *o = AST_AS(e, UnaryOp)->operand;

		if (AST_IS(o, BinOp) && AST_AS(o, BinOp)->op == AST_OP_MOD && !names_rank(AST_AS(o, BinOp)->left))
			return AST_AS(o, BinOp);
	}
	return NULL;
}

/* The Name of `NAME`, `NAME + K`, `NAME - K` or `K + NAME` (K an int
 * literal), or NULL. */
static const struct ast_hdr *pass_counter_operand(const struct ast_hdr *e)
{
	const struct ast_BinOp *b;
	const struct ast_hdr *k;

	if (e && AST_IS(e, Name))
		return e;
	if (!e || !AST_IS(e, BinOp))
		return NULL;
	b = AST_AS(e, BinOp);
	if (b->op != AST_OP_ADD && b->op != AST_OP_SUB)
		return NULL;
	if (AST_IS(b->left, Name))
		k = b->right;
	else if (b->op == AST_OP_ADD && AST_IS(b->right, Name))
		k = b->left;
	else
		return NULL;
	if (!AST_IS(k, Constant) || AST_AS(k, Constant)->value.kind != AST_CONST_INT)
		return NULL;
	return k == b->right ? b->left : b->right;
}

/* A guard's period from its divisor's value: an int > 0, or a float of
 * an integral value (`(i + 1) % 1e+5 == 0` over an int counter holds every
 * 100000 passes: float arithmetic is exact on such ints); -1 otherwise. */
static long long guard_period(const value_t *p)
{
	int ok;
	long long n = as_int(p, &ok);

	if (ok)
		return n > 0 ? n : -1;
	if (p && p->k == VK_FLOAT && p->u.f >= 1.0 && p->u.f <= 9007199254740992.0 &&
	    p->u.f == (double)(long long)p->u.f)
		return (long long)p->u.f;
	return -1;
}

struct ctr_walk {
	struct frame *f;
	const char *text;             /* the counter as written: "step", "self.global_step" */
	int hit;
};

static int ctr_cb(const struct ast_hdr *e, void *ctx)
{
	struct ctr_walk *w = ctx;

	if (AST_IS(e, Name) || AST_IS(e, Attribute)) {
		const char *t = text_of(w->f, e);

		if (t && !strcmp(t, w->text))
			return w->hit = 1;
		if (AST_IS(e, Name))
			return 0;
	}
	return ast_visit_children(e, ctr_cb, ctx);
}

/* Does expression e read the periodic test's counter (the name or
 * attribute of `x % n`'s x, or of `(x + 1) % n`'s)? */
static int reads_counter(struct frame *f, const struct ast_hdr *e, const struct ast_BinOp *m)
{
	const struct ast_hdr *x = m ? m->left : NULL;
	struct ctr_walk w = { f, NULL, 0 };

	if (x && AST_IS(x, BinOp) && (AST_AS(x, BinOp)->op == AST_OP_ADD || AST_AS(x, BinOp)->op == AST_OP_SUB)) {
		const struct ast_BinOp *b = AST_AS(x, BinOp);

		x = AST_IS(b->right, Constant) ? b->left : AST_IS(b->left, Constant) ? b->right : NULL;
	}
	if (!e || !x || (!AST_IS(x, Name) && !AST_IS(x, Attribute)) || !(w.text = text_of(f, x)))
		return 0;
	(void)ctr_cb(e, &w);
	return w.hit;
}

/* What a guard's test holds besides its period (jctx.rest), or NULL: the
 * operands of its `and` that are neither the periodic test nor a test of
 * its counter or of another name each pass of the loop changes (`step >
 * 0`, `is_last`), nor decided (a name, attribute or comparison read again:
 * known truthy), joined by "and" -- `cfg.env` of `cfg.env and is_eval_step`
 * with cfg.env not known.  An `or` with such an operand (`step % n == 0 or
 * args.force`) is its whole text: the period alone does not say when it
 * holds.  Operands with a call are kept (not read twice). */
static const char *guard_rest(struct frame *f, const struct ast_hdr *test, const struct ast_BinOp *m,
                              const char *text)
{
	const struct ast_BoolOp *b;
	const char *rest = NULL;
	unsigned i, n = 0;

	if (!test || !text || !AST_IS(test, BoolOp))
		return NULL;
	b = AST_AS(test, BoolOp);
	for (i = 0; i < b->values.n; i++) {
		const struct ast_hdr *o = b->values.items[i];
		const char *own;

		if (find_modulo(f, o, 1) || reads_counter(f, o, m) || (f->carry && carry_reads_varying(f->carry, o)))
			continue;     /* the period, or a test of what each pass changes */
		if (test_pure(o) && value_truth(eval(f, o)) >= 0)
			continue;     /* decided on every pass */
		if (!(own = text_of(f, o)))
			continue;
		if (AST_IS(o, BoolOp) || AST_IS(o, IfExp) || AST_IS(o, Lambda) || AST_IS(o, NamedExpr))
			own = afmt(f->in, "(%s)", own);
		rest = n++ ? afmt(f->in, "%s and %s", rest, own) : own;
	}
	if (n && b->op == AST_BOOL_OR)
		return text;
	return rest;
}

const struct jctx *guard_ctx(struct frame *f, const struct ast_hdr *test, const char *text)
{
	const struct ast_BinOp *m = find_modulo(f, test, 0);

	if (!m)
		return jc_push(f, JC_COND, anchor_at(f, test), text);
	return guard_ctx_mod(f, test, m, text);
}

const struct jctx *guard_ctx_mod(struct frame *f, const struct ast_hdr *test, const struct ast_BinOp *m,
                                 const char *text)
{
	struct jctx *j;

	j = (struct jctx *)jc_push(f, JC_GUARD, anchor_at(f, test), text);
	j->rest = guard_rest(f, test, m, text);
	{
		value_t *p = eval(f, m->right);

		j->period = guard_period(p);
		j->period_expr = text_of(f, m->right);
		j->counter = NULL;
		/* `cur_tick % snapshot_ticks == 0` with cur_tick incremented
		 * after the loop's per-tick `continue`: every N ticks, not
		 * every N passes of the loop */
		if (f->mode != M_FWD && AST_IS(m->left, Name) && !carry_counts_passes(f, AST_AS(m->left, Name)->id))
			j->counter = AST_AS(m->left, Name)->id;
		/* `idx % 100 == 0` on the loop's own counter: it counts that
		 * loop's passes (schedule.c: an evaluation loop's, not steps) */
		j->counts_loop = f->mode != M_FWD && AST_IS(m->left, Name) &&
		                 (carry_counts_passes(f, AST_AS(m->left, Name)->id) == 1 ||
		                  carry_for_target_binds(f, AST_AS(m->left, Name)->id));
		{
			/* `(i + 1) % accum == 0`: the counter shifted by a literal */
			const struct ast_hdr *x = pass_counter_operand(m->left);

			j->counts_passes = f->mode != M_FWD && x &&
			                   (carry_counts_passes(f, AST_AS(x, Name)->id) == 1 ||
			                    carry_for_target_binds(f, AST_AS(x, Name)->id));
		}
		/* `update_step % eval_every == 0` on a counter bumped once a
		 * pass that passes `if step % n != 0: continue` (contguard.c):
		 * every P * n passes of the pass counter, read as a test of it */
		if (f->mode != M_FWD && j->counter && j->period > 0) {
			const char *ne = NULL;
			long long k = continue_count_rate(f, m, &ne);

			if (k > 1) {
				j->counter = NULL;
				j->counts_passes = 1;
				j->period *= k;
				j->period_expr = afmt(f->in, "%s*%s", j->period_expr ? j->period_expr : "?", ne ? ne : "?");
				return j;
			}
		}
		/* `global_step % eval_interval == 0 and is_update_step` with
		 * global_step advanced under is_update_step, every accum
		 * passes (countrate.c): every period * accum passes */
		/* `state.cur_nimg % status_nimg == 0` with cur_nimg advanced by
		 * batch_size every pass (stridectr.c): every status_nimg /
		 * batch_size passes */
		if (f->mode != M_FWD && !j->counter && j->period > 0) {
			const char *se = NULL;
			long long s = stride_period(f, m, j->period, &se);

			if (s > 0) {
				j->period = s;
				j->period_expr = se;
				return j;
			}
		}
		if (f->mode != M_FWD && !j->counter && j->period > 0) {
			const char *ne = NULL;
			long long k = countrate_period(f, test, m, &ne);

			if (k > 1) {
				j->period *= k;
				j->period_expr = afmt(f->in, "%s*%s", j->period_expr, ne ? ne : "?");
			}
		}
	}
	return j;
}

/* @app.post("/generate"), @app.route(...), @router.get(...) on an object of
 * a web framework: a request handler the framework will call. */
int is_route_decorator(struct frame *f, const struct ast_hdr *d)
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

/* What a decorator of a def tells beyond Python: @torch.no_grad() and
 * @torch.inference_mode() mark the function; in job mode,
 * @app.on_event(...) makes it a startup hook and a web framework's route
 * decorator a request handler (the first one is the server's anchor). */
/* @torch.compile or @torch.compile(mode=..., ...) over a def: a compile
 * region, anchored at the decorator, whose target is the function. */
static void compile_decorator_hook(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	struct sched_ev *e;
	unsigned i;

	if (f->mode == M_FWD || !(e = sev(f, SEV_COMPILE, "torch.compile", d)))
		return;
	e->target = fv->u.fn->qualname;
	for (i = 0; AST_IS(d, Call) && i < AST_AS(d, Call)->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(AST_AS(d, Call)->keywords.items[i], keyword);
		value_t *m;

		if (k->arg && !strcmp(k->arg, "mode") && (m = eval(f, k->value))->k == VK_STR)
			e->op = m->u.str.s;
	}
}

/* The decorators of a def that change how it runs, by the dotted name
 * the decorator (or the callee of a decorator call) evaluates to. */
static void deco_no_grad(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	(void)f, (void)d;
	fv->u.fn->no_grad = 1;
}

static void deco_compile(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	compile_decorator_hook(f, fv, d);
}

static void deco_cached(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	(void)f, (void)d;
	fv->u.fn->cached = 1;
}

static void deco_hydra(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	hydra_task_config(f, fv, d);
}

static void deco_ctxmanager(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	(void)f, (void)d;
	fv->u.fn->ctxmanager = 1;
}

static const struct deco_hook {
	const char *name;
	void (*fn)(struct frame *f, value_t *fv, const struct ast_hdr *d);
} deco_hooks[] = {
	{ "contextlib.contextmanager", deco_ctxmanager },
	{ "functools.cache", deco_cached },
	{ "functools.lru_cache", deco_cached },
	{ "hydra.main", deco_hydra },
	{ "torch.compile", deco_compile },
	{ "torch.inference_mode", deco_no_grad },
	{ "torch.no_grad", deco_no_grad },
};

const struct ntab deco_hooks_ntab = NTAB(deco_hooks);

void decorator_hooks(struct frame *f, value_t *fv, const struct ast_hdr *st, const struct ast_hdr *d)
{
	struct interp *in = f->in;

	{
		const struct ast_hdr *dd = AST_IS(d, Call) ? AST_AS(d, Call)->func : d;
		value_t *dv = AST_IS(dd, Attribute) || AST_IS(dd, Name) ? eval(f, dd) : NULL;
		const struct deco_hook *h = dv && dv->k == VK_EXT ? NTAB_FIND(deco_hooks, dv->u.ext) : NULL;

		if (h)
			h->fn(f, fv, d);
	}
	if (f->mode != M_FWD && AST_IS(d, Call) && AST_IS(AST_AS(d, Call)->func, Attribute) &&
	    !strcmp(AST_AS(AST_AS(d, Call)->func, Attribute)->attr, "on_event") && in->nstartup < 16)
		in->startup[in->nstartup++] = fv;
	else if (f->mode != M_FWD && is_route_decorator(f, d) && in->nhandlers < 64) {
		in->handlers[in->nhandlers].fn = fv;
		/* the handler's own anchor (its code object's first line, the
		 * first decorator's): the step of a server */
		in->handlers[in->nhandlers].anchor = fv->k == VK_FUNC && fv->u.fn->qualname
		                                     ? aanchor(in, fv->u.fn->file->path, fv->u.fn->qualname,
		                                               func_first_line(st))
		                                     : anchor_at(f, st);
		in->nhandlers++;
		if (!in->ev.server)
			in->ev.server = anchor_at(f, d);
	}
}

/* Does v name a CUDA device: a torch.device of type 'cuda', or a str
 * starting with "cuda"?  (Not a bare index: a timer testing
 * str(device).startswith("cuda") says no to it.) */
int names_cuda(const value_t *v)
{
	if (v && v->k == VK_STR)
		return !strncmp(v->u.str.s, "cuda", 4);
	if (v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device")) {
		const value_t *t = vdict_gets(v->u.inst->attrs, "type");

		return t && t->k == VK_STR && !strcmp(t->u.str.s, "cuda");
	}
	return 0;
}

/* `with timer:` of a library's timing context manager (catalog
 * syncing_timers) built with a CUDA device by its keyword: it
 * synchronizes the device on enter and on exit, one sync at the `with`
 * (job mode). */
static void timer_sync(struct frame *f, const struct ast_hdr *st, const struct ast_withitem *wi, const value_t *cv)
{
	struct interp *in = f->in;
	const char *kw;

	if (f->mode == M_FWD || cv->k != VK_INST || !cv->u.inst->ext || !cv->u.inst->args ||
	    !(kw = catalog_fact(in->cat, CATALOG_F_SYNCING_TIMERS, canon_ext(in, cv->u.inst->ext))))
		return;
	if (names_cuda(vdict_gets(cv->u.inst->args, kw)))
		sev(f, SEV_SYNC, afmt(in, "%s (a timer that synchronizes the device on enter and exit)",
		                      text_of(f, wi->context_expr)), st);
}

/* `with torch.cuda.graph(g):` -- a torch context manager whose __enter__
 * synchronizes the device (catalog syncing_contexts): a sync at the
 * `with` (job mode) */
static void context_sync(struct frame *f, const struct ast_hdr *st, const struct ast_withitem *wi, const value_t *cv)
{
	struct interp *in = f->in;
	const char *why;

	if (f->mode == M_FWD || cv->k != VK_INST || !cv->u.inst->ext ||
	    !(why = catalog_fact(in->cat, CATALOG_F_SYNCING_CONTEXTS, canon_ext(in, cv->u.inst->ext))))
		return;
	sev(f, SEV_SYNC, afmt(in, "%s (%s)", text_of(f, wi->context_expr), why), st);
}

/* The passes of a library's sync-skip block (`with
 * fabric.no_backward_sync(model, enabled=is_accumulating):`) a step
 * takes: n when a flag it is given by name cycles every n passes of the
 * loop (`is_accumulating = it % n != 0`, guardflag.c), n known; else -1. */
static long long sync_skip_period(struct frame *f, const struct ast_hdr *call)
{
	const struct ast_Call *c;
	const struct ast_hdr *x;
	const struct ast_BinOp *m = NULL;
	unsigned i;
	long long n;
	int ok;

	if (!AST_IS(call, Call))
		return -1;
	c = AST_AS(call, Call);
	for (i = 0; i < c->args.n + c->keywords.n && !m; i++) {
		x = i < c->args.n ? c->args.items[i] : AST_AS(c->keywords.items[i - c->args.n], keyword)->value;
		if (AST_IS(x, Name))
			m = flag_cycle_modulo(f, AST_AS(x, Name));
	}
	if (!m)
		return -1;
	n = as_int(eval(f, m->right), &ok);
	return ok && n > 0 ? n : -1;
}

/* The job context a `with` item opens (statement st, item wi whose
 * context manager evaluated to cv): no_grad (and *ng set to 1), autocast,
 * a CUDA stream, DDP's no_sync; NULL for any other context manager.  The
 * caller makes it f->jc for the body. */
const struct jctx *with_jctx(struct frame *f, const struct ast_hdr *st, const struct ast_withitem *wi,
                             value_t *cv, int *ng)
{
	struct interp *in = f->in;
	const struct jctx *pushed = NULL;
	const value_t *flag;
	int skip;

	timer_sync(f, st, wi, cv);
	context_sync(f, st, wi, cv);
	if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.no_grad")) {
		*ng = 1;
		if (!in->ev.no_grad && f->mode != M_FWD)
			in->ev.no_grad = anchor_at(f, st);
		pushed = jc_push(f, JC_NO_GRAD, anchor_at(f, st), text_of(f, wi->context_expr));
	} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.autocast")) {
		pushed = jc_push(f, JC_AUTOCAST, anchor_at(f, st), text_of(f, wi->context_expr));
	} else if (cv->k == VK_INST && cv->u.inst->ext && !strcmp(cv->u.inst->ext, "torch.cuda.stream")) {
		value_t *t = vdict_gets(cv->u.inst->attrs, "text");

		pushed = jc_push(f, JC_STREAM, anchor_at(f, st), t && t->k == VK_STR ? t->u.str.s : "a stream");
	} else if (framework_accumulation(in, cv) && framework_accumulation(in, cv) != 1) {
		/* a library's accumulation block: a micro-step */
		struct jctx *j = (struct jctx *)jc_push(f, JC_ACCUM, anchor_at(f, st), text_of(f, wi->context_expr));

		j->period = framework_accumulation(in, cv);
		pushed = j;
	} else if ((skip = framework_sync_skip(in, cv, &flag)) == 2) {
		/* a library's sync skip on the micro-steps its flag says: the
		 * block is a micro-step; `if not <flag>:` ends a step */
		struct jctx *j = (struct jctx *)jc_push(f, JC_ACCUM, anchor_at(f, st), text_of(f, wi->context_expr));

		in->accum_flag = flag;
		j->period = sync_skip_period(f, wi->context_expr);
		pushed = j;
	} else if (skip == 1 ||
	           (AST_IS(wi->context_expr, Call) && AST_IS(AST_AS(wi->context_expr, Call)->func, Attribute) &&
	            !strcmp(AST_AS(AST_AS(wi->context_expr, Call)->func, Attribute)->attr, "no_sync"))) {
		pushed = jc_push(f, JC_NO_SYNC, anchor_at(f, st), text_of(f, wi->context_expr));
	}
	return pushed;
}

/* The calls that start worker processes running a target function
 * (mp.spawn, Process). */
static const char *const job_spawners[] = {
	"multiprocessing.Process", "torch.multiprocessing.Process", "torch.multiprocessing.spawn",
	"torch.multiprocessing.spawn.spawn", "torch.multiprocessing.start_processes",
};

/* c without its loops (JC_LOOP, JC_REPEAT): the context a worker process
 * started in a loop runs its target in.  `for rank in range(n):
 * Process(target=fn, ...).start()` starts n processes, each running fn
 * once: the loop repeats processes, not fn's work, so what fn does is
 * per process (its start-up once, its own loops its steps).  Conditions,
 * guards and with-blocks around the start stay.  c itself when it holds
 * no loop; otherwise a copy of the other nodes in the arena (never
 * fails). */
static const struct jctx *jc_without_loops(struct interp *in, const struct jctx *c)
{
	const struct jctx *m, *up;
	struct jctx *j;

	for (m = c; m && m->kind != JC_LOOP && m->kind != JC_REPEAT; m = m->up)
		;
	if (!m)
		return c;
	if (c->kind == JC_LOOP || c->kind == JC_REPEAT)
		return jc_without_loops(in, c->up);
	up = jc_without_loops(in, c->up);
	j = ast_arena_alloc(in->a, sizeof *j);
	*j = *c;
	j->up = up;
	j->rerooted = NULL;
	return j;
}

/* The calls that write the job's outputs: by dotted name, and methods
 * by last name (DataFrame.to_csv, torchvision's save_image). */
static const char *const job_writers[] = {
	"json.dump", "np.save", "numpy.save", "numpy.savez", "pickle.dump", "torch.save",
};
static const char *const job_writer_methods[] = { "save_image", "to_csv", "to_parquet" };

const struct ntab job_spawners_ntab = NTAB(job_spawners), job_writers_ntab = NTAB(job_writers),
                  job_writer_methods_ntab = NTAB(job_writer_methods);

/* Does v hold an nn.Module (itself, or in a dict, list or tuple, a few
 * levels down)? */
static int holds_module(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > 4)
		return 0;
	if (v->k == VK_INST)
		return v->u.inst->mod != VM_NONE;
	if (v->k == VK_DICT) {
		for (i = 0; i < v->u.dict->n; i++)
			if (holds_module(v->u.dict->vals[i], depth + 1))
				return 1;
	} else if ((v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq) {
		for (i = 0; i < v->u.seq->n; i++)
			if (holds_module(v->u.seq->items[i], depth + 1))
				return 1;
	}
	return 0;
}

/* "GradScaler.state_dict" of "torch.amp.GradScaler.state_dict": the last
 * two parts of a dotted name (a pointer into d), NULL when it has fewer
 * than three. */
static const char *class_method_of(const char *d)
{
	const char *p = strrchr(d, '.');

	if (!p)
		return NULL;
	while (p > d && p[-1] != '.')
		p--;
	return p > d ? p : NULL;
}

/* init_process_group(backend="nccl" if <test> else "gloo"), its test
 * not decided: "nccl" on the path that names it, *cond set to that
 * path's condition (the test, or "not (test)"); NULL when the backend
 * argument is no such choice between two literal names, one of them
 * NCCL.  The text is the interpreter's. */
static const char *backend_by_test(struct frame *f, const struct ast_hdr *site, const char **cond)
{
	const struct ast_Call *c = AST_IS(site, Call) ? AST_AS(site, Call) : NULL;
	const struct ast_hdr *e = NULL;
	const struct ast_IfExp *x;
	int arm;
	unsigned i;

	if (!c)
		return NULL;
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);

		if (k->arg && !strcmp(k->arg, "backend"))
			e = k->value;
	}
	if (!e && c->args.n)
		e = c->args.items[0];
	if (!AST_IS(e, IfExp))
		return NULL;
	x = AST_AS(e, IfExp);
	if (!AST_IS(x->body, Constant) || AST_AS(x->body, Constant)->value.kind != AST_CONST_STR ||
	    !AST_IS(x->orelse, Constant) || AST_AS(x->orelse, Constant)->value.kind != AST_CONST_STR)
		return NULL;
	arm = !strcmp(AST_AS(x->body, Constant)->value.s, "nccl") ? 0
	      : !strcmp(AST_AS(x->orelse, Constant)->value.s, "nccl") ? 1 : -1;
	if (arm < 0)
		return NULL;
	*cond = arm == 0 ? afmt_memo(f->in, "the backend is NCCL: %s", text_of(f, x->test), NULL)
	                 : afmt_memo(f->in, "the backend is NCCL: not (%s)", text_of(f, x->test), NULL);
	return "nccl";
}

/* What a call of an external does to the job besides its value (job mode
 * only): mp.spawn / Process run their target function once, as one
 * process of the job; torch.save, json.dump, to_csv ... are the job's
 * first write (evidence); scaler.step(optimizer) is an optimizer step
 * (and, for a GradScaler not built disabled, a sync).  d is the canonical
 * dotted name, last its last component, recv the object of a method. */
static void host_copying_call(struct frame *f, const char *d, value_t **args, size_t nargs, const struct vdict *kw,
                              const struct ast_hdr *site);

const char *object_host_read_gate(struct interp *in, const char *d, const char **cm)
{
	const char *gate = catalog_fact(in->cat, CATALOG_F_OBJECT_HOST_READS, d);
	const char *c = d;

	if (!gate && !strncmp(d, "torch.", 6) && (c = class_method_of(d)))
		gate = catalog_fact(in->cat, CATALOG_F_OBJECT_HOST_READS, c);
	if (cm)
		*cm = c ? c : d;
	return gate;
}

/* The text of scaler.step(x)'s x, for a row's condition ("the optimizer"
 * when the call has none). */
static const char *scaler_step_arg(struct frame *f, const struct ast_hdr *site)
{
	return site && AST_IS(site, Call) && AST_AS(site, Call)->args.n ? text_of(f, AST_AS(site, Call)->args.items[0])
	                                                                 : "the optimizer";
}

/* Is a gate of object_host_reads ("enabled" or "enabled,_scale": the
 * object's attributes, by comma) closed on recv: one of them known False
 * or None (a scaler built disabled, or one that never scaled)? */
static int object_gate_closed(struct interp *in, const value_t *recv, const char *gate)
{
	while (gate && *gate) {
		const char *comma = strchr(gate, ',');
		size_t n = comma ? (size_t)(comma - gate) : strlen(gate);
		const char *name = afmt(in, "%.*s", (int)n, gate);

		if (value_truth(vdict_gets(recv->u.inst->attrs, name)) == 0)
			return 1;
		gate = comma ? comma + 1 : NULL;
	}
	return 0;
}

void ext_job_effects(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	host_copying_call(f, d, args, nargs, kw, site);
	adapter_injection_call(f, d, args, nargs, kw, site);
	/* a library class whose constructor makes a tensor from Python data
	 * on the device (DeepSpeed's FusedAdam: IntTensor([0]) there) */
	if (f->mode != M_FWD && catalog_fact(in->cat, CATALOG_F_DEVICE_DATA_CONSTRUCTORS, d)) {
		struct sched_ev *e = sev(f, SEV_H2D, afmt(in, "%s(...) (a tensor made from Python data on the device)", last),
		                         site);

		if (e) {
			e->pinned = 0;
			e->non_blocking = 0;
		}
		in->gpu = 1;
	}

	/* the process group the job starts (torch.distributed.is_initialized()
	 * is false until then, when the environment is known: torch.c) */
	if (!strcmp(last, "init_process_group") || strstr(last, "init_distributed") ||
	    !strcmp(d, "deepspeed.initialize") || strstr(d, "initialize_model_parallel"))
		in->dist_init = 1;
	/* torch's own, on every path the job runs: the group exists after it
	 * (the call raises otherwise, and the run described goes on) */
	if (!strcmp(d, "torch.distributed.init_process_group") && f->mode != M_FWD && !jc_find(f->jc, JC_COND) &&
	    !jc_find(f->jc, JC_GUARD))
		in->dist_init_sure = 1;
	if (!strcmp(d, "torch.distributed.destroy_process_group"))
		in->dist_init_sure = 0;
	/* torch.distributed.init_process_group(backend, ...): the backend,
	 * when every call read names the same one */
	if (!strcmp(d, "torch.distributed.init_process_group")) {
		const value_t *b = kw && vdict_gets(kw, "backend") ? vdict_gets(kw, "backend") : nargs >= 1 ? args[0] : NULL;

		const char *cond = NULL, *name = b && b->k == VK_STR ? b->u.str.s : backend_by_test(f, site, &cond);

		/* (world_size, the fourth positional parameter, when given) */
		const value_t *w = kw && vdict_gets(kw, "world_size") ? vdict_gets(kw, "world_size") : nargs >= 4 ? args[3] : NULL;

		if (w)
			parallel_note_group(f, w, site);
		if (!name || (in->dist_backend && (strcmp(in->dist_backend, name) ||
		                                   (cond ? !in->dist_backend_cond || strcmp(cond, in->dist_backend_cond)
		                                         : in->dist_backend_cond != NULL))))
			in->dist_backend_mixed = 1;
		else {
			in->dist_backend = name;
			in->dist_backend_cond = cond;
		}
	}
	/* a call that fails with no GPU, or an NCCL group, on a path the
	 * job always takes: the GPU is sure (devchoice.c) */
	if (catalog_fact(in->cat, CATALOG_F_GPU_REQUIRING_CALLS, d) ||
	    (!strcmp(d, "torch.distributed.init_process_group") && in->dist_backend && !in->dist_backend_mixed &&
	     !in->dist_backend_cond && !strcmp(in->dist_backend, "nccl")))
		devchoice_sure(f);
	/* an optimizer built by job code (torch.optim.AdamW(...), a
	 * library's FusedAdam): the job means to train */
	if (f->mode != M_FWD && !in->ev.optimizer_built && last[0] >= 'A' && last[0] <= 'Z' &&
	    (is_optim_ext(d) || ext_is_optimizer_class(in->cat, d)))
		in->ev.optimizer_built = anchor_at(f, site);
	/* worker processes run job code: mp.spawn(fn, args=(...)) calls
	 * fn(rank, *args) in each; Process(target=fn, args=(...)) calls
	 * fn(*args).  Read once, as one process of the job: a Process
	 * started in a loop (one per device) runs fn once, outside the
	 * parent's loops (jc_without_loops); mp.spawn starts its whole
	 * group in one call, so a loop around it repeats the group. */
	if (f->mode != M_FWD && NAME_IN(job_spawners, d)) {
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
			const struct jctx *ojc = f->jc;

			if (spawn)
				cargs[nc++] = v_unknown(in->a, "rank", "the process index mp.spawn passes");
			for (i = 0; i < np; i++)
				cargs[nc++] = pargs->u.seq->items[i];
			if (!spawn)
				f->jc = jc_without_loops(in, f->jc);
			(void)call_function(f, target->u.fn, NULL, cargs, nc, NULL, M_JOB, NULL, site);
			f->jc = ojc;
		}
	}
	if (f->mode != M_FWD && !in->ev.write && (NAME_IN(job_writers, d) || NAME_IN(job_writer_methods, last)))
		in->ev.write = anchor_at(f, site);
	/* pickle.dump of an object holding a module (a snapshot of the
	 * model, as NVlabs' training loops write network-snapshot-*.pkl): a
	 * save of the model, so the block that makes it is checkpoint work.
	 * What it writes is host data by then (nothing read here) */
	if (f->mode != M_FWD && !strcmp(d, "pickle.dump") && nargs >= 1 && holds_module(args[0], 0))
		sev(f, SEV_SAVE, "pickle.dump (an object holding a module)", site);
	if (f->mode != M_FWD && !strcmp(last, "step") && nargs >= 1 && is_optimizer(args[0])) {
		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, SEV_OPT_STEP, "scaler.step(optimizer)", site);
		optim_step_collective(f, args[0]->u.inst, site);
		/* a GradScaler built with enabled=False (known) steps the
		 * optimizer and reads nothing; nor does one stepping an
		 * optimizer that takes found_inf into its own fused step
		 * (torch.optim.AdamW(fused=True): _step_supports_amp_scaling,
		 * torch/amp/grad_scaler.py step) -- a condition when whether
		 * it does is not known */
		if (strstr(d, "GradScaler") &&
		    !(recv && recv->k == VK_INST && value_truth(vdict_gets(recv->u.inst->attrs, "enabled")) == 0)) {
			const value_t *own = vdict_gets(args[0]->u.inst->attrs, OPT_SCALES_OWN_STEP);
			int t = own ? value_truth(own) : 0;

			if (t < 0) {
				const struct jctx *ojc = f->jc;

				f->jc = jc_push(f, JC_COND, anchor_at(f, site),
				                afmt(in, "%s does not take the scaler into its own step (fused=True)",
				                     scaler_step_arg(f, site)));
				sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
				f->jc = ojc;
			} else if (!t) {
				sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
			}
		}
	}
	/* scaler.step(x) of an enabled GradScaler with x not known (a
	 * library's optimizer factory not read): x is an optimizer (the API's
	 * one argument), stepped; found_inf is read with .item() unless x is
	 * one that takes the scaler into its own step (fused=True) -- said in
	 * the row's condition */
	else if (f->mode != M_FWD && !strcmp(last, "step") && nargs >= 1 && args[0]->k == VK_UNKNOWN &&
	         !args[0]->alts && strstr(d, "GradScaler") && recv && recv->k == VK_INST &&
	         value_truth(vdict_gets(recv->u.inst->attrs, "enabled")) != 0) {
		const struct jctx *ojc = f->jc;

		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, SEV_OPT_STEP, "scaler.step(optimizer)", site);
		f->jc = jc_push(f, JC_COND, anchor_at(f, site),
		                afmt(in, "%s, not known here, does not take the scaler into its own step (fused=True)",
		                     scaler_step_arg(f, site)));
		sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
		f->jc = ojc;
	}
	/* scaler.state_dict(): a method of an object of an outside class that
	 * reads device values on the host (catalog object_host_reads: by the
	 * whole dotted name, or for a torch class by its last name and the
	 * method) -- unless the attribute the catalog names is known False on
	 * the object (a GradScaler built with enabled=False) */
	if (f->mode != M_FWD && recv && recv->k == VK_INST && recv->u.inst->ext) {
		const char *cm = d;
		const char *gate = object_host_read_gate(in, d, &cm);

		if (gate && !object_gate_closed(in, recv, gate))
			sev(f, SEV_SYNC, afmt(in, "%s() (reads device values with .item())", cm), site);
	}
	/* scaler.scale(loss): the scale tensor exists on the device from now
	 * on (torch's lazy init of GradScaler._scale), for state_dict() to read */
	if (recv && recv->k == VK_INST && recv->u.inst->ext && strstr(d, "GradScaler.") && !strcmp(last, "scale") &&
	    vdict_gets(recv->u.inst->attrs, "_scale"))
		vdict_sets(in->a, recv->u.inst->attrs, "_scale",
		           v_unknown(in->a, NULL, "the scale tensor scale() made on the device"));
	/* amp.scale_loss(loss, optimizer), larc.step(): a library's call that
	 * reads device values on the host every time (catalog
	 * library_host_reads), once the job puts its work on a GPU */
	if (f->mode != M_FWD && in->gpu && catalog_fact(in->cat, CATALOG_F_LIBRARY_HOST_READS, d))
		sev(f, SEV_SYNC, afmt(in, "%s() (reads device values on the host)", d), site);
	/* ema.update() of a library module moved to a device, which reads
	 * its own buffers on the host (catalog device_module_host_reads); a
	 * move under an undecided condition (on_device 2): under that one */
	if (f->mode != M_FWD && recv && recv->k == VK_INST && recv->u.inst->ext && recv->u.inst->on_device &&
	    catalog_fact(in->cat, CATALOG_F_DEVICE_MODULE_HOST_READS, d)) {
		const struct jctx *ojc = f->jc;

		if (recv->u.inst->on_device != 1)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site),
			                "the module was moved to the device (under a condition not decided here)");
		sev(f, SEV_SYNC, afmt(in, "%s() (reads the module's device buffers with .item())", d), site);
		f->jc = ojc;
	}
	/* scaler.unscale_(optimizer) of FSDP's ShardedGradScaler: a method
	 * of a torch object that all-reduces over the default group
	 * (catalog object_collective_methods 'OP:GATE') */
	if (f->mode != M_FWD && in->dist_init && recv && recv->k == VK_INST && recv->u.inst->ext &&
	    !strncmp(d, "torch.", 6)) {
		const char *cm = class_method_of(d), *fact = cm ? catalog_fact(in->cat, CATALOG_F_OBJECT_COLLECTIVES_METHODS, cm) : NULL;
		const char *colon = fact ? strchr(fact, ':') : NULL;
		struct sched_ev *e;

		const value_t *g = colon ? vdict_gets(recv->u.inst->attrs, colon + 1) : NULL;

		if (colon && (!g || value_truth(g) != 0) &&
		    (e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site))) {
			const char *dot = strchr(cm, '.');

			e->op = astr(in, afmt(in, "%.*s", (int)(colon - fact), fact));
			e->parallelism = "data";
			e->async_op = -1;
			e->implied_by = astr(in, afmt(in, "%.*s", (int)(dot - cm), cm));
		}
	}
}

/* Is v an optimizer: an instance of a torch.optim class, or of the
 * repository's own subclass of one (nanochat's MuonAdamW)?  Not an LR
 * scheduler. */
int is_optimizer(const value_t *v)
{
	const char *base;

	if (!v || v->k != VK_INST)
		return 0;
	if (v->u.inst->ext)
		return is_optim_ext(v->u.inst->ext);
	base = v->u.inst->cls ? class_ext_base(v->u.inst->cls) : NULL;
	return is_optim_ext(base);
}

/* Is the dotted name a torch optimizer class: torch.optim.*, or one of
 * torch.distributed.optim (ZeroRedundancyOptimizer, which wraps one)?
 * Not an LR scheduler. */
int is_optim_ext(const char *name)
{
	return name && (!strncmp(name, "torch.optim.", 12) || !strncmp(name, "torch.distributed.optim.", 24)) &&
	       !strstr(name, "lr_scheduler");
}

/* optimizer = create_optimizer(args, model): a function of another
 * library that catalog/torch_facts.json lists (optimizer_factories) as
 * building a torch optimizer.  In job code an optimizer object (its class
 * not known: "torch.optim.Optimizer"), whose step() and zero_grad() are the
 * job's (torch.c optim_method), and the evidence that the job means to
 * train; NULL for another callee, or in a forward. */
value_t *optimizer_factory_call(struct frame *f, const char *d, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o;

	if (f->mode == M_FWD || !catalog_fact(in->cat, CATALOG_F_OPTIMIZER_FACTORIES, d))
		return NULL;
	o = new_inst(in);
	o->ext = "torch.optim.Optimizer";
	if (!in->ev.optimizer_built)
		in->ev.optimizer_built = anchor_at(f, site);
	return mk_inst_value(in, o);
}

/* metric = evaluate.load("glue"): a function of another library that
 * catalog/torch_facts.json lists (library_object_factories) as returning
 * an object of one of its classes: that object, whose methods are read by
 * their dotted names.  NULL for another callee. */
value_t *library_object_call(struct frame *f, const char *d)
{
	struct interp *in = f->in;
	const char *cls = catalog_fact(in->cat, CATALOG_F_LIBRARY_OBJECT_FACTORIES, d);
	struct vinst *o;

	if (!cls)
		return NULL;
	o = new_inst(in);
	o->ext = cls;
	return mk_inst_value(in, o);
}

/* Is v a device tensor, or a tuple, list or dict holding one? */
static int holds_device_tensor(const value_t *v)
{
	size_t i;

	if (is_tensorish(v))
		return v->dev == DEV_DEVICE;
	if (v->k == VK_TUPLE || v->k == VK_LIST)
		for (i = 0; i < v->u.seq->n; i++)
			if (is_tensorish(v->u.seq->items[i]) && v->u.seq->items[i]->dev == DEV_DEVICE)
				return 1;
	/* a dict of logged values (wandb.log({"loss": loss})) */
	if (v->k == VK_DICT)
		for (i = 0; i < v->u.dict->n; i++)
			if (is_tensorish(v->u.dict->vals[i]) && v->u.dict->vals[i]->dev == DEV_DEVICE)
				return 1;
	return 0;
}

/* The dotted name of a method of a torch LR scheduler without the mark
 * torch.c's torch_object gives the scheduler's class ("scheduler:", so
 * that its step() is no optimizer step): the name the catalog lists it by
 * (ReduceLROnPlateau.step in host_copying_methods).  Any other name as it
 * is. */
static const char *scheduler_unmarked(const char *d)
{
	static const char mark[] = "scheduler:";

	return !strncmp(d, mark, sizeof mark - 1) ? d + sizeof mark - 1 : d;
}

/* metric.add_batch(predictions=p, references=r) of a method that copies
 * the tensors it is given to the host (catalog host_copying_methods): a
 * sync when one of them (or an item of a tuple, list or dict given) is
 * known on the device; a logging verb's (add_scalar, log) read is its
 * logging (schedule.c phases it so). */
static void host_copying_call(struct frame *f, const char *d, value_t **args, size_t nargs, const struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e;
	size_t i;
	int dev = 0;

	d = scheduler_unmarked(d);
	if (f->mode == M_FWD || !catalog_fact(in->cat, CATALOG_F_HOST_COPYING_METHODS, d))
		return;
	for (i = 0; i < nargs && !dev; i++)
		dev = holds_device_tensor(args[i]);
	for (i = 0; kw && i < kw->n && !dev; i++)
		dev = holds_device_tensor(kw->vals[i]);
	if (dev && (e = sev(f, SEV_SYNC, afmt(in, "%s (copies the device tensors it is given to the host)", short_ext(d)),
	                    site)))
		/* a logger's own read (SummaryWriter.add_scalar, wandb.log): the
		 * logging call's work, as a read made for its arguments is */
		e->in_log = log_sink_name(last_name(d));
}

/* acc1, acc5 = accuracy(output, target, topk=(1, 5)) of a function that
 * catalog/torch_facts.json lists (topk_metrics: timm's accuracy): a list
 * of one tensor per k of topk= (default (1,)), each on the device when a
 * tensor argument lives there.  NULL for another callee, or when topk= is
 * given and its length is not known. */
value_t *topk_metric_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	value_t *topk = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "topk") : NULL, *r;
	int dev = DEV_UNKNOWN;
	size_t i, n;

	if (!catalog_fact(in->cat, CATALOG_F_TOPK_METRICS, d))
		return NULL;
	if (topk && !((topk->k == VK_TUPLE || topk->k == VK_LIST) && !topk->u.seq->unk_reason))
		return NULL;
	n = topk ? topk->u.seq->n : 1;
	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]) && args[i]->dev > dev)
			dev = args[i]->dev;
	r = v_seq(in->a, VK_LIST, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, r->u.seq, v_tensor_dev(in->a, dev, 0));
	return r;
}

/* scaler(loss, optimizer, ...) of an object whose class catalog/
 * torch_facts.json lists as a loss scaler (loss_scalers: timm's
 * NativeScaler): in job code, the step's backward, then the optimizer's
 * step through an enabled GradScaler, which reads found_inf on the host
 * (a sync).  The second argument must be an optimizer or a value not known
 * (never a known other object); the value is None.  NULL when the object
 * is no loss scaler, in a forward, or called otherwise. */
value_t *loss_scaler_call(struct frame *f, const char *cls, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *loss = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "loss") : NULL;
	value_t *opt = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "optimizer") : NULL;

	if (f->mode == M_FWD || !cls || !catalog_fact(in->cat, CATALOG_F_LOSS_SCALERS, canon_ext(in, cls)))
		return NULL;
	if (!loss || !opt || !(is_tensorish(loss) || loss->k == VK_UNKNOWN) ||
	    !(is_optimizer(opt) || (opt->k == VK_UNKNOWN && !opt->alts)))
		return NULL;
	in->job_events++;
	in->saw_backward = 1;
	if (!in->ev.backward)
		in->ev.backward = anchor_at(f, site);
	sev(f, SEV_BACKWARD, afmt(in, "%s(loss, optimizer) (loss.backward())", short_ext(cls)), site);
	if (!in->ev.optimizer_step)
		in->ev.optimizer_step = anchor_at(f, site);
	sev(f, SEV_OPT_STEP, afmt(in, "%s(loss, optimizer) (GradScaler.step(optimizer))", short_ext(cls)), site);
	sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
	return v_none(in->a);
}

/* A call of something ecg does not know, in job code (call()'s last
 * resort): `x.step(optimizer)` with an optimizer as its argument is the
 * job's optimizer step, whatever x is (a GradScaler chosen by a condition
 * ecg cannot decide).  Only the step: whether x reads the device is not
 * known, so no sync. */
void unknown_call_effects(struct frame *f, const struct ast_hdr *site, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	const struct ast_hdr *fe;

	if (f->mode == M_FWD || !site || !AST_IS(site, Call) || nargs < 1 || !is_optimizer(args[0]))
		return;
	fe = AST_AS(site, Call)->func;
	if (!AST_IS(fe, Attribute) || strcmp(AST_AS(fe, Attribute)->attr, "step"))
		return;
	if (!in->ev.optimizer_step)
		in->ev.optimizer_step = anchor_at(f, site);
	sev(f, SEV_OPT_STEP, afmt(in, "%s(optimizer)", text_of(f, fe)), site);
}

/* A token chosen from scores in job code: torch.multinomial, argmax.
 * The event marks the loop around it as a decode loop (schedule.c); a
 * multinomial of a device tensor also reads the device (the sampled
 * indices are checked on the host), a sync. */
void token_choice(struct frame *f, const char *what, int dev, const struct ast_hdr *site)
{
	if (f->mode == M_FWD)
		return;
	sev(f, SEV_TOKEN_CHOICE, what, site);
	if (dev == DEV_DEVICE && strstr(what, "multinomial"))
		sev(f, SEV_SYNC, afmt(f->in, "%s (sampling on the device)", what), site);
}
