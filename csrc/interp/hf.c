/* interp/hf.c - Hugging Face transformers' from_pretrained, read not run
 *
 * `AutoModelForCausalLM.from_pretrained(path)`, `LlamaForCausalLM.
 * from_pretrained(path)`, `AutoConfig.from_pretrained(path)` and
 * `Auto*.from_config(config)` of an installed transformers (read with
 * --site, site.h).  The real methods resolve hub names, download and load
 * weights; what they build is the config that <path>/config.json holds and
 * the model class it names.  hf_call() reads that config.json from the
 * repository (the path as the job passes it, --set included; load_config),
 * and the classes from the library's own source, evaluated by the
 * interpreter, never from a table here:
 *   - models/auto/configuration_auto.py: CONFIG_MAPPING_NAMES (model_type
 *     -> config class name) and model_type_to_module_name();
 *   - an Auto class's _model_mapping (modeling_auto.py's _LazyAutoMapping
 *     of a *_MAPPING_NAMES table: model_type -> model class name);
 *   - a concrete class's config_class.
 * The classes are then built like the job's own: config_class(**config.json)
 * and model_class(config).
 *
 * Without the library read (no --site), LlamaForCausalLM.from_pretrained(p)
 * of a model class the job names (catalog module_packages and
 * pretrained_module_words) loaded on the host, or onto one device, is such
 * an external module of that class too (hf_named_unread), as an Auto
 * class's is: the wrappers, calls and moves of job code then follow it.
 *
 * `Wav2Vec2ForPreTraining(config)` -- a model class the job names and
 * calls itself, which the lazy __init__ of transformers >= 5 leaves to
 * define_import_structure() (a name to import.c) -- is the class the
 * library's *_MAPPING_NAMES tables place (hf_listed_model), built with
 * the config the job gives it, as the job's own classes are.
 *
 * Without a config.json in the repository the sizes are never a config
 * class's defaults (that would be a wrong count): the model is an external
 * module whose subtree and parameters are unknown, with the reason
 * (__ecg_subtree_reason__, read by modtree.c); its class is the concrete
 * class when the job names one, else the Auto class it called.
 *
 * hf_call() returns NULL when the call is not one of these (the caller goes
 * on), else a value (never NULL): a model, a config, or an unknown with
 * its reason.  It allocates only in the interpreter's arena.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

#define HF_PKG "transformers"

/* The module `dotted` of the installed library: a namespace, or NULL. */
static struct vns *hf_module(struct frame *f, const char *dotted)
{
	value_t *name = v_str(f->in->a, dotted);
	value_t *m = call_import_module(f, "importlib.import_module", &name, 1, NULL, NULL);

	return m && m->k == VK_NS ? m->u.ns : NULL;
}

/* mod.name when mod is a namespace of the library and name is bound in it. */
static value_t *hf_get(struct frame *f, struct vns *ns, const char *name)
{
	value_t *v;

	if (!ns)
		return NULL;
	v = ns_attr(f, ns, name);
	return v && v->k != VK_UNKNOWN && v->k != VK_EXT ? v : NULL;
}

/* The class `name` of transformers.models.<mod>: the package's own name,
 * else its <prefix>_<mod>.py (configuration_llama.py, modeling_llama.py),
 * where the real package's lazy __init__ leaves the name unbound. */
static struct vclass *hf_model_class(struct frame *f, const char *mod, const char *prefix, const char *name)
{
	struct interp *in = f->in;
	value_t *v = hf_get(f, hf_module(f, afmt(in, HF_PKG ".models.%s", mod)), name);

	if (!v || v->k != VK_CLASS)
		v = hf_get(f, hf_module(f, afmt(in, HF_PKG ".models.%s.%s_%s", mod, prefix, mod)), name);
	return v && v->k == VK_CLASS ? v->u.cls : NULL;
}

/* The module of models/ that holds a model type, by the library's own
 * model_type_to_module_name(); NULL when it is not there. */
static const char *hf_module_name(struct frame *f, struct vns *cfgauto, const char *model_type)
{
	value_t *fn = hf_get(f, cfgauto, "model_type_to_module_name");
	value_t *arg = v_str(f->in->a, model_type), *r;

	if (!fn || fn->k != VK_FUNC)
		return NULL;
	r = call(f, fn, &arg, 1, NULL, NULL);
	return r && r->k == VK_STR ? r->u.str.s : NULL;
}

/* An Auto class by name, from models/auto/ (the real package's lazy
 * __init__ may leave `transformers.AutoX` an external name). */
static struct vclass *hf_auto_class(struct frame *f, const char *name)
{
	const char *mod = !strcmp(name, "AutoConfig") ? HF_PKG ".models.auto.configuration_auto"
	                                              : HF_PKG ".models.auto.modeling_auto";
	value_t *v = hf_get(f, hf_module(f, mod), name);

	return v && v->k == VK_CLASS ? v->u.cls : NULL;
}

static int is_auto(const struct vclass *c)
{
	return !strncmp(c->name, "Auto", 4);
}

/* An external module standing for a model whose sizes are not known, why
 * (NULL: the library is not read, and modtree.c says so). */
static value_t *hf_unsized(struct frame *f, const char *cls, const char *why, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *m = new_inst(in);

	m->ext = afmt(in, HF_PKG ".%s", cls);
	m->mod = VM_EXTERNAL;
	m->constructed_at = anchor_at(f, site);
	m->ctor_expr = text_of(f, site);
	m->cond = f->cond.text;
	m->built_ctx = f->jc;
	m->args = vdict_new(in->a);
	if (why)
		vdict_sets(in->a, m->attrs, "__ecg_subtree_reason__", v_str(in->a, why));
	return mk_inst_value(in, m);
}

/* The class a name table of the library gives for model_type: `names`
 * (model_type -> class name: a *_MAPPING_NAMES or CONFIG_MAPPING_NAMES
 * dict), then the module of models/ by model_type_to_module_name(), then
 * the class in that module's <prefix>_<module>.py (prefix "modeling" or
 * "configuration").  The reasons: `missing` says the table lacks the
 * model_type ("X's table names no single class for"), `kind` names the
 * class ("class", "config class"), with its model_type when `with_type`.
 * NULL with *why. */
static struct vclass *hf_table_class(struct frame *f, struct vns *cfgauto, value_t *names, const char *model_type,
                                     const char *prefix, const char *missing, const char *kind, int with_type,
                                     const char **why)
{
	struct interp *in = f->in;
	value_t *cn = vdict_gets(names->u.dict, model_type);
	const char *mod;
	struct vclass *c;

	if (!cn || cn->k != VK_STR) {
		*why = afmt(in, "%s model_type '%s'", missing, model_type);
		return NULL;
	}
	if (!(mod = hf_module_name(f, cfgauto, model_type))) {
		*why = "the library's model_type_to_module_name() was not read";
		return NULL;
	}
	if (!(c = hf_model_class(f, mod, prefix, cn->u.str.s)))
		*why = with_type ? afmt(in, "%s %s of model_type '%s' was not found in the installed library", kind,
		                        cn->u.str.s, model_type)
		                 : afmt(in, "%s %s was not found in the installed library", kind, cn->u.str.s);
	return c;
}

/* The class the Auto class `autoc` builds for a config of class cc and
 * type model_type, read from its _model_mapping: a _LazyAutoMapping whose
 * _model_mapping is the library's *_MAPPING_NAMES table (model_type ->
 * class name; transformers >= 4.10), or a dict config class -> model
 * class (before). */
static struct vclass *hf_auto_model(struct frame *f, struct vclass *autoc, struct vns *cfgauto,
                                    struct vclass *cc, const char *model_type, const char **why)
{
	struct interp *in = f->in;
	value_t *lazy, *names;
	size_t i;

	lazy = class_lookup(autoc, "_model_mapping", NULL);
	if (lazy && lazy->k == VK_DICT) {
		for (i = 0; i < lazy->u.dict->n; i++)
			if (lazy->u.dict->keys[i]->k == VK_CLASS && lazy->u.dict->keys[i]->u.cls == cc) {
				if (lazy->u.dict->vals[i]->k == VK_CLASS)
					return lazy->u.dict->vals[i]->u.cls;
				break;
			}
		*why = afmt(in, "%s's table names no single class for %s", autoc->name, cc->name);
		return NULL;
	}
	names = lazy && lazy->k == VK_INST ? vdict_gets(lazy->u.inst->attrs, "_model_mapping") : NULL;
	if (!names || names->k != VK_DICT) {
		*why = afmt(in, "%s's _model_mapping table was not read from the installed library", autoc->name);
		return NULL;
	}
	return hf_table_class(f, cfgauto, names, model_type, "modeling",
	                      afmt(in, "%s's table names no single class for", autoc->name), "class", 1, why);
}

/* The model class `name` the package's lazy __init__ leaves to its import
 * structure (transformers >= 5: define_import_structure() walks models/
 * at run time, so `from transformers import Wav2Vec2ForPreTraining` is a
 * name here), found as the library's own tables place it: a
 * *_MAPPING_NAMES table of models/auto/modeling_auto.py lists it under a
 * model_type, whose module (model_type_to_module_name()) defines it in
 * modeling_<module>.py.  NULL when the library is not read or no table
 * lists the name. */
static struct vclass *hf_listed_model(struct frame *f, const char *name)
{
	struct vns *ma = hf_module(f, HF_PKG ".models.auto.modeling_auto"), *cfgauto;
	size_t i, k, kl;

	if (!ma || !(cfgauto = hf_module(f, HF_PKG ".models.auto.configuration_auto")))
		return NULL;
	for (i = 0; i < ma->dict->n; i++) {
		const value_t *key = ma->dict->keys[i], *tab = ma->dict->vals[i];

		if (key->k != VK_STR || tab->k != VK_DICT || (kl = strlen(key->u.str.s)) < 14 ||
		    strcmp(key->u.str.s + kl - 14, "_MAPPING_NAMES"))
			continue;
		for (k = 0; k < tab->u.dict->n; k++) {
			const char *mod;
			struct vclass *c;

			if (tab->u.dict->keys[k]->k != VK_STR || !str_eq(tab->u.dict->vals[k], name))
				continue;
			mod = hf_module_name(f, cfgauto, tab->u.dict->keys[k]->u.str.s);
			if (mod && (c = hf_model_class(f, mod, "modeling", name)) && c->is_module)
				return c;
		}
	}
	return NULL;
}

/* The config class of config.json's model_type, by CONFIG_MAPPING_NAMES
 * (model_type -> class name), or CONFIG_MAPPING where it is a dict
 * model_type -> class (transformers before 4.10). */
static struct vclass *hf_auto_config(struct frame *f, struct vns *cfgauto, const char *model_type, const char **why)
{
	struct interp *in = f->in;
	value_t *names = hf_get(f, cfgauto, "CONFIG_MAPPING_NAMES"), *cn;

	if (!names && (cn = hf_get(f, cfgauto, "CONFIG_MAPPING")) && cn->k == VK_DICT) {
		cn = vdict_gets(cn->u.dict, model_type);
		if (cn && cn->k == VK_CLASS)
			return cn->u.cls;
		*why = afmt(in, "the installed library's CONFIG_MAPPING has no model_type '%s'", model_type);
		return NULL;
	}

	if (!names || names->k != VK_DICT) {
		*why = "CONFIG_MAPPING_NAMES was not read from the installed library";
		return NULL;
	}
	return hf_table_class(f, cfgauto, names, model_type, "configuration",
	                      "the installed library's CONFIG_MAPPING_NAMES has no", "config class", 0, why);
}

/* <dir>/config.json of a checkpoint directory outside the repository (an
 * absolute path: --set model_path=/ckpt/llama, or the code's default),
 * read from the filesystem as data (load_fs_json: recorded in the
 * header's environment.files); NULL with *why when it is not there. */
static value_t *hf_config_json_fs(struct frame *f, const char *file, const struct ast_hdr *site, const char **why)
{
	struct interp *in = f->in;
	const char *w = NULL;
	cJSON *j;
	value_t *v;

	if (!in->load_fs_json) {
		*why = afmt(in, "'%s' is outside the repository and files outside it are not read in this mode", file);
		return NULL;
	}
	j = in->load_fs_json(in->load_fs_json_ctx, file, &w);
	if (!j || !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		*why = afmt(in, "'%s' was not read (%s): the checkpoint directory is not on this machine", file,
		            w ? w : "not a JSON object");
		note(in, anchor_at(f, site), afmt(in, "checkpoint config '%s'", file), *why);
		return NULL;
	}
	v = json_value(in, j, file);
	cJSON_Delete(j);
	return v;
}

/* <path>/config.json of the repository as a dict value; NULL with *why. */
static value_t *hf_config_json(struct frame *f, value_t *path, const struct ast_hdr *site, const char **why)
{
	struct interp *in = f->in;
	const char *p;
	size_t n;
	value_t *j;

	if (!path || path->k != VK_STR) {
		*why = afmt(in, "the checkpoint it loads is not known (%s)",
		            path && path->k == VK_UNKNOWN && path->reason ? path->reason : "not a string");
		return NULL;
	}
	p = path->u.str.s;
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (p[0] == '/')
		return hf_config_json_fs(f, afmt(in, "%.*s/config.json", (int)n, p), site, why);
	j = load_config(f, "json.load", v_str(in->a, afmt(in, "%.*s/config.json", (int)n, p)), site);
	if (j->k != VK_DICT) {
		*why = afmt(in, "'%.*s/config.json' was not read (%s): a hub name or a directory outside the repository; "
		            "a checkpoint directory in the repository, or --set naming one, gives the sizes",
		            (int)n, p, j->reason ? j->reason : "not a JSON object");
		return NULL;
	}
	return j;
}

/* config_class(**config.json), then the call's own keywords that name the
 * config's attributes (as from_pretrained passes its unused kwargs). */
static value_t *hf_make_config(struct frame *f, struct vclass *cc, value_t *json, struct vdict *kw,
                               const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *cfg = instantiate(f, cc, NULL, 0, json->u.dict, site);
	size_t i;

	if (cfg->k != VK_INST || !kw)
		return cfg;
	for (i = 0; i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR && vdict_gets(cfg->u.inst->attrs, kw->keys[i]->u.str.s))
			vdict_set(in->a, cfg->u.inst->attrs, kw->keys[i], kw->vals[i]);
	return cfg;
}

static value_t *hf_arg(value_t **args, size_t nargs, struct vdict *kw, const char *name)
{
	return nargs >= 1 ? args[0] : kw ? vdict_gets(kw, name) : NULL;
}

/* C.from_pretrained / C.from_config of a class of the library whose own
 * value is not known (transformers' auto_class_update() replaces them on
 * each Auto class with a copy made by types.FunctionType and
 * functools.update_wrapper): the method of the nearest base that defines
 * it (a classmethod, or in transformers < 4.10 a plain function that
 * the update makes one), bound to C, so that hf_call() sees it.  NULL for anything else. */
value_t *hf_class_attr(struct frame *f, value_t *cls, const char *name)
{
	struct vclass *c = cls->u.cls;
	value_t *v;
	size_t i;

	if (strcmp(name, "from_pretrained") && strcmp(name, "from_config"))
		return NULL;
	v = class_lookup(c, name, NULL);
	if (!v || v->k != VK_UNKNOWN || !c->file || strncmp(c->file->path, "site:" HF_PKG "/", sizeof "site:" HF_PKG))
		return NULL;
	for (i = 1; i < c->nmro; i++) {
		v = vdict_gets(c->mro[i]->ns, name);
		if (v && v->k == VK_FUNC)     /* a classmethod, or made one by the update */
			return bound(f->in, v, cls);
		if (v)
			break;
	}
	return NULL;
}

/* Does from_pretrained's keyword list place the weights anywhere but the
 * host, or in a way not known (catalog pretrained_placement_keywords: a
 * device_map, a quantization config)?  None and False place nothing (the
 * keywords' defaults); a device_map naming one device is libvalues.c's
 * (libv_hf_placed copies there).  A **kwargs of keys not known may. */
static int hf_placed_elsewhere(struct interp *in, const struct vdict *kw)
{
	size_t i;

	if (!kw)
		return 0;
	if (vdict_gets(kw, KW_UNK_DSTAR))
		return 1;
	for (i = 0; i < kw->n; i++) {
		const value_t *v = kw->vals[i];

		if (kw->keys[i]->k != VK_STR || v->k == VK_NONE || (v->k == VK_BOOL && !v->u.b))
			continue;
		if (catalog_fact(in->cat, CATALOG_F_PRETRAINED_DEVICE_KEYWORDS, kw->keys[i]->u.str.s) &&
		    libv_places_on_device(in, kw))
			continue;
		if (catalog_fact(in->cat, CATALOG_F_PRETRAINED_PLACEMENT_KEYWORDS, kw->keys[i]->u.str.s))
			return 1;
	}
	return 0;
}

/* transformers.LlamaForCausalLM.from_pretrained(path) of the library not
 * read (no --site): a model of the class the job names, as an Auto
 * class's (hf_unsized: an external module, its sizes not known), when
 * the class is one of the library's modules (catalog module_packages,
 * not_module_suffixes, pretrained_module_words: a name holding "For" or
 * "Model", not a config, tokenizer or processor) and from_pretrained
 * loads it on the host or onto one device (libv_hf_placed); NULL for
 * anything else (libvalues.c reads it as before).  With the library read,
 * the class is the library's own (the VK_BOUND path). */
static value_t *hf_named_unread(struct frame *f, const char *d, const char *clsname, const char *meth,
                                struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *cls = afmt(in, "%.*s", (int)(strrchr(d, '.') - d), d);
	value_t *m;

	if (strcmp(meth, "from_pretrained") || hf_auto_class(f, "AutoConfig") ||
	    !ext_is_module_class(in->cat, cls) || !catalog_fact_match(in->cat, CATALOG_F_PRETRAINED_MODULE_WORDS, clsname) ||
	    hf_placed_elsewhere(in, kw))
		return NULL;
	m = hf_unsized(f, clsname, NULL, site);
	/* the class is the one named: its library base's save_pretrained
	 * (attr.c, libvalues.c libv_inst_save) */
	vdict_sets(in->a, m->u.inst->attrs, HF_NAMED_CLASS_ATTR, v_bool(in->a, 1));
	return m;
}

value_t *hf_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vclass *cls = NULL, *cc = NULL, *mc = NULL;
	const char *meth, *clsname, *why = NULL, *mt = NULL;
	struct vns *cfgauto;
	value_t *json = NULL, *cfg = NULL, *cv, *v;

	if (f->mode == M_FWD)
		return NULL;
	if (fn->k == VK_BOUND) {
		struct vfunc *vf = fn->u.bound.fn->u.fn;

		if (fn->u.bound.self->k != VK_CLASS || !vf->file ||
		    strncmp(vf->file->path, "site:" HF_PKG "/", sizeof "site:" HF_PKG))
			return NULL;
		cls = fn->u.bound.self->u.cls;
		clsname = cls->name;
		meth = AST_IS(vf->def, FunctionDef) ? AST_AS(vf->def, FunctionDef)->name : "";
	} else if (fn->k == VK_EXT && !strncmp(fn->u.ext, HF_PKG ".", sizeof HF_PKG)) {
		/* transformers.X.from_pretrained where the package's lazy
		 * __init__ left X a name: X read from models/auto/ */
		const char *d = fn->u.ext, *dot = strrchr(d, '.'), *prev = dot;

		while (prev > d && prev[-1] != '.')
			prev--;
		meth = dot + 1;
		clsname = astr(in, afmt(in, "%.*s", (int)(dot - prev), prev));
		if (prev == d) {
			/* transformers.X(config): the model class the library's
			 * tables name, built as the job's own classes are (its
			 * config as given: not known when it is the Hub's) */
			struct vclass *c = meth[0] >= 'A' && meth[0] <= 'Z' ? hf_listed_model(f, meth) : NULL;

			return c ? instantiate(f, c, args, nargs, kw, site) : NULL;
		}
		if (strncmp(clsname, "Auto", 4))
			return hf_named_unread(f, d, clsname, meth, kw, site);
		if (!(cls = hf_auto_class(f, clsname))) {
			/* the library is not read: an AutoModel* builds a model
			 * (an external one; modtree.c's reason names --site), any
			 * other Auto class is left as it is written */
			if (strncmp(clsname, "AutoModel", 9) || (strcmp(meth, "from_pretrained") && strcmp(meth, "from_config")))
				return NULL;
			return hf_unsized(f, clsname, NULL, site);
		}
	} else
		return NULL;
	if (strcmp(meth, "from_pretrained") && strcmp(meth, "from_config"))
		return NULL;
	/* which: an Auto model class (it has a _model_mapping), AutoConfig, a
	 * model class (an nn.Module), a config class (it has a model_type);
	 * anything else (tokenizers, processors) is read as it is written */
	if (is_auto(cls) ? strcmp(clsname, "AutoConfig") && !class_lookup(cls, "_model_mapping", NULL)
	                 : !cls->is_module && (!class_lookup(cls, "model_type", NULL) || strcmp(meth, "from_pretrained")))
		return NULL;
	cfgauto = hf_module(f, HF_PKG ".models.auto.configuration_auto");

	/* the config: given, or config.json of the checkpoint */
	v = kw ? vdict_gets(kw, "config") : NULL;
	if (!strcmp(meth, "from_config"))
		v = hf_arg(args, nargs, kw, "config");
	if (v && v->k == VK_INST && v->u.inst->cls) {
		cfg = v;
		cc = v->u.inst->cls;
		cv = getattr_v(f, cfg, "model_type", site);
		mt = cv && cv->k == VK_STR ? cv->u.str.s : NULL;
	} else if (!strcmp(meth, "from_config")) {
		why = "the config it is given is not known";
	} else if ((json = hf_config_json(f, hf_arg(args, nargs, kw, "pretrained_model_name_or_path"), site, &why))) {
		cv = vdict_gets(json->u.dict, "model_type");
		mt = cv && cv->k == VK_STR ? cv->u.str.s : NULL;
	}

	/* the classes */
	if (!why && cls && !strcmp(clsname, "AutoConfig")) {
		if (!mt)
			why = "config.json names no model_type";
		else
			cc = hf_auto_config(f, cfgauto, mt, &why);
		if (!why)
			return hf_make_config(f, cc, json, kw, site);
		return unknown_at(f, site, afmt(in, "the config AutoConfig reads: %s", why));
	}
	if (!cls->is_module && !is_auto(cls)) {
		/* LlamaConfig.from_pretrained(path) */
		if (!why)
			return hf_make_config(f, cls, json, kw, site);
		return unknown_at(f, site, afmt(in, "the config %s reads: %s", clsname, why));
	}
	if (!why && is_auto(cls)) {
		if (!mt)
			why = "its model_type is not known";
		else if (cc || (cc = hf_auto_config(f, cfgauto, mt, &why)))
			mc = hf_auto_model(f, cls, cfgauto, cc, mt, &why);
	} else if (!why) {
		mc = cls;
		if (!cc) {
			cv = class_lookup(cls, "config_class", NULL);
			if (cv && cv->k == VK_CLASS)
				cc = cv->u.cls;
			else
				why = afmt(in, "%s's config_class is not known", cls->name);
		}
	}
	if (why || !mc || !cc) {
		v = hf_unsized(f, is_auto(cls) || !mc ? clsname : mc->name,
		               afmt(in, "%s.%s: %s, so its modules and parameter count are not known", clsname, meth,
		                    why ? why : "its classes are not known"),
		               site);
		if (is_auto(cls) && !mc)   /* one of the table's classes: its base's methods (hfbase.c) */
			hfbase_mark(f, v, afmt(in, HF_PKG ".%s", clsname), kw);
		return v;
	}
	if (!cfg)
		cfg = hf_make_config(f, cc, json, kw, site);
	if (cfg->k != VK_INST)
		return hf_unsized(f, mc->name, afmt(in, "%s.%s: its config was not built, so its modules and parameter count are not known",
		                                    clsname, meth), site);
	return instantiate(f, mc, &cfg, 1, NULL, site);
}
