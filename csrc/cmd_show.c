/* cmd_show.c - `ecg show`: the records for a person, in a terminal.
 *
 * The module tree as an aligned table (one line per entry; repeated units
 * are one entry with their count), the units ranked by cost (--top), or
 * the schedule (--schedule).  Reads the records only; runs nothing, needs
 * no repository.
 *
 * The cost estimate (--top) is flops.c's, per call of a unit, forward
 * only (its formulas in flops.h); --top multiplies it by total_repeat and
 * ranks by it where the shapes' symbols agree, by parameters elsewhere.
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
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/flops.h"
#include "ecg/freqwords.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/termfit.h"
#include "ecg/util.h"

static const char show_usage[] =
"usage: ecg show [--records DIR] [--depth N] [--top N] [--dim NAME=N]...\n"
"                [--schedule] [--width N] [--json]\n"
"\n"
"Print the records for a person: the module tree as a table (id, class,\n"
"repeat, total_repeat, parameters, output shape, code anchor), the units\n"
"ranked by cost, or the schedule.  Reads the records only.\n"
"\n"
"  --records DIR         where the records are (default: records/ at the root\n"
"                        of the work tree around the current directory, else\n"
"                        ./records)\n"
"  --depth N             show the tree down to N levels below the model\n"
"  --top N               rank the N costliest layers by a static FLOP estimate\n"
"                        per call times total_repeat (formulas in ecg(1)),\n"
"                        kept in the shapes' symbols (56.6M*b*t); layers whose\n"
"                        FLOPs are not known come after, ranked by parameters\n"
"                        x total_repeat, and the BY column says which\n"
"  --dim NAME=N          with --top: the shapes' symbol NAME is N (b=12,\n"
"                        t=1024, lm_head.out_features=50304), values the\n"
"                        records do not hold; counts then rank as numbers\n"
"  --schedule            phases, then sync points and copies by how often they\n"
"                        recur, collectives by parallelism, compile regions\n"
"  --width N             the table's width (default: the terminal's; 80 in a\n"
"                        pipe): columns shared out, paths cut in the middle,\n"
"                        never a line number; narrow tables leave columns to\n"
"                        --json\n"
"  --json                the rows of the table as one JSON document (tree,\n"
"                        --top with ranked_by, --schedule with frequency_words)\n"
"  -h, --help            show this help\n"
"\n"
"Colour is used on a terminal unless NO_COLOR is set.\n"
"\n"
"Exit status: 0 shown; 2 bad usage; 3 no records in DIR.\n";

#define SHOW_MAX_DIMS 16
struct show {
	int depth, top, schedule, width, color, json;
	const char *records;
	struct {
		char name[64];
		double n;
	} dim[SHOW_MAX_DIMS];     /* --dim NAME=N */
	int ndim;
	cJSON *out;          /* --json: the rows shown, or NULL */
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

/* "2.1M", "2.1M*b*t"; "?" when not known */
static void fl_text(const struct flops *f, int known, char *out, size_t n)
{
	char h[32];

	human(f->c, known, h, sizeof h);
	snprintf(out, n, "%s%s%s", h, known && f->c != 0 && f->m[0] ? "*" : "", known && f->c != 0 ? f->m : "");
}

/* A FLOP count made to fit w columns: its number and the whole symbols
 * that fit, then "..." for the others (never a number cut).  1 when cut. */
#define TOP_FLOPS_MIN 14
static int fl_fit(char *t, int w)
{
	char *p, *keep;

	if ((int)strlen(t) <= w || w < 4)
		return 0;
	keep = strchr(t, '*');
	if (!keep)
		return 0;       /* a number alone: never cut */
	for (p = keep; p && p - t + 4 <= w; p = strchr(p + 1, '*'))
		keep = p;
	if (keep - t + 4 > w)
		return 0;
	snprintf(keep, 5, "*...");
	return 1;
}

struct ent {
	const cJSON *e;
	const char *id, *kind, *parent;
	int depth;
	double total;       /* total_repeat, or -1 */
	double flops;       /* per call (times the symbols fm), or -1 */
	char fm[96];
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

/* A note under a table, wrapped at spaces to the width. */
static void say(const struct show *s, const char *text)
{
	const char *p = text;
	int w = s->width;

	while (*p) {
		int n = (int)strlen(p), cut = n;

		if (n > w) {
			for (cut = w; cut > 0 && p[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w;
		}
		printf("%.*s\n", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		if (*p && w > 4 && p != text) {
			/* continuation lines indented by two */
			w = s->width - 2;
			fputs("  ", stdout);
		}
	}
}

/* One table cell: text (visible already) cut in its middle to w columns,
 * left- or right-aligned, in colour code (or ""), then a space unless
 * last. */
static void cell(const struct show *s, const char *code, const char *text, int w, int right, int last)
{
	char cut[1024];

	termfit_mid(cut, sizeof cut, text, w);
	fputs(S(s, code), stdout);
	if (last)
		fputs(cut, stdout);
	else if (right)
		printf("%*s ", w, cut);
	else
		printf("%-*s ", w, cut);
	fputs(*code ? S(s, RST) : "", stdout);
	if (last)
		putchar('\n');
}

/* A table's columns: n of them, those with on[k] shown; widths shared
 * out within the width (termfit_cols()) over the shown ones. */
static void cols_fit(const struct show *s, int n, const int *on, int *w, const int *min, const int *weight)
{
	int sw[16] = { 0 }, smin[16] = { 0 }, swt[16] = { 0 }, idx[16] = { 0 }, m = 0, k;

	for (k = 0; k < n && m < 16; k++)
		if (on[k]) {
			idx[m] = k;
			sw[m] = w[k];
			smin[m] = min[k];
			swt[m] = weight[k];
			m++;
		}
	termfit_cols(sw, smin, swt, m, s->width - (m - 1));
	for (k = 0; k < m; k++)
		w[idx[k]] = sw[k];
}

/* One row: the shown cells of text[] (codes[] their colours). */
static void cols_row(const struct show *s, int n, const int *on, const int *w, const int *right,
                     const char *const *codes, const char *const *text)
{
	int k, last = -1;

	for (k = 0; k < n; k++)
		if (on[k])
			last = k;
	for (k = 0; k < n; k++)
		if (on[k])
			cell(s, codes ? codes[k] : BOLD, text[k], w[k], right[k], k == last);
}

/* An anchor made to fit w: whole, else "file.py:LINE" (the class column
 * says the rest), both cut in the middle by cell(). */
static void anchor_short(const char *anchor, int w, char *out, size_t n)
{
	const char *c2 = strrchr(anchor, ':'), *slash = strrchr(anchor, '/'), *c1 = strchr(anchor, ':');

	if ((int)strlen(anchor) > w && c1 && c2 && c2 > c1)
		snprintf(out, n, "%.*s%s", (int)(c1 - (slash && slash < c1 ? slash + 1 : anchor)),
		         slash && slash < c1 ? slash + 1 : anchor, c2);
	else
		snprintf(out, n, "%s", anchor);
}

static cJSON *num_or_null(double v)
{
	return v >= 0 ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static int print_tree(const struct show *s, struct ent *v, size_t n)
{
	/* module, class, rep, total, params, out shape, anchor */
	static const char *const head[7] = { "module", "class", "rep", "total", "params", "out shape", "anchor" };
	static const int right[7] = { 0, 0, 1, 1, 1, 0, 0 };
	static const char *const codes[7] = { "", "", YEL, "", "", "", DIM };
	int w[7] = { 18, 14, 5, 6, 7, 12, 12 }, min[7] = { 10, 8, 5, 6, 7, 10, 12 };
	int weight[7] = { 3, 3, 100, 100, 100, 3, 1 }, on[7] = { 1, 1, 1, 1, 1, 1, 1 };
	size_t i;

	/* the module and anchor columns as wide as their text, then all of
	 * them shared out within the width */
	for (i = 0; i < n; i++) {
		const char *anchor = jstr(v[i].e, "code_anchor");
		int m;

		if (!strcmp(v[i].kind, "op") || !strcmp(v[i].kind, "function") ||
		    (s->depth >= 0 && v[i].depth > s->depth))
			continue;
		m = 2 * (v[i].depth < 12 ? v[i].depth : 12) + (int)strlen(vis(rel_name(&v[i])));
		w[0] = m > w[0] ? m : w[0];
		m = anchor ? (int)strlen(vis(anchor)) : 0;
		w[6] = m > w[6] ? m : w[6];
	}
	if (w[0] > 40)
		w[0] = 40;
	on[3] = s->width >= 80;   /* narrow: total_repeat is left to --json */
	cols_fit(s, 7, on, w, min, weight);
	if (!s->out)
		cols_row(s, 7, on, w, right, NULL, head);
	for (i = 0; i < n; i++) {
		const cJSON *e = v[i].e, *r = cJSON_GetObjectItemCaseSensitive(e, "repeat");
		const char *cls = jstr(e, "class"), *anchor = jstr(e, "code_anchor"), *dot;
		char name[640], rep[32], tot[32], par[32], shp[256], an[512], cl[256];
		const char *text[7];
		double cnt;

		if (!strcmp(v[i].kind, "op") || !strcmp(v[i].kind, "function"))
			continue;
		if (s->depth >= 0 && v[i].depth > s->depth)
			continue;
		shape_text(e, shp, sizeof shp);
		if (s->out) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "id", v[i].id);
			cJSON_AddNumberToObject(o, "depth", v[i].depth);
			cJSON_AddItemToObject(o, "class", cls ? cJSON_CreateString(cls) : cJSON_CreateNull());
			if (r && jnum(r, "count", &cnt))
				cJSON_AddNumberToObject(o, "repeat", cnt);
			else
				cJSON_AddItemToObject(o, "repeat", r ? cJSON_CreateString("?") : cJSON_CreateNull());
			cJSON_AddItemToObject(o, "total_repeat", num_or_null(v[i].total));
			cJSON_AddItemToObject(o, "params", num_or_null(v[i].params));
			cJSON_AddItemToObject(o, "out_shape", shp[0] ? cJSON_CreateString(shp) : cJSON_CreateNull());
			cJSON_AddItemToObject(o, "anchor", anchor ? cJSON_CreateString(anchor) : cJSON_CreateNull());
			cJSON_AddItemToArray(s->out, o);
			continue;
		}
		{
			/* the indentation kept, the name cut in its middle */
			int ind = 2 * (v[i].depth < 12 ? v[i].depth : 12);
			char nm[512];

			if (ind > w[0] - 6)
				ind = w[0] - 6 > 0 ? w[0] - 6 : 0;
			{
				/* a name: its head matters most (two thirds of the room) */
				const char *rn = vis(rel_name(&v[i]));
				int room = w[0] - ind, len = (int)strlen(rn), hd;

				if (len <= room || room <= 6) {
					termfit_mid(nm, sizeof nm, rn, room);
				} else {
					hd = (room - 3) * 2 / 3;
					snprintf(nm, sizeof nm, "%.*s...%s", hd, rn, rn + len - (room - 3 - hd));
				}
			}
			snprintf(name, sizeof name, "%*s%s", ind, "", nm);
		}
		dot = cls ? strrchr(cls, '.') : NULL;
		snprintf(cl, sizeof cl, "%s", vis(dot ? dot + 1 : cls ? cls : ""));
		if (r && jnum(r, "count", &cnt))
			snprintf(rep, sizeof rep, "x%.0f", cnt);
		else if (r)
			snprintf(rep, sizeof rep, "x?");
		else
			rep[0] = 0;
		human(v[i].total, v[i].total >= 0, tot, sizeof tot);
		human(v[i].params, v[i].params >= 0, par, sizeof par);
		anchor_short(anchor ? vis(anchor) : "", w[6], an, sizeof an);
		text[0] = name;
		text[1] = cl;
		text[2] = rep;
		text[3] = tot;
		text[4] = par;
		text[5] = vis(shp);
		text[6] = an;
		cols_row(s, 7, on, w, right, codes, text);
	}
	return 0;
}

/* --top: the layers ranked by their FLOPs x total_repeat where the FLOPs
 * are known in the symbols most layers share (the model's when it has
 * them: "b*t" for a transformer); the others after them, ranked by
 * parameters x total_repeat, and said so (BY "params").  A cost known to be
 * small is listed after one not known, which may be large: the layers
 * under TOP_MINOR of the FLOPs ranked come after those ranked by
 * parameters, and among those a known 0 parameters after an unknown count
 * (the dropout after the tied lm_head whose vocabulary is not known). */
#define TOP_MINOR 0.01
static const char *top_mono;   /* the symbols ranked by FLOPs */
static double top_ranked;      /* the FLOPs x total_repeat of those ranked by them */

static int by_flops(const struct ent *x)
{
	return x->flops >= 0 && x->total >= 0 && (x->flops == 0 || !strcmp(x->fm, top_mono));
}

static double cost_flops(const struct ent *x);

/* 0: ranked by FLOPs; 1: by parameters; 2: by FLOPs, under TOP_MINOR */
static int top_tier(const struct ent *x)
{
	if (!by_flops(x))
		return 1;
	return cost_flops(x) >= TOP_MINOR * top_ranked ? 0 : 2;
}

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
	int tx = top_tier(x), ty = top_tier(y);
	double kx = tx != 1 ? cost_flops(x) : cost_params(x), ky = ty != 1 ? cost_flops(y) : cost_params(y);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (tx == 1 && (kx == 0) != (ky == 0))
		return kx == 0 ? 1 : -1;       /* no parameters after a count not known */
	if (kx != ky)
		return kx < ky ? 1 : -1;
	return strcmp(x->id, y->id);
}

/* The symbols most layers' FLOPs have (the model's first), "" for none. */
static void top_choose_mono(struct ent *v, size_t n, char *out, size_t sz)
{
	size_t i, j, best = 0, cnt;

	snprintf(out, sz, "%s", "");
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].kind, "model") && v[i].flops > 0) {
			snprintf(out, sz, "%s", v[i].fm);
			return;
		}
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].kind, "layer") || v[i].flops <= 0)
			continue;
		for (cnt = 0, j = 0; j < n; j++)
			cnt += !strcmp(v[j].kind, "layer") && v[j].flops > 0 && !strcmp(v[j].fm, v[i].fm);
		if (cnt > best) {
			best = cnt;
			snprintf(out, sz, "%s", v[i].fm);
		}
	}
}

static int print_top(const struct show *s, struct ent *v, size_t n)
{
	static const char *const head[9] = { "rank", "layer", "params", "total", "flops/call", "flops*n", "share",
	                                     "by", "anchor" };
	static const int right[9] = { 1, 0, 1, 1, 1, 1, 1, 0, 0 };
	struct ent **u = xcalloc(n + 1, sizeof *u);
	size_t i, k = 0, nparams = 0, nminor = 0, ncut = 0;
	double all_flops = -1;
	const struct ent *model = NULL;
	char mono[96];
	int w[9] = { 4, 12, 7, 6, 10, 10, 6, 6, 12 }, min[9] = { 4, 10, 7, 6, 10, 10, 6, 6, 12 };
	int weight[9] = { 100, 3, 100, 100, 100, 100, 100, 100, 2 };
	int on[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	double ranked_flops = 0;

	top_choose_mono(v, n, mono, sizeof mono);
	top_mono = mono;
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].kind, "model")) {
			model = &v[i];
			if (v[i].flops >= 0 && !strcmp(v[i].fm, mono))
				all_flops = v[i].flops;
		}
		/* units: the layers, where parameters and arithmetic sit */
		if (strcmp(v[i].kind, "layer"))
			continue;
		u[k++] = &v[i];
	}
	for (i = 0; i < k; i++)
		if (by_flops(u[i]) && cost_flops(u[i]) > 0)
			ranked_flops += cost_flops(u[i]);
	top_ranked = ranked_flops;
	qsort(u, k, sizeof *u, by_cost);
	for (i = 0; i < k && (int)i < s->top; i++) {
		const char *an = jstr(u[i]->e, "code_anchor");
		char f1[128];
		struct flops f = { u[i]->flops, "" };
		int m;

		snprintf(f.m, sizeof f.m, "%s", u[i]->fm);
		m = (int)strlen(vis(u[i]->id[0] ? u[i]->id : "(model)"));
		w[1] = m > w[1] ? m : w[1];
		fl_text(&f, f.c >= 0, f1, sizeof f1);
		m = (int)strlen(f1);
		w[4] = m > w[4] ? m : w[4];
		f.c = cost_flops(u[i]);
		fl_text(&f, f.c >= 0, f1, sizeof f1);
		m = (int)strlen(f1);
		w[5] = m > w[5] ? m : w[5];
		min[4] = w[4] < TOP_FLOPS_MIN ? w[4] : TOP_FLOPS_MIN;
		min[5] = w[5] < TOP_FLOPS_MIN ? w[5] : TOP_FLOPS_MIN;
		m = an ? (int)strlen(vis(an)) : 0;
		w[8] = m > w[8] ? m : w[8];
	}
	/* narrow: flops per call, then share, then total are left to --json */
	on[4] = s->width >= 110;
	on[6] = s->width >= 80;
	on[3] = s->width >= 70;
	cols_fit(s, 9, on, w, min, weight);
	if (!s->out)
		cols_row(s, 9, on, w, right, NULL, head);
	for (i = 0; i < k && (int)i < s->top; i++) {
		char rk[32], p1[32], tot[32], f1[128], fn[128], share[16], an[512];
		const char *text[9], *codes[9] = { "", "", "", "", "", "", "", "", DIM };
		const char *anchor = jstr(u[i]->e, "code_anchor");
		struct flops f = { u[i]->flops, "" }, fnn;
		int fl = by_flops(u[i]);

		snprintf(f.m, sizeof f.m, "%s", u[i]->fm);
		fnn = f;
		fnn.c = cost_flops(u[i]);
		if (fl && ranked_flops > 0 && fnn.c >= 0)
			snprintf(share, sizeof share, "%.1f%%", 100 * fnn.c / ranked_flops);
		else
			snprintf(share, sizeof share, "?");
		nparams += !fl;
		nminor += top_tier(u[i]) == 2;
		if (s->out) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "rank", (double)(i + 1));
			cJSON_AddStringToObject(o, "id", u[i]->id);
			cJSON_AddItemToObject(o, "params", num_or_null(u[i]->params));
			cJSON_AddItemToObject(o, "total_repeat", num_or_null(u[i]->total));
			cJSON_AddItemToObject(o, "flops_per_call", num_or_null(u[i]->flops));
			cJSON_AddItemToObject(o, "flops_total", num_or_null(fnn.c));
			cJSON_AddStringToObject(o, "flops_symbols", u[i]->flops > 0 ? u[i]->fm : "");
			cJSON_AddStringToObject(o, "ranked_by", fl ? "flops" : "params");
			cJSON_AddItemToObject(o, "anchor", anchor ? cJSON_CreateString(anchor) : cJSON_CreateNull());
			cJSON_AddItemToArray(s->out, o);
			continue;
		}
		snprintf(rk, sizeof rk, "%zu", i + 1);
		human(u[i]->params, u[i]->params >= 0, p1, sizeof p1);
		human(u[i]->total, u[i]->total >= 0, tot, sizeof tot);
		fl_text(&f, f.c >= 0, f1, sizeof f1);
		fl_text(&fnn, fnn.c >= 0, fn, sizeof fn);
		ncut += on[4] && fl_fit(f1, w[4]);
		ncut += fl_fit(fn, w[5]);
		anchor_short(anchor ? vis(anchor) : "", w[8], an, sizeof an);
		text[0] = rk;
		text[1] = vis(u[i]->id[0] ? u[i]->id : "(model)");
		text[2] = p1;
		text[3] = tot;
		text[4] = f1;
		text[5] = fn;
		text[6] = share;
		text[7] = fl ? "flops" : "params";
		codes[7] = fl ? "" : YEL;
		text[8] = an;
		cols_row(s, 9, on, w, right, codes, text);
	}
	if (!s->out) {
		char line[1024], a[128];

		if (nparams) {
			snprintf(line, sizeof line, "by params: %zu rows whose FLOPs are not known%s%s%s are ranked after, "
			         "by parameters x total_repeat (a count not known before none)", nparams,
			         mono[0] ? " in " : "", mono, mono[0] ? "" : " as numbers");
			say(s, line);
			if (nminor) {
				snprintf(line, sizeof line, "small: %zu rows under %g%% of the FLOPs ranked come after them: "
				         "a cost known to be small after one not known", nminor, 100 * TOP_MINOR);
				say(s, line);
			}
		}
		if (all_flops >= 0) {
			struct flops f = { all_flops, "" };

			snprintf(f.m, sizeof f.m, "%s", mono);
			fl_text(&f, 1, a, sizeof a);
			snprintf(line, sizeof line, "model: %s FLOPs per call from its layers and matmul/attention ops "
			         "(others not counted)", a);
			say(s, line);
		} else {
			say(s, "model: FLOPs per call not known (a layer's output shape or a repeat count is not known, or "
			       "its parts differ in their symbols)");
		}
		say(s, "share: of the FLOPs x total_repeat of the layers ranked by FLOPs");
		if (s->ndim) {
			char *l = xstrdup("dims: from --dim, not the records:"), *t;
			int d;

			for (d = 0; d < s->ndim; d++) {
				t = xasprintf("%s %s=%.0f", l, s->dim[d].name, s->dim[d].n);
				free(l);
				l = t;
			}
			say(s, l);
			free(l);
		}
		if (ncut)
			say(s, "flops: a count ending in '...' has more symbols than fit ('ecg show --top N --json' "
			       "gives them all)");
		if (mono[0]) {
			snprintf(line, sizeof line, "symbols: %s are the shapes' own dims (batch, sequence ...), not known "
			         "as numbers; counts with the same symbols compare (--dim NAME=N gives one a value)", mono);
			say(s, line);
		}
	}
	(void)model;
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

/* A frequency as words with units: "every eval_interval=2000 steps ×400"
 * reads "400 x every 2000 steps (eval_interval)", "every log_interval=1
 * steps" reads "every step (log_interval=1)"; others ("every step",
 * "once", "every 20 epochs") as written.  ASCII: cells are cut by bytes.
 * Into out. */
static int print_schedule(const struct show *s, const cJSON *sched)
{
	const cJSON *e, *hd = cJSON_GetObjectItemCaseSensitive(sched, "host_device");
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(sched, "compute");
	const cJSON **v;
	size_t n = 0, i;
	static const char *const par[] = { "data", "tensor", "pipeline", "expert", "sequence", "context", NULL };
	struct show in = *s;
	static const int right5[5] = { 0, 0, 0, 0, 0 };
	int on[5] = { 1, 1, 1, 1, 1 };

	in.width = s->width - 2 < TERMFIT_MIN ? TERMFIT_MIN : s->width - 2;
	if (s->out) {
		cJSON_AddItemToObject(s->out, "phases",
		                      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(sched, "phases"), 1));
	} else {
		/* phases: name, kind, period, runs on, anchor */
		int w[5] = { 4, 4, 6, 4, 12 }, min[5] = { 8, 8, 10, 4, 12 }, weight[5] = { 2, 100, 3, 100, 2 };

		printf("%sphases%s\n", S(s, BOLD), S(s, RST));
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1)
				cols_fit(&in, 5, on, w, min, weight);
			cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "phases")) {
				const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "period");
				char per[160] = "", name[128], kind[64], ro[32], an[512];
				const char *text[5], *codes[5] = { "", "", "", "", DIM };
				double pv;
				int k;

				if (cJSON_IsObject(p) && jnum(p, "value", &pv))
					snprintf(per, sizeof per, "every %.0f (%s)", pv, jv(p, "expr", "?"));
				else if (cJSON_IsObject(p))
					snprintf(per, sizeof per, "every %s (not known)", jv(p, "expr", "?"));
				snprintf(name, sizeof name, "%s", jv(e, "name", "?"));
				snprintf(kind, sizeof kind, "%s", jv(e, "kind", "?"));
				snprintf(ro, sizeof ro, "%s", jv(e, "runs_on", ""));
				anchor_short(jv(e, "anchor", ""), pass == 0 ? 100000 : w[4], an, sizeof an);
				text[0] = name; text[1] = kind; text[2] = per; text[3] = ro; text[4] = an;
				if (pass == 0) {
					for (k = 0; k < 5; k++)
						w[k] = (int)strlen(text[k]) > w[k] ? (int)strlen(text[k]) : w[k];
					continue;
				}
				fputs("  ", stdout);
				cols_row(s, 5, on, w, right5, codes, text);
			}
		}
	}
	v = xcalloc((size_t)cJSON_GetArraySize(hd) + 1, sizeof *v);
	cJSON_ArrayForEach(e, hd)
		v[n++] = e;
	qsort(v, n, sizeof *v, by_freq);
	if (s->out) {
		cJSON *a = cJSON_AddArrayToObject(s->out, "host_device");

		for (i = 0; i < n; i++) {
			cJSON *d = cJSON_Duplicate(v[i], 1);
			char fw[320];

			if (jstr(v[i], "frequency")) {
				freq_words(jstr(v[i], "frequency"), fw, sizeof fw);
				cJSON_AddStringToObject(d, "frequency_words", fw);
			}
			cJSON_AddItemToArray(a, d);
		}
	} else {
		/* kind, call, frequency, anchor */
		int w[4] = { 4, 4, 9, 12 }, min[4] = { 4, 8, 12, 12 }, weight[4] = { 100, 2, 4, 2 };

		printf("%ssync points and copies, most frequent first%s\n", S(s, BOLD), S(s, RST));
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1)
				cols_fit(&in, 4, on, w, min, weight);
			for (i = 0; i < n; i++) {
				const char *k = jstr(v[i], "kind");
				char kind[16], call[512], fw[320], an[512];
				const char *text[4], *codes[4] = { !strcmp(k ? k : "", "sync") ? YEL : CYN, "", "", DIM };
				int c;

				char fw0[320];

				snprintf(kind, sizeof kind, "%s", k ? vis(k) : "?");
				snprintf(call, sizeof call, "%s", jv(v[i], "call", ""));
				freq_words(jstr(v[i], "frequency") ? jstr(v[i], "frequency") : "?", fw0, sizeof fw0);
				snprintf(fw, sizeof fw, "%s", vis(fw0));
				anchor_short(jv(v[i], "anchor", ""), pass == 0 ? 100000 : w[3], an, sizeof an);
				text[0] = kind; text[1] = call; text[2] = fw; text[3] = an;
				if (pass == 0) {
					for (c = 0; c < 4; c++)
						w[c] = (int)strlen(text[c]) > w[c] ? (int)strlen(text[c]) : w[c];
					continue;
				}
				fputs("  ", stdout);
				cols_row(s, 4, on, w, right5, codes, text);
			}
			if (pass == 0)
				min[2] = w[2] < 28 ? w[2] : 28;   /* how often: what ranks these rows */
		}
	}
	free(v);
	if (s->out) {
		cJSON_AddItemToObject(s->out, "device_device",
		                      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(sched, "device_device"), 1));
		cJSON_AddItemToObject(s->out, "compile_regions",
		                      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(cm, "compile_regions"), 1));
		return 0;
	}
	printf("%scollectives by parallelism%s\n", S(s, BOLD), S(s, RST));
	{
		/* op, phase, implied by, anchor; under a heading per parallelism */
		int w[4] = { 2, 5, 8, 12 }, min[4] = { 8, 6, 10, 12 }, weight[4] = { 2, 100, 2, 3 };
		struct show in4 = *s;

		in4.width = s->width - 4 < TERMFIT_MIN ? TERMFIT_MIN : s->width - 4;
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1)
				cols_fit(&in4, 4, on, w, min, weight);
			for (i = 0; par[i] || (pass == 1 && i == 6); i++) {
				int head = 0;

				cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "device_device")) {
					const char *p = jstr(e, "parallelism");
					const char *text[4], *codes[4] = { "", "", "", DIM };
					char op[128], ph[64], imp[256], an[512];
					size_t q;
					int c, known = 0;

					for (q = 0; p && par[q]; q++)
						known |= !strcmp(p, par[q]);
					if (par[i] ? (!p || strcmp(p, par[i])) : known)
						continue;
					snprintf(op, sizeof op, "%s", jv(e, "op", "?"));
					snprintf(ph, sizeof ph, "%s", jv(e, "phase", ""));
					snprintf(imp, sizeof imp, "%s", jv(e, "implied_by", "explicit"));
					anchor_short(jv(e, "anchor", ""), pass == 0 ? 100000 : w[3], an, sizeof an);
					text[0] = op; text[1] = ph; text[2] = imp; text[3] = an;
					if (pass == 0) {
						for (c = 0; c < 4; c++)
							w[c] = (int)strlen(text[c]) > w[c] ? (int)strlen(text[c]) : w[c];
						continue;
					}
					if (!head++)
						printf("  %s:\n", par[i] ? par[i] : "(parallelism not known)");
					fputs("    ", stdout);
					cols_row(s, 4, on, w, right5, codes, text);
				}
				if (!par[i])
					break;
			}
		}
	}
	printf("%scompile regions%s\n", S(s, BOLD), S(s, RST));
	{
		/* target, mode, anchor */
		int w[3] = { 6, 12, 12 }, min[3] = { 8, 8, 12 }, weight[3] = { 2, 100, 2 };

		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1)
				cols_fit(&in, 3, on, w, min, weight);
			cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(cm, "compile_regions")) {
				const cJSON *g;
				const char *text[3], *codes[3] = { "", "", DIM };
				char tg[256], mode[64], an[512], line[1024];
				int c;

				snprintf(tg, sizeof tg, "%s", jv(e, "target", "?"));
				snprintf(mode, sizeof mode, "mode %s", jv(e, "mode", "default"));
				anchor_short(jv(e, "anchor", ""), pass == 0 ? 100000 : w[2], an, sizeof an);
				text[0] = tg; text[1] = mode; text[2] = an;
				if (pass == 0) {
					for (c = 0; c < 3; c++)
						w[c] = (int)strlen(text[c]) > w[c] ? (int)strlen(text[c]) : w[c];
					continue;
				}
				fputs("  ", stdout);
				cols_row(s, 3, on, w, right5, codes, text);
				cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "graph_breaks")) {
					char cut[1024];

					snprintf(line, sizeof line, "graph break: %s  %s", jv(g, "reason", "?"), jv(g, "anchor", ""));
					printf("    %s\n", termfit_mid(cut, sizeof cut, line, s->width - 4));
				}
			}
		}
	}
	return 0;
}

/* What the analysis did not find (the records' `incomplete`), before the
 * tables it leaves empty. */
static void print_incomplete(const struct show *s, const cJSON *doc)
{
	const cJSON *i, *u;

	cJSON_ArrayForEach(i, cJSON_GetObjectItemCaseSensitive(doc, "incomplete")) {
		char *line = xasprintf("incomplete: %s", jstr(i, "reason") ? jstr(i, "reason") : "");

		say(s, line);     /* wrapped to the width, at spaces */
		free(line);
		cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(i, "stopped_by")) {
			char an[512];

			/* an anchor wider than a line: its file and line number */
			anchor_short(jstr(u, "anchor") ? jstr(u, "anchor") : "", s->width - 16, an, sizeof an);
			line = xasprintf("  stopped by %s: %s", an, jstr(u, "reason") ? jstr(u, "reason") : "");
			say(s, line);
			free(line);
		}
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

/* --dim NAME=N: a symbol of the shapes and its value (a positive integer).
 * 0, or -1 after err_set(ECG_EXIT_USAGE). */
static int parse_dim(struct show *s, const char *a)
{
	const char *eq = strchr(a, '='), *bad = strpbrk(a, "* ");
	char *end;
	long long v;

	if (!eq || eq == a || (size_t)(eq - a) >= sizeof s->dim[0].name || (bad && bad < eq)) {
		err_set(ECG_EXIT_USAGE, "--dim takes NAME=N (b=12), not '%s'", a);
		return -1;
	}
	v = strtoll(eq + 1, &end, 10);
	if (!eq[1] || *end || v <= 0 || v > (1LL << 40)) {
		err_set(ECG_EXIT_USAGE, "--dim %.*s: a positive whole number, not '%s'", (int)(eq - a), a, eq + 1);
		return -1;
	}
	if (s->ndim >= SHOW_MAX_DIMS) {
		err_set(ECG_EXIT_USAGE, "--dim: at most %d", SHOW_MAX_DIMS);
		return -1;
	}
	snprintf(s->dim[s->ndim].name, sizeof s->dim[0].name, "%.*s", (int)(eq - a), a);
	s->dim[s->ndim++].n = (double)v;
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
		{ "json", no_argument, NULL, 'J' },
		{ "dim", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct show s;
	cJSON *graph = NULL, *sched = NULL, *doc = NULL;
	struct ent *v = NULL;
	char *dir = NULL;
	size_t n = 0;
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
		case 'J': s.json = 1; break;
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
			if (cmd_opt_width(optarg, &s.width) < 0)
				goto fail;
			break;
		case 'D':
			if (parse_dim(&s, optarg) < 0)
				goto fail;
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
	s.width = termfit_width(s.width);
	dir = s.records ? xstrdup(s.records) : records_default_dir();
	if (!(graph = records_read(dir, RECORDS_GRAPH_FILE)) || !(sched = records_read(dir, RECORDS_SCHEDULE_FILE)))
		goto fail;
	if (s.json) {
		/* the rows the table would show, as data */
		doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "view", s.schedule ? "schedule" : s.top ? "top" : "tree");
		cJSON_AddItemToObject(doc, "incomplete", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
		                                             s.schedule ? sched : graph, "incomplete"), 1));
		s.out = s.schedule ? cJSON_AddObjectToObject(doc, "schedule") : cJSON_AddArrayToObject(doc, "rows");
	}
	if (s.schedule) {
		if (!s.out)
			print_incomplete(&s, sched);
		print_schedule(&s, sched);
		goto done;
	}
	if (!s.out)
		print_incomplete(&s, graph);
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
	{
		/* the estimate per call of every entry (flops.c), by id */
		size_t nf, k;
		struct flops_dim dims[SHOW_MAX_DIMS];
		struct flops *fl;
		int d;

		for (d = 0; d < s.ndim; d++) {
			dims[d].name = s.dim[d].name;
			dims[d].n = s.dim[d].n;
		}
		fl = flops_modules_bound(cJSON_GetObjectItemCaseSensitive(graph, "modules"), dims, (size_t)s.ndim, &nf);

		k = 0;
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(graph, "modules")) {
			struct ent *x = jstr(e, "id") ? find_ent(v, n, jstr(e, "id")) : NULL;

			if (x && x->e == e) {
				x->flops = fl[k].c;
				snprintf(x->fm, sizeof x->fm, "%s", fl[k].c > 0 ? fl[k].m : "");
			}
			k++;
		}
		free(fl);
	}
	if (s.top)
		print_top(&s, v, n);
	else
		print_tree(&s, v, n);
done:
	if (doc) {
		char *text = emit_render(doc);

		fputs(text, stdout);
		free(text);
	}
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	free(v);
	free(dir);
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	cJSON_Delete(doc);
	return rc;
}
