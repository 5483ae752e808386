/* cmd_jobs.c - `ecg jobs`: the runnable jobs of a commit, each with the
 * evidence it is one, its job type and its step.
 *
 * A job is found three ways: a script with `if __name__ == "__main__"` (or
 * a package's __main__.py), a console script declared in pyproject.toml,
 * setup.cfg or setup.py, and a shell launcher line (`python`, `torchrun`,
 * `accelerate launch`, `deepspeed`) naming a script or `-m module`.  Each
 * is then read as `ecg extract --entry` would read it and classified on
 * evidence only.  Nothing is run.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/interp.h"
#include "ecg/job.h"
#include "ecg/launcher.h"
#include "ecg/load.h"
#include "ecg/progress.h"
#include "ecg/pyrt.h"
#include "ecg/repo.h"
#include "ecg/termfit.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

#define JOBS_DEFAULT_MAX_FILE (16UL << 20)
#define JOBS_MAX_READ 64          /* jobs classified; the rest are listed */

static const char jobs_usage[] =
"usage: ecg jobs [--repo PATH] [--rev REV | --worktree] [--json] [--width N]\n"
"                [--helpers-dir DIR] [-j N] [--cache-dir DIR | --no-cache] [-q]\n"
"\n"
"List the runnable jobs of a commit, without running anything: scripts with\n"
"`if __name__ == \"__main__\"`, scripts that run at module level (a loop or\n"
"with-block outside any function, not in a package), packages' __main__.py,\n"
"console scripts in pyproject.toml, setup.cfg and setup.py, and the scripts\n"
"and `-m` modules that shell launchers (*.sh, *.bash, *.slurm, *.sbatch)\n"
"start with python, torchrun, accelerate, deepspeed or composer (read as\n"
"'ecg extract --launcher' reads them: each launch with its expanded command\n"
"and the number of processes it starts, in --json).  Each job is\n"
"read as 'ecg extract --entry' reads it and given a job type on evidence:\n"
"training (backward and an optimizer step), inference_serving (a request\n"
"handler that calls a model), batch (a model called under no_grad in a loop,\n"
"or writing results), or none, with the reason.\n"
"\n"
"  --repo PATH           the repository (default: .), or a directory outside\n"
"                        git, read as it is on disk (no commit, no --rev)\n"
"  --rev REV             the commit (default: HEAD)\n"
"  --worktree            read the work tree instead of the commit's blobs\n"
"  --json                one JSON document instead of the table (jobs by path,\n"
"                        each with its rank: its row in the table)\n"
"  --width N             the table's width (default: the terminal's; 80 in a\n"
"                        pipe); long paths lose their middle, never a line\n"
"                        number; under 90 columns FOUND BY is left to --json\n"
"  --helpers-dir DIR     where ecg's Python helpers are\n"
"  -j, --jobs N          parse in N worker processes (as for extract)\n"
"  --cache-dir DIR       the tree cache, as for extract (default\n"
"                        $XDG_CACHE_HOME/ecg, else ~/.cache/ecg)\n"
"  --no-cache            neither read nor write the tree cache\n"
"  -q, --quiet           do not print per-file warnings\n"
"  -h, --help            show this help\n"
"\n"
"The ENTRY column is what 'ecg extract --entry' takes.  Rows are ranked: jobs\n"
"started by a launcher, console scripts, and those named or shaped like a\n"
"trainer, server or generator first (training, then serving, then batch\n"
"among them), tests and tooling last.  At most 64 jobs are read, the first\n"
"of that ranking; the others are listed last, with the reason in --json, and\n"
"stderr says how many were left unread, which, and why.  On a terminal,\n"
"progress (the phase, the job being read) is shown on stderr after half a\n"
"second.\n"
"\n"
"Exit status: 0 listed (even if none); 2 bad usage; 3 not a repository or\n"
"unknown revision; 5 internal error.\n";

struct jobs_opts {
	const char *repo;
	const char *rev;
	const char *helpers_dir;
	const char *cache_dir;
	int worktree, json, quiet, jobs, width, no_cache;
};

struct jcand {
	char *path;                   /* the file run or imported */
	char *func;                   /* the function a console script calls, or NULL */
	cJSON *found;                 /* [{"how", "where", ...}] */
	char **argv;                  /* a launcher's arguments for it, or NULL */
	size_t argc;
	int args_set;
	int score;                    /* jobs_rank(): lower comes first */
};

struct jlist {
	struct jcand *c;
	size_t n, alloc;
};

static int jobs_parse_args(int argc, char **argv, struct jobs_opts *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "width", required_argument, NULL, 'W' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cmd_opts co;
	int c, k;

	memset(o, 0, sizeof *o);
	cmd_opts_init(&co, CMD_O_REPO | CMD_O_REV | CMD_O_WORKTREE | CMD_O_JOBS | CMD_O_CACHE | CMD_O_QUIET, longopts, "h");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, co.shortopts, co.longopts, NULL)) != -1) {
		if ((k = cmd_opts_take(&co, c, optarg)) < 0)
			return -1;
		if (k)
			continue;
		switch (c) {
		case 'J': o->json = 1; break;
		case 'W':
			if (cmd_opt_width(optarg, &o->width) < 0)
				return -1;
			break;
		case 'H': o->helpers_dir = optarg; break;
		case 'h':
			fputs(jobs_usage, stdout);
			return 1;
		default:
			return cmd_opt_unknown_in("jobs", argv, co.longopts);
		}
	}
	o->repo = co.repo;
	o->rev = co.rev;
	o->worktree = co.worktree;
	o->jobs = co.jobs;
	o->quiet = co.quiet;
	o->cache_dir = co.cache_dir;
	o->no_cache = co.no_cache;
	if (optind < argc)
		return err_set(ECG_EXIT_USAGE, "jobs: unexpected argument '%s' (see 'ecg jobs --help')", argv[optind]);
	return cmd_opt_rev("jobs", o->worktree, &o->rev);
}

/* The candidate for (path, func), added if new. */
static struct jcand *jobs_cand(struct jlist *l, const char *path, const char *func)
{
	size_t i;
	struct jcand *c;

	for (i = 0; i < l->n; i++) {
		c = &l->c[i];
		if (!strcmp(c->path, path) && (func ? c->func && !strcmp(c->func, func) : !c->func))
			return c;
	}
	GROW(l->c, l->alloc, l->n + 1);
	c = &l->c[l->n++];
	memset(c, 0, sizeof *c);
	c->path = xstrdup(path);
	c->func = func ? xstrdup(func) : NULL;
	c->found = cJSON_CreateArray();
	return c;
}

static cJSON *jobs_found(struct jcand *c, const char *how, const char *where)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "how", how);
	cJSON_AddStringToObject(o, "where", where);
	cJSON_AddItemToArray(c->found, o);
	return o;
}

/* A file's bytes: from the prog when there, else read.  Owned; NULL when
 * unreadable. */
static char *jobs_text(struct load *L, const char *path, size_t *len)
{
	const repo_file_t *f = load_find(L, path);
	char *data = NULL;

	*len = 0;
	if (!f || f->kind != REPO_FILE || repo_read(L->repo, f, L->o->worktree, L->o->max_file, &data, len) < 0) {
		err_clear();
		return NULL;
	}
	return data;
}

static int jobs_ends(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* Whether a line starts with a loop or a with-statement at column 0: the
 * cheap test before a file is parsed again. */
static int jobs_top_loop_text(const char *text)
{
	static const char *const kw[] = { "for ", "while ", "with ", "async ", NULL };
	const char *p = text;
	size_t i;

	while (p) {
		for (i = 0; kw[i]; i++)
			if (!strncmp(p, kw[i], strlen(kw[i])))
				return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* Whether path's directory is a package (has an __init__.py). */
static int jobs_in_package(struct load *L, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *init = slash ? xasprintf("%.*s/__init__.py", (int)(slash - path), path) : xstrdup("__init__.py");
	int r = load_find(L, init) != NULL;

	free(init);
	return r;
}

/* Scripts with a main guard at module level, scripts that run at module
 * level (a loop or with-block outside any function); packages'
 * __main__.py. */
static void jobs_scan_main(struct load *L, struct jlist *l)
{
	size_t i, k;

	for (i = 0; i < L->prog.n; i++) {
		struct sfile *sf = &L->prog.files[i];
		size_t len;
		char *text;
		int found = 0, script;

		/* the bytes: kept when parsed here, else read for this test and
		 * the file parsed again only when it may be a job */
		text = sf->loaded ? sf->src : jobs_text(L, sf->path, &len);
		if (!text)
			continue;
		script = jobs_top_loop_text(text);
		if (!sf->loaded && (strstr(text, "__main__") || script))
			prog_ensure(&L->prog, sf);
		if (text != sf->src)
			free(text);
		if (sf->loaded && sf->mod) {
			struct ast_arena *a = ast_arena_new();

			for (k = 0; k < sf->mod->body.n && !found; k++) {
				const struct ast_hdr *st = sf->mod->body.items[k];
				const char *t;

				if (st->kind != AST_If)
					continue;
				t = prog_text(sf, AST_AS(st, If)->test, a);
				if (strstr(t, "__name__") && strstr(t, "__main__")) {
					char *where = xasprintf("%s:<module>:%d", sf->path, st->line);

					jobs_found(jobs_cand(l, sf->path, NULL), "main_guard", where);
					free(where);
					found = 1;
				}
			}
			ast_arena_free(a);
		}
		if (!found && script && sf->loaded && sf->mod && !jobs_in_package(L, sf->path)) {
			/* a script run as it is (`python train.py`): a loop or a
			 * with-block at module level, outside any function, in a
			 * directory that is not a package (a package's modules are
			 * imported, and registry loops run at import) */
			for (k = 0; k < sf->mod->body.n && !found; k++) {
				const struct ast_hdr *st = sf->mod->body.items[k];

				if (st->kind == AST_For || st->kind == AST_While || st->kind == AST_With ||
				    st->kind == AST_AsyncFor || st->kind == AST_AsyncWith) {
					char *where = xasprintf("%s:<module>:%d", sf->path, st->line);

					jobs_found(jobs_cand(l, sf->path, NULL), "script", where);
					free(where);
					found = 1;
				}
			}
		}
		if (!found && jobs_ends(sf->path, "/__main__.py")) {
			char *where = xasprintf("%s:<module>:1", sf->path);

			jobs_found(jobs_cand(l, sf->path, NULL), "package_main", where);
			free(where);
		}
	}
}

/* "name = pkg.mod:func [extra]" -> a candidate, or a note why not. */
static void jobs_add_script(struct load *L, struct jlist *l, cJSON *unres, const char *name, const char *spec,
                            const char *where)
{
	const char *colon = strchr(spec, ':');
	char *mod, *func, *path, *p;

	while (*spec == ' ' || *spec == '\t')
		spec++;
	if (!colon || colon == spec) {
		cJSON *u = cJSON_CreateObject();

		cJSON_AddStringToObject(u, "where", where);
		cJSON_AddStringToObject(u, "what", name);
		cJSON_AddStringToObject(u, "reason", "not of the form module:function");
		cJSON_AddItemToArray(unres, u);
		return;
	}
	mod = xstrndup(spec, (size_t)(colon - spec));
	for (p = mod + strlen(mod); p > mod && (p[-1] == ' ' || p[-1] == '\t'); p--)
		p[-1] = '\0';
	func = xstrdup(colon + 1);
	for (p = func; *p && *p != ' ' && *p != '\t' && *p != '[' && *p != '"' && *p != '\''; p++)
		;
	*p = '\0';
	path = job_module_file(L, mod, 0);
	if (!path || !*func || strchr(func, '.')) {
		cJSON *u = cJSON_CreateObject();
		char *what = xasprintf("console script %s = %s:%s", name, mod, func);

		cJSON_AddStringToObject(u, "where", where);
		cJSON_AddStringToObject(u, "what", what);
		cJSON_AddStringToObject(u, "reason", !path ? "the module is not in the repository"
		                                            : "the function is an attribute of an object; not followed");
		cJSON_AddItemToArray(unres, u);
		free(what);
	} else {
		cJSON *f = jobs_found(jobs_cand(l, path, func), "console_script", where);

		cJSON_AddStringToObject(f, "name", name);
	}
	free(path);
	free(mod);
	free(func);
}

/* pyproject.toml: [project.scripts], [project.gui-scripts],
 * [tool.poetry.scripts]. */
static void jobs_scan_pyproject(struct load *L, struct jlist *l, cJSON *unres)
{
	static const char *const tables[][2] = {
		{ "project", "scripts" }, { "project", "gui-scripts" }, { "tool", "poetry" },
	};
	const char *why = NULL;
	cJSON *doc;
	size_t t;

	if (!load_find(L, "pyproject.toml"))
		return;
	doc = load_config_file(L, "pyproject.toml", "", &why);
	if (!doc) {
		cJSON *u = cJSON_CreateObject();

		cJSON_AddStringToObject(u, "where", "pyproject.toml");
		cJSON_AddStringToObject(u, "what", "console scripts");
		cJSON_AddStringToObject(u, "reason", why ? why : "not read");
		cJSON_AddItemToArray(unres, u);
		return;
	}
	for (t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		cJSON *s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, tables[t][0]),
		                                            tables[t][1]);
		const cJSON *e;

		if (t == 2)
			s = cJSON_GetObjectItemCaseSensitive(s, "scripts");
		if (!cJSON_IsObject(s))
			continue;
		cJSON_ArrayForEach(e, s) {
			char *where = xasprintf("pyproject.toml:[%s.%s%s]", tables[t][0], tables[t][1],
			                        t == 2 ? ".scripts" : "");

			if (cJSON_IsString(e))
				jobs_add_script(L, l, unres, e->string, e->valuestring, where);
			free(where);
		}
	}
	cJSON_Delete(doc);
}

/* Split "name = spec" in place; 0 when it is one. */
static int jobs_split_eq(char *line, char **name, char **spec)
{
	char *eq = strchr(line, '='), *p;

	if (!eq)
		return -1;
	*eq = '\0';
	for (p = eq; p > line && (p[-1] == ' ' || p[-1] == '\t'); p--)
		p[-1] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	*name = line;
	*spec = eq + 1;
	while (**spec == ' ' || **spec == '\t')
		(*spec)++;
	return **name && **spec ? 0 : -1;
}

/* setup.cfg: [options.entry_points] console_scripts = (continuation lines). */
static void jobs_scan_setup_cfg(struct load *L, struct jlist *l, cJSON *unres)
{
	size_t len, lineno = 0;
	char *text = jobs_text(L, "setup.cfg", &len), *line, *save = NULL;
	int in_section = 0, in_key = 0;

	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int indented = line[0] == ' ' || line[0] == '\t';
		char *name, *spec, *cr = strchr(line, '\r');

		lineno++;
		if (cr)
			*cr = '\0';
		if (line[0] == '[') {
			in_section = !strncmp(line, "[options.entry_points]", 22);
			in_key = 0;
			continue;
		}
		if (!in_section || line[0] == '#' || line[0] == ';')
			continue;
		if (!indented) {
			char *eq = strchr(line, '='), *key = line, *p;

			in_key = 0;
			if (!eq)
				continue;
			/* "console_scripts =" and, maybe, a first "name = spec" */
			*eq = '\0';
			for (p = eq; p > key && (p[-1] == ' ' || p[-1] == '\t'); p--)
				p[-1] = '\0';
			in_key = !strcmp(key, "console_scripts") || !strcmp(key, "gui_scripts");
			spec = eq + 1;
			if (in_key && jobs_split_eq(spec, &name, &spec) == 0) {
				char *where = xasprintf("setup.cfg:[options.entry_points]:%zu", lineno);

				jobs_add_script(L, l, unres, name, spec, where);
				free(where);
			}
			continue;
		}
		if (in_key && jobs_split_eq(line, &name, &spec) == 0) {
			char *where = xasprintf("setup.cfg:[options.entry_points]:%zu", lineno);

			jobs_add_script(L, l, unres, name, spec, where);
			free(where);
		}
	}
	free(text);
}

/* setup.py: the string literals "name = module:function" that follow
 * "console_scripts" (in an entry_points dict or list). */
static void jobs_scan_setup_py(struct load *L, struct jlist *l, cJSON *unres)
{
	size_t len;
	char *text = jobs_text(L, "setup.py", &len), *p, *end;

	if (!text)
		return;
	p = strstr(text, "console_scripts");
	end = p ? strchr(p, ']') : NULL;
	if (p && end) {
		p += strlen("console_scripts") + 1;
		while (p < end) {
			char q = *p, *close;

			if (q != '"' && q != '\'') {
				p++;
				continue;
			}
			close = memchr(p + 1, q, (size_t)(end - p - 1));
			if (!close)
				break;
			{
				char *lit = xstrndup(p + 1, (size_t)(close - p - 1)), *name, *spec;
				size_t line = 1;
				const char *c;

				for (c = text; c < p; c++)
					line += *c == '\n';
				if (jobs_split_eq(lit, &name, &spec) == 0) {
					char *where = xasprintf("setup.py:<module>:%zu", line);

					jobs_add_script(L, l, unres, name, spec, where);
					free(where);
				}
				free(lit);
			}
			p = close + 1;
		}
	}
	free(text);
}

static int jobs_is_launcher_file(const char *path)
{
	return jobs_ends(path, ".sh") || jobs_ends(path, ".bash") || jobs_ends(path, ".slurm") ||
	       jobs_ends(path, ".sbatch");
}

static cJSON *jobs_args_json(const struct launch_arg *a, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(a[i].text));
	return arr;
}

/* One launch of a launcher (launcher.c) as evidence of its job: the
 * command as expanded, which words the file does not pin down, how many
 * processes it starts (or why that is not known), and its condition. */
static void jobs_launch(struct load *L, struct jlist *l, const char *launcher, const struct launch *la)
{
	char *path = job_launch_file(L, launcher, la);
	char *where;
	struct jcand *c;
	cJSON *f, *unk;
	size_t k;

	if (!path)
		return;   /* a module or script outside the repository (pip, a tool) */
	c = jobs_cand(l, path, NULL);
	where = xasprintf("%s:%zu", launcher, la->line);
	f = jobs_found(c, "launcher", where);
	cJSON_AddStringToObject(f, "launcher", la->launcher);
	cJSON_AddItemToObject(f, "command", jobs_args_json(la->command, la->ncommand));
	unk = cJSON_CreateArray();
	for (k = 0; k < la->ncommand; k++)
		if (!la->command[k].known)
			cJSON_AddItemToArray(unk, cJSON_CreateString(la->command[k].text));
	if (cJSON_GetArraySize(unk))
		cJSON_AddItemToObject(f, "not_literal", unk);
	else
		cJSON_Delete(unk);
	if (la->world > 0) {
		cJSON_AddNumberToObject(f, "world_size", (double)la->world);
		cJSON_AddStringToObject(f, "world_size_from", la->world_source ? la->world_source : "");
	} else {
		cJSON_AddNullToObject(f, "world_size");
		cJSON_AddStringToObject(f, "world_size_reason", la->world_reason ? la->world_reason : "not known");
	}
	if (la->condition)
		cJSON_AddStringToObject(f, "condition", la->condition);
	/* the first unconditional launch's arguments are the job's command
	 * line (words the launcher does not pin down keep their shell text) */
	if (!c->args_set && !la->condition) {
		c->args_set = 1;
		if (la->argc) {
			c->argc = la->argc;
			c->argv = xcalloc(c->argc + 1, sizeof *c->argv);
			for (k = 0; k < la->argc; k++)
				c->argv[k] = xstrdup(la->argv[k].text);
		}
	}
	free(where);
	free(path);
}

static void jobs_scan_launchers(struct load *L, struct jlist *l)
{
	size_t i, k;

	for (i = 0; i < L->nall; i++) {
		const repo_file_t *rf = &L->all[i];
		struct launch_list ll = { 0 };
		size_t len;
		char *text;

		if (rf->kind != REPO_FILE || !jobs_is_launcher_file(rf->path))
			continue;
		text = jobs_text(L, rf->path, &len);
		if (!text)
			continue;
		launcher_scan(text, len, NULL, 0, 0, &ll);
		for (k = 0; k < ll.n; k++)
			jobs_launch(L, l, rf->path, &ll.v[k]);
		launch_list_free(&ll);
		free(text);
	}
}

/* ------------------------------------------------------------ ranking
 * More jobs than can be read: the ones that matter first.  A job started
 * by a launcher or declared as a console script, named or shaped like a
 * trainer, server or generator comes first; tests and tooling last. */

struct rank_word {
	const char *word;   /* in the file's base name */
	int score;
};

static const struct rank_word rank_names[] = {
	{ "pretrain", -40 }, { "train", -35 }, { "finetune", -35 }, { "fine_tune", -35 }, { "sft", -25 },
	{ "generate", -25 }, { "generation", -25 }, { "sample", -20 }, { "serve", -25 }, { "server", -25 },
	{ "infer", -20 }, { "chat", -15 }, { "eval", -15 }, { "predict", -15 }, { "score", -10 },
	{ "bench", -10 }, { "validate", -10 }, { "main", -10 }, { "run", -5 },
	{ NULL, 0 }
};

static const struct rank_word rank_dirs[] = {
	{ "tests/", 120 }, { "test/", 120 }, { "testing/", 100 }, { "unit_tests/", 120 }, { "functional_tests/", 100 },
	{ ".github/", 150 }, { ".ci/", 150 }, { "ci/", 80 }, { "docs/", 100 }, { "doc/", 100 },
	{ "tools/", 30 }, { "scripts/", 10 }, { "examples/", 5 },
	{ NULL, 0 }
};

/* What a trainer, server or generator has in its text. */
static const struct rank_word rank_shapes[] = {
	{ ".backward(", -25 }, { "optimizer.step(", -15 }, { ".generate(", -10 }, { "@app.", -15 },
	{ "no_grad", -5 }, { "inference_mode", -5 },
	{ NULL, 0 }
};

static int jobs_rank(struct load *L, const struct jcand *c)
{
	const char *base = strrchr(c->path, '/');
	struct sfile *sf = prog_file(&L->prog, c->path);
	const cJSON *f;
	int score = 0, i, launched = 0;
	size_t len;
	char *text;

	base = base ? base + 1 : c->path;
	cJSON_ArrayForEach(f, c->found) {
		const char *how = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "how"));

		if (how && !strcmp(how, "launcher"))
			score -= launched++ ? (launched <= 5 ? 10 : 0) : 100;   /* more launchers: a little more */
		else if (how && !strcmp(how, "console_script"))
			score -= 50;
	}
	if (!strncmp(base, "test_", 5) || strstr(base, "_test.py") || !strcmp(base, "conftest.py") ||
	    !strcmp(base, "setup.py"))
		score += 120;
	for (i = 0; rank_names[i].word; i++)
		if (strstr(base, rank_names[i].word)) {
			score += rank_names[i].score;
			break;
		}
	for (i = 0; rank_dirs[i].word; i++) {
		size_t n = strlen(rank_dirs[i].word);

		if (!strncmp(c->path, rank_dirs[i].word, n) ||
		    (strstr(c->path, rank_dirs[i].word) && strstr(c->path, rank_dirs[i].word)[-1] == '/'))
			score += rank_dirs[i].score;
	}
	for (i = 0; c->path[i]; i++)
		score += c->path[i] == '/' ? 2 : 0;
	text = sf && sf->loaded ? sf->src : jobs_text(L, c->path, &len);
	if (text) {
		for (i = 0; rank_shapes[i].word; i++)
			if (strstr(text, rank_shapes[i].word))
				score += rank_shapes[i].score;
		if (!sf || text != sf->src)
			free(text);
	}
	return score;
}

struct ranked {
	size_t i;
	int score;
	const char *path;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Which of l's jobs (sorted by path) are read: the JOBS_MAX_READ that
 * rank first.  Returns an array of flags (owned); *unread_tooling counts
 * the unread ones under tests or tooling. */
static char *jobs_choose(struct load *L, const struct jlist *l, size_t *unread_tooling)
{
	struct ranked *r = xcalloc(l->n + 1, sizeof *r);
	char *read = xcalloc(l->n + 1, 1);
	size_t i;

	*unread_tooling = 0;
	for (i = 0; i < l->n; i++) {
		r[i].i = i;
		r[i].path = l->c[i].path;
		r[i].score = l->c[i].score = jobs_rank(L, &l->c[i]);
	}
	if (l->n > JOBS_MAX_READ)
		qsort(r, l->n, sizeof *r, ranked_cmp);
	for (i = 0; i < l->n; i++) {
		if (i < JOBS_MAX_READ)
			read[r[i].i] = 1;
		else if (r[i].score >= 60)
			(*unread_tooling)++;
	}
	free(r);
	return read;
}

static int jobs_cmp(const void *a, const void *b)
{
	const struct jcand *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (!x->func || !y->func)
		return x->func ? 1 : y->func ? -1 : 0;
	return strcmp(x->func, y->func);
}

/* Read one job as extract does and classify it.  *stopped: with no type,
 * the first budget the reading spent ("ANCHOR: REASON", owned), else
 * NULL. */
static void jobs_read(struct load *L, const struct catalog *cat, struct jcand *c, struct job_info *job,
                      char **stopped)
{
	struct prog *prog = &L->prog;
	struct sfile *ef = prog_file(prog, c->path);
	const char *slash = strrchr(c->path, '/');
	struct interp *in;

	if (!ef)
		return;
	prog_ensure(prog, ef);
	if (!ef->mod)
		return;
	free(prog->entry_dir);
	prog->entry_dir = slash ? xstrndup(c->path, (size_t)(slash - c->path) + 1) : xstrdup("");
	in = interp_new(prog, cat);
	if (c->argc)
		interp_set_argv(in, (const char *const *)c->argv, c->argc);
	interp_set_loader(in, load_config_file, L);
	interp_set_text_loader(in, load_text_file, L);
	interp_set_tree(in, load_tree_entry, L);
	if (c->func ? interp_run_function(in, ef, c->func) == 0 : (interp_run_entry(in, ef), 1))
		job_classify(in, job);
	if (!job->type) {
		const struct interp_note *nt = job_budget_note(in);

		if (nt)
			*stopped = xasprintf("%s: %s", nt->anchor, nt->reason);
	}
	interp_free(in);
}

/* A table row: the JSON job and where it ranks. */
struct jrow {
	cJSON *j;
	int key, read;
	const char *entry;
};

/* The table's order: jobs read before the others; among them the rank
 * (jobs_rank()) with the type found: training, then serving, then batch. */
static int jrow_cmp(const void *a, const void *b)
{
	const struct jrow *x = a, *y = b;

	if (x->read != y->read)
		return y->read - x->read;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->entry, y->entry);
}

static int jobs_type_bonus(const char *type)
{
	static const struct rank_word bonus[] = {
		{ "training", -80 }, { "inference_serving", -60 }, { "batch", -15 }, { NULL, 0 }
	};
	int i;

	for (i = 0; type && bonus[i].word; i++)
		if (!strcmp(type, bonus[i].word))
			return bonus[i].score;
	return 0;
}

/* "launcher x3, main_guard": how a job was found, each way once. */
static void jobs_how(const cJSON *j, buf_t *b)
{
	const cJSON *f, *g;

	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "found_by")) {
		const char *how = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "how"));
		int n = 0, first = 1;

		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "found_by")) {
			const char *h2 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "how"));

			if (g == f)
				break;
			if (how && h2 && !strcmp(how, h2))
				first = 0;
		}
		if (!first || !how)
			continue;
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "found_by")) {
			const char *h2 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g, "how"));

			n += h2 && !strcmp(how, h2);
		}
		buf_addf(b, "%s%s", b->len ? ", " : "", how);
		if (n > 1)
			buf_addf(b, " x%d", n);
	}
}

/* One cell: s made visible, cut in its middle to w columns, padded
 * unless last. */
static void jobs_cell(const char *s, int w, int last)
{
	char cut[1024];

	termfit_mid(cut, sizeof cut, vis(s), w);
	if (last)
		printf("%s\n", cut);
	else
		printf("%-*s ", w, cut);
}

/* The table, ranked, within width columns. */
static void jobs_table(struct jrow *rows, size_t n, int width)
{
	static const char *const head[4] = { "ENTRY", "TYPE", "STEP", "FOUND BY" };
	int w[4], min[4] = { 14, 4, 12, 8 }, weight[4] = { 3, 1, 2, 1 };
	size_t i;
	int k, ncol = width < 90 ? 3 : 4;   /* narrow: FOUND BY is left to --json */

	for (k = 0; k < 4; k++)
		w[k] = (int)strlen(head[k]);
	for (i = 0; i < n; i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(rows[i].j, "job_type");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(rows[i].j, "step");
		buf_t how;
		int m;

		buf_init(&how);
		jobs_how(rows[i].j, &how);
		m = (int)strlen(vis(rows[i].entry));
		w[0] = m > w[0] ? m : w[0];
		m = cJSON_IsString(t) ? (int)strlen(t->valuestring) : rows[i].read ? 1 : 6;
		w[1] = m > w[1] ? m : w[1];
		m = cJSON_IsString(st) ? (int)strlen(vis(st->valuestring)) : 1;
		w[2] = m > w[2] ? m : w[2];
		m = (int)strlen(vis(how.buf));
		w[3] = m > w[3] ? m : w[3];
		buf_free(&how);
	}
	min[1] = w[1];          /* a type is never cut */
	termfit_cols(w, min, weight, ncol, width - (ncol - 1));
	for (k = 0; k < ncol; k++)
		jobs_cell(head[k], w[k], k == ncol - 1);
	for (i = 0; i < n; i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(rows[i].j, "job_type");
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(rows[i].j, "step");
		buf_t how;

		buf_init(&how);
		jobs_how(rows[i].j, &how);
		jobs_cell(rows[i].entry, w[0], 0);
		jobs_cell(cJSON_IsString(t) ? t->valuestring : rows[i].read ? "?" : "unread", w[1], 0);
		jobs_cell(cJSON_IsString(st) ? st->valuestring : "-", w[2], ncol == 3);
		if (ncol == 4)
			jobs_cell(how.buf, w[3], 1);
		buf_free(&how);
	}
}

int cmd_jobs(int argc, char **argv)
{
	struct jobs_opts o;
	struct load_opts lo;
	struct load L;
	struct jlist l;
	struct catalog *cat = NULL;
	char *helpers = NULL, *catdir = NULL, *text = NULL, *read = NULL, *cache_dir = NULL;
	struct jrow *rows = NULL;
	cJSON *doc = NULL, *arr, *unres = cJSON_CreateArray();
	size_t i, unread_tooling = 0, nread = 0, kread = 0;
	int rc, loaded = 0;

	memset(&l, 0, sizeof l);
	memset(&L, 0, sizeof L);
	rc = jobs_parse_args(argc, argv, &o);
	if (rc > 0) {
		rc = ECG_EXIT_OK;
		goto cleanup;
	}
	if (rc < 0)
		goto fail;
	helpers = helpers_find(o.helpers_dir);
	if (!helpers)
		goto fail;
	catdir = catalog_dir_beside(helpers);
	if (!catdir || catalog_load(catdir, &cat) < 0)
		goto fail;
	memset(&lo, 0, sizeof lo);
	lo.repo = o.repo;
	lo.rev = o.rev;
	lo.worktree = o.worktree;
	lo.max_file = JOBS_DEFAULT_MAX_FILE;
	lo.quiet = o.quiet;
	lo.jobs = o.jobs;
	lo.helpers = helpers;
	if (!o.no_cache)
		cache_dir = o.cache_dir ? xstrdup(o.cache_dir) : treecache_default_dir();
	lo.cache_dir = cache_dir;
	loaded = 1;
	progress_begin("jobs", o.quiet);
	progress_say("opening %s", o.repo);
	if (load_open(&L, &lo) < 0)
		goto fail;
	progress_say("parsing %zu files", L.prog.n);
	if (load_parse(&L, 1, NULL, NULL) < 0)
		goto fail;
	progress_say("finding jobs in %zu files", L.prog.n);

	jobs_scan_main(&L, &l);
	jobs_scan_pyproject(&L, &l, unres);
	jobs_scan_setup_cfg(&L, &l, unres);
	jobs_scan_setup_py(&L, &l, unres);
	jobs_scan_launchers(&L, &l);
	if (l.n)
		qsort(l.c, l.n, sizeof *l.c, jobs_cmp);
	read = jobs_choose(&L, &l, &unread_tooling);
	for (i = 0; i < l.n; i++)
		nread += read[i] != 0;
	rows = xcalloc(l.n + 1, sizeof *rows);

	doc = cJSON_CreateObject();
	/* null: a directory outside any git repository (repo.h) */
	cJSON_AddItemToObject(doc, "commit", *L.commit ? cJSON_CreateString(L.commit) : cJSON_CreateNull());
	arr = cJSON_AddArrayToObject(doc, "jobs");
	for (i = 0; i < l.n; i++) {
		struct jcand *c = &l.c[i];
		struct job_info job;
		cJSON *j = cJSON_CreateObject();
		char *entry = c->func ? xasprintf("%s:%s", c->path, c->func) : xstrdup(c->path), *stopped = NULL;

		memset(&job, 0, sizeof job);
		if (read[i]) {
			progress_say("reading job %zu/%zu %s", ++kread, nread, entry);
			jobs_read(&L, cat, c, &job, &stopped);
		}
		cJSON_AddStringToObject(j, "entry", entry);
		cJSON_AddStringToObject(j, "file", c->path);
		if (c->func)
			cJSON_AddStringToObject(j, "function", c->func);
		else
			cJSON_AddNullToObject(j, "function");
		cJSON_AddItemToObject(j, "found_by", c->found);
		c->found = NULL;
		if (c->argc) {
			cJSON *a = cJSON_AddArrayToObject(j, "job_args");
			size_t k;

			for (k = 0; k < c->argc; k++)
				cJSON_AddItemToArray(a, cJSON_CreateString(c->argv[k]));
		}
		if (!read[i]) {
			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason",
			                        "not read: more than 64 jobs in the repository, and 64 rank before it "
			                        "(launched, console scripts, named or shaped like a trainer, server or "
			                        "generator first; tests and tooling last)");
		} else if (job.type) {
			cJSON_AddStringToObject(j, "job_type", job.type);
		} else if (job.reason) {
			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason", job.reason);
		} else if (stopped) {
			char *why = xasprintf("no evidence: no backward(), request handler or no_grad loop that ecg could "
			                      "follow; the reading stopped at %s", stopped);

			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason", why);
			free(why);
		} else {
			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason",
			                        "no evidence: no backward(), request handler or no_grad loop that ecg could follow");
		}
		free(stopped);
		rows[i].j = j;
		rows[i].read = read[i] != 0;
		rows[i].key = c->score + jobs_type_bonus(job.type);
		cJSON_AddItemToObject(j, "evidence", job.evidence ? job.evidence : cJSON_CreateArray());
		job.evidence = NULL;
		if (job.entry_anchor)
			cJSON_AddStringToObject(j, "anchor", job.entry_anchor);
		else
			cJSON_AddNullToObject(j, "anchor");
		if (job.step_anchor)
			cJSON_AddStringToObject(j, "step", job.step_anchor);
		else
			cJSON_AddNullToObject(j, "step");
		cJSON_AddItemToArray(arr, j);
		job_info_free(&job);
		free(entry);
	}
	progress_end();
	for (i = 0; i < l.n; i++)
		rows[i].entry = cJSON_GetObjectItemCaseSensitive(rows[i].j, "entry")->valuestring;
	if (l.n)
		qsort(rows, l.n, sizeof *rows, jrow_cmp);
	for (i = 0; i < l.n; i++)
		cJSON_AddNumberToObject(rows[i].j, "rank", (double)(i + 1));
	if (l.n > nread) {
		/* what was left unread, and why: the first few that are not
		 * tests or tooling by name */
		buf_t b;
		size_t k, shown = 0;

		buf_init(&b);
		for (k = nread; k < l.n && shown < 4; k++) {
			const cJSON *jf = cJSON_GetObjectItemCaseSensitive(rows[k].j, "file");
			const struct jcand *c = NULL;
			size_t q;

			for (q = 0; q < l.n && !c; q++)
				if (!strcmp(l.c[q].path, jf->valuestring))
					c = &l.c[q];
			if (c && c->score >= 60)
				continue;
			buf_addf(&b, "%s%s", shown++ ? ", " : "", rows[k].entry);
		}
		err_warn("%zu jobs: the %zu that rank first were read (launched, console scripts, named or shaped like a "
		         "trainer, server or generator); %zu were not, %zu of them tests or tooling%s%s%s (at most %d are "
		         "read in a run; 'ecg extract --entry ENTRY' reads any of them)",
		         l.n, nread, l.n - nread, unread_tooling, shown ? "; the others include " : "",
		         b.buf, l.n - nread - unread_tooling > shown ? ", ..." : "", JOBS_MAX_READ);
		buf_free(&b);
	}
	cJSON_AddItemToObject(doc, "unresolved", unres);
	unres = NULL;
	cJSON_AddItemToObject(doc, "parse_errors", L.parse_errors);
	L.parse_errors = NULL;

	if (o.json) {
		text = emit_render(doc);
		fputs(text, stdout);
	} else {
		size_t unknown = 0;

		jobs_table(rows, l.n, termfit_width(o.width));
		for (i = 0; i < l.n; i++)
			unknown += rows[i].read && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rows[i].j, "job_type"));
		if (unknown && !o.quiet)
			err_warn("TYPE '?': %zu jobs read with no evidence of their type (no backward(), request handler or "
			         "no_grad loop followed); 'ecg jobs --json' says why for each, with what stopped the reading",
			         unknown);
		if (!o.quiet)
			err_warn("%d jobs %s%.12s", cJSON_GetArraySize(arr), *L.commit ? "at " : "in a directory with no commit",
			         L.commit);
	}
	rc = ECG_EXIT_OK;
	goto cleanup;

fail:
	progress_end();
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	free(rows);
	free(cache_dir);
	for (i = 0; i < l.n; i++) {
		size_t k;

		free(l.c[i].path);
		free(l.c[i].func);
		cJSON_Delete(l.c[i].found);
		for (k = 0; k < l.c[i].argc; k++)
			free(l.c[i].argv[k]);
		free(l.c[i].argv);
	}
	free(l.c);
	free(read);
	if (loaded)
		load_free(&L);
	astconv_fini();
	pyrt_fini();
	cJSON_Delete(doc);
	cJSON_Delete(unres);
	free(text);
	free(helpers);
	free(catdir);
	catalog_free(cat);
	return rc;
}
