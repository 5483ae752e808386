/* analyse.h - one job read from its entry: the interpreter run, the
 * model(s) chosen, the module tree and the schedule's sections.
 *
 * Shared by `ecg extract` and the fuzz target (tests/fuzz/), which feed it a
 * prog read from a commit or built in memory.
 */
#ifndef ECG_ANALYSE_H
#define ECG_ANALYSE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ecg/catalog.h"
#include "ecg/interp.h"
#include "ecg/job.h"
#include "ecg/prog.h"

struct analyse_opts {
	const char *entry_spec;         /* --entry as the user gave it (messages) */
	const char *const *argv;        /* the job's own command line */
	size_t argc;
	const char *const *sets;        /* --set KEY=VALUE, in order */
	size_t nsets;
	const cJSON *overrides;         /* --config FILE's pairs, or NULL */
	int machine;                    /* enum interp_machine (interp.h); 0: not known */
	const char *model;              /* --model NAME, or NULL */
	interp_load_fn loader;          /* reads config files the job opens; NULL: none */
	interp_text_fn text_loader;     /* reads text files the job opens (same ctx); NULL: none */
	interp_tree_fn tree;            /* what a path of the repository is (same ctx); NULL: not known */
	interp_fs_json_fn fs_json_loader; /* reads a checkpoint's config.json outside the
	                                   repository (same ctx); NULL: none */
	void *loader_ctx;
	size_t *interp_bytes;           /* when not NULL: the interpreter's peak arena size */
	int env_known;                  /* the job's environment is known: envs (KEY=VALUE, or
	                                   KEY: set, value not known),
	                                   every other variable unset (interp_set_env) */
	const char *const *envs;
	size_t nenvs;
	int env_partial;                /* with env_known: envs are only the variables the
	                                   launcher sets; any other may be set */
};

/* Read the job whose entry script is `entry` (a path in prog; with func,
 * the job starts at that function) and fill: modules (the graph's list),
 * unres (unresolved notes), config (values used), *job (type, anchors,
 * evidence; the caller frees it with job_info_free) and sched_parts (an
 * object whose schedule sections are replaced).
 * 0 on success, also when the entry did not parse (nothing is filled);
 * -1 with err_set(ECG_EXIT_INPUT) when FUNC is not defined there or --model
 * names no model the job calls. */
int analyse_job(struct prog *prog, const char *entry, const char *func, const struct analyse_opts *o,
                const struct catalog *cat, cJSON *modules, cJSON *unres, cJSON *config,
                struct job_info *job, cJSON *sched_parts);

#endif
