/* interp/budget.c - the analysis' bounds, and the notes that say where it stopped
 *
 * budget() is called once per evaluation step and says whether the run may
 * go on (MAX_STEPS, MAX_ARENA_BYTES); fn_cost()/fn_active() keep what each
 * function has cost and how deep it is running (MAX_FN_STEPS,
 * MAX_SAME_FN).  note() adds one interp_note (deduplicated by anchor and
 * what); the strings must live as long as the interpreter (interned).
 * ECG_TRACE_STEPS=1 counts steps per function (trace_step).
 */
#include "config.h"

#include "internal.h"

void note(struct interp *in, const char *anchor, const char *what, const char *reason)
{
	size_t i;

	for (i = 0; i < in->nnotes; i++)
		if (!strcmp(in->notes[i].anchor, anchor) && !strcmp(in->notes[i].what, what))
			return;
	xgrow((void **)&in->notes, &in->anotes, in->nnotes + 1, sizeof *in->notes);
	in->notes[in->nnotes].anchor = anchor;
	in->notes[in->nnotes].what = what;
	in->notes[in->nnotes].reason = reason;
	in->nnotes++;
}

/* ECG_TRACE_STEPS=1 (a development aid): every 1024th evaluation step is
 * counted against the function running it; the busiest are printed when
 * the interpreter is freed. */
static void trace_step(struct interp *in, struct frame *f)
{
	const char *key = afmt(in, "%s:%s", f->file ? f->file->path : "?", f->qualname ? f->qualname : "<module>");
	size_t i;

	for (i = 0; i < in->nhot; i++)
		if (in->hot[i].key == key) {
			in->hot[i].n++;
			return;
		}
	if (in->nhot < sizeof in->hot / sizeof in->hot[0]) {
		in->hot[in->nhot].key = key;
		in->hot[in->nhot++].n = 1;
	}
}

int budget(struct frame *f)
{
	struct interp *in = f->in;

	if (in->trace_steps && (in->steps & 1023) == 0)
		trace_step(in, f);
	if ((in->steps & 255) == 0 && in->steps < MAX_STEPS && ast_arena_reserved(in->a) > MAX_ARENA_BYTES) {
		in->steps = MAX_STEPS;
		in->budget_noted = 1;
		note(in, f->file->path, "the analysis memory budget",
		     "stopped after its values took 1 GiB; later values are unknown");
	}
	if (++in->steps <= MAX_STEPS)
		return 1;
	if (!in->budget_noted) {
		in->budget_noted = 1;
		note(in, f->file->path, "the analysis step budget",
		     "stopped after " "4000000" " evaluation steps; later values are unknown");
	}
	return 0;
}

int fn_active(struct interp *in, const struct ast_hdr *def)
{
	int i, n = 0;

	for (i = 0; i < in->nactive; i++)
		if (in->active[i].def == def)
			n++;
	return n;
}

/* The evaluation steps spent in a function so far (its outermost calls,
 * callees included), found by its def. */
struct fncost *fn_cost(struct interp *in, const void *def)
{
	size_t i, mask;

	if ((in->nfncost + 1) * 2 > in->capfncost) {
		size_t cap = in->capfncost ? in->capfncost * 2 : 256, k, j;
		struct fncost *t = xcalloc(cap, sizeof *t);

		for (k = 0; k < in->capfncost; k++) {
			if (!in->fncost[k].def)
				continue;
			for (j = ((uintptr_t)in->fncost[k].def >> 4) & (cap - 1); t[j].def; j = (j + 1) & (cap - 1))
				;
			t[j] = in->fncost[k];
		}
		free(in->fncost);
		in->fncost = t;
		in->capfncost = cap;
	}
	mask = in->capfncost - 1;
	for (i = ((uintptr_t)def >> 4) & mask; in->fncost[i].def; i = (i + 1) & mask)
		if (in->fncost[i].def == def)
			return &in->fncost[i];
	in->fncost[i].def = def;
	in->nfncost++;
	return &in->fncost[i];
}
