/* progress.c - a status line on stderr during long runs (progress.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ecg/progress.h"

static struct {
	int on, shown;
	const char *cmd;
	double start, last, after;
} P;

static double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_begin(const char *cmd, int off)
{
	const char *ms = getenv("ECG_PROGRESS_MS");

	memset(&P, 0, sizeof P);
	P.on = !off && isatty(STDERR_FILENO);
	P.cmd = cmd;
	P.after = ms && *ms ? atof(ms) / 1000 : 0.5;
	P.start = progress_now();
	P.last = -1;
}

void progress_say(const char *fmt, ...)
{
	char line[160];
	va_list ap;
	double now;

	if (!P.on)
		return;
	now = progress_now();
	if (now - P.start < P.after || (P.last >= 0 && now - P.last < 0.1 && P.after > 0))
		return;
	P.last = now;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* one line, cut to 79 columns: \r and erase, never a scroll */
	fprintf(stderr, "\r\033[Kecg: %s: %.*s", P.cmd, 70 - (int)strlen(P.cmd) > 10 ? 70 - (int)strlen(P.cmd) : 10,
	        line);
	fflush(stderr);
	P.shown = 1;
}

void progress_clear(void)
{
	if (P.on && P.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		P.shown = 0;
	}
}

void progress_end(void)
{
	progress_clear();
	P.on = 0;
}
