/* launcher.h - shell launchers and Slurm batch scripts read as data.
 *
 * A launcher (run.sh, train.slurm) is read, never run: its variables,
 * arrays (${ARGS[@]}), defaults (${VAR:-x}), arithmetic ($((A*B))), quoting
 * and line continuations are expanded where they are literal, `if` tests
 * on literal values are decided, and every line that starts a Python job
 * -- python (a script or -m), torchrun / python -m torch.distributed.run
 * or .launch, deepspeed, accelerate launch, composer, under srun, mpirun,
 * env, nohup or exec -- becomes a launch with the job's own arguments and
 * the number of processes it starts.
 *
 * What the file does not pin down stays unknown, with why: an unset
 * variable (the environment's), a positional parameter not given, a
 * command substitution, a process count torchrun takes from the machine
 * ("gpu", "auto").  A branch the launcher's values decide false starts
 * nothing; an undecided one keeps its launches with `condition`.
 *
 * Ownership: a struct launch_list owns everything in it; launch_list_free()
 * releases it.  Nothing here fails: input that is not shell, or shell past
 * what is read (functions called later, case arms, loops), gives fewer
 * launches or launches with a condition, never an error.
 */
#ifndef ECG_LAUNCHER_H
#define ECG_LAUNCHER_H

#include <stddef.h>

/* One word of a launch after expansion. */
struct launch_arg {
	char *text;       /* the value; when !known, the shell text as written */
	int known;        /* 1 when every part of the word was literal */
};

struct launch {
	size_t line;              /* 1-based line where the command starts */
	size_t end_line;          /* and where it ends (continuations) */
	const char *launcher;     /* "python", "torchrun", "torch.distributed.launch",
	                             "deepspeed", "accelerate", "composer": static */
	const char *wrapper;      /* "srun", "mpirun", or NULL: static */
	char *script;             /* the script as written (expanded), or NULL */
	char *module;             /* the -m module, or NULL */
	struct launch_arg *argv;  /* the job's own arguments, after the script */
	size_t argc;
	struct launch_arg *command; /* the whole command, for display */
	size_t ncommand;
	long nproc_per_node;      /* processes per node, -1 when not known */
	long nnodes;              /* nodes, -1 when not known */
	long world;               /* processes in all, -1 when not known */
	char *world_source;       /* where world comes from (option or default) */
	char *world_reason;       /* why world is -1, or NULL */
	char *condition;          /* the shell condition it runs under, or NULL */
	int machine;              /* the machine its options name (enum
	                             interp_machine): accelerate launch
	                             --multi_gpu CUDA, --cpu the CPU; 0 none */
};

struct launch_list {
	struct launch *v;
	size_t n;
	size_t alloc;
};

/* Read `text` (len bytes, need not be NUL-terminated) as a launcher.
 * `positional` holds the launcher's own arguments ($1 ... and "$@") when
 * have_positional is set; otherwise "$@" is empty and $1... are unknown
 * (how `ecg jobs` reads a launcher nobody has given arguments to).
 * Appends to *out (zeroed by the caller, or earlier filled). */
void launcher_scan(const char *text, size_t len, const char *const *positional, size_t npos,
                   int have_positional, struct launch_list *out);

/* The launch of *l that starts on `line`, or covers it (a command over
 * several lines); line 0: the only launch, or NULL when there are several.
 * Borrowed. */
const struct launch *launch_at(const struct launch_list *l, size_t line);

void launch_list_free(struct launch_list *l);

#endif
