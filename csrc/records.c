/* records.c - see include/ecg/records.h
 *
 * Key order is part of the contract: the common header first, in the order
 * the contract lists it, then the record's own sections.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/util.h"

static cJSON *records_dup(const cJSON *list)
{
	/* cJSON allocates through xmalloc (emit_init), so this cannot fail. */
	return list ? cJSON_Duplicate(list, 1) : cJSON_CreateArray();
}

static cJSON *records_header(const char *schema, const records_header_t *h)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *tool, *entry, *jt;

	cJSON_AddStringToObject(doc, "schema", schema);
	tool = cJSON_AddObjectToObject(doc, "tool");
	cJSON_AddStringToObject(tool, "name", "ecg");
	cJSON_AddStringToObject(tool, "version", PACKAGE_VERSION);
	if (h->commit && *h->commit) {
		cJSON_AddStringToObject(doc, "commit", h->commit);
		cJSON_AddBoolToObject(doc, "dirty", h->dirty);
	} else {
		/* a directory outside any git repository: no commit to read
		 * at or to differ from; the files' blobs say what was read */
		cJSON_AddNullToObject(doc, "commit");
		cJSON_AddNullToObject(doc, "dirty");
	}
	cJSON_AddStringToObject(doc, "python", h->python);
	if (h->entry_file) {
		entry = cJSON_AddObjectToObject(doc, "entrypoint");
		cJSON_AddStringToObject(entry, "file", h->entry_file);
		if (h->entry_anchor)
			cJSON_AddStringToObject(entry, "anchor", h->entry_anchor);
		else
			cJSON_AddNullToObject(entry, "anchor");
		if (h->step_anchor)
			cJSON_AddStringToObject(entry, "step", h->step_anchor);
		else
			cJSON_AddNullToObject(entry, "step");
	} else {
		cJSON_AddNullToObject(doc, "entrypoint");
	}

	jt = cJSON_AddObjectToObject(doc, "job_type");
	if (h->job_type)
		cJSON_AddStringToObject(jt, "value", h->job_type);
	else
		cJSON_AddNullToObject(jt, "value");
	cJSON_AddItemToObject(jt, "evidence", records_dup(h->job_evidence));
	if (!h->job_type && h->job_type_reason)
		cJSON_AddStringToObject(jt, "reason", h->job_type_reason);
	cJSON_AddItemToObject(doc, "config", records_dup(h->config));
	cJSON_AddItemToObject(doc, "files", records_dup(h->files));
	cJSON_AddItemToObject(doc, "parse_errors", records_dup(h->parse_errors));
	cJSON_AddItemToObject(doc, "unresolved", records_dup(h->unresolved));
	return doc;
}

cJSON *records_graph_new(const records_header_t *h)
{
	cJSON *doc = records_header(RECORDS_GRAPH_SCHEMA, h);

	cJSON_AddArrayToObject(doc, "modules");
	/* fields of ecg's own, after the contract's */
	if (h->incomplete)
		cJSON_AddItemToObject(doc, "incomplete", cJSON_Duplicate(h->incomplete, 1));
	if (h->invocation)
		cJSON_AddItemToObject(doc, "invocation", cJSON_Duplicate(h->invocation, 1));
	if (h->environment)
		cJSON_AddItemToObject(doc, "environment", cJSON_Duplicate(h->environment, 1));
	return doc;
}

cJSON *records_schedule_new(const records_header_t *h)
{
	cJSON *doc = records_header(RECORDS_SCHEDULE_SCHEMA, h);
	cJSON *compute;

	cJSON_AddArrayToObject(doc, "phases");
	cJSON_AddArrayToObject(doc, "data_path");
	cJSON_AddArrayToObject(doc, "host_device");
	cJSON_AddArrayToObject(doc, "device_device");
	compute = cJSON_AddObjectToObject(doc, "compute");
	cJSON_AddNullToObject(compute, "forward");
	cJSON_AddNullToObject(compute, "backward");
	cJSON_AddArrayToObject(compute, "activation_checkpointing");
	cJSON_AddNullToObject(compute, "grad_accumulation");
	cJSON_AddNullToObject(compute, "optimizer_step");
	cJSON_AddNullToObject(compute, "autocast");
	cJSON_AddArrayToObject(compute, "compile_regions");
	cJSON_AddArrayToObject(doc, "overlap");
	if (h->incomplete)
		cJSON_AddItemToObject(doc, "incomplete", cJSON_Duplicate(h->incomplete, 1));
	if (h->invocation)
		cJSON_AddItemToObject(doc, "invocation", cJSON_Duplicate(h->invocation, 1));
	if (h->environment)
		cJSON_AddItemToObject(doc, "environment", cJSON_Duplicate(h->environment, 1));
	return doc;
}

void records_assemble(const records_header_t *h, cJSON *modules, cJSON *sched_parts, cJSON **graph,
                      cJSON **sched)
{
	static const char *const sections[] = { "phases", "data_path", "host_device", "device_device",
	                                        "compute", "overlap", NULL };
	size_t i;

	*graph = records_graph_new(h);
	*sched = records_schedule_new(h);
	if (modules)
		cJSON_ReplaceItemInObjectCaseSensitive(*graph, "modules", modules);
	if (sched_parts) {
		cJSON *par = cJSON_DetachItemFromObjectCaseSensitive(sched_parts, "parallel");

		for (i = 0; sections[i]; i++)
			cJSON_ReplaceItemInObjectCaseSensitive(*sched, sections[i],
			        cJSON_DetachItemFromObjectCaseSensitive(sched_parts, sections[i]));
		/* the parallel layout: a header key of both files (contract,
		 * "Additions for real jobs") */
		if (par) {
			cJSON_AddItemToObject(*graph, "parallel", cJSON_Duplicate(par, 1));
			cJSON_AddItemToObject(*sched, "parallel", par);
		}
	}
}

cJSON *records_read(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *fp = fopen(path, "rb");
	buf_t b;
	char chunk[65536];
	size_t n;
	cJSON *j;

	if (!fp) {
		err_set(ECG_EXIT_INPUT, "no records in '%s': cannot open %s (run ecg extract first)", dir, path);
		free(path);
		return NULL;
	}
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	j = cJSON_ParseWithLength(b.buf ? b.buf : "", b.len);
	buf_free(&b);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		err_set(ECG_EXIT_INPUT, "%s is not a record (not a JSON object)", path);
		j = NULL;
	}
	free(path);
	return j;
}

const char *records_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int records_num(const cJSON *o, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}

char *records_default_dir(void)
{
	repo_t *r = NULL;
	char *dir;

	if (repo_open(".", &r) == 0 && !repo_is_bare(r))
		dir = xasprintf("%srecords", repo_workdir(r));
	else
		dir = xstrdup("records");
	err_clear();
	repo_free(r);
	return dir;
}

/* ------------------------------------------------------------------ the pair */

/* text (ending "\n}\n", as emit_render() ends an object) with
 * `"run": "<id>"` as its last member.  Owned by the caller. */
static char *records_add_run(const char *text, const char *id)
{
	size_t len = strlen(text);

	if (len < 3 || strcmp(text + len - 3, "\n}\n"))
		return xstrdup(text);  /* not a record: never happens for ours */
	return xasprintf("%.*s,\n  \"%s\": \"%s\"\n}\n", (int)(len - 3), text, RECORDS_RUN_KEY, id);
}

void records_seal(cJSON *graph, cJSON *sched, char **graph_text, char **sched_text)
{
	char *g, *s, hex[GIT_OID_HEXSZ + 1];
	buf_t both;
	git_oid oid;

	/* an old id (refresh keeps the records it read) is not part of it */
	cJSON_DeleteItemFromObjectCaseSensitive(graph, RECORDS_RUN_KEY);
	cJSON_DeleteItemFromObjectCaseSensitive(sched, RECORDS_RUN_KEY);
	g = emit_render(graph);
	s = emit_render(sched);
	buf_init(&both);
	buf_addstr(&both, g);
	buf_addch(&both, '\0');
	buf_addstr(&both, s);
	if (git_odb_hash(&oid, both.buf, both.len, GIT_OBJECT_BLOB) < 0)
		memset(&oid, 0, sizeof oid);   /* libgit2's SHA-1 does not fail on memory */
	git_oid_tostr(hex, sizeof hex, &oid);
	buf_free(&both);
	*graph_text = records_add_run(g, hex);
	*sched_text = records_add_run(s, hex);
	free(g);
	free(s);
}

int records_check_pair(const cJSON *graph, const cJSON *sched, const char *dir)
{
	const char *a = records_str(graph, RECORDS_RUN_KEY), *b = records_str(sched, RECORDS_RUN_KEY);
	int ha = cJSON_HasObjectItem(graph, RECORDS_RUN_KEY), hb = cJSON_HasObjectItem(sched, RECORDS_RUN_KEY);

	if (!ha && !hb)
		return 0;                      /* written before the pair had an id */
	if (a && b && !strcmp(a, b))
		return 0;
	return err_set(ECG_EXIT_INPUT, "%s/%s and %s/%s are not one pair (their run ids %.12s and %.12s differ: "
	               "written by two runs, or a run was killed between them): run ecg extract again",
	               dir, RECORDS_GRAPH_FILE, dir, RECORDS_SCHEDULE_FILE, a ? a : "(none)", b ? b : "(none)");
}
