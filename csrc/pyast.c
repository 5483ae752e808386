/* pyast.c - see include/ecg/pyast.h
 *
 * What ast.parse(source_bytes, path) does inside, without importing `ast`:
 * Py_CompileStringObject(src, path, Py_file_input, PyCF_ONLY_AST, -1).  The
 * bytes go to the tokenizer as they are, so a PEP 263 coding cookie, a UTF-8
 * BOM and the UTF-8 default are handled exactly as by `python file.py`.
 *
 * Every way the parser can refuse a file becomes return 1 with a message and
 * the run goes on; -1 is kept for the runtime itself failing.
 *
 * Deeply nested source: CPython 3.11 bounds its own recursion, and each of
 * these (100,000 deep) comes back as an exception rather than a crash:
 *   "(" * N ... ")" * N, "[" * N, "{" * N   SyntaxError "too many nested
 *                                           parentheses" (tokenizer, 200)
 *   "-" * N + "1", "not " * N, "lambda:" * N, "a if b else " * N
 *                                           MemoryError with no message
 *                                           (parser stack, MAXSTACK 6000)
 *   "a" + ".b" * N, "[0]" * N, "()" * N, "1" + "+1" * N
 *                                           RecursionError "maximum recursion
 *                                           depth exceeded during ast
 *                                           construction" (ast2obj)
 * so no pre-scan is done here (see test_deep() in tests/unit/test_pyast.c).
 * These limits assume the usual 8 MiB main-thread stack: the whole unit test
 * passes down to `ulimit -s 1024`, while at 512 KiB the parser's 6000 levels
 * of "-" * N overflow the C stack before MAXSTACK is reached.  Parse on the
 * main thread, or on a thread with a stack of several MiB.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/err.h"
#include "ecg/pep695.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

static size_t pyast_max_tokens = PYAST_DEFAULT_MAX_TOKENS;

size_t pyast_get_max_tokens(void)
{
	return pyast_max_tokens;
}

void pyast_set_max_tokens(size_t n)
{
	pyast_max_tokens = n;
}

/* About how many tokens the tokenizer would make of src: names and
 * numbers count one each, a string literal (any prefix, any quotes) one,
 * every other character that is not blank one; comments none.  An upper
 * bound of the AST's size, read in one pass without Python.  Stops
 * counting past `stop`. */
size_t pyast_count_tokens(const char *src, size_t len, size_t stop)
{
	size_t i = 0, n = 0;

	while (i < len && n <= stop) {
		unsigned char c = (unsigned char)src[i];

		if (c == '#') {
			while (i < len && src[i] != '\n')
				i++;
		} else if (c == '\'' || c == '"') {
			int triple = i + 2 < len && src[i + 1] == (char)c && src[i + 2] == (char)c;

			i += triple ? 3 : 1;
			while (i < len) {
				if (src[i] == '\\') {
					i += 2;
					continue;
				}
				if (src[i] == (char)c && (!triple || (i + 2 < len && src[i + 1] == (char)c &&
				                                      src[i + 2] == (char)c))) {
					i += triple ? 3 : 1;
					break;
				}
				if (!triple && src[i] == '\n')
					break;
				i++;
			}
			n++;
			continue;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		           c >= 0x80) {
			while (i < len && ((src[i] >= 'a' && src[i] <= 'z') || (src[i] >= 'A' && src[i] <= 'Z') ||
			                   (src[i] >= '0' && src[i] <= '9') || src[i] == '_' || src[i] == '.' ||
			                   (unsigned char)src[i] >= 0x80))
				i++;
			/* a string prefix (f"", rb'') is part of the string */
			if (i < len && (src[i] == '\'' || src[i] == '"'))
				continue;
			n++;
			continue;
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\\') {
			n++;
		}
		i++;
	}
	return n;
}

void pyast_error_clear(pyast_error *e)
{
	if (!e)
		return;
	free(e->message);
	e->message = NULL;
	e->line = 0;
	e->col = 0;
}

/* Line and column (1-based; the column counts UTF-8 characters, as
 * CPython's offsets do) of byte `pos`.  "\r\n" and a lone "\r" end a line,
 * as in the tokenizer. */
static void byte_position(const char *src, size_t pos, long *line, long *col)
{
	long l = 1, c = 1;
	size_t i;

	for (i = 0; i < pos; i++) {
		unsigned char ch = (unsigned char)src[i];

		if (ch == '\n' || (ch == '\r' && src[i + 1] != '\n')) {
			l++;
			c = 1;
		} else if ((ch & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Integer attribute `name` of `obj`, or 0 when it is missing, None, not an
 * int, or negative (CPython uses -1 and None for "unknown").  Never leaves
 * an exception pending. */
static long int_attr(PyObject *obj /* borrowed */, const char *name)
{
	PyObject *v = NULL;
	long n = 0;

	v = PyObject_GetAttrString(obj, name);
	if (!v || !PyLong_Check(v))
		goto cleanup;
	n = PyLong_AsLong(v);
	if (n < 0)
		n = 0;
cleanup:
	PyErr_Clear();
	Py_XDECREF(v);
	return n;
}

/* Turn the pending exception into *perr and clear it.  Always returns 1:
 * whatever the parser raised, the file is what is bad. */
static int parse_failure(pyast_error *perr)
{
	PyObject *value = NULL;
	PyObject *msg = NULL;
	PyObject *type; /* borrowed */
	char *text = NULL;
	const char *tname;

	value = pyrt_take_exception();
	if (!value) {
		perr->message = xstrdup("the parser failed without saying why");
		goto cleanup;
	}
	type = (PyObject *)Py_TYPE(value);
	tname = pyrt_type_short_name(type);
	if (PyErr_GivenExceptionMatches(type, PyExc_SyntaxError)) {
		/* SyntaxError, IndentationError, TabError; decoding problems
		 * (bad cookie, bytes that are not UTF-8) come as SyntaxError
		 * too, with the codec's message in msg. */
		perr->line = int_attr(value, "lineno");
		perr->col = int_attr(value, "offset");
		msg = PyObject_GetAttrString(value, "msg");
		if (msg && PyUnicode_Check(msg))
			text = pyrt_object_str(msg);
		if (!text)
			text = pyrt_object_str(value);
		perr->message = text ? text : xstrdup(tname);
		text = NULL;
		goto cleanup;
	}
	/* ValueError, UnicodeDecodeError, RecursionError ("during ast
	 * construction"), MemoryError (3.11's parser-stack overflow, empty
	 * message), OverflowError, SystemError, or anything else. */
	perr->line = int_attr(value, "lineno");
	if (perr->line)
		perr->col = int_attr(value, "offset");
	text = pyrt_object_str(value);
	if (text && *text)
		perr->message = xasprintf("%s: %s", tname, text);
	else if (PyErr_GivenExceptionMatches(type, PyExc_MemoryError))
		perr->message = xstrdup("MemoryError: the parser ran out of stack "
		                        "or memory (nesting too deep?)");
	else
		perr->message = xstrdup(tname);
cleanup:
	free(text);
	Py_XDECREF(msg);
	Py_XDECREF(value);
	PyErr_Clear();
	return 1;
}

void pyast_warm(void)
{
	PyCompilerFlags flags;
	PyObject *name = NULL;
	PyObject *mod = NULL;

	name = PyUnicode_FromString("/dev/null/<warm-up>");
	if (!name)
		goto cleanup;
	memset(&flags, 0, sizeof flags);
	flags.cf_flags = PyCF_ONLY_AST;
	flags.cf_feature_version = PY_MINOR_VERSION;
	mod = Py_CompileStringObject("", name, Py_file_input, &flags, -1);
cleanup:
	PyErr_Clear();
	Py_XDECREF(mod);
	Py_XDECREF(name);
}

/* The file did not parse: when the embedded parser predates 3.12, read it
 * once more with PEP 695's forms rewritten (pep695.h).  The new tree, or
 * NULL (no Python exception left) when there was nothing to rewrite or the
 * rewritten source does not parse either. */
static PyObject *retry_newer_grammar(const char *src, size_t len, PyObject *filename,
                                     PyCompilerFlags *flags)
{
#if PY_VERSION_HEX < 0x030C0000
	char *again = pep695_downgrade(src, len);
	PyObject *mod;

	if (!again)
		return NULL;
	mod = Py_CompileStringObject(again, filename, Py_file_input, flags, -1);
	free(again);
	if (!mod)
		PyErr_Clear();
	return mod;
#else
	(void)src;
	(void)len;
	(void)filename;
	(void)flags;
	return NULL;
#endif
}

int pyast_parse(const char *path, const char *src, size_t len,
                PyObject **out, pyast_error *perr)
{
	PyObject *filename = NULL;
	char *fname;
	PyObject *mod = NULL;
	PyCompilerFlags flags;
	const char *nul;
	int rc = -1;

	*out = NULL;
	perr->line = 0;
	perr->col = 0;
	perr->message = NULL;

	/* The tokenizer reads a C string: a NUL would silently end the file
	 * (compile() refuses such source outright). */
	nul = memchr(src, 0, len);
	if (nul) {
		byte_position(src, (size_t)(nul - src), &perr->line, &perr->col);
		perr->message = xstrdup("source contains a NUL byte");
		return 1;
	}

	/* A file whose tree would take gigabytes (a data table written as one
	 * literal): refused before CPython builds it.  The count is at most
	 * one per byte, so a file of no more bytes than the limit passes
	 * without being counted (most files, by far). */
	if (pyast_max_tokens && len > pyast_max_tokens &&
	    pyast_count_tokens(src, len, pyast_max_tokens) > pyast_max_tokens) {
		perr->message = xasprintf("more than %zu tokens: too large to read (--max-file-tokens)",
		                          pyast_max_tokens);
		return 1;
	}

	/* On a syntax error CPython opens the file *by this name* to fill in
	 * SyntaxError.text.  We parse blobs, not files: a name under /dev/null/
	 * can never be opened, so nothing in the current directory (a work
	 * tree, a FIFO) is ever read.  Messages use `path`, not this name.
	 * (Decoded as PyUnicode_DecodeFSDefault() does in the UTF-8 mode
	 * pyrt.c sets, without the codec registry: see pyrt_init_lazy().) */
	fname = xasprintf("/dev/null/%s", path ? path : "<unknown>");
	filename = PyUnicode_DecodeUTF8(fname, (Py_ssize_t)strlen(fname), "surrogateescape");
	free(fname);
	if (!filename) {
		pyrt_error("python: decoding a file name");
		goto cleanup;
	}

	memset(&flags, 0, sizeof flags);
	flags.cf_flags = PyCF_ONLY_AST;
	flags.cf_feature_version = PY_MINOR_VERSION;
	mod = Py_CompileStringObject(src, filename, Py_file_input, &flags, -1);
	if (!mod) {
		rc = parse_failure(perr);
		if (rc == 1)
			mod = retry_newer_grammar(src, len, filename, &flags);
		if (!mod)
			goto cleanup;
		pyast_error_clear(perr);
	}
	*out = mod;
	mod = NULL;
	rc = 0;
cleanup:
	Py_XDECREF(mod);
	Py_XDECREF(filename);
	return rc;
}
