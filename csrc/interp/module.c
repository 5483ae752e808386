/* interp/module.c - torch.nn.Module's own methods on module instances
 *
 * call_module_method() is call_builtin()'s share for the methods the
 * analysis gives a module instance or an autograd.Function class:
 * add_module, ModuleList.append/extend/insert (children registered in
 * order), register_parameter/register_buffer, .compile() (a compile
 * region), .to_empty(device) (placed there, nothing copied), .to(device) (a host-to-
 * device schedule event), children(), super().__init__ into a torch
 * container's constructor, and Function.apply (its forward read
 * now -- given ctx first, or, when the class defines setup_context,
 * the inputs alone and setup_context(ctx, inputs, output) after it --
 * its backward into a sink).  Never NULL.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"
#include "ecg/catalog_glue.h"

/* super().__init__(...) of a repository class whose base is a torch.nn
 * layer of the catalogue, with its own __init__ (or the class called
 * without one of its own: object.c, `class Linear(nn.Linear)` with a
 * forward only): the arguments the base was given, bound to the layer's parameter names, kept on the instance
 * (__ecg_base_args__, a dict) for modtree.c's parameter count.  Nothing
 * is kept when an argument list not known (*args, **kwargs not known)
 * may have set one: the count stays null then. */
void layer_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	const char *base;
	value_t *d;
	size_t i;

	if (self->k != VK_INST || self->u.inst->mod != VM_REPO || !self->u.inst->cls ||
	    !(base = class_ext_base(self->u.inst->cls)) || cg_kind_of(in->cat, base) != CG_LAYER)
		return;
	for (i = 0; kw && i < kw->n; i++)
		if (kw_is_marker(kw->keys[i]))
			return;
	d = v_dict(in->a);
	for (i = 0; i < nargs; i++) {
		const char *pn = cg_param_at(in->cat, base, i);

		if (!pn)
			return;
		vdict_sets(in->a, d->u.dict, pn, args[i]);
	}
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR)
			vdict_set(in->a, d->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, self->u.inst->attrs, "__ecg_base_args__", d);
}

/* Is m an nn.ModuleDict: the built-in, or a repo subclass whose children
 * its constructor registered (torchvision's IntermediateLayerGetter)? */
static int is_moduledict(struct vinst *m)
{
	const char *b = m->cls ? class_ext_base(m->cls) : NULL;

	return (m->mod == VM_CONTAINER && m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")) ||
	       (m->mod == VM_REPO && b && !strcmp(b, "torch.nn.ModuleDict"));
}

/* A ModuleList's or Sequential's first child, when every child is an
 * object of the same class made at the same place (a comprehension's or a
 * loop's one constructor call): what layers[i] is, i not known, as far as
 * the modules' kind goes.  NULL otherwise (none, a dict, children unlike
 * or not all seen). */
struct vinst *container_alike_item(struct vinst *m)
{
	size_t i;

	if (m->mod != VM_CONTAINER || !m->nchildren || is_moduledict(m) || !m->children[0].inst->constructed_at)
		return NULL;
	for (i = 1; i < m->nchildren; i++) {
		const struct vinst *a = m->children[0].inst, *b = m->children[i].inst;

		if (a->cls != b->cls || !a->ext != !b->ext || (a->ext && strcmp(a->ext, b->ext)) ||
		    !b->constructed_at || strcmp(a->constructed_at, b->constructed_at))
			return NULL;
	}
	return m->children[0].inst;
}

/* ModuleDict.values(): a view of its modules in order, a container that
 * shares the children (and what is known of its length), so that `for
 * layer in self.layers.values()` repeats the block like a loop over a
 * ModuleList.  The view is no module of the tree: the children keep their
 * place under the dict. */
static value_t *moduledict_values(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	static const char *const keep[] = { "__ecg_len_unknown__", "__ecg_len_expr__", "__ecg_len_src__",
	                                    "__ecg_len_via__", STAGE_WHOLE_ATTR, NULL };
	struct interp *in = f->in;
	struct vinst *m, *v;
	size_t i;

	if (self->k != VK_INST || !is_moduledict(m = self->u.inst))
		return unknown_at(f, site, "values() of something that is not a ModuleDict");
	v = new_inst(in);
	v->mod = VM_CONTAINER;
	v->ext = "torch.nn.ModuleList";
	v->constructed_at = m->constructed_at;
	v->ctor_expr = m->ctor_expr;
	for (i = 0; i < m->nchildren; i++)
		vinst_add_child(in->a, v, m->children[i].name, m->children[i].inst);
	for (i = 0; keep[i]; i++)
		if (vdict_gets(m->attrs, keep[i]))
			vdict_sets(in->a, v->attrs, keep[i], vdict_gets(m->attrs, keep[i]));
	return mk_inst_value(in, v);
}

/* ModuleDict.items() / keys(): its children in order, as (name, module)
 * pairs or names; unknown when they are not all seen. */
static value_t *moduledict_items(struct frame *f, value_t *self, int pairs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	value_t *out, *unk;
	size_t i;

	if (!m || !is_moduledict(m))
		return unknown_at(f, site, pairs ? "items() of something that is not a ModuleDict"
		                                 : "keys() of something that is not a ModuleDict");
	if ((unk = vdict_gets(m->attrs, "__ecg_len_unknown__")))
		return unknown_at(f, site, unk->reason ? unk->reason : "the ModuleDict's length is not known");
	out = v_seq(in->a, VK_LIST, m->nchildren);
	for (i = 0; i < m->nchildren; i++) {
		value_t *name = v_str(in->a, m->children[i].name);

		if (pairs) {
			value_t *pair = v_seq(in->a, VK_TUPLE, 2);

			vseq_push(in->a, pair->u.seq, name);
			vseq_push(in->a, pair->u.seq, mk_inst_value(in, m->children[i].inst));
			name = pair;
		}
		vseq_push(in->a, out->u.seq, name);
	}
	return out;
}

/* ModuleDict.update(modules): each (name, module) of a dict or of a
 * sequence of pairs registered in order, as a key set anew keeps its
 * place.  What is not known there (the mapping, a key, a value that is
 * no module) leaves the dict's contents not known. */
static value_t *moduledict_update(struct frame *f, value_t *self, value_t **args, size_t nargs,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	const char *why = NULL;
	struct vseq *items = NULL;
	size_t i;

	if (!m || !is_moduledict(m))
		return unknown_at(f, site, "update() of something that is not a ModuleDict");
	if (nargs != 1)
		why = "update() without one mapping";
	else if (args[0]->k == VK_DICT) {
		struct vdict *d = args[0]->u.dict;

		if (d->anykey || d->rep)
			why = "a mapping with keys not known";
		for (i = 0; !why && i < d->n; i++)
			if (d->keys[i]->k != VK_STR || d->vals[i]->k != VK_INST || d->vals[i]->u.inst->mod == VM_NONE)
				why = "a key or a module not known";
		for (i = 0; !why && i < d->n; i++)
			vinst_add_child(in->a, m, d->keys[i]->u.str.s, d->vals[i]->u.inst);
	} else if ((args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && !iter_items(f, args[0], &items)) {
		for (i = 0; !why && i < items->n; i++) {
			const value_t *p = items->items[i];

			if (!((p->k == VK_TUPLE || p->k == VK_LIST) && !p->u.seq->unk_reason && p->u.seq->n == 2 &&
			      p->u.seq->items[0]->k == VK_STR && p->u.seq->items[1]->k == VK_INST &&
			      p->u.seq->items[1]->u.inst->mod != VM_NONE))
				why = "a key or a module not known";
		}
		for (i = 0; !why && i < items->n; i++)
			vinst_add_child(in->a, m, items->items[i]->u.seq->items[0]->u.str.s,
			                items->items[i]->u.seq->items[1]->u.inst);
	} else
		why = "update() with modules not known";
	if (why && !vdict_gets(m->attrs, "__ecg_len_unknown__"))
		vdict_sets(in->a, m->attrs, "__ecg_len_unknown__", v_unknown(in->a, "update()", why));
	return v_none(in->a);
}

/* Where the attribute `name` of m, alternatives of two modules (alts.c),
 * sits in Python's _modules: how many registered children come before it
 * (object.c set_attr keeps it); -1 when it is no such attribute. */
static long long alt_child_pos(struct interp *in, const struct vinst *m, const char *name)
{
	const value_t *p;

	if (!alts_modules(vdict_gets(m->attrs, name)) || vinst_child(m, name))
		return -1;
	p = vdict_gets(m->attrs, afmt(in, "%s%s", ALT_CHILD_POS, name));
	return p && p->k == VK_INT && p->u.i >= 0 && (size_t)p->u.i <= m->nchildren ? p->u.i : -1;
}

/* Why the children registered on m may not be all of its submodules, or
 * NULL when they are: a module of a class not read, a container filled
 * with modules not known, a third-party constructor, a torch.nn layer
 * whose submodules the catalogue lists (MultiheadAttention's out_proj) or
 * that it does not know, an attribute not known (it may hold a module), a
 * child built under a condition its parent was not. */
static const char *children_unknown(struct interp *in, const struct vinst *m)
{
	const struct catalog_class *cc;
	size_t i;

	switch (m->mod) {
	case VM_NONE:
		return "not a module";
	case VM_EXTERNAL:
		return "a module of a class ecg does not read: its submodules are not known";
	case VM_LAYER:
		cc = m->ext ? catalog_class(in->cat, m->ext) : NULL;
		if (!cc)
			return "a torch.nn layer the catalogue does not know";
		if (cc->nchildren)
			return "the submodules of a torch.nn layer are not modelled";
		return NULL;
	default:
		break;
	}
	if (vdict_gets(m->attrs, "__ecg_len_unknown__"))
		return "the container's length is not known";
	if (vdict_gets(m->attrs, "__ecg_ext_init__"))
		return "its constructor is a third-party one: its submodules are not seen";
	for (i = 0; i < m->attrs->n; i++) {
		const value_t *k = m->attrs->keys[i];

		if (m->attrs->vals[i]->k == VK_UNKNOWN && !fact_plain(m->attrs->vals[i]) &&
		    !(k->k == VK_STR && (!strcmp(k->u.str.s, "training") || !strncmp(k->u.str.s, "__ecg_", 6))) &&
		    !(k->k == VK_STR && alt_child_pos(in, m, k->u.str.s) >= 0))
			return "an attribute not known may hold a module";
	}
	for (i = 0; i < m->nchildren; i++)
		if (m->children[i].inst->cond && m->children[i].inst->cond != m->cond)
			return "a submodule built under a condition not decided";
	return NULL;
}

/* One of m's submodules in _modules order: a registered child (inst), or
 * an attribute that is alternatives of two modules (v, inst NULL). */
struct mentry {
	const char *name;
	value_t *v;
	struct vinst *inst;
};

/* m's submodules in _modules order, the alternatives at their places
 * (alt_child_pos); m's children known (children_unknown NULL).  The array
 * is malloc'd, the caller frees it; *n is its length (0: NULL). */
static struct mentry *module_entries(struct interp *in, const struct vinst *m, size_t *n)
{
	size_t plen = strlen(ALT_CHILD_POS), nalt = 0, i, c, k = 0;
	struct mentry *out;

	for (i = 0; i < m->attrs->n; i++) {
		const value_t *key = m->attrs->keys[i];

		if (key->k == VK_STR && !strncmp(key->u.str.s, ALT_CHILD_POS, plen) &&
		    alt_child_pos(in, m, key->u.str.s + plen) >= 0)
			nalt++;
	}
	*n = m->nchildren + nalt;
	if (!*n)
		return NULL;
	out = xmalloc(*n * sizeof *out);
	for (c = 0; c <= m->nchildren; c++) {
		for (i = 0; nalt && i < m->attrs->n; i++) {
			const value_t *key = m->attrs->keys[i];
			const char *name;

			if (key->k != VK_STR || strncmp(key->u.str.s, ALT_CHILD_POS, plen))
				continue;
			name = key->u.str.s + plen;
			if (alt_child_pos(in, m, name) != (long long)c)
				continue;
			out[k].name = name;
			out[k].v = vdict_gets(m->attrs, name);
			out[k++].inst = NULL;
		}
		if (c < m->nchildren) {
			out[k].name = m->children[c].name;
			out[k].v = NULL;
			out[k++].inst = m->children[c].inst;
		}
	}
	return out;
}

value_t *module_children_dict(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	const char *why;
	struct mentry *e;
	value_t *out;
	size_t n, i;

	if (!m || m->mod == VM_NONE)
		return unknown_at(f, site, "_modules of something that is not a module");
	if ((why = children_unknown(in, m)))
		return unknown_at(f, site, afmt(in, "its submodules are not known: %s", why));
	out = v_dict(in->a);
	e = module_entries(in, m, &n);
	for (i = 0; i < n; i++)
		vdict_sets(in->a, out->u.dict, e[i].name, e[i].inst ? mk_inst_value(in, e[i].inst) : e[i].v);
	free(e);
	return out;
}

void module_store_child(struct frame *f, struct vinst *m, value_t *idx, value_t *v, const struct ast_hdr *target)
{
	struct interp *in = f->in;

	if (v->k == VK_INST && idx->k == VK_STR)
		vinst_add_child(in->a, m, idx->u.str.s, v->u.inst);
	/* a module not known (a build the budget gave up on), a key not
	 * known, or a loop whose trip count is not known: the children seen
	 * are not all of them */
	if (vdict_gets(m->attrs, "__ecg_len_unknown__"))
		;
	else if (v->k != VK_INST || idx->k != VK_STR)
		vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
		           v_unknown(in->a, text_of(f, target),
		                     v->k == VK_UNKNOWN && v->reason ? v->reason
		                     : "a module or key not known stored in the container"));
	else if (f->mult.reason)
		vdict_sets(in->a, m->attrs, "__ecg_len_unknown__", v_unknown(in->a, f->mult.expr, f->mult.reason));
}

/* A module with no submodule at all, all of them known. */
static int leaf_module(struct interp *in, const struct vinst *m)
{
	size_t n;
	struct mentry *e;

	if (children_unknown(in, m))
		return 0;
	e = module_entries(in, m, &n);
	free(e);
	return n == 0;
}

/* Has named_modules() listed x already (Python's memo set)? */
static int seen_module(struct vinst *const *seen, size_t n, const struct vinst *x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (seen[i] == x)
			return 1;
	return 0;
}

static void seen_add(struct vinst ***seen, size_t *nseen, struct vinst *x)
{
	*seen = xrealloc(*seen, (*nseen + 1) * sizeof **seen);
	(*seen)[(*nseen)++] = x;
}

static void push_pair(struct interp *in, struct vseq *out, const char *name, value_t *v)
{
	value_t *pair = v_seq(in->a, VK_TUPLE, 2);

	vseq_push(in->a, pair->u.seq, v_str(in->a, name));
	vseq_push(in->a, pair->u.seq, v);
	vseq_push(in->a, out, pair);
}

/* named_modules() of m under `prefix`: m and every module under it, once
 * each, depth first as Python walks _modules.  An attribute that is one
 * of two modules (alts.c) is listed as those alternatives when both are
 * modules without submodules (the list is the same length on both
 * paths).  -1 (with *why) when a module on the way does not hold all its
 * submodules, or when such alternatives hold submodules. */
static int walk_modules(struct interp *in, struct vinst *m, const char *prefix, struct vseq *out,
                        struct vinst ***seen, size_t *nseen, int depth, const char **why)
{
	struct mentry *e;
	size_t i, n;
	int rc = 0;

	if (depth > 64) {
		*why = "modules nested too deep";
		return -1;
	}
	if (seen_module(*seen, *nseen, m))
		return 0;
	if ((*why = children_unknown(in, m)))
		return -1;
	seen_add(seen, nseen, m);
	push_pair(in, out, prefix, mk_inst_value(in, m));
	e = module_entries(in, m, &n);
	for (i = 0; i < n && rc == 0; i++) {
		const char *p = *prefix ? afmt(in, "%s.%s", prefix, e[i].name) : e[i].name;
		struct vinst *a0, *a1;

		if (e[i].inst) {
			rc = walk_modules(in, e[i].inst, p, out, seen, nseen, depth + 1, why);
			continue;
		}
		a0 = e[i].v->alts[0]->u.inst;
		a1 = e[i].v->alts[1]->u.inst;
		if (!leaf_module(in, a0) || !leaf_module(in, a1) || seen_module(*seen, *nseen, a0) ||
		    seen_module(*seen, *nseen, a1)) {
			*why = "a submodule that an undecided condition chooses holds submodules of its own";
			rc = -1;
			continue;
		}
		seen_add(seen, nseen, a0);
		seen_add(seen, nseen, a1);
		push_pair(in, out, p, e[i].v);
	}
	free(e);
	return rc;
}

/* The modules under m that are known, m first, depth first, each once,
 * into out (as walk_modules lists them, named or not): a module holding
 * an attribute not known is listed with its known submodules; a
 * submodule one of two (alts.c) is left out. */
static void walk_known_modules(struct interp *in, struct vinst *m, const char *prefix, struct vseq *out,
                               struct vinst ***seen, size_t *nseen, int named, int depth)
{
	struct mentry *e;
	size_t i, n;

	if (depth > 64 || seen_module(*seen, *nseen, m))
		return;
	seen_add(seen, nseen, m);
	if (named)
		push_pair(in, out, prefix, mk_inst_value(in, m));
	else
		vseq_push(in->a, out, mk_inst_value(in, m));
	e = module_entries(in, m, &n);
	for (i = 0; i < n; i++)
		if (e[i].inst)
			walk_known_modules(in, e[i].inst, *prefix ? afmt(in, "%s.%s", prefix, e[i].name) : e[i].name,
			                   out, seen, nseen, named, depth + 1);
	free(e);
}

/* children(), named_children(), modules(), named_modules() of a module
 * whose submodules are all seen: a list (of modules, or of (name,
 * module) pairs), in registration order, each module once; a submodule
 * one of two (alts.c) is those alternatives.  Unknown, with the reason,
 * otherwise. */
static value_t *module_tree_list(struct frame *f, value_t *self, int id, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	int named = id == BI_M_MOD_NAMED_CHILDREN || id == BI_M_MOD_NAMED_MODULES;
	const char *why = NULL;
	value_t *out = v_seq(in->a, VK_LIST, 0);
	size_t i;

	if (!m)
		return unknown_at(f, site, "not a module");
	if (id == BI_M_MOD_CHILDREN || id == BI_M_MOD_NAMED_CHILDREN) {
		struct mentry *e;
		size_t n;

		if ((why = children_unknown(in, m)))
			return unknown_at(f, site, afmt(in, "its children are not known: %s", why));
		e = module_entries(in, m, &n);
		for (i = 0; i < n; i++) {
			value_t *c = e[i].inst ? mk_inst_value(in, e[i].inst) : e[i].v;
			size_t j;

			for (j = 0; e[i].inst && j < i && e[j].inst != e[i].inst; j++)
				;
			if (e[i].inst && j < i)
				continue;
			if (!named)
				vseq_push(in->a, out->u.seq, c);
			else
				push_pair(in, out->u.seq, e[i].name, c);
		}
		free(e);
		return out;
	}
	{
		struct vinst **seen = NULL;
		size_t nseen = 0;
		int rc = walk_modules(in, m, "", out->u.seq, &seen, &nseen, 0, &why);

		if (rc < 0) {
			/* not known; the modules seen are among them (a job's
			 * loop registering a hook on each reads those) */
			value_t *u = unknown_at(f, site, afmt(in, "the modules under it are not known: %s", why));

			u->some = v_seq(in->a, VK_LIST, 0)->u.seq;
			nseen = 0;
			walk_known_modules(in, m, "", u->some, &seen, &nseen, named, 0);
			free(seen);
			return u;
		}
		free(seen);
	}
	if (!named)
		for (i = 0; i < out->u.seq->n; i++)
			out->u.seq->items[i] = out->u.seq->items[i]->u.seq->items[1];
	return out;
}

/* parameters() / named_parameters() in job code: a list whose length is
 * not known (how many parameter tensors the modules register is not
 * counted here) holding one representative item, a parameter -- on the
 * device when the module was moved there, else where it is not known --
 * or (its name, not known; the parameter).  A loop over it runs once, its
 * count not known (`for name, p in model.named_parameters(): ...
 * p.grad.norm().item()` is a sync per parameter).  In a forward: not
 * known, as before. */
/* A module whose tensors the job built on the host: constructed by the
 * job's code (not loaded, no other path's object), never moved, no
 * default device set, and no layer under it given a device= or
 * device_map= argument, no module from outside the repository under it.
 * 0 when not sure. */
static int built_on_host(struct interp *in, const struct vinst *m, int depth)
{
	size_t i;

	if (depth > 32)
		return 0;
	if (m->on_host && !m->on_device) {
		/* moved back by model.cpu(): host, whatever it was built as
		 * (each module under it moved with it) */
		for (i = 0; i < m->nchildren; i++)
			if (!m->children[i].inst || !built_on_host(in, m->children[i].inst, depth + 1))
				return 0;
		return 1;
	}
	if (m->on_device || (m->alt_other && !m->alt_other_host) || !m->constructed_at ||
	    !(m->mod == VM_REPO || m->mod == VM_LAYER || m->mod == VM_CONTAINER))
		return 0;
	if (m->args && (vdict_gets(m->args, "device") || vdict_gets(m->args, "device_map")))
		return 0;
	for (i = 0; i < m->nchildren; i++)
		if (!m->children[i].inst || !built_on_host(in, m->children[i].inst, depth + 1))
			return 0;
	return 1;
}

int module_built_on_host(struct interp *in, const struct vinst *m)
{
	return !in->default_dev && built_on_host(in, m, 0);
}

void module_alt_other(struct interp *in, struct vinst *m, const struct vinst *other)
{
	int host = other && other != m && other->mod != VM_NONE && built_on_host(in, other, 0);

	m->alt_other_host = m->alt_other ? m->alt_other_host && host : host;
	m->alt_other = 1;
}

static value_t *module_parameters(struct frame *f, value_t *self, int named, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	value_t *out, *p;

	if (!m || m->mod == VM_NONE || f->mode == M_FWD)
		return unknown_at(f, site, "the parameters of a module, listed at run time");
	if (m->on_device)
		p = v_tensor_dev(in->a, DEV_DEVICE, 0);
	else if (!in->default_dev && built_on_host(in, m, 0)) {
		p = v_tensor_dev(in->a, DEV_HOST, 0);
		p->host_sure = 1;
		/* the module it was listed from: moved later, its parameters
		 * move with it in place (tensor_attr asks again) */
		p->param_of = (struct vinst *)m;
	} else
		p = v_tensor(in->a);
	/* whose parameter it is (a DeepSpeed ZeRO-3 engine's module's
	 * parameters carry ds_id: dsengine.c) */
	p->param_of = (struct vinst *)m;
	p->is_param = 1;
	/* what a parameter holds (catalog dtype_rules "parameters"): floats */
	p->dt = shape_dtype_of_call(in->cat, "parameters", NULL, 0, NULL);
	if (named) {
		value_t *pair = v_seq(in->a, VK_TUPLE, 2);

		vseq_push(in->a, pair->u.seq, fact_set_plain(unknown_at(f, site, PARAM_NAME_REASON)));
		vseq_push(in->a, pair->u.seq, p);
		p = pair;
	}
	out = v_seq(in->a, VK_LIST, 1);
	vseq_push(in->a, out->u.seq, p);
	out->u.seq->unk_expr = site ? text_of(f, site) : NULL;
	out->u.seq->unk_reason = "how many parameter tensors the modules register is not counted";
	return out;
}


/* An instance of a repository nn.Module subclass that owns no tensor: its
 * classes derive from torch.nn.Module alone (no outside layer class that
 * registers its own), every attribute it holds is a known Python scalar
 * (a float set in __init__: no tensor, parameter, buffer, nor anything
 * not known -- a value set on an undecided path is not known) and every
 * submodule owns none either.  0 when not sure. */
static int repo_owns_no_tensor(struct interp *in, const struct vinst *m, int depth)
{
	size_t i;

	if (depth > 32 || !m->cls || !m->constructed_at || !class_ext_bases_only(in, m->cls, "torch.nn.Module"))
		return 0;
	for (i = 0; m->attrs && i < m->attrs->n; i++)
		if (!value_is_known_scalar(m->attrs->vals[i]))
			return 0;
	for (i = 0; i < m->nchildren; i++) {
		const struct vinst *c = m->children[i].inst;

		if (!c || !(c->mod == VM_REPO ? repo_owns_no_tensor(in, c, depth + 1)
		                               : c->mod == VM_LAYER && module_layer_owns_no_tensor(in, c)))
			return 0;
	}
	return 1;
}

/* A module that owns no tensor, so `.to(device)` of it moves nothing: a
 * torch.nn layer (layer_owns_no_tensor: nn.CrossEntropyLoss()) or a
 * repository module (repo_owns_no_tensor: a loss keeping only floats).
 * 0 when not sure. */
static int owns_no_tensor(struct interp *in, const value_t *self)
{
	const struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;

	if (!m)
		return 0;
	return m->mod == VM_REPO ? repo_owns_no_tensor(in, m, 0) : module_layer_owns_no_tensor(in, m);
}

/* A torch.nn layer that owns no tensor: the catalogue counts no
 * parameter for it with these arguments, it is not a norm (running
 * statistics are buffers) and it was given no weight / pos_weight tensor
 * (a loss's class weights are a buffer).  0 when not sure. */
int module_layer_owns_no_tensor(struct interp *in, const struct vinst *m)
{
	static const char *const buffer_args[] = { "weight", "pos_weight", NULL };
	size_t i;

	if (m->mod != VM_LAYER || !m->ext || m->nchildren || strstr(m->ext, "Norm"))
		return 0;
	if (cg_param_count(in->cat, m) != 0)
		return 0;
	for (i = 0; buffer_args[i]; i++) {
		const value_t *w = m->args ? vdict_gets(m->args, buffer_args[i]) : NULL;

		if (w && w->k != VK_NONE)
			return 0;
	}
	return 1;
}

/* .train(on) / .eval(): m and every module under it. */
void module_set_training(struct interp *in, struct vinst *m, int on, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	vdict_sets(in->a, m->attrs, "training", v_bool(in->a, on));
	for (i = 0; i < m->nchildren; i++)
		module_set_training(in, m->children[i].inst, on, depth + 1);
}

/* model.load_state_dict(sd) in job code: each tensor of sd copied into
 * the module's own.  A state loaded onto the device (torch.load with
 * map_location naming one) into a module whose tensors are on the host --
 * built in job code with no default device set, not moved -- is a copy
 * from device to host, which waits for the device: a sync.  Anything
 * less certain states nothing. */
static const char *sd_wrapper(struct interp *in, const struct vinst *m, const char **op, int *sharded, int depth);
static int state_dict_effects(struct frame *f, value_t *self, const struct ast_hdr *site);

/* Every parallel wrapper around m (its words of parallel_wrappers) is
 * one whose object's load_state_dict is nn.Module's, over m's own tensors
 * (catalog module_state_wrappers: DDP); 0 when one is not, or none is
 * parallel (the value is no such wrapper's). */
static int wrappers_load_as_module(struct interp *in, const struct vinst *m)
{
	const char *w;
	size_t i;
	int any = 0;

	for (i = 0; i < m->nwrapped; i++) {
		if (!(w = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, m->wrapped_by[i])))
			continue;
		if (!catalog_fact(in->cat, CATALOG_F_MODULE_STATE_WRAPPERS, w))
			return 0;
		any = 1;
	}
	return any;
}

/* m is not wrapped, or self is the wrapped module itself (model.module,
 * or the name bound before the wrap: not the wrapper's value) or the
 * value of a wrapper whose load_state_dict is Module's (DDP: entries
 * under 'module.' copied into m's tensors), and no unit of a sharding
 * wrapper (catalog fsdp_state_dict) is m or under it: its load_state_dict
 * is torch's Module's, copying into its own tensors */
static int loads_as_module(struct interp *in, const value_t *self, const struct vinst *m)
{
	const char *op = NULL;
	int sharded = 0;

	if (!m->nwrapped)
		return 1;
	return (!self->via_wrapper || wrappers_load_as_module(in, m)) && !sd_wrapper(in, m, &op, &sharded, 0);
}

static void module_set_on_device(struct vinst *m, int how, int depth);
static int move_how(const struct frame *f, const struct vinst *m);

/* m and the modules under it hold real tensors from now on (a state
 * assigned to a module built on the meta device, or to_empty()): a later
 * move copies them (vinst.on_meta cleared). */
static void module_off_meta(struct vinst *m, int depth)
{
	size_t i;

	if (!m || depth > 64)
		return;
	m->on_meta = 0;
	for (i = 0; i < m->nchildren; i++)
		module_off_meta(m->children[i].inst, depth + 1);
}

/* model.load_state_dict(sd, assign=True): the module takes sd's tensors
 * as its own, nothing copied -- a state loaded onto the device leaves it
 * on the device (a model built on the meta device and filled from a
 * checkpoint loaded there: util.load_flow_model's pattern), under an
 * undecided condition maybe so */
static void load_state_dict_effects(struct frame *f, value_t *self, const value_t *sd, int assign,
                                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	struct sched_ev *e;

	if (assign) {
		if (m && m->mod != VM_NONE)
			module_off_meta(m, 0);    /* the state's tensors are its own now */
		if (f->mode != M_FWD && m && m->mod != VM_NONE && loads_as_module(in, self, m) && sd &&
		    sd->k == VK_UNKNOWN && sd->reason && !strcmp(sd->reason, LOADED_ON_DEVICE_REASON))
			module_set_on_device(m, move_how(f, m), 0);
		return;
	}

	/* a state loaded on the host (map_location='cpu') into a module on
	 * the device (moved, or built with a device as the default): each
	 * tensor copied host to device -- through model.module of a DDP
	 * wrap too */
	if (f->mode != M_FWD && m && m->mod != VM_NONE && (m->on_device || module_built_on_device(in, m)) &&
	    loads_as_module(in, self, m) && sd && sd->k == VK_UNKNOWN &&
	    sd->reason && !strcmp(sd->reason, LOADED_ON_HOST_REASON) && !owns_no_tensor(in, self) &&
	    (e = sev(f, SEV_H2D, "load_state_dict of a state loaded on the host into a device model", site))) {
		e->pinned = 0;
		e->non_blocking = 0;
		e->weights = 1;
		return;
	}

	if (f->mode == M_FWD || !m || m->mod == VM_NONE || m->on_device || in->default_dev || !m->constructed_at ||
	    m->nwrapped || !sd || sd->k != VK_UNKNOWN || !sd->reason || strcmp(sd->reason, LOADED_ON_DEVICE_REASON) ||
	    owns_no_tensor(in, self))
		return;
	if ((e = sev(f, SEV_SYNC, "load_state_dict of a state loaded onto the device into a host model (device to host)", site)))
		e->weights = 1;
}

/* model.to(device): m and every module under it hold their parameters
 * and buffers on the device. */
/* The word of a parallel wrapper whose state_dict() communicates (catalog
 * fsdp_state_dict) wrapping m or a module under it, in *op its collective;
 * *sharded is raised to 1 when such a unit is known sharded, to -1 from 0
 * when one's sharding is not known (wrap_sharded).  NULL when none (or
 * deeper than 32). */
static const char *sd_wrapper(struct interp *in, const struct vinst *m, const char **op, int *sharded, int depth)
{
	const char *w, *found = NULL;
	size_t i;

	if (!m || depth > 32)
		return NULL;
	for (i = 0; i < m->nwrapped && !found; i++) {
		w = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, m->wrapped_by[i]);
		if (w && (*op = catalog_fact(in->cat, CATALOG_F_FSDP_STATE_DICT, w))) {
			int s = wrap_sharded(in, m);

			if (s == 1 || (s < 0 && *sharded == 0))
				*sharded = s;
			found = w;
		}
	}
	for (i = 0; i < m->nchildren; i++)
		if ((w = sd_wrapper(in, m->children[i].inst, op, sharded, depth + 1)) && !found)
			found = w;
	return found;
}

const char *module_sd_wrapper(struct interp *in, const struct vinst *m, const char **op, int *sharded)
{
	return sd_wrapper(in, m, op, sharded, 0);
}

/* model.state_dict() in job code, of a module that is or holds a unit of
 * FSDP1 (catalog fsdp_state_dict): under the default FULL_STATE_DICT every
 * unit is unsharded for it -- a collective event, implied by the wrapper;
 * none in the body of a `with` choosing another type (in->sd_type_scoped;
 * schedule.c drops them when the job sets one for good).  1 when self is
 * or holds such a unit (read in the job, not in such a body). */
static int state_dict_effects(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *op = NULL, *w;
	struct sched_ev *e;
	int sharded = 0;

	if (f->mode == M_FWD || in->sd_type_scoped || self->k != VK_INST ||
	    !(w = sd_wrapper(in, self->u.inst, &op, &sharded, 0)))
		return 0;
	/* NO_SHARD units have nothing to gather */
	if (sharded == 0)
		return 1;
	if ((e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site))) {
		e->op = op;
		e->async_op = -1;
		e->parallelism = "data";
		e->implied_by = w;
		/* in a body keeping the full type the job's choice is known */
		e->target = in->sd_full ? "full_state_dict" : "state_dict";
		if (sharded < 0)
			e->detail_text = "an FSDP unit under it is sharded (not NO_SHARD): its sharding strategy is not known";
	}
	return 1;
}

/* A library's module ecg does not build (libvalues.c: from_pretrained,
 * a module factory) held in an attribute of m is a submodule of m all
 * the same (nn.Module.__setattr__ registers any Module): m's move moves
 * it, in place, as its own .to() would (from LIB_MODULE_HOST_REASON to
 * LIB_MODULE_DEVICE_REASON, or back) */
static void lib_attrs_move(struct vinst *m, const char *from, const char *to)
{
	size_t i;

	for (i = 0; m->attrs && i < m->attrs->n; i++) {
		value_t *v = m->attrs->vals[i];

		if (v && v->k == VK_UNKNOWN && !v->alts && v->reason && !strcmp(v->reason, from))
			v->reason = to;
	}
}

/* How sure a move of m made in f's context is: 1 when every condition
 * not decided around it was already around m's construction (m exists
 * only on the paths where they hold, so wherever m exists the move ran:
 * a job function called on both paths of `if n_gpus > 1: spawn(train)
 * else: train(0)` builds and moves its models on each), else 2.  The
 * contexts form a tree: the move's innermost condition found in the
 * construction's chain means every one above it is there too. */
static int move_how(const struct frame *f, const struct vinst *m)
{
	const struct jctx *c = jc_find(f->jc, JC_COND), *b;

	if (!c)
		return 1;
	for (b = m ? m->built_ctx : NULL; b; b = b->up)
		if (b == c)
			return 1;
	return 2;
}

/* m and the modules under it moved to the device: on_device 1, or 2 when
 * the move ran under a condition not decided (its tensors are read as on
 * the device all the same, but a later move is no no-op for sure) */
static void module_set_on_device(struct vinst *m, int how, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	if (m->on_device != 1)
		m->on_device = how;
	m->on_host = 0;
	lib_attrs_move(m, LIB_MODULE_HOST_REASON, LIB_MODULE_DEVICE_REASON);
	for (i = 0; i < m->nchildren; i++)
		module_set_on_device(m->children[i].inst, how, depth + 1);
}

void module_placed_on_device(struct frame *f, struct vinst *m)
{
	module_set_on_device(m, move_how(f, m), 0);
}

/* m and the modules under it moved back to the host (model.cpu()) */
static void module_set_on_host(struct vinst *m, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	m->on_device = 0;
	m->on_host = 1;
	lib_attrs_move(m, LIB_MODULE_DEVICE_REASON, LIB_MODULE_HOST_REASON);
	for (i = 0; i < m->nchildren; i++)
		if (m->children[i].inst && m->children[i].inst != m)
			module_set_on_host(m->children[i].inst, depth + 1);
}

/* Are m and every module under it on the device already (moved there by
 * an earlier .to(device) that surely ran, or built there)?  A module
 * added since is not. */
static int module_all_on_device(struct interp *in, const struct vinst *m, int depth)
{
	size_t i;

	/* a module holding only submodules is where they are (shellmod.c) */
	if (m->mod == VM_NONE || (m->on_device != 1 && !shell_module(in, m)))
		return 0;
	if (depth > 64)
		return 1;      /* a cycle (model._original_forward = model.forward) */
	for (i = 0; i < m->nchildren; i++)
		if (m->children[i].inst != m && m->children[i].inst->mod != VM_NONE &&
		    !module_all_on_device(in, m->children[i].inst, depth + 1))
			return 0;
	return 1;
}

/* self (a module) moved to the device dv (not the host): its parameters
 * and buffers copied host to device at site (blocking unless
 * non_blocking), unless they all live on a device already (accelerate's
 * prepare() moving the model the script moved: a no-op, or a
 * device-to-device move) or it owns no tensor; the module on the device
 * from then on (maybe so under an undecided condition).  model.to(device)
 * and the wrappers that move what they wrap (module_moved_by_wrapper). */
static void module_copy_to_device(struct frame *f, value_t *self, const value_t *dv, int non_blocking,
                                  const char *what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct sched_ev *e;
	int there = self->k == VK_INST && module_all_on_device(in, self->u.inst, 0);

	in->gpu = 1;
	if (self->k == VK_INST && (!dv || dev_is_host(dv) != 1)) {
		/* under an undecided condition not around its construction:
		 * maybe moved (move_how) */
		module_set_on_device(self->u.inst, move_how(f, self->u.inst), 0);
	}
	/* (a module built on the meta device holds no data: its move --
	 * FSDP's materialising, to_empty -- copies nothing) */
	if (f->mode != M_FWD && !there && !owns_no_tensor(in, self) &&
	    !(self->k == VK_INST && self->u.inst->on_meta) && (e = sev(f, SEV_H2D, what, site))) {
		e->pinned = 0;
		e->non_blocking = non_blocking;
		e->weights = 1;
	}
}

static void module_to_device(struct frame *f, value_t *self, const value_t *dv, int non_blocking, const char *what,
                             const struct ast_hdr *site)
{
	devchoice_place(f, dv);
	module_copy_to_device(f, self, dv, non_blocking, what, site);
}

void module_moved_to_machine_gpu(struct frame *f, value_t *self, const char *wrapper, const struct ast_hdr *site)
{
	if (self->k != VK_INST || self->u.inst->mod == VM_NONE)
		return;
	module_copy_to_device(f, self, NULL, 0,
	                      afmt(f->in, "%s moves the module's parameters and buffers to its one device",
	                           short_ext(wrapper)),
	                      site);
}

void module_moved_by_wrapper(struct frame *f, value_t *self, const char *wrapper, const value_t *dv,
                             const struct ast_hdr *site)
{
	if (self->k != VK_INST || self->u.inst->mod == VM_NONE || !dv || dv->k == VK_NONE || dev_is_host(dv) == 1)
		return;
	module_to_device(f, self, dv, 0,
	                 afmt(f->in, "%s moves the module's parameters and buffers to its device", short_ext(wrapper)),
	                 site);
}

/* model.cpu(), model.to("cpu"): a module surely on the device copies
 * its parameters and buffers to the host, blocking (a sync); under no
 * undecided condition it is then on the host (its state_dict holds host
 * tensors: torch.save of it copies nothing).  A module maybe on the
 * device (moved under a condition) states nothing.  Returns self. */
static value_t *module_to_host(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	struct sched_ev *e;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;

	if (!m || m->mod == VM_NONE || f->mode == M_FWD)
		return self;
	if (module_all_on_device(f->in, m, 0) && !owns_no_tensor(f->in, self) &&
	    (e = sev(f, SEV_D2H, "model.cpu(): parameters and buffers", site)))
		e->non_blocking = 0;
	if (!jc_find(f->jc, JC_COND))
		module_set_on_host(m, 0);
	return self;
}

/* .train(mode) with a mode not known. */
static void module_set_training_unknown(struct interp *in, struct vinst *m, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	vdict_sets(in->a, m->attrs, "training", v_unknown(in->a, "mode", "train(mode) with a mode not known"));
	for (i = 0; i < m->nchildren; i++)
		module_set_training_unknown(in, m->children[i].inst, depth + 1);
}

/* A model called from job code: each module's training flag then is what
 * its forward reads (`if self.training:`) -- when every call of the job
 * saw the same flag.  Called both in training and in eval mode (a
 * trainer's periodic evaluation), the flag the forward reads is unknown. */
void module_snapshot_training(struct interp *in, struct vinst *m, int depth)
{
	value_t *t, *was;
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	t = vdict_gets(m->attrs, "training");
	if (!t)
		t = v_bool(in->a, 1);
	was = vdict_gets(m->attrs, "__ecg_training_at_call__");
	if (!was)
		vdict_sets(in->a, m->attrs, "__ecg_training_at_call__", t);
	else if (!(was->k == VK_BOOL && t->k == VK_BOOL && was->u.b == t->u.b))
		vdict_sets(in->a, m->attrs, "__ecg_training_at_call__",
		           v_unknown(in->a, "self.training", TRAINING_BOTH_MODES));
	for (i = 0; i < m->nchildren; i++)
		module_snapshot_training(in, m->children[i].inst, depth + 1);
}

void module_add_buffer(struct interp *in, struct vinst *m, const char *name, const struct vshape *shape)
{
	value_t *b = v_tensor(in->a);
	value_t *bufs = vdict_gets(m->attrs, "__ecg_buffers__");

	b->shape = shape;
	vdict_sets(in->a, m->attrs, name, b);
	/* the tensors registered as buffers: they move with the
	 * module (inst_attr), as long as the name holds them */
	if (!bufs || bufs->k != VK_LIST) {
		bufs = v_seq(in->a, VK_LIST, 1);
		vdict_sets(in->a, m->attrs, "__ecg_buffers__", bufs);
	}
	vseq_push(in->a, bufs->u.seq, b);
}

int module_rebind_buffer(struct interp *in, struct vinst *m, const char *name, value_t *v)
{
	value_t *bufs = vdict_gets(m->attrs, "__ecg_buffers__");
	value_t *old = vdict_gets(m->attrs, name);
	value_t *nb;
	size_t i;

	/* (after the module moved, the new tensor stays where it was made
	 * -- `m.mask = torch.zeros(4)` after m.cuda() is on the host -- as
	 * attr.c's "moved with the module" would not say) */
	if (m->on_device || !bufs || bufs->k != VK_LIST || !old || !v || v->k != VK_TENSOR || old == v)
		return 0;
	for (i = 0; i < bufs->u.seq->n && bufs->u.seq->items[i] != old; i++)
		;
	if (i == bufs->u.seq->n)
		return 0;
	/* a new list: the old one stays with the other path of an
	 * undecided `if` (journal.c restores the key) */
	nb = v_seq(in->a, VK_LIST, bufs->u.seq->n);
	for (size_t j = 0; j < bufs->u.seq->n; j++)
		vseq_push(in->a, nb->u.seq, j == i ? v : bufs->u.seq->items[j]);
	journal_note(in, m->attrs, "__ecg_buffers__");
	vdict_sets(in->a, m->attrs, "__ecg_buffers__", nb);
	return 1;
}

/* ModuleList.insert(index, module), as torch does it: the children from
 * index on move up one place (their names are their indices).  An index
 * or a module not known, or one out of 0..len: the order is not known. */
static value_t *modulelist_insert(struct frame *f, value_t *self, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	struct vinst *m = self->k == VK_INST ? self->u.inst : NULL;
	size_t i, n;

	if (!m || m->mod != VM_CONTAINER)
		return v_none(in->a);
	n = m->nchildren;
	if (nargs != 2 || args[0]->k != VK_INT || args[1]->k != VK_INST || args[0]->u.i < 0 ||
	    (unsigned long long)args[0]->u.i > n) {
		if (!vdict_gets(m->attrs, "__ecg_len_unknown__"))
			vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
			           v_unknown(in->a, "insert()", "a module inserted at a place not known"));
		return v_none(in->a);
	}
	vinst_add_child(in->a, m, afmt(in, "%zu", n), n ? m->children[n - 1].inst : args[1]->u.inst);
	for (i = n; i > (size_t)args[0]->u.i; i--)
		m->children[i].inst = m->children[i - 1].inst;
	m->children[i].inst = args[1]->u.inst;
	return v_none(in->a);
}

/* module.register_forward_hook(fn) / register_forward_pre_hook(fn): fn
 * kept on the module (in->hooks) when it is a repo callable; returns a
 * handle (torch.utils.hooks.RemovableHandle) whose remove() drops it.
 * A callable not known is not kept (its events are not read). */
static value_t *register_fwd_hook(struct frame *f, value_t *fn, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self, *hv;
	struct vinst *h;

	h = new_inst(in);
	h->mod = VM_NONE;
	h->ext = "torch.utils.hooks.RemovableHandle";
	hv = mk_inst_value(in, h);
	vdict_sets(in->a, h->attrs, "remove", mk_builtin(in, BI_M_HOOK_REMOVE, hv));
	if (nargs >= 1 && self && self->k == VK_INST &&
	    (args[0]->k == VK_FUNC || args[0]->k == VK_BOUND)) {
		struct fwdhook *k;

		GROW(in->hooks, in->ahooks, in->nhooks + 1);
		k = &in->hooks[in->nhooks];
		memset(k, 0, sizeof *k);
		k->m = self->u.inst;
		k->fn = args[0];
		k->pre = fn->u.bi.id == BI_M_MOD_FWD_PRE_HOOK;
		k->reg_at = in->nsev;
		k->reg_jc = jc_here(f);
		vdict_sets(in->a, h->attrs, "__ecg_hook__", v_int(in->a, (long long)in->nhooks));
		in->nhooks++;
	}
	return hv;
}

value_t *call_module_method(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *items = NULL;
	size_t i;

	switch (fn->u.bi.id) {
	case BI_M_MOD_ADD_MODULE:
		if (nargs == 2 && args[0]->k == VK_STR)
			set_attr(f, self, args[0]->u.str.s, args[1]);
		return v_none(in->a);
	case BI_M_MOD_APPEND:
		/* a module not known appended: the children seen are not all */
		if (nargs == 1 && args[0]->k != VK_INST && self->k == VK_INST && self->u.inst->mod == VM_CONTAINER &&
		    !vdict_gets(self->u.inst->attrs, "__ecg_len_unknown__"))
			vdict_sets(in->a, self->u.inst->attrs, "__ecg_len_unknown__",
			           v_unknown(in->a, args[0]->expr,
			                     args[0]->k == VK_UNKNOWN && args[0]->reason ? args[0]->reason
			                     : "a value not known appended"));
		if (nargs == 1 && args[0]->k == VK_INST && self->k == VK_INST) {
			struct vinst *m = self->u.inst;

			vinst_add_child(in->a, m, afmt(in, "%zu", m->nchildren), args[0]->u.inst);
			if (f->mult.reason && !vdict_gets(m->attrs, "__ecg_len_unknown__"))
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, f->mult.expr, f->mult.reason));
		}
		return v_none(in->a);
	case BI_M_MOD_EXTEND:
		if (nargs == 1 && self->k == VK_INST) {
			struct vinst *m = self->u.inst;

			if (!iter_items(f, args[0], &items)) {
				for (i = 0; i < items->n; i++)
					if (items->items[i]->k == VK_INST)
						vinst_add_child(in->a, m, afmt(in, "%zu", m->nchildren), items->items[i]->u.inst);
			} else {
				vdict_sets(in->a, m->attrs, "__ecg_len_unknown__",
				           v_unknown(in->a, args[0]->expr, "extended with modules not known"));
			}
		}
		return v_none(in->a);
	case BI_M_MOD_INSERT:
		return modulelist_insert(f, self, args, nargs);
	case BI_FN_APPLY: {
		/* MyFunction.apply(x): its forward now, its backward in the
		 * backward pass (both read, collectives in each recorded) */
		struct vclass *c = self->u.cls;
		value_t *fwd = class_lookup(c, "forward", NULL), *bwd = class_lookup(c, "backward", NULL);
		value_t *setup = class_lookup(c, "setup_context", NULL);
		value_t **all = xmalloc((nargs + 1) * sizeof *all);
		value_t *r = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
		/* a Function that defines setup_context (torch >= 2.0's form)
		 * has a forward without ctx: the inputs alone; autograd then
		 * calls setup_context(ctx, inputs, output) */
		int own_ctx = !(setup && setup->k == VK_FUNC);

		/* autograd's context object: a plain object the forward sets
		 * attributes on (ctx.run_function = fn) and reads them back */
		all[0] = mk_inst_value(in, new_inst(in));
		for (i = 0; i < nargs; i++)
			all[i + 1] = args[i];
		if (fwd && fwd->k == VK_FUNC)
			r = call_function(f, fwd->u.fn, NULL, all + !own_ctx, nargs + own_ctx, kw, f->mode, f->ev, site);
		if (!own_ctx) {
			value_t *sc[3];
			value_t *ins = v_seq(in->a, VK_TUPLE, 0);

			for (i = 0; i < nargs; i++)
				vseq_push(in->a, ins->u.seq, args[i]);
			sc[0] = all[0];
			sc[1] = ins;
			sc[2] = r;
			(void)call_function(f, setup->u.fn, NULL, sc, 3, NULL, f->mode, f->ev, site);
		}
		if (bwd && bwd->k == VK_FUNC) {
			value_t *g[2];
			int ob = f->in_backward;
			struct fseq sink;

			memset(&sink, 0, sizeof sink);
			g[0] = all[0];
			g[1] = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
			f->in_backward = 1;
			/* the backward's ops are not this forward's: they go nowhere */
			(void)call_function(f, bwd->u.fn, NULL, g, 2, NULL, f->mode, &sink, site);
			f->in_backward = ob;
		}
		free(all);
		return r;
	}
	case BI_M_MOD_SELF:
		return self;
	case BI_M_MOD_PARAMETERS:
	case BI_M_MOD_NAMED_PARAMETERS:
		return module_parameters(f, self, fn->u.bi.id == BI_M_MOD_NAMED_PARAMETERS, site);
	case BI_M_MOD_STATE_DICT: {
		value_t *sd;

		/* FSDP's full state offloaded to the host (sdfull.c) */
		if (state_dict_effects(f, self, site) && in->sd_full && (sd = sdfull_copy(f, 0, site)))
			return sd;
		sd = unknown_at(f, site, "a module's state dict, read at run time");
		/* of a module the job built on the host and never moved: host
		 * tensors (torch.save of it copies nothing off a device) */
		if (self->k == VK_INST && self->u.inst->mod != VM_NONE && module_built_on_host(in, self->u.inst))
			sd->dev = DEV_HOST;
		/* of a module on the device (moved there, or built under a
		 * device default): names not known, each a device tensor -- a
		 * pass over its items reads device tensors ({k: v.cpu() ...}) */
		else if (self->k == VK_INST && self->u.inst->mod != VM_NONE && self->u.inst->on_device &&
		         f->mode != M_FWD) {
			sd = v_dict(in->a);
			sd->u.dict->anykey = 2;
			sd->u.dict->anyval = v_tensor_dev(in->a, DEV_DEVICE, 0);
		}
		return sd;
	}
	case BI_M_MOD_LOAD_STATE_DICT:
		load_state_dict_effects(f, self, nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "state_dict") : NULL,
		                        (nargs >= 3 && value_truth(args[2]) == 1) ||
		                        (kw && vdict_gets(kw, "assign") && value_truth(vdict_gets(kw, "assign")) == 1),
		                        site);
		return unknown_at(f, site, "the missing and unexpected keys, known at run time");
	case BI_M_MOD_CPU:
		return module_to_host(f, self, site);
	case BI_M_MOD_COMPILE: {
		/* model.compile(...): the module's __call__ compiled in place
		 * (torch.compile of its forward); returns None */
		struct sched_ev *e;
		value_t *mode = kw ? vdict_gets(kw, "mode") : NULL;

		if (kw && vdict_gets(kw, "disable") && value_truth(vdict_gets(kw, "disable")) == 1)
			return v_none(in->a);
		if (f->mode != M_FWD && (e = sev(f, SEV_COMPILE, "nn.Module.compile", site))) {
			if (AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Attribute))
				e->target = text_of(f, AST_AS(AST_AS(site, Call)->func, Attribute)->value);
			e->op = mode && mode->k == VK_STR ? mode->u.str.s : NULL;
			e->model = self->k == VK_INST ? self->u.inst : NULL;
		}
		return v_none(in->a);
	}
	case BI_M_MOD_TO_EMPTY: {
		/* model.to_empty(device=d): fresh storage on d, nothing copied
		 * (a model built on the meta device, then initialised there):
		 * on a device, the module's tensors live there from now on */
		value_t *dv = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "device") : NULL;

		if (self->k == VK_INST)
			module_off_meta(self->u.inst, 0);   /* fresh storage: real tensors */
		if (self->k == VK_INST && dv && dev_is_host(dv) != 1) {
			in->gpu = 1;
			devchoice_place(f, dv);
			module_set_on_device(self->u.inst, move_how(f, self->u.inst), 0);
		}
		return self;
	}
	case BI_M_MOD_TO:
		if ((nargs >= 1 && dev_is_host(args[0]) == 1) ||
		    (nargs == 0 && kw && vdict_gets(kw, "device") && dev_is_host(vdict_gets(kw, "device")) == 1))
			return module_to_host(f, self, site);
		if (!(nargs >= 1 && dev_is_host(args[0]) == 1) &&
		    !(nargs >= 1 && value_is_dtype(in->cat, args[0])) &&
		    !(nargs == 0 && kw && !vdict_gets(kw, "device")))
			module_to_device(f, self, nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "device") : NULL,
			                 kw_bool(kw, "non_blocking"), "model.to(device): parameters and buffers", site);
		return self;
	case BI_M_MOD_REGISTER_PARAMETER:
		if (nargs >= 2 && args[0]->k == VK_STR && self->k == VK_INST) {
			value_t *p = args[1];

			if (p->k == VK_TENSOR && !p->is_param) {
				p = v_copy(in->a, p);
				p->is_param = 1;
			}
			vdict_sets(in->a, self->u.inst->attrs, args[0]->u.str.s, p);
		}
		return v_none(in->a);
	case BI_M_MOD_REGISTER_BUFFER:
		if (nargs >= 2 && args[0]->k == VK_STR && self->k == VK_INST)
			module_add_buffer(in, self->u.inst, args[0]->u.str.s, shape_of(args[1]));
		return v_none(in->a);
	case BI_M_MOD_FWD_HOOK:
	case BI_M_MOD_FWD_PRE_HOOK:
		return register_fwd_hook(f, fn, args, nargs);
	case BI_M_HOOK_REMOVE: {
		/* handle.remove(): the hook no longer runs from here on
		 * (interp.c hook_removed: read now if it ran at a model call) */
		value_t *ix = self && self->k == VK_INST ? vdict_gets(self->u.inst->attrs, "__ecg_hook__") : NULL;
		value_t *gx = self && self->k == VK_INST ? vdict_gets(self->u.inst->attrs, "__ecg_grad_hook__") : NULL;

		if (gx && gx->k == VK_INT)
			gradhook_removed(in, gx->u.i);   /* a tensor hook's handle */
		if (ix && ix->k == VK_INT && ix->u.i >= 0 && (size_t)ix->u.i < in->nhooks)
			hook_removed(f, (size_t)ix->u.i);
		return v_none(in->a);
	}
	case BI_M_MOD_GENERATE: {
		/* model.generate(**batch) of a library's model: a call of the
		 * model (the job's step sees it) made under no_grad, as the
		 * library's generate is decorated; what comes back are token
		 * ids where the model's outputs are */
		int ong = f->no_grad;
		value_t *r;

		f->no_grad = 1;
		r = call(f, self, args, nargs, kw, site);
		f->no_grad = ong;
		return r;
	}
	case BI_M_MOD_TRAIN:
	case BI_M_MOD_EVAL: {
		/* model.train(), model.train(False), model.eval(): a mode
		 * not known leaves every flag unknown */
		value_t *mode = fn->u.bi.id == BI_M_MOD_EVAL ? NULL : nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "mode") : NULL;
		int on = fn->u.bi.id == BI_M_MOD_EVAL ? 0 : mode ? value_truth(mode) : 1;

		if (self->k == VK_INST && f->mode != M_FWD) {
			/* the run of job code that makes the switch says so
			 * (schedule.c: a run that evaluates inside the step);
			 * its node is the arena's, made by call_function */
			if (on == 0 && in->cur_call)
				((struct sched_call *)in->cur_call)->evals = 1;
			if (on >= 0)
				module_set_training(in, self->u.inst, on, 0);
			else
				module_set_training_unknown(in, self->u.inst, 0);
		}
		return self;
	}
	case BI_M_MOD_BASE_INIT:
		/* super().__init__(a, b) into nn.Sequential's constructor: a and
		 * b are its children; into a torch.nn layer's (timm's
		 * LayerNorm(nn.LayerNorm)): its arguments, for its count; into
		 * torch's Optimizer's (class LARS(optim.Optimizer)): where
		 * its parameters are */
		(void)container_base_init(f, self, args, nargs, kw, site);
		(void)loader_base_init(f, self, args, nargs, kw, site);
		layer_base_init(f, self, args, nargs, kw);
		optim_base_init(f, self, args, nargs, kw);
		argp_base_init(in, self, kw);
		(void)ns_base_init(in, self, kw);
		return v_none(in->a);
	case BI_M_MOD_CHILDREN:
	case BI_M_MOD_NAMED_CHILDREN:
	case BI_M_MOD_MODULES:
	case BI_M_MOD_NAMED_MODULES:
		return module_tree_list(f, self, fn->u.bi.id, site);
	case BI_M_MOD_UPDATE:
		return moduledict_update(f, self, args, nargs, site);
	case BI_M_MOD_ITEMS:
	case BI_M_MOD_KEYS:
		return moduledict_items(f, self, fn->u.bi.id == BI_M_MOD_ITEMS, site);
	case BI_M_MOD_VALUES:
		return moduledict_values(f, self, site);
	default:
		break;
	}
	(void)kw;
	return unknown_at(f, site, "a builtin ecg does not follow");
}
