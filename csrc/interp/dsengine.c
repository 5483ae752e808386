/* interp/dsengine.c - a DeepSpeed engine, read from the job's code
 *
 * DeepSpeed is outside the repository (and needs a GPU build): what its
 * engine does with the job's objects is read here from the arguments the
 * job gives it, as DeepSpeed's own code does (runtime/engine.py,
 * fp16/fused_optimizer.py, utils/timer.py, runtime/dataloader.py).
 *
 *   deepspeed.add_config_arguments(parser): the parser, with --deepspeed,
 *     --deepspeed_config (and the old --deepscale forms) added;
 *   deepspeed.initialize(args=, model=, training_data=, config=): the
 *     tuple (engine, optimizer, training loader, lr scheduler).  The engine
 *     is the model, wrapped (a SEV_WRAP whose detail is the call's
 *     keywords: the schedule reads the configuration there), moved to the
 *     device at the call; the loader is DeepSpeed's (pinned batches) and,
 *     with the throughput timer on (the default), each batch taken
 *     synchronizes the device;
 *   engine.step(): the optimizer step, at each accumulation boundary; with
 *     fp16 the optimizer reads the overflow flag and the gradient norm on
 *     the host (and makes both from Python values on the device first);
 *     the throughput timer synchronizes there too;
 *   engine.fp16_enabled(), bfloat16_enabled(), zero_optimization_stage(),
 *     local_rank: from the configuration and the environment.
 *
 * ZeRO stage 3 (runtime/zero/stage3.py, partitioned_param_coordinator.py):
 * each call of the engine's forward all-gathers the partitioned
 * parameters; each backward all-gathers them again and reduce-scatters
 * the gradients, and its epilogue synchronizes the reduction stream;
 * each optimizer step all-reduces the overflow flag (fp16) and the
 * gradient norm, and all-gathers the persistent (small) parameters; the
 * optimizer's setup at initialize waits at dist.barrier().  In a job with
 * such an engine, deepspeed.zero.GatheredParameters(params, modifier_rank,
 * enabled=) all-gathers the partitioned parameters it is given on entry
 * and, with a modifier_rank, broadcasts them from that rank on exit
 * (partition_parameters.py): both at the call, under the condition that
 * the parameters given are partitioned ones (and enabled= when the code
 * does not pin it).  A parameter listed from the module such an engine
 * wraps has the attributes _convert_to_deepspeed_param gives every
 * parameter (catalog zero3_parameter_attributes): hasattr(p, 'ds_id').
 *
 * engine.backward(loss) is framework_call's (a backward): ds_call leaves
 * it to that.  Only a configuration the code pins is read: a dict built
 * in the job (config=, config_params=), or, when initialize is given
 * neither, the JSON file args.deepspeed_config names (the value parse_args
 * set, read from the repository relative to the entry script's directory,
 * where a launcher like the examples' run.sh starts it); a path given as
 * config= is not read, and every answer that needs an unread configuration
 * is not known.  A PipelineModule handed to initialize makes a pipeline
 * engine, whose set-up and train_batch() are dspipe.c's.  Nothing here
 * fails; NULL means "not this".
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "internal.h"
#include "ecg/catalog.h"

#define DS_INIT "deepspeed.initialize"
/* the engine's attribute: was initialize given training_data */
#define DS_HAS_DATA "__ecg_ds_has_data__"

/* ZeRO-3 keeps a parameter of at most stage3_param_persistence_threshold
 * elements gathered (persistent) once fetched; the others are released
 * after each use and gathered again.  Which the model has, only its
 * sizes say: a condition on the gathers. */
#define DS_Z3_LARGE_IF "the model has parameters larger than stage3_param_persistence_threshold (released after use)"
#define DS_Z3_SMALL_IF "the model has parameters small enough to persist (stage3_param_persistence_threshold)"

/* deepspeed.initialize's parameters, in order (its signature). */
static const char *const ds_init_params[] = {
	"args", "model", "optimizer", "model_parameters", "training_data", "lr_scheduler", "distributed_port",
	"mpu", "dist_init_required", "collate_fn", "config", "mesh_param", "config_params",
};

/* The options add_config_arguments adds: flag, a switch (store_true) or
 * a value (default None). */
static const struct ds_opt {
	const char *flag;
	int store_true;
} ds_opts[] = {
	{ "--deepspeed", 1 }, { "--deepspeed_config", 0 }, { "--deepscale", 1 }, { "--deepscale_config", 0 },
};

/* An argument of initialize by name: keyword, else its position. */
static value_t *ds_arg(value_t **args, size_t nargs, struct vdict *kw, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof ds_init_params / sizeof *ds_init_params; i++)
		if (!strcmp(ds_init_params[i], name))
			break;
	if (kw && vdict_gets(kw, name))
		return vdict_gets(kw, name);
	return i < nargs ? args[i] : NULL;
}

/* The configuration dict the job hands initialize (config=, or the old
 * config_params=), or NULL when it is not one the code pins. */
static const struct vdict *ds_config(const struct vdict *kw)
{
	const value_t *c = kw ? vdict_gets(kw, "config") : NULL;

	if (!c && kw)
		c = vdict_gets(kw, "config_params");
	return c && c->k == VK_DICT && !dict_may_hold(c->u.dict) ? c->u.dict : NULL;
}

/* cfg[sect][key] (cfg[sect] when key is NULL): the value, NULL when cfg
 * is not known or a level is not a known dict; *absent is set when the
 * section or the key is surely not there (DeepSpeed's default applies). */
static const value_t *ds_cfg_get(const struct vdict *cfg, const char *sect, const char *key, int *absent)
{
	const value_t *s, *v;

	*absent = 0;
	if (!cfg)
		return NULL;
	if (!(s = vdict_gets(cfg, sect))) {
		*absent = !dict_may_hold(cfg);
		return NULL;
	}
	if (!key)
		return s;
	if (s->k != VK_DICT)
		return NULL;
	if (!(v = vdict_gets(s->u.dict, key)))
		*absent = !dict_may_hold(s->u.dict);
	return v;
}

/* Is a boolean switch of the configuration on: 1, 0, or -1 when the
 * code does not pin it (dflt when the key is absent). */
static int ds_cfg_on(const struct vdict *cfg, const char *sect, const char *key, int dflt)
{
	int absent;
	const value_t *v = ds_cfg_get(cfg, sect, key, &absent);

	if (absent)
		return dflt;
	if (!v || v->k != VK_BOOL)
		return -1;
	return v->u.b;
}

/* Does DeepSpeed's throughput timer synchronize the device (utils/
 * config.py: "timers": {"throughput": {"enabled", "synchronized"}}, both
 * true by default): 1, 0, -1 not pinned. */
static int ds_timer_sync(const struct vdict *cfg)
{
	int absent, en, sy;
	const value_t *t = ds_cfg_get(cfg, "timers", "throughput", &absent);

	if (absent)
		return 1;
	if (!t || t->k != VK_DICT)
		return -1;
	en = ds_cfg_on(t->u.dict, "enabled", NULL, 1);
	sy = ds_cfg_on(t->u.dict, "synchronized", NULL, 1);
	return en == 0 || sy == 0 ? 0 : en == 1 && sy == 1 ? 1 : -1;
}

/* The ZeRO stage the configuration pins: 0..3, or -1. */
int interp_ds_zero_stage(const struct vdict *kw)
{
	const struct vdict *cfg = ds_config(kw);
	int absent;
	const value_t *v = ds_cfg_get(cfg, "zero_optimization", "stage", &absent);

	if (absent)
		return 0;
	if (v && v->k == VK_INT && v->u.i >= 0 && v->u.i <= 3)
		return (int)v->u.i;
	return -1;
}

/* The engine's module was built partitioned (deepspeed.zero.Init, as a
 * caller of initialize says by DS_ZERO_INIT in its keywords: accelds.c):
 * engine._configure_distributed_model's is_zero_init_model, so neither
 * module.to(device) nor _broadcast_model. */
static int ds_zero_init_model(const struct vdict *kw)
{
	const value_t *z = kw ? vdict_gets(kw, DS_ZERO_INIT) : NULL;

	return z && z->k == VK_BOOL && z->u.b;
}

int interp_ds_broadcasts(const struct vdict *kw)
{
	const struct vdict *cfg = ds_config(kw);

	return cfg && ds_cfg_on(cfg, "amp", "enabled", 0) == 0 && !ds_zero_init_model(kw);
}

/* Does ZeRO offload the optimizer to the host (zero_optimization.
 * offload_optimizer.device "cpu"/"nvme", or the old cpu_offload switch):
 * 1, 0, -1 not pinned. */
static int ds_offload(const struct vdict *cfg)
{
	int absent;
	const value_t *o = ds_cfg_get(cfg, "zero_optimization", "offload_optimizer", &absent), *d;

	if (!cfg)
		return -1;
	if (absent)
		return ds_cfg_on(cfg, "zero_optimization", "cpu_offload", 0);
	if (!o)
		return -1;
	if (o->k == VK_NONE)
		return 0;
	if (o->k != VK_DICT)
		return -1;
	if (!(d = vdict_gets(o->u.dict, "device")))
		return dict_may_hold(o->u.dict) ? -1 : 0;     /* device "none" by default */
	if (d->k == VK_NONE)
		return 0;
	if (d->k != VK_STR)
		return -1;
	return !strcmp(d->u.str.s, "cpu") || !strcmp(d->u.str.s, "nvme") ? 1 : !strcmp(d->u.str.s, "none") ? 0 : -1;
}

/* bf16 on (the "bf16" section, or the old "bfloat16"): 1, 0, -1. */
static int ds_bf16(const struct vdict *cfg)
{
	int t = cfg ? ds_cfg_on(cfg, "bf16", "enabled", -2) : -1;

	if (t == -2)
		t = ds_cfg_on(cfg, "bfloat16", "enabled", 0);
	return t;
}

/* Is every engine.step() call an accumulation boundary (runtime/config.py
 * _batch_assertion: gradient_accumulation_steps given, else train_batch_size
 * / (train_micro_batch_size_per_gpu * world size) when both are given, else
 * 1)?  1, 0 (more than one micro-step a step), -1 not pinned. */
static int ds_gas_one(const struct interp *in, const struct vdict *cfg)
{
	const value_t *g, *tb, *mb, *w;
	long long world;
	char *end;

	if (!cfg)
		return -1;
	if ((g = vdict_gets(cfg, "gradient_accumulation_steps")))
		return g->k == VK_INT ? g->u.i == 1 : -1;
	tb = vdict_gets(cfg, "train_batch_size");
	mb = vdict_gets(cfg, "train_micro_batch_size_per_gpu");
	if (dict_may_hold(cfg))
		return -1;
	if (!tb || !mb)
		return 1;
	w = in->environ && in->environ->k == VK_DICT ? vdict_gets(in->environ->u.dict, "WORLD_SIZE") : NULL;
	if (tb->k != VK_INT || mb->k != VK_INT || !w || w->k != VK_STR ||
	    (world = strtoll(w->u.str.s, &end, 10), !*w->u.str.s || *end || world <= 0))
		return -1;
	return tb->u.i == mb->u.i * world;
}

int interp_ds_gas_one(const struct interp *in, const struct vdict *kw)
{
	return ds_gas_one(in, ds_config(kw));
}

/* Is the engine's optimizer ZeRO's DeepSpeedZeroOptimizer (runtime/zero/
 * stage_1_and_2.py): stage 2, or stage 1 unless bf16 without offload
 * (engine._do_optimizer_sanity_check: that one is BF16_Optimizer).  1 only
 * when the configuration pins it. */
static int ds_zero12(const struct vdict *kw)
{
	const struct vdict *cfg = ds_config(kw);
	int st = interp_ds_zero_stage(kw);

	if (!cfg || (st != 1 && st != 2))
		return 0;
	if (ds_cfg_on(cfg, "amp", "enabled", 0) != 0)
		return 0;
	if (st == 2)
		return 1;
	return ds_offload(cfg) == 1 || ds_bf16(cfg) == 0;
}

/* Is the engine ZeRO stage 3 (DeepSpeedZeroOptimizer_Stage3, parameters
 * partitioned): 1 only when the configuration pins it. */
static int ds_zero3(const struct vdict *kw)
{
	const struct vdict *cfg = ds_config(kw);

	return cfg && interp_ds_zero_stage(kw) == 3 && ds_cfg_on(cfg, "amp", "enabled", 0) == 0;
}

/* DeepSpeedZeroOptimizer's gradient reduction (average_tensor): an
 * all-reduce of flattened buckets unless reduce_scatter is on and
 * use_multi_rank_bucket_allreduce off (then dist.reduce to each
 * partition's owner).  Both default true (zero/config.py). */
static int ds_zero_allreduces(const struct vdict *cfg)
{
	int rs = ds_cfg_on(cfg, "zero_optimization", "reduce_scatter", 1);
	int mr = ds_cfg_on(cfg, "zero_optimization", "use_multi_rank_bucket_allreduce", 1);

	return rs == 0 || mr == 1;
}

/* A collective the engine issues at the call: its own (implied by
 * initialize, async_op "implicit") or a blocking one of a method. */
static void ds_coll(struct frame *f, const char *op, int implicit, const struct ast_hdr *site)
{
	struct sched_ev *e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site),
	                         site);

	if (e) {
		e->op = op;
		e->async_op = implicit ? -1 : 0;
		e->parallelism = "data";
		e->implied_by = implicit ? DS_INIT : NULL;
	}
}

/* The engine's wrap event (the keywords of its initialize call) of a
 * wrapped model, or NULL. */
static const struct vdict *ds_engine_kw(const struct interp *in, const struct vinst *m)
{
	size_t i;

	for (i = 0; i < in->nsev; i++)
		if (in->sev[i].kind == SEV_WRAP && in->sev[i].model == m && in->sev[i].implied_by &&
		    !strcmp(in->sev[i].implied_by, DS_INIT))
			return in->sev[i].detail;
	return NULL;
}

static int ds_is_engine(const struct vinst *m)
{
	size_t k;

	for (k = 0; k < m->nwrapped; k++)
		if (!strcmp(m->wrapped_by[k], DS_INIT))
			return 1;
	return 0;
}

/* A truth as a value: True/False, or not known. */
static value_t *ds_truth(struct frame *f, int t, const char *what, const struct ast_hdr *site)
{
	if (t >= 0)
		return v_bool(f->in->a, t);
	return unknown_at(f, site, what);
}

/* engine.<name> of a DeepSpeed engine: the methods above, as values
 * call_ext() calls (recv the engine); NULL for anything else (the
 * wrapped model's own). */
value_t *ds_engine_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vinst *m = obj->k == VK_INST ? obj->u.inst : NULL;
	value_t *v;

	if (!m || !ds_is_engine(m))
		return NULL;
	if (!strcmp(name, "local_rank") || !strcmp(name, "global_rank")) {
		const char *var = name[0] == 'l' ? "LOCAL_RANK" : "RANK";
		value_t *e = in->environ && in->environ->k == VK_DICT ? vdict_gets(in->environ->u.dict, var) : NULL;
		long long r;
		char *end;

		if (e && e->k == VK_STR && (r = strtoll(e->u.str.s, &end, 10), *e->u.str.s && !*end))
			return v_int(in->a, r);
		return unknown_at(f, site, afmt(in, "the engine's %s (the process's %s)", name, var));
	}
	if (strcmp(name, "step") && strcmp(name, "backward") && strcmp(name, "save_checkpoint") &&
	    strcmp(name, "fp16_enabled") && !(!strcmp(name, "train_batch") && dspipe_is_module(m)) &&
	    strcmp(name, "bfloat16_enabled") && strcmp(name, "zero_optimization_stage"))
		return NULL;
	v = v_ext(in->a, adot(in, DS_INIT, name));
	v->recv = obj;
	return v;
}

/* A sync (or copy) the engine makes at the call, under the condition that
 * the switch pins when it does not (t < 0). */
static void ds_step_event(struct frame *f, enum sev_kind k, const char *what, int t, const char *cond,
                          const struct ast_hdr *site)
{
	const struct jctx *ojc = f->jc;
	struct sched_ev *e;

	if (t == 0)
		return;
	if (t < 0)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), cond);
	e = sev(f, k, what, site);
	if (e && k == SEV_H2D) {
		e->pinned = 0;
		e->non_blocking = 0;
	}
	f->jc = ojc;
}

/* engine.step(), engine.fp16_enabled() ... (d: "deepspeed.initialize.<name>"). */
static value_t *ds_engine_method(struct frame *f, const char *name, const value_t *recv, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vdict *kw = ds_engine_kw(in, recv->u.inst);
	const struct vdict *cfg = ds_config(kw);

	if (!strcmp(name, "fp16_enabled"))
		return ds_truth(f, cfg ? ds_cfg_on(cfg, "fp16", "enabled", 0) : -1, "whether the engine runs fp16", site);
	if (!strcmp(name, "bfloat16_enabled"))
		return ds_truth(f, ds_bf16(cfg), "whether the engine runs bf16", site);
	if (!strcmp(name, "zero_optimization_stage")) {
		int st = interp_ds_zero_stage(kw);

		return st >= 0 ? v_int(in->a, st) : unknown_at(f, site, "the engine's ZeRO stage");
	}
	if (!strcmp(name, "step") && f->mode != M_FWD) {
		int fp16 = cfg ? ds_cfg_on(cfg, "fp16", "enabled", 0) : -1;
		int timer = cfg ? ds_timer_sync(cfg) : -1;
		const struct jctx *ojc = f->jc;

		in->job_events++;
		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		/* the throughput timer stops at every call; the optimizer
		 * acts only at an accumulation boundary */
		ds_step_event(f, SEV_SYNC, "engine.step() (the throughput timer's torch.cuda.synchronize)", timer,
		              "DeepSpeed's throughput timer is on and synchronized (its configuration is not known here)", site);
		if (ds_gas_one(in, cfg) != 1)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site),
			                DS_BOUNDARY_IF);
		sev(f, SEV_OPT_STEP, "engine.step()", site);
		ds_step_event(f, SEV_SYNC, "engine.step() (fp16: the optimizer reads the overflow flag and the gradient norm with .item())",
		              fp16, "the engine runs fp16 (its configuration is not known here)", site);
		/* stage 0's FP16_Optimizer makes them from Python values
		 * (ByteTensor([overflow]), FloatTensor([norm])); ZeRO's
		 * optimizers reduce device flags instead */
		if (interp_ds_zero_stage(kw) == 0)
			ds_step_event(f, SEV_H2D,
			              "engine.step() (fp16: the overflow flag and the norm made on the device from Python values)",
			              fp16, "the engine runs fp16 (its configuration is not known here)", site);
		/* ZeRO 1/2's DeepSpeedZeroOptimizer.step: the gradient norm
		 * summed over the data-parallel group (all_reduce), the updated
		 * partitions gathered (all_gather_dp_groups); with the
		 * optimizer on the host, the norm read per parameter (.item())
		 * and made on the device from a Python float, the host fp32
		 * partition copied back to the device */
		/* stage 3's step: has_overflow's all_reduce(MAX) (fp16) and
		 * get_grad_norm_direct's all_reduce(SUM); _post_step gathers
		 * the persistent parameters (numel <= stage3_param_persistence_
		 * threshold), which only the model's sizes decide */
		if (ds_zero3(kw)) {
			const struct jctx *sjc = f->jc;

			ds_coll(f, "all_reduce", 1, site);
			f->jc = jc_push(f, JC_COND, anchor_at(f, site), DS_Z3_SMALL_IF);
			ds_coll(f, "all_gather", 1, site);
			f->jc = sjc;
		}
		if (ds_zero12(kw)) {
			ds_coll(f, "all_reduce", 1, site);
			ds_coll(f, "all_gather", 1, site);
			if (ds_offload(cfg) == 1) {
				ds_step_event(f, SEV_SYNC, "engine.step() (ZeRO offload: the gradient norm read with .item())", 1,
				              NULL, site);
				ds_step_event(f, SEV_H2D,
				              "engine.step() (ZeRO offload: the norm made on the device, the host fp32 partition copied back)",
				              1, NULL, site);
			}
		}
		f->jc = ojc;
		return v_none(in->a);
	}
	if (!strcmp(name, "backward") && f->mode != M_FWD) {
		/* ZeRO 1/2: the gradients reduced in flattened buckets
		 * (stage 1 at each accumulation boundary after the backward,
		 * stage 2 as backward produces them); with the optimizer on
		 * the host each gradient is checked for inf/nan in an `if`
		 * (update_overflow_tracker_for_param_grad).  The backward
		 * itself is framework_call's. */
		if (ds_zero12(kw) && ds_zero_allreduces(cfg)) {
			const struct jctx *ojc = f->jc;

			if (interp_ds_zero_stage(kw) == 1 && ds_gas_one(in, cfg) != 1)
				f->jc = jc_push(f, JC_COND, anchor_at(f, site),
				                DS_BOUNDARY_IF);
			ds_coll(f, "all_reduce", 1, site);
			f->jc = ojc;
		}
		if (ds_zero12(kw) && ds_offload(cfg) == 1)
			ds_step_event(f, SEV_SYNC, "engine.backward() (ZeRO offload: each gradient checked for inf/nan on the host)",
			              1, NULL, site);
		/* stage 3, at every backward (no accumulation boundary):
		 * parameters gathered again for the backward, gradients
		 * reduce-scattered to their partitions, then the epilogue's
		 * reduce_and_partition_stream.synchronize() */
		if (ds_zero3(kw)) {
			const struct jctx *bjc = f->jc;

			f->jc = jc_push(f, JC_COND, anchor_at(f, site), DS_Z3_LARGE_IF);
			ds_coll(f, "all_gather", 1, site);
			f->jc = bjc;
			ds_coll(f, "reduce_scatter", 1, site);
			ds_step_event(f, SEV_SYNC,
			              "engine.backward() (ZeRO-3: the gradient reduction stream synchronized at the epilogue)", 1,
			              NULL, site);
		}
		return NULL;
	}
	if (!strcmp(name, "save_checkpoint") && f->mode != M_FWD) {
		int absent;
		const value_t *tv = ds_cfg_get(cfg, "checkpoint", "tag_validation", &absent);
		int check = absent ? 1 : tv && tv->k == VK_STR ? strcasecmp(tv->u.str.s, "ignore") != 0 : -1;

		/* engine.save_checkpoint: a barrier around the save; the tag
		 * validated across ranks (Warn by default): its hash made on
		 * the device, all-reduced MAX and MIN, compared on the host */
		in->job_events++;
		(void)sev(f, SEV_SAVE, "engine.save_checkpoint()", site);
		ds_coll(f, "barrier", 0, site);
		if (cfg && check == 1) {
			ds_step_event(f, SEV_H2D, "engine.save_checkpoint() (the checkpoint tag's hash made on the device)", 1, NULL,
			              site);
			ds_coll(f, "all_reduce", 0, site);
			ds_step_event(f, SEV_SYNC, "engine.save_checkpoint() (the tag's hashes compared on the host)", 1, NULL, site);
		}
		return v_none(in->a);
	}
	return NULL;
}

/* The loader initialize makes of training_data: DeepSpeed's, pinned;
 * each batch synchronizes the device when the throughput timer is on. */
static value_t *ds_loader(struct frame *f, value_t *data, const struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *dl = new_inst(in);
	const struct vdict *cfg = ds_config(kw);
	struct sched_ev *e;

	dl->ext = "deepspeed.runtime.dataloader.DeepSpeedDataLoader";
	vdict_sets(in->a, dl->attrs, "pin_memory", v_bool(in->a, 1));
	/* 2 workers a process when the launcher set LOCAL_RANK (one device
	 * a process); else 2 per visible device, a count not known here */
	vdict_sets(in->a, dl->attrs, "num_workers",
	           in->environ && in->environ->k == VK_DICT && vdict_gets(in->environ->u.dict, "LOCAL_RANK")
	           ? v_int(in->a, 2) : unknown_at(f, site, "DeepSpeed's loader workers: 2 per visible device"));
	vdict_sets(in->a, dl->attrs, "dataset", data);
	vdict_sets(in->a, dl->attrs, "__anchor__", v_str(in->a, anchor_at(f, site)));
	if (cfg && ds_timer_sync(cfg) == 1)
		vdict_sets(in->a, dl->attrs, "__ecg_batch_sync__",
		           v_str(in->a, "DeepSpeed's throughput timer: torch.cuda.synchronize() as each batch is taken"));
	if ((e = sev(f, SEV_LOADER, "DeepSpeedDataLoader", site))) {
		e->detail = vdict_new(in->a);
		vdict_sets(in->a, e->detail, "dataset", data);
		vdict_sets(in->a, e->detail, "pin_memory", v_bool(in->a, 1));
		vdict_sets(in->a, e->detail, "num_workers", vdict_gets(dl->attrs, "num_workers"));
	}
	return mk_inst_value(in, dl);
}

/* Has the job built a ZeRO-3 engine (a wrap of initialize whose
 * configuration pins stage 3)? */
static int ds_job_zero3(const struct interp *in)
{
	size_t i;

	for (i = 0; i < in->nsev; i++)
		if (in->sev[i].kind == SEV_WRAP && in->sev[i].implied_by && !strcmp(in->sev[i].implied_by, DS_INIT) &&
		    ds_zero3(in->sev[i].detail))
			return 1;
	return 0;
}

/* Is p a parameter listed from a module a ZeRO-3 engine wraps, and name
 * one of the attributes DeepSpeed gives each such parameter? */
int ds_zero3_param_attr(const struct interp *in, const value_t *p, const char *name)
{
	return p->k == VK_TENSOR && p->is_param && p->param_of && ds_is_engine(p->param_of) &&
	       catalog_fact(in->cat, CATALOG_F_ZERO3_PARAMETER_ATTRIBUTES, name) &&
	       ds_zero3(ds_engine_kw(in, p->param_of));
}

/* The source of the keyword `name` of the call at site, or NULL. */
static const char *ds_kw_text(struct frame *f, const struct ast_hdr *site, const char *name)
{
	const struct ast_Call *c = AST_IS(site, Call) ? AST_AS(site, Call) : NULL;
	size_t i;

	for (i = 0; c && i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);

		if (k->arg && !strcmp(k->arg, name))
			return text_of(f, k->value);
	}
	return NULL;
}

/* deepspeed.zero.GatheredParameters(params, modifier_rank=None,
 * fwd_module=None, enabled=True) in a job with a ZeRO-3 engine: the
 * all-gather of its entry, the broadcast of its exit when a modifier
 * rank is given; the context manager's object. */
static value_t *ds_gathered(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = new_inst(in);
	value_t *en = kw && vdict_gets(kw, "enabled") ? vdict_gets(kw, "enabled") : nargs >= 4 ? args[3] : NULL;
	value_t *mr = kw && vdict_gets(kw, "modifier_rank") ? vdict_gets(kw, "modifier_rank") : nargs >= 2 ? args[1] : NULL;
	int on = en ? value_truth(en) : 1;
	const struct jctx *ojc = f->jc;

	o->ext = d;
	if (f->mode == M_FWD || on == 0 || !ds_job_zero3(in))
		return mk_inst_value(in, o);
	if (on < 0) {
		const char *t = ds_kw_text(f, site, "enabled");

		f->jc = jc_push(f, JC_COND, anchor_at(f, site), t ? t : "GatheredParameters' enabled argument");
	}
	f->jc = jc_push(f, JC_COND, anchor_at(f, site), "the parameters given are ZeRO-3 partitioned ones, not gathered");
	ds_coll(f, "all_gather", 0, site);
	if (mr && mr->k != VK_NONE)
		ds_coll(f, "broadcast", 0, site);
	f->jc = ojc;
	return mk_inst_value(in, o);
}

/* initialize(args=...) without config= (or config_params=): DeepSpeed
 * reads the JSON file args.deepspeed_config names (deepspeed/__init__.py;
 * a path relative to where the job runs, its script's directory as ecg
 * reads a job).  The keywords with that file's dict as "config" when it
 * is read; kw as it is otherwise. */
static struct vdict *ds_file_config(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                                    const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *a = ds_arg(args, nargs, kw, "args"), *p, *c;
	struct vdict *k2;
	size_t i;

	if ((kw && (vdict_gets(kw, "config") || vdict_gets(kw, "config_params"))) || !a || a->k != VK_INST)
		return kw;
	/* the option add_config_arguments adds, as parse_args set it */
	p = a->u.inst->attrs ? vdict_gets(a->u.inst->attrs, "deepspeed_config") : NULL;
	if (!p || p->k != VK_STR)
		return kw;
	c = load_config(f, "json.load", p, site);
	if (!c || c->k != VK_DICT)
		return kw;
	k2 = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, k2, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, k2, "config", c);
	return k2;
}

value_t *ds_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (!strcmp(d, DS_INIT ".train_batch") && recv && recv->k == VK_INST && ds_is_engine(recv->u.inst)) {
		const value_t *hd = vdict_gets(recv->u.inst->attrs, DS_HAS_DATA);

		return dspipe_train_batch(f, recv->u.inst, ds_config(ds_engine_kw(in, recv->u.inst)),
		                          hd && hd->k == VK_BOOL && hd->u.b, args, nargs, kw, site);
	}
	if (!strncmp(d, DS_INIT ".", sizeof DS_INIT) && recv && recv->k == VK_INST && ds_is_engine(recv->u.inst))
		return ds_engine_method(f, d + sizeof DS_INIT, recv, site);
	{
		value_t *pm = dspipe_module(f, d, args, nargs, kw, site);

		if (pm)
			return pm;
	}
	if (!strcmp(d, "deepspeed.zero.GatheredParameters") ||
	    !strcmp(d, "deepspeed.runtime.zero.partition_parameters.GatheredParameters"))
		return ds_gathered(f, d, args, nargs, kw, site);
	if (!strcmp(d, "deepspeed.add_config_arguments") && nargs >= 1 && is_argparser(args[0])) {
		size_t i;

		for (i = 0; i < sizeof ds_opts / sizeof *ds_opts; i++) {
			value_t *flag = v_str(in->a, ds_opts[i].flag);
			struct vdict *okw = vdict_new(in->a);

			if (ds_opts[i].store_true)
				vdict_sets(in->a, okw, "action", v_str(in->a, "store_true"));
			else
				vdict_sets(in->a, okw, "default", v_none(in->a));
			argp_add(f, args[0], &flag, 1, okw, site);
		}
		return args[0];
	}
	if (!strcmp(d, DS_INIT) && f->mode != M_FWD) {
		value_t *model = ds_arg(args, nargs, kw, "model");
		value_t *data = ds_arg(args, nargs, kw, "training_data");
		value_t *t = v_seq(in->a, VK_TUPLE, 4), *engine = NULL;

		kw = ds_file_config(f, args, nargs, kw, site);

		if (model && model->k == VK_INST && model->u.inst->mod != VM_NONE) {
			value_t *to = getattr_v(f, model, "to", site);
			value_t *dev = v_str(in->a, "cuda");

			/* the engine moves the module to its device (engine.py
			 * _configure_distributed_model), unless zero.Init built
			 * it there partitioned */
			if (ds_zero_init_model(kw)) {
				model->u.inst->on_device = 1;     /* partitioned there as built */
				in->gpu = 1;
			} else if (to && to->k != VK_UNKNOWN) {
				(void)call(f, to, &dev, 1, NULL, site);
			}
			engine = torch_ext_call(f, DS_INIT, "initialize", &model, 1, kw, site, 0);
			/* a PipelineModule: a PipelineEngine's own set-up */
			dspipe_initialize(f, model->u.inst, site);
			if (engine && engine->k == VK_INST)
				vdict_sets(in->a, engine->u.inst->attrs, DS_HAS_DATA, v_bool(in->a, data && data->k != VK_NONE));
			/* ZeRO 1/2 with the optimizer on the host: its fp32
			 * partition copied off the device (.to('cpu')) */
			if (ds_zero12(kw) && ds_offload(ds_config(kw)) == 1)
				ds_step_event(f, SEV_SYNC,
				              "deepspeed.initialize (ZeRO offload: the fp32 partition copied to the host)", 1, NULL,
				              site);
			/* stage 3 with an optimizer (the job's, or one the
			 * configuration names): DeepSpeedZeroOptimizer_Stage3's
			 * setup waits at dist.barrier() */
			if (ds_zero3(kw)) {
				value_t *opt = ds_arg(args, nargs, kw, "optimizer");
				int absent;

				/* ... and create_reduce_and_remove_grad_hooks
				 * all-gathers each trainable parameter as it
				 * registers its gradient hook */
				if ((opt && opt->k != VK_NONE) || ds_cfg_get(ds_config(kw), "optimizer", NULL, &absent)) {
					ds_coll(f, "barrier", 0, site);
					ds_coll(f, "all_gather", 1, site);
				}
			}
		}
		/* no training_data: no DeepSpeedDataLoader, and the engine's
		 * forward starts the throughput timer itself (engine.forward:
		 * training_dataloader is None -> tput_timer.start()) */
		if (engine && engine->k == VK_INST && (!data || data->k == VK_NONE)) {
			const struct vdict *cfg = ds_config(kw);

			vdict_sets(in->a, engine->u.inst->attrs, "__ecg_ds_forward_timer__",
			           v_int(in->a, cfg ? ds_timer_sync(cfg) : -1));
		}
		vseq_push(in->a, t->u.seq, engine ? engine : unknown_at(f, site, "the DeepSpeed engine"));
		vseq_push(in->a, t->u.seq, unknown_at(f, site, "the engine's optimizer"));
		vseq_push(in->a, t->u.seq, data && data->k != VK_NONE ? ds_loader(f, data, kw, site) : v_none(in->a));
		vseq_push(in->a, t->u.seq, unknown_at(f, site, "the engine's learning-rate scheduler"));
		return t;
	}
	return NULL;
}

/* A call of a DeepSpeed engine's forward from job code (call.c): at ZeRO
 * stage 3 the parameters are all-gathered there; built without
 * training_data, the engine starts its throughput timer there, which
 * synchronizes the device when on (utils/timer.py start()). */
void ds_engine_forward(struct frame *f, const struct vinst *m, const struct ast_hdr *site)
{
	const value_t *t;

	if (f->mode == M_FWD || !ds_is_engine(m))
		return;
	/* ZeRO-3: each module's partitioned parameters all-gathered
	 * before its forward (the coordinator's pre-forward fetch) */
	if (ds_zero3(ds_engine_kw(f->in, m))) {
		const struct jctx *ojc = f->jc;

		f->jc = jc_push(f, JC_COND, anchor_at(f, site), DS_Z3_LARGE_IF);
		ds_coll(f, "all_gather", 1, site);
		f->jc = ojc;
	}
	if (!(t = vdict_gets(m->attrs, "__ecg_ds_forward_timer__")) || t->k != VK_INT)
		return;
	ds_step_event(f, SEV_SYNC, "engine forward (the throughput timer's torch.cuda.synchronize)", (int)t->u.i,
	              "DeepSpeed's throughput timer is on and synchronized (its configuration is not known here)", site);
}
