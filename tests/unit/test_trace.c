/* test_trace.c - the streaming trace reader (trace.c) and its gzip layer
 * (zlib).
 *
 * The gzip files are made at test time by gzip(1).  With
 * $ECG_TEST_QUICK (valgrind runs) the 200 MB stream and the 64 MiB event
 * are skipped.  $ECG_TRACE_MB sets the size of the big stream (default 200,
 * 40 under ASan, which is 4-5 times slower and whose RSS is not checked).
 * $ECG_TRACES_DIR overrides where the real traces are (../shared/traces);
 * traces shaped like them are generated for everyone (kineto_like.py). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/trace.h"
#include "ecg/util.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static char tmpdir[] = "/tmp/ecg-test-trace-XXXXXX";
static int quick;

/* ---------------------------------------------------------------- helpers */

static char *tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void write_file(const char *name, const void *data, size_t n)
{
	char *p = tpath(name);
	FILE *f = fopen(p, "wb");

	if (!f || fwrite(data, 1, n, f) != n)
		diag("cannot write %s", p);
	if (f)
		fclose(f);
	free(p);
}

static int slurp(const char *name, buf_t *b)
{
	char *p = tpath(name), tmp[65536];
	FILE *f = fopen(p, "rb");
	size_t n;

	free(p);
	buf_reset(b);
	if (!f)
		return -1;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(b, tmp, n);
	fclose(f);
	return 0;
}

/* Run a shell command in the temporary directory. */
static __attribute__((format(printf, 1, 2))) int sh(const char *fmt, ...)
{
	buf_t b;
	va_list ap;
	int rc;

	buf_init(&b);
	buf_addf(&b, "cd '%s' && ", tmpdir);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	rc = system(b.buf);
	if (rc != 0)
		diag("command failed (%d): %s", rc, b.buf);
	buf_free(&b);
	return rc;
}

/* Read a trace to its end: the last trace_next() result (0 or -1), the
 * events' "name"s joined with ',' in *names, their number in *count. */
static int read_trace(const char *path, buf_t *names, uint64_t *count)
{
	trace_reader *r = trace_open(path);
	cJSON *ev;
	int rc;

	buf_reset(names);
	*count = 0;
	if (!r)
		return -2;
	while ((rc = trace_next(r, &ev)) == 1) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "name"));

		buf_addf(names, "%s%s", *count ? "," : "", name ? name : "?");
		(*count)++;
		cJSON_Delete(ev);
	}
	trace_close(r);
	return rc;
}

/* Whether obj[key] is the string want (NULL obj allowed). */
static int str_is(const cJSON *obj, const char *key, const char *want)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));

	return v && !strcmp(v, want);
}

static int has(const char *s)
{
	return strstr(err_last(), s) != NULL;
}

/* A plain trace of n events: members before and after traceEvents, and
 * strings with brackets, braces and escapes in them. */
static void sample(buf_t *b, int n)
{
	int i;

	buf_reset(b);
	buf_addstr(b, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"[gpu]{0}\"}],\n"
		"  \"traceEvents\": [\n");
	for (i = 0; i < n; i++)
		buf_addf(b, "    {\"ph\": \"X\", \"name\": \"ev%d\", \"ts\": %d, \"dur\": 3,"
			" \"args\": {\"s\": \"]}\\\"[{\\\\\", \"l\": [1, {\"x\": \"}\"}, []]}}%s\n",
			i, 1000 + i, i + 1 < n ? "," : "");
	buf_addstr(b, "  ],\n  \"traceName\": \"sample\"\n}\n");
}

static char *expected_names(int n)
{
	buf_t b;
	int i;

	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_addf(&b, "%sev%d", i ? "," : "", i);
	return buf_detach(&b);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---------------------------------------------------------------- gzip */

/* Read the n bytes of data as the trace file `name`: the last trace_next()
 * result, the events' count in *count. */
static int read_bytes(const char *name, const void *data, size_t n, buf_t *names, uint64_t *count)
{
	char *p = tpath(name);
	int rc;

	write_file(name, data, n);
	rc = read_trace(p, names, count);
	free(p);
	return rc;
}

/* The gzip layer (zlib's inflate(), trace.c's gunzip()): members back to
 * back, the trailer checked, nothing after the last member, a cut stream
 * "truncated". */
static void test_gzip(void)
{
	buf_t plain, gz, bad, names;
	char *want = expected_names(300);
	size_t n, fails, ok_same, errs, i;
	uint64_t count;
	uint32_t rng = 12345;
	int rc;

	buf_init(&plain);
	buf_init(&gz);
	buf_init(&bad);
	buf_init(&names);
	sample(&plain, 300);
	write_file("in.json", plain.buf, plain.len);
	sh("gzip -c in.json > in.json.gz && head -c 5000 in.json > a && tail -c +5001 in.json > b && "
	   "printf '' | gzip -c > empty.gz && gzip -1 -c a > multi.gz && cat empty.gz >> multi.gz && "
	   "gzip -9 -c b >> multi.gz");
	slurp("in.json.gz", &gz);
	rc = read_bytes("g.json.gz", gz.buf, gz.len, &names, &count);
	ok(rc == 0 && count == 300 && !strcmp(names.buf, want), "gzip -c output: the 300 events");
	slurp("multi.gz", &gz);
	rc = read_bytes("g.json.gz", gz.buf, gz.len, &names, &count);
	ok(rc == 0 && count == 300 && !strcmp(names.buf, want),
	   "three members back to back (one empty, one cut inside an event): the 300 events");

	/* the trailer: CRC-32, then ISIZE; then what follows the member */
	slurp("in.json.gz", &gz);
	buf_reset(&bad);
	buf_add(&bad, gz.buf, gz.len);
	bad.buf[bad.len - 8] ^= 1;
	rc = read_bytes("crc.json.gz", bad.buf, bad.len, &names, &count);
	ok(rc == -1 && has("crc.json.gz: bad gzip data: CRC mismatch at byte"), "a wrong CRC-32 is found: %s",
	   err_last());
	bad.buf[bad.len - 8] ^= 1;
	bad.buf[bad.len - 1] ^= 0x40;
	rc = read_bytes("isize.json.gz", bad.buf, bad.len, &names, &count);
	ok(rc == -1 && has("bad gzip data: length mismatch at byte"), "a wrong ISIZE is found: %s", err_last());
	bad.buf[bad.len - 1] ^= 0x40;
	buf_addstr(&bad, "junk");
	rc = read_bytes("junk.json.gz", bad.buf, bad.len, &names, &count);
	ok(rc == -1 && count == 300 && has("bad gzip data: data after member 1 is not gzip"),
	   "bytes after the last member that are not a member: %s", err_last());
	buf_reset(&bad);
	buf_add(&bad, gz.buf, gz.len);
	buf_add(&bad, "\x1f", 1);
	rc = read_bytes("half.json.gz", bad.buf, bad.len, &names, &count);
	ok(rc == -1 && has("data after member 1 is not gzip"), "one byte after the last member: %s", err_last());
	buf_reset(&bad);
	buf_add(&bad, gz.buf, gz.len);
	buf_add(&bad, "\x1f\x8b\x08\x00", 4);
	rc = read_bytes("half2.json.gz", bad.buf, bad.len, &names, &count);
	ok(rc == -1 && has("truncated gzip data"), "the start of a member after the last: %s", err_last());
	rc = read_bytes("method.json.gz", "\x1f\x8b\x07\x00\x00\x00\x00\x00\x00\x03\x03\x00", 12, &names, &count);
	ok(rc == -1 && has("bad gzip data: "), "compression method 7: %s", err_last());

	/* every cut of a small member is "truncated gzip data" */
	write_file("small.json", plain.buf, 600);
	sh("gzip -c small.json > small.gz");
	slurp("small.gz", &gz);
	for (fails = 0, n = 2; n < gz.len; n++)
		if (read_bytes("cut.gz", gz.buf, n, &names, &count) != -1 || !has("truncated gzip data"))
			fails++;
	ok(fails == 0, "each of the %zu cuts of a gzip member is 'truncated gzip data' (%zu not)", gz.len - 2, fails);

	/* damaged copies: an error or the right events, never anything else
	 * (under ASan and valgrind this is also the out-of-bounds check) */
	sample(&plain, 20);
	write_file("s20.json", plain.buf, plain.len);
	sh("gzip -c s20.json > s20.gz");
	slurp("s20.gz", &gz);
	free(want);
	want = expected_names(20);
	for (fails = ok_same = errs = 0, i = 0; i < (quick ? 300 : 2000); i++) {
		buf_reset(&bad);
		buf_add(&bad, gz.buf, gz.len);
		for (n = 0; n < 1 + i % 4; n++) {
			rng = rng * 1103515245u + 12345u;
			bad.buf[2 + (rng >> 8) % (bad.len - 2)] ^= (char)(1 + (rng >> 24) % 255);
		}
		rc = read_bytes("dmg.gz", bad.buf, bad.len, &names, &count);
		if (rc == 0 && count == 20 && !strcmp(names.buf, want))
			ok_same++;
		else if (rc == -1 && has("dmg.gz: "))
			errs++;   /* some in bad JSON: what a bad stream decodes to is
			           * read before the CRC at its end says so */
		else if (fails++ < 5)
			diag("damage %zu: rc %d, %llu events: %s", i, rc, (unsigned long long)count, err_last());
	}
	ok(fails == 0, "%zu damaged gzip traces: each refused (%zu) or read right (%zu: the damage in ignored "
	   "header fields); %zu neither", i, errs, ok_same, fails);

	free(want);
	buf_free(&plain);
	buf_free(&gz);
	buf_free(&bad);
	buf_free(&names);
}

/* ---------------------------------------------------------------- the reader */

static void test_forms(void)
{
	buf_t plain, names;
	char *want = expected_names(50), *p;
	uint64_t count;
	trace_reader *r;
	const cJSON *meta;
	cJSON *ev;
	int rc;

	buf_init(&plain);
	buf_init(&names);
	sample(&plain, 50);
	write_file("t.json", plain.buf, plain.len);
	sh("gzip -c t.json > t.json.gz && head -c 3000 t.json > a && tail -c +3001 t.json > b && "
	   "gzip -c a > m.json.gz && gzip -9 -c b >> m.json.gz");

	rc = read_trace((p = tpath("t.json")), &names, &count);
	ok(rc == 0 && count == 50 && !strcmp(names.buf, want), "plain object form: 50 events in order");
	free(p);

	r = trace_open((p = tpath("t.json")));
	free(p);
	while (r && trace_next(r, &ev) == 1)
		cJSON_Delete(ev);
	meta = r ? trace_meta(r) : NULL;
	ok(r && !trace_is_gzip(r) && trace_events(r) == 50 && trace_bytes_text(r) == plain.len &&
	   trace_bytes_in(r) == plain.len, "plain: counters");
	ok(meta && cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(meta, "schemaVersion")) == 1 &&
	   cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(meta, "deviceProperties")) &&
	   str_is(meta, "traceName", "sample") &&
	   !cJSON_GetObjectItemCaseSensitive(meta, "traceEvents"),
	   "members before and after traceEvents are in trace_meta(), traceEvents is not");
	ok(r && trace_next(r, &ev) == 0 && !ev && trace_next(r, &ev) == 0, "after the end, 0 again");
	trace_close(r);

	rc = read_trace((p = tpath("t.json.gz")), &names, &count);
	ok(rc == 0 && count == 50 && !strcmp(names.buf, want), "gzip: the same 50 events");
	free(p);
	r = trace_open((p = tpath("t.json.gz")));
	free(p);
	while (r && trace_next(r, &ev) == 1)
		cJSON_Delete(ev);
	ok(r && trace_is_gzip(r) && trace_bytes_text(r) == plain.len && trace_bytes_in(r) < plain.len / 3,
	   "gzip: recognised, text and file sizes counted apart");
	trace_close(r);

	rc = read_trace((p = tpath("m.json.gz")), &names, &count);
	ok(rc == 0 && count == 50 && !strcmp(names.buf, want),
	   "two gzip members, cut inside an event: the same 50 events");
	free(p);

	/* stdin */
	{
		int fd = open((p = tpath("t.json.gz")), O_RDONLY), saved = dup(0);

		free(p);
		dup2(fd, 0);
		close(fd);
		rc = read_trace("-", &names, &count);
		dup2(saved, 0);
		close(saved);
		ok(rc == 0 && count == 50, "\"-\" reads stdin");
	}

	/* the bare array, a BOM, escapes in strings and keys, empty objects */
	p = "\xef\xbb\xbf [ {\"name\": \"a\\\"]}\"},{\"name\":\"[{\\\\\"} ,\n{\"name\": \"\\u005d\", \"x\": {}}\t]\n";
	write_file("bare.json", p, strlen(p));
	rc = read_trace((p = tpath("bare.json")), &names, &count);
	free(p);
	ok(rc == 0 && count == 3 && !strcmp(names.buf, "a\"]},[{\\,]"), "bare array form with a BOM and escapes (%s)",
	   names.buf);

	p = "{\"a\": {\"traceEvents\": 1}, \"b\": \"traceEvents\", \"c\": [\"]\", {\"}\": \"\\\\\"}], \"d\": null,"
	    "\"e\": -1.5e3 , \"trace\\u0045vents\": [{\"name\": \"x\"}], \"f\": true}";
	write_file("after.json", p, strlen(p));
	r = trace_open((p = tpath("after.json")));
	free(p);
	rc = r ? trace_next(r, &ev) : -2;
	ok(rc == 1 && str_is(ev, "name", "x"),
	   "traceEvents after other keys (one spelt with an escape)");
	cJSON_Delete(ev);
	rc = r ? trace_next(r, &ev) : -2;
	meta = r ? trace_meta(r) : NULL;
	ok(rc == 0 && meta && cJSON_GetArraySize(meta) == 6 &&
	   cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(meta, "e")) == -1500 &&
	   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "f")) &&
	   cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(meta, "d")),
	   "the other six members, scalars too, are in trace_meta()");
	trace_close(r);

	p = "{\"schemaVersion\": 1, \"traceEvents\": [ ], \"traceName\": \"e\"}";
	write_file("empty.json", p, strlen(p));
	rc = read_trace((p = tpath("empty.json")), &names, &count);
	free(p);
	ok(rc == 0 && count == 0, "empty traceEvents: no events, no error");

	free(want);
	buf_free(&plain);
	buf_free(&names);
}

/* Read path to its error: the events before it, then -1. */
static void expect_error(const char *name, uint64_t events, const char *msg, const char *what)
{
	buf_t names;
	uint64_t count;
	char *p = tpath(name);
	int rc;

	buf_init(&names);
	rc = read_trace(p, &names, &count);
	ok(rc == -1 && count == events && has(msg) && has(p), "%s: %llu events, then: %s", what,
	   (unsigned long long)count, err_last());
	free(p);
	buf_free(&names);
}

static void test_errors(void)
{
	buf_t plain, big;
	const char *s;
	char *cut, *p;
	trace_reader *r;
	cJSON *ev;
	size_t i;

	buf_init(&plain);
	buf_init(&big);
	sample(&plain, 2000);
	write_file("big.json", plain.buf, plain.len);
	cut = strstr(plain.buf, "\"ev3\"");
	write_file("cut.json", plain.buf, (size_t)(cut - plain.buf));
	sh("gzip -c big.json > big.json.gz && head -c $(( $(wc -c < big.json.gz) / 2 )) big.json.gz > cut.json.gz");
	expect_error("cut.json", 3, "truncated at byte", "truncated plain trace");

	r = trace_open((p = tpath("cut.json")));
	free(p);
	while (r && trace_next(r, &ev) == 1)
		cJSON_Delete(ev);
	ok(r && trace_next(r, &ev) == -1 && !ev && has("truncated") && has("(after event 3)"),
	   "after -1, -1 again with the same message");
	trace_close(r);

	{
		buf_t names;
		uint64_t count;
		char *want = expected_names(2000);
		int rc;

		buf_init(&names);
		rc = read_trace((p = tpath("cut.json.gz")), &names, &count);
		free(p);
		ok(rc == -1 && count > 100 && count < 2000 && !strncmp(want, names.buf, names.len) &&
		   has("truncated gzip data at byte"), "truncated gzip: %llu events, then: %s",
		   (unsigned long long)count, err_last());
		free(want);
		buf_free(&names);
	}

	/* a wrong CRC-32 is only known at the end of the member */
	sh("cp big.json.gz crc.json.gz && printf '\\377' | dd of=crc.json.gz bs=1 "
	   "seek=$(( $(wc -c < big.json.gz) - 8 )) conv=notrunc 2>/dev/null");
	expect_error("crc.json.gz", 2000, "CRC mismatch", "a gzip trace with a wrong CRC");
	/* a header, then a block of type 3 */
	write_file("btype.json.gz", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x07", 11);
	expect_error("btype.json.gz", 0, "bad gzip data: invalid block type", "a gzip block of type 3");

	write_file("notjson.txt", "hello {}", 8);
	expect_error("notjson.txt", 0, "not JSON", "text");
	write_file("nothing.json", "", 0);
	expect_error("nothing.json", 0, "not JSON", "an empty file");
	write_file("ws.json", " \n\t", 3);
	expect_error("ws.json", 0, "not JSON", "only whitespace");
	write_file("notrace.json", "{\"a\": [1, 2], \"b\": {}}", 22);
	expect_error("notrace.json", 0, "not a trace: no traceEvents", "an object without traceEvents");
	s = "{\"traceEvents\": {}}";
	write_file("evobj.json", s, strlen(s));
	expect_error("evobj.json", 0, "traceEvents is not an array", "traceEvents an object");
	s = "{\"traceEvents\": [{\"name\": \"a\"}, 7]}";
	write_file("notobj.json", s, strlen(s));
	expect_error("notobj.json", 1, "event 2 is not an object", "an event that is a number");
	s = "[{\"name\": \"a\"}, {\"name\": \"b\", \"x\": tru}]";
	write_file("badev.json", s, strlen(s));
	expect_error("badev.json", 1, "bad JSON at byte 35 (after event 1): in event 2", "bad JSON in an event");
	s = "{\"m\": [tru], \"traceEvents\": []}";
	write_file("badmeta.json", s, strlen(s));
	expect_error("badmeta.json", 0, "bad JSON at byte 7 (after event 0): in the top-level member \"m\"",
		"bad JSON in a member that is kept");
	s = "[{\"name\": \"a\"} {\"name\": \"b\"}]";
	write_file("comma.json", s, strlen(s));
	expect_error("comma.json", 1, "expected ',' or ']', found '{'", "a missing comma");
	s = "[{\"name\": \"a\"},]";
	write_file("trail.json", s, strlen(s));
	expect_error("trail.json", 1, "event 2 is not an object (found ']')", "a trailing comma");
	s = "[{\"name\": \"a\"}] x";
	write_file("after.json", s, strlen(s));
	expect_error("after.json", 1, "data after the end", "bytes after the document");
	s = "{\"traceEvents\": [{\"name\": \"a\"}], \"traceName\": ";
	write_file("cutmeta.json", s, strlen(s));
	expect_error("cutmeta.json", 1, "truncated at byte 46 (after event 1)", "cut after traceEvents");
	s = "{\"traceEvents\": [], \"traceEvents\": []}";
	write_file("twice.json", s, strlen(s));
	expect_error("twice.json", 0, "a second traceEvents", "traceEvents twice");
	p = tpath("missing.json");
	ok(!trace_open(p) && has(p) && has("No such file"), "a missing file: %s", err_last());
	free(p);

	/* a member of 1 MiB or more is skipped; later ones are kept */
	buf_reset(&big);
	buf_addstr(&big, "{\"huge\": [");
	for (i = 0; i < 120000; i++)
		buf_addstr(&big, "\"xxxxxxx\",");
	buf_addstr(&big, "0], \"traceEvents\": [{\"name\": \"a\"}], \"small\": 2}");
	write_file("hugemeta.json", big.buf, big.len);
	r = trace_open((p = tpath("hugemeta.json")));
	free(p);
	while (r && trace_next(r, &ev) == 1)
		cJSON_Delete(ev);
	ok(r && trace_events(r) == 1 && !cJSON_GetObjectItemCaseSensitive(trace_meta(r), "huge") &&
	   cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(trace_meta(r), "small")) == 2,
	   "a 1.2 MB member is skipped, a small one after the events kept");
	trace_close(r);

	if (quick)
		ok(1, "an event of more than 64 MiB # SKIP ECG_TEST_QUICK");
	else {
		FILE *f;

		p = tpath("hugeev.json");
		f = fopen(p, "wb");
		fputs("[{\"name\": \"a\"}, {\"name\": \"", f);
		for (i = 0; i < 65 * 1024; i++)
			fprintf(f, "%01023d", 0);
		fputs("\"}]", f);
		fclose(f);
		free(p);
		expect_error("hugeev.json", 1, "event 2 has more than 64 MiB", "a 65 MiB event");
		p = tpath("hugeev.json");
		unlink(p);
		free(p);
	}
	buf_free(&plain);
	buf_free(&big);
}

/* Damaged copies of a small trace, plain and gzip: each read ends in 0 or
 * in -1 with a message that names the file (ASan and valgrind watch the
 * rest). */
static void test_damaged(void)
{
	static const char ins[] = "{}[]\",:\\ x";
	buf_t plain, gz, d;
	uint32_t rng = 4242;
	char *p = tpath("damaged.json");
	int form, it, k, rc = 0, bad = 0, errors = 0;

	buf_init(&plain);
	buf_init(&gz);
	buf_init(&d);
	sample(&plain, 30);
	write_file("small.json", plain.buf, plain.len);
	sh("gzip -c small.json > small.json.gz");
	slurp("small.json.gz", &gz);
	for (form = 0; form < 2; form++)
		for (it = 0; it < 400; it++) {
			const buf_t *src = form ? &gz : &plain;
			trace_reader *r;
			cJSON *ev;

			buf_reset(&d);
			buf_add(&d, src->buf, src->len);
			for (k = 0; k <= it % 4; k++) {
				size_t pos;

				rng = rng * 1103515245u + 12345u;
				pos = (rng >> 4) % d.len;
				if (rng >> 30 == 0)
					d.buf[pos] ^= (char)(1 + (rng >> 20) % 255);
				else if (rng >> 30 == 1)
					d.buf[pos] = ins[(rng >> 20) % (sizeof ins - 1)];
				else if (rng >> 30 == 2 && pos > 0)
					d.len = pos;
				else
					d.buf[pos] = (char)(rng >> 20);
			}
			write_file("damaged.json", d.buf, d.len);
			r = trace_open(p);
			while (r && (rc = trace_next(r, &ev)) == 1)
				cJSON_Delete(ev);
			if (!r || (rc == -1 && !has(p)) || (rc != 0 && rc != -1))
				bad++;
			errors += r && rc == -1;
			trace_close(r);
		}
	ok(bad == 0, "800 damaged traces (%d refused): each ends in 0 or a message naming the file", errors);
	free(p);
	buf_free(&plain);
	buf_free(&gz);
	buf_free(&d);
}

/* ---------------------------------------------------------------- big and real */

static void test_stream(void)
{
	const char *env = getenv("ECG_TRACE_MB");
	long mb = env ? atol(env) : UNDER_ASAN ? 40 : 200;
	uint64_t want = (uint64_t)mb * 1000 * 1000, written = 0, nev = 0, got = 0;
	char *p, *cmd;
	FILE *f;
	trace_reader *r;
	cJSON *ev;
	struct rusage ru;
	double t0, t1, t2;
	struct stat st;
	int rc = -1, pc;

	if (quick || mb <= 0) {
		ok(1, "a %ld MB gzip trace in bounded memory # SKIP ECG_TEST_QUICK", mb);
		return;
	}
	p = tpath("stream.json.gz");
	cmd = xasprintf("gzip -1 > '%s'", p);
	t0 = now();
	f = popen(cmd, "w");
	free(cmd);
	if (!f) {
		ok(0, "popen gzip");
		free(p);
		return;
	}
	written += (uint64_t)fprintf(f, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	while (written < want) {
		written += (uint64_t)fprintf(f, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
			"\"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int) %llu\", "
			"\"pid\": 0, \"tid\": 7, \"ts\": %llu, \"dur\": 12, \"args\": {\"External id\": %llu, "
			"\"correlation\": %llu, \"stream\": 7, \"grid\": [1024, 1, 1], \"block\": [128, 1, 1]}}",
			nev ? ",\n" : "", (unsigned long long)nev % 1000, (unsigned long long)(1700000000000000ull + nev * 13),
			(unsigned long long)nev, (unsigned long long)nev + 5);
		nev++;
	}
	written += (uint64_t)fprintf(f, "\n], \"traceName\": \"stream\"}\n");
	pc = pclose(f);
	t1 = now();
	ok(pc == 0, "wrote %.0f MB of trace text through gzip -1 in %.1f s", written / 1e6, t1 - t0);

	r = trace_open(p);
	while (r && (rc = trace_next(r, &ev)) == 1) {
		got++;
		cJSON_Delete(ev);
	}
	t2 = now();
	getrusage(RUSAGE_SELF, &ru);
	ok(r && rc == 0 && got == nev && trace_bytes_text(r) == written,
	   "streamed %llu events, %.0f MB of text in %.2f s (%.0f MB/s of text, %.1f MB/s of gzip)",
	   (unsigned long long)got, written / 1e6, t2 - t1, written / 1e6 / (t2 - t1),
	   (r ? trace_bytes_in(r) : 0) / 1e6 / (t2 - t1));
	if (!(r && rc == 0))
		diag("%s", err_last());
	if (UNDER_ASAN)
		ok(1, "peak RSS %.1f MB # SKIP ASan's shadow and quarantine inflate RSS", ru.ru_maxrss / 1024.0);
	else
		ok(ru.ru_maxrss < 100 * 1024, "peak RSS %.1f MB (< 100) while reading %.0f MB (gzip file %.0f MB)",
		   ru.ru_maxrss / 1024.0, written / 1e6, stat(p, &st) == 0 ? st.st_size / 1e6 : 0.0);
	trace_close(r);
	unlink(p);
	free(p);
}

static void test_real(void)
{
	static const struct {
		const char *file;
		uint64_t events;  /* len(json.load(f)["traceEvents"]), Python 3 */
	} real[] = {
		{ "hta-alexnet-1gpu.json.gz", 1408 },
		{ "hta-event-sync-multistream.json.gz", 149 },
		{ "hta-nccl-ddp.json.gz", 40573 },
		{ "hta-backward-thread.json", 7 },
	};
	const char *dir = getenv("ECG_TRACES_DIR");
	char *d = xstrdup(dir ? dir : ECG_SRCDIR "/../shared/traces"), *p;
	struct stat st;
	trace_reader *r;
	cJSON *ev;
	uint64_t n;
	size_t i;
	int rc = -1;

	if (stat(d, &st) != 0) {
		ok(1, "the real traces # SKIP %s is absent", d);
		free(d);
		return;
	}
	for (i = 0; i < sizeof real / sizeof *real; i++) {
		p = xasprintf("%s/%s", d, real[i].file);
		r = trace_open(p);
		n = 0;
		while (r && (rc = trace_next(r, &ev)) == 1) {
			n += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ev, "ph"));
			cJSON_Delete(ev);
		}
		ok(r && rc == 0 && trace_events(r) == real[i].events && n == real[i].events &&
		   cJSON_GetObjectItemCaseSensitive(trace_meta(r), "distributedInfo"),
		   "%s: %llu events as Python counts, each with a ph, and distributedInfo", real[i].file,
		   (unsigned long long)(r ? trace_events(r) : 0));
		if (!r || rc)
			diag("%s", err_last());
		trace_close(r);
		free(p);
	}
	free(d);
}

/* Our own Kineto-shaped GPU traces (tests/traces/gpu/kineto_like.py), for
 * everyone: the real ones above are not shipped.  The generator's MANIFEST
 * gives each file's number of events. */
static void test_generated(void)
{
	char *d = xasprintf("%s/kineto", tmpdir), *m, *p;
	char name[256];
	unsigned long long want;
	trace_reader *r;
	cJSON *ev;
	uint64_t n;
	FILE *f;
	int rc = -1, files = 0;

	if (sh("python3 '%s/tests/traces/gpu/kineto_like.py' '%s'", ECG_SRCDIR, d) != 0) {
		ok(0, "kineto_like.py wrote the generated traces");
		free(d);
		return;
	}
	m = xasprintf("%s/MANIFEST", d);
	f = fopen(m, "r");
	while (f && fscanf(f, "%255s %llu", name, &want) == 2) {
		p = xasprintf("%s/%s", d, name);
		r = trace_open(p);
		n = 0;
		while (r && (rc = trace_next(r, &ev)) == 1) {
			n += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ev, "ph"));
			cJSON_Delete(ev);
		}
		ok(r && rc == 0 && trace_events(r) == want && n == want &&
		   cJSON_GetObjectItemCaseSensitive(trace_meta(r), "distributedInfo"),
		   "generated %s: %llu events as the generator wrote, each with a ph, and distributedInfo",
		   name, (unsigned long long)(r ? trace_events(r) : 0));
		if (!r || rc)
			diag("%s", err_last());
		trace_close(r);
		free(p);
		files++;
	}
	ok(files == 4, "the generator's manifest lists 4 traces (%d)", files);
	if (f)
		fclose(f);
	free(m);
	free(d);
}

int main(void)
{
	quick = getenv("ECG_TEST_QUICK") && *getenv("ECG_TEST_QUICK");
	emit_init();
	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return done();
	}
	test_stream();  /* first: ru_maxrss is the peak of the whole process */
	test_gzip();
	test_forms();
	test_errors();
	test_damaged();
	test_real();
	test_generated();
	sh("rm -rf '%s'", tmpdir);
	return done();
}
