/* tap.h - a minimal TAP producer for the C unit tests.
 * ok(cond, fmt, ...) prints "ok N - ..." or "not ok N - ..."; done() prints
 * the plan and returns the exit status (0 when everything passed). */
#ifndef ECG_TAP_H
#define ECG_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static __attribute__((format(printf, 2, 3), unused)) int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

static __attribute__((format(printf, 1, 2), unused)) void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static __attribute__((unused)) int done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
