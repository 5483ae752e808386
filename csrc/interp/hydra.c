/* interp/hydra.c - the configuration @hydra.main hands its task function
 *
 * hydra_task_config(f, fv, d): for a def decorated
 * @hydra.main(config_path=P, config_name=N[, version_base=...]) -- both
 * known str, P relative (no "pkg://", no absolute path) -- the config
 * Hydra composes and passes as the task function's one argument when the
 * job calls it with none (`main()` under `if __name__ == "__main__":`):
 *   - the primary config <dir of the def's file>/P/N.yaml, read from the
 *     repository at the commit (OmegaConf.load: a DictConfig, its
 *     interpolations unknown);
 *   - its `hydra:` node removed (Hydra's own settings, not in the task's
 *     config);
 *   - a `defaults:` list composed (hydradefs.c: the config groups, the
 *     command line's group choices among them);
 *   - the job's other command-line words, each a Hydra override
 *     key.path=value, merged over it as OmegaConf.from_dotlist reads
 *     them.
 * The config is bound as the default of the function's only positional
 * parameter, so a call without it gets it and a call passing one (Hydra
 * passes a given config through) does not.  Nothing is bound -- the
 * parameter stays a value not known, as before -- when the file is not
 * read or not a mapping, when its `defaults:` list is not pinned
 * (hydradefs.c), when a command-line word is not a plain override
 * (--multirun, +key=, ~key, a group choice not read), or when
 * the def does not take exactly one positional parameter without a
 * default.  All values live in the interpreter's arena; nothing here
 * fails.
 */
#include "config.h"

#include "internal.h"

/* dir/rel with "." parts dropped and ".." parts taken back; NULL when
 * rel climbs out of the repository. */
static const char *join_rel(struct interp *in, const char *file, const char *rel)
{
	const char *slash = strrchr(file, '/');
	char *out = (char *)afmt(in, "%.*s/%s", slash ? (int)(slash - file) : 0, file, rel);
	char *r = out, *w = out;

	if (!slash)
		out++, r++, w++;  /* the file at the top: no leading "/" */
	while (*r) {
		size_t n = strcspn(r, "/");

		if (n == 0 || (n == 1 && r[0] == '.')) {
			/* "" or "." */
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			if (w == out)
				return NULL;
			w--;                        /* back over the last part's "/" */
			while (w > out && w[-1] != '/')
				w--;
		} else {
			memmove(w, r, n);
			w += n;
			*w++ = '/';
		}
		r += n;
		if (*r == '/')
			r++;
	}
	if (w > out && w[-1] == '/')
		w--;
	*w = 0;
	return out;
}

/* The config, or NULL when the code and the command line do not pin it. */
static value_t *compose(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	struct interp *in = f->in;
	const struct ast_Call *c = AST_AS(d, Call);
	const char *cpath = NULL, *cname = NULL, *dir, *file;
	value_t *cfg, *task, *arg, *words = in->argv;
	unsigned i;

	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);
		value_t *v;

		if (!k->arg)
			return NULL;          /* **kwargs: not known */
		if (strcmp(k->arg, "config_path") && strcmp(k->arg, "config_name"))
			continue;
		v = eval(f, k->value);
		if (v->k != VK_STR)
			return NULL;
		if (!strcmp(k->arg, "config_path"))
			cpath = v->u.str.s;
		else
			cname = v->u.str.s;
	}
	if (c->args.n || !cpath || !cname || cpath[0] == '/' || strstr(cpath, "://") || !fv->u.fn->file)
		return NULL;
	if (!(dir = join_rel(in, fv->u.fn->file->path, cpath)))
		return NULL;
	file = *dir ? afmt(in, "%s/%s.yaml", dir, cname) : afmt(in, "%s.yaml", cname);
	arg = v_str(in->a, file);
	cfg = omegaconf_call(f, "omegaconf.OmegaConf.load", &arg, 1, NULL, d);
	if (!cfg || cfg->k != VK_DICT)
		return NULL;
	for (i = 0; words && i < words->u.seq->n; i++)
		if (words->u.seq->items[i]->k != VK_STR || !strchr(words->u.seq->items[i]->u.str.s, '=') ||
		    strchr("-+~", words->u.seq->items[i]->u.str.s[0]))
			return NULL;
	if (vdict_gets(cfg->u.dict, "defaults")) {
		if (!(task = hydra_defaults(f, dir, cfg, words, &words, d)) || task->k != VK_DICT)
			return NULL;
	} else {
		task = v_dict(in->a);
		task->u.dict->dictconfig = 1;
		for (i = 0; i < cfg->u.dict->n; i++)
			if (!(cfg->u.dict->keys[i]->k == VK_STR && !strcmp(cfg->u.dict->keys[i]->u.str.s, "hydra")))
				vdict_set(in->a, task->u.dict, cfg->u.dict->keys[i], cfg->u.dict->vals[i]);
	}
	if (words && words->u.seq->n) {
		value_t *over, *layers[2];

		over = omegaconf_call(f, "omegaconf.OmegaConf.from_dotlist", &words, 1, NULL, d);
		if (!over || over->k != VK_DICT)
			return NULL;
		layers[0] = task;
		layers[1] = over;
		task = omegaconf_call(f, "omegaconf.OmegaConf.merge", layers, 2, NULL, d);
		if (!task || task->k != VK_DICT)
			return NULL;
	}
	return task;
}

void hydra_task_config(struct frame *f, value_t *fv, const struct ast_hdr *d)
{
	const struct ast_arguments *a;
	value_t *cfg;

	if (f->mode == M_FWD || fv->k != VK_FUNC || !AST_IS(d, Call) || !AST_IS(fv->u.fn->def, FunctionDef) ||
	    fv->u.fn->ndefaults)
		return;
	a = AST_AS(fv->u.fn->def, FunctionDef)->args;
	if (!a || a->posonlyargs.n + a->args.n != 1)
		return;
	if (!(cfg = compose(f, fv, d)))
		return;
	fv->u.fn->defaults = ast_arena_alloc(f->in->a, sizeof *fv->u.fn->defaults);
	fv->u.fn->defaults[0] = cfg;
	fv->u.fn->ndefaults = 1;
}
