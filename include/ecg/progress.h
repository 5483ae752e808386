/* progress.h - what a long run is doing, on stderr, on a terminal only.
 *
 * progress_begin() starts the clock; progress_say() rewrites one status
 * line on stderr ("ecg: jobs: reading 12/64 train.py") once the run has
 * taken longer than half a second (ECG_PROGRESS_MS milliseconds when set:
 * the tests use 0), at most ten times a second; progress_end() erases
 * it.  Nothing is written when stderr is not a terminal or when off is
 * set (-q).  Warnings printed meanwhile go through err_warn(), which
 * calls progress_clear() first so that they start on a clean line.
 * Nothing here fails; state is process-wide (one run a process).
 */
#ifndef ECG_PROGRESS_H
#define ECG_PROGRESS_H

void progress_begin(const char *cmd, int off);
void progress_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_clear(void);
void progress_end(void);

#endif
