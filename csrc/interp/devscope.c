/* interp/devscope.c - `with torch.device(d):`, torch's default device for a block
 *
 * A torch.device is a context manager: inside the block, factories with
 * no device= (torch.arange, torch.zeros, nn.Linear's parameters) make
 * their tensors on d, and a repository module built there holds its
 * parameters and buffers on d (torchtune builds its model under
 * `with set_default_dtype(dtype), self._device:`).  devscope_enter()
 * sets the interpreter's default-device state for the block
 * (in->default_dev: the default moved; in->default_on_device: it is known
 * to be a GPU's -- d's type known and neither cpu nor meta;
 * in->default_meta: it is the meta device, and modules built there hold
 * no data -- vinst.on_meta, until a state is assigned or to_empty() gives
 * them storage: their move copies nothing, module.c) and returns
 * what it was; devscope_exit() puts it back when the block ends, as
 * torch's __exit__ does.  The saved state belongs to the caller (exec.c
 * exec_with, one per `with` statement).
 */
#include "config.h"

#include "internal.h"

int is_device_value(const value_t *v)
{
	return v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device");
}

void devscope_enter(struct frame *f, const value_t *cv, struct devscope *saved)
{
	struct interp *in = f->in;
	const value_t *t;

	saved->active = is_device_value(cv);
	if (!saved->active)
		return;
	saved->default_dev = in->default_dev;
	saved->default_on_device = in->default_on_device;
	saved->default_meta = in->default_meta;
	t = vdict_gets(cv->u.inst->attrs, "type");
	in->default_dev = 1;        /* factories in the block go to d */
	in->default_on_device = t && t->k == VK_STR && dev_is_host(cv) == 0 && strncmp(t->u.str.s, "meta", 4);
	in->default_meta = t && t->k == VK_STR && !strncmp(t->u.str.s, "meta", 4);
}

void devscope_exit(struct frame *f, const struct devscope *saved)
{
	if (!saved->active)
		return;
	f->in->default_dev = saved->default_dev;
	f->in->default_on_device = saved->default_on_device;
	f->in->default_meta = saved->default_meta;
}
