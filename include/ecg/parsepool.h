/* parsepool.h - parsing many files in worker processes.
 *
 * Each worker is a fork of the caller, whose interpreter is started: it
 * reads and parses its share of the files with that interpreter (its own
 * copy), and sends back, per file, whether it parsed and why not.  The
 * parent keeps the results in the order of the files it was given, so the
 * records are the same for any number of workers.  Trees are not sent back:
 * the workers answer "does it parse"; the analysis parses what it reads.
 * A worker that crashes costs the file it was on, not the run: another
 * takes its place.  With an interpreter started by pyrt_init_lazy(), the
 * files that do not parse are parsed again once the caller's interpreter
 * is completed (parsepool.c says why), so the answers are a complete
 * interpreter's in every case.
 */
#ifndef ECG_PARSEPOOL_H
#define ECG_PARSEPOOL_H

#include <stddef.h>

#include "ecg/repo.h"

enum pp_status {
	PP_OK = 0,        /* parsed */
	PP_PARSE,         /* did not parse: line, col, message */
	PP_READ,          /* could not be read (too large, missing blob, ...) */
	PP_LOST           /* the worker died before answering */
};

struct pp_result {
	enum pp_status status;
	long line, col;   /* 1-based; 0 unknown */
	char *message;    /* owned; NULL for PP_OK */
};

/* Parse files[idx[k]] for k in [0, n) with `jobs` worker processes
 * (jobs >= 1).  Requires pyrt_init() or pyrt_init_lazy(), and no other
 * thread running (the workers are forks); may complete a lazy start-up.  results[k] is filled for every k (free the
 * messages with parsepool_results_free()).  Returns 0, or -1 with err_set()
 * when workers could not be started (ECG_EXIT_INTERNAL); a worker that dies
 * is not an error of the run: its files get PP_LOST. */
int parsepool_run(repo_t *repo, const repo_file_t *files, const size_t *idx, size_t n,
                  int worktree, size_t cap, int jobs, struct pp_result *results);

void parsepool_results_free(struct pp_result *results, size_t n);

#endif
