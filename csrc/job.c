/* job.c - job type, entry and step from what the interpreter saw. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/job.h"
#include "ecg/schedule.h"
#include "ecg/util.h"

const struct interp_note *job_budget_note(struct interp *in)
{
	static const char *const words[] = { "evaluation steps", "memory bound", "budget", "too deep", NULL };
	const struct interp_note *nt;
	size_t n, k, w;

	nt = interp_notes(in, &n);
	for (k = 0; k < n; k++)
		for (w = 0; words[w]; w++)
			if (nt[k].anchor && nt[k].reason && strchr(nt[k].anchor, ':') && strstr(nt[k].reason, words[w]))
				return &nt[k];
	return NULL;
}

/* Does rc run inside the loop anchored at loop_anchor (or one inside it)? */
static int root_in_loop(const struct root_call *rc, const char *loop_anchor)
{
	const struct jctx *c;

	if (rc->loop_anchor && !strcmp(rc->loop_anchor, loop_anchor))
		return 1;
	for (c = rc->ctx; c; c = c->up)
		if (c->kind == JC_LOOP && c->anchor && !strcmp(c->anchor, loop_anchor))
			return 1;
	return 0;
}

void job_classify(struct interp *in, struct job_info *job)
{
	const struct interp_note *cut = job_budget_note(in);
	const struct interp_evidence *ev = interp_evidence(in);
	const struct root_call *first = NULL, *handled = NULL, *nograd = NULL, *train = NULL, *looped = NULL;
	const struct root_call *roots;
	size_t nroots, i;
	int all_eval = 1;   /* every model call on a module in eval mode */

	roots = interp_roots(in, &nroots);
	for (i = 0; i < nroots; i++) {
		const struct root_call *rc = &roots[i];

		if (rc->train_mode != 0)
			all_eval = 0;

		if (!rc->inst && !rc->lib_model)
			job->loaded_model = 1;
		if (!first)
			first = rc;
		if (!rc->no_grad && !train)
			train = rc;
		if (rc->handler && !handled)
			handled = rc;
		if (rc->no_grad && !nograd)
			nograd = rc;
		if (rc->loop_anchor && !looped)
			looped = rc;   /* a decode loop after a prefill call outside it */
	}
	job->evidence = cJSON_CreateArray();
	if (ev->backward) {
		job->type = "training";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->backward));
		if (ev->optimizer_step)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->optimizer_step));
	} else if (handled && ev->server) {
		job->type = "inference_serving";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->server));
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(handled->anchor));
	} else if (ev->server) {
		/* request handlers registered with a web framework, whose model
		 * ecg does not see called (a model loaded by a library): still a
		 * server; its step stays unknown */
		job->type = "inference_serving";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->server));
	} else if (first && (nograd || ev->no_grad) && (ev->write || looped) && ev->optimizer_built && cut) {
		/* no_grad model calls in a job that builds an optimizer, whose
		 * backward was not seen while the reading lost values to a
		 * budget: its training loop may be what was not followed, and
		 * those calls its evaluation's.  Not a batch job: no type, and
		 * no step (the step would be the training loop's).  A job that
		 * was read whole and only evaluates (an --eval flag) is batch */
		job->reason = xasprintf("an optimizer is built (%s) but no backward() or optimizer step was "
		                        "followed, and the reading lost values (%s: %s): the training loop may "
		                        "be what was not read, so the no_grad model calls (%s) do not type the job",
		                        ev->optimizer_built, cut->anchor, cut->reason,
		                        nograd ? nograd->anchor : first->anchor);
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->optimizer_built));
	} else if (first && !nograd && ev->no_grad && (ev->write || looped)) {
		/* the model seen called runs with gradients (a forward whose
		 * backward a call ecg does not follow may make: DeiT's
		 * loss_scaler(loss, optimizer)) while another pass runs under
		 * no_grad (its evaluation): no batch job, and no training seen */
		job->reason = xasprintf("the model is called with gradients enabled (%s) but no backward() was "
		                        "followed; no_grad is used elsewhere (%s): whether the job trains is not seen",
		                        first->anchor, ev->no_grad);
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(first->anchor));
	} else if (first && !nograd && !ev->no_grad && !ev->optimizer_built && !cut && all_eval &&
	           (ev->write || looped)) {
		/* every model call runs with gradients enabled but on a module in
		 * eval mode (.eval(), or its constructor's self.eval()), and the
		 * job, read whole, has no backward, no optimizer and no no_grad
		 * anywhere: a scorer that leaves autograd on, not training */
		job->type = "batch";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(first->anchor));
		if (ev->write)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->write));
	} else if (first && nograd && (ev->write || looped)) {
		job->type = "batch";
		cJSON_AddItemToArray(job->evidence, cJSON_CreateString(nograd->anchor));
		if (ev->no_grad)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->no_grad));
		if (ev->write)
			cJSON_AddItemToArray(job->evidence, cJSON_CreateString(ev->write));
	}
	job->entry_anchor = ev->main_guard ? xstrdup(ev->main_guard) : NULL;
	if (job->reason) {
		/* untyped on purpose: no step either */
	} else if (handled && job->type && !strcmp(job->type, "inference_serving")) {
		job->step_anchor = xstrdup(handled->handler);
	} else if (job->type && !strcmp(job->type, "inference_serving")) {
		job->step_anchor = NULL;   /* no handler seen calling the model */
	} else {
		/* a training job's step is where the model runs with gradients,
		 * above its accumulation loop; another job's, the model call in
		 * a loop (the decode loop's, not the prefill's before it) */
		int training = job->type && !strcmp(job->type, "training");
		const struct root_call *step = training && train ? train : !training && looped ? looped : first;
		const char *loop = schedule_step_anchor(in, job->type);

		/* the call with gradients in the training loop the schedule
		 * chose, over a one-off forward before it (a check of the
		 * model on one input outside every loop) */
		for (i = 0; training && loop && step && !root_in_loop(step, loop) && i < nroots; i++)
			if (!roots[i].no_grad && root_in_loop(&roots[i], loop))
				step = &roots[i];

		if (loop && step && step->loop_anchor)
			job->step_anchor = xstrdup(loop);
		else if (loop && training && !nroots)
			job->step_anchor = xstrdup(loop);   /* a model a library built, never seen
			                                      called: the loop that trains */
		else if (step && (step->loop_anchor || step->function_anchor))
			job->step_anchor = xstrdup(step->loop_anchor ? step->loop_anchor : step->function_anchor);
	}
}

void job_info_free(struct job_info *job)
{
	cJSON_Delete(job->evidence);
	free(job->entry_anchor);
	free(job->step_anchor);
	free(job->reason);
	memset(job, 0, sizeof *job);
}

char *job_module_file(const struct load *L, const char *dotted, int main)
{
	static const char *const roots[] = { "", "src/", NULL };
	static const char *const tails[] = { ".py", "/__init__.py", "/__main__.py", NULL };
	char *rel, *p;
	size_t r, t;

	if (!*dotted || strstr(dotted, "..") || dotted[0] == '.' || strchr(dotted, '/'))
		return NULL;
	rel = xstrdup(dotted);
	for (p = rel; *p; p++)
		if (*p == '.')
			*p = '/';
	for (r = 0; roots[r]; r++) {
		/* `python -m pkg` runs pkg/__main__.py; an import runs __init__ */
		for (t = 0; tails[t]; t++) {
			char *path;
			const repo_file_t *f;

			if ((t == 2) != (main != 0) && t != 0)
				continue;
			path = xasprintf("%s%s%s", roots[r], rel, tails[t]);
			f = load_find(L, path);
			if (f && f->kind == REPO_FILE) {
				free(rel);
				return path;
			}
			free(path);
		}
	}
	free(rel);
	return NULL;
}

char *job_launch_file(const struct load *L, const char *launcher, const struct launch *la)
{
	const char *slash = strrchr(launcher, '/'), *tok = la->script;
	const repo_file_t *f;

	if (la->module)
		return job_module_file(L, la->module, 1);
	if (!tok)
		return NULL;
	while (tok[0] == '.' && tok[1] == '/')
		tok += 2;
	if (tok[0] == '/')
		return NULL;
	f = load_find_file(L, tok);
	if (!f && slash) {
		char *p = xasprintf("%.*s/%s", (int)(slash - launcher), launcher, tok);

		f = load_find_file(L, p);
		free(p);
	}
	return f ? xstrdup(f->path) : NULL;
}
