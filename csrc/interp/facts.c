/* interp/facts.c - what is known of a value not known
 *
 * A VK_UNKNOWN value may carry facts (values.h): str_prefix, the text a
 * str starts with (f'cuda:{local_rank}' is a str that starts with
 * "cuda:"; so is 'cuda:' + r, str.__add__ taking only a str), and nonneg, an int >= 0 or the decimal digits of one (a
 * launcher's RANK read from os.environ and passed to int()), and plain, a
 * Python number or str (float(), int(), str() of a value not known, a
 * tensor's .item()): an attribute holding one holds no module, so a
 * module's named_modules() stays known (module.c), and FACT_BOOL, a bool
 * (a comparison of such values: False & it is False).  The facts
 * decide some tests whatever the value is -- f'cuda:{r}' == 'cuda' is
 * False, int(os.environ['RANK']) != -1 is True -- and nothing else: the
 * value stays unknown.  Never NULL, nothing here fails; what the facts do
 * not decide is -1 (not known).  A str with a known prefix answers
 * startswith() of a text within the prefix (f'cuda:{r}'.startswith('cuda')
 * is True) or one that leaves it (.startswith('cpu') is False).
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/shapes.h"

/* The variables a multi-process launcher (torchrun, torch.distributed.
 * launch, deepspeed, accelerate, srun, mpirun) sets to a rank or a size:
 * the decimal digits of an int >= 0 in every process. */
static const char *const launcher_counts[] = {
	"RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "ROLE_RANK",
	"NODE_RANK", "GROUP_WORLD_SIZE", "ROLE_WORLD_SIZE",
	"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_NTASKS",
	"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE",
	"PMI_RANK", "PMI_SIZE",
};

void fact_env_value(value_t *v, const char *key)
{
	size_t i;

	if (!v || v->k != VK_UNKNOWN || !key)
		return;
	for (i = 0; i < sizeof launcher_counts / sizeof *launcher_counts; i++)
		if (!strcmp(key, launcher_counts[i])) {
			v->nonneg = FACT_DIGITS;
			return;
		}
}

/* s[0..n) is the decimal digits of an int >= 0 (what int() of a nonneg
 * str may read, spaces aside: int(' 3') is 3). */
static int all_digits(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* u (unknown, with facts) == k (known): 0 when they cannot be equal, else
 * -1. */
static int fact_eq(const value_t *u, const value_t *k)
{
	if (u->str_prefix) {
		size_t pl = strlen(u->str_prefix);

		/* a str that starts with P equals no str that does not, and no
		 * number, None or bool */
		if (k->k == VK_STR)
			return k->u.str.len < pl || memcmp(k->u.str.s, u->str_prefix, pl) ? 0 : -1;
		if (k->k == VK_NONE || k->k == VK_INT || k->k == VK_FLOAT || k->k == VK_BOOL)
			return 0;
		return -1;
	}
	if (u->nonneg == FACT_DIGITS) {
		/* the digits of an int >= 0: no number, None or bool equals
		 * it, nor a str that is not digits */
		if (k->k == VK_STR)
			return all_digits(k->u.str.s, k->u.str.len) && !memchr(k->u.str.s, 0, k->u.str.len) ? -1 : 0;
		if (k->k == VK_INT || k->k == VK_FLOAT || k->k == VK_NONE || k->k == VK_BOOL)
			return 0;
		return -1;
	}
	if (u->nonneg == FACT_NONNEG_INT) {
		/* an int >= 0: unequal to a negative number, a str, None */
		if (k->k == VK_INT)
			return k->u.i < 0 ? 0 : -1;
		if (k->k == VK_FLOAT)
			return k->u.f < 0 ? 0 : -1;
		if (k->k == VK_STR || k->k == VK_NONE)
			return 0;
		return -1;
	}
	return -1;
}

int fact_compare(enum ast_cmpop op, const value_t *l, const value_t *r)
{
	const value_t *u, *k;
	int eq;

	if (l->k == VK_UNKNOWN && r->k != VK_UNKNOWN) {
		u = l;
		k = r;
	} else if (r->k == VK_UNKNOWN && l->k != VK_UNKNOWN) {
		u = r;
		k = l;
	} else {
		return -1;
	}
	if (!u->str_prefix && !u->nonneg)
		return -1;
	switch (op) {
	case AST_CMP_EQ: case AST_CMP_NOTEQ:
		eq = fact_eq(u, k);
		return eq < 0 ? -1 : (op == AST_CMP_EQ ? eq : !eq);
	case AST_CMP_IS:
		/* a str or an int is not None */
		return k->k == VK_NONE ? 0 : -1;
	case AST_CMP_ISNOT:
		return k->k == VK_NONE ? 1 : -1;
	case AST_CMP_IN: case AST_CMP_NOTIN:
		/* 'cuda' in f'cuda:{r}': a piece of the known prefix is in it */
		if (u == r && u->str_prefix && k->k == VK_STR &&
		    k->u.str.len <= strlen(u->str_prefix) && strstr(u->str_prefix, k->u.str.s))
			return op == AST_CMP_IN;
		return -1;
	case AST_CMP_LT: case AST_CMP_LTE: case AST_CMP_GT: case AST_CMP_GTE: {
		/* an int >= 0 against a negative number (u on either side) */
		double c;
		int u_left = u == l, gt;

		if (u->nonneg != FACT_NONNEG_INT || (k->k != VK_INT && k->k != VK_FLOAT))
			return -1;
		c = k->k == VK_INT ? (double)k->u.i : k->u.f;
		if (c >= 0)
			return -1;
		/* u > c, u >= c are True (u >= 0 > c) */
		gt = u_left ? (op == AST_CMP_GT || op == AST_CMP_GTE) : (op == AST_CMP_LT || op == AST_CMP_LTE);
		return gt;
	}
	default:
		return -1;
	}
}

/* v is an int >= 0: a Python int, or one not known whose facts say so
 * (FACT_NONNEG_INT). */
int fact_nonneg_int(const value_t *v)
{
	return v && ((v->k == VK_INT && v->u.i >= 0) ||
	             (v->k == VK_UNKNOWN && !v->alts && !v->arr_shape && v->nonneg == FACT_NONNEG_INT));
}

/* v is known to be a number or a str (its facts say so): never an object,
 * never a module.  0 when not known -- and for host data that may be an
 * array of another library (FACT_HOST_DATA, an array's shape), which is
 * an object: torch.Tensor(a) of it is data, not sizes. */
int fact_plain(const value_t *v)
{
	return v && (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL || v->k == VK_STR ||
	             (v->k == VK_UNKNOWN && !v->alts && !v->arr_shape &&
	              (v->plain || (v->nonneg && v->nonneg != FACT_HOST_DATA) || v->str_prefix)));
}

/* v is a Python number, str or None (known, or its facts say so), never
 * an array of another library: a comparison of two of them is a bool. */
int fact_number_or_str(const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_BOOL || v->k == VK_STR || v->k == VK_NONE)
		return 1;
	return v->k == VK_UNKNOWN && !v->alts && !v->arr_shape && v->nonneg != FACT_HOST_DATA &&
	       (v->plain || v->nonneg || v->str_prefix || v->reason == shape_dim_reason);
}

/* l & r, l | r of a Python bool and a bool not known (FACT_BOOL: a
 * comparison of numbers): False & b is False, True | b is True, as
 * Python's bool operators give them (yolov5's `multi_label &= nc > 1`
 * with multi_label False).  Else NULL (the caller goes on). */
value_t *fact_bool_binop(struct interp *in, enum ast_operator op, const value_t *l, const value_t *r)
{
	const value_t *k = l->k == VK_BOOL ? l : r->k == VK_BOOL ? r : NULL, *u = k == l ? r : l;

	if (!k || u->k != VK_UNKNOWN || u->alts || u->nonneg != FACT_BOOL)
		return NULL;
	if (op == AST_OP_BITAND && !k->u.b)
		return v_bool(in->a, 0);
	if (op == AST_OP_BITOR && k->u.b)
		return v_bool(in->a, 1);
	return NULL;
}

/* r, an unknown made by float(), str() or Tensor.item(), marked plain */
value_t *fact_set_plain(value_t *r)
{
	if (r && r->k == VK_UNKNOWN)
		r->plain = 1;
	return r;
}

value_t *fact_int_of(struct frame *f, const value_t *arg, value_t *r)
{
	(void)f;
	if (arg && arg->k == VK_UNKNOWN && arg->nonneg && r && r->k == VK_UNKNOWN)
		r->nonneg = FACT_NONNEG_INT;   /* int() of the digits of an int >= 0 */
	return fact_set_plain(r);
}

/* Host data a job hands to code that makes tensors of it: a str, a
 * pathlib.Path, an array of another library (arrays.c), or a value not
 * known that is one of those (FACT_HOST_DATA: `f if f.exists() else
 * np.ones(...)`).  None of them is a tensor, a list, a tuple or a dict. */
int host_datum(const value_t *v)
{
	if (!v)
		return 0;
	if (v->k == VK_STR || is_path(v))
		return 1;
	return v->k == VK_UNKNOWN && !v->alts && (v->arr_shape || v->nonneg == FACT_HOST_DATA);
}

/* s.startswith(t) for a str s that starts with prefix p: 1 or 0 when p
 * decides it, else -1. */
static int prefix_starts(const char *p, const char *t, size_t n)
{
	size_t pl = strlen(p);

	if (memchr(t, 0, n))
		return -1;
	if (n <= pl)
		return !memcmp(p, t, n);
	return memcmp(p, t, pl) ? 0 : -1;
}

/* startswith(t) or startswith((t1, t2, ...)) of a str whose prefix is
 * known (self): True or False where the prefix decides it (any piece
 * True; all False), else a bool not known. */
static value_t *fact_m_startswith(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *p = fn->u.bi.self->str_prefix;
	int r = -1;

	if (nargs == 1 && (!kw || !kw->n) && args[0]->k == VK_STR) {
		r = prefix_starts(p, args[0]->u.str.s, args[0]->u.str.len);
	} else if (nargs == 1 && (!kw || !kw->n) && args[0]->k == VK_TUPLE) {
		size_t i, m = args[0]->u.seq->n;

		r = 0;
		for (i = 0; i < m && r != 1; i++) {
			const value_t *t = args[0]->u.seq->items[i];
			int one = t->k == VK_STR ? prefix_starts(p, t->u.str.s, t->u.str.len) : -1;

			r = one == 1 ? 1 : one < 0 ? -1 : r;
		}
	}
	if (r >= 0)
		return v_bool(in->a, r);
	return fact_set_plain(unknown_at(f, site, "a string test beyond the known start of the string"));
}

/* The methods a str not known answers from its prefix (sorted, native.c) */
static const struct native fact_str_methods[] = {
	{ "startswith", fact_m_startswith, BI_M_FACT_STARTSWITH },
};

const struct ntab fact_str_methods_ntab = NTAB(fact_str_methods);

value_t *fact_str_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;

	if (!obj || obj->k != VK_UNKNOWN || obj->alts || !obj->str_prefix)
		return NULL;
	m = NTAB_FIND(fact_str_methods, name);
	return m ? mk_builtin(in, (int)m->id, obj) : NULL;
}

/* known + u, known a str and u a value not known (not a tensor, not an
 * array, no alternatives): str.__add__ takes only a str, so the sum, when
 * the line runs, is a str starting with the known text -- an unknown whose
 * str_prefix says so (a prompt prepended to a caption read from a file).
 * NULL otherwise (the caller goes on). */
value_t *fact_str_concat(struct frame *f, enum ast_operator op, const value_t *l, const value_t *r,
                         const struct ast_hdr *site)
{
	value_t *v;

	if (op != AST_OP_ADD || l->k != VK_STR || r->k != VK_UNKNOWN || r->alts || r->arr_shape ||
	    r->nonneg == FACT_HOST_DATA || l->u.str.len > 4096 || memchr(l->u.str.s, 0, l->u.str.len))
		return NULL;
	v = unknown_at(f, site, r->reason ? r->reason : "a str not known");
	v->str_prefix = r->str_prefix && !*l->u.str.s ? r->str_prefix
	                : ast_arena_strndup(f->in->a, l->u.str.s, l->u.str.len);
	v->plain = 1;
	return v;
}


/* A name or attribute a loop read one for all its iterations rebinds:
 * 1 when it held a Python number (int or float, known or a plain
 * unknown) before the loop and the body bound it to one again (`n +=
 * batch_size`): the value a later iteration binds is a number too, as
 * Python's arithmetic of numbers gives.  0 otherwise (a bool, a str, a
 * tensor, None before ...). */
int loop_number(const value_t *before, const value_t *after)
{
	const value_t *v[2] = { before, after };
	int i;

	for (i = 0; i < 2; i++)
		if (!v[i] || !(v[i]->k == VK_INT || v[i]->k == VK_FLOAT ||
		               (v[i]->k == VK_UNKNOWN && !v[i]->alts && v[i]->plain && !v[i]->str_prefix)))
			return 0;
	return 1;
}
