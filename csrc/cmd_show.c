/* cmd_show.c - `ecg show`: the records for a person, in a terminal.
 *
 * The module tree as an aligned table (one line per entry; repeated units
 * are one entry with their count), the units ranked by cost (--top), or
 * the schedule (--schedule).  Reads the records only; runs nothing, needs
 * no repository.
 *
 * The cost estimate (--top), per call of a unit, forward only:
 *   torch.nn.Linear          2 * in_features * numel(out) + numel(out) with a bias
 *   torch.nn.Conv1d/2d/3d    2 * in_channels / groups * prod(kernel_size) * numel(out)
 *                            + numel(out) with a bias
 *   norms (LayerNorm, GroupNorm, BatchNorm*, RMSNorm, InstanceNorm*)
 *                            5 * numel(out)
 *   activations, Dropout, Softmax and friends   numel(out)
 *   pooling (MaxPool*, AvgPool*, AdaptiveAvgPool*, AdaptiveMaxPool*)
 *                            numel(in): every input element is read once
 *   torch.nn.Embedding       0 (a lookup: memory, not arithmetic)
 *   a repo module or container   the sum of its layers' estimates, each
 *                            times its calls per call of the module
 * numel(out) needs every dim of the first output known as a number; any
 * other layer, an unknown shape or repeat makes the estimate "?", never 0.
 *   ops written in a forward, from their recorded shapes:
 *     matmul (a @ b, torch.matmul, bmm), F.linear
 *                            2 * numel(out) * (last dim of the first input)
 *     F.scaled_dot_product_attention
 *                            4 * numel(out) * (key length: dim -2 of the second input)
 *   other ops (elementwise, reshapes, softmax ...) are not counted.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ecg/cmd.h"
#include "ecg/err.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/util.h"

static const char show_usage[] =
"usage: ecg show [--records DIR] [--depth N] [--top N] [--schedule] [--width N]\n"
"\n"
"Print the records for a person: the module tree as a table (id, class,\n"
"repeat, total_repeat, parameters, output shape, code anchor), the units\n"
"ranked by cost, or the schedule.  Reads the records only.\n"
"\n"
"  --records DIR         where the records are (default: records/ at the root\n"
"                        of the work tree around the current directory, else\n"
"                        ./records)\n"
"  --depth N             show the tree down to N levels below the model\n"
"  --top N               rank the N costliest units: a static FLOP estimate per\n"
"                        call times total_repeat (formulas in ecg(1)); '?' where\n"
"                        shapes or counts are not known\n"
"  --schedule            phases, then sync points and copies by how often they\n"
"                        recur, collectives by parallelism, compile regions\n"
"  --width N             the table's width (default: the terminal's, or 80)\n"
"  -h, --help            show this help\n"
"\n"
"Colour is used on a terminal unless NO_COLOR is set.\n"
"\n"
"Exit status: 0 shown; 2 bad usage; 3 no records in DIR.\n";

struct show {
	int depth, top, schedule, width, color;
	const char *records;
};

static const char *S(const struct show *s, const char *code)
{
	return s->color ? code : "";
}

#define BOLD "\033[1m"
#define DIM "\033[2m"
#define YEL "\033[33m"
#define CYN "\033[36m"
#define RST "\033[0m"

#define jstr records_str
#define jnum records_num

/* A record's string member made safe for the terminal (vis(), util.h):
 * every string from the records goes out through jv() or fit(). */
static const char *jv(const cJSON *e, const char *key, const char *dflt)
{
	const char *v = jstr(e, key);

	return v ? vis(v) : dflt;
}

/* "1.2M", "34.5K", "812"; "?" for unknown */
static void human(double v, int known, char *out, size_t n)
{
	static const char *const suf[] = { "", "K", "M", "G", "T", "P" };
	int i = 0;

	if (!known) {
		snprintf(out, n, "?");
		return;
	}
	while (fabs(v) >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.1f%s", v, suf[i]);
}

/* The first output shape as "[B,T,768]". */
static void shape_text(const cJSON *e, char *out, size_t n)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *o = sh ? cJSON_GetObjectItemCaseSensitive(sh, "out") : NULL;
	const cJSON *first = o ? cJSON_GetArrayItem(o, 0) : NULL, *d;
	buf_t b;

	out[0] = 0;
	if (!cJSON_IsArray(first))
		return;
	buf_init(&b);
	buf_addch(&b, '[');
	cJSON_ArrayForEach(d, first) {
		if (b.len > 1)
			buf_addch(&b, ',');
		if (cJSON_IsNumber(d))
			buf_addf(&b, "%.0f", d->valuedouble);
		else if (cJSON_IsString(d))
			buf_addstr(&b, d->valuestring);
		else
			buf_addch(&b, '?');
	}
	buf_addch(&b, ']');
	snprintf(out, n, "%s", b.buf);
	buf_free(&b);
}

/* numel of the first output when every dim is a number */
static int out_numel(const cJSON *e, double *out)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *o = sh ? cJSON_GetObjectItemCaseSensitive(sh, "out") : NULL;
	const cJSON *first = o ? cJSON_GetArrayItem(o, 0) : NULL, *d;
	double n = 1;

	if (!cJSON_IsArray(first))
		return 0;
	cJSON_ArrayForEach(d, first) {
		if (!cJSON_IsNumber(d))
			return 0;
		n *= d->valuedouble;
	}
	*out = n;
	return 1;
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

/* The estimate of one call of a layer entry (see the top of this file). */
static int layer_flops(const cJSON *e, double *out)
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
	double n, a, b, k = 1;

	if (!c)
		return 0;
	if (!strcmp(c, "torch.nn.Embedding")) {
		*out = 0;
		return 1;
	}
	if (!out_numel(e, &n))
		return 0;
	if (!strcmp(c, "torch.nn.Linear")) {
		if (!arg_num(e, "in_features", &a))
			return 0;
		*out = 2 * a * n + (has_bias(e) ? n : 0);
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
		*out = 2 * a / b * k * n + (has_bias(e) ? n : 0);
		return 1;
	}
	if (!strncmp(c, "torch.nn.MaxPool", 16) || !strncmp(c, "torch.nn.AvgPool", 16) ||
	    !strncmp(c, "torch.nn.AdaptiveAvgPool", 24) || !strncmp(c, "torch.nn.AdaptiveMaxPool", 24)) {
		const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
		const cJSON *in = sh ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sh, "in"), 0) : NULL, *d;
		double m = 1;

		if (!cJSON_IsArray(in))
			return 0;
		cJSON_ArrayForEach(d, in) {
			if (!cJSON_IsNumber(d))
				return 0;
			m *= d->valuedouble;
		}
		*out = m;
		return 1;
	}
	if (prefix_in(c, norms)) {
		*out = 5 * n;
		return 1;
	}
	if (prefix_in(c, pointwise)) {
		*out = n;
		return 1;
	}
	return 0;
}

struct ent {
	const cJSON *e;
	const char *id, *kind, *parent;
	int depth;
	double total;       /* total_repeat, or -1 */
	double flops;       /* per call, or -1 */
	double params;      /* or -1 */
};

static struct ent *find_ent(struct ent *v, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].id, id))
			return &v[i];
	return NULL;
}

static const cJSON *first_shape(const cJSON *e, const char *side, int k)
{
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
	const cJSON *l = sh ? cJSON_GetObjectItemCaseSensitive(sh, side) : NULL;

	return l ? cJSON_GetArrayItem(l, k) : NULL;
}

/* An op's estimate: 1 and *out for the heavy ops with known shapes; 0 for
 * ops not counted; -1 for a heavy op whose shapes are not known. */
static int op_flops(const cJSON *e, double *out)
{
	static const char *const mm[] = { "Tensor.__matmul__", "Tensor.__rmatmul__", "Tensor.matmul", "torch.matmul",
	                                  "torch.bmm", "Tensor.bmm", "torch.mm", "Tensor.mm",
	                                  "torch.nn.functional.linear", NULL };
	const char *op = jstr(e, "op");
	const cJSON *a, *d;
	double n;
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
	if (!cJSON_IsNumber(d))
		return -1;
	*out = (sdpa ? 4 : 2) * n * d->valuedouble;
	return 1;
}

/* Per call of v[i]: its own estimate (a layer) or the sum of its layers'
 * and heavy ops'. */
static double unit_flops(struct ent *v, size_t n, size_t i, int depth)
{
	size_t j;
	double sum = 0;

	if (depth > 64)
		return -1;
	if (!strcmp(v[i].kind, "layer")) {
		double f;

		return layer_flops(v[i].e, &f) ? f : -1;
	}
	for (j = 0; j < n; j++) {
		double f;

		if (!v[j].parent || strcmp(v[j].parent, v[i].id))
			continue;
		if (v[j].total == 0)
			continue;     /* never called */
		if (!strcmp(v[j].kind, "op")) {
			int r = op_flops(v[j].e, &f);

			if (r == 0)
				continue;
			if (r < 0)
				return -1;
		} else {
			f = unit_flops(v, n, j, depth + 1);
		}
		if (f < 0 || v[j].total < 0 || v[i].total <= 0)
			return -1;
		sum += f * (v[j].total / v[i].total);
	}
	return sum;
}

/* The name of an entry under its parent: "attn" for blocks.*.attn, "netG/main"
 * under netG, the whole id for the model. */
static const char *rel_name(const struct ent *x)
{
	size_t pl;

	if (!x->id[0])
		return "(model)";
	if (!x->parent || !x->parent[0])
		return x->id;
	pl = strlen(x->parent);
	if (!strncmp(x->id, x->parent, pl) && (x->id[pl] == '.' || x->id[pl] == '/'))
		return x->id + pl + 1;
	return x->id;
}

/* s cut to w columns: the tail kept for anchors (file:Symbol:line ends
 * matter), the head for names */
static void fit(char *out, size_t n, const char *s, int w, int keep_tail)
{
	int len;

	s = vis(s);
	len = (int)strlen(s);

	if (w < 4 || len <= w) {
		snprintf(out, n, "%s", s);
		return;
	}
	if (keep_tail)
		snprintf(out, n, "...%s", s + len - (w - 3));
	else
		snprintf(out, n, "%.*s...", w - 3, s);
}

static int print_tree(const struct show *s, struct ent *v, size_t n)
{
	size_t i;
	int w = s->width, namew, clw = 14, shw = 12, aw, fixed;

	/* the name column takes what the others leave, within 18..40 */
	fixed = 1 + clw + 1 + 5 + 1 + 6 + 1 + 7 + 1 + shw + 1;
	namew = w - fixed - 12;
	if (namew > 40)
		namew = 40;
	if (namew < 18)
		namew = 18;
	aw = w - fixed - namew;
	if (aw < 12)
		aw = 12;
	printf("%s%-*s %-*s %5s %6s %7s %-*s %s%s\n", S(s, BOLD), namew, "module", clw, "class", "rep", "total",
	       "params", shw, "out shape", "anchor", S(s, RST));
	for (i = 0; i < n; i++) {
		const cJSON *e = v[i].e, *r = cJSON_GetObjectItemCaseSensitive(e, "repeat");
		const char *cls = jstr(e, "class"), *anchor = jstr(e, "code_anchor"), *dot;
		char name[512], nm[512], rep[32], tot[32], par[32], shp[64], sh[64], cl[64], an[512];
		double cnt;

		if (!strcmp(v[i].kind, "op") || !strcmp(v[i].kind, "function"))
			continue;
		if (s->depth >= 0 && v[i].depth > s->depth)
			continue;
		snprintf(name, sizeof name, "%*s%s", 2 * (v[i].depth < 12 ? v[i].depth : 12), "", rel_name(&v[i]));
		fit(nm, sizeof nm, name, namew, 0);
		dot = cls ? strrchr(cls, '.') : NULL;
		fit(cl, sizeof cl, dot ? dot + 1 : cls ? cls : "", clw, 0);
		if (r && jnum(r, "count", &cnt))
			snprintf(rep, sizeof rep, "x%.0f", cnt);
		else if (r)
			snprintf(rep, sizeof rep, "x?");
		else
			rep[0] = 0;
		human(v[i].total, v[i].total >= 0, tot, sizeof tot);
		human(v[i].params, v[i].params >= 0, par, sizeof par);
		shape_text(e, shp, sizeof shp);
		fit(sh, sizeof sh, shp, shw, 0);
		if (anchor && (int)strlen(anchor) > aw) {
			/* narrow: file and line ("model.py:118"), the class says the rest */
			const char *c2 = strrchr(anchor, ':'), *slash = strrchr(anchor, '/'), *c1 = strchr(anchor, ':');
			char shortb[512];

			if (c1 && c2 && c2 > c1) {
				snprintf(shortb, sizeof shortb, "%.*s%s", (int)(c1 - (slash ? slash + 1 : anchor)),
				         slash ? slash + 1 : anchor, c2);
				fit(an, sizeof an, shortb, aw, 1);
			} else {
				fit(an, sizeof an, anchor, aw, 1);
			}
		} else {
			fit(an, sizeof an, anchor ? anchor : "", aw, 1);
		}
		printf("%-*s %-*s %s%5s%s %6s %7s %-*s %s%s%s\n", namew, nm, clw, cl, S(s, YEL), rep, S(s, RST), tot,
		       par, shw, sh, S(s, DIM), an, S(s, RST));
	}
	return 0;
}

/* Units ranked by parameters x total_repeat (the weight each brings to a
 * step), then by the FLOP estimate x total_repeat; unknowns last. */
static double cost_params(const struct ent *x)
{
	return x->params >= 0 && x->total >= 0 ? x->params * x->total : -1;
}

static double cost_flops(const struct ent *x)
{
	return x->flops >= 0 && x->total >= 0 ? x->flops * x->total : -1;
}

static int by_cost(const void *a, const void *b)
{
	const struct ent *x = *(const struct ent *const *)a, *y = *(const struct ent *const *)b;
	double px = cost_params(x), py = cost_params(y), fx = cost_flops(x), fy = cost_flops(y);

	if (px != py)
		return px < py ? 1 : -1;
	if (fx != fy)
		return fx < fy ? 1 : -1;
	return strcmp(x->id, y->id);
}

static int print_top(const struct show *s, struct ent *v, size_t n)
{
	struct ent **u = xcalloc(n + 1, sizeof *u);
	size_t i, k = 0;
	double all_flops = -1, all_par = 0;
	int par_known = 1;

	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].kind, "model"))
			all_flops = v[i].flops;
		/* units: the layers, where parameters and arithmetic sit */
		if (strcmp(v[i].kind, "layer"))
			continue;
		u[k++] = &v[i];
		if (cost_params(&v[i]) >= 0)
			all_par += cost_params(&v[i]);
		else
			par_known = 0;
	}
	qsort(u, k, sizeof *u, by_cost);
	printf("%s%4s  %-34s %7s %6s %9s %10s %10s %6s%s\n", S(s, BOLD), "rank", "layer", "params", "total",
	       "params*n", "flops/call", "flops*n", "share", S(s, RST));
	for (i = 0; i < k && (int)i < s->top; i++) {
		char id[64], p1[32], tot[32], pn[32], f1[32], fn[32], share[16];
		double cp = cost_params(u[i]), cf = cost_flops(u[i]);

		fit(id, sizeof id, u[i]->id[0] ? u[i]->id : "(model)", 34, 1);
		human(u[i]->params, u[i]->params >= 0, p1, sizeof p1);
		human(u[i]->total, u[i]->total >= 0, tot, sizeof tot);
		human(cp, cp >= 0, pn, sizeof pn);
		human(u[i]->flops, u[i]->flops >= 0, f1, sizeof f1);
		human(cf, cf >= 0, fn, sizeof fn);
		if (cp >= 0 && par_known && all_par > 0)
			snprintf(share, sizeof share, "%.1f%%", 100 * cp / all_par);
		else
			snprintf(share, sizeof share, "?");
		printf("%4zu  %-34s %7s %6s %9s %10s %10s %6s\n", i + 1, id, p1, tot, pn, f1, fn, share);
	}
	printf("share: of the parameter weight (params x total_repeat) of all layers%s\n",
	       par_known ? "" : " (not known: a layer's count is)");
	if (all_flops >= 0) {
		char a[32];

		human(all_flops, 1, a, sizeof a);
		printf("model: %s FLOPs per call from its layers and matmul/attention ops (others not counted)\n", a);
	} else {
		printf("model: FLOPs per call not known (a layer's output shape or a repeat count is not a number)\n");
	}
	free(u);
	return 0;
}

static int freq_rank(const char *f)
{
	if (!f)
		return 5;
	if (strstr(f, "micro") || !strncmp(f, "every token", 11))
		return 0;
	if (!strcmp(f, "every step") || !strncmp(f, "every request", 13))
		return 1;
	if (!strncmp(f, "every ", 6))
		return 2;
	if (!strcmp(f, "once"))
		return 3;
	return 4;
}

static int by_freq(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	int rx = freq_rank(jstr(x, "frequency")), ry = freq_rank(jstr(y, "frequency"));

	if (rx != ry)
		return rx - ry;
	return strcmp(jv(x, "anchor", ""), jv(y, "anchor", ""));
}

static int print_schedule(const struct show *s, const cJSON *sched)
{
	const cJSON *e, *hd = cJSON_GetObjectItemCaseSensitive(sched, "host_device");
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(sched, "compute");
	const cJSON **v;
	size_t n = 0, i;
	static const char *const par[] = { "data", "tensor", "pipeline", "expert", "sequence", "context", NULL };

	printf("%sphases%s\n", S(s, BOLD), S(s, RST));
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "phases")) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "period");
		char per[96] = "";
		double pv;

		if (cJSON_IsObject(p))
			snprintf(per, sizeof per, "every %s%s", jv(p, "expr", "?"),
			         jnum(p, "value", &pv) ? "" : " (not known)");
		if (cJSON_IsObject(p) && jnum(p, "value", &pv))
			snprintf(per + strlen(per), sizeof per - strlen(per), "=%.0f", pv);
		printf("  %-12s %-10s %-28s %-5s %s%s%s\n", jv(e, "name", "?"),
		       jv(e, "kind", "?"), per, jv(e, "runs_on", ""),
		       S(s, DIM), jv(e, "anchor", ""), S(s, RST));
	}
	printf("%ssync points and copies, most frequent first%s\n", S(s, BOLD), S(s, RST));
	v = xcalloc((size_t)cJSON_GetArraySize(hd) + 1, sizeof *v);
	cJSON_ArrayForEach(e, hd)
		v[n++] = e;
	qsort(v, n, sizeof *v, by_freq);
	for (i = 0; i < n; i++) {
		const char *k = jstr(v[i], "kind");

		printf("  %s%-4s%s %-34.34s %-36.36s %s%s%s\n", S(s, !strcmp(k ? k : "", "sync") ? YEL : CYN), k ? vis(k) : "?",
		       S(s, RST), jv(v[i], "call", ""),
		       jv(v[i], "frequency", "?"), S(s, DIM),
		       jv(v[i], "anchor", ""), S(s, RST));
	}
	free(v);
	printf("%scollectives by parallelism%s\n", S(s, BOLD), S(s, RST));
	for (i = 0; par[i]; i++) {
		int head = 0;

		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "device_device")) {
			const char *p = jstr(e, "parallelism");

			if (!p || strcmp(p, par[i]))
				continue;
			if (!head++)
				printf("  %s:\n", par[i]);
			printf("    %-16s %-12s %-26s %s%s%s\n", jv(e, "op", "?"),
			       jv(e, "phase", ""), jv(e, "implied_by", "explicit"),
			       S(s, DIM), jv(e, "anchor", ""), S(s, RST));
		}
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "device_device")) {
		const char *p = jstr(e, "parallelism");
		size_t k;
		int known = 0;

		for (k = 0; p && par[k]; k++)
			if (!strcmp(p, par[k]))
				known = 1;
		if (!known)
			printf("  (parallelism not known) %-16s %s\n", jv(e, "op", "?"),
			       jv(e, "anchor", ""));
	}
	printf("%scompile regions%s\n", S(s, BOLD), S(s, RST));
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cm, "compile_regions")) {
		const cJSON *g;

		printf("  %-30s mode %-12s %s%s%s\n", jv(e, "target", "?"),
		       jv(e, "mode", "default"), S(s, DIM), jv(e, "anchor", ""),
		       S(s, RST));
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "graph_breaks"))
			printf("    graph break: %s  %s\n", jv(g, "reason", "?"),
			       jv(g, "anchor", ""));
	}
	return 0;
}

/* What the analysis did not find (the records' `incomplete`), before the
 * tables it leaves empty. */
static void print_incomplete(const cJSON *doc)
{
	const cJSON *i, *u;

	cJSON_ArrayForEach(i, cJSON_GetObjectItemCaseSensitive(doc, "incomplete")) {
		printf("incomplete: %s\n", jstr(i, "reason") ? jstr(i, "reason") : "");
		cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(i, "stopped_by"))
			printf("  stopped by %s: %s\n", jstr(u, "anchor") ? jstr(u, "anchor") : "",
			       jstr(u, "reason") ? jstr(u, "reason") : "");
	}
}

static int parse_n(const char *a, int *out)
{
	char *end;
	long v = strtol(a, &end, 10);

	if (!*a || *end || v < 0 || v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "records", required_argument, NULL, 'r' },
		{ "depth", required_argument, NULL, 'd' },
		{ "top", required_argument, NULL, 't' },
		{ "schedule", no_argument, NULL, 's' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct show s;
	cJSON *graph = NULL, *sched = NULL;
	struct ent *v = NULL;
	char *dir = NULL;
	size_t n = 0, i;
	int c, rc = ECG_EXIT_OK;
	const cJSON *e;

	memset(&s, 0, sizeof s);
	s.depth = -1;
	s.width = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': s.records = optarg; break;
		case 's': s.schedule = 1; break;
		case 'd':
			if (parse_n(optarg, &s.depth) < 0) {
				err_set(ECG_EXIT_USAGE, "--depth takes a number, not '%s'", optarg);
				goto fail;
			}
			break;
		case 't':
			if (parse_n(optarg, &s.top) < 0 || s.top == 0) {
				err_set(ECG_EXIT_USAGE, "--top takes a positive number, not '%s'", optarg);
				goto fail;
			}
			break;
		case 'w':
			if (parse_n(optarg, &s.width) < 0 || s.width < 40) {
				err_set(ECG_EXIT_USAGE, "--width takes a number of columns (40 or more), not '%s'", optarg);
				goto fail;
			}
			break;
		case 'h':
			fputs(show_usage, stdout);
			return ECG_EXIT_OK;
		default:
			cmd_opt_unknown_in("show", argv, longopts);
			goto fail;
		}
	}
	if (optind < argc) {
		err_set(ECG_EXIT_USAGE, "show: unexpected argument '%s' (see 'ecg show --help')", argv[optind]);
		goto fail;
	}
	s.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	if (!s.width) {
		const char *cols = getenv("COLUMNS");

		s.width = cols && atoi(cols) >= 40 ? atoi(cols) : 80;
	}
	dir = s.records ? xstrdup(s.records) : records_default_dir();
	if (!(graph = records_read(dir, RECORDS_GRAPH_FILE)) || !(sched = records_read(dir, RECORDS_SCHEDULE_FILE)))
		goto fail;
	if (s.schedule) {
		print_incomplete(sched);
		print_schedule(&s, sched);
		goto cleanup;
	}
	print_incomplete(graph);
	v = xcalloc((size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(graph, "modules")) + 1, sizeof *v);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(graph, "modules")) {
		struct ent *x = &v[n];
		struct ent *p;

		if (!jstr(e, "id") || !jstr(e, "kind"))
			continue;
		x->e = e;
		x->id = jstr(e, "id");
		x->kind = jstr(e, "kind");
		x->parent = jstr(e, "parent");
		if (!jnum(e, "total_repeat", &x->total))
			x->total = -1;
		if (!jnum(e, "params", &x->params))
			x->params = -1;
		p = x->parent ? find_ent(v, n, x->parent) : NULL;
		x->depth = p ? p->depth + 1 : 0;
		n++;
	}
	for (i = 0; i < n; i++)
		v[i].flops = strcmp(v[i].kind, "op") && strcmp(v[i].kind, "function") ? unit_flops(v, n, i, 0) : -1;
	if (s.top)
		print_top(&s, v, n);
	else
		print_tree(&s, v, n);
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	free(v);
	free(dir);
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	return rc;
}
