/* flops.h - the static FLOP estimate of the records' module entries, for
 * `ecg show --top` and the page's cost view.
 *
 * Per call of a unit, forward only:
 *   torch.nn.Linear          2 * in_features * numel(out) + numel(out) with a bias;
 *                            with no output shape (out_features not known),
 *                            numel(out) is the input's dims but the last times
 *                            out_features as the symbol "<id>.out_features"
 *                            (lm_head.out_features; none for an id with '*')
 *   torch.nn.Conv1d/2d/3d    2 * in_channels / groups * prod(kernel_size) * numel(out)
 *                            + numel(out) with a bias
 *   norms                    5 * numel(out)
 *   activations, Dropout, Softmax and friends   numel(out)
 *   pooling                  numel(in)
 *   torch.nn.Embedding       0 (a lookup)
 *   a repo module or container   the sum of its layers' and heavy ops'
 *                            estimates, each times its calls per call; a part
 *                            under a condition never taken adds nothing, one
 *                            under a condition not decided makes the sum not
 *                            known
 *   ops: matmul (@, torch.matmul, bmm, mm), F.linear
 *                            2 * numel(out) * (last dim of the first input);
 *        F.scaled_dot_product_attention  4 * numel(out) * (key length)
 * A dim the shapes keep as a symbol (b, t) stays in the count: c times the
 * product of the symbols m ("b*t", sorted; "" a plain number).  Parts
 * whose symbols differ do not add: the sum is not known.
 */
#ifndef ECG_FLOPS_H
#define ECG_FLOPS_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct flops {
	double c;        /* the coefficient; < 0: not known */
	char m[96];      /* the symbols it multiplies, "x*y" sorted */
};

/* The estimate per call of every entry of modules (the graph's list), in
 * its order: an array of *n (owned: free()); c < 0 where not known (ops,
 * functions, an unknown shape, class, count or mixed symbols).  Never
 * fails. */
struct flops *flops_modules(const cJSON *modules, size_t *n);

/* A symbol of the shapes and the value a person gives it (show --dim). */
struct flops_dim {
	const char *name;
	double n;
};

/* flops_modules() with dims[0..ndims) multiplied in where a layer's or
 * op's count has their symbols, before the sums: a module's parts in b*t
 * and b*t*t add up once b and t are given.  Never fails. */
struct flops *flops_modules_bound(const cJSON *modules, const struct flops_dim *dims, size_t ndims, size_t *n);

#endif
