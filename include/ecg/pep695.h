/* pep695.h - Python 3.12's type-parameter syntax (PEP 695) made readable by
 * an older embedded parser.
 *
 * ecg parses with the CPython it embeds (3.11 on most builds), whose grammar
 * has no `type X = ...` statement and no `class C[T]` / `def f[T]()` type
 * parameters; a repository that requires 3.12 uses them in files the job
 * imports, and each such file would be lost whole.  pyast_parse() calls this
 * only after the parser refused a file, and keeps the result only when the
 * rewritten source parses.
 */
#ifndef ECG_PEP695_H
#define ECG_PEP695_H

#include <stddef.h>

/* A copy of src[0..len) (NUL-terminated, xmalloc'd, the same length) where
 *   - a statement `type NAME[params] = value` reads `NAME = value`: NAME is
 *     moved to the statement's column and the rest of `type NAME[params] `
 *     is blanked, so `=` and the value keep their columns (the alias becomes
 *     an eager assignment: its value may stay unknown to the interpreter);
 *   - the type-parameter list `[...]` right after the name of a `class` or a
 *     (possibly async) `def` statement is blanked (its bytes become spaces,
 *     its newlines are kept);
 * and every other byte is unchanged, so lines and columns of the file hold.
 * Strings and comments are skipped.  NULL when there is nothing to rewrite.
 * Never fails (out of memory aborts, as xmalloc). */
char *pep695_downgrade(const char *src, size_t len);

#endif
