/* interp/omegaconf.c - OmegaConf's configuration layers read exactly
 *
 * An OmegaConf DictConfig is a dict value here (OmegaConf.create and
 * OmegaConf.load: stdlib.c; attr.c reads cfg.x as cfg["x"]).  This file
 * reads how the layers are put together:
 *   OmegaConf.merge(*cfgs)   a deep merge, the later layers over the
 *                            earlier (dicts merged key by key, any other
 *                            value replaced); unknown, with the reason,
 *                            when a layer is not a dict known whole
 *   OmegaConf.from_cli(list) / from_dotlist(list)
 *                            "a.b=v" items into nested dicts, v read as a
 *                            YAML scalar (int, float, bool, null, plain
 *                            str) or a flow list of them ("[a,b]");
 *                            unknown when the list or an item is not
 *                            known, or v is YAML ecg does not read exactly
 *   OmegaConf.structured(Cls) a dict of a dataclass's fields at their
 *                            defaults (nested dataclasses as dicts): the
 *                            schema a YAML is merged over
 *   OmegaConf.to_container   a copy;  OmegaConf.select(cfg, "a.b",
 *                            default=) the value at the key path
 *   OmegaConf.update(cfg, "a.b", v), cfg.merge_with(*others)
 *                            in place (every entry forgotten -- unknown --
 *                            when what changes is not known)
 *   to_yaml / save / set_struct / set_readonly / resolve: no value read
 * A str holding "${" (an interpolation, resolved when read) or "???" (a
 * mandatory value missing: reading it raises) is an unknown in every
 * result.  A key that no layer sets stays missing (what
 * reads it is unknown, attr.c).  Values are allocated in the interpreter's
 * arena; no function here fails otherwise (an unknown is the answer).
 */
#include "config.h"

#include <ctype.h>

#include "internal.h"

#define OC_MAX_DEPTH 32

/* Does dict d (or a dict in it) hold entries ecg did not see (a store of
 * a key not known, a comprehension over items not known)? */
static int dict_open(const struct vdict *d, int depth)
{
	size_t i;

	if (depth > OC_MAX_DEPTH || d->anykey || d->rep)
		return 1;
	for (i = 0; i < d->n; i++)
		if (d->vals[i]->k == VK_DICT && dict_open(d->vals[i]->u.dict, depth + 1))
			return 1;
	return 0;
}

/* v with every interpolation string made unknown (dicts and lists
 * copied where one is found; v itself when none is). */
/* v's dicts marked as OmegaConf's (oc_mark) or as plain (oc_unmark:
 * to_container's copy), nested ones too; v. */
static value_t *oc_set_mark(value_t *v, int depth, unsigned char mark)
{
	size_t i;

	if (depth > OC_MAX_DEPTH)
		return v;
	if (v->k == VK_DICT) {
		v->u.dict->dictconfig = mark;
		for (i = 0; i < v->u.dict->n; i++)
			oc_set_mark(v->u.dict->vals[i], depth + 1, mark);
	} else if (v->k == VK_LIST || v->k == VK_TUPLE) {
		for (i = 0; i < v->u.seq->n; i++)
			oc_set_mark(v->u.seq->items[i], depth + 1, mark);
	}
	return v;
}

static value_t *oc_mark(value_t *v, int depth)
{
	return oc_set_mark(v, depth, 1);
}

static value_t *oc_unmark(value_t *v, int depth)
{
	return oc_set_mark(v, depth, 0);
}

static value_t *no_interp(struct interp *in, value_t *v, int depth)
{
	value_t *r;
	size_t i;

	if (depth > OC_MAX_DEPTH)
		return v;
	if (v->k == VK_STR && (strstr(v->u.str.s, "${") || !strcmp(v->u.str.s, "???"))) {
		r = v_unknown(in->a, v->u.str.s, v->u.str.s[0] == '?' ? "an OmegaConf mandatory value left missing (MISSING)"
		                                 : "an OmegaConf interpolation (resolved when read; not followed)");
		r->src = v->src;
		return r;
	}
	if (v->k == VK_DICT) {
		v->u.dict->dictconfig = 1;        /* OmegaConf's: a DictConfig, its dict entries too */
		for (i = 0; i < v->u.dict->n; i++) {
			value_t *x = no_interp(in, v->u.dict->vals[i], depth + 1);

			if (x != v->u.dict->vals[i])
				v->u.dict->vals[i] = x;   /* v is a copy made here (oc_merge, from_cli, load) */
		}
		return v;
	}
	if (v->k == VK_LIST || v->k == VK_TUPLE)
		for (i = 0; i < v->u.seq->n; i++)
			v->u.seq->items[i] = no_interp(in, v->u.seq->items[i], depth + 1);
	return v;
}

/* src merged into dst (dst a copy of ours): dicts key by key, any other
 * value replaces what dst holds. */
static void merge_into(struct interp *in, struct vdict *dst, const struct vdict *src, int depth)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		value_t *have = vdict_get(dst, src->keys[i]);
		value_t *v = src->vals[i];

		if (have && have->k == VK_DICT && v->k == VK_DICT && depth < OC_MAX_DEPTH)
			merge_into(in, have->u.dict, v->u.dict, depth + 1);
		else
			vdict_set(in->a, dst, src->keys[i], deepcopy_value(in, v, depth + 1));
	}
}

static value_t *oc_merge(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *r;
	size_t i;

	(void)d;
	if (kw_unk(kw, 1))
		return unknown_at(f, site, "OmegaConf.merge of layers not known (a *args)");
	for (i = 0; i < nargs; i++) {
		if (args[i]->k == VK_UNKNOWN)
			return unknown_at(f, site, afmt(in, "OmegaConf.merge of a layer not known: %s",
			                                args[i]->reason ? args[i]->reason : "(no reason)"));
		if (args[i]->k != VK_DICT)
			return unknown_at(f, site, "OmegaConf.merge of a layer that is no dict config (a list, a "
			                           "dataclass ...): not followed");
		if (dict_open(args[i]->u.dict, 0))
			return unknown_at(f, site, "OmegaConf.merge of a layer whose keys are not all known");
	}
	r = v_dict(in->a);
	for (i = 0; i < nargs; i++)
		merge_into(in, r->u.dict, args[i]->u.dict, 0);
	return no_interp(in, r, 0);
}

/* dst's entries made unknown: a layer not known was merged into it in
 * place, any of its keys may have changed */
static void forget_all(struct interp *in, struct vdict *dst, const char *why)
{
	size_t i;

	for (i = 0; i < dst->n; i++)
		dst->vals[i] = v_unknown(in->a, dst->vals[i]->expr, why);
	dst->anykey = 2;
}

/* cfg.merge_with(*others): the others merged into cfg in place (None) */
value_t *omegaconf_merge_with(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t i;

	(void)site;
	if (self->k != VK_DICT)
		return v_none(in->a);
	for (i = 0; i < nargs; i++)
		if (args[i]->k != VK_DICT || dict_open(args[i]->u.dict, 0) || kw_unk(kw, 1)) {
			forget_all(in, self->u.dict, "a config merged in place with a layer not known (merge_with)");
			return v_none(in->a);
		}
	for (i = 0; i < nargs; i++)
		merge_into(in, self->u.dict, args[i]->u.dict, 0);
	no_interp(in, self, 0);
	return v_none(in->a);
}

/* OmegaConf.update(cfg, "a.b", value, merge=True): the value set at the
 * key path in place (missing dicts on the way made; a dict value merged
 * into a dict there unless merge=False); a key path not known forgets
 * every entry of cfg. */
static value_t *oc_update(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *cfg = nargs >= 1 ? args[0] : NULL, *key = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "key") : NULL;
	value_t *v = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "value") : NULL;
	value_t *mg = kw ? vdict_gets(kw, "merge") : NULL;
	value_t *cur;
	const char *k, *end;

	(void)d, (void)site;
	if (!cfg || cfg->k != VK_DICT)
		return v_none(in->a);
	if (!key || key->k != VK_STR || !v || strpbrk(key->u.str.s, "[]") || (mg && value_truth(mg) < 0)) {
		forget_all(in, cfg->u.dict, "a config updated in place at a key or with a value not known");
		return v_none(in->a);
	}
	cur = cfg;
	k = key->u.str.s;
	end = k + key->u.str.len;
	for (;;) {
		const char *dot = memchr(k, '.', (size_t)(end - k));
		value_t *kv = v_strn(in->a, k, dot ? (size_t)(dot - k) : (size_t)(end - k));
		value_t *have = vdict_get(cur->u.dict, kv);

		if (!dot) {
			if (have && have->k == VK_DICT && v->k == VK_DICT && (!mg || value_truth(mg) == 1) &&
			    !dict_open(v->u.dict, 0))
				merge_into(in, have->u.dict, v->u.dict, 0);
			else
				vdict_set(in->a, cur->u.dict, kv, no_interp(in, deepcopy_value(in, v, 0), 0));
			break;
		}
		if (!have || have->k != VK_DICT) {
			if (have && have->k != VK_NONE) {
				forget_all(in, cfg->u.dict, "a config updated in place through a value that is no dict");
				break;
			}
			have = v_dict(in->a);
			vdict_set(in->a, cur->u.dict, kv, have);
		}
		cur = have;
		k = dot + 1;
	}
	return v_none(in->a);
}

/* The YAML scalar text s as OmegaConf reads a command-line value (its
 * YAML loader), or NULL when s is YAML ecg does not read exactly (a flow
 * list or map, a quoted str with escapes, a sexagesimal, octal or hex
 * int, a date, a str a YAML indicator starts ...). */
static value_t *yaml_scalar(struct interp *in, const char *s)
{
	static const char *const nulls[] = { "", "NULL", "Null", "null", "~" };
	/* YAML 1.1's yes/no/on/off: OmegaConf's loader versions differ on
	 * them, so they are left unknown */
	static const char *const trues[] = { "TRUE", "True", "true" };
	static const char *const falses[] = { "FALSE", "False", "false" };
	static const char *const either[] = { "NO", "No", "OFF", "Off", "ON", "On", "YES", "Yes", "no", "off", "on", "yes" };
	size_t n = strlen(s), i;
	const char *p = s;
	char *end;

	for (i = 0; i < NTAB_LEN(nulls); i++)
		if (!strcmp(s, nulls[i]))
			return v_none(in->a);
	for (i = 0; i < NTAB_LEN(trues); i++)
		if (!strcmp(s, trues[i]))
			return v_bool(in->a, 1);
	for (i = 0; i < NTAB_LEN(falses); i++)
		if (!strcmp(s, falses[i]))
			return v_bool(in->a, 0);
	for (i = 0; i < NTAB_LEN(either); i++)
		if (!strcmp(s, either[i]))
			return NULL;
	if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0]) {
		if (memchr(s + 1, s[0], n - 2) || memchr(s + 1, '\\', n - 2))
			return NULL;
		return v_strn(in->a, s + 1, n - 2);
	}
	/* a decimal int: [-+]?(0|[1-9][0-9]*) */
	if (*p == '-' || *p == '+')
		p++;
	if (isdigit((unsigned char)*p) && (p[0] != '0' || !p[1])) {
		const char *q = p;

		while (isdigit((unsigned char)*q))
			q++;
		if (!*q && (q - p) < 18)
			return v_int(in->a, strtoll(s, NULL, 10));
	}
	/* a float: digits '.' digits? exponent?, or digits exponent */
	p = s + (*s == '-' || *s == '+');
	if (isdigit((unsigned char)*p)) {
		int dot, ex;
		const char *q = scan_decimal(p, &dot, &ex);

		if (!*q && (dot || ex)) {
			double x = strtod(s, &end);

			if (!*end)
				return v_float(in->a, x);
		}
		return NULL;   /* 0777, 0x1f, 1_000, 1:30, 2024-01-01: YAML 1.1 reads them otherwise */
	}
	/* a plain str: no indicator first, no ": " or " #" in it, printable */
	if (strchr("-?:,[]{}#&*!|>'\"%@`.+ ", s[0]) || isspace((unsigned char)s[n - 1]))
		return NULL;
	if (strstr(s, ": ") || strstr(s, " #") || s[n - 1] == ':')
		return NULL;
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]))
			return NULL;
	return v_str(in->a, s);
}

/* A YAML flow list of plain scalars ("[hh]", "[a, 1, true]") as a list,
 * else yaml_scalar(s): NULL when s is YAML ecg does not read exactly (a
 * nested list or map, a quoted item, an empty item). */
static value_t *yaml_value(struct interp *in, const char *s)
{
	size_t n = strlen(s);
	const char *p, *e;
	value_t *r;

	if (!n || s[0] != '[' || s[n - 1] != ']')
		return yaml_scalar(in, s);
	for (p = s + 1; p < s + n - 1; p++)
		if (strchr("[]{}'\"", *p))
			return NULL;      /* nested, or quoted */
	r = v_seq(in->a, VK_LIST, 0);
	for (p = s + 1; p < s + n - 1; p = e + 1) {
		const char *a = p, *b;
		value_t *x;

		e = memchr(p, ',', (size_t)(s + n - 1 - p));
		if (!e)
			e = s + n - 1;
		b = e;
		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		if (a == b || !(x = yaml_scalar(in, afmt(in, "%.*s", (int)(b - a), a))))
			return NULL;      /* "[a,,b]", an item not read */
		vseq_push(in->a, r->u.seq, x);
	}
	return r;
}

/* OmegaConf.from_cli(list) / from_dotlist(list): the items "a.b=v" into
 * nested dicts, v a YAML scalar or a flow list of them.  from_cli() with
 * no argument reads sys.argv[1:]. */
static value_t *oc_from_cli(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *lst = nargs >= 1 ? args[0] : kw && vdict_gets(kw, "args_list") ? vdict_gets(kw, "args_list")
	               : kw ? vdict_gets(kw, "dotlist") : NULL;
	value_t *r = v_dict(in->a);
	size_t i;

	if (!lst && !strcmp(d, "omegaconf.OmegaConf.from_cli")) {
		value_t *argv = stdlib_attr(in, "sys", "argv");
		struct vseq rest = *argv->u.seq;

		if (!in->argv)
			return unknown_at(f, site, "OmegaConf.from_cli() of a command line that was not given");
		rest.items++;
		rest.n--;
		lst = seq_from(in, VK_LIST, &rest);
	}
	if (!lst || lst->k == VK_UNKNOWN)
		return unknown_at(f, site, afmt(in, "OmegaConf.from_cli of a list not known%s%s",
		                                lst && lst->reason ? ": " : "", lst && lst->reason ? lst->reason : ""));
	if ((lst->k != VK_LIST && lst->k != VK_TUPLE) || lst->u.seq->unk_reason)
		return unknown_at(f, site, "OmegaConf.from_cli of a list whose items are not all known");
	for (i = 0; i < lst->u.seq->n; i++) {
		value_t *it = lst->u.seq->items[i], *v, *cur = r;
		const char *s, *eq, *k, *br;

		if (it->k != VK_STR)
			return unknown_at(f, site, "OmegaConf.from_cli of an item not known");
		s = it->u.str.s;
		eq = strchr(s, '=');
		br = strpbrk(s, "[]");
		if (!eq) {
			eq = s + strlen(s);   /* "a.b" alone: a.b is None */
			v = v_none(in->a);
		} else {
			v = yaml_value(in, eq + 1);
		}
		if ((br && br < eq) || s == eq || s[0] == '+' || s[0] == '~')
			return unknown_at(f, site, afmt(in, "OmegaConf.from_cli of '%s' (a key path ecg does not read)", s));
		if (!v)
			v = v_unknown(in->a, astr(in, eq + 1), "a command-line value read as YAML ecg does not follow");
		v->src = it->src ? it->src : anchor_at(f, site);
		v->via = VIA_OVERRIDE;
		/* a.b.c: dicts down to the last part */
		for (k = s; k < eq;) {
			const char *dot = memchr(k, '.', (size_t)(eq - k));
			value_t *key = v_strn(in->a, k, dot ? (size_t)(dot - k) : (size_t)(eq - k));

			if (!key->u.str.len)
				return unknown_at(f, site, afmt(in, "OmegaConf.from_cli of '%s' (an empty key)", s));
			if (!dot) {
				vdict_set(in->a, cur->u.dict, key, v);
				break;
			}
			{
				value_t *sub = vdict_get(cur->u.dict, key);

				if (!sub || sub->k != VK_DICT) {
					sub = v_dict(in->a);
					vdict_set(in->a, cur->u.dict, key, sub);
				}
				cur = sub;
			}
			k = dot + 1;
		}
	}
	return no_interp(in, r, 0);
}

/* What OmegaConf.structured makes of v: a repository dataclass (the
 * class: its fields' defaults, default_factory called; an instance: its
 * own attributes, a field it lacks at its default) as a dict in field
 * order, nested dataclasses likewise; any other value as it is (an enum
 * member stays the member: the YAML string merged over it is read as
 * the string, which a str-based enum compares equal to). */
static value_t *oc_struct_value(struct frame *f, value_t *v, int depth)
{
	struct interp *in = f->in;
	struct vclass *c = v->k == VK_CLASS ? v->u.cls : v->k == VK_INST && v->u.inst->mod == VM_NONE ? v->u.inst->cls : NULL;
	struct vdict *fields;
	value_t *out;
	size_t i;

	if (!c || !c->is_dataclass || depth > OC_MAX_DEPTH)
		return v;
	fields = vdict_new(in->a);
	dataclass_fields(in, c, fields, f);
	out = v_dict(in->a);
	for (i = 0; i < fields->n; i++) {
		value_t *x = fields->vals[i];

		if (v->k == VK_INST && vdict_get(v->u.inst->attrs, fields->keys[i]))
			x = vdict_get(v->u.inst->attrs, fields->keys[i]);
		vdict_set(in->a, out->u.dict, fields->keys[i], oc_struct_value(f, x, depth + 1));
	}
	return out;
}

/* OmegaConf.structured(Cls or obj): oc_struct_value; unknown for anything
 * but a repository dataclass. */
static value_t *oc_structured(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	value_t *v = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "obj") : NULL;

	(void)d;
	if (v && (v = oc_struct_value(f, v, 0))->k == VK_DICT)
		return oc_mark(v, 0);
	return unknown_at(f, site, "OmegaConf.structured of an object not a dataclass of the repository");
}

/* OmegaConf.create(d), DictConfig(d): a copy of dict d ({} with no argument); a str
 * (YAML text) or a list is not followed */
static value_t *oc_create(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	value_t *x = nargs >= 1 ? args[0] : kw && vdict_gets(kw, "obj") ? vdict_gets(kw, "obj")
	             : kw ? vdict_gets(kw, "content") : NULL;

	(void)d;
	if (x && x->k == VK_UNKNOWN)
		return x;
	if (!x || x->k == VK_NONE)
		return oc_mark(v_dict(f->in->a), 0);
	if (x->k != VK_DICT)
		return unknown_at(f, site, "OmegaConf.create of a value that is no dict (YAML text, a list, a "
		                           "dataclass): not followed");
	return no_interp(f->in, deepcopy_value(f->in, x, 0), 0);
}

/* OmegaConf.to_container(cfg, ...): a copy of the dict */
static value_t *oc_to_container(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                                const struct ast_hdr *site)
{
	(void)d, (void)kw;
	if (nargs >= 1 && (args[0]->k == VK_DICT || args[0]->k == VK_LIST))
		return oc_unmark(deepcopy_value(f->in, args[0], 0), 0);
	return unknown_at(f, site, "OmegaConf.to_container of a config not known");
}

/* OmegaConf.is_dict / is_list / is_config(x): True, False, or not known.
 * A dict OmegaConf made (vdict.dictconfig) is a DictConfig; a number, a
 * str, None or a bool is no config; a plain dict or list may be one or
 * not as far as ecg knows (its mark can be lost on the way): not known
 * for is_dict/is_config, and a dict is no ListConfig. */
static value_t *oc_is(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site)
{
	const char *what = strrchr(d, '.') + 1;
	value_t *x = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "obj") : NULL;
	int r = -1;

	if (x && (x->k == VK_NONE || x->k == VK_BOOL || x->k == VK_INT || x->k == VK_FLOAT || x->k == VK_STR))
		r = 0;
	else if (x && x->k == VK_DICT && x->u.dict->dictconfig)
		r = strcmp(what, "is_list") != 0;
	else if (x && x->k == VK_DICT && !strcmp(what, "is_list"))
		r = 0;
	if (r >= 0)
		return v_bool(f->in->a, r);
	return unknown_at(f, site, afmt(f->in, "OmegaConf.%s of a value ecg does not know to be a config or not", what));
}

/* OmegaConf.select(cfg, "a.b", default=x): the value at the key path; a
 * missing key gives default (None when not given) -- only in a dict ecg
 * saw whole. */
static value_t *oc_select(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *cur, *def = kw ? vdict_gets(kw, "default") : NULL;
	const char *k, *end;

	(void)d;
	if (nargs < 2 || args[0]->k != VK_DICT || args[1]->k != VK_STR || kw_unk(kw, 1) || strpbrk(args[1]->u.str.s, "[]"))
		return unknown_at(f, site, "OmegaConf.select of a config or key not known");
	if (!args[1]->u.str.len)
		return args[0];
	cur = args[0];
	k = args[1]->u.str.s;
	end = k + args[1]->u.str.len;
	while (k <= end) {
		const char *dot = memchr(k, '.', (size_t)(end - k));
		size_t n = dot ? (size_t)(dot - k) : (size_t)(end - k);
		value_t *key = v_strn(in->a, k, n), *v;

		if (cur->k == VK_UNKNOWN)
			return cur;
		if (cur->k != VK_DICT)
			return unknown_at(f, site, "OmegaConf.select through a value that is no dict");
		if (cur->u.dict->anykey || cur->u.dict->rep)
			return unknown_at(f, site, "OmegaConf.select in a config whose keys are not all known");
		v = vdict_get(cur->u.dict, key);
		if (!v)
			return def ? def : v_none(in->a);
		cur = v;
		if (!dot)
			break;
		k = dot + 1;
	}
	return cur;
}

/* OmegaConf.load: the file through load_config, interpolations unknown */
static value_t *oc_load(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	value_t *arg = nargs ? args[0] : kw ? vdict_gets(kw, "file_") : NULL;

	(void)d;
	return no_interp(f->in, load_config(f, d, arg, site), 0);
}

/* to_yaml / save / set_struct / set_readonly / resolve: no value a
 * branch reads (to_yaml's text is not known) */
static value_t *oc_no_value(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	(void)args, (void)nargs, (void)kw;
	if (!strcmp(d, "omegaconf.OmegaConf.to_yaml"))
		return unknown_at(f, site, "the YAML text of a config (not rendered)");
	return v_none(f->in->a);
}

static const struct oc_native {
	const char *name;
	value_t *(*fn)(struct frame *, const char *, value_t **, size_t, struct vdict *, const struct ast_hdr *);
} oc_natives[] = {
	{ "omegaconf.DictConfig", oc_create },
	{ "omegaconf.OmegaConf.create", oc_create },
	{ "omegaconf.OmegaConf.from_cli", oc_from_cli },
	{ "omegaconf.OmegaConf.from_dotlist", oc_from_cli },
	{ "omegaconf.OmegaConf.is_config", oc_is },
	{ "omegaconf.OmegaConf.is_dict", oc_is },
	{ "omegaconf.OmegaConf.is_list", oc_is },
	{ "omegaconf.OmegaConf.load", oc_load },
	{ "omegaconf.OmegaConf.merge", oc_merge },
	{ "omegaconf.OmegaConf.resolve", oc_no_value },
	{ "omegaconf.OmegaConf.save", oc_no_value },
	{ "omegaconf.OmegaConf.select", oc_select },
	{ "omegaconf.OmegaConf.set_readonly", oc_no_value },
	{ "omegaconf.OmegaConf.set_struct", oc_no_value },
	{ "omegaconf.OmegaConf.structured", oc_structured },
	{ "omegaconf.OmegaConf.to_container", oc_to_container },
	{ "omegaconf.OmegaConf.to_object", oc_to_container },
	{ "omegaconf.OmegaConf.to_yaml", oc_no_value },
	{ "omegaconf.OmegaConf.unsafe_merge", oc_merge },
	{ "omegaconf.OmegaConf.update", oc_update },
};

const struct ntab omegaconf_ntab = NTAB(oc_natives);

value_t *omegaconf_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	const struct oc_native *n = NTAB_FIND(oc_natives, d);

	return n ? n->fn(f, d, args, nargs, kw, site) : NULL;
}
