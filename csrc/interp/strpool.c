/* interp/strpool.c - strings kept once, and the anchors and source texts made of them
 *
 * intern() and its wrappers (astr, afmt, acat, adot, aanchor) return a
 * string owned by the interpreter's arena and shared by every caller that
 * asks for the same bytes: callers never free it, and may compare two
 * interned strings by address.  anchor_at(), text_of() and afmt_memo()
 * remember their answers in direct-mapped tables keyed by the addresses
 * they are computed from.  Nothing here fails: OOM exits (util.h).
 */
#include "config.h"

#include "internal.h"

/* ------------------------------------------------------------------ small helpers */

/* Strings the analysis makes again and again (anchors, source text, the
 * same message) are kept once: the one string map (strmap.h) keyed by
 * content.  The arena owns the strings; the map only points at them.
 * Bytes with a NUL inside are copied apart, never kept in the map. */
static const char *intern(struct interp *in, const char *s, size_t n)
{
	struct strmap_slot *k;
	int added;

	if (memchr(s, 0, n))
		return ast_arena_strndup(in->a, s, n);
	k = strmap_putn(&in->strs, s, n, &added);
	if (added)
		k->key = ast_arena_strndup(in->a, s, n);
	return k->key;
}

const char *astr(struct interp *in, const char *s)
{
	return s ? intern(in, s, strlen(s)) : NULL;
}

const char *afmt(struct interp *in, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return "";
	if ((size_t)n >= sizeof tmp) {
		buf_t b;
		const char *r;

		buf_init(&b);
		va_start(ap, fmt);
		buf_vaddf(&b, fmt, ap);
		va_end(ap);
		r = astr(in, b.buf);
		buf_free(&b);
		return r;
	}
	return intern(in, tmp, (size_t)n);
}

/* intern("<a>.<b>") and intern("<path>:<qualname>:<line>"), as afmt()
 * with "%s.%s" and "%s:%s:%d" would make them but without vsnprintf(),
 * which was two thirds of afmt()'s cost; these are most of its calls
 * (dotted names of externals, anchors).  The same bytes (a NULL string
 * reads "(null)", as glibc's printf has it). */
static const char *acat(struct interp *in, const char *a, const char *sep, const char *b, const char *c)
{
	char tmp[1024];
	size_t na, ns, nb, nc;

	a = a ? a : "(null)";
	b = b ? b : "(null)";
	na = strlen(a);
	ns = strlen(sep);
	nb = strlen(b);
	nc = c ? strlen(c) : 0;
	if (na + ns + nb + nc >= sizeof tmp)
		return afmt(in, "%s%s%s%s", a, sep, b, c ? c : "");
	memcpy(tmp, a, na);
	memcpy(tmp + na, sep, ns);
	memcpy(tmp + na + ns, b, nb);
	if (nc)
		memcpy(tmp + na + ns + nb, c, nc);
	return intern(in, tmp, na + ns + nb + nc);
}

const char *adot(struct interp *in, const char *a, const char *b)
{
	return acat(in, a, ".", b, NULL);
}

const char *aanchor(struct interp *in, const char *path, const char *qualname, int line)
{
	char num[16], *p = num + sizeof num - 1;
	unsigned u = line < 0 ? 0u - (unsigned)line : (unsigned)line;

	*p = 0;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (line < 0)
		*--p = '-';
	*--p = ':';
	return acat(in, path, ":", qualname, p);
}

/* The line a frame reports while `node` runs, as CPython 3.11 compiles
 * it: a method call `x.attr(...)` (no *args, no **kwargs: the form the
 * compiler turns into LOAD_METHOD) runs on the line of `.attr`, the end
 * of the called attribute (`.cuda(` in `GPT(\n cfg,\n).cuda()`); any other
 * node on its first line. */
int site_line(const struct ast_hdr *node)
{
	const struct ast_Call *c;
	unsigned i;

	if (!node)
		return 0;
	if (!AST_IS(node, Call))
		return node->line;
	c = AST_AS(node, Call);
	if (!c->func || !AST_IS(c->func, Attribute) || c->func->end_line <= node->line)
		return node->line;
	for (i = 0; i < c->args.n; i++)
		if (AST_IS(c->args.items[i], Starred))
			return node->line;
	for (i = 0; i < c->keywords.n; i++)
		if (!AST_AS(c->keywords.items[i], keyword)->arg)
			return node->line;
	return c->func->end_line;
}

/* A function's code object's co_firstlineno: the line of its first
 * decorator when it is decorated, else of `def` (what a profiler's
 * python_function frame shows). */
int func_first_line(const struct ast_hdr *def)
{
	const struct ast_list *dl = NULL;
	int line;
	unsigned i;

	if (!def)
		return 0;
	line = def->line;
	if (AST_IS(def, FunctionDef))
		dl = &AST_AS(def, FunctionDef)->decorator_list;
	else if (AST_IS(def, AsyncFunctionDef))
		dl = &AST_AS(def, AsyncFunctionDef)->decorator_list;
	for (i = 0; dl && i < dl->n; i++)
		if (dl->items[i]->line > 0 && dl->items[i]->line < line)
			line = dl->items[i]->line;
	return line;
}

#define AMEMO_SIZE 4096   /* a power of two */

struct amemo *amemo_slot(struct amemo **tab, const void *file, const void *key, int line)
{
	uintptr_t h = ((uintptr_t)file >> 4) * 31 + ((uintptr_t)key >> 3) * 17 + (uintptr_t)(unsigned)line;

	if (!*tab)
		*tab = xcalloc(AMEMO_SIZE, sizeof **tab);
	h ^= h >> 13;
	return &(*tab)[h & (AMEMO_SIZE - 1)];
}

const char *anchor_at(struct frame *f, const struct ast_hdr *node)
{
	const char *q = f->anchor_q ? f->anchor_q : f->qualname ? f->qualname : "<module>";
	int line = site_line(node);
	struct amemo *m = amemo_slot(&f->in->amemo, f->file, q, line);

	if (m->s && m->file == f->file && m->key == q && m->line == line)
		return m->s;
	m->file = f->file;
	m->key = q;
	m->line = line;
	m->s = aanchor(f->in, f->file->path, q, line);
	return m->s;
}

/* afmt(in, fmt, a[, b]) where a and b are strings whose address says
 * what they hold (interned: text_of(), afmt(), astr(); or literals): the
 * result remembered by those three addresses (a direct-mapped table).
 * "not (%s)" for every undecided `if`, "for %s in %s" for every loop: the
 * formatting and interning was a tenth of an analysis.  b is NULL for a
 * format with one %s. */
const char *afmt_memo(struct interp *in, const char *fmt, const char *a, const char *b)
{
	uintptr_t h = ((uintptr_t)fmt >> 3) * 31 + ((uintptr_t)a >> 3) * 17 + ((uintptr_t)b >> 3);
	struct fmemo *m;

	if (!in->fmemo)
		in->fmemo = xcalloc(AMEMO_SIZE, sizeof *in->fmemo);
	h ^= h >> 13;
	m = &in->fmemo[h & (AMEMO_SIZE - 1)];
	if (m->s && m->fmt == fmt && m->a == a && m->b == b)
		return m->s;
	m->fmt = fmt;
	m->a = a;
	m->b = b;
	/* fmt: a literal with one %s (b NULL) or two, at each call below */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	m->s = b ? afmt(in, fmt, a, b) : afmt(in, fmt, a);
#pragma GCC diagnostic pop
	return m->s;
}

const char *text_of(struct frame *f, const struct ast_hdr *node)
{
	const char *p;
	size_t n;
	struct amemo *m;

	if (!node)
		return "";
	m = amemo_slot(&f->in->tmemo, f->file, node, 0);
	if (m->s && m->file == f->file && m->key == node)
		return m->s;
	if (prog_span(f->file, node, &p, &n) < 0)
		return "";
	m->file = f->file;
	m->key = node;
	m->line = 0;
	m->s = intern(f->in, p, n);
	return m->s;
}
