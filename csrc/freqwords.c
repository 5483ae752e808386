/* freqwords.c - a schedule entry's frequency as words with units, for a
 * person (show --schedule, the page): freqwords.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/freqwords.h"
#include "ecg/util.h"

/* A frequency as words with units: "every eval_interval=2000 steps ×400"
 * reads "400 x every 2000 steps (eval_interval)", "every log_interval=1
 * steps" reads "every step (log_interval=1)"; others ("every step",
 * "once", "every 20 epochs") as written.  ASCII: cells are cut by bytes.
 * Into out. */
static void freq_words_raw(const char *f, char *out, size_t n)
{
	static const char mul[] = "\xc3\x97";   /* × */
	char body[256], pre[64] = "", *times, *eq, *sp;

	snprintf(body, sizeof body, "%s", f);
	times = strstr(body, mul);
	if (times && !(times[strlen(mul)] >= '0' && times[strlen(mul)] <= '9')) {
		/* "×? (`for ...`)": a count not known stays as written, × as x */
		*times = '\0';
		snprintf(out, n, "%sx%s", body, times + strlen(mul));
		return;
	}
	if (times) {
		if (strcmp(times + strlen(mul), "1"))     /* x1: as often as its line */
			snprintf(pre, sizeof pre, "%s x ", times + strlen(mul));
		*times = '\0';
		while (times > body && times[-1] == ' ')
			*--times = '\0';
	}
	eq = strchr(body, '=');
	sp = eq ? strchr(eq, ' ') : NULL;
	if (!strncmp(body, "every ", 6) && eq && sp && !memchr(body + 6, ' ', (size_t)(eq - body - 6))) {
		size_t ul;

		*sp = '\0';
		*eq = '\0';
		ul = strlen(sp + 1);
		/* out may be shorter than body: a cut is fine, the cell is cut anyway */
		if (!strcmp(eq + 1, "1") && ul > 1 && sp[ul] == 's')   /* "every 1 steps": every step */
			snprintf(out, n, "%severy %.*s (%s=1)", pre, (int)(ul - 1), sp + 1, body + 6);
		else
			if (snprintf(out, n, strcmp(eq + 1, body + 6) ? "%severy %s %s (%s)" : "%severy %s %s", pre, eq + 1,
			             sp + 1, body + 6) < 0)
				*out = '\0';
	} else {
		snprintf(out, n, "%s%s", pre, body);
	}
}

/* The loop text a frequency quotes, as words (the records keep the text):
 * " (iteration[s] of `LOOP`)" goes ("every epoch"), "x? (`LOOP`)" reads
 * "x? (a loop's count not known)", "every iteration of `LOOP`" "every
 * iteration of a loop".  t rewritten in place, within n bytes. */
static void freq_unquote(char *t, size_t n)
{
	static const struct {
		const char *open, *with;
	} forms[] = {
		{ " (iteration of `", "" },
		{ " (iterations of `", "" },
		{ "? (`", "? (a loop's count not known)" },
		{ "iteration of `", "iteration of a loop" },
	};
	size_t k;

	for (k = 0; k < sizeof forms / sizeof forms[0]; k++) {
		char *a, *b, *r;

		while ((a = strstr(t, forms[k].open)) != NULL) {
			int paren = strchr(forms[k].open, '(') != NULL;

			b = strstr(a + strlen(forms[k].open), paren ? "`)" : "`");
			if (!b)
				break;
			b += paren ? 2 : 1;
			r = xasprintf("%.*s%s%s", (int)(a - t), t, forms[k].with, b);
			snprintf(t, n, "%s", r);
			free(r);
		}
	}
}

void freq_words(const char *f, char *out, size_t n)
{
	if (!n)
		return;
	freq_words_raw(f ? f : "?", out, n);
	freq_unquote(out, n);
}
