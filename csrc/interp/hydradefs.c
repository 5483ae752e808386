/* interp/hydradefs.c - Hydra's defaults list: the config groups a primary
 * config composes
 *
 * hydra_defaults(f, dir, primary, words, &values, site): the config Hydra
 * (1.1 and later) composes from a primary config (a dict read from
 * <dir>/<name>.yaml) that has a `defaults:` list, as its documentation
 * says:
 *   - each item, in order, is a layer merged over the ones before it
 *     (OmegaConf.merge): `_self_` is the primary's own content (without
 *     its `defaults` and `hydra` nodes; appended last when the list does
 *     not name it); `group: option` the file <dir>/group/option.yaml
 *     placed under the key path of the group (`a/b` -> a.b), or at the
 *     root when its header says `# @package _global_`; a plain `name` the
 *     file <dir>/name.yaml at the root; `group: null` nothing; `optional`
 *     before a group read only when the file is in the tree (Hydra skips
 *     a missing one; ecg cannot tell missing from made at run time);
 *     Hydra's own groups (`hydra/...`) are not the task's config;
 *   - a command-line word group=option whose group the list names chooses
 *     that group's option (`model=pythia28` over `- model: blank`); the
 *     other words (value overrides) are returned in *values, in order, for
 *     the caller to merge over the result, as Hydra applies them after
 *     the composition.
 * NULL -- the config not pinned, the caller binds nothing -- when an item
 * is of a form not read here (a package override `group@pkg`, `override`,
 * a list of options, a non-str option), when an option file is not read,
 * is not a mapping, has a defaults list of its own or a package header
 * other than _group_/_global_, or when a word names a config group (a
 * directory under dir) that the list does not hold (Hydra refuses it).
 * Values live in the interpreter's arena; nothing here fails otherwise.
 */
#include "config.h"

#include "internal.h"

#define HD_MAX_ITEMS 64

enum hd_kind { HD_SELF, HD_GROUP, HD_PLAIN };

struct hd_item {
	enum hd_kind kind;
	const char *group;    /* HD_GROUP: "model", "db/mysql" */
	const char *option;   /* the option (HD_GROUP) or the file's name (HD_PLAIN); NULL: none */
	int optional;
};

/* One list item read into *it: 1, 0 to skip it (Hydra's own group), -1
 * when its form is not read here. */
static int read_item(struct interp *in, value_t *v, struct hd_item *it)
{
	const char *k;
	value_t *o;

	memset(it, 0, sizeof *it);
	if (v->k == VK_STR) {
		if (!strcmp(v->u.str.s, "_self_")) {
			it->kind = HD_SELF;
			return 1;
		}
		if (strpbrk(v->u.str.s, "@: ") || !*v->u.str.s)
			return -1;
		it->kind = HD_PLAIN;
		it->option = v->u.str.s[0] == '/' ? v->u.str.s + 1 : v->u.str.s;
		return 1;
	}
	if (v->k != VK_DICT || v->u.dict->n != 1 || v->u.dict->keys[0]->k != VK_STR)
		return -1;
	k = v->u.dict->keys[0]->u.str.s;
	o = v->u.dict->vals[0];
	if (!strncmp(k, "optional ", 9)) {
		it->optional = 1;
		k += 9;
	}
	if (*k == '/')
		k++;
	if (!*k || strpbrk(k, "@ "))
		return -1;                    /* a package override, `override`, ... */
	if (!strcmp(k, "hydra") || !strncmp(k, "hydra/", 6))
		return 0;
	if (o->k != VK_STR && o->k != VK_NONE)
		return -1;                    /* a list of options, a value not known */
	it->kind = HD_GROUP;
	it->group = astr(in, k);
	it->option = o->k == VK_STR ? o->u.str.s : NULL;
	return 1;
}

/* "dir/rest" ("rest" when dir is the root) */
static const char *under(struct interp *in, const char *dir, const char *rest)
{
	return *dir ? afmt(in, "%s/%s", dir, rest) : astr(in, rest);
}

/* The package a config file's header names (`# @package X` among its
 * first comment lines): 0 none or _group_, 1 _global_, -1 another (or the
 * file not read as text). */
static int package_of(struct interp *in, const char *path)
{
	const char *why = NULL, *p, *e;
	size_t len = 0;
	char *text;
	int r = 0;

	if (!in->load_text)
		return -1;
	if (!(text = in->load_text(in->load_text_ctx, path, in->prog->entry_dir, &len, &why)))
		return -1;
	for (p = text; p < text + len && *p == '#'; p = e + 1) {
		const char *q;

		e = memchr(p, '\n', (size_t)(text + len - p));
		if (!e)
			e = text + len;
		q = p + 1;
		while (q < e && *q == ' ')
			q++;
		if ((size_t)(e - q) >= 8 && !strncmp(q, "@package", 8)) {
			q += 8;
			while (q < e && *q == ' ')
				q++;
			while (e > q && (e[-1] == ' ' || e[-1] == '\r'))
				e--;
			r = ((size_t)(e - q) == 8 && !strncmp(q, "_global_", 8)) ? 1
			    : ((size_t)(e - q) == 7 && !strncmp(q, "_group_", 7)) ? 0 : -1;
			break;
		}
	}
	free(text);
	return r;
}

/* The layer of one group or plain item, or NULL when not read. */
static value_t *item_layer(struct frame *f, const char *dir, const struct hd_item *it, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *rel = it->kind == HD_GROUP ? afmt(in, "%s/%s.yaml", it->group, it->option)
	                                        : afmt(in, "%s.yaml", it->option);
	const char *path = under(in, dir, rel);
	value_t *arg = v_str(in->a, path), *cfg, *top;
	const char *g, *slash;
	int pkg;

	cfg = omegaconf_call(f, "omegaconf.OmegaConf.load", &arg, 1, NULL, site);
	if (!cfg || cfg->k != VK_DICT || vdict_gets(cfg->u.dict, "defaults"))
		return NULL;
	if (it->kind == HD_PLAIN)
		return cfg;
	if ((pkg = package_of(in, path)) < 0)
		return NULL;
	if (pkg == 1)
		return cfg;
	/* a/b: {a: {b: cfg}} */
	top = v_dict(in->a);
	top->u.dict->dictconfig = 1;
	{
		value_t *cur = top;

		for (g = it->group; (slash = strchr(g, '/')); g = slash + 1) {
			value_t *sub = v_dict(in->a);

			sub->u.dict->dictconfig = 1;
			vdict_set(in->a, cur->u.dict, v_strn(in->a, g, (size_t)(slash - g)), sub);
			cur = sub;
		}
		vdict_sets(in->a, cur->u.dict, g, cfg);
	}
	return top;
}

/* The primary's own content: without its defaults and hydra nodes. */
static value_t *self_layer(struct interp *in, value_t *primary)
{
	value_t *r = v_dict(in->a);
	size_t i;

	r->u.dict->dictconfig = 1;
	for (i = 0; i < primary->u.dict->n; i++) {
		value_t *k = primary->u.dict->keys[i];

		if (k->k == VK_STR && (!strcmp(k->u.str.s, "defaults") || !strcmp(k->u.str.s, "hydra")))
			continue;
		vdict_set(in->a, r->u.dict, k, primary->u.dict->vals[i]);
	}
	return r;
}

/* Word w's group choice applied to the items: 1 applied, 0 not a group
 * choice (a value override), -1 a choice Hydra refuses or ecg does not
 * read. */
static int choose(struct interp *in, const char *dir, struct hd_item *items, size_t n, const char *w)
{
	const char *eq = strchr(w, '=');
	const char *key = afmt(in, "%.*s", (int)(eq - w), w), *val = eq + 1;
	size_t i;
	int hit = 0;

	for (i = 0; i < n; i++) {
		if (items[i].kind != HD_GROUP || strcmp(items[i].group, key))
			continue;
		if (!*val || strpbrk(val, ",[]{}()'\" =*$"))
			return -1;            /* a sweep, a list, an interpolation ... */
		items[i].option = !strcmp(val, "null") ? NULL : val;
		hit = 1;
	}
	if (hit)
		return 1;
	/* a config group the list does not hold: Hydra says "no match in the
	 * defaults list" */
	if (!strchr(key, '.') && tree_kind(in, under(in, dir, key), NULL, NULL) == INTERP_TREE_DIR)
		return -1;
	return 0;
}

value_t *hydra_defaults(struct frame *f, const char *dir, value_t *primary, value_t *words, value_t **values,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *defs = vdict_gets(primary->u.dict, "defaults"), *layers[HD_MAX_ITEMS + 1], *rest;
	struct hd_item items[HD_MAX_ITEMS + 1];
	size_t n = 0, nl = 0, i;
	int self = 0;

	if (!defs || defs->k != VK_LIST || defs->u.seq->unk_reason || defs->u.seq->n > HD_MAX_ITEMS)
		return NULL;
	for (i = 0; i < defs->u.seq->n; i++) {
		int r = read_item(in, defs->u.seq->items[i], &items[n]);

		if (r < 0)
			return NULL;
		if (r > 0) {
			self |= items[n].kind == HD_SELF;
			n++;
		}
	}
	if (!self)
		items[n++].kind = HD_SELF;   /* Hydra 1.1: the primary over its defaults */
	rest = v_seq(in->a, VK_LIST, 0);
	for (i = 0; words && i < words->u.seq->n; i++) {
		value_t *w = words->u.seq->items[i];
		int r;

		if (w->k != VK_STR || !strchr(w->u.str.s, '='))
			return NULL;
		if ((r = choose(in, dir, items, n, w->u.str.s)) < 0)
			return NULL;
		if (r == 0)
			vseq_push(in->a, rest->u.seq, w);
	}
	for (i = 0; i < n; i++) {
		value_t *l;

		if (items[i].kind == HD_SELF) {
			layers[nl++] = self_layer(in, primary);
			continue;
		}
		if (!items[i].option)
			continue;
		if (items[i].optional && items[i].kind == HD_GROUP &&
		    tree_kind(in, under(in, dir, afmt(in, "%s/%s.yaml", items[i].group, items[i].option)), NULL, NULL) !=
		    INTERP_TREE_FILE)
			return NULL;
		if (!(l = item_layer(f, dir, &items[i], site)))
			return NULL;
		layers[nl++] = l;
	}
	*values = rest;
	return omegaconf_call(f, "omegaconf.OmegaConf.merge", layers, nl, NULL, site);
}
