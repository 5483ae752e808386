/* arena.h - the one arena of ecg (base layer): a chunked bump allocator.
 * Allocation is a pointer increment, and the whole arena is released in
 * one call.  Allocation cannot fail (out of memory exits, as xmalloc()).
 * Everything it hands out is zeroed.  (The ast_ prefix is historical: the
 * AST was its first user; values, the module tree, the interpreter and the
 * catalogue allocate from it too.)
 */
#ifndef ECG_ARENA_H
#define ECG_ARENA_H

#include <stddef.h>

struct ast_arena;

struct ast_arena *ast_arena_new(void);
/* The same for an arena that will grow large (the interpreter's): chunks of
 * 2 MiB, mapped on their own, huge pages where the kernel allows. */
struct ast_arena *ast_arena_new_large(void);
void ast_arena_free(struct ast_arena *a);            /* NULL is fine */
/* n bytes aligned for any node member; zeroed. */
void *ast_arena_alloc(struct ast_arena *a, size_t n);
/* A NUL-terminated copy of s[0..n) (s may contain NUL bytes). */
char *ast_arena_strndup(struct ast_arena *a, const char *s, size_t n);
/* Bytes handed out (with alignment padding), and bytes malloc'd for the
 * chunks (the real footprint). */
size_t ast_arena_used(const struct ast_arena *a);
size_t ast_arena_reserved(const struct ast_arena *a);

/* Arena arrays that double: a new array of (alloc ? 2 * alloc : first)
 * elements of elsize bytes with the first n of arr copied in (the old one
 * stays in the arena until it is freed).  ARENA_GROW(a, arr, n, alloc,
 * first) does it when the array is full (n == alloc) and updates both. */
void *ast_arena_grow(struct ast_arena *a, void *arr, size_t n, size_t alloc, size_t first, size_t elsize);
#define ARENA_GROW(a, arr, n, alloc, first)                                                     \
	do {                                                                                    \
		if ((n) == (alloc)) {                                                           \
			(arr) = ast_arena_grow((a), (arr), (n), (alloc), (first), sizeof *(arr)); \
			(alloc) = (alloc) ? (alloc) * 2 : (first);                              \
		}                                                                               \
	} while (0)

#endif
