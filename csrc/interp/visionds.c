/* interp/visionds.c - the sample of a torchvision dataset, from its transform
 *
 *     ds = datasets.ImageFolder(traindir, TwoCropsTransform(augmentation))
 *     loader = DataLoader(ds, batch_size=64, pin_memory=True, ...)
 *     for i, (images, _) in enumerate(loader):
 *         images[0] = images[0].cuda(non_blocking=True)    # a list's item
 *
 * torchvision's vision datasets (catalog vision_datasets: ImageFolder,
 * CIFAR10, MNIST, ...) are outside the repository, but what their
 * __getitem__ returns is fixed: (transform(picture), target), the picture
 * a PIL image the dataset loads, the target the class index (or
 * target_transform's result).  The transform is the job's: a Compose of
 * torchvision transforms (interp/transforms.c: a host tensor after
 * ToTensor) or an object of the repository's own (two crops of one
 * picture returned as a list).  So the sample's structure, and through
 * torch's default collate the batch's (collate.c), is read from the code:
 * a batch of two-crop samples is [crops1, crops2] and targets, a list the
 * step stores the moved crops back into.
 *
 * visionds_init() keeps, on the dataset object, the transform its
 * constructor was given (the catalog's 'transform@POS': that keyword,
 * else that positional argument; None or absent is kept as None).
 * visionds_sample() reads the transform on one picture not known, on the
 * side (side_call: it runs in the loader's workers, or per sample; its
 * events are not the step's and are not stated -- as before, when it was
 * not read), and returns the pair; the target is a value not known (a
 * loose tensor once collated).  No transform (the picture itself reaches
 * the collate, which refuses a PIL image), or a dataset of another class:
 * NULL, and the caller keeps a loose tensor for the batch.
 *
 * Arena memory only; nothing here fails.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define TF_KEY "__ecg_vision_transform__"

void visionds_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                   struct vdict *kw)
{
	struct interp *in = f->in;
	const char *spec;
	value_t *tf;

	if (f->mode == M_FWD || !(spec = catalog_fact(in->cat, CATALOG_F_VISION_DATASETS, d)))
		return;
	tf = spec_arg(spec, strlen(spec), NULL, args, nargs, kw);
	if (!o->attrs)
		o->attrs = vdict_new(in->a);
	vdict_sets(in->a, o->attrs, TF_KEY, tf ? tf : v_none(in->a));
}

value_t *visionds_sample(struct frame *f, const value_t *ds, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *tf, *pic, *img, *target, *r;

	if (!ds || ds->k != VK_INST || !ds->u.inst->attrs || !(tf = vdict_gets(ds->u.inst->attrs, TF_KEY)) ||
	    tf->k == VK_NONE)
		return NULL;
	pic = v_unknown(in->a, "picture", "a picture the dataset loads (a PIL image)");
	img = side_call(f, tf, pic, site);
	if (!img)
		return NULL;
	target = v_unknown(in->a, "target", "the sample's target (its class index, or target_transform's)");
	r = v_seq(in->a, VK_TUPLE, 2);
	vseq_push(in->a, r->u.seq, img);
	vseq_push(in->a, r->u.seq, target);
	return r;
}
