/* interp/tplan.c - a tensor-parallel plan's collectives, read not run
 *
 * `parallelize_module(model, tp_mesh, {"layers.*.attention.wo":
 * RowwiseParallel(output_layouts=Shard(1)), ...})` (catalog
 * tp_parallelize_calls) installs hooks on the submodules the plan names:
 * each call of such a submodule redistributes its inputs to the layouts
 * its style wants and its outputs to the layouts the style is given, and
 * a redistribution between two layouts is a collective over the mesh, or
 * a local step.  tp_plan_apply() marks each submodule the plan's keys
 * reach (fnmatch per dotted part, as torch's api.py does; a plan that is
 * one style marks the module itself) with its style; tp_call() states, at
 * each call of a marked submodule in a forward, the collectives of its
 * style: an event implied by parallelize_module, tensor parallelism,
 * issued inside torch (async_op implicit), in the forward's unit.
 *
 * The layouts come from the style's keywords, else the style's defaults
 * (catalog tp_styles: "INPUT DESIRED PRODUCED OUTPUT" for the styles that
 * wrap a module's computation, "input" / "output" for the Prepare* ones
 * that only redistribute).  A layout is R (Replicate), P (Partial) or S<d>
 * (Shard(d)).  From -> to: S -> R all_gather, P -> R all_reduce, P -> S
 * reduce_scatter, S<a> -> S<b> all_to_all (when a and b are both given
 * from the same end), none for equal layouts and R -> S (a local chunk).
 * A layout that is not known (not a Shard/Replicate/Partial built with a
 * known dim) states nothing: a missing row, never a wrong one.  The
 * backward's collectives (the transposes) are not stated.  The styles and
 * placements keep their constructor's arguments (tp_keep_args, called
 * where torch's objects are made) for these readings.
 *
 * Everything is allocated in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define TP_STYLE_KEY "__ecg_tp_style__"

/* The last dotted part of an outside object's class. */
static const char *ext_last(const value_t *v)
{
	const char *d, *p;

	if (!v || v->k != VK_INST || !v->u.inst->ext)
		return NULL;
	d = v->u.inst->ext;
	p = strrchr(d, '.');
	return p ? p + 1 : d;
}

/* The constructor argument `name` (or positional `pos`, -1: none) of an
 * outside object, or NULL. */
static const value_t *ctor_arg(const value_t *v, const char *name, int pos)
{
	const struct vdict *a = v->u.inst->args;
	const value_t *r;
	char key[16];

	if (!a)
		return NULL;
	if ((r = vdict_gets(a, name)))
		return r;
	if (pos < 0)
		return NULL;
	snprintf(key, sizeof key, "arg%d", pos);
	return vdict_gets(a, key);
}

/* A placement value as a layout: "R", "P", "S<d>" in buf, or NULL when
 * not known. */
static const char *layout_of(const value_t *v, char *buf, size_t n)
{
	const char *c = ext_last(v);
	const value_t *dim;

	if (!c)
		return NULL;
	if (!strcmp(c, "Replicate"))
		return "R";
	if (!strcmp(c, "Partial"))
		return "P";
	if (strcmp(c, "Shard"))
		return NULL;
	dim = ctor_arg(v, "dim", 0);
	if (!dim || dim->k != VK_INT)
		return NULL;
	snprintf(buf, n, "S%lld", dim->u.i);
	return buf;
}

/* The collective that takes a tensor from layout a to layout b, or NULL
 * (none, or not known). */
static const char *redistribute_op(const char *a, const char *b)
{
	if (!a || !b || !strcmp(a, b))
		return NULL;
	if (a[0] == 'S' && b[0] == 'R')
		return "all_gather";
	if (a[0] == 'P' && b[0] == 'R')
		return "all_reduce";
	if (a[0] == 'P' && b[0] == 'S')
		return "reduce_scatter";
	if (a[0] == 'S' && b[0] == 'S' && (a[1] == '-') == (b[1] == '-'))
		return "all_to_all";
	return NULL;
}

/* State one collective op at site (once per op and site in a call). */
static void tp_event(struct frame *f, const char *op, const char **done, size_t *ndone,
                     const struct ast_hdr *site)
{
	struct sched_ev *e;
	size_t i;

	if (!op)
		return;
	for (i = 0; i < *ndone; i++)
		if (!strcmp(done[i], op))
			return;
	if (*ndone < 8)
		done[(*ndone)++] = op;
	if ((e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site))) {
		e->op = op;
		e->async_op = -1;
		e->parallelism = "tensor";
		e->implied_by = "parallelize_module";
	}
}

/* The layouts given by keyword kw of style v (one placement or a
 * sequence of them, None items skipped as None), item i; def when the
 * keyword is absent (NULL: not known). */
static const char *kw_layout(const value_t *v, const char *kw, size_t i, const char *def, char *buf, size_t n)
{
	const value_t *l = ctor_arg(v, kw, -1);

	if (!l)
		return def;
	if (l->k == VK_LIST || l->k == VK_TUPLE)
		l = i < l->u.seq->n ? l->u.seq->items[i] : NULL;
	else if (i > 0)
		return NULL;
	if (!l || l->k == VK_NONE)
		return NULL;
	return layout_of(l, buf, n);
}

/* The number of layouts a Prepare* style names under kw (1 for one). */
static size_t kw_count(const value_t *v, const char *kw)
{
	const value_t *l = ctor_arg(v, kw, -1);

	return !l ? 0 : l->k == VK_LIST || l->k == VK_TUPLE ? l->u.seq->n : 1;
}

void tp_keep_args(struct interp *in, struct vinst *o, const char *last, value_t **args, size_t nargs,
                  struct vdict *kw)
{
	size_t i;

	if (!catalog_fact(in->cat, CATALOG_F_TP_STYLES, last) && !catalog_fact(in->cat, CATALOG_F_TP_PLACEMENTS, last))
		return;
	o->args = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, o->args, kw->keys[i], kw->vals[i]);
	for (i = 0; i < nargs && i < 8; i++)
		vdict_sets(in->a, o->args, afmt(in, "arg%zu", i), args[i]);
}

void tp_call(struct frame *f, struct vinst *m, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *st = m->attrs ? vdict_gets(m->attrs, TP_STYLE_KEY) : NULL;
	const char *name = ext_last(st), *spec, *done[8];
	char d[4][16], b1[16], b2[16];
	size_t ndone = 0, i, n;

	if (!name || !site || !(spec = catalog_fact(in->cat, CATALOG_F_TP_STYLES, name)))
		return;
	if (!strcmp(spec, "input") || !strcmp(spec, "output")) {
		const char *from = !strcmp(spec, "input") ? "input_layouts" : "output_layouts";
		const char *to = !strcmp(spec, "input") ? "desired_input_layouts" : "desired_output_layouts";

		n = kw_count(st, from);
		for (i = 0; i < n && i < 16; i++)
			tp_event(f, redistribute_op(kw_layout(st, from, i, NULL, b1, sizeof b1),
			                            kw_layout(st, to, i, NULL, b2, sizeof b2)),
			         done, &ndone, site);
		return;
	}
	if (sscanf(spec, "%15s %15s %15s %15s", d[0], d[1], d[2], d[3]) != 4)
		return;
	/* input: the keyword's layout (else the default) to the desired one */
	tp_event(f, redistribute_op(kw_layout(st, "input_layouts", 0, d[0], b1, sizeof b1), d[1]),
	         done, &ndone, site);
	/* output: the produced layout to the keyword's (else the default) */
	tp_event(f, redistribute_op(d[2], kw_layout(st, "output_layouts", 0, d[3], b2, sizeof b2)),
	         done, &ndone, site);
}

/* Mark the modules under m that the dotted pattern parts pat[k..] reach. */
static void mark(struct interp *in, struct vinst *m, char **pat, size_t np, size_t k, value_t *style,
                 int depth)
{
	size_t i;

	if (depth > 64)
		return;
	if (k == np) {
		if (!m->attrs)
			m->attrs = vdict_new(in->a);
		vdict_sets(in->a, m->attrs, TP_STYLE_KEY, style);
		return;
	}
	for (i = 0; i < m->nchildren; i++)
		if (m->children[i].name && fnmatch(pat[k], m->children[i].name, 0) == 0)
			mark(in, m->children[i].inst, pat, np, k + 1, style, depth + 1);
}

/* One plan entry: key "a.*.b" (NULL: the module itself) and its style. */
static void plan_entry(struct interp *in, struct vinst *m, const char *key, value_t *style)
{
	char *parts[32], *s, *p;
	size_t np = 0;

	if (!ext_last(style) || !catalog_fact(in->cat, CATALOG_F_TP_STYLES, ext_last(style)))
		return;
	if (!key) {
		mark(in, m, parts, 0, 0, style, 0);
		return;
	}
	s = ast_arena_alloc(in->a, strlen(key) + 1);     /* split in place */
	memcpy(s, key, strlen(key) + 1);
	for (p = s; np < 32; p++) {
		parts[np++] = p;
		if (!(p = strchr(p, '.')))
			break;
		*p = 0;
	}
	mark(in, m, parts, np, 0, style, 0);
}

void tp_plan_apply(struct frame *f, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	const value_t *mod = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "module") : NULL;
	value_t *plan = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "parallelize_plan") : NULL;
	size_t i;

	if (!mod || mod->k != VK_INST || mod->u.inst->mod == VM_NONE || !plan)
		return;
	if (plan->k == VK_DICT) {
		for (i = 0; i < plan->u.dict->n; i++)
			if (plan->u.dict->keys[i]->k == VK_STR)
				plan_entry(in, mod->u.inst, plan->u.dict->keys[i]->u.str.s, plan->u.dict->vals[i]);
	} else {
		plan_entry(in, mod->u.inst, NULL, plan);
	}
}
