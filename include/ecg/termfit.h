/* termfit.h - tables that fit the terminal: the width a table takes,
 * columns shared out within it, and cells shortened in their middle.
 *
 * Every table ecg prints (jobs, show, show --top, show --schedule) asks
 * termfit_width() for its width and cuts its cells with termfit_mid(), so
 * that no line is wider than the width and no code anchor loses its line
 * number.  Nothing here allocates or fails.
 */
#ifndef ECG_TERMFIT_H
#define ECG_TERMFIT_H

#include <stddef.h>

/* The width of a table: asked when > 0 (--width N); else, when stdout is
 * a terminal, its width (TIOCGWINSZ, then $COLUMNS); else 80 (a pipe, a
 * file).  Never below TERMFIT_MIN. */
#define TERMFIT_MIN 40
int termfit_width(int asked);

/* s shortened to at most w columns in out (n bytes): the middle of the
 * text becomes "...", its head and its tail stay.  The tail keeps an
 * anchor's ":LINE" (the line number is never cut) and as much of the file
 * name and symbol before it as fits.  s longer than w only; else copied.
 * s should already be visible text (vis()).  Returns out. */
char *termfit_mid(char *out, size_t n, const char *s, int w);

/* Shrink the n column widths w[] (their natural widths on entry) until
 * their sum is at most avail, the widest for its weight first (weight[k]
 * 2 keeps twice the columns of weight 1; NULL: all 1), none below min[].
 * Sum of min[] above avail leaves them at min[] (the caller's minimums
 * keep that below TERMFIT_MIN). */
void termfit_cols(int *w, const int *min, const int *weight, int n, int avail);

#endif
