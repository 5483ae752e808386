/* catalog.h - what ecg knows about torch without running it.
 *
 * Three data files ship in <pkgdatadir>/catalog/, the sibling of pyhelpers/
 * (in the build tree: $(srcdir)/catalog/).  The first two are generated, and
 * checked against a real torch, by tests/oracle/gen_catalog.py; its header
 * describes the expression language the files use.  The third is written by
 * hand: what ecg knows of torch (and the libraries around it) by name that
 * torch cannot tell about itself.
 *
 *   torch_nn.json     torch.nn built-in classes: constructor and forward
 *                     parameters, the steps (ops and child-module calls)
 *                     each forward makes at top level in torch 1.13, with
 *                     the conditions they depend on, a parameter-count
 *                     formula, an output-shape rule, the children a
 *                     composite builds.
 *   torch_names.json  Tensor methods and properties, torch.* functions and
 *                     classes, torch.nn.functional functions, the "meta"
 *                     names, tensor factories, Python operators -> Tensor
 *                     dunders.
 *   torch_facts.json  named fact lists the interpreter and shapes.c read
 *                     instead of listing names in C (enum catalog_fact):
 *                     collectives, wrappers, third-party module packages,
 *                     name folds, factories, shape and dtype rules of ops.
 *
 * Everything is loaded and validated once by catalog_load(); after that the
 * catalogue is read-only, lookups allocate nothing (hash tables) and every
 * pointer handed out (strings, classes, params, steps, expressions) is
 * borrowed from the catalogue and valid until catalog_free().
 *
 * Errors: catalog_load() returns -1 with err_set(ECG_EXIT_INTERNAL,
 * "<path>: <where>: <what is wrong>").  Evaluation functions return 0 with
 * a result, 1 when the result depends on something not known statically
 * (and name it through *unknown, a borrowed string: a constructor or
 * forward parameter name, "training", "first_call" or "distributed"), or
 * -1 with err_set(ECG_EXIT_INTERNAL, ...) when the values have the wrong
 * type for the formula (a string where an integer is needed, an overflow).
 */
#ifndef ECG_CATALOG_H
#define ECG_CATALOG_H

#include <stddef.h>

#include "ecg/ast.h"
#include "ecg/util.h"

struct catalog;
struct catalog_expr;     /* a compiled expression; opaque */
struct catalog_shape;    /* a compiled output-shape rule; opaque */

/* Load <dir>/torch_nn.json, <dir>/torch_names.json, <dir>/torch_facts.json. */
int catalog_load(const char *dir, struct catalog **out);
void catalog_free(struct catalog *cat);     /* NULL is fine */

/* "<parent of helpers_dir>/catalog": where the catalogue sits next to the
 * directory helpers_find() returned.  Caller frees. */
char *catalog_dir_beside(const char *helpers_dir);

/* ------------------------------------------------------------------ values */

enum catalog_vtype {
	CATALOG_UNKNOWN = 0, /* not resolved statically */
	CATALOG_NONE,
	CATALOG_BOOL,        /* i: 0 or 1 */
	CATALOG_INT,         /* i */
	CATALOG_FLOAT,       /* f */
	CATALOG_STR,         /* s */
	CATALOG_TUPLE,       /* a tuple or list of ints: items[0..n) */
	CATALOG_CALLABLE,    /* s: dotted name, "torch.nn.functional.gelu" */
	CATALOG_MODULE,      /* s: class dotted name, "torch.nn.ReLU"; args: its
	                        constructor arguments, or NULL if not known */
	CATALOG_TENSOR,      /* i: rank (-1: unknown); items: its dims when
	                        known (n == rank; a dim < 0 is unknown), else
	                        NULL; s: an identity key (two tensor arguments
	                        are the same object iff their keys are equal;
	                        NULL: unknown); dtype: "torch.float32" or NULL */
	CATALOG_OTHER        /* known and not None, of no type above */
};

struct catalog_args;

/* A value.  All pointers are borrowed (from the caller's data or from the
 * catalogue).  Zero-initialised, it is CATALOG_UNKNOWN. */
struct catalog_value {
	enum catalog_vtype type;
	long long i;
	double f;
	const char *s;
	const long long *items;
	size_t n;
	const char *dtype;
	const struct catalog_args *args;
};

/* Arguments by name, as the caller resolved them.  A parameter that is not
 * listed takes its catalogue default (unknown if it has none); one listed
 * as CATALOG_UNKNOWN is unknown. */
struct catalog_arg {
	const char *name;
	struct catalog_value v;
};

struct catalog_args {
	const struct catalog_arg *v;
	size_t n;
};

/* What an expression is evaluated against.  args: the module's constructor
 * arguments; fwd: the arguments of one forward call (NULL: not known);
 * the three states are 1, 0 or -1 (unknown). */
struct catalog_env {
	const struct catalog_args *args;
	const struct catalog_args *fwd;
	int training;        /* module.training */
	int first_call;      /* the module's first forward (lazy modules materialise) */
	int distributed;     /* torch.distributed world size > 1 */
};

/* ------------------------------------------------------------------ classes */

enum catalog_kind { CATALOG_LAYER = 1, CATALOG_CONTAINER };

enum catalog_pkind {
	CATALOG_POSITIONAL = 1, /* positional or keyword */
	CATALOG_KEYWORD_ONLY,
	CATALOG_VAR_POSITIONAL, /* *args */
	CATALOG_VAR_KEYWORD     /* **kwargs */
};

struct catalog_param {
	const char *name;
	enum catalog_pkind kind;
	int has_default;
	struct catalog_value def;   /* when has_default: NONE, BOOL, INT, FLOAT,
	                               STR, TUPLE, CALLABLE or OTHER */
	int show;                   /* the record lists it even when not passed */
	const char *min_torch;      /* "2.1" for a parameter newer than torch
	                               1.13, else NULL */
};

enum catalog_step_kind {
	CATALOG_STEP_OP = 1,   /* a tensor op: name is its canonical name */
	CATALOG_STEP_MODULE,   /* a child-module call: name is its path under
	                          the module ("linear1"), or "<path>.*" (each
	                          child of that container in order; repeat is
	                          their expected count) or "*" (each child of
	                          this module in order: Sequential) */
	CATALOG_STEP_CALL_ARG  /* a call of the constructor argument `name`: a
	                          string maps to an op (catalog_call_arg_op()),
	                          a CALLABLE is an op of its name, a MODULE is a
	                          call of the child registered under `name` */
};

struct catalog_step {
	enum catalog_step_kind kind;
	const char *name;
	int meta;                          /* OP that only reads metadata */
	const struct catalog_expr *when;   /* NULL: always */
	const struct catalog_expr *repeat; /* MODULE "x.*" only, else NULL */
	const char *const *strings;        /* CALL_ARG: nstrings (value, op) pairs */
	size_t nstrings;
};

/* A submodule a composite built-in constructs (or receives). */
struct catalog_child {
	const char *name;                  /* attribute name, "self_attn" */
	const char *class_name;            /* dotted class name, or NULL when ... */
	const char *class_arg;             /* ... it is the module passed as this
	                                      constructor argument */
	const struct catalog_expr *when;   /* NULL: always present */
	const char *const *arg_names;      /* its constructor arguments, as */
	const struct catalog_expr *const *arg_exprs; /* expressions over ours */
	size_t nargs;
	const char *copy_of;               /* a ModuleList of copy.deepcopy()s of
	                                      this constructor argument ... */
	const struct catalog_expr *count;  /* ... this many; else NULL */
};

struct catalog_class {
	const char *name;          /* "torch.nn.Linear" */
	const char *module;        /* defining module, "torch.nn.modules.linear" */
	enum catalog_kind kind;
	const char *min_torch;     /* NULL, or the first torch that has it */
	const char *notes;         /* NULL or a sentence */
	int recorded;              /* steps were recorded from torch 1.13 (not
	                              written from the source or the docs) */
	const struct catalog_param *params;   /* constructor, in order */
	size_t nparams;
	const struct catalog_param *forward;  /* NULL when it has no forward */
	size_t nforward;
	const struct catalog_step *steps;     /* NULL when it has no forward */
	size_t nsteps;
	const struct catalog_child *children;
	size_t nchildren;
	/* private */
	const struct catalog *cat;
	const struct catalog_expr *count_expr;
	const struct catalog_shape *shape;
	const char *const *var_names;
	const struct catalog_expr *const *var_exprs;
	size_t nvars;
};

/* The class of a dotted name: "torch.nn.Linear", "torch.nn.modules.Linear"
 * or its defining module's spelling "torch.nn.modules.linear.Linear".
 * NULL if the catalogue does not know it. */
const struct catalog_class *catalog_class(const struct catalog *cat, const char *dotted);
size_t catalog_nclasses(const struct catalog *cat);
const struct catalog_class *catalog_class_at(const struct catalog *cat, size_t i); /* sorted by name */

/* A constructor parameter by name, or NULL. */
const struct catalog_param *catalog_param(const struct catalog_class *c, const char *name);
/* The parameter that positional argument `pos` (0-based) binds to: the
 * pos-th CATALOG_POSITIONAL one, else the *args parameter, else NULL (too
 * many positional arguments). */
const struct catalog_param *catalog_param_at(const struct catalog_class *c, size_t pos);

/* Number of parameters (sum of numel()) a module of this class owns with
 * these constructor arguments.  Returns 0 and *out; 1 when an argument it
 * needs is unknown (*unknown names it; for containers the contents argument,
 * "args" / "modules" ..., whose children the caller must sum itself; for lazy
 * modules the forward argument "input"); -1 on a type error.  unknown may be
 * NULL. */
int catalog_param_count(const struct catalog_class *c, const struct catalog_args *args,
                        long long *out, const char **unknown);

/* Whether a step runs: *taken = 1 or 0 (a NULL `when` is always taken).
 * 0, 1 (unknown; *unknown names why) or -1 as above. */
int catalog_when(const struct catalog_class *c, const struct catalog_expr *when,
                 const struct catalog_env *env, int *taken, const char **unknown);

/* Evaluate any expression of this class (a step's repeat, a child's count or
 * argument).  *out may borrow from the env's arguments or the catalogue. */
int catalog_eval(const struct catalog_class *c, const struct catalog_expr *e,
                 const struct catalog_env *env, struct catalog_value *out, const char **unknown);

/* The op a CALL_ARG step makes when the argument is the string `value`
 * ("gelu" -> "torch.nn.functional.gelu"), or NULL. */
const char *catalog_call_arg_op(const struct catalog_step *s, const char *value);

/* Append a Python-like rendering of an expression to *out: constructor
 * arguments as self.<name>, forward arguments bare ("self.training and
 * self.track_running_stats", "hx is None", "query.dim() == 3"). */
void catalog_expr_text(const struct catalog_expr *e, buf_t *out);

/* ------------------------------------------------------------------ shapes */

/* One dimension: n >= 0 a known size; else sym a symbol ("B", borrowed from
 * the input) or, with sym NULL, unknown. */
struct catalog_dim {
	long long n;
	const char *sym;
};

/* The forward parameter whose shape the rule reads ("input", "tgt"), or NULL
 * when the class has no shape rule. */
const char *catalog_shape_input(const struct catalog_class *c);

/* The shape of the forward's (first) output from the shape of that input:
 * writes *nout dims to out (room for cap).  Dims the rule does not touch
 * keep their symbols; a computed dim whose input is symbolic is unknown.
 * 0; 1 when there is no rule or something it needs is unknown (*unknown
 * says what); -1 on a type error or when cap is too small. */
int catalog_out_shape(const struct catalog_class *c, const struct catalog_env *env,
                      const struct catalog_dim *in, size_t nin,
                      struct catalog_dim *out, size_t cap, size_t *nout, const char **unknown);

/* ------------------------------------------------------------------ names */

/* Name flags: what a bare name is in its namespace.  0: not known there. */
enum {
	CATALOG_N_FUNCTION = 1,   /* a callable (a method, for Tensor) */
	CATALOG_N_PROPERTY = 2,   /* Tensor: an attribute read, not a call */
	CATALOG_N_META = 4,       /* Tensor: reads metadata only (record.py's rule:
	                             size, dim, numel, ... and every property) */
	CATALOG_N_FACTORY = 8,    /* torch: builds a tensor from sizes or data */
	CATALOG_N_CLASS = 16,     /* torch: a class (no_grad, Size, device ...) */
	CATALOG_N_LATER = 32      /* not in torch 1.13: a 2.x addition */
};

int catalog_tensor_name(const struct catalog *cat, const char *name);  /* "view", "shape", "__add__" */
int catalog_torch_name(const struct catalog *cat, const char *name);   /* "matmul", "zeros", "no_grad" */
int catalog_functional_name(const struct catalog *cat, const char *name); /* "softmax" */

/* Shorthands over the flags. */
int catalog_is_tensor_method(const struct catalog *cat, const char *name);
int catalog_is_tensor_property(const struct catalog *cat, const char *name);
int catalog_is_meta(const struct catalog *cat, const char *name);
int catalog_torch_function(const struct catalog *cat, const char *name);
int catalog_functional(const struct catalog *cat, const char *name);

/* ------------------------------------------------------------------ operators */

enum catalog_binform {
	CATALOG_BIN_PLAIN = 0,  /* a + b        -> __add__ */
	CATALOG_BIN_REFLECTED,  /* 2 + t        -> __radd__ */
	CATALOG_BIN_INPLACE     /* t += b       -> __iadd__ */
};

/* The Tensor dunder a Python operator is named by ("__matmul__"), or NULL
 * for an operator that is no tensor op (is, is not) or an invalid enum.
 * Comparisons are named as written (1 < t is __lt__, as record.py names
 * it); `in` / `not in` are __contains__; `not t` and truth tests __bool__;
 * a subscript load / store / del __getitem__ / __setitem__ / __delitem__. */
const char *catalog_dunder_binop(const struct catalog *cat, enum ast_operator op,
                                 enum catalog_binform form);
const char *catalog_dunder_cmpop(const struct catalog *cat, enum ast_cmpop op);
const char *catalog_dunder_unaryop(const struct catalog *cat, enum ast_unaryop op);
const char *catalog_dunder_subscript(const struct catalog *cat, enum ast_ctx ctx);
const char *catalog_dunder_truth(const struct catalog *cat);

/* ------------------------------------------------------------------ facts */

/* The fact lists of torch_facts.json.  Each is an object {"doc": "...",
 * KIND: ...} under its key; the loader requires every one and rejects
 * unknown keys, an empty name and a name listed twice.  KIND is one of
 *   "set":      [name, ...]                       catalog_fact() -> the name
 *   "map":      {name: value, ...}                catalog_fact() -> value
 *   "prefixes": [name | [name, value], ...]       catalog_fact_match(): the
 *   "suffixes": likewise                            value of the first entry
 *   "words":    likewise                            that starts / ends / occurs
 *                                                   in the text (in order)
 *   "rules":    [{"rule": R, "on": [namespace, ...], "names": [...]}, ...]
 *               catalog_fact_on() -> R when the name's rule applies in the
 *               namespace asked (CATALOG_ON_*); a name has one rule.
 * Lookups take NULL for cat (and find nothing); returned strings are
 * borrowed from the catalogue. */
enum catalog_fact {
	CATALOG_F_COLLECTIVES,        /* set: torch.distributed.<name> collectives */
	CATALOG_F_PARALLELISM_WORDS,  /* words: a group's words -> parallelism */
	CATALOG_F_PARALLELISM_PLACES, /* words: the file/function a collective is
	                                 written in -> parallelism */
	CATALOG_F_PARALLELISM_OPS,    /* map: collective -> the parallelism it
	                                 serves when the group does not say */
	CATALOG_F_PARALLELISM_OPS_FWD,/* map: likewise, called in a forward */
	CATALOG_F_MESH_AXIS_PARALLELISM, /* map: a device mesh axis's name -> the
	                                 parallelism it serves */
	CATALOG_F_ASYNC_COLLECTIVES,  /* set: collectives that return a work
	                                 handle whatever async_op says */
	CATALOG_F_WRAPPERS,           /* set: callables returning the model they wrap */
	CATALOG_F_WRAPPER_WORDS,      /* words: ... by a word of the name (DDP) */
	CATALOG_F_UNWRAPPERS,         /* set: calls returning the model their argument
	                                 wraps (accelerator.unwrap_model) */
	CATALOG_F_PARALLEL_WRAPPERS,  /* words: wrappers that distribute the model
	                                 -> what implies the event */
	CATALOG_F_OPTIMIZER_STEP_COLLECTIVES, /* words: an optimizer class whose
	                                 step() communicates -> the collective */
	CATALOG_F_DTENSOR_COLLECTIVE_METHODS, /* map: a DTensor-only method ->
	                                 its collective for a Shard placement */
	CATALOG_F_DTENSOR_SOURCES,    /* words: calls making DTensors of other
	                                 placements */
	CATALOG_F_MODULE_PACKAGES,    /* prefixes: packages whose classes are modules */
	CATALOG_F_NOT_MODULE_SUFFIXES,/* suffixes: ... less these class names */
	CATALOG_F_NOT_MODULE_PATHS,   /* words: ... and these paths (optimizers) */
	CATALOG_F_NAME_FOLDS,         /* map: an alias -> the canonical dotted name */
	CATALOG_F_TORCHVISION_FACTORIES, /* prefixes: torchvision.models factory
	                                 -> the class it builds */
	CATALOG_F_TORCH_CALLS,        /* map: dotted name -> its function in
	                                 interp/torch.c (TORCH_CALLS) */
	CATALOG_F_TORCH_CALLS_BY_NAME,/* map: likewise, by the last name */
	CATALOG_F_RUNTIME_QUERIES,    /* set: torch.<name>() the machine answers */
	CATALOG_F_DATA_FACTORIES,     /* set: torch.<name>(data, device=) copies */
	CATALOG_F_HOST_FACTORIES,     /* set: torch.<name>() of no tensor: host */
	CATALOG_F_LIKE_FACTORIES,     /* set: torch.<name>(t): where t is */
	CATALOG_F_OBJECT_COLLECTIVES, /* set: collectives of pickled objects: on
	                                 NCCL a copy to the device and a sync */
	CATALOG_F_SHAPE_RULES,        /* rules: op -> its shape rule in shapes.c */
	CATALOG_F_PIECES,             /* map: op splitting a tensor -> its rule */
	CATALOG_F_DTYPE_RULES,        /* map: op -> what its result holds */
	CATALOG_F_DTYPES,             /* map: torch.<dtype> -> int, bool, float */
	CATALOG_F_DTYPE_PREFIXES,     /* prefixes: likewise, by its start */
	CATALOG_F_DTYPE_ALIASES,      /* map: torch.<alias> -> the dtype's
	                                 canonical name (torch.half ->
	                                 torch.float16) */
	CATALOG_F_TUPLE_OUTPUTS,      /* map: torch.nn layer returning a tuple ->
	                                 its form (output_hidden, ...) */
	CATALOG_F_NOT_DISPATCHED,     /* set: torch.<dotted> calls torch's function
	                                 hooks never see: no op */
	CATALOG_F_HOST_HELPER_MODULES, /* set: torch modules of Python helpers
	                                 outside the tensor API (building C++
	                                 extensions): a call of one makes host
	                                 data, never a tensor, and no op */
	CATALOG_F_TENSOR_STATE,       /* set: Tensor properties whose value only
	                                 the run knows (x.dtype, x.grad) */
	CATALOG_F_CONTAINER_BASES,    /* set: torch.nn containers a repository
	                                 class subclasses with their constructor */
	CATALOG_F_TENSOR_ALIASES,     /* set: Tensor properties that are the
	                                 tensor's own storage where it lives
	                                 (x.data) */
	CATALOG_F_ITER_PASSTHROUGH,   /* set: calls that give back the iterable
	                                 they wrap (tqdm.tqdm(loader)) */
	CATALOG_F_JIT_COMPILERS,      /* map: a call that compiles or traces code ->
	                                 script | trace */
	CATALOG_F_LIBRARY_TENSOR_OPS, /* set: calls of other libraries that make a
	                                 tensor where their first argument's
	                                 tensors are (torchvision.utils.make_grid) */
	CATALOG_F_NUMPY_TENSOR_UFUNCS, /* set: numpy ufuncs that, given a host
	                                 tensor, give a host tensor back
	                                 (Tensor.__array_wrap__: np.sqrt(t)) */
	CATALOG_F_FSDP_SHARDING,      /* map: a sharding strategy -> regather | keep | unsharded */
	CATALOG_F_LAYER_BUFFERS,      /* map: "<torch.nn layer>.<buffer>" -> the
	                                 constructor parameter (True by default)
	                                 without which it is None */
	CATALOG_F_OPTIMIZER_FACTORIES,/* set: functions of other libraries that
	                                 return a torch optimizer */
	CATALOG_F_LOSS_SCALERS,       /* set: classes whose object, called with
	                                 (loss, optimizer), runs backward and an
	                                 enabled GradScaler's step */
	CATALOG_F_ABSENT_MODULES,     /* set: packages of other accelerators'
	                                 backends: absent where the job runs */
	CATALOG_F_SERVICE_MODULES,    /* set: clients of hosted experiment
	                                 trackers: absent where the repository's
	                                 requirements file leaves them out and
	                                 the import is optional */
	CATALOG_F_TOPK_METRICS,       /* set: functions returning one tensor per
	                                 k of topk=, where their inputs live */
	CATALOG_F_WEIGHT_ONLY_LAYERS, /* map: torch.nn layer whose only parameter
	                                 is `weight` -> the argument that must be
	                                 False for that ("" always) */
	CATALOG_F_TRACE_PHASE_ANNOTATIONS, /* prefixes: a profiler annotation's
	                                 name -> the schedule phase it marks */
	CATALOG_F_TRACE_PHASE_FRAMES, /* words: a Python frame outside the
	                                 repository -> the phase it marks */
	CATALOG_F_PYTHON_STDLIB,      /* set: the top-level modules of Python's
	                                 standard library (always importable) */
	CATALOG_F_WRAPPER_METHODS,    /* map: '<wrapper word>.<method>' -> the collective
	                                 its call issues (FSDP's clip_grad_norm_) */
	CATALOG_F_WRAPPER_BROADCASTS, /* map: wrapper word -> the keyword that makes
	                                 it broadcast module states at the wrap */
	CATALOG_F_FSDP_STATE_DICT,    /* map: wrapper word -> state_dict()'s collective;
	                                 '<word>.<method>' -> scope | set (another
	                                 state-dict type chosen) */
	CATALOG_F_MULTI_PROCESS_WRAPPERS, /* map: a library's wrapper that
	                                 distributes the model only when the
	                                 invocation starts more than one process
	                                 -> what implies the event */
	CATALOG_F_MULTI_PROCESS_COLLECTIVES, /* map: a library's method that
	                                 communicates only then -> its collective */
	CATALOG_F_MULTI_PROCESS_VETOES,/* set: environment variables that, set to
	                                 a true word, make that library
	                                 distribute otherwise (FSDP, DeepSpeed) */
	CATALOG_F_MODULE_FACTORIES,   /* set: functions of other libraries that
	                                 build a torch module with parameters on
	                                 the host (unless given device=) */
	CATALOG_F_HOST_TENSOR_RETURNS,/* map: keyword -> the value with which a
	                                 call returns a mapping of host tensors */
	CATALOG_F_INT_DATA_FACTORIES, /* set: torch.<name>(python ints) whose
	                                 elements are those ints */
	CATALOG_F_INT_RANGE_FACTORIES,/* set: torch.<name>(ints) whose elements
	                                 are that range (arange) */
	CATALOG_F_LOADER_INIT_ATTRS,  /* map: attribute DataLoader.__init__ sets
	                                 -> its value as Python source ("None") */
	CATALOG_F_LAYOUT_METHODS,     /* set: Tensor.<name> whose result holds the
	                                 receiver's elements in the same order */
	CATALOG_F_OBJECT_HOST_READS,  /* map: '<torch class>.<method>' that reads
	                                 device values on the host -> the object's
	                                 attribute that must not be False */
	CATALOG_F_TENSOR_DATA_METHODS,/* map: Tensor method building a tensor where
	                                 x lives from Python data -> "list" (only a
	                                 list argument is data) or "data" */
	CATALOG_F_LIBRARY_PRECISIONS, /* map: a library class -> 'keyword=VARIABLE':
	                                 its object's mixed precision, and the
	                                 environment variable read without it */
	CATALOG_F_GRAD_SCALER_PRECISIONS, /* set: those words that mean a GradScaler */
	CATALOG_F_DEVICE_MODULE_HOST_READS, /* set: a library module class's method
	                                 that reads the module's own buffers
	                                 on the host (a sync when it was moved
	                                 to a device) */
	CATALOG_F_LIBRARY_GRAD_SCALERS, /* map: a library_precisions class -> its
	                                 object's attribute holding the torch
	                                 GradScaler it scales with */
	CATALOG_F_PRECISION_OPTIMIZER_SETUPS, /* set: a library_precisions
	                                 object's method handing back the
	                                 optimizers it is given, stepped
	                                 through its precision */
	CATALOG_F_ACCUMULATION_CONTEXTS, /* map: a library object's micro-step
	                                 context manager -> the constructor
	                                 keyword of micro-steps per step */
	CATALOG_F_ACCUMULATION_STEP_FLAGS, /* set: its attribute true on the
	                                 micro-step that ends a step */
	CATALOG_F_STATE_SAVERS,       /* map: a library object's save-state
	                                 method -> its pre-hook registration */
	CATALOG_F_TENSOR_SAVERS,      /* set: other libraries' torch.save alikes */
	CATALOG_F_IMAGE_SAVERS,       /* set: functions that write a picture of
	                                 a tensor (torchvision's save_image):
	                                 a host copy, no checkpoint */
	CATALOG_F_LIBRARY_OBJECT_FACTORIES, /* map: another library's function ->
	                                 the class of the object it returns
	                                 (evaluate.load -> EvaluationModule) */
	CATALOG_F_LIBRARY_OUTPUT_FIELDS, /* set: fields of what a library's
	                                 module returns that are tensors (a
	                                 ModelOutput's loss, logits) */
	CATALOG_F_HOST_COPYING_METHODS, /* set: '<class>.<method>' of another
	                                 library that copies the tensors it is
	                                 given to the host (a metric's add_batch) */
	CATALOG_F_HOST_LOAD_KEYWORDS, /* set: keywords whose value names where a
	                                 library's torch.load wrapper puts what it
	                                 loads (map_location) */
	CATALOG_F_ARRAY_READERS,      /* map: another library's function returning
	                                 a 1-D array of a length not known ->
	                                 "keyword:position" of the argument that
	                                 gives it another shape, or "" */
	CATALOG_F_ARRAY_SHAPE_METHODS,/* set: methods of such an array whose
	                                 result has the array's shape */
	CATALOG_F_DATA_SIZED_CALLS,   /* set: torch.<name>() whose output's size
	                                 the data decides (read on the host) */
	CATALOG_F_HOST_CHECKED_CALLS, /* set: torch.<name>() that read their
	                                 solver's info on the host (a sync of a
	                                 device input) */
	CATALOG_F_ARRAY_FACTORIES,    /* map: another library's function making a
	                                 host array of the shape its argument
	                                 gives -> "keyword:position" of it */
	CATALOG_F_ARRAY_DRAWS,        /* map: another library's function drawing
	                                 random integers on the host (numpy's
	                                 randint) -> "keyword:position" of the
	                                 size argument */
	CATALOG_F_ARRAY_STACKERS,     /* map: another library's function stacking
	                                 a sequence of arrays on a new first axis
	                                 -> "keyword:position" of the sequence */
	CATALOG_F_ARRAY_CONVERTERS,   /* map: another library's function making an
	                                 array of the shape of the array it is
	                                 given -> "keyword:position" of it */
	CATALOG_F_ARRAY_RANGES,       /* map: another library's function making a
	                                 1-D array of evenly spaced numbers
	                                 (numpy.arange) -> "keyword:position" of
	                                 the argument that is its length when
	                                 given alone */
	CATALOG_F_ARRAY_DTYPES,       /* map: another library's dtype (numpy.float32)
	                                 -> the kind of its elements: "int",
	                                 "float" or "bool" */
	CATALOG_F_ARRAY_FLOAT_DEFAULTS, /* set: array factories whose array is of
	                                 floats when no dtype is given */
	CATALOG_F_ARRAY_SHAPE_KEEPERS, /* map: another library's function whose
	                                 array has the shape of the one it is
	                                 given alone (numpy.sort) -> its
	                                 "keyword:position" */
	CATALOG_F_ARRAY_TILERS,       /* map: another library's function repeating
	                                 an array along its last axis (numpy.tile)
	                                 -> "keyword:position" of the array */
	CATALOG_F_SUBSET_RETURNS,     /* map: a library's function returning a part
	                                 of one argument (the dict's items it
	                                 keeps) -> that argument's position */
	CATALOG_F_SYNCING_CONTEXTS,   /* map: a torch context manager whose
	                                 __enter__ synchronizes the device -> why */
	CATALOG_F_RECORD_CLASSES,     /* prefixes: an outside class whose objects
	                                 hold their constructor's keywords as
	                                 attributes (a dataclass) */
	CATALOG_F_RECORD_UPDATERS,    /* map: a record class's method that rewrites
	                                 its fields from its argument -> how the
	                                 argument is read (interp/recupdate.c) */
	CATALOG_F_SYNCING_TIMERS,     /* map: a library's timing context manager
	                                 that synchronizes a CUDA device it was
	                                 built with on enter and exit -> the
	                                 constructor keyword naming the device */

	CATALOG_F_LAUNCHER_OBJECTS,   /* map: a library class whose object starts
	                                 the processes -> 'DEVICES,NODES,STRATEGY,
	                                 PREFIX' (its keywords, the environment's
	                                 override prefix) */
	CATALOG_F_LAUNCHER_DEVICES,   /* map: its class -> 'KEYWORD=WORD|...' naming
	                                 a GPU accelerator */
	CATALOG_F_LAUNCHER_LOADERS,   /* map: its method handing back loaders that
	                                 move batches to its device -> the keyword
	                                 turning that off ("" to_device's copy) */
	CATALOG_F_LAUNCHER_STRATEGIES,/* map: such an object's strategy (name or
	                                 class) -> the torch wrapper of its setup
	                                 ("" data parallel, no wrapper said) */
	CATALOG_F_LAUNCHER_WRAPS,     /* set: its methods that wrap the module
	                                 given in that wrapper */
	CATALOG_F_LAUNCHER_WRAPPER_METHODS, /* map: its method -> 'KEYWORD:METHOD'
	                                 of the wrapper of the module given */
	CATALOG_F_SYNC_SKIP_CONTEXTS, /* map: a library object's context manager
	                                 skipping the backward's gradient sync ->
	                                 the keyword turning the skip on */
	CATALOG_F_LAUNCHER_SAVES,     /* map: its state-saving method -> the
	                                 collective it ends with */
	CATALOG_F_STRATEGY_SAVES,     /* map: wrapper word -> 'KEYWORD=DEFAULT:
	                                 VALUE:OP' of its strategy's save */
	CATALOG_F_TYPED_EQ_CLASSES,   /* set: torch classes whose == answers only
	                                 against their own class (NotImplemented
	                                 otherwise): `device == "cuda"` is False */
	CATALOG_F_PRETRAINED_MODULE_WORDS, /* words: a class of module_packages whose
	                                 last name holds one (CLIPTextModel,
	                                 LlamaForCausalLM) builds a module in
	                                 from_pretrained, on the host */
	CATALOG_F_PRETRAINED_PLACEMENT_KEYWORDS, /* set: from_pretrained keywords that
	                                 place the weights elsewhere (device_map,
	                                 load_in_8bit ...): no host module */
	CATALOG_F_MODULE_TENSOR_METHODS, /* prefixes: a library's module class ->
	                                 '|METHOD|...|': methods returning a
	                                 tensor where the module's states live
	                                 (a torchmetrics metric's compute) */
	CATALOG_F_MODULE_STATE_SAVERS, /* set: methods of a library's module
	                                 not read (module_factories, from_pretrained)
	                                 that write its tensors to files: on the
	                                 device, each copied to the host */
	CATALOG_F_OBJECT_COLLECTIVES_METHODS, /* map: '<class>.<method>' of torch
	                                 objects (the class's last name) ->
	                                 'OP:GATE': a collective over the data
	                                 group, unless the object's GATE
	                                 attribute is known False */
	CATALOG_F_OPTIMIZER_HOST_ATTRS, /* set: an optimizer's attributes that hold
	                                 host data only (defaults) */
	CATALOG_F_VALUE_METERS,       /* map: a library meter's update method ->
	                                 the attributes it sets from its value */
	CATALOG_F_WRAPPER_GROUP_ATTRS, /* map: '<wrapper word>.<attribute>' -> the
	                                 keyword whose group the wrapper keeps
	                                 there (the default group without it) */
	CATALOG_F_DISTINCT_MEMBER_ENUMS, /* set: outside Enum classes (no str or int
	                                 mixin, no aliases) whose members equal
	                                 only themselves */
	CATALOG_F_FLOAT_CONSTANTS,    /* map: a library's float constant
	                                 (torch.inf) -> its value ("inf", "3.14") */
	CATALOG_F_ARRAY_SCANS,        /* map: another library's running reduction
	                                 (numpy.cumsum) -> 'keyword:position' of
	                                 the input: 1-D of the input's items */
	CATALOG_F_SINGLE_PROCESS_DEVICE_TYPES, /* set: device types no job of more
	                                 than one process runs on (mps) */
	CATALOG_F_GPU_REQUIRING_CALLS, /* set: torch calls that fail with no CUDA
	                                 GPU (interp/devchoice.c) */
	CATALOG_F_TOKEN_ID_ATTRIBUTES, /* set: a tokenizer's attributes that hold a
	                                 Python int or None (pad_token_id) */
	CATALOG_F_HOST_STATE_CALLS,   /* map: calls whose result is host data (a
	                                 random number generator's state) ->
	                                 "tensor" (a CPU tensor) or "data" */
	CATALOG_F_MACHINE_QUERIES,    /* set: last names of torch's queries whether
	                                 the machine has a device (is_available) */
	CATALOG_F_DEVICE_DATA_CONSTRUCTORS, /* set: another library's classes
	                                 whose constructor makes a tensor of
	                                 Python data on the device (an h2d) */
	CATALOG_F_ZERO3_PARAMETER_ATTRIBUTES, /* set: the attributes DeepSpeed
	                                 ZeRO-3 gives each parameter it
	                                 partitions (ds_id ...) */
	CATALOG_F_ACCELERATOR_DEVICE_NAMES, /* map: a library accelerator's method
	                                 naming a device -> "TYPE" (TYPE, or
	                                 TYPE:i given an index) or "TYPE:"
	                                 (TYPE:<the current index>) */
	CATALOG_F_MAP_DATASET_CALLS,  /* map: library calls that return a map-style
	                                 dataset -> the keyword that makes it
	                                 iterable, or "" (interp/mapds.c) */
	CATALOG_F_MAP_DATASET_METHODS, /* set: a map-style dataset's methods
	                                 that return one again */
	CATALOG_F_ITERABLE_DATASET_CLASSES, /* set: the iterable-style dataset
	                                 classes a map-style dataset is no
	                                 instance of (interp/builtins.c) */
	CATALOG_F_DATA_CLASSES,       /* set: outside classes of data (numpy's
	                                 ndarray) that no Python str, number,
	                                 None, list, tuple, dict or tensor is an
	                                 instance of (interp/builtins.c) */
	CATALOG_F_CLOSED_CLASSES,     /* map: an outside class -> every attribute
	                                 its objects have, space-separated
	                                 (interp/attr.c) */
	CATALOG_F_CUDA_MACHINE_QUERIES, /* set: dotted names of machine_queries
	                                 that are true on a CUDA machine
	                                 (interp/machine.c) */
	CATALOG_F_MODULE_GENERATE_METHODS, /* map: a library module's method that
	                                 runs its forward under no_grad (a
	                                 decode loop inside the library) ->
	                                 the packages whose modules have it,
	                                 space-separated (interp/attr.c) */
	CATALOG_F_LIBRARY_TRAIN_LOOPS, /* map: a library method that runs the
	                                 job's training loop -> "KEY@POS;METHOD"
	                                 or "KEY@ctor;METHOD": where the model
	                                 is, the repository method run per step
	                                 (interp/libloop.c) */
	CATALOG_F_MODULE_BASE_CLASSES, /* set: outside classes that subclass
	                                 nn.Module: a repository class on one
	                                 is a module (interp/object.c) */
	CATALOG_F_MODULE_STATE_WRAPPERS, /* set: words of parallel_wrappers whose
	                                 wrapper's load_state_dict is nn.Module's,
	                                 copying into the wrapped module's own
	                                 tensors (interp/module.c) */
	CATALOG_F_DEFAULT_DEVICE_FACTORIES, /* map: torch.<name>() that makes its
	                                 tensor on torch's default device when
	                                 no device= is given -> "new", or
	                                 "data" / "sizes" (built from host data
	                                 given: copied there; "sizes": ints
	                                 given are the shape) */
	CATALOG_F_CONFIG_FILE_PARSERS, /* set: argparse parser classes that also
	                                 read config files (interp/cfgargparse.c) */
	CATALOG_F_CONFIG_FILE_PARSER_METHODS, /* map: such a parser's other name of
	                                 an argparse method -> argparse's name */
	CATALOG_F_INT_ARGUMENTS,      /* map: torch.<name>() taking ints ->
	                                 "sizes" or "keyword:position" words:
	                                 a device tensor given there is read
	                                 on the host (interp/intargs.c) */
	CATALOG_F_CONFIG_FILE_SYNTAXES, /* map: a config_file_parser_class ->
	                                 the syntax it reads ("default": key =
	                                 value lines; others not read) */
	CATALOG_F_COMPONENT_LOADERS,  /* set: module.Class.method of a loader that
	                                 builds the class it is called on from a
	                                 download and the objects given by
	                                 keyword (interp/pretrained.c) */
	CATALOG_F_TP_PARALLELIZE_CALLS, /* set: calls that apply a tensor-parallel
	                                 plan to a module (interp/tplan.c) */
	CATALOG_F_TP_STYLES,          /* map: a tensor-parallel style class ->
	                                 "INPUT DESIRED PRODUCED OUTPUT" layouts,
	                                 or "input" / "output" (interp/tplan.c) */
	CATALOG_F_TP_PLACEMENTS,      /* set: DTensor placement classes whose
	                                 arguments a plan's layouts read */
	CATALOG_F_DATACLASS_ARG_PARSERS, /* map: a library's parser class that
	                                 fills dataclasses from the command
	                                 line -> "KEY@POS;METHOD" (interp/hfargs.c) */
	CATALOG_F_LIBRARY_DATACLASS_FIELDS, /* map: a library's dataclass -> its
	                                 fields read here, "NAME:TYPE=DEFAULT"
	                                 space-separated (interp/hfargs.c) */
	CATALOG_F_LIBRARY_LOOP_EVENTS, /* map: "<library_train_loops key>#N" ->
	                                 the loop's N-th per-step event, and
	                                 "<key>#args", "<key>#accum", "<key>#gpu"
	                                 (interp/libloop.c) */
	CATALOG_F_SYNC_BN_CONVERTERS, /* set: calls that make a module's batch
	                                 norms SyncBatchNorm (interp/syncbn.c) */
	CATALOG_F_SYNC_BN_LAYERS,     /* set: the layer classes they replace */
	CATALOG_F_BATCH_NORM_FACTORIES, /* prefixes: torchvision model factories
	                                 whose models hold batch-norm layers
	                                 (interp/syncbn.c) */
	CATALOG_F_ADAPTER_INJECTORS,  /* map: a library function that adds
	                                 layers built on the host to the module
	                                 it is given, moved to where the
	                                 module's parameters are -> "KEY@POS"
	                                 of that module (interp/adapters.c) */
	CATALOG_F_OUTSIDE_CLASS_BASES, /* map: an outside class -> its outside
	                                 base classes, space-separated
	                                 (interp/builtins.c isinstance) */
	CATALOG_F_RUN_TIME_DEVICES,   /* map: a library class -> its objects'
	                                 attribute naming the device the
	                                 library chose at run time (a GPU when
	                                 the machine has one; interp/framework.c) */
	CATALOG_F_WRAPPER_SYNC_SKIPS, /* set: '<wrapper word>.<method>' whose
	                                 context object skips the gradient sync
	                                 of the backwards in its hold (no_sync) */
	CATALOG_F_IMAGE_TRANSFORMS,   /* map: an image transform (class or
	                                 function) -> its role: host_tensor,
	                                 tensor_op, compose, lambda
	                                 (interp/transforms.c) */
	CATALOG_F_LIBRARY_AUTO_BASES, /* map: a library's Auto model class ->
	                                 'BASE METHOD ...': the base of every
	                                 class its table builds and the methods
	                                 none of them overrides (interp/hfbase.c) */
	CATALOG_F_OUTSIDE_LOADERS,    /* set: outside classes that are torch
	                                 DataLoaders (interp/torch.c) */
	CATALOG_F_ARRAY_TEXT_PARSERS, /* map: another library's function parsing
	                                 numbers out of a str (numpy.fromstring)
	                                 -> "keyword:position" of the separator:
	                                 a known str and separator give a 1-D
	                                 array of the pieces' count (interp/arrays.c) */
	CATALOG_F_DEVICE_LOADERS,     /* map: a library's function loading a file's
	                                 tensors onto the device an argument names
	                                 (the host when not given) -> that
	                                 argument's 'keyword:position' */
	CATALOG_F_LIBRARY_PIPELINES,  /* map: a library's factory of an inference
	                                 pipeline holding a model -> the keyword
	                                 naming its device */
	CATALOG_F_PASSTHROUGH_CALLS,  /* map: a library's call that returns the
	                                 objects it is given, changed in place
	                                 (apex's amp.initialize) -> the returned
	                                 parameters, 'NAME@POS,...' (interp/passthru.c) */
	CATALOG_F_LIBRARY_HOST_READS, /* set: a library's call or '<class>.<method>'
	                                 that reads device values on the host at
	                                 every call, in a job on a GPU (apex's
	                                 amp.scale_loss, LARC.step: jobctx.c) */
	CATALOG_F_DEVICE_BATCH_ITERATORS, /* map: a library's iterator class making
	                                 each batch on the device an argument
	                                 names -> that argument's
	                                 'keyword:position' (interp/devbatch.c) */
	CATALOG_F_PRETRAINED_DEVICE_KEYWORDS, /* set: from_pretrained keywords whose
	                                 value may name the device the weights
	                                 are copied to on load (device_map:
	                                 interp/libvalues.c) */
	CATALOG_F_TYPED_CLASS_ARG_PARSERS, /* map: a library's base class whose
	                                 repository subclasses parse the command
	                                 line into their annotated class
	                                 attributes -> the parse method
	                                 (interp/tapargs.c) */
	CATALOG_F_AMP_SCALING_OPTIMIZERS, /* map: a torch optimizer class ->
	                                 the keyword with which its step takes
	                                 a GradScaler's found_inf itself
	                                 (fused): scaler.step reads nothing
	                                 (interp/torch.c, jobctx.c) */
	CATALOG_F_NAME_REGISTRARS,    /* map: a library's decorator that files the
	                                 function it decorates under its __name__
	                                 -> the registry (interp/registry.c) */
	CATALOG_F_MATH_NAMESPACES,    /* prefixes: names under which `log` is the
	                                 logarithm, not a logging call, and whose
	                                 objects log nothing (interp/jobctx.c) */
	CATALOG_F_NAME_REGISTRY_CLASSES, /* set: a library's registry class whose
	                                 objects file classes and functions by
	                                 __name__ (register) and give them back
	                                 by name (get) (interp/objreg.c) */
	CATALOG_F_NAME_REGISTRY_FACTORIES, /* map: a library's function that calls
	                                 the function filed under a name -> the
	                                 registry */
	CATALOG_F_NAME_REGISTRY_HELD_KEYWORDS, /* set: keywords such a factory
	                                 keeps to itself (not passed on) */
	CATALOG_F_MODEL_HELPER_MODULES, /* words: a library's modules under
	                                 .models. whose functions build no model */
	CATALOG_F_DATA_SIZED_DEFAULTS, /* map: torch.<name>() -> the
	                                 "keyword:position=DEFAULT" int argument
	                                 that, not given or given as DEFAULT,
	                                 torch takes from the values of the
	                                 first argument: of a device tensor, a
	                                 sync (interp/intargs.c) */
	CATALOG_F_TENSORLESS_LAYERS,  /* set: torch.nn layers that register no
	                                 parameter and no buffer, whatever their
	                                 arguments: an object of one holds no
	                                 tensor (interp/torch.c host_only) */
	CATALOG_F_REPARAMETRIZATIONS, /* map: a function reparametrizing the
	                                 module it is given in place (and
	                                 returning it) -> what it adds beside
	                                 the parameters: "buffers" or
	                                 "parameters" (interp/reparam.c) */
	CATALOG_F_MODEL_COPY_HOLDERS, /* map: a library class -> "ATTR@POS": its
	                                 object keeps a copy of the module given
	                                 at POS in ATTR (interp/libvalues.c) */
	CATALOG_F_WRAPPER_DEVICE_KEYWORDS, /* map: a wrapper that moves the
	                                 module it wraps to a device -> the
	                                 keyword naming that device (FSDP's
	                                 device_id; interp/torch.c, module.c) */
	CATALOG_F_LIBRARY_MACHINE_QUERIES, /* map: another library's function
	                                 asking about an accelerator other than
	                                 CUDA -> "machine" (the hardware) or
	                                 "absent" (its PyTorch package)
	                                 (interp/machine.c) */
	CATALOG_F_VISION_DATASETS,    /* map: a torchvision dataset class whose
	                                 sample is (transform(picture), target)
	                                 -> its transform's 'KEY@POS' (or KEY:
	                                 keyword only) (interp/visionds.c) */
	CATALOG_F_VALUE_FACTORIES,    /* set: torch.<name>() computing its values
	                                 from Python numbers (windows, ranges):
	                                 no batch's data (interp/torch.c) */
	CATALOG_F_FRAMEWORK_BACKWARDS, /* set: a training framework's method
	                                 that runs loss.backward() on what it is
	                                 given: the step's backward, whatever is
	                                 known of the loss (interp/framework.c) */
	CATALOG_F_MODULE_BASE_PACKAGES, /* prefixes: library model packages whose
	                                 module classes a repository class
	                                 extends as a model: the subclass is a
	                                 module, its library base kept, the
	                                 base's forward not read
	                                 (interp/object.c, syncbn.c) */
	CATALOG_F_ONE_DEVICE_WRAPPERS, /* map: a wrapper that moves the module
	                                 it wraps to its device when its device
	                                 list holds one -> 'KEY@POS' of that
	                                 list (DataParallel's device_ids;
	                                 interp/onedev.c) */
	CATALOG_F_WRAPPER_INPUT_SCATTERS, /* map: a single-process wrapper whose
	                                 forward copies the host tensors it is
	                                 given to its devices -> 'KEY@POS' of
	                                 the argument naming them (DataParallel's
	                                 device_ids; interp/scatterin.c) */
	CATALOG_F_TYPED_HOST_CONSTRUCTORS, /* set: torch.<name>(...), the legacy
	                                 typed constructors of the CPU types:
	                                 a host tensor whatever they are given
	                                 (a storage, a tensor, sizes, data)
	                                 (interp/torch.c) */
	CATALOG_F_PYTHON_DATA_FACTORIES, /* set: torch.<name>(data) copying the
	                                 Python data given into a new host
	                                 tensor: no batch's data (interp/torch.c
	                                 from_values) */
	CATALOG_F_HOST_SERIALISERS,   /* set: pickle.dumps & co: bytes of the
	                                 job's own values, no batch
	                                 (interp/call.c from_values) */
	CATALOG_F_BACKWARD_CALLBACK_QUEUES, /* set: the autograd engine's
	                                 queue_callback, as the job's code names
	                                 it: the function given runs when the
	                                 backward it is queued in ends
	                                 (interp/gradhook.c) */
	CATALOG_F_YACS_NODE_CLASSES,  /* map: a yacs CfgNode class of a
	                                 library -> the key naming the YAML
	                                 files its configs inherit ("" none)
	                                 (interp/yacs.c, yacssub.c) */
	CATALOG_F_WORLD_GROUPS,       /* set: torch's names of the world's
	                                 process group (dist.group.WORLD): a
	                                 collective over it serves data
	                                 parallelism (interp/torch.c) */
	CATALOG_F_STORED_BACK_MOVES,  /* set: Tensor methods whose result is the
	                                 tensor placed where their argument says:
	                                 `self.X = self.X.<m>(...)` copies on the
	                                 first call only (interp/oneshot.c) */
	CATALOG_F_MAP_LOCATION_MOVES, /* set: methods of the storage a torch.load
	                                 map_location callable is given that put
	                                 it on a GPU (interp/torch.c tc_load) */
	CATALOG_F_WRAPPER_MODULE_KEYWORDS, /* map: a wrapper -> the keyword of the
	                                 module it wraps, for a call that gives
	                                 it by name (DDP(module=m);
	                                 interp/wrapkw.c) */
	CATALOG_F_TYPE_INFO_FIELDS,   /* map: torch.finfo / torch.iinfo -> the
	                                 fields of its object that are Python
	                                 numbers, space-separated
	                                 (interp/torch.c tc_type_info) */
	CATALOG_F_FSDP_FULL_STATE,    /* map: '<enum>.<member>' of a state-dict
	                                 type that keeps FSDP1's full state ->
	                                 its two default config classes; a
	                                 config class -> its defaults
	                                 'offload_to_cpu=0|1 rank0_only=0|1'
	                                 (interp/sdfull.c) */
	CATALOG_F_PATH_OPENERS,       /* set: another library's open of a path
	                                 (iopath's PathManager.open): a local
	                                 path opened as the builtin open() does
	                                 (interp/pathopen.c) */
	CATALOG_F_ENGINE_HANDOFFS,    /* map: a library's prepare method ->
	                                 "SWITCH;PATH;BACKWARD": the environment
	                                 variable that hands the prepared model
	                                 to DeepSpeed, the one naming its JSON
	                                 configuration, the object's backward
	                                 method (interp/accelds.c) */
	CATALOG_NFACTS
};

/* Namespaces of "rules" facts. */
enum { CATALOG_ON_TORCH = 1, CATALOG_ON_TENSOR = 2, CATALOG_ON_FUNCTIONAL = 4 };

const char *catalog_fact(const struct catalog *cat, enum catalog_fact f, const char *name);
/* the i-th name of fact f (and its value in *value when value is not
 * NULL), NULL past the last: every name of a fact, in the file's order
 * for an ordered list, in no set order for a set or map */
const char *catalog_fact_key_at(const struct catalog *cat, enum catalog_fact f, size_t i, const char **value);
const char *catalog_fact_on(const struct catalog *cat, enum catalog_fact f, const char *name, int on);
const char *catalog_fact_match(const struct catalog *cat, enum catalog_fact f, const char *text);

#endif
