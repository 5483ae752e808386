/*
 * hostsure.c -- tensors on the host for sure: made there, worked on there.
 *
 * ecg places on the host a tensor it knows no better place for; such a
 * tensor's .device is not trusted (tensor.c: `x.device` is then "not
 * known to be on the device", and a tensor made at it is a copy to the
 * device for want of knowing better).  Augmentation code builds its
 * matrices on the CPU on purpose:
 *
 *     def sample_affine(p, size, height, width, device="cpu"):
 *         G = torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)
 *         ...
 *     G = torch.inverse(sample_affine(p, batch, height, width))
 *     cp = torch.tensor([...], device=G.device)        # on the CPU
 *
 * Such a tensor is marked value.host_sure (the bit a module's parameters
 * listed before any move carry, module.c): its .device is then the CPU
 * (tensor.c), a tensor made there is on the host, a read of it waits for
 * no device.
 *
 *   host_sure_factory() marks what a torch factory made (in job code and
 *     in a model's forward, where only an index reads the mark: eval.c
 *     index_host_array): given device= naming the host ('cpu',
 *     torch.device('cpu')), or given no device while the job never moved
 *     torch's default device;
 *   host_sure_op() marks the output of an op (op_io(): a binary operator,
 *     a comparison, an index, a Tensor method, a torch function) on the
 *     host whose inputs are at least one tensor and nothing that may be on
 *     a device: every tensor among them (inside lists and tuples too) host
 *     for sure, every other input Python data (numbers, sizes, strings,
 *     None, slices, a dtype, a host torch.device) -- a value not known, a module
 *     or another object may hold a device tensor, and then nothing is
 *     marked.  One made from a tensor that may be 0-d (may_scalar: an
 *     index of rank not known), its own shape not read, may be too;
 *   host_sure_device_index() states the read an index on the device
 *     makes of such a tensor (x[order], order from a device sort): torch
 *     brings the index to the indexed tensor's device, the host (ATen's
 *     make_info: indices .to(self.device()); a 0-d integer index is
 *     read with .item()), a blocking device-to-host read at the
 *     subscript.  Torch since pytorch#69607 refuses such an index
 *     (only dev_tensor[{cpu,dev}_tensor]): a run that passes the line
 *     is one whose torch read it.  Job code only (a forward's places
 *     are read less closely), a tensor index alone or as an item of a
 *     tuple index.
 *
 * Neither fails nor allocates (sev() records the event).
 */
#include "config.h"

#include <string.h>

#include "internal.h"

void host_sure_factory(struct frame *f, value_t *t, const value_t *device)
{
	if (!t || t->k != VK_TENSOR || t->dev != DEV_HOST)
		return;
	if (device ? dev_is_host(device) == 1 : !f->in->default_dev)
		t->host_sure = 1;
}

/* Is v an input that cannot be on a device (depth: of nested lists)?
 * *tensors counts the host-sure tensors met. */
static int host_input(const value_t *v, int depth, unsigned *tensors)
{
	size_t i;

	if (!v || depth > 4)
		return 0;
	switch (v->k) {
	case VK_TENSOR:
		if (v->dev != DEV_HOST || !v->host_sure)
			return 0;
		++*tensors;
		return 1;
	case VK_NONE: case VK_BOOL: case VK_INT: case VK_FLOAT: case VK_STR: case VK_SLICE: case VK_EXT:
		return 1;
	case VK_UNKNOWN:    /* a Python number not known (an .item()), a size (x.shape[0], x.shape) */
		return !v->alts && (v->plain || v->nonneg || v->reason == shape_dim_reason ||
		                    v->reason == size_unknown_reason);
	case VK_INST:
		return dev_is_host(v) == 1;
	case VK_TUPLE: case VK_LIST:
		if (v->u.seq->unk_reason)
			return 0;
		for (i = 0; i < v->u.seq->n; i++)
			if (!host_input(v->u.seq->items[i], depth + 1, tensors))
				return 0;
		return 1;
	default:
		return 0;
	}
}

void host_sure_op(struct frame *f, value_t *const *args, size_t nargs, const struct vdict *kw, value_t *ret)
{
	unsigned tensors = 0;
	size_t i;

	if (!ret || ret->k != VK_TENSOR || ret->dev != DEV_HOST || f->mode == M_FWD)
		return;
	for (i = 0; i < nargs; i++)
		if (!host_input(args[i], 0, &tensors))
			return;
	for (i = 0; kw && i < kw->n; i++)
		if (!host_input(kw->vals[i], 0, &tensors))
			return;
	if (!tensors)
		return;
	ret->host_sure = 1;
	/* of a tensor that may be 0-d, with no shape read: it may be too */
	for (i = 0; i < nargs && !ret->shape; i++)
		if (args[i]->k == VK_TENSOR && args[i]->may_scalar)
			ret->may_scalar = 1;
}

/* Is idx (alone, or an item of a tuple index) a tensor on the device? */
static int device_index(const value_t *idx, int depth)
{
	size_t i;

	if (!idx || depth > 1)
		return 0;
	if (idx->k == VK_TENSOR)
		return idx->dev == DEV_DEVICE;
	if (idx->k == VK_TUPLE && !idx->u.seq->unk_reason)
		for (i = 0; i < idx->u.seq->n; i++)
			if (device_index(idx->u.seq->items[i], depth + 1))
				return 1;
	return 0;
}

void host_sure_device_index(struct frame *f, const value_t *obj, const value_t *idx, const struct ast_hdr *site)
{
	if (f->mode == M_FWD || !obj || obj->k != VK_TENSOR || obj->dev != DEV_HOST || !obj->host_sure ||
	    !device_index(idx, 0))
		return;
	sev(f, SEV_SYNC, "indexing a tensor on the host with a device tensor (the index brought to the host)", site);
}
