/* ast.h - a plain-C copy of a Python 3.11 AST, owned by a per-file arena.
 *
 * astconv_module() copies the `ast.Module` that pyast_parse() returned into
 * C structs, so that the Python tree can be dropped right away (holding
 * Python ASTs alive is the memory and GC trap of architecture.md).  The
 * analysis passes read only this copy; it needs no interpreter to be read.
 *
 * Shape.  One struct per concrete class of the 3.11 grammar (Parser/
 * Python.asdl), named `struct ast_<Class>`, with the members named exactly
 * like the class's `_fields` and in the same order.  Every node starts with
 * `struct ast_hdr h` and is reached through a `struct ast_hdr *`; AST_IS()
 * tests its kind and AST_AS() downcasts (asserting the kind).
 *
 *   ast_expr, ast_stmt, ast_pattern, ast_excepthandler, ast_type_ignore are
 *   all `struct ast_hdr` (the abstract classes; documentation only).
 *   A field of a concrete class type (FunctionDef.args, arguments.vararg)
 *   points to that struct directly.
 *   `X*` fields are struct ast_list { n, items } (items NULL when n == 0);
 *   `identifier*` fields are struct ast_strlist; Compare.ops is a
 *   struct ast_cmplist.
 *   `X?` fields are NULL when Python has None.  Lists never hold NULL,
 *   except Dict.keys (None for a `**d` entry) and arguments.kw_defaults
 *   (None for a keyword-only argument without default).
 *   Operators, boolean and unary operators, comparison operators and
 *   expression contexts are small enums, not nodes.
 *   identifier and string fields are NUL-terminated UTF-8 in the arena,
 *   one copy per distinct Python str object: the parser interns
 *   identifiers, so equal identifiers of one file usually share a pointer
 *   (compare with strcmp() all the same).  String constants: see
 *   struct ast_const.
 *
 * Positions (struct ast_hdr) are Python's, kept raw: line and end_line are
 * 1-based; col and end_col are 0-based offsets in UTF-8 bytes (not
 * characters) from the start of the line, exactly as CPython's col_offset
 * and end_col_offset.  Kinds without `_attributes` in Python (Module,
 * comprehension, arguments, withitem, match_case, TypeIgnore) have all four
 * 0; ast_kind_has_pos() tells.  end_line/end_col are -1 if Python had None
 * there (never in parser output).
 *
 * Ownership.  Every node, list and string lives in the struct ast_arena
 * given to the converter; ast_arena_free() releases the whole tree.  Nothing
 * here refers to a Python object, and the tree is read-only after
 * conversion.
 *
 * Errors follow err.h: -1 after err_set().
 */
#ifndef ECG_AST_H
#define ECG_AST_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "ecg/util.h"

#include "ecg/arena.h"

/* ------------------------------------------------------------------ kinds */

/* X(class name), in the order of Python.asdl. */
#define AST_KINDS(X) \
	X(Module) \
	X(FunctionDef) X(AsyncFunctionDef) X(ClassDef) X(Return) X(Delete) \
	X(Assign) X(AugAssign) X(AnnAssign) X(For) X(AsyncFor) X(While) X(If) \
	X(With) X(AsyncWith) X(Match) X(Raise) X(Try) X(TryStar) X(Assert) \
	X(Import) X(ImportFrom) X(Global) X(Nonlocal) X(Expr) X(Pass) \
	X(Break) X(Continue) \
	X(BoolOp) X(NamedExpr) X(BinOp) X(UnaryOp) X(Lambda) X(IfExp) X(Dict) \
	X(Set) X(ListComp) X(SetComp) X(DictComp) X(GeneratorExp) X(Await) \
	X(Yield) X(YieldFrom) X(Compare) X(Call) X(FormattedValue) \
	X(JoinedStr) X(Constant) X(Attribute) X(Subscript) X(Starred) X(Name) \
	X(List) X(Tuple) X(Slice) \
	X(comprehension) X(ExceptHandler) X(arguments) X(arg) X(keyword) \
	X(alias) X(withitem) X(match_case) \
	X(MatchValue) X(MatchSingleton) X(MatchSequence) X(MatchMapping) \
	X(MatchClass) X(MatchStar) X(MatchAs) X(MatchOr) \
	X(TypeIgnore)

enum ast_kind {
	AST_INVALID = 0,       /* never in a converted tree */
#define AST_KIND_ENUM_(k) AST_##k,
	AST_KINDS(AST_KIND_ENUM_)
#undef AST_KIND_ENUM_
	AST_NKINDS
};

/* Ranges of the abstract classes. */
#define AST_STMT_FIRST AST_FunctionDef
#define AST_STMT_LAST AST_Continue
#define AST_EXPR_FIRST AST_BoolOp
#define AST_EXPR_LAST AST_Slice
#define AST_PATTERN_FIRST AST_MatchValue
#define AST_PATTERN_LAST AST_MatchOr

struct ast_hdr {
	enum ast_kind kind;
	int line, col, end_line, end_col;   /* see the top of this file */
};

typedef struct ast_hdr ast_expr;
typedef struct ast_hdr ast_stmt;
typedef struct ast_hdr ast_pattern;
typedef struct ast_hdr ast_excepthandler;
typedef struct ast_hdr ast_type_ignore;

static inline int ast_is_stmt(const struct ast_hdr *n)
{
	return n && n->kind >= AST_STMT_FIRST && n->kind <= AST_STMT_LAST;
}

static inline int ast_is_expr(const struct ast_hdr *n)
{
	return n && n->kind >= AST_EXPR_FIRST && n->kind <= AST_EXPR_LAST;
}

static inline int ast_is_pattern(const struct ast_hdr *n)
{
	return n && n->kind >= AST_PATTERN_FIRST && n->kind <= AST_PATTERN_LAST;
}

/* The checked downcast behind AST_AS(); NULL passes through. */
static inline struct ast_hdr *ast_check_kind_(const struct ast_hdr *n,
                                              enum ast_kind k)
{
	assert(!n || n->kind == k);
	(void)k;
	return (struct ast_hdr *)n;
}

/* AST_IS(n, Call): n is a non-NULL Call node.
 * AST_AS(n, Call): n as a struct ast_Call * (n may be NULL); asserts the
 * kind unless NDEBUG.  n is a struct ast_hdr *. */
#define AST_IS(n, K) ((n) != NULL && (n)->kind == AST_##K)
#define AST_AS(n, K) ((struct ast_##K *)ast_check_kind_((n), AST_##K))

/* ------------------------------------------------------------------ small types */

struct ast_list {
	unsigned n;
	struct ast_hdr **items;
};

struct ast_strlist {             /* identifier* */
	unsigned n;
	const char **items;
};

enum ast_operator {
	AST_OP_ADD = 1, AST_OP_SUB, AST_OP_MULT, AST_OP_MATMULT, AST_OP_DIV,
	AST_OP_MOD, AST_OP_POW, AST_OP_LSHIFT, AST_OP_RSHIFT, AST_OP_BITOR,
	AST_OP_BITXOR, AST_OP_BITAND, AST_OP_FLOORDIV
};

enum ast_boolop { AST_BOOL_AND = 1, AST_BOOL_OR };

enum ast_unaryop { AST_UNARY_INVERT = 1, AST_UNARY_NOT, AST_UNARY_UADD, AST_UNARY_USUB };

enum ast_cmpop {
	AST_CMP_EQ = 1, AST_CMP_NOTEQ, AST_CMP_LT, AST_CMP_LTE, AST_CMP_GT,
	AST_CMP_GTE, AST_CMP_IS, AST_CMP_ISNOT, AST_CMP_IN, AST_CMP_NOTIN
};

/* expr_context.  (AugLoad, AugStore and Param exist in `_ast` but the 3.11
 * parser never produces them; the converter refuses them.) */
enum ast_ctx { AST_CTX_LOAD = 1, AST_CTX_STORE, AST_CTX_DEL };

struct ast_cmplist {
	unsigned n;
	enum ast_cmpop *items;
};

/* The value of a Constant (or MatchSingleton: NONE, TRUE or FALSE only). */
enum ast_const_kind {
	AST_CONST_NONE = 1, AST_CONST_TRUE, AST_CONST_FALSE, AST_CONST_ELLIPSIS,
	AST_CONST_INT, AST_CONST_FLOAT, AST_CONST_COMPLEX, AST_CONST_STR,
	AST_CONST_BYTES
};

struct ast_const {
	enum ast_const_kind kind;
	/* INT: 1 when the value does not fit `i`; then `s` holds it as text:
	 * decimal digits, or "0x" and hexadecimal digits when CPython refuses
	 * the decimal conversion (more than sys.int_info.str_digits_check_
	 * threshold digits, 4300 by default).  Literals are never negative. */
	int big;
	union {
		int64_t i;            /* INT when !big */
		struct {
			double f;     /* FLOAT; COMPLEX: the real part (0.0 for a literal) */
			double imag;  /* COMPLEX: the imaginary part */
		};
		/* STR: UTF-8, NUL-terminated, may contain NUL (use len).  A
		 * lone surrogate (the literal '\ud800') is kept as its 3-byte
		 * "surrogatepass" encoding, so this is not always strictly
		 * valid UTF-8.  BYTES: the bytes, NUL-terminated, may contain
		 * NUL.  INT when big: the text above. */
		struct {
			const char *s;
			size_t len;
		};
	};
};

/* ------------------------------------------------------------------ nodes */

struct ast_arguments;
struct ast_arg;

struct ast_Module {
	struct ast_hdr h;
	struct ast_list body;             /* stmt* */
	struct ast_list type_ignores;     /* type_ignore* */
};

/* --- stmt */

struct ast_FunctionDef {
	struct ast_hdr h;
	const char *name;
	struct ast_arguments *args;
	struct ast_list body;             /* stmt* */
	struct ast_list decorator_list;   /* expr* */
	ast_expr *returns;                /* ? */
	const char *type_comment;         /* ? */
};

struct ast_AsyncFunctionDef {         /* same members as FunctionDef */
	struct ast_hdr h;
	const char *name;
	struct ast_arguments *args;
	struct ast_list body;
	struct ast_list decorator_list;
	ast_expr *returns;
	const char *type_comment;
};

struct ast_ClassDef {
	struct ast_hdr h;
	const char *name;
	struct ast_list bases;            /* expr* */
	struct ast_list keywords;         /* keyword* */
	struct ast_list body;             /* stmt* */
	struct ast_list decorator_list;   /* expr* */
};

struct ast_Return {
	struct ast_hdr h;
	ast_expr *value;                  /* ? */
};

struct ast_Delete {
	struct ast_hdr h;
	struct ast_list targets;          /* expr* */
};

struct ast_Assign {
	struct ast_hdr h;
	struct ast_list targets;          /* expr* */
	ast_expr *value;
	const char *type_comment;         /* ? */
};

struct ast_AugAssign {
	struct ast_hdr h;
	ast_expr *target;
	enum ast_operator op;
	ast_expr *value;
};

struct ast_AnnAssign {
	struct ast_hdr h;
	ast_expr *target;
	ast_expr *annotation;
	ast_expr *value;                  /* ? */
	int simple;
};

struct ast_For {
	struct ast_hdr h;
	ast_expr *target;
	ast_expr *iter;
	struct ast_list body;             /* stmt* */
	struct ast_list orelse;           /* stmt* */
	const char *type_comment;         /* ? */
};

struct ast_AsyncFor {                 /* same members as For */
	struct ast_hdr h;
	ast_expr *target;
	ast_expr *iter;
	struct ast_list body;
	struct ast_list orelse;
	const char *type_comment;
};

struct ast_While {
	struct ast_hdr h;
	ast_expr *test;
	struct ast_list body;             /* stmt* */
	struct ast_list orelse;           /* stmt* */
};

struct ast_If {
	struct ast_hdr h;
	ast_expr *test;
	struct ast_list body;             /* stmt* */
	struct ast_list orelse;           /* stmt* */
};

struct ast_With {
	struct ast_hdr h;
	struct ast_list items;            /* withitem* */
	struct ast_list body;             /* stmt* */
	const char *type_comment;         /* ? */
};

struct ast_AsyncWith {                /* same members as With */
	struct ast_hdr h;
	struct ast_list items;
	struct ast_list body;
	const char *type_comment;
};

struct ast_Match {
	struct ast_hdr h;
	ast_expr *subject;
	struct ast_list cases;            /* match_case* */
};

struct ast_Raise {
	struct ast_hdr h;
	ast_expr *exc;                    /* ? */
	ast_expr *cause;                  /* ? */
};

struct ast_Try {
	struct ast_hdr h;
	struct ast_list body;             /* stmt* */
	struct ast_list handlers;         /* excepthandler* */
	struct ast_list orelse;           /* stmt* */
	struct ast_list finalbody;        /* stmt* */
};

struct ast_TryStar {                  /* same members as Try */
	struct ast_hdr h;
	struct ast_list body;
	struct ast_list handlers;
	struct ast_list orelse;
	struct ast_list finalbody;
};

struct ast_Assert {
	struct ast_hdr h;
	ast_expr *test;
	ast_expr *msg;                    /* ? */
};

struct ast_Import {
	struct ast_hdr h;
	struct ast_list names;            /* alias* */
};

struct ast_ImportFrom {
	struct ast_hdr h;
	const char *module;               /* ? (NULL for `from . import x`) */
	struct ast_list names;            /* alias* */
	int level;                        /* int? in the grammar; -1 for None */
};

struct ast_Global {
	struct ast_hdr h;
	struct ast_strlist names;
};

struct ast_Nonlocal {
	struct ast_hdr h;
	struct ast_strlist names;
};

struct ast_Expr {
	struct ast_hdr h;
	ast_expr *value;
};

struct ast_Pass { struct ast_hdr h; };
struct ast_Break { struct ast_hdr h; };
struct ast_Continue { struct ast_hdr h; };

/* --- expr */

struct ast_BoolOp {
	struct ast_hdr h;
	enum ast_boolop op;
	struct ast_list values;           /* expr* */
};

struct ast_NamedExpr {
	struct ast_hdr h;
	ast_expr *target;
	ast_expr *value;
};

struct ast_BinOp {
	struct ast_hdr h;
	ast_expr *left;
	enum ast_operator op;
	ast_expr *right;
};

struct ast_UnaryOp {
	struct ast_hdr h;
	enum ast_unaryop op;
	ast_expr *operand;
};

struct ast_Lambda {
	struct ast_hdr h;
	struct ast_arguments *args;
	ast_expr *body;
};

struct ast_IfExp {
	struct ast_hdr h;
	ast_expr *test;
	ast_expr *body;
	ast_expr *orelse;
};

struct ast_Dict {
	struct ast_hdr h;
	struct ast_list keys;             /* expr*; an item is NULL for `**d` */
	struct ast_list values;           /* expr* */
};

struct ast_Set {
	struct ast_hdr h;
	struct ast_list elts;             /* expr* */
};

struct ast_ListComp {
	struct ast_hdr h;
	ast_expr *elt;
	struct ast_list generators;       /* comprehension* */
};

struct ast_SetComp {
	struct ast_hdr h;
	ast_expr *elt;
	struct ast_list generators;       /* comprehension* */
};

struct ast_DictComp {
	struct ast_hdr h;
	ast_expr *key;
	ast_expr *value;
	struct ast_list generators;       /* comprehension* */
};

struct ast_GeneratorExp {
	struct ast_hdr h;
	ast_expr *elt;
	struct ast_list generators;       /* comprehension* */
};

struct ast_Await {
	struct ast_hdr h;
	ast_expr *value;
};

struct ast_Yield {
	struct ast_hdr h;
	ast_expr *value;                  /* ? */
};

struct ast_YieldFrom {
	struct ast_hdr h;
	ast_expr *value;
};

struct ast_Compare {
	struct ast_hdr h;
	ast_expr *left;
	struct ast_cmplist ops;
	struct ast_list comparators;      /* expr*, ops.n of them */
};

struct ast_Call {
	struct ast_hdr h;
	ast_expr *func;
	struct ast_list args;             /* expr* */
	struct ast_list keywords;         /* keyword* */
};

struct ast_FormattedValue {
	struct ast_hdr h;
	ast_expr *value;
	int conversion;                   /* -1, or 's', 'r', 'a' */
	ast_expr *format_spec;            /* ? (a JoinedStr) */
};

struct ast_JoinedStr {
	struct ast_hdr h;
	struct ast_list values;           /* expr* (Constant, FormattedValue) */
};

struct ast_Constant {
	struct ast_hdr h;
	struct ast_const value;
	const char *kind;                 /* ? "u" for a u'' literal */
};

struct ast_Attribute {
	struct ast_hdr h;
	ast_expr *value;
	const char *attr;
	enum ast_ctx ctx;
};

struct ast_Subscript {
	struct ast_hdr h;
	ast_expr *value;
	ast_expr *slice;
	enum ast_ctx ctx;
};

struct ast_Starred {
	struct ast_hdr h;
	ast_expr *value;
	enum ast_ctx ctx;
};

struct ast_Name {
	struct ast_hdr h;
	const char *id;
	enum ast_ctx ctx;
};

struct ast_List {
	struct ast_hdr h;
	struct ast_list elts;             /* expr* */
	enum ast_ctx ctx;
};

struct ast_Tuple {
	struct ast_hdr h;
	struct ast_list elts;             /* expr* */
	enum ast_ctx ctx;
};

struct ast_Slice {
	struct ast_hdr h;
	ast_expr *lower;                  /* ? */
	ast_expr *upper;                  /* ? */
	ast_expr *step;                   /* ? */
};

/* --- the rest */

struct ast_comprehension {            /* no position */
	struct ast_hdr h;
	ast_expr *target;
	ast_expr *iter;
	struct ast_list ifs;              /* expr* */
	int is_async;
};

struct ast_ExceptHandler {
	struct ast_hdr h;
	ast_expr *type;                   /* ? */
	const char *name;                 /* ? */
	struct ast_list body;             /* stmt* */
};

struct ast_arguments {                /* no position */
	struct ast_hdr h;
	struct ast_list posonlyargs;      /* arg* */
	struct ast_list args;             /* arg* */
	struct ast_arg *vararg;           /* ? */
	struct ast_list kwonlyargs;       /* arg* */
	struct ast_list kw_defaults;      /* expr*, NULL items: no default */
	struct ast_arg *kwarg;            /* ? */
	struct ast_list defaults;         /* expr*, for the last positionals */
};

struct ast_arg {
	struct ast_hdr h;
	const char *arg;
	ast_expr *annotation;             /* ? */
	const char *type_comment;         /* ? */
};

struct ast_keyword {
	struct ast_hdr h;
	const char *arg;                  /* ? (NULL for **kwargs) */
	ast_expr *value;
};

struct ast_alias {
	struct ast_hdr h;
	const char *name;                 /* dotted, or "*" */
	const char *asname;               /* ? */
};

struct ast_withitem {                 /* no position */
	struct ast_hdr h;
	ast_expr *context_expr;
	ast_expr *optional_vars;          /* ? */
};

struct ast_match_case {               /* no position */
	struct ast_hdr h;
	ast_pattern *pattern;
	ast_expr *guard;                  /* ? */
	struct ast_list body;             /* stmt* */
};

/* --- pattern */

struct ast_MatchValue {
	struct ast_hdr h;
	ast_expr *value;
};

struct ast_MatchSingleton {
	struct ast_hdr h;
	struct ast_const value;           /* NONE, TRUE or FALSE */
};

struct ast_MatchSequence {
	struct ast_hdr h;
	struct ast_list patterns;         /* pattern* */
};

struct ast_MatchMapping {
	struct ast_hdr h;
	struct ast_list keys;             /* expr* */
	struct ast_list patterns;         /* pattern* */
	const char *rest;                 /* ? */
};

struct ast_MatchClass {
	struct ast_hdr h;
	ast_expr *cls;
	struct ast_list patterns;         /* pattern* */
	struct ast_strlist kwd_attrs;
	struct ast_list kwd_patterns;     /* pattern* */
};

struct ast_MatchStar {
	struct ast_hdr h;
	const char *name;                 /* ? */
};

struct ast_MatchAs {
	struct ast_hdr h;
	ast_pattern *pattern;             /* ? */
	const char *name;                 /* ? (NULL for `_`) */
};

struct ast_MatchOr {
	struct ast_hdr h;
	struct ast_list patterns;         /* pattern* */
};

/* --- type_ignore (only with type comments, which ecg does not ask for) */

struct ast_TypeIgnore {               /* no position: lineno is a field */
	struct ast_hdr h;
	int lineno;
	const char *tag;
};

/* ------------------------------------------------------------------ field tables */

/* How a member is stored (the generic converter, dumper and visitor). */
enum ast_ftype {
	AST_F_NODE = 1,   /* struct ast_hdr * (or a concrete node pointer) */
	AST_F_OPTNODE,    /* the same, NULL for None */
	AST_F_LIST,       /* struct ast_list */
	AST_F_STR,        /* const char * (identifier or string) */
	AST_F_OPTSTR,     /* const char *, NULL for None */
	AST_F_STRLIST,    /* struct ast_strlist */
	AST_F_INT,        /* int */
	AST_F_OPTINT,     /* int, -1 for None */
	AST_F_CONST,      /* struct ast_const */
	AST_F_OPERATOR,   /* enum ast_operator */
	AST_F_BOOLOP,     /* enum ast_boolop */
	AST_F_UNARYOP,    /* enum ast_unaryop */
	AST_F_CTX,        /* enum ast_ctx */
	AST_F_CMPLIST     /* struct ast_cmplist */
};

/* What a node-valued field may hold. */
enum ast_cat {
	AST_CAT_NONE = 0, AST_CAT_MOD, AST_CAT_STMT, AST_CAT_EXPR,
	AST_CAT_PATTERN, AST_CAT_EXCEPTHANDLER, AST_CAT_TYPE_IGNORE,
	AST_CAT_COMPREHENSION, AST_CAT_ARGUMENTS, AST_CAT_ARG, AST_CAT_KEYWORD,
	AST_CAT_ALIAS, AST_CAT_WITHITEM, AST_CAT_MATCH_CASE
};

struct ast_field {
	const char *name;            /* as in Python's _fields */
	unsigned char type;          /* enum ast_ftype */
	unsigned char cat;           /* enum ast_cat for node(-list) fields */
	unsigned char null_items;    /* AST_F_LIST: items may be NULL */
	unsigned short offset;       /* in the node struct */
};

struct ast_kind_info {
	const char *name;            /* the Python class name */
	unsigned short size;         /* of the node struct */
	unsigned char cat;           /* enum ast_cat of the kind */
	unsigned char has_pos;       /* the class has _attributes */
	unsigned char nfields;
	const struct ast_field *fields;
};

/* Static description of a kind (kind must be valid). */
const struct ast_kind_info *ast_kind_info(enum ast_kind kind);

/* "Call"; "?" for an invalid kind. */
const char *ast_kind_name(enum ast_kind kind);

static inline int ast_kind_has_pos(enum ast_kind kind)
{
	return ast_kind_info(kind)->has_pos;
}

/* Python's class names: "Add", "And", "Not", "Eq", "Load" ("?" if invalid). */
const char *ast_operator_name(enum ast_operator op);
const char *ast_boolop_name(enum ast_boolop op);
const char *ast_unaryop_name(enum ast_unaryop op);
const char *ast_cmpop_name(enum ast_cmpop op);
const char *ast_ctx_name(enum ast_ctx ctx);

/* ------------------------------------------------------------------ helpers */

/* Append "a.b.c" to out for a Name or an Attribute chain ending in a Name,
 * and return 0.  Anything else (a call, a subscript in the chain, NULL)
 * returns -1 with out unchanged; no error is set: this is a question. */
int ast_dotted_name(const struct ast_hdr *expr, buf_t *out);

/* Call cb(child, ctx) on each direct child node of `node`, in field order
 * (list items in order, NULL items and absent optional children skipped).
 * A non-zero return from cb stops the walk and is returned; else 0. */
typedef int (*ast_visit_fn)(const struct ast_hdr *child, void *ctx);
int ast_visit_children(const struct ast_hdr *node, ast_visit_fn cb, void *ctx);

/* ------------------------------------------------------------------ astconv.c */

/* The Python side, declared without <Python.h>: struct _object is
 * PyObject. */
struct _object;

/* Deepest nesting the converter follows (nodes from the Module down).
 * CPython 3.11 itself refuses trees deeper than about 3,000 at the default
 * recursion limit ("maximum recursion depth exceeded during ast
 * construction"), so this is only reached by trees built with a raised
 * sys.setrecursionlimit() or by hand.  It also bounds what a recursive
 * pass over the C tree must budget for: a level of the converter takes
 * 128 bytes of stack (-O2), 240 with AddressSanitizer, ~450 with ASan at
 * -O0; 10,000 levels stay well inside an 8 MiB stack in every build,
 * 20,000 would not at -O0 with ASan. */
#define ASTCONV_MAX_DEPTH 10000

/* Copy the ast.Module `module` (as returned by pyast_parse(); borrowed,
 * left untouched) into a tree allocated in `a`, and set *out to its root.
 * The Python tree may be dropped afterwards.
 * Returns 0, or -1 with err_set() and no Python exception pending:
 * ECG_EXIT_INPUT when the tree is nested deeper than ASTCONV_MAX_DEPTH
 * (the message names the line; a per-file problem), ECG_EXIT_INTERNAL for
 * anything else (an object the 3.11 grammar does not produce, a Python
 * failure).  On failure *out is NULL and what was allocated stays in `a`.
 * Requires pyrt_init() and the GIL.  The first call looks up the `_ast`
 * classes and interns the field names; see astconv_fini(). */
int astconv_module(struct _object *module, struct ast_arena *a,
                   struct ast_Module **out);

/* Release the class and field-name references the converter holds.  Call
 * before Py_Finalize() (pyrt_fini()); the next astconv_module() sets them
 * up again.  Safe to call when the converter was never used. */
void astconv_fini(void);

/* ------------------------------------------------------------------ astdump.c */

/* Append exactly what Python 3.11's ast.dump(node, include_attributes=True)
 * prints for the node the tree was converted from (annotate_fields=True, no
 * indent).  Big ints kept in hexadecimal (see struct ast_const) are printed
 * as that hex text, where Python's dump would raise. */
void astdump(const struct ast_hdr *node, buf_t *out);

/* Append repr() of a constant value, as Python 3.11 prints it. */
void astdump_const(const struct ast_const *c, buf_t *out);

#endif
