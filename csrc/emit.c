/* emit.c - see include/ecg/emit.h
 *
 * The printer writes exactly what Python's json.dumps(obj, indent=2,
 * ensure_ascii=False) writes for the same tree, so that any reader can
 * re-serialise a record and compare bytes.  Strings are emitted as UTF-8;
 * a byte sequence that is not valid UTF-8 (a path from a repository, say)
 * is replaced by U+FFFD so that the file stays valid JSON.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/util.h"

static void emit_string(buf_t *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t len = strlen((const char *)s), i = 0, n;

	buf_addch(b, '"');
	while (i < len) {
		unsigned c = s[i];

		switch (c) {
		case '"': buf_addstr(b, "\\\""); i++; continue;
		case '\\': buf_addstr(b, "\\\\"); i++; continue;
		case '\n': buf_addstr(b, "\\n"); i++; continue;
		case '\r': buf_addstr(b, "\\r"); i++; continue;
		case '\t': buf_addstr(b, "\\t"); i++; continue;
		case '\b': buf_addstr(b, "\\b"); i++; continue;
		case '\f': buf_addstr(b, "\\f"); i++; continue;
		default: break;
		}
		if (c < 0x20) {
			buf_addf(b, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (n == 0) {
			buf_addstr(b, "\xef\xbf\xbd");   /* U+FFFD */
			i++;
			continue;
		}
		buf_add(b, s + i, n);
		i += n;
	}
	buf_addch(b, '"');
}

/* Python's repr() of a float: the shortest digits that read back as the
 * same double, positional for exponents -4..15, else d.ddde+XX. */
static void emit_float_repr(buf_t *b, double d)
{
	char tmp[64], digits[32];
	int prec, exp, nd = 0, i;
	char *p;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	p = tmp;
	if (*p == '-') {
		buf_addch(b, '-');
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	exp = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (exp >= -4 && exp < 16) {
		if (exp < 0) {
			buf_addstr(b, "0.");
			for (i = 0; i < -exp - 1; i++)
				buf_addch(b, '0');
			buf_add(b, digits, (size_t)nd);
		} else {
			for (i = 0; i <= exp; i++)
				buf_addch(b, i < nd ? digits[i] : '0');
			buf_addch(b, '.');
			if (nd > exp + 1)
				buf_add(b, digits + exp + 1, (size_t)(nd - exp - 1));
			else
				buf_addch(b, '0');
		}
	} else {
		buf_addch(b, digits[0]);
		if (nd > 1) {
			buf_addch(b, '.');
			buf_add(b, digits + 1, (size_t)(nd - 1));
		}
		buf_addf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	}
}

static void emit_number(buf_t *b, double d)
{
	if (!isfinite(d)) {
		buf_addstr(b, "null");
		return;
	}
	if (d == floor(d) && fabs(d) < 9007199254740992.0) {   /* 2^53: exact integers */
		buf_addf(b, "%lld", (long long)d);
		return;
	}
	emit_float_repr(b, d);
}

static void emit_indent(buf_t *b, int depth)
{
	int i;

	buf_addch(b, '\n');
	for (i = 0; i < depth; i++)
		buf_addstr(b, "  ");
}

static void emit_value(buf_t *b, const cJSON *v, int depth)
{
	const cJSON *c;
	int first = 1;

	if (cJSON_IsNull(v) || cJSON_IsInvalid(v)) {
		buf_addstr(b, "null");
	} else if (cJSON_IsFalse(v)) {
		buf_addstr(b, "false");
	} else if (cJSON_IsTrue(v)) {
		buf_addstr(b, "true");
	} else if (cJSON_IsNumber(v)) {
		emit_number(b, v->valuedouble);
	} else if (cJSON_IsString(v)) {
		emit_string(b, v->valuestring);
	} else if (cJSON_IsRaw(v)) {
		buf_addstr(b, v->valuestring ? v->valuestring : "null");
	} else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		int obj = cJSON_IsObject(v);

		if (!v->child) {
			buf_addstr(b, obj ? "{}" : "[]");
			return;
		}
		buf_addch(b, obj ? '{' : '[');
		for (c = v->child; c; c = c->next) {
			if (!first)
				buf_addch(b, ',');
			first = 0;
			emit_indent(b, depth + 1);
			if (obj) {
				emit_string(b, c->string);
				buf_addstr(b, ": ");
			}
			emit_value(b, c, depth + 1);
		}
		emit_indent(b, depth);
		buf_addch(b, obj ? '}' : ']');
	} else {
		buf_addstr(b, "null");
	}
}

static void *emit_malloc(size_t n)
{
	return xmalloc(n);
}

void emit_init(void)
{
	cJSON_Hooks hooks = { emit_malloc, free };

	cJSON_InitHooks(&hooks);
}

char *emit_render(const cJSON *doc)
{
	buf_t b;

	buf_init(&b);
	emit_value(&b, doc, 0);
	buf_addch(&b, '\n');
	return buf_detach(&b);
}

int emit_mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;
	struct stat st;
	int rc = -1;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == 0) {
			char save = *s;

			*s = 0;
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				err_set(ECG_EXIT_OUTPUT, "cannot create directory '%s': %s", p, strerror(errno));
				goto cleanup;
			}
			*s = save;
			if (!save)
				break;
		}
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		err_set(ECG_EXIT_OUTPUT, "'%s' is not a directory", dir);
		goto cleanup;
	}
	rc = 0;
cleanup:
	free(p);
	return rc;
}

/* One temporary file in dir, written and fsync()ed, mode 0666 & ~umask.
 * *tmp_out (owned) is its path.  0, or -1 with err_set(ECG_EXIT_OUTPUT)
 * and no file left. */
static int emit_write_temp(const char *dir, const char *name, const char *data, size_t len, char **tmp_out)
{
	char *tmp = xasprintf("%s/.%s.XXXXXX", dir, name);
	char *dst = xasprintf("%s/%s", dir, name);
	int fd, rc = -1;
	size_t off = 0;
	mode_t mask;

	*tmp_out = NULL;
	fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot create a file in '%s': %s", dir, strerror(errno));
		free(tmp);
		free(dst);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot set the mode of '%s': %s", tmp, strerror(errno));
		goto cleanup;
	}
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err_set(ECG_EXIT_OUTPUT, "cannot write '%s': %s", dst,
			        w < 0 ? strerror(errno) : "no progress");
			goto cleanup;
		}
		off += (size_t)w;
	}
	if (fsync(fd) < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot flush '%s': %s", dst, strerror(errno));
		goto cleanup;
	}
	rc = close(fd);
	fd = -1;
	if (rc < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot close '%s': %s", dst, strerror(errno));
		goto cleanup;
	}
	*tmp_out = tmp;
	tmp = NULL;
cleanup:
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	free(dst);
	return rc;
}

int emit_write_set(const char *dir, size_t n, const char *const *names, const char *const *data,
                   const size_t *lens)
{
	char **tmp = xcalloc(n + 1, sizeof *tmp);
	size_t i;
	int dfd, rc = -1;

	/* every temporary complete before the first rename */
	for (i = 0; i < n; i++)
		if (emit_write_temp(dir, names[i], data[i], lens[i], &tmp[i]) < 0)
			goto cleanup;
	for (i = 0; i < n; i++) {
		char *dst = xasprintf("%s/%s", dir, names[i]);

		if (rename(tmp[i], dst) < 0) {
			err_set(ECG_EXIT_OUTPUT, "cannot rename '%s' to '%s': %s", tmp[i], dst, strerror(errno));
			free(dst);
			goto cleanup;
		}
		free(dst);
		free(tmp[i]);
		tmp[i] = NULL;
	}
	/* Make the renames durable; a failure here loses nothing. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	rc = 0;
cleanup:
	for (i = 0; i < n; i++) {
		if (tmp[i])
			unlink(tmp[i]);
		free(tmp[i]);
	}
	free(tmp);
	return rc;
}

int emit_write_atomic(const char *dir, const char *name, const char *data, size_t len)
{
	return emit_write_set(dir, 1, &name, &data, &len);
}

int emit_lock(const char *dir, int exclusive)
{
	char *path = xasprintf("%s/%s", dir, EMIT_LOCK_FILE);
	int fd, r;
	mode_t mask;

	/* never through a symbolic link: a committed one could point anywhere */
	if (exclusive) {
		mask = umask(0);
		umask(mask);
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666 & ~mask);
	} else {
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 && (errno == ENOENT || errno == EACCES)) {
			free(path);
			return EMIT_NO_LOCK;   /* records of an older ecg, or a read-only place */
		}
	}
	if (fd < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot open the lock file '%s': %s", path,
		        errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		free(path);
		return -1;
	}
	{
		struct stat st;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			err_set(ECG_EXIT_OUTPUT, "the lock file '%s' is not a regular file", path);
			close(fd);
			free(path);
			return -1;
		}
	}
	while ((r = flock(fd, exclusive ? LOCK_EX : LOCK_SH)) < 0 && errno == EINTR)
		;
	if (r < 0) {
		err_set(ECG_EXIT_OUTPUT, "cannot lock '%s': %s", path, strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

void emit_unlock(int fd)
{
	if (fd >= 0)
		close(fd);   /* releases the flock */
}

void emit_clean_temps(const char *dir, size_t n, const char *const *names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t i;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		for (i = 0; i < n; i++) {
			size_t nl = strlen(names[i]);

			/* ".NAME.XXXXXX", as emit_write_temp() names them */
			if (e->d_name[0] == '.' && !strncmp(e->d_name + 1, names[i], nl) && e->d_name[nl + 1] == '.' &&
			    strlen(e->d_name + nl + 2) == 6) {
				char *p = xasprintf("%s/%s", dir, e->d_name);
				struct stat st;

				if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
					(void)unlink(p);
				free(p);
			}
		}
	}
	closedir(d);
}
