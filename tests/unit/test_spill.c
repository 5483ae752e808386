/* test_spill.c - the external sort (spill.c): records given back sorted
 * (or in order), in memory and through many runs and merge passes, its
 * temporary file never visible in $TMPDIR, and its errors. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/spill.h"
#include "ecg/util.h"
#include "tap.h"

struct r {
	int64_t key;
	uint64_t seq;              /* the order added: a unique tie-break */
	char pad[24];
};

static int r_cmp(const void *a, const void *b)
{
	const struct r *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Add n records with keys in [0, range), read them back: whether they come
 * sorted (or in order without cmp), all of them, each once. */
static int round_trip(size_t n, int64_t range, int sorted, const char *tmp, size_t *runs, int *tmp_seen)
{
	struct spill *s = spill_new(sizeof(struct r), sorted ? r_cmp : NULL);
	struct r x, prev;
	uint64_t got = 0, sum_in = 0, sum_out = 0;
	size_t i;
	int ok_ = 1, rc;

	memset(&x, 0, sizeof x);
	for (i = 0; i < n; i++) {
		x.key = (int64_t)(next_rand() % (uint64_t)range) - range / 2;
		x.seq = i;
		sum_in += (uint64_t)x.key * 31 + x.seq;
		if (spill_add(s, &x) < 0) {
			spill_free(s);
			return 0;
		}
	}
	*tmp_seen = dir_entries(tmp);
	*runs = spill_runs(s);
	if (spill_sort(s) < 0) {
		spill_free(s);
		return 0;
	}
	while ((rc = spill_next(s, &x)) == 1) {
		if (got && (sorted ? r_cmp(&prev, &x) >= 0 : x.seq != prev.seq + 1))
			ok_ = 0;
		if (!got && !sorted && x.seq != 0)
			ok_ = 0;
		sum_out += (uint64_t)x.key * 31 + x.seq;
		prev = x;
		got++;
	}
	spill_free(s);
	return ok_ && rc == 0 && got == n && sum_in == sum_out;
}

int main(void)
{
	char tmp[] = "/tmp/ecg-test-spill-XXXXXX";
	size_t runs = 0;
	int seen = -1;
	struct spill *s;
	struct r x;

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("TMPDIR", tmp, 1);

	int good;

	good = round_trip(1000, 50, 1, tmp, &runs, &seen);
	ok(good && runs == 0, "1,000 records sorted in memory (%zu runs)", runs);
	ok(round_trip(0, 1, 1, tmp, &runs, &seen) && runs == 0, "no records: nothing to read");
	good = round_trip(100000, 1000, 1, tmp, &runs, &seen);
	ok(good && runs > 1, "100,000 records sorted through %zu runs of the 1 MiB buffer", runs);
	ok(seen == 0, "  the temporary file is never seen in $TMPDIR (%d entries)", seen);
	good = round_trip(100000, 1 << 30, 0, tmp, &runs, &seen);
	ok(good && runs > 1, "without a comparison: given back in the order added (%zu runs)", runs);

	/* a tiny buffer: thousands of runs, several passes of merges */
	setenv("ECG_SPILL_RUN_BYTES", "512", 1);
	good = round_trip(50000, 300, 1, tmp, &runs, &seen);
	ok(good && runs > SPILL_FANIN * SPILL_FANIN, "512-byte runs: 50,000 records through %zu runs, several merge passes", runs);
	ok(round_trip(SPILL_FANIN * 8 + 3, 5, 1, tmp, &runs, &seen), "  many equal keys, runs not a multiple of the fan-in");
	ok(round_trip(20000, 1 << 30, 0, tmp, &runs, &seen), "  and in the order added");
	ok(seen == 0, "  still nothing in $TMPDIR");

	/* the temporary file cannot be made: an error naming the directory */
	setenv("TMPDIR", "/nonexistent/ecg-spill-test", 1);
	s = spill_new(sizeof x, r_cmp);
	memset(&x, 0, sizeof x);
	{
		int rc = 0, i;

		for (i = 0; i < 100 && rc == 0; i++)
			rc = spill_add(s, &x);
		ok(rc < 0 && strstr(err_last(), "temporary file in /nonexistent/ecg-spill-test") &&
		   err_code() == ECG_EXIT_INTERNAL, "no temporary directory: -1, and the message names it (%s)", err_last());
		ok(spill_next(s, &x) < 0, "  and the spill stays failed");
	}
	spill_free(s);
	unsetenv("ECG_SPILL_RUN_BYTES");
	rmdir(tmp);
	return done();
}
