/* test_emit.c - the JSON printer and the atomic writer.
 *
 * Linked with -Wl,--wrap=write -Wl,--wrap=fsync: emit.c's write() and
 * fsync() go through the wrappers below, which fail on demand.  That is how
 * a full disk or an I/O error is injected into the real writer. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/util.h"
#include "tap.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
int __real_fsync(int fd);
int __wrap_fsync(int fd);

static int fail_write_after = -1;  /* bytes to let through, -1: never fail */
static int fail_fsync;

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (fail_write_after >= 0 && fd > 2) {
		if (fail_write_after == 0) {
			errno = ENOSPC;
			return -1;
		}
		if (n > (size_t)fail_write_after)
			n = (size_t)fail_write_after;
		fail_write_after -= (int)n;
	}
	return __real_write(fd, buf, n);
}

int __wrap_fsync(int fd)
{
	if (fail_fsync) {
		errno = EIO;
		return -1;
	}
	return __real_fsync(fd);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	buf_t b;
	char tmp[4096];
	size_t n;

	if (!f)
		return NULL;
	buf_init(&b);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	return buf_detach(&b);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_render(void)
{
	cJSON *doc = cJSON_CreateObject(), *arr, *o;
	char *s;
	const char *want =
		"{\n"
		"  \"schema\": \"x/1\",\n"
		"  \"n\": 12,\n"
		"  \"neg\": -3,\n"
		"  \"f\": 0.1,\n"
		"  \"big\": 1e+300,\n"
		"  \"nan\": null,\n"
		"  \"t\": true,\n"
		"  \"z\": null,\n"
		"  \"empty\": [],\n"
		"  \"eobj\": {},\n"
		"  \"s\": \"q\\\"b\\\\n\\n\\t\\u0001\xc3\xa9\",\n"
		"  \"bad\": \"a\xef\xbf\xbd" "b\",\n"
		"  \"list\": [\n"
		"    1,\n"
		"    {\n"
		"      \"k\": \"v\"\n"
		"    }\n"
		"  ]\n"
		"}\n";

	cJSON_AddStringToObject(doc, "schema", "x/1");
	cJSON_AddNumberToObject(doc, "n", 12);
	cJSON_AddNumberToObject(doc, "neg", -3);
	cJSON_AddNumberToObject(doc, "f", 0.1);
	cJSON_AddNumberToObject(doc, "big", 1e300);
	cJSON_AddNumberToObject(doc, "nan", 0.0 / 0.0);
	cJSON_AddTrueToObject(doc, "t");
	cJSON_AddNullToObject(doc, "z");
	cJSON_AddArrayToObject(doc, "empty");
	cJSON_AddObjectToObject(doc, "eobj");
	cJSON_AddStringToObject(doc, "s", "q\"b\\n\n\t\x01\xc3\xa9");
	cJSON_AddStringToObject(doc, "bad", "a\xff" "b");
	arr = cJSON_AddArrayToObject(doc, "list");
	cJSON_AddItemToArray(arr, cJSON_CreateNumber(1));
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "k", "v");
	cJSON_AddItemToArray(arr, o);
	s = emit_render(doc);
	ok(!strcmp(s, want), "render: 2-space indent, key order kept, json.dumps number and string forms");
	if (strcmp(s, want))
		diag("got:\n%s", s);
	free(s);
	cJSON_Delete(doc);
}

static void test_atomic(void)
{
	char tmpl[] = "/tmp/ecg-emit-XXXXXX";
	char *dir = mkdtemp(tmpl), *path, *got, *sub;
	const char *v1 = "{\"v\": 1}\n", *v2 = "{\"v\": 2, \"long\": \"0123456789\"}\n";
	struct stat st;

	ok(dir != NULL, "temporary directory");
	if (!dir)
		return;
	path = xasprintf("%s/rec.json", dir);

	ok(emit_write_atomic(dir, "rec.json", v1, strlen(v1)) == 0, "first write");
	got = slurp(path);
	ok(got && !strcmp(got, v1), "first write has the bytes");
	free(got);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) != 0600, "mode follows the umask, not mkstemp's 0600");

	fail_write_after = 5;   /* a short write, then ENOSPC */
	ok(emit_write_atomic(dir, "rec.json", v2, strlen(v2)) == -1, "a failing write is reported");
	fail_write_after = -1;
	ok(err_code() == ECG_EXIT_OUTPUT && strstr(err_last(), "No space left"),
	   "with the cause: %s", err_last());
	got = slurp(path);
	ok(got && !strcmp(got, v1), "the earlier record is intact after a failed write");
	free(got);
	ok(count_entries(dir) == 1, "no temporary file is left behind");

	fail_fsync = 1;
	ok(emit_write_atomic(dir, "rec.json", v2, strlen(v2)) == -1, "a failing fsync is reported");
	fail_fsync = 0;
	got = slurp(path);
	ok(got && !strcmp(got, v1), "the earlier record is intact after a failed fsync");
	free(got);
	ok(count_entries(dir) == 1, "still no temporary file");

	ok(emit_write_atomic(dir, "rec.json", v2, strlen(v2)) == 0, "second write");
	got = slurp(path);
	ok(got && !strcmp(got, v2), "second write replaced the record");
	free(got);

	sub = xasprintf("%s/a/b/c", dir);
	ok(emit_mkdirs(sub) == 0 && stat(sub, &st) == 0 && S_ISDIR(st.st_mode), "mkdirs makes parents");
	ok(emit_mkdirs(sub) == 0, "mkdirs on an existing directory");
	ok(emit_mkdirs(path) == -1 && err_code() == ECG_EXIT_OUTPUT, "mkdirs on a file fails: %s", err_last());
	ok(emit_write_atomic("/nonexistent-ecg-dir", "rec.json", v1, strlen(v1)) == -1 &&
	   strstr(err_last(), "/nonexistent-ecg-dir"), "an impossible directory is named: %s", err_last());

	/* clean up */
	rmdir(sub);
	free(sub);
	sub = xasprintf("%s/a/b", dir);
	rmdir(sub);
	free(sub);
	sub = xasprintf("%s/a", dir);
	rmdir(sub);
	free(sub);
	unlink(path);
	free(path);
	rmdir(dir);
}

static void test_float_repr(void)
{
	/* what Python's repr() prints for each */
	static const struct { double d; const char *want; } cases[] = {
		{ 0.1, "0.1" }, { -2.5, "-2.5" }, { 1e-05, "1e-05" }, { 0.0001, "0.0001" },
		{ 9007199254740992.0, "9007199254740992.0" }, { 1e16, "1e+16" },
		{ 1.5e16, "1.5e+16" }, { 123456789012345680000.0, "1.2345678901234568e+20" },
		{ 1e300, "1e+300" }, { 5e-324, "5e-324" }, { 0.30000000000000004, "0.30000000000000004" },
		{ 123.456, "123.456" }, { 1e22, "1e+22" }, { 2.5e-7, "2.5e-07" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cJSON *n = cJSON_CreateNumber(cases[i].d);
		char *s = emit_render(n);

		s[strlen(s) - 1] = 0;
		ok(!strcmp(s, cases[i].want), "number %s prints as Python's repr (%s)", cases[i].want, s);
		free(s);
		cJSON_Delete(n);
	}
}

int main(void)
{
	emit_init();
	test_float_repr();
	test_render();
	test_atomic();
	return done();
}
