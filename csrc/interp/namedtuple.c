/* interp/namedtuple.c - named tuples
 *
 * Two ways real code names a tuple's items:
 *
 *  - collections.namedtuple("VggOutputs", ["relu1_2", "relu2_2"]) makes a
 *    class; nt_factory() makes it here an object of ext NT_CLASS_EXT whose
 *    attributes are __name__, _fields (a tuple of str) and _field_defaults
 *    (a dict).  Calling it (call.c) is nt_call(): a VK_TUPLE of the
 *    arguments in field order (keywords by name, then the defaults),
 *    whose vseq.ntclass is that class, so that nt_attr() reads
 *    `out.relu2_2` as its item and `out._fields` as the class's;
 *  - a `class Q(typing.NamedTuple)` is a dataclass-like repository class
 *    (object.c): its instances keep their fields as attributes, and
 *    nt_inst_tuple() gives them as a tuple in field order for what reads
 *    them as one (iteration, unpacking, len(), q[0]).
 *
 * Unknown stays unknown: field names not known, an argument missing with
 * no default.  Everything is allocated in the interpreter's arena; the
 * functions return NULL when they do not apply, and never fail otherwise.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define NT_CLASS_EXT "collections.namedtuple.<class>"

/* The field names of field_names (a list or tuple of str, or one str
 * "a b" / "a, b"), in a tuple of str; NULL when not known. */
static value_t *field_names(struct interp *in, const value_t *v)
{
	value_t *r = v_seq(in->a, VK_TUPLE, 4);
	size_t i;

	if (v->k == VK_STR) {
		const char *s = v->u.str.s, *e = s + v->u.str.len;

		while (s < e) {
			const char *w;

			while (s < e && (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n'))
				s++;
			for (w = s; s < e && *s != ' ' && *s != ',' && *s != '\t' && *s != '\n'; s++)
				;
			if (s > w)
				vseq_push(in->a, r->u.seq, v_str(in->a, afmt(in, "%.*s", (int)(s - w), w)));
		}
		return r;
	}
	if ((v->k != VK_LIST && v->k != VK_TUPLE) || v->u.seq->unk_reason)
		return NULL;
	for (i = 0; i < v->u.seq->n; i++) {
		if (v->u.seq->items[i]->k != VK_STR)
			return NULL;
		vseq_push(in->a, r->u.seq, v->u.seq->items[i]);
	}
	return r;
}

/* A named tuple class: its __name__, _fields (a tuple of str) and
 * _field_defaults (a dict). */
static struct vinst *nt_class(struct interp *in, value_t *name, value_t *fields, value_t *defaults)
{
	struct vinst *c = new_inst(in);

	c->ext = NT_CLASS_EXT;
	vdict_sets(in->a, c->attrs, "__name__", name);
	vdict_sets(in->a, c->attrs, "_fields", fields);
	vdict_sets(in->a, c->attrs, "_field_defaults", defaults);
	return c;
}

value_t *nt_factory(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *names = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "field_names") : NULL;
	value_t *tn = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "typename") : NULL;
	value_t *defs = kw ? vdict_gets(kw, "defaults") : NULL;
	value_t *fields, *fd;
	struct vinst *c;
	size_t i, nd, nf;

	(void)d, (void)site;
	if (!names || !(fields = field_names(in, names)))
		return NULL;
	nf = fields->u.seq->n;
	fd = v_dict(in->a);
	/* defaults=(...) apply to the last fields */
	if (defs && defs->k != VK_NONE) {
		if ((defs->k != VK_LIST && defs->k != VK_TUPLE) || defs->u.seq->unk_reason || defs->u.seq->n > nf)
			return NULL;
		nd = defs->u.seq->n;
		for (i = 0; i < nd; i++)
			vdict_set(in->a, fd->u.dict, fields->u.seq->items[nf - nd + i], defs->u.seq->items[i]);
	}
	c = nt_class(in, tn && tn->k == VK_STR ? tn : v_str(in->a, "namedtuple"), fields, fd);
	return mk_inst_value(in, c);
}

int nt_is_class(const value_t *v)
{
	return v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, NT_CLASS_EXT);
}

value_t *nt_call(struct frame *f, struct vinst *c, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *fields = vdict_gets(c->attrs, "_fields"), *fd = vdict_gets(c->attrs, "_field_defaults");
	value_t *r;
	size_t i, nf;

	if (!fields || fields->k != VK_TUPLE)
		return NULL;
	nf = fields->u.seq->n;
	if (nargs > nf || kw_unk(kw, 1))
		return NULL;
	r = v_seq(in->a, VK_TUPLE, nf);
	for (i = 0; i < nf; i++) {
		value_t *name = fields->u.seq->items[i], *v = i < nargs ? args[i] : NULL;

		if (!v && kw)
			v = vdict_get(kw, name);
		if (!v && fd && fd->k == VK_DICT)
			v = vdict_get(fd->u.dict, name);
		if (!v)
			v = unknown_at(f, site, afmt(in, "the field %s of a named tuple, not given", name->u.str.s));
		vseq_push(in->a, r->u.seq, v);
	}
	r->u.seq->ntclass = c;
	return r;
}

value_t *nt_pair(struct interp *in, const char *type, value_t *values, value_t *indices)
{
	value_t *fields = v_seq(in->a, VK_TUPLE, 2), *r = v_seq(in->a, VK_TUPLE, 2);

	vseq_push(in->a, fields->u.seq, v_str(in->a, "values"));
	vseq_push(in->a, fields->u.seq, v_str(in->a, "indices"));
	vseq_push(in->a, r->u.seq, values);
	vseq_push(in->a, r->u.seq, indices);
	r->u.seq->ntclass = nt_class(in, v_str(in->a, type), fields, v_dict(in->a));
	return r;
}

value_t *nt_attr(struct frame *f, value_t *t, const char *name)
{
	const struct vinst *c = (t->k == VK_TUPLE) ? t->u.seq->ntclass : NULL;
	value_t *fields;
	size_t i;

	(void)f;
	if (!c || !(fields = vdict_gets(c->attrs, "_fields")))
		return NULL;
	if (!strcmp(name, "_fields") || !strcmp(name, "_field_defaults"))
		return vdict_gets(c->attrs, name);
	for (i = 0; i < fields->u.seq->n && i < t->u.seq->n; i++)
		if (!strcmp(fields->u.seq->items[i]->u.str.s, name))
			return t->u.seq->items[i];
	return NULL;
}

value_t *nt_inst_tuple(struct frame *f, struct vinst *m)
{
	struct interp *in = f->in;
	const char *b = m->cls && m->cls->is_dataclass ? class_ext_base(m->cls) : NULL;
	struct vdict *flds;
	value_t *t;
	size_t i;

	if (!b || strcmp(b, "typing.NamedTuple"))
		return NULL;
	flds = vdict_new(in->a);
	dataclass_fields(in, m->cls, flds, f);
	t = v_seq(in->a, VK_TUPLE, flds->n);
	for (i = 0; i < flds->n; i++) {
		value_t *v = vdict_get(m->attrs, flds->keys[i]);

		vseq_push(in->a, t->u.seq, v ? v : v_unknown(in->a, NULL, "a field of a named tuple not known"));
	}
	return t;
}
