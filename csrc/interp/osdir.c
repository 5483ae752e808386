/* interp/osdir.c - os.listdir / os.scandir read from the repository's tree
 *
 * The pattern of registry-based repositories (BasicSR, mmcv-style code):
 *
 *     folder = osp.dirname(osp.abspath(__file__))
 *     names = [osp.splitext(osp.basename(v))[0] for v in scandir(folder)
 *              if v.endswith('_model.py')]
 *     _mods = [importlib.import_module(f'pkg.models.{n}') for n in names]
 *
 * Which modules are imported -- and so which classes their decorators
 * file in a registry -- is decided by a directory listing.  It is read
 * here from the repository's tree at the commit (interp_tree_fn,
 * tree_kind), the tracked names directly in the directory, in path order
 * (the file system's order is not Python's to promise either) -- for a
 * package directory (it holds an __init__.py), or one that holds only
 * Python code (pathlib.c tree_code_dir: a model zoo's modules and
 * packages): its modules are the commit's wherever the job runs (the
 * bytecode cache an import writes there is no module a scan takes).  Any
 * other directory is data, whose
 * files where the job runs (images, a dataset written since) the commit
 * does not pin: not known.
 *
 *   os.listdir(p)      a list of the names (str)
 *   os.scandir(p)      a list of os.DirEntry objects (an emulated outside
 *                      class, attr.c's emulated_exts): attributes name and
 *                      path (os.path.join(p, name), as DirEntry.path is),
 *                      methods is_file() and is_dir() asked of the tree
 *                      (osdir_entry_query).  A list, not an iterator: a
 *                      `with os.scandir(p) as it` is not read.
 *   os.path.splitext   (root, ext) as posixpath splits: the last '.' of
 *                      the base name that is not its leading dots
 *   os.path.relpath    relpath(path, start) when path is start or lies
 *                      under it, textually ("." or "" start: path as is);
 *                      other cases are unknown (abspath is read as the
 *                      path as it is, so both are relative to where the
 *                      job runs, as Python's absolute ones would agree)
 *
 * A directory the tree does not hold (outside the repository, made at
 * run time), a file, or a path not known is an unknown with its reason:
 * what is listed there is not known.  Every value is allocated in the
 * interpreter's arena; the tree's names are freed here.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* A new os.DirEntry for name in directory dir. */
static value_t *dirent_new(struct interp *in, const char *dir, const char *name)
{
	struct vinst *o = new_inst(in);
	size_t dl = strlen(dir);
	const char *path = !dl || !strcmp(dir, ".") ? (!dl ? name : afmt(in, "./%s", name))
	                   : dir[dl - 1] == '/' ? afmt(in, "%s%s", dir, name) : afmt(in, "%s/%s", dir, name);

	o->ext = "os.DirEntry";
	vdict_sets(in->a, o->attrs, "name", v_str(in->a, name));
	vdict_sets(in->a, o->attrs, "path", v_str(in->a, path));
	return mk_inst_value(in, o);
}

/* os.listdir(p) / os.scandir(p) of a directory of the tree; os.listdir()
 * with no argument lists ".". */
value_t *osdir_list(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int scan = !strcmp(d, "os.scandir");
	value_t *p = nargs ? path_text(args[0]) : v_str(in->a, "."), *r;
	char **names = NULL;
	size_t n = 0, i;
	int kind, pkg;

	if ((kw && kw->n) || nargs > 1 || p->k != VK_STR)
		return unknown_at(f, site, "a directory listing of a path not known");
	kind = tree_kind(in, p->u.str.s[0] ? p->u.str.s : ".", &names, &n);
	for (i = 0, pkg = 0; i < n; i++)
		pkg |= !strcmp(names[i], "__init__.py");
	if (kind == INTERP_TREE_DIR && !pkg)
		pkg = tree_code_dir(in, p->u.str.s[0] ? p->u.str.s : ".", names, n);
	if (kind != INTERP_TREE_DIR || !pkg) {
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return unknown_at(f, site, kind == INTERP_TREE_FILE ? "a directory listing of a file (NotADirectoryError)"
		                           : kind == INTERP_TREE_DIR ? "a listing of a directory of data (no package): "
		                                                       "what it holds where the job runs is not pinned"
		                                                     : NOT_IN_TREE);
	}
	r = v_seq(in->a, VK_LIST, 0);
	for (i = 0; i < n; i++) {
		vseq_push(in->a, r->u.seq, scan ? dirent_new(in, p->u.str.s, names[i]) : v_str(in->a, names[i]));
		free(names[i]);
	}
	free(names);
	return r;
}

/* entry.is_file() / entry.is_dir() of an os.DirEntry: the tree's kind of
 * its path (pathlib.c's path_query) */
value_t *osdir_entry_query(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	value_t *p = vdict_gets(fn->u.bi.self->u.inst->attrs, "path");

	(void)args, (void)nargs, (void)kw;
	return path_query(f, p, fn->u.bi.id == BI_M_DIRENT_IS_DIR ? BI_M_PATH_IS_DIR : BI_M_PATH_IS_FILE, site);
}

/* os.path.splitext(p): (root, ext) */
value_t *osdir_splitext(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *s, *base, *dot;
	value_t *r;

	(void)d;
	if (nargs != 1 || (kw && kw->n) || path_text(args[0])->k != VK_STR)
		return unknown_at(f, site, "a path not known");
	s = path_text(args[0])->u.str.s;
	base = strrchr(s, '/');
	base = base ? base + 1 : s;
	while (*base == '.')
		base++;            /* leading dots of the name are no extension */
	dot = strrchr(base, '.');
	r = v_seq(in->a, VK_TUPLE, 0);
	vseq_push(in->a, r->u.seq, dot ? v_strn(in->a, s, (size_t)(dot - s)) : v_str(in->a, s));
	vseq_push(in->a, r->u.seq, v_str(in->a, dot ? dot : ""));
	return r;
}

/* os.path.relpath(path[, start]) where path is start or under it */
value_t *osdir_relpath(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *p, *st;
	size_t sl;

	(void)d;
	if (nargs < 1 || nargs > 2 || (kw && kw->n) || path_text(args[0])->k != VK_STR ||
	    (nargs == 2 && path_text(args[1])->k != VK_STR))
		return unknown_at(f, site, "a path not known");
	p = path_text(args[0])->u.str.s;
	st = nargs == 2 ? path_text(args[1])->u.str.s : ".";
	if (!*p)
		return unknown_at(f, site, "relpath of '' (ValueError)");
	if (!*st || !strcmp(st, "."))
		return *p == '/' ? unknown_at(f, site, "relpath of an absolute path from where the job runs")
		                 : v_str(in->a, strncmp(p, "./", 2) ? p : p[2] ? p + 2 : ".");
	sl = strlen(st);
	while (sl > 1 && st[sl - 1] == '/')
		sl--;
	if (!strncmp(p, st, sl) && !p[sl])
		return v_str(in->a, ".");
	if (!strncmp(p, st, sl) && p[sl] == '/' && p[sl + 1])
		return v_str(in->a, p + sl + 1);
	return unknown_at(f, site, "relpath of a path not under its start (not read)");
}
