/* interp/pathopen.c - another library's open of a path, read as open()
 *
 * Repositories open their files through a library's file-system layer,
 * which hands a local path to the builtin open():
 *
 *     pathmgr = PathManagerFactory.get()          # iopath
 *     with pathmgr.open(cfg_file, "r") as f:
 *         _C.merge_from_other_cfg(_C.load_cfg(f))
 *
 * iopath's PathManager.open gives a path of no registered handler to its
 * NativePathHandler, whose _open returns open(path, mode, ...).  Read as
 * an unknown call, the file object is lost there, and with it every
 * value read from it (the job's whole configuration above).
 *
 * The catalog (path_openers) names such calls by their dotted name (a
 * method as '<class>.<method>').  path_open_call() reads one given a
 * local path given first (a str, or a pathlib.Path whose text is known, with no
 * "scheme://" a handler of the library would serve) as the builtin open
 * of the same arguments: the file object of builtins.c, so json.load,
 * yaml.safe_load and yacs's load_cfg read the file it names.  A path
 * with a scheme, or one not known: the unknown result of open() of a
 * path not known.  Another callee: NULL (the caller goes on).
 *
 * Owns nothing: the result is builtins.c's, made in the interpreter's
 * arena.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

value_t *path_open_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *p;

	if (!catalog_fact(in->cat, CATALOG_F_PATH_OPENERS, d))
		return NULL;
	p = nargs >= 1 ? args[0] : NULL;     /* open(path, ...): the path first */
	if (p && is_path(p))
		p = path_text(p);
	if (!p || p->k != VK_STR || strstr(p->u.str.s, "://"))
		return unknown_at(f, site, afmt(in, "%s of a path ecg does not read", d));
	return call_builtin(f, mk_builtin(in, BI_OPEN, NULL), args, nargs, kw, site);
}
