/* ast.c - see include/ecg/ast.h: the field tables and the small
 * helpers.  The converter (astconv.c), the dumper (astdump.c) and
 * ast_visit_children() are all driven by the tables here, so that the field
 * list of each class is written down exactly once; tests/unit/test_astconv.c
 * checks them against the `_fields` of the running interpreter.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ecg/ast.h"
#include "ecg/util.h"

/* ------------------------------------------------------------------ field tables */

#define NELEM(x) (sizeof(x) / sizeof((x)[0]))

/* F(class, field, type, category): one member of struct ast_<class>. */
#define F(K, name, type, cat) \
	{ #name, AST_F_##type, AST_CAT_##cat, 0, offsetof(struct ast_##K, name) }
/* A list whose items may be None. */
#define FN(K, name, cat) \
	{ #name, AST_F_LIST, AST_CAT_##cat, 1, offsetof(struct ast_##K, name) }

static const struct ast_field f_Module[] = {
	F(Module, body, LIST, STMT),
	F(Module, type_ignores, LIST, TYPE_IGNORE),
};

static const struct ast_field f_FunctionDef[] = {
	F(FunctionDef, name, STR, NONE),
	F(FunctionDef, args, NODE, ARGUMENTS),
	F(FunctionDef, body, LIST, STMT),
	F(FunctionDef, decorator_list, LIST, EXPR),
	F(FunctionDef, returns, OPTNODE, EXPR),
	F(FunctionDef, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_AsyncFunctionDef[] = {
	F(AsyncFunctionDef, name, STR, NONE),
	F(AsyncFunctionDef, args, NODE, ARGUMENTS),
	F(AsyncFunctionDef, body, LIST, STMT),
	F(AsyncFunctionDef, decorator_list, LIST, EXPR),
	F(AsyncFunctionDef, returns, OPTNODE, EXPR),
	F(AsyncFunctionDef, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_ClassDef[] = {
	F(ClassDef, name, STR, NONE),
	F(ClassDef, bases, LIST, EXPR),
	F(ClassDef, keywords, LIST, KEYWORD),
	F(ClassDef, body, LIST, STMT),
	F(ClassDef, decorator_list, LIST, EXPR),
};

static const struct ast_field f_Return[] = {
	F(Return, value, OPTNODE, EXPR),
};

static const struct ast_field f_Delete[] = {
	F(Delete, targets, LIST, EXPR),
};

static const struct ast_field f_Assign[] = {
	F(Assign, targets, LIST, EXPR),
	F(Assign, value, NODE, EXPR),
	F(Assign, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_AugAssign[] = {
	F(AugAssign, target, NODE, EXPR),
	F(AugAssign, op, OPERATOR, NONE),
	F(AugAssign, value, NODE, EXPR),
};

static const struct ast_field f_AnnAssign[] = {
	F(AnnAssign, target, NODE, EXPR),
	F(AnnAssign, annotation, NODE, EXPR),
	F(AnnAssign, value, OPTNODE, EXPR),
	F(AnnAssign, simple, INT, NONE),
};

static const struct ast_field f_For[] = {
	F(For, target, NODE, EXPR),
	F(For, iter, NODE, EXPR),
	F(For, body, LIST, STMT),
	F(For, orelse, LIST, STMT),
	F(For, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_AsyncFor[] = {
	F(AsyncFor, target, NODE, EXPR),
	F(AsyncFor, iter, NODE, EXPR),
	F(AsyncFor, body, LIST, STMT),
	F(AsyncFor, orelse, LIST, STMT),
	F(AsyncFor, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_While[] = {
	F(While, test, NODE, EXPR),
	F(While, body, LIST, STMT),
	F(While, orelse, LIST, STMT),
};

static const struct ast_field f_If[] = {
	F(If, test, NODE, EXPR),
	F(If, body, LIST, STMT),
	F(If, orelse, LIST, STMT),
};

static const struct ast_field f_With[] = {
	F(With, items, LIST, WITHITEM),
	F(With, body, LIST, STMT),
	F(With, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_AsyncWith[] = {
	F(AsyncWith, items, LIST, WITHITEM),
	F(AsyncWith, body, LIST, STMT),
	F(AsyncWith, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_Match[] = {
	F(Match, subject, NODE, EXPR),
	F(Match, cases, LIST, MATCH_CASE),
};

static const struct ast_field f_Raise[] = {
	F(Raise, exc, OPTNODE, EXPR),
	F(Raise, cause, OPTNODE, EXPR),
};

static const struct ast_field f_Try[] = {
	F(Try, body, LIST, STMT),
	F(Try, handlers, LIST, EXCEPTHANDLER),
	F(Try, orelse, LIST, STMT),
	F(Try, finalbody, LIST, STMT),
};

static const struct ast_field f_TryStar[] = {
	F(TryStar, body, LIST, STMT),
	F(TryStar, handlers, LIST, EXCEPTHANDLER),
	F(TryStar, orelse, LIST, STMT),
	F(TryStar, finalbody, LIST, STMT),
};

static const struct ast_field f_Assert[] = {
	F(Assert, test, NODE, EXPR),
	F(Assert, msg, OPTNODE, EXPR),
};

static const struct ast_field f_Import[] = {
	F(Import, names, LIST, ALIAS),
};

static const struct ast_field f_ImportFrom[] = {
	F(ImportFrom, module, OPTSTR, NONE),
	F(ImportFrom, names, LIST, ALIAS),
	F(ImportFrom, level, OPTINT, NONE),
};

static const struct ast_field f_Global[] = {
	F(Global, names, STRLIST, NONE),
};

static const struct ast_field f_Nonlocal[] = {
	F(Nonlocal, names, STRLIST, NONE),
};

static const struct ast_field f_Expr[] = {
	F(Expr, value, NODE, EXPR),
};

static const struct ast_field f_BoolOp[] = {
	F(BoolOp, op, BOOLOP, NONE),
	F(BoolOp, values, LIST, EXPR),
};

static const struct ast_field f_NamedExpr[] = {
	F(NamedExpr, target, NODE, EXPR),
	F(NamedExpr, value, NODE, EXPR),
};

static const struct ast_field f_BinOp[] = {
	F(BinOp, left, NODE, EXPR),
	F(BinOp, op, OPERATOR, NONE),
	F(BinOp, right, NODE, EXPR),
};

static const struct ast_field f_UnaryOp[] = {
	F(UnaryOp, op, UNARYOP, NONE),
	F(UnaryOp, operand, NODE, EXPR),
};

static const struct ast_field f_Lambda[] = {
	F(Lambda, args, NODE, ARGUMENTS),
	F(Lambda, body, NODE, EXPR),
};

static const struct ast_field f_IfExp[] = {
	F(IfExp, test, NODE, EXPR),
	F(IfExp, body, NODE, EXPR),
	F(IfExp, orelse, NODE, EXPR),
};

static const struct ast_field f_Dict[] = {
	FN(Dict, keys, EXPR),
	F(Dict, values, LIST, EXPR),
};

static const struct ast_field f_Set[] = {
	F(Set, elts, LIST, EXPR),
};

static const struct ast_field f_ListComp[] = {
	F(ListComp, elt, NODE, EXPR),
	F(ListComp, generators, LIST, COMPREHENSION),
};

static const struct ast_field f_SetComp[] = {
	F(SetComp, elt, NODE, EXPR),
	F(SetComp, generators, LIST, COMPREHENSION),
};

static const struct ast_field f_DictComp[] = {
	F(DictComp, key, NODE, EXPR),
	F(DictComp, value, NODE, EXPR),
	F(DictComp, generators, LIST, COMPREHENSION),
};

static const struct ast_field f_GeneratorExp[] = {
	F(GeneratorExp, elt, NODE, EXPR),
	F(GeneratorExp, generators, LIST, COMPREHENSION),
};

static const struct ast_field f_Await[] = {
	F(Await, value, NODE, EXPR),
};

static const struct ast_field f_Yield[] = {
	F(Yield, value, OPTNODE, EXPR),
};

static const struct ast_field f_YieldFrom[] = {
	F(YieldFrom, value, NODE, EXPR),
};

static const struct ast_field f_Compare[] = {
	F(Compare, left, NODE, EXPR),
	F(Compare, ops, CMPLIST, NONE),
	F(Compare, comparators, LIST, EXPR),
};

static const struct ast_field f_Call[] = {
	F(Call, func, NODE, EXPR),
	F(Call, args, LIST, EXPR),
	F(Call, keywords, LIST, KEYWORD),
};

static const struct ast_field f_FormattedValue[] = {
	F(FormattedValue, value, NODE, EXPR),
	F(FormattedValue, conversion, INT, NONE),
	F(FormattedValue, format_spec, OPTNODE, EXPR),
};

static const struct ast_field f_JoinedStr[] = {
	F(JoinedStr, values, LIST, EXPR),
};

static const struct ast_field f_Constant[] = {
	F(Constant, value, CONST, NONE),
	F(Constant, kind, OPTSTR, NONE),
};

static const struct ast_field f_Attribute[] = {
	F(Attribute, value, NODE, EXPR),
	F(Attribute, attr, STR, NONE),
	F(Attribute, ctx, CTX, NONE),
};

static const struct ast_field f_Subscript[] = {
	F(Subscript, value, NODE, EXPR),
	F(Subscript, slice, NODE, EXPR),
	F(Subscript, ctx, CTX, NONE),
};

static const struct ast_field f_Starred[] = {
	F(Starred, value, NODE, EXPR),
	F(Starred, ctx, CTX, NONE),
};

static const struct ast_field f_Name[] = {
	F(Name, id, STR, NONE),
	F(Name, ctx, CTX, NONE),
};

static const struct ast_field f_List[] = {
	F(List, elts, LIST, EXPR),
	F(List, ctx, CTX, NONE),
};

static const struct ast_field f_Tuple[] = {
	F(Tuple, elts, LIST, EXPR),
	F(Tuple, ctx, CTX, NONE),
};

static const struct ast_field f_Slice[] = {
	F(Slice, lower, OPTNODE, EXPR),
	F(Slice, upper, OPTNODE, EXPR),
	F(Slice, step, OPTNODE, EXPR),
};

static const struct ast_field f_comprehension[] = {
	F(comprehension, target, NODE, EXPR),
	F(comprehension, iter, NODE, EXPR),
	F(comprehension, ifs, LIST, EXPR),
	F(comprehension, is_async, INT, NONE),
};

static const struct ast_field f_ExceptHandler[] = {
	F(ExceptHandler, type, OPTNODE, EXPR),
	F(ExceptHandler, name, OPTSTR, NONE),
	F(ExceptHandler, body, LIST, STMT),
};

static const struct ast_field f_arguments[] = {
	F(arguments, posonlyargs, LIST, ARG),
	F(arguments, args, LIST, ARG),
	F(arguments, vararg, OPTNODE, ARG),
	F(arguments, kwonlyargs, LIST, ARG),
	FN(arguments, kw_defaults, EXPR),
	F(arguments, kwarg, OPTNODE, ARG),
	F(arguments, defaults, LIST, EXPR),
};

static const struct ast_field f_arg[] = {
	F(arg, arg, STR, NONE),
	F(arg, annotation, OPTNODE, EXPR),
	F(arg, type_comment, OPTSTR, NONE),
};

static const struct ast_field f_keyword[] = {
	F(keyword, arg, OPTSTR, NONE),
	F(keyword, value, NODE, EXPR),
};

static const struct ast_field f_alias[] = {
	F(alias, name, STR, NONE),
	F(alias, asname, OPTSTR, NONE),
};

static const struct ast_field f_withitem[] = {
	F(withitem, context_expr, NODE, EXPR),
	F(withitem, optional_vars, OPTNODE, EXPR),
};

static const struct ast_field f_match_case[] = {
	F(match_case, pattern, NODE, PATTERN),
	F(match_case, guard, OPTNODE, EXPR),
	F(match_case, body, LIST, STMT),
};

static const struct ast_field f_MatchValue[] = {
	F(MatchValue, value, NODE, EXPR),
};

static const struct ast_field f_MatchSingleton[] = {
	F(MatchSingleton, value, CONST, NONE),
};

static const struct ast_field f_MatchSequence[] = {
	F(MatchSequence, patterns, LIST, PATTERN),
};

static const struct ast_field f_MatchMapping[] = {
	F(MatchMapping, keys, LIST, EXPR),
	F(MatchMapping, patterns, LIST, PATTERN),
	F(MatchMapping, rest, OPTSTR, NONE),
};

static const struct ast_field f_MatchClass[] = {
	F(MatchClass, cls, NODE, EXPR),
	F(MatchClass, patterns, LIST, PATTERN),
	F(MatchClass, kwd_attrs, STRLIST, NONE),
	F(MatchClass, kwd_patterns, LIST, PATTERN),
};

static const struct ast_field f_MatchStar[] = {
	F(MatchStar, name, OPTSTR, NONE),
};

static const struct ast_field f_MatchAs[] = {
	F(MatchAs, pattern, OPTNODE, PATTERN),
	F(MatchAs, name, OPTSTR, NONE),
};

static const struct ast_field f_MatchOr[] = {
	F(MatchOr, patterns, LIST, PATTERN),
};

static const struct ast_field f_TypeIgnore[] = {
	F(TypeIgnore, lineno, INT, NONE),
	F(TypeIgnore, tag, STR, NONE),
};

#undef F
#undef FN

/* K(class, category, has position) */
#define K(Kn, cat, pos) \
	[AST_##Kn] = { #Kn, sizeof(struct ast_##Kn), AST_CAT_##cat, pos, \
	               NELEM(f_##Kn), f_##Kn }
/* A class without fields. */
#define K0(Kn, cat, pos) \
	[AST_##Kn] = { #Kn, sizeof(struct ast_##Kn), AST_CAT_##cat, pos, 0, NULL }

static const struct ast_kind_info kind_info[AST_NKINDS] = {
	[AST_INVALID] = { "?", sizeof(struct ast_hdr), AST_CAT_NONE, 0, 0, NULL },
	K(Module, MOD, 0),
	K(FunctionDef, STMT, 1),
	K(AsyncFunctionDef, STMT, 1),
	K(ClassDef, STMT, 1),
	K(Return, STMT, 1),
	K(Delete, STMT, 1),
	K(Assign, STMT, 1),
	K(AugAssign, STMT, 1),
	K(AnnAssign, STMT, 1),
	K(For, STMT, 1),
	K(AsyncFor, STMT, 1),
	K(While, STMT, 1),
	K(If, STMT, 1),
	K(With, STMT, 1),
	K(AsyncWith, STMT, 1),
	K(Match, STMT, 1),
	K(Raise, STMT, 1),
	K(Try, STMT, 1),
	K(TryStar, STMT, 1),
	K(Assert, STMT, 1),
	K(Import, STMT, 1),
	K(ImportFrom, STMT, 1),
	K(Global, STMT, 1),
	K(Nonlocal, STMT, 1),
	K(Expr, STMT, 1),
	K0(Pass, STMT, 1),
	K0(Break, STMT, 1),
	K0(Continue, STMT, 1),
	K(BoolOp, EXPR, 1),
	K(NamedExpr, EXPR, 1),
	K(BinOp, EXPR, 1),
	K(UnaryOp, EXPR, 1),
	K(Lambda, EXPR, 1),
	K(IfExp, EXPR, 1),
	K(Dict, EXPR, 1),
	K(Set, EXPR, 1),
	K(ListComp, EXPR, 1),
	K(SetComp, EXPR, 1),
	K(DictComp, EXPR, 1),
	K(GeneratorExp, EXPR, 1),
	K(Await, EXPR, 1),
	K(Yield, EXPR, 1),
	K(YieldFrom, EXPR, 1),
	K(Compare, EXPR, 1),
	K(Call, EXPR, 1),
	K(FormattedValue, EXPR, 1),
	K(JoinedStr, EXPR, 1),
	K(Constant, EXPR, 1),
	K(Attribute, EXPR, 1),
	K(Subscript, EXPR, 1),
	K(Starred, EXPR, 1),
	K(Name, EXPR, 1),
	K(List, EXPR, 1),
	K(Tuple, EXPR, 1),
	K(Slice, EXPR, 1),
	K(comprehension, COMPREHENSION, 0),
	K(ExceptHandler, EXCEPTHANDLER, 1),
	K(arguments, ARGUMENTS, 0),
	K(arg, ARG, 1),
	K(keyword, KEYWORD, 1),
	K(alias, ALIAS, 1),
	K(withitem, WITHITEM, 0),
	K(match_case, MATCH_CASE, 0),
	K(MatchValue, PATTERN, 1),
	K(MatchSingleton, PATTERN, 1),
	K(MatchSequence, PATTERN, 1),
	K(MatchMapping, PATTERN, 1),
	K(MatchClass, PATTERN, 1),
	K(MatchStar, PATTERN, 1),
	K(MatchAs, PATTERN, 1),
	K(MatchOr, PATTERN, 1),
	K(TypeIgnore, TYPE_IGNORE, 0),
};

#undef K
#undef K0

const struct ast_kind_info *ast_kind_info(enum ast_kind kind)
{
	if ((unsigned)kind >= AST_NKINDS)
		kind = AST_INVALID;
	return &kind_info[kind];
}

const char *ast_kind_name(enum ast_kind kind)
{
	return ast_kind_info(kind)->name;
}

static const char *const operator_names[] = {
	"?", "Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow", "LShift",
	"RShift", "BitOr", "BitXor", "BitAnd", "FloorDiv"
};
static const char *const boolop_names[] = { "?", "And", "Or" };
static const char *const unaryop_names[] = { "?", "Invert", "Not", "UAdd", "USub" };
static const char *const cmpop_names[] = {
	"?", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"
};
static const char *const ctx_names[] = { "?", "Load", "Store", "Del" };

#define NAME_OF(table, v) ((unsigned)(v) < NELEM(table) ? table[(unsigned)(v)] : "?")

const char *ast_operator_name(enum ast_operator op)
{
	return NAME_OF(operator_names, op);
}

const char *ast_boolop_name(enum ast_boolop op)
{
	return NAME_OF(boolop_names, op);
}

const char *ast_unaryop_name(enum ast_unaryop op)
{
	return NAME_OF(unaryop_names, op);
}

const char *ast_cmpop_name(enum ast_cmpop op)
{
	return NAME_OF(cmpop_names, op);
}

const char *ast_ctx_name(enum ast_ctx ctx)
{
	return NAME_OF(ctx_names, ctx);
}

/* ------------------------------------------------------------------ helpers */

/* Iterative, so that a 3,000-deep attribute chain costs no stack: measure
 * the name walking down, then fill it in from the right. */
int ast_dotted_name(const struct ast_hdr *expr, buf_t *out)
{
	static const char dots[] = "................................";
	const struct ast_hdr *e;
	size_t total = 0, pos, n, left;
	char *dst;

	for (e = expr; AST_IS(e, Attribute); e = AST_AS(e, Attribute)->value)
		total += strlen(AST_AS(e, Attribute)->attr) + 1;
	if (!AST_IS(e, Name))
		return -1;
	total += strlen(AST_AS(e, Name)->id);

	pos = out->len;
	for (left = total; left > 0; left -= n) {
		n = left < sizeof dots - 1 ? left : sizeof dots - 1;
		buf_add(out, dots, n);
	}
	dst = out->buf + pos;
	for (e = expr; AST_IS(e, Attribute); e = AST_AS(e, Attribute)->value) {
		const char *attr = AST_AS(e, Attribute)->attr;
		size_t len = strlen(attr);

		total -= len;
		memcpy(dst + total, attr, len);
		total--;                /* the '.' already there */
	}
	memcpy(dst, AST_AS(e, Name)->id, total);
	return 0;
}

int ast_visit_children(const struct ast_hdr *node, ast_visit_fn cb, void *ctx)
{
	const struct ast_kind_info *ki;
	const struct ast_field *f;
	const char *base = (const char *)node;
	unsigned i, j;
	int rc;

	if (!node)
		return 0;
	ki = ast_kind_info(node->kind);
	for (i = 0; i < ki->nfields; i++) {
		f = &ki->fields[i];
		if (f->type == AST_F_NODE || f->type == AST_F_OPTNODE) {
			const struct ast_hdr *child;

			/* memcpy: the member may be declared as a pointer to a
			 * concrete node struct (same representation). */
			memcpy(&child, base + f->offset, sizeof child);
			if (child && (rc = cb(child, ctx)) != 0)
				return rc;
		} else if (f->type == AST_F_LIST) {
			const struct ast_list *l = (const void *)(base + f->offset);

			for (j = 0; j < l->n; j++)
				if (l->items[j] && (rc = cb(l->items[j], ctx)) != 0)
					return rc;
		}
	}
	return 0;
}
