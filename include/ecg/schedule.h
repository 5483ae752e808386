/* schedule.h - execution_schedule.json's sections, from what the
 * interpreter saw the job do (interp_sched(), the root calls and the
 * evidence): phases, data path, host<->device copies and syncs,
 * collectives, compute and intended overlaps.
 */
#ifndef ECG_SCHEDULE_H
#define ECG_SCHEDULE_H

#include <cjson/cJSON.h>

#include "ecg/interp.h"

/* Fill the analysis sections of `sched` (a record from
 * records_schedule_new(), whose sections are present and empty).  job_type
 * is the classification (or NULL).  Never fails (out of memory is fatal). */
void schedule_emit(struct interp *in, const char *job_type, cJSON *sched);

/* The anchor of the step loop: the loop around the model call that runs
 * with gradients, above a gradient-accumulation loop if there is one; NULL
 * when the job has no such loop.  Borrowed from the interpreter's arena. */
const char *schedule_step_anchor(struct interp *in);

#endif
