/* interp/framework.c - training and command-line frameworks around the job
 *
 * framework_call() is call_ext()'s share for what Lightning Fabric,
 * accelerate, DeepSpeed engines and command-line dispatchers (Lightning
 * CLI, fire, typer, jsonargparse, hydra) do with the job's objects:
 * fabric.backward(loss) (and torch.autograd.backward) is the backward (an
 * event and evidence);
 * setup/prepare/wrap hand back what they were given; a dispatcher calls
 * the function it is given with its defaults (a dict of subcommands: the
 * one the job's first argument names).  Job mode only; NULL when the call
 * is none of these.
 *
 * framework_*() below read an installed accelerate's Accelerator (an
 * external object) by catalog facts: its mixed precision, the GradScaler
 * step of the optimizers it prepares, its accumulation block and flag,
 * save_state with the hooks registered for it, prepare's placement of
 * the models on the device.  None of them fails; each does nothing (or
 * returns NULL) for any other object.
 *
 * framework_launcher_call() and the two after it read a library object
 * that starts the job's processes itself (Lightning Fabric) by catalog
 * facts: how many processes (launcher_objects), its strategy and the
 * torch wrapper its setup wraps the model in (launcher_strategies,
 * launcher_wraps), its collectives (multi_process_collectives), a
 * wrapper method it calls (launcher_wrapper_methods), its block skipping
 * the gradient sync (sync_skip_contexts: the micro-steps of gradient
 * accumulation, and `if not <flag>:` the step's last) and its save
 * (launcher_saves, strategy_saves).  Nothing is stated that the code and
 * the environment do not pin down (devices='auto', an environment not
 * pinned, a strategy not listed).
 */
#include "config.h"

#include <ctype.h>

#include "internal.h"
#include "ecg/catalog.h"

/* The words YAML reads as booleans and null (as jsonargparse and fire
 * do): truth 1, 0, or -1 for None. */
static const struct yaml_word {
	const char *word;
	int truth;
} yaml_words[] = {
	{ "False", 0 }, { "None", -1 }, { "True", 1 }, { "false", 0 }, { "null", -1 }, { "true", 1 }, { "~", -1 },
};

const struct ntab yaml_words_ntab = NTAB(yaml_words);

/* A command-line word as jsonargparse and fire read a value: YAML's
 * scalars (ints, floats, true/false, null), else the string. */
static value_t *cli_scalar(struct interp *in, const char *s)
{
	const struct yaml_word *w;
	char *end;
	long long i;
	double x;

	if (!*s)
		return v_str(in->a, s);
	i = strtoll(s, &end, 10);
	if (!*end)
		return v_int(in->a, i);
	x = strtod(s, &end);
	if (!*end)
		return v_float(in->a, x);
	if ((w = NTAB_FIND(yaml_words, s)))
		return w->truth < 0 ? v_none(in->a) : v_bool(in->a, w->truth);
	return v_str(in->a, s);
}

/* Whether the parameter's annotation makes the CLI hand the value over as
 * it is read (str, int, float, bool, Path, Literal, Optional of those): a
 * class annotation makes the CLI build an object from it, which is not
 * followed here. */
static int cli_plain_type(struct frame *f, const struct vfunc *fn, const struct ast_arg *p)
{
	struct frame af = *f;            /* the annotation is text of fn's file */
	static const char *const ok[] = { "str", "int", "float", "bool", "None", "Path", "Optional",
	                                  "Literal", "Union", "pathlib", "typing", "NoneType", NULL };
	const char *t, *s;

	if (!p || !p->annotation)
		return 1;
	af.file = fn->file;
	t = text_of(&af, p->annotation);
	for (s = t; s && *s;) {
		size_t n, k;
		int good = 0;

		if (*s == '"' || *s == '\'') {         /* Literal["a", 'b'] */
			char q = *s++;

			while (*s && *s != q)
				s++;
			if (*s)
				s++;
			continue;
		}
		if (!(isalpha((unsigned char)*s) || *s == '_')) {
			s++;
			continue;
		}
		for (n = 0; isalnum((unsigned char)s[n]) || s[n] == '_'; n++)
			;
		for (k = 0; ok[k]; k++)
			if (strlen(ok[k]) == n && !strncmp(s, ok[k], n))
				good = 1;
		if (!good)
			return 0;
		s += n;
	}
	return 1;
}

static const struct ast_arg *fn_param(const struct vfunc *fn, const char *name)
{
	const struct ast_arguments *a = fn_args(fn->def);
	unsigned i;

	if (!a)
		return NULL;
	for (i = 0; i < a->posonlyargs.n + a->args.n + a->kwonlyargs.n; i++) {
		const struct ast_arg *p = AST_AS(i < a->posonlyargs.n ? a->posonlyargs.items[i]
		                                 : i < a->posonlyargs.n + a->args.n
		                                 ? a->args.items[i - a->posonlyargs.n]
		                                 : a->kwonlyargs.items[i - a->posonlyargs.n - a->args.n], arg);

		if (!strcmp(p->arg, name))
			return p;
	}
	return NULL;
}

/* The default value of fn's parameter p, or NULL when it has none. */
static value_t *fn_param_default(const struct vfunc *fn, const struct ast_arg *p)
{
	const struct ast_arguments *a = fn_args(fn->def);
	size_t npos, i;

	if (!a)
		return NULL;
	npos = a->posonlyargs.n + a->args.n;
	for (i = 0; i < npos; i++)
		if (AST_AS(i < a->posonlyargs.n ? a->posonlyargs.items[i] : a->args.items[i - a->posonlyargs.n],
		           arg) == p)
			return i + fn->ndefaults >= npos ? fn->defaults[i + fn->ndefaults - npos] : NULL;
	return fn->kwdefaults ? vdict_gets(fn->kwdefaults, p->arg) : NULL;
}

/* A config-file section (a mapping) for a dataclass-typed parameter, as
 * jsonargparse reads it: the dataclass's fields take the values of the
 * parameter's current value (an earlier layer's, else the default
 * instance, whose fields are the group's defaults in jsonargparse's
 * add_dataclass_arguments), the section's keys override them, and the
 * class is built from the result (its __post_init__ runs).  base is that
 * current value.  A field whose section value is not a plain scalar (a
 * nested mapping, a list) or not of the kind of the field's current value
 * is unknown: its type is not read here.  NULL (the
 * parameter stays unknown) when the annotation is not the plain name of
 * base's dataclass (Optional, a union, a subclass: ecg cannot see the
 * type jsonargparse builds), or when a key is not a field. */
static value_t *cli_dataclass(struct frame *f, const char *ann, value_t *base, const value_t *sect,
                              const char *from, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vdict *fields, *kw;
	struct vclass *c;
	value_t *cv;
	const char *dot;
	size_t k;

	if (!base || base->k != VK_INST || !(c = base->u.inst->cls) || !c->is_dataclass || !ann)
		return NULL;
	dot = strrchr(ann, '.');
	if (strcmp(dot ? dot + 1 : ann, c->name))
		return NULL;
	fields = vdict_new(in->a);
	dataclass_fields(in, c, fields, f);
	kw = vdict_new(in->a);
	for (k = 0; k < fields->n; k++) {
		const char *fname = fields->keys[k]->u.str.s;
		value_t *cur = vdict_gets(base->u.inst->attrs, fname);

		vdict_sets(in->a, kw, fname,
		           cur ? cur : v_unknown(in->a, fname, "a field the default object does not hold"));
	}
	for (k = 0; k < sect->u.dict->n; k++) {
		const value_t *key = sect->u.dict->keys[k];
		value_t *v = sect->u.dict->vals[k], *cur;

		if (key->k != VK_STR || !(cur = vdict_gets(kw, key->u.str.s)))
			return NULL;                    /* not a field: jsonargparse refuses it */
		if ((v->k != VK_NONE && !value_is_known_scalar(v)) ||
		    /* a kind the field's does not take (jsonargparse converts or
		     * refuses it by the annotation, not read here) */
		    (v->k != VK_NONE && cur->k != VK_NONE && value_is_known_scalar(cur) && cur->k != v->k &&
		     !(cur->k == VK_FLOAT && v->k == VK_INT))) {
			v = v_unknown(in->a, key->u.str.s,
			              afmt(in, "built by the command-line interface from %s (not followed)", from));
		} else {
			v = v_copy(in->a, v);
			if (!v->src)
				v->src = from;
			v->via = v->via == VIA_CONFIG_FILE ? VIA_CONFIG_FILE : VIA_OVERRIDE;
		}
		vdict_sets(in->a, kw, key->u.str.s, v);
	}
	cv = ast_arena_alloc(in->a, sizeof *cv);
	cv->k = VK_CLASS;
	cv->u.cls = c;
	return call(f, cv, NULL, 0, kw, site);
}

/* c, or a class it derives from (through the repository's classes), is
 * named `base` (its last dotted part) */
static int class_derives_from(const struct vclass *c, const char *base, int depth)
{
	size_t i;

	if (!c || depth > 32)
		return 0;
	if (!strcmp(c->name, base))
		return 1;
	for (i = 0; i < c->nbases; i++)
		if (c->bases[i] && c->bases[i]->k == VK_CLASS && class_derives_from(c->bases[i]->u.cls, base, depth + 1))
			return 1;
	return 0;
}

/* `data: TinyLlama` for a parameter annotated with a class
 * (`data: DataModule | None`): jsonargparse takes a class's name for a
 * subclass type and builds it with its defaults (class_path without
 * init_args).  The name is resolved as the function's module binds it
 * (the job imported the class there), and taken only when that class
 * derives from a class the annotation names; the object built, else NULL
 * (the parameter stays unknown). */
static value_t *cli_class_name(struct frame *f, struct vfunc *fn, const struct ast_arg *p, const value_t *v,
                               const struct ast_hdr *site)
{
	struct frame af = *f;
	const char *name = v->u.str.s, *dot = strrchr(name, '.'), *ann;
	value_t *c;
	const struct ast_hdr *ids[8];
	size_t nids = 0, i;
	const struct ast_hdr *stack[16];
	size_t ns = 0;

	if (!fn->globals || !p->annotation)
		return NULL;
	c = vdict_gets(fn->globals->dict, dot ? dot + 1 : name);
	if (!c || c->k != VK_CLASS)
		return NULL;
	if (dot && (!c->u.cls->qualname || strcmp(c->u.cls->qualname, dot + 1)))
		return NULL;
	/* the names the annotation holds: X, X | None, Optional[X], a.X */
	stack[ns++] = p->annotation;
	while (ns && nids < 8) {
		const struct ast_hdr *e = stack[--ns];

		if (AST_IS(e, Name) || AST_IS(e, Attribute))
			ids[nids++] = e;
		else if (AST_IS(e, BinOp) && ns + 2 <= 16) {
			stack[ns++] = AST_AS(e, BinOp)->left;
			stack[ns++] = AST_AS(e, BinOp)->right;
		} else if (AST_IS(e, Subscript) && ns + 1 <= 16)
			stack[ns++] = AST_AS(e, Subscript)->slice;
		else if (AST_IS(e, Tuple))
			for (i = 0; i < AST_AS(e, Tuple)->elts.n && ns < 16; i++)
				stack[ns++] = AST_AS(e, Tuple)->elts.items[i];
	}
	af.file = fn->file;
	for (i = 0; i < nids; i++) {
		const char *t = text_of(&af, ids[i]);
		const char *last = strrchr(t, '.');

		ann = last ? last + 1 : t;
		if (strcmp(ann, "None") && strcmp(ann, "Optional") && class_derives_from(c->u.cls, ann, 0))
			return call(f, c, NULL, 0, NULL, site);
	}
	return NULL;
}

/* The k-th (from 0) parameter of fn that jsonargparse's CLI reads as a
 * positional word: the positional-or-keyword parameters with no default,
 * in order (a method's self/cls is not one).  NULL when fn has no k-th. */
static const struct ast_arg *cli_positional(const struct vfunc *fn, size_t k)
{
	const struct ast_arguments *a = fn_args(fn->def);
	size_t npos, i;

	if (!a)
		return NULL;
	npos = a->posonlyargs.n + a->args.n;
	for (i = 0; i + a->defaults.n < npos; i++) {
		const struct ast_arg *p = AST_AS(i < a->posonlyargs.n ? a->posonlyargs.items[i]
		                                 : a->args.items[i - a->posonlyargs.n], arg);

		if (i == 0 && (!strcmp(p->arg, "self") || !strcmp(p->arg, "cls")))
			continue;
		if (k-- == 0)
			return p;
	}
	return NULL;
}

/* fire's bare words read per command line: more are not mapped (a
 * command line of a dozen positional values is not a job's) */
#define CLI_FIRE_MAX_BARE 16

/* The parameter of fn that python-fire fills with its k-th (from 0) bare
 * word: fire reads the --flags first, then gives the bare words to the
 * positional-or-keyword parameters that no flag named, in order, with or
 * without a default (a method's self/cls is not one).  NULL when fn has
 * no such parameter left. */
static const struct ast_arg *fire_positional(const struct vfunc *fn, const struct vdict *kw, size_t k)
{
	const struct ast_arguments *a = fn_args(fn->def);
	size_t npos, i;

	if (!a)
		return NULL;
	npos = a->posonlyargs.n + a->args.n;
	for (i = 0; i < npos; i++) {
		const struct ast_arg *p = AST_AS(i < a->posonlyargs.n ? a->posonlyargs.items[i]
		                                 : a->args.items[i - a->posonlyargs.n], arg);

		if (i == 0 && (!strcmp(p->arg, "self") || !strcmp(p->arg, "cls")))
			continue;
		if (vdict_gets(kw, p->arg))
			continue;
		if (k-- == 0)
			return p;
	}
	return NULL;
}

/* Does fn take **kwargs?  python-fire passes every --flag that names no
 * parameter of such a function into it (fire's _ParseKeywordArgs: a
 * keyword the function does not take goes to its **kwargs when it has
 * one), and refuses the flag otherwise. */
static int fire_dstar(const struct vfunc *fn)
{
	const struct ast_arguments *a = fn_args(fn->def);

	return a && a->kwarg;
}

/* Set parameter `name` of fn from the command line or a config file: as
 * read when its type is plain, a dataclass built from a mapping as
 * cli_dataclass() reads it, else unknown (the CLI builds it).  kw holds
 * what earlier words set. */
static void cli_set(struct frame *f, struct vfunc *fn, struct vdict *kw, const char *name, value_t *v,
                    const char *from, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct ast_arg *p = fn_param(fn, name);

	if (!p) {
		/* an option the function does not take: the CLI would refuse
		 * it, or it is a nested one (--train.epochs) */
		const char *dot = strchr(name, '.');

		if (dot) {
			const char *top = astr(in, afmt(in, "%.*s", (int)(dot - name), name));

			if (fn_param(fn, top))
				vdict_sets(in->a, kw, top,
				           v_unknown(in->a, top, afmt(in, "built by the command-line interface from %s "
				                                          "(not followed)", from)));
		}
		return;
	}
	if (v->k == VK_DICT && p->annotation) {
		struct frame af = *f;            /* the annotation is text of fn's file */
		value_t *cur = vdict_gets(kw, name), *built;

		af.file = fn->file;
		if (!cur)
			cur = fn_param_default(fn, p);
		if ((built = cli_dataclass(f, text_of(&af, p->annotation), cur, v, from, site))) {
			vdict_sets(in->a, kw, name, built);
			return;
		}
	}
	if (v->k == VK_STR && !cli_plain_type(f, fn, p)) {
		value_t *built = cli_class_name(f, fn, p, v, site);

		if (built) {
			vdict_sets(in->a, kw, name, built);
			return;
		}
	}
	if (v->k != VK_NONE && (!value_is_known_scalar(v) || !cli_plain_type(f, fn, p)))
		v = v_unknown(in->a, name, afmt(in, "built by the command-line interface from %s (not followed)", from));
	else {
		v = v_copy(in->a, v);
		if (!v->src)
			v->src = from;
		v->via = v->via == VIA_CONFIG_FILE ? VIA_CONFIG_FILE : VIA_OVERRIDE;
	}
	vdict_sets(in->a, kw, name, v);
}

/* The keyword arguments a command-line dispatcher passes to fn, read from
 * the job's command line from word `from` on: --name value, --name=value,
 * (jsonargparse) a bare word as the next parameter without a default
 * (cli_positional), and (jsonargparse) --config FILE read as the job's
 * configuration files are.  What cannot be read leaves a KW_UNK_DSTAR marker, so that no
 * parameter keeps its default while the command line may have set it. */
static struct vdict *cli_kwargs(struct frame *f, const char *d, struct vfunc *fn, size_t from,
                                const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vdict *kw = vdict_new(in->a);
	struct vseq *argv = in->argv ? in->argv->u.seq : NULL;
	int jap = !strncmp(d, "jsonargparse.", 13) || !strcmp(d, "CLI");
	int fire = !strcmp(d, "fire.Fire");
	size_t j, npositional = 0, nbare = 0;
	const char *bare[CLI_FIRE_MAX_BARE];

	if (!strncmp(d, "hydra.", 6)) {
		vdict_sets(in->a, kw, KW_UNK_DSTAR,
		           v_unknown(in->a, NULL, "hydra composes the configuration from its files (not read)"));
		return kw;
	}
	for (j = from; argv && j < argv->n; j++) {
		const char *w = argv->items[j]->u.str.s, *eq, *val = NULL;
		const char *name;

		if (strncmp(w, "--", 2) || !w[2]) {
			/* jsonargparse: a function's parameters without a
			 * default are its positional words, in order */
			const struct ast_arg *p = jap && w[0] != '-' ? cli_positional(fn, npositional++) : NULL;

			if (p) {
				cli_set(f, fn, kw, p->arg, cli_scalar(in, w), "the command line", site);
				continue;
			}
			/* fire: placed after the flags are read (below) */
			if (fire && w[0] != '-' && nbare < CLI_FIRE_MAX_BARE) {
				bare[nbare++] = w;
				continue;
			}
			vdict_sets(in->a, kw, KW_UNK_DSTAR,
			           v_unknown(in->a, w, afmt(in, "the command-line word '%s', which ecg does not map "
			                                        "to a parameter", w)));
			continue;
		}
		if ((eq = strchr(w, '='))) {
			name = afmt(in, "%.*s", (int)(eq - w - 2), w + 2);
			val = eq + 1;
		} else {
			name = w + 2;
			if (j + 1 < argv->n && strncmp(argv->items[j + 1]->u.str.s, "--", 2))
				val = argv->items[++j]->u.str.s;
		}
		{       /* --model-name is --model_name */
			char *n = (char *)afmt(in, "%s", name), *c;

			for (c = n; *c; c++)
				if (*c == '-')
					*c = '_';
			name = n;
		}
		if (jap && !strcmp(name, "config") && val) {
			value_t *cfg = load_config(f, "yaml.safe_load", v_str(in->a, val), site);
			size_t k;

			if (cfg->k != VK_DICT) {
				vdict_sets(in->a, kw, KW_UNK_DSTAR,
				           v_unknown(in->a, val, afmt(in, "the configuration file %s, not read: %s", val,
				                                      cfg->reason ? cfg->reason : "not a mapping")));
				continue;
			}
			for (k = 0; k < cfg->u.dict->n; k++)
				if (cfg->u.dict->keys[k]->k == VK_STR)
					cli_set(f, fn, kw, cfg->u.dict->keys[k]->u.str.s, cfg->u.dict->vals[k], astr(in, val),
					        site);
			continue;
		}
		if (fire && !fn_param(fn, name) && fire_dstar(fn)) {
			/* fire hands a flag the function does not name to
			 * its **kwargs, under the flag's name (dots kept:
			 * --fsdp_config.pure_bf16), with the value as read */
			value_t *v = v_copy(in->a, val ? cli_scalar(in, val) : v_bool(in->a, 1));

			if (!v->src)
				v->src = "the command line";
			v->via = VIA_OVERRIDE;
			vdict_sets(in->a, kw, name, v);
			continue;
		}
		cli_set(f, fn, kw, name, val ? cli_scalar(in, val) : v_bool(in->a, 1), "the command line", site);
	}
	/* fire's bare words, in order, to the parameters no flag named; the
	 * ones after those parameters are not mapped (a chained call's
	 * arguments, *args: not followed) */
	{
		const struct ast_arg *ps[CLI_FIRE_MAX_BARE];

		for (j = 0; j < nbare; j++)
			ps[j] = fire_positional(fn, kw, j);
		for (j = 0; j < nbare; j++) {
			if (ps[j])
				cli_set(f, fn, kw, ps[j]->arg, cli_scalar(in, bare[j]), "the command line", site);
			else
				vdict_sets(in->a, kw, KW_UNK_DSTAR,
				           v_unknown(in->a, bare[j], afmt(in, "the command-line word '%s', which ecg does "
				                                               "not map to a parameter", bare[j])));
		}
	}
	return kw;
}

/* The functions a framework's object hands back what it was given
 * (fabric.setup(model, opt), accelerator.prepare(model, opt, loader)),
 * by last name. */
static const char *const fw_setups[] = { "prepare", "prepare_model", "setup", "setup_module", "wrap" };

/* The command-line dispatchers that call the function they are given
 * (and Lightning's CLI, by last name). */
static const char *const fw_dispatchers[] = { "fire.Fire", "hydra.main", "jsonargparse.auto_cli", "typer.run" };

/* The backward functions of torch that take the loss. */
static const char *const fw_backwards[] = {
	"torch.autograd.backward",
	/* the engine call torch.autograd.backward makes (Megatron's
	 * custom_backward calls it directly, with tensors=(output,)) */
	"torch.autograd.variable.Variable._execution_engine.run_backward",
	"torch.distributed.autograd.backward"
};

const struct ntab fw_setups_ntab = NTAB(fw_setups), fw_dispatchers_ntab = NTAB(fw_dispatchers),
                  fw_backwards_ntab = NTAB(fw_backwards);

/* A command-line dispatcher (d, named by the job's code) calls the
 * function it is given with the job's arguments -- here, the function's
 * defaults; a dict of subcommands: the one the job's first argument
 * names.  NULL when no function is given. */
static value_t *fw_dispatch(struct frame *f, const char *d, value_t **args, size_t nargs,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	for (i = 0; i < nargs; i++) {
		if (args[i]->k == VK_FUNC)
			return call(f, args[i], NULL, 0, cli_kwargs(f, d, args[i]->u.fn, 0, site), site);
		/* {"pretrain": fn, ...}: the subcommand is the job's first argument */
		if (args[i]->k == VK_DICT && in->argv && in->argv->u.seq->n) {
			value_t *fn2 = vdict_get(args[i]->u.dict, in->argv->u.seq->items[0]);

			if (fn2 && fn2->k == VK_FUNC)
				return call(f, fn2, NULL, 0, cli_kwargs(f, d, fn2->u.fn, 1, site), site);
			if (fn2 && fn2->k == VK_BOUND && fn2->u.bound.fn->k == VK_FUNC)
				return call(f, fn2, NULL, 0,
				            cli_kwargs(f, d, fn2->u.bound.fn->u.fn, 1, site), site);
		}
	}
	return NULL;
}
/* What a framework's setup hands back: the one object it was given, or
 * all of them in a sequence of kind k (a tuple, a list), in order. */
static value_t *handed_back(struct interp *in, value_t **args, size_t nargs, enum vkind k)
{
	value_t *t;
	size_t i;

	if (nargs == 1)
		return args[0];
	t = v_seq(in->a, k, nargs);
	for (i = 0; i < nargs; i++)
		vseq_push(in->a, t->u.seq, args[i]);
	return t;
}


value_t *framework_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *op;

	/* fabric.backward(loss), accelerator.backward(loss), engine.backward(loss) */
	if (f->mode != M_FWD &&
	    ((!strcmp(last, "backward") && nargs >= 1 &&
	      (is_tensorish(args[0]) || catalog_fact(in->cat, CATALOG_F_FRAMEWORK_BACKWARDS, d))) ||
	     NAME_IN(fw_backwards, d))) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, afmt(in, "%s(loss)", text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)), site);
		gradhook_backward(f, site);   /* the job's hooks on its parameters */
		return v_none(in->a);
	}
	/* accelerator.gather(x), wait_for_everyone() ...: a collective when
	 * the invocation starts more than one process (catalog
	 * multi_process_collectives), whatever engine the model is handed to
	 * (multi_process_launched); gather and reduce give back a tensor
	 * where their argument lives (one process: the argument as it is) */
	if (f->mode != M_FWD && (op = catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_COLLECTIVES, d))) {
		struct sched_ev *e;

		if (multi_process_launched(in) > 1 &&
		    (e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site), site))) {
			e->op = op;
			e->async_op = 0;
			e->parallelism = "data";
		}
		if (strcmp(op, "barrier") && nargs >= 1 && args[0]->k == VK_TENSOR)
			return v_tensor_dev(in->a, args[0]->dev, 0);
		/* gather_for_metrics((preds, labels)): the same structure,
		 * each tensor where its argument lives */
		if (strcmp(op, "barrier") && nargs >= 1 && (args[0]->k == VK_TUPLE || args[0]->k == VK_LIST) &&
		    !args[0]->u.seq->unk_reason) {
			value_t *t = v_seq(in->a, args[0]->k, args[0]->u.seq->n);
			size_t i;

			for (i = 0; i < args[0]->u.seq->n; i++) {
				value_t *x = args[0]->u.seq->items[i];

				vseq_push(in->a, t->u.seq, x->k == VK_TENSOR ? v_tensor_dev(in->a, x->dev, 0)
				                                             : unknown_at(f, site, "a gathered value"));
			}
			return t;
		}
		if (!strcmp(op, "barrier") && nargs == 0 && !strcmp(last, "wait_for_everyone"))
			return v_none(in->a);
		return NULL;
	}
	if (f->mode != M_FWD && nargs >= 1 && !strcmp(last, "setup_optimizers"))
		return args[0];
	/* fabric.setup(model, opt), accelerator.prepare(model, opt, loader):
	 * framework wrappers hand back what they were given */
	if (f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	    NAME_IN(fw_setups, last)) {
		return handed_back(in, args, nargs, VK_TUPLE);
	}
	if (f->mode != M_FWD && (!strcmp(last, "CLI") || NAME_IN(fw_dispatchers, d)))
		return fw_dispatch(f, d, args, nargs, site);
	return NULL;
}

/* One tyro override word's value, converted as the field it replaces is
 * typed (the default's kind: a str field keeps "8" a string); a field
 * whose default says nothing (None, not known) reads it as YAML does. */
static value_t *tyro_value(struct interp *in, const value_t *cur, const char *s)
{
	long long i;
	double x;

	if (cur && cur->k == VK_STR)
		return v_str(in->a, s);

	if (cur && cur->k == VK_INT)
		return py_int_of_str(s, &i) ? v_int(in->a, i) : NULL;
	if (cur && cur->k == VK_FLOAT)
		return py_float_of_str(s, &x) ? v_float(in->a, x) : NULL;
	if (cur && cur->k == VK_BOOL) {
		if (!strcmp(s, "true") || !strcmp(s, "True"))
			return v_bool(in->a, 1);
		if (!strcmp(s, "false") || !strcmp(s, "False"))
			return v_bool(in->a, 0);
		return NULL;
	}
	return cli_scalar(in, s);
}

/* `--a.b.c` applied to the nested dataclass `root`: the instance that holds
 * the last name, or NULL when a step of the path is not an instance. */
static value_t *tyro_holder(struct frame *f, value_t *root, char *path, char **last,
                            const struct ast_hdr *site)
{
	char *dot, *p = path;
	value_t *o = root;

	for (char *c = path; *c; c++)
		if (*c == '-')
			*c = '_';
	while ((dot = strchr(p, '.')) != NULL) {
		*dot = 0;
		o = getattr_v(f, o, p, site);
		if (o->k != VK_INST)
			return NULL;
		p = dot + 1;
	}
	*last = p;
	return o->k == VK_INST ? o : NULL;
}

/* Cls() as tyro.cli(Cls) builds it before the command line is applied:
 * a repository dataclass every field of which has a default or a
 * default_factory (a required field comes from the command line alone).
 * NULL when Cls is not such a class. */
static value_t *tyro_default(struct frame *f, value_t *cls, const struct ast_hdr *site)
{
	value_t *fields;
	size_t i;

	if (!cls || cls->k != VK_CLASS || !cls->u.cls->is_dataclass || !(fields = dataclass_fields_call(f, cls)))
		return NULL;
	for (i = 0; i < fields->u.seq->n; i++) {
		const value_t *fo = fields->u.seq->items[i];
		const value_t *dv = vdict_gets(fo->u.inst->attrs, "default");
		const value_t *fac = vdict_gets(fo->u.inst->attrs, "default_factory");

		if (ext_is(dv, "dataclasses.MISSING") && ext_is(fac, "dataclasses.MISSING"))
			return NULL;
	}
	return call(f, cls, NULL, 0, NULL, site);
}

/* tyro.cli(Cls, args=ARGS, default=OBJ): OBJ with the overrides ARGS
 * names (`--section.key VALUE`, `--section.key=VALUE`, a bare boolean
 * `--section.flag` / `--section.no-flag`), ARGS the job's own (sys.argv)
 * when not given; without default=, OBJ is Cls() when every field of the
 * dataclass Cls has a default (tyro_default).  A word that is not such an
 * override, a path that is not OBJ's, or a value not known makes the
 * result not known (an override missed would leave a default that the run
 * does not use).  NULL when the call is not this. */
value_t *call_tyro_cli(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *def = kw ? vdict_gets(kw, "default") : NULL;
	value_t *av = kw ? vdict_gets(kw, "args") : NULL;
	size_t i, n;

	if (strcmp(d, "tyro.cli") || f->mode == M_FWD)
		return NULL;
	if (!def && nargs >= 1)
		def = tyro_default(f, args[0], site);
	if (!def || def->k != VK_INST)
		return unknown_at(f, site, "tyro.cli without a default object: the class is not built from the command line here");
	if (!av || av->k == VK_NONE)   /* the job's own words; none given: no words */
		av = in->argv ? in->argv : v_seq(in->a, VK_LIST, 0);
	if ((av->k != VK_LIST && av->k != VK_TUPLE) || av->u.seq->unk_reason)
		return unknown_at(f, site, "tyro.cli over arguments not known: its overrides are not followed");
	n = av->u.seq->n;
	for (i = 0; i < n; i++) {
		value_t *w = av->u.seq->items[i], *o, *cur, *val = NULL;
		char *path, *eq, *last;

		if (w->k != VK_STR || strncmp(w->u.str.s, "--", 2))
			return unknown_at(f, site, afmt(in, "tyro.cli: the argument %s is not an override ecg reads",
			                                w->k == VK_STR ? w->u.str.s : "not known"));
		path = xstrdup(w->u.str.s + 2);
		if ((eq = strchr(path, '=')) != NULL)
			*eq = 0;
		o = tyro_holder(f, def, path, &last, site);
		if (o) {
			cur = vdict_gets(o->u.inst->attrs, last);
			if (eq) {
				val = tyro_value(in, cur, eq + 1);
			} else if (i + 1 < n && av->u.seq->items[i + 1]->k == VK_STR &&
			           strncmp(av->u.seq->items[i + 1]->u.str.s, "--", 2)) {
				val = tyro_value(in, cur, av->u.seq->items[++i]->u.str.s);
			} else if (cur && cur->k == VK_BOOL) {
				val = v_bool(in->a, 1);
			} else if (!strncmp(last, "no_", 3) && (cur = vdict_gets(o->u.inst->attrs, last + 3)) &&
			           cur->k == VK_BOOL) {
				last += 3;
				val = v_bool(in->a, 0);
			}
			if (val && !vdict_gets(o->u.inst->attrs, last))
				val = NULL;
		}
		if (!o || !val) {
			value_t *r = unknown_at(f, site, afmt(in, "tyro.cli: the override %s is not one ecg can apply",
			                                      w->u.str.s));

			free(path);
			return r;
		}
		set_attr(f, o, astr(in, last), val);
		free(path);
	}
	return def;
}

/* ------------------------------------------------------------------ a library's training object
 *
 * accelerate's Accelerator read as catalog facts say (the library is
 * outside the repository; a repository's own accelerate is read as code):
 * its mixed precision (library_precisions), the optimizers it prepares
 * stepping through a GradScaler (grad_scaler_precisions), its
 * accumulation block (accumulation_contexts) and flag
 * (accumulation_step_flags), its state saving with the hooks registered
 * for it (state_savers).  The object keeps its constructor's keywords
 * (call.c); what it prepared is kept in its attributes under __ecg_ names. */

#define PREPARED_BY "__ecg_prepared_by__"
#define PREPARED_MODELS "__ecg_prepared_models__"
#define REGISTERED "__ecg_registered__:"

/* o: an object of a library class (not the repository's own) */
static struct vinst *lib_obj(const value_t *v)
{
	return v && v->k == VK_INST && !v->u.inst->cls && v->u.inst->ext && v->u.inst->mod == VM_NONE ? v->u.inst
	                                                                                               : NULL;
}

const char *framework_precision(struct interp *in, const value_t *obj)
{
	const struct vinst *o = lib_obj(obj);
	const char *fact, *eq, *kwn;
	const value_t *v, *ev;

	if (!o || !(fact = catalog_fact(in->cat, CATALOG_F_LIBRARY_PRECISIONS, o->ext)) || !(eq = strchr(fact, '=')))
		return NULL;
	if (!o->args || vdict_gets(o->args, KW_UNK_DSTAR) || vdict_gets(o->args, "__ecg_positional__"))
		return NULL;                  /* the keywords are not all known */
	kwn = afmt(in, "%.*s", (int)(eq - fact), fact);
	v = vdict_gets(o->args, kwn);
	if (v && v->k == VK_STR)
		return v->u.str.s;
	if (v && v->k != VK_NONE)
		return NULL;
	if (!env_complete(in))
		return NULL;                  /* the environment is not pinned */
	ev = vdict_gets(in->environ->u.dict, eq + 1);
	if (!ev)
		return "no";
	return ev->k == VK_STR && ev->u.str.len ? ev->u.str.s : NULL;
}

/* Does the precision word v scale the loss with a GradScaler: 1 (a word
 * of grad_scaler_precisions), 0 (another word), -1 (not a known word) */
static int scaler_word(struct interp *in, const value_t *v)
{
	if (!v || v->k != VK_STR)
		return -1;
	return catalog_fact(in->cat, CATALOG_F_GRAD_SCALER_PRECISIONS, v->u.str.s) ? 1 : 0;
}

/* The object's precision keyword given a value the code does not settle:
 * the condition under which its optimizers step through a GradScaler.
 * Two words an undecided `if` chose between (alts.c: lit-gpt's
 * get_default_supported_precision returns 'bf16-mixed' when the GPU
 * supports bfloat16, '16-mixed' otherwise): the side of the test whose
 * word scales ("" when both do); a value not known at all: that it is
 * such a word.  NULL when nothing is to be stated (the keyword not given
 * or known, neither word scaling, the keywords not all known).  The text
 * is allocated in the run's arena. */
static const char *precision_undecided(struct frame *f, const value_t *obj)
{
	struct interp *in = f->in;
	const struct vinst *o = lib_obj(obj);
	const char *fact, *eq, *kwn;
	const value_t *v;
	int s0, s1;

	if (!o || !(fact = catalog_fact(in->cat, CATALOG_F_LIBRARY_PRECISIONS, o->ext)) || !(eq = strchr(fact, '=')))
		return NULL;
	if (!o->args || vdict_gets(o->args, KW_UNK_DSTAR) || vdict_gets(o->args, "__ecg_positional__"))
		return NULL;
	kwn = afmt(in, "%.*s", (int)(eq - fact), fact);
	if (!(v = vdict_gets(o->args, kwn)) || v->k != VK_UNKNOWN)
		return NULL;
	if (!v->alts)
		return afmt(in, "%s=%s (not known here) is a precision that scales the loss with a GradScaler", kwn,
		            v->expr ? v->expr : "its value");
	if (!v->alt_cond || (s0 = scaler_word(in, v->alts[0])) < 0 || (s1 = scaler_word(in, v->alts[1])) < 0 ||
	    (!s0 && !s1))
		return NULL;
	if (s0 && s1)
		return "";
	return s0 ? v->alt_cond : afmt(in, "not (%s)", v->alt_cond);
}

value_t *framework_attr(struct frame *f, const value_t *obj, const char *name)
{
	struct interp *in = f->in;
	const struct vinst *o = lib_obj(obj);
	const char *fact, *eq, *p;

	if (!o || f->mode == M_FWD || !(fact = catalog_fact(in->cat, CATALOG_F_LIBRARY_PRECISIONS, o->ext)))
		return NULL;
	/* accelerator.scaler (library_grad_scalers): the torch GradScaler of
	 * a precision that scales the loss, on GPUs; None with another one */
	if ((p = catalog_fact(in->cat, CATALOG_F_LIBRARY_GRAD_SCALERS, o->ext)) && !strcmp(p, name)) {
		struct vinst *s;

		if (!(p = framework_precision(in, obj)))
			return NULL;
		if (!catalog_fact(in->cat, CATALOG_F_GRAD_SCALER_PRECISIONS, p))
			return v_none(in->a);
		if (multi_process_count(in) <= 1)
			return NULL;
		s = new_inst(in);
		s->ext = "torch.amp.GradScaler";
		vdict_sets(in->a, s->attrs, "enabled", v_bool(in->a, 1));
		return mk_inst_value(in, s);
	}
	if (!(eq = strchr(fact, '=')) || strncmp(fact, name, (size_t)(eq - fact)) || name[eq - fact])
		return NULL;
	p = framework_precision(in, obj);
	return p ? v_str(in->a, p) : NULL;
}

/* The accelerator's device is a GPU: sure when the invocation starts
 * several processes the library distributes over (MULTI_GPU); otherwise
 * the run-time answer of torch.cuda.is_available() (accelerate's state
 * chooses the device), a condition. */
static const char *lib_gpu_condition(struct interp *in)
{
	return multi_process_count(in) > 1 ? NULL : "the accelerator's device is a GPU (torch.cuda.is_available())";
}

/* The condition under which what the library places on its device with
 * one process lands on a GPU: NULL when the invocation starts several
 * (a GPU each, for sure) or when the library may not place anything
 * itself (multi_process_vetoed); else lib_gpu_condition's, decided at run
 * time.  Static storage. */
static const char *framework_one_process_gpu(struct interp *in)
{
	return multi_process_count(in) > 1 || multi_process_vetoed(in) ? NULL : lib_gpu_condition(in);
}

/* accelerator.device (catalog run_time_devices) of one process: the
 * library's run-time choice, a GPU under framework_one_process_gpu's
 * condition */
const char *framework_device_cond(struct interp *in, const value_t *v)
{
	const struct vinst *o = v && v->k == VK_EXT ? lib_obj(v->recv) : NULL;
	const char *attr, *one;
	const value_t *dp;
	size_t n;

	if (!o || !(attr = catalog_fact(in->cat, CATALOG_F_RUN_TIME_DEVICES, o->ext)))
		return NULL;
	n = strlen(o->ext);
	if (strncmp(v->u.ext, o->ext, n) || v->u.ext[n] != '.' || strcmp(v->u.ext + n + 1, attr))
		return NULL;
	if (!(one = framework_one_process_gpu(in)))
		return NULL;
	/* Accelerator(cpu=True), or a value not known there: no GPU said */
	if (o->args && (dp = vdict_gets(o->args, "cpu")) && value_truth(dp) != 0)
		return NULL;
	return one;
}

void framework_prepare_note(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = lib_obj(recv);
	const value_t *dp;
	const char *one;
	value_t *ml;
	size_t i;
	int gpus, moved = 0;

	/* fabric.setup_optimizers(opt), fabric.setup(model, opt): the
	 * optimizers step through the object's precision (framework_optimizer_step) */
	if (f->mode != M_FWD && o && catalog_fact(in->cat, CATALOG_F_PRECISION_OPTIMIZER_SETUPS, d) &&
	    catalog_fact(in->cat, CATALOG_F_LIBRARY_PRECISIONS, o->ext)) {
		for (i = 0; i < nargs; i++)
			if (is_optimizer(args[i]))
				vdict_sets(in->a, args[i]->u.inst->attrs, PREPARED_BY, (value_t *)recv);
		return;
	}
	if (f->mode == M_FWD || !o || !catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, d))
		return;
	/* several processes the library distributes over (MULTI_GPU): what
	 * it prepares lives on the GPUs; one process (the count pinned to 1
	 * or not given, in a complete environment with no veto): on the
	 * accelerator's device all the same, a GPU when CUDA is there */
	if ((gpus = multi_process_count(in) > 1))
		in->gpu = 1;
	one = gpus ? NULL : framework_one_process_gpu(in);
	/* Accelerator(cpu=True), or a value not known there: no GPU said */
	if (one && o->args && (dp = vdict_gets(o->args, "cpu")) && value_truth(dp) != 0)
		one = NULL;
	for (i = 0; i < nargs; i++) {
		/* its DataLoaders send each batch to that device (torch.c
		 * loader_batch): with one process, under `one` */
		if (one && is_loader(args[i]))
			vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_device_cond__", v_str(in->a, one));
		if (is_optimizer(args[i])) {
			vdict_sets(in->a, args[i]->u.inst->attrs, PREPARED_BY, (value_t *)recv);
		} else if ((args[i]->k == VK_INST && args[i]->u.inst->mod != VM_NONE) || libv_is_module(args[i])) {
			/* a model the job built, or a library's module ecg does
			 * not read (from_pretrained: libvalues.c), moved all the
			 * same */
			if (!(ml = vdict_gets(o->attrs, PREPARED_MODELS)) || ml->k != VK_LIST) {
				ml = v_seq(in->a, VK_LIST, 1);
				vdict_sets(in->a, o->attrs, PREPARED_MODELS, ml);
			}
			vseq_push(in->a, ml->u.seq, args[i]);
			/* prepare places the model on the accelerator's device
			 * (device_placement: on unless the constructor says
			 * otherwise), a GPU with several processes, under
			 * `one`'s condition with one: model.to(device), the
			 * model's own .to when its class overrides it; nothing
			 * moves when it is there already */
			if ((gpus || one) && o->args && !vdict_gets(o->args, KW_UNK_DSTAR) &&
			    !vdict_gets(o->args, "__ecg_positional__") &&
			    (!(dp = vdict_gets(o->args, "device_placement")) || value_truth(dp) == 1)) {
				const struct jctx *ojc = f->jc;
				value_t *to = getattr_v(f, args[i], "to", site);
				value_t *dev = getattr_v(f, (value_t *)recv, "device", site);

				if (one)
					f->jc = jc_push(f, JC_COND, anchor_at(f, site), one);
				(void)call(f, to, &dev, 1, NULL, site);
				f->jc = ojc;
				moved = 1;
			}
		}
	}
	/* the optimizers prepared with models it moved to the GPUs (several
	 * processes): their parameters are those models', moved in place --
	 * on the device from now on, so a host state loaded into one is
	 * cast there (torch.c optim_load_state) */
	for (i = 0; moved && gpus && i < nargs; i++)
		if (is_optimizer(args[i]))
			vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_params_dev__", v_int(in->a, DEV_DEVICE));
}

void framework_optimizer_step(struct frame *f, const struct vinst *m, const char *name, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *acc = m ? vdict_gets(m->attrs, PREPARED_BY) : NULL;
	const struct jctx *ojc = f->jc;
	const char *p, *cond;

	const char *maybe = NULL;

	if (f->mode == M_FWD || !acc || strcmp(name, "step"))
		return;
	if (!(p = framework_precision(in, acc)) && !(maybe = precision_undecided(f, acc)))
		return;
	if (p && !catalog_fact(in->cat, CATALOG_F_GRAD_SCALER_PRECISIONS, p))
		return;
	/* under the accumulation block the step acts on the micro-step that
	 * ends a step only (AcceleratedOptimizer.step checks sync_gradients) */
	if (jc_find(f->jc, JC_ACCUM))
		f->jc = jc_push(f, JC_STEP_END, anchor_at(f, site), "the micro-step that ends a step");
	if ((cond = lib_gpu_condition(in)))
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), cond);
	if (maybe && *maybe)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), maybe);
	sev(f, SEV_SYNC, afmt(in, "%s (the library precision's GradScaler.step reads found_inf with .item())",
	                      text_of(f, site)), site);
	f->jc = ojc;
}

/* The micro-steps one alternative of the fact gives: "KW" the constructor
 * keyword itself, "KW.ATTR" the keyword ATTR of the library object given
 * as KW (accelerate's gradient_accumulation_plugin=
 * GradientAccumulationPlugin(num_steps=N)).  0: KW not given; -1: given,
 * not known. */
static long long accum_alt(struct interp *in, const struct vinst *o, const char *alt, size_t n)
{
	const char *dot = memchr(alt, '.', n);
	const value_t *v = vdict_gets(o->args, afmt(in, "%.*s", (int)(dot ? (size_t)(dot - alt) : n), alt));
	const struct vinst *p;
	long long k;
	int ok = 0;

	if (!v)
		return 0;
	if (dot) {
		p = lib_obj(v);
		v = p && p->args ? vdict_gets(p->args, afmt(in, "%.*s", (int)(n - (size_t)(dot - alt) - 1), dot + 1)) : NULL;
		if (!v)
			return -1;
	}
	k = as_int((value_t *)v, &ok);
	return ok && k > 0 ? k : -1;
}

/* accumulate(model): the block's object, holding the micro-steps per
 * step (the first of the fact's '|'-separated alternatives given; 1 when
 * none is, -1 when not known) */
static value_t *lib_accumulate(struct frame *f, const char *d, const struct vinst *o, const char *fact)
{
	struct interp *in = f->in;
	struct vinst *c = new_inst(in);
	long long n = 0;

	while (o->args && *fact && !n) {
		size_t k = strcspn(fact, "|");

		n = accum_alt(in, o, fact, k);
		fact += k + (fact[k] == '|');
	}
	if (!n)
		n = o->args && !vdict_gets(o->args, KW_UNK_DSTAR) && !vdict_gets(o->args, "__ecg_positional__") ? 1 : -1;
	c->ext = d;
	vdict_sets(in->a, c->attrs, "micro_steps", v_int(in->a, n));
	return mk_inst_value(in, c);
}

long long framework_accumulation(struct interp *in, const value_t *cv)
{
	const value_t *n;

	if (!cv || cv->k != VK_INST || !cv->u.inst->ext || cv->u.inst->cls ||
	    !catalog_fact(in->cat, CATALOG_F_ACCUMULATION_CONTEXTS, cv->u.inst->ext) ||
	    !(n = vdict_gets(cv->u.inst->attrs, "micro_steps")) || n->k != VK_INT)
		return 0;
	return n->u.i;
}

int framework_step_flag(struct interp *in, const value_t *v)
{
	return v && v->k == VK_EXT && v->recv && lib_obj(v->recv) &&
	       catalog_fact(in->cat, CATALOG_F_ACCUMULATION_STEP_FLAGS, v->u.ext);
}

/* save_state(dir): the hooks registered for it, as hook(models, weights,
 * dir) (the prepared models, a state dict each), then the library's
 * torch.save of the prepared states: device tensors copied to the host */
static value_t *lib_save_state(struct frame *f, const char *reg, const struct vinst *o, value_t **args, size_t nargs,
                               const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *hooks = vdict_gets(o->attrs, afmt(in, REGISTERED "%s", reg));
	value_t *ml = vdict_gets(o->attrs, PREPARED_MODELS);
	size_t i, k;

	for (i = 0; hooks && hooks->k == VK_LIST && i < hooks->u.seq->n; i++) {
		value_t *models = v_seq(in->a, VK_LIST, 1), *weights = v_seq(in->a, VK_LIST, 1), *hargs[3];

		for (k = 0; ml && ml->k == VK_LIST && k < ml->u.seq->n; k++) {
			vseq_push(in->a, models->u.seq, ml->u.seq->items[k]);
			vseq_push(in->a, weights->u.seq, v_unknown(in->a, NULL, "a prepared model's state dict"));
		}
		hargs[0] = models;
		hargs[1] = weights;
		hargs[2] = nargs >= 1 ? args[0] : v_unknown(in->a, NULL, "the output directory");
		(void)call(f, hooks->u.seq->items[i], hargs, 3, NULL, site);
	}
	sev(f, SEV_SAVE, text_of(f, site), site);
	if (in->gpu)
		sev(f, SEV_SYNC, afmt(in, "%s (torch.save of the prepared device states)", text_of(f, site)), site);
	return v_none(in->a);
}

value_t *framework_lib_call(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args,
                            size_t nargs, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *o = lib_obj(recv);
	const char *fact;

	if (f->mode == M_FWD || !o)
		return NULL;
	if ((fact = catalog_fact(in->cat, CATALOG_F_ACCUMULATION_CONTEXTS, d)))
		return lib_accumulate(f, d, o, fact);
	if ((fact = catalog_fact(in->cat, CATALOG_F_STATE_SAVERS, d)))
		return lib_save_state(f, fact, o, args, nargs, site);
	/* obj.register_*(fn): the function kept for the method that calls it */
	if (!strncmp(last, "register_", 9) && nargs >= 1 && (args[0]->k == VK_FUNC || args[0]->k == VK_BOUND)) {
		const char *key = afmt(in, REGISTERED "%s", last);
		value_t *l = vdict_gets(o->attrs, key);

		if (!l || l->k != VK_LIST) {
			l = v_seq(in->a, VK_LIST, 1);
			vdict_sets(in->a, o->attrs, key, l);
		}
		vseq_push(in->a, l->u.seq, args[0]);
		return unknown_at(f, site, "a hook's handle");
	}
	return NULL;
}

/* ------------------------------------------------------------------ a library object that launches the processes
 *
 * Lightning Fabric read as catalog facts say (launcher_objects: the
 * library is outside the repository): how many processes it starts
 * (devices x num_nodes of its constructor, each overridable by the
 * environment), its strategy (launcher_strategies: a name or a strategy
 * object and that object's keywords), the collectives of its methods
 * with more than one process (multi_process_collectives), its setup's
 * wrap of the model in the strategy's torch wrapper (launcher_wraps), a
 * wrapper method it calls (launcher_wrapper_methods), its block that
 * skips the gradient sync (sync_skip_contexts) and its save
 * (launcher_saves, strategy_saves).  What the code and the invocation do
 * not pin down is not stated. */

#define SYNC_SKIP "__ecg_sync_skip__"
#define SYNC_SKIP_VARIES "__ecg_sync_skip_varies__"

/* Is the skip's keyword kwn (or the second positional argument) of the
 * call at site written as a constant (enabled=True)? */
static int sync_skip_literal(const struct ast_hdr *site, const char *kwn, size_t nargs)
{
	const struct ast_Call *c;
	unsigned i;

	if (!site || !AST_IS(site, Call))
		return 0;
	c = AST_AS(site, Call);
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);

		if (k->arg && !strcmp(k->arg, kwn))
			return AST_IS(k->value, Constant);
	}
	return nargs >= 2 && c->args.n >= 2 && AST_IS(c->args.items[1], Constant);
}

struct launcher {
	char kw[3][64];          /* the devices, nodes and strategy keywords */
	char prefix[32];         /* the environment override prefix */
};

/* o's launcher fact read into *l; 0 when o is none (or the fact is not
 * of the form the catalogue documents). */
static int launcher_of(struct interp *in, const struct vinst *o, struct launcher *l)
{
	const char *fact = o && o->ext ? catalog_fact(in->cat, CATALOG_F_LAUNCHER_OBJECTS, o->ext) : NULL;
	const char *p = fact, *c;
	int i;

	if (!fact)
		return 0;
	for (i = 0; i < 4; i++) {
		size_t n, cap = i < 3 ? sizeof l->kw[0] : sizeof l->prefix;

		c = strchr(p, ',');
		n = c ? (size_t)(c - p) : strlen(p);
		if ((i < 3 && !c) || (i == 3 && c) || n >= cap)
			return 0;
		memcpy(i < 3 ? l->kw[i] : l->prefix, p, n);
		(i < 3 ? l->kw[i] : l->prefix)[n] = 0;
		p = c ? c + 1 : p + n;
	}
	return 1;
}

/* The value the launcher reads for its keyword kw: the environment's
 * override when set, else the constructor's keyword (NULL: not given, the
 * default).  *known 0 when it cannot be told: the environment is not
 * pinned (an override may be set), or the constructor's keywords are not
 * all known. */
static const value_t *launcher_arg(struct interp *in, const struct vinst *o, const struct launcher *l, const char *kw,
                                   int *known)
{
	const value_t *ev;
	char var[128];
	size_t i;

	*known = 0;
	if (!o->args || vdict_gets(o->args, KW_UNK_DSTAR) || vdict_gets(o->args, "__ecg_positional__") ||
	    !env_complete(in))
		return NULL;
	if (snprintf(var, sizeof var, "%s%s", l->prefix, kw) >= (int)sizeof var)
		return NULL;
	for (i = 0; var[i]; i++)
		var[i] = (char)toupper((unsigned char)var[i]);
	*known = 1;
	if ((ev = vdict_gets(in->environ->u.dict, var)))
		return ev;
	return vdict_gets(o->args, kw);
}

/* A count of devices or nodes as the launcher parses it: an int > 0, a
 * string of digits, a list or tuple of known length (the device ids);
 * dflt when v is NULL (not given); 0 when not known ('auto', -1: the
 * machine's). */
static long long launcher_count(const value_t *v, long long dflt)
{
	char *end;
	long long n;

	if (!v)
		return dflt;
	if (v->k == VK_INT)
		return v->u.i > 0 ? v->u.i : 0;
	if (v->k == VK_STR && v->u.str.len && v->u.str.s[0] >= '0' && v->u.str.s[0] <= '9') {
		n = strtoll(v->u.str.s, &end, 10);
		return !*end && n > 0 ? n : 0;
	}
	if ((v->k == VK_LIST || v->k == VK_TUPLE) && !v->u.seq->unk_reason)
		return (long long)v->u.seq->n;
	return 0;
}

/* The launcher object of v (a library object with a launcher fact), or
 * NULL. */
static const struct vinst *launcher_obj(struct interp *in, const value_t *v, struct launcher *l)
{
	const struct vinst *o = lib_obj(v);

	return o && launcher_of(in, o, l) ? o : NULL;
}

/* How many processes the launcher object starts: 0 when not known. */
static long long launcher_processes(struct interp *in, const struct vinst *o, const struct launcher *l)
{
	int k1, k2;
	const value_t *dv = launcher_arg(in, o, l, l->kw[0], &k1), *nv = launcher_arg(in, o, l, l->kw[1], &k2);
	long long d = launcher_count(dv, 0), n = launcher_count(nv, 1);

	return k1 && k2 ? runs_times(d, n) > 0 && d && n ? d * n : 0 : 0;
}

/* The launcher's strategy: the torch wrapper its setup uses ("" none said),
 * or NULL when it is not known or not one of launcher_strategies; *kw the
 * strategy object's keywords (an empty dict for a named strategy, whose
 * defaults are the wrapper's). */
static const char *launcher_strategy(struct interp *in, const struct vinst *o, const struct launcher *l,
                                     struct vdict **kw)
{
	int known;
	const value_t *s = launcher_arg(in, o, l, l->kw[2], &known);
	const struct vinst *so;

	*kw = NULL;
	if (!known)
		return NULL;
	if (!s || s->k == VK_STR) {
		char name[64];
		size_t i;
		const char *src = s ? s->u.str.s : "auto";

		if (strlen(src) >= sizeof name)
			return NULL;
		for (i = 0; src[i]; i++)
			name[i] = (char)tolower((unsigned char)src[i]);
		name[i] = 0;
		*kw = vdict_new(in->a);
		return catalog_fact(in->cat, CATALOG_F_LAUNCHER_STRATEGIES, name);
	}
	if (!(so = lib_obj(s)) || !so->args || vdict_gets(so->args, KW_UNK_DSTAR) ||
	    vdict_gets(so->args, "__ecg_positional__"))
		return NULL;
	*kw = so->args;
	return catalog_fact(in->cat, CATALOG_F_LAUNCHER_STRATEGIES, so->ext);
}

/* The processes of v's launcher when it runs more than one under a
 * strategy of launcher_strategies (*wrapper: its wrapper, *kw its
 * keywords); 0 otherwise (one process, or not known). */
static long long launcher_parallel(struct interp *in, const struct vinst *o, const struct launcher *l,
                                   const char **wrapper, struct vdict **kw)
{
	long long n = launcher_processes(in, o, l);

	if (n <= 1 || !(*wrapper = launcher_strategy(in, o, l, kw)))
		return 0;
	return n;
}

/* A collective event of the launcher's, at the call. */
static struct sched_ev *launcher_coll(struct frame *f, const char *op, int async_op, const char *implied,
                                      const struct ast_hdr *site)
{
	struct sched_ev *e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site),
	                         site);

	if (e) {
		e->op = op;
		e->async_op = async_op;
		e->parallelism = "data";
		e->implied_by = implied;
	}
	return e;
}

/* save(path, state) under a strategy of strategy_saves: its collective of
 * the path, then (with the state-dict type that gathers) the wrapped
 * model's state dict gathered and copied to the host. */
static void launcher_strategy_save(struct frame *f, const char *wrapper, struct vdict *skw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *word = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, wrapper);
	const char *fact = word ? catalog_fact(in->cat, CATALOG_F_STRATEGY_SAVES, word) : NULL;
	const char *eq, *c1, *c2, *gop;
	const value_t *v;
	char kwn[64], dflt[64], want[64];

	if (!fact || !(eq = strchr(fact, '=')) || !(c1 = strchr(eq, ':')) || !(c2 = strchr(c1 + 1, ':')) ||
	    (size_t)(eq - fact) >= sizeof kwn || (size_t)(c1 - eq - 1) >= sizeof dflt ||
	    (size_t)(c2 - c1 - 1) >= sizeof want)
		return;
	snprintf(kwn, sizeof kwn, "%.*s", (int)(eq - fact), fact);
	snprintf(dflt, sizeof dflt, "%.*s", (int)(c1 - eq - 1), eq + 1);
	snprintf(want, sizeof want, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	(void)launcher_coll(f, astr(in, c2 + 1), 0, NULL, site);
	/* that collective of Python objects over the strategy's group: NCCL
	 * unless its process_group_backend says another (the strategy runs
	 * on GPUs), so the pickled objects are copied to the device and
	 * their sizes read on the host (catalog object_collectives) */
	v = vdict_gets(skw, "process_group_backend");
	if (catalog_fact(in->cat, CATALOG_F_OBJECT_COLLECTIVES, c2 + 1) &&
	    (!v || v->k == VK_NONE || (v->k == VK_STR && !strcmp(v->u.str.s, "nccl"))))
		object_collective_nccl(f, c2 + 1, site);
	v = vdict_gets(skw, kwn);
	if (!(v ? v->k == VK_STR && !strcmp(v->u.str.s, want) : !strcmp(dflt, want)) ||
	    !(gop = catalog_fact(in->cat, CATALOG_F_FSDP_STATE_DICT, word)))
		return;
	(void)launcher_coll(f, gop, -1, word, site);
	sev(f, SEV_SYNC, afmt(in, "%s (the full state dict copied to the host)", text_of(f, site)), site);
}

/* Does the launcher's device sit on a GPU (launcher_devices): its
 * accelerator keyword (or the environment's override) names one, or its
 * strategy's wrapper runs on GPUs only.  0 when not known. */
static int launcher_gpu(struct interp *in, const struct vinst *o, const struct launcher *l)
{
	const char *fact = catalog_fact(in->cat, CATALOG_F_LAUNCHER_DEVICES, o->ext), *eq, *w, *p;
	const value_t *acc;
	struct vdict *skw;
	char kwn[64];
	int known;

	if (!fact || !(eq = strchr(fact, '=')) || (size_t)(eq - fact) >= sizeof kwn)
		return 0;
	snprintf(kwn, sizeof kwn, "%.*s", (int)(eq - fact), fact);
	acc = launcher_arg(in, o, l, kwn, &known);
	w = launcher_strategy(in, o, l, &skw);
	for (p = eq + 1; *p;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (known && acc && acc->k == VK_STR && acc->u.str.len == n && !strncmp(acc->u.str.s, p, n))
			return 1;
		if (w && strlen(w) == n && !strncmp(w, p, n))
			return 1;
		p += n + (bar != NULL);
	}
	return 0;
}

value_t *framework_launcher_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs,
                                 struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct launcher l;
	const struct vinst *o;
	const char *op, *wrapper = NULL, *fact;
	struct vdict *skw = NULL;
	long long n;

	if (f->mode == M_FWD || !(o = launcher_obj(in, recv, &l)))
		return NULL;
	n = launcher_parallel(in, o, &l, &wrapper, &skw);
	/* barrier, rank_zero_first, all_reduce ...: with more than one process */
	if ((op = catalog_fact(in->cat, CATALOG_F_MULTI_PROCESS_COLLECTIVES, d))) {
		if (n > 1)
			(void)launcher_coll(f, op, 0, NULL, site);
		if (!strcmp(op, "barrier"))
			return !strcmp(short_ext(d), "barrier") ? v_none(in->a)
			                                         : unknown_at(f, site, "the library's context manager");
		if (nargs >= 1 && args[0]->k == VK_TENSOR)
			return v_tensor_dev(in->a, args[0]->dev, 0);
		return unknown_at(f, site, afmt(in, "what %s hands back", d));
	}
	/* setup(model, ...): the model wrapped in the strategy's wrapper */
	if (catalog_fact(in->cat, CATALOG_F_LAUNCHER_WRAPS, d) && nargs >= 1 && args[0]->k == VK_INST &&
	    args[0]->u.inst->mod != VM_NONE) {
		value_t *w = args[0], *t;
		size_t i;

		if (n > 1 && *wrapper) {
			in->launch_procs = n;      /* the wrap spans the launcher's processes */
			w = torch_ext_call(f, wrapper, short_ext(wrapper), args, 1, skw, site, 0);
			in->launch_procs = 0;
		}
		if (!w)
			w = args[0];
		if (nargs == 1)
			return w;
		t = v_seq(in->a, VK_TUPLE, nargs);
		vseq_push(in->a, t->u.seq, w);
		for (i = 1; i < nargs; i++)
			vseq_push(in->a, t->u.seq, args[i]);
		return t;
	}
	/* clip_gradients(model, optimizer, max_norm=...): the wrapper's method */
	if ((fact = catalog_fact(in->cat, CATALOG_F_LAUNCHER_WRAPPER_METHODS, d))) {
		const char *colon = strchr(fact, ':');
		const value_t *kv;
		const char *word;

		if (!colon || nargs < 1)
			return NULL;
		kv = kw ? vdict_gets(kw, afmt(in, "%.*s", (int)(colon - fact), fact)) : NULL;
		if (n > 1 && *wrapper && kv && kv->k != VK_NONE &&
		    (word = catalog_fact_match(in->cat, CATALOG_F_PARALLEL_WRAPPERS, wrapper)))
			return wrapper_method_call(f, afmt(in, "%s.%s", word, colon + 1), args[0], site);
		return NULL;
	}
	/* no_backward_sync(model, enabled=...): the block's object, its flag kept */
	if ((fact = catalog_fact(in->cat, CATALOG_F_SYNC_SKIP_CONTEXTS, d))) {
		struct vinst *c = new_inst(in);
		value_t *en = kw ? vdict_gets(kw, fact) : NULL;

		if (!en && nargs >= 2)
			en = args[1];
		c->ext = d;
		vdict_sets(in->a, c->attrs, SYNC_SKIP, en ? en : v_bool(in->a, 1));
		/* a value computed in a loop read once for all its iterations
		 * (is_accumulating = iter_num % n != 0): the first iteration's,
		 * not every one's -- not known, unless written as a constant */
		if (en && f->carry && !sync_skip_literal(site, fact, nargs))
			vdict_sets(in->a, c->attrs, SYNC_SKIP_VARIES, v_bool(in->a, 1));
		return mk_inst_value(in, c);
	}
	/* setup_dataloaders(*loaders): each sends its batches to the device
	 * (a GPU: non_blocking); to_device(x): x copied there */
	if ((fact = catalog_fact(in->cat, CATALOG_F_LAUNCHER_LOADERS, d))) {
		int gpu = launcher_gpu(in, o, &l);
		const value_t *mv = *fact && kw ? vdict_gets(kw, fact) : NULL;
		value_t *r;
		size_t i;

		if (!*fact) {
			struct sched_ev *e;

			if (!gpu || nargs != 1 || args[0]->k != VK_TENSOR)
				return NULL;
			in->gpu = 1;
			if (args[0]->dev == DEV_HOST &&
			    (e = sev(f, SEV_H2D, afmt(in, "%s (moved to the device)", text_of(f, site)), site))) {
				e->non_blocking = 1;
				e->pinned = pin_state(args[0]->pinned);
			}
			r = v_copy(in->a, args[0]);
			r->dev = DEV_DEVICE;
			r->pinned = 0;
			return r;
		}
		for (i = 0; gpu && (!mv || value_truth(mv) == 1) && i < nargs; i++) {
			/* a loader ecg does not know (a data module's, built
			 * where the reading did not go): the wrapper the
			 * method hands back is a loader all the same, each
			 * batch moved to the device; how it pins is not known */
			if (args[i]->k == VK_UNKNOWN && !args[i]->alts) {
				struct vinst *w = new_inst(in);

				w->ext = afmt(in, "%s: a DataLoader not known", d);
				w->args = vdict_new(in->a);
				vdict_sets(in->a, w->attrs, "__ecg_wraps_unknown_loader__", v_bool(in->a, 1));
				args[i] = mk_inst_value(in, w);
			}
			if (is_loader(args[i])) {
				in->gpu = 1;
				vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_to_device__", v_bool(in->a, 1));
				vdict_sets(in->a, args[i]->u.inst->attrs, "__ecg_non_blocking__", v_bool(in->a, 1));
			}
		}
		return handed_back(in, args, nargs, VK_LIST);
	}
	/* save(path, state): the strategy's save, then the collective it ends with */
	if ((op = catalog_fact(in->cat, CATALOG_F_LAUNCHER_SAVES, d))) {
		sev(f, SEV_SAVE, text_of(f, site), site);
		if (n > 1) {
			if (*wrapper)
				launcher_strategy_save(f, wrapper, skw, site);
			(void)launcher_coll(f, op, 0, NULL, site);
		}
		return v_none(in->a);
	}
	return NULL;
}

int framework_sync_skip(struct interp *in, const value_t *cv, const value_t **flag)
{
	const value_t *en;
	int t;

	*flag = NULL;
	if (!cv || cv->k != VK_INST || cv->u.inst->cls || !cv->u.inst->ext ||
	    !catalog_fact(in->cat, CATALOG_F_SYNC_SKIP_CONTEXTS, cv->u.inst->ext) ||
	    !(en = vdict_gets(cv->u.inst->attrs, SYNC_SKIP)))
		return 0;
	t = vdict_gets(cv->u.inst->attrs, SYNC_SKIP_VARIES) ? -1 : value_truth(en);
	if (t == 1)
		return 1;
	if (t == 0)
		return 0;
	*flag = en;
	return 2;
}

int framework_step_end_test(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_UnaryOp *u;

	if (f->mode == M_FWD || !f->in->accum_flag || !AST_IS(test, UnaryOp))
		return 0;
	u = AST_AS(test, UnaryOp);
	return u->op == AST_UNARY_NOT && AST_IS(u->operand, Name) &&
	       lookup(f, AST_AS(u->operand, Name)->id) == f->in->accum_flag;
}
