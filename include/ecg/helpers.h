/* helpers.h - where the pyhelpers/ directory is.
 *
 * Order: --helpers-dir if given; else, when this binary runs from its build
 * tree, the source tree's pyhelpers/; else the installed
 * $(pkgdatadir)/pyhelpers.  No environment variable is read.
 */
#ifndef ECG_HELPERS_H
#define ECG_HELPERS_H

/* Returns a string owned by the caller, or NULL with err_set() when the
 * directory chosen does not hold the helpers (ECG_EXIT_INTERNAL; with an
 * explicit --helpers-dir, ECG_EXIT_USAGE). */
char *helpers_find(const char *explicit_dir);

/* The helper interface this binary speaks (ECG_HELPERS_API in each helper). */
#define HELPERS_API 1

/* Load pyhelpers/<name>.py from `dir` by absolute path into a fresh module
 * object (nothing is put on sys.path, nothing is cached in sys.modules) and
 * check its ECG_HELPERS_API.  Requires pyrt_init().  Returns 0 and a new
 * reference in *out, or -1 with err_set() (ECG_EXIT_INTERNAL) and no Python
 * exception pending. */
typedef struct _object PyObject;
int helpers_load(const char *dir, const char *name, PyObject **out);

#endif
