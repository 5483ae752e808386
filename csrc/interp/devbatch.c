/* interp/devbatch.c - iterators of other libraries that make each batch on
 * the device they were given
 *
 * Some libraries' iterators build every batch themselves, from Python data,
 * on a device named when the iterator is made: torchtext's legacy
 * `BucketIterator(dataset, batch_size=256, device=device)` yields Batch
 * objects whose fields (batch.src, batch.trg) Field.numericalize made with
 * torch.tensor(padded lists, device=device).  On a GPU that is a host-to-
 * device copy of pageable memory, blocking, at every iteration -- at the
 * loop that takes the batch -- and the fields are already there, so a later
 * batch.src.to(device) moves nothing.
 *
 * The catalog (device_batch_iterators) names such a class by its dotted
 * name and the argument naming the device, 'keyword:position' (position
 * -1 or absent: keyword only).  Only a device named as a string or a
 * torch.device is read: the host gives host fields, a GPU (or the job's
 * run-time choice of one) device fields and the copy; None, an int (a
 * legacy index whose meaning changed between versions) or a value not
 * known give fields whose device is not known, and no copy is stated.
 *
 * devbatch_init() marks the object (an outside class's instance, call.c)
 * a loader whose batches devbatch_batch() makes (torch.c loader_batch
 * hands them over); devbatch_attr() reads a field of such a batch made on
 * the host or the device (NULL for anything else: the caller goes on).  The
 * values are made in the interpreter's arena; nothing is owned here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

/* the loader's attribute holding the device its batches are made on */
#define DEVBATCH_DEVICE "__ecg_batch_device__"

/* a batch such an iterator gave, its fields on the device / the host /
 * where is not known */
#define DEVBATCH_DEVICE_REASON "a batch a library's iterator made on the device (read at run time)"
#define DEVBATCH_HOST_REASON "a batch a library's iterator made on the host (read at run time)"
#define DEVBATCH_UNKNOWN_REASON "a batch a library's iterator made where its device says (read at run time)"

/* attributes of such a batch that are not fields (torchtext's Batch:
 * batch_size, dataset, fields, input_fields, target_fields) */
static const char *const NOT_FIELDS[] = {
	"batch_size", "dataset", "fields", "input_fields", "target_fields", NULL
};

int devbatch_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                  struct vdict *kw)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_DEVICE_BATCH_ITERATORS, d);
	value_t *dv;

	if (!spec || f->mode == M_FWD)
		return 0;
	dv = colon_arg(spec, args, nargs, kw);
	vdict_sets(in->a, o->attrs, "__ecg_loader__", v_bool(in->a, 1));
	vdict_sets(in->a, o->attrs, DEVBATCH_DEVICE, dv ? dv : v_none(in->a));
	return 1;
}

/* where a device value puts the batches: DEV_HOST, DEV_DEVICE (a GPU
 * named, or a run-time choice of one), or DEV_UNKNOWN */
static int batch_place(struct interp *in, const value_t *dv)
{
	int host;

	if (!dv || dv->k == VK_NONE)
		return DEV_UNKNOWN;
	if (devchoice_cond(in, dv) || framework_device_cond(in, dv))
		return DEV_DEVICE;
	host = dev_is_host(dv);
	return host == 1 ? DEV_HOST : host == 0 ? DEV_DEVICE : DEV_UNKNOWN;
}

value_t *devbatch_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *dv = vdict_gets(dl->attrs, DEVBATCH_DEVICE);
	int place;
	value_t *r;

	if (!dv)
		return NULL;
	place = batch_place(in, dv);
	if (what)
		sev(f, SEV_LOADER_ITER, what, site);
	if (place == DEV_DEVICE) {
		struct sched_ev *e;

		in->gpu = 1;
		devchoice_place(f, dv);
		if (what && (e = sev(f, SEV_H2D, afmt(in, "%s (the iterator makes the batch on the device)", what), site))) {
			e->pinned = 0;
			e->non_blocking = 0;
		}
	}
	r = unknown_at(f, site, place == DEV_DEVICE ? DEVBATCH_DEVICE_REASON
	                        : place == DEV_HOST ? DEVBATCH_HOST_REASON : DEVBATCH_UNKNOWN_REASON);
	r->dev = (unsigned char)place;
	return r;
}

value_t *devbatch_attr(struct frame *f, const value_t *obj, const char *name)
{
	size_t i;
	int place;

	if (!obj || obj->k != VK_UNKNOWN || obj->alts || !obj->reason)
		return NULL;
	if (!strcmp(obj->reason, DEVBATCH_DEVICE_REASON))
		place = DEV_DEVICE;
	else if (!strcmp(obj->reason, DEVBATCH_HOST_REASON))
		place = DEV_HOST;
	else
		return NULL;      /* where not known: nothing said of its fields */
	for (i = 0; NOT_FIELDS[i]; i++)
		if (!strcmp(name, NOT_FIELDS[i]))
			return unknown_at(f, NULL, "an attribute of a library's batch that is no field");
	if (name[0] == '_')
		return NULL;
	return v_tensor_dev(f->in->a, place, 0);
}
