/* nearest.h - "did you mean": the known name nearest to a misspelled one.
 *
 * nearest() returns the name of names[0..n) closest to word by edit
 * distance (insertions, deletions, substitutions and swaps of two
 * neighbours, case ignored), or NULL when none is close enough: within a
 * third of word's length, at least 1 and at most 3 edits; a name that
 * starts with the word (an abbreviation) is also taken.  Ties go to the
 * first in names.  The result points into names; nothing is allocated and
 * nothing fails.
 */
#ifndef ECG_NEAREST_H
#define ECG_NEAREST_H

#include <stddef.h>

const char *nearest(const char *word, const char *const *names, size_t n);

/* The edit distance itself (both strings shorter than 128 bytes; longer
 * ones are far: returns 1000). */
int nearest_distance(const char *a, const char *b);

#endif
