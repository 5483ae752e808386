/* interp/pathlib.c - pathlib.Path as an emulated object
 *
 * A Path is an instance of the outside class "pathlib.Path" (attr.c's
 * emulated_exts) whose attribute __ecg_path__ holds its text, normalised
 * as pathlib does (no empty or "." parts, no trailing '/', "" is ".").
 * What is read exactly: Path(str or Path ...), p / x and x / p, .parent,
 * .name, .stem, .suffix, .resolve() / .absolute() / .expanduser() (the
 * path as it is, as os.path.abspath is read here: the job's paths are
 * relative to where it runs), .joinpath(), .with_suffix(), .with_name(),
 * .open(), .read_text() (open(p).read(): a repository file's text),
 * str(p), os.fspath(p), and a
 * Path wherever a path string is taken (open, load_config, os.path.*:
 * path_text()).  .is_file(), .is_dir(), .exists() (and os.path.isfile,
 * isdir, exists: path_m_query), .glob(pattern) and os.listdir(p) are read
 * from the repository's tree at the commit (interp_tree_fn), as open() reads its
 * files: a path in the tree is a file or a directory, and a directory of
 * the tree lists its tracked names (in path order, not the file system's;
 * one level: a pattern with '/' or '**' is not read).  A path the tree
 * does not hold -- outside the repository, or made at run time -- is
 * not known to exist or not: unknown.  The empty string (not a Path:
 * Path("") is ".") names nothing: os.path.isdir("") and its kin are
 * False, as stat("") fails.  Any other attribute or method,
 * and a Path made from a value not known, is unknown with the reason.
 * Every value is allocated in the interpreter's arena; nothing here
 * fails otherwise.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>

#include "internal.h"

#define PATH_ATTR "__ecg_path__"

int is_path(const value_t *v)
{
	return v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "pathlib.Path");
}

value_t *path_text(value_t *v)
{
	value_t *t;

	if (!is_path(v))
		return v;
	t = vdict_gets(v->u.inst->attrs, PATH_ATTR);
	return t ? t : v;
}

/* text normalised as pathlib's PurePosixPath does into b */
static void path_norm(buf_t *b, const char *text)
{
	const char *p = text;

	buf_reset(b);
	if (p[0] == '/') {
		/* POSIX keeps exactly two leading slashes, folds more into one */
		buf_addstr(b, p[1] == '/' && p[2] != '/' ? "//" : "/");
		while (*p == '/')
			p++;
	}
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n && !(n == 1 && p[0] == '.')) {
			if (b->len && b->buf[b->len - 1] != '/')
				buf_addch(b, '/');
			buf_add(b, p, n);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (!b->len)
		buf_addch(b, '.');
}

/* A new Path of text (normalised). */
static value_t *path_new_text(struct interp *in, const char *text)
{
	struct vinst *o = new_inst(in);
	buf_t b;

	buf_init(&b);
	path_norm(&b, text);
	o->ext = "pathlib.Path";
	vdict_sets(in->a, o->attrs, PATH_ATTR, v_strn(in->a, b.buf, b.len));
	buf_free(&b);
	return mk_inst_value(in, o);
}

/* The parts joined as pathlib joins them (an absolute part starts over);
 * an unknown when one is not a known str or Path. */
static value_t *path_join(struct frame *f, value_t **parts, size_t n, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	buf_t b;
	value_t *r;
	size_t i;

	for (i = 0; i < n; i++)
		if (path_text(parts[i])->k != VK_STR)
			return unknown_at(f, site, parts[i]->k == VK_UNKNOWN && parts[i]->reason
			                               ? parts[i]->reason : "a path built from values that are not known");
	buf_init(&b);
	for (i = 0; i < n; i++) {
		const char *s = path_text(parts[i])->u.str.s;

		if (s[0] == '/')
			buf_reset(&b);
		else if (b.len && b.buf[b.len - 1] != '/')
			buf_addch(&b, '/');
		buf_addstr(&b, s);
	}
	r = path_new_text(in, b.buf);
	buf_free(&b);
	return r;
}

/* pathlib.Path(*parts) (PurePath, PosixPath alike) */
value_t *path_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	(void)d;
	if (kw && kw->n)
		return unknown_at(f, site, "a Path made with keywords");
	return path_join(f, args, nargs, site);
}

/* l / r with a Path on one side (NULL when neither is one) */
value_t *path_div(struct frame *f, value_t *l, value_t *r, const struct ast_hdr *site)
{
	value_t *parts[2] = { l, r };

	if (!is_path(l) && !is_path(r))
		return NULL;
	return path_join(f, parts, 2, site);
}

/* The text of the last part of p ("" for "." and "/"). */
static const char *path_name(const char *p)
{
	const char *sl = strrchr(p, '/');

	if (!strcmp(p, "."))
		return "";
	return sl ? sl + 1 : p;
}

/* The suffix's offset in name: its last '.', not first nor last; or
 * the name's length when it has none. */
static size_t suffix_at(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && dot != name && dot[1] ? (size_t)(dot - name) : strlen(name);
}

/* p.parent, .name, .stem, .suffix; NULL for any other name */
value_t *path_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *t = path_text(obj);
	const char *p, *nm;

	(void)site;
	if (t->k != VK_STR)
		return NULL;
	p = t->u.str.s;
	nm = path_name(p);
	if (!strcmp(name, "parent")) {
		size_t keep = (size_t)(nm - p);

		if (!*nm)
			return obj;                            /* "." and "/" are their own parent */
		while (keep > 1 && p[keep - 1] == '/')
			keep--;
		return path_new_text(in, keep ? afmt(in, "%.*s", (int)keep, p) : ".");
	}
	if (!strcmp(name, "parents")) {
		/* the chain of .parent up to "." or "/" (a relative path's
		 * last parent is ".", where the job runs, as .parent reads
		 * it): Path(__file__).resolve().parents[1].  (Of a path
		 * resolve() made absolute at run time, the directories above
		 * where the job runs are not listed: an index past the
		 * relative ones is not known, as for any tuple; its length
		 * and a loop over it stop at ".") */
		value_t *r = v_seq(in->a, VK_TUPLE, 0), *q = obj;
		int guard = 0;

		while (guard++ < 256) {
			value_t *qt = path_text(q);
			const char *s = qt->k == VK_STR ? qt->u.str.s : NULL;

			if (!s || !*path_name(s))
				break;                         /* "." and "/" have no parents */
			q = path_attr(f, q, "parent", site);
			if (!q)
				break;
			vseq_push(in->a, r->u.seq, q);
		}
		return r;
	}
	if (!strcmp(name, "name"))
		return v_str(in->a, nm);
	if (!strcmp(name, "suffix"))
		return v_str(in->a, nm + suffix_at(nm));
	if (!strcmp(name, "stem"))
		return v_strn(in->a, nm, suffix_at(nm));
	return NULL;
}

/* p.resolve(), p.absolute(), p.expanduser(): the path as it is */
value_t *path_m_same(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	(void)f, (void)args, (void)nargs, (void)kw, (void)site;
	return fn->u.bi.self;
}

/* p.joinpath(*parts) */
value_t *path_m_joinpath(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	value_t **parts = ast_arena_alloc(f->in->a, (nargs + 1) * sizeof *parts);
	size_t i;

	(void)kw;
	parts[0] = fn->u.bi.self;
	for (i = 0; i < nargs; i++)
		parts[i + 1] = args[i];
	return path_join(f, parts, nargs + 1, site);
}

/* p.with_suffix(s), p.with_name(n): the last part changed (pathlib's
 * ValueError cases -- an empty name, a suffix without its dot -- are
 * unknown) */
value_t *path_m_with(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *p = path_text(fn->u.bi.self)->u.str.s, *nm = path_name(p), *x;
	int suffix = fn->u.bi.id == BI_M_PATH_WITH_SUFFIX;

	(void)kw;
	if (nargs != 1 || args[0]->k != VK_STR || !*nm)
		return unknown_at(f, site, "a path's part changed to a value not known");
	x = args[0]->u.str.s;
	if (suffix ? (*x && (x[0] != '.' || !x[1] || strchr(x, '/'))) : (!*x || strchr(x, '/') || !strcmp(x, ".")))
		return unknown_at(f, site, "a path part pathlib refuses (ValueError)");
	return path_new_text(in, suffix ? afmt(in, "%.*s%.*s%s", (int)(nm - p), p, (int)suffix_at(nm), nm, x)
	                                : afmt(in, "%.*s%s", (int)(nm - p), p, x));
}

/* p.open(mode ...): open(str(p), mode ...) */
value_t *path_m_open(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	value_t **a2 = ast_arena_alloc(f->in->a, (nargs + 1) * sizeof *a2);

	a2[0] = path_text(fn->u.bi.self);
	if (nargs)
		memcpy(a2 + 1, args, nargs * sizeof *a2);
	return call_builtin(f, mk_builtin(f->in, BI_OPEN, NULL), a2, nargs + 1, kw, site);
}

/* p.read_text(): open(str(p)).read(), as pathlib documents it; an
 * encoding or errors argument changes nothing ecg reads */
value_t *path_m_read_text(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *a = path_text(fn->u.bi.self), *fo, *rd;

	(void)args, (void)nargs, (void)kw;
	fo = call_builtin(f, mk_builtin(in, BI_OPEN, NULL), &a, 1, NULL, site);
	if (fo->k != VK_INST || !(rd = ext_method(in, fo, "read")))
		return unknown_at(f, site, "read_text() of a path not read");
	return call_builtin(f, rd, NULL, 0, NULL, site);
}

/* os.fspath(p): the text of a Path, a str as it is */
value_t *path_fspath(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	(void)d, (void)kw;
	if (nargs == 1 && path_text(args[0])->k == VK_STR)
		return path_text(args[0]);
	return unknown_at(f, site, "a path not known");
}

/* What the tree holds at path text p: INTERP_TREE_* (names as
 * interp_tree_fn's), or -1 with no tree to ask.  (osdir.c lists with it.) */
int tree_kind(struct interp *in, const char *p, char ***names, size_t *nnames)
{
	if (names) {
		*names = NULL;
		*nnames = 0;
	}
	if (!in->tree)
		return -1;
	return in->tree(in->tree_ctx, p, in->prog->entry_dir ? in->prog->entry_dir : "", names, nnames);
}

const char NOT_IN_TREE[] = "a path the repository does not hold at this commit: whether it exists where "
                                  "the job runs is not known";

/* Whether the path p (a str or a Path) is a file (BI_M_PATH_IS_FILE), a
 * directory (BI_M_PATH_IS_DIR) or either (BI_M_PATH_EXISTS), as the tree
 * says: p.is_file() ..., and os.path.isfile(p), isdir(p), exists(p).
 * The empty string (not a Path) names nothing: False. */
value_t *path_query(struct frame *f, value_t *p, int what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *t = p ? path_text(p) : NULL;
	int kind;

	if (!t || t->k != VK_STR)
		return unknown_at(f, site, "a path not known");
	/* os.path.isdir("") and its kin stat "": no such file, False (the
	 * default --checkpoint '' is no directory); Path("") is "." and
	 * reaches here as its normalised text */
	if (!is_path(p) && !t->u.str.s[0])
		return v_bool(in->a, 0);
	kind = tree_kind(in, t->u.str.s, NULL, NULL);
	if (kind == INTERP_TREE_NONE || kind < 0)
		return unknown_at(f, site, NOT_IN_TREE);
	if (what == BI_M_PATH_EXISTS)
		return v_bool(in->a, 1);
	return v_bool(in->a, kind == (what == BI_M_PATH_IS_DIR ? INTERP_TREE_DIR : INTERP_TREE_FILE));
}

/* p.is_file(), p.is_dir(), p.exists() */
value_t *path_m_query(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site)
{
	(void)args;
	if ((kw && kw->n) || nargs)
		return unknown_at(f, site, "a path query with arguments (follow_symlinks) not read");
	return path_query(f, fn->u.bi.self, fn->u.bi.id, site);
}

/* Is every name n[0..nn) in the tree's directory dir Python code -- a
 * module (.py) or a package (a directory with an __init__.py) -- and one
 * at least a module?  Such a directory lists at run time what the commit
 * holds (the job's own code); any other may hold what the run's data or
 * outputs put there.  (osdir.c lists such a directory.) */
int tree_code_dir(struct interp *in, const char *dir, char **n, size_t nn)
{
	buf_t b;
	size_t i, l;
	int mods = 0, ok = 1;

	buf_init(&b);
	for (i = 0; ok && i < nn; i++) {
		l = strlen(n[i]);
		if (l > 3 && !strcmp(n[i] + l - 3, ".py")) {
			mods = 1;
			continue;
		}
		buf_reset(&b);
		buf_addstr(&b, dir);
		buf_addch(&b, '/');
		buf_addstr(&b, n[i]);
		buf_addstr(&b, "/__init__.py");
		ok = tree_kind(in, b.buf, NULL, NULL) == INTERP_TREE_FILE;
	}
	buf_free(&b);
	return ok && mods;
}

/* p.glob(pattern): the tree's names directly in the directory p that
 * match pattern (fnmatch, no '/'), as Paths p / name, in path order */
value_t *path_m_glob(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *t = path_text(fn->u.bi.self), *r;
	char **names = NULL;
	size_t n = 0, i;
	int kind;

	if ((kw && kw->n) || nargs != 1 || args[0]->k != VK_STR || t->k != VK_STR)
		return unknown_at(f, site, "a glob of a path or pattern not known");
	if (!*args[0]->u.str.s || strchr(args[0]->u.str.s, '/') || strstr(args[0]->u.str.s, "**"))
		return unknown_at(f, site, "a glob over more than one directory level (not read)");
	kind = tree_kind(in, t->u.str.s, &names, &n);
	if (kind != INTERP_TREE_DIR) {
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return unknown_at(f, site, kind == INTERP_TREE_FILE ? "a glob under a file (nothing)" : NOT_IN_TREE);
	}
	r = v_seq(in->a, VK_LIST, 0);
	for (i = 0; i < n; i++) {
		if (fnmatch(args[0]->u.str.s, names[i], 0) == 0) {
			value_t *parts[2] = { fn->u.bi.self, v_str(in->a, names[i]) };

			vseq_push(in->a, r->u.seq, path_join(f, parts, 2, site));
		}
		free(names[i]);
	}
	free(names);
	return r;
}
