/* interp/eval.c - expressions
 *
 * eval() gives the value of one expression node in a frame; never NULL
 * (what cannot be decided is an unknown carrying its expression and
 * reason).  Binary operators and comparisons on known values follow
 * Python (binop, compare_known); on tensors they are ops with shapes;
 * on instances they call the dunder method.  Comprehensions, f-strings,
 * subscripts and call arguments (eval_args: *args and **kw expanded) are
 * here; the call itself is call.c's.
 */
#include "config.h"

#include "ecg/catalog.h"
#include "internal.h"

/* ------------------------------------------------------------------ expressions */

static const char *binop_dunder(enum ast_operator op)
{
	switch (op) {
	case AST_OP_ADD: return "add";
	case AST_OP_SUB: return "sub";
	case AST_OP_MULT: return "mul";
	case AST_OP_MATMULT: return "matmul";
	case AST_OP_DIV: return "truediv";
	case AST_OP_MOD: return "mod";
	case AST_OP_POW: return "pow";
	case AST_OP_LSHIFT: return "lshift";
	case AST_OP_RSHIFT: return "rshift";
	case AST_OP_BITOR: return "or";
	case AST_OP_BITXOR: return "xor";
	case AST_OP_BITAND: return "and";
	case AST_OP_FLOORDIV: return "floordiv";
	}
	return "op";
}

static value_t *num_binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	double x, y;
	int li = l->k == VK_INT || l->k == VK_BOOL, ri = r->k == VK_INT || r->k == VK_BOOL;

	if (li && ri) {
		long long a = l->k == VK_INT ? l->u.i : l->u.b, b = r->k == VK_INT ? r->u.i : r->u.b, res;

		switch (op) {
		case AST_OP_ADD: if (__builtin_add_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_SUB: if (__builtin_sub_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_MULT: if (__builtin_mul_overflow(a, b, &res)) break; return v_int(in->a, res);
		case AST_OP_FLOORDIV:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a / b;
			if ((a % b != 0) && ((a < 0) != (b < 0)))
				res--;
			{
				value_t *q = v_int(in->a, res);

				stage_note_div(f, site, l, r, q);
				return q;
			}
		case AST_OP_MOD:
			if (b == 0 || (a == LLONG_MIN && b == -1))
				break;
			res = a % b;
			if (res != 0 && ((res < 0) != (b < 0)))
				res += b;
			return v_int(in->a, res);
		case AST_OP_POW:
			if (b >= 0 && b < 64) {
				long long p = 1;
				int k, of = 0;

				for (k = 0; k < b && !of; k++)
					of = __builtin_mul_overflow(p, a, &p);
				if (!of)
					return v_int(in->a, p);
			}
			break;
		case AST_OP_DIV:
			if (b != 0)
				return v_float(in->a, (double)a / (double)b);
			break;
		case AST_OP_LSHIFT: if (b >= 0 && b < 62 && a >= 0 && a < (1LL << (62 - b))) return v_int(in->a, a << b); break;
		case AST_OP_RSHIFT: if (b >= 0 && b < 64) return v_int(in->a, a >> b); break;
		case AST_OP_BITOR: return v_int(in->a, a | b);
		case AST_OP_BITAND: return v_int(in->a, a & b);
		case AST_OP_BITXOR: return v_int(in->a, a ^ b);
		default: break;
		}
		return unknown_at(f, site, "an integer operation ecg does not compute (overflow or division by zero)");
	}
	if (as_num(l, &x) && as_num(r, &y)) {
		switch (op) {
		case AST_OP_ADD: return v_float(in->a, x + y);
		case AST_OP_SUB: return v_float(in->a, x - y);
		case AST_OP_MULT: return v_float(in->a, x * y);
		case AST_OP_DIV: if (y != 0) return v_float(in->a, x / y); break;
		case AST_OP_POW: return v_float(in->a, pow(x, y));
		case AST_OP_FLOORDIV: if (y != 0) return v_float(in->a, floor(x / y)); break;
		default: break;
		}
	}
	return unknown_at(f, site, "an arithmetic result ecg does not compute");
}

/* s * n, l * n, n * l: a string, or a list or tuple whose items are all
 * known */
static int is_repeatable(const value_t *v)
{
	return v->k == VK_STR || ((v->k == VK_LIST || v->k == VK_TUPLE) && !v->u.seq->unk_reason);
}

static value_t *repeat(struct frame *f, value_t *x, long long times, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	size_t n = x->k == VK_STR ? x->u.str.len : x->u.seq->n, i;
	size_t limit = x->k == VK_STR ? MAX_STR_BYTES : MAX_ITEMS;
	value_t *v;
	long long k;

	if (times < 0 || n == 0)
		times = 0;
	/* past the limit without overflow: n * times may not fit */
	v = too_big(f, x->k, n && (unsigned long long)times > limit / n ? limit + 1 : n * (size_t)times, site);
	if (v)
		return v;
	if (x->k == VK_STR) {
		char *s = ast_arena_alloc(in->a, n * (size_t)times + 1);

		for (k = 0; k < times; k++)
			memcpy(s + (size_t)k * n, x->u.str.s, n);
		return v_str_ref(in->a, s, n * (size_t)times);
	}
	v = v_seq(in->a, x->k, n * (size_t)times);
	for (k = 0; k < times; k++)
		for (i = 0; i < n; i++)
			vseq_push(in->a, v->u.seq, x->u.seq->items[i]);
	return v;
}

/* a | b of two sets (held as lists, as set() and frozenset() make them:
 * `_supported_models | _supported_experiments`).  A list | list raises in
 * Python, so the operator says they are sets.  Known scalar items only,
 * each kept once in order; NULL (not decided here) otherwise. */
static value_t *set_union(struct frame *f, value_t *l, value_t *r, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *v, *sides[2] = { l, r };
	size_t i, j, s;

	for (s = 0; s < 2; s++) {
		if (sides[s]->u.seq->unk_reason)
			return NULL;
		for (i = 0; i < sides[s]->u.seq->n; i++)
			if (!value_is_known_scalar(sides[s]->u.seq->items[i]))
				return NULL;
	}
	if ((v = too_big(f, VK_LIST, l->u.seq->n + r->u.seq->n, site)) != NULL)
		return v;
	v = v_seq(in->a, VK_LIST, l->u.seq->n + r->u.seq->n);
	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->u.seq->n; i++) {
			value_t *x = sides[s]->u.seq->items[i];

			for (j = 0; j < v->u.seq->n && !value_key_eq(v->u.seq->items[j], x); j++)
				;
			if (j == v->u.seq->n)
				vseq_push(in->a, v->u.seq, x);
		}
	return v;
}

/* The reason of a sequence built by unpacking a device tensor whose
 * length is not known (`("loss", *mloss)`): its items are device tensors. */
static const char device_items_reason[] = "built from the items of a device tensor";

/* Does v, the right operand of str % v, hold a device tensor: v itself, an
 * item of a tuple or list, or items unpacked from one? */
static int formats_device_tensor(const value_t *v)
{
	size_t i;

	if (is_tensorish(v))
		return v->dev == DEV_DEVICE;
	if (v->k != VK_TUPLE && v->k != VK_LIST)
		return 0;
	if (v->u.seq->unk_reason == device_items_reason)
		return 1;
	for (i = 0; i < v->u.seq->n; i++)
		if (is_tensorish(v->u.seq->items[i]) && v->u.seq->items[i]->dev == DEV_DEVICE)
			return 1;
	return 0;
}

/* A bool tensor, or a Python bool */
static int boolish(const value_t *v)
{
	return v->k == VK_BOOL || (is_tensorish(v) && v->dt == DT_BOOL);
}

/* The dtype of a tensor operator's result, where the operands pin it:
 * an in-place operator keeps the left tensor's; &, | and ^ of bools
 * (tensors or Python bools) give bools (a mask combined with a mask).
 * Else not known. */
static int binop_dtype(enum ast_operator op, const value_t *l, const value_t *r, int inplace)
{
	if (inplace && is_tensorish(l))
		return l->dt;
	if ((op == AST_OP_BITAND || op == AST_OP_BITOR || op == AST_OP_BITXOR) && boolish(l) && boolish(r))
		return DT_BOOL;
	return DT_UNKNOWN;
}

value_t *binop(struct frame *f, enum ast_operator op, value_t *l, value_t *r,
               const struct ast_hdr *site, int inplace)
{
	struct interp *in = f->in;
	size_t i;
	value_t *pv;

	if (op == AST_OP_DIV && (pv = path_div(f, l, r, site)))   /* pathlib.Path / part */
		return pv;
	/* "%g" % loss, ("%10.4g" * 3) % (*mloss,): str's own formatting, which
	 * reads every device tensor it formats on the host */
	if (op == AST_OP_MOD && l->k == VK_STR) {
		if (formats_device_tensor(r))
			sev(f, SEV_SYNC, "str % formatting of a device tensor", site);
		return unknown_at(f, site, "string formatting is not followed");
	}
	/* ("%20.5g," * n) % (epoch, *vals) with n not known: a Python str
	 * or number (plain) formatting a tuple is str formatting (a number
	 * % a tuple raises) */
	if (op == AST_OP_MOD && l->k == VK_UNKNOWN && l->plain && !l->alts && r->k == VK_TUPLE) {
		value_t *v;

		if (formats_device_tensor(r))
			sev(f, SEV_SYNC, "str % formatting of a device tensor", site);
		v = unknown_at(f, site, "string formatting is not followed");
		v->plain = 1;
		return v;
	}
	if (is_tensorish(l) || is_tensorish(r) ||
	    (f->mode == M_FWD && ((l->k == VK_UNKNOWN && is_tensorish(r)) || (r->k == VK_UNKNOWN && is_tensorish(l))))) {
		int dev = DEV_UNKNOWN;
		size_t mark = ev_mark(f);

		if (f->mode == M_FWD) {
			if (is_tensorish(l) || l->k == VK_UNKNOWN)
				emit_op(f, afmt(in, "Tensor.__%s%s__", inplace ? "i" : "", binop_dunder(op)), site);
			else
				emit_op(f, afmt(in, "Tensor.__r%s__", binop_dunder(op)), site);
		}
		if (is_tensorish(l))
			dev = l->dev;
		if (is_tensorish(r) && r->dev > dev)
			dev = r->dev;
		{
			value_t *t = v_tensor_dev(in->a, dev, 0);

			t->shape = op == AST_OP_MATMULT ? shape_of_call(in->cat, in->a, "Tensor.__matmul__", (value_t *[]){ l, r }, 2, NULL)
			                                : shape_binop(in->a, l, r);
			t->dt = binop_dtype(op, l, r, inplace);
			/* a reflected operator (2 * x) takes x first */
			op_io(f, mark, is_tensorish(l) || l->k == VK_UNKNOWN ? (value_t *[]){ l, r } : (value_t *[]){ r, l }, 2,
			      NULL, t);
			return t;
		}
	}
	/* 1.0 - betas, a / b of numpy arrays whose shape is known in part
	 * (arrays.c): the array's shape where numpy keeps it */
	if ((pv = arr_binop(f, op, l, r, site)))
		return pv;
	if (l->k == VK_STR && r->k == VK_STR && op == AST_OP_ADD) {
		buf_t b;
		value_t *v;

		if ((v = too_big(f, VK_STR, l->u.str.len + r->u.str.len, site)) != NULL)
			return v;
		buf_init(&b);
		buf_add(&b, l->u.str.s, l->u.str.len);
		buf_add(&b, r->u.str.s, r->u.str.len);
		v = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && l->k == r->k && op == AST_OP_ADD) {
		value_t *v = too_big(f, l->k, l->u.seq->n + r->u.seq->n, site);
		size_t rn = r->u.seq->n;     /* r may be l */

		if (v)
			return v;
		v = seq_from(in, l->k, l->u.seq);
		for (i = 0; i < rn; i++)
			vseq_push(in->a, v->u.seq, r->u.seq->items[i]);
		if (l->u.seq->unk_reason || r->u.seq->unk_reason) {
			v->u.seq->unk_expr = l->u.seq->unk_reason ? l->u.seq->unk_expr : r->u.seq->unk_expr;
			v->u.seq->unk_reason = l->u.seq->unk_reason ? l->u.seq->unk_reason : r->u.seq->unk_reason;
		}
		return v;
	}
	if ((l->k == VK_LIST || l->k == VK_TUPLE) && !l->u.seq->unk_reason && r->k == VK_UNKNOWN &&
	    op == AST_OP_ADD && !inplace) {
		/* tuple(inputs) + tuple(params), params not known: l's items
		 * come first, exactly; how many follow is not known */
		value_t *v = seq_from(in, l->k, l->u.seq);

		v->u.seq->unk_expr = r->expr;
		v->u.seq->unk_reason = r->reason ? r->reason : "items added that are not known";
		v->u.seq->prefix = 1;
		return v;
	}
	if (op == AST_OP_MULT && ((is_repeatable(l) && r->k == VK_INT) || (l->k == VK_INT && is_repeatable(r)))) {
		value_t *v = repeat(f, l->k == VK_INT ? r : l, l->k == VK_INT ? l->u.i : r->u.i, site);

		stage_of_repeat(in, l->k == VK_INT ? l : r, l->k == VK_INT ? r : l, v);
		return v;
	}
	/* "%20.5g," * n with n not known: a str (str * anything else but
	 * an int raises) */
	if (op == AST_OP_MULT && ((l->k == VK_STR && r->k == VK_UNKNOWN && !r->alts) ||
	                          (r->k == VK_STR && l->k == VK_UNKNOWN && !l->alts))) {
		value_t *v = unknown_at(f, site, "a str repeated a number of times not known");

		v->plain = 1;
		return v;
	}
	if (op == AST_OP_MULT && f->mode != M_FWD && !inplace &&
	    (((l->k == VK_LIST || l->k == VK_TUPLE) && r->k == VK_UNKNOWN) ||
	     ((r->k == VK_LIST || r->k == VK_TUPLE) && l->k == VK_UNKNOWN))) {
		/* [x] * n with n not known (a batch's size read from a
		 * shape): a sequence of unknown length whose every item is x */
		value_t *s = l->k == VK_UNKNOWN ? r : l, *n = l->k == VK_UNKNOWN ? l : r;

		if (s->u.seq->n == 1 && !s->u.seq->unk_reason && !n->alts) {
			value_t *v = seq_from(in, s->k, s->u.seq);

			v->u.seq->unk_expr = n->expr ? n->expr : text_of(f, site);
			v->u.seq->unk_reason = "a sequence repeated a number of times not known";
			return v;
		}
	}
	/* False & b, True | b of a bool b not known (facts.c) */
	if ((pv = fact_bool_binop(in, op, l, r)))
		return pv;
	if (l->k == VK_LIST && r->k == VK_LIST && op == AST_OP_BITOR) {
		value_t *v = set_union(f, l, r, site);

		if (v)
			return v;
	}
	if (l->k == VK_DICT && r->k == VK_DICT && op == AST_OP_BITOR) {
		value_t *v = too_big(f, VK_DICT, l->u.dict->n + r->u.dict->n, site);

		if (v)
			return v;
		v = v_dict(in->a);
		for (i = 0; i < l->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, l->u.dict->keys[i], l->u.dict->vals[i]);
		for (i = 0; i < r->u.dict->n; i++)
			vdict_set(in->a, v->u.dict, r->u.dict->keys[i], r->u.dict->vals[i]);
		return v;
	}
	if (value_is_known_scalar(l) && value_is_known_scalar(r) && l->k != VK_STR && r->k != VK_STR &&
	    l->k != VK_NONE && r->k != VK_NONE)
		return num_binop(f, op, l, r, site);
	/* 0 + T, T * 1: still the size T */
	if (op == AST_OP_ADD && l->k == VK_INT && l->u.i == 0 && r->k == VK_UNKNOWN && r->reason == shape_dim_reason)
		return r;
	if ((op == AST_OP_ADD || op == AST_OP_SUB) && r->k == VK_INT && r->u.i == 0 && l->k == VK_UNKNOWN &&
	    l->reason == shape_dim_reason)
		return l;
	if (f->mode == M_FWD && l->k == VK_UNKNOWN && r->k == VK_UNKNOWN)
		return unknown_at(f, site, "an operation on values not known");
	/* prompt + caption: str.__add__ adds only a str (anything else
	 * raises), so the sum is a str that starts with the known text
	 * (facts.c str_prefix); a batch of them collates as strs */
	if ((pv = fact_str_concat(f, op, l, r, site)))
		return pv;
	pv = unknown_at(f, site, l->k == VK_UNKNOWN && l->reason ? l->reason
	                         : r->k == VK_UNKNOWN && r->reason ? r->reason : "an operation on values not known");
	/* arithmetic of Python numbers (or strs) is one again (facts.c) */
	if (fact_number_or_str(l) && fact_number_or_str(r))
		pv->plain = 1;
	hostdata_binop(l, r, pv);   /* of host data: host data (hostdata.c) */
	/* i % n of two ints >= 0 (an item of a range, a length): an int in
	 * [0, n) -- n == 0 raises, the run that goes on has n > 0 */
	if (op == AST_OP_MOD && fact_nonneg_int(l) && fact_nonneg_int(r)) {
		pv->nonneg = FACT_NONNEG_INT;
		pv->plain = 1;
	}
	return pv;
}

/* Two classes or special forms by name: an outside name is the same
 * object as the same name; a builtin class is one builtin; typing's,
 * types' and dataclasses' objects are no builtin class.  -1: not known. */
static int same_type_ref(const value_t *l, const value_t *r)
{
	const value_t *e;

	if (l->k == VK_EXT && r->k == VK_EXT) {
		if (!strcmp(l->u.ext, r->u.ext))
			return 1;
		/* typing's special forms and types' classes are distinct objects */
		return (!strncmp(l->u.ext, "typing.", 7) || !strncmp(l->u.ext, "types.", 6)) &&
		       (!strncmp(r->u.ext, "typing.", 7) || !strncmp(r->u.ext, "types.", 6)) ? 0 : -1;
	}
	if (l->k == VK_BUILTIN && r->k == VK_BUILTIN && !l->u.bi.self && !r->u.bi.self)
		return l->u.bi.id != r->u.bi.id ? 0 : l->u.bi.id == BI_SET ? -1 : 1;   /* set, frozenset: one id */
	e = l->k == VK_EXT ? l : r->k == VK_EXT ? r : NULL;
	if (e && (l->k == VK_BUILTIN || r->k == VK_BUILTIN) &&
	    (!strncmp(e->u.ext, "typing.", 7) || !strncmp(e->u.ext, "types.", 6) ||
	     !strncmp(e->u.ext, "dataclasses.", 12)))
		return 0;
	return -1;
}

/* dict == dict as Python compares them: the same keys, and each value
 * equal -- the very same object (PyObject_RichCompareBool's identity
 * shortcut: a dict copied by update() equals its source whatever its
 * values are) or equal known scalars.  A dict with keys or items not
 * known is decided only against itself.  1, 0, or -1: not decided. */
static int dict_eq(const struct vdict *l, const struct vdict *r)
{
	size_t i;
	int undecided = 0;

	if (l == r)
		return 1;
	if (l->anykey || r->anykey || l->rep || r->rep)
		return -1;
	if (l->n != r->n)
		return 0;
	for (i = 0; i < l->n; i++) {
		value_t *a = l->vals[i], *b = vdict_get(r, l->keys[i]);

		if (!b)
			return 0;
		if (a == b)
			continue;
		if (value_is_known_scalar(a) && value_is_known_scalar(b) && a->k == b->k) {
			if (!value_key_eq(a, b))
				return 0;
			continue;
		}
		undecided = 1;
	}
	return undecided ? -1 : 1;
}

/* A function of the repository against a value that is no function (a
 * type, a string, None...): functions compare by identity, so never equal;
 * -1 when that cannot be said (an object whose __eq__ may answer). */
static int func_vs_other(const value_t *l, const value_t *r)
{
	const value_t *o = l->k == VK_FUNC ? r : r->k == VK_FUNC ? l : NULL;

	if (!o || o->k == VK_FUNC || o->k == VK_UNKNOWN || o->k == VK_INST)
		return -1;
	return 0;
}

/* Is every key of d a value whose identity is known: a Python scalar, a
 * class, function or outside name of the job's (a key such a value could
 * equal only by being it)? */
static int dict_keys_known(const struct vdict *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const value_t *k = d->keys[i];

		if (!value_is_known_key(k) && k->k != VK_CLASS && k->k != VK_FUNC && k->k != VK_EXT)
			return 0;
	}
	return 1;
}

static int compare_known(struct interp *in, enum ast_cmpop op, value_t *l, value_t *r);

/* A tuple or list nests at most this deep in a comparison seq_eq() reads
 * (a list holding itself is not decided). */
#define SEQ_EQ_DEPTH 8

/* l == r for two tuples or two lists, as Python compares them: item by
 * item.  1 equal, 0 not, -1 not decided -- one item's comparison is not
 * known and none is decided unequal, or either holds items not known
 * (unk_reason).  An item compared with itself is equal (Python's
 * identity shortcut in list and tuple ==). */
static int seq_eq(struct interp *in, const value_t *l, const value_t *r, int depth)
{
	size_t i;
	int st, unk = 0;

	if (l == r)
		return 1;
	if (!l->u.seq || !r->u.seq || l->u.seq->unk_reason || r->u.seq->unk_reason || depth >= SEQ_EQ_DEPTH)
		return -1;
	if (l->u.seq->n != r->u.seq->n)
		return 0;
	for (i = 0; i < l->u.seq->n; i++) {
		value_t *a = l->u.seq->items[i], *b = r->u.seq->items[i];

		if (a == b)
			continue;
		if (a && b && (a->k == VK_TUPLE || a->k == VK_LIST) && a->k == b->k)
			st = seq_eq(in, a, b, depth + 1);
		else if (a && b)
			st = compare_known(in, AST_CMP_EQ, a, b);
		else
			st = -1;
		if (st == 0)
			return 0;
		if (st < 0)
			unk = 1;
	}
	return unk ? -1 : 1;
}

static int compare_known(struct interp *in, enum ast_cmpop op, value_t *l, value_t *r)
{
	double x, y;
	int st;

	if ((st = pkgmeta_cmp(op, l, r)) >= 0)     /* two packaging versions */
		return st;
	switch (op) {
	case AST_CMP_IS:
		/* the two paths' objects (alts.c): `is None` is False when
		 * neither path bound None, else not decided */
		if ((l->k == VK_UNKNOWN && l->alts) || (r->k == VK_UNKNOWN && r->alts)) {
			const value_t *av = l->k == VK_UNKNOWN && l->alts ? l : r, *o = av == l ? r : l;

			if (o->k == VK_NONE && !alts_may_none(av->alts[0], 0) && !alts_may_none(av->alts[1], 0))
				return 0;
			return -1;
		}
		if ((l->k == VK_NONE && r->k == VK_UNKNOWN && r->may_none) ||
		    (r->k == VK_NONE && l->k == VK_UNKNOWN && l->may_none))
			return -1;      /* None on one path of an `if` not decided */
		if (l->k == VK_NONE || r->k == VK_NONE)
			return l->k == r->k;
		if ((st = dtype_eq(in->cat, l, r)) >= 0)
			return st;      /* dtypes are singletons */
		if ((st = same_type_ref(l, r)) >= 0)
			return st;
		if ((st = class_same(in, l, r, 1)) >= 0)
			return st;
		if (l->k == VK_BOOL && r->k == VK_BOOL)
			return l->u.b == r->u.b;
		if (l->k == VK_INST && r->k == VK_INST)
			return l->u.inst == r->u.inst;
		/* `self.split is 'TRAIN'`: two strs (or ints) of different
		 * values are never one object; equal ones may or may not be
		 * (a literal is interned, a str read from argv or built at
		 * run time is not): not decided */
		if (((l->k == VK_STR && r->k == VK_STR) || (l->k == VK_INT && r->k == VK_INT)) && !value_key_eq(l, r))
			return 0;
		return -1;
	case AST_CMP_ISNOT: {
		int t = compare_known(in, AST_CMP_IS, l, r);

		return t < 0 ? -1 : !t;
	}
	case AST_CMP_EQ: case AST_CMP_NOTEQ: {
		int eq;

		if (!value_is_known_scalar(l) || !value_is_known_scalar(r)) {
			if ((l->k == VK_TUPLE || l->k == VK_LIST) && l->k == r->k) {
				if ((eq = seq_eq(in, l, r, 0)) < 0)
					return -1;
			} else if ((st = dtype_eq(in->cat, l, r)) >= 0)
				eq = st;
			else if ((st = same_type_ref(l, r)) >= 0)
				eq = st;
			else if ((st = class_same(in, l, r, 0)) >= 0)
				eq = st;
			else if ((st = func_vs_other(l, r)) >= 0)
				eq = st;
			else if (l->k == VK_DICT && r->k == VK_DICT && (!l->u.dict->n || !r->u.dict->n) &&
			         !dict_may_hold(l->u.dict) && !dict_may_hold(r->u.dict) && !l->u.dict->rep && !r->u.dict->rep)
				eq = l->u.dict->n == r->u.dict->n;    /* `meta != {}` */
			else if (l->k == VK_DICT && r->k == VK_DICT && (eq = dict_eq(l->u.dict, r->u.dict)) >= 0)
				;
			else
				return -1;
		} else if (as_num(l, &x) && as_num(r, &y)) {
			eq = x == y;
		} else {
			eq = value_key_eq(l, r);
		}
		return op == AST_CMP_EQ ? eq : !eq;
	}
	case AST_CMP_LT: case AST_CMP_LTE: case AST_CMP_GT: case AST_CMP_GTE:
		if (!as_num(l, &x) || !as_num(r, &y))
			return -1;
		return op == AST_CMP_LT ? x < y : op == AST_CMP_LTE ? x <= y : op == AST_CMP_GT ? x > y : x >= y;
	case AST_CMP_IN: case AST_CMP_NOTIN: {
		size_t i;
		int found = 0, unk = 0;

		if (r->k == VK_DICT) {
			found = vdict_get(r->u.dict, l) != NULL;
			if (!found && (l->k == VK_CLASS || l->k == VK_FUNC) && !l->alts &&
			    !dict_may_hold(r->u.dict) && !r->u.dict->rep && dict_keys_known(r->u.dict))
				return op == AST_CMP_IN ? 0 : 1;   /* a class or function of the
				                                   * job's is a key only as itself
				                                   * (hashed by identity): every key
				                                   * is known, none is it */
			if (!found && !r->u.dict->n && r->u.dict->exact && !dict_may_hold(r->u.dict) &&
			    !r->u.dict->rep)
				return op == AST_CMP_IN ? 0 : 1;   /* `{}` holds no key */
			if (!found && !value_is_known_key(l))
				return -1;      /* a key not known may be any of them */
			if (!found && (dict_may_hold(r->u.dict) || r->u.dict->rep))
				return -1;      /* or a key it does not list may be l (a
				                 * comprehension over items not known
				                 * lists the one pass it read) */
		} else if ((r->k == VK_LIST || r->k == VK_TUPLE) && !r->u.seq->unk_reason) {
			for (i = 0; i < r->u.seq->n; i++) {
				if (value_is_known_scalar(r->u.seq->items[i]) && value_is_known_scalar(l)) {
					if (value_key_eq(r->u.seq->items[i], l))
						found = 1;
				} else if ((st = dtype_eq(in->cat, l, r->u.seq->items[i])) >= 0 ||
				           (st = same_type_ref(l, r->u.seq->items[i])) >= 0 ||
				           (st = class_same(in, l, r->u.seq->items[i], 0)) >= 0) {
					found |= st;    /* a class among classes */
				} else {
					unk = 1;
				}
			}
			if (!found && unk)
				return -1;
		} else if (r->k == VK_STR && l->k == VK_STR) {
			found = strstr(r->u.str.s, l->u.str.s) != NULL;
		} else {
			return -1;
		}
		if (!value_is_known_scalar(l) && r->k != VK_DICT && l->k != VK_EXT && l->k != VK_BUILTIN &&
		    l->k != VK_CLASS)
			return -1;
		return op == AST_CMP_IN ? found : !found;
	}
	}
	return -1;
}

static const char *cmp_dunder(enum ast_cmpop op)
{
	switch (op) {
	case AST_CMP_EQ: return "eq";
	case AST_CMP_NOTEQ: return "ne";
	case AST_CMP_LT: return "lt";
	case AST_CMP_LTE: return "le";
	case AST_CMP_GT: return "gt";
	case AST_CMP_GTE: return "ge";
	default: return NULL;
	}
}

/* l <op> r with a tensor on a side: a bool tensor where they live */
static value_t *tensor_compare(struct frame *f, const struct ast_Compare *c, enum ast_cmpop op, value_t *l, value_t *r)
{
	struct interp *in = f->in;
	int dev = is_tensorish(l) ? l->dev : DEV_UNKNOWN;
	size_t mark = ev_mark(f);
	value_t *t2;

	if (is_tensorish(r) && r->dev > dev)
		dev = r->dev;
	emit_op(f, afmt(in, "Tensor.__%s__", cmp_dunder(op)), &c->h);
	t2 = v_tensor_dev(in->a, dev, 0);
	t2->shape = shape_binop(in->a, l, r);
	t2->dt = DT_BOOL;
	op_io(f, mark, (value_t *[]){ l, r }, 2, NULL, t2);
	return t2;
}

/* A plain name or a dotted path of names (`E`, `mod.E`): evaluating it
 * again has no effect. */
static int names_only(const struct ast_hdr *e)
{
	while (AST_IS(e, Attribute))
		e = AST_AS(e, Attribute)->value;
	return AST_IS(e, Name);
}

/* `x is E.NAME` / `E.NAME is x` of a repo enum (object.c
 * enum_member_is): 1, 0, or -1 */
static int enum_is(struct frame *f, const struct ast_hdr *ln, const value_t *l, const struct ast_hdr *rn,
                   const value_t *r, enum ast_cmpop op)
{
	int k, t = -1;

	for (k = 0; k < 2 && t < 0; k++) {
		const struct ast_hdr *n = k ? ln : rn;

		if (AST_IS(n, Attribute) && names_only(AST_AS(n, Attribute)->value))
			t = enum_member_is(f->in, k ? r : l, eval(f, AST_AS(n, Attribute)->value),
			                   AST_AS(n, Attribute)->attr);
	}
	return t < 0 ? -1 : op == AST_CMP_IS ? t : !t;
}

/* Alternatives of Python scalars (alts.c alts_scalar_pair: `cfg.strategy
 * = "single"` on one path of an undecided `if`, "fsdp" on the other)
 * compared on each path: the answer all paths give (`cfg.strategy ==
 * "ddp"` is False on both), -1 when they differ or one is not known. */
static int scalar_alts_compare(struct interp *in, enum ast_cmpop op, value_t *l, value_t *r, int depth)
{
	value_t *v = alts_scalars(l) ? l : alts_scalars(r) ? r : NULL;
	int a, b;

	if (!v)
		return compare_known(in, op, l, r);
	if (depth > 16)
		return -1;
	a = scalar_alts_compare(in, op, v == l ? v->alts[0] : l, v == r ? v->alts[0] : r, depth + 1);
	if (a < 0)
		return -1;
	b = scalar_alts_compare(in, op, v == l ? v->alts[1] : l, v == r ? v->alts[1] : r, depth + 1);
	return a == b ? a : -1;
}

/* v a member of an outside Enum whose members equal only themselves
 * (catalog distinct_member_enums: ShardingStrategy.HYBRID_SHARD): its
 * canonical dotted name, and in *name its own. */
static const char *distinct_member(struct interp *in, const value_t *v, const char **name)
{
	const char *d, *dot;
	char cls[256];

	if (!v || v->k != VK_EXT || v->recv)
		return NULL;
	d = canon_ext(in, v->u.ext);
	if (!d || !(dot = strrchr(d, '.')) || (size_t)(dot - d) >= sizeof cls)
		return NULL;
	memcpy(cls, d, (size_t)(dot - d));
	cls[dot - d] = 0;
	if (!catalog_fact(in->cat, CATALOG_F_DISTINCT_MEMBER_ENUMS, cls))
		return NULL;
	*name = dot + 1;
	return d;
}

/* l == r where one is such a member: two members are equal when they are
 * the same one; a str is the member of its name where a typed
 * configuration made it one (not decided then), unequal to any other; a
 * number, a bool or None is never equal.  1, 0, -1. */
static int member_eq(struct interp *in, const value_t *l, const value_t *r)
{
	const char *a = NULL, *b = NULL, *dl = distinct_member(in, l, &a), *dr = distinct_member(in, r, &b);
	const value_t *o = dl ? r : l;
	const char *nm = dl ? a : b;

	if (dl && dr)
		return !strcmp(dl, dr);
	if (!dl && !dr)
		return -1;
	if (o->k == VK_STR)
		return strcmp(o->u.str.s, nm) ? 0 : -1;
	if (o->k == VK_NONE || o->k == VK_INT || o->k == VK_FLOAT || o->k == VK_BOOL)
		return 0;
	return -1;
}

/* ==, !=, in and not in (a tuple or list of known items) with such
 * members: -1 when not decided or not about them. */
static int enum_member_cmp(struct interp *in, enum ast_cmpop op, const value_t *l, const value_t *r)
{
	int t;

	if (op == AST_CMP_EQ || op == AST_CMP_NOTEQ) {
		t = member_eq(in, l, r);
		return t < 0 ? -1 : op == AST_CMP_EQ ? t : !t;
	}
	if ((op == AST_CMP_IN || op == AST_CMP_NOTIN) && (r->k == VK_TUPLE || r->k == VK_LIST) && r->u.seq &&
	    !r->u.seq->unk_reason) {
		int any = 0, open = 0, about = distinct_member(in, l, &(const char *){ NULL }) != NULL;
		size_t i;

		for (i = 0; i < r->u.seq->n; i++) {
			const value_t *x = r->u.seq->items[i];

			about |= distinct_member(in, x, &(const char *){ NULL }) != NULL;
			t = member_eq(in, l, x);
			if (t < 0)
				open = 1;
			else if (t)
				any = 1;
		}
		if (!about || (!any && open))
			return -1;
		return op == AST_CMP_IN ? any : !any;
	}
	return -1;
}

/* `device == "cuda"`: an object of a torch class whose == answers only
 * against its own class (catalog typed_eq_classes), against a value of
 * another known kind -- a string, a number, None -- is never equal; -1
 * when that is not what l and r are. */
static int typed_eq(struct interp *in, enum ast_cmpop op, const value_t *l, const value_t *r)
{
	const value_t *o = l->k == VK_INST && l->u.inst->ext && catalog_fact(in->cat, CATALOG_F_TYPED_EQ_CLASSES, l->u.inst->ext)
	                   ? r
	                   : r->k == VK_INST && r->u.inst->ext && catalog_fact(in->cat, CATALOG_F_TYPED_EQ_CLASSES, r->u.inst->ext)
	                   ? l : NULL;

	if (!o || (op != AST_CMP_EQ && op != AST_CMP_NOTEQ))
		return -1;
	if (o->k != VK_STR && o->k != VK_INT && o->k != VK_FLOAT && o->k != VK_BOOL && o->k != VK_NONE)
		return -1;
	return op == AST_CMP_NOTEQ;
}

/* torch.device == torch.device: torch compares the type and the index
 * (torch.device('cuda:0') != torch.device('cuda'): 0 is not None).  Two
 * known types that differ are unequal; of one type, two known indexes
 * decide, and so does None against an int -- an index known to be an int
 * >= 0 though its value is not (a tensor's .device on the GPU always has
 * one, tensor.c).  1, 0, or -1: not decided or not two devices. */
static int device_eq(enum ast_cmpop op, const value_t *l, const value_t *r)
{
	const value_t *tl, *tr, *il, *ir;
	int eq;

	if ((op != AST_CMP_EQ && op != AST_CMP_NOTEQ) || l->k != VK_INST || r->k != VK_INST || !l->u.inst->ext ||
	    !r->u.inst->ext || strcmp(l->u.inst->ext, "torch.device") || strcmp(r->u.inst->ext, "torch.device"))
		return -1;
	tl = vdict_gets(l->u.inst->attrs, "type");
	tr = vdict_gets(r->u.inst->attrs, "type");
	if (!tl || !tr || tl->k != VK_STR || tr->k != VK_STR)
		return -1;
	if (tl->u.str.len != tr->u.str.len || memcmp(tl->u.str.s, tr->u.str.s, tl->u.str.len))
		eq = 0;
	else {
		il = vdict_gets(l->u.inst->attrs, "index");
		ir = vdict_gets(r->u.inst->attrs, "index");
		if (!il || !ir)
			return -1;
		if (il->k == VK_INT && ir->k == VK_INT)
			eq = il->u.i == ir->u.i;
		else if (il->k == VK_NONE && ir->k == VK_NONE)
			eq = 1;
		else if ((il->k == VK_NONE && (ir->k == VK_INT || (ir->k == VK_UNKNOWN && !ir->alts &&
		                                                    ir->nonneg == FACT_NONNEG_INT))) ||
		         (ir->k == VK_NONE && (il->k == VK_INT || (il->k == VK_UNKNOWN && !il->alts &&
		                                                    il->nonneg == FACT_NONNEG_INT))))
			eq = 0;
		else
			return -1;
	}
	return op == AST_CMP_EQ ? eq : !eq;
}

/* `x.device.type == "mps"` with the device not known, in a job of more
 * than one process (torch.c multi_process_count): no such job runs on a
 * device type of catalog single_process_device_types, so == is False and
 * != True; -1 for anything else.  lx/rx: the operands' expressions. */
static int device_type_cmp(struct interp *in, enum ast_cmpop op, const struct ast_hdr *lx, const value_t *l,
                           const struct ast_hdr *rx, const value_t *r)
{
	const struct ast_hdr *x = l->k == VK_STR ? rx : lx;
	const value_t *s = l->k == VK_STR ? l : r, *o = l->k == VK_STR ? r : l;
	const struct ast_hdr *dv;
	const char *name;

	if ((op != AST_CMP_EQ && op != AST_CMP_NOTEQ) || s->k != VK_STR || o->k != VK_UNKNOWN || !x ||
	    !AST_IS(x, Attribute) || strcmp(AST_AS(x, Attribute)->attr, "type"))
		return -1;
	dv = AST_AS(x, Attribute)->value;
	name = AST_IS(dv, Attribute) ? AST_AS(dv, Attribute)->attr : AST_IS(dv, Name) ? AST_AS(dv, Name)->id : NULL;
	if (!name || !strstr(name, "device") || !catalog_fact(in->cat, CATALOG_F_SINGLE_PROCESS_DEVICE_TYPES, s->u.str.s) ||
	    multi_process_count(in) <= 1)
		return -1;
	return op == AST_CMP_NOTEQ;
}

static value_t *eval_compare(struct frame *f, const struct ast_Compare *c)
{
	struct interp *in = f->in;
	value_t *l = eval(f, c->left);
	int result = 1;
	unsigned i;

	for (i = 0; i < c->ops.n && i < c->comparators.n; i++) {
		value_t *r = eval(f, c->comparators.items[i]);
		enum ast_cmpop op = c->ops.items[i];
		int t, p;

		if ((is_tensorish(l) || is_tensorish(r)) && cmp_dunder(op))
			return tensor_compare(f, c, op, l, r);
		/* a device tensor on one path of an undecided condition
		 * (alts.c): compared on that path, a pair again */
		if (cmp_dunder(op) && ((p = alts_dev_path(l)) >= 0 || (p = alts_dev_path(r)) >= 0)) {
			const value_t *pv = alts_dev_path(l) >= 0 ? l : r;
			value_t *l2 = alts_dev_on_path(l, pv->alt_cond, p), *r2 = alts_dev_on_path(r, pv->alt_cond, p);

			if (is_tensorish(l2) || is_tensorish(r2)) {
				const struct jctx *ojc = alts_path_enter(f, pv, p, &c->h);
				value_t *t2 = tensor_compare(f, c, op, l2, r2);

				f->jc = ojc;
				return alts_path_pair(f, pv, p, t2);
			}
		}
		/* `in` scans, `==` of sequences compares item by item */
		if ((r->k == VK_LIST || r->k == VK_TUPLE) && (op == AST_CMP_IN || op == AST_CMP_NOTIN ||
		                                              op == AST_CMP_EQ || op == AST_CMP_NOTEQ))
			charge(f, r->u.seq->n, 0);
		else if (r->k == VK_STR && (op == AST_CMP_IN || op == AST_CMP_NOTIN))
			charge(f, 0, r->u.str.len);
		t = alts_scalars(l) || alts_scalars(r) ? scalar_alts_compare(in, op, l, r, 0)
		                                        : compare_known(in, op, l, r);
		if (t < 0 && (op == AST_CMP_IS || op == AST_CMP_ISNOT))
			t = enum_is(f, i ? c->comparators.items[i - 1] : c->left, l, c->comparators.items[i], r, op);
		if (t < 0)
			t = fact_compare(op, l, r);
		if (t < 0)
			t = typed_eq(in, op, l, r);
		if (t < 0)
			t = device_eq(op, l, r);
		if (t < 0)
			t = enum_member_cmp(in, op, l, r);
		if (t < 0)
			t = device_type_cmp(in, op, i ? c->comparators.items[i - 1] : c->left, l, c->comparators.items[i], r);
		if (t < 0) {
			value_t *u = unknown_at(f, &c->h, l->k == VK_UNKNOWN && l->reason ? l->reason
			                                  : r->k == VK_UNKNOWN && r->reason ? r->reason
			                                  : "a comparison of values not known");

			/* Python numbers or strs compared: a bool (facts.c) */
			if (fact_number_or_str(l) && fact_number_or_str(r))
				u->nonneg = FACT_BOOL, u->plain = 1;
			return u;
		}
		if (!t)
			result = 0;
		l = r;
	}
	return v_bool(in->a, result);
}

/* Evaluate call arguments, expanding *seq and **dict. */
/* One more value among those a dict holds under keys not known (hd's
 * anyval: the last one, anymixed when they are not all alike). */
static void unlisted_join(struct vdict *hd, value_t *v, int *none)
{
	if (*none) {
		hd->anyval = v;
		*none = 0;
		return;
	}
	if (!hd->anyval || !v) {
		hd->anyval = NULL;
		return;
	}
	if (!alike_values(hd->anyval, v))
		hd->anymixed = 1;
	hd->anyval = v;
}

/* The entries a `**d` passes under no name known: those d does not list
 * (d written under keys not known, or a comprehension's read once for
 * all) and those under a key that is a value not known, joined with those of an earlier `**` of the same call
 * (prev, or NULL): a dict of no entries whose anykey/anyval/anymixed say
 * what they hold (anyval NULL: nothing known of one of them).  Arena
 * memory; never fails. */
static value_t *dstar_unlisted(struct interp *in, const value_t *prev, const struct vdict *d)
{
	value_t *h = v_dict(in->a);
	struct vdict *hd = h->u.dict;
	int none = 1;
	size_t i;

	hd->anykey = d->anykey ? d->anykey : 2;
	if (prev) {
		hd->anyval = prev->u.dict->anyval;
		hd->anymixed = prev->u.dict->anymixed;
		if (prev->u.dict->anykey == 2)
			hd->anykey = 2;
		none = 0;
	}
	if (d->anykey) {
		unlisted_join(hd, d->anyval, &none);
		hd->anymixed |= d->anymixed;
	}
	if (d->rep)                 /* a comprehension's: each entry is made so */
		unlisted_join(hd, d->rep, &none);
	for (i = 0; i < d->n; i++)
		if (d->keys[i]->k == VK_UNKNOWN)
			unlisted_join(hd, d->vals[i], &none);
	if (none)
		hd->anyval = NULL;
	hd->exact = 0;
	return h;
}

/* A dict whose keys are all listed and known (no key written that is
 * not known, no comprehension's stand-in, no default factory, no config
 * node): a `**` of it passes exactly those keys. */
static int dstar_plain_dict(const value_t *v)
{
	size_t i;

	if (!dict_plain(v))
		return 0;
	for (i = 0; i < v->u.dict->n; i++)
		if (v->u.dict->keys[i]->k != VK_STR)
			return 0;
	return 1;
}

/* `**kwargs` where kwargs is alternatives of two such dicts (a
 * conditional expression's): each key of either bound in kw -- the one
 * value when both paths pass the same, else alternatives of the same
 * condition whose side that does not pass the key holds an unknown
 * (KW_ABSENT_REASON: the parameter keeps its default there). */
static void dstar_alts(struct interp *in, struct vdict *kw, const value_t *v)
{
	const struct vdict *d[2] = { v->alts[0]->u.dict, v->alts[1]->u.dict };
	int side;
	size_t j;

	for (side = 0; side < 2; side++)
		for (j = 0; j < d[side]->n; j++) {
			value_t *k = d[side]->keys[j], *x[2];
			int o;

			if (side == 1 && vdict_get(d[0], k))
				continue;       /* done from the first dict */
			for (o = 0; o < 2; o++) {
				x[o] = vdict_get(d[o], k);
				if (!x[o])
					x[o] = v_unknown(in->a, k->u.str.s, KW_ABSENT_REASON);
			}
			if (x[0] == x[1] || (value_is_known_scalar(x[0]) && value_key_eq(x[0], x[1])))
				vdict_set(in->a, kw, k, x[0]);
			else
				vdict_set(in->a, kw, k, v_alts_in(in, v->alt_cond, x[0], x[1]));
		}
}

static void eval_args(struct frame *f, const struct ast_Call *c, value_t ***args, size_t *nargs,
                      struct vdict **kw, int *unk_star)
{
	struct interp *in = f->in;
	struct vseq *s = ast_arena_alloc(in->a, sizeof *s);
	const char *unk_seq = NULL;
	unsigned i;

	value_t *star_marker = NULL;
	int prefix_ok = 1;      /* every unknown-length star a known prefix, passed last */

	*kw = NULL;
	*unk_star = 0;
	for (i = 0; i < c->args.n; i++) {
		const struct ast_hdr *a = c->args.items[i];

		if (AST_IS(a, Starred)) {
			value_t *sv = eval(f, AST_AS(a, Starred)->value);
			struct vseq *items = NULL;

			if (!iter_items(f, sv, &items)) {
				size_t k;

				charge(f, items->n, 0);
				for (k = 0; k < items->n; k++)
					vseq_push(in->a, s, items->items[k]);
			} else if ((sv->k == VK_LIST || sv->k == VK_TUPLE)) {
				size_t k;

				if (!sv->u.seq->prefix || i + 1 != c->args.n)
					prefix_ok = 0;
				for (k = 0; k < sv->u.seq->n; k++)
					vseq_push(in->a, s, sv->u.seq->items[k]);
				*unk_star = 1;
				unk_seq = text_of(f, a);
				vseq_push(in->a, s, v_unknown(in->a, sv->u.seq->unk_expr, sv->u.seq->unk_reason));
				if (!sv->u.seq->prefix && sv->u.seq->n == 1 && i + 1 == c->args.n)
					s->items[s->n - 1]->star_rest = 1;
			} else {
				value_t *u = v_unknown(in->a, text_of(f, a), "*args whose items are not known");

				/* the items of a tensor on the device are there too
				 * (0-d tensors: torch.zeros(*shape_t) reads them,
				 * intargs.c) */
				if (is_tensorish(sv) && sv->dev == DEV_DEVICE)
					u->dev = DEV_DEVICE;
				*unk_star = 1;
				prefix_ok = 0;
				unk_seq = text_of(f, a);
				/* alternatives of two known sequences: a call of
				 * alternatives under the same condition splices each
				 * path's items (alts.c alts_call); any other callee
				 * sees the unknown as before */
				if (sv->k == VK_UNKNOWN && sv->alts && alts_seq_pair(sv->alts[0], sv->alts[1])) {
					u->alts = sv->alts;
					u->alt_cond = sv->alt_cond;
					u->star_alts = 1;
				}
				vseq_push(in->a, s, u);
			}
			if (*unk_star && !star_marker)
				star_marker = v_unknown(in->a, text_of(f, a),
				                        afmt(in, "%s, whose items are not known, may set it", text_of(f, a)));
		} else {
			vseq_push(in->a, s, eval(f, a));
		}
	}
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);
		value_t *v = eval(f, k->value);

		if (!*kw)
			*kw = vdict_new(in->a);
		if (k->arg) {
			vdict_sets(in->a, *kw, k->arg, v);
		} else if (v->k == VK_DICT) {
			size_t j;

			for (j = 0; j < v->u.dict->n; j++)
				vdict_set(in->a, *kw, v->u.dict->keys[j], v->u.dict->vals[j]);
			/* a dict that may hold keys it does not list (filled under
			 * keys not known, a comprehension over items not known):
			 * any parameter it does not list may be set by it, so none
			 * keeps its default -- the listed ones are passed */
			if (dict_may_hold(v->u.dict) || v->u.dict->rep) {
				value_t *old = vdict_gets(*kw, KW_UNK_DSTAR);
				value_t *mk = v_unknown(in->a, text_of(f, k->value),
				                        afmt(in, "**%s, a dict whose keys are not all known, may set it",
				                             text_of(f, k->value)));

				/* what its entries not listed hold, for a **kwargs
				 * that takes them (function.c): kept while every
				 * `**` of the call not listed is such a dict */
				if (!old || (old->recv && old->recv->k == VK_DICT))
					mk->recv = dstar_unlisted(in, old ? old->recv : NULL, v->u.dict);
				*unk_star = 1;
				vdict_sets(in->a, *kw, KW_UNK_DSTAR, mk);
			}
		} else if (v->k == VK_INST && v->u.inst->attrs) {
			/* **vars(cfg) / **cfg.__dict__ style */
			size_t j;

			for (j = 0; j < v->u.inst->attrs->n; j++)
				vdict_set(in->a, *kw, v->u.inst->attrs->keys[j], v->u.inst->attrs->vals[j]);
		} else if (v->k == VK_UNKNOWN && v->alts && dstar_plain_dict(v->alts[0]) && dstar_plain_dict(v->alts[1])) {
			/* **(d1 if c else d2): each key of either, its value on each
			 * path (dstar_alts) */
			dstar_alts(in, *kw, v);
		} else if (v->k == VK_UNKNOWN && !v->alts && IS_LOADED_REASON(v->reason)) {
			/* **torch.load(...): any parameter may be set by it, to a
			 * part of what was loaded (where it was loaded: the
			 * reason a parameter it sets is bound with, function.c) */
			*unk_star = 1;
			vdict_sets(in->a, *kw, KW_UNK_DSTAR, v_unknown(in->a, text_of(f, k->value), v->reason));
		} else {
			/* **x with keys not known: any parameter may be set by it */
			*unk_star = 1;
			vdict_sets(in->a, *kw, KW_UNK_DSTAR,
			           v_unknown(in->a, text_of(f, k->value),
			                     afmt(in, "**%s, whose keys are not known, may set it",
			                          text_of(f, k->value))));
		}
	}
	if (star_marker) {
		if (!*kw)
			*kw = vdict_new(in->a);
		vdict_sets(in->a, *kw, KW_UNK_STAR, star_marker);
	}
	*args = s->items;
	*nargs = s->n;
	f->unk_star = unk_seq;
	f->unk_star_prefix = unk_seq && prefix_ok;
}

static value_t *eval_call(struct frame *f, const struct ast_Call *c)
{
	value_t *fn = eval(f, c->func);
	value_t **args;
	size_t nargs;
	struct vdict *kw;
	int unk;

	value_t *r;
	int sink = f->mode != M_FWD && log_sink(f->in, fn);

	/* a forward calling an attribute its module was not seen to get
	 * (attr.c): maybe a submodule set where ecg did not follow */
	if (f->mode == M_FWD && fn->k == VK_UNKNOWN && fn->may_module && fn->recv && fn->recv->k == VK_INST &&
	    fn->recv->u.inst->mod == VM_REPO)
		vdict_sets(f->in->a, fn->recv->u.inst->attrs, "__ecg_children_unknown__", v_bool(f->in->a, 1));

	f->in_log += sink;
	eval_args(f, c, &args, &nargs, &kw, &unk);
	f->in_log -= sink;
	r = libv_call_result(f, fn, kw, call(f, fn, args, nargs, kw, &c->h), &c->h);
	r = libv_subset_result(f, fn, args, nargs, r, &c->h);
	r = mapds_result(f, fn, r);
	f->unk_star = NULL;
	f->unk_star_prefix = 0;
	/* a callable not known (a layer spec's class, an act_layer) gave a
	 * value not known: it may be a module (a factory of the repository
	 * returns what its own calls made) */
	if (r->k == VK_UNKNOWN && !r->plain && !r->may_module && f->mode != M_FWD && fn->k == VK_UNKNOWN &&
	    !fn->alts) {
		r = v_copy(f->in->a, r);
		r->may_module = 1;
	}
	/* x.cpu() is on the host whatever x was: a value not known stays
	 * not known, but no longer a possible device tensor */
	if (r->k == VK_UNKNOWN && fn->k == VK_UNKNOWN && !nargs && !kw && AST_IS(c->func, Attribute) &&
	    !strcmp(AST_AS(c->func, Attribute)->attr, "cpu") && f->mode != M_FWD)
		return v_tensor_dev(f->in->a, DEV_HOST, 0);
	return r;
}

/* Is idx a boolean tensor, or a tuple index (x[mask, 1:]) holding one? */
static int index_has_mask(const value_t *idx)
{
	size_t i;

	if (is_tensorish(idx))
		return idx->dt == DT_BOOL;
	if (idx->k != VK_TUPLE)
		return 0;
	for (i = 0; i < idx->u.seq->n; i++)
		if (is_tensorish(idx->u.seq->items[i]) && idx->u.seq->items[i]->dt == DT_BOOL)
			return 1;
	return 0;
}

/* x[idx] of a tensor: a tensor where x lives; a boolean mask of a device
 * tensor a sync (its output sized from the data), alone or as one item
 * of a tuple index (x[mask, 1:] selects rows by the mask as x[mask] does) */
/* An index of host data torch builds as a tensor on the indexed tensor's
 * device (a blocking copy): an array of another library (numpy's, of
 * rank 1 or more: arrays.c arr_shape), a list of Python ints or bools, a
 * range (torch's indexing makes the sequence a tensor on the host and
 * moves it: python_variable_indexing sequenceToVariable), or a tensor on
 * the host for sure (hostsure.c: torch.tensor of a list,
 * torch.arange without device=) that is not a boolean mask, alone or as
 * an item of a tuple index; in a model's forward (fwd) only such a
 * tensor.  One integer (a numpy scalar, a draw with no size) is a basic
 * index: nothing copied. */
static int index_host_array(const value_t *idx, int depth, int fwd)
{
	size_t i;

	if (!idx || depth > 1)
		return 0;
	if (idx->k == VK_TENSOR && idx->dev == DEV_HOST && idx->host_sure && idx->dt != DT_BOOL)
		return idx->shape ? idx->shape->nd >= 1 : !idx->may_scalar;   /* a 0-d one is read as an int */
	if (fwd)        /* in a forward, only a tensor is host data for sure */
		goto items;
	if (idx->k == VK_UNKNOWN && !idx->alts && idx->arr_shape && idx->arr_shape->nd >= 1)
		return 1;
	if (idx->k == VK_LIST && !idx->u.seq->unk_reason && idx->u.seq->n) {
		for (i = 0; i < idx->u.seq->n; i++)
			if (idx->u.seq->items[i]->k != VK_INT && idx->u.seq->items[i]->k != VK_BOOL)
				return 0;
		return 1;
	}
	/* x[range(n), y]: a range is a sequence of ints, made into an index
	 * tensor as a list is (an empty one too: nothing to copy then) */
	if (idx->k == VK_RANGE) {
		long long a = idx->u.range.start, b = idx->u.range.stop, st = idx->u.range.step;

		return st > 0 ? a < b : st < 0 && a > b;
	}

items:
	if (idx->k == VK_TUPLE && !idx->u.seq->unk_reason)
		for (i = 0; i < idx->u.seq->n; i++)
			if (index_host_array(idx->u.seq->items[i], depth + 1, fwd))
				return 1;
	return 0;
}

/* Is e, as written, a call of the builtin range whose value v is a range
 * with bounds not known (range(x.shape[0]) with the batch not known)?
 * Read from the source: a value not known made of a range (a loop
 * variable over one) is no range. */
static int range_call(struct frame *f, const struct ast_hdr *e, const value_t *v)
{
	const struct ast_Call *c;
	value_t *fn;

	if (!e || !AST_IS(e, Call) || !v || v->k != VK_UNKNOWN || v->alts || !v->reason ||
	    strncmp(v->reason, RANGE_UNKNOWN_REASON, sizeof RANGE_UNKNOWN_REASON - 1))
		return 0;
	c = AST_AS(e, Call);
	if (!AST_IS(c->func, Name) || strcmp(AST_AS(c->func, Name)->id, "range"))
		return 0;
	fn = lookup(f, "range");
	return fn && fn->k == VK_BUILTIN && fn->u.bi.id == BI_RANGE;
}

/* An index written with a range call whose bounds are not known: alone
 * (x[range(n)]) or as an item of a tuple index (x[range(n), y]). */
static int index_range_call(struct frame *f, const struct ast_hdr *sl, const value_t *idx)
{
	size_t i;

	if (range_call(f, sl, idx))
		return 1;
	if (!sl || !AST_IS(sl, Tuple) || idx->k != VK_TUPLE || idx->u.seq->unk_reason ||
	    AST_AS(sl, Tuple)->elts.n != idx->u.seq->n)
		return 0;
	for (i = 0; i < idx->u.seq->n; i++)
		if (range_call(f, AST_AS(sl, Tuple)->elts.items[i], idx->u.seq->items[i]))
			return 1;
	return 0;
}

/* Is idx (or an item of a tuple idx) Python values: a list of ints or
 * bools, a range? */
static int index_python_values(const value_t *idx, int depth)
{
	size_t i;

	if (!idx || depth > 1)
		return 0;
	if (idx->k == VK_RANGE || (idx->k == VK_LIST && !idx->u.seq->unk_reason))
		return 1;
	if (idx->k == VK_TUPLE && !idx->u.seq->unk_reason)
		for (i = 0; i < idx->u.seq->n; i++)
			if (index_python_values(idx->u.seq->items[i], depth + 1))
				return 1;
	return 0;
}

void index_host_copy(struct frame *f, const value_t *obj, const value_t *idx, const struct ast_hdr *slice,
                     const struct ast_hdr *site)
{
	struct sched_ev *e;
	int ranged = 0;

	if (obj->dev != DEV_DEVICE ||
	    !(index_host_array(idx, 0, f->mode == M_FWD) ||
	      (ranged = f->mode != M_FWD && index_range_call(f, slice, idx))))
		return;
	if ((e = sev(f, SEV_H2D, "indexing a device tensor with a host array, list or tensor (the index copied over)", site))) {
		e->pinned = 0;
		e->non_blocking = 0;
		/* an index of Python values is the step's own work, not
		 * the data hop (schedule.c) */
		e->of_values = ranged || index_python_values(idx, 0);
	}
}

/* One undecided operand of an `and`/`or`: a question to the machine
 * (MACHINE_REASON) sets *mach; anything but that or a question to the
 * installed version of a library (VERSION_HASATTR_REASON) sets *other. */
static void boolop_machine_operand(const value_t *v, int *mach, int *other)
{
	if (v->k == VK_UNKNOWN && !v->alts && v->reason && !strcmp(v->reason, MACHINE_REASON))
		*mach = 1;
	else if (!(v->k == VK_UNKNOWN && !v->alts && v->reason && !strcmp(v->reason, VERSION_HASATTR_REASON)))
		*other = 1;
}

/* x[mask] = v, x a device tensor and mask boolean (alone or in a tuple
 * index): unless v is one number on the host and the mask the index's
 * only tensor (torch's canDispatchToMaskedFill: numel 1 on the CPU --
 * masked_fill_, no read),
 * index_put_ turns the mask into indices with nonzero, whose size is read
 * on the host: a sync.  v a device tensor (the embeddings scattered into
 * the masked positions), or a host tensor of rank 1 or more; a Python
 * number, or a value whose place or rank is not known, no row; in job
 * code and in a model's forward alike. */
/* The mask of an index (alone or an item of a tuple), host for sure
 * (hostsure.c: made on the host, a plain tensor attribute of a module
 * the module's move left there), or NULL. */
static const value_t *index_host_mask(const value_t *idx)
{
	size_t i;

	if (is_tensorish(idx))
		return idx->dt == DT_BOOL && idx->k == VK_TENSOR && idx->dev == DEV_HOST && idx->host_sure ? idx : NULL;
	if (idx->k != VK_TUPLE)
		return NULL;
	for (i = 0; i < idx->u.seq->n; i++)
		if (index_host_mask(idx->u.seq->items[i]))
			return idx->u.seq->items[i];
	return NULL;
}

/* How many items of a tuple index are tensors (the mask among them).
 * canDispatchToMaskedFill takes the mask only when it is the one tensor
 * index (None, slices, ints beside it): with an index tensor or a second
 * mask beside it, even one host number goes to index_put_. */
static size_t index_tensor_items(const value_t *idx)
{
	size_t i, n = 0;

	if (idx->k != VK_TUPLE)
		return is_tensorish(idx) ? 1 : 0;
	for (i = 0; i < idx->u.seq->n; i++)
		n += is_tensorish(idx->u.seq->items[i]) ? 1 : 0;
	return n;
}

void index_mask_store(struct frame *f, const value_t *obj, const value_t *idx, const value_t *v,
                      const struct ast_hdr *site)
{
	struct sched_ev *e;

	if (obj->dev != DEV_DEVICE || !index_has_mask(idx) || !v)
		return;
	/* x[rows, mask] = 1.0: another tensor index beside the mask, so
	 * index_put_ whatever the value */
	if (index_tensor_items(idx) < 2) {
		if (v->k != VK_TENSOR)
			return;
		if (!(v->dev == DEV_DEVICE || (v->dev == DEV_HOST && v->shape && v->shape->nd >= 1)))
			return;
	}
	/* a mask on the host for sure: its nonzero runs on the host (no
	 * read of the device), the indices it makes are copied to the
	 * device tensor's (index_put_'s make_info), blocking */
	if (index_host_mask(idx)) {
		if ((e = sev(f, SEV_H2D, "storing through a host boolean mask into a device tensor (index_put_: "
		                         "the mask's indices copied over)", site))) {
			e->pinned = 0;
			e->non_blocking = 0;
		}
		return;
	}
	sev(f, SEV_SYNC, "storing through a boolean mask (index_put_: the mask's nonzero sized on the host)", site);
}

static value_t *tensor_subscript(struct frame *f, const struct ast_Subscript *s, value_t *obj, value_t *idx)
{
	struct interp *in = f->in;
	size_t mark = ev_mark(f);
	value_t *t;

	emit_op(f, "Tensor.__getitem__", &s->h);
	/* x[mask] sizes its output from the data; x[index] with an
	 * integer index tensor is a gather on the device (no read);
	 * an index whose dtype is not known is not called a sync.  In job
	 * code and in a model's forward alike, as a store through a mask
	 * (index_mask_store) */
	if (obj->dev == DEV_DEVICE && index_has_mask(idx))
		sev(f, SEV_SYNC, "indexing with a tensor (boolean mask or index array)", &s->h);
	index_host_copy(f, obj, idx, s->slice, &s->h);
	host_sure_device_index(f, obj, idx, &s->h);   /* the reverse: a device index read back */
	t = hostints_index(in, obj, idx);     /* a host tensor of known ints */
	if (!t) {
		t = v_tensor_dev(in->a, obj->dev, obj->pinned);
		t->shape = shape_index(in->a, shape_of(obj), idx);
		t->dt = obj->dt;
		arr_tensor_window(f, s, obj, idx, t);
	}
	op_io(f, mark, (value_t *[]){ obj, idx }, 2, NULL, t);
	/* an index of a tensor on the host for sure is on the host for sure
	 * (hostsure.c), whatever the index: torch refuses an index tensor on
	 * another device than the indexed one's or the CPU.  Its rank not
	 * known, it may be 0-d: an index torch reads as an int, no copy */
	if (t->k == VK_TENSOR && obj->host_sure && obj->dev == DEV_HOST && t->dev == DEV_HOST && f->mode != M_FWD)
		t->host_sure = 1;
	if (t->k == VK_TENSOR && !t->shape)
		t->may_scalar = 1;
	return t;
}

/* A part of a sequence, of kind k, as many items as not known (why): one
 * item, rep, standing for all of them (iter_rep_item reads it so). */
static value_t *part_rep(struct interp *in, enum vkind k, value_t *rep, const char *why)
{
	value_t *r = v_seq(in->a, k, 1);

	vseq_push(in->a, r->u.seq, rep);
	r->u.seq->unk_reason = why;
	return r;
}

/* Are the items of a known sequence alike, so that any one stands for
 * all: the same value or instances of one class (alike_values), or
 * unknowns of one reason (a library's mapping of host tensors each).
 * 0 or 1; never fails. */
static int seq_items_alike(const struct vseq *q)
{
	size_t i;

	for (i = 1; i < q->n; i++) {
		const value_t *a = q->items[0], *b = q->items[i];

		if (alike_values(a, b))
			continue;
		if (a->k == VK_UNKNOWN && b->k == VK_UNKNOWN && !a->alts && !b->alts && a->reason && b->reason &&
		    !strcmp(a->reason, b->reason) && a->plain == b->plain)
			continue;
		return 0;
	}
	return 1;
}

/* defaultdict d[k] of a key not known, d holding no known key (a loop
 * filing rows by a field: `data[prompt]['pairs'].append(...)`): the
 * entry stored under a key not known -- the one made before, or
 * default_factory()'s, stored so (anykey: host data when the fresh value
 * is; anyval) -- so that the loop's writes fill it and a pass over
 * d.items() reads it, not an empty dict. */
static value_t *default_any(struct frame *f, struct vdict *d, const struct ast_hdr *site)
{
	value_t *v;

	if (d->anykey && d->anyval && !d->anymixed)
		return d->anyval;
	v = call(f, d->missing, NULL, 0, NULL, site);
	if (d->anykey != 2)
		d->anykey = host_only(v, 0) ? 1 : 2;
	if (d->anyval && !alike_values(d->anyval, v))
		d->anymixed = 1;
	d->anyval = v;
	return v;
}

static value_t *subscript_of(struct frame *f, const struct ast_Subscript *s, value_t *obj, value_t *idx)
{
	struct interp *in = f->in;
	int ok;
	long long i;

	{
		/* a device tensor on one path of an undecided condition
		 * (alts.c): indexed on that path, a pair again */
		int p = alts_dev_path(obj);

		if (p >= 0 && obj->alts[p]->k == VK_TENSOR) {
			const struct jctx *ojc = alts_path_enter(f, obj, p, &s->h);
			value_t *r = tensor_subscript(f, s, obj->alts[p], alts_dev_on_path(idx, obj->alt_cond, p));

			f->jc = ojc;
			return alts_path_pair(f, obj, p, r);
		}
	}
	if (is_tensorish(obj))
		return tensor_subscript(f, s, obj, idx);
	{
		/* obj[k] of a repository class with its own __getitem__ */
		value_t *r = itemproto_get(f, obj, idx, &s->h);

		if (r)
			return r;
	}
	/* q[0] of a typing.NamedTuple instance: its tuple of fields */
	if (obj->k == VK_INST && !obj->u.inst->mod) {
		value_t *t = nt_inst_tuple(f, obj->u.inst);

		if (t)
			obj = t;
	}
	/* Union[A, B], Optional[A], List[A] written as a value (a type
	 * alias: NanotronConfigs = Union[...]): the typing form, as a
	 * dataclass field's annotation reads it (argparse.c) */
	if (obj->k == VK_EXT) {
		value_t *tf = typing_form_value(f, &s->h, obj);

		if (tf)
			return tf;
	}
	/* x.shape[-2:], x.shape[0] of a shape not known: a torch.Size, an int */
	if (obj->k == VK_UNKNOWN && obj->reason == size_unknown_reason && !obj->alts)
		return unknown_at(f, &s->h, idx->k == VK_SLICE ? size_unknown_reason : shape_dim_reason);
	if (obj->k == VK_CLASS && idx->k == VK_STR) {
		/* Mode["REDUCE_SCATTER"] of a repo enum: that member */
		value_t *m = enum_member_by_name(in, obj, idx->u.str.s);

		if (m)
			return m;
	}
	arr_device_index(f, s, obj, idx);            /* m[i, gc], gc on the device */
	{
		value_t *w = arr_window(f, s, obj, idx);    /* a[i:i+k] of an array */

		if (w || (w = arr_item(f, s, obj, idx)))    /* a[i]: the other axes */
			return w;
	}
	switch (obj->k) {
	case VK_LIST: case VK_TUPLE:
		/* xs[t] of a Python list or tuple with a tensor index (an
		 * item of an index tensor iterated): list indexing calls
		 * t.__index__(), a read on the host -- a sync when t is on
		 * the device; the item taken is not known */
		if (is_tensorish(idx)) {
			if (idx->dev == DEV_DEVICE)
				(void)sev(f, SEV_SYNC, "a device tensor as a list index (__index__ reads it)", &s->h);
			else
				(void)alts_sync(f, idx, "a device tensor on one path as a list index (__index__ reads it)",
				                &s->h);
			if (!obj->u.seq->unk_reason && obj->u.seq->n == 1)
				return obj->u.seq->items[0];
			return unknown_at(f, &s->h, "an item at an index read from a tensor");
		}
		if (obj->u.seq->unk_reason && obj->u.seq->prefix) {
			/* a known prefix: x[i] and x[:k] within it are exact */
			size_t known = 0;
			long long lo = 0, hi = -1;
			int ok2 = 1;

			while (known < obj->u.seq->n && obj->u.seq->items[known]->k != VK_UNKNOWN)
				known++;
			i = as_int(idx, &ok);
			if (ok && i >= 0 && (size_t)i < known)
				return obj->u.seq->items[i];
			if (idx->k == VK_SLICE && idx->u.slice.step->k == VK_NONE && idx->u.slice.hi->k != VK_NONE) {
				if (idx->u.slice.lo->k != VK_NONE)
					lo = as_int(idx->u.slice.lo, &ok);
				else
					ok = 1;
				hi = as_int(idx->u.slice.hi, &ok2);
				if (ok && ok2 && lo >= 0 && hi >= lo && (size_t)hi <= known) {
					value_t *r = v_seq(in->a, obj->k, (size_t)(hi - lo));
					long long k;

					for (k = lo; k < hi; k++)
						vseq_push(in->a, r->u.seq, obj->u.seq->items[k]);
					return r;
				}
			}
			break;
		}
		if (obj->u.seq->unk_reason && obj->u.seq->n >= 1 && idx->k != VK_SLICE &&
		    (obj->u.seq->items[0]->k == VK_TENSOR || obj->u.seq->items[0]->k == VK_TUPLE ||
		     obj->u.seq->items[0]->k == VK_DICT || alts_dev_path(obj->u.seq->items[0]) >= 0 ||
		     (obj->u.seq->items[0]->k == VK_UNKNOWN && fact_nonneg_int(obj->u.seq->items[0]))))
			/* x[i] of tensors (or tuples or dicts: a collate's
			 * samples, batch[0].keys(); or ints >= 0: list(range(n)),
			 * indices) made by one loop over items not known: one
			 * where its representative lives (as a pass over it
			 * reads them, iter_rep_item) */
			return obj->u.seq->items[0];
		/* x[a:b] of a sequence one loop over items not known built
		 * (its items read so far, its length not known; no exact
		 * prefix): a part of it, as many items as not known, one item
		 * standing for all of them (`for s in scores[:5]` after
		 * `scores.append(...)` in a loop over a batch) */
		if (idx->k == VK_SLICE && obj->u.seq->unk_reason && !obj->u.seq->prefix && obj->u.seq->n >= 1 &&
		    idx->u.slice.step->k == VK_NONE) {
			return part_rep(in, obj->k, items_rep(f, obj->u.seq, "an item of a slice of a sequence whose length is not known", &s->h),
			                "a slice of a sequence whose length is not known");
		}
		i = as_int(idx, &ok);
		if (ok && !obj->u.seq->unk_reason) {
			if (i < 0)
				i += (long long)obj->u.seq->n;
			if (i >= 0 && (size_t)i < obj->u.seq->n)
				return obj->u.seq->items[i];
		}
		if (idx->k == VK_SLICE && !obj->u.seq->unk_reason) {
			long long n = (long long)obj->u.seq->n, lo = 0, hi = n, k;
			int ok1 = 1, ok2 = 1;
			value_t *r;

			if (idx->u.slice.lo->k != VK_NONE)
				lo = as_int(idx->u.slice.lo, &ok1);
			if (idx->u.slice.hi->k != VK_NONE)
				hi = as_int(idx->u.slice.hi, &ok2);
			if (ok1 && ok2 && idx->u.slice.step->k == VK_INT && idx->u.slice.step->u.i != 0) {
				/* x[a:b:s], Python's slice.indices() */
				long long st = idx->u.slice.step->u.i;
				int has_lo = idx->u.slice.lo->k != VK_NONE, has_hi = idx->u.slice.hi->k != VK_NONE;

				if (!has_lo)
					lo = st > 0 ? 0 : n - 1;
				else if (lo < 0)
					lo = lo + n < 0 ? (st > 0 ? 0 : -1) : lo + n;
				else if (lo >= n)
					lo = st > 0 ? n : n - 1;
				if (!has_hi)
					hi = st > 0 ? n : -1;
				else if (hi < 0)
					hi = hi + n < 0 ? (st > 0 ? 0 : -1) : hi + n;
				else if (hi >= n)
					hi = st > 0 ? n : n - 1;
				r = v_seq(in->a, obj->k, 0);
				for (k = lo; st > 0 ? k < hi : k > hi; k += st)
					vseq_push(in->a, r->u.seq, obj->u.seq->items[k]);
				return r;
			}
			if (ok1 && ok2 && idx->u.slice.step->k == VK_NONE) {
				if (lo < 0) lo += n;
				if (hi < 0) hi += n;
				if (lo < 0) lo = 0;
				if (hi > n) hi = n;
				charge(f, hi > lo ? (size_t)(hi - lo) : 0, 0);
				r = v_seq(in->a, obj->k, 0);
				for (k = lo; k < hi; k++)
					vseq_push(in->a, r->u.seq, obj->u.seq->items[k]);
				stage_of_slice(f, s->slice, obj, r);
				return r;
			}
			/* x[a:b] with a bound not known (a process's share
			 * of a list), its items alike: as many items as not
			 * known, each one like them (iter_rep_item) */
			if ((!ok1 || !ok2) && idx->u.slice.step->k == VK_NONE && n >= 1 && seq_items_alike(obj->u.seq)) {
				return part_rep(in, obj->k, obj->u.seq->items[0], "a slice of a sequence whose bounds are not known");
			}
		}
		break;
	case VK_STR: {      /* s[i], s[a:b] (no step) */
		long long n = (long long)obj->u.str.len, lo = 0, hi = n;
		int ok1 = 1, ok2 = 1;

		i = as_int(idx, &ok);
		if (ok) {
			if (i < 0)
				i += n;
			if (i >= 0 && i < n)
				return v_strn(in->a, obj->u.str.s + i, 1);
			break;
		}
		if (idx->k != VK_SLICE || idx->u.slice.step->k != VK_NONE)
			break;
		if (idx->u.slice.lo->k != VK_NONE)
			lo = as_int(idx->u.slice.lo, &ok1);
		if (idx->u.slice.hi->k != VK_NONE)
			hi = as_int(idx->u.slice.hi, &ok2);
		if (!ok1 || !ok2)
			break;
		if (lo < 0) lo += n;
		if (hi < 0) hi += n;
		if (lo < 0) lo = 0;
		if (hi > n) hi = n;
		return v_strn(in->a, obj->u.str.s + lo, hi > lo ? (size_t)(hi - lo) : 0);
	}
	case VK_DICT: {
		value_t *v = vdict_get(obj->u.dict, idx);

		if (v)
			return v;
		if ((v = keyalts_subscript(f, s, obj, idx)))
			return v;       /* {"a": A, "b": B}[k], k not known: both (keyalts.c) */
		if (obj->u.dict->rep && value_is_known_key(idx))
			return obj->u.dict->rep;       /* {k: v.to(dev) for k, v in t.items()}["boxes"] */
		if (obj->u.dict->missing && value_is_known_key(idx) && !dict_may_hold(obj->u.dict)) {
			/* defaultdict: d[k] = default_factory(), then read */
			v = call(f, obj->u.dict->missing, NULL, 0, NULL, &s->h);
			vdict_set(in->a, obj->u.dict, idx, v);
			return v;
		}
		if (obj->u.dict->missing && !value_is_known_key(idx) && !obj->u.dict->n && f->mode != M_FWD)
			return default_any(f, obj->u.dict, &s->h);   /* rows filed under keys not known */
		/* d["boxes"] of a dict filled under keys not known with one
		 * tensor (`for k, v in t.items(): d[k] = v` read once for all):
		 * the key, if there (the run that goes on), holds that tensor --
		 * where it lives; its shape is the representative's, not known
		 * for this key */
		if (value_is_known_key(idx) && obj->u.dict->anykey && obj->u.dict->anyval &&
		    !obj->u.dict->anymixed && obj->u.dict->anyval->k == VK_TENSOR && !obj->u.dict->n) {
			value_t *t = v_tensor_dev(in->a, obj->u.dict->anyval->dev, obj->u.dict->anyval->pinned);

			t->loose = obj->u.dict->anyval->loose;
			return t;
		}
		if (value_is_known_key(idx))
			return unknown_at(f, &s->h, afmt(in, "key %s is not in the mapping",
			                                 value_repr(in->a, idx) ? value_repr(in->a, idx) : "?"));
		/* d[param] of a dict filled under keys not known (each
		 * parameter's bucket, group, state): the value, when all that
		 * were stored so are alike (interp/exec.c assign) -- for a
		 * tensor key, or a key not known when no other key was stored */
		if ((is_tensorish(idx) || (idx->k == VK_UNKNOWN && !obj->u.dict->n)) && obj->u.dict->anykey &&
		    obj->u.dict->anyval && !obj->u.dict->anymixed)
			return obj->u.dict->anyval;
		break;
	}
	case VK_INST:
		if (is_mesh(obj))     /* mesh["pp"], mesh["batch", "cp"]: mesh.c */
			return mesh_getitem(f, obj, idx, &s->h);
		{
			value_t *col = pandas_column(obj, idx);     /* df["Suffix"]: pandas.c */

			if (col)
				return col;
		}
		/* a torch container, or a repo subclass of one that keeps its
		 * indexing (Joiner(nn.Sequential): self[0](x)) */
		if (obj->u.inst->mod == VM_CONTAINER ||
		    (obj->u.inst->mod == VM_REPO && obj->u.inst->cls && class_ext_base(obj->u.inst->cls) &&
		     (!strcmp(class_ext_base(obj->u.inst->cls), "torch.nn.Sequential") ||
		      !strcmp(class_ext_base(obj->u.inst->cls), "torch.nn.ModuleList")) &&
		     !class_lookup(obj->u.inst->cls, "__getitem__", NULL))) {
			struct vinst *m = obj->u.inst;
			struct vinst *c = NULL;

			i = as_int(idx, &ok);
			if (ok && !vdict_gets(m->attrs, "__ecg_len_unknown__")) {
				if (i < 0)
					i += (long long)m->nchildren;
				if (i >= 0 && (size_t)i < m->nchildren)
					c = m->children[i].inst;
			} else if (idx->k == VK_STR) {
				c = vinst_child(m, idx->u.str.s);
			} else if (idx->k == VK_SLICE && f->mode == M_FWD) {
				value_t *sl = container_slice(f, m, idx);

				if (sl)
					return sl;
			} else if (idx->k == VK_UNKNOWN && !idx->alts && f->mode != M_FWD) {
				/* layers[i], i not known, in job code (a pipeline
				 * stage picking its layers): one of modules made
				 * alike stands for whichever it is */
				c = container_alike_item(m);
			}
			if (c)
				return mk_inst_value(in, c);
		}
		break;
	case VK_EXT:
		if (!strcmp(obj->u.ext, "sys.modules")) {
			value_t *m = sys_modules_item(f, idx);

			if (m)
				return m;
			break;
		}
		/* typing subscripts, torchvision.models.__dict__[name] */
		if (idx->k == VK_STR && !strcmp(short_ext(obj->u.ext), "__dict__")) {
			const char *base = obj->u.ext;
			size_t n = strlen(base) - strlen(".__dict__");

			return v_ext(in->a, afmt(in, "%.*s.%s", (int)n, base, idx->u.str.s));
		}
		return obj;
	case VK_NS:
		break;
	default:
		break;
	}
	{
		value_t *t = libv_item(f, obj, idx);   /* enc["input_ids"] of return_tensors="pt" */

		if (t)
			return t;
	}
	/* an item of an array a host library made (numpy's): host data
	 * still, whatever the index (torch.tensor(a[i]) copies it over) */
	if (obj->k == VK_UNKNOWN && !obj->alts && obj->reason &&
	    !strncmp(obj->reason, OUTSIDE_RESULT_PREFIX, sizeof OUTSIDE_RESULT_PREFIX - 1) && host_only(obj, 0))
		return unknown_at(f, &s->h, obj->reason);
	/* an item of what torch.load gave (a checkpoint's state dict read
	 * by a parameter's name not known: ckpt['model_ema'][name]) is part
	 * of that object, on the host or the device as the load put it,
	 * whatever the key */
	if (obj->k == VK_UNKNOWN && !obj->alts && IS_LOADED_REASON(obj->reason))
		return unknown_at(f, &s->h, obj->reason);
	return unknown_at(f, &s->h, idx->k == VK_UNKNOWN && idx->reason ? idx->reason
	                            : obj->k == VK_UNKNOWN && obj->reason ? obj->reason : "an index ecg cannot follow");
}

/* obj[idx]: a map-style dataset's item (a DatasetDict's split, a row)
 * is no torch IterableDataset either (mapds.c) */
static value_t *eval_subscript(struct frame *f, const struct ast_Subscript *s)
{
	value_t *obj = eval(f, s->value);
	value_t *idx = eval(f, s->slice);

	/* xs[-1] of a list the loop appends to later: a later pass reads the
	 * appended item (carry.c) */
	(void)carry_last_item(f, s, obj);
	return mapds_item(f, obj, subscript_of(f, s, obj, idx));
}

/* Comprehensions: unrolled when the iterables are known. */
struct comp_ctx {
	const struct ast_list *gens;
	const struct ast_hdr *elt, *key;
	value_t *out;
	int unknown;
	int big;                  /* it reached MAX_ITEMS: not built */
	const char *unk_expr, *unk_reason;
	/* job code: each `for` clause's JC_REPEAT, made once per evaluation
	 * (an inner clause's is shared by every outer item: its trips when
	 * they agree, else -1) */
	struct jctx *rep[8];
};

/* Did the events in->sev[b, b + nb) do what in->sev[a, a + na) did, one
 * for one (kind and line)? */
static int same_events(const struct interp *in, size_t a, size_t na, size_t b, size_t nb)
{
	size_t i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		const char *x = in->sev[a + i].anchor, *y = in->sev[b + i].anchor;

		if (in->sev[a + i].kind != in->sev[b + i].kind || (x != y && (!x || !y || strcmp(x, y))))
			return 0;
	}
	return 1;
}

static void comp_loop(struct frame *f, struct comp_ctx *cc, unsigned gi)
{
	struct interp *in = f->in;
	const struct ast_comprehension *g;
	value_t *it;
	struct vseq *items = NULL;
	size_t i;
	unsigned k;

	if (gi == cc->gens->n) {
		if ((cc->key ? cc->out->u.dict->n : cc->out->u.seq->n) >= MAX_ITEMS) {
			cc->big = 1;
			return;
		}
		if (cc->key) {
			value_t *kv = eval(f, cc->key);

			vdict_set(in->a, cc->out->u.dict, kv, eval(f, cc->elt));
		} else {
			vseq_push(in->a, cc->out->u.seq, eval(f, cc->elt));
		}
		return;
	}
	g = AST_AS(cc->gens->items[gi], comprehension);
	it = gen_import_items(f, eval(f, g->iter), g->iter);
	if (iter_items(f, it, &items)) {
		in->approx++;
		/* unknown: one representative pass, whose events (job code)
		 * run a number of times not known */
		value_t *why = iter_items(f, it, &items);
		const struct jctx *ojc = f->jc;

		cc->unknown = 1;
		cc->unk_expr = text_of(f, g->iter);
		cc->unk_reason = why->reason ? why->reason : "an iterable whose items are not known";
		assign(f, g->target, iter_rep_item(f, it) ? iter_rep_item(f, it)
		                     : v_unknown(in->a, text_of(f, g->target), "an item of an iterable not known"));
		if (f->mode != M_FWD)
			f->jc = jc_push(f, JC_REPEAT, anchor_at(f, g->iter),
			                afmt_memo(in, "for %s in %s", text_of(f, g->target), text_of(f, g->iter)));
		comp_loop(f, cc, gi + 1);
		f->jc = ojc;
		return;
	}
	{
		/* job code: the items' events under one JC_REPEAT counting
		 * them, when every item was read and did what the first did */
		const struct jctx *ojc = f->jc;
		struct jctx *rj = NULL;
		size_t first = in->nsev, nfirst = 0;
		int same = 1;

		if (f->mode != M_FWD && items->n > 1 && gi < sizeof cc->rep / sizeof *cc->rep) {
			if (!cc->rep[gi]) {
				cc->rep[gi] = (struct jctx *)jc_push(f, JC_REPEAT, anchor_at(f, g->iter),
				                                     afmt_memo(in, "for %s in %s", text_of(f, g->target),
				                                               text_of(f, g->iter)));
				cc->rep[gi]->trips = 0;     /* none counted yet */
			}
			rj = cc->rep[gi];
			f->jc = rj;
		}
		for (i = 0; i < items->n && !cc->big; i++) {
			int keep = 1;
			size_t from = in->nsev;

			if (!budget_at(f, cc->elt)) {
				same = 0;
				break;
			}
			assign(f, g->target, items->items[i]);
			for (k = 0; k < g->ifs.n; k++) {
				int t = value_truth(eval(f, g->ifs.items[k]));

				if (t == 0)
					keep = 0;
				else if (t < 0)
					same = 0;      /* kept or not: not known */
			}
			if (keep)
				comp_loop(f, cc, gi + 1);
			if (!i)
				nfirst = in->nsev - from;
			else if (!same_events(in, first, nfirst, from, in->nsev - from))
				same = 0;
		}
		if (rj) {
			long long t = same && i == items->n ? (long long)items->n : -1;

			rj->trips = !rj->trips || rj->trips == t ? t : -1;
			f->jc = ojc;
		} else if (f->mode == M_FWD && items->n > 1 && same && i == items->n) {
			/* a forward's events carry no job context: the first
			 * item's run once per item in each call of the model (the
			 * later items' events, of the same lines in the same run,
			 * are that run's: schedule.c counts them once) */
			size_t ek;

			for (ek = first; ek < first + nfirst && ek < in->nsev; ek++)
				in->sev[ek].fwd_mult = runs_times(in->sev[ek].fwd_mult, (long long)items->n);
		}
	}
}

static value_t *eval_comp(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	struct comp_ctx cc;
	struct frame cf = *f;

	memset(&cc, 0, sizeof cc);
	cf.locals = vdict_new(in->a);
	cf.outer_comp = f;
	cf.closure = NULL;
	switch (e->kind) {
	case AST_ListComp: cc.gens = &AST_AS(e, ListComp)->generators; cc.elt = AST_AS(e, ListComp)->elt; break;
	case AST_SetComp: cc.gens = &AST_AS(e, SetComp)->generators; cc.elt = AST_AS(e, SetComp)->elt; break;
	case AST_GeneratorExp: cc.gens = &AST_AS(e, GeneratorExp)->generators; cc.elt = AST_AS(e, GeneratorExp)->elt; break;
	case AST_DictComp:
		cc.gens = &AST_AS(e, DictComp)->generators;
		cc.elt = AST_AS(e, DictComp)->value;
		cc.key = AST_AS(e, DictComp)->key;
		break;
	default:
		return unknown_at(f, e, "not a comprehension");
	}
	cc.out = cc.key ? v_dict(in->a) : v_seq(in->a, VK_LIST, 0);
	comp_loop(&cf, &cc, 0);
	if (cc.big)
		return too_big(f, cc.key ? VK_DICT : VK_LIST, MAX_ITEMS + 1, e);
	if (!cc.key && cc.gens->n == 1 && !AST_AS(cc.gens->items[0], comprehension)->ifs.n) {
		/* the length's provenance: range(n) -> n */
		value_t *it = eval(&cf, AST_AS(cc.gens->items[0], comprehension)->iter);

		if (it->k == VK_RANGE) {
			cc.out->u.seq->len_expr = it->expr;
			cc.out->u.seq->len_src = it->src;
			cc.out->u.seq->len_via = it->via;
		}
		stage_of_comp(it, cc.out);
	}
	if (cc.unknown && !cc.key) {
		cc.out->u.seq->unk_expr = cc.unk_expr;
		cc.out->u.seq->unk_reason = cc.unk_reason;
	}
	if (cc.unknown && cc.key && cc.out->u.dict->n == 1)
		cc.out->u.dict->rep = cc.out->u.dict->vals[0];
	return cc.out;
}

/* Formatting an instance of a repo class runs its __format__ / __str__ /
 * __repr__ (a metric whose __format__ reads a device tensor with .item()
 * is a sync in the log line): read it as a call.  `how` is 's', 'r' or 0
 * (format(), an f-string without conversion). */
void format_hook(struct frame *f, value_t *v, int how, const struct ast_hdr *site)
{
	static const char *const names_s[] = { "__str__", "__repr__", NULL };
	static const char *const names_r[] = { "__repr__", NULL };
	static const char *const names_f[] = { "__format__", "__str__", "__repr__", NULL };
	const char *const *names = how == 's' ? names_s : how == 'r' || how == 'a' ? names_r : names_f;
	struct vclass *owner = NULL;
	value_t *m = NULL;
	size_t i;

	if (v->k != VK_INST || !v->u.inst->cls || v->u.inst->mod != VM_NONE)
		return;
	for (i = 0; names[i] && !m; i++) {
		m = class_lookup(v->u.inst->cls, names[i], &owner);
		if (m && m->k != VK_FUNC)
			m = NULL;
		if (m && !strcmp(names[i], "__format__")) {
			value_t *spec = v_str(f->in->a, "");

			(void)call_function(f, m->u.fn, v, &spec, 1, NULL, f->mode, f->ev, site);
			return;
		}
	}
	if (m)
		(void)call_function(f, m->u.fn, v, NULL, 0, NULL, f->mode, f->ev, site);
}

static value_t *eval_fstring(struct frame *f, const struct ast_JoinedStr *js)
{
	struct interp *in = f->in;
	buf_t b;
	value_t *r;
	unsigned i;
	int big = 0;              /* past MAX_STR_BYTES: the rest is read, not kept */

	buf_init(&b);
	for (i = 0; i < js->values.n; i++) {
		const struct ast_hdr *p = js->values.items[i];
		value_t *v;

		if (AST_IS(p, Constant) && AST_AS(p, Constant)->value.kind == AST_CONST_STR) {
			if (b.len + AST_AS(p, Constant)->value.len > MAX_STR_BYTES)
				big = 1;
			if (!big)
				buf_add(&b, AST_AS(p, Constant)->value.s, AST_AS(p, Constant)->value.len);
			continue;
		}
		if (!AST_IS(p, FormattedValue)) {
			buf_free(&b);
			return unknown_at(f, &js->h, "an f-string ecg cannot format");
		}
		v = eval(f, AST_AS(p, FormattedValue)->value);
		if (v->k == VK_TENSOR && v->dev == DEV_DEVICE)
			sev(f, SEV_SYNC, "f-string of a device tensor", AST_AS(p, FormattedValue)->value);
		else     /* on one path of an undecided `if` (alts.c) */
			(void)alts_sync(f, v, "f-string of a device tensor on one path", AST_AS(p, FormattedValue)->value);
		format_hook(f, v, AST_AS(p, FormattedValue)->conversion, AST_AS(p, FormattedValue)->value);
		v = path_text(v);      /* a pathlib.Path formats as its text */
		if (AST_AS(p, FormattedValue)->format_spec || AST_AS(p, FormattedValue)->conversion > 0 ||
		    !(v->k == VK_STR || v->k == VK_INT)) {
			/* read the other parts all the same: they may sync */
			unsigned k;

			for (k = i + 1; k < js->values.n; k++)
				if (AST_IS(js->values.items[k], FormattedValue)) {
					value_t *w = eval(f, AST_AS(js->values.items[k], FormattedValue)->value);

					if (w->k == VK_TENSOR && w->dev == DEV_DEVICE)
						sev(f, SEV_SYNC, "f-string of a device tensor",
						    AST_AS(js->values.items[k], FormattedValue)->value);
					else
						(void)alts_sync(f, w, "f-string of a device tensor on one path",
						                AST_AS(js->values.items[k], FormattedValue)->value);
					format_hook(f, w, AST_AS(js->values.items[k], FormattedValue)->conversion,
					            AST_AS(js->values.items[k], FormattedValue)->value);
				}
			r = unknown_at(f, &js->h, "an f-string of values not known");
			if (b.len && !big)      /* a str that starts with the text before */
				r->str_prefix = ast_arena_strndup(in->a, b.buf, b.len);
			buf_free(&b);
			return r;
		}
		if (v->k == VK_STR && b.len + v->u.str.len > MAX_STR_BYTES)
			big = 1;
		if (big)
			continue;
		if (v->k == VK_STR)
			buf_add(&b, v->u.str.s, v->u.str.len);
		else
			buf_addf(&b, "%lld", v->u.i);
	}
	r = too_big(f, VK_STR, big ? MAX_STR_BYTES + 1 : b.len, &js->h);
	if (!r)
		r = v_strn(in->a, b.buf, b.len);
	buf_free(&b);
	return r;
}

static value_t *eval_const(struct frame *f, const struct ast_Constant *c)
{
	struct interp *in = f->in;
	value_t *v;

	switch (c->value.kind) {
	case AST_CONST_NONE: v = v_none(in->a); break;
	case AST_CONST_TRUE: v = v_bool(in->a, 1); break;
	case AST_CONST_FALSE: v = v_bool(in->a, 0); break;
	case AST_CONST_INT:
		v = c->value.big ? v_unknown(in->a, c->value.s, "an integer too large for ecg") : v_int(in->a, c->value.i);
		break;
	case AST_CONST_FLOAT: v = v_float(in->a, c->value.f); break;
	case AST_CONST_STR: v = v_str_ref(in->a, c->value.s, c->value.len); break;   /* the tree outlives the run */
	default: v = v_unknown(in->a, text_of(f, &c->h), "a constant ecg does not use"); break;
	}
	v->src = anchor_at(f, &c->h);
	if (f->config_exec)
		v->via = VIA_CONFIG_FILE;
	return v;
}

/* An instance of a repository class that is no module (ModelEMA). */
static int repo_plain_object(const value_t *v)
{
	return v->k == VK_INST && v->u.inst->cls && !v->u.inst->ext && v->u.inst->mod == VM_NONE;
}

/* `model.module if is_parallel(model) else model` (the unwrap idiom), its
 * test not decided: when `model` is a module no wrapper ever wrapped
 * (nor known through one) and `.module` found nothing on it, its own
 * class or its children, the arm that reads `.module` raises -- the run
 * that goes on took the other arm, the module itself.  att is the arm's
 * node and av its value, other/ov the other arm's; the module, or NULL
 * when the expression is not of that form. */
static value_t *unwrap_arm(struct frame *f, const struct ast_hdr *att, const value_t *av,
                           const struct ast_hdr *other, value_t *ov)
{
	const struct ast_Attribute *a;

	if (!AST_IS(att, Attribute) || av->k != VK_UNKNOWN || av->alts || ov->k != VK_INST)
		return NULL;
	a = AST_AS(att, Attribute);
	if (strcmp(a->attr, "module") && strcmp(a->attr, "_orig_mod"))
		return NULL;
	if (ov->u.inst->mod == VM_NONE || ov->via_wrapper || ov->u.inst->nwrapped || !ov->u.inst->cls ||
	    strcmp(text_of(f, a->value), text_of(f, other)))
		return NULL;
	if (vinst_child(ov->u.inst, a->attr) || vdict_gets(ov->u.inst->attrs, a->attr) ||
	    class_lookup(ov->u.inst->cls, a->attr, NULL) || class_lookup(ov->u.inst->cls, "__getattr__", NULL))
		return NULL;
	return ov;
}


/* The truth of an operand of `a and b` / `a or b` read on the host: an
 * operand that is a device tensor (`torch.isnan(p).any() or ...`) is a
 * sync at the operand (in a model's forward, a comparison's) -- one for the whole BoolOp (*done set): a later
 * device operand reads under the earlier one's outcome on the same
 * statement, the same wait again; one that is a device tensor on one
 * path only (alts.c) is a sync there. */
static void boolop_operand_sync(struct frame *f, value_t *v, const struct ast_hdr *operand, int *done)
{
	/* in a forward, arguments not known are read as device tensors (a
	 * flag passed in, `train and use_dropout`): there only a comparison
	 * written in the operand (`torch.min(x) < left`) is one for sure */
	if (f->mode == M_FWD && !AST_IS(operand, Compare))
		return;
	if (device_truth(v)) {
		if (!*done)
			sev(f, SEV_SYNC, afmt(f->in, "%s (the truth of a device tensor)", text_of(f, operand)), operand);
		*done = 1;
		return;
	}
	(void)alts_sync(f, v, afmt(f->in, "%s (the truth of a device tensor on one path)", text_of(f, operand)),
	                operand);
}

value_t *eval(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	value_t *v;
	unsigned i;

	if (!e)
		return v_none(in->a);
	if (!budget_at(f, e))
		return unknown_at(f, e, "the analysis step budget ran out");
	switch (e->kind) {
	case AST_Constant:
		return eval_const(f, AST_AS(e, Constant));
	case AST_Name: {
		const char *id = AST_AS(e, Name)->id;

		v = lookup(f, id);
		if (v)
			return v;
		return v_unknown(in->a, astr(in, id), "a name that is not defined where it is used");
	}
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(e, Attribute);
		value_t *obj = eval(f, a->value);

		v = getattr_v(f, obj, a->attr, e);
		if (v->k == VK_UNKNOWN && !v->expr)
			v->expr = text_of(f, e);
		if (value_is_known_scalar(v) && !v->expr) {
			v = v_copy(in->a, v);
			v->expr = text_of(f, e);
		}
		return v;
	}
	case AST_Call:
		return eval_call(f, AST_AS(e, Call));
	case AST_BinOp: {
		const struct ast_BinOp *b = AST_AS(e, BinOp);

		value_t *l = eval(f, b->left);   /* left first, as Python */
		value_t *r = eval(f, b->right);

		return binop(f, b->op, l, r, e, 0);
	}
	case AST_UnaryOp: {
		const struct ast_UnaryOp *u = AST_AS(e, UnaryOp);
		value_t *x = eval(f, u->operand);
		int t;

		if (is_tensorish(x)) {
			if (u->op == AST_UNARY_USUB)
				emit_op(f, "Tensor.__neg__", e);
			else if (u->op == AST_UNARY_INVERT)
				emit_op(f, "Tensor.__invert__", e);
			if (u->op == AST_UNARY_NOT && device_truth(x))
				sev(f, SEV_SYNC, afmt(in, "%s (the truth of a device tensor)", text_of(f, e)), e);
			if (u->op == AST_UNARY_NOT)
				return unknown_at(f, e, "the truth of a tensor at run time");
			{
				value_t *t2 = v_tensor_dev(in->a, x->dev, 0);

				t2->shape = x->shape;
				t2->dt = x->dt;
				return t2;
			}
		}
		switch (u->op) {
		case AST_UNARY_NOT:
			t = value_truth(x);
			return t < 0 ? unknown_at(f, e, x->reason ? x->reason : "the truth of a value not known")
			             : v_bool(in->a, !t);
		case AST_UNARY_USUB:
			if (x->k == VK_INT && x->u.i != LLONG_MIN)
				return v_int(in->a, -x->u.i);
			if (x->k == VK_FLOAT)
				return v_float(in->a, -x->u.f);
			break;
		case AST_UNARY_UADD:
			if (x->k == VK_INT || x->k == VK_FLOAT)
				return x;
			break;
		case AST_UNARY_INVERT:
			if (x->k == VK_INT)
				return v_int(in->a, ~x->u.i);
			break;
		}
		return unknown_at(f, e, x->reason ? x->reason : "an operation on a value not known");
	}
	case AST_BoolOp: {
		const struct ast_BoolOp *b = AST_AS(e, BoolOp);
		value_t *last = NULL;
		/* as an `if` test only its truth is used, and so only its
		 * operands' truth: each operand is a test in its turn */
		const struct ast_hdr *otn = f->test_node;
		int in_test = e == otn;
		int dev_read = 0;     /* an operand's device truth read already (boolop_operand_sync) */

		for (i = 0; i < b->values.n; i++) {
			int t;

			if (in_test)
				f->test_node = b->values.items[i];
			last = eval(f, b->values.items[i]);
			f->test_node = otn;
			/* the last operand is the value whatever its truth
			 * (`get_act_layer(a) or nn.GELU` with the first None is
			 * nn.GELU, a class whose truth ecg may not know): only
			 * as an `if` test is its truth read */
			if (!in_test && i + 1 == b->values.n)
				return last;
			t = value_truth(last);
			/* an operand's truth is read on the host: every operand
			 * but the last, and the last too as an `if` test; one that
			 * is a device tensor on one path only (alts.c) is a sync
			 * there */
			if (in_test || i + 1 < b->values.n)
				boolop_operand_sync(f, last, b->values.items[i], &dev_read);
			if (t < 0) {
				/* evaluate the rest for their effects, result unknown --
				 * unless a later operand is the bool that decides its
				 * truth: `x and False` is falsy and `x or True` truthy
				 * whatever x is (ddp_on(): dist.is_available() and
				 * dist.is_initialized() with no process group, returned
				 * and tested by the caller).  The value given is that
				 * bool: its truth is right, its identity may not be (x
				 * itself when x is falsy), which no test of ours reads.
				 * As an `if` test, `x and None` is falsy too. */
				value_t *decided = NULL;
				const struct jctx *ojc = f->jc;
				/* the test's text as far as it is undecided
				 * (residual.c): from this operand on */
				const char *res = residual_join(f, b, NULL, b->values.items[i]);
				int may_drop = residual_may_drop(f), left_out = may_drop && i > 0;
				/* undecided operands: a question to the machine among
				 * them (mach), anything but such questions and
				 * questions to the installed version (other) */
				int mach = 0, other = 0;
				int and_falsy = 0;    /* a later operand known falsy */

				boolop_machine_operand(last, &mach, &other);

				for (i++; i < b->values.n; i++) {
					value_t *w;

					/* in job code, what an operand does happens
					 * only when the one before it did not decide
					 * (`a.shape == b.shape and torch.allclose(a,
					 * b)`): under its truth (`and`) or its
					 * falsehood (`or`), as an `if` puts it */
					if (f->mode != M_FWD) {
						const char *pt = text_of(f, b->values.items[i - 1]);

						f->jc = jc_push(f, JC_COND, anchor_at(f, b->values.items[i - 1]),
						                b->op == AST_BOOL_AND ? pt : afmt_memo(in, "not (%s)", pt, NULL));
					}
					if (in_test)
						f->test_node = b->values.items[i];
					w = eval(f, b->values.items[i]);
					f->test_node = otn;
					if (value_truth(w) < 0)
						boolop_machine_operand(w, &mach, &other);
					if (value_truth(w) == 0)
						and_falsy = 1;
					if (in_test || i + 1 < b->values.n)
						boolop_operand_sync(f, w, b->values.items[i], &dev_read);
					/* as a test, any operand whose truth is known
					 * and decides (`x and 0`, `x or 'a'`) */
					if (!decided &&
					    (b->op == AST_BOOL_AND ? (w->k == VK_BOOL && !w->u.b) ||
					                             (in_test && value_truth(w) == 0)
					                           : (w->k == VK_BOOL && w->u.b) ||
					                             (in_test && value_truth(w) == 1)))
						decided = w;
					/* as a test, an operand whose known truth
					 * cannot change the outcome says nothing */
					if (may_drop && in_test && value_truth(w) == (b->op == AST_BOOL_AND ? 1 : 0))
						left_out = 1;
					else
						res = residual_join(f, b, res, b->values.items[i]);
				}
				f->jc = ojc;
				if (decided)
					return decided;
				{
					value_t *u = v_unknown(in->a, left_out ? res : text_of(f, e),
					                       mach && !other ? MACHINE_REASON
					                       : last->reason ? last->reason : "the truth of a value not known");

					/* as a value, `x and None` (any later operand
					 * known falsy) is falsy whatever x is, its
					 * identity not known (x when x is falsy):
					 * `use_wandb = is_main and args.wandb_project`
					 * with no project never logs */
					u->falsy_sure = b->op == AST_BOOL_AND && and_falsy;
					return u;
				}
			}
			if (b->op == AST_BOOL_AND ? !t : t)
				return last;
		}
		return last ? last : v_none(in->a);
	}
	case AST_Compare:
		return eval_compare(f, AST_AS(e, Compare));
	case AST_IfExp: {
		const struct ast_IfExp *x = AST_AS(e, IfExp);
		const struct ast_hdr *otn = f->test_node;
		value_t *tv;

		f->test_node = x->test;    /* only its truth is used (the BoolOp above) */
		tv = eval(f, x->test);
		f->test_node = otn;
		int t = value_truth(tv);

		/* `a if x[i, 0] == 0 else b` on a device tensor: its truth read
		 * on the host, as exec_if's `if` (a sync), the arm not known */
		if (is_tensorish(tv)) {
			if (device_truth(tv))
				sev(f, SEV_SYNC, afmt(in, "%s (a conditional expression on a device tensor)",
				                      text_of(f, x->test)), e);
			t = -1;
		} else if (alts_sync(f, tv, afmt(in, "%s (a conditional expression on a device tensor on one path)",
		                                 text_of(f, x->test)), e)) {
			t = -1;
		}

		/* `loss.item() if step % n == 0 else None` in job code:
		 * periodic, as exec_if reads `if step % n == 0:` -- ecg reads
		 * one iteration, whichever arm that one takes; the body arm
		 * runs under the guard, the other arm on the other iterations
		 * (not in a module's constructor or method, not job code) */
		if (f->mode != M_FWD && (t == 1 || (t == 0 && f->loop_anchor && !AST_IS(x->test, BoolOp))) &&
		    !(f->cls && (f->cls->is_module || (f->qualname && strstr(f->qualname, "__init__")))) &&
		    find_modulo(f, x->test, 0)) {
			const struct jctx *ojc = f->jc;
			value_t *a;

			f->jc = guard_ctx(f, x->test, text_of(f, x->test));
			a = eval(f, x->body);
			f->jc = ojc;
			return t == 1 ? a : eval(f, x->orelse);
		}
		if (t == 1)
			return eval(f, x->body);
		if (t == 0)
			return eval(f, x->orelse);
		{
			/* two paths, as an undecided `if` (exec_if): in a forward,
			 * what each arm calls runs under its condition -- a module
			 * called in both arms is not called twice */
			const char *oc = f->cond.text, *text = test_text(f, x->test, tv);
			int ot = f->cond.taken;
			const struct jctx *ojc = f->jc;
			value_t *a, *b;

			devchoice_test(f, tv, text);
			f->cond.text = text;
			f->cond.taken = -1;
			/* out of a forward, what each arm does (a copy, a read)
			 * holds under its side of the test, as in an undecided
			 * `if` (exec_if) */
			struct narrowing nw = {0};
			int empty_arm = -1;

			/* `torch.stack(b) if len(b) > 0 else torch.tensor(b, ...)`:
			 * b is the empty list in one arm (narrow.c) */
			/* in a forward, each arm under its side of the test, as
			 * exec_if's paths (`c[1].item() if len(c) > 1 else n`:
			 * the read holds under the test); `a if self.training
			 * else b` runs each arm in one mode only */
			int mode = training_test(f, x->test);

			nw.name = narrow_empty(f, x->test, &empty_arm);
			f->jc = f->mode != M_FWD ? guard_ctx(f, x->test, text) : cond_ctx(f, e, text, mode);
			if (nw.name && empty_arm == 1)
				narrow_enter(f, &nw);
			a = eval(f, x->body);
			if (nw.name && empty_arm == 1)
				narrow_leave(f, &nw);
			f->jc = ojc;
			f->cond.text = afmt_memo(in, "not (%s)", text, NULL);
			f->jc = f->mode != M_FWD ? jc_push(f, JC_COND, anchor_at(f, e), f->cond.text)
			                         : cond_ctx(f, e, f->cond.text, mode ? 3 - mode : 0);
			if (nw.name && empty_arm == 0)
				narrow_enter(f, &nw);
			b = eval(f, x->orelse);
			if (nw.name && empty_arm == 0)
				narrow_leave(f, &nw);
			f->jc = ojc;
			f->cond.text = oc;
			f->cond.taken = ot;
			/* two tensors: one tensor, on the device both arms
			 * agree on (else where is not known) */
			if (a->k == VK_TENSOR && b->k == VK_TENSOR) {
				value_t *jt = v_tensor_dev(in->a, a->dev == b->dev ? a->dev : DEV_UNKNOWN,
				                           pin_join(a->pinned, b->pinned));

				jt->shape = shape_join(in->a, shape_of(a), shape_of(b));
				jt->dt = a->dt == b->dt ? a->dt : DT_UNKNOWN;
				return jt;
			}
			if (is_tensorish(a) || is_tensorish(b))
				return v_tensor(in->a);
			if (value_key_eq(a, b))
				return a;
			/* `{"num_workers": 1, "pin_memory": True} if use_cuda
			 * else {}`: two dicts of listed keys, kept as alternatives
			 * (alts.c): a `**` of them passes each key's value on each
			 * path (eval_args, dstar_alts) */
			if (dstar_plain_dict(a) && dstar_plain_dict(b))
				return v_alts(f, text, a, b);
			{
				value_t *m = unwrap_arm(f, x->body, a, x->orelse, b);

				if (!m)
					m = unwrap_arm(f, x->orelse, b, x->body, a);
				if (m)
					return m;
			}
			/* `min(ngpus, n) if use_gpu else -1`: two Python scalars
			 * (or None), kept as an undecided `if` keeps them
			 * (exec.c merge_branches, alts.c alts_scalar_pair), so
			 * that a comparison both arms agree on is decided
			 * (`ndevices <= 1` is True on both) */
			if (alts_scalar_pair(a, b))
				return v_alts_scalars(in, text, a, b);
			/* `ModelEMA(model) if rank0 else None`: an object of a
			 * repository class (not a module) on one arm, None on the
			 * other: alternatives, as ret_join keeps them (alts.c: an
			 * attribute read follows the object, `is None` stays
			 * undecided).  An outside library's object (a GradScaler
			 * or None) stays not known, as before. */
			if ((a->k == VK_NONE && repo_plain_object(b)) || (b->k == VK_NONE && repo_plain_object(a)))
				return v_alts(f, text, a, b);
			/* (torch.inference_mode if new else torch.no_grad): two
			 * torch callables that make the same kind of object
			 * (catalog torch_calls: "no_grad"), so either arm's
			 * object has the same effects on the job */
			if (a->k == VK_EXT && b->k == VK_EXT && torch_call_kind(in, a->u.ext) &&
			    torch_call_kind(in, b->u.ext) && !strcmp(torch_call_kind(in, a->u.ext), torch_call_kind(in, b->u.ext)))
				return a;
			/* `nn.SiLU if _has_silu else Swish` (a test of torch's
			 * version): two callables, kept as an undecided `if`
			 * keeps them (exec.c merge_branches), so that a call
			 * builds each path's object (alts.c alts_call: two leaf
			 * modules kept, other modules neither path's) */
			if (alts_callable_pair(a, b) || (a->k == VK_CLASS && (b->k == VK_CLASS || b->k == VK_EXT)) ||
			    (b->k == VK_CLASS && a->k == VK_EXT)) {
				value_t *v2 = v_alts(f, text, a, b);

				v2->alt_leaf = 1;
				return v2;
			}
			/* DropPath(p) if p > 0. else nn.Identity(): both modules
			 * kept as alternatives (alts.c alts_modules) */
			if (a->k == VK_INST && b->k == VK_INST && a->u.inst->mod != VM_NONE &&
			    b->u.inst->mod != VM_NONE && a->u.inst != b->u.inst)
				return v_alts(f, text, a, b);
			/* "cuda" if torch.cuda.is_available() else "cpu": the
			 * device chosen at run time, both kept (devchoice.c) */
			if (devchoice_specs(a, b)) {
				value_t *u = v_alts(f, text, a, b);

				u->nonneg = FACT_HOST_DATA;
				return u;
			}
			/* torch.device("cuda") if torch.cuda.is_available() else
			 * torch.device("cpu"): one device whose type is chosen
			 * at run time, as torch.device("cuda" if ... else "cpu")
			 * (devchoice.c) */
			{
				value_t *d = devchoice_devices(f, e, text, a, b);

				if (d)
					return d;
			}
			/* `path if path.exists() else np.ones((640, 640, 3))`:
			 * host data on both arms (a str, a Path, an array of
			 * another library), which is not known but is no tensor
			 * (facts.c host_datum) */
			if (host_datum(a) && host_datum(b)) {
				value_t *u = unknown_at(f, e, "a conditional expression whose condition is not known");

				u->nonneg = FACT_HOST_DATA;
				return u;
			}
			return unknown_at(f, e, "a conditional expression whose condition is not known");
		}
	}
	case AST_List: case AST_Tuple: case AST_Set: {
		const struct ast_list *elts = e->kind == AST_List ? &AST_AS(e, List)->elts
		                             : e->kind == AST_Tuple ? &AST_AS(e, Tuple)->elts : &AST_AS(e, Set)->elts;

		v = v_seq(in->a, e->kind == AST_Tuple ? VK_TUPLE : VK_LIST, elts->n);
		v->u.seq->born = f->loop_serial;
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred)) {
				value_t *sv = eval(f, AST_AS(x, Starred)->value);
				struct vseq *items;

				if (!iter_items(f, sv, &items)) {
					size_t k, n = items->n;   /* items may be v's own: [*l] is not l */
					value_t *no = too_big(f, v->k, v->u.seq->n + n, e);

					if (no)
						return no;
					for (k = 0; k < n; k++)
						vseq_push(in->a, v->u.seq, items->items[k]);
				} else {
					v->u.seq->unk_expr = text_of(f, x);
					v->u.seq->unk_reason = is_tensorish(sv) && sv->dev == DEV_DEVICE ? device_items_reason
					                                                                 : "built from items not known";
					/* a list of a length not known: the items it
					 * shows stand for its own among v's (the 0-d
					 * device tensors of list(mloss) in
					 * (epoch, *vals), formatted by '%g') */
					if ((sv->k == VK_LIST || sv->k == VK_TUPLE) && sv->u.seq->unk_reason) {
						size_t k, n = sv->u.seq->n;

						for (k = 0; k < n && v->u.seq->n < MAX_ITEMS; k++)
							vseq_push(in->a, v->u.seq, sv->u.seq->items[k]);
					}
				}
			} else {
				vseq_push(in->a, v->u.seq, eval(f, x));
			}
		}
		return v;
	}
	case AST_Dict: {
		const struct ast_Dict *d = AST_AS(e, Dict);

		v = v_dict(in->a);
		v->u.dict->exact = !d->keys.n;
		/* made while a journal is open: it exists on this path (or in
		 * this side reading) only, its items are not put back */
		if (in->ajournal)
			journal_born(in, v->u.dict);
		for (i = 0; i < d->keys.n && i < d->values.n; i++) {
			if (!d->keys.items[i]) {
				value_t *m = eval(f, d->values.items[i]);
				size_t k;

				if (m->k == VK_DICT) {
					value_t *no = too_big(f, VK_DICT, v->u.dict->n + m->u.dict->n, e);

					if (no)
						return no;
					for (k = 0; k < m->u.dict->n; k++)
						vdict_set(in->a, v->u.dict, m->u.dict->keys[k], m->u.dict->vals[k]);
					dict_keep_may_hold(v->u.dict, m->u.dict);
				} else {
					/* {**x} of a mapping not known: any key, any value */
					for (k = i + 1; k < d->values.n; k++)
						(void)eval(f, d->values.items[k]);
					return unknown_at(f, e, afmt(in, "**%s, whose keys are not known, may set any key",
					                             text_of(f, d->values.items[i])));
				}
				continue;
			}
			{
				value_t *k = eval(f, d->keys.items[i]);
				value_t *x = eval(f, d->values.items[i]);

				vdict_set(in->a, v->u.dict, k, x);
			}
		}
		return v;
	}
	case AST_ListComp: case AST_SetComp: case AST_DictComp: case AST_GeneratorExp:
		return eval_comp(f, e);
	case AST_Subscript:
		return eval_subscript(f, AST_AS(e, Subscript));
	case AST_Slice: {
		const struct ast_Slice *s = AST_AS(e, Slice);

		v = ast_arena_alloc(in->a, sizeof *v);
		v->k = VK_SLICE;
		v->u.slice.lo = s->lower ? eval(f, s->lower) : v_none(in->a);
		v->u.slice.hi = s->upper ? eval(f, s->upper) : v_none(in->a);
		v->u.slice.step = s->step ? eval(f, s->step) : v_none(in->a);
		/* x[a:t] with t a device tensor: slicing calls t.__index__(),
		 * which reads it on the host -- in a model's forward too (a
		 * reward model's r[d:end] over its rows); a bound that is a
		 * device tensor on one path of an undecided `if` only
		 * (alts.c) is a read under that path's side */
		if ((is_tensorish(v->u.slice.lo) && v->u.slice.lo->dev == DEV_DEVICE) ||
		    (is_tensorish(v->u.slice.hi) && v->u.slice.hi->dev == DEV_DEVICE) ||
		    (is_tensorish(v->u.slice.step) && v->u.slice.step->dev == DEV_DEVICE))
			(void)sev(f, SEV_SYNC, "a device tensor as a slice bound (__index__ reads it)", e);
		else if (!alts_sync(f, v->u.slice.lo, "a device tensor on one path as a slice bound (__index__ reads it)", e) &&
		         !alts_sync(f, v->u.slice.hi, "a device tensor on one path as a slice bound (__index__ reads it)", e))
			(void)alts_sync(f, v->u.slice.step, "a device tensor on one path as a slice bound (__index__ reads it)", e);
		return v;
	}
	case AST_Lambda:
		return make_function(f, e, "<lambda>");
	case AST_JoinedStr:
		return eval_fstring(f, AST_AS(e, JoinedStr));
	case AST_NamedExpr: {
		const struct ast_NamedExpr *n = AST_AS(e, NamedExpr);

		v = eval(f, n->value);
		assign(f, n->target, v);
		return v;
	}
	case AST_Starred:
		return eval(f, AST_AS(e, Starred)->value);
	case AST_Await:
		return eval(f, AST_AS(e, Await)->value);
	default:
		return unknown_at(f, e, "an expression ecg does not evaluate");
	}
}
