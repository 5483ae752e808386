/* modtree.c - see include/ecg/modtree.h */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "ecg/catalog_glue.h"
#include "ecg/modtree.h"
#include "ecg/shapes.h"
#include "ecg/util.h"


struct mnode {
	const char *id;
	const char *kind;             /* model, module, layer, container, function, op */
	struct mnode *parent;
	struct mnode **kids;
	size_t nkids, akids;
	int order;                    /* 0: never called (null) */
	struct vinst *inst;           /* modules */
	const struct fev *ev;         /* ops, functions, and a module's first call */
	long long count;              /* calls per call of the parent: -1 unknown, 0 never */
	int counted;
	const char *repeat_expr, *repeat_src, *repeat_reason;
	int repeat_via;
	const char *call_anchor;
	const char *opname;           /* ops a layer expands into (catalogue) */
	long long site_calls;         /* such an op: calls of the layer from its line */
	int emitted;
	int hidden;                   /* stands for modules not listed (see subtree_reason) */
	const char *subtree_reason;   /* its children are not listed: why */
};

struct mt {
	struct interp *in;
	cJSON *config;
	struct ast_arena *a;
	const char *prefix;           /* "" or "netG/" */
	const struct root_call *root_call;  /* the job's call of the root, or NULL */
	value_t *root_ret;            /* what the root's forward returned */
	struct mnode **all;
	size_t nall, aall;
};

static struct mnode *mt_node(struct mt *t, const char *id, const char *kind, struct mnode *parent)
{
	struct mnode *n = ast_arena_alloc(t->a, sizeof *n);

	n->id = id;
	n->kind = kind;
	n->parent = parent;
	GROW(t->all, t->aall, t->nall + 1);
	t->all[t->nall++] = n;
	return n;
}

/* With pipeline parallelism a rank builds its stage's share of the
 * blocks: the whole model's count beside the repeat, when the code pins
 * that every stage builds as many (interp_stage_whole()) and the repeat
 * covers every child of that container. */
static void mt_whole_model(const struct mnode *n, cJSON *r)
{
	const struct vinst *c = n->parent ? n->parent->inst : NULL;
	long long w = interp_stage_whole(c);

	if (w > 0 && n->inst && n->count > 0 && (size_t)n->count == c->nchildren)
		cJSON_AddNumberToObject(r, "whole_model", (double)w);
}

static void mt_adopt(struct mt *t, struct mnode *parent, struct mnode *kid)
{
	if (!parent)
		return;
	ARENA_GROW(t->a, parent->kids, parent->nkids, parent->akids, 8);
	parent->kids[parent->nkids++] = kid;
	kid->order = (int)parent->nkids;
}

static const char *mt_fmt(struct mt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *mt_fmt(struct mt *t, const char *fmt, ...)
{
	buf_t b;
	va_list ap;
	const char *r;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r = ast_arena_strndup(t->a, b.buf, b.len);
	buf_free(&b);
	return r;
}

static const char *kind_of(const struct vinst *m)
{
	switch (m->mod) {
	case VM_LAYER: return "layer";
	case VM_CONTAINER: return "container";
	default: return "module";
	}
}

/* The id of child `name` of the entry `parent_id` (the root is special:
 * "" for a single model, "netG" with children "netG/..."). */
static const char *child_id(struct mt *t, const struct mnode *parent, const char *name)
{
	if (!parent->parent)
		return mt_fmt(t, "%s%s", t->prefix, name);
	return mt_fmt(t, "%s.%s", parent->id, name);
}

/* Do x and y have the same tree: classes and child names, recursively
 * (their arguments may differ)? */
static int same_tree(const struct vinst *x, const struct vinst *y, int depth)
{
	size_t i;

	if (x == y)
		return 1;
	if (depth > 64 || strcmp(interp_class_name(x), interp_class_name(y)) || x->nchildren != y->nchildren)
		return 0;
	for (i = 0; i < x->nchildren; i++)
		if (strcmp(x->children[i].name, y->children[i].name) ||
		    !same_tree(x->children[i].inst, y->children[i].inst, depth + 1))
			return 0;
	return 1;
}

/* m and everything under it are not listed: they stand on the hidden
 * node h (their calls and ops are not read into the tree). */
static void mt_hide(struct vinst *m, struct vinst *parent, struct mnode *h)
{
	size_t i;

	if (m->seen)
		return;
	m->seen = 1;
	m->parent = parent;
	m->mt = h;
	for (i = 0; i < m->nchildren; i++)
		mt_hide(m->children[i].inst, m, h);
}

/* Give every module its id and a node, in named_modules() order. */
static void mt_ids(struct mt *t, struct vinst *m, const char *id, struct mnode *parent_node)
{
	struct mnode *n;
	size_t i;

	if (m->seen)
		return;
	m->seen = 1;
	m->id = id;
	n = mt_node(t, id, parent_node ? kind_of(m) : "model", parent_node);
	n->inst = m;
	m->mt = n;
	if (m->mod == VM_CONTAINER && vdict_gets(m->attrs, "__ecg_len_unknown__") && m->nchildren > 1) {
		/* built in a loop whose trip count is not known: one `*` entry
		 * stands for the children, which is only true when they all
		 * have the first one's tree */
		const char *c0 = interp_class_name(m->children[0].inst);
		const value_t *why = vdict_gets(m->attrs, "__ecg_len_unknown__");
		const char *wr = why && why->k == VK_UNKNOWN && why->reason ? why->reason : "its length is not known";
		int same_class = 1, same = 1;

		for (i = 1; i < m->nchildren; i++) {
			if (strcmp(interp_class_name(m->children[i].inst), c0))
				same_class = 0;
			if (!same_tree(m->children[0].inst, m->children[i].inst, 0))
				same = 0;
		}
		if (!same) {
			struct mnode *h = mt_node(t, NULL, "module", n);

			h->hidden = 1;
			if (!same_class) {
				/* Linear, GELU, Linear, ...: their pattern has no id */
				n->subtree_reason = mt_fmt(t, "its children (%s, %s, ...) are built in a loop whose trip count is not known (%s): how many there are and in which order is not known, so they are not listed",
				                           c0, interp_class_name(m->children[i - 1].inst), wr);
				for (i = 0; i < m->nchildren; i++)
					mt_hide(m->children[i].inst, m, h);
				return;
			}
			/* every child is a c0, their insides differ: `*` with
			 * the class, and nothing below it */
			{
				struct vinst *rep = m->children[0].inst;
				struct mnode *rn;

				rep->seen = 1;
				rep->parent = m;
				rep->id = child_id(t, n, "*");
				rn = mt_node(t, rep->id, kind_of(rep), n);
				rn->inst = rep;
				rep->mt = rn;
				rn->subtree_reason = mt_fmt(t, "the %s children are built in a loop whose trip count is not known (%s) and differ inside: no one subtree stands for them all, so it is not listed",
				                            c0, wr);
				for (i = 0; i < rep->nchildren; i++)
					mt_hide(rep->children[i].inst, rep, h);
				for (i = 1; i < m->nchildren; i++) {
					struct vinst *c2 = m->children[i].inst;
					size_t k;

					if (c2->seen)
						continue;
					c2->seen = 1;
					c2->parent = m;
					c2->id = rep->id;
					c2->mt = rn;
					for (k = 0; k < c2->nchildren; k++)
						mt_hide(c2->children[k].inst, c2, h);
				}
			}
			return;
		}
	}
	if (m->mod == VM_CONTAINER) {
		size_t *starts, ng = interp_container_groups(t->in, m, &starts), g;

		for (g = 0; g < ng; g++) {
			size_t lo = starts[g], hi = starts[g + 1], k;
			const char *seg = NULL;
			int numeric = 1;
			const char *c;

			for (k = lo; k < hi; k++)
				for (c = m->children[k].name; *c; c++)
					if (*c < '0' || *c > '9')
						numeric = 0;
			if (hi - lo > 1 && numeric)
				seg = lo == 0 && hi == m->nchildren ? "*" : mt_fmt(t, "%zu:%zu", lo, hi);
			if (numeric && vdict_gets(m->attrs, "__ecg_len_unknown__"))
				seg = "*";    /* how many there are is not known: all of them */
			for (k = lo; k < hi; k++) {
				struct vinst *c2 = m->children[k].inst;

				if (c2->seen)
					continue;
				c2->parent = m;
				if (!seg || k == lo) {
					mt_ids(t, c2, child_id(t, n, seg ? seg : m->children[k].name), n);
				} else {
					/* the rest of a group share the first one's entry */
					struct vinst *rep = m->children[lo].inst;

					c2->seen = 1;
					c2->id = rep->id;
					c2->mt = rep->mt;
				}
			}
		}
		free(starts);
		return;
	}
	for (i = 0; i < m->nchildren; i++) {
		struct vinst *c2 = m->children[i].inst;

		if (c2->seen)
			continue;
		c2->parent = m;
		mt_ids(t, c2, child_id(t, n, m->children[i].name), n);
	}
}

/* Attach n under its parent (and the parent's own chain first). */
static void mt_attach(struct mt *t, struct mnode *n)
{
	struct mnode *p = n->parent;

	if (!p || n->order)
		return;
	/* a ModuleList or ModuleDict is not called: its children run once
	 * per call of its parent, as if it were not there */
	if (!p->counted && p->inst && p->inst->mod == VM_CONTAINER &&
	    (!p->inst->ext || strcmp(p->inst->ext, "torch.nn.Sequential"))) {
		p->counted = 1;
		p->count = 1;
	}
	mt_attach(t, p);
	mt_adopt(t, p, n);
}

static long long mt_add_counts(long long a, long long b)
{
	if (a < 0 || b < 0)
		return -1;
	return a + b;
}

static void mt_walk(struct mt *t, struct mnode *cur, const struct fev *ev, size_t nev);

/* A layer's ops come from the catalogue, anchored at the line that called
 * the layer (what a profiler's stack shows).  A layer called from several
 * lines gets its ops once per line; each op's site_calls says how often
 * that line calls it. */
static void mt_layer_ops(struct mt *t, struct mnode *n, const struct fev *call)
{
	const char *ops[32];
	size_t nops = n->inst ? cg_ops(interp_catalog(t->in), n->inst, interp_saw_backward(t->in), call->args,
	                               call->nargs, call->kwargs, call->args != NULL || call->nargs == 0, ops, 32) : 0;
	size_t i, k;
	int seen_site = 0;

	for (k = 0; k < n->nkids; k++) {
		struct mnode *o = n->kids[k];

		if (o->opname && o->ev && !strcmp(o->ev->anchor, call->anchor)) {
			o->site_calls = mt_add_counts(o->site_calls, call->repeat);
			seen_site = 1;
		}
	}
	if (seen_site)
		return;
	for (i = 0; i < nops; i++) {
		struct mnode *o = mt_node(t, NULL, "op", n);

		mt_adopt(t, n, o);
		o->id = mt_fmt(t, "%s#%d", n->id, o->order);
		o->ev = call;
		o->count = 1;
		o->counted = 1;
		o->opname = ops[i];
		o->site_calls = call->repeat;
	}
}

static void mt_module_call_(struct mt *t, struct mnode *cur, const struct fev *e);

static void mt_module_call(struct mt *t, struct mnode *cur, const struct fev *e)
{
	if (e->inst && e->inst->mt && ((struct mnode *)e->inst->mt)->hidden)
		return;    /* a module not listed: its calls and ops neither */
	mt_module_call_(t, cur, e);
	if (e->inst && e->inst->mod == VM_LAYER && e->inst->mt)
		mt_layer_ops(t, e->inst->mt, e);
}

static void mt_module_call_(struct mt *t, struct mnode *cur, const struct fev *e)
{
	struct vinst *m = e->inst;
	struct mnode *mn = m ? m->mt : NULL;
	const struct fseq *seq;

	if (!mn) {
		/* a module that named_modules() does not list (kept in a plain
		 * list or created in forward): shown where it is called */
		mn = mt_node(t, NULL, m && m->mod == VM_LAYER ? "layer" : "module", cur);
		mt_adopt(t, cur, mn);
		mn->id = mt_fmt(t, "%s#%d", cur->id, mn->order);
		mn->inst = m;
		if (m)
			m->mt = mn;
		mn->count = e->repeat;
		mn->counted = 1;
		mn->ev = e;
		mn->call_anchor = e->anchor;
		mn->repeat_expr = e->repeat_expr;
		mn->repeat_src = e->repeat_src;
		mn->repeat_via = e->repeat_via;
		mn->repeat_reason = e->repeat_reason;
	} else if (!mn->counted) {
		mn->counted = 1;
		mn->count = e->repeat;
		mn->ev = e;
		mn->call_anchor = e->anchor;
		mn->repeat_expr = e->repeat_expr;
		mn->repeat_src = e->repeat_src;
		mn->repeat_via = e->repeat_via;
		mn->repeat_reason = e->repeat_reason;
		mt_attach(t, mn);
	} else {
		if ((e->cond && e->cond_taken < 0) || (mn->ev && mn->ev->cond && mn->ev->cond_taken < 0)) {
			/* called on two paths of a condition ecg cannot decide */
			mn->count = -1;
			if (!mn->repeat_reason)
				mn->repeat_reason = mt_fmt(t, "called on more than one path of `%s`, which is not decided here",
				                           e->cond ? e->cond : mn->ev->cond);
			if (!mn->repeat_expr)
				mn->repeat_expr = e->cond ? e->cond : mn->ev->cond;
		}
		mn->count = mt_add_counts(mn->count, e->repeat);
		if (e->repeat != 1 && e->repeat_expr && !mn->repeat_expr)
			mn->repeat_expr = e->repeat_expr;
		if (e->repeat < 0 && !mn->repeat_reason)
			mn->repeat_reason = e->repeat_reason;
		if (!mn->repeat_reason && mn->count != 1)
			mn->repeat_expr = mt_fmt(t, "called %s times in %s", "several", cur->id[0] ? cur->id : "the model");
		return;
	}
	if (!m)
		return;
	seq = interp_events_of(m);
	if (seq && !mn->emitted) {
		mn->emitted = 1;
		mt_walk(t, mn, seq->ev, seq->n);
	}
}

static struct mnode *mt_same_site(struct mnode *cur, const struct fev *e)
{
	size_t i;

	for (i = 0; i < cur->nkids; i++) {
		struct mnode *k = cur->kids[i];

		if (!k->ev || k->inst || k->opname || k->ev->kind != e->kind || strcmp(k->ev->anchor, e->anchor))
			continue;
		if (e->kind == FEV_OP && !strcmp(k->ev->op, e->op))
			return k;
		if (e->kind == FEV_FUNCTION && !strcmp(k->ev->func, e->func))
			return k;
	}
	return NULL;
}

/* The condition without a leading `not (...)`: both paths' text. */
static size_t cond_base(const char *c, const char **base)
{
	size_t n = strlen(c);

	if (!strncmp(c, "not (", 5) && n > 6 && c[n - 1] == ')') {
		*base = c + 5;
		return n - 6;
	}
	*base = c;
	return n;
}

/* Is some module below n called under the other path of n's condition? */
static int other_path_below(const struct mnode *n, const char *base, size_t blen, const char *cond, int depth)
{
	size_t i;

	if (depth > 64)
		return 0;
	for (i = 0; i < n->nkids; i++) {
		const struct mnode *k = n->kids[i];
		const char *kb;

		if (k->inst && k->ev && k->ev->cond && strcmp(k->ev->cond, cond) &&
		    cond_base(k->ev->cond, &kb) == blen && !strncmp(kb, base, blen))
			return 1;
		if (other_path_below(k, base, blen, cond, depth + 1))
			return 1;
	}
	return 0;
}

/* A module called on one path of a condition ecg cannot decide, whose
 * parts are called directly on the other (`if c: out[0](h); out[1:](h)
 * else: out(h)`): it runs once or not at all, which no count can say. */
static void mt_split_paths(struct mt *t)
{
	size_t i;

	for (i = 0; i < t->nall; i++) {
		struct mnode *n = t->all[i];
		const char *base;
		size_t blen;

		if (!n->inst || !n->parent || !n->ev || !n->ev->cond || n->ev->cond_taken >= 0 || n->count <= 0)
			continue;
		blen = cond_base(n->ev->cond, &base);
		if (!other_path_below(n, base, blen, n->ev->cond, 0))
			continue;
		n->count = -1;
		n->repeat_expr = n->ev->cond;
		n->repeat_reason = mt_fmt(t, "called only when `%s`, which is not decided here; on the other path its parts are called without it",
		                          n->ev->cond);
	}
}

/* A module, function or op called only on one path of a condition ecg
 * cannot decide (`if not self.flash: ... self.attn_dropout(s)`): it runs
 * its count of times or not at all, so its count is null, with the
 * condition as the reason (its `condition` says which path). */
static void mt_undecided_paths(struct mt *t)
{
	size_t i;

	for (i = 0; i < t->nall; i++) {
		struct mnode *n = t->all[i];

		if (!n->parent || !n->counted || !n->ev || !n->ev->cond || n->ev->cond_taken >= 0 || n->count <= 0 ||
		    n->opname)
			continue;
		n->count = -1;
		n->repeat_expr = n->ev->cond;
		n->repeat_reason = mt_fmt(t, "called only when `%s`, which is not decided here: it runs or it does not",
		                          n->ev->cond);
	}
}

static void mt_walk(struct mt *t, struct mnode *cur, const struct fev *ev, size_t nev)
{
	size_t i;

	for (i = 0; i < nev; i++) {
		const struct fev *e = &ev[i];
		struct mnode *n;

		switch (e->kind) {
		case FEV_OP:
		case FEV_FUNCTION:
			/* the same call site again (a loop read iteration by
			 * iteration): one entry, its count summed */
			n = mt_same_site(cur, e);
			if (n) {
				n->count = mt_add_counts(n->count, e->repeat);
				if (e->repeat < 0 && !n->repeat_reason)
					n->repeat_reason = e->repeat_reason;
				if (e->kind == FEV_FUNCTION)
					mt_walk(t, n, e->children, e->nchildren);
				break;
			}
			n = mt_node(t, NULL, e->kind == FEV_OP ? "op" : "function", cur);
			mt_adopt(t, cur, n);
			n->id = mt_fmt(t, "%s#%d", cur->id, n->order);
			n->ev = e;
			n->count = e->repeat;
			n->counted = 1;
			n->repeat_expr = e->repeat_expr;
			n->repeat_src = e->repeat_src;
			n->repeat_via = e->repeat_via;
			n->repeat_reason = e->repeat_reason;
			if (e->kind == FEV_FUNCTION)
				mt_walk(t, n, e->children, e->nchildren);
			break;
		case FEV_MODULE:
			mt_module_call(t, cur, e);
			break;
		}
	}
}

/* ------------------------------------------------------------------ JSON */

/* A constructor argument's value that came from configuration: say so
 * once in `config`. */
static cJSON *value_json(struct interp *in, const value_t *v, int depth);

/* A value the analysis used, in `config` once per (name, source).  The
 * value is taken. */
static void mt_config_value(struct mt *t, const char *name, cJSON *value, const char *src, int via)
{
	cJSON *c, *e;

	if (!t->config) {
		cJSON_Delete(value);
		return;
	}
	cJSON_ArrayForEach(c, t->config) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "name");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(c, "source");

		if (cJSON_IsString(n) && !strcmp(n->valuestring, name) && cJSON_IsString(s) && !strcmp(s->valuestring, src)) {
			cJSON_Delete(value);
			return;
		}
	}
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddItemToObject(e, "value", value);
	cJSON_AddStringToObject(e, "source", src);
	cJSON_AddStringToObject(e, "via", via == VIA_OVERRIDE ? "override" : via == VIA_CONFIG_FILE ? "config_file" : "default");
	cJSON_AddItemToArray(t->config, e);
}

static void mt_config(struct mt *t, const char *argname, const value_t *v)
{
	if (!t->config || !v->src || !value_is_known_scalar(v))
		return;
	/* a literal written at the constructor call is not configuration */
	if (v->via == VIA_DEFAULT && (!v->expr || !strchr(v->expr, '.')))
		return;
	mt_config_value(t, v->expr ? v->expr : argname, value_json(t->in, v, 0), v->src, v->via);
}

static cJSON *value_json(struct interp *in, const value_t *v, int depth)
{
	cJSON *o;
	size_t i;

	switch (v->k) {
	case VK_NONE: return cJSON_CreateNull();
	case VK_BOOL: return cJSON_CreateBool(v->u.b);
	case VK_INT: return cJSON_CreateNumber((double)v->u.i);
	case VK_FLOAT: return cJSON_CreateNumber(v->u.f);
	case VK_STR: return cJSON_CreateString(v->u.str.s);
	case VK_TUPLE: case VK_LIST:
		if (depth < 4 && !v->u.seq->unk_reason) {
			o = cJSON_CreateArray();
			for (i = 0; i < v->u.seq->n; i++)
				cJSON_AddItemToArray(o, value_json(in, v->u.seq->items[i], depth + 1));
			return o;
		}
		break;
	default:
		break;
	}
	o = cJSON_CreateObject();
	if (v->expr && v->k != VK_STR)
		cJSON_AddStringToObject(o, "expr", v->expr);
	else
		cJSON_AddNullToObject(o, "expr");
	cJSON_AddNullToObject(o, "value");
	cJSON_AddStringToObject(o, "reason",
	                        v->k == VK_UNKNOWN && v->reason ? v->reason
	                        : v->k == VK_INST ? "an object, not a plain value"
	                        : v->k == VK_TENSOR ? "a tensor" : "not a plain value");
	(void)in;
	return o;
}

static int mt_total(const struct mnode *n, long long *out)
{
	long long tot = 1;

	for (; n; n = n->parent) {
		long long c = n->parent ? n->count : 1;


		if (c < 0 || !n->counted) {
			if (n->parent)
				return -1;
			c = 1;
		}
		if (c && tot > (1LL << 53) / c)
			return -1;
		tot *= c;
	}
	*out = tot;
	return 0;
}

static const char *unit_of(const struct mnode *n)
{
	if (n->inst)
		return interp_class_name(n->inst);
	if (!strcmp(n->kind, "op"))
		return n->opname ? n->opname : n->ev && n->ev->op ? n->ev->op : "op";
	if (n->ev && n->ev->func)
		return n->ev->func;
	return n->kind;
}

/* A layer whose catalogue ops were placed at more than one call line. */
static int mt_multisite(const struct mnode *layer)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < layer->nkids; i++) {
		const struct mnode *k = layer->kids[i];

		if (!k->opname || !k->ev)
			continue;
		if (!first)
			first = k->ev->anchor;
		else if (strcmp(first, k->ev->anchor))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ shapes */

static cJSON *shape_json(const struct vshape *s)
{
	cJSON *a = cJSON_CreateArray();
	unsigned i;

	for (i = 0; i < s->nd; i++) {
		if (s->n[i] >= 0)
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->n[i]));
		else if (s->sym[i])
			cJSON_AddItemToArray(a, cJSON_CreateString(s->sym[i]));
		else
			cJSON_AddItemToArray(a, cJSON_CreateNull());
	}
	return a;
}

/* The tensors in v, flattened in order (as the profiler lists a call's
 * inputs): a shape each, or null when the shape is not known.  *known
 * counts the shapes given.  A value not known at all may or may not be a
 * tensor (or hold some): then how many there are is not known, and
 * *unsure is set. */
static void shapes_of(const value_t *v, cJSON *out, int *known, int *unsure, int depth)
{
	size_t i;

	if (depth > 4) {
		*unsure = 1;
		return;
	}
	switch (v->k) {
	case VK_TENSOR:
		if (v->shape) {
			cJSON_AddItemToArray(out, shape_json(v->shape));
			(*known)++;
		} else {
			cJSON_AddItemToArray(out, cJSON_CreateNull());
		}
		break;
	case VK_UNKNOWN:
		/* a size read from a shape is a number; anything else may be a
		 * tensor */
		if (v->reason != shape_dim_reason)
			*unsure = 1;
		break;
	case VK_TUPLE: case VK_LIST:
		if (v->u.seq->unk_reason)
			*unsure = 1;
		for (i = 0; i < v->u.seq->n; i++)
			shapes_of(v->u.seq->items[i], out, known, unsure, depth + 1);
		break;
	case VK_DICT:
		for (i = 0; i < v->u.dict->n; i++)
			shapes_of(v->u.dict->vals[i], out, known, unsure, depth + 1);
		break;
	case VK_INST:
		/* an object: what tensors it holds is not followed */
		if (v->u.inst->mod == VM_NONE)
			*unsure = 1;
		break;
	default:
		break;
	}
}

/* shapes: {"in": [...], "out": [...]} for a module's first call, each side
 * present when it is known how many tensors it has and at least one of
 * them has a known shape. */
static void mt_shapes(struct mt *t, const struct mnode *n, cJSON *e)
{
	value_t *const *args = NULL;
	size_t nargs = 0, i;
	value_t *ret = !n->inst ? NULL : n->parent ? interp_forward_ret(n->inst) : t->root_ret;
	cJSON *in, *out, *o;
	int kin = 0, kout = 0, uin = 0, uout = 0;

	if (n->ev && n->ev->kind == FEV_OP) {
		/* an op written in a forward: its tensors, as the profiler
		 * lists them (record_shapes) */
		args = n->ev->args;
		nargs = n->ev->nargs;
		ret = n->ev->ret;
		if (!args)
			return;
	} else if (n->parent && n->ev && n->ev->kind == FEV_MODULE) {
		args = n->ev->args;
		nargs = n->ev->nargs;
	} else if (!n->parent && t->root_call) {
		args = t->root_call->args;
		nargs = t->root_call->nargs;
	}
	in = cJSON_CreateArray();
	out = cJSON_CreateArray();
	for (i = 0; args && i < nargs; i++)
		shapes_of(args[i], in, &kin, &uin, 0);
	if (ret)
		shapes_of(ret, out, &kout, &uout, 0);
	if (uin)
		kin = 0;
	if (uout)
		kout = 0;
	if (!kin && !kout) {
		cJSON_Delete(in);
		cJSON_Delete(out);
		return;
	}
	o = cJSON_AddObjectToObject(e, "shapes");
	if (kin)
		cJSON_AddItemToObject(o, "in", in);
	else
		cJSON_Delete(in);
	if (kout)
		cJSON_AddItemToObject(o, "out", out);
	else
		cJSON_Delete(out);
}

/* May attribute value v hold parameters modtree does not see: a value not
 * known that may be a module (value.may_module), or the two paths of an
 * undecided `if` (alts.c) of which one holds a Parameter or a module? */
static long long mt_params(struct mt *t, const struct vinst *m, int depth);

/* The parameters one path's value adds: 0 for no module or Parameter, a
 * module's count, -1 when not known. */
static long long mt_path_params(struct mt *t, const value_t *v, int depth)
{
	if (!v || v->k == VK_NONE)
		return 0;
	if (v->k == VK_TENSOR)
		return v->is_param ? -1 : 0;     /* a Parameter only one path holds */
	if (v->k == VK_INST)
		return v->u.inst->mod == VM_NONE ? 0 : mt_params(t, v->u.inst, depth + 1);
	if (v->k == VK_UNKNOWN && v->alts)
		return -1;
	return v->k == VK_UNKNOWN && v->may_module ? -1 : 0;
}

/* May attribute value v hold parameters modtree does not see: a value not
 * known that may be a module (value.may_module), or the two paths of an
 * undecided `if` (alts.c) whose modules or Parameters differ in their
 * counts (DropPath or Identity: both 0, nothing hidden)? */
static int mt_hidden_params(struct mt *t, const value_t *v, int depth)
{
	long long a, b;

	if (!v || v->k != VK_UNKNOWN)
		return 0;
	if (v->may_module)
		return 1;
	if (!v->alts)
		return 0;
	a = mt_path_params(t, v->alts[0], depth);
	b = mt_path_params(t, v->alts[1], depth);
	return a < 0 || b < 0 || a != b;
}

/* Parameters of one instance of m with its submodules: the catalogue's
 * count for a torch.nn layer, the nn.Parameters a repo module assigns
 * (their shapes known), and its children, a tied tensor counted by each
 * module that holds it (mt_params_unique() counts it once).  -1 when any
 * part is not known (a third-party module, a parameter of unknown shape,
 * an attribute that may hold one: mt_hidden_params). */
static long long mt_params(struct mt *t, const struct vinst *m, int depth)
{
	long long sum = 0, p;
	size_t i;
	unsigned k;

	if (depth > 64)
		return -1;
	switch (m->mod) {
	case VM_LAYER:
		return cg_param_count(interp_catalog(t->in), m);
	case VM_REPO:
		if (m->cls && m->cls->ext_base &&
		    catalog_fact(interp_catalog(t->in), CATALOG_F_CONTAINER_BASES, m->cls->ext_base)) {
			/* a repo class on nn.Sequential/ModuleList/ModuleDict: the
			 * base holds no parameters of its own, its constructor
			 * registered the children counted below
			 * (interp/object.c container_base_init), all of them
			 * unless built in a loop whose count is not known */
			if (vdict_gets(m->attrs, "__ecg_len_unknown__"))
				return -1;
		} else if (m->cls && m->cls->ext_base && strcmp(m->cls->ext_base, "torch.nn.Module")) {
			/* a repo class on a torch.nn layer (class LayerNorm2d(nn.LayerNorm)):
			 * the base's parameters, from its own arguments when the
			 * class keeps the base's constructor, else from those its
			 * super().__init__ gave the base */
			struct vinst base = *m;
			const value_t *ba = vdict_gets(m->attrs, "__ecg_base_args__");   /* interp/module.c */
			size_t j;

			if (ba && ba->k == VK_DICT)   /* also a class without an __init__ of its own */
				base.args = ba->u.dict;
			else
			for (j = 0; j < m->cls->nmro; j++)
				if (vdict_gets(m->cls->mro[j]->ns, "__init__")) {
					/* its own constructor: the arguments it gave the base */
					if (!ba || ba->k != VK_DICT)
						return -1;
					base.args = ba->u.dict;
					break;
				}
			base.ext = m->cls->ext_base;
			base.mod = VM_LAYER;
			p = cg_param_count(interp_catalog(t->in), &base);
			if (p < 0)
				return -1;
			sum += p;
		}
		/* submodules registered under names not known (setattr) */
		if (vdict_gets(m->attrs, "__ecg_children_unknown__"))
			return -1;
		for (i = 0; m->attrs && i < m->attrs->n; i++) {
			const value_t *v = m->attrs->vals[i];

			if (mt_hidden_params(t, v, depth))
				return -1;
			if (v->k != VK_TENSOR || !v->is_param)
				continue;
			if (!v->shape)
				return -1;
			p = 1;
			for (k = 0; k < v->shape->nd; k++) {
				if (v->shape->n[k] < 0 || (v->shape->n[k] && p > (1LL << 50) / v->shape->n[k]))
					return -1;
				p *= v->shape->n[k];
			}
			sum += p;
		}
		break;
	case VM_CONTAINER:
		/* built in a loop whose trip count is not known: the children
		 * seen are not all of them */
		if (vdict_gets(m->attrs, "__ecg_len_unknown__"))
			return -1;
		break;
	default:
		return -1;
	}
	for (i = 0; i < m->nchildren; i++) {
		const struct vinst *c = m->children[i].inst;

		/* built under an undecided condition the parent was not: the
		 * child may not be there, which changes the count unless it
		 * holds no parameters and the other path bound no module or
		 * value not known in its place (a DropPath made when a rate
		 * is > 0, else None) */
		p = mt_params(t, c, depth + 1);
		if (c->cond && c->cond != m->cond && (p != 0 || c->alt_other))
			return -1;
		if (p < 0 || sum > (1LL << 52))
			return -1;
		sum += p;
	}
	return sum;
}

/* ---- tied parameters (lm_head.weight = wte.weight) */

/* The number of elements of layer m's parameter `name`, when the
 * catalogue's count is that parameter alone (its class in the facts'
 * weight_only_layers, with the bias argument they name False); else -1. */
static long long mt_weight_count(struct mt *t, const struct vinst *m, const char *name)
{
	const struct catalog *cat = interp_catalog(t->in);
	const char *bias_arg;
	const value_t *b;

	if (!m || m->mod != VM_LAYER || !m->ext || strcmp(name, "weight"))
		return -1;
	bias_arg = catalog_fact(cat, CATALOG_F_WEIGHT_ONLY_LAYERS, m->ext);
	if (!bias_arg)
		return -1;
	if (bias_arg[0]) {
		b = vdict_gets(m->args, bias_arg);
		if (!b || b->k != VK_BOOL || b->u.b)
			return -1;   /* a bias too, or not known */
	}
	return cg_param_count(cat, m);
}

/* The layer whose parameter `name` of tied layer m is (the tie's other
 * side), or NULL when not known (the value was merged from two paths, or
 * came from a repo module's own nn.Parameter). */
static const value_t *mt_tie(const struct vinst *m, const char *name)
{
	const value_t *v = m->attrs ? vdict_gets(m->attrs, name) : NULL;

	return v && v->k == VK_TENSOR && v->param_of && v->param_of != m && v->param_name ? v : NULL;
}

static int mt_under(const struct vinst *anc, const struct vinst *x, int depth)
{
	size_t i;

	if (anc == x)
		return 1;
	if (depth > 64)
		return 0;
	for (i = 0; i < anc->nchildren; i++)
		if (mt_under(anc->children[i].inst, x, depth + 1))
			return 1;
	return 0;
}

/* What the tied layers under `at` (itself included) hold twice within
 * root: for each tie whose other side is under root too, that tensor's
 * count.  -1 when a tie's side or size is not known. */
static long long mt_dups(struct mt *t, const struct vinst *root, const struct vinst *at, int depth)
{
	static const char *const names[] = { "weight", "bias" };
	long long dup = 0, d;
	size_t i, k;

	if (depth > 64)
		return -1;
	if (at->mod == VM_LAYER && at->tied) {
		for (k = 0; k < 2; k++) {
			const value_t *v = at->attrs ? vdict_gets(at->attrs, names[k]) : NULL, *tie;

			if (!v || (v->k == VK_TENSOR && v->is_param))
				continue;   /* not set, or a parameter of its own */
			if (at == root)
				continue;   /* a layer alone holds each of its tensors once */
			if (!(tie = mt_tie(at, names[k])))
				return -1;
			if (!mt_under(root, tie->param_of, 0))
				continue;   /* the other holder is outside: counted here once */
			d = mt_weight_count(t, at, names[k]);
			if (d < 0)
				d = mt_weight_count(t, tie->param_of, tie->param_name);
			if (d < 0)
				return -1;
			dup += d;
		}
	}
	for (i = 0; i < at->nchildren; i++) {
		if ((d = mt_dups(t, root, at->children[i].inst, depth + 1)) < 0)
			return -1;
		dup += d;
	}
	return dup;
}

/* m's parameters with every tensor counted once, as
 * sum(p.numel() for p in m.parameters()) counts them; -1 not known. */
static long long mt_params_unique(struct mt *t, const struct vinst *m)
{
	long long p = mt_params(t, m, 0), d;

	if (p < 0 || (d = mt_dups(t, m, m, 0)) < 0 || d > p)
		return -1;
	return p - d;
}

/* The "tied" field of tied layer m: {"weight": "<holder id>.weight"},
 * null where the other side is not known. */
static void mt_tied_json(const struct vinst *m, cJSON *e)
{
	static const char *const names[] = { "weight", "bias" };
	cJSON *o = NULL;
	size_t k;

	for (k = 0; k < 2; k++) {
		const value_t *v = m->attrs ? vdict_gets(m->attrs, names[k]) : NULL, *tie;

		if (!v || (v->k == VK_TENSOR && v->is_param))
			continue;
		if (!o)
			o = cJSON_AddObjectToObject(e, "tied");
		tie = mt_tie(m, names[k]);
		if (tie && tie->param_of->id) {
			char *s = xasprintf("%s%s%s", tie->param_of->id, *tie->param_of->id ? "." : "", tie->param_name);

			cJSON_AddStringToObject(o, names[k], s);
			free(s);
		} else {
			cJSON_AddNullToObject(o, names[k]);
		}
	}
}

long long modtree_params(struct interp *in, const struct vinst *m)
{
	struct mt t;

	memset(&t, 0, sizeof t);
	t.in = in;
	return mt_params_unique(&t, m);
}

static void mt_json(struct mt *t, struct mnode *n, cJSON *out)
{
	cJSON *e = cJSON_CreateObject();
	struct vinst *m = n->inst;
	long long tot;
	size_t i;
	int is_layer_op = n->opname != NULL;

	cJSON_AddStringToObject(e, "id", n->id);
	cJSON_AddStringToObject(e, "kind", n->kind);
	if (n->parent)
		cJSON_AddStringToObject(e, "parent", n->parent->id);
	else
		cJSON_AddNullToObject(e, "parent");
	if (n->order && n->parent && n->counted)
		cJSON_AddNumberToObject(e, "order", n->order);
	else
		cJSON_AddNullToObject(e, "order");
	if (m) {
		cJSON_AddStringToObject(e, "class", interp_class_name(m));
		if (m->mod == VM_REPO) {
			const char *fa = interp_forward_anchor(t->in, m);

			if (fa)
				cJSON_AddStringToObject(e, "code_anchor", fa);
			else if (n->call_anchor)
				cJSON_AddStringToObject(e, "code_anchor", n->call_anchor);
			else if (m->cls)
				cJSON_AddStringToObject(e, "code_anchor", mt_fmt(t, "%s:%s:%d", m->cls->file->path,
				                                                 m->cls->qualname, m->cls->def->h.line));
			else
				cJSON_AddNullToObject(e, "code_anchor");
		} else if (n->call_anchor) {
			cJSON_AddStringToObject(e, "code_anchor", n->call_anchor);
		} else {
			cJSON_AddNullToObject(e, "code_anchor");
		}
		if (m->constructed_at && n->parent)
			cJSON_AddStringToObject(e, "constructed_at", m->constructed_at);
		if (m->args && m->args->n && n->parent) {
			cJSON *args = cJSON_AddObjectToObject(e, "args");

			for (i = 0; i < m->args->n; i++) {
				if (m->args->keys[i]->k != VK_STR)
					continue;
				cJSON_AddItemToObject(args, m->args->keys[i]->u.str.s,
				                      value_json(t->in, m->args->vals[i], 0));
				mt_config(t, m->args->keys[i]->u.str.s, m->args->vals[i]);
			}
		}
	} else if (!strcmp(n->kind, "op")) {
		cJSON_AddStringToObject(e, "op", is_layer_op ? n->opname : n->ev->op);
		cJSON_AddStringToObject(e, "code_anchor", n->ev->anchor);
		if (!is_layer_op)
			mt_shapes(t, n, e);
	} else {
		cJSON_AddStringToObject(e, "function", n->ev->func);
		cJSON_AddStringToObject(e, "code_anchor", n->ev->anchor);
		if (n->ev->func_anchor)
			cJSON_AddStringToObject(e, "defined_at", n->ev->func_anchor);
	}
	if (is_layer_op && mt_multisite(n->parent)) {
		/* A layer called from several lines: this op runs only on the
		 * calls from its line, which no product of counts can say. */
		cJSON *r = cJSON_AddObjectToObject(e, "repeat");
		long long up;

		cJSON_AddNullToObject(r, "count");
		cJSON_AddStringToObject(r, "unit", n->opname);
		cJSON_AddStringToObject(r, "expr", mt_fmt(t, "calls of %s from %s", n->parent->id, n->ev->anchor));
		cJSON_AddNullToObject(r, "source");
		cJSON_AddStringToObject(r, "reason", "the layer is called from more than one line; this op runs on the calls from its own line only (see calls_from_line)");
		if (n->site_calls >= 0)
			cJSON_AddNumberToObject(r, "calls_from_line", (double)n->site_calls);
		cJSON_AddNullToObject(e, "total_repeat");
		if (n->site_calls >= 0 && mt_total(n->parent->parent, &up) == 0)
			cJSON_AddNumberToObject(e, "total_repeat_from_line", (double)(up * n->site_calls));
		goto tail;
	}
	if (n->parent && !n->counted && m && n->parent->counted && n->parent->count >= 0) {
		/* not seen called by its parent's forward: how often it runs
		 * is not known (it may be called where ecg cannot see) */
		cJSON *r = cJSON_AddObjectToObject(e, "repeat");

		cJSON_AddNullToObject(r, "count");
		cJSON_AddStringToObject(r, "unit", interp_class_name(m));
		cJSON_AddStringToObject(r, "expr", mt_fmt(t, "calls of %s from %s", n->id, n->parent->id[0] ? n->parent->id : "the model"));
		cJSON_AddNullToObject(r, "source");
		cJSON_AddStringToObject(r, "reason", "not seen called by its parent's forward");
	}
	if (n->parent && n->counted && n->count != 1) {
		cJSON *r = cJSON_AddObjectToObject(e, "repeat");

		if (n->count >= 0)
			cJSON_AddNumberToObject(r, "count", (double)n->count);
		else
			cJSON_AddNullToObject(r, "count");
		cJSON_AddStringToObject(r, "unit", unit_of(n));
		if (n->repeat_expr)
			cJSON_AddStringToObject(r, "expr", n->repeat_expr);
		else
			cJSON_AddNullToObject(r, "expr");
		if (n->repeat_src && n->repeat_expr && n->count >= 0)
			mt_config_value(t, n->repeat_expr, cJSON_CreateNumber((double)n->count), n->repeat_src,
			                n->repeat_via);
		if (n->repeat_src)
			cJSON_AddStringToObject(r, "source", n->repeat_src);
		else
			cJSON_AddNullToObject(r, "source");
		if (n->count < 0)
			cJSON_AddStringToObject(r, "reason", n->repeat_reason ? n->repeat_reason : "not known");
		mt_whole_model(n, r);
	}
	if (n->counted && mt_total(n, &tot) == 0)
		cJSON_AddNumberToObject(e, "total_repeat", (double)tot);
	else
		cJSON_AddNullToObject(e, "total_repeat");
tail:
	/* built under an undecided condition its parent was not (a DropPath
	 * made when a rate not known is > 0): that condition, not the one its
	 * call was decided under (`self.drop_path is not None` of the module
	 * the path that built it holds) -- it may not be there at all */
	if (m && m->cond && n->parent && n->ev && n->ev->cond && n->ev->cond_taken >= 0 && !is_layer_op &&
	    (!n->parent->inst || n->parent->inst->cond != m->cond)) {
		cJSON *c = cJSON_AddObjectToObject(e, "condition");

		cJSON_AddStringToObject(c, "expr", m->cond);
		cJSON_AddNullToObject(c, "taken");
	} else if (n->ev && n->ev->cond && !is_layer_op) {
		cJSON *c = cJSON_AddObjectToObject(e, "condition");

		cJSON_AddStringToObject(c, "expr", n->ev->cond);
		if (n->ev->cond_taken >= 0)
			cJSON_AddBoolToObject(c, "taken", n->ev->cond_taken);
		else
			cJSON_AddNullToObject(c, "taken");
	} else if (m && m->cond && n->parent) {
		cJSON *c = cJSON_AddObjectToObject(e, "condition");

		cJSON_AddStringToObject(c, "expr", m->cond);
		cJSON_AddNullToObject(c, "taken");
	}
	if (m && m->mod != VM_CONTAINER)
		mt_shapes(t, n, e);
	if (m) {
		long long p = mt_params_unique(t, m);

		if (p >= 0)
			cJSON_AddNumberToObject(e, "params", (double)p);
		else
			cJSON_AddNullToObject(e, "params");
		if (m->mod == VM_LAYER && m->tied)
			mt_tied_json(m, e);
	}
	if (m)
		cJSON_AddBoolToObject(e, "external", m->mod != VM_REPO);
	if (m && m->mod == VM_EXTERNAL && vdict_gets(m->attrs, "__ecg_factory__")) {
		/* built by a library's factory function: its name, and the
		 * class only when the factory's name pins it */
		const value_t *fa = vdict_gets(m->attrs, "__ecg_factory__");

		if (fa->k == VK_STR)
			cJSON_AddStringToObject(e, "factory", fa->u.str.s);
	}
	if (m && m->mod == VM_EXTERNAL && !n->subtree_reason && vdict_gets(m->attrs, "__ecg_subtree_reason__") &&
	    vdict_gets(m->attrs, "__ecg_subtree_reason__")->k == VK_STR)
		n->subtree_reason = vdict_gets(m->attrs, "__ecg_subtree_reason__")->u.str.s;  /* interp/hf.c */
	if (m && m->mod == VM_EXTERNAL && !n->subtree_reason)
		n->subtree_reason = mt_fmt(t, "%s is defined in an installed library, not read: its submodules and ops are not listed (name the job's site-packages with --site DIR, or its interpreter with --python PATH, and ecg reads it)",
		                           interp_class_name(m));
	if (m && m->mod == VM_REPO && !n->subtree_reason && vdict_gets(m->attrs, "__ecg_children_unknown__") &&
	    vdict_gets(m->attrs, "__ecg_children_unknown__")->k == VK_STR)
		n->subtree_reason = vdict_gets(m->attrs, "__ecg_children_unknown__")->u.str.s;
	if (n->subtree_reason) {
		cJSON *st = cJSON_AddObjectToObject(e, "subtree");

		cJSON_AddBoolToObject(st, "listed", 0);
		cJSON_AddStringToObject(st, "reason", n->subtree_reason);
	}
	cJSON_AddItemToArray(out, e);
	for (i = 0; i < n->nkids; i++)
		mt_json(t, n->kids[i], out);
}

void modtree_emit(struct interp *in, const struct mt_model *models, size_t n, cJSON *modules,
                  cJSON *config)
{
	size_t k, i;

	for (k = 0; k < n; k++) {
		struct mt t;
		struct mnode *root;
		const struct fseq *seq;
		struct fseq local;
		struct vinst *m = models[k].root;

		if (m->seen)
			continue;     /* the same model under two names */
		memset(&t, 0, sizeof t);
		t.in = in;
		t.config = config;
		t.a = interp_arena(in);
		t.prefix = n > 1 ? mt_fmt(&t, "%s/", models[k].name) : "";
		mt_ids(&t, m, n > 1 ? models[k].name : "", NULL);
		root = m->mt;
		root->counted = 1;
		root->count = 1;
		/* the root's forward, with the arguments of the call the job made */
		memset(&local, 0, sizeof local);
		seq = interp_events_of(m);
		t.root_call = models[k].call;
		t.root_ret = interp_forward_ret(m);
		if (!seq && models[k].call) {
			t.root_ret = interp_forward(in, m, models[k].call->args, models[k].call->nargs,
			                            models[k].call->kwargs, &local);
			seq = &local;
		} else if (!seq) {
			t.root_ret = interp_forward(in, m, NULL, 0, NULL, &local);
			seq = &local;
		}
		root->call_anchor = models[k].call ? models[k].call->anchor : NULL;
		mt_walk(&t, root, seq->ev, seq->n);
		if (m->mod == VM_LAYER && models[k].call) {
			/* the model is a torch.nn built-in: its ops from the
			 * catalogue, anchored at the job's call */
			struct fev *call = ast_arena_alloc(t.a, sizeof *call);

			call->kind = FEV_MODULE;
			call->inst = m;
			call->anchor = models[k].call->anchor;
			call->repeat = 1;
			call->args = models[k].call->args;
			call->nargs = models[k].call->nargs;
			call->kwargs = models[k].call->kwargs;
			mt_layer_ops(&t, root, call);
		}
		mt_split_paths(&t);
		mt_undecided_paths(&t);
		/* modules never called: last, order null */
		for (i = 0; i < t.nall; i++) {
			struct mnode *x = t.all[i];

			if (x->parent && !x->order && !x->hidden)
				mt_adopt(&t, x->parent, x);
		}
		mt_json(&t, root, modules);
		free(t.all);
	}
}
