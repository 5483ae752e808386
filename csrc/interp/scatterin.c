/* interp/scatterin.c - host inputs a single-process wrapper copies to its devices
 *
 * `net = nn.DataParallel(net, device_ids=[0])` and then `net(x)` or
 * `net.forward(x)`: DataParallel's forward scatters its tensor inputs over
 * device_ids before it runs the module (torch.cuda.comm.scatter: each
 * chunk copied with non_blocking=True on a side stream the current stream
 * waits for), also with one device.  So a host tensor given to the value
 * the wrapper returned is a host-to-device copy at the call, non-blocking,
 * pinned as the tensor is.  The catalogue (wrapper_input_scatters) names
 * those wrappers and the argument naming their devices, 'KEY@POS' (given
 * by keyword or by position: torch.c keeps it under the keyword);
 * the copy is stated when that list is not empty (empty: the module called
 * directly), or when it is not given (None) and the job's environment pins
 * how many devices are visible, one or more (every visible GPU; none: the
 * module called directly; a count not known: nothing stated), and only for
 * a call of the wrapper's value (value_t via_scatter), not of the module
 * bound before the wrap.
 *
 * scatter_input_copies() owns nothing; its event is the interpreter's
 * (sev); it never fails.
 */
#include "config.h"

#include "ecg/catalog.h"
#include "internal.h"

void scatter_input_copies(struct frame *f, const struct vinst *m, value_t **args, size_t nargs,
                          const struct vdict *kw, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *ids = NULL, *host = NULL;
	const char *key = NULL;
	struct sched_ev *e;
	size_t i, k;

	if (f->mode == M_FWD)
		return;
	/* the outermost such wrap: its forward runs first */
	for (k = m->nwrapped; k-- > 0 && !key;)
		if ((key = catalog_fact(in->cat, CATALOG_F_WRAPPER_INPUT_SCATTERS, m->wrapped_by[k]))) {
			key = wrapper_device_key(in, key);
			ids = m->wrap_kw && m->wrap_kw[k] ? vdict_gets(m->wrap_kw[k], key) : NULL;
		}
	if (key && (!ids || ids->k == VK_NONE)) {
		/* device_ids not given: every visible device -- a scatter when
		 * the job's environment pins one or more (none: the module is
		 * called directly); a count not known states nothing */
		value_t *n = torch_device_count(f, site);

		if (!n || n->k != VK_INT || n->u.i < 1)
			return;
	} else if (!ids || (ids->k != VK_LIST && ids->k != VK_TUPLE) || !ids->u.seq || !ids->u.seq->n) {
		return;
	}
	for (i = 0; i < nargs + (kw ? kw->n : 0) && !host; i++)
		host = host_tensor_in(i < nargs ? args[i] : kw->vals[i - nargs], 0);
	if (!host)
		return;
	if ((e = sev(f, SEV_H2D, afmt(in, "%s (the wrapper scatters its host inputs to %s)", text_of(f, site), key),
	             site))) {
		e->pinned = pin_state(host->pinned);
		e->non_blocking = 1;
	}
}
