/* job.h - what kind of job a run of the interpreter saw, on what evidence,
 * and where a job starts: shared by `ecg extract` and `ecg jobs`.
 *
 * Ownership: a struct job_info owns its strings and evidence array;
 * job_info_free() releases them.  Nothing here fails.
 */
#ifndef ECG_JOB_H
#define ECG_JOB_H

#include <cjson/cJSON.h>

#include "ecg/interp.h"
#include "ecg/launcher.h"
#include "ecg/load.h"

struct job_info {
	const char *type;             /* "training", "inference_serving", "batch",
	                                 or NULL (no evidence): static */
	char *entry_anchor;           /* the main guard, or the entry function */
	char *step_anchor;            /* the step: loop body or function */
	cJSON *evidence;              /* [anchor, ...] behind type */
	char *reason;                 /* why type is NULL when evidence was
	                                 seen but does not decide it, or NULL */
	int loaded_model;             /* the job calls a model torch.load read
	                                 whole (there are no modules to list) */
};

/* Classify after interp_run_entry()/interp_run_function(): training on
 * backward() (and the optimizer step), serving on a request handler that
 * calls a model, batch on a model called under no_grad in a loop that
 * writes results; otherwise no type.  A model called with gradients, no
 * backward seen and no_grad used elsewhere gives no type, with
 * job->reason.  No_grad calls of a job that builds
 * an optimizer, shows no backward and lost values to a budget (its
 * training loop may be what was not followed) give no type, with
 * job->reason.  job must be zeroed. */
void job_classify(struct interp *in, struct job_info *job);

void job_info_free(struct job_info *job);

/* The first note of the reading stopped by a budget (steps, memory,
 * depth, a costly function not followed again), or NULL.  Borrowed from
 * the interpreter. */
const struct interp_note *job_budget_note(struct interp *in);

/* The file of module `dotted` in the repository, as a console script or
 * `python -m` finds it: a/b.py, a/b/__init__.py (and __main__.py when
 * `main`), at the root or under src/.  An owned path, or NULL. */
char *job_module_file(const struct load *L, const char *dotted, int main);

/* The file a launch (launcher.h) of launcher file `launcher` runs: its
 * -m module as job_module_file() finds it, or its script relative to the
 * repository root or to the launcher's directory.  An owned path, or NULL
 * when it is not in the repository (pip, a tool, an absolute path). */
char *job_launch_file(const struct load *L, const char *launcher, const struct launch *la);

#endif
