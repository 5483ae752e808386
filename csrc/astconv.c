/* astconv.c - see include/ecg/ast.h: a Python `ast.Module` to the C tree.
 *
 * Driven by the field tables of ast.c.  For each node the class is found
 * by its exact type pointer (the classes of the built-in `_ast` module,
 * looked up once into a small hash table; the `ast` module is never
 * imported), then each field and position attribute of the class is read
 * once, converted and released.  Reading: the fields of an _ast node live
 * in its instance dict, so the dict is fetched once per node and the
 * fields are looked up in it with names interned once (PyObject_GetAttr()
 * only for what is not there); on the stdlib that made the conversion
 * cost 13% of the parse time instead of 20% with PyObject_GetAttr() for
 * every field.  Lists are the AST's own list objects, read with
 * PyList_GET_SIZE/PyList_GET_ITEM; strings are copied from
 * PyUnicode_AsUTF8AndSize() (no temporary object for the usual compact
 * strings), once per distinct str object (the parser interns identifiers);
 * ints come through PyLong_AsLongLongAndOverflow().
 *
 * The recursion follows the tree and is capped at ASTCONV_MAX_DEPTH.  The
 * parser's own limits come first at the default recursion limit (ast2obj
 * refuses ~3,000 levels, see pyast.c), so the cap only matters for trees
 * built with a raised sys.setrecursionlimit() or by hand.
 *
 * The converter also checks what the grammar promises (each node-valued
 * field holds a node of the right category, None only where the grammar
 * has `?`), so the passes can rely on the types written in ast.h.
 */
#include "config.h"

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/pyrt.h"
#include "ecg/strmap.h"
#include "ecg/util.h"

/* What a Python class stands for: family in the high byte, value (enum
 * ast_kind, ast_operator, ...) in the low byte. */
enum {
	FAM_KIND = 1, FAM_OPERATOR, FAM_BOOLOP, FAM_UNARYOP, FAM_CMPOP, FAM_CTX
};
#define CODE(fam, v) ((unsigned)(fam) << 8 | (unsigned)(v))
#define CODE_FAM(c) ((c) >> 8)
#define CODE_VAL(c) ((c) & 0xff)

/* Keeps a helper's locals out of the recursive frames. */
#define NOINLINE __attribute__((noinline))

static const char *const attr_name_str[4] = {
	"lineno", "col_offset", "end_lineno", "end_col_offset"
};

/* Set up at the first astconv_module(), released by astconv_fini(). */
static struct {
	int ready;
	struct ptrmap types;              /* _ast classes: keys owned (PyTypeObject),
	                                     a the code; 512 slots for ~150 */
	PyObject *attr_name[4];           /* owned, interned */
	PyObject **field_name;            /* owned, interned; xmalloc'd */
	unsigned nfield_names;
	unsigned first_field[AST_NKINDS]; /* index into field_name */
} cv;

struct conv {
	struct ast_arena *a;
	int depth;
	int line;                         /* of the last node with a position */
	/* Identifiers already copied, by object: the parser interns
	 * identifiers, so the 200,000 Name ids of a large file are a few
	 * thousand objects.  Keys borrowed (alive with the tree); each
	 * slot's ptr is the arena copy. */
	struct ptrmap ids;
};

static struct ast_hdr *conv_node(struct conv *c, PyObject *o /* borrowed */,
                                 unsigned cat);

/* ------------------------------------------------------------------ class table */

/* The code of type t, 0 if it is not one of ours. */
static unsigned type_code(const PyTypeObject *t)
{
	const struct ptrmap_slot *s = ptrmap_get(&cv.types, t);

	return s ? (unsigned)s->a : 0;
}

/* Look up _ast.<name> and file it under `code`. */
static int add_class(PyObject *mod /* borrowed */, const char *name, unsigned code)
{
	PyObject *t = NULL;
	struct ptrmap_slot *s;
	int added;

	t = PyObject_GetAttrString(mod, name);
	if (!t)
		return pyrt_error("astconv: looking up _ast classes");
	if (!PyType_Check(t)) {
		Py_DECREF(t);
		return err_set(ECG_EXIT_INTERNAL, "astconv: _ast.%s is not a class", name);
	}
	if (!cv.types.cap)
		cv.types.first = 512;
	s = ptrmap_put(&cv.types, t, &added);
	if (!added) {
		Py_DECREF(t);                     /* filed already: the first code stays */
		return 0;
	}
	s->a = (int)code;                         /* the reference moves in */
	return 0;
}

void astconv_fini(void)
{
	unsigned i;

	for (i = 0; i < cv.types.cap; i++)
		Py_XDECREF((PyObject *)cv.types.slot[i].key);
	ptrmap_free(&cv.types);
	for (i = 0; i < 4; i++)
		Py_CLEAR(cv.attr_name[i]);
	for (i = 0; i < cv.nfield_names; i++)
		Py_XDECREF(cv.field_name[i]);
	free(cv.field_name);
	cv.field_name = NULL;
	cv.nfield_names = 0;
	cv.ready = 0;
}

static int setup(void)
{
	PyObject *mod = NULL;
	const struct ast_kind_info *ki;
	unsigned k, i, n;
	int rc = -1;

	mod = PyImport_ImportModule("_ast");
	if (!mod) {
		pyrt_error("astconv: importing _ast");
		goto cleanup;
	}
	for (k = 1; k < AST_NKINDS; k++)
		if (add_class(mod, ast_kind_name(k), CODE(FAM_KIND, k)) < 0)
			goto cleanup;
	for (i = AST_OP_ADD; i <= AST_OP_FLOORDIV; i++)
		if (add_class(mod, ast_operator_name(i), CODE(FAM_OPERATOR, i)) < 0)
			goto cleanup;
	for (i = AST_BOOL_AND; i <= AST_BOOL_OR; i++)
		if (add_class(mod, ast_boolop_name(i), CODE(FAM_BOOLOP, i)) < 0)
			goto cleanup;
	for (i = AST_UNARY_INVERT; i <= AST_UNARY_USUB; i++)
		if (add_class(mod, ast_unaryop_name(i), CODE(FAM_UNARYOP, i)) < 0)
			goto cleanup;
	for (i = AST_CMP_EQ; i <= AST_CMP_NOTIN; i++)
		if (add_class(mod, ast_cmpop_name(i), CODE(FAM_CMPOP, i)) < 0)
			goto cleanup;
	for (i = AST_CTX_LOAD; i <= AST_CTX_DEL; i++)
		if (add_class(mod, ast_ctx_name(i), CODE(FAM_CTX, i)) < 0)
			goto cleanup;

	for (i = 0; i < 4; i++) {
		cv.attr_name[i] = PyUnicode_InternFromString(attr_name_str[i]);
		if (!cv.attr_name[i]) {
			pyrt_error("astconv: interning attribute names");
			goto cleanup;
		}
	}
	for (n = 0, k = 0; k < AST_NKINDS; k++)
		n += ast_kind_info(k)->nfields;
	cv.field_name = xcalloc(n, sizeof *cv.field_name);
	cv.nfield_names = n;
	for (n = 0, k = 0; k < AST_NKINDS; k++) {
		ki = ast_kind_info(k);
		cv.first_field[k] = n;
		for (i = 0; i < ki->nfields; i++, n++) {
			cv.field_name[n] = PyUnicode_InternFromString(ki->fields[i].name);
			if (!cv.field_name[n]) {
				pyrt_error("astconv: interning field names");
				goto cleanup;
			}
		}
	}
	cv.ready = 1;
	rc = 0;
cleanup:
	if (rc < 0)
		astconv_fini();
	Py_XDECREF(mod);
	return rc;
}

/* ------------------------------------------------------------------ leaves */

static const char *category_name(unsigned cat)
{
	static const char *const names[] = {
		"node", "mod", "stmt", "expr", "pattern", "excepthandler",
		"type_ignore", "comprehension", "arguments", "arg", "keyword",
		"alias", "withitem", "match_case"
	};

	return cat < sizeof names / sizeof names[0] ? names[cat] : "node";
}

/* "Call.func" for messages. */
#define WHERE(kind, f) ast_kind_name(kind), (f)->name

/* err_set("astconv: <message> (near line N)"); returns -1. */
static NOINLINE int __attribute__((format(printf, 2, 3)))
conv_fail(const struct conv *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->line > 0)
		return err_set(ECG_EXIT_INTERNAL, "astconv: %s (near line %d)",
		               msg, c->line);
	return err_set(ECG_EXIT_INTERNAL, "astconv: %s", msg);
}

static NOINLINE int bad_type(const struct conv *c, enum ast_kind kind,
                             const struct ast_field *f, const char *want,
                             PyObject *v /* borrowed */)
{
	return conv_fail(c, "%s.%s: expected %s, got %s", WHERE(kind, f), want,
	                 Py_TYPE(v)->tp_name);
}

/* The pending Python exception as the error, naming the field. */
static NOINLINE int py_fail(const char *kind, const char *field)
{
	char ctx[128];

	snprintf(ctx, sizeof ctx, "astconv: %s.%s", kind, field);
	return pyrt_error(ctx);
}

/* A C int from a Python int. */
static int conv_int(PyObject *v /* borrowed */, int *out)
{
	long x;
	int overflow;

	if (!PyLong_Check(v))
		return 1;
	x = PyLong_AsLongAndOverflow(v, &overflow);
	if (x == -1 && PyErr_Occurred())
		return pyrt_error("astconv: reading an int");
	if (overflow || x < INT_MIN || x > INT_MAX)
		return 1;
	*out = (int)x;
	return 0;
}

/* A str as NUL-terminated UTF-8 in the arena. */
static int conv_str(struct conv *c, PyObject *v /* borrowed */,
                    const char **out, size_t *len)
{
	PyObject *b = NULL;
	const char *s;
	Py_ssize_t n;

	s = PyUnicode_AsUTF8AndSize(v, &n);
	if (s) {
		*out = ast_arena_strndup(c->a, s, (size_t)n);
		if (len)
			*len = (size_t)n;
		return 0;
	}
	/* A lone surrogate ('\ud800' in a literal) does not encode; keep
	 * its 3-byte surrogatepass form. */
	if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
		return pyrt_error("astconv: encoding a string");
	PyErr_Clear();
	b = PyUnicode_AsEncodedString(v, "utf-8", "surrogatepass");
	if (!b)
		return pyrt_error("astconv: encoding a string");
	*out = ast_arena_strndup(c->a, PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
	if (len)
		*len = (size_t)PyBytes_GET_SIZE(b);
	Py_DECREF(b);
	return 0;
}

/* An identifier (or other str field): one arena copy per distinct object.
 * NULL on failure. */
static const char *conv_ident(struct conv *c, PyObject *v /* borrowed */)
{
	const struct ptrmap_slot *s = ptrmap_get(&c->ids, v);
	const char *out;

	if (s)
		return s->ptr;
	if (conv_str(c, v, &out, NULL) < 0)
		return NULL;
	ptrmap_put(&c->ids, v, NULL)->ptr = out;
	return out;
}

/* An int that does not fit int64_t: its decimal text, or "0x..." when
 * CPython refuses to make that many decimal digits. */
static int conv_bigint(struct conv *c, PyObject *v /* borrowed */,
                       struct ast_const *k)
{
	PyObject *text = NULL;
	int rc = -1;

	text = PyObject_Str(v);
	if (!text && PyErr_ExceptionMatches(PyExc_ValueError)) {
		PyErr_Clear();
		text = PyNumber_ToBase(v, 16);
	}
	if (!text) {
		pyrt_error("astconv: formatting a big int");
		goto cleanup;
	}
	k->big = 1;
	rc = conv_str(c, text, &k->s, &k->len);
cleanup:
	Py_XDECREF(text);
	return rc;
}

static int conv_const(struct conv *c, PyObject *v /* borrowed */,
                      struct ast_const *k)
{
	long long x;
	int overflow;

	if (v == Py_None) {
		k->kind = AST_CONST_NONE;
	} else if (v == Py_True) {
		k->kind = AST_CONST_TRUE;
	} else if (v == Py_False) {
		k->kind = AST_CONST_FALSE;
	} else if (v == Py_Ellipsis) {
		k->kind = AST_CONST_ELLIPSIS;
	} else if (PyLong_CheckExact(v)) {
		k->kind = AST_CONST_INT;
		x = PyLong_AsLongLongAndOverflow(v, &overflow);
		if (x == -1 && PyErr_Occurred())
			return pyrt_error("astconv: reading an int constant");
		if (overflow)
			return conv_bigint(c, v, k);
		k->i = x;
	} else if (PyFloat_CheckExact(v)) {
		k->kind = AST_CONST_FLOAT;
		k->f = PyFloat_AS_DOUBLE(v);
	} else if (PyComplex_CheckExact(v)) {
		k->kind = AST_CONST_COMPLEX;
		k->f = ((PyComplexObject *)v)->cval.real;
		k->imag = ((PyComplexObject *)v)->cval.imag;
	} else if (PyUnicode_CheckExact(v)) {
		k->kind = AST_CONST_STR;
		return conv_str(c, v, &k->s, &k->len);
	} else if (PyBytes_CheckExact(v)) {
		k->kind = AST_CONST_BYTES;
		k->len = (size_t)PyBytes_GET_SIZE(v);
		k->s = ast_arena_strndup(c->a, PyBytes_AS_STRING(v), k->len);
	} else {
		return 1;
	}
	return 0;
}

/* The enum value of an operator/context singleton of family `fam`, 0 if v
 * is something else. */
static unsigned conv_enum(PyObject *v /* borrowed */, unsigned fam)
{
	unsigned code = type_code(Py_TYPE(v));

	return CODE_FAM(code) == fam ? CODE_VAL(code) : 0;
}

/* ------------------------------------------------------------------ fields */

/* The length of the list field f of a `kind` node: v's item count (0 for
 * an empty list), or -1 after conv_fail() when v is not a list or too long
 * for an ast_list. */
static Py_ssize_t list_size(struct conv *c, PyObject *v /* borrowed */,
                            enum ast_kind kind, const struct ast_field *f)
{
	Py_ssize_t n;

	if (!PyList_CheckExact(v))
		return bad_type(c, kind, f, "a list", v);
	n = PyList_GET_SIZE(v);
	if ((size_t)n > UINT_MAX / 2)
		return conv_fail(c, "%s.%s: list too long", WHERE(kind, f));
	return n;
}

static int conv_list(struct conv *c, PyObject *v /* borrowed */,
                     enum ast_kind kind, const struct ast_field *f,
                     struct ast_list *l)
{
	PyObject *it; /* borrowed */
	Py_ssize_t n, i;

	if ((n = list_size(c, v, kind, f)) <= 0)
		return (int)n;
	l->items = ast_arena_alloc(c->a, (size_t)n * sizeof *l->items);
	l->n = (unsigned)n;
	for (i = 0; i < n; i++) {
		it = PyList_GET_ITEM(v, i);
		if (it == Py_None) {
			if (!f->null_items)
				return bad_type(c, kind, f, category_name(f->cat), it);
			continue;
		}
		l->items[i] = conv_node(c, it, f->cat);
		if (!l->items[i])
			return -1;
	}
	return 0;
}

static int conv_strlist(struct conv *c, PyObject *v /* borrowed */,
                        enum ast_kind kind, const struct ast_field *f,
                        struct ast_strlist *l)
{
	PyObject *it; /* borrowed */
	Py_ssize_t n, i;

	if ((n = list_size(c, v, kind, f)) <= 0)
		return (int)n;
	l->items = ast_arena_alloc(c->a, (size_t)n * sizeof *l->items);
	l->n = (unsigned)n;
	for (i = 0; i < n; i++) {
		it = PyList_GET_ITEM(v, i);
		if (!PyUnicode_Check(it))
			return bad_type(c, kind, f, "a str", it);
		l->items[i] = conv_ident(c, it);
		if (!l->items[i])
			return -1;
	}
	return 0;
}

static int conv_cmplist(struct conv *c, PyObject *v /* borrowed */,
                        enum ast_kind kind, const struct ast_field *f,
                        struct ast_cmplist *l)
{
	PyObject *it; /* borrowed */
	Py_ssize_t n, i;
	unsigned op;

	if (!PyList_CheckExact(v))
		return bad_type(c, kind, f, "a list", v);
	n = PyList_GET_SIZE(v);
	if (n == 0)
		return 0;
	if ((size_t)n > UINT_MAX / 2)
		return conv_fail(c, "%s.%s: list too long", WHERE(kind, f));
	l->items = ast_arena_alloc(c->a, (size_t)n * sizeof *l->items);
	l->n = (unsigned)n;
	for (i = 0; i < n; i++) {
		it = PyList_GET_ITEM(v, i);
		op = conv_enum(it, FAM_CMPOP);
		if (!op)
			return bad_type(c, kind, f, "cmpop", it);
		l->items[i] = (enum ast_cmpop)op;
	}
	return 0;
}

/* o.name as a new reference, or NULL with an exception set.
 *
 * The fields and attributes of an _ast node live in its instance dict (the
 * classes define no descriptors for them), so they are looked up there
 * first: one hashed lookup with the interned name, no walk of the type's
 * MRO.  What is not there (an optional field left to its class default
 * None, on a hand-built node) comes from PyObject_GetAttr() as usual. */
static PyObject *get_field(PyObject *o /* borrowed */, PyObject *dict /* borrowed */,
                           PyObject *name /* borrowed */)
{
	PyObject *v; /* borrowed */

	if (dict) {
		v = PyDict_GetItemWithError(dict, name);
		if (v) {
			Py_INCREF(v);
			return v;
		}
		if (PyErr_Occurred())
			return NULL;
	}
	return PyObject_GetAttr(o, name);
}

/* A field that holds no node (v: its value) into the C node at base. */
static NOINLINE int conv_leaf(struct conv *c, PyObject *v /* borrowed */,
                              enum ast_kind kind, const struct ast_field *f,
                              char *base)
{
	const char *s = NULL;
	unsigned e;
	int r;

	switch (f->type) {
	case AST_F_STR:
	case AST_F_OPTSTR:
		if (v == Py_None && f->type == AST_F_OPTSTR)
			s = NULL;
		else if (!PyUnicode_Check(v))
			return bad_type(c, kind, f, "a str", v);
		else if (!(s = conv_ident(c, v)))
			return -1;
		memcpy(base + f->offset, &s, sizeof s);
		return 0;
	case AST_F_STRLIST:
		return conv_strlist(c, v, kind, f, (struct ast_strlist *)(void *)(base + f->offset));
	case AST_F_INT:
	case AST_F_OPTINT:
		if (v == Py_None && f->type == AST_F_OPTINT) {
			*(int *)(void *)(base + f->offset) = -1;
			return 0;
		}
		r = conv_int(v, (int *)(void *)(base + f->offset));
		if (r > 0)
			return bad_type(c, kind, f, "an int in C int range", v);
		return r;
	case AST_F_CONST:
		r = conv_const(c, v, (struct ast_const *)(void *)(base + f->offset));
		if (r > 0)
			return bad_type(c, kind, f, "a constant", v);
		return r;
	case AST_F_OPERATOR:
	case AST_F_BOOLOP:
	case AST_F_UNARYOP:
	case AST_F_CTX:
		e = conv_enum(v, f->type == AST_F_OPERATOR ? FAM_OPERATOR :
		                 f->type == AST_F_BOOLOP ? FAM_BOOLOP :
		                 f->type == AST_F_UNARYOP ? FAM_UNARYOP : FAM_CTX);
		if (!e)
			return bad_type(c, kind, f, f->type == AST_F_CTX ?
			                "Load, Store or Del" : "an operator", v);
		*(int *)(void *)(base + f->offset) = (int)e;
		return 0;
	case AST_F_CMPLIST:
		return conv_cmplist(c, v, kind, f, (struct ast_cmplist *)(void *)(base + f->offset));
	default:
		return conv_fail(c, "%s.%s: bad field table", WHERE(kind, f));
	}
}

/* Read field f of Python node o (its instance dict: dict) into the C node
 * at base.  Part of the recursion: node-valued fields only here, the rest
 * in conv_leaf(). */
static int conv_field(struct conv *c, PyObject *o /* borrowed */,
                      PyObject *dict /* borrowed */, PyObject *name /* borrowed */,
                      enum ast_kind kind, const struct ast_field *f, char *base)
{
	PyObject *v = NULL;
	struct ast_hdr *child = NULL;
	int rc = -1;

	v = get_field(o, dict, name);
	if (!v)
		return py_fail(WHERE(kind, f));
	if (f->type == AST_F_NODE || f->type == AST_F_OPTNODE) {
		if (v == Py_None) {
			if (f->type == AST_F_NODE) {
				bad_type(c, kind, f, category_name(f->cat), v);
				goto cleanup;
			}
		} else if (!(child = conv_node(c, v, f->cat))) {
			goto cleanup;
		}
		/* Stored with the member's own type (FunctionDef.args is a
		 * struct ast_arguments *, ...); readers use memcpy. */
		if (f->cat == AST_CAT_ARGUMENTS)
			*(struct ast_arguments **)(void *)(base + f->offset) =
				(struct ast_arguments *)child;
		else if (f->cat == AST_CAT_ARG)
			*(struct ast_arg **)(void *)(base + f->offset) =
				(struct ast_arg *)child;
		else
			*(struct ast_hdr **)(void *)(base + f->offset) = child;
	} else if (f->type == AST_F_LIST) {
		if (conv_list(c, v, kind, f, (struct ast_list *)(void *)(base + f->offset)) < 0)
			goto cleanup;
	} else if (conv_leaf(c, v, kind, f, base) < 0) {
		goto cleanup;
	}
	rc = 0;
cleanup:
	Py_DECREF(v);
	return rc;
}

static NOINLINE int too_deep(const struct conv *c)
{
	return err_set(ECG_EXIT_INPUT, "line %d: the syntax tree is nested more "
	               "than %d levels deep", c->line, ASTCONV_MAX_DEPTH);
}

/* lineno, col_offset, end_lineno, end_col_offset. */
static NOINLINE int conv_pos(struct conv *c, PyObject *o /* borrowed */,
                             PyObject *dict /* borrowed */, struct ast_hdr *n)
{
	int *dst[4];
	PyObject *v;
	int i, r;

	dst[0] = &n->line;
	dst[1] = &n->col;
	dst[2] = &n->end_line;
	dst[3] = &n->end_col;
	for (i = 0; i < 4; i++) {
		v = get_field(o, dict, cv.attr_name[i]);
		if (!v)
			return py_fail(ast_kind_name(n->kind), attr_name_str[i]);
		if (v == Py_None && i >= 2) {
			*dst[i] = -1;
			r = 0;
		} else {
			r = conv_int(v, dst[i]);
		}
		if (r > 0)
			conv_fail(c, "%s.%s: expected an int in C int range, got %s",
			          ast_kind_name(n->kind), attr_name_str[i],
			          Py_TYPE(v)->tp_name);
		Py_DECREF(v);
		if (r)
			return -1;
	}
	c->line = n->line;
	return 0;
}

/* ------------------------------------------------------------------ nodes */

/* The C copy of node o, or NULL on failure.  This and conv_field() are
 * the recursion: they keep no addressable locals (what does is NOINLINE),
 * so a level costs little stack, even with AddressSanitizer. */
static struct ast_hdr *conv_node(struct conv *c, PyObject *o /* borrowed */,
                                 unsigned cat)
{
	const struct ast_kind_info *ki;
	PyObject *dict = NULL;
	PyObject **names;
	struct ast_hdr *n;
	unsigned code, i;
	enum ast_kind kind;

	code = type_code(Py_TYPE(o));
	kind = CODE_FAM(code) == FAM_KIND ? (enum ast_kind)CODE_VAL(code) : AST_INVALID;
	ki = ast_kind_info(kind);
	if (kind == AST_INVALID || (cat && ki->cat != cat)) {
		conv_fail(c, "expected %s, got %s", category_name(cat),
		          Py_TYPE(o)->tp_name);
		return NULL;
	}
	/* Never NULL for an _ast node (it makes an empty dict if need be);
	 * without one, get_field() falls back to getattr. */
	dict = PyObject_GenericGetDict(o, NULL);
	if (!dict)
		PyErr_Clear();
	n = ast_arena_alloc(c->a, ki->size);
	n->kind = kind;
	if (ki->has_pos && conv_pos(c, o, dict, n) < 0)
		goto fail;
	if (++c->depth > ASTCONV_MAX_DEPTH) {
		too_deep(c);
		goto fail;
	}
	names = cv.field_name + cv.first_field[kind];
	for (i = 0; i < ki->nfields; i++)
		if (conv_field(c, o, dict, names[i], kind, &ki->fields[i], (char *)n) < 0)
			goto fail;
	c->depth--;
	Py_XDECREF(dict);
	return n;
fail:
	Py_XDECREF(dict);
	return NULL;
}

int astconv_module(PyObject *module, struct ast_arena *a, struct ast_Module **out)
{
	struct conv c;
	struct ast_hdr *root = NULL;
	int rc = -1;

	*out = NULL;
	if (!cv.ready && setup() < 0)
		return -1;
	if (!module)
		return err_set(ECG_EXIT_INTERNAL, "astconv: no module");
	c.a = a;
	c.depth = 0;
	c.line = 0;
	c.ids = (struct ptrmap){ .first = 1024 };
	root = conv_node(&c, module, AST_CAT_MOD);
	if (!root)
		goto cleanup;
	*out = AST_AS(root, Module);
	rc = 0;
cleanup:
	/* Every failure went through err_set() or pyrt_error(). */
	if (PyErr_Occurred())
		PyErr_Clear();
	ptrmap_free(&c.ids);
	return rc;
}
