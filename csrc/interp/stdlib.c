/* interp/stdlib.c - the standard library functions the analysis reads exactly
 *
 * copy.deepcopy (deepcopy_value), itertools.chain/repeat/islice of known
 * sequences, math.* on known numbers (math_call; a
 * device tensor given to one is read to the host, a sync),
 * ast.literal_eval, and configuration files (json, tomllib, yaml) read
 * through the job's loader into values (load_config, from_json).  What
 * cannot be read exactly is an unknown with its reason.
 */
#include "config.h"

#include <limits.h>

#include <ctype.h>

#include "internal.h"
#include "ecg/catalog.h"
#include "ecg/site.h"

/* ------------------------------------------------------------------ calls */

static struct vinst *deepcopy_inst(struct interp *in, struct vinst *m, int depth)
{
	struct vinst *c = new_inst(in);
	size_t i;

	*c = *m;
	c->attrs = vdict_new(in->a);
	for (i = 0; m->attrs && i < m->attrs->n; i++)
		vdict_set(in->a, c->attrs, m->attrs->keys[i], m->attrs->vals[i]);
	c->children = NULL;
	c->nchildren = c->achildren = 0;
	for (i = 0; i < m->nchildren; i++)
		vinst_add_child(in->a, c, m->children[i].name,
		                depth < 64 ? deepcopy_inst(in, m->children[i].inst, depth + 1) : m->children[i].inst);
	c->entry = NULL;
	c->id = NULL;
	c->seen = 0;
	return c;
}

value_t *deepcopy_value(struct interp *in, value_t *v, int depth)
{
	value_t *r;
	size_t i;

	if (v->k == VK_INST && v->u.inst->mod != VM_NONE)
		return mk_inst_value(in, deepcopy_inst(in, v->u.inst, depth));
	if (depth > 64)
		return v;
	/* dicts and lists are copied: the copy is written to, not the original
	 * (configs built from a template row: copy = deepcopy(c); copy[k] = ...) */
	if (v->k == VK_DICT) {
		r = v_copy(in->a, v);
		r->u.dict = vdict_new(in->a);
		r->u.dict->cfgnode = v->u.dict->cfgnode;   /* a yacs CfgNode's copy is one */
		r->u.dict->dictconfig = v->u.dict->dictconfig;   /* so is a DictConfig's */
		r->u.dict->cfgpath = v->u.dict->cfgpath;
		if (v->u.dict->cfgnode) {   /* copy.deepcopy keeps a node's class */
			r->u.dict->cfgbase = v->u.dict->cfgbase;
			r->u.dict->cls = v->u.dict->cls;
		}
		for (i = 0; i < v->u.dict->n; i++)
			vdict_set(in->a, r->u.dict, v->u.dict->keys[i], deepcopy_value(in, v->u.dict->vals[i], depth + 1));
		return r;
	}
	if (v->k == VK_LIST || v->k == VK_TUPLE) {
		r = seq_from(in, v->k, v->u.seq);
		r->u.seq->unk_expr = v->u.seq->unk_expr;
		r->u.seq->unk_reason = v->u.seq->unk_reason;
		r->u.seq->len_expr = v->u.seq->len_expr;
		r->u.seq->len_src = v->u.seq->len_src;
		r->u.seq->len_via = v->u.seq->len_via;
		for (i = 0; i < r->u.seq->n; i++)
			r->u.seq->items[i] = deepcopy_value(in, r->u.seq->items[i], depth + 1);
		return r;
	}
	return v;
}

/* math.<name>(x, ...) on a known number x: one function each, in
 * math_natives[] by name; NULL when the arguments do not fit. */
typedef value_t *math_fn(struct interp *in, double x, value_t **args, size_t nargs);

static value_t *math_sqrt(struct interp *in, double x, value_t **args, size_t nargs)
{
	(void)args, (void)nargs;
	return x >= 0 ? v_float(in->a, sqrt(x)) : NULL;
}

static value_t *math_log(struct interp *in, double x, value_t **args, size_t nargs)
{
	double y;

	if (!(x > 0))
		return NULL;
	return nargs >= 2 && as_num(args[1], &y) && y > 0 && y != 1 ? v_float(in->a, log(x) / log(y))
	                                                             : v_float(in->a, log(x));
}

static value_t *math_log2(struct interp *in, double x, value_t **args, size_t nargs)
{
	(void)args, (void)nargs;
	return x > 0 ? v_float(in->a, log2(x)) : NULL;
}

static value_t *math_exp(struct interp *in, double x, value_t **args, size_t nargs)
{
	(void)args, (void)nargs;
	return v_float(in->a, exp(x));
}

static value_t *math_ceil(struct interp *in, double x, value_t **args, size_t nargs)
{
	(void)args, (void)nargs;
	return fabs(x) < 9e15 ? v_int(in->a, (long long)ceil(x)) : NULL;
}

static value_t *math_floor(struct interp *in, double x, value_t **args, size_t nargs)
{
	(void)args, (void)nargs;
	return fabs(x) < 9e15 ? v_int(in->a, (long long)floor(x)) : NULL;
}

static value_t *math_pow(struct interp *in, double x, value_t **args, size_t nargs)
{
	double y;

	return nargs >= 2 && as_num(args[1], &y) ? v_float(in->a, pow(x, y)) : NULL;
}

static const struct math_native {
	const char *name;
	math_fn *fn;
} math_natives[] = {
	{ "ceil", math_ceil },
	{ "exp", math_exp },
	{ "floor", math_floor },
	{ "log", math_log },
	{ "log2", math_log2 },
	{ "pow", math_pow },
	{ "sqrt", math_sqrt },
};

const struct ntab math_ntab = NTAB(math_natives);

value_t *math_call(struct frame *f, const char *name, value_t **args, size_t nargs,
                   const struct ast_hdr *site)
{
	const struct math_native *m = NTAB_FIND(math_natives, name);
	value_t *r;
	double x;
	size_t i;

	/* math's functions take real numbers: a tensor is converted with
	 * float() (its __float__), a read of a device tensor to the host --
	 * math.exp(eval_loss) of a CUDA mean is a sync, as float() is */
	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_TENSOR && args[i]->dev == DEV_DEVICE) {
			sev(f, SEV_SYNC, afmt(f->in, "math.%s(<a device tensor>) (float() of it)", name), site);
			break;
		}
	if (m && nargs >= 1 && as_num(args[0], &x) && (r = m->fn(f->in, x, args, nargs)))
		return r;
	return unknown_at(f, site, "a math function of a value that is not known");
}

/* numpy.<name>(x) of one known Python number x (int, float, bool; never
 * a list, an array or a tensor): numpy's elementwise functions give a
 * numpy float64 scalar, which is a Python float -- np.floor(0 * 3) is 0.0,
 * so `if blur_size > 0` is decided.  The names and the libm functions are
 * the table below; NULL when the call is not one of them (a domain numpy
 * answers with nan and a warning is left not known). */
static const struct numpy_scalar_native {
	const char *name;
	double (*fn)(double);
	int domain;                   /* 0 any x, 1 x >= 0, 2 x > 0 */
} numpy_scalar_natives[] = {
	{ "ceil", ceil, 0 },
	{ "exp", exp, 0 },
	{ "exp2", exp2, 0 },
	{ "floor", floor, 0 },
	{ "log", log, 2 },
	{ "log10", log10, 2 },
	{ "log2", log2, 2 },
	{ "rint", rint, 0 },
	{ "sqrt", sqrt, 1 },
	{ "trunc", trunc, 0 },
};

const struct ntab numpy_scalar_ntab = NTAB(numpy_scalar_natives);

static value_t *numpy_scalar_call(struct frame *f, const char *name, value_t **args, size_t nargs,
                                  struct vdict *kw)
{
	const struct numpy_scalar_native *m = NTAB_FIND(numpy_scalar_natives, name);
	double x, y;

	if (!m || nargs != 1 || (kw && kw->n) ||
	    (args[0]->k != VK_INT && args[0]->k != VK_FLOAT && args[0]->k != VK_BOOL) || !as_num(args[0], &x))
		return NULL;
	if ((m->domain == 1 && !(x >= 0)) || (m->domain == 2 && !(x > 0)))
		return NULL;
	y = m->fn(x);
	return isfinite(y) ? v_float(f->in->a, y) : NULL;
}

/* Whether text is an expression of names (gpt2, gpt-micro, a.b, 3.5-mini):
 * operands (dotted names, numbers) joined by + - * / %, with at least one
 * name and no keyword -- Python parses it, and literal_eval refuses it with
 * ValueError.  0 when not sure (a SyntaxError, or something else). */
static int names_expr(const char *s)
{
	static const char *const kw[] = { "False", "None", "True", "and", "as", "assert", "async", "await",
	                                  "break", "class", "continue", "def", "del", "elif", "else", "except",
	                                  "finally", "for", "from", "global", "if", "import", "in", "is",
	                                  "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	                                  "while", "with", "yield", NULL };
	int names = 0;

	while (*s) {
		if (isalpha((unsigned char)*s) || *s == '_') {
			do {
				const char *b = s;
				size_t k;

				while (isalnum((unsigned char)*s) || *s == '_')
					s++;
				for (k = 0; kw[k]; k++)
					if (strlen(kw[k]) == (size_t)(s - b) && !strncmp(b, kw[k], (size_t)(s - b)))
						return 0;
			} while (*s == '.' && (isalpha((unsigned char)s[1]) || s[1] == '_') && s++);
			names++;
		} else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
			char *end;

			(void)strtod(s, &end);
			s = end;
			if (isalnum((unsigned char)*s) || *s == '_' || *s == '.')
				return 0;
		} else {
			return 0;
		}
		if (!*s)
			break;
		if (!strchr("+-*/%", *s) || !s[1])
			return 0;
		s++;
	}
	return names > 0;
}

value_t *literal_eval(struct frame *f, const char *text, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	char *end;
	long long i;
	double d;
	size_t n = strlen(text);

	if (!strcmp(text, "True") || !strcmp(text, "False"))
		return v_bool(in->a, text[0] == 'T');
	if (!strcmp(text, "None"))
		return v_none(in->a);
	i = strtoll(text, &end, 10);
	if (*text && !*end)
		return v_int(in->a, i);
	d = strtod(text, &end);
	if (*text && !*end)
		return v_float(in->a, d);
	if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
		return v_strn(in->a, text + 1, n - 2);
	/* names (gpt2, cpu, gpt-micro, a.b) are no literal: Python raises ValueError */
	if (names_expr(text)) {
		in->exc_pending = "ValueError";
		return unknown_at(f, site, "literal_eval() of a name raises ValueError");
	}
	return unknown_at(f, site, "literal_eval() of text ecg does not evaluate");
}

static value_t *from_json(struct interp *in, const cJSON *j, const char *src, int depth)
{
	value_t *v;
	const cJSON *c;

	if (depth > 64)
		return v_unknown(in->a, NULL, "nested too deeply");
	if (cJSON_IsObject(j)) {
		v = v_dict(in->a);
		for (c = j->child; c; c = c->next) {
			value_t *x = from_json(in, c, src, depth + 1);

			if (c->string && value_is_known_scalar(x))
				x = overridden(in, c->string, x);
			vdict_sets(in->a, v->u.dict, c->string ? c->string : "", x);
		}
		return v;
	}
	if (cJSON_IsArray(j)) {
		v = v_seq(in->a, VK_LIST, 0);
		for (c = j->child; c; c = c->next)
			vseq_push(in->a, v->u.seq, from_json(in, c, src, depth + 1));
		return v;
	}
	if (cJSON_IsString(j))
		v = v_str(in->a, j->valuestring ? j->valuestring : "");
	else if (cJSON_IsBool(j))
		v = v_bool(in->a, cJSON_IsTrue(j));
	else if (cJSON_IsNumber(j))
		v = j->valuedouble == (double)(long long)j->valuedouble && fabs(j->valuedouble) < 9e15
		    ? v_int(in->a, (long long)j->valuedouble) : v_float(in->a, j->valuedouble);
	else
		v = v_none(in->a);
	v->src = src;
	v->via = VIA_CONFIG_FILE;
	return v;
}

value_t *json_value(struct interp *in, const cJSON *j, const char *src)
{
	return from_json(in, j, astr(in, src), 0);
}

/* json.load(open(p)), yaml.safe_load(...), tomllib.load(...): the job's
 * configuration files, read from the repository by the loader. */
value_t *load_config(struct frame *f, const char *how, value_t *arg, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *path = NULL, *why = NULL;
	cJSON *j;
	value_t *v;

	if (arg && arg->k == VK_STR && (!strcmp(how, "json.loads") || !strcmp(how, "tomllib.loads"))) {
		if (!strcmp(how, "json.loads") && (j = cJSON_Parse(arg->u.str.s))) {
			v = from_json(in, j, anchor_at(f, site), 0);
			cJSON_Delete(j);
			return v;
		}
		return unknown_at(f, site, "a configuration string ecg does not parse");
	}
	if (arg)
		arg = path_text(arg);        /* a pathlib.Path: its text */
	if (arg && arg->k == VK_STR)
		path = arg->u.str.s;
	else if (arg && arg->k == VK_INST && arg->u.inst->ext && !strcmp(arg->u.inst->ext, "io.TextIOWrapper")) {
		value_t *nm = vdict_gets(arg->u.inst->attrs, "name");

		path = nm && nm->k == VK_STR ? nm->u.str.s : NULL;
	}
	if (!path)
		return unknown_at(f, site, "a configuration file whose path is not known");
	if (!in->load)
		return unknown_at(f, site, "configuration files are not read in this mode");
	/* json.load reads JSON whatever the file's name says (DeepSpeed's
	 * ds_config.conf): a name not ending in .json is read as text and
	 * parsed as JSON here, not by the format its suffix names */
	if (!strcmp(how, "json.load") && (strlen(path) < 5 || strcmp(path + strlen(path) - 5, ".json")) && in->load_text) {
		size_t len = 0;
		char *text = in->load_text(in->load_text_ctx, path, in->prog->entry_dir, &len, &why);

		j = text ? cJSON_ParseWithLength(text, len) : NULL;
		if (text && !j)
			why = "the file is not valid JSON";
		free(text);
	} else {
		j = in->load(in->load_ctx, path, in->prog->entry_dir, &why);
	}
	if (!j) {
		note(in, anchor_at(f, site), afmt(in, "configuration file '%s'", path), why ? why : "not read");
		return unknown_at(f, site, why ? why : "a configuration file ecg could not read");
	}
	while (path[0] == '.' && path[1] == '/')
		path += 2;            /* "./ckpt/config.json": the records' source is a plain relative path */
	v = from_json(in, j, astr(in, path), 0);
	cJSON_Delete(j);
	return v;
}

/* A module attribute the analysis answers itself (mod is an external's
 * dotted name): sys.argv (the entry script, then the job's arguments) and
 * os.environ (an object whose get/setdefault are dict.get's; the mapping
 * itself when interp_set_env() made it known, or partly known).  NULL for
 * any other: the caller makes it a longer dotted name. */
value_t *stdlib_attr(struct interp *in, const char *mod, const char *name)
{
	if (!strcmp(mod, "sys") && !strcmp(name, "argv")) {
		value_t *r = v_seq(in->a, VK_LIST, 0);
		size_t i;

		in->argv_read = 1;
		vseq_push(in->a, r->u.seq, v_str(in->a, in->entry_path ? in->entry_path : "main.py"));
		if (in->argv) {
			for (i = 0; i < in->argv->u.seq->n; i++)
				vseq_push(in->a, r->u.seq, in->argv->u.seq->items[i]);
		}
		return r;
	}
	if (!strcmp(mod, "os") && !strcmp(name, "environ")) {
		struct vinst *env;

		if (in->environ)
			return in->environ;
		env = new_inst(in);

		env->ext = "os.environ";
		return mk_inst_value(in, env);
	}
	/* absl.flags.FLAGS: one object the DEFINE_* calls fill */
	{
		value_t *v = absl_flags_attr(in, mod, name);

		if (v)
			return v;
	}
	/* False when the code runs; True only for a type checker, which
	 * is not the job (a library's lazy __init__ takes its else) */
	if (!strcmp(mod, "typing") && !strcmp(name, "TYPE_CHECKING"))
		return v_bool(in->a, 0);
	{
		/* torch.inf, math.pi: a float the catalog gives */
		const char *c = catalog_fact(in->cat, CATALOG_F_FLOAT_CONSTANTS, canon_ext(in, adot(in, mod, name)));

		if (c && *c)
			return v_float(in->a, strtod(c, NULL));
	}
	return NULL;
}

/* ------------------------------------------------------------------ dotted-name calls
 *
 * A call of the standard library read exactly (d: the external's canonical
 * dotted name): one function each (or per small family), in
 * stdlib_natives[] by name.  Each returns NULL when its arguments do not
 * fit: call_ext() goes on with its other rules. */
typedef value_t *stdlib_fn(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);

/* Configuration objects that are dicts read by attribute
 * (ml_collections.ConfigDict, EasyDict, SimpleNamespace ...; OmegaConf's:
 * omegaconf.c): a dict value (attr.c reads cfg.x as cfg["x"], set_attr writes it).
 * threading.local() too: its attributes are one thread's, and ecg reads
 * the job's main thread, the one that builds and steps the model. */
static value_t *sl_attr_dict(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r = v_dict(in->a);
	size_t i;

	if (nargs == 1 && args[0]->k == VK_UNKNOWN)
		return args[0];
	if (nargs > 1 || (nargs == 1 && args[0]->k != VK_DICT && args[0]->k != VK_NONE) || kw_unk(kw, 1))
		return unknown_at(f, site, afmt(in, "a %s made from values not known", d));
	for (i = 0; nargs == 1 && args[0]->k == VK_DICT && i < args[0]->u.dict->n; i++)
		vdict_set(in->a, r->u.dict, args[0]->u.dict->keys[i],
		          deepcopy_value(in, args[0]->u.dict->vals[i], 1));
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
	return r;
}

/* random.choice(seq) of an object of a repository class with its own
 * __getitem__ (a Dataset): seq[i] for an index not known -- that method
 * read here (a sample moved to the device in it is moved here).  NULL for
 * anything else (call_ext goes on: not known). */
static value_t *sl_random_choice(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                                 const struct ast_hdr *site)
{
	struct vfunc *gi;
	value_t *idx;

	(void)d, (void)kw;
	if (nargs != 1 || !(gi = repo_method(f->in, args[0], "__getitem__", -1)))
		return NULL;
	idx = v_unknown(f->in->a, "index", "an index random.choice draws");
	return call_function(f, gi, args[0], &idx, 1, NULL, f->mode, f->ev, site);
}

/* os.getenv(k, default) when the job's variables are unset */
static value_t *sl_getenv(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v;

	(void)d, (void)site;
	if (!in->environ || nargs < 1 || args[0]->k != VK_STR)
		return NULL;
	v = vdict_get(in->environ->u.dict, args[0]);
	if (!v && !env_complete(in))
		return NULL;          /* not one the launcher sets: may be set */
	return v ? v : nargs >= 2 ? args[1] : kw && vdict_gets(kw, "default") ? vdict_gets(kw, "default")
	                                                                   : v_none(in->a);
}

/* enum.auto(): a value the enum class gives its member when the class is
 * made (object.c enum_members: the next integer, or the lower-cased name
 * of a StrEnum); until then a value not known of reason ENUM_AUTO_REASON */
static value_t *sl_enum_auto(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	(void)d, (void)args, (void)kw;
	if (nargs)
		return NULL;
	return unknown_at(f, site, ENUM_AUTO_REASON);
}

/* itertools.repeat(x, n) with n known: n times x */
static value_t *sl_repeat(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;
	long long k;

	(void)d, (void)kw, (void)site;
	if (nargs != 2 || args[1]->k != VK_INT || args[1]->u.i < 0 || args[1]->u.i > MAX_UNROLL)
		return NULL;
	r = v_seq(in->a, VK_TUPLE, (size_t)args[1]->u.i);
	for (k = 0; k < args[1]->u.i; k++)
		vseq_push(in->a, r->u.seq, args[0]);
	return r;
}

/* itertools.islice(it, stop) / islice(it, start, stop[, step]): of a
 * list or tuple known whole, with int (or None) bounds, the slice itself;
 * of an object iterated by its own protocol (a DataLoader, a generator, a
 * repository iterable), that object: a `for` over it reads its items (a
 * loader's batches) as a `for` over it would, how many of them the
 * loop's own (precise BN's `for x, _ in islice(loader, num_iter)`).
 * NULL (the generic unknown) otherwise. */
static value_t *sl_islice(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	long long b[3] = { 0, 0, 1 }, n, k;
	size_t i;
	value_t *r;

	(void)d, (void)site;
	if (nargs < 2 || nargs > 4 || (kw && kw->n))
		return NULL;
	if (args[0]->k == VK_INST)
		return args[0];
	if ((args[0]->k != VK_LIST && args[0]->k != VK_TUPLE) || args[0]->u.seq->unk_reason)
		return NULL;
	n = (long long)args[0]->u.seq->n;
	b[1] = n;
	for (i = 1; i < nargs; i++) {
		size_t at = nargs == 2 ? 1 : i - 1;   /* islice(it, stop): the one bound is the stop */

		if (args[i]->k == VK_NONE)
			continue;
		if (args[i]->k != VK_INT || args[i]->u.i < 0 || (at == 2 && args[i]->u.i < 1))
			return NULL;   /* islice refuses negatives (ValueError) */
		b[at] = args[i]->u.i;
	}
	if (b[1] > n)
		b[1] = n;
	r = v_seq(in->a, VK_LIST, 0);
	for (k = b[0]; k < b[1]; k += b[2])
		vseq_push(in->a, r->u.seq, args[0]->u.seq->items[k]);
	return r;
}

/* itertools.chain(a, b, ...): the items of each argument in turn.  An
 * argument whose length is not known (one representative item) makes the
 * chain's length not known; an argument that is no sequence known here
 * gives one item not known.  NULL (the generic unknown) when none is a
 * known sequence. */
static value_t *sl_chain(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;
	size_t i, k, known = 0;

	(void)d;
	if (kw && kw->n)
		return NULL;
	for (i = 0; i < nargs; i++)
		if (args[i]->k == VK_LIST || args[i]->k == VK_TUPLE)
			known++;
	if (!known)
		return NULL;
	r = v_seq(in->a, VK_LIST, nargs);
	for (i = 0; i < nargs; i++) {
		if (args[i]->k == VK_LIST || args[i]->k == VK_TUPLE) {
			const struct vseq *s = args[i]->u.seq;

			for (k = 0; k < s->n; k++)
				vseq_push(in->a, r->u.seq, s->items[k]);
			if (s->unk_reason && !r->u.seq->unk_reason) {
				r->u.seq->unk_expr = s->unk_expr;
				r->u.seq->unk_reason = s->unk_reason;
			}
			continue;
		}
		vseq_push(in->a, r->u.seq, unknown_at(f, site, "an item of an iterable not known, chained"));
		if (!r->u.seq->unk_reason) {
			r->u.seq->unk_expr = site ? text_of(f, site) : NULL;
			r->u.seq->unk_reason = "chains an iterable whose length is not known";
		}
	}
	return r;
}

/* typing.cast(T, v): v itself (it does nothing at run time); NULL when
 * not called so (the generic unknown) */
static value_t *sl_cast(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	(void)f, (void)d, (void)site;
	if (nargs != 2 || (kw && kw->n))
		return NULL;
	return args[1];
}

static value_t *sl_partial(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *p;
	value_t *pa, *pk;
	size_t i;

	(void)d, (void)site;
	if (nargs < 1)
		return NULL;
	p = new_inst(in);
	pa = v_seq(in->a, VK_LIST, 0);
	pk = v_dict(in->a);
	p->ext = "functools.partial";
	for (i = 1; i < nargs; i++)
		vseq_push(in->a, pa->u.seq, args[i]);
	if (kw)
		for (i = 0; i < kw->n; i++)
			vdict_set(in->a, pk->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, p->attrs, "func", args[0]);
	vdict_sets(in->a, p->attrs, "args", pa);
	vdict_sets(in->a, p->attrs, "keywords", pk);
	return mk_inst_value(in, p);
}

/* threading.Thread(target=f, args=(...), kwargs={...}): an object whose
 * start() (and run()) calls f(*args, **kwargs) -- a functools.partial of
 * them (call.c calls it), read where start() is called, in the job's
 * flow: what the thread does (a batch plotted with images.cpu()) is the
 * job's work then.  A thread never started runs nothing.  No target, or
 * arguments not known: NULL (the generic unknown). */
static value_t *sl_thread(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *target = kw ? vdict_gets(kw, "target") : NULL;
	value_t *targs = kw ? vdict_gets(kw, "args") : NULL;
	value_t *tkw = kw ? vdict_gets(kw, "kwargs") : NULL;
	value_t *run;
	struct vinst *t;
	size_t i, n;

	(void)d;
	/* Thread(group=None, target=None, name=None, args=(), kwargs=None) */
	if (!target && nargs >= 2)
		target = args[1];
	if (!targs && nargs >= 4)
		targs = args[3];
	if (!tkw && nargs >= 5)
		tkw = args[4];
	if (!target || target->k == VK_NONE || target->k == VK_UNKNOWN ||
	    (targs && targs->k != VK_TUPLE && targs->k != VK_LIST) || (targs && targs->u.seq->unk_reason) ||
	    (tkw && tkw->k != VK_DICT && tkw->k != VK_NONE))
		return NULL;
	n = targs ? targs->u.seq->n : 0;
	{
		value_t **pargs = ast_arena_alloc(in->a, (n + 1) * sizeof *pargs);

		pargs[0] = target;
		for (i = 0; i < n; i++)
			pargs[i + 1] = targs->u.seq->items[i];
		run = sl_partial(f, "functools.partial", pargs, n + 1, tkw && tkw->k == VK_DICT ? tkw->u.dict : NULL,
		                 site);
	}
	if (!run)
		return NULL;
	t = new_inst(in);
	t->ext = "threading.Thread";
	vdict_sets(in->a, t->attrs, "start", run);
	vdict_sets(in->a, t->attrs, "run", run);
	return mk_inst_value(in, t);
}

/* functools.wraps(w): a decorator (exec_funcdef applies it) that gives
 * the function it decorates w's names. */
static value_t *sl_wraps(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *p;

	(void)d, (void)kw, (void)site;
	if (nargs < 1)
		return NULL;
	p = new_inst(in);
	p->ext = "functools.wraps";
	vdict_sets(in->a, p->attrs, "wrapped", args[0]);
	return mk_inst_value(in, p);
}

static value_t *sl_literal_eval(struct frame *f, const char *d, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	(void)d, (void)kw;
	return nargs == 1 && args[0]->k == VK_STR ? literal_eval(f, args[0]->u.str.s, site) : NULL;
}

/* os.path.dirname, os.path.basename */
static value_t *sl_path_split(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;

	(void)kw;
	if (nargs == 1 && args[0]->k == VK_STR) {
		const char *p = args[0]->u.str.s, *sl = strrchr(p, '/');

		if (!strcmp(d, "os.path.dirname"))
			return sl ? v_strn(in->a, p, (size_t)(sl - p)) : v_str(in->a, "");
		return v_str(in->a, sl ? sl + 1 : p);
	}
	return unknown_at(f, site, "a path not known");
}

/* os.path.abspath, realpath, expanduser, normpath: the path as it is */
static value_t *sl_path_same(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	(void)f, (void)d, (void)kw, (void)site;
	return nargs == 1 && args[0]->k == VK_STR ? args[0] : NULL;
}

/* io.open / codecs.open: the builtin open() */
static value_t *sl_io_open(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	(void)d;
	return call_builtin(f, mk_builtin(f->in, BI_OPEN, NULL), args, nargs, kw, site);
}

/* json.load(s), tomllib, toml, yaml: load_config */
static value_t *sl_load(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	(void)kw;
	return load_config(f, d, nargs ? args[0] : NULL, site);
}

static value_t *sl_deepcopy(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	(void)d, (void)kw, (void)site;
	return nargs == 1 ? deepcopy_value(f->in, args[0], 0) : NULL;
}

/* copy.copy(x) (shallowcopy.c) */
static value_t *sl_copy(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	(void)d;
	return copy_shallow(f, args, nargs, kw, site);
}

static value_t *sl_ordered_dict(struct frame *f, const char *d, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	(void)d;
	/* OrderedDict(d) of a dict: that dict (as before; a copy in Python) */
	if (nargs == 1 && args[0]->k == VK_DICT)
		return args[0];
	/* else what dict() makes of the same arguments: pairs of a number
	 * not known make a dict whose keys are not known, not an empty one */
	return dict_of(f, args, nargs, kw, site);
}

/* os.path.isfile, isdir, exists: read from the repository's tree
 * (pathlib.c's path_query) */
static value_t *sl_path_query(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	if (nargs != 1 || (kw && kw->n))
		return unknown_at(f, site, "a path query not read");
	return path_query(f, args[0], !strcmp(d, "os.path.isfile") ? BI_M_PATH_IS_FILE
	                              : !strcmp(d, "os.path.isdir") ? BI_M_PATH_IS_DIR : BI_M_PATH_EXISTS, site);
}

static value_t *sl_path_join(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	buf_t b;
	value_t *r;
	size_t i;

	(void)d, (void)kw;
	for (i = 0; i < nargs; i++)
		if (args[i]->k != VK_STR)
			return unknown_at(f, site, "a path built from values that are not known");
	buf_init(&b);
	for (i = 0; i < nargs; i++) {
		if (args[i]->u.str.s[0] == '/')
			buf_reset(&b);
		else if (b.len && b.buf[b.len - 1] != '/')
			buf_addch(&b, '/');
		buf_addstr(&b, args[i]->u.str.s);
	}
	r = v_str(in->a, b.buf);
	buf_free(&b);
	return r;
}

/* dataclasses.replace(obj, **changes): a new instance of obj's dataclass,
 * built as Python builds it -- __init__ with every field's current value,
 * the changes over them, then __post_init__.  NULL when obj is not an
 * instance of a repository dataclass. */
static value_t *dataclass_replace(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vdict *fields, *nkw;
	struct vclass *c;
	size_t i;

	if (nargs != 1 || args[0]->k != VK_INST || !(c = args[0]->u.inst->cls) || !c->is_dataclass)
		return NULL;
	fields = vdict_new(in->a);
	dataclass_fields(in, c, fields, f);
	nkw = vdict_new(in->a);
	for (i = 0; i < fields->n; i++) {
		value_t *cur = vdict_get(args[0]->u.inst->attrs, fields->keys[i]);

		if (cur)
			vdict_set(in->a, nkw, fields->keys[i], cur);
	}
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, nkw, kw->keys[i], kw->vals[i]);
	return instantiate(f, c, NULL, 0, nkw, site);
}

/* dataclasses.asdict(obj): a dict of obj's fields in their order, each
 * value converted as asdict converts it (a dataclass instance to its
 * dict, lists, tuples and dicts item by item, anything else itself).
 * NULL when obj is not a dataclass instance of the code read, or a field
 * has no value here. */
static value_t *dataclass_asdict(struct frame *f, value_t *v, int depth)
{
	struct interp *in = f->in;
	struct vdict *fields;
	struct vclass *c;
	value_t *r, *x;
	size_t i;

	if (depth > 16)
		return NULL;
	if (v->k == VK_LIST || v->k == VK_TUPLE) {
		if (v->u.seq->unk_reason)
			return NULL;
		charge(f, v->u.seq->n, 0);
		r = v_seq(in->a, v->k, v->u.seq->n);
		for (i = 0; i < v->u.seq->n; i++) {
			if (!(x = dataclass_asdict(f, v->u.seq->items[i], depth + 1)))
				return NULL;
			vseq_push(in->a, r->u.seq, x);
		}
		return r;
	}
	if (v->k == VK_DICT) {
		if (v->u.dict->anykey || v->u.dict->rep)
			return NULL;
		charge(f, v->u.dict->n, 0);
		r = v_dict(in->a);
		for (i = 0; i < v->u.dict->n; i++) {
			if (!(x = dataclass_asdict(f, v->u.dict->vals[i], depth + 1)))
				return NULL;
			vdict_set(in->a, r->u.dict, v->u.dict->keys[i], x);
		}
		return r;
	}
	if (v->k != VK_INST || !(c = v->u.inst->cls) || !c->is_dataclass)
		return v;
	fields = vdict_new(in->a);
	dataclass_fields(in, c, fields, f);
	r = v_dict(in->a);
	for (i = 0; i < fields->n; i++) {
		value_t *cur = vdict_get(v->u.inst->attrs, fields->keys[i]);

		if (!cur || !(x = dataclass_asdict(f, cur, depth + 1)))
			return NULL;
		vdict_set(in->a, r->u.dict, fields->keys[i], x);
	}
	return r;
}

static value_t *sl_asdict(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	(void)d, (void)site;
	if (nargs != 1 || kw || args[0]->k != VK_INST || !args[0]->u.inst->cls || !args[0]->u.inst->cls->is_dataclass)
		return NULL;
	return dataclass_asdict(f, args[0], 0);
}

static value_t *sl_replace(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	(void)d;
	return dataclass_replace(f, args, nargs, kw, site);
}

/* dataclasses.fields(x), dataclasses.is_dataclass(x),
 * typing.get_origin(t), typing.get_args(t): argparse.c */
static value_t *sl_dataclasses(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	(void)kw, (void)site;
	if (nargs != 1)
		return NULL;
	if (!strcmp(d, "dataclasses.fields"))
		return dataclass_fields_call(f, args[0]);
	if (!strcmp(d, "dataclasses.is_dataclass"))
		return is_dataclass_call(f, args[0]);
	return typing_origin_call(f, args[0], !strcmp(d, "typing.get_args"));
}

/* inspect.getfullargspec(f) of a repository function: the 7-tuple
 * (args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults,
 * annotations) with the parameter names read from its def; defaults,
 * kwonlydefaults and annotations are unknown (not evaluated here).  A
 * tuple, not a FullArgSpec: its attributes (.args) are not read.  NULL
 * (not read) for anything else (a class, a bound method, a library's
 * function). */
static value_t *sl_getfullargspec(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct ast_arguments *a;
	value_t *r, *names, *kwonly;
	size_t i;

	(void)d;
	if (nargs != 1 || kw || args[0]->k != VK_FUNC || !(a = fn_args(args[0]->u.fn->def)))
		return NULL;
	names = v_seq(in->a, VK_LIST, 0);
	for (i = 0; i < a->posonlyargs.n; i++)
		vseq_push(in->a, names->u.seq, v_str(in->a, AST_AS(a->posonlyargs.items[i], arg)->arg));
	for (i = 0; i < a->args.n; i++)
		vseq_push(in->a, names->u.seq, v_str(in->a, AST_AS(a->args.items[i], arg)->arg));
	kwonly = v_seq(in->a, VK_LIST, 0);
	for (i = 0; i < a->kwonlyargs.n; i++)
		vseq_push(in->a, kwonly->u.seq, v_str(in->a, AST_AS(a->kwonlyargs.items[i], arg)->arg));
	r = v_seq(in->a, VK_TUPLE, 7);
	vseq_push(in->a, r->u.seq, names);
	vseq_push(in->a, r->u.seq, a->vararg ? v_str(in->a, a->vararg->arg) : v_none(in->a));
	vseq_push(in->a, r->u.seq, a->kwarg ? v_str(in->a, a->kwarg->arg) : v_none(in->a));
	vseq_push(in->a, r->u.seq, unknown_at(f, site, "getfullargspec's defaults are not evaluated"));
	vseq_push(in->a, r->u.seq, kwonly);
	vseq_push(in->a, r->u.seq, unknown_at(f, site, "getfullargspec's kwonlydefaults are not evaluated"));
	vseq_push(in->a, r->u.seq, unknown_at(f, site, "getfullargspec's annotations are not read"));
	return r;
}

/* inspect.signature(f), inspect.isfunction/ismethod/isclass (sigobj.c) */
static value_t *sl_inspect(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	if (!strcmp(d, "inspect.signature"))
		return inspect_signature(f, args, nargs, kw, site);
	return kw ? NULL : inspect_is(f, d + 8, args, nargs);
}

/* defaultdict(list): a dict whose missing keys the factory fills (a
 * trainer's callbacks[event].append(fn)) */
static value_t *sl_defaultdict(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;
	size_t i;

	(void)d, (void)site;
	if (nargs > 1)
		return NULL;
	r = v_dict(in->a);
	if (nargs == 1 && (args[0]->k == VK_BUILTIN || args[0]->k == VK_FUNC || args[0]->k == VK_CLASS))
		r->u.dict->missing = args[0];
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
	return r;
}

/* collections.deque([iterable], maxlen=None): a list (appendleft is
 * list_methods[]'s, methods.c); a maxlen known > 0 bounds it (vseq.maxlen:
 * the oldest items dropped as others come); another maxlen, NULL. */
static value_t *sl_deque(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *ml = kw ? vdict_gets(kw, "maxlen") : NULL;
	struct vseq *items = NULL;
	value_t *r;
	size_t i;

	(void)d, (void)site;
	if (nargs > 2 || (kw && kw->n > (ml ? 1u : 0u)))
		return NULL;
	if (!ml && nargs == 2)
		ml = args[1];
	if (ml && ml->k != VK_NONE && !(ml->k == VK_INT && ml->u.i > 0 && ml->u.i <= (long long)UINT_MAX))
		return NULL;
	r = v_seq(in->a, VK_LIST, 0);
	if (ml && ml->k == VK_INT)
		r->u.seq->maxlen = (unsigned)ml->u.i;
	if (nargs == 0)
		return r;
	if (iter_items(f, args[0], &items) != NULL || !items)
		return NULL;
	charge(f, items->n, 0);
	for (i = 0; i < items->n; i++)
		vseq_push(in->a, r->u.seq, items->items[i]);
	seq_bound(r->u.seq, 1);
	return r;
}

/* importlib.util.find_spec(name): a spec (not None) for torch, which a
 * job read here has (the catalogue stands for it), for a module of
 * Python's standard library (catalogue: python_stdlib), for a module
 * found in the repository, and for a top-level module installed in the
 * site directories read (site_has_top(), read by ecg or not).  When site
 * directories are read and none holds it: None, the environment read
 * being the job's (transformers' _is_package_available("torch_xla")).
 * Without them its presence is not known here: the two values it may be
 * (alts.c), a spec when the module is installed where the job runs, else
 * None, so that `find_spec(name) is not None` stays undecided -- unless
 * the job imports it on a path it always takes (import.c: installed where
 * it runs, the module a spec like a top-level one found).  A package
 * of another accelerator's backend (catalog absent_modules: torch_npu),
 * which ecg reads as not installed where the job runs (import.c): None,
 * the module not in the repository. */
static value_t *sl_find_spec(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct site *st = in->prog && in->prog->site ? in->prog->site->site : NULL;
	const char *name, *dot;
	char *top;
	struct vinst *o;
	int found;

	(void)d, (void)kw, (void)site;
	if (nargs < 1 || args[0]->k != VK_STR)
		return NULL;
	name = args[0]->u.str.s;
	o = new_inst(in);
	o->ext = "importlib.machinery.ModuleSpec";
	vdict_sets(in->a, o->attrs, "name", args[0]);
	if (!strcmp(name, "torch") || !strncmp(name, "torch.", 6) || prog_find_module(in->prog, name))
		return mk_inst_value(in, o);
	dot = strchr(name, '.');
	top = xstrndup(name, dot ? (size_t)(dot - name) : strlen(name));
	if (catalog_fact(in->cat, CATALOG_F_ABSENT_MODULES, top)) {
		free(top);
		return v_none(in->a);
	}
	found = catalog_fact(in->cat, CATALOG_F_PYTHON_STDLIB, top) != NULL || (st && site_any(st) && site_has_top(st, top)) ||
	        strmap_get(&in->installed, top) != NULL;
	if (!found && st && site_any(st))       /* the header says so: check sees it appear */
		site_note_absent(st, top);
	free(top);
	if (found && !dot)
		return mk_inst_value(in, o);
	if (!found && st && site_any(st))       /* nor any module of its package */
		return v_none(in->a);
	return v_alts(f, afmt(in, "module '%s' is installed where the job runs", name), mk_inst_value(in, o),
	              v_none(in->a));
}

static const struct stdlib_native {
	const char *name;
	stdlib_fn *fn;
} stdlib_natives[] = {
	{ "OrderedDict", sl_ordered_dict },
	{ "addict.Dict", sl_attr_dict },
	{ "ast.literal_eval", sl_literal_eval },
	{ "box.Box", sl_attr_dict },
	{ "click.Choice", click_param },
	{ "click.FloatRange", click_param },
	{ "click.IntRange", click_param },
	{ "click.Path", click_param },
	{ "click.argument", click_param },
	{ "click.command", click_param },
	{ "click.option", click_param },
	{ "collections.OrderedDict", sl_ordered_dict },
	{ "collections.defaultdict", sl_defaultdict },
	{ "collections.deque", sl_deque },
	{ "collections.namedtuple", nt_factory },
	{ "copy.copy", sl_copy },
	{ "copy.deepcopy", sl_deepcopy },
	{ "dataclasses.asdict", sl_asdict },
	{ "dataclasses.fields", sl_dataclasses },
	{ "dataclasses.is_dataclass", sl_dataclasses },
	{ "dataclasses.replace", sl_replace },
	{ "easydict.EasyDict", sl_attr_dict },
	{ "enum.auto", sl_enum_auto },
	{ "functools.partial", sl_partial },
	{ "functools.wraps", sl_wraps },
	{ "importlib.metadata.version", pkgmeta_dist_version },
	{ "importlib.util.find_spec", sl_find_spec },
	{ "importlib_metadata.version", pkgmeta_dist_version },
	{ "inspect.getfullargspec", sl_getfullargspec },
	{ "inspect.isclass", sl_inspect },
	{ "inspect.isfunction", sl_inspect },
	{ "inspect.ismethod", sl_inspect },
	{ "inspect.signature", sl_inspect },
	{ "io.open", sl_io_open },
	{ "itertools.chain", sl_chain },
	{ "itertools.islice", sl_islice },
	{ "itertools.repeat", sl_repeat },
	{ "json.load", sl_load },
	{ "json.loads", sl_load },
	{ "ml_collections.ConfigDict", sl_attr_dict },
	{ "ml_collections.config_dict.ConfigDict", sl_attr_dict },
	{ "ml_collections.config_dict.config_dict.ConfigDict", sl_attr_dict },
	{ "munch.Munch", sl_attr_dict },
	{ "os.fspath", path_fspath },
	{ "os.getenv", sl_getenv },
	{ "os.listdir", osdir_list },
	{ "os.path.abspath", sl_path_same },
	{ "os.path.basename", sl_path_split },
	{ "os.path.dirname", sl_path_split },
	{ "os.path.exists", sl_path_query },
	{ "os.path.expanduser", sl_path_same },
	{ "os.path.isdir", sl_path_query },
	{ "os.path.isfile", sl_path_query },
	{ "os.path.join", sl_path_join },
	{ "os.path.normpath", sl_path_same },
	{ "os.path.realpath", sl_path_same },
	{ "os.path.relpath", osdir_relpath },
	{ "os.path.splitext", osdir_splitext },
	{ "os.scandir", osdir_list },
	{ "packaging.version.Version", pkgmeta_version_parse },
	{ "packaging.version.parse", pkgmeta_version_parse },
	{ "pathlib.Path", path_call },
	{ "pathlib.PosixPath", path_call },
	{ "pathlib.PurePath", path_call },
	{ "pathlib.PurePosixPath", path_call },
	{ "random.choice", sl_random_choice },
	{ "threading.Thread", sl_thread },
	{ "threading.local", sl_attr_dict },
	{ "toml.load", sl_load },
	{ "tomli.load", sl_load },
	{ "tomllib.load", sl_load },
	{ "tomllib.loads", sl_load },
	{ "types.SimpleNamespace", sl_attr_dict },
	{ "typing.cast", sl_cast },
	{ "typing.get_args", sl_dataclasses },
	{ "typing.get_origin", sl_dataclasses },
	{ "yaml.full_load", sl_load },
	{ "yaml.load", sl_load },
	{ "yaml.safe_load", sl_load },
};

const struct ntab stdlib_ntab = NTAB(stdlib_natives);

value_t *stdlib_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	const struct stdlib_native *n = NTAB_FIND(stdlib_natives, d);
	value_t *texts[8], *r;
	size_t i;

	if (n && !strncmp(d, "os.path.", 8) && nargs <= 8) {
		/* os.path's functions take a pathlib.Path as its text */
		for (i = 0; i < nargs; i++)
			texts[i] = path_text(args[i]);
		args = texts;
	}
	if (n)
		return n->fn(f, d, args, nargs, kw, site);
	if (!strncmp(d, "absl.", 5) || !strncmp(d, "ml_collections.config_flags.", 28))
		return absl_call(f, d, args, nargs, kw, site);     /* NULL: not one it reads */
	if (!strncmp(d, "pandas.", 7))
		return pandas_call(f, d, args, nargs, kw, site);     /* NULL: not a table it reads */
	if (!strncmp(d, "omegaconf.", 10))
		return omegaconf_call(f, d, args, nargs, kw, site);
	if (!strcmp(d, "dacite.from_dict") || !strcmp(d, "dacite.core.from_dict"))
		return dacite_from_dict(f, args, nargs, kw, site);
	if (!strcmp(d, "jsonmerge.merge"))
		return jsonmerge_merge(f, args, nargs, kw, site);
	if ((r = yacs_call(f, d, args, nargs, kw, site)))   /* a node class of catalog yacs_node_classes */
		return r;
	if (!strncmp(d, "math.", 5))
		return math_call(f, d + 5, args, nargs, site);
	if (!strncmp(d, "numpy.", 6) && strchr(d + 6, '.') == NULL)
		return numpy_scalar_call(f, d + 6, args, nargs, kw);
	if (!strncmp(d, "re.", 3))
		return regex_call(f, d, args, nargs, kw, site);
	return NULL;
}
