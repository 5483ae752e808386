/* interp/methods.c - the methods of Python's builtin types
 *
 * The methods bound to a value of a builtin type (self in fn->u.bi.self,
 * made by getattr_v() with mk_builtin()), one function each in
 * list_methods[], dict_methods[] and str_methods[]: list.append/extend/
 * insert/pop, dict.get/items/keys/values/update/pop/setdefault, .copy(),
 * str.lower/upper/startswith/endswith/join/strip/split/partition/replace/
 * format; and in ext_methods[] a file's read() and os.environ.get().
 * Never NULL: what they do not follow is an unknown with the reason.
 */
#include "config.h"

#include <ctype.h>

#include "internal.h"

/* str.format(): "{}", "{0}", "{name}" and "{{"/"}}" over known str, int
 * and bool values without a format spec or conversion; NULL otherwise
 * (the caller says why). */
static value_t *str_format(struct interp *in, const value_t *self, value_t **args, size_t nargs,
                           const struct vdict *kw)
{
	const char *s = self->u.str.s, *end = s + self->u.str.len;
	size_t auto_i = 0;
	buf_t b;
	value_t *r;

	buf_init(&b);
	while (s < end) {
		const char *close;
		value_t *v = NULL;

		if ((s[0] == '{' || s[0] == '}') && s + 1 < end && s[1] == s[0]) {
			buf_addch(&b, s[0]);
			s += 2;
			continue;
		}
		if (s[0] == '}')
			goto fail;
		if (s[0] != '{') {
			buf_addch(&b, *s++);
			continue;
		}
		close = memchr(s, '}', (size_t)(end - s));
		if (!close)
			goto fail;
		if (close == s + 1) {
			v = auto_i < nargs ? args[auto_i++] : NULL;
		} else {
			const char *q;
			int digits = 1;

			for (q = s + 1; q < close; q++) {
				if (!(isalnum((unsigned char)*q) || *q == '_'))
					goto fail;       /* a spec, conversion, attribute or index */
				if (!isdigit((unsigned char)*q))
					digits = 0;
			}
			if (digits) {
				size_t k = (size_t)strtoul(s + 1, NULL, 10);

				v = k < nargs ? args[k] : NULL;
			} else if (kw) {
				char name[128];

				if ((size_t)(close - s - 1) >= sizeof name)
					goto fail;
				memcpy(name, s + 1, (size_t)(close - s - 1));
				name[close - s - 1] = 0;
				v = vdict_gets(kw, name);
			}
		}
		if (!v)
			goto fail;
		if (v->k == VK_STR)
			buf_add(&b, v->u.str.s, v->u.str.len);
		else if (v->k == VK_INT)
			buf_addf(&b, "%lld", v->u.i);
		else if (v->k == VK_BOOL)
			buf_addstr(&b, v->u.b ? "True" : "False");
		else if (v->k == VK_NONE)
			buf_addstr(&b, "None");
		else
			goto fail;
		s = close + 1;
	}
	r = v_strn(in->a, b.buf ? b.buf : "", b.len);
	buf_free(&b);
	return r;
fail:
	buf_free(&b);
	return NULL;
}

/* A list grown (append, insert, extend) where one read stands for many
 * passes: its length is not known -- a loop of job code whose trip count
 * is not known (f->mult.reason), or a loop of a forward read once for
 * all its iterations (FPN's `results.insert(0, ...)` in `for idx in
 * range(len(x) - 2, -1, -1)`), the list made before that loop. */
static void seq_grown(struct frame *f, struct vseq *s)
{
	if (s->unk_reason)
		return;
	if (f->mult.reason) {
		s->unk_expr = f->mult.expr;
		s->unk_reason = f->mult.reason;
	} else if (f->mode == M_FWD && f->loop_serial && s->born != f->loop_serial) {
		s->unk_expr = f->mult.expr;
		s->unk_reason = "grown in a loop that ecg reads once";
	}
}

/* A bounded deque (vseq.maxlen) past its bound after items came in: the
 * extra ones dropped from the front (append, extend, +=: the oldest go) or,
 * with front 0, from the back (appendleft).  A sequence whose items are
 * not all known keeps them (its length is not known anyway). */
void seq_bound(struct vseq *s, int front)
{
	size_t extra;

	if (!s->maxlen || s->unk_reason || s->n <= s->maxlen)
		return;
	extra = s->n - s->maxlen;
	if (front)
		memmove(s->items, s->items + extra, s->maxlen * sizeof *s->items);
	s->n = s->maxlen;
}

/* The methods of lists and dicts (and .copy()): one function each. */
static value_t *m_list_append(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (nargs == 1 && self->k == VK_LIST && !self->u.seq->unk_reason && self->u.seq->n >= MAX_ITEMS) {
		value_t *no = too_big(f, VK_LIST, self->u.seq->n + 1, site);

		self->u.seq->unk_expr = no->expr;
		self->u.seq->unk_reason = no->reason;
	} else if (nargs == 1 && (self->k == VK_LIST)) {
		journal_note_seq(in, self->u.seq, 0);
		vseq_push(in->a, self->u.seq, args[0]);
		seq_bound(self->u.seq, 1);
		seq_grown(f, self->u.seq);
	}
	return v_none(in->a);
}

static value_t *m_list_extend(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *items = NULL;
	size_t i;

	if (nargs == 1 && self->k == VK_LIST) {
		value_t *no = NULL;

		if (!iter_items(f, args[0], &items) &&
		    !(no = too_big(f, VK_LIST, self->u.seq->n + items->n, site))) {
			size_t n = items->n;    /* l.extend(l): items is self's own */

			journal_note_seq(in, self->u.seq, 0);
			for (i = 0; i < n; i++)
				vseq_push(in->a, self->u.seq, items->items[i]);
			seq_bound(self->u.seq, 1);
		} else if (no) {
			self->u.seq->unk_expr = no->expr;
			self->u.seq->unk_reason = no->reason;
		} else {
			self->u.seq->unk_expr = args[0]->expr;
			self->u.seq->unk_reason = "extended with items not known";
			hostdata_extend(in, self->u.seq, args[0]);   /* items of host data (hostdata.c) */
		}
		seq_grown(f, self->u.seq);
	}
	return v_none(in->a);
}

/* set.union(*others): a set is a list here (as set() and {...} make
 * it); a new one with the known scalar items of all, each once, in order
 * (as a | b in eval.c).  Unknown when an item or an iterable is not known. */
static value_t *m_set_union(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self, *r;
	struct vseq *items = NULL;
	size_t i, j, k;

	(void)kw;
	if (self->k != VK_LIST || self->u.seq->unk_reason)
		return unknown_at(f, site, "union() of a set not known");
	r = v_seq(in->a, VK_LIST, 0);
	for (k = 0; k <= nargs; k++) {
		if (k == 0)
			items = self->u.seq;
		else if (iter_items(f, args[k - 1], &items) || !items || items->unk_reason)
			return unknown_at(f, site, "union() with items not known");
		for (i = 0; i < items->n; i++) {
			value_t *x = items->items[i];

			if (!value_is_known_scalar(x))
				return unknown_at(f, site, "union() of items not known");
			for (j = 0; j < r->u.seq->n && !value_key_eq(r->u.seq->items[j], x); j++)
				;
			if (j == r->u.seq->n)
				vseq_push(in->a, r->u.seq, x);
		}
	}
	return r;
}

/* deque.appendleft(x): x first -- an append, then moved to the front
 * while the list is known (a deque is a list here: stdlib.c sl_deque). */
static value_t *m_deque_appendleft(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                   const struct ast_hdr *site)
{
	value_t *self = fn->u.bi.self;
	struct vseq *s = self->k == VK_LIST ? self->u.seq : NULL;
	size_t n0 = s ? s->n : 0;
	unsigned bound = s ? s->maxlen : 0;

	if (s)
		s->maxlen = 0;         /* the append keeps every item: the bound is kept below */
	(void)m_list_append(f, fn, args, nargs, kw, site);
	if (s && !s->unk_reason && s->n == n0 + 1 && n0 > 0) {
		value_t *x = s->items[n0];

		charge(f, n0, 0);      /* the items after it move */
		memmove(s->items + 1, s->items, n0 * sizeof *s->items);
		s->items[0] = x;
	}
	if (s) {
		s->maxlen = bound;
		seq_bound(s, 0);       /* a full deque drops its last item */
	}
	return v_none(f->in->a);
}

static value_t *m_list_insert(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	int ok;

	if (nargs == 2 && self->k == VK_LIST) {
		long long at = as_int(args[0], &ok);
		struct vseq *s = self->u.seq;

		charge(f, s->n, 0);      /* the items after it move */
		journal_note_seq(in, s, 0);
		vseq_push(in->a, s, args[1]);
		if (ok) {
			if (at < 0)
				at += (long long)s->n - 1;
			if (at < 0)
				at = 0;
			if ((size_t)at < s->n - 1) {
				memmove(s->items + at + 1, s->items + at, (s->n - 1 - (size_t)at) * sizeof *s->items);
				s->items[at] = args[1];
			}
		}
		seq_grown(f, s);
	}
	return v_none(in->a);
}

static value_t *m_list_pop(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	value_t *self = fn->u.bi.self;
	int ok;

	if (self->k == VK_LIST && self->u.seq->n > 0 && !self->u.seq->unk_reason) {
		long long at = nargs ? as_int(args[0], &ok) : -1;
		struct vseq *s = self->u.seq;
		value_t *r;

		if (nargs && !ok)
			return unknown_at(f, site, "pop() at an index not known");
		if (at < 0)
			at += (long long)s->n;
		if (at < 0 || (size_t)at >= s->n)
			return unknown_at(f, site, "pop() out of range");
		r = s->items[at];
		charge(f, s->n - (size_t)at, 0);
		journal_note_seq(f->in, s, 0);
		memmove(s->items + at, s->items + at + 1, (s->n - 1 - (size_t)at) * sizeof *s->items);
		s->n--;
		return r;
	}
	return unknown_at(f, site, "pop() from a list not known");
}

/* A key remove()/add() can compare: a known number, str, None, bool. */
static int plain_key(const value_t *v)
{
	return v->k == VK_STR || v->k == VK_NONE || value_is_known_scalar(v);
}

/* Where x is in s: 1 with *at set when an item equals x, 0 when every
 * item is comparable and none equals x, -1 when x or an item before the
 * match cannot be compared (the contents' match is then not known). */
static int seq_find_plain(const struct vseq *s, const value_t *x, size_t *at)
{
	size_t i;

	if (!plain_key(x))
		return -1;
	for (i = 0; i < s->n; i++) {
		if (!plain_key(s->items[i]))
			return -1;
		if (value_key_eq(s->items[i], x)) {
			*at = i;
			return 1;
		}
	}
	return 0;
}

/* list.remove(x), set.remove(x) / discard(x) (a set is a list of its
 * items here): the first item equal to x is taken out.  With x or an item
 * not comparable, or x absent from a list remove() must find it in, the
 * contents are no longer known. */
static value_t *m_list_remove(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *s = self->k == VK_LIST ? self->u.seq : NULL;
	size_t i = 0;
	int found;

	(void)kw;
	if (!s || s->unk_reason)
		return v_none(in->a);
	found = nargs == 1 ? seq_find_plain(s, args[0], &i) : -1;
	/* on one path of an undecided `if` (an if's journal open): after
	 * it the item may be there or not -- the list keeps it, with its
	 * length no longer known (journal.c merges no list's items) */
	if (found == 1 && fn->u.bi.id != BI_M_SET_DISCARD && journal_in_if(in)) {
		s->unk_expr = text_of(f, site);
		s->unk_reason = "an item removed on one path of an undecided `if`";
		return v_none(in->a);
	}
	if (found == 1) {
		journal_note_seq(in, s, 0);
		memmove(s->items + i, s->items + i + 1, (s->n - 1 - i) * sizeof *s->items);
		s->n--;
		return v_none(in->a);
	}
	if (found == 0 && fn->u.bi.id == BI_M_SET_DISCARD)
		return v_none(in->a);
	s->unk_expr = text_of(f, site);
	s->unk_reason = "an item removed that ecg cannot match";
	return v_none(in->a);
}

/* set.add(x): x appended unless an equal item is there.  With x or an
 * item not comparable, the contents are no longer known. */
static value_t *m_set_add(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                          const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *s = self->k == VK_LIST ? self->u.seq : NULL;
	size_t i;
	int found;

	(void)kw;
	if (!s || s->unk_reason)
		return v_none(in->a);
	found = nargs == 1 ? seq_find_plain(s, args[0], &i) : -1;
	if (found == 0) {
		journal_note_seq(in, s, 0);
		vseq_push(in->a, s, args[0]);
	}
	if (found >= 0)
		return v_none(in->a);
	s->unk_expr = text_of(f, site);
	s->unk_reason = "an item added that ecg cannot match";
	return v_none(in->a);
}

static value_t *m_dict_get(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (self->k == VK_DICT && nargs >= 1) {
		value_t *r = vdict_get(self->u.dict, args[0]);

		/* a key not known may be any of the keys: not the default */
		if (!r && !value_is_known_scalar(args[0]) && args[0]->k != VK_STR && (self->u.dict->n || self->u.dict->anykey))
			return unknown_at(f, site, "get() with a key not known");
		if (!r && dict_may_hold(self->u.dict))
			return unknown_at(f, site, DICT_ANYKEY_REASON);
		return r ? r : nargs >= 2 ? args[1] : v_none(in->a);
	}
	if (self->k == VK_INST && self->u.inst->ext && !strcmp(self->u.inst->ext, "os.environ"))
		return unknown_at(f, site, "an environment variable at run time");
	return unknown_at(f, site, "get() on a mapping not known");
}

static value_t *m_dict_view(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t i;

	if (self->k == VK_DICT && (self->u.dict->anykey || self->u.dict->rep)) {
		/* written with keys not known: one entry stands for them all,
		 * the stored value last seen under such a key; made by a
		 * comprehension over items not known: the value its one read
		 * pass made (a pass over the view runs a number of times not
		 * known, not once) */
		const char *why = self->u.dict->anykey ? DICT_ANYKEY_REASON : DICT_COMP_REASON;
		value_t *r = v_seq(in->a, VK_LIST, 1);
		value_t *k = v_unknown(in->a, text_of(f, site), why);
		value_t *v = self->u.dict->anyval ? self->u.dict->anyval
		             : !self->u.dict->anykey ? self->u.dict->rep : v_unknown(in->a, text_of(f, site), why);

		/* the entries written under known keys are there too: when one
		 * is a device tensor and the stand-in is not, that tensor
		 * stands for them, so that what the loop does to each value
		 * (metrics[k] = v.item()) is done to a device tensor at least
		 * once, as it is */
		if (!(v->k == VK_TENSOR && v->dev == DEV_DEVICE))
			for (i = 0; i < self->u.dict->n; i++)
				if (self->u.dict->vals[i]->k == VK_TENSOR && self->u.dict->vals[i]->dev == DEV_DEVICE) {
					v = self->u.dict->vals[i];
					break;
				}
		if (fn->u.bi.id == BI_M_DICT_ITEMS) {
			value_t *p = v_seq(in->a, VK_TUPLE, 2);

			vseq_push(in->a, p->u.seq, k);
			vseq_push(in->a, p->u.seq, v);
			vseq_push(in->a, r->u.seq, p);
		} else {
			vseq_push(in->a, r->u.seq, fn->u.bi.id == BI_M_DICT_KEYS ? k : v);
		}
		r->u.seq->unk_expr = text_of(f, site);
		r->u.seq->unk_reason = why;
		return r;
	}
	if (self->k == VK_DICT) {
		value_t *r = v_seq(in->a, VK_LIST, self->u.dict->n);

		charge(f, WORK_MADE * self->u.dict->n, 0);

		for (i = 0; i < self->u.dict->n; i++) {
			if (fn->u.bi.id == BI_M_DICT_ITEMS) {
				value_t *p = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, p->u.seq, self->u.dict->keys[i]);
				vseq_push(in->a, p->u.seq, self->u.dict->vals[i]);
				vseq_push(in->a, r->u.seq, p);
			} else {
				vseq_push(in->a, r->u.seq, fn->u.bi.id == BI_M_DICT_KEYS ? self->u.dict->keys[i]
				                                                          : self->u.dict->vals[i]);
			}
		}
		return r;
	}
	return unknown_at(f, site, "a mapping not known");
}

static value_t *m_dict_update(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t i;

	if (self->k == VK_DICT) {
		if (nargs == 1 && args[0]->k == VK_DICT)
			charge(f, WORK_MADE * args[0]->u.dict->n, 0);
		if (nargs == 1 && args[0]->k == VK_DICT)
			for (i = 0; i < args[0]->u.dict->n; i++) {
				journal_note_key(in, self->u.dict, args[0]->u.dict->keys[i]);
				vdict_set(in->a, self->u.dict, args[0]->u.dict->keys[i], args[0]->u.dict->vals[i]);
			}
		if (kw)
			for (i = 0; i < kw->n; i++)
				if (!kw_is_marker(kw->keys[i])) {
					journal_note_key(in, self->u.dict, kw->keys[i]);
					vdict_set(in->a, self->u.dict, kw->keys[i], kw->vals[i]);
				}
		/* update(x) of a mapping not known may set any key */
		if ((nargs == 1 && args[0]->k == VK_UNKNOWN) || kw_unk(kw, 0)) {
			const char *why = nargs == 1 && args[0]->k == VK_UNKNOWN
			                  ? afmt(in, "update(%s), a mapping not known, may set it",
			                         args[0]->expr ? args[0]->expr : "...")
			                  : kw_unk(kw, 0)->reason;

			for (i = 0; i < self->u.dict->n; i++)
				self->u.dict->vals[i] = v_unknown(in->a, value_repr(in->a, self->u.dict->keys[i]), why);
			self->u.dict->exact = 0;
			self->u.dict->anyname = 1;
		}
	}
	return v_none(in->a);
}

static value_t *m_dict_pop(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	value_t *self = fn->u.bi.self;

	if (self->k == VK_DICT && nargs >= 1) {
		value_t *r = vdict_get(self->u.dict, args[0]);

		if (r) {
			journal_note_key(f->in, self->u.dict, args[0]);
			vdict_del(self->u.dict, args[0]);
			return r;
		}
		if (dict_may_hold(self->u.dict))
			return unknown_at(f, site, DICT_ANYKEY_REASON);
		return nargs >= 2 ? args[1] : unknown_at(f, site, "pop() of a missing key");
	}
	return unknown_at(f, site, "pop() on a mapping not known");
}

static value_t *m_dict_setdefault(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                  const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (self->k == VK_DICT && nargs >= 1 && args[0]->k == VK_UNKNOWN) {
		/* a key not known: whichever key it is, it is set now unless
		 * it was there (so no listed entry changes); its value is that
		 * entry's or the default */
		value_t *d = nargs >= 2 ? args[1] : v_none(in->a);
		struct vdict *dd = self->u.dict;

		if (dd->anykey != 2)
			dd->anykey = host_only(d, 0) ? 1 : 2;
		dd->anyval = d;
		dd->exact = 0;
		return unknown_at(f, site, "setdefault() with a key not known");
	}
	if (self->k == VK_DICT && nargs >= 1) {
		value_t *r = vdict_get(self->u.dict, args[0]);

		if (!r && dict_may_hold(self->u.dict)) {
			/* there now, with the default or what a key not
			 * listed held */
			r = unknown_at(f, site, DICT_ANYKEY_REASON);
			journal_note_key(in, self->u.dict, args[0]);
			vdict_set(in->a, self->u.dict, args[0], r);
			return r;
		}
		if (!r) {
			r = nargs >= 2 ? args[1] : v_none(in->a);
			journal_note_key(in, self->u.dict, args[0]);
			vdict_set(in->a, self->u.dict, args[0], r);
		}
		return r;
	}
	return unknown_at(f, site, "setdefault() on a mapping not known");
}

static value_t *m_copy(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                       const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t i;

	if (self->k == VK_DICT) {
		value_t *r = v_dict(in->a);

		charge(f, WORK_MADE * self->u.dict->n, 0);
		for (i = 0; i < self->u.dict->n; i++)
			vdict_set(in->a, r->u.dict, self->u.dict->keys[i], self->u.dict->vals[i]);
		dict_keep_may_hold(r->u.dict, self->u.dict);
		r->u.dict->dictconfig = self->u.dict->dictconfig;   /* DictConfig.copy() is one */
		return r;
	}
	if (self->k == VK_LIST) {
		value_t *r;

		charge(f, self->u.seq->n, 0);
		r = seq_from(in, VK_LIST, self->u.seq);
		if (r->k == VK_LIST)
			r->u.seq->maxlen = self->u.seq->maxlen;   /* deque.copy() keeps its bound */
		return r;
	}
	return unknown_at(f, site, "copy() of something not known");
}

/* The methods of strings. */
static value_t *m_str_case(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	char *t = xstrdup(self->u.str.s), *c;
	value_t *r;

	charge(f, 0, self->u.str.len);
	for (c = t; *c; c++)
		*c = fn->u.bi.id == BI_M_STR_LOWER ? (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c)
		                                   : (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
	r = v_str(in->a, t);
	free(t);
	return r;
}

static value_t *m_str_affix(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (nargs == 1 && args[0]->k == VK_STR) {
		size_t n = args[0]->u.str.len, L = self->u.str.len;

		if (n > L)
			return v_bool(in->a, 0);
		return v_bool(in->a, fn->u.bi.id == BI_M_STR_STARTSWITH
		                         ? !memcmp(self->u.str.s, args[0]->u.str.s, n)
		                         : !memcmp(self->u.str.s + L - n, args[0]->u.str.s, n));
	}
	return unknown_at(f, site, "a string test with a value not known");
}

/* str.isdigit() / isalpha() / isalnum() / isspace() / islower() /
 * isupper() (isdecimal, isnumeric: isdigit's on ASCII) of an ASCII
 * string; unknown for another (Unicode's classes are not read). */
static value_t *m_str_is(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                         const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	const unsigned char *c = (const unsigned char *)self->u.str.s;
	size_t i, n = self->u.str.len;
	int id = (int)fn->u.bi.id, all = n > 0, cased = 0;

	if (nargs || (kw && kw->n))
		return unknown_at(f, site, "a string test with arguments");
	charge(f, 0, n);
	for (i = 0; i < n; i++) {
		int d = c[i] >= '0' && c[i] <= '9', lo = c[i] >= 'a' && c[i] <= 'z', up = c[i] >= 'A' && c[i] <= 'Z';
		int sp = c[i] == ' ' || (c[i] >= '\t' && c[i] <= '\r') || (c[i] >= 0x1c && c[i] <= 0x1f);

		if (c[i] >= 128 || !c[i])
			return unknown_at(f, site, "a test of a string with characters outside ASCII");
		if (id == BI_M_STR_ISDIGIT ? !d : id == BI_M_STR_ISALPHA ? !(lo || up) : id == BI_M_STR_ISALNUM ? !(d || lo || up)
		    : id == BI_M_STR_ISSPACE ? !sp : id == BI_M_STR_ISLOWER ? up : id == BI_M_STR_ISUPPER ? lo : 0)
			all = 0;
		cased |= lo || up;
	}
	if (id == BI_M_STR_ISLOWER || id == BI_M_STR_ISUPPER)
		all = all && cased;
	return v_bool(in->a, all);
}

/* str.title() / capitalize() / swapcase() of an ASCII string, and
 * str.zfill(width) (a sign kept in front). */
static value_t *m_str_recase(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t i, n = self->u.str.len;
	int id = (int)fn->u.bi.id, prev_cased = 0;
	char *t;
	value_t *r;

	for (i = 0; i < n; i++)
		if ((unsigned char)self->u.str.s[i] >= 128)
			return unknown_at(f, site, "a string with characters outside ASCII");
	if (id == BI_M_STR_ZFILL) {
		long long w;
		size_t pad, sign;
		buf_t b;

		if (nargs != 1 || (kw && kw->n) || args[0]->k != VK_INT)
			return unknown_at(f, site, "zfill() of a width not known");
		w = args[0]->u.i;
		if (w <= (long long)n)
			return self;
		if ((r = too_big(f, VK_STR, (size_t)w, site)) != NULL)
			return r;
		pad = (size_t)w - n;
		sign = n && (self->u.str.s[0] == '+' || self->u.str.s[0] == '-');
		buf_init(&b);
		buf_add(&b, self->u.str.s, sign);
		for (i = 0; i < pad; i++)
			buf_addch(&b, '0');
		buf_add(&b, self->u.str.s + sign, n - sign);
		r = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return r;
	}
	if (nargs || (kw && kw->n))
		return unknown_at(f, site, "a string method with arguments it does not take");
	charge(f, 0, n);
	t = xstrndup(self->u.str.s, n);
	for (i = 0; i < n; i++) {
		char c = t[i];
		int lo = c >= 'a' && c <= 'z', up = c >= 'A' && c <= 'Z';

		if (id == BI_M_STR_SWAPCASE)
			t[i] = lo ? (char)(c - 32) : up ? (char)(c + 32) : c;
		else if (id == BI_M_STR_CAPITALIZE)
			t[i] = i == 0 ? (lo ? (char)(c - 32) : c) : (up ? (char)(c + 32) : c);
		else {   /* title: a letter after a cased one is lowered, any other raised */
			if (prev_cased)
				t[i] = up ? (char)(c + 32) : c;
			else
				t[i] = lo ? (char)(c - 32) : c;
			prev_cased = lo || up;
		}
	}
	r = v_strn(in->a, t, n);
	free(t);
	return r;
}

/* str.find(sub) / rfind / index / rindex / count, without start and end:
 * the offset (a byte's, the same as Python's for an ASCII string), -1
 * (find) or ValueError (index: unknown), the count of non-overlapping
 * hits. */
static value_t *m_str_find(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	const char *s = self->u.str.s;
	size_t n = self->u.str.len, m, i;
	long long at = -1, hits = 0;
	int id = (int)fn->u.bi.id;

	if (nargs != 1 || (kw && kw->n) || args[0]->k != VK_STR)
		return unknown_at(f, site, "a search of a string for a value not known");
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 128)
			return unknown_at(f, site, "a search of a string with characters outside ASCII");
	m = args[0]->u.str.len;
	charge(f, 0, n);
	if (id == BI_M_STR_COUNT) {
		if (!m)
			return v_int(in->a, (long long)n + 1);
		for (i = 0; i + m <= n;)
			if (!memcmp(s + i, args[0]->u.str.s, m))
				hits++, i += m;
			else
				i++;
		return v_int(in->a, hits);
	}
	for (i = 0; i + m <= n; i++)
		if (!memcmp(s + i, args[0]->u.str.s, m)) {
			at = (long long)i;
			if (id == BI_M_STR_FIND || id == BI_M_STR_INDEX)
				break;
		}
	if (at < 0 && (id == BI_M_STR_INDEX || id == BI_M_STR_RINDEX))
		return unknown_at(f, site, "str.index() of a substring that is not there (ValueError)");
	return v_int(in->a, at);
}

/* str.removeprefix(p) / str.removesuffix(p) (Python 3.9): the string
 * less p when it starts (ends) with p, else the string itself; unknown
 * with the reason when p is not a known str. */
static value_t *m_str_remove_affix(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                   const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	size_t n, L = self->u.str.len;

	(void)kw;
	if (nargs != 1 || args[0]->k != VK_STR)
		return unknown_at(f, site, "a prefix or suffix removed that is not a known string");
	n = args[0]->u.str.len;
	if (!n || n > L)
		return self;
	if (fn->u.bi.id == BI_M_STR_REMOVEPREFIX)
		return memcmp(self->u.str.s, args[0]->u.str.s, n) ? self
		       : v_strn(in->a, self->u.str.s + n, L - n);
	return memcmp(self->u.str.s + L - n, args[0]->u.str.s, n) ? self : v_strn(in->a, self->u.str.s, L - n);
}

static value_t *m_str_join(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                           const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	struct vseq *items = NULL;
	size_t i;

	if (nargs == 1 && !iter_items(f, args[0], &items)) {
		buf_t b;
		value_t *r;
		size_t len = 0;

		/* its length first: ''.join([s, s]) doubles */
		for (i = 0; i < items->n; i++) {
			if (items->items[i]->k != VK_STR)
				return unknown_at(f, site, "a join of values not known");
			len += (i ? self->u.str.len : 0) + items->items[i]->u.str.len;
			if (len > MAX_STR_BYTES)
				break;
		}
		if ((r = too_big(f, VK_STR, len, site)) != NULL)
			return r;
		buf_init(&b);
		for (i = 0; i < items->n; i++) {
			if (i)
				buf_add(&b, self->u.str.s, self->u.str.len);
			buf_add(&b, items->items[i]->u.str.s, items->items[i]->u.str.len);
		}
		r = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return r;
	}
	return unknown_at(f, site, "a join of values not known");
}

static value_t *m_str_strip(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	/* the characters of args[0] (whitespace by default) off either end */
	const char *chars = " \t\n\r\f\v", *s = self->u.str.s;
	size_t nc = 6, lo = 0, hi = self->u.str.len;

	if (nargs >= 1 && args[0]->k == VK_STR) {
		chars = args[0]->u.str.s;
		nc = args[0]->u.str.len;
	} else if (nargs >= 1 && args[0]->k != VK_NONE) {
		return unknown_at(f, site, "strip() of characters not known");
	}
	if (fn->u.bi.id != BI_M_STR_RSTRIP)
		while (lo < hi && memchr(chars, s[lo], nc))
			lo++;
	if (fn->u.bi.id != BI_M_STR_LSTRIP)
		while (hi > lo && memchr(chars, s[hi - 1], nc))
			hi--;
	return v_strn(in->a, s + lo, hi - lo);
}

static value_t *m_str_rsplit(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	/* s.rsplit(sep, n): as split() but the n cuts taken from the
	 * right (a dotted path cut into module and name) */
	value_t *ms = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "maxsplit") : NULL;
	const char *str = self->u.str.s, *sep;
	size_t seplen, end = self->u.str.len, k, nparts = 0, cap = 0;
	long long maxsplit;
	struct { size_t at, len; } *parts = NULL;
	value_t *r;

	if (nargs < 1 || args[0]->k != VK_STR || !args[0]->u.str.len || (ms && ms->k != VK_INT))
		return unknown_at(f, site, "rsplit() with a separator or count not known");
	sep = args[0]->u.str.s;
	seplen = args[0]->u.str.len;
	maxsplit = ms ? ms->u.i : -1;
	for (k = end; k >= seplen && maxsplit != 0;) {
		if (memcmp(str + k - seplen, sep, seplen)) {
			k--;
			continue;
		}
		GROW(parts, cap, nparts + 1);
		parts[nparts].at = k;
		parts[nparts++].len = end - k;
		end = k - seplen;
		k = end;
		if (maxsplit > 0)
			maxsplit--;
	}
	r = v_seq(in->a, VK_LIST, 0);
	vseq_push(in->a, r->u.seq, v_strn(in->a, str, end));
	while (nparts-- > 0)
		vseq_push(in->a, r->u.seq, v_strn(in->a, str + parts[nparts].at, parts[nparts].len));
	free(parts);
	return r;
}

static value_t *m_str_split(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	const char *str = self->u.str.s, *sep = NULL;
	size_t seplen = 0, L = self->u.str.len, pos = 0;
	long long maxsplit;
	value_t *r = v_seq(in->a, VK_LIST, 0);

	charge(f, 0, L);
	if (nargs >= 1 && args[0]->k == VK_STR && args[0]->u.str.len) {
		sep = args[0]->u.str.s;
		seplen = args[0]->u.str.len;
	} else if (nargs >= 1 && args[0]->k != VK_NONE) {
		return unknown_at(f, site, "split() with a separator not known");
	}
	{
		value_t *ms = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "maxsplit") : NULL;

		if (ms && ms->k != VK_INT)
			return unknown_at(f, site, "split() with a maxsplit not known");
		maxsplit = ms ? ms->u.i : -1;
	}
	if (sep) {
		for (;;) {
			const char *hit = pos <= L && maxsplit != 0 ? strstr(str + pos, sep) : NULL;

			if (maxsplit > 0)
				maxsplit--;
			if (!hit) {
				vseq_push(in->a, r->u.seq, v_strn(in->a, str + pos, L - pos));
				break;
			}
			vseq_push(in->a, r->u.seq, v_strn(in->a, str + pos, (size_t)(hit - (str + pos))));
			pos = (size_t)(hit - str) + seplen;
		}
	} else {
		while (pos < L) {
			size_t st;

			while (pos < L && (str[pos] == ' ' || str[pos] == '\t' || str[pos] == '\n'))
				pos++;
			if (pos >= L)
				break;
			st = pos;
			if (maxsplit == 0) {
				/* the rest, as it is */
				vseq_push(in->a, r->u.seq, v_strn(in->a, str + st, L - st));
				break;
			}
			if (maxsplit > 0)
				maxsplit--;
			while (pos < L && !(str[pos] == ' ' || str[pos] == '\t' || str[pos] == '\n'))
				pos++;
			vseq_push(in->a, r->u.seq, v_strn(in->a, str + st, pos - st));
		}
	}
	charge(f, WORK_MADE * r->u.seq->n, 0);   /* a value per piece */
	return r;
}

static value_t *m_str_partition(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (nargs == 1 && args[0]->k == VK_STR && args[0]->u.str.len) {
		const char *hit = strstr(self->u.str.s, args[0]->u.str.s);
		value_t *t = v_seq(in->a, VK_TUPLE, 3);

		charge(f, 0, self->u.str.len);
		if (!hit) {
			vseq_push(in->a, t->u.seq, self);
			vseq_push(in->a, t->u.seq, v_str(in->a, ""));
			vseq_push(in->a, t->u.seq, v_str(in->a, ""));
		} else {
			vseq_push(in->a, t->u.seq, v_strn(in->a, self->u.str.s, (size_t)(hit - self->u.str.s)));
			vseq_push(in->a, t->u.seq, args[0]);
			vseq_push(in->a, t->u.seq, v_str(in->a, hit + args[0]->u.str.len));
		}
		return t;
	}
	return unknown_at(f, site, "partition() with a separator not known");
}

static value_t *m_str_replace(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                              const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;

	if (nargs == 2 && args[0]->k == VK_STR && args[1]->k == VK_STR && args[0]->u.str.len) {
		buf_t b;
		const char *p = self->u.str.s, *hit;
		value_t *r;
		size_t len = self->u.str.len;

		/* its length first: s.replace("a", "aa") doubles */
		for (; (hit = strstr(p, args[0]->u.str.s)) != NULL && len <= MAX_STR_BYTES; p = hit + args[0]->u.str.len)
			len = len - args[0]->u.str.len + args[1]->u.str.len;
		if ((r = too_big(f, VK_STR, len, site)) != NULL)
			return r;
		charge(f, 0, self->u.str.len);   /* the scan above */
		p = self->u.str.s;
		buf_init(&b);
		while ((hit = strstr(p, args[0]->u.str.s))) {
			buf_add(&b, p, (size_t)(hit - p));
			buf_add(&b, args[1]->u.str.s, args[1]->u.str.len);
			p = hit + args[0]->u.str.len;
		}
		buf_addstr(&b, p);
		r = v_strn(in->a, b.buf, b.len);
		buf_free(&b);
		return r;
	}
	return unknown_at(f, site, "replace() with values not known");
}

/* "{val:f} ({avg:f})".format(...): a replacement field whose value is a
 * device tensor formats it, which reads it on the host (Tensor.__format__):
 * one sync.  Fields are read from the literal format string: automatic
 * and numbered ones name positional arguments, the others keywords; an
 * argument no field names is not read. */
static void format_reads_device(struct frame *f, const char *fmt, value_t **args, size_t nargs,
                                struct vdict *kw, const struct ast_hdr *site)
{
	size_t auto_i = 0;
	const char *p;
	const value_t *maybe = NULL;   /* a device tensor on one path only */

	for (p = fmt; *p; p++) {
		const char *q;
		value_t *v = NULL;
		char name[64];
		size_t n;

		if (*p != '{')
			continue;
		if (p[1] == '{') {
			p++;
			continue;
		}
		for (q = p + 1; *q && !strchr(".[!:}", *q); q++)
			;
		n = (size_t)(q - (p + 1));
		if (n >= sizeof name)
			continue;
		memcpy(name, p + 1, n);
		name[n] = 0;
		if (!n)
			v = auto_i < nargs ? args[auto_i++] : NULL;
		else if (name[0] >= '0' && name[0] <= '9')
			v = (size_t)atoi(name) < nargs ? args[atoi(name)] : NULL;
		else
			v = kw ? vdict_gets(kw, name) : NULL;
		/* {x.attr} / {x[i]} read something else of x: not followed */
		if (v && (*q == ':' || *q == '}' || *q == '!') && v->k == VK_TENSOR && v->dev == DEV_DEVICE) {
			sev(f, SEV_SYNC, "str.format of a device tensor", site);
			return;
		}
		if (v && (*q == ':' || *q == '}' || *q == '!') && !maybe && alts_tensor_path(v) >= 0)
			maybe = v;
	}
	/* none on the device for certain; one on one path of an undecided
	 * `if` (alts.c): a row under that path's side */
	if (maybe)
		(void)alts_sync(f, maybe, "str.format of a device tensor on one path", site);
}

static value_t *m_str_format(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *r;

	if (self->k == VK_STR && f->mode != M_FWD)
		format_reads_device(f, self->u.str.s, args, nargs, kw, site);
	r = self->k == VK_STR && !kw_unk(kw, 1) ? str_format(in, self, args, nargs, kw) : NULL;
	return r ? r : unknown_at(f, site, "string formatting is not followed");
}

/* f.read() for a file open()ed at a path of the repository: its text. */
/* The text of a file of the job's tree that is no program file, read by
 * the job's text loader (open(path) in text mode: "\r\n" and "\r" read as
 * "\n").  The file object is read once: its position is not followed, so a
 * second read is unknown.  An unknown with the reason when the path is not
 * in the tree, the file is binary or too large, or the mode is binary. */
static value_t *file_text(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *nm = vdict_gets(self->u.inst->attrs, "name");
	value_t *mode = vdict_gets(self->u.inst->attrs, "mode");
	const char *why = NULL;
	value_t *r;
	char *data;
	size_t len = 0, i, o;

	if (!nm || nm->k != VK_STR)
		return unknown_at(f, site, "the text of a file ecg does not read");
	if (!mode || mode->k != VK_STR || strpbrk(mode->u.str.s, "wax+b"))
		return unknown_at(f, site, "a file not opened for reading text");
	if (vdict_gets(self->u.inst->attrs, "__ecg_read__"))
		return unknown_at(f, site, "a file read again (its position is not followed)");
	if (!in->load_text)
		return unknown_at(f, site, "text files are not read in this mode");
	data = in->load_text(in->load_text_ctx, nm->u.str.s, in->prog->entry_dir, &len, &why);
	if (!data) {
		note(in, anchor_at(f, site), afmt(in, "text file '%s'", nm->u.str.s), why ? why : "not read");
		return unknown_at(f, site, why ? why : "a text file ecg could not read");
	}
	vdict_sets(in->a, self->u.inst->attrs, "__ecg_read__", v_bool(in->a, 1));
	for (i = o = 0; i < len; i++) {
		if (data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')
			continue;
		data[o++] = data[i] == '\r' ? '\n' : data[i];
	}
	if ((r = too_big(f, VK_STR, o, site))) {
		free(data);
		return r;
	}
	r = v_strn(in->a, data, o);
	free(data);
	return r;
}

/* The lines of text s, each with its "\n" (str.splitlines(True) for "\n"
 * alone: a file's lines, universal newlines already made "\n"). */
static value_t *text_lines(struct frame *f, value_t *s)
{
	struct interp *in = f->in;
	value_t *r = v_seq(in->a, VK_LIST, 0);
	const char *p = s->u.str.s, *e = p + s->u.str.len;

	charge(f, 0, s->u.str.len);
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);

		if (r->u.seq->n >= MAX_ITEMS)
			return v_unknown(in->a, NULL, "a file of too many lines");
		vseq_push(in->a, r->u.seq, v_strn(in->a, p, n));
		p += n;
	}
	return r;
}

/* The lines of file object self (readlines(), `for line in f`), or an
 * unknown with the reason. */
value_t *file_lines(struct frame *f, value_t *self, const struct ast_hdr *site)
{
	value_t *t = file_text(f, self, site);

	return t->k == VK_STR ? text_lines(f, t) : t;
}

static value_t *m_file_readlines(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                 const struct ast_hdr *site)
{
	(void)kw;
	if (nargs)
		return unknown_at(f, site, "readlines() with a size hint");
	return file_lines(f, fn->u.bi.self, site);
}

/* f.write(s) of a file object: nothing is read; the count of characters
 * written is not known.  (A write to a text file is a logging call's:
 * jobctx.c log_sink.) */
static value_t *m_file_write(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                             const struct ast_hdr *site)
{
	(void)fn; (void)args; (void)nargs; (void)kw;
	return unknown_at(f, site, "the count write() returns");
}

int file_writes_text(const value_t *v)
{
	const value_t *mode;

	if (!v || v->k != VK_INST || !v->u.inst->ext || strcmp(v->u.inst->ext, "io.TextIOWrapper"))
		return 0;
	mode = vdict_gets(v->u.inst->attrs, "mode");
	return mode && mode->k == VK_STR && strpbrk(mode->u.str.s, "wax+") && !strchr(mode->u.str.s, 'b');
}

/* str.splitlines(): the lines without their ends ("\n", "\r\n", "\r";
 * the rarer separators Python also splits at make it unknown). */
static value_t *m_str_splitlines(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                                 const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self, *r;
	const char *p = self->u.str.s, *e = p + self->u.str.len, *q;

	if (nargs || (kw && kw->n))
		return unknown_at(f, site, "splitlines(keepends)");
	for (q = p; q < e; q++)
		if (strchr("\v\f\x1c\x1d\x1e\x85", *q) && *q)
			return unknown_at(f, site, "splitlines() of text with rare line separators");
	charge(f, 0, self->u.str.len);
	r = v_seq(in->a, VK_LIST, 0);
	while (p < e) {
		for (q = p; q < e && *q != '\n' && *q != '\r'; q++)
			;
		if (r->u.seq->n >= MAX_ITEMS)
			return unknown_at(f, site, "a text of too many lines");
		vseq_push(in->a, r->u.seq, v_strn(in->a, p, (size_t)(q - p)));
		p = q < e && *q == '\r' && q + 1 < e && q[1] == '\n' ? q + 2 : q + 1;
	}
	return r;
}

static value_t *m_file_read(struct frame *f, value_t *fn, value_t **args, size_t nargs, struct vdict *kw,
                            const struct ast_hdr *site)
{
	struct interp *in = f->in;
	value_t *self = fn->u.bi.self;
	value_t *nm = vdict_gets(self->u.inst->attrs, "name");
	struct sfile *sf = NULL;
	value_t *r;

	if (nm && nm->k == VK_STR) {
		sf = prog_file(in->prog, nm->u.str.s);
		if (!sf && in->prog->entry_dir[0]) {
			char *p = xasprintf("%s%s", in->prog->entry_dir, nm->u.str.s);

			sf = prog_file(in->prog, p);
			free(p);
		}
	}
	if (!sf)
		return nargs ? unknown_at(f, site, "read() of a part of a file") : file_text(f, self, site);
	prog_ensure(in->prog, sf);
	charge(f, 0, sf->len);
	r = v_strn(in->a, sf->src, sf->len);
	r->u.str.file = sf;
	return r;
}

/* The methods of lists, dicts and strings by name, in the manner of
 * CPython's list_methods[]: getattr_v() binds them to their value
 * (mk_builtin with self), call_builtin() runs them (natives_register). */
static const struct native list_methods[] = {
	{ "add", m_set_add, BI_M_SET_ADD },
	{ "append", m_list_append, BI_M_LIST_APPEND },
	{ "appendleft", m_deque_appendleft, BI_M_DEQUE_APPENDLEFT },
	{ "copy", m_copy, BI_M_COPY },
	{ "discard", m_list_remove, BI_M_SET_DISCARD },
	{ "extend", m_list_extend, BI_M_LIST_EXTEND },
	{ "insert", m_list_insert, BI_M_LIST_INSERT },
	{ "pop", m_list_pop, BI_M_LIST_POP },
	{ "remove", m_list_remove, BI_M_LIST_REMOVE },
	{ "union", m_set_union, BI_M_SET_UNION },
};

static const struct native dict_methods[] = {
	{ "copy", m_copy, BI_M_COPY },
	{ "get", m_dict_get, BI_M_DICT_GET },
	{ "items", m_dict_view, BI_M_DICT_ITEMS },
	{ "keys", m_dict_view, BI_M_DICT_KEYS },
	{ "merge_with", omegaconf_merge_with, BI_M_DICT_MERGE_WITH },   /* an OmegaConf DictConfig's */
	{ "pop", m_dict_pop, BI_M_DICT_POP },
	{ "setdefault", m_dict_setdefault, BI_M_DICT_SETDEFAULT },
	{ "update", m_dict_update, BI_M_DICT_UPDATE },
	{ "values", m_dict_view, BI_M_DICT_VALUES },
};

static const struct native str_methods[] = {
	{ "capitalize", m_str_recase, BI_M_STR_CAPITALIZE },
	{ "count", m_str_find, BI_M_STR_COUNT },
	{ "endswith", m_str_affix, BI_M_STR_ENDSWITH },
	{ "find", m_str_find, BI_M_STR_FIND },
	{ "format", m_str_format, BI_M_STR_FORMAT },
	{ "index", m_str_find, BI_M_STR_INDEX },
	{ "isalnum", m_str_is, BI_M_STR_ISALNUM },
	{ "isalpha", m_str_is, BI_M_STR_ISALPHA },
	{ "isdecimal", m_str_is, BI_M_STR_ISDIGIT },
	{ "isdigit", m_str_is, BI_M_STR_ISDIGIT },
	{ "islower", m_str_is, BI_M_STR_ISLOWER },
	{ "isnumeric", m_str_is, BI_M_STR_ISDIGIT },
	{ "isspace", m_str_is, BI_M_STR_ISSPACE },
	{ "isupper", m_str_is, BI_M_STR_ISUPPER },
	{ "join", m_str_join, BI_M_STR_JOIN },
	{ "lower", m_str_case, BI_M_STR_LOWER },
	{ "lstrip", m_str_strip, BI_M_STR_LSTRIP },
	{ "partition", m_str_partition, BI_M_STR_PARTITION },
	{ "removeprefix", m_str_remove_affix, BI_M_STR_REMOVEPREFIX },
	{ "removesuffix", m_str_remove_affix, BI_M_STR_REMOVESUFFIX },
	{ "replace", m_str_replace, BI_M_STR_REPLACE },
	{ "rfind", m_str_find, BI_M_STR_RFIND },
	{ "rindex", m_str_find, BI_M_STR_RINDEX },
	{ "rsplit", m_str_rsplit, BI_M_STR_RSPLIT },
	{ "rstrip", m_str_strip, BI_M_STR_RSTRIP },
	{ "split", m_str_split, BI_M_STR_SPLIT },
	{ "splitlines", m_str_splitlines, BI_M_STR_SPLITLINES },
	{ "startswith", m_str_affix, BI_M_STR_STARTSWITH },
	{ "strip", m_str_strip, BI_M_STR_STRIP },
	{ "swapcase", m_str_recase, BI_M_STR_SWAPCASE },
	{ "title", m_str_recase, BI_M_STR_TITLE },
	{ "upper", m_str_case, BI_M_STR_UPPER },
	{ "zfill", m_str_recase, BI_M_STR_ZFILL },
};

const struct ntab type_methods_ntab[3] = { NTAB(list_methods), NTAB(dict_methods), NTAB(str_methods) };

/* obj.<name> for a list, dict or str obj: the method bound to obj, or NULL. */
value_t *type_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;
	value_t *y;

	if (obj->k == VK_DICT && obj->u.dict->cfgnode && (y = yacs_method(in, obj, name)))
		return y;   /* a yacs CfgNode's own, before dict's (yacs.c) */
	m = obj->k == VK_LIST ? NTAB_FIND(list_methods, name)
	                         : obj->k == VK_DICT ? NTAB_FIND(dict_methods, name)
	                         : obj->k == VK_STR ? NTAB_FIND(str_methods, name) : NULL;

	return m ? mk_builtin(in, (int)m->id, obj) : NULL;
}

/* The methods of objects of outside classes that are emulated, by
 * "<class> <method>": ExitStack.enter_context (exitstack.c), a file's
 * read() and write(), os.environ's get() and
 * setdefault() (dict.get's), pathlib.Path's (pathlib.c). */
static const struct native ext_methods[] = {
	{ "contextlib.ExitStack enter_context", exitstack_enter, BI_M_EXITSTACK_ENTER },
	{ "io.TextIOWrapper read", m_file_read, BI_M_FILE_READ },
	{ "io.TextIOWrapper readlines", m_file_readlines, BI_M_FILE_READLINES },
	{ "io.TextIOWrapper write", m_file_write, BI_M_FILE_WRITE },
	{ "os.DirEntry is_dir", osdir_entry_query, BI_M_DIRENT_IS_DIR },
	{ "os.DirEntry is_file", osdir_entry_query, BI_M_DIRENT_IS_FILE },
	{ "os.environ get", m_dict_get, BI_M_DICT_GET },
	{ "os.environ setdefault", m_dict_get, BI_M_DICT_GET },
	{ "pathlib.Path absolute", path_m_same, BI_M_PATH_SAME },
	{ "pathlib.Path exists", path_m_query, BI_M_PATH_EXISTS },
	{ "pathlib.Path expanduser", path_m_same, BI_M_PATH_SAME },
	{ "pathlib.Path glob", path_m_glob, BI_M_PATH_GLOB },
	{ "pathlib.Path is_dir", path_m_query, BI_M_PATH_IS_DIR },
	{ "pathlib.Path is_file", path_m_query, BI_M_PATH_IS_FILE },
	{ "pathlib.Path joinpath", path_m_joinpath, BI_M_PATH_JOINPATH },
	{ "pathlib.Path open", path_m_open, BI_M_PATH_OPEN },
	{ "pathlib.Path read_text", path_m_read_text, BI_M_PATH_READ_TEXT },
	{ "pathlib.Path resolve", path_m_same, BI_M_PATH_SAME },
	{ "pathlib.Path with_name", path_m_with, BI_M_PATH_WITH_NAME },
	{ "pathlib.Path with_suffix", path_m_with, BI_M_PATH_WITH_SUFFIX },
};

const struct ntab ext_methods_ntab = NTAB(ext_methods);

/* obj.<name> for an instance of an outside class: the emulated method
 * bound to obj, or NULL. */
value_t *ext_method(struct interp *in, value_t *obj, const char *name)
{
	const struct native *m;
	char key[128];

	if ((size_t)snprintf(key, sizeof key, "%s %s", obj->u.inst->ext, name) >= sizeof key)
		return NULL;
	m = NTAB_FIND(ext_methods, key);
	return m ? mk_builtin(in, m->id, obj) : NULL;
}
