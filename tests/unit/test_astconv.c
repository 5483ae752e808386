/* test_astconv.c - the plain-C AST: converter, dumper, helpers.
 *
 * The fidelity test: for each file, parse it with pyast_parse(), convert
 * it with astconv_module(), print it with astdump() and compare byte for
 * byte with what the embedded interpreter's own
 * ast.dump(tree, include_attributes=True) prints (this test imports the
 * `ast` module; the product never does).
 *
 * Files: argv[1..] if given; else every .py under $ECG_ASTCONV_CORPUS
 * (recursive) if set; else the top level of the embedded interpreter's
 * stdlib, every .py under examples/, and a generated module that uses
 * every 3.11 syntax form.  With $ECG_TEST_QUICK (valgrind runs) only
 * examples/ and the generated module.
 *
 * $ECG_ASTCONV_BENCH=1: instead of comparing, measure parse and conversion
 * CPU time and arena bytes over the same file list and print them as diag
 * lines, e.g.
 *   ECG_ASTCONV_BENCH=1 ECG_ASTCONV_CORPUS=/usr/lib/python3.11 tests/unit/test_astconv
 *
 * Also: the field tables against the classes' _fields/_attributes and
 * their None defaults; float, complex and str repr() against Python's on
 * many values; no Python-object leak over many conversions; the depth cap
 * on trees deeper than it (from the parser with a raised recursion limit,
 * and built by hand); conversion errors leave no exception pending;
 * ast_dotted_name(), ast_visit_children(), ast_kind_name().
 */
#include "config.h"

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/treecache.h"
#include "ecg/util.h"
#include "tap.h"

#ifndef ECG_SRCDIR
#error "ECG_SRCDIR must name the source tree"
#endif

/* Every 3.11 syntax form (each concrete class but TypeIgnore, which needs
 * type comments: see test_type_comments()). */
static const char syntax_src[] =
	"# -*- coding: utf-8 -*-\n"
	"\"\"\"Module docstring with 'quotes' and \"double\" quotes.\"\"\"\n"
	"from __future__ import annotations\n"
	"import os, sys as system, os.path as osp\n"
	"from . import sibling\n"
	"from ..pkg.mod import (a as b, c)\n"
	"from .x import *\n"
	"\n"
	"big = 123456789012345678901234567890\n"
	"huge = 10**40\n"
	"neg = -9223372036854775808\n"
	"edge = 9223372036854775807\n"
	"edge2 = 9223372036854775808\n"
	"hexbig = 0xffffffffffffffffffffffffffffffff\n"
	"octal, binary, under = 0o777, 0b1010, 1_000_000\n"
	"floats = (0.0, 1.5, 1e16, 1e-5, 1e-4, 123.456, 1e300, 1e400, 0.1, 2.5e-10, 1e22, 12345678901234567890.0, .5, 5., 1_0.2_5)\n"
	"cplx = (3j, 1.5j, 0j, 1e400j, 2 + 3j, 1e20j, 10j)\n"
	"strings = ('plain', \"it's\", 'say \"hi\"', 'both \\' and \"', 'tab\\tnl\\nret\\r', 'nul\\x00bell\\x07del\\x7f',\n"
	"           'latin \303\251 \303\237', 'nbsp\\xa0soft\\xad', 'cjk \344\270\255\346\226\207', 'emoji \\U0001F600', 'zw\\u200bj\\u2028',\n"
	"           'surrogate \\ud800 \\udfff', 'back\\\\slash', u'unicode prefix', r'raw\\n', '\\x80\\x9f',\n"
	"           'private \\ue000', 'combining e\\u0301', 'unassigned \\U000E0001 \\U0010FFFF', \"\"\"triple\n"
	"line\"\"\")\n"
	"data = (b'bytes', b\"it's\", b'q\"', b'\\x00\\xff\\x80 \\t\\n\\r\\\\', rb'raw\\x', b'both \\' \"', b'')\n"
	"implicit = 'a' 'b' \"c\"\n"
	"mixed = f'pre{x!r:>{width}} {y!s} {z!a} {w:.3f} {\"nested\"} {d[\"k\"]}' f\"{v=}\" 'tail'\n"
	"fmt2 = f'{a}{b}' f'{{literal}}' rf'\\d{n}'\n"
	"fnest = f'{f\"{inner:{spec}}\"}'\n"
	"ell = ...\n"
	"t = True, False, None\n"
	"\n"
	"@decorator\n"
	"@pkg.mod.deco(arg, kw=1)\n"
	"class C(Base, metaclass=Meta, **opts):\n"
	"    \"\"\"Class doc.\"\"\"\n"
	"    x: int = 0\n"
	"    y: 'list[int]'\n"
	"    (z): int = 1\n"
	"    a.b: str\n"
	"    c[0]: float = 2.0\n"
	"\n"
	"    def f(self, a, /, b, c=1, *args, d, e=2, **kw) -> int:\n"
	"        global g1, g2\n"
	"        def inner():\n"
	"            nonlocal a\n"
	"            a += 1\n"
	"        return a\n"
	"\n"
	"    async def g(self, *, k=None):\n"
	"        async for i in aiter():\n"
	"            await i\n"
	"        else:\n"
	"            pass\n"
	"        async with lock as l, other:\n"
	"            pass\n"
	"        r = [j async for j in agen() if j]\n"
	"        s = {await q for q in qs}\n"
	"        return r\n"
	"\n"
	"def gen(x=lambda: 0, y=lambda a, /, b=1, *c, d, e=3, **f: (a, b)):\n"
	"    yield\n"
	"    yield x\n"
	"    z = yield from y\n"
	"    lambda: (yield)\n"
	"    lambda *a, **k: a\n"
	"    lambda *, k: k\n"
	"\n"
	"for i, (j, *k) in enumerate(data):\n"
	"    if i: continue\n"
	"    elif j: break\n"
	"    else: pass\n"
	"else:\n"
	"    del a, b[0], c.d\n"
	"while not x:\n"
	"    x -= 1\n"
	"    x += 1; x *= 2; x /= 3; x //= 4; x %= 5; x **= 6; x <<= 7; x >>= 8; x |= 9; x ^= 10; x &= 11; x @= m\n"
	"else:\n"
	"    pass\n"
	"\n"
	"try:\n"
	"    pass\n"
	"except ValueError as e:\n"
	"    raise TypeError('x') from e\n"
	"except (KeyError, IndexError):\n"
	"    raise\n"
	"except:\n"
	"    pass\n"
	"else:\n"
	"    pass\n"
	"finally:\n"
	"    pass\n"
	"\n"
	"try:\n"
	"    pass\n"
	"except* ValueError as eg:\n"
	"    pass\n"
	"except* (TypeError, KeyError):\n"
	"    pass\n"
	"\n"
	"with open(p) as f, open(q) as (g, h), lock:\n"
	"    pass\n"
	"with (a as b, c as d):\n"
	"    pass\n"
	"\n"
	"assert x, \"msg\"\n"
	"assert y\n"
	"a = b = c\n"
	"a, *b, c = seq\n"
	"[a, b] = 1, 2\n"
	"(a, b), c = x\n"
	"x = y if z else w\n"
	"x = a < b <= c > d >= e == f != g is h is not i in j not in k\n"
	"x = a and b or not c and (d or e)\n"
	"x = -a + +b - ~c * d @ e / f // g % h ** i << j >> k | l ^ m & n\n"
	"x = [i for i in range(10) if i % 2 if i > 3 for j in range(i)]\n"
	"x = {k: v for k, v in items}\n"
	"x = {s for s in set_}\n"
	"x = (g for g in gen)\n"
	"x = {1, 2, *rest}\n"
	"x = {'a': 1, **other, 'b': 2}\n"
	"x = {}\n"
	"x = []\n"
	"x = ()\n"
	"x = (1,)\n"
	"x = a[1:2], a[::3], a[1:2:3], a[:], a[x, y], a[1:2, ::3], a[...], a[*idx]\n"
	"x = f(*args, **kwargs)\n"
	"x = f(a, *b, c=1, **d)\n"
	"x = f(x for x in y)\n"
	"print(*a, sep='')\n"
	"if (n := len(a)) > 10:\n"
	"    pass\n"
	"x = [y := f(x), y**2]\n"
	"x = obj.attr.sub.method()[0].next\n"
	"x = not x\n"
	"\n"
	"match command.split():\n"
	"    case [action]:\n"
	"        pass\n"
	"    case [action, obj]:\n"
	"        pass\n"
	"    case Point(x=0, y=0):\n"
	"        pass\n"
	"    case Point(1, 2, z=3):\n"
	"        pass\n"
	"    case {'key': value, **rest}:\n"
	"        pass\n"
	"    case {1: _, 'b': [*_]}:\n"
	"        pass\n"
	"    case [1, 2, *others]:\n"
	"        pass\n"
	"    case (1 | 2 | 3) as num:\n"
	"        pass\n"
	"    case None:\n"
	"        pass\n"
	"    case True | False:\n"
	"        pass\n"
	"    case -1 | 1.5 | 2 + 3j | -1 - 2j | 'str' | b'bytes':\n"
	"        pass\n"
	"    case Color.RED:\n"
	"        pass\n"
	"    case str() | bytes():\n"
	"        pass\n"
	"    case [x, y] if x > y:\n"
	"        pass\n"
	"    case {**rest}:\n"
	"        pass\n"
	"    case (a, b, *_):\n"
	"        pass\n"
	"    case []:\n"
	"        pass\n"
	"    case _:\n"
	"        pass\n"
	"\n"
	"async def coro():\n"
	"    async with a:\n"
	"        pass\n"
	"    return await b\n"
	"\n"
	"x = yield_ = 1\n"
	"print(f'{x!r}' f'{x:{y}.{z}}' f\"{'a' if b else 'c'}\" f'{3.14:.2f}')\n";

/* ------------------------------------------------------------------ utilities */

static PyObject *ast_dump_fn;   /* ast.dump, owned */

struct files {
	char **v;
	size_t n, alloc;
};

static void files_add(struct files *f, char *path)
{
	xgrow((void **)&f->v, &f->alloc, f->n + 1, sizeof *f->v);
	f->v[f->n++] = path;
}

static void files_free(struct files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = f->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_py(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && strcmp(name + n - 3, ".py") == 0;
}

/* The .py files under dir (recursively unless top_only), sorted. */
static void list_py(const char *dir, int top_only, struct files *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	size_t first = out->n;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!top_only)
				list_py(p, 0, out);
			free(p);
		} else if (S_ISREG(st.st_mode) && ends_with_py(de->d_name)) {
			files_add(out, p);
		} else {
			free(p);
		}
	}
	closedir(d);
	qsort(out->v + first, out->n - first, sizeof *out->v, cmp_str);
}

/* The whole file, NUL-terminated; NULL if it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	buf_t b;
	char tmp[65536];
	size_t n;

	if (!f)
		return NULL;
	buf_init(&b);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

static double now(void)
{
	struct timespec ts;

	/* CPU time: the figures should not depend on what else the machine
	 * runs. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* sys.getallocatedblocks(), -1 on failure. */
static long allocated_blocks(void)
{
	PyObject *fn = PySys_GetObject("getallocatedblocks"); /* borrowed */
	PyObject *n = NULL;
	long res = -1;

	if (fn)
		n = PyObject_CallNoArgs(fn);
	if (n && PyLong_Check(n))
		res = PyLong_AsLong(n);
	Py_XDECREF(n);
	PyErr_Clear();
	return res;
}

/* Run Python statements in a fresh namespace and return it (new ref). */
static PyObject *run_py(const char *code)
{
	PyObject *ns = PyDict_New();
	PyObject *res = NULL;

	if (!ns)
		return NULL;
	if (PyDict_SetItemString(ns, "__builtins__", PyEval_GetBuiltins()) < 0)
		goto fail;
	res = PyRun_String(code, Py_file_input, ns, ns);
	if (!res)
		goto fail;
	Py_DECREF(res);
	return ns;
fail:
	PyErr_Print();
	Py_DECREF(ns);
	return NULL;
}

/* Python's ast.dump(tree, include_attributes=True) as a malloc'd string. */
static char *py_dump(PyObject *tree, size_t *len)
{
	PyObject *args = NULL, *kw = NULL, *res = NULL;
	const char *s;
	Py_ssize_t n;
	char *out = NULL;

	args = PyTuple_Pack(1, tree);
	kw = Py_BuildValue("{s:O}", "include_attributes", Py_True);
	if (args && kw)
		res = PyObject_Call(ast_dump_fn, args, kw);
	if (res && (s = PyUnicode_AsUTF8AndSize(res, &n)) != NULL) {
		out = xstrndup(s, (size_t)n);
		*len = (size_t)n;
	}
	if (!out)
		PyErr_Print();
	Py_XDECREF(res);
	Py_XDECREF(kw);
	Py_XDECREF(args);
	return out;
}

/* Compare the C dump of a converted tree with Python's.  Returns 1 when
 * equal; else diag()s where they differ. */
static int same_dump(const char *what, PyObject *tree, const struct ast_hdr *root)
{
	buf_t b;
	char *want;
	size_t wlen = 0, i;
	int same;

	buf_init(&b);
	astdump(root, &b);
	want = py_dump(tree, &wlen);
	same = want && wlen == b.len && memcmp(want, b.buf, wlen) == 0;
	if (!same && want) {
		for (i = 0; i < wlen && i < b.len && want[i] == b.buf[i]; i++)
			;
		diag("%s: dumps differ at byte %zu (python %zu bytes, C %zu)",
		     what, i, wlen, b.len);
		diag("  python: ...%.100s", want + (i > 40 ? i - 40 : 0));
		diag("  C     : ...%.100s", b.buf + (i > 40 ? i - 40 : 0));
	}
	free(want);
	buf_free(&b);
	return same;
}

/* Parse, convert, compare.  1 same, 0 different or failed, -1 skipped
 * (the file does not parse). */
static int check_source(const char *what, const char *src, size_t len)
{
	PyObject *tree = NULL;
	pyast_error pe;
	struct ast_arena *a = NULL;
	struct ast_Module *m = NULL;
	int rc, res = 0;

	rc = pyast_parse(what, src, len, &tree, &pe);
	if (rc == 1) {
		diag("%s: skipped, does not parse: %ld:%ld %s", what, pe.line,
		     pe.col, pe.message);
		pyast_error_clear(&pe);
		return -1;
	}
	if (rc < 0) {
		diag("%s: %s", what, err_last());
		return 0;
	}
	a = ast_arena_new();
	if (astconv_module(tree, a, &m) < 0) {
		diag("%s: astconv_module: %s", what, err_last());
		goto cleanup;
	}
	if (PyErr_Occurred()) {
		diag("%s: an exception is pending after conversion", what);
		PyErr_Clear();
		goto cleanup;
	}
	res = same_dump(what, tree, &m->h);
	if (res == 1) {
		/* the tree cache (treecache.h) gives back the same tree */
		buf_t enc;
		struct ast_arena *a2 = NULL;
		struct ast_Module *m2 = NULL;

		buf_init(&enc);
		treecache_encode(m, &enc);
		if (!treecache_decode((const unsigned char *)enc.buf, enc.len, &a2, &m2)) {
			diag("%s: the tree cache cannot read back its %zu bytes", what, enc.len);
			res = 0;
		} else {
			res = same_dump(what, tree, &m2->h);
		}
		ast_arena_free(a2);
		buf_free(&enc);
	}
cleanup:
	ast_arena_free(a);
	Py_XDECREF(tree);
	return res;
}

static void check_file(const char *path, int *skipped)
{
	size_t len = 0;
	char *src = read_file(path, &len);
	int r;

	if (!src) {
		ok(0, "%s: read", path);
		return;
	}
	r = check_source(path, src, len);
	if (r < 0)
		(*skipped)++;
	else
		ok(r == 1, "%s: dump identical (%zu bytes of source)", path, len);
	free(src);
}

/* ------------------------------------------------------------------ product path */

/* Before the test imports `ast`: the converter needs only `_ast`, and
 * astconv_fini() leaves it ready to set up again. */
static void test_no_ast_import(void)
{
	static const char src[] = "import os\nx = os.path.join('a', 1)\n";
	PyObject *mods = PySys_GetObject("modules"); /* borrowed */
	PyObject *tree = NULL;
	pyast_error pe;
	struct ast_arena *a = ast_arena_new();
	struct ast_Module *m = NULL;
	int rc, round, good = 1;

	for (round = 0; round < 2; round++) {
		rc = pyast_parse("t.py", src, sizeof src - 1, &tree, &pe);
		if (rc != 0 || astconv_module(tree, a, &m) < 0 || !m || m->body.n != 2)
			good = 0;
		Py_XDECREF(tree);
		tree = NULL;
		pyast_error_clear(&pe);
		if (round == 0)
			astconv_fini();
	}
	ok(good, "converts, and again after astconv_fini() (%s)", err_last());
	ok(mods && !PyDict_GetItemString(mods, "ast"),
	   "the converter did not import the ast module");
	ast_arena_free(a);
	astconv_fini();
	astconv_fini();
	ok(1, "astconv_fini() twice is harmless");
}

/* ------------------------------------------------------------------ tables */

/* Our field tables against the running interpreter's classes: _fields in
 * order, _attributes present or not, and the None class defaults that
 * make a field optional (the rule ast.dump() leaves fields out by). */
static void test_tables(void)
{
	PyObject *mod = PyImport_ImportModule("_ast");
	unsigned k, i, bad = 0;

	ok(mod != NULL, "_ast imports");
	for (k = 1; mod && k < AST_NKINDS; k++) {
		const struct ast_kind_info *ki = ast_kind_info(k);
		PyObject *cls = PyObject_GetAttrString(mod, ki->name);
		PyObject *fields = cls ? PyObject_GetAttrString(cls, "_fields") : NULL;
		PyObject *attrs = cls ? PyObject_GetAttrString(cls, "_attributes") : NULL;

		if (!fields || !PyTuple_Check(fields) || !attrs || !PyTuple_Check(attrs) ||
		    (unsigned)PyTuple_GET_SIZE(fields) != ki->nfields ||
		    (PyTuple_GET_SIZE(attrs) > 0) != ki->has_pos) {
			diag("%s: field count or _attributes differ", ki->name);
			bad++;
		}
		for (i = 0; fields && PyTuple_Check(fields) && i < ki->nfields &&
		            i < (unsigned)PyTuple_GET_SIZE(fields); i++) {
			const struct ast_field *f = &ki->fields[i];
			const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i));
			PyObject *def = PyObject_GetAttrString(cls, f->name);
			int opt = f->type == AST_F_OPTNODE || f->type == AST_F_OPTSTR ||
			          f->type == AST_F_OPTINT;

			PyErr_Clear();
			if (!name || strcmp(name, f->name) != 0) {
				diag("%s: field %u is %s in Python, %s here", ki->name, i,
				     name ? name : "?", f->name);
				bad++;
			}
			if ((def == Py_None) != opt) {
				diag("%s.%s: optional in Python: %d, here: %d", ki->name,
				     f->name, def == Py_None, opt);
				bad++;
			}
			Py_XDECREF(def);
		}
		PyErr_Clear();
		Py_XDECREF(attrs);
		Py_XDECREF(fields);
		Py_XDECREF(cls);
	}
	ok(bad == 0, "field tables match _ast's _fields, _attributes and None defaults");
	Py_XDECREF(mod);
	PyErr_Clear();

	ok(strcmp(ast_kind_name(AST_Call), "Call") == 0 &&
	   strcmp(ast_kind_name(AST_match_case), "match_case") == 0 &&
	   strcmp(ast_kind_name(AST_INVALID), "?") == 0 &&
	   strcmp(ast_kind_name((enum ast_kind)9999), "?") == 0,
	   "ast_kind_name()");
}

/* ------------------------------------------------------------------ repr */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* astdump_const(c) against repr(py); diag()s the first few mismatches. */
static int same_repr(const struct ast_const *c, PyObject *py, int *shown)
{
	PyObject *r = py ? PyObject_Repr(py) : NULL;
	const char *want = r ? PyUnicode_AsUTF8(r) : NULL;
	buf_t b;
	int same;

	buf_init(&b);
	astdump_const(c, &b);
	same = want && strcmp(want, b.buf) == 0;
	if (!same && (*shown)++ < 5)
		diag("repr: python %s, C %s", want ? want : "(error)", b.buf);
	buf_free(&b);
	Py_XDECREF(r);
	Py_XDECREF(py);
	PyErr_Clear();
	return same;
}

static void test_float_repr(int quick)
{
	static const double special[] = {
		0.0, -0.0, 1.0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1e16, 1e15, 1e17,
		9999999999999998.0, 1e-4, 1e-5, 0.00012345, 1.5e-5, 123456789.0,
		5e-324, 1e-323, 2.2250738585072014e-308, 2.2250738585072009e-308,
		1.7976931348623157e308, 9007199254740993.0, 4.35, 0.5, 100.0,
		1e22, 1e23, 8.41e21, 5e-310, 123456789012345680.0, 1e308,
	};
	int bad = 0, shown = 0, i, n = quick ? 3000 : 50000;
	struct ast_const c;

	memset(&c, 0, sizeof c);
	c.kind = AST_CONST_FLOAT;
	for (i = 0; i < (int)(sizeof special / sizeof special[0]); i++) {
		c.f = special[i];
		bad += !same_repr(&c, PyFloat_FromDouble(c.f), &shown);
	}
	c.f = INFINITY;
	bad += !same_repr(&c, PyFloat_FromDouble(c.f), &shown);
	c.f = -INFINITY;
	bad += !same_repr(&c, PyFloat_FromDouble(c.f), &shown);
	c.f = NAN;
	bad += !same_repr(&c, PyFloat_FromDouble(c.f), &shown);
	for (i = 0; i < n; i++) {
		uint64_t bits = rng();
		double x;

		switch (i % 4) {
		case 0:         /* any double */
			break;
		case 1:         /* a power of two: the asymmetric interval */
			bits &= 0xFFF0000000000000ull;
			break;
		case 2:         /* short decimals */
			bits = (uint64_t)i;
			break;
		default:        /* near a power of two */
			bits = (bits & 0xFFF0000000000000ull) | (rng() & 3);
			break;
		}
		if (i % 4 == 2) {
			/* the double nearest a short decimal */
			char dec[40];

			snprintf(dec, sizeof dec, "%de%d", (int)(rng() % 100000),
			         (int)(rng() % 60) - 40);
			x = strtod(dec, NULL);
		} else {
			memcpy(&x, &bits, sizeof x);
			if (isnan(x))
				continue;
		}
		c.f = x;
		bad += !same_repr(&c, PyFloat_FromDouble(x), &shown);
	}
	ok(bad == 0, "float repr matches Python's on %d values (%d differ)", n, bad);

	bad = shown = 0;
	memset(&c, 0, sizeof c);
	c.kind = AST_CONST_COMPLEX;
	for (i = 0; i < (quick ? 300 : 10000); i++) {
		uint64_t b1 = rng(), b2 = rng();

		memcpy(&c.f, &b1, sizeof c.f);
		memcpy(&c.imag, &b2, sizeof c.imag);
		if (i % 3 == 0)
			c.f = 0.0;
		if (i % 7 == 0)
			c.f = -0.0;
		if (i % 5 == 0)
			c.imag = (double)(rng() % 1000);
		if (i % 11 == 0)
			c.imag = INFINITY;
		if (isnan(c.f) || isnan(c.imag))
			continue;
		bad += !same_repr(&c, PyComplex_FromDoubles(c.f, c.imag), &shown);
	}
	ok(bad == 0, "complex repr matches Python's (%d differ)", bad);
}

/* Every code point, in strings of 256, through astdump_const() against
 * repr(): quote choice, escapes, Unicode printability. */
static void test_str_repr(int quick)
{
	int bad = 0, shown = 0;
	uint32_t base, cp;
	struct ast_const c;

	memset(&c, 0, sizeof c);
	c.kind = AST_CONST_STR;
	for (base = 0; base < 0x110000; base += quick ? 256 * 37 : 256) {
		PyObject *s = NULL, *b = NULL;
		Py_UCS4 chars[256 + 2];
		int n = 0;

		for (cp = base; cp < base + 256; cp++)
			chars[n++] = cp;
		if (base == 0)
			chars[n++] = '"';       /* both quotes: ' is kept */
		s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars, n);
		if (s)
			b = PyUnicode_AsEncodedString(s, "utf-8", "surrogatepass");
		if (!b) {
			PyErr_Clear();
			Py_XDECREF(s);
			bad++;
			continue;
		}
		c.s = PyBytes_AS_STRING(b);
		c.len = (size_t)PyBytes_GET_SIZE(b);
		bad += !same_repr(&c, s, &shown);   /* consumes s */
		Py_DECREF(b);
	}
	ok(bad == 0, "str repr matches Python's over %s code points (%d blocks differ)",
	   quick ? "sampled" : "all", bad);
}

/* ------------------------------------------------------------------ conversion */

/* Convert Python module `tree` (borrowed) into a new arena; returns the
 * root or NULL (with err_last()). */
static struct ast_Module *convert(PyObject *tree, struct ast_arena **pa)
{
	struct ast_Module *m = NULL;

	*pa = ast_arena_new();
	if (astconv_module(tree, *pa, &m) < 0)
		return NULL;
	return m;
}

static PyObject *parse_str(const char *src)
{
	PyObject *tree = NULL;
	pyast_error pe;

	if (pyast_parse("t.py", src, strlen(src), &tree, &pe) != 0) {
		diag("parse: %s", pe.message ? pe.message : err_last());
		pyast_error_clear(&pe);
		return NULL;
	}
	return tree;
}

static void test_syntax_forms(void)
{
	ok(check_source("<every 3.11 syntax form>", syntax_src, sizeof syntax_src - 1) == 1,
	   "every 3.11 syntax form: dump identical (converted, and read back from the tree cache's form)");
}

/* The tree cache's reader on damaged input: every truncation is refused,
 * every changed byte gives a tree or a refusal (ASan and valgrind watch),
 * nothing else. */
static void test_treecache_damage(int quick)
{
	PyObject *tree = parse_str(syntax_src);
	struct ast_arena *a = NULL, *a2;
	struct ast_Module *m, *m2;
	buf_t enc, d;
	size_t i, refused_cut = 0, ncut = 0, nflip = 0, flip_ok = 0;
	size_t step = quick ? 13 : 3;
	unsigned char *copy;

	m = tree ? convert(tree, &a) : NULL;
	ok(m != NULL, "tree cache: a tree to damage");
	if (!m) {
		ast_arena_free(a);
		Py_XDECREF(tree);
		return;
	}
	buf_init(&enc);
	treecache_encode(m, &enc);
	copy = xmalloc(enc.len + 1);
	for (i = 0; i < enc.len; i += step) {
		memcpy(copy, enc.buf, i);
		ncut++;
		if (!treecache_decode(copy, i, &a2, &m2))
			refused_cut++;
		else
			ast_arena_free(a2);
	}
	ok(refused_cut == ncut, "tree cache: each of %zu truncations of %zu bytes is refused (%zu were)",
	   ncut, enc.len, refused_cut);
	for (i = 0; i < enc.len; i += step) {
		int k;

		for (k = 0; k < 3; k++) {
			static const unsigned char x[3] = { 0x01, 0x80, 0xff };

			memcpy(copy, enc.buf, enc.len);
			copy[i] ^= x[k];
			nflip++;
			if (treecache_decode(copy, enc.len, &a2, &m2)) {
				buf_init(&d);
				astdump(&m2->h, &d);     /* a tree: whole enough to print */
				buf_free(&d);
				ast_arena_free(a2);
				flip_ok++;
			}
		}
	}
	ok(1, "tree cache: %zu damaged copies read without a fault (%zu still a tree, e.g. a changed "
	   "line number)", nflip, flip_ok);
	ok(!treecache_decode((const unsigned char *)"", 0, &a2, &m2) && a2 == NULL && m2 == NULL,
	   "tree cache: no bytes, no tree");
	free(copy);
	buf_free(&enc);
	ast_arena_free(a);
	Py_DECREF(tree);
}

/* type_comments=True gives TypeIgnore and type_comment fields. */
static void test_type_comments(void)
{
	static const char src[] =
		"import x  # type: ignore[attr]\n"
		"a = 1  # type: int\n"
		"def f(a,  # type: int\n"
		"      b):\n"
		"    # type: (...) -> None\n"
		"    pass\n"
		"for i in y:  # type: str\n"
		"    pass\n"
		"with z as w:  # type: float\n"
		"    pass  # type: ignore\n";
	PyObject *ns = NULL, *tree = NULL, *code = NULL;
	struct ast_arena *a = NULL;
	struct ast_Module *m = NULL;

	ns = run_py("import ast\n");
	code = PyUnicode_FromString(src);
	if (ns && code && PyDict_SetItemString(ns, "src", code) == 0) {
		PyObject *res = PyRun_String("ast.parse(src, type_comments=True)",
		                             Py_eval_input, ns, ns);

		tree = res;
	}
	ok(tree != NULL, "ast.parse(type_comments=True)");
	if (tree)
		m = convert(tree, &a);
	ok(m && m->type_ignores.n == 2 &&
	   AST_IS(m->type_ignores.items[0], TypeIgnore) &&
	   AST_AS(m->type_ignores.items[0], TypeIgnore)->lineno == 1 &&
	   strcmp(AST_AS(m->type_ignores.items[0], TypeIgnore)->tag, "[attr]") == 0,
	   "TypeIgnore nodes converted (%s)", m ? "" : err_last());
	ok(m && same_dump("type comments", tree, &m->h), "type comments: dump identical");
	ast_arena_free(a);
	Py_XDECREF(tree);
	Py_XDECREF(code);
	Py_XDECREF(ns);
	PyErr_Clear();
}

/* No Python object leaks: converting then dropping the arena many times
 * leaves sys.getallocatedblocks() where it was. */
static void test_no_leak(const struct files *fl)
{
	long before = -1, after = -1;
	int round, i, n = 0, fails = 0;
	char *srcs[101];
	size_t lens[101];
	int nsrc = 0;

	for (i = 0; i < (int)fl->n && nsrc < 100; i++) {
		srcs[nsrc] = read_file(fl->v[i], &lens[nsrc]);
		if (srcs[nsrc])
			nsrc++;
	}
	srcs[nsrc] = xstrndup(syntax_src, sizeof syntax_src - 1);
	lens[nsrc] = sizeof syntax_src - 1;
	nsrc++;
	for (round = 0; round < 2; round++) {
		if (round == 1)
			before = allocated_blocks();
		for (i = 0, n = 0; n < 100; i = (i + 1) % nsrc, n++) {
			PyObject *tree = NULL;
			pyast_error pe;
			struct ast_arena *a = NULL;
			struct ast_Module *m = NULL;

			if (pyast_parse("leak.py", srcs[i], lens[i], &tree, &pe) != 0) {
				pyast_error_clear(&pe);
				continue;
			}
			m = convert(tree, &a);
			fails += m == NULL;
			ast_arena_free(a);
			Py_DECREF(tree);
		}
	}
	after = allocated_blocks();
	ok(before > 0 && before == after && fails == 0,
	   "100 conversions from %d sources leave sys.getallocatedblocks() unchanged "
	   "(%ld -> %ld)", nsrc, before, after);
	for (i = 0; i < nsrc; i++)
		free(srcs[i]);
}

/* A tree deeper than the cap: -1, ECG_EXIT_INPUT, the line, nothing
 * pending, and the same converter fine afterwards. */
static void expect_too_deep(const char *what, PyObject *tree, const char *line)
{
	struct ast_arena *a = NULL;
	struct ast_Module *m;
	char cap[32];

	snprintf(cap, sizeof cap, "%d", ASTCONV_MAX_DEPTH);
	m = convert(tree, &a);
	ok(m == NULL && err_code() == ECG_EXIT_INPUT &&
	   strncmp(err_last(), line, strlen(line)) == 0 && strstr(err_last(), cap),
	   "%s: refused, naming the line (%s)", what, err_last());
	ok(!PyErr_Occurred(), "%s: no exception pending", what);
	PyErr_Clear();
	ast_arena_free(a);
	err_clear();
}

/* A namespace whose `tree` is Module(body=[Expr(List(...n...(Name)))]). */
static PyObject *hand_built_chain(int n)
{
	char *code = xasprintf(
		"import _ast\n"
		"P = dict(lineno=7, col_offset=0, end_lineno=7, end_col_offset=1)\n"
		"e = _ast.Name(id='a', ctx=_ast.Load(), **P)\n"
		"for i in range(%d):\n"
		"    e = _ast.List(elts=[e], ctx=_ast.Load(), **P)\n"
		"tree = _ast.Module(body=[_ast.Expr(value=e, **P)], type_ignores=[])\n",
		n);
	PyObject *ns = run_py(code);

	free(code);
	return ns;
}

static void test_depth(void)
{
	PyObject *tree = NULL, *sys = NULL, *ns = NULL, *old = NULL, *res = NULL;
	struct ast_arena *a = NULL;
	struct ast_Module *m;
	buf_t src, name;
	int i;

	/* The deepest attribute chain the parser gives at the default
	 * recursion limit converts, and its dotted name is whole. */
	buf_init(&src);
	buf_init(&name);
	buf_addstr(&src, "\n\na");
	for (i = 0; i < 2900; i++)
		buf_addstr(&src, ".b");
	tree = parse_str(src.buf);
	m = tree ? convert(tree, &a) : NULL;
	i = m && m->body.n == 1 ?
	    ast_dotted_name(AST_AS(m->body.items[0], Expr)->value, &name) : -1;
	ok(i == 0 && name.len == src.len - 2,
	   "a 2,900-deep attribute chain converts, dotted name %zu bytes", name.len);
	ast_arena_free(a);
	a = NULL;
	Py_XDECREF(tree);
	tree = NULL;

	/* Deeper than the cap, from the parser itself: CPython's ast2obj
	 * stops at ~3,000 levels unless the recursion limit is raised. */
	buf_reset(&src);
	buf_addstr(&src, "x = 1\n\n\n");
	buf_addstr(&src, "a");
	for (i = 0; i < ASTCONV_MAX_DEPTH + 100; i++)
		buf_addstr(&src, ".b");
	buf_addch(&src, '\n');
	sys = PyImport_ImportModule("sys");
	old = sys ? PyObject_CallMethod(sys, "getrecursionlimit", NULL) : NULL;
	res = sys ? PyObject_CallMethod(sys, "setrecursionlimit", "i", 100000) : NULL;
	Py_XDECREF(res);
	tree = parse_str(src.buf);
	if (old)
		res = PyObject_CallMethod(sys, "setrecursionlimit", "O", old);
	Py_XDECREF(res);
	ok(tree != NULL, "with sys.setrecursionlimit(100000) the parser gives a "
	   "%d-deep tree", ASTCONV_MAX_DEPTH + 100);
	if (tree)
		expect_too_deep("parser-made tree deeper than the cap", tree, "line 4:");
	Py_XDECREF(tree);
	tree = NULL;

	/* Built by hand, nested through lists: Module, Expr, n Lists, Name
	 * is n + 3 levels.  Exactly at the cap converts (and dumps); one
	 * more does not. */
	ns = hand_built_chain(ASTCONV_MAX_DEPTH - 3);
	tree = ns ? PyDict_GetItemString(ns, "tree") : NULL; /* borrowed */
	m = tree ? convert(tree, &a) : NULL;
	buf_reset(&name);
	if (m)
		astdump(&m->h, &name);
	ok(m && name.len > (size_t)ASTCONV_MAX_DEPTH * 20,
	   "a hand-built tree exactly %d deep converts and dumps (%s)",
	   ASTCONV_MAX_DEPTH, m ? "" : err_last());
	ast_arena_free(a);
	a = NULL;
	Py_XDECREF(ns);
	ns = hand_built_chain(ASTCONV_MAX_DEPTH - 2);
	tree = ns ? PyDict_GetItemString(ns, "tree") : NULL; /* borrowed */
	ok(tree != NULL, "hand-built tree one level deeper");
	if (tree)
		expect_too_deep("hand-built tree one level deeper than the cap", tree,
		                "line 7:");
	Py_XDECREF(ns);
	Py_XDECREF(old);
	Py_XDECREF(sys);
	buf_free(&src);
	buf_free(&name);
	PyErr_Clear();
}

/* Objects the grammar does not produce: -1, a message, nothing pending. */
static void test_bad_trees(void)
{
	static const struct {
		const char *what, *code, *msg;
	} cases[] = {
		{ "not a Module", "tree = 42\n", "expected mod, got int" },
		{ "an Expression", "tree = _ast.Expression(body=_ast.Name(id='a', ctx=_ast.Load(), **P))\n",
		  "expected mod, got Expression" },
		{ "an int where an expr goes",
		  "tree = _ast.Module(body=[_ast.Expr(value=42, **P)], type_ignores=[])\n",
		  "expected expr, got int" },
		{ "a stmt where an expr goes",
		  "tree = _ast.Module(body=[_ast.Expr(value=_ast.Pass(**P), **P)], type_ignores=[])\n",
		  "expected expr, got Pass" },
		{ "None in a body",
		  "tree = _ast.Module(body=[None], type_ignores=[])\n",
		  "Module.body: expected stmt, got NoneType" },
		{ "a missing field",
		  "tree = _ast.Module(body=[_ast.Expr(**P)], type_ignores=[])\n",
		  "Expr.value" },
		{ "a str id that is bytes",
		  "tree = _ast.Module(body=[_ast.Expr(value=_ast.Name(id=b'a', ctx=_ast.Load(), **P), **P)], type_ignores=[])\n",
		  "Name.id: expected a str, got bytes" },
		{ "a tuple constant",
		  "tree = _ast.Module(body=[_ast.Expr(value=_ast.Constant(value=(1,), **P), **P)], type_ignores=[])\n",
		  "Constant.value: expected a constant, got tuple" },
		{ "a huge line number",
		  "Q = dict(P); Q['lineno'] = 2**40\n"
		  "tree = _ast.Module(body=[_ast.Pass(**Q)], type_ignores=[])\n",
		  "Pass.lineno: expected an int in C int range" },
		{ "an operator as a context",
		  "tree = _ast.Module(body=[_ast.Expr(value=_ast.Name(id='a', ctx=_ast.Add(), **P), **P)], type_ignores=[])\n",
		  "Name.ctx: expected Load, Store or Del, got Add" },
		{ "a subclass instance",
		  "class N(_ast.Name): pass\n"
		  "tree = _ast.Module(body=[_ast.Expr(value=N(id='a', ctx=_ast.Load(), **P), **P)], type_ignores=[])\n",
		  "expected expr, got N" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_t code;
		PyObject *ns, *tree; /* tree borrowed */
		struct ast_arena *a = NULL;
		struct ast_Module *m;

		buf_init(&code);
		buf_addstr(&code, "import _ast\n"
		           "P = dict(lineno=3, col_offset=0, end_lineno=3, end_col_offset=1)\n");
		buf_addstr(&code, cases[i].code);
		ns = run_py(code.buf);
		tree = ns ? PyDict_GetItemString(ns, "tree") : NULL;
		err_clear();
		m = tree ? convert(tree, &a) : NULL;
		ok(tree && !m && err_code() == ECG_EXIT_INTERNAL &&
		   strstr(err_last(), cases[i].msg) && !PyErr_Occurred(),
		   "%s: refused, no exception pending (%s)", cases[i].what, err_last());
		PyErr_Clear();
		ast_arena_free(a);
		Py_XDECREF(ns);
		buf_free(&code);
	}
	err_clear();
}

struct visit_rec {
	buf_t names;
	int stop_at;
	int seen;
};

static int visit_cb(const struct ast_hdr *child, void *ctx)
{
	struct visit_rec *r = ctx;

	buf_addstr(&r->names, ast_kind_name(child->kind));
	buf_addch(&r->names, ' ');
	if (++r->seen == r->stop_at)
		return 42;
	return 0;
}

static void test_helpers(void)
{
	static const char src[] =
		"torch.nn.functional.relu\n"
		"x\n"
		"a().b\n"
		"a[0].b\n"
		"f(a, *b, k=c, **d)\n"
		"{1: a, **b}\n"
		"def g(p, /, q=1, *r, s, t=2, **u): pass\n"
		"\xc3\xa9t\xc3\xa9.\xc3\xa0\n";
	PyObject *tree = parse_str(src);
	struct ast_arena *a = NULL;
	struct ast_Module *m = tree ? convert(tree, &a) : NULL;
	struct visit_rec r;
	buf_t b;
	int rc;

	ok(m && m->body.n == 8, "helper source converts");
	if (!m) {
		Py_XDECREF(tree);
		ast_arena_free(a);
		return;
	}
	buf_init(&b);
	buf_addstr(&b, "<");
	rc = ast_dotted_name(AST_AS(m->body.items[0], Expr)->value, &b);
	ok(rc == 0 && strcmp(b.buf, "<torch.nn.functional.relu") == 0,
	   "ast_dotted_name appends a.b.c (%s)", b.buf);
	buf_reset(&b);
	rc = ast_dotted_name(AST_AS(m->body.items[1], Expr)->value, &b);
	ok(rc == 0 && strcmp(b.buf, "x") == 0, "ast_dotted_name of a Name");
	buf_reset(&b);
	buf_addstr(&b, "keep");
	ok(ast_dotted_name(AST_AS(m->body.items[2], Expr)->value, &b) == -1 &&
	   ast_dotted_name(AST_AS(m->body.items[3], Expr)->value, &b) == -1 &&
	   ast_dotted_name(NULL, &b) == -1 &&
	   ast_dotted_name(m->body.items[0], &b) == -1 &&
	   strcmp(b.buf, "keep") == 0 && b.len == 4,
	   "ast_dotted_name refuses calls, subscripts, NULL, statements; out unchanged");
	buf_reset(&b);
	rc = ast_dotted_name(AST_AS(m->body.items[7], Expr)->value, &b);
	ok(rc == 0 && strcmp(b.buf, "\xc3\xa9t\xc3\xa9.\xc3\xa0") == 0,
	   "ast_dotted_name keeps UTF-8 identifiers");

	buf_init(&r.names);
	r.stop_at = 0;
	r.seen = 0;
	rc = ast_visit_children(AST_AS(m->body.items[4], Expr)->value, visit_cb, &r);
	ok(rc == 0 && strcmp(r.names.buf, "Name Name Starred keyword keyword ") == 0,
	   "ast_visit_children: Call children in field order (%s)", r.names.buf);
	buf_reset(&r.names);
	r.seen = 0;
	rc = ast_visit_children(AST_AS(m->body.items[5], Expr)->value, visit_cb, &r);
	ok(rc == 0 && strcmp(r.names.buf, "Constant Name Name ") == 0,
	   "ast_visit_children skips the NULL key of **b (%s)", r.names.buf);
	buf_reset(&r.names);
	r.seen = 0;
	rc = ast_visit_children(AST_AS(m->body.items[6], FunctionDef)->args ?
	                        &AST_AS(m->body.items[6], FunctionDef)->args->h : NULL,
	                        visit_cb, &r);
	ok(rc == 0 && strcmp(r.names.buf, "arg arg arg arg arg Constant arg Constant ") == 0,
	   "ast_visit_children: arguments in field order (%s)", r.names.buf);
	buf_reset(&r.names);
	r.seen = 0;
	r.stop_at = 2;
	rc = ast_visit_children(AST_AS(m->body.items[4], Expr)->value, visit_cb, &r);
	ok(rc == 42 && r.seen == 2, "ast_visit_children stops on a non-zero return");
	ok(ast_visit_children(NULL, visit_cb, &r) == 0, "ast_visit_children(NULL)");

	ok(AST_IS(m->body.items[0], Expr) && !AST_IS(m->body.items[0], Call) &&
	   ast_is_stmt(m->body.items[0]) && !ast_is_expr(m->body.items[0]) &&
	   ast_is_expr(AST_AS(m->body.items[0], Expr)->value) &&
	   ast_kind_has_pos(AST_Name) && !ast_kind_has_pos(AST_arguments) &&
	   m->h.line == 0,
	   "AST_IS, ast_is_stmt/expr, ast_kind_has_pos");
	ok(ast_arena_used(a) > 0 && ast_arena_reserved(a) >= ast_arena_used(a),
	   "arena: %zu bytes used, %zu reserved", ast_arena_used(a),
	   ast_arena_reserved(a));
	buf_free(&r.names);
	buf_free(&b);
	ast_arena_free(a);
	Py_XDECREF(tree);
}

/* Positions are raw: UTF-8 byte columns. */
static void test_positions(void)
{
	PyObject *tree = parse_str("s = '\xc3\xa9\xc3\xa9' + x\n");
	struct ast_arena *a = NULL;
	struct ast_Module *m = tree ? convert(tree, &a) : NULL;
	struct ast_BinOp *op = NULL;
	struct ast_hdr *x = NULL;

	if (m && m->body.n == 1 && AST_IS(m->body.items[0], Assign))
		op = AST_AS(AST_AS(m->body.items[0], Assign)->value, BinOp);
	if (op)
		x = op->right;
	ok(x && x->line == 1 && x->col == 13 && x->end_line == 1 && x->end_col == 14,
	   "columns are UTF-8 byte offsets (x at %d..%d)", x ? x->col : -1,
	   x ? x->end_col : -1);
	ast_arena_free(a);
	Py_XDECREF(tree);
}

/* The value of the constant in statement i of m (an Expr). */
static const struct ast_const *const_at(const struct ast_Module *m, unsigned i)
{
	const struct ast_hdr *e;

	if (!m || i >= m->body.n || !AST_IS(m->body.items[i], Expr))
		return NULL;
	e = AST_AS(m->body.items[i], Expr)->value;
	return AST_IS(e, Constant) ? &AST_AS(e, Constant)->value : NULL;
}

static void test_constants(void)
{
	buf_t src;
	PyObject *tree;
	struct ast_arena *a = NULL;
	struct ast_Module *m;
	const struct ast_const *k;
	int i;

	buf_init(&src);
	buf_addstr(&src,
	           "9223372036854775807\n"          /* 0: INT64_MAX */
	           "9223372036854775808\n"          /* 1: one more: big */
	           "123456789012345678901234567890\n" /* 2 */
	           "'a\\x00b'\n"                  /* 3: NUL inside */
	           "b'\\x00\\xff'\n"            /* 4 */
	           "'\\ud800'\n"                  /* 5: lone surrogate */
	           "u'x'\n"                         /* 6: kind 'u' */
	           "2.5j\n"                         /* 7 */
	           "...\n"                          /* 8 */
	           "0x");                            /* 9: 4,000 hex digits */
	for (i = 0; i < 4000; i++)
		buf_addch(&src, 'f');
	buf_addch(&src, '\n');
	tree = parse_str(src.buf);
	m = tree ? convert(tree, &a) : NULL;
	ok(m && m->body.n == 10, "constants convert (%s)", m ? "" : err_last());
	k = const_at(m, 0);
	ok(k && k->kind == AST_CONST_INT && !k->big && k->i == INT64_MAX, "INT64_MAX fits");
	k = const_at(m, 1);
	ok(k && k->kind == AST_CONST_INT && k->big && strcmp(k->s, "9223372036854775808") == 0,
	   "2**63 is big, kept as decimal text");
	k = const_at(m, 2);
	ok(k && k->big && k->len == 30 && strcmp(k->s, "123456789012345678901234567890") == 0,
	   "a 30-digit int as text");
	k = const_at(m, 3);
	ok(k && k->kind == AST_CONST_STR && k->len == 3 && memcmp(k->s, "a\0b", 4) == 0,
	   "a str with a NUL keeps its length");
	k = const_at(m, 4);
	ok(k && k->kind == AST_CONST_BYTES && k->len == 2 && memcmp(k->s, "\0\xff", 3) == 0,
	   "bytes with NUL and 0xff");
	k = const_at(m, 5);
	ok(k && k->kind == AST_CONST_STR && k->len == 3 && memcmp(k->s, "\xed\xa0\x80", 3) == 0,
	   "a lone surrogate as its surrogatepass bytes");
	ok(m && m->body.n > 6 &&
	   strcmp(AST_AS(AST_AS(m->body.items[6], Expr)->value, Constant)->kind, "u") == 0 &&
	   AST_AS(AST_AS(m->body.items[3], Expr)->value, Constant)->kind == NULL,
	   "Constant.kind 'u' and None");
	k = const_at(m, 7);
	ok(k && k->kind == AST_CONST_COMPLEX && k->f == 0.0 && k->imag == 2.5, "2.5j");
	k = const_at(m, 8);
	ok(k && k->kind == AST_CONST_ELLIPSIS, "Ellipsis");
	k = const_at(m, 9);
	ok(k && k->big && k->len == 4002 && strncmp(k->s, "0xfff", 5) == 0,
	   "an int too long for str() is kept in hex (%zu chars)", k ? k->len : 0);
	ast_arena_free(a);
	Py_XDECREF(tree);
	buf_free(&src);
}

/* ------------------------------------------------------------------ bench */

static void bench(const struct files *fl)
{
	double t_parse = 0, t_free = 0, t_conv = 0, t0;
	size_t src_bytes = 0, used = 0, reserved = 0, max_reserved = 0;
	size_t i, nfiles = 0, skipped = 0;

	for (i = 0; i < fl->n; i++) {
		size_t len;
		char *src = read_file(fl->v[i], &len);
		PyObject *tree = NULL;
		pyast_error pe;
		struct ast_arena *a;
		struct ast_Module *m;

		if (!src)
			continue;
		t0 = now();
		if (pyast_parse(fl->v[i], src, len, &tree, &pe) != 0) {
			pyast_error_clear(&pe);
			skipped++;
			free(src);
			continue;
		}
		t_parse += now() - t0;
		a = ast_arena_new();
		t0 = now();
		if (astconv_module(tree, a, &m) < 0)
			diag("%s: %s", fl->v[i], err_last());
		t_conv += now() - t0;
		src_bytes += len;
		used += ast_arena_used(a);
		reserved += ast_arena_reserved(a);
		if (ast_arena_reserved(a) > max_reserved)
			max_reserved = ast_arena_reserved(a);
		nfiles++;
		t0 = now();
		Py_DECREF(tree);
		t_free += now() - t0;
		ast_arena_free(a);
		free(src);
	}
	diag("bench: %zu files (%zu skipped), %.1f MB source (CPU times)", nfiles,
	     skipped, (double)src_bytes / 1e6);
	diag("bench: parse %.3f s (%.1f MB/s), dropping the Python trees %.3f s, "
	     "conversion %.3f s", t_parse, (double)src_bytes / 1e6 / t_parse,
	     t_free, t_conv);
	diag("bench: conversion = %.1f%% of parse, %.1f%% of parse + drop",
	     100.0 * t_conv / t_parse, 100.0 * t_conv / (t_parse + t_free));
	diag("bench: arena used %.1f MB = %.2f x source; reserved %.1f MB = %.2f x; "
	     "largest file arena %.1f MB", (double)used / 1e6,
	     (double)used / (double)src_bytes, (double)reserved / 1e6,
	     (double)reserved / (double)src_bytes, (double)max_reserved / 1e6);
	ok(nfiles > 0, "bench ran");
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	struct files fl = { NULL, 0, 0 };
	const char *corpus = getenv("ECG_ASTCONV_CORPUS");
	int quick = getenv("ECG_TEST_QUICK") && *getenv("ECG_TEST_QUICK");
	int do_bench = getenv("ECG_ASTCONV_BENCH") && *getenv("ECG_ASTCONV_BENCH");
	PyObject *ast_mod = NULL, *os_mod = NULL, *os_file = NULL;
	int i, skipped = 0;
	size_t k;

	if (pyrt_init(NULL) < 0) {
		ok(0, "pyrt_init: %s", err_last());
		return done();
	}
	test_no_ast_import();
	ast_mod = PyImport_ImportModule("ast");
	ast_dump_fn = ast_mod ? PyObject_GetAttrString(ast_mod, "dump") : NULL;
	ok(ast_dump_fn != NULL, "the test imports ast.dump");
	if (!ast_dump_fn) {
		PyErr_Print();
		goto out;
	}

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			files_add(&fl, xstrdup(argv[i]));
	} else if (corpus && *corpus) {
		list_py(corpus, 0, &fl);
	} else {
		if (!quick) {
			/* The embedded interpreter's own stdlib: dirname(os.__file__). */
			os_mod = PyImport_ImportModule("os");
			os_file = os_mod ? PyObject_GetAttrString(os_mod, "__file__") : NULL;
			if (os_file && PyUnicode_Check(os_file)) {
				char *dir = xstrdup(PyUnicode_AsUTF8(os_file));
				char *slash = strrchr(dir, '/');

				if (slash)
					*slash = 0;
				list_py(dir, 1, &fl);
				free(dir);
			}
			PyErr_Clear();
			ok(fl.n > 100, "%zu stdlib files listed", fl.n);
		}
		k = fl.n;
		list_py(ECG_SRCDIR "/examples", 0, &fl);
		ok(fl.n > k, "%zu examples/ files listed", fl.n - k);
	}

	if (do_bench) {
		bench(&fl);
		goto out;
	}

	test_tables();
	test_syntax_forms();
	test_treecache_damage(quick);
	test_type_comments();
	test_positions();
	test_constants();
	test_helpers();
	test_bad_trees();
	test_depth();
	test_float_repr(quick);
	test_str_repr(quick);
	test_no_leak(&fl);
	for (k = 0; k < fl.n; k++)
		check_file(fl.v[k], &skipped);
	if (skipped)
		diag("%d files skipped: they do not parse", skipped);
	ok(!PyErr_Occurred(), "no exception pending at the end");
out:
	files_free(&fl);
	Py_XDECREF(os_file);
	Py_XDECREF(os_mod);
	Py_CLEAR(ast_dump_fn);
	Py_XDECREF(ast_mod);
	astconv_fini();
	pyrt_fini();
	return done();
}
