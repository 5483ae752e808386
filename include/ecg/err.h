/* err.h - the process-wide error state.
 *
 * Convention: a function that can fail returns -1 (or NULL) after calling
 * err_set(); its caller may add context with err_prefix() and return -1 in
 * turn.  The top level prints err_last() and exits with err_code().
 * ecg is single-threaded; the state is one static buffer.
 */
#ifndef ECG_ERR_H
#define ECG_ERR_H

/* Exit codes, documented in ecg(1) and `ecg --help`. */
enum ecg_exit {
	ECG_EXIT_OK = 0,       /* records written (per-file problems are in them) */
	ECG_EXIT_STALE = 1,    /* check: the records no longer match the code */
	ECG_EXIT_USAGE = 2,    /* bad command line */
	ECG_EXIT_INPUT = 3,    /* not a repository, unknown revision, empty repository, entry not found */
	ECG_EXIT_OUTPUT = 4,   /* the records could not be written */
	ECG_EXIT_INTERNAL = 5, /* the embedded interpreter failed, or out of memory */
	ECG_EXIT_INCOMPLETE = 6 /* records written, but no model or no step was found
	                           (the records' `incomplete` says what stopped it) */
};

/* Set the error message and its exit class.  Always returns -1. */
int err_set(enum ecg_exit code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prepend "context: " to the current message.  Always returns -1. */
int err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The current message ("" if none); valid until the next err_* call. */
const char *err_last(void);

/* The exit class of the current error (ECG_EXIT_INTERNAL if none was set). */
enum ecg_exit err_code(void);

void err_clear(void);

/* Print "ecg: <msg>" to stderr (warnings; the run goes on), its control
 * characters made visible as vis() does (util.h). */
void err_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
