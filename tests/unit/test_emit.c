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
#include <fcntl.h>
#include <sys/file.h>
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

/* The pair: a failure on the second file's write or flush leaves both
 * earlier files as they were (the first is not renamed before the second
 * temporary is complete), and no temporary behind. */
static void test_pair(void)
{
	char tmpl[] = "/tmp/ecg-pair-XXXXXX";
	char *dir = mkdtemp(tmpl), *pa, *pb, *ga, *gb;
	static const char *const names[2] = { "a.json", "b.json" };
	const char *old[2] = { "{\"a\": 1}\n", "{\"b\": 1}\n" };
	const char *neu[2] = { "{\"a\": 2, \"pad\": \"xxxxxxxx\"}\n", "{\"b\": 2, \"pad\": \"yyyyyyyy\"}\n" };
	size_t olen[2], nlen[2];
	int lk, lk2;

	ok(dir != NULL, "pair: temporary directory");
	if (!dir)
		return;
	olen[0] = strlen(old[0]);
	olen[1] = strlen(old[1]);
	nlen[0] = strlen(neu[0]);
	nlen[1] = strlen(neu[1]);
	pa = xasprintf("%s/a.json", dir);
	pb = xasprintf("%s/b.json", dir);
	ok(emit_write_set(dir, 2, names, old, olen) == 0, "pair: first write");

	/* the first file whole, the second cut short by ENOSPC */
	fail_write_after = (int)nlen[0] + 3;
	ok(emit_write_set(dir, 2, names, neu, nlen) == -1, "pair: ENOSPC on the second file is reported");
	fail_write_after = -1;
	ok(err_code() == ECG_EXIT_OUTPUT && strstr(err_last(), "b.json") && strstr(err_last(), "No space left"),
	   "pair: naming the second file: %s", err_last());
	ga = slurp(pa);
	gb = slurp(pb);
	ok(ga && gb && !strcmp(ga, old[0]) && !strcmp(gb, old[1]), "pair: both earlier files intact after ENOSPC on the second");
	free(ga);
	free(gb);
	ok(count_entries(dir) == 2, "pair: no temporary left behind");

	/* a later write succeeds and replaces both */
	ok(emit_write_set(dir, 2, names, neu, nlen) == 0, "pair: second write");
	ga = slurp(pa);
	gb = slurp(pb);
	ok(ga && gb && !strcmp(ga, neu[0]) && !strcmp(gb, neu[1]), "pair: both replaced");
	free(ga);
	free(gb);

	/* the lock: exclusive is exclusive (a second open file description
	 * cannot take it without waiting); stale temporaries are removed */
	lk = emit_lock(dir, 1);
	ok(lk >= 0, "lock: taken");
	{
		char *lp = xasprintf("%s/%s", dir, EMIT_LOCK_FILE);
		int fd = open(lp, O_RDONLY);

		ok(fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK, "lock: held exclusively");
		if (fd >= 0)
			close(fd);
		emit_unlock(lk);
		lk2 = emit_lock(dir, 0);
		ok(lk2 >= 0, "lock: a reader's shared lock after the writer let go");
		emit_unlock(lk2);
		unlink(lp);
		ok(emit_lock(dir, 0) == EMIT_NO_LOCK, "lock: a reader without a lock file reads unlocked");
		free(lp);
	}
	{
		char *t1 = xasprintf("%s/.a.json.Xy12ab", dir), *t2 = xasprintf("%s/.c.json.Xy12ab", dir);
		FILE *f1 = fopen(t1, "w"), *f2 = fopen(t2, "w");

		if (f1)
			fclose(f1);
		if (f2)
			fclose(f2);
		emit_clean_temps(dir, 2, names);
		ok(access(t1, F_OK) < 0 && access(t2, F_OK) == 0, "clean: our temporaries only");
		unlink(t2);
		free(t1);
		free(t2);
	}
	unlink(pa);
	unlink(pb);
	free(pa);
	free(pb);
	rmdir(dir);
}

int main(void)
{
	emit_init();
	test_float_repr();
	test_render();
	test_atomic();
	test_pair();
	return done();
}
