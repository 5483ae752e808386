/* astconv.c - see include/ecg/ast.h: a Python `ast.Module` to the C tree.
 *
 * Driven by the field tables of ast.c: for each node, the class is found
 * by its exact type pointer (the classes of the built-in `_ast` module,
 * looked up once; the `ast` module is never imported), then each field of
 * the class is read once with PyObject_GetAttr() on a name interned once,
 * converted, and released.  Lists are the AST's own list objects, read with
 * PyList_GET_SIZE/PyList_GET_ITEM; strings are copied from
 * PyUnicode_AsUTF8AndSize() (no temporary object for the usual compact
 * strings); ints come through PyLong_AsLongLongAndOverflow().
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
#include <stdint.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

/* What a Python class stands for: family in the high byte, value (enum
 * ast_kind, ast_operator, ...) in the low byte. */
enum {
	FAM_KIND = 1, FAM_OPERATOR, FAM_BOOLOP, FAM_UNARYOP, FAM_CMPOP, FAM_CTX
};
#define CODE(fam, v) ((unsigned)(fam) << 8 | (unsigned)(v))
#define CODE_FAM(c) ((c) >> 8)
#define CODE_VAL(c) ((c) & 0xff)

#define TYPE_SLOTS 512            /* power of two, > 3x the ~150 classes */

static const char *const attr_name_str[4] = {
	"lineno", "col_offset", "end_lineno", "end_col_offset"
};

/* Set up at the first astconv_module(), released by astconv_fini(). */
static struct {
	int ready;
	struct {
		PyTypeObject *type;       /* owned */
		unsigned code;
	} slot[TYPE_SLOTS];
	PyObject *attr_name[4];           /* owned, interned */
	PyObject **field_name;            /* owned, interned; xmalloc'd */
	unsigned nfield_names;
	unsigned first_field[AST_NKINDS]; /* index into field_name */
} cv;

struct conv {
	struct ast_arena *a;
	int depth;
	int line;                         /* of the last node with a position */
};

static int conv_node(struct conv *c, PyObject *o /* borrowed */,
                     unsigned cat, struct ast_hdr **out);

/* ------------------------------------------------------------------ class table */

static unsigned slot_of(const PyTypeObject *t)
{
	uint64_t h = (uint64_t)(uintptr_t)t >> 4;

	return (unsigned)((h * 0x9E3779B97F4A7C15ull) >> 55) & (TYPE_SLOTS - 1);
}

/* The code of type t, 0 if it is not one of ours. */
static unsigned type_code(const PyTypeObject *t)
{
	unsigned i = slot_of(t);

	while (cv.slot[i].type) {
		if (cv.slot[i].type == t)
			return cv.slot[i].code;
		i = (i + 1) & (TYPE_SLOTS - 1);
	}
	return 0;
}

/* Look up _ast.<name> and file it under `code`. */
static int add_class(PyObject *mod /* borrowed */, const char *name, unsigned code)
{
	PyObject *t = NULL;
	unsigned i;

	t = PyObject_GetAttrString(mod, name);
	if (!t)
		return pyrt_error("astconv: looking up _ast classes");
	if (!PyType_Check(t)) {
		Py_DECREF(t);
		return err_set(ECG_EXIT_INTERNAL, "astconv: _ast.%s is not a class", name);
	}
	for (i = slot_of((PyTypeObject *)t); cv.slot[i].type; i = (i + 1) & (TYPE_SLOTS - 1))
		;
	cv.slot[i].type = (PyTypeObject *)t;    /* the reference moves in */
	cv.slot[i].code = code;
	return 0;
}

void astconv_fini(void)
{
	unsigned i;

	for (i = 0; i < TYPE_SLOTS; i++) {
		Py_XDECREF(cv.slot[i].type);
		cv.slot[i].type = NULL;
	}
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

static int bad_type(const struct conv *c, enum ast_kind kind,
                    const struct ast_field *f, const char *want,
                    PyObject *v /* borrowed */)
{
	return err_set(ECG_EXIT_INTERNAL,
	               "astconv: %s.%s: expected %s, got %s (near line %d)",
	               WHERE(kind, f), want, Py_TYPE(v)->tp_name, c->line);
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

static int conv_list(struct conv *c, PyObject *v /* borrowed */,
                     enum ast_kind kind, const struct ast_field *f,
                     struct ast_list *l)
{
	PyObject *it; /* borrowed */
	Py_ssize_t n, i;

	if (!PyList_CheckExact(v))
		return bad_type(c, kind, f, "a list", v);
	n = PyList_GET_SIZE(v);
	if (n == 0)
		return 0;
	if ((size_t)n > UINT_MAX / 2)
		return err_set(ECG_EXIT_INTERNAL, "astconv: %s.%s: list too long",
		               WHERE(kind, f));
	l->items = ast_arena_alloc(c->a, (size_t)n * sizeof *l->items);
	l->n = (unsigned)n;
	for (i = 0; i < n; i++) {
		it = PyList_GET_ITEM(v, i);
		if (it == Py_None) {
			if (!f->null_items)
				return bad_type(c, kind, f, category_name(f->cat), it);
			continue;
		}
		if (conv_node(c, it, f->cat, &l->items[i]) < 0)
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

	if (!PyList_CheckExact(v))
		return bad_type(c, kind, f, "a list", v);
	n = PyList_GET_SIZE(v);
	if (n == 0)
		return 0;
	if ((size_t)n > UINT_MAX / 2)
		return err_set(ECG_EXIT_INTERNAL, "astconv: %s.%s: list too long",
		               WHERE(kind, f));
	l->items = ast_arena_alloc(c->a, (size_t)n * sizeof *l->items);
	l->n = (unsigned)n;
	for (i = 0; i < n; i++) {
		it = PyList_GET_ITEM(v, i);
		if (!PyUnicode_Check(it))
			return bad_type(c, kind, f, "a str", it);
		if (conv_str(c, it, &l->items[i], NULL) < 0)
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
		return err_set(ECG_EXIT_INTERNAL, "astconv: %s.%s: list too long",
		               WHERE(kind, f));
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

/* Read field f of Python node o into the C node at base. */
static int conv_field(struct conv *c, PyObject *o /* borrowed */,
                      PyObject *name /* borrowed */, enum ast_kind kind,
                      const struct ast_field *f, char *base)
{
	PyObject *v = NULL;
	struct ast_hdr *child = NULL;
	const char *s = NULL;
	size_t len;
	unsigned e;
	int rc = -1, r;

	v = PyObject_GetAttr(o, name);
	if (!v) {
		pyrt_error("astconv: reading a field");
		err_prefix("astconv: %s.%s", WHERE(kind, f));
		goto cleanup;
	}
	switch (f->type) {
	case AST_F_NODE:
	case AST_F_OPTNODE:
		if (v == Py_None) {
			if (f->type == AST_F_NODE) {
				bad_type(c, kind, f, category_name(f->cat), v);
				goto cleanup;
			}
		} else if (conv_node(c, v, f->cat, &child) < 0) {
			goto cleanup;
		}
		/* memcpy: the member may be a concrete node pointer. */
		memcpy(base + f->offset, &child, sizeof child);
		break;
	case AST_F_LIST:
		if (conv_list(c, v, kind, f, (struct ast_list *)(void *)(base + f->offset)) < 0)
			goto cleanup;
		break;
	case AST_F_STR:
	case AST_F_OPTSTR:
		if (v == Py_None && f->type == AST_F_OPTSTR) {
			s = NULL;
		} else if (!PyUnicode_Check(v)) {
			bad_type(c, kind, f, "a str", v);
			goto cleanup;
		} else if (conv_str(c, v, &s, &len) < 0) {
			goto cleanup;
		}
		memcpy(base + f->offset, &s, sizeof s);
		break;
	case AST_F_STRLIST:
		if (conv_strlist(c, v, kind, f, (struct ast_strlist *)(void *)(base + f->offset)) < 0)
			goto cleanup;
		break;
	case AST_F_INT:
	case AST_F_OPTINT:
		if (v == Py_None && f->type == AST_F_OPTINT) {
			*(int *)(void *)(base + f->offset) = -1;
			break;
		}
		r = conv_int(v, (int *)(void *)(base + f->offset));
		if (r < 0)
			goto cleanup;
		if (r > 0) {
			bad_type(c, kind, f, "an int in C int range", v);
			goto cleanup;
		}
		break;
	case AST_F_CONST:
		r = conv_const(c, v, (struct ast_const *)(void *)(base + f->offset));
		if (r < 0)
			goto cleanup;
		if (r > 0) {
			bad_type(c, kind, f, "a constant", v);
			goto cleanup;
		}
		break;
	case AST_F_OPERATOR:
	case AST_F_BOOLOP:
	case AST_F_UNARYOP:
	case AST_F_CTX:
		e = conv_enum(v, f->type == AST_F_OPERATOR ? FAM_OPERATOR :
		                 f->type == AST_F_BOOLOP ? FAM_BOOLOP :
		                 f->type == AST_F_UNARYOP ? FAM_UNARYOP : FAM_CTX);
		if (!e) {
			bad_type(c, kind, f, f->type == AST_F_CTX ? "Load, Store or Del" :
			         "an operator", v);
			goto cleanup;
		}
		*(int *)(void *)(base + f->offset) = (int)e;
		break;
	case AST_F_CMPLIST:
		if (conv_cmplist(c, v, kind, f, (struct ast_cmplist *)(void *)(base + f->offset)) < 0)
			goto cleanup;
		break;
	default:
		err_set(ECG_EXIT_INTERNAL, "astconv: %s.%s: bad field table",
		        WHERE(kind, f));
		goto cleanup;
	}
	rc = 0;
cleanup:
	Py_XDECREF(v);
	return rc;
}

/* lineno, col_offset, end_lineno, end_col_offset. */
static int conv_pos(struct conv *c, PyObject *o /* borrowed */,
                    struct ast_hdr *n)
{
	int *dst[4];
	PyObject *v;
	int i, r;

	dst[0] = &n->line;
	dst[1] = &n->col;
	dst[2] = &n->end_line;
	dst[3] = &n->end_col;
	for (i = 0; i < 4; i++) {
		v = PyObject_GetAttr(o, cv.attr_name[i]);
		if (!v) {
			pyrt_error("astconv: reading a position");
			return err_prefix("astconv: %s.%s", ast_kind_name(n->kind),
			                  attr_name_str[i]);
		}
		if (v == Py_None && i >= 2) {
			*dst[i] = -1;
			r = 0;
		} else {
			r = conv_int(v, dst[i]);
		}
		if (r > 0)
			err_set(ECG_EXIT_INTERNAL,
			        "astconv: %s.%s: expected an int, got %s (line %d)",
			        ast_kind_name(n->kind), attr_name_str[i],
			        Py_TYPE(v)->tp_name, c->line);
		Py_DECREF(v);
		if (r)
			return -1;
	}
	c->line = n->line;
	return 0;
}

/* ------------------------------------------------------------------ nodes */

static int conv_node(struct conv *c, PyObject *o /* borrowed */,
                     unsigned cat, struct ast_hdr **out)
{
	const struct ast_kind_info *ki;
	PyObject **names;
	struct ast_hdr *n;
	unsigned code, i;
	enum ast_kind kind;

	code = type_code(Py_TYPE(o));
	kind = CODE_FAM(code) == FAM_KIND ? (enum ast_kind)CODE_VAL(code) : AST_INVALID;
	ki = ast_kind_info(kind);
	if (kind == AST_INVALID || (cat && ki->cat != cat))
		return err_set(ECG_EXIT_INTERNAL,
		               "astconv: expected %s, got %s (near line %d)",
		               category_name(cat), Py_TYPE(o)->tp_name, c->line);
	n = ast_arena_alloc(c->a, ki->size);
	n->kind = kind;
	if (ki->has_pos && conv_pos(c, o, n) < 0)
		return -1;
	if (++c->depth > ASTCONV_MAX_DEPTH)
		return err_set(ECG_EXIT_INPUT,
		               "line %d: the syntax tree is nested more than %d "
		               "levels deep", c->line, ASTCONV_MAX_DEPTH);
	names = cv.field_name + cv.first_field[kind];
	for (i = 0; i < ki->nfields; i++)
		if (conv_field(c, o, names[i], kind, &ki->fields[i], (char *)n) < 0)
			return -1;
	c->depth--;
	*out = n;
	return 0;
}

int astconv_module(PyObject *module, struct ast_arena *a, struct ast_Module **out)
{
	struct conv c;
	struct ast_hdr *root = NULL;

	*out = NULL;
	if (!cv.ready && setup() < 0)
		return -1;
	c.a = a;
	c.depth = 0;
	c.line = 0;
	if (!module)
		return err_set(ECG_EXIT_INTERNAL, "astconv: no module");
	if (conv_node(&c, module, AST_CAT_MOD, &root) < 0) {
		if (PyErr_Occurred())   /* never: every path converts */
			PyErr_Clear();
		return -1;
	}
	*out = AST_AS(root, Module);
	return 0;
}
