/* interp/builtins.c - Python's builtins, and iteration
 *
 * Python's builtins, one small function each in builtin_natives[] (by
 * name; builtins_register() fills the builtins namespace from it).
 * call_builtin() runs a VK_BUILTIN value: the function its id maps to
 * (natives_register: these, the methods of builtin types in methods.c,
 * of argparse parsers in argparse.c, of modules in module.c); never
 * NULL.  iter_items() is Python's iteration
 * protocol over the value lattice: NULL with the items in *out, or the
 * unknown that says why the value cannot be iterated here.
 */
#include "config.h"

#include <ctype.h>

#include "ecg/catalog.h"
#include "internal.h"

/* The items of an iterable, when they are known.  Returns NULL and sets
 * *out, or returns an unknown value (and *out NULL) saying why not. */
/* len(range(...)), computed without overflow (clamped to LLONG_MAX). */
long long range_len(const value_t *it)
{
	__int128 a = it->u.range.start, b = it->u.range.stop, st = it->u.range.step, n;

	if (st == 0)
		return 0;
	n = st > 0 ? (b > a ? (b - a + st - 1) / st : 0) : (a > b ? (a - b - st - 1) / -st : 0);
	return n > (__int128)LLONG_MAX ? LLONG_MAX : (long long)n;
}

/* rows of a host tensor iter_items() lists, at most */
#define MAX_TENSOR_ROWS 4096

value_t *iter_items(struct frame *f, value_t *it, struct vseq **out)
{
	struct interp *in = f->in;
	struct vseq *s;
	size_t i;

	*out = NULL;
	if (it->k == VK_CLASS) {
		/* for m in E: a repository enum's members (enumobj.c) */
		value_t *ms = enum_iter_members(in, it);

		if (ms) {
			*out = ms->u.seq;
			return NULL;
		}
	}
	switch (it->k) {
	case VK_LIST: case VK_TUPLE:
		if (it->u.seq->unk_reason)
			return v_unknown(in->a, it->u.seq->unk_expr, it->u.seq->unk_reason);
		*out = it->u.seq;
		return NULL;
	case VK_RANGE: {
		long long a = it->u.range.start, st = it->u.range.step, x;
		long long n = range_len(it);

		if (n > MAX_UNROLL)
			return v_unknown(in->a, it->expr, afmt(in, "a range of %lld items is too long to follow", n));
		charge(f, WORK_MADE * (size_t)n, 0);     /* a value made per item */
		s = ast_arena_alloc(in->a, sizeof *s);
		for (x = 0; x < n; x++)
			vseq_push(in->a, s, v_int(in->a, (long long)((__int128)a + (__int128)x * st)));
		*out = s;
		return NULL;
	}
	case VK_DICT:
		if (it->u.dict->anykey)
			return v_unknown(in->a, it->expr, DICT_ANYKEY_REASON);
		if (it->u.dict->rep)
			return v_unknown(in->a, it->expr, DICT_COMP_REASON);
		charge(f, it->u.dict->n, 0);
		s = ast_arena_alloc(in->a, sizeof *s);
		for (i = 0; i < it->u.dict->n; i++)
			vseq_push(in->a, s, it->u.dict->keys[i]);
		*out = s;
		return NULL;
	case VK_STR:
		charge(f, WORK_MADE * it->u.str.len, 0);
		s = ast_arena_alloc(in->a, sizeof *s);
		for (i = 0; i < it->u.str.len; i++)
			vseq_push(in->a, s, v_strn(in->a, it->u.str.s + i, 1));
		*out = s;
		return NULL;
	case VK_INST:
		/* a column of a pandas table of known rows (pandas.c) */
		if ((*out = pandas_values(it)) != NULL)
			return NULL;
		/* a container, or a repo subclass of nn.Sequential / ModuleList
		 * (`for layer in self` in its forward) */
		if (it->u.inst->mod == VM_CONTAINER ||
		    (it->u.inst->mod == VM_REPO && it->u.inst->cls && class_ext_base(it->u.inst->cls) &&
		     (!strcmp(class_ext_base(it->u.inst->cls), "torch.nn.Sequential") ||
		      !strcmp(class_ext_base(it->u.inst->cls), "torch.nn.ModuleList")))) {
			struct vinst *m = it->u.inst;
			value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");

			if (unk)
				return unk;
			s = ast_arena_alloc(in->a, sizeof *s);
			if (m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")) {
				for (i = 0; i < m->nchildren; i++)
					vseq_push(in->a, s, v_str(in->a, m->children[i].name));
			} else {
				for (i = 0; i < m->nchildren; i++)
					vseq_push(in->a, s, mk_inst_value(in, m->children[i].inst));
			}
			*out = s;
			return NULL;
		}
		/* an instance of a typing.NamedTuple subclass: its fields */
		{
			value_t *t = nt_inst_tuple(f, it->u.inst);

			if (t) {
				*out = t->u.seq;
				return NULL;
			}
		}
		if (it->u.inst->ext && !strcmp(it->u.inst->ext, "io.TextIOWrapper")) {
			value_t *ls = file_lines(f, it, NULL);    /* `for line in f` */

			if (ls->k != VK_LIST)
				return ls;
			*out = ls->u.seq;
			return NULL;
		}
		break;
	case VK_TENSOR: {
		/* `[x.item() for x in torch.linspace(0, rate, depth)]` outside a
		 * forward: a host tensor whose first dimension is known gives
		 * that many rows (a device tensor's rows would each be read
		 * from the device: not unrolled) */
		const struct vshape *sh = shape_of(it);

		if (f->mode == M_FWD || it->dev != DEV_HOST || !sh || sh->nd < 1 || sh->n[0] < 0 ||
		    sh->n[0] > MAX_TENSOR_ROWS)
			break;
		charge(f, WORK_MADE * (size_t)sh->n[0], 0);
		s = ast_arena_alloc(in->a, sizeof *s);
		for (i = 0; i < (size_t)sh->n[0]; i++)
			vseq_push(in->a, s, iter_rep_item(f, it));
		*out = s;
		return NULL;
	}
	case VK_UNKNOWN:
		/* an array whose first axis is known (interp/arrays.c): its rows */
		if (arr_rows(f, it, MAX_TENSOR_ROWS, out)) {
			charge(f, WORK_MADE * (*out)->n, 0);
			return NULL;
		}
		break;
	default:
		break;
	}
	return v_unknown(in->a, it->expr, it->k == VK_UNKNOWN && it->reason ? it->reason
	                                  : "an iterable whose items are not known");
}

/* The representative item of an iterable whose items iter_items() does
 * not list: the first item of a sequence of unknown length (all of it
 * made by one comprehension or loop), a row of a host or device tensor
 * (a batch ecg reads as one host tensor: a list of per-image target
 * dicts, whose entries are host tensors too; a sampled sequence on the
 * device), a part of an object loaded from a file (loaded where it
 * was).  A mapping held as a device value gives no keys as rows:
 * .items()/.keys() of one are not known (tensor.c).  NULL when there is
 * none. */
value_t *iter_rep_item(struct frame *f, value_t *it)
{
	/* a device tensor on one path of an undecided condition (alts.c):
	 * its row on that path, a pair again */
	int p = alts_dev_path(it);

	if (p >= 0 && it->alts[p]->k == VK_TENSOR)
		return alts_path_pair(f, it, p, iter_rep_item(f, it->alts[p]));
	if ((it->k == VK_LIST || it->k == VK_TUPLE) && it->u.seq->unk_reason && it->u.seq->n >= 1)
		return it->u.seq->items[0];
	/* a torch.Size of a shape not known: its dims, Python ints */
	if (it->k == VK_UNKNOWN && it->reason == size_unknown_reason && !it->alts)
		return v_unknown(f->in->a, it->expr, shape_dim_reason);
	/* an item of range(n), n not known: an int >= 0 */
	if (it->k == VK_UNKNOWN && !it->alts && it->reason &&
	    !strncmp(it->reason, RANGE_NONNEG_REASON, sizeof RANGE_NONNEG_REASON - 1)) {
		value_t *x = v_unknown(f->in->a, NULL, "an item of a range whose bounds are not known");

		x->nonneg = FACT_NONNEG_INT;
		x->plain = 1;
		return x;
	}
	/* an item of what torch.load gave (zip(self.emas, state['emas'])
	 * over a checkpoint's list of state dicts) is part of that object,
	 * loaded where the load put it, as an item read by a key not known
	 * is (eval.c) */
	if (it->k == VK_UNKNOWN && !it->alts && IS_LOADED_REASON(it->reason))
		return v_unknown(f->in->a, it->expr, it->reason);
	if (it->k == VK_TENSOR && (it->dev == DEV_HOST || it->dev == DEV_DEVICE)) {
		value_t *row = v_tensor_dev(f->in->a, it->dev, it->pinned);
		const struct vshape *s = shape_of(it);

		if (s && s->nd >= 1)
			row->shape = shape_index(f->in->a, s, v_int(f->in->a, 0));
		row->dt = it->dt;
		return row;
	}
	return NULL;
}

value_t *seq_from(struct interp *in, enum vkind k, struct vseq *src)
{
	value_t *v = v_seq(in->a, k, src ? src->n : 0);
	size_t i;

	for (i = 0; src && i < src->n; i++)
		vseq_push(in->a, v->u.seq, src->items[i]);
	return v;
}

/* Every item an int >= 0, known or by its facts (len() of something not
 * known): their min or max is one too. */
static int all_nonneg_ints(const struct vseq *items)
{
	size_t i;

	for (i = 0; i < items->n; i++) {
		const value_t *v = items->items[i];

		if (!((v->k == VK_INT && v->u.i >= 0) || (v->k == VK_UNKNOWN && v->nonneg == FACT_NONNEG_INT)))
			return 0;
	}
	return items->n > 0;
}

static value_t *minmax(struct frame *f, value_t **args, size_t nargs, int want_max, const struct ast_hdr *site)
{
	struct vseq *items = NULL, tmp;
	double best = 0, x;
	value_t *bestv = NULL;
	size_t i;

	if (nargs == 1) {
		if (iter_items(f, args[0], &items))
			return unknown_at(f, site, "min/max of values that are not known");
	} else {
		tmp.items = args;
		tmp.n = nargs;
		items = &tmp;
	}
	charge(f, items ? items->n : 0, 0);
	/* comparing a device tensor reads its truth on the host: a sync
	 * (max(acc1, best_acc1) with acc1 on the device); one on one path of
	 * an undecided `if` (alts.c), none on the device for certain: a row
	 * under that path's side */
	for (i = 0; items && items->n >= 2 && i < items->n && f->mode != M_FWD; i++)
		if (items->items[i]->k == VK_TENSOR && items->items[i]->dev == DEV_DEVICE) {
			sev(f, SEV_SYNC, afmt(f->in, "%s(<a device tensor>) (compares on the host)", want_max ? "max" : "min"),
			    site);
			break;
		}
	if (items && i == items->n)
		for (i = 0; items->n >= 2 && i < items->n; i++)
			if (alts_sync(f, items->items[i],
			              afmt(f->in, "%s(<a device tensor on one path>) (compares on the host)",
			                   want_max ? "max" : "min"), site))
				break;
	for (i = 0; items && i < items->n; i++) {
		if (!as_num(items->items[i], &x)) {
			value_t *u = unknown_at(f, site, "min/max of values that are not known");

			if (all_nonneg_ints(items))
				u->nonneg = FACT_NONNEG_INT;    /* max(len(p) for p in ps) >= 0 */
			return u;
		}
		if (!bestv || (want_max ? x > best : x < best)) {
			best = x;
			bestv = items->items[i];
		}
	}
	return bestv ? bestv : unknown_at(f, site, "min/max of nothing");
}

/* isinstance(v, t) for one type: 1, 0, or -1 when not known. */
/* Whether v is a class or function itself (not an instance): a repo class
 * or function, or an external name that is a torch name or a class name,
 * where Python's types of scalars and containers are out. */
static int is_type_ref(struct interp *in, const value_t *v)
{
	if (v->k == VK_CLASS || v->k == VK_FUNC || v->k == VK_BOUND)
		return 1;
	if (v->k == VK_EXT) {
		const char *d = canon_ext(in, v->u.ext);

		return !strncmp(d, "torch.", 6) || value_ext_is_class(d);
	}
	return 0;
}

/* isinstance(v, C) for the abstract classes of collections.abc that
 * builtin values are instances of: 1, 0, or -1 when not known. */
static int abc_iterable(const value_t *v)
{
	if (v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_STR || v->k == VK_RANGE || v->k == VK_DICT)
		return 1;
	return value_is_known_scalar(v) || v->k == VK_NONE ? 0 : -1;
}

static int abc_sequence(const value_t *v)
{
	if (v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_STR || v->k == VK_RANGE)
		return 1;
	return v->k == VK_DICT || value_is_known_scalar(v) || v->k == VK_NONE ? 0 : -1;
}

static int abc_mapping(const value_t *v)
{
	return v->k == VK_DICT ? 1 : value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
	       v->k == VK_TUPLE ? 0 : -1;
}

/* the numeric tower of numbers: an int or a bool is each of them, a
 * float a Real (not a Rational nor an Integral); a str, None or a
 * container is none (apex's FusedLayerNorm: `if isinstance(
 * normalized_shape, numbers.Integral)`) */
static int num_not(const value_t *v)
{
	return v->k == VK_STR || v->k == VK_NONE || v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
}

static int num_integral(const value_t *v)
{
	return v->k == VK_INT || v->k == VK_BOOL ? 1 : v->k == VK_FLOAT ? 0 : num_not(v);
}

static int num_real(const value_t *v)
{
	return v->k == VK_INT || v->k == VK_BOOL || v->k == VK_FLOAT ? 1 : num_not(v);
}

static const struct abc_type {
	const char *name;
	int (*is)(const value_t *v);
} abc_types[] = {
	{ "collections.abc.Iterable", abc_iterable },
	{ "collections.abc.Mapping", abc_mapping },
	{ "collections.abc.Sequence", abc_sequence },
	{ "numbers.Complex", num_real },
	{ "numbers.Integral", num_integral },
	{ "numbers.Number", num_real },
	{ "numbers.Rational", num_integral },
	{ "numbers.Real", num_real },
};

const struct ntab abc_types_ntab = NTAB(abc_types);

/* The torch classes others derive from, for an object of another outside
 * class (its ext): 1 when that class is one of theirs, 0 when it is known
 * to be of another family, -1 when ecg does not list the family's members
 * (a class of another library may derive from it).  An object known only
 * by its base (optimizer_factories' "torch.optim.Optimizer") is not known
 * to be of one particular subclass either (torch_base_of). */
enum { FAM_OTHER, FAM_OPTIMIZER, FAM_SCHEDULER, FAM_LOADER };

static int ext_family(struct interp *in, const char *ext)
{
	if (strstr(ext, "lr_scheduler"))
		return FAM_SCHEDULER;
	if (is_optim_ext(ext) || ext_is_optimizer_class(in->cat, ext))
		return FAM_OPTIMIZER;
	if (strstr(ext, "DataLoader"))
		return FAM_LOADER;
	return FAM_OTHER;
}

static int fam_is(struct interp *in, const char *ext, int fam)
{
	int f = ext_family(in, ext);

	return f == fam ? 1 : f != FAM_OTHER ? 0 : -1;
}

static int base_optimizer(struct interp *in, const char *ext) { return fam_is(in, ext, FAM_OPTIMIZER); }
static int base_scheduler(struct interp *in, const char *ext) { return fam_is(in, ext, FAM_SCHEDULER); }
static int base_loader(struct interp *in, const char *ext) { return fam_is(in, ext, FAM_LOADER); }

/* a dataset is none of the three families; another object may be one */
static int base_dataset(struct interp *in, const char *ext)
{
	return ext_family(in, ext) != FAM_OTHER ? 0 : -1;
}

static const struct torch_base {
	const char *name;
	int (*is)(struct interp *in, const char *ext);
} torch_bases[] = {
	{ "torch.optim.Optimizer", base_optimizer },
	{ "torch.optim.lr_scheduler.LRScheduler", base_scheduler },
	{ "torch.optim.lr_scheduler._LRScheduler", base_scheduler },
	{ "torch.optim.optimizer.Optimizer", base_optimizer },
	{ "torch.utils.data.DataLoader", base_loader },
	{ "torch.utils.data.Dataset", base_dataset },
	{ "torch.utils.data.IterableDataset", base_dataset },
	{ "torch.utils.data.dataloader.DataLoader", base_loader },
	{ "torch.utils.data.dataset.Dataset", base_dataset },
	{ "torch.utils.data.dataset.IterableDataset", base_dataset },
};

const struct ntab torch_bases_ntab = NTAB(torch_bases);

/* isinstance(o, d) of an object o of outside class ext, d another
 * outside class: 1, 0, or -1 when not known.  Another outside class is
 * none of ext's bases unless the catalog lists it as one. */
static int ext_obj_isinstance(struct interp *in, const char *ext, const char *d)
{
	const struct torch_base *b = NTAB_FIND(torch_bases, d);
	const char *bases = catalog_fact(in->cat, CATALOG_F_OUTSIDE_CLASS_BASES, ext);

	/* a base class of ext the catalog lists (outside_class_bases: a
	 * LoraConfig is a PeftConfig) */
	if (bases && word_listed(bases, d, strlen(d)))
		return 1;
	if (b)
		return b->is(in, ext);
	/* an object known only by its base class: of which subclass, not known */
	if (NTAB_FIND(torch_bases, ext))
		return ext_family(in, ext) != FAM_OTHER && ext_family(in, d) != FAM_OTHER &&
		       ext_family(in, ext) != ext_family(in, d) ? 0 : -1;
	return 0;
}

/* isinstance(v, d) for an outside class d (canonical dotted name). */
static int isinstance_ext(struct interp *in, const value_t *v, const char *d)
{
	const struct abc_type *abc;

	/* a dataset a DataLoader took with shuffle or a sampler, or a
	 * library's map-style one, is no IterableDataset, torch's or
	 * another library's (catalog iterable_dataset_classes;
	 * loadersampler.c, mapds.c) */
	if (v->k == VK_UNKNOWN && v->map_dataset && catalog_fact(in->cat, CATALOG_F_ITERABLE_DATASET_CLASSES, d))
		return 0;

	if (v->k == VK_INST) {
		const struct vinst *m = v->u.inst;
		size_t i;

		if (!strcmp(d, "torch.nn.Module"))
			return m->mod != VM_NONE;
		/* the value a wrapper returned (model = DDP(model)): an object
		 * of the wrapper's class; of another class, not decided here
		 * (the module's own class, or a wrapper around the wrapper) */
		if (v->via_wrapper) {
			for (i = 0; i < m->nwrapped; i++)
				if (m->wrapped_by[i] && !strcmp(canon_ext(in, m->wrapped_by[i]), d))
					return 1;
			return -1;
		}
		if (m->ext && !strcmp(m->ext, d))
			return 1;
		/* a module (the job's, or a library's model) is no optimizer,
		 * scheduler, loader or dataset (accelerate's prepare asks) */
		if (m->mod != VM_NONE && NTAB_FIND(torch_bases, d))
			return 0;
		if (m->cls && class_ext_base(m->cls))
			return !strcmp(class_ext_base(m->cls), d) ? 1 : -1;
		if (m->ext && !m->cls)
			return ext_obj_isinstance(in, m->ext, d);
		return m->cls ? 0 : -1;
	}
	if (v->k == VK_TENSOR)
		return !strcmp(d, "torch.Tensor") ? 1 : 0;
	/* a str, a Path, an array of another library (facts.c host_datum),
	 * a number, None or a container is no tensor */
	if (!strcmp(d, "torch.Tensor") && (host_datum(v) || value_is_known_scalar(v) || v->k == VK_NONE ||
	                                   v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_DICT))
		return 0;
	/* a str, a number, None or a container is no module (EMA helpers'
	 * `if isinstance(parameters, torch.nn.Module)` of model.parameters(),
	 * a list of its parameters here) */
	if (!strcmp(d, "torch.nn.Module") && (value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
	                                      v->k == VK_TUPLE || v->k == VK_DICT))
		return 0;
	/* functools.partial is a concrete class: a str, a number, None or a
	 * container is none (timm's get_norm_act_layer('groupnorm')) */
	if (!strcmp(d, "functools.partial") && (value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
	                                        v->k == VK_TUPLE || v->k == VK_DICT))
		return 0;
	/* a class of another library's data (numpy.ndarray: catalog
	 * data_classes): no str, number, None or container is one */
	if (catalog_fact(in->cat, CATALOG_F_DATA_CLASSES, d) &&
	    (value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_DICT))
		return 0;
	/* type(None) (`isinstance(x, (AnchorGenerator, type(None)))`): None
	 * is one; a scalar, container, object, class or function is not */
	if (!strcmp(d, "types.NoneType"))
		return v->k == VK_NONE ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE ||
		       v->k == VK_DICT || v->k == VK_INST || v->k == VK_CLASS || v->k == VK_FUNC ? 0 : -1;
	/* a function type: no scalar or container is one (a spec's
	 * module given as a (path, name) pair) */
	if (!strncmp(d, "types.", 6) && strstr(d, "Type") &&
	    (value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST || v->k == VK_TUPLE ||
	     v->k == VK_DICT))
		return 0;
	abc = NTAB_FIND(abc_types, d);
	return abc ? abc->is(v) : -1;
}

int isinstance_dotted(struct interp *in, const value_t *v, const char *dotted)
{
	return isinstance_ext(in, v, canon_ext(in, dotted));
}

/* The builtins that are classes (int, str, ...), as values. */
static int is_builtin_type(const value_t *v)
{
	if (v->k != VK_BUILTIN || v->u.bi.self)
		return 0;
	switch (v->u.bi.id) {
	case BI_INT: case BI_FLOAT: case BI_STR: case BI_BOOL: case BI_LIST: case BI_TUPLE: case BI_DICT:
	case BI_TYPE:
		return 1;       /* not BI_SET: set and frozenset share it */
	default:
		return 0;
	}
}

/* isinstance(x, type(dataclasses.MISSING)) (a Field without a default) and
 * isinstance(t, type) of a builtin class or a typing form (a dataclass
 * field's type, read by argparse factories): 1, 0, or -1 when this does
 * not know. */
static int isinstance_typing(struct interp *in, const value_t *v, const value_t *t)
{
	if (t->k == VK_EXT && !strcmp(canon_ext(in, t->u.ext), "dataclasses._MISSING_TYPE")) {
		if (v->k == VK_EXT)
			return !strcmp(canon_ext(in, v->u.ext), "dataclasses.MISSING") ? 1 : -1;
		return v->k == VK_UNKNOWN || v->k == VK_TENSOR ? -1 : 0;
	}
	if (t->k == VK_BUILTIN && t->u.bi.id == BI_TYPE && !t->u.bi.self) {
		if (is_builtin_type(v))
			return 1;
		if (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "typing._GenericAlias"))
			return 0;
	}
	return -1;
}

/* An object of an outside class ecg emulates that derives from no
 * builtin type and is no class (a functools.partial: timm's get_attn()
 * asks isinstance(attn_type, str), then bool). */
static int plain_ext_obj(const value_t *v)
{
	static const char *const plain[] = { "argparse.Namespace", "functools.partial", "importlib.machinery.ModuleSpec",
	                                     "io.TextIOWrapper", "pathlib.Path", "torch.device" };
	size_t i;

	if (v->k != VK_INST || v->u.inst->cls || v->u.inst->mod != VM_NONE || !v->u.inst->ext)
		return 0;
	for (i = 0; i < sizeof plain / sizeof *plain; i++)
		if (!strcmp(v->u.inst->ext, plain[i]))
			return 1;
	return 0;
}

/* An nn.Module object -- of a repository subclass, a torch layer or
 * container, a library's model -- whose classes derive from no builtin
 * type: no int, str, list, tuple or dict (BasicSR's `net if
 * isinstance(net, list) else [net]` of a model). */
static int module_obj(const value_t *v)
{
	const struct vclass *c;
	size_t i, j;

	if (v->k != VK_INST || v->u.inst->mod == VM_NONE)
		return 0;
	c = v->u.inst->cls;
	for (i = 0; c && c->mro && i < c->nmro; i++)
		for (j = 0; j < c->mro[i]->nbases; j++)
			if (c->mro[i]->bases[j]->k == VK_BUILTIN)
				return 0;
	return !dictsub_class(v);
}

static int isinstance_of(struct interp *in, const value_t *v, const value_t *t)
{
	int ty;
	size_t i;

	/* the two paths' objects (alts.c): known when both paths agree */
	if (v->k == VK_UNKNOWN && v->alts) {
		int r0 = isinstance_of(in, v->alts[0], t), r1 = isinstance_of(in, v->alts[1], t);

		return r0 == r1 ? r0 : -1;
	}
	if ((ty = isinstance_typing(in, v, t)) >= 0)
		return ty;
	if (t->k == VK_EXT && (ty = yacs_isinstance(in, v, canon_ext(in, t->u.ext))) != -2)
		return ty;

	/* isinstance(nn.BatchNorm2d, functools.partial), (..., str): a class
	 * or function is none of these (timm's get_norm_layer) */
	if (is_type_ref(in, v)) {
		if (t->k == VK_BUILTIN) {
			switch (t->u.bi.id) {
			case BI_INT: case BI_FLOAT: case BI_STR: case BI_BOOL:
			case BI_LIST: case BI_TUPLE: case BI_DICT:
				return 0;
			case BI_TYPE:
				return v->k == VK_CLASS ? 1 : v->k == VK_FUNC || v->k == VK_BOUND ? 0 :
				       v->k == VK_EXT && value_ext_is_class(canon_ext(in, v->u.ext)) ? 1 : -1;
			default:
				break;
			}
		}
		if (t->k == VK_EXT) {
			const char *d = canon_ext(in, t->u.ext);

			if (!strcmp(d, "functools.partial") || !strncmp(d, "collections.abc.", 16) ||
			    !strncmp(d, "typing.", 7))
				return 0;
			/* a class or function of the job's is no module or tensor
			 * object (timm's get_attn(): isinstance(attn_type,
			 * torch.nn.Module) of a class) */
			if ((v->k == VK_CLASS || v->k == VK_FUNC || v->k == VK_BOUND) &&
			    (!strcmp(d, "torch.nn.Module") || !strcmp(d, "torch.Tensor")))
				return 0;
			if (!strcmp(d, "types.FunctionType"))
				return v->k == VK_FUNC ? 1 : v->k == VK_CLASS ? 0 :
				       v->k == VK_EXT && value_ext_is_class(canon_ext(in, v->u.ext)) ? 0 : -1;
		}
	}

	if (t->k == VK_CLASS) {
		struct vclass *c;

		if (dictsub_class(v))
			c = dictsub_class(v);
		else if (v->k != VK_INST)
			return v->k == VK_UNKNOWN || v->k == VK_TENSOR ? -1 : 0;
		else
			c = v->u.inst->cls;
		if (!c)
			return 0;     /* a torch or third-party object is not a repo class */
		for (i = 0; i < c->nmro; i++)
			if (c->mro[i] == t->u.cls)
				return 1;
		return 0;
	}
	if (t->k == VK_EXT)
		return isinstance_ext(in, v, canon_ext(in, t->u.ext));
	/* host data not known (facts.c host_datum): a str, a Path or an
	 * array, so no list, tuple, dict or number; a str only when it is
	 * no array */
	if (t->k == VK_BUILTIN && v->k == VK_UNKNOWN && host_datum(v)) {
		switch (t->u.bi.id) {
		case BI_FLOAT:
			/* a 0-d array (a numpy scalar) of a dtype not known:
			 * np.float64 is a float; a draw's items are integers */
			if (arr_may_be_float(v))
				return -1;
			return 0;
		case BI_INT: case BI_BOOL: case BI_LIST: case BI_TUPLE: case BI_DICT:
			return 0;
		case BI_STR:
			return v->arr_shape ? 0 : -1;
		default:
			return -1;
		}
	}
	if (t->k == VK_BUILTIN) {
		/* an object of a class of the job's own that derives from no
		 * builtin type: none of theirs (isinstance(samples, (list,
		 * torch.Tensor)) of a NestedTensor) */
		switch (t->u.bi.id) {
		case BI_INT: case BI_FLOAT: case BI_STR: case BI_BOOL:
		case BI_LIST: case BI_TUPLE: case BI_DICT: case BI_TYPE:
			if (value_plain_repo_obj(v) && t->u.bi.id != BI_TYPE)
				return 0;
			if (module_obj(v) && t->u.bi.id != BI_TYPE)
				return 0;
			if (plain_ext_obj(v))
				return 0;
			/* a tensor torch made is none of them: one whose shape
			 * (its rank at least) was followed through the ops that
			 * made it, or on the host for sure -- not a loader's
			 * batch standing for what its collate made (loose), a
			 * library's output, nor a shapeless device value that
			 * may stand for a model's output ecg did not follow (a
			 * tuple or dict of tensors) */
			if (v->k == VK_TENSOR && !v->loose && !v->lib_out && !v->alts && (v->shape || v->host_sure) &&
			    t->u.bi.id != BI_TYPE)
				return 0;
			break;
		default:
			break;
		}
		switch (t->u.bi.id) {
		case BI_INT: return v->k == VK_INT || v->k == VK_BOOL ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
		case BI_FLOAT: return v->k == VK_FLOAT ? 1 : value_is_known_scalar(v) ? 0 : -1;
		case BI_STR: return v->k == VK_STR ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE ? 0 : -1;
		case BI_BOOL: return v->k == VK_BOOL ? 1 : value_is_known_scalar(v) ? 0 : -1;
		case BI_LIST: return v->k == VK_LIST ? 1 : value_is_known_scalar(v) || v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
		case BI_TUPLE: return v->k == VK_TUPLE ? 1 : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_DICT ? 0 : -1;
		case BI_DICT: return v->k == VK_DICT ? !(v->u.dict->userdict && !v->dict_view) : value_is_known_scalar(v) || v->k == VK_LIST || v->k == VK_TUPLE ? 0 : -1;
		case BI_SLICE:
			/* an int not known (a sampler's index: FACT_NONNEG_INT)
			 * is no slice: a map-style dataset's `if isinstance(index,
			 * slice):` branch is not the DataLoader's */
			return v->k == VK_SLICE ? 1 : value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
			       v->k == VK_TUPLE || v->k == VK_DICT || v->k == VK_TENSOR ||
			       (v->k == VK_UNKNOWN && (v->nonneg == FACT_NONNEG_INT || v->nonneg == FACT_DIGITS)) ? 0 : -1;
		case BI_TYPE:
			/* isinstance(x, type): an object of a repo class (no
			 * metaclass makes classes of it), a scalar or a container
			 * is not a class (build_module's spec-or-class test) */
			return (v->k == VK_INST && v->u.inst->cls && !class_ext_base(v->u.inst->cls)) ||
			       value_is_known_scalar(v) || v->k == VK_NONE || v->k == VK_LIST ||
			       v->k == VK_TUPLE || v->k == VK_DICT ? 0 : -1;
		default: return -1;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------ the builtins
 *
 * One function per builtin (or per small family: list/tuple/set,
 * sorted/reversed, any/all, the decorators), in builtin_natives[] below
 * by name.  Each is called with the builtin's value (fn: its id, and self
 * for a bound one) and never returns NULL.
 *
 * The builtins that make or read values: range, len, int, float, bool,
 * str, list, tuple, set, dict, min, max, sum, abs, round. */
static value_t *bi_range(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;
	int ok;
	long long a = 0, b, st = 1;
	value_t *r;

	if (nargs == 1) {
		b = as_int(args[0], &ok);
	} else if (nargs >= 2) {
		int ok2 = 1;

		a = as_int(args[0], &ok);
		b = as_int(args[1], &ok2);
		ok = ok && ok2;
		if (nargs >= 3) {
			st = as_int(args[2], &ok2);
			ok = ok && ok2 && st != 0;
		}
	} else {
		ok = 0;
		b = 0;
	}
	/* range(0, n, n), n an int >= 0 not known (a prompt cut in chunks of
	 * its own length): [0] -- n == 0 raises ValueError (a zero step), so
	 * the run that goes on has n > 0 and one iteration */
	if (!ok && nargs == 3 && args[1] == args[2] && args[1]->k == VK_UNKNOWN &&
	    args[1]->nonneg == FACT_NONNEG_INT && args[0]->k == VK_INT && args[0]->u.i == 0) {
		ok = 1;
		a = 0;
		b = 1;
		st = 1;
	}
	if (!ok) {
		/* its items are ints >= 0 when it starts at 0 or above and
		 * steps up (range(n), range(k, n)) */
		const char *base = nargs >= 1 && nargs <= 3 &&
		                   (nargs == 1 || fact_nonneg_int(args[0])) &&
		                   (nargs < 3 || (args[2]->k == VK_INT && args[2]->u.i > 0))
		                   ? RANGE_NONNEG_REASON : RANGE_UNKNOWN_REASON;

		/* say why the bound is not known: the layer not read */
		for (i = 0; i < nargs; i++)
			if (args[i]->k == VK_UNKNOWN && args[i]->reason)
				return unknown_at(f, site, afmt(in, "%s (%s: %s)", base,
				                                args[i]->expr ? args[i]->expr : "?",
				                                args[i]->reason));
		return unknown_at(f, site, base);
	}
	r = ast_arena_alloc(in->a, sizeof *r);
	r->k = VK_RANGE;
	r->u.range.start = a;
	r->u.range.stop = b;
	r->u.range.step = st;
	r->expr = site ? text_of(f, site) : NULL;
	if (nargs == 1 && site && AST_IS(site, Call) && AST_AS(site, Call)->args.n == 1)
		r->expr = text_of(f, AST_AS(site, Call)->args.items[0]);
	r->src = nargs == 1 ? args[0]->src : NULL;
	r->via = nargs == 1 ? args[0]->via : VIA_DEFAULT;
	return r;
}

static value_t *bi_len(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;

	if (nargs == 1) {
		value_t *a = args[0];

		if ((a->k == VK_LIST || a->k == VK_TUPLE) && !a->u.seq->unk_reason)
			return v_int(in->a, (long long)a->u.seq->n);
		if (a->k == VK_DICT && !a->u.dict->anykey && !a->u.dict->rep)
			return v_int(in->a, (long long)a->u.dict->n);
		if (a->k == VK_DICT)
			return unknown_at(f, site, a->u.dict->anykey ? DICT_ANYKEY_REASON : DICT_COMP_REASON);
		if (a->k == VK_STR)
			return v_int(in->a, (long long)a->u.str.len);
		if (a->k == VK_INST && a->u.inst->mod == VM_CONTAINER &&
		    !vdict_gets(a->u.inst->attrs, "__ecg_len_unknown__"))
			return v_int(in->a, (long long)a->u.inst->nchildren);
		if (a->k == VK_RANGE && range_len(a) <= MAX_UNROLL)
			return v_int(in->a, range_len(a));   /* as iter_items() would count it */
		if (a->k == VK_INST && (r = nt_inst_tuple(f, a->u.inst)))
			return v_int(in->a, (long long)r->u.seq->n);
		if ((r = arr_len(f, a)))
			return r;             /* an array whose first axis is known */
	}
	{
		value_t *u = unknown_at(f, site, "the length of something not known");

		u->nonneg = FACT_NONNEG_INT;   /* a length is an int >= 0 (facts.c) */
		return u;
	}
}

static value_t *bi_int(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE)
		sev(f, SEV_SYNC, "int(<a device tensor>)", site);
	if (nargs == 0)
		return v_int(in->a, 0);
	if (args[0]->k == VK_INT || args[0]->k == VK_BOOL) {
		value_t *r = v_int(in->a, args[0]->k == VK_INT ? args[0]->u.i : args[0]->u.b);

		r->src = args[0]->src;
		return r;
	}
	if (args[0]->k == VK_FLOAT && fabs(args[0]->u.f) < 9e15)
		return v_int(in->a, (long long)args[0]->u.f);
	if (args[0]->k == VK_STR && nargs == 1) {
		long long v;

		if (py_int_of_str(args[0]->u.str.s, &v))
			return v_int(in->a, v);
	}
	return fact_int_of(f, args[0], unknown_at(f, site, args[0]->k == VK_UNKNOWN && args[0]->reason ? args[0]->reason
	                                                                       : "int() of a value not known"));
}

static value_t *bi_float(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x;

	if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE)
		sev(f, SEV_SYNC, "float(<a device tensor>)", site);
	if (nargs == 1 && as_num(args[0], &x))
		return v_float(in->a, x);
	if (nargs == 1 && args[0]->k == VK_STR) {
		double d;

		if (py_float_of_str(args[0]->u.str.s, &d))
			return v_float(in->a, d);
	}
	return fact_set_plain(unknown_at(f, site, "float() of a value not known"));
}

static value_t *bi_bool(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int ok;

	if (nargs == 0)
		return v_bool(in->a, 0);
	if (is_tensorish(args[0]) && args[0]->dev == DEV_DEVICE)
		sev(f, SEV_SYNC, "bool(<a device tensor>)", site);
	ok = value_truth(args[0]);
	return ok < 0 ? unknown_at(f, site, "bool() of a value not known") : v_bool(in->a, ok);
}

static value_t *bi_str(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;

	/* str(x): a device tensor is read; a repo object's __str__ runs */
	if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE && f->mode != M_FWD)
		sev(f, SEV_SYNC, "str(<a device tensor>)", site);
	if (nargs == 1)
		format_hook(f, args[0], 's', site);
	if (nargs == 1 && args[0]->k == VK_STR)
		return args[0];
	if (nargs == 1 && args[0]->k == VK_INT)
		return v_str(in->a, afmt(in, "%lld", args[0]->u.i));
	if (nargs == 1 && is_path(args[0]) && path_text(args[0])->k == VK_STR)
		return path_text(args[0]);
	/* str(True) is 'True' (parse_flag_from_env(key, default=True) reads
	 * os.environ.get(key, str(default))) */
	if (nargs == 1 && args[0]->k == VK_BOOL)
		return v_str(in->a, args[0]->u.b ? "True" : "False");
	if (nargs == 1 && args[0]->k == VK_NONE)
		return v_str(in->a, "None");
	if (nargs == 0)
		return v_str(in->a, "");
	return fact_set_plain(unknown_at(f, site, "str() of a value not known"));
}

static value_t *bi_seq(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;

	if (nargs == 0)
		return v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, 0);
	/* list(G(...)) of a repository generator: its body read whole */
	if (fn->u.bi.id != BI_SET && is_gen_value(args[0]) && !args[0]->u.inst->enumerated) {
		value_t *r = gen_drain(f, args[0]->u.inst, fn->u.bi.id == BI_TUPLE, site);

		if (r)
			return r;
	}
	if (!iter_items(f, args[0], &items)) {
		value_t *r;
		size_t i, j, n;

		charge(f, items->n, 0);
		r = seq_from(in, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, items);
		/* set(): each plain item once (others are kept as they come) */
		for (i = n = 0; fn->u.bi.id == BI_SET && i < r->u.seq->n; i++) {
			value_t *x = r->u.seq->items[i];
			int plain = x->k == VK_STR || value_is_known_scalar(x);

			for (j = 0; plain && j < n && !value_key_eq(r->u.seq->items[j], x); j++)
				;
			if (!plain || j == n)
				r->u.seq->items[n++] = x;
		}
		if (fn->u.bi.id == BI_SET)
			r->u.seq->n = n;
		return r;
	}
	if ((args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->n >= 1 &&
	    fn->u.bi.id != BI_SET) {
		/* length unknown: keep the items it shows (the first is the
		 * representative one; a known prefix joined to a list of
		 * unknown length shows both) */
		value_t *r = v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, args[0]->u.seq->n);
		size_t i;

		for (i = 0; i < args[0]->u.seq->n; i++)
			vseq_push(in->a, r->u.seq, args[0]->u.seq->items[i]);
		r->u.seq->unk_expr = args[0]->u.seq->unk_expr;
		r->u.seq->unk_reason = args[0]->u.seq->unk_reason;
		r->u.seq->prefix = args[0]->u.seq->prefix;
		return r;
	}
	if (args[0]->k == VK_UNKNOWN && !args[0]->alts && fn->u.bi.id != BI_SET && iter_rep_item(f, args[0])) {
		/* list(range(n)) with n not known (and the dims of a size not
		 * known): one item standing for all, length unknown */
		value_t *r = v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, 1);

		vseq_push(in->a, r->u.seq, iter_rep_item(f, args[0]));
		r->u.seq->unk_expr = args[0]->expr ? args[0]->expr : text_of(f, site);
		r->u.seq->unk_reason = args[0]->reason;
		return r;
	}
	if (args[0]->k == VK_TENSOR && fn->u.bi.id != BI_SET && iter_rep_item(f, args[0])) {
		/* list(t), tuple(t) of a tensor (a device one: iter_items
		 * does not unroll those): its rows, 0-d tensors where it
		 * lives -- as many as its first dimension when known, else
		 * one standing for all (list(mloss) formatted by '%g') */
		const struct vshape *sh = shape_of(args[0]);
		long long n = sh && sh->nd >= 1 && sh->n[0] >= 0 && sh->n[0] <= MAX_TENSOR_ROWS ? sh->n[0] : -1;
		value_t *r = v_seq(in->a, fn->u.bi.id == BI_TUPLE ? VK_TUPLE : VK_LIST, n > 0 ? (size_t)n : 1);
		long long i;

		for (i = 0; i < (n >= 0 ? n : 1); i++)
			vseq_push(in->a, r->u.seq, iter_rep_item(f, args[0]));
		if (n < 0) {
			r->u.seq->unk_expr = args[0]->expr;
			r->u.seq->unk_reason = "the rows of a tensor whose length is not known";
		}
		return r;
	}
	return unknown_at(f, site, "a sequence of items not known");
}

static value_t *bi_dict(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	return dict_of(f, args, nargs, kw, site);
}

value_t *dict_of(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;
	value_t *r = v_dict(in->a);

	/* dict(x) of a mapping not known, dict(**x) of keys not known */
	if (nargs == 1 && args[0]->k == VK_UNKNOWN)
		return args[0];
	if (kw_unk(kw, 0))
		return unknown_at(f, site, kw_unk(kw, 0)->reason);
	if (nargs == 1 && args[0]->k == VK_DICT)
		charge(f, WORK_MADE * args[0]->u.dict->n, 0);
	if (nargs == 1 && args[0]->k == VK_DICT) {
		for (i = 0; i < args[0]->u.dict->n; i++)
			vdict_set(in->a, r->u.dict, args[0]->u.dict->keys[i], args[0]->u.dict->vals[i]);
		dict_keep_may_hold(r->u.dict, args[0]->u.dict);
	} else if (nargs == 1 && args[0]->k != VK_NONE) {
		/* dict(pairs): key, value pairs (zip(keys, vals), a generator
		 * of pairs), each listed (not an empty dict); items not all
		 * pairs: not known */
		struct vseq *items = NULL;

		if (iter_items(f, args[0], &items) || !items) {
			/* pairs of a number not known: a dict whose keys are
			 * not known (its length and items not stated; an
			 * update() from it writes nothing it does not show);
			 * the value of the pair that stands for them all (a
			 * list made by one loop) is what a pass over it reads */
			const struct vseq *q = args[0]->k == VK_LIST || args[0]->k == VK_TUPLE ? args[0]->u.seq : NULL;

			r->u.dict->anykey = 2;
			if (q && q->unk_reason && !q->prefix && q->n == 1 &&
			    (q->items[0]->k == VK_TUPLE || q->items[0]->k == VK_LIST) &&
			    !q->items[0]->u.seq->unk_reason && q->items[0]->u.seq->n == 2)
				r->u.dict->anyval = q->items[0]->u.seq->items[1];
			items = NULL;
		}
		if (items)
			charge(f, WORK_MADE * items->n, 0);
		for (i = 0; items && i < items->n; i++) {
			const value_t *p = items->items[i];

			if ((p->k != VK_TUPLE && p->k != VK_LIST) || p->u.seq->unk_reason || p->u.seq->n != 2)
				return unknown_at(f, site, "dict() of items that are not all known pairs");
			vdict_set(in->a, r->u.dict, p->u.seq->items[0], p->u.seq->items[1]);
		}
	}
	if (kw)
		for (i = 0; i < kw->n; i++)
			vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
	return r;
}

static value_t *bi_min(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	return minmax(f, args, nargs, 0, site);
}

/* map(fn, it): fn called on each item as a comprehension calls it, the
 * results a list (the lazy iterator stands as the list of what it
 * yields: list(), join() and a loop read it alike).  Items not listed
 * (a device tensor's rows, a sequence of unknown length): one call on
 * the representative item, its events repeated a number of times not
 * known (JC_REPEAT), the list of unknown length.  Two or more iterables:
 * listed ones pairwise, else not followed. */
/* One item standing for two of a sequence: tensors joined (tensor_join:
 * the place both share), tuples item by item, a value both hold as such,
 * anything else not known. */
static value_t *rep_join(struct frame *f, value_t *a, value_t *b, int depth, const char *why,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (a == b)
		return a;
	if (a->k == VK_TENSOR && b->k == VK_TENSOR)
		return tensor_join(in, a, b);
	if (a->k == VK_TUPLE && b->k == VK_TUPLE && a->u.seq->n == b->u.seq->n && !a->u.seq->unk_reason &&
	    !b->u.seq->unk_reason && depth < 8) {
		value_t *t = v_seq(in->a, VK_TUPLE, a->u.seq->n);

		for (i = 0; i < a->u.seq->n; i++)
			vseq_push(in->a, t->u.seq, rep_join(f, a->u.seq->items[i], b->u.seq->items[i], depth + 1, why, site));
		return t;
	}
	if (value_is_known_scalar(a) && value_is_known_scalar(b) && a->k == b->k &&
	    ((a->k == VK_INT && a->u.i == b->u.i) || (a->k == VK_BOOL && a->u.b == b->u.b) || a->k == VK_NONE))
		return a;
	return unknown_at(f, site, why);
}

value_t *items_rep(struct frame *f, const struct vseq *q, const char *why, const struct ast_hdr *site)
{
	value_t *rep = q->n ? q->items[0] : NULL;
	size_t i;

	for (i = 1; rep && i < q->n; i++)
		rep = rep_join(f, rep, q->items[i], 0, why, site);
	return rep;
}

/* filter(fn, xs): the items of xs the test keeps, which only the run
 * knows: a list of a length not known whose one representative item
 * stands for all of xs's (rep_join) -- the items kept when every test's
 * outcome is known here; fn is called on each item, as the run does.  Over an iterable not known: its representative item, or a
 * list of nothing known. */
static value_t *bi_filter(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	value_t *out, *why, *rep = NULL;
	size_t i;

	(void)fn;
	if (nargs != 2 || (kw && kw->n))
		return unknown_at(f, site, "filter() ecg does not follow");
	out = v_seq(in->a, VK_LIST, 1);
	out->u.seq->unk_expr = site ? text_of(f, site) : NULL;
	out->u.seq->unk_reason = "the items a filter() keeps, known at run time";
	if ((why = iter_items(f, args[1], &items)) != NULL || !items) {
		rep = iter_rep_item(f, args[1]);
		if (rep && args[0]->k != VK_NONE)
			(void)call(f, args[0], &rep, 1, NULL, site);
		if (rep)
			vseq_push(in->a, out->u.seq, rep);
		return out;
	}
	{
		value_t *exact = v_seq(in->a, VK_LIST, items->n);
		int all_known = 1;

		for (i = 0; i < items->n; i++) {
			value_t *keep;
			int t;

			if (!budget_at(f, site))
				return unknown_at(f, site, "filter() past the step bound");
			keep = args[0]->k != VK_NONE ? call(f, args[0], &items->items[i], 1, NULL, site) : items->items[i];
			t = value_truth(keep);
			if (t < 0)
				all_known = 0;
			else if (t)
				vseq_push(in->a, exact->u.seq, items->items[i]);
			rep = rep ? rep_join(f, rep, items->items[i], 0, "an item of those a filter() keeps, known at run time", site)
			          : items->items[i];
		}
		/* every test's outcome known: the items kept, exactly */
		if (all_known)
			return exact;
	}
	if (rep)
		vseq_push(in->a, out->u.seq, rep);
	return out;
}

static value_t *bi_map(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	value_t *out, *why, *rep;
	size_t i, j, n;

	(void)fn;
	if (nargs < 2 || (kw && kw->n))
		return unknown_at(f, site, "map() ecg does not follow");
	out = v_seq(in->a, VK_LIST, 0);
	if (nargs == 2 && (why = iter_items(f, args[1], &items)) != NULL) {
		const struct jctx *ojc = f->jc;

		out->u.seq->unk_expr = site ? text_of(f, site) : NULL;
		out->u.seq->unk_reason = why->reason ? why->reason : "an iterable whose items are not known";
		rep = iter_rep_item(f, args[1]);
		if (!rep)
			return out;
		if (f->mode != M_FWD && site)
			f->jc = jc_push(f, JC_REPEAT, anchor_at(f, site), afmt_memo(in, "map over %s", text_of(f, site), NULL));
		vseq_push(in->a, out->u.seq, call(f, args[0], &rep, 1, NULL, site));
		f->jc = ojc;
		return out;
	}
	{
		struct vseq **its = ast_arena_alloc(in->a, nargs * sizeof *its);

		n = (size_t)-1;
		for (j = 1; j < nargs; j++) {
			if (iter_items(f, args[j], &its[j]))
				return unknown_at(f, site, "map() over iterables not known");
			if (its[j]->n < n)
				n = its[j]->n;
		}
		charge(f, n, 0);
		for (i = 0; i < n; i++) {
			value_t **a = ast_arena_alloc(in->a, nargs * sizeof *a);

			if (!budget_at(f, site))
				return unknown_at(f, site, "map() past the step bound");
			for (j = 1; j < nargs; j++)
				a[j - 1] = its[j]->items[i];
			vseq_push(in->a, out->u.seq, call(f, args[0], a, nargs - 1, NULL, site));
		}
	}
	return out;
}

static value_t *bi_max(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	return minmax(f, args, nargs, 1, site);
}

/* A Python int whose value is not known: a len(), a dim, a sum of them. */
static int py_int_item(const value_t *v)
{
	return v && (v->k == VK_INT || v->k == VK_BOOL ||
	             (v->k == VK_UNKNOWN && v->reason &&
	              (v->reason == shape_dim_reason || !strcmp(v->reason, "the length of something not known") ||
	               !strcmp(v->reason, SUM_OF_INTS_REASON))));
}

/* sum() whose items are Python ints not all known (`sum(len(t["labels"])
 * for t in targets)`): a Python int -- not a tensor, so torch.as_tensor([n],
 * device=...) of it is a copy of host data -- whose value is not known. */
static value_t *sum_of_ints(struct frame *f, value_t *it, struct vseq *items, const struct ast_hdr *site)
{
	value_t *rep;
	size_t i;

	if (items) {
		for (i = 0; i < items->n; i++)
			if (!py_int_item(items->items[i]))
				return NULL;
		return items->n ? unknown_at(f, site, SUM_OF_INTS_REASON) : NULL;
	}
	rep = iter_rep_item(f, it);
	return rep && rep->k != VK_TENSOR && py_int_item(rep) ? unknown_at(f, site, SUM_OF_INTS_REASON) : NULL;
}

/* sum() in job code of listed items that are tensors (numbers among
 * them: a start, Python scalars, added to each): a tensor, on the device
 * the tensors share (not known when they differ), of their shapes
 * broadcast (shape_broadcast); NULL when no item is a tensor or one is
 * neither a tensor nor a number (the loss terms of a dict summed before
 * loss.item()).  The graph's reading (a forward) keeps sum() as before. */
static value_t *sum_of_tensors(struct frame *f, const struct vseq *items)
{
	struct interp *in = f->in;
	value_t *r = NULL;
	size_t i;
	double x;

	for (i = 0; i < items->n; i++) {
		const value_t *t = items->items[i];

		if (!is_tensorish(t)) {
			if (!as_num(t, &x))
				return NULL;
			continue;
		}
		if (!r) {
			r = v_tensor_dev(in->a, t->dev, 0);
			r->shape = t->shape;
		} else {
			if (r->dev != t->dev)
				r->dev = DEV_UNKNOWN;
			r->shape = r->shape && t->shape ? shape_broadcast(in->a, r->shape, t->shape) : NULL;
		}
	}
	return r;
}

static int all_tensorish(const struct vseq *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!is_tensorish(s->items[i]))
			return 0;
	return 1;
}

static value_t *bi_sum(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	value_t *r;
	double x;
	size_t i;
	double tot = 0;
	int all_int = 1;

	if (nargs >= 2 || (kw && vdict_gets(kw, "start"))) {
		/* sum(xs, start): a number start is added; a list start and
		 * known lists are concatenated (sum(images, []), [] of none);
		 * any other is not followed */
		value_t *st = nargs >= 2 ? args[1] : vdict_gets(kw, "start");

		if (st->k == VK_LIST && !st->u.seq->unk_reason && !iter_items(f, args[0], &items)) {
			r = seq_from(in, VK_LIST, st->u.seq);
			for (i = 0; i < items->n; i++) {
				const value_t *l = items->items[i];
				size_t k;

				if (l->k != VK_LIST || l->u.seq->unk_reason)
					return unknown_at(f, site, "sum() of lists not known");
				charge(f, l->u.seq->n, 0);
				for (k = 0; k < l->u.seq->n; k++)
					vseq_push(in->a, r->u.seq, l->u.seq->items[k]);
			}
			return r;
		}

		if (!as_num(st, &x) || (st->k != VK_INT && st->k != VK_FLOAT && st->k != VK_BOOL))
			return unknown_at(f, site, "sum() with a start not followed");
		tot = x;
		all_int = st->k != VK_FLOAT;
	}
	if (nargs >= 1 && !iter_items(f, args[0], &items) && f->mode != M_FWD && (r = sum_of_tensors(f, items)))
		return r;
	/* a list of a length not known whose stand-ins are tensors (a
	 * generator over a comprehension's dict: `sum(l for l in
	 * losses.values())`): a tensor all the same, as the stand-ins say */
	if (nargs >= 1 && f->mode != M_FWD && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) &&
	    args[0]->u.seq->unk_reason && args[0]->u.seq->n && all_tensorish(args[0]->u.seq) &&
	    (r = sum_of_tensors(f, args[0]->u.seq)))
		return r;
	if (nargs >= 1 && !iter_items(f, args[0], &items)) {
		for (i = 0; i < items->n; i++) {
			if (!as_num(items->items[i], &x))
				return all_int && (r = sum_of_ints(f, args[0], items, site)) ? r
				       : unknown_at(f, site, "sum() of values not known");
			if (items->items[i]->k == VK_FLOAT)
				all_int = 0;
			tot += x;
		}
		return all_int ? v_int(in->a, (long long)tot) : v_float(in->a, tot);
	}
	if (nargs >= 1 && all_int && (r = sum_of_ints(f, args[0], NULL, site)))
		return r;
	r = unknown_at(f, site, "sum() of values not known");
	if (nargs == 1)
		hostdata_sum(args[0], r);   /* sum() of host data (hostdata.c) */
	return r;
}

static value_t *bi_abs(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x;

	if (nargs == 1 && args[0]->k == VK_INT)
		return v_int(in->a, llabs(args[0]->u.i));
	if (nargs == 1 && as_num(args[0], &x))
		return v_float(in->a, fabs(x));
	return unknown_at(f, site, "abs() of a value not known");
}

/* slice(stop), slice(start, stop[, step]): a slice object, as x[a:b:c]
 * makes one. */
static value_t *bi_slice(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;

	(void)fn;
	if (nargs < 1 || nargs > 3 || (kw && kw->n))
		return unknown_at(f, site, "slice() with other than one to three positional arguments");
	v = ast_arena_alloc(in->a, sizeof *v);
	memset(v, 0, sizeof *v);
	v->k = VK_SLICE;
	v->u.slice.lo = nargs == 1 ? v_none(in->a) : args[0];
	v->u.slice.hi = nargs == 1 ? args[0] : args[1];
	v->u.slice.step = nargs == 3 ? args[2] : v_none(in->a);
	return v;
}

/* divmod(a, b) of two known numbers: (a // b, a % b) with Python's
 * floor semantics (eval.c binop); unknown otherwise (a zero divisor
 * raises) */
static value_t *bi_divmod(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *q, *r, *t;
	double x;

	(void)fn;
	if (nargs != 2 || (kw && kw->n) || args[0]->k == VK_BOOL || args[1]->k == VK_BOOL ||
	    !(args[0]->k == VK_INT || args[0]->k == VK_FLOAT) || !(args[1]->k == VK_INT || args[1]->k == VK_FLOAT) ||
	    !as_num(args[1], &x) || x == 0)
		return unknown_at(f, site, "divmod() of values not known");
	q = binop(f, AST_OP_FLOORDIV, args[0], args[1], site, 0);
	r = binop(f, AST_OP_MOD, args[0], args[1], site, 0);
	if (!(q->k == VK_INT || q->k == VK_FLOAT) || !(r->k == VK_INT || r->k == VK_FLOAT))
		return unknown_at(f, site, "divmod() of values not known");
	t = v_seq(in->a, VK_TUPLE, 2);
	vseq_push(in->a, t->u.seq, q);
	vseq_push(in->a, t->u.seq, r);
	return t;
}

static value_t *bi_round(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x;

	if (nargs == 1 && as_num(args[0], &x) && fabs(x) < 9e15)
		return v_int(in->a, (long long)nearbyint(x));   /* half to even (the default rounding mode) */
	return unknown_at(f, site, "round() of a value not known");
}

/* The builtins of iteration: enumerate, zip, sorted, reversed, any, all,
 * iter, next (a generator advanced, a DataLoader's batch). */
static value_t *bi_enumerate(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	value_t *gen = NULL;
	size_t i;

	if (f->mode == M_FWD && nargs == 1 && args[0]->k == VK_INST && args[0]->u.inst->mod == VM_CONTAINER) {
		/* enumerate(self.blocks) in a forward: read like the
		 * container itself, one pass per group, index unknown */
		struct vinst *l = new_inst(in);

		*l = *args[0]->u.inst;
		l->attrs = vdict_new(in->a);
		for (i = 0; i < args[0]->u.inst->attrs->n; i++)
			vdict_set(in->a, l->attrs, args[0]->u.inst->attrs->keys[i], args[0]->u.inst->attrs->vals[i]);
		l->enumerated = 1;
		return mk_inst_value(in, l);
	}
	if (nargs >= 1 && (is_loader(args[0]) || is_gen_value(args[0]) || (gen = iter_dunder_gen(f, args[0], site)) ||
	                   iter_self_next(f, args[0]))) {
		/* enumerate(loader), enumerate(gen): batches or the generator's
		 * items with an index, read where the loop reads them (a
		 * generator's body still runs inside the loop); an object whose
		 * __iter__ is a generator: that generator's; an iterator object
		 * of a repository class (a cycling iterator over a loader): what
		 * its __next__ gives, read in the loop (exec.c) */
		const value_t *src = gen ? gen : args[0];
		struct vinst *l = new_inst(in);

		*l = *src->u.inst;
		l->attrs = vdict_new(in->a);
		for (i = 0; i < src->u.inst->attrs->n; i++)
			vdict_set(in->a, l->attrs, src->u.inst->attrs->keys[i], src->u.inst->attrs->vals[i]);
		l->enumerated = 1;
		return mk_inst_value(in, l);
	}
	if (nargs >= 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->unk_reason &&
	    args[0]->u.seq->n >= 1) {
		/* enumerate(zip(defs, layers)) of a length not known: the
		 * representative item with an index not known, the length
		 * still not known */
		value_t *r = v_seq(in->a, VK_LIST, 1);
		value_t *p = v_seq(in->a, VK_TUPLE, 2);

		vseq_push(in->a, p->u.seq, v_unknown(in->a, "the index", "a loop counter"));
		vseq_push(in->a, p->u.seq, args[0]->u.seq->items[0]);
		vseq_push(in->a, r->u.seq, p);
		r->u.seq->unk_expr = args[0]->u.seq->unk_expr;
		r->u.seq->unk_reason = args[0]->u.seq->unk_reason;
		return r;
	}
	if (nargs >= 1 && !iter_items(f, args[0], &items)) {
		value_t *r = v_seq(in->a, VK_LIST, items->n);

		charge(f, WORK_MADE * items->n, 0);
		for (i = 0; i < items->n; i++) {
			value_t *p = v_seq(in->a, VK_TUPLE, 2);

			vseq_push(in->a, p->u.seq, v_int(in->a, (long long)i));
			vseq_push(in->a, p->u.seq, items->items[i]);
			vseq_push(in->a, r->u.seq, p);
		}
		if (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE)
			r->u.seq->stage_whole = args[0]->u.seq->stage_whole;
		return r;
	}
	if (nargs == 1 && f->mode != M_FWD && args[0]->k == VK_TENSOR && !args[0]->alts && !args[0]->loose &&
	    (!args[0]->shape || args[0]->shape->nd >= 1)) {
		/* enumerate(t) of a tensor whose rows iter_items() does not
		 * list (a device tensor, a first dimension not known): its
		 * representative row with an index not known, the length not
		 * known -- as `for x in t` reads it (iter_rep_item), with or
		 * without a known shape: a tensor with none may stand for a
		 * model's output whose forward ecg did not follow, and the
		 * items of such a tuple or list of the model's tensors are
		 * where those are, as a row is.  A loose batch (a list, a
		 * dict, of a collation not known) and a value with
		 * alternatives give nothing */
		value_t *row = iter_rep_item(f, args[0]);

		if (row) {
			value_t *r = v_seq(in->a, VK_LIST, 1);
			value_t *p = v_seq(in->a, VK_TUPLE, 2);

			vseq_push(in->a, p->u.seq, v_unknown(in->a, "the index", "a loop counter"));
			vseq_push(in->a, p->u.seq, row);
			vseq_push(in->a, r->u.seq, p);
			r->u.seq->unk_expr = args[0]->expr;
			r->u.seq->unk_reason = "the rows of a tensor, as many as its first dimension";
			return r;
		}
	}
	return unknown_at(f, site, ENUMERATE_UNKNOWN_REASON);
}

/* The item `for i, x in enumerate(items)` binds when the items are not
 * known (bi_enumerate gave an unknown of ENUMERATE_UNKNOWN_REASON) and the
 * target unpacks two names: the index is an int >= 0 all the same (a
 * Python number: a list of such indices is host data, copied over when
 * made into a device tensor), the item stays not known.  NULL when `it`
 * is not that unknown or the target is no pair. */
value_t *enumerate_unknown_pair(struct frame *f, const value_t *it, const struct ast_hdr *target)
{
	struct interp *in = f->in;
	value_t *pair, *idx;

	if (!it || it->k != VK_UNKNOWN || it->alts || !it->reason || strcmp(it->reason, ENUMERATE_UNKNOWN_REASON) ||
	    !target || !((target->kind == AST_Tuple && AST_AS(target, Tuple)->elts.n == 2) ||
	                 (target->kind == AST_List && AST_AS(target, List)->elts.n == 2)))
		return NULL;
	idx = fact_set_plain(v_unknown(in->a, "the index", "a loop counter"));
	idx->nonneg = FACT_NONNEG_INT;
	pair = v_seq(in->a, VK_TUPLE, 2);
	vseq_push(in->a, pair->u.seq, idx);
	vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the item", ENUMERATE_UNKNOWN_REASON));
	return pair;
}

/* zip(phases, all_gen_z, all_gen_c) in job code with one argument a list
 * or tuple of n known items (2..ZIP_BOUND_MAX, the shortest such) and
 * another of a length not known: zip() stops at the shortest, so there
 * are at most n tuples, the i-th pairing the known items i with the
 * others' representative (rep).  r, the one-representative list, gets
 * them as `some` with some_bound: a `for` over it reads each known item
 * (exec.c exec_for_some: the trip count not known, no pass for items not
 * known) instead of the first alone; every other reader sees r as before. */
#define ZIP_BOUND_MAX 16
static void zip_bounded(struct frame *f, value_t *r, value_t **args, size_t nargs, value_t **rep)
{
	struct interp *in = f->in;
	size_t n = 0, i, k;

	if (f->mode == M_FWD)
		return;
	for (k = 0; k < nargs; k++) {
		value_t *a = args[k];

		if ((a->k == VK_LIST || a->k == VK_TUPLE) && !a->u.seq->unk_reason && a->u.seq->n >= 2 &&
		    a->u.seq->n <= ZIP_BOUND_MAX && (!n || a->u.seq->n < n))
			n = a->u.seq->n;
	}
	if (!n)
		return;
	r->some = v_seq(in->a, VK_LIST, n)->u.seq;
	for (i = 0; i < n; i++) {
		value_t *t = v_seq(in->a, VK_TUPLE, nargs);

		for (k = 0; k < nargs; k++) {
			value_t *a = args[k];

			vseq_push(in->a, t->u.seq, (a->k == VK_LIST || a->k == VK_TUPLE) && !a->u.seq->unk_reason
			                           ? a->u.seq->items[i] : rep[k]);
		}
		vseq_push(in->a, r->some, t);
	}
	r->some_bound = 1;
}

static value_t *bi_zip(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;
	struct vseq **all = xcalloc(nargs + 1, sizeof *all);
	size_t n = (size_t)-1;
	value_t *r;

	/* zip(*rows), rows of a length not known whose one representative
	 * row has k items (a list of samples, each an (image, target)
	 * pair): the transpose is k tuples, the j-th of a length not known
	 * with the rows' j-th item as its representative */
	if (nargs == 2 && args[1]->k == VK_UNKNOWN && args[1]->star_rest &&
	    (args[0]->k == VK_TUPLE || args[0]->k == VK_LIST) && !args[0]->u.seq->unk_reason &&
	    args[0]->u.seq->n >= 1 && AST_IS(site, Call) && AST_AS(site, Call)->args.n == 1 &&
	    AST_IS(AST_AS(site, Call)->args.items[0], Starred)) {
		struct vseq *row = args[0]->u.seq;

		r = v_seq(in->a, VK_LIST, row->n);
		for (i = 0; i < row->n; i++) {
			value_t *col = v_seq(in->a, VK_TUPLE, 1);

			vseq_push(in->a, col->u.seq, row->items[i]);
			col->u.seq->unk_expr = args[1]->expr;
			col->u.seq->unk_reason = args[1]->reason ? args[1]->reason : "one item of each row of rows whose number is not known";
			vseq_push(in->a, r->u.seq, col);
		}
		free(all);
		return r;
	}
	/* zip over a DataLoader, a generator or a sequence of unknown
	 * length (with range()s and lists beside): one representative
	 * tuple, length unknown */
	{
		value_t **rep = xcalloc(nargs + 1, sizeof *rep);
		value_t *g;
		struct vseq *rows = NULL;
		int unk = 0, zok = nargs > 0;

		for (i = 0; zok && i < nargs; i++) {
			value_t *a = args[i];

			if ((a->k == VK_LIST || a->k == VK_TUPLE) && a->u.seq->n >= 1) {
				rep[i] = a->u.seq->items[0];
				unk |= a->u.seq->unk_reason != NULL;
			} else if (a->k == VK_RANGE) {
				rep[i] = v_unknown(in->a, "the index", "a loop counter");
			} else if (is_loader(a)) {
				const struct ast_hdr *an = AST_IS(site, Call) && AST_AS(site, Call)->args.n > i
				                           ? AST_AS(site, Call)->args.items[i] : site;

				rep[i] = loader_batch(f, a->u.inst, f->mode != M_FWD ? afmt(in, "zip(..., %s)", text_of(f, an)) : NULL,
				                      site);
				unk = 1;
			} else if (is_gen_value(a)) {
				rep[i] = gen_next(f, a->u.inst, site);
				unk = 1;
			} else if ((g = iter_dunder_gen(f, a, site))) {
				/* zip(*train_loaders) of objects of a repository
				 * class whose __iter__ is a generator (an infinite
				 * loader wrapping a DataLoader): zip() calls iter()
				 * on each, so the generator's first item */
				rep[i] = gen_next(f, g->u.inst, site);
				unk = 1;
			} else if (a->k == VK_UNKNOWN && arr_rows(f, a, MAX_TENSOR_ROWS, &rows) && rows->n >= 1) {
				/* an array whose first axis is known (arrays.c: np.cumsum
				 * of a list of numbers): its rows, as many as that axis
				 * says -- no length left unknown by it */
				rep[i] = rows->items[0];
			} else if (a->k == VK_UNKNOWN || a->k == VK_TENSOR) {
				/* zip(targets, results) with results not known:
				 * the others' items still pair with something */
				rep[i] = iter_rep_item(f, a) ? iter_rep_item(f, a)
				         : v_unknown(in->a, NULL, "an item of an iterable not known");
				unk = 1;
			} else if (a->k == VK_INST && a->u.inst->mod != VM_NONE && a->u.inst->nchildren >= 1) {
				/* zip(defs, self.module_list) with defs not known:
				 * the container's modules pair with them */
				rep[i] = mk_inst_value(in, a->u.inst->children[0].inst);
			} else {
				zok = 0;
			}
		}
		if (zok && unk) {
			value_t *t = v_seq(in->a, VK_TUPLE, nargs);

			r = v_seq(in->a, VK_LIST, 1);
			for (i = 0; i < nargs; i++)
				vseq_push(in->a, t->u.seq, rep[i]);
			vseq_push(in->a, r->u.seq, t);
			r->u.seq->unk_expr = text_of(f, site);
			r->u.seq->unk_reason = "zip() over an iterable whose length is not known";
			zip_bounded(f, r, args, nargs, rep);
			free(rep);
			free(all);
			return r;
		}
		free(rep);
	}
	for (i = 0; i < nargs; i++) {
		if (iter_items(f, args[i], &all[i])) {
			free(all);
			return unknown_at(f, site, "zip() of items not known");
		}
		if (all[i]->n < n)
			n = all[i]->n;
	}
	if (nargs == 0)
		n = 0;
	r = v_seq(in->a, VK_LIST, n);
	charge(f, WORK_MADE * n * nargs, 0);
	for (i = 0; i < n; i++) {
		value_t *t = v_seq(in->a, VK_TUPLE, nargs);
		size_t k;

		for (k = 0; k < nargs; k++)
			vseq_push(in->a, t->u.seq, all[k]->items[i]);
		vseq_push(in->a, r->u.seq, t);
	}
	free(all);
	return r;
}

static value_t *bi_sorted(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	size_t i;

	/* reversed(t) of a tensor: Tensor.__reversed__, t.flip(0) -- a tensor
	 * where t is, of its shape (its rows iterated last first) */
	if (fn->u.bi.id == BI_REVERSED && nargs == 1 && args[0]->k == VK_TENSOR) {
		value_t *r = v_tensor_dev(in->a, args[0]->dev, 0);

		r->shape = args[0]->shape;
		r->dt = args[0]->dt;
		return r;
	}
	if (nargs >= 1 && !iter_items(f, args[0], &items)) {
		value_t *r;

		charge(f, items->n, 0);
		r = seq_from(in, VK_LIST, items);

		if (fn->u.bi.id == BI_REVERSED)
			for (i = 0; i < r->u.seq->n / 2; i++) {
				value_t *t = r->u.seq->items[i];

				r->u.seq->items[i] = r->u.seq->items[r->u.seq->n - 1 - i];
				r->u.seq->items[r->u.seq->n - 1 - i] = t;
			}
		return r;
	}
	return unknown_at(f, site, "the items are not known");
}

static value_t *bi_any_all(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *items = NULL;
	size_t i;

	/* Python's all()/any() over a device tensor reads it element by
	 * element on the host (llama's all(eos_reached)) */
	if (nargs == 1 && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE && f->mode != M_FWD) {
		sev(f, SEV_SYNC, fn->u.bi.id == BI_ALL ? "all(<a device tensor>)" : "any(<a device tensor>)", site);
		return unknown_at(f, site, "the truth of a tensor's elements, read at run time");
	}
	if (nargs == 1 && !iter_items(f, args[0], &items)) {
		int any = 0, all = 1;

		for (i = 0; i < items->n; i++) {
			int t = value_truth(items->items[i]);

			if (t < 0)
				return unknown_at(f, site, "truth of values not known");
			any |= t;
			all &= t;
		}
		return v_bool(in->a, fn->u.bi.id == BI_ANY ? any : all);
	}
	/* a sequence of unknown length whose items all stand for one known
	 * truth (`[1] * B`, `(s > 1 for s in seqlens)`): any() of falsy ones
	 * is False and all() of truthy ones True, however many there are
	 * (none included); the other two depend on the length */
	if (nargs == 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->unk_reason &&
	    !args[0]->u.seq->prefix && args[0]->u.seq->n) {
		const struct vseq *s = args[0]->u.seq;
		int want = fn->u.bi.id == BI_ANY ? 0 : 1;

		for (i = 0; i < s->n; i++)
			if (value_truth(s->items[i]) != want)
				return unknown_at(f, site, "the items are not known");
		return v_bool(in->a, want == 0 ? 0 : 1);
	}
	return unknown_at(f, site, "the items are not known");
}

static value_t *bi_iter(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	return nargs ? args[0] : unknown_at(f, site, "iter() of nothing");
}

static value_t *bi_next(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	value_t *r;

	/* a generator's or a loader's next item: the iterator may be spent
	 * (StopIteration), unless next() is given a default */
	if (nargs == 1 && (is_gen_value(args[0]) || is_loader(args[0])))
		f->in->nexts_may_stop++;
	if (nargs >= 1 && is_gen_value(args[0]))
		return gen_next(f, args[0]->u.inst, site);
	if (nargs >= 1 && is_loader(args[0]))
		return loader_batch(f, args[0]->u.inst, "next(<DataLoader>)", site);
	if (nargs >= 1 && (r = next_dunder(f, args[0], site)))
		return r;
	/* next(model.parameters()): an item of a sequence of unknown length
	 * whose one item stands for all of them (module.c's parameters(), a
	 * generator read as such) is that item; a known list is not an
	 * iterator (its position is not kept): not followed */
	if (nargs >= 1 && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) && args[0]->u.seq->unk_reason &&
	    !args[0]->u.seq->prefix && args[0]->u.seq->n == 1)
		return args[0]->u.seq->items[0];
	/* next(iter(xs)) of a listed xs (`next(iter(outputs.values()))`): a
	 * fresh iterator advanced once, its first item (none: StopIteration,
	 * and the run described goes on) */
	if (nargs == 1 && site && AST_IS(site, Call) && AST_AS(site, Call)->args.n == 1 &&
	    AST_IS(AST_AS(site, Call)->args.items[0], Call) && (args[0]->k == VK_LIST || args[0]->k == VK_TUPLE) &&
	    !args[0]->u.seq->unk_reason && args[0]->u.seq->n >= 1) {
		const struct ast_Call *in_call = AST_AS(AST_AS(site, Call)->args.items[0], Call);

		if (AST_IS(in_call->func, Name) && !strcmp(AST_AS(in_call->func, Name)->id, "iter") &&
		    in_call->args.n == 1 && !in_call->keywords.n)
			return args[0]->u.seq->items[0];
	}
	return unknown_at(f, site, "next() of an iterator ecg does not follow");
}

/* super().__iter__() of a repository subclass of torch's DataLoader: the
 * base's iterator (torch.c loader_iter) */
static value_t *bi_loader_iter(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	(void)args;
	(void)nargs;
	(void)kw;
	(void)site;
	return loader_iter(f->in, fn->u.bi.self);
}

/* it.__next__() of a DataLoader's iterator: next(it), a batch; the
 * iterator may be spent (StopIteration) */
static value_t *bi_loader_next(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	(void)args;
	(void)nargs;
	(void)kw;
	f->in->nexts_may_stop++;
	return loader_batch(f, fn->u.bi.self->u.inst, "next(<DataLoader>)", site);
}

/* The source text of a call's i-th positional argument, or "?". */
static const char *text_of_arg(struct frame *f, const struct ast_hdr *site, size_t i)
{
	if (site && AST_IS(site, Call) && i < AST_AS(site, Call)->args.n)
		return text_of(f, AST_AS(site, Call)->args.items[i]);
	return "?";
}

/* The builtins about objects, names and the outside: print, isinstance,
 * getattr, setattr, hasattr, super, open, exec, staticmethod &c.,
 * globals, and optimizer.step(closure). */
static value_t *bi_print(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (fn->u.bi.self == NULL && site) {
		for (i = 0; i < nargs; i++) {
			if (args[i]->k == VK_TENSOR && args[i]->dev == DEV_DEVICE)
				sev(f, SEV_SYNC, "print(<a device tensor>)", site);
			format_hook(f, args[i], 's', site);
		}
		if (f->mode != M_FWD)
			sev(f, SEV_LOG, "print", site);
	}
	return v_none(in->a);
}

static value_t *bi_noop(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;

	return v_none(in->a);
}

/* LBFGS & co: step(closure) re-evaluates the loss, backward included */
static value_t *bi_opt_step(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *closure = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "closure") : NULL;

	if (closure && closure->k == VK_FUNC && f->mode != M_FWD)
		return call_function(f, closure->u.fn, NULL, NULL, 0, NULL, f->mode, f->ev, site);
	return v_none(in->a);
}

/* optimizer.step(...) / optimizer.zero_grad() of a torch optimizer (the
 * builtin's self): the schedule's events at the call (torch.c
 * optim_method, optim_step_collective; framework.c's accumulation), then
 * step's closure.  A read of the method that is not called there makes
 * none (accelerate keeps `self.optimizer.step` to restore it later). */
static value_t *bi_opt_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	int step = fn->u.bi.id == BI_OPT_CALL_STEP;
	const char *name = step ? "step" : "zero_grad";
	struct vinst *m = fn->u.bi.self->u.inst;
	value_t *v = optim_method(f, name, site);

	if (step)
		optim_step_collective(f, m, site);
	framework_optimizer_step(f, m, name, site);
	if (step && v && v->k == VK_BUILTIN)
		return bi_opt_step(f, v, args, nargs, kw, site);
	return v_none(f->in->a);
}

static value_t *bi_opt_state_dict(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	(void)fn, (void)args, (void)nargs, (void)kw;
	return optim_state_dict(f, site);
}

static value_t *bi_opt_load_state(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	return optim_load_state(f, fn->u.bi.self, args, nargs, kw, site);
}

static value_t *bi_isinstance(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (nargs == 2) {
		struct vseq one, *types = &one;
		value_t *tv = args[1];
		int r = 0, unk = 0;

		if (tv->k == VK_TUPLE) {
			types = tv->u.seq;
		} else {
			one.items = &args[1];
			one.n = 1;
		}
		for (i = 0; i < types->n; i++) {
			int t = isinstance_of(in, args[0], types->items[i]);

			if (t > 0)
				r = 1;
			else if (t < 0)
				unk = 1;
		}
		if (r)
			return v_bool(in->a, 1);
		if (!unk)
			return v_bool(in->a, 0);
	}
	return unknown_at(f, site, "isinstance() of something ecg does not know the type of");
}

/* Was v given attributes under names not known (setattr(v, name, x) with
 * name not known: exec's anyname on its attributes, or its class's
 * namespace)?  Then a name v does not list may be set all the same. */
static int attrs_open(const value_t *v)
{
	if (v->k == VK_INST && v->u.inst->attrs && v->u.inst->attrs->anyname)
		return 1;
	return v->k == VK_CLASS && v->u.cls->ns && v->u.cls->ns->anyname;
}

static value_t *bi_getattr(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	if (nargs >= 2 && args[1]->k == VK_STR) {
		value_t *r = getattr_v(f, args[0], args[1]->u.str.s, site);

		/* an attribute held but not known (an undecided `if` set
		 * it: journal.c) is not an absent one */
		if (r->k == VK_UNKNOWN && nargs >= 3 && args[0]->k != VK_UNKNOWN && !attrs_open(args[0]) &&
		    !(args[0]->k == VK_INST && vdict_gets(args[0]->u.inst->attrs, args[1]->u.str.s)))
			return args[2];
		return r;
	}
	return unknown_at(f, site, "getattr() with a name not known");
}

static value_t *bi_setattr(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)kw;
	if (fn->u.bi.self && nargs == 2) {
		/* self.__setattr__(name, value) */
		value_t **a3 = ast_arena_alloc(in->a, 3 * sizeof *a3);

		a3[0] = fn->u.bi.self;
		a3[1] = args[0];
		a3[2] = args[1];
		args = a3;
		nargs = 3;
	}
	if (nargs == 3 && args[1]->k == VK_STR) {
		set_attr(f, args[0], args[1]->u.str.s, args[2]);
	} else if (nargs == 3 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	           args[1]->k == VK_UNKNOWN && !args[1]->alts && args[1]->reason &&
	           !strcmp(args[1]->reason, PARAM_NAME_REASON)) {
		/* setattr(module, name, p) with name one that named_parameters()
		 * yields (mark_all_parameters_as_sharded: each parameter
		 * replaced by a subclass): nn.Module.__setattr__ takes a
		 * parameter's name only as a parameter again (a Parameter, or
		 * None; anything else raises), and no plain attribute or
		 * submodule holds a parameter's name (register_parameter
		 * refuses one).  So only tensors the module holds may change:
		 * those are no longer known; its other attributes stay. */
		struct vdict *d = args[0]->u.inst->attrs;
		size_t k;

		for (k = 0; d && k < d->n; k++)
			if (d->vals[k]->k == VK_TENSOR && d->vals[k]->is_param && d->keys[k]->k == VK_STR) {
				journal_note(in, d, d->keys[k]->u.str.s);
				d->vals[k] = unknown_at(f, site, "a parameter replaced by setattr() under a name not known");
			}
	} else if (nargs == 3 && args[0]->k == VK_INST) {   /* a name not known: any attribute */
		const char *what = afmt(in, "setattr(%s, %s, ...)", args[0]->expr ? args[0]->expr : text_of_arg(f, site, 0),
		                        args[1]->expr ? args[1]->expr : text_of_arg(f, site, 1));

		clobber_dict(in->a, args[0]->u.inst->attrs, afmt(in, "%s with a name not known may set it", what));
		args[0]->u.inst->attrs->anyname = 1;
		/* a submodule registered under a name not known: the module's
		 * children are not all known */
		if (args[0]->u.inst->mod != VM_NONE &&
		    (args[2]->k == VK_UNKNOWN || (args[2]->k == VK_INST && args[2]->u.inst->mod != VM_NONE)))
			vdict_sets(in->a, args[0]->u.inst->attrs, "__ecg_children_unknown__",
			           v_str(in->a, afmt(in, "%s registers submodules under names not known (%s): they are not listed",
			                             what, args[1]->k == VK_UNKNOWN && args[1]->reason ? args[1]->reason
			                                                                           : "a name not known")));
	} else if (nargs == 3 && (args[0]->k == VK_CLASS || args[0]->k == VK_NS)) {
		clobber_dict(in->a, args[0]->k == VK_CLASS ? args[0]->u.cls->ns : args[0]->u.ns->dict,
		             "setattr() with a name not known may set it");
		if (args[0]->k == VK_CLASS)
			args[0]->u.cls->ns->anyname = 1;
	}
	return v_none(in->a);
}

static value_t *bi_import(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	return call_dunder_import(f, args, nargs, kw, site);
}

static value_t *bi_hasattr(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (nargs == 2 && args[1]->k == VK_STR && args[0]->k != VK_EXT && args[0]->k != VK_UNKNOWN) {
		value_t *r = getattr_v(f, args[0], args[1]->u.str.s, site);

		/* a parameter of a module a ZeRO-3 engine partitions carries
		 * DeepSpeed's attributes (ds_id ...: dsengine.c) */
		if (args[0]->k == VK_TENSOR && ds_zero3_param_attr(in, args[0], args[1]->u.str.s))
			return v_bool(in->a, 1);
		/* a value taken for a tensor (torch.load's) may be anything: a
		 * name a Tensor lacks says nothing */
		if (args[0]->k == VK_TENSOR && r->k == VK_UNKNOWN)
			return unknown_at(f, site, "hasattr() of a value known only as a tensor");
		/* an attribute held with a value not known (paths merged by
		 * journal.c) may be absent on one of them: not False */
		if (r->k == VK_UNKNOWN && args[0]->k == VK_INST && vdict_gets(args[0]->u.inst->attrs, args[1]->u.str.s))
			return unknown_at(f, site, afmt(in, "hasattr() of an attribute whose value is not known (%s)",
			                                r->reason ? r->reason : "not known"));
		/* an attribute-style config dict: a key held (its value known
		 * or not) is there; with keys not all known (a yacs layer not
		 * read into a new_allowed node) another may be */
		if (r->k == VK_UNKNOWN && args[0]->k == VK_DICT && vdict_gets(args[0]->u.dict, args[1]->u.str.s))
			return v_bool(in->a, 1);
		if (r->k == VK_UNKNOWN && args[0]->k == VK_DICT && (args[0]->u.dict->anykey || args[0]->u.dict->rep))
			return unknown_at(f, site, "hasattr() of a config whose keys are not all known");
		/* setattr() under a name not known may have set this one */
		if (r->k == VK_UNKNOWN && attrs_open(args[0]))
			return unknown_at(f, site, "hasattr() of an object setattr() gave attributes under names not known");
		return v_bool(in->a, r->k != VK_UNKNOWN);
	}
	return unknown_at(f, site, VERSION_HASATTR_REASON);
}

/* super() inside a method: the next class after the defining one */
static value_t *bi_super(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;

	if (!f->cls || !f->self)
		return unknown_at(f, site, "super() outside a method");
	r = ast_arena_alloc(in->a, sizeof *r);
	r->k = VK_BUILTIN;
	r->u.bi.id = BI_SUPER;
	r->u.bi.self = f->self;
	r->u.bi.after = f->cls;   /* the class to start after */
	return r;
}

static value_t *bi_open(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (f->mode != M_FWD && !in->ev.write &&
	    ((nargs >= 2 && args[1]->k == VK_STR && strpbrk(args[1]->u.str.s, "wax")) ||
	     (kw && vdict_gets(kw, "mode") && vdict_gets(kw, "mode")->k == VK_STR &&
	      strpbrk(vdict_gets(kw, "mode")->u.str.s, "wax"))))
		in->ev.write = anchor_at(f, site);
	if (nargs >= 1 && is_path(args[0]) && path_text(args[0])->k == VK_STR) {
		value_t **a2 = ast_arena_alloc(in->a, nargs * sizeof *a2);   /* open(Path): its text */

		memcpy(a2, args, nargs * sizeof *a2);
		a2[0] = path_text(args[0]);
		args = a2;
	}
	if (nargs >= 1 && args[0]->k == VK_STR) {
		struct vinst *fo = new_inst(in);
		value_t *mode = nargs >= 2 ? args[1] : kw && vdict_gets(kw, "mode") ? vdict_gets(kw, "mode")
		                : v_str(in->a, "r");

		fo->ext = "io.TextIOWrapper";
		vdict_sets(in->a, fo->attrs, "name", args[0]);
		vdict_sets(in->a, fo->attrs, "mode", mode);
		return mk_inst_value(in, fo);
	}
	return unknown_at(f, site, "open() of a path not known");
}

/* eval(s) of a known str that is a dotted name (`eval(f'args.{name}')`):
 * the name looked up as the calling frame reads it (locals, the
 * closure, globals, builtins), then its attributes.  Any other code, or
 * globals/locals given, is not run: unknown. */
static value_t *bi_eval(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *s, *p;
	value_t *v = NULL;

	(void)fn;
	if (nargs != 1 || (kw && kw->n) || args[0]->k != VK_STR)
		return unknown_at(f, site, "eval() of code not known (or with its own namespaces)");
	s = args[0]->u.str.s;
	for (p = s;;) {
		const char *b = p, *name;

		if (!isalpha((unsigned char)*p) && *p != '_')
			return unknown_at(f, site, "eval() of code ecg does not run (only a dotted name is read)");
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p && *p != '.')
			return unknown_at(f, site, "eval() of code ecg does not run (only a dotted name is read)");
		name = afmt(in, "%.*s", (int)(p - b), b);
		if (!v) {
			if (!strcmp(name, "True") || !strcmp(name, "False") || !strcmp(name, "None"))
				v = !strcmp(name, "None") ? v_none(in->a) : v_bool(in->a, name[0] == 'T');
			else if (!(v = lookup(f, name)))
				return unknown_at(f, site, afmt(in, "eval() of '%s': the name is not bound here", s));
		} else {
			v = getattr_v(f, v, name, site);
		}
		if (v->k == VK_UNKNOWN || !*p)
			return v;
		p++;
	}
}

static value_t *bi_exec(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;

	if (nargs >= 1 && args[0]->k == VK_STR && args[0]->u.str.file) {
		struct sfile *sf = args[0]->u.str.file;
		struct frame cf;

		if (!sf->mod)
			return v_none(in->a);
		if (in->depth >= MAX_DEPTH) {
			/* a configurator that exec()s itself */
			note(in, anchor_at(f, site), "exec() nested too deeply",
			     "the exec()'d file runs exec() again; not followed further");
			return v_none(in->a);
		}
		cf = *f;
		cf.carry = NULL;
		cf.file = sf;
		cf.locals = f->locals;
		cf.qualname = NULL;
		cf.scope_def = NULL;
		cf.config_exec = 1;
		in->depth++;
		(void)exec_block(&cf, &sf->mod->body);
		in->depth--;
		return v_none(in->a);
	}
	note(in, anchor_at(f, site), "exec() of code ecg does not read", "only exec(open(<repo file>).read()) is followed");
	{
		/* that code may bind any name of the namespace it runs in
		 * (a configurator's config file outside the repository sets
		 * batch_size): none of its data values is stated after it */
		const char *why = "exec() of code ecg does not read may set it";

		if (nargs >= 2 && args[1]->k == VK_DICT)
			clobber_dict(in->a, args[1]->u.dict, why);
		if (nargs >= 3 && args[2]->k == VK_DICT)
			clobber_dict(in->a, args[2]->u.dict, why);
		if (nargs == 1 && (!kw || !kw->n))
			clobber_dict(in->a, f->locals ? f->locals : f->globals ? f->globals->dict : NULL, why);
	}
	return v_none(in->a);
}

static value_t *bi_decorator(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;

	return nargs ? args[0] : v_none(in->a);
}

/* issubclass(c, t) for one t: a repo class by its MRO (an outside base
 * may be a subclass of anything outside: -1), a builtin class (no repo or
 * outside class is a base of one, bool is an int); 1, 0, or -1. */
static int issubclass_of(struct interp *in, const value_t *c, const value_t *t)
{
	size_t i;

	if (c->k == VK_CLASS && t->k == VK_CLASS) {
		for (i = 0; i < c->u.cls->nmro; i++)
			if (c->u.cls->mro[i] == t->u.cls)
				return 1;
		return class_ext_base(c->u.cls) ? -1 : 0;
	}
	if (c->k == VK_CLASS && t->k == VK_EXT) {
		const char *b = class_ext_base(c->u.cls), *d = canon_ext(in, t->u.ext);

		if (b && !strcmp(canon_ext(in, b), d))
			return 1;
		return b || !strcmp(d, "object") ? -1 : 0;
	}
	if (is_builtin_type(c)) {
		if (is_builtin_type(t))
			return c->u.bi.id == t->u.bi.id || (c->u.bi.id == BI_BOOL && t->u.bi.id == BI_INT);
		if (t->k == VK_CLASS)
			return 0;
		if (t->k == VK_EXT)
			return !strcmp(canon_ext(in, t->u.ext), "object") ? 1 : !strncmp(canon_ext(in, t->u.ext), "enum.", 5) ||
			       !strncmp(canon_ext(in, t->u.ext), "torch.", 6) ? 0 : -1;
	}
	return -1;
}

static value_t *bi_issubclass(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;
	int unk = 0;

	(void)fn, (void)kw;
	if (nargs != 2)
		return unknown_at(f, site, "issubclass() with other than two arguments");
	if (args[1]->k == VK_TUPLE) {
		for (i = 0; i < args[1]->u.seq->n; i++) {
			int t = issubclass_of(in, args[0], args[1]->u.seq->items[i]);

			if (t > 0)
				return v_bool(in->a, 1);
			if (t < 0)
				unk = 1;
		}
		return unk ? unknown_at(f, site, "issubclass() of classes ecg does not know") : v_bool(in->a, 0);
	}
	i = (size_t)(issubclass_of(in, args[0], args[1]) + 1);
	return i ? v_bool(in->a, (int)i - 1) : unknown_at(f, site, "issubclass() of classes ecg does not know");
}

/* Is every class c derives from a repository class or object (no base
 * outside the repository, none not known)?  Then what its instances hold
 * and which special methods they have are all in the classes' bodies. */
static int plain_repo_class(struct interp *in, const struct vclass *c)
{
	size_t i, j;

	if (!c || !c->mro || !c->nmro)
		return 0;
	for (i = 0; i < c->nmro; i++) {
		/* a metaclass (ABCMeta adds _abc_impl) or another class
		 * keyword, a decorator: what the class holds is not all in
		 * its body */
		if (!c->mro[i]->def || c->mro[i]->def->keywords.n)
			return 0;
		/* a class decorator other than dataclass (which adds only
		 * dunders) may add names or replace the class */
		if (c->mro[i]->def->decorator_list.n && !(c->mro[i]->is_dataclass && c->mro[i]->def->decorator_list.n == 1))
			return 0;
		for (j = 0; j < c->mro[i]->nbases; j++) {
			const value_t *b = c->mro[i]->bases[j];

			if (b->k == VK_CLASS)
				continue;
			if (b->k == VK_EXT && !strcmp(canon_ext(in, b->u.ext), "object"))
				continue;
			return 0;
		}
	}
	return 1;
}

/* callable(x) of one value: 1, 0, or -1 not known. */
static int callable_of(struct interp *in, const value_t *v)
{
	switch (v->k) {
	case VK_FUNC: case VK_BOUND: case VK_CLASS: case VK_BUILTIN:
		return 1;
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR:
	case VK_TUPLE: case VK_LIST: case VK_DICT: case VK_RANGE: case VK_SLICE: case VK_NS:
	case VK_TENSOR:
		return 0;
	case VK_INST:
		/* a module (nn.Module.__call__); an object of a repository
		 * class is callable when a class it derives from defines
		 * __call__, and is not when all its bases are known to be
		 * repository classes or object */
		if (v->u.inst->mod != VM_NONE || (v->u.inst->cls && v->u.inst->cls->is_module))
			return 1;
		if (v->u.inst->cls && class_lookup(v->u.inst->cls, "__call__", NULL))
			return 1;
		if (v->u.inst->cls && plain_repo_class(in, v->u.inst->cls))
			return 0;
		return -1;
	case VK_UNKNOWN:
		/* two objects on the two paths of an undecided `if`: alike */
		if (v->alts) {
			int a = callable_of(in, v->alts[0]), b = callable_of(in, v->alts[1]);

			return a == b ? a : -1;
		}
		/* a Python number or str, a str, a path or a numpy array:
		 * never callable */
		if (v->plain || v->nonneg == FACT_DIGITS || v->nonneg == FACT_NONNEG_INT || v->nonneg == FACT_HOST_DATA)
			return 0;
		return -1;
	default:
		return -1;
	}
}

/* callable(x): functions, methods, classes and builtins are; numbers,
 * strings, None, containers and tensors are not; an object by its
 * class (callable_of); anything else is not known. */
static value_t *bi_callable(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int c;

	(void)fn, (void)kw;
	if (nargs != 1)
		return unknown_at(f, site, "callable() with other than one argument");
	c = callable_of(in, args[0]);
	if (c >= 0)
		return v_bool(in->a, c);
	return unknown_at(f, site, "callable() of something ecg does not know the type of");
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names dir() lists for an instance of a plain class (base object)
 * whatever the class: object's attributes and those every class body
 * gets.  The few a newer Python adds (__getstate__ from 3.11;
 * __firstlineno__, __static_attributes__ from 3.13) are not among them:
 * the Python version is not known here.  Only dunders: code that lists
 * methods by dir() skips them. */
static const char *const object_dir_names[] = {
	"__class__", "__delattr__", "__dict__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__",
	"__getattribute__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__",
	"__module__", "__ne__", "__new__", "__reduce__", "__reduce_ex__", "__repr__", "__setattr__",
	"__sizeof__", "__str__", "__subclasshook__", "__weakref__",
};

static int add_name(const char ***names, size_t *n, size_t *cap, const char *s)
{
	size_t i;

	if (!strncmp(s, "__ecg", 5))
		return 0;
	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], s))
			return 0;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*names = xrealloc(*names, *cap * sizeof **names);
	}
	(*names)[(*n)++] = s;
	return 0;
}

/* dir(obj) of an object of a repository class whose bases are all
 * repository classes or object: its attributes and its classes' names,
 * sorted, with object's (object_dir_names).  Not known when an attribute
 * may be absent (set on one path of an undecided `if`), when names not
 * known were written into it (setattr, __dict__.update) or into a class,
 * when a class defines __dir__ or __slots__, and for anything else
 * (modules, objects of other libraries: their names are not all known;
 * an outside module's depend on its version). */
static value_t *bi_dir(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct vinst *o;
	struct vclass *c;
	const char **names = NULL;
	size_t n = 0, cap = 0, i, j;
	value_t *r;

	(void)fn, (void)kw;
	/* of an outside module (`'silu' in dir(torch.nn.functional)`): what
	 * it holds depends on its version */
	if (nargs == 1 && args[0]->k == VK_EXT)
		return unknown_at(f, site, "dir() of something outside the repository (depends on its version)");
	if (nargs != 1 || args[0]->k != VK_INST || !args[0]->u.inst->cls || args[0]->u.inst->mod != VM_NONE)
		return unknown_at(f, site, "dir() of something other than an object of a plain repository class");
	o = args[0]->u.inst;
	c = o->cls;
	if (c->is_module || !plain_repo_class(in, c))
		return unknown_at(f, site, "dir() of an object whose class derives from one outside the repository");
	if (class_lookup(c, "__dir__", NULL) || class_lookup(c, "__slots__", NULL) ||
	    class_lookup(c, "__getattribute__", NULL))
		return unknown_at(f, site, "dir() of an object whose class defines __dir__, __slots__ or __getattribute__");
	if (o->attrs->anyname || o->attrs->anykey || o->attrs->rep)
		return unknown_at(f, site, "dir() of an object written with attribute names not known");
	for (i = 0; i < o->attrs->n; i++) {
		const value_t *k = o->attrs->keys[i], *v = o->attrs->vals[i];

		if (k->k != VK_STR) {
			free(names);
			return unknown_at(f, site, "dir() of an object written with attribute names not known");
		}
		if (v->k == VK_UNKNOWN && v->may_absent) {
			free(names);
			return unknown_at(f, site, afmt(in, "dir(): the attribute %s is set on one path only", k->u.str.s));
		}
		if (!strncmp(k->u.str.s, "__", 2))
			continue;       /* ecg's own marks, and dunders: not listed */
		add_name(&names, &n, &cap, k->u.str.s);
	}
	for (i = 0; i < c->nmro; i++) {
		const struct vdict *ns = c->mro[i]->ns;

		if (ns->anyname || ns->anykey) {
			free(names);
			return unknown_at(f, site, "dir() of an object whose class was written with names not known");
		}
		for (j = 0; j < ns->n; j++)
			if (ns->keys[j]->k == VK_STR)
				add_name(&names, &n, &cap, ns->keys[j]->u.str.s);
	}
	for (i = 0; i < sizeof object_dir_names / sizeof *object_dir_names; i++)
		add_name(&names, &n, &cap, object_dir_names[i]);
	if (n)
		qsort(names, n, sizeof *names, cmp_strp);
	r = v_seq(in->a, VK_LIST, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, r->u.seq, v_str(in->a, names[i]));
	free(names);
	return r;
}

static value_t *bi_type(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	/* type(x): int, str, ... or x's repo class */
	if (nargs == 1) {
		static const struct { enum vkind k; int id; } tys[] = {
			{ VK_INT, BI_INT }, { VK_FLOAT, BI_FLOAT }, { VK_STR, BI_STR }, { VK_BOOL, BI_BOOL },
			{ VK_LIST, BI_LIST }, { VK_TUPLE, BI_TUPLE }, { VK_DICT, BI_DICT },
		};

		if (dictsub_class(args[0])) {
			value_t *r = ast_arena_alloc(in->a, sizeof *r);

			r->k = VK_CLASS;
			r->u.cls = dictsub_class(args[0]);
			return r;
		}
		for (i = 0; i < sizeof tys / sizeof tys[0]; i++)
			if (args[0]->k == tys[i].k)
				return mk_builtin(in, tys[i].id, NULL);
		if (args[0]->k == VK_NONE)
			return v_ext(in->a, "types.NoneType");
		if (args[0]->k == VK_EXT && !strcmp(canon_ext(in, args[0]->u.ext), "dataclasses.MISSING"))
			return v_ext(in->a, "dataclasses._MISSING_TYPE");
		if (args[0]->k == VK_INST && args[0]->u.inst->cls) {
			value_t *r = ast_arena_alloc(in->a, sizeof *r);

			r->k = VK_CLASS;
			r->u.cls = args[0]->u.inst->cls;
			return r;
		}
		/* type(t) of a tensor torch made (a factory's, an op's, a
		 * copy's): torch.Tensor itself -- not of a Parameter, nor of
		 * a loader's batch that may be a list or a dict */
		if (args[0]->k == VK_TENSOR && !args[0]->is_param && !args[0]->loose)
			return v_ext(in->a, "torch.Tensor");
	}
	return unknown_at(f, site, "type() of a value ecg does not know");
}

static value_t *bi_vars(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;

	/* vars(obj): the object's namespace, shared */
	if (nargs == 1 && args[0]->k == VK_NS) {
		/* vars(module): its namespace, read by name (a spec's class) */
		value_t *r = v_dict(in->a);

		r->u.dict = args[0]->u.ns->dict;
		return r;
	}
	if (nargs == 1 && args[0]->k == VK_INST) {
		value_t *r = v_dict(in->a);

		r->u.dict = args[0]->u.inst->attrs;
		return r;
	}
	if (nargs == 0) {
		value_t *r = v_dict(in->a);

		r->u.dict = f->locals ? f->locals : f->globals->dict;
		return r;
	}
	return unknown_at(f, site, "vars() of an object ecg does not hold");
}

/* locals(): in a function, a snapshot of its names as a new dict (what
 * CPython 3.11 returns: later bindings do not show through); at module
 * level the namespace itself, as globals() */
static value_t *bi_locals(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r = v_dict(in->a);
	size_t i;

	(void)fn, (void)args, (void)kw;
	if (nargs)
		return unknown_at(f, site, "locals() takes no arguments");
	if (!f->locals) {
		r->u.dict = f->globals->dict;
		return r;
	}
	charge(f, f->locals->n, 0);
	for (i = 0; i < f->locals->n; i++)
		vdict_set(in->a, r->u.dict, f->locals->keys[i], f->locals->vals[i]);
	return r;
}

static value_t *bi_globals(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r = ast_arena_alloc(in->a, sizeof *r);

	r->k = VK_DICT;
	r->u.dict = f->globals->dict;   /* the namespace itself: writes go through */
	return r;
}

/* Python's builtins by name: what interp_new() puts in the builtins
 * namespace. */
static const struct native builtin_natives[] = {
	{ "__import__", bi_import, BI_IMPORT },
	{ "abs", bi_abs, BI_ABS },
	{ "all", bi_any_all, BI_ALL },
	{ "any", bi_any_all, BI_ANY },
	{ "bool", bi_bool, BI_BOOL },
	{ "callable", bi_callable, BI_CALLABLE },
	{ "classmethod", bi_decorator, BI_CLASSMETHOD },
	{ "dict", bi_dict, BI_DICT },
	{ "dir", bi_dir, BI_DIR },
	{ "divmod", bi_divmod, BI_DIVMOD },
	{ "enumerate", bi_enumerate, BI_ENUMERATE },
	{ "eval", bi_eval, BI_EVAL },
	{ "exec", bi_exec, BI_EXEC },
	{ "filter", bi_filter, BI_FILTER },
	{ "float", bi_float, BI_FLOAT },
	{ "frozenset", bi_seq, BI_SET },
	{ "getattr", bi_getattr, BI_GETATTR },
	{ "globals", bi_globals, BI_GLOBALS },
	{ "hasattr", bi_hasattr, BI_HASATTR },
	{ "int", bi_int, BI_INT },
	{ "isinstance", bi_isinstance, BI_ISINSTANCE },
	{ "issubclass", bi_issubclass, BI_ISSUBCLASS },
	{ "iter", bi_iter, BI_ITER },
	{ "len", bi_len, BI_LEN },
	{ "list", bi_seq, BI_LIST },
	{ "locals", bi_locals, BI_LOCALS },
	{ "map", bi_map, BI_MAP },
	{ "max", bi_max, BI_MAX },
	{ "min", bi_min, BI_MIN },
	{ "next", bi_next, BI_NEXT },
	{ "open", bi_open, BI_OPEN },
	{ "print", bi_print, BI_PRINT },
	{ "property", bi_decorator, BI_PROPERTY },
	{ "range", bi_range, BI_RANGE },
	{ "reversed", bi_sorted, BI_REVERSED },
	{ "round", bi_round, BI_ROUND },
	{ "set", bi_seq, BI_SET },
	{ "setattr", bi_setattr, BI_SETATTR },
	{ "slice", bi_slice, BI_SLICE },
	{ "sorted", bi_sorted, BI_SORTED },
	{ "staticmethod", bi_decorator, BI_STATICMETHOD },
	{ "str", bi_str, BI_STR },
	{ "sum", bi_sum, BI_SUM },
	{ "super", bi_super, BI_SUPER },
	{ "tuple", bi_seq, BI_TUPLE },
	{ "type", bi_type, BI_TYPE },
	{ "vars", bi_vars, BI_VARS },
	{ "zip", bi_zip, BI_ZIP },
};

const struct ntab builtin_natives_ntab = NTAB(builtin_natives);

/* Natives that are no name of the builtins namespace: what getattr_v()
 * and torch.c bind (an external base's __init__, zero_grad: a no-op;
 * autograd.Function.apply, module.c's; optimizer.step). */
static const struct native hidden_natives[] = {
	{ "<base_init>", call_module_method, BI_M_MOD_BASE_INIT },
	{ "<dictsub_init>", dictsub_base_init, BI_DICTSUB_INIT },
	{ "<noop>", bi_noop, BI_NOOP },
	{ "DataLoader.__iter__", bi_loader_iter, BI_LOADER_ITER },
	{ "DataLoaderIter.__next__", bi_loader_next, BI_LOADER_NEXT },
	{ "Function.apply", call_module_method, BI_FN_APPLY },
	{ "Module.generate", call_module_method, BI_M_MOD_GENERATE },
	{ "Optimizer.load_state_dict", bi_opt_load_state, BI_OPT_LOAD_STATE },
	{ "Optimizer.state_dict", bi_opt_state_dict, BI_OPT_STATE_DICT },
	{ "Optimizer.step", bi_opt_step, BI_OPT_STEP },
	{ "Optimizer.step()", bi_opt_call, BI_OPT_CALL_STEP },
	{ "Optimizer.zero_grad()", bi_opt_call, BI_OPT_CALL_ZERO },
	{ "RemovableHandle.remove", call_module_method, BI_M_HOOK_REMOVE },
	{ "add_parser", argp_m_add_parser, BI_M_ARGP_ADDPARSER },
};

const struct ntab hidden_natives_ntab = NTAB(hidden_natives);

void builtins_register(struct interp *in)
{
	size_t i;

	for (i = 0; i < NTAB_LEN(builtin_natives); i++)
		vdict_sets(in->a, in->builtins, builtin_natives[i].name, mk_builtin(in, builtin_natives[i].id, NULL));
}

value_t *call_builtin(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site)
{
	int id = fn->u.bi.id;
	native_fn *run = id > BI_NONE && id < BI_COUNT ? f->in->bi_fn[id] : NULL;

	if (run)
		return run(f, fn, args, nargs, kw, site);
	return unknown_at(f, site, "a builtin ecg does not follow");
}
