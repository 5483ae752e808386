/* interp/journal.c - attribute writes under an undecided `if`
 *
 * exec_if() reads both paths of an `if` it cannot decide.  Names are
 * merged from snapshots of the frame's dict (exec.c merge_branches); an
 * attribute write (obj.x = v, setattr(obj, "x", v), in the `if` or in any
 * function called from it) goes into an object's dict that no snapshot
 * covers.  Such a write is noted here, with the value it replaced, while
 * a journal is open: after the body the writes are undone (the else path
 * starts from the same objects), and after the else path each attribute
 * either path wrote is merged as a name would be: alike on both paths it
 * stays, a module built on one path is kept (conditional), two tensors
 * join, a device tensor on one path and a Python scalar on the other
 * are kept as alternatives (alts.c: a meter's sum), anything else is
 * unknown with the condition as its reason.  An
 * attribute set on one path only is unknown as well (getattr(o, "x",
 * default) and hasattr see its absence), unless it is a module.  So the
 * paths are not forked: what they disagree on is marked unknown.
 *
 * Contract: journal_open() before the body, journal_after_body() between
 * the paths, journal_close() after the else path, always in pairs with
 * the journal on the caller's stack; journal_note() is called by
 * set_attr() before it stores.  An object made while the journal is open
 * (journal_born(), from new_inst()) exists on one path only: writes to it
 * are not undone nor merged (a born marker, key JBORN, is entered for its
 * dict and goes up to the enclosing journal as the other entries do).
 * Entries are malloc'd and freed by
 * journal_close(); the values are the arena's.  Nothing here fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/shapes.h"
#include "ecg/util.h"

static size_t jhash(const struct vdict *d, const char *key)
{
	size_t h = (size_t)d * 0x9e3779b97f4a7c15ull;

	while (*key)
		h = (h ^ (unsigned char)*key++) * 0x100000001b3ull;
	return h;
}

/* the entry for (d, key), or where it goes (an empty slot) */
static size_t jslot(const struct attr_journal *j, const struct vdict *d, const char *key)
{
	size_t m = j->cap - 1, s = jhash(d, key) & m;

	while (j->slot[s]) {
		const struct jentry *e = &j->e[j->slot[s] - 1];

		if (e->d == d && !strcmp(e->key, key))
			break;
		s = (s + 1) & m;
	}
	return s;
}

static void jgrow(struct attr_journal *j)
{
	size_t i, ncap = j->cap ? j->cap * 2 : 64;

	free(j->slot);
	j->cap = ncap;
	j->slot = xcalloc(ncap, sizeof *j->slot);
	for (i = 0; i < j->n; i++)
		j->slot[jslot(j, j->e[i].d, j->e[i].key)] = i + 1;
}

/* the key of an object's born marker: no attribute is spelt so */
static const char JBORN[] = "\001born";

/* (d, key) about to be written in the journal's phase, holding old (NULL:
 * absent) */
static void jadd(struct attr_journal *j, struct vdict *d, const char *key, value_t *old, int phase)
{
	size_t s;

	if ((j->n + 1) * 2 > j->cap)
		jgrow(j);
	if (key != JBORN && j->slot[jslot(j, d, JBORN)])
		return;                       /* an object made on this path */
	s = jslot(j, d, key);
	if (j->slot[s])
		return;                       /* noted already: old is the first one */
	GROW(j->e, j->alloc, j->n + 1);
	j->e[j->n].d = d;
	j->e[j->n].key = key;
	j->e[j->n].old = old;
	j->e[j->n].body = NULL;
	j->e[j->n].phase = phase;
	j->slot[s] = ++j->n;
}

void journal_note(struct interp *in, struct vdict *d, const char *key)
{
	struct attr_journal *j = in->ajournal;

	if (j)
		jadd(j, d, astr(in, key), vdict_gets(d, key), j->phase);
}

/* A dict's item under a str key about to be written or removed (d[k] = v,
 * d.pop(k), del d[k], update, setdefault): noted as an attribute is, so
 * that the two paths of an undecided `if` do not both apply it.  Other
 * keys are not journalled. */
void journal_note_key(struct interp *in, struct vdict *d, const value_t *key)
{
	if (in->ajournal && key && key->k == VK_STR)
		journal_note(in, d, key->u.str.s);
}

void journal_born(struct interp *in, struct vdict *d)
{
	jadd(in->ajournal, d, JBORN, NULL, in->ajournal->phase);
}

void journal_open(struct interp *in, struct attr_journal *j)
{
	memset(j, 0, sizeof *j);
	j->parent = in->ajournal;
	in->ajournal = j;
}

static void jput(struct interp *in, struct jentry *e, value_t *v)
{
	if (v)
		vdict_sets(in->a, e->d, e->key, v);
	else
		vdict_del(e->d, v_str(in->a, e->key));
}

/* The body's values kept aside, the objects put back as they were. */
void journal_after_body(struct interp *in, struct attr_journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		if (j->e[i].key == JBORN)
			continue;
		j->e[i].body = vdict_gets(j->e[i].d, j->e[i].key);
		jput(in, &j->e[i], j->e[i].old);
	}
	j->phase = 1;
}

static value_t *jmerge(struct interp *in, const char *key, value_t *a, value_t *b, const char *cond)
{
	value_t *r;

	if (a == b || (a && b && value_is_known_scalar(a) && value_key_eq(a, b)))
		return a;
	if (a && b && a->k == VK_TENSOR && b->k == VK_TENSOR && a->is_param == b->is_param) {
		r = v_tensor_dev(in->a, a->dev > b->dev ? a->dev : b->dev, a->pinned && b->pinned);
		r->shape = shape_join(in->a, a->shape, b->shape);
		r->is_param = a->is_param;
		return r;
	}
	if (a && a->k == VK_INST && a->u.inst->mod != VM_NONE)
		return a;
	if (b && b->k == VK_INST && b->u.inst->mod != VM_NONE)
		return b;
	if (a && b && ((alts_object(a) && (alts_object(b) || b->k == VK_NONE)) ||
	               (a->k == VK_NONE && alts_object(b)) || alts_callable_pair(a, b) ||
	               alts_group_pair(a, b) || alts_dev_scalar_pair(a, b)))
		return v_alts_in(in, cond, a, b);  /* both objects kept, as merge_branches does */
	r = v_unknown(in->a, key, afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
	r->may_none = !a || !b || a->k == VK_NONE || b->k == VK_NONE || a->may_none || b->may_none;
	/* a Parameter on one path (self.weight = Parameter(...) else None):
	 * the module's parameters are not known (modtree.c) */
	r->may_module = (a && ((a->k == VK_TENSOR && a->is_param) || (a->k == VK_UNKNOWN && a->may_module))) ||
	                (b && ((b->k == VK_TENSOR && b->is_param) || (b->k == VK_UNKNOWN && b->may_module)));
	return r;
}

/* After the else path: body_left / else_left say a path raised (the run
 * described is the other one).  The entries go up to the enclosing
 * journal with their first old values. */
void journal_close(struct interp *in, struct attr_journal *j, const char *cond, int body_raised, int else_raised)
{
	size_t i;
	value_t **to = j->n ? xmalloc(j->n * sizeof *to) : NULL;

	in->ajournal = j->parent;
	for (i = 0; i < j->n; i++) {
		struct jentry *e = &j->e[i];
		value_t *a = e->phase == 0 ? e->body : e->old;   /* after the body */
		value_t *b;

		to[i] = NULL;
		if (e->key == JBORN)
			continue;
		b = vdict_gets(e->d, e->key);                    /* after the else path */
		if (body_raised && !else_raised)
			to[i] = b;
		else if (else_raised && !body_raised)
			to[i] = a;
		else
			to[i] = jmerge(in, e->key, a, b, cond);
	}
	for (i = 0; i < j->n; i++) {
		if (j->parent)
			jadd(j->parent, j->e[i].d, j->e[i].key, j->e[i].old, j->parent->phase);
		if (j->e[i].key != JBORN)
			jput(in, &j->e[i], to[i]);
	}
	free(to);
	free(j->e);
	free(j->slot);
}
