/* interp/budget.c - the analysis' bounds, and the notes that say where it stopped
 *
 * budget() is called once per evaluation step and says whether the run may
 * go on (MAX_STEPS, MAX_ARENA_BYTES); fn_cost()/fn_active() keep what each
 * function has cost and how deep it is running, site_cost() what its calls
 * from one site of a module's statements have cost (MAX_FN_STEPS,
 * MAX_SAME_FN).  too_big() is asked before a value is built from others
 * (a string, list, tuple or dict): past MAX_STR_BYTES / MAX_ITEMS, or past
 * the memory bound, it gives the unknown that stands for it; charge()
 * counts work proportional to a value's size as evaluation steps, so that
 * the steps bound the time of natives too (`in`, join, copies).  note()
 * adds one interp_note (deduplicated by anchor and what); the strings must
 * live as long as the interpreter (interned).  run_ends() stops the
 * reading where the job itself surely ends, with the note that says why.
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
	GROW(in->notes, in->anotes, in->nnotes + 1);
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

/* Where a bound ran out: the function running (its def), else the loop
 * running at module level, else the node evaluated (when known), else the
 * file -- the code that spent it, which `incomplete` names (cmd_extract.c
 * takes anchors with a line). */
static const char *spent_at(struct frame *f, const struct ast_hdr *node)
{
	if (f->qualname)
		return aanchor(f->in, f->file->path, f->qualname, f->def_line);
	if (f->loop_anchor)
		return f->loop_anchor;
	return node ? anchor_at(f, node) : f->file->path;
}

/* The memory bound reached: the run stops as when its steps run out. */
static void mem_stop(struct frame *f, const struct ast_hdr *node)
{
	struct interp *in = f->in;

	if (in->steps < MAX_STEPS)
		in->steps = MAX_STEPS;
	in->budget_noted = 1;
	note(in, spent_at(f, node), "the analysis memory budget",
	     "stopped after its values took 1 GiB; later values are unknown");
}

/* The job surely ends at site (argparse rejecting its command line): noted
 * with reason, and the reading stops there as when its steps run out --
 * nothing after it runs in the job either. */
void run_ends(struct frame *f, const struct ast_hdr *site, const char *reason)
{
	struct interp *in = f->in;

	if (in->steps < MAX_STEPS)
		in->steps = MAX_STEPS;
	in->budget_noted = 1;
	note(in, site ? anchor_at(f, site) : spent_at(f, NULL), "the run's end", reason);
}

int budget(struct frame *f)
{
	return budget_at(f, NULL);
}

int budget_at(struct frame *f, const struct ast_hdr *node)
{
	struct interp *in = f->in;

	if (in->trace_steps && (in->steps & 1023) == 0)
		trace_step(in, f);
	/* at every step (a read of two fields): one step may have built a
	 * value of MAX_ITEMS items */
	if (in->steps < MAX_STEPS && ast_arena_reserved(in->a) > MAX_ARENA_BYTES)
		mem_stop(f, node);
	if (++in->steps <= MAX_STEPS)
		return 1;
	if (!in->budget_noted) {
		in->budget_noted = 1;
		note(in, spent_at(f, node), "the analysis step budget",
		     "stopped after " "4000000" " evaluation steps; later values are unknown");
	}
	return 0;
}

void charge(struct frame *f, size_t items, size_t bytes)
{
	struct interp *in = f->in;

	in->steps += (long)(items / WORK_ITEMS + bytes / WORK_BYTES);
	if (in->steps > MAX_STEPS && !in->budget_noted) {
		/* noted here, where it was spent (the next budget() may run
		 * after the loop around it has ended) */
		in->budget_noted = 1;
		note(in, spent_at(f, NULL), "the analysis step budget",
		     "stopped after " "4000000" " evaluation steps; later values are unknown");
	}
}

value_t *too_big(struct frame *f, enum vkind k, size_t n, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t limit = k == VK_STR ? MAX_STR_BYTES : MAX_ITEMS;
	const char *reason;

	if (n > limit) {
		reason = afmt(in, "a %s of more than %zu %s: not built",
		              k == VK_STR ? "string" : k == VK_TUPLE ? "tuple" : k == VK_DICT ? "dict" : "list",
		              limit, k == VK_STR ? "bytes" : "items");
		note(in, anchor_at(f, site), "a value too large to build", reason);
		return v_unknown(in->a, site ? text_of(f, site) : NULL, reason);
	}
	/* its items array (a dict's two), and the ones vseq_push() leaves
	 * behind as it grows */
	if (ast_arena_reserved(in->a) + (k == VK_STR ? n : n * 4 * sizeof(value_t *)) > MAX_ARENA_BYTES) {
		mem_stop(f, site);
		return v_unknown(in->a, site ? text_of(f, site) : NULL,
		                 "the analysis memory budget ran out: not built");
	}
	/* copied items; a dict's entries are indexed too */
	charge(f, k == VK_STR ? 0 : k == VK_DICT ? WORK_MADE * n : n, k == VK_STR ? n : 0);
	return NULL;
}

int fn_active(struct interp *in, const struct ast_hdr *def)
{
	int i, n = 0;

	for (i = 0; i < in->nactive; i++)
		if (in->active[i].def == def)
			n++;
	return n;
}

/* The account a call of fn is charged to (MAX_FN_STEPS): its def, or the
 * function object itself for a closure (a def run inside another
 * function: a decorator's wrapper made once per function it wraps), so
 * that each wrapped function spends its own share.  The enclosing
 * function's account still holds the steps of the closures it makes and
 * calls. */
const void *cost_key_of(const struct vfunc *fn)
{
	return fn->closure ? (const void *)fn : (const void *)fn->def;
}

/* How many of the calls running are charged to key */
int cost_key_active(struct interp *in, const void *key)
{
	int i, n = 0;

	for (i = 0; i < in->nactive; i++)
		if (in->active[i].cost_key == key)
			n++;
	return n;
}

/* An object is being built (a class called) / is built: the steps in
 * between count at a deeper level (ctor_level_steps).  Past MAX_DEPTH + 1
 * levels (not reached: calls nest MAX_DEPTH deep) the deepest is shared. */
static void ctor_level_flush(struct interp *in)
{
	int l = in->ctor_level <= MAX_DEPTH + 1 ? in->ctor_level : MAX_DEPTH + 1;

	in->ctor_level_steps[l] += in->steps - in->ctor_seg_start;
	in->ctor_seg_start = in->steps;
}

void ctor_enter(struct interp *in)
{
	ctor_level_flush(in);
	in->ctor_level++;
}

void ctor_leave(struct interp *in)
{
	ctor_level_flush(in);
	in->ctor_level--;
}

/* The steps spent so far at object-building level `level` (never fails). */
long level_steps(const struct interp *in, int level)
{
	int l = level <= MAX_DEPTH + 1 ? level : MAX_DEPTH + 1;

	return in->ctor_level_steps[l] + (level == in->ctor_level ? in->steps - in->ctor_seg_start : 0);
}

/* The evaluation steps spent in a function so far (its outermost calls,
 * callees included, the objects they built not: those are charged to
 * their classes' methods), found by its def. */
struct fncost *fn_cost(struct interp *in, const void *def)
{
	int added;
	struct ptrmap_slot *s = ptrmap_put(&in->fncost, def, &added);

	if (added) {
		struct fncost *c = xcalloc(1, sizeof *c);

		c->def = def;
		s->ptr = c;
	}
	return (struct fncost *)s->ptr;
}

/* The steps spent in def's finished outermost calls from site (a call
 * node of a module's statements; NULL: those from function bodies, all
 * together, in its fncost), added when new; never fails (xmalloc aborts). */
long *site_cost(struct interp *in, const void *def, const void *site)
{
	struct ptrmap_slot *s;
	struct sitecost *c;

	if (!site)
		return &fn_cost(in, def)->steps;
	s = ptrmap_put(&in->sitecost, site, NULL);
	for (c = (struct sitecost *)s->ptr; c; c = c->next)
		if (c->def == def)
			return &c->steps;
	c = xcalloc(1, sizeof *c);
	c->def = def;
	c->next = (struct sitecost *)s->ptr;
	s->ptr = c;
	return &c->steps;
}
