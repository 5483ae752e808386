/* interp/tapargs.c - a repository class that is its own argument parser
 *
 *     class Args(Tap):                      (typed-argument-parser)
 *         depth: int = 16
 *         fp16: int = 0
 *         afuse: bool = True
 *     args = Args(explicit_bool=True).parse_args(known_only=True)
 *
 * (catalog typed_class_arg_parsers: the library base class -> the method
 * that parses the command line.)  Every annotated class attribute of the
 * class and of its repository bases is an option --NAME (underscores kept,
 * dashes with underscores_to_dashes=True), typed by its annotation, its
 * default the class attribute's value; argparse's rules for the words:
 * --NAME VALUE or --NAME=VALUE, an unambiguous prefix of a name stands for
 * it.  Types read: int, float and str convert the word (Python's int()
 * and float()); Optional[X] is X; List[X] / Set[X] take the words up to the
 * next option; bool takes one word with explicit_bool=True (a prefix of
 * 'true' / 'false' in any case, '1', '0') and is otherwise a bare flag
 * that flips the default (store_true, store_false when it defaults to
 * True).  The parse method sets the options given on the object, its
 * extra_args to the words no option took (known_only=True; without it
 * such a word makes the parse fail), calls the class's process_args() when
 * it defines one, and returns the object.
 *
 * What this does not read leaves the result not known, with the reason: a
 * command line not known, the class defining configure() (options added
 * by code), config_files, a word no option takes without known_only, a
 * value whose type is not read.  The constructor's keywords are kept on
 * the object (tapargs_init, from object.c instantiate); the parse method
 * is reached as "<base>.<method>" through attr.c (tapargs_method) and
 * call.c (tapargs_call).  Values live in the interpreter's arena.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "internal.h"
#include "ecg/catalog.h"

#define TAP_KW "__ecg_tap_init_kw__"

/* The catalog base class c derives from, canonical, or NULL. */
static const char *tap_base(struct interp *in, struct vclass *c)
{
	const char *b = c ? class_ext_base(c) : NULL;

	if (!b)
		return NULL;
	b = canon_ext(in, b);
	return catalog_fact(in->cat, CATALOG_F_TYPED_CLASS_ARG_PARSERS, b) ? b : NULL;
}

void tapargs_init(struct interp *in, struct vinst *m, const struct vdict *kw)
{
	value_t *d;

	if (m->mod != VM_NONE || m->ext || !tap_base(in, m->cls))
		return;
	d = v_dict(in->a);
	if (kw)
		for (size_t i = 0; i < kw->n; i++)
			if (!kw_is_marker(kw->keys[i]))
				vdict_set(in->a, d->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, m->attrs, TAP_KW, d);
}

value_t *tapargs_method(struct interp *in, value_t *obj, const char *name)
{
	const char *b, *meth;
	value_t *v;

	if (obj->k != VK_INST || !obj->u.inst->cls || !(b = tap_base(in, obj->u.inst->cls)))
		return NULL;
	meth = catalog_fact(in->cat, CATALOG_F_TYPED_CLASS_ARG_PARSERS, b);
	if (!meth || strcmp(meth, name))
		return NULL;
	v = v_ext(in->a, adot(in, b, name));
	v->recv = obj;
	return v;
}

/* The constructor keyword k: 1 true, 0 false or not given, -1 not known. */
static int tap_flag(const struct vinst *m, const char *k)
{
	const value_t *d = vdict_gets(m->attrs, TAP_KW), *v;

	if (!d || d->k != VK_DICT || !(v = vdict_gets(d->u.dict, k)))
		return 0;
	if (v->k == VK_BOOL || v->k == VK_INT)
		return v->k == VK_BOOL ? v->u.b != 0 : v->u.i != 0;
	return v->k == VK_NONE ? 0 : -1;
}

/* One option of the class: its name, annotation, default. */
struct tap_opt {
	const char *name, *flag;      /* the attribute, its --word without dashes */
	const value_t *type;
	int taken;
};

/* Tap's boolean_type: 1, 0, or -1 not a bool word. */
static int tap_bool_word(const char *s)
{
	size_t n = strlen(s);

	if (!strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "0"))
		return 0;
	if (n && !strncasecmp("true", s, n))
		return 1;
	if (n && !strncasecmp("false", s, n))
		return 0;
	return -1;
}

/* One word converted to the builtin type t (int, float, str, bool), or
 * NULL. */
static value_t *tap_convert(struct interp *in, const value_t *t, const char *s)
{
	long long i;
	double d;
	int b;

	if (!t || t->k != VK_BUILTIN || t->u.bi.self)
		return NULL;
	switch (t->u.bi.id) {
	case BI_INT: return py_int_of_str(s, &i) ? v_int(in->a, i) : NULL;
	case BI_FLOAT: return py_float_of_str(s, &d) ? v_float(in->a, d) : NULL;
	case BI_STR: return v_str(in->a, s);
	case BI_BOOL: return (b = tap_bool_word(s)) < 0 ? NULL : v_bool(in->a, b);
	default: return NULL;
	}
}

/* The option a --word names: exact, else the one it is a prefix of
 * (argparse's allow_abbrev); NULL when none or several. */
static struct tap_opt *tap_find(struct tap_opt *o, size_t no, const char *w, size_t wn)
{
	struct tap_opt *hit = NULL;
	size_t i;

	for (i = 0; i < no; i++)
		if (strlen(o[i].flag) == wn && !strncmp(o[i].flag, w, wn))
			return &o[i];
	for (i = 0; i < no; i++)
		if (!strncmp(o[i].flag, w, wn)) {
			if (hit)
				return NULL;
			hit = &o[i];
		}
	return hit;
}

value_t *tapargs_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = recv && recv->k == VK_INST ? recv->u.inst : NULL;
	const char *b, *meth, *dot;
	const value_t *av, *known, *pf;
	struct vdict *ann;
	struct tap_opt *o;
	value_t *extra, *v;
	size_t i, no, k;
	int dashes, explicit_bool, ko;

	if (f->mode == M_FWD || !m || !m->cls || !(b = tap_base(in, m->cls)) ||
	    !(meth = catalog_fact(in->cat, CATALOG_F_TYPED_CLASS_ARG_PARSERS, b)) || !(dot = strrchr(d, '.')) ||
	    strcmp(dot + 1, meth) || (size_t)(dot - d) != strlen(b) || strncmp(d, b, strlen(b)))
		return NULL;
	if (class_lookup(m->cls, "configure", NULL))
		return unknown_at(f, site, afmt(in, "%s: the options configure() adds are not read", d));
	dashes = tap_flag(m, "underscores_to_dashes");
	explicit_bool = tap_flag(m, "explicit_bool");
	if (dashes < 0 || explicit_bool < 0 || tap_flag(m, "config_files"))
		return unknown_at(f, site, afmt(in, "%s: its constructor's keywords are not read", d));
	av = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "args") : NULL;
	if (!av || av->k == VK_NONE)
		av = in->argv;
	known = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "known_only") : NULL;
	ko = !known ? 0 : known->k == VK_BOOL ? known->u.b != 0 : -1;
	if (ko < 0)
		return unknown_at(f, site, afmt(in, "%s: known_only not known", d));
	if (!av || (av->k != VK_LIST && av->k != VK_TUPLE) || av->u.seq->unk_reason)
		return unknown_at(f, site, afmt(in, "%s over a command line not known", d));
	for (i = 0; i < av->u.seq->n; i++)
		if (av->u.seq->items[i]->k != VK_STR)
			return unknown_at(f, site, afmt(in, "%s over a command line not known", d));

	/* the options: the annotated class attributes, bases first */
	ann = vdict_new(in->a);
	class_annotated_types(f, m->cls, ann);
	o = ast_arena_alloc(in->a, (ann->n + 1) * sizeof *o);
	for (i = no = 0; i < ann->n; i++) {
		char *fl, *c;

		if (ann->keys[i]->k != VK_STR)
			continue;
		o[no].name = ann->keys[i]->u.str.s;
		fl = (char *)astr(in, o[no].name);
		for (c = fl; dashes && *c; c++)
			if (*c == '_')
				*c = '-';
		o[no].flag = fl;
		o[no].type = ann->vals[i];
		o[no].taken = 0;
		no++;
	}

	/* the words */
	extra = v_seq(in->a, VK_LIST, 2);
	for (i = 0; i < av->u.seq->n; i++) {
		const char *w, *eq;
		struct tap_opt *op;
		const value_t *bt;
		size_t wn;
		int many = 0;

		w = av->u.seq->items[i]->u.str.s;
		if (strncmp(w, "--", 2) || !w[2]) {
			vseq_push(in->a, extra->u.seq, (value_t *)av->u.seq->items[i]);
			continue;
		}
		eq = strchr(w, '=');
		wn = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
		if (!(op = tap_find(o, no, w + 2, wn))) {
			vseq_push(in->a, extra->u.seq, (value_t *)av->u.seq->items[i]);
			continue;
		}
		op->taken = 1;
		bt = ann_base_type(op->type, &many, 1);
		pf = bt ? class_lookup(m->cls, op->name, NULL) : NULL;
		if (bt && bt->k == VK_BUILTIN && !bt->u.bi.self && bt->u.bi.id == BI_BOOL && !explicit_bool && !many &&
		    op->type == bt) {
			/* store_true / store_false: the flag flips the default */
			if (eq)
				return unknown_at(f, site, afmt(in, "%s: --%s takes no value", d, op->flag));
			v = pf && pf->k == VK_BOOL ? v_bool(in->a, !pf->u.b) : v_bool(in->a, 1);
		} else if (many) {
			v = v_seq(in->a, VK_LIST, 2);
			if (eq && !(pf = tap_convert(in, bt, eq + 1)))
				v = NULL;
			else if (eq)
				vseq_push(in->a, v->u.seq, (value_t *)pf);
			for (k = i + 1; v && !eq && k < av->u.seq->n && strncmp(av->u.seq->items[k]->u.str.s, "--", 2); k++) {
				value_t *x = tap_convert(in, bt, av->u.seq->items[k]->u.str.s);

				if (!x)
					v = NULL;
				else
					vseq_push(in->a, v->u.seq, x);
			}
			if (!eq)
				i = k - 1;
		} else if (eq) {
			v = tap_convert(in, bt, eq + 1);
		} else if (i + 1 < av->u.seq->n) {
			v = tap_convert(in, bt, av->u.seq->items[++i]->u.str.s);
		} else {
			v = NULL;
		}
		if (!v)
			v = unknown_at(f, site, afmt(in, "--%s: a value ecg does not convert", op->flag));
		set_attr(f, recv, op->name, v);
	}
	if (extra->u.seq->n && !ko)
		return unknown_at(f, site, afmt(in, "%s: the word %s is no option", d, extra->u.seq->items[0]->u.str.s));
	set_attr(f, recv, "extra_args", extra);
	if ((pf = class_lookup(m->cls, "process_args", NULL)) && pf->k == VK_FUNC)
		(void)call_function(f, pf->u.fn, recv, NULL, 0, NULL, M_JOB, NULL, site);
	return recv;
}
