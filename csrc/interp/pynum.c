/* interp/pynum.c - a str read as Python's int() and float() read it
 *
 * A command line's words reach a job through int(s) and float(s):
 * argparse's type=int, click's INT and FLOAT, HfArgumentParser's and
 * tyro's typed fields, and int()/float() written in the job.  Python
 * reads them in base 10 (int("010") is 10, int("0x10") raises), with
 * surrounding whitespace, a sign, and single underscores between digits
 * ("1_000"); float() takes the same plus a point, an exponent and the
 * words inf, infinity and nan in any case (float("0x1p3") raises).  C's
 * strtoll/strtod read other words (base 0's octal and hex, hex floats,
 * "nan(...)"), so they are called only on text checked here.
 *
 * YAML's scalars (a config file, jsonargparse's and fire's words) follow
 * YAML's rules, not these (framework.c, yaml readers).
 *
 * Both functions return 1 and store the value, or 0 (the text is no
 * such number, or an int beyond 64 bits) and leave *out alone.  Nothing
 * is allocated beyond a bounded stack buffer.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define PYNUM_MAX 128

/* s without its surrounding whitespace and its underscores into buf
 * (each underscore between two digits, as Python's grammar has them);
 * 0 when one is elsewhere or the text is too long. */
static int pynum_clean(const char *s, char *buf)
{
	const char *e;
	size_t n = 0;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e == s || (size_t)(e - s) >= PYNUM_MAX)
		return 0;
	for (; s < e; s++) {
		if (*s == '_') {
			if (!n || !isdigit((unsigned char)buf[n - 1]) || s + 1 >= e || !isdigit((unsigned char)s[1]))
				return 0;
			continue;
		}
		buf[n++] = *s;
	}
	buf[n] = 0;
	return 1;
}

int py_int_of_str(const char *s, long long *out)
{
	char buf[PYNUM_MAX], *end;
	const char *d;
	long long v;

	if (!pynum_clean(s, buf))
		return 0;
	d = buf + (*buf == '+' || *buf == '-');
	if (!*d)
		return 0;
	for (; *d; d++)
		if (!isdigit((unsigned char)*d))
			return 0;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end)
		return 0;
	*out = v;
	return 1;
}

int py_float_of_str(const char *s, double *out)
{
	char buf[PYNUM_MAX], *end;
	const char *d;
	double v;
	int digits = 0;

	if (!pynum_clean(s, buf))
		return 0;
	d = buf + (*buf == '+' || *buf == '-');
	if (!strcasecmp(d, "inf") || !strcasecmp(d, "infinity") || !strcasecmp(d, "nan"))
		goto read;
	/* digits, one point, an exponent: nothing else (no hex) */
	for (; isdigit((unsigned char)*d); d++)
		digits++;
	if (*d == '.')
		for (d++; isdigit((unsigned char)*d); d++)
			digits++;
	if (!digits)
		return 0;
	if (*d == 'e' || *d == 'E') {
		d++;
		d += *d == '+' || *d == '-';
		if (!isdigit((unsigned char)*d))
			return 0;
		while (isdigit((unsigned char)*d))
			d++;
	}
	if (*d)
		return 0;
read:
	v = strtod(buf, &end);
	if (*end)
		return 0;
	*out = v;
	return 1;
}
