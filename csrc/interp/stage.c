/* interp/stage.c - a pipeline stage's share of the whole model's layers
 *
 * With pipeline parallelism a rank builds only its stage's layers: the
 * module tree a rank builds has `n // P` blocks where the whole model has
 * n.  The record states both (records.md: `repeat.whole_model`), and the
 * whole count is stated only when the code pins that every stage builds
 * the same share:
 *
 *   stage_note_div()    `n // P`, P read from a name of the pipeline degree
 *                       (pipeline_model_parallel_size, pipeline_parallel_size:
 *                       parallel.c's table), equal to the degree the job
 *                       bound when it bound one, P > 1, n % P == 0, and no
 *                       rank pinned by the environment (RANK=3: a branch
 *                       on the rank is then decided for one stage only): the
 *                       result is a share of n (kept by value, in
 *                       in->stage_share).  Any arithmetic on it makes a new
 *                       value that is no share (a first stage's `-= 1`);
 *   stage_of_repeat()   `[x] * s`: the list is one stage's part of `[x] * n`;
 *   stage_of_slice()    `L[a : a + s]` with s such a share of len(L): the
 *                       slice is one stage's part of L (vseq.stage_whole);
 *   stage_of_comp()     a comprehension with one generator and no `if` over
 *                       such a part, or over enumerate() of one, makes as
 *                       many items: they are that stage's part too;
 *   torch.c             ModuleList(part) keeps the whole length in the
 *                       container's attributes (STAGE_WHOLE_ATTR), and
 *                       modtree.c writes it beside the repeat count of the
 *                       container's children.
 *
 * Nothing here fails; what is not pinned is simply not marked.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static int is_pipeline_name(const struct ast_hdr *e)
{
	static const char *const names[] = { "pipeline_model_parallel_size", "pipeline_parallel_size" };
	const char *id = NULL;
	size_t i;

	if (!e)
		return 0;
	if (e->kind == AST_Name)
		id = AST_AS(e, Name)->id;
	else if (e->kind == AST_Attribute)
		id = AST_AS(e, Attribute)->attr;
	for (i = 0; id && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(id, names[i]))
			return 1;
	return 0;
}

/* The job is read as one process whose rank the environment pins (RANK=3,
 * not a launcher's range): a branch on the rank is decided for that rank
 * alone, and another stage's share may differ (`if rank == 0: n -= 1`). */
static int rank_pinned(const struct interp *in)
{
	static const char *const ranks[] = {
		"RANK", "LOCAL_RANK", "GROUP_RANK", "ROLE_RANK", "NODE_RANK", "SLURM_PROCID", "SLURM_LOCALID",
		"SLURM_NODEID", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK",
	};
	size_t i;

	if (!in->environ || in->environ->k != VK_DICT)
		return 0;
	for (i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
		const value_t *v = vdict_gets(in->environ->u.dict, ranks[i]);

		if (v && v->k != VK_UNKNOWN)
			return 1;
	}
	return 0;
}

void stage_note_div(struct frame *f, const struct ast_hdr *site, const value_t *l, const value_t *r,
                    value_t *res)
{
	struct interp *in = f->in;
	const struct interp_par_degree *d = interp_parallel(in, PAR_PIPELINE);
	struct ptrmap_slot *s;

	if (!site || site->kind != AST_BinOp || AST_AS(site, BinOp)->op != AST_OP_FLOORDIV ||
	    !is_pipeline_name(AST_AS(site, BinOp)->right) || l->k != VK_INT || r->k != VK_INT ||
	    res->k != VK_INT || r->u.i <= 1 || l->u.i <= 0 || l->u.i % r->u.i || l->u.i > 1000000)
		return;
	if ((d && !(d->v->k == VK_INT && d->v->u.i == r->u.i)) || rank_pinned(in))
		return;
	s = ptrmap_put(&in->stage_share, res, NULL);
	s->a = (int)l->u.i;
}

/* The whole count v is a stage's share of, or 0. */
static long long share_whole(const struct interp *in, const value_t *v)
{
	const struct ptrmap_slot *s = v && v->k == VK_INT ? ptrmap_get(&in->stage_share, v) : NULL;

	return s ? s->a : 0;
}

void stage_of_slice(struct frame *f, const struct ast_hdr *slice, const value_t *obj, value_t *r)
{
	const struct ast_Slice *sl;
	const struct ast_BinOp *hi;
	const struct ast_hdr *other = NULL;
	const char *lo_text;
	value_t *s;

	if (!slice || slice->kind != AST_Slice || obj->u.seq->unk_reason || r->u.seq->unk_reason)
		return;
	sl = AST_AS(slice, Slice);
	if (!sl->lower || !sl->upper || sl->step || sl->upper->kind != AST_BinOp ||
	    AST_AS(sl->upper, BinOp)->op != AST_OP_ADD)
		return;
	hi = AST_AS(sl->upper, BinOp);
	lo_text = text_of(f, sl->lower);
	if (lo_text && !strcmp(lo_text, text_of(f, hi->left) ? text_of(f, hi->left) : ""))
		other = hi->right;
	else if (lo_text && !strcmp(lo_text, text_of(f, hi->right) ? text_of(f, hi->right) : ""))
		other = hi->left;
	if (!other || other->kind != AST_Name)
		return;
	s = eval(f, other);
	if (share_whole(f->in, s) == (long long)obj->u.seq->n && s->u.i == (long long)r->u.seq->n)
		r->u.seq->stage_whole = obj->u.seq->n;
}

void stage_of_repeat(const struct interp *in, const value_t *times, const value_t *x, value_t *out)
{
	long long w = share_whole(in, times);

	if (w > 0 && (x->k == VK_LIST || x->k == VK_TUPLE) && (out->k == VK_LIST || out->k == VK_TUPLE) &&
	    !out->u.seq->unk_reason && x->u.seq->n && out->u.seq->n == x->u.seq->n * (size_t)times->u.i)
		out->u.seq->stage_whole = x->u.seq->n * (size_t)w;
}

void stage_of_comp(const value_t *it, value_t *out)
{
	const struct vseq *src;

	if (!it || (it->k != VK_LIST && it->k != VK_TUPLE) || out->k != VK_LIST)
		return;
	src = it->u.seq;
	if (src->stage_whole && !src->unk_reason && !out->u.seq->unk_reason && src->n == out->u.seq->n)
		out->u.seq->stage_whole = src->stage_whole;
}

long long interp_stage_whole(const struct vinst *c)
{
	const value_t *w = c && c->mod == VM_CONTAINER && c->attrs ? vdict_gets(c->attrs, STAGE_WHOLE_ATTR) : NULL;

	return w && w->k == VK_INT && w->u.i > 0 ? w->u.i : 0;
}
