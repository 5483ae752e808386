/* symtab.c - see include/ecg/symtab.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/symtab.h"
#include "ecg/util.h"

/* FNV-1a over the bytes of lines [a, b] (1-based, inclusive); with
 * strip, each line's leading blanks are left out (a statement compared
 * wherever its block is indented). */
static uint64_t lines_hash(const struct sfile *f, int a, int b, int strip)
{
	uint64_t h = FNV1A_INIT;
	int l;

	if (a < 1 || b < a || (size_t)b > f->nlines)
		return 0;
	for (l = a; l <= b; l++) {
		size_t s = f->line_off[l], e = (size_t)l + 1 <= f->nlines ? f->line_off[l + 1] : f->len;

		if (e > f->len)
			e = f->len;
		if (strip)
			while (s < e && (f->src[s] == ' ' || f->src[s] == '\t'))
				s++;
		h = fnv1a(h, f->src + s, e - s);
	}
	return h;
}

static size_t add_sym(struct symtab *t, size_t *alloc, const char *qual, enum sym_kind kind, int line, int end_line)
{
	struct sym *s;

	GROW(t->syms, *alloc, t->nsyms + 1);
	s = &t->syms[t->nsyms];
	memset(s, 0, sizeof *s);
	s->qual = xstrdup(qual);
	s->kind = kind;
	s->line = line;
	s->end_line = end_line;
	return t->nsyms++;
}

struct build {
	const struct sfile *f;
	struct symtab *t;
	size_t asyms, astmts;
};

static void walk_body(struct build *b, const struct ast_list *body, const char *prefix, size_t owner, int in_function,
                      int depth);

static void walk_stmt(struct build *b, const struct ast_hdr *st, const char *prefix, size_t owner, int in_function,
                      int depth)
{
	char *qual;
	size_t k;

	if (depth > 200)
		return;
	if (AST_IS(st, FunctionDef) || AST_IS(st, AsyncFunctionDef)) {
		const struct ast_FunctionDef *fd = (const struct ast_FunctionDef *)st;

		qual = prefix ? xasprintf("%s.%s", prefix, fd->name) : xstrdup(fd->name);
		k = add_sym(b->t, &b->asyms, qual, SYM_FUNCTION, st->line, st->end_line);
		b->t->syms[k].hash = lines_hash(b->f, st->line, st->end_line, 0);
		{
			char *inner = xasprintf("%s.<locals>", qual);

			walk_body(b, &fd->body, inner, k, 1, depth + 1);
			free(inner);
		}
		free(qual);
		return;
	}
	if (AST_IS(st, ClassDef)) {
		const struct ast_ClassDef *cd = AST_AS(st, ClassDef);

		qual = prefix ? xasprintf("%s.%s", prefix, cd->name) : xstrdup(cd->name);
		k = add_sym(b->t, &b->asyms, qual, SYM_CLASS, st->line, st->end_line);
		b->t->syms[k].hash = lines_hash(b->f, st->line, st->end_line, 0);
		walk_body(b, &cd->body, qual, k, 0, depth + 1);
		free(qual);
		return;
	}
	if (in_function) {
		/* definitions nested in blocks of a function (if/for/with) */
		const struct ast_list *lists[3] = { NULL, NULL, NULL };
		size_t i;

		if (AST_IS(st, If)) {
			lists[0] = &AST_AS(st, If)->body;
			lists[1] = &AST_AS(st, If)->orelse;
		} else if (AST_IS(st, For)) {
			lists[0] = &AST_AS(st, For)->body;
		} else if (AST_IS(st, While)) {
			lists[0] = &AST_AS(st, While)->body;
		} else if (AST_IS(st, With)) {
			lists[0] = &AST_AS(st, With)->body;
		} else if (AST_IS(st, Try)) {
			lists[0] = &AST_AS(st, Try)->body;
			lists[1] = &AST_AS(st, Try)->orelse;
			lists[2] = &AST_AS(st, Try)->finalbody;
		}
		for (i = 0; i < 3; i++)
			if (lists[i])
				walk_body(b, lists[i], prefix, owner, 1, depth + 1);
		return;
	}
	/* a statement of a class body or of the module */
	{
		struct sym_stmt *s;

		GROW(b->t->stmts, b->astmts, b->t->nstmts + 1);
		s = &b->t->stmts[b->t->nstmts++];
		memset(s, 0, sizeof *s);
		s->owner = owner;
		s->line = st->line;
		s->end_line = st->end_line;
		s->hash = lines_hash(b->f, st->line, st->end_line, 1);
		if (AST_IS(st, Assign) && AST_AS(st, Assign)->targets.n == 1 &&
		    AST_IS(AST_AS(st, Assign)->targets.items[0], Name)) {
			s->target = AST_AS(AST_AS(st, Assign)->targets.items[0], Name)->id;
			s->value = AST_AS(st, Assign)->value;
		} else if (AST_IS(st, AnnAssign) && AST_IS(AST_AS(st, AnnAssign)->target, Name)) {
			s->target = AST_AS(AST_AS(st, AnnAssign)->target, Name)->id;
			s->value = AST_AS(st, AnnAssign)->value;
		}
	}
	/* definitions inside module-level blocks (if __name__ == ...:) */
	if (AST_IS(st, If)) {
		size_t i;

		for (i = 0; i < AST_AS(st, If)->body.n; i++) {
			const struct ast_hdr *x = AST_AS(st, If)->body.items[i];

			if (AST_IS(x, FunctionDef) || AST_IS(x, AsyncFunctionDef) || AST_IS(x, ClassDef))
				walk_stmt(b, x, prefix, owner, 0, depth + 1);
		}
		for (i = 0; i < AST_AS(st, If)->orelse.n; i++) {
			const struct ast_hdr *x = AST_AS(st, If)->orelse.items[i];

			if (AST_IS(x, FunctionDef) || AST_IS(x, AsyncFunctionDef) || AST_IS(x, ClassDef))
				walk_stmt(b, x, prefix, owner, 0, depth + 1);
		}
	}
}

static void walk_body(struct build *b, const struct ast_list *body, const char *prefix, size_t owner, int in_function,
                      int depth)
{
	size_t i;

	for (i = 0; i < body->n; i++)
		walk_stmt(b, body->items[i], prefix, owner, in_function, depth);
}

void symtab_build(const struct sfile *f, struct symtab *t)
{
	struct build b;
	size_t m;

	memset(t, 0, sizeof *t);
	memset(&b, 0, sizeof b);
	b.f = f;
	b.t = t;
	m = add_sym(t, &b.asyms, "<module>", SYM_MODULE, 1, (int)f->nlines);
	if (f->mod)
		walk_body(&b, &f->mod->body, NULL, m, 0, 0);
}

void symtab_free(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nsyms; i++)
		free(t->syms[i].qual);
	free(t->syms);
	free(t->stmts);
	memset(t, 0, sizeof *t);
}

const struct sym *symtab_find(const struct symtab *t, const char *qual)
{
	size_t i;

	for (i = 0; i < t->nsyms; i++)
		if (!strcmp(t->syms[i].qual, qual))
			return &t->syms[i];
	return NULL;
}

const struct sym_stmt *symtab_stmt_at(const struct symtab *t, const struct sym *s, int line)
{
	size_t owner = (size_t)(s - t->syms), i;

	for (i = 0; i < t->nstmts; i++)
		if (t->stmts[i].owner == owner && t->stmts[i].line <= line && line <= t->stmts[i].end_line)
			return &t->stmts[i];
	return NULL;
}

const struct sym_stmt *symtab_stmt_like(const struct symtab *t, const struct sym *s, uint64_t hash, int near)
{
	size_t owner = (size_t)(s - t->syms), i;
	const struct sym_stmt *best = NULL;

	for (i = 0; i < t->nstmts; i++) {
		const struct sym_stmt *x = &t->stmts[i];

		if (x->owner != owner || x->hash != hash)
			continue;
		if (!best || abs(x->line - near) < abs(best->line - near))
			best = x;
	}
	return best;
}
