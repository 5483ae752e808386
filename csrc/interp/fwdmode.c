/*
 * interp/fwdmode.c -- a module's forward read again for another mode.
 *
 * forward.c reads a module's forward once and gives its later calls that
 * reading's events and result.  A forward with a parameter whose default
 * is a flag (a bool, None or a str) takes other branches when a call
 * passes that parameter another value:
 *
 *     def forward(self, x, x_mask, reverse=False):
 *         if not reverse: ... torch.zeros(n).to(x.device) ...
 *         else:           ... torch.randn(n).to(x.device) ...
 *
 *     z = self.flow(z, mask)                # training: reverse False
 *     z = self.flow(z, mask, reverse=True)  # inference (another method)
 *
 * fwd_mode_sig() names a call's mode: each such parameter with the value
 * the call binds to it (its default when not passed).  forward_of() keeps
 * one reading per distinct mode (fwd_mode_reading), at most FWD_MODES a
 * module: a call in a mode not read yet is read in full, so the branches
 * that mode takes leave their events.  A module whose forward has no such
 * parameter, or a call in a mode already read, is as before.
 *
 * A model called from job code is read once, from the call the modules
 * list names (modtree.c); its other job calls in another mode
 *
 *     preds = model(image, text)                        # the step
 *     preds = model(image, text_pred, is_train=False)   # validation()
 *
 * are read again after it (interp_read_call_modes, one reading per mode
 * and model, at most FWD_MODES), in->fwd_mode_call naming that call: the
 * schedule counts those readings' events in that call's context (the
 * evaluation's loop and guard), not the step's.  Submodules already read
 * keep their events (the first reading's rows stand for both calls).
 *
 * Ownership: the strings and readings are in the interpreter's arena.
 * Never fails: a forward that cannot be found gives the empty mode.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/modtree.h"

enum { FWD_MODES = 4 };

/* Is v a flag's value: a bool, None or a str? */
static int flag_value(const value_t *v)
{
	return v && (v->k == VK_BOOL || v->k == VK_NONE || v->k == VK_STR);
}

/* Append "name=value;" to the signature being built. */
static void sig_add(struct interp *in, const char **sig, const char *name, const value_t *v)
{
	const char *r = v && v->k != VK_UNKNOWN ? value_repr(in->a, v) : NULL;

	*sig = afmt(in, "%s%s=%s;", *sig, name, r ? r : "?");
}

const char *fwd_mode_sig(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                         const struct vdict *kw)
{
	const char *sig = "";
	struct vclass *owner = NULL;
	value_t *fwd;
	const struct ast_arguments *a;
	const struct vfunc *fn;
	size_t npos, i;

	if (m->mod != VM_REPO || !m->cls || !(fwd = class_lookup(m->cls, "forward", &owner)) ||
	    fwd->k != VK_FUNC || !AST_IS(fwd->u.fn->def, FunctionDef))
		return sig;
	fn = fwd->u.fn;
	a = AST_AS(fn->def, FunctionDef)->args;
	if (!a)
		return sig;
	npos = a->posonlyargs.n + a->args.n;
	/* positional parameters with a default: the last ndefaults; the
	 * first parameter is self, not among the call's arguments */
	for (i = 0; i < fn->ndefaults && i < npos; i++) {
		size_t j = npos - fn->ndefaults + i;
		const struct ast_arg *p = (const struct ast_arg *)(j < a->posonlyargs.n
		                          ? a->posonlyargs.items[j] : a->args.items[j - a->posonlyargs.n]);
		const value_t *v = fn->defaults[i];

		if (!flag_value(v) || j == 0)
			continue;
		if (kw && vdict_gets(kw, p->arg))
			v = vdict_gets(kw, p->arg);
		else if (j - 1 < nargs)
			v = args[j - 1];
		sig_add(in, &sig, p->arg, v);
	}
	for (i = 0; fn->kwdefaults && i < a->kwonlyargs.n; i++) {
		const struct ast_arg *p = (const struct ast_arg *)a->kwonlyargs.items[i];
		const value_t *v = vdict_gets(fn->kwdefaults, p->arg);

		if (!flag_value(v))
			continue;
		if (kw && vdict_gets(kw, p->arg))
			v = vdict_gets(kw, p->arg);
		sig_add(in, &sig, p->arg, v);
	}
	return sig;
}

struct fwdinfo *fwd_mode_reading(struct interp *in, struct fwdinfo *fi, const char *sig)
{
	struct fwdinfo *r;
	int n = 0;

	if (!fi->mode)
		fi->mode = sig;
	for (r = fi; r; r = r->other_mode, n++)
		if (!strcmp(r->mode, sig))
			return r;
	if (n >= FWD_MODES || fi->state != 2)
		return fi;
	r = ast_arena_alloc(in->a, sizeof *r);
	memset(r, 0, sizeof *r);
	r->mode = sig;
	r->call_anchor = fi->call_anchor;
	r->other_mode = fi->other_mode;
	fi->other_mode = r;
	return r;
}

/* The job calls of model m (read from `from`) in modes its reading did
 * not take, each read once per mode, its events that call's. */
static void read_root_modes(struct interp *in, struct vinst *m, const struct root_call *from)
{
	const char *seen[FWD_MODES];
	size_t nseen = 0, i, k;

	if (!m || m->mod != VM_REPO || !from)
		return;
	seen[nseen++] = fwd_mode_sig(in, m, from->args, from->nargs, from->kwargs);
	for (i = 0; i < in->nroots && nseen < FWD_MODES; i++) {
		const struct root_call *rc = &in->roots[i];
		const char *sig;
		struct fseq local;

		if (rc->inst != m || rc == from || rc->host_input)
			continue;
		sig = fwd_mode_sig(in, m, rc->args, rc->nargs, rc->kwargs);
		for (k = 0; k < nseen && strcmp(seen[k], sig); k++)
			;
		if (k < nseen)
			continue;
		seen[nseen++] = sig;
		memset(&local, 0, sizeof local);
		in->fwd_mode_call = rc->anchor;
		(void)interp_forward(in, m, rc->args, rc->nargs, rc->kwargs, &local);
		in->fwd_mode_call = NULL;
	}
}

/* Job code calling a module whose forward was read as part of another
 * model's (`self.dp(x, mask, reverse=True)` in a method the job calls,
 * `generator.module.infer(x)`) in a mode that reading did not take: that
 * mode's reading, its events the module's own (the schedule places them
 * at the job's call of it); and each job call of a model in a mode its
 * own reading (models[i].call's) did not take.  After the models'
 * forwards were read. */
void interp_read_call_modes(struct interp *in, const struct mt_model *models, size_t nmodels)
{
	size_t i;

	for (i = 0; i < nmodels; i++)
		read_root_modes(in, models[i].root, models[i].call);
	for (i = 0; i < in->nroots; i++) {
		const struct root_call *rc = &in->roots[i];
		struct fwdinfo *fi, *v;

		if (!rc->inst || rc->inst->mod != VM_REPO || !(fi = rc->inst->entry) || fi->state != 2)
			continue;
		v = fwd_mode_reading(in, fi, fwd_mode_sig(in, rc->inst, rc->args, rc->nargs, rc->kwargs));
		if (v == fi || v->state != 0)
			continue;
		v->state = 1;
		v->sev_from = in->nsev;
		v->ret = interp_forward(in, rc->inst, rc->args, rc->nargs, rc->kwargs, &v->seq);
		v->sev_to = in->nsev;
		v->state = 2;
	}
}
