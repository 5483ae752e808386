/* interp/object.c - classes and instances
 *
 * A class statement (exec_classdef) makes a vclass with its namespace, its
 * bases and its method resolution order (build_mro); class_lookup() reads
 * a name through the MRO.  instantiate() makes an instance and runs
 * __init__ (a torch.nn.Module subclass becomes a module instance);
 * set_attr() stores an attribute, registering submodules in order.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* ------------------------------------------------------------------ classes */

static struct vclass *const *class_mro(struct vclass *c, size_t *n)
{
	*n = c->nmro;
	return c->mro;
}

/* The old order, kept for hierarchies C3 rejects: depth-first, left to
 * right, duplicates dropped at their last place. */
static size_t mro_dfs(struct vclass *c, struct vclass **out, size_t cap)
{
	struct vclass *tmp[256];
	size_t n = 0, nout = 0, i, j, k;

	tmp[n++] = c;
	for (i = 0; i < c->nbases; i++) {
		value_t *b = c->bases[i];

		if (b->k != VK_CLASS || b->u.cls == c)
			continue;
		for (j = 0; j < b->u.cls->nmro && n < 256; j++)
			tmp[n++] = b->u.cls->mro[j];
	}
	/* keep the last occurrence of each class after the first slot */
	for (i = 0; i < n && nout < cap; i++) {
		int later = 0;

		for (k = i + 1; k < n; k++)
			if (tmp[k] == tmp[i])
				later = 1;
		if (!later || i == 0) {
			int dup = 0;

			for (k = 0; k < nout; k++)
				if (out[k] == tmp[i])
					dup = 1;
			if (!dup)
				out[nout++] = tmp[i];
		}
	}
	return nout;
}

/* Whether x is in a sequence's tail (after its head at pos). */
static int in_tail(struct vclass *const *seq, size_t len, size_t pos, const struct vclass *x)
{
	size_t i;

	for (i = pos + 1; i < len; i++)
		if (seq[i] == x)
			return 1;
	return 0;
}

/* C3 (Python's MRO): c, then the merge of its repo bases' MROs and the
 * list of those bases: the first head that is in no sequence's tail is
 * taken and removed from every head, until all are empty.  For class A(B,
 * C), B(D, E), C(D, F): A B C D E F.  Returns the length written to out,
 * 0 when no head can be taken (an inconsistent hierarchy: Python raises
 * TypeError) or cap is too small.  External bases are not in the MRO
 * (values.h), so they take no part. */
static size_t mro_c3(struct vclass *c, struct vclass **out, size_t cap)
{
	struct vclass *direct[256];
	struct vclass *const *seq[257];
	size_t len[257], pos[257], nseq = 0, ndirect = 0, nout = 0, i, j;

	for (i = 0; i < c->nbases && ndirect < 256; i++) {
		value_t *b = c->bases[i];

		if (b->k != VK_CLASS || b->u.cls == c)
			continue;
		direct[ndirect++] = b->u.cls;
		seq[nseq] = b->u.cls->mro;
		len[nseq] = b->u.cls->nmro;
		pos[nseq++] = 0;
	}
	seq[nseq] = direct;
	len[nseq] = ndirect;
	pos[nseq++] = 0;
	out[nout++] = c;
	for (;;) {
		struct vclass *pick = NULL;
		int left = 0;

		for (i = 0; i < nseq && !pick; i++) {
			struct vclass *h;

			if (pos[i] >= len[i])
				continue;
			left = 1;
			h = seq[i][pos[i]];
			for (j = 0; j < nseq; j++)
				if (pos[j] < len[j] && in_tail(seq[j], len[j], pos[j], h))
					break;
			if (j == nseq)
				pick = h;
		}
		if (!left)
			return nout;
		if (!pick || pick == c || nout >= cap)
			return 0;
		out[nout++] = pick;
		for (i = 0; i < nseq; i++)
			if (pos[i] < len[i] && seq[i][pos[i]] == pick)
				pos[i]++;
	}
}

/* c's MRO over its repo classes: C3; when C3 fails (Python would raise
 * TypeError at the class statement), the depth-first order, and a note. */
static void build_mro(struct interp *in, struct vclass *c)
{
	struct vclass *tmp[256];
	size_t n = mro_c3(c, tmp, 256);

	if (!n) {
		n = mro_dfs(c, tmp, 256);
		note(in, aanchor(in, c->file->path, c->qualname, c->def ? c->def->h.line : 0),
		     afmt(in, "the method resolution order of class %s", c->name),
		     "its bases admit no consistent (C3) order, which Python rejects with TypeError; "
		     "read depth-first, left to right instead");
	}
	c->mro = ast_arena_alloc(in->a, n * sizeof *c->mro);
	memcpy(c->mro, tmp, n * sizeof *c->mro);
	c->nmro = n;
}

/* Look a name up on a class and its repo bases. */
value_t *class_lookup(struct vclass *c, const char *name, struct vclass **owner)
{
	size_t i, n;
	struct vclass *const *mro = class_mro(c, &n);

	for (i = 0; i < n; i++) {
		value_t *v = vdict_gets(mro[i]->ns, name);

		if (v) {
			if (owner)
				*owner = mro[i];
			return v;
		}
	}
	return NULL;
}

/* Is every outside base class in c's MRO the one named (canonical
 * dotted name)?  1 yes (or none), 0 no. */
int class_ext_bases_only(struct interp *in, struct vclass *c, const char *name)
{
	size_t i, n;
	struct vclass *const *mro = class_mro(c, &n);

	for (i = 0; i < n; i++)
		if (mro[i]->ext_base && strcmp(canon_ext(in, mro[i]->ext_base), name))
			return 0;
	return 1;
}

/* Is c's metaclass one that compares classes by identity (type, ABCMeta,
 * EnumMeta...: none defines __eq__)?  No class of its MRO names a
 * metaclass, and every base it has outside the repository is torch's or
 * one of the standard library's plain ones; a base not known may bring
 * any metaclass.  1 or 0. */
static int class_plain_meta(struct interp *in, struct vclass *c)
{
	static const char *const plain[] = { "torch.", "abc.", "enum.", "typing.", "collections.", "object" };
	size_t i, j, k, n;
	struct vclass *const *mro = class_mro(c, &n);

	for (i = 0; i < n; i++) {
		const struct ast_ClassDef *d = mro[i]->def;

		for (j = 0; d && j < d->keywords.n; j++) {
			const struct ast_keyword *kw = AST_AS(d->keywords.items[j], keyword);

			if (!kw->arg || !strcmp(kw->arg, "metaclass"))
				return 0;
		}
		for (j = 0; j < mro[i]->nbases; j++) {
			const value_t *b = mro[i]->bases[j];
			const char *e;
			int ok = 0;

			if (b->k == VK_CLASS || b->k == VK_BUILTIN)
				continue;
			if (b->k != VK_EXT)
				return 0;
			e = canon_ext(in, b->u.ext);
			for (k = 0; k < sizeof plain / sizeof *plain && !ok; k++)
				ok = !strncmp(e, plain[k], strlen(plain[k]));
			if (!ok)
				return 0;
		}
	}
	return 1;
}

/* l is r (ident) or l == r, one of them a class the repository's or the
 * environment's source defines: a class is itself only.  It is not torch's
 * object (torch's sources are never read: an outside name "torch.*" is
 * never a class read here), nor a number, a string, None, a container, a
 * function or a builtin.  == asks the metaclass: decided only for one that
 * compares by identity.  1, 0, or -1 (not decided: an instance's __eq__,
 * a value not known, another library's name). */
int class_same(struct interp *in, const value_t *l, const value_t *r, int ident)
{
	const value_t *c = l->k == VK_CLASS ? l : r->k == VK_CLASS ? r : NULL, *o = c == l ? r : l;

	if (!c)
		return -1;
	if (o->k == VK_CLASS && o->u.cls == c->u.cls)
		return 1;
	if (!ident && (!class_plain_meta(in, c->u.cls) || (o->k == VK_CLASS && !class_plain_meta(in, o->u.cls))))
		return -1;
	switch (o->k) {
	case VK_CLASS:
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
	case VK_TUPLE: case VK_LIST: case VK_DICT: case VK_FUNC: case VK_BOUND:
	case VK_RANGE: case VK_SLICE: case VK_TENSOR:
		return 0;
	case VK_BUILTIN:
		return o->u.bi.self ? -1 : 0;
	case VK_EXT:
		return !strncmp(canon_ext(in, o->u.ext), "torch.", 6) ? 0 : -1;
	default:
		return -1;
	}
}

const char *class_ext_base(struct vclass *c)
{
	size_t i, n;
	struct vclass *const *mro = class_mro(c, &n);

	for (i = 0; i < n; i++)
		if (mro[i]->ext_base)
			return mro[i]->ext_base;
	return NULL;
}

/* @dataclass(slots=True) remakes the class with __slots__ naming its
 * fields: the name is set here, its value a tuple of the field names. */
static void dataclass_slots(struct frame *f, struct vclass *c, const struct ast_hdr *d)
{
	struct interp *in = f->in;
	const struct ast_Call *cl;
	struct vdict *fields;
	value_t *t;
	unsigned j;
	size_t i;

	if (!AST_IS(d, Call))
		return;
	cl = AST_AS(d, Call);
	for (j = 0; j < cl->keywords.n; j++) {
		const struct ast_keyword *kw = AST_AS(cl->keywords.items[j], keyword);

		if (kw->arg && !strcmp(kw->arg, "slots") && AST_IS(kw->value, Constant) &&
		    AST_AS(kw->value, Constant)->value.kind == AST_CONST_TRUE)
			break;
	}
	if (j == cl->keywords.n)
		return;
	fields = vdict_new(in->a);
	dataclass_fields(in, c, fields, f);
	t = v_seq(in->a, VK_TUPLE, fields->n);
	for (i = 0; i < fields->n; i++)
		vseq_push(in->a, t->u.seq, fields->keys[i]);
	vdict_sets(in->a, c->ns, "__slots__", t);
}

/* type.__new__'s last act: the nearest base's __init_subclass__ (an
 * implicit classmethod) called with the new class (registries, and
 * Configurable-style wiring of a nested Config to its owner).  Runs after
 * the body and before the class decorators, as in Python; the class
 * statement's keywords are not passed. */
static void init_subclass(struct frame *f, value_t *cv, const struct ast_ClassDef *s)
{
	struct vclass *c = cv->u.cls;
	size_t i;

	for (i = 1; i < c->nmro; i++) {
		value_t *v = vdict_gets(c->mro[i]->ns, "__init_subclass__");

		if (!v)
			continue;
		if (v->k == VK_FUNC)
			(void)call_function(f, v->u.fn, NULL, &cv, 1, NULL, M_JOB, NULL, &s->h);
		return;
	}
}

/* Is c a repo class derived from one of enum's (Enum, IntEnum, Flag ...)? */
static int repo_enum(struct interp *in, const struct vclass *c);

int class_is_repo_enum(struct interp *in, const struct vclass *c)
{
	return repo_enum(in, c);
}

static int repo_enum(struct interp *in, const struct vclass *c)
{
	size_t i, j;

	for (i = 0; i < c->nmro; i++)
		for (j = 0; j < c->mro[i]->nbases; j++) {
			const value_t *b = c->mro[i]->bases[j];

			if (b->k == VK_EXT && !strncmp(canon_ext(in, b->u.ext), "enum.", 5))
				return 1;
		}
	return 0;
}

/* Which of enum's classes c derives from: 's' StrEnum, 'f' Flag or
 * IntFlag, 'e' any other; 0 when one of its classes defines
 * _generate_next_value_ (auto() is then its own). */
static int enum_kind(struct interp *in, const struct vclass *c)
{
	size_t i, j;
	int kind = 'e';

	for (i = 0; i < c->nmro; i++) {
		if (vdict_gets(c->mro[i]->ns, "_generate_next_value_"))
			return 0;
		for (j = 0; j < c->mro[i]->nbases; j++) {
			const value_t *b = c->mro[i]->bases[j];
			const char *d = b->k == VK_EXT ? canon_ext(in, b->u.ext) : "";

			if (!strcmp(d, "enum.StrEnum"))
				kind = 's';
			else if (!strcmp(d, "enum.Flag") || !strcmp(d, "enum.IntFlag"))
				kind = 'f';
		}
	}
	return kind;
}

/* The value enum.auto() takes for member `name` after the members before
 * it (last: the greatest int value so far, 0 for none): the next int
 * (Enum, IntEnum), the next power of two (Flag), the name lower-cased
 * (StrEnum); NULL when the class makes its own. */
static value_t *enum_auto_value(struct interp *in, int kind, const char *name, long long last)
{
	if (kind == 's') {
		size_t i, n = strlen(name);
		char *low = ast_arena_alloc(in->a, n + 1);

		for (i = 0; i <= n; i++)
			low[i] = (char)tolower((unsigned char)name[i]);
		return v_str(in->a, low);
	}
	if (kind == 'f') {
		long long p = 1;

		if (last < 0)
			return NULL;
		while (p <= last && p < (1LL << 62))
			p <<= 1;
		return v_int(in->a, p);
	}
	return kind && last >= 0 ? v_int(in->a, last + 1) : NULL;
}

/* Is dotted name d in Python's standard library (catalog python_stdlib,
 * by its top-level package)? */
static int ext_in_stdlib(struct interp *in, const char *d)
{
	char top[64];
	size_t n = strcspn(d, ".");

	if (n >= sizeof top)
		return 0;
	memcpy(top, d, n);
	top[n] = 0;
	return catalog_fact(in->cat, CATALOG_F_PYTHON_STDLIB, top) != NULL;
}

/* The class's decorators written in the repository run, innermost first,
 * as Python runs them (the name is bound to what the last returns): a
 * registry's @register_model(name='ncsnpp') files the class in the
 * module's dict, which a factory reads back by name.  A decorator that
 * returns no class (None, a value not known) keeps the class itself, as
 * for functions (exec_funcdef); a dataclass decorator is read by the class
 * itself, and a library's decorator is not run (a registrar in the
 * catalog files it by name: registry_file). */
static value_t *class_decorated(struct frame *f, value_t *cv, const struct ast_ClassDef *s)
{
	value_t *cur = cv;
	unsigned k;

	for (k = s->decorator_list.n; k-- > 0;) {
		const struct ast_hdr *d = s->decorator_list.items[k];
		value_t *dv, *r;

		if (is_dataclass_decorator(f, d))
			continue;
		dv = eval(f, d);
		if (registry_file(f, dv, cur))
			continue;
		if (dv->k != VK_FUNC && dv->k != VK_BOUND)
			continue;
		r = call(f, dv, &cur, 1, NULL, d);
		if (r->k == VK_CLASS)
			cur = r;
	}
	return cur;
}

/* A repo enum's members (its public names bound to known scalars, and
 * enum.auto()'s values: enum_auto_value) made objects of their own, each
 * read as `E.NAME`: attribute reads give back the very object (eval.c
 * copies a scalar that has no text), so that `x is E.NAME` can be decided
 * by identity (enum_member_is). */
static void enum_members(struct interp *in, struct vclass *c)
{
	size_t j;
	long long last = 0;
	int kind;

	if (!repo_enum(in, c))
		return;
	kind = enum_kind(in, c);
	for (j = 0; j < c->ns->n; j++) {
		const value_t *k = c->ns->keys[j];
		value_t *v = c->ns->vals[j];

		if (k->k == VK_STR && k->u.str.s[0] != '_' && v->k == VK_UNKNOWN && v->reason &&
		    !strcmp(v->reason, ENUM_AUTO_REASON)) {
			value_t *a = enum_auto_value(in, kind, k->u.str.s, last);

			if (!a) {
				last = -1;            /* the class's own: later ints not known */
				continue;
			}
			c->ns->vals[j] = v = a;
		}
		if (v->k == VK_INT && last >= 0 && v->u.i > last)
			last = v->u.i;
		else if (k->k == VK_STR && k->u.str.s[0] != '_' && v->k == VK_UNKNOWN)
			last = -1;                /* a member of a value not known */

		if (k->k != VK_STR || k->u.str.s[0] == '_' || !value_is_known_scalar(v) || v->k == VK_NONE || v->expr)
			continue;
		v = v_copy(in->a, v);
		v->expr = adot(in, c->name, k->u.str.s);
		c->ns->vals[j] = v;
	}
}

void exec_classdef(struct frame *f, const struct ast_ClassDef *s)
{
	struct interp *in = f->in;
	struct vclass *c = ast_arena_alloc(in->a, sizeof *c);
	struct frame cf;
	value_t *cv;
	unsigned i;

	c->name = astr(in, s->name);
	c->qualname = f->cls && f->locals == f->cls->ns ? adot(in, f->cls->qualname, s->name)
	              : f->qualname && f->locals ? afmt(in, "%s.<locals>.%s", f->qualname, s->name) : c->name;
	c->file = f->file;
	c->def = s;
	c->globals = f->globals;
	c->ns = vdict_new(in->a);
	c->nbases = s->bases.n;
	c->bases = ast_arena_alloc(in->a, (s->bases.n + 1) * sizeof *c->bases);
	for (i = 0; i < s->bases.n; i++) {
		value_t *b = eval(f, s->bases.items[i]);

		/* class B(Base[T, U]): a generic repo class subscripted is
		 * that class as a base (its __mro_entries__) */
		if (b->k != VK_CLASS && AST_IS(s->bases.items[i], Subscript)) {
			value_t *g = eval(f, AST_AS(s->bases.items[i], Subscript)->value);

			if (g->k == VK_CLASS)
				b = g;
		}
		c->bases[i] = b;
		if (b->k == VK_CLASS) {
			if (b->u.cls->is_module)
				c->is_module = 1;
			if (b->u.cls->is_dataclass)
				c->is_dataclass = 1;
		} else if (b->k == VK_EXT) {
			const char *d = canon_ext(in, b->u.ext);

			/* nn.Module, or a library's subclass of it (catalog
			 * module_base_classes: Lightning's LightningModule) */
			if (ext_is_module_base(d) || catalog_fact(in->cat, CATALOG_F_MODULE_BASE_CLASSES, d))
				c->is_module = 1;
			else if (!c->ext_base)
				c->ext_base = d;
			/* a module class of a library's models (catalog
			 * module_base_packages: timm's VisionTransformer): the
			 * subclass is a module, its base's code not read */
			if (catalog_fact_match(in->cat, CATALOG_F_MODULE_BASE_PACKAGES, d) && ext_is_module_class(in->cat, d))
				c->is_module = 1;
			if (!strcmp(d, "typing.NamedTuple"))
				c->is_dataclass = 1;
			/* a subclass of a torch.nn class is a module */
			if (!strncmp(d, "torch.nn.", 9) && d[9] >= 'A' && d[9] <= 'Z')
				c->is_module = 1;
		}
	}
	build_mro(in, c);
	for (i = 0; i < s->decorator_list.n; i++)
		if (is_dataclass_decorator(f, s->decorator_list.items[i]))
			c->is_dataclass = 1;

	memset(&cf, 0, sizeof cf);
	cf = *f;
	cf.carry = NULL;
	cf.locals = c->ns;
	cf.scope_def = NULL;
	/* the class body sees the functions around it; a class body around
	 * it is no enclosing scope (Python skips class scopes) */
	cf.closure = f->locals;
	cf.closure_up = NULL;
	if (f->cls && f->locals == f->cls->ns) {
		cf.closure = f->closure;
		cf.closure_up = f->closure_up;
	} else if (f->locals && f->closure) {
		struct vscope *up = ast_arena_alloc(in->a, sizeof *up);

		up->d = f->closure;
		up->up = f->closure_up;
		cf.closure_up = up;
	}
	cf.qualname = c->qualname;
	cf.cls = c;
	cf.globals_decl = NULL;
	cf.mode = M_JOB;
	(void)exec_block(&cf, &s->body);
	enum_members(in, c);
	enum_member_objects(&cf, c);   /* members with an __init__: objects */
	for (i = 0; i < s->decorator_list.n; i++)
		if (is_dataclass_decorator(f, s->decorator_list.items[i]))
			dataclass_slots(f, c, s->decorator_list.items[i]);
	/* a class that defines forward and extends something external is
	 * taken for a module (third-party bases such as timm's) -- not one
	 * of Python's own (abc.ABC: nanotron's PipelineEngine.forward runs
	 * the model, it is none) */
	if (!c->is_module && c->ext_base && vdict_gets(c->ns, "forward") && !ext_in_stdlib(in, c->ext_base))
		c->is_module = 1;
	cv = ast_arena_alloc(in->a, sizeof *cv);
	cv->k = VK_CLASS;
	cv->u.cls = c;
	cv->src = anchor_at(f, &s->h);
	init_subclass(f, cv, s);
	scope_bind(f, s->name, class_decorated(f, cv, s));
}

/* nn.Sequential / ModuleList / ModuleDict's own constructor run for a repo
 * subclass (class Seq(nn.Sequential) without an __init__, or its __init__
 * calling super().__init__(a, b)): the arguments are registered as
 * children, as for the built-in.  1 when self's torch base is such a
 * container (children registered), 0 otherwise (nothing done). */
int container_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = self && self->k == VK_INST ? self->u.inst : NULL;
	const char *base = m && m->cls ? class_ext_base(m->cls) : NULL;
	struct vinst *b;
	const value_t *unk;
	size_t i;

	if (!base || m->mod != VM_REPO || !catalog_fact(in->cat, CATALOG_F_CONTAINER_BASES, base))
		return 0;
	b = new_torch_module(f, base, args, nargs, kw, site);
	unk = vdict_gets(b->attrs, "__ecg_len_unknown__");
	for (i = 0; i < b->nchildren; i++)
		vinst_add_child(in->a, m, b->children[i].name, b->children[i].inst);
	if (unk)
		vdict_sets(in->a, m->attrs, "__ecg_len_unknown__", (value_t *)unk);
	return 1;
}

/* `x is E.NAME` with E a repo enum class (cls, its value): its members
 * are held as their values, the very objects its namespace holds, and a
 * member read anywhere (a default argument, an attribute it was stored
 * in) is that object.  So x is E.NAME when x is the object NAME holds,
 * and is not when x is another member's object of another value (a
 * member of an equal value is an alias: the same member).  1, 0, or -1
 * when not decided (x is no member of E as far as is seen). */
int enum_member_is(struct interp *in, const value_t *x, const value_t *cls, const char *name)
{
	const struct vclass *c;
	const value_t *m = NULL;
	int other = 0;
	size_t i, j;

	if (!x || !cls || cls->k != VK_CLASS || !repo_enum(in, cls->u.cls))
		return -1;
	c = cls->u.cls;
	for (i = 0; i < c->nmro; i++) {
		const struct vdict *ns = c->mro[i]->ns;

		for (j = 0; ns && j < ns->n; j++)
			if (ns->keys[j]->k == VK_STR && !strcmp(ns->keys[j]->u.str.s, name) && !m)
				m = ns->vals[j];
	}
	if (!m || !value_is_known_scalar(m))
		return -1;
	if (x == m)
		return 1;
	for (i = 0; i < c->nmro; i++) {
		const struct vdict *ns = c->mro[i]->ns;

		for (j = 0; ns && j < ns->n; j++)
			if (ns->vals[j] == x && ns->keys[j]->k == VK_STR && ns->keys[j]->u.str.s[0] != '_')
				other = 1;
	}
	if (!other || !value_is_known_scalar(x))
		return -1;
	return value_key_eq(x, m) ? 1 : 0;
}

/* E["NAME"] of a repo enum class E (cls, its value; Enum's __getitem__
 * by member name): the member, the object its namespace holds for that
 * public name (members are held as their values: a known scalar).  NULL
 * when cls is no repo enum or NAME no member seen as one. */
value_t *enum_member_by_name(struct interp *in, const value_t *cls, const char *name)
{
	const struct vclass *c;
	size_t i, j;

	if (!cls || cls->k != VK_CLASS || !name || name[0] == '_' || !repo_enum(in, cls->u.cls))
		return NULL;
	c = cls->u.cls;
	for (i = 0; i < c->nmro; i++) {
		const struct vdict *ns = c->mro[i]->ns;

		for (j = 0; ns && j < ns->n; j++)
			if (ns->keys[j]->k == VK_STR && !strcmp(ns->keys[j]->u.str.s, name))
				return value_is_known_scalar(ns->vals[j]) ? ns->vals[j] : NULL;
	}
	return NULL;
}

/* Enum(value): the member with that value, NULL when the class is no
 * enum or the value is not a known scalar; unknown when no member has it
 * (Python raises ValueError, or _missing_ decides).  Any repo enum: its
 * members are held as their values (a plain Enum's too), so the member
 * is that value (accelerate's RNGType(rng_type) of "generator"). */
static value_t *enum_by_value(struct frame *f, struct vclass *c, value_t **args, size_t nargs,
                              struct vdict *kw, const struct ast_hdr *site)
{
	size_t i, j;

	if (nargs != 1 || (kw && kw->n) || !value_is_known_scalar(args[0]) || args[0]->k == VK_NONE ||
	    !repo_enum(f->in, c))
		return NULL;
	for (i = 0; i < c->nmro; i++) {
		const struct vdict *ns = c->mro[i]->ns;

		for (j = 0; ns && j < ns->n; j++) {
			const value_t *k = ns->keys[j], *v = ns->vals[j];

			if (k->k == VK_STR && k->u.str.s[0] != '_' && value_is_known_scalar(v) &&
			    v->k == args[0]->k && value_key_eq(v, args[0]))
				return ns->vals[j];
		}
	}
	return unknown_at(f, site, "an enum member by a value no member has (the enum's _missing_ decides)");
}

value_t *instantiate(struct frame *f, struct vclass *c, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m;
	value_t *self;
	value_t *init;
	struct vclass *owner = NULL;
	size_t i;

	if ((self = enum_by_value(f, c, args, nargs, kw, site)))
		return self;
	if ((self = dictsub_new(f, c, args, nargs, kw, site)))
		return self;
	if ((self = yacssub_new(f, c, args, nargs, kw, site)))
		return self;
	m = new_inst(in);
	self = mk_inst_value(in, m);

	m->cls = c;
	m->mod = c->is_module ? VM_REPO : VM_NONE;
	if (m->mod == VM_REPO && in->default_on_device && f->mode != M_FWD)
		m->on_device = 1;   /* built with a device as the default */
	m->on_meta = m->mod == VM_REPO && in->default_meta && f->mode != M_FWD;
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = site ? text_of(f, site) : NULL;
	m->cond = f->cond.text;
	m->built_ctx = f->jc;
	m->args = vdict_new(in->a);
	argp_subclass_init(in, m);   /* class P(argparse.ArgumentParser) */
	tapargs_init(in, m, kw);     /* class Args(Tap) */
	hfargs_subclass_init(in, m, args, nargs, kw);   /* class P(HfArgumentParser) */
	/* the repository's own optimizer (a torch.optim.Optimizer
	 * subclass) built by job code: the job means to train */
	if (f->mode != M_FWD && !in->ev.optimizer_built && is_optim_ext(class_ext_base(c)))
		in->ev.optimizer_built = anchor_at(f, site);
	if (c->is_dataclass) {
		struct vdict *fields = vdict_new(in->a);

		dataclass_fields(in, c, fields, f);
		for (i = 0; i < fields->n; i++) {
			value_t *v = fields->vals[i];

			if (i < nargs)
				v = args[i];
			else if (kw_unk(kw, 1))
				v = v_unknown(in->a, fields->keys[i]->k == VK_STR ? fields->keys[i]->u.str.s : NULL,
				              kw_unk(kw, 1)->reason);
			if (kw) {
				value_t *kv = vdict_get(kw, fields->keys[i]);

				if (kv)
					v = kv;
			}
			vdict_set(in->a, m->attrs, fields->keys[i], v);
		}
		init = class_lookup(c, "__post_init__", &owner);
		if (init && init->k == VK_FUNC)
			(void)call_function(f, init->u.fn, self, NULL, 0, NULL, M_JOB, NULL, site);
		return self;
	}
	init = class_lookup(c, "__init__", &owner);
	if (init && init->k == VK_FUNC) {
		const struct ast_arguments *fa = fn_args(init->u.fn->def);

		/* remember the constructor arguments by parameter name */
		if (fa) {
			size_t np = fa->posonlyargs.n + fa->args.n;

			for (i = 0; i < nargs && i + 1 < np; i++) {
				const struct ast_arg *p = AST_AS(i + 1 < fa->posonlyargs.n ? fa->posonlyargs.items[i + 1]
				                                 : fa->args.items[i + 1 - fa->posonlyargs.n], arg);

				vdict_sets(in->a, m->args, p->arg, args[i]);
			}
		}
		if (kw)
			for (i = 0; i < kw->n; i++)
				if (!kw_is_marker(kw->keys[i]))
					vdict_set(in->a, m->args, kw->keys[i], kw->vals[i]);
		/* a module calling a model while it is built (a cache
		 * filled by a submodule's call in __init__) is not the job
		 * calling it: call.c records no root call then */
		if (m->mod != VM_NONE)
			in->building++;
		(void)call_function(f, init->u.fn, self, args, nargs, kw, M_JOB, NULL, site);
		if (m->mod != VM_NONE)
			in->building--;
	} else if (class_ext_base(c) && m->mod == VM_REPO && !strcmp(class_ext_base(c), "torch.nn.ModuleDict") &&
	           !class_lookup(c, "forward", NULL)) {
		/* class ModuleDict(nn.ModuleDict, Mixin) with nn.ModuleDict's
		 * constructor and no forward: the container itself, named by
		 * its repo class (m->cls) */
		struct vinst *b = new_torch_module(f, class_ext_base(c), args, nargs, kw, site);
		const value_t *unk = vdict_gets(b->attrs, "__ecg_len_unknown__");

		m->mod = VM_CONTAINER;
		m->ext = b->ext;
		for (i = 0; i < b->nchildren; i++)
			vinst_add_child(in->a, m, b->children[i].name, b->children[i].inst);
		if (unk)
			vdict_sets(in->a, m->attrs, "__ecg_len_unknown__", (value_t *)unk);
	} else if (container_base_init(f, self, args, nargs, kw, site)) {
		/* class Seq(nn.Sequential) without an __init__ of its own */
	} else if (loader_base_init(f, self, args, nargs, kw, site)) {
		/* class Loader(DataLoader) without an __init__ of its own */
	} else if (ns_base_init(in, self, kw)) {
		/* class Metadata(types.SimpleNamespace): its keywords set */
	} else if (class_ext_base(c) && m->mod == VM_REPO) {
		/* the constructor is a third-party one: its submodules are not
		 * seen; a torch.nn layer's is given the arguments (its count) */
		vdict_sets(in->a, m->attrs, "__ecg_ext_init__", v_str(in->a, class_ext_base(c)));
		layer_base_init(f, self, args, nargs, kw);
	}
	return self;
}

/* self.<name> = v, with nn.Module's rules for submodules. */
void set_attr(struct frame *f, value_t *obj, const char *name, value_t *v)
{
	struct interp *in = f->in;

	if (!strcmp(name, "require_backward_grad_sync") && f->mode != M_FWD)
		sev(f, SEV_GRAD_SYNC_TOGGLE, "require_backward_grad_sync", NULL);

	if (obj->k == VK_INST) {
		struct vinst *m = obj->u.inst;
		value_t *prop = m->cls ? class_lookup(m->cls, name, NULL) : NULL;

		/* a write after a job call: what the call's forward set is
		 * gone (modelret.c) */
		{
			value_t *after = vdict_gets(m->attrs, RV_AFTER_KEY);

			if (after && after->k == VK_DICT && vdict_gets(after->u.dict, name)) {
				value_t *d = v_dict(in->a);
				size_t i;

				for (i = 0; i < after->u.dict->n; i++)
					if (after->u.dict->keys[i]->k != VK_STR || strcmp(after->u.dict->keys[i]->u.str.s, name))
						vdict_set(in->a, d->u.dict, after->u.dict->keys[i], after->u.dict->vals[i]);
				journal_note(in, m->attrs, RV_AFTER_KEY);
				vdict_sets(in->a, m->attrs, RV_AFTER_KEY, d);
			}
		}

		/* self.__dict__ = shared: the instance's namespace IS that dict
		 * from now on (the Borg pattern: every instance of the class
		 * reads and writes one class-level dict).  Under an undecided
		 * `if` the swap could not be undone for the other path: the
		 * write is kept as a plain attribute there, as before. */
		if (!strcmp(name, "__dict__") && m->mod == VM_NONE && v->k == VK_DICT && !journal_in_if(in)) {
			m->attrs = v->u.dict;
			return;
		}
		if (prop && prop->k == VK_FUNC && prop->u.fn->is_property && prop->u.fn->setter) {
			/* a property with a setter: the setter runs */
			value_t *a[1] = { v };

			call_function(f, prop->u.fn->setter, obj, a, 1, NULL, f->mode, f->ev, prop->u.fn->setter->def);
			return;
		}
		if (m->mod != VM_NONE && v->k == VK_INST && v->u.inst->mod != VM_NONE) {
			struct vinst *old = vinst_child(m, name);

			/* another module under that name, built under another
			 * condition (the other path of an undecided `if`, or
			 * before it): the name may hold that one */
			if (old && old != v->u.inst && old->cond != v->u.inst->cond)
				module_alt_other(in, v->u.inst, old);
			vinst_add_child(in->a, m, name, v->u.inst);
			vdict_del(m->attrs, v_str(in->a, name));
			return;
		}
		/* lm_head.weight = wte.weight: a parameter another module holds
		 * too (a new nn.Parameter is not shared) */
		if (m->mod == VM_LAYER && (!strcmp(name, "weight") || !strcmp(name, "bias")) &&
		    !(v->k == VK_TENSOR && v->is_param))
			m->tied = 1;
		/* two modules on the two paths (alts.c): where Python's
		 * _modules would hold it, for named_modules() (module.c) */
		if (m->mod != VM_NONE && alts_modules(v) && !vinst_child(m, name) &&
		    !alts_modules(vdict_gets(m->attrs, name))) {
			const char *pos = afmt(in, "%s%s", ALT_CHILD_POS, name);

			journal_note(in, m->attrs, pos);
			vdict_del(m->attrs, v_str(in->a, pos));   /* placed last, as Python appends it */
			vdict_sets(in->a, m->attrs, pos, v_int(in->a, (long long)m->nchildren));
		}
		/* a tensor stored under a registered buffer's name is that
		 * buffer now (nn.Module.__setattr__ keeps it in _buffers) */
		if (m->mod != VM_NONE)
			module_rebind_buffer(in, m, name, v);
		journal_note(in, m->attrs, name);
		vdict_sets(in->a, m->attrs, name, v);
	} else if (obj->k == VK_CLASS) {
		journal_note(in, obj->u.cls->ns, name);
		vdict_sets(in->a, obj->u.cls->ns, name, v);
	} else if (obj->k == VK_NS) {
		journal_note(in, obj->u.ns->dict, name);
		vdict_sets(in->a, obj->u.ns->dict, name, v);
	} else if (dictsub_setattr(f, obj, name, v)) {   /* a repository subclass of dict */
		;
	} else if (obj->k == VK_DICT && obj->u.dict->cfgnode) {   /* a yacs CfgNode (yacs.c) */
		yacs_set(in, obj->u.dict, name, v);
	} else if (obj->k == VK_DICT) {   /* an attribute-style config dict (stdlib.c) */
		journal_note(in, obj->u.dict, name);
		vdict_sets(in->a, obj->u.dict, name, v);
	}
}

int identity_key(const value_t *v)
{
	struct vinst *m;

	if (!v || v->k != VK_INST)
		return 0;
	m = v->u.inst;
	if (!m->cls)
		return m->mod != VM_NONE;      /* torch's own modules: nn.Module's identity hash */
	if (class_lookup(m->cls, "__eq__", NULL) || class_lookup(m->cls, "__hash__", NULL))
		return 0;
	return m->mod != VM_NONE || !class_ext_base(m->cls);
}

int alike_values(const value_t *a, const value_t *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->k != VK_INST || b->k != VK_INST)
		return 0;
	if (a->u.inst->cls)
		return a->u.inst->cls == b->u.inst->cls;
	return !b->u.inst->cls && a->u.inst->ext && b->u.inst->ext && !strcmp(a->u.inst->ext, b->u.inst->ext);
}
