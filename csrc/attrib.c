/* attrib.c - see include/ecg/attrib.h: a profiler trace joined with the
 * records (the work of `ecg attribute`).
 *
 * The join, in four passes over the events kept from the trace (each
 * pass reads them sorted as it needs, see "Memory" below):
 *
 * 1. Host nesting.  The host events (cpu_op, python_function, nn.Module,
 *    user_annotation, cuda_runtime) of each thread are sorted by start (a
 *    longer event first when two start together) and nested with a stack.
 * 2. Forward attribution, one walk per thread over that nesting.  A
 *    python_function frame "path(LINE): name" whose path ends with a file
 *    of the records and whose LINE is the def line of a model's or
 *    module's forward (its code_anchor) enters that entry; when the line
 *    matches nothing (the code moved) the frame is matched by symbol: the
 *    function's name, and the class of the nn.Module event around it.
 *    Several entries with one anchor (two stages of one block class) are
 *    told apart by the entry being executed around them and by their
 *    counts: the k-th call under a parent goes to the first candidate that
 *    has not had its share (total_repeat / the parent's).  Inside an
 *    entry, an "nn.Module: Linear_3" event is matched to the next child
 *    layer of that class, and each top-level CPU op (one not inside
 *    another op) to the next op entry of the same name in the entry's
 *    execution order (torch.nn.functional.linear = aten::linear,
 *    Tensor.__add__ = aten::add, ...), or to the entry itself when no op
 *    entry fits.  Everything inside a top-level op (nested aten ops,
 *    runtime calls) goes where that op goes.
 * 3. Backward.  A backward op (autograd::engine::evaluate_function: X, or
 *    XBackward0 with a sequence number) goes to the entry of the forward
 *    op with the same "Sequence number", marked backward.  Ops that make
 *    no grad_fn carry the number the next grad_fn will take, so the
 *    forward op is the last one carrying it.
 * 4. Device.  A kernel, memcpy or memset goes where the runtime call with
 *    its correlation id went (the id the ac2g flow carries), else where
 *    the CPU op with its External id went.
 *
 * Idle gaps: on each device stream, the time between two device events
 * longer than --min-gap, inside the profiled steps.  A gap is put on what
 * the host was doing meanwhile: a sync call (cudaStreamSynchronize,
 * cudaDeviceSynchronize, cudaEventSynchronize, a blocking cudaMemcpy,
 * aten::item / aten::_local_scalar_dense), a collective, data loading, or
 * else the op the host was running.  The repository frame around that
 * call gives the schedule entries it can be (same file and function; kind
 * sync, h2d, collective, data).
 *
 * Times are microseconds, summed over the whole trace; "per step" divides
 * by the number of ProfilerStep#N annotations (1 when there are none).
 * Memory: bounded by the distinct names, frames, threads and entries,
 * not by the events (and one small record per ProfilerStep, for the
 * per-step report).  The trace text is streamed (trace.h); each event
 * kept becomes a fixed-size record (struct tev) in a spill (spill.h: a
 * run buffer of 1 MiB, runs in an unlinked temporary file, k-way merges),
 * and every pass reads a stream sorted the way it needs and writes the
 * next: the host events in walk order (walk(): host nesting and forward
 * attribution, the stack as deep as the nesting, at most MAX_NEST levels),
 * a sort-merge join on
 * Sequence numbers (seq_join()), the host events grouped under their
 * top-level op (finish()), sort-merge joins of the device events on
 * correlation id and then External id (devices()), the sums in trace
 * order (sums(): the same order of additions as ever), the device events
 * by stream and start (gap_list()), and one sweep by time over the gaps
 * and the host events that can explain them (sweep()).  Joins on ids
 * anywhere in the file (a kernel's runtime call, a backward op's forward
 * op) are sort-merge joins, so no index of the events is held.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/attrib.h"
#include "ecg/catalog.h"
#include "ecg/err.h"
#include "ecg/records.h"
#include "ecg/spill.h"
#include "ecg/strmap.h"
#include "ecg/trace.h"
#include "ecg/util.h"

/* ------------------------------------------------------------------ names */

/* Interned strings: a trace repeats a few thousand names a million times.
 * A strmap (strmap.h) whose keys are owned copies; each slot's `a` is the
 * frame index of a python_function name (-1), its `b` the row of the
 * unattributed table it names (-1). */
static struct strmap_slot *intern(struct strmap *t, const char *s)
{
	int added;
	struct strmap_slot *k = strmap_put(t, s, &added);

	if (added) {
		k->key = xstrdup(s);
		k->a = k->b = -1;
	}
	return k;
}

static void strtab_free(struct strmap *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free((char *)t->slot[i].key);
	strmap_free(t);
}


/* ------------------------------------------------------------------ events */





struct use {
	int ent;
	long n;
};

/* One level of the host nesting during the walk. */
struct lvl {
	double end;
	int E;                     /* the entry being executed, -1 none */
	int cur;                   /* the item of E matched last, -1 none yet */
	int frame;
	int64_t top;               /* inside this top-level op (its idx), -1 */
	int top_ent, top_frame;    /* that op's entry and frame as the walk left them */
	int phase;                 /* inside a frame that marks a phase (struct tev's phase), 0 */
	int top_bwdroot;
	const char *top_name;
	int owner;                 /* the level that entered E: it keeps cur and used for
	                              the transparent levels above it (frames outside the
	                              repository, <built-in method ...>, runtime calls) */
	int modent;                /* an nn.Module event matched to a repo module, awaiting its frame */
	const char *modcls;
	struct use *used;
	size_t nused, aused;
};


/* ------------------------------------------------------------------ records */

/* Split "file:Sym:line" (the anchor grammar) into its parts. */
/* The ids an event keeps, by kind (struct tev's id[]). */
static int64_t ev_ext(const struct tev *t)
{
	return t->kind == K_OP ? t->id[0] : t->id[1];
}

static int64_t ev_corr(const struct tev *t)
{
	return t->id[0];
}

static int64_t ev_seq(const struct tev *t)
{
	return t->id[1];
}

/* The index of (pid, tid) in A->thr, added when new: an event keeps 4
 * bytes for its thread (or device stream) instead of 16.  The map's key
 * is "pid/tid" as text (the one map, strmap.h); events of one thread come
 * in runs, so the last thread found is tried first. */
static uint32_t thr_of(struct att *A, int64_t pid, int64_t tid)
{
	char key[48];
	struct strmap_slot *sl;
	int added;

	if (A->nthr && A->thr[A->thr_last].pid == pid && A->thr[A->thr_last].tid == tid)
		return A->thr_last;
	snprintf(key, sizeof key, "%lld/%lld", (long long)pid, (long long)tid);
	sl = strmap_put(&A->thrmap, key, &added);
	if (added) {
		sl->key = xstrdup(key);
		GROW(A->thr, A->athr, (size_t)A->nthr + 1);
		A->thr[A->nthr].pid = pid;
		A->thr[A->nthr].tid = tid;
		sl->a = (int)A->nthr++;
	}
	A->thr_last = (uint32_t)sl->a;
	return A->thr_last;
}

/* pid, then tid: the order of the events' threads */
static int thr_cmp(const struct thr *th, uint32_t a, uint32_t b)
{
	if (th[a].pid != th[b].pid)
		return th[a].pid < th[b].pid ? -1 : 1;
	if (th[a].tid != th[b].tid)
		return th[a].tid < th[b].tid ? -1 : 1;
	return 0;
}

static int anchor_split(const char *a, char **file, char **sym, long *line)
{
	const char *c2 = a ? strrchr(a, ':') : NULL, *c1;
	char *end;

	if (!c2 || c2 == a)
		return -1;
	for (c1 = c2 - 1; c1 > a && *c1 != ':'; c1--)
		;
	if (c1 == a)
		return -1;
	*line = strtol(c2 + 1, &end, 10);
	if (*end || c2[1] == 0)
		return -1;
	*file = xstrndup(a, (size_t)(c1 - a));
	*sym = xstrndup(c1 + 1, (size_t)(c2 - c1 - 1));
	return 0;
}

int attrib_find_ent(const struct att *A, const char *id)
{
	int i;

	for (i = 0; i < A->nents; i++)
		if (!strcmp(A->ents[i].id, id))
			return i;
	return -1;
}

/* X's items: each child in order; a container or an inlined function is
 * listed and then opened in place (its children follow it). */
static void add_items(struct att *A, struct ent *x, int e, int depth)
{
	int j;

	for (j = 0; j < A->ents[e].nkids && depth < 64; j++) {
		int k = A->ents[e].kids[j];
		const char *kind = A->ents[k].kind;

		GROW(x->items, x->aitems, (size_t)x->nitems + 1);
		x->items[x->nitems++] = k;
		if (!strcmp(kind, "container") || !strcmp(kind, "function"))
			add_items(A, x, k, depth + 1);
	}
}

static const struct ent *order_ents;

static int kid_cmp(const void *a, const void *b)
{
	double oa = 1e18, ob = 1e18;
	int x = *(const int *)a, y = *(const int *)b;

	records_num(order_ents[x].e, "order", &oa);
	records_num(order_ents[y].e, "order", &ob);
	if (oa != ob)
		return oa < ob ? -1 : 1;
	return x - y;
}

static void load_entries(struct att *A)
{
	const cJSON *mods = cJSON_GetObjectItemCaseSensitive(A->graph, "modules"), *e, *f;
	int n = 0, i;

	A->ents = xcalloc((size_t)cJSON_GetArraySize(mods) + 1, sizeof *A->ents);
	cJSON_ArrayForEach(e, mods) {
		struct ent *x = &A->ents[n];
		const cJSON *cond = cJSON_GetObjectItemCaseSensitive(e, "condition");

		if (!records_str(e, "id") || !records_str(e, "kind"))
			continue;
		x->e = e;
		x->id = records_str(e, "id");
		x->kind = records_str(e, "kind");
		x->cls = records_str(e, "class");
		x->op = records_str(e, "op");
		x->anchor = records_str(e, "code_anchor");
		if (x->anchor && anchor_split(x->anchor, &x->afile, &x->asym, &x->aline) < 0)
			x->anchor = NULL;
		if (!records_num(e, "total_repeat", &x->total))
			x->total = -1;
		x->conditional = cond && !cJSON_IsNull(cond) &&
		                 !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cond, "taken"));
		x->parent = -1;
		n++;
	}
	A->nents = n;
	for (i = 0; i < n; i++) {
		const char *p = records_str(A->ents[i].e, "parent");
		struct ent *x = &A->ents[i];

		x->parent = p ? attrib_find_ent(A, p) : -1;
		if (x->parent == i)
			x->parent = -1;
	}
	for (i = 0; i < n; i++) {
		struct ent *x = &A->ents[i];
		int p = x->parent, d = 0, r = i;

		while (p >= 0 && d <= n) {
			r = p;
			p = A->ents[p].parent;
			d++;
		}
		x->depth = d;
		x->root = r;
		if (x->parent >= 0) {
			struct ent *P = &A->ents[x->parent];

			GROW(P->kids, P->akids, (size_t)P->nkids + 1);
			P->kids[P->nkids++] = i;
		}
	}
	order_ents = A->ents;
	for (i = 0; i < n; i++)
		if (A->ents[i].nkids > 1)
			qsort(A->ents[i].kids, (size_t)A->ents[i].nkids, sizeof(int), kid_cmp);
	for (i = 0; i < n; i++)
		add_items(A, &A->ents[i], i, 0);
	f = cJSON_GetObjectItemCaseSensitive(A->graph, "files");
	A->files = xcalloc((size_t)cJSON_GetArraySize(f) + 1, sizeof *A->files);
	cJSON_ArrayForEach(e, f) {
		const char *p = records_str(e, "path");

		if (p)
			A->files[A->nfiles++] = p;
	}
}

/* The records' file that PATH (absolute, from another machine) is: the
 * longest file whose path is a suffix of PATH at a '/' boundary. */
static int match_file(const struct att *A, const char *path)
{
	size_t pl = strlen(path), best_len = 0;
	int i, best = -1;

	for (i = 0; i < A->nfiles; i++) {
		size_t fl = strlen(A->files[i]);

		if (fl > pl || fl <= best_len || strcmp(path + pl - fl, A->files[i]))
			continue;
		if (fl < pl && path[pl - fl - 1] != '/')
			continue;
		best = i;
		best_len = fl;
	}
	return best;
}

static const char *last_component(const char *s)
{
	const char *d = strrchr(s, '.');

	return d ? d + 1 : s;
}

/* Entries a frame can enter: models and modules (their forward), and
 * repo functions inlined into a forward. */
static int enterable(const struct ent *x)
{
	return x->anchor && (!strcmp(x->kind, "model") || !strcmp(x->kind, "module"));
}

static int resolve_frame(struct att *A, const char *name)
{
	struct strmap_slot *s = intern(&A->names, name);
	struct frame *f;
	const char *open, *close;
	char *path;
	int i;

	if (s->a >= 0)
		return s->a;
	GROW(A->frames, A->aframes, (size_t)A->nframes + 1);
	f = &A->frames[A->nframes];
	memset(f, 0, sizeof *f);
	f->name = s->key;
	f->file = -1;
	close = strstr(name, "): ");
	for (open = close; open && open > name && *open != '('; open--)
		;
	if (close && open && *open == '(') {
		path = xstrndup(name, (size_t)(open - name));
		f->line = strtol(open + 1, NULL, 10);
		f->func = xstrdup(close + 3);
		f->file = match_file(A, path);
		free(path);
	} else {
		f->func = xstrdup(name);
	}
	if (f->file >= 0) {
		const char *file = A->files[f->file];

		for (i = 0; i < A->nents; i++) {
			const struct ent *x = &A->ents[i];

			if (!enterable(x) || strcmp(x->afile, file))
				continue;
			if (x->aline == f->line) {
				GROW(f->cand, f->acand, (size_t)f->ncand + 1);
				f->cand[f->ncand++] = i;
			}
			if (!strcmp(last_component(x->asym), f->func)) {
				GROW(f->sym, f->asym, (size_t)f->nsym + 1);
				f->sym[f->nsym++] = i;
			}
		}
	}
	s->a = A->nframes;
	return A->nframes++;
}

/* ------------------------------------------------------------------ reading */

/* A JSON number that is an integer an int64_t holds (ids, pids, tids):
 * 1 and *out, or 0 (absent, a string, out of range, not finite). */
static int to_i64(const cJSON *v, int64_t *out)
{
	double d;

	if (!cJSON_IsNumber(v))
		return 0;
	d = v->valuedouble;
	if (!isfinite(d) || d < -9.2e18 || d > 9.2e18)
		return 0;
	*out = (int64_t)d;
	return 1;
}

/* The trace categories the join reads, and the kind of event each is. */
static const struct {
	const char *cat;
	enum kind kind;
} kinds[] = {
	{ "cpu_op", K_OP }, { "operator", K_OP }, { "python_function", K_PY },
	{ "user_annotation", K_ANN }, { "cuda_runtime", K_RT }, { "cuda_driver", K_RT },
	{ "kernel", K_KERNEL }, { "gpu_memcpy", K_MEMCPY }, { "gpu_memset", K_MEMSET },
};

static int classify(const char *cat, const char *ph)
{
	size_t i;

	if (!cat || !ph || strcmp(ph, "X"))
		return -1;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(cat, kinds[i].cat))
			return (int)kinds[i].kind;
	return -1;
}

static int is_device(int k);

/* The spills of one join, one per pass (attrib.h: the events are never
 * all held); join_free() closes them, and with them their temporary
 * files, on every path. */
struct join {
	struct spill *host;        /* host events, in walk order (host_cmp) */
	struct spill *dev;         /* device events, in trace order */
	struct spill *walked;      /* host events after the walk: a top-level op, then the events in it */
	struct spill *seqdef;      /* Sequence number -> the forward op's entry and frame, last first */
	struct spill *bwdq;        /* backward roots, by Sequence number */
	struct spill *fix;         /* backward roots' entry and frame, by idx */
	struct spill *corr, *ext;  /* runtime calls by correlation id, CPU ops by External id */
	struct spill *devc, *devx; /* device events by correlation id, then by External id */
	struct spill *sum;         /* top-level ops and device events, in trace order */
	struct spill *gaph;        /* host events that can explain a gap, by start */
	struct spill *gapd;        /* device events by stream and start */
	struct spill *gaps, *gres; /* the gaps by start; what explains each, by gap */
};

static void join_free(struct join *J)
{
	struct spill **s = (struct spill **)J;
	size_t i;

	for (i = 0; i < sizeof *J / sizeof *s; i++) {
		spill_free(s[i]);
		s[i] = NULL;
	}
}

/* Free spill *S at once (its buffers and file), when its pass is done. */
static void drop(struct spill **s)
{
	spill_free(*s);
	*s = NULL;
}

/* Keep one trace event: 0 (kept or not of interest), -1 after err_set()
 * (the temporary file). */
static int keep_event(struct att *A, struct join *J, const cJSON *e)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
	const char *name = records_str(e, "name");
	struct tev t;
	int64_t pid, tid, ext, corr, seq;
	int has_ext, has_corr, has_seq;
	int k = classify(records_str(e, "cat"), records_str(e, "ph"));

	if (k < 0 || !name)
		return 0;
	memset(&t, 0, sizeof t);
	if (!to_i64(cJSON_GetObjectItemCaseSensitive(e, "pid"), &pid) ||
	    !to_i64(cJSON_GetObjectItemCaseSensitive(e, "tid"), &tid) || !records_num(e, "ts", &t.ts) ||
	    !isfinite(t.ts) || fabs(t.ts) > 1e18)
		return 0;
	if (!records_num(e, "dur", &t.dur) || !(t.dur >= 0) || t.dur > 1e18)
		t.dur = 0;
	if (k == K_PY && !strncmp(name, "nn.Module: ", 11))
		k = K_MOD;
	if (k == K_ANN && !strncmp(name, "ProfilerStep#", 13))
		k = K_STEP;
	t.kind = (unsigned)k;
	t.name = intern(&A->names, name)->key;
	has_ext = to_i64(cJSON_GetObjectItemCaseSensitive(args, "External id"), &ext);
	has_corr = to_i64(cJSON_GetObjectItemCaseSensitive(args, "correlation"), &corr);
	has_seq = to_i64(cJSON_GetObjectItemCaseSensitive(args, "Sequence number"), &seq) && seq >= 0;
	/* only the ids the join reads, by kind (ev_ext() and friends) */
	if (k == K_OP) {
		t.has_ext = (unsigned)has_ext;
		t.has_seq = (unsigned)has_seq;
		t.id[0] = has_ext ? ext : 0;
		t.id[1] = has_seq ? seq : 0;
	} else if (k == K_RT || is_device(k)) {
		t.has_corr = (unsigned)has_corr;
		t.id[0] = has_corr ? corr : 0;
		if (k != K_RT) {
			t.has_ext = (unsigned)has_ext;
			t.id[1] = has_ext ? ext : 0;
		}
	}
	t.thr = thr_of(A, pid, tid);
	t.top = -1;
	t.ent = t.frame = -1;
	t.idx = (int64_t)A->nev++;
	if (k == K_PY)
		A->has_py = 1;
	if (k == K_MOD)
		A->has_mod = 1;
	if (k == K_STEP) {
		A->steps++;
		A->step_us += t.dur;
		A->win[0] = fmin(A->win[0], t.ts);
		A->win[1] = fmax(A->win[1], t.ts + t.dur);
		GROW(A->stepv, A->astepv, A->nstepv + 1);
		memset(&A->stepv[A->nstepv], 0, sizeof *A->stepv);
		A->stepv[A->nstepv].name = t.name;
		A->stepv[A->nstepv].ts = t.ts;
		A->stepv[A->nstepv].dur = t.dur;
		A->stepv[A->nstepv].idx = t.idx;
		A->nstepv++;
	}
	/* the profiled window: the steps, else the host and device events */
	A->win[2] = fmin(A->win[2], t.ts);
	A->win[3] = fmax(A->win[3], t.ts + t.dur);
	return spill_add(is_device(k) ? J->dev : J->host, &t);
}

static int step_cmp(const void *a, const void *b)
{
	const struct step_use *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The first step (by start) that ends after time T: A->nstepv when none. */
static size_t step_at(const struct att *A, double t)
{
	size_t lo = 0, hi = A->nstepv;

	while (lo < hi) {  /* the first step that starts after t */
		size_t m = (lo + hi) / 2;

		if (A->stepv[m].ts <= t)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo > 0 && A->stepv[lo - 1].ts + A->stepv[lo - 1].dur > t)
		lo--;
	return lo;
}

static int read_trace(struct att *A, struct join *J)
{
	trace_reader *r = trace_open(A->trace_path);
	cJSON *e = NULL;
	int rc;

	if (!r)
		return -1;
	A->win[0] = A->win[2] = 1e300;
	A->win[1] = A->win[3] = -1e300;
	while ((rc = trace_next(r, &e)) == 1) {
		int k = keep_event(A, J, e);

		cJSON_Delete(e);
		e = NULL;
		if (k < 0) {
			trace_close(r);
			return -1;
		}
	}
	if (rc < 0) {
		/* a trace cut short gives its first events, said in a warning;
		 * any other fault (a CRC or length mismatch, bytes after the
		 * last gzip member, bad JSON) may have given damaged events
		 * already: no report from them */
		if (!trace_events(r) || !trace_cut(r)) {
			trace_close(r);
			return -1;
		}
		cJSON_AddItemToArray(A->warnings, cJSON_CreateString(err_last()));
		err_warn("%s; the events before it are used", err_last());
		A->trace_error = 1;
	}
	trace_close(r);
	if (A->nstepv > 1)
		qsort(A->stepv, A->nstepv, sizeof *A->stepv, step_cmp);
	if (A->steps) {
		A->t0 = A->win[0];
		A->t1 = A->win[1];
	} else if (A->nev) {
		A->t0 = A->win[2];
		A->t1 = A->win[3];
	} else {
		A->t0 = A->t1 = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------ nesting and the walk */

static const struct att *cmp_att;  /* the join's thread table, for the orders below */

static int thr_order(uint32_t a, uint32_t b)
{
	return a == b ? 0 : thr_cmp(cmp_att->thr, a, b);
}

static int idx_order(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* Host events by thread, start, longer first, then kind: the order of the walk. */
static int host_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;
	static const int prio[] = { [K_STEP] = 0, [K_ANN] = 1, [K_MOD] = 2, [K_PY] = 3, [K_OP] = 4, [K_RT] = 5 };
	int c = thr_order(x->thr, y->thr);

	if (c)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (prio[x->kind] != prio[y->kind])
		return prio[x->kind] - prio[y->kind];
	return idx_order(x->idx, y->idx);
}

/* By key, then trace order: the sides of a join. */
static int key_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return idx_order(x->idx, y->idx);
}

/* By key, the last (highest idx: here the walk's position) first. */
static int key_last_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return idx_order(y->idx, x->idx);
}

/* Trace order. */
static int idx_cmp(const void *a, const void *b)
{
	return idx_order(((const struct tev *)a)->idx, ((const struct tev *)b)->idx);
}

/* A top-level op first (key: its idx), then the events inside it. */
static int walked_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;
	int nx = x->idx != x->key, ny = y->idx != y->key;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (nx != ny)
		return nx - ny;
	return idx_order(x->idx, y->idx);
}

/* Device events by stream, then start: the order the gaps are read in. */
static int dev_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;
	int c = thr_order(x->thr, y->thr);

	if (c)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return idx_order(x->idx, y->idx);
}

/* By start, then trace order. */
static int ts_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return idx_order(x->idx, y->idx);
}

/* Advance the sorted side R of a join (its current record *cur; have:
 * spill_next()'s last answer) to the first record whose key is not below
 * KEY: the first of its group when it has that key.  spill_next()'s
 * answer: 1, 0 at the end, -1 after err_set(). */
static int seek(struct spill *R, struct tev *cur, int have, int64_t key)
{
	while (have == 1 && cur->key < key)
		have = spill_next(R, cur);
	return have;
}

/* aten name -> the part a record's op name ends with: "aten::add_" -> "add". */
static void aten_base(const char *name, char *out, size_t n)
{
	const char *c = strstr(name, "::");
	size_t l;

	c = c ? c + 2 : name;
	while (*c == '_')
		c++;
	l = strlen(c);
	while (l && c[l - 1] == '_')
		l--;
	if (l >= n)
		l = n - 1;
	memcpy(out, c, l);
	out[l] = 0;
}

/* Whether the record's op name (torch.nn.functional.linear, Tensor.__iadd__)
 * can appear in the trace as the top-level aten op BASE. */
static int op_matches(const char *recop, const char *base)
{
	static const char *alias[][2] = {
		{ "getitem", "slice" }, { "getitem", "select" }, { "getitem", "index" },
		{ "getitem", "narrow" }, { "setitem", "copy" }, { "setitem", "index_put" },
		{ "setitem", "fill" }, { "iadd", "add" }, { "radd", "add" },
		{ "isub", "sub" }, { "imul", "mul" }, { "rmul", "mul" }, { "truediv", "div" },
		{ "itruediv", "div" }, { "rtruediv", "reciprocal" }, { "floordiv", "floor_divide" },
		{ "matmul", "mm" }, { "matmul", "bmm" }, { "cross_entropy", "cross_entropy_loss" },
		{ "dropout", "native_dropout" }, { "dropout", "feature_dropout" },
		{ "to", "_to_copy" }, { "type_as", "to" }, { "float", "to" }, { "half", "to" },
		{ "softmax", "_softmax" }, { "log_softmax", "_log_softmax" }, { "invert", "bitwise_not" },
		{ "and", "bitwise_and" }, { "or", "bitwise_or" }, { "neg", "neg" },
		{ "scaled_dot_product_attention", "_scaled_dot_product_attention" },
		{ "interpolate", "upsample_nearest2d" }, { "interpolate", "upsample_bilinear2d" },
		{ "silu", "silu" }, { "mean", "mean" }, { "pow", "pow" }, { "sum", "sum" },
	};
	char b[128];
	const char *c = last_component(recop);
	size_t l, i;

	while (*c == '_')
		c++;
	l = strlen(c);
	while (l && c[l - 1] == '_')
		l--;
	if (l >= sizeof b)
		return 0;
	memcpy(b, c, l);
	b[l] = 0;
	if (!strcmp(b, base))
		return 1;
	for (i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (!strcmp(alias[i][0], b) && !strcmp(alias[i][1], base))
			return 1;
	return 0;
}

/* Ops a profiler never shows: metadata reads that do not go through the
 * dispatcher, and contiguous(), which is one only when the tensor is not
 * contiguous already.  Their calls are not measured. */
static int op_silent(const char *op)
{
	static const char *const silent[] = {
		"Tensor.size", "Tensor.dim", "Tensor.numel", "Tensor.stride", "Tensor.is_contiguous",
		"Tensor.element_size", "Tensor.nelement", "Tensor.data_ptr", "Tensor.get_device",
		"Tensor.is_floating_point", "Tensor.ndimension", "Tensor.__len__", "Tensor.contiguous",
	};
	size_t i;

	for (i = 0; i < sizeof silent / sizeof silent[0]; i++)
		if (!strcmp(op, silent[i]))
			return 1;
	return 0;
}

/* The op entry under E (one of its items, or the op of a layer among
 * them when layers have no nn.Module events), in execution order after
 * *cur, that the top-level op NAME is; then *cur itself (an op called
 * again: `repeat`); then from the start (a loop in the forward).  -1 none.
 * *cur moves to the match so that the next op is searched after it. */
static int match_op(const struct att *A, int E, int *cur, const char *name)
{
	const struct ent *x = &A->ents[E];
	char base[128];
	int pass, i, j;

	aten_base(name, base, sizeof base);
	for (pass = 0; pass < 3; pass++) {
		int from = pass == 0 ? *cur + 1 : pass == 1 ? *cur : 0;
		int to = pass == 0 ? x->nitems : pass == 1 ? *cur + 1 : *cur;

		if (from < 0)
			from = 0;
		if (to > x->nitems)
			to = x->nitems;

		for (i = from; i < to; i++) {
			const struct ent *k = &A->ents[x->items[i]];

			if (!strcmp(k->kind, "op") && k->op && op_matches(k->op, base)) {
				*cur = i;
				return x->items[i];
			}
			if (strcmp(k->kind, "layer") || A->has_mod)
				continue;  /* with nn.Module events, layers are entered by them */
			for (j = 0; j < k->nkids; j++) {
				const struct ent *o = &A->ents[k->kids[j]];

				if (!strcmp(o->kind, "op") && o->op && op_matches(o->op, base)) {
					*cur = i;
					return k->kids[j];
				}
			}
		}
	}
	return -1;
}

static long *use_slot(struct lvl *L, int ent)
{
	size_t i;

	for (i = 0; i < L->nused; i++)
		if (L->used[i].ent == ent)
			return &L->used[i].n;
	GROW(L->used, L->aused, L->nused + 1);
	L->used[L->nused].ent = ent;
	L->used[L->nused].n = 0;
	return &L->used[L->nused++].n;
}

/* How many calls of X one call of P makes: their total_repeat's ratio
 * (1 when either is unknown). */
static double share_of(const struct att *A, int x, int p)
{
	double a = A->ents[x].total, b = p >= 0 ? A->ents[p].total : 1;

	return a > 0 && b > 0 ? a / b : 1;
}

/* The item of L's entry that an "nn.Module: Cls_N" event is: the next one
 * of that class, in execution order, that has not had all its calls in
 * this call of the entry (a ResNet stage's 0 and 1:6 take 1 and 5). */
static int match_module(const struct att *A, struct lvl *L, const char *cls)
{
	const struct ent *x = &A->ents[L->E];
	int pass, i, first = -1, fi = 0;

	for (pass = 0; pass < 2; pass++) {
		int from = pass ? 0 : L->cur < 0 ? 0 : L->cur, to = pass ? L->cur : x->nitems;

		for (i = from; i < to; i++) {
			int k = x->items[i];
			const struct ent *c = &A->ents[k];
			long *u;

			if (!c->cls || strcmp(last_component(c->cls), cls) || !strcmp(c->kind, "op"))
				continue;
			if (first < 0) {
				first = k;
				fi = i;
			}
			u = use_slot(L, k);
			if (*u + 0.5 < share_of(A, k, L->E)) {
				(*u)++;
				L->cur = i;
				return k;
			}
		}
	}
	if (first >= 0)
		L->cur = fi;
	return first;
}

static int is_descendant(const struct att *A, int x, int anc)
{
	int d = 0;

	for (; x >= 0 && d <= A->nents; x = A->ents[x].parent, d++)
		if (x == anc)
			return 1;
	return 0;
}

/* The entry a repository frame enters, given the level around it. */
static int choose_entry(struct att *A, const struct lvl *P, struct lvl *O, const struct frame *f)
{
	const int *cand = f->cand;
	int n = f->ncand, i, best = -1, any = -1, tmp[64];

	A->frames_repo++;
	if (!n && f->nsym) {
		/* moved code: the function's name, and the module class around it */
		int m = 0;

		for (i = 0; i < f->nsym && m < 64; i++) {
			const struct ent *x = &A->ents[f->sym[i]];
			const char *dot = strrchr(x->asym, '.');

			if (P->modcls && dot && ((size_t)(dot - x->asym) != strlen(P->modcls) ||
			                         strncmp(x->asym, P->modcls, (size_t)(dot - x->asym))))
				continue;
			tmp[m++] = f->sym[i];
		}
		cand = tmp;
		n = m;
		if (n)
			A->frames_moved++;
	}
	if (!n)
		return -1;
	A->frames_matched++;
	if (P->modent >= 0)
		for (i = 0; i < n; i++)
			if (cand[i] == P->modent)
				return cand[i];  /* counted when its nn.Module event was matched */
	for (i = 0; i < n; i++) {
		const struct ent *x = &A->ents[cand[i]];

		if (P->E >= 0 ? !is_descendant(A, cand[i], P->E) : x->parent >= 0)
			continue;
		if (any < 0)
			any = cand[i];
		if (*use_slot(O, cand[i]) + 0.5 < share_of(A, cand[i], P->E)) {
			best = cand[i];
			break;
		}
	}
	if (best < 0)
		best = any >= 0 ? any : cand[0];
	(*use_slot(O, best))++;
	return best;
}

static int bwd_name(const struct tev *t)
{
	return !strncmp(t->name, "autograd::engine::evaluate_function: ", 37) ||
	       (t->kind == K_OP && t->has_seq && strstr(t->name, "Backward") && !strstr(t->name, "::"));
}

/* The deepest host nesting kept: far past any real stack (Python's
 * recursion limit is 1000), so only a damaged or hostile trace reaches it. */
/* The mark NAME is (an annotation when ann, else a frame outside the
 * repository), by the catalogue's trace_phase_* facts (attrib.h): the index
 * of its phase in A->phases + 1, 0 none (no catalogue, no mark, or more
 * phase names than ATTRIB_MAX_PHASES). */
static int phase_mark(struct att *A, const char *name, int ann)
{
	const char *ph = catalog_fact_match(A->cat, ann ? CATALOG_F_TRACE_PHASE_ANNOTATIONS : CATALOG_F_TRACE_PHASE_FRAMES,
	                                    name);
	int i;

	if (!ph)
		return 0;
	for (i = 0; i < A->nphases; i++)
		if (!strcmp(A->phases[i], ph))
			return i + 1;
	if (A->nphases >= ATTRIB_MAX_PHASES)
		return 0;
	A->phases[A->nphases++] = ph;
	return A->nphases;
}

#define MAX_NEST 4096

/* Passes 1 and 2, over the host events in walk order (J->host): the nesting, the
 * entries entered, each top-level op matched.  Every host event goes on
 * to J->walked; a forward op's Sequence number to J->seqdef, with the
 * walk's position (the last one to carry a number is the op that takes
 * it), and a backward root's to J->bwdq.  0, or -1 after err_set(). */
static int walk(struct att *A, struct join *J)
{
	struct lvl *st = NULL;
	size_t ast = 0, sp = 0;
	int64_t pos = 0;
	uint32_t prev_thr = 0;
	struct tev t, q;
	int r, rc = -1, warned = 0;
	int ann_phase = 0, pm;         /* the phase annotation open on thread ann_thr, 0 */
	double ann_end = 0;
	uint32_t ann_thr = 0;

	if (spill_sort(J->host) < 0)
		return -1;
	J->walked = spill_new(sizeof(struct tev), walked_cmp);
	J->seqdef = spill_new(sizeof(struct tev), key_last_cmp);
	J->bwdq = spill_new(sizeof(struct tev), key_cmp);
	memset(&q, 0, sizeof q);
	for (; (r = spill_next(J->host, &t)) == 1; pos++) {
		struct lvl *P, *O, L;
		int entered = 0;

		if (pos == 0 || t.thr != prev_thr) {
			while (sp > 0)
				free(st[--sp].used);
		}
		prev_thr = t.thr;
		while (sp > 1 && t.ts >= st[sp - 1].end - 1e-3) {
			sp--;
			free(st[sp].used);
		}
		if (!sp) {
			GROW(st, ast, 1);
			memset(&st[0], 0, sizeof st[0]);
			st[0].end = 1e300;
			st[0].E = st[0].frame = st[0].modent = -1;
			st[0].top = -1;
			sp = 1;
		}
		P = &st[sp - 1];
		O = &st[P->owner];
		L = *P;
		L.end = t.ts + t.dur;
		L.used = NULL;
		L.nused = L.aused = 0;
		t.frame = P->frame;
		/* an annotation is read by time: open until its end, on its thread */
		if (t.thr != ann_thr || t.ts >= ann_end - 1e-3)
			ann_phase = 0;
		t.phase = ann_phase ? ann_phase : P->phase;
		if (t.kind == K_ANN && (pm = phase_mark(A, t.name, 1)) > 0) {
			ann_phase = pm;
			ann_end = t.ts + t.dur;
			ann_thr = t.thr;
		}
		if (P->top >= 0) {
			t.top = P->top;
			t.topname = P->top_name;
			if (t.kind == K_OP && t.has_seq && !P->top_bwdroot) {
				q.key = ev_seq(&t);
				q.idx = pos;
				q.ent = P->top_ent;
				q.frame = P->top_frame;
				if (spill_add(J->seqdef, &q) < 0)
					goto out;
			}
		} else {
			switch (t.kind) {
			case K_MOD: {
				char cls[256];
				const char *s = t.name + 11, *us = strrchr(s, '_');
				size_t l = us ? (size_t)(us - s) : strlen(s);
				int m;

				if (l >= sizeof cls)
					l = sizeof cls - 1;
				memcpy(cls, s, l);
				cls[l] = 0;
				L.modcls = intern(&A->names, cls)->key;
				L.modent = -1;
				if (P->E >= 0 && (m = match_module(A, O, cls)) >= 0) {
					if (enterable(&A->ents[m])) {
						L.modent = m;  /* its forward's frame enters it */
					} else {
						A->ents[m].calls++;
						L.E = m;
						L.cur = -1;
						entered = 1;
					}
				}
				break;
			}
			case K_PY: {
				int fi = resolve_frame(A, t.name), m;
				const struct frame *f = &A->frames[fi];

				if (f->file < 0) {
					if ((pm = phase_mark(A, t.name, 0)) > 0)
						L.phase = pm;
					break;
				}
				L.frame = t.frame = fi;
				L.modent = -1;
				if ((m = choose_entry(A, P, O, f)) >= 0) {
					A->ents[m].calls++;
					L.E = m;
					L.cur = -1;
					entered = 1;
				}
				break;
			}
			case K_OP:
				t.top = L.top = t.idx;
				t.topname = t.name;
				L.modent = -1;
				if (bwd_name(&t)) {
					t.bwdroot = 1;
					t.bwd = 1;
				} else if (P->E >= 0) {
					int m = match_op(A, P->E, &O->cur, t.name);

					t.ent = m >= 0 ? m : P->E;
					if (m >= 0)
						A->ents[m].calls++;
				}
				/* ops that make no grad_fn only peek at the sequence
				 * number: the op that takes it is the last one */
				if (t.has_seq && t.bwdroot) {
					t.key = ev_seq(&t);  /* (the key of J->walked is set below) */
					if (spill_add(J->bwdq, &t) < 0)
						goto out;
				} else if (t.has_seq) {
					q.key = ev_seq(&t);
					q.idx = pos;
					q.ent = t.ent;
					q.frame = t.frame;
					if (spill_add(J->seqdef, &q) < 0)
						goto out;
				}
				L.top_ent = t.ent;
				L.top_frame = t.frame;
				L.top_bwdroot = t.bwdroot;
				L.top_name = t.name;
				break;
			case K_RT:
				t.ent = P->E;
				break;
			default:
				break;
			}
		}
		t.key = t.top >= 0 ? t.top : t.idx;
		if (spill_add(J->walked, &t) < 0)
			goto out;
		/* annotations (steps, Optimizer.step#..., enumerate(DataLoader)#...)
		 * open in one Python call and may close in another: they take no
		 * part in the nesting (steps and waits are read by time) */
		if (t.kind == K_ANN || t.kind == K_STEP)
			continue;
		if (sp >= MAX_NEST) {
			/* deeper than any Python stack (its recursion limit is 1000):
			 * a damaged or hostile trace; the event stays a leaf, so the
			 * stack, and memory, stay bounded */
			if (!warned) {
				char msg[160];

				snprintf(msg, sizeof msg, "host events nested deeper than %d levels; deeper events are not nested",
				         MAX_NEST);
				cJSON_AddItemToArray(A->warnings, cJSON_CreateString(msg));
				err_warn("%s", msg);
				warned = 1;
			}
			free(L.used);
			continue;
		}
		if (entered)
			L.owner = (int)sp;  /* entered an entry: cur and used are its own */
		GROW(st, ast, sp + 1);
		st[sp++] = L;
	}
	rc = r < 0 ? -1 : 0;
out:
	while (sp > 0)
		free(st[--sp].used);
	free(st);
	drop(&J->host);
	return rc;
}

/* Pass 3, first half: the join on Sequence numbers: each backward root takes the
 * entry and frame of the forward op that took its number (J->fix, in
 * trace order).  0, or -1 after err_set(). */
static int seq_join(struct join *J)
{
	struct tev q, s;
	int hs, r;

	J->fix = spill_new(sizeof(struct tev), idx_cmp);
	if (spill_sort(J->seqdef) < 0 || spill_sort(J->bwdq) < 0 || (hs = spill_next(J->seqdef, &s)) < 0)
		return -1;
	while ((r = spill_next(J->bwdq, &q)) == 1) {
		if ((hs = seek(J->seqdef, &s, hs, q.key)) < 0)
			return -1;
		if (hs == 1 && s.key == q.key) {
			q.ent = s.ent;
			q.frame = s.frame;
			if (spill_add(J->fix, &q) < 0)
				return -1;
		}
	}
	drop(&J->seqdef);
	drop(&J->bwdq);
	return r;
}

/* What a host event's final attribution feeds: the two sides of the
 * device join, the sums (top-level ops) and the gaps' explanations
 * (causes, classed in key: 0 short, 1 long, 2 a top-level op; the cause
 * above). */
#define GCLS(t) ((int)((t)->key & 3))
#define GCAUSE(t) ((int)((t)->key >> 2) - 1)
#define LONG_CAUSE_US 10000.0
static int cause_of(const struct tev *t);

static int host_done(struct join *J, struct tev *w)
{
	int top = w->kind == K_OP && w->top == w->idx, c;

	if (w->kind == K_RT && w->has_corr) {
		w->key = ev_corr(w);
		if (spill_add(J->corr, w) < 0)
			return -1;
	}
	if (w->kind == K_OP && w->has_ext) {
		w->key = ev_ext(w);
		if (spill_add(J->ext, w) < 0)
			return -1;
	}
	if (top && spill_add(J->sum, w) < 0)
		return -1;
	if ((c = cause_of(w)) >= 0)
		w->key = (w->dur > LONG_CAUSE_US ? 1 : 0) | ((int64_t)(c + 1) << 2);
	else if (top)
		w->key = 2;
	else
		return 0;
	return spill_add(J->gaph, w);
}

/* Pass 3, second half: backward roots take the entry of their forward op (J->fix);
 * then everything inside a top-level op takes that op's entry.  0, or -1
 * after err_set(). */
static int finish(struct join *J)
{
	struct tev w, f;
	int hf, r, lent = -1, lframe = -1;
	unsigned lbwd = 0;

	J->corr = spill_new(sizeof(struct tev), key_cmp);
	J->ext = spill_new(sizeof(struct tev), key_cmp);
	J->sum = spill_new(sizeof(struct tev), idx_cmp);
	J->gaph = spill_new(sizeof(struct tev), ts_cmp);
	if (spill_sort(J->walked) < 0 || spill_sort(J->fix) < 0 || (hf = spill_next(J->fix, &f)) < 0)
		return -1;
	while ((r = spill_next(J->walked, &w)) == 1) {
		if (w.idx == w.key) {
			/* a top-level op, or an event in none */
			if (w.bwdroot && w.has_seq) {
				while (hf == 1 && f.idx < w.idx)
					hf = spill_next(J->fix, &f);
				if (hf < 0)
					return -1;
				if (hf == 1 && f.idx == w.idx) {
					w.ent = f.ent;
					w.frame = f.frame;
				}
			}
			lent = w.ent;
			lbwd = w.bwd;
			lframe = w.frame;
		} else {
			w.ent = lent;
			w.bwd = lbwd;
			if (w.bwd)
				w.frame = lframe;
		}
		if (host_done(J, &w) < 0)
			return -1;
	}
	drop(&J->walked);
	drop(&J->fix);
	return r;
}

/* A device event, attributed or not: to the sums and the gaps. */
static int dev_done(struct join *J, const struct tev *d)
{
	return spill_add(J->sum, d) < 0 || spill_add(J->gapd, d) < 0 ? -1 : 0;
}

/* Device events of side D (by key) matched to host side H (by key, first
 * in trace order first): a match takes the host event's attribution;
 * the others go on by External id when they have one (to J->devx), else
 * unattributed.  0, or -1 after err_set(). */
static int dev_match(struct join *J, struct spill *D, struct spill *H, int by_ext)
{
	struct tev d, h;
	int hh, r;

	if (spill_sort(D) < 0 || spill_sort(H) < 0 || (hh = spill_next(H, &h)) < 0)
		return -1;
	while ((r = spill_next(D, &d)) == 1) {
		if ((hh = seek(H, &h, hh, d.key)) < 0)
			return -1;
		if (hh == 1 && h.key == d.key) {
			d.ent = h.ent;
			d.bwd = h.bwd;
			d.frame = h.frame;
			d.top = h.top;
			d.topname = h.topname;
			d.phase = h.phase;
		} else if (!by_ext && d.has_ext) {
			d.key = ev_ext(&d);
			if (spill_add(J->devx, &d) < 0)
				return -1;
			continue;
		}
		if (dev_done(J, &d) < 0)
			return -1;
	}
	return r;
}

/* Pass 4: a kernel, memcpy or memset goes where the runtime call with its
 * correlation id went, else where the CPU op with its External id went.
 * 0, or -1 after err_set(). */
static int devices(struct join *J)
{
	struct tev d;
	int r;

	J->gapd = spill_new(sizeof(struct tev), dev_cmp);
	J->devc = spill_new(sizeof(struct tev), key_cmp);
	J->devx = spill_new(sizeof(struct tev), key_cmp);
	if (spill_sort(J->dev) < 0)
		return -1;
	while ((r = spill_next(J->dev, &d)) == 1) {
		int rc;

		if (d.has_corr) {
			d.key = ev_corr(&d);
			rc = spill_add(J->devc, &d);
		} else if (d.has_ext) {
			d.key = ev_ext(&d);
			rc = spill_add(J->devx, &d);
		} else {
			rc = dev_done(J, &d);
		}
		if (rc < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	drop(&J->dev);
	if (dev_match(J, J->devc, J->corr, 0) < 0)
		return -1;
	drop(&J->devc);
	drop(&J->corr);
	if (dev_match(J, J->devx, J->ext, 1) < 0)
		return -1;
	drop(&J->devx);
	drop(&J->ext);
	return 0;
}

/* ------------------------------------------------------------------ totals */

static int is_device(int k)
{
	return k == K_KERNEL || k == K_MEMCPY || k == K_MEMSET;
}


static int where_cmp(const void *a, const void *b)
{
	const struct where *x = a, *y = b;
	double tx = x->host + x->dev, ty = y->host + y->dev;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->key, y->key);
}


static void add_where(struct totals *T, struct strmap_slot *key, const cJSON *phase, double host, double dev)
{
	if (key->b < 0) {
		GROW(T->un, T->aun, T->nun + 1);
		T->un[T->nun].key = key->key;
		T->un[T->nun].phase = phase ? records_str(phase, "name") : NULL;
		T->un[T->nun].anchor = phase ? records_str(phase, "anchor") : NULL;
		T->un[T->nun].host = T->un[T->nun].dev = 0;
		key->b = (int)T->nun++;
	}
	T->un[key->b].host += host;
	T->un[key->b].dev += dev;
}

/* The schedule's phase that T's marks put it in (struct tev's phase), when
 * the records' schedule has a phase of that name; else NULL. */
static const cJSON *where_phase(const struct att *A, const struct tev *t)
{
	const cJSON *p;

	if (t->phase <= 0)
		return NULL;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(A->sched, "phases")) {
		const char *name = records_str(p, "name");

		if (name && !strcmp(name, A->phases[t->phase - 1]))
			return p;
	}
	return NULL;
}

/* Where T ran, for a person: the schedule's phase that owns it (phase,
 * from where_phase()), else its innermost repository frame, or the op
 * outside the repository it is in.  Interned. */
static struct strmap_slot *where_key(struct att *A, const struct tev *t, const cJSON *phase)
{
	struct strmap_slot *k;
	char *s;

	if (phase) {
		const char *a = records_str(phase, "anchor");

		s = xasprintf("%s phase%s%s", records_str(phase, "name"), a ? " at " : "", a ? a : "");
	} else if (t->frame >= 0) {
		const struct frame *f = &A->frames[t->frame];

		s = xasprintf("%s:%s (def line %ld)%s", A->files[f->file], f->func, f->line, t->bwd ? ", backward" : "");
	} else {
		s = xasprintf("outside the repository: %s", t->top >= 0 && t->topname ? t->topname : t->name);
	}
	k = intern(&A->names, s);
	free(s);
	return k;
}

/* The totals, in trace order (J->sum): per-entry self and inclusive times,
 * the totals, the unattributed time by where it ran.  0, or -1 after
 * err_set(). */
static int sums(struct att *A, struct join *J)
{
	struct totals *T = &A->tot;
	struct tev t;
	size_t i;
	int d, maxd = 0, r;

	if (spill_sort(J->sum) < 0)
		return -1;
	while ((r = spill_next(J->sum, &t)) == 1) {
		if (t.kind == K_OP && t.top == t.idx) {
			T->host += t.dur;
			if (t.ent >= 0)
				A->ents[t.ent].host[t.bwd] += t.dur;
			else {
				T->host_un += t.dur;
				const cJSON *ph = where_phase(A, &t);

				add_where(T, where_key(A, &t, ph), ph, t.dur, 0);
			}
		} else if (is_device((int)t.kind)) {
			T->dev += t.dur;
			if (t.ent >= 0)
				A->ents[t.ent].dev[t.bwd] += t.dur;
			else {
				T->dev_un += t.dur;
				const cJSON *ph = where_phase(A, &t);

				add_where(T, where_key(A, &t, ph), ph, 0, t.dur);
			}
		}
	}
	if (r < 0)
		return -1;
	drop(&J->sum);
	for (i = 0; i < (size_t)A->nents; i++) {
		struct ent *x = &A->ents[i];

		memcpy(x->ihost, x->host, sizeof x->host);
		memcpy(x->idev, x->dev, sizeof x->dev);
		if (x->depth > maxd)
			maxd = x->depth;
	}
	for (d = maxd; d > 0; d--)
		for (i = 0; i < (size_t)A->nents; i++) {
			struct ent *x = &A->ents[i];

			if (x->depth != d || x->parent < 0)
				continue;
			A->ents[x->parent].ihost[0] += x->ihost[0];
			A->ents[x->parent].ihost[1] += x->ihost[1];
			A->ents[x->parent].idev[0] += x->idev[0];
			A->ents[x->parent].idev[1] += x->idev[1];
		}
	if (T->nun > 1)
		qsort(T->un, T->nun, sizeof *T->un, where_cmp);
	return 0;
}

/* Calls a layer is seen to make: its nn.Module events, else its op's. */
long attrib_measured_calls(const struct att *A, const struct ent *x, int *known)
{
	int j;
	long best = 0;

	*known = 1;
	if (!strcmp(x->kind, "model") || !strcmp(x->kind, "module")) {
		*known = A->has_py;
		return x->calls;
	}
	if (!strcmp(x->kind, "layer")) {
		if (A->has_mod)
			return x->calls;
		for (j = 0; j < x->nkids; j++)
			if (A->ents[x->kids[j]].calls > best)
				best = A->ents[x->kids[j]].calls;
		*known = A->has_py;
		return best;
	}
	if (!strcmp(x->kind, "op")) {
		*known = A->has_py && !(x->op && op_silent(x->op));
		return x->calls;
	}
	if (!strcmp(x->kind, "container")) {
		/* a Sequential is called, a ModuleList or ModuleDict never is */
		*known = A->has_mod;
		return x->calls;
	}
	*known = 0;
	return 0;
}

/* Expected calls over the trace: total_repeat per call of its model,
 * times the calls of that model; -1 when not pinned down. */
double attrib_expected_calls(const struct att *A, const struct ent *x)
{
	const struct ent *r = &A->ents[x->root];

	if (x->total < 0 || x->conditional || !A->has_py || !r->calls || !strcmp(x->kind, "container") ||
	    !strcmp(x->kind, "function") || (x->op && op_silent(x->op)))
		return -1;
	for (const struct ent *p = x; p; p = p->parent >= 0 ? &A->ents[p->parent] : NULL)
		if (p->conditional)
			return -1;
	return x->total * (double)r->calls;
}

/* ------------------------------------------------------------------ gaps */

const char *const attrib_cause_name[] = { "sync", "copy", "collective", "data", "host", "idle" };

/* What a host event can be the cause of an idle gap for, by its name:
 * the names (or prefixes, or parts) that make each kind of event a sync,
 * a copy, a collective or a data wait.  The first rule that fits wins. */
enum how { EXACT, PREFIX, PART };

struct cause_rule {
	unsigned kinds;            /* 1 << enum kind */
	enum how how;
	const char *text;
	enum cause cause;
};

#define RT (1u << K_RT)
#define OP (1u << K_OP)
#define HOST_PY ((1u << K_ANN) | (1u << K_PY))

static const struct cause_rule cause_rules[] = {
	{ RT, PART, "Synchronize", C_SYNC },
	{ RT, EXACT, "cudaMemcpy", C_SYNC },
	{ RT, PREFIX, "cudaMemcpy2D", C_SYNC },
	{ RT, EXACT, "cuStreamSynchronize", C_SYNC },
	{ RT, EXACT, "cuCtxSynchronize", C_SYNC },
	{ OP, EXACT, "aten::item", C_SYNC },
	{ OP, EXACT, "aten::_local_scalar_dense", C_SYNC },
	{ OP, EXACT, "aten::nonzero", C_SYNC },
	{ OP, EXACT, "aten::is_nonzero", C_SYNC },
	{ OP, PREFIX, "nccl:", C_COLL },
	{ OP, PREFIX, "c10d::", C_COLL },
	{ OP, EXACT, "record_param_comms", C_COLL },
	{ OP, PART, "all_reduce", C_COLL },
	{ OP, PART, "allreduce", C_COLL },
	{ OP, PART, "all_gather", C_COLL },
	{ OP, PART, "reduce_scatter", C_COLL },
	{ OP, PART, "broadcast", C_COLL },
	{ OP, EXACT, "aten::to", C_COPY },
	{ OP, EXACT, "aten::_to_copy", C_COPY },
	{ OP, EXACT, "aten::copy_", C_COPY },
	{ HOST_PY, PREFIX, "enumerate(DataLoader)", C_DATA },
	{ HOST_PY, PREFIX, "nccl:", C_COLL },
};

#undef RT
#undef OP
#undef HOST_PY

static int rule_fits(const struct cause_rule *r, const char *n)
{
	switch (r->how) {
	case EXACT: return !strcmp(n, r->text);
	case PREFIX: return !strncmp(n, r->text, strlen(r->text));
	case PART: return strstr(n, r->text) != NULL;
	}
	return 0;
}

/* A DataLoader's __next__ frame ("...dataloader.py(N): __next__"): two
 * parts of one name, which the rules above cannot say. */
static int dataloader_next(const struct tev *t)
{
	return (t->kind == K_ANN || t->kind == K_PY) && strstr(t->name, "dataloader.py(") &&
	       strstr(t->name, "__next__");
}

static int cause_of(const struct tev *t)
{
	size_t i;

	for (i = 0; i < sizeof cause_rules / sizeof cause_rules[0]; i++) {
		const struct cause_rule *r = &cause_rules[i];

		if ((r->kinds & (1u << t->kind)) && rule_fits(r, t->name))
			return (int)r->cause;
		/* the data rules come after every rule of the other kinds */
		if (r->cause == C_DATA && dataloader_next(t))
			return C_DATA;
	}
	return -1;
}

/* An idle gap on a device stream: [a, b], the order it was found in (by
 * stream, then time), the stream. */
struct gaprec {
	double a, b;
	int64_t order;
	uint32_t thr;
	uint32_t si;               /* its stream in A->streams */
};

/* What explains gap `order`: the cause, the host event (its name, the
 * where_key() of its frame or "", its idx and frame; what is "nothing on
 * the host" and ev -1 when nothing does). */
struct gres {
	int64_t order, ev;
	double a, b;
	const char *what, *where;
	int frame, cause;
	uint32_t thr;
	uint32_t si;               /* its stream in A->streams */
};

static int gap_cmp(const void *x, const void *y)
{
	const struct gaprec *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return idx_order(a->order, b->order);
}

static int gres_cmp(const void *x, const void *y)
{
	return idx_order(((const struct gres *)x)->order, ((const struct gres *)y)->order);
}

static int ggroup_cmp(const void *a, const void *b)
{
	const struct ggroup *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return strcmp(x->where, y->where);
}

/* The schedule entries a host event can be: same file and function as its
 * innermost repository frame, and a kind that fits the cause.  A JSON
 * array of anchors (new). */
cJSON *attrib_schedule_candidates(const struct att *A, int frame, const char *name, int cause)
{
	static const char *const secs[] = { "host_device", "device_device", "data_path" };
	cJSON *out = cJSON_CreateArray(), *sync_only = cJSON_CreateArray();
	const struct frame *f;
	size_t s;

	if (frame < 0 || cause == C_HOST || cause == C_NONE) {
		cJSON_Delete(sync_only);
		return out;
	}
	f = &A->frames[frame];
	for (s = 0; s < 3; s++) {
		const cJSON *e;

		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(A->sched, secs[s])) {
			const char *a = records_str(e, "anchor"), *kind = records_str(e, "kind");
			const char *call = records_str(e, "call"), *hop = records_str(e, "hop");
			char *file = NULL, *sym = NULL;
			long line;
			int fits;

			if (!a || anchor_split(a, &file, &sym, &line) < 0)
				continue;
			fits = !strcmp(file, A->files[f->file]) && !strcmp(last_component(sym), f->func);
			if (fits) {
				if (cause == C_SYNC)
					fits = s == 0 && kind && !strcmp(kind, "sync");
				else if (cause == C_COPY)
					fits = s == 0 && kind && (!strcmp(kind, "h2d") || !strcmp(kind, "d2h"));
				else if (cause == C_COLL)
					fits = s == 1;
				else if (cause == C_DATA)
					fits = s == 2 && hop && (!strcmp(hop, "next batch") || !strcmp(hop, "DataLoader"));
			}
			if (fits) {
				cJSON_AddItemToArray(out, cJSON_CreateString(a));
				/* a device-wide synchronize is not an .item(), and the other way round */
				if (cause == C_SYNC && call &&
				    (strstr(call, "synchronize") != NULL) == (strstr(name, "Synchronize") != NULL ||
				                                               strstr(name, "synchronize") != NULL))
					cJSON_AddItemToArray(sync_only, cJSON_CreateString(a));
			}
			free(file);
			free(sym);
		}
	}
	if (cJSON_GetArraySize(sync_only) && cJSON_GetArraySize(sync_only) < cJSON_GetArraySize(out)) {
		cJSON_Delete(out);
		return sync_only;
	}
	cJSON_Delete(sync_only);
	return out;
}

/* A gap being explained during the sweep: the cause event that kept the
 * host from queueing work for the longest part of it so far, and the
 * top-level op the host was running at its middle. */
struct ogap {
	struct gaprec g;
	double best, bestdur;
	int have, mid_done, have_top, closed;
	struct tev ev, top;
};

/* The host event that explains [a, b]: the cause event that kept the
 * host from queueing work for the longest part of the gap.  A sync or a
 * copy counts only when the host was already inside it when the device
 * went idle (at a): one that starts during the gap found the device idle
 * and did not make it so.  A data or collective wait counts wherever it
 * lies.  Between nested causes of the same length the outer one names it
 * (aten::item rather than the cudaStreamSynchronize inside it).  Without
 * a cause: the top-level op the host was running at the gap's middle
 * (cause "host"), else nothing.  The causes are considered by start
 * (short ones) and then in trace order (those longer than LONG_CAUSE_US),
 * the first of equals winning. */
/* Whether cause event T explains gap O better than the best so far. */
static void consider(struct ogap *o, const struct tev *t)
{
	double a = o->g.a, b = o->g.b;
	double ov = fmin(b, t->ts + t->dur) - fmax(a, t->ts);
	int k = GCAUSE(t);

	if (t->ts + t->dur < a - 1e-3 || t->ts >= b)
		return;  /* not during the gap */
	if ((k == C_SYNC || k == C_COPY) && !(t->ts <= a + 1e-3))
		return;  /* began on an idle device */
	if (ov < 0)
		ov = 0;
	if (!o->have || ov > o->best + 1e-3 || (fabs(ov - o->best) <= 1e-3 && t->dur > o->bestdur)) {
		o->best = ov;
		o->bestdur = t->dur;
		o->ev = *t;
		o->have = 1;
	}
}

/* The top-level op at the middle of O: of the last 64 that began by then
 * (RING, newest last), the newest still running.  Top-level ops of one
 * thread do not overlap, so a little look back is enough. */
#define RING 64
static void at_mid(struct ogap *o, const struct tev *ring, uint64_t nring)
{
	double mid = (o->g.a + o->g.b) / 2;
	uint64_t k;

	o->mid_done = 1;
	for (k = 0; k < nring && k < RING; k++) {
		const struct tev *t = &ring[(nring - 1 - k) % RING];

		if (t->ts + t->dur >= mid) {
			o->top = *t;
			o->have_top = 1;
			return;
		}
	}
}

static int gap_emit(struct att *A, struct join *J, const struct ogap *o)
{
	const struct tev *ev = o->have ? &o->ev : o->have_top ? &o->top : NULL;
	struct gres r;

	memset(&r, 0, sizeof r);
	r.order = o->g.order;
	r.a = o->g.a;
	r.b = o->g.b;
	r.thr = o->g.thr;
	r.si = o->g.si;
	r.cause = o->have ? GCAUSE(ev) : o->have_top ? C_HOST : C_NONE;
	r.what = ev ? ev->name : "nothing on the host";
	r.where = ev && ev->frame >= 0 ? where_key(A, ev, NULL)->key : "";
	r.ev = ev ? ev->idx : -1;
	r.frame = ev ? ev->frame : -1;
	return spill_add(J->gres, &r);
}

/* Drop from LIST (*n events) those that end before `from` - 1e-3: no gap
 * still to come can take them. */
static void prune(struct tev *list, size_t *n, double from)
{
	size_t i, k = 0;

	for (i = 0; i < *n; i++)
		if (!(list[i].ts + list[i].dur < from - 1e-3))
			list[k++] = list[i];
	*n = k;
}

/* Gaps, 2: the gaps (J->gaps, by start) and the host events that can
 * explain them (J->gaph, by start) swept together.  A gap opens when the
 * sweep reaches its start, taking the short causes still running then;
 * the short causes that begin in it are considered as they come; at its
 * middle it notes the top-level op; at its end the long causes that
 * overlap it are considered.  What is held: the gaps open (one per stream
 * at most), the causes running at the current time, the long causes
 * overlapping an open gap, 64 top-level ops.  0, or -1 after err_set(). */
static int sweep(struct att *A, struct join *J)
{
	struct tev h, *sh = NULL, *lg = NULL, *ring = xmalloc(RING * sizeof *ring);
	size_t nsh = 0, ash = 0, nlg = 0, alg = 0, nog = 0, aog = 0, i, sh_lim = 1024, lg_lim = 1024;
	uint64_t nring = 0;
	struct ogap *og = NULL;
	struct gaprec g;
	int hg, hh, rc = -1;

	J->gres = spill_new(sizeof(struct gres), gres_cmp);
	if (spill_sort(J->gaps) < 0 || spill_sort(J->gaph) < 0 || (hg = spill_next(J->gaps, &g)) < 0)
		goto out;
	for (;;) {
		double now;

		if ((hh = spill_next(J->gaph, &h)) < 0)
			goto out;
		now = hh ? h.ts : INFINITY;
		/* gaps that have begun: opened, with the short causes around their start */
		while (hg == 1 && g.a <= now) {
			struct ogap *o;

			prune(sh, &nsh, g.a);
			GROW(og, aog, nog + 1);
			o = &og[nog++];
			memset(o, 0, sizeof *o);
			o->g = g;
			for (i = 0; i < nsh; i++)
				consider(o, &sh[i]);
			if ((hg = spill_next(J->gaps, &g)) < 0)
				goto out;
		}
		/* middles and ends passed */
		for (i = 0; i < nog;) {
			struct ogap *o = &og[i];
			size_t j;

			if (!o->mid_done && now > (o->g.a + o->g.b) / 2)
				at_mid(o, ring, nring);
			if (!o->closed && now >= o->g.b) {
				for (j = 0; j < nlg; j++)
					consider(o, &lg[j]);
				o->closed = 1;
			}
			if (o->closed && (o->have || o->mid_done)) {
				if (gap_emit(A, J, o) < 0)
					goto out;
				og[i] = og[--nog];
				continue;
			}
			i++;
		}
		if (!hh)
			break;
		switch (GCLS(&h)) {
		case 0:  /* a short cause: now, to the gaps open; later, to those to come */
			for (i = 0; i < nog; i++)
				if (!og[i].closed)
					consider(&og[i], &h);
			if (hg != 1)
				break;
			GROW(sh, ash, nsh + 1);
			sh[nsh++] = h;
			if (nsh >= sh_lim) {
				prune(sh, &nsh, g.a);
				sh_lim = 2 * nsh + 1024;
			}
			break;
		case 1: {  /* a long cause: kept in trace order for the ends of gaps */
			size_t at = nlg;

			GROW(lg, alg, nlg + 1);
			while (at > 0 && lg[at - 1].idx > h.idx) {
				lg[at] = lg[at - 1];
				at--;
			}
			lg[at] = h;
			nlg++;
			if (nlg >= lg_lim) {
				double from = hg == 1 ? g.a : INFINITY;

				for (i = 0; i < nog; i++)
					if (!og[i].closed && og[i].g.a < from)
						from = og[i].g.a;
				prune(lg, &nlg, from);
				lg_lim = 2 * nlg + 1024;
			}
			break;
		}
		default:
			ring[nring++ % RING] = h;
			break;
		}
	}
	rc = 0;
out:
	free(sh);
	free(lg);
	free(og);
	free(ring);
	drop(&J->gaps);
	drop(&J->gaph);
	return rc;
}

int attrib_stream_comm(const struct stream_use *u)
{
	return u->nccl > u->dur / 2;
}

/* One more device event T on stream U (events by start): its count, its
 * share of the busy time inside the window [t0, t1] (*end: where the busy
 * time so far ends), whether it is an NCCL kernel. */
static void stream_add(const struct att *A, struct stream_use *u, const struct tev *t, double *end)
{
	double s = fmax(t->ts, fmax(*end, A->t0)), e = fmin(t->ts + t->dur, A->t1);

	u->n++;
	u->dur += t->dur;
	if (t->kind == K_KERNEL && (strstr(t->name, "nccl") || strstr(t->name, "NCCL")))
		u->nccl += t->dur;
	if (e > s) {
		size_t k;

		u->busy += e - s;
		for (k = step_at(A, s); k < A->nstepv && A->stepv[k].ts < e; k++) {
			double ov = fmin(e, A->stepv[k].ts + A->stepv[k].dur) - fmax(s, A->stepv[k].ts);

			if (ov > 0)
				A->stepv[k].busy += ov;
		}
	}
	if (e > *end)
		*end = e;
}

/* Gaps, 1: the device events by stream and start (J->gapd); the idle time
 * between two of one stream, at least --min-gap long and inside the
 * profiled window, is a gap (J->gaps).  Each stream's use on the way
 * (A->streams).  0, or -1 after err_set(). */
static int gap_list(struct att *A, struct join *J)
{
	struct tev p, t;
	struct gaprec g;
	int64_t n = 0;
	size_t as = 0, k;
	double end = -1e300;
	int r;

	memset(&g, 0, sizeof g);
	J->gaps = spill_new(sizeof g, gap_cmp);
	if (spill_sort(J->gapd) < 0 || (r = spill_next(J->gapd, &p)) < 0)
		return -1;
	for (; r == 1; p = t) {
		double a, b;

		if (!A->nstreams || A->streams[A->nstreams - 1].pid != A->thr[p.thr].pid ||
		    A->streams[A->nstreams - 1].stream != A->thr[p.thr].tid) {
			GROW(A->streams, as, A->nstreams + 1);
			memset(&A->streams[A->nstreams], 0, sizeof *A->streams);
			A->streams[A->nstreams].pid = A->thr[p.thr].pid;
			A->streams[A->nstreams].stream = A->thr[p.thr].tid;
			A->nstreams++;
			end = -1e300;
		}
		if (A->t1 > A->t0)
			stream_add(A, &A->streams[A->nstreams - 1], &p, &end);
		else
			A->streams[A->nstreams - 1].n++;
		if ((r = spill_next(J->gapd, &t)) != 1)
			break;
		a = p.ts + p.dur;
		b = t.ts;
		if (p.thr == t.thr && !(b - a < A->min_gap) && !(a < A->t0 || b > A->t1)) {
			g.a = a;
			g.b = b;
			g.order = n++;
			g.thr = t.thr;
			g.si = (uint32_t)(A->nstreams - 1);
			if (spill_add(J->gaps, &g) < 0)
				return -1;
			if ((k = step_at(A, a)) < A->nstepv && A->stepv[k].ts <= a)
				A->stepv[k].gaps += b - a;
		}
	}
	if (r < 0)
		return -1;
	drop(&J->gapd);
	return 0;
}

/* Gaps, 3: the explained gaps in the order found, grouped by stream, cause
 * and host event (A->groups, largest total first).  0, or -1. */
static int group(struct att *A, struct join *J)
{
	struct gres r;
	size_t ag = 0, k;
	int rr;

	if (spill_sort(J->gres) < 0)
		return -1;
	while ((rr = spill_next(J->gres, &r)) == 1) {
		struct ggroup *g;
		int64_t pid = A->thr[r.thr].pid, stream = A->thr[r.thr].tid;

		for (k = 0; k < A->ngroups; k++)
			if (A->groups[k].pid == pid && A->groups[k].stream == stream && A->groups[k].cause == r.cause &&
			    A->groups[k].what == r.what && A->groups[k].where == r.where)
				break;
		if (k == A->ngroups) {
			GROW(A->groups, ag, A->ngroups + 1);
			g = &A->groups[A->ngroups++];
			memset(g, 0, sizeof *g);
			g->pid = pid;
			g->stream = stream;
			g->cause = r.cause;
			g->what = r.what;
			g->where = r.where;
			g->ev = r.ev;
			g->frame = r.frame;
		}
		g = &A->groups[k];
		g->n++;
		g->total += r.b - r.a;
		if (r.b - r.a > g->maxdur)
			g->maxdur = r.b - r.a;
		A->gap_total += r.b - r.a;
		A->gap_n++;
		A->streams[r.si].gaps += r.b - r.a;
	}
	if (rr < 0)
		return -1;
	drop(&J->gres);
	if (A->ngroups > 1)
		qsort(A->groups, A->ngroups, sizeof *A->groups, ggroup_cmp);
	return 0;
}

void attrib_free(struct att *A)
{
	int i;

	for (i = 0; i < A->nents; i++) {
		free(A->ents[i].afile);
		free(A->ents[i].asym);
		free(A->ents[i].kids);
		free(A->ents[i].items);
	}
	free(A->ents);
	free(A->files);
	for (i = 0; i < A->nframes; i++) {
		free(A->frames[i].func);
		free(A->frames[i].cand);
		free(A->frames[i].sym);
	}
	free(A->frames);
	free(A->tot.un);
	free(A->groups);
	free(A->streams);
	free(A->stepv);
	free(A->thr);
	strtab_free(&A->thrmap);
	strtab_free(&A->names);
	cJSON_Delete(A->graph);
	cJSON_Delete(A->sched);
	cJSON_Delete(A->warnings);
}

int attrib_join(struct att *A)
{
	struct join J;
	int rc = -1;

	memset(&J, 0, sizeof J);
	cmp_att = A;
	load_entries(A);
	J.host = spill_new(sizeof(struct tev), host_cmp);
	J.dev = spill_new(sizeof(struct tev), NULL);
	if (read_trace(A, &J) < 0 || walk(A, &J) < 0 || seq_join(&J) < 0 || finish(&J) < 0 || devices(&J) < 0 ||
	    sums(A, &J) < 0 || gap_list(A, &J) < 0 || sweep(A, &J) < 0 || group(A, &J) < 0)
		goto out;
	rc = 0;
out:
	join_free(&J);
	cmp_att = NULL;
	return rc;
}
