/* repo.c - see include/ecg/repo.h
 *
 * Everything here reads: no checkout, no index write, no hook, filter or
 * attribute driver is ever run.  Work-tree files are read with O_NOFOLLOW
 * and hashed as raw bytes (no clean filter), so a blob sha in --worktree
 * mode is what `git hash-object --no-filters` prints.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <git2.h>

#include "ecg/err.h"
#include "ecg/repo.h"
#include "ecg/util.h"

/* A symlink target longer than this is cut (PATH_MAX on Linux). */
#define REPO_LINK_CAP 4096
/* Work-tree files up to this size are read into memory to be hashed;
 * bigger ones are mapped, so a 1 GB file never lands on the heap. */
#define REPO_HASH_READ_CAP ((size_t)64 << 20)
/* Untracked work-tree files bigger than this are not hashed unless
 * repo_set_hash_cap() says otherwise: nothing reads them. */
#define REPO_DEFAULT_HASH_CAP ((size_t)64 << 20)
/* Work-tree directories deeper than this are not walked (a warning). */
#define REPO_MAX_DEPTH 100

struct repo {
	git_repository *git;
	char *workdir;   /* with a trailing '/', or NULL when bare */
	char *prefix;    /* "" or "sub/dir/" */
	char *name;      /* the repository root, for messages */
	size_t hash_cap; /* untracked files over it are listed unhashed */
	int plain;       /* a directory outside any git repository (git NULL):
	                    read as a work tree with no commit (repo.h) */
};

/* Live repo_t objects: libgit2 is initialised with the first, shut down
 * with the last. */
static int repo_live;

/* The message of the last libgit2 error, or `fallback`. */
static const char *repo_gerr(const char *fallback)
{
	const git_error *e = git_error_last();

	return e && e->message && e->message[0] ? e->message : fallback;
}

/* repo_lib_prestart(): git_libgit2_init() in a thread of its own, while
 * the caller does something else (starts the interpreter): the init
 * costs 6-10 ms where libgit2 is built with mbedTLS (Debian's 1.5: it
 * reads and decodes the system's whole CA bundle, for HTTPS that ecg never
 * does), 1-2 ms elsewhere.  The thread
 * holds one libgit2 reference of its own, given back by repo_lib_settle()
 * once the first repo_open() has taken its own. */
static struct {
	pthread_t thread;
	int running;        /* started, not joined */
	int held;           /* joined, its git_libgit2_init() succeeded */
	int rc;
} repo_pre;

static void *repo_prestart_main(void *arg)
{
	(void)arg;
	repo_pre.rc = git_libgit2_init();
	if (repo_pre.rc < 0)
		git_error_clear();   /* the main thread's own call reports it */
	return NULL;
}

void repo_lib_prestart(void)
{
	if (repo_live > 0 || repo_pre.running || repo_pre.held)
		return;
	if (pthread_create(&repo_pre.thread, NULL, repo_prestart_main, NULL) == 0)
		repo_pre.running = 1;
	/* else: git_libgit2_init() runs in repo_open(), as without this */
}

/* Wait for the thread, if any; its reference is kept in repo_pre.held. */
static void repo_lib_join(void)
{
	if (!repo_pre.running)
		return;
	pthread_join(repo_pre.thread, NULL);
	repo_pre.running = 0;
	repo_pre.held = repo_pre.rc >= 0;
}

/* Give back the thread's reference (after the caller took one, or when
 * it will not). */
static void repo_lib_settle(void)
{
	repo_lib_join();
	if (repo_pre.held) {
		repo_pre.held = 0;
		git_libgit2_shutdown();
	}
}

static int repo_lib_init(void)
{
	if (repo_live++ > 0)
		return 0;
	/* with the thread's init done, this one only counts a reference */
	repo_lib_join();
	if (git_libgit2_init() < 0) {
		repo_live--;
		return err_set(ECG_EXIT_INTERNAL, "cannot initialise libgit2: %s",
		               repo_gerr("unknown error"));
	}
	/* ecg only reads files and never runs anything a repository
	 * configures (hooks, filters, fsmonitor, ...), so the concern behind
	 * git's safe.directory does not apply; and users do run it as root
	 * on repositories owned by others.  Turn the ownership check off. */
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
	return 0;
}

static void repo_lib_release(void)
{
	if (repo_live > 0 && --repo_live == 0)
		git_libgit2_shutdown();
}

/* Copy of `s` without trailing '/' (but "/" stays "/"). */
static char *repo_strip_slash(const char *s)
{
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		n--;
	return xstrndup(s, n);
}

/* Does `path` lie inside directory `dir` (both absolute, canonical, `dir`
 * without trailing '/')?  Returns the rest after "dir/" or NULL. */
static const char *repo_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/' ? path + 1 : NULL;
	if (strncmp(path, dir, n) != 0)
		return NULL;
	if (path[n] == 0)
		return path + n;
	if (path[n] == '/')
		return path + n + 1;
	return NULL;
}

/* Where `path` sits in the work tree: "" or "sub/dir/" (owned). */
static char *repo_compute_prefix(const repo_t *r, const char *path)
{
	char *rp = NULL, *rw = NULL, *rg = NULL, *wd = NULL, *gd = NULL;
	const char *rest;
	char *out = NULL;
	struct stat st;
	buf_t b;

	if (!r->workdir)
		return xstrdup("");
	rp = realpath(path, NULL);
	wd = repo_strip_slash(r->workdir);
	rw = realpath(wd, NULL);
	gd = repo_strip_slash(git_repository_path(r->git));
	rg = realpath(gd, NULL);
	if (!rp || !rw)
		goto cleanup;
	/* A file given: where its directory sits. */
	if (stat(rp, &st) == 0 && !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(rp, '/');

		if (slash)
			*(slash == rp ? slash + 1 : slash) = 0;
	}
	/* Opening the .git directory itself: that is the root, not a
	 * subdirectory called ".git". */
	if (rg && repo_inside(rp, rg))
		goto cleanup;
	rest = repo_inside(rp, rw);
	if (!rest || !rest[0])
		goto cleanup;
	buf_init(&b);
	buf_addstr(&b, rest);
	if (b.buf[b.len - 1] != '/')
		buf_addch(&b, '/');
	out = buf_detach(&b);
	buf_free(&b);
cleanup:
	free(rp);
	free(rw);
	free(rg);
	free(wd);
	free(gd);
	return out ? out : xstrdup("");
}

/* 1 when the directory at path holds nothing ecg would read (no entry
 * but hidden ones, which a plain directory's listing leaves out), else 0;
 * a directory that cannot be listed is 0 here (the listing says why). */
static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		if (e->d_name[0] != '.')
			empty = 0;
	closedir(d);
	return empty;
}

int repo_open(const char *path, repo_t **out)
{
	git_repository *git = NULL;
	repo_t *r = NULL;
	struct stat st;
	const char *wd;
	int rc;

	*out = NULL;
	if (stat(path, &st) < 0) {
		repo_lib_settle();
		return err_set(ECG_EXIT_INPUT, "'%s': %s", path, strerror(errno));
	}
	rc = repo_lib_init();
	repo_lib_settle();
	if (rc < 0)
		return -1;
	rc = git_repository_open_ext(&git, path, 0, NULL);
	if (rc == GIT_ENOTFOUND && S_ISDIR(st.st_mode)) {
		/* no repository around it: the directory is the work tree */
		char *real = realpath(path, NULL);

		git_error_clear();
		if (!real) {
			err_set(ECG_EXIT_INPUT, "'%s': %s", path, strerror(errno));
			goto fail;
		}
		if (dir_is_empty(real)) {
			/* as an empty repository is: nothing to read */
			err_set(ECG_EXIT_INPUT, "'%s' is an empty directory and not a git repository: nothing to read", path);
			free(real);
			goto fail;
		}
		r = xcalloc(1, sizeof *r);
		r->plain = 1;
		r->hash_cap = REPO_DEFAULT_HASH_CAP;
		r->workdir = xasprintf("%s%s", real, strcmp(real, "/") ? "/" : "");
		r->name = real;
		r->prefix = xstrdup("");
		*out = r;
		return 0;
	}
	if (rc == GIT_ENOTFOUND) {
		err_set(ECG_EXIT_INPUT,
		        "'%s' is not a git repository (or any parent up to /)", path);
		goto fail;
	}
	if (rc < 0) {
		err_set(ECG_EXIT_INPUT, "cannot open git repository at '%s': %s",
		        path, repo_gerr("unknown error"));
		goto fail;
	}
	r = xcalloc(1, sizeof *r);
	r->git = git;
	r->hash_cap = REPO_DEFAULT_HASH_CAP;
	wd = git_repository_is_bare(git) ? NULL : git_repository_workdir(git);
	if (wd) {
		size_t n = strlen(wd);

		r->workdir = (n && wd[n - 1] == '/') ? xstrdup(wd)
		                                     : xasprintf("%s/", wd);
		r->name = repo_strip_slash(wd);
	} else {
		r->name = repo_strip_slash(git_repository_path(git));
	}
	r->prefix = repo_compute_prefix(r, path);
	*out = r;
	return 0;
fail:
	git_repository_free(git);
	repo_lib_release();
	return -1;
}

void repo_set_hash_cap(repo_t *r, size_t cap)
{
	r->hash_cap = cap;
}

void repo_free(repo_t *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->workdir);
	free(r->prefix);
	free(r->name);
	free(r);
	repo_lib_release();
}

int repo_is_plain(const repo_t *r)
{
	return r->plain;
}

int repo_is_bare(const repo_t *r)
{
	return r->workdir == NULL;
}

const char *repo_workdir(const repo_t *r)
{
	return r->workdir;
}

const char *repo_prefix(const repo_t *r)
{
	return r->prefix;
}

/* No commit at all: HEAD is unborn and there is no reference.  (Not
 * git_repository_is_empty(): it also wants HEAD to name the default
 * initial branch, so `git init -b main` without init.defaultBranch=main in
 * the config is "not empty" to it.) */
static int repo_is_empty(git_repository *git)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	int rc;

	if (git_repository_head_unborn(git) != 1)
		return 0;
	if (git_reference_iterator_new(&it, git) < 0)
		return 0;
	rc = git_reference_next(&ref, it);
	git_reference_free(ref);
	git_reference_iterator_free(it);
	return rc == GIT_ITEROVER;
}

/* Resolve `rev` to a commit (*out owned by the caller). */
static int repo_lookup_commit(repo_t *r, const char *rev, git_commit **out)
{
	git_object *obj = NULL, *peeled = NULL, *target = NULL;
	int rc, ret = -1;

	*out = NULL;
	if (!rev || !rev[0])
		return err_set(ECG_EXIT_INPUT, "empty revision");
	rc = git_revparse_single(&obj, r->git, rev);
	if (rc < 0) {
		if (repo_is_empty(r->git)) {
			err_set(ECG_EXIT_INPUT, "repository '%s' has no commits yet",
			        r->name);
		} else if (git_repository_head_unborn(r->git) == 1 &&
		           (strncmp(rev, "HEAD", 4) == 0 || rev[0] == '@')) {
			err_set(ECG_EXIT_INPUT,
			        "HEAD of repository '%s' is a branch with no commits yet",
			        r->name);
		} else if (rc == GIT_ENOTFOUND) {
			err_set(ECG_EXIT_INPUT, "unknown revision '%s' in %s",
			        rev, r->name);
		} else if (rc == GIT_EAMBIGUOUS) {
			err_set(ECG_EXIT_INPUT, "ambiguous revision '%s' in %s",
			        rev, r->name);
		} else if (rc == GIT_EINVALIDSPEC) {
			err_set(ECG_EXIT_INPUT, "invalid revision '%s' in %s: %s",
			        rev, r->name, repo_gerr("bad syntax"));
		} else {
			err_set(ECG_EXIT_INPUT, "cannot resolve revision '%s' in %s: %s",
			        rev, r->name, repo_gerr("unknown error"));
		}
		goto cleanup;
	}
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_t t = git_object_type(obj);

		/* Name what a tag finally points to, not "tag". */
		if (t == GIT_OBJECT_TAG &&
		    git_object_peel(&target, obj, GIT_OBJECT_ANY) == 0)
			t = git_object_type(target);
		err_set(ECG_EXIT_INPUT, "revision '%s' in %s is a %s, not a commit",
		        rev, r->name, git_object_type2string(t));
		goto cleanup;
	}
	*out = (git_commit *)peeled;
	peeled = NULL;
	ret = 0;
cleanup:
	git_object_free(target);
	git_object_free(peeled);
	git_object_free(obj);
	return ret;
}

int repo_resolve(repo_t *r, const char *rev, char sha[41])
{
	git_commit *c = NULL;

	sha[0] = 0;
	if (r->plain) {
		if (rev && strcmp(rev, "HEAD"))
			return err_set(ECG_EXIT_INPUT, "'%s' is not a git repository: it has no revision '%s' (without "
			               "--rev the directory is read as a work tree)", r->name, rev);
		return 0;
	}
	if (repo_lookup_commit(r, rev, &c) < 0)
		return -1;
	git_oid_tostr(sha, 41, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

/* ------------------------------------------------------------ listing */

struct repo_list {
	repo_t *r;
	const char *suffix;
	repo_file_t *files;
	size_t n, alloc;
	int failed;            /* err_set() was called */
	char *pdir;            /* repo_list_parent(): the last directory, */
	int pfd, perr;         /* its descriptor (-1: errno perr) */
};

static int repo_suffix_ok(const char *path, const char *suffix)
{
	size_t np, ns;

	if (!suffix)
		return 1;
	np = strlen(path);
	ns = strlen(suffix);
	return np >= ns && memcmp(path + np - ns, suffix, ns) == 0;
}

static int repo_path_plain(unsigned c)
{
	return c > 0x1f && c != 0x7f && c != ':' && c != '%';
}

char *repo_path_escape(const char *raw)
{
	const unsigned char *s = (const unsigned char *)raw;
	size_t len = strlen(raw), i = 0, n;
	buf_t b;

	buf_init(&b);
	buf_addstr(&b, "");
	while (i < len) {
		if (s[i] < 0x80) {
			if (repo_path_plain(s[i]))
				buf_addch(&b, (char)s[i]);
			else
				buf_addf(&b, "%%%02X", s[i]);
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (n == 0) {
			buf_addf(&b, "%%%02X", s[i]);
			i++;
			continue;
		}
		buf_add(&b, s + i, n);
		i += n;
	}
	return buf_detach(&b);
}

static int repo_hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *repo_path_unescape(const char *e)
{
	buf_t b;

	buf_init(&b);
	buf_addstr(&b, "");
	for (; *e; e++) {
		int hi, lo;

		if (*e == '%' && (hi = repo_hexval(e[1])) >= 0 && (lo = repo_hexval(e[2])) >= 0 && (hi || lo)) {
			buf_addch(&b, (char)(hi * 16 + lo));
			e += 2;
		} else {
			buf_addch(&b, *e);
		}
	}
	return buf_detach(&b);
}

/* path: the raw bytes (taken); kept as f->raw when its escaped form
 * differs. */
static repo_file_t *repo_list_add(struct repo_list *l, char *path,
                                  enum repo_kind kind)
{
	repo_file_t *f;
	char *esc = repo_path_escape(path);

	GROW(l->files, l->alloc, l->n + 1);
	f = &l->files[l->n++];
	memset(f, 0, sizeof *f);
	if (strcmp(esc, path)) {
		f->path = esc;
		f->raw = path;
	} else {
		free(esc);
		f->path = path;
	}
	f->kind = kind;
	return f;
}

static int repo_file_cmp(const void *a, const void *b)
{
	const repo_file_t *fa = a, *fb = b;

	return strcmp(fa->path, fb->path);
}

/* Sort by path and drop repeated paths (keeping the first). */
static void repo_list_finish(struct repo_list *l)
{
	size_t i, k = 0;

	if (l->n > 1)
		qsort(l->files, l->n, sizeof *l->files, repo_file_cmp);
	for (i = 0; i < l->n; i++) {
		if (k > 0 && strcmp(l->files[k - 1].path, l->files[i].path) == 0) {
			free(l->files[i].path);
			free(l->files[i].raw);
			free(l->files[i].link_target);
			continue;
		}
		l->files[k++] = l->files[i];
	}
	l->n = k;
}

void repo_files_free(repo_file_t *files, size_t n)
{
	size_t i;

	if (!files)
		return;
	for (i = 0; i < n; i++) {
		free(files[i].path);
		free(files[i].raw);
		free(files[i].link_target);
	}
	free(files);
}

static int repo_tree_cb(const char *root, const git_tree_entry *e,
                        void *payload)
{
	struct repo_list *l = payload;
	const git_oid *oid = git_tree_entry_id(e);
	git_filemode_t mode = git_tree_entry_filemode(e);
	git_blob *blob = NULL;
	repo_file_t *f;
	char *path;
	size_t len;
	int ret = 0;

	if (mode == GIT_FILEMODE_TREE)
		return 0;
	path = xasprintf("%s%s", root, git_tree_entry_name(e));
	if (!repo_suffix_ok(path, l->suffix)) {
		free(path);
		return 0;
	}
	switch (mode) {
	case GIT_FILEMODE_BLOB:
	case GIT_FILEMODE_BLOB_EXECUTABLE:
		f = repo_list_add(l, path, REPO_FILE);
		/* Not even the header: repo_file_size() looks when asked.  A
		 * blob missing from the object store (a partial clone, a
		 * mirror without its large files) is this file's problem, not
		 * the listing's: repo_read() reports it. */
		f->size = REPO_SIZE_UNKNOWN;
		break;
	case GIT_FILEMODE_LINK:
		f = repo_list_add(l, path, REPO_SYMLINK);
		if (git_blob_lookup(&blob, l->r->git, oid) < 0) {
			git_error_clear();   /* the target stays unknown (NULL) */
			break;
		}
		len = (size_t)git_blob_rawsize(blob);
		if (len > REPO_LINK_CAP)
			len = REPO_LINK_CAP;
		f->link_target = xstrndup(git_blob_rawcontent(blob), len);
		break;
	case GIT_FILEMODE_COMMIT:
		f = repo_list_add(l, path, REPO_GITLINK);
		break;
	default:
		/* An unknown mode: not something we can read. */
		free(path);
		return 0;
	}
	git_oid_tostr(f->blob, sizeof f->blob, oid);
	git_blob_free(blob);
	return ret;
}

static int repo_list_commit(struct repo_list *l, const char *commit)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	int ret = -1, rc;

	if (repo_lookup_commit(l->r, commit, &c) < 0)
		goto cleanup;
	if (git_commit_tree(&tree, c) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot read the tree of %s in %s: %s",
		        commit, l->r->name, repo_gerr("unknown error"));
		goto cleanup;
	}
	rc = git_tree_walk(tree, GIT_TREEWALK_PRE, repo_tree_cb, l);
	if (rc < 0) {
		if (!l->failed)
			err_set(ECG_EXIT_INPUT, "cannot walk the tree of %s in %s: %s",
			        commit, l->r->name, repo_gerr("unknown error"));
		goto cleanup;
	}
	ret = 0;
cleanup:
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

/* Read all of fd (a regular file, expected `hint` bytes) into an
 * xmalloc'd NUL-terminated buffer; more than `cap` bytes is an error
 * (returns -2 with errno untouched so the caller can word it). */
static int repo_read_fd(int fd, size_t hint, size_t cap, char **data,
                        size_t *len)
{
	size_t alloc, n = 0;
	ssize_t got;
	char *buf;

	if (cap > SIZE_MAX / 4)
		cap = SIZE_MAX / 4;
	alloc = (hint < cap ? hint : cap) + 1;
	buf = xmalloc(alloc + 1);

	for (;;) {
		if (n == alloc) {
			if (n > cap)
				break;
			alloc = alloc * 2 < cap + 1 ? alloc * 2 : cap + 1;
			buf = xrealloc(buf, alloc + 1);
		}
		got = read(fd, buf + n, alloc - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > cap) {
		free(buf);
		return -2;
	}
	buf[n] = 0;
	*data = buf;
	*len = n;
	return 0;
}

/* Open the directory that holds the work-tree path `path` (everything
 * before its last '/'), one component at a time, never through a symbolic
 * link: a tracked directory replaced by a link to somewhere else is not
 * the repository's.  Returns a descriptor, or -1 with errno (ELOOP or
 * ENOTDIR: a component is a link or not a directory; ENOENT).  *base is
 * the last component, inside path. */
static int repo_open_parent(const repo_t *r, const char *path, const char **base)
{
	const char *s = path, *slash;
	int fd = open(r->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	while (fd >= 0 && (slash = strchr(s, '/')) != NULL) {
		char *comp = xstrndup(s, (size_t)(slash - s));
		int nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int saved = errno;

		free(comp);
		close(fd);
		errno = saved;
		fd = nfd;
		s = slash + 1;
	}
	*base = s;
	return fd;
}

/* The parent directory of `path` for the listing, reusing the last one
 * (the index lists a directory's files together).  Borrowed descriptor, or
 * -1 with errno. */
static int repo_list_parent(struct repo_list *l, const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;

	if (l->pdir && strlen(l->pdir) == n && !strncmp(l->pdir, path, n)) {
		*base = path + n;
		if (l->pfd < 0)
			errno = l->perr;
		return l->pfd;
	}
	if (l->pfd >= 0)
		close(l->pfd);
	free(l->pdir);
	l->pdir = xstrndup(path, n);
	l->pfd = repo_open_parent(l->r, path, base);
	l->perr = errno;
	return l->pfd;
}

/* Hash the open work-tree file fd (shown as `path`) as a blob.  -1 on
 * error. */
static int repo_hash_fd(int fd, const char *path, git_oid *oid, size_t *size)
{
	struct stat st;
	char *data = NULL;
	void *map = MAP_FAILED;
	size_t len = 0;
	int rc, ret = -1;

	if (fstat(fd, &st) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot stat '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(ECG_EXIT_INPUT, "'%s' changed while being listed", path);
		goto cleanup;
	}
	if ((uintmax_t)st.st_size <= REPO_HASH_READ_CAP) {
		rc = repo_read_fd(fd, (size_t)st.st_size, REPO_HASH_READ_CAP,
		                  &data, &len);
		if (rc == -1) {
			err_set(ECG_EXIT_INPUT, "cannot read '%s': %s", path,
			        strerror(errno));
			goto cleanup;
		}
		if (rc == -2) {
			err_set(ECG_EXIT_INPUT, "'%s' changed while being listed",
			        path);
			goto cleanup;
		}
	}
	if (!data) {
		/* Big: map it instead of copying.
		 * Racing writers that truncate it could fault us; a file that
		 * large and that busy is not a job's source code. */
		if ((uintmax_t)st.st_size > SIZE_MAX) {
			err_set(ECG_EXIT_INPUT, "'%s' is too large", path);
			goto cleanup;
		}
		len = (size_t)st.st_size;
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			err_set(ECG_EXIT_INPUT, "cannot map '%s': %s", path,
			        strerror(errno));
			goto cleanup;
		}
	}
	if (git_odb_hash(oid, data ? (void *)data : map, len,
	                 GIT_OBJECT_BLOB) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot hash '%s': %s", path,
		        repo_gerr("unknown error"));
		goto cleanup;
	}
	*size = len;
	ret = 0;
cleanup:
	if (map != MAP_FAILED)
		munmap(map, len);
	free(data);
	return ret;
}

/* Add the work-tree entry `base` of directory dfd, shown as `path`
 * (tracked or not), as it is on disk.  An entry that no longer exists, or
 * is a directory or something else, is skipped.  An untracked file over
 * the hashing limit is listed unhashed (repo.h). */
static int repo_list_at(struct repo_list *l, int dfd, const char *base, const char *path, int untracked)
{
	char link[REPO_LINK_CAP + 1];
	struct stat st;
	repo_file_t *f;
	git_oid oid;
	size_t size = 0;
	ssize_t n;
	int fd;

	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;   /* deleted from disk */
		return err_set(ECG_EXIT_INPUT, "cannot stat '%s': %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dfd, base, link, REPO_LINK_CAP);
		if (n < 0) {
			if (errno == ENOENT || errno == EINVAL)
				return 0;
			return err_set(ECG_EXIT_INPUT, "cannot read symlink '%s': %s", path,
			               strerror(errno));
		}
		link[n] = 0;
		if (git_odb_hash(&oid, link, (size_t)n, GIT_OBJECT_BLOB) < 0)
			return err_set(ECG_EXIT_INPUT, "cannot hash '%s': %s", path,
			               repo_gerr("unknown error"));
		f = repo_list_add(l, xstrdup(path), REPO_SYMLINK);
		f->link_target = xstrdup(link);
		git_oid_tostr(f->blob, sizeof f->blob, &oid);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	if (untracked && (uintmax_t)st.st_size > l->r->hash_cap) {
		/* nothing can read it (repo_read() refuses it): not hashed */
		f = repo_list_add(l, xstrdup(path), REPO_FILE);
		f->size = (uintmax_t)st.st_size > SIZE_MAX - 1 ? SIZE_MAX - 1 : (size_t)st.st_size;
		return 0;
	}
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			return 0;   /* gone, or replaced by a link, meanwhile */
		return err_set(ECG_EXIT_INPUT, "cannot open '%s': %s", path, strerror(errno));
	}
	if (repo_hash_fd(fd, path, &oid, &size) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	f = repo_list_add(l, xstrdup(path), REPO_FILE);
	f->size = size;
	git_oid_tostr(f->blob, sizeof f->blob, &oid);
	return 0;
}

/* Add the tracked work-tree path `path` as it is on disk; a path below a
 * component that is a symbolic link (or not a directory) is not in the
 * work tree, as for git. */
static int repo_list_disk(struct repo_list *l, const char *path)
{
	const char *base;
	int dfd = repo_list_parent(l, path, &base);

	if (dfd < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			return 0;
		return err_set(ECG_EXIT_INPUT, "cannot open the directory of '%s': %s", path, strerror(errno));
	}
	return repo_list_at(l, dfd, base, path, 0);
}

/* Does the work-tree path exist (without following a symlink)? */
static int repo_exists(struct repo_list *l, const char *path)
{
	const char *base;
	int dfd = repo_list_parent(l, path, &base);
	struct stat st;

	return dfd >= 0 && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int repo_ignored(const repo_t *r, const char *path)
{
	int ign = 0;

	if (r->plain) {
		/* no .gitignore to ask: hidden directories (.venv, .tox, .cache)
		 * and __pycache__ are not the job's code */
		size_t n = strlen(path);

		if (n && path[n - 1] == '/') {
			const char *b = path;
			size_t i;

			for (i = 0; i + 1 < n; i++)
				if (path[i] == '/')
					b = path + i + 1;
			return b[0] == '.' || !strcmp(b, "__pycache__/");
		}
		return 0;
	}

	if (git_ignore_path_is_ignored(&ign, r->git, path) < 0) {
		git_error_clear();
		return 0;
	}
	return ign;
}

/* The untracked files that are not ignored under directory dfd (taken:
 * closed here), `rel` its path with a trailing '/' ("" at the root), at
 * `depth`.  Links to directories are not followed, nested repositories
 * are not entered, and a directory deeper than REPO_MAX_DEPTH is skipped
 * with a warning.  0, or -1 with err_set(). */
static int repo_walk_untracked(struct repo_list *l, git_index *index, int dfd, buf_t *rel, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		close(dfd);
		return 0;   /* unreadable: nothing of it can be read either */
	}
	while (ret == 0 && (e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		size_t mark = rel->len;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, ".git"))
			continue;
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;   /* gone meanwhile */
		buf_addstr(rel, name);
		if (S_ISDIR(st.st_mode)) {
			int sub;

			buf_addch(rel, '/');
			if (repo_ignored(l->r, rel->buf))
				goto next;
			if (depth + 1 > REPO_MAX_DEPTH) {
				err_warn("warning: '%s' is nested deeper than %d directories: not listed", rel->buf,
				         REPO_MAX_DEPTH);
				goto next;
			}
			sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				goto next;
			if (faccessat(sub, ".git", F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
				close(sub);   /* a nested repository (or a submodule) */
				goto next;
			}
			ret = repo_walk_untracked(l, index, sub, rel, depth + 1);
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && repo_suffix_ok(rel->buf, l->suffix) &&
		           !(index && git_index_get_bypath(index, rel->buf, 0)) && !repo_ignored(l->r, rel->buf)) {
			ret = repo_list_at(l, dirfd(d), name, rel->buf, 1);
		}
next:
		rel->len = mark;
		rel->buf[mark] = 0;
	}
	closedir(d);
	return ret;
}

static int repo_list_worktree(struct repo_list *l)
{
	git_index *index = NULL;
	const git_index_entry *e;
	repo_file_t *f;
	size_t i, count;
	buf_t rel;
	int ret = -1, root;

	if (!l->r->workdir)
		return err_set(ECG_EXIT_INPUT,
		               "repository '%s' is bare: it has no work tree",
		               l->r->name);
	if (l->r->plain)
		goto walk;   /* no index: every file is untracked */
	if (git_repository_index(&index, l->r->git) < 0 ||
	    git_index_read(index, 0) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot read the index of %s: %s",
		        l->r->name, repo_gerr("unknown error"));
		goto cleanup;
	}
	/* Tracked files, as they are on disk now. */
	count = git_index_entrycount(index);
	for (i = 0; i < count; i++) {
		e = git_index_get_byindex(index, i);
		if (!e || !repo_suffix_ok(e->path, l->suffix))
			continue;
		if (e->mode == GIT_FILEMODE_COMMIT) {
			/* Like git: a submodule whose directory is gone is
			 * deleted; an empty one (not checked out) is there. */
			if (!repo_exists(l, e->path))
				continue;
			f = repo_list_add(l, xstrdup(e->path), REPO_GITLINK);
			git_oid_tostr(f->blob, sizeof f->blob, &e->id);
			continue;
		}
		if (repo_list_disk(l, e->path) < 0)
			goto cleanup;
	}
	/* Untracked files that are not ignored, by a walk of our own (no
	 * symbolic link followed, big files not hashed, a path too deep
	 * skipped rather than failing the run). */
walk:
	root = open(l->r->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		err_set(ECG_EXIT_INPUT, "cannot list the work tree of %s: %s", l->r->name, strerror(errno));
		goto cleanup;
	}
	buf_init(&rel);
	buf_addstr(&rel, "");
	ret = repo_walk_untracked(l, index, root, &rel, 0);
	buf_free(&rel);
cleanup:
	git_index_free(index);
	return ret;
}

int repo_list(repo_t *r, const char *commit, int worktree, const char *suffix,
              repo_file_t **out, size_t *n)
{
	struct repo_list l;
	int rc;

	memset(&l, 0, sizeof l);
	l.r = r;
	l.suffix = suffix;
	l.pfd = -1;
	*out = NULL;
	*n = 0;
	rc = worktree || r->plain ? repo_list_worktree(&l) : repo_list_commit(&l, commit);
	if (l.pfd >= 0)
		close(l.pfd);
	free(l.pdir);
	if (rc < 0) {
		repo_files_free(l.files, l.n);
		return -1;
	}
	repo_list_finish(&l);
	*out = l.files;
	*n = l.n;
	return 0;
}

/* ------------------------------------------------------------ reading */

static int repo_too_big(const char *path, size_t size, size_t cap)
{
	return err_set(ECG_EXIT_INPUT,
	               "'%s': file is %zu bytes, over the limit of %zu bytes",
	               path, size, cap);
}

static int repo_read_blob(repo_t *r, const repo_file_t *f, size_t cap,
                          char **data, size_t *len)
{
	git_odb *odb = NULL;
	git_blob *blob = NULL;
	git_object_t type;
	git_oid oid;
	size_t size;
	int ret = -1;

	if (git_oid_fromstrn(&oid, f->blob, strlen(f->blob)) < 0) {
		err_set(ECG_EXIT_INPUT, "'%s': bad blob id '%s'", f->path, f->blob);
		goto cleanup;
	}
	/* Check the size from the header before inflating anything. */
	if (git_repository_odb(&odb, r->git) < 0 ||
	    git_odb_read_header(&size, &type, odb, &oid) < 0) {
		err_set(ECG_EXIT_INPUT, "'%s': cannot read blob %s: %s", f->path,
		        f->blob, repo_gerr("unknown error"));
		goto cleanup;
	}
	if (type != GIT_OBJECT_BLOB) {
		err_set(ECG_EXIT_INPUT, "'%s': object %s is a %s, not a blob",
		        f->path, f->blob, git_object_type2string(type));
		goto cleanup;
	}
	if (size > cap) {
		repo_too_big(f->path, size, cap);
		goto cleanup;
	}
	if (git_blob_lookup(&blob, r->git, &oid) < 0) {
		err_set(ECG_EXIT_INPUT, "'%s': cannot read blob %s: %s", f->path,
		        f->blob, repo_gerr("unknown error"));
		goto cleanup;
	}
	size = (size_t)git_blob_rawsize(blob);
	if (size > cap) {
		repo_too_big(f->path, size, cap);
		goto cleanup;
	}
	*data = xmalloc(size + 1);
	memcpy(*data, git_blob_rawcontent(blob), size);
	(*data)[size] = 0;
	*len = size;
	ret = 0;
cleanup:
	git_blob_free(blob);
	git_odb_free(odb);
	return ret;
}

size_t repo_file_size(repo_t *r, const repo_file_t *f)
{
	git_odb *odb = NULL;
	git_object_t type;
	git_oid oid;
	size_t size = 0;

	if (f->kind != REPO_FILE)
		return 0;
	if (f->size != REPO_SIZE_UNKNOWN)
		return f->size;
	if (git_oid_fromstrn(&oid, f->blob, strlen(f->blob)) < 0 || git_repository_odb(&odb, r->git) < 0 ||
	    git_odb_read_header(&size, &type, odb, &oid) < 0)
		size = 0;
	git_error_clear();
	git_odb_free(odb);
	return size;
}

static int repo_read_disk(repo_t *r, const repo_file_t *f, size_t cap,
                          char **data, size_t *len)
{
	char *full = NULL;
	struct stat st;
	int fd = -1, rc, ret = -1;

	if (!r->workdir)
		return err_set(ECG_EXIT_INPUT,
		               "'%s': repository '%s' is bare: it has no work tree",
		               f->path, r->name);
	full = xasprintf("%s%s", r->workdir, f->path);
	{
		const char *base;
		int dfd = repo_open_parent(r, f->raw ? f->raw : f->path, &base);

		fd = dfd < 0 ? -1 : openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (dfd >= 0) {
			int saved = errno;

			close(dfd);
			errno = saved;
		}
	}
	if (fd < 0) {
		if (errno == ELOOP)
			err_set(ECG_EXIT_INPUT, "'%s' is a symlink, or below one, not read", f->path);
		else
			err_set(ECG_EXIT_INPUT, "cannot open '%s': %s", f->path,
			        strerror(errno));
		goto cleanup;
	}
	if (fstat(fd, &st) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot stat '%s': %s", f->path,
		        strerror(errno));
		goto cleanup;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(ECG_EXIT_INPUT, "'%s' is not a regular file, not read",
		        f->path);
		goto cleanup;
	}
	if ((uintmax_t)st.st_size > cap) {
		repo_too_big(f->path, (size_t)st.st_size, cap);
		goto cleanup;
	}
	rc = repo_read_fd(fd, (size_t)st.st_size, cap, data, len);
	if (rc == -2) {
		err_set(ECG_EXIT_INPUT,
		        "'%s': file grew over the limit of %zu bytes while being read",
		        f->path, cap);
		goto cleanup;
	}
	if (rc < 0) {
		err_set(ECG_EXIT_INPUT, "cannot read '%s': %s", f->path,
		        strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0)
		close(fd);
	free(full);
	return ret;
}

int repo_read(repo_t *r, const repo_file_t *f, int worktree, size_t cap,
              char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	if (f->kind == REPO_SYMLINK)
		return err_set(ECG_EXIT_INPUT, "'%s' is a symlink, not read", f->path);
	if (f->kind == REPO_GITLINK)
		return err_set(ECG_EXIT_INPUT, "'%s' is a submodule, not read",
		               f->path);
	if (r->plain && !worktree && f->kind == REPO_FILE && f->blob[0]) {
		/* a blob asked for by its id: only the file on disk can hold
		 * it (there is no object store), and only while unchanged */
		char now[41];

		if (repo_read_disk(r, f, cap, data, len) < 0)
			return -1;
		if (repo_hash_bytes(*data, *len, now) < 0 || strcmp(now, f->blob)) {
			free(*data);
			*data = NULL;
			*len = 0;
			return err_set(ECG_EXIT_INPUT, "'%s': the version with blob %.12s is not on disk any more (a "
			               "directory with no commit keeps its files only as they are now)", f->path, f->blob);
		}
		return 0;
	}
	if (worktree || r->plain)
		return repo_read_disk(r, f, cap, data, len);
	return repo_read_blob(r, f, cap, data, len);
}

int repo_blob_at(repo_t *r, const char *commit, const char *path, char blob[41])
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	int rc, ret = -1;

	blob[0] = 0;
	if (r->plain) {
		/* no commit: the file as it is on disk */
		repo_file_t *all = NULL;
		size_t n = 0, i;

		if (repo_list(r, NULL, 1, NULL, &all, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (!strcmp(all[i].path, path) && all[i].kind == REPO_FILE && all[i].blob[0]) {
				memcpy(blob, all[i].blob, 41);
				ret = 1;
				break;
			}
		repo_files_free(all, n);
		return ret < 0 ? 0 : ret;
	}
	if (repo_lookup_commit(r, commit, &c) < 0)
		goto cleanup;
	if (git_commit_tree(&tree, c) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot read the tree of %s in %s: %s",
		        commit, r->name, repo_gerr("unknown error"));
		goto cleanup;
	}
	{
		char *raw = repo_path_unescape(path);

		rc = git_tree_entry_bypath(&e, tree, raw);
		free(raw);
	}
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 0;
		goto cleanup;
	}
	if (rc < 0) {
		err_set(ECG_EXIT_INPUT, "cannot look up '%s' at %s: %s", path, commit,
		        repo_gerr("unknown error"));
		goto cleanup;
	}
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		ret = 0;
		goto cleanup;
	}
	git_oid_tostr(blob, 41, git_tree_entry_id(e));
	ret = 1;
cleanup:
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

/* ------------------------------------------------------------ dirty */

int repo_dirty(repo_t *r, const char *commit, int *dirty)
{
	git_diff_options opts;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	*dirty = 0;
	if (!r->workdir || r->plain)
		return 0;
	if (repo_lookup_commit(r, commit, &c) < 0)
		goto cleanup;
	if (git_commit_tree(&tree, c) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot read the tree of %s in %s: %s",
		        commit, r->name, repo_gerr("unknown error"));
		goto cleanup;
	}
	/* The commit's tree against the index and the work tree together
	 * (what `git status` does against HEAD), plus untracked files that
	 * are not ignored.  A submodule counts only if its commit moved:
	 * what is inside it is not part of this job's code. */
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
	opts.ignore_submodules = GIT_SUBMODULE_IGNORE_DIRTY;
	if (git_diff_tree_to_workdir_with_index(&diff, r->git, tree, &opts) < 0) {
		err_set(ECG_EXIT_INPUT, "cannot compare the work tree of %s with %s: %s",
		        r->name, commit, repo_gerr("unknown error"));
		goto cleanup;
	}
	*dirty = git_diff_num_deltas(diff) > 0;
	ret = 0;
cleanup:
	git_diff_free(diff);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

int repo_hash_bytes(const char *data, size_t len, char hex[41])
{
	git_oid oid;

	if (git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB) < 0)
		return -1;
	git_oid_tostr(hex, 41, &oid);
	return 0;
}
