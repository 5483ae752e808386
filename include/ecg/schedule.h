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

/* The anchor of the step loop, for a job of type job_type (or NULL): for
 * training, the loop around the model call that runs with gradients,
 * above a gradient-accumulation loop if there is one; for other jobs, the
 * outermost loop around the model call (the samples loop around a
 * generate() whose decode loop is inside it); NULL when the job has no
 * such loop, or when it is a server whose model runs in a request handler
 * (the handler is the step).  Borrowed from the interpreter's arena. */
const char *schedule_step_anchor(struct interp *in, const char *job_type);

#endif
