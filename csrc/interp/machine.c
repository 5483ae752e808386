/* machine.c - the machine the job runs on, when the invocation names it.
 *
 * A job asks the machine whether it has a device: torch.cuda.is_available(),
 * torch.backends.mps.is_available(), torch.accelerator.current_accelerator()
 * (catalog machine_queries).  ecg runs on a login node, so by default
 * every such question is undecided, and a device the job chooses by it
 * puts a condition on the job's host-device rows (devchoice.c).  The
 * engineer who holds a profile knows the machine it came from:
 * `extract --machine cuda` (or a launcher line whose launcher names GPUs,
 * `accelerate launch --multi_gpu`) says it has CUDA GPUs and no other
 * accelerator; `--machine cpu` says it has none.  Then:
 *
 *   - machine_query(): each of catalog cuda_machine_queries is True on
 *     a CUDA machine, every other machine query False; on a CPU machine
 *     all are False;
 *   - machine_accelerator(): torch.accelerator.current_accelerator() is
 *     the "cuda" device, or None on the CPU.
 *
 * A job can name it too: `assert torch.cuda.is_available()` (alone or
 * a term of an `and`), read in job code under no undecided condition,
 * lets the run go on only on a CUDA machine -- the rest of the run is
 * read as on one (machine_assert; what was read before it keeps its
 * conditions).
 *
 * Other accelerators' packages (catalog absent_modules) are absent
 * whatever the machine (import.c, stdlib.c find_spec); other libraries'
 * questions about those accelerators (catalog library_machine_queries:
 * accelerate's is_xpu_available) are answered as the machine's
 * (machine_library_query).  Nothing here
 * allocates outside the interpreter's arena; nothing can fail.
 */
#include "config.h"

#include <string.h>

#include "ecg/catalog.h"
#include "internal.h"

int interp_machine_parse(const char *word)
{
	static const struct {
		const char *word;
		enum interp_machine m;
	} words[] = {
		{ "cuda", INTERP_MACHINE_CUDA },
		{ "gpu", INTERP_MACHINE_CUDA },
		{ "cpu", INTERP_MACHINE_CPU },
	};
	size_t i;

	for (i = 0; word && i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(word, words[i].word))
			return (int)words[i].m;
	return -1;
}

void interp_set_machine(struct interp *in, enum interp_machine m)
{
	in->machine = m;
}

/* torch.<...>.<last>() of catalog machine_queries, dotted name d: a bool
 * when the machine is named, else a value not known whose reason says it
 * is the machine's (devchoice.c reads that reason). */
value_t *machine_query(struct frame *f, const char *d, const struct ast_hdr *site)
{
	struct interp *in = f->in;

	switch (in->machine) {
	case INTERP_MACHINE_CUDA:
		return v_bool(in->a, catalog_fact(in->cat, CATALOG_F_CUDA_MACHINE_QUERIES, d) != NULL);
	case INTERP_MACHINE_CPU:
		return v_bool(in->a, 0);
	case INTERP_MACHINE_UNKNOWN:
		break;
	}
	return unknown_at(f, site, MACHINE_REASON);
}

/* Whether the test e (an `and`'s terms) calls a query true only on a
 * CUDA machine (catalog cuda_machine_queries). */
static int asserts_cuda(struct frame *f, const struct ast_hdr *e)
{
	struct interp *in = f->in;
	const struct ast_hdr *root;
	const value_t *fn;
	unsigned i;

	if (AST_IS(e, BoolOp) && AST_AS(e, BoolOp)->op == AST_BOOL_AND) {
		for (i = 0; i < AST_AS(e, BoolOp)->values.n; i++)
			if (asserts_cuda(f, AST_AS(e, BoolOp)->values.items[i]))
				return 1;
		return 0;
	}
	if (!AST_IS(e, Call) || AST_AS(e, Call)->args.n || !AST_IS(AST_AS(e, Call)->func, Attribute))
		return 0;
	/* the chain's root an outside module's name (`torch`): reading the
	 * attributes runs nothing (a repository object's could be a
	 * property's getter) */
	for (root = AST_AS(e, Call)->func; AST_IS(root, Attribute); root = AST_AS(root, Attribute)->value)
		;
	if (!AST_IS(root, Name) || eval(f, root)->k != VK_EXT)
		return 0;
	fn = eval(f, AST_AS(e, Call)->func);
	return fn->k == VK_EXT && catalog_fact(in->cat, CATALOG_F_CUDA_MACHINE_QUERIES, canon_ext(in, fn->u.ext));
}

void machine_assert(struct frame *f, const struct ast_hdr *test, const value_t *tv)
{
	if (f->in->machine != INTERP_MACHINE_UNKNOWN || f->mode == M_FWD || value_truth(tv) == 0 ||
	    jc_find(f->jc, JC_COND) || jc_find(f->jc, JC_GUARD))
		return;
	if (asserts_cuda(f, test))
		f->in->machine = INTERP_MACHINE_CUDA;
}

/* d(), a function of another library that asks about an accelerator
 * other than CUDA (catalog library_machine_queries): "machine" -- whether
 * the machine has one (accelerate's is_xpu_available(), is_npu_available()):
 * False when the machine is named (CUDA GPUs and no other accelerator, or
 * none), else not known as the machine's; "absent" -- whether that
 * accelerator's PyTorch package is installed (is_ccl_available(): Intel's
 * oneCCL bindings): False, as catalog absent_modules reads their imports.
 * NULL when d is no such function. */
value_t *machine_library_query(struct frame *f, const char *d, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const char *kind = catalog_fact(in->cat, CATALOG_F_LIBRARY_MACHINE_QUERIES, d);

	if (!kind)
		return NULL;
	if (!strcmp(kind, "absent") || in->machine != INTERP_MACHINE_UNKNOWN)
		return v_bool(in->a, 0);
	return unknown_at(f, site, MACHINE_REASON);
}

/* torch.accelerator.current_accelerator(): on a named machine the device
 * spec ("cuda") in *spec, or 1 with *spec NULL for None (no accelerator);
 * 0 when the machine is not named (a torch.device of a type not known). */
int machine_accelerator(const struct interp *in, const char **spec)
{
	switch (in->machine) {
	case INTERP_MACHINE_CUDA:
		*spec = "cuda";
		return 1;
	case INTERP_MACHINE_CPU:
		*spec = NULL;
		return 1;
	case INTERP_MACHINE_UNKNOWN:
		break;
	}
	return 0;
}
