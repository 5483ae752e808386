/* interp/native.c - tables of natives, looked up by name
 *
 * What the interpreter emulates in C -- builtins, the methods of builtin
 * types, Tensor methods, dotted-name functions of the standard library --
 * is held in tables of rows whose first member is the name: {name,
 * function, flags}, one small function per native (or per small family),
 * in the manner of CPython's builtin_methods[] and jq's function_list[].
 * Each table is sorted by name (strcmp order, no name twice) and read
 * with ntab_find(), a binary search.  Each file that owns a table lists
 * it in an exported struct ntab; interp_natives_check() goes over all of
 * them (tests/unit/test_interp checks it), so that a row added out of
 * order fails a test instead of a lookup.
 */
#include "config.h"

#include "internal.h"

static int cmp_name(const void *key, const void *row)
{
	return strcmp((const char *)key, *(const char *const *)row);
}

const void *ntab_find(const void *tab, size_t n, size_t size, const char *name)
{
	return name ? bsearch(name, tab, n, size, cmp_name) : NULL;
}

int ntab_has(const char *const *names, size_t n, const char *name)
{
	return ntab_find(names, n, sizeof *names, name) != NULL;
}

static const struct ntab *const all_tables[] = {
	&tensor_ntab,
	&stdlib_ntab, &math_ntab,
	&module_methods_ntab, &ext_methods_ntab, &emulated_exts_ntab,
};

int interp_natives_check(const char **bad)
{
	size_t t, i;

	for (t = 0; t < sizeof all_tables / sizeof all_tables[0]; t++) {
		const struct ntab *x = all_tables[t];

		for (i = 1; i < x->n; i++) {
			const char *a = *(const char *const *)((const char *)x->v + (i - 1) * x->size);
			const char *b = *(const char *const *)((const char *)x->v + i * x->size);

			if (strcmp(a, b) >= 0) {
				if (bad)
					*bad = x->what;
				return -1;
			}
		}
	}
	return 0;
}
