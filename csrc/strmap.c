/* strmap.c - see include/ecg/strmap.h: the one hash map, keyed by string
 * (strmap) or by address (ptrmap).  Base layer: uses only util.c. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/strmap.h"
#include "ecg/util.h"

/* The map's one body, stamped out for each key kind (as klib's khash
 * does): PROBE(m, key, n) finds key's slot or the empty slot where it
 * would go (cap > 0); KEYLEN(key) gives a stored key's n back for the
 * rehash.  Everything else -- growth at half full, the first capacity,
 * the slot a put fills -- is the same for both maps. */
#define MAP_BODY(MAP, SLOT, KEY_T, PROBE, KEYLEN)                                    \
	static struct SLOT *MAP##_get_in(const struct MAP *m, KEY_T key, size_t n)        \
	{                                                                                 \
		struct SLOT *s;                                                               \
                                                                                      \
		if (!m->cap)                                                                  \
			return NULL;                                                              \
		s = PROBE(m, key, n);                                                         \
		return s->key ? s : NULL;                                                     \
	}                                                                                 \
                                                                                      \
	static struct SLOT *MAP##_put_in(struct MAP *m, KEY_T key, size_t n, int *added) \
	{                                                                                 \
		struct SLOT *s;                                                               \
                                                                                      \
		if ((m->n + 1) * 2 > m->cap) {                                                \
			struct MAP nm = *m;                                                       \
			size_t i;                                                                 \
                                                                                      \
			nm.cap = m->cap ? m->cap * 2 : m->first ? m->first : 64;                  \
			nm.slot = xcalloc(nm.cap, sizeof *nm.slot);                               \
			for (i = 0; i < m->cap; i++)                                              \
				if (m->slot[i].key)                                                   \
					*PROBE(&nm, m->slot[i].key, KEYLEN(m->slot[i].key)) = m->slot[i]; \
			free(m->slot);                                                            \
			*m = nm;                                                                  \
		}                                                                             \
		s = PROBE(m, key, n);                                                         \
		if (added)                                                                    \
			*added = !s->key;                                                         \
		if (!s->key) {                                                                \
			s->key = key;                                                             \
			m->n++;                                                                   \
		}                                                                             \
		return s;                                                                     \
	}                                                                                 \
                                                                                      \
	void MAP##_free(struct MAP *m)                                                    \
	{                                                                                 \
		free(m->slot);                                                                \
		m->slot = NULL;                                                               \
		m->cap = m->n = 0;                                                            \
	}

/* ------------------------------------------------------------------ by string */

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

MAP_BODY(strmap, strmap_slot, const char *, probe, strlen)

struct strmap_slot *strmap_getn(const struct strmap *m, const char *key, size_t n)
{
	return strmap_get_in(m, key, n);
}

struct strmap_slot *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_get_in(m, key, strlen(key));
}

struct strmap_slot *strmap_putn(struct strmap *m, const char *key, size_t n, int *added)
{
	return strmap_put_in(m, key, n, added);
}

struct strmap_slot *strmap_put(struct strmap *m, const char *key, int *added)
{
	return strmap_put_in(m, key, strlen(key), added);
}

/* ------------------------------------------------------------------ by address */

/* key's slot, or the empty slot where it would go; cap > 0.  Addresses
 * are aligned: the low bits are dropped, the rest spread by Fibonacci
 * hashing.  n is not used: an address is its own length. */
static struct ptrmap_slot *pprobe(const struct ptrmap *m, const void *key, size_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)key >> 4;
	size_t i;

	(void)n;
	for (i = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct ptrmap_slot *s = &m->slot[i];

		if (!s->key || s->key == key)
			return s;
	}
}

#define ADDRLEN(key) ((void)(key), (size_t)0)
MAP_BODY(ptrmap, ptrmap_slot, const void *, pprobe, ADDRLEN)

struct ptrmap_slot *ptrmap_get(const struct ptrmap *m, const void *key)
{
	return ptrmap_get_in(m, key, 0);
}

struct ptrmap_slot *ptrmap_put(struct ptrmap *m, const void *key, int *added)
{
	return ptrmap_put_in(m, key, 0, added);
}
