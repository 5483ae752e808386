/* findings.h - the two lists of what a run could not read (base layer).
 *
 * parse_errors and unresolved are filled wherever the problem is met: the
 * loader (a file that does not parse, a module not found), the analysis (a
 * model it cannot choose), the fuzz target; records.c only places the
 * lists in both records' headers.  So they sit below every layer that
 * appends to them.  (The records_ prefix names where the lists end up.)
 * Neither function fails; cJSON allocates through xmalloc (emit_init()).
 */
#ifndef ECG_FINDINGS_H
#define ECG_FINDINGS_H

#include <cjson/cJSON.h>

/* Append {"file","line","col","message"}; line/col 0 are written as null. */
void records_add_parse_error(cJSON *list, const char *file, long line, long col, const char *message);
/* Append {"anchor","what","reason"}. */
void records_add_unresolved(cJSON *list, const char *anchor, const char *what, const char *reason);

#endif
