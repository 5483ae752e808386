/* interp/accelds.c - a library's prepare handing the model to DeepSpeed
 *
 *     accelerate launch --use_deepspeed --deepspeed_config_file ds.json train.py
 *
 *     model, optimizer, loader, sched = accelerator.prepare(model, optimizer, loader, sched)
 *     for batch in loader:
 *         with accelerator.accumulate(model):
 *             loss = model(**batch).loss
 *             accelerator.backward(loss)
 *             optimizer.step()
 *
 * accelerate launch exports ACCELERATE_USE_DEEPSPEED=true and the path of
 * the configuration file; the Accelerator's prepare then gives the model
 * and the optimizer to deepspeed.initialize (accelerator.py
 * _prepare_deepspeed) instead of wrapping the model in DDP.  Catalog
 * engine_handoffs names, for such a prepare method,
 * "SWITCH;PATH;BACKWARD;ZERO3INIT": the variable that, set to a true word,
 * hands the model over, the variable naming the JSON configuration (a
 * path from where the job runs, the repository's root), the object's
 * method that runs the engine's backward and step, and the variable that,
 * set to a false word, keeps a ZeRO-3 model from being built partitioned
 * (deepspeed.zero.Init; on by default for a stage-3 configuration: no
 * move, no broadcast at initialize).  Here, when the job's environment is pinned with
 * SWITCH set to a true word and PATH a file the repository holds:
 *
 *   prepare(...): deepspeed.initialize(model=<the model>, optimizer=<the
 *     optimizer>, config=<the file's dict>) as dsengine.c reads it (the
 *     engine's start-up events at the call), its "auto" switches of bf16 /
 *     fp16 filled from the object's mixed-precision word as accelerate's
 *     DeepSpeedPlugin fills them; the model handed back is the engine
 *     (its forward: dsengine.c ds_engine_forward), the optimizer a wrapper
 *     whose step and zero_grad do nothing (DeepSpeedOptimizerWrapper), the
 *     loaders and the rest as the library's prepare gives them otherwise
 *     (loaders send their batches to the device);
 *   obj.<BACKWARD>(loss): the engine's backward (dsengine.c: ZeRO's
 *     reductions and waits), the backward itself, then engine.step() --
 *     under the library's accumulation block only on the micro-step that
 *     ends a step (DeepSpeedEngineWrapper.backward steps when
 *     sync_gradients).
 *
 * Anything else, or a configuration ecg does not read: NULL (the library's
 * other readings apply).  Values in the interpreter's arena.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "internal.h"
#include "ecg/catalog.h"

#define ACCELDS_ENGINE "__ecg_accelds_engine__"
#define ACCELDS_BACKWARD "__ecg_accelds_backward__"

/* o: an object of a library class (not the repository's own) */
static struct vinst *handoff_obj(const value_t *v)
{
	return v && v->k == VK_INST && !v->u.inst->cls && v->u.inst->ext && v->u.inst->mod == VM_NONE ? v->u.inst
	                                                                                               : NULL;
}

/* The part i (0: switch, 1: path, 2: backward method, 3: the zero.Init
 * switch) of spec, or NULL. */
static const char *handoff_part(struct interp *in, const char *spec, int i)
{
	size_t n;

	while (spec && i-- > 0)
		spec = (spec = strchr(spec, ';')) ? spec + 1 : NULL;
	if (!spec)
		return NULL;
	n = strcspn(spec, ";");
	return n ? afmt(in, "%.*s", (int)n, spec) : NULL;
}

/* The value of variable k in a pinned environment, or NULL. */
static const char *env_word(struct interp *in, const char *k)
{
	const value_t *v = in->environ && in->environ->k == VK_DICT ? vdict_gets(in->environ->u.dict, k) : NULL;

	return v && v->k == VK_STR ? v->u.str.s : NULL;
}

static int true_word(const char *s)
{
	return s && (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes"));
}

static int false_word(const char *s)
{
	return s && (!strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "no"));
}

/* A copy of the dict's section sect with "enabled": "auto" set to on. */
static void fill_auto_switch(struct interp *in, struct vdict *cfg, const char *sect, int on)
{
	const value_t *s = vdict_gets(cfg, sect), *e;
	value_t *c;
	size_t i;

	if (!s || s->k != VK_DICT || !(e = vdict_gets(s->u.dict, "enabled")) || e->k != VK_STR || strcmp(e->u.str.s, "auto"))
		return;
	c = v_dict(in->a);
	for (i = 0; i < s->u.dict->n; i++)
		vdict_set(in->a, c->u.dict, s->u.dict->keys[i], s->u.dict->vals[i]);
	vdict_sets(in->a, c->u.dict, "enabled", v_bool(in->a, on));
	vdict_sets(in->a, cfg, sect, c);
}

/* The configuration file's dict, its precision switches filled from the
 * object's word, or NULL when not read. */
static value_t *handoff_config(struct frame *f, const char *path, const value_t *recv, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *c = load_config(f, "json.load", v_str(in->a, path), site), *r;
	const char *p = framework_precision(in, recv);
	size_t i;

	if (!c || c->k != VK_DICT || dict_may_hold(c->u.dict))
		return NULL;
	r = v_dict(in->a);
	for (i = 0; i < c->u.dict->n; i++)
		vdict_set(in->a, r->u.dict, c->u.dict->keys[i], c->u.dict->vals[i]);
	if (p) {
		fill_auto_switch(in, r->u.dict, "bf16", !strcmp(p, "bf16"));
		fill_auto_switch(in, r->u.dict, "fp16", !strcmp(p, "fp16"));
	}
	return r;
}

/* The handoff spec of prepare method d when the environment hands the
 * model over, or NULL. */
static const char *handoff_on(struct interp *in, const char *d)
{
	const char *spec = catalog_fact(in->cat, CATALOG_F_ENGINE_HANDOFFS, d);

	if (!spec || !env_complete(in) || !true_word(env_word(in, handoff_part(in, spec, 0))))
		return NULL;
	return spec;
}

static value_t *handoff_prepare(struct frame *f, const char *d, const char *spec, const value_t *recv,
                                value_t **args, size_t nargs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = handoff_obj(recv);
	const char *path = env_word(in, handoff_part(in, spec, 1));
	value_t *cfg, *model = NULL, *opt = NULL, *init, *engine, *t;
	struct vdict *kw;
	size_t i, mi = nargs, oi = nargs;

	if (!o || !path || !(cfg = handoff_config(f, path, recv, site)))
		return NULL;
	for (i = 0; i < nargs; i++) {
		if (mi == nargs && ((args[i]->k == VK_INST && args[i]->u.inst->mod != VM_NONE) || libv_is_module(args[i])))
			mi = i, model = args[i];
		else if (oi == nargs && is_optimizer(args[i]))
			oi = i, opt = args[i];
	}
	if (!model)
		return NULL;
	kw = vdict_new(in->a);
	vdict_sets(in->a, kw, "model", model);
	if (opt)
		vdict_sets(in->a, kw, "optimizer", opt);
	vdict_sets(in->a, kw, "config", cfg);
	/* a ZeRO-3 configuration: accelerate's DeepSpeedPlugin turns
	 * zero3_init_flag on unless the ZERO3INIT variable says otherwise,
	 * so transformers builds the model under deepspeed.zero.Init */
	if (interp_ds_zero_stage(kw) == 3 && handoff_part(in, spec, 3) &&
	    !false_word(env_word(in, handoff_part(in, spec, 3))))
		vdict_sets(in->a, kw, DS_ZERO_INIT, v_bool(in->a, 1));
	init = ds_call(f, "deepspeed.initialize", NULL, NULL, 0, kw, site);
	engine = init && init->k == VK_TUPLE && init->u.seq->n ? init->u.seq->items[0] : NULL;
	if (!engine || engine->k == VK_UNKNOWN)
		return NULL;
	vdict_sets(in->a, o->attrs, ACCELDS_ENGINE, engine);
	if (handoff_part(in, spec, 2))
		vdict_sets(in->a, o->attrs, ACCELDS_BACKWARD, v_str(in->a, handoff_part(in, spec, 2)));
	t = v_seq(in->a, VK_TUPLE, nargs);
	for (i = 0; i < nargs; i++) {
		value_t *x = args[i];

		if (i == mi) {
			x = engine;
		} else if (i == oi) {
			struct vinst *w = new_inst(in);

			w->ext = "accelerate.utils.deepspeed.DeepSpeedOptimizerWrapper";
			x = mk_inst_value(in, w);
		} else if (is_loader(x) && f->mode != M_FWD) {
			vdict_sets(in->a, x->u.inst->attrs, "__ecg_to_device__", v_bool(in->a, 1));
		}
		vseq_push(in->a, t->u.seq, x);
	}
	return nargs == 1 ? t->u.seq->items[0] : t;
}

static value_t *handoff_backward(struct frame *f, const char *d, const char *last, const value_t *engine,
                                 value_t **args, size_t nargs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	size_t i, n0;

	(void)ds_call(f, "deepspeed.initialize.backward", engine, args, nargs, NULL, site);
	(void)framework_call(f, d, last, args, nargs, site);
	if (jc_find(f->jc, JC_ACCUM))
		f->jc = jc_push(f, JC_STEP_END, anchor_at(f, site), "the micro-step that ends a step");
	n0 = in->nsev;
	(void)ds_call(f, "deepspeed.initialize.step", engine, NULL, 0, NULL, site);
	/* the step's own events share the backward's line: the optimizer's */
	for (i = n0; i < in->nsev; i++)
		if (!in->sev[i].phase)
			in->sev[i].phase = "optimizer";
	f->jc = ojc;
	return v_none(in->a);
}

value_t *accelds_call(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args,
                      size_t nargs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vinst *o = handoff_obj(recv);
	const value_t *engine, *bw;
	const char *spec;

	if (f->mode == M_FWD || !o)
		return NULL;
	if ((spec = handoff_on(in, d)))
		return handoff_prepare(f, d, spec, recv, args, nargs, site);
	/* obj.<backward>(loss) of an object that handed its model over */
	if (!(engine = vdict_gets(o->attrs, ACCELDS_ENGINE)) || engine->k != VK_INST || nargs < 1 ||
	    !(bw = vdict_gets(o->attrs, ACCELDS_BACKWARD)) || bw->k != VK_STR || strcmp(bw->u.str.s, last))
		return NULL;
	return handoff_backward(f, d, last, engine, args, nargs, site);
}
