/* strmap.c - see include/ecg/strmap.h.  Base layer: uses only util.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/strmap.h"
#include "ecg/util.h"

static size_t home(const struct strmap *m, const char *key)
{
	return (size_t)fnv1a(FNV1A_INIT, key, strlen(key)) & (m->cap - 1);
}

/* key's slot, or the empty slot where it would go; cap > 0 */
static struct strmap_slot *probe(const struct strmap *m, const char *key)
{
	size_t i;

	for (i = home(m, key);; i = (i + 1) & (m->cap - 1)) {
		struct strmap_slot *s = &m->slot[i];

		if (!s->key || !strcmp(s->key, key))
			return s;
	}
}

struct strmap_slot *strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *s;

	if (!m->cap)
		return NULL;
	s = probe(m, key);
	return s->key ? s : NULL;
}

struct strmap_slot *strmap_put(struct strmap *m, const char *key, int *added)
{
	struct strmap_slot *s;

	if ((m->n + 1) * 2 > m->cap) {
		struct strmap nm = *m;
		size_t i;

		nm.cap = m->cap ? m->cap * 2 : m->first ? m->first : 64;
		nm.slot = xcalloc(nm.cap, sizeof *nm.slot);
		for (i = 0; i < m->cap; i++)
			if (m->slot[i].key)
				*probe(&nm, m->slot[i].key) = m->slot[i];
		free(m->slot);
		*m = nm;
	}
	s = probe(m, key);
	if (added)
		*added = !s->key;
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	return s;
}

void strmap_free(struct strmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}
