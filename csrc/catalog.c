/* catalog.c - see include/ecg/catalog.h
 *
 * Loading parses both JSON files with cJSON, checks every field, and
 * compiles them into plain structs held in one arena (freed as a whole);
 * the cJSON trees are dropped before catalog_load() returns.  Names go into
 * open-addressing hash tables (FNV-1a), so the forward pass's many lookups
 * cost one hash and a strcmp or two.  Expressions are compiled to trees whose
 * names are resolved at load time (a constructor parameter, a class var, a
 * forward parameter), so a typo in the data fails the load, not a run.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/catalog.h"
#include "ecg/err.h"
#include "ecg/arena.h"
#include "ecg/strmap.h"
#include "ecg/util.h"

#define NN_FILE "torch_nn.json"
#define NAMES_FILE "torch_names.json"
#define NN_FORMAT "ecg.catalog.torch_nn/1"
#define NAMES_FORMAT "ecg.catalog.torch_names/1"
#define FACTS_FILE "torch_facts.json"
#define FACTS_FORMAT "ecg.catalog.torch_facts/1"
#define FILE_CAP (16L << 20)
#define EVAL_DEPTH 64

/* ------------------------------------------------------------------ hash tables */

/* The name tables are strmaps (strmap.h): key, ptr (a class), a (flags). */

static int table_flags(const struct strmap *t, const char *key)
{
	const struct strmap_slot *s = strmap_get(t, key);

	return s ? s->a : 0;
}

/* ------------------------------------------------------------------ the catalogue */

/* The kinds of fact lists torch_facts.json holds (catalog.h). */
enum fact_kind { FK_SET = 1, FK_MAP, FK_PREFIXES, FK_SUFFIXES, FK_WORDS, FK_RULES };

/* One fact list: hashed kinds (set, map, rules) in t (value in ptr, rules'
 * namespaces in a); ordered kinds as n key/value pairs, first match
 * wins. */
struct fact {
	enum fact_kind kind;
	struct strmap t;
	const char **pairs;
	size_t n;
};

struct catalog {
	struct ast_arena *arena;  /* the catalogue's structs and strings */
	struct catalog_class *classes;
	size_t nclasses;
	struct strmap by_name;    /* full name -> class */
	struct strmap by_short;   /* last component -> class */
	struct strmap tensor, torch, functional;
	const char *bin[14][3];  /* enum ast_operator -> plain, reflected, inplace */
	const char *cmp[11];     /* enum ast_cmpop */
	const char *unary[5];    /* enum ast_unaryop */
	const char *subscript[4];/* enum ast_ctx */
	const char *truth;
	struct fact facts[CATALOG_NFACTS];
};

/* Python's AST class names of the enums in ast.h, indexed by value. */
static const char *const BINOP_NAMES[14] = {
	NULL, "Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift", "RShift",
	"BitOr", "BitXor", "BitAnd", "FloorDiv"
};
static const char *const CMPOP_NAMES[11] = {
	NULL, "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"
};
static const char *const UNARY_NAMES[5] = { NULL, "Invert", "Not", "UAdd", "USub" };
static const char *const CTX_NAMES[4] = { NULL, "Load", "Store", "Del" };

/* ------------------------------------------------------------------ expressions */

enum eop {
	EO_LIT = 1, EO_PARAM, EO_VAR, EO_DOTTED, EO_FWD, EO_RANK, EO_SIZE, EO_DTYPE, EO_SAME,
	EO_STATE, EO_NOT, EO_AND, EO_OR, EO_ISNONE, EO_EQ, EO_NE, EO_LT, EO_LE, EO_GT, EO_GE,
	EO_IN, EO_SUM, EO_MUL, EO_SUB, EO_DIV, EO_MOD, EO_IF, EO_PROD, EO_CHILDREN, EO_NEW,
	EO_ISMODULE
};

enum { ST_TRAINING = 1, ST_FIRST_CALL, ST_DISTRIBUTED };

struct catalog_expr {
	enum eop op;
	int n;                  /* EO_VAR: var index; EO_STATE: ST_*; EO_PROD: dims */
	const char *name;       /* the parameter / var / forward argument; EO_DOTTED:
	                           the whole "a.b"; EO_SAME: the first */
	const char *head, *tail;/* EO_DOTTED: "a" and "b" */
	const char *name2;      /* EO_SAME: the second */
	struct catalog_value lit;
	const struct catalog_expr **kids;
	size_t nkids;
};

static const struct {
	const char *key;
	enum eop op;
	int nargs;              /* -1: a list of >= 1; -2: a list of 2 */
} OPS[] = {
	{ "lit", EO_LIT, 0 }, { "fwd", EO_FWD, 0 }, { "rank", EO_RANK, 0 },
	{ "size", EO_SIZE, 0 }, { "dtype", EO_DTYPE, 0 }, { "same", EO_SAME, 0 },
	{ "state", EO_STATE, 0 }, { "not", EO_NOT, 1 }, { "and", EO_AND, -1 },
	{ "or", EO_OR, -1 }, { "is_none", EO_ISNONE, 1 }, { "eq", EO_EQ, -2 },
	{ "ne", EO_NE, -2 }, { "lt", EO_LT, -2 }, { "le", EO_LE, -2 }, { "gt", EO_GT, -2 },
	{ "ge", EO_GE, -2 }, { "in", EO_IN, 0 }, { "sum", EO_SUM, -1 }, { "mul", EO_MUL, -1 },
	{ "sub", EO_SUB, -2 }, { "div", EO_DIV, -2 }, { "mod", EO_MOD, -2 }, { "if", EO_IF, 0 },
	{ "prod", EO_PROD, 0 }, { "children", EO_CHILDREN, 0 }, { "new", EO_NEW, 0 },
	{ "is_module", EO_ISMODULE, 0 },
};

/* ------------------------------------------------------------------ loading */

struct loader {
	struct catalog *cat;
	char *path;             /* the file being read (owned) */
	buf_t where;            /* "classes[3] torch.nn.Linear: params[2]" */
	struct catalog_class *cls;  /* the class being compiled, or NULL */
	const char **vars;      /* its var names */
	size_t nvars;
};

static int bad(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct loader *L, const char *fmt, ...)
{
	buf_t b;
	va_list ap;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	err_set(ECG_EXIT_INTERNAL, "catalogue %s: %s%s%s", L->path, L->where.buf,
	        L->where.len ? ": " : "", b.buf);
	buf_free(&b);
	return -1;
}

static void *L_alloc(struct loader *L, size_t n)
{
	return ast_arena_alloc(L->cat->arena, n);
}

static const char *L_str(struct loader *L, const char *s)
{
	size_t n = strlen(s);
	char *p = L_alloc(L, n + 1);

	memcpy(p, s, n + 1);
	return p;
}

/* Push " key" / "[i]" onto the where path; returns the old length. */
static size_t where_push(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static size_t where_push(struct loader *L, const char *fmt, ...)
{
	size_t old = L->where.len;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&L->where, fmt, ap);
	va_end(ap);
	return old;
}

static void where_pop(struct loader *L, size_t old)
{
	L->where.len = old;
	L->where.buf[old] = 0;
}

static int check_keys(struct loader *L, const cJSON *obj, const char *const *allowed)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj) {
		const char *const *a;

		for (a = allowed; *a; a++)
			if (!strcmp(*a, it->string))
				break;
		if (!*a)
			return bad(L, "unknown key \"%s\"", it->string);
	}
	return 0;
}

static const char *get_str(struct loader *L, const cJSON *obj, const char *key, int required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v) {
		if (required)
			bad(L, "missing \"%s\"", key);
		return NULL;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		bad(L, "\"%s\" is not a non-empty string", key);
		return NULL;
	}
	return L_str(L, v->valuestring);
}

/* A JSON number as an integer, if it is one exactly. */
static int json_int(const cJSON *v, long long *out)
{
	double d = v->valuedouble;

	if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || d != floor(d))
		return 0;
	*out = (long long)d;
	return 1;
}

/* A literal: null, bool, number, string; a list of ints (TUPLE); any other
 * list is OTHER when allow_other, else an error.  is_float forces FLOAT. */
static int json_value(struct loader *L, const cJSON *v, int is_float, int allow_other,
                      struct catalog_value *out)
{
	memset(out, 0, sizeof *out);
	if (cJSON_IsNull(v)) {
		out->type = CATALOG_NONE;
	} else if (cJSON_IsBool(v)) {
		out->type = CATALOG_BOOL;
		out->i = cJSON_IsTrue(v);
	} else if (cJSON_IsNumber(v)) {
		if (!is_float && json_int(v, &out->i)) {
			out->type = CATALOG_INT;
		} else {
			out->type = CATALOG_FLOAT;
			out->f = v->valuedouble;
		}
	} else if (cJSON_IsString(v)) {
		out->type = CATALOG_STR;
		out->s = L_str(L, v->valuestring);
	} else if (cJSON_IsArray(v)) {
		int n = cJSON_GetArraySize(v), i = 0;
		long long *items = L_alloc(L, sizeof *items * (size_t)(n ? n : 1));
		const cJSON *it;

		cJSON_ArrayForEach(it, v) {
			if (!cJSON_IsNumber(it) || !json_int(it, &items[i])) {
				if (allow_other) {
					memset(out, 0, sizeof *out);
					out->type = CATALOG_OTHER;
					return 0;
				}
				return bad(L, "a literal list holds something other than integers");
			}
			i++;
		}
		out->type = CATALOG_TUPLE;
		out->items = items;
		out->n = (size_t)n;
	} else if (cJSON_IsObject(v) && cJSON_GetArraySize(v) == 1 &&
	           cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "callable"))) {
		out->type = CATALOG_CALLABLE;
		out->s = L_str(L, cJSON_GetObjectItemCaseSensitive(v, "callable")->valuestring);
	} else {
		return bad(L, "not a literal value");
	}
	return 0;
}

static int find_param(const struct catalog_param *p, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return (int)i;
	return -1;
}

static int compile_expr(struct loader *L, const cJSON *j, const struct catalog_expr **out);

static int compile_name(struct loader *L, const char *name, struct catalog_expr *e)
{
	const struct catalog_class *c = L->cls;
	const char *dot = strchr(name, '.');
	size_t i;

	e->name = L_str(L, name);
	for (i = 0; i < L->nvars; i++)
		if (!strcmp(L->vars[i], name)) {
			e->op = EO_VAR;
			e->n = (int)i;
			return 0;
		}
	if (dot) {
		char *head = xstrndup(name, (size_t)(dot - name));
		int ok = find_param(c->params, c->nparams, head) >= 0;

		e->head = L_str(L, head);
		free(head);
		if (!ok || !dot[1])
			return bad(L, "\"%s\": \"%s\" is not a constructor parameter", name, e->head);
		e->tail = e->name + (dot - name) + 1;
		e->op = EO_DOTTED;
		return 0;
	}
	if (find_param(c->params, c->nparams, name) < 0)
		return bad(L, "\"%s\" is neither a var nor a constructor parameter", name);
	e->op = EO_PARAM;
	return 0;
}

static int need_fwd(struct loader *L, const char *name)
{
	const struct catalog_class *c = L->cls;

	if (c->forward && find_param(c->forward, c->nforward, name) < 0)
		return bad(L, "\"%s\" is not a forward parameter", name);
	return 0;
}

static int compile_kids(struct loader *L, const cJSON *list, struct catalog_expr *e, int nargs,
                        const char *key)
{
	const cJSON *it;
	int n, i = 0;

	if (nargs == 1) {
		e->kids = L_alloc(L, sizeof *e->kids);
		e->nkids = 1;
		return compile_expr(L, list, &e->kids[0]);
	}
	if (!cJSON_IsArray(list))
		return bad(L, "\"%s\" takes a list", key);
	n = cJSON_GetArraySize(list);
	if ((nargs == -2 && n != 2) || (nargs == -1 && n < 1))
		return bad(L, "\"%s\" takes %s operands, not %d", key, nargs == -2 ? "2" : "1 or more", n);
	e->kids = L_alloc(L, sizeof *e->kids * (size_t)n);
	e->nkids = (size_t)n;
	cJSON_ArrayForEach(it, list) {
		if (compile_expr(L, it, &e->kids[i++]) < 0)
			return -1;
	}
	return 0;
}

static int compile_object(struct loader *L, const cJSON *j, struct catalog_expr *e)
{
	const cJSON *it, *opj = NULL, *v;
	size_t k;

	cJSON_ArrayForEach(it, j) {
		if (!strcmp(it->string, "then") || !strcmp(it->string, "else") ||
		    !strcmp(it->string, "dims") || !strcmp(it->string, "args"))
			continue;
		if (opj)
			return bad(L, "an expression object with two operators (\"%s\", \"%s\")",
			           opj->string, it->string);
		opj = it;
	}
	if (!opj)
		return bad(L, "an expression object without an operator");
	for (k = 0; k < sizeof OPS / sizeof OPS[0]; k++)
		if (!strcmp(OPS[k].key, opj->string))
			break;
	if (k == sizeof OPS / sizeof OPS[0])
		return bad(L, "unknown operator \"%s\"", opj->string);
	e->op = OPS[k].op;
	if ((e->op != EO_IF && (cJSON_GetObjectItemCaseSensitive(j, "then") ||
	                        cJSON_GetObjectItemCaseSensitive(j, "else"))) ||
	    (e->op != EO_PROD && cJSON_GetObjectItemCaseSensitive(j, "dims")) ||
	    (e->op != EO_NEW && cJSON_GetObjectItemCaseSensitive(j, "args")))
		return bad(L, "stray keys in a \"%s\" expression", opj->string);
	if (OPS[k].nargs)
		return compile_kids(L, opj, e, OPS[k].nargs, opj->string);
	switch (e->op) {
	case EO_LIT:
		return json_value(L, opj, 0, 0, &e->lit);
	case EO_FWD:
	case EO_RANK:
	case EO_DTYPE:
		if (!cJSON_IsString(opj))
			return bad(L, "\"%s\" takes a forward parameter name", opj->string);
		e->name = L_str(L, opj->valuestring);
		return need_fwd(L, e->name);
	case EO_SIZE:
		if (!cJSON_IsArray(opj) || cJSON_GetArraySize(opj) != 2 ||
		    !cJSON_IsString(cJSON_GetArrayItem(opj, 0)))
			return bad(L, "\"size\" takes [forward parameter, index]");
		e->name = L_str(L, cJSON_GetArrayItem(opj, 0)->valuestring);
		if (need_fwd(L, e->name) < 0)
			return -1;
		e->kids = L_alloc(L, sizeof *e->kids);
		e->nkids = 1;
		return compile_expr(L, cJSON_GetArrayItem(opj, 1), &e->kids[0]);
	case EO_SAME:
		if (!cJSON_IsArray(opj) || cJSON_GetArraySize(opj) != 2 ||
		    !cJSON_IsString(cJSON_GetArrayItem(opj, 0)) ||
		    !cJSON_IsString(cJSON_GetArrayItem(opj, 1)))
			return bad(L, "\"same\" takes two forward parameter names");
		e->name = L_str(L, cJSON_GetArrayItem(opj, 0)->valuestring);
		e->name2 = L_str(L, cJSON_GetArrayItem(opj, 1)->valuestring);
		return need_fwd(L, e->name) < 0 || need_fwd(L, e->name2) < 0 ? -1 : 0;
	case EO_STATE:
		if (!cJSON_IsString(opj))
			return bad(L, "\"state\" takes a string");
		e->n = !strcmp(opj->valuestring, "training") ? ST_TRAINING :
		       !strcmp(opj->valuestring, "first_call") ? ST_FIRST_CALL :
		       !strcmp(opj->valuestring, "distributed") ? ST_DISTRIBUTED : 0;
		if (!e->n)
			return bad(L, "unknown state \"%s\"", opj->valuestring);
		e->name = L_str(L, opj->valuestring);
		return 0;
	case EO_IN: {
		const cJSON *lst;
		int i = 1;

		if (!cJSON_IsArray(opj) || cJSON_GetArraySize(opj) != 2)
			return bad(L, "\"in\" takes [expression, {\"lit\": [...]}]");
		lst = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opj, 1), "lit");
		if (!cJSON_IsArray(lst))
			return bad(L, "\"in\" takes [expression, {\"lit\": [...]}]");
		e->nkids = 1 + (size_t)cJSON_GetArraySize(lst);
		e->kids = L_alloc(L, sizeof *e->kids * e->nkids);
		if (compile_expr(L, cJSON_GetArrayItem(opj, 0), &e->kids[0]) < 0)
			return -1;
		cJSON_ArrayForEach(v, lst) {
			struct catalog_expr *x = L_alloc(L, sizeof *x);

			x->op = EO_LIT;
			if (json_value(L, v, 0, 0, &x->lit) < 0)
				return -1;
			e->kids[i++] = x;
		}
		return 0;
	}
	case EO_IF:
		v = cJSON_GetObjectItemCaseSensitive(j, "then");
		it = cJSON_GetObjectItemCaseSensitive(j, "else");
		if (!v || !it)
			return bad(L, "\"if\" needs \"then\" and \"else\"");
		e->kids = L_alloc(L, sizeof *e->kids * 3);
		e->nkids = 3;
		return compile_expr(L, opj, &e->kids[0]) < 0 || compile_expr(L, v, &e->kids[1]) < 0 ||
		       compile_expr(L, it, &e->kids[2]) < 0 ? -1 : 0;
	case EO_PROD: {
		long long d = 1;

		v = cJSON_GetObjectItemCaseSensitive(j, "dims");
		if (v && (!cJSON_IsNumber(v) || !json_int(v, &d) || d < 1 || d > 8))
			return bad(L, "\"dims\" is not an integer in 1..8");
		e->n = (int)d;
		e->kids = L_alloc(L, sizeof *e->kids);
		e->nkids = 1;
		return compile_expr(L, opj, &e->kids[0]);
	}
	case EO_CHILDREN:
	case EO_ISMODULE:
		if (!cJSON_IsString(opj) || find_param(L->cls->params, L->cls->nparams, opj->valuestring) < 0)
			return bad(L, "\"%s\" takes a constructor parameter name", opj->string);
		e->name = L_str(L, opj->valuestring);
		return 0;
	case EO_NEW: {
		int i = 0;

		if (!cJSON_IsString(opj))
			return bad(L, "\"new\" takes a class name");
		e->name = L_str(L, opj->valuestring);
		e->lit.type = CATALOG_MODULE;
		e->lit.s = e->name;
		v = cJSON_GetObjectItemCaseSensitive(j, "args");
		if (!v)
			return 0;
		if (!cJSON_IsObject(v))
			return bad(L, "\"args\" of \"new\" is not an object");
		/* compiled to validate them; no evaluation reads them (a "new"
		 * module's value is its class) */
		e->nkids = (size_t)cJSON_GetArraySize(v);
		e->kids = L_alloc(L, sizeof *e->kids * (e->nkids ? e->nkids : 1));
		cJSON_ArrayForEach(it, v) {
			if (compile_expr(L, it, &e->kids[i++]) < 0)
				return -1;
		}
		return 0;
	}
	default:
		return bad(L, "internal: operator \"%s\"", opj->string);
	}
}

static int compile_expr(struct loader *L, const cJSON *j, const struct catalog_expr **out)
{
	struct catalog_expr *e = L_alloc(L, sizeof *e);

	*out = e;
	if (cJSON_IsString(j))
		return compile_name(L, j->valuestring, e);
	if (cJSON_IsObject(j))
		return compile_object(L, j, e);
	if (cJSON_IsArray(j))
		return bad(L, "a bare list in an expression (write {\"lit\": [...]})");
	e->op = EO_LIT;
	return json_value(L, j, 0, 0, &e->lit);
}

/* ------------------------------------------------------------------ shape rules */

enum skind {
	SR_IF = 1, SR_SAME, SR_SCALAR, SR_LAST, SR_APPEND, SR_HALVE, SR_DROP, SR_FLATTEN,
	SR_UNFLATTEN, SR_CONV, SR_CONV_SAME, SR_ADAPTIVE, SR_INTERPOLATE, SR_PIXEL_SHUFFLE,
	SR_PIXEL_UNSHUFFLE, SR_PAD
};

struct catalog_shape {
	enum skind kind;
	const char *of;         /* forward parameter whose shape is read */
	int dims;               /* CONV, CONV_SAME, ADAPTIVE, PAD */
	int transposed;
	const struct catalog_expr *cond, *dim, *start, *end, *sizes, *channels, *kernel,
	      *stride, *padding, *dilation, *ceil, *output_padding, *size, *factor;
	const struct catalog_shape *then, *els;   /* SR_IF; NULL: no rule */
};

static const struct {
	const char *name;
	enum skind kind;
	const char *keys[9];    /* the expression keys the rule takes ("dims" and
	                           "transposed" handled apart) */
} RULES[] = {
	{ "same", SR_SAME, { NULL } },
	{ "scalar", SR_SCALAR, { NULL } },
	{ "last", SR_LAST, { "dim", NULL } },
	{ "append", SR_APPEND, { "dim", NULL } },
	{ "halve", SR_HALVE, { "dim", NULL } },
	{ "drop", SR_DROP, { "dim", NULL } },
	{ "flatten", SR_FLATTEN, { "start", "end", NULL } },
	{ "unflatten", SR_UNFLATTEN, { "dim", "sizes", NULL } },
	{ "conv", SR_CONV, { "channels", "kernel", "stride", "padding", "dilation", "ceil",
	                     "output_padding", NULL } },
	{ "conv_same", SR_CONV_SAME, { "channels", NULL } },
	{ "adaptive", SR_ADAPTIVE, { "size", NULL } },
	{ "interpolate", SR_INTERPOLATE, { NULL } },
	{ "pixel_shuffle", SR_PIXEL_SHUFFLE, { "factor", NULL } },
	{ "pixel_unshuffle", SR_PIXEL_UNSHUFFLE, { "factor", NULL } },
	{ "pad", SR_PAD, { "padding", NULL } },
};

/* A shape rule's argument slots, by their key in the catalogue. */
static const struct {
	const char *key;
	size_t off;                /* of the const struct catalog_expr * in struct catalog_shape */
} shape_slots[] = {
	{ "dim", offsetof(struct catalog_shape, dim) },
	{ "start", offsetof(struct catalog_shape, start) },
	{ "end", offsetof(struct catalog_shape, end) },
	{ "sizes", offsetof(struct catalog_shape, sizes) },
	{ "channels", offsetof(struct catalog_shape, channels) },
	{ "kernel", offsetof(struct catalog_shape, kernel) },
	{ "stride", offsetof(struct catalog_shape, stride) },
	{ "padding", offsetof(struct catalog_shape, padding) },
	{ "dilation", offsetof(struct catalog_shape, dilation) },
	{ "ceil", offsetof(struct catalog_shape, ceil) },
	{ "output_padding", offsetof(struct catalog_shape, output_padding) },
	{ "size", offsetof(struct catalog_shape, size) },
	{ "factor", offsetof(struct catalog_shape, factor) },
};

static const struct catalog_expr **shape_slot(struct catalog_shape *s, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof shape_slots / sizeof shape_slots[0]; i++)
		if (!strcmp(key, shape_slots[i].key))
			return (const struct catalog_expr **)(void *)((char *)s + shape_slots[i].off);
	return NULL;
}

static int compile_shape(struct loader *L, const cJSON *j, const struct catalog_shape **out)
{
	struct catalog_shape *s;
	const cJSON *it, *r;
	size_t k;

	*out = NULL;
	if (cJSON_IsNull(j))
		return 0;
	if (!cJSON_IsObject(j))
		return bad(L, "a shape rule is not an object");
	s = L_alloc(L, sizeof *s);
	*out = s;
	if (cJSON_GetObjectItemCaseSensitive(j, "if")) {
		static const char *const keys[] = { "if", "then", "else", NULL };

		s->kind = SR_IF;
		if (check_keys(L, j, keys) < 0 || compile_expr(L, cJSON_GetObjectItemCaseSensitive(j, "if"), &s->cond) < 0)
			return -1;
		if (!cJSON_GetObjectItemCaseSensitive(j, "then") || !cJSON_GetObjectItemCaseSensitive(j, "else"))
			return bad(L, "a shape \"if\" needs \"then\" and \"else\"");
		return compile_shape(L, cJSON_GetObjectItemCaseSensitive(j, "then"), &s->then) < 0 ||
		       compile_shape(L, cJSON_GetObjectItemCaseSensitive(j, "else"), &s->els) < 0 ? -1 : 0;
	}
	r = cJSON_GetObjectItemCaseSensitive(j, "rule");
	if (!cJSON_IsString(r))
		return bad(L, "a shape rule without \"rule\"");
	for (k = 0; k < sizeof RULES / sizeof RULES[0]; k++)
		if (!strcmp(RULES[k].name, r->valuestring))
			break;
	if (k == sizeof RULES / sizeof RULES[0])
		return bad(L, "unknown shape rule \"%s\"", r->valuestring);
	s->kind = RULES[k].kind;
	cJSON_ArrayForEach(it, j) {
		const char *const *key;

		if (!strcmp(it->string, "rule"))
			continue;
		if (!strcmp(it->string, "of")) {
			if (!cJSON_IsString(it) || need_fwd(L, it->valuestring) < 0)
				return bad(L, "\"of\" is not a forward parameter");
			s->of = L_str(L, it->valuestring);
			continue;
		}
		if (!strcmp(it->string, "dims")) {
			long long d;

			if (!cJSON_IsNumber(it) || !json_int(it, &d) || d < 1 || d > 3)
				return bad(L, "\"dims\" is not 1, 2 or 3");
			s->dims = (int)d;
			continue;
		}
		if (!strcmp(it->string, "transposed")) {
			s->transposed = cJSON_IsTrue(it);
			continue;
		}
		for (key = RULES[k].keys; *key; key++)
			if (!strcmp(*key, it->string))
				break;
		if (!*key)
			return bad(L, "shape rule \"%s\" takes no \"%s\"", r->valuestring, it->string);
		if (!cJSON_IsNull(it) && compile_expr(L, it, shape_slot(s, *key)) < 0)
			return -1;
	}
	if ((s->kind == SR_CONV || s->kind == SR_CONV_SAME || s->kind == SR_ADAPTIVE ||
	     s->kind == SR_PAD) && !s->dims)
		return bad(L, "shape rule \"%s\" needs \"dims\"", r->valuestring);
	for (k = 0; RULES[k].kind != s->kind; k++)
		;
	{
		const char *const *key;

		for (key = RULES[k].keys; *key; key++)
			if (!*shape_slot(s, *key) && strcmp(*key, "ceil") && strcmp(*key, "channels") &&
			    (strcmp(*key, "output_padding") || s->transposed))
				return bad(L, "shape rule \"%s\" needs \"%s\"", r->valuestring, *key);
	}
	if (s->kind == SR_CONV && s->transposed && !s->output_padding)
		return bad(L, "a transposed conv rule needs \"output_padding\"");
	return 0;
}

/* ------------------------------------------------------------------ classes */

static int load_params(struct loader *L, const cJSON *arr, struct catalog_param **out, size_t *n,
                       const char *what)
{
	static const char *const keys[] = { "name", "kind", "default", "float", "show", "min_torch", NULL };
	const cJSON *it;
	struct catalog_param *p;
	size_t i = 0, old;

	if (!cJSON_IsArray(arr))
		return bad(L, "\"%s\" is not a list", what);
	*n = (size_t)cJSON_GetArraySize(arr);
	p = L_alloc(L, sizeof *p * (*n ? *n : 1));
	*out = p;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *k, *d;

		old = where_push(L, ": %s[%zu]", what, i);
		if (!cJSON_IsObject(it))
			return bad(L, "not an object");
		if (check_keys(L, it, keys) < 0 || !(p[i].name = get_str(L, it, "name", 1)))
			return -1;
		if (find_param(p, i, p[i].name) >= 0)
			return bad(L, "\"%s\" twice", p[i].name);
		p[i].kind = CATALOG_POSITIONAL;
		k = cJSON_GetObjectItemCaseSensitive(it, "kind");
		if (k) {
			const char *s = cJSON_IsString(k) ? k->valuestring : "";

			p[i].kind = !strcmp(s, "positional") ? CATALOG_POSITIONAL :
			            !strcmp(s, "keyword_only") ? CATALOG_KEYWORD_ONLY :
			            !strcmp(s, "var_positional") ? CATALOG_VAR_POSITIONAL :
			            !strcmp(s, "var_keyword") ? CATALOG_VAR_KEYWORD : 0;
			if (!p[i].kind)
				return bad(L, "unknown kind");
		}
		d = cJSON_GetObjectItemCaseSensitive(it, "default");
		if (d) {
			p[i].has_default = 1;
			if (json_value(L, d, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "float")), 1,
			               &p[i].def) < 0)
				return -1;
		}
		k = cJSON_GetObjectItemCaseSensitive(it, "show");
		if (k && !cJSON_IsBool(k))
			return bad(L, "\"show\" is not a bool");
		p[i].show = cJSON_IsTrue(k);
		if (cJSON_GetObjectItemCaseSensitive(it, "min_torch") &&
		    !(p[i].min_torch = get_str(L, it, "min_torch", 1)))
			return -1;
		where_pop(L, old);
		i++;
	}
	return 0;
}

static int load_steps(struct loader *L, const cJSON *arr, struct catalog_class *c)
{
	static const char *const keys[] = { "op", "module", "call_arg", "meta", "when", "repeat",
	                                    "strings", NULL };
	const struct catalog *cat = L->cat;
	struct catalog_step *st;
	const cJSON *it;
	size_t i = 0, old;

	if (!cJSON_IsArray(arr))
		return bad(L, "\"ops\" is not a list");
	c->nsteps = (size_t)cJSON_GetArraySize(arr);
	st = L_alloc(L, sizeof *st * (c->nsteps ? c->nsteps : 1));
	c->steps = st;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *v;
		int kinds = 0;

		old = where_push(L, ": ops[%zu]", i);
		if (!cJSON_IsObject(it) || check_keys(L, it, keys) < 0)
			return cJSON_IsObject(it) ? -1 : bad(L, "not an object");
		if (cJSON_GetObjectItemCaseSensitive(it, "op")) {
			kinds++;
			st[i].kind = CATALOG_STEP_OP;
			if (!(st[i].name = get_str(L, it, "op", 1)))
				return -1;
		}
		if (cJSON_GetObjectItemCaseSensitive(it, "module")) {
			kinds++;
			st[i].kind = CATALOG_STEP_MODULE;
			if (!(st[i].name = get_str(L, it, "module", 1)))
				return -1;
		}
		if (cJSON_GetObjectItemCaseSensitive(it, "call_arg")) {
			kinds++;
			st[i].kind = CATALOG_STEP_CALL_ARG;
			if (!(st[i].name = get_str(L, it, "call_arg", 1)))
				return -1;
			if (find_param(c->params, c->nparams, st[i].name) < 0)
				return bad(L, "\"%s\" is not a constructor parameter", st[i].name);
		}
		if (kinds != 1)
			return bad(L, "a step is exactly one of op, module, call_arg");
		v = cJSON_GetObjectItemCaseSensitive(it, "meta");
		if (v && (!cJSON_IsBool(v) || st[i].kind != CATALOG_STEP_OP))
			return bad(L, "bad \"meta\"");
		st[i].meta = cJSON_IsTrue(v);
		if (st[i].kind == CATALOG_STEP_OP && !strncmp(st[i].name, "Tensor.", 7) &&
		    st[i].meta != !!(table_flags(&cat->tensor, st[i].name + 7) & CATALOG_N_META))
			return bad(L, "%s: \"meta\" disagrees with " NAMES_FILE, st[i].name);
		v = cJSON_GetObjectItemCaseSensitive(it, "when");
		if (v && compile_expr(L, v, &st[i].when) < 0)
			return -1;
		v = cJSON_GetObjectItemCaseSensitive(it, "repeat");
		if (v) {
			size_t len = strlen(st[i].name);

			if (st[i].kind != CATALOG_STEP_MODULE || len < 3 || strcmp(st[i].name + len - 2, ".*"))
				return bad(L, "\"repeat\" on a step that is no \"<path>.*\" module call");
			if (compile_expr(L, v, &st[i].repeat) < 0)
				return -1;
		}
		v = cJSON_GetObjectItemCaseSensitive(it, "strings");
		if (v) {
			const cJSON *s;
			const char **pairs;
			size_t k = 0;

			if (st[i].kind != CATALOG_STEP_CALL_ARG || !cJSON_IsObject(v))
				return bad(L, "bad \"strings\"");
			st[i].nstrings = (size_t)cJSON_GetArraySize(v);
			pairs = L_alloc(L, sizeof *pairs * 2 * (st[i].nstrings ? st[i].nstrings : 1));
			cJSON_ArrayForEach(s, v) {
				if (!cJSON_IsString(s))
					return bad(L, "\"strings\" maps to a non-string");
				pairs[k++] = L_str(L, s->string);
				pairs[k++] = L_str(L, s->valuestring);
			}
			st[i].strings = pairs;
		}
		where_pop(L, old);
		i++;
	}
	return 0;
}

static int load_children(struct loader *L, const cJSON *arr, struct catalog_class *c)
{
	static const char *const keys[] = { "name", "class", "when", "args", "items", NULL };
	struct catalog_child *ch;
	const cJSON *it;
	size_t i = 0, old;

	if (!cJSON_IsArray(arr))
		return bad(L, "\"children\" is not a list");
	c->nchildren = (size_t)cJSON_GetArraySize(arr);
	ch = L_alloc(L, sizeof *ch * (c->nchildren ? c->nchildren : 1));
	c->children = ch;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *v;

		old = where_push(L, ": children[%zu]", i);
		if (!cJSON_IsObject(it) || check_keys(L, it, keys) < 0)
			return cJSON_IsObject(it) ? -1 : bad(L, "not an object");
		if (!(ch[i].name = get_str(L, it, "name", 1)))
			return -1;
		v = cJSON_GetObjectItemCaseSensitive(it, "class");
		if (cJSON_IsString(v)) {
			ch[i].class_name = L_str(L, v->valuestring);
		} else if (cJSON_IsObject(v) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "arg")) &&
		           cJSON_GetArraySize(v) == 1) {
			ch[i].class_arg = L_str(L, cJSON_GetObjectItemCaseSensitive(v, "arg")->valuestring);
			if (find_param(c->params, c->nparams, ch[i].class_arg) < 0)
				return bad(L, "\"%s\" is not a constructor parameter", ch[i].class_arg);
		} else {
			return bad(L, "\"class\" is neither a name nor {\"arg\": ...}");
		}
		v = cJSON_GetObjectItemCaseSensitive(it, "when");
		if (v && compile_expr(L, v, &ch[i].when) < 0)
			return -1;
		v = cJSON_GetObjectItemCaseSensitive(it, "args");
		if (v) {
			const cJSON *a;
			const char **names;
			const struct catalog_expr **exprs;
			size_t k = 0;

			if (!cJSON_IsObject(v))
				return bad(L, "\"args\" is not an object");
			ch[i].nargs = (size_t)cJSON_GetArraySize(v);
			names = L_alloc(L, sizeof *names * (ch[i].nargs ? ch[i].nargs : 1));
			exprs = L_alloc(L, sizeof *exprs * (ch[i].nargs ? ch[i].nargs : 1));
			cJSON_ArrayForEach(a, v) {
				names[k] = L_str(L, a->string);
				if (compile_expr(L, a, &exprs[k]) < 0)
					return -1;
				k++;
			}
			ch[i].arg_names = names;
			ch[i].arg_exprs = exprs;
		}
		v = cJSON_GetObjectItemCaseSensitive(it, "items");
		if (v) {
			const cJSON *cp = cJSON_GetObjectItemCaseSensitive(v, "copy_of");

			if (!cJSON_IsObject(v) || !cJSON_IsString(cp) || cJSON_GetArraySize(v) != 2 ||
			    !cJSON_GetObjectItemCaseSensitive(v, "count") ||
			    find_param(c->params, c->nparams, cp->valuestring) < 0)
				return bad(L, "\"items\" is not {\"copy_of\": parameter, \"count\": expression}");
			ch[i].copy_of = L_str(L, cp->valuestring);
			if (compile_expr(L, cJSON_GetObjectItemCaseSensitive(v, "count"), &ch[i].count) < 0)
				return -1;
		}
		where_pop(L, old);
		i++;
	}
	return 0;
}

static int load_class(struct loader *L, const cJSON *j, struct catalog_class *c)
{
	static const char *const keys[] = { "name", "module", "kind", "min_torch", "torch_signature",
	                                    "params", "forward", "vars", "ops", "recorded",
	                                    "param_count", "shape", "children", "notes", NULL };
	const cJSON *v;
	const char *kind;
	size_t i;

	if (!cJSON_IsObject(j))
		return bad(L, "not an object");
	if (check_keys(L, j, keys) < 0 || !(c->name = get_str(L, j, "name", 1)))
		return -1;
	where_push(L, " %s", c->name);
	if (strncmp(c->name, "torch.", 6) || !strrchr(c->name, '.')[1])
		return bad(L, "not a dotted torch name");
	if (!(c->module = get_str(L, j, "module", 1)) || !(kind = get_str(L, j, "kind", 1)))
		return -1;
	c->kind = !strcmp(kind, "layer") ? CATALOG_LAYER : !strcmp(kind, "container") ? CATALOG_CONTAINER : 0;
	if (!c->kind)
		return bad(L, "unknown kind \"%s\"", kind);
	if (cJSON_GetObjectItemCaseSensitive(j, "min_torch") && !(c->min_torch = get_str(L, j, "min_torch", 1)))
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(j, "notes") && !(c->notes = get_str(L, j, "notes", 1)))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(j, "recorded");
	if (!cJSON_IsBool(v))
		return bad(L, "\"recorded\" is not a bool");
	c->recorded = cJSON_IsTrue(v);
	{
		struct catalog_param *p;

		if (load_params(L, cJSON_GetObjectItemCaseSensitive(j, "params"), &p, &c->nparams, "params") < 0)
			return -1;
		c->params = p;
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "forward");
	if (!v)
		return bad(L, "missing \"forward\"");
	if (!cJSON_IsNull(v)) {
		struct catalog_param *p;

		if (load_params(L, v, &p, &c->nforward, "forward") < 0)
			return -1;
		c->forward = p;
	}
	/* vars: names first (they may refer to each other), then expressions */
	v = cJSON_GetObjectItemCaseSensitive(j, "vars");
	if (v) {
		const cJSON *it;
		const char **names;
		const struct catalog_expr **exprs;

		if (!cJSON_IsObject(v))
			return bad(L, "\"vars\" is not an object");
		c->nvars = (size_t)cJSON_GetArraySize(v);
		names = L_alloc(L, sizeof *names * (c->nvars ? c->nvars : 1));
		exprs = L_alloc(L, sizeof *exprs * (c->nvars ? c->nvars : 1));
		i = 0;
		cJSON_ArrayForEach(it, v) {
			if (find_param(c->params, c->nparams, it->string) >= 0)
				return bad(L, "var \"%s\" shadows a parameter", it->string);
			names[i++] = L_str(L, it->string);
		}
		L->vars = names;
		L->nvars = c->nvars;
		i = 0;
		cJSON_ArrayForEach(it, v) {
			size_t old = where_push(L, ": vars.%s", it->string);

			if (compile_expr(L, it, &exprs[i++]) < 0)
				return -1;
			where_pop(L, old);
		}
		c->var_names = names;
		c->var_exprs = exprs;
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "ops");
	if (!v)
		return bad(L, "missing \"ops\"");
	if (!cJSON_IsNull(v) && load_steps(L, v, c) < 0)
		return -1;
	if (!c->steps != !c->forward)
		return bad(L, "\"ops\" and \"forward\" must both be null or both be given");
	v = cJSON_GetObjectItemCaseSensitive(j, "param_count");
	if (!v)
		return bad(L, "missing \"param_count\"");
	{
		size_t old = where_push(L, ": param_count");

		if (compile_expr(L, v, &c->count_expr) < 0)
			return -1;
		where_pop(L, old);
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "shape");
	if (!v)
		return bad(L, "missing \"shape\"");
	{
		size_t old = where_push(L, ": shape");

		if (!cJSON_IsNull(v) && !c->forward)
			return bad(L, "a shape rule for a class without forward");
		if (compile_shape(L, v, &c->shape) < 0)
			return -1;
		where_pop(L, old);
	}
	v = cJSON_GetObjectItemCaseSensitive(j, "children");
	if (v && load_children(L, v, c) < 0)
		return -1;
	L->vars = NULL;
	L->nvars = 0;
	return 0;
}

/* ------------------------------------------------------------------ files */

static int read_json(struct loader *L, const char *dir, const char *file, cJSON **out)
{
	char *path = xasprintf("%s/%s", dir, file);
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long size;
	int rc = -1;

	*out = NULL;
	free(L->path);
	L->path = xstrdup(path);
	if (!f) {
		err_set(ECG_EXIT_INTERNAL, "cannot open catalogue '%s': %s (reinstall ecg)", path, strerror(errno));
		goto done;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    size > FILE_CAP) {
		err_set(ECG_EXIT_INTERNAL, "cannot read catalogue '%s'", path);
		goto done;
	}
	text = xmalloc((size_t)size + 1);
	if (fread(text, 1, (size_t)size, f) != (size_t)size) {
		err_set(ECG_EXIT_INTERNAL, "cannot read catalogue '%s': %s", path, strerror(errno));
		goto done;
	}
	text[size] = 0;
	*out = cJSON_ParseWithLength(text, (size_t)size);
	if (!*out) {
		const char *at = cJSON_GetErrorPtr();
		long line = 1;
		const char *p;

		for (p = text; at && p < at; p++)
			line += *p == '\n';
		err_set(ECG_EXIT_INTERNAL, "catalogue %s: not valid JSON (near line %ld)", path, line);
		goto done;
	}
	if (!cJSON_IsObject(*out)) {
		bad(L, "not a JSON object");
		goto done;
	}
	rc = 0;
done:
	if (rc < 0) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	free(text);
	if (f)
		fclose(f);
	free(path);
	return rc;
}

static int check_format(struct loader *L, const cJSON *doc, const char *want)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "format");

	if (!cJSON_IsString(f))
		return bad(L, "no \"format\"");
	if (strcmp(f->valuestring, want))
		return bad(L, "format \"%s\", this ecg reads \"%s\"", f->valuestring, want);
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "torch")))
		return bad(L, "no \"torch\"");
	return 0;
}

/* A list of names (strings, or {"name", "min_torch"} for later additions)
 * into table t with flags. */
static int load_names(struct loader *L, const cJSON *doc, const char *key, struct strmap *t, int flags,
                      int must_exist)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, key), *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr))
		return bad(L, "\"%s\" is not a list", key);
	cJSON_ArrayForEach(it, arr) {
		const char *name;
		int f = flags;
		struct strmap_slot *s;
		int added;

		if (cJSON_IsString(it)) {
			name = it->valuestring;
		} else if (cJSON_IsObject(it) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "name")) &&
		           cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "min_torch")) &&
		           cJSON_GetArraySize(it) == 2) {
			name = cJSON_GetObjectItemCaseSensitive(it, "name")->valuestring;
			f |= CATALOG_N_LATER;
		} else {
			return bad(L, "%s[%zu] is not a name", key, i);
		}
		if (!name[0])
			return bad(L, "%s[%zu] is empty", key, i);
		if (must_exist && !strmap_get(t, name))
			return bad(L, "%s[%zu] \"%s\" is not listed as a name of its namespace", key, i, name);
		s = strmap_put(t, name, &added);
		if (added)
			s->key = L_str(L, name);  /* the map keeps the arena's copy */
		s->a |= f;
		i++;
	}
	return 0;
}

static int load_operators(struct loader *L, const cJSON *ops)
{
	struct catalog *cat = L->cat;
	const cJSON *bin = cJSON_GetObjectItemCaseSensitive(ops, "binary");
	const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(ops, "compare");
	const cJSON *un = cJSON_GetObjectItemCaseSensitive(ops, "unary");
	const cJSON *sub = cJSON_GetObjectItemCaseSensitive(ops, "subscript");
	const cJSON *truth = cJSON_GetObjectItemCaseSensitive(ops, "truth");
	static const char *const forms[3] = { "op", "reflected", "inplace" };
	size_t i, k;

	if (!cJSON_IsObject(bin) || !cJSON_IsObject(cmp) || !cJSON_IsObject(un) ||
	    !cJSON_IsObject(sub) || !cJSON_IsString(truth))
		return bad(L, "\"operators\" needs binary, compare, unary, subscript, truth");
	for (i = 1; i < 14; i++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(bin, BINOP_NAMES[i]);

		if (!cJSON_IsObject(o))
			return bad(L, "operators.binary has no %s", BINOP_NAMES[i]);
		for (k = 0; k < 3; k++) {
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, forms[k]);

			if (!cJSON_IsString(d))
				return bad(L, "operators.binary.%s has no \"%s\"", BINOP_NAMES[i], forms[k]);
			cat->bin[i][k] = L_str(L, d->valuestring);
		}
	}
	for (i = 1; i < 11; i++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(cmp, CMPOP_NAMES[i]);

		if (i == AST_CMP_IS || i == AST_CMP_ISNOT)
			continue;
		if (!cJSON_IsString(d))
			return bad(L, "operators.compare has no %s", CMPOP_NAMES[i]);
		cat->cmp[i] = L_str(L, d->valuestring);
	}
	for (i = 1; i < 5; i++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(un, UNARY_NAMES[i]);

		if (!cJSON_IsString(d))
			return bad(L, "operators.unary has no %s", UNARY_NAMES[i]);
		cat->unary[i] = L_str(L, d->valuestring);
	}
	for (i = 1; i < 4; i++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(sub, CTX_NAMES[i]);

		if (!cJSON_IsString(d))
			return bad(L, "operators.subscript has no %s", CTX_NAMES[i]);
		cat->subscript[i] = L_str(L, d->valuestring);
	}
	cat->truth = L_str(L, truth->valuestring);
	return 0;
}

static int load_names_file(struct loader *L, const cJSON *doc)
{
	struct catalog *cat = L->cat;
	const cJSON *ops;

	if (check_format(L, doc, NAMES_FORMAT) < 0 ||
	    load_names(L, doc, "tensor_methods", &cat->tensor, CATALOG_N_FUNCTION, 0) < 0 ||
	    load_names(L, doc, "tensor_properties", &cat->tensor, CATALOG_N_PROPERTY, 0) < 0 ||
	    load_names(L, doc, "meta", &cat->tensor, CATALOG_N_META, 1) < 0 ||
	    load_names(L, doc, "torch_functions", &cat->torch, CATALOG_N_FUNCTION, 0) < 0 ||
	    load_names(L, doc, "torch_classes", &cat->torch, CATALOG_N_CLASS, 0) < 0 ||
	    load_names(L, doc, "factories", &cat->torch, CATALOG_N_FACTORY, 1) < 0 ||
	    load_names(L, doc, "functional", &cat->functional, CATALOG_N_FUNCTION, 0) < 0)
		return -1;
	ops = cJSON_GetObjectItemCaseSensitive(doc, "operators");
	if (!cJSON_IsObject(ops))
		return bad(L, "no \"operators\"");
	return load_operators(L, ops);
}

static int cmp_class(const void *a, const void *b)
{
	return strcmp(((const struct catalog_class *)a)->name, ((const struct catalog_class *)b)->name);
}

static int load_nn_file(struct loader *L, const cJSON *doc)
{
	struct catalog *cat = L->cat;
	const cJSON *arr, *it;
	size_t i = 0;

	if (check_format(L, doc, NN_FORMAT) < 0)
		return -1;
	arr = cJSON_GetObjectItemCaseSensitive(doc, "classes");
	if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr))
		return bad(L, "\"classes\" is not a non-empty list");
	cat->nclasses = (size_t)cJSON_GetArraySize(arr);
	cat->classes = L_alloc(L, sizeof *cat->classes * cat->nclasses);
	cJSON_ArrayForEach(it, arr) {
		struct catalog_class *c = &cat->classes[i];
		size_t old = where_push(L, "classes[%zu]", i);

		c->cat = cat;
		L->cls = c;
		if (load_class(L, it, c) < 0)
			return -1;
		where_pop(L, old);
		i++;
	}
	L->cls = NULL;
	qsort(cat->classes, cat->nclasses, sizeof *cat->classes, cmp_class);
	for (i = 0; i < cat->nclasses; i++) {
		struct catalog_class *c = &cat->classes[i];
		const char *shortname = strrchr(c->name, '.') + 1;
		struct strmap_slot *s;

		c->cat = cat;
		s = strmap_put(&cat->by_name, c->name, NULL);
		if (s->ptr)
			return bad(L, "class %s listed twice", c->name);
		s->ptr = c;
		s = strmap_put(&cat->by_short, shortname, NULL);
		if (s->ptr)
			return bad(L, "two classes named %s", shortname);
		s->ptr = c;
	}
	/* every op a step names must be a name torch_names.json knows */
	for (i = 0; i < cat->nclasses; i++) {
		const struct catalog_class *c = &cat->classes[i];
		size_t k;

		for (k = 0; k < c->nsteps; k++) {
			const char *n = c->steps[k].name;
			int known = 1;

			if (c->steps[k].kind != CATALOG_STEP_OP)
				continue;
			if (!strncmp(n, "Tensor.", 7))
				known = table_flags(&cat->tensor, n + 7) != 0;
			else if (!strncmp(n, "torch.nn.functional.", 20))
				known = table_flags(&cat->functional, n + 20) != 0;
			else if (!strncmp(n, "torch.", 6) && !strchr(n + 6, '.') && n[6] != '_')
				known = table_flags(&cat->torch, n + 6) != 0;
			if (!known)
				return bad(L, "%s: step op %s is not in " NAMES_FILE, c->name, n);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ facts */

/* Each fact of enum catalog_fact: its key in torch_facts.json and its kind. */
static const struct {
	const char *key;
	enum fact_kind kind;
} FACTS[CATALOG_NFACTS] = {
	[CATALOG_F_COLLECTIVES] = { "collectives", FK_SET },
	[CATALOG_F_PARALLELISM_WORDS] = { "parallelism_words", FK_WORDS },
	[CATALOG_F_PARALLELISM_PLACES] = { "parallelism_places", FK_WORDS },
	[CATALOG_F_PARALLELISM_OPS] = { "parallelism_ops", FK_MAP },
	[CATALOG_F_ASYNC_COLLECTIVES] = { "async_collectives", FK_SET },
	[CATALOG_F_PARALLELISM_OPS_FWD] = { "parallelism_ops_forward", FK_MAP },
	[CATALOG_F_MESH_AXIS_PARALLELISM] = { "mesh_axis_parallelism", FK_MAP },
	[CATALOG_F_WRAPPERS] = { "wrappers", FK_SET },
	[CATALOG_F_WRAPPER_WORDS] = { "wrapper_words", FK_WORDS },
	[CATALOG_F_UNWRAPPERS] = { "unwrappers", FK_SET },
	[CATALOG_F_PARALLEL_WRAPPERS] = { "parallel_wrappers", FK_WORDS },
	[CATALOG_F_OPTIMIZER_STEP_COLLECTIVES] = { "optimizer_step_collectives", FK_WORDS },
	[CATALOG_F_DTENSOR_COLLECTIVE_METHODS] = { "dtensor_collective_methods", FK_MAP },
	[CATALOG_F_DTENSOR_SOURCES] = { "dtensor_sources", FK_WORDS },
	[CATALOG_F_MODULE_PACKAGES] = { "module_packages", FK_PREFIXES },
	[CATALOG_F_NOT_MODULE_SUFFIXES] = { "not_module_suffixes", FK_SUFFIXES },
	[CATALOG_F_NOT_MODULE_PATHS] = { "not_module_paths", FK_WORDS },
	[CATALOG_F_NAME_FOLDS] = { "name_folds", FK_MAP },
	[CATALOG_F_TORCHVISION_FACTORIES] = { "torchvision_factories", FK_PREFIXES },
	[CATALOG_F_TORCH_CALLS] = { "torch_calls", FK_MAP },
	[CATALOG_F_TORCH_CALLS_BY_NAME] = { "torch_calls_by_name", FK_MAP },
	[CATALOG_F_RUNTIME_QUERIES] = { "runtime_queries", FK_SET },
	[CATALOG_F_DATA_FACTORIES] = { "data_factories", FK_SET },
	[CATALOG_F_HOST_FACTORIES] = { "host_factories", FK_SET },
	[CATALOG_F_OBJECT_COLLECTIVES] = { "object_collectives", FK_SET },
	[CATALOG_F_LIKE_FACTORIES] = { "like_factories", FK_SET },
	[CATALOG_F_SHAPE_RULES] = { "shape_rules", FK_RULES },
	[CATALOG_F_PIECES] = { "pieces", FK_MAP },
	[CATALOG_F_DTYPE_RULES] = { "dtype_rules", FK_MAP },
	[CATALOG_F_DTYPES] = { "dtypes", FK_MAP },
	[CATALOG_F_DTYPE_PREFIXES] = { "dtype_prefixes", FK_PREFIXES },
	[CATALOG_F_DTYPE_ALIASES] = { "dtype_aliases", FK_MAP },
	[CATALOG_F_TUPLE_OUTPUTS] = { "tuple_outputs", FK_MAP },
	[CATALOG_F_NOT_DISPATCHED] = { "not_dispatched", FK_SET },
	[CATALOG_F_HOST_HELPER_MODULES] = { "host_helper_modules", FK_SET },
	[CATALOG_F_TENSOR_STATE] = { "tensor_state", FK_SET },
	[CATALOG_F_CONTAINER_BASES] = { "container_bases", FK_SET },
	[CATALOG_F_TENSOR_ALIASES] = { "tensor_aliases", FK_SET },
	[CATALOG_F_ITER_PASSTHROUGH] = { "iter_passthrough", FK_SET },
	[CATALOG_F_LIBRARY_TENSOR_OPS] = { "library_tensor_ops", FK_SET },
	[CATALOG_F_NUMPY_TENSOR_UFUNCS] = { "numpy_tensor_ufuncs", FK_SET },
	[CATALOG_F_JIT_COMPILERS] = { "jit_compilers", FK_MAP },
	[CATALOG_F_FSDP_SHARDING] = { "fsdp_sharding", FK_MAP },
	[CATALOG_F_LAYER_BUFFERS] = { "layer_buffers", FK_MAP },
	[CATALOG_F_OPTIMIZER_FACTORIES] = { "optimizer_factories", FK_SET },
	[CATALOG_F_LOSS_SCALERS] = { "loss_scalers", FK_SET },
	[CATALOG_F_ABSENT_MODULES] = { "absent_modules", FK_SET },
	[CATALOG_F_SERVICE_MODULES] = { "service_modules", FK_SET },
	[CATALOG_F_TOPK_METRICS] = { "topk_metrics", FK_SET },
	[CATALOG_F_WEIGHT_ONLY_LAYERS] = { "weight_only_layers", FK_MAP },
	[CATALOG_F_TRACE_PHASE_ANNOTATIONS] = { "trace_phase_annotations", FK_PREFIXES },
	[CATALOG_F_TRACE_PHASE_FRAMES] = { "trace_phase_frames", FK_WORDS },
	[CATALOG_F_PYTHON_STDLIB] = { "python_stdlib", FK_SET },
	[CATALOG_F_WRAPPER_METHODS] = { "wrapper_methods", FK_MAP },
	[CATALOG_F_WRAPPER_BROADCASTS] = { "wrapper_broadcasts", FK_MAP },
	[CATALOG_F_FSDP_STATE_DICT] = { "fsdp_state_dict", FK_MAP },
	[CATALOG_F_MULTI_PROCESS_WRAPPERS] = { "multi_process_wrappers", FK_MAP },
	[CATALOG_F_MULTI_PROCESS_COLLECTIVES] = { "multi_process_collectives", FK_MAP },
	[CATALOG_F_MULTI_PROCESS_VETOES] = { "multi_process_vetoes", FK_SET },
	[CATALOG_F_MODULE_FACTORIES] = { "module_factories", FK_SET },
	[CATALOG_F_HOST_TENSOR_RETURNS] = { "host_tensor_returns", FK_MAP },
	[CATALOG_F_INT_DATA_FACTORIES] = { "int_data_factories", FK_SET },
	[CATALOG_F_INT_RANGE_FACTORIES] = { "int_range_factories", FK_SET },
	[CATALOG_F_LAYOUT_METHODS] = { "layout_methods", FK_SET },
	[CATALOG_F_LOADER_INIT_ATTRS] = { "loader_init_attrs", FK_MAP },
	[CATALOG_F_OBJECT_HOST_READS] = { "object_host_reads", FK_MAP },
	[CATALOG_F_TENSOR_DATA_METHODS] = { "tensor_data_methods", FK_MAP },
	[CATALOG_F_LIBRARY_PRECISIONS] = { "library_precisions", FK_MAP },
	[CATALOG_F_GRAD_SCALER_PRECISIONS] = { "grad_scaler_precisions", FK_SET },
	[CATALOG_F_LIBRARY_GRAD_SCALERS] = { "library_grad_scalers", FK_MAP },
	[CATALOG_F_PRECISION_OPTIMIZER_SETUPS] = { "precision_optimizer_setups", FK_SET },
	[CATALOG_F_DEVICE_MODULE_HOST_READS] = { "device_module_host_reads", FK_SET },
	[CATALOG_F_MODULE_GENERATE_METHODS] = { "module_generate_methods", FK_MAP },
	[CATALOG_F_LIBRARY_TRAIN_LOOPS] = { "library_train_loops", FK_MAP },
	[CATALOG_F_MODULE_BASE_CLASSES] = { "module_base_classes", FK_SET },
	[CATALOG_F_ACCUMULATION_CONTEXTS] = { "accumulation_contexts", FK_MAP },
	[CATALOG_F_ACCUMULATION_STEP_FLAGS] = { "accumulation_step_flags", FK_SET },
	[CATALOG_F_STATE_SAVERS] = { "state_savers", FK_MAP },
	[CATALOG_F_TENSOR_SAVERS] = { "tensor_savers", FK_SET },
	[CATALOG_F_IMAGE_SAVERS] = { "image_savers", FK_SET },
	[CATALOG_F_LIBRARY_OBJECT_FACTORIES] = { "library_object_factories", FK_MAP },
	[CATALOG_F_HOST_COPYING_METHODS] = { "host_copying_methods", FK_SET },
	[CATALOG_F_LIBRARY_OUTPUT_FIELDS] = { "library_output_fields", FK_SET },
	[CATALOG_F_HOST_LOAD_KEYWORDS] = { "host_load_keywords", FK_SET },
	[CATALOG_F_ARRAY_READERS] = { "array_readers", FK_MAP },
	[CATALOG_F_ARRAY_SHAPE_METHODS] = { "array_shape_methods", FK_SET },
	[CATALOG_F_DATA_SIZED_CALLS] = { "data_sized_calls", FK_SET },
	[CATALOG_F_HOST_CHECKED_CALLS] = { "host_checked_calls", FK_SET },
	[CATALOG_F_ARRAY_FACTORIES] = { "array_factories", FK_MAP },
	[CATALOG_F_ARRAY_DRAWS] = { "array_draws", FK_MAP },
	[CATALOG_F_ARRAY_STACKERS] = { "array_stackers", FK_MAP },
	[CATALOG_F_ARRAY_CONVERTERS] = { "array_converters", FK_MAP },
	[CATALOG_F_ARRAY_RANGES] = { "array_ranges", FK_MAP },
	[CATALOG_F_ARRAY_DTYPES] = { "array_dtypes", FK_MAP },
	[CATALOG_F_ARRAY_FLOAT_DEFAULTS] = { "array_float_defaults", FK_SET },
	[CATALOG_F_ARRAY_SHAPE_KEEPERS] = { "array_shape_keepers", FK_MAP },
	[CATALOG_F_ARRAY_TILERS] = { "array_tilers", FK_MAP },
	[CATALOG_F_SUBSET_RETURNS] = { "subset_returns", FK_MAP },
	[CATALOG_F_SYNCING_CONTEXTS] = { "syncing_contexts", FK_MAP },
	[CATALOG_F_RECORD_CLASSES] = { "record_classes", FK_PREFIXES },
	[CATALOG_F_TYPE_INFO_FIELDS] = { "type_info_fields", FK_MAP },
	[CATALOG_F_RECORD_UPDATERS] = { "record_updaters", FK_MAP },
	[CATALOG_F_SYNCING_TIMERS] = { "syncing_timers", FK_MAP },

	[CATALOG_F_LAUNCHER_OBJECTS] = { "launcher_objects", FK_MAP },
	[CATALOG_F_LAUNCHER_DEVICES] = { "launcher_devices", FK_MAP },
	[CATALOG_F_LAUNCHER_LOADERS] = { "launcher_loaders", FK_MAP },
	[CATALOG_F_LAUNCHER_STRATEGIES] = { "launcher_strategies", FK_MAP },
	[CATALOG_F_LAUNCHER_WRAPS] = { "launcher_wraps", FK_SET },
	[CATALOG_F_LAUNCHER_WRAPPER_METHODS] = { "launcher_wrapper_methods", FK_MAP },
	[CATALOG_F_SYNC_SKIP_CONTEXTS] = { "sync_skip_contexts", FK_MAP },
	[CATALOG_F_LAUNCHER_SAVES] = { "launcher_saves", FK_MAP },
	[CATALOG_F_STRATEGY_SAVES] = { "strategy_saves", FK_MAP },
	[CATALOG_F_TYPED_EQ_CLASSES] = { "typed_eq_classes", FK_SET },
	[CATALOG_F_PRETRAINED_MODULE_WORDS] = { "pretrained_module_words", FK_WORDS },
	[CATALOG_F_PRETRAINED_PLACEMENT_KEYWORDS] = { "pretrained_placement_keywords", FK_SET },
	[CATALOG_F_MODULE_TENSOR_METHODS] = { "module_tensor_methods", FK_PREFIXES },
	[CATALOG_F_MODULE_STATE_SAVERS] = { "module_state_savers", FK_SET },
	[CATALOG_F_OBJECT_COLLECTIVES_METHODS] = { "object_collective_methods", FK_MAP },
	[CATALOG_F_OPTIMIZER_HOST_ATTRS] = { "optimizer_host_attrs", FK_SET },
	[CATALOG_F_VALUE_METERS] = { "value_meters", FK_MAP },
	[CATALOG_F_WRAPPER_GROUP_ATTRS] = { "wrapper_group_attributes", FK_MAP },
	[CATALOG_F_DISTINCT_MEMBER_ENUMS] = { "distinct_member_enums", FK_SET },
	[CATALOG_F_FLOAT_CONSTANTS] = { "float_constants", FK_MAP },
	[CATALOG_F_ARRAY_SCANS] = { "array_scans", FK_MAP },
	[CATALOG_F_SINGLE_PROCESS_DEVICE_TYPES] = { "single_process_device_types", FK_SET },
	[CATALOG_F_GPU_REQUIRING_CALLS] = { "gpu_requiring_calls", FK_SET },
	[CATALOG_F_MACHINE_QUERIES] = { "machine_queries", FK_SET },
	[CATALOG_F_HOST_STATE_CALLS] = { "host_state_calls", FK_MAP },
	[CATALOG_F_TOKEN_ID_ATTRIBUTES] = { "token_id_attributes", FK_SET },
	[CATALOG_F_ACCELERATOR_DEVICE_NAMES] = { "accelerator_device_names", FK_MAP },
	[CATALOG_F_ZERO3_PARAMETER_ATTRIBUTES] = { "zero3_parameter_attributes", FK_SET },
	[CATALOG_F_DEVICE_DATA_CONSTRUCTORS] = { "device_data_constructors", FK_SET },
	[CATALOG_F_CUDA_MACHINE_QUERIES] = { "cuda_machine_queries", FK_SET },
	[CATALOG_F_MODULE_STATE_WRAPPERS] = { "module_state_wrappers", FK_SET },
	[CATALOG_F_MAP_DATASET_CALLS] = { "map_dataset_calls", FK_MAP },
	[CATALOG_F_CLOSED_CLASSES] = { "closed_classes", FK_MAP },
	[CATALOG_F_ITERABLE_DATASET_CLASSES] = { "iterable_dataset_classes", FK_SET },
	[CATALOG_F_DATA_CLASSES] = { "data_classes", FK_SET },
	[CATALOG_F_MAP_DATASET_METHODS] = { "map_dataset_methods", FK_SET },
	[CATALOG_F_DEFAULT_DEVICE_FACTORIES] = { "default_device_factories", FK_MAP },
	[CATALOG_F_CONFIG_FILE_PARSERS] = { "config_file_parsers", FK_SET },
	[CATALOG_F_CONFIG_FILE_PARSER_METHODS] = { "config_file_parser_methods", FK_MAP },
	[CATALOG_F_INT_ARGUMENTS] = { "int_arguments", FK_MAP },
	[CATALOG_F_CONFIG_FILE_SYNTAXES] = { "config_file_syntaxes", FK_MAP },
	[CATALOG_F_COMPONENT_LOADERS] = { "component_loaders", FK_SET },
	[CATALOG_F_TP_PARALLELIZE_CALLS] = { "tp_parallelize_calls", FK_SET },
	[CATALOG_F_TP_STYLES] = { "tp_styles", FK_MAP },
	[CATALOG_F_TP_PLACEMENTS] = { "tp_placements", FK_SET },
	[CATALOG_F_SYNC_BN_CONVERTERS] = { "sync_bn_converters", FK_SET },
	[CATALOG_F_SYNC_BN_LAYERS] = { "sync_bn_layers", FK_SET },
	[CATALOG_F_BATCH_NORM_FACTORIES] = { "batch_norm_factories", FK_PREFIXES },
	[CATALOG_F_DATACLASS_ARG_PARSERS] = { "dataclass_arg_parsers", FK_MAP },
	[CATALOG_F_LIBRARY_DATACLASS_FIELDS] = { "library_dataclass_fields", FK_MAP },
	[CATALOG_F_LIBRARY_LOOP_EVENTS] = { "library_loop_events", FK_MAP },
	[CATALOG_F_ADAPTER_INJECTORS] = { "adapter_injectors", FK_MAP },
	[CATALOG_F_OUTSIDE_CLASS_BASES] = { "outside_class_bases", FK_MAP },
	[CATALOG_F_RUN_TIME_DEVICES] = { "run_time_devices", FK_MAP },
	[CATALOG_F_WRAPPER_SYNC_SKIPS] = { "wrapper_sync_skips", FK_SET },
	[CATALOG_F_IMAGE_TRANSFORMS] = { "image_transforms", FK_MAP },
	[CATALOG_F_OUTSIDE_LOADERS] = { "outside_loaders", FK_SET },
	[CATALOG_F_ARRAY_TEXT_PARSERS] = { "array_text_parsers", FK_MAP },
	[CATALOG_F_LIBRARY_AUTO_BASES] = { "library_auto_bases", FK_MAP },
	[CATALOG_F_DEVICE_LOADERS] = { "device_loaders", FK_MAP },
	[CATALOG_F_LIBRARY_PIPELINES] = { "library_pipelines", FK_MAP },
	[CATALOG_F_PASSTHROUGH_CALLS] = { "passthrough_calls", FK_MAP },
	[CATALOG_F_LIBRARY_HOST_READS] = { "library_host_reads", FK_SET },
	[CATALOG_F_DEVICE_BATCH_ITERATORS] = { "device_batch_iterators", FK_MAP },
	[CATALOG_F_PRETRAINED_DEVICE_KEYWORDS] = { "pretrained_device_keywords", FK_SET },
	[CATALOG_F_TYPED_CLASS_ARG_PARSERS] = { "typed_class_arg_parsers", FK_MAP },
	[CATALOG_F_AMP_SCALING_OPTIMIZERS] = { "amp_scaling_optimizers", FK_MAP },
	[CATALOG_F_NAME_REGISTRARS] = { "name_registrars", FK_MAP },
	[CATALOG_F_MATH_NAMESPACES] = { "math_namespaces", FK_PREFIXES },
	[CATALOG_F_NAME_REGISTRY_CLASSES] = { "name_registry_classes", FK_SET },
	[CATALOG_F_NAME_REGISTRY_FACTORIES] = { "name_registry_factories", FK_MAP },
	[CATALOG_F_NAME_REGISTRY_HELD_KEYWORDS] = { "name_registry_held_keywords", FK_SET },
	[CATALOG_F_MODEL_HELPER_MODULES] = { "model_helper_modules", FK_WORDS },
	[CATALOG_F_DATA_SIZED_DEFAULTS] = { "data_sized_defaults", FK_MAP },
	[CATALOG_F_TENSORLESS_LAYERS] = { "tensorless_layers", FK_SET },
	[CATALOG_F_REPARAMETRIZATIONS] = { "reparametrizations", FK_MAP },
	[CATALOG_F_MODEL_COPY_HOLDERS] = { "model_copy_holders", FK_MAP },
	[CATALOG_F_VALUE_FACTORIES] = { "value_factories", FK_SET },
	[CATALOG_F_FRAMEWORK_BACKWARDS] = { "framework_backwards", FK_SET },
	[CATALOG_F_BACKWARD_CALLBACK_QUEUES] = { "backward_callback_queues", FK_SET },
	[CATALOG_F_YACS_NODE_CLASSES] = { "yacs_node_classes", FK_MAP },
	[CATALOG_F_WORLD_GROUPS] = { "world_groups", FK_SET },
	[CATALOG_F_STORED_BACK_MOVES] = { "stored_back_moves", FK_SET },
	[CATALOG_F_MAP_LOCATION_MOVES] = { "map_location_moves", FK_SET },
	[CATALOG_F_FSDP_FULL_STATE] = { "fsdp_full_state", FK_MAP },
	[CATALOG_F_ENGINE_HANDOFFS] = { "engine_handoffs", FK_MAP },
	[CATALOG_F_MODULE_BASE_PACKAGES] = { "module_base_packages", FK_PREFIXES },
	[CATALOG_F_WRAPPER_DEVICE_KEYWORDS] = { "wrapper_device_keywords", FK_MAP },
	[CATALOG_F_WRAPPER_MODULE_KEYWORDS] = { "wrapper_module_keywords", FK_MAP },
	[CATALOG_F_LIBRARY_MACHINE_QUERIES] = { "library_machine_queries", FK_MAP },
	[CATALOG_F_VISION_DATASETS] = { "vision_datasets", FK_MAP },
	[CATALOG_F_ONE_DEVICE_WRAPPERS] = { "one_device_wrappers", FK_MAP },
	[CATALOG_F_WRAPPER_INPUT_SCATTERS] = { "wrapper_input_scatters", FK_MAP },
	[CATALOG_F_TYPED_HOST_CONSTRUCTORS] = { "typed_host_constructors", FK_SET },
	[CATALOG_F_PYTHON_DATA_FACTORIES] = { "python_data_factories", FK_SET },
	[CATALOG_F_HOST_SERIALISERS] = { "host_serialisers", FK_SET },
	[CATALOG_F_PATH_OPENERS] = { "path_openers", FK_SET },
};

static const char *const FACT_KIND_KEY[] = {
	[FK_SET] = "set", [FK_MAP] = "map", [FK_PREFIXES] = "prefixes", [FK_SUFFIXES] = "suffixes",
	[FK_WORDS] = "words", [FK_RULES] = "rules"
};

/* The namespaces a rule applies in (catalog.h, CATALOG_ON_*). */
static const char *const ON_NAMES[] = { "torch", "Tensor", "torch.nn.functional", NULL };

static int fact_put(struct loader *L, struct fact *fa, const char *key, const char *val, int on)
{
	struct strmap_slot *s;
	int added = 0;

	if (!key[0])
		return bad(L, "an empty name");
	if (strmap_get(&fa->t, key))
		return bad(L, "\"%s\" listed twice", key);
	s = strmap_put(&fa->t, key, &added);
	s->key = L_str(L, key);
	s->ptr = val ? L_str(L, val) : s->key;
	s->a = on;
	return 0;
}

/* An ordered list: each item a string (its own value) or [key, value]. */
static int load_fact_pairs(struct loader *L, struct fact *fa, const cJSON *arr)
{
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr))
		return bad(L, "not a list");
	fa->n = (size_t)cJSON_GetArraySize(arr);
	fa->pairs = L_alloc(L, sizeof *fa->pairs * 2 * (fa->n ? fa->n : 1));
	cJSON_ArrayForEach(it, arr) {
		const cJSON *k = it, *v = it;

		if (cJSON_IsArray(it) && cJSON_GetArraySize(it) == 2) {
			k = cJSON_GetArrayItem(it, 0);
			v = cJSON_GetArrayItem(it, 1);
		}
		if (!cJSON_IsString(k) || !cJSON_IsString(v) || !k->valuestring[0])
			return bad(L, "[%zu] is neither a name nor a [name, value] pair", i);
		fa->pairs[2 * i] = L_str(L, k->valuestring);
		fa->pairs[2 * i + 1] = v == k ? fa->pairs[2 * i] : L_str(L, v->valuestring);
		i++;
	}
	return 0;
}

/* "rules": [{"rule": R, "on": [namespaces], "names": [...]}, ...] */
static int load_fact_rules(struct loader *L, struct fact *fa, const cJSON *arr)
{
	static const char *const keys[] = { "rule", "on", "names", "doc", NULL };
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr))
		return bad(L, "\"rules\" is not a list");
	cJSON_ArrayForEach(it, arr) {
		const cJSON *on = cJSON_GetObjectItemCaseSensitive(it, "on"), *names, *n;
		const char *rule;
		size_t old = where_push(L, " rules[%zu]", i);
		int mask = 0;

		if (!cJSON_IsObject(it) || check_keys(L, it, keys) < 0 || !(rule = get_str(L, it, "rule", 1)))
			return -1;
		if (!cJSON_IsArray(on))
			return bad(L, "\"on\" is not a list");
		cJSON_ArrayForEach(n, on) {
			int k;

			for (k = 0; ON_NAMES[k]; k++)
				if (cJSON_IsString(n) && !strcmp(n->valuestring, ON_NAMES[k]))
					break;
			if (!ON_NAMES[k])
				return bad(L, "\"on\": not a namespace (torch, Tensor, torch.nn.functional)");
			mask |= 1 << k;
		}
		names = cJSON_GetObjectItemCaseSensitive(it, "names");
		if (!cJSON_IsArray(names))
			return bad(L, "\"names\" is not a list");
		cJSON_ArrayForEach(n, names)
			if (!cJSON_IsString(n) || fact_put(L, fa, n->valuestring, rule, mask) < 0)
				return cJSON_IsString(n) ? -1 : bad(L, "a name is not a string");
		where_pop(L, old);
		i++;
	}
	return 0;
}

static int load_fact(struct loader *L, struct fact *fa, const cJSON *j)
{
	const char *kk = FACT_KIND_KEY[fa->kind];
	const char *const keys[] = { "doc", kk, NULL };
	const cJSON *body = cJSON_GetObjectItemCaseSensitive(j, kk), *it;

	if (!cJSON_IsObject(j) || check_keys(L, j, keys) < 0)
		return cJSON_IsObject(j) ? -1 : bad(L, "not an object");
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "doc")))
		return bad(L, "no \"doc\"");
	if (!body)
		return bad(L, "no \"%s\"", kk);
	switch (fa->kind) {
	case FK_SET:
		if (!cJSON_IsArray(body))
			return bad(L, "\"set\" is not a list");
		cJSON_ArrayForEach(it, body)
			if (!cJSON_IsString(it) || fact_put(L, fa, it->valuestring, NULL, 0) < 0)
				return cJSON_IsString(it) ? -1 : bad(L, "a name is not a string");
		return 0;
	case FK_MAP:
		if (!cJSON_IsObject(body))
			return bad(L, "\"map\" is not an object");
		cJSON_ArrayForEach(it, body)
			if (!cJSON_IsString(it) || fact_put(L, fa, it->string, it->valuestring, 0) < 0)
				return cJSON_IsString(it) ? -1 : bad(L, "\"%s\": not a string", it->string);
		return 0;
	case FK_RULES:
		return load_fact_rules(L, fa, body);
	default:
		return load_fact_pairs(L, fa, body);
	}
}

static int load_facts_file(struct loader *L, const cJSON *doc)
{
	struct catalog *cat = L->cat;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "format"), *it;
	size_t i;

	if (!cJSON_IsString(f) || strcmp(f->valuestring, FACTS_FORMAT))
		return bad(L, "format %s%s%s, this ecg reads \"" FACTS_FORMAT "\"", f ? "\"" : "",
		           cJSON_IsString(f) ? f->valuestring : "missing", f ? "\"" : "");
	cJSON_ArrayForEach(it, doc) {
		for (i = 0; i < CATALOG_NFACTS; i++)
			if (!strcmp(it->string, FACTS[i].key))
				break;
		if (i == CATALOG_NFACTS && strcmp(it->string, "format") && strcmp(it->string, "doc"))
			return bad(L, "unknown fact \"%s\"", it->string);
	}
	for (i = 0; i < CATALOG_NFACTS; i++) {
		const cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, FACTS[i].key);
		size_t old = where_push(L, "%s", FACTS[i].key);

		cat->facts[i].kind = FACTS[i].kind;
		if (!j)
			return bad(L, "missing");
		if (load_fact(L, &cat->facts[i], j) < 0)
			return -1;
		where_pop(L, old);
	}
	return 0;
}

int catalog_load(const char *dir, struct catalog **out)
{
	struct loader L = { 0 };
	cJSON *names = NULL, *nn = NULL, *facts = NULL;
	int rc = -1;

	*out = NULL;
	L.cat = xcalloc(1, sizeof *L.cat);
	L.cat->arena = ast_arena_new();
	buf_init(&L.where);
	if (read_json(&L, dir, NAMES_FILE, &names) < 0 || load_names_file(&L, names) < 0)
		goto done;
	cJSON_Delete(names);
	names = NULL;
	buf_reset(&L.where);
	if (read_json(&L, dir, NN_FILE, &nn) < 0 || load_nn_file(&L, nn) < 0)
		goto done;
	buf_reset(&L.where);
	if (read_json(&L, dir, FACTS_FILE, &facts) < 0 || load_facts_file(&L, facts) < 0)
		goto done;
	*out = L.cat;
	L.cat = NULL;
	rc = 0;
done:
	cJSON_Delete(names);
	cJSON_Delete(nn);
	cJSON_Delete(facts);
	buf_free(&L.where);
	free(L.path);
	catalog_free(L.cat);
	return rc;
}

void catalog_free(struct catalog *cat)
{
	size_t i;

	if (!cat)
		return;
	strmap_free(&cat->by_name);
	strmap_free(&cat->by_short);
	strmap_free(&cat->tensor);
	strmap_free(&cat->torch);
	strmap_free(&cat->functional);
	for (i = 0; i < CATALOG_NFACTS; i++)
		strmap_free(&cat->facts[i].t);
	ast_arena_free(cat->arena);
	free(cat);
}

char *catalog_dir_beside(const char *helpers_dir)
{
	size_t n = strlen(helpers_dir);

	while (n > 1 && helpers_dir[n - 1] == '/')
		n--;
	while (n > 0 && helpers_dir[n - 1] != '/')
		n--;
	if (n == 0)
		return xstrdup("catalog");
	return xasprintf("%.*scatalog", (int)n, helpers_dir);
}

/* ------------------------------------------------------------------ lookups */

const struct catalog_class *catalog_class(const struct catalog *cat, const char *dotted)
{
	const struct strmap_slot *s = strmap_get(&cat->by_name, dotted);
	const struct catalog_class *c;
	const char *dot;
	size_t plen;

	if (s)
		return s->ptr;
	dot = strrchr(dotted, '.');
	if (!dot)
		return NULL;
	s = strmap_get(&cat->by_short, dot + 1);
	if (!s)
		return NULL;
	c = s->ptr;
	plen = (size_t)(dot - dotted);
	if ((plen == strlen(c->module) && !strncmp(dotted, c->module, plen)) ||
	    (plen == 16 && !strncmp(dotted, "torch.nn.modules", 16) && !strncmp(c->name, "torch.nn.", 9) &&
	     !strchr(c->name + 9, '.')))
		return c;
	return NULL;
}

size_t catalog_nclasses(const struct catalog *cat)
{
	return cat->nclasses;
}

const struct catalog_class *catalog_class_at(const struct catalog *cat, size_t i)
{
	return i < cat->nclasses ? &cat->classes[i] : NULL;
}

const struct catalog_param *catalog_param(const struct catalog_class *c, const char *name)
{
	int i = find_param(c->params, c->nparams, name);

	return i < 0 ? NULL : &c->params[i];
}

const struct catalog_param *catalog_param_at(const struct catalog_class *c, size_t pos)
{
	size_t i, k = 0;

	for (i = 0; i < c->nparams; i++)
		if (c->params[i].kind == CATALOG_POSITIONAL && k++ == pos)
			return &c->params[i];
	for (i = 0; i < c->nparams; i++)
		if (c->params[i].kind == CATALOG_VAR_POSITIONAL)
			return &c->params[i];
	return NULL;
}

const char *catalog_call_arg_op(const struct catalog_step *s, const char *value)
{
	size_t i;

	for (i = 0; i < s->nstrings; i++)
		if (!strcmp(s->strings[2 * i], value))
			return s->strings[2 * i + 1];
	return NULL;
}

int catalog_tensor_name(const struct catalog *cat, const char *name)
{
	return table_flags(&cat->tensor, name);
}

int catalog_torch_name(const struct catalog *cat, const char *name)
{
	return table_flags(&cat->torch, name);
}

int catalog_functional_name(const struct catalog *cat, const char *name)
{
	return table_flags(&cat->functional, name);
}

int catalog_is_tensor_method(const struct catalog *cat, const char *name)
{
	return !!(table_flags(&cat->tensor, name) & CATALOG_N_FUNCTION);
}

int catalog_is_tensor_property(const struct catalog *cat, const char *name)
{
	return !!(table_flags(&cat->tensor, name) & CATALOG_N_PROPERTY);
}

int catalog_is_meta(const struct catalog *cat, const char *name)
{
	return !!(table_flags(&cat->tensor, name) & CATALOG_N_META);
}

int catalog_torch_function(const struct catalog *cat, const char *name)
{
	return !!(table_flags(&cat->torch, name) & CATALOG_N_FUNCTION);
}

int catalog_functional(const struct catalog *cat, const char *name)
{
	return !!(table_flags(&cat->functional, name) & CATALOG_N_FUNCTION);
}

/* ------------------------------------------------------------------ fact lookups */

const char *catalog_fact(const struct catalog *cat, enum catalog_fact f, const char *name)
{
	const struct strmap_slot *s;

	if (!cat || (unsigned)f >= CATALOG_NFACTS || !name)
		return NULL;
	s = strmap_get(&cat->facts[f].t, name);
	return s ? s->ptr : NULL;
}

const char *catalog_fact_on(const struct catalog *cat, enum catalog_fact f, const char *name, int on)
{
	const struct strmap_slot *s;

	if (!cat || (unsigned)f >= CATALOG_NFACTS || !name)
		return NULL;
	s = strmap_get(&cat->facts[f].t, name);
	return s && (s->a & on) ? s->ptr : NULL;
}

const char *catalog_fact_key_at(const struct catalog *cat, enum catalog_fact f, size_t i, const char **value)
{
	const struct fact *fa;
	size_t k, seen = 0;

	if (!cat || (unsigned)f >= CATALOG_NFACTS)
		return NULL;
	fa = &cat->facts[f];
	if (fa->pairs) {    /* an ordered list: its order */
		if (i >= fa->n)
			return NULL;
		if (value)
			*value = fa->pairs[2 * i + 1];
		return fa->pairs[2 * i];
	}
	for (k = 0; k < fa->t.cap; k++)
		if (fa->t.slot[k].key && seen++ == i) {
			if (value)
				*value = fa->t.slot[k].ptr;
			return fa->t.slot[k].key;
		}
	return NULL;
}

const char *catalog_fact_match(const struct catalog *cat, enum catalog_fact f, const char *text)
{
	const struct fact *fa;
	size_t i, n;

	if (!cat || (unsigned)f >= CATALOG_NFACTS || !text)
		return NULL;
	fa = &cat->facts[f];
	n = strlen(text);
	for (i = 0; i < fa->n; i++) {
		const char *k = fa->pairs[2 * i];
		size_t kn = strlen(k);

		if ((fa->kind == FK_PREFIXES && !strncmp(text, k, kn)) ||
		    (fa->kind == FK_SUFFIXES && n >= kn && !strcmp(text + n - kn, k)) ||
		    (fa->kind == FK_WORDS && strstr(text, k)))
			return fa->pairs[2 * i + 1];
	}
	return NULL;
}

const char *catalog_dunder_binop(const struct catalog *cat, enum ast_operator op,
                                 enum catalog_binform form)
{
	if ((int)op < 1 || (int)op > 13 || (int)form < 0 || (int)form > 2)
		return NULL;
	return cat->bin[op][form];
}

const char *catalog_dunder_cmpop(const struct catalog *cat, enum ast_cmpop op)
{
	return (int)op < 1 || (int)op > 10 ? NULL : cat->cmp[op];
}

const char *catalog_dunder_unaryop(const struct catalog *cat, enum ast_unaryop op)
{
	return (int)op < 1 || (int)op > 4 ? NULL : cat->unary[op];
}

const char *catalog_dunder_subscript(const struct catalog *cat, enum ast_ctx ctx)
{
	return (int)ctx < 1 || (int)ctx > 3 ? NULL : cat->subscript[ctx];
}

const char *catalog_dunder_truth(const struct catalog *cat)
{
	return cat->truth;
}

/* ------------------------------------------------------------------ evaluation */

struct ev {
	const struct catalog_class *c;
	const struct catalog_env *env;
	const char **unknown;
	int depth;
};

static int unknown(struct ev *x, const char *name)
{
	if (x->unknown && !*x->unknown)
		*x->unknown = name;
	return 1;
}

static int type_error(struct ev *x, const char *what)
{
	return err_set(ECG_EXIT_INTERNAL, "catalogue: %s: %s", x->c->name, what);
}

static const struct catalog_arg *find_arg(const struct catalog_args *args, const char *name)
{
	size_t i;

	if (!args)
		return NULL;
	for (i = 0; i < args->n; i++)
		if (args->v[i].name && !strcmp(args->v[i].name, name))
			return &args->v[i];
	return NULL;
}

/* A parameter's value: passed, else its default.  unknown_as names it. */
static int param_value(struct ev *x, const struct catalog_param *params, size_t n,
                       const struct catalog_args *args, const char *name, const char *unknown_as,
                       struct catalog_value *out)
{
	const struct catalog_arg *a = find_arg(args, name);
	int i;

	if (a) {
		*out = a->v;
		return out->type == CATALOG_UNKNOWN ? unknown(x, unknown_as) : 0;
	}
	i = find_param(params, n, name);
	if (i < 0 || !params[i].has_default)
		return unknown(x, unknown_as);
	*out = params[i].def;
	return 0;
}

static int ev(struct ev *x, const struct catalog_expr *e, struct catalog_value *out);

/* Truth value: 1, 0; -1 unknown (never for a known value). */
static int truth(const struct catalog_value *v)
{
	switch (v->type) {
	case CATALOG_UNKNOWN:
		return -1;
	case CATALOG_NONE:
		return 0;
	case CATALOG_BOOL:
	case CATALOG_INT:
		return v->i != 0;
	case CATALOG_FLOAT:
		return v->f != 0;
	case CATALOG_STR:
		return v->s[0] != 0;
	case CATALOG_TUPLE:
		return v->n != 0;
	default:
		return 1;
	}
}

static void set_bool(struct catalog_value *v, int b)
{
	memset(v, 0, sizeof *v);
	v->type = CATALOG_BOOL;
	v->i = b;
}

static void set_int(struct catalog_value *v, long long i)
{
	memset(v, 0, sizeof *v);
	v->type = CATALOG_INT;
	v->i = i;
}

static int is_num(const struct catalog_value *v)
{
	return v->type == CATALOG_BOOL || v->type == CATALOG_INT || v->type == CATALOG_FLOAT;
}

static double num(const struct catalog_value *v)
{
	return v->type == CATALOG_FLOAT ? v->f : (double)v->i;
}

static int is_name(const struct catalog_value *v)
{
	return v->type == CATALOG_STR || v->type == CATALOG_CALLABLE || v->type == CATALOG_MODULE;
}

static int value_eq(const struct catalog_value *a, const struct catalog_value *b)
{
	if (is_num(a) && is_num(b)) {
		if (a->type != CATALOG_FLOAT && b->type != CATALOG_FLOAT)
			return a->i == b->i;
		return num(a) == num(b);
	}
	if (is_name(a) && is_name(b))
		return (a->type == b->type || a->type == CATALOG_STR || b->type == CATALOG_STR) &&
		       !strcmp(a->s, b->s);
	if (a->type == CATALOG_NONE || b->type == CATALOG_NONE)
		return a->type == b->type;
	if (a->type == CATALOG_TUPLE && b->type == CATALOG_TUPLE)
		return a->n == b->n && (!a->n || !memcmp(a->items, b->items, a->n * sizeof *a->items));
	return 0;
}

static int as_int(struct ev *x, const struct catalog_value *v, long long *out)
{
	if (v->type != CATALOG_INT && v->type != CATALOG_BOOL) {
		static const char *const names[] = { "unknown", "None", "a bool", "an integer", "a float",
		                                     "a string", "a tuple", "a callable", "a module",
		                                     "a tensor", "an object" };
		char *m = xasprintf("an integer was needed, the value is %s", names[v->type]);

		type_error(x, m);
		free(m);
		return -1;
	}
	*out = v->i;
	return 0;
}

static int overflow(struct ev *x)
{
	return type_error(x, "integer overflow");
}

static long long floordiv(long long a, long long b)
{
	long long q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* Evaluate all kids; 1 if any is unknown (after checking them all for
 * errors), -1 on the first error. */
static int ev_kids(struct ev *x, const struct catalog_expr *e, struct catalog_value *vals)
{
	size_t i;
	int any = 0, r;

	for (i = 0; i < e->nkids; i++) {
		r = ev(x, e->kids[i], &vals[i]);
		if (r < 0)
			return -1;
		any |= r;
	}
	return any;
}

static int fwd_value(struct ev *x, const char *name, struct catalog_value *out)
{
	const struct catalog_class *c = x->c;

	if (!x->env || !x->env->fwd)
		return unknown(x, name);
	return param_value(x, c->forward, c->nforward, x->env->fwd, name, name, out);
}

static int ev_logic(struct ev *x, const struct catalog_expr *e, struct catalog_value *out)
{
	int want = e->op == EO_OR;   /* the value that decides */
	int unk = 0;
	size_t i;

	for (i = 0; i < e->nkids; i++) {
		struct catalog_value v;
		int r = ev(x, e->kids[i], &v), t;

		if (r < 0)
			return -1;
		t = r ? -1 : truth(&v);
		if (t == want) {
			set_bool(out, want);
			return 0;
		}
		if (t < 0)
			unk = 1;
	}
	if (unk)
		return 1;
	set_bool(out, !want);
	return 0;
}

static int ev_arith(struct ev *x, const struct catalog_expr *e, struct catalog_value *out)
{
	struct catalog_value vals[16], *v = vals;
	long long acc = 0, a;
	size_t i;
	int r;

	if (e->nkids > 16)
		v = xmalloc(sizeof *v * e->nkids);
	r = ev_kids(x, e, v);
	if (r)
		goto done;
	for (i = 0; i < e->nkids; i++) {
		if ((r = as_int(x, &v[i], &a)) < 0)
			goto done;
		if (i == 0) {
			acc = a;
			continue;
		}
		switch (e->op) {
		case EO_SUM:
			if (__builtin_add_overflow(acc, a, &acc))
				r = overflow(x);
			break;
		case EO_MUL:
			if (__builtin_mul_overflow(acc, a, &acc))
				r = overflow(x);
			break;
		case EO_SUB:
			if (__builtin_sub_overflow(acc, a, &acc))
				r = overflow(x);
			break;
		case EO_DIV:
		case EO_MOD:
			if (a == 0 || (acc == LLONG_MIN && a == -1)) {
				r = type_error(x, "division by zero");
				break;
			}
			acc = e->op == EO_DIV ? floordiv(acc, a) : acc - floordiv(acc, a) * a;
			break;
		default:
			r = type_error(x, "internal: arithmetic");
		}
		if (r < 0)
			goto done;
	}
	set_int(out, acc);
done:
	if (v != vals)
		free(v);
	return r;
}

static int ipow(struct ev *x, long long b, int n, long long *out)
{
	long long acc = 1;

	while (n-- > 0)
		if (__builtin_mul_overflow(acc, b, &acc))
			return overflow(x);
	*out = acc;
	return 0;
}

static int ev(struct ev *x, const struct catalog_expr *e, struct catalog_value *out)
{
	struct catalog_value a, b;
	int r = 0, t;

	memset(out, 0, sizeof *out);
	if (++x->depth > EVAL_DEPTH) {
		x->depth--;
		return type_error(x, "expression too deep (a var refers to itself?)");
	}
	switch (e->op) {
	case EO_LIT:
		*out = e->lit;
		r = 0;
		break;
	case EO_NEW:
		*out = e->lit;
		r = 0;
		break;
	case EO_PARAM:
		r = param_value(x, x->c->params, x->c->nparams, x->env ? x->env->args : NULL, e->name,
		                e->name, out);
		break;
	case EO_VAR:
		r = ev(x, x->c->var_exprs[e->n], out);
		break;
	case EO_DOTTED:
		r = param_value(x, x->c->params, x->c->nparams, x->env ? x->env->args : NULL, e->head,
		                e->name, &a);
		if (r)
			break;
		if (a.type != CATALOG_MODULE) {
			r = unknown(x, e->name);
			break;
		} else {
			const struct catalog_class *sub = catalog_class(x->c->cat, a.s);

			if (!sub && !find_arg(a.args, e->tail))
				r = unknown(x, e->name);
			else
				r = param_value(x, sub ? sub->params : NULL, sub ? sub->nparams : 0, a.args,
				                e->tail, e->name, out);
		}
		break;
	case EO_FWD:
		r = fwd_value(x, e->name, out);
		break;
	case EO_RANK:
	case EO_SIZE:
	case EO_DTYPE:
		r = fwd_value(x, e->name, &a);
		if (r)
			break;
		if (a.type != CATALOG_TENSOR) {
			r = unknown(x, e->name);
			break;
		}
		if (e->op == EO_DTYPE) {
			if (!a.dtype) {
				r = unknown(x, e->name);
				break;
			}
			out->type = CATALOG_STR;
			out->s = a.dtype;
			break;
		}
		if (a.i < 0) {
			r = unknown(x, e->name);
			break;
		}
		if (e->op == EO_RANK) {
			set_int(out, a.i);
			break;
		}
		{
			long long idx;

			r = ev(x, e->kids[0], &b);
			if (r || (r = as_int(x, &b, &idx)) < 0)
				break;
			if (idx < 0)
				idx += a.i;
			if (idx < 0 || idx >= a.i)
				r = type_error(x, "dimension index out of range");
			else if (!a.items || a.items[idx] < 0)
				r = unknown(x, e->name);
			else
				set_int(out, a.items[idx]);
		}
		break;
	case EO_SAME:
		if ((r = fwd_value(x, e->name, &a)) || (r = fwd_value(x, e->name2, &b)))
			break;
		if (a.type == CATALOG_TENSOR && b.type == CATALOG_TENSOR && a.s && b.s)
			set_bool(out, !strcmp(a.s, b.s));
		else if (a.type == CATALOG_NONE && b.type == CATALOG_NONE)
			set_bool(out, 1);
		else
			r = unknown(x, a.type == CATALOG_TENSOR && a.s ? e->name2 : e->name);
		break;
	case EO_STATE: {
		int s = !x->env ? -1 : e->n == ST_TRAINING ? x->env->training :
		        e->n == ST_FIRST_CALL ? x->env->first_call : x->env->distributed;

		if (s < 0)
			r = unknown(x, e->name);
		else
			set_bool(out, s != 0);
		break;
	}
	case EO_NOT:
		r = ev(x, e->kids[0], &a);
		if (!r)
			set_bool(out, !truth(&a));
		break;
	case EO_AND:
	case EO_OR:
		r = ev_logic(x, e, out);
		break;
	case EO_ISNONE:
		r = ev(x, e->kids[0], &a);
		if (!r)
			set_bool(out, a.type == CATALOG_NONE);
		break;
	case EO_EQ:
	case EO_NE:
	case EO_LT:
	case EO_LE:
	case EO_GT:
	case EO_GE: {
		struct catalog_value v[2];

		r = ev_kids(x, e, v);
		if (r)
			break;
		if (e->op == EO_EQ || e->op == EO_NE) {
			set_bool(out, value_eq(&v[0], &v[1]) == (e->op == EO_EQ));
			break;
		}
		if (!is_num(&v[0]) || !is_num(&v[1])) {
			r = type_error(x, "an ordering comparison of non-numbers");
			break;
		}
		{
			double p = num(&v[0]), q = num(&v[1]);

			set_bool(out, e->op == EO_LT ? p < q : e->op == EO_LE ? p <= q :
			              e->op == EO_GT ? p > q : p >= q);
		}
		break;
	}
	case EO_IN: {
		size_t i;

		r = ev(x, e->kids[0], &a);
		if (r)
			break;
		t = 0;
		for (i = 1; i < e->nkids && !t; i++)
			t = value_eq(&a, &e->kids[i]->lit);
		set_bool(out, t);
		break;
	}
	case EO_SUM:
	case EO_MUL:
	case EO_SUB:
	case EO_DIV:
	case EO_MOD:
		r = ev_arith(x, e, out);
		break;
	case EO_IF:
		r = ev(x, e->kids[0], &a);
		if (!r)
			r = ev(x, e->kids[truth(&a) ? 1 : 2], out);
		break;
	case EO_PROD:
		r = ev(x, e->kids[0], &a);
		if (r)
			break;
		if (a.type == CATALOG_TUPLE) {
			long long acc = 1;
			size_t i;

			for (i = 0; i < a.n && r >= 0; i++)
				if (__builtin_mul_overflow(acc, a.items[i], &acc))
					r = overflow(x);
			if (r >= 0)
				set_int(out, acc);
		} else {
			long long base, p = 0;

			if ((r = as_int(x, &a, &base)) < 0 || (r = ipow(x, base, e->n, &p)) < 0)
				break;
			set_int(out, p);
		}
		break;
	case EO_CHILDREN:
		r = unknown(x, e->name);
		break;
	case EO_ISMODULE:
		r = param_value(x, x->c->params, x->c->nparams, x->env ? x->env->args : NULL, e->name,
		                e->name, &a);
		if (!r)
			set_bool(out, a.type == CATALOG_MODULE);
		break;
	default:
		r = type_error(x, "internal: unknown expression");
	}
	x->depth--;
	return r;
}

int catalog_eval(const struct catalog_class *c, const struct catalog_expr *e,
                 const struct catalog_env *env, struct catalog_value *out, const char **unknown_out)
{
	struct ev x = { c, env, unknown_out, 0 };

	if (unknown_out)
		*unknown_out = NULL;
	return ev(&x, e, out);
}

int catalog_when(const struct catalog_class *c, const struct catalog_expr *when,
                 const struct catalog_env *env, int *taken, const char **unknown_out)
{
	struct catalog_value v;
	int r;

	if (unknown_out)
		*unknown_out = NULL;
	if (!when) {
		*taken = 1;
		return 0;
	}
	r = catalog_eval(c, when, env, &v, unknown_out);
	if (r)
		return r;
	*taken = truth(&v);
	return 0;
}

int catalog_param_count(const struct catalog_class *c, const struct catalog_args *args,
                        long long *out, const char **unknown_out)
{
	struct catalog_env env = { args, NULL, -1, -1, -1 };
	struct catalog_value v;
	struct ev x = { c, &env, unknown_out, 0 };
	int r;

	if (unknown_out)
		*unknown_out = NULL;
	r = catalog_eval(c, c->count_expr, &env, &v, unknown_out);
	if (r)
		return r;
	return as_int(&x, &v, out) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ expression text */

static void text(const struct catalog_expr *e, buf_t *b, int paren);

static void text_list(const struct catalog_expr *e, buf_t *b, const char *sep, size_t from)
{
	size_t i;

	for (i = from; i < e->nkids; i++) {
		if (i > from)
			buf_addstr(b, sep);
		text(e->kids[i], b, 1);
	}
}

static void text_value(const struct catalog_value *v, buf_t *b)
{
	size_t i;

	switch (v->type) {
	case CATALOG_NONE: buf_addstr(b, "None"); break;
	case CATALOG_BOOL: buf_addstr(b, v->i ? "True" : "False"); break;
	case CATALOG_INT: buf_addf(b, "%lld", v->i); break;
	case CATALOG_FLOAT: buf_addf(b, "%.17g", v->f); break;
	case CATALOG_STR: buf_addf(b, "'%s'", v->s); break;
	case CATALOG_CALLABLE:
	case CATALOG_MODULE: buf_addstr(b, v->s); break;
	case CATALOG_TUPLE:
		buf_addch(b, '(');
		for (i = 0; i < v->n; i++)
			buf_addf(b, "%s%lld", i ? ", " : "", v->items[i]);
		buf_addstr(b, v->n == 1 ? ",)" : ")");
		break;
	default: buf_addstr(b, "..."); break;
	}
}

static void text(const struct catalog_expr *e, buf_t *b, int paren)
{
	static const char *const cmp[] = { " == ", " != ", " < ", " <= ", " > ", " >= " };
	int p = 0;

	switch (e->op) {
	case EO_LIT:
		text_value(&e->lit, b);
		return;
	case EO_PARAM:
	case EO_VAR:
	case EO_DOTTED:
	case EO_CHILDREN:
		buf_addf(b, "self.%s", e->name);
		return;
	case EO_ISMODULE:
		buf_addf(b, "isinstance(self.%s, Module)", e->name);
		return;
	case EO_FWD:
		buf_addstr(b, e->name);
		return;
	case EO_RANK:
		buf_addf(b, "%s.dim()", e->name);
		return;
	case EO_SIZE:
		buf_addf(b, "%s.size(", e->name);
		text(e->kids[0], b, 0);
		buf_addch(b, ')');
		return;
	case EO_DTYPE:
		buf_addf(b, "%s.dtype", e->name);
		return;
	case EO_STATE:
		buf_addstr(b, e->n == ST_TRAINING ? "self.training" : e->n == ST_FIRST_CALL ?
		              "<first call>" : "<world size > 1>");
		return;
	case EO_NEW:
		buf_addf(b, "%s(...)", e->name);
		return;
	default:
		break;
	}
	p = paren && e->op != EO_PROD;
	if (p)
		buf_addch(b, '(');
	switch (e->op) {
	case EO_SAME:
		buf_addf(b, "%s is %s", e->name, e->name2);
		break;
	case EO_NOT:
		buf_addstr(b, "not ");
		text(e->kids[0], b, 1);
		break;
	case EO_AND:
		text_list(e, b, " and ", 0);
		break;
	case EO_OR:
		text_list(e, b, " or ", 0);
		break;
	case EO_ISNONE:
		text(e->kids[0], b, 1);
		buf_addstr(b, " is None");
		break;
	case EO_EQ: case EO_NE: case EO_LT: case EO_LE: case EO_GT: case EO_GE:
		text(e->kids[0], b, 1);
		buf_addstr(b, cmp[e->op - EO_EQ]);
		text(e->kids[1], b, 1);
		break;
	case EO_IN:
		text(e->kids[0], b, 1);
		buf_addstr(b, " in (");
		text_list(e, b, ", ", 1);
		buf_addch(b, ')');
		break;
	case EO_SUM: text_list(e, b, " + ", 0); break;
	case EO_MUL: text_list(e, b, " * ", 0); break;
	case EO_SUB: text_list(e, b, " - ", 0); break;
	case EO_DIV: text_list(e, b, " // ", 0); break;
	case EO_MOD: text_list(e, b, " % ", 0); break;
	case EO_IF:
		text(e->kids[1], b, 1);
		buf_addstr(b, " if ");
		text(e->kids[0], b, 1);
		buf_addstr(b, " else ");
		text(e->kids[2], b, 1);
		break;
	case EO_PROD:
		buf_addstr(b, "prod(");
		text(e->kids[0], b, 0);
		if (e->n > 1)
			buf_addf(b, ", dims=%d", e->n);
		buf_addch(b, ')');
		break;
	default:
		buf_addstr(b, "?");
	}
	if (p)
		buf_addch(b, ')');
}

void catalog_expr_text(const struct catalog_expr *e, buf_t *out)
{
	text(e, out, 0);
}

/* ------------------------------------------------------------------ shapes */

const char *catalog_shape_input(const struct catalog_class *c)
{
	const struct catalog_shape *s = c->shape;

	if (!s || !c->forward || !c->nforward)
		return NULL;
	while (s && s->kind == SR_IF)
		s = s->then ? s->then : s->els;
	if (s && s->of)
		return s->of;
	return c->forward[0].name;
}

static const struct catalog_dim UNKNOWN_DIM = { -1, NULL };

static int known(const struct catalog_dim *d)
{
	return d->n >= 0;
}

/* Element i of an int-or-tuple value meant for n spatial dims. */
static int tup_at(struct ev *x, const struct catalog_value *v, int i, int n, long long *out)
{
	if (v->type == CATALOG_TUPLE) {
		if (v->n == (size_t)n)
			*out = v->items[i];
		else if (v->n == 1)
			*out = v->items[0];
		else
			return type_error(x, "a tuple of the wrong length in a shape rule");
		return 0;
	}
	return as_int(x, v, out);
}

static int shape_expr(struct ev *x, const struct catalog_expr *e, struct catalog_value *v)
{
	if (!e) {
		memset(v, 0, sizeof *v);
		v->type = CATALOG_NONE;
		return 0;
	}
	return ev(x, e, v);
}

static long long ceil_div(long long a, long long b)
{
	return -floordiv(-a, b);
}

static int apply_rule(struct ev *x, const struct catalog_shape *s, const struct catalog_dim *in,
                      size_t nin, struct catalog_dim *out, size_t cap, size_t *nout)
{
	struct catalog_value v, w;
	long long d, k;
	size_t i, n;
	int r;

	if (!s)
		return unknown(x, "shape");
	if (s->kind == SR_IF) {
		if ((r = ev(x, s->cond, &v)))
			return r;
		return apply_rule(x, truth(&v) ? s->then : s->els, in, nin, out, cap, nout);
	}
	if (nin > cap)
		return type_error(x, "shape buffer too small");
	memcpy(out, in, nin * sizeof *in);
	*nout = nin;
	switch (s->kind) {
	case SR_SAME:
		return 0;
	case SR_SCALAR:
		*nout = 0;
		return 0;
	case SR_LAST:
	case SR_APPEND:
		if ((r = ev(x, s->dim, &v)) || (r = as_int(x, &v, &d)) < 0)
			return r;
		if (s->kind == SR_LAST) {
			if (!nin)
				return type_error(x, "a shape rule on a 0-dim input");
			out[nin - 1].n = d;
			out[nin - 1].sym = NULL;
			return 0;
		}
		if (nin + 1 > cap)
			return type_error(x, "shape buffer too small");
		out[nin].n = d;
		out[nin].sym = NULL;
		*nout = nin + 1;
		return 0;
	case SR_HALVE:
	case SR_DROP:
		if ((r = ev(x, s->dim, &v)) || (r = as_int(x, &v, &d)) < 0)
			return r;
		if (d < 0)
			d += (long long)nin;
		if (d < 0 || d >= (long long)nin)
			return type_error(x, "a dim out of range in a shape rule");
		if (s->kind == SR_HALVE) {
			out[d] = known(&in[d]) ? (struct catalog_dim){ in[d].n / 2, NULL } : UNKNOWN_DIM;
			return 0;
		}
		memmove(out + d, out + d + 1, (nin - (size_t)d - 1) * sizeof *out);
		*nout = nin - 1;
		return 0;
	case SR_FLATTEN: {
		long long a, z, prod = 1;
		int all = 1;

		if ((r = ev(x, s->start, &v)) || (r = as_int(x, &v, &a)) < 0 ||
		    (r = ev(x, s->end, &w)) || (r = as_int(x, &w, &z)) < 0)
			return r;
		if (!nin) {     /* flattening a 0-dim tensor gives one element */
			out[0] = (struct catalog_dim){ 1, NULL };
			*nout = 1;
			return 0;
		}
		if (a < 0)
			a += (long long)nin;
		if (z < 0)
			z += (long long)nin;
		if (a < 0 || z >= (long long)nin || a > z)
			return type_error(x, "flatten dims out of range");
		for (k = a; k <= z; k++) {
			if (!known(&in[k]) || __builtin_mul_overflow(prod, in[k].n, &prod))
				all = 0;
		}
		out[a] = all ? (struct catalog_dim){ prod, NULL } : a == z ? in[a] : UNKNOWN_DIM;
		memmove(out + a + 1, in + z + 1, (nin - (size_t)z - 1) * sizeof *out);
		*nout = nin - (size_t)(z - a);
		return 0;
	}
	case SR_UNFLATTEN:
		if ((r = ev(x, s->dim, &v)) || (r = as_int(x, &v, &d)) < 0 || (r = ev(x, s->sizes, &w)))
			return r;
		if (w.type != CATALOG_TUPLE)
			return unknown(x, "unflattened_size");
		if (d < 0)
			d += (long long)nin;
		if (d < 0 || d >= (long long)nin || nin - 1 + w.n > cap)
			return type_error(x, "unflatten out of range");
		memmove(out + d + w.n, in + d + 1, (nin - (size_t)d - 1) * sizeof *out);
		{
			long long rest = known(&in[d]) ? in[d].n : -1;
			size_t infer = w.n;

			for (i = 0; i < w.n; i++) {
				out[d + (long long)i] = (struct catalog_dim){ w.items[i], NULL };
				if (w.items[i] < 0)
					infer = i;
				else if (rest >= 0 && w.items[i])
					rest /= w.items[i];
			}
			if (infer < w.n)
				out[d + (long long)infer] = rest >= 0 ? (struct catalog_dim){ rest, NULL } : UNKNOWN_DIM;
		}
		*nout = nin - 1 + w.n;
		return 0;
	case SR_PIXEL_SHUFFLE:
	case SR_PIXEL_UNSHUFFLE:
		if ((r = ev(x, s->factor, &v)) || (r = as_int(x, &v, &k)) < 0)
			return r;
		if (nin < 3 || k <= 0)
			return type_error(x, "pixel shuffle of fewer than 3 dims");
		{
			struct catalog_dim *c = &out[nin - 3], *h = &out[nin - 2], *wd = &out[nin - 1];
			int up = s->kind == SR_PIXEL_SHUFFLE;

			*c = known(c) ? (struct catalog_dim){ up ? c->n / (k * k) : c->n * k * k, NULL } : UNKNOWN_DIM;
			*h = known(h) ? (struct catalog_dim){ up ? h->n * k : h->n / k, NULL } : UNKNOWN_DIM;
			*wd = known(wd) ? (struct catalog_dim){ up ? wd->n * k : wd->n / k, NULL } : UNKNOWN_DIM;
		}
		return 0;
	default:
		break;
	}
	/* spatial rules: the last n dims */
	n = s->kind == SR_INTERPOLATE ? (nin >= 2 ? nin - 2 : 0) : (size_t)s->dims;
	if (nin < n || !n)
		return type_error(x, "a spatial shape rule on too few dims");
	if (s->kind == SR_CONV || s->kind == SR_CONV_SAME) {
		if (s->channels) {
			if (nin < n + 1)
				return type_error(x, "a conv shape rule without a channel dim");
			if ((r = ev(x, s->channels, &v)) || (r = as_int(x, &v, &d)) < 0)
				return r;
			out[nin - n - 1] = (struct catalog_dim){ d, NULL };
		}
		if (s->kind == SR_CONV_SAME)
			return 0;
	}
	for (i = 0; i < n; i++) {
		struct catalog_dim *o = &out[nin - n + i];
		const struct catalog_dim *L = &in[nin - n + i];
		int ii = (int)i, nn = (int)n;

		switch (s->kind) {
		case SR_CONV: {
			struct catalog_value kv, sv, pv, dv, cv, ov;
			long long ks, st, pd, dl, op = 0, res;

			if ((r = ev(x, s->kernel, &kv)) || (r = ev(x, s->stride, &sv)) ||
			    (r = ev(x, s->padding, &pv)) || (r = ev(x, s->dilation, &dv)) ||
			    (r = shape_expr(x, s->ceil, &cv)) || (r = shape_expr(x, s->output_padding, &ov)))
				return r;
			if (tup_at(x, &kv, ii, nn, &ks) < 0 || tup_at(x, &sv, ii, nn, &st) < 0 ||
			    tup_at(x, &pv, ii, nn, &pd) < 0 || tup_at(x, &dv, ii, nn, &dl) < 0 ||
			    (s->transposed && tup_at(x, &ov, ii, nn, &op) < 0))
				return -1;
			if (st <= 0)
				return type_error(x, "a stride <= 0");
			if (!known(L)) {
				*o = UNKNOWN_DIM;
				break;
			}
			if (s->transposed) {
				res = (L->n - 1) * st - 2 * pd + dl * (ks - 1) + op + 1;
			} else {
				long long num = L->n + 2 * pd - dl * (ks - 1) - 1;

				if (truth(&cv) == 1) {
					res = ceil_div(num, st) + 1;
					if ((res - 1) * st >= L->n + pd)
						res--;
				} else {
					res = floordiv(num, st) + 1;
				}
			}
			*o = (struct catalog_dim){ res, NULL };
			break;
		}
		case SR_ADAPTIVE:
			if ((r = ev(x, s->size, &v)))
				return r;
			if (v.type == CATALOG_NONE)
				break;
			if (tup_at(x, &v, ii, nn, &d) < 0)
				return -1;
			*o = (struct catalog_dim){ d, NULL };
			break;
		case SR_PAD:
			if ((r = ev(x, s->padding, &v)))
				return r;
			{
				long long lo, hi;

				if (v.type == CATALOG_TUPLE) {
					size_t at = 2 * (n - 1 - i);

					if (v.n != 2 * n)
						return type_error(x, "a padding tuple of the wrong length");
					lo = v.items[at];
					hi = v.items[at + 1];
				} else if (as_int(x, &v, &lo) < 0) {
					return -1;
				} else {
					hi = lo;
				}
				*o = known(L) ? (struct catalog_dim){ L->n + lo + hi, NULL } : UNKNOWN_DIM;
			}
			break;
		case SR_INTERPOLATE:
			r = param_value(x, x->c->params, x->c->nparams, x->env ? x->env->args : NULL, "size",
			                "size", &v);
			if (r)
				return r;
			if (v.type != CATALOG_NONE) {
				if (tup_at(x, &v, ii, nn, &d) < 0)
					return -1;
				*o = (struct catalog_dim){ d, NULL };
				break;
			}
			r = param_value(x, x->c->params, x->c->nparams, x->env ? x->env->args : NULL,
			                "scale_factor", "scale_factor", &w);
			if (r)
				return r;
			if (!known(L)) {
				*o = UNKNOWN_DIM;
			} else if (w.type == CATALOG_FLOAT) {
				*o = (struct catalog_dim){ (long long)floor((double)L->n * w.f), NULL };
			} else if (w.type == CATALOG_INT || w.type == CATALOG_TUPLE) {
				if (tup_at(x, &w, ii, nn, &d) < 0)
					return -1;
				*o = (struct catalog_dim){ L->n * d, NULL };
			} else {
				return unknown(x, "scale_factor");
			}
			break;
		default:
			return type_error(x, "internal: shape rule");
		}
	}
	return 0;
}

int catalog_out_shape(const struct catalog_class *c, const struct catalog_env *env,
                      const struct catalog_dim *in, size_t nin,
                      struct catalog_dim *out, size_t cap, size_t *nout, const char **unknown_out)
{
	struct ev x = { c, env, unknown_out, 0 };

	if (unknown_out)
		*unknown_out = NULL;
	*nout = 0;
	return apply_rule(&x, c->shape, in, nin, out, cap, nout);
}
