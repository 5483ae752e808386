/* strmap.h - the one string hash map of ecg (base layer).
 *
 * Open addressing over FNV-1a (util.h), linear probing, a power-of-two
 * capacity kept at most half full.  Keys are borrowed: the caller keeps
 * each key alive (an arena string, an interned copy it owns) as long as
 * the map.  Each slot carries the caller's value: a pointer and two small
 * integers, whatever the caller makes of them (flags, an index, a row).
 * Slot pointers are valid until the next strmap_put() (which may rehash).
 * Nothing fails: allocation exits on out of memory (util.h).
 */
#ifndef ECG_STRMAP_H
#define ECG_STRMAP_H

#include <stddef.h>

struct strmap_slot {
	const char *key;           /* NULL: an empty slot */
	const void *ptr;           /* the caller's; NULL in a new slot */
	int a, b;                  /* the caller's; 0 in a new slot */
};

struct strmap {
	struct strmap_slot *slot;  /* cap slots, xmalloc'd; NULL when empty */
	size_t cap, n;
	size_t first;              /* the capacity of the first table (0: 64) */
};

/* The slot holding key, or NULL (not there). */
struct strmap_slot *strmap_get(const struct strmap *m, const char *key);

/* The slot holding key, added when new (*added = 1, else 0; added may be
 * NULL).  A new slot's key is `key` itself: the caller may set it to its
 * own copy of the same string. */
struct strmap_slot *strmap_put(struct strmap *m, const char *key, int *added);

/* strmap_get() and strmap_put() of the n bytes at key, which need not end
 * with a NUL but must hold none (the caller keeps such bytes out of the
 * map).  A new slot's key is `key` itself, not NUL-ended: the caller sets
 * it to its own NUL-ended copy of the n bytes before the next call. */
struct strmap_slot *strmap_getn(const struct strmap *m, const char *key, size_t n);
struct strmap_slot *strmap_putn(struct strmap *m, const char *key, size_t n, int *added);

/* Release the slots (not the keys); the map is empty again. */
void strmap_free(struct strmap *m);

/* ptrmap: the same map keyed by address (an AST node, a Python object):
 * a key equals only itself, and the caller keeps what it points at alive
 * as long as the map.  The same slots, growth and contract as strmap;
 * it is here rather than a strmap because an address has no bytes to
 * hash or compare by content. */
struct ptrmap_slot {
	const void *key;           /* NULL: an empty slot */
	const void *ptr;           /* the caller's; NULL in a new slot */
	int a, b;                  /* the caller's; 0 in a new slot */
};

struct ptrmap {
	struct ptrmap_slot *slot;  /* cap slots, xmalloc'd; NULL when empty */
	size_t cap, n;
	size_t first;              /* the capacity of the first table (0: 64) */
};

/* The slot holding key, or NULL. */
struct ptrmap_slot *ptrmap_get(const struct ptrmap *m, const void *key);
/* The slot holding key (not NULL), added when new (*added = 1, else 0;
 * added may be NULL). */
struct ptrmap_slot *ptrmap_put(struct ptrmap *m, const void *key, int *added);
/* Release the slots (not what they point at); the map is empty again. */
void ptrmap_free(struct ptrmap *m);

#endif
