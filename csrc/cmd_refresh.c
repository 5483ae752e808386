/* cmd_refresh.c - `ecg refresh`: both records brought to a revision.
 *
 * The job is read again as the records' invocation says (extract.h), or,
 * when only lines moved, the anchors are moved (check_relocate(),
 * anchors.h); the fields a person added are kept.  Options, the merge and
 * the report are here.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "ecg/anchors.h"
#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/extract.h"
#include "ecg/interp.h"
#include "ecg/pyast.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

static const char refresh_usage[] =
"usage: ecg refresh [--repo PATH] [--rev REV | --worktree] [--out DIR]\n"
"                   [--helpers-dir DIR] [-j N] [--json] [-q]\n"
"                   [--cache-dir DIR | --no-cache]\n"
"\n"
"Bring both records in DIR to REV: read the job again as the records say\n"
"it was read (their `invocation`: entry, the job's command line, --set,\n"
"--config values, --model), keep the fields a person added to an entry whose\n"
"id still exists (and to the records' top level), leave removed entries out\n"
"(but never because their code stopped parsing: see the exit status),\n"
"and print what changed: entries added, removed and moved, repeat counts and\n"
"configuration values that changed.  The refreshed records are those\n"
"`ecg extract` writes at REV, plus the kept fields.\n"
"\n"
"  --repo PATH           the repository (default: .), or a directory outside\n"
"                        git, read as it is on disk (no commit, no --rev)\n"
"  --rev REV             the commit (default: HEAD)\n"
"  --worktree            read the work tree instead of the commit's blobs\n"
"  --out DIR             where the records are and go (default: records/ at\n"
"                        the work tree's root)\n"
"  --helpers-dir DIR     where ecg's Python helpers are\n"
"  -j, --jobs N          as for extract\n"
"  --cache-dir DIR, --no-cache\n"
"                        as for extract: the files that did not change are\n"
"                        not parsed again when their trees are in the cache\n"
"  --json                the change report as one JSON document\n"
"  -q, --quiet           no per-file warnings\n"
"  -h, --help            show this help\n"
"\n"
"Exit status: 0 records refreshed; 2 bad usage; 3 no records in DIR,\n"
"records without an invocation (written by an older ecg: extract again),\n"
"two records that are not one pair (their `run` ids differ), or a file\n"
"that parsed before does not parse at REV while entries with hand-added\n"
"fields would be dropped (nothing is written: fix the code first),\n"
"not a repository, unknown revision; 4 records not written; 5 internal\n"
"error.\n";

/* The keys ecg writes, per place; any other key was added by a person. */
static const char *const refresh_entry_keys[] = {
	"id", "kind", "parent", "order", "class", "op", "function", "code_anchor", "defined_at",
	"constructed_at", "args", "repeat", "total_repeat", "total_repeat_from_line", "condition",
	"shapes", "external", "params", "subtree", "factory", "tied", NULL
};
static const char *const refresh_top_keys[] = {
	"schema", "tool", "commit", "dirty", "python", "entrypoint", "job_type", "config", "files",
	"parse_errors", "unresolved", "modules", "phases", "data_path", "host_device", "device_device",
	"compute", "overlap", "invocation", "incomplete", "environment", "parallel", RECORDS_RUN_KEY, NULL
};

static int key_in(const char *k, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(k, *list))
			return 1;
	return 0;
}

/* Copy into `to` the keys of `from` a person added (not ecg's, not in to). */
static size_t refresh_keep(cJSON *to, const cJSON *from, const char *const *ecg_keys)
{
	const cJSON *c;
	size_t n = 0;

	cJSON_ArrayForEach(c, from) {
		if (!c->string || key_in(c->string, ecg_keys) || cJSON_GetObjectItemCaseSensitive(to, c->string))
			continue;
		cJSON_AddItemToObject(to, c->string, cJSON_Duplicate(c, 1));
		n++;
	}
	return n;
}

static const cJSON *by_id(const cJSON *mods, const char *id)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, mods) {
		const cJSON *i = cJSON_GetObjectItemCaseSensitive(e, "id");

		if (cJSON_IsString(i) && !strcmp(i->valuestring, id))
			return e;
	}
	return NULL;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int same_json(const cJSON *a, const cJSON *b)
{
	if (!a || !b)
		return a == b;
	return cJSON_Compare(a, b, 1);
}

/* What changed outside the repository between the two headers'
 * environment: a package's version ({"name", "from", "to"}, null where it
 * is not listed) and a file's blob id ({"name": its path, ...}). */
static void refresh_env_changes(const cJSON *og, const cJSON *ng, cJSON *out)
{
	static const struct {
		const char *list, *key, *value;
	} kinds[] = { { "packages", "name", "version" }, { "files", "path", "blob" } };
	const cJSON *oe = cJSON_GetObjectItemCaseSensitive(og, "environment");
	const cJSON *ne = cJSON_GetObjectItemCaseSensitive(ng, "environment");
	size_t k;

	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		const cJSON *ol = cJSON_GetObjectItemCaseSensitive(oe, kinds[k].list);
		const cJSON *nl = cJSON_GetObjectItemCaseSensitive(ne, kinds[k].list);
		const cJSON *a, *b;
		int pass;

		for (pass = 0; pass < 2; pass++) {
			const cJSON *walk = pass ? nl : ol, *other = pass ? ol : nl;

			cJSON_ArrayForEach(a, walk) {
				const char *key = str_of(a, kinds[k].key);
				const cJSON *hit = NULL, *av = cJSON_GetObjectItemCaseSensitive(a, kinds[k].value), *hv;
				cJSON *m;

				if (!key)
					continue;
				cJSON_ArrayForEach(b, other)
					if (str_of(b, kinds[k].key) && !strcmp(str_of(b, kinds[k].key), key))
						hit = b;
				hv = hit ? cJSON_GetObjectItemCaseSensitive(hit, kinds[k].value) : NULL;
				if (pass ? hit != NULL : hit && same_json(av, hv))
					continue;            /* the same; or (second pass) seen in the first */
				{
					/* first pass: recorded (av) -> now (hv); second: only now (av) */
					const cJSON *from = pass ? NULL : av, *to = pass ? av : hv;

					m = cJSON_CreateObject();
					cJSON_AddStringToObject(m, "name", key);
					cJSON_AddItemToObject(m, "from", from ? cJSON_Duplicate(from, 1) : cJSON_CreateNull());
					cJSON_AddItemToObject(m, "to", to ? cJSON_Duplicate(to, 1) : cJSON_CreateNull());
					cJSON_AddItemToArray(out, m);
				}
			}
		}
	}
}

/* The change report, and the hand-added fields carried over. */
static cJSON *refresh_merge(const cJSON *og, const cJSON *os, cJSON *ng, cJSON *ns)
{
	cJSON *rep = cJSON_CreateObject();
	cJSON *added = cJSON_AddArrayToObject(rep, "added");
	cJSON *removed = cJSON_AddArrayToObject(rep, "removed");
	cJSON *moved = cJSON_AddArrayToObject(rep, "moved");
	cJSON *repeats = cJSON_AddArrayToObject(rep, "repeat_changed");
	cJSON *config = cJSON_AddArrayToObject(rep, "config_changed");
	cJSON *kept = cJSON_AddArrayToObject(rep, "kept_fields");
	const cJSON *omods = cJSON_GetObjectItemCaseSensitive(og, "modules");
	cJSON *nmods = cJSON_GetObjectItemCaseSensitive(ng, "modules");
	const cJSON *e, *c;
	cJSON *n;

	/* null: read from a directory with no commit (records.c) */
	cJSON_AddItemToObject(rep, "from_commit", str_of(og, "commit") && *str_of(og, "commit")
	                                              ? cJSON_CreateString(str_of(og, "commit")) : cJSON_CreateNull());
	cJSON_AddItemToObject(rep, "to_commit", str_of(ng, "commit") && *str_of(ng, "commit")
	                                            ? cJSON_CreateString(str_of(ng, "commit")) : cJSON_CreateNull());
	cJSON_ArrayForEach(n, nmods) {
		const char *id = str_of(n, "id");
		const cJSON *o = id ? by_id(omods, id) : NULL;

		if (!id)
			continue;
		if (!o) {
			cJSON_AddItemToArray(added, cJSON_CreateString(id));
			continue;
		}
		if (!same_json(cJSON_GetObjectItemCaseSensitive(o, "code_anchor"),
		               cJSON_GetObjectItemCaseSensitive(n, "code_anchor"))) {
			cJSON *m = cJSON_CreateObject();

			cJSON_AddStringToObject(m, "id", id);
			cJSON_AddItemToObject(m, "from", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(o, "code_anchor"), 1));
			cJSON_AddItemToObject(m, "to", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(n, "code_anchor"), 1));
			cJSON_AddItemToArray(moved, m);
		}
		if (!same_json(cJSON_GetObjectItemCaseSensitive(o, "total_repeat"),
		               cJSON_GetObjectItemCaseSensitive(n, "total_repeat"))) {
			cJSON *m = cJSON_CreateObject();
			const cJSON *ot = cJSON_GetObjectItemCaseSensitive(o, "total_repeat");
			const cJSON *nt = cJSON_GetObjectItemCaseSensitive(n, "total_repeat");

			cJSON_AddStringToObject(m, "id", id);
			cJSON_AddItemToObject(m, "from", ot ? cJSON_Duplicate(ot, 1) : cJSON_CreateNull());
			cJSON_AddItemToObject(m, "to", nt ? cJSON_Duplicate(nt, 1) : cJSON_CreateNull());
			cJSON_AddItemToArray(repeats, m);
		}
		if (refresh_keep(n, o, refresh_entry_keys)) {
			cJSON_AddItemToArray(kept, cJSON_CreateString(id));
		}
	}
	cJSON_ArrayForEach(e, omods) {
		const char *id = str_of(e, "id");

		if (id && !by_id(nmods, id))
			cJSON_AddItemToArray(removed, cJSON_CreateString(id));
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(og, "config")) {
		const char *name = str_of(e, "name");
		const cJSON *hit = NULL;

		if (!name)
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(ng, "config"))
			if (str_of(c, "name") && !strcmp(str_of(c, "name"), name))
				hit = c;
		if (!hit || !same_json(cJSON_GetObjectItemCaseSensitive(e, "value"), cJSON_GetObjectItemCaseSensitive(hit, "value"))) {
			cJSON *m = cJSON_CreateObject();
			const cJSON *ov = cJSON_GetObjectItemCaseSensitive(e, "value");
			const cJSON *nv = hit ? cJSON_GetObjectItemCaseSensitive(hit, "value") : NULL;

			cJSON_AddStringToObject(m, "name", name);
			cJSON_AddItemToObject(m, "from", ov ? cJSON_Duplicate(ov, 1) : cJSON_CreateNull());
			cJSON_AddItemToObject(m, "to", nv ? cJSON_Duplicate(nv, 1) : cJSON_CreateNull());
			cJSON_AddItemToArray(config, m);
		}
	}
	refresh_env_changes(og, ng, cJSON_AddArrayToObject(rep, "environment_changed"));
	if (refresh_keep(ng, og, refresh_top_keys))
		cJSON_AddItemToArray(kept, cJSON_CreateString("(computation_graph top level)"));
	if (refresh_keep(ns, os, refresh_top_keys))
		cJSON_AddItemToArray(kept, cJSON_CreateString("(execution_schedule top level)"));
	return rep;
}

/* Would writing ng lose a person's fields because the code stopped
 * parsing?  When a file that parsed before (it is not in og's
 * parse_errors) does not parse now, and an entry that carries fields a
 * person added is not in ng, the entry may be gone only because its code
 * could not be read: refuse, and write nothing (the old records keep the
 * fields; a refresh after the fix carries them over).  0, or -1 with
 * err_set(ECG_EXIT_INPUT) naming the files and the entries. */
static int refresh_guard(const cJSON *og, const cJSON *ng)
{
	const cJSON *e, *c;
	buf_t files, ids;
	size_t nfiles = 0, nids = 0;
	int rc = 0;

	buf_init(&files);
	buf_init(&ids);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ng, "parse_errors")) {
		const char *f = str_of(e, "file");
		int before = 0;
		double line = 0;

		if (!f)
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(og, "parse_errors"))
			if (str_of(c, "file") && !strcmp(str_of(c, "file"), f))
				before = 1;
		if (before)
			continue;
		if (nfiles++ < 5) {
			buf_addf(&files, "%s%s", files.len ? ", " : "", f);
			if (records_num(e, "line", &line))
				buf_addf(&files, ":%.0f", line);
			if (str_of(e, "message"))
				buf_addf(&files, " (%s)", str_of(e, "message"));
		}
	}
	if (!nfiles)
		goto done;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(og, "modules")) {
		const char *id = str_of(e, "id");
		int hand = 0;

		if (!id || by_id(cJSON_GetObjectItemCaseSensitive(ng, "modules"), id))
			continue;
		cJSON_ArrayForEach(c, e)
			if (c->string && !key_in(c->string, refresh_entry_keys))
				hand = 1;
		if (hand && nids++ < 5)
			buf_addf(&ids, "%s'%s'", ids.len ? ", " : "", id[0] ? id : "(the model)");
	}
	if (nids)
		rc = err_set(ECG_EXIT_INPUT, "refresh: %zu file%s that parsed before do%s not parse now (%s%s), and %zu "
		             "entr%s with fields a person added would be dropped (%s%s): nothing written.  Fix the "
		             "code and refresh again, or run ecg extract to start over",
		             nfiles, nfiles == 1 ? "" : "s", nfiles == 1 ? "es" : "", files.buf, nfiles > 5 ? ", ..." : "",
		             nids, nids == 1 ? "y" : "ies", ids.buf, nids > 5 ? ", ..." : "");
done:
	buf_free(&files);
	buf_free(&ids);
	return rc;
}

static void refresh_print(const cJSON *rep)
{
	static const char *const lists[] = { "added", "removed", "moved", "repeat_changed", "config_changed",
	                                     "environment_changed", "kept_fields", NULL };
	size_t i;

	printf("refreshed %.12s -> %.12s%s\n",
	       str_of(rep, "from_commit") ? vis(str_of(rep, "from_commit")) : "(no commit)",
	       str_of(rep, "to_commit") ? vis(str_of(rep, "to_commit")) : "(no commit)",
	       cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rep, "read_again"))
	       ? " (only code moved: anchors relocated, the job not read again)" : "");
	for (i = 0; lists[i]; i++) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(rep, lists[i]), *e;

		cJSON_ArrayForEach(e, l) {
			if (cJSON_IsString(e)) {
				printf("  %-15s %s\n", lists[i], vis(e->valuestring));
			} else {
				char *from = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "from"));
				char *to = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "to"));
				const char *who = str_of(e, "id") ? str_of(e, "id") : str_of(e, "name");

				printf("  %-15s %s: %s -> %s\n", lists[i], !who ? "?" : who[0] ? vis(who) : "(the model)", vis(from),
				       vis(to));
				free(from);
				free(to);
			}
		}
	}
	printf("%d added, %d removed (dropped), %d moved, %d repeat counts and %d config values changed, "
	       "hand-added fields kept on %d entries\n",
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "added")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "removed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "moved")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "repeat_changed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "config_changed")),
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(rep, "kept_fields")));
}

int cmd_refresh(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct extract_opts o;
	cJSON *og = NULL, *os = NULL, *ng = NULL, *ns = NULL, *rep = NULL;
	const cJSON *inv, *a;
	char *out_dir = NULL, *dir = NULL, **argvv = NULL, *cache_dir = NULL, *launcher_spec = NULL;
	const cJSON *lj;
	struct cmd_opts co;
	int c, k, rc, json = 0, fast, lock = -1;
	size_t n = 0;
	repo_t *r = NULL;

	memset(&o, 0, sizeof o);
	o.max_file = EXTRACT_DEFAULT_MAX_FILE;
	o.max_tokens = PYAST_DEFAULT_MAX_TOKENS;
	cmd_opts_init(&co, CMD_O_REPO | CMD_O_REV | CMD_O_WORKTREE | CMD_O_JOBS | CMD_O_CACHE | CMD_O_QUIET, longopts,
	              "h");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, co.shortopts, co.longopts, NULL)) != -1) {
		if ((k = cmd_opts_take(&co, c, optarg)) < 0)
			goto fail;
		if (k)
			continue;
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'H': o.helpers_dir = optarg; break;
		case 'J': json = 1; break;
		case 'h':
			fputs(refresh_usage, stdout);
			return ECG_EXIT_OK;
		default:
			cmd_opt_unknown_in("refresh", argv, co.longopts);
			goto fail;
		}
	}
	o.repo = co.repo;
	o.rev = co.rev;
	o.worktree = co.worktree;
	o.jobs = co.jobs;
	o.cache_dir = co.cache_dir;
	o.no_cache = co.no_cache;
	o.quiet = co.quiet;
	if (optind < argc) {
		err_set(ECG_EXIT_USAGE, "refresh: unexpected argument '%s' (see 'ecg refresh --help')", argv[optind]);
		goto fail;
	}
	if (cmd_opt_rev("refresh", o.worktree, &o.rev) < 0)
		goto fail;
	/* where the records are: as extract would write them */
	if (o.out) {
		dir = xstrdup(o.out);
	} else {
		if (repo_open(o.repo, &r) < 0)
			goto fail;
		if (repo_is_bare(r)) {
			err_set(ECG_EXIT_USAGE, "'%s' is a bare repository: give --out DIR", o.repo);
			goto fail;
		}
		dir = xasprintf("%srecords", repo_workdir(r));
		repo_free(r);
		r = NULL;
		if (extract_default_dir_ok(dir) < 0)
			goto fail;
	}
	/* one refresh at a time, and no extract between its reading and its
	 * writing (no lock file is made where there are no records) */
	{
		struct stat st;

		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (lock = emit_lock(dir, 1)) < 0)
			goto fail;
	}
	if (!(og = records_read(dir, RECORDS_GRAPH_FILE)) || !(os = records_read(dir, RECORDS_SCHEDULE_FILE)) ||
	    records_check_pair(og, os, dir) < 0)
		goto fail;
	inv = cJSON_GetObjectItemCaseSensitive(og, "invocation");
	if (!cJSON_IsObject(inv) || !str_of(inv, "entry")) {
		err_set(ECG_EXIT_INPUT, "%s/%s has no invocation (written by an older ecg, or without --entry): "
		        "run ecg extract again", dir, RECORDS_GRAPH_FILE);
		goto fail;
	}
	o.entry = str_of(inv, "entry");
	o.model = str_of(inv, "model");
	if (str_of(inv, "machine") && interp_machine_parse(str_of(inv, "machine")) > 0)
		o.machine = interp_machine_parse(str_of(inv, "machine"));
	o.out = dir;
	a = cJSON_GetObjectItemCaseSensitive(inv, "argv");
	argvv = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *argvv);
	{
		const cJSON *x;

		cJSON_ArrayForEach(x, a)
			if (cJSON_IsString(x))
				argvv[n++] = x->valuestring;
		o.job_argv = argvv;
		o.job_argc = n;
		n = 0;
		/* read through the launcher again, with its own arguments */
		lj = cJSON_GetObjectItemCaseSensitive(inv, "launcher");
		if (cJSON_IsObject(lj) && str_of(lj, "file") &&
		    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(lj, "line"))) {
			launcher_spec = xasprintf("%s:%d", str_of(lj, "file"),
			                          cJSON_GetObjectItemCaseSensitive(lj, "line")->valueint);
			o.launcher = launcher_spec;
			o.entry = NULL;
			a = cJSON_GetObjectItemCaseSensitive(lj, "args");
			free(argvv);
			argvv = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *argvv);
			cJSON_ArrayForEach(x, a)
				if (cJSON_IsString(x))
					argvv[n++] = x->valuestring;
			o.job_argv = argvv;
			o.job_argc = n;
			n = 0;
		}
		a = cJSON_GetObjectItemCaseSensitive(inv, "set");
		o.sets = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o.sets);
		cJSON_ArrayForEach(x, a)
			if (cJSON_IsString(x) && strchr(x->valuestring, '='))
				o.sets[n++] = x->valuestring;
		o.nsets = n;
		n = 0;
		a = cJSON_GetObjectItemCaseSensitive(inv, "env");
		if (cJSON_IsArray(a)) {   /* the environment was known */
			o.no_env = 1;
			o.envs = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o.envs);
			cJSON_ArrayForEach(x, a)
				if (cJSON_IsString(x) && x->valuestring[0] && x->valuestring[0] != '=')
					o.envs[n++] = x->valuestring;
			o.nenvs = n;
		}
		/* the installed libraries read before, and only those: the
		 * directories as they were named or found (environment.site),
		 * not this shell's VIRTUAL_ENV */
		n = 0;
		o.no_site_env = 1;
		a = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(og, "environment"), "site");
		o.sites = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o.sites);
		cJSON_ArrayForEach(x, a)
			if (cJSON_IsString(x) && x->valuestring[0])
				o.sites[n++] = x->valuestring;
		o.nsites = n;
	}
	/* the files the job read last time: their trees are read ahead */
	{
		const cJSON *fl = cJSON_GetObjectItemCaseSensitive(og, "files"), *x;

		o.prefetch = xcalloc((size_t)cJSON_GetArraySize(fl) + 1, sizeof *o.prefetch);
		cJSON_ArrayForEach(x, fl) {
			const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "path"));

			if (p)
				o.prefetch[o.nprefetch++] = p;
		}
	}
	a = cJSON_GetObjectItemCaseSensitive(inv, "config_values");
	/* only moved code: move the anchors, read nothing else */
	/* the changed files' trees, old and new, from and to the tree cache */
	if (!o.no_cache)
		cache_dir = o.cache_dir ? xstrdup(o.cache_dir) : treecache_default_dir();
	fast = o.worktree ? 0 : check_relocate(o.repo, o.rev, o.helpers_dir, cache_dir, og, os, &ng, &ns);
	if (fast < 0)
		goto fail;
	if (fast) {
		out_dir = xstrdup(dir);
		rc = ECG_EXIT_OK;
	} else {
		rc = extract_build(&o, cJSON_IsObject(a) ? a : NULL, &ng, &ns, &out_dir, NULL);
		if (rc != ECG_EXIT_OK)
			goto cleanup;
	}
	if (refresh_guard(og, ng) < 0)
		goto fail;
	rep = refresh_merge(og, os, ng, ns);
	cJSON_AddBoolToObject(rep, "read_again", !fast);
	rc = extract_write(out_dir, ng, ns, !json, lock >= 0);
	if (rc == ECG_EXIT_OK) {
		if (json) {
			char *t = emit_render(rep);

			fputs(t, stdout);
			free(t);
		} else {
			refresh_print(rep);
		}
	}
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	emit_unlock(lock);
	repo_free(r);
	cJSON_Delete(og);
	cJSON_Delete(os);
	cJSON_Delete(ng);
	cJSON_Delete(ns);
	cJSON_Delete(rep);
	free(out_dir);
	free(dir);
	free(argvv);
	free(launcher_spec);
	free(o.sets);
	free(o.envs);
	free(o.sites);
	free(o.prefetch);
	free(cache_dir);
	return rc;
}
