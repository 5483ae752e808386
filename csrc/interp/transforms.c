/* interp/transforms.c - image transform pipelines (torchvision.transforms)
 *
 * Inference and data code turns a picture into a tensor with a pipeline
 * of transforms, then moves it:
 *
 *     tf = transforms.Compose([transforms.Resize(256), transforms.ToTensor(),
 *                              transforms.Normalize(mean, std)])
 *     x = tf(Image.open(path)).unsqueeze(0).to(device)      # a copy
 *
 * torchvision is a library ecg does not read; catalog image_transforms
 * says what each of its transforms makes (its role):
 *   host_tensor  a new tensor on the host from a picture or an array
 *                (ToTensor, PILToTensor, functional.to_tensor);
 *   tensor_op    on a tensor, a tensor where that one is (Normalize,
 *                Resize, crops, flips...); on anything else (a picture)
 *                not known;
 *   compose      Compose(list): each transform of the list in turn (a
 *                picture not known on the way still becomes a host
 *                tensor at a ToTensor);
 *   lambda       Lambda(fn): fn called;
 *   normalize    Normalize(mean, std), functional.normalize(x, mean,
 *                std): a tensor_op that, given a tensor on the device,
 *                copies mean and std there (torch.as_tensor(mean,
 *                device=tensor.device): an H2D each, unless it is a
 *                tensor on the device already; one whose value is not
 *                known is left out) and reads `(std == 0).any()` in an
 *                `if` on the host, a sync.
 * A class is built by transform_ext_call() (its positional arguments
 * kept, attrs __ecg_tf_args__) and called by transform_inst_call(); a
 * function of the map (a lowercase last name) is applied by
 * transform_ext_call() to its first argument.  A transform that the map
 * does not name, in a Compose, makes the result not known.  Both return
 * NULL when the name or object is none of these (the caller goes on);
 * arena memory only.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

static value_t *apply(struct frame *f, value_t *tf, value_t *x, const struct ast_hdr *site);

/* Is v a mean or std that torch.as_tensor(v, device=<the device>) copies
 * from the host: Python numbers, a sequence of them, a tensor on the
 * host?  A value not known is no copy stated. */
static int copied_in(const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_TENSOR)
		return v->dev == DEV_HOST;
	return v->k == VK_INT || v->k == VK_FLOAT || ((v->k == VK_LIST || v->k == VK_TUPLE) && !v->u.seq->unk_reason);
}

/* Normalize on a device tensor: mean and std copied to it, std tested
 * on the host (torchvision 0.16 transforms/_functional_tensor.py
 * normalize).  stats holds mean then std (either may be NULL or None). */
static void normalize_events(struct frame *f, value_t *const stats[2], const struct ast_hdr *site)
{
	struct sched_ev *e;
	int i;

	for (i = 0; i < 2; i++)
		if (copied_in(stats[i]) &&
		    (e = sev(f, SEV_H2D, afmt(f->in, "%s (Normalize's %s copied to the tensor's device)", text_of(f, site),
		                              i ? "std" : "mean"), site))) {
			e->pinned = 0;
			e->non_blocking = 0;
		}
	sev(f, SEV_SYNC, afmt(f->in, "%s (Normalize reads (std == 0).any() on the host)", text_of(f, site)), site);
}

/* One role applied to x, with the transform's own arguments targs. */
static value_t *apply_role(struct frame *f, const char *role, const value_t *targs, value_t *x,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t i;

	if (!strcmp(role, "host_tensor"))
		return v_tensor_dev(in->a, DEV_HOST, 0);
	if (!strcmp(role, "tensor_op") || !strcmp(role, "normalize")) {
		/* Normalize takes tensors only (torchvision raises a
		 * TypeError for anything else): an object loaded onto the
		 * device (torch.load's, through methods that keep its place:
		 * tensor.c loaded_leaves_device) is a tensor there */
		if (!strcmp(role, "normalize") && x->k == VK_UNKNOWN && !x->alts && x->reason &&
		    !strcmp(x->reason, LOADED_ON_DEVICE_REASON))
			x = v_tensor_dev(in->a, DEV_DEVICE, 0);
		if (x->k == VK_TENSOR && x->dev == DEV_DEVICE && !strcmp(role, "normalize")) {
			value_t *stats[2] = { NULL, NULL };

			for (i = 0; i < 2; i++)
				stats[i] = targs && targs->u.seq->n > i ? targs->u.seq->items[i] : NULL;
			normalize_events(f, stats, site);
		}
		if (x->k == VK_TENSOR)
			return v_tensor_dev(in->a, x->dev, 0);
		return unknown_at(f, site, "a transform of a value that is no tensor (a picture)");
	}
	if (!strcmp(role, "lambda")) {
		if (!targs || targs->u.seq->n < 1)
			return NULL;
		return call(f, targs->u.seq->items[0], &x, 1, NULL, site);
	}
	if (!strcmp(role, "compose")) {
		const value_t *l = targs && targs->u.seq->n >= 1 ? targs->u.seq->items[0] : NULL;

		if (!l || (l->k != VK_LIST && l->k != VK_TUPLE) || l->u.seq->unk_reason)
			return unknown_at(f, site, "a composition of transforms not known");
		for (i = 0; i < l->u.seq->n; i++)
			x = apply(f, l->u.seq->items[i], x, site);
		return x;
	}
	return NULL;
}

/* tf(x) for one transform of a pipeline: one of the map's, or a callable
 * of the repository (a function, an object with __call__). */
static value_t *apply(struct frame *f, value_t *tf, value_t *x, const struct ast_hdr *site)
{
	value_t *r;

	if (tf->k == VK_INST && tf->u.inst->ext && (r = transform_inst_call(f, tf->u.inst, &x, 1, NULL, site)))
		return r;
	if (tf->k == VK_FUNC || tf->k == VK_BOUND || (tf->k == VK_INST && tf->u.inst->cls))
		return call(f, tf, &x, 1, NULL, site);
	return unknown_at(f, site, "a transform ecg does not know");
}

/* (mean, std) of a normalize given as args (positional) and kw: a new
 * tuple, an item None where neither gives it. */
static value_t *stat_args(struct interp *in, value_t **args, size_t nargs, struct vdict *kw)
{
	static const char *const names[2] = { "mean", "std" };
	value_t *t = v_seq(in->a, VK_TUPLE, 2);
	size_t i;

	for (i = 0; i < 2; i++)
	{
		value_t *v = i < nargs ? args[i] : kw ? vdict_gets(kw, names[i]) : NULL;

		vseq_push(in->a, t->u.seq, v ? v : v_none(in->a));
	}
	return t;
}

value_t *transform_ext_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *role = catalog_fact(in->cat, CATALOG_F_IMAGE_TRANSFORMS, d);
	struct vinst *o;
	value_t *targs;
	size_t i;

	if (!role || f->mode == M_FWD)
		return NULL;
	if (!(last[0] >= 'A' && last[0] <= 'Z'))
		return nargs >= 1 ? apply_role(f, role, stat_args(in, args + 1, nargs - 1, kw), args[0], site) : NULL;
	o = new_inst(in);
	o->ext = d;
	o->args = vdict_new(in->a);
	for (i = 0; kw && i < kw->n; i++)
		vdict_set(in->a, o->args, kw->keys[i], kw->vals[i]);
	targs = v_seq(in->a, VK_TUPLE, nargs);
	for (i = 0; i < nargs; i++)
		vseq_push(in->a, targs->u.seq, args[i]);
	/* Compose(transforms=[...]), Lambda(lambd=fn), Normalize(mean=, std=) */
	if (!nargs && kw && (vdict_gets(kw, "transforms") || vdict_gets(kw, "lambd")))
		vseq_push(in->a, targs->u.seq, vdict_gets(kw, "transforms") ? vdict_gets(kw, "transforms")
		                                                               : vdict_gets(kw, "lambd"));
	else if (!strcmp(role, "normalize"))
		targs = stat_args(in, args, nargs, kw);
	vdict_sets(in->a, o->attrs, "__ecg_tf_args__", targs);
	return mk_inst_value(in, o);
}

value_t *transform_inst_call(struct frame *f, struct vinst *o, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	const char *role = o->ext && o->mod == VM_NONE ? catalog_fact(f->in->cat, CATALOG_F_IMAGE_TRANSFORMS, o->ext)
	                                                : NULL;
	value_t *targs = role ? vdict_gets(o->attrs, "__ecg_tf_args__") : NULL;

	(void)kw;
	if (!targs || nargs < 1 || f->mode == M_FWD)
		return NULL;
	return apply_role(f, role, targs, args[0], site);
}
