/* interp.h - an abstract interpreter for the parts of Python that build
 * and run a model: module bodies, imports across the repository, classes
 * and dataclasses, functions and closures, argparse, containers, loops with
 * known bounds, and torch.nn constructors; and, in forward mode, every call
 * a forward makes, recorded as events in execution order.
 *
 * It runs nothing: it reads the C AST (prog.h) and computes values
 * (values.h).  What it cannot know becomes VK_UNKNOWN with the expression
 * and the reason.  Work is bounded: a step budget, a call-depth cap and an
 * unrolling cap; past them values become unknown with a reason.
 *
 * Memory: everything lives in the interpreter's arena and is released by
 * interp_free().  No function here fails with an error: problems become
 * unknown values and `unresolved` notes (interp_notes).
 */
#ifndef ECG_INTERP_H
#define ECG_INTERP_H

#include "ecg/prog.h"
#include "ecg/values.h"

struct catalog;

/* What a forward did, in order. */
enum fev_kind {
	FEV_OP = 1,       /* a tensor operation: op = canonical name */
	FEV_MODULE,       /* a call of a submodule: inst */
	FEV_FUNCTION      /* an inlined repo function or method: children */
};

struct fev {
	enum fev_kind kind;
	const char *op;               /* FEV_OP: "torch.matmul", "Tensor.view" */
	struct vinst *inst;           /* FEV_MODULE */
	const char *func;             /* FEV_FUNCTION: qualified name */
	const char *func_anchor;      /* FEV_FUNCTION: its def, as an anchor */
	const char *anchor;           /* the call site */
	long long repeat;             /* times per call of the parent: 1, N, or -1 unknown */
	const char *repeat_expr;      /* the loop's expression when repeat != 1 */
	const char *repeat_src;       /* where its value came from */
	int repeat_via;               /* VIA_* of that value */
	const char *repeat_reason;    /* when repeat == -1 */
	const char *cond;             /* the branch condition it runs under, or NULL */
	int cond_taken;               /* 1, 0, or -1 undecided */
	struct fev *children;         /* FEV_FUNCTION: its events */
	size_t nchildren, achildren;
	struct vinst *group_rep;      /* FEV_MODULE: representative of a group */
	size_t group_lo, group_hi;    /* FEV_MODULE of a container group: children [lo, hi) */
	struct vinst *container;      /* the container the group belongs to */
	value_t **args;               /* FEV_MODULE, FEV_OP: what the call passed (an op:
	                                 positional, then keyword values) */
	size_t nargs;
	struct vdict *kwargs;
	value_t *ret;                 /* FEV_OP: what it returned, or NULL */
};

struct fseq {
	struct fev *ev;
	size_t n, alloc;
};

/* Where a schedule event happens: the chain of loops, guards and contexts
 * around it, innermost first. */
enum jctx_kind {
	JC_LOOP = 1,      /* a loop: anchor, text (its header) */
	JC_GUARD,         /* `if <x> % <period> == 0`: a periodic guard */
	JC_COND,          /* another condition: text */
	JC_NO_GRAD,       /* with torch.no_grad() / inference_mode() */
	JC_AUTOCAST,      /* with torch.autocast(...): text */
	JC_NO_SYNC,       /* with model.no_sync() */
	JC_FORWARD,       /* inside a model's forward (the call's anchor) */
	JC_STREAM,        /* with torch.cuda.stream(s): text is s */
	JC_HANDLER,       /* a request handler of a server, as the framework calls it:
	                   * anchor is the handler's */
	JC_ONCE,          /* `if self.x:` whose block turns self.x off (oneshot.c):
	                   * the first time round only; text is the test */
	JC_GEN,           /* a repo generator's body read for the loop over it (the
	                   * JC_LOOP just up): a marker, never in an event's context
	                   * (sev() takes it out) */
	JC_REPEAT,        /* a comprehension (or map) over items: text is its
	                   * `for` clause.  Not a loop of the job's (no step, no
	                   * phase).  Its events run trips times when the items
	                   * were listed, each read, and each did what the first
	                   * did; otherwise (trips -1: read once for all, items
	                   * filtered out or not known) a number of times not
	                   * known */
	JC_ACCUM,         /* a library's gradient-accumulation block (accelerate's
	                   * `with accelerator.accumulate(model):`, catalog
	                   * accumulation_contexts): each pass is a micro-step;
	                   * period is the micro-steps per step, or -1 */
	JC_STEP_END,      /* runs only on the micro-step that ends an optimizer
	                   * step (`if accelerator.sync_gradients:`, a prepared
	                   * optimizer's step under JC_ACCUM): once a step */
	JC_LOOP_EXIT      /* an undecided `if` whose block ends with `break`
	                   * (loopexit.c): it runs on the iteration that leaves
	                   * the loop around it, at most once each time that
	                   * loop runs; text is the test */
};

struct jctx {
	enum jctx_kind kind;
	const char *anchor;
	const char *text;
	long long period;             /* JC_GUARD: resolved, or -1 */
	const char *period_expr;
	const char *counter;          /* JC_GUARD whose counter does not count the
	                                 passes of the loop around it (incremented
	                                 after a `continue`, or under an `if`): its
	                                 name; NULL otherwise (carry.c
	                                 carry_counts_passes) */
	int counts_loop;              /* JC_GUARD whose `x % n` names the counter of
	                                 the loop it is in (that loop's target, or a
	                                 name every pass advances: carry.c
	                                 carry_counts_passes 1): it counts that
	                                 loop's passes -- an evaluation's batch
	                                 loop's, when the loop is below the step */
	const char *rest;             /* JC_GUARD whose test is an `and` of the
	                                 periodic test with other undecided parts
	                                 (`cfg.env and is_eval_step`): those parts'
	                                 text, a condition of the rows under an
	                                 inner `if` too, where the period is the
	                                 frequency's alone (schedule.c); an `or`'s:
	                                 its whole text; NULL otherwise */
	int counts_passes;            /* JC_GUARD whose `x % n` reads the counter of
	                                 the loop it is in as counts_loop does, or
	                                 that counter plus or minus an int literal
	                                 (`(i + 1) % accum == 0`): it holds on one
	                                 pass in n of that loop (schedule.c: an
	                                 accumulation the job writes itself) */
	long long trips;              /* JC_LOOP, JC_REPEAT: known trip count, or -1 */
	int gen_items;                /* JC_LOOP: a loop of a generator's body around its
	                               * yield: each iteration makes one item for the code
	                               * that takes them (next(), a for over it) */
	int yields;                   /* JC_LOOP: a loop of a generator's body whose
	                               * statements hold its yield (known when it starts,
	                               * gen_items only once the yield is reached) */
	int mode_only;                /* JC_COND in a forward read for a model the job calls
	                               * both in training and in eval mode: 1 the path runs
	                               * only in training mode (`if self.training:`), 2 only
	                               * in eval mode (its else, or the rest after a return
	                               * on the training path); 0 in either */
	int resumes;                  /* JC_LOOP of a library's training loop called to resume
	                               * from a checkpoint an earlier run left (catalog
	                               * library_train_loops' resume argument given, not
	                               * None or False): not a fresh run's step */
	int item_list;                /* JC_LOOP over a few records known one by one
	                               * (2..16 dicts or objects, not a range, not
	                               * data: `for phase in phases`, G's then D's
	                               * pass of a GAN's step): each iteration does
	                               * other work, no repetition of one step
	                               * (schedule.c: the step is a loop around it) */
	int feeds;                    /* JC_LOOP: its body binds a name it also reads
	                               * (interp/loopfeed.c): it may feed a chosen token
	                               * back; 0 for a loop that repeats the same call */
	int carried;                  /* JC_COND in job mode: its test reads a name the
	                               * body of a loop of its frame binds (a later
	                               * iteration may decide it otherwise; interp/carry.c) */
	const struct jctx *up;
	const struct jctx *rerooted;  /* interp's memo: this context as events see it
	                               * (JC_GEN markers out), once made; NULL before */
};

/* The innermost context of kind k in c and the contexts around it, or
 * NULL (interp/jobctx.c).  Never fails. */
const struct jctx *jc_find(const struct jctx *c, enum jctx_kind k);

/* Are contexts a and b never both taken in one reading: each holds one of
 * the two paths of one reading of one undecided `if` (its test, and
 * "not (test)" -- exec.c pushes both on the context the `if` was read
 * in)?  A job function called on both paths (`if n > 1: spawn(train)
 * else: train(0)`) runs its lines on one of them in a run.  0 when not
 * known so (interp/jobctx.c).  Never fails. */
int jc_exclusive(const struct jctx *a, const struct jctx *b);

/* What the schedule pass reads: every call that moves data, syncs, talks
 * to other ranks, or marks a phase, with where it happens. */
enum sev_kind {
	SEV_SYNC = 1,        /* the host waits for the device: call */
	SEV_H2D,             /* a copy to the device */
	SEV_D2H,             /* a copy to the host */
	SEV_COLLECTIVE,      /* torch.distributed and friends: op */
	SEV_LOADER,          /* a DataLoader built: detail */
	SEV_LOADER_ITER,     /* a batch taken from a loader */
	SEV_MODEL_CALL,      /* a model's forward called from job code */
	SEV_BACKWARD,
	SEV_OPT_STEP,
	SEV_ZERO_GRAD,
	SEV_COMPILE,         /* torch.compile(target, mode) */
	SEV_WRAP,            /* DDP / FSDP around a model: implied collectives */
	SEV_CHECKPOINT_ACT,  /* activation checkpointing of a function or block */
	SEV_SAVE,            /* torch.save / a results file */
	SEV_LOG,             /* print / logging */
	SEV_GRAD_SYNC_TOGGLE, /* model.require_backward_grad_sync = ... */
	SEV_EMA,             /* an EMA of the weights updated: call */
	SEV_TOKEN_CHOICE     /* a token chosen from scores in job code (torch.multinomial,
	                      * argmax): what marks a decode loop; no row of its own */
};

/* A collective's parallelism the code does not pin down (one in a
 * model's forward whose group and place name none): written null, with
 * the reason. */
#define SCHED_PARALLELISM_UNKNOWN "?"

/* One call of a repository function made by job code (not in a forward):
 * the call it was made from (NULL: from module level) and the loops and
 * conditions around it where it was made.  An event's chain of them says
 * in which calls (runs) it was made, each call its own node, its address
 * the run's identity (a helper called twice is two): the schedule's
 * generate work is what a call around a decode loop does outside that
 * loop, and a run that evaluates is told by its node.  In the
 * interpreter's arena. */
struct sched_call {
	const struct sched_call *up;
	const struct jctx *at;
	const void *site;             /* the call expression's node (one per place in the
	                                 source: every call made there has it), or NULL */
	int evals;                    /* the run itself put a module in eval mode
	                                 (model.eval(), model.train(False)) */
	int opt_step;                 /* 1: the call runs the step method of an
	                                 optimizer (the repository's own subclass of a
	                                 torch.optim class): what it does is the
	                                 optimizer's work */
};

struct sched_ev {
	enum sev_kind kind;
	const char *call;             /* the code's own words: ".item()", "dist.all_reduce" */
	const char *anchor;
	const struct jctx *ctx;
	int in_forward;               /* read from a model's forward */
	const struct vinst *fwd_root; /* ... of this model (the root whose forward
	                                 reading made it), or NULL */
	const char *mode_call;        /* ... read again for the job's call of that
	                                 model at this anchor, in a mode of a flag
	                                 argument the first reading did not take
	                                 (`model(x, is_train=False)`, fwdmode.c): that
	                                 call's context counts it; NULL otherwise */
	int in_backward;              /* read from an autograd.Function's backward */
	int in_log;                   /* made while the arguments of a logging call
	                                 (print, wandb.log, logger.info) were read */
	int item_cond;                /* made on the branch of an `if` decided on the
	                                 item of a loop read one iteration for all
	                                 (`if isinstance(m, nn.Conv2d)`): the loop's
	                                 trip count is no count of it */
	int fwd_once;                 /* read from a forward, made by a move of the
	                                 module's own tensor stored back in its place
	                                 (oneshot.c one_shot_move): the first call of
	                                 the model only */
	long long fwd_mult;           /* read from a forward: the loops around it inside
	                                 that forward (1: none; -1: a count not known) */
	const char *fwd_mult_why;     /* why fwd_mult is -1 when it is no loop's count
	                                 (static text or the arena's), or NULL */
	int in_hook;                  /* read from a forward hook registered on more
	                                 than one module (how often it acts per call of
	                                 the model is not known) */
	int of_values;                /* H2D: of a tensor made from Python numbers
	                                 (torch.tensor(x).cuda()), not a batch */
	int weights;                  /* a model's weights moved or loaded (model.to(device),
	                                 torch.load onto the device, load_state_dict
	                                 across devices): the model's start-up, not the
	                                 work of the call it is made in (a generate
	                                 function that loads its model lazily) */
	int of_array;                 /* H2D: made by torch.<factory>() of an array
	                                 another library made (numpy's): data, as a
	                                 batch's copy is, though the call is torch's */
	const struct jctx *gen_loop;  /* made by a generator's code outside the loop
	                                 around its yield (its __iter__'s start, run
	                                 as a pass over it starts): the loop that takes
	                                 its items; NULL otherwise */
	const struct sched_call *in_call; /* job mode: the innermost call of a repo
	                                 function it ran in, or NULL (module level,
	                                 or a forward) */
	const struct sched_call *calls; /* the job calls it was made in, a forward's
	                                 event too (the call that ran the model) */
	const void *frame;            /* the function run it was made in (its locals),
	                                 to tell two calls of a helper from two
	                                 events of one line */
	int non_blocking;             /* copies: 1, 0, -1 unknown */
	int pinned;                   /* H2D: 1, 0, -1 unknown */
	int async_op;                 /* collectives: 1, 0, -1 implicit */
	const char *op;               /* collectives: all_reduce ...; compile: mode */
	const char *parallelism;      /* collectives; SCHED_PARALLELISM_UNKNOWN when
	                                 the code does not say which */
	const char *implied_by;
	const char *target;           /* compile, wrap, checkpoint: what */
	const char *detail_text;      /* checkpoint: its keyword arguments as written (the policy) */
	struct vdict *detail;         /* loader: num_workers, pin_memory ... */
	struct vinst *model;
	int via_wrapper;              /* model call: of the value a parallel wrapper
	                                 returned (DDP's forward runs), not of the
	                                 module inside it */
	int train_mode;               /* model call: the model's training flag at the
	                                 call (model.train() / model.eval() before it):
	                                 1, 0, or -1 not known */
	const char *phase;            /* an event a library call makes, in a phase of
	                                 its own the call's place does not tell (a
	                                 pipeline engine's train_batch copies batches,
	                                 steps, logs: interp/dspipe.c); NULL: the
	                                 schedule decides */
};

/* What the job's code showed about what kind of job it is (anchors, or
 * NULL when not seen). */
struct interp_evidence {
	const char *backward;         /* loss.backward() */
	const char *optimizer_step;   /* optimizer.step() / scaler.step(optimizer) */
	const char *no_grad;          /* with torch.no_grad() / inference_mode() */
	const char *write;            /* results written: open(.., 'w'), torch.save, json.dump */
	const char *server;           /* a request handler registered with a web framework */
	const char *main_guard;       /* if __name__ == "__main__" */
	const char *optimizer_built;  /* an optimizer constructed in job code: the
	                                 job means to train, even when its
	                                 training loop was not followed */
};

/* The parallel degrees a job sets up (interp/parallel.c): the first
 * value bound to a parameter named for one (tensor_model_parallel_size
 * ...) by a call outside a forward. */
enum interp_par { PAR_TENSOR, PAR_PIPELINE, PAR_DATA, PAR_CONTEXT, PAR_EXPERT, PAR_COUNT };
struct interp_par_degree {
	struct value *v;              /* the value bound (its src/via: where it was set) */
	const char *param;            /* the parameter's name */
	const char *anchor;           /* the call that bound it */
	const char *via;              /* NULL, or how a wrapper's group set it: "world_size"
	                                 (WORLD_SIZE), "launcher" (the launcher object's
	                                 processes) */
};
/* The degree's name in the records ("tensor", "pipeline", "data",
 * "context", "expert"), which is also the catalogue's word for it. */
const char *interp_par_name(enum interp_par degree);
/* The degree's binding, or NULL when no call bound it.  Borrowed. */
const struct interp_par_degree *interp_parallel(const struct interp *in, enum interp_par degree);

/* A ModuleList built from one pipeline stage's part of a sequence whose
 * every stage's part is as long (interp/stage.c): the whole sequence's
 * length (the whole model's count of those children), or 0 when c is no
 * such container. */
#define STAGE_WHOLE_ATTR "__ecg_stage_whole__"
long long interp_stage_whole(const struct vinst *c);

/* The job's environment variable key as a positive integer (WORLD_SIZE
 * from a launcher or --env): 1 and *out, or 0 when not known. */
int interp_env_int(const struct interp *in, const char *key, long long *out);

/* A call of a model (a module instance called from job code). */
struct root_call {
	struct vinst *inst;
	const char *binding;          /* the name it was called through ("model") */
	const char *anchor;           /* where */
	value_t **args;
	size_t nargs;
	struct vdict *kwargs;
	const char *loop_anchor;      /* the innermost loop it runs in, or NULL */
	int no_grad;                  /* under no_grad / inference_mode */
	const char *handler;          /* inside this request handler, or NULL */
	const char *function_anchor;  /* the function it is called from */
	const struct jctx *ctx;       /* loops and guards around it */
	int lib_model;                /* no inst: a model a library built (timm's
	                                 create_model, not read), not one torch.load
	                                 read whole */
	int host_input;               /* given host data only (paths, arrays): its
	                                 forward was read as job code at the call
	                                 (an inference wrapper, interp/modelret.c) */
	int train_mode;               /* the module's training flag at the call
	                                 (.train()/.eval() before it, a constructor's
	                                 self.eval() too): 1, 0, or -1 not known (no
	                                 instance: a loaded or a library's model) */
};

struct interp;

/* A new interpreter over `p`.  `cat` may be NULL (no catalogue: built-in
 * layers are then known by name only). */
struct interp *interp_new(struct prog *p, const struct catalog *cat);
/* For tests: 0 when every table of natives (csrc/interp/native.c) is
 * sorted by name with no name twice; else -1 and *bad names the table. */
int interp_natives_check(const char **bad);
void interp_free(struct interp *in);
struct ast_arena *interp_arena(struct interp *in);
const struct catalog *interp_catalog(const struct interp *in);

/* What the FSDP wrap event w (SEV_WRAP, implied_by FullyShardedDataParallel
 * or fully_shard) does between forward and backward, by its keywords and
 * the catalogue's fsdp_sharding: "regather", "keep", "unsharded", or NULL
 * when the keyword's value is not known.  Never fails. */
const char *wrap_sharding(const struct catalog *cat, const struct sched_ev *w);
/* Whether the job sets a state-dict type for good (FSDP.set_state_dict_type):
 * then no state_dict() call is known to gather (schedule.c). */
int interp_state_dict_type_set(const struct interp *in);
/* Whether the job's code calls .backward() (it trains). */
int interp_saw_backward(const struct interp *in);
/* The condition under which the job runs on a GPU, when it chose its
 * device at run time (torch.device("cuda" if torch.cuda.is_available()
 * else "cpu")) and never needs one whatever the machine: every
 * host-device row holds under it.  NULL otherwise; the string is the
 * interpreter's (interp/devchoice.c).  Never fails. */
const char *interp_gpu_condition(struct interp *in);

/* The ZeRO stage a DeepSpeed engine's configuration pins, from the
 * keywords of its deepspeed.initialize call (a wrap event's detail):
 * 0..3 (0 when the dict has no zero_optimization), or -1 when the code
 * does not pin it (interp/dsengine.c).  Never fails. */
int interp_ds_zero_stage(const struct vdict *kw);

/* Does that engine broadcast rank 0's parameters when it is built: its
 * configuration pinned and apex AMP not on in it (engine.py
 * _broadcast_model).  Never fails. */
int interp_ds_broadcasts(const struct vdict *kw);

/* Is every step() of that engine an accumulation boundary (one
 * micro-step a step, as its configuration and the environment's
 * WORLD_SIZE pin it): 1, 0, or -1 when not pinned.  Never fails. */
int interp_ds_gas_one(const struct interp *in, const struct vdict *kw);
/* Is m a DeepSpeed PipelineModule (its engine a PipelineEngine, whose
 * backward reduces nothing: its schedule's reduction and p2p are events
 * of its train_batch, interp/dspipe.c)?  0 for NULL.  Never fails. */
int interp_ds_pipeline(const struct vinst *m);
/* The condition of what the engine does at a boundary only. */
#define DS_BOUNDARY_IF "engine.is_gradient_accumulation_boundary() (the configuration does not pin one micro-step a step)"
const struct interp_evidence *interp_evidence(const struct interp *in);

/* The schedule events, in the order the job runs them. */
const struct sched_ev *interp_sched(const struct interp *in, size_t *n);

/* Module instances job code bound to a name, in order (the candidates when
 * no model is called). */
size_t interp_candidates(const struct interp *in, struct vinst *const **insts, const char *const **anchors);

/* Run the entry script as __main__ (job mode).  Model calls are collected
 * as root calls. */
void interp_run_entry(struct interp *in, struct sfile *entry);
/* Import `file` under its module name and call its function `func` with
 * no arguments, as a console script does; the entry anchor (evidence's
 * main_guard) is then the function's definition.  Returns 0, or -1 when
 * the module (whose body has run) defines no function of that name. */
int interp_run_function(struct interp *in, struct sfile *file, const char *func);

const struct root_call *interp_roots(const struct interp *in, size_t *n);

/* The namespace of the file last run by interp_run_entry() or
 * interp_run_function(): its module-level names and their values, in the
 * order they were first bound; NULL before any run.  Borrowed: the dict
 * and its values live in the interpreter's arena until interp_free(); the
 * caller must not change them (tests/unit/test_interp.c reads it). */
const struct vdict *interp_globals(const struct interp *in);
/* Every module instance that job code bound to a name (candidates when no
 * call was seen), in order of creation. */
struct vinst *const *interp_models(const struct interp *in, const char *const **names, size_t *n);

/* Interpret inst's forward with these arguments (forward mode), appending
 * its events to *out.  The return value is what forward returned. */
value_t *interp_forward(struct interp *in, struct vinst *inst, value_t **args, size_t nargs,
                        struct vdict *kwargs, struct fseq *out);

/* The anchor of a class's forward ("model.py:Block.forward:57"), or NULL
 * when the class (or its bases in the repo) has none. */
const char *interp_forward_anchor(struct interp *in, struct vinst *inst);

/* What m's forward did (NULL if it never ran), and where it was first
 * called from. */
const struct fseq *interp_events_of(const struct vinst *m);
/* After the models' forwards are read: each job call of a module whose
 * forward was read inside another model's, and each job call of a model
 * (models[i].root, read from models[i].call), in a mode (a flag argument:
 * reverse=True, is_train=False) no reading took, read in that mode
 * (interp/fwdmode.c). */
struct mt_model;
void interp_read_call_modes(struct interp *in, const struct mt_model *models, size_t nmodels);
const char *interp_call_anchor(const struct vinst *m);
/* where m was first called with gradients on; else interp_call_anchor's */
const char *interp_grad_call_anchor(const struct vinst *m);
/* What m's (first) forward returned, or NULL when it has not run. */
value_t *interp_forward_ret(const struct vinst *m);

/* Runs of structurally equal consecutive children of a container: the
 * start of each run in starts[0..n), starts[n] = nchildren.  The caller
 * frees *starts. */
size_t interp_container_groups(struct interp *in, const struct vinst *m, size_t **starts);

/* Reads one of the job's data files (JSON, TOML, YAML) at `path`, which is
 * as the job wrote it (relative to its working directory; `entry_dir` is
 * the entry script's directory, "" or "dir/").  Returns a cJSON tree the
 * interpreter takes (and deletes), or NULL with *why set. */
typedef struct cJSON *(*interp_load_fn)(void *ctx, const char *path, const char *entry_dir, const char **why);
void interp_set_loader(struct interp *in, interp_load_fn fn, void *ctx);

/* Reads one of the job's text files (open(path).read()) at `path`, resolved
 * as interp_load_fn's: its bytes in a malloc'd buffer the interpreter
 * frees (*len set), or NULL with *why set.  The same ctx as the loader's. */
typedef char *(*interp_text_fn)(void *ctx, const char *path, const char *entry_dir, size_t *len, const char **why);
void interp_set_text_loader(struct interp *in, interp_text_fn fn, void *ctx);

/* What is at `path` in the job's repository at the commit, `path` resolved
 * as interp_load_fn's (relative to `entry_dir`, then to the root; "" or
 * "." is the root): INTERP_TREE_FILE, INTERP_TREE_DIR (a directory holding
 * files), or INTERP_TREE_NONE (not in the repository: outside it, or made
 * at run time, which the caller must not read as absent).  With `names`
 * not NULL and a directory: the names directly in it (files and
 * directories, sorted, each once) in *names, a malloc'd array of malloc'd
 * strings the caller frees, *nnames set; NULL and 0 otherwise.  The same
 * ctx as the loader's. */
enum { INTERP_TREE_NONE = 0, INTERP_TREE_FILE = 1, INTERP_TREE_DIR = 2 };
typedef int (*interp_tree_fn)(void *ctx, const char *path, const char *entry_dir, char ***names, size_t *nnames);
void interp_set_tree(struct interp *in, interp_tree_fn fn, void *ctx);

/* Reads a JSON data file outside the repository at the absolute `path` (a
 * checkpoint directory's config.json that --set or the code names): the
 * file is data, never run.  A cJSON tree the interpreter takes, or NULL
 * with *why set.  The same ctx as the loader's. */
typedef struct cJSON *(*interp_fs_json_fn)(void *ctx, const char *path, const char **why);
void interp_set_fs_json_loader(struct interp *in, interp_fs_json_fn fn, void *ctx);

/* --set KEY=VALUE: the value of configuration name KEY (an argparse
 * destination, a dataclass field, a global of the entry script, a key of a
 * config file) is VALUE (a Python literal, else a string). */
void interp_set_override(struct interp *in, const char *key, const char *text);

/* After a run with --set: whether the job read configuration name key
 * (an override for it was looked up), and the names it read (up to max,
 * pointers into the interpreter's arena, in the order first read). */
int interp_config_read(const struct interp *in, const char *key);
size_t interp_config_names(const struct interp *in, const char **out, size_t max);

/* sys.argv[1:] of the job, for argparse and configurators. */
void interp_set_argv(struct interp *in, const char *const *argv, size_t n);

/* The job's environment is known: the n KEY=VALUE strings of kv (KEY
 * alone: set, to a value not known), every other variable unset.  os.environ is then that mapping and
 * os.getenv(k, d) is d for the others.  With partial, only those are
 * known (the variables a launcher such as torchrun sets for its
 * processes): any other may be set, and its reads are not known.  Without
 * this call every read of the environment is unknown. */
void interp_set_env(struct interp *in, const char *const *kv, size_t n, int partial);

/* The machine the job runs on, when the invocation names it (extract
 * --machine, or a launcher's --multi_gpu / --cpu): */
enum interp_machine {
	INTERP_MACHINE_UNKNOWN = 0,   /* every question to the machine is undecided */
	INTERP_MACHINE_CUDA,          /* CUDA GPUs and no other accelerator */
	INTERP_MACHINE_CPU            /* no accelerator at all */
};
/* Answer the job's questions to the machine (catalog machine_queries,
 * cuda_machine_queries, accelerator_packages) as machine m has them. */
void interp_set_machine(struct interp *in, enum interp_machine m);
/* "cuda" / "cpu" -> the machine; -1 for another word. */
int interp_machine_parse(const char *word);

/* Notes for `unresolved`: what was seen and not resolved. */
struct interp_note {
	const char *anchor;
	const char *what;
	const char *reason;
};
const struct interp_note *interp_notes(const struct interp *in, size_t *n);

/* Class name as the record writes it: the repo's name, or the dotted name
 * for torch and third-party classes. */
const char *interp_class_name(const struct vinst *m);

#endif
