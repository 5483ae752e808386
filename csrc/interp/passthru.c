/* interp/passthru.c - a library's call that hands back what it is given
 *
 * Some calls of other libraries change the objects they are handed in
 * place and return those same objects: apex's
 * `model, optimizer = amp.initialize(model, optimizer, opt_level="O1")`
 * patches the optimizer's step and torch's functions and returns the
 * model and the optimizer it was given (apex/amp/_initialize.py: models[0],
 * optimizers[0]; the model alone when no optimizer is given).  Read as an
 * unknown call, the job's model would be lost there, and with it every
 * call of it (the wrap after it, its forward in the step).
 *
 * The catalog (passthrough_calls) names such a call by its dotted name
 * and the parameters it returns, in order, as 'NAME@POS,NAME@POS': each
 * one given (by keyword NAME, or positionally at POS) and not None is
 * handed back; one alone as itself, more as a tuple of them.  A call
 * given none of them is not one of these (the caller goes on reading it
 * as it would have).
 *
 * passthru_call() owns nothing: the values returned are the caller's
 * arguments, the tuple is made in the interpreter's arena.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

#define PASSTHRU_MAX 8      /* parameters a fact may name */

value_t *passthru_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw)
{
	struct interp *in = f->in;
	const char *spec = catalog_fact(in->cat, CATALOG_F_PASSTHROUGH_CALLS, d), *p;
	value_t *got[PASSTHRU_MAX], *t;
	size_t n = 0, i;

	if (!spec)
		return NULL;
	for (p = spec; *p && n < PASSTHRU_MAX;) {
		const char *at = strchr(p, '@'), *end = strchr(p, ',');
		const value_t *v = NULL;
		char name[64];
		size_t len;

		if (!end)
			end = p + strlen(p);
		if (!at || at > end || (len = (size_t)(at - p)) >= sizeof name)
			break;     /* malformed: the catalog's own test says so */
		memcpy(name, p, len);
		name[len] = '\0';
		if (kw)
			v = vdict_gets(kw, name);
		if (!v) {
			long pos = strtol(at + 1, NULL, 10);

			if (pos >= 0 && (size_t)pos < nargs)
				v = args[pos];
		}
		if (v && v->k != VK_NONE)
			got[n++] = (value_t *)v;
		p = *end ? end + 1 : end;
	}
	if (n == 0)
		return NULL;
	if (n == 1)
		return got[0];
	t = v_seq(in->a, VK_TUPLE, n);
	for (i = 0; i < n; i++)
		vseq_push(in->a, t->u.seq, got[i]);
	return t;
}
