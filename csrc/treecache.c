/* treecache.c - see include/ecg/treecache.h
 *
 * The payload is the tree in preorder, driven by the field tables of
 * ast.c (so it follows ast.h without code of its own per class):
 *
 *   node      0 for NULL, else kind; then, for kinds with positions,
 *             line, col, end_line, end_col (signed); then each field in
 *             table order
 *   list      count, then that many nodes
 *   string    0 for NULL, else length + 1, then the bytes
 *   strlist   count, then that many (non-NULL) strings
 *   int       signed
 *   enum      unsigned, checked against its range
 *   const     kind, then: INT: big, then the text (big) or the value;
 *             FLOAT: 8 bytes; COMPLEX: 16 bytes; STR, BYTES: a string
 *   cmplist   count, then that many operators
 *
 * Unsigned numbers are LEB128, signed ones zigzag-coded LEB128, doubles
 * their 8 bytes in host order (the cache is this machine's).
 *
 * File: "ECGT", format byte, 3 zero bytes, payload length (8 bytes, host
 * order), tc_sum() of the payload (8 bytes), payload.  The payload is the
 * source's length (8 bytes, host order), the source's bytes (the blob's:
 * a hit needs no blob read), then the tree.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "ecg/ast.h"
#include "ecg/err.h"
#include "ecg/pyrt.h"
#include "ecg/treecache.h"
#include "ecg/util.h"

#define TC_FORMAT 2
#define TC_HEAD 24
/* a cache file bigger than this is not read: its size is known (fstat)
 * before a byte of it is.  A cache file holds the source (at most
 * --max-file-size, 10 MB by default) and its tree, which LEB128 keeps
 * within a few times the source even for a list of a million 1s. */
#define TC_MAX_FILE ((size_t)64 << 20)

/* ------------------------------------------------------------------ encode */

static void tc_put_u(buf_t *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		tmp[n++] = (unsigned char)(c | (v ? 0x80 : 0));
	} while (v);
	buf_add(b, tmp, n);
}

static void tc_put_s(buf_t *b, int64_t v)
{
	tc_put_u(b, ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0));
}

static void tc_put_str(buf_t *b, const char *s, size_t n)
{
	if (!s) {
		tc_put_u(b, 0);
		return;
	}
	tc_put_u(b, (uint64_t)n + 1);
	buf_add(b, s, n);
}

static void tc_put_node(buf_t *b, const struct ast_hdr *n);

static void tc_put_const(buf_t *b, const struct ast_const *c)
{
	tc_put_u(b, (uint64_t)c->kind);
	switch (c->kind) {
	case AST_CONST_INT:
		tc_put_u(b, c->big ? 1 : 0);
		if (c->big)
			tc_put_str(b, c->s ? c->s : "", c->s ? c->len : 0);
		else
			tc_put_s(b, c->i);
		break;
	case AST_CONST_FLOAT:
		buf_add(b, &c->f, sizeof c->f);
		break;
	case AST_CONST_COMPLEX:
		buf_add(b, &c->f, sizeof c->f);
		buf_add(b, &c->imag, sizeof c->imag);
		break;
	case AST_CONST_STR:
	case AST_CONST_BYTES:
		tc_put_str(b, c->s ? c->s : "", c->s ? c->len : 0);
		break;
	default:
		break;
	}
}

static void tc_put_field(buf_t *b, const void *node, const struct ast_field *f)
{
	const char *m = (const char *)node + f->offset;
	unsigned i;

	switch (f->type) {
	case AST_F_NODE:
	case AST_F_OPTNODE:
		tc_put_node(b, *(const struct ast_hdr *const *)m);
		break;
	case AST_F_LIST: {
		const struct ast_list *l = (const struct ast_list *)m;

		tc_put_u(b, l->n);
		for (i = 0; i < l->n; i++)
			tc_put_node(b, l->items[i]);
		break;
	}
	case AST_F_STR:
	case AST_F_OPTSTR: {
		const char *s = *(const char *const *)m;

		tc_put_str(b, s, s ? strlen(s) : 0);
		break;
	}
	case AST_F_STRLIST: {
		const struct ast_strlist *l = (const struct ast_strlist *)m;

		tc_put_u(b, l->n);
		for (i = 0; i < l->n; i++)
			tc_put_str(b, l->items[i] ? l->items[i] : "", l->items[i] ? strlen(l->items[i]) : 0);
		break;
	}
	case AST_F_INT:
	case AST_F_OPTINT:
		tc_put_s(b, *(const int *)m);
		break;
	case AST_F_CONST:
		tc_put_const(b, (const struct ast_const *)m);
		break;
	case AST_F_OPERATOR:
	case AST_F_BOOLOP:
	case AST_F_UNARYOP:
	case AST_F_CTX: {
		int v;

		memcpy(&v, m, sizeof v);   /* the enums are int-sized */
		tc_put_u(b, (uint64_t)(unsigned)v);
		break;
	}
	case AST_F_CMPLIST: {
		const struct ast_cmplist *l = (const struct ast_cmplist *)m;

		tc_put_u(b, l->n);
		for (i = 0; i < l->n; i++)
			tc_put_u(b, (uint64_t)l->items[i]);
		break;
	}
	default:
		break;
	}
}

static void tc_put_node(buf_t *b, const struct ast_hdr *n)
{
	const struct ast_kind_info *k;
	unsigned i;

	if (!n) {
		tc_put_u(b, 0);
		return;
	}
	k = ast_kind_info(n->kind);
	tc_put_u(b, (uint64_t)n->kind);
	if (k->has_pos) {
		tc_put_s(b, n->line);
		tc_put_s(b, n->col);
		tc_put_s(b, n->end_line);
		tc_put_s(b, n->end_col);
	}
	for (i = 0; i < k->nfields; i++)
		tc_put_field(b, n, &k->fields[i]);
}

void treecache_encode(const struct ast_Module *mod, buf_t *out)
{
	tc_put_node(out, mod ? &mod->h : NULL);
}

/* ------------------------------------------------------------------ decode */

struct tc_in {
	const unsigned char *p, *end;
	struct ast_arena *a;
	int bad;
};

static uint64_t tc_get_u(struct tc_in *in)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (!in->bad) {
		unsigned char c;

		if (in->p >= in->end || shift > 63) {
			in->bad = 1;
			break;
		}
		c = *in->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
		shift += 7;
	}
	return 0;
}

static int64_t tc_get_s(struct tc_in *in)
{
	uint64_t u = tc_get_u(in);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static int tc_get_int(struct tc_in *in)
{
	int64_t v = tc_get_s(in);

	if (v < INT_MIN || v > INT_MAX)
		in->bad = 1;
	return in->bad ? 0 : (int)v;
}

/* A count of items that take at least one byte each: never more than the
 * bytes left (so a damaged count cannot ask for a huge allocation). */
static unsigned tc_get_count(struct tc_in *in)
{
	uint64_t n = tc_get_u(in);

	if (in->bad || n > (uint64_t)(in->end - in->p) || n > UINT_MAX / 2) {
		in->bad = 1;
		return 0;
	}
	return (unsigned)n;
}

/* A string: *is_null set for NULL; else a NUL-terminated copy in the arena
 * and its length. */
static const char *tc_get_str(struct tc_in *in, size_t *len, int *is_null)
{
	uint64_t n = tc_get_u(in);

	*len = 0;
	*is_null = 0;
	if (in->bad)
		return NULL;
	if (n == 0) {
		*is_null = 1;
		return NULL;
	}
	n--;
	if (n > (uint64_t)(in->end - in->p)) {
		in->bad = 1;
		return NULL;
	}
	*len = (size_t)n;
	in->p += n;
	return ast_arena_strndup(in->a, (const char *)in->p - n, (size_t)n);
}

/* An identifier (no NUL inside) or NULL when allowed. */
static const char *tc_get_ident(struct tc_in *in, int nullable)
{
	size_t len;
	int is_null;
	const char *s = tc_get_str(in, &len, &is_null);

	if (in->bad)
		return NULL;
	if (is_null) {
		if (!nullable)
			in->bad = 1;
		return NULL;
	}
	if (strlen(s) != len) {
		in->bad = 1;
		return NULL;
	}
	return s;
}

static void tc_get_raw(struct tc_in *in, void *dst, size_t n)
{
	if (in->bad || (size_t)(in->end - in->p) < n) {
		in->bad = 1;
		return;
	}
	memcpy(dst, in->p, n);
	in->p += n;
}

static unsigned tc_get_enum(struct tc_in *in, unsigned lo, unsigned hi)
{
	uint64_t v = tc_get_u(in);

	if (in->bad || v < lo || v > hi) {
		in->bad = 1;
		return lo;
	}
	return (unsigned)v;
}

static struct ast_hdr *tc_get_node(struct tc_in *in, unsigned cat, int nullable, int depth);

static void tc_get_const(struct tc_in *in, struct ast_const *c, int singleton)
{
	size_t len;
	int is_null;

	c->kind = (enum ast_const_kind)tc_get_enum(in, AST_CONST_NONE,
	                                           singleton ? AST_CONST_FALSE : AST_CONST_BYTES);
	switch (c->kind) {
	case AST_CONST_INT:
		c->big = (int)tc_get_enum(in, 0, 1);
		if (c->big) {
			c->s = tc_get_str(in, &len, &is_null);
			c->len = len;
			if (is_null || !c->s || len == 0 || strlen(c->s) != len)
				in->bad = 1;
		} else {
			c->i = tc_get_s(in);
		}
		break;
	case AST_CONST_FLOAT:
		tc_get_raw(in, &c->f, sizeof c->f);
		break;
	case AST_CONST_COMPLEX:
		tc_get_raw(in, &c->f, sizeof c->f);
		tc_get_raw(in, &c->imag, sizeof c->imag);
		break;
	case AST_CONST_STR:
	case AST_CONST_BYTES:
		c->s = tc_get_str(in, &len, &is_null);
		c->len = len;
		if (is_null)
			in->bad = 1;
		break;
	default:
		break;
	}
}

static void tc_get_field(struct tc_in *in, struct ast_hdr *node, const struct ast_field *f, int depth)
{
	char *m = (char *)node + f->offset;
	unsigned i, n;

	switch (f->type) {
	case AST_F_NODE:
	case AST_F_OPTNODE:
		*(struct ast_hdr **)m = tc_get_node(in, f->cat, f->type == AST_F_OPTNODE, depth + 1);
		break;
	case AST_F_LIST: {
		struct ast_list *l = (struct ast_list *)m;

		n = tc_get_count(in);
		l->n = n;
		l->items = n ? ast_arena_alloc(in->a, (size_t)n * sizeof *l->items) : NULL;
		for (i = 0; i < n && !in->bad; i++)
			l->items[i] = tc_get_node(in, f->cat, f->null_items, depth + 1);
		break;
	}
	case AST_F_STR:
	case AST_F_OPTSTR:
		*(const char **)m = tc_get_ident(in, f->type == AST_F_OPTSTR);
		break;
	case AST_F_STRLIST: {
		struct ast_strlist *l = (struct ast_strlist *)m;

		n = tc_get_count(in);
		l->n = n;
		l->items = n ? ast_arena_alloc(in->a, (size_t)n * sizeof *l->items) : NULL;
		for (i = 0; i < n && !in->bad; i++)
			l->items[i] = tc_get_ident(in, 0);
		break;
	}
	case AST_F_INT:
	case AST_F_OPTINT:
		*(int *)m = tc_get_int(in);
		break;
	case AST_F_CONST:
		tc_get_const(in, (struct ast_const *)m, node->kind == AST_MatchSingleton);
		break;
	case AST_F_OPERATOR:
		*(enum ast_operator *)m = (enum ast_operator)tc_get_enum(in, AST_OP_ADD, AST_OP_FLOORDIV);
		break;
	case AST_F_BOOLOP:
		*(enum ast_boolop *)m = (enum ast_boolop)tc_get_enum(in, AST_BOOL_AND, AST_BOOL_OR);
		break;
	case AST_F_UNARYOP:
		*(enum ast_unaryop *)m = (enum ast_unaryop)tc_get_enum(in, AST_UNARY_INVERT, AST_UNARY_USUB);
		break;
	case AST_F_CTX:
		*(enum ast_ctx *)m = (enum ast_ctx)tc_get_enum(in, AST_CTX_LOAD, AST_CTX_DEL);
		break;
	case AST_F_CMPLIST: {
		struct ast_cmplist *l = (struct ast_cmplist *)m;

		n = tc_get_count(in);
		l->n = n;
		l->items = n ? ast_arena_alloc(in->a, (size_t)n * sizeof *l->items) : NULL;
		for (i = 0; i < n && !in->bad; i++)
			l->items[i] = (enum ast_cmpop)tc_get_enum(in, AST_CMP_EQ, AST_CMP_NOTIN);
		break;
	}
	default:
		in->bad = 1;
		break;
	}
}

/* A node of category `cat` (or NULL where `nullable`). */
static struct ast_hdr *tc_get_node(struct tc_in *in, unsigned cat, int nullable, int depth)
{
	const struct ast_kind_info *k;
	struct ast_hdr *n;
	uint64_t kind;
	unsigned i;

	if (in->bad)
		return NULL;
	if (depth > ASTCONV_MAX_DEPTH) {
		in->bad = 1;
		return NULL;
	}
	kind = tc_get_u(in);
	if (in->bad)
		return NULL;
	if (kind == 0) {
		if (!nullable)
			in->bad = 1;
		return NULL;
	}
	if (kind >= AST_NKINDS) {
		in->bad = 1;
		return NULL;
	}
	k = ast_kind_info((enum ast_kind)kind);
	if (k->cat != cat) {
		in->bad = 1;
		return NULL;
	}
	n = ast_arena_alloc(in->a, k->size);
	n->kind = (enum ast_kind)kind;
	if (k->has_pos) {
		n->line = tc_get_int(in);
		n->col = tc_get_int(in);
		n->end_line = tc_get_int(in);
		n->end_col = tc_get_int(in);
	}
	for (i = 0; i < k->nfields && !in->bad; i++)
		tc_get_field(in, n, &k->fields[i], depth);
	return in->bad ? NULL : n;
}

int treecache_decode(const unsigned char *p, size_t len, struct ast_arena **arena, struct ast_Module **mod)
{
	struct tc_in in;
	struct ast_hdr *root;

	*arena = NULL;
	*mod = NULL;
	in.p = p;
	in.end = p + len;
	in.a = ast_arena_new();
	in.bad = 0;
	root = tc_get_node(&in, AST_CAT_MOD, 0, 0);
	if (in.bad || !root || root->kind != AST_Module || in.p != in.end) {
		ast_arena_free(in.a);
		return 0;
	}
	*arena = in.a;
	*mod = AST_AS(root, Module);
	return 1;
}

/* ------------------------------------------------------------------ files */

/* The checksum of a cache file's payload: it finds a damaged or truncated
 * file; a forged one is found by the blob hash (tc_blob_is()).  Eight bytes
 * a step (FNV-1a's byte a step was 5% of a refresh). */
static uint64_t tc_mix(uint64_t h, uint64_t w)
{
	w *= 0x87c37b91114253d5ULL;
	w = (w << 31) | (w >> 33);
	w *= 0x4cf5ad432745937fULL;
	h ^= w;
	h = (h << 27) | (h >> 37);
	return h * 5 + 0x52dce729;
}

static uint64_t tc_sum(const unsigned char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = tc_mix(h, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, p, n);
		h = tc_mix(h, w);
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* What a cache file's content depends on, besides the blob: the format,
 * the field tables (ast.h) and the parser's Python version.  Static. */
static const char *tc_tag(void)
{
	static char tag[64];
	uint64_t h = FNV1A_INIT;
	unsigned k, i;

	if (tag[0])
		return tag;
	for (k = 1; k < AST_NKINDS; k++) {
		const struct ast_kind_info *ki = ast_kind_info((enum ast_kind)k);
		unsigned char meta[5] = { (unsigned char)(ki->size & 0xff), (unsigned char)(ki->size >> 8),
		                          ki->cat, ki->has_pos, ki->nfields };

		h = fnv1a(h, ki->name, strlen(ki->name) + 1);
		h = fnv1a(h, meta, sizeof meta);
		for (i = 0; i < ki->nfields; i++) {
			const struct ast_field *f = &ki->fields[i];
			unsigned char fm[5] = { f->type, f->cat, f->null_items, (unsigned char)(f->offset & 0xff),
			                        (unsigned char)(f->offset >> 8) };

			h = fnv1a(h, f->name, strlen(f->name) + 1);
			h = fnv1a(h, fm, sizeof fm);
		}
	}
	snprintf(tag, sizeof tag, "f%d-%08x-py%s", TC_FORMAT, (unsigned)(h ^ (h >> 32)), pyrt_version());
	return tag;
}

static int tc_blob_ok(const char *blob)
{
	size_t i;

	for (i = 0; i < 40; i++)
		if (!((blob[i] >= '0' && blob[i] <= '9') || (blob[i] >= 'a' && blob[i] <= 'f')))
			return 0;
	return blob[40] == 0;
}

/* An absolute path that names an existing directory. */
static int tc_is_dir(const char *p)
{
	struct stat st;

	return p && p[0] == '/' && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *treecache_default_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	const char *h = getenv("HOME");

	/* made only under a directory that exists: HOME=/nonexistent (daemons,
	 * sandboxes) means no cache, not a /nonexistent/.cache made by a run
	 * as root; XDG_CACHE_HOME itself may be made, as XDG says, in a
	 * directory that exists */
	if (x && x[0] == '/') {
		const char *slash = strrchr(x, '/');
		char *parent = xstrndup(x, slash == x ? 1 : (size_t)(slash - x));
		int ok = tc_is_dir(x) || tc_is_dir(parent);

		free(parent);
		if (ok)
			return xasprintf("%s/ecg", x);
	}
	if (tc_is_dir(h))
		return xasprintf("%s/.cache/ecg", h);
	return NULL;
}

/* ------------------------------------------------------------- trust */

/* Whether the directory `dir` may hold cache files: a directory itself
 * (lstat: not reached through a symbolic link at its last step), the
 * user's own, that no other user can write to.  1 yes; 0 it does not
 * exist; -1 refused, and *why says why (static text). */
static int tc_dir_check(const char *dir, const char **why)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		*why = strerror(errno);
		return errno == ENOENT ? 0 : -1;
	}
	if (S_ISLNK(st.st_mode))
		*why = "it is a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		*why = "it is not a directory";
	else if (st.st_uid != geteuid())
		*why = "it is owned by another user";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		*why = "other users can write to it";
	else
		return 1;
	return -1;
}

/* Whether another user could change what a path prefix `p` names: a
 * directory must be root's or the user's and, when others may write to
 * it, sticky (as /tmp is: no one else can rename or replace what is the
 * user's in it); a symbolic link must be root's or the user's (only its
 * owner can point it elsewhere).  `follow` stats through links.  1 yes
 * (*why set), 0 no, -1 it does not exist. */
static int tc_prefix_unsafe(const char *p, int follow, const char **why)
{
	struct stat st;

	if ((follow ? stat(p, &st) : lstat(p, &st)) < 0)
		return -1;
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		*why = "owned by another user";
		return 1;
	}
	if (S_ISDIR(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		*why = "other users can write to it";
		return 1;
	}
	return 0;
}

/* Each directory above `dir`, as named and as resolved, checked with
 * tc_prefix_unsafe(): a cache reached through a directory or a link that
 * another user could change is theirs to fill.  Prefixes that do not
 * exist yet are made by tc_mkdirs(), private.  0 trusted; -1 refused,
 * *why (static, overwritten by the next call: callers hold the lock of
 * tc_dir_trusted()) naming the prefix. */
static int tc_parents_check(const char *dir, const char **why)
{
	static char msg[PATH_MAX + 96];
	char *abs, *real = NULL, *cut;
	const char *what = NULL;
	int pass, rc = 0;

	if (dir[0] == '/') {
		abs = xstrdup(dir);
	} else {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof cwd))
			return 0;   /* the dir's own checks still apply */
		abs = xasprintf("%s/%s", cwd, dir);
	}
	/* the parent of dir, resolved: its deepest existing ancestor */
	cut = strrchr(abs, '/');
	if (cut && cut > abs) {
		char *p = xstrndup(abs, (size_t)(cut - abs));

		while (!(real = realpath(p, NULL)) && errno == ENOENT && (cut = strrchr(p, '/')) && cut > p)
			*cut = 0;
		free(p);
	}
	for (pass = 0; pass < 2 && !rc; pass++) {
		/* pass 0: the path as named, links as links; pass 1: resolved */
		char *s = pass == 0 ? abs : real;
		char *q;

		if (!s)
			continue;
		for (q = s + 1; ; q++) {
			if (*q == '/' || *q == 0) {
				char c = *q;
				int u;

				if (pass == 0 && !c)
					break;          /* dir itself: tc_dir_check() */
				*q = 0;
				u = tc_prefix_unsafe(s, pass, &what);
				if (u == 1) {
					snprintf(msg, sizeof msg, "the directory above it, '%s', is %s", s,
					         !strcmp(what, "owned by another user") ? what :
					         "one other users can write to");
					*why = msg;
					rc = -1;
				}
				*q = c;
				if (u != 0 || !c)
					break;
			}
		}
	}
	free(abs);
	free(real);
	return rc;
}

/* The cache directory `dir` and its trees/ checked once per run (per
 * directory named; the read-ahead thread asks too, hence the lock).
 * 1: use it; 0: not there (yet: the check is made again); -1: refused,
 * with one warning, for the rest of the run.  `create` makes what is
 * missing first, private to the user. */
static int tc_mkdirs(const char *dir);

static int tc_dir_trusted(const char *dir, int create)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char *known;             /* the directory judged, and ... */
	static int verdict;             /* ... the verdict (1 or -1) */
	const char *why = NULL;
	char *trees;
	int rc;

	pthread_mutex_lock(&lock);
	if (known && !strcmp(known, dir)) {
		rc = verdict;
		pthread_mutex_unlock(&lock);
		return rc;
	}
	/* each checked before anything is made in it */
	trees = xasprintf("%s/trees", dir);
	rc = tc_parents_check(dir, &why) < 0 ? -1 : tc_dir_check(dir, &why);
	if (rc == 0 && create && tc_mkdirs(dir) == 0)
		rc = tc_dir_check(dir, &why);
	if (rc == 1) {
		rc = tc_dir_check(trees, &why);
		if (rc == 0 && create && mkdir(trees, 0700) == 0)
			rc = tc_dir_check(trees, &why);
	}
	if (rc == -1)
		err_warn("the tree cache '%s' is not used: %s", dir, why);
	if (rc != 0) {
		free(known);
		known = xstrdup(dir);
		verdict = rc;
	}
	pthread_mutex_unlock(&lock);
	free(trees);
	return rc;
}

/* Whether `src` (`len` bytes) is the blob `blob` names: git's sha1 of
 * "blob <len>\0" and the bytes.  A cache file copied under another blob's
 * name is not that blob's tree. */
static int tc_blob_is(const char *blob, const unsigned char *src, size_t len)
{
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];

	if (git_odb_hash(&oid, src, len, GIT_OBJECT_BLOB) < 0)
		return 0;
	git_oid_tostr(hex, sizeof hex, &oid);
	return !strcmp(hex, blob);
}

int treecache_load(const char *dir, const char *blob, struct ast_arena **arena, struct ast_Module **mod,
                   char **src, size_t *srclen)
{
	char *path;
	unsigned char *data = NULL;
	struct stat st;
	uint64_t plen, sum, slen;
	size_t got = 0;
	int fd, hit = 0;

	*arena = NULL;
	*mod = NULL;
	*src = NULL;
	*srclen = 0;
	if (!dir || !blob || !tc_blob_ok(blob) || tc_dir_trusted(dir, 0) != 1)
		return 0;
	path = xasprintf("%s/trees/%s-%s.t", dir, blob, tc_tag());
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_size < TC_HEAD ||
	    (uint64_t)st.st_size > TC_MAX_FILE)
		goto done;
	data = xmalloc((size_t)st.st_size);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, data + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto done;
		got += (size_t)r;
	}
	if (memcmp(data, "ECGT", 4) != 0 || data[4] != TC_FORMAT)
		goto done;
	memcpy(&plen, data + 8, 8);
	memcpy(&sum, data + 16, 8);
	if (plen != got - TC_HEAD || plen < 8 || tc_sum(data + TC_HEAD, got - TC_HEAD) != sum)
		goto done;
	memcpy(&slen, data + TC_HEAD, 8);
	if (slen > plen - 8 || !tc_blob_is(blob, data + TC_HEAD + 8, (size_t)slen))
		goto done;
	hit = treecache_decode(data + TC_HEAD + 8 + slen, (size_t)(plen - 8 - slen), arena, mod);
	if (hit) {
		*src = xmalloc((size_t)slen + 1);
		memcpy(*src, data + TC_HEAD + 8, (size_t)slen);
		(*src)[slen] = 0;
		*srclen = (size_t)slen;
	}
done:
	free(data);
	close(fd);
	return hit;
}

/* Make dir and its missing parents, private to the user (0700: the trees
 * hold the source's names and strings).  0, or -1 (no error set). */
static int tc_mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == 0) {
			char c = *s;

			*s = 0;
			if (mkdir(p, 0700) < 0 && errno != EEXIST) {
				rc = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return rc;
}

int treecache_store(const char *dir, const char *blob, const struct ast_Module *mod, const char *src,
                    size_t srclen)
{
	buf_t b;
	char *sub = NULL, *tmp = NULL, *path = NULL;
	char head[8] = { 'E', 'C', 'G', 'T', TC_FORMAT, 0, 0, 0 };
	uint64_t plen, sum, slen = srclen;
	size_t off = 0;
	int fd = -1, rc = -1;

	if (!dir || !blob || !mod || (!src && srclen) || !tc_blob_ok(blob) ||
	    !tc_blob_is(blob, (const unsigned char *)src, srclen))
		return -1;
	buf_init(&b);
	buf_add(&b, head, 8);
	buf_add(&b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	buf_add(&b, &slen, 8);
	if (srclen)
		buf_add(&b, src, srclen);
	treecache_encode(mod, &b);
	plen = b.len - TC_HEAD;
	sum = tc_sum((const unsigned char *)b.buf + TC_HEAD, b.len - TC_HEAD);
	memcpy(b.buf + 8, &plen, 8);
	memcpy(b.buf + 16, &sum, 8);

	sub = xasprintf("%s/trees", dir);
	path = xasprintf("%s/%s-%s.t", sub, blob, tc_tag());
	tmp = xasprintf("%s/.%s.%ld.tmp", sub, blob, (long)getpid());
	if (tc_dir_trusted(dir, 1) != 1)
		goto done;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		goto done;
	while (off < b.len) {
		ssize_t w = write(fd, b.buf + off, b.len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto done;
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto done;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto done;
	rc = 0;
done:
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		(void)unlink(tmp);
	free(sub);
	free(tmp);
	free(path);
	buf_free(&b);
	return rc;
}

/* ------------------------------------------------------------------ prefetch */

enum { PF_PENDING, PF_LOADING, PF_DONE, PF_CLAIMED };

struct tc_pf_item {
	char blob[41];
	int state;                      /* PF_* */
	int hit;                        /* PF_DONE: treecache_load()'s answer */
	struct ast_arena *arena;
	struct ast_Module *mod;
	char *src;
	size_t srclen;
};

struct treecache_prefetch {
	char *dir;
	struct tc_pf_item *items;       /* in the order given, no two alike */
	struct tc_pf_item **by_blob;    /* the same, sorted by blob */
	size_t n;
	pthread_mutex_t mu;
	pthread_cond_t done;            /* an item became PF_DONE */
	pthread_t thread;
	int stop;
};

static int tc_pf_cmp(const void *a, const void *b)
{
	return strcmp((*(struct tc_pf_item *const *)a)->blob, (*(struct tc_pf_item *const *)b)->blob);
}

static void *tc_pf_main(void *arg)
{
	struct treecache_prefetch *pf = arg;
	size_t i;

	pthread_mutex_lock(&pf->mu);
	for (i = 0; i < pf->n && !pf->stop; i++) {
		struct tc_pf_item *it = &pf->items[i];
		struct ast_arena *arena;
		struct ast_Module *mod;
		char *src;
		size_t srclen;
		int hit;

		if (it->state != PF_PENDING)
			continue;
		it->state = PF_LOADING;
		pthread_mutex_unlock(&pf->mu);
		hit = treecache_load(pf->dir, it->blob, &arena, &mod, &src, &srclen);
		pthread_mutex_lock(&pf->mu);
		it->hit = hit;
		it->arena = arena;
		it->mod = mod;
		it->src = src;
		it->srclen = srclen;
		it->state = PF_DONE;
		pthread_cond_broadcast(&pf->done);
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

struct treecache_prefetch *treecache_prefetch_start(const char *dir, const char *const *blobs, size_t n)
{
	struct treecache_prefetch *pf;
	size_t i, k = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (!dir || n == 0 || ncpu < 2)
		return NULL;
	pf = xcalloc(1, sizeof *pf);
	pf->items = xcalloc(n, sizeof *pf->items);
	pf->by_blob = xcalloc(n, sizeof *pf->by_blob);
	/* the first of each blob, in the given order (the records' files:
	 * by path, close to the order of the imports) */
	for (i = 0; i < n; i++) {
		struct tc_pf_item key, *kp = &key;

		if (!blobs[i] || !tc_blob_ok(blobs[i]))
			continue;
		memcpy(key.blob, blobs[i], 41);
		if (k && bsearch(&kp, pf->by_blob, k, sizeof *pf->by_blob, tc_pf_cmp))
			continue;
		memcpy(pf->items[k].blob, blobs[i], 41);
		pf->by_blob[k] = &pf->items[k];
		k++;
		/* kept sorted by insertion: n is a few hundred */
		{
			size_t j = k - 1;
			struct tc_pf_item *x = pf->by_blob[j];

			while (j > 0 && strcmp(pf->by_blob[j - 1]->blob, x->blob) > 0) {
				pf->by_blob[j] = pf->by_blob[j - 1];
				j--;
			}
			pf->by_blob[j] = x;
		}
	}
	pf->n = k;
	pf->dir = xstrdup(dir);
	(void)tc_tag();         /* made here, read by the thread */
	if (pf->n == 0 || pthread_mutex_init(&pf->mu, NULL) != 0)
		goto fail;
	if (pthread_cond_init(&pf->done, NULL) != 0) {
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	if (pthread_create(&pf->thread, NULL, tc_pf_main, pf) != 0) {
		pthread_cond_destroy(&pf->done);
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	return pf;
fail:
	free(pf->items);
	free(pf->by_blob);
	free(pf->dir);
	free(pf);
	return NULL;
}

int treecache_prefetch_take(struct treecache_prefetch *pf, const char *blob, struct ast_arena **arena,
                            struct ast_Module **mod, char **src, size_t *srclen)
{
	struct tc_pf_item key, *kp = &key, **found, *it;
	int hit = 0;

	*arena = NULL;
	*mod = NULL;
	*src = NULL;
	*srclen = 0;
	if (!pf || !blob || strlen(blob) != 40)
		return 0;
	memcpy(key.blob, blob, 41);
	found = bsearch(&kp, pf->by_blob, pf->n, sizeof *pf->by_blob, tc_pf_cmp);
	if (!found)
		return 0;
	it = *found;
	pthread_mutex_lock(&pf->mu);
	if (it->state == PF_PENDING) {
		it->state = PF_CLAIMED;         /* the caller reads it itself */
	} else {
		while (it->state == PF_LOADING)
			pthread_cond_wait(&pf->done, &pf->mu);
		if (it->state == PF_DONE) {
			hit = it->hit;
			*arena = it->arena;
			*mod = it->mod;
			*src = it->src;
			*srclen = it->srclen;
			it->arena = NULL;
			it->mod = NULL;
			it->src = NULL;
			it->state = PF_CLAIMED;
		}
	}
	pthread_mutex_unlock(&pf->mu);
	return hit;
}

void treecache_prefetch_stop(struct treecache_prefetch *pf)
{
	size_t i;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_mutex_unlock(&pf->mu);
	pthread_join(pf->thread, NULL);
	for (i = 0; i < pf->n; i++) {
		ast_arena_free(pf->items[i].arena);
		free(pf->items[i].src);
	}
	pthread_cond_destroy(&pf->done);
	pthread_mutex_destroy(&pf->mu);
	free(pf->items);
	free(pf->by_blob);
	free(pf->dir);
	free(pf);
}
