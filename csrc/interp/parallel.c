/* interp/parallel.c - the parallel degrees a job sets up
 *
 * A function of the job's code (or its framework's) whose parameters are
 * named for a parallel degree -- tensor_model_parallel_size,
 * pipeline_model_parallel_size, context_parallel_size,
 * expert_model_parallel_size, data_parallel_size and the shorter
 * spellings of the table below (tp_size, pp_size, dp_size, cp_size,
 * ep_size: picotron's setup_process_group_manager) -- called outside a forward, is the job
 * setting up its parallel layout (Megatron's initialize_model_parallel,
 * an engine's config).  The first value bound to each such parameter is
 * the degree: parallel_note_params() keeps it with the call's anchor and
 * the parameter's name; the value carries its own source (the argparse
 * option a command-line argument set, a config file, a default).
 *
 * A job that lays its ranks out as a device mesh instead (torchtitan's
 * ParallelDims: init_device_mesh, then the world unflattened into named
 * axes) states its degrees there: parallel_note_mesh() reads a mesh that
 * covers the whole world (WORLD_SIZE known, every axis size a known int,
 * their product the world) and whose every axis of size other than 1 the
 * catalogue names (torch_facts.json mesh_axis_parallelism); each degree
 * is the product of the sizes of the axes serving it (dp_replicate x
 * dp_shard: data), 1 when an axis of that parallelism has size 1.  A
 * mesh with an axis whose name says nothing ("world", an unknown size)
 * states nothing, and a degree already bound is kept.
 *
 * A data-parallel wrapper (DDP, FSDP) over the default group makes the
 * data degree every process: the launcher's (launch_procs), else
 * WORLD_SIZE, else the world_size the job itself gave init_process_group
 * (parallel_note_group: a script that starts one process per device).
 * So does the job's own gradient all-reduce over the default group in
 * its backward hooks (parallel_note_grad_reduce: apply_gradient_allreduce).
 *
 * Nothing here fails; the values live in the interpreter's arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"

#include "internal.h"

static const struct {
	const char *param;
	enum interp_par degree;
} par_params[] = {
	{ "context_parallel_size", PAR_CONTEXT },
	{ "cp_size", PAR_CONTEXT },
	{ "data_parallel_size", PAR_DATA },
	{ "dp_size", PAR_DATA },
	{ "ep_size", PAR_EXPERT },
	{ "expert_model_parallel_size", PAR_EXPERT },
	{ "expert_parallel_size", PAR_EXPERT },
	{ "pipeline_model_parallel_size", PAR_PIPELINE },
	{ "pipeline_parallel_size", PAR_PIPELINE },
	{ "pp_size", PAR_PIPELINE },
	{ "tensor_model_parallel_size", PAR_TENSOR },
	{ "tensor_parallel_size", PAR_TENSOR },
	{ "tp_size", PAR_TENSOR },
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

static const char *const par_names[PAR_COUNT] = { "tensor", "pipeline", "data", "context", "expert" };

const char *interp_par_name(enum interp_par degree)
{
	return degree < PAR_COUNT ? par_names[degree] : NULL;
}

/* the degree whose name is w (the catalogue's word for an axis) */
static int par_of_word(const char *w, enum interp_par *out)
{
	enum interp_par k;

	for (k = 0; w && k < PAR_COUNT; k++)
		if (!strcmp(par_names[k], w)) {
			*out = k;
			return 1;
		}
	return 0;
}

void parallel_note_mesh(struct frame *f, const struct vseq *sizes, const struct vseq *names,
                        const struct ast_hdr *site)
{
	struct interp *in = f->in;
	long long world, prod = 1, deg[PAR_COUNT];
	const char *param[PAR_COUNT] = { NULL };
	const value_t *one[PAR_COUNT] = { NULL };
	int naxes[PAR_COUNT] = { 0 };
	enum interp_par k;
	size_t i;

	if (!sizes || !names || sizes->n != names->n || !interp_env_int(in, "WORLD_SIZE", &world))
		return;
	for (k = 0; k < PAR_COUNT; k++)
		deg[k] = 1;
	for (i = 0; i < sizes->n; i++) {
		const value_t *n = sizes->items[i], *nm = names->items[i];
		const char *w;

		if (n->k != VK_INT || n->u.i <= 0 || nm->k != VK_STR)
			return;
		prod *= n->u.i;
		w = catalog_fact(in->cat, CATALOG_F_MESH_AXIS_PARALLELISM, nm->u.str.s);
		if (!par_of_word(w, &k)) {
			/* an axis of ranks that serves something unnamed (or
			 * sequence, no degree of its own): only a size 1 is
			 * harmless */
			if (n->u.i != 1)
				return;
			continue;
		}
		deg[k] *= n->u.i;
		param[k] = param[k] ? afmt(in, "%s*%s", param[k], nm->u.str.s) : nm->u.str.s;
		one[k] = n;
		naxes[k]++;
	}
	if (prod != world)
		return;
	for (k = 0; k < PAR_COUNT; k++) {
		struct interp_par_degree *d = &in->par[k];

		if (d->v || !naxes[k])
			continue;
		/* one axis: its size value, with the source it carries */
		d->v = naxes[k] == 1 ? (value_t *)one[k] : v_int(in->a, deg[k]);
		d->param = param[k];
		d->anchor = site ? anchor_at(f, site) : NULL;
	}
}

/* The data degree, by `what` over the default group: the launcher's
 * process count, else WORLD_SIZE, else the world_size the job gave
 * init_process_group itself; nothing when none is known. */
static void note_data_world(struct frame *f, const char *what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct interp_par_degree *d = &in->par[PAR_DATA];
	long long n = 0;

	if (in->launch_procs <= 0 && !interp_env_int(in, "WORLD_SIZE", &n) && in->group_world > 0) {
		/* no launcher's world: the size the job gave the group itself,
		 * where it did */
		d->v = v_int(in->a, in->group_world);
		d->param = afmt(in, "%s over the default group (init_process_group's world_size)", what);
		d->via = NULL;
		d->anchor = in->group_world_at;
		return;
	}
	if (in->launch_procs > 0)
		n = in->launch_procs;
	else if (!interp_env_int(in, "WORLD_SIZE", &n))
		return;
	d->v = v_int(in->a, n);
	d->param = in->launch_procs > 0 ? afmt(in, "%s over the launcher's processes", what)
	                                : afmt(in, "%s over the default group (WORLD_SIZE)", what);
	d->via = in->launch_procs > 0 ? "launcher" : "world_size";
	d->anchor = site ? anchor_at(f, site) : NULL;
}

/* A data-parallel wrapper (DistributedDataParallel, FullyShardedDataParallel)
 * built over the default group -- no process_group, device_mesh or
 * mesh keyword, on no undecided path -- replicates (or shards) the model
 * over every process: the data degree is the number of processes, the
 * launcher's WORLD_SIZE or the launcher object's count (Fabric's devices x
 * num_nodes), when known and no degree was bound before.  The other
 * degrees stay unstated. */
void parallel_note_wrap(struct frame *f, const char *wrapper, const struct vdict *kw, const struct ast_hdr *site)
{
	static const char *const group_kw[] = { "process_group", "device_mesh", "mesh", "group", NULL };
	struct interp *in = f->in;
	struct interp_par_degree *d = &in->par[PAR_DATA];
	size_t i;

	if (d->v || f->mode == M_FWD || jc_find(f->jc, JC_COND) ||
	    (strcmp(wrapper, "DistributedDataParallel") && strcmp(wrapper, "FullyShardedDataParallel")))
		return;
	for (i = 0; group_kw[i]; i++) {
		const value_t *g = kw ? vdict_gets(kw, group_kw[i]) : NULL;

		if (g && g->k != VK_NONE)
			return;
	}
	if (kw && vdict_gets(kw, KW_UNK_DSTAR))
		return;
	note_data_world(f, wrapper, site);
}

/* The job's own gradient all-reduce (gradhook.c: an all_reduce a hook on
 * its parameters, or a callback one queued, makes in the backward) over
 * the default group -- no group keyword -- at a backward the job makes on
 * no undecided path: every process holds the whole model and averages
 * its gradients, data parallelism written by hand; the degree is the
 * number of processes, as for a wrapper (tests inside the hook, on its
 * flags or its parameter, do not change the group's size). */
void parallel_note_grad_reduce(struct frame *f, const char *op, size_t nargs, const struct vdict *kw,
                               const struct ast_hdr *site)
{
	static const char *const group_kw[] = { "group", "process_group", NULL };
	struct interp *in = f->in;
	size_t i;

	/* all_reduce(tensor, op, group): a group given by position is no
	 * default group's */
	if (in->par[PAR_DATA].v || f->mode == M_FWD || !in->bwd_queue_open || strcmp(op, "all_reduce") ||
	    nargs > 2 || jc_find(in->bwd_jc, JC_COND))
		return;
	for (i = 0; group_kw[i]; i++) {
		const value_t *g = kw ? vdict_gets(kw, group_kw[i]) : NULL;

		if (g && g->k != VK_NONE)
			return;
	}
	if (kw && vdict_gets(kw, KW_UNK_DSTAR))
		return;
	note_data_world(f, "the job's gradient all_reduce in its backward hooks", site);
}

/* init_process_group(world_size=w): a script that starts its own
 * processes (a multiprocessing.Process per device) and names the group's
 * size instead of leaving it to a launcher's WORLD_SIZE.  Kept when w is
 * a known positive int and the call is on a path the job always takes;
 * a second call with another size, or one not known, leaves it unknown
 * (-1).  A call under a condition says nothing. */
void parallel_note_group(struct frame *f, const value_t *world, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	long long n = world && world->k == VK_INT && world->u.i > 0 ? world->u.i : -1;

	if (f->mode == M_FWD || jc_find(f->jc, JC_COND) || jc_find(f->jc, JC_GUARD) || in->group_world < 0)
		return;
	if (n < 0 || (in->group_world > 0 && in->group_world != n)) {
		in->group_world = -1;
		return;
	}
	in->group_world = n;
	if (!in->group_world_at)
		in->group_world_at = site ? anchor_at(f, site) : NULL;
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
