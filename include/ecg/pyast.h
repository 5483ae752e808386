/* pyast.h - source bytes to an AST, with CPython's own parser.
 *
 * What ast.parse() does inside: Py_CompileStringObject(..., Py_file_input,
 * PyCF_ONLY_AST), without importing the ast module.  The source is handed
 * over as bytes so that PEP 263 coding cookies and the UTF-8 default are the
 * tokenizer's business, exactly as for `python file.py`.
 *
 * Requires pyrt_init().
 */
#ifndef ECG_PYAST_H
#define ECG_PYAST_H

#include <stddef.h>

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

/* Why a file was not parsed.  line/col are 1-based; 0 means not known. */
typedef struct {
	long line;
	long col;
	char *message;   /* owned; free with pyast_error_clear() */
} pyast_error;

void pyast_error_clear(pyast_error *e);

/* Files with more tokens than this are refused (return 1) before CPython
 * builds their tree: CPython's AST takes about 1 KB per token, so the
 * default bounds one file's parse near a gigabyte.  0: no limit.  Set it
 * before any parse (worker processes inherit it). */
#define PYAST_DEFAULT_MAX_TOKENS 1000000
void pyast_set_max_tokens(size_t n);
size_t pyast_get_max_tokens(void);  /* 0: no limit */

/* The estimate pyast_parse checks: about how many tokens src holds
 * (stops counting a little past `stop`). */
size_t pyast_count_tokens(const char *src, size_t len, size_t stop);

/* Parse an empty module and drop it: the interpreter's first parse also
 * builds the ast classes (a few ms).  Done once before forking parser
 * processes, so that each does not do it again (load.c does it while
 * libgit2 starts up).  Never fails (a failure
 * here only leaves the work to the first real parse). */
void pyast_warm(void);

/* Parse `len` bytes of source (src[len] must be 0) named `path` (used in
 * messages only).
 * Returns  0: *out is a new reference to the ast.Module node;
 *          1: the file does not parse (syntax error, NUL byte, bytes that do
 *             not decode, nesting too deep for the parser, out of memory in
 *             the parser): *perr is filled and no Python exception is left
 *             pending;
 *         -1: the runtime itself failed (err_set()). */
int pyast_parse(const char *path, const char *src, size_t len,
                PyObject **out, pyast_error *perr);

#endif
