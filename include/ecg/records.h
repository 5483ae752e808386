/* records.h - the two records and their common header (records contract v1,
 * see schemas/ and the design notes).  Builds cJSON trees; emit.h writes them.
 */
#ifndef ECG_RECORDS_H
#define ECG_RECORDS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "ecg/findings.h"

#define RECORDS_GRAPH_FILE "computation_graph.json"
#define RECORDS_SCHEDULE_FILE "execution_schedule.json"
#define RECORDS_GRAPH_SCHEMA "ecg.computation_graph/1"
#define RECORDS_SCHEDULE_SCHEMA "ecg.execution_schedule/1"
/* The key of the pair's id, the last member of both records. */
#define RECORDS_RUN_KEY "run"

/* What both records say about how they were read.  Strings are borrowed. */
typedef struct {
	const char *commit;        /* 40-hex */
	int dirty;
	const char *python;        /* parser version */
	const char *entry_file;    /* repository-relative, or NULL */
	const char *entry_anchor;  /* where the job starts (its __main__ guard), or NULL */
	const char *step_anchor;   /* the step: the loop or handler around the model call, or NULL */
	const char *job_type;      /* "training", "inference_serving", "batch", or NULL */
	cJSON *job_evidence;       /* [anchor], borrowed; NULL: none */
	const char *job_type_reason; /* why job_type is NULL, or NULL; borrowed */
	cJSON *files;              /* [{"path","blob"}], borrowed: duplicated into each record */
	cJSON *parse_errors;       /* [{"file","line","col","message"}], borrowed */
	cJSON *unresolved;         /* [{"anchor","what","reason"}], borrowed */
	cJSON *config;             /* [{"name","value","source","via"}], borrowed */
	cJSON *incomplete;         /* [{"what","reason","stopped_by"}]: what the
	                              analysis did not find, borrowed; NULL: not written */
	cJSON *environment;        /* {"site", "packages"}: the installed libraries
	                              read (site.h), or NULL when none was asked for */
	cJSON *invocation;         /* how extract was run (entry, argv, set, config_values,
	                              model), borrowed; NULL: not written */
} records_header_t;

/* New record trees with the header filled in and the analysis sections
 * present and empty.  Owned by the caller (cJSON_Delete). */
cJSON *records_graph_new(const records_header_t *h);
cJSON *records_schedule_new(const records_header_t *h);

/* Both records: the header from h, the graph's modules (taken: the
 * caller no longer owns it; NULL keeps the empty list) and the schedule's
 * sections moved out of sched_parts (NULL: they stay empty).  *graph and
 * *sched are the caller's to cJSON_Delete. */
void records_assemble(const records_header_t *h, cJSON *modules, cJSON *sched_parts, cJSON **graph,
                      cJSON **sched);

/* Read DIR/NAME as a record: the parsed object (the caller deletes it), or
 * NULL with err_set(ECG_EXIT_INPUT) when it cannot be read or is not a
 * JSON object. */
cJSON *records_read(const char *dir, const char *name);

/* Where show and render look when no --records is given: records/ at the
 * root of the work tree around the current directory, else ./records.
 * Owned by the caller.  Cannot fail. */
char *records_default_dir(void);

/* A member of a record entry: the string (borrowed) or NULL when absent
 * or not a string; records_num() returns 1 and sets *out for a number,
 * 0 otherwise.  Neither fails. */
const char *records_str(const cJSON *o, const char *key);
int records_num(const cJSON *o, const char *key, double *out);

/* records_add_parse_error(), records_add_unresolved(): findings.h */

/* The texts of both records, sealed as one pair: each ends with
 * "run": the SHA-1 of both texts without it (an earlier "run" is removed
 * from the trees first).  The same records give the same id; two runs
 * that wrote different records give different ids.  *graph_text and
 * *sched_text are owned by the caller.  Cannot fail. */
void records_seal(cJSON *graph, cJSON *sched, char **graph_text, char **sched_text);

/* 0 when graph and sched are one pair (the same "run", or neither has
 * one: an older ecg's records); else -1 with err_set(ECG_EXIT_INPUT)
 * naming both files in dir. */
int records_check_pair(const cJSON *graph, const cJSON *sched, const char *dir);

#endif
