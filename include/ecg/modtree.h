/* modtree.h - the computation graph's `modules` list, from the models the
 * job calls and what their forwards did (interp.h).
 *
 * Ids follow named_modules(); identical consecutive children of a
 * container collapse into one entry (`h.*`, `layer3.1:6`).  Entries are in
 * a pre-order walk in the order the root's forward runs them; modules never
 * called come last with order null.
 */
#ifndef ECG_MODTREE_H
#define ECG_MODTREE_H

#include <cjson/cJSON.h>

#include "ecg/interp.h"

struct mt_model {
	struct vinst *root;
	const char *name;             /* binding name (prefix when several) */
	const struct root_call *call; /* the call its forward is read from, or NULL */
};

/* Append the entries of these models to `modules` (a cJSON array), and to
 * `config` the configuration values their constructor arguments came from
 * ({"name","value","source","via"}, first use first).  Never fails (out of
 * memory is fatal). */
void modtree_emit(struct interp *in, const struct mt_model *models, size_t n, cJSON *modules,
                  cJSON *config);

/* Parameters of one instance of m with its submodules (what
 * sum(p.numel() for p in m.parameters()) gives), or -1 when any part is
 * not known (a third-party module, a parameter of unknown shape, a tied
 * weight).  Never fails. */
long long modtree_params(struct interp *in, const struct vinst *m);

#endif
