/* interp/stdlib.c - the standard library functions the analysis reads exactly
 *
 * copy.deepcopy (deepcopy_value), math.* on known numbers (math_call),
 * ast.literal_eval, and configuration files (json, tomllib, yaml) read
 * through the job's loader into values (load_config, from_json).  What
 * cannot be read exactly is an unknown with its reason.
 */
#include "config.h"

#include <ctype.h>

#include "internal.h"

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

value_t *math_call(struct frame *f, const char *name, value_t **args, size_t nargs,
                   const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x, y;

	if (nargs >= 1 && as_num(args[0], &x)) {
		if (!strcmp(name, "sqrt") && x >= 0)
			return v_float(in->a, sqrt(x));
		if (!strcmp(name, "log") && x > 0)
			return nargs >= 2 && as_num(args[1], &y) && y > 0 && y != 1 ? v_float(in->a, log(x) / log(y))
			                                                             : v_float(in->a, log(x));
		if (!strcmp(name, "log2") && x > 0)
			return v_float(in->a, log2(x));
		if (!strcmp(name, "exp"))
			return v_float(in->a, exp(x));
		if (!strcmp(name, "ceil") && fabs(x) < 9e15)
			return v_int(in->a, (long long)ceil(x));
		if (!strcmp(name, "floor") && fabs(x) < 9e15)
			return v_int(in->a, (long long)floor(x));
		if (!strcmp(name, "pow") && nargs >= 2 && as_num(args[1], &y))
			return v_float(in->a, pow(x, y));
	}
	return unknown_at(f, site, "a math function of a value that is not known");
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
	j = in->load(in->load_ctx, path, in->prog->entry_dir, &why);
	if (!j) {
		note(in, anchor_at(f, site), afmt(in, "configuration file '%s'", path), why ? why : "not read");
		return unknown_at(f, site, why ? why : "a configuration file ecg could not read");
	}
	v = from_json(in, j, astr(in, path), 0);
	cJSON_Delete(j);
	return v;
}

/* A module attribute the analysis answers itself (mod is an external's
 * dotted name): sys.argv (the entry script, then the job's arguments) and
 * os.environ (an object whose get/setdefault are dict.get's; the mapping
 * itself when interp_set_env_unset() made it known).  NULL for
 * any other: the caller makes it a longer dotted name. */
value_t *stdlib_attr(struct interp *in, const char *mod, const char *name)
{
	if (!strcmp(mod, "sys") && !strcmp(name, "argv")) {
		value_t *r = v_seq(in->a, VK_LIST, 0);
		size_t i;

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
	return NULL;
}

/* A call of the standard library read exactly (d: the external's canonical
 * dotted name): itertools.repeat, functools.partial, ast.literal_eval,
 * os.path's string functions, json/toml/yaml loads (load_config),
 * copy.deepcopy, math.*, OrderedDict.  NULL when d is not one of them or
 * its arguments do not fit: call_ext() goes on with its other rules. */
/* Configuration objects that are dicts read by attribute: a dict value
 * (attr.c reads cfg.x as cfg["x"], set_attr writes it). */
static const char *const attr_dicts[] = {
	"ml_collections.ConfigDict", "ml_collections.config_dict.ConfigDict",
	"ml_collections.config_dict.config_dict.ConfigDict", "easydict.EasyDict", "addict.Dict",
	"types.SimpleNamespace", "munch.Munch", "box.Box", "omegaconf.OmegaConf.create", NULL
};

value_t *stdlib_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	for (i = 0; attr_dicts[i]; i++)
		if (!strcmp(d, attr_dicts[i]))
			break;
	if (attr_dicts[i]) {
		value_t *r = v_dict(in->a);

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

	/* os.getenv(k, default) when the job's variables are unset */
	if (!strcmp(d, "os.getenv") && in->environ && nargs >= 1 && args[0]->k == VK_STR) {
		value_t *v = vdict_get(in->environ->u.dict, args[0]);

		return v ? v : nargs >= 2 ? args[1] : kw && vdict_gets(kw, "default") ? vdict_gets(kw, "default")
		                                                                   : v_none(in->a);
	}
	/* itertools.repeat(x, n) with n known: n times x */
	if (!strcmp(d, "itertools.repeat") && nargs == 2 && args[1]->k == VK_INT && args[1]->u.i >= 0 &&
	    args[1]->u.i <= MAX_UNROLL) {
		value_t *r = v_seq(in->a, VK_TUPLE, (size_t)args[1]->u.i);
		long long k;

		for (k = 0; k < args[1]->u.i; k++)
			vseq_push(in->a, r->u.seq, args[0]);
		return r;
	}
	if (!strcmp(d, "functools.partial") && nargs >= 1) {
		struct vinst *p = new_inst(in);
		value_t *pa = v_seq(in->a, VK_LIST, 0), *pk = v_dict(in->a);

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
	if (!strcmp(d, "ast.literal_eval") && nargs == 1 && args[0]->k == VK_STR)
		return literal_eval(f, args[0]->u.str.s, site);
	if (!strcmp(d, "os.path.dirname") || !strcmp(d, "os.path.basename")) {
		if (nargs == 1 && args[0]->k == VK_STR) {
			const char *p = args[0]->u.str.s, *sl = strrchr(p, '/');

			if (!strcmp(d, "os.path.dirname"))
				return sl ? v_strn(in->a, p, (size_t)(sl - p)) : v_str(in->a, "");
			return v_str(in->a, sl ? sl + 1 : p);
		}
		return unknown_at(f, site, "a path not known");
	}
	if ((!strcmp(d, "os.path.abspath") || !strcmp(d, "os.path.realpath") || !strcmp(d, "os.path.expanduser") ||
	     !strcmp(d, "os.path.normpath")) && nargs == 1 && args[0]->k == VK_STR)
		return args[0];
	if (!strcmp(d, "json.load") || !strcmp(d, "json.loads") || !strcmp(d, "tomllib.load") ||
	    !strcmp(d, "tomllib.loads") || !strcmp(d, "toml.load") || !strcmp(d, "tomli.load") ||
	    !strcmp(d, "yaml.safe_load") || !strcmp(d, "yaml.load") || !strcmp(d, "yaml.full_load") ||
	    !strcmp(d, "omegaconf.OmegaConf.load"))
		return load_config(f, d, nargs ? args[0] : NULL, site);
	if (!strcmp(d, "copy.deepcopy") && nargs == 1)
		return deepcopy_value(in, args[0], 0);
	if (!strncmp(d, "math.", 5))
		return math_call(f, d + 5, args, nargs, site);
	if (!strcmp(d, "collections.defaultdict") && nargs <= 1) {
		/* defaultdict(list): a dict whose missing keys the factory fills
		 * (a trainer's callbacks[event].append(fn)) */
		value_t *r = v_dict(in->a);

		if (nargs == 1 && (args[0]->k == VK_BUILTIN || args[0]->k == VK_FUNC || args[0]->k == VK_CLASS))
			r->u.dict->missing = args[0];
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	if ((!strcmp(d, "collections.OrderedDict") || !strcmp(d, "OrderedDict"))) {
		value_t *r = v_dict(in->a);
		struct vseq *items = NULL;

		if (nargs == 1 && args[0]->k == VK_DICT)
			return args[0];
		if (nargs == 1 && iter_items(f, args[0], &items) == NULL && items) {
			for (i = 0; i < items->n; i++) {
				value_t *p = items->items[i];

				if ((p->k == VK_TUPLE || p->k == VK_LIST) && p->u.seq->n == 2)
					vdict_set(in->a, r->u.dict, p->u.seq->items[0], p->u.seq->items[1]);
			}
		}
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	if (!strcmp(d, "os.path.join")) {
		buf_t b;
		value_t *r;

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
	return NULL;
}
