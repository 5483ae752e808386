/* helpers.c - see include/ecg/helpers.h */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/util.h"

#define HELPERS_PROBE "ecg_config.py"

static int helpers_ok(const char *dir)
{
	char *p = xasprintf("%s/%s", dir, HELPERS_PROBE);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

/* 1 if this process's executable lives in the build tree. */
static int helpers_in_build_tree(void)
{
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash;

	if (n <= 0)
		return 0;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = 0;
	if (!realpath(ECG_BUILDDIR, build))
		return 0;
	return strcmp(exe, build) == 0;
}

char *helpers_find(const char *explicit_dir)
{
	char *dir;

	if (explicit_dir) {
		if (!helpers_ok(explicit_dir)) {
			err_set(ECG_EXIT_USAGE, "--helpers-dir '%s' does not hold %s", explicit_dir,
			        HELPERS_PROBE);
			return NULL;
		}
		return xstrdup(explicit_dir);
	}
	if (helpers_in_build_tree()) {
		dir = xstrdup(ECG_SRCDIR "/pyhelpers");
		if (helpers_ok(dir))
			return dir;
		free(dir);
	}
	dir = xstrdup(ECG_PKGDATADIR "/pyhelpers");
	if (helpers_ok(dir))
		return dir;
	err_set(ECG_EXIT_INTERNAL, "the helpers are not installed: no %s in '%s' (reinstall ecg, or give --helpers-dir)",
	        HELPERS_PROBE, dir);
	free(dir);
	return NULL;
}

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ecg/pyrt.h"

int helpers_load(const char *dir, const char *name, PyObject **out)
{
	char *path = xasprintf("%s/%s.py", dir, name);
	char *src = NULL;
	FILE *f = NULL;
	long size;
	PyObject *code = NULL, *mod = NULL, *api = NULL, *file = NULL;
	PyObject *dict; /* borrowed */
	int rc = -1;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f) {
		err_set(ECG_EXIT_INTERNAL, "cannot open helper '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    size > (1L << 20)) {
		err_set(ECG_EXIT_INTERNAL, "cannot read helper '%s'", path);
		goto cleanup;
	}
	src = xmalloc((size_t)size + 1);
	if (fread(src, 1, (size_t)size, f) != (size_t)size) {
		err_set(ECG_EXIT_INTERNAL, "cannot read helper '%s'", path);
		goto cleanup;
	}
	src[size] = 0;
	code = Py_CompileString(src, path, Py_file_input);
	if (!code) {
		pyrt_error(path);
		goto cleanup;
	}
	mod = PyModule_New(name);
	if (!mod) {
		pyrt_error(path);
		goto cleanup;
	}
	dict = PyModule_GetDict(mod); /* borrowed */
	file = PyUnicode_DecodeFSDefault(path);
	if (!file || PyDict_SetItemString(dict, "__file__", file) < 0 ||
	    PyDict_SetItemString(dict, "__builtins__", PyEval_GetBuiltins()) < 0) {
		pyrt_error(path);
		goto cleanup;
	}
	{
		PyObject *r = PyEval_EvalCode(code, dict, dict);

		if (!r) {
			pyrt_error(path);
			goto cleanup;
		}
		Py_DECREF(r);
	}
	api = PyObject_GetAttrString(mod, "ECG_HELPERS_API");
	if (!api || !PyLong_Check(api) || PyLong_AsLong(api) != HELPERS_API) {
		PyErr_Clear();
		err_set(ECG_EXIT_INTERNAL, "helper '%s' is not for this ecg (ECG_HELPERS_API != %d)", path,
		        HELPERS_API);
		goto cleanup;
	}
	*out = mod;
	mod = NULL;
	rc = 0;
cleanup:
	Py_XDECREF(api);
	Py_XDECREF(file);
	Py_XDECREF(mod);
	Py_XDECREF(code);
	free(src);
	if (f)
		fclose(f);
	free(path);
	return rc;
}
