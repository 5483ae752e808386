/* cmd_check.c - `ecg check`: do the records still hold at a revision?
 * Options and the report here; the judging is anchors.c's (anchors.h).
 * Verdicts per anchor: fresh, moved, changed, gone (see anchors.c).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/anchors.h"
#include "ecg/ast.h"
#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/symtab.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

static const char check_usage[] =
"usage: ecg check [--repo PATH] [--rev REV | --worktree] [--out DIR] [--json]\n"
"                 [--helpers-dir DIR] [-q]\n"
"\n"
"Tell whether the records in DIR still describe the code at REV, without\n"
"writing anything.  Files whose blob is the one recorded are not read; for\n"
"the others every code anchor of both records is looked up again by its\n"
"symbol and reported fresh, moved (same code, new line or file: the new\n"
"anchor is printed), changed (the symbol's code changed) or gone.  A\n"
"configuration value whose source changed is reported with its new value\n"
"when the code still assigns a literal to it.  A configuration file the job\n"
"reads (JSON, TOML, YAML; listed in `files`) that changed makes the records\n"
"stale, with the values read from it; so does a file read from outside the\n"
"repository (environment.files) that changed, or an installed package read\n"
"(environment.packages) whose version in its site directory changed.\n"
"\n"
"  --repo PATH           the repository (default: .), or a directory outside\n"
"                        git, read as it is on disk (no commit, no --rev)\n"
"  --rev REV             the commit to check against (default: HEAD)\n"
"  --worktree            check against the files in the work tree\n"
"  --out DIR             where the records are (default: records/ at the\n"
"                        work tree's root, as extract writes them)\n"
"  --json                the report as one JSON document\n"
"  --helpers-dir DIR     where ecg's Python helpers are\n"
"  -q, --quiet           print only the summary line (text report)\n"
"  -h, --help            show this help\n"
"\n"
"Exit status: 0 every anchor is fresh; 1 the records are stale (something\n"
"moved, changed or is gone); 2 an error (bad usage, not a repository,\n"
"unknown revision, no records in DIR, two records that are not one pair,\n"
"internal error).\n";

static int check_parse_args(int argc, char **argv, struct check_opts *o)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'J' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cmd_opts co;
	int c, k;

	memset(o, 0, sizeof *o);
	cmd_opts_init(&co, CMD_O_REPO | CMD_O_REV | CMD_O_WORKTREE | CMD_O_QUIET, longopts, "h");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, co.shortopts, co.longopts, NULL)) != -1) {
		if ((k = cmd_opts_take(&co, c, optarg)) < 0)
			return -1;
		if (k)
			continue;
		switch (c) {
		case 'o': o->out = optarg; break;
		case 'J': o->json = 1; break;
		case 'H': o->helpers_dir = optarg; break;
		case 'h':
			fputs(check_usage, stdout);
			return 1;
		default:
			return cmd_opt_unknown_in("check", argv, co.longopts);
		}
	}
	o->repo = co.repo;
	o->rev = co.rev;
	o->worktree = co.worktree;
	o->quiet = co.quiet;
	if (optind < argc)
		return err_set(ECG_EXIT_USAGE, "check: unexpected argument '%s' (see 'ecg check --help')", argv[optind]);
	return cmd_opt_rev("check", o->worktree, &o->rev);
}

static void print_text(const struct check *k, const char *recorded, const struct check_opts *o)
{
	const cJSON *e;
	size_t i, nsame = 0, nchanged = 0, ngone = 0, nmoved = 0;
	size_t stale = check_stale(k);

	for (i = 0; i < k->nfiles; i++) {
		switch (k->files[i].st) {
		case F_SAME: nsame++; break;
		case F_CHANGED: nchanged++; break;
		case F_GONE: ngone++; break;
		case F_MOVED: nmoved++; break;
		}
	}
	if (!o->quiet) {
		printf("records of %.12s, checked against %.12s%s\n", *recorded ? recorded : "no commit",
		       *k->commit ? k->commit : "the files", *k->commit ? (o->worktree ? " (work tree)" : "")
		                                              : " on disk (no commit)");
		for (i = 0; i < k->nfiles; i++) {
			const struct cfile *cf = &k->files[i];

			if (cf->st == F_CHANGED)
				printf("  file     %s changed%s\n", vis(cf->path),
				       check_is_py(cf->path) ? "" : " (a file the job reads: its values may differ)");
			else if (cf->st == F_GONE)
				printf("  file     %s is gone\n", vis(cf->path));
			else if (cf->st == F_MOVED)
				printf("  file     %s moved to %s\n", vis(cf->path), vis(cf->now->path));
		}
		cJSON_ArrayForEach(e, k->entries) {
			const char *st = cJSON_GetObjectItemCaseSensitive(e, "status")->valuestring;
			const cJSON *na = cJSON_GetObjectItemCaseSensitive(e, "new_anchor");
			const cJSON *why = cJSON_GetObjectItemCaseSensitive(e, "reason");
			const char *id = cJSON_GetObjectItemCaseSensitive(e, "id")->valuestring;

			if (!strcmp(st, "fresh"))
				continue;
			printf("  %-8s %s%s%s  %s%s%s%s%s\n", st,
			       vis(id[0] ? id : cJSON_GetObjectItemCaseSensitive(e, "record")->valuestring),
			       " ", vis(cJSON_GetObjectItemCaseSensitive(e, "field")->valuestring),
			       vis(cJSON_GetObjectItemCaseSensitive(e, "anchor")->valuestring),
			       cJSON_IsString(na) ? " -> " : "", cJSON_IsString(na) ? vis(na->valuestring) : "",
			       cJSON_IsString(why) ? "  # " : "", cJSON_IsString(why) ? vis(why->valuestring) : "");
		}
		cJSON_ArrayForEach(e, k->env) {
			const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "kind"));
			const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "status"));
			const char *rec = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "recorded"));
			const char *now = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "now"));
			const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));

			if (!strcmp(kind, "package") && !strcmp(st, "installed"))
				printf("  package  %s %s in %s: installed since (the job found it absent; what it builds may differ)\n",
				       vis(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"))),
				       now ? vis(now) : "(no version)", vis(path));
			else if (!strcmp(kind, "package"))
				printf("  package  %s %s in %s: %s%s%s\n",
				       vis(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"))),
				       rec ? vis(rec) : "(no version)", vis(path),
				       !strcmp(st, "gone") ? "no longer installed" : "now ",
				       !strcmp(st, "gone") ? "" : now ? vis(now) : "(no version)",
				       " (what it builds may differ)");
			else
				printf("  file     %s %s (read by the job from outside the repository: its values may differ)\n",
				       vis(path), !strcmp(st, "gone") ? "is gone" : "changed");
		}
		cJSON_ArrayForEach(e, k->config) {
			const cJSON *nv = cJSON_GetObjectItemCaseSensitive(e, "new_value_text");
			char *v = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "value"));

			printf("  config   %s = %s (%s): its source %s%s%s\n",
			       vis(cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring), vis(v),
			       vis(cJSON_GetObjectItemCaseSensitive(e, "source")->valuestring),
			       cJSON_GetObjectItemCaseSensitive(e, "status")->valuestring,
			       cJSON_IsString(nv) ? ", now " : "", cJSON_IsString(nv) ? vis(nv->valuestring) : "");
			free(v);
		}
	}
	printf("%s: %zu anchors: %zu fresh, %zu moved, %zu changed, %zu gone; %zu config values changed; "
	       "files: %zu unchanged, %zu changed, %zu moved, %zu gone\n",
	       stale ? "stale" : "fresh", k->counts[0] + k->counts[1] + k->counts[2] + k->counts[3],
	       k->counts[A_FRESH], k->counts[A_MOVED], k->counts[A_CHANGED], k->counts[A_GONE],
	       (size_t)cJSON_GetArraySize(k->config), nsame, nchanged, nmoved, ngone);
	if (cJSON_GetArraySize(k->env) > 0)
		printf("  and outside the repository: %d changed or gone (files the job read, installed packages)\n",
		       cJSON_GetArraySize(k->env));
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o;
	struct check k;
	cJSON *graph = NULL, *sched = NULL;
	char *out_dir = NULL;
	const cJSON *rc_commit;
	char recorded[41];
	int rc, lock;

	memset(&k, 0, sizeof k);
	k.o = &o;
	rc = check_parse_args(argc, argv, &o);
	if (rc > 0)
		return ECG_EXIT_OK;
	if (rc < 0)
		goto fail;
	k.helpers = helpers_find(o.helpers_dir);
	if (!k.helpers)
		goto fail;
	if (repo_open(o.repo, &k.repo) < 0)
		goto fail;
	if (o.out)
		out_dir = xstrdup(o.out);
	else if (repo_is_bare(k.repo)) {
		err_set(ECG_EXIT_USAGE, "'%s' is a bare repository: give --out DIR (where the records are)", o.repo);
		goto fail;
	} else
		out_dir = xasprintf("%srecords", repo_workdir(k.repo));
	/* no writer between the two reads (a shared lock, when there is a lock file) */
	lock = emit_lock(out_dir, 0);
	if (lock == -1)
		goto fail;
	graph = records_read(out_dir, RECORDS_GRAPH_FILE);
	sched = graph ? records_read(out_dir, RECORDS_SCHEDULE_FILE) : NULL;
	emit_unlock(lock);
	if (!graph || !sched || records_check_pair(graph, sched, out_dir) < 0)
		goto fail;
	rc_commit = cJSON_GetObjectItemCaseSensitive(graph, "commit");
	snprintf(recorded, sizeof recorded, "%s",
	         cJSON_IsString(rc_commit) ? rc_commit->valuestring : cJSON_IsNull(rc_commit) ? "" : "?");
	if (repo_resolve(k.repo, o.rev, k.commit) < 0)
		goto fail;
	if (repo_list(k.repo, k.commit, o.worktree, NULL, &k.all, &k.nall) < 0)
		goto fail;
	check_classify_files(&k, cJSON_GetObjectItemCaseSensitive(graph, "files"));
	k.entries = cJSON_CreateArray();
	k.config = cJSON_CreateArray();
	if (check_records(&k, graph, sched) < 0)
		goto fail;
	check_environment(&k, graph);
	if (o.json) {
		cJSON *doc = cJSON_CreateObject(), *fl = cJSON_CreateArray();
		size_t i, stale = check_stale(&k);
		char *text;
		static const char *const fst[] = { "unchanged", "changed", "gone", "moved" };

		cJSON_AddItemToObject(doc, "recorded_commit", *recorded ? cJSON_CreateString(recorded) : cJSON_CreateNull());
		cJSON_AddItemToObject(doc, "commit", *k.commit ? cJSON_CreateString(k.commit) : cJSON_CreateNull());
		cJSON_AddBoolToObject(doc, "worktree", o.worktree);
		cJSON_AddBoolToObject(doc, "fresh", stale == 0);
		for (i = 0; i < k.nfiles; i++) {
			cJSON *f = cJSON_CreateObject();

			cJSON_AddStringToObject(f, "path", k.files[i].path);
			cJSON_AddStringToObject(f, "status", fst[k.files[i].st]);
			if (k.files[i].st == F_MOVED)
				cJSON_AddStringToObject(f, "new_path", k.files[i].now->path);
			cJSON_AddItemToArray(fl, f);
		}
		cJSON_AddItemToObject(doc, "files", fl);
		cJSON_AddItemToObject(doc, "anchors", k.entries);
		cJSON_AddItemToObject(doc, "config", k.config);
		cJSON_AddItemToObject(doc, "environment", k.env);
		k.entries = k.config = k.env = NULL;
		text = emit_render(doc);
		fputs(text, stdout);
		free(text);
		cJSON_Delete(doc);
		rc = stale ? ECG_EXIT_STALE : ECG_EXIT_OK;
	} else {
		print_text(&k, recorded, &o);
		rc = check_stale(&k) ? ECG_EXIT_STALE : ECG_EXIT_OK;
	}
	goto cleanup;
fail:
	/* check's contract: 0 fresh, 1 stale, 2 any error (scripts test
	 * `ecg check || refresh` and must not take an error for staleness) */
	err_warn("%s", err_last());
	rc = ECG_EXIT_USAGE;
cleanup:
	if (k.py_started) {
		check_free(&k);
		astconv_fini();
		pyrt_fini();
	} else {
		check_free(&k);
	}
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	free(out_dir);
	return rc;
}
