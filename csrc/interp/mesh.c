/* interp/mesh.c - device meshes: their axes' names and sizes
 *
 * A job that builds its parallelism as a device mesh (init_device_mesh
 * over the world, then meshes cut from it by name, unflattened into more
 * axes, flattened into one) decides which collectives run by the sizes of
 * those axes: a helper returns None for an axis of size 1, and the job
 * reduces over the mesh only when there is one.  A mesh here is an object
 * (VK_INST, the class torch.c gave it) whose attributes hold what is known
 * of it:
 *
 *   mesh_dim_names   a tuple of str (or None when the job named no axis)
 *   shape            a tuple of the axes' sizes (an int or an unknown each)
 *   ndim             the number of axes
 *
 * and whose methods and subscript are these: mesh[name], mesh[a, b] (the
 * named axes, in that order), size() (the product of the sizes), size(i),
 * _unflatten(i, sizes, names) (axis i split into named axes),
 * _flatten(name) (one axis, the product), get_group() (the group of a
 * one-axis mesh, named by its axis: "dp_group", its recv the mesh), and the rest (not
 * known: a rank, a coordinate).  A mesh whose shape is not known
 * gives unknowns; nothing is guessed.
 *
 * Each axis also carries the parallelism it serves (attribute
 * __ecg_axis_par__, a tuple beside shape): the catalogue's name of an
 * axis (torch_facts.json mesh_axis_parallelism: "dp" -> data), None for
 * an axis of size 1 (its group has one rank: nothing crosses it), an
 * unknown for a name the catalogue does not know.  A flattened axis
 * serves what the axes it was made of share ("loss" = batch x cp with cp
 * of size 1: data); axes that serve different ones, or one not known,
 * make it not known.  mesh_parallelism() reads a whole mesh so, and a
 * collective over the mesh or over its get_group() is of that
 * parallelism.
 *
 * Values live in the interpreter's arena; nothing here fails: what cannot
 * be followed is an unknown with its reason.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"
#include "ecg/util.h"

#define MESH_SHAPE "shape"
#define MESH_NAMES "mesh_dim_names"
#define MESH_AXIS_PAR "__ecg_axis_par__"

/* 1 when v is a mesh made here (its attributes are ours) */
int is_mesh(const value_t *v)
{
	return v && v->k == VK_INST && v->u.inst->mod == VM_NONE && !v->u.inst->cls &&
	       vdict_gets(v->u.inst->attrs, "__ecg_mesh__");
}

static struct vseq *mesh_shape(const value_t *m)
{
	value_t *s = vdict_gets(m->u.inst->attrs, MESH_SHAPE);

	return s && s->k == VK_TUPLE && !s->u.seq->unk_reason ? s->u.seq : NULL;
}

static struct vseq *mesh_names(const value_t *m)
{
	value_t *s = vdict_gets(m->u.inst->attrs, MESH_NAMES);

	return s && s->k == VK_TUPLE && !s->u.seq->unk_reason ? s->u.seq : NULL;
}

static struct vseq *mesh_pars(const value_t *m)
{
	value_t *s = vdict_gets(m->u.inst->attrs, MESH_AXIS_PAR);

	return s && s->k == VK_TUPLE && !s->u.seq->unk_reason ? s->u.seq : NULL;
}

/* The parallelism an axis of this name and size serves: None for size 1,
 * the catalogue's word for its name, else an unknown. */
static value_t *axis_par(struct interp *in, const value_t *name, const value_t *size)
{
	const char *p;

	if (size && size->k == VK_INT && size->u.i == 1)
		return v_none(in->a);
	if (name && name->k == VK_STR &&
	    (p = catalog_fact(in->cat, CATALOG_F_MESH_AXIS_PARALLELISM, name->u.str.s)))
		return v_str(in->a, p);
	return v_unknown(in->a, NULL, "a device mesh axis whose name says no parallelism");
}

static const char MESH_MIXED[] = "device mesh axes that serve different parallelisms";

/* What axes serving pars[0..n) serve together: None when all are of size
 * 1, the one parallelism the others share; an unknown of reason
 * MESH_MIXED when they serve two or more (a flattened dp x cp), another
 * unknown when one is not known. */
static value_t *pars_join(struct interp *in, const struct vseq *pars)
{
	const value_t *one = NULL;
	int mixed = 0, unknown = 0;
	size_t i;

	if (!pars)
		return v_unknown(in->a, NULL, "a device mesh whose axes' parallelism is not known");
	for (i = 0; i < pars->n; i++) {
		const value_t *p = pars->items[i];

		if (p->k == VK_NONE)
			continue;
		if (p->k != VK_STR && p->reason == MESH_MIXED)
			mixed = 1;
		else if (p->k != VK_STR)
			unknown = 1;
		else if (one && strcmp(one->u.str.s, p->u.str.s))
			mixed = 1;
		else
			one = p;
	}
	if (mixed)
		return v_unknown(in->a, NULL, MESH_MIXED);
	if (unknown)
		return v_unknown(in->a, NULL, "a device mesh axis whose parallelism is not known");
	return one ? v_str(in->a, one->u.str.s) : v_none(in->a);
}

/* The parallelism a collective over mesh m serves (module comment);
 * SCHED_PARALLELISM_UNKNOWN when its axes serve more than one; NULL when
 * they do not say. */
const char *mesh_parallelism(struct interp *in, const value_t *m)
{
	const value_t *p;

	if (!is_mesh(m))
		return NULL;
	p = pars_join(in, mesh_pars(m));
	if (p->k == VK_UNKNOWN && p->reason == MESH_MIXED)
		return SCHED_PARALLELISM_UNKNOWN;
	return p->k == VK_STR ? p->u.str.s : NULL;
}

/* a mesh of these sizes and names (names NULL: none given), its axes
 * serving pars (NULL: read off the names and sizes); ext is the class
 * name the caller gives it */
static value_t *mesh_make(struct interp *in, const char *ext, struct vseq *sizes, struct vseq *names,
                          struct vseq *pars)
{
	struct vinst *o = new_inst(in);
	value_t *shape = v_seq(in->a, VK_TUPLE, sizes->n), *nm = NULL;
	value_t *ap = v_seq(in->a, VK_TUPLE, sizes->n);
	size_t i;

	o->ext = ext;
	for (i = 0; i < sizes->n; i++) {
		vseq_push(in->a, shape->u.seq, sizes->items[i]);
		vseq_push(in->a, ap->u.seq, pars && i < pars->n ? pars->items[i]
		                            : axis_par(in, names && i < names->n ? names->items[i] : NULL,
		                                       sizes->items[i]));
	}
	if (names) {
		nm = v_seq(in->a, VK_TUPLE, names->n);
		for (i = 0; i < names->n; i++)
			vseq_push(in->a, nm->u.seq, names->items[i]);
	}
	vdict_sets(in->a, o->attrs, "__ecg_mesh__", v_bool(in->a, 1));
	vdict_sets(in->a, o->attrs, MESH_SHAPE, shape);
	vdict_sets(in->a, o->attrs, MESH_NAMES, nm ? nm : v_none(in->a));
	vdict_sets(in->a, o->attrs, "ndim", v_int(in->a, (long long)sizes->n));
	vdict_sets(in->a, o->attrs, MESH_AXIS_PAR, ap);
	return mk_inst_value(in, o);
}

/* a sequence of sizes (ints or values not known) and one of names (str),
 * of the same length; NULL when either is not a known sequence */
static struct vseq *known_seq(const value_t *v)
{
	if (v && (v->k == VK_TUPLE || v->k == VK_LIST) && !v->u.seq->unk_reason)
		return v->u.seq;
	return NULL;
}

static int all_str(const struct vseq *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->items[i]->k != VK_STR)
			return 0;
	return 1;
}

/* init_device_mesh(device_type, mesh_shape, *, mesh_dim_names=None) */
value_t *mesh_init(struct frame *f, const char *ext, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	value_t *shape = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "mesh_shape") : NULL;
	value_t *names = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "mesh_dim_names") : NULL;
	struct vseq *ss = known_seq(shape), *ns = names && names->k != VK_NONE ? known_seq(names) : NULL;

	if (!ss || (names && names->k != VK_NONE && (!ns || ns->n != ss->n || !all_str(ns))))
		return unknown_at(f, site, "a device mesh whose shape or axis names are not known");
	parallel_note_mesh(f, ss, ns, site);
	return mesh_make(f->in, ext, ss, ns, NULL);
}

static long find_axis(const struct vseq *names, const value_t *name)
{
	size_t i;

	for (i = 0; names && name->k == VK_STR && i < names->n; i++)
		if (!strcmp(names->items[i]->u.str.s, name->u.str.s))
			return (long)i;
	return -1;
}

/* mesh["pp"], mesh["batch", "cp"] */
value_t *mesh_getitem(struct frame *f, value_t *m, value_t *idx, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *shape = mesh_shape(m), *names = mesh_names(m), *pars = mesh_pars(m), *want, one = { 0 };
	value_t *sizes, *nm, *ap;
	size_t i;

	if (idx->k == VK_STR) {
		one.items = &idx;
		one.n = 1;
		want = &one;
	} else {
		want = known_seq(idx);
	}
	if (!shape || !names || !want || !want->n)
		return unknown_at(f, site, "a part of a device mesh not known");
	sizes = v_seq(in->a, VK_TUPLE, want->n);
	nm = v_seq(in->a, VK_TUPLE, want->n);
	ap = v_seq(in->a, VK_TUPLE, want->n);
	for (i = 0; i < want->n; i++) {
		long ax = find_axis(names, want->items[i]);

		if (ax < 0)
			return unknown_at(f, site, "an axis the device mesh does not name");
		vseq_push(in->a, sizes->u.seq, shape->items[ax]);
		vseq_push(in->a, nm->u.seq, names->items[ax]);
		vseq_push(in->a, ap->u.seq, pars && (size_t)ax < pars->n ? pars->items[ax]
		                            : axis_par(in, names->items[ax], shape->items[ax]));
	}
	return mesh_make(in, m->u.inst->ext, sizes->u.seq, nm->u.seq, ap->u.seq);
}

/* the product of the sizes, or NULL when one is not known */
static value_t *product(struct interp *in, const struct vseq *s)
{
	long long p = 1;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->items[i]->k != VK_INT)
			return NULL;
		p *= s->items[i]->u.i;
	}
	return v_int(in->a, p);
}

static value_t *m_size(struct frame *f, value_t *m, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct vseq *shape = mesh_shape(m);
	value_t *dim = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "mesh_dim") : NULL, *p;

	if (shape && (!dim || dim->k == VK_NONE) && (p = product(f->in, shape)))
		return p;
	if (shape && dim && dim->k == VK_INT && dim->u.i >= 0 && (size_t)dim->u.i < shape->n)
		return shape->items[dim->u.i];
	if (shape && dim && dim->k == VK_STR && find_axis(mesh_names(m), dim) >= 0)
		return shape->items[find_axis(mesh_names(m), dim)];
	return unknown_at(f, site, "the size of a device mesh not known");
}

/* _unflatten(dim, sizes, names, ...): axis dim split into named axes */
static value_t *m_unflatten(struct frame *f, value_t *m, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *shape = mesh_shape(m), *names = mesh_names(m), *pars = mesh_pars(m);
	value_t *dim = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "dim") : NULL;
	struct vseq *ss = known_seq(nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "mesh_sizes") : NULL);
	struct vseq *ns = known_seq(nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "mesh_dim_names") : NULL);
	value_t *sizes, *nm, *ap;
	size_t i;

	if (!shape || !names || !dim || dim->k != VK_INT || dim->u.i < 0 || (size_t)dim->u.i >= shape->n ||
	    !ss || !ns || ss->n != ns->n || !all_str(ns))
		return unknown_at(f, site, "a device mesh unflattened into axes not known");
	sizes = v_seq(in->a, VK_TUPLE, shape->n + ss->n);
	nm = v_seq(in->a, VK_TUPLE, shape->n + ss->n);
	ap = v_seq(in->a, VK_TUPLE, shape->n + ss->n);
	for (i = 0; i < shape->n; i++) {
		size_t k;

		if ((long long)i != dim->u.i) {
			vseq_push(in->a, sizes->u.seq, shape->items[i]);
			vseq_push(in->a, nm->u.seq, names->items[i]);
			vseq_push(in->a, ap->u.seq, pars && i < pars->n ? pars->items[i]
			                            : axis_par(in, names->items[i], shape->items[i]));
			continue;
		}
		/* the new axes serve what their names say */
		for (k = 0; k < ss->n; k++) {
			vseq_push(in->a, sizes->u.seq, ss->items[k]);
			vseq_push(in->a, nm->u.seq, ns->items[k]);
			vseq_push(in->a, ap->u.seq, axis_par(in, ns->items[k], ss->items[k]));
		}
	}
	parallel_note_mesh(f, sizes->u.seq, nm->u.seq, site);
	return mesh_make(in, m->u.inst->ext, sizes->u.seq, nm->u.seq, ap->u.seq);
}

/* _flatten(name): one axis of the product of the sizes */
static value_t *m_flatten(struct frame *f, value_t *m, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *shape = mesh_shape(m), *names = mesh_names(m);
	value_t *name = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "mesh_dim_name") : NULL;
	value_t *sizes, *nm, *p, *ap;
	size_t i;

	if (!shape || !names)
		return unknown_at(f, site, "a device mesh flattened, whose shape is not known");
	if (!name || name->k == VK_NONE) {
		/* the default name joins the axes' names with "_" */
		buf_t b;

		buf_init(&b);
		for (i = 0; i < names->n; i++)
			buf_addf(&b, "%s%s", i ? "_" : "", names->items[i]->u.str.s);
		name = v_str(in->a, astr(in, b.buf));
		buf_free(&b);
	}
	if (name->k != VK_STR)
		return unknown_at(f, site, "a device mesh flattened under a name not known");
	p = product(in, shape);
	sizes = v_seq(in->a, VK_TUPLE, 1);
	nm = v_seq(in->a, VK_TUPLE, 1);
	vseq_push(in->a, sizes->u.seq, p ? p : unknown_at(f, site, "the size of a device mesh not known"));
	vseq_push(in->a, nm->u.seq, name);
	/* the one axis serves what the axes it is made of share */
	ap = v_seq(in->a, VK_TUPLE, 1);
	vseq_push(in->a, ap->u.seq, pars_join(in, mesh_pars(m)));
	return mesh_make(in, m->u.inst->ext, sizes->u.seq, nm->u.seq, ap->u.seq);
}

/* get_group() of a one-axis mesh: the process group of that axis, known
 * by the axis's name ("dp" -> the words "dp_group", which say which
 * parallelism a collective over it serves: torch_facts.json's
 * parallelism_words); the value is not known.  NULL otherwise. */
static value_t *m_get_group(struct frame *f, value_t *m, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct vseq *names = mesh_names(m);

	value_t *g;

	(void)args, (void)nargs, (void)kw, (void)site;
	if (!names || names->n != 1)
		return NULL;
	g = v_unknown(f->in->a, afmt(f->in, "%s_group", names->items[0]->u.str.s),
	              "a process group of a device mesh's axis");
	g->recv = m;    /* the mesh it is of: mesh_parallelism() reads it */
	return g;
}

typedef value_t *mesh_method_fn(struct frame *f, value_t *m, value_t **args, size_t nargs, struct vdict *kw,
                                const struct ast_hdr *site);

static const struct {
	const char *name;
	mesh_method_fn *fn;
} mesh_methods[] = {
	{ "_flatten", m_flatten },
	{ "_unflatten", m_unflatten },
	{ "get_group", m_get_group },
	{ "size", m_size },
};

/* m.<name>(...) of a mesh; NULL: not one of the methods above (the caller
 * goes on: a process group, a rank ... are not known) */
value_t *mesh_method(struct frame *f, value_t *m, const char *name, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	size_t i;

	for (i = 0; i < sizeof mesh_methods / sizeof mesh_methods[0]; i++)
		if (!strcmp(mesh_methods[i].name, name))
			return mesh_methods[i].fn(f, m, args, nargs, kw, site);
	return NULL;
}
