/* catalog_glue.h - what the interpreter asks of the torch.nn catalogue.
 * Implemented in catalog_glue.c over catalog.h. */
#ifndef ECG_CATALOG_GLUE_H
#define ECG_CATALOG_GLUE_H

#include <stddef.h>

struct catalog;

enum cg_kind { CG_UNKNOWN = 0, CG_LAYER, CG_CONTAINER };

/* The kind of a torch.nn class by its canonical dotted name. */
enum cg_kind cg_kind_of(const struct catalog *cat, const char *dotted);

/* Constructor parameter names in order (borrowed); 0 if not known. */
size_t cg_params(const struct catalog *cat, const char *dotted, const char *const **names);

/* The ops a layer's forward issues (canonical names, borrowed). */
size_t cg_ops(const struct catalog *cat, const char *dotted, const char *const **ops);

#endif
