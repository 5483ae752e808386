/*
 * onedev.c -- a wrapper over one device moves the module there.
 *
 *     os.environ['CUDA_VISIBLE_DEVICES'] = '0'
 *     model = nn.DataParallel(model)      # the copy to cuda:0 is here
 *     model.to(device)                    # ... so this one moves nothing
 *
 * torch.nn.DataParallel's __init__ (torch/nn/parallel/data_parallel.py),
 * on a machine with CUDA: device_ids None means every visible device,
 * and when the list has one entry `self.module.to(self.src_device_obj)`
 * moves the module to it.  With more than one the module is left where
 * it is (its forward then wants it on device_ids[0]); on a machine
 * without CUDA, DataParallel keeps the module and no device at all.
 *
 * catalog one_device_wrappers names such wrappers with 'KEY@POS' of their
 * device list.  The count is that list's length when it is given (a list
 * or tuple of known length), else torch.cuda.device_count() as the job's
 * environment makes it known (CUDA_VISIBLE_DEVICES, the job's own
 * os.environ writes included: torch_device_count).  A count not known,
 * or not one, states nothing.  The move is no need for a GPU (a machine
 * without one skips it): module_moved_to_machine_gpu leaves the job's
 * device choice (devchoice.c) to condition the row.
 *
 * Never fails; what it makes lives in the interpreter's arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

const char *wrapper_device_key(struct interp *in, const char *spec)
{
	const char *at = strchr(spec, '@');

	return at ? afmt(in, "%.*s", (int)(at - spec), spec) : spec;
}

value_t *wrapper_device_list(const char *spec, value_t **args, size_t nargs, const struct vdict *kw)
{
	const char *at = strchr(spec, '@');
	long pos = at ? strtol(at + 1, NULL, 10) : -1;
	size_t klen = at ? (size_t)(at - spec) : strlen(spec);
	size_t i;

	if (pos > 0 && (size_t)pos < nargs)
		return args[pos];
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR && kw->keys[i]->u.str.len == klen &&
		    !strncmp(kw->keys[i]->u.str.s, spec, klen))
			return kw->vals[i];
	return NULL;
}

/* How many devices the list names: its length when known, the visible
 * devices' count for None; -1 when not known. */
static long long device_list_len(struct frame *f, const value_t *ids, const struct ast_hdr *site)
{
	value_t *n;

	if (ids && (ids->k == VK_LIST || ids->k == VK_TUPLE))
		return ids->u.seq->unk_reason ? -1 : (long long)ids->u.seq->n;
	if (ids && ids->k != VK_NONE)
		return -1;
	n = torch_device_count(f, site);
	return n && n->k == VK_INT ? n->u.i : -1;
}

void onedev_wrap(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site)
{
	const char *spec = catalog_fact(f->in->cat, CATALOG_F_ONE_DEVICE_WRAPPERS, d);

	if (!spec || f->mode == M_FWD || nargs < 1 || args[0]->k != VK_INST)
		return;
	if (device_list_len(f, wrapper_device_list(spec, args, nargs, kw), site) != 1)
		return;
	module_moved_to_machine_gpu(f, args[0], d, site);
}
