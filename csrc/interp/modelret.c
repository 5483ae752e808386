/* interp/modelret.c - what a model called from job code returns
 *
 * Job code calling a repository module (`pred = model(imgs)`,
 * `loss_dict = model(images, targets)`), or torch's nn.Sequential (its
 * children read in order: reads_return), gets what its forward returns:
 * the structure (a tensor, a tuple, a list, a dict of tensors), with the
 * shapes the forward reading computed, read in the mode each module is in
 * at that call (.train()/.eval() decide `if self.training:` there; attr.c
 * reads `training` so while in->rv_reading is set).
 *
 * The reading is a side reading: it must leave no trace on the job's
 * records nor on the forward reading modtree.c makes later.  So its
 * forward events go to a throw-away sequence, the schedule events, notes,
 * hooks and roots it adds are cut off again, the job's facts it may set
 * (in->gpu, the default device, dist_init ...) put back, each module's forward cache (the
 * fwdinfo forward.c hangs on vinst->entry) is a separate one for this
 * reading (vinst->rv_entry, valid for in->rv_gen only), and the attribute
 * writes it makes (self.grid = ...) are journalled and undone
 * (journal_discard).  A module's result is kept per model for the
 * training flags and argument shapes it was read with, so the job's
 * repeated calls do not read it again.  The attributes of the model its
 * forward set to tensors (self.last_loss = F.cross_entropy(...)) are
 * kept apart (a dict under RV_AFTER_KEY): job code reading them after the
 * call gets those tensors (attr.c), the attributes themselves stay as
 * they were for the forward reading.
 *
 * Soundness: where the forward's return depends on something not decided,
 * the reading's join is what comes back (alts, a shape not known), never
 * one path's value.  Each tensor is where a job-mode call has always put
 * a model's output (the device when the job uses one, else not known;
 * the arguments' places are no better: a batch a dataset's __getitem__
 * moved may be read as the host's).  The forward reading's
 * own places are not used: they come from parameters, buffers and
 * factories whose device it reads less closely than the job does (a loss
 * it puts on the host is on the device), so a forward's own .cpu() is
 * not seen here (as before).  NULL -- the caller returns what it returned
 * before -- when the module is neither (reads_return), when the
 * reading is already running (a model called from a hook of its own
 * forward), or when what came back is not a value the job can use
 * (unknown, a module, None).
 *
 * A module called from job code with host data only -- a path, a str, a
 * numpy array, lists of them (facts.c host_datum): an inference wrapper
 * such as YOLOv5's AutoShape, whose forward loads the image, copies it to
 * the device, runs its model and post-processes -- is no model run on
 * tensors: host_input_forward reads its forward as job code at the call,
 * its copies and host reads the job's (the module stays a root call, as
 * before, for the job's models).
 *
 * Never fails (allocation aborts); nothing here is freed by the caller
 * (values are the arena's).
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"
#include "ecg/shapes.h"

/* A signature of the training flags of m and its submodules: 1 true, 2
 * false, 3 anything else, mixed in tree order. */
static unsigned long train_sig(const struct vinst *m, int depth, unsigned long h)
{
	const value_t *t;
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return h;
	t = vdict_gets(m->attrs, "training");
	h = (h ^ (!t ? 1u : t->k == VK_BOOL ? (t->u.b ? 1u : 2u) : 3u)) * 0x100000001b3ull;
	for (i = 0; i < m->nchildren; i++)
		h = train_sig(m->children[i].inst, depth + 1, h);
	return h;
}

/* Do two argument lists hold the same values, or tensors of the same
 * known shapes (shape_same)? */
static int same_args(value_t **a, size_t na, value_t **b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (a[i] != b[i] && (a[i]->k != VK_TENSOR || b[i]->k != VK_TENSOR || !shape_same(a[i]->shape, b[i]->shape)))
			return 0;
	return 1;
}

/* An object of an outside record class (catalog record_classes: a
 * transformers ModelOutput such as CausalLMOutputWithPast(loss=...,
 * logits=...)) whose fields are the keywords it was made with.  Made in
 * a forward, where an outside class called is taken for a library's
 * layer, it is marked a module: the catalog says it is a record. */
static int is_record(struct interp *in, const value_t *v)
{
	const struct vinst *m = v && v->k == VK_INST ? v->u.inst : NULL;

	return m && (m->mod == VM_NONE || m->mod == VM_EXTERNAL) && !m->cls && m->ext && m->args &&
	       catalog_fact_match(in->cat, CATALOG_F_RECORD_CLASSES, canon_ext(in, m->ext));
}

/* v, its tensors whose device is not known put on dev; containers copied
 * (the job may change them; the cached result stays as read). */
static value_t *place(struct interp *in, value_t *v, int dev, int depth)
{
	value_t *r;
	size_t i;

	if (!v || depth > 8)
		return v;
	if (v->k == VK_TENSOR) {
		/* the place a job-mode call gives a model's output, not the
		 * forward reading's own (see the head comment) */
		if (v->dev == dev)
			return v;
		r = v_copy(in->a, v);
		r->dev = (unsigned char)dev;
		r->pinned = 0;
		return r;
	}
	if (v->k == VK_TUPLE || v->k == VK_LIST) {
		struct vseq *s = ast_arena_alloc(in->a, sizeof *s);

		*s = *v->u.seq;
		s->alloc = s->n;
		s->items = ast_arena_alloc(in->a, (s->n + 1) * sizeof *s->items);
		for (i = 0; i < s->n; i++)
			s->items[i] = place(in, v->u.seq->items[i], dev, depth + 1);
		r = v_copy(in->a, v);
		r->u.seq = s;
		return r;
	}
	if (v->k == VK_DICT) {
		r = v_dict(in->a);
		for (i = 0; i < v->u.dict->n; i++)
			vdict_set(in->a, r->u.dict, v->u.dict->keys[i], place(in, v->u.dict->vals[i], dev, depth + 1));
		r->u.dict->anykey = v->u.dict->anykey;
		r->u.dict->anyval = v->u.dict->anyval ? place(in, v->u.dict->anyval, dev, depth + 1) : NULL;
		return r;
	}
	if (is_record(in, v)) {
		/* a record's fields, placed as a dict's items are */
		struct vinst *m = ast_arena_alloc(in->a, sizeof *m);
		value_t *d = place(in, &(value_t){ .k = VK_DICT, .u.dict = v->u.inst->args }, dev, depth);

		*m = *v->u.inst;
		m->mod = VM_NONE;   /* a record, not a module (see is_record) */
		m->args = d->u.dict;
		r = v_copy(in->a, v);
		r->u.inst = m;
		return r;
	}
	if (v->k == VK_UNKNOWN && v->alts) {
		value_t *a = place(in, v->alts[0], dev, depth + 1), *b = place(in, v->alts[1], dev, depth + 1);

		if (a->k == VK_TENSOR && b->k == VK_TENSOR) {
			/* a tensor on both paths (`loss_fn = F.cross_entropy if
			 * ... else F.nll_loss`): a tensor, its shape the join */
			r = v_tensor_dev(in->a, a->dev == b->dev ? a->dev : DEV_UNKNOWN, 0);
			r->shape = a->shape && b->shape ? shape_join(in->a, a->shape, b->shape) : NULL;
			r->dt = a->dt == b->dt ? a->dt : DT_UNKNOWN;
			return r;
		}
		r = v_copy(in->a, v);
		r->alts = ast_arena_alloc(in->a, 2 * sizeof *r->alts);
		r->alts[0] = a;
		r->alts[1] = b;
		return r;
	}
	return v;
}

/* A value the job can read: a tensor, a container, a record of a
 * library's output class, or a join of such. */
static int usable(struct interp *in, const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_UNKNOWN)
		return v->alts && usable(in, v->alts[0]) && usable(in, v->alts[1]);
	return v->k == VK_TENSOR || v->k == VK_TUPLE || v->k == VK_LIST || v->k == VK_DICT || is_record(in, v);
}

/* The dicts that exist before a side reading of m and that its forward
 * may write items of: those held by an attribute of m or of a module
 * under it (self.cache[k] = v).  Appended to *keep (malloc'd). */
static void held_dicts(const struct vinst *m, int depth, struct vdict ***keep, size_t *n, size_t *alloc)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	for (i = 0; i < m->attrs->n; i++)
		if (m->attrs->vals[i] && m->attrs->vals[i]->k == VK_DICT) {
			GROW(*keep, *alloc, *n + 1);
			(*keep)[(*n)++] = m->attrs->vals[i]->u.dict;
		}
	for (i = 0; i < m->nchildren; i++)
		held_dicts(m->children[i].inst, depth + 1, keep, n, alloc);
}

/* The attributes of m the side reading's forward set to tensors (the
 * journal's entries of m's dict): a dict of them, placed where a job-mode
 * call puts a model's output; NULL when none. */
static struct vdict *set_tensors(struct interp *in, const struct attr_journal *j, const struct vinst *m)
{
	struct vdict *d = NULL;
	size_t i;

	for (i = 0; i < j->n; i++) {
		const struct jentry *e = &j->e[i];
		value_t *v;

		if (e->d != m->attrs || e->seq || e->item || !e->key || e->key[0] == '\001' ||
		    !(v = vdict_gets(m->attrs, e->key)) || v->k != VK_TENSOR || v->is_param)
			continue;
		if (!d)
			d = vdict_new(in->a);
		vdict_sets(in->a, d, e->key, place(in, v, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0));
	}
	return d;
}

/* The side reading of m's forward with these arguments: its return; the
 * attributes of m it set to tensors in *set (set_tensors). */
static value_t *read_return(struct interp *in, struct vinst *m, value_t **args, size_t nargs, struct vdict *kw,
                            struct vdict **set)
{
	struct fseq scratch;
	struct attr_journal j;
	size_t nsev = in->nsev, nnotes = in->nnotes, nhooks = in->nhooks;
	long long outer = in->fwd_outer;
	int saw_backward = in->saw_backward;
	long job_events = in->job_events;
	/* the job's facts the forward's code may set (a factory's device=
	 * argument marks the job as one using a device): the forward
	 * reading modtree.c makes sets them again, in its own time */
	int gpu = in->gpu, default_dev = in->default_dev, default_on_device = in->default_on_device;
	int dist_init = in->dist_init, dist_init_sure = in->dist_init_sure, dtensor_mixed = in->dtensor_mixed;
	int sd_type_set = in->sd_type_set, argv_read = in->argv_read;
	size_t nroots = in->nroots, nmodels = in->nmodels;
	value_t *r;

	struct vdict **keep = NULL, *nokeep = NULL;
	size_t nkeep = 0, akeep = 0;

	memset(&scratch, 0, sizeof scratch);
	held_dicts(m, 0, &keep, &nkeep, &akeep);
	in->rv_reading = 1;
	in->rv_gen++;
	in->fwd_outer = 1;
	/* a loop journal: it notes the writes as an `if` journal does,
	 * without making the reading one under an undecided `if` */
	journal_open_loop(in, &j);
	r = interp_forward(in, m, args, nargs, kw, &scratch);
	*set = set_tensors(in, &j, m);
	/* never NULL: a NULL keep would undo the items the forward wrote
	 * into dicts of its own too (`losses = {}; losses.update(...)`) */
	journal_discard(in, &j, keep ? keep : &nokeep, nkeep);
	free(keep);
	in->fwd_outer = outer;
	in->rv_reading = 0;
	in->nsev = nsev;
	in->nnotes = nnotes;
	in->nhooks = nhooks;
	in->saw_backward = saw_backward;
	in->job_events = job_events;
	in->gpu = gpu;
	in->default_dev = default_dev;
	in->default_on_device = default_on_device;
	in->dist_init = dist_init;
	in->dist_init_sure = dist_init_sure;
	in->dtensor_mixed = dtensor_mixed;
	in->sd_type_set = sd_type_set;
	in->argv_read = argv_read;
	in->nroots = nroots;
	in->nmodels = nmodels;
	return r;
}

void **fwd_entry_slot(struct interp *in, struct vinst *m)
{
	if (!in->rv_reading)
		return &m->entry;
	if (m->rv_gen != in->rv_gen) {
		m->rv_gen = in->rv_gen;
		m->rv_entry = NULL;
	}
	return &m->rv_entry;
}

/* Is m a module whose call from job code is read for its return: a
 * repository module with a forward of its own, or torch's nn.Sequential
 * (`self.network = nn.Sequential(featurizer, classifier)` called by a
 * predict method): its children read in order, as sequential_forward()
 * reads them in a forward -- the shape of the last one's output (a
 * classifier's number of classes) is then known to the job's code. */
static int reads_return(const struct vinst *m, value_t **fwd, struct vclass **owner)
{
	if (m->mod == VM_CONTAINER)
		return m->ext && !strcmp(m->ext, "torch.nn.Sequential") && m->nchildren >= 1;
	return m->mod == VM_REPO && m->cls && (*fwd = class_lookup(m->cls, "forward", owner)) && (*fwd)->k == VK_FUNC;
}

value_t *model_call_result(struct frame *f, struct vinst *m, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	value_t *fwd = NULL, *r;
	struct vclass *owner = NULL;
	unsigned long sig;

	if (in->rv_reading || !reads_return(m, &fwd, &owner))
		return NULL;
	sig = train_sig(m, 0, 0xcbf29ce484222325ull);
	if (m->rv_read && m->rv_sig == sig && !kw && !m->rv_kw && same_args(m->rv_args, m->rv_nargs, args, nargs)) {
		r = m->rv_ret;
	} else {
		r = read_return(in, m, args, nargs, kw, &m->rv_ret_set);
		m->rv_read = 1;
		m->rv_sig = sig;
		m->rv_kw = kw != NULL;
		m->rv_args = ast_arena_alloc(in->a, (nargs + 1) * sizeof *m->rv_args);
		if (nargs)
			memcpy(m->rv_args, args, nargs * sizeof *args);
		m->rv_nargs = nargs;
		m->rv_ret = r;
	}
	/* what the forward set on self (self.last_loss = F.cross_entropy(...))
	 * is what job code reads of the model after this call: kept under
	 * RV_AFTER_KEY, journalled as an attribute is (after an undecided `if`
	 * whose one path called, the two paths' values do not merge into a
	 * dict: nothing is read from it) */
	journal_note(in, m->attrs, RV_AFTER_KEY);
	if (m->rv_ret_set) {
		value_t *d = v_dict(in->a);

		d->u.dict = m->rv_ret_set;
		vdict_sets(in->a, m->attrs, RV_AFTER_KEY, d);
	} else {
		vdict_del(m->attrs, v_str(in->a, RV_AFTER_KEY));
	}
	if (!usable(in, r))
		return NULL;
	/* where a job-mode call has always put a model's output */
	return place(in, r, in->gpu ? DEV_DEVICE : DEV_UNKNOWN, 0);
}


/* Is v host data that a forward must turn into tensors itself: a str, a
 * pathlib.Path, an array of another library (numpy), a list or tuple of
 * them (its items all listed), each alternative of an undecided `if` one
 * of them? */
static int host_input(const value_t *v, int depth)
{
	size_t i;

	if (!v || depth > 4)
		return 0;
	if (host_datum(v))
		return 1;
	if (v->k == VK_UNKNOWN && v->alts)
		return host_input(v->alts[0], depth + 1) && host_input(v->alts[1], depth + 1);
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && v->u.seq->n && !v->u.seq->unk_reason) {
		for (i = 0; i < v->u.seq->n; i++)
			if (!host_input(v->u.seq->items[i], depth + 1))
				return 0;
		return 1;
	}
	return 0;
}

value_t *host_input_forward(struct frame *f, struct vinst *m, value_t *self, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *fwd;
	struct vclass *owner = NULL;
	size_t i;

	if (in->rv_reading || f->mode == M_FWD || m->mod != VM_REPO || !m->cls || !nargs ||
	    !(fwd = class_lookup(m->cls, "forward", &owner)) || fwd->k != VK_FUNC)
		return NULL;
	for (i = 0; i < nargs; i++)
		if (!host_input(args[i], 0))
			return NULL;
	for (i = 0; kw && i < kw->n; i++)
		if (!value_is_known_scalar(kw->vals[i]) && kw->vals[i]->k != VK_NONE && !host_input(kw->vals[i], 0))
			return NULL;
	return call_function(f, fwd->u.fn, self, args, nargs, kw, M_JOB, f->ev, site);
}
