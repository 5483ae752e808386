/* alts.c - two objects bound on the two paths of an undecided `if`.
 *
 * `if has_modelopt and args.modelopt_enabled: cfg = ModelOptConfig(...)
 *  else: cfg = GPTConfig(...)`, the condition not decided here: the name is
 * bound to an unknown that keeps both objects (value.alts, alts[0] when
 * the condition holds, alts[1] when it does not).  Everything that does
 * not know alternatives reads an unknown, as before.  Two readers follow
 * them, each on both paths:
 *
 *   - an attribute of it (alts_getattr): read on each object; one value
 *     when both paths give the same, else alternatives again;
 *   - a call of it (alts_call): the callee of each path is called with
 *     the arguments of that path (an argument that is alternatives of the
 *     same condition gives its own object), so that what is built on
 *     each path is built (cfg.get_builder_cls()(cfg).build(...)).
 *
 * What a call gives back: the same value on both paths is that value;
 * modules (or a list of modules) built on one path only are kept, as
 * merge_branches keeps a module built on one path; when both paths build
 * modules, those of the path where the condition does not hold are kept
 * and a note says that the other path's model was not described; other
 * objects become alternatives again, anything else an unknown that
 * depends on the condition.  Nothing is picked without saying so, and no
 * value (a count, a size) is taken from one path only.
 *
 * One path may bind None (`if param_groups: opt = Adam(...) else: opt =
 * None`): an attribute of None raises, so the run that goes on past
 * `opt.step()` is the other path's, and that path alone is followed
 * there (as exec_if describes the path that does not raise).
 *
 * A call whose one path gives a device tensor and whose other gives a
 * Python scalar or a value not known (a greedy decoder's `completed` a
 * device bool tensor, a beam decoder's a bool) keeps both too (alts_tensor_path): the truth of
 * it (`if completed`) reads the device only on the tensor's path, so it
 * is a sync row under that path's side of the condition (alts_sync).
 * The other path may hold Python data too (a beam decoder's candidates,
 * lists of host tensors, where a greedy decoder gives one device tensor).
 * A name or attribute the two paths of an undecided `if` bound so (a
 * meter's sum, a float after its all-reduce, a device tensor again when
 * an extra pass runs on one path) is kept the same way by merge_branches
 * and the journal (alts_dev_scalar_pair); str.format, f-strings and
 * max()/min() of it are rows under the tensor's side (alts_sync).
 *
 * What is done to such a pair is done on the tensor's path alone, under
 * that path's side of the condition, and gives a pair again (the other
 * path's result an unknown): an attribute (alts_dev_getattr: a method
 * bound to the tensor), a call of that method (alts_dev_call), a
 * comparison, an index (eval.c), a row of it (iter_rep_item).  So the
 * reads made after the call that chose -- `(t == eot).nonzero()` over the
 * rows of the greedy decoder's tokens -- are sync rows under the greedy
 * side of the condition, and nothing is said of the other path.
 *
 * Process groups (new_group's, of a known number of ranks) bound on the
 * two paths, or a group on one and None on the other, are kept too
 * (alts_group_pair): a library that keeps the group its rank belongs to
 * (`if i == found[0]: _GROUP = group` over its groups) leaves one of
 * them, or None, on each path; torch.c reads the group's size on every
 * path and states it only when all agree.  `x is None` of nested
 * alternatives reads every path (alts_may_none).
 *
 * Values live in the interpreter's arena; nothing here can fail (an
 * unknown is the answer when the paths cannot be followed).
 */
#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"
#include "ecg/shapes.h"

/* the kinds of value kept as alternatives: objects whose attributes or
 * calls may still agree on both paths */
int alts_object(const value_t *v)
{
	return v && (v->k == VK_INST || v->k == VK_CLASS || v->k == VK_FUNC || v->k == VK_BOUND);
}

/* alternatives whose two objects are both modules: `self.drop_path =
 * DropPath(p) if p > 0. else nn.Identity()`.  A call of it is left to
 * call()'s reading of a callee not known (in a forward: a tensor), as
 * before; an attribute is read on each path; named_modules() and
 * children() list it at its place when both are leaves (module.c);
 * isinstance() answers when both paths agree (builtins.c). */
int alts_modules(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && v->alts && v->alts[0]->k == VK_INST && v->alts[1]->k == VK_INST &&
	       v->alts[0]->u.inst->mod != VM_NONE && v->alts[1]->u.inst->mod != VM_NONE;
}

/* F.apply of an autograd Function class F of the repository (attr.c) */
static int fn_apply(const value_t *v)
{
	return v->k == VK_BUILTIN && v->u.bi.id == BI_FN_APPLY;
}

/* Callables bound on the two paths where one is external (a torch
 * function), or is itself alternatives: `f = dist.reduce_scatter_tensor`
 * or `dist._reduce_scatter_base` by an undecided version test, then
 * `global f; if cfg.x: f = my_reduce_scatter`.  Both kept, so that a
 * call of f follows each path's callee (alts_call), each under its side
 * of the condition; repo objects alone are alts_object's.  F.apply of an
 * autograd Function is one too: `linear_fn = _Linear.apply if
 * torch.is_grad_enabled() else _Linear.forward` (Transformer Engine). */
static int alts_callable(const value_t *v)
{
	return v->k == VK_FUNC || v->k == VK_BOUND || v->k == VK_EXT || v->k == VK_BUILTIN || fn_apply(v) ||
	       (v->k == VK_UNKNOWN && v->alts);
}

int alts_callable_pair(const value_t *a, const value_t *b)
{
	if (!a || !b || !alts_callable(a) || !alts_callable(b))
		return 0;
	return a->k == VK_EXT || b->k == VK_EXT || a->k == VK_UNKNOWN || b->k == VK_UNKNOWN || fn_apply(a) ||
	       fn_apply(b);
}

/* A short list (tuple) of None and known scalars, every item known. */
static int plain_seq(const value_t *v)
{
	size_t i;

	if (!v || (v->k != VK_LIST && v->k != VK_TUPLE) || !v->u.seq || v->u.seq->unk_reason || v->u.seq->n > 8)
		return 0;
	for (i = 0; i < v->u.seq->n; i++)
		if (v->u.seq->items[i]->k != VK_NONE && !value_is_known_scalar(v->u.seq->items[i]))
			return 0;
	return 1;
}

/* Two such sequences of one kind bound on the two paths (`ctx = []` where
 * grad is enabled, `ctx = [None]` where not, then `fn(*ctx, x)`): both
 * kept, so that `*ctx` passes each path's items to each path's callee
 * (eval.c, alts_call); every other reader sees an unknown, as before. */
int alts_seq_pair(const value_t *a, const value_t *b)
{
	return plain_seq(a) && plain_seq(b) && a->k == b->k;
}

/* A sequence of a known length on one path and, on the other, a tensor
 * or a sequence of another kind or length (`if isinstance(model,
 * Transformer): fn = generate else: fn = generate_mamba; prompts =
 * pad_to_tensor(prompts)`, then `fn(prompts, ...)`): both kept, so that a
 * call of alternatives under the same condition passes each path's own
 * value (alts_call); every other reader sees an unknown, as before, and
 * nothing (a length) is taken from one path only. */
int alts_seq_other_pair(const value_t *a, const value_t *b)
{
	const value_t *s, *o;

	if (!a || !b)
		return 0;
	s = (a->k == VK_LIST || a->k == VK_TUPLE) ? a : b;
	o = s == a ? b : a;
	if ((s->k != VK_LIST && s->k != VK_TUPLE) || !s->u.seq || s->u.seq->unk_reason)
		return 0;
	if (o->k == VK_TENSOR)
		return 1;
	return (o->k == VK_LIST || o->k == VK_TUPLE) && o->u.seq &&
	       (o->k != s->k || o->u.seq->unk_reason || o->u.seq->n != s->u.seq->n);
}

/* A process group made by new_group, None (the default group: the whole
 * world), or alternatives of those on every path. */
static int group_path(const value_t *v, int depth)
{
	if (!v || depth > 32)
		return 0;
	if (v->k == VK_NONE || is_ranks_group(v) || is_default_group(v) || is_world_group(v))
		return 1;
	return v->k == VK_UNKNOWN && v->alts && group_path(v->alts[0], depth + 1) && group_path(v->alts[1], depth + 1);
}

/* Process groups bound on the two paths, or a group on one and None on
 * the other (`if i == found[0]: _MODEL_PARALLEL_GROUP = group` in a loop
 * over a library's groups, the process's rank not known): both kept, so
 * that the group's size is read on every path (torch.c group_size: known
 * when every path's group has the same). */
int alts_group_pair(const value_t *a, const value_t *b)
{
	return a && b && group_path(a, 0) && group_path(b, 0) && (a->k != VK_NONE || b->k != VK_NONE);
}

/* May v be None on some path?  v None, an unknown made where one path
 * bound None, or alternatives with such a path (nested: a loop's `if`s). */
int alts_may_none(const value_t *v, int depth)
{
	if (!v || depth > 32)
		return 0;
	if (v->k == VK_NONE || (v->k == VK_UNKNOWN && v->may_none))
		return 1;
	return v->k == VK_UNKNOWN && v->alts && (alts_may_none(v->alts[0], depth + 1) || alts_may_none(v->alts[1], depth + 1));
}

/* A Python str, number or bool, or None, or alternatives of such on
 * every path (nested ifs: `strategy = "single"` under one condition,
 * under another a second value, the default otherwise; a chain of
 * `elif`s that each bind a value to a name that was None before it). */
static int scalar_side(const value_t *v, int depth)
{
	if (!v || depth > 16)
		return 0;
	if (v->k == VK_BOOL || v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_STR || v->k == VK_NONE)
		return 1;
	return v->k == VK_UNKNOWN && v->alts && scalar_side(v->alts[0], depth + 1) &&
	       scalar_side(v->alts[1], depth + 1);
}

/* Two different Python scalars (str, int, float, bool) bound to one name
 * or attribute on the two paths of an undecided `if` (`cfg.strategy =
 * "single"` when no GPU is found, the configured "fsdp" otherwise).
 * merge_branches and the journal keep both (v_alts), so that a
 * comparison of it (alts_scalar_compare) or its truth (value_truth) is
 * read on each path: decided when all paths agree (`cfg.strategy ==
 * "ddp"` is False on both), undecided otherwise.  Every other reader
 * sees an unknown, as before.  None may be one path's (`backend = None`
 * before a chain of `elif`s that set it: `backend == "xla"` is False on
 * every path); such alternatives are may_none too (v_alts_scalars), so
 * that a reader of the unknown sees what it saw before. */
int alts_scalar_pair(const value_t *a, const value_t *b)
{
	return scalar_side(a, 0) && scalar_side(b, 0);
}

value_t *v_alts_scalars(struct interp *in, const char *cond, value_t *a, value_t *b)
{
	value_t *v = v_alts_in(in, cond, a, b);

	/* None on a path: what reads it as an unknown sees may_none, as
	 * before */
	v->may_none = alts_may_none(a, 0) || alts_may_none(b, 0);
	return v;
}

int alts_scalars(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && v->alts && scalar_side(v, 0);
}

/* what a path gives where the other gives a device tensor, kept with it:
 * a Python number or bool, or a value not known (not alternatives
 * itself).  The row is the tensor path's whatever the other holds; None
 * is not one (`x is None` reads such a pair as before). */
static int host_scalar(const value_t *v)
{
	return v->k == VK_BOOL || v->k == VK_INT || v->k == VK_FLOAT || (v->k == VK_UNKNOWN && !v->alts) ||
	       alts_scalars(v) || v->k == VK_LIST || v->k == VK_TUPLE;
}

/* device work: a device tensor, or a method read from one */
static int dev_side(const value_t *v)
{
	return (v->k == VK_TENSOR && v->dev == DEV_DEVICE) ||
	       (v->k == VK_EXT && v->recv && v->recv->k == VK_TENSOR && v->recv->dev == DEV_DEVICE);
}

/* a and b, what the two paths of an undecided `if` bound to one name or
 * attribute: a device tensor on one, host_scalar's on the other (a
 * meter's sum a float after its all-reduce, a device tensor again when
 * an extra pass on one path adds to it).  merge_branches and the journal
 * keep both (v_alts), so that a read of it is a row under the tensor's
 * side of the condition. */
int alts_dev_scalar_pair(const value_t *a, const value_t *b)
{
	int i;
	const value_t *p[2] = { a, b };

	if (!a || !b)
		return 0;
	for (i = 0; i < 2; i++)
		if (p[i]->k == VK_TENSOR && p[i]->dev == DEV_DEVICE && host_scalar(p[!i]) && !p[!i]->may_none)
			return 1;
	return 0;
}

/* The path (0: alt_cond holds, 1: it does not) on which v, alternatives,
 * is a device tensor while the other path's value is host_scalar's;
 * -1 when v is not such a pair. */
int alts_tensor_path(const value_t *v)
{
	int i;

	if (!v || v->k != VK_UNKNOWN || !v->alts || !v->alt_cond)
		return -1;
	for (i = 0; i < 2; i++)
		if (v->alts[i]->k == VK_TENSOR && v->alts[i]->dev == DEV_DEVICE && host_scalar(v->alts[!i]))
			return i;
	return -1;
}

/* The path on which v, alternatives, is device work (dev_side) while
 * the other is host_scalar's; -1 when v is not such a pair. */
int alts_dev_path(const value_t *v)
{
	int i;

	if (!v || v->k != VK_UNKNOWN || !v->alts || !v->alt_cond)
		return -1;
	for (i = 0; i < 2; i++)
		if (dev_side(v->alts[i]) && host_scalar(v->alts[!i]))
			return i;
	return -1;
}

/* Run what follows on path i of v's condition: its side pushed on the
 * context (job mode); returns the context to put back. */
const struct jctx *alts_path_enter(struct frame *f, const value_t *v, int i, const struct ast_hdr *site)
{
	const struct jctx *ojc = f->jc;

	if (f->mode != M_FWD && site)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site),
		                i == 0 ? v->alt_cond : afmt_memo(f->in, "not (%s)", v->alt_cond, NULL));
	return ojc;
}

/* r, what path i of v's condition gave, as a pair again when it is
 * device work; else an unknown that depends on the condition. */
value_t *alts_path_pair(struct frame *f, const value_t *v, int i, value_t *r)
{
	value_t *other = v_unknown(f->in->a, NULL,
	                           afmt_memo(f->in, "depends on `%s`, which is not decided here", v->alt_cond, NULL));

	if (!r || !dev_side(r))
		return other;
	return i == 0 ? v_alts(f, v->alt_cond, r, other) : v_alts(f, v->alt_cond, other, r);
}

/* v on path i when v is a device pair of cond, else v */
value_t *alts_dev_on_path(value_t *v, const char *cond, int i)
{
	if (alts_dev_path(v) >= 0 && (v->alt_cond == cond || !strcmp(v->alt_cond, cond)))
		return v->alts[i];
	return v;
}

value_t *alts_dev_getattr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	int i = alts_dev_path(obj);
	const struct jctx *ojc = alts_path_enter(f, obj, i, site);
	value_t *r = getattr_v(f, obj->alts[i], name, site);

	f->jc = ojc;
	return alts_path_pair(f, obj, i, r);
}

value_t *alts_dev_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int i = alts_dev_path(fn);
	const struct jctx *ojc;
	value_t **pa = ast_arena_alloc(in->a, (nargs + 1) * sizeof *pa), *r;
	struct vdict *pk = NULL;
	size_t j;

	for (j = 0; j < nargs; j++)
		pa[j] = alts_dev_on_path(args[j], fn->alt_cond, i);
	if (kw) {
		pk = vdict_new(in->a);
		for (j = 0; j < kw->n; j++)
			vdict_set(in->a, pk, kw->keys[j], alts_dev_on_path(kw->vals[j], fn->alt_cond, i));
	}
	ojc = alts_path_enter(f, fn, i, site);
	r = call(f, fn->alts[i], pa, nargs, pk, site);
	f->jc = ojc;
	return alts_path_pair(f, fn, i, r);
}

/* A read of v on the host (its truth, ...) as a sync row under the side
 * of v's condition where v is a device tensor.  Returns whether a row was
 * asked for (0: v is not such a pair, nothing done). */
int alts_sync(struct frame *f, const value_t *v, const char *what, const struct ast_hdr *site)
{
	const struct jctx *ojc = f->jc;
	int i = alts_tensor_path(v);

	if (i < 0 || !site)
		return 0;
	/* in a forward too: the read is the model's on that path only, as
	 * exec_if's paths there (cond_ctx) */
	f->jc = jc_push(f, JC_COND, anchor_at(f, site),
	                i == 0 ? v->alt_cond : afmt_memo(f->in, "not (%s)", v->alt_cond, NULL));
	sev(f, SEV_SYNC, what, site);
	f->jc = ojc;
	return 1;
}

value_t *v_alts(struct frame *f, const char *cond, value_t *a, value_t *b)
{
	return v_alts_in(f->in, cond, a, b);
}

value_t *v_alts_in(struct interp *in, const char *cond, value_t *a, value_t *b)
{
	value_t *v = v_unknown(in->a, NULL, afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));

	v->alts = ast_arena_alloc(in->a, 2 * sizeof *v->alts);
	v->alts[0] = a;
	v->alts[1] = b;
	v->alt_cond = cond;
	return v;
}

static int same_value(const value_t *a, const value_t *b)
{
	if (a == b)
		return 1;
	if (a->k == VK_NONE && b->k == VK_NONE)
		return 1;
	if (value_is_known_scalar(a) && value_is_known_scalar(b) && value_key_eq(a, b))
		return 1;
	/* the same repo function bound to the two paths' objects is two
	 * values; the same class or function is one */
	if (a->k == b->k && a->k == VK_CLASS && a->u.cls == b->u.cls)
		return 1;
	if (a->k == b->k && a->k == VK_FUNC && a->u.fn == b->u.fn)
		return 1;
	if (a->k == b->k && a->k == VK_EXT && !strcmp(a->u.ext, b->u.ext))
		return 1;
	if (fn_apply(a) && fn_apply(b) && a->u.bi.self == b->u.bi.self)
		return 1;
	return 0;
}

static int module_bearing(const value_t *v)
{
	size_t i;

	if (v->k == VK_INST)
		return v->u.inst->mod != VM_NONE;
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq)
		for (i = 0; i < v->u.seq->n; i++)
			if (v->u.seq->items[i]->k == VK_INST && v->u.seq->items[i]->u.inst->mod != VM_NONE)
				return 1;
	return 0;
}

/* A module with no submodule registered: a torch.nn layer the catalogue
 * gives none, or a repository module that registered none (nothing under
 * a name not known, none in a loop of a length not known). */
static int leaf_module(struct interp *in, const value_t *v)
{
	const struct vinst *m = v->k == VK_INST ? v->u.inst : NULL;
	const struct catalog_class *cc;

	if (!m || m->nchildren || (m->mod != VM_LAYER && m->mod != VM_REPO))
		return 0;
	if (m->mod == VM_LAYER)
		return m->ext && (cc = catalog_class(in->cat, m->ext)) != NULL && !cc->nchildren;
	return !vdict_gets(m->attrs, "__ecg_children_unknown__") && !vdict_gets(m->attrs, "__ecg_len_unknown__");
}

/* v, a module (or a list holding modules) a call built on one path of an
 * undecided condition only: each module not already under a condition of
 * its own is under cond (modtree.c states it, and counts the parent's
 * parameters as not known). */
static value_t *one_path_module(struct frame *f, value_t *v, const char *cond)
{
	size_t i;

	(void)f;
	if (v->k == VK_INST && v->u.inst->mod != VM_NONE && !v->u.inst->cond)
		v->u.inst->cond = cond;
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq)
		for (i = 0; i < v->u.seq->n; i++)
			if (v->u.seq->items[i]->k == VK_INST && v->u.seq->items[i]->u.inst->mod != VM_NONE &&
			    !v->u.seq->items[i]->u.inst->cond)
				v->u.seq->items[i]->u.inst->cond = cond;
	return v;
}

/* r0 on the path where cond holds, r1 on the other; calls: a call's
 * results (modules kept as described above).  Two tensors are one tensor
 * (its device only when both paths agree: a sync read from it on one
 * path is no row), two tuples of one length are joined item by item
 * (`return tokens, completed` of two decoders), depth bounded. */
static value_t *join_depth(struct frame *f, const char *cond, value_t *r0, value_t *r1, int calls,
                           const struct ast_hdr *site, int depth)
{
	struct interp *in = f->in;

	if (same_value(r0, r1))
		return r1;
	if (r0->k == VK_TENSOR && r1->k == VK_TENSOR) {
		value_t *t = v_tensor_dev(in->a, r0->dev == r1->dev ? r0->dev : DEV_UNKNOWN,
		                          pin_join(r0->pinned, r1->pinned));

		t->shape = shape_join(in->a, r0->shape, r1->shape);
		return t;
	}
	if (depth < 4 && r0->k == VK_TUPLE && r1->k == VK_TUPLE && r0->u.seq && r1->u.seq &&
	    !r0->u.seq->unk_reason && !r1->u.seq->unk_reason && r0->u.seq->n == r1->u.seq->n) {
		value_t *t = v_seq(in->a, VK_TUPLE, r0->u.seq->n);
		size_t i;

		for (i = 0; i < r0->u.seq->n; i++)
			vseq_push(in->a, t->u.seq, join_depth(f, cond, r0->u.seq->items[i], r1->u.seq->items[i],
			                                      calls, site, depth + 1));
		return t;
	}
	if (calls) {
		int m0 = module_bearing(r0), m1 = module_bearing(r1);

		/* two leaf modules (an activation class chosen by a test
		 * of torch's version, each path's built): both kept, as
		 * `DropPath(p) if p > 0. else nn.Identity()` (eval.c) --
		 * what they hold is modtree's question, on each path */
		if (m0 && m1 && leaf_module(in, r0) && leaf_module(in, r1) && r0->u.inst != r1->u.inst)
			return v_alts(f, cond, r0, r1);
		if (m0 && m1) {
			note(in, anchor_at(f, site), "the model built on one path",
			     afmt_memo(in, "`%s` is not decided here: the model described is the one built when it "
			                   "does not hold; the one built when it holds was read, not described", cond, NULL));
			return r1;
		}
		/* a module built on one path only (the other's value not
		 * known, or no module): it is there when its path runs --
		 * its condition says so, and it is no module of the other */
		if (m1)
			return one_path_module(f, r1, afmt_memo(in, "not (%s)", cond, NULL));
		if (m0)
			return one_path_module(f, r0, cond);
	}
	if (alts_object(r0) && alts_object(r1))
		return v_alts(f, cond, r0, r1);
	/* a device tensor on one path, a Python scalar on the other */
	if ((r0->k == VK_TENSOR && r0->dev == DEV_DEVICE && host_scalar(r1)) ||
	    (r1->k == VK_TENSOR && r1->dev == DEV_DEVICE && host_scalar(r0)))
		return v_alts(f, cond, r0, r1);
	return v_unknown(in->a, site ? text_of(f, site) : NULL,
	                 afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
}

static value_t *join(struct frame *f, const char *cond, value_t *r0, value_t *r1, int calls,
                     const struct ast_hdr *site)
{
	return join_depth(f, cond, r0, r1, calls, site, 0);
}

value_t *alts_getattr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	value_t *r0, *r1;

	if (obj->alts[0]->k == VK_NONE)
		return getattr_v(f, obj->alts[1], name, site);
	if (obj->alts[1]->k == VK_NONE)
		return getattr_v(f, obj->alts[0], name, site);
	r0 = getattr_v(f, obj->alts[0], name, site);
	r1 = getattr_v(f, obj->alts[1], name, site);

	return join(f, obj->alt_cond, r0, r1, 0, site);
}

/* v's value on path i of cond: its own object when v is alternatives of
 * the same condition */
static value_t *on_path(value_t *v, const char *cond, int i)
{
	if (v && v->k == VK_UNKNOWN && v->alts && v->alt_cond &&
	    (v->alt_cond == cond || !strcmp(v->alt_cond, cond)))
		return v->alts[i];
	return v;
}

value_t *alts_call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                   struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *cond = fn->alt_cond;
	const struct jctx *ojc;
	value_t *r[2];
	int i;

	const char *ostar = f->unk_star;
	int oprefix = f->unk_star_prefix, nstar = 0, nsplice = 0;
	size_t j;

	/* None is not callable: the other path goes on */
	if (fn->alts[0]->k == VK_NONE || fn->alts[1]->k == VK_NONE)
		return call(f, fn->alts[fn->alts[0]->k == VK_NONE], args, nargs, kw, site);
	/* `*xs` of items not known shifts the positions of what follows: two
	 * callees that take them differently (F.apply(*a) and F.forward(ctx,
	 * *a)) are not followed, unless each such xs is alternatives under
	 * the same condition, each path's sequence known (spliced below) */
	for (j = 0; j < nargs; j++) {
		if (args[j]->k == VK_UNKNOWN && args[j]->star_alts) {
			nstar++;
			nsplice += on_path(args[j], cond, 0) != args[j];
		}
	}
	if (ostar && (fn_apply(fn->alts[0]) || fn_apply(fn->alts[1])) && (!nstar || nstar != nsplice))
		return v_unknown(in->a, site ? text_of(f, site) : NULL,
		                 afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
	for (i = 0; i < 2; i++) {
		struct vseq *ps = ast_arena_alloc(in->a, sizeof *ps);
		struct vdict *pk = NULL;
		int spliced = ostar && nstar && nstar == nsplice;

		memset(ps, 0, sizeof *ps);
		for (j = 0; j < nargs; j++) {
			value_t *a = on_path(args[j], cond, i);
			size_t k;

			if (spliced && args[j]->k == VK_UNKNOWN && args[j]->star_alts)
				for (k = 0; k < a->u.seq->n; k++)
					vseq_push(in->a, ps, a->u.seq->items[k]);
			else
				vseq_push(in->a, ps, a);
		}
		if (kw) {
			pk = vdict_new(in->a);
			for (j = 0; j < kw->n; j++)
				if (!(spliced && kw->keys[j]->k == VK_STR && !strcmp(kw->keys[j]->u.str.s, KW_UNK_STAR)))
					vdict_set(in->a, pk, kw->keys[j], on_path(kw->vals[j], cond, i));
			if (!pk->n)
				pk = NULL;
		}
		/* what each path's callee does runs under its side of cond */
		ojc = f->jc;
		if (f->mode != M_FWD && site)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site),
			                i == 0 ? cond : afmt_memo(in, "not (%s)", cond, NULL));
		if (spliced) {          /* each path's items are known: no star left */
			f->unk_star = NULL;
			f->unk_star_prefix = 0;
		}
		r[i] = call(f, fn->alts[i], ps->items, ps->n, pk, site);
		f->unk_star = ostar;
		f->unk_star_prefix = oprefix;
		f->jc = ojc;
	}
	/* a conditional expression's callables: two leaf modules are kept
	 * (join), modules otherwise are neither path's (one path's model
	 * with a note is exec_if's choice, not this one's) */
	if (fn->alt_leaf && (module_bearing(r[0]) || module_bearing(r[1])) &&
	    !(r[0]->k == VK_INST && r[1]->k == VK_INST && leaf_module(in, r[0]) && leaf_module(in, r[1]))) {
		value_t *u = v_unknown(in->a, site ? text_of(f, site) : NULL,
		                       afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));

		u->may_module = 1;
		return u;
	}
	return join(f, cond, r[0], r[1], 1, site);
}
