/* pkgdir.h - setuptools' package_dir: import names an installed project
 * maps to other directories of its repository.
 *
 * setup(package_dir={"pkg.extra": "exps/extra"}) installs the files of
 * exps/extra/ as the package pkg.extra: `import pkg.extra.thing` (or
 * importlib.import_module("pkg.extra.thing")) reads exps/extra/thing.py.
 * Keys name packages below a top-level package of the repository (the
 * "" key, a whole source root such as {"": "lib"}, is not taken: src/ is
 * searched anyway, and reading setup.py for every import of a library
 * would list it among the files of every job).
 *
 * The map is read once, from the setup.py at the repository's root, when
 * prog_find_module() first needs it.  Only a value the file spells out is
 * taken: the package_dir keyword of its setup() / setuptools.setup() call
 * as a dict literal of string constants, a module-level name bound to
 * one, or a call (no arguments) of a module-level function that returns
 * one (directly or through a local name bound to one).  Anything else
 * leaves no map: imports keep Python's search alone.
 */
#ifndef ECG_PKGDIR_H
#define ECG_PKGDIR_H

struct prog;
struct sfile;
struct pkgdir;

/* The file of module `dotted` under the directory package_dir maps it to,
 * or NULL (no map, no key covering the name, or no such file there).
 * Reads (and keeps, in p) the map on the first call. */
struct sfile *pkgdir_find(const struct prog *p, const char *dotted);

/* Frees a map read by pkgdir_find (NULL is fine). */
void pkgdir_free(struct pkgdir *d);

#endif
