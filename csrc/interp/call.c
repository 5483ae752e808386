/* interp/call.c - calls: one entry for every callable
 *
 * call() dispatches on the callee's kind: functions and bound methods
 * (function.c), classes (object.c), builtins (builtins.c), module
 * instances (forward.c), tensors' methods (tensor.c) and externals
 * (call_ext: torch, frameworks and the standard library, in that file's
 * order).  Never NULL: an unknown result carries the call's text.
 */
#include "config.h"

#include "internal.h"

/* External callables: torch, third-party libraries, the standard library. */
value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *d = canon_ext(in, fn->u.ext);
	const char *last = short_ext(d);
	size_t i;
	int any_tensor = 0;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]))
			any_tensor = 1;

	/* itertools.repeat(x, n) with n known: n times x */
	if (!strcmp(d, "itertools.repeat") && nargs == 2 && args[1]->k == VK_INT && args[1]->u.i >= 0 &&
	    args[1]->u.i <= MAX_UNROLL) {
		value_t *r = v_seq(in->a, VK_TUPLE, (size_t)args[1]->u.i);
		long long k;

		for (k = 0; k < args[1]->u.i; k++)
			vseq_push(in->a, r->u.seq, args[0]);
		return r;
	}
	/* worker processes run job code: mp.spawn(fn, args=(...)) calls
	 * fn(rank, *args) in each; Process(target=fn, args=(...)) calls
	 * fn(*args).  Read once, as one process of the job. */
	if (f->mode != M_FWD &&
	    (!strcmp(d, "torch.multiprocessing.spawn") || !strcmp(d, "torch.multiprocessing.start_processes") ||
	     !strcmp(d, "torch.multiprocessing.Process") || !strcmp(d, "multiprocessing.Process") ||
	     !strcmp(d, "torch.multiprocessing.spawn.spawn"))) {
		int spawn = strcmp(last, "Process") != 0;
		value_t *target = spawn ? (nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "fn") : NULL)
		                        : kw ? vdict_gets(kw, "target") : NULL;
		value_t *pargs = kw ? vdict_gets(kw, "args") : NULL;

		if (!pargs && spawn && nargs >= 2)
			pargs = args[1];
		if (target && target->k == VK_FUNC) {
			size_t np = pargs && (pargs->k == VK_TUPLE || pargs->k == VK_LIST) ? pargs->u.seq->n : 0;
			value_t **cargs = ast_arena_alloc(in->a, (np + 2) * sizeof *cargs);
			size_t nc = 0;

			if (spawn)
				cargs[nc++] = v_unknown(in->a, "rank", "the process index mp.spawn passes");
			for (i = 0; i < np; i++)
				cargs[nc++] = pargs->u.seq->items[i];
			(void)call_function(f, target->u.fn, NULL, cargs, nc, NULL, M_JOB, NULL, site);
		}
	}
	if (f->mode != M_FWD && !in->ev.write &&
	    (!strcmp(d, "torch.save") || !strcmp(d, "json.dump") || !strcmp(d, "numpy.save") ||
	     !strcmp(d, "numpy.savez") || !strcmp(d, "pickle.dump") || !strcmp(last, "to_csv") ||
	     !strcmp(last, "to_parquet") || !strcmp(last, "save_image") || !strcmp(d, "np.save")))
		in->ev.write = anchor_at(f, site);
	if (f->mode != M_FWD && !strcmp(last, "step") && nargs >= 1 &&
	    args[0]->k == VK_INST && args[0]->u.inst->ext && !strncmp(args[0]->u.inst->ext, "torch.optim.", 12)) {
		if (!in->ev.optimizer_step)
			in->ev.optimizer_step = anchor_at(f, site);
		sev(f, SEV_OPT_STEP, "scaler.step(optimizer)", site);
		if (strstr(d, "GradScaler"))
			sev(f, SEV_SYNC, "scaler.step(optimizer) (reads found_inf with .item())", site);
	}
	if (!strncmp(d, "Tensor.", 7))
		return call_tensor_method(f, fn, last, args, nargs, kw, site);
	if (strstr(d, "GradScaler.") && !strcmp(last, "scale") && nargs == 1)
		return args[0];
	if (!strcmp(d, "torch.compile"))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	if (is_wrapper(d) && nargs >= 1 && args[0]->k == VK_INST) {
		value_t *w = v_copy(in->a, args[0]);
		struct vinst *m = args[0]->u.inst;
		const char **nw = ast_arena_alloc(in->a, (m->nwrapped + 1) * sizeof *nw);

		if (!strcmp(d, "torch.compile.__wrap__"))
			d = "torch.compile";
		if (strstr(d, "DistributedDataParallel") || strstr(d, "FullyShardedDataParallel") ||
		    strstr(d, "fully_shard") || strstr(d, "deepspeed")) {
			struct sched_ev *e = sev(f, SEV_WRAP, d, site);

			if (e) {
				e->model = m;
				e->target = AST_IS(site, Call) && AST_AS(site, Call)->args.n
				            ? text_of(f, AST_AS(site, Call)->args.items[0]) : NULL;
				e->implied_by = strstr(d, "DistributedDataParallel") ? "DistributedDataParallel"
				                : strstr(d, "deepspeed") ? "deepspeed.initialize"
				                : strstr(d, "fully_shard") ? "fully_shard" : "FullyShardedDataParallel";
			}
		}

		if (m->nwrapped)
			memcpy(nw, m->wrapped_by, m->nwrapped * sizeof *nw);
		nw[m->nwrapped] = d;
		m->wrapped_by = nw;
		m->nwrapped++;
		return w;
	}
	if (!strcmp(d, "argparse.ArgumentParser"))
		return argp_new(in);
	/* fabric.backward(loss), accelerator.backward(loss), engine.backward(loss) */
	if (f->mode != M_FWD && !strcmp(last, "backward") &&
	    ((nargs >= 1 && is_tensorish(args[0])) || !strcmp(d, "torch.autograd.backward") ||
	     !strcmp(d, "torch.distributed.autograd.backward"))) {
		in->job_events++;
		in->saw_backward = 1;
		if (!in->ev.backward)
			in->ev.backward = anchor_at(f, site);
		sev(f, SEV_BACKWARD, afmt(in, "%s(loss)", text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)), site);
		return v_none(in->a);
	}
	if (f->mode != M_FWD && nargs >= 1 && !strcmp(last, "setup_optimizers"))
		return args[0];
	/* fabric.setup(model, opt), accelerator.prepare(model, opt, loader):
	 * framework wrappers hand back what they were given */
	if (f->mode != M_FWD && nargs >= 1 && args[0]->k == VK_INST && args[0]->u.inst->mod != VM_NONE &&
	    (!strcmp(last, "setup") || !strcmp(last, "setup_module") || !strcmp(last, "prepare") ||
	     !strcmp(last, "prepare_model") || !strcmp(last, "wrap"))) {
		value_t *t;

		if (nargs == 1)
			return args[0];
		t = v_seq(in->a, VK_TUPLE, nargs);
		for (i = 0; i < nargs; i++)
			vseq_push(in->a, t->u.seq, args[i]);
		return t;
	}
	if (f->mode != M_FWD && (!strcmp(last, "CLI") || !strcmp(d, "fire.Fire") || !strcmp(d, "typer.run") ||
	                         !strcmp(d, "jsonargparse.auto_cli") || !strcmp(d, "hydra.main"))) {
		/* a command-line dispatcher: it calls the function it is given
		 * with the job's arguments -- here, the function's defaults */
		for (i = 0; i < nargs; i++) {
			if (args[i]->k == VK_FUNC)
				return call(f, args[i], NULL, 0, NULL, site);
			/* {"pretrain": fn, ...}: the subcommand is the job's first argument */
			if (args[i]->k == VK_DICT && in->argv && in->argv->u.seq->n) {
				value_t *fn2 = vdict_get(args[i]->u.dict, in->argv->u.seq->items[0]);

				if (fn2 && (fn2->k == VK_FUNC || fn2->k == VK_BOUND))
					return call(f, fn2, NULL, 0, NULL, site);
			}
		}
	}
	if (!strcmp(d, "functools.partial") && nargs >= 1) {
		struct vinst *p = new_inst(in);
		value_t *pa = v_seq(in->a, VK_LIST, 0), *pk = v_dict(in->a);

		p->ext = "functools.partial";
		for (i = 1; i < nargs; i++)
			vseq_push(in->a, pa->u.seq, args[i]);
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, pk->u.dict, kw->keys[i], kw->vals[i]);
		vdict_sets(in->a, p->attrs, "func", args[0]);
		vdict_sets(in->a, p->attrs, "args", pa);
		vdict_sets(in->a, p->attrs, "keywords", pk);
		return mk_inst_value(in, p);
	}
	if (!strcmp(d, "ast.literal_eval") && nargs == 1 && args[0]->k == VK_STR)
		return literal_eval(f, args[0]->u.str.s, site);
	if (!strcmp(d, "os.path.dirname") || !strcmp(d, "os.path.basename")) {
		if (nargs == 1 && args[0]->k == VK_STR) {
			const char *p = args[0]->u.str.s, *sl = strrchr(p, '/');

			if (!strcmp(d, "os.path.dirname"))
				return sl ? v_strn(in->a, p, (size_t)(sl - p)) : v_str(in->a, "");
			return v_str(in->a, sl ? sl + 1 : p);
		}
		return unknown_at(f, site, "a path not known");
	}
	if ((!strcmp(d, "os.path.abspath") || !strcmp(d, "os.path.realpath") || !strcmp(d, "os.path.expanduser") ||
	     !strcmp(d, "os.path.normpath")) && nargs == 1 && args[0]->k == VK_STR)
		return args[0];
	if (!strcmp(d, "json.load") || !strcmp(d, "json.loads") || !strcmp(d, "tomllib.load") ||
	    !strcmp(d, "tomllib.loads") || !strcmp(d, "toml.load") || !strcmp(d, "tomli.load") ||
	    !strcmp(d, "yaml.safe_load") || !strcmp(d, "yaml.load") || !strcmp(d, "yaml.full_load") ||
	    !strcmp(d, "omegaconf.OmegaConf.load"))
		return load_config(f, d, nargs ? args[0] : NULL, site);
	if (!strcmp(d, "copy.deepcopy") && nargs == 1)
		return deepcopy_value(in, args[0], 0);
	if (!strncmp(d, "math.", 5))
		return math_call(f, d + 5, args, nargs, site);
	if ((!strcmp(d, "collections.OrderedDict") || !strcmp(d, "OrderedDict"))) {
		value_t *r = v_dict(in->a);
		struct vseq *items = NULL;

		if (nargs == 1 && args[0]->k == VK_DICT)
			return args[0];
		if (nargs == 1 && iter_items(f, args[0], &items) == NULL && items) {
			for (i = 0; i < items->n; i++) {
				value_t *p = items->items[i];

				if ((p->k == VK_TUPLE || p->k == VK_LIST) && p->u.seq->n == 2)
					vdict_set(in->a, r->u.dict, p->u.seq->items[0], p->u.seq->items[1]);
			}
		}
		if (kw)
			for (i = 0; i < kw->n; i++)
				vdict_set(in->a, r->u.dict, kw->keys[i], kw->vals[i]);
		return r;
	}
	if (!strcmp(d, "os.path.join")) {
		buf_t b;
		value_t *r;

		for (i = 0; i < nargs; i++)
			if (args[i]->k != VK_STR)
				return unknown_at(f, site, "a path built from values that are not known");
		buf_init(&b);
		for (i = 0; i < nargs; i++) {
			if (args[i]->u.str.s[0] == '/')
				buf_reset(&b);
			else if (b.len && b.buf[b.len - 1] != '/')
				buf_addch(&b, '/');
			buf_addstr(&b, args[i]->u.str.s);
		}
		r = v_str(in->a, b.buf);
		buf_free(&b);
		return r;
	}
	/* torch.nn classes: modules */
	if (!strncmp(d, "torch.nn.", 9) && strchr(d + 9, '.') == NULL && d[9] >= 'A' && d[9] <= 'Z') {
		if (!strcmp(d, "torch.nn.Parameter")) {
			value_t *p = v_tensor(in->a);

			p->shape = nargs >= 1 ? shape_of(args[0]) : kw ? shape_of(vdict_gets(kw, "data")) : NULL;
			p->is_param = 1;
			return p;
		}
		return mk_inst_value(in, new_torch_module(f, d, args, nargs, kw, site));
	}
	/* ops */
	if (!strncmp(d, "torch.", 6))
		return call_torch(f, d, last, args, nargs, kw, site, any_tensor);
	/* a module class of a third-party library: an external module */
	if (ext_is_module_class(d)) {
		struct vinst *m = new_inst(in);
		size_t k;

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->cond = f->cond;
		m->args = vdict_new(in->a);
		for (k = 0; k < nargs; k++)
			vdict_sets(in->a, m->args, afmt(in, "arg%zu", k), args[k]);
		if (kw)
			for (k = 0; k < kw->n; k++)
				if (kw->keys[k]->k == VK_STR)
					vdict_set(in->a, m->args, kw->keys[k], kw->vals[k]);
		return mk_inst_value(in, m);
	}
	/* a third-party model class, e.g. torchvision.models.resnet50() */
	if (f->mode != M_FWD && (strstr(d, ".models.") || !strncmp(d, "timm.", 5) ||
	                         !strncmp(d, "transformers.", 13)) &&
	    (last[0] >= 'a' && last[0] <= 'z' ? strstr(d, ".models.") != NULL : 1) &&
	    strcmp(last, "create_model") && strcmp(last, "from_pretrained")) {
		struct vinst *m = new_inst(in);

		m->ext = d;
		m->mod = VM_EXTERNAL;
		m->constructed_at = anchor_at(f, site);
		m->ctor_expr = text_of(f, site);
		m->args = vdict_new(in->a);
		return mk_inst_value(in, m);
	}
	if (f->mode == M_FWD && any_tensor) {
		emit_op(f, d, site);
		return v_tensor(in->a);
	}
	if (f->mode != M_FWD && last[0] >= 'A' && last[0] <= 'Z') {
		/* an object of a class outside the repository (a web app, a
		 * tokenizer, a logger): its type is known, nothing else */
		struct vinst *o = new_inst(in);
		value_t *ls = kw ? vdict_gets(kw, "lifespan") : NULL;

		if (ls && ls->k == VK_FUNC && in->nstartup < 16)
			in->startup[in->nstartup++] = ls;

		o->ext = d;
		return mk_inst_value(in, o);
	}
	(void)kw;
	return unknown_at(f, site, afmt(in, "the result of %s, which is outside the repository", d));
}

value_t *call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
              struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (!budget(f))
		return unknown_at(f, site, "the analysis step budget ran out");
	if (f->mode != M_FWD)
		ema_call(f, fn, site);
	switch (fn->k) {
	case VK_FUNC:
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub;
			value_t *r;

			if (!e)
				return call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, f->ev, site);
			e->func = fn->u.fn->qualname;
			e->func_anchor = aanchor(in, fn->u.fn->file->path, fn->u.fn->qualname,
			                      fn->u.fn->def->line);
			sub = ast_arena_alloc(in->a, sizeof *sub);
			{
				size_t idx = (size_t)(e - f->ev->ev);

				r = call_function(f, fn->u.fn, NULL, args, nargs, kw, M_FWD, sub, site);
				e = &f->ev->ev[idx];   /* the event array may have moved */
			}
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		return call_function(f, fn->u.fn, NULL, args, nargs, kw, f->mode, NULL, site);
	case VK_BOUND: {
		value_t *self = fn->u.bound.self;
		struct vfunc *vf = fn->u.bound.fn->u.fn;

		if (self->k == VK_INST && self->u.inst->mod != VM_NONE && AST_IS(vf->def, FunctionDef) &&
		    !strcmp(AST_AS(vf->def, FunctionDef)->name, "forward")) {
			value_t *mv = mk_inst_value(in, self->u.inst);

			return call(f, mv, args, nargs, kw, site);
		}
		if (f->mode == M_FWD) {
			struct fev *e = emit(f, FEV_FUNCTION, site);
			struct fseq *sub = ast_arena_alloc(in->a, sizeof *sub);
			size_t idx;
			value_t *r;

			if (!e)
				return call_function(f, vf, self, args, nargs, kw, M_FWD, f->ev, site);
			e->func = vf->qualname;
			e->func_anchor = aanchor(in, vf->file->path, vf->qualname, vf->def->line);
			idx = (size_t)(e - f->ev->ev);
			r = call_function(f, vf, self, args, nargs, kw, M_FWD, sub, site);
			e = &f->ev->ev[idx];
			e->children = sub->ev;
			e->nchildren = sub->n;
			return r;
		}
		return call_function(f, vf, self, args, nargs, kw, f->mode, NULL, site);
	}
	case VK_CLASS:
		return instantiate(f, fn->u.cls, args, nargs, kw, site);
	case VK_INST: {
		struct vinst *m = fn->u.inst;

		if (m->mod == VM_NONE && m->ext && !strcmp(m->ext, "functools.partial")) {
			value_t *pf = vdict_gets(m->attrs, "func"), *pa = vdict_gets(m->attrs, "args");
			value_t *pk = vdict_gets(m->attrs, "keywords");
			size_t np = pa ? pa->u.seq->n : 0;
			value_t **all = xmalloc((np + nargs + 1) * sizeof *all);
			struct vdict *mk = vdict_new(in->a);
			value_t *r;

			for (i = 0; i < np; i++)
				all[i] = pa->u.seq->items[i];
			for (i = 0; i < nargs; i++)
				all[np + i] = args[i];
			for (i = 0; pk && i < pk->u.dict->n; i++)
				vdict_set(in->a, mk, pk->u.dict->keys[i], pk->u.dict->vals[i]);
			for (i = 0; kw && i < kw->n; i++)
				vdict_set(in->a, mk, kw->keys[i], kw->vals[i]);
			r = pf ? call(f, pf, all, np + nargs, mk, site) : unknown_at(f, site, "a partial of nothing");
			free(all);
			return r;
		}
		if (m->mod == VM_NONE) {
			value_t *c = m->cls ? class_lookup(m->cls, "__call__", NULL) : NULL;

			if (c && c->k == VK_FUNC)
				return call_function(f, c->u.fn, fn, args, nargs, kw, f->mode, f->ev, site);
			return unknown_at(f, site, "a call of an object that is not a module");
		}
		if (f->mode == M_FWD)
			return call_module_fwd(f, m, args, nargs, kw, site);
		/* job code calling a model: a root call.  A torch.nn built-in
		 * called from job code is the model when it has parameters and
		 * is not a loss (`model = nn.Linear(20, 1)`; not `criterion`,
		 * not an nn.Softmax) */
		if (m->mod != VM_LAYER ||
		    (m->ext && !strstr(m->ext, "Loss") && cg_param_count(in->cat, m) != 0)) {
			struct root_call *rc;

			xgrow((void **)&in->roots, &in->aroots, in->nroots + 1, sizeof *in->roots);
			rc = &in->roots[in->nroots++];
			memset(rc, 0, sizeof *rc);
			rc->inst = m;
			rc->anchor = anchor_at(f, site);
			if (site && AST_IS(site, Call)) {
				const struct ast_hdr *fe = AST_AS(site, Call)->func;

				if (AST_IS(fe, Name))
					rc->binding = astr(in, AST_AS(fe, Name)->id);
				else if (AST_IS(fe, Attribute))
					rc->binding = astr(in, AST_AS(fe, Attribute)->attr);
			}
			rc->nargs = nargs;
			rc->args = ast_arena_alloc(in->a, (nargs + 1) * sizeof *rc->args);
			for (i = 0; i < nargs; i++)
				rc->args[i] = args[i];
			rc->kwargs = kw;
			rc->loop_anchor = f->loop_anchor;
			rc->no_grad = f->no_grad;
			rc->handler = f->handler;
			rc->function_anchor = f->qualname && f->def_line
			                      ? aanchor(in, f->file->path, f->qualname, f->def_line) : NULL;
			rc->ctx = f->jc;
			in->job_events++;
			{
				struct sched_ev *e = sev(f, SEV_MODEL_CALL, rc->binding ? rc->binding : "model", site);

				if (e)
					e->model = m;
			}
		}
		{
			int dev = in->gpu ? DEV_DEVICE : DEV_UNKNOWN;

			/* a loss or other layer called from job code: where its input is */
			if (m->mod == VM_LAYER)
				for (i = 0, dev = DEV_UNKNOWN; i < nargs; i++)
					if (is_tensorish(args[i]) && args[i]->dev > dev)
						dev = args[i]->dev;
			return v_tensor_dev(in->a, dev, 0);
		}
	}
	case VK_EXT:
		return call_ext(f, fn, args, nargs, kw, site);
	case VK_BUILTIN:
		return call_builtin(f, fn, args, nargs, kw, site);
	default:
		break;
	}
	if (f->mode == M_FWD)
		for (i = 0; i < nargs; i++)
			if (is_tensorish(args[i]))
				return v_tensor(in->a);
	return unknown_at(f, site, fn->k == VK_UNKNOWN && fn->reason ? fn->reason : "a call ecg cannot follow");
}
