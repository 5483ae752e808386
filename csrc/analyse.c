/* analyse.c - see include/ecg/analyse.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/analyse.h"
#include "ecg/err.h"
#include "ecg/modtree.h"
#include "ecg/records.h"
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

int analyse_job(struct prog *prog, const char *entry, const char *func, const struct analyse_opts *o,
                const struct catalog *cat, cJSON *modules, cJSON *unres, cJSON *config,
                struct job_info *job, cJSON *sched_parts)
{
	struct sfile *ef = prog_file(prog, entry);
	struct interp *in;
	const struct root_call *roots;
	struct mt_model *models;
	const struct interp_note *notes;
	size_t nroots, nmodels = 0, i, k, nnotes;
	const char *slash;

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
	if (o->env_known)
		interp_set_env(in, o->envs, o->nenvs);
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
	roots = interp_roots(in, &nroots);
	models = xcalloc(nroots + 1, sizeof *models);
	for (i = 0; i < nroots; i++) {
		const char *name = roots[i].inst->bound_name ? roots[i].inst->bound_name
		                   : roots[i].binding ? roots[i].binding : "model";

		if (model_taken(models, nmodels, roots[i].inst, name, unres, roots[i].anchor))
			continue;
		models[nmodels].root = roots[i].inst;
		models[nmodels].name = name;
		models[nmodels].call = &roots[i];
		nmodels++;
	}
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
		else
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
			interp_free(in);
			return -1;
		}
		nmodels = keep;
	}
	modtree_emit(in, models, nmodels, modules, config);
	/* after the forwards were read: their syncs and collectives count */
	schedule_emit(in, job->type, sched_parts);
	notes = interp_notes(in, &nnotes);
	for (i = 0; i < nnotes; i++)
		records_add_unresolved(unres, notes[i].anchor, notes[i].what, notes[i].reason);
	free(models);
	if (o->interp_bytes)
		*o->interp_bytes = ast_arena_reserved(interp_arena(in));
	interp_free(in);
	return 0;
}
