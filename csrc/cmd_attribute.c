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
#include "ecg/records.h"
#include "ecg/trace.h"
#include "ecg/util.h"

static const char attribute_usage[] =
"usage: ecg attribute [--records DIR] [--json] [--min-gap US] [--top N] TRACE\n"
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
		const cJSON *e, *ws = cJSON_GetObjectItemCaseSensitive(out, "warnings");
		char b[6][32];

		/* a warning changes how the rest reads: it comes first */
		cJSON_ArrayForEach(e, ws)
			printf("warning: %s\n", vis(e->valuestring));
		if (cJSON_GetArraySize(ws))
			putchar('\n');
		printf("trace %s: %zu events kept, %ld step%s%s\n", vis(A->trace_path), A->nev, A->steps,
		       A->steps == 1 ? "" : "s", A->steps ? "" : " (no ProfilerStep#: the whole trace is one step)");
		printf("records %s at %s: %ld repository frames, %ld enter an entry (%ld by symbol)\n\n",
		       vis(A->records_dir), records_str(A->graph, "commit") ? vis(records_str(A->graph, "commit")) : "?",
		       A->frames_repo, A->frames_matched, A->frames_moved);
		printf("%-40s %8s %8s %10s %10s %10s %10s %6s\n", "entry (times in ms, whole trace)", "repeat", "calls",
		       "fwd dev", "bwd dev", "fwd host", "bwd host", "share");
		cJSON_ArrayForEach(e, ents) {
			const char *kind = records_str(e, "kind");
			double v;
			char rep[32], calls[32], id[64];
			const char *name = records_str(e, "id");
			const struct ent *x = &A->ents[attrib_find_ent(A, name)];

			if (!strcmp(kind, "op"))
				continue;
			name = vis(name);
			{
				int ind = x->depth < 8 ? 2 * x->depth : 16;
				size_t nl = strlen(name), room = (size_t)(40 - ind);

				if (nl <= room)
					snprintf(id, sizeof id, "%*s%s", ind, "", *name ? name : "(model)");
				else  /* the end of a long id says most */
					snprintf(id, sizeof id, "%*s...%s", ind, "", name + nl - (room - 3));
			}
			snprintf(rep, sizeof rep, "%s", records_num(e, "total_repeat", &v) ? "" : "?");
			if (!*rep)
				snprintf(rep, sizeof rep, "%g", v);
			if (records_num(e, "calls", &v))
				snprintf(calls, sizeof calls, "%g", v);
			else
				snprintf(calls, sizeof calls, "-");
			printf("%-40s %8s %8s %10s %10s %10s %10s %5.1f%%%s\n", id, rep, calls, ms(b[0], x->idev[0]),
			       ms(b[1], x->idev[1]), ms(b[2], x->ihost[0]), ms(b[3], x->ihost[1]),
			       100 * (T.dev > 0 ? x->idev[0] + x->idev[1] : x->ihost[0] + x->ihost[1]) / window,
			       cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "flag")) ? "  << calls differ" : "");
		}
		printf("\nnot attributed: host %s ms of %s (%.1f%%), device %s ms of %s (%.1f%%)\n", ms(b[0], T.host_un),
		       ms(b[1], T.host), T.host > 0 ? 100 * T.host_un / T.host : 0, ms(b[2], T.dev_un), ms(b[3], T.dev),
		       T.dev > 0 ? 100 * T.dev_un / T.dev : 0);
		for (i = 0; i < T.nun && (int)i < A->top; i++)
			printf("  %8s ms host %8s ms device  %s\n", ms(b[0], T.un[i].host), ms(b[1], T.un[i].dev),
			       vis(T.un[i].key));
		if (A->nstepv)
			printf("\n%-32s %10s %24s %10s\n", "per step", "time", "device busy (all streams)",
			       "idle gaps");
		for (i = 0; i < A->nstepv && (int)i < A->top; i++)
			printf("  %-30s %7s ms %21s ms %7s ms\n", vis(A->stepv[i].name), ms(b[0], A->stepv[i].dur),
			       ms(b[1], A->stepv[i].busy), ms(b[2], A->stepv[i].gaps));
		if (A->nstepv > (size_t)A->top)
			printf("  ... %zu more steps (--top, or --json for all)\n", A->nstepv - (size_t)A->top);
		if (A->nstreams)
			printf("\ndevice streams (window %s ms):\n", ms(b[0], A->t1 > A->t0 ? A->t1 - A->t0 : 0));
		for (i = 0; i < A->nstreams; i++) {
			const struct stream_use *u = &A->streams[i];
			int pids = A->nstreams > 1 && A->streams[0].pid != A->streams[A->nstreams - 1].pid;
			char sid[64];

			if (pids)
				snprintf(sid, sizeof sid, "%lld/%lld", (long long)u->pid, (long long)u->stream);
			else
				snprintf(sid, sizeof sid, "%lld", (long long)u->stream);
			printf("  stream %-8s %-13s busy %8s ms %5.1f%%   idle gaps %8s ms\n", vis(sid),
			       attrib_stream_comm(u) ? "communication" : "compute", ms(b[0], u->busy),
			       A->t1 > A->t0 ? 100 * u->busy / (A->t1 - A->t0) : 0, ms(b[1], u->gaps));
		}
		printf("\nidle gaps >= %g us on the device streams: %ld, %s ms (compute streams %s ms, communication "
		       "streams %s ms)\n", A->min_gap, gap_n, ms(b[0], gap_total), ms(b[1], gap_kind[0]),
		       ms(b[2], gap_kind[1]));
		for (i = 0; i < ng && (int)i < A->top; i++) {
			cJSON *cands = g[i].ev >= 0 ? attrib_schedule_candidates(A, g[i].frame, g[i].what, g[i].cause) : NULL;
			char *cs = cands && cJSON_GetArraySize(cands) ? cJSON_PrintUnformatted(cands) : NULL;

			printf("  stream %-4lld %5ld x %8s ms = %8s ms  %-10s %s%s%s%s%s\n", (long long)g[i].stream, g[i].n,
			       ms(b[0], g[i].total / (double)g[i].n), ms(b[1], g[i].total), attrib_cause_name[g[i].cause],
			       vis(g[i].what),
			       *g[i].where ? " in " : "", vis(g[i].where), cs ? " -> schedule " : "", cs ? vis(cs) : "");
			free(cs);
			cJSON_Delete(cands);
		}
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct att A;
	char *dir = NULL, *end;
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
	dir = A.records_dir ? xstrdup(A.records_dir) : records_default_dir();
	A.records_dir = dir;
	if (!(A.graph = records_read(dir, RECORDS_GRAPH_FILE)) || !(A.sched = records_read(dir, RECORDS_SCHEDULE_FILE)))
		goto fail;
	if (attrib_join(&A) < 0)
		goto fail;
	rc = report(&A);
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	attrib_free(&A);
	free(dir);
	return rc;
}
