/* layout.h - the parallel layout record (the `parallel` header key)
 *
 * Ownership: layout_parallel() returns a new cJSON object the caller
 * owns.  Nothing here fails.
 */
#ifndef ECG_LAYOUT_H
#define ECG_LAYOUT_H

#include <cjson/cJSON.h>

#include "ecg/interp.h"

/* {"tensor"|"pipeline"|"data"|"context"|"expert": {"size": n or null,
 * "source", "via", "expr", "anchor", "reason"}} from the degrees the job's
 * code bound (interp_parallel()) and its world size (WORLD_SIZE), or NULL
 * when the job bound none (a job with no parallel layout of its own). */
cJSON *layout_parallel(const struct interp *in);

#endif
