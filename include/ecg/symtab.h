/* symtab.h - where the symbols of one Python file are, and what they hold,
 * so that an anchor written at one commit ("model.py:Block.forward:103")
 * can be found again at another.
 *
 * A symbol is a function or method ("Block.forward", "main.<locals>.step",
 * as ecg's anchors name them), a class ("GPTConfig") or the module itself
 * ("<module>").  A function is compared whole: the bytes of its lines,
 * from `def` to its last line (decorators excluded).  Classes and the
 * module are compared statement by statement, over the statements that are
 * not definitions (dataclass fields, globals, module-level code), so that
 * editing one method does not make every config default look changed.
 *
 * Everything is owned by the symtab (symtab_free); strings are copies.
 */
#ifndef ECG_SYMTAB_H
#define ECG_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "ecg/prog.h"

enum sym_kind { SYM_MODULE = 0, SYM_CLASS, SYM_FUNCTION };

struct sym {
	char *qual;                 /* "<module>", "GPT", "GPT.forward" */
	enum sym_kind kind;
	int line, end_line;         /* `def`/`class` line .. last line (module: 1 .. last) */
	uint64_t hash;              /* functions: their lines' bytes */
};

/* A statement directly in a class body or at module level that is not a
 * definition (an assignment, a call, an if ...). */
struct sym_stmt {
	size_t owner;               /* index of its class or module in syms */
	int line, end_line;
	uint64_t hash;              /* its lines' bytes, leading blanks dropped */
	const char *target;         /* for `x = ...` / `x: T = ...` with one name target: x (borrowed from the tree), else NULL */
	const struct ast_hdr *value;/* that assignment's value, or NULL */
};

struct symtab {
	struct sym *syms;
	size_t nsyms;
	struct sym_stmt *stmts;
	size_t nstmts;
};

/* Build from a parsed file (f->mod not NULL, f->src and line offsets
 * filled).  The stmts' target and value point into f's tree: keep f
 * while they are used.  Cannot fail (allocation failure aborts). */
void symtab_build(const struct sfile *f, struct symtab *t);
void symtab_free(struct symtab *t);

/* The symbol with this qualname, or NULL. */
const struct sym *symtab_find(const struct symtab *t, const char *qual);

/* The statement of symbol s (a class or the module) that holds `line`,
 * or NULL. */
const struct sym_stmt *symtab_stmt_at(const struct symtab *t, const struct sym *s, int line);

/* The statement of symbol s with this hash nearest to `near` (by line), or
 * NULL. */
const struct sym_stmt *symtab_stmt_like(const struct symtab *t, const struct sym *s, uint64_t hash, int near);

#endif
