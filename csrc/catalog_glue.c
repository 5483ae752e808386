/* catalog_glue.c - see include/ecg/catalog_glue.h */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "ecg/catalog_glue.h"
#include "ecg/util.h"

enum cg_kind cg_kind_of(const struct catalog *cat, const char *dotted)
{
	const struct catalog_class *c = cat ? catalog_class(cat, dotted) : NULL;

	if (c)
		return c->kind == CATALOG_CONTAINER ? CG_CONTAINER : CG_LAYER;
	if (!strcmp(dotted, "torch.nn.Sequential") || !strcmp(dotted, "torch.nn.ModuleList") ||
	    !strcmp(dotted, "torch.nn.ModuleDict"))
		return CG_CONTAINER;
	if (!strncmp(dotted, "torch.nn.", 9) && !strchr(dotted + 9, '.'))
		return CG_LAYER;
	return CG_UNKNOWN;
}

const char *cg_param_at(const struct catalog *cat, const char *dotted, size_t pos)
{
	const struct catalog_class *c = cat ? catalog_class(cat, dotted) : NULL;
	const struct catalog_param *p = c ? catalog_param_at(c, pos) : NULL;

	return p ? p->name : NULL;
}

/* Constructor arguments as the catalogue reads them.  The arrays are owned
 * by the caller (free(*store) and free(*ints)). */
static void cg_args(const struct vinst *m, struct catalog_args *out, struct catalog_arg **store,
                    long long **ints)
{
	size_t i, n = m->args ? m->args->n : 0, k = 0, nints = 0, j;

	*store = xcalloc(n + 1, sizeof **store);
	for (i = 0; i < n; i++) {
		const value_t *v = m->args->vals[i];

		if (v->k == VK_TUPLE || v->k == VK_LIST)
			nints += v->u.seq->n;
	}
	*ints = xcalloc(nints + 1, sizeof **ints);
	nints = 0;
	for (i = 0; i < n; i++) {
		const value_t *key = m->args->keys[i], *v = m->args->vals[i];
		struct catalog_arg *a = &(*store)[k];

		if (key->k != VK_STR)
			continue;
		a->name = key->u.str.s;
		switch (v->k) {
		case VK_NONE: a->v.type = CATALOG_NONE; break;
		case VK_BOOL: a->v.type = CATALOG_BOOL; a->v.i = v->u.b; break;
		case VK_INT: a->v.type = CATALOG_INT; a->v.i = v->u.i; break;
		case VK_FLOAT: a->v.type = CATALOG_FLOAT; a->v.f = v->u.f; break;
		case VK_STR: a->v.type = CATALOG_STR; a->v.s = v->u.str.s; break;
		case VK_EXT: a->v.type = CATALOG_CALLABLE; a->v.s = v->u.ext; break;
		case VK_TUPLE: case VK_LIST:
			a->v.type = CATALOG_TUPLE;
			a->v.items = *ints + nints;
			for (j = 0; j < v->u.seq->n; j++) {
				const value_t *x = v->u.seq->items[j];

				if (x->k != VK_INT) {
					a->v.type = CATALOG_UNKNOWN;
					break;
				}
				(*ints)[nints + j] = x->u.i;
			}
			a->v.n = v->u.seq->n;
			nints += v->u.seq->n;
			break;
		case VK_INST:
			a->v.type = v->u.inst->mod != VM_NONE ? CATALOG_MODULE : CATALOG_OTHER;
			a->v.s = v->u.inst->ext;
			break;
		default:
			a->v.type = CATALOG_UNKNOWN;
			break;
		}
		k++;
	}
	out->v = *store;
	out->n = k;
}

static void cg_value(const value_t *v, struct catalog_value *out)
{
	memset(out, 0, sizeof *out);
	switch (v->k) {
	case VK_NONE: out->type = CATALOG_NONE; break;
	case VK_BOOL: out->type = CATALOG_BOOL; out->i = v->u.b; break;
	case VK_INT: out->type = CATALOG_INT; out->i = v->u.i; break;
	case VK_FLOAT: out->type = CATALOG_FLOAT; out->f = v->u.f; break;
	case VK_STR: out->type = CATALOG_STR; out->s = v->u.str.s; break;
	case VK_TENSOR:
		out->type = CATALOG_TENSOR;
		out->i = v->shape ? (long long)v->shape->nd : -1;
		out->items = v->shape ? v->shape->n : NULL;
		out->n = v->shape ? v->shape->nd : 0;
		break;
	case VK_TUPLE: case VK_LIST: out->type = CATALOG_OTHER; break;
	default: out->type = CATALOG_UNKNOWN; break;
	}
}

/* The forward call's arguments, by the forward's parameter names; *fstore
 * is the caller's to free.  *named (when want is not NULL) is the value
 * passed for parameter `want`, or NULL. */
static void cg_fwd_args(const struct catalog_class *c, value_t *const *fargs, size_t nfargs,
                        const struct vdict *fkw, struct catalog_args *fwd, struct catalog_arg **fstore,
                        const char *want, const value_t **named)
{
	size_t i, k, nf = 0;

	if (named)
		*named = NULL;
	*fstore = xcalloc(nfargs + (fkw ? fkw->n : 0) + 1, sizeof **fstore);
	for (i = 0, k = 0; i < nfargs && k < c->nforward; k++) {
		if (c->forward[k].kind == CATALOG_VAR_POSITIONAL || c->forward[k].kind == CATALOG_VAR_KEYWORD ||
		    c->forward[k].kind == CATALOG_KEYWORD_ONLY)
			break;
		(*fstore)[nf].name = c->forward[k].name;
		if (want && named && !strcmp(want, c->forward[k].name))
			*named = fargs[i];
		cg_value(fargs[i++], &(*fstore)[nf++].v);
	}
	for (i = 0; fkw && i < fkw->n; i++) {
		if (fkw->keys[i]->k != VK_STR)
			continue;
		(*fstore)[nf].name = fkw->keys[i]->u.str.s;
		if (want && named && !strcmp(want, fkw->keys[i]->u.str.s))
			*named = fkw->vals[i];
		cg_value(fkw->vals[i], &(*fstore)[nf++].v);
	}
	fwd->v = *fstore;
	fwd->n = nf;
}

size_t cg_ops(const struct catalog *cat, const struct vinst *m, int training, value_t *const *fargs,
              size_t nfargs, const struct vdict *fkw, int call_known, const char **ops, size_t max)
{
	const struct catalog_class *c = cat && m->ext ? catalog_class(cat, m->ext) : NULL;
	struct catalog_args args, fwd;
	struct catalog_arg *store, *fstore;
	long long *ints;
	struct catalog_env env;
	size_t i, n = 0;

	if (!c)
		return 0;
	cg_args(m, &args, &store, &ints);
	cg_fwd_args(c, fargs, nfargs, fkw, &fwd, &fstore, NULL, NULL);
	memset(&env, 0, sizeof env);
	env.args = &args;
	env.fwd = call_known ? &fwd : NULL;
	env.training = training;
	env.first_call = -1;
	env.distributed = -1;
	for (i = 0; i < c->nsteps && n < max; i++) {
		const struct catalog_step *s = &c->steps[i];
		int taken = 1;
		const char *why = NULL;
		int rc;

		if (s->meta)
			continue;
		rc = catalog_when(c, s->when, &env, &taken, &why);
		if (rc < 0 || (rc == 0 && !taken))
			continue;
		/* Undecided: a step that hangs on the training flag is kept (it
		 * is the mode's business, and the record says so); one that
		 * hangs on what the call passed (an unbatched input, a missing
		 * hidden state) is the unusual path and is left out. */
		if (rc == 1 && !(why && strstr(why, "training")))
			continue;
		if (s->kind == CATALOG_STEP_OP) {
			ops[n++] = s->name;
		} else if (s->kind == CATALOG_STEP_CALL_ARG) {
			const struct catalog_arg *a = NULL;
			size_t j;

			for (j = 0; j < args.n; j++)
				if (!strcmp(args.v[j].name, s->name))
					a = &args.v[j];
			if (a && a->v.type == CATALOG_STR && catalog_call_arg_op(s, a->v.s))
				ops[n++] = catalog_call_arg_op(s, a->v.s);
			else if (!a) {
				const struct catalog_param *p = catalog_param(c, s->name);

				if (p && p->has_default && p->def.type == CATALOG_STR && catalog_call_arg_op(s, p->def.s))
					ops[n++] = catalog_call_arg_op(s, p->def.s);
				else if (p && p->has_default && p->def.type == CATALOG_CALLABLE)
					ops[n++] = p->def.s;
			} else if (a->v.type == CATALOG_CALLABLE) {
				ops[n++] = a->v.s;
			}
		}
	}
	free(store);
	free(fstore);
	free(ints);
	return n;
}

long long cg_param_count(const struct catalog *cat, const struct vinst *m)
{
	const struct catalog_class *c = cat && m->ext ? catalog_class(cat, m->ext) : NULL;
	struct catalog_args args;
	struct catalog_arg *store;
	long long *ints, out = -1;

	if (!c)
		return -1;
	cg_args(m, &args, &store, &ints);
	if (catalog_param_count(c, &args, &out, NULL) != 0)
		out = -1;
	free(store);
	free(ints);
	return out;
}

int cg_out_shape(const struct catalog *cat, const struct vinst *m, int training, value_t *const *fargs,
                 size_t nfargs, const struct vdict *fkw, struct vshape *out)
{
	const struct catalog_class *c = cat && m->ext ? catalog_class(cat, m->ext) : NULL;
	const char *inname = c ? catalog_shape_input(c) : NULL;
	struct catalog_args args, fwd;
	struct catalog_arg *store, *fstore;
	struct catalog_dim in[VSHAPE_MAX], res[VSHAPE_MAX];
	const value_t *x;
	long long *ints;
	struct catalog_env env;
	const char *why = NULL;
	size_t i, nout = 0;
	int rc;

	if (!inname)
		return 1;
	cg_fwd_args(c, fargs, nfargs, fkw, &fwd, &fstore, inname, &x);
	if (!x || x->k != VK_TENSOR || !x->shape) {
		free(fstore);
		return 1;
	}
	cg_args(m, &args, &store, &ints);
	memset(&env, 0, sizeof env);
	env.args = &args;
	env.fwd = &fwd;
	env.training = training;
	env.first_call = -1;
	env.distributed = -1;
	for (i = 0; i < x->shape->nd; i++) {
		in[i].n = x->shape->n[i];
		in[i].sym = x->shape->sym[i];
	}
	rc = catalog_out_shape(c, &env, in, x->shape->nd, res, VSHAPE_MAX, &nout, &why);
	free(store);
	free(fstore);
	free(ints);
	if (rc != 0)
		return rc < 0 ? -1 : 1;
	out->nd = (unsigned)nout;
	for (i = 0; i < nout; i++) {
		out->n[i] = res[i].n;
		out->sym[i] = res[i].n >= 0 ? NULL : res[i].sym;
	}
	return 0;
}
