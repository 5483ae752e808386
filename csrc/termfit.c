/* termfit.c - tables that fit the terminal (termfit.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ecg/termfit.h"

int termfit_width(int asked)
{
	struct winsize ws;
	const char *cols;
	int w = 80;

	if (asked > 0)
		w = asked;
	else if (isatty(STDOUT_FILENO)) {
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
			w = ws.ws_col;
		else if ((cols = getenv("COLUMNS")) && atoi(cols) > 0)
			w = atoi(cols);
	}
	return w < TERMFIT_MIN ? TERMFIT_MIN : w;
}

/* The length of the part that must stay: ":LINE" at the end of an anchor. */
static size_t termfit_must(const char *s, size_t len)
{
	size_t i = len;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i < len && i > 0 && s[i - 1] == ':')
		return len - (i - 1);
	return 0;
}

char *termfit_mid(char *out, size_t n, const char *s, int w)
{
	size_t len = strlen(s), must, head, tail, room;

	if (!n)
		return out;
	if (w < 0)
		w = 0;
	if (len <= (size_t)w) {
		snprintf(out, n, "%s", s);
		return out;
	}
	must = termfit_must(s, len);
	if ((size_t)w <= 3 || (size_t)w < must + 3) {
		/* no room for the dots: the tail alone (the line number first) */
		snprintf(out, n, "%s", s + len - (size_t)w);
		return out;
	}
	room = (size_t)w - 3;
	/* the head: a quarter of the room (where the path starts), the tail
	 * the rest (file, symbol, line: what tells rows apart) */
	head = room / 4;
	if (head + must > room)
		head = room - must;
	tail = room - head;
	snprintf(out, n, "%.*s...%s", (int)head, s, s + len - tail);
	return out;
}

void termfit_cols(int *w, const int *min, const int *weight, int n, int avail)
{
	int sum = 0, i, big;

	for (i = 0; i < n; i++)
		sum += w[i];
	while (sum > avail) {
		/* the column widest for its weight gives a column */
		big = -1;
		for (i = 0; i < n; i++)
			if (w[i] > min[i] && (big < 0 || (long)w[i] * (weight ? weight[big] : 1) >
			                                     (long)w[big] * (weight ? weight[i] : 1)))
				big = i;
		if (big < 0)
			return;
		w[big]--;
		sum--;
	}
}
