/* interp/argparse.c - argparse parsers and dataclass fields, read as configuration
 *
 * An ArgumentParser is an instance carrying its options; parse_args()
 * (argp_parse_args) answers each option from the job's argv, else its
 * --set override, else its default, and says which (value_t.via); a str
 * default goes through type= as argparse does, one not known too when its
 * facts say it is a str (a launcher's LOCAL_RANK digits).
 * add_subparsers()/add_parser() keep the subcommands' parsers on the
 * parser: the one argv names reads the words after it.
 * dataclass_fields() lists a @dataclass's fields with their defaults and
 * overrides, in definition order (bases first); ClassVar annotations are
 * not fields.  dataclass_fields_call() is dataclasses.fields(): Field
 * objects (name, type, default or MISSING, default_factory, init,
 * metadata), the type as Python holds it (a class, or a typing form that
 * typing_origin_call(), typing.get_origin/get_args, reads), so that an
 * argparse factory built on a dataclass (Megatron's ArgumentGroupFactory)
 * gets its options' flags, types and defaults.  They return NULL when
 * they do not know (the caller says unknown).
 */
#include "config.h"

#include "internal.h"

/* ------------------------------------------------------------------ classes: definition */

int is_dataclass_decorator(struct frame *f, const struct ast_hdr *d)
{
	value_t *v;

	if (AST_IS(d, Call))
		d = AST_AS(d, Call)->func;
	v = eval(f, d);
	return ext_is(v, "dataclasses.dataclass") || ext_is(v, "dataclass");
}

/* Whether an annotation is ClassVar[...] (typing.ClassVar, or the string
 * "ClassVar[...]"): a class attribute, not a dataclass field. */
static int is_classvar_ann(const struct ast_hdr *a)
{
	if (a && AST_IS(a, Subscript))
		a = AST_AS(a, Subscript)->value;
	if (!a)
		return 0;
	if (AST_IS(a, Name))
		return !strcmp(AST_AS(a, Name)->id, "ClassVar");
	if (AST_IS(a, Attribute))
		return !strcmp(AST_AS(a, Attribute)->attr, "ClassVar");
	if (AST_IS(a, Constant) && AST_AS(a, Constant)->value.kind == AST_CONST_STR)
		return !strncmp(AST_AS(a, Constant)->value.s, "ClassVar", 8) ||
		       !strncmp(AST_AS(a, Constant)->value.s, "typing.ClassVar", 15);
	return 0;
}

/* *bf: a frame that reads dataclass b's body (its annotations and
 * defaults) in b's module, one level below f. */
static void class_body_frame(struct interp *in, const struct vclass *b, const struct frame *f, struct frame *bf)
{
	memset(bf, 0, sizeof *bf);
	bf->in = in;
	bf->file = b->file;
	bf->globals = b->globals;
	bf->qualname = b->qualname;
	bf->mode = M_JOB;
	bf->mult.n = 1;
	bf->cond.taken = -1;
	bf->depth = f->depth + 1;
}

/* Dataclass / NamedTuple fields in definition order, bases first. */
void dataclass_fields(struct interp *in, struct vclass *c, struct vdict *out, struct frame *f)
{
	size_t i;
	unsigned k;

	for (i = c->nmro; i-- > 0;) {
		struct vclass *b = c->mro[i];
		struct frame bf;

		if (!b->is_dataclass)
			continue;
		class_body_frame(in, b, f, &bf);
		for (k = 0; k < b->def->body.n; k++) {
			const struct ast_hdr *st = b->def->body.items[k];
			const struct ast_AnnAssign *aa;
			value_t *dv;

			if (!AST_IS(st, AnnAssign))
				continue;
			aa = AST_AS(st, AnnAssign);
			if (!AST_IS(aa->target, Name) || is_classvar_ann(aa->annotation))
				continue;
			dv = aa->value ? vdict_gets(b->ns, AST_AS(aa->target, Name)->id) : NULL;
			if (!dv)
				dv = v_unknown(in->a, astr(in, AST_AS(aa->target, Name)->id), "a required field");
			/* field(default=..., default_factory=...) */
			if (aa->value && AST_IS(aa->value, Call)) {
				const struct ast_Call *cl = AST_AS(aa->value, Call);
				unsigned j;

				for (j = 0; j < cl->keywords.n; j++) {
					const struct ast_keyword *kw = AST_AS(cl->keywords.items[j], keyword);

					if (kw->arg && !strcmp(kw->arg, "default"))
						dv = eval(&bf, kw->value);
					if (kw->arg && !strcmp(kw->arg, "default_factory"))
						dv = call(&bf, eval(&bf, kw->value), NULL, 0, NULL, kw->value);
				}
			}
			vdict_sets(in->a, out, AST_AS(aa->target, Name)->id,
			           overridden(in, AST_AS(aa->target, Name)->id, dv));
		}
	}
}

/* The repo dataclass v is (a class) or is an instance of, or NULL. */
static struct vclass *dataclass_of(const value_t *v)
{
	struct vclass *c = v->k == VK_CLASS ? v->u.cls : v->k == VK_INST ? v->u.inst->cls : NULL;

	return c && c->is_dataclass ? c : NULL;
}

/* ------------------------------------------------------------------ dataclasses.fields(), typing */

/* The typing forms a field's annotation is read through, by name. */
enum typing_form { TF_NONE, TF_OPTIONAL, TF_UNION, TF_LITERAL, TF_LIST, TF_DICT, TF_TUPLE };
#define BI_LIST_FORM TF_LIST    /* the forms from here on are containers */

static enum typing_form typing_form(const char *d)
{
	static const struct { const char *n; enum typing_form f; } forms[] = {
		{ "typing.Dict", TF_DICT }, { "typing.List", TF_LIST }, { "typing.Literal", TF_LITERAL },
		{ "typing.Optional", TF_OPTIONAL }, { "typing.Tuple", TF_TUPLE }, { "typing.Union", TF_UNION },
	};
	size_t i;

	for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (!strcmp(d, forms[i].n))
			return forms[i].f;
	return TF_NONE;
}

/* A typing form (Optional[int], int | None, list[str], Literal['a']) as a
 * value: an object of "typing._GenericAlias" holding __origin__ and
 * __args__, which typing.get_origin()/get_args() read. */
static value_t *generic_alias(struct interp *in, value_t *origin, value_t *args)
{
	struct vinst *g = new_inst(in);

	g->ext = "typing._GenericAlias";
	vdict_sets(in->a, g->attrs, "__origin__", origin);
	vdict_sets(in->a, g->attrs, "__args__", args);
	return mk_inst_value(in, g);
}

static value_t *ann_type(struct frame *bf, const struct ast_hdr *ann, int depth);

/* the types of a subscript's slice (X or X, Y), converted, into args */
static void ann_args(struct frame *bf, const struct ast_hdr *sl, value_t *args, int literal, int depth)
{
	struct interp *in = bf->in;
	unsigned i;

	if (AST_IS(sl, Tuple)) {
		for (i = 0; i < AST_AS(sl, Tuple)->elts.n; i++)
			vseq_push(in->a, args->u.seq, literal ? eval(bf, AST_AS(sl, Tuple)->elts.items[i])
			                                      : ann_type(bf, AST_AS(sl, Tuple)->elts.items[i], depth + 1));
	} else {
		vseq_push(in->a, args->u.seq, literal ? eval(bf, sl) : ann_type(bf, sl, depth + 1));
	}
}

/* A field's annotation as Python's dataclasses.Field.type holds it: the
 * class (int, an enum, torch.dtype), or a typing form; a string (a
 * forward reference) or a form not read here is unknown. */
static value_t *ann_type(struct frame *bf, const struct ast_hdr *ann, int depth)
{
	struct interp *in = bf->in;
	value_t *v, *args;

	if (!ann || depth > 8)
		return v_unknown(in->a, NULL, "a field type not read");
	if (AST_IS(ann, BinOp) && AST_AS(ann, BinOp)->op == AST_OP_BITOR) {
		args = v_seq(in->a, VK_TUPLE, 2);
		vseq_push(in->a, args->u.seq, ann_type(bf, AST_AS(ann, BinOp)->left, depth + 1));
		vseq_push(in->a, args->u.seq, ann_type(bf, AST_AS(ann, BinOp)->right, depth + 1));
		return generic_alias(in, v_ext(in->a, "types.UnionType"), args);
	}
	if (AST_IS(ann, Subscript)) {
		const struct ast_Subscript *sub = AST_AS(ann, Subscript);
		value_t *base = eval(bf, sub->value);
		const char *d = base->k == VK_EXT ? canon_ext(in, base->u.ext) : NULL;
		enum typing_form form = TF_NONE;

		args = v_seq(in->a, VK_TUPLE, 2);
		if (d && (form = typing_form(d)) == TF_NONE)
			d = NULL;
		if (d && form == TF_OPTIONAL) {
			ann_args(bf, sub->slice, args, 0, depth);
			vseq_push(in->a, args->u.seq, v_ext(in->a, "types.NoneType"));
			return generic_alias(in, v_ext(in->a, "typing.Union"), args);
		}
		if (d && form == TF_UNION) {
			ann_args(bf, sub->slice, args, 0, depth);
			return generic_alias(in, v_ext(in->a, "typing.Union"), args);
		}
		if (d && form == TF_LITERAL) {
			ann_args(bf, sub->slice, args, 1, depth);
			return generic_alias(in, v_ext(in->a, "typing.Literal"), args);
		}
		if ((d && form >= BI_LIST_FORM) ||
		    (base->k == VK_BUILTIN && !base->u.bi.self &&
		     (base->u.bi.id == BI_LIST || base->u.bi.id == BI_DICT || base->u.bi.id == BI_TUPLE))) {
			int id = base->k == VK_BUILTIN ? base->u.bi.id : form == TF_LIST ? BI_LIST :
			         form == TF_DICT ? BI_DICT : BI_TUPLE;

			ann_args(bf, sub->slice, args, 0, depth);
			return generic_alias(in, mk_builtin(in, id, NULL), args);
		}
		return v_unknown(in->a, NULL, "a field type not read");
	}
	if (AST_IS(ann, Name) || AST_IS(ann, Attribute) || AST_IS(ann, Constant)) {
		if (AST_IS(ann, Constant) && AST_AS(ann, Constant)->value.kind != AST_CONST_NONE)
			return v_unknown(in->a, NULL, "a field type written as a string");
		v = eval(bf, ann);
		return v->k == VK_NONE ? v_ext(in->a, "types.NoneType") : v;
	}
	return v_unknown(in->a, NULL, "a field type not read");
}

/* The typing form a subscript of a typing name is (Union[A, B] written
 * as a value, a type alias), as ann_type reads an annotation; NULL when
 * base is no typing form's name. */
value_t *typing_form_value(struct frame *f, const struct ast_hdr *sub, const value_t *base)
{
	if (base->k != VK_EXT || typing_form(canon_ext(f->in, base->u.ext)) == TF_NONE)
		return NULL;
	return ann_type(f, sub, 0);
}

/* An option's field type as ann_type() read it: X of Optional[X]
 * (typing.Union of X and None) and of X | None (types.UnionType, either
 * order); X of List[X] (and of Set[X] when sets
 * is set) with *many set; t itself when it is no typing alias; NULL for
 * any other alias.  HfArgumentParser's dataclass fields (hfargs.c) and
 * Tap's class attributes (tapargs.c). */
const value_t *ann_base_type(const value_t *t, int *many, int sets)
{
	const value_t *o, *a;

	*many = 0;
	if (!t || t->k != VK_INST || !t->u.inst->ext || strcmp(t->u.inst->ext, "typing._GenericAlias"))
		return t;
	o = vdict_gets(t->u.inst->attrs, "__origin__");
	a = vdict_gets(t->u.inst->attrs, "__args__");
	if (!o || !a || a->k != VK_TUPLE || !a->u.seq->n)
		return NULL;
	if (o->k == VK_BUILTIN && (o->u.bi.id == BI_LIST || (sets && o->u.bi.id == BI_SET)) &&
	    (!sets || a->u.seq->n == 1)) {
		*many = 1;
		return a->u.seq->items[0];
	}
	if (o->k == VK_EXT && (!strcmp(o->u.ext, "typing.Union") || !strcmp(o->u.ext, "types.UnionType")) &&
	    a->u.seq->n == 2) {
		/* Optional[X], X | None, None | X: X (itself read once more:
		 * list[str] | None is a list of str) */
		int i, none[2];

		for (i = 0; i < 2; i++)
			none[i] = a->u.seq->items[i]->k == VK_EXT && !strcmp(a->u.seq->items[i]->u.ext, "types.NoneType");
		if (none[0] != none[1])
			return ann_base_type(a->u.seq->items[none[0] ? 1 : 0], many, sets);
	}
	return NULL;
}

typedef void (*class_field_fn)(struct frame *bf, struct vclass *b, const struct ast_AnnAssign *aa, void *ctx);

/* Calls fn on each annotated class-body statement `name: T [= v]` (ClassVar
 * annotations left out) of class c and of its repository bases, bases
 * first -- of those that are dataclasses only when dc_only -- with a frame
 * reading that class's body (bf) and the class that holds it (b). */
static void each_class_field(struct frame *f, struct vclass *c, int dc_only, class_field_fn fn, void *ctx)
{
	size_t i;
	unsigned k;

	for (i = c->nmro; i-- > 0;) {
		struct vclass *b = c->mro[i];
		struct frame bf;

		if (!b->def || (dc_only && !b->is_dataclass))
			continue;
		class_body_frame(f->in, b, f, &bf);
		for (k = 0; k < b->def->body.n; k++) {
			const struct ast_hdr *st = b->def->body.items[k];
			const struct ast_AnnAssign *aa;

			if (!AST_IS(st, AnnAssign))
				continue;
			aa = AST_AS(st, AnnAssign);
			if (AST_IS(aa->target, Name) && !is_classvar_ann(aa->annotation))
				fn(&bf, b, aa, ctx);
		}
	}
}

static void annotated_type_cb(struct frame *bf, struct vclass *b, const struct ast_AnnAssign *aa, void *ctx)
{
	(void)b;
	vdict_sets(bf->in->a, ctx, AST_AS(aa->target, Name)->id, ann_type(bf, aa->annotation, 0));
}

/* The annotated attributes of class c's body and of its repository
 * bases (bases first; a name annotated again keeps its first place, with
 * the latest annotation), ClassVar[...] left out: name -> the annotation
 * as ann_type reads it. */
void class_annotated_types(struct frame *f, struct vclass *c, struct vdict *out)
{
	each_class_field(f, c, 0, annotated_type_cb, out);
}

/* Field(name, type, default, default_factory, init, metadata) of one
 * annotated class-body statement of dataclass b. */
static value_t *field_object(struct frame *bf, struct vclass *b, const struct ast_AnnAssign *aa)
{
	struct interp *in = bf->in;
	struct vinst *fi = new_inst(in);
	const char *name = AST_AS(aa->target, Name)->id;
	value_t *dflt = v_ext(in->a, "dataclasses.MISSING"), *fac = dflt, *init = v_bool(in->a, 1);
	value_t *meta = v_dict(in->a);
	unsigned j;

	if (aa->value && AST_IS(aa->value, Call) && ext_is(eval(bf, AST_AS(aa->value, Call)->func), "dataclasses.field")) {
		const struct ast_Call *cl = AST_AS(aa->value, Call);

		for (j = 0; j < cl->keywords.n; j++) {
			const struct ast_keyword *kw = AST_AS(cl->keywords.items[j], keyword);

			if (!kw->arg)
				continue;
			if (!strcmp(kw->arg, "default"))
				dflt = eval(bf, kw->value);
			else if (!strcmp(kw->arg, "default_factory"))
				fac = eval(bf, kw->value);
			else if (!strcmp(kw->arg, "init"))
				init = eval(bf, kw->value);
			else if (!strcmp(kw->arg, "metadata"))
				meta = eval(bf, kw->value);
		}
	} else if (aa->value) {
		dflt = vdict_gets(b->ns, name);
		if (!dflt)
			dflt = v_unknown(in->a, astr(in, name), "a field default not known");
	}
	fi->ext = "dataclasses.Field";
	vdict_sets(in->a, fi->attrs, "name", v_str(in->a, name));
	vdict_sets(in->a, fi->attrs, "type", ann_type(bf, aa->annotation, 0));
	vdict_sets(in->a, fi->attrs, "default", dflt);
	vdict_sets(in->a, fi->attrs, "default_factory", fac);
	vdict_sets(in->a, fi->attrs, "init", init);
	vdict_sets(in->a, fi->attrs, "metadata", meta);
	return mk_inst_value(in, fi);
}

static void field_object_cb(struct frame *bf, struct vclass *b, const struct ast_AnnAssign *aa, void *ctx)
{
	vdict_sets(bf->in->a, ctx, AST_AS(aa->target, Name)->id, field_object(bf, b, aa));
}

/* dataclasses.fields(x): a tuple of Field objects in definition order,
 * bases first (a field a subclass annotates again keeps its place), without
 * ClassVar annotations.  NULL when x is not a repository dataclass (the
 * caller says unknown). */
value_t *dataclass_fields_call(struct frame *f, value_t *x)
{
	struct interp *in = f->in;
	struct vclass *c = dataclass_of(x);
	struct vdict *fl;
	value_t *r;
	size_t i;

	if (!c)
		return NULL;
	fl = vdict_new(in->a);
	each_class_field(f, c, 1, field_object_cb, fl);
	r = v_seq(in->a, VK_TUPLE, fl->n);
	for (i = 0; i < fl->n; i++)
		vseq_push(in->a, r->u.seq, fl->vals[i]);
	return r;
}

/* typing.get_origin(t) / typing.get_args(t) of a field type (ann_type): a
 * class has no origin and no args; NULL (unknown) for anything else. */
value_t *typing_origin_call(struct frame *f, value_t *t, int want_args)
{
	struct interp *in = f->in;

	if (t->k == VK_INST && t->u.inst->ext && !strcmp(t->u.inst->ext, "typing._GenericAlias"))
		return vdict_gets(t->u.inst->attrs, want_args ? "__args__" : "__origin__");
	if (t->k == VK_CLASS || (t->k == VK_BUILTIN && !t->u.bi.self) ||
	    (t->k == VK_EXT && strncmp(canon_ext(in, t->u.ext), "typing.", 7) &&
	     strncmp(canon_ext(in, t->u.ext), "collections.", 12)))
		return want_args ? v_seq(in->a, VK_TUPLE, 0) : v_none(in->a);
	return NULL;
}

/* dataclasses.is_dataclass(x) of a repository class or instance, or of a
 * plain value; NULL for anything else (an outside class may be one). */
value_t *is_dataclass_call(struct frame *f, value_t *x)
{
	if (x->k == VK_CLASS || (x->k == VK_INST && x->u.inst->cls))
		return v_bool(f->in->a, dataclass_of(x) != NULL);
	if (value_is_known_scalar(x) || x->k == VK_LIST || x->k == VK_DICT || x->k == VK_TUPLE)
		return v_bool(f->in->a, 0);
	return NULL;
}

/* ------------------------------------------------------------------ argparse */

/* p becomes a parser with no options yet (a new ArgumentParser, or the
 * object of a repository class deriving from it: argpsub.c). */
void argp_init_inst(struct interp *in, struct vinst *p)
{
	p->ext = "argparse.ArgumentParser";
	p->argp_opts = v_seq(in->a, VK_LIST, 0);
	/* the give-ups noted so far: one more by parse time may have hidden
	 * an add_argument (argp_open) */
	vdict_sets(in->a, p->attrs, "__ecg_notes0__", v_int(in->a, (long long)in->nnotes));
}

value_t *argp_new(struct interp *in)
{
	struct vinst *p = new_inst(in);

	argp_init_inst(in, p);
	return mk_inst_value(in, p);
}

static void argp_mark_open(struct interp *in, value_t *parser)
{
	vdict_sets(in->a, parser->u.inst->attrs, "__ecg_open__", v_bool(in->a, 1));
}

/* May parser have options ecg did not see?  An add_argument under an
 * undecided condition, a parent not held, or code given up on (a note)
 * since the parser was made. */
static int argp_open(const struct interp *in, value_t *parser)
{
	value_t *n0 = vdict_gets(parser->u.inst->attrs, "__ecg_notes0__");

	return vdict_gets(parser->u.inst->attrs, "__ecg_open__") || !n0 || n0->k != VK_INT ||
	       (size_t)n0->u.i != in->nnotes;
}

/* ArgumentParser(parents=[p, ...]): the parents' options come first, as
 * argparse copies them.  A parent ecg does not hold leaves the parser's
 * options unknown beyond its own: noted as an unknown option list, and
 * the parser open (argp_open). */
void argp_parents(struct interp *in, value_t *parser, const struct vdict *kw)
{
	value_t *ps = kw ? vdict_gets(kw, "parents") : NULL;
	value_t *opts = parser->u.inst->argp_opts;
	size_t i, j;

	if (!ps || (ps->k != VK_LIST && ps->k != VK_TUPLE))
		return;
	for (i = 0; i < ps->u.seq->n; i++) {
		value_t *pp = ps->u.seq->items[i];
		value_t *po = is_argparser(pp) ? pp->u.inst->argp_opts : NULL;

		if (!po || argp_open(in, pp))
			argp_mark_open(in, parser);
		for (j = 0; po && j < po->u.seq->n; j++)
			vseq_push(in->a, opts->u.seq, po->u.seq->items[j]);
	}
}

int is_argparser(const value_t *v)
{
	return v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "argparse.ArgumentParser");
}

void argp_add(struct frame *f, value_t *parser, value_t **args, size_t nargs, struct vdict *kw,
              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *opts = parser->u.inst->argp_opts;
	value_t *o = v_dict(in->a);
	const char *dest = NULL, *longflag = NULL;
	value_t *flags = v_seq(in->a, VK_LIST, 0);
	value_t *v;
	size_t i;
	int positional = 0;

	if (jc_find(f->jc, JC_COND))
		argp_mark_open(in, parser);
	for (i = 0; i < nargs; i++) {
		if (args[i]->k != VK_STR)
			continue;
		vseq_push(in->a, flags->u.seq, args[i]);
		if (!strncmp(args[i]->u.str.s, "--", 2) && !longflag)
			longflag = args[i]->u.str.s + 2;
		else if (args[i]->u.str.s[0] != '-' && i == 0)
			positional = 1;
	}
	if ((v = kw ? vdict_gets(kw, "dest") : NULL) && v->k == VK_STR)
		dest = v->u.str.s;
	if (!dest && longflag) {
		char *d = xstrdup(longflag), *s;

		for (s = d; *s; s++)
			if (*s == '-')
				*s = '_';
		dest = astr(in, d);
		free(d);
	}
	if (!dest && nargs > 0 && args[0]->k == VK_STR) {
		const char *s = args[0]->u.str.s;

		while (*s == '-')
			s++;
		dest = astr(in, s);
	}
	if (!dest)
		return;
	vdict_sets(in->a, o->u.dict, "dest", v_str(in->a, dest));
	vdict_sets(in->a, o->u.dict, "flags", flags);
	vdict_sets(in->a, o->u.dict, "positional", v_bool(in->a, positional));
	vdict_sets(in->a, o->u.dict, "anchor", v_str(in->a, anchor_at(f, site)));
	if (kw)
		for (i = 0; i < kw->n; i++)
			if (kw->keys[i]->k == VK_STR && strcmp(kw->keys[i]->u.str.s, "dest"))   /* dest: above */
				vdict_set(in->a, o->u.dict, kw->keys[i], kw->vals[i]);
	vseq_push(in->a, opts->u.seq, o);
}

static value_t *argp_convert(struct frame *f, value_t *type, const char *text)
{
	struct interp *in = f->in;
	long long i;
	double d;

	if (type && type->k == VK_BUILTIN && type->u.bi.id == BI_INT) {
		if (py_int_of_str(text, &i))
			return v_int(in->a, i);
	} else if (type && type->k == VK_BUILTIN && type->u.bi.id == BI_FLOAT) {
		if (py_float_of_str(text, &d))
			return v_float(in->a, d);
	} else if (!type || (type->k == VK_BUILTIN && type->u.bi.id == BI_STR)) {
		return v_str(in->a, text);
	} else if (type->k == VK_FUNC) {
		/* type=str2bool: the repository's converter, called on the text */
		value_t *arg = v_str(in->a, text);
		value_t *r = call(f, type, &arg, 1, NULL, NULL);

		if (value_is_known_scalar(r))
			return r;
	}
	return v_unknown(in->a, astr(in, text), "an argument converted by a function ecg does not follow");
}

/* argparse passes a str default through type= as it does a word of the
 * command line, whatever the str holds.  A default not known whose facts
 * say it is a str -- the digits of a launcher's rank or size
 * (os.getenv('LOCAL_RANK', 0) under torchrun) -- goes through a builtin
 * type as the call does: int() of it is an int >= 0, no longer a str
 * (which equals no int).  Any other default is returned as it is: one
 * not known may not be a str at all. */
static value_t *argp_convert_unknown_default(struct frame *f, value_t *type, value_t *def)
{
	if (def->k != VK_UNKNOWN || def->alts || def->nonneg != FACT_DIGITS || !type || type->k != VK_BUILTIN ||
	    type->u.bi.id == BI_STR)
		return def;
	return call(f, type, &def, 1, NULL, NULL);
}

/* action=argparse.BooleanOptionalAction: --x and --no-x, no value */
static int is_bool_optional(const value_t *action)
{
	return action && action->k == VK_EXT && !strcmp(action->u.ext, "argparse.BooleanOptionalAction");
}

/* Does the option dict o take the token after its flag as its value? */
static int argp_takes_value(const struct vdict *o)
{
	value_t *action = vdict_gets(o, "action");
	value_t *nargs = vdict_gets(o, "nargs");

	if (is_bool_optional(action))
		return 0;
	if (action && action->k == VK_STR)
		return !strcmp(action->u.str.s, "store") || !strcmp(action->u.str.s, "append");
	return !(nargs && nargs->k == VK_INT && nargs->u.i == 0);
}

/* Where the subcommand is in argv: the first word that is neither an
 * option of `parser` nor an option's value nor one of its positionals;
 * argv->n when there is none. */
static size_t argp_sub_index(value_t *parser, const struct vseq *argv)
{
	value_t *opts = parser->u.inst->argp_opts;
	size_t j, k, npos = 0, seen = 0;

	for (k = 0; opts && k < opts->u.seq->n; k++) {
		value_t *pos = vdict_gets(opts->u.seq->items[k]->u.dict, "positional");

		if (pos && pos->k == VK_BOOL && pos->u.b)
			npos++;
	}
	for (j = 0; j < argv->n; j++) {
		const char *tok = argv->items[j]->u.str.s;

		if (tok[0] != '-') {
			if (seen++ < npos)
				continue;
			return j;
		}
		if (strchr(tok, '='))
			continue;
		for (k = 0; opts && k < opts->u.seq->n; k++) {
			const struct vdict *o = opts->u.seq->items[k]->u.dict;
			value_t *flags = vdict_gets(o, "flags");
			size_t l;

			for (l = 0; flags && l < flags->u.seq->n; l++)
				if (!strcmp(flags->u.seq->items[l]->u.str.s, tok) && argp_takes_value(o))
					j++;
		}
	}
	return argv->n;
}

static void argp_parse_into(struct frame *f, value_t *parser, struct vseq *argv, struct vinst *ns);

/* Is tok (no `=value` in it) a flag of one of opts whose value is the
 * next word (`--model turbo`: "turbo" is no positional)? */
static int argp_flag_takes_value(const value_t *opts, const char *tok)
{
	size_t k, l;

	if (tok[0] != '-' || strchr(tok, '='))
		return 0;
	for (k = 0; opts && k < opts->u.seq->n; k++) {
		const struct vdict *o = opts->u.seq->items[k]->u.dict;
		value_t *flags = vdict_gets(o, "flags");

		for (l = 0; flags && l < flags->u.seq->n; l++)
			if (!strcmp(flags->u.seq->items[l]->u.str.s, tok))
				return argp_takes_value(o);
	}
	return 0;
}

/* Does the option dict o take a list of words (nargs '+' or '*')? */
static int argp_takes_list(const struct vdict *o)
{
	value_t *nargs = vdict_gets(o, "nargs");

	return nargs && nargs->k == VK_STR && (!strcmp(nargs->u.str.s, "+") || !strcmp(nargs->u.str.s, "*"));
}

/* Does the option dict o take the rest of the command line
 * (nargs=argparse.REMAINDER, whose value is "...")? */
static int argp_takes_rest(const struct vdict *o)
{
	value_t *nargs = vdict_gets(o, "nargs");

	return nargs && ((nargs->k == VK_EXT && !strcmp(nargs->u.ext, "argparse.REMAINDER")) ||
	                 (nargs->k == VK_STR && !strcmp(nargs->u.str.s, "...")));
}

/* Where the rest of argv goes to an nargs=REMAINDER option of opts: the
 * index of the word that starts it (argparse: a positional REMAINDER
 * takes every word from its own first one on, options included; an
 * optional one every word after its flag), *rest the option's dict;
 * argv->n and *rest NULL when no such option takes any. */
static size_t argp_rest_at(const value_t *opts, const struct vseq *argv, const struct vdict **rest)
{
	const struct vdict *pos_rest = NULL;
	size_t j, k, l, pos_before = 0, seen = 0;

	*rest = NULL;
	for (k = 0; opts && k < opts->u.seq->n && !pos_rest; k++) {
		const struct vdict *o = opts->u.seq->items[k]->u.dict;
		value_t *pos = vdict_gets(o, "positional");

		if (pos && pos->k == VK_BOOL && pos->u.b) {
			if (argp_takes_rest(o))
				pos_rest = o;
			else
				pos_before++;
		}
	}
	for (j = 0; j < argv->n; j++) {
		const char *tok = argv->items[j]->u.str.s;

		if (tok[0] != '-') {
			if (pos_rest && seen++ == pos_before) {
				*rest = pos_rest;
				return j;
			}
			continue;
		}
		for (k = 0; opts && k < opts->u.seq->n; k++) {
			const struct vdict *o = opts->u.seq->items[k]->u.dict;
			value_t *flags = vdict_gets(o, "flags");

			for (l = 0; flags && l < flags->u.seq->n && argp_takes_rest(o); l++)
				if (!strcmp(flags->u.seq->items[l]->u.str.s, tok)) {
					*rest = o;
					return j;
				}
		}
		if (argp_flag_takes_value(opts, tok))
			j++;
	}
	if (pos_rest)
		*rest = pos_rest;
	return argv->n;
}

/* The words of argv from j on, each converted by type: what an
 * nargs=REMAINDER option holds. */
static value_t *argp_rest_list(struct frame *f, value_t *type, const struct vseq *argv, size_t j)
{
	struct interp *in = f->in;
	value_t *l = v_seq(in->a, VK_LIST, 0);

	for (; j < argv->n; j++)
		vseq_push(in->a, l->u.seq, argp_convert(f, type, argv->items[j]->u.str.s));
	return l;
}

/* The words of argv from j on up to the next option, each converted by
 * type: the list an nargs '+'/'*' option holds (`audio a.flac b.flac`). */
static value_t *argp_word_list(struct frame *f, value_t *type, const struct vseq *argv, size_t j)
{
	struct interp *in = f->in;
	value_t *l = v_seq(in->a, VK_LIST, 0);

	for (; j < argv->n && argv->items[j]->u.str.s[0] != '-'; j++)
		vseq_push(in->a, l->u.seq, argp_convert(f, type, argv->items[j]->u.str.s));
	return l;
}

/* parser.add_subparsers(dest=...): the subcommand is the word of argv
 * where argp_sub_index() finds it; its parser reads the words after it.
 * dest is None when argv names none (argparse's default when not
 * required), unknown when the job's command line was not given. */
static void argp_parse_sub(struct frame *f, value_t *parser, struct vseq *argv, struct vinst *ns)
{
	struct interp *in = f->in;
	value_t *subs = vdict_gets(parser->u.inst->attrs, "__ecg_subparsers__");
	value_t *dest = vdict_gets(parser->u.inst->attrs, "__ecg_sub_dest__");
	value_t *chosen = NULL, *name = NULL;
	size_t at;

	if (!subs || subs->k != VK_DICT)
		return;
	if (!argv) {
		if (dest && dest->k == VK_STR)
			vdict_sets(in->a, ns->attrs, dest->u.str.s,
			           v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s),
			                     "the subcommand is chosen on the command line, which was not given"));
		return;
	}
	at = argp_sub_index(parser, argv);
	if (at < argv->n) {
		name = argv->items[at];
		chosen = vdict_get(subs->u.dict, name);
		if (!chosen) {
			/* a word that names no subcommand: argparse exits with
			 * an error; nothing is stated */
			if (dest && dest->k == VK_STR)
				vdict_sets(in->a, ns->attrs, dest->u.str.s,
				           v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s),
				                     afmt(in, "'%s' is not one of the subcommands", name->u.str.s)));
			return;
		}
	}
	if (dest && dest->k == VK_STR) {
		value_t *v = chosen ? v_copy(in->a, name) : v_none(in->a);

		value_t *at_v = vdict_gets(parser->u.inst->attrs, "__ecg_sub_anchor__");

		v->expr = afmt(in, "args.%s", dest->u.str.s);
		v->via = chosen ? VIA_OVERRIDE : VIA_DEFAULT;
		v->src = at_v && at_v->k == VK_STR ? at_v->u.str.s : NULL;
		vdict_sets(in->a, ns->attrs, dest->u.str.s, overridden(in, dest->u.str.s, v));
	}
	if (chosen && is_argparser(chosen)) {
		struct vseq rest = *argv;

		rest.items = argv->items + at + 1;
		rest.n = argv->n - at - 1;
		argp_parse_into(f, chosen, &rest, ns);
	}
}

value_t *argp_parse_args(struct frame *f, value_t *parser, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *ns = new_inst(in);
	value_t *nsv = mk_inst_value(in, ns);

	ns->ext = "argparse.Namespace";
	if (cap_is(parser)) {
		/* configargparse: its config files' and variables' words
		 * before the job's (cfgargparse.c), where the config options'
		 * values (parsed from the job's words alone) name the files */
		struct vinst *scratch = new_inst(in);
		struct vdict *from = NULL;
		value_t *words;

		scratch->ext = "argparse.Namespace";
		argp_parse_into(f, parser, in->argv ? in->argv->u.seq : NULL, scratch);
		words = cap_words(f, parser, scratch, in->argv ? in->argv->u.seq : NULL, &from);
		argp_parse_into(f, parser, words ? words->u.seq : in->argv ? in->argv->u.seq : NULL, ns);
		cap_mark(f, ns, from);
		return nsv;
	}
	argp_parse_into(f, parser, in->argv ? in->argv->u.seq : NULL, ns);
	(void)site;
	return nsv;
}

/* The options of `parser` answered from argv (NULL: the job's command
 * line was not given) into ns's attributes, then its subcommand's. */
static void argp_parse_into(struct frame *f, value_t *parser, struct vseq *argv_all, struct vinst *ns)
{
	struct interp *in = f->in;
	value_t *opts = parser->u.inst->argp_opts;
	value_t *pdefs = vdict_gets(parser->u.inst->attrs, "__ecg_setdefaults__");
	size_t i, j, npos_seen = 0, rest_at = 0;
	struct vseq head, before_rest, *argv = argv_all;
	const struct vdict *rest = NULL;

	if (argv_all && vdict_gets(parser->u.inst->attrs, "__ecg_subparsers__")) {
		/* the parser's own options are before the subcommand */
		head = *argv_all;
		head.n = argp_sub_index(parser, argv_all);
		argv = &head;
	}
	if (argv) {
		/* an nargs=REMAINDER option takes the words from rest_at on:
		 * the other options are read before it only */
		rest_at = argp_rest_at(opts, argv, &rest);
		before_rest = *argv;
		before_rest.n = rest_at;
	}
	for (i = 0; opts && i < opts->u.seq->n; i++) {
		struct vdict *o = opts->u.seq->items[i]->u.dict;
		value_t *dest = vdict_gets(o, "dest");
		value_t *action = vdict_gets(o, "action");
		value_t *def = vdict_gets(o, "default");
		value_t *req = vdict_gets(o, "required");
		value_t *type = vdict_gets(o, "type");
		value_t *flags = vdict_gets(o, "flags");
		value_t *positional = vdict_gets(o, "positional");
		value_t *anchor = vdict_gets(o, "anchor");
		value_t *val = NULL;
		int is_true = str_eq(action, "store_true"), is_false = str_eq(action, "store_false");
		int is_const = str_eq(action, "store_const"), is_count = str_eq(action, "count");
		int is_append = str_eq(action, "append");
		/* an action read here: store, the flags, const, count, append */
		int is_other = action && !(is_true || is_false || is_const || is_count || is_append || str_eq(action, "store"));
		long long ncount = 0;
		value_t *appended = NULL;
		int is_pos = positional && positional->k == VK_BOOL && positional->u.b;

		if (!dest || dest->k != VK_STR)
			continue;
		if (!def) {
			if (is_true)
				def = v_bool(in->a, 0);
			else if (is_false)
				def = v_bool(in->a, 1);
			else
				def = v_none(in->a);
		}
		/* the job's command line, when ecg was given one */
		if (argv && o == rest) {
			if (is_pos)
				val = argp_rest_list(f, type, argv, rest_at);
			else if (rest_at < argv->n)
				val = argp_rest_list(f, type, argv, rest_at + 1);
			if (val) {
				val->src = anchor ? anchor->u.str.s : NULL;
				val->via = VIA_OVERRIDE;
			}
		} else if (argv) {
			size_t pos_index = 0, k2;

			for (j = 0; j < before_rest.n; j++) {
				const char *tok = before_rest.items[j]->u.str.s;
				size_t k;

				if (tok[0] != '-') {
					if (is_pos && pos_index++ == npos_seen) {
						val = argp_takes_list(o) ? argp_word_list(f, type, &before_rest, j) : argp_convert(f, type, tok);
						break;
					}
					continue;
				}
				if (is_pos) {
					/* an option's value is no positional */
					if (argp_flag_takes_value(opts, tok))
						j++;
					continue;
				}
				for (k = 0; flags && k < flags->u.seq->n; k++) {
					const char *fl = flags->u.seq->items[k]->u.str.s;
					size_t fl_len = strlen(fl);

					if (strncmp(tok, fl, fl_len) || (tok[fl_len] != '=' && tok[fl_len] != 0))
						continue;
					if (is_other || ((is_true || is_false || is_const || is_count) && tok[fl_len] == '=')) {
						/* a custom Action, or argparse's error */
						val = v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s),
						                "an argparse action ecg does not follow");
					} else if (is_append) {
						value_t *w = tok[fl_len] == '=' ? argp_convert(f, type, tok + fl_len + 1)
						             : j + 1 < before_rest.n ? argp_convert(f, type, before_rest.items[j + 1]->u.str.s)
						             : NULL;

						if (!appended)
							appended = v_seq(in->a, VK_LIST, 0);
						if (w)
							vseq_push(in->a, appended->u.seq, w);
					} else if (tok[fl_len] == '=') {
						val = argp_convert(f, type, tok + fl_len + 1);
					} else if (is_count) {
						ncount++;
					} else if (is_const) {
						val = vdict_gets(o, "const") ? vdict_gets(o, "const") : v_none(in->a);
					} else if (is_true) {
						val = v_bool(in->a, 1);
					} else if (is_false) {
						val = v_bool(in->a, 0);
					} else if (argp_takes_list(o)) {
						val = argp_word_list(f, type, &before_rest, j + 1);
					} else if (j + 1 < before_rest.n) {
						val = argp_convert(f, type, before_rest.items[j + 1]->u.str.s);
					}
				}
			}
			if (ncount && !val)
				val = def->k == VK_INT ? v_int(in->a, def->u.i + ncount)
				      : def->k == VK_NONE ? v_int(in->a, ncount)
				      : v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s), "a count over a default that is no int");
			if (appended && !val) {
				/* argparse appends to (a copy of) the default list */
				if (def->k == VK_LIST && !def->u.seq->unk_reason) {
					value_t *l = seq_from(in, VK_LIST, def->u.seq);

					for (k2 = 0; k2 < appended->u.seq->n; k2++)
						vseq_push(in->a, l->u.seq, appended->u.seq->items[k2]);
					val = l;
				} else {
					val = def->k == VK_NONE ? appended
					      : v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s), "an append to a default that is no list");
				}
			}
			if (val) {
				val = v_copy(in->a, val);
				val->src = anchor ? anchor->u.str.s : NULL;
				val->via = VIA_OVERRIDE;
			}
		}
		if (is_pos)
			npos_seen++;
		if (!val) {
			if (req && value_truth(req) == 1)
				val = v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s), "a required command-line argument");
			else if (is_pos && (!vdict_gets(o, "nargs") || (!argv && argp_takes_rest(o))))
				val = v_unknown(in->a, afmt(in, "args.%s", dest->u.str.s), "a positional command-line argument");
			else {
				val = v_copy(in->a, def);
				if (val->k == VK_STR && type && type->k == VK_BUILTIN && type->u.bi.id != BI_STR)
					val = argp_convert(f, type, def->u.str.s);   /* argparse converts string defaults */
				else if (val->k == VK_UNKNOWN)
					val = argp_convert_unknown_default(f, type, val);
				if (!val->src && anchor)
					val->src = anchor->u.str.s;
			}
		}
		val->expr = afmt(in, "args.%s", dest->u.str.s);
		val = overridden(in, dest->u.str.s, val);
		vdict_sets(in->a, ns->attrs, dest->u.str.s, val);
	}
	/* set_defaults(func=train) of names that are no option */
	for (i = 0; pdefs && pdefs->k == VK_DICT && i < pdefs->u.dict->n; i++)
		if (!vdict_get(ns->attrs, pdefs->u.dict->keys[i]))
			vdict_set(in->a, ns->attrs, pdefs->u.dict->keys[i], pdefs->u.dict->vals[i]);
	argp_parse_sub(f, parser, argv_all, ns);
}

/* The methods of a parser: one function each. */
static value_t *argp_m_add(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	argp_add(f, fn->u.bi.self, args, nargs, kw, site);
	return v_none(f->in->a);
}

/* add_argument_group(): the group's options are the parser's */
static value_t *argp_m_group(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	return fn->u.bi.self;
}

static value_t *argp_m_set_defaults(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                                    struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *opts = self->u.inst->argp_opts;
	size_t i;

	(void)args, (void)nargs, (void)site;
	for (i = 0; kw && i < kw->n; i++) {
		size_t k;
		int found = 0;

		for (k = 0; opts && k < opts->u.seq->n; k++) {
			struct vdict *o = opts->u.seq->items[k]->u.dict;

			if (value_key_eq(vdict_gets(o, "dest"), kw->keys[i])) {
				vdict_sets(in->a, o, "default", kw->vals[i]);
				found = 1;
			}
		}
		/* set_defaults(func=train) of a name that is no option */
		if (!found && !kw_is_marker(kw->keys[i])) {
			value_t *d = vdict_gets(self->u.inst->attrs, "__ecg_setdefaults__");

			if (!d) {
				d = v_dict(in->a);
				vdict_sets(in->a, self->u.inst->attrs, "__ecg_setdefaults__", d);
			}
			vdict_set(in->a, d->u.dict, kw->keys[i], kw->vals[i]);
		}
	}
	return v_none(in->a);
}

/* add_subparsers(dest=...): an action object whose add_parser() makes
 * the subcommands' parsers, kept on this parser */
static value_t *argp_m_subparsers(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                                  struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vinst *act = new_inst(in);
	value_t *dest = kw ? vdict_gets(kw, "dest") : NULL;

	(void)args, (void)nargs;
	act->ext = "argparse._SubParsersAction";
	vdict_sets(in->a, act->attrs, "__ecg_parser__", self);
	vdict_sets(in->a, self->u.inst->attrs, "__ecg_subparsers__", v_dict(in->a));
	if (dest && dest->k == VK_STR)
		vdict_sets(in->a, self->u.inst->attrs, "__ecg_sub_dest__", dest);
	vdict_sets(in->a, self->u.inst->attrs, "__ecg_sub_anchor__", v_str(in->a, anchor_at(f, site)));
	return mk_inst_value(in, act);
}

/* subparsers.add_parser(name, aliases=..., parents=...): a parser for the
 * subcommand, kept under its names */
value_t *argp_m_add_parser(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *owner = vdict_gets(self->u.inst->attrs, "__ecg_parser__");
	value_t *subs = owner ? vdict_gets(owner->u.inst->attrs, "__ecg_subparsers__") : NULL;
	value_t *p = argp_new(in);
	size_t i;

	(void)site;
	argp_parents(in, p, kw);
	if (subs && nargs >= 1 && args[0]->k == VK_STR) {
		value_t *al = kw ? vdict_gets(kw, "aliases") : NULL;

		vdict_set(in->a, subs->u.dict, args[0], p);
		for (i = 0; al && (al->k == VK_LIST || al->k == VK_TUPLE) && i < al->u.seq->n; i++)
			if (al->u.seq->items[i]->k == VK_STR)
				vdict_set(in->a, subs->u.dict, al->u.seq->items[i], p);
	} else if (owner) {
		/* a subcommand whose name is not known: which one runs cannot
		 * be told */
		vdict_sets(in->a, owner->u.inst->attrs, "__ecg_sub_dest__", v_none(in->a));
	}
	return p;
}

/* Is tok a word argparse reads as a negative number (a value, not a flag)? */
static int looks_negative(const char *tok)
{
	char *end;

	if (tok[0] != '-' || !tok[1])
		return 0;
	(void)strtod(tok, &end);
	return !*end;
}

/* The words of argv that no option or positional of parser takes (what
 * parse_known_args() returns second), or NULL when ecg cannot tell: a
 * subcommand, "--", a negative number, a flag abbreviated or glued to its
 * value, an action other than store/store_true/store_false/store_const/
 * append/append_const/count/BooleanOptionalAction, a
 * positional with nargs, an option's value missing. */
static value_t *argp_extras(struct frame *f, value_t *parser, const struct vseq *argv)
{
	struct interp *in = f->in;
	value_t *opts = parser->u.inst->argp_opts;
	value_t *extras = v_seq(in->a, VK_LIST, 0);
	const struct vdict *rest = NULL;
	size_t j, k, l, npos = 0, used = 0, rest_at;

	if (vdict_gets(parser->u.inst->attrs, "__ecg_subparsers__"))
		return NULL;
	for (k = 0; opts && k < opts->u.seq->n; k++) {
		const struct vdict *o = opts->u.seq->items[k]->u.dict;
		value_t *pos = vdict_gets(o, "positional"), *action = vdict_gets(o, "action");

		if (action && !is_bool_optional(action) &&
		    !(action->k == VK_STR && (!strcmp(action->u.str.s, "store") ||
		                              !strcmp(action->u.str.s, "store_true") ||
		                              !strcmp(action->u.str.s, "store_false") ||
		                              !strcmp(action->u.str.s, "store_const") ||
		                              !strcmp(action->u.str.s, "append_const") ||
		                              !strcmp(action->u.str.s, "count") ||
		                              !strcmp(action->u.str.s, "append"))))
			return NULL;
		if (pos && pos->k == VK_BOOL && pos->u.b && !argp_takes_rest(o)) {
			if (vdict_gets(o, "nargs"))
				return NULL;
			npos++;
		}
	}
	rest_at = argp_rest_at(opts, argv, &rest);
	for (j = 0; j < rest_at; j++) {
		const char *tok = argv->items[j]->u.str.s;
		const struct vdict *hit = NULL;
		int glued = 0, near = 0;

		if (!strcmp(tok, "--") || looks_negative(tok))
			return NULL;
		if (tok[0] != '-' || !tok[1]) {
			if (used < npos)
				used++;
			else
				vseq_push(in->a, extras->u.seq, argv->items[j]);
			continue;
		}
		for (k = 0; opts && k < opts->u.seq->n && !hit; k++) {
			const struct vdict *o = opts->u.seq->items[k]->u.dict;
			value_t *flags = vdict_gets(o, "flags");

			for (l = 0; flags && l < flags->u.seq->n; l++) {
				const char *fl = flags->u.seq->items[l]->u.str.s;
				size_t fn = strlen(fl), tn = strlen(tok);

				if (fl[0] != '-')
					continue;
				if (!strcmp(fl, tok) || (fl[1] == '-' && !strncmp(tok, "--no-", 5) && !strcmp(tok + 5, fl + 2) &&
				                         is_bool_optional(vdict_gets(o, "action")))) {
					hit = o;
					break;
				}
				if (tn > fn && !strncmp(tok, fl, fn) && tok[fn] == '=' && fl[1] == '-') {
					hit = o;
					glued = 1;
					break;
				}
				if (!strncmp(tok, fl, tn < fn ? tn : fn))
					near = 1;      /* an abbreviation, or -n5 */
			}
		}
		if (!hit) {
			if (near)
				return NULL;
			vseq_push(in->a, extras->u.seq, argv->items[j]);
			continue;
		}
		if (glued || !argp_takes_value(hit))
			continue;
		if (argp_takes_list(hit)) {
			while (j + 1 < rest_at && argv->items[j + 1]->u.str.s[0] != '-')
				j++;
			continue;
		}
		if (j + 1 >= rest_at || (argv->items[j + 1]->u.str.s[0] == '-' && !looks_negative(argv->items[j + 1]->u.str.s)))
			return NULL;
		j++;
	}
	return extras;
}

/* parse_args() of words some of which no option takes: argparse prints
 * "unrecognized arguments" and exits with status 2, and so does the job
 * (run_ends).  The caller asks only when every option of parser is known
 * (argp_open), the call is on no undecided path and under no `try` that
 * may catch the exit, and the words are the command line (the job did
 * not read sys.argv itself) or a list given; and argp_extras must tell the
 * words apart.  Else nothing is stated. */
static void argp_rejects(struct frame *f, value_t *parser, const struct vseq *argv, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *extras = argp_extras(f, parser, argv);
	buf_t b;
	size_t i;

	if (!extras || extras->k != VK_LIST || !extras->u.seq->n)
		return;
	buf_init(&b);
	for (i = 0; i < extras->u.seq->n && i < 6; i++)
		buf_addf(&b, "%s%s", i ? " " : "", extras->u.seq->items[i]->u.str.s);
	if (i < extras->u.seq->n)
		buf_addf(&b, " ... (%zu words)", extras->u.seq->n);
	run_ends(f, site,
	         afmt(in, "the run ends here: argparse rejects the command line (unrecognized arguments: %s) "
	                  "and the job exits with status 2; nothing after it runs",
	              b.buf));
	buf_free(&b);
}

/* parse_args(args=None), parse_known_args(args=None): the namespace of
 * the job's argv, or of the list given; parse_known_args() with the words
 * no option took (argp_extras; unknown when ecg cannot tell). */
static value_t *argp_m_parse(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *given = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "args") : NULL;
	value_t *nsv, *saved = in->argv, *extras = NULL;
	int known = site && AST_IS(site, Call) && AST_IS(AST_AS(site, Call)->func, Attribute) &&
	            !strcmp(cap_method_name(in, fn->u.bi.self, AST_AS(AST_AS(site, Call)->func, Attribute)->attr),
	                    "parse_known_args");
	size_t i;

	if (given && given->k != VK_NONE) {
		/* parse_args(list): that list instead of sys.argv[1:] */
		if ((given->k != VK_LIST && given->k != VK_TUPLE) || given->u.seq->unk_reason)
			return unknown_at(f, site, "command-line arguments parsed from a list not known");
		for (i = 0; i < given->u.seq->n; i++)
			if (given->u.seq->items[i]->k != VK_STR)
				return unknown_at(f, site, "command-line arguments parsed from a list not known");
		in->argv = given;
	}
	nsv = argp_parse_args(f, fn->u.bi.self, site);
	if (known && in->argv)
		extras = argp_extras(f, fn->u.bi.self, in->argv->u.seq);
	else if (in->argv && !argp_open(in, fn->u.bi.self) && !jc_find(f->jc, JC_COND) && !in->try_exit &&
	         ((given && given->k != VK_NONE) || !in->argv_read))
		argp_rejects(f, fn->u.bi.self, in->argv->u.seq, site);
	in->argv = saved;
	if (known) {
		value_t *t = v_seq(in->a, VK_TUPLE, 2);

		vseq_push(in->a, t->u.seq, nsv);
		vseq_push(in->a, t->u.seq, extras ? extras : unknown_at(f, site, "the words no option took (not followed)"));
		return t;
	}
	return nsv;
}

/* The methods of an ArgumentParser (or an argument group: the parser
 * itself) by name. */
static const struct native argp_methods[] = {
	{ "add_argument", argp_m_add, BI_M_ARGP_ADD },
	{ "add_argument_group", argp_m_group, BI_M_ARGP_GROUP },
	{ "add_mutually_exclusive_group", argp_m_group, BI_M_ARGP_GROUP },
	{ "add_subparsers", argp_m_subparsers, BI_M_ARGP_SUBPARSERS },
	{ "parse_args", argp_m_parse, BI_M_ARGP_PARSE },
	{ "parse_known_args", argp_m_parse, BI_M_ARGP_PARSE },
	{ "set_defaults", argp_m_set_defaults, BI_M_ARGP_SETDEF },
};

const struct ntab argp_methods_ntab = NTAB(argp_methods);

/* obj.<name> for a parser obj: the method bound to it; NULL for another
 * name. */
value_t *argp_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;

	if (obj->k == VK_INST && obj->u.inst->ext && !strcmp(obj->u.inst->ext, "argparse._SubParsersAction"))
		return !strcmp(name, "add_parser") ? mk_builtin(in, BI_M_ARGP_ADDPARSER, obj) : NULL;
	if (!is_argparser(obj))
		return NULL;
	m = NTAB_FIND(argp_methods, cap_method_name(in, obj, name));
	return m ? mk_builtin(in, m->id, obj) : NULL;
}
