/* interp/intargs.c - a device tensor given where torch takes an int
 *
 * torch's argument parser takes a one-element integer tensor for an int
 * or a size: torch.zeros(*shape_t) with shape_t a tensor, F.one_hot(x,
 * num_classes=n) with n = labels.max() + 1.  It reads it through
 * __index__, on the host: a sync when the tensor is on the device.  A
 * one-element tensor given for a Scalar (torch.full's fill_value) is read
 * the same way, with .item().
 *
 * Which arguments are ints is data: catalog/torch_facts.json
 * int_arguments maps a callee's canonical name to "sizes" (every
 * positional argument, and the items of one tuple or list given alone:
 * a factory's sizes) or to space-separated "keyword:position" words.  An
 * argument counts when it is a tensor on the device, a tuple or list
 * holding one, or the items of a device tensor spliced with * (eval.c
 * marks that unknown as on the device).  A tensor whose place is not
 * known reads nothing here (never guessed).
 *
 * The other way round, an int argument NOT given can be read from the
 * data: F.one_hot(x) without num_classes (its default -1) sizes its
 * output by x.max() + 1, read with .item().  data_sized_defaults maps a
 * callee to the "keyword:position=DEFAULT" word of that argument; when it
 * is absent or the int DEFAULT and the first argument is a tensor on the
 * device, that is a sync.  Given any other value (an int, or a value not
 * known) nothing is stated.
 *
 * intargs_reads() states at most one sync per call; it allocates only in
 * the interpreter's arena (the event's text).
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* Is v (or an item of v, a tuple or list) on the device? */
static int on_device(const value_t *v)
{
	size_t i;

	if (!v)
		return 0;
	if (v->k == VK_TENSOR || v->k == VK_UNKNOWN)
		return v->dev == DEV_DEVICE;
	if ((v->k == VK_TUPLE || v->k == VK_LIST) && v->u.seq)
		for (i = 0; i < v->u.seq->n; i++)
			if (v->u.seq->items[i] && (v->u.seq->items[i]->k == VK_TENSOR || v->u.seq->items[i]->k == VK_UNKNOWN) &&
			    v->u.seq->items[i]->dev == DEV_DEVICE)
				return 1;
	return 0;
}

/* The argument one "keyword:position" word of n bytes names, or NULL. */
static const value_t *word_arg(const char *w, size_t n, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const char *colon = memchr(w, ':', n);
	size_t klen = colon ? (size_t)(colon - w) : n;
	long pos = colon ? strtol(colon + 1, NULL, 10) : -1;
	size_t i;

	if (pos >= 0 && (size_t)pos < nargs)
		return args[pos];
	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR && kw->keys[i]->u.str.len == klen && !memcmp(kw->keys[i]->u.str.s, w, klen))
			return kw->vals[i];
	return NULL;
}

/* Is the int argument of the data_sized_defaults word w ("keyword:position=
 * DEFAULT") left to its default: not given, or given as DEFAULT? */
static int left_default(const char *w, value_t *const *args, size_t nargs, const struct vdict *kw)
{
	const char *eq = strchr(w, '=');
	const value_t *v = word_arg(w, eq ? (size_t)(eq - w) : strlen(w), args, nargs, kw);

	if (!v)
		return 1;
	return eq && v->k == VK_INT && v->u.i == strtoll(eq + 1, NULL, 10);
}

void intargs_reads(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site)
{
	const char *spec = catalog_fact(f->in->cat, CATALOG_F_INT_ARGUMENTS, d), *p;
	const char *dflt = catalog_fact(f->in->cat, CATALOG_F_DATA_SIZED_DEFAULTS, d);
	size_t i, n;

	if (dflt && nargs >= 1 && args[0] && args[0]->k == VK_TENSOR && args[0]->dev == DEV_DEVICE &&
	    left_default(dflt, args, nargs, kw)) {
		(void)sev(f, SEV_SYNC, afmt(f->in, "%s (the size it is not given read from the data on the host)", d),
		          site);
		return;
	}
	if (!spec)
		return;
	if (!strcmp(spec, "sizes")) {
		for (i = 0; i < nargs; i++)
			if (on_device(args[i]))
				break;
		if (i == nargs && !on_device(kw ? vdict_gets(kw, "size") : NULL))
			return;
	} else {
		for (p = spec; *p; p += n, p += strspn(p, " ")) {
			n = strcspn(p, " ");
			if (n && on_device(word_arg(p, n, args, nargs, kw)))
				break;
		}
		if (!*p)
			return;
	}
	(void)sev(f, SEV_SYNC, afmt(f->in, "a device tensor as an int or Scalar argument of %s (read on the host)", d),
	          site);
}
