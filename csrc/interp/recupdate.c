/*
 * recupdate.c -- a record object's fields rewritten by its own method.
 *
 * An object of an outside record class (catalog record_classes) holds its
 * constructor's keywords as its fields (attr.c).  Some such classes have a
 * method that rewrites those fields from its argument; the catalog names
 * them (record_updaters: '<class>.<method>' -> how the argument is read):
 *
 *   "name_value_text"  tf.contrib.training.HParams.parse("a=1,b=true"):
 *                      comma-separated name=value pairs, each value read as
 *                      the type of the field's current value (bool: true /
 *                      false / 1 / 0 in either case; int; float; str as is)
 *   "fields_unknown"   any other rewrite the job's argument decides
 *
 * record_update_call() applies such a call to the object it is called on
 * (recv) and returns recv (HParams.parse returns self), or NULL for a call
 * that is none of these (call_ext goes on).  When the argument is not a
 * known text, or names a field the object does not have, or a value does
 * not read as its field's type (a list, None), every field of the object
 * becomes not known: a field kept at a value the job may have rewritten
 * would be a wrong fact.  Each write is noted in the attribute journal
 * (journal.c), so a call on one path of an undecided `if` leaves the
 * fields it changed not known after the `if`.
 *
 * Values in the interpreter's arena; never fails.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "config.h"
#include "internal.h"
#include "ecg/catalog.h"

/* every field of the record not known (why: the call's text) */
static void fields_unknown(struct interp *in, struct vdict *fields, const char *why)
{
	size_t i;

	for (i = 0; i < fields->n; i++) {
		value_t *k = fields->keys[i];

		if (k->k != VK_STR || !strncmp(k->u.str.s, "__ecg_", 6))
			continue;
		journal_note(in, fields, k->u.str.s);
		fields->vals[i] = v_unknown(in->a, k->u.str.s, why);
	}
}

/* text (len n) read as a value of old's type, or NULL */
static value_t *typed_value(struct interp *in, const value_t *old, const char *text, size_t n)
{
	const char *s = afmt(in, "%.*s", (int)n, text);
	char *end;
	long long i;
	double d;

	switch (old->k) {
	case VK_BOOL:
		if (!strcasecmp(s, "true") || !strcmp(s, "1"))
			return v_bool(in->a, 1);
		if (!strcasecmp(s, "false") || !strcmp(s, "0"))
			return v_bool(in->a, 0);
		return NULL;
	case VK_INT:
		i = strtoll(s, &end, 10);
		return *s && !*end ? v_int(in->a, i) : NULL;
	case VK_FLOAT:
		d = strtod(s, &end);
		return *s && !*end ? v_float(in->a, d) : NULL;
	case VK_STR:
		return v_str(in->a, s);
	default:
		return NULL;
	}
}

/* "a=1,b=true" applied to fields; 0 when a pair does not read (nothing
 * written then: the caller makes every field not known) */
static int apply_name_values(struct interp *in, struct vdict *fields, const char *text)
{
	struct { const char *k; size_t kn; value_t *v; } pairs[64];
	size_t np = 0, i;
	const char *p = text;

	while (*p) {
		const char *comma = strchr(p, ','), *eq;
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		value_t *old;

		if (np == sizeof pairs / sizeof pairs[0] || !(eq = memchr(p, '=', len)) || eq == p)
			return 0;
		pairs[np].k = p;
		pairs[np].kn = (size_t)(eq - p);
		while (pairs[np].kn && isspace((unsigned char)p[pairs[np].kn - 1]))
			pairs[np].kn--;
		if (!(old = vdict_gets(fields, afmt(in, "%.*s", (int)pairs[np].kn, p))) ||
		    !(pairs[np].v = typed_value(in, old, eq + 1, len - (size_t)(eq + 1 - p))))
			return 0;
		np++;
		p = comma ? comma + 1 : p + len;
	}
	for (i = 0; i < np; i++) {
		const char *k = afmt(in, "%.*s", (int)pairs[i].kn, pairs[i].k);

		journal_note(in, fields, k);
		vdict_sets(in->a, fields, k, pairs[i].v);
	}
	return 1;
}

value_t *record_update_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs)
{
	struct interp *in = f->in;
	struct vinst *m = recv && recv->k == VK_INST ? recv->u.inst : NULL;
	const char *how = catalog_fact(in->cat, CATALOG_F_RECORD_UPDATERS, d);
	const char *why = afmt(in, "rewritten by %s", short_ext(d));

	if (!how || !m || !m->args || !m->ext || !catalog_fact_match(in->cat, CATALOG_F_RECORD_CLASSES, canon_ext(in, m->ext)))
		return NULL;
	if (strcmp(how, "name_value_text") || nargs != 1 || args[0]->k != VK_STR ||
	    !apply_name_values(in, m->args, args[0]->u.str.s))
		fields_unknown(in, m->args, why);
	return (value_t *)recv;
}
