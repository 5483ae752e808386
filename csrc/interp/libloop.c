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
 * call, as the job's evidence.  The batch is not known: the library's
 * collation and its copy to the device (placement that the accelerator
 * and the machine decide) are not stated, nor are the library's own
 * reads, logging and collectives.  A third field, after a second ';',
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

value_t *libloop_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_LIBRARY_TRAIN_LOOPS, d), *method, *fld;
	const struct jctx *ojc = f->jc;
	const char *ol = f->loop_anchor;
	const char *anchor;
	value_t *model, *batch, *resume, *manual;
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
	if (!in->ev.optimizer_step)
		in->ev.optimizer_step = anchor;
	(void)sev(f, SEV_OPT_STEP, afmt(in, "optimizer.step() in %s", d), site);
	f->loop_anchor = ol;
	f->jc = ojc;
	return v_none(in->a);
}
