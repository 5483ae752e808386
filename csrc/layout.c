/* layout.c - the parallel layout record: each degree with its source
 *
 * The degrees are the values the job's code bound to parameters named for
 * them (interp/parallel.c).  A degree's size is a known integer, else null
 * with the reason; its source is where the value was set (the argparse
 * option a command-line argument set, a config file, the default written
 * in the code) with the config list's "via" words, or the call that bound
 * it when the value carries none.  The data-parallel degree, when no
 * parameter bound it, is what the others leave of the world:
 * WORLD_SIZE / (tensor * pipeline * context), when all four are known and
 * divide (the expert degree is carved out of the data-parallel ranks, it
 * does not divide the world again); else null with the reason.  A
 * data-parallel degree the code bound, computed (no source of its own),
 * that equals that quotient has the world size for its source too.  A
 * data degree a data-parallel wrapper over the default group set
 * (interp/parallel.c parallel_note_wrap) says so in its via: world_size
 * (WORLD_SIZE) or launcher (the processes a launcher object starts).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/layout.h"
#include "ecg/util.h"
#include "ecg/values.h"

static const char *via_word(int via)
{
	return via == VIA_OVERRIDE ? "override" : via == VIA_CONFIG_FILE ? "config_file" : "default";
}

/* The size of a bound degree, or -1 when it is not a known integer. */
static long long degree_size(const struct interp_par_degree *d)
{
	if (!d || !d->v)
		return -1;
	if (d->v->k == VK_INT && d->v->u.i > 0)
		return d->v->u.i;
	if (d->v->k == VK_BOOL)
		return -1;
	return -1;
}

/* world: the degree is the world left by the others (data_from_world()) */
static cJSON *degree_entry(const struct interp_par_degree *d, int world)
{
	cJSON *o = cJSON_CreateObject();
	long long n = degree_size(d);
	char *expr;

	if (n > 0)
		cJSON_AddNumberToObject(o, "size", (double)n);
	else
		cJSON_AddNullToObject(o, "size");
	if (d->via) {
		/* a data-parallel wrapper over every process (parallel_note_wrap) */
		cJSON_AddStringToObject(o, "source", !strcmp(d->via, "world_size") ? "WORLD_SIZE"
		                                     : d->anchor ? d->anchor : "the launcher");
		cJSON_AddStringToObject(o, "via", d->via);
	} else if (d->v->src) {
		cJSON_AddStringToObject(o, "source", d->v->src);
		cJSON_AddStringToObject(o, "via", via_word(d->v->via));
	} else if (world) {
		cJSON_AddStringToObject(o, "source", "WORLD_SIZE");
		cJSON_AddStringToObject(o, "via", "world_size");
	} else if (d->anchor) {
		cJSON_AddStringToObject(o, "source", d->anchor);
		cJSON_AddStringToObject(o, "via", "code");
	} else {
		cJSON_AddNullToObject(o, "source");
		cJSON_AddNullToObject(o, "via");
	}
	expr = d->v->expr ? xasprintf("%s=%s", d->param, d->v->expr)
	       : world ? xasprintf("%s=WORLD_SIZE / (tensor * pipeline * context)", d->param) : xstrdup(d->param);
	cJSON_AddStringToObject(o, "expr", expr);
	free(expr);
	if (d->anchor)
		cJSON_AddStringToObject(o, "anchor", d->anchor);
	else
		cJSON_AddNullToObject(o, "anchor");
	if (n <= 0)
		cJSON_AddStringToObject(o, "reason", d->v->k == VK_UNKNOWN && d->v->reason ? d->v->reason
		                        : "the value bound is not a known positive integer");
	return o;
}

/* What the other degrees leave of the world: WORLD_SIZE / (tensor *
 * pipeline * context), or -1 with *why (a static string) when the world
 * size or a degree is not known, or they do not divide it. */
static long long world_data_size(const struct interp *in, const char **why, const char **missing)
{
	long long world = 0, prod = 1;
	enum interp_par k;

	*missing = NULL;
	for (k = 0; k < PAR_COUNT; k++) {
		long long n;

		if (k == PAR_DATA || k == PAR_EXPERT)
			continue;
		n = degree_size(interp_parallel(in, k));
		if (n <= 0 && !*missing)
			*missing = interp_par_name(k);
		else if (n > 0)
			prod *= n;
	}
	if (!interp_env_int(in, "WORLD_SIZE", &world)) {
		*why = "the world size is not known (no launcher or --env gives WORLD_SIZE)";
		return -1;
	}
	if (*missing) {
		*why = NULL;
		return -1;
	}
	if (world % prod) {
		*why = "the other degrees do not divide the world size";
		return -1;
	}
	return world / prod;
}

/* The data-parallel degree no parameter bound: the world left by the
 * others. */
static cJSON *data_entry(const struct interp *in)
{
	cJSON *o = cJSON_CreateObject();
	const char *why = NULL, *missing = NULL;
	long long n = world_data_size(in, &why, &missing);

	if (n > 0) {
		cJSON_AddNumberToObject(o, "size", (double)n);
		cJSON_AddStringToObject(o, "source", "WORLD_SIZE");
		cJSON_AddStringToObject(o, "via", "world_size");
	} else if (missing) {
		char *w = xasprintf("the %s degree is not known", missing);

		cJSON_AddNullToObject(o, "size");
		cJSON_AddStringToObject(o, "source", "WORLD_SIZE");
		cJSON_AddStringToObject(o, "reason", w);
		free(w);
	} else {
		cJSON_AddNullToObject(o, "size");
		if (strstr(why, "world size is not known"))
			cJSON_AddNullToObject(o, "source");
		else
			cJSON_AddStringToObject(o, "source", "WORLD_SIZE");
		cJSON_AddStringToObject(o, "reason", why);
	}
	cJSON_AddStringToObject(o, "expr", "WORLD_SIZE / (tensor * pipeline * context)");
	return o;
}

/* A data-parallel degree the code computed (a value with no source of
 * its own: Megatron's args.world_size // total_model_size) that is what
 * the other degrees leave of the launcher's world: its source is the
 * world size, as for a degree no parameter bound. */
static int data_from_world(const struct interp *in, const struct interp_par_degree *d)
{
	const char *why, *missing;
	long long n = degree_size(d);

	return n > 0 && !d->v->src && world_data_size(in, &why, &missing) == n;
}

cJSON *layout_parallel(const struct interp *in)
{
	cJSON *par;
	enum interp_par k;
	int any = 0;

	for (k = 0; k < PAR_COUNT; k++)
		if (interp_parallel(in, k))
			any = 1;
	if (!any)
		return NULL;
	par = cJSON_CreateObject();
	for (k = 0; k < PAR_COUNT; k++) {
		const struct interp_par_degree *d = interp_parallel(in, k);

		if (d)
			cJSON_AddItemToObject(par, interp_par_name(k), degree_entry(d, k == PAR_DATA && data_from_world(in, d)));
		else if (k == PAR_DATA)
			cJSON_AddItemToObject(par, interp_par_name(k), data_entry(in));
		else {
			cJSON *o = cJSON_AddObjectToObject(par, interp_par_name(k));

			cJSON_AddNullToObject(o, "size");
			cJSON_AddNullToObject(o, "source");
			cJSON_AddStringToObject(o, "reason", "neither a call nor a device mesh of the job bound this degree");
		}
	}
	return par;
}
