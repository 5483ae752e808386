/* interp/libloop.c - a library's training loop around the job's model
 *
 *     trainer = L.Trainer(max_epochs=3, accelerator="gpu")
 *     trainer.fit(LitModel(), loader)           # Lightning
 *
 *     trainer = Trainer(model=model, args=training_args, **data_module)
 *     trainer.train()                           # transformers
 *
 * The job's training loop is the library's: each step the library takes
 * a batch, runs the model (Lightning: the module's training_step(batch,
 * batch_idx); transformers: model(**inputs)), calls backward on the loss
 * and steps the optimizer.  Catalog library_train_loops names these
 * methods (the dotted name of the call) and where the model is:
 * "KEYWORD@POSITION" of the call (Lightning's fit(model, ...)) or
 * "KEYWORD@ctor" of the object's constructor (transformers' Trainer(
 * model=...)), then ';' and the repository method run per step, or
 * nothing (the model itself is called).
 *
 * libloop_call() reads one step of that loop at the call: a loop context
 * anchored at the call (the job's step), the model's step run in it as
 * job code (its model calls are the job's: the step and the module tree
 * see them), and the backward and the optimizer step, anchored at the
 * call, as the job's evidence.  The batch is not known.  What else the
 * library does each step is catalog library_loop_events' data, stated at
 * the call (ll_events): each event with its frequency (every micro-batch,
 * on the micro-batch that ends an optimizer step, every FIELD steps) and
 * its gates, read on the loop's arguments object ("<loop>#args": the
 * Trainer's TrainingArguments, its fields from the object, the keywords
 * it was built with, or catalog library_dataclass_fields' defaults) and
 * on the invocation (its process count, a GPU): a gate it does not decide
 * is the event's condition, a false one drops the event.  With "<loop>#
 * accum" naming the field of micro-steps per optimizer step, a count
 * other than 1 (or not known) makes each pass a micro-step of a library
 * accumulation block (JC_ACCUM), the optimizer step on the pass that ends
 * a step.  A third field, after a second ';',
 * names the call's argument that resumes the loop from a checkpoint
 * ("KEYWORD@POSITION" or "KEYWORD"): given and neither None nor False
 * (trainer.train(resume_from_checkpoint=True)), the loop is marked
 * resumes, a run after an earlier one, so that a fresh run's call on
 * another branch is the step.  A model whose automatic_optimization is
 * not True (Lightning's manual optimization) runs its backward and step
 * itself: the library's are not stated.  It returns NULL when the call is not
 * one of these or the model is not known (the caller goes on), else None.
 * Job mode only; it allocates only in the interpreter's arena.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

/* The n bytes at p, a field of the spec: "KEY@POS" (the call's keyword
 * KEY, else its positional argument POS), "KEY@ctor" (the keyword the
 * object recv was constructed with) or "KEY" (the call's keyword): the
 * value it names, NULL when the call does not give it.  Shared with the
 * other catalog facts that name an argument so (internal.h). */
value_t *spec_arg(const char *p, size_t n, const value_t *recv, value_t **args, size_t nargs, struct vdict *kw)
{
	const char *at = memchr(p, '@', n);
	char key[64];
	size_t kn = at ? (size_t)(at - p) : n;

	if (!kn || kn >= sizeof key)
		return NULL;
	memcpy(key, p, kn);
	key[kn] = '\0';
	if (at && n - kn == 5 && !memcmp(at, "@ctor", 5)) {
		const struct vinst *o = recv && recv->k == VK_INST ? recv->u.inst : NULL;

		return o && o->args ? vdict_gets(o->args, key) : NULL;
	}
	if (kw && vdict_gets(kw, key))
		return vdict_gets(kw, key);
	if (at && n - kn == 2 && at[1] >= '0' && at[1] <= '9' && (size_t)(at[1] - '0') < nargs)
		return args[at[1] - '0'];
	return NULL;
}

/* The i-th ';'-separated field of spec: its start, and its length in *n
 * (NULL when the spec has fewer fields). */
static const char *spec_field(const char *spec, int i, size_t *n)
{
	for (; i > 0; i--)
		if (!(spec = strchr(spec, ';')))
			return NULL;
		else
			spec++;
	*n = strcspn(spec, ";");
	return spec;
}

/* The field `name` of the loop's arguments object a: set on it, else the
 * keyword it was built with, else the default catalog
 * library_dataclass_fields gives its class; NULL when not known. */
static const value_t *ll_field(struct interp *in, const value_t *a, const char *name)
{
	const struct vinst *o = a && a->k == VK_INST ? a->u.inst : NULL;
	const value_t *v;

	if (!o)
		return NULL;
	if ((v = vdict_gets(o->attrs, name)))
		return v->k == VK_UNKNOWN ? NULL : v;
	if (o->cls || !o->ext || !o->args || vdict_gets(o->args, KW_UNK_DSTAR) || vdict_gets(o->args, "__ecg_positional__"))
		return NULL;
	if ((v = vdict_gets(o->args, name)))
		return v->k == VK_UNKNOWN ? NULL : v;
	return hfargs_library_default(in, canon_ext(in, o->ext), name);
}

/* More than one process: 1, 0 (one), -1 not pinned.  A complete
 * environment without WORLD_SIZE is one process. */
static int ll_procs(struct interp *in)
{
	long long n = multi_process_count(in);

	if (n > 1)
		return 1;
	if (n == 1 || (env_complete(in) && !vdict_gets(in->environ->u.dict, "WORLD_SIZE")))
		return 0;
	return -1;
}

/* One gate of an event on arguments object a: 1 holds, 0 does not, -1
 * not decided (*cond: the condition's text). */
static int ll_gate(struct interp *in, const char *d, const value_t *a, const char *g, const char **cond)
{
	const char *op = g + strcspn(g, "=~");
	const char *name = afmt(in, "%.*s", (int)(op - g - (*g == '!')), g + (*g == '!'));
	const value_t *v;
	int t;

	*cond = NULL;
	if (!strcmp(g, "procs>1")) {
		if ((t = ll_procs(in)) < 0)
			*cond = "more than one process (WORLD_SIZE > 1)";
		return t;
	}
	if (!strcmp(g, "gpu")) {
		const char *gf = catalog_fact(in->cat, CATALOG_F_LIBRARY_LOOP_EVENTS, afmt(in, "%s#gpu", d));

		if (ll_procs(in) == 1 || in->machine == INTERP_MACHINE_CUDA)
			return 1;
		if (in->machine == INTERP_MACHINE_CPU)
			return 0;
		while (gf && *gf) {
			size_t n = strcspn(gf += strspn(gf, " "), " ");

			if (n && (v = ll_field(in, a, afmt(in, "%.*s", (int)n, gf))) && v->k != VK_NONE)
				return 1;
			gf += n;
		}
		*cond = "the device is a GPU (torch.cuda.is_available())";
		return -1;
	}
	v = ll_field(in, a, name);
	if (*op == '=') {
		if (v && v->k == VK_STR)
			return !strcmp(v->u.str.s, op + 1);
		*cond = afmt(in, "args.%s == '%s'", name, op + 1);
		return -1;
	}
	if (*op == '~') {
		/* the field's words (a list of str, or one str) hold one of W1|W2 */
		const struct vseq *ws = v && (v->k == VK_LIST || v->k == VK_TUPLE) && !v->u.seq->unk_reason ? v->u.seq : NULL;
		size_t i;

		for (i = 0; ws && i < ws->n; i++) {
			const char *w = ws->items[i]->k == VK_STR ? ws->items[i]->u.str.s : NULL;
			const char *p = op + 1;

			if (!w)
				break;
			while (*p) {
				size_t n = strcspn(p, "|");

				if (strlen(w) == n && !strncmp(w, p, n))
					return 1;
				p += n + (p[n] == '|');
			}
		}
		if (ws && i == ws->n)
			return 0;
		*cond = afmt(in, "args.%s holds one of %s", name, op + 1);
		return -1;
	}
	t = v ? value_truth(v) : -1;
	if (t >= 0)
		return *g == '!' ? !t : t;
	*cond = afmt(in, *g == '!' ? "not args.%s" : "args.%s", name);
	return -1;
}

/* The loop's events (catalog library_loop_events "<d>#1", "#2" ...) of
 * pass `early` (1: the batch's copy and what a forward does, before the
 * model's call; 0: the rest, after the backward), stated at the call.
 * accum: the loop's pass is a micro-step of an accumulation block (its
 * step-end events on the pass that ends a step). */
static void ll_events(struct frame *f, const char *d, const value_t *a, int early, int accum,
                      const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	const char *spec, *call_text = text_of(f, site);
	int i;

	for (i = 1; (spec = catalog_fact(in->cat, CATALOG_F_LIBRARY_LOOP_EVENTS, afmt(in, "%s#%d", d, i))); i++) {
		size_t n;
		const char *kind = spec_field(spec, 0, &n) ? afmt(in, "%.*s", (int)n, spec_field(spec, 0, &n)) : "";
		const char *when = spec_field(spec, 1, &n) ? afmt(in, "%.*s", (int)n, spec_field(spec, 1, &n)) : "";
		const char *gates = spec_field(spec, 2, &n) ? afmt(in, "%.*s", (int)n, spec_field(spec, 2, &n)) : "";
		const char *phase = spec_field(spec, 3, &n) ? afmt(in, "%.*s", (int)n, spec_field(spec, 3, &n)) : "";
		const char *text = spec_field(spec, 4, &n) ? afmt(in, "%.*s", (int)n, spec_field(spec, 4, &n)) : "";
		const char *cond = NULL, *p = gates;
		int is_early = !strncmp(kind, "h2d", 3) || !strcmp(phase, "forward") || !strcmp(phase, "data");
		int drop = 0;
		struct sched_ev *e;

		if (is_early != early)
			continue;
		while (*p && !drop) {
			size_t gn = strcspn(p, ",");
			const char *c;
			int t = ll_gate(in, d, a, afmt(in, "%.*s", (int)gn, p), &c);

			if (!t)
				drop = 1;
			else if (t < 0)
				cond = cond ? afmt(in, "%s and %s", cond, c) : c;
			p += gn + (p[gn] == ',');
		}
		if (drop)
			continue;
		f->jc = ojc;
		if (accum && strcmp(when, "micro-step"))
			f->jc = jc_push(f, JC_STEP_END, anchor_at(f, site), "the micro-step that ends a step");
		if (!strncmp(when, "every:", 6)) {
			const value_t *pv = ll_field(in, a, when + 6);
			struct jctx *g = (struct jctx *)jc_push(f, JC_GUARD, anchor_at(f, site),
			                                        afmt(in, "global_step %% %s == 0", when + 6));

			g->period_expr = when + 6;
			g->period = pv && pv->k == VK_INT && pv->u.i > 0 ? pv->u.i : -1;
			f->jc = g;
		}
		if (cond)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site), cond);
		text = afmt(in, "%s (%s)", call_text, text);
		if (!strncmp(kind, "h2d", 3)) {
			const value_t *pv = kind[3] == ':' ? ll_field(in, a, kind + 4) : NULL;

			if ((e = sev(f, SEV_H2D, text, site))) {
				e->pinned = pv ? value_truth(pv) : -1;
				e->non_blocking = 0;
			}
		} else if (!strncmp(kind, "coll:", 5)) {
			const char *op = kind + 5, *ib = strchr(op, ':');

			if ((e = sev(f, SEV_COLLECTIVE, text, site))) {
				e->op = ib ? afmt(in, "%.*s", (int)(ib - op), op) : op;
				e->async_op = -1;
				e->parallelism = "data";
				e->implied_by = ib ? ib + 1 : d;
			}
		} else {
			e = sev(f, SEV_SYNC, text, site);
		}
		if (e && *phase)
			e->phase = phase;
		f->jc = ojc;
	}
}

value_t *libloop_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_LIBRARY_TRAIN_LOOPS, d), *method, *fld;
	const struct jctx *ojc = f->jc;
	const char *ol = f->loop_anchor;
	const char *anchor;
	value_t *model, *batch, *resume, *manual, *largs = NULL;
	const value_t *ga;
	int accum = 0;
	size_t n;

	if (!spec || f->mode == M_FWD || !(fld = spec_field(spec, 0, &n)) ||
	    !(model = spec_arg(fld, n, recv, args, nargs, kw)) || model->k != VK_INST || model->u.inst->mod == VM_NONE)
		return NULL;
	method = (fld = spec_field(spec, 1, &n)) ? afmt(in, "%.*s", (int)n, fld) : "";
	/* a resume argument given, and neither None nor False */
	resume = (fld = spec_field(spec, 2, &n)) && n ? spec_arg(fld, n, recv, args, nargs, kw) : NULL;
	anchor = anchor_at(f, site);
	/* one step of the library's loop: the job's step loop */
	f->jc = jc_push(f, JC_LOOP, anchor, afmt(in, "the training loop of %s", d));
	if (resume && resume->k != VK_NONE && !(resume->k == VK_BOOL && !resume->u.b))
		((struct jctx *)f->jc)->resumes = 1;
	f->loop_anchor = anchor;
	/* the loop's arguments; a micro-step count other than 1 makes each
	 * pass a micro-step of the library's accumulation */
	if ((fld = catalog_fact(in->cat, CATALOG_F_LIBRARY_LOOP_EVENTS, afmt(in, "%s#args", d))))
		largs = spec_arg(fld, strlen(fld), recv, args, nargs, kw);
	if ((fld = catalog_fact(in->cat, CATALOG_F_LIBRARY_LOOP_EVENTS, afmt(in, "%s#accum", d))) &&
	    (!(ga = ll_field(in, largs, fld)) || ga->k != VK_INT || ga->u.i != 1)) {
		struct jctx *j = (struct jctx *)jc_push(f, JC_ACCUM, anchor, afmt(in, "%s's gradient accumulation", d));

		j->period = ga && ga->k == VK_INT && ga->u.i > 1 ? ga->u.i : -1;
		f->jc = j;
		accum = 1;
	}
	ll_events(f, d, largs, 1, accum, site);
	batch = v_unknown(in->a, NULL, afmt(in, "a batch %s collates", d));
	if (*method) {
		value_t *step = getattr_v(f, model, method, site);

		if (step && (step->k == VK_BOUND || step->k == VK_FUNC))
			(void)call(f, step, (value_t *[]){ batch, v_int(in->a, 0) }, 2, NULL, site);
		else
			(void)call(f, model, (value_t *[]){ batch }, 1, NULL, site);
	} else {
		(void)call(f, model, NULL, 0, NULL, site);
	}
	/* the library's loss.backward() and optimizer.step() -- not under
	 * Lightning's manual optimization (`self.automatic_optimization =
	 * False`): training_step then runs them itself, where it does */
	manual = vdict_gets(model->u.inst->attrs, "automatic_optimization");
	if (manual && value_truth(manual) != 1) {
		f->loop_anchor = ol;
		f->jc = ojc;
		return v_none(in->a);
	}
	in->job_events++;
	in->saw_backward = 1;
	if (!in->ev.backward)
		in->ev.backward = anchor;
	(void)sev(f, SEV_BACKWARD, afmt(in, "loss.backward() in %s", d), site);
	ll_events(f, d, largs, 0, accum, site);
	if (!in->ev.optimizer_step)
		in->ev.optimizer_step = anchor;
	if (accum)
		f->jc = jc_push(f, JC_STEP_END, anchor, "the micro-step that ends a step");
	(void)sev(f, SEV_OPT_STEP, afmt(in, "optimizer.step() in %s", d), site);
	f->loop_anchor = ol;
	f->jc = ojc;
	return v_none(in->a);
}
