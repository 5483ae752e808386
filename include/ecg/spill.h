/* spill.h - fixed-size records sorted outside memory (base layer).
 *
 * A spill takes any number of records of one size, then gives them back
 * sorted by its comparison (or, without one, in the order they came).  It
 * holds at most one run buffer of records: when the buffer is full it is
 * sorted and written as a run to a temporary file in $TMPDIR (else /tmp).
 * The file is unlinked as soon as it is made, so it goes away with its
 * descriptor on every exit path (an error, a signal, kill -9).  Reading
 * back merges the runs with a heap, at most SPILL_FANIN at a time, each
 * through a small read buffer; with more runs, passes of SPILL_FANIN-way
 * merges come first.  Records that fit in the run buffer never touch a
 * file.
 *
 * Records are copied as bytes: a record may hold pointers that stay valid
 * in this process (interned strings), nothing that must be freed.
 *
 * Use: spill_new(); spill_add() any number of times; spill_sort() once;
 * spill_next() until it returns 0; spill_free().  A spill is reusable
 * after spill_sort() only for reading.
 *
 * Memory: the run buffer (SPILL_RUN_BYTES, 1 MiB; the environment variable
 * ECG_SPILL_RUN_BYTES overrides it, e.g. 512 to make tests merge many
 * runs in several passes) while adding, and SPILL_FANIN read buffers of
 * SPILL_READ_BYTES while reading.  The comparison must be a total order
 * (break ties with a unique field): the merge is not stable.
 *
 * Errors: spill_add(), spill_sort() and spill_next() return -1 after
 * err_set(ECG_EXIT_INTERNAL, ...) when the temporary file cannot be made,
 * written or read ("temporary file in /tmp: No space left on device").
 * After an error the spill can only be freed.  Nothing else fails
 * (allocation exits on out of memory, util.h).
 */
#ifndef ECG_SPILL_H
#define ECG_SPILL_H

#include <stddef.h>
#include <stdint.h>

#define SPILL_RUN_BYTES (1u << 20)
#define SPILL_READ_BYTES (32u << 10)
#define SPILL_FANIN 32

typedef int (*spill_cmp)(const void *a, const void *b);

struct spill;

/* A new, empty spill of records of recsize bytes, sorted by cmp (NULL:
 * kept in the order added).  Owned by the caller: spill_free(). */
struct spill *spill_new(size_t recsize, spill_cmp cmp);

/* Copy one record in.  0, or -1 after err_set() (the temporary file). */
int spill_add(struct spill *s, const void *rec);

/* No more records: sort (write the last run, merge passes).  0 or -1. */
int spill_sort(struct spill *s);

/* The next record, copied to rec: 1, 0 at the end, -1 after err_set(). */
int spill_next(struct spill *s, void *rec);

/* Records added so far. */
uint64_t spill_count(const struct spill *s);

/* Runs written to the temporary file so far (0: all in memory). */
size_t spill_runs(const struct spill *s);

/* Close the temporary file and free everything.  NULL is allowed. */
void spill_free(struct spill *s);

#endif
