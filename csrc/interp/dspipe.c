/* interp/dspipe.c - DeepSpeed's pipeline engine, read from the job's code
 *
 * DeepSpeed is outside the repository: what its pipeline engine does is
 * read here from the arguments the job gives it, as DeepSpeed's own code
 * does (runtime/pipe/module.py, runtime/pipe/engine.py, runtime/pipe/
 * p2p.py, runtime/pipe/schedule.py at microsoft/DeepSpeed 38327e07f).
 * The events are anchored at the job's calls.
 *
 *   deepspeed.pipe.PipelineModule(layers, num_stages=, loss_fn=, ...):
 *     a module (external: its layers are the job's, the stage's share
 *     decided by the rank) that __init__ moves to the process's device
 *     (self.to(get_accelerator().device_name(local_rank))): a copy of the
 *     layers built on the host, at the call.  num_stages is kept, and
 *     is the job's pipeline degree when no call bound one before.
 *   deepspeed.initialize(model=<a PipelineModule>): a PipelineEngine
 *     (dspipe_initialize, called by dsengine.c once the engine is made):
 *     the parameter counts made on the host and moved to the device,
 *     all-reduced over the model-parallel group (the ranks of one
 *     pipeline) and read back with .tolist(); self.loss made on the host
 *     and moved, then sent to the next stage (every stage but the last)
 *     and received from the previous one (every stage but the first)
 *     with dist.send/dist.recv.
 *   engine.train_batch(): one step of the job (the model runs inside
 *     it: a root call with no instance, as a library's module, and the
 *     backward and the optimizer step the job's evidence).  Per micro-
 *     batch (gradient_accumulation_steps of them, known only when the
 *     configuration gives it): the first stage copies the batch's inputs
 *     (a host clone of the loader's batch) and the last its labels (as
 *     the loader made them): the two stages' copies differ in pinning,
 *     so the row's pinned is not known; activations sent forward and
 *     gradients back between adjacent stages (send and recv, pipeline).
 *     Once a step: the gradients all-reduced over the data-parallel group
 *     (ReduceGrads: enable_backward_allreduce is off, the schedule
 *     reduces), the optimizer step, the loss broadcast from the last
 *     stage over the pipeline group (when there is more than one stage).
 *     Every steps_per_print steps (a configuration that does not set
 *     it, None by default, makes train_batch fail there: no row): the
 *     train_batch timer's CUDA events read (elapsed()
 *     synchronizes) on every rank, rank 0 formats the device loss.  The
 *     throughput timer never synchronizes here: a pipeline engine
 *     starts it but never calls step(), which alone stops it and counts
 *     the steps it waits for.
 *
 * Only what the configuration pins is stated: a configuration not known
 * leaves the logging period unresolved.  Not stated: the mixed-precision
 * optimizers' reads and reductions under a pipeline (FP16_Optimizer's
 * overflow check over the model-parallel group, BF16_Optimizer), ZeRO-1's
 * partitioned step, the activation-partitioning of tensor-parallel
 * stages, tied layers' broadcast and all-reduce.
 * Nothing here fails; NULL means "not this".
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define DSP_CLASS "deepspeed.pipe.PipelineModule"
#define DSP_STAGES "__ecg_ds_pipe_stages__"

static const char *const dsp_classes[] = {
	DSP_CLASS, "deepspeed.runtime.pipe.PipelineModule", "deepspeed.runtime.pipe.module.PipelineModule",
};

static int dsp_is_class(const char *d)
{
	size_t i;

	for (i = 0; d && i < sizeof dsp_classes / sizeof *dsp_classes; i++)
		if (!strcmp(d, dsp_classes[i]))
			return 1;
	return 0;
}

int dspipe_is_module(const struct vinst *m)
{
	return m && m->mod != VM_NONE && dsp_is_class(m->ext) && m->attrs && vdict_gets(m->attrs, DSP_STAGES);
}

int interp_ds_pipeline(const struct vinst *m)
{
	return dspipe_is_module(m);
}

/* The stage count a PipelineModule was built with: > 0, or -1 not known. */
static long long dsp_stages(const struct vinst *m)
{
	const value_t *n = m && m->attrs ? vdict_gets(m->attrs, DSP_STAGES) : NULL;

	return n && n->k == VK_INT && n->u.i > 0 ? n->u.i : -1;
}

value_t *dspipe_module(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m;
	value_t *ns, *topo, *to, *dev;

	if (!dsp_is_class(d) || f->mode == M_FWD)
		return NULL;
	m = ext_module_inst(f, DSP_CLASS, args, nargs, kw, site);
	/* __init__(layers, num_stages=None, topology=None, ...): a topology
	 * gives the count instead, which is not read here */
	ns = kw && vdict_gets(kw, "num_stages") ? vdict_gets(kw, "num_stages") : nargs >= 2 ? args[1] : NULL;
	topo = kw && vdict_gets(kw, "topology") ? vdict_gets(kw, "topology") : nargs >= 3 ? args[2] : NULL;
	vdict_sets(in->a, m->attrs, DSP_STAGES,
	           ns && ns->k == VK_INT && ns->u.i > 0 && (!topo || topo->k == VK_NONE) ? ns
	           : unknown_at(f, site, "the pipeline's stage count"));
	/* the job's pipeline degree (the header's parallel layout), when no
	 * call bound one before and the module is made on every path */
	if (ns && ns->k == VK_INT && ns->u.i > 0 && (!topo || topo->k == VK_NONE) && !in->par[PAR_PIPELINE].v &&
	    !jc_find(f->jc, JC_COND)) {
		in->par[PAR_PIPELINE].v = ns;
		in->par[PAR_PIPELINE].param = "num_stages";
		in->par[PAR_PIPELINE].anchor = anchor_at(f, site);
	}
	/* self.to(get_accelerator().device_name(self.local_rank)): the
	 * stage's layers, built on the host, moved as the module is made */
	{
		value_t *mv = mk_inst_value(in, m);

		to = getattr_v(f, mv, "to", site);
		dev = v_str(in->a, "cuda");
		if (to && to->k != VK_UNKNOWN)
			(void)call(f, to, &dev, 1, NULL, site);
		return mv;
	}
}

/* A pipeline event at the call: a collective of the engine's (implied by
 * initialize), under cond when given. */
static struct sched_ev *dsp_coll(struct frame *f, const char *op, const char *par, const char *cond,
                                 const struct ast_hdr *site)
{
	const struct jctx *ojc = f->jc;
	struct sched_ev *e;

	if (cond)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), cond);
	e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site);
	if (e) {
		e->op = op;
		e->async_op = -1;
		e->parallelism = par;
		e->implied_by = "deepspeed.initialize";
	}
	f->jc = ojc;
	return e;
}

static struct sched_ev *dsp_copy(struct frame *f, const char *what, int pinned, const struct ast_hdr *site)
{
	struct sched_ev *e = sev(f, SEV_H2D, what, site);

	if (e) {
		e->pinned = pinned;
		e->non_blocking = 0;
	}
	return e;
}

/* The send/recv pair between adjacent stages, each on the stages that
 * make it (cond 1: written with the stage conditions). */
static void dsp_p2p(struct frame *f, long long stages, int cond, const struct ast_hdr *site)
{
	if (stages == 1)
		return;
	dsp_coll(f, "send", "pipeline",
	         cond ? "the process is not the pipeline's last stage" : stages < 0 ? "the pipeline has more than one stage" : NULL,
	         site);
	dsp_coll(f, "recv", "pipeline",
	         cond ? "the process is not the pipeline's first stage" : stages < 0 ? "the pipeline has more than one stage" : NULL,
	         site);
}

void dspipe_initialize(struct frame *f, const struct vinst *m, const struct ast_hdr *site)
{
	if (f->mode == M_FWD || !dspipe_is_module(m))
		return;
	dsp_copy(f, "deepspeed.initialize (PipelineEngine: the parameter counts and the loss buffers made on the host)", 0,
	         site);
	dsp_coll(f, "all_reduce", "pipeline", NULL, site);
	(void)sev(f, SEV_SYNC, "deepspeed.initialize (PipelineEngine: the all-reduced parameter counts read with .tolist())",
	          site);
	dsp_p2p(f, dsp_stages(m), 1, site);
}

value_t *dspipe_train_batch(struct frame *f, const struct vinst *m, const struct vdict *cfg, int has_data,
                            value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	struct jctx *j;
	struct sched_ev *e;
	const value_t *v;
	long long stages = dsp_stages(m);
	value_t *di = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "data_iter") : NULL;

	if (f->mode == M_FWD || !dspipe_is_module(m))
		return NULL;
	in->job_events++;
	lib_step_call(f, site);
	if (!in->ev.backward)
		in->ev.backward = anchor_at(f, site);
	in->saw_backward = 1;
	/* the micro-batches, gradient_accumulation_steps of them; what a
	 * rank copies and sends per step is no multiple of that count (the
	 * loss buffer copied once a step on all but the last stage, a middle
	 * stage sending both ways): a count not stated */
	j = (struct jctx *)jc_push(f, JC_REPEAT, anchor_at(f, site), "the pipeline's micro-batches (gradient_accumulation_steps)");
	f->jc = j;
	if ((di && di->k != VK_NONE) || !has_data)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), "the data iterator gives batches on the host");
	if ((e = dsp_copy(f, "engine.train_batch() (each micro-batch's inputs on the first stage, labels on the last)", -1,
	                  site)))
		e->phase = "data";
	f->jc = j;
	dsp_p2p(f, stages, 0, site);
	sev(f, SEV_BACKWARD, "engine.train_batch() (each micro-batch's backward)", site);
	f->jc = ojc;
	dsp_coll(f, "all_reduce", "data", NULL, site);
	if (!in->ev.optimizer_step)
		in->ev.optimizer_step = anchor_at(f, site);
	sev(f, SEV_OPT_STEP, "engine.train_batch() (the optimizer step)", site);
	/* the loss train_batch returns, made on the last stage: the step's
	 * own work */
	if (stages != 1 &&
	    (e = dsp_coll(f, "broadcast", "pipeline", stages < 0 ? "the pipeline has more than one stage" : NULL, site)))
		e->phase = "step";
	/* every steps_per_print steps: the train_batch timer read.  Its
	 * default is None (runtime/constants.py), with which train_batch's
	 * `global_steps % steps_per_print()` fails: no row for a
	 * configuration without it */
	v = cfg ? vdict_gets(cfg, "steps_per_print") : NULL;
	if (cfg && (v ? v->k != VK_INT || v->u.i <= 0 : !dict_may_hold(cfg)))
		return v_tensor_dev(in->a, DEV_DEVICE, 0);
	j = (struct jctx *)jc_push(f, JC_GUARD, anchor_at(f, site), "global_steps % steps_per_print() == 0");
	j->period_expr = "steps_per_print";
	j->period = v ? v->u.i : -1;
	f->jc = j;
	if ((e = sev(f, SEV_SYNC,
	             "engine.train_batch() (every steps_per_print steps: the train_batch timer's CUDA events read, the loss formatted on rank 0)",
	             site)))
		e->phase = "logging";
	f->jc = ojc;
	return v_tensor_dev(in->a, DEV_DEVICE, 0);
}
