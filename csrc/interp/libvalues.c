/* interp/libvalues.c - values other libraries return that ecg does not
 * build, known by where they live all the same
 *
 * Conventions, all data in catalog/torch_facts.json:
 *  - module_factories: a library's function building a torch module from a
 *    name (timm's create_model) returns it with its parameters on the host
 *    unless given device=.  Its value stays unknown (its modules are not
 *    read), with LIB_MODULE_HOST_REASON; model.to(<device>) / model.cuda()
 *    is the parameters' host-to-device copy, once: the module (in place,
 *    as torch's Module.to) then says LIB_MODULE_DEVICE_REASON.
 *  - host_tensor_returns: a call with return_tensors="pt" (Hugging Face
 *    tokenizers, processors) returns a mapping of host tensors
 *    (BatchEncoding): HOST_TENSOR_MAP_REASON.  enc["input_ids"] is a host
 *    tensor; enc.to(<device>) copies every item, in place (BatchEncoding.to
 *    rebinds its data and returns itself): DEVICE_TENSOR_MAP_REASON, whose
 *    items are device tensors.  Its .cuda() (encode(..., return_tensors=
 *    "pt") gives one tensor) is a copy of that tensor, a new value.
 *    These four hold in a model's forward too (M_FWD: a captioning
 *    model's forward tokenizes its captions and moves them); the other
 *    conventions are read in job code only.
 *  - host_load_keywords: a library's wrapper of torch.load given
 *    map_location="cpu" gives what torch.load would: an object loaded onto
 *    the host (LOADED_ON_HOST_REASON, dev HOST).
 *  - subset_returns: a library's function returning a part of one argument
 *    (intersect_dicts of a loaded state dict) keeps that argument's
 *    loaded reason.
 *  - module_state_savers: model.save_pretrained(...) of such a module moved
 *    to the device writes its tensors from the host: a save and a sync at
 *    the call (a module on the host: nothing); the same of the outside
 *    module hf.c makes of a transformers class the job names
 *    (libv_inst_save), and of a repository module deriving from the
 *    library's module class that does not define the method (extbase.c).
 *  - pretrained_placement_keywords given None or False (device_map=None,
 *    their defaults) place nothing: the module is on the host as without
 *    them.  Two such modules bound on the two paths of an undecided `if`,
 *    in the same place, stay one (libv_same_place_modules, exec.c).
 *  - pretrained_device_keywords: Cls.from_pretrained(..., device_map=D)
 *    of such a module class, D naming a device (a CUDA spec, a GPU index,
 *    the job's device choice, or a dict whose every value is one): the
 *    weights read on the host and copied there on load, an H2D at the
 *    call; the module is on the device (LIB_MODULE_DEVICE_REASON: its
 *    .to(device) moves nothing).  "auto" and the like, the host, or a
 *    value not known: no copy, the module's place not known (as before).
 *  - model_copy_holders: a library's object built from a model that keeps
 *    a copy of it in an attribute (timm's ModelEma v1: self.ema =
 *    deepcopy(model)) holds the job's module, copied, there -- where the
 *    model is, unless a device it is given moves the copy (then nothing
 *    is set: the attribute stays not known).
 *  - device_loaders: a library's loader given a device (safetensors'
 *    load_file(f, device="cuda")) copies what it loads there: an H2D at
 *    the call, and an object loaded onto the device (LOADED_ON_DEVICE_
 *    REASON); given the host, or no device, one loaded onto the host.
 *  - library_pipelines: a library's inference pipeline built with a
 *    device (transformers.pipeline(..., device="cuda")) moves its model
 *    there at the factory's call (an H2D: LIB_PIPELINE_DEVICE_REASON);
 *    each call of it copies its inputs there and the model's outputs back
 *    to the host (an H2D and a sync at the job's call), and gives host
 *    data (LIB_PIPELINE_OUTPUT_REASON).
 *  - accelerator_device_names: a library accelerator's method naming a
 *    device (DeepSpeed's get_accelerator().current_device_name()) returns
 *    that device's spec: a str, or one whose text after "TYPE:" is not
 *    known (str_prefix), which torch.device and .to() read as TYPE.
 * Nothing here is a copy when the target is the host, a dtype, or missing.
 * No function here fails: each returns NULL when the value is none of
 * these (the caller goes on as before).  Values are in the interp's arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

static int reason_is(const value_t *v, const char *r)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->reason && !strcmp(v->reason, r);
}

int libv_is_module(const value_t *v)
{
	return reason_is(v, LIB_MODULE_HOST_REASON) || reason_is(v, LIB_MODULE_DEVICE_REASON);
}

/* a and b, the values two paths of an undecided `if` bound, are both a
 * library's module not read, in the same place (both on the host, or
 * both moved to the device): what either path built */
int libv_same_place_modules(const value_t *a, const value_t *b)
{
	return a && b && libv_is_module(a) && libv_is_module(b) && !strcmp(a->reason, b->reason);
}

/* d is Cls.from_pretrained of a library class that is a module (catalog
 * module_packages and pretrained_module_words: transformers.CLIPTextModel,
 * not transformers.CLIPTokenizer) */
static int pretrained_module(const struct catalog *cat, const char *d)
{
	static const char meth[] = ".from_pretrained";
	size_t n = strlen(d), m = sizeof meth - 1;
	const char *last;
	char cls[256];

	if (n <= m || n - m >= sizeof cls || strcmp(d + n - m, meth))
		return 0;
	memcpy(cls, d, n - m);
	cls[n - m] = '\0';
	last = strrchr(cls, '.');
	if (!last || last[1] < 'A' || last[1] > 'Z' || !catalog_fact_match(cat, CATALOG_F_MODULE_PACKAGES, cls))
		return 0;
	return catalog_fact_match(cat, CATALOG_F_PRETRAINED_MODULE_WORDS, last + 1) != NULL;
}

/* recv.method() of a library's module whose class the catalog lists in
 * module_tensor_methods with that method (metric.compute()): a tensor
 * where the module's states are -- the device after a .to(device), the
 * host when never moved, not known after a move under a condition not
 * decided; NULL when it is no such call */
int libv_is_tensor_method(const struct interp *in, const struct vinst *m, const char *name)
{
	const char *ms;
	size_t n = strlen(name);

	if (!m->ext || m->mod != VM_EXTERNAL || m->cls || !n ||
	    !(ms = catalog_fact_match(in->cat, CATALOG_F_MODULE_TENSOR_METHODS, m->ext)))
		return 0;
	for (; (ms = strstr(ms, name)); ms += n)
		if (ms[-1] == '|' && ms[n] == '|')
			return 1;
	return 0;
}

value_t *libv_module_method(struct frame *f, const char *last, const value_t *recv)
{
	const struct vinst *m;

	if (!recv || recv->k != VK_INST || !libv_is_tensor_method(f->in, m = recv->u.inst, last))
		return NULL;
	return v_tensor_dev(f->in->a, m->on_device == 1 ? DEV_DEVICE : m->on_device == 0 ? DEV_HOST : DEV_UNKNOWN, 0);
}

/* Does v name one device, not the host, that weights can be placed on:
 * a CUDA spec ("cuda", "cuda:0", torch.device("cuda")), a GPU index (an
 * int >= 0), the job's device choice (devchoice.c: a GPU under its
 * condition) or a library's run-time device (accelerator.device); and, at
 * the top (dict_ok), a dict listing every key it holds whose every value
 * does.  "auto", "cpu", None and values not known do not. */
static int names_placement(struct interp *in, const value_t *v, int dict_ok)
{
	size_t i;

	if (!v)
		return 0;
	if (v->k == VK_INT)
		return v->u.i >= 0;
	if (names_cuda(v) || devchoice_cond(in, v) || framework_device_cond(in, v))
		return 1;
	if (!dict_ok || v->k != VK_DICT || !v->u.dict || !v->u.dict->n || dict_may_hold(v->u.dict))
		return 0;
	for (i = 0; i < v->u.dict->n; i++)
		if (!names_placement(in, v->u.dict->vals[i], 0))
			return 0;
	return 1;
}

/* The value of kw's keyword of catalog pretrained_device_keywords
 * (device_map) when it names a device (names_placement), else NULL */
static const value_t *placement_of(struct interp *in, const struct vdict *kw)
{
	size_t i;

	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR &&
		    catalog_fact(in->cat, CATALOG_F_PRETRAINED_DEVICE_KEYWORDS, kw->keys[i]->u.str.s))
			return names_placement(in, kw->vals[i], 1) ? kw->vals[i] : NULL;
	return NULL;
}

int libv_places_on_device(struct interp *in, const struct vdict *kw)
{
	return placement_of(in, kw) != NULL;
}

/* the weights of what (a class's from_pretrained) loaded onto dv: one
 * host-to-device copy at the call, noted as the job placing data on dv
 * (devchoice_place: a choice's condition) */
static void placed_copy(struct frame *f, const char *what, const value_t *dv, const struct ast_hdr *site)
{
	struct sched_ev *e;

	f->in->gpu = 1;
	devchoice_place(f, dv->k == VK_DICT ? dv->u.dict->vals[0] : dv);
	if ((e = sev(f, SEV_H2D, afmt(f->in, "%s (its weights loaded onto the device)", what), site))) {
		e->pinned = 0;
		e->non_blocking = 0;
		e->weights = 1;
	}
}

/* Cls.from_pretrained(..., device_map=D) of a library's module class not
 * read, D naming a device: the copy at the call, and the module on the
 * device (LIB_MODULE_DEVICE_REASON).  NULL otherwise. */
static value_t *pretrained_placed(struct frame *f, const char *d, const struct vdict *kw, const struct ast_hdr *site)
{
	const value_t *dv;

	if (!pretrained_module(f->in->cat, d) || !(dv = placement_of(f->in, kw)))
		return NULL;
	placed_copy(f, d, dv, site);
	return unknown_at(f, site, LIB_MODULE_DEVICE_REASON);
}

/* r, the model transformers' from_pretrained gave (hf.c hf_call: an Auto
 * class's, or one built from the installed library), given device_map=D
 * naming a device: the copy at the call, and r and its modules on the
 * device (module_placed_on_device); nothing for anything else (a config,
 * a tokenizer, no such keyword, a planner's word) */
void libv_hf_placed(struct frame *f, value_t *r, const struct vdict *kw, const struct ast_hdr *site)
{
	const value_t *dv;
	struct vinst *m;

	if (f->mode == M_FWD || !r || r->k != VK_INST || (m = r->u.inst)->mod == VM_NONE || !(dv = placement_of(f->in, kw)))
		return;
	placed_copy(f, m->ext ? m->ext : m->cls ? m->cls->name : "from_pretrained", dv, site);
	module_placed_on_device(f, m);
}

/* A placement keyword's value that places nothing: None or False, the
 * defaults of from_pretrained's device_map / quantization_config /
 * load_in_8bit (`device_map="auto" if quantize else None` decided None
 * loads the weights on the host, as if the keyword were not given). */
static int places_nothing(const value_t *v)
{
	return v->k == VK_NONE || (v->k == VK_BOOL && !v->u.b);
}

/* factory(name, ...) of catalog module_factories, outside a forward and
 * without device=: a library's module on the host; Cls.from_pretrained
 * given a device to load onto (pretrained_placed): the module there, its
 * copy at the call; NULL otherwise */
value_t *libv_module_factory(struct frame *f, const char *d, struct vdict *kw, const struct ast_hdr *site)
{
	size_t i;
	value_t *r;

	if (f->mode == M_FWD)
		return NULL;
	if (!catalog_fact(f->in->cat, CATALOG_F_MODULE_FACTORIES, d) && !pretrained_module(f->in->cat, d))
		return NULL;
	if ((r = pretrained_placed(f, d, kw, site)))
		return r;
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR &&
		    (!strcmp(kw->keys[i]->u.str.s, "device") ||
		     catalog_fact(f->in->cat, CATALOG_F_PRETRAINED_PLACEMENT_KEYWORDS, kw->keys[i]->u.str.s)) &&
		    !places_nothing(kw->vals[i]))
			return NULL;
	return unknown_at(f, site, LIB_MODULE_HOST_REASON);
}

/* the result r of a call fn(..., **kw): a mapping of host tensors when a
 * keyword of catalog host_tensor_returns has its value and fn is not the
 * repository's own (a library's object or function, or not known) and r
 * is not known; host data (r on the host) when a keyword of catalog
 * host_load_keywords names the host (map_location="cpu"); r otherwise */
value_t *libv_call_result(struct frame *f, const value_t *fn, const struct vdict *kw, value_t *r,
                          const struct ast_hdr *site)
{
	size_t i;

	if (!kw || !r || r->k != VK_UNKNOWN || r->alts || !fn)
		return r;
	if (!(fn->k == VK_UNKNOWN || fn->k == VK_EXT || (fn->k == VK_INST && fn->u.inst->ext)))
		return r;
	for (i = 0; i < kw->n; i++) {
		const char *want;

		/* torch_load(f, map_location="cpu"): a library's wrapper of
		 * torch.load gives what it loaded on the host */
		if (f->mode != M_FWD && kw->keys[i]->k == VK_STR &&
		    catalog_fact(f->in->cat, CATALOG_F_HOST_LOAD_KEYWORDS, kw->keys[i]->u.str.s) &&
		    dev_is_host(kw->vals[i]) == 1) {
			/* what torch.load(..., map_location="cpu") gives */
			r = unknown_at(f, site, LOADED_ON_HOST_REASON);
			r->dev = DEV_HOST;
			return r;
		}
		if (kw->keys[i]->k != VK_STR || kw->vals[i]->k != VK_STR)
			continue;
		want = catalog_fact(f->in->cat, CATALOG_F_HOST_TENSOR_RETURNS, kw->keys[i]->u.str.s);
		if (want && !strcmp(want, kw->vals[i]->u.str.s))
			return unknown_at(f, site, HOST_TENSOR_MAP_REASON);
	}
	return r;
}

/* d(..., <keyword>=D) of catalog library_pipelines, outside a forward,
 * D naming a device (not the host, not a negative int: transformers'
 * CPU index -1): the pipeline, its model moved there -- one host-to-device
 * copy at the call; NULL otherwise (the caller's value not known) */
value_t *libv_pipeline(struct frame *f, const char *d, const struct vdict *kw, const struct ast_hdr *site)
{
	const char *key;
	const value_t *dv;
	struct sched_ev *e;

	if (f->mode == M_FWD || !(key = catalog_fact(f->in->cat, CATALOG_F_LIBRARY_PIPELINES, d)) || !kw ||
	    !(dv = vdict_gets(kw, key)) || dv->k == VK_NONE || dev_is_host(dv) == 1 ||
	    (dv->k == VK_INT && dv->u.i < 0))
		return NULL;
	f->in->gpu = 1;
	devchoice_place(f, dv);
	if ((e = sev(f, SEV_H2D, afmt(f->in, "%s (its model moved to the device)", d), site))) {
		e->pinned = 0;
		e->non_blocking = 0;
	}
	return unknown_at(f, site, LIB_PIPELINE_DEVICE_REASON);
}

/* d(args...) of catalog device_loaders, outside a forward: what it
 * loads, on the device its argument names (one host-to-device copy at the
 * call; a device not known: the copy, and an object loaded where that is
 * not said) or on the host (named, or not given); NULL when d is none */
value_t *libv_device_load(struct frame *f, const char *d, value_t *const *args, size_t nargs,
                          const struct vdict *kw, const struct ast_hdr *site)
{
	const char *spec;
	const value_t *dv;
	struct sched_ev *e;
	int host;

	if (f->mode == M_FWD || !(spec = catalog_fact(f->in->cat, CATALOG_F_DEVICE_LOADERS, d)))
		return NULL;
	dv = colon_arg(spec, args, nargs, kw);
	host = !dv || dv->k == VK_NONE ? 1 : dev_is_host(dv);
	if (host == 1) {
		value_t *r = unknown_at(f, site, LOADED_ON_HOST_REASON);

		r->dev = DEV_HOST;
		return r;
	}
	if (dv->k == VK_STR && !strncmp(dv->u.str.s, "meta", 4))
		return unknown_at(f, site, LOADED_OBJECT_REASON);
	f->in->gpu = 1;
	devchoice_place(f, dv);
	if ((e = sev(f, SEV_H2D, afmt(f->in, "%s (loaded onto the device)", d), site))) {
		e->pinned = 0;
		e->non_blocking = 0;
	}
	return unknown_at(f, site, host == 0 ? LOADED_ON_DEVICE_REASON : LOADED_OBJECT_REASON);
}

/* fn(args...) of catalog subset_returns, its result r not known: the
 * argument it returns a part of, loaded from a file (onto the host or the
 * device, or not said where), gives r its reason; r otherwise */
value_t *libv_subset_result(struct frame *f, const value_t *fn, value_t *const *args, size_t nargs, value_t *r,
                            const struct ast_hdr *site)
{
	const char *pos;
	char *end;
	long p;

	if (f->mode == M_FWD || !r || r->k != VK_UNKNOWN || r->alts || !fn || fn->k != VK_EXT ||
	    !(pos = catalog_fact(f->in->cat, CATALOG_F_SUBSET_RETURNS, canon_ext(f->in, fn->u.ext))))
		return r;
	p = strtol(pos, &end, 10);
	if (end == pos || p < 0 || (size_t)p >= nargs || args[p]->k != VK_UNKNOWN || args[p]->alts ||
	    !IS_LOADED_REASON(args[p]->reason))
		return r;
	r = unknown_at(f, site, args[p]->reason);
	r->dev = args[p]->dev;
	return r;
}

/* model(**batch) of such a module, from job code: what it returns (a
 * tensor, or a ModelOutput of tensors), not read -- LIB_OUTPUT_REASON,
 * where the module's parameters are; its fields that the catalog lists
 * (library_output_fields: loss, logits ...) are tensors there
 * (libv_attr).  NULL when fn is no such module. */
value_t *libv_module_call(struct frame *f, const value_t *fn, const struct ast_hdr *site)
{
	value_t *r;
	int dev;

	if (f->mode == M_FWD)
		return NULL;
	if (reason_is(fn, LIB_MODULE_DEVICE_REASON))
		dev = DEV_DEVICE;
	else if (reason_is(fn, LIB_MODULE_HOST_REASON))
		dev = DEV_HOST;
	else
		return NULL;
	r = unknown_at(f, site, LIB_OUTPUT_REASON);
	r->dev = dev;
	return r;
}

/* obj.<name> of such a value: its .to or .cuda (a BatchEncoding has no
 * .cuda: one called is a tensor's, return_tensors="pt" of encode()),
 * bound to obj (recv); NULL for anything else */
value_t *libv_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site)
{
	value_t *m;
	int mod = reason_is(obj, LIB_MODULE_HOST_REASON), map = reason_is(obj, HOST_TENSOR_MAP_REASON);

	/* outputs.loss of what a library's module returned: a tensor where
	 * the module's parameters are */
	if (f->mode != M_FWD && reason_is(obj, LIB_OUTPUT_REASON) &&
	    catalog_fact(f->in->cat, CATALOG_F_LIBRARY_OUTPUT_FIELDS, name))
		return v_tensor_dev(f->in->a, obj->dev, 0);
	if (f->mode != M_FWD && reason_is(obj, LIB_MODULE_DEVICE_REASON) &&
	    catalog_fact(f->in->cat, CATALOG_F_MODULE_STATE_SAVERS, name)) {
		m = unknown_at(f, site, LIBV_SAVE_REASON);
		m->recv = obj;
		return m;
	}
	if (!(mod || map) || (f->mode == M_FWD && !map))
		return NULL;
	if (!strcmp(name, "to"))
		m = unknown_at(f, site, LIBV_TO_REASON);
	else if (!strcmp(name, "cuda"))   /* a module's; or a tensor's (encode(..., return_tensors="pt")) */
		m = unknown_at(f, site, LIBV_CUDA_REASON);
	else
		return NULL;
	m->recv = obj;
	return m;
}

/* recv.save_pretrained(...) of an outside module instance (a library's
 * model class named by the job, hf.c hf_unsized), or of a repository
 * module deriving from a library module class none of whose repository
 * classes defines the method (extbase.c class_module_base), whose method the catalog
 * lists in module_state_savers: moved to the device (surely), its tensors
 * are written from the host -- a save and a sync at the call, as
 * libv_call's LIBV_SAVE_REASON; moved under a condition not decided, the
 * same under it; on the host, nothing (as a library module on the host).
 * Given state_dict=, the tensors written are that mapping's, not the
 * module's: a save, no read stated.  NULL for anything else. */
value_t *libv_inst_save(struct frame *f, const char *last, const value_t *recv, const struct vdict *kw,
                        const struct ast_hdr *site)
{
	const struct vinst *m;
	const struct jctx *ojc = f->jc;

	int dev;

	if (f->mode == M_FWD || !recv || recv->k != VK_INST || !catalog_fact(f->in->cat, CATALOG_F_MODULE_STATE_SAVERS, last))
		return NULL;
	m = recv->u.inst;
	if (m->mod == VM_EXTERNAL && m->ext && !m->cls)
		dev = m->on_device;
	else if (m->mod == VM_REPO && m->cls && class_module_base(f->in, m->cls))   /* extbase.c */
		dev = m->on_device ? m->on_device : module_built_on_device(f->in, m);
	else
		return NULL;
	if (!dev)
		return v_none(f->in->a);
	sev(f, SEV_SAVE, text_of(f, site), site);
	if (!(kw && vdict_gets(kw, "state_dict"))) {
		if (dev != 1)
			f->jc = jc_push(f, JC_COND, anchor_at(f, site),
			                "the module was moved to the device (under a condition not decided here)");
		sev(f, SEV_SYNC, afmt(f->in, "%s (the module's device tensors written from the host)", text_of(f, site)),
		    site);
		f->jc = ojc;
	}
	return v_none(f->in->a);
}

/* the call of a method libv_attr() gave: the copy, the receiver moved in
 * place and returned; NULL when fn is no such method */
value_t *libv_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	int cuda = reason_is(fn, LIBV_CUDA_REASON);
	value_t *self = fn ? fn->recv : NULL, *target;
	int mod;
	struct sched_ev *e;

	if (reason_is(fn, LIBV_SAVE_REASON) && self && f->mode != M_FWD) {
		sev(f, SEV_SAVE, text_of(f, site), site);
		sev(f, SEV_SYNC, afmt(f->in, "%s (the module's device tensors written from the host)", text_of(f, site)), site);
		return v_none(f->in->a);
	}
	/* pipe(inputs) of a pipeline whose model is on the device: the
	 * inputs copied there, the outputs back to the host */
	if (reason_is(fn, LIB_PIPELINE_DEVICE_REASON) && f->mode != M_FWD) {
		if ((e = sev(f, SEV_H2D, afmt(f->in, "%s (the pipeline's inputs copied to its device)", text_of(f, site)), site))) {
			e->pinned = 0;
			e->non_blocking = 0;
		}
		sev(f, SEV_SYNC, afmt(f->in, "%s (the pipeline's outputs copied to the host)", text_of(f, site)), site);
		return unknown_at(f, site, LIB_PIPELINE_OUTPUT_REASON);
	}
	if (!(cuda || reason_is(fn, LIBV_TO_REASON)) || !self)
		return NULL;
	mod = reason_is(self, LIB_MODULE_HOST_REASON);
	if (f->mode == M_FWD && (mod || reason_is(self, LIB_MODULE_DEVICE_REASON)))
		return NULL;                  /* a library module's move: job code only */
	if (!mod && !reason_is(self, HOST_TENSOR_MAP_REASON))
		return self;                  /* moved already: nothing from the host */
	target = cuda ? NULL : nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "device") : NULL;
	if (!cuda && (!target || dev_is_host(target) == 1 || value_is_dtype(f->in->cat, target)))
		return self;                  /* a dtype, the host: no copy */
	f->in->gpu = 1;
	if ((e = sev(f, SEV_H2D, mod ? (cuda ? "model.cuda(): parameters and buffers" : "model.to(device): parameters and buffers")
	                             : cuda ? ".cuda()" : ".to(device): every tensor of the mapping", site))) {
		e->pinned = 0;
		e->non_blocking = kw_bool(kw, "non_blocking");
		e->weights = mod;
	}
	if (!mod && cuda)                 /* a tensor's .cuda(): a new tensor, x unchanged */
		return unknown_at(f, site, DEVICE_TENSOR_MAP_REASON);
	self->reason = mod ? LIB_MODULE_DEVICE_REASON : DEVICE_TENSOR_MAP_REASON;
	return self;
}

/* obj[key] with a str key of a mapping of tensors: one of them, where the
 * mapping lives; NULL otherwise */
value_t *libv_item(struct frame *f, const value_t *obj, const value_t *key)
{
	if (!key || key->k != VK_STR)
		return NULL;
	/* outputs["loss"] of what a library's module returned (a ModelOutput
	 * is a mapping too): as outputs.loss (libv_attr; call.c lib_out) */
	if (f->mode != M_FWD && (reason_is(obj, LIB_OUTPUT_REASON) || obj->lib_out) &&
	    catalog_fact(f->in->cat, CATALOG_F_LIBRARY_OUTPUT_FIELDS, key->u.str.s))
		return v_tensor_dev(f->in->a, obj->dev, 0);
	if (reason_is(obj, HOST_TENSOR_MAP_REASON))
		return v_tensor_dev(f->in->a, DEV_HOST, 0);
	if (reason_is(obj, DEVICE_TENSOR_MAP_REASON))
		return v_tensor_dev(f->in->a, DEV_DEVICE, 0);
	return NULL;
}

/* meter.update(x) of a library meter (catalog value_meters: the method's
 * dotted name -> the attributes it sets from x, the first the value as
 * given, the others sums and means of the values given): x is kept, and
 * the others become a tensor where x is when x is a tensor (a device
 * tensor's running sum stays on the device, also after a later Python
 * number is added), a number when x is one, else not known.  Journalled
 * as any attribute write.  None returned; NULL when fn is no such method
 * (or in a forward). */
value_t *libv_meter_update(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *names = catalog_fact(in->cat, CATALOG_F_VALUE_METERS, d), *p;
	value_t *x;
	int first = 1;

	if (!names || f->mode == M_FWD || !recv || recv->k != VK_INST || !recv->u.inst->ext || nargs < 1)
		return NULL;
	x = args[0];
	for (p = names; *p;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *name = astr(in, afmt(in, "%.*s", (int)n, p));
		value_t *old = vdict_gets(recv->u.inst->attrs, name), *v;

		if (first) {
			v = x;
		} else if (old && old->k == VK_TENSOR) {
			/* old + x: a tensor still, where the two are */
			v = v_tensor_dev(in->a, x->k == VK_TENSOR && x->dev != old->dev ? (int)DEV_UNKNOWN : (int)old->dev, 0);
		} else if (x->k == VK_TENSOR) {
			v = v_tensor_dev(in->a, x->dev, 0);
		} else if (value_is_known_scalar(x) || (x->k == VK_UNKNOWN && x->plain)) {
			v = unknown_at(f, site, "a running sum or mean of Python numbers");
			v->plain = 1;
		} else {
			v = unknown_at(f, site, "a running sum or mean of values not known");
		}
		journal_note(in, recv->u.inst->attrs, name);
		vdict_sets(in->a, recv->u.inst->attrs, name, v);
		first = 0;
		p += n;
		if (*p == ',')
			p++;
	}
	return v_none(in->a);
}

/* acc.device_name(i) / acc.current_device_name() of a library accelerator
 * (catalog accelerator_device_names): "TYPE" with no index, "TYPE:i" with
 * a known int i, else a str known to start with "TYPE:" (the index not
 * known).  NULL when d is no such method. */
value_t *libv_device_name(struct frame *f, const char *d, value_t **args, size_t nargs, const struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_ACCELERATOR_DEVICE_NAMES, d);
	const value_t *idx;
	size_t n;
	value_t *r;

	if (!spec || !(n = strlen(spec)))
		return NULL;
	idx = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "device_index") : NULL;
	if (spec[n - 1] != ':' && (!idx || idx->k == VK_NONE))
		return v_str(in->a, spec);
	if (spec[n - 1] != ':' && idx->k == VK_INT)
		return v_str(in->a, afmt(in, "%s:%lld", spec, (long long)idx->u.i));
	r = unknown_at(f, site, afmt(in, "a %.*s device's name, its index not known", (int)(n - (spec[n - 1] == ':')), spec));
	r->str_prefix = spec[n - 1] == ':' ? astr(in, spec) : astr(in, afmt(in, "%s:", spec));
	return r;
}

/* Cls(model, ...) of catalog model_copy_holders ("ATTR@POS"): o.ATTR is a
 * copy of the module given at POS (or as model=), when no device= other
 * than '' moves it.  Nothing else changes; never fails. */
void libv_model_copy(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                     const struct vdict *kw)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_MODEL_COPY_HOLDERS, d), *at;
	const value_t *dev = kw ? vdict_gets(kw, "device") : NULL;
	value_t *m;
	long pos;

	if (!spec || !(at = strchr(spec, '@')) || f->mode == M_FWD)
		return;
	pos = strtol(at + 1, NULL, 10);
	m = pos >= 0 && (size_t)pos < nargs ? args[pos] : kw ? vdict_gets(kw, "model") : NULL;
	if (!m || m->k != VK_INST || m->u.inst->mod == VM_NONE)
		return;
	if (dev && !(dev->k == VK_STR && !dev->u.str.len) && dev->k != VK_NONE)
		return;       /* the copy moved (device='cpu'), or maybe: not stated */
	vdict_sets(in->a, o->attrs, afmt(in, "%.*s", (int)(at - spec), spec), deepcopy_value(in, m, 0));
}

