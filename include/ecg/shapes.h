/* shapes.h - tensor shapes through the ops of a forward.
 *
 * A tensor value (values.h) may carry a struct vshape: its rank and, per
 * dim, a size, a symbol or nothing.  These functions compute the shape of
 * an op's result from the shapes and values of its arguments, following
 * PyTorch's documented rules (broadcasting, view's -1, indexing, matmul's
 * batch dims).  They never guess: where a rule needs what is not known,
 * the dim (or the whole shape) is unknown.
 *
 * Every shape returned lives in the arena passed in; NULL means "not
 * known" and is never an error.  None of these functions fails otherwise.
 */
#ifndef ECG_SHAPES_H
#define ECG_SHAPES_H

#include <stddef.h>

#include "ecg/values.h"

struct catalog;

/* A new shape of nd dims (nd <= VSHAPE_MAX), every dim unknown; NULL when
 * nd is too large. */
struct vshape *shape_new(struct ast_arena *a, unsigned nd);

/* The shape of v when it is a tensor with a known shape, else NULL. */
const struct vshape *shape_of(const value_t *v);

/* Does v hold no element: a tensor marked so (no_elems) or of a shape with
 * an axis known 0, or an array of another library (arr_shape) with one?
 * torch's copy_ of zero elements returns before any transfer. */
int tensor_empty(const value_t *v);

/* The dim a Python value stands for: a known int, or a symbol when the
 * value is not known but named by a plain or dotted name ("B",
 * "config.n_embd").  *n = -1 and *sym = NULL when neither. */
void shape_dim_of(const value_t *v, long long *n, const char **sym);

/* A Python value for dim i of s: an int, or an unknown int whose expr is
 * the dim's symbol (so that a later view(B, T, C) finds the symbol
 * again), or an unknown one with expr `expr`. */
value_t *shape_dim_value(struct ast_arena *a, const struct vshape *s, unsigned i, const char *expr);

/* The reason an unknown value from shape_dim_value carries; a value with
 * it is a number, never a tensor. */
extern const char shape_dim_reason[];

/* The reason of x.shape / x.size() of a tensor whose shape is not known:
 * a torch.Size, a tuple of Python ints (never a tensor) of a length not
 * known; its items (x.shape[i]) and slices are read as shape_dim_reason
 * values and torch.Size ones (interp/eval.c). */
extern const char size_unknown_reason[];

/* Broadcasting of two shapes (NULL when either is unknown or they do not
 * broadcast). */
const struct vshape *shape_broadcast(struct ast_arena *a, const struct vshape *x, const struct vshape *y);

/* 1 when x and y are both known, of one rank, and alike in every dim: the
 * same size, or (a size not known) the same symbol; 0 otherwise.  Never
 * fails. */
int shape_same(const struct vshape *x, const struct vshape *y);

/* What a tensor is after a branch the analysis cannot decide, when it was
 * x on one path and y on the other: the dims both agree on (NULL when
 * either is unknown or the ranks differ). */
const struct vshape *shape_join(struct ast_arena *a, const struct vshape *x, const struct vshape *y);

/* The result of a binary operator between l and r where at least one is a
 * tensor: the broadcast shape, or the tensor's when the other is a known
 * Python number. */
const struct vshape *shape_binop(struct ast_arena *a, const value_t *l, const value_t *r);

/* The shape of x[idx] (ints, slices, None, ..., tuples of those). */
/* Python's [lo:hi] (a step > 0) of n items: an end < 0 counts from the
 * end, then both are clamped to [0, n] (lo may end above hi: no item).
 * Never fails. */
void slice_bounds(long long n, long long *lo, long long *hi);

const struct vshape *shape_index(struct ast_arena *a, const struct vshape *x, const value_t *idx);

/* The shape of a torch call's (single tensor) result.  op is canonical:
 * "torch.zeros", "torch.nn.functional.softmax", "Tensor.view"; for a
 * "Tensor." op args[0] is the tensor the method was called on. */
const struct vshape *shape_of_call(const struct catalog *cat, struct ast_arena *a, const char *op,
                                   value_t *const *args, size_t nargs, const struct vdict *kw);

/* What a torch call's result holds (DT_*): integers, bools, floats, from
 * its dtype= or what the op makes; DT_UNKNOWN when not known. */
int shape_dtype_of_call(const struct catalog *cat, const char *op, value_t *const *args, size_t nargs,
                        const struct vdict *kw);

/* How a call that returns several tensors splits its input: for
 * chunk/split/unbind/tensor_split with a known number of pieces, writes
 * up to cap piece shapes (NULL entries when a piece's shape is not known)
 * and returns how many pieces; 0 when the count is not known. */
size_t shape_pieces(const struct catalog *cat, struct ast_arena *a, const char *op, value_t *const *args,
                    size_t nargs, const struct vdict *kw, const struct vshape **out, size_t cap);

/* The same shape with the unknown dims named: dim i takes names[i] when it
 * is unknown and names[i] is not NULL.  For `B, T, C = x.size()`.  NULL
 * when x is known and has another rank. */
const struct vshape *shape_named(struct ast_arena *a, const struct vshape *x, const char *const *names,
                                 unsigned nd);

#endif
