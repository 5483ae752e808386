/* strmap.c - see include/ecg/strmap.h: the one hash map, keyed by string
 * (strmap) or by address (ptrmap).  Base layer: uses only util.c. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/strmap.h"
#include "ecg/util.h"

static size_t home(const struct strmap *m, const char *key, size_t n)
{
	return (size_t)fnv1a(FNV1A_INIT, key, n) & (m->cap - 1);
}

/* The slot of the n bytes at key (no NUL among them), or the empty slot
 * where they would go; cap > 0.  strncmp() stops at a shorter slot key's
 * NUL, so slot[n] is read only when the slot key is n bytes or longer. */
static struct strmap_slot *probe(const struct strmap *m, const char *key, size_t n)
{
	size_t i;

	for (i = home(m, key, n);; i = (i + 1) & (m->cap - 1)) {
		struct strmap_slot *s = &m->slot[i];

		if (!s->key || (!strncmp(s->key, key, n) && s->key[n] == 0))
			return s;
	}
}

struct strmap_slot *strmap_getn(const struct strmap *m, const char *key, size_t n)
{
	struct strmap_slot *s;

	if (!m->cap)
		return NULL;
	s = probe(m, key, n);
	return s->key ? s : NULL;
}

struct strmap_slot *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_getn(m, key, strlen(key));
}

struct strmap_slot *strmap_putn(struct strmap *m, const char *key, size_t n, int *added)
{
	struct strmap_slot *s;

	if ((m->n + 1) * 2 > m->cap) {
		struct strmap nm = *m;
		size_t i;

		nm.cap = m->cap ? m->cap * 2 : m->first ? m->first : 64;
		nm.slot = xcalloc(nm.cap, sizeof *nm.slot);
		for (i = 0; i < m->cap; i++)
			if (m->slot[i].key)
				*probe(&nm, m->slot[i].key, strlen(m->slot[i].key)) = m->slot[i];
		free(m->slot);
		*m = nm;
	}
	s = probe(m, key, n);
	if (added)
		*added = !s->key;
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	return s;
}

struct strmap_slot *strmap_put(struct strmap *m, const char *key, int *added)
{
	return strmap_putn(m, key, strlen(key), added);
}

void strmap_free(struct strmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}

/* ------------------------------------------------------------------ by address */

/* key's slot, or the empty slot where it would go; cap > 0.  Addresses
 * are aligned: the low bits are dropped, the rest spread by Fibonacci
 * hashing. */
static struct ptrmap_slot *pprobe(const struct ptrmap *m, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key >> 4;
	size_t i;

	for (i = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct ptrmap_slot *s = &m->slot[i];

		if (!s->key || s->key == key)
			return s;
	}
}

struct ptrmap_slot *ptrmap_get(const struct ptrmap *m, const void *key)
{
	struct ptrmap_slot *s;

	if (!m->cap)
		return NULL;
	s = pprobe(m, key);
	return s->key ? s : NULL;
}

struct ptrmap_slot *ptrmap_put(struct ptrmap *m, const void *key, int *added)
{
	struct ptrmap_slot *s;

	if ((m->n + 1) * 2 > m->cap) {
		struct ptrmap nm = *m;
		size_t i;

		nm.cap = m->cap ? m->cap * 2 : m->first ? m->first : 64;
		nm.slot = xcalloc(nm.cap, sizeof *nm.slot);
		for (i = 0; i < m->cap; i++)
			if (m->slot[i].key)
				*pprobe(&nm, m->slot[i].key) = m->slot[i];
		free(m->slot);
		*m = nm;
	}
	s = pprobe(m, key);
	if (added)
		*added = !s->key;
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	return s;
}

void ptrmap_free(struct ptrmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}
