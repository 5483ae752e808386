/* analyse.c - see include/ecg/analyse.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/analyse.h"
#include "ecg/err.h"
#include "ecg/modtree.h"
#include "ecg/nearest.h"
#include "ecg/findings.h"
#include "ecg/layout.h"
#include "ecg/schedule.h"
#include "ecg/util.h"

/* Is m (or another model under `name`) listed already?  Ids are the names
 * the job binds models to, and must be unique: a second instance under
 * the same name is said in unresolved, not listed. */
static int model_taken(const struct mt_model *models, size_t n, const struct vinst *m, const char *name,
                       cJSON *unres, const char *anchor)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (models[k].root == m)
			return 1;
		if (!strcmp(models[k].name, name)) {
			records_add_unresolved(unres, anchor ? anchor : "", "another module bound to the same name",
			                       "a second instance bound to this name is not listed (ids are the names models are bound to)");
			return 1;
		}
	}
	return 0;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcmp(s + n - k, suf);
}

/* The path (dotted attribute names, as named_modules() gives it) from
 * `outer` down to `inner`, appended to b (NULL: only whether there is
 * one); 1 when found.  *budget bounds the walk (modules shared along
 * many paths). */
static int inst_path(const struct vinst *outer, const struct vinst *inner, int depth, size_t *budget, buf_t *b)
{
	size_t i, len = b ? b->len : 0;

	if (depth > 64)
		return 0;
	for (i = 0; i < outer->nchildren; i++) {
		const struct vinst *c = outer->children[i].inst;

		if (!*budget)
			return 0;
		(*budget)--;
		if (b)
			buf_addf(b, ".%s", outer->children[i].name);
		if (c == inner || inst_path(c, inner, depth + 1, budget, b))
			return 1;
		if (b) {
			b->len = len;
			b->buf[len] = 0;
		}
	}
	return 0;
}

/* Does named_modules() of `outer` list `inner` (outer itself excluded)? */
static int inst_holds(const struct vinst *outer, const struct vinst *inner, int depth, size_t *budget)
{
	return inst_path(outer, inner, depth, budget, NULL);
}

/* A module the job calls from code that is not a forward (a method of a
 * bigger module it built and named: `model.apply_model(...)` calling
 * `self.model(x)`, `model.get_learned_conditioning(...)` calling the text
 * encoder) whose own name is the name of that bigger module -- the local a
 * builder bound it to (`model = instantiate_from_config(cfg)`), or the
 * attribute it is called by: its name is the path from the outermost named
 * module that holds it ("model.model", "model.cond_stage_model"), so that
 * the several submodules called so each get their entry instead of being
 * taken for a second module of one name.  A string the caller frees, or
 * NULL when no named module holds it or the outermost one is not named
 * `name` (a module of another name holding it -- a wrapper an AMP check
 * builds around the model -- is left as it was: one name, one model). */
static char *held_name(struct interp *in, const struct vinst *m, const char *name)
{
	struct vinst *const *cands;
	const char *const *where;
	size_t nc = interp_candidates(in, &cands, &where), i, best_len = 0;
	const struct vinst *best = NULL;
	buf_t b, bb;

	buf_init(&bb);
	for (i = 0; i < nc; i++) {
		size_t budget = 1u << 16;

		if (cands[i] == m || !cands[i]->bound_name)
			continue;
		buf_init(&b);
		if (inst_path(cands[i], m, 0, &budget, &b) && b.len > best_len) {
			best = cands[i];
			best_len = b.len;
			buf_free(&bb);
			bb = b;
			continue;
		}
		buf_free(&b);
	}
	if (!best || strcmp(best->bound_name, name)) {
		buf_free(&bb);
		return NULL;
	}
	{
		char *r = xasprintf("%s%s", best->bound_name, bb.buf);

		buf_free(&bb);
		return r;
	}
}

/* Only repo modules in m's tree (no torch.nn layer or container, whose
 * contents may come from where ecg does not see). */
static int repo_only(const struct vinst *m, int depth)
{
	size_t i;

	if (m->mod != VM_REPO || depth > 64)
		return 0;
	for (i = 0; i < m->nchildren; i++)
		if (!repo_only(m->children[i].inst, depth + 1))
			return 0;
	return 1;
}

/* A loss module: its class says so (`SetCriterion`, `PerceptualLoss`, a
 * subclass of a torch.nn loss), or it is made of repo modules only and
 * has no parameters (nothing the job could train or load: a loss or a
 * metric, not a model). */
static int is_loss_module(struct interp *in, const struct vinst *m)
{
	const char *cn = interp_class_name(m);

	if (ends_with(cn, "Loss") || ends_with(cn, "Criterion") || ends_with(cn, "criterion"))
		return 1;
	if (m->cls && m->cls->ext_base && strstr(m->cls->ext_base, "Loss"))
		return 1;
	return repo_only(m, 0) && modtree_params(in, m) == 0;
}

/* --set KEY=VALUE that the job never read: a warning naming the key and
 * the nearest configuration name the job does read. */
static void analyse_unread_sets(const struct interp *in, const struct analyse_opts *o)
{
	const char **names;
	size_t i, n;

	if (!o->nsets)
		return;
	names = xcalloc(4096, sizeof *names);
	n = interp_config_names(in, names, 4096);
	for (i = 0; i < o->nsets; i++) {
		const char *eq = strchr(o->sets[i], '=');
		char *key = xstrndup(o->sets[i], eq ? (size_t)(eq - o->sets[i]) : strlen(o->sets[i]));
		const char *dot = strrchr(key, '.'), *g;

		if (!interp_config_read(in, key) && !(dot && interp_config_read(in, dot + 1))) {
			g = nearest(dot ? dot + 1 : key, names, n);
			if (g)
				err_warn("warning: --set %s: the job never reads a configuration name '%s'; did you mean "
				         "'%s'?", key, key, g);
			else
				err_warn("warning: --set %s: the job never reads a configuration name '%s' (the value is "
				         "not used)", key, key);
		}
		free(key);
	}
	free(names);
}

/* Is the model's listed call one in a loop, with gradients (the training
 * step's)? */
static int trained_in_loop(const struct mt_model *m)
{
	return m->call && m->call->loop_anchor && !m->call->no_grad;
}

/* Keep the models of the job: a module that another chosen model holds
 * (the step calls a wrapper -- a task object holding the model and its
 * loss -- and the model is also called on its own elsewhere) is inside
 * that model's tree, not a model of its own; a loss module called next to
 * a model is not a model.  Returns the new count. */
static size_t prune_models(struct interp *in, struct mt_model *models, size_t n, struct mt_model *losses,
                           size_t *nloss)
{
	size_t i, k, keep = 0, nonloss = 0;
	char *drop = xcalloc(n + 1, 1);

	for (i = 0; i < n; i++) {
		for (k = 0; k < n && !drop[i]; k++) {
			size_t budget = 1u << 16;

			if (k != i && !drop[k] && inst_holds(models[k].root, models[i].root, 0, &budget))
				drop[i] = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (!drop[i] && !is_loss_module(in, models[i].root))
			nonloss++;
	for (i = 0; i < n; i++) {
		if (!drop[i] && nonloss && is_loss_module(in, models[i].root))
			losses[(*nloss)++] = models[i];   /* not a model; its forward still runs */
		if (drop[i] || (nonloss && is_loss_module(in, models[i].root)))
			continue;
		models[keep++] = models[i];
	}
	free(drop);
	return keep;
}

int analyse_job(struct prog *prog, const char *entry, const char *func, const struct analyse_opts *o,
                const struct catalog *cat, cJSON *modules, cJSON *unres, cJSON *config,
                struct job_info *job, cJSON *sched_parts)
{
	struct sfile *ef = prog_file(prog, entry);
	struct interp *in;
	const struct root_call *roots;
	struct mt_model *models, *losses;
	const struct interp_note *notes;
	size_t nroots, nmodels = 0, nlosses = 0, i, k, nnotes;
	int trained = 0;
	const char *slash, *loaded = NULL, *libmodel = NULL;
	char **held_names = NULL;     /* the names held_name() made, freed at the end */
	size_t nheld = 0, aheld = 0;

	if (!ef)
		return 0;
	prog_ensure(prog, ef);
	if (!ef->mod)
		return 0;
	slash = strrchr(entry, '/');
	free(prog->entry_dir);
	prog->entry_dir = slash ? xstrndup(entry, (size_t)(slash - entry) + 1) : xstrdup("");
	in = interp_new(prog, cat);
	if (o->argc)
		interp_set_argv(in, o->argv, o->argc);
	if (o->loader)
		interp_set_loader(in, o->loader, o->loader_ctx);
	if (o->text_loader)
		interp_set_text_loader(in, o->text_loader, o->loader_ctx);
	if (o->tree)
		interp_set_tree(in, o->tree, o->loader_ctx);
	if (o->fs_json_loader)
		interp_set_fs_json_loader(in, o->fs_json_loader, o->loader_ctx);
	if (o->env_known)
		interp_set_env(in, o->envs, o->nenvs, o->env_partial);
	interp_set_machine(in, (enum interp_machine)o->machine);
	for (i = 0; i < o->nsets; i++) {
		const char *eq = strchr(o->sets[i], '=');
		char *key = xstrndup(o->sets[i], (size_t)(eq - o->sets[i]));

		interp_set_override(in, key, eq + 1);
		free(key);
	}
	if (o->overrides) {
		const cJSON *c;

		cJSON_ArrayForEach(c, o->overrides)
			interp_set_override(in, c->string, c->valuestring);
	}
	if (!func) {
		interp_run_entry(in, ef);
	} else if (interp_run_function(in, ef, func) < 0) {
		err_set(ECG_EXIT_INPUT, "entry '%s': %s defines no function '%s'", o->entry_spec ? o->entry_spec : entry,
		        entry, func);
		interp_free(in);
		return -1;
	}
	analyse_unread_sets(in, o);
	roots = interp_roots(in, &nroots);
	models = xcalloc(nroots + 1, sizeof *models);
	for (i = 0; i < nroots && !trained; i++)
		trained = roots[i].inst && roots[i].loop_anchor && !roots[i].no_grad && !roots[i].host_input;
	for (i = 0; i < nroots; i++) {
		const char *name;

		/* an inference wrapper given host data only, whose forward was
		 * read as job code at its call (an AMP check's AutoShape run
		 * once), beside a model the job trains in a loop: not a model
		 * of the job (its forward read again as the model's would
		 * make its copies and reads the step's) */
		if (trained && roots[i].host_input)
			continue;
		if (!roots[i].inst) {
			if (roots[i].lib_model && !libmodel)
				libmodel = roots[i].anchor;
			else if (!roots[i].lib_model && !loaded)
				loaded = roots[i].anchor;
			continue;     /* a model loaded whole from a file, or one a library
			                 built and ecg did not read: no modules to list */
		}
		name = roots[i].inst->bound_name ? roots[i].inst->bound_name
		                   : roots[i].binding ? roots[i].binding : "model";
		{
			char *hn = held_name(in, roots[i].inst, name);

			if (hn) {
				GROW(held_names, aheld, nheld + 1);
				name = held_names[nheld++] = hn;
			}
		}

		for (k = 0; k < nmodels && models[k].root != roots[i].inst; k++)
			;
		if (k == nmodels)      /* the instance not listed: the model listed under its name */
			for (k = 0; k < nmodels && strcmp(models[k].name, name); k++)
				;
		/* called in a loop with gradients where the instance listed
		 * under this name was not (called first inside a wrapper run
		 * once, as an AMP check's, or a copy made for it): the training
		 * call's instance is the model, its forward read from there */
		if (k < nmodels && roots[i].loop_anchor && !roots[i].no_grad && !trained_in_loop(&models[k])) {
			if (models[k].root != roots[i].inst)
				records_add_unresolved(unres, models[k].call && models[k].call->anchor ? models[k].call->anchor : "",
				                       "another module bound to the same name",
				                       "a second instance bound to this name is not listed (ids are the names "
				                       "models are bound to); the one the training loop calls is");
			models[k].root = roots[i].inst;
			models[k].call = &roots[i];
			continue;
		}
		if (model_taken(models, nmodels, roots[i].inst, name, unres, roots[i].anchor))
			continue;
		models[nmodels].root = roots[i].inst;
		models[nmodels].name = name;
		models[nmodels].call = &roots[i];
		nmodels++;
	}
	losses = xcalloc(nmodels + 1, sizeof *losses);
	nmodels = prune_models(in, models, nmodels, losses, &nlosses);
	if (nmodels == 0) {
		/* no call of a model seen (handed to a framework's trainer, or
		 * called where ecg cannot follow): the module instances the job
		 * built and named are the candidates, all listed */
		struct vinst *const *cands;
		const char *const *where;
		size_t nc = interp_candidates(in, &cands, &where);

		models = xrealloc(models, (nc + 1) * sizeof *models);
		for (i = 0; i < nc; i++) {
			if (cands[i]->parent || !cands[i]->bound_name ||
			    model_taken(models, nmodels, cands[i], cands[i]->bound_name, unres, where[i]))
				continue;
			models[nmodels].root = cands[i];
			models[nmodels].name = cands[i]->bound_name;
			models[nmodels].call = NULL;
			nmodels++;
		}
		if (nmodels)
			records_add_unresolved(unres, entry, "which model the job runs",
			                       nmodels > 1 ? "the job calls no model where ecg can see it; every module it builds and names is listed"
			                                   : "the job calls no model where ecg can see it; the one module it builds and names is listed");
		else if (libmodel) {
			char *why = xasprintf("the job calls a model a library builds (at %s), whose source is not read: "
			                      "--site naming the library's site-packages (or --python, a virtual "
			                      "environment) lets ecg read it; the modules list is empty", libmodel);

			records_add_unresolved(unres, entry, "which model the job runs", why);
			free(why);
		} else if (loaded) {
			char *why = xasprintf("the job calls a model that torch.load reads whole from a file (at %s): its class "
			                      "is the file's, not the code's, so the modules list is empty", loaded);

			records_add_unresolved(unres, entry, "which model the job runs", why);
			free(why);
		} else
			records_add_unresolved(unres, entry, "which model the job runs",
			                       "ecg found no module that the job builds and names, nor a call of one: the modules list is empty");
	}
	job_classify(in, job);
	if (o->model) {
		size_t keep = 0;

		for (k = 0; k < nmodels; k++) {
			if (!strcmp(models[k].name, o->model) || !strcmp(interp_class_name(models[k].root), o->model))
				models[keep++] = models[k];
		}
		if (!keep) {
			buf_t b;

			buf_init(&b);
			for (k = 0; k < nmodels; k++)
				buf_addf(&b, "%s%s (%s)", k ? ", " : "", models[k].name, interp_class_name(models[k].root));
			err_set(ECG_EXIT_INPUT, "--model %s: the job calls %s", o->model, nmodels ? b.buf : "no model");
			buf_free(&b);
			free(models);
			free(losses);
			for (i = 0; i < nheld; i++)
				free(held_names[i]);
			free(held_names);
			interp_free(in);
			return -1;
		}
		nmodels = keep;
	}
	modtree_emit(in, models, nmodels, modules, config);
	interp_read_call_modes(in, models, nmodels);
	/* a loss module called next to the model is not a model, but what
	 * its forward does (a matcher's .cpu(), an .item()) is the step's */
	for (i = 0; i < nlosses; i++) {
		struct fseq local;

		if (interp_events_of(losses[i].root) || !losses[i].call)
			continue;
		memset(&local, 0, sizeof local);
		(void)interp_forward(in, losses[i].root, losses[i].call->args, losses[i].call->nargs,
		                     losses[i].call->kwargs, &local);
	}
	free(losses);
	/* after the forwards were read: their syncs and collectives count */
	schedule_emit(in, job->type, sched_parts);
	{
		cJSON *par = layout_parallel(in);

		if (par)
			cJSON_AddItemToObject(sched_parts, "parallel", par);
	}
	notes = interp_notes(in, &nnotes);
	for (i = 0; i < nnotes; i++)
		records_add_unresolved(unres, notes[i].anchor, notes[i].what, notes[i].reason);
	free(models);
	for (i = 0; i < nheld; i++)
		free(held_names[i]);
	free(held_names);
	if (o->interp_bytes)
		*o->interp_bytes = ast_arena_reserved(interp_arena(in));
	interp_free(in);
	return 0;
}
