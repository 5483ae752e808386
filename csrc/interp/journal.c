/* interp/journal.c - attribute and container writes under an undecided
 * `if`, and in a loop that ecg reads one iteration for all
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
 * are kept as alternatives (alts.c: a meter's sum), two values a load
 * read stay loaded (exec.c loaded_join, as for names), anything else is
 * unknown with the condition as its reason.  An
 * attribute set on one path only is unknown as well (getattr(o, "x",
 * default) and hasattr see its absence), unless it is a module.  So the
 * paths are not forked: what they disagree on is marked unknown.
 *
 * Contract: journal_open() before the body, journal_after_body() between
 * the paths, journal_close() after the else path, always in pairs with
 * the journal on the caller's stack (or journal_open() ... journal_discard():
 * a reading whose writes are all undone, interp.c's hook read at its
 * removal); journal_note() is called by
 * set_attr() before it stores.  An object made while the journal is open
 * (journal_born(), from new_inst()) exists on one path only: writes to it
 * are not undone nor merged (a born marker, key JBORN, is entered for its
 * dict and goes up to the enclosing journal as the other entries do).
 * Entries are malloc'd and freed by
 * journal_close(); the values are the arena's.  Nothing here fails.
 *
 * A loop journal (journal_open_loop() .. journal_close_loop()) notes the
 * same writes while a job loop of known trip count runs, and, as
 * containers changed in place, the lists whose items change
 * (journal_note_seq()) and the dicts written under a key that is not a
 * str (journal_note_key()).  When the loop is cut short -- read one
 * iteration for all, or stopped by the budget -- what the iterations
 * read left behind is the first iteration's state, not the last one's:
 * each attribute they changed to another data value (number, str, None,
 * list, tuple, dict) becomes unknown, each list they changed has a length
 * not known, and each dict written under a non-str key has its keys not
 * known.  Tensors, modules, objects and functions keep their kind, as a
 * name does after a `while` (exec.c while_widen); an entry given a
 * container of host data by a loop over alike items (a state dict copied
 * to the host, the same for each model) stays host data, not known.
 * Container entries are ignored by an `if` journal, and go up to the
 * enclosing journal as the others do.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/shapes.h"
#include "ecg/util.h"

static size_t jhash(const void *d, const char *key)
{
	size_t h = (size_t)d * 0x9e3779b97f4a7c15ull;

	while (*key)
		h = (h ^ (unsigned char)*key++) * 0x100000001b3ull;
	return h;
}

/* what an entry is about: the dict written, or the list changed */
static const void *jowner(const struct jentry *e)
{
	return e->seq ? (const void *)e->seq : (const void *)e->d;
}

/* the entry for (owner, key), or where it goes (an empty slot) */
static size_t jslot(const struct attr_journal *j, const void *owner, const char *key)
{
	size_t m = j->cap - 1, s = jhash(owner, key) & m;

	while (j->slot[s]) {
		const struct jentry *e = &j->e[j->slot[s] - 1];

		if (jowner(e) == owner && !strcmp(e->key, key))
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
		j->slot[jslot(j, jowner(&j->e[i]), j->e[i].key)] = i + 1;
}

/* the key of an object's born marker: no attribute is spelt so */
static const char JBORN[] = "\001born";
/* the keys of container entries: a list changed in place (jentry.seq),
 * a dict written under a key that is not a str */
static const char JLIST[] = "\001list";
static const char JDICT[] = "\001dict";

static int jcontainer(const struct jentry *e)
{
	return e->key == JLIST || e->key == JDICT;
}

/* (d, key) about to be written in the journal's phase, holding old (NULL:
 * absent); seq and oldn: a JLIST entry's list and its length before
 * ((size_t)-1: changed whatever its length) */
static void jadd_entry(struct attr_journal *j, struct vdict *d, struct vseq *seq, const char *key, value_t *old,
                       size_t oldn, int phase)
{
	const void *owner = seq ? (const void *)seq : (const void *)d;
	size_t s;

	if ((j->n + 1) * 2 > j->cap)
		jgrow(j);
	if (key != JBORN && !seq && j->slot[jslot(j, d, JBORN)])
		return;                       /* an object made on this path */
	s = jslot(j, owner, key);
	if (j->slot[s]) {
		if (seq && oldn == (size_t)-1)
			j->e[j->slot[s] - 1].oldn = oldn;
		return;                       /* noted already: old is the first one */
	}
	GROW(j->e, j->alloc, j->n + 1);
	j->e[j->n].d = d;
	j->e[j->n].seq = seq;
	j->e[j->n].key = key;
	j->e[j->n].old = old;
	j->e[j->n].body = NULL;
	j->e[j->n].oldn = oldn;
	j->e[j->n].phase = phase;
	j->e[j->n].item = 0;
	j->slot[s] = ++j->n;
}

static void jadd(struct attr_journal *j, struct vdict *d, const char *key, value_t *old, int phase)
{
	jadd_entry(j, d, NULL, key, old, 0, phase);
}

/* an entry up to the enclosing journal, with its first old value */
static void jup(struct attr_journal *j, const struct jentry *e)
{
	if (j)
		jadd_entry(j, e->d, e->seq, e->key, e->old, e->oldn, j->phase);
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
	if (in->ajournal && key && key->k == VK_STR) {
		struct attr_journal *j = in->ajournal;
		size_t n = j->n;

		journal_note(in, d, key->u.str.s);
		if (j->n > n)
			j->e[n].item = 1;
	} else if (in->ajournal && key) {
		jadd_entry(in->ajournal, d, NULL, JDICT, NULL, 0, in->ajournal->phase);
	}
}

void journal_note_seq(struct interp *in, struct vseq *seq, int same_length)
{
	if (in->ajournal && seq)
		jadd_entry(in->ajournal, NULL, seq, JLIST, NULL, same_length ? (size_t)-1 : seq->n, in->ajournal->phase);
}

int journal_in_if(const struct interp *in)
{
	const struct attr_journal *j;

	for (j = in->ajournal; j; j = j->parent)
		if (!j->loop)
			return 1;
	return 0;
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
		if (j->e[i].key == JBORN || jcontainer(&j->e[i]))
			continue;
		j->e[i].body = vdict_gets(j->e[i].d, j->e[i].key);
		jput(in, &j->e[i], j->e[i].old);
	}
	j->phase = 1;
}

static value_t *jmerge(struct interp *in, const char *key, value_t *a, value_t *b, const char *cond)
{
	value_t *r;

	if (a == b || (a && b && value_is_known_scalar(a) && value_key_eq(a, b)) || lazy_same(a, b))
		return a;      /* (two equal tuples of known scalars too) */
	if (a && b && a->k == VK_TENSOR && b->k == VK_TENSOR && a->is_param == b->is_param) {
		return tensor_join(in, a, b);
	}
	if ((r = arr_join(in, a, b)))
		return r;       /* two arrays of one rank (np.arange, np.tile of it) */
	if (lazy_none_pair(a, b))
		return lazy_none_join(in, cond, a, b);   /* a lazy initialisation's */
	if (a && a->k == VK_INST && a->u.inst->mod != VM_NONE) {
		if (other_path_holds(b))
			module_alt_other(in, a->u.inst, b->k == VK_INST ? b->u.inst : NULL);
		return a;
	}
	if (b && b->k == VK_INST && b->u.inst->mod != VM_NONE) {
		if (other_path_holds(a))
			module_alt_other(in, b->u.inst, a->k == VK_INST ? a->u.inst : NULL);
		return b;
	}
	if (a && b && alts_scalar_pair(a, b))
		return v_alts_scalars(in, cond, a, b);
	if (a && b && ((alts_object(a) && (alts_object(b) || b->k == VK_NONE)) ||
	               (a->k == VK_NONE && alts_object(b)) || alts_callable_pair(a, b) ||
	               alts_group_pair(a, b) || alts_dev_scalar_pair(a, b) || alts_scalar_pair(a, b) ||
	               devchoice_pair(a, b)))
		return v_alts_in(in, cond, a, b);  /* both objects kept, as merge_branches does */
	/* an object set on one path only (`if self.calculate_fid: self.scorer
	 * = Scorer(...)`): code that reads it runs on that path (on the other
	 * the read raises), so its calls follow the object, under the
	 * condition; the other path is read as None */
	if ((!a) != (!b) && alts_object(a ? a : b) && (a ? a : b)->k == VK_INST)
		return a ? v_alts_in(in, cond, a, v_none(in->a)) : v_alts_in(in, cond, v_none(in->a), b);
	/* what a load read on both paths (`self.data = data` else
	 * `self.data = data_cls.from_dict(data)`): loaded still, as a name */
	if ((r = loaded_join(in, key, a, b)))
		return r;
	r = v_unknown(in->a, key, afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
	r->may_none = !a || !b || a->k == VK_NONE || b->k == VK_NONE || a->may_none || b->may_none;
	/* host data on every path that bound it (an RNG state saved only
	 * when a device is there): host data still (torch.c host_only) */
	if ((a || b) && (!a || host_only(a, 0)) && (!b || host_only(b, 0)))
		r->dev = DEV_HOST;
	r->may_absent = !a || !b || (a->k == VK_UNKNOWN && a->may_absent) || (b->k == VK_UNKNOWN && b->may_absent);
	/* a Parameter on one path (self.weight = Parameter(...) else None):
	 * the module's parameters are not known (modtree.c) */
	r->may_module = (a && ((a->k == VK_TENSOR && a->is_param) || (a->k == VK_UNKNOWN && a->may_module))) ||
	                (b && ((b->k == VK_TENSOR && b->is_param) || (b->k == VK_UNKNOWN && b->may_module)));
	return r;
}

/* A path that returned early keeps its value of e for the function's
 * exit (struct exit_writes), when the value differs from the other's. */
static void exit_note(struct interp *in, const struct jentry *e, value_t *v, value_t *other, const char *cond)
{
	struct exit_writes *ew = in->exit_writes;

	if (v == other)
		return;
	GROW(ew->w, ew->alloc, ew->n + 1);
	ew->w[ew->n].d = e->d;
	ew->w[ew->n].key = e->key;
	ew->w[ew->n].v = v;
	ew->w[ew->n].cond = cond;
	ew->w[ew->n].item = e->item;
	ew->n++;
}

/* After the else path: body_left / else_left say a path raised (the run
 * described is the other one) or returned from the function (the code
 * after the `if` runs on the other one; the returning path's values wait
 * for the function's exit).  The entries go up to the enclosing journal
 * with their first old values. */
void journal_close(struct interp *in, struct attr_journal *j, const char *cond, int body_left, int else_left)
{
	size_t i;
	value_t **to = j->n ? xmalloc(j->n * sizeof *to) : NULL;
	int body_raised = body_left == JPATH_RAISED, else_raised = else_left == JPATH_RAISED;
	int body_ret = body_left == JPATH_RETURNED && !else_left && in->exit_writes;
	int else_ret = else_left == JPATH_RETURNED && !body_left && in->exit_writes;

	in->ajournal = j->parent;
	for (i = 0; i < j->n; i++) {
		struct jentry *e = &j->e[i];
		value_t *a = e->phase == 0 ? e->body : e->old;   /* after the body */
		value_t *b;

		to[i] = NULL;
		if (e->key == JBORN || jcontainer(e))
			continue;
		b = vdict_gets(e->d, e->key);                    /* after the else path */
		if (body_raised && !else_raised)
			to[i] = b;
		else if (else_raised && !body_raised)
			to[i] = a;
		else if (body_ret) {
			to[i] = b;
			exit_note(in, e, a, b, cond);
		} else if (else_ret) {
			to[i] = a;
			exit_note(in, e, b, a, afmt_memo(in, "not (%s)", cond, NULL));
		} else
			to[i] = jmerge(in, e->key, a, b, cond);
		}
	for (i = 0; i < j->n; i++) {
		jup(j->parent, &j->e[i]);
		if (j->e[i].key != JBORN && !jcontainer(&j->e[i]))
			jput(in, &j->e[i], to[i]);
	}
	free(to);
	free(j->e);
	free(j->slot);
}

void exit_writes_apply(struct interp *in, struct exit_writes *ew)
{
	size_t i;

	for (i = 0; i < ew->n; i++) {
		const struct exit_write *w = &ew->w[i];
		value_t *cur = vdict_gets(w->d, w->key), *m = jmerge(in, w->key, w->v, cur, w->cond);

		if (m == cur)
			continue;
		/* written as the caller's code would: its open `if` sees it */
		if (w->item)
			journal_note_key(in, w->d, v_str(in->a, w->key));
		else
			journal_note(in, w->d, w->key);
		if (m)
			vdict_sets(in->a, w->d, w->key, m);
		else
			vdict_del(w->d, v_str(in->a, w->key));
	}
	free(ew->w);
	ew->w = NULL;
	ew->n = ew->alloc = 0;
}

void journal_open_loop(struct interp *in, struct attr_journal *j)
{
	journal_open(in, j);
	j->loop = 1;
}

/* the data kinds a cut loop's writes leave not known */
static int jdata(const value_t *v)
{
	return v->k == VK_NONE || v->k == VK_BOOL || v->k == VK_INT || v->k == VK_FLOAT || v->k == VK_STR ||
	       v->k == VK_TUPLE || v->k == VK_LIST || v->k == VK_DICT || v->k == VK_RANGE;
}

static void jwiden(struct interp *in, const struct jentry *e, const char *why, int alike)
{
	if (e->key == JBORN)
		return;
	if (e->key == JLIST) {
		if ((e->oldn == (size_t)-1 || e->seq->n != e->oldn) && !e->seq->unk_reason) {
			e->seq->unk_expr = NULL;
			e->seq->unk_reason = why;
		}
	} else if (e->key == JDICT) {
		size_t i;
		int host = 1;

		for (i = 0; i < e->d->n && host; i++)
			host = host_only(e->d->vals[i], 0);
		if (e->d->anykey != 2)
			e->d->anykey = host ? 1 : 2;
		if (!e->d->anyval && e->d->n)
			e->d->anyval = e->d->vals[e->d->n - 1];
	} else {
		value_t *v = vdict_gets(e->d, e->key);

		if (v && v != e->old && jdata(v)) {  /* an equal number set again: later iterations set others */
			value_t *u = v_unknown(in->a, e->key, why);

			/* a number the loop rebinds to a number (a counter
			 * `self.n += batch_size`): a Python number still */
			u->plain = loop_number(e->old, v);
			/* a container of host data (a state dict copied off the
			 * device) that every item's pass makes alike */
			if (alike && (v->k == VK_DICT || v->k == VK_LIST || v->k == VK_TUPLE) &&
			    host_only_cat(in->cat, v, 0))
				u->dev = DEV_HOST;
			vdict_sets(in->a, e->d, e->key, u);
		}
	}
}

void journal_close_loop(struct interp *in, struct attr_journal *j, const char *cut, int alike)
{
	size_t i;
	const char *why = cut ? afmt_memo(in, "changed in `%s`, whose iterations ecg reads one for all", cut, NULL)
	                      : NULL;

	in->ajournal = j->parent;
	for (i = 0; i < j->n; i++) {
		if (why)
			jwiden(in, &j->e[i], why, alike);
		jup(j->parent, &j->e[i]);
	}
	free(j->e);
	free(j->slot);
}

void journal_discard(struct interp *in, struct attr_journal *j, struct vdict *const *keep, size_t nkeep)
{
	size_t i, k;

	in->ajournal = j->parent;
	for (i = j->n; i-- > 0;) {
		const struct jentry *e = &j->e[i];

		if (e->key == JBORN || jcontainer(e))
			continue;
		for (k = 0; e->item && k < nkeep && keep[k] != e->d; k++)
			;
		if (!e->item || !keep || k < nkeep)
			jput(in, &j->e[i], e->old);
	}
	free(j->e);
	free(j->slot);
}
