/* anchors.h - the records' code anchors judged at a revision (records layer).
 *
 * Every code anchor of both records ("model.py:Block.forward:103") is
 * looked up again at a commit (or the work tree): fresh, moved, changed or
 * gone (see anchors.c).  `ecg check` reports the verdicts; `ecg refresh`
 * moves the anchors when nothing but lines moved (check_relocate()), so
 * that neither command calls the other.
 *
 * Ownership: a struct check is zeroed by the caller, filled by
 * check_classify_files() and check_records(), released by check_free()
 * (its repo, file list, parsed versions, report arrays, helpers path).
 * Errors: -1 after err_set() where a function returns int.
 */
#ifndef ECG_ANCHORS_H
#define ECG_ANCHORS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "ecg/prog.h"
#include "ecg/repo.h"
#include "ecg/symtab.h"

struct check_opts {
	const char *repo, *rev, *out, *helpers_dir;
	const char *cache_dir;           /* check_relocate(): the tree cache, or NULL */
	int worktree, json, quiet;
};

enum fstatus { F_SAME, F_CHANGED, F_GONE, F_MOVED };
enum astatus { A_FRESH = 0, A_MOVED, A_CHANGED, A_GONE };

/* One recorded file and what became of it. */
struct cfile {
	char *path;
	char blob[41];
	enum fstatus st;
	const repo_file_t *now;          /* its file at REV (F_SAME, F_CHANGED, F_MOVED) */
	int parsed;                      /* 0 not yet, 1 done */
	struct prog oldp, newp;          /* one file each, when parsed */
	struct symtab olds, news;
	int old_ok, new_ok;              /* that version parsed */
};

struct check {
	const struct check_opts *o;
	repo_t *repo;
	char commit[41];
	repo_file_t *all;
	size_t nall;
	struct cfile *files;
	size_t nfiles;
	char *helpers;
	int py_started;
	int py_borrowed;                 /* the interpreter was running already */
	cJSON *entries;                  /* the report: every anchor */
	cJSON *config;
	cJSON *env;                      /* check_environment(): what changed outside the repository */
	size_t counts[4];
};

/* Is path a Python file (".py")? */
int check_is_py(const char *path);
/* Each recorded file (the graph's `files`): the same blob at the commit,
 * changed, moved unchanged, or gone.  k->repo, k->all must be set. */
void check_classify_files(struct check *k, const cJSON *files);
/* Judge every anchor of both records into k->entries, k->config, k->counts.
 * -1 when the runtime failed. */
int check_records(struct check *k, const cJSON *graph, const cJSON *sched);
/* The graph header's environment judged on disk now, into k->env (an
 * array, created here): each file of environment.files whose content's
 * blob id differs from the one recorded ("changed") or that cannot be
 * read ("gone"), and each package of environment.packages whose version
 * in its recorded site directory differs ("changed": a library upgraded)
 * or that is no longer there ("gone"), and each name of
 * environment.absent (looked up and not found then) installed there now
 * ("installed").  Entries: {"kind": "file" |
 * "package", "path", "name" (packages), "status", "recorded", "now"
 * (blob ids or versions; null when not there)}.  Nothing is run or
 * imported; nothing here fails (an unreadable file is "gone"). */
void check_environment(struct check *k, const cJSON *graph);
/* What makes the records stale: anchors not fresh, config values whose
 * source changed, data files that changed, the environment's changes. */
size_t check_stale(const struct check *k);
void check_free(struct check *k);

/* refresh's fast path: when the changed files of the commit differ from
 * the recorded ones only in where things are, both records with every
 * anchor moved, the new commit and blobs (owned: *graph_out, *sched_out):
 * 1; 0 when the job must be read again (nothing set); -1 on error. */
int check_relocate(const char *repo_path, const char *rev, const char *helpers_dir, const char *cache_dir,
                   const cJSON *graph, const cJSON *sched, cJSON **graph_out, cJSON **sched_out);

#endif
