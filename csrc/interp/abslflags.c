/* interp/abslflags.c - absl's flags and app.run, ml_collections' config files
 *
 *     from absl import app, flags
 *     from ml_collections.config_flags import config_flags
 *     FLAGS = flags.FLAGS
 *     config_flags.DEFINE_config_file("config", None, "...")
 *     flags.DEFINE_enum("mode", None, ["train", "eval"], "...")
 *     flags.DEFINE_string("workdir", None, "...")
 *     def main(argv): run(FLAGS.config, FLAGS.workdir)
 *     app.run(main)
 *
 * absl_flags_attr()  absl.flags.FLAGS: one object per reading, a dict read
 *                    by attribute (FLAGS.mode is FLAGS["mode"]), the same
 *                    object in every module that names it
 * absl_call()        the calls below, by the job's dotted name (NULL: none)
 * absl_define()      flags.DEFINE_string / integer / float / bool / boolean /
 *                    enum / list (and the same names in absl.flags'
 *                    submodules): the flag's value from the command line
 *                    (in->argv) as absl parses it -- --name=value, --name
 *                    value, -name the same; a bool --name, --noname,
 *                    --name=true|false|1|0; the last one given wins; "--"
 *                    ends the flags -- converted by the flag's type, else
 *                    its default; stored in FLAGS.  Returns None (the
 *                    FlagHolder is not read).
 * absl_config_file() ml_collections' config_flags.DEFINE_config_file: the
 *                    word given (--name path[:arg]) names a Python file of
 *                    the repository, imported as its module (path without
 *                    .py, '/' to '.'), whose get_config() (given the text
 *                    after ':' when there is one) is the value; then each
 *                    --name.a.b=value (or --name.a.b value) sets that field,
 *                    converted by the type of the value it replaces (int,
 *                    float, bool, str).  No word: the default (None, or a
 *                    path read the same way).
 * absl_app_run()     absl.app.run(main): main(argv), argv the entry script
 *                    then the words no defined flag took (absl hands main
 *                    the positional arguments only).
 *
 * What this does not read leaves the value not known, with the reason: the
 * command line not known, a word that does not convert, a config file not
 * in the repository or without get_config, an override of a field whose
 * value is not a scalar.  The flag kinds are kept beside FLAGS (a bool flag
 * takes no following word: app.run's positional words need that).  Values
 * live in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* The flag types absl's DEFINE_<type> functions name, by the function's
 * last name; a kind says how a word converts. */
enum absl_kind { AK_STR, AK_INT, AK_FLOAT, AK_BOOL, AK_ENUM, AK_LIST, AK_CONFIG };

static const struct absl_def {
	const char *name;
	enum absl_kind kind;
} absl_defs[] = {
	{ "DEFINE_bool", AK_BOOL },
	{ "DEFINE_boolean", AK_BOOL },
	{ "DEFINE_enum", AK_ENUM },
	{ "DEFINE_float", AK_FLOAT },
	{ "DEFINE_integer", AK_INT },
	{ "DEFINE_list", AK_LIST },
	{ "DEFINE_string", AK_STR },
};

const struct ntab absl_defs_ntab = NTAB(absl_defs);

/* The words absl reads as a bool's value. */
static const struct absl_truth {
	const char *name;
	int truth;
} absl_truths[] = {
	{ "0", 0 }, { "1", 1 }, { "false", 0 }, { "true", 1 },
};

const struct ntab absl_truths_ntab = NTAB(absl_truths);

/* FLAGS, made on first use */
static value_t *flags_dict(struct interp *in)
{
	if (!in->absl_flags) {
		in->absl_flags = v_dict(in->a);
		in->absl_kinds = vdict_new(in->a);
	}
	return in->absl_flags;
}

value_t *absl_flags_attr(struct interp *in, const char *mod, const char *name)
{
	if (strcmp(name, "FLAGS") || (strcmp(mod, "absl.flags") && strncmp(mod, "absl.flags.", 11)))
		return NULL;
	return flags_dict(in);
}

/* The kind of flag `name` defined so far, or -1. */
static int flag_kind(struct interp *in, const char *name, size_t n)
{
	value_t *k;

	if (!in->absl_kinds)
		return -1;
	k = vdict_gets(in->absl_kinds, astr(in, afmt(in, "%.*s", (int)n, name)));
	return k && k->k == VK_INT ? (int)k->u.i : -1;
}

/* The word w of the command line (i) as absl reads one: the flag name it
 * gives (after its one or two dashes; *nl its length), its "=value" part
 * (*val, or NULL).  0 when w is no flag word. */
static int flag_word(const char *w, const char **name, size_t *nl, const char **val)
{
	const char *eq;

	if (w[0] != '-' || !w[1] || !strcmp(w, "--"))
		return 0;
	w += w[1] == '-' ? 2 : 1;
	eq = strchr(w, '=');
	*name = w;
	*nl = eq ? (size_t)(eq - w) : strlen(w);
	*val = eq ? eq + 1 : NULL;
	return 1;
}

/* A word converted by a flag's kind; NULL when it does not convert. */
static value_t *convert(struct interp *in, enum absl_kind k, const char *s)
{
	const struct absl_truth *t;
	char *end;

	switch (k) {
	case AK_INT: {
		long long i = strtoll(s, &end, 0);

		return *s && !*end ? v_int(in->a, i) : NULL;
	}
	case AK_FLOAT: {
		double x = strtod(s, &end);

		return *s && !*end ? v_float(in->a, x) : NULL;
	}
	case AK_BOOL: {
		char *low = xstrdup(s), *p;

		for (p = low; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		t = NTAB_FIND(absl_truths, low);
		free(low);
		return t ? v_bool(in->a, t->truth) : NULL;
	}
	case AK_LIST: {
		value_t *l = v_seq(in->a, VK_LIST, 0);
		const char *p = s, *c;

		while (*p) {
			c = strchr(p, ',');
			vseq_push(in->a, l->u.seq, v_strn(in->a, p, c ? (size_t)(c - p) : strlen(p)));
			if (!c)
				break;
			p = c + 1;
		}
		return l;
	}
	default:
		return v_str(in->a, s);
	}
}

/* The last word the command line gives flag `name` of kind k (a bool: the
 * literal "true"/"false"); *seen 0 when none.  NULL with *seen 1: given,
 * but the command line is not known. */
static const char *given(struct interp *in, const char *name, enum absl_kind k, int *seen)
{
	size_t i, n = in->argv ? in->argv->u.seq->n : 0, nl, ln = strlen(name);
	const char *r = NULL, *fn, *val;

	*seen = 0;
	if (!in->argv || in->argv->u.seq->unk_reason) {
		*seen = 1;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		value_t *w = in->argv->u.seq->items[i];

		if (w->k != VK_STR) {
			*seen = 1;
			return NULL;
		}
		if (!strcmp(w->u.str.s, "--"))
			break;
		if (!flag_word(w->u.str.s, &fn, &nl, &val))
			continue;
		if (k == AK_BOOL && !val && nl == ln + 2 && !strncmp(fn, "no", 2) && !strncmp(fn + 2, name, ln)) {
			*seen = 1, r = "false";
		} else if (nl == ln && !strncmp(fn, name, ln)) {
			*seen = 1;
			if (val)
				r = val;
			else if (k == AK_BOOL)
				r = "true";
			else if (i + 1 < n && in->argv->u.seq->items[i + 1]->k == VK_STR)
				r = in->argv->u.seq->items[++i]->u.str.s;
			else
				r = NULL;
		}
	}
	return r;
}

/* A flag's value: the command line's word converted, else the default. */
static value_t *flag_value(struct frame *f, const char *name, enum absl_kind k, value_t *dflt,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	int seen;
	const char *w = given(in, name, k, &seen);
	value_t *v;

	if (!seen)
		return dflt ? dflt : v_none(in->a);
	if (!w)
		return unknown_at(f, site, afmt(in, "flag --%s from a command line not known", name));
	if (!(v = convert(in, k, w)))
		return unknown_at(f, site, afmt(in, "flag --%s given a word absl does not convert", name));
	return v;
}

static void flag_store(struct interp *in, const char *name, enum absl_kind k, value_t *v)
{
	value_t *d = flags_dict(in);

	vdict_sets(in->a, d->u.dict, astr(in, name), v);
	vdict_sets(in->a, in->absl_kinds, astr(in, name), v_int(in->a, k));
}

/* the flag's name and default: (name, default, ...) or keywords */
static int def_args(value_t **args, size_t nargs, struct vdict *kw, const char **name, value_t **dflt)
{
	value_t *nv = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "name") : NULL;

	if (!nv || nv->k != VK_STR)
		return 0;
	*name = nv->u.str.s;
	*dflt = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "default") : NULL;
	return 1;
}

static value_t *absl_define(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *last = strrchr(d, '.'), *name;
	const struct absl_def *def;
	value_t *dflt;

	if (strncmp(d, "absl.flags.", 11) || !(def = NTAB_FIND(absl_defs, last ? last + 1 : d)))
		return NULL;
	if (!def_args(args, nargs, kw, &name, &dflt))
		return NULL;
	/* a list flag's default may be one comma-separated string */
	if (def->kind == AK_LIST && dflt && dflt->k == VK_STR)
		dflt = convert(in, AK_LIST, dflt->u.str.s);
	flag_store(in, name, def->kind, flag_value(f, name, def->kind, dflt, site));
	return v_none(in->a);
}

/* The config file `spec` (path[:arg]) read: its module's get_config(). */
static value_t *config_from_file(struct frame *f, const char *spec, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *colon = strchr(spec, ':');
	char *path = xstrndup(spec, colon ? (size_t)(colon - spec) : strlen(spec)), *p;
	size_t n;
	value_t *modname, *m, *gc, *arg;

	p = path;
	while (!strncmp(p, "./", 2))
		p += 2;
	n = strlen(p);
	if (n < 4 || strcmp(p + n - 3, ".py")) {
		free(path);
		return unknown_at(f, site, "a config file that is not a Python file");
	}
	p[n - 3] = 0;
	for (char *q = p; *q; q++)
		if (*q == '/')
			*q = '.';
	modname = v_str(in->a, p);
	free(path);
	if (!prog_find_module(in->prog, modname->u.str.s))
		return unknown_at(f, site, "a config file that is not in the repository");
	m = call_import_module(f, "importlib.import_module", &modname, 1, NULL, site);
	if (!m || m->k != VK_NS)
		return unknown_at(f, site, "a config file not read");
	gc = ns_attr(f, m->u.ns, "get_config");
	if (!gc || (gc->k != VK_FUNC))
		return unknown_at(f, site, "a config file without get_config()");
	if (colon) {
		arg = v_str(in->a, colon + 1);
		return call(f, gc, &arg, 1, NULL, site);
	}
	return call(f, gc, NULL, 0, NULL, site);
}

/* --name.a.b=value on cfg: the field's value replaced, converted by the
 * type of the value there. */
static void config_override(struct frame *f, value_t *cfg, const char *path, size_t pl, const char *w,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *obj = cfg, *cur, *v = NULL;
	const char *p = path, *dot, *field;

	while ((dot = memchr(p, '.', pl - (size_t)(p - path)))) {
		obj = getattr_v(f, obj, astr(in, afmt(in, "%.*s", (int)(dot - p), p)), site);
		p = dot + 1;
	}
	field = afmt(in, "%.*s", (int)(pl - (size_t)(p - path)), p);
	if (obj->k == VK_UNKNOWN)
		return;
	cur = getattr_v(f, obj, field, site);
	if (w) {
		switch (cur->k) {
		case VK_INT: v = convert(in, AK_INT, w); break;
		case VK_FLOAT: v = convert(in, AK_FLOAT, w); break;
		case VK_BOOL: v = convert(in, AK_BOOL, w); break;
		case VK_STR: v = v_str(in->a, w); break;
		default: break;
		}
	}
	set_attr(f, obj, field, v ? v : unknown_at(f, site, afmt(in, "config field %s overridden on the command line",
	                                                              field)));
}

static value_t *absl_config_file(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *name, *w, *fn, *val;
	value_t *dflt, *cfg;
	size_t i, nl, ln;
	int seen;

	(void)d;
	if (!def_args(args, nargs, kw, &name, &dflt))
		return NULL;
	w = given(in, name, AK_CONFIG, &seen);
	if (seen && !w)
		cfg = unknown_at(f, site, afmt(in, "config file --%s from a command line not known", name));
	else if (seen || (dflt && dflt->k == VK_STR))
		cfg = config_from_file(f, seen ? w : dflt->u.str.s, site);
	else
		cfg = dflt && dflt->k != VK_STR ? dflt : v_none(in->a);
	/* --name.a.b=value: the fields set, in order */
	ln = strlen(name);
	for (i = 0; cfg->k != VK_UNKNOWN && cfg->k != VK_NONE && in->argv && i < in->argv->u.seq->n; i++) {
		value_t *a = in->argv->u.seq->items[i];

		if (a->k != VK_STR || !strcmp(a->u.str.s, "--"))
			break;
		if (!flag_word(a->u.str.s, &fn, &nl, &val) || nl <= ln + 1 || strncmp(fn, name, ln) || fn[ln] != '.')
			continue;
		if (!val && i + 1 < in->argv->u.seq->n && in->argv->u.seq->items[i + 1]->k == VK_STR)
			val = in->argv->u.seq->items[++i]->u.str.s;
		config_override(f, cfg, fn + ln + 1, nl - ln - 1, val, site);
	}
	flag_store(in, name, AK_CONFIG, cfg);
	return v_none(in->a);
}

static value_t *absl_app_run(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *fn = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "main") : NULL, *av;
	size_t i, n, nl;
	const char *fw, *val;
	int rest = 0;

	(void)d;
	if (!fn || (fn->k != VK_FUNC && fn->k != VK_BOUND))
		return NULL;
	av = v_seq(in->a, VK_LIST, 0);
	vseq_push(in->a, av->u.seq, v_str(in->a, in->entry_path ? in->entry_path : "main.py"));
	if (!in->argv || in->argv->u.seq->unk_reason) {
		av = unknown_at(f, site, "the positional arguments of a command line not known");
	} else {
		n = in->argv->u.seq->n;
		for (i = 0; i < n; i++) {
			value_t *w = in->argv->u.seq->items[i];
			int k;

			if (!rest && w->k == VK_STR && !strcmp(w->u.str.s, "--")) {
				rest = 1;
				continue;
			}
			if (rest || w->k != VK_STR || !flag_word(w->u.str.s, &fw, &nl, &val)) {
				vseq_push(in->a, av->u.seq, w);
				continue;
			}
			if (val)
				continue;
			k = flag_kind(in, fw, nl);
			if (k < 0 && memchr(fw, '.', nl))     /* --config.a.b value */
				k = flag_kind(in, fw, (size_t)((const char *)memchr(fw, '.', nl) - fw));
			if (k >= 0 && k != AK_BOOL)
				i++;                              /* its value word */
		}
	}
	(void)call(f, fn, &av, 1, NULL, site);
	return v_none(in->a);
}

value_t *absl_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	if (f->mode == M_FWD)
		return NULL;
	if (!strcmp(d, "absl.app.run"))
		return absl_app_run(f, d, args, nargs, kw, site);
	if (!strcmp(d, "ml_collections.config_flags.DEFINE_config_file") ||
	    !strcmp(d, "ml_collections.config_flags.config_flags.DEFINE_config_file"))
		return absl_config_file(f, d, args, nargs, kw, site);
	return absl_define(f, d, args, nargs, kw, site);
}
