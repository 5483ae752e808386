/* test_repo.c - repo.c against fixture repositories built with the git CLI.
 *
 * The fixtures live in a mkdtemp() directory under $TMPDIR, else under /tmp
 * (never inside the checkout), and are removed at the end.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecg/err.h"
#include "ecg/repo.h"
#include "ecg/util.h"
#include "tap.h"

static char base[PATH_MAX];

/* Run a shell command (formatted); returns its exit status. */
static __attribute__((format(printf, 1, 2))) int sh(const char *fmt, ...)
{
	va_list ap;
	buf_t b;
	int rc;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	rc = system(b.buf);
	if (rc != 0)
		diag("command failed (%d): %s", rc, b.buf);
	buf_free(&b);
	return rc;
}

/* Run a shell command and return its first output line (owned), "" on
 * failure. */
static __attribute__((format(printf, 1, 2))) char *sh_out(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	buf_t b;
	FILE *p;
	size_t n;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	line[0] = 0;
	p = popen(b.buf, "r");
	if (p) {
		if (!fgets(line, sizeof line, p))
			line[0] = 0;
		pclose(p);
	}
	buf_free(&b);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	return xstrdup(line);
}

static void write_file(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", base, rel);
	FILE *f = fopen(path, "wb");

	if (!f) {
		diag("cannot write %s: %s", path, strerror(errno));
		exit(99);
	}
	fputs(text, f);
	fclose(f);
	free(path);
}

static const repo_file_t *find(const repo_file_t *files, size_t n,
                               const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	return NULL;
}

static int sorted(const repo_file_t *files, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(files[i - 1].path, files[i].path) >= 0)
			return 0;
	return 1;
}

static int has(const char *msg, const char *needle)
{
	return strstr(msg, needle) != NULL;
}

static void make_base(void)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl, *p;

	/* Not under the build directory: a build inside a checkout (as CI's)
	 * would put the fixtures inside a git repository, and the "outside any
	 * repository" case could not be tested. */
	tmpl = xasprintf("%s/ecg-test-repo-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(tmpl) || !(p = realpath(tmpl, NULL))) {
		printf("Bail out! cannot make a temporary directory from %s: %s\n",
		       tmpl, strerror(errno));
		exit(99);
	}
	snprintf(base, sizeof base, "%s", p);
	free(p);
	free(tmpl);
}

static void fixed_env(void)
{
	setenv("GIT_AUTHOR_NAME", "ecg test", 1);
	setenv("GIT_AUTHOR_EMAIL", "ecg@example.invalid", 1);
	setenv("GIT_COMMITTER_NAME", "ecg test", 1);
	setenv("GIT_COMMITTER_EMAIL", "ecg@example.invalid", 1);
	setenv("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z", 1);
	setenv("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z", 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("HOME", base, 1);   /* libgit2 reads $HOME/.gitconfig */
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
}

/* w: a work tree with three commits; bare.git and clone are clones of it;
 * empty has no commit; plain is no repository at all. */
static int build_fixtures(void)
{
	char big[3001];

	memset(big, '#', sizeof big - 1);
	big[sizeof big - 1] = 0;
	big[sizeof big - 2] = '\n';
	if (sh("cd '%s' && git init -q -b main w && mkdir -p w/sub/deep plain &&"
	       " git init -q -b main empty", base))
		return -1;
	write_file("w/a.py", "print('a')\n");
	write_file("plain/job.py", "print('job')\n");
	if (sh("cd '%s/w' && git add a.py && git commit -q -m one &&"
	       " git tag -a -m v1 v1 && git branch feature", base))
		return -1;
	write_file("w/sub/b.py", "import os\n");
	write_file("w/sub/deep/c.py", "x = 1\n");
	write_file("w/README.md", "hello\n");
	write_file("w/run.sh", "#!/bin/sh\necho hi\n");
	write_file("w/big.py", big);
	write_file("w/.gitignore", "ignored.py\n");
	if (sh("cd '%s/w' && chmod +x run.sh && ln -s a.py link.py &&"
	       " git add . && git commit -q -m two", base))
		return -1;
	if (sh("cd '%s/w' && git update-index --add --cacheinfo"
	       " 160000,$(git rev-parse HEAD~1),vendor/lib &&"
	       " git commit -q -m three && mkdir -p vendor/lib", base))
		return -1;
	if (sh("cd '%s' && git clone -q --bare w bare.git && git clone -q w clone &&"
	       " git clone -q w orphan && cd orphan && git checkout -q --orphan new",
	       base))
		return -1;
	return 0;
}

static void test_open(void)
{
	repo_t *r = NULL;
	char *p, *want;

	p = xasprintf("%s/w", base);
	ok(repo_open(p, &r) == 0, "open a work tree root");
	if (r) {
		want = xasprintf("%s/w/", base);
		ok(!repo_is_bare(r), "work tree is not bare");
		ok(repo_workdir(r) && strcmp(repo_workdir(r), want) == 0,
		   "workdir is '%s' (got '%s')", want,
		   repo_workdir(r) ? repo_workdir(r) : "(null)");
		ok(strcmp(repo_prefix(r), "") == 0, "prefix at the root is ''");
		free(want);
	}
	repo_free(r);
	free(p);

	r = NULL;
	p = xasprintf("%s/w/sub", base);
	ok(repo_open(p, &r) == 0, "open a subdirectory");
	ok(r && strcmp(repo_prefix(r), "sub/") == 0, "prefix is 'sub/' (got '%s')",
	   r ? repo_prefix(r) : "");
	repo_free(r);
	free(p);

	r = NULL;
	p = xasprintf("%s/w/sub/deep/", base);
	ok(repo_open(p, &r) == 0, "open a nested subdirectory");
	ok(r && strcmp(repo_prefix(r), "sub/deep/") == 0,
	   "prefix is 'sub/deep/' (got '%s')", r ? repo_prefix(r) : "");
	repo_free(r);
	free(p);

	r = NULL;
	p = xasprintf("%s/w/sub/b.py", base);
	repo_open(p, &r);
	ok(r && strcmp(repo_prefix(r), "sub/") == 0,
	   "open a file: the prefix of its directory (got '%s')",
	   r ? repo_prefix(r) : "");
	repo_free(r);
	free(p);

	r = NULL;
	p = xasprintf("%s/w/.git", base);
	repo_open(p, &r);
	ok(r && strcmp(repo_prefix(r), "") == 0,
	   "open the .git directory: prefix '' (got '%s')", r ? repo_prefix(r) : "");
	repo_free(r);
	free(p);

	r = NULL;
	p = xasprintf("%s/bare.git", base);
	ok(repo_open(p, &r) == 0, "open a bare repository");
	ok(r && repo_is_bare(r) && repo_workdir(r) == NULL &&
	   strcmp(repo_prefix(r), "") == 0,
	   "bare: is_bare, no workdir, prefix ''");
	repo_free(r);
	free(p);

	r = (repo_t *)1;
	p = xasprintf("%s/plain", base);
	want = sh_out("cd '%s' && git rev-parse --git-dir 2>/dev/null", p);
	if (want[0]) {
		ok(1, "# SKIP %s is inside a git repository", base);
		ok(1, "# SKIP");
	} else {
		char sha[41] = "x";

		ok(repo_open(p, &r) == 0 && r && repo_is_plain(r) && !repo_is_bare(r) &&
		   strcmp(repo_prefix(r), "") == 0 && repo_resolve(r, "HEAD", sha) == 0 && sha[0] == 0,
		   "a directory outside any repository opens as a plain work tree with no commit");
		ok(r && repo_resolve(r, "main", sha) == -1 && has(err_last(), "not a git repository") &&
		   err_code() == ECG_EXIT_INPUT,
		   "  it has no other revision: %s", err_last());
		repo_free(r);
	}
	free(want);
	free(p);

	r = (repo_t *)1;
	p = xasprintf("%s/does-not-exist", base);
	ok(repo_open(p, &r) == -1 && r == NULL && has(err_last(), p),
	   "a missing path fails: %s", err_last());
	free(p);
}

static void test_resolve(void)
{
	repo_t *r = NULL, *e = NULL;
	char sha[41], shortsha[8];
	char *p, *want;

	p = xasprintf("%s/w", base);
	if (repo_open(p, &r) < 0) {
		ok(0, "open for resolve: %s", err_last());
		free(p);
		return;
	}
	want = sh_out("cd '%s' && git rev-parse HEAD", p);
	ok(repo_resolve(r, "HEAD", sha) == 0 && strcmp(sha, want) == 0,
	   "HEAD resolves to %s (got %s)", want, sha);
	memcpy(shortsha, want, 7);
	shortsha[7] = 0;
	ok(repo_resolve(r, shortsha, sha) == 0 && strcmp(sha, want) == 0,
	   "a short sha %s resolves", shortsha);
	ok(repo_resolve(r, "main", sha) == 0 && strcmp(sha, want) == 0,
	   "branch main resolves");
	free(want);

	want = sh_out("cd '%s' && git rev-parse HEAD~2", p);
	ok(repo_resolve(r, "HEAD~2", sha) == 0 && strcmp(sha, want) == 0,
	   "HEAD~2 resolves to %s (got %s)", want, sha);
	ok(repo_resolve(r, "feature", sha) == 0 && strcmp(sha, want) == 0,
	   "branch feature resolves");
	ok(repo_resolve(r, "v1", sha) == 0 && strcmp(sha, want) == 0,
	   "annotated tag v1 peels to its commit");
	free(want);

	want = sh_out("cd '%s' && git rev-parse HEAD~1", p);
	ok(repo_resolve(r, "HEAD~1", sha) == 0 && strcmp(sha, want) == 0,
	   "HEAD~1 resolves");
	free(want);

	err_clear();
	ok(repo_resolve(r, "no-such-branch", sha) == -1 &&
	   has(err_last(), "unknown revision") &&
	   has(err_last(), "'no-such-branch'") && err_code() == ECG_EXIT_INPUT,
	   "unknown revision fails: %s", err_last());
	ok(repo_resolve(r, "HEAD:a.py", sha) == -1 &&
	   has(err_last(), "blob, not a commit"),
	   "a blob is not a commit: %s", err_last());
	ok(repo_resolve(r, "HEAD^{tree}", sha) == -1 &&
	   has(err_last(), "tree, not a commit"),
	   "a tree is not a commit: %s", err_last());
	ok(repo_resolve(r, "HEAD~10", sha) == -1 && has(err_last(), "HEAD~10"),
	   "beyond the root fails: %s", err_last());
	free(p);
	repo_free(r);

	p = xasprintf("%s/empty", base);
	ok(repo_open(p, &e) == 0, "open an empty repository");
	if (e) {
		ok(repo_resolve(e, "HEAD", sha) == -1 &&
		   has(err_last(), "no commits") && has(err_last(), p),
		   "empty repository: %s", err_last());
		ok(repo_resolve(e, "main", sha) == -1 &&
		   has(err_last(), "no commits"),
		   "empty repository, named branch: %s", err_last());
	}
	repo_free(e);
	free(p);

	e = NULL;
	p = xasprintf("%s/orphan", base);
	ok(repo_open(p, &e) == 0, "open a repository on an orphan branch");
	if (e) {
		ok(repo_resolve(e, "HEAD", sha) == -1 &&
		   has(err_last(), "HEAD") && has(err_last(), "no commits yet"),
		   "unborn HEAD: %s", err_last());
		ok(repo_resolve(e, "main", sha) == 0, "its other branch resolves");
		ok(repo_resolve(e, "nope", sha) == -1 &&
		   has(err_last(), "unknown revision 'nope'"),
		   "an unknown revision there: %s", err_last());
	}
	repo_free(e);
	free(p);
}

static void check_shas(const char *dir, const repo_file_t *files, size_t n,
                       const char *what)
{
	size_t i;
	int good = 1;

	for (i = 0; i < n; i++) {
		char *want;

		if (files[i].kind == REPO_GITLINK)
			continue;
		want = sh_out("cd '%s' && git rev-parse 'HEAD:%s'", dir, files[i].path);
		if (strcmp(want, files[i].blob) != 0) {
			diag("%s: %s has %s, git says %s", what, files[i].path,
			     files[i].blob, want);
			good = 0;
		}
		free(want);
	}
	ok(good, "%s: blob shas match git rev-parse HEAD:path", what);
}

static void test_list_commit(void)
{
	static const char *want_py[] = {
		"a.py", "big.py", "link.py", "sub/b.py", "sub/deep/c.py"
	};
	repo_file_t *files = NULL;
	const repo_file_t *f;
	repo_t *r = NULL;
	char sha[41];
	char *p, *want, *data = NULL;
	size_t n = 0, i, len = 0;
	int good;

	p = xasprintf("%s/bare.git", base);
	if (repo_open(p, &r) < 0 || repo_resolve(r, "HEAD", sha) < 0) {
		ok(0, "open bare for list: %s", err_last());
		repo_free(r);
		free(p);
		return;
	}
	ok(repo_list(r, sha, 0, ".py", &files, &n) == 0, "list .py files");
	good = n == sizeof want_py / sizeof *want_py;
	for (i = 0; good && i < n; i++)
		good = strcmp(files[i].path, want_py[i]) == 0;
	ok(good, "the .py paths, sorted (%zu)", n);
	for (i = 0; i < n; i++)
		diag("  %s %s %d %zu", files[i].blob, files[i].path, files[i].kind,
		     files[i].size);
	check_shas(p, files, n, "commit .py");
	f = find(files, n, "a.py");
	ok(f && f->kind == REPO_FILE && f->size == REPO_SIZE_UNKNOWN && repo_file_size(r, f) == 11 &&
	   !f->link_target,
	   "a.py is a file of 11 bytes (its size looked up when asked)");
	f = find(files, n, "link.py");
	ok(f && f->kind == REPO_SYMLINK && f->link_target &&
	   strcmp(f->link_target, "a.py") == 0 && f->size == 0 && repo_file_size(r, f) == 0,
	   "link.py is a symlink to a.py");

	f = find(files, n, "a.py");
	if (f) {
		ok(repo_read(r, f, 0, 1024, &data, &len) == 0 && len == 11 &&
		   memcmp(data, "print('a')\n", 12) == 0,
		   "repo_read gives the exact bytes and a NUL");
		free(data);
		data = NULL;
		ok(repo_read(r, f, 0, 11, &data, &len) == 0 && len == 11,
		   "a file exactly at the cap is read");
		free(data);
		data = NULL;
	}
	f = find(files, n, "big.py");
	if (f) {
		ok(repo_read(r, f, 0, 1000, &data, &len) == -1 && data == NULL &&
		   has(err_last(), "big.py") && has(err_last(), "3000 bytes") &&
		   has(err_last(), "limit of 1000"),
		   "a file over the cap is refused: %s", err_last());
	}
	f = find(files, n, "link.py");
	if (f)
		ok(repo_read(r, f, 0, 1000, &data, &len) == -1 && data == NULL &&
		   has(err_last(), "symlink"), "a symlink is not read: %s", err_last());
	repo_files_free(files, n);
	files = NULL;

	ok(repo_list(r, sha, 0, NULL, &files, &n) == 0, "list every file");
	ok(n == 9 && sorted(files, n), "9 entries, sorted (%zu)", n);
	check_shas(p, files, n, "commit all");
	f = find(files, n, "vendor/lib");
	want = sh_out("cd '%s' && git rev-parse HEAD~2", p);
	ok(f && f->kind == REPO_GITLINK && strcmp(f->blob, want) == 0 &&
	   f->size == 0 && !f->link_target,
	   "vendor/lib is a gitlink to %s", want);
	if (f)
		ok(repo_read(r, f, 0, 1000, &data, &len) == -1 &&
		   has(err_last(), "submodule"), "a gitlink is not read: %s",
		   err_last());
	free(want);
	f = find(files, n, "run.sh");
	ok(f && f->kind == REPO_FILE && repo_file_size(r, f) == 18, "run.sh (executable) is a file");
	ok(find(files, n, ".gitignore") != NULL, ".gitignore is listed");
	repo_files_free(files, n);
	files = NULL;

	ok(repo_list(r, "HEAD~2", 0, NULL, &files, &n) == 0 && n == 1 &&
	   strcmp(files[0].path, "a.py") == 0, "an older commit has only a.py");
	repo_files_free(files, n);
	files = NULL;

	ok(repo_list(r, "nope", 0, NULL, &files, &n) == -1 && files == NULL &&
	   n == 0 && has(err_last(), "nope"), "listing an unknown commit fails");
	ok(repo_list(r, NULL, 1, NULL, &files, &n) == -1 &&
	   has(err_last(), "bare"), "a bare repository has no work tree: %s",
	   err_last());
	repo_free(r);
	free(p);
}

static void test_worktree(void)
{
	repo_file_t *files = NULL;
	const repo_file_t *f;
	repo_t *r = NULL;
	char sha[41];
	char *p, *want, *data = NULL;
	size_t n = 0, len = 0, i;
	int dirty = -1;

	p = xasprintf("%s/w", base);
	if (repo_open(p, &r) < 0 || repo_resolve(r, "HEAD", sha) < 0) {
		ok(0, "open w for worktree: %s", err_last());
		repo_free(r);
		free(p);
		return;
	}
	ok(repo_dirty(r, sha, &dirty) == 0 && dirty == 0, "w is clean");
	ok(repo_dirty(r, "HEAD~1", &dirty) == 0 && dirty == 1,
	   "w differs from HEAD~1");

	write_file("w/a.py", "print('changed')\n");
	write_file("w/new.py", "y = 2\n");
	write_file("w/ignored.py", "z = 3\n");
	write_file("w/notes.txt", "n\n");
	sh("cd '%s' && rm sub/deep/c.py && mkdir -p newdir/inner &&"
	   " echo 'q = 4' > newdir/inner/x.py", p);

	ok(repo_list(r, NULL, 1, ".py", &files, &n) == 0, "worktree list");
	for (i = 0; i < n; i++)
		diag("  %s %s %d %zu", files[i].blob, files[i].path, files[i].kind,
		     files[i].size);
	ok(n == 6 && sorted(files, n), "6 .py entries, sorted (%zu)", n);
	f = find(files, n, "a.py");
	want = sh_out("cd '%s' && git hash-object a.py", p);
	ok(f && f->kind == REPO_FILE && strcmp(f->blob, want) == 0 && f->size == 17 && repo_file_size(r, f) == 17,
	   "modified a.py: hash-object sha %s", want);
	free(want);
	f = find(files, n, "new.py");
	want = sh_out("cd '%s' && git hash-object new.py", p);
	ok(f && f->kind == REPO_FILE && strcmp(f->blob, want) == 0 && f->size == 6,
	   "untracked new.py is listed with its sha");
	free(want);
	f = find(files, n, "newdir/inner/x.py");
	want = sh_out("cd '%s' && git hash-object newdir/inner/x.py", p);
	ok(f && strcmp(f->blob, want) == 0, "a file in an untracked directory");
	free(want);
	f = find(files, n, "sub/b.py");
	want = sh_out("cd '%s' && git rev-parse HEAD:sub/b.py", p);
	ok(f && strcmp(f->blob, want) == 0, "unchanged sub/b.py has its blob sha");
	free(want);
	f = find(files, n, "link.py");
	ok(f && f->kind == REPO_SYMLINK && strcmp(f->link_target, "a.py") == 0,
	   "link.py is a symlink on disk");
	ok(!find(files, n, "sub/deep/c.py"), "a deleted file is not listed");
	ok(!find(files, n, "ignored.py"), "an ignored file is not listed");

	f = find(files, n, "a.py");
	if (f) {
		ok(repo_read(r, f, 1, 1000, &data, &len) == 0 && len == 17 &&
		   memcmp(data, "print('changed')\n", 18) == 0,
		   "worktree repo_read gives the bytes on disk");
		free(data);
		data = NULL;
		ok(repo_read(r, f, 1, 5, &data, &len) == -1 && data == NULL &&
		   has(err_last(), "a.py") && has(err_last(), "limit of 5"),
		   "worktree read over the cap: %s", err_last());
	}
	f = find(files, n, "link.py");
	if (f) {
		repo_file_t fake = *f;

		fake.kind = REPO_FILE;   /* as if it had been a file when listed */
		ok(repo_read(r, &fake, 1, 1000, &data, &len) == -1 &&
		   has(err_last(), "symlink"),
		   "worktree read does not follow a symlink: %s", err_last());
	}
	repo_files_free(files, n);
	files = NULL;

	ok(repo_list(r, NULL, 1, NULL, &files, &n) == 0 && sorted(files, n),
	   "worktree list of everything");
	f = find(files, n, "vendor/lib");
	want = sh_out("cd '%s' && git rev-parse HEAD~2", p);
	ok(f && f->kind == REPO_GITLINK && strcmp(f->blob, want) == 0,
	   "the gitlink is listed from the index");
	free(want);
	ok(find(files, n, "notes.txt") && find(files, n, "README.md"),
	   "untracked and tracked non-.py files are listed");
	repo_files_free(files, n);
	files = NULL;

	ok(repo_dirty(r, sha, &dirty) == 0 && dirty == 1, "modified w is dirty");
	sh("rmdir '%s/vendor/lib'", p);
	ok(repo_list(r, NULL, 1, NULL, &files, &n) == 0 &&
	   !find(files, n, "vendor/lib") && find(files, n, "a.py"),
	   "a submodule whose directory is gone is not listed");
	repo_files_free(files, n);
	files = NULL;
	repo_free(r);
	free(p);

	/* The clean clone: clean; then each kind of change makes it dirty. */
	p = xasprintf("%s/clone", base);
	r = NULL;
	if (repo_open(p, &r) < 0) {
		ok(0, "open clone: %s", err_last());
		free(p);
		return;
	}
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 0,
	   "a fresh clone is clean");
	write_file("clone/ignored.py", "ignored\n");
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 0,
	   "an ignored file does not make it dirty");
	write_file("clone/untracked.txt", "u\n");
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 1,
	   "an untracked file makes it dirty");
	sh("rm '%s/untracked.txt'", p);
	sh("mkdir -p '%s/d1/d2' && echo x > '%s/d1/d2/f'", p, p);
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 1,
	   "an untracked nested file makes it dirty");
	sh("rm -r '%s/d1'", p);
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 0, "clean again");
	write_file("clone/sub/b.py", "import sys\n");
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 1,
	   "a modified file makes it dirty");
	sh("cd '%s' && git checkout -q -- sub/b.py && git rm -q --cached run.sh", p);
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 1,
	   "a change staged in the index makes it dirty");
	sh("cd '%s' && git reset -q && rm sub/deep/c.py", p);
	ok(repo_dirty(r, "HEAD", &dirty) == 0 && dirty == 1,
	   "a deleted file makes it dirty");
	ok(repo_dirty(r, "nope", &dirty) == -1 && has(err_last(), "nope"),
	   "dirty against an unknown revision fails");
	repo_free(r);
	free(p);

	p = xasprintf("%s/bare.git", base);
	r = NULL;
	dirty = -1;
	ok(repo_open(p, &r) == 0 && repo_dirty(r, "HEAD", &dirty) == 0 &&
	   dirty == 0, "a bare repository is never dirty");
	repo_free(r);
	free(p);
}

int main(void)
{
	make_base();
	fixed_env();
	diag("fixtures in %s", base);
	if (build_fixtures() < 0) {
		printf("Bail out! cannot build the fixture repositories\n");
		sh("rm -rf '%s'", base);
		return 99;
	}
	test_open();
	test_resolve();
	test_list_commit();
	test_worktree();
	sh("rm -rf '%s'", base);
	return done();
}
