/* test_values.c - the dict's index agrees with value_key_eq() for every
 * kind of key, and keeps an insert of 100,000 int keys linear. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ecg/ast.h"
#include "ecg/values.h"
#include "tap.h"

static value_t *tup(struct ast_arena *a, value_t *x, value_t *y)
{
	value_t *t = v_seq(a, VK_TUPLE, 2);

	vseq_push(a, t->u.seq, x);
	vseq_push(a, t->u.seq, y);
	return t;
}

/* a chain of n nested pairs: ((((0, 0), 1), 2) ...) */
static value_t *chain(struct ast_arena *a, int n)
{
	value_t *t = v_int(a, 0);
	int i;

	for (i = 0; i < n; i++)
		t = tup(a, t, v_int(a, i));
	return t;
}

static long at(const struct vdict *d, const value_t *key)
{
	value_t *v = vdict_get(d, key);

	return v && v->k == VK_INT ? (long)v->u.i : -1;
}

int main(void)
{
	struct ast_arena *a = ast_arena_new();
	struct vdict *d = vdict_new(a);
	value_t *unk = v_unknown(a, "x", "a value not known"), *k;
	char name[32];
	long i, n0;
	clock_t t0;

	/* more than VDICT_INDEX_MIN keys of every kind: the index is used */
	for (i = 0; i < 100; i++)
		vdict_set(a, d, v_int(a, i), v_int(a, i));
	for (i = 0; i < 50; i++) {
		snprintf(name, sizeof name, "k%ld", i);
		vdict_set(a, d, v_str(a, name), v_int(a, 1000 + i));
	}
	for (i = 0; i < 30; i++)
		vdict_set(a, d, tup(a, v_int(a, i), v_str(a, "t")), v_int(a, 2000 + i));
	vdict_set(a, d, v_float(a, 0.0), v_int(a, 3000));
	vdict_set(a, d, v_float(a, 2.5), v_int(a, 3001));
	vdict_set(a, d, v_none(a), v_int(a, 3002));
	vdict_set(a, d, v_ext(a, "torch.nn.Linear"), v_int(a, 3003));
	vdict_set(a, d, unk, v_int(a, 3004));
	vdict_set(a, d, chain(a, 400), v_int(a, 3005));
	n0 = (long)d->n;

	ok(at(d, v_int(a, 42)) == 42, "an int key, by value");
	ok(at(d, v_bool(a, 1)) == 1 && at(d, v_bool(a, 0)) == 0, "True and False find 1 and 0 (they are equal in Python)");
	ok(at(d, v_str(a, "k7")) == 1007 && vdict_gets(d, "k49") && vdict_gets(d, "k49")->u.i == 1049,
	   "a string key, by value and by C string");
	ok(at(d, tup(a, v_int(a, 3), v_str(a, "t"))) == 2003, "a tuple key, by its items");
	ok(at(d, tup(a, v_bool(a, 1), v_str(a, "t"))) == 2001, "a tuple with True finds the one with 1");
	ok(at(d, tup(a, v_int(a, 3), v_str(a, "u"))) == -1, "a tuple with another item is not found");
	ok(at(d, v_float(a, -0.0)) == 3000 && at(d, v_float(a, 2.5)) == 3001, "floats by value (-0.0 is 0.0)");
	ok(at(d, v_none(a)) == 3002 && at(d, v_ext(a, "torch.nn.Linear")) == 3003, "None, and an external name by its text");
	ok(at(d, unk) == 3004 && at(d, v_unknown(a, "x", "a value not known")) == -1,
	   "an unknown key is found by identity only");
	ok(at(d, chain(a, 400)) == 3005, "a tuple nested 400 deep, by its items (past what its hash reads)");
	ok(at(d, chain(a, 399)) == -1, "  and one level less is another key");

	vdict_set(a, d, v_int(a, 7), v_int(a, 77));
	vdict_set(a, d, v_bool(a, 1), v_int(a, 11));
	ok((long)d->n == n0 && at(d, v_int(a, 7)) == 77 && at(d, v_int(a, 1)) == 11,
	   "setting an equal key replaces its value, no second entry");
	ok(vdict_del(d, v_int(a, 0)) && at(d, v_int(a, 0)) == -1 && at(d, v_int(a, 99)) == 99 &&
	   at(d, tup(a, v_int(a, 29), v_str(a, "t"))) == 2029 && at(d, v_str(a, "k0")) == 1000,
	   "after a delete (positions move) every other key is still found");

	/* 100,000 int keys, then tuple keys: a scan per insert took minutes */
	d = vdict_new(a);
	t0 = clock();
	for (i = 0; i < 100000; i++)
		vdict_set(a, d, v_int(a, i), v_int(a, i));
	for (i = 0; i < 100000; i++)
		vdict_set(a, d, tup(a, v_int(a, i % 1000), v_int(a, i / 1000)), v_int(a, i));
	k = tup(a, v_int(a, 345), v_int(a, 67));
	ok(d->n == 200000 && at(d, v_int(a, 99999)) == 99999 && at(d, k) == 67345, "200,000 int and tuple keys, all kept");
	ok((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0, "  inserted in linear time (%.2f s of CPU < 5 s)",
	   (double)(clock() - t0) / CLOCKS_PER_SEC);

	ast_arena_free(a);
	return done();
}
