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

/* The first half of pyrt_init(), which it calls when needed: tune the
 * allocators for parsing file after file (process-wide: glibc's trim and
 * mmap thresholds, pymalloc's arenas) and pre-initialise (utf-8 mode,
 * LC_CTYPE from the environment).  The one step that calls setlocale():
 * done before other threads start, the rest of pyrt_init() may run while
 * another thread works (repo_lib_prestart()).  Idempotent. */
int pyrt_preinit(void);

/* Start the interpreter.  `helpers_dir` is the pyhelpers directory (may be
 * NULL when no helper will be loaded).  Call once. */
int pyrt_init(const char *helpers_dir);

/* pyrt_init() in two steps: the core of the interpreter now (builtins,
 * sys, the built-in and frozen modules: CPython's parser and the ast
 * classes), the rest of its start-up (sys.path and the path importer, the
 * `encodings` codec registry, sys.std*: about half of its ~10 ms, and most
 * of Py_FinalizeEx()'s 3 ms) only when pyrt_need_main() asks for it.
 * A parse with the core only gives the tree a complete interpreter gives,
 * but a file that needs the codec registry fails, and a failing parse may
 * try to set the registry up and leave it unusable, for good: parse with
 * it only in processes that are thrown away, and take no failure of theirs
 * as final (parsepool.c parses those again).  Where CPython has no
 * two-step start, the same as pyrt_init(). */
int pyrt_init_lazy(const char *helpers_dir);

/* Started by pyrt_init_lazy() and not completed yet? */
int pyrt_partial(void);

/* Complete the start-up if pyrt_init_lazy() left it; else 0.  Before any
 * parse in this process, and before importing anything that is not built
 * in (helpers_load()). */
int pyrt_need_main(void);

/* Finalize; safe to call when pyrt_init() failed or was never called.
 * An interpreter started by pyrt_init_lazy() whose start-up was never
 * completed is not finalized (CPython cannot): it is left to the end of
 * the process, or to the next pyrt_init*(), which takes it up again. */
void pyrt_fini(void);

/* pyrt_fini() for a caller after which this process parses again (refresh:
 * the changed files, then the job): a completely started interpreter is
 * left running, and the next pyrt_init*() takes it up at no cost (the
 * start-up and finalization were ~60 ms of a refresh).  pyrt_fini() still
 * finalizes it if none does. */
void pyrt_release(void);

/* "3.11.2": the version of the embedded parser.  Static storage. */
const char *pyrt_version(void);

/* The helpers directory given to pyrt_init(), or NULL.  Borrowed. */
const char *pyrt_helpers_dir(void);

/* Convert the pending Python exception into the ecg error state (with
 * `context` in front), clear it, and return -1.  With no exception pending,
 * sets "context: unknown Python error". */
int pyrt_error(const char *context);

/* Take the pending exception off the thread state: a new reference to the
 * normalized exception object (a PyObject *), or NULL if none was pending.
 * pyrt_error() and the parser's error reading (pyast.c) share it. */
struct _object;
struct _object *pyrt_take_exception(void);

/* The last dotted component of an exception type's name ("SyntaxError"),
 * or "unknown exception" when type is not a type.  Borrowed from the
 * type: valid while it lives.  Never fails. */
const char *pyrt_type_short_name(struct _object *type /* borrowed */);

/* str(obj) as a malloc'd UTF-8 string (characters that do not encode are
 * backslash-escaped; the caller frees it), or NULL when obj is NULL or
 * None or str() fails.  Never leaves an exception pending. */
char *pyrt_object_str(struct _object *obj /* borrowed */);

#endif
