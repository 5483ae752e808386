/* interp/hfargs.c - a library's parser that fills dataclasses from argv
 *
 *     parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
 *     model_args, training_args = parser.parse_args_into_dataclasses()
 *
 * (catalog dataclass_arg_parsers: the parser class -> "KEY@POS;METHOD",
 * where its constructor takes the dataclass types and the method that
 * parses the job's own command line.)  transformers' HfArgumentParser
 * (hf_argparser.py) adds one option per field of each dataclass, --NAME,
 * typed by the field: a bool takes an optional word (string_to_bool:
 * yes/true/t/y/1, no/false/f/n/0; the bare flag is True) and a bool
 * defaulting to True also gets --no_NAME; Optional[X] is X; List[X]
 * takes the words up to the next option; int, float and str convert the
 * word.  parse_args_into_dataclasses() builds each dataclass with the
 * fields the command line gave (the class is called, so defaults and the
 * repository's __post_init__ apply) and returns them in order.
 *
 * A repository dataclass built on a library's (FastChat's TrainingArguments
 * on transformers.TrainingArguments) has the library's fields too, which
 * are not read from code here: the ones catalog library_dataclass_fields
 * lists (name, type, default) are given on the instance, from the command
 * line or their default; a library dataclass named directly gets its
 * listed fields likewise.  The types are "bool", "int", "float", "str",
 * "number" (an int when integral, as TrainingArguments' __post_init__
 * makes logging_steps), "words" (a str split on blanks, as its
 * __post_init__ makes fsdp a list of options); a default "None" is None
 * and "?" none (the field is not known unless given).
 *
 * A repository class built on the parser and defining no __init__ of its
 * own (open-instruct's ArgumentParserPlus(HfArgumentParser), which adds
 * a YAML method) is the parser too: its constructor's arguments are the
 * base's (hfargs_subclass_init keeps the dataclass types on the new
 * object, called by object.c instantiate), and the parse method, when no
 * repository class of its MRO defines it, is the base's (hfargs_method,
 * asked by attr.c), parsed here as on the library's own object.
 *
 * What the command line does not pin (argv not known, a word that is no
 * option of any of the dataclasses, a value whose type is not read)
 * leaves the result or that field not known.  hfargs_call() returns NULL
 * when the call is not one of these; values live in the interpreter's
 * arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "ecg/catalog.h"

#define HFA_TYPES "__ecg_dataclass_types__"

/* One --option of argv: the name (dashes as underscores), its value words
 * (a bare flag has none), and whether a field took it. */
struct hfa_opt {
	char *name;
	size_t first, n;              /* its value words: argv items first.. */
	const char *eqval;            /* --name=value */
	int used;
};

/* The word list of argv (every item a str), or NULL. */
static const struct vseq *hfa_argv(const value_t *av)
{
	size_t i;

	if (!av || (av->k != VK_LIST && av->k != VK_TUPLE) || av->u.seq->unk_reason)
		return NULL;
	for (i = 0; i < av->u.seq->n; i++)
		if (av->u.seq->items[i]->k != VK_STR)
			return NULL;
	return av->u.seq;
}

/* string_to_bool of HfArgumentParser: 1, 0, or -1 not a bool word. */
static int hfa_bool_word(const char *s)
{
	static const char *const yes[] = { "yes", "true", "t", "y", "1" }, *const no[] = { "no", "false", "f", "n", "0" };
	size_t i;

	for (i = 0; i < 5; i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/* The number s as an int when integral, else a float; NULL when s is
 * no number. */
static value_t *hfa_number(struct interp *in, const char *s, int want_float)
{
	long long i;
	double d;

	if (!want_float && py_int_of_str(s, &i))
		return v_int(in->a, i);
	if (!py_float_of_str(s, &d))
		return NULL;
	if (!want_float && d == (double)(long long)d)
		return v_int(in->a, (long long)d);
	return v_float(in->a, d);
}

/* One value word converted as type word tw says ("bool", "int", ...), or
 * NULL when it does not convert. */
static value_t *hfa_convert(struct interp *in, const char *tw, const char *s)
{
	int b;

	if (!strcmp(tw, "bool"))
		return (b = hfa_bool_word(s)) < 0 ? NULL : v_bool(in->a, b);
	if (!strcmp(tw, "int"))
		return hfa_number(in, s, 0) && hfa_number(in, s, 0)->k == VK_INT ? hfa_number(in, s, 0) : NULL;
	if (!strcmp(tw, "float"))
		return hfa_number(in, s, 1);
	if (!strcmp(tw, "number"))
		return hfa_number(in, s, 0);
	if (!strcmp(tw, "str"))
		return v_str(in->a, s);
	if (!strcmp(tw, "words")) {
		value_t *l = v_seq(in->a, VK_LIST, 2);
		const char *p = s;

		while (*p) {
			size_t n;

			p += strspn(p, " \t");
			if (!(n = strcspn(p, " \t")))
				break;
			vseq_push(in->a, l->u.seq, v_str(in->a, afmt(in, "%.*s", (int)n, p)));
			p += n;
		}
		return l;
	}
	return NULL;
}

/* The type word of a repository field's type value, or NULL. */
static const char *hfa_type_word(const value_t *t)
{
	if (!t || t->k != VK_BUILTIN || t->u.bi.self)
		return NULL;
	switch (t->u.bi.id) {
	case BI_BOOL: return "bool";
	case BI_INT: return "int";
	case BI_FLOAT: return "float";
	case BI_STR: return "str";
	default: return NULL;
	}
}

/* The value the options give field `name` of type word tw (list: List[X]
 * of it): NULL when no option names it; an unknown when one does but
 * its words do not convert.  Marks the options it takes. */
static value_t *hfa_field_value(struct frame *f, struct hfa_opt *o, size_t no, const struct vseq *av,
                                const char *name, const char *tw, int list, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v = NULL;
	size_t i, k;

	for (i = 0; i < no; i++) {
		int neg = !strncmp(o[i].name, "no_", 3) && !strcmp(o[i].name + 3, name) && tw && !strcmp(tw, "bool");

		if (strcmp(o[i].name, name) && !neg)
			continue;
		o[i].used = 1;
		if (neg) {
			v = o[i].n || o[i].eqval ? NULL : v_bool(in->a, 0);
		} else if (!tw) {
			v = NULL;
		} else if (list) {
			v = v_seq(in->a, VK_LIST, o[i].n ? o[i].n : 1);
			for (k = 0; k < o[i].n && v; k++) {
				value_t *x = hfa_convert(in, tw, av->items[o[i].first + k]->u.str.s);

				if (x)
					vseq_push(in->a, v->u.seq, x);
				else
					v = NULL;
			}
			if (v && o[i].eqval) {
				value_t *x = hfa_convert(in, tw, o[i].eqval);

				v = x ? (vseq_push(in->a, v->u.seq, x), v) : NULL;
			}
		} else if (o[i].eqval || o[i].n == 1) {
			v = hfa_convert(in, tw, o[i].eqval ? o[i].eqval : av->items[o[i].first]->u.str.s);
		} else if (!o[i].n && !strcmp(tw, "bool")) {
			v = v_bool(in->a, 1);     /* the bare flag: const=True */
		} else {
			v = NULL;
		}
		if (!v)
			v = unknown_at(f, site, afmt(in, "--%s: a value ecg does not convert", o[i].name));
	}
	return v;
}

/* The fields catalog library_dataclass_fields lists for library class
 * lib, set on inst: from the options, else their default (a field set
 * already, the repository's own, is left). */
static void hfa_library_fields(struct frame *f, const char *lib, struct vinst *inst, struct hfa_opt *o, size_t no,
                               const struct vseq *av, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec = lib ? catalog_fact(in->cat, CATALOG_F_LIBRARY_DATACLASS_FIELDS, lib) : NULL;

	while (spec && *spec) {
		size_t n = strcspn(spec += strspn(spec, " "), " ");
		const char *item = afmt(in, "%.*s", (int)n, spec), *colon = strchr(item, ':'), *eq;
		const char *name, *tw, *dflt;
		value_t *v;

		spec += n;
		if (!n || !colon || !(eq = strchr(colon, '=')))
			continue;
		name = afmt(in, "%.*s", (int)(colon - item), item);
		tw = afmt(in, "%.*s", (int)(eq - colon - 1), colon + 1);
		dflt = eq + 1;
		if (vdict_gets(inst->attrs, name))
			continue;
		v = hfa_field_value(f, o, no, av, name, tw, 0, site);
		if (!v && !strcmp(dflt, "None"))
			v = v_none(in->a);
		else if (!v && strcmp(dflt, "?"))
			v = hfa_convert(in, tw, dflt);
		if (v)
			vdict_sets(in->a, inst->attrs, name, v);
	}
}

/* One dataclass of the parser, built from the options: a repository
 * dataclass called with the fields given (then its library base's listed
 * fields set), or a library dataclass's listed fields on an object of
 * it.  NULL when cls is neither. */
static value_t *hfa_build(struct frame *f, value_t *cls, struct hfa_opt *o, size_t no, const struct vseq *av,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r, *flds;
	struct vdict *kw;
	size_t i;

	if (cls->k == VK_EXT && catalog_fact(in->cat, CATALOG_F_LIBRARY_DATACLASS_FIELDS, canon_ext(in, cls->u.ext))) {
		struct vinst *m = new_inst(in);

		m->ext = canon_ext(in, cls->u.ext);
		m->args = vdict_new(in->a);
		hfa_library_fields(f, m->ext, m, o, no, av, site);
		return mk_inst_value(in, m);
	}
	if (cls->k != VK_CLASS || !cls->u.cls->is_dataclass || !(flds = dataclass_fields_call(f, cls)) ||
	    flds->k != VK_TUPLE)
		return NULL;
	kw = vdict_new(in->a);
	for (i = 0; i < flds->u.seq->n; i++) {
		const value_t *fo = flds->u.seq->items[i];
		const value_t *nm = fo->k == VK_INST ? vdict_gets(fo->u.inst->attrs, "name") : NULL;
		int list = 0;
		const value_t *bt = fo->k == VK_INST ? ann_base_type(vdict_gets(fo->u.inst->attrs, "type"), &list, 0) : NULL;
		value_t *v;

		if (!nm || nm->k != VK_STR)
			continue;
		v = hfa_field_value(f, o, no, av, nm->u.str.s, hfa_type_word(bt), list, site);
		if (v)
			vdict_sets(in->a, kw, nm->u.str.s, v);
	}
	r = call(f, cls, NULL, 0, kw, site);
	if (r->k == VK_INST && !r->u.inst->mod)
		hfa_library_fields(f, cls->u.cls->ext_base ? canon_ext(in, cls->u.cls->ext_base) : NULL, r->u.inst, o, no,
		                   av, site);
	return r;
}

/* The catalog parser class (canonical) that repository class c derives
 * from, or NULL. */
static const char *hfa_base(struct interp *in, struct vclass *c)
{
	const char *b = c ? class_ext_base(c) : NULL;

	if (!b)
		return NULL;
	b = canon_ext(in, b);
	return catalog_fact(in->cat, CATALOG_F_DATACLASS_ARG_PARSERS, b) ? b : NULL;
}

/* The dataclass types of a parser's constructor call, as spec names them
 * ("KEY@POS;METHOD"), or NULL. */
static value_t *hfa_ctor_types(struct interp *in, const char *spec, value_t **args, size_t nargs,
                               const struct vdict *kw)
{
	size_t kn = strcspn(spec, "@;");
	const char *at = strchr(spec, '@');
	value_t *types = kw ? vdict_gets(kw, afmt(in, "%.*s", (int)kn, spec)) : NULL;

	if (!types && at && at[1] >= '0' && at[1] <= '9' && (size_t)(at[1] - '0') < nargs)
		types = args[at[1] - '0'];
	return types;
}

void hfargs_subclass_init(struct interp *in, struct vinst *m, value_t **args, size_t nargs, const struct vdict *kw)
{
	const char *b;
	value_t *types;

	if (m->mod != VM_NONE || m->ext || !(b = hfa_base(in, m->cls)) || class_lookup(m->cls, "__init__", NULL))
		return;
	if ((types = hfa_ctor_types(in, catalog_fact(in->cat, CATALOG_F_DATACLASS_ARG_PARSERS, b), args, nargs, kw)))
		vdict_sets(in->a, m->attrs, HFA_TYPES, types);
}

value_t *hfargs_method(struct interp *in, value_t *obj, const char *name)
{
	const char *b, *spec, *meth;
	value_t *v;

	if (obj->k != VK_INST || !obj->u.inst->cls || obj->u.inst->ext || !(b = hfa_base(in, obj->u.inst->cls)) ||
	    !(spec = catalog_fact(in->cat, CATALOG_F_DATACLASS_ARG_PARSERS, b)) || !(meth = strchr(spec, ';')) ||
	    strcmp(meth + 1, name))
		return NULL;
	v = v_ext(in->a, adot(in, b, name));
	v->recv = obj;
	return v;
}

value_t *hfargs_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_DATACLASS_ARG_PARSERS, d), *method, *at;
	const struct vinst *p = recv && recv->k == VK_INST ? recv->u.inst : NULL;
	const struct vseq *av;
	struct hfa_opt *o;
	value_t *types, *r;
	size_t i, no = 0, nt;

	if (f->mode == M_FWD)
		return NULL;
	if (spec) {
		/* the constructor: the object, with the dataclass types */
		struct vinst *m = new_inst(in);

		m->ext = d;
		m->args = vdict_new(in->a);
		if ((types = hfa_ctor_types(in, spec, args, nargs, kw)))
			vdict_sets(in->a, m->attrs, HFA_TYPES, types);
		return mk_inst_value(in, m);
	}
	if (!p || !(spec = catalog_fact(in->cat, CATALOG_F_DATACLASS_ARG_PARSERS, p->ext ? p->ext : hfa_base(in, p->cls))) ||
	    !(method = strchr(spec, ';')) || !(at = strrchr(d, '.')) || strcmp(at + 1, method + 1))
		return NULL;
	types = vdict_gets(p->attrs, HFA_TYPES);
	if (!types || nargs || (kw && kw->n))
		return unknown_at(f, site, afmt(in, "%s: its dataclasses or arguments are not read", d));
	if (!(av = hfa_argv(in->argv)))
		return unknown_at(f, site, afmt(in, "%s over a command line not known", d));
	/* the options: --name [words...] / --name=value */
	o = ast_arena_alloc(in->a, (av->n + 1) * sizeof *o);
	for (i = 0; i < av->n; i++) {
		const char *w = av->items[i]->u.str.s, *eq;
		char *c;

		if (strncmp(w, "--", 2) || !w[2]) {
			if (!no)
				return unknown_at(f, site, afmt(in, "%s: the word %s is no option", d, w));
			o[no - 1].n++;
			continue;
		}
		memset(&o[no], 0, sizeof o[no]);
		eq = strchr(w, '=');
		o[no].name = (char *)afmt(in, "%.*s", (int)(eq ? (size_t)(eq - w - 2) : strlen(w + 2)), w + 2);
		for (c = o[no].name; *c; c++)
			if (*c == '-')
				*c = '_';
		o[no].eqval = eq ? eq + 1 : NULL;
		o[no].first = i + 1;
		no++;
	}
	nt = types->k == VK_TUPLE || types->k == VK_LIST ? types->u.seq->n : 1;
	if ((types->k == VK_TUPLE || types->k == VK_LIST) && types->u.seq->unk_reason)
		return unknown_at(f, site, afmt(in, "%s: its dataclasses are not known", d));
	r = v_seq(in->a, VK_TUPLE, nt);
	for (i = 0; i < nt; i++) {
		value_t *cls = types->k == VK_TUPLE || types->k == VK_LIST ? types->u.seq->items[i] : types;
		value_t *b = hfa_build(f, cls, o, no, av, site);

		vseq_push(in->a, r->u.seq, b ? b : unknown_at(f, site, afmt(in, "%s: a dataclass not read", d)));
	}
	return r;
}

const value_t *hfargs_library_default(struct interp *in, const char *lib, const char *name)
{
	const char *spec = lib ? catalog_fact(in->cat, CATALOG_F_LIBRARY_DATACLASS_FIELDS, lib) : NULL;
	size_t nl = strlen(name);

	while (spec && *spec) {
		size_t n = strcspn(spec += strspn(spec, " "), " ");
		const char *colon = memchr(spec, ':', n), *eq = colon ? memchr(colon, '=', n - (size_t)(colon - spec)) : NULL;

		if (colon && eq && (size_t)(colon - spec) == nl && !strncmp(spec, name, nl)) {
			const char *tw = afmt(in, "%.*s", (int)(eq - colon - 1), colon + 1);
			const char *dflt = afmt(in, "%.*s", (int)(spec + n - eq - 1), eq + 1);

			if (!strcmp(dflt, "None"))
				return v_none(in->a);
			return strcmp(dflt, "?") ? hfa_convert(in, tw, dflt) : NULL;
		}
		spec += n;
	}
	return NULL;
}
