/* extract.h - one job at a commit read into both records (records layer).
 *
 * What `ecg extract` does once its options are parsed, and what `ecg
 * refresh` does again with the options the records' invocation gives:
 * load the repository (load.h), analyse the job (analyse.h), assemble the
 * records (records.h), write them as one pair (emit.h).  The commands only
 * parse options and print.
 *
 * Errors: as each function says; an int exit status has had its message
 * printed already (err_warn()).
 */
#ifndef ECG_EXTRACT_H
#define ECG_EXTRACT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define EXTRACT_DEFAULT_MAX_FILE (16UL << 20)
/* The largest limits taken: a file is read whole into memory, and a
 * token costs about 1 KB of CPython's tree. */
#define EXTRACT_MAX_FILE (1UL << 31)
#define EXTRACT_MAX_TOKENS (1UL << 31)

/* The options of one extraction (borrowed strings, owned arrays: the
 * caller frees sets, envs and prefetch). */
struct extract_opts {
	const char *repo;
	const char *rev;
	const char *entry;
	const char *launcher;       /* --launcher FILE[:LINE] */
	const char *out;
	const char *helpers_dir;
	int worktree;
	int quiet;
	int stats;
	int jobs;                   /* 0: auto */
	const char *model;          /* --model NAME */
	const char **sets;          /* --set KEY=VALUE, in order */
	size_t nsets, asets;
	const char *config;         /* --config FILE */
	size_t max_file;
	size_t max_tokens;          /* --max-file-tokens */
	int all;                    /* --all: parse every file */
	const char *cache_dir;      /* --cache-dir DIR */
	int no_cache;               /* --no-cache */
	char **job_argv;            /* after `--`: the job's own command line */
	size_t job_argc;
	char **launcher_argv;       /* with --launcher: the launcher's own arguments */
	size_t launcher_argc;
	int env_set;                /* the launcher sets the job's environment (torchrun, srun ...) */
	const char *launch_envs[4]; /* the variables that launcher sets for torch.distributed
	                               (WORLD_SIZE=n, RANK, LOCAL_RANK), static or in
	                               launch_world */
	size_t nlaunch_envs;
	char launch_world[40];
	const char **envs;          /* --env KEY=VALUE, in order */
	size_t nenvs, aenvs;
	int no_env;                 /* --no-env (or --env given): other variables are unset */
	int machine;                /* enum interp_machine: --machine, or what the
	                               launcher names (--multi_gpu); 0: not known */
	const char **sites;         /* --site DIR, in order */
	size_t nsites, asites;
	const char *python;         /* --python PATH */
	int no_site_env;            /* --no-site-env */
	const char **prefetch;      /* refresh: the paths the records' job read */
	size_t nprefetch;
};

/* Read and analyse as the options say.  ECG_EXIT_OK with *graph, *sched
 * (the caller deletes them) and *out_dir (the caller frees it) set; else
 * the exit status, the error already printed.  `inline_overrides`, when
 * not NULL, stands for --config FILE's values (refresh replays the
 * recorded ones).  *incomplete_out (may be NULL): no model or no step was
 * found. */
int extract_build(const struct extract_opts *o, const cJSON *inline_overrides, cJSON **graph_out,
                  cJSON **sched_out, char **out_dir_out, int *incomplete_out);

/* Write both records into out_dir as one pair, and say where (say: print
 * the two paths).  `locked`: the caller holds the directory's lock; else it
 * is taken here.  ECG_EXIT_OK, or the exit status with the error printed. */
int extract_write(const char *out_dir, cJSON *graph, cJSON *sched, int say, int locked);

/* The default output directory, records/ in the work tree, is written only
 * if it is a directory or not there yet.  0, or -1 with
 * err_set(ECG_EXIT_OUTPUT). */
int extract_default_dir_ok(const char *dir);

#endif
