/* interp/click.c - click's command-line layer, read as the invocation runs it
 *
 *     @click.command()
 *     @click.option('--batch-gpu', type=click.IntRange(min=1))
 *     @click.option('-n', '--dry-run', is_flag=True)
 *     def main(**kwargs): ...
 *     main()
 *
 * click_param()     click.option / click.argument / click.command (and the
 *                   types click.Choice, IntRange, FloatRange, Path): an
 *                   object (ext the dotted name) keeping its positional
 *                   arguments ("decls", a tuple) and keywords ("kw", a
 *                   dict), for the decorator loop and the conversions below
 * click_decorate()  exec.c's decorator loop, innermost first: an option or
 *                   argument is put first in the function's click_params
 *                   (so they end in source order, as click lists them);
 *                   click.command marks it a command.  1 when dv was one
 * click_kwargs()    main() of a command called with no arguments: click's
 *                   standalone mode parses sys.argv[1:] (in->argv) and calls
 *                   the function with one keyword per parameter.  Names as
 *                   click derives them (an explicit name, else the decl of
 *                   the longest prefix, '-' to '_', lowered); words
 *                   --name=value, --name value, -n value, flags (is_flag,
 *                   --x/--no-x), positional words to the arguments in
 *                   order; each value converted by its type (str, int,
 *                   float, bool and click's BOOL words, Choice, IntRange,
 *                   FloatRange, Path, a function of the repository called
 *                   with the word), the type inferred from the default when
 *                   none is given; an option not given: its default (a
 *                   function type called on it), False for a flag, () for
 *                   multiple, else None.  A word click would refuse (an
 *                   option it does not have, an extra argument) or a form
 *                   not read here (count, nargs, prompts, a context passed)
 *                   leaves every parameter not known (a KW_UNK_DSTAR marker:
 *                   no default taken for certain).
 * Values live in the interpreter's arena; nothing fails (an unknown is the
 * answer).
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>

#include "internal.h"

value_t *click_param(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vinst *p = new_inst(in);
	value_t *decls = v_seq(in->a, VK_TUPLE, nargs), *kd = v_dict(in->a);
	size_t i;

	(void)site;
	p->ext = d;
	for (i = 0; i < nargs; i++)
		vseq_push(in->a, decls->u.seq, args[i]);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, kd->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, p->attrs, "decls", decls);
	vdict_sets(in->a, p->attrs, "kw", kd);
	return mk_inst_value(in, p);
}

static const char *click_ext(const value_t *v)
{
	return v && v->k == VK_INST && v->u.inst->ext && !strncmp(v->u.inst->ext, "click.", 6) ? v->u.inst->ext
	                                                                                        : NULL;
}

int click_decorate(struct frame *f, value_t *fnv, value_t *dv)
{
	struct interp *in = f->in;
	const char *e = click_ext(dv);
	struct vfunc *fn;
	value_t *l;

	if (!e || fnv->k != VK_FUNC)
		return 0;
	fn = fnv->u.fn;
	if (!strcmp(e, "click.command")) {
		fn->click_cmd = 1;
		return 1;
	}
	if (strcmp(e, "click.option") && strcmp(e, "click.argument"))
		return 0;
	/* innermost first: each one goes before those already read */
	l = v_seq(in->a, VK_LIST, (fn->click_params ? fn->click_params->n : 0) + 1);
	vseq_push(in->a, l->u.seq, dv);
	if (fn->click_params) {
		size_t i;

		for (i = 0; i < fn->click_params->n; i++)
			vseq_push(in->a, l->u.seq, fn->click_params->items[i]);
	}
	fn->click_params = l->u.seq;
	return 1;
}

/* ----------------------------------------------------------------- one parameter */

struct cparam {
	value_t *opt;            /* the click.option / click.argument object */
	const char *name;        /* the keyword it passes */
	int is_arg;              /* click.argument */
	int flag;                /* is_flag (or a --x/--no-x pair) */
	value_t *type, *dflt;    /* type= and default= (NULL when not given) */
	value_t *val;            /* what the command line gave, or NULL */
};

static value_t *kwget(const value_t *opt, const char *k)
{
	value_t *kd = vdict_gets(opt->u.inst->attrs, "kw");

	return kd && kd->k == VK_DICT ? vdict_gets(kd->u.dict, k) : NULL;
}

static struct vseq *decls_of(const value_t *opt)
{
	value_t *d = vdict_gets(opt->u.inst->attrs, "decls");

	return d && d->k == VK_TUPLE ? d->u.seq : NULL;
}

/* The keyword name click gives the parameter; NULL when a decl is not a
 * known string. */
static const char *param_name(struct interp *in, const value_t *opt, int is_arg)
{
	struct vseq *ds = decls_of(opt);
	const char *best = NULL;
	size_t i, bestp = 0;
	char *n, *c;

	if (!ds || !ds->n)
		return NULL;
	for (i = 0; i < ds->n; i++) {
		const char *s;
		size_t p = 0;

		if (ds->items[i]->k != VK_STR)
			return NULL;
		s = ds->items[i]->u.str.s;
		if (is_arg || s[0] != '-')
			return s;      /* an argument's name, or an option's explicit one */
		while (s[p] == '-')
			p++;
		if (!best || p > bestp) {
			best = s;
			bestp = p;
		}
	}
	n = (char *)afmt(in, "%.*s", (int)strcspn(best + bestp, "/"), best + bestp);
	for (c = n; *c; c++)
		*c = *c == '-' ? '_' : (char)tolower((unsigned char)*c);
	return n;
}

/* Does word w (up to n bytes) name the option: 1 for the option, 2 for
 * the secondary (off) name of a --x/--no-x pair, 0 neither. */
static int names_option(const value_t *opt, const char *w, size_t n)
{
	struct vseq *ds = decls_of(opt);
	size_t i;

	for (i = 0; ds && i < ds->n; i++) {
		const char *s = ds->items[i]->k == VK_STR ? ds->items[i]->u.str.s : "";
		const char *slash = strchr(s, '/');
		size_t l = slash ? (size_t)(slash - s) : strlen(s);

		if (s[0] != '-')
			continue;
		if (l == n && !strncmp(s, w, n))
			return 1;
		if (slash && strlen(slash + 1) == n && !strncmp(slash + 1, w, n))
			return 2;
	}
	return 0;
}

static int has_pair(const value_t *opt)
{
	struct vseq *ds = decls_of(opt);
	size_t i;

	for (i = 0; ds && i < ds->n; i++)
		if (ds->items[i]->k == VK_STR && ds->items[i]->u.str.s[0] == '-' && strchr(ds->items[i]->u.str.s, '/'))
			return 1;
	return 0;
}

static int bool_word(const char *s)
{
	static const char *const t[] = { "1", "true", "t", "yes", "y", "on" };
	static const char *const fl[] = { "0", "false", "f", "no", "n", "off" };
	char low[8];
	size_t i;

	for (i = 0; s[i] && i < sizeof low - 1; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	if (s[i])
		return -1;
	low[i] = 0;
	for (i = 0; i < sizeof t / sizeof *t; i++) {
		if (!strcmp(low, t[i]))
			return 1;
		if (!strcmp(low, fl[i]))
			return 0;
	}
	return -1;
}

/* The value click's type makes of the word s (or of a default v, when s
 * is NULL: only a function type or a string default is converted). */
static value_t *convert(struct frame *f, const struct cparam *p, const char *s, value_t *v,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *t = p->type;
	const char *e = click_ext(t);
	int kind = 0;    /* 1 str, 2 int, 3 float, 4 bool, 5 choice, 6 function */

	if (!s && v && v->k != VK_STR && !(t && (t->k == VK_FUNC || t->k == VK_BOUND)))
		return v;
	if (!s && v && v->k == VK_STR)
		s = v->u.str.s;
	if (!t || t->k == VK_NONE) {
		const value_t *d = p->dflt;

		kind = !d || d->k == VK_NONE || d->k == VK_STR ? 1 : d->k == VK_BOOL ? 4 : d->k == VK_INT ? 2 :
		       d->k == VK_FLOAT ? 3 : 0;
	} else if (t->k == VK_BUILTIN && !t->u.bi.self) {
		kind = t->u.bi.id == BI_STR ? 1 : t->u.bi.id == BI_INT ? 2 : t->u.bi.id == BI_FLOAT ? 3 :
		       t->u.bi.id == BI_BOOL ? 4 : 0;
	} else if (t->k == VK_FUNC || t->k == VK_BOUND) {
		kind = 6;
	} else if (e) {
		kind = !strcmp(e, "click.Path") ? 1 : !strcmp(e, "click.IntRange") ? 2 :
		       !strcmp(e, "click.FloatRange") ? 3 : !strcmp(e, "click.Choice") ? 5 : 0;
	} else if (t->k == VK_EXT) {
		const char *d = canon_ext(in, t->u.ext);

		kind = !strcmp(d, "click.STRING") ? 1 : !strcmp(d, "click.INT") ? 2 : !strcmp(d, "click.FLOAT") ? 3 :
		       !strcmp(d, "click.BOOL") ? 4 : 0;
	}
	if (kind == 6) {
		value_t *a = s ? v_str(in->a, s) : v;

		return call(f, t, &a, 1, NULL, site);
	}
	if (!s)
		return unknown_at(f, site, "a click default its type converts (not read)");
	switch (kind) {
	case 1:
		return v_str(in->a, s);
	case 2: {
		long long i;

		if (py_int_of_str(s, &i))
			return v_int(in->a, i);
		break;
	}
	case 3: {
		double x;

		if (py_float_of_str(s, &x))
			return v_float(in->a, x);
		break;
	}
	case 4: {
		int b = bool_word(s);

		if (b >= 0)
			return v_bool(in->a, b);
		break;
	}
	case 5: {
		struct vseq *cs = decls_of(t);
		value_t *ch = cs && cs->n ? cs->items[0] : NULL;
		size_t i;

		for (i = 0; ch && (ch->k == VK_LIST || ch->k == VK_TUPLE) && i < ch->u.seq->n; i++)
			if (ch->u.seq->items[i]->k == VK_STR && !strcmp(ch->u.seq->items[i]->u.str.s, s))
				return v_str(in->a, s);
		break;
	}
	default:
		break;
	}
	return unknown_at(f, site, afmt(in, "click's conversion of '%s' for --%s (not read, or refused)", s,
	                                 p->name));
}

/* The value the parameter passes (the command line's, else its default). */
static value_t *param_value(struct frame *f, const struct cparam *p, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *mult = kwget(p->opt, "multiple"), *v;

	if (p->val) {
		v = v_copy(in->a, p->val);
		v->via = VIA_OVERRIDE;
		v->src = "the command line";
		return v;
	}
	if (mult && value_truth(mult) == 1)
		return p->dflt ? p->dflt : v_seq(in->a, VK_TUPLE, 0);
	if (p->dflt && p->dflt->k != VK_NONE)
		return convert(f, p, NULL, p->dflt, site);
	if (p->flag && !p->dflt)
		return v_bool(in->a, 0);
	return v_none(in->a);
}

/* Whether the option takes a form not read here. */
static int unread_form(const value_t *opt)
{
	static const char *const keys[] = { "count", "nargs", "prompt", "envvar", "callback", "multiple" };
	size_t i;

	for (i = 0; i < sizeof keys / sizeof *keys; i++) {
		value_t *v = kwget(opt, keys[i]);

		if (v && !(v->k == VK_NONE || (v->k == VK_BOOL && !v->u.b) ||
		           (!strcmp(keys[i], "nargs") && v->k == VK_INT && v->u.i == 1)))
			return 1;
	}
	return 0;
}

static struct vdict *give_up(struct interp *in, const char *why)
{
	struct vdict *kw = vdict_new(in->a);

	vdict_sets(in->a, kw, KW_UNK_DSTAR, v_unknown(in->a, NULL, why));
	return kw;
}

struct vdict *click_kwargs(struct frame *f, struct vfunc *fn, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct vseq *argv = in->argv && in->argv->k == VK_LIST ? in->argv->u.seq : NULL;
	size_t n = fn->click_params ? fn->click_params->n : 0, i, j;
	struct cparam *ps = ast_arena_alloc(in->a, (n + 1) * sizeof *ps);
	struct vdict *kw;
	int only_pos = 0;

	if (!argv && in->argv)
		return give_up(in, "click parses a command line ecg does not know");
	for (i = 0; i < n; i++) {
		struct cparam *p = &ps[i];
		value_t *fl;

		p->opt = fn->click_params->items[i];
		p->is_arg = !strcmp(p->opt->u.inst->ext, "click.argument");
		p->name = param_name(in, p->opt, p->is_arg);
		fl = kwget(p->opt, "is_flag");
		p->flag = (fl && value_truth(fl) == 1) || has_pair(p->opt);
		p->type = kwget(p->opt, "type");
		p->dflt = kwget(p->opt, "default");
		if (!p->name || unread_form(p->opt))
			return give_up(in, "a click parameter of a form ecg does not read");
	}
	for (j = 0; argv && j < argv->n; j++) {
		const char *w = argv->items[j]->k == VK_STR ? argv->items[j]->u.str.s : NULL;
		const char *eq;
		size_t wn;
		int hit = 0;

		if (!w)
			return give_up(in, "a command-line word not known");
		if (!only_pos && !strcmp(w, "--")) {
			only_pos = 1;
			continue;
		}
		if (only_pos || w[0] != '-' || !w[1]) {
			/* a positional word: the next argument's */
			for (i = 0; i < n && !(ps[i].is_arg && !ps[i].val); i++)
				;
			if (i == n)
				return give_up(in, afmt(in, "click refuses the extra argument '%s'", w));
			ps[i].val = convert(f, &ps[i], w, NULL, site);
			continue;
		}
		eq = strchr(w, '=');
		wn = eq && w[1] == '-' ? (size_t)(eq - w) : strlen(w);
		for (i = 0; i < n && !hit; i++) {
			struct cparam *p = &ps[i];

			if (p->is_arg || !(hit = names_option(p->opt, w, wn)))
				continue;
			if (p->flag) {
				value_t *fv = kwget(p->opt, "flag_value");

				if (eq && w[1] == '-')
					return give_up(in, afmt(in, "click refuses a value for the flag %s", w));
				p->val = hit == 2 ? v_bool(in->a, 0) : fv ? fv : v_bool(in->a, 1);
			} else if (eq && w[1] == '-') {
				p->val = convert(f, p, eq + 1, NULL, site);
			} else if (j + 1 < argv->n && argv->items[j + 1]->k == VK_STR) {
				p->val = convert(f, p, argv->items[++j]->u.str.s, NULL, site);
			} else {
				return give_up(in, afmt(in, "click refuses %s without its value", w));
			}
		}
		if (!hit)
			return give_up(in, afmt(in, "click has no option '%s' on this command", w));
	}
	kw = vdict_new(in->a);
	for (i = 0; i < n; i++) {
		struct cparam *p = &ps[i];
		value_t *req = kwget(p->opt, "required");

		if (!p->val && (p->is_arg || (req && value_truth(req) == 1)) && !p->dflt)
			return give_up(in, afmt(in, "click stops: the required parameter %s is not given", p->name));
		vdict_sets(in->a, kw, p->name, param_value(f, p, site));
	}
	return kw;
}
