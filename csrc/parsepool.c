/* parsepool.c - see include/ecg/parsepool.h
 *
 * Wire format, worker to parent, per file: u32 k (position in idx[]),
 * u8 status, i32 line, i32 col, u32 message length, message bytes.
 * Integers in host order: both ends are the same binary.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/parsepool.h"
#include "ecg/pyast.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

#define PP_MAX_JOBS 64

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

/* The worker: never returns. */
static void pp_worker(int fd, repo_t *repo, const repo_file_t *files, const size_t *idx,
                      const size_t *mine, size_t nmine, int worktree, size_t cap, const char *helpers_dir)
{
	buf_t b;
	size_t i;

	buf_init(&b);
	if (pyrt_init(helpers_dir) < 0) {
		for (i = 0; i < nmine; i++)
			pp_put(&b, (uint32_t)mine[i], PP_READ, 0, 0, err_last());
		(void)pp_write_all(fd, b.buf, b.len);
		_exit(1);
	}
	for (i = 0; i < nmine; i++) {
		const repo_file_t *f = &files[idx[mine[i]]];
		char *data = NULL;
		size_t len = 0;
		PyObject *mod = NULL;
		pyast_error pe = { 0, 0, NULL };
		int rc;

		if (repo_read(repo, f, worktree, cap, &data, &len) < 0) {
			pp_put(&b, (uint32_t)mine[i], PP_READ, 0, 0, err_last());
			err_clear();
		} else {
			rc = pyast_parse(f->path, data, len, &mod, &pe);
			if (rc == 0) {
				Py_DECREF(mod);
				pp_put(&b, (uint32_t)mine[i], PP_OK, 0, 0, NULL);
			} else if (rc > 0) {
				pp_put(&b, (uint32_t)mine[i], PP_PARSE, (int32_t)pe.line, (int32_t)pe.col, pe.message);
				pyast_error_clear(&pe);
			} else {
				pp_put(&b, (uint32_t)mine[i], PP_READ, 0, 0, err_last());
				err_clear();
			}
			free(data);
		}
		if (b.len > (64u << 10)) {
			if (pp_write_all(fd, b.buf, b.len) < 0)
				_exit(1);
			buf_reset(&b);
		}
	}
	if (pp_write_all(fd, b.buf, b.len) < 0)
		_exit(1);
	/* No finalisation: the process ends here, and what the interpreter
	 * holds goes with it. */
	_exit(0);
}

struct pp_reader {
	int fd;
	pid_t pid;
	buf_t in;
	int open;
};

/* Consume whole messages from r->in. */
static void pp_consume(struct pp_reader *r, struct pp_result *res, size_t n)
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
		if (k < n && st <= PP_READ) {
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

int parsepool_run(repo_t *repo, const repo_file_t *files, const size_t *idx, size_t n,
                  int worktree, size_t cap, int jobs, const char *helpers_dir,
                  struct pp_result *results)
{
	struct pp_reader rd[PP_MAX_JOBS];
	size_t *order = NULL, **share = NULL, *nshare = NULL;
	unsigned long long *load = NULL;
	size_t i, j;
	int w, started = 0, rc = -1, open_count;

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
	/* Deal the files out biggest first, each to the least loaded worker:
	 * deterministic, and balanced by bytes. */
	order = xmalloc((n + 1) * sizeof *order);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++) {       /* insertion sort by size, descending, stable */
		size_t x = order[i];

		for (j = i; j > 0 && files[idx[order[j - 1]]].size < files[idx[x]].size; j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	share = xcalloc((size_t)jobs, sizeof *share);
	nshare = xcalloc((size_t)jobs, sizeof *nshare);
	load = xcalloc((size_t)jobs, sizeof *load);
	for (w = 0; w < jobs; w++)
		share[w] = xmalloc((n + 1) * sizeof **share);
	for (i = 0; i < n; i++) {
		int best = 0;

		for (w = 1; w < jobs; w++)
			if (load[w] < load[best])
				best = w;
		share[best][nshare[best]++] = order[i];
		load[best] += files[idx[order[i]]].size + 512;   /* per-file overhead */
	}
	fflush(NULL);
	for (w = 0; w < jobs; w++) {
		int p[2];
		pid_t pid;

		if (pipe(p) < 0) {
			err_set(ECG_EXIT_INTERNAL, "cannot make a pipe for a parser process: %s", strerror(errno));
			goto cleanup;
		}
		pid = fork();
		if (pid < 0) {
			close(p[0]);
			close(p[1]);
			err_set(ECG_EXIT_INTERNAL, "cannot start a parser process: %s", strerror(errno));
			goto cleanup;
		}
		if (pid == 0) {
			int k;

			close(p[0]);
			for (k = 0; k < started; k++)
				close(rd[k].fd);
			pp_worker(p[1], repo, files, idx, share[w], nshare[w], worktree, cap, helpers_dir);
		}
		close(p[1]);
		rd[started].fd = p[0];
		rd[started].pid = pid;
		rd[started].open = 1;
		buf_init(&rd[started].in);
		started++;
	}
	/* Drain every pipe as it fills, so that no worker blocks. */
	open_count = started;
	while (open_count > 0) {
		struct pollfd pf[PP_MAX_JOBS];
		int np = 0, k, r;

		for (k = 0; k < started; k++) {
			if (!rd[k].open)
				continue;
			pf[np].fd = rd[k].fd;
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
		for (k = 0, np = 0; k < started; k++) {
			char tmp[65536];
			ssize_t got;

			if (!rd[k].open)
				continue;
			if (!(pf[np++].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(rd[k].fd, tmp, sizeof tmp);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(rd[k].fd);
				rd[k].open = 0;
				open_count--;
				continue;
			}
			buf_add(&rd[k].in, tmp, (size_t)got);
			pp_consume(&rd[k], results, n);
		}
	}
	rc = 0;
cleanup:
	for (w = 0; w < started; w++) {
		int status = 0;

		if (rd[w].open) {
			close(rd[w].fd);
			kill(rd[w].pid, SIGKILL);
		}
		while (waitpid(rd[w].pid, &status, 0) < 0 && errno == EINTR)
			;
		buf_free(&rd[w].in);
		if (rc == 0 && (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))) {
			/* its unanswered files say so */
			for (i = 0; i < nshare[w]; i++) {
				struct pp_result *r = &results[share[w][i]];

				if (r->status == PP_LOST && !r->message)
					r->message = WIFSIGNALED(status)
					             ? xasprintf("the parser process died (signal %d) before answering for this file",
					                         WTERMSIG(status))
					             : xasprintf("the parser process failed before answering for this file");
			}
		}
	}
	for (i = 0; rc == 0 && i < n; i++)
		if (results[i].status == PP_LOST && !results[i].message)
			results[i].message = xstrdup("the parser process gave no answer for this file");
	for (w = 0; w < jobs; w++)
		free(share ? share[w] : NULL);
	free(share);
	free(nshare);
	free(load);
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
