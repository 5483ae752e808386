/* flops.c - the static FLOP estimate of the records' module entries
 * (flops.h): per call of a layer from its class, arguments and output
 * shape; of a module from its layers and heavy ops times their calls;
 * the shapes' symbols kept (b*t).  The formulas are in flops.h and ecg(1).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/flops.h"
#include "ecg/records.h"
#include "ecg/util.h"

#define jstr records_str
#define jnum records_num

/* a's symbols times the symbols of b (both sorted "x*y"), into a.  -1 when
 * too long. */
static int fl_mul_sym(struct flops *a, const char *b)
{
	char all[256], *parts[32], *p, out[96];
	int n = 0, i, k;

	if (!*b)
		return 0;
	snprintf(all, sizeof all, "%s%s%s", a->m, *a->m ? "*" : "", b);
	for (p = strtok(all, "*"); p && n < 32; p = strtok(NULL, "*"))
		parts[n++] = p;
	if (p)
		return -1;
	for (i = 1; i < n; i++)           /* insertion sort: a handful */
		for (k = i; k > 0 && strcmp(parts[k - 1], parts[k]) > 0; k--) {
			char *t = parts[k];

			parts[k] = parts[k - 1];
			parts[k - 1] = t;
		}
	out[0] = 0;
	for (i = 0; i < n; i++) {
		if (strlen(out) + strlen(parts[i]) + 2 > sizeof out)
			return -1;
		if (i)
			strcat(out, "*");
		strcat(out, parts[i]);
	}
	snprintf(a->m, sizeof a->m, "%s", out);
	return 0;
}

/* a += b when their symbols agree (or one is 0); -1 otherwise */
static int fl_add(struct flops *a, const struct flops *b)
{
	if (b->c == 0)
		return 0;
	if (a->c == 0) {
		*a = *b;
		return 0;
	}
	if (strcmp(a->m, b->m))
		return -1;
	a->c += b->c;
	return 0;
}

/* The dims given their values (flops_modules_bound()), for this call. */
static const struct flops_dim *fl_dims;
static size_t fl_ndims;

/* f's symbols that fl_dims gives, multiplied into its coefficient. */
static void fl_bind(struct flops *f)
{
	char rest[96] = "", buf[96], *p, *save = NULL;
	size_t k;

	if (!fl_ndims || f->c <= 0 || !f->m[0])
		return;
	snprintf(buf, sizeof buf, "%s", f->m);
	for (p = strtok_r(buf, "*", &save); p; p = strtok_r(NULL, "*", &save)) {
		for (k = 0; k < fl_ndims && strcmp(fl_dims[k].name, p); k++)
			;
		if (k < fl_ndims) {
			f->c *= fl_dims[k].n;
		} else {
			size_t l = strlen(rest);

			snprintf(rest + l, sizeof rest - l, "%s%s", l ? "*" : "", p);
		}
	}
	snprintf(f->m, sizeof f->m, "%s", rest);
}

/* The element count of a shape (a JSON array of numbers and symbol
 * names): 1 when every dim is a number or a plain name. */
static int shape_numel(const cJSON *shape, struct flops *out)
{
	const cJSON *d;

	out->c = 1;
	out->m[0] = 0;
	if (!cJSON_IsArray(shape))
		return 0;
	cJSON_ArrayForEach(d, shape) {
		if (cJSON_IsNumber(d))
			out->c *= d->valuedouble;
		else if (cJSON_IsString(d) && d->valuestring[0] && !strpbrk(d->valuestring, "*+-/ ()?"))
			{ if (fl_mul_sym(out, d->valuestring) < 0) return 0; }
		else
			return 0;
	}
	return 1;
}

/* numel of the first output, symbols kept */
static int out_numel(const cJSON *e, struct flops *out)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *o = sh ? cJSON_GetObjectItemCaseSensitive(sh, "out") : NULL;

	return shape_numel(o ? cJSON_GetArrayItem(o, 0) : NULL, out);
}

static int arg_num(const cJSON *e, const char *k, double *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");

	return a ? jnum(a, k, out) : 0;
}

static int has_bias(const cJSON *e)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");
	const cJSON *b = a ? cJSON_GetObjectItemCaseSensitive(a, "bias") : NULL;

	return !b || cJSON_IsTrue(b);
}

static int prefix_in(const char *c, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(c, *list, strlen(*list)))
			return 1;
	return 0;
}

/* A constructor argument K of layer entry e as a dim: its number, or,
 * when its value is not known, the symbol "<id>.K" (lm_head.out_features):
 * the layer's own argument, never equal to another's.  0 when neither (an
 * id with '*' or other characters a symbol cannot hold). */
static int arg_dim(const cJSON *e, const char *k, struct flops *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");
	const cJSON *v = a ? cJSON_GetObjectItemCaseSensitive(a, k) : NULL;
	const char *id = jstr(e, "id"), *p;
	char sym[96];

	out->c = 1;
	out->m[0] = 0;
	if (cJSON_IsNumber(v)) {
		out->c = v->valuedouble;
		return 1;
	}
	if (!cJSON_IsObject(v) || !id || !*id || snprintf(sym, sizeof sym, "%s.%s", id, k) >= (int)sizeof sym)
		return 0;
	for (p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '.'))
			return 0;
	return fl_mul_sym(out, sym) < 0 ? 0 : 1;
}

/* numel of a Linear's output when the records give none (its out_features
 * not known): its input's dims but the last, times out_features as a
 * symbol (arg_dim()). */
static int linear_out_numel(const cJSON *e, struct flops *out)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *in = sh ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sh, "in"), 0) : NULL;
	cJSON *lead;
	struct flops of;
	int n, ok;

	if (!cJSON_IsArray(in) || (n = cJSON_GetArraySize(in)) < 1 || !arg_dim(e, "out_features", &of))
		return 0;
	lead = cJSON_Duplicate(in, 1);
	if (!lead)
		return 0;
	cJSON_DeleteItemFromArray(lead, n - 1);
	ok = shape_numel(lead, out);
	cJSON_Delete(lead);
	if (!ok)
		return 0;
	out->c *= of.c;
	return fl_mul_sym(out, of.m) < 0 ? 0 : 1;
}

/* The estimate of one call of a layer entry (see the top of this file). */
static int layer_flops(const cJSON *e, struct flops *out)
{
	static const char *const norms[] = { "torch.nn.LayerNorm", "torch.nn.GroupNorm", "torch.nn.BatchNorm",
	                                     "torch.nn.RMSNorm", "torch.nn.InstanceNorm", "torch.nn.LocalResponseNorm",
	                                     NULL };
	static const char *const pointwise[] = { "torch.nn.ReLU", "torch.nn.GELU", "torch.nn.SiLU", "torch.nn.Tanh",
	                                         "torch.nn.Sigmoid", "torch.nn.Dropout", "torch.nn.Softmax",
	                                         "torch.nn.LogSoftmax", "torch.nn.LeakyReLU", "torch.nn.ELU",
	                                         "torch.nn.Mish", "torch.nn.Hardswish", "torch.nn.ReLU6",
	                                         "torch.nn.Identity", "torch.nn.Flatten", NULL };
	const char *c = jstr(e, "class");
	double a, b, k = 1;
	struct flops n;

	if (!c)
		return 0;
	if (!strcmp(c, "torch.nn.Embedding")) {
		out->c = 0;
		out->m[0] = 0;
		return 1;
	}
	if (!out_numel(e, &n) && (strcmp(c, "torch.nn.Linear") || !linear_out_numel(e, &n)))
		return 0;
	*out = n;
	if (!strcmp(c, "torch.nn.Linear")) {
		if (!arg_num(e, "in_features", &a))
			return 0;
		out->c = 2 * a * n.c + (has_bias(e) ? n.c : 0);
		return 1;
	}
	if (!strcmp(c, "torch.nn.Conv1d") || !strcmp(c, "torch.nn.Conv2d") || !strcmp(c, "torch.nn.Conv3d")) {
		const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
		const cJSON *ks = args ? cJSON_GetObjectItemCaseSensitive(args, "kernel_size") : NULL, *x;
		int dims = c[strlen(c) - 2] - '0';

		if (!arg_num(e, "in_channels", &a))
			return 0;
		if (!arg_num(e, "groups", &b))
			b = 1;
		if (cJSON_IsNumber(ks)) {
			k = pow(ks->valuedouble, dims);
		} else if (cJSON_IsArray(ks)) {
			cJSON_ArrayForEach(x, ks) {
				if (!cJSON_IsNumber(x))
					return 0;
				k *= x->valuedouble;
			}
		} else {
			return 0;
		}
		out->c = 2 * a / b * k * n.c + (has_bias(e) ? n.c : 0);
		return 1;
	}
	if (!strncmp(c, "torch.nn.MaxPool", 16) || !strncmp(c, "torch.nn.AvgPool", 16) ||
	    !strncmp(c, "torch.nn.AdaptiveAvgPool", 24) || !strncmp(c, "torch.nn.AdaptiveMaxPool", 24)) {
		const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");

		return shape_numel(sh ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sh, "in"), 0) : NULL, out);
	}
	if (prefix_in(c, norms)) {
		out->c = 5 * n.c;
		return 1;
	}
	if (prefix_in(c, pointwise))
		return 1;
	return 0;
}

/* The entries as a tree: what unit_flops() reads. */
struct ent {
	const cJSON *e;
	const char *id, *kind, *parent;
	double total;       /* total_repeat, or -1 */
};

static const cJSON *first_shape(const cJSON *e, const char *side, int k)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *l = sh ? cJSON_GetObjectItemCaseSensitive(sh, side) : NULL;

	return l ? cJSON_GetArrayItem(l, k) : NULL;
}

/* An op's estimate: 1 and *out for the heavy ops with known shapes; 0 for
 * ops not counted; -1 for a heavy op whose shapes are not known. */
static int op_flops(const cJSON *e, struct flops *out)
{
	static const char *const mm[] = { "Tensor.__matmul__", "Tensor.__rmatmul__", "Tensor.matmul", "torch.matmul",
	                                  "torch.bmm", "Tensor.bmm", "torch.mm", "Tensor.mm",
	                                  "torch.nn.functional.linear", NULL };
	const char *op = jstr(e, "op");
	const cJSON *a, *d;
	struct flops n;
	size_t i;
	int heavy = 0, sdpa;

	if (!op)
		return 0;
	for (i = 0; mm[i]; i++)
		if (!strcmp(op, mm[i]))
			heavy = 1;
	sdpa = !strcmp(op, "torch.nn.functional.scaled_dot_product_attention");
	if (!heavy && !sdpa)
		return 0;
	if (!out_numel(e, &n))
		return -1;
	a = first_shape(e, "in", sdpa ? 1 : 0);
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < (sdpa ? 2 : 1))
		return -1;
	d = cJSON_GetArrayItem(a, cJSON_GetArraySize(a) - (sdpa ? 2 : 1));
	*out = n;
	out->c *= sdpa ? 4 : 2;
	if (cJSON_IsNumber(d))
		out->c *= d->valuedouble;
	else if (!cJSON_IsString(d) || strpbrk(d->valuestring, "*+-/ ()?") || fl_mul_sym(out, d->valuestring) < 0)
		return -1;
	return 1;
}

/* Per call of v[i]: its own estimate (a layer) or the sum of its layers'
 * and heavy ops'.  1 and *out, or 0 when not known (a shape, a count, or
 * parts whose symbols differ). */
static int unit_flops(struct ent *v, size_t n, size_t i, int depth, struct flops *out)
{
	size_t j;

	out->c = 0;
	out->m[0] = 0;
	if (depth > 64)
		return 0;
	{
		/* a subtree the records do not list (a library's model not
		 * read): its parts, and so its sum, are not known -- not 0 */
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(v[i].e, "subtree");

		if (st && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(st, "listed")))
			return 0;
	}
	if (!strcmp(v[i].kind, "layer")) {
		if (!layer_flops(v[i].e, out))
			return 0;
		fl_bind(out);
		return 1;
	}
	for (j = 0; j < n; j++) {
		struct flops f;

		if (!v[j].parent || strcmp(v[j].parent, v[i].id))
			continue;
		if (v[j].total == 0)
			continue;     /* never called */
		{
			/* under a condition: never taken adds nothing, one not
			 * decided makes the sum not known (one path or the other) */
			const cJSON *cd = cJSON_GetObjectItemCaseSensitive(v[j].e, "condition");
			const cJSON *tk = cd ? cJSON_GetObjectItemCaseSensitive(cd, "taken") : NULL;

			if (cJSON_IsFalse(tk))
				continue;
			if (cd && !cJSON_IsTrue(tk))
				return 0;
		}
		if (!strcmp(v[j].kind, "op")) {
			int r = op_flops(v[j].e, &f);

			if (r == 0)
				continue;
			if (r < 0)
				return 0;
			fl_bind(&f);
		} else if (!unit_flops(v, n, j, depth + 1, &f)) {
			return 0;
		}
		if (v[j].total < 0 || v[i].total <= 0)
			return 0;
		f.c *= v[j].total / v[i].total;
		if (fl_add(out, &f) < 0)
			return 0;
	}
	return 1;
}

struct flops *flops_modules(const cJSON *modules, size_t *nout)
{
	return flops_modules_bound(modules, NULL, 0, nout);
}

struct flops *flops_modules_bound(const cJSON *modules, const struct flops_dim *dims, size_t ndims, size_t *nout)
{
	size_t n = (size_t)cJSON_GetArraySize(modules), i = 0, k;
	struct ent *v = xcalloc(n + 1, sizeof *v);
	struct flops *out = xcalloc(n + 1, sizeof *out);
	const cJSON *e;

	cJSON_ArrayForEach(e, modules) {
		v[i].e = e;
		v[i].id = jstr(e, "id");
		v[i].kind = jstr(e, "kind");
		v[i].parent = jstr(e, "parent");
		if (!jnum(e, "total_repeat", &v[i].total))
			v[i].total = -1;
		if (!v[i].id || !v[i].kind) {
			/* not an entry: never anyone's child, never estimated */
			v[i].id = "\001";
			v[i].kind = "function";
		}
		i++;
	}
	fl_dims = dims;
	fl_ndims = dims ? ndims : 0;
	for (k = 0; k < n; k++) {
		out[k].c = -1;
		if (strcmp(v[k].kind, "op") && strcmp(v[k].kind, "function") && !unit_flops(v, n, k, 0, &out[k]))
			out[k].c = -1;
		if (out[k].c == 0)
			out[k].m[0] = 0;
	}
	fl_dims = NULL;
	fl_ndims = 0;
	free(v);
	*nout = n;
	return out;
}
