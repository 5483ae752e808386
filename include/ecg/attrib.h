/* attrib.h - a profiler trace joined with the records (records/trace layer).
 *
 * attrib_join() reads a trace (trace.h) and puts every CPU op, kernel and
 * memcpy on the entry of the computation graph that issued it (the four
 * passes are described in attrib.c); attrib_sum() and attrib_gaps() total
 * the times and find the idle gaps and their causes.  `ecg attribute`
 * (cmd_attribute.c) parses its options and prints the report from these.
 *
 * Ownership: struct att is zeroed by the caller, who sets the options,
 * graph, sched (owned by A from then on) and warnings (a cJSON array,
 * owned); attrib_free() releases everything in it (tot.un and groups
 * too).  Interned names (struct tev's name, where keys, ...) live as long
 * as A.  The temporary files of the join are unlinked when made and
 * closed before attrib_join() returns, on every path.
 * Errors: attrib_join() returns -1 after err_set() (a trace that cannot
 * be read or is damaged); a trace cut short is read up to the cut, with a
 * warning in A->warnings.
 */
#ifndef ECG_ATTRIB_H
#define ECG_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ecg/strmap.h"

struct catalog;

/* int64 -> event index, open addressing.  imap_put keeps the first value
 * of a key, imap_set the last. */
enum kind { K_ANN, K_MOD, K_PY, K_OP, K_RT, K_KERNEL, K_MEMCPY, K_MEMSET, K_STEP };

/* One event kept from the trace, as the passes of the join spill it
 * (spill.h: fixed size, copied as bytes; its names are interned and live
 * as long as A). */
struct tev {
	double ts, dur;
	const char *name;          /* interned */
	const char *topname;       /* the name of the top-level op it lies in, NULL */
	int64_t id[2];             /* K_OP: External id, Sequence number; K_RT:
	                            * correlation; device: correlation, External
	                            * id (ev_ext(), ev_corr(), ev_seq()) */
	int64_t idx;               /* its place among the events kept (trace order) */
	int64_t top;               /* idx of the top-level CPU op it lies in (itself for one), -1 */
	int64_t key;               /* what the pass at hand sorts it by */
	uint32_t thr;              /* its (pid, tid): A->thr[thr] */
	unsigned kind : 4, has_seq : 1, has_ext : 1, has_corr : 1, bwd : 1, bwdroot : 1;
	int ent;                   /* entry it is attributed to, -1 */
	int frame;                 /* innermost repository frame around it, -1 */
	int phase;                 /* the schedule phase it runs in by the trace's own
	                            * markers (its index in struct att's phases + 1), 0 none */
};

/* A python_function name resolved once: "path(LINE): func". */
struct frame {
	const char *name;
	int file;                  /* index in the records' files, -1: not in the repository */
	long line;
	char *func;
	int *cand, ncand;          /* entries whose forward is at file:line */
	int *sym, nsym;            /* entries whose forward has this function's name (moved code) */
	size_t acand, asym;
};

struct ent {
	const cJSON *e;
	const char *id, *kind, *cls, *op, *anchor;
	char *afile, *asym;
	long aline;
	int parent, depth, root, conditional;
	double total;              /* total_repeat; -1 unknown */
	int *kids, nkids;          /* in execution order */
	size_t akids, aitems;
	int *items, nitems;        /* what its forward calls directly: its children, with
	                              containers and inlined functions opened in place */
	long calls;
	double host[2], dev[2];    /* self, [0] forward, [1] backward */
	double ihost[2], idev[2];  /* inclusive of descendants */
};

/* A trace's own marks of a schedule phase are facts of the catalogue
 * (catalog/torch_facts.json): a user_annotation whose name starts with one
 * of trace_phase_annotations, or a python_function frame outside the
 * repository whose "path(LINE): func" name contains one of
 * trace_phase_frames; each gives the name the schedule gives that phase
 * (records.md: optimizer, data, logging).  Time no entry owns under such a
 * mark goes to that phase when the records' schedule has it. */
#define ATTRIB_MAX_PHASES 16

struct att {
	const char *records_dir, *trace_path;
	int json;
	int width;                 /* the table's width (termfit_width()) */
	const struct catalog *cat; /* the phase marks (borrowed; NULL: none read) */
	const char *phases[ATTRIB_MAX_PHASES]; /* the phase names the marks gave
	                            * (borrowed from cat), in the order first met */
	int nphases;
	double min_gap;
	int top;
	cJSON *graph, *sched;
	struct ent *ents;
	int nents;
	const char **files;        /* the records' file paths */
	int nfiles;
	struct strmap names;        /* interned names (intern()) */
	struct frame *frames;
	int nframes;
	size_t aframes;
	size_t nev;                /* events kept (none is held: they are spilled) */
	struct thr {
		int64_t pid, tid;
	} *thr;                    /* the distinct (pid, tid) of the events */
	uint32_t nthr;
	size_t athr;
	struct strmap thrmap;      /* "pid/tid" (xstrdup'd keys) -> its index in thr (a) */
	uint32_t thr_last;         /* the thread thr_of() found last */
	int has_py, has_mod;
	long steps;
	double step_us;            /* summed duration of the ProfilerStep annotations */
	double t0, t1;             /* the profiled window: the steps, else the host events */
	long frames_repo, frames_matched, frames_moved;
	cJSON *warnings;
	int trace_error;
	/* the results of attrib_join() */
	struct totals {
		double host, dev, host_un, dev_un;
		struct where {
			const char *key;
			const char *phase, *anchor;  /* the schedule's phase that owns it
			                              * and that phase's anchor, or NULL */
			double host, dev;
		} *un;             /* unattributed time by where it ran, largest first */
		size_t nun, aun;
	} tot;
	struct step_use {
		const char *name;  /* interned: ProfilerStep#N */
		double ts, dur;
		int64_t idx;
		double busy;       /* device time inside it, each stream's busy time summed */
		double gaps;       /* the idle gaps that begin inside it */
	} *stepv;                  /* the ProfilerStep annotations, by start (one per step) */
	size_t nstepv, astepv;
	struct stream_use {
		int64_t pid, stream;
		long n;            /* device events on it */
		double busy;       /* time with a device event running, inside the window */
		double dur, nccl;  /* summed durations, and of them NCCL kernels' */
		double gaps;       /* its idle gaps (as A->gap_total counts them) */
	} *streams;                /* the device streams, by pid and stream */
	size_t nstreams;
	struct ggroup *groups;     /* idle gaps grouped, largest total first */
	size_t ngroups;
	double gap_total;
	long gap_n;
	double win[4];             /* while reading: first and last time of the steps,
	                              and of the host and device events */
};

struct ggroup {
	int64_t pid, stream;
	int cause;
	const char *what, *where;  /* interned */
	long n;
	double total, maxdur;
	int64_t ev;                /* an example: the host event of the first gap (idx), -1 */
	int frame;                 /* that event's frame (what = its name) */
};

enum cause { C_SYNC, C_COPY, C_COLL, C_DATA, C_HOST, C_NONE };
extern const char *const attrib_cause_name[];   /* by enum cause */

/* Load the entries of A->graph, read the trace at A->trace_path, join
 * them and total them: A's entry and frame tables filled (self and
 * inclusive times, calls), A->tot (totals and the unattributed time by
 * where it ran) and A->groups (the idle gaps on the device streams,
 * grouped by stream, cause and host event).  The events are spilled
 * (spill.h) and sorted outside memory for each pass, so memory follows
 * the distinct names, frames, threads and entries, not the events.
 * 0, or -1 after err_set(): a trace that cannot be read or is damaged
 * (ECG_EXIT_INPUT), a temporary file that cannot be written
 * (ECG_EXIT_INTERNAL). */
int attrib_join(struct att *A);
/* Whether a device stream carries communication (most of its device time
 * in NCCL kernels) rather than compute. */
int attrib_stream_comm(const struct stream_use *u);
/* The entry with this id, or -1. */
int attrib_find_ent(const struct att *A, const char *id);
/* Calls of entry x seen in the trace (*known: 0 when the trace cannot
 * tell), and the calls its total_repeat expects (-1: not pinned down). */
long attrib_measured_calls(const struct att *A, const struct ent *x, int *known);
double attrib_expected_calls(const struct att *A, const struct ent *x);
/* The schedule entries a host event (NAME, in repository frame FRAME, -1
 * none) can be, for a gap of this cause: a new JSON array of anchors. */
cJSON *attrib_schedule_candidates(const struct att *A, int frame, const char *name, int cause);
void attrib_free(struct att *A);

#endif
