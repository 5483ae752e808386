/* interp/shellmod.c - a module that holds nothing of its own but modules
 *
 *     class Solver(nn.Module):
 *         def __init__(self, args):
 *             super().__init__()
 *             self.nets = build_model(args)        # each nn.DataParallel(...)
 *             for name, module in self.nets.items():
 *                 setattr(self, name, module)      # children of Solver
 *             self.to(self.device)                 # moves nothing
 *
 * nn.Module.to() moves a module's own parameters and buffers and those of
 * its submodules (torch/nn/modules/module.py _apply: children first, then
 * self._parameters and self._buffers).  A repository nn.Module subclass
 * whose __dict__ holds no parameter and no buffer has nothing of its own
 * to move: when every submodule is on the device already (moved one by
 * one, or by the wrapper that wrapped it: onedev.c), the module is there
 * too, and its .to(device) copies nothing.
 *
 * shell_module() says whether m is such a module, surely: a repository
 * class deriving from torch.nn.Module alone (no outside layer class that
 * registers tensors of its own), built by the job (its __init__ read), at
 * least one submodule and every submodule known (no setattr under a name
 * not known), and no attribute a parameter, a buffer or a value not known
 * (which may be one).  Plain tensors in its __dict__ are no parameter nor
 * buffer: .to() leaves them.  0 when not sure.  Reads only; owns nothing.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/* One attribute of the module's __dict__ that .to() could move, or that
 * may be one: a parameter, a value not known.  ecg's own bookkeeping
 * (__ecg_*) and the training flag are no tensor whatever they hold. */
static int may_own_tensor(const value_t *key, const value_t *v)
{
	if (key && key->k == VK_STR && (!strncmp(key->u.str.s, "__ecg_", 6) || !strcmp(key->u.str.s, "training")))
		return 0;
	return !v || v->k == VK_UNKNOWN || (v->k == VK_TENSOR && v->is_param);
}

int shell_module(struct interp *in, const struct vinst *m)
{
	const value_t *bufs;
	size_t i;

	if (!m || m->mod != VM_REPO || !m->cls || !m->constructed_at || !m->nchildren || !m->attrs ||
	    m->attrs->anyname || !class_ext_bases_only(in, m->cls, "torch.nn.Module") ||
	    vdict_gets(m->attrs, "__ecg_children_unknown__"))
		return 0;
	bufs = vdict_gets(m->attrs, "__ecg_buffers__");
	if (bufs && (bufs->k != VK_LIST || bufs->u.seq->n))
		return 0;
	for (i = 0; i < m->attrs->n; i++)
		if (may_own_tensor(m->attrs->keys[i], m->attrs->vals[i]))
			return 0;
	return 1;
}
