/* values.h - the value lattice of the abstract interpreter.
 *
 * A value is what the analysis knows about a Python object: a known int,
 * str, bool, None, float, tuple, list or dict; a repo class, function or
 * instance; a module instance (an nn.Module, the repo's or torch's); a
 * tensor; an external name ("torch.nn.Linear"); or UNKNOWN, which always
 * carries the expression it came from and why it is not known.  Unknown is
 * first-class: it flows to the record as {"expr", "reason"}.
 *
 * Every value lives in the interpreter's arena (struct ast_arena) and is
 * freed with it; nothing here is reference-counted.  Lists, dicts and
 * instances are mutable and shared by pointer, as in Python.
 */
#ifndef ECG_VALUES_H
#define ECG_VALUES_H

#include <stddef.h>

#include "ecg/ast.h"
#include "ecg/prog.h"

#define FROM_FILL 2                 /* value.from_values: a constant fill */
#define PIN_UNKNOWN 2               /* value.pinned: not known */

/* The pinned state of a tensor two paths join: pinned on both, not on
 * either (0), else not known. */
static inline int pin_join(int a, int b)
{
	return !a || !b ? 0 : a == 1 && b == 1 ? 1 : PIN_UNKNOWN;
}

/* A tensor's pinned state as a copy event states it: 1, 0, -1 not known. */
static inline int pin_state(int p)
{
	return p == PIN_UNKNOWN ? -1 : p;
}

enum vkind {
	VK_UNKNOWN = 0,
	VK_NONE, VK_BOOL, VK_INT, VK_FLOAT, VK_STR,
	VK_TUPLE, VK_LIST, VK_DICT,
	VK_FUNC,        /* a repo function, method or lambda */
	VK_BOUND,       /* a function bound to self */
	VK_CLASS,       /* a repo class */
	VK_INST,        /* an instance: of a repo class, or an external module */
	VK_EXT,         /* an external name: "torch", "torch.nn.Linear" */
	VK_NS,          /* a repo module (file) namespace */
	VK_TENSOR,      /* a tensor; its shape when it is known */
	VK_BUILTIN,     /* a Python builtin (range, len, ...) or a method of one */
	VK_RANGE,
	VK_SLICE
};

enum { VIA_DEFAULT = 0, VIA_CONFIG_FILE = 1, VIA_OVERRIDE = 2 };
enum { DEV_UNKNOWN = 0, DEV_HOST = 1, DEV_DEVICE = 2 };
enum { FACT_NONE = 0, FACT_DIGITS = 1, FACT_NONNEG_INT = 2, FACT_HOST_DATA = 3, FACT_BOOL = 4 };
enum { DT_UNKNOWN = 0, DT_INT = 1, DT_BOOL = 2, DT_FLOAT = 3 };

struct value;
struct vdict;
struct vclass;
struct vinst;
struct vns;
struct interp;

typedef struct value value_t;

/* A tensor's shape: nd dims; dim i is n[i] >= 0 when known, else the
 * symbol sym[i] ("B", "config.n_embd") or, with sym[i] NULL, unknown.
 * Shapes are immutable once a value points at them. */
#define VSHAPE_MAX 8
struct vshape {
	unsigned nd;
	long long n[VSHAPE_MAX];
	const char *sym[VSHAPE_MAX];
};

struct vseq {
	value_t **items;
	size_t n, alloc;
	/* set when the sequence was built by a loop whose trip count is not
	 * known: it holds one representative item and its length is unknown */
	const char *unk_expr, *unk_reason;
	/* with unk_reason: the items before the first unknown one are the
	 * sequence's first items, exactly (not representatives): a *args
	 * tuple passed `tuple(inputs) + tuple(params)`, params not known */
	unsigned char prefix;
	/* collections.deque(maxlen=N): at most N items, the oldest dropped
	 * as others come (interp/methods.c seq_bound); 0: no bound (an
	 * unsigned beside `prefix`: no bigger a sequence) */
	unsigned maxlen;
	/* a named tuple's (interp/namedtuple.c): the class that made it,
	 * whose _fields name its items; NULL for any other sequence */
	const struct vinst *ntclass;
	/* where its length came from, when a comprehension over range(n)
	 * built it: n's expression and the anchor of n's value */
	const char *len_expr, *len_src;
	unsigned char len_via;        /* VIA_* of len_src's value */
	/* interp/: the loop read once that was running when it was made */
	unsigned born;
	/* interp/stage.c: one pipeline stage's part of a sequence of this
	 * length, every stage's part as long (0: not such a part) */
	size_t stage_whole;
};

/* A chain of enclosing function scopes (a closure two or more levels out). */
struct vscope {
	struct vdict *d;
	struct vscope *up;
};

struct vfunc {
	const struct ast_hdr *def;    /* FunctionDef, AsyncFunctionDef or Lambda */
	struct sfile *file;
	struct vns *globals;
	const char *qualname;         /* "Block.forward", "main.<locals>.step" */
	const char *anchor_qual;      /* a lambda's: the scope it is written in
	                                 ("<module>", "main"), which the anchors
	                                 of its body name (the records name the
	                                 innermost def or class); NULL for a def */
	struct vdict *closure;        /* the enclosing function's locals, or NULL */
	struct vscope *closure_up;    /* the scopes enclosing that one, innermost first */
	value_t **defaults;           /* evaluated positional defaults */
	size_t ndefaults;
	struct vdict *kwdefaults;
	struct vclass *owner;         /* the class it was defined in, or NULL */
	int is_static, is_classmethod, is_property;
	struct vfunc *setter;         /* a property's @<name>.setter, or NULL */
	int no_grad;                  /* decorated @torch.no_grad() / inference_mode() */
	int ctxmanager;               /* decorated @contextlib.contextmanager: a
	                                 generator a `with` enters and leaves */
	int cached;                   /* decorated @functools.lru_cache / cache: in the
	                                 job, its body runs once (read as such) */
	value_t *cache_ret;           /* what that one run returned, or NULL */
	value_t *wraps;               /* @functools.wraps(w): w, whose __name__,
	                                 __qualname__ and __module__ it shows
	                                 (its own qualname still anchors it) */
	struct vseq *click_params;    /* interp/click.c: its click.option/argument
	                                 decorators in source order, or NULL */
	int click_cmd;                /* decorated @click.command(): main() parses
	                                 the command line (click.c) */
};

struct vbuiltin {
	int id;                       /* enum in interp/ */
	value_t *self;                /* for methods of lists, dicts, parsers ... */
	struct vclass *after;         /* super(): the class after which self's
	                                 MRO is searched (the defining one) */
};

struct value {
	enum vkind k;
	/* the one-byte fields first, after k: no padding between them (a
	 * value is made for every expression read; its size is the
	 * interpreter's memory) */
	unsigned char via;            /* where src's value was set: VIA_* */
	unsigned char dev;            /* VK_TENSOR: DEV_* (where it lives) */
	unsigned char pinned;         /* VK_TENSOR on the host: in pinned memory (1),
	                                 not (0), or PIN_UNKNOWN: a loader told a
	                                 pin_memory the code does not decide */
	unsigned char dt;             /* VK_TENSOR: DT_* (what its elements are) */
	unsigned char loose;          /* VK_TENSOR: a loader's batch, or a part unpacked
	                                 from one, whose collation is not known: it
	                                 may be a list or dict of tensors, so a store
	                                 into it (b[0] = b[0].cuda()) is no copy */
	unsigned char from_values;    /* VK_TENSOR: made on the host by torch.tensor()
	                                 of Python numbers (or of values read from a
	                                 tensor): no loader's data (1); FROM_FILL:
	                                 by torch.zeros/ones/full, no loader's data
	                                 unless written into later.  VK_UNKNOWN (1):
	                                 an outside function's result given known
	                                 Python numbers alone (an array of values,
	                                 interp/call.c) */
	/* VK_UNKNOWN, nonneg .. plain: facts known of it all the same (interp/facts.c) */
	unsigned char nonneg;         /* FACT_DIGITS: a str of the decimal digits of
	                                 an int >= 0 (a launcher's RANK, WORLD_SIZE
	                                 ...); FACT_NONNEG_INT: an int >= 0;
	                                 FACT_HOST_DATA: a str, a pathlib.Path or
	                                 an array of another library (never a
	                                 tensor, a list, a tuple or a dict);
	                                 FACT_BOOL: a Python bool (a comparison
	                                 of Python numbers or strs) */
	unsigned char may_none;       /* made where the two paths of an undecided
	                                 `if` differ and one bound None or left the
	                                 name, key or attribute unbound: `is None`
	                                 is not decided (interp/facts.c) */
	unsigned char may_module;     /* VK_UNKNOWN: the result of calling a callable
	                                 not known (a layer spec's class), or an
	                                 attribute a Parameter on one path of an
	                                 undecided `if`: it may be an nn.Module or a
	                                 Parameter, so the parameters of a module
	                                 holding it are not known (modtree.c) */
	unsigned char plain : 1;      /* 1: a Python number or str (float(), int(),
	                                 str() of a value not known, a tensor's
	                                 .item()): never an object, so never a
	                                 module (facts.c fact_plain) */
	unsigned char may_scalar : 1; /* VK_TENSOR: made by indexing (or by an op on
	                                 such a tensor) with its rank not known: it
	                                 may be 0-d, an index torch reads as an int
	                                 (interp/eval.c index_host_array) */
	unsigned char star_rest : 1;  /* VK_UNKNOWN: what *rows passed last stands for
	                                 when rows has a length not known and one
	                                 item representing all (not a known prefix):
	                                 zip(*rows) reads the rows' shape from it
	                                 (a bit beside plain: no byte more per value) */
	unsigned char may_absent : 1; /* VK_UNKNOWN: an attribute set on one path only
	                                 of an undecided `if` (interp/journal.c): the
	                                 name may not be there (dir() is not known) */
	unsigned char host_sure : 1;  /* VK_TENSOR on the host for sure: a parameter
	                                 of a module the job built there and had
	                                 not moved when it was listed (module.c
	                                 built_on_host): its .device is the CPU */
	unsigned char alt_leaf : 1;   /* VK_UNKNOWN alternatives of a conditional
	                                 expression's two callables (`nn.SiLU if
	                                 _has_silu else Swish`): a call of them
	                                 keeps two leaf modules as alternatives and
	                                 never describes one path's modules alone
	                                 (interp/alts.c alts_call) */
	unsigned char lib_out : 1;    /* VK_TENSOR: what a library's module moved to
	                                 the device returned (a ModelOutput, read as
	                                 a tensor where its parameters are): its
	                                 fields (catalog library_output_fields) are
	                                 tensors there (interp/tensor.c) */
	unsigned char map_dataset : 1; /* VK_UNKNOWN: a dataset torch's DataLoader
	                                 took with shuffle, a sampler or a
	                                 batch_sampler, which it refuses for an
	                                 IterableDataset: map-style
	                                 (interp/loadersampler.c); or a
	                                 library's map-style dataset, its item,
	                                 a method returning one (interp/mapds.c) */
	unsigned char is_param : 1;   /* VK_TENSOR: an nn.Parameter */
	unsigned char falsy_sure : 1; /* VK_UNKNOWN: false whatever it is -- `x and
	                                 None` with x not known is x when x is
	                                 falsy, else None (interp/eval.c's BoolOp;
	                                 value_truth reads it) */
	unsigned char via_wrapper : 1;/* VK_INST: the value a parallel wrapper returned
	                                 (model = DDP(model)): calling it goes through
	                                 the wrapper; model.module, or the model bound
	                                 before the wrap, does not */
	unsigned char via_scatter : 1;/* VK_INST: the value a wrapper of catalog
	                                 wrapper_input_scatters returned (model =
	                                 nn.DataParallel(model, device_ids=...)):
	                                 calling it copies its host inputs to the
	                                 devices (interp/scatterin.c) */
	unsigned char some_bound : 1; /* VK_LIST of a length not known with `some`:
	                                 those are all the items there can be, at
	                                 most (zip() of a list of known items with
	                                 iterables of a length not known): a job's
	                                 `for` reads each, the trip count not known,
	                                 and no pass for items not known
	                                 (interp/builtins.c bi_zip, exec.c) */
	unsigned char star_alts : 1;  /* VK_UNKNOWN: what `*xs` passed for xs
	                                 alternatives of two sequences of known
	                                 items (interp/eval.c): a call of
	                                 alternatives under the same condition
	                                 passes each path's items (alts_call) */
	unsigned char dict_view : 1;  /* VK_DICT: the items of an object of a
	                                 collections.UserDict subclass seen as a
	                                 plain dict -- its `data` (interp/dictsub.c):
	                                 no class, the same storage */
	unsigned char no_elems : 1;   /* VK_TENSOR: holds no element (its shape, not
	                                 stated, has an axis known 0: a batch of
	                                 labels of width 0 collated from arrays
	                                 [0]); a copy of it moves no byte
	                                 (shapes.c tensor_empty) */
	const char *expr;             /* source text it came from, or NULL */
	const char *reason;           /* VK_UNKNOWN: why */
	const char *src;              /* anchor of the literal it came from (or of
	                                 the argparse option; or the config
	                                 file's path), or NULL */
	struct vinst *param_of;       /* VK_TENSOR: the torch.nn layer whose parameter
	                                 it is (layer.weight read), or the module
	                                 whose parameters() listed it, or NULL */
	const char *param_name;       /* that parameter's name ("weight"), or NULL */
	struct value *recv;           /* VK_EXT "Tensor.<m>": the tensor it was read from;
	                                 VK_UNKNOWN process group of a device mesh
	                                 (mesh.get_group()): that mesh; a call's
	                                 KW_UNK_DSTAR marker: what the entries its
	                                 `**` dicts do not list hold (interp/eval.c) */
	/* VK_UNKNOWN made where the two paths of an undecided `if` bound two
	 * different objects (interp/alts.c): alts[0] is the value when
	 * alt_cond holds, alts[1] when it does not; NULL otherwise.  Every
	 * reader that does not know them sees an unknown, as before. */
	struct value **alts;
	const char *alt_cond;
	/* VK_UNKNOWN list: items known to be among its items, each once (the
	 * modules() of a model with a module not known under it: the ones
	 * seen), or NULL.  A job's `for` over it reads them (interp/exec.c);
	 * every other reader sees an unknown, as before. */
	struct vseq *some;
	const struct vshape *shape;   /* VK_TENSOR: its shape, or NULL (not known) */
	const long long *ints;        /* VK_TENSOR: a small host integer tensor made
	                                 from Python ints: its elements, row-major,
	                                 as many as its shape (known) holds; NULL
	                                 when not known (interp/hostints.c) */
	/* VK_UNKNOWN: what is known of it all the same (interp/facts.c) */
	const char *str_prefix;       /* a str that starts with this (an f-string's
	                                 text before its first unknown part), or NULL */
	const struct vshape *arr_shape; /* VK_UNKNOWN: an array of another library
	                                 (numpy) whose shape is known in part
	                                 (np.memmap of a file: [?]; a window of
	                                 k items of it: [k]), or NULL
	                                 (interp/arrays.c) */
	union {
		int b;
		long long i;
		double f;
		struct {
			const char *s;
			size_t len;
			struct sfile *file;   /* interp/: the text of this repo file,
			                         read with f.read() (exec() runs it), or NULL */
		} str;
		struct vseq *seq;             /* TUPLE, LIST */
		struct vdict *dict;
		struct vfunc *fn;
		struct { value_t *fn; value_t *self; } bound;
		struct vclass *cls;
		struct vinst *inst;
		const char *ext;              /* dotted name */
		struct vns *ns;
		struct vbuiltin bi;
		struct { long long start, stop, step; } range;
		struct { value_t *lo, *hi, *step; } slice;
	} u;
};

/* An ordered map.  Keys are values compared by value_key_eq (str, int,
 * bool, None, tuples of those); other keys are compared by identity. */
struct vdict_index;

struct vdict {
	value_t **keys;
	value_t **vals;
	size_t n, alloc;
	/* A hash index of the keys, made by the lookups of a dict of
	 * VDICT_INDEX_MIN entries or more (values.c), in the arena vdict_new()
	 * was given.  It checks itself against the dict before each use (its
	 * owner, the keys array, n), so code that copies or truncates a dict
	 * directly needs to know nothing of it. */
	struct ast_arena *a;
	struct vdict_index *ix;
	/* collections.defaultdict: the default_factory d[missing] calls (and
	 * stores), or NULL.  Not kept by copies (a copy reads a missing key
	 * as not known). */
	struct value *missing;
	/* d[k] = v with k not known (a loop filling a state dict): 0 none
	 * stored, 1 every such v was host data, 2 one was not (or not known) */
	unsigned char anykey;
	/* interp/: the last value stored under a key not known (anykey), or
	 * NULL: what a pass over the dict's items reads for the entries it
	 * cannot list */
	struct value *anyval;
	/* interp/: the values stored under keys not known were not all
	 * alike (the same object, or objects of one class): anyval stands
	 * for none of them */
	unsigned char anymixed;
	/* interp/: made by the literal `{}` and given no entries it does not
	 * show since (update() of a mapping not known clears it): empty for
	 * certain when n is 0, not a comprehension over items not known */
	unsigned char exact;
	/* interp/yacs.c: a yacs CfgNode (1; 2 with new_allowed), 0 a plain
	 * dict; cfgpath its dotted key from the root ("" the root; arena) */
	unsigned char cfgnode;
	/* interp/dictsub.c: an object of a dict subclass whose __dict__ is
	 * the dict itself (`self.__dict__ = self`, the AttrDict recipe): its
	 * attributes are its items */
	unsigned char attr_items;
	const char *cfgpath;
	/* interp/yacs.c: the key naming the YAML files a node's class
	 * inherits (fvcore's "_BASE_"), or NULL (yacs's own class: none) */
	const char *cfgbase;
	/* interp/omegaconf.c: an OmegaConf DictConfig (made by OmegaConf's
	 * create/load/merge/structured/from_cli, or a copy or entry of one):
	 * OmegaConf.is_dict() is true of it; 0 not known to be one */
	unsigned char dictconfig;
	/* a dict comprehension over items not known: the value its one read
	 * pass made, what a key not in it reads (every entry is made so) */
	struct value *rep;
	/* interp/: setattr() or update() with names not known wrote into it
	 * (an object's __dict__): it may hold names it does not list, so
	 * dir() of the object is not known */
	unsigned char anyname;
	/* interp/dictsub.c: the class of `cls` below derives from
	 * collections.UserDict, not from dict: the object is no dict
	 * (isinstance), its items are its `data` */
	unsigned char userdict;
	/* interp/dictsub.c: the repository class (a subclass of dict made by
	 * dict's constructor) this dict is an object of, or NULL */
	struct vclass *cls;
	/* interp/dictsub.c: that object's own __dict__ -- the attributes set
	 * on it (self.name = v without a __setattr__, not attr_items), in the
	 * same arena; NULL while none is set */
	struct vdict *attrs;
};

struct vclass {
	const char *name;
	const char *qualname;
	struct sfile *file;
	const struct ast_ClassDef *def;
	struct vns *globals;
	value_t **bases;              /* VK_CLASS or VK_EXT (or unknown) */
	size_t nbases;
	struct vdict *ns;             /* the class body's namespace */
	int is_module;                /* derives from torch.nn.Module */
	int is_dataclass;
	const char *ext_base;         /* the first external base, dotted, or NULL */
	struct vclass **mro;          /* repo classes only, C3 order, self first */
	size_t nmro;
};

/* What a module instance is, beyond its attributes. */
enum vmod_kind {
	VM_NONE = 0,                  /* not a module */
	VM_REPO,                      /* an instance of a repo nn.Module subclass */
	VM_LAYER,                     /* a torch.nn built-in from the catalogue */
	VM_CONTAINER,                 /* ModuleList, Sequential, ModuleDict */
	VM_EXTERNAL                   /* a module class from outside the repo */
};

struct vchild {
	const char *name;
	struct vinst *inst;
};

struct vinst {
	struct vclass *cls;           /* repo class, or NULL */
	const char *ext;              /* dotted class name when cls is NULL */
	enum vmod_kind mod;
	struct vdict *attrs;          /* __dict__ (non-module attributes) */
	struct vchild *children;      /* registered submodules, in order */
	size_t nchildren, achildren;
	struct vdict *args;           /* constructor arguments by parameter name */
	const char *constructed_at;   /* anchor */
	const char *grad_call_anchor; /* where it was first called with gradients
	                                 on (interp/forward.c), or NULL */
	const char *ctor_expr;        /* the constructor call's text */
	const char *cond;             /* built under this undecided condition */
	const void *built_ctx;        /* interp/: the job context it was built in
	                                 (a struct jctx chain, NULL: none): a move
	                                 under only conditions already in it runs
	                                 wherever the module exists (module.c) */
	const char *bound_name;       /* the first name job code bound it to ("model") */
	int tied;                     /* a layer whose weight or bias was set to another's */
	int alt_other;                /* interp/: kept where the two paths of an undecided
	                                 `if` bound it and another module or a value not
	                                 known (exec.c merge_branches), or registered
	                                 under a name another path's module held:
	                                 on the other path the name holds something
	                                 else (modtree.c counts it only when it is
	                                 there on every path) */
	int alt_other_host;           /* ... and each such other was a module built on
	                                 the host (interp/module.c module_alt_other):
	                                 the parameters there are on the host on
	                                 every path */
	int on_device;                /* interp/: moved by model.to(device) (it or a
	                                 module above it): its parameters live there;
	                                 2 when that move ran under a condition not
	                                 decided (a later move may still copy) */
	int on_meta;                  /* interp/: built while torch's default device was
	                                 the meta device (`with torch.device("meta"):`):
	                                 its tensors hold no data, so a move to a
	                                 device (FSDP's materialising, to_empty)
	                                 copies nothing */
	int on_host;                  /* interp/: moved back to the host by model.cpu()
	                                 or model.to("cpu") (it or a module above it)
	                                 under no undecided condition, and not moved
	                                 to the device since: its parameters live
	                                 there */
	const char **wrapped_by;      /* DDP, FSDP, torch.compile ... */
	size_t nwrapped;
	const struct vdict **wrap_kw; /* the keywords of each wrap (NULL: none) */
	/* filled by the passes */
	const char *id;
	int seen;
	void *entry;                  /* interp/: what its forward did */
	void *rv_entry;               /* interp/modelret.c: the same, for the side
	                                 reading of a job call's return (valid while
	                                 rv_gen is the interp's) */
	unsigned rv_gen;
	int rv_read;                  /* modelret.c: its return was read, with ... */
	unsigned long rv_sig;         /* ... these training flags, */
	int rv_kw;                    /* ... keywords (1) or none, */
	struct value **rv_args;       /* ... these arguments; */
	size_t rv_nargs;
	struct value *rv_ret;         /* ... and it was this */
	struct vdict *rv_ret_set;     /* ... and its forward set these attributes
	                                 of self to tensors (self.last_loss = ...) */
	void *mt;                     /* modtree.c: its record entry */
	void *gen;                    /* interp/: a generator object's call
	                                 (ext "<generator>"), or NULL */
	value_t *argp_opts;           /* interp/: an ArgumentParser's options
	                                 (a list of dicts), or NULL */
	int enumerated;               /* interp/: made by enumerate() of a container,
	                                 a DataLoader or a generator: items come
	                                 with an index */
	struct vinst *parent;         /* modtree.c: where named_modules() finds it */
};

/* A repo module's namespace: its globals, evaluated on first import. */
struct vns {
	struct sfile *file;
	struct vdict *dict;
	int state;                    /* 0 new, 1 running, 2 done */
};

/* constructors (all in the arena a) */
value_t *v_unknown(struct ast_arena *a, const char *expr, const char *reason);
value_t *v_none(struct ast_arena *a);
value_t *v_bool(struct ast_arena *a, int b);
value_t *v_int(struct ast_arena *a, long long i);
value_t *v_float(struct ast_arena *a, double f);
value_t *v_str(struct ast_arena *a, const char *s);
value_t *v_strn(struct ast_arena *a, const char *s, size_t n);
/* A str value of the n bytes at s (NUL-terminated there), not copied: s
 * must outlive the value (a string of a tree the analysis runs on). */
value_t *v_str_ref(struct ast_arena *a, const char *s, size_t n);
value_t *v_ext(struct ast_arena *a, const char *dotted);
value_t *v_tensor(struct ast_arena *a);
value_t *v_seq(struct ast_arena *a, enum vkind k, size_t n);
value_t *v_dict(struct ast_arena *a);
value_t *v_copy(struct ast_arena *a, const value_t *v);

void vseq_push(struct ast_arena *a, struct vseq *s, value_t *v);
struct vdict *vdict_new(struct ast_arena *a);
value_t *vdict_get(const struct vdict *d, const value_t *key);
value_t *vdict_gets(const struct vdict *d, const char *key);
void vdict_set(struct ast_arena *a, struct vdict *d, value_t *key, value_t *val);
void vdict_sets(struct ast_arena *a, struct vdict *d, const char *key, value_t *val);
int vdict_del(struct vdict *d, const value_t *key);
/* Say that d->n was lowered, or keys[] rewritten, by hand (the index is
 * made again at the next lookup). */
void vdict_truncated(struct vdict *d);

int value_key_eq(const value_t *a, const value_t *b);
/* 1 true, 0 false, -1 not known */
int value_truth(const value_t *v);
int value_is_known_scalar(const value_t *v);
/* A dict key compared by value whose value is known: a known scalar, or a
 * tuple of such keys ((batch, 1)); 1 yes, 0 no.  Never fails. */
int value_is_known_key(const value_t *v);
/* Whether an external dotted name names a class by Python's convention:
 * its last part is CamelCase ("torch.nn.BatchNorm2d"), not ALL_CAPS. */
int value_ext_is_class(const char *dotted);
/* Python's repr-like text of a known value (for args and config); NULL if
 * the value is not a plain datum, or its text would be longer than 64 KiB. */
/* 1 when v is an object of a repository class whose classes have no base
 * but the job's own classes, object and abc.ABC: no builtin type's (int,
 * str, list, tuple, dict) nor another library's instance; else 0. */
int value_plain_repo_obj(const value_t *v);
const char *value_repr(struct ast_arena *a, const value_t *v);

void vinst_add_child(struct ast_arena *a, struct vinst *m, const char *name, struct vinst *child);
struct vinst *vinst_child(const struct vinst *m, const char *name);

#endif
