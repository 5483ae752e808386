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

/* The tables of struct native: builtins and methods by id. */
static const struct ntab *const native_tables[] = {
	&builtin_natives_ntab, &hidden_natives_ntab,
	&type_methods_ntab[0], &type_methods_ntab[1], &type_methods_ntab[2],
	&argp_methods_ntab, &module_methods_ntab, &ext_methods_ntab, &yacs_methods_ntab, &fact_str_methods_ntab,
	&objreg_methods_ntab,
};

/* The other tables: dotted names and methods of what the analysis
 * emulates, and sets of names. */
static const struct ntab *const other_tables[] = {
	&tensor_ntab,
	&stdlib_ntab, &math_ntab, &numpy_scalar_ntab, &omegaconf_ntab,
	&emulated_exts_ntab, &abc_types_ntab, &torch_bases_ntab, &torch_calls_ntab,
	&yaml_words_ntab, &fw_setups_ntab, &fw_dispatchers_ntab, &fw_backwards_ntab,
	&job_spawners_ntab, &job_writers_ntab, &job_writer_methods_ntab,
	&method_decos_ntab, &implicit_classmethods_ntab, &deco_hooks_ntab,
	&absl_defs_ntab, &absl_truths_ntab,
};

void natives_register(struct interp *in)
{
	size_t t, i;

	for (t = 0; t < NTAB_LEN(native_tables); t++) {
		const struct native *v = native_tables[t]->v;

		for (i = 0; i < native_tables[t]->n; i++)
			in->bi_fn[v[i].id] = v[i].fn;
	}
}

static int sorted(const struct ntab *x)
{
	size_t i;

	for (i = 1; i < x->n; i++) {
		const char *a = *(const char *const *)((const char *)x->v + (i - 1) * x->size);
		const char *b = *(const char *const *)((const char *)x->v + i * x->size);

		if (strcmp(a, b) >= 0)
			return 0;
	}
	return 1;
}

int interp_natives_check(const char **bad)
{
	native_fn *by_id[BI_COUNT] = { NULL };
	size_t t, i;

	for (t = 0; t < NTAB_LEN(other_tables); t++)
		if (!sorted(other_tables[t]))
			goto bad_other;
	for (t = 0; t < NTAB_LEN(native_tables); t++) {
		const struct native *v = native_tables[t]->v;

		if (!sorted(native_tables[t]))
			goto bad_native;
		/* an id is one function, whichever name binds it */
		for (i = 0; i < native_tables[t]->n; i++) {
			if (v[i].id <= BI_NONE || v[i].id >= BI_COUNT || (by_id[v[i].id] && by_id[v[i].id] != v[i].fn))
				goto bad_native;
			by_id[v[i].id] = v[i].fn;
		}
	}
	return 0;
bad_other:
	if (bad)
		*bad = other_tables[t]->what;
	return -1;
bad_native:
	if (bad)
		*bad = native_tables[t]->what;
	return -1;
}
