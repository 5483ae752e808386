/* test_interp.c - snippet tests of the abstract interpreter (csrc/interp/),
 * in the manner of jq's tests/jq.test.
 *
 * Each tests/interp/NAME.test file holds cases; tests/interp/README gives the
 * format.  In short: a case is a `# name` line, optional `# xfail: why` and
 * `# argv: ...` and `# env: K=V ...` lines (`# launcher-env: K=V ...`: the
 * variables a launcher sets, any other maybe set), a `# machine: cuda|cpu`
 * line (as extract --machine), a Python snippet (more files after `#%% path.py`
 * lines), a `---` line, then expectations up to a blank line:
 *     NAME = RENDERING        a module-level name of the snippet (or a
 *                             dotted path through instance attributes,
 *                             class namespaces, dicts and modules)
 *     NAME = unknown: TEXT    unknown, and its reason contains TEXT
 *     mro CLASS = A B C       the class's method resolution order
 *     len NAME = N            children of a module instance (ModuleList ...)
 *     forward NAME = EVENTS   the events of the instance's forward, called
 *                             with one unknown (tensor) argument
 *     sched = KINDS           the schedule events, in order
 *     note: TEXT              some note (`unresolved`) contains TEXT
 * Each case runs in its own interpreter over a prog of its files (the
 * snippet is main.py, run as __main__ with argv[1:] from `# argv:`), with
 * the torch.nn catalogue; no torch is needed.  The result is TAP: a case
 * marked xfail that fails is `not ok ... # TODO` (a known bug of the
 * interpreter); one that passes is `ok ... # TODO` (an XPASS, which
 * automake counts as a failure: remove the mark) and the exit status is 1.
 *
 * Arguments: .test files to run (default: every tests/interp/NAME.test of
 * the source tree).  $ECG_INTERP_CASE=TEXT runs only the cases whose name
 * contains TEXT; $ECG_INTERP_DUMP=1 prints every global of each case run
 * (to write the expectations of a new case).
 */
#include "config.h"

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "ecg/ast.h"
#include "ecg/catalog.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/interp.h"
#include "ecg/prog.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"
#include "ecg/values.h"
#include "tap.h"

#ifndef ECG_SRCDIR
#error "ECG_SRCDIR must name the source tree"
#endif

#define MAX_FILES 8
#define MAX_LINES 64

/* One case, pointing into the text of its .test file (owned by main). */
struct tcase {
	const char *file;           /* the .test file's name */
	int line;                   /* where its `# name` line is */
	char name[200];
	char xfail[300];            /* why it is expected to fail, or "" */
	char *argv[16];             /* sys.argv[1:], owned */
	size_t nargv;
	char *env[16];              /* `# env:` KEY=VALUE words, owned; with
	                               any, the environment is known to be them */
	size_t nenv;
	int env_partial;            /* `# launcher-env:` words instead: those set,
	                               any other variable maybe */
	int machine;                /* `# machine:` word parsed, or 0 (not named) */
	buf_t src;                  /* the snippet, with its #%% markers */
	char *expect[MAX_LINES];    /* owned */
	int expect_line[MAX_LINES];
	size_t nexpect;
};

/* ------------------------------------------------------------------ rendering */

/* Python's repr() of a float: the shortest digits that read back, in
 * fixed notation for exponents -4..15, else d.ddde+XX. */
static void render_float(buf_t *b, double d)
{
	char tmp[64], digits[32];
	int p, exp, nd = 0, i;
	const char *s;

	if (isnan(d)) {
		buf_addstr(b, "nan");
		return;
	}
	if (isinf(d)) {
		buf_addstr(b, d < 0 ? "-inf" : "inf");
		return;
	}
	for (p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof tmp, "%.*e", p - 1, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	s = tmp;
	if (*s == '-') {
		buf_addch(b, '-');
		s++;
	}
	for (; *s && *s != 'e'; s++)
		if (*s != '.')
			digits[nd++] = *s;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	exp = atoi(s + 1);
	if (exp < -4 || exp >= 16) {
		buf_addch(b, digits[0]);
		if (nd > 1) {
			buf_addch(b, '.');
			buf_add(b, digits + 1, (size_t)nd - 1);
		}
		buf_addf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		buf_addstr(b, "0.");
		for (i = -1; i > exp; i--)
			buf_addch(b, '0');
		buf_add(b, digits, (size_t)nd);
	} else {
		for (i = 0; i <= exp; i++)
			buf_addch(b, i < nd ? digits[i] : '0');
		buf_addch(b, '.');
		if (nd > exp + 1)
			buf_add(b, digits + exp + 1, (size_t)(nd - exp - 1));
		else
			buf_addch(b, '0');
	}
}

/* Python's repr() of a str (ASCII escapes; other bytes as they are). */
static void render_str(buf_t *b, const char *s, size_t n)
{
	char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';
	size_t i;

	buf_addch(b, q);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == (unsigned char)q || c == '\\')
			buf_addf(b, "\\%c", c);
		else if (c == '\n')
			buf_addstr(b, "\\n");
		else if (c == '\t')
			buf_addstr(b, "\\t");
		else if (c == '\r')
			buf_addstr(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, (char)c);
	}
	buf_addch(b, q);
}

static void render(buf_t *b, const value_t *v, int depth);

static void render_seq(buf_t *b, const value_t *v, int depth)
{
	const struct vseq *s = v->u.seq;
	size_t i;

	buf_addch(b, v->k == VK_TUPLE ? '(' : '[');
	for (i = 0; i < s->n; i++) {
		if (i)
			buf_addstr(b, ", ");
		render(b, s->items[i], depth + 1);
	}
	if (s->unk_reason)
		buf_addstr(b, s->n ? ", ...?" : "...?");
	else if (v->k == VK_TUPLE && s->n == 1)
		buf_addch(b, ',');
	buf_addch(b, v->k == VK_TUPLE ? ')' : ']');
}

static const char *inst_name(const struct vinst *m)
{
	return m->cls ? m->cls->name : m->ext ? m->ext : "?";
}

/* A value as the expectations write it (tests/interp/README). */
static void render(buf_t *b, const value_t *v, int depth)
{
	size_t i;

	if (!v) {
		buf_addstr(b, "<unbound>");
		return;
	}
	if (depth > 12) {
		buf_addstr(b, "...");
		return;
	}
	switch (v->k) {
	case VK_UNKNOWN: buf_addstr(b, "unknown"); break;
	case VK_NONE: buf_addstr(b, "None"); break;
	case VK_BOOL: buf_addstr(b, v->u.b ? "True" : "False"); break;
	case VK_INT: buf_addf(b, "%lld", v->u.i); break;
	case VK_FLOAT: render_float(b, v->u.f); break;
	case VK_STR: render_str(b, v->u.str.s, v->u.str.len); break;
	case VK_TUPLE: case VK_LIST: render_seq(b, v, depth); break;
	case VK_DICT:
		buf_addch(b, '{');
		for (i = 0; i < v->u.dict->n; i++) {
			if (i)
				buf_addstr(b, ", ");
			render(b, v->u.dict->keys[i], depth + 1);
			buf_addstr(b, ": ");
			render(b, v->u.dict->vals[i], depth + 1);
		}
		buf_addch(b, '}');
		break;
	case VK_FUNC: buf_addf(b, "<function %s>", v->u.fn->qualname); break;
	case VK_BOUND:
		if (v->u.bound.fn && v->u.bound.fn->k == VK_FUNC)
			buf_addf(b, "<bound method %s>", v->u.bound.fn->u.fn->qualname);
		else
			buf_addstr(b, "<bound method>");
		break;
	case VK_CLASS: buf_addf(b, "<class '%s'>", v->u.cls->qualname); break;
	case VK_INST:
		buf_addf(b, "<%s %s>", inst_name(v->u.inst), v->u.inst->mod == VM_NONE ? "object" : "module");
		break;
	case VK_EXT: buf_addf(b, "<ext %s>", v->u.ext); break;
	case VK_NS: buf_addf(b, "<module '%s'>", v->u.ns->file->path); break;
	case VK_TENSOR:
		buf_addstr(b, "tensor");
		if (v->shape) {
			buf_addch(b, '[');
			for (i = 0; i < v->shape->nd; i++) {
				if (i)
					buf_addstr(b, ", ");
				if (v->shape->n[i] >= 0)
					buf_addf(b, "%lld", v->shape->n[i]);
				else
					buf_addstr(b, v->shape->sym[i] ? v->shape->sym[i] : "?");
			}
			buf_addch(b, ']');
		}
		break;
	case VK_BUILTIN: buf_addstr(b, "<builtin>"); break;
	case VK_RANGE:
		if (v->u.range.step == 1)
			buf_addf(b, "range(%lld, %lld)", v->u.range.start, v->u.range.stop);
		else
			buf_addf(b, "range(%lld, %lld, %lld)", v->u.range.start, v->u.range.stop, v->u.range.step);
		break;
	case VK_SLICE:
		buf_addstr(b, "slice(");
		render(b, v->u.slice.lo, depth + 1);
		buf_addstr(b, ", ");
		render(b, v->u.slice.hi, depth + 1);
		buf_addstr(b, ", ");
		render(b, v->u.slice.step, depth + 1);
		buf_addch(b, ')');
		break;
	}
}

/* ------------------------------------------------------------------ what the snippet bound */

/* NAME or NAME.attr.attr: through the module's globals, then instance
 * attributes (and submodules), class namespaces, dicts and modules. */
static const value_t *lookup_path(const struct vdict *globals, const char *path)
{
	char part[128];
	const value_t *v = NULL;
	const char *p = path;
	int first = 1;

	while (*p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof part)
			return NULL;
		memcpy(part, p, n);
		part[n] = 0;
		p += n + (p[n] == '.');
		if (first) {
			v = vdict_gets(globals, part);
			first = 0;
		} else if (!v) {
			return NULL;
		} else if (v->k == VK_INST) {
			const value_t *a = vdict_gets(v->u.inst->attrs, part);

			if (!a && vinst_child(v->u.inst, part))
				return NULL;   /* a submodule: not a value of its own */
			v = a;
		} else if (v->k == VK_CLASS) {
			v = vdict_gets(v->u.cls->ns, part);
		} else if (v->k == VK_DICT) {
			v = vdict_gets(v->u.dict, part);
		} else if (v->k == VK_NS) {
			v = vdict_gets(v->u.ns->dict, part);
		} else {
			return NULL;
		}
	}
	return v;
}

static const char *fev_kind_name(const struct fev *e)
{
	return e->kind == FEV_OP ? "op" : e->kind == FEV_MODULE ? "module" : "call";
}

/* Forward events: "op torch.relu", "module Linear", "call Block.f[...]",
 * with "*N" (or "*?") when the event repeats, joined by "; ". */
static void render_events(buf_t *b, const struct fev *ev, size_t n, int depth)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct fev *e = &ev[i];

		if (i)
			buf_addstr(b, "; ");
		buf_addf(b, "%s ", fev_kind_name(e));
		if (e->kind == FEV_OP)
			buf_addstr(b, e->op ? e->op : "?");
		else if (e->kind == FEV_MODULE)
			buf_addstr(b, e->inst ? interp_class_name(e->inst) : "?");
		else
			buf_addstr(b, e->func ? e->func : "?");
		if (e->repeat == -1)
			buf_addstr(b, "*?");
		else if (e->repeat != 1)
			buf_addf(b, "*%lld", e->repeat);
		if (e->kind == FEV_FUNCTION && depth < 8) {
			buf_addch(b, '[');
			render_events(b, e->children, e->nchildren, depth + 1);
			buf_addch(b, ']');
		}
	}
}

static const char *const sev_names[] = {
	[SEV_SYNC] = "sync", [SEV_H2D] = "h2d", [SEV_D2H] = "d2h",
	[SEV_COLLECTIVE] = "collective", [SEV_LOADER] = "loader", [SEV_LOADER_ITER] = "loader_iter",
	[SEV_MODEL_CALL] = "model_call", [SEV_BACKWARD] = "backward", [SEV_OPT_STEP] = "opt_step",
	[SEV_ZERO_GRAD] = "zero_grad", [SEV_COMPILE] = "compile", [SEV_WRAP] = "wrap",
	[SEV_CHECKPOINT_ACT] = "checkpoint_act", [SEV_SAVE] = "save", [SEV_LOG] = "log",
	[SEV_GRAD_SYNC_TOGGLE] = "grad_sync_toggle", [SEV_EMA] = "ema", [SEV_TOKEN_CHOICE] = "token_choice",
};

static void render_sched(buf_t *b, struct interp *in)
{
	size_t n, i;
	const struct sched_ev *s = interp_sched(in, &n);

	if (!n)
		buf_addstr(b, "none");
	for (i = 0; i < n; i++) {
		unsigned k = (unsigned)s[i].kind;

		if (i)
			buf_addch(b, ' ');
		buf_addstr(b, k < sizeof sev_names / sizeof sev_names[0] && sev_names[k] ? sev_names[k] : "?");
	}
}

/* ------------------------------------------------------------------ expectations */

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

/* Checks one expectation line; 1 when it holds.  *got receives what was
 * found, for the diagnostics. */
static int check_line(struct interp *in, const char *line, buf_t *got)
{
	const struct vdict *g = interp_globals(in);
	char lhs[256];
	const char *eq, *want;
	size_t n;

	if (!strncmp(line, "note:", 5)) {
		size_t nn, i;
		const struct interp_note *nt = interp_notes(in, &nn);
		const char *t = line + 5;

		while (*t == ' ')
			t++;
		for (i = 0; i < nn; i++) {
			if ((nt[i].what && strstr(nt[i].what, t)) || (nt[i].reason && strstr(nt[i].reason, t)))
				return 1;
		}
		for (i = 0; i < nn; i++)
			buf_addf(got, "%s[%s: %s]", i ? " " : "", nt[i].what ? nt[i].what : "",
			         nt[i].reason ? nt[i].reason : "");
		if (!nn)
			buf_addstr(got, "no notes");
		return 0;
	}
	eq = strstr(line, " = ");
	if (!eq || (n = (size_t)(eq - line)) >= sizeof lhs) {
		buf_addstr(got, "a malformed expectation (NAME = VALUE, or note: TEXT)");
		return 0;
	}
	memcpy(lhs, line, n);
	lhs[n] = 0;
	want = eq + 3;
	if (!strcmp(lhs, "sched")) {
		render_sched(got, in);
	} else if (!strncmp(lhs, "mro ", 4)) {
		const value_t *c = g ? lookup_path(g, lhs + 4) : NULL;
		size_t i;

		if (!c || c->k != VK_CLASS) {
			buf_addstr(got, "not a class");
		} else {
			for (i = 0; i < c->u.cls->nmro; i++)
				buf_addf(got, "%s%s", i ? " " : "", c->u.cls->mro[i]->name);
		}
	} else if (!strncmp(lhs, "len ", 4)) {
		const value_t *m = g ? lookup_path(g, lhs + 4) : NULL;

		if (!m || m->k != VK_INST || m->u.inst->mod == VM_NONE)
			buf_addstr(got, "not a module instance");
		else
			buf_addf(got, "%zu", m->u.inst->nchildren);
	} else if (!strncmp(lhs, "forward ", 8)) {
		const value_t *m = g ? lookup_path(g, lhs + 8) : NULL;

		if (!m || m->k != VK_INST || m->u.inst->mod == VM_NONE) {
			buf_addstr(got, "not a module instance");
		} else {
			struct fseq seq = { NULL, 0, 0 };
			value_t *arg = v_unknown(interp_arena(in), "x", "the test's input");

			(void)interp_forward(in, m->u.inst, &arg, 1, NULL, &seq);
			render_events(got, seq.ev, seq.n, 0);   /* the events are in the arena */
		}
	} else {
		const value_t *v = g ? lookup_path(g, lhs) : NULL;

		render(got, v, 0);
		if (v && v->k == VK_UNKNOWN && !strncmp(want, "unknown: ", 9)) {
			buf_addf(got, ": %s", v->reason ? v->reason : "(no reason)");
			return v->reason && strstr(v->reason, want + 9) != NULL;
		}
	}
	return !strcmp(got->buf, want);
}

/* ------------------------------------------------------------------ running a case */

struct piece {
	char path[64];
	const char *src;
	size_t len;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct piece *)a)->path, ((const struct piece *)b)->path);
}

/* The snippet's files: main.py, then one per `#%% path.py` line. */
static size_t split_files(const char *s, struct piece *out)
{
	size_t np = 1;
	const char *p = s;

	snprintf(out[0].path, sizeof out[0].path, "main.py");
	out[0].src = s;
	for (;;) {
		const char *m = !strncmp(p, "#%% ", 4) ? p : strstr(p, "\n#%% ");

		if (!m)
			break;
		if (m != p)
			m++;
		out[np - 1].len = (size_t)(m - out[np - 1].src);
		if (np == MAX_FILES)
			return np;
		{
			const char *e = strchr(m, '\n');
			size_t n = e ? (size_t)(e - m - 4) : strlen(m + 4);

			if (n >= sizeof out[np].path)
				n = sizeof out[np].path - 1;
			memcpy(out[np].path, m + 4, n);
			out[np].path[n] = 0;
			out[np].src = e ? e + 1 : m + 4 + n;
			p = out[np].src;
		}
		np++;
	}
	out[np - 1].len = strlen(out[np - 1].src);
	return np;
}

static const struct catalog *the_cat;
static int dump_globals;

/* A case's text files (a `#%% PATH` whose name does not end in .py): not
 * parsed, read by open() through the interpreter's text loader. */
struct texts {
	struct piece *p;
	size_t n;
};

static int is_py(const char *path)
{
	size_t n = strlen(path);

	return n >= 3 && !strcmp(path + n - 3, ".py");
}

static char *case_text(void *ctx, const char *path, const char *entry_dir, size_t *len, const char **why)
{
	const struct texts *t = ctx;
	size_t i;

	(void)entry_dir;     /* main.py is at the top */
	for (i = 0; i < t->n; i++)
		if (!is_py(t->p[i].path) && !strcmp(t->p[i].path, path)) {
			char *r = xmalloc(t->p[i].len + 1);

			memcpy(r, t->p[i].src, t->p[i].len);
			r[t->p[i].len] = 0;
			*len = t->p[i].len;
			return r;
		}
	*why = "the file is not in the repository at this commit";
	return NULL;
}

/* What the case's repository holds at path (interp_tree_fn): its files
 * (main.py and the `#%% PATH` ones, sorted by path) and the directories
 * above them; "" or "." is the root.  Paths are compared as written
 * (a leading "./" dropped), as the cases write them. */
static int case_tree(void *ctx, const char *path, const char *entry_dir, char ***names, size_t *nnames)
{
	const struct texts *t = ctx;
	size_t i, plen, n = 0;
	char prefix[128], **out = NULL;
	int kind = INTERP_TREE_NONE;

	(void)entry_dir;     /* main.py is at the top */
	if (names)
		*names = NULL, *nnames = 0;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strcmp(path, "."))
		path = "";
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->p[i].path, path))
			return INTERP_TREE_FILE;
	snprintf(prefix, sizeof prefix, "%s%s", path, *path ? "/" : "");
	plen = strlen(prefix);
	for (i = 0; i < t->n; i++) {
		const char *rest = t->p[i].path + plen, *sl;
		size_t len;

		if (strncmp(t->p[i].path, prefix, plen))
			continue;
		kind = INTERP_TREE_DIR;
		sl = strchr(rest, '/');
		len = sl ? (size_t)(sl - rest) : strlen(rest);
		if (!names || (n && strlen(out[n - 1]) == len && !strncmp(out[n - 1], rest, len)))
			continue;
		out = xrealloc(out, (n + 1) * sizeof *out);
		out[n++] = xstrndup(rest, len);
	}
	if (names) {
		*names = out;
		*nnames = n;
	}
	return kind;
}

/* pyhelpers/ecg_config.py, loaded on the first YAML/TOML file a case
 * reads (owned; released before pyrt_fini) */
static PyObject *config_helper;

/* A case's configuration file (json.load, yaml.safe_load, OmegaConf.load
 * ...): its `#%% PATH` text read as load.c reads a job's -- JSON by cJSON,
 * YAML and TOML by pyhelpers/ecg_config.py's load_as_json.  NULL with *why
 * when the case has no such file or it does not parse. */
static cJSON *case_config(void *ctx, const char *path, const char *entry_dir, const char **why)
{
	size_t len = 0, n;
	char *data = case_text(ctx, path, entry_dir, &len, why);
	PyObject *r;
	cJSON *j = NULL;

	if (!data)
		return NULL;
	n = strlen(path);
	if (n >= 5 && !strcmp(path + n - 5, ".json")) {
		j = cJSON_ParseWithLength(data, len);
		free(data);
		if (!j)
			*why = "the file is not valid JSON";
		return j;
	}
	if (!config_helper && helpers_load(ECG_SRCDIR "/pyhelpers", "ecg_config", &config_helper) < 0) {
		err_clear();
		free(data);
		*why = "pyhelpers/ecg_config.py did not load";
		return NULL;
	}
	r = PyObject_CallMethod(config_helper, "load_as_json", "sy#", path, data, (Py_ssize_t)len);
	free(data);
	if (r && PyUnicode_Check(r) && PyUnicode_AsUTF8(r))
		j = cJSON_Parse(PyUnicode_AsUTF8(r));
	PyErr_Clear();
	Py_XDECREF(r);
	if (!j)
		*why = "the configuration file does not parse";
	return j;
}

/* Runs one case; returns 1 when every expectation holds. */
static int run_case(struct tcase *c, buf_t *why)
{
	struct piece pieces[MAX_FILES];
	struct prog prog;
	struct interp *in;
	struct sfile *entry;
	size_t np, i;
	int pass = 1;
	struct texts texts;

	np = split_files(c->src.buf, pieces);
	qsort(pieces, np, sizeof *pieces, by_path);
	texts.p = pieces;
	texts.n = np;
	prog_init(&prog);
	for (i = 0; i < np; i++) {
		char *src;
		PyObject *mod = NULL;
		pyast_error pe = { 0, 0, NULL };
		struct ast_arena *arena;
		struct ast_Module *cmod = NULL;
		int rc;

		if (!is_py(pieces[i].path))
			continue;
		src = xmalloc(pieces[i].len + 1);
		memcpy(src, pieces[i].src, pieces[i].len);
		src[pieces[i].len] = 0;
		rc = pyast_parse(pieces[i].path, src, pieces[i].len, &mod, &pe);
		if (rc != 0) {
			buf_addf(why, "%s does not parse: line %ld: %s", pieces[i].path, pe.line,
			         rc < 0 ? err_last() : pe.message);
			pyast_error_clear(&pe);
			err_clear();
			free(src);
			prog_free(&prog);
			return 0;
		}
		arena = ast_arena_new();
		if (astconv_module(mod, arena, &cmod) < 0) {
			buf_addf(why, "%s: %s", pieces[i].path, err_last());
			err_clear();
			Py_DECREF(mod);
			ast_arena_free(arena);
			free(src);
			prog_free(&prog);
			return 0;
		}
		Py_DECREF(mod);
		prog_add(&prog, pieces[i].path, src, pieces[i].len, arena, cmod);
	}
	entry = prog_file(&prog, "main.py");
	in = interp_new(&prog, the_cat);
	interp_set_argv(in, (const char *const *)c->argv, c->nargv);
	if (c->nenv)
		interp_set_env(in, (const char *const *)c->env, c->nenv, c->env_partial);
	if (c->machine > 0)
		interp_set_machine(in, (enum interp_machine)c->machine);
	interp_set_text_loader(in, case_text, &texts);
	interp_set_loader(in, case_config, &texts);
	interp_set_tree(in, case_tree, &texts);
	interp_run_entry(in, entry);
	if (dump_globals && interp_globals(in)) {
		const struct vdict *g = interp_globals(in);

		for (i = 0; i < g->n; i++) {
			buf_t b;

			buf_init(&b);
			render(&b, g->keys[i], 0);
			buf_addstr(&b, " = ");
			render(&b, g->vals[i], 0);
			if (g->vals[i]->k == VK_UNKNOWN)
				buf_addf(&b, ": %s", g->vals[i]->reason ? g->vals[i]->reason : "");
			diag("  %s", b.buf);
			buf_free(&b);
		}
	}
	for (i = 0; i < c->nexpect; i++) {
		buf_t got;

		buf_init(&got);
		if (!check_line(in, c->expect[i], &got)) {
			buf_addf(why, "%s%s:%d: expected `%s`, got `%s`", pass ? "" : "\n", c->file,
			         c->expect_line[i], c->expect[i], got.buf);
			pass = 0;
		}
		buf_free(&got);
	}
	interp_free(in);
	prog_free(&prog);
	return pass;
}

/* ------------------------------------------------------------------ reading .test files */

static void case_free(struct tcase *c)
{
	size_t i;

	for (i = 0; i < c->nargv; i++)
		free(c->argv[i]);
	for (i = 0; i < c->nenv; i++)
		free(c->env[i]);
	for (i = 0; i < c->nexpect; i++)
		free(c->expect[i]);
	buf_free(&c->src);
	memset(c, 0, sizeof *c);
}

static char *read_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	buf_t b;
	char chunk[4096];
	size_t n;

	if (!fp)
		return NULL;
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	return buf_detach(&b);
}

static int passed, failed, xfailed, xpassed, malformed;

static void report(struct tcase *c, const char *filter)
{
	buf_t why;
	int pass;
	const char *base = strrchr(c->file, '/') ? strrchr(c->file, '/') + 1 : c->file;

	if (filter && !strstr(c->name, filter))
		return;
	buf_init(&why);
	if (strchr(c->name, '#') || strchr(c->xfail, '#')) {
		/* TAP would read what follows as a directive */
		char *h;

		buf_addf(&why, "%s:%d: a name or xfail reason with '#'", c->file, c->line);
		while ((h = strchr(c->name, '#')))
			*h = '?';
		pass = 0;
		c->xfail[0] = 0;
	} else if (!c->nexpect) {
		buf_addf(&why, "%s:%d: no expectations", c->file, c->line);
		pass = 0;
		c->xfail[0] = 0;
	} else {
		pass = run_case(c, &why);
	}
	if (c->xfail[0]) {
		/* TAP TODO: not ok is an expected failure, ok an unexpected pass */
		tap_n++;
		printf("%sok %d - %s: %s # TODO %s\n", pass ? "" : "not ", tap_n, base, c->name, c->xfail);
		if (pass) {
			xpassed++;
			tap_failed++;
			diag("%s:%d: passes now: remove its `# xfail:` line", c->file, c->line);
		} else {
			xfailed++;
		}
	} else {
		ok(pass, "%s: %s", base, c->name);
		pass ? passed++ : failed++;
	}
	if (!pass) {
		char *save = NULL, *l;

		for (l = strtok_r(why.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			diag("%s", l);
	}
	fflush(stdout);
	buf_free(&why);
}

/* Reads the cases of one file and runs them as they are read. */
static void run_file(const char *path, const char *filter)
{
	char *text = read_file(path), *p, *nl;
	struct tcase c;
	enum { OUT, HEAD, SRC, EXPECT } st = OUT;
	int lineno = 0;

	if (!text) {
		ok(0, "%s: cannot read", path);
		malformed++;
		return;
	}
	memset(&c, 0, sizeof c);
	for (p = text; p && *p; p = nl) {
		char *line = p;

		nl = strchr(p, '\n');
		if (nl)
			*nl++ = 0;
		lineno++;
		switch (st) {
		case OUT:
			if (!*trim(line) || !strncmp(line, "##", 2))
				break;
			if (line[0] != '#') {
				ok(0, "%s:%d: a case starts with `# name`", path, lineno);
				malformed++;
				break;
			}
			buf_init(&c.src);
			c.file = path;
			c.line = lineno;
			snprintf(c.name, sizeof c.name, "%s", trim(line + 1));
			st = HEAD;
			break;
		case HEAD:
			if (!strncmp(line, "# xfail:", 8)) {
				snprintf(c.xfail, sizeof c.xfail, "%s", trim(line + 8));
				break;
			}
			if (!strncmp(line, "# argv:", 7)) {
				char *save = NULL, *w;

				for (w = strtok_r(line + 7, " \t", &save); w && c.nargv < 16; w = strtok_r(NULL, " \t", &save))
					c.argv[c.nargv++] = xstrdup(w);
				break;
			}
			if (!strncmp(line, "# machine:", 10)) {
				c.machine = interp_machine_parse(trim(line + 10));
				break;
			}
			if (!strncmp(line, "# env:", 6) || !strncmp(line, "# launcher-env:", 15)) {
				char *save = NULL, *w;
				int skip = line[2] == 'l' ? 15 : 6;

				c.env_partial = skip == 15;
				for (w = strtok_r(line + skip, " \t", &save); w && c.nenv < 16; w = strtok_r(NULL, " \t", &save))
					c.env[c.nenv++] = xstrdup(w);
				break;
			}
			st = SRC;
			/* fall through */
		case SRC:
			if (!strcmp(trim(line), "---") && line[0] == '-') {
				st = EXPECT;
				break;
			}
			buf_addstr(&c.src, line);
			buf_addch(&c.src, '\n');
			break;
		case EXPECT:
			if (!*trim(line)) {
				report(&c, filter);
				case_free(&c);
				st = OUT;
				break;
			}
			if (c.nexpect < MAX_LINES) {
				c.expect_line[c.nexpect] = lineno;
				c.expect[c.nexpect++] = xstrdup(trim(line));
			}
			break;
		}
	}
	if (st == EXPECT) {
		report(&c, filter);
	} else if (st != OUT) {
		ok(0, "%s:%d: case `%s` has no `---` line", path, c.line, c.name);
		malformed++;
	}
	case_free(&c);
	free(text);
}

int main(int argc, char **argv)
{
	struct catalog *cat = NULL;
	const char *filter = getenv("ECG_INTERP_CASE");
	char **files = NULL;
	size_t nfiles = 0, i;
	struct timespec t0, t1;

	dump_globals = getenv("ECG_INTERP_DUMP") != NULL;
	if (pyrt_init(NULL) < 0 || catalog_load(ECG_SRCDIR "/catalog", &cat) < 0) {
		printf("Bail out! cannot start: %s\n", err_last());
		return 1;
	}
	the_cat = cat;
	if (argc > 1) {
		files = xmalloc((size_t)argc * sizeof *files);
		for (i = 1; i < (size_t)argc; i++)
			files[nfiles++] = xstrdup(argv[i]);
	} else {
		glob_t gl;

		if (glob(ECG_SRCDIR "/tests/interp/*.test", 0, NULL, &gl) == 0) {
			files = xmalloc(gl.gl_pathc * sizeof *files);
			for (i = 0; i < gl.gl_pathc; i++)
				files[nfiles++] = xstrdup(gl.gl_pathv[i]);
		}
		globfree(&gl);
		if (!nfiles)
			ok(0, "no tests/interp/NAME.test files");
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nfiles; i++) {
		run_file(files[i], filter);
		free(files[i]);
	}
	free(files);
	{       /* after the cases, which keep their numbers */
		const char *bad = NULL;

		ok(interp_natives_check(&bad) == 0, "every table of natives is sorted by name%s%s",
		   bad ? ": not " : "", bad ? bad : "");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	diag("%d passed, %d failed, %d expected failures, %d unexpected passes, %d malformed; %.0f ms",
	     passed, failed, xfailed, xpassed, malformed,
	     (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	catalog_free(cat);
	astconv_fini();
	Py_XDECREF(config_helper);
	config_helper = NULL;
	pyrt_fini();
	return done();
}
