/* parsepool.c - see include/ecg/parsepool.h
 *
 * Wire format, worker to parent, per file: u32 k (position in idx[]),
 * u8 status, i32 line, i32 col, u32 message length, message bytes.
 * Integers in host order: both ends are the same binary.
 *
 * The workers are forks of the parent after its interpreter is started and
 * has parsed once (pyast_warm(): the ast classes exist): a worker starts in
 * about a millisecond instead of the ~10 ms of an interpreter start-up of
 * its own, which is what lets a small repository be split too.  The
 * parent forks with one thread (repo_open() joined libgit2's start-up
 * thread), outside any call into Python or libgit2: it holds the GIL and
 * no other lock, and the child goes on as that same thread with that same
 * interpreter, which needs nothing re-initialised.  So not
 * PyOS_BeforeFork()/PyOS_AfterFork_Child(), which are for forks from a
 * threaded interpreter: the latter re-creates the runtime's locks and
 * leaks the old ones (valgrind: "definitely lost" in every worker).
 *
 * The files are dealt one at a time, biggest first, from a counter the
 * workers share, so that they finish together however fast each one runs.
 * A worker answers for each file at once; one that dies costs the file it
 * was on (answered "died"), and another takes its place while files are
 * left.
 *
 * When the interpreter was started in two steps (pyrt_init_lazy()), the
 * workers parse with its core only.  That parses every file a complete
 * interpreter parses, to the same tree, but it has no codec registry: a
 * file that needs one (a coding cookie naming a codec that is not built
 * in) fails, and so may the error path of a file that fails anyway (its
 * message wants an error handler looked up).  So a worker with the core
 * only does not answer a failure: it sends PP_WIRE_RETRY, and once the
 * pool is done the parent completes its start-up and deals those files
 * again, to workers with a complete interpreter.  Their answers are the
 * ones a complete interpreter gives, for every file.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/parsepool.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

#define PP_MAX_JOBS 64
/* workers started in one pass, replacements of crashed ones included: the
 * owner of a file is kept in a byte */
#define PP_MAX_SPAWN 255
/* on the wire only: "parse this one again with a complete interpreter" */
#define PP_WIRE_RETRY 200

static int pp_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void pp_put(buf_t *b, uint32_t k, uint8_t status, int32_t line, int32_t col, const char *msg)
{
	uint32_t len = msg ? (uint32_t)strlen(msg) : 0;

	buf_add(b, &k, sizeof k);
	buf_add(b, &status, sizeof status);
	buf_add(b, &line, sizeof line);
	buf_add(b, &col, sizeof col);
	buf_add(b, &len, sizeof len);
	if (len)
		buf_add(b, msg, len);
}

/* What the workers of a pass share, in a MAP_SHARED mapping made before
 * the forks: the next position in the dealing order, taken with an atomic
 * add, and who took each file (worker number + 1; 0: nobody), read by the
 * parent once the workers are reaped. */
struct pp_shared {
	size_t next;
	unsigned char owner[];
};

struct pp_reader {
	int fd;
	pid_t pid;
	buf_t in;
	int open;
	int reaped;
	int status;       /* from waitpid(), once reaped */
};

/* One pass: a pool of workers over the files order[0..norder). */
struct pp_pass {
	repo_t *repo;
	const repo_file_t *files;
	const size_t *idx;
	size_t n;                   /* files in idx[] (results[], owner[]) */
	int worktree;
	size_t cap;
	const size_t *order;        /* positions k in idx[], biggest first */
	size_t norder;
	struct pp_shared *sh;
	size_t shsize;
	unsigned char *retry;       /* per k: answered PP_WIRE_RETRY */
	size_t nretry;
	struct pp_reader rd[PP_MAX_SPAWN];
	int started;                /* workers forked (rd[0..started)) */
	int open_count;             /* pipes not at end of file */
};

/* The worker, in the child, with (a copy of) the parent's interpreter:
 * takes the next file in the order until none is left.  Never returns. */
static void pp_worker(const struct pp_pass *P, int fd, int w)
{
	int partial = pyrt_partial();
	buf_t b;

	buf_init(&b);
	for (;;) {
		size_t pos = __atomic_fetch_add(&P->sh->next, 1, __ATOMIC_RELAXED);
		size_t k;
		const repo_file_t *f;
		char *data = NULL;
		size_t len = 0;
		PyObject *mod = NULL;
		pyast_error pe = { 0, 0, NULL };
		int rc;

		if (pos >= P->norder)
			break;
		k = P->order[pos];
		P->sh->owner[k] = (unsigned char)(w + 1);   /* w < PP_MAX_SPAWN */
		f = &P->files[P->idx[k]];
		if (repo_read(P->repo, f, P->worktree, P->cap, &data, &len) < 0) {
			pp_put(&b, (uint32_t)k, PP_READ, 0, 0, err_last());
			err_clear();
		} else {
			rc = pyast_parse(f->path, data, len, &mod, &pe);
			if (rc == 0) {
				Py_DECREF(mod);
				pp_put(&b, (uint32_t)k, PP_OK, 0, 0, NULL);
			} else if (partial) {
				pp_put(&b, (uint32_t)k, PP_WIRE_RETRY, 0, 0, NULL);
				pyast_error_clear(&pe);
				err_clear();
			} else if (rc > 0) {
				pp_put(&b, (uint32_t)k, PP_PARSE, (int32_t)pe.line, (int32_t)pe.col, pe.message);
				pyast_error_clear(&pe);
			} else {
				pp_put(&b, (uint32_t)k, PP_READ, 0, 0, err_last());
				err_clear();
			}
			free(data);
		}
		/* answered at once: a worker that crashes on its next file
		 * loses that file's answer only */
		if (pp_write_all(fd, b.buf, b.len) < 0)
			_exit(1);
		buf_reset(&b);
	}
	buf_free(&b);
	/* No finalisation: the process ends here, and what the interpreter
	 * holds goes with it. */
	_exit(0);
}

/* Consume whole messages from r->in. */
static void pp_consume(struct pp_pass *P, struct pp_reader *r, struct pp_result *res)
{
	size_t off = 0;
	const size_t head = 4 + 1 + 4 + 4 + 4;

	while (r->in.len - off >= head) {
		uint32_t k, len;
		uint8_t st;
		int32_t line, col;
		const char *p = r->in.buf + off;

		memcpy(&k, p, 4);
		memcpy(&st, p + 4, 1);
		memcpy(&line, p + 5, 4);
		memcpy(&col, p + 9, 4);
		memcpy(&len, p + 13, 4);
		if (r->in.len - off - head < len)
			break;
		if (k < P->n && st == PP_WIRE_RETRY) {
			if (!P->retry[k]++)
				P->nretry++;
		} else if (k < P->n && st <= PP_READ) {
			free(res[k].message);
			res[k].status = (enum pp_status)st;
			res[k].line = line;
			res[k].col = col;
			res[k].message = st == PP_OK ? NULL : xstrndup(p + head, len);
		}
		off += head + len;
	}
	if (off) {
		memmove(r->in.buf, r->in.buf + off, r->in.len - off);
		r->in.len -= off;
		r->in.buf[r->in.len] = 0;
	}
}

/* Fork worker number P->started.  0, or -1 with err_set(). */
static int pp_spawn(struct pp_pass *P)
{
	struct pp_reader *me = &P->rd[P->started];
	int p[2];
	pid_t pid;

	if (pipe(p) < 0)
		return err_set(ECG_EXIT_INTERNAL, "cannot make a pipe for a parser process: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return err_set(ECG_EXIT_INTERNAL, "cannot start a parser process: %s", strerror(e));
	}
	if (pid == 0) {
		int k;

		close(p[0]);
		for (k = 0; k < P->started; k++)
			if (P->rd[k].open)
				close(P->rd[k].fd);
		pp_worker(P, p[1], P->started);
	}
	close(p[1]);
	me->fd = p[0];
	me->pid = pid;
	me->open = 1;
	me->reaped = 0;
	me->status = 0;
	buf_init(&me->in);
	P->started++;
	P->open_count++;
	return 0;
}

static void pp_reap(struct pp_reader *r)
{
	while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->reaped = 1;
}

static int pp_failed(int status)
{
	return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

/* Run the pass with `jobs` workers.  Files it does not answer for keep
 * status PP_LOST, with the reason as message.  0, or -1 with err_set()
 * when workers could not be started. */
static int pp_run_pass(struct pp_pass *P, int jobs, struct pp_result *results)
{
	size_t i;
	int w, rc = -1;

	P->shsize = sizeof *P->sh + P->n + 1;
	P->sh = mmap(NULL, P->shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (P->sh == MAP_FAILED) {
		P->sh = NULL;
		return err_set(ECG_EXIT_INTERNAL, "cannot map memory shared with the parser processes: %s",
		               strerror(errno));
	}
	/* (fresh anonymous pages are zero: next = 0, owner[] = 0) */
	for (w = 0; w < jobs; w++)
		if (pp_spawn(P) < 0)
			goto cleanup;
	/* Drain every pipe as it fills, so that no worker blocks.  A worker
	 * that dies (a crash in the parser) costs the file it was on; while
	 * files are left, another one takes its place. */
	while (P->open_count > 0) {
		struct pollfd pf[PP_MAX_SPAWN];
		int np = 0, k, r, nstarted = P->started;

		for (k = 0; k < nstarted; k++) {
			if (!P->rd[k].open)
				continue;
			pf[np].fd = P->rd[k].fd;
			pf[np].events = POLLIN;
			pf[np].revents = 0;
			np++;
		}
		r = poll(pf, (nfds_t)np, -1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err_set(ECG_EXIT_INTERNAL, "waiting for the parser processes: %s", strerror(errno));
			goto cleanup;
		}
		for (k = 0, np = 0; k < nstarted; k++) {
			struct pp_reader *rk = &P->rd[k];
			char tmp[65536];
			ssize_t got;

			if (!rk->open)
				continue;
			if (!(pf[np++].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(rk->fd, tmp, sizeof tmp);
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0) {
				buf_add(&rk->in, tmp, (size_t)got);
				pp_consume(P, rk, results);
				continue;
			}
			close(rk->fd);
			rk->open = 0;
			P->open_count--;
			pp_reap(rk);
			if (pp_failed(rk->status) && __atomic_load_n(&P->sh->next, __ATOMIC_RELAXED) < P->norder &&
			    P->started < PP_MAX_SPAWN && pp_spawn(P) < 0)
				goto cleanup;
		}
	}
	rc = 0;
cleanup:
	for (w = 0; w < P->started; w++) {
		struct pp_reader *rw = &P->rd[w];

		if (rw->open) {
			close(rw->fd);
			kill(rw->pid, SIGKILL);
		}
		if (!rw->reaped)
			pp_reap(rw);
		buf_free(&rw->in);
	}
	for (i = 0; rc == 0 && i < P->norder; i++) {
		size_t k = P->order[i];
		struct pp_result *r = &results[k];
		int st;

		if (r->status != PP_LOST || r->message || P->retry[k])
			continue;
		w = P->sh->owner[k] - 1;
		st = w >= 0 && w < P->started ? P->rd[w].status : 0;
		/* a file its worker took and never answered for: why */
		if (w >= 0 && WIFSIGNALED(st))
			r->message = xasprintf("the parser process died (signal %d) before answering for this file",
			                       WTERMSIG(st));
		else if (w >= 0 && WIFEXITED(st) && WEXITSTATUS(st) != 0)
			r->message = xstrdup("the parser process failed before answering for this file");
		else
			r->message = xstrdup("the parser process gave no answer for this file");
	}
	munmap(P->sh, P->shsize);
	P->sh = NULL;
	return rc;
}

/* Biggest first; equal sizes in their given order. */
static const size_t *pp_sort_size;

static int pp_order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t sx = pp_sort_size[x], sy = pp_sort_size[y];

	if (sx != sy)
		return sx > sy ? -1 : 1;
	return (x > y) - (x < y);
}

/* A pass over order[0..norder), with no worker started yet. */
static void pp_pass_init(struct pp_pass *P, repo_t *repo, const repo_file_t *files, const size_t *idx,
                         size_t n, int worktree, size_t cap, const size_t *order, size_t norder,
                         unsigned char *retry)
{
	memset(P, 0, sizeof *P);
	P->repo = repo;
	P->files = files;
	P->idx = idx;
	P->n = n;
	P->worktree = worktree;
	P->cap = cap;
	P->order = order;
	P->norder = norder;
	P->retry = retry;
}

int parsepool_run(repo_t *repo, const repo_file_t *files, const size_t *idx, size_t n,
                  int worktree, size_t cap, int jobs, struct pp_result *results)
{
	struct pp_pass *P = NULL;
	unsigned char *retry = NULL;
	size_t *order = NULL, *size;
	size_t i, nretry;
	int rc = -1;

	if (jobs < 1)
		jobs = 1;
	if (jobs > PP_MAX_JOBS)
		jobs = PP_MAX_JOBS;
	if ((size_t)jobs > n)
		jobs = n ? (int)n : 1;
	for (i = 0; i < n; i++) {
		results[i].status = PP_LOST;
		results[i].line = results[i].col = 0;
		results[i].message = NULL;
	}
	/* Biggest first, so that the small files at the end fill the gaps
	 * between workers.  Which worker parses which file does not change
	 * any result. */
	order = xmalloc((n + 1) * sizeof *order);
	size = xmalloc((n + 1) * sizeof *size);
	for (i = 0; i < n; i++) {
		order[i] = i;
		size[i] = repo_file_size(repo, &files[idx[i]]);
	}
	pp_sort_size = size;
	qsort(order, n, sizeof *order, pp_order_cmp);
	pp_sort_size = NULL;
	free(size);
	retry = xcalloc(n + 1, 1);

	/* The first parse builds the ast classes: once, here (if the caller
	 * has not parsed yet), not in each worker. */
	pyast_warm();
	P = xcalloc(1, sizeof *P);
	pp_pass_init(P, repo, files, idx, n, worktree, cap, order, n, retry);
	if (pp_run_pass(P, jobs, results) < 0)
		goto cleanup;
	nretry = P->nretry;
	if (nretry) {
		/* what the core of the interpreter did not parse: again, with
		 * a complete one, in the same order (a subsequence of it) */
		size_t j = 0;

		if (pyrt_need_main() < 0)
			goto cleanup;
		for (i = 0; i < n; i++)
			if (retry[order[i]])
				order[j++] = order[i];
		memset(retry, 0, n + 1);
		pp_pass_init(P, repo, files, idx, n, worktree, cap, order, j, retry);
		if (pp_run_pass(P, (size_t)jobs > j ? (int)j : jobs, results) < 0)
			goto cleanup;
	}
	rc = 0;
cleanup:
	free(P);
	free(retry);
	free(order);
	return rc;
}

void parsepool_results_free(struct pp_result *results, size_t n)
{
	size_t i;

	for (i = 0; results && i < n; i++)
		free(results[i].message);
	free(results);
}
