/* test_catalog.c - the torch catalogue: loading, lookups, parameter counts,
 * conditions, shapes, names, operators, and rejection of broken files.
 * Reads the real catalogue from the source tree (ECG_SRCDIR/catalog).
 * Expected parameter counts are sum(p.numel() for p in m.parameters()) from
 * torch 1.13. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecg/catalog.h"
#include "ecg/err.h"
#include "ecg/util.h"
#include "tap.h"

#define CAT_DIR ECG_SRCDIR "/catalog"

static struct catalog_value V_INT(long long i)
{
	struct catalog_value v = { 0 };

	v.type = CATALOG_INT;
	v.i = i;
	return v;
}

static struct catalog_value V_BOOL(int b)
{
	struct catalog_value v = { 0 };

	v.type = CATALOG_BOOL;
	v.i = b;
	return v;
}

static struct catalog_value V_STR(const char *s)
{
	struct catalog_value v = { 0 };

	v.type = CATALOG_STR;
	v.s = s;
	return v;
}

static struct catalog_value V_TUPLE(const long long *items, size_t n)
{
	struct catalog_value v = { 0 };

	v.type = CATALOG_TUPLE;
	v.items = items;
	v.n = n;
	return v;
}

static struct catalog_value V_TENSOR(const char *key, long long rank)
{
	struct catalog_value v = { 0 };

	v.type = CATALOG_TENSOR;
	v.s = key;
	v.i = rank;
	return v;
}

static const struct catalog_value V_UNKNOWN;

/* Count for class `name` with `n` arguments; -2 if the class is missing. */
static int count(const struct catalog *cat, const char *name, const struct catalog_arg *a, size_t n,
                 long long *out, const char **unk)
{
	const struct catalog_class *c = catalog_class(cat, name);
	struct catalog_args args = { a, n };

	if (!c)
		return -2;
	return catalog_param_count(c, &args, out, unk);
}

static void check_count(const struct catalog *cat, const char *what, const char *name,
                        const struct catalog_arg *a, size_t n, long long want)
{
	long long got = -1;
	const char *unk = NULL;
	int r = count(cat, name, a, n, &got, &unk);

	if (!ok(r == 0 && got == want, "%s has %lld parameters", what, want))
		diag("rc %d, got %lld, unknown %s, error %s", r, got, unk ? unk : "-", err_last());
}

/* The steps of class c that run in env, as "op:name" / "module:name"
 * joined by spaces, into b. */
static int steps_taken(const struct catalog_class *c, const struct catalog_env *env, buf_t *b)
{
	size_t i;

	buf_reset(b);
	for (i = 0; i < c->nsteps; i++) {
		const char *unk = NULL;
		int taken = 0, r = catalog_when(c, c->steps[i].when, env, &taken, &unk);

		if (r)
			return r;
		if (taken)
			buf_addf(b, "%s%s", b->len ? " " : "", c->steps[i].name);
	}
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	buf_t b;
	char tmp[65536];
	size_t n;

	if (!f)
		return NULL;
	buf_init(&b);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	return buf_detach(&b);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Write dir/file = the real file with the first `from` replaced by `to`
 * (and the other file a verbatim copy); then try to load dir. */
static int load_broken(const char *dir, const char *file, const char *from, const char *to)
{
	static const char *const files[] = { "torch_nn.json", "torch_names.json", "torch_facts.json" };
	struct catalog *cat = NULL;
	int i, rc;

	for (i = 0; i < 3; i++) {
		char *src = xasprintf("%s/%s", CAT_DIR, files[i]);
		char *dst = xasprintf("%s/%s", dir, files[i]);
		char *text = slurp(src);

		if (text && !strcmp(files[i], file)) {
			char *at = strstr(text, from);

			if (at) {
				buf_t b;

				buf_init(&b);
				buf_add(&b, text, (size_t)(at - text));
				buf_addstr(&b, to);
				buf_addstr(&b, at + strlen(from));
				free(text);
				text = buf_detach(&b);
			} else {
				diag("'%s' not found in %s", from, files[i]);
			}
		}
		spit(dst, text ? text : "");
		free(text);
		free(src);
		free(dst);
	}
	rc = catalog_load(dir, &cat);
	catalog_free(cat);
	return rc;
}

static int match_is(const struct catalog *cat, enum catalog_fact f, const char *text, const char *want)
{
	const char *p = catalog_fact_match(cat, f, text);

	if (want ? p && !strcmp(p, want) : !p)
		return 1;
	diag("'%s' -> %s, not %s", text, p ? p : "NULL", want ? want : "NULL");
	return 0;
}

static void test_wrappers(const struct catalog *cat)
{
	static const char *const w[] = {
		"torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel",
		"torch.nn.parallel.DataParallel", "torch.distributed.fsdp.FullyShardedDataParallel",
		"torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
		"torch.compile", "torch.compile.__wrap__", "torch.jit.script", "torch.jit.trace",
		"torch.distributed.fsdp.fully_shard", "torch.distributed._composable.fsdp.fully_shard",
		"torch.nn.SyncBatchNorm.convert_sync_batchnorm", "deepspeed.initialize",
		"accelerate.Accelerator.prepare", "torch.ao.quantization.quantize_dynamic",
		"torch.quantization.quantize_dynamic", "torch.nn.utils.parametrizations.weight_norm",
		"torch.distributed.tensor.parallel.parallelize_module",
		"torch.distributed.tensor.parallel.api.parallelize_module", NULL
	};
	size_t i;
	int all = 1;

	for (i = 0; w[i]; i++)
		if (!catalog_fact(cat, CATALOG_F_WRAPPERS, w[i]))
			all = 0, diag("wrapper %s missing", w[i]);
	ok(all && !catalog_fact(cat, CATALOG_F_WRAPPERS, "torch.nn.Linear"), "wrappers");
	ok(match_is(cat, CATALOG_F_WRAPPER_WORDS, "mylib.DistributedDataParallel", "DistributedDataParallel") &&
	   match_is(cat, CATALOG_F_WRAPPER_WORDS, "FullyShardedDataParallel", "FullyShardedDataParallel") &&
	   match_is(cat, CATALOG_F_WRAPPER_WORDS, "torch.nn.DataParallel", NULL), "wrappers by their short names");
	ok(match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "torch.nn.parallel.DistributedDataParallel", "DistributedDataParallel") &&
	   match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "deepspeed.initialize", "deepspeed.initialize") &&
	   match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "torch.distributed.fsdp.fully_shard", "fully_shard") &&
	   match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "torch.distributed.fsdp.FullyShardedDataParallel",
	            "FullyShardedDataParallel") &&
	   match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "torch.compile", NULL) &&
	   match_is(cat, CATALOG_F_PARALLEL_WRAPPERS, "torch.distributed.tensor.parallel.parallelize_module", NULL),
	   "parallel wrappers and what implies them");
}

static void test_third_party(const struct catalog *cat)
{
	static const char *const pkgs[] = {
		"torchvision.ops.", "torchvision.models.", "timm.models.", "timm.layers.", "timm.loss.",
		"einops.layers.", "torch_geometric.nn.",
		"flash_attn.", "apex.normalization.", "apex.", "transformer_engine.pytorch.", "xformers.", "mamba_ssm.",
		"torchaudio.models.", "transformers.", "diffusers.models.", "open_clip.", "peft.",
		"torchvision.transforms.v2.", "fairscale.nn.", NULL
	};
	static const char *const not_modules[] = { "Config", "Tokenizer", "TokenizerFast", "Processor", "Output",
	                                           "Scheduler", "Pipeline", "Args", "Arguments", NULL };
	size_t i;
	int all = 1;

	for (i = 0; pkgs[i]; i++) {
		char *d = xasprintf("%sX", pkgs[i]);

		all &= match_is(cat, CATALOG_F_MODULE_PACKAGES, d, pkgs[i][0] == 'a' && pkgs[i][5] == 'n'
		                                                   ? "apex.normalization." : pkgs[i]);
		free(d);
	}
	ok(all && match_is(cat, CATALOG_F_MODULE_PACKAGES, "torchvision.datasets.MNIST", NULL) &&
	   /* timm's data, utils and fp8 recipes are no modules; its EMA v2 is */
	   match_is(cat, CATALOG_F_MODULE_PACKAGES, "timm.data.Mixup", NULL) &&
	   match_is(cat, CATALOG_F_MODULE_PACKAGES, "timm.utils.ModelEma", NULL) &&
	   match_is(cat, CATALOG_F_MODULE_PACKAGES, "timm.utils.ModelEmaV2", "timm.utils.ModelEmaV2") &&
	   match_is(cat, CATALOG_F_MODULE_PACKAGES, "transformer_engine.common.recipe.DelayedScaling", NULL),
	   "third-party packages whose classes are modules");
	for (all = 1, i = 0; not_modules[i]; i++) {
		char *d = xasprintf("Bert%s", not_modules[i]);

		all &= match_is(cat, CATALOG_F_NOT_MODULE_SUFFIXES, d, not_modules[i]) ||
		       match_is(cat, CATALOG_F_NOT_MODULE_SUFFIXES, d, "Tokenizer");
		free(d);
	}
	ok(all && match_is(cat, CATALOG_F_NOT_MODULE_SUFFIXES, "BertModel", NULL), "their classes that are no modules");
	ok(match_is(cat, CATALOG_F_NOT_MODULE_PATHS, "apex.optimizers.FusedAdam", ".optimizers.") &&
	   match_is(cat, CATALOG_F_NOT_MODULE_PATHS, "timm.optim.Lamb", ".optim.") &&
	   match_is(cat, CATALOG_F_NOT_MODULE_PATHS, "timm.models.ResNet", NULL), "and their optimizers");
}

static void test_names(const struct catalog *cat)
{
	static const char *const folds[][2] = {
		{ "torch.nn.modules.module.Module", "torch.nn.Module" },
		{ "torch.nn.parallel.distributed.DistributedDataParallel", "torch.nn.parallel.DistributedDataParallel" },
		{ "torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.DistributedDataParallel" },
		{ "torch.functional.F", "torch.nn.functional" }, { NULL, NULL }
	};
	static const char *const tv[][2] = {
		{ "wide_resnet50_2", "ResNet" }, { "resnext50_32x4d", "ResNet" }, { "resnet18", "ResNet" },
		{ "vgg16_bn", "VGG" }, { "densenet121", "DenseNet" }, { "alexnet", "AlexNet" },
		{ "mobilenet_v2", "MobileNetV2" }, { "mobilenet_v3_large", "MobileNetV3" },
		{ "efficientnet_b0", "EfficientNet" }, { "vit_b_16", "VisionTransformer" },
		{ "convnext_tiny", "ConvNeXt" }, { "regnet_y_400mf", "RegNet" }, { "squeezenet1_0", "SqueezeNet" },
		{ "shufflenet_v2_x1_0", "ShuffleNetV2" }, { "googlenet", "GoogLeNet" },
		{ "inception_v3", "Inception3" }, { "mnasnet1_0", "MNASNet" }, { "swin_t", "SwinTransformer" },
		{ "maxvit_t", "MaxVit" }, { NULL, NULL }
	};
	size_t i;
	int all = 1;

	for (i = 0; folds[i][0]; i++) {
		const char *p = catalog_fact(cat, CATALOG_F_NAME_FOLDS, folds[i][0]);

		if (!p || strcmp(p, folds[i][1]))
			all = 0, diag("fold %s -> %s", folds[i][0], p ? p : "NULL");
	}
	ok(all && !catalog_fact(cat, CATALOG_F_NAME_FOLDS, "torch.nn.Module"), "name folds");
	for (all = 1, i = 0; tv[i][0]; i++)
		all &= match_is(cat, CATALOG_F_TORCHVISION_FACTORIES, tv[i][0], tv[i][1]);
	ok(all && match_is(cat, CATALOG_F_TORCHVISION_FACTORIES, "get_model", NULL), "torchvision factories' classes");
	ok(catalog_fact(cat, CATALOG_F_MODULE_FACTORIES, "timm.create_model") &&
	   catalog_fact(cat, CATALOG_F_MODULE_FACTORIES, "timm.models.create_model") &&
	   !catalog_fact(cat, CATALOG_F_MODULE_FACTORIES, "timm.create_optimizer"), "library module factories");
	ok(catalog_fact(cat, CATALOG_F_HOST_TENSOR_RETURNS, "return_tensors") &&
	   !strcmp(catalog_fact(cat, CATALOG_F_HOST_TENSOR_RETURNS, "return_tensors"), "pt") &&
	   !catalog_fact(cat, CATALOG_F_HOST_TENSOR_RETURNS, "device"), "return_tensors='pt' is host tensors");
}

static int fact_is(const struct catalog *cat, enum catalog_fact f, const char *name, const char *want)
{
	const char *p = catalog_fact(cat, f, name);

	if (want ? p && !strcmp(p, want) : !p)
		return 1;
	diag("'%s' -> %s, not %s", name, p ? p : "NULL", want ? want : "NULL");
	return 0;
}

static const char *const SG_BROADCAST2[] = {
	"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__radd__",
	"__rsub__", "__rmul__", "__rtruediv__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
	"__and__", "__or__", "__xor__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", NULL
};
static const char *const SG_SAME[] = {
	"contiguous", "float", "half", "bfloat16", "double", "long", "int", "bool", "clone", "detach",
	"detach_", "relu", "relu_", "gelu", "silu", "sigmoid", "tanh", "exp", "log", "log1p", "sqrt",
	"rsqrt", "abs", "neg", "sin", "cos", "softmax", "log_softmax", "dropout", "dropout1d", "dropout2d",
	"dropout3d", "alpha_dropout", "layer_norm", "group_norm", "batch_norm", "instance_norm", "rms_norm",
	"normalize", "leaky_relu", "elu", "selu", "celu", "mish", "hardswish", "hardsigmoid", "hardtanh",
	"relu6", "softplus", "softsign", "tril", "triu", "masked_fill", "masked_fill_", "cuda", "cpu",
	"pin_memory", "requires_grad_", "fill_", "zero_", "zeros_like", "ones_like", "randn_like",
	"rand_like", "empty_like", "full_like", "clamp", "clamp_", "clip", "cumsum", "cumprod", "flip",
	"roll", "square", "erf", "reciprocal", "sign", "floor", "ceil", "round", "nan_to_num", "add_",
	"mul_", "sub_", "div_", "copy_", "normal_", "uniform_", "sigmoid_", "tanh_", "exp_", "silu_",
	"gelu_", "logsigmoid", "tanhshrink", "dropout_", "bernoulli", "bernoulli_", "neg_", "gumbel_softmax",
	"softmin", "pow_", "clamp_min", "clamp_max", "logit", "erfinv", "sinh", "cosh", "log2", "log10",
	"exp2", "expm1", "trunc", "frac", "sgn", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not",
	"positive", "requires_grad", "argsort", NULL
};
static const char *const SG_BROADCAST[] = {
	"add", "sub", "mul", "div", "true_divide", "floor_divide", "pow", "maximum", "minimum", "where",
	"lerp", "addcmul", "addcdiv", "eq", "ne", "lt", "gt", "le", "ge", "logical_and", "logical_or",
	"logical_xor", "fmod", "remainder", "atan2", "multiply", "subtract", "divide", "hypot", "fmax",
	"fmin", "xlogy", "bitwise_and", "bitwise_or", "bitwise_xor", "isclose", "copysign", NULL
};
static const char *const SG_SIZES[] = {
	"zeros", "ones", "empty", "rand", "randn", NULL
};
static const char *const SG_REDUCE[] = {
	"sum", "mean", "amax", "amin", "std", "var", "prod", "argmax", "argmin", "logsumexp", "any", "all",
	"nansum", "nanmean", "count_nonzero", NULL
};
static const char *const SG_LOSS[] = {
	"cross_entropy", "mse_loss", "l1_loss", "nll_loss", "binary_cross_entropy",
	"binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div", "huber_loss",
	"cosine_embedding_loss", "margin_ranking_loss", "soft_margin_loss", "poisson_nll_loss",
	"gaussian_nll_loss", NULL
};

/* The op-class lists shapes.c held before they moved to torch_facts.json:
 * every name keeps its rule and its namespaces. */
static const struct { const char *rule; int on; const char *const *names; } SHAPE_GROUPS[] = {
	{ "broadcast2", CATALOG_ON_TORCH | CATALOG_ON_TENSOR | CATALOG_ON_FUNCTIONAL, SG_BROADCAST2 },
	{ "same", CATALOG_ON_TORCH | CATALOG_ON_TENSOR | CATALOG_ON_FUNCTIONAL, SG_SAME },
	{ "broadcast", CATALOG_ON_TORCH | CATALOG_ON_TENSOR | CATALOG_ON_FUNCTIONAL, SG_BROADCAST },
	{ "sizes", CATALOG_ON_TORCH, SG_SIZES },
	{ "reduce", CATALOG_ON_TORCH | CATALOG_ON_TENSOR | CATALOG_ON_FUNCTIONAL, SG_REDUCE },
	{ "loss", CATALOG_ON_FUNCTIONAL, SG_LOSS },
};

static void test_shape_groups(const struct catalog *cat)
{
	static const int ons[] = { CATALOG_ON_TORCH, CATALOG_ON_TENSOR, CATALOG_ON_FUNCTIONAL };
	size_t g, i, k;
	int all = 1;

	for (g = 0; g < sizeof SHAPE_GROUPS / sizeof SHAPE_GROUPS[0]; g++)
		for (i = 0; SHAPE_GROUPS[g].names[i]; i++)
			for (k = 0; k < 3; k++) {
				const char *r = catalog_fact_on(cat, CATALOG_F_SHAPE_RULES, SHAPE_GROUPS[g].names[i], ons[k]);
				int want = !!(SHAPE_GROUPS[g].on & ons[k]);

				if (want ? !r || strcmp(r, SHAPE_GROUPS[g].rule) : r != NULL) {
					all = 0;
					diag("%s in namespace %d: %s, not %s", SHAPE_GROUPS[g].names[i], ons[k], r ? r : "NULL",
					     want ? SHAPE_GROUPS[g].rule : "NULL");
				}
			}
	ok(all, "every op of the shape classes keeps its rule and its namespaces");
}

static int on_is(const struct catalog *cat, const char *name, int on, const char *want)
{
	const char *p = catalog_fact_on(cat, CATALOG_F_SHAPE_RULES, name, on);

	if (want ? p && !strcmp(p, want) : !p)
		return 1;
	diag("'%s' in %d -> %s, not %s", name, on, p ? p : "NULL", want ? want : "NULL");
	return 0;
}

static void test_shape_facts(const struct catalog *cat)
{
	static const char *const dtr[][2] = {
		{ "randint", "int" }, { "randperm", "int" }, { "argmax", "int" }, { "argmin", "int" },
		{ "argsort", "int" }, { "multinomial", "int" }, { "nonzero", "int" }, { "bucketize", "int" },
		{ "searchsorted", "int" }, { "long", "int" }, { "int", "int" }, { "short", "int" },
		{ "randint_like", "int" }, { "bool", "bool" }, { "eq", "bool" }, { "ne", "bool" }, { "lt", "bool" },
		{ "gt", "bool" }, { "le", "bool" }, { "ge", "bool" }, { "logical_and", "bool" },
		{ "logical_or", "bool" }, { "logical_not", "bool" }, { "isnan", "bool" }, { "isinf", "bool" },
		{ "float", "float" }, { "half", "float" }, { "double", "float" }, { "bfloat16", "float" },
		{ "rand", "float" }, { "randn", "float" }, { "rand_like", "float" }, { "randn_like", "float" },
		{ "linspace", "float" }, { "arange", "arange" }, { "to", "to" }, { "cuda", "keep" }, { "cpu", "keep" },
		{ "pin_memory", "keep" }, { "contiguous", "keep" }, { "clone", "keep" }, { "detach", "keep" },
		{ "view", "keep" }, { "reshape", "keep" }, { "transpose", "keep" }, { "permute", "keep" },
		{ "unsqueeze", "keep" }, { "squeeze", "keep" }, { "flatten", "keep" }, { "expand", "keep" },
		{ "repeat", "keep" }, { "t", "keep" }, { "narrow", "keep" }, { "roll", "keep" }, { "flip", "keep" },
		{ "masked_fill", "keep" }, { "tril", "keep" }, { "triu", "keep" }, { "cat", "keep" },
		{ "stack", "keep" }, { "chunk", "keep" }, { "split", "keep" }, { "unbind", "keep" },
		{ "gather", "keep" }, { "index_select", "keep" }, { "repeat_interleave", "keep" },
		{ "expand_as", "keep" }, { "view_as", "keep" }, { "reshape_as", "keep" }, { "clamp", "keep" },
		{ NULL, NULL }
	};
	static const char *const dts[][2] = {
		{ "torch.bool", "bool" }, { "torch.long", "int" }, { "torch.int64", "int" }, { "torch.int", "int" },
		{ "torch.int32", "int" }, { "torch.int16", "int" }, { "torch.short", "int" }, { "torch.int8", "int" },
		{ "torch.half", "float" }, { "torch.double", "float" }, { "torch.bfloat16", "float" }, { NULL, NULL }
	};
	size_t i;
	int all = 1;

	for (i = 0; dtr[i][0]; i++)
		all &= fact_is(cat, CATALOG_F_DTYPE_RULES, dtr[i][0], dtr[i][1]);
	ok(all && fact_is(cat, CATALOG_F_DTYPE_RULES, "softmax", NULL), "what ops' results hold");
	for (all = 1, i = 0; dts[i][0]; i++)
		all &= fact_is(cat, CATALOG_F_DTYPES, dts[i][0], dts[i][1]);
	ok(all && fact_is(cat, CATALOG_F_DTYPES, "torch.float32", NULL) &&
	   match_is(cat, CATALOG_F_DTYPE_PREFIXES, "torch.float32", "float") &&
	   match_is(cat, CATALOG_F_DTYPE_PREFIXES, "torch.float", "float") &&
	   match_is(cat, CATALOG_F_DTYPE_PREFIXES, "torch.complex64", NULL), "dtypes");
	ok(fact_is(cat, CATALOG_F_PIECES, "chunk", "chunk") && fact_is(cat, CATALOG_F_PIECES, "split", "split") &&
	   fact_is(cat, CATALOG_F_PIECES, "unbind", "unbind") &&
	   fact_is(cat, CATALOG_F_PIECES, "tensor_split", "tensor_split") && fact_is(cat, CATALOG_F_PIECES, "cat", NULL),
	   "ops that split a tensor");
	/* rules hold in their namespaces */
	ok(on_is(cat, "expand", CATALOG_ON_TENSOR, "expand") && on_is(cat, "expand", CATALOG_ON_TORCH, NULL) &&
	   on_is(cat, "linear", CATALOG_ON_FUNCTIONAL, "linear") && on_is(cat, "linear", CATALOG_ON_TENSOR, NULL) &&
	   on_is(cat, "relu", CATALOG_ON_TORCH, "same") && on_is(cat, "relu", CATALOG_ON_TENSOR, "same") &&
	   on_is(cat, "outer", CATALOG_ON_FUNCTIONAL, "outer") && on_is(cat, "outer", CATALOG_ON_TENSOR, NULL) &&
	   on_is(cat, "no_such_op", CATALOG_ON_TORCH, NULL), "shape rules by namespace");
}

/* torch_facts.json: each fact list the C code reads, with names it must
 * hold (a name dropped from the file fails here). */
static void test_facts(const struct catalog *cat)
{
	static const char *const coll[] = {
		"all_reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter",
		"reduce_scatter_tensor", "broadcast", "all_to_all", "all_to_all_single", "reduce",
		"gather", "scatter", "send", "recv", "isend", "irecv", "barrier", "all_reduce_coalesced",
		"all_gather_coalesced", "all_gather_object", "broadcast_object_list", "gather_object",
		"scatter_object_list", "batch_isend_irecv", "monitored_barrier", "all_gather_tensor",
		"all_gather_tensor_autograd", "reduce_scatter_tensor_autograd", "all_to_all_single_autograd",
		"permute_tensor", NULL
	};
	static const char *const words[][2] = {
		{ "x tp_group", "tensor" }, { "tensor_parallel", "tensor" }, { "tp_pg", "tensor" },
		{ "get_model_parallel_group()", "tensor" }, { "pp_group", "pipeline" }, { "pipeline", "pipeline" },
		{ "pp_pg", "pipeline" }, { "ep_group", "expert" }, { "expert", "expert" }, { "moe", "expert" },
		{ "cp_group", "context" }, { "context_parallel", "context" }, { "sp_group", "sequence" },
		{ "sequence_parallel", "sequence" }, { "moe pp_group", "pipeline" }, { NULL, NULL }
	};
	static const char *const places[] = { "_reducefromtp", "copytotp", "tensor_parallel.py",
	                                      "columnparallellinear", "rowparallellinear", NULL };
	size_t i;
	int all = 1;

	for (i = 0; coll[i]; i++)
		if (!catalog_fact(cat, CATALOG_F_COLLECTIVES, coll[i]) ||
		    strcmp(catalog_fact(cat, CATALOG_F_COLLECTIVES, coll[i]), coll[i]))
			all = 0, diag("collective %s missing", coll[i]);
	ok(all && !catalog_fact(cat, CATALOG_F_COLLECTIVES, "init_process_group") &&
	   !catalog_fact(NULL, CATALOG_F_COLLECTIVES, "all_reduce"), "collectives");
	{
		/* the object collectives (a copy to the device and a sync on
		 * NCCL) are collectives; the *_like factories */
		static const char *const objs[] = { "all_gather_object", "broadcast_object_list", "gather_object",
		                                    "scatter_object_list", NULL };
		static const char *const likes[] = { "zeros_like", "ones_like", "empty_like", "full_like",
		                                     "rand_like", "randn_like", "randint_like", NULL };

		for (all = 1, i = 0; objs[i]; i++)
			if (!catalog_fact(cat, CATALOG_F_OBJECT_COLLECTIVES, objs[i]) ||
			    !catalog_fact(cat, CATALOG_F_COLLECTIVES, objs[i]))
				all = 0, diag("object collective %s missing", objs[i]);
		ok(all && !catalog_fact(cat, CATALOG_F_OBJECT_COLLECTIVES, "all_gather"), "object_collectives");
		for (all = 1, i = 0; likes[i]; i++)
			if (!catalog_fact(cat, CATALOG_F_LIKE_FACTORIES, likes[i]))
				all = 0, diag("like factory %s missing", likes[i]);
		ok(all && !catalog_fact(cat, CATALOG_F_LIKE_FACTORIES, "zeros"), "like_factories");
	}
	for (all = 1, i = 0; words[i][0]; i++) {
		const char *p = catalog_fact_match(cat, CATALOG_F_PARALLELISM_WORDS, words[i][0]);

		if (!p || strcmp(p, words[i][1]))
			all = 0, diag("'%s' -> %s, not %s", words[i][0], p ? p : "NULL", words[i][1]);
	}
	ok(all && !catalog_fact_match(cat, CATALOG_F_PARALLELISM_WORDS, "dist.all_reduce(x)"),
	   "a group's words name its parallelism, the first listed winning");
	for (all = 1, i = 0; places[i]; i++) {
		const char *p = catalog_fact_match(cat, CATALOG_F_PARALLELISM_PLACES, places[i]);

		if (!p || strcmp(p, "tensor"))
			all = 0, diag("place '%s' -> %s", places[i], p ? p : "NULL");
	}
	ok(all && !catalog_fact_match(cat, CATALOG_F_PARALLELISM_PLACES, "train.py main"),
	   "tensor-parallel places");
	ok(fact_is(cat, CATALOG_F_PARALLELISM_OPS, "send", "pipeline") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS, "recv", "pipeline") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS, "isend", "pipeline") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS, "irecv", "pipeline") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS, "batch_isend_irecv", "pipeline") &&
	   !catalog_fact(cat, CATALOG_F_PARALLELISM_OPS, "all_to_all") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS_FWD, "all_to_all", "expert") &&
	   fact_is(cat, CATALOG_F_PARALLELISM_OPS_FWD, "all_to_all_single", "expert") &&
	   !catalog_fact(cat, CATALOG_F_PARALLELISM_OPS_FWD, "send"), "collectives' own parallelism");
	ok(catalog_fact(cat, CATALOG_F_ASYNC_COLLECTIVES, "isend") &&
	   catalog_fact(cat, CATALOG_F_ASYNC_COLLECTIVES, "irecv") &&
	   catalog_fact(cat, CATALOG_F_ASYNC_COLLECTIVES, "batch_isend_irecv") &&
	   !catalog_fact(cat, CATALOG_F_ASYNC_COLLECTIVES, "all_reduce") &&
	   !catalog_fact(cat, CATALOG_F_ASYNC_COLLECTIVES, "send"), "collectives asynchronous by their name");
	test_wrappers(cat);
	test_third_party(cat);
	test_names(cat);
	test_shape_facts(cat);
	test_shape_groups(cat);
	{
		/* accelerate's multi-process names (interp/torch.c, framework.c) */
		static const char *const mp[][2] = {
			{ "accelerate.Accelerator.gather", "all_gather" },
			{ "accelerate.Accelerator.gather_for_metrics", "all_gather" },
			{ "accelerate.Accelerator.reduce", "all_reduce" },
			{ "accelerate.Accelerator.wait_for_everyone", "barrier" },
			{ "accelerate.Accelerator.main_process_first", "barrier" },
			{ "accelerate.Accelerator.local_main_process_first", "barrier" }, { NULL, NULL }
		};
		const char *w;

		for (all = 1, i = 0; mp[i][0]; i++) {
			const char *p = catalog_fact(cat, CATALOG_F_MULTI_PROCESS_COLLECTIVES, mp[i][0]);

			if (!p || strcmp(p, mp[i][1]))
				all = 0, diag("%s -> %s, not %s", mp[i][0], p ? p : "NULL", mp[i][1]);
		}
		w = catalog_fact(cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, "accelerate.Accelerator.prepare");
		ok(all && w && !strcmp(w, "DistributedDataParallel") &&
		   catalog_fact(cat, CATALOG_F_MULTI_PROCESS_WRAPPERS, "accelerate.Accelerator.prepare_model") &&
		   catalog_fact(cat, CATALOG_F_MULTI_PROCESS_VETOES, "ACCELERATE_USE_FSDP") &&
		   catalog_fact(cat, CATALOG_F_MULTI_PROCESS_VETOES, "ACCELERATE_USE_DEEPSPEED") &&
		   catalog_fact(cat, CATALOG_F_MULTI_PROCESS_VETOES, "ACCELERATE_USE_MEGATRON_LM") &&
		   catalog_fact(cat, CATALOG_F_MULTI_PROCESS_VETOES, "ACCELERATE_USE_CPU") &&
		   !catalog_fact(cat, CATALOG_F_MULTI_PROCESS_COLLECTIVES, "accelerate.Accelerator.backward"),
		   "accelerate's names that communicate only with more than one process");
	}
}

int main(void)
{
	struct catalog *cat = NULL;
	const struct catalog_class *lin, *bn, *mha, *c;
	const struct catalog_param *p;
	const char *unk;
	long long n = 0;
	buf_t b;
	char tmpl[] = "/tmp/ecg-catalog-XXXXXX";
	char *dir, *s;
	int r, taken;

	buf_init(&b);
	r = catalog_load(CAT_DIR, &cat);
	if (!ok(r == 0 && cat, "the catalogue in the source tree loads")) {
		diag("%s", err_last());
		return done();
	}
	ok(catalog_nclasses(cat) >= 70, "at least 70 classes (%zu)", catalog_nclasses(cat));
	ok(!strcmp(catalog_class_at(cat, 0)->name, "torch.nn.AdaptiveAvgPool1d") &&
	   catalog_class_at(cat, catalog_nclasses(cat)) == NULL, "classes are sorted, indexable");

	/* class lookup */
	lin = catalog_class(cat, "torch.nn.Linear");
	ok(lin && !strcmp(lin->name, "torch.nn.Linear") && lin->kind == CATALOG_LAYER, "torch.nn.Linear is a layer");
	ok(catalog_class(cat, "torch.nn.modules.linear.Linear") == lin, "its defining module's spelling finds it");
	ok(catalog_class(cat, "torch.nn.modules.Linear") == lin, "torch.nn.modules.Linear finds it");
	ok(!catalog_class(cat, "torch.nn.modules.conv.Linear") && !catalog_class(cat, "Linear") &&
	   !catalog_class(cat, "torch.nn.Linearr") && !catalog_class(cat, "mypkg.Linear"),
	   "wrong module, bare and misspelled names are not found");
	c = catalog_class(cat, "torch.nn.modules.linear.NonDynamicallyQuantizableLinear");
	ok(c && !catalog_class(cat, "torch.nn.NonDynamicallyQuantizableLinear"),
	   "a class outside torch.nn's namespace is found only under its module");
	c = catalog_class(cat, "torch.nn.ModuleList");
	ok(c && c->kind == CATALOG_CONTAINER && !c->steps && !c->forward, "ModuleList is a container without forward");
	c = catalog_class(cat, "torch.nn.Sequential");
	ok(c && c->kind == CATALOG_CONTAINER && c->nsteps == 1 && c->steps[0].kind == CATALOG_STEP_MODULE &&
	   !strcmp(c->steps[0].name, "*"), "Sequential calls each child in order");
	c = catalog_class(cat, "torch.nn.RMSNorm");
	ok(c && c->min_torch && !strcmp(c->min_torch, "2.4") && !c->recorded, "RMSNorm is marked min_torch 2.4, not recorded");

	/* parameters */
	ok(lin->nparams == 5 && !strcmp(lin->params[0].name, "in_features") && !lin->params[0].has_default &&
	   !strcmp(lin->params[2].name, "bias") && lin->params[2].has_default &&
	   lin->params[2].def.type == CATALOG_BOOL && lin->params[2].def.i == 1 && lin->params[2].show &&
	   !lin->params[3].show, "Linear(in_features, out_features, bias=True, device=None, dtype=None)");
	ok(catalog_param_at(lin, 2) == &lin->params[2] && catalog_param_at(lin, 5) == NULL,
	   "positional arguments bind in order; a sixth has nowhere to go");
	ok(catalog_param(lin, "dtype") == &lin->params[4] && !catalog_param(lin, "nope"), "parameters by name");
	c = catalog_class(cat, "torch.nn.Sequential");
	p = catalog_param_at(c, 7);
	ok(p && p->kind == CATALOG_VAR_POSITIONAL && !strcmp(p->name, "args"), "Sequential's positionals go to *args");
	c = catalog_class(cat, "torch.nn.Dropout");
	p = catalog_param(c, "p");
	ok(p && p->def.type == CATALOG_FLOAT && p->def.f == 0.5, "Dropout(p=0.5): a float default");
	c = catalog_class(cat, "torch.nn.GELU");
	p = catalog_param(c, "approximate");
	ok(p && p->def.type == CATALOG_STR && !strcmp(p->def.s, "none"), "GELU(approximate='none')");
	c = catalog_class(cat, "torch.nn.TransformerEncoderLayer");
	p = catalog_param(c, "activation");
	ok(p && p->def.type == CATALOG_CALLABLE && !strcmp(p->def.s, "torch.nn.functional.relu"),
	   "TransformerEncoderLayer's activation defaults to F.relu");
	p = catalog_param(c, "bias");
	ok(p && p->min_torch && !strcmp(p->min_torch, "2.1"), "its bias parameter is a 2.1 addition");
	c = catalog_class(cat, "torch.nn.RNN");
	p = catalog_param(c, "nonlinearity");
	ok(p && p->kind == CATALOG_KEYWORD_ONLY && catalog_param_at(c, 3) == catalog_param(c, "bias"),
	   "RNN: nonlinearity is keyword-only in 1.13, bias is the fourth positional");

	/* steps */
	ok(lin->nsteps == 1 && lin->steps[0].kind == CATALOG_STEP_OP &&
	   !strcmp(lin->steps[0].name, "torch.nn.functional.linear") && !lin->steps[0].when,
	   "Linear's forward is F.linear");
	bn = catalog_class(cat, "torch.nn.BatchNorm2d");
	{
		struct catalog_env env = { NULL, NULL, 1, 0, 0 };
		struct catalog_arg a[] = { { "num_features", V_INT(64) }, { "track_running_stats", V_BOOL(0) } };
		struct catalog_args args = { a, 2 };

		r = steps_taken(bn, &env, &b);
		ok(r == 0 && !strcmp(b.buf, "Tensor.dim Tensor.add_ torch.nn.functional.batch_norm"),
		   "BatchNorm2d in training bumps num_batches_tracked (%s)", b.buf);
		env.training = 0;
		r = steps_taken(bn, &env, &b);
		ok(r == 0 && !strcmp(b.buf, "Tensor.dim torch.nn.functional.batch_norm"), "... not in eval (%s)", b.buf);
		env.training = 1;
		env.args = &args;
		r = steps_taken(bn, &env, &b);
		ok(r == 0 && !strcmp(b.buf, "Tensor.dim torch.nn.functional.batch_norm"),
		   "... nor with track_running_stats=False (%s)", b.buf);
		env.args = NULL;
		env.training = -1;
		r = catalog_when(bn, bn->steps[1].when, &env, &taken, &unk);
		ok(r == 1 && unk && !strcmp(unk, "training"), "an unknown mode leaves the condition open, naming it");
		ok(bn->steps[0].meta && !bn->steps[1].meta, "Tensor.dim is meta, Tensor.add_ is not");
		buf_reset(&b);
		catalog_expr_text(bn->steps[1].when, &b);
		ok(!strcmp(b.buf, "self.training and self.track_running_stats"), "condition text: %s", b.buf);
	}
	mha = catalog_class(cat, "torch.nn.MultiheadAttention");
	{
		/* as torch 1.13 records MultiheadAttention(512, 8, batch_first=True)
		 * (x, x, x) in training mode */
		struct catalog_arg a[] = { { "embed_dim", V_INT(512) }, { "num_heads", V_INT(8) },
		                           { "batch_first", V_BOOL(1) } };
		struct catalog_arg f[] = { { "query", V_TENSOR("x", 3) }, { "key", V_TENSOR("x", 3) },
		                           { "value", V_TENSOR("x", 3) } };
		struct catalog_args args = { a, 3 }, fwd = { f, 3 };
		struct catalog_env env = { &args, &fwd, 1, 0, 0 };

		r = steps_taken(mha, &env, &b);
		ok(r == 0 && !strcmp(b.buf, "Tensor.dim Tensor.dtype Tensor.dtype Tensor.dtype Tensor.dtype "
		                            "Tensor.is_nested Tensor.is_nested Tensor.is_nested Tensor.transpose "
		                            "torch.nn.functional.multi_head_attention_forward Tensor.transpose"),
		   "MultiheadAttention self-attention, batch_first, training: %s", b.buf);
		f[1].v = V_TENSOR("mem", 3);
		f[2].v = V_TENSOR("mem", 3);
		r = steps_taken(mha, &env, &b);
		ok(r == 0 && !strcmp(b.buf, "Tensor.dim Tensor.is_nested Tensor.is_nested Tensor.is_nested "
		                            "Tensor.transpose Tensor.transpose "
		                            "torch.nn.functional.multi_head_attention_forward Tensor.transpose"),
		   "... cross-attention (key is value): %s", b.buf);
		f[1].v = V_TENSOR(NULL, 3);
		r = steps_taken(mha, &env, &b);
		ok(r == 1, "... unknown tensor identity leaves it open");
		env.fwd = NULL;
		r = catalog_when(mha, mha->steps[3].when, &env, &taken, &unk);
		ok(r == 1 && unk && !strcmp(unk, "query"), "no forward call known: names the forward argument (%s)",
		   unk ? unk : "-");
	}
	c = catalog_class(cat, "torch.nn.TransformerEncoderLayer");
	{
		struct catalog_arg a[] = { { "d_model", V_INT(8) }, { "nhead", V_INT(2) }, { "activation", V_STR("gelu") } };
		struct catalog_args args = { a, 3 };
		struct catalog_env env = { &args, NULL, 1, 0, 0 };
		size_t i;
		const struct catalog_step *st = NULL;

		for (i = 0; i < c->nsteps; i++)
			if (c->steps[i].kind == CATALOG_STEP_CALL_ARG)
				st = &c->steps[i];
		ok(st && !strcmp(st->name, "activation") &&
		   !strcmp(catalog_call_arg_op(st, "gelu"), "torch.nn.functional.gelu") &&
		   !catalog_call_arg_op(st, "swish"), "the activation argument names its op");
		r = catalog_when(c, c->steps[c->nsteps - 1].when, &env, &taken, &unk);
		ok(r == 0 && taken && !strcmp(c->steps[c->nsteps - 1].name, "norm2"),
		   "post-norm by default: norm2 closes the block");
		ok(c->nchildren >= 8 && !strcmp(c->children[0].name, "self_attn") &&
		   !strcmp(c->children[0].class_name, "torch.nn.MultiheadAttention"), "its children are listed");
	}

	/* parameter counts */
	{
		struct catalog_arg a[] = { { "in_features", V_INT(768) }, { "out_features", V_INT(3072) } };

		check_count(cat, "Linear(768, 3072)", "torch.nn.Linear", a, 2, 2362368);
	}
	{
		struct catalog_arg a[] = { { "in_features", V_INT(10) }, { "out_features", V_INT(5) },
		                           { "bias", V_BOOL(0) } };

		check_count(cat, "Linear(10, 5, bias=False)", "torch.nn.Linear", a, 3, 50);
	}
	{
		struct catalog_arg a[] = { { "in_channels", V_INT(3) }, { "out_channels", V_INT(64) },
		                           { "kernel_size", V_INT(7) }, { "stride", V_INT(2) },
		                           { "padding", V_INT(3) }, { "bias", V_BOOL(0) } };

		check_count(cat, "Conv2d(3, 64, 7, 2, 3, bias=False)", "torch.nn.Conv2d", a, 6, 9408);
	}
	{
		static const long long k35[] = { 3, 5 };
		struct catalog_arg a[] = { { "in_channels", V_INT(64) }, { "out_channels", V_INT(128) },
		                           { "kernel_size", V_TUPLE(k35, 2) }, { "groups", V_INT(4) } };

		check_count(cat, "Conv2d(64, 128, (3, 5), groups=4)", "torch.nn.Conv2d", a, 4, 30848);
	}
	{
		struct catalog_arg a[] = { { "in_channels", V_INT(16) }, { "out_channels", V_INT(8) },
		                           { "kernel_size", V_INT(4) }, { "groups", V_INT(2) } };

		check_count(cat, "ConvTranspose2d(16, 8, 4, groups=2)", "torch.nn.ConvTranspose2d", a, 4, 1032);
	}
	{
		struct catalog_arg a[] = { { "num_features", V_INT(64) } };

		check_count(cat, "BatchNorm2d(64)", "torch.nn.BatchNorm2d", a, 1, 128);
	}
	{
		struct catalog_arg a[] = { { "normalized_shape", V_INT(768) } };

		check_count(cat, "LayerNorm(768)", "torch.nn.LayerNorm", a, 1, 1536);
	}
	{
		struct catalog_arg a[] = { { "normalized_shape", V_INT(768) }, { "bias", V_BOOL(0) } };

		check_count(cat, "LayerNorm(768, bias=False) (torch 2.1+)", "torch.nn.LayerNorm", a, 2, 768);
	}
	{
		struct catalog_arg a[] = { { "num_embeddings", V_INT(50257) }, { "embedding_dim", V_INT(768) } };

		check_count(cat, "Embedding(50257, 768)", "torch.nn.Embedding", a, 2, 38597376);
	}
	{
		struct catalog_arg a[] = { { "embed_dim", V_INT(512) }, { "num_heads", V_INT(8) } };

		check_count(cat, "MultiheadAttention(512, 8)", "torch.nn.MultiheadAttention", a, 2, 1050624);
	}
	{
		struct catalog_arg a[] = { { "input_size", V_INT(256) }, { "hidden_size", V_INT(512) },
		                           { "num_layers", V_INT(2) } };

		check_count(cat, "LSTM(256, 512, 2)", "torch.nn.LSTM", a, 3, 3678208);
	}
	{
		struct catalog_arg a[] = { { "input_size", V_INT(256) }, { "hidden_size", V_INT(512) },
		                           { "num_layers", V_INT(2) }, { "bidirectional", V_BOOL(1) },
		                           { "proj_size", V_INT(128) } };

		check_count(cat, "LSTM(256, 512, 2, bidirectional=True, proj_size=128)", "torch.nn.LSTM", a, 5, 3424256);
	}
	{
		struct catalog_arg a[] = { { "input_size", V_INT(10) }, { "hidden_size", V_INT(20) },
		                           { "num_layers", V_INT(3) }, { "bias", V_BOOL(0) } };

		check_count(cat, "GRU(10, 20, 3, bias=False)", "torch.nn.GRU", a, 4, 6600);
	}
	{
		struct catalog_arg a[] = { { "d_model", V_INT(512) }, { "nhead", V_INT(8) } };

		check_count(cat, "TransformerEncoderLayer(512, 8)", "torch.nn.TransformerEncoderLayer", a, 2, 3152384);
	}
	check_count(cat, "Transformer()", "torch.nn.Transformer", NULL, 0, 44140544);
	check_count(cat, "ReLU()", "torch.nn.ReLU", NULL, 0, 0);

	/* unknown arguments */
	{
		struct catalog_arg a[] = { { "in_features", V_UNKNOWN }, { "out_features", V_INT(5) } };

		unk = NULL;
		r = count(cat, "torch.nn.Linear", a, 2, &n, &unk);
		ok(r == 1 && unk && !strcmp(unk, "in_features"), "an unknown in_features is reported by name");
		a[0].v = V_INT(4);
		a[1].name = "bias";
		a[1].v = V_UNKNOWN;
		r = count(cat, "torch.nn.Linear", a, 2, &n, &unk);
		ok(r == 1 && unk && (!strcmp(unk, "out_features") || !strcmp(unk, "bias")),
		   "a required argument not passed is unknown too (%s)", unk ? unk : "-");
		a[1].name = "out_features";
		a[1].v = V_STR("wide");
		r = count(cat, "torch.nn.Linear", a, 2, &n, &unk);
		ok(r == -1 && strstr(err_last(), "torch.nn.Linear") && strstr(err_last(), "integer"),
		   "a string where an integer is needed is an error: %s", err_last());
		err_clear();
	}
	r = count(cat, "torch.nn.Sequential", NULL, 0, &n, &unk);
	ok(r == 1 && unk && !strcmp(unk, "args"), "a Sequential's count is the sum of its children (args)");
	{
		struct catalog_arg a[] = { { "out_features", V_INT(3) } };

		r = count(cat, "torch.nn.LazyLinear", a, 1, &n, &unk);
		ok(r == 1 && unk && !strcmp(unk, "input"), "a lazy module's count depends on its input");
	}
	{
		struct catalog_arg a[] = { { "normalized_shape", V_INT(768) } };

		r = count(cat, "torch.nn.RMSNorm", a, 1, &n, &unk);
		ok(r == 0 && n == 768, "RMSNorm(768) (torch 2.4+) has 768");
	}

	/* shapes */
	{
		struct catalog_arg a[] = { { "in_features", V_INT(768) }, { "out_features", V_INT(3072) } };
		struct catalog_args args = { a, 2 };
		struct catalog_env env = { &args, NULL, 1, 0, 0 };
		struct catalog_dim in[3] = { { -1, "B" }, { -1, "T" }, { 768, NULL } }, out[8];
		size_t no = 0;

		r = catalog_out_shape(lin, &env, in, 3, out, 8, &no, &unk);
		ok(r == 0 && no == 3 && out[0].sym && !strcmp(out[0].sym, "B") && out[1].sym &&
		   out[2].n == 3072 && !out[2].sym, "Linear: [B, T, 768] -> [B, T, 3072]");
		ok(!strcmp(catalog_shape_input(lin), "input"), "Linear's shape rule reads `input`");
		r = catalog_out_shape(lin, &env, in, 3, out, 2, &no, &unk);
		ok(r == -1, "a too-small output buffer is an error");
		err_clear();
	}
	{
		struct catalog_arg a[] = { { "in_channels", V_INT(3) }, { "out_channels", V_INT(64) },
		                           { "kernel_size", V_INT(7) }, { "stride", V_INT(2) },
		                           { "padding", V_INT(3) } };
		struct catalog_args args = { a, 5 };
		struct catalog_env env = { &args, NULL, 1, 0, 0 };
		struct catalog_dim in[4] = { { -1, "N" }, { 3, NULL }, { 224, NULL }, { 224, NULL } }, out[8];
		size_t no = 0;

		r = catalog_out_shape(catalog_class(cat, "torch.nn.Conv2d"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 0 && no == 4 && out[0].sym && out[1].n == 64 && out[2].n == 112 && out[3].n == 112,
		   "Conv2d(3, 64, 7, 2, 3): [N, 3, 224, 224] -> [N, 64, 112, 112]");
		in[2] = (struct catalog_dim){ -1, "H" };
		r = catalog_out_shape(catalog_class(cat, "torch.nn.Conv2d"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 0 && out[2].n < 0 && !out[2].sym && out[3].n == 112, "a symbolic spatial dim comes out unknown");
	}
	{
		struct catalog_arg a[] = { { "kernel_size", V_INT(3) }, { "stride", V_INT(2) }, { "padding", V_INT(1) } };
		struct catalog_args args = { a, 3 };
		struct catalog_env env = { &args, NULL, 1, 0, 0 };
		struct catalog_dim in[4] = { { 8, NULL }, { 64, NULL }, { 112, NULL }, { 112, NULL } }, out[8];
		size_t no = 0;

		r = catalog_out_shape(catalog_class(cat, "torch.nn.MaxPool2d"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 0 && no == 4 && out[1].n == 64 && out[2].n == 56 && out[3].n == 56, "MaxPool2d(3, 2, 1): 112 -> 56");
	}
	{
		struct catalog_arg a[] = { { "num_embeddings", V_INT(100) }, { "embedding_dim", V_INT(32) } };
		struct catalog_args args = { a, 2 };
		struct catalog_env env = { &args, NULL, 1, 0, 0 };
		struct catalog_dim in[2] = { { 4, NULL }, { -1, "T" } }, out[8];
		size_t no = 0;

		r = catalog_out_shape(catalog_class(cat, "torch.nn.Embedding"), &env, in, 2, out, 8, &no, &unk);
		ok(r == 0 && no == 3 && out[2].n == 32, "Embedding appends embedding_dim");
	}
	{
		struct catalog_env env = { NULL, NULL, 1, 0, 0 };
		struct catalog_dim in[4] = { { 8, NULL }, { 2, NULL }, { 3, NULL }, { 4, NULL } }, out[8];
		size_t no = 0;

		r = catalog_out_shape(catalog_class(cat, "torch.nn.Flatten"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 0 && no == 2 && out[0].n == 8 && out[1].n == 24, "Flatten(): [8, 2, 3, 4] -> [8, 24]");
		r = catalog_out_shape(catalog_class(cat, "torch.nn.CrossEntropyLoss"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 0 && no == 0, "a loss with reduction='mean' gives a scalar");
		r = catalog_out_shape(catalog_class(cat, "torch.nn.Sequential"), &env, in, 4, out, 8, &no, &unk);
		ok(r == 1, "no shape rule: unknown");
	}

	/* names */
	ok(catalog_is_tensor_method(cat, "view") && catalog_is_tensor_method(cat, "__matmul__") &&
	   !catalog_is_tensor_method(cat, "shape"), "Tensor methods");
	ok(catalog_is_tensor_property(cat, "shape") && catalog_is_tensor_property(cat, "mT") &&
	   !catalog_is_tensor_property(cat, "size"), "Tensor properties");
	{
		/* facts: tensor_state, each a Tensor property of torch_names.json */
		static const char *const state[] = { "shape", "dtype", "device", "ndim", "is_cuda",
			"requires_grad", "grad", "layout", "is_leaf", "names", "itemsize",
			"nbytes", "grad_fn" };
		size_t i;
		int all = 1;

		for (i = 0; i < sizeof state / sizeof state[0]; i++)
			if (!catalog_fact(cat, CATALOG_F_TENSOR_STATE, state[i]) ||
			    !catalog_is_tensor_property(cat, state[i]))
				all = 0;
		ok(all && !catalog_fact(cat, CATALOG_F_TENSOR_STATE, "T") &&
		   !catalog_fact(cat, CATALOG_F_TENSOR_STATE, "size"), "Tensor state properties (facts)");
		/* facts: tensor_aliases (x.data is x where it lives), not state;
		 * iter_passthrough (tqdm(loader) is the loader) */
		ok(catalog_fact(cat, CATALOG_F_TENSOR_ALIASES, "data") && catalog_is_tensor_property(cat, "data") &&
		   !catalog_fact(cat, CATALOG_F_TENSOR_STATE, "data") &&
		   catalog_fact(cat, CATALOG_F_ITER_PASSTHROUGH, "tqdm.tqdm"), "Tensor aliases and iterable pass-throughs (facts)");
		/* weight_only_layers: Embedding always, Linear when bias=False;
		 * the trace's phase marks: an annotation by its start, a frame
		 * by a word of its path */
		ok(!strcmp(catalog_fact(cat, CATALOG_F_WEIGHT_ONLY_LAYERS, "torch.nn.Embedding"), "") &&
		   !strcmp(catalog_fact(cat, CATALOG_F_WEIGHT_ONLY_LAYERS, "torch.nn.Linear"), "bias") &&
		   !catalog_fact(cat, CATALOG_F_WEIGHT_ONLY_LAYERS, "torch.nn.LayerNorm"), "weight-only layers (facts)");
		ok(!strcmp(catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_ANNOTATIONS, "Optimizer.step#AdamW.step"), "optimizer") &&
		   !strcmp(catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_ANNOTATIONS, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"), "data") &&
		   !catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_ANNOTATIONS, "ProfilerStep#3") &&
		   !strcmp(catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_FRAMES, "/usr/lib/python3/torch/optim/adamw.py(120): step"), "optimizer") &&
		   !strcmp(catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_FRAMES, "/x/wandb/sdk/run.py(3): log"), "logging") &&
		   !catalog_fact_match(cat, CATALOG_F_TRACE_PHASE_FRAMES, "/x/torch/nn/modules/linear.py(114): forward"),
		   "the trace's phase marks (facts)");
		/* device_batch_iterators: the device argument's keyword and
		 * position; keyword only for BPTTIterator */
		ok(!strcmp(catalog_fact(cat, CATALOG_F_DEVICE_BATCH_ITERATORS, "torchtext.data.BucketIterator"), "device:3") &&
		   !strcmp(catalog_fact(cat, CATALOG_F_DEVICE_BATCH_ITERATORS, "torchtext.legacy.data.BPTTIterator"), "device") &&
		   !catalog_fact(cat, CATALOG_F_DEVICE_BATCH_ITERATORS, "torch.utils.data.DataLoader"),
		   "iterators making batches on a device (facts)");
	}
	ok(catalog_is_meta(cat, "size") && catalog_is_meta(cat, "shape") && catalog_is_meta(cat, "dtype") &&
	   catalog_is_meta(cat, "is_contiguous") && !catalog_is_meta(cat, "view") && !catalog_is_meta(cat, "nope"),
	   "meta names");
	ok(catalog_torch_function(cat, "matmul") && (catalog_torch_name(cat, "zeros") & CATALOG_N_FACTORY) &&
	   !(catalog_torch_name(cat, "matmul") & CATALOG_N_FACTORY) &&
	   (catalog_torch_name(cat, "no_grad") & CATALOG_N_CLASS) && !catalog_torch_function(cat, "no_grad"),
	   "torch functions, factories, classes");
	ok(catalog_torch_name(cat, "compile") == (CATALOG_N_FUNCTION | CATALOG_N_LATER), "torch.compile is a 2.x addition");
	ok(catalog_functional(cat, "softmax") && catalog_functional(cat, "scaled_dot_product_attention") &&
	   (catalog_functional_name(cat, "scaled_dot_product_attention") & CATALOG_N_LATER) &&
	   !(catalog_functional_name(cat, "softmax") & CATALOG_N_LATER) && !catalog_functional(cat, "Linear"),
	   "functional names");
	ok(catalog_tensor_name(cat, "no_such_thing") == 0 && catalog_torch_name(cat, "") == 0, "unknown names are 0");

	/* operators */
	ok(!strcmp(catalog_dunder_binop(cat, AST_OP_ADD, CATALOG_BIN_PLAIN), "__add__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_ADD, CATALOG_BIN_REFLECTED), "__radd__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_ADD, CATALOG_BIN_INPLACE), "__iadd__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_MATMULT, CATALOG_BIN_PLAIN), "__matmul__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_DIV, CATALOG_BIN_PLAIN), "__truediv__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_FLOORDIV, CATALOG_BIN_INPLACE), "__ifloordiv__") &&
	   !strcmp(catalog_dunder_binop(cat, AST_OP_BITAND, CATALOG_BIN_REFLECTED), "__rand__") &&
	   !catalog_dunder_binop(cat, (enum ast_operator)0, CATALOG_BIN_PLAIN) &&
	   !catalog_dunder_binop(cat, (enum ast_operator)99, CATALOG_BIN_PLAIN), "binary operators");
	ok(!strcmp(catalog_dunder_cmpop(cat, AST_CMP_LT), "__lt__") &&
	   !strcmp(catalog_dunder_cmpop(cat, AST_CMP_NOTEQ), "__ne__") &&
	   !strcmp(catalog_dunder_cmpop(cat, AST_CMP_IN), "__contains__") &&
	   !catalog_dunder_cmpop(cat, AST_CMP_IS), "comparisons");
	ok(!strcmp(catalog_dunder_unaryop(cat, AST_UNARY_USUB), "__neg__") &&
	   !strcmp(catalog_dunder_unaryop(cat, AST_UNARY_INVERT), "__invert__") &&
	   !strcmp(catalog_dunder_unaryop(cat, AST_UNARY_NOT), "__bool__") &&
	   !strcmp(catalog_dunder_truth(cat), "__bool__"), "unary operators and truth");
	ok(!strcmp(catalog_dunder_subscript(cat, AST_CTX_LOAD), "__getitem__") &&
	   !strcmp(catalog_dunder_subscript(cat, AST_CTX_STORE), "__setitem__") &&
	   !strcmp(catalog_dunder_subscript(cat, AST_CTX_DEL), "__delitem__"), "subscripts");

	test_facts(cat);

	/* where the catalogue is */
	s = catalog_dir_beside("/usr/share/ecg/pyhelpers");
	ok(!strcmp(s, "/usr/share/ecg/catalog"), "beside /usr/share/ecg/pyhelpers: %s", s);
	free(s);
	s = catalog_dir_beside("/src/ecg/pyhelpers/");
	ok(!strcmp(s, "/src/ecg/catalog"), "a trailing slash is fine: %s", s);
	free(s);
	catalog_free(cat);

	/* broken catalogues are rejected with the file and what is wrong */
	dir = mkdtemp(tmpl);
	if (!ok(dir != NULL, "a scratch directory"))
		return done();
	r = catalog_load("/nonexistent/catalog", &cat);
	ok(r == -1 && !cat && strstr(err_last(), "cannot open catalogue") && err_code() == ECG_EXIT_INTERNAL,
	   "a missing catalogue: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"classes\": [", "\"classes\": [[");
	ok(r == -1 && strstr(err_last(), "torch_nn.json") && strstr(err_last(), "not valid JSON"),
	   "broken JSON: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "{\"mul\": [\"out_features\", {\"sum\": [\"in_features\"",
	                "{\"mull\": [\"out_features\", {\"sum\": [\"in_features\"");
	ok(r == -1 && strstr(err_last(), "torch_nn.json") && strstr(err_last(), "unknown operator \"mull\"") &&
	   strstr(err_last(), "param_count"), "an unknown operator: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "{\"sum\": [\"in_features\"", "{\"sum\": [\"in_featurs\"");
	ok(r == -1 && strstr(err_last(), "in_featurs") && strstr(err_last(), "torch.nn."),
	   "a misspelt parameter in a formula: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"ecg.catalog.torch_nn/1\"", "\"ecg.catalog.torch_nn/9\"");
	ok(r == -1 && strstr(err_last(), "format"), "a newer format: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"recorded\": true", "\"recorded\": 1");
	ok(r == -1 && strstr(err_last(), "recorded"), "a field of the wrong type: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"op\": \"torch.nn.functional.linear\"",
	                "\"op\": \"torch.nn.functional.lineaar\"");
	ok(r == -1 && strstr(err_last(), "lineaar") && strstr(err_last(), "torch_names.json"),
	   "an op torch_names.json does not know: %s", err_last());
	r = load_broken(dir, "torch_names.json", "\"tensor_methods\"", "\"tensor_methodz\"");
	ok(r == -1 && strstr(err_last(), "torch_names.json") && strstr(err_last(), "tensor_methods"),
	   "a names file without its Tensor methods: %s", err_last());
	r = load_broken(dir, "torch_names.json", "\"MatMult\"", "\"MatMul\"");
	ok(r == -1 && strstr(err_last(), "MatMult"), "an operator table without @: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"show\": true}", "\"show\": true, \"colour\": 1}");
	ok(r == -1 && strstr(err_last(), "unknown key \"colour\"") && strstr(err_last(), "params[0]"),
	   "an unknown key, with where it is: %s", err_last());
	r = load_broken(dir, "torch_facts.json", "\"collectives\"", "\"collectivez\"");
	ok(r == -1 && strstr(err_last(), "torch_facts.json") && strstr(err_last(), "unknown fact \"collectivez\""),
	   "a facts file without a fact: %s", err_last());
	r = load_broken(dir, "torch_facts.json", "\"all_reduce\", \"all_gather\"", "\"all_reduce\", \"all_reduce\"");
	ok(r == -1 && strstr(err_last(), "collectives") && strstr(err_last(), "listed twice"),
	   "a fact listing a name twice: %s", err_last());
	r = load_broken(dir, "torch_facts.json", "\"set\": [", "\"map\": [");
	ok(r == -1 && strstr(err_last(), "collectives") && strstr(err_last(), "unknown key \"map\""),
	   "a fact of the wrong kind: %s", err_last());
	r = load_broken(dir, "torch_nn.json", "\"format\"", "\"format\"");
	ok(r == 0, "an unbroken copy loads");
	err_clear();
	{
		char *f1 = xasprintf("%s/torch_nn.json", dir), *f2 = xasprintf("%s/torch_names.json", dir);
		char *f3 = xasprintf("%s/torch_facts.json", dir);

		unlink(f1);
		unlink(f2);
		unlink(f3);
		free(f1);
		free(f2);
		free(f3);
		rmdir(dir);
	}
	buf_free(&b);
	return done();
}
