/* err.c - see include/ecg/err.h */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ecg/err.h"
#include "ecg/progress.h"
#include "ecg/util.h"

#define ERR_CAP 4096

static char err_msg[ERR_CAP];
static enum ecg_exit err_class = ECG_EXIT_INTERNAL;

int err_set(enum ecg_exit code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof err_msg, fmt, ap);
	va_end(ap);
	err_class = code;
	return -1;
}

int err_prefix(const char *fmt, ...)
{
	char head[ERR_CAP];
	char old[ERR_CAP];
	size_t n, m;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, err_msg, sizeof old);
	/* head, ": " and the old message, cut at ERR_CAP - 1 bytes */
	n = strnlen(head, sizeof head - 1);
	memcpy(err_msg, head, n);
	if (old[0] && n + 2 < sizeof err_msg) {
		memcpy(err_msg + n, ": ", 2);
		n += 2;
		m = strnlen(old, sizeof old - 1);
		if (m > sizeof err_msg - 1 - n)
			m = sizeof err_msg - 1 - n;
		memcpy(err_msg + n, old, m);
		n += m;
	}
	err_msg[n] = 0;
	return -1;
}

const char *err_last(void)
{
	return err_msg;
}

enum ecg_exit err_code(void)
{
	return err_class;
}

void err_clear(void)
{
	err_msg[0] = 0;
	err_class = ECG_EXIT_INTERNAL;
}

void err_warn(const char *fmt, ...)
{
	buf_t msg, out;
	va_list ap;

	/* the message names files and modules of the repository: its control
	 * characters are made visible (a newline in a file name must not
	 * start a line of its own) */
	buf_init(&msg);
	buf_init(&out);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	buf_addstr(&out, "ecg: ");
	buf_addvis(&out, msg.buf);
	buf_addch(&out, '\n');
	progress_clear();
	fputs(out.buf, stderr);
	buf_free(&msg);
	buf_free(&out);
}
