/* interp/interp.c - the public side of include/ecg/interp.h
 *
 * An interpreter is made (interp_new) over a prog and the catalogue, told
 * the job's --set overrides, loader and argv, run from the entry script or
 * one of its functions (interp_run_*), and then read: the models built,
 * the root calls, the notes, the schedule events, a model's forward read
 * again with given arguments (interp_forward).  interp_free releases
 * everything it owns (one arena, the tables of strpool.c and budget.c).
 * The evaluator itself is in the other files of csrc/interp/ (internal.h
 * lists them); this file holds no Python semantics.
 */
#include "config.h"

#include "internal.h"

/* ------------------------------------------------------------------ the public side */

struct interp *interp_new(struct prog *p, const struct catalog *cat)
{
	struct interp *in = xcalloc(1, sizeof *in);

	in->prog = p;
	in->cat = cat;
	in->a = ast_arena_new_large();
	in->strs.first = 4096;
	in->fncost.first = 256;
	in->sitecost.first = 256;
	in->ns_alloc = p->n + 1;
	in->ns = xcalloc(in->ns_alloc, sizeof *in->ns);
	in->builtins = vdict_new(in->a);
	in->overrides = vdict_new(in->a);
	in->config_asked = vdict_new(in->a);
	natives_register(in);
	builtins_register(in);
	vdict_sets(in->a, in->builtins, "__name__", v_str(in->a, "builtins"));
	in->trace_shapes = getenv("ECG_TRACE_SHAPES") != NULL;
	in->trace_steps = getenv("ECG_TRACE_STEPS") != NULL;
	return in;
}

static int hot_cmp(const void *a, const void *b)
{
	long x = ((const struct hot *)a)->n, y = ((const struct hot *)b)->n;

	return (y > x) - (y < x);
}

void interp_free(struct interp *in)
{
	size_t i;

	if (!in)
		return;
	if (in->trace_steps) {
		qsort(in->hot, in->nhot, sizeof in->hot[0], hot_cmp);
		fprintf(stderr, "steps: %ld in all\n", in->steps);
		for (i = 0; i < in->nhot && i < 25; i++)
			fprintf(stderr, "steps: %8ld  %s\n", in->hot[i].n * 1024, in->hot[i].key);
	}
	ast_arena_free(in->a);
	free(in->ns);
	free(in->roots);
	free(in->models);
	free(in->model_names);
	free(in->notes);
	free(in->sev);
	free(in->model_calls);
	free(in->hook_sev);
	free(in->hooks);
	free(in->grad_hooks);
	free(in->bwd_queue);
	strmap_free(&in->strs);
	strmap_free(&in->machine_conds);
	strmap_free(&in->installed);
	strmap_free(&in->device_saved);
	free(in->amemo);
	free(in->tmemo);
	free(in->genmemo);
	free(in->fmemo);
	for (i = 0; i < in->fncost.cap; i++)
		free((void *)in->fncost.slot[i].ptr);
	ptrmap_free(&in->fncost);
	for (i = 0; i < in->sitecost.cap; i++) {
		struct sitecost *c = (struct sitecost *)in->sitecost.slot[i].ptr, *nx;

		for (; c; c = nx) {
			nx = c->next;
			free(c);
		}
	}
	ptrmap_free(&in->sitecost);

	ptrmap_free(&in->log_accum);
	ptrmap_free(&in->stage_share);
	free(in);
}

struct ast_arena *interp_arena(struct interp *in)
{
	return in->a;
}

const struct catalog *interp_catalog(const struct interp *in)
{
	return in->cat;
}

int interp_state_dict_type_set(const struct interp *in)
{
	return in->sd_type_set;
}

void interp_set_override(struct interp *in, const char *key, const char *text)
{
	char *end;
	long long i = strtoll(text, &end, 0);
	value_t *v;
	size_t n = strlen(text);

	if (*text && !*end) {
		v = v_int(in->a, i);
	} else {
		double d = strtod(text, &end);

		/* the words --set reads as Python's (and JSON's) constants */
		static const struct { const char *w; int k; } consts[] = {
			{ "True", 1 }, { "true", 1 }, { "False", 0 }, { "false", 0 }, { "None", -1 }, { "null", -1 },
		};
		size_t c;

		for (c = 0; c < sizeof consts / sizeof consts[0] && strcmp(text, consts[c].w); c++)
			;
		if (*text && !*end)
			v = v_float(in->a, d);
		else if (c < sizeof consts / sizeof consts[0])
			v = consts[c].k < 0 ? v_none(in->a) : v_bool(in->a, consts[c].k);
		else if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
			v = v_strn(in->a, text + 1, n - 2);
		else
			v = v_str(in->a, text);
	}
	vdict_sets(in->a, in->overrides, key, v);
}

int interp_config_read(const struct interp *in, const char *key)
{
	return vdict_gets(in->config_asked, key) != NULL;
}

size_t interp_config_names(const struct interp *in, const char **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < in->config_asked->n && n < max; i++)
		if (in->config_asked->keys[i]->k == VK_STR)
			out[n++] = in->config_asked->keys[i]->u.str.s;
	return n;
}

void interp_set_loader(struct interp *in, interp_load_fn fn, void *ctx)
{
	in->load = fn;
	in->load_ctx = ctx;
}

void interp_set_text_loader(struct interp *in, interp_text_fn fn, void *ctx)
{
	in->load_text = fn;
	in->load_text_ctx = ctx;
}

void interp_set_tree(struct interp *in, interp_tree_fn fn, void *ctx)
{
	in->tree = fn;
	in->tree_ctx = ctx;
}

void interp_set_fs_json_loader(struct interp *in, interp_fs_json_fn fn, void *ctx)
{
	in->load_fs_json = fn;
	in->load_fs_json_ctx = ctx;
}

void interp_set_argv(struct interp *in, const char *const *argv, size_t n)
{
	size_t i;

	in->argv = v_seq(in->a, VK_LIST, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, in->argv->u.seq, v_str(in->a, argv[i]));
}

void interp_set_env(struct interp *in, const char *const *kv, size_t n, int partial)
{
	size_t i;

	in->environ = v_dict(in->a);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '=');

		if (eq)
			vdict_set(in->a, in->environ->u.dict, v_strn(in->a, kv[i], (size_t)(eq - kv[i])),
			          v_str(in->a, eq + 1));
		else
		{
			value_t *u = v_unknown(in->a, kv[i], "an environment variable set by the launcher");

			fact_env_value(u, kv[i]);
			vdict_set(in->a, in->environ->u.dict, v_str(in->a, kv[i]), u);
		}
	}
	/* the launcher's variables only: any other may be set, to anything */
	if (partial)
		in->environ->u.dict->anykey = 1;
}

/* Run a file as the job does: as __main__ (func NULL), or imported under
 * its own name and then func() called, as a console script's wrapper does. */
static int interp_run(struct interp *in, struct sfile *entry, const char *func)
{
	struct vns *ns;
	struct frame f;

	in->entry_path = entry->path;
	prog_ensure(in->prog, entry);
	if (!entry->mod)
		return -1;
	ns = ast_arena_alloc(in->a, sizeof *ns);
	ns->file = entry;
	ns->dict = vdict_new(in->a);
	ns->state = 1;
	*ns_slot(in, entry) = ns;
	in->entry_ns = ns;
	vdict_sets(in->a, ns->dict, "__name__", v_str(in->a, func && entry->modname ? entry->modname : "__main__"));
	vdict_sets(in->a, ns->dict, "__file__", v_str(in->a, entry->path));
	memset(&f, 0, sizeof f);
	f.in = in;
	f.file = entry;
	f.globals = ns;
	f.mode = M_JOB;
	f.mult.n = 1;
	f.cond.taken = -1;
	(void)exec_block(&f, &entry->mod->body);
	ns->state = 2;
	if (func) {
		value_t *fn = vdict_gets(ns->dict, func);

		if (!fn || fn->k != VK_FUNC)
			return -1;
		/* the job starts at the function: its definition is the anchor */
		in->ev.main_guard = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
		                         func_first_line(fn->u.fn->def));
		(void)call_function(&f, fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
	}
	/* the server's start-up (lifespan, on_event("startup")), then the
	 * request handlers the framework would call, once each */
	{
		size_t i;

		in->run_generators = 1;
		for (i = 0; i < in->nstartup; i++) {
			struct frame sf = f;
			value_t *app = v_unknown(in->a, "app", "the application object");

			(void)call_function(&sf, in->startup[i]->u.fn, NULL, &app, 1, NULL, M_JOB, NULL, NULL);
		}
		in->run_generators = 0;

		for (i = 0; i < in->nhandlers; i++) {
			struct frame hf = f;
			value_t *r;

			hf.handler = in->handlers[i].anchor;
			hf.jc = jc_push(&hf, JC_HANDLER, in->handlers[i].anchor, "a request");
			r = call_function(&hf, in->handlers[i].fn->u.fn, NULL, NULL, 0, NULL, M_JOB, NULL, NULL);
			/* a handler that returns a generator: the framework
			 * streams it, reading its body */
			if (r && is_gen_value(r))
				(void)gen_next(&hf, r->u.inst, NULL);
		}
	}
	/* the forward hooks read at their removal: their events after the
	 * job's, as the forwards' are */
	if (in->nhook_sev) {
		GROW(in->sev, in->asev, in->nsev + in->nhook_sev);
		memcpy(in->sev + in->nsev, in->hook_sev, in->nhook_sev * sizeof *in->sev);
		in->nsev += in->nhook_sev;
		in->nhook_sev = 0;
	}
	return 0;
}

void interp_run_entry(struct interp *in, struct sfile *entry)
{
	(void)interp_run(in, entry, NULL);
}

int interp_run_function(struct interp *in, struct sfile *file, const char *func)
{
	return interp_run(in, file, func);
}

const struct root_call *interp_roots(const struct interp *in, size_t *n)
{
	*n = in->nroots;
	return in->roots;
}

const struct vdict *interp_globals(const struct interp *in)
{
	return in->entry_ns ? in->entry_ns->dict : NULL;
}

struct vinst *const *interp_models(const struct interp *in, const char *const **names, size_t *n)
{
	*n = in->nmodels;
	*names = in->model_names;
	return in->models;
}

static value_t *forward_body(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                             struct vdict *kwargs, struct fseq *out);

/* The repo function a hook value calls, or NULL. */
static const struct ast_hdr *hook_def(const value_t *v)
{
	if (v->k == VK_BOUND)
		v = v->u.bound.fn;
	return v && v->k == VK_FUNC ? v->u.fn->def : NULL;
}

/* Is c, or a context around it, the node l (the same node, or one of
 * the same kind at the same anchor: a loop's body read again pushes a
 * node of its own)? */
static int jc_has(const struct jctx *c, const struct jctx *l)
{
	for (; c; c = c->up)
		if (c == l || (c->kind == l->kind && c->anchor && l->anchor && !strcmp(c->anchor, l->anchor)))
			return 1;
	return 0;
}

/* Was hook k, removed now, in place at one of the job's calls of a
 * model?  Either registered before the call and removed after it, or
 * registered after the call inside a loop around it and removed only
 * outside that loop -- then it is in place when the loop comes round to
 * the call again (a wrapper that takes its hooks off for the first step,
 * or around a checkpoint save, and puts them back).  A hook removed again
 * in the loop is not counted there (a row missing, never a wrong one).
 * (A hook never removed runs with the forwards ecg reads after the job.)
 * Never fails. */
static int hook_in_force(const struct interp *in, const struct fwdhook *k)
{
	size_t c;
	const struct jctx *l;

	for (c = 0; c < in->nmodel_calls; c++) {
		size_t i = in->model_calls[c];
		const struct sched_ev *e = &in->sev[i];

		if (e->in_forward)
			continue;
		if (i >= k->reg_at && i < k->rm_at)
			return 1;
		if (i < k->reg_at)
			for (l = e->ctx; l; l = l->up)
				if (l->kind == JC_LOOP && jc_has(k->reg_jc, l) && !jc_has(k->rm_jc, l))
					return 1;
	}
	return 0;
}

/* Hook k read once on its module: a pre-hook with (module, args), a hook
 * with (module, args, output).  Its schedule events are the forward's
 * (phase forward, counted like it); its ops are not the module's (kept in
 * the arena, not in its sequence).  A hook whose function is registered
 * on more than one module runs once per module that has it, but how often
 * it acts per call of the model is not known: its events' counts are left
 * unknown. */
static void run_hook(struct interp *in, const struct fwdhook *k, value_t **args, size_t nargs, value_t *out_v)
{
	const struct ast_hdr *def = hook_def(k->fn);
	const struct vfunc *fn = (k->fn->k == VK_BOUND ? k->fn->u.bound.fn : k->fn)->u.fn;
	value_t *tup, *a[3];
	struct frame f;
	struct fseq own;          /* the hook's ops: not the module's (its schedule events are kept) */
	size_t from = in->nsev, nreg = 0, j;

	memset(&f, 0, sizeof f);
	memset(&own, 0, sizeof own);
	f.in = in;
	f.mode = M_FWD;
	f.ev = &own;
	f.mult.n = 1;
	f.cond.taken = -1;
	f.file = fn->file;
	f.globals = fn->globals;
	f.qualname = fn->qualname;
	tup = v_seq(in->a, VK_TUPLE, 0);
	for (j = 0; j < nargs; j++)
		vseq_push(in->a, tup->u.seq, args[j]);
	a[0] = mk_inst_value(in, k->m);
	a[1] = tup;
	a[2] = out_v ? out_v : v_none(in->a);
	(void)call(&f, k->fn, a, k->pre ? 2 : 3, NULL, NULL);
	for (j = 0; j < in->nhooks; j++)
		if (hook_def(in->hooks[j].fn) == def)
			nreg++;
	if (nreg > 1)
		for (j = from; j < in->nsev; j++) {
			in->sev[j].fwd_mult = -1;
			in->sev[j].in_hook = 1;
		}
}

/* m's forward hooks of one kind (pre or not) not removed, run in
 * registration order as torch does (a removed one was read at its
 * removal, hook_removed()). */
static void run_fwd_hooks(struct interp *in, struct vinst *m, int pre, value_t **args, size_t nargs,
                          value_t *out_v)
{
	size_t i;

	for (i = 0; i < in->nhooks; i++) {
		const struct fwdhook *k = &in->hooks[i];

		if (k->m == m && k->pre == pre && !k->removed && hook_def(k->fn))
			run_hook(in, k, args, nargs, out_v);
	}
}

void hook_removed(struct frame *f, size_t ix)
{
	struct interp *in = f->in;
	struct fwdhook *k = &in->hooks[ix];
	struct attr_journal j;
	const struct sched_call *oc = in->cur_call;
	long long oo = in->fwd_outer, oje = in->job_events;
	size_t from = in->nsev, omc = in->nmodel_calls;
	value_t *x;

	if (k->removed)
		return;
	k->removed = 1;
	k->rm_at = in->nsev;
	k->rm_jc = jc_here(f);
	if (!hook_def(k->fn) || !hook_in_force(in, k) || in->hook_reading)
		return;
	/* read as the forward would read it: outside the job's calls and
	 * loops, the objects' writes undone after it */
	in->cur_call = NULL;
	in->fwd_outer = 0;
	in->hook_reading = 1;
	journal_open(in, &j);
	x = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
	run_hook(in, k, &x, 1, k->pre ? NULL : v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0));
	journal_discard(in, &j, NULL, 0);
	in->hook_reading = 0;
	in->cur_call = oc;
	in->fwd_outer = oo;
	in->job_events = oje;
	/* its events kept aside until the job is read (then after it, as a
	 * forward's are): here they would be the job's loop's own work */
	if (in->nsev > from) {
		GROW(in->hook_sev, in->ahook_sev, in->nhook_sev + (in->nsev - from));
		memcpy(in->hook_sev + in->nhook_sev, in->sev + from, (in->nsev - from) * sizeof *in->sev);
		in->nhook_sev += in->nsev - from;
		in->nsev = from;
		in->nmodel_calls = omc;
	}
}

value_t *interp_forward(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                        struct vdict *kwargs, struct fseq *out)
{
	value_t *r;
	struct vinst *oroot = in->fwd_root;

	if (!oroot)
		in->fwd_root = m;
	run_fwd_hooks(in, m, 1, args, nargs, NULL);
	r = forward_body(in, m, args, nargs, kwargs, out);
	run_fwd_hooks(in, m, 0, args, nargs, r);
	in->fwd_root = oroot;
	return r;
}

static value_t *forward_body(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                             struct vdict *kwargs, struct fseq *out)
{
	struct frame f;
	value_t *fwd;
	struct vclass *owner = NULL;
	struct fwdinfo *fi = *fwd_entry_slot(in, m);

	memset(&f, 0, sizeof f);
	f.in = in;
	f.mode = M_FWD;
	f.ev = out;
	f.mult.n = 1;
	f.cond.taken = -1;
	if (m->mod == VM_CONTAINER) {
		if (m->ext && !strcmp(m->ext, "torch.nn.Sequential") && in->prog->n) {
			f.file = &in->prog->files[0];
			f.qualname = "<module>";
			return sequential_forward(in, m, nargs ? args[0] : v_tensor(in->a), out, &f,
			                          fi ? fi->call_anchor : NULL);
		}
		return v_unknown(in->a, NULL, "a container is not callable");
	}
	if (m->mod != VM_REPO || !m->cls || !(fwd = class_lookup(m->cls, "forward", &owner)) || fwd->k != VK_FUNC)
		return layer_result(in, m, args, nargs, kwargs);
	f.file = fwd->u.fn->file;
	f.globals = fwd->u.fn->globals;
	f.qualname = fwd->u.fn->qualname;
	{
		value_t **a2 = xmalloc((nargs + 1) * sizeof *a2);
		size_t i;
		value_t *r;

		/* arguments not known at the call are tensors in a forward --
		 * loose ones: the argument may as well be a list or a dict of
		 * them (a detector's list of per-image dicts), whose truth is
		 * no read of the device */
		for (i = 0; i < nargs; i++) {
			a2[i] = args[i];
			if (args[i]->k == VK_UNKNOWN) {
				a2[i] = v_tensor_dev(in->a, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
				a2[i]->loose = 1;
			}
		}
		r = call_function(&f, fwd->u.fn, mk_inst_value(in, m), a2, nargs, kwargs, M_FWD, out, NULL);
		free(a2);
		return r;
	}
}

const char *interp_forward_anchor(struct interp *in, struct vinst *m)
{
	value_t *fwd;
	struct vclass *owner = NULL;

	if (!m->cls)
		return NULL;
	fwd = class_lookup(m->cls, "forward", &owner);
	if (!fwd || fwd->k != VK_FUNC)
		return NULL;
	return aanchor(in, fwd->u.fn->file->path, fwd->u.fn->qualname, func_first_line(fwd->u.fn->def));
}

const struct interp_note *interp_notes(const struct interp *in, size_t *n)
{
	*n = in->nnotes;
	return in->notes;
}

const char *interp_class_name(const struct vinst *m)
{
	if (m->cls)
		return m->cls->name;
	return m->ext ? m->ext : "?";
}

const struct fseq *interp_events_of(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? &fi->seq : NULL;
}

value_t *interp_forward_ret(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi && fi->state == 2 ? fi->ret : NULL;
}

const char *interp_grad_call_anchor(const struct vinst *m)
{
	return m->grad_call_anchor ? m->grad_call_anchor : interp_call_anchor(m);
}

const char *interp_call_anchor(const struct vinst *m)
{
	const struct fwdinfo *fi = m->entry;

	return fi ? fi->call_anchor : NULL;
}

int interp_saw_backward(const struct interp *in)
{
	return in->saw_backward;
}

const struct interp_evidence *interp_evidence(const struct interp *in)
{
	return &in->ev;
}

size_t interp_candidates(const struct interp *in, struct vinst *const **insts, const char *const **anchors)
{
	*insts = in->models;
	*anchors = in->model_names;
	return in->nmodels;
}

const struct sched_ev *interp_sched(const struct interp *in, size_t *n)
{
	*n = in->nsev;
	return in->sev;
}
