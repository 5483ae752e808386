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
 * Its argmax (a prediction) chooses no next token.  loop_feeds_back()
 * answers 1 when some name is both bound in the loop's body and read in
 * it (or in its own test): a plain name stored (`=`, `+=`, `:=`, a `for`
 * target, `with ... as`), or the base name of an attribute or item
 * stored into (`self.cache[i] = ...`, `tokens[:, pos] = t`), or of a
 * list grown in place (`out.append(t)`, extend, insert); else 0.  So
 * permissive that a real decode loop is never refused: state kept on
 * self counts (`self.x = ...` and any read of self).  schedule.c reads
 * an argmax in a counting loop as decoding only in a loop that feeds
 * back (jctx.feeds).  Nested function and class bodies and lambdas are
 * other scopes: not walked.  Nothing is allocated; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define FEED_NAMES 64

struct feed_walk {
	const char *bound[FEED_NAMES];
	unsigned nbound;
	const char *read[FEED_NAMES];
	unsigned nread;
	int full;                      /* a table overflowed: answer yes */
};

static void feed_note(const char **tab, unsigned *n, int *full, const char *id)
{
	unsigned i;

	if (!id)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(tab[i], id))
			return;
	if (*n == FEED_NAMES) {
		*full = 1;
		return;
	}
	tab[(*n)++] = id;
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

static int feed_cb(const struct ast_hdr *n, void *ctx)
{
	struct feed_walk *w = ctx;

	switch (n->kind) {
	case AST_FunctionDef: case AST_AsyncFunctionDef: case AST_ClassDef: case AST_Lambda:
		return 0;
	case AST_Name:
		if (AST_AS(n, Name)->ctx == AST_CTX_LOAD)
			feed_note(w->read, &w->nread, &w->full, AST_AS(n, Name)->id);
		else
			feed_note(w->bound, &w->nbound, &w->full, AST_AS(n, Name)->id);
		return 0;
	case AST_Attribute:
		if (AST_AS(n, Attribute)->ctx != AST_CTX_LOAD)
			feed_note(w->bound, &w->nbound, &w->full, base_name(n));
		break;
	case AST_Subscript:
		if (AST_AS(n, Subscript)->ctx != AST_CTX_LOAD)
			feed_note(w->bound, &w->nbound, &w->full, base_name(n));
		break;
	case AST_Call: {
		const struct ast_Call *c = AST_AS(n, Call);

		/* out.append(t): out grown in place */
		if (AST_IS(c->func, Attribute)) {
			const char *m = AST_AS(c->func, Attribute)->attr;

			if (!strcmp(m, "append") || !strcmp(m, "extend") || !strcmp(m, "insert") || !strcmp(m, "copy_"))
				feed_note(w->bound, &w->nbound, &w->full, base_name(AST_AS(c->func, Attribute)->value));
		}
		break;
	}
	default:
		break;
	}
	return ast_visit_children(n, feed_cb, ctx);
}

int loop_feeds_back(const struct ast_hdr *loop)
{
	struct feed_walk w;
	const struct ast_list *body;
	unsigned i, j;

	if (!loop)
		return 1;
	memset(&w, 0, sizeof w);
	if (AST_IS(loop, For) || AST_IS(loop, AsyncFor)) {
		const struct ast_For *s = (const struct ast_For *)loop;

		body = &s->body;
	} else if (AST_IS(loop, While)) {
		body = &AST_AS(loop, While)->body;
		feed_cb(AST_AS(loop, While)->test, &w);
	} else
		return 1;
	for (i = 0; i < body->n; i++)
		feed_cb(body->items[i], &w);
	if (w.full)
		return 1;
	for (i = 0; i < w.nbound; i++)
		for (j = 0; j < w.nread; j++)
			if (!strcmp(w.bound[i], w.read[j]))
				return 1;
	return 0;
}
