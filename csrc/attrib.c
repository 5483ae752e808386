/* attrib.c - see include/ecg/attrib.h: a profiler trace joined with the
 * records (the work of `ecg attribute`).
 *
 * The join, in four passes over the events kept from the trace:
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
 * Memory: the events kept (about 150 bytes each) and the interned names;
 * the trace text is streamed (trace.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/attrib.h"
#include "ecg/err.h"
#include "ecg/records.h"
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


static size_t imap_pos(const struct imap *m, int64_t k)
{
	uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 17) & (m->cap - 1);
}

static void imap_add(struct imap *m, int64_t k, int v, int replace)
{
	size_t i;

	if (m->n * 2 >= m->cap) {
		struct imap o = *m;
		size_t j;

		m->cap = o.cap ? o.cap * 2 : 1024;
		m->key = xmalloc(m->cap * sizeof *m->key);
		m->val = xmalloc(m->cap * sizeof *m->val);
		for (j = 0; j < m->cap; j++)
			m->val[j] = -1;
		m->n = 0;
		for (j = 0; j < o.cap; j++)
			if (o.val[j] >= 0)
				imap_add(m, o.key[j], o.val[j], 0);
		free(o.key);
		free(o.val);
	}
	for (i = imap_pos(m, k); m->val[i] >= 0; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == k) {
			if (replace)
				m->val[i] = v;
			return;
		}
	m->key[i] = k;
	m->val[i] = v;
	m->n++;
}

static void imap_put(struct imap *m, int64_t k, int v)
{
	imap_add(m, k, v, 0);
}

static void imap_set(struct imap *m, int64_t k, int v)
{
	imap_add(m, k, v, 1);
}

static int imap_get(const struct imap *m, int64_t k)
{
	size_t i;

	if (!m->cap)
		return -1;
	for (i = imap_pos(m, k); m->val[i] >= 0; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == k)
			return m->val[i];
	return -1;
}

static void imap_free(struct imap *m)
{
	free(m->key);
	free(m->val);
}

/* ------------------------------------------------------------------ events */





struct use {
	int ent;
	long n;
};

/* One level of the host nesting during the walk. */
struct lvl {
	int ev;
	double end;
	int E;                     /* the entry being executed, -1 none */
	int cur;                   /* the item of E matched last, -1 none yet */
	int frame;
	int top;                   /* inside this top-level op, -1 */
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

static int64_t thr_hash(int64_t pid, int64_t tid)
{
	return (int64_t)(((uint64_t)pid * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)tid + 0x632BE59BD9B4E019ULL));
}

/* The index of (pid, tid) in A->thr, added when new: an event keeps 4
 * bytes for its thread (or device stream) instead of 16. */
static uint32_t thr_of(struct att *A, int64_t pid, int64_t tid)
{
	int64_t h = thr_hash(pid, tid);
	int i = imap_get(&A->thrmap, h);
	uint32_t k;

	if (i >= 0 && A->thr[i].pid == pid && A->thr[i].tid == tid)
		return (uint32_t)i;
	if (i >= 0)     /* two threads with one hash: look through them all */
		for (k = 0; k < A->nthr; k++)
			if (A->thr[k].pid == pid && A->thr[k].tid == tid)
				return k;
	GROW(A->thr, A->athr, (size_t)A->nthr + 1);
	A->thr[A->nthr].pid = pid;
	A->thr[A->nthr].tid = tid;
	if (i < 0)
		imap_put(&A->thrmap, h, (int)A->nthr);
	return A->nthr++;
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

static void keep_event(struct att *A, const cJSON *e)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
	const char *name = records_str(e, "name");
	struct tev t;
	int64_t pid, tid, ext, corr, seq;
	int has_ext, has_corr, has_seq;
	int k = classify(records_str(e, "cat"), records_str(e, "ph"));

	if (k < 0 || !name)
		return;
	memset(&t, 0, sizeof t);
	if (!to_i64(cJSON_GetObjectItemCaseSensitive(e, "pid"), &pid) ||
	    !to_i64(cJSON_GetObjectItemCaseSensitive(e, "tid"), &tid) || !records_num(e, "ts", &t.ts) ||
	    !isfinite(t.ts) || fabs(t.ts) > 1e18)
		return;
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
	t.top = t.ent = t.frame = -1;
	if (k == K_PY)
		A->has_py = 1;
	if (k == K_MOD)
		A->has_mod = 1;
	if (k == K_STEP) {
		A->steps++;
		A->step_us += t.dur;
	}
	GROW(A->ev, A->aev, A->nev + 1);
	A->ev[A->nev++] = t;
}

static int read_trace(struct att *A)
{
	trace_reader *r = trace_open(A->trace_path);
	cJSON *e = NULL;
	int rc;

	if (!r)
		return -1;
	while ((rc = trace_next(r, &e)) == 1) {
		keep_event(A, e);
		cJSON_Delete(e);
		e = NULL;
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
	return 0;
}

/* ------------------------------------------------------------------ nesting and the walk */

static const struct tev *sort_ev;
static const struct thr *sort_thr;

static int host_cmp(const void *a, const void *b)
{
	const struct tev *x = &sort_ev[*(const int *)a], *y = &sort_ev[*(const int *)b];
	static const int prio[] = { [K_STEP] = 0, [K_ANN] = 1, [K_MOD] = 2, [K_PY] = 3, [K_OP] = 4, [K_RT] = 5 };
	int c = thr_cmp(sort_thr, x->thr, y->thr);

	if (c)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (prio[x->kind] != prio[y->kind])
		return prio[x->kind] - prio[y->kind];
	return *(const int *)a - *(const int *)b;
}

static int is_host(int k)
{
	return k == K_ANN || k == K_STEP || k == K_MOD || k == K_PY || k == K_OP || k == K_RT;
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

static void walk(struct att *A, struct imap *seqmap)
{
	int *ix = xmalloc((A->nev + 1) * sizeof *ix);
	struct lvl *st = NULL;
	size_t n = 0, i, ast = 0, sp = 0;

	for (i = 0; i < A->nev; i++)
		if (is_host((int)A->ev[i].kind))
			ix[n++] = (int)i;
	sort_ev = A->ev;
	sort_thr = A->thr;
	qsort(ix, n, sizeof *ix, host_cmp);
	for (i = 0; i < n; i++) {
		struct tev *t = &A->ev[ix[i]];
		struct lvl *P, *O, L;
		int entered = 0;

		if (i == 0 || t->thr != A->ev[ix[i - 1]].thr) {
			while (sp > 0)
				free(st[--sp].used);
		}
		while (sp > 1 && t->ts >= st[sp - 1].end - 1e-3) {
			sp--;
			free(st[sp].used);
		}
		if (!sp) {
			GROW(st, ast, 1);
			memset(&st[0], 0, sizeof st[0]);
			st[0].ev = -1;
			st[0].end = 1e300;
			st[0].E = st[0].frame = st[0].top = st[0].modent = -1;
			sp = 1;
		}
		P = &st[sp - 1];
		O = &st[P->owner];
		L = *P;
		L.ev = ix[i];
		L.end = t->ts + t->dur;
		L.used = NULL;
		L.nused = L.aused = 0;
		t->frame = P->frame;
		if (P->top >= 0) {
			t->top = P->top;
			if (t->kind == K_OP && t->has_seq && !A->ev[P->top].bwdroot)
				imap_set(seqmap, ev_seq(t), P->top);
		} else {
			switch (t->kind) {
			case K_MOD: {
				char cls[256];
				const char *s = t->name + 11, *us = strrchr(s, '_');
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
				int fi = resolve_frame(A, t->name), m;
				const struct frame *f = &A->frames[fi];

				if (f->file < 0)
					break;
				L.frame = t->frame = fi;
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
				t->top = L.top = ix[i];
				L.modent = -1;
				if (bwd_name(t)) {
					t->bwdroot = 1;
					t->bwd = 1;
					break;
				}
				/* ops that make no grad_fn only peek at the sequence
				 * number: the op that takes it is the last one */
				if (t->has_seq)
					imap_set(seqmap, ev_seq(t), ix[i]);
				if (P->E >= 0) {
					int m = match_op(A, P->E, &O->cur, t->name);

					t->ent = m >= 0 ? m : P->E;
					if (m >= 0)
						A->ents[m].calls++;
				}
				break;
			case K_RT:
				t->ent = P->E;
				break;
			default:
				break;
			}
		}
		/* annotations (steps, Optimizer.step#..., enumerate(DataLoader)#...)
		 * open in one Python call and may close in another: they take no
		 * part in the nesting (steps and waits are read by time) */
		if (t->kind == K_ANN || t->kind == K_STEP)
			continue;
		if (entered)
			L.owner = (int)sp;  /* entered an entry: cur and used are its own */
		GROW(st, ast, sp + 1);
		st[sp++] = L;
	}
	while (sp > 0)
		free(st[--sp].used);
	free(st);
	free(ix);
}

/* Backward roots take the entry of their forward op; then everything
 * inside a top-level op takes that op's entry. */
static void finish(struct att *A, const struct imap *seqmap, struct imap *corr, struct imap *ext)
{
	size_t i;

	for (i = 0; i < A->nev; i++) {
		struct tev *t = &A->ev[i];

		if (t->bwdroot && t->has_seq) {
			int f = imap_get(seqmap, ev_seq(t));

			if (f >= 0 && A->ev[f].top >= 0) {
				t->ent = A->ev[A->ev[f].top].ent;
				t->frame = A->ev[A->ev[f].top].frame;
			}
		}
	}
	for (i = 0; i < A->nev; i++) {
		struct tev *t = &A->ev[i];

		if (t->top >= 0 && (size_t)t->top != i) {
			t->ent = A->ev[t->top].ent;
			t->bwd = A->ev[t->top].bwd;
			if (t->bwd)
				t->frame = A->ev[t->top].frame;
		}
		if (t->kind == K_RT && t->has_corr)
			imap_put(corr, ev_corr(t), (int)i);
		if (t->kind == K_OP && t->has_ext)
			imap_put(ext, ev_ext(t), (int)i);
	}
	for (i = 0; i < A->nev; i++) {
		struct tev *t = &A->ev[i];
		int h = -1;

		if (t->kind != K_KERNEL && t->kind != K_MEMCPY && t->kind != K_MEMSET)
			continue;
		if (t->has_corr)
			h = imap_get(corr, ev_corr(t));
		if (h < 0 && t->has_ext)
			h = imap_get(ext, ev_ext(t));
		if (h >= 0) {
			t->ent = A->ev[h].ent;
			t->bwd = A->ev[h].bwd;
			t->frame = A->ev[h].frame;
			t->top = A->ev[h].top;
		}
	}
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


static void add_where(struct totals *T, struct strmap_slot *key, double host, double dev)
{
	if (key->b < 0) {
		GROW(T->un, T->aun, T->nun + 1);
		T->un[T->nun].key = key->key;
		T->un[T->nun].host = T->un[T->nun].dev = 0;
		key->b = (int)T->nun++;
	}
	T->un[key->b].host += host;
	T->un[key->b].dev += dev;
}

/* Where T ran, for a person: its innermost repository frame, or the op
 * outside the repository it is in.  Interned. */
static struct strmap_slot *where_key(struct att *A, const struct tev *t)
{
	struct strmap_slot *k;
	char *s;

	if (t->frame >= 0) {
		const struct frame *f = &A->frames[t->frame];

		s = xasprintf("%s:%s (def line %ld)%s", A->files[f->file], f->func, f->line, t->bwd ? ", backward" : "");
	} else {
		const struct tev *o = t->top >= 0 ? &A->ev[t->top] : t;

		s = xasprintf("outside the repository: %s", o->name);
	}
	k = intern(&A->names, s);
	free(s);
	return k;
}

void attrib_sum(struct att *A, struct totals *T)
{
	size_t i;
	int d, maxd = 0;

	for (i = 0; i < A->nev; i++) {
		const struct tev *t = &A->ev[i];

		if (t->kind == K_OP && t->top == (int)i) {
			T->host += t->dur;
			if (t->ent >= 0)
				A->ents[t->ent].host[t->bwd] += t->dur;
			else {
				T->host_un += t->dur;
				add_where(T, where_key(A, t), t->dur, 0);
			}
		} else if (is_device((int)t->kind)) {
			T->dev += t->dur;
			if (t->ent >= 0)
				A->ents[t->ent].dev[t->bwd] += t->dur;
			else {
				T->dev_un += t->dur;
				add_where(T, where_key(A, t), 0, t->dur);
			}
		}
	}
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

struct gap {
	int64_t pid, stream;
	double ts, dur;
	int cause;                 /* enum cause */
	int ev;                    /* the host event behind it, -1 */
};


static const struct tev *gsort_ev;

static int dev_cmp(const void *a, const void *b)
{
	const struct tev *x = &gsort_ev[*(const int *)a], *y = &gsort_ev[*(const int *)b];
	int c = thr_cmp(sort_thr, x->thr, y->thr);

	if (c)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static int ts_cmp(const void *a, const void *b)
{
	const struct tev *x = &gsort_ev[*(const int *)a], *y = &gsort_ev[*(const int *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return *(const int *)a - *(const int *)b;
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
cJSON *attrib_schedule_candidates(const struct att *A, const struct tev *t, int cause)
{
	static const char *const secs[] = { "host_device", "device_device", "data_path" };
	cJSON *out = cJSON_CreateArray(), *sync_only = cJSON_CreateArray();
	const struct frame *f;
	size_t s;

	if (t->frame < 0 || cause == C_HOST || cause == C_NONE) {
		cJSON_Delete(sync_only);
		return out;
	}
	f = &A->frames[t->frame];
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
				    (strstr(call, "synchronize") != NULL) == (strstr(t->name, "Synchronize") != NULL ||
				                                               strstr(t->name, "synchronize") != NULL))
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

/* The host event that explains [a, b]: the cause event that kept the
 * host from queueing work for the longest part of the gap.  A sync or a
 * copy counts only when the host was already inside it when the device
 * went idle (at a): one that starts during the gap found the device idle
 * and did not make it so.  A data or collective wait counts wherever it
 * lies.  Between nested causes of the same length the outer one names it
 * (aten::item rather than the cudaStreamSynchronize inside it).  Without
 * a cause: the top-level op the host was running at the gap's middle
 * (cause "host"), else nothing. */
/* Whether cause event T explains [a, b] better than the best so far. */
static void consider(const struct att *A, int c, double a, double b, double *best, double *bestdur, int *ev)
{
	const struct tev *t = &A->ev[c];
	double ov = fmin(b, t->ts + t->dur) - fmax(a, t->ts);
	int k = cause_of(t);

	if (t->ts + t->dur < a - 1e-3 || t->ts >= b)
		return;  /* not during the gap */
	if ((k == C_SYNC || k == C_COPY) && !(t->ts <= a + 1e-3))
		return;  /* began on an idle device */
	if (ov < 0)
		ov = 0;
	if (*ev < 0 || ov > *best + 1e-3 || (fabs(ov - *best) <= 1e-3 && t->dur > *bestdur)) {
		*best = ov;
		*bestdur = t->dur;
		*ev = c;
	}
}

/* Cause events longer than this are few (a DataLoader wait, a long
 * collective); they are looked at for every gap, the short ones by a
 * binary search on their start. */
#define LONG_CAUSE_US 10000.0

static void explain(const struct att *A, const int *causes, size_t nc, double maxdur, const int *longc, size_t nl,
                    const int *tops, size_t nt, double a, double b, int *cause, int *ev)
{
	size_t lo = 0, hi = nc, i;
	double best = 0, bestdur = 0, mid = (a + b) / 2;

	*cause = C_NONE;
	*ev = -1;
	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (A->ev[causes[m]].ts < a - maxdur - 1)
			lo = m + 1;
		else
			hi = m;
	}
	for (i = lo; i < nc && A->ev[causes[i]].ts < b; i++)
		consider(A, causes[i], a, b, &best, &bestdur, ev);
	for (i = 0; i < nl; i++)
		consider(A, longc[i], a, b, &best, &bestdur, ev);
	if (*ev >= 0) {
		*cause = cause_of(&A->ev[*ev]);
		return;
	}
	lo = 0;
	hi = nt;
	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (A->ev[tops[m]].ts <= mid)
			lo = m + 1;
		else
			hi = m;
	}
	/* top-level ops of one thread do not overlap: look a little back */
	for (i = lo; i > 0 && lo - i < 64; i--) {
		const struct tev *t = &A->ev[tops[i - 1]];

		if (t->ts + t->dur >= mid) {
			*ev = tops[i - 1];
			*cause = C_HOST;
			return;
		}
	}
}

struct ggroup *attrib_gaps(struct att *A, size_t *ngroups, double *gap_total, long *gap_n)
{
	int *dev, *causes, *tops, *longc;
	size_t nd = 0, nc = 0, nl = 0, nt = 0, i, ng = 0, ag = 0;
	struct ggroup *g = NULL;
	double maxdur = 0;

	*gap_total = 0;
	*gap_n = 0;
	/* four lists as long as they need to be (an event is in one at most) */
	for (i = 0; i < A->nev; i++) {
		const struct tev *t = &A->ev[i];

		if (is_device((int)t->kind))
			nd++;
		else if (cause_of(t) >= 0 && t->dur > LONG_CAUSE_US)
			nl++;
		else if (cause_of(t) >= 0)
			nc++;
		else if (t->kind == K_OP && t->top == (int)i)
			nt++;
	}
	dev = xmalloc((nd + 1) * sizeof *dev);
	causes = xmalloc((nc + 1) * sizeof *causes);
	tops = xmalloc((nt + 1) * sizeof *tops);
	longc = xmalloc((nl + 1) * sizeof *longc);
	nd = nc = nl = nt = 0;
	for (i = 0; i < A->nev; i++) {
		const struct tev *t = &A->ev[i];

		if (is_device((int)t->kind))
			dev[nd++] = (int)i;
		else if (cause_of(t) >= 0 && t->dur > LONG_CAUSE_US)
			longc[nl++] = (int)i;
		else if (cause_of(t) >= 0) {
			causes[nc++] = (int)i;
			if (t->dur > maxdur)
				maxdur = t->dur;
		} else if (t->kind == K_OP && t->top == (int)i)
			tops[nt++] = (int)i;
	}
	gsort_ev = A->ev;
	sort_thr = A->thr;
	qsort(dev, nd, sizeof *dev, dev_cmp);
	qsort(causes, nc, sizeof *causes, ts_cmp);
	qsort(tops, nt, sizeof *tops, ts_cmp);
	for (i = 1; i < nd; i++) {
		const struct tev *p = &A->ev[dev[i - 1]], *t = &A->ev[dev[i]];
		double a = p->ts + p->dur, b = t->ts;
		int cause, ev;
		const char *what, *where;
		size_t k;

		if (p->thr != t->thr || b - a < A->min_gap)
			continue;
		if (a < A->t0 || b > A->t1)
			continue;
		explain(A, causes, nc, maxdur, longc, nl, tops, nt, a, b, &cause, &ev);
		what = ev >= 0 ? A->ev[ev].name : "nothing on the host";
		where = ev >= 0 && A->ev[ev].frame >= 0 ? where_key(A, &A->ev[ev])->key : "";
		for (k = 0; k < ng; k++)
			if (g[k].pid == A->thr[t->thr].pid && g[k].stream == A->thr[t->thr].tid && g[k].cause == cause &&
			    g[k].what == what &&
			    g[k].where == where)
				break;
		if (k == ng) {
			GROW(g, ag, ng + 1);
			memset(&g[ng], 0, sizeof *g);
			g[ng].pid = A->thr[t->thr].pid;
			g[ng].stream = A->thr[t->thr].tid;
			g[ng].cause = cause;
			g[ng].what = what;
			g[ng].where = where;
			g[ng].ev = ev;
			ng++;
		}
		g[k].n++;
		g[k].total += b - a;
		if (b - a > g[k].maxdur)
			g[k].maxdur = b - a;
		*gap_total += b - a;
		(*gap_n)++;
	}
	if (ng > 1)
		qsort(g, ng, sizeof *g, ggroup_cmp);
	free(dev);
	free(causes);
	free(longc);
	free(tops);
	*ngroups = ng;
	return g;
}

static void window(struct att *A)
{
	size_t i;
	int any = 0;

	A->t0 = 1e300;
	A->t1 = -1e300;
	for (i = 0; i < A->nev; i++) {
		const struct tev *t = &A->ev[i];

		if (A->steps ? t->kind != K_STEP : !is_host((int)t->kind) && !is_device((int)t->kind))
			continue;
		A->t0 = fmin(A->t0, t->ts);
		A->t1 = fmax(A->t1, t->ts + t->dur);
		any = 1;
	}
	if (!any)
		A->t0 = A->t1 = 0;
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
	free(A->ev);
	free(A->thr);
	imap_free(&A->thrmap);
	strtab_free(&A->names);
	cJSON_Delete(A->graph);
	cJSON_Delete(A->sched);
	cJSON_Delete(A->warnings);
}

int attrib_join(struct att *A)
{
	struct imap seqmap = { 0 }, corr = { 0 }, ext = { 0 };
	int rc = -1;

	load_entries(A);
	if (read_trace(A) < 0)
		goto out;
	window(A);
	walk(A, &seqmap);
	finish(A, &seqmap, &corr, &ext);
	rc = 0;
out:
	imap_free(&seqmap);
	imap_free(&corr);
	imap_free(&ext);
	return rc;
}
