/* pkgdir.c - see include/ecg/pkgdir.h: setup.py's package_dir, read from
 * the file's tree (never run), and the lookup of a module through it.
 *
 * Ownership: the map (struct pkgdir) belongs to the prog that asked for it
 * (prog_free() frees it through pkgdir_free); its strings are its own.
 * setup.py itself is read through the prog (prog_file, prog_ensure), so it
 * is listed among the files the job read when the map is needed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/pkgdir.h"
#include "ecg/prog.h"
#include "ecg/util.h"

struct pkgdir_entry {
	char *name;    /* dotted import name, never "" */
	char *dir;     /* repository directory, "" or with a trailing '/' */
};

struct pkgdir {
	struct pkgdir_entry *e;
	size_t n, alloc;
};

/* ------------------------------------------------------------ the tree */

static const char *const_str(const ast_expr *x)
{
	const struct ast_Constant *c;

	if (!AST_IS(x, Constant))
		return NULL;
	c = AST_AS(x, Constant);
	return c->value.kind == AST_CONST_STR ? c->value.s : NULL;
}

/* The value bound to `name` by a plain `name = VALUE` among `body`
 * (the last such statement), or NULL. */
static const ast_expr *bound_in(const struct ast_list *body, const char *name)
{
	const ast_expr *v = NULL;
	unsigned i;

	for (i = 0; i < body->n; i++) {
		const struct ast_Assign *a;

		if (!AST_IS(body->items[i], Assign))
			continue;
		a = AST_AS(body->items[i], Assign);
		if (a->targets.n == 1 && AST_IS(a->targets.items[0], Name) &&
		    !strcmp(AST_AS(a->targets.items[0], Name)->id, name))
			v = a->value;
	}
	return v;
}

static const struct ast_FunctionDef *module_def(const struct ast_Module *m, const char *name)
{
	unsigned i;

	for (i = 0; i < m->body.n; i++)
		if (AST_IS(m->body.items[i], FunctionDef) &&
		    !strcmp(AST_AS(m->body.items[i], FunctionDef)->name, name))
			return AST_AS(m->body.items[i], FunctionDef);
	return NULL;
}

/* What a function without parameters returns, when its body ends in
 * `return DICT` or `return NAME` with NAME bound to a value in the body. */
static const ast_expr *def_return(const struct ast_FunctionDef *fd)
{
	const ast_expr *r;

	if (!fd->body.n || !AST_IS(fd->body.items[fd->body.n - 1], Return))
		return NULL;
	r = AST_AS(fd->body.items[fd->body.n - 1], Return)->value;
	if (AST_IS(r, Name))
		r = bound_in(&fd->body, AST_AS(r, Name)->id);
	return r;
}

/* The dict literal package_dir's value stands for (see the header), or NULL. */
static const struct ast_Dict *dict_of(const struct ast_Module *m, const ast_expr *v)
{
	if (AST_IS(v, Name))
		v = bound_in(&m->body, AST_AS(v, Name)->id);
	else if (AST_IS(v, Call) && !AST_AS(v, Call)->args.n && !AST_AS(v, Call)->keywords.n &&
	         AST_IS(AST_AS(v, Call)->func, Name)) {
		const struct ast_FunctionDef *fd = module_def(m, AST_AS(AST_AS(v, Call)->func, Name)->id);

		v = fd ? def_return(fd) : NULL;
	}
	return AST_IS(v, Dict) ? AST_AS(v, Dict) : NULL;
}

/* Is this call setup(...) or setuptools.setup(...)? */
static int is_setup_call(const struct ast_Call *c)
{
	if (AST_IS(c->func, Name))
		return !strcmp(AST_AS(c->func, Name)->id, "setup");
	return AST_IS(c->func, Attribute) && !strcmp(AST_AS(c->func, Attribute)->attr, "setup") &&
	       AST_IS(AST_AS(c->func, Attribute)->value, Name) &&
	       !strcmp(AST_AS(AST_AS(c->func, Attribute)->value, Name)->id, "setuptools");
}

/* The package_dir keyword of the first setup() call among `body` (and the
 * bodies of its if statements: `if __name__ == "__main__": setup(...)`). */
static const ast_expr *setup_package_dir(const struct ast_list *body)
{
	unsigned i, k;

	for (i = 0; i < body->n; i++) {
		const ast_stmt *s = body->items[i];
		const ast_expr *v = NULL;

		if (AST_IS(s, If)) {
			if ((v = setup_package_dir(&AST_AS(s, If)->body)) ||
			    (v = setup_package_dir(&AST_AS(s, If)->orelse)))
				return v;
			continue;
		}
		if (!AST_IS(s, Expr) || !AST_IS(AST_AS(s, Expr)->value, Call))
			continue;
		{
			const struct ast_Call *c = AST_AS(AST_AS(s, Expr)->value, Call);

			if (!is_setup_call(c))
				continue;
			for (k = 0; k < c->keywords.n; k++) {
				const struct ast_keyword *kw = AST_AS(c->keywords.items[k], keyword);

				if (kw->arg && !strcmp(kw->arg, "package_dir"))
					return kw->value;
			}
			return NULL;
		}
	}
	return NULL;
}

/* ------------------------------------------------------------ the map */

static void add_entry(struct pkgdir *d, const char *name, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 0 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '.')
		n = 0;
	GROW(d->e, d->alloc, d->n + 1);
	d->e[d->n].name = xstrdup(name);
	d->e[d->n].dir = n ? xasprintf("%.*s/", (int)n, dir) : xstrdup("");
	d->n++;
}

static struct pkgdir *pkgdir_read(const struct prog *p)
{
	struct pkgdir *d = xcalloc(1, sizeof *d);
	struct sfile *sf = prog_file(p, "setup.py");
	const struct ast_Dict *dict;
	unsigned i;

	if (!sf)
		return d;
	prog_ensure(p, sf);
	if (!sf->mod || !(dict = dict_of(sf->mod, setup_package_dir(&sf->mod->body))))
		return d;
	for (i = 0; i < dict->keys.n && i < dict->values.n; i++) {
		const char *k = const_str(dict->keys.items[i]), *v = const_str(dict->values.items[i]);

		if (!k || !*k || !v || strstr(v, ".."))
			continue;   /* `**other`, a computed entry, the "" key, or a path out of the tree */
		add_entry(d, k, v);
	}
	return d;
}

/* The entry covering `dotted` with the longest name (a key names the
 * package and everything below it), or NULL. */
static const struct pkgdir_entry *covering(const struct pkgdir *d, const char *dotted)
{
	const struct pkgdir_entry *best = NULL;
	size_t i;

	for (i = 0; i < d->n; i++) {
		size_t n = strlen(d->e[i].name);

		if (strncmp(dotted, d->e[i].name, n) || (dotted[n] && dotted[n] != '.'))
			continue;
		if (!best || n > strlen(best->name))
			best = &d->e[i];
	}
	return best;
}

struct sfile *pkgdir_find(const struct prog *p, const char *dotted)
{
	const struct pkgdir_entry *e;
	size_t n;

	if (!p->pkgdir)
		((struct prog *)p)->pkgdir = pkgdir_read(p);   /* read once, kept: see the header */
	if (!dotted || !*dotted || !(e = covering(p->pkgdir, dotted)))
		return NULL;
	n = strlen(e->name);
	if (!dotted[n]) {
		/* the package itself: DIR/__init__.py */
		char *init = xasprintf("%s__init__.py", e->dir);
		struct sfile *f = prog_file(p, init);

		free(init);
		return f;
	}
	return prog_find_under(p, e->dir, dotted + n + 1);
}

void pkgdir_free(struct pkgdir *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->e[i].name);
		free(d->e[i].dir);
	}
	free(d->e);
	free(d);
}
