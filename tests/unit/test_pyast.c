/* test_pyast.c - the embedded interpreter and the parser entry point.
 *
 * Runs the real libpython: isolation (environment ignored, nothing of the
 * current directory on sys.path, no site/ast imported), parse results and
 * error positions as CPython's own compile() reports them, deep nesting,
 * and reference-count discipline over many parses.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"
#include "tap.h"

#define DEEP 100000
#define NOLEN ((size_t)-1)

static char tmpdir[] = "/tmp/ecg-test-pyast-XXXXXX";

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* Parse a C string; returns pyast_parse()'s result. */
static int parse(const char *src, size_t len, PyObject **out, pyast_error *e)
{
	return pyast_parse("t.py", src, len, out, e);
}

static int parse_str(const char *src, PyObject **out, pyast_error *e)
{
	return parse(src, strlen(src), out, e);
}

static const char *type_name(PyObject *o)
{
	return o ? Py_TYPE(o)->tp_name : "(null)";
}

/* Integer attribute of a borrowed object, -1000 on failure. */
static long attr_long(PyObject *o, const char *name)
{
	PyObject *v = PyObject_GetAttrString(o, name);
	long n = -1000;

	if (v && PyLong_Check(v))
		n = PyLong_AsLong(v);
	Py_XDECREF(v);
	PyErr_Clear();
	return n;
}

static int sys_modules_has(const char *name)
{
	PyObject *mods = PySys_GetObject("modules"); /* borrowed */

	return mods && PyDict_GetItemString(mods, name) != NULL;
}

static int sys_path_has(const char *entry)
{
	PyObject *path = PySys_GetObject("path"); /* borrowed */
	Py_ssize_t i;

	if (!path || !PyList_Check(path))
		return -1;
	for (i = 0; i < PyList_GET_SIZE(path); i++) {
		PyObject *it = PyList_GET_ITEM(path, i); /* borrowed */
		const char *s = PyUnicode_Check(it) ? PyUnicode_AsUTF8(it) : NULL;

		if (s && strcmp(s, entry) == 0)
			return 1;
	}
	PyErr_Clear();
	return 0;
}

/* sys.getallocatedblocks() after a full collection, -1 on failure. */
static long allocated_blocks(void)
{
	PyObject *fn = PySys_GetObject("getallocatedblocks"); /* borrowed */
	PyObject *n = NULL;
	long res = -1;

	PyGC_Collect();
	if (fn)
		n = PyObject_CallNoArgs(fn);
	if (n && PyLong_Check(n))
		res = PyLong_AsLong(n);
	Py_XDECREF(n);
	PyErr_Clear();
	return res;
}

static void test_isolation_flags(void)
{
	PyObject *flags = PySys_GetObject("flags"); /* borrowed */
	PyObject *dwb = PySys_GetObject("dont_write_bytecode"); /* borrowed */
	char cwd[4096];

	ok(flags && attr_long(flags, "isolated") == 1, "sys.flags.isolated == 1");
	ok(flags && attr_long(flags, "no_site") == 1, "sys.flags.no_site == 1");
	ok(flags && attr_long(flags, "ignore_environment") == 1,
	   "sys.flags.ignore_environment == 1");
	ok(dwb == Py_True, "sys.dont_write_bytecode is True");
	ok(sys_path_has("") == 0, "'' not on sys.path");
	ok(sys_path_has(".") == 0, "'.' not on sys.path");
	ok(getcwd(cwd, sizeof cwd) && sys_path_has(cwd) == 0,
	   "the current directory (%s) is not on sys.path", cwd);
	ok(sys_path_has(tmpdir) == 0, "the PYTHONPATH directory is not on sys.path");
	ok(!PyGC_IsEnabled(), "the cyclic GC is off");
	ok(!sys_modules_has("site"), "site not imported");
	ok(!PyErr_Occurred(), "no exception pending after init");
}

static void test_version(void)
{
	const char *v = pyrt_version();
	int maj = -1, min = -1, mic = -1, n = 0;

	ok(sscanf(v, "%d.%d.%d%n", &maj, &min, &mic, &n) == 3 && maj == 3 &&
	   min == PY_MINOR_VERSION && mic >= 0,
	   "pyrt_version() \"%s\" looks like 3.%d.N", v, PY_MINOR_VERSION);
	ok(v[n] == 0 || (v[n] >= 'a' && v[n] <= 'z') || v[n] == '+',
	   "pyrt_version() has nothing after the version");
	ok(pyrt_version() == v, "pyrt_version() is static storage");
	ok(pyrt_helpers_dir() == NULL, "pyrt_helpers_dir() is NULL when none given");
}

static void test_valid(void)
{
	PyObject *mod = NULL, *body = NULL;
	pyast_error e;
	int rc;

	rc = parse_str("import os\n\ndef f(x):\n    return x + 1\n", &mod, &e);
	ok(rc == 0 && mod, "a valid module parses (rc %d)", rc);
	ok(strcmp(type_name(mod), "Module") == 0, "its type is Module (%s)",
	   type_name(mod));
	if (mod)
		body = PyObject_GetAttrString(mod, "body");
	ok(body && PyList_Check(body) && PyList_GET_SIZE(body) == 2,
	   "Module.body has 2 statements");
	ok(e.message == NULL && e.line == 0, "no error filled on success");
	Py_XDECREF(body);
	Py_XDECREF(mod);
	PyErr_Clear();

	mod = NULL;
	rc = parse("", 0, &mod, &e);
	ok(rc == 0 && strcmp(type_name(mod), "Module") == 0, "an empty file parses");
	Py_XDECREF(mod);
}

/* One expected failure: rc 1, line, col, message (exact unless NULL),
 * and no exception left behind.  len (size_t)-1: strlen(src). */
static void expect_error(const char *what, const char *src, size_t len,
                         long line, long col, const char *msg,
                         const char *contains)
{
	PyObject *mod = NULL;
	pyast_error e;
	int rc;

	if (len == (size_t)-1)
		len = strlen(src);
	rc = parse(src, len, &mod, &e);
	ok(rc == 1 && mod == NULL, "%s: rc 1 (got %d)", what, rc);
	ok(e.line == line && e.col == col, "%s: line %ld col %ld (got %ld:%ld)",
	   what, line, col, e.line, e.col);
	if (msg)
		ok(e.message && strcmp(e.message, msg) == 0,
		   "%s: message \"%s\" (got \"%s\")", what, msg,
		   e.message ? e.message : "(null)");
	if (contains)
		ok(e.message && strstr(e.message, contains),
		   "%s: message mentions \"%s\" (got \"%s\")", what, contains,
		   e.message ? e.message : "(null)");
	ok(!PyErr_Occurred(), "%s: no exception pending", what);
	pyast_error_clear(&e);
	ok(e.message == NULL && e.line == 0 && e.col == 0,
	   "%s: pyast_error_clear() resets", what);
	Py_XDECREF(mod);
	PyErr_Clear();
}

static void test_errors(void)
{
	static const char nul[] = "x = 1\ny = '\0'\n";
	static const char nul_cr[] = "a = 1\r\nb = 2\rc\0";
	static const char nul_utf8[] = "s = '\xc3\xa9\xc3\xa9'\0";

	/* Positions as /usr/bin/python3 (3.11.2) compile() reports them. */
	expect_error("unclosed paren", "x = (1,\n", NOLEN, 1, 5,
	             "'(' was never closed", NULL);
	expect_error("def f(:", "def f(:\n", NOLEN, 1, 7, "invalid syntax", NULL);
	expect_error("IndentationError", "if x:\npass\n", NOLEN, 2, 1,
	             "expected an indented block after 'if' statement on line 1",
	             NULL);
	expect_error("TabError", "if x:\n\tif y:\n        pass\n", NOLEN, 3, 1,
	             "inconsistent use of tabs and spaces in indentation", NULL);
	expect_error("NUL byte", nul, sizeof nul - 1, 2, 6,
	             "source contains a NUL byte", NULL);
	expect_error("NUL byte after CR line ends", nul_cr, sizeof nul_cr - 1, 3, 2,
	             "source contains a NUL byte", NULL);
	expect_error("NUL byte after UTF-8", nul_utf8, sizeof nul_utf8 - 1, 1, 9,
	             "source contains a NUL byte", NULL);
	expect_error("undecodable byte, no cookie", "x = '\xff'\n", NOLEN, 1, 8,
	             NULL, "utf-8");
	expect_error("unknown coding cookie", "# coding: foo\nx = 1\n", NOLEN, 0, 0,
	             "unknown encoding: foo", NULL);
}

static void test_cookie(void)
{
	static const char src[] = "# -*- coding: latin-1 -*-\nx = '\xe9'\n";
	PyObject *mod = NULL, *body = NULL, *val = NULL, *cst = NULL;
	pyast_error e;
	int rc;

	rc = parse(src, sizeof src - 1, &mod, &e);
	ok(rc == 0, "a latin-1 file with a coding cookie parses (rc %d %s)", rc,
	   e.message ? e.message : "");
	if (mod && (body = PyObject_GetAttrString(mod, "body")) &&
	    PyList_Check(body) && PyList_GET_SIZE(body) == 1 &&
	    (val = PyObject_GetAttrString(PyList_GET_ITEM(body, 0), "value")))
		cst = PyObject_GetAttrString(val, "value");
	ok(cst && PyUnicode_Check(cst) && PyUnicode_GET_LENGTH(cst) == 1 &&
	   PyUnicode_READ_CHAR(cst, 0) == 0xe9,
	   "the \\xe9 byte decoded as U+00E9");
	Py_XDECREF(cst);
	Py_XDECREF(val);
	Py_XDECREF(body);
	Py_XDECREF(mod);
	pyast_error_clear(&e);
	PyErr_Clear();

	mod = NULL;
	rc = parse_str("\xef\xbb\xbfx = '\xc3\xa9'\n", &mod, &e);
	ok(rc == 0, "a UTF-8 file with a BOM parses");
	Py_XDECREF(mod);
	pyast_error_clear(&e);
}

static char *repeat(const char *head, const char *unit, size_t n,
                    const char *mid, const char *tail_unit)
{
	buf_t b;
	size_t i;

	buf_init(&b);
	buf_addstr(&b, head);
	for (i = 0; i < n; i++)
		buf_addstr(&b, unit);
	buf_addstr(&b, mid);
	if (tail_unit)
		for (i = 0; i < n; i++)
			buf_addstr(&b, tail_unit);
	buf_addch(&b, '\n');
	return buf_detach(&b);
}

static void test_deep(void)
{
	struct {
		const char *what, *head, *unit, *mid, *tail;
	} forms[] = {
		{ "((((1))))", "", "(", "1", ")" },
		{ "[[[[]]]]", "", "[", "", "]" },
		{ "{{{{}}}}", "", "{", "", "}" },
		{ "f(x=f(x=...))", "", "f(x=", "1", ")" },
		{ "----1", "", "-", "1", NULL },
		{ "~~~~1", "", "~", "1", NULL },
		{ "not not ... a", "", "not ", "a", NULL },
		{ "lambda: lambda: ...", "", "lambda:", "1", NULL },
		{ "a if b else ...", "", "a if b else ", "c", NULL },
		{ "a**a**...", "a", "**a", "", NULL },
		{ "a.b.b.b...", "a", ".b", "", NULL },
		{ "a[0][0]...", "a", "[0]", "", NULL },
		{ "a()()()...", "a", "()", "", NULL },
		{ "1+1+1...", "1", "+1", "", NULL },
		{ "x = x = ...", "", "x = ", "1", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char *src = repeat(forms[i].head, forms[i].unit, DEEP, forms[i].mid,
		                   forms[i].tail);
		PyObject *mod = NULL;
		pyast_error e;
		int rc;

		rc = parse_str(src, &mod, &e);
		diag("%d deep %s: rc %d, %ld:%ld %s", DEEP, forms[i].what, rc,
		     e.line, e.col, e.message ? e.message : "");
		if (strcmp(forms[i].what, "x = x = ...") == 0)
			ok(rc == 0, "%d deep %s: parses (chained assignment is flat)",
			   DEEP, forms[i].what);
		else
			ok(rc == 1 && e.message && *e.message,
			   "%d deep %s: a parse error, not a crash", DEEP,
			   forms[i].what);
		ok(!PyErr_Occurred(), "%d deep %s: no exception pending", DEEP,
		   forms[i].what);
		Py_XDECREF(mod);
		pyast_error_clear(&e);
		free(src);

		/* and the parser is still fine afterwards */
		mod = NULL;
		rc = parse_str("y = [(1, 2), {3: 4}]\n", &mod, &e);
		ok(rc == 0 && mod, "a normal parse after %s works", forms[i].what);
		Py_XDECREF(mod);
		pyast_error_clear(&e);
	}
}

static void test_soft_keywords(void)
{
	static const char *ok_src[] = {
		"match command:\n    case [x, y]:\n        pass\n    case _:\n        pass\n",
		"match = 1\nmatch(x)\ncase = 2\n_ = match[case]\n",
		"type = 3\nprint(type(x))\n",
#if PY_MINOR_VERSION >= 12
		"type X = int\n",
#endif
		"async def f():\n    async with a as b:\n        await b\n",
		"print(f'{x!r:>{width}}')\n",
		"x = 0in y\n", /* a SyntaxWarning in 3.11: not printed */
		"s = '\\d'\n", /* a DeprecationWarning: not printed */
	};
	size_t i;
	char *errpath = xasprintf("%s/stderr", tmpdir);
	int fd, saved;
	struct stat st;

	/* Anything the parser prints (warnings) would land on ecg's stderr. */
	fflush(stderr);
	saved = dup(2);
	fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	for (i = 0; i < sizeof ok_src / sizeof ok_src[0]; i++) {
		PyObject *mod = NULL;
		pyast_error e;
		int rc = parse_str(ok_src[i], &mod, &e);

		ok(rc == 0 && mod, "parses: %.*s (%s)", (int)strcspn(ok_src[i], "\n"),
		   ok_src[i], e.message ? e.message : "");
		Py_XDECREF(mod);
		pyast_error_clear(&e);
	}
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	ok(stat(errpath, &st) == 0 && st.st_size == 0,
	   "the parser printed nothing to stderr (%ld bytes)",
	   (long)(stat(errpath, &st) == 0 ? st.st_size : -1));
	unlink(errpath);
	free(errpath);
	ok(!PyErr_Occurred(), "no exception pending after the soft keywords");
}

/* No per-parse leak: the allocated block count after 200 parses is what it
 * was after the first. */
static void test_refcounts(void)
{
	buf_t b;
	PyObject *mod = NULL;
	pyast_error e;
	long first = 0, last;
	int i, rc, bad = 0;

	buf_init(&b);
	buf_addstr(&b, "import torch\nimport torch.nn as nn\n\n");
	for (i = 0; i < 40; i++)
		buf_addf(&b,
		         "class Block%d(nn.Module):\n"
		         "    def __init__(self, dim=%d):\n"
		         "        super().__init__()\n"
		         "        self.fc = nn.Linear(dim, dim * 4, bias=False)\n"
		         "\n",
		         i, 64 * (i + 1));
	ok(b.len > 4000, "generated a %zu-byte, 200-line source", b.len);

	for (i = 0; i < 200; i++) {
		mod = NULL;
		rc = parse(b.buf, b.len, &mod, &e);
		if (rc != 0 || !mod)
			bad++;
		Py_XDECREF(mod);
		pyast_error_clear(&e);
		if (i == 0)
			first = allocated_blocks();
	}
	last = allocated_blocks();
	ok(bad == 0, "200 parses succeeded");
	diag("allocated blocks: %ld after the first parse, %ld after 200", first,
	     last);
	ok(labs(last - first) <= 16, "no per-parse leak (%+ld blocks)",
	   last - first);

	/* The same for a failing parse.  The first SyntaxErrors fill some
	 * bounded interpreter cache (~170 blocks over the first few hundred,
	 * then flat for thousands of iterations), so the baseline is taken
	 * after 500. */
	for (i = 0; i < 1000; i++) {
		mod = NULL;
		parse_str("def f(:\n", &mod, &e);
		pyast_error_clear(&e);
		if (i == 499)
			first = allocated_blocks();
	}
	last = allocated_blocks();
	diag("allocated blocks: %ld after 500 failing parses, %ld after 1000",
	     first, last);
	ok(labs(last - first) <= 16, "no per-failure leak (%+ld blocks)",
	   last - first);
	buf_free(&b);

	ok(!sys_modules_has("torch"), "parsing 'import torch' imports nothing");
	ok(!sys_modules_has("ast"), "ast not imported");
	ok(!sys_modules_has("site"), "site not imported");
	ok(!PyErr_Occurred(), "no exception pending after the loops");
}

static void test_pyrt_error(void)
{
	PyErr_SetString(PyExc_ValueError, "boom");
	ok(pyrt_error("ctx") == -1, "pyrt_error returns -1");
	ok(strcmp(err_last(), "ctx: ValueError: boom") == 0,
	   "pyrt_error message (%s)", err_last());
	ok(err_code() == ECG_EXIT_INTERNAL, "pyrt_error class is internal");
	ok(!PyErr_Occurred(), "pyrt_error clears the exception");

	PyErr_SetNone(PyExc_KeyError);
	pyrt_error("ctx");
	ok(strcmp(err_last(), "ctx: KeyError") == 0,
	   "an exception with an empty str() gives its type (%s)", err_last());

	err_clear();
	ok(pyrt_error("ctx") == -1 &&
	   strcmp(err_last(), "ctx: unknown Python error") == 0,
	   "pyrt_error with nothing pending (%s)", err_last());
	err_clear();
}

int main(void)
{
	char *pp;
	PyObject *mod = NULL;
	pyast_error e;

	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp");
		return done();
	}
	/* Files that would show if the job's directory or PYTHONPATH were on
	 * sys.path or site ran. */
	write_file(tmpdir, "ast.py", "raise SystemExit(41)\n");
	write_file(tmpdir, "torch.py", "raise SystemExit(42)\n");
	write_file(tmpdir, "sitecustomize.py", "raise SystemExit(43)\n");
	write_file(tmpdir, "encodings.py", "raise SystemExit(44)\n");
	setenv("PYTHONPATH", tmpdir, 1);
	setenv("PYTHONHOME", "/nonexistent-ecg-python-home", 1);
	setenv("PYTHONSTARTUP", "/nonexistent-ecg-startup.py", 1);
	setenv("PYTHONWARNINGS", "error", 1);
	if (chdir(tmpdir) != 0)
		diag("chdir %s failed", tmpdir);

	ok(pyrt_init(NULL) == 0, "pyrt_init (%s)", err_last());
	if (!Py_IsInitialized()) {
		ok(0, "the interpreter is up");
		return done();
	}
	ok(pyrt_init(NULL) == -1, "a second pyrt_init is refused (%s)", err_last());
	err_clear();

	test_isolation_flags();
	test_version();
	test_valid();
	test_errors();
	test_cookie();
	test_deep();
	test_soft_keywords();
	test_refcounts();
	test_pyrt_error();

	ok(pyast_parse("\xff\xfe-odd-name.py", "x = (\n", 6, &mod, &e) == 1 &&
	   !PyErr_Occurred(), "a file name that is not UTF-8 is fine");
	pyast_error_clear(&e);

	pyrt_fini();
	ok(!Py_IsInitialized(), "pyrt_fini finalizes");
	pyrt_fini();
	ok(1, "a second pyrt_fini is harmless");

	pp = xasprintf("%s/ast.py", tmpdir);
	unlink(pp);
	free(pp);
	pp = xasprintf("%s/torch.py", tmpdir);
	unlink(pp);
	free(pp);
	pp = xasprintf("%s/sitecustomize.py", tmpdir);
	unlink(pp);
	free(pp);
	pp = xasprintf("%s/encodings.py", tmpdir);
	unlink(pp);
	free(pp);
	if (chdir("/") == 0)
		rmdir(tmpdir);
	return done();
}
