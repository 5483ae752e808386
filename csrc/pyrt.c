/* pyrt.c - see include/ecg/pyrt.h
 *
 * The only file that touches PyConfig.  The interpreter is started isolated
 * (no PYTHON* environment variables, no site, no user site, no bytecode
 * writing, no signal handlers) with its home fixed at configure time, so the
 * stdlib is found wherever the ecg binary lives and PYTHONHOME/PYTHONPATH are
 * never read.  Nothing is ever added to sys.path; neither `site` nor `ast`
 * is imported (pyast.c calls the parser directly).
 *
 * It can also be started in two steps (pyrt_init_lazy(); pyrt.h says when
 * that is safe), and the allocators are tuned for parsing file after file
 * (pyrt_preinit(), "memory" below).
 */
#include "config.h"

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

#ifndef ECG_PY_PREFIX
#error "ECG_PY_PREFIX must be defined by configure (config.h)"
#endif

/* Fixed rather than argv[0].  getpath still looks "ecg" up on PATH to fill
 * sys.executable (used for nothing here), but with config.home set the
 * prefix and the stdlib come from home alone: no landmark search, and a
 * pyvenv.cfg next to that executable is not read (checked by hand with a
 * fake venv whose pyvenv.cfg said home = /nonexistent). */
#define PYRT_PROGRAM_NAME "ecg"

static int pyrt_started;   /* Py_InitializeFromConfig() succeeded */
static char *pyrt_helpers; /* owned copy of the helpers directory, or NULL */
static int pyrt_preinited; /* pyrt_preinit() succeeded (until pyrt_fini()) */
static int pyrt_core_only; /* started, its main phase not run yet (pyrt_init_lazy) */
static int pyrt_core_left; /* a core-only interpreter that pyrt_fini() left running */
static int pyrt_full_left; /* a complete one that pyrt_release() left running */

/* CPython's two-phase start (PEP 587's provisional API: PyConfig._init_main
 * and _Py_InitializeMain(), in 3.8 to 3.13).  Elsewhere pyrt_init_lazy()
 * is pyrt_init(). */
#if PY_VERSION_HEX >= 0x03080000 && PY_VERSION_HEX < 0x030E0000
#define PYRT_HAVE_CORE_ONLY 1
#else
#define PYRT_HAVE_CORE_ONLY 0
#endif

static int status_error(const char *what, PyStatus st)
{
	if (PyStatus_IsExit(st))
		return err_set(ECG_EXIT_INTERNAL,
		               "python: %s: the interpreter asked to exit (status %d)",
		               what, st.exitcode);
	return err_set(ECG_EXIT_INTERNAL, "python: %s: %s%s%s", what,
	               st.func ? st.func : "", st.func ? ": " : "",
	               st.err_msg ? st.err_msg : "unknown error");
}

/* see pyrt.h */
const char *pyrt_type_short_name(PyObject *type /* borrowed */)
{
	const char *name, *dot;

	if (!type || !PyType_Check(type))
		return "unknown exception";
	name = ((PyTypeObject *)type)->tp_name;
	dot = strrchr(name, '.');
	return dot ? dot + 1 : name;
}

/* see pyrt.h */
char *pyrt_object_str(PyObject *obj /* borrowed */)
{
	PyObject *str = NULL;
	PyObject *bytes = NULL;
	char *res = NULL;

	if (!obj || obj == Py_None)
		goto cleanup;
	str = PyObject_Str(obj);
	if (!str)
		goto cleanup;
	bytes = PyUnicode_AsEncodedString(str, "utf-8", "backslashreplace");
	if (!bytes)
		goto cleanup;
	res = xstrndup(PyBytes_AS_STRING(bytes), (size_t)PyBytes_GET_SIZE(bytes));
cleanup:
	PyErr_Clear();
	Py_XDECREF(bytes);
	Py_XDECREF(str);
	return res;
}

/* see pyrt.h; 3.12 replaced PyErr_Fetch() and deprecated it */
PyObject *pyrt_take_exception(void)
{
#if PY_VERSION_HEX >= 0x030C0000
	return PyErr_GetRaisedException();
#else
	PyObject *type = NULL;
	PyObject *value = NULL;
	PyObject *tb = NULL;

	PyErr_Fetch(&type, &value, &tb);
	if (type)
		PyErr_NormalizeException(&type, &value, &tb);
	Py_XDECREF(type);
	Py_XDECREF(tb);
	return value;
#endif
}

int pyrt_error(const char *context)
{
	PyObject *exc = NULL;
	PyObject *type; /* borrowed */
	char *msg = NULL;

	if (!context)
		context = "python";
	exc = pyrt_take_exception();
	if (!exc) {
		err_set(ECG_EXIT_INTERNAL, "%s: unknown Python error", context);
		goto cleanup;
	}
	type = (PyObject *)Py_TYPE(exc);
	msg = pyrt_object_str(exc);
	if (msg && *msg)
		err_set(ECG_EXIT_INTERNAL, "%s: %s: %s", context,
		        pyrt_type_short_name(type), msg);
	else
		err_set(ECG_EXIT_INTERNAL, "%s: %s", context, pyrt_type_short_name(type));
cleanup:
	free(msg);
	Py_XDECREF(exc);
	PyErr_Clear();
	return -1;
}

/* Does sys.path entry `entry` make imports depend on the current directory?
 * "" and any relative entry do; so does the absolute current directory,
 * unless it is one of the interpreter's own directories (someone running ecg
 * from inside /usr/lib/python3.X must keep the stdlib). */
static int path_entry_is_cwd(const char *entry, const char *cwd)
{
	size_t plen = strlen(ECG_PY_PREFIX);

	if (entry[0] != '/')
		return 1;
	if (!cwd || strcmp(entry, cwd) != 0)
		return 0;
	if (strncmp(entry, ECG_PY_PREFIX, plen) == 0 &&
	    (entry[plen] == '/' || ECG_PY_PREFIX[plen - 1] == '/'))
		return 0;
	return 1;
}

/* Remove "" / relative / current-directory entries from sys.path.
 *
 * With an isolated config (safe_path=1), parse_argv=0 and no script or -c to
 * run, CPython never puts the script directory or '' at sys.path[0] -- that
 * is done by Py_RunMain(), which we do not call.  This is the belt to that
 * brace: if a future CPython or a distribution patch did add one, a job's own
 * ast.py, tokenize.py or encodings/ could shadow the stdlib. */
static int sanitize_sys_path(void)
{
	PyObject *path; /* borrowed */
	PyObject *item; /* borrowed */
	char cwdbuf[PATH_MAX];
	const char *cwd;
	const char *s;
	Py_ssize_t i;

	path = PySys_GetObject("path");
	if (!path || !PyList_Check(path))
		return err_set(ECG_EXIT_INTERNAL, "python: sys.path is not a list");
	cwd = getcwd(cwdbuf, sizeof cwdbuf);
	for (i = PyList_GET_SIZE(path) - 1; i >= 0; i--) {
		item = PyList_GET_ITEM(path, i);
		if (!PyUnicode_Check(item))
			continue;
		s = PyUnicode_AsUTF8(item);
		if (!s) {
			PyErr_Clear();
			continue;
		}
		if (path_entry_is_cwd(s, cwd) &&
		    PyList_SetSlice(path, i, i + 1, NULL) < 0)
			return pyrt_error("python: cleaning sys.path");
	}
	return 0;
}

/* The parser reports a few things as warnings ("invalid decimal literal"
 * for `0in x`, invalid escape sequences), which CPython prints to stderr.
 * ecg reads code, it does not lint it: put an "ignore everything" filter in
 * front of the C-level filter list, as warnings.simplefilter("ignore") does.
 * (config.warnoptions = ["ignore"] does the same through public API but
 * imports the `warnings` module at start-up, ~0.8 ms.)  Failing here costs
 * nothing but noise on stderr, so it is not an error; tests/unit/test_pyast
 * checks that the parser's warnings stay silent. */
static void silence_warnings(void)
{
	PyObject *mod = NULL;
	PyObject *filters = NULL;
	PyObject *entry = NULL;
	PyObject *res = NULL;

	mod = PyImport_ImportModule("_warnings");
	if (!mod)
		goto cleanup;
	filters = PyObject_GetAttrString(mod, "filters");
	if (!filters || !PyList_Check(filters))
		goto cleanup;
	/* (action, message, category, module, lineno) */
	entry = Py_BuildValue("(sOOOi)", "ignore", Py_None, PyExc_Warning,
	                      Py_None, 0);
	if (!entry || PyList_Insert(filters, 0, entry) < 0)
		goto cleanup;
	/* Invalidate the "already warned" caches; renamed in 3.13, and
	 * nothing has warned yet anyway. */
	if (PyObject_HasAttrString(mod, "_filters_mutated"))
		res = PyObject_CallMethod(mod, "_filters_mutated", NULL);
cleanup:
	PyErr_Clear();
	Py_XDECREF(res);
	Py_XDECREF(entry);
	Py_XDECREF(filters);
	Py_XDECREF(mod);
}

/* ------------------------------------------------------------ memory
 *
 * Parsing file after file allocates a tree and frees all of it, again and
 * again.  With the allocators' defaults every file returns its memory to
 * the kernel and takes it back for the next one: glibc trims the top of the
 * heap (brk) whenever 128 KiB are free there and maps bigger blocks on
 * their own, and pymalloc unmaps every 1 MiB arena that empties.  Each round
 * trip costs page faults and pages zeroed by the kernel: about 9% of a
 * parse run's time, most of the system time (perf, 2000 generated files).
 * So the freed memory is kept for the next file: glibc keeps up to
 * PYRT_TRIM_KEEP at the top of its heap (grown PYRT_TOP_PAD at a time, and
 * blocks up to PYRT_MMAP_ABOVE taken from it too), and pymalloc's arenas
 * go through the allocator below, which keeps up to PYRT_ARENA_CACHE of
 * them mapped.  The peak (RSS) is what the largest file needs, as before;
 * what is kept is given back at exit. */

#define PYRT_TRIM_KEEP ((size_t)64 << 20)
#define PYRT_TOP_PAD ((size_t)4 << 20)
#define PYRT_MMAP_ABOVE ((size_t)32 << 20)
#define PYRT_ARENA_CACHE 32

static struct {
	void *ptr[PYRT_ARENA_CACHE];
	size_t size[PYRT_ARENA_CACHE];
	int n;
} pyrt_arenas;

static void *pyrt_arena_alloc(void *ctx, size_t size)
{
	void *p;
	int i;

	(void)ctx;
	for (i = pyrt_arenas.n - 1; i >= 0; i--) {
		if (pyrt_arenas.size[i] == size) {
			p = pyrt_arenas.ptr[i];
			pyrt_arenas.n--;
			pyrt_arenas.ptr[i] = pyrt_arenas.ptr[pyrt_arenas.n];
			pyrt_arenas.size[i] = pyrt_arenas.size[pyrt_arenas.n];
			return p;
		}
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void pyrt_arena_free(void *ctx, void *p, size_t size)
{
	(void)ctx;
	if (pyrt_arenas.n < PYRT_ARENA_CACHE) {
		pyrt_arenas.ptr[pyrt_arenas.n] = p;
		pyrt_arenas.size[pyrt_arenas.n] = size;
		pyrt_arenas.n++;
		return;
	}
	munmap(p, size);
}

/* Unmap the arenas kept (after Py_FinalizeEx(): pymalloc frees arenas
 * only when they empty, and they all go through the allocator above). */
static void pyrt_arenas_release(void)
{
	while (pyrt_arenas.n > 0) {
		pyrt_arenas.n--;
		munmap(pyrt_arenas.ptr[pyrt_arenas.n], pyrt_arenas.size[pyrt_arenas.n]);
	}
}

static void pyrt_tune_memory(void)
{
	static int done;
	PyObjectArenaAllocator a;

	if (done)
		return;
	done = 1;
	/* Failures only cost speed (and sanitizers and valgrind bring their
	 * own malloc, which these do not tune). */
	(void)mallopt(M_TRIM_THRESHOLD, (int)PYRT_TRIM_KEEP);
	(void)mallopt(M_TOP_PAD, (int)PYRT_TOP_PAD);
	(void)mallopt(M_MMAP_THRESHOLD, (int)PYRT_MMAP_ABOVE);
	/* Before any arena exists; the default allocator is mmap/munmap of
	 * the same sizes, so either can free what the other mapped. */
	a.ctx = NULL;
	a.alloc = pyrt_arena_alloc;
	a.free = pyrt_arena_free;
	PyObject_SetArenaAllocator(&a);
}

/* The parser's own limits (MAXSTACK, the recursion limit of the tree's
 * construction) hold before the C stack runs out only with a stack of a
 * few MiB (pyast.c): at `ulimit -s 512` a 100,000-long chain of unary
 * minus is a segmentation fault, not a parse error.  The main thread's
 * stack grows up to the soft limit of the moment, so a lower soft limit is
 * raised to PYRT_STACK (or the hard limit); the parser processes inherit
 * it.  When the hard limit is lower, say so once. */
#define PYRT_STACK ((rlim_t)16 << 20)
#define PYRT_STACK_NEEDED ((rlim_t)8 << 20)

static void pyrt_raise_stack(void)
{
	static int done;
	struct rlimit rl;

	if (done)
		return;
	done = 1;
	if (getrlimit(RLIMIT_STACK, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= PYRT_STACK_NEEDED)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > PYRT_STACK ? PYRT_STACK : rl.rlim_max;
	if (setrlimit(RLIMIT_STACK, &rl) < 0 || rl.rlim_cur < PYRT_STACK_NEEDED)
		err_warn("the stack is limited to %llu KiB (ulimit -s): a deeply nested file may crash the "
		         "parser; 8192 KiB or more is safe", (unsigned long long)(rl.rlim_cur >> 10));
}

int pyrt_preinit(void)
{
	PyPreConfig preconfig;
	PyStatus st;

	if (pyrt_preinited)
		return 0;
	pyrt_raise_stack();
	pyrt_tune_memory();
	PyPreConfig_InitIsolatedConfig(&preconfig);
	preconfig.utf8_mode = 1;
	st = Py_PreInitialize(&preconfig);
	if (PyStatus_Exception(st))
		return status_error("pre-initialisation", st);
	pyrt_preinited = 1;
	return 0;
}

/* The main phase of the start-up, run now: sys.path, the path importer,
 * the codecs (`encodings`), sys.std*, __main__. */
static int pyrt_main_phase(void)
{
#if PYRT_HAVE_CORE_ONLY
	PyStatus st = _Py_InitializeMain();

	if (PyStatus_Exception(st))
		return status_error("initialisation, main phase (home " ECG_PY_PREFIX ")", st);
#endif
	pyrt_core_only = 0;
	return sanitize_sys_path();
}

int pyrt_partial(void)
{
	return pyrt_started && pyrt_core_only;
}

int pyrt_need_main(void)
{
	if (!pyrt_started || !pyrt_core_only)
		return 0;
	return pyrt_main_phase();
}

static int pyrt_start(const char *helpers_dir, int lazy)
{
	PyConfig config;
	PyObject *m = NULL;
	PyStatus st;
	int rc = -1;

	if (pyrt_full_left && !pyrt_started) {
		/* still there, as pyrt_release() left it: complete */
		pyrt_started = 1;
		pyrt_core_only = 0;
		pyrt_full_left = 0;
		free(pyrt_helpers);
		pyrt_helpers = helpers_dir ? xstrdup(helpers_dir) : NULL;
		return 0;
	}
	if (pyrt_started || Py_IsInitialized())
		return err_set(ECG_EXIT_INTERNAL,
		               "python: the interpreter is already initialised");

	if (pyrt_core_left) {
		/* still there, as pyrt_fini() left it (core only) */
		pyrt_started = 1;
		pyrt_core_only = 1;
		pyrt_core_left = 0;
		free(pyrt_helpers);
		pyrt_helpers = helpers_dir ? xstrdup(helpers_dir) : NULL;
		return lazy ? 0 : pyrt_main_phase();
	}

	if (pyrt_preinit() < 0)
		return -1;

	PyConfig_InitIsolatedConfig(&config);
	config.isolated = 1;
	config.use_environment = 0;
	config.safe_path = 1;
	config.site_import = 0;
	config.user_site_directory = 0;
	config.write_bytecode = 0;
	config.install_signal_handlers = 0;
	config.parse_argv = 0;
	config.pathconfig_warnings = 0;
#if PYRT_HAVE_CORE_ONLY
	if (lazy)
		config._init_main = 0;
#endif
	st = PyConfig_SetBytesString(&config, &config.program_name,
	                             PYRT_PROGRAM_NAME);
	if (PyStatus_Exception(st)) {
		status_error("setting program_name", st);
		goto cleanup;
	}
	st = PyConfig_SetBytesString(&config, &config.home, ECG_PY_PREFIX);
	if (PyStatus_Exception(st)) {
		status_error("setting home", st);
		goto cleanup;
	}
	/* Never Py_ExitStatusException(): a failure here is an ecg error. */
	st = Py_InitializeFromConfig(&config);
	if (PyStatus_Exception(st)) {
		status_error("initialisation (home " ECG_PY_PREFIX ")", st);
		goto cleanup;
	}
	pyrt_started = 1;
	pyrt_core_only = PYRT_HAVE_CORE_ONLY && lazy;

	if (pyrt_core_only) {
		/* The parser imports unicodedata for a non-ASCII identifier:
		 * a core-only interpreter imports built-in modules only, so
		 * where it is an extension module, the main phase is run
		 * now.  (Imported here either way: the parser finds it in
		 * sys.modules.) */
		m = PyImport_ImportModule("unicodedata");
		if (!m) {
			PyErr_Clear();
			if (pyrt_main_phase() < 0)
				goto cleanup;
		}
	} else if (sanitize_sys_path() < 0) {
		goto cleanup;
	}
	silence_warnings();

	/* The ASTs are trees: we create no reference cycles, and a cyclic GC
	 * pass walks every live node.  With many ASTs alive that is most of
	 * the run time (architecture.md, "What is known about speed"), and
	 * even one file at a time it costs ~13%.  Memory is reclaimed by
	 * reference counting alone. */
	PyGC_Disable();

	free(pyrt_helpers);
	pyrt_helpers = helpers_dir ? xstrdup(helpers_dir) : NULL;
	rc = 0;
cleanup:
	Py_XDECREF(m);
	PyConfig_Clear(&config);
	return rc;
}

int pyrt_init(const char *helpers_dir)
{
	return pyrt_start(helpers_dir, 0);
}

int pyrt_init_lazy(const char *helpers_dir)
{
	return pyrt_start(helpers_dir, 1);
}

void pyrt_release(void)
{
	if (pyrt_started && !pyrt_core_only && Py_IsInitialized()) {
		PyErr_Clear();
		pyrt_full_left = 1;
		pyrt_started = 0;
		free(pyrt_helpers);
		pyrt_helpers = NULL;
		return;
	}
	pyrt_fini();
}

void pyrt_fini(void)
{
	if (!pyrt_started && pyrt_full_left) {
		/* what pyrt_release() left and no pyrt_init*() took up */
		pyrt_started = 1;
		pyrt_full_left = 0;
	}
	if (pyrt_started && pyrt_core_only) {
		/* Py_FinalizeEx() does nothing to an interpreter whose main
		 * phase never ran, and running it only to finalize costs
		 * more than the whole parse of a small job: the interpreter
		 * stays (a later pyrt_init*() takes it up again) and goes
		 * with the process, as in the parser processes.  Its memory
		 * stays reachable (valgrind: "still reachable"). */
		PyErr_Clear();
		pyrt_core_left = 1;
	} else if (pyrt_started && Py_IsInitialized()) {
		PyErr_Clear();
		/* A failure to flush sys.stdout is nothing ecg wrote. */
		(void)Py_FinalizeEx();
		pyrt_arenas_release();
		pyrt_preinited = 0;
	}
	pyrt_started = 0;
	pyrt_core_only = 0;
	free(pyrt_helpers);
	pyrt_helpers = NULL;
}

const char *pyrt_version(void)
{
	static char version[32];
	const char *v = Py_GetVersion();
	size_t n = strcspn(v, " ");

	if (n >= sizeof version)
		n = sizeof version - 1;
	memcpy(version, v, n);
	version[n] = 0;
	return version;
}

const char *pyrt_helpers_dir(void)
{
	return pyrt_helpers;
}
