/* interp/cfgargparse.c - configargparse's config files, read as the parser reads them
 *
 * A parser of a class the catalog lists under config_file_parsers
 * (configargparse.ArgumentParser, ArgParser) is an argparse parser
 * (argparse.c) that also reads configuration files at parse time:
 *
 *   - the files an option added with is_config_file=True (is_config_file_arg,
 *     or the constructor's args_for_setting_config_path) names -- its value
 *     as argparse gives it: the command line's, else its default;
 *   - the constructor's default_config_files that are in the job's tree;
 *   - the environment variables an option names (env_var=, or the
 *     constructor's auto_env_var_prefix followed by the option's key).
 *
 * configargparse turns every item into command-line words placed before
 * the job's own (files: earlier ones first; the environment after them),
 * and leaves out a key whose option is already among the words after it:
 * the command line over the environment over the config files (the one
 * the command line names over the default ones) over the parser's
 * defaults.  cap_words() builds those words; argparse.c parses them with
 * the job's; cap_mark() says where each value came from.
 *
 * The syntax read is configargparse's DefaultConfigFileParser: per line,
 * stripped, blank lines and lines starting with '#', ';', '[' or '---'
 * skipped; `key = value`, `key: value`, `key value` or `key` alone (the
 * value "true"); a comment from whitespace followed by '#' or ';' on; a
 * value in matching quotes unquoted; `[a, b]` a list (JSON, else split at
 * commas).  A key is an option's long flag with or without its "--".  A
 * flag-like action (store_true, store_false, store_const, count) takes
 * true/yes/1 (the flag given) or false/no/0 (left out).
 *
 * What is not read leaves values not known, never the defaults: a config
 * path not known, a file not read, a line configargparse rejects, another
 * file syntax (config_file_parser_class), a default config file outside
 * the tree (absolute, ~ or a glob), an environment not known.  Each
 * option not on the command line then reads as unknown with the reason.
 *
 * Memory: everything lives in the interpreter's arena; the text the job's
 * text loader returns is freed here.
 */
#include "config.h"

#include "internal.h"

#include <ctype.h>
#include <math.h>

#include "cJSON.h"
#include "ecg/catalog.h"

#define CAP_ATTR "__ecg_cfgparser__"     /* the constructor's keywords, on the parser */

int cap_is(const value_t *parser)
{
	return is_argparser(parser) && vdict_gets(parser->u.inst->attrs, CAP_ATTR);
}

static value_t *cap_kw(const value_t *parser, const char *name)
{
	value_t *k = vdict_gets(parser->u.inst->attrs, CAP_ATTR);

	return k && k->k == VK_DICT ? vdict_gets(k->u.dict, name) : NULL;
}

/* configargparse.ArgumentParser(...): an argparse parser marked as one
 * that reads config files; args_for_setting_config_path=[flags] adds the
 * config option as configargparse does (dest config_file).  NULL when d
 * is no such class. */
value_t *cap_new(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *p, *keep, *flags;
	size_t i;

	(void)args, (void)nargs;
	if (!catalog_fact(in->cat, CATALOG_F_CONFIG_FILE_PARSERS, d))
		return NULL;
	p = argp_new(in);
	argp_parents(in, p, kw);
	keep = v_dict(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, keep->u.dict, kw->keys[i], kw->vals[i]);
	vdict_sets(in->a, p->u.inst->attrs, CAP_ATTR, keep);
	flags = kw ? vdict_gets(kw, "args_for_setting_config_path") : NULL;
	if (flags && (flags->k == VK_LIST || flags->k == VK_TUPLE) && flags->u.seq->n) {
		struct vdict *akw = vdict_new(in->a);
		value_t *req = vdict_gets(kw, "config_arg_is_required");

		vdict_sets(in->a, akw, "dest", v_str(in->a, "config_file"));
		vdict_sets(in->a, akw, "is_config_file_arg", v_bool(in->a, 1));
		if (req)
			vdict_sets(in->a, akw, "required", req);
		argp_add(f, p, flags->u.seq->items, flags->u.seq->n, akw, site);
	}
	return p;
}

/* configargparse's other names of argparse's methods (parser.add,
 * parser.parse): argparse's name, or name itself. */
const char *cap_method_name(struct interp *in, const value_t *parser, const char *name)
{
	const char *m;

	if (!cap_is(parser))
		return name;
	m = catalog_fact(in->cat, CATALOG_F_CONFIG_FILE_PARSER_METHODS, name);
	return m && *m ? m : name;
}

/* ------------------------------------------------------------------ the options */

static int opt_flag(const value_t *o, const char *key)
{
	value_t *v = vdict_gets(o->u.dict, key);

	return v && value_truth(v) == 1;
}

static const char *opt_str(const value_t *o, const char *key)
{
	value_t *v = vdict_gets(o->u.dict, key);

	return v && v->k == VK_STR ? v->u.str.s : NULL;
}

static const struct vseq *opt_flags(const value_t *o)
{
	value_t *v = vdict_gets(o->u.dict, "flags");

	return v && v->k == VK_LIST ? v->u.seq : NULL;
}

/* The option's long flags' first ("--my-arg" -> "my-arg"), or NULL: an
 * option with no long flag takes no config key. */
static const char *opt_key(const value_t *o)
{
	const struct vseq *fl = opt_flags(o);
	size_t i;

	for (i = 0; fl && i < fl->n; i++)
		if (fl->items[i]->k == VK_STR && !strncmp(fl->items[i]->u.str.s, "--", 2) && fl->items[i]->u.str.s[2])
			return fl->items[i]->u.str.s + 2;
	return NULL;
}

/* The option a config key names: "x" or "--x" for a long flag "--x". */
static value_t *opt_by_key(value_t *parser, const char *key)
{
	const struct vseq *opts = parser->u.inst->argp_opts->u.seq;
	size_t i, j;

	for (i = 0; i < opts->n; i++) {
		const struct vseq *fl = opt_flags(opts->items[i]);

		for (j = 0; fl && j < fl->n; j++) {
			const char *s = fl->items[j]->k == VK_STR ? fl->items[j]->u.str.s : "";

			if (!strncmp(s, "--", 2) && s[2] && (!strcmp(s, key) || !strcmp(s + 2, key)))
				return opts->items[i];
		}
	}
	return NULL;
}

/* configargparse's already_on_command_line: a word (its part before "="
 * when it starts with '-') is one of the option's flags. */
static int on_words(const value_t *o, const struct vseq *words)
{
	const struct vseq *fl = opt_flags(o);
	size_t i, j;

	for (i = 0; words && i < words->n; i++) {
		const char *w = words->items[i]->k == VK_STR ? words->items[i]->u.str.s : "";
		const char *eq = w[0] == '-' ? strchr(w, '=') : NULL;
		size_t n = eq ? (size_t)(eq - w) : strlen(w);

		for (j = 0; fl && j < fl->n; j++)
			if (fl->items[j]->k == VK_STR && strlen(fl->items[j]->u.str.s) == n &&
			    !strncmp(fl->items[j]->u.str.s, w, n))
				return 1;
	}
	return 0;
}

static int action_is(const value_t *o, const char *a)
{
	const char *s = opt_str(o, "action");

	return s && !strcmp(s, a);
}

/* store_true & co: no value on the command line */
static int takes_no_value(const value_t *o)
{
	return action_is(o, "store_true") || action_is(o, "store_false") || action_is(o, "store_const") ||
	       action_is(o, "count") || action_is(o, "append_const");
}

static int takes_list(const value_t *o)
{
	value_t *n = vdict_gets(o->u.dict, "nargs");

	return n && ((n->k == VK_STR && (!strcmp(n->u.str.s, "+") || !strcmp(n->u.str.s, "*"))) ||
	             (n->k == VK_INT && n->u.i > 1));
}

/* ------------------------------------------------------------------ the words */

/* The words a collection of layers builds, and what each option became. */
struct capw {
	struct interp *in;
	value_t *parser;
	value_t *words;          /* list: the words added so far, then the job's */
	struct vdict *from;      /* dest -> str (the file or variable that set it)
	                            or unknown (why it is not known) */
};

/* The last flag of o, as configargparse writes it (option_strings[-1]). */
static const char *last_flag(const value_t *o)
{
	const struct vseq *fl = opt_flags(o);

	return fl && fl->n && fl->items[fl->n - 1]->k == VK_STR ? fl->items[fl->n - 1]->u.str.s : NULL;
}

/* Every option a layer could set, not given after it (on the job's
 * command line, by a variable or a later file) nor decided already, made
 * unknown for `why` (a layer not read). */
static void all_unknown(struct capw *w, const char *why)
{
	const struct vseq *opts = w->parser->u.inst->argp_opts->u.seq;
	size_t i;

	for (i = 0; i < opts->n; i++) {
		const char *dest = opt_str(opts->items[i], "dest");

		if (dest && opt_key(opts->items[i]) && !opt_flag(opts->items[i], "is_config_file") &&
		    !opt_flag(opts->items[i], "is_config_file_arg") && !vdict_gets(w->from, dest) &&
		    !on_words(opts->items[i], w->words->u.seq))
			vdict_sets(w->in->a, w->from, dest, v_unknown(w->in->a, NULL, why));
	}
}

/* Option o's item (a text, or a list of texts) as words, appended to out;
 * -1 when configargparse rejects it (the run exits). */
static int item_words(struct interp *in, const value_t *o, const char *text, const value_t *list, struct vseq *out)
{
	const char *flag = last_flag(o);
	size_t i;

	if (!flag)
		return -1;
	if (takes_no_value(o)) {
		char lo[8];

		if (list || strlen(text) >= sizeof lo)
			return -1;
		for (i = 0; text[i]; i++)
			lo[i] = (char)tolower((unsigned char)text[i]);
		lo[i] = 0;
		if (!strcmp(lo, "true") || !strcmp(lo, "yes") || !strcmp(lo, "1"))
			vseq_push(in->a, out, v_str(in->a, flag));
		else if (strcmp(lo, "false") && strcmp(lo, "no") && strcmp(lo, "0"))
			return -1;
		return 0;
	}
	if (list) {
		if (action_is(o, "append")) {
			for (i = 0; i < list->u.seq->n; i++) {
				vseq_push(in->a, out, v_str(in->a, flag));
				vseq_push(in->a, out, list->u.seq->items[i]);
			}
			return 0;
		}
		if (!takes_list(o))
			return -1;
		vseq_push(in->a, out, v_str(in->a, flag));
		for (i = 0; i < list->u.seq->n; i++)
			vseq_push(in->a, out, list->u.seq->items[i]);
		return 0;
	}
	if (takes_list(o) || action_is(o, "append")) {
		vseq_push(in->a, out, v_str(in->a, flag));
		vseq_push(in->a, out, v_str(in->a, text));
	} else {
		vseq_push(in->a, out, v_str(in->a, afmt(in, "%s=%s", flag, text)));
	}
	return 0;
}

/* Words of one layer put before the words so far (a key whose option is
 * already there left out); each option set is recorded as from `src`. */
static void put_layer(struct capw *w, struct vseq *layer, const char *src, value_t **opts_set, size_t nset)
{
	struct interp *in = w->in;
	value_t *all = v_seq(in->a, VK_LIST, 0);
	size_t i;

	for (i = 0; i < layer->n; i++)
		vseq_push(in->a, all->u.seq, layer->items[i]);
	for (i = 0; i < w->words->u.seq->n; i++)
		vseq_push(in->a, all->u.seq, w->words->u.seq->items[i]);
	w->words = all;
	for (i = 0; i < nset; i++) {
		const char *dest = opt_str(opts_set[i], "dest");

		if (dest && !vdict_gets(w->from, dest))
			vdict_sets(in->a, w->from, dest, v_str(in->a, src));
	}
}

/* ------------------------------------------------------------------ DefaultConfigFileParser */

/* Whether JSON text [s, e) holds a number spelt as a float (a '.', 'e'
 * or 'E' outside its strings). */
static int json_floats(const char *s, const char *e)
{
	int instr = 0;

	for (; s < e; s++) {
		if (instr && *s == '\\' && s + 1 < e)
			s++;
		else if (*s == '"')
			instr = !instr;
		else if (!instr && (*s == '.' || *s == 'e' || *s == 'E'))
			return 1;
	}
	return 0;
}

/* One line's item: 1 with *key and *val (or *list) set, 0 for a line
 * skipped, -1 for a line configargparse rejects. */
static int parse_line(struct interp *in, const char *s, size_t n, const char **key, const char **val, value_t **list)
{
	const char *e = s + n, *k0, *v0, *ve, *p;
	int sep = 0;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s == e || *s == '#' || *s == ';' || *s == '[' || (e - s >= 3 && !strncmp(s, "---", 3)))
		return 0;
	for (k0 = s; s < e && !isspace((unsigned char)*s) && !strchr(":=;#", *s); s++)
		;
	if (s == k0)
		return -1;
	*key = astr(in, afmt(in, "%.*s", (int)(s - k0), k0));
	*list = NULL;
	p = s;
	while (s < e && isspace((unsigned char)*s))
		s++;
	if (s < e && (*s == ':' || *s == '=')) {
		sep = *s++;
		while (s < e && isspace((unsigned char)*s))
			s++;
	} else if (s > p) {
		sep = ' ';
	} else if (s < e) {
		return -1;        /* `key;x`, `key#x`: no separator */
	}
	if (s == e) {
		*val = sep == ':' || sep == '=' ? "" : "true";
		return 1;
	}
	/* the comment: whitespace then '#' or ';', after the value's first character */
	v0 = s;
	for (ve = v0 + 1; ve < e; ve++) {
		const char *q = ve;

		if (!isspace((unsigned char)*q))
			continue;
		while (q < e && isspace((unsigned char)*q))
			q++;
		if (q < e && (*q == '#' || *q == ';'))
			break;
	}
	while (ve > v0 && isspace((unsigned char)ve[-1]))
		ve--;
	if (ve - v0 >= 2 && (*v0 == '"' || *v0 == '\'') && ve[-1] == *v0) {
		v0++;
		ve--;
	}
	*val = astr(in, afmt(in, "%.*s", (int)(ve - v0), v0));
	if (ve > v0 && *v0 == '[' && ve[-1] == ']') {
		cJSON *j = cJSON_ParseWithLength(v0, (size_t)(ve - v0)), *c;
		value_t *l = v_seq(in->a, VK_LIST, 0);

		if (j && cJSON_IsArray(j)) {
			/* json.loads, then str() of each item: strings and ints
			 * only (a float's or a bool's spelling in Python is not
			 * rebuilt here) */
			if (json_floats(v0, ve)) {
				cJSON_Delete(j);
				return -1;
			}
			for (c = j->child; c; c = c->next) {
				if (cJSON_IsString(c))
					vseq_push(in->a, l->u.seq, v_str(in->a, c->valuestring));
				else if (cJSON_IsNumber(c) && fabs(c->valuedouble) < 9e15)
					vseq_push(in->a, l->u.seq, v_str(in->a, afmt(in, "%lld", (long long)c->valuedouble)));
				else {
					cJSON_Delete(j);
					return -1;
				}
			}
		} else {
			/* not JSON: the text between the brackets split at commas */
			const char *a = v0 + 1, *b;

			for (;;) {
				const char *x, *y;

				for (b = a; b < ve - 1 && *b != ','; b++)
					;
				for (x = a; x < b && isspace((unsigned char)*x); x++)
					;
				for (y = b; y > x && isspace((unsigned char)y[-1]); y--)
					;
				vseq_push(in->a, l->u.seq, v_strn(in->a, x, (size_t)(y - x)));
				if (b >= ve - 1)
					break;
				a = b + 1;
			}
		}
		cJSON_Delete(j);
		*list = l;
	}
	return 1;
}

/* ------------------------------------------------------------------ the layers */

/* One config file's items put before the words so far.  A file not read,
 * or a line configargparse rejects, leaves every option it could set not
 * known. */
static void file_layer(struct capw *w, const char *path, const char *anchor)
{
	struct interp *in = w->in;
	value_t *ign = cap_kw(w->parser, "ignore_unknown_config_file_keys");
	const char *why = NULL, *p, *e;
	struct vseq *words = v_seq(in->a, VK_LIST, 0)->u.seq;
	value_t **set = NULL;
	const char **keys = NULL;
	struct { const char *val; value_t *list; } *vals = NULL;
	size_t nset = 0, aset = 0, nkeys = 0, akeys = 0, avals = 0, i, len = 0;
	char *text;
	int line = 0;

	if (!in->load_text) {
		all_unknown(w, afmt(in, "set by the config file '%s', not read in this mode", path));
		return;
	}
	text = in->load_text(in->load_text_ctx, path, in->prog->entry_dir, &len, &why);
	if (!text) {
		note(in, anchor, afmt(in, "config file '%s'", path), why ? why : "not read");
		all_unknown(w, afmt(in, "may be set by the config file '%s', not read: %s", path,
		                          why ? why : "(no reason)"));
		return;
	}
	/* the items, in order of first appearance, each with its last value */
	for (p = text; p < text + len; p = e + 1) {
		const char *key = NULL, *val = NULL;
		value_t *list = NULL;
		int r;

		e = memchr(p, '\n', (size_t)(text + len - p));
		if (!e)
			e = text + len;
		line++;
		r = parse_line(in, p, (size_t)(e - p), &key, &val, &list);
		if (r < 0) {
			free(text);
			free(keys);
			free(vals);
			note(in, anchor, afmt(in, "config file '%s'", path),
			     afmt(in, "line %d is one configargparse rejects or ecg does not read", line));
			all_unknown(w, afmt(in, "may be set by the config file '%s' (line %d not read)", path, line));
			return;
		}
		if (!r)
			continue;
		for (i = 0; i < nkeys && strcmp(keys[i], key); i++)
			;
		if (i == nkeys) {
			GROW(keys, akeys, nkeys + 1);
			GROW(vals, avals, nkeys + 1);
			keys[nkeys++] = key;
		}
		vals[i].val = val;
		vals[i].list = list;
	}
	free(text);
	for (i = 0; i < nkeys; i++) {
		value_t *o = opt_by_key(w->parser, keys[i]);
		const char *dest = o ? opt_str(o, "dest") : NULL;

		if (!o || !dest) {
			if (!ign || value_truth(ign) != 1)
				note(in, anchor, afmt(in, "config file '%s'", path),
				     afmt(in, "key '%s' names no option (argparse would reject it)", keys[i]));
			continue;
		}
		if (on_words(o, w->words->u.seq))
			continue;        /* given after it: the command line, the environment, a later file */
		if (item_words(in, o, vals[i].val, vals[i].list, words) < 0) {
			if (!vdict_gets(w->from, dest))
				vdict_sets(in->a, w->from, dest,
				           v_unknown(in->a, NULL, afmt(in, "a value of '%s' in '%s' configargparse rejects",
				                                       keys[i], path)));
			continue;
		}
		GROW(set, aset, nset + 1);
		set[nset++] = o;
	}
	put_layer(w, words, path, set, nset);
	free(set);
	free(keys);
	free(vals);
}

/* The environment variable an option reads (env_var=, or the parser's
 * auto_env_var_prefix and the option's key), or NULL; *open set when the
 * prefix is not known. */
static const char *env_name(struct capw *w, const value_t *o, int *open)
{
	struct interp *in = w->in;
	const char *ev = opt_str(o, "env_var"), *key = opt_key(o);
	value_t *pre = cap_kw(w->parser, "auto_env_var_prefix");
	char *s, *c;
	const char *r;

	if (ev || !key || opt_flag(o, "is_config_file") || opt_flag(o, "is_config_file_arg"))
		return ev;
	if (!pre || pre->k == VK_NONE)
		return NULL;
	if (pre->k != VK_STR) {
		*open = 1;
		return NULL;
	}
	s = xstrdup(afmt(in, "%s%s", pre->u.str.s, key));
	for (c = s; *c; c++)
		*c = *c == '-' ? '_' : (char)toupper((unsigned char)*c);
	r = astr(in, s);
	free(s);
	return r;
}

/* The options' environment variables, as words before the job's. */
static void env_layer(struct capw *w, const struct vseq *argv)
{
	struct interp *in = w->in;
	const struct vseq *opts = w->parser->u.inst->argp_opts->u.seq;
	struct vseq *words = v_seq(in->a, VK_LIST, 0)->u.seq;
	value_t **set = NULL;
	size_t i, nset = 0, aset = 0;

	for (i = 0; i < opts->n; i++) {
		const value_t *o = opts->items[i];
		const char *dest = opt_str(o, "dest"), *ev;
		value_t *v;
		int open = 0;

		ev = env_name(w, o, &open);
		if (!dest || (!ev && !open) || on_words(o, argv) || !opt_flags(o) || !last_flag(o) || last_flag(o)[0] != '-')
			continue;
		v = ev && in->environ && in->environ->k == VK_DICT ? vdict_gets(in->environ->u.dict, ev) : NULL;
		if (v && v->k == VK_STR) {
			if (item_words(in, o, v->u.str.s, NULL, words) < 0)
				vdict_sets(in->a, w->from, dest,
				           v_unknown(in->a, NULL, afmt(in, "a value of %s configargparse rejects", ev)));
			else {
				GROW(set, aset, nset + 1);
				set[nset++] = (value_t *)o;
				vdict_sets(in->a, w->from, dest, v_str(in->a, afmt(in, "$%s", ev)));
			}
		} else if (open || v || !env_complete(in)) {
			vdict_sets(in->a, w->from, dest,
			           v_unknown(in->a, NULL, open ? "may be set by an environment variable whose prefix is not known"
			                                       : afmt(in, "may be set by the environment variable %s", ev)));
		}
	}
	put_layer(w, words, NULL, set, 0);
	free(set);
}

/* The words configargparse parses for `parser`: the default config files'
 * items, the named config files', the environment's, then argv's (the
 * job's words, NULL when the command line was not given); scratch is the
 * namespace of argv alone, where the config options' values are read.
 * *from maps each option's dest set by a file or variable to its source
 * (a str), or to an unknown (why it is not known).  NULL when nothing is
 * added and nothing made unknown: argv stands. */
value_t *cap_words(struct frame *f, value_t *parser, const struct vinst *scratch, const struct vseq *argv,
                   struct vdict **from)
{
	struct interp *in = f->in;
	struct capw w;
	const struct vseq *opts = parser->u.inst->argp_opts->u.seq;
	value_t *defs = cap_kw(parser, "default_config_files"), *cls = cap_kw(parser, "config_file_parser_class");
	const char *syntax = NULL, *anchor = NULL;
	struct { const char *path, *why; } layers[32];
	size_t nl = 0, i;
	struct vseq empty = { 0 };

	w.in = in;
	w.parser = parser;
	w.words = v_seq(in->a, VK_LIST, 0);
	w.from = vdict_new(in->a);
	for (i = 0; argv && i < argv->n; i++)
		vseq_push(in->a, w.words->u.seq, argv->items[i]);
	if (!argv)
		argv = &empty;
	env_layer(&w, argv);

	/* the config files, lowest first: the default ones, then the named ones */
	if (cls && cls->k != VK_NONE) {
		const char *cn = cls->k == VK_EXT ? canon_ext(in, cls->u.ext) : NULL;

		syntax = cn ? catalog_fact(in->cat, CATALOG_F_CONFIG_FILE_SYNTAXES, cn) : NULL;
	} else {
		syntax = "default";
	}
	if (defs && defs->k != VK_NONE) {
		if ((defs->k != VK_LIST && defs->k != VK_TUPLE) || defs->u.seq->unk_reason) {
			layers[nl].path = NULL;
			layers[nl++].why = "may be set by a default config file of a list not known";
		} else {
			for (i = 0; i < defs->u.seq->n && nl < 16; i++) {
				value_t *d = defs->u.seq->items[i];

				if (d->k != VK_STR || strpbrk(d->u.str.s, "*?[") || d->u.str.s[0] == '~' || d->u.str.s[0] == '/') {
					layers[nl].path = NULL;
					layers[nl++].why = afmt(in, "may be set by the default config file %s, outside the job's tree",
					                        d->k == VK_STR ? d->u.str.s : "(a path not known)");
				} else {
					/* in the tree, or absent: configargparse skips a
					 * default file that is not there */
					char *t;
					size_t len;
					const char *why = NULL;

					if (!in->load_text)
						continue;
					t = in->load_text(in->load_text_ctx, d->u.str.s, in->prog->entry_dir, &len, &why);
					if (!t)
						continue;
					free(t);
					layers[nl].path = d->u.str.s;
					layers[nl++].why = NULL;
				}
			}
		}
	}
	for (i = 0; i < opts->n && nl < 32; i++) {
		const value_t *o = opts->items[i];
		const char *dest = opt_str(o, "dest");
		value_t *v;

		if (!dest || !(opt_flag(o, "is_config_file") || opt_flag(o, "is_config_file_arg")))
			continue;
		if (!anchor)
			anchor = opt_str(o, "anchor");
		v = vdict_gets(scratch->attrs, dest);
		if (!v || v->k == VK_NONE || (v->k == VK_STR && !v->u.str.s[0]))
			continue;
		layers[nl].path = v->k == VK_STR ? v->u.str.s : NULL;
		layers[nl++].why = v->k == VK_STR ? NULL
		                   : afmt(in, "may be set by the config file args.%s names, whose path is not known", dest);
	}
	if (!anchor)
		anchor = "configargparse";
	for (i = nl; i-- > 0;) {
		if (!layers[i].path)
			all_unknown(&w, layers[i].why);
		else if (!syntax || strcmp(syntax, "default"))
			all_unknown(&w, afmt(in, "may be set by the config file '%s', in a syntax ecg does not read",
			                           layers[i].path));
		else
			file_layer(&w, layers[i].path, anchor);
	}
	*from = w.from;
	if (w.words->u.seq->n == argv->n && !w.from->n)
		return NULL;
	return w.words;
}

/* Where each value set by a file or a variable came from (via config
 * file, src the file or "$VAR"), and the values not known made unknown;
 * a --set override of the same name stands. */
void cap_mark(struct frame *f, struct vinst *ns, const struct vdict *from)
{
	struct interp *in = f->in;
	size_t i;

	for (i = 0; from && i < from->n; i++) {
		const char *dest = from->keys[i]->k == VK_STR ? from->keys[i]->u.str.s : NULL;
		value_t *src = from->vals[i], *v;

		if (!dest || vdict_gets(in->overrides, dest))
			continue;
		if (src->k == VK_UNKNOWN) {
			v = v_unknown(in->a, afmt(in, "args.%s", dest), src->reason);
		} else {
			value_t *cur = vdict_gets(ns->attrs, dest);

			if (!cur)
				continue;
			v = v_copy(in->a, cur);
			v->via = VIA_CONFIG_FILE;
			v->src = src->u.str.s;
		}
		vdict_sets(in->a, ns->attrs, dest, v);
	}
}
