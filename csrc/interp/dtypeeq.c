/* interp/dtypeeq.c - two torch dtypes compared (==, !=, is, in a list)
 *
 * torch's dtypes are singletons: torch.half IS torch.float16, and two
 * dtypes are equal exactly when they are the same object.  A dtype named
 * by the job (an outside name of catalog dtypes / dtype_prefixes:
 * torch.float16, torch.long) is compared with another by its canonical
 * name (catalog dtype_aliases: torch.half -> torch.float16; a name not
 * listed is its own), so `dtype not in [torch.float32, None]` with
 * dtype=torch.float16 is decided.  torch.dtype.__eq__ answers False for
 * anything that is no dtype, so a named dtype against None or a Python
 * scalar is not equal.  A dtype read from a tensor (x.dtype, not known)
 * decides nothing here; one read from an array of another library whose
 * kind of elements is known (arrays.c: np.zeros(..., dtype=np.float32))
 * is not a dtype of another kind (np.int64) nor any of torch's.
 *
 * dtype_eq() returns 1 (equal), 0 (not), or -1 (not a case of this
 * file: the caller's other rules).  It allocates nothing.
 */
#include "config.h"

#include "internal.h"
#include "ecg/catalog.h"

/* the dtype's canonical name, or NULL when v is no dtype the job named */
static const char *dtype_canon(const struct catalog *cat, const value_t *v)
{
	const char *c;

	if (!v || v->k != VK_EXT || !value_is_dtype(cat, v))
		return NULL;
	c = catalog_fact(cat, CATALOG_F_DTYPE_ALIASES, v->u.ext);
	return c ? c : v->u.ext;
}

/* an array's .dtype whose kind of elements is known (arrays.c) against a
 * dtype the job named: another library's of another kind, or torch's, is
 * not equal (1 when so); one of the same kind is not decided (float32 or
 * float64) */
static int arr_dtype_differs(const struct catalog *cat, const value_t *arr, const value_t *named)
{
	int k;

	if (arr->k != VK_UNKNOWN || arr->reason != arr_dtype_reason || !arr->dt)
		return 0;
	if (named->k == VK_EXT && value_is_dtype(cat, named))
		return 1;                 /* torch.float32 == np.float32 is False */
	k = arr_dtype_kind(cat, named);
	return k && k != arr->dt;
}

int dtype_eq(const struct catalog *cat, const value_t *l, const value_t *r)
{
	const char *a, *b;
	const value_t *o;

	if (!l || !r)
		return -1;
	if (arr_dtype_differs(cat, l, r) || arr_dtype_differs(cat, r, l))
		return 0;
	a = dtype_canon(cat, l);
	b = dtype_canon(cat, r);

	if (a && b)
		return !strcmp(a, b);
	if (!a && !b)
		return -1;
	o = a ? r : l;
	/* a dtype against None, a str, a number or a bool: never equal */
	return o->k == VK_NONE || value_is_known_scalar(o) ? 0 : -1;
}
