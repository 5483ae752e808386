/* spill.c - see include/ecg/spill.h: fixed-size records sorted outside
 * memory (runs of a bounded buffer, k-way merges).
 */
#define _GNU_SOURCE 1           /* O_TMPFILE (Linux), where <fcntl.h> has it */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/spill.h"
#include "ecg/util.h"

/* A run in the temporary file: n records from byte off. */
struct run {
	off_t off;
	uint64_t n;
};

/* One run being read: its records left and a buffer of the next ones. */
struct reader {
	off_t off;                 /* the next byte of the file to read */
	uint64_t left;             /* records not yet in buf */
	char *buf;
	size_t have, at;           /* records in buf, the current one */
};

struct spill {
	size_t rs;                 /* record size */
	spill_cmp cmp;
	size_t cap;                /* records the run buffer holds */
	char *buf;                 /* the run buffer (NULL once flushed for reading) */
	size_t nbuf;
	int fd;                    /* the temporary file, -1 none yet */
	off_t end;                 /* its size */
	struct run *runs;
	size_t nruns, aruns;
	uint64_t n;
	int sorted, failed;
	size_t mem_at;             /* reading from buf: the next record */
	struct reader *rd;         /* reading from the file: the runs merged */
	size_t nrd;
	size_t *heap, nheap;       /* reader indexes, the least record first */
};

static const char *tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

static int io_fail(struct spill *s, const char *what, int e)
{
	s->failed = 1;
	return err_set(ECG_EXIT_INTERNAL, "temporary file in %s: %s%s%s", tmpdir(), what, e ? ": " : "",
	               e ? strerror(e) : "");
}

/* A new temporary file that has no name: its descriptor, or -1.  Where
 * the kernel and the file system make unnamed files (O_TMPFILE), no name
 * ever exists, so nothing is left even if the process is killed at once;
 * elsewhere a mkstemp() file unlinked at once. */
static int tmp_open(struct spill *s)
{
	char *path;
	int fd, e;

#ifdef O_TMPFILE
	fd = open(tmpdir(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	path = xasprintf("%s/ecg-spill-XXXXXX", tmpdir());
	fd = mkstemp(path);
	e = errno;

	if (fd >= 0 && unlink(path) < 0) {
		e = errno;
		close(fd);
		fd = -1;
	}
	free(path);
	if (fd < 0)
		return io_fail(s, "cannot create it", e);
	return fd;
}

static int write_all(struct spill *s, int fd, const char *p, size_t n, off_t *at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, *at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return io_fail(s, "cannot write it", w < 0 ? errno : ENOSPC);
		p += w;
		n -= (size_t)w;
		*at += w;
	}
	return 0;
}

static int read_all(struct spill *s, char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t r = pread(s->fd, p, n, at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return io_fail(s, "cannot read it back", r < 0 ? errno : 0);
		p += r;
		n -= (size_t)r;
		at += r;
	}
	return 0;
}

struct spill *spill_new(size_t recsize, spill_cmp cmp)
{
	struct spill *s = xcalloc(1, sizeof *s);
	const char *env = getenv("ECG_SPILL_RUN_BYTES");
	size_t bytes = SPILL_RUN_BYTES;

	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (!*end && v > 0 && v <= (1ul << 30))
			bytes = (size_t)v;
	}
	s->rs = recsize ? recsize : 1;
	s->cmp = cmp;
	s->cap = bytes / s->rs;
	if (s->cap < 2)
		s->cap = 2;
	s->fd = -1;
	return s;
}

uint64_t spill_count(const struct spill *s)
{
	return s->n;
}

size_t spill_runs(const struct spill *s)
{
	return s->nruns;
}

/* Sort the run buffer and append it to the file as a run. */
static int flush_run(struct spill *s)
{
	if (!s->nbuf)
		return 0;
	if (s->fd < 0 && (s->fd = tmp_open(s)) < 0)
		return -1;
	if (s->cmp)
		qsort(s->buf, s->nbuf, s->rs, s->cmp);
	GROW(s->runs, s->aruns, s->nruns + 1);
	s->runs[s->nruns].off = s->end;
	s->runs[s->nruns].n = s->nbuf;
	if (write_all(s, s->fd, s->buf, s->nbuf * s->rs, &s->end) < 0)
		return -1;
	s->nruns++;
	s->nbuf = 0;
	return 0;
}

int spill_add(struct spill *s, const void *rec)
{
	if (s->failed || s->sorted)
		return s->failed ? -1 : err_set(ECG_EXIT_INTERNAL, "spill_add after spill_sort");
	if (!s->buf)
		s->buf = xmalloc(s->cap * s->rs);
	if (s->nbuf == s->cap && flush_run(s) < 0)
		return -1;
	memcpy(s->buf + s->nbuf * s->rs, rec, s->rs);
	s->nbuf++;
	s->n++;
	return 0;
}

/* ------------------------------------------------------------------ merging */

static const char *cur(const struct spill *s, size_t r)
{
	return s->rd[r].buf + s->rd[r].at * s->rs;
}

/* Make reader r's current record available: 1, 0 run done, -1 error. */
static int fill(struct spill *s, size_t r)
{
	struct reader *R = &s->rd[r];
	size_t per = SPILL_READ_BYTES / s->rs, k;

	if (R->at < R->have)
		return 1;
	if (!R->left)
		return 0;
	if (per < 1)
		per = 1;
	k = R->left < per ? (size_t)R->left : per;
	if (!R->buf)
		R->buf = xmalloc(per * s->rs);
	if (read_all(s, R->buf, k * s->rs, R->off) < 0)
		return -1;
	R->off += (off_t)(k * s->rs);
	R->left -= k;
	R->have = k;
	R->at = 0;
	return 1;
}

static int less(const struct spill *s, size_t a, size_t b)
{
	int c = s->cmp(cur(s, a), cur(s, b));

	return c < 0 || (c == 0 && a < b);
}

static void sift_down(struct spill *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < s->nheap && less(s, s->heap[l], s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && less(s, s->heap[l + 1], s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

static void readers_free(struct spill *s)
{
	size_t i;

	for (i = 0; i < s->nrd; i++)
		free(s->rd[i].buf);
	free(s->rd);
	free(s->heap);
	s->rd = NULL;
	s->heap = NULL;
	s->nrd = s->nheap = 0;
}

/* Readers over runs [from, from + n) and their heap. */
static int readers_open(struct spill *s, size_t from, size_t n)
{
	size_t i;

	s->rd = xcalloc(n ? n : 1, sizeof *s->rd);
	s->heap = xmalloc((n ? n : 1) * sizeof *s->heap);
	s->nrd = n;
	s->nheap = 0;
	for (i = 0; i < n; i++) {
		int f;

		s->rd[i].off = s->runs[from + i].off;
		s->rd[i].left = s->runs[from + i].n;
		if ((f = fill(s, i)) < 0)
			return -1;
		if (f)
			s->heap[s->nheap++] = i;
	}
	for (i = s->nheap / 2; i-- > 0;)
		sift_down(s, i);
	return 0;
}

/* The least record of the merge copied to rec: 1, 0 done, -1 error. */
static int merge_next(struct spill *s, void *rec)
{
	size_t r;
	int f;

	if (!s->nheap)
		return 0;
	r = s->heap[0];
	memcpy(rec, cur(s, r), s->rs);
	s->rd[r].at++;
	if ((f = fill(s, r)) < 0)
		return -1;
	if (!f)
		s->heap[0] = s->heap[--s->nheap];
	sift_down(s, 0);
	return 1;
}

/* One pass: every SPILL_FANIN runs merged into one run of a new file. */
static int merge_pass(struct spill *s)
{
	struct run *out = NULL;
	size_t nout = 0, aout = 0, i;
	int fd = tmp_open(s), rc = -1;
	off_t end = 0;
	char *wb = xmalloc(SPILL_READ_BYTES > s->rs ? SPILL_READ_BYTES : s->rs);
	size_t per = SPILL_READ_BYTES / s->rs ? SPILL_READ_BYTES / s->rs : 1;

	if (fd < 0)
		goto out;
	for (i = 0; i < s->nruns; i += SPILL_FANIN) {
		size_t n = s->nruns - i < SPILL_FANIN ? s->nruns - i : SPILL_FANIN, k = 0;
		int f;

		if (readers_open(s, i, n) < 0)
			goto out;
		GROW(out, aout, nout + 1);
		out[nout].off = end;
		out[nout].n = 0;
		while ((f = merge_next(s, wb + k * s->rs)) == 1) {
			out[nout].n++;
			if (++k == per) {
				if (write_all(s, fd, wb, k * s->rs, &end) < 0)
					goto out;
				k = 0;
			}
		}
		if (f < 0 || (k && write_all(s, fd, wb, k * s->rs, &end) < 0))
			goto out;
		readers_free(s);
		nout++;
	}
	close(s->fd);
	s->fd = fd;
	fd = -1;
	s->end = end;
	free(s->runs);
	s->runs = out;
	s->nruns = nout;
	s->aruns = aout;
	out = NULL;
	rc = 0;
out:
	readers_free(s);
	if (fd >= 0)
		close(fd);
	free(out);
	free(wb);
	return rc;
}

int spill_sort(struct spill *s)
{
	if (s->failed)
		return -1;
	if (s->sorted)
		return 0;
	s->sorted = 1;
	if (!s->nruns) {
		/* everything is in the buffer: sort it there */
		if (s->cmp && s->nbuf > 1)
			qsort(s->buf, s->nbuf, s->rs, s->cmp);
		return 0;
	}
	if (flush_run(s) < 0)
		return -1;
	free(s->buf);
	s->buf = NULL;
	if (!s->cmp) {
		/* the runs follow each other in the file: one run of it all */
		s->runs[0].n = s->n;
		s->nruns = 1;
		return readers_open(s, 0, 1);
	}
	while (s->nruns > SPILL_FANIN)
		if (merge_pass(s) < 0)
			return -1;
	return readers_open(s, 0, s->nruns);
}

int spill_next(struct spill *s, void *rec)
{
	int r;

	if (s->failed)
		return -1;
	if (!s->sorted && spill_sort(s) < 0)
		return -1;
	if (!s->nruns) {
		if (!s->buf || s->mem_at >= s->nbuf)
			return 0;
		memcpy(rec, s->buf + s->mem_at++ * s->rs, s->rs);
		return 1;
	}
	if (!s->cmp) {
		if ((r = fill(s, 0)) <= 0)
			return r;
		memcpy(rec, cur(s, 0), s->rs);
		s->rd[0].at++;
		return 1;
	}
	return merge_next(s, rec);
}

void spill_free(struct spill *s)
{
	if (!s)
		return;
	readers_free(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s->runs);
	free(s->buf);
	free(s);
}
