/* catalog_glue.h - what the interpreter and the module tree ask of the
 * torch.nn catalogue (catalog.h), in their own terms (values.h). */
#ifndef ECG_CATALOG_GLUE_H
#define ECG_CATALOG_GLUE_H

#include <stddef.h>

#include "ecg/values.h"

struct catalog;

enum cg_kind { CG_UNKNOWN = 0, CG_LAYER, CG_CONTAINER };

/* The kind of a torch.nn class by its canonical dotted name.  A torch.nn
 * class the catalogue does not know is a layer. */
enum cg_kind cg_kind_of(const struct catalog *cat, const char *dotted);

/* The constructor parameter that positional argument `pos` binds to, or
 * NULL (unknown class, or too many arguments).  Borrowed. */
const char *cg_param_at(const struct catalog *cat, const char *dotted, size_t pos);

/* The ops a layer's forward issues, by canonical name, in order, given its
 * constructor arguments and whether it runs in training mode (1, 0, -1
 * unknown: steps that depend on it are kept) and, when call_known, what
 * its call passed (fargs, fkw; a forward parameter not passed takes its
 * default).  Meta reads are left out.
 * Writes up to `max` borrowed names into ops[] and returns how many. */
size_t cg_ops(const struct catalog *cat, const struct vinst *m, int training, value_t *const *fargs,
              size_t nfargs, const struct vdict *fkw, int call_known, const char **ops, size_t max);

/* The parameter count of a layer, or -1 when an argument it needs is not
 * known. */
long long cg_param_count(const struct catalog *cat, const struct vinst *m);

/* The shape of a layer's (first) output for the call fargs/fkw, from the
 * catalogue's shape rule and the shape of the input it reads.  0 and *out
 * filled; 1 when not known (no rule, an input or argument not known); -1
 * when the rule does not apply to that input (the call would raise). */
int cg_out_shape(const struct catalog *cat, const struct vinst *m, int training, value_t *const *fargs,
                 size_t nfargs, const struct vdict *fkw, struct vshape *out);

#endif
