/* interp/yacs.c - yacs configuration trees (yacs.config.CfgNode) read exactly
 *
 * A yacs CfgNode is a dict subclass read by attribute.  Here it is a dict
 * value whose vdict has `cfgnode` set (1; 2 with new_allowed) and
 * `cfgpath`, its dotted key from the root ("" at the root): attr.c reads
 * cfg.X as cfg["X"] (the methods below first, as Python finds them
 * before __getattr__), object.c's set_attr writes through yacs_set().
 * The layers are put together as yacs 0.1.8 (rbgirshick/yacs config.py)
 * does:
 *   CfgNode(init_dict=None, key_list=None, new_allowed=False)
 *                     the dict copied, its dicts made nodes
 *   clone()           a deep copy;  defrost/freeze: nothing read
 *   merge_from_file(path), merge_from_other_cfg(other)
 *                     the YAML file read through load_config (the job's
 *                     loader, as yaml.safe_load reads it) made a node, then
 *                     _merge_a_into_b: key by key, each value decoded
 *                     (a dict a node, a str literal_eval'd when it is a
 *                     Python literal), type-checked against the value it
 *                     replaces (same type, None on either side, list <->
 *                     tuple cast; otherwise yacs raises ValueError), nodes
 *                     merged recursively;
 *   merge_from_list([k1, v1, ...])
 *                     dotted keys that must exist, values decoded and
 *                     checked as above
 *   dump()            the YAML text: not rendered (unknown str)
 *   load_cfg(file)    (a classmethod, also called through a node) a file
 *                     opened from the repository read as merge_from_file
 *                     reads it; YAML text not read
 *   set_new_allowed / is_new_allowed / is_frozen / register_*_key
 * Soundness: a key keeps what the earlier layers gave it only when every
 * later layer was read whole.  A layer not read (a path not known, a file
 * the loader cannot read or that is Python, a list not known, an odd
 * list, a key not known) makes every leaf of the node unknown with the
 * reason (nodes kept: a layer cannot replace a node with a leaf without
 * yacs raising), and keys of a new_allowed node not all known.  A value
 * yacs would refuse (a type mismatch, a key the defaults lack) is unknown
 * with what yacs raises.  A str that may or may not be a literal
 * (brackets, leading zeros, escapes ...) is unknown.
 * Node classes other than yacs's own (catalog yacs_node_classes: a class
 * -> the key naming the files its YAML inherits, "" none): fvcore's
 * CfgNode (fvcore/common/config.py) reads a file through
 *   load_yaml_with_base(filename)  (a classmethod) the YAML as a dict;
 *                     when it holds the key (_BASE_: one path or a list),
 *                     each path (relative to the file's directory unless
 *                     absolute; '~' and URLs not read) loaded the same way
 *                     first, its dicts merged key by key (a dict into a
 *                     dict, anything else replaced), then this file's
 *                     entries over them, the key dropped
 *   merge_from_file(path)  that dict made a node and merged as above.
 * A node made by such a class keeps the key (vdict.cfgbase), and so do
 * its child nodes and copies.  A repository subclass of one of these
 * classes is read by yacssub.c.
 * --set KEY=VALUE with KEY a node's full dotted key ("TRAIN.EPOCHS")
 * replaces every value written to that leaf (overridden(), scope.c).
 * Values live in the interpreter's arena; no function here fails
 * otherwise (an unknown is the answer).
 */
#include "config.h"

#include <ctype.h>

#include "internal.h"
#include "ecg/catalog.h"
#include "ecg/load.h"

#include <stdlib.h>

#define YACS_MAX_DEPTH 32
#define YACS_MAX_BASES 16   /* nested _BASE_ files followed */

static int is_node(const value_t *v)
{
	return v && v->k == VK_DICT && v->u.dict->cfgnode;
}

static const char *child_path(struct interp *in, const struct vdict *parent, const char *key)
{
	return parent->cfgpath && parent->cfgpath[0] ? afmt(in, "%s.%s", parent->cfgpath, key) : astr(in, key);
}

/* The node's paths given again from `path` down (a node placed under a
 * new key, or a copy of one). */
static void set_paths(struct interp *in, struct vdict *d, const char *path, int depth)
{
	size_t i;

	d->cfgpath = path;
	if (depth > YACS_MAX_DEPTH)
		return;
	for (i = 0; i < d->n; i++)
		if (is_node(d->vals[i]) && d->keys[i]->k == VK_STR)
			set_paths(in, d->vals[i]->u.dict, child_path(in, d, d->keys[i]->u.str.s), depth + 1);
}

/* v (a leaf written to `key` of node d) with the --set override of its
 * full key, if any */
static value_t *leaf_override(struct interp *in, const struct vdict *d, const char *key, value_t *v)
{
	if (is_node(v))
		return v;
	return overridden(in, child_path(in, d, key), v);
}

/* A new node from dict `init` (NULL: empty): a deep copy, its dicts
 * nodes, new_allowed given to every node made (as yacs's constructor
 * passes it only to the top; its children are made by cls(v), so they
 * are not new_allowed). */
static value_t *node_from(struct interp *in, const value_t *init, int new_allowed, const char *path, int depth)
{
	value_t *r = v_dict(in->a);
	size_t i;

	r->u.dict->cfgnode = new_allowed ? 2 : 1;
	r->u.dict->cfgpath = path;
	if (init)
		r->src = init->src;
	for (i = 0; init && i < init->u.dict->n && depth < YACS_MAX_DEPTH; i++) {
		value_t *k = init->u.dict->keys[i], *v = init->u.dict->vals[i];

		if (v->k == VK_DICT && k->k == VK_STR)
			v = node_from(in, v, 0, child_path(in, r->u.dict, k->u.str.s), depth + 1);
		else
			v = deepcopy_value(in, v, depth + 1);
		if (k->k == VK_STR)
			v = leaf_override(in, r->u.dict, k->u.str.s, v);
		vdict_set(in->a, r->u.dict, k, v);
	}
	if (init) {
		r->u.dict->anykey = init->u.dict->anykey;
		r->u.dict->rep = init->u.dict->rep;
	}
	return r;
}

/* Node d and the nodes under it made by the class `cls` (a repository
 * subclass, or NULL) whose YAML inherits through `base` (or NULL), as a
 * node class's constructor makes its children with cls(v). */
void yacs_mark(struct vdict *d, const char *base, struct vclass *cls, int depth)
{
	size_t i;

	d->cfgbase = base;
	d->cls = cls;
	for (i = 0; i < d->n && depth < YACS_MAX_DEPTH; i++)
		if (is_node(d->vals[i]))
			yacs_mark(d->vals[i]->u.dict, base, cls, depth + 1);
}

/* The key through which the YAML of class d inherits ("" none), or NULL
 * when d (a canonical dotted name) is no yacs node class. */
const char *yacs_node_class(struct interp *in, const char *d)
{
	return d ? catalog_fact(in->cat, CATALOG_F_YACS_NODE_CLASSES, d) : NULL;
}

/* Every leaf of node d unknown: a layer not read was merged into it. */
static void forget(struct interp *in, struct vdict *d, const char *why, int depth)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (is_node(d->vals[i]) && depth < YACS_MAX_DEPTH) {
			forget(in, d->vals[i]->u.dict, why, depth + 1);
		} else {
			value_t *u = v_unknown(in->a, d->vals[i]->expr, why);

			u->src = d->vals[i]->src;
			if (d->keys[i]->k == VK_STR) {
				journal_note(in, d, d->keys[i]->u.str.s);
				u = leaf_override(in, d, d->keys[i]->u.str.s, u);
			}
			d->vals[i] = u;
		}
	}
	if (d->cfgnode == 2)
		d->anykey = 2;   /* a new_allowed node: the layer may have added keys */
}

/* ------------------------------------------------------------------ decoding */

/* s a Python decimal int or float literal as a whole ([-+] allowed before
 * it, as literal_eval reads a sign): its value, or NULL. */
static value_t *num_literal(struct interp *in, const char *s)
{
	const char *p = s + (*s == '-' || *s == '+'), *q;
	int dot, ex;
	char *end;

	q = scan_decimal(p, &dot, &ex);
	if (q == p || (q == p + 1 && dot))
		return NULL;   /* no digit */
	if (*q)
		return NULL;
	if (!dot && !ex) {
		if (p[0] == '0' && p[1])
			return NULL;   /* 007: a SyntaxError (00 is 0): not decided here */
		if (q - p > 18)
			return NULL;
		return v_int(in->a, strtoll(s, NULL, 10));
	}
	{
		double x = strtod(s, &end);

		return *end ? NULL : v_float(in->a, x);
	}
}

/* yacs's _decode_cfg_value of str s: literal_eval(s), or s itself when
 * literal_eval raises ValueError or SyntaxError.  NULL when ecg does not
 * decide which (containers, escapes, prefixes, leading zeros ...). */
static value_t *decode_str(struct interp *in, value_t *sv)
{
	const char *s = sv->u.str.s;
	size_t n = sv->u.str.len;
	unsigned char c0 = (unsigned char)s[0];
	value_t *r;

	if (!n)
		return sv;   /* "": a SyntaxError */
	if (!strcmp(s, "True") || !strcmp(s, "False"))
		return v_bool(in->a, s[0] == 'T');
	if (!strcmp(s, "None"))
		return v_none(in->a);
	if ((r = num_literal(in, s)))
		return r;
	if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0]) {
		if (memchr(s + 1, s[0], n - 2) || memchr(s + 1, '\\', n - 2) || memchr(s, '\n', n))
			return NULL;
		return v_strn(in->a, s + 1, n - 2);
	}
	/* A first character no literal starts with (not a digit, sign, dot,
	 * quote, bracket, space): a name, a path, an expression of names --
	 * literal_eval raises ValueError or SyntaxError.  A name that is a
	 * str prefix (b'..', rb"..") or a literal keyword going on (True + 1)
	 * is left undecided. */
	if ((c0 == '-' || c0 == '+') && (isalpha((unsigned char)s[1]) || s[1] == '_') && strlen(s) == n)
		return sv;   /* -inf, +x: a sign before a name raises ValueError or SyntaxError */
	if (isdigit(c0) || strchr("+-.'\"([{ \t\n\r\f\v", (char)c0))
		return NULL;
	if (isalpha(c0) || c0 == '_') {
		size_t k = 0;

		while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
			k++;
		if (k < n && (s[k] == '\'' || s[k] == '"') && k <= 2)
			return NULL;
		if ((k == 4 && (!strncmp(s, "True", 4) || !strncmp(s, "None", 4))) || (k == 5 && !strncmp(s, "False", 5)))
			return NULL;
	}
	if (strlen(s) != n)
		return NULL;   /* a NUL inside */
	return sv;
}

/* yacs's _decode_cfg_value: a dict a node, a str a literal or itself,
 * anything else as is.  The result keeps v's source. */
static value_t *decode(struct interp *in, value_t *v, const char *path)
{
	value_t *r;

	if (v->k == VK_DICT)
		return node_from(in, v, 0, path, 0);
	if (v->k != VK_STR)
		return deepcopy_value(in, v, 1);
	r = decode_str(in, v);
	if (!r) {
		r = v_unknown(in->a, v->u.str.s, "a config value yacs reads with literal_eval that ecg does not decide");
		r->via = v->via;
	} else if (r != v) {
		r->expr = v->expr;
		r->via = v->via;
	}
	r->src = v->src;
	return r;
}

static const char *type_name(const value_t *v)
{
	switch (v->k) {
	case VK_NONE:
		return "NoneType";
	case VK_BOOL:
		return "bool";
	case VK_INT:
		return "int";
	case VK_FLOAT:
		return "float";
	case VK_STR:
		return "str";
	case VK_LIST:
		return "list";
	case VK_TUPLE:
		return "tuple";
	case VK_DICT:
		return v->u.dict->cfgnode ? "CfgNode" : "dict";
	default:
		return NULL;
	}
}

/* yacs's _check_and_coerce_cfg_value_type: repl as it replaces orig,
 * or an unknown saying yacs raises ValueError (or that a type is not
 * known). */
static value_t *coerce(struct interp *in, value_t *repl, const value_t *orig, const char *full_key)
{
	const char *tr = type_name(repl), *to = type_name(orig);
	value_t *r;

	if (repl->k == VK_UNKNOWN)
		return repl;
	/* a scalar over a value whose type is not known: yacs keeps it as
	 * it is, or raises and nothing runs on (only list <-> tuple casts) */
	if (orig->k == VK_UNKNOWN && tr && repl->k != VK_LIST && repl->k != VK_TUPLE && repl->k != VK_DICT)
		return repl;
	if (!tr || !to) {
		r = v_unknown(in->a, repl->expr, afmt(in, "the value of %s replaces one of a type not known (yacs checks "
		                                          "the types agree)", full_key));
		r->src = repl->src;
		return r;
	}
	if (!strcmp(tr, to) || repl->k == VK_NONE || orig->k == VK_NONE)
		return repl;
	/* a config file's 1.0 comes from the loader as the int 1 (its numbers
	 * are JSON's): where a float is replaced, the file held a float -- or
	 * held an int and yacs raised, and nothing ran */
	if (repl->k == VK_INT && orig->k == VK_FLOAT && repl->via == VIA_CONFIG_FILE) {
		r = v_float(in->a, (double)repl->u.i);
		r->src = repl->src;
		r->via = repl->via;
		r->expr = repl->expr;
		return r;
	}
	if ((repl->k == VK_LIST && orig->k == VK_TUPLE) || (repl->k == VK_TUPLE && orig->k == VK_LIST)) {
		r = seq_from(in, orig->k, repl->u.seq);
		r->src = repl->src;
		r->via = repl->via;
		r->expr = repl->expr;
		return r;
	}
	r = v_unknown(in->a, repl->expr, afmt(in, "yacs raises ValueError: type mismatch (%s vs. %s) for config key %s",
	                                     to, tr, full_key));
	r->src = repl->src;
	return r;
}

/* yacs's _merge_a_into_b: node a's entries into node b in place */
static void merge_a_into_b(struct interp *in, const struct vdict *a, struct vdict *b, int depth)
{
	size_t i;

	if (depth > YACS_MAX_DEPTH)
		return;
	for (i = 0; i < a->n; i++) {
		value_t *k = a->keys[i], *have, *v;
		const char *full;

		if (k->k != VK_STR) {
			forget(in, b, "a config layer with a key that is no str", 0);
			continue;
		}
		full = child_path(in, b, k->u.str.s);
		v = decode(in, a->vals[i], full);
		have = vdict_get(b, k);
		if (have) {
			v = coerce(in, v, have, full);
			if (is_node(v) && is_node(have)) {
				merge_a_into_b(in, v->u.dict, have->u.dict, depth + 1);
				continue;
			}
		} else if (b->cfgnode != 2) {
			v = v_unknown(in->a, full, afmt(in, "yacs raises KeyError: non-existent config key %s (unless it "
			                                    "was registered deprecated)", full));
		}
		if (is_node(v))
			set_paths(in, v->u.dict, full, 0);
		journal_note(in, b, k->u.str.s);   /* under an undecided `if`: undone, merged (journal.c) */
		vdict_set(in->a, b, k, leaf_override(in, b, k->u.str.s, v));
	}
	if (a->anykey || a->rep)
		forget(in, b, "a config layer whose keys are not all known", 0);
}

/* ------------------------------------------------------------------ the public side */

value_t *yacs_node(struct interp *in, const value_t *init, int new_allowed)
{
	return node_from(in, init && init->k == VK_DICT ? init : NULL, new_allowed, "", 0);
}

void yacs_set(struct interp *in, struct vdict *d, const char *name, value_t *v)
{
	if (is_node(v))
		set_paths(in, v->u.dict, child_path(in, d, name), 0);
	journal_note(in, d, name);
	vdict_sets(in->a, d, name, leaf_override(in, d, name, v));
}

/* A node of a class whose YAML inherits through `base` ("" or NULL: none),
 * made as its constructor CfgNode(init_dict=None, key_list=None,
 * new_allowed=False) makes it, by a repository subclass `cls` (or NULL);
 * an unknown when the arguments are not read. */
value_t *yacs_new(struct frame *f, const char *base, struct vclass *cls, value_t **args, size_t nargs,
                  struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *init = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "init_dict") : NULL;
	value_t *na = nargs >= 3 ? args[2] : kw ? vdict_gets(kw, "new_allowed") : NULL, *r;
	int t = na ? value_truth(na) : 0;

	if (kw_unk(kw, 1) || t < 0)
		return unknown_at(f, site, "a yacs CfgNode made from arguments not known");
	if (init && init->k == VK_UNKNOWN)
		return unknown_at(f, site, afmt(in, "a yacs CfgNode made from a dict not known: %s",
		                                init->reason ? init->reason : "(no reason)"));
	if (init && init->k != VK_DICT && init->k != VK_NONE)
		return unknown_at(f, site, "a yacs CfgNode made from a value that is no dict");
	r = yacs_node(in, init && init->k == VK_DICT ? init : NULL, t);
	yacs_mark(r->u.dict, base && base[0] ? base : NULL, cls, 0);
	return r;
}

/* What the YAML file at `arg` holds (a dict; None: an empty file, given as
 * an empty dict); NULL with *why set when it is not read. */
static value_t *load_raw(struct frame *f, value_t *arg, const struct ast_hdr *site, const char **why)
{
	struct interp *in = f->in;
	value_t *p = arg ? path_text(arg) : NULL, *v;
	const char *s, *dot, *slash;

	if (!p || p->k != VK_STR) {
		*why = afmt(in, "a yacs config merged from a file whose path is not known%s%s",
		            p && p->reason ? ": " : "", p && p->reason ? p->reason : "");
		return NULL;
	}
	s = p->u.str.s;
	slash = strrchr(s, '/');
	dot = strrchr(slash ? slash : s, '.');
	if (dot && strcmp(dot, ".yaml") && strcmp(dot, ".yml")) {
		*why = afmt(in, "a yacs config merged from '%s' (%s)", s,
		            !strcmp(dot, ".py") ? "a Python config file: not run" : "a file type yacs does not load");
		return NULL;
	}
	v = load_config(f, "yaml.safe_load", p, site);
	if (v->k == VK_NONE)
		return v_dict(in->a);
	if (v->k != VK_DICT) {
		*why = afmt(in, "a yacs config merged from '%s', not read: %s", s,
		            v->k == VK_UNKNOWN && v->reason ? v->reason : "no mapping");
		return NULL;
	}
	return v;
}

/* What the YAML file at `arg` holds, as a node; NULL with *why set when
 * it is not read. */
static value_t *load_node(struct frame *f, value_t *arg, const struct ast_hdr *site, const char **why)
{
	value_t *v = load_raw(f, arg, site, why);

	return v ? yacs_node(f->in, v, 0) : NULL;
}

/* fvcore's merge_a_into_b of two plain dicts: a's entries into b, a dict
 * into a dict key by key, anything else replacing b's (b written); the key
 * of a dict over a value that is no dict (fvcore's assert fails), or NULL */
static const char *dict_merge_into(struct interp *in, const struct vdict *a, struct vdict *b, int depth)
{
	const char *bad;
	size_t i;

	for (i = 0; i < a->n; i++) {
		value_t *have = vdict_get(b, a->keys[i]), *v = a->vals[i];

		if (v->k == VK_DICT && have && have->k == VK_DICT && depth < YACS_MAX_DEPTH) {
			if ((bad = dict_merge_into(in, v->u.dict, have->u.dict, depth + 1)))
				return bad;
		} else if (v->k == VK_DICT && have && have->k != VK_UNKNOWN) {
			return a->keys[i]->k == VK_STR ? a->keys[i]->u.str.s : "?";
		} else {
			vdict_set(in->a, b, a->keys[i], v);
		}
	}
	if (a->anykey || a->rep)
		b->anykey = 2;
	return NULL;
}

/* One path a file's base key names, as fvcore resolves it: relative to
 * the directory of `file` unless absolute; NULL (why set) for '~' and
 * URLs, not read. */
static value_t *base_path(struct interp *in, const char *file, const value_t *b, const char **why)
{
	const char *s, *slash;
	char *joined;
	value_t *r;

	if (!b || b->k != VK_STR) {
		*why = "a yacs config whose base file is not known";
		return NULL;
	}
	s = b->u.str.s;
	if (s[0] == '~' || !strncmp(s, "https://", 8) || !strncmp(s, "http://", 7)) {
		*why = afmt(in, "a yacs config inheriting '%s' (not read)", s);
		return NULL;
	}
	if (s[0] == '/')
		return v_str(in->a, s);
	slash = strrchr(file, '/');
	joined = slash ? load_norm_path(afmt(in, "%.*s/%s", (int)(slash - file), file, s)) : load_norm_path(s);
	if (!joined) {
		*why = afmt(in, "a yacs config inheriting '%s', above the repository (not read)", s);
		return NULL;
	}
	r = v_str(in->a, astr(in, joined));
	free(joined);
	return r;
}

/* fvcore's CfgNode.load_yaml_with_base: the file at `arg` as a plain dict,
 * the files its key `base` names loaded (the same way) and merged first,
 * its own entries over them, the key dropped.  NULL with *why set when a
 * file on the way is not read. */
static value_t *load_with_base(struct frame *f, value_t *arg, const char *base, const struct ast_hdr *site,
                               const char **why, int depth)
{
	struct interp *in = f->in;
	value_t *v = load_raw(f, arg, site, why), *b, *acc, *one, *own;
	const char *file, *bad = NULL;
	size_t i, n;

	if (!v || !base || !base[0] || !(b = vdict_gets(v->u.dict, base)))
		return v;
	if (depth >= YACS_MAX_BASES) {
		*why = "a yacs config whose base files nest too deep to follow";
		return NULL;
	}
	file = path_text(arg)->u.str.s;
	acc = v_dict(in->a);
	n = b->k == VK_LIST ? b->u.seq->n : 1;
	if (b->k == VK_LIST && b->u.seq->unk_reason) {
		*why = "a yacs config whose list of base files is not known";
		return NULL;
	}
	for (i = 0; i < n; i++) {
		value_t *p = base_path(in, file, b->k == VK_LIST ? b->u.seq->items[i] : b, why);

		if (!p || !(one = load_with_base(f, p, base, site, why, depth + 1)))
			return NULL;
		if (n == 1)
			acc = one;
		else if ((bad = dict_merge_into(in, one->u.dict, acc->u.dict, 0)))
			break;
	}
	if (!bad) {
		acc = deepcopy_value(in, acc, 0);
		own = deepcopy_value(in, v, 0);
		vdict_del(own->u.dict, v_str(in->a, base));
		bad = dict_merge_into(in, own->u.dict, acc->u.dict, 0);
	}
	if (bad) {
		*why = afmt(in, "fvcore raises AssertionError: cannot inherit key '%s' from base", bad);
		return NULL;
	}
	return acc;
}

/* The file at `arg` read as node `self`'s class reads it: through its base
 * key when it has one (fvcore), as yacs's load_cfg when not. */
static value_t *load_for(struct frame *f, const value_t *self, value_t *arg, const struct ast_hdr *site,
                         const char **why)
{
	const char *base = self->u.dict->cfgbase;
	value_t *v;

	if (!base || !base[0])
		return load_node(f, arg, site, why);
	if (!(v = load_with_base(f, arg, base, site, why, 0)))
		return NULL;
	v = yacs_node(f->in, v, 0);
	yacs_mark(v->u.dict, base, self->u.dict->cls, 0);
	return v;
}

static value_t *m_merge_from_file(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *arg = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "cfg_filename") : NULL;
	const char *why = NULL;
	value_t *other = load_for(f, self, arg, site, &why);

	if (!other)
		forget(in, self->u.dict, why, 0);
	else
		merge_a_into_b(in, other->u.dict, self->u.dict, 0);
	return v_none(in->a);
}

/* node.load_yaml_with_base(filename, allow_unsafe=False) of a class with
 * a base key (fvcore's classmethod, reached through an object): the plain
 * dict; an unknown when a file on the way is not read */
static value_t *m_load_with_base(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                 const struct ast_hdr *site)
{
	value_t *arg = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "filename") : NULL, *v;
	const char *why = NULL;

	v = load_with_base(f, arg, fn->u.bi.self->u.dict->cfgbase, site, &why, 0);
	return v ? v : unknown_at(f, site, why);
}

static value_t *y_load_cfg(struct frame *f, value_t **args, size_t nargs, const struct ast_hdr *site);

/* node.load_cfg(file): yacs's classmethod reached through an object
 * (pycls: _C.merge_from_other_cfg(_C.load_cfg(f))), read as
 * yacs.config.load_cfg */
static value_t *m_load_cfg(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	(void)fn, (void)kw;
	return y_load_cfg(f, args, nargs, site);
}

static value_t *m_merge_from_other(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                   const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *o = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "cfg_other") : NULL;

	(void)site;
	if (!is_node(o))
		forget(in, self->u.dict, afmt(in, "a yacs config merged with a config not known%s%s",
		                              o && o->reason ? ": " : "", o && o->reason ? o->reason : ""), 0);
	else
		merge_a_into_b(in, o->u.dict, self->u.dict, 0);
	return v_none(in->a);
}

/* cfg.merge_from_list([k1, v1, ...]) */
static value_t *m_merge_from_list(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *l = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "cfg_list") : NULL;
	size_t i;

	if (!l || (l->k != VK_LIST && l->k != VK_TUPLE) || l->u.seq->unk_reason) {
		forget(in, self->u.dict, afmt(in, "a yacs config merged with a list of overrides not known%s%s",
		                              l && l->reason ? ": " : "", l && l->reason ? l->reason : ""), 0);
		return v_none(in->a);
	}
	if (l->u.seq->n % 2) {
		forget(in, self->u.dict, "yacs raises AssertionError: an override list of odd length", 0);
		return v_none(in->a);
	}
	for (i = 0; i + 1 < l->u.seq->n; i += 2) {
		value_t *kv = l->u.seq->items[i], *v = l->u.seq->items[i + 1], *cur = self, *have;
		const char *k, *dot;

		if (kv->k != VK_STR) {
			forget(in, self->u.dict, "a yacs config merged with an override whose key is not known", 0);
			continue;
		}
		for (k = kv->u.str.s;; k = dot + 1) {
			value_t *key;

			dot = strchr(k, '.');
			key = dot ? v_strn(in->a, k, (size_t)(dot - k)) : v_str(in->a, k);
			have = vdict_get(cur->u.dict, key);
			if (!have || (dot && !is_node(have))) {
				forget(in, self->u.dict, afmt(in, "yacs raises AssertionError: non-existent key %s (or one "
				                                  "registered deprecated, skipped)", kv->u.str.s), 0);
				break;
			}
			if (!dot) {
				value_t *x = decode(in, v, kv->u.str.s);

				if (!x->src)
					x->src = anchor_at(f, site);
				if (x->via == VIA_DEFAULT)
					x->via = VIA_OVERRIDE;
				x = coerce(in, x, have, kv->u.str.s);
				if (is_node(x))
					set_paths(in, x->u.dict, kv->u.str.s, 0);
				journal_note(in, cur->u.dict, key->u.str.s);
				vdict_set(in->a, cur->u.dict, key, leaf_override(in, cur->u.dict, key->u.str.s, x));
				break;
			}
			cur = have;
		}
	}
	return v_none(in->a);
}

static value_t *m_clone(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site)
{
	value_t *self = fn->u.bi.self, *r;

	(void)args, (void)nargs, (void)kw, (void)site;
	r = deepcopy_value(f->in, self, 0);
	return r;
}

static void new_allowed_all(struct vdict *d, int t, int depth)
{
	size_t i;

	d->cfgnode = t ? 2 : 1;
	for (i = 0; i < d->n && depth < YACS_MAX_DEPTH; i++)
		if (is_node(d->vals[i]))
			new_allowed_all(d->vals[i]->u.dict, t, depth + 1);
}

static value_t *m_set_new_allowed(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self, *a = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "is_new_allowed") : NULL;
	int t = a ? value_truth(a) : -1;

	(void)site;
	if (t < 0)
		forget(in, self->u.dict, "set_new_allowed() of a value not known", 0);
	else
		new_allowed_all(self->u.dict, t, 0);
	return v_none(in->a);
}

static value_t *m_is_new_allowed(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                 const struct ast_hdr *site)
{
	(void)args, (void)nargs, (void)kw, (void)site;
	return v_bool(f->in->a, fn->u.bi.self->u.dict->cfgnode == 2);
}

/* defrost, freeze, register_deprecated_key, register_renamed_key: None,
 * nothing a branch reads (a frozen node is not tracked: code that runs
 * writes none) */
static value_t *m_none(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	(void)fn, (void)args, (void)nargs, (void)kw, (void)site;
	return v_none(f->in->a);
}

static value_t *m_dump(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	(void)fn, (void)args, (void)nargs, (void)kw;
	return unknown_at(f, site, "the YAML text of a yacs config (not rendered)");
}

static value_t *m_is_frozen(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	(void)fn, (void)args, (void)nargs, (void)kw;
	return unknown_at(f, site, "whether a yacs config is frozen (not followed)");
}

static const struct native yacs_methods[] = {
	{ "clone", m_clone, BI_M_CFG_CLONE },
	{ "defrost", m_none, BI_M_CFG_NONE },
	{ "dump", m_dump, BI_M_CFG_DUMP },
	{ "freeze", m_none, BI_M_CFG_NONE },
	{ "is_frozen", m_is_frozen, BI_M_CFG_IS_FROZEN },
	{ "is_new_allowed", m_is_new_allowed, BI_M_CFG_IS_NEW_ALLOWED },
	{ "load_cfg", m_load_cfg, BI_M_CFG_LOAD_CFG },
	{ "load_yaml_with_base", m_load_with_base, BI_M_CFG_LOAD_WITH_BASE },
	{ "merge_from_file", m_merge_from_file, BI_M_CFG_MERGE_FROM_FILE },
	{ "merge_from_list", m_merge_from_list, BI_M_CFG_MERGE_FROM_LIST },
	{ "merge_from_other_cfg", m_merge_from_other, BI_M_CFG_MERGE_FROM_OTHER },
	{ "register_deprecated_key", m_none, BI_M_CFG_NONE },
	{ "register_renamed_key", m_none, BI_M_CFG_NONE },
	{ "set_new_allowed", m_set_new_allowed, BI_M_CFG_SET_NEW_ALLOWED },
};

const struct ntab yacs_methods_ntab = NTAB(yacs_methods);

value_t *yacs_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;

	if (!is_node(obj) || !(m = NTAB_FIND(yacs_methods, name)))
		return NULL;
	if (m->id == BI_M_CFG_LOAD_WITH_BASE && !obj->u.dict->cfgbase)
		return NULL;   /* yacs's own class has no such method */
	return mk_builtin(in, (int)m->id, obj);
}

int yacs_isinstance(struct interp *in, const value_t *v, const char *cls)
{
	if (!yacs_node_class(in, cls))
		return -2;
	if (is_node(v))
		return 1;
	switch (v->k) {
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR: case VK_LIST: case VK_TUPLE:
		return 0;
	default:
		return -1;   /* a dict may be a node whose copy lost the mark */
	}
}

/* CfgNode.load_cfg(text or file), yacs.config.load_cfg: a file opened from
 * the repository read as merge_from_file reads it; YAML text not read */
static value_t *y_load_cfg(struct frame *f, value_t **args, size_t nargs, const struct ast_hdr *site)
{
	value_t *a = nargs >= 1 ? args[0] : NULL, *r;
	const char *why = NULL;

	if (!a || a->k != VK_INST || !a->u.inst->ext || strcmp(a->u.inst->ext, "io.TextIOWrapper"))
		return unknown_at(f, site, "yacs load_cfg of YAML text or a value not known (not read)");
	r = load_node(f, vdict_gets(a->u.inst->attrs, "name"), site, &why);
	return r ? r : unknown_at(f, site, why);
}

value_t *yacs_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *base = yacs_node_class(in, d), *dot = strrchr(d, '.');
	value_t *arg, *v;
	const char *why = NULL;

	if (base)
		return yacs_new(f, base, NULL, args, nargs, kw, site);
	if (!strcmp(d, "yacs.config.load_cfg"))
		return y_load_cfg(f, args, nargs, site);
	/* a node class's classmethods, by '<class>.<name>' */
	if (!dot || (strcmp(dot + 1, "load_cfg") && strcmp(dot + 1, "load_yaml_with_base")) ||
	    !(base = yacs_node_class(in, afmt(in, "%.*s", (int)(dot - d), d))))
		return NULL;
	if (!strcmp(dot + 1, "load_cfg"))
		return y_load_cfg(f, args, nargs, site);
	if (!base[0])
		return NULL;   /* yacs's own class has no load_yaml_with_base */
	arg = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "filename") : NULL;
	v = load_with_base(f, arg, base, site, &why, 0);
	return v ? v : unknown_at(f, site, why);
}
