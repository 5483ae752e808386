/* cmd_render.c - `ecg render`: the records as one self-contained HTML page.
 *
 * No script, no network: the module tree is nested <details> elements (a
 * repeated unit once, with a repeat badge), the step is an inline SVG
 * with four lanes (host, compute stream, communication stream, data
 * loader) in the order the step runs its phases, and the configuration
 * values are a table with their sources.  Everything the records hold
 * as text goes through esc() (HTML-escaped, quotes too): no buf_addf()
 * here takes a string from the records.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/flops.h"
#include "ecg/freqwords.h"
#include "ecg/records.h"
#include "ecg/repo.h"
#include "ecg/util.h"

static const char render_usage[] =
"usage: ecg render [--records DIR] -o FILE\n"
"\n"
"Write the records as one self-contained HTML page (no script, no network):\n"
"the module tree (collapsible, with repeat badges, parameters, shapes and\n"
"anchors), one step of the schedule as lanes for the host, the compute\n"
"stream, the communication stream and the data loader, the sync points and\n"
"copies by how often they recur, the blocks' cost (FLOPs x repeat as bars,\n"
"with the syncs one step makes), the intended overlaps, and the\n"
"configuration values with their sources.  An empty section says why.\n"
"\n"
"  --records DIR         where the records are (default: records/ at the root\n"
"                        of the work tree around the current directory, else\n"
"                        ./records)\n"
"  -o, --output FILE     the page to write (replaced atomically; never a\n"
"                        device, FIFO, directory or symbolic link); -o -\n"
"                        writes it to standard output\n"
"  -h, --help            show this help\n"
"\n"
"Exit status: 0 written; 2 bad usage; 3 no records in DIR; 4 not written.\n";

static void esc(buf_t *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': buf_addstr(b, "&lt;"); break;
		case '>': buf_addstr(b, "&gt;"); break;
		case '&': buf_addstr(b, "&amp;"); break;
		case '"': buf_addstr(b, "&quot;"); break;
		case '\'': buf_addstr(b, "&#39;"); break;
		default: buf_addch(b, *s); break;
		}
	}
}

#define js records_str

static void json_text(buf_t *b, const cJSON *v)
{
	char *t = v ? cJSON_PrintUnformatted(v) : NULL;

	esc(b, t ? t : "null");
	free(t);
}

static const char css[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}"
"h1{font-size:20px}h2{font-size:16px;margin-top:1.6em;border-bottom:1px solid #ccc}"
"code,.a{font-family:ui-monospace,monospace;font-size:12px}"
".a{color:#777}.cls{color:#05a}.rep{background:#c60;color:#fff;border-radius:8px;padding:0 6px;"
"font-size:11px;margin-left:4px}.tot{color:#555;font-size:12px}.sh{color:#393;font-size:12px}"
"details{margin-left:1.1em}summary{cursor:pointer;overflow-wrap:anywhere}"
".bar{display:inline-block;height:12px;background:#5b8bd0;vertical-align:middle}"
".cost td{border:none;padding:1px 6px}.cost td.n{text-align:right;white-space:nowrap}"
".scroll{overflow-x:auto;max-width:100%}td{overflow-wrap:anywhere}.empty{color:#666;font-style:italic}"
"#timeline svg{max-width:100%;height:auto}"
"details.leaf>summary{list-style:none}details.leaf>summary::-webkit-details-marker{display:none}"
"table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}"
".f0{color:#b00;font-weight:bold}.f1{color:#d60}.f2{color:#880}.f3{color:#666}";

/* Output shapes as a person reads them: "[b, t, 768]", several joined by
 * ", ", a dim not known "?", an output not known "?". */
static void shapes_text(buf_t *b, const cJSON *outs)
{
	const cJSON *o, *d;
	int first = 1;

	cJSON_ArrayForEach(o, outs) {
		int k = 0;

		if (!first)
			buf_addstr(b, ", ");
		first = 0;
		if (!cJSON_IsArray(o)) {
			buf_addch(b, '?');
			continue;
		}
		buf_addch(b, '[');
		cJSON_ArrayForEach(d, o) {
			if (k++)
				buf_addstr(b, ", ");
			if (cJSON_IsNumber(d))
				buf_addf(b, "%.0f", d->valuedouble);
			else if (cJSON_IsString(d))
				esc(b, d->valuestring);
			else
				buf_addch(b, '?');
		}
		buf_addch(b, ']');
	}
}

/* Whether the subtree under id (within depth levels) holds a repeated
 * unit: its path is open, so that the block and its xN badge show. */
static int holds_repeat(const cJSON *mods, const char *id, int depth)
{
	const cJSON *c;

	if (depth > 6)
		return 0;
	cJSON_ArrayForEach(c, mods) {
		const char *cp = js(c, "parent"), *cid = js(c, "id");

		if (!cp || !cid || strcmp(cp, id))
			continue;
		if (cJSON_GetObjectItemCaseSensitive(c, "repeat") || holds_repeat(mods, cid, depth + 1))
			return 1;
	}
	return 0;
}

/* The tree: children of `parent` among the module entries. */
static void tree(buf_t *b, const cJSON *mods, const char *parent, int depth)
{
	const cJSON *e;

	if (depth > 64)
		return;
	cJSON_ArrayForEach(e, mods) {
		const char *id = js(e, "id"), *p = js(e, "parent"), *kind = js(e, "kind");
		const char *cls = js(e, "class"), *anchor = js(e, "code_anchor"), *name;
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "repeat");
		const cJSON *tot = cJSON_GetObjectItemCaseSensitive(e, "total_repeat");
		const cJSON *par = cJSON_GetObjectItemCaseSensitive(e, "params");
		const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shapes");
		const cJSON *c;
		int has_kids = 0;

		if (!id || !kind || !strcmp(kind, "op") || !strcmp(kind, "function"))
			continue;
		if (parent ? !p || strcmp(p, parent) : p != NULL)
			continue;
		cJSON_ArrayForEach(c, mods) {
			const char *cp = js(c, "parent"), *ck = js(c, "kind");

			if (cp && !strcmp(cp, id) && ck && strcmp(ck, "op") && strcmp(ck, "function"))
				has_kids++;
		}
		name = id[0] ? id : "(model)";
		if (parent && parent[0] && !strncmp(id, parent, strlen(parent)) &&
		    (id[strlen(parent)] == '.' || id[strlen(parent)] == '/'))
			name = id + strlen(parent) + 1;
		/* open: the model, its children with a few of their own (a
		 * 600-module model opens on one screen), the path to a repeated
		 * block and the first repeated block itself (its layers once) */
		buf_addf(b, "<details%s%s><summary><b>", has_kids ? "" : " class=\"leaf\"",
		         depth == 0 || (depth == 1 && has_kids <= 12) || (depth < 6 && holds_repeat(mods, id, 0)) ||
		                 (r && depth < 6 && has_kids <= 24)
		             ? " open" : "");
		esc(b, name);
		buf_addstr(b, "</b> <span class=\"cls\">");
		esc(b, cls ? cls : kind);
		buf_addstr(b, "</span>");
		if (r) {
			const cJSON *cnt = cJSON_GetObjectItemCaseSensitive(r, "count");

			if (cJSON_IsNumber(cnt))
				buf_addf(b, "<span class=\"rep\">&times;%.0f</span>", cnt->valuedouble);
			else
				buf_addstr(b, "<span class=\"rep\">&times;?</span>");
		}
		if (cJSON_IsNumber(tot))
			buf_addf(b, " <span class=\"tot\">total %.0f</span>", tot->valuedouble);
		if (cJSON_IsNumber(par))
			buf_addf(b, " <span class=\"tot\">%.0f params</span>", par->valuedouble);
		if (sh && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sh, "out")) > 0) {
			buf_addstr(b, " <span class=\"sh\">");
			shapes_text(b, cJSON_GetObjectItemCaseSensitive(sh, "out"));
			buf_addstr(b, "</span>");
		}
		if (anchor) {
			buf_addstr(b, " <span class=\"a\">");
			esc(b, anchor);
			buf_addstr(b, "</span>");
		}
		buf_addstr(b, "</summary>");
		if (has_kids)
			tree(b, mods, id, depth + 1);
		buf_addstr(b, "</details>\n");
	}
}

static int freq_class(const char *f)
{
	if (!f)
		return 3;
	if (strstr(f, "micro") || !strcmp(f, "every step"))
		return 0;
	if (!strncmp(f, "every ", 6))
		return 1;
	if (!strcmp(f, "once"))
		return 3;
	return 2;
}

/* One step as lanes: the phases in the order they run, and what happens
 * in each: syncs and copies on the host lane, collectives on the
 * communication lane, the loader's hops on its lane. */
/* Where a phase sits in one step: start-up, the data, forward, backward,
 * the optimizer, then what recurs less often. */
static int phase_rank(const cJSON *p)
{
	static const char *const order[] = { "startup", "data", "forward", "backward", "optimizer", "step", NULL };
	const char *name = js(p, "name"), *kind = js(p, "kind");
	int i;

	for (i = 0; name && order[i]; i++)
		if (!strcmp(name, order[i]))
			return i;
	return kind && !strcmp(kind, "periodic") ? 20 : 30;
}

static int by_phase(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;

	return phase_rank(x) - phase_rank(y);
}

/* Whether phase `ph` (an event's) is a phase of the schedule. */
static int is_phase(const cJSON *sched, const char *ph)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(sched, "phases"))
		if (ph && js(p, "name") && !strcmp(js(p, "name"), ph))
			return 1;
	return 0;
}

/* Whether an event of phase `ph` is drawn in the column of phase `name`:
 * its own, or -- for a phase the schedule does not list (the copies of
 * "data" when no data phase is drawn) -- the first repeated phase of the
 * step, `first`. */
static int drawn_in(const cJSON *sched, const char *ph, const char *name, const char *first)
{
	if (!ph || !name)
		return 0;
	if (!strcmp(ph, name))
		return 1;
	return first && !strcmp(name, first) && strcmp(ph, "startup") && !is_phase(sched, ph);
}

static void timeline(buf_t *b, const cJSON *sched)
{
	static const char *const lanes[] = { "host", "compute stream", "communication stream", "data loader" };
	const cJSON *phases = cJSON_GetObjectItemCaseSensitive(sched, "phases"), *p, *e;
	const cJSON **ord;
	const char *first_rep = NULL;    /* the first repeated phase of the step */
	int n = 0, i, w, x, k;

	cJSON_ArrayForEach(p, phases)
		n++;
	ord = xcalloc((size_t)n + 1, sizeof *ord);
	i = 0;
	cJSON_ArrayForEach(p, phases)
		ord[i++] = p;
	/* stable enough: ranks are distinct but for periodic/other ones, which
	 * keep the records' order through the index tie-break below */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && by_phase(&ord[k - 1], &ord[k]) > 0; k--) {
			const cJSON *t = ord[k];

			ord[k] = ord[k - 1];
			ord[k - 1] = t;
		}
	if (n == 0) {
		buf_addstr(b, "<p class=\"empty\">No phases: ecg found no step (the loop or handler around the model call) on the paths it read, so there is no step to draw.</p>\n");
		free(ord);
		return;
	}
	for (k = 0; k < n && !first_rep; k++)
		if (js(ord[k], "kind") && !strcmp(js(ord[k], "kind"), "repeated"))
			first_rep = js(ord[k], "name");
	w = 170;
	/* a viewBox: the lanes scale down to the page's width (1000 px and
	 * less) instead of running off it */
	buf_addf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
	         "role=\"img\" aria-label=\"one step, as lanes\" font-family=\"sans-serif\" font-size=\"11\">\n",
	         150 + n * w, 4 * 70 + 30, 150 + n * w, 4 * 70 + 30);
	for (i = 0; i < 4; i++)
		buf_addf(b, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s</text><line x1=\"145\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		         "stroke=\"#ddd\"/>\n", 30 + i * 70 + 22, lanes[i], 30 + i * 70 + 60, 150 + n * w, 30 + i * 70 + 60);
	x = 150;
	for (k = 0; k < n; k++) {
		const cJSON *p2 = ord[k];
		const char *name = js(p2, "name"), *kind = js(p2, "kind"), *on = js(p2, "runs_on");
		int lane = on && !strcmp(on, "host") ? 0 : 1;
		int syncs = 0, copies = 0, colls = 0;

		p = p2;
		buf_addf(b, "<g><title>");
		esc(b, js(p, "anchor"));
		buf_addf(b, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"40\" rx=\"4\" fill=\"%s\" stroke=\"#888\"/>",
		         x, 30 + lane * 70 + 10, w - 12, kind && !strcmp(kind, "one-off") ? "#eee"
		                                       : kind && !strcmp(kind, "periodic") ? "#fde9c9" : "#cfe3f7");
		buf_addf(b, "<text x=\"%d\" y=\"%d\">", x + 6, 30 + lane * 70 + 26);
		esc(b, name ? name : "?");
		buf_addf(b, "</text><text x=\"%d\" y=\"%d\" fill=\"#666\">", x + 6, 30 + lane * 70 + 42);
		esc(b, kind ? kind : "");
		buf_addstr(b, "</text></g>\n");
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "host_device")) {
			const char *ph = js(e, "phase"), *ek = js(e, "kind");

			if (!drawn_in(sched, ph, name, first_rep))
				continue;
			if (ek && !strcmp(ek, "sync"))
				syncs++;
			else
				copies++;
		}
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "device_device")) {
			const char *ph = js(e, "phase");

			if (ph && name && !strcmp(ph, name))
				colls++;
		}
		if (syncs || copies) {
			/* one marker per sync (diamond) and copy (square), coloured by
			 * how often it recurs; at most 12 drawn, the rest counted */
			static const char *const fc[] = { "#b00", "#d60", "#880", "#999" };
			int drawn = 0, mx = x;

			buf_addf(b, "<text x=\"%d\" y=\"%d\" fill=\"#b00\">%d sync%s, %d cop%s</text>\n", x + 6, 30 + 2,
			         syncs, syncs == 1 ? "" : "s", copies, copies == 1 ? "y" : "ies");
			cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "host_device")) {
				const char *ph = js(e, "phase"), *ek = js(e, "kind");
				int fcl = freq_class(js(e, "frequency")), sync = ek && !strcmp(ek, "sync");

				if (!drawn_in(sched, ph, name, first_rep))
					continue;
				if (drawn++ >= 12)
					continue;
				buf_addstr(b, "<g><title>");
				esc(b, js(e, "call"));
				if (strcmp(ph, name)) {
					buf_addstr(b, " (");
					esc(b, ph);
					buf_addstr(b, ", before the step's work)");
				}
				buf_addstr(b, " -- ");
				if (js(e, "frequency")) {
					char fw[512];

					freq_words(js(e, "frequency"), fw, sizeof fw);
					esc(b, fw);
				}
				buf_addstr(b, " -- ");
				esc(b, js(e, "anchor"));
				if (sync)
					buf_addf(b, "</title><path d=\"M%d %d l5 5 l-5 5 l-5 -5 z\" fill=\"%s\"/></g>", mx + 8, 30 + 6,
					         fc[fcl]);
				else
					buf_addf(b, "</title><rect x=\"%d\" y=\"%d\" width=\"8\" height=\"8\" fill=\"%s\"/></g>", mx + 4,
					         30 + 7, fc[fcl]);
				mx += 12;
			}
			if (drawn > 12)
				buf_addf(b, "<text x=\"%d\" y=\"%d\">+%d</text>", mx + 4, 30 + 15, drawn - 12);
			buf_addstr(b, "\n");
		}
		if (colls)
			buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"30\" rx=\"4\" fill=\"#e3d4f5\" stroke=\"#888\"/>"
			         "<text x=\"%d\" y=\"%d\">%d collective%s</text>\n", x, 30 + 2 * 70 + 15, w - 12, x + 6,
			         30 + 2 * 70 + 34, colls, colls > 1 ? "s" : "");
		/* intended overlaps that fall in this phase: a dashed band on the
		 * lane where the overlapping work runs */
		{
			int ov_comm = 0, ov_copy = 0;

			cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "overlap")) {
				const char *with = js(e, "with"), *mech = js(e, "mechanism"), *an = js(e, "anchor");
				const cJSON *h;

				if (mech && (strstr(mech, "DistributedDataParallel") || strstr(mech, "FSDP") ||
				             strstr(mech, "async_op")) && with && name &&
				    (strstr(with, name) || (!strcmp(name, "backward") && strstr(mech, "FSDP"))))
					ov_comm++;
				cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(sched, "host_device")) {
					const char *ha = js(h, "anchor"), *ph = js(h, "phase");

					if (an && ha && !strcmp(ha, an) && drawn_in(sched, ph, name, first_rep) && mech &&
					    strstr(mech, "non_blocking"))
						ov_copy++;
				}
			}
			if (ov_comm) {
				buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"52\" fill=\"none\" stroke=\"#7a4fb0\" "
				         "stroke-dasharray=\"5,3\"><title>communication meant to overlap ",
				         x - 3, 30 + 2 * 70 + 4, w - 6);
				esc(b, name);
				buf_addstr(b, "</title></rect>\n");
			}
			if (ov_copy)
				buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"#cfe3f7\" stroke=\"#2a6\" "
				         "stroke-dasharray=\"3,2\"><title>%d asynchronous cop%s meant to overlap compute</title></rect>"
				         "<text x=\"%d\" y=\"%d\" fill=\"#2a6\">async copy</text>\n", x, 30 + 70 + 52, w - 12, ov_copy,
				         ov_copy == 1 ? "y" : "ies", x + 4, 30 + 70 + 62);
		}
		{
			/* compile regions: the model's forward runs compiled code,
			 * outlined on the compute lane of the forward phase */
			const cJSON *cm = cJSON_GetObjectItemCaseSensitive(sched, "compute");
			const cJSON *cr = cm ? cJSON_GetObjectItemCaseSensitive(cm, "compile_regions") : NULL;
			int ncr = cJSON_GetArraySize(cr);

			if (ncr > 0 && name && (!strcmp(name, "forward") || (!is_phase(sched, "forward") && first_rep &&
			                                                     !strcmp(name, first_rep)))) {
				buf_addf(b, "<g><title>torch.compile: ");
				cJSON_ArrayForEach(e, cr) {
					esc(b, js(e, "target") ? js(e, "target") : "?");
					buf_addstr(b, " at ");
					esc(b, js(e, "anchor") ? js(e, "anchor") : "?");
					buf_addstr(b, "; ");
				}
				buf_addf(b, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"44\" fill=\"none\" "
				         "stroke=\"#c60\" stroke-dasharray=\"2,2\"/><text x=\"%d\" y=\"%d\" fill=\"#c60\">"
				         "compiled (%d)</text></g>\n", x - 4, 30 + 70 + 6, w - 4, x + 80, 30 + 70 + 42, ncr);
			}
		}
		if (name && !strcmp(name, "data") &&
		    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sched, "data_path")) > 0)
			buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"30\" rx=\"4\" fill=\"#d7f0d7\" stroke=\"#888\"/>"
			         "<text x=\"%d\" y=\"%d\">loader hops</text>\n", x, 30 + 3 * 70 + 15, w - 12, x + 6, 30 + 3 * 70 + 34);
		x += w;
	}
	free(ord);
	buf_addstr(b, "</svg>\n<p class=\"a\">&#9670; a sync point, &#9632; a copy, above the phase they happen in; "
	              "<span class=\"f0\">every (micro-)step</span>, <span class=\"f1\">periodic</span>, "
	              "<span class=\"f3\">once</span> (hover for the call and anchor). Dashed: work meant to overlap "
	              "(communication under compute, asynchronous copies). Dotted: the forward runs compiled code "
	              "(torch.compile). A copy or sync of a phase not drawn (data) is with the step's first phase. "
	              "Phases in the order one step runs them; "
	              "widths are not times.</p>\n");
}

/* A table: a header row, then one row per item of `list` whose cells are
 * the string members `keys` (null shown empty).  A key "=X" is literal
 * text X; a key starting with '@' is a code anchor; "#value" is the
 * member "value" as JSON; "~frequency" a frequency as words (freqwords.h).  row_class(item), when given, names the row's
 * class (or NULL). */
static void table(buf_t *b, const char *title, const char *const *heads, const char *const *keys, const cJSON *list,
                  const cJSON *const *order, size_t norder, const char *(*row_class)(const cJSON *),
                  const char *why_empty)
{
	const cJSON *e;
	size_t i, k;

	buf_addstr(b, "<h2>");
	esc(b, title);
	buf_addstr(b, "</h2>\n");
	if (order ? norder == 0 : cJSON_GetArraySize(list) == 0) {
		/* no empty table: why there is nothing to show */
		buf_addstr(b, "<p class=\"empty\">");
		esc(b, why_empty);
		buf_addstr(b, "</p>\n");
		return;
	}
	buf_addstr(b, "<div class=\"scroll\"><table><tr>");
	for (k = 0; heads[k]; k++) {
		buf_addstr(b, "<th>");
		esc(b, heads[k]);
		buf_addstr(b, "</th>");
	}
	buf_addstr(b, "</tr>\n");
	for (i = 0; order ? i < norder : 1; i++) {
		if (order) {
			e = order[i];
		} else {
			e = cJSON_GetArrayItem(list, (int)i);
			if (!e)
				break;
		}
		buf_addstr(b, "<tr");
		if (row_class && row_class(e))
			buf_addf(b, " class=\"%s\"", row_class(e));
		buf_addstr(b, ">");
		for (k = 0; keys[k]; k++) {
			const char *key = keys[k];

			buf_addstr(b, key[0] == '@' ? "<td class=\"a\">" : "<td>");
			if (key[0] == '=')
				esc(b, key + 1);
			else if (key[0] == '#')
				json_text(b, cJSON_GetObjectItemCaseSensitive(e, key + 1));
			else if (key[0] == '~' && js(e, key + 1)) {
				char fw[512];   /* a frequency, as words (freqwords.h) */

				freq_words(js(e, key + 1), fw, sizeof fw);
				esc(b, fw);
			} else
				esc(b, js(e, key[0] == '@' || key[0] == '~' ? key + 1 : key));
			buf_addstr(b, "</td>");
		}
		buf_addstr(b, "</tr>\n");
	}
	buf_addstr(b, "</table></div>\n");
}

static const char *freq_row(const cJSON *e)
{
	static const char *const cls[] = { "f0", "f1", "f2", "f3" };

	return cls[freq_class(js(e, "frequency"))];
}

static void schedule_lists(buf_t *b, const cJSON *sched)
{
	static const char *const hd_heads[] = { "kind", "call", "how often", "phase", "anchor", NULL };
	static const char *const hd_keys[] = { "kind", "call", "~frequency", "phase", "@anchor", NULL };
	static const char *const dd_heads[] = { "op", "parallelism", "phase", "implied by", "anchor", NULL };
	static const char *const dd_keys[] = { "op", "parallelism", "phase", "implied_by", "@anchor", NULL };
	static const char *const ov_heads[] = { "what", "with", "stream", "mechanism", "anchor", NULL };
	static const char *const ov_keys[] = { "what", "with", "stream", "mechanism", "@anchor", NULL };
	const cJSON *hd = cJSON_GetObjectItemCaseSensitive(sched, "host_device"), *e;
	const cJSON **order = xcalloc((size_t)cJSON_GetArraySize(hd) + 1, sizeof *order);
	size_t n = 0;
	int cls;

	/* most frequent first, each class in the records' order */
	for (cls = 0; cls < 4; cls++)
		cJSON_ArrayForEach(e, hd)
			if (freq_class(js(e, "frequency")) == cls)
				order[n++] = e;
	table(b, "Sync points and copies, most frequent first", hd_heads, hd_keys, hd, order, n, freq_row,
	      cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sched, "incomplete")) > 0
	          ? "None found, and the reading is incomplete (above): the code past where it stopped was not read."
	          : "None found on the paths ecg read: no .item(), .cpu(), print of a device tensor, "
	            "synchronize() or copy between host and device.");
	free(order);
	table(b, "Collectives", dd_heads, dd_keys, cJSON_GetObjectItemCaseSensitive(sched, "device_device"), NULL, 0, NULL,
	      "None found on the paths ecg read: no DistributedDataParallel, FSDP or torch.distributed call "
	      "(a single-process job, or one whose process group ecg did not see set up).");
	table(b, "Intended overlaps", ov_heads, ov_keys, cJSON_GetObjectItemCaseSensitive(sched, "overlap"), NULL, 0, NULL,
	      "None found: no non_blocking copy, side stream, async_op collective or bucketed gradient all-reduce "
	      "meant to run under compute.");
}

static void config_table(buf_t *b, const cJSON *graph)
{
	static const char *const heads[] = { "name", "value", "source", "via", NULL };
	static const char *const keys[] = { "name", "#value", "@source", "via", NULL };

	table(b, "Configuration values used", heads, keys, cJSON_GetObjectItemCaseSensitive(graph, "config"), NULL, 0,
	      NULL, "None: no value of an argparse option, dataclass field, config file or module global was used to "
	            "build the model or run the step.");
}

/* "12.6M", "12.6M*b*t" */
static void cost_text(buf_t *b, double c, const char *m)
{
	static const char *const suf[] = { "", "K", "M", "G", "T", "P" };
	int i = 0;

	while (c >= 1000 && i < 5) {
		c /= 1000;
		i++;
	}
	buf_addf(b, i ? "%.1f%s" : "%.0f%s", c, suf[i]);
	if (m && *m) {
		buf_addch(b, '*');
		esc(b, m);
	}
}

/* The cost view: the model's blocks (its children and every repeated
 * unit) and its layers by FLOPs x total_repeat as bars (the 20 largest),
 * in the symbols most of them share; the blocks without a bar listed
 * with why; beside them the syncs one step makes. */
static void cost_view(buf_t *b, const cJSON *graph, const cJSON *sched)
{
	const cJSON *mods = cJSON_GetObjectItemCaseSensitive(graph, "modules"), *e;
	size_t n, i, k, nb = 0, best = 0;
	struct flops *f = flops_modules(mods, &n);
	const cJSON **blk = xcalloc(n + 1, sizeof *blk);
	double *cost = xcalloc(n + 1, sizeof *cost), max = 0;
	size_t *fi = xcalloc(n + 1, sizeof *fi);
	const char *mono = "";
	int step_syncs = 0, micro_syncs = 0;

	/* the blocks: entries under the model, and the repeated units */
	i = 0;
	cJSON_ArrayForEach(e, mods) {
		const char *p = js(e, "parent"), *kind = js(e, "kind");
		double tot;

		if (kind && strcmp(kind, "op") && strcmp(kind, "function") && p &&
		    (!p[0] || cJSON_GetObjectItemCaseSensitive(e, "repeat") || !strcmp(kind, "layer"))) {
			blk[nb] = e;
			fi[nb] = i;
			cost[nb] = f[i].c >= 0 && records_num(e, "total_repeat", &tot) && tot >= 0 ? f[i].c * tot : -1;
			nb++;
		}
		i++;
	}
	/* the symbols most blocks' costs have */
	for (i = 0; i < nb; i++) {
		size_t cnt = 0;

		for (k = 0; k < nb; k++)
			cnt += cost[i] > 0 && cost[k] > 0 && !strcmp(f[fi[i]].m, f[fi[k]].m);
		if (cnt > best) {
			best = cnt;
			mono = f[fi[i]].m;
		}
	}
	for (i = 0; i < nb; i++)
		if (cost[i] > max && !strcmp(f[fi[i]].m, mono))
			max = cost[i];
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sched, "host_device")) {
		const char *kind = js(e, "kind"), *fr = js(e, "frequency");

		if (!kind || strcmp(kind, "sync") || !fr)
			continue;
		if (!strcmp(fr, "every step") || !strncmp(fr, "every request", 13))
			step_syncs++;
		else if (strstr(fr, "micro") || !strncmp(fr, "every token", 11))
			micro_syncs++;
	}
	buf_addstr(b, "<h2>Cost</h2>\n");
	if (!best) {
		buf_addstr(b, "<p class=\"empty\">No block's FLOPs are known: a layer's output shape, class or repeat "
		              "count is not known in the records.</p>\n");
	} else {
		buf_addstr(b, "<div class=\"scroll\"><table class=\"cost\">\n");
		/* the bars, largest first (a few dozen blocks: selection) */
		for (k = 0; k < nb && k < 20; k++) {
			size_t j, pick = nb;

			for (j = 0; j < nb; j++)
				if (cost[j] > 0 && !strcmp(f[fi[j]].m, mono) && (pick == nb || cost[j] > cost[pick]))
					pick = j;
			if (pick == nb)
				break;
			buf_addstr(b, "<tr><td><b>");
			esc(b, js(blk[pick], "id")[0] ? js(blk[pick], "id") : "(model)");
			buf_addstr(b, "</b> <span class=\"cls\">");
			esc(b, js(blk[pick], "class"));
			buf_addf(b, "</span></td><td style=\"width:60%%\"><span class=\"bar\" style=\"width:%.1f%%\"></span>"
			         "</td><td class=\"n\">", max > 0 ? 100 * cost[pick] / max : 0);
			cost_text(b, cost[pick], cost[pick] > 0 ? mono : "");
			buf_addstr(b, "</td></tr>\n");
			cost[pick] = -2;   /* drawn */
		}
		buf_addstr(b, "</table></div>\n<p class=\"a\">FLOPs per call (static estimate, forward only, as "
		              "'ecg show --top' gives it) x total_repeat; a block's bar holds its layers' too");
		if (*mono) {
			buf_addstr(b, "; ");
			esc(b, mono);
			buf_addstr(b, " are the shapes' own dims, not known as numbers");
		}
		buf_addstr(b, ".</p>\n");
		for (i = 0, k = 0; i < nb; i++)
			if (cost[i] != -2 && cost[i] != 0 && strcmp(js(blk[i], "kind"), "layer")) {
				buf_addstr(b, k++ ? ", " : "<p class=\"empty\">No bar (FLOPs not known, or in other symbols): ");
				esc(b, js(blk[i], "id")[0] ? js(blk[i], "id") : "(model)");
			}
		if (k)
			buf_addstr(b, ".</p>\n");
	}
	buf_addf(b, "<p><b>Syncs per step:</b> %d every step", step_syncs);
	if (micro_syncs)
		buf_addf(b, ", %d every micro-step or token (times the micro-steps a step makes)", micro_syncs);
	buf_addstr(b, " (the table below lists each).</p>\n");
	free(f);
	free(blk);
	free(cost);
	free(fi);
}

/* What the analysis did not find (the records' `incomplete`), above the
 * tables it leaves empty. */
static void render_incomplete(buf_t *b, const cJSON *graph)
{
	const cJSON *i, *u;

	cJSON_ArrayForEach(i, cJSON_GetObjectItemCaseSensitive(graph, "incomplete")) {
		buf_addstr(b, "<p class=\"incomplete\"><b>Incomplete:</b> ");
		esc(b, js(i, "reason"));
		cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(i, "stopped_by")) {
			buf_addstr(b, "<br>stopped by <code>");
			esc(b, js(u, "anchor"));
			buf_addstr(b, "</code>: ");
			esc(b, js(u, "reason"));
		}
		buf_addstr(b, "</p>\n");
	}
}

/* The page to `output`: "-" is standard output; anything else must be
 * a regular file or nothing yet (never a device, a FIFO, a directory or a
 * symbolic link, which rename() would replace), and is replaced
 * atomically; its path is printed.  0, or -1 with err_set(ECG_EXIT_OUTPUT). */
static int render_write(const char *output, const buf_t *b)
{
	const char *slash = strrchr(output, '/');
	struct stat st;
	char *odir;
	int rc;

	if (!strcmp(output, "-")) {
		if (fwrite(b->buf, 1, b->len, stdout) != b->len || fflush(stdout) != 0)
			return err_set(ECG_EXIT_OUTPUT, "render: cannot write to standard output: %s", strerror(errno));
		return 0;
	}
	if (lstat(output, &st) == 0 && !S_ISREG(st.st_mode))
		return err_set(ECG_EXIT_OUTPUT, "render: '%s' is %s, not a regular file: not replaced (-o - writes "
		               "to standard output)", output,
		               S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory"
		               : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
		               : "a special file");
	odir = !slash ? xstrdup(".") : slash == output ? xstrdup("/") : xstrndup(output, (size_t)(slash - output));
	rc = emit_write_atomic(odir, slash ? slash + 1 : output, b->buf, b->len);
	free(odir);
	if (rc == 0)
		printf("%s\n", output);
	return rc;
}

int cmd_render(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "records", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *records = NULL, *output = NULL;
	cJSON *graph = NULL, *sched = NULL;
	const cJSON *ep, *jt;
	char *dir = NULL;
	buf_t b;
	int c, rc = ECG_EXIT_OK;

	buf_init(&b);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': records = optarg; break;
		case 'o': output = optarg; break;
		case 'h':
			fputs(render_usage, stdout);
			buf_free(&b);
			return ECG_EXIT_OK;
		default:
			cmd_opt_unknown_in("render", argv, longopts);
			goto fail;
		}
	}
	if (optind < argc || !output) {
		err_set(ECG_EXIT_USAGE, optind < argc ? "render: unexpected argument (see 'ecg render --help')"
		                                      : "render: -o FILE is required (see 'ecg render --help')");
		goto fail;
	}
	dir = records ? xstrdup(records) : records_default_dir();
	if (!(graph = records_read(dir, RECORDS_GRAPH_FILE)) || !(sched = records_read(dir, RECORDS_SCHEDULE_FILE)))
		goto fail;
	ep = cJSON_GetObjectItemCaseSensitive(graph, "entrypoint");
	jt = cJSON_GetObjectItemCaseSensitive(graph, "job_type");
	buf_addf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ecg: ");
	esc(&b, ep ? js(ep, "file") : "records");
	buf_addf(&b, "</title><style>%s</style></head><body>\n<h1>ecg records: ", css);
	esc(&b, ep ? js(ep, "file") : "(no entry)");
	buf_addstr(&b, "</h1>\n<p>commit <code>");
	esc(&b, js(graph, "commit") ? js(graph, "commit") : "none (a directory outside git, read as it is on disk)");
	buf_addstr(&b, "</code>, job type <b>");
	esc(&b, jt && js(jt, "value") ? js(jt, "value") : "not known");
	buf_addstr(&b, "</b>, step <span class=\"a\">");
	esc(&b, ep && js(ep, "step") ? js(ep, "step") : "not known");
	buf_addstr(&b, "</span></p>\n");
	render_incomplete(&b, graph);
	buf_addstr(&b, "<h2>Module tree</h2>\n<div id=\"tree\">\n");
	tree(&b, cJSON_GetObjectItemCaseSensitive(graph, "modules"), NULL, 0);
	buf_addstr(&b, "</div>\n<h2>One step</h2>\n<div id=\"timeline\">\n");
	timeline(&b, sched);
	buf_addstr(&b, "</div>\n");
	cost_view(&b, graph, sched);
	schedule_lists(&b, sched);
	config_table(&b, graph);
	buf_addstr(&b, "<p class=\"a\">Written by ecg from the records; nothing here was run.</p>\n</body></html>\n");
	if (render_write(output, &b) < 0)
		goto fail;
	goto cleanup;
fail:
	err_warn("%s", err_last());
	rc = err_code();
cleanup:
	buf_free(&b);
	free(dir);
	cJSON_Delete(graph);
	cJSON_Delete(sched);
	return rc;
}
