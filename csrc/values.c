/* values.c - see include/ecg/values.h */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecg/util.h"
#include "ecg/values.h"

static value_t *v_new(struct ast_arena *a, enum vkind k)
{
	value_t *v = ast_arena_alloc(a, sizeof *v);

	v->k = k;
	return v;
}

value_t *v_unknown(struct ast_arena *a, const char *expr, const char *reason)
{
	value_t *v = v_new(a, VK_UNKNOWN);

	v->expr = expr;
	v->reason = reason;
	return v;
}

value_t *v_none(struct ast_arena *a) { return v_new(a, VK_NONE); }

value_t *v_bool(struct ast_arena *a, int b)
{
	value_t *v = v_new(a, VK_BOOL);

	v->u.b = !!b;
	return v;
}

value_t *v_int(struct ast_arena *a, long long i)
{
	value_t *v = v_new(a, VK_INT);

	v->u.i = i;
	return v;
}

value_t *v_float(struct ast_arena *a, double f)
{
	value_t *v = v_new(a, VK_FLOAT);

	v->u.f = f;
	return v;
}

value_t *v_strn(struct ast_arena *a, const char *s, size_t n)
{
	value_t *v = v_new(a, VK_STR);

	v->u.str.s = ast_arena_strndup(a, s, n);
	v->u.str.len = n;
	return v;
}

value_t *v_str_ref(struct ast_arena *a, const char *s, size_t n)
{
	value_t *v = v_new(a, VK_STR);

	v->u.str.s = s;
	v->u.str.len = n;
	return v;
}

value_t *v_str(struct ast_arena *a, const char *s)
{
	return v_strn(a, s, strlen(s));
}

value_t *v_ext(struct ast_arena *a, const char *dotted)
{
	value_t *v = v_new(a, VK_EXT);

	v->u.ext = ast_arena_strndup(a, dotted, strlen(dotted));
	return v;
}

value_t *v_tensor(struct ast_arena *a) { return v_new(a, VK_TENSOR); }

value_t *v_seq(struct ast_arena *a, enum vkind k, size_t n)
{
	value_t *v = v_new(a, k);

	v->u.seq = ast_arena_alloc(a, sizeof *v->u.seq);
	if (n) {
		v->u.seq->items = ast_arena_alloc(a, n * sizeof(value_t *));
		v->u.seq->alloc = n;
	}
	return v;
}

value_t *v_dict(struct ast_arena *a)
{
	value_t *v = v_new(a, VK_DICT);

	v->u.dict = vdict_new(a);
	return v;
}

value_t *v_copy(struct ast_arena *a, const value_t *src)
{
	value_t *v = v_new(a, src->k);

	*v = *src;
	return v;
}

void vseq_push(struct ast_arena *a, struct vseq *s, value_t *v)
{
	ARENA_GROW(a, s->items, s->n, s->alloc, 4);
	s->items[s->n++] = v;
}

struct vdict *vdict_new(struct ast_arena *a)
{
	struct vdict *d = ast_arena_alloc(a, sizeof(struct vdict));

	d->a = a;
	return d;
}

/* ------------------------------------------------------------------ the index
 *
 * Namespaces of real jobs hold hundreds of names (Megatron-LM's args: about
 * 900), and a linear search per lookup was a tenth of an analysis; a dict
 * of ints or tuples built by a comprehension of 100,000 items took minutes
 * (a scan per insert).  Every key is indexed, by a hash that agrees with
 * value_key_eq() (key_hash): equal keys hash alike, so a lookup only looks
 * at the keys of its hash.  Open addressing over positions in keys[]:
 * every hit is checked against keys[i] and d->n, so a stale entry can only
 * miss, never answer wrongly; and the index is rebuilt whenever the dict is
 * not the one it was built over (another owner after a struct copy,
 * another keys array, fewer entries than it indexed). */

#define VDICT_INDEX_MIN 24

struct vdict_index {
	const struct vdict *owner;
	value_t **keys;           /* d->keys when built */
	size_t nidx;              /* keys[0..nidx) are in it */
	size_t cap;               /* slots, a power of two */
	long *slot;               /* position in keys[], or -1 */
};

static uint64_t vdict_hash(const char *s, size_t n)
{
	uint64_t h = fnv1a(FNV1A_INIT, s, n);

	return h ^ (h >> 29);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/* A hash of a key that agrees with value_key_eq(): a string by its bytes
 * (as vdict_finds() hashes a C string), an int and a bool by their number,
 * a float by its number (0.0 and -0.0 alike), an external name by its
 * text, a tuple by its items (the first 256 of a nested one, in order:
 * equal tuples have the same shape), a class,
 * instance or function by what it points at, anything else by its
 * address (value_key_eq() compares those by identity). */
static uint64_t key_hash(const value_t *k, int *left)
{
	size_t i;
	uint64_t h;

	if (!k)
		return 0;
	switch (k->k) {
	case VK_STR: return vdict_hash(k->u.str.s, k->u.str.len);
	case VK_INT: return mix(1, (uint64_t)k->u.i);
	case VK_BOOL: return mix(1, (uint64_t)k->u.b);
	case VK_NONE: return 2;
	case VK_FLOAT: {
		double f = k->u.f == 0.0 ? 0.0 : k->u.f;
		uint64_t u;

		memcpy(&u, &f, sizeof u);
		return mix(3, u);
	}
	case VK_EXT: return mix(4, vdict_hash(k->u.ext, strlen(k->u.ext)));
	case VK_TUPLE:
		h = mix(5, k->u.seq->n);
		for (i = 0; i < k->u.seq->n && *left > 0; i++) {
			(*left)--;
			h = mix(h, key_hash(k->u.seq->items[i], left));
		}
		return h;
	case VK_CLASS: return mix(6, (uintptr_t)k->u.cls);
	case VK_INST: return mix(7, (uintptr_t)k->u.inst);
	case VK_FUNC: return mix(8, (uintptr_t)k->u.fn);
	default: return mix(9, (uintptr_t)k);
	}
}

/* key_hash() with its bits mixed (murmur3's finalizer): the hashes of
 * ints and of tuples of ints run in sequences, which linear probing turns
 * into long clusters.  A string's is vdict_hash(), as vdict_finds() asks. */
static uint64_t slot_hash(const value_t *k)
{
	uint64_t h;
	int left = 256;

	if (k->k == VK_STR)
		return vdict_hash(k->u.str.s, k->u.str.len);
	h = key_hash(k, &left);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static void vdict_index_put(struct vdict_index *ix, const value_t *k, long pos)
{
	size_t j, mask = ix->cap - 1;

	for (j = (size_t)slot_hash(k) & mask; ix->slot[j] >= 0; j = (j + 1) & mask)
		;
	ix->slot[j] = pos;
}

/* The index of d, brought up to date; NULL when d is small or has no
 * arena (then the caller scans). */
static struct vdict_index *vdict_index(const struct vdict *cd)
{
	struct vdict *d = (struct vdict *)cd;   /* the index is a cache: logically const */
	struct vdict_index *ix = d->ix;
	size_t i;

	if (d->n < VDICT_INDEX_MIN || !d->a)
		return NULL;
	if (!ix || ix->owner != d || ix->keys != d->keys || ix->nidx > d->n || (d->n + 1) * 2 > ix->cap) {
		size_t cap = 64;

		while (cap < (d->n + 1) * 4)
			cap *= 2;
		if (!ix || ix->owner != d)
			ix = ast_arena_alloc(d->a, sizeof *ix);
		if (!ix->slot || ix->cap < cap)
			ix->slot = ast_arena_alloc(d->a, cap * sizeof *ix->slot);
		else
			cap = ix->cap;
		memset(ix->slot, 0xff, cap * sizeof *ix->slot);   /* -1 */
		ix->owner = d;
		ix->keys = d->keys;
		ix->cap = cap;
		ix->nidx = 0;
		d->ix = ix;
	}
	for (i = ix->nidx; i < d->n; i++)
		if (d->keys[i])
			vdict_index_put(ix, d->keys[i], (long)i);
	ix->nidx = d->n;
	return ix;
}

/* Position of the string key s[0..n) in an indexed dict, or -1. */
static long vdict_index_find(const struct vdict *d, const struct vdict_index *ix, const char *s, size_t n)
{
	size_t j, mask = ix->cap - 1;

	for (j = (size_t)vdict_hash(s, n) & mask; ix->slot[j] >= 0; j = (j + 1) & mask) {
		long i = ix->slot[j];
		const value_t *k = (size_t)i < d->n ? d->keys[i] : NULL;

		if (k && k->k == VK_STR && k->u.str.len == n && !memcmp(k->u.str.s, s, n))
			return i;
	}
	return -1;
}

int value_key_eq(const value_t *x, const value_t *y)
{
	size_t i;

	if (x == y)
		return 1;
	if (!x || !y)
		return 0;
	/* bool and int compare as numbers, as in Python */
	if ((x->k == VK_INT || x->k == VK_BOOL) && (y->k == VK_INT || y->k == VK_BOOL))
		return (x->k == VK_INT ? x->u.i : x->u.b) == (y->k == VK_INT ? y->u.i : y->u.b);
	if (x->k != y->k)
		return 0;
	switch (x->k) {
	case VK_NONE: return 1;
	case VK_FLOAT: return x->u.f == y->u.f;
	case VK_STR: return x->u.str.len == y->u.str.len && !memcmp(x->u.str.s, y->u.str.s, x->u.str.len);
	case VK_EXT: return !strcmp(x->u.ext, y->u.ext);
	case VK_TUPLE:
		if (x->u.seq->n != y->u.seq->n)
			return 0;
		for (i = 0; i < x->u.seq->n; i++)
			if (!value_key_eq(x->u.seq->items[i], y->u.seq->items[i]))
				return 0;
		return 1;
	case VK_CLASS: return x->u.cls == y->u.cls;
	case VK_INST: return x->u.inst == y->u.inst;
	case VK_FUNC: return x->u.fn == y->u.fn;
	default: return 0;
	}
}

static long vdict_find(const struct vdict *d, const value_t *key)
{
	struct vdict_index *ix;
	size_t i;

	if (!d)
		return -1;
	if (key && key->k == VK_STR && (ix = vdict_index(d)) != NULL)
		return vdict_index_find(d, ix, key->u.str.s, key->u.str.len);
	if (key && (ix = vdict_index(d)) != NULL) {
		size_t j, mask = ix->cap - 1;

		for (j = (size_t)slot_hash(key) & mask; ix->slot[j] >= 0; j = (j + 1) & mask) {
			long p = ix->slot[j];

			if ((size_t)p < d->n && value_key_eq(d->keys[p], key))
				return p;
		}
		return -1;
	}
	if (key && key->k == VK_STR) {
		/* value_key_eq() for a string key, without its call per key */
		const char *s = key->u.str.s;
		size_t n = key->u.str.len;

		for (i = 0; i < d->n; i++) {
			const value_t *k = d->keys[i];

			if (k == key || (k && k->k == VK_STR && k->u.str.len == n && !memcmp(k->u.str.s, s, n)))
				return (long)i;
		}
		return -1;
	}
	for (i = 0; i < d->n; i++)
		if (value_key_eq(d->keys[i], key))
			return (long)i;
	return -1;
}

static long vdict_finds(const struct vdict *d, const char *key)
{
	size_t i, n = strlen(key);
	struct vdict_index *ix;

	if (!d)
		return -1;
	if ((ix = vdict_index(d)) != NULL)
		return vdict_index_find(d, ix, key, n);
	for (i = 0; i < d->n; i++) {
		const value_t *k = d->keys[i];

		/* the first byte before memcmp(): most keys of a scope differ there */
		if (k->k == VK_STR && k->u.str.len == n && (n == 0 || k->u.str.s[0] == key[0]) &&
		    !memcmp(k->u.str.s, key, n))
			return (long)i;
	}
	return -1;
}

value_t *vdict_get(const struct vdict *d, const value_t *key)
{
	long i = vdict_find(d, key);

	return i < 0 ? NULL : d->vals[i];
}

value_t *vdict_gets(const struct vdict *d, const char *key)
{
	long i = vdict_finds(d, key);

	return i < 0 ? NULL : d->vals[i];
}

static void vdict_append(struct ast_arena *a, struct vdict *d, value_t *key, value_t *val)
{
	if (d->n == d->alloc) {  /* two arrays, one capacity */
		d->keys = ast_arena_grow(a, d->keys, d->n, d->alloc, 8, sizeof *d->keys);
		d->vals = ast_arena_grow(a, d->vals, d->n, d->alloc, 8, sizeof *d->vals);
		d->alloc = d->alloc ? d->alloc * 2 : 8;
	}
	d->keys[d->n] = key;
	d->vals[d->n] = val;
	d->n++;
}

void vdict_set(struct ast_arena *a, struct vdict *d, value_t *key, value_t *val)
{
	long i = vdict_find(d, key);

	if (i >= 0)
		d->vals[i] = val;
	else
		vdict_append(a, d, key, val);
}

void vdict_sets(struct ast_arena *a, struct vdict *d, const char *key, value_t *val)
{
	long i = vdict_finds(d, key);

	if (i >= 0)
		d->vals[i] = val;
	else
		vdict_append(a, d, v_str(a, key), val);
}

void vdict_truncated(struct vdict *d)
{
	/* rebuilt at the next lookup, in the memory it has (nidx > n) */
	if (d && d->ix && d->ix->owner == d)
		d->ix->nidx = SIZE_MAX;
}

int vdict_del(struct vdict *d, const value_t *key)
{
	long i = vdict_find(d, key);

	if (i < 0)
		return 0;
	memmove(d->keys + i, d->keys + i + 1, (d->n - (size_t)i - 1) * sizeof *d->keys);
	memmove(d->vals + i, d->vals + i + 1, (d->n - (size_t)i - 1) * sizeof *d->vals);
	d->n--;
	vdict_truncated(d);   /* positions moved */
	return 1;
}

int value_ext_is_class(const char *dotted)
{
	const char *last = strrchr(dotted, '.'), *p;

	last = last ? last + 1 : dotted;
	if (*last < 'A' || *last > 'Z')
		return 0;
	for (p = last; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			return 1;
	return 0;     /* ALL_CAPS: a constant */
}

/* An instance of a repo class is truthy when no class of its MRO defines
 * __bool__ or __len__ and every external base is one that defines neither
 * (a sampler or a trainer object: `x = sampler or Default()` keeps x). */
static const char *const plain_bases[] = { "abc.ABC", "object", "builtins.object", NULL };

static int plain_base(const value_t *b)
{
	const char *const *p;

	if (b->k == VK_CLASS)
		return 1;               /* a repo class: it is in the MRO itself */
	if (b->k != VK_EXT)
		return 0;
	for (p = plain_bases; *p; p++)
		if (!strcmp(b->u.ext, *p))
			return 1;
	return 0;
}

int value_plain_repo_obj(const value_t *v)
{
	const struct vclass *c = v && v->k == VK_INST && !v->u.inst->ext ? v->u.inst->cls : NULL;
	size_t i, j;

	if (!c || !c->mro || !c->nmro)
		return 0;
	for (i = 0; i < c->nmro; i++)
		for (j = 0; j < c->mro[i]->nbases; j++) {
			const value_t *b = c->mro[i]->bases[j];

			/* `class NestedTensor(object)`: the builtin name, which
			 * the job does not define (interp/eval.c reads it so) */
			if (b->k == VK_UNKNOWN && b->expr && !strcmp(b->expr, "object") && b->reason &&
			    !strcmp(b->reason, "a name that is not defined where it is used"))
				continue;
			if (!plain_base(b))
				return 0;
		}
	return 1;
}

static int repo_inst_truth(const struct vclass *c)
{
	size_t i, j;

	if (!c || !c->mro || !c->nmro)
		return -1;
	for (i = 0; i < c->nmro; i++) {
		const struct vclass *k = c->mro[i];

		if (!k->ns || vdict_gets(k->ns, "__bool__") || vdict_gets(k->ns, "__len__"))
			return -1;
		for (j = 0; j < k->nbases; j++)
			if (!plain_base(k->bases[j]))
				return -1;
	}
	return 1;
}

/* Outside classes whose instances are always true (no __bool__ nor
 * __len__): what ecg makes of them keeps no length to read. */
static int ext_inst_truthy(const char *ext)
{
	static const char *const truthy[] = { "argparse.Namespace", "functools.partial",
	                                      "importlib.machinery.ModuleSpec", "pathlib.Path", "torch.device" };
	size_t i;

	for (i = 0; ext && i < sizeof truthy / sizeof *truthy; i++)
		if (!strcmp(ext, truthy[i]))
			return 1;
	return 0;
}

static int truth_at(const value_t *v, int depth);

int value_truth(const value_t *v)
{
	return truth_at(v, 0);
}

static int truth_at(const value_t *v, int depth)
{
	if (!v)
		return -1;
	switch (v->k) {
	case VK_NONE: return 0;
	case VK_BOOL: return v->u.b;
	case VK_INT: return v->u.i != 0;
	case VK_FLOAT: return v->u.f != 0.0;
	case VK_STR: return v->u.str.len != 0;
	case VK_TUPLE: case VK_LIST: return v->u.seq->n != 0;
	case VK_DICT:
		/* empty as listed, but written under keys not known (or a
		 * comprehension over items not known): not known */
		return v->u.dict->n != 0 ? 1 : v->u.dict->anykey || v->u.dict->rep ? -1 : 0;
	case VK_FUNC: case VK_BOUND: case VK_CLASS: case VK_NS: case VK_BUILTIN:
		return 1;
	case VK_EXT:
		/* an external class is truthy; other external names may be flags
		 * or constants */
		return value_ext_is_class(v->u.ext) ? 1 : -1;
	case VK_INST:
		/* a module instance is truthy unless it defines __len__ ... a
		 * container's truth is its length */
		if (v->u.inst->mod == VM_CONTAINER)
			return v->u.inst->nchildren != 0;
		if (v->u.inst->mod != VM_NONE)
			return 1;
		if (!v->u.inst->cls && ext_inst_truthy(v->u.inst->ext))
			return 1;
		return v->u.inst->cls && !v->u.inst->cls->is_module ? repo_inst_truth(v->u.inst->cls) : -1;
	case VK_RANGE: {
		long long s = v->u.range.start, e = v->u.range.stop, st = v->u.range.step;

		return st > 0 ? s < e : s > e;
	}
	case VK_UNKNOWN:
		/* the objects of an undecided `if`'s two paths (interp/alts.c):
		 * the truth they both have (`act_layer or nn.ReLU` with
		 * act_layer nn.SiLU or a class of the library's by a version
		 * test is act_layer) */
		if (v->alts && depth < 32) {
			int a = truth_at(v->alts[0], depth + 1);

			if (a >= 0 && a == truth_at(v->alts[1], depth + 1))
				return a;
		}
		/* `x and None` (eval.c): falsy whatever x is */
		if (v->falsy_sure)
			return 0;
		/* facts (interp/facts.c): a str that starts with some text, or
		 * a str of digits, is not empty */
		return (v->str_prefix && *v->str_prefix) || v->nonneg == FACT_DIGITS ? 1 : -1;
	default: return -1;
	}
}

int value_is_known_scalar(const value_t *v)
{
	return v && (v->k == VK_NONE || v->k == VK_BOOL || v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_STR);
}

/* A tuple nests at most this deep in a key value_is_known_key() accepts. */
#define KNOWN_KEY_DEPTH 4

static int known_key_at(const value_t *v, int depth)
{
	size_t i;

	if (value_is_known_scalar(v))
		return 1;
	if (!v || v->k != VK_TUPLE || !v->u.seq || v->u.seq->unk_reason || depth >= KNOWN_KEY_DEPTH)
		return 0;
	for (i = 0; i < v->u.seq->n; i++)
		if (!known_key_at(v->u.seq->items[i], depth + 1))
			return 0;
	return 1;
}

int value_is_known_key(const value_t *v)
{
	return known_key_at(v, 0);
}

/* Past this the text is not made: a list of a million items, or a list
 * holding itself a thousand times eight levels deep ([l] * 1000), would
 * take seconds and gigabytes. */
#define REPR_MAX 65536

static void value_repr_into(buf_t *b, const value_t *v, int depth, int *ok)
{
	size_t i;

	if (depth > 8 || b->len > REPR_MAX || !*ok) {
		*ok = 0;
		return;
	}
	switch (v->k) {
	case VK_NONE: buf_addstr(b, "None"); break;
	case VK_BOOL: buf_addstr(b, v->u.b ? "True" : "False"); break;
	case VK_INT: buf_addf(b, "%lld", v->u.i); break;
	case VK_FLOAT: buf_addf(b, "%.17g", v->u.f); break;
	case VK_STR: buf_addch(b, '\''); buf_add(b, v->u.str.s, v->u.str.len); buf_addch(b, '\''); break;
	case VK_EXT: buf_addstr(b, v->u.ext); break;
	case VK_TUPLE: case VK_LIST:
		buf_addch(b, v->k == VK_TUPLE ? '(' : '[');
		for (i = 0; i < v->u.seq->n && *ok && b->len <= REPR_MAX; i++) {
			if (i)
				buf_addstr(b, ", ");
			value_repr_into(b, v->u.seq->items[i], depth + 1, ok);
		}
		if (v->k == VK_TUPLE && v->u.seq->n == 1)
			buf_addch(b, ',');
		buf_addch(b, v->k == VK_TUPLE ? ')' : ']');
		break;
	default:
		*ok = 0;
	}
}

const char *value_repr(struct ast_arena *a, const value_t *v)
{
	buf_t b;
	int ok = 1;
	const char *r;

	if (!v)
		return NULL;
	buf_init(&b);
	value_repr_into(&b, v, 0, &ok);
	r = ok && b.len <= REPR_MAX ? ast_arena_strndup(a, b.buf, b.len) : NULL;
	buf_free(&b);
	return r;
}

/* Is m reachable from c through children (c itself included)?  *left
 * bounds the visits: a shared submodule (tied layers) is walked again
 * from each parent; past the bound, taken for yes. */
static int vinst_reaches(const struct vinst *c, const struct vinst *m, int depth, long *left)
{
	size_t i;

	if (c == m || --*left < 0 || depth > 64)
		return 1;
	for (i = 0; i < c->nchildren; i++)
		if (vinst_reaches(c->children[i].inst, m, depth + 1, left))
			return 1;
	return 0;
}

/* m.<name> = child of a module: child registered (in its place when the
 * name is taken) -- unless child is m or holds m, which would make the
 * tree a cycle (`compiled._orig_mod = model` with the two one object):
 * PyTorch's modules() lists such a module once, and so does ecg, which
 * leaves the link out.  Never fails. */
void vinst_add_child(struct ast_arena *a, struct vinst *m, const char *name, struct vinst *child)
{
	size_t i;
	long left = 100000;

	if (child && vinst_reaches(child, m, 0, &left))
		return;

	for (i = 0; i < m->nchildren; i++) {
		if (!strcmp(m->children[i].name, name)) {
			m->children[i].inst = child;   /* re-assignment keeps its place */
			return;
		}
	}
	ARENA_GROW(a, m->children, m->nchildren, m->achildren, 8);
	m->children[m->nchildren].name = ast_arena_strndup(a, name, strlen(name));
	m->children[m->nchildren].inst = child;
	m->nchildren++;
}

struct vinst *vinst_child(const struct vinst *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nchildren; i++)
		if (!strcmp(m->children[i].name, name))
			return m->children[i].inst;
	return NULL;
}
