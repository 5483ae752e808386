/* arena.c - see include/ecg/arena.h: ecg's one arena (a chunked bump
 * allocator); the AST, the interpreter's values, the module tree and the
 * catalogue allocate from it.  Base layer: uses only util.c.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ecg/arena.h"
#include "ecg/util.h"

/* ------------------------------------------------------------------ arena */

#define ARENA_ALIGN 8                   /* int64_t, double, pointers */
/* Chunk sizes double from 2 KiB up to 32 KiB, then stay there.  A file's
 * tree takes about 4 bytes per byte of source (a 20 KB file about 80 KB),
 * so a big file wastes at most one half-used 32 KiB chunk (doubling all
 * the way wasted a third of the total), and an almost empty __init__.py
 * costs 2 KiB, not 32.  Blocks over 8 KiB (lists of 1,000+ items) get a
 * chunk of their own. */
#define ARENA_FIRST_CHUNK (2 * 1024)
#define ARENA_CHUNK (32 * 1024)
#define ARENA_BIG (ARENA_CHUNK / 4)

struct ast_chunk {
	struct ast_chunk *next;
	size_t size;                    /* of data[] */
	int mapped;                     /* a LARGE_CHUNK of its own mapping */
	/* data follows, ARENA_ALIGN-aligned */
};

/* ast_arena_new_large(): the interpreter's arena grows to hundreds of MB
 * on a large job, and faulting it in 4 KiB at a time (the kernel zeroing
 * each page) was a fifth of an analysis.  Its chunks are 2 MiB mappings,
 * aligned, that the kernel may back with transparent huge pages
 * (MADV_HUGEPAGE: where THP is "madvise" or "always"). */
#define LARGE_CHUNK ((size_t)2 << 20)

#define CHUNK_HDR ((sizeof(struct ast_chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

/* The kernel zeroing the pages of a new chunk, on first touch, was a fifth
 * of an analysis even on huge pages (~1 GB/s here).  A large arena has a
 * thread that maps and touches up to PREFAULT_AHEAD chunks ahead of need,
 * on another CPU while the interpreter runs; a chunk is taken from it when
 * one is ready, else mapped as before.  The thread starts with the
 * arena's second chunk (a small job never needs it) and only where there
 * is more than one CPU. */
#define PREFAULT_AHEAD 6

struct prefault {
	pthread_mutex_t mu;
	pthread_cond_t want;            /* a slot is free, or stop */
	pthread_t thread;
	void *ready[PREFAULT_AHEAD];    /* touched LARGE_CHUNK mappings */
	int n;
	int stop;
};

struct ast_arena {
	struct ast_chunk *chunks;       /* the current one first */
	char *cur, *end;                /* free space in the current chunk */
	size_t next_size;               /* of the next chunk, header included */
	size_t used;
	size_t reserved;
	int large;                      /* ast_arena_new_large() */
	int nlarge;                     /* LARGE_CHUNKs mapped so far */
	int pf_state;                   /* 0 not tried, 1 running, -1 none */
	struct prefault *pf;            /* when pf_state == 1 */
};

struct ast_arena *ast_arena_new(void)
{
	struct ast_arena *a = xcalloc(1, sizeof *a);

	a->next_size = ARENA_FIRST_CHUNK;
	return a;
}

struct ast_arena *ast_arena_new_large(void)
{
	struct ast_arena *a = ast_arena_new();

	a->large = 1;
	a->next_size = LARGE_CHUNK;
	return a;
}

/* A LARGE_CHUNK-aligned mapping of LARGE_CHUNK bytes (zero), or NULL. */
static void *large_map(void)
{
	char *p = mmap(NULL, 2 * LARGE_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)p + LARGE_CHUNK - 1) & ~(uintptr_t)(LARGE_CHUNK - 1);
	head = (size_t)(at - (uintptr_t)p);
	if (head)
		munmap(p, head);
	munmap((char *)at + LARGE_CHUNK, LARGE_CHUNK - head);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)at, LARGE_CHUNK, MADV_HUGEPAGE);   /* a hint: failure is fine */
#endif
	return (void *)at;
}

/* Touch every page of a fresh mapping (a write: a read would map the
 * shared zero page). */
static void touch_pages(char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 4096)
		((volatile char *)p)[i] = 0;
}

static void *prefault_main(void *arg)
{
	struct prefault *pf = arg;

	pthread_mutex_lock(&pf->mu);
	for (;;) {
		void *c;

		while (!pf->stop && pf->n == PREFAULT_AHEAD)
			pthread_cond_wait(&pf->want, &pf->mu);
		if (pf->stop)
			break;
		pthread_mutex_unlock(&pf->mu);
		c = large_map();
		if (c)
			touch_pages(c, LARGE_CHUNK);
		pthread_mutex_lock(&pf->mu);
		if (!c)
			break;                  /* out of memory: the arena maps its own */
		pf->ready[pf->n++] = c;
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

/* Start the thread: 0 when running, -1 when not (one CPU, no thread). */
static int prefault_start(struct ast_arena *a)
{
	struct prefault *pf;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpu < 2 || !(pf = calloc(1, sizeof *pf)))
		return -1;
	if (pthread_mutex_init(&pf->mu, NULL) != 0) {
		free(pf);
		return -1;
	}
	if (pthread_cond_init(&pf->want, NULL) != 0) {
		pthread_mutex_destroy(&pf->mu);
		free(pf);
		return -1;
	}
	if (pthread_create(&pf->thread, NULL, prefault_main, pf) != 0) {
		pthread_cond_destroy(&pf->want);
		pthread_mutex_destroy(&pf->mu);
		free(pf);
		return -1;
	}
	a->pf = pf;
	return 0;
}

/* A LARGE_CHUNK mapping for a large arena: a touched one from the thread
 * when it has one ready, else a fresh one (NULL when mmap() fails). */
static void *large_take(struct ast_arena *a)
{
	void *c = NULL;

	if (++a->nlarge == 2 && a->pf_state == 0)
		a->pf_state = prefault_start(a) == 0 ? 1 : -1;
	if (a->pf_state == 1) {
		struct prefault *pf = a->pf;

		pthread_mutex_lock(&pf->mu);
		if (pf->n) {
			c = pf->ready[0];
			memmove(pf->ready, pf->ready + 1, (size_t)(pf->n - 1) * sizeof pf->ready[0]);
			pf->n--;
		}
		pthread_cond_signal(&pf->want);
		pthread_mutex_unlock(&pf->mu);
	}
	return c ? c : large_map();
}

/* Stop the thread and unmap what it had ready. */
static void prefault_stop(struct ast_arena *a)
{
	struct prefault *pf = a->pf;
	int i;

	if (a->pf_state != 1)
		return;
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_cond_signal(&pf->want);
	pthread_mutex_unlock(&pf->mu);
	pthread_join(pf->thread, NULL);
	for (i = 0; i < pf->n; i++)
		munmap(pf->ready[i], LARGE_CHUNK);
	pthread_cond_destroy(&pf->want);
	pthread_mutex_destroy(&pf->mu);
	free(pf);
	a->pf = NULL;
	a->pf_state = -1;
}

void ast_arena_free(struct ast_arena *a)
{
	struct ast_chunk *c, *next;

	if (!a)
		return;
	prefault_stop(a);
	for (c = a->chunks; c; c = next) {
		next = c->next;
		if (c->mapped)
			munmap(c, LARGE_CHUNK);
		else
			free(c);
	}
	free(a);
}

/* Chunks come from calloc(), and nothing in them is handed out twice, so
 * everything ast_arena_alloc() returns is already zero. */
static struct ast_chunk *chunk_new(struct ast_arena *a, size_t size)
{
	struct ast_chunk *c;

	if (size > SIZE_MAX - CHUNK_HDR)
		size = SIZE_MAX - CHUNK_HDR;    /* xcalloc() reports it */
	if (a->large && CHUNK_HDR + size == LARGE_CHUNK && (c = large_take(a)) != NULL) {
		c->size = size;
		c->mapped = 1;
		a->reserved += LARGE_CHUNK;
		return c;
	}
	c = xcalloc(1, CHUNK_HDR + size);
	c->size = size;
	a->reserved += CHUNK_HDR + size;
	return c;
}

static void *arena_slow(struct ast_arena *a, size_t n)
{
	struct ast_chunk *c;
	size_t size;

	if (n > (a->large ? LARGE_CHUNK / 4 : ARENA_BIG)) {
		/* A big block gets a chunk of its own, kept behind the
		 * current one so that the current free space is not lost. */
		c = chunk_new(a, n);
		if (a->chunks) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			a->chunks = c;
			a->cur = a->end = (char *)c + CHUNK_HDR + n;
		}
		return (char *)c + CHUNK_HDR;
	}
	size = a->next_size;
	while (size - CHUNK_HDR < n)
		size *= 2;
	if (!a->large && a->next_size < ARENA_CHUNK)
		a->next_size *= 2;
	c = chunk_new(a, size - CHUNK_HDR);
	c->next = a->chunks;
	a->chunks = c;
	a->cur = (char *)c + CHUNK_HDR + n;
	a->end = (char *)c + CHUNK_HDR + c->size;
	return (char *)c + CHUNK_HDR;
}

void *ast_arena_alloc(struct ast_arena *a, size_t n)
{
	void *p;

	if (n > SIZE_MAX / 2)
		return arena_slow(a, n);        /* xcalloc() reports it */
	n = n ? (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1) : ARENA_ALIGN;
	a->used += n;
	if ((size_t)(a->end - a->cur) >= n) {
		p = a->cur;
		a->cur += n;
		return p;
	}
	return arena_slow(a, n);
}

char *ast_arena_strndup(struct ast_arena *a, const char *s, size_t n)
{
	char *p = ast_arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

size_t ast_arena_used(const struct ast_arena *a)
{
	return a->used;
}

size_t ast_arena_reserved(const struct ast_arena *a)
{
	return a->reserved + sizeof *a;
}

void *ast_arena_grow(struct ast_arena *a, void *arr, size_t n, size_t alloc, size_t first, size_t elsize)
{
	size_t na = alloc ? alloc * 2 : first;
	void *p;

	if (na < alloc || na > SIZE_MAX / elsize)
		na = SIZE_MAX;  /* ast_arena_alloc() reports it */
	else
		na *= elsize;
	p = ast_arena_alloc(a, na);
	if (n)
		memcpy(p, arr, n * elsize);
	return p;
}
