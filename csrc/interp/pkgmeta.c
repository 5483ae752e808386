/* interp/pkgmeta.c - what the installed distributions say of themselves,
 * read as data: importlib.metadata.version(name) and packaging's versions.
 *
 * A library decides what it builds from the versions installed beside it
 * (transformers' is_torch_sdpa_available(): version.parse(_torch_version)
 * >= version.parse("2.1.1"), _torch_version from importlib.metadata.
 * version("torch")).  The versions are the `Version:` headers of the
 * site's *.dist-info/METADATA and *.egg-info/PKG-INFO (site.c), never an
 * import of the package:
 *   - importlib.metadata.version(name) (and importlib_metadata's): the
 *     version of the distribution of that name in the site directories
 *     read (the header's environment.packages then lists it), else an unknown saying that none holds it (Python would raise
 *     PackageNotFoundError where it is not installed; ecg does not know
 *     that the directories read are all the job has);
 *   - packaging.version.parse(s) / Version(s) of a known string: an
 *     object holding PEP 440's order as a key (pkgmeta_cmp() compares two;
 *     eval.c asks it first), with major, minor, micro, release,
 *     base_version, is_prerelease, is_devrelease, pre, post, dev, local.
 *     A string outside the forms parsed here (an epoch, a legacy version)
 *     gives an unknown with that reason, never a guessed order.
 *
 * Values are the interpreter's arena's; nothing here fails the run.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ecg/site.h"

#define PV_EXT "packaging.version.Version"
#define PV_KEY "__ecg_version_key__"
#define PV_RELEASE_MAX 6              /* release components kept in the key */

/* A version's parts, PEP 440's public form and a local label. */
struct pv {
	long long rel[PV_RELEASE_MAX];
	size_t nrel;
	int pre;                          /* 0 none, 1 a, 2 b, 3 rc */
	long long pre_n;
	int has_post, has_dev;
	long long post_n, dev_n;
	const char *local;                /* after '+', or NULL */
};

static int num(const char **p, long long *out)
{
	const char *s = *p;
	long long v = 0;

	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s)) {
		if (v > 100000000000LL)
			return 0;
		v = v * 10 + (*s++ - '0');
	}
	*p = s;
	*out = v;
	return 1;
}

static int word(const char **p, const char *w)
{
	size_t n = strlen(w), i;

	for (i = 0; i < n; i++)
		if (tolower((unsigned char)(*p)[i]) != w[i])
			return 0;
	*p += n;
	return 1;
}

static void opt_sep(const char **p)
{
	if (**p == '.' || **p == '-' || **p == '_')
		(*p)++;
}

/* PEP 440 (without epochs): 0 when s is not of that form */
static int pv_parse(const char *s, struct pv *v)
{
	const char *p = s;
	static const struct {
		const char *w;
		int pre;
	} pres[] = { { "alpha", 1 }, { "beta", 2 }, { "preview", 3 }, { "pre", 3 }, { "rc", 3 },
	             { "a", 1 }, { "b", 2 }, { "c", 3 } };
	size_t i;

	memset(v, 0, sizeof *v);
	while (*p == ' ')
		p++;
	if (*p == 'v' || *p == 'V')
		p++;
	do {
		long long n;

		if (!num(&p, &n) || v->nrel == PV_RELEASE_MAX)
			return 0;
		v->rel[v->nrel++] = n;
	} while (*p == '.' && isdigit((unsigned char)p[1]) && p++);
	{
		const char *q = p;

		opt_sep(&q);
		for (i = 0; i < sizeof pres / sizeof pres[0]; i++) {
			const char *r = q;

			if (word(&r, pres[i].w)) {
				v->pre = pres[i].pre;
				opt_sep(&r);
				if (!num(&r, &v->pre_n))
					v->pre_n = 0;
				p = r;
				break;
			}
		}
	}
	{
		const char *q = p;

		opt_sep(&q);
		if (word(&q, "post") || word(&q, "rev") || word(&q, "r")) {
			opt_sep(&q);
			v->has_post = 1;
			if (!num(&q, &v->post_n))
				v->post_n = 0;
			p = q;
		} else if (*p == '-' && isdigit((unsigned char)p[1])) {
			p++;
			v->has_post = num(&p, &v->post_n);
		}
	}
	{
		const char *q = p;

		opt_sep(&q);
		if (word(&q, "dev")) {
			opt_sep(&q);
			v->has_dev = 1;
			if (!num(&q, &v->dev_n))
				v->dev_n = 0;
			p = q;
		}
	}
	if (*p == '+') {
		v->local = p + 1;
		if (!*v->local)
			return 0;
		for (p++; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_')
				return 0;
	}
	while (*p == ' ')
		p++;
	return *p == 0;
}

/* A key whose byte order is PEP 440's order of the public versions; a
 * local label sorts after the same version without one. */
static const char *pv_key(struct interp *in, const struct pv *v)
{
	char buf[512];
	size_t i, n = 0;
	/* X.devN < XaN < X < X.postN; a dev release of a pre or post release
	 * comes before it */
	int phase = v->pre ? v->pre : (v->has_dev && !v->has_post) ? 0 : 4;

	for (i = 0; i < PV_RELEASE_MAX; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%012lld.", i < v->nrel ? v->rel[i] : 0);
	n += (size_t)snprintf(buf + n, sizeof buf - n, "%d%012lld%d%012lld%d%012lld", phase, v->pre ? v->pre_n : 0,
	                      v->has_post, v->post_n, !(v->has_dev && (v->pre || v->has_post)), v->dev_n);
	snprintf(buf + n, sizeof buf - n, "%s%s", v->local ? "+" : "", v->local ? v->local : "");
	return astr(in, buf);
}

static value_t *pv_value(struct frame *f, const char *s, const struct pv *v)
{
	struct interp *in = f->in;
	struct vinst *o = new_inst(in);
	value_t *rel = v_seq(in->a, VK_TUPLE, v->nrel), *r;
	buf_t base;
	size_t i;

	o->ext = PV_EXT;
	buf_init(&base);
	for (i = 0; i < v->nrel; i++) {
		vseq_push(in->a, rel->u.seq, v_int(in->a, v->rel[i]));
		buf_addf(&base, "%s%lld", i ? "." : "", v->rel[i]);
	}
	vdict_sets(in->a, o->attrs, PV_KEY, v_str(in->a, pv_key(in, v)));
	vdict_sets(in->a, o->attrs, "release", rel);
	vdict_sets(in->a, o->attrs, "major", v_int(in->a, v->rel[0]));
	vdict_sets(in->a, o->attrs, "minor", v_int(in->a, v->nrel > 1 ? v->rel[1] : 0));
	vdict_sets(in->a, o->attrs, "micro", v_int(in->a, v->nrel > 2 ? v->rel[2] : 0));
	vdict_sets(in->a, o->attrs, "base_version", v_str(in->a, base.buf));
	vdict_sets(in->a, o->attrs, "is_prerelease", v_bool(in->a, v->pre || v->has_dev));
	vdict_sets(in->a, o->attrs, "is_devrelease", v_bool(in->a, v->has_dev));
	vdict_sets(in->a, o->attrs, "is_postrelease", v_bool(in->a, v->has_post));
	vdict_sets(in->a, o->attrs, "post", v->has_post ? v_int(in->a, v->post_n) : v_none(in->a));
	vdict_sets(in->a, o->attrs, "dev", v->has_dev ? v_int(in->a, v->dev_n) : v_none(in->a));
	vdict_sets(in->a, o->attrs, "local", v->local ? v_str(in->a, v->local) : v_none(in->a));
	if (v->pre) {
		static const char *const pre_names[] = { "", "a", "b", "rc" };

		r = v_seq(in->a, VK_TUPLE, 2);
		vseq_push(in->a, r->u.seq, v_str(in->a, pre_names[v->pre]));
		vseq_push(in->a, r->u.seq, v_int(in->a, v->pre_n));
		vdict_sets(in->a, o->attrs, "pre", r);
	} else {
		vdict_sets(in->a, o->attrs, "pre", v_none(in->a));
	}
	vdict_sets(in->a, o->attrs, "public", v_str(in->a, astr(in, s)));
	buf_free(&base);
	return mk_inst_value(in, o);
}

/* packaging.version.parse(s), packaging.version.Version(s) */
value_t *pkgmeta_version_parse(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                               const struct ast_hdr *site)
{
	struct pv v;

	(void)d, (void)kw;
	if (nargs != 1)
		return NULL;
	if (args[0]->k != VK_STR)
		return unknown_at(f, site, args[0]->k == VK_UNKNOWN && args[0]->reason ? args[0]->reason
		                                                                      : "a version of a string not known");
	if (!pv_parse(args[0]->u.str.s, &v))
		return unknown_at(f, site, afmt(f->in, "version '%s' is not of the forms ecg orders (PEP 440 without an epoch)",
		                                args[0]->u.str.s));
	return pv_value(f, args[0]->u.str.s, &v);
}

/* importlib.metadata.version(name): the site's METADATA Version: */
value_t *pkgmeta_dist_version(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	struct site *s = in->prog && in->prog->site ? in->prog->site->site : NULL;
	struct site_dist *dist;
	const char *name;

	(void)d, (void)kw;
	if (nargs != 1 || args[0]->k != VK_STR)
		return NULL;
	name = args[0]->u.str.s;
	if (!s || !site_any(s))
		return unknown_at(f, site, afmt(in, "the version of the installed '%s' (no site-packages read: name them "
		                                    "with --site DIR or --python PATH)", name));
	dist = site_dist_named(s, name);
	if (!dist)
		site_note_absent(s, name);
	if (!dist)
		return unknown_at(f, site, afmt(in, "the version of '%s': no *.dist-info or *.egg-info of it in the "
		                                    "site directories read", name));
	dist->used = 1;          /* read: the header names it with its version */
	if (!dist->version)
		return unknown_at(f, site, afmt(in, "the version of '%s': its metadata has no Version", name));
	return v_str(in->a, dist->version);
}

/* The version object of v, or NULL */
static const char *pv_key_of(const value_t *v)
{
	const value_t *k;

	if (!v || v->k != VK_INST || !v->u.inst->ext || strcmp(v->u.inst->ext, PV_EXT))
		return NULL;
	k = vdict_gets(v->u.inst->attrs, PV_KEY);
	return k && k->k == VK_STR ? k->u.str.s : NULL;
}

int pkgmeta_cmp(enum ast_cmpop op, const value_t *l, const value_t *r)
{
	const char *a = pv_key_of(l), *b = pv_key_of(r);
	int c;

	if (!a || !b)
		return -1;
	c = strcmp(a, b);
	switch (op) {
	case AST_CMP_EQ: return c == 0;
	case AST_CMP_NOTEQ: return c != 0;
	case AST_CMP_LT: return c < 0;
	case AST_CMP_LTE: return c <= 0;
	case AST_CMP_GT: return c > 0;
	case AST_CMP_GTE: return c >= 0;
	default: return -1;
	}
}
