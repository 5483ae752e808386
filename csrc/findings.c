/* findings.c - see include/ecg/findings.h.  Base layer: cJSON only. */
#include "config.h"

#include <cjson/cJSON.h>

#include "ecg/findings.h"

void records_add_parse_error(cJSON *list, const char *file, long line, long col, const char *message)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "file", file);
	if (line > 0)
		cJSON_AddNumberToObject(e, "line", (double)line);
	else
		cJSON_AddNullToObject(e, "line");
	if (col > 0)
		cJSON_AddNumberToObject(e, "col", (double)col);
	else
		cJSON_AddNullToObject(e, "col");
	cJSON_AddStringToObject(e, "message", message);
	cJSON_AddItemToArray(list, e);
}

void records_add_unresolved(cJSON *list, const char *anchor, const char *what, const char *reason)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "anchor", anchor);
	cJSON_AddStringToObject(e, "what", what);
	cJSON_AddStringToObject(e, "reason", reason);
	cJSON_AddItemToArray(list, e);
}
