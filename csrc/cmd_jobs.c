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
#include "ecg/load.h"
#include "ecg/pyrt.h"
#include "ecg/repo.h"
#include "ecg/util.h"

#define JOBS_DEFAULT_MAX_FILE (16UL << 20)
#define JOBS_MAX_READ 64          /* jobs classified; the rest are listed */

static const char jobs_usage[] =
"usage: ecg jobs [--repo PATH] [--rev REV | --worktree] [--json]\n"
"                [--helpers-dir DIR] [-j N] [-q]\n"
"\n"
"List the runnable jobs of a commit, without running anything: scripts with\n"
"`if __name__ == \"__main__\"`, scripts that run at module level (a loop or\n"
"with-block outside any function, not in a package), packages' __main__.py,\n"
"console scripts in pyproject.toml, setup.cfg and setup.py, and the scripts\n"
"and `-m` modules that shell launchers (*.sh, *.bash, *.slurm, *.sbatch)\n"
"start with python, torchrun, accelerate, deepspeed or composer.  Each job is\n"
"read as 'ecg extract --entry' reads it and given a job type on evidence:\n"
"training (backward and an optimizer step), inference_serving (a request\n"
"handler that calls a model), batch (a model called under no_grad in a loop,\n"
"or writing results), or none, with the reason.\n"
"\n"
"  --repo PATH           the repository (default: .)\n"
"  --rev REV             the commit (default: HEAD)\n"
"  --worktree            read the work tree instead of the commit's blobs\n"
"  --json                one JSON document instead of the table\n"
"  --helpers-dir DIR     where ecg's Python helpers are\n"
"  -j, --jobs N          parse in N worker processes (as for extract)\n"
"  -q, --quiet           do not print per-file warnings\n"
"  -h, --help            show this help\n"
"\n"
"The ENTRY column is what 'ecg extract --entry' takes.  At most 64 jobs are\n"
"read; further ones are listed with the reason they were not.\n"
"\n"
"Exit status: 0 listed (even if none); 2 bad usage; 3 not a repository or\n"
"unknown revision; 5 internal error.\n";

struct jobs_opts {
	const char *repo;
	const char *rev;
	const char *helpers_dir;
	int worktree, json, quiet, jobs;
};

struct jcand {
	char *path;                   /* the file run or imported */
	char *func;                   /* the function a console script calls, or NULL */
	cJSON *found;                 /* [{"how", "where", ...}] */
	char **argv;                  /* a launcher's arguments for it, or NULL */
	size_t argc;
	int args_set;
};

struct jlist {
	struct jcand *c;
	size_t n, alloc;
};

static int jobs_parse_args(int argc, char **argv, struct jobs_opts *o)
{
	static const struct option longopts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "rev", required_argument, NULL, 'R' },
		{ "worktree", no_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'J' },
		{ "helpers-dir", required_argument, NULL, 'H' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof *o);
	o->repo = ".";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+qhj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->repo = optarg; break;
		case 'R': o->rev = optarg; break;
		case 'w': o->worktree = 1; break;
		case 'J': o->json = 1; break;
		case 'H': o->helpers_dir = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'j':
			if (cmd_opt_jobs(optarg, &o->jobs) < 0)
				return -1;
			break;
		case 'h':
			fputs(jobs_usage, stdout);
			return 1;
		default:
			return cmd_opt_unknown("jobs", argv);
		}
	}
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
	xgrow((void **)&l->c, &l->alloc, l->n + 1, sizeof *l->c);
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

static const char *jobs_base(const char *tok)
{
	const char *s = strrchr(tok, '/');

	return s ? s + 1 : tok;
}

static int jobs_is_python(const char *tok)
{
	const char *b = jobs_base(tok);

	return !strncmp(b, "python", 6) || !strcmp(b, "torchrun") || !strcmp(b, "deepspeed") ||
	       !strcmp(b, "accelerate") || !strcmp(b, "composer");
}

/* The path a launcher names, relative to the repository: "./x.py" and
 * paths under the launcher's directory.  Owned, or NULL. */
static char *jobs_launch_path(struct load *L, const char *launcher, const char *tok)
{
	const char *slash = strrchr(launcher, '/');
	const repo_file_t *f;

	if (strchr(tok, '$') || strchr(tok, '`') || tok[0] == '/')
		return NULL;
	f = load_find_file(L, tok);
	if (!f && slash) {
		char *p = xasprintf("%.*s/%s", (int)(slash - launcher), launcher, tok);

		f = load_find_file(L, p);
		free(p);
	}
	return f ? xstrdup(f->path) : NULL;
}

/* One logical launcher line (continuations joined), tokenised. */
static void jobs_launch_line(struct load *L, struct jlist *l, const char *launcher, size_t lineno, char *line)
{
	char *tok[256], *save = NULL, *t;
	size_t n = 0, i, k;
	char *hash = strchr(line, '#');

	if (hash && (hash == line || hash[-1] == ' ' || hash[-1] == '\t'))
		*hash = '\0';
	for (t = strtok_r(line, " \t", &save); t && n < 256; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	for (i = 0; i < n; i++) {
		char *path = NULL, *where;
		struct jcand *c;
		cJSON *f, *cmd;
		size_t start, stop;

		if (!jobs_is_python(tok[i]))
			continue;
		/* the launcher's own options, then the script or -m module */
		for (k = i + 1; k < n; k++) {
			if (!strcmp(tok[k], "-m") && k + 1 < n) {
				const char *m = tok[k + 1];

				if (!strcmp(m, "torch.distributed.run") || !strcmp(m, "torch.distributed.launch") ||
				    !strcmp(m, "accelerate.commands.launch") || !strcmp(m, "deepspeed.launcher.runner")) {
					k++;
					continue;
				}
				path = job_module_file(L, m, 1);
				k++;
				break;
			}
			if (jobs_ends(tok[k], ".py")) {
				path = jobs_launch_path(L, launcher, tok[k]);
				break;
			}
			if (!strcmp(tok[k], ";") || !strcmp(tok[k], "&&") || !strcmp(tok[k], "|"))
				break;
		}
		if (!path || k >= n)
			continue;
		start = k + 1;
		for (stop = start; stop < n; stop++) {
			const char *s = tok[stop];

			if (!strcmp(s, ";") || !strcmp(s, "&&") || !strcmp(s, "||") || !strcmp(s, "|") || s[0] == '>' ||
			    !strcmp(s, "2>&1") || !strcmp(s, "&") || !strncmp(s, "2>", 2))
				break;
		}
		c = jobs_cand(l, path, NULL);
		where = xasprintf("%s:%zu", launcher, lineno);
		f = jobs_found(c, "launcher", where);
		cmd = cJSON_CreateArray();
		for (k = i; k < stop; k++)
			cJSON_AddItemToArray(cmd, cJSON_CreateString(tok[k]));
		cJSON_AddItemToObject(f, "command", cmd);
		/* the first launcher's arguments are the job's command line,
		 * unless a shell variable stands in them */
		if (!c->args_set) {
			int plain = 1;

			for (k = start; k < stop; k++)
				if (strchr(tok[k], '$') || strchr(tok[k], '`') || strchr(tok[k], '"') || strchr(tok[k], '\''))
					plain = 0;
			c->args_set = 1;
			if (plain && stop > start) {
				c->argc = stop - start;
				c->argv = xcalloc(c->argc + 1, sizeof *c->argv);
				for (k = start; k < stop; k++)
					c->argv[k - start] = xstrdup(tok[k]);
			}
		}
		free(where);
		free(path);
		break;
	}
}

static void jobs_scan_launchers(struct load *L, struct jlist *l)
{
	size_t i;

	for (i = 0; i < L->nall; i++) {
		const repo_file_t *rf = &L->all[i];
		size_t len, lineno = 1, start_line = 1;
		char *text, *p;
		buf_t logical;

		if (rf->kind != REPO_FILE || !jobs_is_launcher_file(rf->path))
			continue;
		text = jobs_text(L, rf->path, &len);
		if (!text)
			continue;
		buf_init(&logical);
		for (p = text; p < text + len; p++) {
			if (*p == '\\' && p + 1 < text + len && p[1] == '\n') {
				buf_addch(&logical, ' ');
				p++;
				lineno++;
				continue;
			}
			if (*p == '\n' || *p == '\0') {
				if (logical.len)
					jobs_launch_line(L, l, rf->path, start_line, logical.buf);
				buf_reset(&logical);
				lineno++;
				start_line = lineno;
				continue;
			}
			buf_addch(&logical, *p == '\r' ? ' ' : *p);
		}
		if (logical.len)
			jobs_launch_line(L, l, rf->path, start_line, logical.buf);
		buf_free(&logical);
		free(text);
	}
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

/* Read one job as extract does and classify it. */
static void jobs_read(struct load *L, const struct catalog *cat, struct jcand *c, struct job_info *job)
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
	if (c->func ? interp_run_function(in, ef, c->func) == 0 : (interp_run_entry(in, ef), 1))
		job_classify(in, job);
	interp_free(in);
}

/* s (a path or anchor from the repository, made visible: vis()) padded
 * to width columns */
static void jobs_pad(const char *s, int width)
{
	int n;

	s = vis(s);
	n = (int)strlen(s);

	fputs(s, stdout);
	if (n < width)
		printf("%*s", width - n, "");
	putchar(' ');
}

int cmd_jobs(int argc, char **argv)
{
	struct jobs_opts o;
	struct load_opts lo;
	struct load L;
	struct jlist l;
	struct catalog *cat = NULL;
	char *helpers = NULL, *catdir = NULL, *text = NULL;
	cJSON *doc = NULL, *arr, *unres = cJSON_CreateArray();
	size_t i;
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
	loaded = 1;
	if (load_open(&L, &lo) < 0 || load_parse(&L, 1, NULL, NULL) < 0)
		goto fail;

	jobs_scan_main(&L, &l);
	jobs_scan_pyproject(&L, &l, unres);
	jobs_scan_setup_cfg(&L, &l, unres);
	jobs_scan_setup_py(&L, &l, unres);
	jobs_scan_launchers(&L, &l);
	if (l.n)
		qsort(l.c, l.n, sizeof *l.c, jobs_cmp);

	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "commit", L.commit);
	arr = cJSON_AddArrayToObject(doc, "jobs");
	for (i = 0; i < l.n; i++) {
		struct jcand *c = &l.c[i];
		struct job_info job;
		cJSON *j = cJSON_CreateObject();
		char *entry = c->func ? xasprintf("%s:%s", c->path, c->func) : xstrdup(c->path);

		memset(&job, 0, sizeof job);
		if (i < JOBS_MAX_READ)
			jobs_read(&L, cat, c, &job);
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
		if (i >= JOBS_MAX_READ) {
			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason", "not read: more than 64 jobs in the repository");
		} else if (job.type) {
			cJSON_AddStringToObject(j, "job_type", job.type);
		} else {
			cJSON_AddNullToObject(j, "job_type");
			cJSON_AddStringToObject(j, "reason",
			                        "no evidence: no backward(), request handler or no_grad loop that ecg could follow");
		}
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
	cJSON_AddItemToObject(doc, "unresolved", unres);
	unres = NULL;
	cJSON_AddItemToObject(doc, "parse_errors", L.parse_errors);
	L.parse_errors = NULL;

	if (o.json) {
		text = emit_render(doc);
		fputs(text, stdout);
	} else {
		const cJSON *j;
		int we = 5, wt = 4, ws = 4;

		/* ENTRY, TYPE, STEP columns as wide as their widest value */
		cJSON_ArrayForEach(j, arr) {
			const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "job_type");
			const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "step");
			int n = (int)strlen(vis(cJSON_GetObjectItemCaseSensitive(j, "entry")->valuestring));

			we = n > we ? n : we;
			n = cJSON_IsString(t) ? (int)strlen(vis(t->valuestring)) : 1;
			wt = n > wt ? n : wt;
			n = cJSON_IsString(s) ? (int)strlen(vis(s->valuestring)) : 1;
			ws = n > ws ? n : ws;
		}
		jobs_pad("ENTRY", we);
		jobs_pad("TYPE", wt);
		jobs_pad("STEP", ws);
		puts("FOUND BY");
		cJSON_ArrayForEach(j, arr) {
			const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "job_type");
			const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "step");
			const cJSON *f;
			buf_t how;

			buf_init(&how);
			cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "found_by"))
				buf_addf(&how, "%s%s %s", how.len ? "; " : "",
				         cJSON_GetObjectItemCaseSensitive(f, "how")->valuestring,
				         cJSON_GetObjectItemCaseSensitive(f, "where")->valuestring);
			jobs_pad(cJSON_GetObjectItemCaseSensitive(j, "entry")->valuestring, we);
			jobs_pad(cJSON_IsString(t) ? t->valuestring : "-", wt);
			jobs_pad(cJSON_IsString(s) ? s->valuestring : "-", ws);
			printf("%s\n", vis(how.buf));
			buf_free(&how);
		}
		if (!o.quiet)
			err_warn("%d jobs at %.12s", cJSON_GetArraySize(arr), L.commit);
	}
	rc = ECG_EXIT_OK;
	goto cleanup;

fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
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
