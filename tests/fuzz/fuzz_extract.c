/* fuzz_extract.c - a libFuzzer target: arbitrary bytes through every pass
 * of `ecg extract` -- CPython's parser, the conversion to the C AST, the
 * abstract interpreter (binding, imports, configuration, forwards), the
 * module tree, the schedule -- and the rendering of both records.
 *
 * An input is one or more Python files.  Lines "#%% PATH" split it: each
 * starts a file named PATH (letters, digits, '_', '/', '.'; ending in .py;
 * no "..").  Text before the first marker, or an input with none, is
 * train.py.  The entry is train.py when there is one, else the first file.
 *
 * Built two ways: with -fsanitize=fuzzer (tests/fuzz/build.sh) for
 * libFuzzer, and with replay.c's main() as a `make check` program that
 * runs the committed corpus (tests/fuzz/corpus/extract/).
 *
 * Nothing is written to disk.  Any crash, leak, sanitizer report or abort()
 * is a finding; a file that does not parse is not (it is a parse error, as
 * in a real run).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Python.h>

#include "ecg/analyse.h"
#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/records.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_fini(void);

#define MAX_FILES 16

static struct catalog *fuzz_cat;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *helpers = helpers_find(ECG_SRCDIR "/pyhelpers");

	(void)argc;
	(void)argv;
	if (!helpers || pyrt_init(helpers) < 0 || catalog_load(ECG_SRCDIR "/catalog", &fuzz_cat) < 0) {
		fprintf(stderr, "fuzz_extract: cannot start: %s\n", err_last());
		abort();
	}
	free(helpers);
	return 0;
}

/* Called by replay.c at exit, so that leak checkers see a clean end. */
void fuzz_fini(void)
{
	catalog_free(fuzz_cat);
	fuzz_cat = NULL;
	astconv_fini();
	pyrt_fini();
}

struct piece {
	char path[64];
	const char *src;
	size_t len;
};

static int path_ok(const char *p, size_t n)
{
	size_t i;

	if (n < 4 || n >= 64 || memcmp(p + n - 3, ".py", 3) || p[0] == '/')
		return 0;
	for (i = 0; i < n; i++) {
		char c = p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '/' || c == '.'))
			return 0;
		if (c == '.' && i + 1 < n && p[i + 1] == '.')
			return 0;
		if (c == '/' && i + 1 < n && p[i + 1] == '/')
			return 0;
	}
	return 1;
}

/* Split the input into files; returns how many. */
static size_t split(const char *d, size_t n, struct piece *out)
{
	size_t np = 0, i = 0, start = 0;
	const char *name = "train.py";
	size_t nlen = 8;

	while (i <= n) {
		int at_marker = i + 4 <= n && (i == 0 || d[i - 1] == '\n') && !memcmp(d + i, "#%% ", 4);

		if (at_marker || i == n) {
			if ((i > start || np == 0 || i == n) && np < MAX_FILES && !(i == 0 && at_marker)) {
				size_t k;
				int dup = 0;

				for (k = 0; k < np; k++)
					if (strlen(out[k].path) == nlen && !memcmp(out[k].path, name, nlen))
						dup = 1;
				if (!dup) {
					memcpy(out[np].path, name, nlen);
					out[np].path[nlen] = 0;
					out[np].src = d + start;
					out[np].len = i - start;
					np++;
				}
			}
			if (i == n)
				break;
			/* the marker line names the next file */
			{
				size_t e = i + 4;

				while (e < n && d[e] != '\n')
					e++;
				if (path_ok(d + i + 4, e - i - 4)) {
					name = d + i + 4;
					nlen = e - i - 4;
				} else {
					name = "bad.py";
					nlen = 6;
				}
				i = e < n ? e + 1 : e;
				start = i;
				continue;
			}
		}
		i++;
	}
	return np;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct piece *)a)->path, ((const struct piece *)b)->path);
}

/* The tree cache (treecache.h): a tree read back is the tree written,
 * node for node (ast.dump of both). */
static void roundtrip(const struct ast_Module *cmod)
{
	buf_t enc, d1, d2;
	struct ast_arena *a2 = NULL;
	struct ast_Module *m2 = NULL;

	buf_init(&enc);
	buf_init(&d1);
	buf_init(&d2);
	treecache_encode(cmod, &enc);
	if (!treecache_decode((const unsigned char *)enc.buf, enc.len, &a2, &m2)) {
		fprintf(stderr, "fuzz_extract: the tree cache cannot read back what it wrote\n");
		abort();
	}
	astdump(&cmod->h, &d1);
	astdump(&m2->h, &d2);
	if (d1.len != d2.len || memcmp(d1.buf, d2.buf, d1.len) != 0) {
		fprintf(stderr, "fuzz_extract: the tree cache read back another tree\n");
		abort();
	}
	ast_arena_free(a2);
	buf_free(&enc);
	buf_free(&d1);
	buf_free(&d2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct piece pieces[MAX_FILES];
	struct prog prog;
	struct analyse_opts ao;
	struct job_info job;
	cJSON *modules, *unres, *config, *parse_errors, *files, *sched_parts, *graph, *sched;
	records_header_t h, ph;
	const char *entry;
	char *text;
	size_t np, i;

	if (!fuzz_cat)
		LLVMFuzzerInitialize(NULL, NULL);
	{
		/* the input as a cache payload: a tree or a miss, never more */
		struct ast_arena *ca = NULL;
		struct ast_Module *cm = NULL;

		if (treecache_decode(data, size, &ca, &cm)) {
			buf_t d;

			buf_init(&d);
			astdump(&cm->h, &d);
			buf_free(&d);
		}
		ast_arena_free(ca);
	}
	np = split((const char *)data, size, pieces);
	qsort(pieces, np, sizeof *pieces, by_path);
	prog_init(&prog);
	parse_errors = cJSON_CreateArray();
	files = cJSON_CreateArray();
	entry = NULL;
	for (i = 0; i < np; i++) {
		char *src = xmalloc(pieces[i].len + 1);
		PyObject *mod = NULL;
		pyast_error pe = { 0, 0, NULL };
		struct ast_arena *arena;
		struct ast_Module *cmod = NULL;
		int rc;

		memcpy(src, pieces[i].src, pieces[i].len);
		src[pieces[i].len] = 0;
		{
			cJSON *fe = cJSON_CreateObject();

			cJSON_AddStringToObject(fe, "path", pieces[i].path);
			cJSON_AddStringToObject(fe, "blob", "0000000000000000000000000000000000000000");
			cJSON_AddItemToArray(files, fe);
		}
		if (!strcmp(pieces[i].path, "train.py") || !entry)
			entry = pieces[i].path;
		rc = pyast_parse(pieces[i].path, src, pieces[i].len, &mod, &pe);
		if (rc < 0) {
			fprintf(stderr, "fuzz_extract: the parser failed: %s\n", err_last());
			abort();
		}
		if (rc > 0) {
			records_add_parse_error(parse_errors, pieces[i].path, pe.line, pe.col, pe.message);
			pyast_error_clear(&pe);
			prog_add(&prog, pieces[i].path, src, pieces[i].len, NULL, NULL);
			continue;
		}
		arena = ast_arena_new();
		if (astconv_module(mod, arena, &cmod) < 0) {
			Py_DECREF(mod);
			if (err_code() != ECG_EXIT_INPUT) {
				fprintf(stderr, "fuzz_extract: conversion failed: %s\n", err_last());
				abort();
			}
			records_add_parse_error(parse_errors, pieces[i].path, 0, 0, err_last());
			err_clear();
			ast_arena_free(arena);
			prog_add(&prog, pieces[i].path, src, pieces[i].len, NULL, NULL);
			continue;
		}
		roundtrip(cmod);
		Py_DECREF(mod);
		prog_add(&prog, pieces[i].path, src, pieces[i].len, arena, cmod);
	}

	modules = cJSON_CreateArray();
	unres = cJSON_CreateArray();
	config = cJSON_CreateArray();
	memset(&job, 0, sizeof job);
	memset(&ph, 0, sizeof ph);
	ph.commit = "0000000000000000000000000000000000000000";
	ph.python = "";
	sched_parts = records_schedule_new(&ph);
	memset(&ao, 0, sizeof ao);
	if (entry && analyse_job(&prog, entry, NULL, &ao, fuzz_cat, modules, unres, config, &job, sched_parts) < 0)
		err_clear();    /* an input error, reported as a real run would */

	memset(&h, 0, sizeof h);
	h.commit = ph.commit;
	h.python = pyrt_version();
	h.entry_file = entry;
	h.files = files;
	h.parse_errors = parse_errors;
	h.unresolved = unres;
	h.config = config;
	h.entry_anchor = job.entry_anchor;
	h.step_anchor = job.step_anchor;
	h.job_type = job.type;
	h.job_evidence = job.evidence;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz_extract: %zu files, entry %s, %d entries in modules, job type %s\n", np,
		        entry ? entry : "-", cJSON_GetArraySize(modules), job.type ? job.type : "-");
	records_assemble(&h, modules, sched_parts, &graph, &sched);
	text = emit_render(graph);
	free(text);
	text = emit_render(sched);
	free(text);
	if (PyErr_Occurred()) {
		PyErr_Print();
		abort();        /* a Python error left pending by ecg */
	}

	cJSON_Delete(graph);
	cJSON_Delete(sched);
	cJSON_Delete(sched_parts);
	cJSON_Delete(parse_errors);
	cJSON_Delete(files);
	cJSON_Delete(unres);
	cJSON_Delete(config);
	job_info_free(&job);
	prog_free(&prog);
	return 0;
}
