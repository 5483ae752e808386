/* catalog_glue.c - see include/ecg/catalog_glue.h.
 * Until the catalogue (catalog.c) lands, a small table of the containers
 * and the parameters of the commonest layers. */
#include "config.h"

#include <string.h>

#include "ecg/catalog_glue.h"

struct cg_entry {
	const char *name;
	enum cg_kind kind;
	const char *params[8];
};

static const struct cg_entry cg_table[] = {
	{ "torch.nn.Sequential", CG_CONTAINER, { NULL } },
	{ "torch.nn.ModuleList", CG_CONTAINER, { NULL } },
	{ "torch.nn.ModuleDict", CG_CONTAINER, { NULL } },
	{ "torch.nn.Linear", CG_LAYER, { "in_features", "out_features", "bias", "device", "dtype", NULL } },
	{ "torch.nn.Embedding", CG_LAYER, { "num_embeddings", "embedding_dim", "padding_idx", "max_norm", NULL } },
	{ "torch.nn.LayerNorm", CG_LAYER, { "normalized_shape", "eps", "elementwise_affine", NULL } },
	{ "torch.nn.Dropout", CG_LAYER, { "p", "inplace", NULL } },
	{ "torch.nn.GELU", CG_LAYER, { "approximate", NULL } },
	{ "torch.nn.ReLU", CG_LAYER, { "inplace", NULL } },
	{ "torch.nn.SiLU", CG_LAYER, { "inplace", NULL } },
	{ "torch.nn.Conv2d", CG_LAYER, { "in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias" } },
	{ "torch.nn.BatchNorm2d", CG_LAYER, { "num_features", "eps", "momentum", "affine", "track_running_stats", NULL } },
};

static const struct cg_entry *cg_find(const char *d)
{
	size_t i;

	for (i = 0; i < sizeof cg_table / sizeof cg_table[0]; i++)
		if (!strcmp(cg_table[i].name, d))
			return &cg_table[i];
	return NULL;
}

enum cg_kind cg_kind_of(const struct catalog *cat, const char *dotted)
{
	const struct cg_entry *e = cg_find(dotted);

	(void)cat;
	if (e)
		return e->kind;
	/* any other torch.nn class is a layer */
	if (!strncmp(dotted, "torch.nn.", 9) && !strchr(dotted + 9, '.'))
		return CG_LAYER;
	return CG_UNKNOWN;
}

size_t cg_params(const struct catalog *cat, const char *dotted, const char *const **names)
{
	const struct cg_entry *e = cg_find(dotted);
	size_t n = 0;

	(void)cat;
	*names = NULL;
	if (!e)
		return 0;
	while (n < 8 && e->params[n])
		n++;
	*names = e->params;
	return n;
}

size_t cg_ops(const struct catalog *cat, const char *dotted, const char *const **ops)
{
	static const struct { const char *cls; const char *op; } t[] = {
		{ "torch.nn.Linear", "torch.nn.functional.linear" },
		{ "torch.nn.Embedding", "torch.nn.functional.embedding" },
		{ "torch.nn.LayerNorm", "torch.nn.functional.layer_norm" },
		{ "torch.nn.Dropout", "torch.nn.functional.dropout" },
		{ "torch.nn.GELU", "torch.nn.functional.gelu" },
		{ "torch.nn.ReLU", "torch.nn.functional.relu" },
		{ "torch.nn.SiLU", "torch.nn.functional.silu" },
		{ "torch.nn.Conv2d", "torch.nn.functional.conv2d" },
		{ "torch.nn.BatchNorm2d", "torch.nn.functional.batch_norm" },
	};
	size_t i;

	(void)cat;
	*ops = NULL;
	if (!dotted)
		return 0;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].cls, dotted)) {
			*ops = &t[i].op;
			return 1;
		}
	return 0;
}
