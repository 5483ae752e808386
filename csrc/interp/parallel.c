/* interp/parallel.c - the parallel degrees a job sets up
 *
 * A function of the job's code (or its framework's) whose parameters are
 * named for a parallel degree -- tensor_model_parallel_size,
 * pipeline_model_parallel_size, context_parallel_size,
 * expert_model_parallel_size, data_parallel_size and the shorter
 * spellings of the table below -- called outside a forward, is the job
 * setting up its parallel layout (Megatron's initialize_model_parallel,
 * an engine's config).  The first value bound to each such parameter is
 * the degree: parallel_note_params() keeps it with the call's anchor and
 * the parameter's name; the value carries its own source (the argparse
 * option a command-line argument set, a config file, a default).
 *
 * Nothing here fails; the values live in the interpreter's arena.
 */
#include "config.h"

#include <stdlib.h>

#include "internal.h"

static const struct {
	const char *param;
	enum interp_par degree;
} par_params[] = {
	{ "context_parallel_size", PAR_CONTEXT },
	{ "data_parallel_size", PAR_DATA },
	{ "expert_model_parallel_size", PAR_EXPERT },
	{ "expert_parallel_size", PAR_EXPERT },
	{ "pipeline_model_parallel_size", PAR_PIPELINE },
	{ "pipeline_parallel_size", PAR_PIPELINE },
	{ "tensor_model_parallel_size", PAR_TENSOR },
	{ "tensor_parallel_size", PAR_TENSOR },
};

void parallel_note_params(struct frame *f, const struct frame *callee, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (callee->mode == M_FWD || !callee->locals)
		return;
	for (i = 0; i < sizeof par_params / sizeof par_params[0]; i++) {
		struct interp_par_degree *d = &in->par[par_params[i].degree];
		value_t *v;

		if (d->v || !(v = vdict_gets(callee->locals, par_params[i].param)))
			continue;
		d->v = v;
		d->param = par_params[i].param;
		d->anchor = site ? anchor_at(f, site) : NULL;
	}
}

const struct interp_par_degree *interp_parallel(const struct interp *in, enum interp_par degree)
{
	return degree < PAR_COUNT && in->par[degree].v ? &in->par[degree] : NULL;
}

int interp_env_int(const struct interp *in, const char *key, long long *out)
{
	const value_t *v;
	char *end;
	long long n;

	if (!in->environ || in->environ->k != VK_DICT || !(v = vdict_gets(in->environ->u.dict, key)) ||
	    v->k != VK_STR || !*v->u.str.s)
		return 0;
	n = strtoll(v->u.str.s, &end, 10);
	if (*end || n <= 0)
		return 0;
	*out = n;
	return 1;
}
