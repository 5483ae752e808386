/* cmd_attribute.c - `ecg attribute TRACE`: a profiler trace read against
 * the records.  Options and the report; the join itself is attrib.c's
 * (attrib.h), where its passes are described.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/attrib.h"
#include "ecg/catalog.h"
#include "ecg/helpers.h"
#include "ecg/records.h"
#include "ecg/termfit.h"
#include "ecg/trace.h"
#include "ecg/util.h"

static const char attribute_usage[] =
"usage: ecg attribute [--records DIR] [--json] [--min-gap US] [--top N]\n"
"                     [--width N] TRACE\n"
"\n"
"Read a PyTorch profiler trace (Chrome/Kineto JSON, .json or .json.gz, as\n"
"export_chrome_trace() writes it; record it with with_stack=True, and\n"
"with_modules=True for layers) against the records: every CPU op, kernel\n"
"and memcpy is put on the entry of the computation graph that issued it\n"
"(backward ops on the forward's entry), measured calls are compared with\n"
"total_repeat, and idle gaps on the device streams are put on the sync,\n"
"copy, collective or data wait behind them.  Time that no entry owns goes to\n"
"the schedule's phase the trace marks (Optimizer.step#, GradScaler's step,\n"
"DataLoader, logging libraries), else to the frame it ran in.\n"
"\n"
"  --records DIR   where the records are (default: records/ at the root of\n"
"                  the work tree around the current directory, else ./records)\n"
"  --json          the report as JSON on stdout\n"
"  --min-gap US    the shortest idle gap reported, in microseconds (default 20)\n"
"  --top N         rows of gaps and of unattributed time (default 10)\n"
"  --width N       the table's width (default: the terminal's; 80 in a pipe):\n"
"                  ids cut in the middle, host times left to --json below 76\n"
"                  columns, a frame or schedule anchor on a line of its own,\n"
"                  never cut before its line number\n"
"  -h, --help      show this help\n"
"\n"
"The table gives times in ms (three significant digits), --json in us;\n"
"warnings come first.\n"
"\n"
"Exit status: 0 read; 1 measured calls disagree with the records (flagged),\n"
"or nothing in the trace matches an anchor (another job or commit, or no\n"
"python_function frames); 2 bad usage; 3 no records, or a trace that\n"
"cannot be read or is damaged (a CRC or length mismatch, bytes after the last\n"
"gzip member, bad JSON); a truncated trace is read up to the cut, with a\n"
"warning; 5 the temporary file (in $TMPDIR, else /tmp; removed at once)\n"
"that the events are sorted in cannot be written.\n";

/* ------------------------------------------------------------------ report */

/* US microseconds as milliseconds with three significant digits, in BUF
 * (32 bytes): 1504 -> "1.50", 288 -> "0.288", 12.5 -> "0.0125", 123456 ->
 * "123", 1234567 -> "1230"; 0 -> "0".  Returns BUF. */
static char *ms(char buf[32], double us)
{
	double v = us / 1000, r, p;
	int k, dec;

	if (!(fabs(v) > 0) || !isfinite(v)) {
		snprintf(buf, 32, "%s", isfinite(v) ? "0" : "?");
		return buf;
	}
	k = (int)floor(log10(fabs(v)));
	p = pow(10, k - 2);
	r = round(v / p) * p;          /* three significant digits */
	k = (int)floor(log10(fabs(r)));  /* 99.96 became 100 */
	dec = k >= 2 ? 0 : 2 - k;
	if (dec > 12 || fabs(r) >= 1e15) {
		snprintf(buf, 32, "%.3g", v);
		return buf;
	}
	snprintf(buf, 32, "%.*f", dec, r);
	return buf;
}

/* ------------------------------------------------------------------ text */

/* The table is A->width wide (termfit.h): no line is longer, and no code
 * anchor loses its line number (cells are cut in their middle by
 * termfit_mid(); a row's frame and schedule anchors go on lines of their
 * own, wrapped at spaces). */

/* TEXT wrapped at spaces to W columns, continuation lines indented by
 * IND (the first by FIRST spaces); a word wider than its line is cut in
 * its middle (an anchor keeps its line number). */
static void wrap(const char *text, int w, int first, int ind)
{
	const char *p = text;
	int col = first, start = 1;
	char cut[1024];

	printf("%*s", first, "");
	while (*p) {
		size_t n = strcspn(p, " ");

		if (!start && col + 1 + (int)n > w) {
			printf("\n%*s", ind, "");
			col = ind;
			start = 1;
		}
		if (!start) {
			putchar(' ');
			col++;
		}
		if (col + (int)n > w) {
			char word[1024];

			snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p);
			termfit_mid(cut, sizeof cut, word, w - col);
			fputs(cut, stdout);
			col += (int)strlen(cut);
		} else {
			printf("%.*s", (int)n, p);
			col += (int)n;
		}
		start = 0;
		p += n;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

#define TAB_MAX 10

/* A table of strings: n columns with their heads; rows added by
 * tab_row(), printed by tab_print() within a width. */
struct tab {
	int n;
	const char *head[TAB_MAX];
	int right[TAB_MAX], min[TAB_MAX], weight[TAB_MAX], on[TAB_MAX], w[TAB_MAX];
	char **cell;               /* rows x n, owned */
	size_t rows, acell;
};

static void tab_row(struct tab *t, const char *const *text)
{
	int k;

	GROW(t->cell, t->acell, (t->rows + 1) * (size_t)t->n);
	for (k = 0; k < t->n; k++)
		t->cell[t->rows * (size_t)t->n + (size_t)k] = xstrdup(text[k] ? text[k] : "");
	t->rows++;
}

/* Columns as wide as their text, then shared out within W minus IND (the
 * rows' indent); a column left off (on[k] 0) is the caller's choice. */
static void tab_print(struct tab *t, int w, int ind)
{
	int sw[TAB_MAX] = { 0 }, smin[TAB_MAX] = { 0 }, swt[TAB_MAX] = { 0 }, idx[TAB_MAX] = { 0 }, m = 0, k, last = -1;
	size_t r;
	char cut[1024];

	for (k = 0; k < t->n; k++) {
		t->w[k] = (int)strlen(t->head[k]);
		for (r = 0; r < t->rows; r++) {
			int l = (int)strlen(t->cell[r * (size_t)t->n + (size_t)k]);

			if (l > t->w[k])
				t->w[k] = l;
		}
		if (t->on[k]) {
			idx[m] = k;
			sw[m] = t->w[k];
			smin[m] = t->min[k] < t->w[k] ? t->min[k] : t->w[k];
			swt[m] = t->weight[k];
			m++;
			last = k;
		}
	}
	termfit_cols(sw, smin, swt, m, w - ind - (m - 1));
	for (k = 0; k < m; k++)
		t->w[idx[k]] = sw[k];
	for (r = 0; r <= t->rows; r++) {
		printf("%*s", r ? ind : 0, "");
		for (k = 0; k < t->n; k++) {
			const char *c = r ? t->cell[(r - 1) * (size_t)t->n + (size_t)k] : t->head[k];
			int cw = t->w[k] + (r ? 0 : k == idx[0] ? ind : 0);

			if (!t->on[k])
				continue;
			termfit_mid(cut, sizeof cut, c, cw);
			if (k == last && !t->right[k])
				fputs(cut, stdout);
			else
				printf(t->right[k] ? "%*s%s" : "%-*s%s", cw, cut, k == last ? "" : " ");
		}
		putchar('\n');
	}
	for (r = 0; r < t->rows * (size_t)t->n; r++)
		free(t->cell[r]);
	free(t->cell);
	t->cell = NULL;
	t->rows = t->acell = 0;
}

/* A table with the n heads and alignments given; every column on, min 4,
 * weight 1. */
static void tab_init(struct tab *t, int n, const char *const *head, const int *right)
{
	int k;

	memset(t, 0, sizeof *t);
	t->n = n;
	for (k = 0; k < n; k++) {
		t->head[k] = head[k];
		t->right[k] = right[k];
		t->min[k] = 4;
		t->weight[k] = 1;
		t->on[k] = 1;
	}
}

static void report_text(struct att *A, cJSON *out, const double gap_kind[2])
{
	const struct totals T = A->tot;
	const struct ggroup *g = A->groups;
	const cJSON *e, *ws = cJSON_GetObjectItemCaseSensitive(out, "warnings");
	const cJSON *ents = cJSON_GetObjectItemCaseSensitive(out, "entries");
	double window = A->steps ? A->step_us : A->t1 - A->t0;
	int W = A->width, flagged = 0, longflag;
	size_t i, ng = A->ngroups;
	char b[6][32], *line;
	struct tab t;

	if (!(window > 0))
		window = 1;
	/* a warning changes how the rest reads: it comes first */
	cJSON_ArrayForEach(e, ws) {
		line = xasprintf("warning: %s", vis(e->valuestring));
		wrap(line, W, 0, 2);
		free(line);
	}
	if (cJSON_GetArraySize(ws))
		putchar('\n');
	line = xasprintf("trace %s: %zu events kept, %ld step%s%s", vis(A->trace_path), A->nev, A->steps,
	                 A->steps == 1 ? "" : "s", A->steps ? "" : " (no ProfilerStep#: the whole trace is one step)");
	wrap(line, W, 0, 2);
	free(line);
	line = xasprintf("records %s at %s: %ld repository frames, %ld enter an entry (%ld by symbol)",
	                 vis(A->records_dir),
	                 records_str(A->graph, "commit") ? vis(records_str(A->graph, "commit")) : "no commit (a work tree)",
	                 A->frames_repo, A->frames_matched, A->frames_moved);
	wrap(line, W, 0, 2);
	free(line);
	putchar('\n');

	/* entries: the host columns when there is room; the flag in full
	 * when there is room, else "<<" and a note under the table */
	cJSON_ArrayForEach(e, ents)
		if (strcmp(records_str(e, "kind"), "op") && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "flag")))
			flagged = 1;
	longflag = W >= 110;
	{
		static const char *const head[9] = { "entry (times in ms, whole trace)", "repeat", "calls", "fwd dev",
		                                     "bwd dev", "fwd host", "bwd host", "share", "" };
		static const int right[9] = { 0, 1, 1, 1, 1, 1, 1, 1, 0 };

		int k;

		tab_init(&t, 9, head, right);
		for (k = 1; k < 9; k++)
			t.min[k] = 1000;  /* numbers are never cut: the ids give way */
		t.min[0] = 12;
		if (W < 100)
			t.head[0] = "entry (ms, whole trace)";
		t.on[5] = t.on[6] = W >= 76;
		t.on[8] = flagged;
	}
	cJSON_ArrayForEach(e, ents) {
		const char *kind = records_str(e, "kind"), *name = records_str(e, "id");
		const struct ent *x = &A->ents[attrib_find_ent(A, name)];
		const char *cells[9];
		char rep[32], calls[32], id[512], share[32];
		double v;
		int ind = x->depth < 8 ? 2 * x->depth : 16;

		if (!strcmp(kind, "op"))
			continue;
		snprintf(id, sizeof id, "%*s%s", ind, "", *name ? vis(name) : "(model)");
		if (records_num(e, "total_repeat", &v))
			snprintf(rep, sizeof rep, "%g", v);
		else
			snprintf(rep, sizeof rep, "?");
		if (records_num(e, "calls", &v))
			snprintf(calls, sizeof calls, "%g", v);
		else
			snprintf(calls, sizeof calls, "-");
		snprintf(share, sizeof share, "%.1f%%",
		         100 * (T.dev > 0 ? x->idev[0] + x->idev[1] : x->ihost[0] + x->ihost[1]) / window);
		cells[0] = id;
		cells[1] = rep;
		cells[2] = calls;
		cells[3] = ms(b[0], x->idev[0]);
		cells[4] = ms(b[1], x->idev[1]);
		cells[5] = ms(b[2], x->ihost[0]);
		cells[6] = ms(b[3], x->ihost[1]);
		cells[7] = share;
		cells[8] = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "flag"))
		               ? (longflag ? " << calls differ" : "<<") : "";
		tab_row(&t, cells);
	}
	if (t.rows > 0) {
		/* a long id keeps its end (it says most): cut before the table does */
		int fixed = 0, k, room;

		for (k = 1; k < t.n; k++)
			if (t.on[k]) {
				size_t r;
				int cw = (int)strlen(t.head[k]);

				for (r = 0; r < t.rows; r++)
					if ((int)strlen(t.cell[r * (size_t)t.n + (size_t)k]) > cw)
						cw = (int)strlen(t.cell[r * (size_t)t.n + (size_t)k]);
				fixed += cw + 1;
			}
		room = W - fixed;
		if (room < t.min[0])
			room = t.min[0];
		for (i = 0; i < t.rows; i++) {
			char **c = &t.cell[i * (size_t)t.n];
			size_t nl = strlen(*c), lead = strspn(*c, " ");

			if ((int)nl > room) {
				size_t keep_ind = lead * 3 > (size_t)room ? (size_t)room / 3 : lead;
				size_t tail = (size_t)room - keep_ind - 3;
				char *s = xasprintf("%*s...%s", (int)keep_ind, "", *c + nl - tail);

				free(*c);
				*c = s;
			}
		}
	}
	tab_print(&t, W, 0);
	if (flagged && !longflag)
		wrap("<<: the measured calls differ from total_repeat x the model's calls", W, 0, 2);

	line = xasprintf("not attributed: host %s ms of %s (%.1f%%), device %s ms of %s (%.1f%%)", ms(b[0], T.host_un),
	                 ms(b[1], T.host), T.host > 0 ? 100 * T.host_un / T.host : 0, ms(b[2], T.dev_un), ms(b[3], T.dev),
	                 T.dev > 0 ? 100 * T.dev_un / T.dev : 0);
	putchar('\n');
	wrap(line, W, 0, 2);
	free(line);
	for (i = 0; i < T.nun && (int)i < A->top; i++) {
		char row[96];
		const char *where = vis(T.un[i].key);

		snprintf(row, sizeof row, "  %8s ms host %8s ms device", ms(b[0], T.un[i].host), ms(b[1], T.un[i].dev));
		/* where on the same line when it fits, else on a line of its own */
		if ((int)(strlen(row) + 2 + strlen(where)) <= W)
			printf("%s  %s\n", row, where);
		else {
			char cut[1024];

			printf("%s\n    %s\n", row, termfit_mid(cut, sizeof cut, where, W - 4));
		}
	}

	if (A->nstepv) {
		static const char *const head[4] = { "per step", "time", "device busy (all streams)", "idle gaps" };
		static const int right[4] = { 0, 1, 1, 1 };

		tab_init(&t, 4, head, right);
		if (W < 70)
			t.head[2] = "device busy";
		for (i = 0; i < A->nstepv && (int)i < A->top; i++) {
			const char *cells[4];
			char c1[40], c2[40], c3[40];

			snprintf(c1, sizeof c1, "%s ms", ms(b[0], A->stepv[i].dur));
			snprintf(c2, sizeof c2, "%s ms", ms(b[1], A->stepv[i].busy));
			snprintf(c3, sizeof c3, "%s ms", ms(b[2], A->stepv[i].gaps));
			cells[0] = vis(A->stepv[i].name);
			cells[1] = c1;
			cells[2] = c2;
			cells[3] = c3;
			tab_row(&t, cells);
		}
		putchar('\n');
		tab_print(&t, W, 2);
		if (A->nstepv > (size_t)A->top) {
			line = xasprintf("... %zu more steps (--top, or --json for all)", A->nstepv - (size_t)A->top);
			wrap(line, W, 2, 4);
			free(line);
		}
	}
	if (A->nstreams) {
		printf("\ndevice streams (window %s ms):\n", ms(b[0], A->t1 > A->t0 ? A->t1 - A->t0 : 0));
		for (i = 0; i < A->nstreams; i++) {
			const struct stream_use *u = &A->streams[i];
			int pids = A->nstreams > 1 && A->streams[0].pid != A->streams[A->nstreams - 1].pid;
			char sid[64];

			if (pids)
				snprintf(sid, sizeof sid, "%lld/%lld", (long long)u->pid, (long long)u->stream);
			else
				snprintf(sid, sizeof sid, "%lld", (long long)u->stream);
			line = xasprintf("stream %-8s %-13s busy %8s ms %5.1f%%   idle gaps %8s ms", vis(sid),
			                 attrib_stream_comm(u) ? "communication" : "compute", ms(b[0], u->busy),
			                 A->t1 > A->t0 ? 100 * u->busy / (A->t1 - A->t0) : 0, ms(b[1], u->gaps));
			if ((int)strlen(line) + 2 > W) {
				/* narrow: the same words, the padding dropped */
				free(line);
				line = xasprintf("stream %s %s busy %s ms %.1f%% idle gaps %s ms", vis(sid),
				                 attrib_stream_comm(u) ? "communication" : "compute", ms(b[0], u->busy),
				                 A->t1 > A->t0 ? 100 * u->busy / (A->t1 - A->t0) : 0, ms(b[1], u->gaps));
			}
			if ((int)strlen(line) + 2 <= W)
				printf("  %s\n", line);
			else
				wrap(line, W, 2, 4);
			free(line);
		}
	}
	line = xasprintf("idle gaps >= %g us on the device streams: %ld, %s ms (compute streams %s ms, communication "
	                 "streams %s ms)", A->min_gap, A->gap_n, ms(b[0], A->gap_total), ms(b[1], gap_kind[0]),
	                 ms(b[2], gap_kind[1]));
	putchar('\n');
	wrap(line, W, 0, 2);
	free(line);
	for (i = 0; i < ng && (int)i < A->top; i++) {
		cJSON *cands = g[i].ev >= 0 ? attrib_schedule_candidates(A, g[i].frame, g[i].what, g[i].cause) : NULL;
		const cJSON *c;
		char *row;

		row = xasprintf("  stream %-4lld %5ld x %8s ms = %8s ms  %-10s %s", (long long)g[i].stream, g[i].n,
		                ms(b[0], g[i].total / (double)g[i].n), ms(b[1], g[i].total), attrib_cause_name[g[i].cause],
		                vis(g[i].what));
		if ((int)strlen(row) > W) {
			/* the host call on a line of its own */
			char cut[1024];
			char *head = xasprintf("  stream %-4lld %5ld x %8s ms = %8s ms  %s", (long long)g[i].stream, g[i].n,
			                       ms(b[0], g[i].total / (double)g[i].n), ms(b[1], g[i].total),
			                       attrib_cause_name[g[i].cause]);

			if ((int)strlen(head) > W) {
				free(head);
				head = xasprintf("  stream %lld %ld x %s ms = %s ms %s", (long long)g[i].stream, g[i].n,
				                 ms(b[0], g[i].total / (double)g[i].n), ms(b[1], g[i].total),
				                 attrib_cause_name[g[i].cause]);
			}
			printf("%s\n    %s\n", head, termfit_mid(cut, sizeof cut, vis(g[i].what), W - 4));
			free(head);
		} else {
			puts(row);
		}
		free(row);
		if (*g[i].where) {
			line = xasprintf("in %s", vis(g[i].where));
			wrap(line, W, 4, 6);
			free(line);
		}
		if (cands && cJSON_GetArraySize(cands)) {
			buf_t sb;

			buf_init(&sb);
			buf_addstr(&sb, "-> schedule");
			cJSON_ArrayForEach(c, cands) {
				buf_addch(&sb, ' ');
				buf_addvis(&sb, c->valuestring);
			}
			wrap(sb.buf, W, 4, 6);
			buf_free(&sb);
		}
		cJSON_Delete(cands);
	}
}

static cJSON *num_or_null(double v)
{
	return v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(round(v * 1000) / 1000);
}

static int report(struct att *A)
{
	const struct totals T = A->tot;
	const struct ggroup *g = A->groups;
	size_t ng = A->ngroups, i;
	double gap_total = A->gap_total, steps = A->steps ? (double)A->steps : 1, window;
	long gap_n = A->gap_n, flagged = 0;
	double gap_kind[2] = { 0, 0 };  /* idle gaps on compute and on communication streams */
	cJSON *out = cJSON_CreateObject(), *ents = cJSON_CreateArray(), *gaps = cJSON_CreateArray(), *un;
	char *text;
	int rc = ECG_EXIT_OK;

	window = A->steps ? A->step_us : A->t1 - A->t0;
	if (!(window > 0))
		window = 1;

	cJSON_AddStringToObject(out, "trace", A->trace_path);
	cJSON_AddStringToObject(out, "records", A->records_dir);
	cJSON_AddItemToObject(out, "commit", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(A->graph, "commit"), 1));
	cJSON_AddNumberToObject(out, "events", (double)A->nev);
	cJSON_AddNumberToObject(out, "steps", (double)A->steps);
	cJSON_AddItemToObject(out, "step_us", num_or_null(A->steps ? A->step_us / steps : -1));
	cJSON_AddBoolToObject(out, "python_frames", A->has_py);
	cJSON_AddBoolToObject(out, "module_events", A->has_mod);
	{
		cJSON *fr = cJSON_AddObjectToObject(out, "frames");

		cJSON_AddNumberToObject(fr, "in_repository", (double)A->frames_repo);
		cJSON_AddNumberToObject(fr, "matched", (double)A->frames_matched);
		cJSON_AddNumberToObject(fr, "matched_by_symbol", (double)A->frames_moved);
	}
	for (i = 0; i < (size_t)A->nents; i++) {
		const struct ent *x = &A->ents[i];
		cJSON *o, *f, *b;
		double exp = attrib_expected_calls(A, x), calls_d, unit;
		int known;
		long calls = attrib_measured_calls(A, x, &known);

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", x->id);
		cJSON_AddStringToObject(o, "kind", x->kind);
		if (x->cls)
			cJSON_AddStringToObject(o, "class", x->cls);
		if (x->op)
			cJSON_AddStringToObject(o, "op", x->op);
		cJSON_AddItemToObject(o, "code_anchor", x->anchor ? cJSON_CreateString(x->anchor) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "total_repeat", num_or_null(x->total));
		cJSON_AddItemToObject(o, "expected_calls", num_or_null(exp));
		cJSON_AddItemToObject(o, "calls", known ? cJSON_CreateNumber((double)calls) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "calls_per_step", known ? num_or_null((double)calls / steps) : cJSON_CreateNull());
		f = cJSON_AddObjectToObject(o, "forward");
		cJSON_AddItemToObject(f, "device_us", num_or_null(x->idev[0]));
		cJSON_AddItemToObject(f, "host_us", num_or_null(x->ihost[0]));
		b = cJSON_AddObjectToObject(o, "backward");
		cJSON_AddItemToObject(b, "device_us", num_or_null(x->idev[1]));
		cJSON_AddItemToObject(b, "host_us", num_or_null(x->ihost[1]));
		calls_d = x->total > 0 ? x->total * steps : -1;
		unit = calls_d > 0 ? (T.dev > 0 ? x->idev[0] + x->idev[1] : x->ihost[0] + x->ihost[1]) / calls_d : -1;
		cJSON_AddItemToObject(o, "per_unit_us", num_or_null(unit));
		cJSON_AddItemToObject(o, "share",
		                      num_or_null((T.dev > 0 ? x->idev[0] + x->idev[1] : x->ihost[0] + x->ihost[1]) / window));
		if (known && exp >= 0 && strcmp(x->kind, "op") && fabs((double)calls - exp) > 0.5) {
			cJSON_AddStringToObject(o, "flag", "calls differ from total_repeat x model calls");
			flagged++;
		} else {
			cJSON_AddNullToObject(o, "flag");
		}
		cJSON_AddItemToArray(ents, o);
	}
	cJSON_AddItemToObject(out, "entries", ents);
	un = cJSON_AddObjectToObject(out, "unattributed");
	cJSON_AddNumberToObject(un, "host_us", round(T.host_un * 1000) / 1000);
	cJSON_AddNumberToObject(un, "device_us", round(T.dev_un * 1000) / 1000);
	cJSON_AddItemToObject(un, "host_share", num_or_null(T.host > 0 ? T.host_un / T.host : -1));
	cJSON_AddItemToObject(un, "device_share", num_or_null(T.dev > 0 ? T.dev_un / T.dev : -1));
	{
		cJSON *w = cJSON_AddArrayToObject(un, "where");

		for (i = 0; i < T.nun && (int)i < A->top; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "where", T.un[i].key);
			cJSON_AddItemToObject(o, "phase", T.un[i].phase ? cJSON_CreateString(T.un[i].phase) : cJSON_CreateNull());
			cJSON_AddItemToObject(o, "anchor", T.un[i].anchor ? cJSON_CreateString(T.un[i].anchor) : cJSON_CreateNull());
			cJSON_AddNumberToObject(o, "host_us", round(T.un[i].host * 1000) / 1000);
			cJSON_AddNumberToObject(o, "device_us", round(T.un[i].dev * 1000) / 1000);
			cJSON_AddItemToArray(w, o);
		}
	}
	for (i = 0; i < ng; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "stream", (double)g[i].stream);
		cJSON_AddNumberToObject(o, "count", (double)g[i].n);
		cJSON_AddNumberToObject(o, "total_us", round(g[i].total * 1000) / 1000);
		cJSON_AddNumberToObject(o, "mean_us", round(g[i].total / (double)g[i].n * 1000) / 1000);
		cJSON_AddStringToObject(o, "cause", attrib_cause_name[g[i].cause]);
		cJSON_AddStringToObject(o, "host", g[i].what);
		cJSON_AddItemToObject(o, "where", *g[i].where ? cJSON_CreateString(g[i].where) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "schedule",
		                      g[i].ev >= 0 ? attrib_schedule_candidates(A, g[i].frame, g[i].what, g[i].cause) : cJSON_CreateArray());
		cJSON_AddItemToArray(gaps, o);
	}
	{
		cJSON *ss = cJSON_AddArrayToObject(out, "streams");

		cJSON_AddItemToObject(out, "window_us", num_or_null(A->t1 > A->t0 ? A->t1 - A->t0 : -1));
		for (i = 0; i < A->nstreams; i++) {
			const struct stream_use *u = &A->streams[i];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "pid", (double)u->pid);
			cJSON_AddNumberToObject(o, "stream", (double)u->stream);
			cJSON_AddStringToObject(o, "kind", attrib_stream_comm(u) ? "communication" : "compute");
			cJSON_AddNumberToObject(o, "events", (double)u->n);
			cJSON_AddNumberToObject(o, "busy_us", round(u->busy * 1000) / 1000);
			cJSON_AddItemToObject(o, "utilisation", num_or_null(A->t1 > A->t0 ? u->busy / (A->t1 - A->t0) : -1));
			cJSON_AddNumberToObject(o, "idle_gaps_us", round(u->gaps * 1000) / 1000);
			cJSON_AddItemToArray(ss, o);
			gap_kind[attrib_stream_comm(u)] += u->gaps;
		}
	}
	{
		cJSON *ps = cJSON_AddArrayToObject(out, "per_step");

		for (i = 0; i < A->nstepv; i++) {
			const struct step_use *u = &A->stepv[i];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", u->name);
			cJSON_AddNumberToObject(o, "dur_us", round(u->dur * 1000) / 1000);
			cJSON_AddNumberToObject(o, "device_busy_us", round(u->busy * 1000) / 1000);
			cJSON_AddNumberToObject(o, "idle_gaps_us", round(u->gaps * 1000) / 1000);
			cJSON_AddItemToArray(ps, o);
		}
	}
	{
		cJSON *gs = cJSON_AddObjectToObject(out, "gaps");

		cJSON_AddNumberToObject(gs, "min_gap_us", A->min_gap);
		cJSON_AddNumberToObject(gs, "count", (double)gap_n);
		cJSON_AddNumberToObject(gs, "total_us", round(gap_total * 1000) / 1000);
		cJSON_AddNumberToObject(gs, "compute_us", round(gap_kind[0] * 1000) / 1000);
		cJSON_AddNumberToObject(gs, "communication_us", round(gap_kind[1] * 1000) / 1000);
		cJSON_AddItemToObject(gs, "groups", gaps);
	}
	if (A->has_py && !A->frames_matched)
		cJSON_AddItemToArray(A->warnings,
		                     cJSON_CreateString("no repository frame of the trace matches an anchor of the records: "
		                                        "the trace is from another commit or another job"));
	if (A->frames_moved) {
		char *w = xasprintf("%ld frame%s matched by symbol, not by line: the code moved since the trace was "
		                    "recorded (or the forward is decorated: Python names it by its first decorator's "
		                    "line)", A->frames_moved, A->frames_moved == 1 ? "" : "s");

		cJSON_AddItemToArray(A->warnings, cJSON_CreateString(w));
		free(w);
	}
	if (!A->has_py)
		cJSON_AddItemToArray(A->warnings,
		                     cJSON_CreateString("the trace has no python_function events (record it with "
		                                        "with_stack=True): ops cannot be placed on entries"));
	cJSON_AddItemToObject(out, "warnings", A->warnings);
	A->warnings = NULL;

	if (A->json) {
		text = emit_render(out);
		fputs(text, stdout);
		free(text);
	} else {
		report_text(A, out, gap_kind);
	}
	/* ecg(1): 1 when calls disagree, or nothing in the trace matched an
	 * anchor (no repository frame entered an entry, python frames or not) */
	if (flagged || !A->frames_matched)
		rc = ECG_EXIT_STALE;
	cJSON_Delete(out);
	return rc;
}

/* ------------------------------------------------------------------ command */

int cmd_attribute(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "records", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "min-gap", required_argument, NULL, 'g' },
		{ "top", required_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct att A;
	struct catalog *cat = NULL;
	char *dir = NULL, *end, *helpers = NULL, *catdir = NULL;
	int c, rc = ECG_EXIT_OK;

	memset(&A, 0, sizeof A);
	A.min_gap = 20;
	A.top = 10;
	A.warnings = cJSON_CreateArray();
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': A.records_dir = optarg; break;
		case 'j': A.json = 1; break;
		case 'g':
			A.min_gap = strtod(optarg, &end);
			if (!*optarg || *end || !(A.min_gap >= 0) || A.min_gap > 1e12) {
				err_set(ECG_EXIT_USAGE, "--min-gap takes microseconds, not '%s'", optarg);
				goto fail;
			}
			break;
		case 't': {
			long v = strtol(optarg, &end, 10);

			if (!*optarg || *end || v <= 0 || v > 100000) {
				err_set(ECG_EXIT_USAGE, "--top takes a positive number, not '%s'", optarg);
				goto fail;
			}
			A.top = (int)v;
			break;
		}
		case 'w':
			if (cmd_opt_width(optarg, &A.width) < 0)
				goto fail;
			break;
		case 'h':
			fputs(attribute_usage, stdout);
			attrib_free(&A);
			return ECG_EXIT_OK;
		default:
			cmd_opt_unknown("attribute", argv);
			goto fail;
		}
	}
	if (optind + 1 != argc) {
		err_set(ECG_EXIT_USAGE, optind < argc ? "attribute: one trace at a time (see 'ecg attribute --help')"
		                                     : "attribute: which trace? (see 'ecg attribute --help')");
		goto fail;
	}
	A.trace_path = argv[optind];
	A.width = termfit_width(A.width);
	dir = A.records_dir ? xstrdup(A.records_dir) : records_default_dir();
	A.records_dir = dir;
	if (!(A.graph = records_read(dir, RECORDS_GRAPH_FILE)) || !(A.sched = records_read(dir, RECORDS_SCHEDULE_FILE)))
		goto fail;
	/* the catalogue's facts name the trace's marks of the schedule's phases */
	if (!(helpers = helpers_find(NULL)) || !(catdir = catalog_dir_beside(helpers)) || catalog_load(catdir, &cat) < 0)
		goto fail;
	A.cat = cat;
	if (attrib_join(&A) < 0)
		goto fail;
	rc = report(&A);
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	attrib_free(&A);
	catalog_free(cat);
	free(catdir);
	free(helpers);
	free(dir);
	return rc;
}
