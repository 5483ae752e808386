/* nearest.c - the known name nearest to a misspelled one (nearest.h). */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "ecg/nearest.h"

#define NEAREST_MAX 128

int nearest_distance(const char *a, const char *b)
{
	static int d[NEAREST_MAX + 1][NEAREST_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la >= NEAREST_MAX || lb >= NEAREST_MAX)
		return 1000;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			/* two neighbours swapped: one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t i, wl = strlen(word);
	int bestd = 1000, limit = (int)wl / 3;

	if (!wl)
		return NULL;
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (i = 0; i < n; i++) {
		int d;

		if (!names[i] || !strcmp(names[i], word))
			continue;
		d = nearest_distance(word, names[i]);
		if (d > limit && wl >= 3 && !strncmp(names[i], word, wl))
			d = limit;      /* an abbreviation */
		if (d <= limit && d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return best;
}
