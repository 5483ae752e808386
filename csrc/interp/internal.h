/* interp/internal.h - what the files of csrc/interp/ share; private to them
 *
 * The interpreter is one tree-walking evaluator over the C AST, split by
 * concept (csrc/README lists the files): eval() for expressions (eval.c),
 * exec_stmt() for statements (exec.c), call() for every call (call.c),
 * with Python's object model and library (scope.c, import.c, object.c,
 * function.c, attr.c, builtins.c, methods.c, stdlib.c, argparse.c,
 * whose natives are tables of small functions sorted by name: native.c),
 * torch's (torch.c, tensor.c, module.c), the frameworks around a job
 * (framework.c), and what the records are made of (forward.c: forward
 * events; jobctx.c: schedule events), over strpool.c (strings kept once)
 * and budget.c (bounds).  Three modes share it:
 *   job     the entry script and what it calls: loops run until their first
 *           iteration has called a model (a training loop is read once);
 *   build   the same rules; constructors (__init__) run here;
 *   forward a module's forward: calls become events (ops, submodule calls,
 *           inlined functions); loops over containers and ranges are read
 *           once per group of identical children, with a repeat count.
 * Unknown values never stop anything: they flow on with their expression.
 *
 * Ownership: every value, string and event the interpreter makes lives in
 * its arena (interp->a) until interp_free(); the tables in struct interp
 * (xgrow'n arrays) are freed there too.  Nothing here returns an error:
 * what cannot be decided is an unknown value with its reason, and where
 * the analysis stops is a note (budget.c).
 *
 * Not a public header: include/ecg/interp.h is the interface.  The
 * functions below are extern only so that the files can share them; they
 * are hidden from the program's dynamic symbol table.
 */
#ifndef ECG_INTERP_INTERNAL_H
#define ECG_INTERP_INTERNAL_H

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/catalog_glue.h"
#include <cjson/cJSON.h>
#include "ecg/interp.h"
#include "ecg/shapes.h"
#include "ecg/strmap.h"
#include "ecg/util.h"

#define MAX_STEPS 4000000L     /* expression evaluations per run */
#define MAX_DEPTH 40           /* nested calls */
#define MAX_UNROLL 100000      /* iterations of one loop */
#define MAX_SAME_FN 6          /* recursion of one function */
#define MAX_FWD_UNROLL 512     /* iterations of a forward loop read one by one */
/* The interpreter's memory: steps bound it only where a step allocates a
 * little, and one step can make a list of MAX_UNROLL items (a range to
 * iterate: ~7 MB); a fuzzed job of nested loops over such ranges took 3.7
 * GB.  Past this, the analysis stops as when its steps run out. */
#define MAX_ARENA_BYTES ((size_t)1 << 30)
#define MAX_FN_STEPS (MAX_STEPS / 16)  /* a function that has cost this much is not entered again */
/* One value built from others (s + s, l.extend(l), ''.join, a
 * comprehension): past these it is not built but unknown, with the reason
 * (budget.c: too_big).  Work proportional to a value's size costs
 * evaluation steps (charge), at what it costs beside a step (~35 ns and
 * ~50 bytes of arena): one per WORK_ITEMS items compared or copied, one
 * per WORK_BYTES bytes of string; a value made per item (a tuple of
 * items(), a dict entry with its index) counts as WORK_MADE items copied.
 * `x in l` over 100,000 items is 12,500 steps. */
#define MAX_STR_BYTES ((size_t)1 << 20)
#define MAX_ITEMS ((size_t)1000000)
#define WORK_ITEMS 8
#define WORK_BYTES 64
#define WORK_MADE 16

#pragma GCC visibility push(hidden)

enum mode { M_JOB = 0, M_FWD };

enum flow { FL_NORMAL = 0, FL_RETURN, FL_BREAK, FL_CONTINUE, FL_RAISE };

enum builtin_id {
	BI_NONE = 0,
	BI_RANGE, BI_LEN, BI_INT, BI_FLOAT, BI_STR, BI_BOOL, BI_LIST, BI_TUPLE, BI_DICT,
	BI_SET, BI_ENUMERATE, BI_ZIP, BI_MIN, BI_MAX, BI_SUM, BI_ABS, BI_ROUND, BI_PRINT,
	BI_ISINSTANCE, BI_GETATTR, BI_SETATTR, BI_HASATTR, BI_SUPER, BI_OPEN, BI_EXEC, BI_EVAL,
	BI_SORTED, BI_REVERSED, BI_ANY, BI_ALL, BI_MAP, BI_FILTER, BI_TYPE, BI_ITER, BI_NEXT,
	BI_IMPORT,
	BI_DIVMOD, BI_POW, BI_ID, BI_CALLABLE, BI_ISSUBCLASS, BI_VARS, BI_LOCALS, BI_REPR,
	BI_STATICMETHOD, BI_CLASSMETHOD, BI_PROPERTY, BI_GLOBALS, BI_DIR, BI_SLICE,
	BI_OPT_STEP,    /* optimizer.step(closure): the optimizer calls the closure */
	BI_NOOP,        /* a call that does nothing ecg reads (zero_grad, an external base's __init__): None */
	BI_OPT_STATE_DICT, /* optimizer.state_dict(): optim_state_dict() */
	BI_LOADER_ITER, /* super().__iter__() of a repository subclass of torch's DataLoader: loader_iter() */
	BI_LOADER_NEXT, /* it.__next__() of a loader's iterator: a batch (loader_batch) */
	BI_OPT_LOAD_STATE, /* optimizer.load_state_dict(sd): optim_load_state() (self: the optimizer) */
	BI_OPT_CALL_STEP, /* optimizer.step of a torch optimizer (self): its events when called */
	BI_OPT_CALL_ZERO, /* optimizer.zero_grad (self): its event when called */
	BI_DICTSUB_INIT, /* super().__init__ of a repository subclass of dict (self): dictsub_base_init() */
	/* methods: self in u.bi.self */
	BI_M_LIST_APPEND, BI_M_LIST_EXTEND, BI_M_LIST_INSERT, BI_M_LIST_POP,
	BI_M_DEQUE_APPENDLEFT,   /* deque.appendleft (a deque is a list here, stdlib.c) */
	BI_M_LIST_REMOVE, BI_M_SET_DISCARD, BI_M_SET_ADD,   /* list.remove, set.discard/remove/add (a set is a list here) */
	BI_M_DICT_GET, BI_M_DICT_ITEMS, BI_M_DICT_KEYS, BI_M_DICT_VALUES, BI_M_DICT_UPDATE,
	BI_M_DICT_POP, BI_M_DICT_SETDEFAULT, BI_M_COPY,
	BI_M_STR_FORMAT, BI_M_STR_JOIN, BI_M_STR_SPLIT, BI_M_STR_LOWER, BI_M_STR_UPPER,
	BI_M_STR_STARTSWITH, BI_M_STR_ENDSWITH, BI_M_STR_REMOVEPREFIX, BI_M_STR_REMOVESUFFIX, BI_M_STR_REPLACE, BI_M_STR_STRIP, BI_M_STR_LSTRIP, BI_M_STR_RSTRIP, BI_M_STR_PARTITION,
	BI_M_STR_RSPLIT,
	BI_M_STR_ISDIGIT, BI_M_STR_ISALPHA, BI_M_STR_ISALNUM, BI_M_STR_ISSPACE, BI_M_STR_ISLOWER, BI_M_STR_ISUPPER,
	BI_M_STR_FIND, BI_M_STR_RFIND, BI_M_STR_INDEX, BI_M_STR_RINDEX, BI_M_STR_COUNT,
	BI_M_STR_TITLE, BI_M_STR_CAPITALIZE, BI_M_STR_SWAPCASE, BI_M_STR_ZFILL,
	BI_M_SET_UNION,
	BI_M_FILE_READ, BI_M_FILE_READLINES, BI_M_FILE_WRITE, BI_M_FACT_STARTSWITH, BI_M_EXITSTACK_ENTER, BI_M_STR_SPLITLINES,
	BI_M_ARGP_ADD, BI_M_ARGP_PARSE, BI_M_ARGP_GROUP, BI_M_ARGP_SETDEF,
	BI_M_ARGP_SUBPARSERS, BI_M_ARGP_ADDPARSER,
	BI_M_MOD_ADD_MODULE, BI_M_MOD_APPEND, BI_M_MOD_EXTEND, BI_M_MOD_SELF,
	BI_M_MOD_BASE_INIT,   /* super().__init__(...) whose next class is torch's */
	BI_M_MOD_TRAIN, BI_M_MOD_EVAL,   /* .train(mode) / .eval(): the training flags */
	BI_M_MOD_GENERATE,    /* a library model's generate(): its forward, under no_grad */
	BI_M_MOD_CHILDREN, BI_M_MOD_VALUES,
	BI_M_MOD_NAMED_CHILDREN, BI_M_MOD_MODULES, BI_M_MOD_NAMED_MODULES,   /* the tree as Python lists it */
	BI_M_MOD_ITEMS, BI_M_MOD_KEYS, BI_M_MOD_UPDATE,   /* ModuleDict.items() / keys() / update() */ BI_M_MOD_REGISTER_BUFFER, BI_M_MOD_REGISTER_PARAMETER, BI_M_MOD_INSERT, BI_M_MOD_TO, BI_M_MOD_CPU, BI_M_MOD_TO_EMPTY, BI_M_MOD_COMPILE, BI_FN_APPLY,
	BI_M_MOD_LOAD_STATE_DICT, BI_M_MOD_STATE_DICT,
	BI_M_MOD_PARAMETERS, BI_M_MOD_NAMED_PARAMETERS,   /* one representative parameter */
	BI_M_MOD_FWD_HOOK, BI_M_MOD_FWD_PRE_HOOK,   /* register_forward_hook / _pre_hook (module.c) */
	BI_M_HOOK_REMOVE,     /* a hook's handle.remove() */
	BI_M_NS_GETATTR,
	BI_M_PATH_SAME, BI_M_PATH_JOINPATH, BI_M_PATH_WITH_SUFFIX, BI_M_PATH_WITH_NAME,
	BI_M_PATH_OPEN, BI_M_PATH_IS_FILE, BI_M_PATH_IS_DIR, BI_M_PATH_EXISTS,
	BI_M_PATH_GLOB, BI_M_PATH_READ_TEXT,   /* pathlib.Path methods (pathlib.c) */
	BI_M_DIRENT_IS_FILE, BI_M_DIRENT_IS_DIR,   /* os.DirEntry methods (osdir.c) */
	BI_M_DICT_MERGE_WITH,   /* an OmegaConf config's merge_with (omegaconf.c) */
	BI_M_CFG_CLONE, BI_M_CFG_NONE, BI_M_CFG_DUMP, BI_M_CFG_IS_FROZEN, BI_M_CFG_IS_NEW_ALLOWED,
	BI_M_CFG_MERGE_FROM_FILE, BI_M_CFG_MERGE_FROM_LIST, BI_M_CFG_MERGE_FROM_OTHER,
	BI_M_CFG_SET_NEW_ALLOWED, BI_M_CFG_LOAD_WITH_BASE, BI_M_CFG_LOAD_CFG,   /* a yacs CfgNode's methods (yacs.c) */
	BI_M_OBJREG_REGISTER, BI_M_OBJREG_DECO, BI_M_OBJREG_GET,   /* a library registry object's (objreg.c) */
	BI_COUNT        /* how many ids there are */
};

/* carry.c: a loop exec.c reads in job mode, for the tests its first
 * reading decides on a value from before the loop (the frame's own, its
 * `up` the enclosing loop's; on the C stack of the loop's reading). */
struct carry {
	const struct ast_list *body;   /* the loop's body */
	const struct vdict *before;    /* the frame's names before the loop (dict_save) */
	int hit;                       /* a test was decided on a name the body binds,
	                                  at its value from before the loop, or on
	                                  the loop's own target (target) */
	struct carry *up;
	const struct ast_hdr *target;  /* a `for` over known items read one for all:
	                                  its target (NULL: none) */
	int later;                     /* the body's second reading (exec.c
	                                  carry_reread), as a later iteration: no
	                                  test is decided on a value from before
	                                  the loop (carry_later_undecided) */
	const struct ast_hdr *for_target; /* a `for` loop's target (NULL: a `while`):
	                                  bound by the loop, not its body
	                                  (guardrange.c) */
	int inner;                     /* inside another loop of the frame (the
	                                  second reading's up is NULL) */
};

#define ITEM_PARAMS 8               /* itemargs.c: parameters followed per call */

struct frame {
	struct interp *in;
	struct sfile *file;
	struct vns *globals;
	struct vdict *locals;          /* NULL at module level (globals) */
	struct vdict *closure;         /* enclosing function's locals */
	struct vscope *closure_up;     /* the scopes enclosing that one (values.h) */
	struct frame *outer_comp;      /* comprehension scopes look outwards */
	const char *qualname;
	const char *anchor_q;          /* in a lambda's body: the scope its anchors
	                                  name (vfunc.anchor_qual), else NULL */
	int def_line;                  /* line of the function's definition (0 at module level) */
	const struct ast_hdr *scope_def; /* the def whose body runs (FunctionDef, AsyncFunctionDef
	                                  or Lambda); NULL at module level and in a class body */
	int gen_body;                  /* a generator's body read up to its first yield */
	int yielded;                   /* gen_body: its yield was reached */
	value_t *yield_first;          /* gen_body: the value of the first yield
	                                  reached on the reading (one on a path of
	                                  an undecided `if` included), NULL none */
	const struct ast_hdr *yield_site; /* gen_body: that yield's statement */
	int yield_sites;               /* gen_body: another yield statement was
	                                  reached too */
	int ret_is_yield;              /* gen_body: the FL_RETURN under way is a
	                                  yield's, not a `return` (which ends the
	                                  generator and gives no item) */
	struct carry *item_carry;      /* itemargs.c: the caller's loop (read once for
	                                  all) whose per-iteration values reach the
	                                  parameters item_params; NULL none */
	const char *item_params[ITEM_PARAMS];
	unsigned n_item_params;
	struct gdrain *drain;          /* a generator's body drained whole (gendrain.c):
	                                  its yields hand their items here */
	struct vgen *ctx_gen;          /* a context manager's generator being entered
	                                  (function.c): its `yield from` of another
	                                  generator enters that one (gen_ctx_delegate) */
	const struct ast_hdr *test_node; /* the `if` test being evaluated: only its truth is used */
	struct vclass *cls;            /* the class the function was defined in */
	value_t *self;                 /* first argument of a method */
	struct strset *globals_decl;   /* names declared global */
	struct strset *nonlocals_decl; /* names declared nonlocal (bound in closure) */
	enum mode mode;
	struct fseq *ev;               /* forward: where events go */
	struct frame_mult {            /* forward: how many times the code running runs */
		long long n;           /* product of enclosing loop counts (-1 unknown) */
		const char *expr, *src, *reason;
		int via;               /* VIA_* of src's value */
	} mult;
	struct frame_cond {            /* forward/build: the enclosing undecided or decided condition */
		const char *text;
		int taken;             /* as fev.cond_taken (interp.h), which is copied from it */
	} cond;
	value_t *ret;
	value_t *ret_alt;              /* returned on a path an undecided `if` took (ret_join) */
	const char *ret_alt_cond;      /* that condition's text */
	const char *rest_cond;         /* set by exec_if when one path of an undecided
	                                  `if` left the block: the condition the rest
	                                  of it runs under (exec_block journals it) */
	int depth;
	int config_exec;               /* running a config file exec()'d by the job */
	int no_grad;                   /* inside no_grad / inference_mode */
	const char *loop_anchor;       /* job mode: the innermost loop running */
	const struct ast_For *loop_for; /* job mode: that loop's `for` statement when it
	                                 is this frame's `for` (NULL: a while loop, or
	                                 none in this frame): firstiter.c reads it */
	const struct ast_While *loop_while; /* job mode: the innermost `while` this frame
	                                 runs (NULL: none): firstiter.c reads it */
	const char *handler;           /* job mode: running a request handler (its anchor) */
	const struct jctx *jc;         /* loops, guards and contexts around the code running */
	const struct jctx *jc_entry;   /* jc when this function was called (its caller's) */
	int in_backward;               /* an autograd.Function's backward */
	int in_log;                    /* job mode: reading the arguments of a logging call */
	const struct ast_hdr *item_target; /* job mode: the target of the loop over known
	                                 items this frame is reading (exec_for_items), or NULL */
	int item_cond;                 /* job mode: on a branch decided by that loop's item
	                                 (inherited by callees) */
	struct carry *carry;           /* job mode: the loops of this frame being read
	                                  (innermost first), or NULL; not inherited */
	unsigned loop_serial;          /* forward: the loop read once that is running (0: none) */
	int unk_star_prefix;           /* ... and each such sequence is a known prefix (vseq.prefix),
	                                  passed last: the callee's *args keeps it */
	const char *unk_star;          /* the call being made passes `*expr` of a sequence whose
	                                  length is not known (its text), or NULL; set by eval_call
	                                  for the callee (`**d` of unknown keys is KW_UNK_DSTAR) */
};

struct strset {
	const char **s;
	size_t n;
};

/* A native: a builtin, or a method of a builtin type or of an emulated
 * object, run in C.  fn is the builtin's value (its id, and self for a
 * bound method); never NULL: what it does not follow is an unknown with
 * the reason.  The tables of struct native (builtins.c, methods.c,
 * argparse.c, attr.c) are sorted by name (native.c); natives_register()
 * maps each id to its function for call_builtin(). */
typedef value_t *native_fn(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);
struct native {
	const char *name;
	native_fn *fn;
	enum builtin_id id;
};

/* What a function has cost so far (budget.c fn_cost()) */
struct fncost {
	const void *def;
	long steps;                    /* spent in its finished outermost calls
	                                  from function bodies (those from a
	                                  module's statements: struct sitecost),
	                                  the objects they built not (ctor_enter) */
	long since;                    /* level_steps(level) when its running
	                                  outermost call began */
	int level;                     /* in->ctor_level then */
	int noted;
};

/* What a function's outermost calls from one call site of a module's
 * own statements have cost (budget.c site_cost()): an import runs those
 * once, so the MAX_FN_STEPS bound there is on repeated calls from one
 * site (a module-level loop's); a function called once from each of many
 * (a registry decorator over a library's thousand model defs) is read at
 * each, as the code read bounds those calls. */
struct sitecost {
	const void *def;
	long steps;
	struct sitecost *next;         /* another def called from the same site */
};

struct interp {
	const struct sched_call *cur_call; /* job mode: the call of a repo function
	                                  running (sched_ev.in_call), or NULL */
	int fwd_once;                  /* forward: reading a one_shot_move statement (its
	                                  events run on the first call only) */
	long long fwd_outer;           /* forward: how many times the forward being read
	                                  runs per call of the model (the loops and groups
	                                  of the forwards that called it; -1 not known; 0 as 1) */
	struct vinst *fwd_root;        /* forward: the model whose forward reading
	                                  (interp_forward from outside any forward)
	                                  is running (sched_ev.fwd_root), or NULL */
	const char *fwd_mode_call;     /* fwdmode.c: the anchor of the job's call of a
	                                  model whose forward is being read again in
	                                  that call's mode (sched_ev.mode_call), or NULL */
	native_fn *bi_fn[BI_COUNT];    /* natives_register(): each builtin id's function */
	unsigned loop_serials;         /* how many loop bodies were read once, for frame.loop_serial */
	int trace_shapes;              /* ECG_TRACE_SHAPES is set */
	int sd_type_scoped;            /* in the body of a `with` choosing another
	                                  state-dict type (FSDP.state_dict_type) */
	int sd_type_set;               /* the job sets a state-dict type for good
	                                  (FSDP.set_state_dict_type) */
	const struct sd_full *sd_full; /* in the body of a `with` keeping FSDP's
	                                  full state dict: its configs (sdfull.c),
	                                  or NULL */
	int trace_steps;               /* ECG_TRACE_STEPS is set */
	struct hot { const char *key; long n; } hot[512];
	size_t nhot;
	struct strmap strs;            /* intern(): the set of strings kept once
	                                  (keys in the arena; first 4096 slots) */
	/* anchor_at() and text_of() remembered by what they are computed
	 * from (a file, a qualname and a node: all live as long as the
	 * interpreter), direct-mapped: the same anchor is asked for again and
	 * again (every constant carries one), and formatting and interning it
	 * was a tenth of an analysis */
	struct amemo { const void *file; const void *key; int line; const char *s; } *amemo;
	struct amemo *tmemo;
	struct amemo *genmemo;         /* is_generator() by def (line: 1 + answer) */
	struct fmemo { const char *fmt, *a, *b, *s; } *fmemo;   /* afmt_memo() */
	struct ptrmap stage_share;    /* stage.c: int values that are a pipeline
	                                 stage's share (n // P); slot a: n */
	struct ptrmap fncost;          /* fn_cost(): by def, each slot's ptr an
	                                  xmalloc'd struct fncost */
	struct ptrmap sitecost;        /* site_cost(): by call site, each slot's
	                                  ptr an xmalloc'd list of struct sitecost */
	struct ptrmap log_accum;       /* log_accum_store(): by statement, slot a its answer */
	struct prog *prog;
	const struct catalog *cat;
	struct ast_arena *a;
	struct vns **ns;               /* per file, by sfile.id (ns_slot()) */
	size_t ns_alloc;
	long steps;
	/* the steps spent at each nesting of object building (a class
	 * called, call.c): a function's cost counts the steps at the level
	 * it was called at, so the objects it builds are charged to their
	 * classes' methods, not to it (budget.c ctor_enter, level_steps) */
	long ctor_level_steps[MAX_DEPTH + 2];
	long ctor_seg_start;           /* in->steps when ctor_level last changed */
	int ctor_level;
	int depth;
	int budget_noted;
	long job_events;
	long approx;                  /* readings that stood in for what Python does
	                                 exactly (a loop read once or cut short, an
	                                 undecided `if`, a `while`): gendrain.c reads
	                                 a generator's items as exact when its run
	                                 made none */
	struct interp_par_degree par[PAR_COUNT]; /* parallel.c: the degrees bound */
	long long launch_procs;       /* the processes a launcher object (Fabric) starts,
	                                 while its setup wraps the model (framework.c) */
	long long group_world;        /* the world_size the job gave
	                                 init_process_group (a known int, on a path
	                                 it always takes): 0 none, -1 calls that
	                                 disagree or one not known (parallel.c) */
	const char *group_world_at;   /* that call's anchor */
	int building;                 /* module constructors running (instantiate()):
	                                 a model called there is no root call */
	const value_t *accum_flag;    /* the value that turns a library's gradient-sync
	                                 skip on for some micro-steps (framework_sync_skip):
	                                 `if not <it>:` ends a step */
	int sync_skips_held;          /* a wrapper's no_sync context entered by name
	                                 (cm.__enter__()) and not left (ctxclass.c) */
	int saw_backward;             /* the job calls .backward(): it trains */
	struct interp_evidence ev;
	struct sched_ev *sev;
	size_t nsev, asev;
	size_t *model_calls;          /* the job's calls of a model: their indices
	                                 in sev (SEV_MODEL_CALL), in order (malloc) */
	size_t nmodel_calls, amodel_calls;
	struct sched_ev *hook_sev;    /* events of hooks read at their removal
	                                 (interp.c hook_removed), put after the
	                                 job's at its end (malloc) */
	size_t nhook_sev, ahook_sev;
	int hook_reading;             /* hook_removed() is reading one */
	/* forward hooks registered on module instances (module.c), in
	 * registration order; run around the module's forward (interp.c) */
	struct fwdhook {
		struct vinst *m;
		value_t *fn;              /* the callable, as registered */
		int pre;                  /* a pre-hook: before forward, (module, args) */
		int removed;              /* its handle's remove() was called */
		/* where the job was when it registered / removed it: the
		 * number of schedule events made before (in->nsev) and the job
		 * context (jc_here()); interp.c's hook_in_force() orders them
		 * against the job's calls of a model */
		size_t reg_at, rm_at;
		const struct jctx *reg_jc, *rm_jc;
	} *hooks;
	size_t nhooks, ahooks;
	/* tensor hooks on the job's parameters and the engine callbacks they
	 * queue, read at the job's backward (gradhook.c) */
	struct grad_hook {
		value_t *fn;              /* the callable, as registered */
		struct vinst *m;          /* the module whose parameter it is on */
		int dev;                  /* where that parameter lives (its grad's device) */
		int removed;              /* its handle's remove() was called */
		size_t reg_at;            /* in->nsev when it was registered */
		const struct jctx *reg_jc;
		const char *anchor;       /* the register_hook call */
	} *grad_hooks;
	size_t ngrad_hooks, agrad_hooks;
	struct bwd_callback {
		value_t *fn;
		const struct jctx *jc;    /* the context it was queued in */
	} *bwd_queue;
	size_t nbwd_queue, abwd_queue;
	int bwd_queue_open;           /* gradhook_backward() is reading hooks */
	const struct jctx *bwd_jc;    /* ... for the backward made in this context */
	int gpu;                      /* the job moves a model or tensors to a device */
	const char *gpu_choice;       /* devchoice.c: the condition under which the
	                                 device the job placed data on is a GPU (a
	                                 device chosen at run time), or NULL */
	int gpu_sure;                 /* the job names a GPU on a path it always takes */
	enum interp_machine machine;  /* the machine the invocation names (machine.c) */
	struct strmap installed;      /* import.c: the top-level names of the outside
	                                 modules the job imports on a path it always
	                                 takes (so installed where it runs); keys in
	                                 the arena */
	struct strmap machine_conds;  /* devchoice.c: texts of the tests read whose value
	                                 is a property of the machine (an `if
	                                 torch.cuda.is_available():`), keys borrowed */
	int default_dev;              /* the job sets where factories put tensors
	                                 (set_default_device, set_default_tensor_type,
	                                 `with torch.device(...)`) */
	struct strmap device_saved;   /* torch.c: the paths (texts) torch.save wrote
	                                 device tensors to, keys in the arena: a
	                                 torch.load of one with no map_location puts
	                                 them back on the device */
	int default_on_device;        /* ... and that place is known to be a device
	                                 (set_default_tensor_type(torch.cuda.HalfTensor),
	                                 set_default_device("cuda")): a repo module
	                                 built then holds its tensors there */
	int default_meta;             /* ... and that place is the meta device
	                                  (modules built then: vinst.on_meta) */
	struct { value_t *fn; const char *anchor; } handlers[64];
	size_t nhandlers;
	value_t *startup[16];          /* FastAPI lifespan / on_event("startup") */
	size_t nstartup;
	int run_generators;            /* read a generator's body (a lifespan) */
	const struct vfunc *gen_entering; /* a generator object's function, being
	                                  resumed by next() or a for loop */
	const struct vfunc *gen_draining; /* a generator object's function, being
	                                  drained whole (gendrain.c) into drain_next */
	struct gdrain *drain_next;
	long long gen_yield_items;     /* the generator being advanced: how many items
	                                  its yield reached gives (genitems.c), -1 */
	struct vgen *gen_capture;      /* a context manager's generator being entered:
	                                  its frame's locals kept at the yield */
	struct vgen *gen_resume;       /* one being left: its body after the yield run */
	struct root_call *roots;
	size_t nroots, aroots;
	struct vinst **models;
	const char **model_names;      /* the anchor where each was built */
	size_t nmodels, amodels, amodel_names;
	struct interp_note *notes;
	size_t nnotes, anotes;
	struct vdict *builtins;
	struct vdict *registry;        /* registry.c: "<registry>:<name>" -> the
	                                  repository function filed so, or NULL */
	value_t *argv;                 /* sys.argv[1:] as a list of str, or NULL */
	value_t *absl_flags;           /* absl.flags.FLAGS (abslflags.c), or NULL */
	struct vdict *absl_kinds;      /* ... the kind of each flag defined */
	int dist_init;                 /* the job has called init_process_group (or a
	                                  library's init_distributed) on a path read */
	int dist_init_sure;            /* ... torch.distributed.init_process_group in job
	                                  code under no undecided condition: the default
	                                  group exists from then on (is_initialized() and
	                                  is_available() are true), until
	                                  destroy_process_group */
	const char *dist_backend;      /* the backend its init_process_group calls
	                                  named ("nccl"), one string on every call
	                                  read; NULL: none read, or not known */
	const char *dist_backend_cond; /* the backend is dist_backend only on the path
	                                  of this condition (`"nccl" if
	                                  dist.is_nccl_available() else "gloo"`);
	                                  NULL: on every path */
	int dist_backend_mixed;        /* calls named different backends, or one
	                                  not known: dist_backend says nothing */
	const char *dtensor_par;       /* the parallelism of the mesh fully_shard
	                                  shards the job's parameters over (DTensors
	                                  of Shard placement), or NULL: none seen */
	int dtensor_mixed;             /* DTensors of another layout may exist (tensor
	                                  parallel, distribute_tensor ...), or two
	                                  fully_shard meshes differ: dtensor_par says
	                                  nothing of a DTensor not known */
	value_t *environ;              /* os.environ when the job's variables are unset (a
	                                  dict, written by the job), or NULL: not known */
	const char *entry_path;
	struct vdict *overrides;       /* --set KEY=VALUE, by key */
	struct vdict *config_asked;    /* with --set: the configuration names
	                                  overridden() was asked about */
	struct vns *entry_ns;
	interp_load_fn load;           /* reads the job's data files */
	void *load_ctx;
	interp_text_fn load_text;      /* reads the job's text files */
	void *load_text_ctx;
	interp_tree_fn tree;            /* what a path of the repository is (pathlib.c) */
	void *tree_ctx;
	interp_fs_json_fn load_fs_json;  /* reads JSON data outside the repository */
	void *load_fs_json_ctx;
	/* the calls running, innermost last: the function, its self, its
	 * positional arguments and keywords as passed (function.c: a
	 * recursive call on the values of the one it is in) */
	struct {
		const struct ast_hdr *def;
		const void *cost_key;     /* its MAX_FN_STEPS account (cost_key_of) */
		int n;
		value_t *self, **args;
		size_t nargs;
		struct vdict *kw;
	} active[MAX_DEPTH + 8];
	int nactive;
	/* an exception a call surely raises (ast.literal_eval of a name):
	 * exc_pending is set by the call, turned into FL_RAISE by exec_block
	 * for the statement running, and exc_name (with the depth it was raised
	 * at) lets a `try` there run the handler that catches it */
	const char *exc_pending, *exc_name;
	int exc_depth;
	/* the frame running the body of a `try` that catches
	 * ModuleNotFoundError (ImportError, Exception ...), or NULL: there an
	 * import of a module catalog/torch_facts.json says is absent raises */
	const struct frame *try_import_frame;
	struct attr_journal *ajournal; /* attribute writes under an undecided `if` (journal.c) */
	struct exit_writes *exit_writes; /* the running function's early-return writes (journal.c); NULL at module level */
	int rv_reading;                /* modelret.c's side reading of a job call's
	                                  return is running */
	unsigned rv_gen;               /* which side reading: vinst->rv_entry is valid
	                                  when its rv_gen is this */
	int argv_read;                 /* the job read sys.argv itself (stdlib_attr): what
	                                  argparse then parses may not be the command line */
	int jit_compile;               /* the job called torch.compile */
	int dist_novalidate;           /* torch.distributions' default argument validation:
	                                * 0 on (python without -O), 1 turned off by
	                                * Distribution.set_default_validate_args(False),
	                                * 2 set to a value not known */
	int jit_script, jit_trace;     /* the job called a compiler of catalog jit_compilers
	                                  (call.c): torch.jit.is_scripting() / is_tracing()
	                                  are no longer False */
	int try_exit;                  /* bodies of a `try` whose handler may catch SystemExit
	                                  running: an exit there is not the job's end */
	unsigned long nexts_may_stop;  /* next() calls read of an iterator whose end is
	                                  not known (a loader's, a generator's): each may
	                                  raise StopIteration (exec.c's `try`) */
};

/* ------------------------------------------------------------------ journal.c */

struct jentry {
	struct vdict *d;           /* the object's attributes (a dict entry: the dict) */
	struct vseq *seq;          /* a list entry: the list changed in place */
	const char *key;           /* interned, or journal.c's markers */
	value_t *old, *body;       /* before the `if` (NULL: absent); after its body */
	size_t oldn;               /* a list entry: its length before ((size_t)-1: changed) */
	int phase;                 /* 0 first written in the body, 1 in the else path */
	unsigned char item;        /* a dict's item under a str key (journal_note_key) */
};
struct attr_journal {
	struct attr_journal *parent;
	struct jentry *e;
	size_t n, alloc;
	size_t *slot, cap;         /* open addressing: entry index + 1, 0 empty */
	int phase;
	int loop;                  /* a loop journal (journal_open_loop) */
};
void journal_open(struct interp *in, struct attr_journal *j);
void journal_note(struct interp *in, struct vdict *d, const char *key);
/* d, an object's dict made while the journal is open: writes to it are
 * not journaled (the object exists on that path only; the name bound to
 * it is what merge_branches merges) */
void journal_born(struct interp *in, struct vdict *d);
void journal_note_key(struct interp *in, struct vdict *d, const value_t *key);
/* seq about to change in place (append, insert, pop, del, a slice or an
 * item assigned: same_length 1 when its length stays) */
void journal_note_seq(struct interp *in, struct vseq *seq, int same_length);
/* methods.c: a bounded deque (vseq.maxlen) cut back to its bound after items
 * came in, from the front (front 1: the oldest go) or the back */
void seq_bound(struct vseq *s, int front);
/* 1 when an `if` journal is open (a loop journal alone is not) */
int journal_in_if(const struct interp *in);
void journal_after_body(struct interp *in, struct attr_journal *j);
/* A job loop of known trip count: its writes noted from open to close;
 * cut (the loop's text), when the loop stopped before its last iteration
 * was read, leaves what they changed not known (journal.c) -- a host
 * container an entry was given stays host data when alike (the loop's
 * items are alike_items).  Always in pairs, the journal on the caller's
 * stack. */
void journal_open_loop(struct interp *in, struct attr_journal *j);
void journal_close_loop(struct interp *in, struct attr_journal *j, const char *cut, int alike);
/* body_left / else_left: how a path left -- 0 it went on, JPATH_RAISED,
 * or JPATH_RETURNED: a path that returned from the function while the
 * other went on leaves its writes to the function's exit (struct
 * exit_writes below), not to the code after the `if` */
#define JPATH_RAISED 1
#define JPATH_RETURNED 2
void journal_close(struct interp *in, struct attr_journal *j, const char *cond, int body_left,
                   int else_left);
/* The attribute writes of the paths that returned early from the running
 * function under an undecided condition (`if spent: self.x = None;
 * return`): the code after the branch runs on the other path and does
 * not see them; when the function returns they are merged, under their
 * conditions, into what the rest left (exit_writes_apply, called by
 * function.c with in->exit_writes back to the caller's).  Arena values,
 * the array malloc'd and freed by exit_writes_apply. */
struct exit_write {
	struct vdict *d;
	const char *key;           /* interned */
	value_t *v;                /* the value on that path; NULL: absent */
	const char *cond;          /* the path's condition */
	unsigned char item;        /* a dict's item under a str key */
};
struct exit_writes {
	struct exit_write *w;
	size_t n, alloc;
};
void exit_writes_apply(struct interp *in, struct exit_writes *ew);
/* A side reading's journal (opened by journal_open_loop) closed: every
 * attribute of an object that existed before is put back as it was, and
 * the str-keyed items of the dicts in keep[0..nkeep) (the dicts that
 * existed before and that the side reading may write: other dicts written
 * are the reading's own); keep NULL: every str-keyed item too (a hook read
 * at its removal, interp.c).  Nothing goes up to the enclosing journal.
 * Lists changed in place, and dicts written under other keys, are not
 * restored.  Never fails. */
void journal_discard(struct interp *in, struct attr_journal *j, struct vdict *const *keep, size_t nkeep);

/* ------------------------------------------------------------------ modelret.c */
/* Job code calling module m: what its forward returns (modelret.c), or
 * NULL when that is not read (the caller's own result then). */
value_t *model_call_result(struct frame *f, struct vinst *m, value_t **args, size_t nargs, struct vdict *kw);
/* A repository module called from job code with host data only (paths,
 * strings, numpy arrays: an inference wrapper that loads, pre-processes,
 * runs its model and post-processes): its forward read as job code, the
 * copies and host reads it makes the job's, at the call.  NULL when the
 * call is not one of those. */
value_t *host_input_forward(struct frame *f, struct vinst *m, value_t *self, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site);
/* The slot of m's forward cache: vinst->entry, or during a side reading
 * its own (modelret.c). */
/* the attribute of a model under which modelret.c keeps what the forward
 * of the job's last call of it set on self (a dict: name -> tensor) */
#define RV_AFTER_KEY "__ecg_rv_after__"
void **fwd_entry_slot(struct interp *in, struct vinst *m);

/* ------------------------------------------------------------------ forward events */

struct fwdinfo {              /* hung on vinst->entry while interpreting */
	struct fseq seq;
	value_t *ret;
	int state;                /* 0 not yet, 1 running, 2 done */
	const char *call_anchor;  /* where it was first called */
	value_t **args;           /* what the first call passed */
	size_t nargs;
	size_t sev_from, sev_to;  /* the schedule events its first read made */
	const char *mode;         /* fwdmode.c: the flag arguments it was read with */
	struct fwdinfo *other_mode;   /* the readings in other modes (the first
	                                 reading's list; arena-owned) */
};

/* ------------------------------------------------------------------ shared functions, by file */

/* strpool.c */
const char *astr(struct interp *in, const char *s);
const char *afmt(struct interp *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *adot(struct interp *in, const char *a, const char *b);
const char *aanchor(struct interp *in, const char *path, const char *qualname, int line);
struct amemo *amemo_slot(struct amemo **tab, const void *file, const void *key, int line);
const char *anchor_at(struct frame *f, const struct ast_hdr *node);
int site_line(const struct ast_hdr *node);
int func_first_line(const struct ast_hdr *def);
const char *afmt_memo(struct interp *in, const char *fmt, const char *a, const char *b);
const char *text_of(struct frame *f, const struct ast_hdr *node);
/* facts.c: what is known of a value not known */
void fact_env_value(value_t *v, const char *key);
int fact_compare(enum ast_cmpop op, const value_t *l, const value_t *r);
value_t *fact_int_of(struct frame *f, const value_t *arg, value_t *r);
/* facts.c: v is an int >= 0 (a Python int, or FACT_NONNEG_INT).  Never fails. */
int fact_nonneg_int(const value_t *v);
int fact_plain(const value_t *v);
/* hostdata.c: what Python makes of host data (values not known with dev
 * DEV_HOST) without a tensor is host data */
void hostdata_keep(const value_t *from, value_t *to);
int hostdata_args(value_t **args, size_t nargs, const struct vdict *kw);
void hostdata_binop(const value_t *l, const value_t *r, value_t *pv);
void hostdata_sum(const value_t *xs, value_t *r);
void hostdata_extend(struct interp *in, struct vseq *s, const value_t *x);
/* facts.c: 1 when a loop-carried name held a Python number before the
 * loop and its one reading bound it to one again */
int loop_number(const value_t *before, const value_t *after);
value_t *fact_set_plain(value_t *r);
value_t *fact_str_concat(struct frame *f, enum ast_operator op, const value_t *l, const value_t *r,
                         const struct ast_hdr *site);
int fact_number_or_str(const value_t *v);
value_t *fact_bool_binop(struct interp *in, enum ast_operator op, const value_t *l, const value_t *r);
/* obj.<name> of a str not known whose prefix is (f'cuda:{r}'.startswith):
 * the method bound to obj, or NULL (no such fact, no such method). */
value_t *fact_str_method(struct interp *in, value_t *obj, const char *name);
int host_datum(const value_t *v);       /* a str, a Path, an array: no tensor, no list */

/* dictjoin.c: two dicts bound on the two paths of an undecided `if`, with
 * the same keys in the same order: one dict of those keys, each entry
 * joined (arena memory); NULL when a and b are not such a pair.  Never
 * fails. */
value_t *dict_pair_join(struct interp *in, const value_t *a, const value_t *b, const char *cond);
int dict_plain(const value_t *v);

/* keyalts.c: d[k] of a plain dict of two classes or functions under a key
 * not known: the two entries as alternatives (`k == <first key>`); NULL
 * when obj, idx are not such a pair.  Arena memory; never fails. */
value_t *keyalts_subscript(struct frame *f, const struct ast_Subscript *s, value_t *obj, value_t *idx);

/* alts.c: two objects bound on the two paths of an undecided `if` */
int alts_object(const value_t *v);
int alts_modules(const value_t *v);
/* the attribute key (prefix + name) where set_attr() keeps how many
 * submodules were registered before a module attribute that is
 * alternatives of two modules: its place in _modules */
#define ALT_CHILD_POS "__ecg_altpos_"
int alts_callable_pair(const value_t *a, const value_t *b);
int alts_seq_pair(const value_t *a, const value_t *b);       /* two short sequences of plain items */   /* a callable's two paths, one external */
int alts_seq_other_pair(const value_t *a, const value_t *b);   /* a sequence of known length, a tensor or another sequence */
int alts_group_pair(const value_t *a, const value_t *b);   /* process groups (or None) on the two paths */
int alts_scalar_pair(const value_t *a, const value_t *b);   /* two Python scalars (or alternatives of them) */
/* alternatives of two such (v_alts_in), may_none when a path is None */
value_t *v_alts_scalars(struct interp *in, const char *cond, value_t *a, value_t *b);
int alts_scalars(const value_t *v);                         /* alternatives of Python scalars on every path */
int alts_dev_scalar_pair(const value_t *a, const value_t *b);   /* a device tensor on one path, a scalar on the other */
int alts_may_none(const value_t *v, int depth);            /* None on some path of v */
value_t *v_alts(struct frame *f, const char *cond, value_t *a, value_t *b);
/* devchoice.c: a device the job chooses at run time */
const char *devchoice_cond(struct interp *in, const value_t *v);
int devchoice_pair(const value_t *a, const value_t *b);
int devchoice_specs(const value_t *a, const value_t *b);
value_t *devchoice_devices(struct frame *f, const struct ast_hdr *site, const char *text, value_t *a, value_t *b);
void devchoice_place(struct frame *f, const value_t *target);
void devchoice_sure(struct frame *f);
void devchoice_test(struct frame *f, const value_t *tv, const char *text);

/* machine.c: the machine the invocation names.  machine_query: a machine
 * query's value (a bool, or a value not known with MACHINE_REASON);
 * machine_accelerator: 1 when the machine is named, with *spec its
 * accelerator's device type or NULL (none), else 0. */
value_t *machine_query(struct frame *f, const char *d, const struct ast_hdr *site);
/* machine.c: `assert torch.cuda.is_available()` read on every path: a
 * CUDA machine from then on (never fails) */
void machine_assert(struct frame *f, const struct ast_hdr *test, const value_t *tv);
/* machine.c: another library's question about an accelerator other than
 * CUDA (catalog library_machine_queries): False on a named machine (or
 * for an absent package), else not known; NULL for any other call */
value_t *machine_library_query(struct frame *f, const char *d, const struct ast_hdr *site);

/* mapds.c: a library's map-style dataset (value.map_dataset).  Each
 * returns r, or a marked copy of it when r (a value not known) is one:
 * mapds_call, the result of the library call d with keywords kw;
 * mapds_item, obj[...] of one; mapds_method, obj.name of one (the bound
 * method, when name returns a dataset again); mapds_result, a call of
 * such a method. */
value_t *mapds_call(struct frame *f, const char *d, struct vdict *kw, value_t *r);
value_t *mapds_item(struct frame *f, const value_t *obj, value_t *r);
value_t *mapds_method(struct frame *f, const value_t *recv, const char *name, value_t *r);
value_t *mapds_result(struct frame *f, const value_t *fn, value_t *r);
int machine_accelerator(const struct interp *in, const char **spec);
/* jobctx.c: does v name a CUDA device -- a torch.device of type 'cuda',
 * or a str starting with "cuda" (not a bare index)? */
int names_cuda(const value_t *v);
value_t *v_alts_in(struct interp *in, const char *cond, value_t *a, value_t *b);   /* v_alts without a frame */
int alts_tensor_path(const value_t *v);   /* the path where v is a device tensor, the other a scalar; -1 */
/* device work on one path (a device tensor or its method), Python data on
 * the other: what is done to it is done on that path alone */
int alts_dev_path(const value_t *v);      /* that path, or -1 */
const struct jctx *alts_path_enter(struct frame *f, const value_t *v, int i, const struct ast_hdr *site);
value_t *alts_path_pair(struct frame *f, const value_t *v, int i, value_t *r);
value_t *alts_dev_on_path(value_t *v, const char *cond, int i);
value_t *alts_dev_getattr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
value_t *alts_dev_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site);
int alts_sync(struct frame *f, const value_t *v, const char *what, const struct ast_hdr *site);   /* 1: row asked */
value_t *alts_getattr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
value_t *alts_call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                   struct vdict *kw, const struct ast_hdr *site);

/* budget.c */
void note(struct interp *in, const char *anchor, const char *what, const char *reason);
int budget(struct frame *f);
/* The job surely ends at site (reason interned or arena-owned): the
 * reading stops there, noted so; never fails. */
void run_ends(struct frame *f, const struct ast_hdr *site, const char *reason);
/* budget() at node: where the steps ran out, when no function or loop says it */
int budget_at(struct frame *f, const struct ast_hdr *node);
value_t *too_big(struct frame *f, enum vkind k, size_t n, const struct ast_hdr *site);
void charge(struct frame *f, size_t items, size_t bytes);
int fn_active(struct interp *in, const struct ast_hdr *def);
const void *cost_key_of(const struct vfunc *fn);
int cost_key_active(struct interp *in, const void *key);
struct fncost *fn_cost(struct interp *in, const void *def);
long *site_cost(struct interp *in, const void *def, const void *site);
void ctor_enter(struct interp *in);
void ctor_leave(struct interp *in);
long level_steps(const struct interp *in, int level);

/* scope.c */
value_t *overridden(struct interp *in, const char *key, value_t *v);
value_t *lookup(struct frame *f, const char *name);

/* narrow.c: in one arm of an undecided `len(b) > 0` (and its kin), a list
 * b of unknown length is the empty list.  narrow_empty(): the local name
 * a test is about and, through *empty_arm, the arm (1: true, 0: false)
 * where it is empty; NULL when the test says no such thing.  enter binds
 * the empty list for the arm, leave puts the old value back unless the
 * arm rebound the name. */
/* hfargs.c: a library's parser that fills dataclasses from the command
 * line (catalog dataclass_arg_parsers: transformers' HfArgumentParser):
 * its constructor keeps the dataclass types, its parse method returns the
 * tuple of dataclasses built from argv; NULL when the call is not one. */
value_t *hfargs_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site);
/* hfargs.c: a repository class on such a parser, with no __init__ of its
 * own: hfargs_subclass_init keeps the constructor's dataclass types on a
 * new object of it (object.c instantiate); hfargs_method gives
 * obj.<parse method> as "<base>.<method>" bound to obj, NULL for any other
 * name (attr.c, after the repository's own methods). */
void hfargs_subclass_init(struct interp *in, struct vinst *m, value_t **args, size_t nargs, const struct vdict *kw);
value_t *hfargs_method(struct interp *in, value_t *obj, const char *name);
/* The attribute of a torch optimizer object (torch.c torch_object) that
 * says whether its step() takes an enabled GradScaler's found_inf into
 * its own kernel (catalog amp_scaling_optimizers: fused=True): a bool,
 * or unknown when the keyword is not known.  GradScaler.step(optimizer)
 * then reads nothing on the host (jobctx.c). */
#define OPT_SCALES_OWN_STEP "__ecg_scales_own_step__"
/* tapargs.c: a repository class built on a library base of catalog
 * typed_class_arg_parsers (typed-argument-parser's Tap): its annotated
 * class attributes are the options.  tapargs_init keeps the constructor's
 * keywords on a new object of such a class (object.c instantiate);
 * tapargs_method gives obj.<parse method> as "<base>.<method>" bound to
 * obj, NULL for any other name (attr.c); tapargs_call parses the command
 * line into the object and returns it, NULL when the call is not one. */
void tapargs_init(struct interp *in, struct vinst *m, const struct vdict *kw);
/* pandas.c: pd.DataFrame(rows, columns=names) of known rows (NULL: not
 * one), its column df["name"] (NULL: no such), a column's values (NULL:
 * obj no column) */
value_t *pandas_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *pandas_column(const value_t *obj, const value_t *key);
struct vseq *pandas_values(const value_t *obj);
/* registry.c: @register_model files a repository function by name (1: it
 * did); create_model(name) calls it (NULL: no such factory or name) */
int registry_file(struct frame *f, const value_t *deco, value_t *fn);
value_t *registry_create(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);
/* nsbase.c: a namespace base's constructor (types.SimpleNamespace,
 * argparse.Namespace) on self, an object of a repository class derived
 * from one: its keywords set (1), 0 when self is no such object */
int ns_base_init(struct interp *in, value_t *self, const struct vdict *kw);
/* shallowcopy.c: copy.copy(x) as Python makes it, NULL when x is not
 * one it copies (a module, a tensor, a library's object) */
value_t *copy_shallow(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site);
/* sigobj.c: inspect.signature(obj) of a repository function, method or
 * class (NULL: not one); inspect.<what>(v), what "isfunction", "ismethod"
 * or "isclass" (NULL: v's kind does not decide it) */
value_t *inspect_signature(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);
value_t *inspect_is(struct frame *f, const char *what, value_t **args, size_t nargs);
/* objreg.c: an object of a library registry class (catalog
 * name_registry_classes) made by objreg_new (NULL: d no such class), its
 * register/get by objreg_method (NULL: not one), what its register()
 * decorates filed by objreg_file (1: deco was that decorator) */
value_t *objreg_new(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site);
value_t *objreg_method(struct interp *in, value_t *obj, const char *name);
int objreg_file(struct frame *f, const value_t *deco, value_t *obj);
extern const struct ntab objreg_methods_ntab;
value_t *tapargs_method(struct interp *in, value_t *obj, const char *name);
value_t *tapargs_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site);
/* argparse.c: X of Optional[X] / List[X] (Set[X] with sets; *many set),
 * t when no typing alias, NULL for another */
const value_t *ann_base_type(const value_t *t, int *many, int sets);
/* argparse.c: the annotated attributes of class c and its repository bases
 * (bases first, ClassVar left out) -> their annotations as typing values,
 * into out. */
void class_annotated_types(struct frame *f, struct vclass *c, struct vdict *out);
/* hfargs.c: the default catalog library_dataclass_fields gives field name
 * of library dataclass lib, or NULL (not listed, or no default). */
const value_t *hfargs_library_default(struct interp *in, const char *lib, const char *name);
/* libloop.c: trainer.fit(model, ...) / trainer.train() of a library whose
 * loop trains the job's model (catalog library_train_loops): one step
 * read at the call.  NULL when the call is none of these. */
value_t *libloop_call(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site);
/* libloop.c: the value a catalog spec field names ("KEY@POS" the call's
 * keyword KEY else its positional argument POS, "KEY@ctor" the keyword
 * recv was constructed with, "KEY" the keyword): the n bytes at p; NULL
 * when the call does not give it. */
value_t *spec_arg(const char *p, size_t n, const value_t *recv, value_t **args, size_t nargs, struct vdict *kw);
/* adapters.c: inject_adapter_in_model(config, model) of a library that
 * adds layers to a module (catalog adapter_injectors): a host-to-device
 * copy at the call when the module's parameters are on the device. */
void adapter_injection_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site);

struct narrowing {
	const char *name;
	value_t *was, *empty;
};
const char *narrow_empty(struct frame *f, const struct ast_hdr *test, int *empty_arm);
void narrow_enter(struct frame *f, struct narrowing *nw);
void narrow_leave(struct frame *f, const struct narrowing *nw);
/* narrow_none_name(): entering arm `arm` of an undecided `N is [not] None`
 * of a name N bound to alternatives of None and one value: N bound to that
 * value where the test says it is not None (1), else nothing (0, nw->name
 * NULL); narrow_leave() puts N back */
int narrow_none_name(struct frame *f, const struct ast_hdr *test, int arm, struct narrowing *nw);
/* narrow_none_attr(): entering arm `arm` (1: the test true, 0: false) of
 * an undecided `N.a is None` (or `is not None`, under `not`): where the
 * test says N.a is not None and N.a is alternatives of None and one
 * value, N.a is that value for the arm (written through the attribute
 * journal) */
void narrow_none_attr(struct frame *f, const struct ast_hdr *test, int arm);
void scope_bind(struct frame *f, const char *name, value_t *v);

/* import.c */
value_t *ns_attr(struct frame *f, struct vns *ns, const char *name);
/* the key under which a module's dict keeps the libraries it star-imports
 * (`from torch.distributed import *`), and the name looked up in them */
#define STAR_EXT_KEY "__ecg_star_ext__"
/* the reason of a name named_parameters() yields (module.c): a name not
 * known, but one of a parameter's (builtins.c setattr reads it so) */
#define PARAM_NAME_REASON "a parameter's name"
value_t *ns_star_ext(struct interp *in, struct vns *ns, const char *name);
value_t *call_import_module(struct frame *f, const char *d, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site);
value_t *ret_join(struct frame *f, value_t *a, value_t *b, const char *cond);
void ret_note_alt(struct frame *f, value_t *v, const char *cond);
/* function.c: a generator's yield reached (frame.yield_first), and the
 * item one advance gives when the reading ended by a return (gen_item) */
void gen_note_yield(struct frame *f, const struct ast_hdr *st);
value_t *gen_item(const struct frame *cf, enum flow fl, value_t *ret);
value_t *call_dunder_import(struct frame *f, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site);
value_t *sys_modules_item(struct frame *f, const value_t *name);
void exec_import(struct frame *f, const struct ast_Import *s);
void exec_import_from(struct frame *f, const struct ast_ImportFrom *s);

/* exec.c: may what the other path of an undecided `if` bound be a module
 * or hold parameters (not nothing, None or a plain value)?  0 or 1 */
int other_path_holds(const value_t *v);
/* object.c */
/* Is v an object Python hashes by identity as a dict key: a module, or an
 * instance of a repository class (no external base other than a module's)
 * that defines neither __eq__ nor __hash__?  0 or 1; never fails. */
int identity_key(const value_t *v);
/* Are a and b alike as a dict's values stored under keys not known: the
 * same value, or instances of one class?  0 or 1; never fails. */
int alike_values(const value_t *a, const value_t *b);
value_t *class_lookup(struct vclass *c, const char *name, struct vclass **owner);
/* `x is E.NAME`, E (cls) a repo enum class: 1, 0, -1 not decided */
int enum_member_is(struct interp *in, const value_t *x, const value_t *cls, const char *name);
value_t *enum_member_by_name(struct interp *in, const value_t *cls, const char *name);
const char *class_ext_base(struct vclass *c);
/* l is r (ident) or l == r, one of them a class read from source: 1, 0,
 * or -1 not decided */
int class_same(struct interp *in, const value_t *l, const value_t *r, int ident);
int class_ext_bases_only(struct interp *in, struct vclass *c, const char *name);
/* shellmod.c: m holds no parameter nor buffer of its own, only known
 * submodules (its .to() moves what they hold): 1 surely, else 0 */
int shell_module(struct interp *in, const struct vinst *m);
/* exec.c: does `except T:` catch exception class exc (a bare except,
 * Exception, BaseException, exc itself, or a tuple naming one)? */
int handler_catches(struct frame *f, const struct ast_ExceptHandler *h, const char *exc);
/* lazybind.c: the handler of t that binds, on first use, a name its
 * body's first statement reads (surely not bound yet), or NULL */
const struct ast_ExceptHandler *lazybind_handler(struct frame *f, const struct ast_Try *t);
void exec_classdef(struct frame *f, const struct ast_ClassDef *s);
void module_set_training(struct interp *in, struct vinst *m, int on, int depth);
void module_snapshot_training(struct interp *in, struct vinst *m, int depth);
int container_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site);
value_t *instantiate(struct frame *f, struct vclass *c, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site);
void set_attr(struct frame *f, value_t *obj, const char *name, value_t *v);

/* function.c */
const struct ast_arguments *fn_args(const struct ast_hdr *def);
value_t *make_function(struct frame *f, const struct ast_hdr *def, const char *name);
int is_gen_value(const value_t *v);
value_t *gen_next(struct frame *f, struct vinst *g, const struct ast_hdr *site);
/* gen_run_whole(): generator g's body read as a function call, start to
 * end, its yields handed to d (function.c; 0, or -1 when g is running
 * already).  gendrain.c: gen_drain() list(g)/tuple(g) of a generator
 * object, NULL when not drained; drain_yield() a yield statement of a
 * drained body (1 handled). */
struct gdrain;
int gen_run_whole(struct frame *f, struct vinst *g, struct gdrain *d, const struct ast_hdr *site);
value_t *gen_import_items(struct frame *f, value_t *it, const struct ast_hdr *site);
value_t *gen_drain(struct frame *f, struct vinst *g, int tuple, const struct ast_hdr *site);
int drain_yield(struct frame *f, const struct ast_hdr *st);
long drain_count(const struct frame *f);
/* gendrain.c: a @contextmanager whose yield is nested, entered by draining
 * its body once: the first item yielded (the `as` value), NULL when not. */
value_t *gen_drain_ctx(struct frame *f, struct vinst *g, const struct ast_hdr *site);
/* gen_item_count(): how many items generator g gives, as its last
 * gen_next() found it (genitems.c), or -1; gen_function_name(): its
 * function's qualified name, or NULL */
long long gen_item_count(const struct vinst *g);
const char *gen_function_name(const struct vinst *g);
/* genitems.c: gen_yield_trips() at generator body f's yield statement y:
 * how many items the generator gives when every iteration of the `for`
 * loops around y reaches it once (their trip counts' product), else -1;
 * gen_loop_trips() the trip count of the job's loop s over generator g
 * when it takes every item of a fresh one, else -1.  Neither fails. */
long long gen_yield_trips(const struct frame *f, const struct ast_hdr *y);
long long gen_loop_trips(const struct ast_For *s, const struct vinst *g);
/* function.c: `with cm(...)` where cm is a @contextlib.contextmanager
 * generator function of the repository whose one yield is a statement of
 * its body's top level: gen_ctx_enter runs the body up to the yield and
 * returns the yielded value (NULL: not that shape; nothing was run);
 * gen_ctx_exit then runs the statements after the yield in the same
 * locals (nothing when gen_ctx_enter returned NULL).  The one statement
 * may be `yield from G(...)` of a generator function of the repository
 * whose one yield is so too (accelerate's main_process_first: `yield from
 * self._goes_first(...)`): entering runs G's body up to its yield
 * (gen_ctx_delegate, called by exec.c at the `yield from`), leaving runs
 * the rest of G's body, then the rest of the context manager's.  It may
 * also be `with cm(...): yield` (Accelerator.main_process_first): cm is
 * entered and left when the yield is reached, before the caller's block
 * rather than around it (the same events, once each). */
/* function.c: iter(v) for an instance of a repository class (not a
 * module, not a DataLoader) whose __iter__ is a generator function: the
 * generator object its __iter__ makes (its body read as each item is
 * taken); NULL for any other value (forward mode too). */
/* The method `name` of v, an object of a repository class (not a module,
 * not a generator object): a plain function with a body, a generator
 * function when gen is 1, not one when 0, either when -1; else NULL. */
struct vfunc *repo_method(struct interp *in, const value_t *v, const char *name, int gen);
/* The same, of the repository class c itself (the class of a dict
 * subclass's object: dictsub.c) */
struct vfunc *class_method(struct interp *in, struct vclass *c, const char *name, int gen);
int iter_endless(struct frame *f, value_t *v);
int iter_self_next(struct frame *f, value_t *v);      /* 1: its __iter__ returns self, __next__ is read */
value_t *next_dunder(struct frame *f, value_t *v, const struct ast_hdr *site);   /* NULL: no repo __next__ */
value_t *iter_dunder_gen(struct frame *f, value_t *v, const struct ast_hdr *site);
value_t *gen_ctx_enter(struct frame *f, struct vinst *g, const struct ast_hdr *site);
/* function.c: gen_ctx_note_yield() at the yield of a context manager's
 * body being entered (frame.ctx_gen): the grad mode and job contexts
 * there kept; gen_ctx_held() for g entered by the caller's frame f: how
 * many no_grad levels above f's that yield held, and in *jc the job
 * contexts (the `with` items around the yield: no_grad, autocast) over
 * f's chain, NULL when none -- they hold over the caller's block, as
 * Python's `with cm():` runs it inside the generator's `with`.  Neither
 * fails. */
void gen_ctx_note_yield(struct frame *f);
int gen_ctx_held(const struct frame *f, const struct vinst *g, const struct jctx **jc);
void gen_ctx_exit(struct frame *f, struct vinst *g, const struct ast_hdr *site);
value_t *gen_ctx_delegate(struct frame *f, value_t *src, const struct ast_hdr *site);
value_t *call_function(struct frame *f, struct vfunc *fn, value_t *self, value_t **args,
                       size_t nargs, struct vdict *kw, enum mode mode, struct fseq *ev,
                       const struct ast_hdr *site);

/* ctxclass.c: `with obj:` over an object of a repository class with
 * __enter__ and __exit__ (job code only): ctxclass_enter runs __enter__
 * and returns its value (NULL: not such an object, nothing run), *holds_skip
 * set when it left a wrapper's sync skip held (the block is a no_sync
 * block); ctxclass_exit runs __exit__(None, None, None).  A parallel
 * wrapper's no_sync (catalog wrapper_sync_skips): sync_skip_attr gives
 * the method of a wrapped module (NULL: none), sync_skip_call the context
 * object its call makes, and the None of that object's __enter__()/
 * __exit__() called by name (which hold and release the skip), NULL for
 * any other call. */
value_t *ctxclass_enter(struct frame *f, value_t *cv, const struct ast_hdr *st, int *holds_skip);
void ctxclass_exit(struct frame *f, value_t *cv, const struct ast_hdr *st);
/* exitstack.c: contextlib.ExitStack.enter_context(cm), and the managers
 * it entered left when the stack's `with` block ends */
value_t *exitstack_enter(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);
int exitstack_exit(struct frame *f, value_t *cv, const struct ast_hdr *st);
value_t *sync_skip_attr(struct frame *f, value_t *obj, const char *name);
value_t *sync_skip_call(struct frame *f, const char *d, const char *last, value_t *recv);

/* mixeditems.c: 1 when a loop's known items (a few) are not of one
 * kind -- a device tensor and a host one, a tensor and a list, compared
 * through tuples -- so exec.c reads each item rather than one for all. */
int mixed_items(const struct vseq *items);
/* 1 when every item is of the first one's kind, side and class
 * (mixeditems.c alike_items; items NULL: a range's ints) */
int alike_items(const struct vseq *items);

/* itemproto.c: obj[k], obj[k] = v, del obj[k] of an instance of a plain
 * repository class defining __getitem__ / __setitem__ / __delitem__: that
 * method read at the subscript (site), in the frame's mode.  NULL / 0 when
 * obj is not one or the method is not defined. */
value_t *itemproto_get(struct frame *f, value_t *obj, value_t *idx, const struct ast_hdr *site);
int itemproto_set(struct frame *f, value_t *obj, value_t *idx, value_t *v, const struct ast_hdr *site);
int itemproto_del(struct frame *f, value_t *obj, value_t *idx, const struct ast_hdr *site);

/* argparse.c */
int is_dataclass_decorator(struct frame *f, const struct ast_hdr *d);
void dataclass_fields(struct interp *in, struct vclass *c, struct vdict *out, struct frame *f);
/* click.c: click.option/argument/command and click's types as objects
 * keeping their arguments (click_param, a stdlib native); click_decorate()
 * notes one decorating a def (1 when dv is one); click_kwargs() the
 * keywords a command called with no arguments gets from the command line */
value_t *click_param(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
int click_decorate(struct frame *f, value_t *fnv, value_t *dv);
struct vdict *click_kwargs(struct frame *f, struct vfunc *fn, const struct ast_hdr *site);
/* abslflags.c: absl.flags.FLAGS (absl_flags_attr: NULL for another
 * attribute), the DEFINE_* calls, ml_collections' DEFINE_config_file and
 * absl.app.run (absl_call: NULL for another call) */
value_t *absl_flags_attr(struct interp *in, const char *mod, const char *name);
value_t *absl_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);
/* dictsub.c: an object of a repository class deriving from dict (made by
 * dict's constructor) is a dict whose vdict names the class:
 * dictsub_new() makes it (NULL: c is no such class), dictsub_attr()
 * obj.name (NULL: obj is no such dict), dictsub_setattr() obj.name = v
 * (0: obj is no such dict), dictsub_class() its class or NULL */
value_t *dictsub_new(struct frame *f, struct vclass *c, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *dictsub_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
int dictsub_setattr(struct frame *f, value_t *obj, const char *name, value_t *v);
struct vclass *dictsub_class(const value_t *v);
/* super().__init__(*args, **kw) on such a dict (BI_DICTSUB_INIT): dict's
 * update(); for a defaultdict subclass the first argument is the factory */
value_t *dictsub_base_init(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);
/* namedtuple.c: collections.namedtuple(...) a class object (nt_factory,
 * a stdlib native); nt_is_class() whether v is one; nt_call() calling it,
 * a VK_TUPLE whose items are named; nt_attr() t.NAME of such a tuple;
 * nt_inst_tuple() an instance of a typing.NamedTuple subclass as the
 * tuple of its fields.  NULL (0) when they do not apply. */
value_t *nt_factory(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site);
int nt_is_class(const value_t *v);
value_t *nt_call(struct frame *f, struct vinst *c, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site);
value_t *nt_attr(struct frame *f, value_t *t, const char *name);
/* nt_pair(): torch's named pair (torch.return_types.<op>: values,
 * indices) of the two tensors, for what reads .values / .indices, [0] or
 * unpacks it.  Arena memory; never fails. */
value_t *nt_pair(struct interp *in, const char *type, value_t *values, value_t *indices);
value_t *nt_inst_tuple(struct frame *f, struct vinst *m);
/* transforms.c: catalog image_transforms (torchvision.transforms): a
 * transform class built or a transform function applied (ext_call), a
 * transform object called (inst_call); NULL when d / o is none. */
value_t *transform_ext_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site);
value_t *transform_inst_call(struct frame *f, struct vinst *o, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site);
value_t *dataclass_fields_call(struct frame *f, value_t *x);
value_t *typing_form_value(struct frame *f, const struct ast_hdr *sub, const value_t *base);
value_t *is_dataclass_call(struct frame *f, value_t *x);
value_t *typing_origin_call(struct frame *f, value_t *t, int want_args);
value_t *argp_new(struct interp *in);
void argp_init_inst(struct interp *in, struct vinst *p);
/* enumobj.c: a repository enum's members as objects; iterating it */
int class_is_repo_enum(struct interp *in, const struct vclass *c);
void enum_member_objects(struct frame *f, struct vclass *c);
value_t *enum_iter_members(struct interp *in, const value_t *cls);
/* module.c: a torch.nn layer that owns no tensor (nn.SiLU()); 0 when
 * not sure */
int module_layer_owns_no_tensor(struct interp *in, const struct vinst *m);
/* builtdev.c: every tensor m owns was made on the device when it was built
 * (layers given device='cuda', parameters of device tensors); 0 when not
 * sure */
int module_built_on_device(struct interp *in, const struct vinst *m);
/* builtdev.c: m (a torch.nn layer, an outside module) built with device= a
 * GPU: on_device */
void module_note_built_device(struct frame *f, struct vinst *m, const struct vdict *kw);
/* module.c: m and the modules under it placed on the device by a loader
 * (from_pretrained given device_map: libvalues.c), maybe so under an
 * undecided condition -- as a .to(device) would leave them */
void module_placed_on_device(struct frame *f, struct vinst *m);
/* module.c: a tensor of the shape given (NULL: not known) registered as
 * m's buffer `name` (register_buffer): an attribute that moves with m,
 * and a buffer DDP broadcasts (schedule.c) */
void module_add_buffer(struct interp *in, struct vinst *m, const char *name, const struct vshape *shape);
/* self.<name> = tensor where <name> holds a registered buffer: torch's
 * Module.__setattr__ stores it in _buffers, so the new tensor is the
 * buffer (moves with the module) from then on (`m.anchors /= stride`,
 * `self.buf = self.buf * 2`) -- until the module's move; one stored
 * after it stays where it was made.  0 when nothing was rebound. */
int module_rebind_buffer(struct interp *in, struct vinst *m, const char *name, value_t *v);
/* call.c: a host tensor in a, or in the lists, tuples and dicts a holds
 * (as torch's _recursive_to and scatter walk them), or NULL */
const value_t *host_tensor_in(const value_t *a, int depth);
/* scatterin.c: a call of the value a wrapper of catalog
 * wrapper_input_scatters returned (DataParallel over device_ids) given a
 * host tensor: the wrapper's non-blocking copy to its devices, at the
 * call; nothing when its device keyword is not a non-empty list */
void scatter_input_copies(struct frame *f, const struct vinst *m, value_t **args, size_t nargs,
                          const struct vdict *kw, const struct ast_hdr *site);
/* reparam.c: weight_norm(module) / spectral_norm(module) (catalog
 * reparametrizations): the module given, reparametrized in place and
 * handed back; spectral_norm's vectors registered as its buffers.  NULL
 * when d is no such function or the module is not an instance read */
value_t *reparam_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw);
/* module.c: self (a module) moved to device dv by a wrapper that moves
 * what it wraps (catalog wrapper_device_keywords: FSDP's device_id), as
 * its own .to(dv) would: the host-to-device copy of its parameters at
 * site, unless they are there already; nothing when dv is None or the
 * host */
void module_moved_by_wrapper(struct frame *f, value_t *self, const char *wrapper, const value_t *dv,
                             const struct ast_hdr *site);
/* module.c: self (a module) moved by a wrapper to the one GPU it runs
 * on when the machine has CUDA (DataParallel over one device: onedev.c),
 * as self.to(that GPU) would -- the copy of its parameters at site unless
 * they are there already -- but no need for a GPU: the job's device
 * choice (devchoice.c) still decides whether the machine has one */
void module_moved_to_machine_gpu(struct frame *f, value_t *self, const char *wrapper, const struct ast_hdr *site);
/* onedev.c: d called as a wrapper (catalog one_device_wrappers: torch's
 * DataParallel) over a device list of one device -- the one given, or
 * the one torch.cuda.device_count() of the job's environment counts --
 * moves the module it wraps (args[0]) there at site.  Nothing when the
 * count is not one or not known.  Never fails. */
void onedev_wrap(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site);
/* wrapkw.c: a wrapper's call (is_wrapper) that gives the module it wraps
 * by keyword only (catalog wrapper_module_keywords: DDP(module=m)): the
 * arguments as the positional form -- a new one-element array with the
 * module, *nargs 1, *kw a copy without that keyword; args unchanged
 * otherwise.  Never fails. */
value_t **wrap_module_by_keyword(struct interp *in, const char *d, value_t **args, size_t *nargs,
                                 struct vdict **kw);
/* wrapkw.c: the source text of the module a wrapper's call at site wraps:
 * its first positional argument, else its module keyword's value; NULL
 * when neither */
const char *wrap_target_text(struct frame *f, const char *d, const struct ast_hdr *site);
/* onedev.c: a wrapper's device list as a catalogue spec 'KEY@POS' names
 * it (one_device_wrappers, wrapper_input_scatters): the keyword KEY, or
 * the positional argument POS; NULL when not given.  wrapper_device_key:
 * the spec's KEY (arena memory, or spec itself).  Neither fails. */
value_t *wrapper_device_list(const char *spec, value_t **args, size_t nargs, const struct vdict *kw);
const char *wrapper_device_key(struct interp *in, const char *spec);
/* torch.c: torch.cuda.device_count() as the job's environment makes it
 * known (CUDA_VISIBLE_DEVICES), else the machine's, not known */
value_t *torch_device_count(struct frame *f, const struct ast_hdr *site);
/* devscope.c: `with torch.device(d):` */
struct devscope { int active, default_dev, default_on_device, default_meta; };
int is_device_value(const value_t *v);
void devscope_enter(struct frame *f, const value_t *cv, struct devscope *saved);
void devscope_exit(struct frame *f, const struct devscope *saved);
/* argpsub.c: a repository class deriving from argparse.ArgumentParser */
void argp_subclass_init(struct interp *in, struct vinst *m);
value_t *argp_super_attr(struct interp *in, value_t *self, const char *name);
void argp_base_init(struct interp *in, value_t *self, const struct vdict *kw);
void argp_parents(struct interp *in, value_t *parser, const struct vdict *kw);
int is_argparser(const value_t *v);
void argp_add(struct frame *f, value_t *parser, value_t **args, size_t nargs, struct vdict *kw,
              const struct ast_hdr *site);
value_t *argp_parse_args(struct frame *f, value_t *parser, const struct ast_hdr *site);
value_t *argp_method(struct interp *in, value_t *obj, const char *name);

/* cfgargparse.c: configargparse's parsers (argparse's, reading config
 * files and environment variables at parse time) */
value_t *cap_new(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site);
int cap_is(const value_t *parser);
const char *cap_method_name(struct interp *in, const value_t *parser, const char *name);
value_t *cap_words(struct frame *f, value_t *parser, const struct vinst *scratch, const struct vseq *argv,
                   struct vdict **from);
void cap_mark(struct frame *f, struct vinst *ns, const struct vdict *from);

/* native.c: tables of natives, sorted by name (the first member of a
 * row is its name); ntab_find() is a binary search, NULL when absent. */
struct ntab {
	const char *what;             /* the table's name, for interp_natives_check */
	const void *v;                /* its rows */
	size_t n, size;               /* how many, and each one's size */
};
#define NTAB_LEN(t) (sizeof (t) / sizeof (t)[0])
#define NTAB(t) { #t, (t), NTAB_LEN(t), sizeof (t)[0] }
#define NTAB_FIND(t, name) ntab_find((t), NTAB_LEN(t), sizeof (t)[0], (name))
const void *ntab_find(const void *tab, size_t n, size_t size, const char *name);
/* Whether name is in a sorted array of names. */
int ntab_has(const char *const *names, size_t n, const char *name);
#define NAME_IN(names, name) ntab_has((names), NTAB_LEN(names), (name))
extern const struct ntab tensor_ntab, stdlib_ntab, math_ntab, numpy_scalar_ntab;
extern const struct ntab module_methods_ntab, ext_methods_ntab, emulated_exts_ntab;
extern const struct ntab builtin_natives_ntab, hidden_natives_ntab, type_methods_ntab[3], argp_methods_ntab;
extern const struct ntab abc_types_ntab, torch_bases_ntab, torch_calls_ntab;
extern const struct ntab yaml_words_ntab, fw_setups_ntab, fw_dispatchers_ntab, fw_backwards_ntab;
extern const struct ntab job_spawners_ntab, job_writers_ntab, job_writer_methods_ntab;
extern const struct ntab method_decos_ntab, implicit_classmethods_ntab, deco_hooks_ntab;
extern const struct ntab fact_str_methods_ntab;
extern const struct ntab absl_defs_ntab, absl_truths_ntab;
void natives_register(struct interp *in);

/* torch.c */
const char *canon_ext(struct interp *in, const char *d);
int is_loader(const value_t *v);
/* torch.c: o, an object of outside class d, made a DataLoader when catalog
 * outside_loaders names d (1), else 0. */
int outside_loader_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site);
/* module.c: is m a module whose tensors the job built on the host and never
 * moved (no default device)?  1 sure, 0 not */
int module_built_on_host(struct interp *in, const struct vinst *m);
/* m kept where another path of an undecided `if` bound `other` (a
 * module, or NULL: a value not known) under the same name: alt_other set;
 * alt_other_host while every such other is a module built on the host */
void module_alt_other(struct interp *in, struct vinst *m, const struct vinst *other);
int class_is_torch_loader(struct interp *in, struct vclass *c);
int loader_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *loader_iter(struct interp *in, value_t *self);
/* interp/loadersampler.c: the sampler and batch sampler torch's DataLoader
 * o builds when none is given (.sampler, .batch_sampler), and its .dataset
 * marked map-style when the constructor's checks say so */
void loader_samplers(struct frame *f, struct vinst *o, value_t **args, size_t nargs, struct vdict *kw);
/* isinstance(v, C) for the outside class C (a dotted name, made canonical):
 * 1, 0, or -1 when not known (builtins.c) */
int isinstance_dotted(struct interp *in, const value_t *v, const char *dotted);
void object_collective_nccl(struct frame *f, const char *coll, const struct ast_hdr *site);   /* torch.c */
value_t *loader_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site);
/* interp/pynum.c: a str read as Python's int(s) / float(s) read it (base
 * 10, whitespace, sign, underscores between digits; no hex): 1 and *out,
 * else 0 */
int py_int_of_str(const char *s, long long *out);
int py_float_of_str(const char *s, double *out);
/* interp/collate.c: a batch by torch's default collate of one sample (a
 * dict, tuple or list), its leaves tensors on dev (DEV_HOST, pinned or
 * not; DEV_DEVICE), shapes not stated; NULL where the default collate
 * refuses it or nothing is gained over a loose tensor. */
value_t *collate_default(struct interp *in, const value_t *sample, int dev, int pinned);
/* one sample of ds from gi (its __getitem__) read on the side, as a
 * worker process fetches it: no events kept, attribute writes undone;
 * what it returns, or NULL */
value_t *sample_side_read(struct frame *f, value_t *ds, struct vfunc *gi, const struct ast_hdr *site);
/* collate.c: the first item a repository IterableDataset's __iter__
 * generator yields, read on the side (NULL when it yields nothing
 * known); tensor_leaves(): every leaf of v a tensor (dict of str keys,
 * tuple, list) */
value_t *sample_side_iter(struct frame *f, value_t *ds, struct vfunc *it, const struct ast_hdr *site);
int tensor_leaves(const value_t *v, int depth);
/* fn(arg) read on the side as sample_side_read reads __getitem__: what it
 * returns, nothing else kept */
value_t *side_call(struct frame *f, value_t *fn, value_t *arg, const struct ast_hdr *site);
/* visionds.c: o, an object of outside class d, keeps its transform when
 * catalog vision_datasets names d */
void visionds_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                   struct vdict *kw);
/* visionds.c: one sample of such a dataset, (transform(picture),
 * target), the transform read on the side; NULL when ds is none of them
 * or has no transform */
value_t *visionds_sample(struct frame *f, const value_t *ds, const struct ast_hdr *site);
struct vinst *new_torch_module(struct frame *f, const char *dotted, value_t **args, size_t nargs,
                               struct vdict *kw, const struct ast_hdr *site);
/* module.c: the first child of a ModuleList or Sequential whose children
 * were all made alike (one class, one constructor call site): what
 * layers[i] stands for, i not known; NULL otherwise */
struct vinst *container_alike_item(struct vinst *m);
/* builtins.c: dict(*args, **kw) -- a dict, or a value not known; never
 * fails (OrderedDict's constructor too, stdlib.c) */
value_t *dict_of(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site);
int is_wrapper(const struct catalog *cat, const char *d);
long long multi_process_count(struct interp *in);
long long multi_process_launched(struct interp *in);
int multi_process_vetoed(struct interp *in);
/* torch.c: the collective a parallel wrapper's method issues
 * ("...FullyShardedDataParallel.clip_grad_norm_" -> "all_reduce"), what
 * implies it in *word (may be NULL); NULL when d names no such method. */
const char *wrapper_method_op(struct interp *in, const char *d, const char **word);
/* torch.c: "scope" or "set" when d is a parallel wrapper's method choosing
 * the state-dict type (catalog fsdp_state_dict:
 * "...FullyShardedDataParallel.state_dict_type"), else NULL. */
const char *sd_type_method(struct interp *in, const char *d);
/* torch.c: a call of that method on the wrapped module self (may be NULL):
 * its collective event in job mode, its value; NULL when d is none. */
value_t *wrapper_method_call(struct frame *f, const char *d, const value_t *self, const struct ast_hdr *site);
/* torch.c: whether the last wrap of m seen shards it (sharding_strategy=,
 * catalog fsdp_sharding): 1 yes, 0 NO_SHARD, -1 not known. */
int wrap_sharded(struct interp *in, const struct vinst *m);
int ext_is_module_class(const struct catalog *cat, const char *d);
int ext_is_optimizer_class(const struct catalog *cat, const char *d);
const char *short_ext(const char *d);
/* torch.c: the kind of object the torch callable d makes by catalog
 * torch_calls / torch_calls_by_name ("no_grad"), or NULL (borrowed). */
const char *torch_call_kind(struct interp *in, const char *d);
value_t *call_torch_fact(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                         struct vdict *kw, const struct ast_hdr *site);
value_t *call_torch(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                    struct vdict *kw, const struct ast_hdr *site, int any_tensor);
value_t *optim_method(struct frame *f, const char *name, const struct ast_hdr *site);
value_t *optim_load_state(struct frame *f, const value_t *self, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site);
/* torch.c: super().__init__(params, ...) of a repository subclass of a
 * torch optimizer: where its parameters are, noted as for torch's own */
void optim_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw);
void optim_step_collective(struct frame *f, const struct vinst *m, const struct ast_hdr *site);
value_t *dtensor_method_call(struct frame *f, const struct ast_hdr *site);
value_t *optim_state_dict(struct frame *f, const struct ast_hdr *site);
/* hostints.c: small host integer tensors known element by element.
 * hostints_factory: torch.<last>(data) of Python ints (job and build
 * modes), or NULL (not such a call: the caller makes its tensor);
 * hostints_method: r, the result of recv.<m>(...), given recv's elements
 * when m only reshapes (a copy of r; r itself otherwise); hostints_index:
 * t[idx] with its elements, or NULL; hostints_read: t.tolist() / t.item()
 * as Python ints, or NULL.  Never fail; values in the arena. */
value_t *hostints_factory(struct frame *f, const char *last, value_t **args, size_t nargs, struct vdict *kw);
/* hostints_range: r, what torch.<last>(args) made on the host, given the
 * elements of the range of known ints it is (torch.arange(8)); r else */
value_t *hostints_range(struct frame *f, const char *last, value_t **args, size_t nargs, const struct vdict *kw,
                        value_t *r);
value_t *hostints_method(struct interp *in, const char *m, const value_t *recv, value_t *r);
value_t *hostints_index(struct interp *in, const value_t *t, const value_t *idx);
value_t *hostints_read(struct interp *in, const char *m, const value_t *t);
/* the elements forgotten where the tensor may change: hostints_forget(v)
 * for a store or augmented assignment into v; hostints_call before a
 * call of fn (its arguments, unless the interpreter reads fn; the
 * receiver of an in-place method) */
void hostints_forget(value_t *v);
void hostints_call(const value_t *fn, value_t **args, size_t nargs, const struct vdict *kw);

/* torch.c: a process group new_group made of a known number of ranks */
int is_ranks_group(const value_t *v);
value_t *default_group_value(struct frame *f, const struct ast_hdr *site);   /* torch.c: the default group's object */
int is_default_group(const value_t *v);
int is_world_group(const value_t *v);   /* torch.c: new_group() of every rank */

/* mesh.c: device meshes (axes' names and sizes) */
int is_mesh(const value_t *v);
const char *mesh_parallelism(struct interp *in, const value_t *m);
value_t *mesh_init(struct frame *f, const char *ext, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);
value_t *mesh_getitem(struct frame *f, value_t *m, value_t *idx, const struct ast_hdr *site);
value_t *mesh_method(struct frame *f, value_t *m, const char *name, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site);
value_t *torch_ext_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site, int any_tensor);
value_t *categorical_method(struct frame *f, const char *d, const char *last, const value_t *recv,
                            value_t **args, size_t nargs,
                            const struct ast_hdr *site);
/* An external module of class d (VM_EXTERNAL) made at site, with its
 * constructor's arguments kept (args: "arg0" ..., keywords by name).
 * torch.c; never fails (arena). */
struct vinst *ext_module_inst(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site);
value_t *ext_module_new(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        struct vdict *kw, const struct ast_hdr *site);

/* tensor.c */
/* x.dtype: only the run knows which dtype, but it is one -- x.to(y.dtype)
 * is a cast, never a copy */
#define TENSOR_DTYPE_REASON "a tensor's dtype, read at run time"
/* the index of x.device of a device tensor (a torch.device of type
 * 'cuda' read from a tensor, not named by the job: devchoice.c) */
#define TENSOR_DEVICE_INDEX_REASON "the index of a tensor's device"
/* what a query of the machine gives (torch.cuda.is_available(): catalog
 * machine_queries); `not`, `and`/`or` of it keep the reason */
#define MACHINE_REASON "a property of the machine the job runs on"
/* hasattr() of an outside library's object: what the installed version
 * has (builtins.c).  An undecided `and`/`or` of machine questions and
 * such version questions only is a question to the machine too (eval.c:
 * `hasattr(torch.backends, "mps") and torch.backends.mps.is_available()`) */
#define VERSION_HASATTR_REASON "hasattr() of something outside the repository (depends on its version)"
/* the start of the reason of what a call of an outside library gives
 * (call.c: "the result of numpy.arange, which is outside the
 * repository"), kept by its attributes and methods' results: torch.c
 * host_only reads the library's name after it */
#define OUTSIDE_RESULT_PREFIX "the result of "
int dev_is_host(const value_t *v);
const value_t *device_of_tensor(const value_t *v);
int value_is_dtype(const struct catalog *cat, const value_t *v);
/* dtypeeq.c: two dtypes the job named compared by their canonical names
 * (catalog dtype_aliases); a named dtype is never equal to None or a
 * Python scalar.  1, 0, or -1 (not such a pair). */
int dtype_eq(const struct catalog *cat, const value_t *l, const value_t *r);
/* function.c ret_join: two different dtypes returned on the two paths of
 * an undecided `if` -- a dtype, not known which (value_is_dtype) */
#define PATH_DTYPE_REASON "a dtype an undecided condition chooses"
value_t *host_compare(struct frame *f, const char *m, int dev, const struct ast_hdr *site);
int kw_bool(const struct vdict *kw, const char *name);
/* tensor.c: the tensor that two paths of an undecided `if` bound (a and
 * b tensors): where both put it (else the device, as ecg reads a job),
 * pinned when both are, the shapes joined, the dtype and the parameter
 * mark when both agree, loose (a batch of a collation not known) when
 * either is.  Never fails. */
value_t *tensor_join(struct interp *in, const value_t *a, const value_t *b);
/* function.c: two lists (or tuples) as long of tensors on two paths: a
 * list of each item's join (its place where both put it, else not
 * known); NULL when a and b are not such lists */
value_t *tensor_seqs_join(struct frame *f, const value_t *a, const value_t *b);
value_t *with_shape(struct interp *in, value_t *r, const char *op, value_t **args, size_t nargs,
                    struct vdict *kw);
value_t *size_read(struct frame *f, value_t *x, const char *what, value_t *i, const struct ast_hdr *site);
value_t *call_tensor_method(struct frame *f, value_t *fn, const char *m, value_t **args,
                            size_t nargs, struct vdict *kw, const struct ast_hdr *site);
value_t *tensor_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
/* tensor.c: torch.as_tensor(t, device=d) of a tensor t -- t itself on
 * its own device, else t moved as t.to(d) moves it (events stated at
 * site); without a device (NULL or None), t where it is. */
value_t *tensor_as_tensor(struct frame *f, value_t *t, value_t *device, const struct ast_hdr *site);
/* obj.to(<a device>) / obj.cuda() of an object torch.load read onto the
 * host (a checkpoint's model): its tensors copied host to device, once
 * (job mode); the object then on the device.  NULL when not that. */
value_t *loaded_to_device(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site);
value_t *loaded_leaves_device(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site);
value_t *unknown_to_host(struct frame *f, const value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);

/* stdlib.c */
value_t *deepcopy_value(struct interp *in, value_t *v, int depth);
/* the arguments a torch.nn layer base of self's class was given, kept for its count (module.c) */
void layer_base_init(struct frame *f, value_t *self, value_t **args, size_t nargs, struct vdict *kw);
/* re.split/sub/subn/findall/match/fullmatch/search/escape on known strings (regex.c); NULL for
 * another re function or a match found (a match object is not emulated). */
value_t *regex_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site);
value_t *math_call(struct frame *f, const char *name, value_t **args, size_t nargs,
                   const struct ast_hdr *site);
value_t *literal_eval(struct frame *f, const char *text, const struct ast_hdr *site);
value_t *load_config(struct frame *f, const char *how, value_t *arg, const struct ast_hdr *site);
/* A JSON tree read as data into values (what json.load gives), `src` the
 * file it came from (the values' source). */
value_t *json_value(struct interp *in, const cJSON *j, const char *src);
value_t *stdlib_attr(struct interp *in, const char *mod, const char *name);
value_t *stdlib_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);

/* omegaconf.c: OmegaConf's layers (NULL: not one of its functions) */
value_t *omegaconf_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site);
extern const struct ntab omegaconf_ntab;

/* hydra.c: @hydra.main(config_path=, config_name=)'s config bound as the
 * task function's default argument (nothing when it is not pinned) */
void hydra_task_config(struct frame *f, value_t *fv, const struct ast_hdr *d);
/* sdfull.c: FSDP1's full state dict -- a `with FSDP.state_dict_type(model,
 * FULL_STATE_DICT, cfg, optim_cfg)` read into *out (0: another type, the
 * body skips its rows), the offload's copy to the host at state_dict() /
 * FSDP.optim_state_dict() (the state on the host, or NULL), and that call */
struct sd_full {
	signed char offload, rank0;    /* state_dict(): 1, 0, -1 not known */
	signed char ooffload, orank0;  /* FSDP.optim_state_dict() */
};
int sdfull_scope(struct frame *f, const struct ast_Call *call, struct sd_full *out);
value_t *sdfull_copy(struct frame *f, int optim, const struct ast_hdr *site);
value_t *sdfull_optim_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);
void sdfull_keep_config(struct interp *in, struct vinst *o, const char *last, size_t nargs, struct vdict *kw);
/* module.c: the word of the state-dict-gathering wrapper (catalog
 * fsdp_state_dict) that is m or wraps a module under it, its collective in
 * *op, *sharded as wrap_sharded() says of such units; NULL when none */
const char *module_sd_wrapper(struct interp *in, const struct vinst *m, const char **op, int *sharded);
/* hydradefs.c: a primary config's `defaults:` list composed (config dir
 * `dir`, "" the root), the command-line words that choose a group's option
 * taken, the others (value overrides) in *values; NULL when not pinned */
value_t *hydra_defaults(struct frame *f, const char *dir, value_t *primary, value_t *words, value_t **values,
                        const struct ast_hdr *site);
/* yacs.c: yacs CfgNode trees: the constructor and load_cfg (NULL: not
 * one of them), a node's methods by name (NULL: none), an attribute
 * written to a node, a node made from a dict (NULL: empty) */
value_t *yacs_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);
extern const struct ntab yacs_methods_ntab;
value_t *yacs_method(struct interp *in, value_t *obj, const char *name);
void yacs_set(struct interp *in, struct vdict *d, const char *name, value_t *v);
value_t *yacs_node(struct interp *in, const value_t *init, int new_allowed);
/* a node class's node (base: its inheriting key, cls: the repository
 * subclass making it, or NULL), the marks given to a tree, the key of a
 * node class (NULL: d is none) */
value_t *yacs_new(struct frame *f, const char *base, struct vclass *cls, value_t **args, size_t nargs,
                  struct vdict *kw, const struct ast_hdr *site);
void yacs_mark(struct vdict *d, const char *base, struct vclass *cls, int depth);
const char *yacs_node_class(struct interp *in, const char *d);
/* isinstance(v, cls) when cls is a yacs node class: 1, 0, -1 (not known);
 * -2 when cls is another class */
int yacs_isinstance(struct interp *in, const value_t *v, const char *cls);
/* yacssub.c: an object of a repository subclass of a yacs node class
 * (NULL: c is none, or its construction is its own) */
value_t *yacssub_new(struct frame *f, struct vclass *c, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *omegaconf_merge_with(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site);
/* pathlib.c: pathlib.Path objects */
int is_path(const value_t *v);
/* the text (a str value) of a Path; any other value as it is */
value_t *path_text(value_t *v);
value_t *path_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);
value_t *path_fspath(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *path_div(struct frame *f, value_t *l, value_t *r, const struct ast_hdr *site);
value_t *path_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
value_t *path_m_same(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *path_m_joinpath(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);
value_t *path_m_with(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *path_query(struct frame *f, value_t *p, int what, const struct ast_hdr *site);
value_t *path_m_query(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                      const struct ast_hdr *site);
/* pathlib.c: is the tree's directory dir (names n) the job's Python code
 * only -- modules, packages, one module at least? */
int tree_code_dir(struct interp *in, const char *dir, char **n, size_t nn);
value_t *path_m_glob(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *path_m_open(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site);
value_t *path_m_read_text(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site);
int tree_kind(struct interp *in, const char *p, char ***names, size_t *nnames);
extern const char NOT_IN_TREE[];
/* dictrefill.c: a loop over a dict's items whose keys are not known that
 * stores into it on every pass rewrites its entries */
struct dict_refill {
	struct vdict *d;              /* the dict rewritten, NULL: not this loop */
	unsigned char anykey, anymixed;   /* its record before the loop */
	value_t *anyval;
};
int refill_begin(struct frame *f, const struct ast_For *s, struct dict_refill *r);
void refill_end(struct dict_refill *r, enum flow fl);
/* osdir.c: os.listdir / os.scandir over the repository's tree, os.DirEntry,
 * os.path.splitext / relpath */
value_t *osdir_list(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                    const struct ast_hdr *site);
value_t *osdir_entry_query(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);
value_t *osdir_splitext(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site);
value_t *osdir_relpath(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site);
/* pkgmeta.c: the installed distributions' versions, read as data */
value_t *pkgmeta_version_parse(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site);
value_t *pkgmeta_dist_version(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site);
/* op of two packaging versions: 1 true, 0 false, -1 not two versions */
int pkgmeta_cmp(enum ast_cmpop op, const value_t *l, const value_t *r);

/* builtins.c */
long long range_len(const value_t *it);
value_t *iter_items(struct frame *f, value_t *it, struct vseq **out);
value_t *iter_rep_item(struct frame *f, value_t *it);
/* One item standing for every item of q (tensors joined to the place
 * they share, tuples item by item, an equal scalar as such, else unknown
 * for `why`); NULL when q is empty.  Arena-owned. */
value_t *items_rep(struct frame *f, const struct vseq *q, const char *why, const struct ast_hdr *site);
/* the reason of sum() of Python ints not all known: still a Python int */
#define SUM_OF_INTS_REASON "a sum of Python ints not known"
/* builtins.c: enumerate() of items not known, and the (index, item) pair a
 * loop over it unpacks (the index an int >= 0) */
#define ENUMERATE_UNKNOWN_REASON "enumerate() of items not known"
value_t *enumerate_unknown_pair(struct frame *f, const value_t *it, const struct ast_hdr *target);
/* torch.load's result: called with tensors, a model (call.c) */
#define LOADED_OBJECT_REASON "an object loaded from a file (read at run time)"
/* torch.load(..., map_location=<a device>): the same, its tensors on the
 * device (module.c: load_state_dict of it into a host model copies them
 * back) */
#define LOADED_ON_DEVICE_REASON "an object loaded from a file onto the device (read at run time)"
/* ... and with map_location='cpu': its tensors on the host */
/* what .item()/.tolist() of a tensor give (tensor.c); torch.tensor() of
 * it is a tensor of Python numbers (torch.c) */
#define TENSOR_READ_REASON "a value read from a tensor at run time"
/* The reason of `self.training` in a forward read for a model the job
 * calls both in training and in eval mode (module_snapshot_training):
 * exec.c's `if self.training:` marks each path's mode (jctx.mode_only). */
#define TRAINING_BOTH_MODES "the model is called both in training and in eval mode"
/* x.unbind(), x.split(n) ... in job code (tensor.c tm_pieces): a tuple of
 * one representative piece whose number is not known; unpacked, each
 * name is a piece where x lives (exec.c) */
#define TENSOR_PIECES_REASON "the number of pieces is not known"
#define LOADED_ON_HOST_REASON "an object loaded from a file onto the host (read at run time)"
/* exec.c: two paths' loaded values joined (NULL when a, b are not both loaded) */
value_t *loaded_join(struct interp *in, const char *key, const value_t *a, const value_t *b);
#define IS_LOADED_REASON(r) ((r) && (!strcmp((r), LOADED_OBJECT_REASON) || !strcmp((r), LOADED_ON_DEVICE_REASON) || \
                                     !strcmp((r), LOADED_ON_HOST_REASON)))
int host_only(const value_t *v, int depth);
/* host_only, with the catalogue's torch.nn layers that hold no tensor
 * (tensorless_layers) known to hold none (cat NULL: none is) */
int host_only_cat(const struct catalog *cat, const value_t *v, int depth);
value_t *seq_from(struct interp *in, enum vkind k, struct vseq *src);
value_t *call_builtin(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                      struct vdict *kw, const struct ast_hdr *site);
void builtins_register(struct interp *in);

/* methods.c */
value_t *type_method(struct interp *in, value_t *obj, const char *name);
value_t *ext_method(struct interp *in, value_t *obj, const char *name);
value_t *file_lines(struct frame *f, value_t *self, const struct ast_hdr *site);

/* intargs.c: a device tensor where torch takes an int (catalog
 * int_arguments for d): a sync at site */
void intargs_reads(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);

/* module.c */
value_t *call_module_method(struct frame *f, value_t *fn, value_t **args, size_t nargs,
                            struct vdict *kw, const struct ast_hdr *site);
/* m._modules of a module instance self: a new dict of its submodules by
 * name, in registration order, when all are known (else not known, with
 * the reason).  A copy: a write into it is not the module's -- exec.c
 * turns `x._modules[name] = module` into the registration Python makes */
value_t *module_children_dict(struct frame *f, value_t *self, const struct ast_hdr *site);
/* `m[name] = v` / `x._modules[name] = v` on module m: v registered as
 * the child `name` when it is a module and name a str; otherwise (or in a
 * loop whose trip count is not known) m's children are no longer all
 * known.  `target` is the assignment's target (its text for the reason) */
void module_store_child(struct frame *f, struct vinst *m, value_t *idx, value_t *v, const struct ast_hdr *target);

/* fwdmode.c: the mode of a call of m (its forward's flag parameters --
 * bool/None/str defaults -- with the values the call binds), "" for none;
 * the reading of that mode in fi's list, a new one (state 0) when not read
 * yet and fewer than its limit were, else fi.  Arena-owned; never fail. */
const char *fwd_mode_sig(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                         const struct vdict *kw);
struct fwdinfo *fwd_mode_reading(struct interp *in, struct fwdinfo *fi, const char *sig);

/* forward.c */
struct fev *emit(struct frame *f, enum fev_kind kind, const struct ast_hdr *site);
void emit_op(struct frame *f, const char *op, const struct ast_hdr *site);
size_t ev_mark(const struct frame *f);
void op_io(struct frame *f, size_t mark, value_t *const *args, size_t nargs, const struct vdict *kw,
           value_t *ret);
/* hostsure.c: mark t (a tensor a torch factory made on the host, device=
 * what the call gave, NULL when none) host_sure when that is certain;
 * mark ret host_sure when the op's inputs are tensors on the host for sure
 * and Python data.  Job code only; never fail, allocate nothing. */
void host_sure_factory(struct frame *f, value_t *t, const value_t *device);
void host_sure_op(struct frame *f, value_t *const *args, size_t nargs, const struct vdict *kw, value_t *ret);
/* hostsure.c: obj[idx], obj a tensor on the host for sure and idx a device
 * tensor (or a tuple holding one): the sync of the index read back, at
 * site.  Job code only; never fails. */
void host_sure_device_index(struct frame *f, const value_t *obj, const value_t *idx, const struct ast_hdr *site);
value_t *container_slice(struct frame *f, struct vinst *m, const value_t *idx);
value_t *slice_forward(struct frame *f, struct vinst *s, value_t **args, size_t nargs,
                       struct vdict *kw, const struct ast_hdr *site);
size_t container_groups(struct interp *in, const struct vinst *m, size_t **starts);
value_t *call_module_fwd(struct frame *f, struct vinst *m, value_t **args, size_t nargs,
                         struct vdict *kw, const struct ast_hdr *site);
value_t *sequential_forward(struct interp *in, struct vinst *m, value_t *x, struct fseq *out,
                            struct frame *proto, const char *anchor);
value_t *layer_result(struct interp *in, struct vinst *m, value_t **args, size_t nargs,
                      struct vdict *kwargs);

/* interp.c: the job removed hook in->hooks[ix] (handle.remove()): it runs
 * no more.  A hook that was in place at one of the job's model calls
 * (registered before a call and removed after it, or registered after it
 * in a loop around it and removed outside that loop: back in place when
 * the loop comes round) is read now, as a forward reads it, with the
 * objects as they are (its writes undone after); its events are kept
 * aside and put after the job's when the job is read.  Never fails. */
void hook_removed(struct frame *f, size_t ix);

/* jobctx.c */
void ema_call(struct frame *f, const value_t *fn, const struct ast_hdr *site);
int log_sink(struct interp *in, const value_t *fn);
/* Is name (the last component of a call's name: "print", "log", "info")
 * one of a logging call?  Never fails. */
int log_sink_name(const char *name);
/* methods.c: is v a file object open()ed for writing text (a mode with
 * 'w', 'a', 'x' or '+' and no 'b')?  A mode not known is no.  Never fails. */
int file_writes_text(const value_t *v);
/* logacc.c: does the assignment or augmented assignment st, run in f,
 * store into a local name (or an item of it) that its scope reads only in
 * logging calls' arguments?  1 or 0; never fails (answers memoised). */
int log_accum_store(struct frame *f, const struct ast_hdr *st);
struct sched_ev *sev(struct frame *f, enum sev_kind kind, const char *call, const struct ast_hdr *site);
const struct jctx *jc_push(struct frame *f, enum jctx_kind kind, const char *anchor, const char *text);
/* jc_push of a JC_LOOP for the loop statement `loop` (jctx.yields set
 * when it is a generator body's loop around its yield) */
struct jctx *jc_push_loop(struct frame *f, const struct ast_hdr *loop, const char *text);
/* Whether the statement or expression n holds a yield (not in a nested
 * function or class): function.c */
int ast_contains_yield(const struct ast_hdr *n);
/* The frame's job context as an event made here would hold it (sev()'s
 * e->ctx: generator markers resolved).  Arena memory; never fails. */
const struct jctx *jc_here(struct frame *f);
int runtime_events(const struct interp *in, size_t from);
/* Is an event of kind k run-time work (a copy, a sync, a collective, a
 * loader hop) that runtime_events() counts? */
int sev_is_runtime(enum sev_kind k);
/* The product of two run counts (0 read as 1, -1 not known): -1 when
 * either is not known or the product is past 2^40. */
long long runs_times(long long a, long long b);
/* The `x % n` of a periodic test e (`it % n == 0`, `not it % n`, a flag
 * or helper standing for one, one part of an and/or), or NULL.  Never
 * fails; allocates nothing. */
const struct ast_BinOp *find_modulo(struct frame *f, const struct ast_hdr *e, int depth);
/* exec.c: is the `and` test false on every iteration -- a part of it
 * that does not depend on the iteration (names, attributes, comparisons,
 * `not`; no modulo) is false now (`every > 0 and it % every == 0` with
 * every -1)?  0 or 1; never fails. */
int guard_dead(struct frame *f, const struct ast_hdr *test);
/* exec.c: is e a test made of names, attributes, constants, comparisons
 * and `not` only -- one that can be evaluated again without a call (no
 * event, nothing bound)?  1 or 0; never fails. */
int test_pure(const struct ast_hdr *e);
/* guardrange.c: is the periodic test `x % n == 0` false on every pass of
 * the loop that counts x (`x += 1` at its top level, then `if x >= N:
 * break`, x a known int before it): no multiple of n between them?  0 or
 * 1; never fails, allocates nothing. */
int guard_out_of_range(struct frame *f, const struct ast_hdr *test);
/* guardflag.c: how many bindings of id the body holds at lines lo..hi,
 * the statement skip (and what is under it) left out; other scopes not
 * entered.  Never fails. */
unsigned body_bindings(const struct ast_list *body, const char *id, int lo, int hi, const struct ast_hdr *skip);
const struct jctx *guard_ctx(struct frame *f, const struct ast_hdr *test, const char *text);
/* jobctx.c: guard_ctx() for a test whose periodic part m is known (the
 * `x % n` of `x % n == 0` or of contguard.c's `x % n != 0`) */
const struct jctx *guard_ctx_mod(struct frame *f, const struct ast_hdr *test, const struct ast_BinOp *m,
                                 const char *text);
/* contguard.c: `if x % n != 0: continue` in a job loop, x counting its
 * passes: the guard the rest of the body runs under (every n passes),
 * pushed; NULL (nothing pushed) for any other test */
const struct jctx *continue_guard_ctx(struct frame *f, const struct ast_hdr *test, const char *rest);
/* contguard.c: s is such an `if` (its block ends in `continue`, no
 * else): its test is left undecided on the pass read */
int continue_guard_if(struct frame *f, const struct ast_If *s);
/* contguard.c: the guard `c % P` on a counter c the job loop bumps by one
 * after such an `if` (and binds nowhere else): its n (P * n passes), with
 * *expr its text; 0 otherwise */
long long continue_count_rate(struct frame *f, const struct ast_BinOp *m, const char **expr);
/* exec.c: in a forward, is the test `X.training` (1) or `not X.training`
 * (2) of a model called in both modes (the path then runs in that mode
 * only)?  0 otherwise, and outside a forward.  Never fails. */
int training_test(struct frame *f, const struct ast_hdr *test);
/* exec.c: a JC_COND pushed on f->jc for the path of an undecided test
 * at node `at` (an `if` or a conditional expression) whose condition is
 * text; mode the training_test() mode the path runs in only (0: either).
 * Arena memory; never fails. */
const struct jctx *cond_ctx(struct frame *f, const struct ast_hdr *at, const char *text, int mode);
/* recupdate.c: d (canonical dotted name) called on recv, an object of an
 * outside record class, when the catalog lists d as rewriting its fields
 * (record_updaters): the fields rewritten (or made not known), recv
 * returned; else NULL.  Arena memory; never fails. */
value_t *record_update_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs);
/* extbase.c: obj.name of an object of a repository class no class of whose
 * MRO in the repository defines name: its outside base's method, bound to
 * obj, when the catalog describes '<base>.<name>' (host_copying_methods);
 * else NULL.  Arena memory; never fails. */
value_t *ext_base_method(struct frame *f, value_t *obj, const char *name);
/* extbase.c: the library module class (catalog module_base_classes) a
 * repository class derives from, canonical dotted; NULL when none */
const char *class_module_base(struct interp *in, struct vclass *c);
/* loopkeep.c: does v keep its kind over the iterations of a loop not read
 * to its end (a tensor, module or object; a tuple or list of exact length
 * of such values)?  Pure; allocates nothing. */
int loop_keeps_kind(const value_t *v);
/* guardflag.c: the `x % n` a flag the job loop binds stands for (`flag = x
 * % n == 0` at the top level of the body of the loop the frame reads, the
 * one binding of the flag there, before the test that reads `name`), or
 * NULL.  Never fails; allocates nothing. */
const struct ast_BinOp *flag_modulo(struct frame *f, const struct ast_Name *name, int depth);
/* guardflag.c: the `x % n` of a flag bound as flag_modulo() reads one,
 * to `x % n == K` or `x % n != K` (K an int literal): a flag that
 * follows a cycle of n passes (`is_accumulating = it % accum != 0`), or
 * NULL.  Never fails; allocates nothing. */
const struct ast_BinOp *flag_cycle_modulo(struct frame *f, const struct ast_Name *name);
/* guardflag.c: the whole TEST such a flag was bound to, when flag_modulo()
 * answers for it and no name TEST reads is bound again between the flag's
 * statement and the test (so TEST read at the test means what it meant
 * there), else NULL.  Never fails; allocates nothing. */
const struct ast_hdr *flag_bound_test(struct frame *f, const struct ast_Name *name, int depth);
/* oneshot.c: is the `if` s, whose branch `taken` (1 body, 0 else) runs,
 * a block that turns its own flag off (`if self.x: ...; self.x = False`),
 * run once however often its code is reached?  0 or 1; never fails. */
int one_shot_if(const struct frame *f, const struct ast_If *s, int taken);
int one_shot_move(const struct frame *f, const struct ast_hdr *st);
/* firstiter.c: is the undecided test of an `if` `i == 0` on the counter of
 * the `for` the frame runs innermost (`for i in range(n)`), true in its
 * first iteration only?  1 with *out the context for the body (the
 * contexts between the `if` and the loop, on what is around the loop;
 * arena memory), else 0.  Never fails. */
int first_iter_ctx(struct frame *f, const struct ast_hdr *test, const struct jctx **out);
/* first_flag_ctx(): the same for an `if NAME:` read true whose body turns
 * NAME off (`NAME = False`), no other store into NAME in that loop. */
int first_flag_ctx(struct frame *f, const struct ast_If *s, const struct jctx **out);
/* last_iter_ctx(): the same for an undecided test true on the loop's last
 * iteration only -- the one part of it that is live (an `or`'s parts
 * guard_dead() finds false on every iteration left out) is a NAME, or a
 * comparison, that an `if` of the loop's body, after the test, breaks
 * the loop on (`last_step = step == n` ... `if last_step: break`). */
int last_iter_ctx(struct frame *f, const struct ast_hdr *test, const struct jctx **out);
/* carry.c: does the test, about to be decided, read a name that the body
 * of a loop in f->carry binds, while it holds its value from before that
 * loop?  Then 1, and those loops are marked (hit); else 0.  Never fails. */
int carry_decided(struct frame *f, const struct ast_hdr *test);
/* carry.c: is s, `xs[-1]` of the list obj, a read of the item from
 * before the loop of a list the loop's body appends to after it (a
 * sampler's trajectory)?  Then those loops are marked (hit: read again
 * as a later iteration) and 1; else 0.  Never fails. */
/* arrays.c: the argument a catalog spec "keyword:position" (or
 * "keyword"; the position first) names in args/kw, or NULL.  Never fails. */
value_t *colon_arg(const char *spec, value_t *const *args, size_t nargs, const struct vdict *kw);
/* loopfeed.c: does the loop's body (a For, AsyncFor or While) bind a
 * name it also reads -- may it feed anything back into its next pass?
 * 1 (also for anything else, or too many names to tell), or 0 for a loop
 * that repeats the same work on the same inputs.  Never fails. */
int loop_feeds_back(const struct ast_hdr *loop);
int carry_last_item(struct frame *f, const struct ast_Subscript *s, const value_t *obj);
/* carry.c: does the assignment target t (a name, starred, a tuple or
 * list of them; not an attribute or item) bind the name id? */
int carry_target_has(const struct ast_hdr *t, const char *id);
/* carry.c: does statement st hold a `continue` of the loop whose body it
 * is in (one in an inner loop's else too; not one of an inner loop, nor
 * in a def, class or lambda)? */
int holds_loop_continue(const struct ast_hdr *st);
/* carry.c: does e read the loop's target or a name its body binds? */
int carry_reads_varying(const struct carry *c, const struct ast_hdr *e);
/* itemargs.c: a call from a loop read once for all marks the callee's
 * parameters whose argument varies per iteration (itemargs_note, before
 * the body runs; bound: the callee's first parameter is self, given
 * apart); a test the callee decides on one of them makes the loop read a
 * later iteration too (itemargs_test). */
void itemargs_note(struct frame *f, struct frame *cf, const struct vfunc *fn, const struct ast_hdr *site,
                   int bound);
void itemargs_test(struct frame *f, const struct ast_hdr *test);
/* carry.c: does the test read a name that the body of a loop of f (in
 * f->carry) binds -- a loop-carried name, which a later iteration may
 * hold otherwise?  1 or 0; never fails.  exec.c marks the JC_COND of
 * such an undecided test (jctx.carried). */
int carry_reads_bound(const struct frame *f, const struct ast_hdr *test);
/* carry.c: does the context `later` of an event the loop's second
 * reading made hold an undecided `if` on a loop-carried name (JC_COND
 * marked carried, by its anchor) between it and the loop's context
 * `loop` that the context `first` of the first reading's event at the
 * same line does not -- a test the first reading decided on a value
 * from before the loop?  1 or 0; never fails. */
/* carry.c: in a loop body's second reading (f->carry->later), does the
 * test read a name the body binds that still holds the very value it had
 * before the loop (the first reading never reached its binding: `best =
 * val` under a block the first pass skipped)?  Then a later iteration
 * may see another value: 1, the test is not decided; else 0.  Never
 * fails. */
int carry_later_undecided(struct frame *f, const struct ast_hdr *test);
int carry_cond_added(const struct jctx *first, const struct jctx *later, const struct jctx *loop);

/* residual.c: the text of an `and`/`or` as far as the run leaves it
 * undecided.  residual_may_drop: whether a known operand may be left out
 * where f is (outside loops, handlers and forwards: 0 or 1).
 * residual_join: sofar (NULL to start) with one more operand
 * of b, grouped in parentheses where it needs them.  test_text: the text
 * of an `if`'s or a conditional expression's test whose value is tv --
 * the residual eval.c gave an undecided `and`/`or`, else the source. */
int residual_may_drop(const struct frame *f);
const char *residual_join(struct frame *f, const struct ast_BoolOp *b, const char *sofar,
                          const struct ast_hdr *operand);
const char *test_text(struct frame *f, const struct ast_hdr *test, const value_t *tv);
int carry_varies(const struct frame *f, const struct ast_hdr *test);
/* carry.c: does the name id count the passes of the loop f is reading
 * (the innermost of its frame)?  1: the loop's own target, or a statement
 * of its body `id += k` that every pass reaches (no `continue` before
 * it); 0: such an increment after a `continue` of the loop -- `cur_tick
 * += 1` after an undecided per-tick `continue` counts ticks, not passes;
 * -1: bound otherwise (under an `if`, by an assignment), not bound in the
 * body at all (an attribute, a counter of another loop), or no loop
 * read. */
int carry_counts_passes(const struct frame *f, const char *id);
/* carry.c: is id bound by the target of the `for` f is reading (the
 * innermost loop of its frame; `idx` of `for idx, batch in
 * enumerate(loader)`, a loader's loop included, whose target
 * carry_counts_passes() does not see)?  0 or 1; never fails. */
int carry_for_target_binds(const struct frame *f, const char *id);
/* carry.c: does statement st (or one inside it, not in a nested def,
 * lambda or class) bind id? */
int carry_stmt_binds(const struct ast_hdr *st, const char *id);
/* countrate.c: N > 1 when the guard TEST's periodic part M counts a name
 * the job loop advances only under a periodic test of its pass counter
 * every N passes, and TEST requires that test too (`c % P == 0 and
 * is_update_step`): the block runs every P * N passes.  *expr: that
 * test's period expression.  0 otherwise.  Never fails. */
long long countrate_period(struct frame *f, const struct ast_hdr *test, const struct ast_BinOp *m, const char **expr);
/* stridectr.c: N >= 1, the passes between two runs of a block guarded by
 * M = `C % P` (P = period, known > 0) when the job loop advances C (a name
 * or attribute chain) by a known stride K > 1 once a pass (`C += K`, the
 * only binding of C in the body, no `continue` before it): P / gcd(P, K).
 * *expr: "<P>/<K>".  0 otherwise.  Never fails. */
long long stride_period(struct frame *f, const struct ast_BinOp *m, long long period, const char **expr);

/* dsengine.c: a DeepSpeed engine (deepspeed.initialize, add_config_arguments,
 * the engine's step and switches); NULL when the call or name is none of
 * them.  Never fail. */
/* accelds.c: a library's prepare handing the model to DeepSpeed (catalog
 * engine_handoffs, the environment's switch set): the engine, its
 * backward and step at the object's backward method; NULL when the call
 * is not one. */
value_t *accelds_call(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args,
                      size_t nargs, const struct ast_hdr *site);
/* dsengine.c: the keyword of initialize's keywords, True when the module
 * was built partitioned by deepspeed.zero.Init (no move, no broadcast) */
#define DS_ZERO_INIT "__ecg_ds_zero_init__"
value_t *ds_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site);
value_t *ds_engine_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
void ds_engine_forward(struct frame *f, const struct vinst *m, const struct ast_hdr *site);
int ds_zero3_param_attr(const struct interp *in, const value_t *p, const char *name);

/* dspipe.c: DeepSpeed's pipeline engine.  dspipe_module: a call of
 * deepspeed.pipe.PipelineModule (the module, moved to the device as it is
 * made), NULL for any other d; dspipe_is_module: m is one;
 * dspipe_initialize: the PipelineEngine's set-up events at initialize's
 * call, for such a module; dspipe_train_batch: engine.train_batch() of an
 * engine around such a module (cfg: its configuration or NULL, has_data:
 * initialize was given training_data), NULL when m is no such module.
 * Never fail. */
value_t *dspipe_module(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site);
int dspipe_is_module(const struct vinst *m);
void dspipe_initialize(struct frame *f, const struct vinst *m, const struct ast_hdr *site);
value_t *dspipe_train_batch(struct frame *f, const struct vinst *m, const struct vdict *cfg, int has_data,
                            value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site);
/* call.c: a library method that runs the job's model inside it (a
 * pipeline engine's train_batch): a root call with no instance, as a
 * library module's (the step and the job type see it), and its event. */
void lib_step_call(struct frame *f, const struct ast_hdr *site);

/* dacite.c: dacite.from_dict(data_class, data, config) of a repository
 * dataclass and a dict seen whole: the instance built; else an unknown
 * with the reason.  Never NULL. */
value_t *dacite_from_dict(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site);
/* jsonmerge.c: jsonmerge.merge(base, head) of two documents seen whole:
 * objects merged key by key, anything else overwritten by head (a new
 * value; neither argument written) */
value_t *jsonmerge_merge(struct frame *f, value_t **args, size_t nargs, struct vdict *kw, const struct ast_hdr *site);
int is_route_decorator(struct frame *f, const struct ast_hdr *d);
void decorator_hooks(struct frame *f, value_t *fv, const struct ast_hdr *st, const struct ast_hdr *d);
const struct jctx *with_jctx(struct frame *f, const struct ast_hdr *st, const struct ast_withitem *wi,
                             value_t *cv, int *ng);
/* jobctx.c: the gate attribute catalog object_host_reads names for the
 * outside method d (by its dotted name, or a torch class's last name and
 * the method: *cm, when cm is not NULL, the name it was found by), NULL
 * when d reads nothing on the host */
const char *object_host_read_gate(struct interp *in, const char *d, const char **cm);
void ext_job_effects(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args, size_t nargs,
                     struct vdict *kw, const struct ast_hdr *site);
int is_optimizer(const value_t *v);
int is_optim_ext(const char *name);
/* parallel.c: callee's parameters named for a parallel degree, just bound
 * by a call from f at site, kept as the job's degrees (the first of each) */
void parallel_note_params(struct frame *f, const struct frame *callee, const struct ast_hdr *site);
/* a device mesh of these axis sizes and names, made at site: the degrees
 * it states when it covers the world (parallel.c) */
void parallel_note_mesh(struct frame *f, const struct vseq *sizes, const struct vseq *names,
                        const struct ast_hdr *site);
/* the model wrapped at site in `wrapper` (DDP, FSDP) with keywords kw:
 * over the default group, the data degree is every process (parallel.c) */
void parallel_note_wrap(struct frame *f, const char *wrapper, const struct vdict *kw, const struct ast_hdr *site);
/* parallel.c: an all_reduce (op, nargs positional arguments) made by the job's backward hooks
 * (gradhook.c) over the default group: the data degree, as a wrapper's */
void parallel_note_grad_reduce(struct frame *f, const char *op, size_t nargs, const struct vdict *kw,
                               const struct ast_hdr *site);
/* torch.distributed.init_process_group(..., world_size=w) at site: the
 * default group's size when w is a known positive int (parallel.c) */
void parallel_note_group(struct frame *f, const value_t *world, const struct ast_hdr *site);
/* stage.c: a pipeline stage's share of a count, n // P (see there) */
void stage_note_div(struct frame *f, const struct ast_hdr *site, const value_t *l, const value_t *r,
                    value_t *res);
void stage_of_slice(struct frame *f, const struct ast_hdr *slice, const value_t *obj, value_t *r);
void stage_of_comp(const value_t *it, value_t *out);
void stage_of_repeat(const struct interp *in, const value_t *times, const value_t *x, value_t *out);
void unknown_call_effects(struct frame *f, const struct ast_hdr *site, value_t **args, size_t nargs);
value_t *optimizer_factory_call(struct frame *f, const char *d, const struct ast_hdr *site);
value_t *library_object_call(struct frame *f, const char *d);
value_t *topk_metric_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw);
value_t *loss_scaler_call(struct frame *f, const char *cls, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site);
void token_choice(struct frame *f, const char *what, int dev, const struct ast_hdr *site);

/* eval.c */
value_t *binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
               const struct ast_hdr *site, int inplace);
void format_hook(struct frame *f, value_t *v, int how, const struct ast_hdr *site);
value_t *eval(struct frame *f, const struct ast_hdr *e);

/* exec.c */
void assign(struct frame *f, const struct ast_hdr *t, value_t *v);
enum flow exec_block(struct frame *f, const struct ast_list *body);

/* framework.c */
value_t *framework_call(struct frame *f, const char *d, const char *last, value_t **args, size_t nargs,
                        const struct ast_hdr *site);
value_t *call_tyro_cli(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site);
/* A library's training object (accelerate's Accelerator outside the
 * repository), by catalog facts; job mode only, none fails:
 * framework_precision: its mixed-precision word (library_precisions: the
 *   constructor keyword, else the environment variable, else "no"), NULL
 *   when not known (borrowed);
 * framework_attr: obj.<that keyword> as that word; NULL for anything else;
 * framework_prepare_note: prepare(...)'s arguments noted on the object
 *   (its models) and on its optimizers (which object prepared them); with
 *   several processes its models moved to the device (model.to);
 * framework_optimizer_step: a prepared optimizer's step() under a
 *   GradScaler precision: the scaler's sync (once a step under the
 *   accumulation block; on a GPU);
 * framework_lib_call: accumulate(model) (its block's object), save_state
 *   (its registered hooks called, the save and its sync), register_*(fn)
 *   (fn kept); NULL for any other call;
 * framework_accumulation: the micro-steps per step of the block object
 *   cv (-1 not known), 0 when cv is none;
 * framework_step_flag: v is the object's flag true once a step;
 * framework_device_cond: v is obj.<attribute> naming the device the
 *   library chose at run time (catalog run_time_devices: accelerator.device)
 *   of one process: the condition under which it is a GPU (static
 *   storage), NULL otherwise (several processes: a GPU each, for sure). */
const char *framework_device_cond(struct interp *in, const value_t *v);
const char *framework_precision(struct interp *in, const value_t *obj);
value_t *framework_attr(struct frame *f, const value_t *obj, const char *name);
void framework_prepare_note(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs,
                            const struct ast_hdr *site);
void framework_optimizer_step(struct frame *f, const struct vinst *m, const char *name, const struct ast_hdr *site);
value_t *framework_lib_call(struct frame *f, const char *d, const char *last, const value_t *recv, value_t **args,
                            size_t nargs, const struct ast_hdr *site);
long long framework_accumulation(struct interp *in, const value_t *cv);
int framework_step_flag(struct interp *in, const value_t *v);
/* A library object that starts the job's processes (Lightning Fabric,
 * catalog launcher_objects), job mode only, none fails:
 * framework_launcher_call: a method of it -- a collective with more than
 *   one process under a data-parallel strategy, setup's wrap of the model
 *   in the strategy's torch wrapper, a wrapper method (clip_gradients),
 *   the block object of its gradient-sync skip, its save; NULL for any
 *   other call or receiver;
 * framework_sync_skip: cv is that block's object: 1 it skips the sync
 *   (enabled known true), 2 on some micro-steps (enabled not known: *flag
 *   that value), 0 none. */
value_t *framework_launcher_call(struct frame *f, const char *d, const value_t *recv, value_t **args, size_t nargs,
                                 struct vdict *kw, const struct ast_hdr *site);
int framework_sync_skip(struct interp *in, const value_t *cv, const value_t **flag);
/* framework_step_end_test: test is `not NAME`, NAME bound to the value
 * framework_sync_skip's block turned the skip on with (in->accum_flag):
 * its body runs on the micro-step that ends a step. */
int framework_step_end_test(struct frame *f, const struct ast_hdr *test);

/* hf.c */
value_t *hf_class_attr(struct frame *f, value_t *cls, const char *name);
value_t *hf_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                 const struct ast_hdr *site);

/* hfbase.c: an Auto class's model of a class not known (a Hub checkpoint):
 * the methods its library's base defines and no class of the Auto table
 * overrides (catalog library_auto_bases), read from the base */
void hfbase_mark(struct frame *f, value_t *model, const char *auto_dotted, const struct vdict *kw);
value_t *hfbase_method(struct frame *f, value_t *obj, const char *name);

/* tplan.c: parallelize_module's plan marks the submodules it reaches
 * with their style; at a call of a marked submodule in a forward,
 * tp_call states its style's collectives (nothing for any other). */
void tp_plan_apply(struct frame *f, value_t **args, size_t nargs, struct vdict *kw);
/* A style's or placement's constructor arguments kept in o->args
 * (keywords by name, positionals "arg0" ...); nothing for other classes */
void tp_keep_args(struct interp *in, struct vinst *o, const char *last, value_t **args, size_t nargs,
                  struct vdict *kw);
void tp_call(struct frame *f, struct vinst *m, const struct ast_hdr *site);

/* syncbn.c: convert_sync_batchnorm marks the batch-norm layers it
 * replaces (nothing for another call d); at a call of a marked layer in a
 * training forward, syncbn_call states its all-gather, anchored at site
 * (NULL: at anchor, a container's call). */
/* pathopen.c: a library's open of a local path (catalog path_openers)
 * read as the builtin open(): its file object; unknown for a path with a
 * scheme or not known; NULL when d is none */
value_t *path_open_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                        const struct ast_hdr *site);
/* passthru.c: a library's call handing back the objects it is given
 * (catalog passthrough_calls), or NULL when d is none */
value_t *passthru_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw);
/* gradhook.c: t.register_hook(fn) -- the handle, fn kept when t is a
 * module's parameter and fn the repository's; gradhook_removed(): the
 * handle's remove(); gradhook_queue_call(): the engine's queue_callback
 * (catalog backward_callback_queues), None, or NULL when d is none;
 * gradhook_backward(): the hooks and their callbacks read at the job's
 * backward just made (its event the last one) */
value_t *gradhook_register(struct frame *f, value_t *recv, value_t **args, size_t nargs,
                           const struct ast_hdr *site);
void gradhook_removed(struct interp *in, long long ix);
value_t *gradhook_queue_call(struct frame *f, const char *d, value_t **args, size_t nargs);
void gradhook_backward(struct frame *f, const struct ast_hdr *site);
/* loopexit.c: the context of an undecided `if`'s block that ends with
 * `break` -- f->jc with a JC_LOOP_EXIT pushed (the loop around it is left
 * on the iteration that runs the block), or f->jc itself for any other
 * block, in a forward, or outside a loop */
const struct jctx *loop_exit_ctx(struct frame *f, const struct ast_list *body, const struct ast_hdr *site,
                                 const char *text);
/* devbatch.c: a library's iterator making each batch on the device it was
 * given (catalog device_batch_iterators: torchtext's legacy BucketIterator).
 * devbatch_init() marks o, an object of class d, such a loader (1; 0 when
 * d is none); devbatch_batch() is one batch of it (the H2D at site when
 * what is given and the device a GPU; NULL when dl is no such loader);
 * devbatch_attr() a field of such a batch (NULL: not one) */
int devbatch_init(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                  struct vdict *kw);
value_t *devbatch_batch(struct frame *f, const struct vinst *dl, const char *what, const struct ast_hdr *site);
value_t *devbatch_attr(struct frame *f, const value_t *obj, const char *name);
void syncbn_convert(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw);
void syncbn_call(struct frame *f, struct vinst *m, const struct ast_hdr *site, const char *anchor);
/* a Sequential's call whose forward was read before: its converted
 * layers' all-gathers at this call too */
void syncbn_container_again(struct frame *f, struct vinst *m, const struct ast_hdr *site);

/* pretrained.c: a component loader's call (catalog component_loaders)
 * read as the class it builds, or NULL (not one: nothing done) */
value_t *pretrained_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site);

/* libvalues.c: values of other libraries ecg does not build (unknowns
 * told apart by their reason) */
#define LIB_MODULE_HOST_REASON "a module a library builds on the host (not read)"
#define LIB_OUTPUT_REASON "what a library's module returns (not read)"
#define LIB_MODULE_DEVICE_REASON "a module a library builds, moved to the device (not read)"
#define HOST_TENSOR_MAP_REASON "a mapping of host tensors a library returns (read at run time)"
#define DEVICE_TENSOR_MAP_REASON "a mapping of tensors a library returns, moved to the device (read at run time)"
#define LIBV_TO_REASON "the .to() of a library's value not read"
#define LIBV_CUDA_REASON "the .cuda() of a library's value not read"
#define LIBV_SAVE_REASON "a library module's method writing its tensors to files"
#define LIB_PIPELINE_DEVICE_REASON "an inference pipeline a library built, its model on the device (not read)"
#define LIB_PIPELINE_OUTPUT_REASON "what a library's pipeline returns, on the host (not read)"
int libv_is_module(const value_t *v);   /* a library's module not read, on the host or moved */
int libv_same_place_modules(const value_t *a, const value_t *b);   /* two such, in the same place */
/* libvalues.c: from_pretrained's keywords kw hold a device_map naming one
 * device (catalog pretrained_device_keywords) */
int libv_places_on_device(struct interp *in, const struct vdict *kw);
/* hf.c: set on a model that from_pretrained of a library class the job
 * names built (the library not read): its class is that one, no Hub's */
#define HF_NAMED_CLASS_ATTR "__ecg_library_named_class__"
/* libvalues.c: recv.save_pretrained() of an outside module instance
 * (catalog module_state_savers): a save, and a sync when it is on the
 * device; NULL for anything else */
value_t *libv_inst_save(struct frame *f, const char *last, const value_t *recv, const struct vdict *kw,
                        const struct ast_hdr *site);
int libv_is_tensor_method(const struct interp *in, const struct vinst *m, const char *name);   /* catalog module_tensor_methods */
value_t *libv_module_method(struct frame *f, const char *last, const value_t *recv);   /* NULL: not one */
value_t *libv_module_factory(struct frame *f, const char *d, struct vdict *kw, const struct ast_hdr *site);
void libv_model_copy(struct frame *f, const char *d, struct vinst *o, value_t **args, size_t nargs,
                     const struct vdict *kw);   /* catalog model_copy_holders */
value_t *libv_device_name(struct frame *f, const char *d, value_t **args, size_t nargs, const struct vdict *kw,
                          const struct ast_hdr *site);
value_t *libv_call_result(struct frame *f, const value_t *fn, const struct vdict *kw, value_t *r,
                          const struct ast_hdr *site);
value_t *libv_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
value_t *libv_meter_update(struct frame *f, const char *d, value_t *recv, value_t **args, size_t nargs,
                           const struct ast_hdr *site);
value_t *libv_pipeline(struct frame *f, const char *d, const struct vdict *kw, const struct ast_hdr *site);
/* libvalues.c: transformers' from_pretrained model r given device_map
 * naming a device (catalog pretrained_device_keywords): its H2D at the
 * call, r placed on the device */
void libv_hf_placed(struct frame *f, value_t *r, const struct vdict *kw, const struct ast_hdr *site);
value_t *libv_device_load(struct frame *f, const char *d, value_t *const *args, size_t nargs,
                          const struct vdict *kw, const struct ast_hdr *site);
value_t *libv_subset_result(struct frame *f, const value_t *fn, value_t *const *args, size_t nargs, value_t *r,
                            const struct ast_hdr *site);
/* arrays.c: arrays of another library whose shape is known in part.
 * arr_reader_result() marks r, call_ext's value not known for d(args, kw),
 * an array of shape [?] when d is a catalog array_reader not given another
 * shape (of the shape given: array_factories; integers drawn at random:
 * array_draws; np.stack of such arrays: array_stackers; np.array of one:
 * array_converters); arr_attr()/arr_call() a shape-keeping method of such an array and
 * its call; arr_window() obj[i:i+k] of one (NULL when none of these);
 * arr_tensor_window() gives tensor t = obj[i:i+k] the first axis k when
 * obj's is not known; arr_device_index() writes the sync of such an array
 * indexed with a device tensor.  None fails. */
void arr_reader_result(struct frame *f, const char *d, value_t *const *args, size_t nargs,
                       const struct vdict *kw, value_t *r);
/* arr_rows(): the rows of such an array whose first axis is known (at most
 * max), each of the shape of the other axes, as *out; 0 when it is none */
int arr_rows(struct frame *f, const value_t *it, size_t max, struct vseq **out);
value_t *arr_attr(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
value_t *arr_call(struct frame *f, const value_t *fn, const struct ast_hdr *site);
value_t *arr_window(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx);
/* arr_item(): obj[i] of such an array of rank >= 1 at one integer i (a
 * Python int, a 0-d array, an int >= 0 not known): numpy's basic indexing
 * drops the first axis, an array of the others; NULL otherwise (a slice,
 * a tuple, an array of indices) */
value_t *arr_item(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx);
/* arr_dtype_reason: the reason of such an array's .dtype whose kind of
 * elements (dt) is known; arr_dtype_kind(): the kind (DT_*) of another
 * library's dtype the job named (catalog array_dtypes), DT_UNKNOWN when
 * none */
/* arr_join(): what a name two paths of an undecided `if` bound to such
 * arrays of one rank holds after them: an array of that rank, an axis
 * known where both know it alike; NULL when a or b is none */
value_t *arr_join(struct interp *in, const value_t *a, const value_t *b);
/* lazyinit.c: a lazy initialisation's None and value on two paths.
 * lazy_none_pair(): are a and b each None, such a value (an array known
 * in part, a tuple of known scalars) or alternatives of those, one
 * holding None; lazy_not_none(): the value such a pair holds where it is
 * not None (two arrays joined, two equal tuples), or NULL;
 * lazy_none_join(): what a name or attribute such a pair bound on the two
 * paths of `cond` holds after them: alternatives of the value and None --
 * one level, however many `if`s made them; of a and b when the values do
 * not join.  Its condition is the last `if`'s, not the one under which it
 * is None: readers use only that one side is None (`is None` stays
 * undecided; narrow.c reads the value side).  Never fail. */
int lazy_none_pair(const value_t *a, const value_t *b);
value_t *lazy_not_none(struct interp *in, value_t *v, int depth);
value_t *lazy_none_join(struct interp *in, const char *cond, value_t *a, value_t *b);
/* lazy_same(): are a and b two equal tuples of known Python scalars (what
 * two paths bound is then one value)?  Never fails. */
int lazy_same(const value_t *a, const value_t *b);
extern const char arr_dtype_reason[];
int arr_dtype_kind(const struct catalog *cat, const value_t *d);
/* arr_len(): len() of such an array whose first axis is known, else NULL;
 * arr_binop(): l op r (arithmetic) when one is such an array and the
 * result keeps its shape (a Python number or a 0-d array beside it),
 * else NULL */
value_t *arr_len(struct frame *f, const value_t *a);
/* arr_may_be_float(): is v a 0-d array whose dtype may be a float (not a
 * draw's integer)?  isinstance(v, float) is then undecided */
int arr_may_be_float(const value_t *v);
value_t *arr_binop(struct frame *f, enum ast_operator op, const value_t *l, const value_t *r,
                   const struct ast_hdr *site);
void arr_device_index(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx);
void arr_tensor_window(struct frame *f, const struct ast_Subscript *s, const value_t *obj, const value_t *idx,
                       value_t *t);
value_t *libv_call(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                   const struct ast_hdr *site);
value_t *libv_module_call(struct frame *f, const value_t *fn, const struct ast_hdr *site);
value_t *libv_item(struct frame *f, const value_t *obj, const value_t *key);

/* call.c */
value_t *call_ext(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                  const struct ast_hdr *site);
value_t *call(struct frame *f, value_t *fn, value_t **args, size_t nargs,
              struct vdict *kw, const struct ast_hdr *site);

/* attr.c */
value_t *bound(struct interp *in, value_t *fnv, value_t *self);
value_t *getattr_v(struct frame *f, value_t *obj, const char *name, const struct ast_hdr *site);
/* whether the n bytes at w are one of the space-separated words of a
 * catalog entry's value */
int word_listed(const char *words, const char *w, size_t n);

/* ------------------------------------------------------------------ small helpers */

/* The end of a decimal number's text at p (no sign): digits, then '.'
 * and digits, then an exponent e[+-]digits when digits follow it; *dot and
 * *ex say which parts were there.  The caller decides what the text is
 * (yacs.c's literal_eval, omegaconf.c's YAML scalars).  Never fails. */
static inline const char *scan_decimal(const char *p, int *dot, int *ex)
{
	const char *q = p;

	*dot = *ex = 0;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q == '.') {
		*dot = 1;
		q++;
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		const char *e = q + 1;

		if (*e == '-' || *e == '+')
			e++;
		if (isdigit((unsigned char)*e)) {
			while (isdigit((unsigned char)*e))
				e++;
			*ex = 1;
			q = e;
		}
	}
	return q;
}

static inline value_t *v_tensor_dev(struct ast_arena *a, int dev, int pinned)
{
	value_t *t = v_tensor(a);

	t->dev = (unsigned char)dev;
	t->pinned = (unsigned char)pinned;
	return t;
}

static inline value_t *unknown_at(struct frame *f, const struct ast_hdr *e, const char *reason)
{
	return v_unknown(f->in->a, e ? text_of(f, e) : NULL, reason);
}

static inline int is_tensorish(const value_t *v)
{
	return v && v->k == VK_TENSOR;
}

/* Is reading v's truth on the host a sync?  A device tensor's is; a
 * loader's batch (or a part of one) whose collation is not known may be a
 * list or a dict, whose truth is its length: not one for sure. */
static inline int device_truth(const value_t *v)
{
	return is_tensorish(v) && v->dev == DEV_DEVICE && !v->loose;
}

static inline long long as_int(const value_t *v, int *ok)
{
	*ok = 1;
	if (v && v->k == VK_INT)
		return v->u.i;
	if (v && v->k == VK_BOOL)
		return v->u.b;
	*ok = 0;
	return 0;
}

static inline int as_num(const value_t *v, double *out)
{
	if (!v)
		return 0;
	if (v->k == VK_INT) {
		*out = (double)v->u.i;
		return 1;
	}
	if (v->k == VK_BOOL) {
		*out = v->u.b;
		return 1;
	}
	if (v->k == VK_FLOAT) {
		*out = v->u.f;
		return 1;
	}
	return 0;
}

static inline int str_eq(const value_t *v, const char *s)
{
	return v && v->k == VK_STR && !strcmp(v->u.str.s, s);
}

static inline value_t *mk_builtin(struct interp *in, int id, value_t *self)
{
	value_t *v = ast_arena_alloc(in->a, sizeof *v);

	v->k = VK_BUILTIN;
	v->u.bi.id = id;
	v->u.bi.self = self;
	return v;
}

static inline value_t *mk_inst_value(struct interp *in, struct vinst *m)
{
	value_t *v = ast_arena_alloc(in->a, sizeof *v);

	v->k = VK_INST;
	v->u.inst = m;
	return v;
}

static inline struct vinst *new_inst(struct interp *in)
{
	struct vinst *m = ast_arena_alloc(in->a, sizeof *m);

	m->attrs = vdict_new(in->a);
	if (in->ajournal)
		journal_born(in, m->attrs);
	return m;
}

/* A call's keyword dict may carry these keys, which no Python name can
 * spell: KW_UNK_STAR when a *args of the call had items not known,
 * KW_UNK_DSTAR when a **kwargs had keys not known (eval.c sets them).
 * Their value is an unknown saying which expression (KW_UNK_DSTAR's recv:
 * when each such `**` was a dict not listing all its entries, a dict of
 * none whose anykey/anyval say what those hold; else NULL).  Then a parameter
 * the call did not name may still have been set by it: its default is
 * not what the callee sees (function.c, object.c). */
#define KW_UNK_STAR "*"
/* builtins.c: range(...) whose bounds are not known (the reason's start;
 * a cause may follow): a sequence of ints all the same */
#define RANGE_UNKNOWN_REASON "a range whose bounds are not known"
/* ... of ints >= 0 for sure (range(n), range(0, n): no start below 0,
 * no negative step): the reason then starts with both; iter_rep_item's
 * item is an int >= 0 (FACT_NONNEG_INT), an index */
#define RANGE_NONNEG_REASON RANGE_UNKNOWN_REASON ", of ints >= 0"
/* eval.c: x[idx] (or x[idx] = v) of a device tensor with an index of host
 * data (a numpy array, a list of ints, a range -- a known one, or a call
 * of range written in the slice whose bounds are not known -- a host
 * tensor for sure): the index copied to the device, an H2D at site.
 * slice: the index as written (NULL: not known).  Nothing when x is not
 * on the device or the index is none of those. */
void index_host_copy(struct frame *f, const value_t *obj, const value_t *idx, const struct ast_hdr *slice,
                     const struct ast_hdr *site);
/* eval.c: x[mask] = v of a device tensor through a boolean mask, v not one
 * host number: index_put_'s nonzero, a sync at site */
void index_mask_store(struct frame *f, const value_t *obj, const value_t *idx, const value_t *v,
                      const struct ast_hdr *site);
#define KW_UNK_DSTAR "**"
/* the side of a `**(d1 if c else d2)` keyword whose dict does not pass
 * it (eval.c dstar_alts): the parameter keeps its default on that path */
#define KW_ABSENT_REASON "not passed on this path: the parameter's default"

static inline int kw_is_marker(const value_t *k)
{
	return k && k->k == VK_STR && (!strcmp(k->u.str.s, KW_UNK_STAR) || !strcmp(k->u.str.s, KW_UNK_DSTAR));
}

/* The marker that may have set a parameter: positional ones (pos) by
 * either, keyword-only ones by KW_UNK_DSTAR only; NULL when none. */
static inline value_t *kw_unk(const struct vdict *kw, int pos)
{
	value_t *m;

	if (!kw)
		return NULL;
	if ((m = vdict_gets(kw, KW_UNK_DSTAR)))
		return m;
	return pos ? vdict_gets(kw, KW_UNK_STAR) : NULL;
}

/* d[k] = v or setattr(o, k, v) with a name not known: any entry may now
 * hold another value, so none of its data values (numbers, strings, None,
 * lists, tuples, dicts: what configurations set) is stated; the keys stay,
 * and a read of one is unknown with `why`, not a stale default.  Functions,
 * classes, modules and objects are left: code does not set those from
 * configuration keys. */
/* Why the keys, the length and the entries of a dict stored into with a
 * key not known (vdict.anykey) are not listed. */
#define DICT_ANYKEY_REASON "a dict written with keys not known: its keys and length are not known"
/* Why those of a dict comprehension over items not known (vdict.rep: its one
 * entry stands for all of them) are not listed either. */
#define DICT_COMP_REASON "a dict comprehension over items not known: its keys and length are not known"
/* enum.auto() before its class gives it a value (stdlib.c, object.c) */
#define ENUM_AUTO_REASON "enum.auto(): the member's value, given when its class is made"

static inline void clobber_dict(struct ast_arena *a, struct vdict *d, const char *why)
{
	size_t i;

	for (i = 0; d && i < d->n; i++) {
		enum vkind k = d->vals[i]->k;

		if (d->keys[i]->k == VK_STR && strncmp(d->keys[i]->u.str.s, "__", 2) &&
		    (k == VK_NONE || k == VK_BOOL || k == VK_INT || k == VK_FLOAT || k == VK_STR ||
		     k == VK_TUPLE || k == VK_LIST || k == VK_DICT))
			d->vals[i] = v_unknown(a, d->keys[i]->u.str.s, why);
	}
}

/* May d hold a key it does not list -- written under a key not known
 * (anykey: d[k] = v in a loop over items not known, d.setdefault(k, v)),
 * or holding a key that is itself a value not known (compared by
 * identity)?  Then a known key d lacks may be there all the same: its
 * get(), `in`, pop() and setdefault() are not decided. */
static inline int dict_may_hold(const struct vdict *d)
{
	size_t i;

	if (!d)
		return 0;
	if (d->anykey)
		return 1;
	for (i = 0; i < d->n; i++)
		if (d->keys[i]->k == VK_UNKNOWN)
			return 1;
	return 0;
}

/* Is the job's whole environment known (--no-env, --env): a variable it
 * does not list is unset?  An environment of only the variables a launcher
 * sets (interp_set_env(..., partial)) lists those and may hold others. */
static inline int env_complete(const struct interp *in)
{
	return in->environ && in->environ->k == VK_DICT && !dict_may_hold(in->environ->u.dict);
}

/* A copy dst of dict src (dict(d), d.copy(), {**d}) may hold what src
 * may hold under keys not known. */
static inline void dict_keep_may_hold(struct vdict *dst, const struct vdict *src)
{
	if (!dst || !src || !src->anykey)
		return;
	if (dst->anykey != 2)
		dst->anykey = src->anykey;
	dst->anyval = src->anyval;
	dst->exact = 0;
}

static inline int ext_is(const value_t *v, const char *name)
{
	return v && v->k == VK_EXT && !strcmp(v->u.ext, name);
}

/* The truth of a constant expression (`True`, `0`, `None`): 1, 0, or -1
 * when e is no constant or one of no fixed truth here (a string). */
static inline int const_truth(const struct ast_hdr *e)
{
	const struct ast_const *c;

	if (!e || !AST_IS(e, Constant))
		return -1;
	c = &AST_AS(e, Constant)->value;
	switch (c->kind) {
	case AST_CONST_NONE: case AST_CONST_FALSE:
		return 0;
	case AST_CONST_TRUE:
		return 1;
	case AST_CONST_INT:
		return c->big || c->i != 0;
	default:
		return -1;
	}
}

static inline int ext_is_module_base(const char *d)
{
	return !strcmp(d, "torch.nn.Module");
}

#pragma GCC visibility pop

/* import.c: the namespace slot of file sf (grown for an installed
 * library's file found during the run). */
struct vns **ns_slot(struct interp *in, const struct sfile *sf);

/* argparse.c: subparsers.add_parser() (a hidden native: bound by
 * argp_method() to a _SubParsersAction only) */
value_t *argp_m_add_parser(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site);

#endif
