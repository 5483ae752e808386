/* pyrt.h - the embedded CPython runtime.
 *
 * The only file that touches PyConfig.  The interpreter is isolated: no
 * environment variables, no site, no user site, no bytecode writing, no
 * signal handlers, and nothing of the repository or the current directory on
 * sys.path.  It exists to run CPython's own parser; no job code is ever
 * imported or executed.
 *
 * Errors: int functions return 0 / -1 with err_set() (ECG_EXIT_INTERNAL).
 */
#ifndef ECG_PYRT_H
#define ECG_PYRT_H

/* Start the interpreter.  `helpers_dir` is the pyhelpers directory (may be
 * NULL when no helper will be loaded).  Call once. */
int pyrt_init(const char *helpers_dir);

/* Finalize; safe to call when pyrt_init() failed or was never called. */
void pyrt_fini(void);

/* "3.11.2": the version of the embedded parser.  Static storage. */
const char *pyrt_version(void);

/* The helpers directory given to pyrt_init(), or NULL.  Borrowed. */
const char *pyrt_helpers_dir(void);

/* Convert the pending Python exception into the ecg error state (with
 * `context` in front), clear it, and return -1.  With no exception pending,
 * sets "context: unknown Python error". */
int pyrt_error(const char *context);

#endif
