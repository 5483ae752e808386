/* schedule.c - see include/ecg/schedule.h
 *
 * Frequencies are read off the chain of loops and guards around an event
 * (struct jctx): the step loop is the loop around the model call that runs
 * with gradients (or the first model call); a loop inside it that also
 * holds the call, with the optimizer step outside it, is the micro-step
 * loop (gradient accumulation); a guard `it % N == 0` makes an event
 * periodic.  A job that does not train steps through the outermost loop
 * around its model call (the samples loop around a generate()), a server
 * through its request handler.  A decode loop -- the loop around a model
 * call in which job code chooses a token from the scores (multinomial,
 * argmax) -- counts tokens: what runs in it runs every token.  Nothing is
 * guessed: what the code does not say stays null.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecg/catalog.h"
#include "ecg/schedule.h"
#include "ecg/strmap.h"
#include "ecg/util.h"

struct sc {
	struct interp *in;
	const struct sched_ev *ev;
	size_t nev;
	const struct jctx *step_loop;    /* the loop around the training forward */
	const struct jctx *micro_loop;   /* the accumulation loop inside it, or NULL */
	const struct jctx *accum;        /* the step loop's pass is a micro-step of a
	                                    library's accumulation block (JC_ACCUM):
	                                    the step is the pass that ends one
	                                    (JC_STEP_END) */
	const struct sched_ev *step_call;
	const char *job_type;
	const char **opt_anchors;        /* where optimizer steps are, sorted, distinct */
	size_t nopt;
	const char **bwd_anchors;        /* where backward calls are (job code), sorted */
	size_t nbwd;
	const struct jctx **decode;      /* the decode loops (per token), distinct */
	size_t ndecode;
	const struct sched_call **gen;   /* per decode loop: its generate call, or NULL
	                                    (sc_find_generate) */
	size_t *gen_first;               /* per decode loop: the index of its first event */
	size_t step_end;                 /* index past the last event in the step loop (0: none) */
	size_t step_begin;               /* index of the first event in the step loop (nev: none) */
	long long inner;                 /* sc_frequency: the loops inside a model's forward
	                                    around the line (1: none; -1: not known) */
	const char *inner_why;           /* ... why inner is not known, when an event says
	                                    (sched_ev.fwd_mult_why); NULL: a loop there */
	long long calls;                 /* sc_frequency: the line runs this many times per
	                                    pass of its loops (one helper called from N places);
	                                    -1: it is reached on other paths too, whose counts
	                                    add to this one's */
	char **pool;                     /* sc_condition's joined texts, owned */
	size_t npool, apool;
	struct ptrmap wruns;             /* function runs inside a generate call (below
	                                    it) that moved or loaded a model's weights
	                                    (sched_ev.weights): a lazy loader's */
	struct ptrmap runs;              /* function runs (sched_ev.calls' nodes): a has
	                                    RUN_EVAL when the model is called under
	                                    no_grad in them (not the step's call)
	                                    inside a loop,
	                                    RUN_MODEL when a model is called in them at
	                                    all, RUN_STEP_CALL when the step's model
	                                    call is made in them, RUN_EVAL_MODE
	                                    when they switch a model to eval mode
	                                    (model.eval()) and call it under
	                                    no_grad; b = 1 when they train
	                                    (backward, optimizer step) */
	const struct jctx *cond_ctx;     /* sc_condition's last context ... */
	const char *cond_text;           /* ... and its answer (asked again and again) */
};

enum { RUN_EVAL = 1, RUN_MODEL = 2, RUN_STEP_CALL = 4, RUN_EVAL_MODE = 8 };

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The anchors of the optimizer steps, once (sc_phase asks for each event). */
static void sc_index_opt(struct sc *s)
{
	size_t i, n = 0;

	s->opt_anchors = xcalloc(s->nev + 1, sizeof *s->opt_anchors);
	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_OPT_STEP && s->ev[i].anchor)
			s->opt_anchors[n++] = s->ev[i].anchor;
	qsort(s->opt_anchors, n, sizeof *s->opt_anchors, str_cmp);
	s->nopt = n;
	s->bwd_anchors = xcalloc(s->nev + 1, sizeof *s->bwd_anchors);
	for (i = n = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_BACKWARD && s->ev[i].anchor && !s->ev[i].in_forward)
			s->bwd_anchors[n++] = s->ev[i].anchor;
	qsort(s->bwd_anchors, n, sizeof *s->bwd_anchors, str_cmp);
	s->nbwd = n;
}

static int ctx_has(const struct jctx *c, const struct jctx *node)
{
	for (; c; c = c->up)
		if (c == node || (node && c->anchor && node->anchor && c->kind == node->kind &&
		                  !strcmp(c->anchor, node->anchor)))
			return 1;
	return 0;
}

static const struct jctx *ctx_innermost_loop(const struct jctx *c)
{
	return jc_find(c, JC_LOOP);
}

static int ctx_same(const struct jctx *a, const struct jctx *b)
{
	return a == b || (a && b && a->kind == b->kind && a->anchor && b->anchor && !strcmp(a->anchor, b->anchor));
}

/* The outermost loop around c that repeats: not a loop known to run once
 * (`for path in args.files` with one file given), which steps nothing. */
static const struct jctx *ctx_outermost_repeating_loop(const struct jctx *c)
{
	const struct jctx *o = NULL;

	for (; c; c = c->up)
		if (c->kind == JC_LOOP && c->trips != 1)
			o = c;
	return o;
}

/* How many loops that repeat (not known to run once) are around c */
static int ctx_repeating_depth(const struct jctx *c)
{
	int n = 0;

	for (; c; c = c->up)
		n += c->kind == JC_LOOP && c->trips != 1;
	return n;
}

/* A job that runs its work once and then in a loop (out = fn() as a
 * warm-up, then `for _ in range(n): fn()`): first, the step candidate, is
 * a model call of the one-off run -- a CUDA graph's capture running the
 * model in a warm-up loop of two.  The first later model call in more
 * repeating loops whose run passes through a call site first's run passes
 * through outside every repeating loop (the same function, called once
 * there and repeatedly here) is the step's; first otherwise. */
static const struct sched_ev *sc_same_work_deeper(const struct sc *s, const struct sched_ev *first)
{
	int d0 = ctx_repeating_depth(first->ctx);
	size_t i;

	for (i = (size_t)(first - s->ev) + 1; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		const struct sched_call *c, *k;

		if (e->kind != SEV_MODEL_CALL || ctx_repeating_depth(e->ctx) <= d0)
			continue;
		for (c = first->calls; c; c = c->up) {
			if (!c->site || (c->at && ctx_outermost_repeating_loop(c->at)))
				continue;
			for (k = e->calls; k; k = k->up)
				if (k->site == c->site && k->at && ctx_outermost_repeating_loop(k->at))
					return e;
		}
	}
	return first;
}

/* A warm-up before the measured loop:
 *
 *     for _ in range(3): run(model, x)          # warm-up
 *     torch.cuda.synchronize(); t0 = time.time()
 *     for _ in range(100): out = run(model, x)  # the step
 *
 * first's outermost repeating loop w, and a later model call's m: two
 * loops side by side (the same context around them), the same model call
 * (its line) in both, and w known to run fewer times than m or named a
 * warm-up (`range(args.warmup)`).  The later call then; else first. */
static int names_warmup(const char *t)
{
	return t && (strstr(t, "warm") || strstr(t, "Warm") || strstr(t, "WARM"));
}

/* The function's own name in an anchor ("models/common.py:Net.warmup:786"
 * -> "warmup"), its length in *n; NULL when the anchor has no symbol. */
static const char *anchor_func_name(const char *anchor, size_t *n)
{
	const char *a = anchor ? strchr(anchor, ':') : NULL, *z = anchor ? strrchr(anchor, ':') : NULL, *q;

	if (!a || a == z)
		return NULL;
	for (q = z; q > a && q[-1] != '.' && q[-1] != ':'; q--)
		;
	*n = (size_t)(z - q);
	return q;
}

/* Whether the function of an anchor is named for a warm-up. */
static int anchor_names_warmup(const char *anchor)
{
	size_t n, i;
	const char *p = anchor_func_name(anchor, &n);

	for (i = 0; p && i + 4 <= n; i++)
		if (!strncasecmp(p + i, "warm", 4))
			return 1;
	return 0;
}

static const struct sched_ev *sc_after_warmup(const struct sc *s, const struct sched_ev *first)
{
	const struct jctx *w = ctx_outermost_repeating_loop(first->ctx), *m;
	size_t i;

	if (!w || !first->anchor)
		return first;
	/* the model called in a loop of a function named for a warm-up
	 * (`def warmup(self): for _ in range(n): self.forward(im)`), and
	 * later in a loop of the job's outside any such function: that
	 * later call (a batch scorer's loop over its images) */
	if (anchor_names_warmup(first->anchor) || names_warmup(w->text))
		for (i = (size_t)(first - s->ev) + 1; i < s->nev; i++) {
			const struct sched_ev *e = &s->ev[i];

			if (e->kind == SEV_MODEL_CALL && e->anchor && !anchor_names_warmup(e->anchor) &&
			    (m = ctx_outermost_repeating_loop(e->ctx)) && !ctx_same(m, w) && !names_warmup(m->text) &&
			    !ctx_has(e->ctx, w))
				return e;
		}
	for (i = (size_t)(first - s->ev) + 1; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind != SEV_MODEL_CALL || !e->anchor || strcmp(e->anchor, first->anchor) ||
		    !(m = ctx_outermost_repeating_loop(e->ctx)) || ctx_same(m, w) ||
		    !(w->up == m->up || (w->up && m->up && ctx_same(w->up, m->up))))
			continue;
		if ((w->trips > 0 && m->trips > w->trips) || (names_warmup(w->text) && !names_warmup(m->text)))
			return e;
	}
	return first;
}

/* Does some event of the given kind run inside loop l? */
static int sc_loop_has(const struct sc *s, const struct jctx *l, enum sev_kind kind)
{
	size_t i;

	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == kind && ctx_has(s->ev[i].ctx, l))
			return 1;
	return 0;
}

/* Does some model call of the job run inside loop l? */
static int sc_loop_calls_model(const struct sc *s, const struct jctx *l)
{
	return sc_loop_has(s, l, SEV_MODEL_CALL);
}

/* Is l the loop that takes batches from a loader (for x, y in loader)? */
static int sc_loader_loop(const struct sc *s, const struct jctx *l)
{
	size_t i;

	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_LOADER_ITER && ctx_same(ctx_innermost_loop(s->ev[i].ctx), l))
			return 1;
	return 0;
}

/* Is l a loop, right inside loop `step`, over the item that loop took
 * (`for key, value in batch.items()`, `for i in range(len(batch))` in
 * `for step, batch in enumerate(it)`): a name the step loop binds is a
 * name its iterable reads.  Read from the loops' texts ("for T in E"). */
static int sc_loop_over_item(const struct jctx *l, const struct jctx *step)
{
	const char *e, *t, *tend, *w;
	size_t n;
	int counter;

	if (!l || !step || !ctx_same(ctx_innermost_loop(l->up), step) || strncmp(l->text, "for ", 4) ||
	    strncmp(step->text, "for ", 4) || !(e = strstr(l->text, " in ")) || !(tend = strstr(step->text, " in ")))
		return 0;
	e += 4;
	/* under enumerate() the first name is the counter, not the item */
	counter = !strncmp(tend + 4, "enumerate(", 10);
	/* each name the step loop binds, as a whole word of the iterable */
	for (t = step->text + 4; t < tend; t += n ? n : 1) {
		for (n = 0; t + n < tend && (isalnum((unsigned char)t[n]) || t[n] == '_'); n++)
			;
		if (!n || (t > step->text + 4 && (isalnum((unsigned char)t[-1]) || t[-1] == '_')))
			continue;
		if (counter) {
			counter = 0;
			continue;
		}
		for (w = e; *w; w++)
			if (!strncmp(w, t, n) && (w == e || !(isalnum((unsigned char)w[-1]) || w[-1] == '_' || w[-1] == '.')) &&
			    !(isalnum((unsigned char)w[n]) || w[n] == '_'))
				return 1;
	}
	return 0;
}

/* Does the model train in loop l (a backward or an optimizer step in it)?
 * A training loop that also takes an argmax (an accuracy) decodes
 * nothing. */
static int sc_loop_trains(const struct sc *s, const struct jctx *l)
{
	size_t i;

	for (i = 0; i < s->nev; i++)
		if ((s->ev[i].kind == SEV_BACKWARD || s->ev[i].kind == SEV_OPT_STEP) && ctx_has(s->ev[i].ctx, l))
			return 1;
	return 0;
}

/* Does loop l step an optimizer (an update of the parameters)? */
static int sc_loop_updates(const struct sc *s, const struct jctx *l)
{
	return sc_loop_has(s, l, SEV_OPT_STEP);
}

/* The decode loops: for each token chosen in job code, the innermost loop
 * around it that also calls the model.  Not a loop over a loader's batches
 * (a classifier's argmax per batch); an argmax (greedy decoding, or a
 * prediction) only in a loop that counts (`for i in range(n)`, `while`),
 * not one over a sequence of inputs, and that feeds something back into
 * its next pass (interp/loopfeed.c: not a benchmark's timed loop running
 * the same call on the same input). */
static void sc_find_decode(struct sc *s)
{
	size_t i, k;

	s->decode = xcalloc(s->nev + 1, sizeof *s->decode);
	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *t = &s->ev[i];
		const struct jctx *l;
		int dup = 0;

		if (t->kind != SEV_TOKEN_CHOICE)
			continue;
		for (l = ctx_innermost_loop(t->ctx); l; l = ctx_innermost_loop(l->up))
			if (sc_loop_calls_model(s, l))
				break;
		if (!l || sc_loader_loop(s, l) || sc_loop_trains(s, l))
			continue;
		if (!strstr(t->call, "multinomial") &&
		    (!(l->text && (!strncmp(l->text, "while", 5) || strstr(l->text, " in range("))) || !l->feeds))
			continue;
		for (k = 0; k < s->ndecode; k++)
			if (ctx_same(s->decode[k], l))
				dup = 1;
		if (!dup)
			s->decode[s->ndecode++] = l;
	}
	/* a loop around a decode loop is not one itself: the samples loop
	 * whose generate() chooses the prefill's token outside its decode
	 * loop (gpt-fast) */
	for (i = 0; i < s->ndecode;) {
		int outer = 0;

		for (k = 0; k < s->ndecode && !outer; k++)
			if (k != i && !ctx_same(s->decode[k], s->decode[i]) && ctx_has(s->decode[k], s->decode[i]))
				outer = 1;
		if (outer)
			s->decode[i] = s->decode[--s->ndecode];
		else
			i++;
	}
}

/* The generate calls: for each decode loop, the call of job code whose
 * work outside the loop runs once per generate, not per token -- the call
 * that runs the loop, or the call that made it when that one was itself
 * made inside the step loop (a task's run() that calls its main loop and
 * then reads the candidates back).  NULL when the loop runs at module
 * level.  Needs the step loop (after sc_find_loops). */
static void sc_find_generate(struct sc *s)
{
	size_t i, k;

	s->gen = xcalloc(s->ndecode + 1, sizeof *s->gen);
	s->gen_first = xcalloc(s->ndecode + 1, sizeof *s->gen_first);
	for (k = 0; k < s->ndecode; k++) {
		const struct sched_call *c = NULL;

		s->gen_first[k] = s->nev;
		for (i = 0; i < s->nev; i++)
			if (ctx_has(s->ev[i].ctx, s->decode[k]) && s->gen_first[k] == s->nev)
				s->gen_first[k] = i;
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_TOKEN_CHOICE && ctx_has(s->ev[i].ctx, s->decode[k])) {
				c = s->ev[i].in_call;
				break;
			}
		/* up to the call made outside the loop: the one that runs it */
		while (c && ctx_has(c->at, s->decode[k]))
			c = c->up;
		if (c && c->up && s->step_loop && ctx_has(c->up->at, s->step_loop))
			c = c->up;
		s->gen[k] = c;
	}
}

/* The runs below a generate call that move or load a model's weights (a
 * loader the generate function calls on its first use): s->wruns. */
static void sc_index_weights(struct sc *s)
{
	size_t i, k;

	for (i = 0; i < s->nev; i++) {
		const struct sched_call *c;
		int below = 0;

		if (!s->ev[i].weights)
			continue;
		for (c = s->ev[i].calls; c; c = c->up)
			for (k = 0; s->gen && k < s->ndecode; k++)
				if (c == s->gen[k])
					below = 1;
		if (!below)
			continue;
		for (c = s->ev[i].calls; c; c = c->up) {
			for (k = 0; k < s->ndecode; k++)
				if (c == s->gen[k])
					break;
			if (k < s->ndecode)
				break;
			(void)ptrmap_put(&s->wruns, c, NULL);
		}
	}
}

/* Is e the model's start-up though a generate call makes it: a move or
 * load of weights, or work of a run that made one (the loader's wait
 * after the move)? */
static int sc_weights_work(const struct sc *s, const struct sched_ev *e)
{
	const struct sched_call *c;

	if (e->weights)
		return 1;
	for (c = e->calls; s->wruns.n && c; c = c->up)
		if (ptrmap_get(&s->wruns, c))
			return 1;
	return 0;
}

/* Is e work of a generate call (in it, or in what it calls), outside the
 * decode loop?  0 no, 1 before the loop (the prompt's preparation: the
 * prefill), 2 after it (the candidates read back). */
static int sc_in_generate(const struct sc *s, const struct sched_ev *e)
{
	const struct sched_call *c;
	size_t k;

	for (k = 0; s->gen && k < s->ndecode; k++)
		for (c = e->in_call; s->gen[k] && c; c = c->up)
			if (c == s->gen[k])
				return (size_t)(e - s->ev) < s->gen_first[k] ? 1 : 2;
	return 0;
}

/* The innermost decode loop in c, or NULL. */
static const struct jctx *sc_decode_of(const struct sc *s, const struct jctx *c)
{
	size_t k;

	for (c = ctx_innermost_loop(c); c; c = ctx_innermost_loop(c->up))
		for (k = 0; k < s->ndecode; k++)
			if (ctx_same(s->decode[k], c))
				return c;
	return NULL;
}

/* Is l the epoch loop: in a training job, the loop right around a step
 * loop that takes its batches from a loader (one iteration, one pass over
 * the data), or whose variable says so (`for epoch in ...`, the step loop
 * reading the loader through a generator such as DETR's log_every)? */
static int sc_epoch_loop(const struct sc *s, const struct jctx *l)
{
	if (!l || !s->step_loop || !s->job_type || strcmp(s->job_type, "training") ||
	    !ctx_same(ctx_innermost_loop(s->step_loop->up), l))
		return 0;
	if (l->text && !strncmp(l->text, "for ", 4) && strstr(l->text, " in ") &&
	    strstr(l->text, "epoch") && strstr(l->text, "epoch") < strstr(l->text, " in "))
		return 1;
	return sc_loader_loop(s, s->step_loop) || (s->micro_loop && sc_loader_loop(s, s->micro_loop));
}

/* Is the no_grad block around c an evaluation -- does the model run in it
 * (not a norm computed under no_grad by the optimizer's helper)? */
static int sc_eval_loop(const struct sc *s, const struct jctx *c);

static int sc_eval_block(const struct sc *s, const struct jctx *c)
{
	const struct jctx *ng = jc_find(c, JC_NO_GRAD), *l, *k;
	size_t i;

	if (!ng)
		return sc_eval_loop(s, c);
	/* a no_grad block inside a training job's step loop, under no
	 * periodic guard but those that train (DQN's `if step % freq == 0:`
	 * around its update): the step's own work -- a rollout's actions,
	 * a target network's values, a teacher's outputs -- no evaluation */
	if (s->step_loop && s->job_type && !strcmp(s->job_type, "training") && ctx_has(ng, s->step_loop)) {
		for (k = ng; k && !ctx_same(k, s->step_loop); k = k->up)
			if (k->kind == JC_GUARD && !sc_loop_trains(s, k))
				break;
		if (!k || ctx_same(k, s->step_loop))
			return 0;
	}
	/* (a model called in no loop of the job at all -- a start-up
	 * check's inference on one image -- is no evaluation: sc_index_runs) */
	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_MODEL_CALL && ctx_has(s->ev[i].ctx, ng) && ctx_innermost_loop(s->ev[i].ctx))
			return 1;
	/* a pass over a loader's batches under no_grad, apart from the step
	 * loop and training nothing, in a training job: its evaluation, even
	 * when the model it runs is one ecg does not see called (a library
	 * built it: DeiT's @torch.no_grad() evaluate() over timm's model) */
	if (!s->step_loop || !s->job_type || strcmp(s->job_type, "training"))
		return 0;
	for (l = ctx_innermost_loop(c); l && ctx_has(l, ng); l = ctx_innermost_loop(l->up)) {
		if (ctx_has(l, s->step_loop) || ctx_has(s->step_loop, l) || sc_loop_trains(s, l))
			continue;
		/* its batches taken in it, or in a generator it iterates (log_every) */
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_LOADER_ITER && ctx_has(s->ev[i].ctx, l))
				return 1;
	}
	return 0;
}

/* Is c in an evaluation loop: a loop apart from the step loop (neither
 * in it nor around it) that trains nothing and runs the model under
 * no_grad in each iteration -- the work of its body outside the no_grad
 * block (the batch's copy to the device) is the evaluation's too? */
static int sc_eval_loop(const struct sc *s, const struct jctx *c)
{
	const struct jctx *l;
	size_t i;

	if (!s->step_loop)
		return 0;
	for (l = ctx_innermost_loop(c); l; l = ctx_innermost_loop(l->up)) {
		if (ctx_has(l, s->step_loop) || ctx_has(s->step_loop, l))
			return 0;
		if (sc_loop_trains(s, l))
			return 0;
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_MODEL_CALL && ctx_has(s->ev[i].ctx, l) && jc_find(s->ev[i].ctx, JC_NO_GRAD))
				return 1;
	}
	return 0;
}

/* The loops between an event's context c and base (not included): how
 * many times the event runs each time base comes round, as text --
 * "" (no loop), " ×400" (range(eval_iters) with eval_iters 400), or
 * " ×? (`for i, (x, y) in enumerate(loader)`)" when a count is not known. */
static char *sc_times(const struct jctx *c, const struct jctx *base, long long calls, long long inner,
                      const char *inner_why)
{
	const struct jctx *unknown = NULL;
	long long n = calls > 1 ? calls : 1;
	int loops = calls > 1;

	if (calls < 0)
		return xstrdup(" \u00d7? (the line is reached on more than one path)");
	if (inner < 0)
		return xasprintf(" \u00d7? (%s)", inner_why ? inner_why : "a loop in the model's forward whose count is not known");
	if (inner > 1 && n <= (1LL << 40) / inner) {
		n *= inner;     /* a loop in the forward: runs each call of the model */
		loops++;
	}

	for (; c && !ctx_same(c, base); c = c->up) {
		if (c->kind == JC_REPEAT) {     /* items counted, or not */
			loops++;
			if (c->trips > 0 && n <= (1LL << 40) / c->trips)
				n *= c->trips;
			else if (!unknown)
				unknown = c;
			continue;
		}
		/* a generator's loop around its yield runs once per item the
		 * loops around it take: no count of its own */
		if (c->kind != JC_LOOP || c->gen_items)
			continue;
		loops++;
		if (c->trips > 0 && n <= (1LL << 40) / c->trips)
			n *= c->trips;
		else if (!unknown)
			unknown = c;
	}
	if (!loops)
		return xstrdup("");
	if (unknown)
		return xasprintf(" \u00d7? (`%s`)", unknown->text);
	return xasprintf(" \u00d7%lld", n);
}

/* In a forward, the mode a path of e runs in only (exec.c's jctx.mode_only:
 * 1 training, 2 eval), or 0. */
static int sc_fwd_mode(const struct sched_ev *e)
{
	const struct jctx *c;

	for (c = e->ctx; c; c = c->up)
		if (c->kind == JC_COND && c->mode_only)
			return c->mode_only;
	return 0;
}

/* Is c, within its innermost loop, under a guard or condition that step
 * is not (an evaluation every N steps calling a module's method: its own
 * call's context, not the step's)? */
static int sc_ctx_gated_apart(const struct jctx *c, const struct jctx *step)
{
	const struct jctx *loop = ctx_innermost_loop(c);

	for (; c && c != loop; c = c->up)
		if ((c->kind == JC_GUARD || c->kind == JC_COND) && !ctx_has(step, c))
			return 1;
	return 0;
}

/* The job's call of the model that runs forward event e: the call its
 * reading was made for (sched_ev.mode_call); the first call
 * of its own model when that is not the step's; for a path of
 * the forward that runs in eval mode only (`if self.training:`'s else)
 * the step's model's call made in eval mode (model.eval() before it: the
 * evaluation's), the first one; else the step's call (NULL: none). */
static const struct sched_ev *sc_fwd_call(const struct sc *s, const struct sched_ev *e)
{
	size_t i;

	/* read again for one job call of the model in another mode of a
	 * flag argument (validation's `model(x, is_train=False)`, fwdmode.c):
	 * that call */
	if (e->in_forward && e->mode_call)
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_MODEL_CALL && !s->ev[i].in_forward && s->ev[i].anchor &&
			    !strcmp(s->ev[i].anchor, e->mode_call))
				return &s->ev[i];
	/* the forward of another model than the step's, called in another
	 * loop (a text encoder a method of the job's model calls once,
	 * before the sampling loop): that model's first call from job code.
	 * One called in the step call's own loop (a loss module beside the
	 * model) is counted as the step's forward work */
	if (e->in_forward && s->step_call && e->fwd_root && s->step_call->model &&
	    e->fwd_root != s->step_call->model)
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_MODEL_CALL && !s->ev[i].in_forward && s->ev[i].model == e->fwd_root) {
				if (!ctx_same(ctx_innermost_loop(s->ev[i].ctx), ctx_innermost_loop(s->step_call->ctx)) ||
				    sc_ctx_gated_apart(s->ev[i].ctx, s->step_call->ctx))
					return &s->ev[i];
				break;
			}
	if (!e->in_forward || !s->step_call || sc_fwd_mode(e) != 2)
		return s->step_call;
	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_MODEL_CALL && !s->ev[i].in_forward && s->ev[i].train_mode == 0 &&
		    s->ev[i].model == s->step_call->model)
			return &s->ev[i];
	return s->step_call;
}

/* Is the step loop itself a decode loop (a generation job's step, one
 * token per iteration)? */
static int sc_step_decodes(const struct sc *s)
{
	const struct jctx *d = s->step_loop ? sc_decode_of(s, s->step_loop) : NULL;

	return d && ctx_same(d, s->step_loop);
}

/* The job context e is counted in: a forward's event in its model call's. */
static const struct jctx *sc_ctx_of(const struct sc *s, const struct sched_ev *e)
{
	const struct sched_ev *call = e->in_forward ? sc_fwd_call(s, e) : NULL;

	return call ? call->ctx : e->ctx;
}

static char *sc_frequency(const struct sc *s, const struct sched_ev *e);
static int sc_step_end(const struct sc *s, const struct jctx *c);

/* The frequency of e under the periodic guard g on the counter of loop l,
 * a loop below the step loop: the frequency of l's own line (l runs that
 * often), times l's count over g's period when l's count is known and
 * nothing else multiplies, else "×?" with the period and the loop named.
 * Allocated; never fails. */
static char *sc_inner_guard_frequency(const struct sc *s, const struct sched_ev *e, const struct jctx *g,
                                      const struct jctx *l)
{
	static const char mul[] = "\u00d7";
	struct sched_ev around = *e;
	const char *pe = g->period_expr ? g->period_expr : "?";
	char *outer, *cut, *r;

	around.ctx = l->up;
	around.in_forward = 0;
	outer = sc_frequency(s, &around);
	cut = strstr(outer, mul);
	if (cut && !strcmp(cut + sizeof mul - 1, "1")) {
		/* "once ×1" (a test pass run once after training): once */
		*cut = '\0';
		while (cut > outer && cut[-1] == ' ')
			*--cut = '\0';
		cut = NULL;
	}
	if (!cut && l->trips > 0 && g->period > 0) {
		r = xasprintf("%s \u00d7%lld (every %s=%lld of the %lld iterations of `%s`)", outer,
		              (l->trips + g->period - 1) / g->period, pe, g->period, l->trips, l->text);
	} else {
		if (cut) {
			*cut = '\0';
			while (cut > outer && cut[-1] == ' ')
				*--cut = '\0';
		}
		r = g->period > 0 ? xasprintf("%s \u00d7? (every %s=%lld iterations of `%s`)", outer, pe, g->period, l->text)
		                  : xasprintf("%s \u00d7? (every %s iterations of `%s`)", outer, pe, l->text);
	}
	free(outer);
	return r;
}

/* "every step", "every micro-step", "every eval_interval=250 steps", "once";
 * with the loops between that unit and the event: "every eval_interval=250
 * steps ×200".  A periodic guard outside the step loop counts the loop it
 * is in (an epoch loop), not steps. */
static char *sc_frequency(const struct sc *s, const struct sched_ev *e)
{
	const struct jctx *c = sc_ctx_of(s, e);
	const struct jctx *g = jc_find(c, JC_GUARD), *base = NULL, *l, *x;
	char *head, *times, *r;

	const struct jctx *dl = sc_decode_of(s, c), *h = jc_find(c, JC_HANDLER);

	/* the job's own accumulation guard (sc_modulo_accum) ends a step: what
	 * it guards runs every step, as under a library's step end */
	if (g && s->accum && s->accum->kind == JC_GUARD && g->anchor && !strcmp(g->anchor, s->accum->anchor))
		g = jc_find(g->up, JC_GUARD);

	if (e->in_forward && s->step_call && !s->step_call->ctx && !s->step_loop)
		return xstrdup("every call of the model");
	/* a block that turns its own flag off runs the first time round, and
	 * so does a forward's move of its module's own tensor stored back (a
	 * list of them: once per item) */
	if (e->in_forward && e->fwd_once)
		return s->inner > 1 ? xasprintf("once \u00d7%lld", s->inner)
		       : s->inner < 0 ? xasprintf("once \u00d7? (%s)", s->inner_why ? s->inner_why
		                                  : "a loop in the model's forward whose count is not known")
		       : xstrdup("once");
	if (jc_find(c, JC_ONCE))
		return xstrdup("once");
	/* the block of an `if ...: break` in a loop below the step loop (a
	 * decode loop's all-finished test): run as the loop is left, once
	 * each time that loop runs -- counted as the code around the loop */
	if (!e->in_forward && (x = jc_find(c, JC_LOOP_EXIT)) && (l = ctx_innermost_loop(x->up)) &&
	    ctx_same(ctx_innermost_loop(c), l) && s->step_loop && !ctx_same(l, s->step_loop) &&
	    ctx_has(l, s->step_loop)) {
		struct sched_ev around = *e;

		around.ctx = l->up;
		return sc_frequency(s, &around);
	}
	if (dl && (!g || ctx_has(g, dl)) &&
	    (!s->step_loop || ctx_has(dl, s->step_loop) || (sc_step_decodes(s) && !ctx_has(s->step_loop, dl)))) {
		/* in a decode loop at or below the step, or in another decode
		 * loop beside the step's (a second stage's decoding after the
		 * first's): every token (a guard counts the loop it is in,
		 * below the decode loop) */
		base = dl;
		head = xstrdup("every token");
		if (g) {
			const char *pe = g->period_expr ? g->period_expr : "?";

			free(head);
			base = g;
			l = ctx_innermost_loop(g->up);
			head = ctx_same(l, dl) ? (g->period > 0 ? xasprintf("every %s=%lld tokens", pe, g->period)
			                                         : xasprintf("every %s tokens", pe))
			                       : (g->period > 0 ? xasprintf("every %s=%lld iterations of `%s`", pe,
			                                                     g->period, l ? l->text : "?")
			                                         : xasprintf("every %s iterations of `%s`", pe,
			                                                     l ? l->text : "?"));
		}
	} else if (h && !s->step_loop && !g && s->job_type && !strcmp(s->job_type, "inference_serving")) {
		/* a server's request handler is its step: the loops in it
		 * multiply */
		base = h;
		head = xstrdup("every request");
	} else if (g) {
		const char *pe = g->period_expr ? g->period_expr : "?";

		base = g;
		l = ctx_innermost_loop(g->up);
		if (g->counter) {
			/* a counter the loop does not advance on every pass
			 * (jobctx.c guard_ctx): every N of its counts, how many
			 * passes of the loop that is not known */
			head = g->period > 0 ? xasprintf("every %s=%lld counts of `%s` (not every pass of `%s`: how many "
			                                 "passes a count takes is not known)",
			                                 pe, g->period, g->counter, l ? l->text : "?")
			                     : xasprintf("every %s counts of `%s` (not every pass of `%s`: how many passes a "
			                                 "count takes is not known)",
			                                 pe, g->counter, l ? l->text : "?");
		} else if (s->step_loop && l && !ctx_has(l, s->step_loop) && ctx_has(s->step_loop, l) && sc_epoch_loop(s, l)) {
			/* `if epoch % 10 == 0` in the epoch loop: every 10 epochs,
			 * not every 10 steps */
			head = g->period > 0 ? xasprintf("every %s=%lld epochs (iterations of `%s`)", pe, g->period, l->text)
			                     : xasprintf("every %s epochs (iterations of `%s`)", pe, l->text);
		} else if (s->step_loop && l && !ctx_has(l, s->step_loop) && ctx_has(s->step_loop, l)) {
			/* `if epoch % 10 == 0` in the loop around the step loop */
			head = g->period > 0 ? xasprintf("every %s=%lld iterations of `%s`", pe, g->period, l->text)
			                     : xasprintf("every %s iterations of `%s`", pe, l->text);
		} else if (g->counts_loop && s->step_loop && l && !ctx_same(l, s->step_loop) &&
		           !(s->micro_loop && ctx_same(l, s->micro_loop)) &&
		           (ctx_has(l, s->step_loop) || !ctx_has(s->step_loop, l))) {
			/* `if idx % 100 == 0` on the counter of a loop below the
			 * step loop (an evaluation's batch loop), or of a loop
			 * beside it (a test pass after training): every 100th pass
			 * of that loop, each time the loop runs -- as often as the
			 * loop, its count over the period (pass 0 runs), not every
			 * 100 steps */
			return sc_inner_guard_frequency(s, e, g, l);
		} else if (s->accum && s->step_loop && ctx_has(g, s->step_loop) && !sc_step_end(s, c)) {
			/* tested on each pass of an accumulation loop, not only
			 * on the pass that ends a step: it counts passes
			 * (micro-steps), as `iter_num % log_interval` does; a
			 * period that is a whole number of the accumulation's
			 * passes is that many steps (litgpt's log_iter_interval =
			 * log_interval * accumulation: once a step) */
			long long a = s->accum->period;

			if (g->period > 0 && a > 0 && g->period % a == 0)
				head = g->period == a
				       ? xasprintf("every step (every %s=%lld micro-steps, the accumulation's %lld)", pe,
				                   g->period, a)
				       : xasprintf("every %lld steps (every %s=%lld micro-steps, the accumulation's %lld)",
				                   g->period / a, pe, g->period, a);
			else
				head = g->period > 0 ? xasprintf("every %s=%lld micro-steps", pe, g->period)
				                     : xasprintf("every %s micro-steps", pe);
		} else if (s->accum && s->accum->kind == JC_GUARD && g->counts_passes && s->step_loop &&
		           ctx_same(l, s->step_loop)) {
			/* a test of the pass counter inside the job's own
			 * accumulation block (`if (i + 1) % accum == 0: ... if (i
			 * + 1) % eval_every == 0:`): on the passes that are
			 * multiples of both, every lcm(P, accum) passes -- that
			 * over accum steps */
			long long a = s->accum->period, p = g->period, gcd = a, y = p, q;

			while (y > 0) {
				long long t = gcd % y;

				gcd = y;
				y = t;
			}
			if (p > 0 && a > 0 && gcd > 0 && p / gcd <= (1LL << 40) / a) {
				q = p / gcd;    /* lcm(p, a) / a */
				head = q == 1 ? xasprintf("every step (every %s=%lld micro-steps, the accumulation's %lld)", pe,
				                          p, a)
				              : xasprintf("every %lld steps (every %s=%lld micro-steps on one that ends a step, "
				                          "the accumulation's %lld)", q, pe, p, a);
			} else {
				head = xasprintf("every %s micro-steps, on one that ends a step", pe);
			}
		} else {
			head = g->period > 0 ? xasprintf("every %s=%lld steps", pe, g->period)
			                     : xasprintf("every %s steps", pe);
		}
	} else if (e->in_hook && e->in_forward && s->step_loop && ctx_has(c, s->step_loop)) {
		/* a forward hook on many modules: how often it acts per call
		 * of the model is not known (a gather it dispatches once and
		 * then waits for), so neither is how often per micro-step */
		return xstrdup("every step \u00d7? (a forward hook on more than one module)");
	} else if (s->micro_loop && ctx_has(c, s->micro_loop)) {
		base = s->micro_loop;
		head = xstrdup("every micro-step");
	} else if (s->accum && s->step_loop && ctx_has(c, s->step_loop)) {
		/* a library's accumulation: each pass a micro-step, what runs
		 * on the pass that ends a step once a step */
		base = s->step_loop;
		head = xstrdup(sc_step_end(s, c) ? "every step" : "every micro-step");
	} else if (s->step_loop && ctx_has(c, s->step_loop)) {
		base = s->step_loop;
		head = xstrdup("every step");
	} else if (ctx_innermost_loop(c)) {
		/* the loop around the step loop (an epoch loop), when the event
		 * is in it: the loops below it multiply */
		for (l = ctx_innermost_loop(c); l; l = ctx_innermost_loop(l->up))
			if (s->step_loop && ctx_has(s->step_loop, l))
				break;
		if (l && sc_epoch_loop(s, l)) {
			base = l;
			head = xasprintf("every epoch (iteration of `%s`)", l->text);
		} else if (l) {
			/* a loop around the step loop that is no epoch (bench.py's
			 * `for stage, num_steps in enumerate([10, 20])`): the job
			 * runs it once, its iterations multiply */
			base = NULL;
			head = xstrdup("once");
		} else if (s->step_loop && !ctx_has(c, s->step_loop)) {
			/* loops before or after the step loop, around nothing of
			 * it: start-up or teardown work, done once (×N) */
			base = NULL;
			head = xstrdup("once");
		} else {
			return xasprintf("every iteration of `%s`", ctx_innermost_loop(c)->text);
		}
	} else if (s->job_type && !strcmp(s->job_type, "inference_serving") && e->in_forward) {
		return xstrdup("every request");
	} else {
		/* in no loop: once each time the job reaches the line (a helper
		 * called from two places of the start-up: ×2) */
		base = NULL;
		head = xstrdup("once");
	}
	times = sc_times(c, base, s->calls, s->inner, s->inner_why);
	r = xasprintf("%s%s", head, times);
	free(head);
	free(times);
	return r;
}

/* Does text need parentheses to stand as one conjunct of `a and text`:
 * an `or`, a conditional expression or a lambda outside any brackets
 * and strings? */
static int sc_top_level_op(const char *t, int and_too)
{
	int depth = 0;
	char q = 0;

	for (; *t; t++) {
		if (q) {
			if (*t == '\\' && t[1])
				t++;
			else if (*t == q)
				q = 0;
		} else if (*t == '\'' || *t == '"') {
			q = *t;
		} else if (*t == '(' || *t == '[' || *t == '{') {
			depth++;
		} else if (*t == ')' || *t == ']' || *t == '}') {
			depth--;
		} else if (!depth && (!strncmp(t, " or ", 4) || !strncmp(t, " if ", 4) || !strncmp(t, "lambda", 6) ||
		                      (and_too && !strncmp(t, " and ", 5)))) {
			return 1;
		}
	}
	return 0;
}

static int sc_needs_parens(const char *t)
{
	return sc_top_level_op(t, 0);
}

/* a string of the s pool, or NULL when out of memory */
static const char *sc_pool_keep(struct sc *s, char *r)
{
	if (!r)
		return NULL;
	if (s->npool == s->apool) {
		char **np = realloc(s->pool, (s->apool ? 2 * s->apool : 16) * sizeof *np);

		if (!np) {
			free(r);
			return NULL;
		}
		s->pool = np;
		s->apool = s->apool ? 2 * s->apool : 16;
	}
	s->pool[s->npool++] = r;
	return r;
}

/* t[0..n) joined with " and ", each parenthesized where it must be
 * (sc_needs_parens) when there are more than one, or more follow (more);
 * "" for none. */
static void sc_and_join(buf_t *b, const char *const *t, size_t n, int more)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int par = (n > 1 || more) && sc_needs_parens(t[i]);

		buf_addf(b, "%s%s%s%s", i ? " and " : "", par ? "(" : "", t[i], par ? ")" : "");
	}
}

/* The undecided conditions around context c, outermost first, each once,
 * into t (at most max): a periodic guard's text only when it is the
 * innermost (its period is the row's frequency), else what its test holds
 * besides the period (jctx.rest: `if cfg.env and is_eval_step:` around a
 * function with an `if` of its own keeps `cfg.env`).  Their number. */
static size_t sc_ctx_texts(const struct jctx *c, const char **t, size_t max)
{
	const char *in[16];
	size_t n = 0, m = 0, k;
	const struct jctx *first = NULL;

	for (; c; c = c->up) {
		const char *text;

		if (c->kind != JC_COND && (c->kind != JC_GUARD || (first && !c->rest)))
			continue;
		text = c->kind == JC_GUARD && first ? c->rest : c->text;
		if (!first)
			first = c;
		for (k = 0; k < n && text && strcmp(in[k], text); k++)
			;
		if (k < n || !text)
			continue;
		if (n == sizeof in / sizeof *in)
			break;
		in[n++] = text;
	}
	while (n && m < max)
		t[m++] = in[--n];     /* outermost first */
	return m;
}

/* The condition an event in context c runs under, as text, or NULL:
 * sc_ctx_texts joined by "and" (a row inside `if should_save:` in a
 * function called under `if not overlap:` runs only when both hold).
 * The text is c's own or kept in s's pool (freed with s). */
static const char *sc_condition_join(struct sc *s, const struct jctx *c)
{
	const char *texts[16];
	size_t n = sc_ctx_texts(c, texts, 16);
	char *r;
	buf_t b;

	if (n <= 1)
		return n ? texts[0] : NULL;
	buf_init(&b);
	sc_and_join(&b, texts, n, 0);
	r = (char *)sc_pool_keep(s, buf_detach(&b));
	return r ? r : texts[n - 1];          /* out of memory: the innermost, as before */
}

/* sc_condition_join(s, c), asked once for each context in a row (the
 * rows ask the same context's condition several times). */
static const char *sc_condition(struct sc *s, const struct jctx *c)
{
	if (!c)
		return NULL;
	if (c != s->cond_ctx) {
		s->cond_text = sc_condition_join(s, c);
		s->cond_ctx = c;
	}
	return s->cond_text;
}

/* The wrapper w's condition, else the condition of the event at. */
static const char *sc_condition_of(struct sc *s, const struct sched_ev *w, const struct sched_ev *at)
{
	const char *c = sc_condition(s, w->ctx);

	return c ? c : sc_condition(s, at->ctx);
}

/* A function named for reading a checkpoint back (load_checkpoint,
 * restart_from_checkpoint, resume_from_snapshot, restore_ckpt): what it
 * does is not the saving of one, whatever phase it is in. */
static int sc_restorer_name(const char *name)
{
	static const char *const words[] = { "load", "restore", "resume", "restart", NULL };
	size_t i;

	for (i = 0; words[i]; i++)
		if (strstr(name, words[i]))
			return 1;
	return 0;
}

/* A function named for saving results in a file format of their own
 * (save_one_json, save_one_txt, save_images, save_plot): its writes are
 * no checkpoint of the job's state. */
static int sc_results_name(const char *name)
{
	static const char *const words[] = { "json", "txt", "csv", "image", "img", "plot", NULL };
	size_t i;

	for (i = 0; words[i]; i++)
		if (strstr(name, words[i]))
			return 1;
	return 0;
}

/* Is the anchor in a function that saves a checkpoint by its name
 * (save_checkpoint, _save_snapshot, TrainLoop.save), or in a method of a
 * class named for checkpoints (Checkpointer._get_full_model_state_dict),
 * not one named for reading it back (sc_restorer_name) nor for writing
 * results (sc_results_name)? */
static int sc_in_saver(const char *anchor)
{
	char name[128];
	size_t n = 0;
	const char *q = anchor_func_name(anchor, &n), *end = q ? q + n : NULL;

	if (!q || !n || n >= sizeof name)
		return 0;
	memcpy(name, q, n);
	name[n] = 0;
	while (name[0] == '_')
		memmove(name, name + 1, strlen(name));
	if (sc_restorer_name(name) || sc_results_name(name))
		return 0;
	if (!strncmp(name, "save", 4) || strstr(name, "checkpoint") || strstr(name, "snapshot"))
		return 1;
	/* a method of a class named for checkpoints (Checkpointer,
	 * CheckpointManager): its helpers gather and copy what it saves */
	{
		const char *p = end, *start;

		while (p > anchor && p[-1] != ':')
			p--;
		start = p;
		if (q - start < 2)
			return 0;
		n = (size_t)(q - 1 - start);
		if (n >= sizeof name)
			return 0;
		for (size_t i = 0; i < n; i++)
			name[i] = (char)(start[i] >= 'A' && start[i] <= 'Z' ? start[i] + 32 : start[i]);
		name[n] = 0;
		return strstr(name, "checkpoint") || strstr(name, "snapshot");
	}
}

/* Is the anchor in a method named forward ("rf.py:RF.forward:15")?  An
 * event of a module's forward is in_forward already; this is the forward
 * of a job object called by name. */
static int sc_in_forward_method(const char *anchor)
{
	const char *end = anchor ? strrchr(anchor, ':') : NULL;
	static const char suffix[] = ".forward";
	size_t n = sizeof suffix - 1;

	return end && (size_t)(end - anchor) > n && !strncmp(end - n, suffix, n);
}

/* Is c in loops that are all outside the step loop: not in it, around
 * none of it, and taking no loader's batches (not an evaluation pass)?
 * In a training job a loop around the step loop known to run once
 * repeats nothing (a CLI's loop over the one config file it was given,
 * SlowFast's run_net): what it runs before or after the step loop is the
 * job's straight line.  (In a generation job such a loop is the one
 * request given -- a CLI's prompt loop: what it copies before the
 * sampling loop is that request's input, not start-up.) */
static int sc_outside_step(const struct sc *s, const struct jctx *c)
{
	const struct jctx *l;
	int training = s->job_type && !strcmp(s->job_type, "training");

	if (!s->step_loop || !ctx_innermost_loop(c) || ctx_has(c, s->step_loop))
		return 0;
	for (l = ctx_innermost_loop(c); l; l = ctx_innermost_loop(l->up))
		if (sc_loader_loop(s, l) || (ctx_has(s->step_loop, l) && !(training && l->trips == 1)))
			return 0;
	return 1;
}

/* Is context c in a loop, outside the step loop, with no loop around it
 * that holds the step loop (a loader's loop among them, unlike
 * sc_outside_step)? */
static int sc_apart_from_step(const struct sc *s, const struct jctx *c)
{
	const struct jctx *l;

	if (!s->step_loop || !ctx_innermost_loop(c) || ctx_has(c, s->step_loop))
		return 0;
	for (l = ctx_innermost_loop(c); l; l = ctx_innermost_loop(l->up))
		if (ctx_has(s->step_loop, l))
			return 0;
	return 1;
}

/* Is e checkpoint work: torch.save's copy of device state, wherever it is,
 * the host read of an object's state_dict() (an enabled GradScaler's scale:
 * jobctx.c, catalog object_host_reads), or what the job's checkpoint
 * routine does besides (sc_in_saver)? */
static int sc_checkpoint_work(const struct sched_ev *e)
{
	if (e->kind == SEV_SAVE || (e->kind == SEV_SYNC && e->call && !strncmp(e->call, "torch.save", 10)))
		return 1;
	if (e->kind == SEV_SYNC && e->call && strstr(e->call, ".state_dict() (reads device values"))
		return 1;
	return e->kind != SEV_MODEL_CALL && sc_in_saver(e->anchor);
}

/* Is there a periodic guard between context c and g (not g itself)? */
static int sc_guard_between(const struct jctx *c, const struct jctx *g)
{
	for (; c && !ctx_same(c, g); c = c->up)
		if (c->kind == JC_GUARD)
			return 1;
	return 0;
}

/* The phase of the work in a periodic block (`if step % N == 0:`) that is
 * neither evaluation nor checkpointing itself, by what else the block
 * does: "eval" when it calls a model under no_grad, else "checkpoint" when
 * it saves one (torch.save, a save_checkpoint routine), else "step" when
 * g is such a guard whose work communicates and neither reads to the host
 * nor logs (local SGD's parameter averaging every N steps: the training
 * step's own work, nothing reported), else "logging". */
static const char *sc_guard_phase_upto(const struct sc *s, const struct jctx *g, size_t upto)
{
	int saves = 0, colls = 0, reports = 0;
	size_t i;

	for (i = 0; i < upto && i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		/* the block's own work: not that of a periodic block inside
		 * it (`if (step + 1) % accum == 0:` around the optimizer step
		 * holds `if global_step % eval_every == 0: valid()`) */
		if (!ctx_has(e->ctx, g) || sc_guard_between(e->ctx, g))
			continue;
		if (e->kind == SEV_MODEL_CALL && jc_find(e->ctx, JC_NO_GRAD))
			return "eval";
		if (sc_checkpoint_work(e))
			saves = 1;
		if (e->kind == SEV_COLLECTIVE)
			colls = 1;
		if (e->kind == SEV_SYNC || e->kind == SEV_D2H || e->kind == SEV_LOG || e->in_log)
			reports = 1;
	}
	return saves ? "checkpoint" : g->kind == JC_GUARD && colls && !reports ? "step" : "logging";
}

static const char *sc_guard_phase(const struct sc *s, const struct jctx *g)
{
	return sc_guard_phase_upto(s, g, s->nev);
}

/* The index of the step loop's first event (s->step_begin), once the
 * loops are found. */
static void sc_index_step_begin(struct sc *s)
{
	size_t i;

	s->step_begin = s->nev;
	for (i = 0; s->step_loop && i < s->nev; i++)
		if (ctx_has(s->ev[i].ctx, s->step_loop) && !s->ev[i].in_forward) {
			s->step_begin = i;
			break;
		}
}

/* Is e the start-up of one run of a loop around the whole training (`for
 * run in range(25): main()`, a loop over seeds or trials): outside the
 * step loop, before the step loop's first event, inside a loop around the
 * step loop other than the one right around it (the epoch loop, whose
 * work before its steps is each epoch's), and in no loop of its own but
 * loops that take no batches and run no model (the whitening statistics'
 * loop over the data's splits)?  Its model built, moved and initialised
 * there (a whitening layer run over the data under no_grad) is each run's
 * start-up, not an evaluation. */
static int sc_run_startup(const struct sc *s, const struct sched_ev *e)
{
	const struct jctx *l, *around;
	int in_run = 0;

	if (!s->step_loop || (size_t)(e - s->ev) >= s->step_begin || ctx_has(e->ctx, s->step_loop))
		return 0;
	around = ctx_innermost_loop(s->step_loop->up);
	for (l = ctx_innermost_loop(e->ctx); l; l = ctx_innermost_loop(l->up)) {
		if (l->trips == 1)
			continue;
		if (ctx_has(s->step_loop, l)) {
			if (ctx_same(l, around))
				return 0;
			in_run = 1;
		} else if (in_run || sc_loader_loop(s, l) || sc_loop_calls_model(s, l)) {
			return 0;
		}
	}
	return in_run;
}

/* The innermost loop around c that repeats or is the step's own: a loop
 * known to run once around the step (`for ii in range(args.itr)` given
 * one run) is none, so a model's weights moved or a checkpoint read back
 * in it (e->weights) are start-up or teardown work, not the data hop
 * (a prompt's tensors copied in a CLI's once-run prompt loop stay the
 * data's: they are that pass's input) */
static const struct jctx *sc_innermost_repeating(const struct sc *s, const struct jctx *c)
{
	const struct jctx *l;

	for (l = ctx_innermost_loop(c); l; l = ctx_innermost_loop(l->up))
		if (l->trips != 1 || ctx_same(l, s->step_loop) || (s->micro_loop && ctx_same(l, s->micro_loop)))
			return l;
	return NULL;
}

/* Is the job a training one? */
static int sc_training(const struct sc *s)
{
	return s->job_type && !strcmp(s->job_type, "training");
}

/* Is e made outside the step loop in a run that passes through a call
 * site the step's model call passes through inside the step loop -- the
 * step's own work run once more before or after it (fn() as a warm-up,
 * then `for _ in range(n): fn()`)? */
static int sc_step_work_outside(const struct sc *s, const struct sched_ev *e)
{
	const struct sched_call *c, *k;

	if (!s->step_call || !s->step_loop || ctx_has(e->ctx, s->step_loop))
		return 0;
	for (c = e->calls; c; c = c->up)
		for (k = s->step_call->calls; c->site && k; k = k->up)
			if (k->site == c->site && k->at && ctx_has(k->at, s->step_loop))
				return 1;
	return 0;
}

/* The function runs that evaluate: in a training job, each run that calls
 * the model under no_grad, or in eval mode that the run (or one around
 * it) switched to itself, and trains nothing (no backward, no optimizer
 * step, not the step's model call) -- validate(), evaluate(): what it
 * does besides, after its no_grad block (the meters' all-reduce), is the
 * evaluation's too.  In a batch job, likewise a run that is not the
 * step's and calls a model under no_grad in a loop of its own, before or
 * after the step loop: a second pass over data that scores (dinov2's k-NN
 * classification over the val split after the step loop extracted the
 * train features).  A model call in a decode loop generates (a second
 * stage's decoding after the step's: coarse codes after semantic
 * tokens), it scores nothing.  Only training jobs read the runs as
 * forward or training work (sc_in_forward_run, sc_in_train_run). */
static void sc_index_runs(struct sc *s)
{
	size_t i;

	if (!s->job_type || (strcmp(s->job_type, "training") && strcmp(s->job_type, "batch")))
		return;
	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		const struct sched_call *c;
		int model = e->kind == SEV_MODEL_CALL && !e->in_forward, bits = 0;
		/* an evaluation goes over data: a model call under no_grad
		 * in no loop at all (a start-up check's inference on one
		 * image, before any loop of the job; a loop known to run
		 * once is none) evaluates nothing */
		int eval = model && jc_find(e->ctx, JC_NO_GRAD) && e != s->step_call &&
		           ctx_outermost_repeating_loop(e->ctx) && !sc_decode_of(s, e->ctx) && !sc_run_startup(s, e);
		int train = e->kind == SEV_BACKWARD || e->kind == SEV_OPT_STEP;

		/* (a batch job's own step work run once before its loop -- a
		 * warm-up generate() call, whose CUDA-graph capture runs the
		 * model in a loop of two -- scores nothing) */
		if (eval && !sc_training(s) && sc_step_work_outside(s, e))
			eval = 0;
		if (!model && !train)
			continue;
		/* or, in a training job, over data a model in eval mode that a
		 * run around the call switched there itself (validate():
		 * model.eval(), then the batches, with or without no_grad) --
		 * not a model set to eval once at start-up (a teacher), not a
		 * decode loop's (an inference job puts its model in eval mode
		 * to run it at all) */
		if (model && !eval && sc_training(s) && e->train_mode == 0 && e != s->step_call &&
		    ctx_outermost_repeating_loop(e->ctx) && !sc_decode_of(s, e->ctx))
			for (c = e->calls; c && !eval; c = c->up)
				eval = c->evals;
		if (e == s->step_call)
			bits |= RUN_STEP_CALL;
		for (c = e->calls; c; c = c->up) {
			struct ptrmap_slot *sl = ptrmap_put(&s->runs, c, NULL);

			if (eval)
				sl->a |= RUN_EVAL;
			/* the run that put the model in eval mode and ran it
			 * under no_grad (not a teacher set to eval at start-up) */
			if (model && e->train_mode == 0 && c->evals && jc_find(e->ctx, JC_NO_GRAD) && e != s->step_call)
				sl->a |= RUN_EVAL_MODE;
			if (model)
				sl->a |= RUN_MODEL | bits;
			if (train)
				sl->b = 1;
		}
	}
}

/* Is e made in a run that evaluates (sc_index_runs), outside the step? */
static int sc_in_eval_run(const struct sc *s, const struct sched_ev *e)
{
	const struct sched_call *c;

	if (!s->runs.n || !s->step_loop || ctx_has(e->ctx, s->step_loop))
		return 0;
	for (c = e->calls; c; c = c->up) {
		const struct ptrmap_slot *sl = ptrmap_get(&s->runs, c);

		if (sl && (sl->a & RUN_EVAL) && !sl->b && !(sl->a & RUN_STEP_CALL))
			return 1;
	}
	return 0;
}

/* Walk the runs around e inside the step, innermost first (sc_index_runs):
 * 1 at the first that has one of the bits want, 0 at one that trains or
 * has one of the bits stop first, or when none does.  0 outside the step
 * of a training job. */
static int sc_step_run(const struct sc *s, const struct sched_ev *e, int stop, int want)
{
	const struct sched_call *c;

	if (!sc_training(s) || !s->runs.n || !s->step_loop || !ctx_has(e->ctx, s->step_loop))
		return 0;
	for (c = e->calls; c && c->at && ctx_has(c->at, s->step_loop); c = c->up) {
		const struct ptrmap_slot *sl = ptrmap_get(&s->runs, c);

		if (sl && (sl->b || (sl->a & stop)))
			return 0;
		if (sl && (sl->a & want))
			return 1;
	}
	return 0;
}

/* Is e made, in the step, by a function run the step makes that puts
 * a model in eval mode itself and runs it under no_grad, training nothing
 * (sc_index_runs): an evaluation made every step (a full-batch job's
 * test(model, mask) of the train and the val nodes after each optimizer
 * step), not the step's forward -- a rollout or a target network under
 * no_grad leaves the model in training mode, and a teacher put in eval
 * mode before the loop (DINO's) is run by the step's own work. */
static int sc_in_step_eval_run(const struct sc *s, const struct sched_ev *e)
{
	return sc_step_run(s, e, RUN_STEP_CALL, RUN_EVAL_MODE);
}

/* Is e made, in the step, by a function run the step makes that calls a
 * model and trains nothing itself (sc_index_runs) -- a loss routine that
 * runs the model (diffusion.training_losses(model, x, t): the schedule's
 * arrays copied in around the model call), a teacher pass under no_grad
 * that updates its centre with an all_reduce -- or by a helper such a run
 * calls?  That work is the forward's.  The run that does the backward or
 * the optimizer step (forward_backward, train_step) is not one: what it
 * does besides its forward is no forward. */
static int sc_in_forward_run(const struct sc *s, const struct sched_ev *e)
{
	return sc_step_run(s, e, 0, RUN_MODEL);
}

/* Is e made by a function run that trains and evaluates nothing (the
 * innermost run around it: train_one_epoch's read of its average loss
 * after its loop is the training's)? */
static int sc_in_train_run(const struct sc *s, const struct sched_ev *e)
{
	const struct ptrmap_slot *sl = e->calls && sc_training(s) ? ptrmap_get(&s->runs, e->calls) : NULL;

	return sl && (sl->b || (sl->a & RUN_STEP_CALL)) && !(sl->a & RUN_EVAL);
}

/* Is the anchor in a method of a class named for logging (Loggers,
 * MetricLogger, WandbLogger: "Logger" in its name)? */
static int sc_logger_method(const char *anchor)
{
	const char *q = anchor ? strchr(anchor, ':') : NULL, *end = anchor ? strrchr(anchor, ':') : NULL, *p;

	if (!q || !end || end <= q)
		return 0;
	/* the class: the qualname's part before its last '.' */
	for (p = end; p > q && p[-1] != '.'; p--)
		;
	if (p <= q + 1)
		return 0;
	for (; q < p - 6; q++)
		if (!strncmp(q, "Logger", 6))
			return 1;
	return 0;
}

/* Is e made in a method of a logger class (sc_logger_method) or by a
 * function such a method calls (a hook of a Loggers object fired after
 * each step plotting the batch), or in a plotting function itself
 * (sc_plot_function: a Thread's target plot_images)? */
/* Is the anchor in a function that draws (plot_images, plotLosses,
 * visualize_batch: its name starts with one of these words)?  What it
 * reads back draws a picture of the run, as a logger's writes do. */
static int sc_plot_function(const char *anchor)
{
	static const char *const words[] = { "plot", "visualise", "visualize" };
	const char *q = anchor ? strchr(anchor, ':') : NULL, *end = anchor ? strrchr(anchor, ':') : NULL, *p;
	size_t i;

	if (!q || !end || end <= q)
		return 0;
	for (p = end; p > q + 1 && p[-1] != '.'; p--)
		;
	for (i = 0; i < sizeof words / sizeof *words; i++)
		if ((size_t)(end - p) >= strlen(words[i]) && !strncasecmp(p, words[i], strlen(words[i])))
			return 1;
	return 0;
}

static int sc_in_logger(const struct sched_ev *e)
{
	const struct sched_call *c;

	if (sc_logger_method(e->anchor) || sc_plot_function(e->anchor))
		return 1;
	for (c = e->calls; c; c = c->up)
		if (c->at && sc_logger_method(c->at->anchor))
			return 1;
	return 0;
}

/* The backward that trains: the first one in the step loop, else the
 * first one at all -- not a dummy backward at import that warms autograd
 * up before the loop (torch.empty(1, device='cuda',
 * requires_grad=True).backward()). */
static const struct sched_ev *sc_step_backward(const struct sc *s)
{
	const struct sched_ev *first = NULL;
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind != SEV_BACKWARD)
			continue;
		if (s->step_loop && ctx_has(e->ctx, s->step_loop))
			return e;
		if (!first)
			first = e;
	}
	return first;
}

/* Is e made while a call of an optimizer's own step method runs
 * (sched_call.opt_step)? */
static int sc_in_opt_step(const struct sched_ev *e)
{
	const struct sched_call *c;

	for (c = e->calls; c; c = c->up)
		if (c->opt_step)
			return 1;
	return 0;
}

/* The loop around the step loop whose own bookkeeping work at c is: the
 * innermost loop of c when it holds the step loop, or the one reached
 * from c through loops of their own that take no batches and call no
 * model (`for k, v in val_logs.items()`, a comprehension over them) --
 * not an evaluation's pass over its loader.  NULL when there is none. */
static const struct jctx *sc_bookkeeping_loop(const struct sc *s, const struct jctx *c)
{
	const struct jctx *l;
	size_t i;

	for (l = ctx_innermost_loop(c); l && !ctx_has(s->step_loop, l); l = ctx_innermost_loop(l->up)) {
		if (ctx_has(l, s->step_loop) || sc_loader_loop(s, l))
			return NULL;
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_MODEL_CALL && ctx_has(s->ev[i].ctx, l))
				return NULL;
	}
	return l;
}

static const char *sc_phase(const struct sc *s, const struct sched_ev *e);

/* Is run r the call c, or one c was made in? */
static int sc_call_under(const struct sched_call *c, const struct sched_call *r)
{
	for (; c; c = c->up)
		if (c == r)
			return 1;
	return 0;
}

/* Is e a host read in the step made by a function run that copies the
 * batch to the device and neither runs a model nor trains (sc_index_runs)
 * -- a batch-parsing helper (tacotron2's parse_batch: each field to_gpu,
 * then the longest input's length read to size the padding)?  That read
 * is the data hop's work, not the step's. */
static int sc_in_data_run(const struct sc *s, const struct sched_ev *e)
{
	const struct ptrmap_slot *sl;
	size_t k;

	if (e->kind != SEV_SYNC || !e->in_call || !sc_training(s) || !s->runs.n || !s->step_loop ||
	    !ctx_has(e->ctx, s->step_loop))
		return 0;
	if ((sl = ptrmap_get(&s->runs, e->in_call)) && (sl->a || sl->b))
		return 0;
	for (k = 0; k < (size_t)(e - s->ev); k++) {
		const struct sched_ev *x = &s->ev[k];

		if (x->kind == SEV_H2D && sc_call_under(x->in_call, e->in_call) && !strcmp(sc_phase(s, x), "data"))
			return 1;
	}
	return 0;
}

/* Did loop l run an evaluation before event `upto`: a model called under
 * no_grad in l, outside the step loop (not the step's own no_grad work, a
 * frozen encoder's forward)? */
static int sc_evaluated_before(const struct sc *s, const struct jctx *l, size_t upto)
{
	size_t i;

	for (i = 0; i < upto && i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind == SEV_MODEL_CALL && ctx_has(e->ctx, l) && !ctx_has(e->ctx, s->step_loop) &&
		    jc_find(e->ctx, JC_NO_GRAD))
			return 1;
	}
	return 0;
}

static const char *sc_phase(const struct sc *s, const struct sched_ev *e)
{
	const struct jctx *c = e->ctx, *gd, *bk;
	int g;

	if (e->phase)
		return e->phase;
	if (e->in_backward)
		return "backward";
	if (e->in_forward) {
		/* a path that runs only in eval mode: its call's phase */
		const struct sched_ev *call = sc_fwd_call(s, e);

		return call && call != s->step_call ? sc_phase(s, call) : "forward";
	}
	if (e->kind == SEV_BACKWARD)
		return "backward";
	if (e->kind == SEV_OPT_STEP || e->kind == SEV_ZERO_GRAD)
		return "optimizer";
	/* a wrapper's collective made by a backward call itself (a
	 * DeepSpeed engine's gradient reduction) */
	if (e->kind == SEV_COLLECTIVE && e->implied_by && e->anchor && s->nbwd &&
	    bsearch(&e->anchor, s->bwd_anchors, s->nbwd, sizeof *s->bwd_anchors, str_cmp))
		return "backward";
	/* a sync made by the optimizer step itself (GradScaler.step) */
	if (e->anchor && s->nopt && bsearch(&e->anchor, s->opt_anchors, s->nopt, sizeof *s->opt_anchors, str_cmp))
		return "optimizer";
	/* ... or inside the step method of the repository's own optimizer
	 * (a Muon's all_gather of the updates) */
	if (sc_in_opt_step(e))
		return "optimizer";
	if (sc_checkpoint_work(e))
		return "checkpoint";
	/* what a data generator does as the step loop's pass over it starts
	 * (its __iter__ before the loop around its yield: accelerate's
	 * DataLoaderShard synchronizing the sampler's RNG state) */
	if (e->gen_loop && s->step_loop && (e->kind == SEV_SYNC || e->kind == SEV_D2H || e->kind == SEV_H2D ||
	                                    e->kind == SEV_COLLECTIVE) &&
	    (ctx_same(e->gen_loop, s->step_loop) || (s->micro_loop && ctx_same(e->gen_loop, s->micro_loop))))
		return "data";
	/* the forward method of a job object that is no module (a loss or
	 * flow wrapper: rf.forward(x, c) calls the model), in the step --
	 * not one run by a periodic block that trains nothing (an
	 * autograd Function's forward in an evaluation every N steps: the
	 * block's phase, below) */
	if (e->kind != SEV_MODEL_CALL && e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER &&
	    sc_in_forward_method(e->anchor) && s->step_loop && ctx_has(c, s->step_loop) &&
	    !((gd = jc_find(c, JC_GUARD)) && !sc_loop_trains(s, gd)))
		return "forward";
	if (e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER && e->kind != SEV_LOG && sc_run_startup(s, e))
		return "startup";
	/* a periodic block that trains (DQN's update every train_frequency
	 * steps) is the step's own work: read as outside any guard */
	if ((gd = jc_find(c, JC_GUARD)) && !sc_loop_trains(s, gd)) {
		const struct jctx *k;

		/* a branch inside the periodic block that saves and evaluates
		 * nothing (`if val_loss < best: torch.save(...);
		 * export(model)`): its work is the checkpoint's, though the
		 * block around it evaluates */
		for (k = c; k && !ctx_same(k, gd); k = k->up)
			if (k->kind == JC_COND && !jc_find(k, JC_NO_GRAD) && !strcmp(sc_guard_phase(s, k), "checkpoint"))
				return "checkpoint";
		return sc_eval_block(s, c) ? "eval" : sc_guard_phase(s, gd);
	}
	/* outside any periodic block, a branch between the event and the
	 * loop around it that saves and evaluates nothing (`if val_loss <
	 * best: barrier(); save(model); barrier()` once an epoch): its work
	 * is the checkpoint's, as in a periodic block above */
	{
		const struct jctx *k, *save = NULL;

		for (k = c; k && k->kind != JC_LOOP; k = k->up)
			if (!save && k->kind == JC_COND && !jc_find(k, JC_NO_GRAD) &&
			    !strcmp(sc_guard_phase(s, k), "checkpoint"))
				save = k;
		/* (in a loop: a branch of the job's straight line that saves
		 * -- a data cache built once and torch.saved -- is start-up
		 * work, not a checkpoint) */
		if (save && k)
			return "checkpoint";
	}
	if (sc_eval_block(s, c) && s->job_type && !strcmp(s->job_type, "training"))
		return "eval";
	if (e->kind != SEV_LOADER && (sc_in_eval_run(s, e) || sc_in_step_eval_run(s, e)))
		return "eval";
	/* the per-token work of a decode loop */
	if (sc_decode_of(s, c) && e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER && e->kind != SEV_LOG)
		return "decode";
	/* what a server does for a request, outside the model */
	if (jc_find(c, JC_HANDLER) && s->job_type && !strcmp(s->job_type, "inference_serving") &&
	    e->kind != SEV_LOG)
		return "request";
	/* a host read made for a logging call's arguments (print(f"{loss.item()}"),
	 * wandb.log({"loss": loss.item()})) */
	if ((e->kind == SEV_SYNC || e->kind == SEV_D2H) && e->in_log)
		return "logging";
	/* a host read a logger's method makes (its hooks writing the
	 * results file, plotting a batch) */
	if ((e->kind == SEV_SYNC || e->kind == SEV_D2H) && sc_in_logger(e))
		return "logging";
	/* the work of a function the step calls to run the model */
	if (e->kind != SEV_MODEL_CALL && e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER && e->kind != SEV_LOG &&
	    sc_in_forward_run(s, e))
		return "forward";
	/* a generate call's own work around its decode loop, once per
	 * generate: the prompt copied in before it (prefill), the candidates
	 * read back after it */
	if (e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER && e->kind != SEV_LOG && (g = sc_in_generate(s, e)))
		/* (a model's weights moved or loaded before the loop, and the
		 * rest of the run that did it: the model's start-up, though a
		 * lazy loader runs it there) */
		return g == 1 ? (sc_weights_work(s, e) ? "startup" : "prefill") : "generate";
	if (e->kind == SEV_H2D && ctx_innermost_loop(c) && s->step_loop && ctx_has(c, s->step_loop)) {
		/* a copy the step's own computation makes -- a tensor made from
		 * Python values (torch.tensor(..., device=)), or a copy in a loop
		 * below the step (a sampler's timesteps) -- is not the data hop.
		 * A generator's loop around its yield is no loop below the step:
		 * each of its iterations is one item the step takes (a data
		 * generator's batch copied before it is yielded) */
		const struct jctx *l = ctx_innermost_loop(c);

		while (l && l->gen_items)
			l = ctx_innermost_loop(l->up);
		if (!l)
			l = ctx_innermost_loop(c);

		if ((!strncmp(e->call, "torch.", 6) && !e->of_array) || e->of_values ||
		    (!ctx_same(l, s->step_loop) && !(s->micro_loop && ctx_same(l, s->micro_loop)) && !sc_loader_loop(s, l) &&
		     !sc_loop_over_item(l, s->step_loop) && !sc_loop_over_item(l, s->micro_loop)))
			return "step";
	}
	/* work in a loop before or after the step loop, around none of it and
	 * over no loader (copying weights in layer by layer, a parameter
	 * broadcast per tensor): start-up or teardown, not the data hop */
	if (e->kind != SEV_LOADER_ITER && e->kind != SEV_LOADER && sc_outside_step(s, c))
		return s->step_end && (size_t)(e - s->ev) >= s->step_end ? "teardown" : "startup";
	/* a tensor made from Python numbers on (or copied to) the device in
	 * a loop that takes no batches (the epoch loop's meter sync): the
	 * step's own work, not the data hop */
	if (e->kind == SEV_H2D && ((!strncmp(e->call, "torch.", 6) && !e->of_array && !e->weights) || e->of_values) &&
	    ctx_innermost_loop(c) && !sc_loader_loop(s, ctx_innermost_loop(c)))
		return "step";
	/* a copy outside the step loop, after it, in the work of a loop
	 * around it (the epoch loop), with no loader's loop between (an EMA's
	 * stored weights written back one by one after the epoch's
	 * evaluation): that loop's own work, phased by what else it does, not
	 * the data hop (a data generator's setup before the step loop stays
	 * the data's).  A loop around the step known to run once (a CLI's
	 * prompt loop given one prompt) repeats nothing: what it does after
	 * the step loop is the job's teardown, whatever else it runs (flux's
	 * watermark copied back before the safety classifier scores the
	 * image under the job's inference_mode) */
	if (e->kind == SEV_H2D && s->step_loop && s->step_end && (size_t)(e - s->ev) >= s->step_end &&
	    ctx_innermost_loop(c) && !ctx_has(c, s->step_loop) && !sc_in_train_run(s, e)) {
		const struct jctx *l;

		for (l = ctx_innermost_loop(c); l && !sc_loader_loop(s, l); l = ctx_innermost_loop(l->up))
			if (ctx_has(s->step_loop, l))
				return l->trips == 1 ? "teardown" : sc_guard_phase(s, l);
	}
	if (e->kind == SEV_H2D || e->kind == SEV_LOADER_ITER || e->kind == SEV_LOADER)
		return (e->weights ? sc_innermost_repeating(s, c) : ctx_innermost_loop(c)) ? "data"
		       : s->step_end && (size_t)(e - s->ev) >= s->step_end ? "teardown" : "startup";
	if (e->kind == SEV_LOG)
		return "logging";
	/* (a loop known to run once is none: a CLI's prompt loop run for
	 * one prompt) */
	if (!ctx_outermost_repeating_loop(c))
		return s->step_end && (size_t)(e - s->ev) >= s->step_end ? "teardown" : "startup";
	/* a host read in a loop around the step loop and outside it (the
	 * epoch loop's `best = max(acc1, best)` after validate()): that
	 * loop's own bookkeeping, not the step's work -- phased as the work
	 * of a periodic block is, by what else the loop does before it (a
	 * timer's synchronize before the epoch's evaluation times the
	 * training, it evaluates nothing) */
	if ((e->kind == SEV_SYNC || e->kind == SEV_D2H) && s->step_loop && !ctx_has(c, s->step_loop) &&
	    ctx_has(s->step_loop, ctx_innermost_loop(c)) && !sc_in_train_run(s, e))
		return sc_guard_phase_upto(s, ctx_innermost_loop(c), (size_t)(e - s->ev));
	/* a host read or a collective of that loop's bookkeeping -- also
	 * through loops of its own over Python containers (`for k, v in
	 * logs.items(): v.item()`, `{k: gather(v) for k, v in ...}`) -- after
	 * the epoch's evaluation ran in it (a pass apart from the step that
	 * calls a model under no_grad): the evaluation's results gathered and
	 * read, the barrier after it, not the step's work */
	if ((e->kind == SEV_SYNC || e->kind == SEV_D2H || e->kind == SEV_COLLECTIVE) && s->step_loop &&
	    !ctx_has(c, s->step_loop) && (bk = sc_bookkeeping_loop(s, c)) && !sc_in_train_run(s, e) &&
	    sc_evaluated_before(s, bk, (size_t)(e - s->ev)))
		return "eval";
	/* a host read in a pass over a loader of its own, before or after
	 * the step loop and around none of it (class images generated from
	 * a prompt loader before training, each file named from a device
	 * value): start-up or teardown work, not the step's */
	if ((e->kind == SEV_SYNC || e->kind == SEV_D2H) && sc_apart_from_step(s, c))
		return s->step_end && (size_t)(e - s->ev) >= s->step_end ? "teardown" : "startup";
	if (sc_in_data_run(s, e))
		return "data";
	return "step";
}

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void add_tri(cJSON *o, const char *k, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddBoolToObject(o, k, v);
}

/* Is e in `loop` or in a loop around it? */
static int sc_shares_loop(const struct sched_ev *e, const struct jctx *loop)
{
	for (; loop; loop = ctx_innermost_loop(loop->up))
		if (ctx_has(e->ctx, loop))
			return 1;
	return 0;
}

/* Whether a loop around c is a library's training loop resumed from a
 * checkpoint (interp/libloop.c). */
static int ctx_resumed(const struct jctx *c)
{
	for (; c; c = c->up)
		if (c->kind == JC_LOOP && c->resumes)
			return 1;
	return 0;
}

/* Does loop r act in an environment: a model call in it (event m), then a
 * read of the device on the host (the model's choice handed to host
 * code), then a copy to the device (what the host code answered), all in
 * r?  An evaluation loop copies its batch before the model runs and reads
 * after: no copy follows its read. */
static int sc_loop_acts(const struct sc *s, const struct jctx *r, size_t m)
{
	size_t j;
	int read = 0;

	for (j = m + 1; j < s->nev; j++) {
		const struct sched_ev *e = &s->ev[j];

		if (!ctx_has(e->ctx, r) || e->in_forward)
			continue;
		if (e->kind == SEV_SYNC || e->kind == SEV_D2H)
			read = 1;
		else if (e->kind == SEV_H2D && read)
			return 1;
	}
	return 0;
}

/* An agent's training iteration (on-policy reinforcement learning): the
 * innermost loop around the training loop l in which, before l, a loop of
 * its own that does not train and takes no loader's batches runs the model
 * and acts (sc_loop_acts): experience is collected, then trained on, each
 * pass.  Then l and the loops between (epochs over the collected batch) are
 * repeats inside the step; *act is the acting loop (its token choices
 * are actions, not a decode).  NULL when there is none. */
static const struct jctx *sc_acting_step(const struct sc *s, const struct jctx *l, const struct jctx **act)
{
	const struct jctx *a;
	size_t first, i;

	for (first = 0; first < s->nev && !ctx_has(s->ev[first].ctx, l); first++)
		;
	for (a = ctx_innermost_loop(l->up); a; a = ctx_innermost_loop(a->up))
		for (i = 0; i < first; i++) {
			const struct sched_ev *m = &s->ev[i];
			const struct jctx *r;

			if (m->kind != SEV_MODEL_CALL || !ctx_has(m->ctx, a))
				continue;
			r = ctx_innermost_loop(m->ctx);
			if (!r || ctx_same(r, a) || sc_loader_loop(s, r) || sc_loop_trains(s, r))
				continue;
			if (sc_loop_acts(s, r, i)) {
				*act = r;
				return a;
			}
		}
	return NULL;
}

/* Another optimizer stepped once an iteration of a loop around l, outside
 * l (a GAN's steps, the discriminator's in a loop of its own, then the
 * generator's after it):
 *
 *     for x, y in loader:                      # the step
 *         for _ in range(num_D_steps):         # D's steps: a part of it
 *             for _ in range(accum): D_loss.backward()
 *             D.optim.step()
 *         G_loss.backward(); G.optim.step()
 *
 * l then repeats a part of each iteration's work: the innermost loop
 * around l that is such a step's own innermost loop is the step.  A step
 * in a loop of its own (a probe trained every epoch after the training
 * loop) or under a periodic guard does not count.  NULL when there is none. */
static const struct jctx *sc_outer_opt_loop(const struct sc *s, const struct jctx *l)
{
	const struct jctx *best = NULL;
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		const struct jctx *o;

		if (e->kind != SEV_OPT_STEP || ctx_has(e->ctx, l) || jc_find(e->ctx, JC_GUARD) ||
		    !(o = ctx_innermost_loop(e->ctx)) || !ctx_has(l->up, o))
			continue;
		if (!best || ctx_has(o, best))
			best = o;               /* the innermost of them */
	}
	return best;
}

/* The job's own gradient accumulation: the step loop runs the backward on
 * every pass and the optimizer step under `if (i + 1) % N == 0:` on the
 * loop's own pass counter (ConvNeXt's update_freq), N a known int > 1.
 * Each pass is then a micro-step and the guarded block ends a step
 * (sc_step_end).  The guard (JC_GUARD, its period N) when every optimizer
 * step of the step loop is under that one guard (by anchor) and some
 * backward of the loop is under no guard; else NULL. */
static const struct jctx *sc_modulo_accum(const struct sc *s)
{
	const struct jctx *g = NULL;
	int every_pass_bwd = 0;
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		const struct jctx *eg;

		if (e->in_forward || !ctx_has(e->ctx, s->step_loop))
			continue;
		eg = jc_find(e->ctx, JC_GUARD);
		if (e->kind == SEV_BACKWARD && (!eg || !ctx_has(eg, s->step_loop)))
			every_pass_bwd = 1;
		if (e->kind != SEV_OPT_STEP)
			continue;
		/* the guard nearest the loop, between it and the step */
		for (; eg && jc_find(eg->up, JC_GUARD) && ctx_has(jc_find(eg->up, JC_GUARD), s->step_loop);
		     eg = jc_find(eg->up, JC_GUARD))
			;
		if (!eg || !eg->counts_passes || eg->period <= 1 || !ctx_same(ctx_innermost_loop(eg->up), s->step_loop) ||
		    !eg->anchor || (g && (!g->anchor || strcmp(g->anchor, eg->anchor))))
			return NULL;
		g = eg;
	}
	return every_pass_bwd ? g : NULL;
}

/* Does c run on the pass that ends a step of an accumulation: under a
 * library's step-end context (JC_STEP_END), or under the job's own
 * accumulation guard (sc_modulo_accum, matched by anchor)? */
static int sc_step_end(const struct sc *s, const struct jctx *c)
{
	if (jc_find(c, JC_STEP_END))
		return 1;
	if (!s->accum || s->accum->kind != JC_GUARD)
		return 0;
	for (; c; c = c->up)
		if (c->kind == JC_GUARD && c->anchor && !strcmp(c->anchor, s->accum->anchor))
			return 1;
	return 0;
}

/* The loop around the training forward, and the accumulation loop. */
static void sc_find_loops(struct sc *s)
{
	const struct sched_ev *opt = NULL, *bwd = NULL;
	size_t i;
	int rpass;

	int train = s->job_type && !strcmp(s->job_type, "training");
	int serve = s->job_type && !strcmp(s->job_type, "inference_serving");

	sc_find_decode(s);
	/* a training job's step call: the first model call with gradients in
	 * a loop that trains (a backward or an optimizer step in it or in a
	 * loop around it), over a one-off forward before the training loop (a
	 * check of the model on one input); else the first with gradients.
	 * A loop that updates the parameters (an optimizer step in it or
	 * around it) before one that only runs backward (a start-up timing
	 * of forward and backward passes: pycls's compute_time_train).  A
	 * fresh run's loop first: a library's loop resumed from an earlier
	 * run's checkpoint (jctx.resumes) only when no other trains */
	for (rpass = 0; train && rpass < 4 && !s->step_call; rpass++)
		for (i = 0; i < s->nev && !s->step_call; i++) {
			const struct sched_ev *e = &s->ev[i];
			const struct jctx *l;

			if (e->kind != SEV_MODEL_CALL || jc_find(e->ctx, JC_NO_GRAD) || jc_find(e->ctx, JC_GUARD) ||
			    (rpass < 2 && ctx_resumed(e->ctx)))
				continue;
			for (l = ctx_innermost_loop(e->ctx); l && !s->step_call; l = ctx_innermost_loop(l->up))
				if (rpass % 2 ? sc_loop_trains(s, l) : sc_loop_updates(s, l))
					s->step_call = e;
		}
	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind == SEV_MODEL_CALL && !jc_find(e->ctx, JC_NO_GRAD) && !jc_find(e->ctx, JC_GUARD) &&
		    !s->step_call && train)
			s->step_call = e;
		if (e->kind == SEV_OPT_STEP && !opt)
			opt = e;
	}
	if (!s->step_call && !train) {
		/* a job that does not train: the model call of its step -- in a
		 * request handler (a server), in a loop (the decode loop, not
		 * the prefill before it) */
		int pass;

		for (pass = serve ? 0 : 2; pass < 4 && !s->step_call; pass++)
			for (i = 0; i < s->nev && !s->step_call; i++) {
				const struct sched_ev *e = &s->ev[i];

				/* (a loop known to run once repeats nothing: a
				 * call inside only such loops is in none) */
				if (e->kind == SEV_MODEL_CALL && (pass >= 2 || jc_find(e->ctx, JC_HANDLER)) &&
				    (pass % 2 || ctx_outermost_repeating_loop(e->ctx)))
					s->step_call = e;
			}
	}
	/* the first call's work run again inside more loops: its step */
	if (s->step_call && !train && !serve)
		s->step_call = sc_after_warmup(s, sc_same_work_deeper(s, s->step_call));
	if (!s->step_call)
		for (i = 0; i < s->nev; i++)
			if (s->ev[i].kind == SEV_MODEL_CALL) {
				s->step_call = &s->ev[i];
				break;
			}
	/* a training job whose model ecg never sees called (a library built
	 * it: timm's create_model): its step is found from the backward */
	for (i = 0; !s->step_call && train && !bwd && i < s->nev; i++)
		if (s->ev[i].kind == SEV_BACKWARD && !jc_find(s->ev[i].ctx, JC_GUARD) &&
		    !jc_find(s->ev[i].ctx, JC_NO_GRAD))
			bwd = &s->ev[i];
	if (!s->step_call && !bwd)
		return;
	if (!train) {
		/* the loop over a loader's batches around the call (a batch
		 * job's per-batch loop), else the outermost loop around it (the
		 * samples loop around a generate()); none for a server's
		 * handler, which is the step */
		const struct jctx *in_l = ctx_innermost_loop(s->step_call->ctx);

		s->step_loop = serve && jc_find(s->step_call->ctx, JC_HANDLER) ? NULL
		               : in_l && sc_loader_loop(s, in_l) ? in_l : ctx_outermost_repeating_loop(s->step_call->ctx);
		for (i = 0; s->step_loop && i < s->nev; i++)
			if (ctx_has(s->ev[i].ctx, s->step_loop) && !s->ev[i].in_forward)
				s->step_end = i + 1;
		return;
	}
	s->step_loop = ctx_innermost_loop((s->step_call ? s->step_call : bwd)->ctx);
	/* the optimizer step that shares a loop with the forward: an earlier
	 * one outside every loop around it (a checkpoint load that steps the
	 * optimizer once to make its states, Megatron's distributed
	 * optimizer) does not say where the step is */
	for (i = 0; s->step_loop && opt && !sc_shares_loop(opt, s->step_loop) && i < s->nev; i++)
		if (s->ev[i].kind == SEV_OPT_STEP && sc_shares_loop(&s->ev[i], s->step_loop))
			opt = &s->ev[i];
	if (s->step_loop && opt && !ctx_has(opt->ctx, s->step_loop)) {
		/* the optimizer steps outside the loop around the forward:
		 * that loop is the accumulation loop, the innermost loop above
		 * it that holds the optimizer step too is the step (Megatron:
		 * the micro-batch loop of the pipeline schedule, inside
		 * train_step's retry loop, inside train()'s loop) */
		const struct jctx *outer = ctx_innermost_loop(s->step_loop->up);

		while (outer && !ctx_has(opt->ctx, outer))
			outer = ctx_innermost_loop(outer->up);
		if (outer) {
			s->micro_loop = s->step_loop;
			s->step_loop = outer;
		}
	}
	/* a loop over a few items known one by one around the optimizer
	 * step (`for phase in phases`: G's pass, then D's, each with its own
	 * optimizer) is the parts of one step, not its repetition: the step
	 * is the loop around it (the `while True` that fetches the batch) */
	while (s->step_loop && s->step_loop->item_list && ctx_innermost_loop(s->step_loop->up))
		s->step_loop = ctx_innermost_loop(s->step_loop->up);
	/* another optimizer's step once an iteration of a loop around it:
	 * that loop is the step (sc_outer_opt_loop) */
	{
		const struct jctx *o;

		while (s->step_loop && (o = sc_outer_opt_loop(s, s->step_loop)))
			s->step_loop = o;
	}
	if (s->step_loop && !s->micro_loop) {
		const struct jctx *act = NULL, *a = sc_acting_step(s, s->step_loop, &act);

		if (a) {
			s->step_loop = a;
			for (i = 0; i < s->ndecode;)
				if (ctx_same(s->decode[i], act))
					s->decode[i] = s->decode[--s->ndecode];
				else
					i++;
		}
	}
	for (i = 0; s->step_loop && i < s->nev; i++) {
		if (ctx_has(s->ev[i].ctx, s->step_loop) && !s->ev[i].in_forward)
			s->step_end = i + 1;
		/* a library's accumulation block inside the step loop (with no
		 * micro-step loop of the job's own) */
		if (!s->micro_loop && s->ev[i].kind == SEV_BACKWARD && ctx_has(s->ev[i].ctx, s->step_loop) &&
		    jc_find(s->ev[i].ctx, JC_ACCUM))
			s->accum = jc_find(s->ev[i].ctx, JC_ACCUM);
	}
	if (s->step_loop && !s->micro_loop && !s->accum)
		s->accum = sc_modulo_accum(s);
}

static cJSON *sc_phase_entry(const char *name, const char *kind, const char *runs_on, const char *anchor,
                             const struct jctx *guard)
{
	cJSON *p = cJSON_CreateObject();

	cJSON_AddStringToObject(p, "name", name);
	cJSON_AddStringToObject(p, "kind", kind);
	if (guard) {
		cJSON *per = cJSON_AddObjectToObject(p, "period");

		add_str_or_null(per, "expr", guard->period_expr);
		if (guard->period > 0) {
			cJSON_AddNumberToObject(per, "value", (double)guard->period);
		} else {
			cJSON_AddNullToObject(per, "value");
			cJSON_AddStringToObject(per, "reason", "the period is not a value the code pins down");
		}
	} else {
		cJSON_AddNullToObject(p, "period");
	}
	cJSON_AddStringToObject(p, "runs_on", runs_on);
	add_str_or_null(p, "anchor", anchor);
	return p;
}

static const char *sc_kind_of(const struct jctx *c)
{
	if (jc_find(c, JC_GUARD))
		return "periodic";
	return ctx_innermost_loop(c) ? "repeated" : "one-off";
}

static int sc_seen(cJSON *arr, const char *key, const char *val, const char *key2, const char *val2)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, arr) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(x, key);
		const cJSON *b = key2 ? cJSON_GetObjectItemCaseSensitive(x, key2) : NULL;

		if (cJSON_IsString(a) && !strcmp(a->valuestring, val) &&
		    (!key2 || (cJSON_IsString(b) && val2 && !strcmp(b->valuestring, val2))))
			return 1;
	}
	return 0;
}

/* Whether some loader iteration is in the data phase. */
static int sc_has_data_iter(const struct sc *s)
{
	size_t i;

	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_LOADER_ITER && !strcmp(sc_phase(s, &s->ev[i]), "data"))
			return 1;
	return 0;
}

static void sc_phases(struct sc *s, cJSON *phases)
{
	size_t i;
	int have_data = 0, have_fwd = 0, have_bwd = 0, have_opt = 0;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		switch (e->kind) {
		case SEV_LOADER_ITER:
			/* the step's data phase: not a loader read by the eval or
			 * logging phases (unless the job has no other) */
			if (strcmp(sc_phase(s, e), "data") && sc_has_data_iter(s))
				break;
			if (!have_data++)
				cJSON_AddItemToArray(phases, sc_phase_entry("data", sc_kind_of(e->ctx), "host", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			break;
		case SEV_MODEL_CALL:
			if (e == s->step_call && !have_fwd++) {
				cJSON_AddItemToArray(phases, sc_phase_entry("forward", sc_kind_of(e->ctx), "device", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			} else if (e != s->step_call && (jc_find(e->ctx, JC_NO_GRAD) || jc_find(e->ctx, JC_GUARD)) &&
			           s->job_type && !strcmp(s->job_type, "training") && !sc_run_startup(s, e) &&
			           !sc_seen(phases, "name", "eval", NULL, NULL)) {
				cJSON_AddItemToArray(phases, sc_phase_entry("eval", sc_kind_of(e->ctx), "both", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			}
			break;
		case SEV_BACKWARD:
			if (e == sc_step_backward(s) && !have_bwd++)
				cJSON_AddItemToArray(phases, sc_phase_entry("backward", sc_kind_of(e->ctx), "device", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			break;
		case SEV_OPT_STEP:
			if (!have_opt++)
				cJSON_AddItemToArray(phases, sc_phase_entry("optimizer", sc_kind_of(e->ctx), "device", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			break;
		case SEV_SAVE:
			if (!sc_seen(phases, "name", "checkpoint", NULL, NULL))
				cJSON_AddItemToArray(phases, sc_phase_entry("checkpoint", sc_kind_of(e->ctx), "host", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			break;
		case SEV_LOG:
			if (jc_find(e->ctx, JC_GUARD) && ctx_innermost_loop(e->ctx) &&
			    !sc_seen(phases, "name", "logging", NULL, NULL))
				cJSON_AddItemToArray(phases, sc_phase_entry("logging", "periodic", "host", e->anchor,
				                                            jc_find(e->ctx, JC_GUARD)));
			break;
		default:
			break;
		}
	}
}

static void sc_data_path(struct sc *s, cJSON *dp)
{
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		cJSON *h, *d;

		if (e->kind == SEV_LOADER) {
			value_t *nw = e->detail ? vdict_gets(e->detail, "num_workers") : NULL;
			static const char *const keys[] = { "num_workers", "pin_memory", "persistent_workers",
			                                    "prefetch_factor", "batch_size", "shuffle", "drop_last",
			                                    "collate_fn", "sampler", NULL };
			size_t k;
			int workers = nw ? (nw->k == VK_INT ? (nw->u.i > 0) : -1) : 0;

			h = cJSON_CreateObject();
			cJSON_AddStringToObject(h, "hop", "DataLoader");
			cJSON_AddStringToObject(h, "anchor", e->anchor);
			add_tri(h, "async", workers);
			add_tri(h, "blocks_step", workers < 0 ? -1 : !workers);
			d = cJSON_AddObjectToObject(h, "detail");
			for (k = 0; keys[k]; k++) {
				value_t *v = e->detail ? vdict_gets(e->detail, keys[k]) : NULL;

				if (!v) {
					if (!strcmp(keys[k], "num_workers"))
						cJSON_AddNumberToObject(d, keys[k], 0);      /* torch's default */
					else if (!strcmp(keys[k], "pin_memory"))
						cJSON_AddFalseToObject(d, keys[k]);
					continue;
				}
				if (value_is_known_scalar(v) && v->k != VK_STR) {
					if (v->k == VK_BOOL)
						cJSON_AddBoolToObject(d, keys[k], v->u.b);
					else if (v->k == VK_INT)
						cJSON_AddNumberToObject(d, keys[k], (double)v->u.i);
					else if (v->k == VK_FLOAT)
						cJSON_AddNumberToObject(d, keys[k], v->u.f);
					else
						cJSON_AddNullToObject(d, keys[k]);
				} else {
					cJSON *u = cJSON_AddObjectToObject(d, keys[k]);

					add_str_or_null(u, "expr", v->expr ? v->expr :
					                v->k == VK_INST ? interp_class_name(v->u.inst) : NULL);
					cJSON_AddNullToObject(u, "value");
				}
			}
			{
				value_t *ds = e->detail ? vdict_gets(e->detail, "dataset") : NULL;

				if (ds && ds->k == VK_INST)
					cJSON_AddStringToObject(d, "dataset", interp_class_name(ds->u.inst));
			}
			cJSON_AddItemToArray(dp, h);
		} else if (e->kind == SEV_LOADER_ITER) {
			if (sc_seen(dp, "hop", "next batch", "anchor", e->anchor))
				continue;
			h = cJSON_CreateObject();
			cJSON_AddStringToObject(h, "hop", "next batch");
			cJSON_AddStringToObject(h, "anchor", e->anchor);
			cJSON_AddNullToObject(h, "async");
			cJSON_AddTrueToObject(h, "blocks_step");
			cJSON_AddItemToArray(dp, h);
		} else if (e->kind == SEV_H2D && !e->in_forward) {
			int async = e->non_blocking == 1 && e->pinned == 1;

			if (sc_seen(dp, "hop", "copy to device", "anchor", e->anchor))
				continue;
			h = cJSON_CreateObject();
			cJSON_AddStringToObject(h, "hop", "copy to device");
			cJSON_AddStringToObject(h, "anchor", e->anchor);
			add_tri(h, "async", e->non_blocking < 0 ? -1 : async);
			add_tri(h, "blocks_step", e->non_blocking < 0 ? -1 : !async);
			d = cJSON_AddObjectToObject(h, "detail");
			add_tri(d, "pinned", e->pinned);
			add_tri(d, "non_blocking", e->non_blocking);
			cJSON_AddItemToArray(dp, h);
		}
	}
}

/* How often, as a rank: a line reached both before the loop and in it is
 * reported at its most frequent. */
static int sc_rank(const struct sc *s, const struct sched_ev *e)
{
	const struct jctx *c = sc_ctx_of(s, e);

	/* every N steps; a guard on an outer loop's counter (every 20
	 * epochs) runs less often than that loop's plain body, so it ranks
	 * as the loop (sc_more_often tells them apart) */
	if (jc_find(c, JC_GUARD) && !(s->step_loop && !ctx_has(c, s->step_loop) && ctx_innermost_loop(c)))
		return 2;
	if (s->micro_loop && ctx_has(c, s->micro_loop))
		return 4;
	if (s->step_loop && ctx_has(c, s->step_loop))
		return 3;
	if (ctx_innermost_loop(c) || e->in_forward)
		return 1;
	return 0;
}

/* The job loops around e (a helper's own loop, and the epoch loop around
 * the call: two). */
static int sc_loops(const struct sc *s, const struct sched_ev *e)
{
	const struct jctx *c = sc_ctx_of(s, e);
	int n = 0;

	for (; c; c = c->up)
		n += c->kind == JC_LOOP;
	return n;
}

/* Does a anchor in the same function as b (file and symbol alike)? */
static int sc_same_function(const char *a, const char *b)
{
	const char *ea = a ? strrchr(a, ':') : NULL, *eb = b ? strrchr(b, ':') : NULL;

	return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/* Does a reach its line only through an undecided test of the line's own
 * function that b's path through that function does not meet (a test
 * b's run decided: yolov5's non_max_suppression reaches its best-class
 * branch under `not multi_label` with `multi_label &= nc > 1` not known
 * in validation, and for sure from the start-up check that passes
 * multi_label=False)?  Then a may never reach the line at all, where b
 * surely does. */
static int sc_unsure_inside(const struct sched_ev *a, const struct sched_ev *b)
{
	const struct jctx *c, *d;

	for (c = a->ctx; c; c = c->up) {
		if (c->kind != JC_COND || c->mode_only || !c->text || !sc_same_function(c->anchor, a->anchor))
			continue;
		for (d = b->ctx; d && !(d->kind == JC_COND && d->anchor && c->anchor && !strcmp(d->anchor, c->anchor));
		     d = d->up)
			;
		if (!d)
			return 1;
	}
	return 0;
}

/* Does a run more often than b: a higher rank, or the same rank under more
 * loops (validate() called once at a resume and again in the epoch loop:
 * the epoch loop's call is the row), or the same loops without a periodic
 * guard where b has one (a save every epoch and another every 20).  A
 * path that reaches the line only through an undecided test of the
 * line's own function the other path decided is never the row over that
 * sure path (sc_unsure_inside): the sure path is, however often. */
static int sc_more_often(const struct sc *s, const struct sched_ev *a, const struct sched_ev *b)
{
	int ra, rb, la, lb, ua = sc_unsure_inside(a, b), ub = sc_unsure_inside(b, a);

	if (ua != ub)
		return ub;
	ra = sc_rank(s, a);
	rb = sc_rank(s, b);

	if (ra != rb)
		return ra > rb;
	la = sc_loops(s, a);
	lb = sc_loops(s, b);
	if (la != lb)
		return la > lb;
	/* the same loops, one path under a periodic guard: the other */
	return !jc_find(sc_ctx_of(s, a), JC_GUARD) && jc_find(sc_ctx_of(s, b), JC_GUARD);
}

/* Is ev[i]'s line (its kind, and op) reached later by job code (not a
 * forward's) on a path that runs more often (sc_more_often: validate()
 * called once before training, then every N steps; an evaluation called
 * once before the epoch loop and again in it)?  Then that path's event
 * is the row, as for host_device's rows. */
static int sc_later_more_often(const struct sc *s, size_t i)
{
	const struct sched_ev *e = &s->ev[i];
	size_t j;

	if (e->in_forward)
		return 0;
	for (j = i + 1; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x->kind == e->kind && !x->in_forward && x->anchor && e->anchor && !strcmp(x->anchor, e->anchor) &&
		    (!x->op || !e->op || !strcmp(x->op, e->op)) && sc_more_often(s, x, e))
			return 1;
	}
	return 0;
}

/* The conjuncts of the condition sc_row_condition (row) or sc_condition
 * of the event's own context (!row) gives, outermost first, into t (at
 * most max); their number.  A row's: those of its context (for an event
 * of a model's forward, the model call's), then, for a forward's event,
 * the undecided conditions inside the forward around it, outermost first
 * (`if "keypoints" in target:`; a test on the training flag is the
 * phase's, not a condition), each once.  *nouter (when not NULL): how
 * many of them are the context's. */
static int sc_call_on_all_paths(struct sc *s, const struct sched_ev *e);

static size_t sc_cond_texts(struct sc *s, const struct sched_ev *e, int row, const char **t, size_t max,
                            size_t *nouter)
{
	const char *in[16];
	size_t n = 0, m, k, outer;
	const struct jctx *c;

	m = outer = row && sc_call_on_all_paths(s, e) ? 0 : sc_ctx_texts(row ? sc_ctx_of(s, e) : e->ctx, t, max);
	if (nouter)
		*nouter = outer;
	if (!row || !e->in_forward)
		return m;
	for (c = e->ctx; c && c->kind != JC_FORWARD; c = c->up) {
		if (c->kind != JC_COND || c->mode_only || !c->text)
			continue;
		for (k = 0; k < n && strcmp(in[k], c->text); k++)
			;
		if (k < n || n == sizeof in / sizeof *in)
			continue;
		for (k = 0; k < outer && !strstr(t[k], c->text); k++)
			;
		if (k < outer)
			continue;
		in[n++] = c->text;
	}
	while (n && m < max)
		t[m++] = in[--n];
	return m;
}

/* The condition of a host-device row e (sc_cond_texts joined by "and"):
 * its context's own text when the forward adds none.  NULL: none.  Kept
 * in s's pool. */
static const char *sc_row_condition(struct sc *s, const struct sched_ev *e)
{
	const char *outer = sc_call_on_all_paths(s, e) ? NULL : sc_condition(s, sc_ctx_of(s, e)), *t[32];
	size_t n, no;
	char *r;
	buf_t b;

	if (!e->in_forward || (n = sc_cond_texts(s, e, 1, t, 32, &no)) == no)
		return outer;
	buf_init(&b);
	sc_and_join(&b, t, n, 0);
	r = (char *)sc_pool_keep(s, buf_detach(&b));
	return r ? r : t[n - 1];
}

/* Is a "not (b)" (or b "not (a)")? */
static int sc_negates(const char *a, const char *b)
{
	size_t lb = strlen(b);

	if (!strncmp(a, "not (", 5) && strlen(a) == lb + 6 && !strncmp(a + 5, b, lb) && a[lb + 5] == ')')
		return 1;
	/* "not is_main" of two tests as written (`if not is_main:` before a
	 * yield, `if is_main:` after it): `not` binds looser than a
	 * comparison and tighter than and/or, so it negates a b that has
	 * none of those outside brackets */
	return !strncmp(a, "not ", 4) && !strcmp(a + 4, b) && b[0] && !sc_top_level_op(b, 1);
}

/* one path's conjuncts beyond what all share */
struct sc_rest {
	const char **t;
	size_t n;
	int gone;
};

static int sc_rest_has(const struct sc_rest *r, const char *x)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->t[i], x))
			return 1;
	return 0;
}

/* a's conjuncts all among b's: a holds wherever b does */
static int sc_rest_within(const struct sc_rest *a, const struct sc_rest *b)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!sc_rest_has(b, a->t[i]))
			return 0;
	return 1;
}

/* Merge what a disjunction of rests says twice: "X and B or X and not
 * (B)" is X (a and b differ by one conjunct and its negation: a keeps the
 * rest), "X or X and Y" is X (absorption), and "B or not (B) and C" is
 * "B or C".  0 when nothing changed. */
static int sc_rests_merge(struct sc_rest *r, size_t nr)
{
	size_t i, k, x, y;

	for (i = 0; i < nr; i++)
		for (k = 0; k < nr; k++) {
			size_t miss = 0, at = 0;

			if (i == k || r[i].gone || r[k].gone)
				continue;
			if (sc_rest_within(&r[i], &r[k])) {
				r[k].gone = 1;              /* absorbed */
				return 1;
			}
			/* "B or not (B) and C" is "B or C" */
			for (y = 0; r[i].n == 1 && y < r[k].n; y++)
				if (sc_negates(r[k].t[y], r[i].t[0]) || sc_negates(r[i].t[0], r[k].t[y])) {
					r[k].t[y] = r[k].t[--r[k].n];
					return 1;
				}
			if (r[i].n != r[k].n)
				continue;
			for (x = 0; x < r[i].n; x++)
				if (!sc_rest_has(&r[k], r[i].t[x])) {
					miss++;
					at = x;
				}
			if (miss != 1)
				continue;
			for (y = 0; y < r[k].n; y++)
				if (!sc_rest_has(&r[i], r[k].t[y]))
					break;
			if (y == r[k].n || !(sc_negates(r[i].t[at], r[k].t[y]) || sc_negates(r[k].t[y], r[i].t[at])))
				continue;
			r[i].t[at] = r[i].t[--r[i].n];  /* both ways of that test */
			r[k].gone = 1;
			return 1;
		}
	return 0;
}

/* The condition of the row of event e, over every path of the job that
 * reaches its line in the same phase (same(e, x): the events of that
 * row): none when one of those paths has none; the one path's when they
 * agree; else what they share, then the rest of each path, joined by
 * `or` ("A and (B or C)"), with a test and its negation and absorbed
 * paths merged (sc_rests_merge).  A path of another phase is another
 * row's matter (a startup call of the helper says nothing of how often
 * eval calls it).  row: the host-device rows' conditions
 * (sc_row_condition), else the event's context's.  Kept in s's pool;
 * NULL: none. */
#define SC_PATHS_MAX 8
static const char *sc_paths_condition(struct sc *s, const struct sched_ev *e, int row,
                                      int (*same)(const struct sched_ev *, const struct sched_ev *))
{
	const char *t[SC_PATHS_MAX][16], *phase = sc_phase(s, e);
	size_t n[SC_PATHS_MAX], np = 0, pre, i, j, live = 0;
	struct sc_rest rests[SC_PATHS_MAX];
	const char *single = row ? sc_row_condition(s, e) : sc_condition(s, e->ctx);
	buf_t out;

	if (!single)
		return NULL;
	n[np] = sc_cond_texts(s, e, row, t[np], 16, NULL);
	np++;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x == e || !same(e, x) || strcmp(sc_phase(s, x), phase))
			continue;
		if (!(row ? sc_row_condition(s, x) : sc_condition(s, x->ctx)))
			return NULL;      /* a path under no condition */
		if (np == SC_PATHS_MAX)
			return single;    /* more than we join: the event's own */
		n[np] = sc_cond_texts(s, x, row, t[np], 16, NULL);
		np++;
	}
	if (np == 1)
		return single;
	/* what every path shares, outermost first */
	for (pre = 0;; pre++) {
		for (i = 0; i < np && pre < n[i] && !strcmp(t[i][pre], t[0][pre]); i++)
			;
		if (i < np)
			break;
	}
	for (i = 0; i < np; i++) {
		rests[i].t = t[i] + pre;
		rests[i].n = n[i] - pre;
		rests[i].gone = 0;
	}
	while (sc_rests_merge(rests, np))
		;
	for (i = 0; i < np; i++) {
		if (!rests[i].gone && !rests[i].n) {
			live = 0;             /* a path that needs only the shared part */
			break;
		}
		live += !rests[i].gone;
	}
	if (live == 1 && pre == 0 && rests[0].n == n[0] && !rests[0].gone)
		return single;            /* the event's own path: as it reads */
	buf_init(&out);
	sc_and_join(&out, t[0], pre, live > 0);
	if (live)
		buf_addstr(&out, out.len ? (live > 1 ? " and (" : " and ") : live > 1 ? "(" : "");
	for (i = 0, j = 0; live && i < np; i++) {
		buf_t r;

		if (rests[i].gone)
			continue;
		if (live == 1) {
			sc_and_join(&out, rests[i].t, rests[i].n, pre > 0);
			break;
		}
		buf_init(&r);
		sc_and_join(&r, rests[i].t, rests[i].n, 0);
		buf_addf(&out, sc_needs_parens(r.buf) ? "%s(%s)" : "%s%s", j++ ? " or " : "", r.buf);
		buf_free(&r);
	}
	if (live > 1)
		buf_addstr(&out, ")");
	if (!out.len) {
		buf_free(&out);
		return NULL;
	}
	return sc_pool_keep(s, buf_detach(&out));
}

static int sc_same_line(const struct sched_ev *a, const struct sched_ev *b)
{
	return a->kind == b->kind && a->anchor && b->anchor && !strcmp(a->anchor, b->anchor);
}

/* b is where a wrapper issues what it issues at a: a's line and kind,
 * the gradients synced (not under no_sync) and, for a model call, with
 * gradients on -- one of the paths that reach the wrapper's collective
 * (a backward in a function called on both paths of `if rank == 0:`) */
static int sc_same_wrap_site(const struct sched_ev *a, const struct sched_ev *b)
{
	return sc_same_line(a, b) && !jc_find(b->ctx, JC_NO_SYNC) &&
	       (b->kind != SEV_MODEL_CALL || !jc_find(b->ctx, JC_NO_GRAD));
}

/* Is forward event e's model call (sc_fwd_call), itself under a
 * condition, reached at its line on paths whose conditions together
 * leave none (`if rank == 0: train(..., logger) else: train(..., None)`:
 * the function holding the call read once per path)?  Then the forward's
 * events run whichever path was taken: the first path's condition is not
 * theirs. */
static int sc_call_on_all_paths(struct sc *s, const struct sched_ev *e)
{
	const struct sched_ev *call = e->in_forward ? sc_fwd_call(s, e) : NULL;

	return call && sc_condition(s, call->ctx) && !sc_paths_condition(s, call, 0, sc_same_line);
}

static int sc_same_collective(const struct sched_ev *a, const struct sched_ev *b)
{
	return sc_same_line(a, b) && (!a->op || !b->op || !strcmp(a->op, b->op));
}

/* How many times job code reached e's line in one pass of the loops
 * around it: the runs of its function that made an event of that kind at
 * that line in the very same context (one helper called from two places of the step's body, as
 * to_cpu(loss) in the loss function and again for the log).  A loop's
 * iterations are read once, so they make no second event here; a model's
 * forward is read once per module, so its events are not counted. */
/* Did an event before ev[j], of x's kind at x's line, come from the same
 * run of x's function (and, unless any_ctx, the same context)?  Two
 * events of one line in one run (x.to(d), y.to(d)) are one. */
static int sc_same_run_before(const struct sc *s, size_t j, int any_ctx)
{
	const struct sched_ev *x = &s->ev[j];
	size_t k;

	for (k = 0; k < j; k++)
		if (s->ev[k].kind == x->kind && (any_ctx || s->ev[k].ctx == x->ctx) &&
		    s->ev[k].in_forward == x->in_forward && s->ev[k].frame == x->frame &&
		    !strcmp(s->ev[k].anchor, x->anchor))
			return 1;
	return 0;
}

/* Did an event before ev[j], of its kind at its line in its context,
 * come from a call made at the same place of the source in the same
 * context -- the same call read again (a warm-up iteration cut short by
 * `continue`, then the next iteration), not a second call a pass? */
static int sc_same_site_before(const struct sc *s, size_t j)
{
	const struct sched_ev *x = &s->ev[j];
	size_t k;

	if (!x->in_call || !x->in_call->site)
		return 0;
	for (k = 0; k < j; k++) {
		const struct sched_ev *y = &s->ev[k];

		if (y->kind == x->kind && y->ctx == x->ctx && !y->in_forward && !strcmp(y->anchor, x->anchor) &&
		    y->in_call && y->in_call->site == x->in_call->site && y->in_call->at == x->in_call->at &&
		    y->in_call->up == x->in_call->up)
			return 1;
	}
	return 0;
}

static long long sc_calls(const struct sc *s, const struct sched_ev *e)
{
	long long n = 0;
	size_t j;

	if (e->in_forward)
		return 1;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x->kind != e->kind || x->ctx != e->ctx || x->in_forward || strcmp(x->anchor, e->anchor))
			continue;
		n += !sc_same_run_before(s, j, 0) && !sc_same_site_before(s, j);
	}
	return n;
}

/* Is e's line reached, at the same frequency rank, on another path of
 * contexts too (a helper whose loop runs over each call's own items:
 * update(loss=..., **losses) and update(class_error=...) in one step)?
 * Then one path's count is no count of the line's runs.  A collective
 * of another op there is another event, not another path to this one
 * (a library call that sends on some ranks and all-reduces on all). */
static int sc_other_path(const struct sc *s, const struct sched_ev *e)
{
	size_t j;

	if (e->in_forward)
		return 0;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x->kind == e->kind && x->ctx != e->ctx && !x->in_forward && !strcmp(x->anchor, e->anchor) &&
		    (x->kind != SEV_COLLECTIVE || !x->op || !e->op || !strcmp(x->op, e->op)) &&
		    sc_rank(s, x) == sc_rank(s, e))
			return 1;
	}
	return 0;
}

/* How many times e's line runs in one call of the model, when read from
 * a forward: the sum over the reads that reached it (a helper read anew
 * at each of its calls, a module's forward once) of each read's count --
 * the reads counted at e's model call (a module read again for another
 * call of the job, an evaluation's, is that call's count);
 * -1 when one is not known (*why: the reason a read gives, or NULL). */
static long long sc_fwd_runs(const struct sc *s, const struct sched_ev *e, const char **why)
{
	const struct sched_ev *call = sc_fwd_call(s, e);
	long long n = 0;
	size_t j;

	*why = NULL;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x->kind != e->kind || !x->in_forward || strcmp(x->anchor, e->anchor) || sc_same_run_before(s, j, 1) ||
		    (x->kind == SEV_COLLECTIVE && (!x->op || !e->op || strcmp(x->op, e->op))) ||
		    sc_fwd_call(s, x) != call)
			continue;
		if (x->fwd_mult < 0 || n > (1LL << 40)) {
			*why = x->fwd_mult < 0 ? x->fwd_mult_why : NULL;
			return -1;
		}
		n += x->fwd_mult > 0 ? x->fwd_mult : 1;
	}
	return n ? n : 1;
}

/* Do chains a and b hold the same undecided conditions (JC_COND, by
 * anchor and text), wherever they sit? */
static int sc_cond_in(const struct jctx *c, const struct jctx *x)
{
	for (; c; c = c->up)
		if (c->kind == JC_COND && (c->anchor == x->anchor || (c->anchor && x->anchor && !strcmp(c->anchor, x->anchor))) &&
		    (c->text == x->text || (c->text && x->text && !strcmp(c->text, x->text))))
			return 1;
	return 0;
}

static int sc_conds_same(const struct jctx *a, const struct jctx *b)
{
	const struct jctx *c;

	for (c = a; c; c = c->up)
		if (c->kind == JC_COND && !sc_cond_in(b, c))
			return 0;
	for (c = b; c; c = c->up)
		if (c->kind == JC_COND && !sc_cond_in(a, c))
			return 0;
	return 1;
}

/* Are a and b made in two calls of one pass: below the innermost call
 * both were made in, the calls they diverge at are made from two places
 * of the source in the very same context (one reading of one block:
 * evaluate(train) and evaluate(test) in one periodic block)?  Not one
 * call site read again (a warm-up iteration of the step loop and the
 * next: two readings of one place, whose count is the loop's), nor two
 * events of one run.  *at (when not NULL) is set to the context those two
 * calls are made in. */
static int sc_sibling_calls(const struct sched_ev *a, const struct sched_ev *b, const struct jctx **at)
{
	const struct sched_call *x, *y, *ca = NULL, *cb = NULL;

	for (y = b->in_call; y; cb = y, y = y->up) {
		for (ca = NULL, x = a->in_call; x && x != y; ca = x, x = x->up)
			;
		if (x == y)
			break;
	}
	/* y: the innermost call both were made in (NULL: job code's top);
	 * ca, cb: their calls just below it */
	if (!y) {
		for (ca = NULL, x = a->in_call; x; ca = x, x = x->up)
			;
	}
	if (at)
		*at = ca ? ca->at : NULL;
	return ca && cb && ca != cb && ca->at == cb->at && ca->site && cb->site && ca->site != cb->site;
}

/* Do the two calls that path x and e diverge at (sc_sibling_calls) each
 * run the step loop of their own: the step loop is around x's line but
 * not around the place the calls are made (a batch scorer's per-batch
 * loop in a function called once per dataset).  Then x's "every step"
 * counts x's own steps, not e's: the paths' counts do not add. */
static int sc_paths_own_steps(const struct sc *s, const struct sched_ev *x, const struct sched_ev *e)
{
	const struct jctx *at = NULL;

	if (!s->step_loop || x == e || !ctx_has(x->ctx, s->step_loop) || !ctx_has(e->ctx, s->step_loop))
		return 0;
	return sc_sibling_calls(x, e, &at) && !ctx_has(at, s->step_loop);
}

/* Is x the first event of its path to e's line (the first of e's kind at
 * e's line in x's context, at e's frequency rank)? */
static int sc_path_first(const struct sc *s, const struct sched_ev *e, size_t j)
{
	const struct sched_ev *x = &s->ev[j];
	size_t k;

	if (x->kind != e->kind || x->in_forward || strcmp(x->anchor, e->anchor) ||
	    (x->kind == SEV_COLLECTIVE && (!x->op || !e->op || strcmp(x->op, e->op))) ||
	    sc_rank(s, x) != sc_rank(s, e))
		return 0;
	for (k = 0; k < j; k++)
		if (s->ev[k].ctx == x->ctx && s->ev[k].kind == x->kind && !s->ev[k].in_forward &&
		    !strcmp(s->ev[k].anchor, x->anchor))
			return 0;
	return 1;
}

/* The frequency of e's line over the paths that run with path r in one
 * reading (r's undecided conditions, calls made from two places of one
 * reading: sc_sibling_calls -- evaluate() called on the train set and on
 * the test set in one periodic block): each path's frequency read as its
 * own (its calls, its loops), and when every one reads "HEAD ×N" (or HEAD
 * alone: once) with one HEAD, the line runs the sum: "HEAD ×(N1 + N2
 * ...)", or HEAD alone for one path run once.  Paths that each run a step
 * loop of their own (sc_paths_own_steps) do not add: each runs the line
 * "HEAD ×N" a step of its own, with one N for all of them; a path alone
 * reads as its own frequency, a count it does not know included.  Each
 * path counted is marked in `in` (by event index).  NULL when a count is
 * not known or the heads differ.  Allocated. */
static char *sc_group_frequency(struct sc *s, const struct sched_ev *e, const struct sched_ev *r, unsigned char *in)
{
	char *head = NULL, *res = NULL, *only = NULL;
	long long total = 0, first = 0;
	size_t j, npaths = 0;
	int ok = 1, own = 0, same_n = 1;

	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];
		char *f, *times;
		long long n = 1;

		if (in[j] || !sc_path_first(s, e, j) || !sc_conds_same(x->ctx, r->ctx) ||
		    (x != r && !sc_sibling_calls(x, r, NULL)))
			continue;
		in[j] = 1;
		s->calls = sc_calls(s, x);
		s->inner = 1;
		f = sc_frequency(s, x);
		s->calls = 0;
		/* one path alone: its own text, a count not known included */
		if (!npaths++)
			only = xstrdup(f);
		if (!ok) {
			free(f);
			continue;
		}
		times = strstr(f, " \u00d7");
		if (times) {
			char *end;

			*times = '\0';
			times += strlen(" \u00d7");
			n = strtoll(times, &end, 10);
			if (end == times || *end || n <= 0)
				ok = 0;
		}
		if (ok && head && strcmp(head, f))
			ok = 0;
		if (ok && !head)
			head = xstrdup(f);
		if (ok && total > (1LL << 40) - n)
			ok = 0;
		if (!first)
			first = n;
		same_n &= n == first;
		own |= sc_paths_own_steps(s, x, r);
		total += n;
		free(f);
	}
	if (npaths == 1)
		res = only, only = NULL;
	else if (ok && head && own)
		res = !same_n ? NULL : first > 1 ? xasprintf("%s \u00d7%lld", head, first) : xstrdup(head);
	else if (ok && head)
		res = total > 1 ? xasprintf("%s \u00d7%lld", head, total) : xstrdup(head);
	free(only);
	free(head);
	return res;
}

/* The frequency of e's line when job code reaches it on several paths of
 * the same rank (sc_other_path): the paths that run with e's summed
 * (sc_group_frequency); every other path must lie on the other side of an
 * undecided `if` from e's and from each other group's (interp jc_exclusive:
 * a job function called on both paths of `if n_gpus > 1: spawn(train)
 * else: train(0)`, of which a run takes one), and its group must read the
 * same: the line runs that often whichever path the run takes.  NULL when
 * a count is not known, the heads differ, or two paths may both run
 * without being summed; the caller then says ×? as before.  Allocated. */
static char *sc_paths_frequency(struct sc *s, const struct sched_ev *e)
{
	unsigned char *in = xcalloc(s->nev + 1, 1);
	const struct sched_ev **reps = xcalloc(s->nev + 1, sizeof *reps);
	size_t nreps = 0, j, k;
	char *r = sc_group_frequency(s, e, e, in), *o;

	if (r)
		reps[nreps++] = e;
	for (j = 0; r && j < s->nev; j++) {
		if (in[j] || !sc_path_first(s, e, j))
			continue;
		for (k = 0; k < nreps; k++)
			if (!jc_exclusive(s->ev[j].ctx, reps[k]->ctx))
				break;
		o = k < nreps ? NULL : sc_group_frequency(s, e, &s->ev[j], in);
		if (!o || strcmp(o, r)) {
			free(r);
			r = NULL;
		}
		free(o);
		reps[nreps++] = &s->ev[j];
	}
	free(reps);
	free(in);
	return r;
}

/* The frequency text of e's row: its own, or the sum over the paths that
 * reach its line (sc_paths_frequency), or ×? when that sum is not known. */
static char *sc_row_frequency(struct sc *s, const struct sched_ev *e)
{
	char *freq = NULL;

	if (sc_other_path(s, e))
		freq = sc_paths_frequency(s, e);
	if (!freq) {
		s->calls = sc_other_path(s, e) ? -1 : sc_calls(s, e);
		s->inner = e->in_forward ? sc_fwd_runs(s, e, &s->inner_why) : 1;
		freq = sc_frequency(s, e);
	}
	s->calls = 0;
	s->inner = 1;
	s->inner_why = NULL;
	return freq;
}

/* A host-device row's condition: a job that chose its device at run time
 * (interp/devchoice.c: "cuda" if torch.cuda.is_available() else "cpu")
 * copies and reads device tensors only when that choice is the GPU, so
 * its condition comes first, then the row's paths' own (pc, or NULL). */
static void sc_add_row_condition(struct sc *s, cJSON *h, const char *pc)
{
	const char *g = interp_gpu_condition(s->in);
	char *t;

	if (!g || (pc && strstr(pc, g))) {
		add_str_or_null(h, "condition", pc);
		return;
	}
	if (!pc) {
		cJSON_AddStringToObject(h, "condition", g);
		return;
	}
	t = xasprintf(strstr(pc, " or ") ? "%s and (%s)" : "%s and %s", g, pc);
	cJSON_AddStringToObject(h, "condition", t);
	free(t);
}

/* One row per line: e's pinned state, or not known (-1) where two copies
 * at its line are known to differ -- one from pinned memory, one not (a
 * comprehension copying a pinned loader's batches and tensors made on the
 * host: mixeditems.c reads each item). */
static int sc_line_pinned(const struct sc *s, const struct sched_ev *e)
{
	size_t j;

	if (e->pinned != 0 && e->pinned != 1)
		return e->pinned;
	for (j = 0; j < s->nev; j++)
		if (s->ev[j].kind == SEV_H2D && (s->ev[j].pinned == 0 || s->ev[j].pinned == 1) &&
		    s->ev[j].pinned != e->pinned && !strcmp(s->ev[j].anchor, e->anchor))
			return -1;
	return e->pinned;
}

static void sc_host_device(struct sc *s, cJSON *hd)
{
	size_t i, j;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		const char *kind = e->kind == SEV_SYNC ? "sync" : e->kind == SEV_H2D ? "h2d" : e->kind == SEV_D2H ? "d2h" : NULL;
		cJSON *h;
		char *freq;
		int skip = 0;

		if (!kind)
			continue;
		if (sc_seen(hd, "anchor", e->anchor, "kind", kind))
			continue;
		/* the same line again, more often: report that one */
		for (j = i + 1; j < s->nev && !skip; j++)
			if (s->ev[j].kind == e->kind && !strcmp(s->ev[j].anchor, e->anchor) && sc_more_often(s, &s->ev[j], e))
				skip = 1;
		if (skip)
			continue;
		h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "kind", kind);
		cJSON_AddStringToObject(h, "call", e->call);
		cJSON_AddStringToObject(h, "anchor", e->anchor);
		add_tri(h, "pinned", e->kind == SEV_H2D ? sc_line_pinned(s, e) : -1);
		add_tri(h, "non_blocking", e->kind == SEV_SYNC ? -1 : e->non_blocking);
		cJSON_AddStringToObject(h, "phase", sc_phase(s, e));
		freq = sc_row_frequency(s, e);
		cJSON_AddStringToObject(h, "frequency", freq);
		free(freq);
		sc_add_row_condition(s, h, sc_paths_condition(s, e, 1, sc_same_line));
		cJSON_AddItemToArray(hd, h);
	}
}

static cJSON *sc_coll(const char *op, const char *par, int async, const char *anchor, const char *phase,
                      const char *implied_by, const char *note)
{
	cJSON *c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "op", op);
	if (!strcmp(par, SCHED_PARALLELISM_UNKNOWN)) {
		cJSON_AddNullToObject(c, "parallelism");
		cJSON_AddStringToObject(c, "parallelism_reason",
		                        "a collective over a process group whose name and place say no parallelism "
		                        "(the code does not pin down which one it serves)");
	} else {
		cJSON_AddStringToObject(c, "parallelism", par);
	}
	if (async < 0)
		cJSON_AddStringToObject(c, "async_op", "implicit");
	else
		cJSON_AddBoolToObject(c, "async_op", async);
	cJSON_AddStringToObject(c, "anchor", anchor);
	cJSON_AddStringToObject(c, "phase", phase);
	cJSON_AddNullToObject(c, "condition");
	add_str_or_null(c, "implied_by", implied_by);
	if (note)
		cJSON_AddStringToObject(c, "note", note);
	return c;
}

/* Whether module `m` is `root` or inside it (a fully_shard'ed layer of
 * the model called). */
static int sc_inst_within(const struct vinst *root, const struct vinst *m, int depth)
{
	size_t i;

	if (!root || !m || depth > 32)
		return 0;
	if (root == m)
		return 1;
	for (i = 0; i < root->nchildren; i++)
		if (sc_inst_within(root->children[i].inst, m, depth + 1))
			return 1;
	return 0;
}

/* Whether a repo module registered a tensor with register_buffer (the
 * list module.c keeps; a buffer of None is none, and a list an undecided
 * `if` left not known says nothing). */
static int sc_has_own_buffers(const struct vinst *m)
{
	const value_t *bufs = m->attrs ? vdict_gets(m->attrs, "__ecg_buffers__") : NULL;
	size_t i;

	for (i = 0; bufs && bufs->k == VK_LIST && i < bufs->u.seq->n; i++)
		if (bufs->u.seq->items[i]->k == VK_TENSOR)
			return 1;
	return 0;
}

/* Whether a module holds buffers DDP broadcasts before a forward:
 * BatchNorm running statistics of the catalogue's norm layers, or a
 * tensor a repo module registered with register_buffer (a causal mask).
 * 0 means "not known to have buffers". */
static int sc_has_bn_buffers(const struct vinst *m, int depth)
{
	/* torchvision classes whose every variant has BatchNorm layers (read
	 * as one external module, their children are not built) */
	static const char *const tv_bn[] = {
		"torchvision.models.ResNet", "torchvision.models.DenseNet", "torchvision.models.MobileNetV2",
		"torchvision.models.MobileNetV3", "torchvision.models.EfficientNet", "torchvision.models.RegNet",
		"torchvision.models.ShuffleNetV2", "torchvision.models.MNASNet", "torchvision.models.GoogLeNet",
		"torchvision.models.Inception3", NULL
	};
	size_t i;

	if (!m || depth > 32)
		return 0;
	for (i = 0; m->ext && tv_bn[i]; i++)
		if (!strcmp(m->ext, tv_bn[i]))
			return 1;
	if (sc_has_own_buffers(m))
		return 1;
	if (m->mod == VM_LAYER && m->ext && strstr(m->ext, "BatchNorm")) {
		const value_t *t = m->args ? vdict_gets(m->args, "track_running_stats") : NULL;

		if (!t || (t->k == VK_BOOL && t->u.b))
			return 1;
	}
	for (i = 0; i < m->nchildren; i++)
		if (sc_has_bn_buffers(m->children[i].inst, depth + 1))
			return 1;
	return 0;
}

/* DDP's gradient all-reduce at a backward in the micro-step loop of a job
 * that turns the sync off on micro-steps (model.require_backward_grad_sync
 * = <last micro-step>, or a backward under model.no_sync() in that loop):
 * it runs once a step, on the last micro-step -- the optimizer step
 * outside the micro-step loop, whose frequency it has; NULL otherwise.
 * Its buffer broadcast at a model call in that loop likewise: DDP
 * broadcasts before a forward only after a forward that synced (the last
 * micro-step's), so on the first micro-step of each step. */
static const struct sched_ev *sc_sync_once_per_step(const struct sc *s, const struct sched_ev *w,
                                                   const struct sched_ev *at, const char *op)
{
	const struct sched_ev *opt = NULL;
	int skipped = 0;
	size_t i;

	if (strcmp(w->implied_by, "DistributedDataParallel") ||
	    !((!strcmp(op, "all_reduce") && at->kind == SEV_BACKWARD) ||
	      (!strcmp(op, "broadcast") && at->kind == SEV_MODEL_CALL)) ||
	    !s->micro_loop || !ctx_has(at->ctx, s->micro_loop))
		return NULL;
	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (ctx_has(e->ctx, s->micro_loop) &&
		    (e->kind == SEV_GRAD_SYNC_TOGGLE || (e->kind == SEV_BACKWARD && jc_find(e->ctx, JC_NO_SYNC))))
			skipped = 1;
		if (e->kind == SEV_OPT_STEP && !opt && s->step_loop && ctx_has(e->ctx, s->step_loop) &&
		    !ctx_has(e->ctx, s->micro_loop))
			opt = e;
	}
	return skipped ? opt : NULL;
}

/* One collective a wrapper issues, anchored at event `at` (the backward
 * call, the model call): its phase, the condition `cond` when the wrap
 * does not pin the collective (else the wrapper's condition, else the
 * event's), how often the event runs.  Once per (anchor, op). */
static void sc_wrap_coll_if(struct sc *s, cJSON *dd, const struct sched_ev *w, const struct sched_ev *at,
                            const char *op, const char *phase, const char *note, const char *cond)
{
	cJSON *c;
	char *freq;

	if (!cond)
		cond = sc_condition(s, w->ctx) ? sc_condition_of(s, w, at)
		       : sc_paths_condition(s, at, 0, sc_same_wrap_site);

	if (sc_seen(dd, "anchor", at->anchor, "op", op))
		return;
	c = sc_coll(op, "data", -1, at->anchor, phase, w->implied_by, note);
	if (cond)
		cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(cond));
	if ((!strcmp(op, "all_reduce") || !strcmp(op, "reduce_scatter")) && at->kind == SEV_BACKWARD &&
	    jc_find(at->ctx, JC_ACCUM)) {
		/* a library's accumulation block runs the backward under
		 * no_sync except on the micro-step that ends a step: the
		 * gradient reduction (DDP's all-reduce, FSDP's reduce-scatter)
		 * then only */
		struct jctx end = { .kind = JC_STEP_END, .anchor = at->anchor, .text = "the micro-step that ends a step",
		                    .period = -1, .trips = -1, .up = at->ctx };
		struct sched_ev last = *at;

		last.ctx = &end;
		freq = sc_frequency(s, &last);
	} else {
		freq = sc_frequency(s, sc_sync_once_per_step(s, w, at, op) ? sc_sync_once_per_step(s, w, at, op) : at);
	}
	cJSON_AddStringToObject(c, "frequency", freq);
	free(freq);
	cJSON_AddItemToArray(dd, c);
}

/* DDP's buffer broadcast row at model call `at` of wrap w: its note, the
 * call's condition, and the frequency of `how` (the call itself, or a
 * pass of a loop around it).  The row joins dd. */
static void sc_bcast_row(struct sc *s, cJSON *dd, const struct sched_ev *w, const struct sched_ev *at,
                         const struct sched_ev *how, const char *note)
{
	cJSON *c = sc_coll("broadcast", "data", -1, at->anchor, sc_phase(s, at), w->implied_by, note);
	char *freq;

	if (sc_condition_of(s, w, at))
		cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(sc_condition_of(s, w, at)));
	freq = sc_frequency(s, how);
	cJSON_AddStringToObject(c, "frequency", freq);
	free(freq);
	cJSON_AddItemToArray(dd, c);
}

/* DDP's buffer broadcast at model call `at`, made under no_grad in an
 * evaluation loop: DDP broadcasts before a forward that follows one that
 * synced gradients (or before the first forward of all), and a forward
 * without gradients turns that off -- so the first forward of each pass
 * of the loop broadcasts and the others do not.  Its frequency is that of
 * the statement of the outermost loop around it below the step loop (a
 * `for split in ...` or `for each validation set` around the batches: the
 * first forward of each pass of that one broadcasts).  Only for a call of
 * the value the wrapper returned (not model.module, nor the model bound
 * before the wrap, whose forward skips DDP's), and only when each pass is
 * sure to follow a training forward or to be the first: no forward with
 * gradients of the model inside those loops, a training forward
 * elsewhere, and no other loop of no-gradient forwards of it. */
static void sc_eval_bcast(struct sc *s, cJSON *dd, const struct sched_ev *w, const struct sched_ev *at)
{
	const struct jctx *l = ctx_innermost_loop(at->ctx), *up, *top;
	struct sched_ev pass;
	int trains = 0;
	size_t j;

	if (!at->via_wrapper || !l || !s->step_loop || ctx_same(l, s->step_loop) || ctx_has(s->step_loop, l) ||
	    (s->micro_loop && ctx_same(l, s->micro_loop)) || sc_seen(dd, "anchor", at->anchor, "op", "broadcast"))
		return;
	/* the loops around the evaluation's own loop up to the step loop
	 * (`for split in ["train", "val"]:` around `for k in
	 * range(eval_iters)`): only the first forward of a pass of the
	 * outermost of them broadcasts, the others find the flag off */
	top = l;
	for (up = ctx_innermost_loop(l->up); up; up = ctx_innermost_loop(up->up)) {
		if (ctx_same(up, s->step_loop) || ctx_has(s->step_loop, up))
			break;
		top = up;
	}
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *e = &s->ev[j];

		/* the forwards of the module inside (model.module) leave DDP's
		 * flag as it was */
		if (e->kind != SEV_MODEL_CALL || e->model != w->model || !e->via_wrapper)
			continue;
		if (!jc_find(e->ctx, JC_NO_GRAD)) {
			if (ctx_has(e->ctx, top))
				return;
			trains = 1;
		} else if (!ctx_same(ctx_innermost_loop(e->ctx), l)) {
			return;
		}
	}
	if (!trains)
		return;
	pass = *at;
	pass.ctx = top->up;
	pass.in_forward = 0;
	sc_bcast_row(s, dd, w, at, &pass,
	             "buffers from rank 0 before the first forward of each pass of the loop (broadcast_buffers): "
	             "the forward without gradients turns the next broadcast off");
}

/* Is training forward e in the step loop's own body on every pass --
 * no loop of its own, no condition, no periodic guard, no no_sync or
 * accumulation block between it and the step loop? */
static int sc_every_step_body(const struct sc *s, const struct sched_ev *e)
{
	static const enum jctx_kind breaks[] = { JC_COND, JC_GUARD, JC_NO_SYNC, JC_ONCE, JC_ACCUM, JC_REPEAT };
	const struct jctx *c;
	size_t k;

	if (!ctx_same(ctx_innermost_loop(e->ctx), s->step_loop))
		return 0;
	for (c = e->ctx; c && !ctx_same(c, s->step_loop); c = c->up)
		for (k = 0; k < sizeof breaks / sizeof *breaks; k++)
			if (c->kind == breaks[k])
				return 0;
	return 1;
}

/* DDP's buffer broadcast at model call `at`, made under no_grad in the
 * step loop's own body (no loop of its own: a sample reconstructed every
 * N steps between training steps): DDP broadcasts before a forward that
 * follows one that synced gradients, and the step's training forward
 * always precedes this one (earlier in the pass, or in the pass before;
 * before the first, DDP's flag starts on) -- so it broadcasts each time
 * it runs, under its own condition and period.  Only when every other
 * forward of the wrapper inside the step loop is a training forward run
 * on every pass (sc_every_step_body), there is one at least, and the
 * job has no micro-step loop and never toggles the gradient sync. */
static void sc_step_nograd_bcast(struct sc *s, cJSON *dd, const struct sched_ev *w, const struct sched_ev *at)
{
	int trains = 0;
	size_t j;

	if (!at->via_wrapper || !at->anchor || !s->step_loop || s->micro_loop ||
	    !ctx_same(ctx_innermost_loop(at->ctx), s->step_loop) || sc_seen(dd, "anchor", at->anchor, "op", "broadcast"))
		return;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *e = &s->ev[j];

		if (e->kind == SEV_GRAD_SYNC_TOGGLE)
			return;
		if (e->kind != SEV_MODEL_CALL || e->model != w->model || !e->via_wrapper || !ctx_has(e->ctx, s->step_loop) ||
		    (e->anchor && !strcmp(e->anchor, at->anchor)))
			continue;
		if (jc_find(e->ctx, JC_NO_GRAD) || !sc_every_step_body(s, e))
			return;
		trains = 1;
	}
	if (!trains)
		return;
	sc_bcast_row(s, dd, w, at, at,
	             "buffers from rank 0 before this forward without gradients (broadcast_buffers): the step's "
	             "training forward before it synced, and this one turns the next broadcast off");
}

/* DDP's buffer broadcast at model call `at` (event index j), made under
 * no_grad: DDP's flag starts on, so the first forward of all broadcasts
 * whatever its gradient mode (a start-up forward that counts FLOPs or
 * checks shapes) -- once.  Only for a call of the value the wrapper
 * returned that no other such call precedes after the wrap (wi); a later
 * forward finds the flag as that one left it.  Inside loops (a start-up
 * timing of 33 forwards without gradients: pycls's compute_time_eval),
 * only when every forward of the wrapper in the outermost loop around it
 * is made without gradients: the first pass broadcasts, the others find
 * the flag off -- once, at the level of that loop's statement. */
static void sc_first_bcast(struct sc *s, cJSON *dd, size_t wi, size_t j)
{
	const struct sched_ev *w = &s->ev[wi], *at = &s->ev[j];
	const struct jctx *top = NULL, *l;
	struct sched_ev once;
	size_t k;

	if (!at->via_wrapper || sc_seen(dd, "anchor", at->anchor, "op", "broadcast"))
		return;
	for (k = wi + 1; k < j; k++)
		if (s->ev[k].kind == SEV_MODEL_CALL && s->ev[k].model == w->model && s->ev[k].via_wrapper)
			return;
	for (l = ctx_innermost_loop(at->ctx); l; l = ctx_innermost_loop(l->up))
		top = l;
	for (k = 0; top && k < s->nev; k++)
		if (s->ev[k].kind == SEV_MODEL_CALL && s->ev[k].model == w->model && s->ev[k].via_wrapper &&
		    ctx_has(s->ev[k].ctx, top) && !jc_find(s->ev[k].ctx, JC_NO_GRAD))
			return;
	once = *at;
	if (top) {
		once.ctx = top->up;
		once.in_forward = 0;
	}
	sc_bcast_row(s, dd, w, at, &once,
	             "buffers from rank 0 before the first forward of all (broadcast_buffers; DDP's flag starts on): "
	             "this forward without gradients then turns the next broadcast off");
}

static void sc_wrap_coll(struct sc *s, cJSON *dd, const struct sched_ev *w, const struct sched_ev *at,
                         const char *op, const char *phase, const char *note)
{
	sc_wrap_coll_if(s, dd, w, at, op, phase, note, NULL);
}

/* The condition of FSDP's backward all-gather when the wrap's sharding
 * strategy is not known. */
static const char FSDP_REGATHER_IF[] = "the FSDP sharding strategy reshards parameters after forward "
                                       "(FULL_SHARD, HYBRID_SHARD): the wrap's strategy is not known";

/* What an FSDP wrap's sharding does between forward and backward
 * (interp.h wrap_sharding; fully_shard's root unit below). */
static const char *sc_fsdp_sharding(const struct sc *s, const struct sched_ev *w)
{
	size_t j;

	/* fully_shard's root unit with reshard_after_forward= not given:
	 * FSDP2's lazy init keeps the root's parameters unsharded from
	 * forward to backward (catalog fsdp_sharding "fully_shard root").
	 * The root is the unit no other fully_shard wrap of the job holds;
	 * a module not known is never taken for it. */
	if (strcmp(w->implied_by, "fully_shard") || !w->model ||
	    (w->detail && vdict_gets(w->detail, "reshard_after_forward")))
		return wrap_sharding(interp_catalog(s->in), w);
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *v = &s->ev[j];

		if (v->kind != SEV_WRAP || !v->implied_by || strcmp(v->implied_by, "fully_shard"))
			continue;
		if (!v->model || (v->model != w->model && sc_inst_within(v->model, w->model, 0)))
			return wrap_sharding(interp_catalog(s->in), w);
	}
	return catalog_fact(interp_catalog(s->in), CATALOG_F_FSDP_SHARDING, "fully_shard root");
}

/* Was m's forward first read where a method of holder's own class calls
 * it (the anchor `file:Holder.forward:96`), not from job code? */
static int sc_called_in_holder(const struct vinst *holder, const struct vinst *m)
{
	const char *a = interp_call_anchor(m), *q = holder->cls ? holder->cls->qualname : NULL, *p;
	size_t n = q ? strlen(q) : 0;

	if (!a || !n)
		return 0;
	for (p = strchr(a, ':'); p; p = strchr(p + 1, ':'))
		if (!strncmp(p + 1, q, n) && p[1 + n] == '.')
			return 1;
	return 0;
}

/* The collectives a DDP or FSDP wrapper issues, where they happen: DDP's
 * gradient all-reduce at each backward call after the wrap (not under
 * no_sync), its buffer broadcast at each model call with gradients when
 * the model has BatchNorm statistics and broadcast_buffers is not off;
 * FSDP's all-gather at each call of the model (or of a model holding the
 * sharded unit) and all-gather + reduce-scatter at each backward.  The
 * number of rows made (0: none of those calls seen). */
static size_t sc_wrap_anchored(struct sc *s, cJSON *dd, size_t wi)
{
	const struct sched_ev *w = &s->ev[wi];
	int ddp = !strcmp(w->implied_by, "DistributedDataParallel");
	/* a DeepSpeed engine at ZeRO stage 0: DDP's all-reduce, after the
	 * backward -- not a pipeline engine's, whose schedule reduces once a
	 * step itself (its own event, interp/dspipe.c) */
	int ds0 = !strcmp(w->implied_by, "deepspeed.initialize") && interp_ds_zero_stage(w->detail) == 0 &&
	          !interp_ds_pipeline(w->model);
	int fsdp = !strcmp(w->implied_by, "fully_shard") || !strcmp(w->implied_by, "FullyShardedDataParallel");
	int bcast = 0;
	const char *sharding = fsdp ? sc_fsdp_sharding(s, w) : NULL;
	const char *regather_if = fsdp && !sharding ? FSDP_REGATHER_IF : NULL;
	int unsharded = sharding && !strcmp(sharding, "unsharded");
	size_t j, n = 0;
	int skipping = 0;

	if (unsharded)
		fsdp = 0;           /* NO_SHARD: DDP's gradient all-reduce, no all-gather */
	/* a backward that skips the gradient sync (no_sync, a library's
	 * accumulation block): FSDP keeps the gradients unsharded then, and
	 * a strategy that does not reshard after forward keeps the
	 * parameters gathered to the next forward -- whose all-gather then
	 * runs only after a synced step (not stated) */
	for (j = wi + 1; fsdp && j < s->nev; j++)
		if (s->ev[j].kind == SEV_BACKWARD && (jc_find(s->ev[j].ctx, JC_NO_SYNC) || jc_find(s->ev[j].ctx, JC_ACCUM)))
			skipping = 1;

	if (ddp && w->model && sc_has_bn_buffers(w->model, 0)) {
		const value_t *bb = w->detail ? vdict_gets(w->detail, "broadcast_buffers") : NULL;

		bcast = !bb || (bb->k == VK_BOOL && bb->u.b);
	}
	for (j = wi + 1; j < s->nev; j++) {
		const struct sched_ev *e = &s->ev[j];

		/* a line reached again later, more often: that one is the row */
		if ((e->kind == SEV_BACKWARD || e->kind == SEV_MODEL_CALL) && sc_later_more_often(s, j))
			continue;
		if (e->kind == SEV_BACKWARD && !e->in_forward && e->anchor) {
			if ((ddp || unsharded || ds0) && !jc_find(e->ctx, JC_NO_SYNC)) {
				/* an engine reduces at an accumulation boundary only */
				sc_wrap_coll_if(s, dd, w, e, "all_reduce", "backward",
				                ds0 ? "gradients, in flattened buckets after the backward (ZeRO stage 0)"
				                    : "gradients, in buckets, as backward produces them",
				                ds0 && interp_ds_gas_one(s->in, w->detail) != 1 ? DS_BOUNDARY_IF : NULL);
				n++;
			} else if (fsdp) {
				if (!sharding || !strcmp(sharding, "regather"))
					sc_wrap_coll_if(s, dd, w, e, "all_gather", "backward",
					                "parameters again before each unit's backward", regather_if);
				/* under no_sync no reduce-scatter; under an
				 * accumulation block on the step's last micro-step */
				if (!jc_find(e->ctx, JC_NO_SYNC))
					sc_wrap_coll(s, dd, w, e, "reduce_scatter", "backward",
					             "gradients after each unit's backward");
				n++;
			} else if (ddp || unsharded || ds0) {
				n++;        /* seen, under no_sync: it reduces nothing */
			}
		} else if (e->kind == SEV_MODEL_CALL && e->anchor && w->model && e->model &&
		           sc_inst_within(e->model, w->model, 0)) {
			if (fsdp) {
				/* an evaluation's forward (not one of every step,
				 * a teacher's under no_grad) gathers as well: its
				 * phase */
				if (!skipping || (sharding && !strcmp(sharding, "regather")))
					sc_wrap_coll(s, dd, w, e, "all_gather",
					             !strcmp(sc_phase(s, e), "eval") && sc_rank(s, e) < 3 ? "eval" : "forward",
					             "parameters of each sharded unit before its forward");
				n++;
			} else if (bcast && e->model == w->model && !jc_find(e->ctx, JC_NO_GRAD)) {
				sc_wrap_coll(s, dd, w, e, "broadcast", "forward", "buffers from rank 0 before each forward with gradients (broadcast_buffers)");
			} else if (bcast && e->model == w->model) {
				sc_eval_bcast(s, dd, w, e);
				sc_first_bcast(s, dd, wi, j);
				sc_step_nograd_bcast(s, dd, w, e);
			} else if (bcast && !jc_find(e->ctx, JC_NO_GRAD) && e->model != w->model &&
			           sc_called_in_holder(e->model, w->model)) {
				/* the job calls a module holding the DDP-wrapped one (a
				 * task wrapper whose forward calls self.model): DDP's
				 * broadcast runs where that forward calls it, each
				 * time the job calls the holder with gradients */
				struct sched_ev in_fwd = *e;

				in_fwd.anchor = interp_grad_call_anchor(w->model);
				sc_wrap_coll(s, dd, w, &in_fwd, "broadcast", "forward",
				             "buffers from rank 0 before each forward with gradients (broadcast_buffers), "
				             "where the module holding the wrapped model calls it");
			}
		}
	}
	return n;
}

/* FSDP's collectives anchored at the wrap `w` itself, when neither a call
 * of the model nor a backward was seen after it: as sc_wrap_anchored
 * makes them, by the wrap's sharding. */
static void sc_fsdp_at_wrap(struct sc *s, cJSON *dd, const struct sched_ev *w)
{
	const char *sharding = sc_fsdp_sharding(s, w);

	if (sharding && !strcmp(sharding, "unsharded")) {
		cJSON_AddItemToArray(dd, sc_coll("all_reduce", "data", -1, w->anchor, "backward", w->implied_by,
		                                 "gradients, in buckets, as backward produces them (NO_SHARD)"));
		return;
	}
	cJSON_AddItemToArray(dd, sc_coll("all_gather", "data", -1, w->anchor, "forward", w->implied_by,
	                                 "parameters of each sharded unit before its forward"));
	if (!sharding || !strcmp(sharding, "regather")) {
		cJSON *c = sc_coll("all_gather", "data", -1, w->anchor, "backward", w->implied_by,
		                   "parameters again before each unit's backward");

		if (!sharding)
			cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(FSDP_REGATHER_IF));
		cJSON_AddItemToArray(dd, c);
	}
	cJSON_AddItemToArray(dd, sc_coll("reduce_scatter", "data", -1, w->anchor, "backward", w->implied_by,
	                                 "gradients after each unit's backward"));
}

/* The broadcast of rank 0's states a wrapper makes when it is built (DDP,
 * a DeepSpeed engine): a startup row at the wrap w, with w's frequency and
 * the condition of its path. */
static void sc_wrap_startup_bcast(struct sc *s, cJSON *dd, const struct sched_ev *w, const char *note)
{
	cJSON *c = sc_coll("broadcast", "data", -1, w->anchor, "startup", w->implied_by, note);
	char *freq = sc_frequency(s, w);

	cJSON_AddStringToObject(c, "frequency", freq);
	free(freq);
	if (sc_condition(s, w->ctx))
		cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(sc_condition(s, w->ctx)));
	cJSON_AddItemToArray(dd, c);
}

/* A wrapper that broadcasts rank 0's module states when it wraps, by the
 * keyword the catalogue names for it (wrapper_broadcasts: FSDP1's
 * sync_module_states): a startup broadcast at the wrap when the keyword is
 * True, with a condition when its value is not known, none when it is
 * absent or false. */
static void sc_wrap_broadcast(struct sc *s, cJSON *dd, const struct sched_ev *w)
{
	const char *kw = catalog_fact(interp_catalog(s->in), CATALOG_F_WRAPPER_BROADCASTS, w->implied_by);
	const value_t *v = kw && w->detail ? vdict_gets(w->detail, kw) : NULL;
	const char *cond = sc_condition(s, w->ctx);
	int on = v ? value_truth(v) : 0;
	char *freq, *both = NULL;
	cJSON *c;

	if (on == 0 || sc_seen(dd, "anchor", w->anchor, "op", "broadcast"))
		return;
	c = sc_coll("broadcast", "data", -1, w->anchor, "startup", w->implied_by,
	            "parameters and buffers from rank 0 when the wrapper is built");
	if (on < 0) {
		both = xasprintf("%s%s%s is true (its value is not known)", cond ? cond : "", cond ? " and " : "", kw);
		cond = both;
	}
	freq = sc_frequency(s, w);
	cJSON_AddStringToObject(c, "frequency", freq);
	free(freq);
	if (cond)
		cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(cond));
	free(both);
	cJSON_AddItemToArray(dd, c);
}

/* Does e run on every step, whatever happens: in the step loop, under no
 * condition? */
static int sc_every_step(struct sc *s, const struct sched_ev *e)
{
	return s->step_loop && ctx_has(e->ctx, s->step_loop) && !sc_condition(s, e->ctx);
}

/* The collective event that stands for the row of ev[i]'s anchor and op:
 * the first, unless it is job code that does not run on every step (a
 * forced synchronous path at a checkpoint save, an evaluation, the end of
 * training) and the forward of the step's model call issues the same
 * call (a forward hook's asynchronous gather): that one, which runs each
 * step. */
static const struct sched_ev *sc_coll_row_event(struct sc *s, size_t i)
{
	const struct sched_ev *e = &s->ev[i];
	size_t j;

	/* a helper the model's backward calls (a library's all-reduce of
	 * the input gradient, `if ctx.parallel_mode == "column"`) that the
	 * model's forward calls too (the row-parallel layer's output), under
	 * no condition or under one when the backward's is too: the
	 * forward's, whose row's condition is not a restriction the call has
	 * not (one row for an anchor and op: the forward's, read first) */
	if (e->in_backward && e->op && e->anchor)
		for (j = i + 1; j < s->nev; j++) {
			const struct sched_ev *x = &s->ev[j];

			if (x->kind == SEV_COLLECTIVE && x->in_forward && !x->in_backward && x->op && x->anchor &&
			    !strcmp(x->op, e->op) && !strcmp(x->anchor, e->anchor) &&
			    (!sc_condition(s, x->ctx) || sc_condition(s, e->ctx)))
				return x;
		}
	if (e->in_forward || !s->step_call || sc_every_step(s, e))
		return e;
	for (j = i + 1; j < s->nev; j++) {
		const struct sched_ev *x = &s->ev[j];

		if (x->kind == SEV_COLLECTIVE && x->in_forward && !x->in_backward && x->op && e->op &&
		    !strcmp(x->op, e->op) && x->anchor && e->anchor && !strcmp(x->anchor, e->anchor))
			return x;
	}
	return e;
}

/* The number of undecided conditions an event was made under. */
static int sc_conds(const struct jctx *c)
{
	int n = 0;

	for (; c; c = c->up)
		n += c->kind == JC_COND;
	return n;
}

/* A compile region a forward makes under one undecided condition, which
 * another event of the same region makes under that condition's negation
 * (a kernel both the flash path and the other one call): compiled on
 * either path, so unconditionally.  1 or 0.  Never fails. */
static int sc_compiled_both_paths(const struct sc *s, const struct sched_ev *e)
{
	size_t k;

	if (sc_conds(e->ctx) != 1)
		return 0;
	for (k = 0; k < s->nev; k++) {
		const struct sched_ev *x = &s->ev[k];

		if (x != e && x->kind == SEV_COMPILE && x->in_forward && !strcmp(x->anchor, e->anchor) &&
		    sc_conds(x->ctx) == 1 && jc_exclusive(e->ctx, x->ctx))
			return 1;
	}
	return 0;
}

/* A tensor-parallel plan's reduce-scatters in the forward (interp/tplan.c:
 * a Partial output redistributed to Shard) are transposed in backward:
 * the sharded gradient is all-gathered to the Replicate the Partial input
 * gets -- stated at each backward call of the step, where DDP's
 * all-reduce is anchored.  The forward's all-gathers and all-reduces
 * transpose to local steps: nothing. */
static void sc_tp_backward(struct sc *s, cJSON *dd)
{
	size_t i, j;

	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_COLLECTIVE && s->ev[i].in_forward && s->ev[i].implied_by && s->ev[i].op &&
		    !strcmp(s->ev[i].implied_by, "parallelize_module") && !strcmp(s->ev[i].op, "reduce_scatter"))
			break;
	if (i == s->nev || !s->step_loop)
		return;
	for (j = 0; j < s->nev; j++) {
		const struct sched_ev *b = &s->ev[j];
		const char *cond;
		cJSON *c;
		char *freq;

		if (b->kind != SEV_BACKWARD || b->in_forward || !b->anchor || !ctx_has(b->ctx, s->step_loop) ||
		    sc_seen(dd, "anchor", b->anchor, "op", "all_gather"))
			continue;
		c = sc_coll("all_gather", "tensor", -1, b->anchor, "backward", "parallelize_module",
		            "the gradients of the forward's tensor-parallel reduce-scatters, all-gathered");
		if ((cond = sc_condition(s, b->ctx)))
			cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(cond));
		freq = sc_frequency(s, b);
		cJSON_AddStringToObject(c, "frequency", freq);
		free(freq);
		cJSON_AddItemToArray(dd, c);
	}
}

static void sc_device_device(struct sc *s, cJSON *dd, cJSON *overlap)
{
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind == SEV_COLLECTIVE) {
			cJSON *c;

			if (sc_seen(dd, "anchor", e->anchor, "op", e->op) || sc_later_more_often(s, i))
				continue;
			e = sc_coll_row_event(s, i);
			/* state_dict()'s gather, when the job may have chosen
			 * another state-dict type before it */
			if (e->target && !strcmp(e->target, "state_dict") && interp_state_dict_type_set(s->in))
				continue;
			c = sc_coll(e->op, e->parallelism ? e->parallelism : "data", e->async_op, e->anchor,
			            sc_phase(s, e), e->implied_by, NULL);
			{
				/* a helper's collective called from N places of one
				 * pass (top1.all_reduce(), top5.all_reduce()) runs N
				 * times, as a host read there does */
				char *freq;

				freq = sc_row_frequency(s, e);   /* in each block's forward too */
				cJSON_AddStringToObject(c, "frequency", freq);
				free(freq);
			}
			if (e->detail_text && sc_condition(s, e->ctx)) {
				/* what the event itself leaves open (a wrapper method's
				 * sharding), with the path's condition */
				char *both = xasprintf("%s and %s", sc_condition(s, e->ctx), e->detail_text);

				cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", cJSON_CreateString(both));
				free(both);
			} else {
				const char *pc = sc_paths_condition(s, e, 0, sc_same_collective);

				cJSON_ReplaceItemInObjectCaseSensitive(c, "condition", pc ? cJSON_CreateString(pc)
				                                       : !sc_condition(s, e->ctx) && e->detail_text
				                                       ? cJSON_CreateString(e->detail_text)
				                                       : cJSON_CreateNull());
			}
			cJSON_AddItemToArray(dd, c);
			if (e->async_op == 1) {
				cJSON *o = cJSON_CreateObject();

				cJSON_AddStringToObject(o, "what", e->op);
				cJSON_AddStringToObject(o, "with", "the work issued before its wait()");
				cJSON_AddStringToObject(o, "stream", "the process group's communication stream");
				cJSON_AddStringToObject(o, "mechanism", "async_op=True");
				cJSON_AddStringToObject(o, "anchor", e->anchor);
				cJSON_AddItemToArray(overlap, o);
			}
		} else if (e->kind == SEV_WRAP && e->implied_by && !sc_seen(dd, "anchor", e->anchor, "implied_by", e->implied_by)) {
			if (!strcmp(e->implied_by, "DistributedDataParallel")) {
				cJSON *o;

				sc_wrap_startup_bcast(s, dd, e, "module states from rank 0 when the wrapper is built");
				/* the gradient all-reduce where backward runs; at the
				 * wrap only when no backward call was seen (and the
				 * model is one ecg built: of a library's model whose
				 * training ecg does not see, nothing says where) */
				if (!sc_wrap_anchored(s, dd, i) && e->model) {
					cJSON_AddItemToArray(dd, sc_coll("all_reduce", "data", -1, e->anchor, "backward", e->implied_by,
					                                 "gradients, in buckets, as backward produces them"));
					if (sc_condition(s, e->ctx))
						cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetArrayItem(dd, cJSON_GetArraySize(dd) - 1),
						                                       "condition", cJSON_CreateString(sc_condition(s, e->ctx)));
				}
				o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "what", "gradient all-reduce (DDP buckets)");
				cJSON_AddStringToObject(o, "with", "backward");
				cJSON_AddStringToObject(o, "stream", "NCCL communication stream");
				cJSON_AddStringToObject(o, "mechanism", "DistributedDataParallel gradient bucketing");
				cJSON_AddStringToObject(o, "anchor", e->anchor);
				cJSON_AddItemToArray(overlap, o);
			} else if (!strcmp(e->implied_by, "deepspeed.initialize")) {
				/* a DeepSpeed engine: what its configuration pins
				 * (interp/dsengine.c).  Rank 0's parameters broadcast
				 * when it is built; at ZeRO stage 0 the gradients
				 * all-reduced after each backward.  ZeRO 1/2's
				 * reductions and gathers are the engine's own events
				 * (dsengine.c, at its backward and step); stage 3, or
				 * a stage the code does not pin: no row */
				int st = interp_ds_zero_stage(e->detail);

				if (st >= 0 && interp_ds_broadcasts(e->detail))
					sc_wrap_startup_bcast(s, dd, e, "every parameter from rank 0 when the engine is built");
				if (st == 0 && !interp_ds_pipeline(e->model) && !sc_wrap_anchored(s, dd, i) && e->model)
					cJSON_AddItemToArray(dd, sc_coll("all_reduce", "data", -1, e->anchor, "backward", e->implied_by,
					                                 "gradients, in flattened buckets after the backward (ZeRO stage 0)"));
			} else {
				/* where the model is called and backward runs; at the
				 * wrap only when neither was seen */
				if (!sc_wrap_anchored(s, dd, i))
					sc_fsdp_at_wrap(s, dd, e);
				{
					/* FSDP gathers the next unit's parameters while the
					 * current one computes (forward and backward prefetch) */
					cJSON *o = cJSON_CreateObject();

					cJSON_AddStringToObject(o, "what", "all-gather of the next sharded unit's parameters");
					cJSON_AddStringToObject(o, "with", "the current unit's forward or backward");
					cJSON_AddStringToObject(o, "stream", "NCCL communication stream");
					cJSON_AddStringToObject(o, "mechanism", "FSDP prefetch");
					cJSON_AddStringToObject(o, "anchor", e->anchor);
					cJSON_AddItemToArray(overlap, o);
				}
			}
		}
	}
	/* after the rest: a wrap's rows above are read once per anchor,
	 * and a broadcast row there must not hide a later wrap of it */
	for (i = 0; i < s->nev; i++)
		if (s->ev[i].kind == SEV_WRAP && s->ev[i].implied_by)
			sc_wrap_broadcast(s, dd, &s->ev[i]);
	sc_tp_backward(s, dd);
}

static void sc_compute(struct sc *s, cJSON *compute, cJSON *overlap)
{
	size_t i;
	const struct sched_ev *bwd = NULL, *opt = NULL;
	int sync_toggled = 0;
	cJSON *regions = cJSON_GetObjectItemCaseSensitive(compute, "compile_regions");
	cJSON *ckpt = cJSON_GetObjectItemCaseSensitive(compute, "activation_checkpointing");

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];

		if (e->kind == SEV_EMA && !cJSON_GetObjectItemCaseSensitive(compute, "ema")) {
			/* an EMA of the weights: its own kernels after the step */
			cJSON *m = cJSON_AddObjectToObject(compute, "ema");

			cJSON_AddStringToObject(m, "anchor", e->anchor);
			cJSON_AddStringToObject(m, "call", e->call);
			cJSON_AddStringToObject(m, "phase", sc_phase(s, e));
		}
		if (e->kind == SEV_BACKWARD && !bwd)
			bwd = sc_step_backward(s);
		if (e->kind == SEV_OPT_STEP && !opt)
			opt = e;
		if (e->kind == SEV_GRAD_SYNC_TOGGLE || (jc_find(e->ctx, JC_NO_SYNC) && e->kind == SEV_BACKWARD))
			sync_toggled = 1;
		if (e->kind == SEV_CHECKPOINT_ACT) {
			cJSON *c = cJSON_CreateObject();

			add_str_or_null(c, "target", e->target);
			cJSON_AddStringToObject(c, "anchor", e->anchor);
			cJSON_AddStringToObject(c, "call", e->call);
			add_str_or_null(c, "policy", e->detail_text);
			cJSON_AddItemToArray(ckpt, c);
		}
		/* a region a forward compiles on one path of an undecided
		 * `if` in it (a kernel of the flash path when the dtype is not
		 * known): a region has no condition to say so -- left out,
		 * unless the other path compiles it too */
		if (e->kind == SEV_COMPILE && e->in_forward && jc_find(e->ctx, JC_COND) && !sc_compiled_both_paths(s, e))
			continue;
		/* (a forward's region once, however many paths compile it) */
		if (e->kind == SEV_COMPILE && e->in_forward && sc_seen(regions, "anchor", e->anchor, NULL, NULL))
			continue;
		if (e->kind == SEV_COMPILE) {
			cJSON *c = cJSON_CreateObject(), *gb;
			size_t k;

			cJSON_AddStringToObject(c, "target", e->target ? e->target : "");
			cJSON_AddStringToObject(c, "anchor", e->anchor);
			add_str_or_null(c, "mode", e->op);
			gb = cJSON_AddArrayToObject(c, "graph_breaks");
			/* a sync inside the compiled model's forward breaks the graph */
			if (e->model) {
				for (k = 0; k < s->nev; k++) {
					const struct sched_ev *x = &s->ev[k];
					cJSON *b;

					if (!x->in_forward || x->kind != SEV_SYNC || sc_seen(gb, "anchor", x->anchor, NULL, NULL))
						continue;
					b = cJSON_CreateObject();
					cJSON_AddStringToObject(b, "anchor", x->anchor);
					cJSON_AddItemToObject(b, "reason", cJSON_CreateString(x->call));
					cJSON_AddItemToArray(gb, b);
				}
			}
			cJSON_AddItemToArray(regions, c);
		}
	}
	if (s->step_call) {
		cJSON *fw = cJSON_CreateObject();

		cJSON_AddStringToObject(fw, "anchor", s->step_call->anchor);
		if (s->step_call->model && interp_forward_anchor(s->in, s->step_call->model))
			cJSON_AddStringToObject(fw, "forward", interp_forward_anchor(s->in, s->step_call->model));
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "forward", fw);
	}
	if (bwd) {
		cJSON *b = cJSON_CreateObject();

		cJSON_AddStringToObject(b, "anchor", bwd->anchor);
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "backward", b);
	}
	if (opt) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "anchor", opt->anchor);
		cJSON_AddStringToObject(o, "call", opt->call);
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "optimizer_step", o);
	}
	if (s->micro_loop) {
		cJSON *g = cJSON_CreateObject();

		if (s->micro_loop->trips > 0)
			cJSON_AddNumberToObject(g, "steps", (double)s->micro_loop->trips);
		else
			cJSON_AddNullToObject(g, "steps");
		cJSON_AddStringToObject(g, "expr", s->micro_loop->period_expr ? s->micro_loop->period_expr : s->micro_loop->text);
		if (sync_toggled)
			cJSON_AddTrueToObject(g, "sync_skipped_on_micro_steps");
		else
			cJSON_AddNullToObject(g, "sync_skipped_on_micro_steps");
		cJSON_AddStringToObject(g, "anchor", s->micro_loop->anchor);
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "grad_accumulation", g);
	}
	if (!s->micro_loop && s->accum) {
		/* a library's accumulation block (accelerate's accumulate(),
		 * which runs the backward under no_sync but on the last) */
		cJSON *g = cJSON_CreateObject();

		if (s->accum->period > 0)
			cJSON_AddNumberToObject(g, "steps", (double)s->accum->period);
		else
			cJSON_AddNullToObject(g, "steps");
		if (s->accum->kind == JC_GUARD) {
			/* the job's own `if (i + 1) % N == 0:` around the
			 * optimizer step: whether the gradients sync on the
			 * other passes is the backward's no_sync, if any */
			cJSON_AddStringToObject(g, "expr", s->accum->period_expr ? s->accum->period_expr : s->accum->text);
			if (sync_toggled)
				cJSON_AddTrueToObject(g, "sync_skipped_on_micro_steps");
			else
				cJSON_AddNullToObject(g, "sync_skipped_on_micro_steps");
		} else {
			cJSON_AddStringToObject(g, "expr", s->accum->text);
			cJSON_AddTrueToObject(g, "sync_skipped_on_micro_steps");
		}
		cJSON_AddStringToObject(g, "anchor", s->accum->anchor);
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "grad_accumulation", g);
	}
	if (s->step_call && jc_find(s->step_call->ctx, JC_AUTOCAST)) {
		const struct jctx *a = jc_find(s->step_call->ctx, JC_AUTOCAST);
		cJSON *ac = cJSON_CreateObject();

		cJSON_AddStringToObject(ac, "anchor", a->anchor);
		cJSON_AddStringToObject(ac, "context", a->text);
		cJSON_ReplaceItemInObjectCaseSensitive(compute, "autocast", ac);
	}
	(void)overlap;
}

/* One entry per overlap: the same mechanism at the same line, found once
 * per wrapped unit (FSDP's per-layer wraps) or per loader built there,
 * is one intended overlap. */
static void sc_unique(cJSON *arr)
{
	cJSON *x = arr ? arr->child : NULL;

	while (x) {
		cJSON *next = x->next, *y;
		int dup = 0;

		for (y = arr->child; y != x && !dup; y = y->next)
			dup = cJSON_Compare(x, y, 1);
		if (dup)
			cJSON_Delete(cJSON_DetachItemViaPointer(arr, x));
		x = next;
	}
}

static void sc_overlap(struct sc *s, cJSON *overlap)
{
	size_t i;

	for (i = 0; i < s->nev; i++) {
		const struct sched_ev *e = &s->ev[i];
		cJSON *o;

		if (e->kind == SEV_LOADER && e->detail) {
			value_t *nw = vdict_gets(e->detail, "num_workers");

			if (!nw || nw->k != VK_INT || nw->u.i <= 0)
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "what", "batch loading and collation in DataLoader worker processes");
			cJSON_AddStringToObject(o, "with", "the step");
			cJSON_AddNullToObject(o, "stream");
			cJSON_AddItemToObject(o, "mechanism", cJSON_CreateString("DataLoader(num_workers > 0)"));
			cJSON_AddStringToObject(o, "anchor", e->anchor);
			cJSON_AddItemToArray(overlap, o);
		} else if (e->kind == SEV_H2D && jc_find(e->ctx, JC_STREAM)) {
			const struct jctx *st = jc_find(e->ctx, JC_STREAM);

			if (sc_seen(overlap, "anchor", e->anchor, NULL, NULL))
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "what", "host-to-device copy issued on a side stream");
			cJSON_AddStringToObject(o, "with", "the compute queued on the default stream");
			cJSON_AddStringToObject(o, "stream", st->text ? st->text : "a side stream");
			cJSON_AddStringToObject(o, "mechanism", e->non_blocking == 1 && e->pinned == 1
			                        ? "torch.cuda.stream(...) + pinned memory + non_blocking=True"
			                        : "torch.cuda.stream(...)");
			cJSON_AddStringToObject(o, "anchor", e->anchor);
			cJSON_AddItemToArray(overlap, o);
		} else if (e->kind == SEV_H2D && e->non_blocking == 1 && e->pinned == 1) {
			if (sc_seen(overlap, "anchor", e->anchor, NULL, NULL))
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "what", "host-to-device copy");
			cJSON_AddStringToObject(o, "with", "compute already queued on the device");
			cJSON_AddStringToObject(o, "stream", "the copy engine (current stream order)");
			cJSON_AddStringToObject(o, "mechanism", "pinned memory + non_blocking=True");
			cJSON_AddStringToObject(o, "anchor", e->anchor);
			cJSON_AddItemToArray(overlap, o);
		}
	}
}

void schedule_emit(struct interp *in, const char *job_type, cJSON *sched)
{
	struct sc s;

	memset(&s, 0, sizeof s);
	s.in = in;
	s.job_type = job_type;
	s.ev = interp_sched(in, &s.nev);
	sc_index_opt(&s);
	sc_find_loops(&s);
	sc_index_step_begin(&s);
	sc_find_generate(&s);
	sc_index_weights(&s);
	sc_index_runs(&s);
	sc_phases(&s, cJSON_GetObjectItemCaseSensitive(sched, "phases"));
	sc_data_path(&s, cJSON_GetObjectItemCaseSensitive(sched, "data_path"));
	sc_host_device(&s, cJSON_GetObjectItemCaseSensitive(sched, "host_device"));
	sc_device_device(&s, cJSON_GetObjectItemCaseSensitive(sched, "device_device"),
	                 cJSON_GetObjectItemCaseSensitive(sched, "overlap"));
	sc_compute(&s, cJSON_GetObjectItemCaseSensitive(sched, "compute"),
	           cJSON_GetObjectItemCaseSensitive(sched, "overlap"));
	sc_overlap(&s, cJSON_GetObjectItemCaseSensitive(sched, "overlap"));
	sc_unique(cJSON_GetObjectItemCaseSensitive(sched, "overlap"));
	free(s.opt_anchors);
	free(s.bwd_anchors);
	free(s.decode);
	free(s.gen);
	free(s.gen_first);
	ptrmap_free(&s.runs);
	ptrmap_free(&s.wruns);
	while (s.npool)
		free(s.pool[--s.npool]);
	free(s.pool);
}

const char *schedule_step_anchor(struct interp *in, const char *job_type)
{
	struct sc s;

	memset(&s, 0, sizeof s);
	s.in = in;
	s.job_type = job_type;
	s.ev = interp_sched(in, &s.nev);
	sc_find_loops(&s);
	free(s.decode);
	return s.step_loop ? s.step_loop->anchor : NULL;
}
