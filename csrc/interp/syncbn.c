/* interp/syncbn.c - SyncBatchNorm's collectives, read not run
 *
 * `nn.SyncBatchNorm.convert_sync_batchnorm(model)` (catalog
 * sync_bn_converters) replaces every BatchNorm1d/2d/3d under the model
 * (catalog sync_bn_layers) by a SyncBatchNorm; `nn.SyncBatchNorm(...)`
 * builds one.  In training mode, in a process group of more than one
 * process, each call of one all-gathers the batch statistics of every
 * process (torch/nn/modules/batchnorm.py SyncBatchNorm.forward ->
 * sync_batch_norm.py: all_gather_into_tensor of mean, invstd, count).
 *
 * syncbn_convert() marks the layers it replaces; syncbn_call() states, at
 * each call of a marked (or SyncBatchNorm) layer read in a forward while
 * the layer is in training mode, that all-gather: data parallelism,
 * issued inside torch (async_op implicit), implied by SyncBatchNorm,
 * anchored at the call (at the container's call for a Sequential's
 * child).  A world size of one process states nothing; one not pinned by
 * the invocation is the row's condition.  When the converted model holds
 * modules ecg does not read (a torchvision backbone), their layers are
 * not seen: the rows' counts are not known (none is stated too low).
 * Such a module built by a torchvision factory whose models hold batch
 * norms by default (catalog batch_norm_factories: resnet50, densenet121,
 * ...; not when a norm_layer keyword replaces them) is marked too: each
 * call of it states the all-gathers of the layers inside it, at the
 * call, their count not known.
 * A module of the repository whose forward is its library base's (a
 * subclass of timm's VisionTransformer defining no forward: catalog
 * module_packages), holding converted layers the repository attached (a
 * head Sequential put in place of the library's), is read the same way:
 * each call of it states their all-gathers at the call, their count not
 * known (the base's own layers are not seen).
 * A Sequential called again from another line (the same projector on a
 * second view) states its layers' all-gathers there too
 * (syncbn_container_again: its forward is not read again).  The
 * backward's all-reduce of the gradient sums is not stated.
 *
 * Allocates only in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define SYNC_BN_KEY "__ecg_sync_bn__"     /* 1: the layers under it are all seen; 2: not */

static const char *ext_last_name(const struct vinst *m)
{
	const char *p;

	if (!m->ext)
		return NULL;
	p = strrchr(m->ext, '.');
	return p ? p + 1 : m->ext;
}

/* Does m hold a module whose submodules are not read? */
static int holds_unread(const struct vinst *m, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_EXTERNAL)
		return 1;
	for (i = 0; i < m->nchildren; i++)
		if (holds_unread(m->children[i].inst, depth + 1))
			return 1;
	return 0;
}

/* Is m a module ecg does not read, built by a torchvision factory whose
 * models hold batch-norm layers (none replaced by a norm_layer given)? */
static int unread_with_bn(struct interp *in, const struct vinst *m)
{
	const value_t *fac = m->mod == VM_EXTERNAL && m->attrs ? vdict_gets(m->attrs, "__ecg_factory__") : NULL;
	const value_t *kw = fac ? vdict_gets(m->attrs, "__ecg_factory_kw__") : NULL;
	const char *last;

	if (!fac || fac->k != VK_STR)
		return 0;
	last = strrchr(fac->u.str.s, '.');
	last = last ? last + 1 : fac->u.str.s;
	if (!catalog_fact_match(in->cat, CATALOG_F_BATCH_NORM_FACTORIES, last))
		return 0;
	/* norm_layer=... (or keywords not known) may replace them */
	return !(kw && kw->k == VK_DICT &&
	         (vdict_gets(kw->u.dict, "norm_layer") || vdict_gets(kw->u.dict, KW_UNK_DSTAR)));
}

static void mark(struct interp *in, struct vinst *m, int how, int depth)
{
	size_t i;

	if (depth > 64 || m->mod == VM_NONE)
		return;
	if ((m->mod == VM_LAYER && ext_last_name(m) &&
	     catalog_fact(in->cat, CATALOG_F_SYNC_BN_LAYERS, ext_last_name(m))) || unread_with_bn(in, m)) {
		if (!m->attrs)
			m->attrs = vdict_new(in->a);
		vdict_sets(in->a, m->attrs, SYNC_BN_KEY, v_int(in->a, how));
	}
	for (i = 0; i < m->nchildren; i++)
		mark(in, m->children[i].inst, how, depth + 1);
}

/* Does m hold a layer convert_sync_batchnorm marked? */
static int holds_marked(const struct vinst *m, int depth)
{
	size_t i;

	if (depth > 64)
		return 0;
	if (m->attrs && vdict_gets(m->attrs, SYNC_BN_KEY))
		return 1;
	for (i = 0; i < m->nchildren; i++)
		if (holds_marked(m->children[i].inst, depth + 1))
			return 1;
	return 0;
}

/* Is m a repository module whose forward is its library base's (not
 * read), holding converted layers?  Its call stands for theirs. */
static int library_forward_with_bn(struct vinst *m)
{
	return m->mod == VM_REPO && m->cls && class_ext_base(m->cls) && !class_lookup(m->cls, "forward", NULL) &&
	       holds_marked(m, 0);
}

void syncbn_convert(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw)
{
	const value_t *m = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "module") : NULL;

	if (f->mode == M_FWD || !catalog_fact(f->in->cat, CATALOG_F_SYNC_BN_CONVERTERS, d) || !m ||
	    m->k != VK_INST || m->u.inst->mod == VM_NONE)
		return;
	mark(f->in, m->u.inst, holds_unread(m->u.inst, 0) ? 2 : 1, 0);
}

void syncbn_call(struct frame *f, struct vinst *m, const struct ast_hdr *site, const char *anchor)
{
	struct interp *in = f->in;
	const value_t *how = m->attrs ? vdict_gets(m->attrs, SYNC_BN_KEY) : NULL;
	const value_t *tr = m->attrs ? vdict_gets(m->attrs, "training") : NULL;
	const char *last = ext_last_name(m);
	struct sched_ev *e;
	long long world;

	int lib_fwd = f->mode == M_FWD && !how && library_forward_with_bn(m);

	if (f->mode != M_FWD || (m->mod != VM_LAYER && !(m->mod == VM_EXTERNAL && how) && !lib_fwd) ||
	    (!how && !lib_fwd && !(last && !strcmp(last, "SyncBatchNorm"))))
		return;
	if (tr && tr->k == VK_BOOL && !tr->u.b)
		return;                      /* eval mode: the running statistics */
	if ((world = multi_process_count(in)) == 1)
		return;
	if (!site && !anchor)
		return;
	if (!(e = sev(f, SEV_COLLECTIVE, site ? text_of(f, AST_IS(site, Call) ? AST_AS(site, Call)->func : site)
	                                      : "SyncBatchNorm", site)))
		return;
	if (!site)
		e->anchor = anchor;
	e->op = "all_gather";
	e->async_op = -1;
	e->parallelism = "data";
	e->implied_by = "SyncBatchNorm";
	if (world <= 0)
		e->detail_text = "the process group holds more than one process (SyncBatchNorm synchronises only then)";
	if (lib_fwd || (how && how->k == VK_INT && how->u.i == 2)) {
		e->fwd_mult = -1;            /* layers in modules not read are not counted */
		e->fwd_mult_why = "batch norms inside a module ecg does not read (a library's model): how many is not read";
	}
}

void syncbn_container_again(struct frame *f, struct vinst *m, const struct ast_hdr *site)
{
	size_t i;

	if (f->mode != M_FWD || !site || m->mod != VM_CONTAINER || !m->ext || strcmp(m->ext, "torch.nn.Sequential"))
		return;
	for (i = 0; i < m->nchildren; i++)
		syncbn_call(f, m->children[i].inst, site, NULL);
}
