/* interp/hostdata.c - what host data gives is host data
 *
 * A value not known whose dev is DEV_HOST is known to live on the host
 * (a numpy array x.cpu().numpy() made, the Python numbers x.tolist()
 * read, an optimizer's param_groups, a module's state built on the host).
 * What Python makes of such values without a tensor lives there too:
 *   hostdata_keep(from, to)   an attribute or method of host data, and
 *                             what calling it returns when it is given no
 *                             tensor (arr.tolist(), d.keys()): to marked
 *                             host data when from is;
 *   hostdata_args(...)        whether a call's arguments hold no tensor;
 *   hostdata_binop(l, r, pv)  arithmetic of host data with host data or
 *                             Python numbers (sum(v) / len(v)): host data;
 *   hostdata_extend(in, s, x) a list extended with host data whose items
 *                             are not known: a stand-in item of host data
 *                             (a list whose length is not known: its
 *                             items stand for every item), when every
 *                             item it held is host data or a number;
 *   hostdata_sum(xs, r)       sum() of host data, or of such a list:
 *                             host data.
 * torch.save of such values copies nothing off a device (torch.c
 * host_only).  Only values not known are marked; tensors keep their own
 * dev.  Nothing is allocated; nothing here fails.
 */
#include "config.h"

#include "internal.h"

static int is_host_data(const value_t *v)
{
	return v && v->k == VK_UNKNOWN && !v->alts && v->dev == DEV_HOST;
}

void hostdata_keep(const value_t *from, value_t *to)
{
	if (is_host_data(from) && to && to->k == VK_UNKNOWN && !to->alts)
		to->dev = DEV_HOST;
}

int hostdata_args(value_t **args, size_t nargs, const struct vdict *kw)
{
	size_t i;

	for (i = 0; i < nargs; i++)
		if (is_tensorish(args[i]))
			return 0;
	for (i = 0; kw && i < kw->n; i++)
		if (is_tensorish(kw->vals[i]))
			return 0;
	return 1;
}

/* host data, or a Python number (known or its facts say so) */
static int host_operand(const value_t *v)
{
	return is_host_data(v) || (fact_number_or_str(v) && v->k != VK_STR && !(v->k == VK_UNKNOWN && v->str_prefix));
}

void hostdata_binop(const value_t *l, const value_t *r, value_t *pv)
{
	if ((is_host_data(l) || is_host_data(r)) && host_operand(l) && host_operand(r) && pv &&
	    pv->k == VK_UNKNOWN && !pv->alts)
		pv->dev = DEV_HOST;
}

/* every item of s is host data or a Python number */
static int host_items(const struct vseq *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!host_operand(s->items[i]))
			return 0;
	return 1;
}

void hostdata_extend(struct interp *in, struct vseq *s, const value_t *x)
{
	value_t *item;

	if (!is_host_data(x) || s->prefix || !host_items(s))
		return;
	item = v_unknown(in->a, NULL, "an item of host data");
	item->dev = DEV_HOST;
	vseq_push(in->a, s, item);
}

void hostdata_sum(const value_t *xs, value_t *r)
{
	if (xs && (xs->k == VK_LIST || xs->k == VK_TUPLE) && xs->u.seq->unk_reason && !xs->u.seq->prefix &&
	    xs->u.seq->n && host_items(xs->u.seq) && r && r->k == VK_UNKNOWN && !r->alts) {
		r->dev = DEV_HOST;
		return;
	}
	hostdata_keep(xs, r);
}
