/*
 * loopfeed.c -- does a loop's body feed anything back into itself?
 *
 * A decode loop feeds each chosen token back into the next model call:
 *
 *     for _ in range(max_new_tokens):
 *         logits = model(idx)
 *         idx_next = logits[:, -1].argmax(-1, keepdim=True)
 *         idx = torch.cat((idx, idx_next), dim=1)      # idx: bound and read
 *
 * A benchmark's timed loop repeats the same call on the same input:
 *
 *     for _ in range(100):
 *         out = run(model, x)          # out bound, never read in the loop
 *
 * Its argmax (a prediction) chooses no next token; nor does an
 * evaluation's loop that collects its predictions:
 *
 *     for i in range(4):
 *         out = net(x)                 # out bound, then read: this pass's
 *         accs.append(out.argmax(-1))  # accs grown, never read in the loop
 *
 * loop_feeds_back() answers 1 when some name bound in the loop's body is
 * read in it before this pass binds it -- so what is read is the last
 * pass's value (or in the loop's own test): a plain name stored (`=`,
 * `+=`, `:=`, a `for` target, `with ... as`), or the base name of an
 * attribute or item stored into (`self.cache[i] = ...`, `tokens[:, pos]
 * = t`), or of a list grown in place (`out.append(t)`, extend, insert;
 * the growing call is no read of a plain name it grows); else 0.  A name
 * counts as bound for the rest of the pass only when bound in the body's
 * own straight line (or a `with` block's): one bound under an `if`, in a
 * `try` or an inner loop may not be, and a read after it counts.  Still
 * permissive, so that a real decode loop is never refused: state kept on
 * self counts (`self.x = ...` and a read of self before it).  schedule.c
 * reads an argmax in a counting loop as decoding only in a loop that
 * feeds back (jctx.feeds).  Nested function and class bodies and lambdas
 * are other scopes: not walked; a comprehension's variables are its own.
 * Nothing is allocated; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define FEED_NAMES 64

struct names {
	const char *id[FEED_NAMES];
	unsigned n;
};

struct feed_walk {
	struct names bound;            /* bound anywhere in the body */
	struct names early;            /* read before this pass bound them */
	struct names sure;             /* bound so far on the pass's straight line */
	struct names local;            /* the comprehension variables in scope */
	int full;                      /* a table overflowed: answer yes */
};

static int has(const struct names *t, const char *id)
{
	unsigned i;

	for (i = 0; id && i < t->n; i++)
		if (!strcmp(t->id[i], id))
			return 1;
	return 0;
}

static void feed_note(struct feed_walk *w, struct names *t, const char *id)
{
	if (!id || has(t, id))
		return;
	if (t->n == FEED_NAMES) {
		w->full = 1;
		return;
	}
	t->id[t->n++] = id;
}

/* The name at the base of an attribute or item chain (`self` of
 * `self.cache[i]`), or NULL. */
static const char *base_name(const struct ast_hdr *e)
{
	for (;;) {
		if (!e)
			return NULL;
		if (AST_IS(e, Name))
			return AST_AS(e, Name)->id;
		if (AST_IS(e, Attribute))
			e = AST_AS(e, Attribute)->value;
		else if (AST_IS(e, Subscript))
			e = AST_AS(e, Subscript)->value;
		else if (AST_IS(e, Starred))
			e = AST_AS(e, Starred)->value;
		else
			return NULL;
	}
}

static void reads(struct feed_walk *w, const struct ast_hdr *e);

static int reads_cb(const struct ast_hdr *n, void *ctx)
{
	reads(ctx, n);
	return 0;
}

/* A store target: its names bound (sure when `sure`), the expressions of
 * an attribute's or item's object read first. */
static void bind(struct feed_walk *w, const struct ast_hdr *t, int sure)
{
	unsigned i;

	if (!t)
		return;
	if (AST_IS(t, Name)) {
		feed_note(w, &w->bound, AST_AS(t, Name)->id);
		if (sure)
			feed_note(w, &w->sure, AST_AS(t, Name)->id);
	} else if (AST_IS(t, Tuple) || AST_IS(t, List)) {
		const struct ast_list *l = AST_IS(t, Tuple) ? &AST_AS(t, Tuple)->elts : &AST_AS(t, List)->elts;

		for (i = 0; i < l->n; i++)
			bind(w, l->items[i], sure);
	} else if (AST_IS(t, Starred)) {
		bind(w, AST_AS(t, Starred)->value, sure);
	} else if (AST_IS(t, Attribute)) {
		reads(w, AST_AS(t, Attribute)->value);
		feed_note(w, &w->bound, base_name(t));
	} else if (AST_IS(t, Subscript)) {
		reads(w, AST_AS(t, Subscript)->value);
		reads(w, AST_AS(t, Subscript)->slice);
		feed_note(w, &w->bound, base_name(t));
	}
}

/* A comprehension: each generator's iterable read, its target local to
 * the comprehension from then on, its tests and the element read. */
static void comprehension(struct feed_walk *w, const struct ast_list *gens, const struct ast_hdr *a,
                          const struct ast_hdr *b)
{
	unsigned i, j, nlocal = w->local.n;

	for (i = 0; i < gens->n; i++) {
		const struct ast_comprehension *g = AST_AS(gens->items[i], comprehension);
		struct feed_walk tw;

		reads(w, g->iter);
		/* the target's names, as the comprehension's own */
		memset(&tw, 0, sizeof tw);
		bind(&tw, g->target, 1);
		for (j = 0; j < tw.bound.n; j++)
			feed_note(w, &w->local, tw.bound.id[j]);
		for (j = 0; j < g->ifs.n; j++)
			reads(w, g->ifs.items[j]);
	}
	reads(w, a);
	reads(w, b);
	w->local.n = nlocal;
}

/* The names an expression reads, in order; what it binds (`:=`, a list
 * grown in place) bound. */
static void reads(struct feed_walk *w, const struct ast_hdr *e)
{
	unsigned i;

	if (!e)
		return;
	switch (e->kind) {
	case AST_Lambda:
		return;
	case AST_Name:
		if (AST_AS(e, Name)->ctx == AST_CTX_LOAD && !has(&w->local, AST_AS(e, Name)->id) &&
		    !has(&w->sure, AST_AS(e, Name)->id))
			feed_note(w, &w->early, AST_AS(e, Name)->id);
		return;
	case AST_NamedExpr:
		reads(w, AST_AS(e, NamedExpr)->value);
		bind(w, AST_AS(e, NamedExpr)->target, 0);
		return;
	case AST_ListComp:
		comprehension(w, &AST_AS(e, ListComp)->generators, AST_AS(e, ListComp)->elt, NULL);
		return;
	case AST_SetComp:
		comprehension(w, &AST_AS(e, SetComp)->generators, AST_AS(e, SetComp)->elt, NULL);
		return;
	case AST_GeneratorExp:
		comprehension(w, &AST_AS(e, GeneratorExp)->generators, AST_AS(e, GeneratorExp)->elt, NULL);
		return;
	case AST_DictComp:
		comprehension(w, &AST_AS(e, DictComp)->generators, AST_AS(e, DictComp)->key, AST_AS(e, DictComp)->value);
		return;
	case AST_Call: {
		const struct ast_Call *c = AST_AS(e, Call);

		/* out.append(t): out grown in place */
		if (AST_IS(c->func, Attribute)) {
			const char *m = AST_AS(c->func, Attribute)->attr;
			const struct ast_hdr *recv = AST_AS(c->func, Attribute)->value;

			if (!strcmp(m, "append") || !strcmp(m, "extend") || !strcmp(m, "insert") || !strcmp(m, "copy_")) {
				/* a plain name grown so is not read by the growing */
				if (!AST_IS(recv, Name))
					reads(w, recv);
				for (i = 0; i < c->args.n; i++)
					reads(w, c->args.items[i]);
				for (i = 0; i < c->keywords.n; i++)
					reads(w, c->keywords.items[i]);
				feed_note(w, &w->bound, base_name(recv));
				return;
			}
		}
		break;
	}
	default:
		break;
	}
	(void)ast_visit_children(e, reads_cb, w);
}

static void stmts(struct feed_walk *w, const struct ast_list *l);

/* A block that may not run, or not to its end (an `if` arm, an inner
 * loop, a `try`): what it binds is not sure after it. */
static void maybe_block(struct feed_walk *w, const struct ast_list *l)
{
	unsigned nsure = w->sure.n;

	stmts(w, l);
	w->sure.n = nsure;
}

static void stmt(struct feed_walk *w, const struct ast_hdr *s)
{
	unsigned i;

	switch (s->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef:
		return;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(s, Assign);

		reads(w, a->value);
		for (i = 0; i < a->targets.n; i++)
			bind(w, a->targets.items[i], 1);
		return;
	}
	case AST_AnnAssign:
		reads(w, AST_AS(s, AnnAssign)->value);
		if (AST_AS(s, AnnAssign)->value)
			bind(w, AST_AS(s, AnnAssign)->target, 1);
		return;
	case AST_AugAssign: {
		const struct ast_AugAssign *a = AST_AS(s, AugAssign);

		reads(w, a->value);
		/* (an attribute's or item's object is read by bind below) */
		if (AST_IS(a->target, Name) && !has(&w->sure, AST_AS(a->target, Name)->id))
			feed_note(w, &w->early, AST_AS(a->target, Name)->id);    /* `x += 1` reads x */
		bind(w, a->target, 1);
		return;
	}
	case AST_For: case AST_AsyncFor: {
		const struct ast_For *f = (const struct ast_For *)s;
		unsigned nsure;

		reads(w, f->iter);
		nsure = w->sure.n;
		bind(w, f->target, 1);
		stmts(w, &f->body);
		w->sure.n = nsure;
		maybe_block(w, &f->orelse);
		return;
	}
	case AST_While:
		reads(w, AST_AS(s, While)->test);
		maybe_block(w, &AST_AS(s, While)->body);
		maybe_block(w, &AST_AS(s, While)->orelse);
		return;
	case AST_If:
		reads(w, AST_AS(s, If)->test);
		maybe_block(w, &AST_AS(s, If)->body);
		maybe_block(w, &AST_AS(s, If)->orelse);
		return;
	case AST_With: case AST_AsyncWith: {
		const struct ast_With *x = (const struct ast_With *)s;

		for (i = 0; i < x->items.n; i++) {
			const struct ast_withitem *wi = AST_AS(x->items.items[i], withitem);

			reads(w, wi->context_expr);
			bind(w, wi->optional_vars, 1);
		}
		stmts(w, &x->body);      /* a with's body runs */
		return;
	}
	case AST_Try: {
		const struct ast_Try *t = AST_AS(s, Try);

		maybe_block(w, &t->body);
		for (i = 0; i < t->handlers.n; i++)
			maybe_block(w, &AST_AS(t->handlers.items[i], ExceptHandler)->body);
		maybe_block(w, &t->orelse);
		maybe_block(w, &t->finalbody);
		return;
	}
	default: {
		/* any other statement: what it reads, in order; a
		 * compound one's blocks as blocks that may not run */
		unsigned nsure = w->sure.n;

		(void)ast_visit_children(s, reads_cb, w);
		w->sure.n = nsure;
		return;
	}
	}
}

static void stmts(struct feed_walk *w, const struct ast_list *l)
{
	unsigned i;

	for (i = 0; i < l->n && !w->full; i++)
		stmt(w, l->items[i]);
}

int loop_feeds_back(const struct ast_hdr *loop)
{
	struct feed_walk w;
	unsigned i;

	if (!loop)
		return 1;
	memset(&w, 0, sizeof w);
	if (AST_IS(loop, For) || AST_IS(loop, AsyncFor)) {
		const struct ast_For *s = (const struct ast_For *)loop;

		bind(&w, s->target, 1);       /* each pass binds its item first */
		stmts(&w, &s->body);
	} else if (AST_IS(loop, While)) {
		reads(&w, AST_AS(loop, While)->test);
		stmts(&w, &AST_AS(loop, While)->body);
	} else
		return 1;
	if (w.full)
		return 1;
	for (i = 0; i < w.early.n; i++)
		if (has(&w.bound, w.early.id[i]))
			return 1;
	return 0;
}
