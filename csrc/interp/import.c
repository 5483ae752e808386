/* interp/import.c - modules: import statements, module namespaces, loading a file
 *
 * import_module() finds a module by Python's rules (prog.c), evaluates its
 * file once (load_module_file: a module's namespace is built on first
 * import and kept), and returns its namespace value, or an external
 * (VK_EXT, a dotted name) for what the job does not contain.  ns_attr()
 * reads a name of a namespace, importing a submodule if needed.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

static struct vns *load_module_file(struct interp *in, struct sfile *sf);
static int repo_below_plain_module(struct frame *f, const char *dotted);

/* ------------------------------------------------------------------ imports */

static value_t *ns_value(struct interp *in, struct vns *ns)
{
	value_t *v = ast_arena_alloc(in->a, sizeof *v);

	v->k = VK_NS;
	v->u.ns = ns;
	return v;
}

/* A namespace package (a directory without __init__.py): a synthetic
 * empty namespace whose attributes are the modules of directory dir
 * ("a/b/", ns_attr reads them). */
static value_t *namespace_pkg(struct interp *in, const char *dir)
{
	struct vns *ns = ast_arena_alloc(in->a, sizeof *ns);

	ns->dict = vdict_new(in->a);
	ns->state = 2;
	ns->file = NULL;
	vdict_sets(in->a, ns->dict, "__ecg_pkgdir__", v_str(in->a, dir));
	return ns_value(in, ns);
}

/* The value of module `dotted` as seen from file `from` (level 0 absolute). */
static value_t *import_module(struct frame *f, const char *dotted, int level)
{
	struct interp *in = f->in;
	struct sfile *sf = NULL;

	if (level > 0) {
		char *base = prog_relative_base(f->file, level);

		if (!base)
			return v_unknown(in->a, dotted, "a relative import above the repository root");
		if (dotted && *dotted) {
			sf = prog_find_under(in->prog, base, dotted);
		} else {
			/* `from . import x`: the package itself */
			buf_t b;

			buf_init(&b);
			buf_addstr(&b, base);
			buf_addstr(&b, "__init__.py");
			sf = prog_file(in->prog, b.buf);
			buf_free(&b);
			if (!sf) {
				/* a namespace package */
				value_t *v = namespace_pkg(in, base);

				free(base);
				return v;
			}
		}
		free(base);
		if (!sf)
			return v_unknown(in->a, afmt(in, "%.*s%s", level, "..........", dotted ? dotted : ""),
			                 "a relative import that is not in the repository");
	} else {
		const char *dot;

		sf = prog_find_module(in->prog, dotted);
		/* a name no repository module has is external -- a directory
		 * of the repository without __init__.py too: an installed
		 * package of that name comes first in Python's path scan, and
		 * `from pkg import mod` of the repository's pkg/mod.py is read
		 * by exec_import_from (namespace_submodule) */
		if (!sf)
			return v_ext(in->a, canon_ext(in, dotted));
		/* `import a.b.c` runs a/__init__.py, then a/b/__init__.py, then
		 * a/b/c.py, as Python does: a package's __init__ may import
		 * what its modules import back (accelerate.utils before
		 * accelerate.state, which imports from it) */
		for (dot = strchr(dotted, '.'); dot; dot = strchr(dot + 1, '.')) {
			struct sfile *pkg = prog_find_module(in->prog, afmt(in, "%.*s", (int)(dot - dotted), dotted));

			if (pkg && pkg->is_package && pkg != sf)
				(void)load_module_file(in, pkg);
		}
	}
	return ns_value(in, load_module_file(in, sf));
}

/* importlib.import_module(name[, package]): a module named by a string, as
 * registries and spec factories load the class a config names by its
 * dotted path.  A known absolute name is imported like `import name`; a
 * relative one (".x") is read from `package`.  NULL when the call is not
 * this (the caller goes on); an unknown value when the name is unknown. */
value_t *call_import_module(struct frame *f, const char *d, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *name, *pkg;
	const char *s;
	size_t level = 0;

	if (strcmp(d, "importlib.import_module"))
		return NULL;
	name = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "name") : NULL;
	pkg = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "package") : NULL;
	if (!name || name->k != VK_STR)
		return unknown_at(f, site, "a module imported by a name that is not known");
	s = name->u.str.s;
	while (s[level] == '.')
		level++;
	if (level > 0) {
		/* relative to a package given as a string: joined here */
		buf_t b;
		value_t *m;

		if (!pkg || pkg->k != VK_STR)
			return unknown_at(f, site, "a relative module name without its package");
		buf_init(&b);
		buf_addstr(&b, pkg->u.str.s);
		if (level > 1) {
			/* each dot past the first climbs one package */
			size_t up = level - 1;

			while (up-- > 0) {
				char *dot = strrchr(b.buf, '.');

				if (!dot) {
					buf_free(&b);
					return unknown_at(f, site, "a relative module name above its package");
				}
				b.len = (size_t)(dot - b.buf);
				b.buf[b.len] = 0;
			}
		}
		if (s[level]) {
			buf_addstr(&b, ".");
			buf_addstr(&b, s + level);
		}
		m = import_module(f, astr(in, b.buf), 0);
		buf_free(&b);
		return m;
	}
	if (repo_below_plain_module(f, s))
		return unknown_at(f, site, "a module name below a plain module of the repository (ModuleNotFoundError)");
	return import_module(f, astr(in, s), 0);
}

/* sys.modules[name] (a registry decorator's `sys.modules[fn.__module__]`):
 * the namespace of the module of that name when this reading has imported
 * it, or is importing it -- Python puts a module in sys.modules before its
 * body runs, so a decorator in that body sees what is bound so far.  NULL
 * otherwise (a module not read here, or not yet imported: whether Python's
 * sys.modules holds it depends on what else ran). */
value_t *sys_modules_item(struct frame *f, const value_t *name)
{
	struct interp *in = f->in;
	struct sfile *sf;
	struct vns *ns;

	if (!name || name->k != VK_STR || !(sf = prog_find_module(in->prog, name->u.str.s)))
		return NULL;
	ns = *ns_slot(in, sf);
	return ns ? ns_value(in, ns) : NULL;
}

/* __import__(name, globals, locals, fromlist): with a fromlist, the module
 * itself (spec factories: `vars(__import__(path, ..., [name]))[name]`);
 * without one, its top package, as `import a.b` binds `a`. */
value_t *call_dunder_import(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *name = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "name") : NULL;
	value_t *from = nargs >= 4 ? args[3] : kw ? vdict_gets(kw, "fromlist") : NULL;
	value_t *lvl = nargs >= 5 ? args[4] : kw ? vdict_gets(kw, "level") : NULL;
	const char *s;
	char *top, *dot;
	value_t *m;

	if (!name || name->k != VK_STR || !name->u.str.len || (lvl && !(lvl->k == VK_INT && lvl->u.i == 0)))
		return unknown_at(f, site, "__import__ of a name that is not known");
	if (from && from->k != VK_NONE && from->k != VK_LIST && from->k != VK_TUPLE)
		return unknown_at(f, site, "__import__ with a fromlist that is not known");
	s = astr(in, name->u.str.s);
	m = import_module(f, s, 0);
	if (from && from->k != VK_NONE && from->u.seq->n > 0)
		return m;
	top = xstrdup(s);
	if ((dot = strchr(top, '.')))
		*dot = 0;
	m = import_module(f, astr(in, top), 0);
	free(top);
	return m;
}

/* A name that a package's lazy __init__ leaves to its _import_structure
 * (transformers, diffusers: `sys.modules[__name__] = _LazyModule(...,
 * _import_structure)`, whose __getattr__ imports the submodule the table
 * lists the name under, "models.auto": [..., "AutoModelForCausalLM"]).
 * NULL when the table is not known or does not list the name. */
static value_t *ns_lazy_attr(struct frame *f, struct vns *ns, const char *name)
{
	value_t *tab = vdict_gets(ns->dict, "_import_structure");
	size_t i, k;

	if (!tab || tab->k != VK_DICT || !ns->file || !ns->file->is_package)
		return NULL;
	for (i = 0; i < tab->u.dict->n; i++) {
		value_t *key = tab->u.dict->keys[i], *names = tab->u.dict->vals[i], *sub;
		const char *p, *dot;

		if (key->k != VK_STR || (names->k != VK_LIST && names->k != VK_TUPLE))
			continue;
		for (k = 0; k < names->u.seq->n; k++)
			if (str_eq(names->u.seq->items[k], name))
				break;
		if (k == names->u.seq->n)
			continue;
		/* the submodule, one dotted part at a time */
		sub = NULL;
		for (p = key->u.str.s; p; p = dot ? dot + 1 : NULL) {
			struct vns *at = sub ? sub->u.ns : ns;

			dot = strchr(p, '.');
			sub = ns_attr(f, at, dot ? afmt(f->in, "%.*s", (int)(dot - p), p) : p);
			if (!sub || sub->k != VK_NS)
				return NULL;
		}
		return sub->u.ns != ns ? ns_attr(f, sub->u.ns, name) : NULL;   /* lazy in turn, or not */
	}
	return NULL;
}

/* A name a module's own dict lacks, bound there by a `from LIB import *`
 * of a library outside the repository (exec_import_from keeps the
 * libraries' names under STAR_EXT_KEY): the library's attribute, as the
 * import bound it (a public name: not starting with '_').  NULL when the
 * module made no such import. */
value_t *ns_star_ext(struct interp *in, struct vns *ns, const char *name)
{
	value_t *l, *v;
	size_t i;

	if (!ns || !name || name[0] == '_' || !(l = vdict_gets(ns->dict, STAR_EXT_KEY)) || l->k != VK_LIST)
		return NULL;
	for (i = l->u.seq->n; i-- > 0;) {
		const value_t *m = l->u.seq->items[i];

		if (m->k != VK_STR)
			continue;
		if ((v = stdlib_attr(in, m->u.str.s, name)))
			return v;
		return v_ext(in->a, canon_ext(in, adot(in, m->u.str.s, name)));
	}
	return NULL;
}

/* Attribute of a repo module namespace, falling back to a submodule file
 * and to a lazy package's _import_structure. */
value_t *ns_attr(struct frame *f, struct vns *ns, const char *name)
{
	struct interp *in = f->in;
	value_t *v = vdict_gets(ns->dict, name);
	buf_t b;
	struct sfile *sf = NULL;
	value_t *pkgdir;

	if (v)
		return v;
	if ((v = ns_star_ext(in, ns, name)))
		return v;
	if (!strcmp(name, "__dict__")) {
		/* the namespace itself (torchvision.models.__dict__[arch]) */
		v = ast_arena_alloc(in->a, sizeof *v);
		v->k = VK_DICT;
		v->u.dict = ns->dict;
		return v;
	}
	buf_init(&b);
	if (ns->file && ns->file->is_package) {
		const char *p = ns->file->path;
		size_t n = strlen(p) - strlen("__init__.py");

		buf_add(&b, p, n);
		sf = prog_find_under(in->prog, b.buf, name);
	} else if ((pkgdir = vdict_gets(ns->dict, "__ecg_pkgdir__"))) {
		sf = prog_find_under(in->prog, pkgdir->u.str.s, name);
	}
	buf_free(&b);
	if (sf) {
		v = ns_value(in, load_module_file(in, sf));
		vdict_sets(in->a, ns->dict, name, v);
		return v;
	}
	return ns_lazy_attr(f, ns, name);
}

/* Does the repository's requirements.txt (beside the entry script, else
 * at the top) leave package `top` out -- no line that is not a comment
 * names it (pip's names compare with '-' and '_' alike, case aside)?  1
 * it does, 0 it lists it or there is no such file to read. */
static int requirements_omit(struct interp *in, const char *top)
{
	const char *why = NULL;
	size_t len = 0, n = strlen(top);
	char *data, *p, *e;
	int listed = 0;

	if (!in->load_text)
		return 0;
	data = in->load_text(in->load_text_ctx, "requirements.txt", in->prog->entry_dir, &len, &why);
	if (!data)
		return 0;
	for (p = data; p < data + len && !listed; p = e + 1) {
		size_t i;

		for (e = p; e < data + len && *e != '\n'; e++)
			;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e || *p == '#' || *p == '-')
			continue;       /* blank, a comment, an option (-r, -e ...) */
		for (i = 0; i < n && p + i < e; i++) {
			char c = (char)tolower((unsigned char)p[i]), t = top[i];

			if (c == '-')
				c = '_';
			if (c != t)
				break;
		}
		/* the name ends there: a version, an extra, a marker, the line's end */
		if (i == n && (p + i == e || !(isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-' || p[i] == '.')))
			listed = 1;
	}
	free(data);
	return !listed;
}

/* An import, in the body of a try that catches ImportError, of a package
 * that catalog/torch_facts.json says is absent where the job runs
 * (absent_modules: torch_xla), or of a hosted tracker's client that the
 * repository's requirements.txt leaves out (service_modules: an optional
 * logger), when the repository does not hold it: it raises
 * ModuleNotFoundError there (exec_block ends the body, the handler runs,
 * nothing is bound).  1 when it raises, else 0. */
static int import_absent(struct frame *f, const char *dotted)
{
	struct interp *in = f->in;
	size_t n = strcspn(dotted, ".");
	char top[128];

	if (in->try_import_frame != f || !n || n >= sizeof top)
		return 0;
	memcpy(top, dotted, n);
	top[n] = 0;
	if (prog_find_module(in->prog, top))
		return 0;
	if (!catalog_fact(in->cat, CATALOG_F_ABSENT_MODULES, top) &&
	    !(catalog_fact(in->cat, CATALOG_F_SERVICE_MODULES, top) && requirements_omit(in, top)))
		return 0;
	in->exc_pending = "ModuleNotFoundError";
	return 1;
}

/* An import of an outside module (not the repository's), with no try
 * around it that catches ImportError and on a path the job always takes:
 * the module is installed where the job runs, or the job would stop here.
 * Its top-level name is noted (importlib.util.find_spec of it is a spec:
 * stdlib.c), the import itself read as before. */
static void import_note_installed(struct frame *f, const char *dotted)
{
	struct interp *in = f->in;
	size_t n = strcspn(dotted, ".");
	struct strmap_slot *sl;
	char top[128];
	int added;

	if (!n || n >= sizeof top || f->mode == M_FWD || in->try_import_frame || jc_find(f->jc, JC_COND) ||
	    jc_find(f->jc, JC_GUARD))
		return;
	memcpy(top, dotted, n);
	top[n] = 0;
	if (prog_find_module(in->prog, top) || strmap_get(&in->installed, top))
		return;
	sl = strmap_put(&in->installed, top, &added);
	sl->key = astr(in, top);
}

/* `from pkg.gone.mod import X` (or `import pkg.gone.mod`) where pkg is a
 * regular package of the repository (not an installed library's) and the
 * dotted name needs a sub-package the commit does not have (pkg/gone/ is
 * absent, and the name goes on below it): Python cannot find it, so the
 * import raises ModuleNotFoundError wherever it is (a module moved away
 * in a later commit, still imported on a path the job may not take).  A
 * missing last component alone (pkg.ext) is not enough: that may be a
 * compiled extension built beside the sources.  1 when the import raises
 * (exc_pending set), else 0. */
static int repo_subpackage_absent(struct frame *f, const char *dotted)
{
	struct interp *in = f->in;
	struct sfile *pkg = NULL, *sf;
	const char *dot, *rest = NULL;

	if (prog_find_module(in->prog, dotted))
		return 0;
	for (dot = strchr(dotted, '.'); dot; dot = strchr(dot + 1, '.')) {
		sf = prog_find_module(in->prog, afmt(in, "%.*s", (int)(dot - dotted), dotted));
		if (!sf)
			break;
		pkg = sf;
		rest = dot + 1;
	}
	if (!pkg || !rest || !pkg->is_package || !strncmp(pkg->path, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)) ||
	    !strchr(rest, '.'))
		return 0;
	in->exc_pending = "ModuleNotFoundError";
	return 1;
}

/* A dotted name that goes on below a plain module of the repository (a
 * .py file, not a package: `pkg.mod.Thing` where pkg/mod.py is a file and
 * pkg/mod/ no directory): a file module has no submodules, so Python
 * raises ModuleNotFoundError ("'pkg.mod' is not a package") wherever the
 * import is -- as a lookup by dotted path does when it tries the longest
 * split first (importlib.import_module("pkg.mod.Thing"), then "pkg.mod"
 * and getattr).  Only for the repository's own files: an installed
 * module may put its submodules in sys.modules by hand (os.path).  1 when
 * the import raises (exc_pending set), else 0. */
static int repo_below_plain_module(struct frame *f, const char *dotted)
{
	struct interp *in = f->in;
	struct sfile *sf;
	const char *dot;

	if (prog_find_module(in->prog, dotted))
		return 0;
	for (dot = strchr(dotted, '.'); dot; dot = strchr(dot + 1, '.')) {
		sf = prog_find_module(in->prog, afmt(in, "%.*s", (int)(dot - dotted), dotted));
		if (!sf)
			return 0;
		if (!strncmp(sf->path, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)))
			return 0;
		if (!sf->is_package) {
			in->exc_pending = "ModuleNotFoundError";
			return 1;
		}
	}
	return 0;
}

/* The directory of the repository that the top package `top` of module
 * `dotted` (a repository file, not an installed library's) stands for,
 * as a namespace package; NULL when dotted is no such file. */
static value_t *namespace_top(struct frame *f, const char *dotted, const char *top)
{
	struct interp *in = f->in;
	struct sfile *sf = prog_find_module(in->prog, dotted);
	const char *suffixes[] = { ".py", "/__init__.py" };
	size_t i, n, rl = strlen(dotted), pl;
	value_t *v = NULL;

	if (!sf || !strncmp(sf->path, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)))
		return NULL;
	pl = strlen(sf->path);
	for (i = 0; i < sizeof suffixes / sizeof *suffixes && !v; i++) {
		size_t sl = strlen(suffixes[i]), k;
		const char *rel;

		if (pl < rl + sl || strcmp(sf->path + pl - sl, suffixes[i]))
			continue;
		rel = sf->path + pl - sl - rl;
		for (k = 0; k < rl && (rel[k] == dotted[k] || (dotted[k] == '.' && rel[k] == '/')); k++)
			;
		if (k < rl || (rel > sf->path && rel[-1] != '/'))
			continue;
		n = (size_t)(rel - sf->path);
		v = namespace_pkg(in, afmt(in, "%.*s%s/", (int)n, sf->path, top));
	}
	return v;
}

void exec_import(struct frame *f, const struct ast_Import *s)
{
	unsigned i;

	for (i = 0; i < s->names.n; i++) {
		const struct ast_alias *al = AST_AS(s->names.items[i], alias);
		value_t *m;

		if (import_absent(f, al->name) || repo_subpackage_absent(f, al->name) ||
		    repo_below_plain_module(f, al->name))
			return;
		import_note_installed(f, al->name);

		if (al->asname) {
			m = import_module(f, al->name, 0);
			scope_bind(f, al->asname, m);
		} else {
			/* `import a.b.c` binds a; load a.b.c too so attributes resolve */
			char *top = xstrdup(al->name), *dot = strchr(top, '.');

			if (dot)
				*dot = 0;
			(void)import_module(f, al->name, 0);
			m = import_module(f, top, 0);
			if (dot && m->k == VK_EXT) {
				/* `import utils.misc` of the repository's utils/misc.py,
				 * utils/ without __init__.py (a namespace package): a
				 * is that directory, whose modules its attributes read */
				value_t *ns = namespace_top(f, al->name, top);

				if (ns)
					m = ns;
			}
			scope_bind(f, top, m);
			free(top);
		}
	}
}

/* `from pkg import mod` where pkg is a directory of the repository without
 * an __init__.py (a namespace package: import_module found no module
 * `pkg`, so it is an external) and pkg/mod.py (or pkg/mod/__init__.py)
 * is a repository file: Python imports that file, so mod is its module,
 * not the external pkg.mod (models/mar.py read as `from models import
 * mar`).  Only a name that is such a file: any other name stays pkg's
 * external (an installed package of that name owns it), and an installed
 * library's namespace portions are left as they were.  NULL when it is
 * not that. */
static value_t *namespace_submodule(struct frame *f, const char *pkg, const char *name)
{
	struct interp *in = f->in;
	struct sfile *sf = prog_find_module(in->prog, adot(in, pkg, name));

	if (!sf || !strncmp(sf->path, PROG_SITE_PREFIX, strlen(PROG_SITE_PREFIX)))
		return NULL;
	return ns_value(in, load_module_file(in, sf));
}

void exec_import_from(struct frame *f, const struct ast_ImportFrom *s)
{
	struct interp *in = f->in;
	int level = s->level > 0 ? s->level : 0;
	value_t *m;
	unsigned i;

	if (!level && s->module && (import_absent(f, s->module) || repo_subpackage_absent(f, s->module) ||
	                            repo_below_plain_module(f, s->module)))
		return;
	if (!level && s->module)
		import_note_installed(f, s->module);
	m = import_module(f, s->module ? s->module : "", level);

	for (i = 0; i < s->names.n; i++) {
		const struct ast_alias *al = AST_AS(s->names.items[i], alias);
		const char *bindname = al->asname ? al->asname : al->name;
		value_t *v = NULL;

		if (!strcmp(al->name, "*")) {
			if (m->k == VK_NS) {
				struct vdict *d = m->u.ns->dict;
				value_t *all = vdict_gets(d, "__all__");
				size_t k;

				if (all && (all->k == VK_LIST || all->k == VK_TUPLE)) {
					for (k = 0; k < all->u.seq->n; k++) {
						value_t *nm = all->u.seq->items[k];

						if (nm->k == VK_STR && (v = ns_attr(f, m->u.ns, nm->u.str.s)))
							scope_bind(f, nm->u.str.s, v);
					}
				} else {
					for (k = 0; k < d->n; k++)
						if (d->keys[k]->k == VK_STR && d->keys[k]->u.str.s[0] != '_')
							scope_bind(f, d->keys[k]->u.str.s, d->vals[k]);
				}
			} else if (m->k == VK_EXT) {
				/* `from torch.distributed import *` in a repository
				 * module (a shim re-exporting torch's names beside
				 * its own wrappers): the names are the library's,
				 * looked up when the module's own dict lacks them
				 * (ns_star_ext) */
				value_t *l = f->globals ? vdict_gets(f->globals->dict, STAR_EXT_KEY) : NULL;

				if (f->globals && !f->locals) {
					if (!l || l->k != VK_LIST) {
						l = v_seq(in->a, VK_LIST, 1);
						vdict_sets(in->a, f->globals->dict, STAR_EXT_KEY, l);
					}
					vseq_push(in->a, l->u.seq, v_str(in->a, m->u.ext));
				}
			} else if (m->k == VK_UNKNOWN) {
				note(in, anchor_at(f, &s->h), afmt(in, "from %s import *", s->module ? s->module : "."),
				     m->reason ? m->reason : "not resolved");
			}
			continue;
		}
		if (m->k == VK_NS)
			v = ns_attr(f, m->u.ns, al->name);
		else if (m->k == VK_EXT && !level && s->module && (v = namespace_submodule(f, s->module, al->name)))
			;
		else if (m->k == VK_EXT && !(v = stdlib_attr(in, m->u.ext, al->name)))
			v = v_ext(in->a, canon_ext(in, adot(in, m->u.ext, al->name)));
		/* `from pkg import Name` of a lazy package (it has an
		 * _import_structure; transformers >= 5 lists its models by
		 * define_import_structure(), a walk of its directory at run
		 * time): the import succeeds where the job runs, so Name is the
		 * package's, by its dotted name (hf.c reads Auto classes so) */
		if (!v && m->k == VK_NS && level == 0 && s->module && m->u.ns->file && m->u.ns->file->is_package &&
		    vdict_gets(m->u.ns->dict, "_import_structure"))
			v = v_ext(in->a, adot(in, s->module, al->name));
		if (!v)
			v = v_unknown(in->a, adot(in, s->module ? s->module : ".", al->name),
			              m->k == VK_NS ? "not defined in that module" : "the module is not resolved");
		scope_bind(f, bindname, v);
	}
}

/* ------------------------------------------------------------------ modules (files) */

struct vns **ns_slot(struct interp *in, const struct sfile *sf)
{
	if (sf->id >= in->ns_alloc) {
		size_t old = in->ns_alloc;

		GROW(in->ns, in->ns_alloc, sf->id + 1);
		memset(in->ns + old, 0, (in->ns_alloc - old) * sizeof *in->ns);
	}
	return &in->ns[sf->id];
}

static struct vns *load_module_file(struct interp *in, struct sfile *sf)
{
	struct vns *ns = *ns_slot(in, sf);
	struct frame f;

	if (ns)
		return ns;     /* done, or running: a circular import sees what is there */
	ns = ast_arena_alloc(in->a, sizeof *ns);
	ns->file = sf;
	ns->dict = vdict_new(in->a);
	*ns_slot(in, sf) = ns;
	vdict_sets(in->a, ns->dict, "__name__", v_str(in->a, sf->modname));
	vdict_sets(in->a, ns->dict, "__file__", v_str(in->a, sf->path));
	prog_ensure(in->prog, sf);
	if (!sf->mod) {
		ns->state = 2;
		note(in, sf->path, "an import of a file that does not parse", "see parse_errors");
		return ns;
	}
	ns->state = 1;
	memset(&f, 0, sizeof f);
	f.in = in;
	f.file = sf;
	f.globals = ns;
	f.mode = M_JOB;
	f.mult.n = 1;
	f.cond.taken = -1;
	(void)exec_block(&f, &sf->mod->body);
	ns->state = 2;
	return ns;
}
