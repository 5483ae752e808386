/* interp/sdfull.c - FSDP1's full state dict: where it is gathered, and to
 * which device
 *
 * FSDP.state_dict_type(model, TYPE, state_dict_config, optim_state_dict_config)
 * as a `with` item: sdfull_scope() reads it.  When TYPE is a member the
 * catalogue names (fsdp_full_state: StateDictType.FULL_STATE_DICT) the
 * body keeps the full state dict -- state_dict() all-gathers every unit as
 * it does by default (module.c) -- and the configs say where the result
 * lives: a config of a class the catalogue describes (FullStateDictConfig,
 * FullOptimStateDictConfig: its fields' defaults there) with its
 * keywords offload_to_cpu= / rank0_only= as given; a config not given is
 * the type's default class at its defaults; any other value, or a keyword
 * not known, leaves that field not known.  0 for any other TYPE or a TYPE
 * not known: the caller keeps its reading (another type: no row).
 *
 * sdfull_copy(f, optim, site): in such a body (or, for the optimizer's
 * state, where no other type was chosen: the default type and config), the
 * copy the config's offload_to_cpu makes at state_dict() or
 * FSDP.optim_state_dict(): a blocking device-to-host copy (a sync) at the
 * call, under "rank 0" when rank0_only holds (the other ranks receive an
 * empty dict) and under a condition when a field is not known; the value
 * it returns is the state on the host (torch.save of it copies nothing
 * off a device), or NULL when the state stays on the device (no offload)
 * or where it lives is not known.
 *
 * sdfull_optim_call(f, d, ...): FSDP.optim_state_dict(model, optim)
 * (catalog fsdp_state_dict '<word>.optim_state_dict' -> optim) of a model
 * that is or holds an FSDP1 unit: the optimizer state consolidated with
 * the wrapper's state-dict collective over every unit (documented as a
 * collective all ranks call), then sdfull_copy; nothing in the body of
 * another type, or once the job set a type for good (not known which).
 * NULL when d is no such call.
 *
 * sdfull_keep_config(in, o, last, nargs, kw): a config object of a class
 * the catalogue describes (torch_object) keeps its constructor's keywords
 * (positional fields marked: not read).
 *
 * Everything lives in the interpreter's arena; nothing here fails.
 */
#include "config.h"

#include "ecg/catalog.h"
#include "internal.h"

/* The last two dotted parts of d ("StateDictType.FULL_STATE_DICT"), or
 * its last part alone with one = 1. */
static const char *tail_of(const char *d, int one)
{
	const char *p = d + strlen(d);
	int dots = 0;

	while (p > d) {
		if (p[-1] == '.' && ++dots == (one ? 1 : 2))
			break;
		p--;
	}
	return p;
}

/* A bool keyword of a config object: 1, 0, -1 not known; dflt when absent. */
static signed char cfg_bool(const struct vdict *args, const char *name, signed char dflt)
{
	value_t *v = args ? vdict_gets(args, name) : NULL;
	int t;

	if (!v)
		return dflt;
	t = value_truth(v);
	return t < 0 ? -1 : (signed char)t;
}

/* A config value read into *off / *r0; cls the class FSDP makes when the
 * config is not given (NULL: not known). */
static void read_config(struct interp *in, value_t *c, const char *cls, signed char *off, signed char *r0)
{
	const char *defs, *ext = NULL, *p;

	*off = *r0 = -1;
	if (!c || c->k == VK_NONE)
		ext = cls;
	else if (c->k == VK_INST && c->u.inst->ext)
		ext = tail_of(canon_ext(in, c->u.inst->ext), 1);
	if (!ext || !(defs = catalog_fact(in->cat, CATALOG_F_FSDP_FULL_STATE, ext)))
		return;
	*off = (p = strstr(defs, "offload_to_cpu=")) ? (signed char)(p[15] == '1') : -1;
	*r0 = (p = strstr(defs, "rank0_only=")) ? (signed char)(p[11] == '1') : -1;
	if (c && c->k == VK_INST) {
		const struct vdict *a = c->u.inst->args;

		if (a && vdict_gets(a, "__ecg_positional__")) {
			*off = *r0 = -1;       /* positional fields: not read */
			return;
		}
		*off = cfg_bool(a, "offload_to_cpu", *off);
		*r0 = cfg_bool(a, "rank0_only", *r0);
	}
}

/* The n-th positional argument or keyword `name` of a call, evaluated, or
 * NULL when not given. */
static value_t *arg_of(struct frame *f, const struct ast_Call *c, size_t n, const char *name)
{
	size_t i;

	if (c->args.n > n && !AST_IS(c->args.items[n], Starred))
		return eval(f, c->args.items[n]);
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);

		if (k->arg && !strcmp(k->arg, name))
			return eval(f, k->value);
	}
	return NULL;
}

int sdfull_scope(struct frame *f, const struct ast_Call *call, struct sd_full *out)
{
	struct interp *in = f->in;
	value_t *t = arg_of(f, call, 1, "state_dict_type");
	const char *classes, *sp;

	if (!t || t->k != VK_EXT ||
	    !(classes = catalog_fact(in->cat, CATALOG_F_FSDP_FULL_STATE, tail_of(canon_ext(in, t->u.ext), 0))) ||
	    !(sp = strchr(classes, ' ')))
		return 0;
	read_config(in, arg_of(f, call, 2, "state_dict_config"), afmt(in, "%.*s", (int)(sp - classes), classes),
	            &out->offload, &out->rank0);
	read_config(in, arg_of(f, call, 3, "optim_state_dict_config"), sp + 1, &out->ooffload, &out->orank0);
	return 1;
}

value_t *sdfull_copy(struct frame *f, int optim, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	struct sd_full dflt;
	const struct sd_full *s = in->sd_full;
	signed char off, r0;
	value_t *r;

	if (f->mode == M_FWD || in->sd_type_scoped)
		return NULL;
	if (!s) {
		/* no scope: the default type, at its default configs */
		const char *classes = catalog_fact(in->cat, CATALOG_F_FSDP_FULL_STATE, "StateDictType.FULL_STATE_DICT");
		const char *sp = classes ? strchr(classes, ' ') : NULL;

		if (!optim || in->sd_type_set || !sp)
			return NULL;
		read_config(in, NULL, sp + 1, &dflt.ooffload, &dflt.orank0);
		dflt.offload = dflt.rank0 = -1;
		s = &dflt;
	}
	off = optim ? s->ooffload : s->offload;
	r0 = optim ? s->orank0 : s->rank0;
	if (off == 0)
		return NULL;
	if (off < 0)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), "offload_to_cpu (the state-dict config's, not known)");
	if (r0)
		f->jc = jc_push(f, JC_COND, anchor_at(f, site), r0 > 0 ? "rank 0 (rank0_only=True: only rank 0 receives "
		                                                           "the full state)"
		                                                         : "rank 0 when rank0_only (not known) is set");
	(void)sev(f, SEV_SYNC, optim ? "the full optimizer state copied to the host (offload_to_cpu)"
	                             : "the full state dict copied to the host (offload_to_cpu)", site);
	f->jc = ojc;
	if (off < 0)
		return NULL;
	r = unknown_at(f, site, optim ? "FSDP's full optimizer state, on the host" : "FSDP's full state dict, on the host");
	r->dev = DEV_HOST;
	return r;
}

value_t *sdfull_optim_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *sdt = sd_type_method(in, d), *op = NULL, *w;
	value_t *model = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "model") : NULL, *r;
	struct sched_ev *e;
	int sharded = 0;

	if (!sdt || strcmp(sdt, "optim"))
		return NULL;
	if (f->mode == M_FWD || in->sd_type_scoped || in->sd_type_set || !model || model->k != VK_INST ||
	    !(w = module_sd_wrapper(in, model->u.inst, &op, &sharded)))
		return unknown_at(f, site, "an optimizer's state dict, read at run time");
	if (sharded != 0 && (e = sev(f, SEV_COLLECTIVE, text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site),
	                             site))) {
		e->op = op;
		e->async_op = -1;
		e->parallelism = "data";
		e->implied_by = w;
		e->target = "optim_state_dict";
		if (sharded < 0)
			e->detail_text = "an FSDP unit under it is sharded (not NO_SHARD): its sharding strategy is not known";
	}
	if ((r = sdfull_copy(f, 1, site)))
		return r;
	return unknown_at(f, site, "an optimizer's state dict, read at run time");
}

void sdfull_keep_config(struct interp *in, struct vinst *o, const char *last, size_t nargs, struct vdict *kw)
{
	size_t i;

	if (o->args || !catalog_fact(in->cat, CATALOG_F_FSDP_FULL_STATE, last))
		return;
	o->args = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, o->args, kw->keys[i], kw->vals[i]);
	if (nargs)
		vdict_sets(in->a, o->args, "__ecg_positional__", v_bool(in->a, 1));
}
