/* interp/exec.c - statements
 *
 * exec_stmt() runs one statement and says how control leaves it (enum
 * flow); exec_block() runs a body.  Loops run until their first iteration
 * has done what the mode looks for (job: called a model; forward: read
 * once per group of identical children, with a repeat count); an `if` on
 * an undecided condition runs both branches and merges what they bound
 * (merge_branches).  assign() binds targets, unpacking as Python does.
 */
#include "config.h"

#include "internal.h"

static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range);
static void while_widen(struct frame *f, struct vdict *d, const struct vdict *before, const char *cond,
                        value_t *const *keep, size_t nkeep);
static void widen_names(struct frame *f, struct vdict *d, const struct vdict *before, const char *cond,
                        value_t *const *keep, size_t nkeep, int rebound);
static void dict_save(struct interp *in, const struct vdict *d, struct vdict *out);
static void carry_reread(struct frame *f, const struct ast_hdr *target, value_t *item,
                         const struct ast_hdr *for_target, const struct ast_list *body,
                         const struct vdict *before, const char *cond, size_t first_sev);

/* ------------------------------------------------------------------ statements */

/* xs[lower:upper] of a list replaced by `with` (NULL: deleted), as Python
 * does; 0 when the bounds or the new items are not known (then the caller
 * makes the list's length unknown: leaving it unchanged would be wrong). */
static int list_splice(struct frame *f, struct vseq *seq, const struct ast_Slice *sl, value_t *with)
{
	struct interp *in = f->in;
	long long n = (long long)seq->n, lo = 0, hi = n, k;
	struct vseq *items = NULL, out = { 0 };
	int ok = 1;

	if (sl->step || seq->unk_reason)
		return 0;
	if (sl->lower)
		lo = as_int(eval(f, sl->lower), &ok);
	if (ok && sl->upper)
		hi = as_int(eval(f, sl->upper), &ok);
	if (!ok || (with && iter_items(f, with, &items)) || (with && !items))
		return 0;
	slice_bounds(n, &lo, &hi);
	if (hi < lo)
		hi = lo;
	for (k = 0; k < lo; k++)
		vseq_push(in->a, &out, seq->items[k]);
	for (k = 0; items && (size_t)k < items->n; k++)
		vseq_push(in->a, &out, items->items[k]);
	for (k = hi; k < n; k++)
		vseq_push(in->a, &out, seq->items[k]);
	seq->items = out.items;
	seq->n = out.n;
	seq->alloc = out.alloc;
	return 1;
}

/* t[idx] = v between the host and the device: a host tensor stored into
 * a device tensor is copied over (h2d), a device tensor into a host one
 * back (d2h); either place not known, or t a loader's batch that may be a
 * list (value.loose), no row. */
static void setitem_copy(struct frame *f, const value_t *dst, const value_t *v, const struct ast_hdr *site)
{
	struct sched_ev *e = NULL;

	if (dst->k != VK_TENSOR || v->k != VK_TENSOR || dst->loose)
		return;
	if (dst->dev == DEV_DEVICE && v->dev == DEV_HOST) {
		if ((e = sev(f, SEV_H2D, "t[...] = <host tensor>", site)))
			e->pinned = pin_state(v->pinned);
	} else if (dst->dev == DEV_HOST && v->dev == DEV_DEVICE) {
		e = sev(f, SEV_D2H, "t[...] = <device tensor>", site);
	}
	if (e)
		e->non_blocking = 0;
}

/* xs[i] = v with i not known (or past the representative items of a list
 * whose length is not known): any item may now be v.  Where an item and v
 * are both tensors the item becomes their join (its device where both
 * agree, the shape both share), so that `out = [torch.zeros((0, 6))] * n;
 * out[i] = x[j]` no longer states each item empty; other items are left
 * as they were. */
static void list_store_any(struct interp *in, struct vseq *seq, value_t *v)
{
	size_t i;

	if (v->k != VK_TENSOR)
		return;
	for (i = 0; i < seq->n; i++) {
		value_t *o = seq->items[i], *t;

		if (o == v || o->k != VK_TENSOR)
			continue;
		t = v_tensor_dev(in->a, o->dev == v->dev ? o->dev : DEV_UNKNOWN, pin_join(o->pinned, v->pinned));
		t->shape = shape_join(in->a, shape_of(o), shape_of(v));
		t->dt = o->dt == v->dt ? o->dt : DT_UNKNOWN;
		seq->items[i] = t;
	}
}

void assign(struct frame *f, const struct ast_hdr *t, value_t *v)
{
	struct interp *in = f->in;
	unsigned i;

	switch (t->kind) {
	case AST_Name:
		scope_bind(f, AST_AS(t, Name)->id, v);
		return;
	case AST_Attribute: {
		const struct ast_Attribute *a = AST_AS(t, Attribute);

		set_attr(f, eval(f, a->value), a->attr, v);
		return;
	}
	case AST_Subscript: {
		const struct ast_Subscript *s = AST_AS(t, Subscript);
		value_t *owner = NULL, *obj, *idx;
		int ok;
		long long k;

		/* x._modules[name] = v: Python registers v as x's child (the
		 * dict module_children_dict reads is a copy) */
		if (AST_IS(s->value, Attribute) && !strcmp(AST_AS(s->value, Attribute)->attr, "_modules")) {
			owner = eval(f, AST_AS(s->value, Attribute)->value);
			obj = getattr_v(f, owner, "_modules", s->value);
		} else
			obj = eval(f, s->value);
		idx = eval(f, s->slice);
		if (owner && owner->k == VK_INST && owner->u.inst->mod != VM_NONE) {
			module_store_child(f, owner->u.inst, idx, v, t);
			return;
		}
		if (itemproto_set(f, obj, idx, v, t))
			return;      /* obj[k] = v: its class's __setitem__ */
		if (is_tensorish(obj)) {
			hostints_forget(obj);
			emit_op(f, "Tensor.__setitem__", t);
			/* x[range(n), y] = v: the host index copied over, as a
			 * read's (eval.c) */
			index_host_copy(f, obj, idx, s->slice, t);
			index_mask_store(f, obj, idx, v, t);
			setitem_copy(f, obj, v, t);
		} else if (obj->k == VK_DICT && !value_is_known_key(idx)) {
			struct vdict *d = obj->u.dict;

			/* what is stored under keys not known: host data only? */
			if (d->anykey != 2)
				d->anykey = host_only(v, 0) ? 1 : 2;
			if (d->anyval && !alike_values(d->anyval, v))
				d->anymixed = 1;
			d->anyval = v;
			if (identity_key(idx))
				/* an object hashed by identity (a module, a
				 * handle): the key is this object, no other --
				 * d[obj] reads it back; the keys and length stay
				 * not known (a loop read once stored one) */
				vdict_set(in->a, d, idx, v);
			else
				clobber_dict(in->a, d,
				             afmt(in, "%s[%s] = ... with a key not known may set it", text_of(f, s->value),
				                  text_of(f, s->slice)));
		} else if (obj->k == VK_DICT) {
			journal_note_key(in, obj->u.dict, idx);
			vdict_set(in->a, obj->u.dict, idx, v);
		} else if (obj->k == VK_LIST && AST_IS(s->slice, Slice)) {
			journal_note_seq(in, obj->u.seq, 1);
			if (!list_splice(f, obj->u.seq, AST_AS(s->slice, Slice), v) && !obj->u.seq->unk_reason) {
				obj->u.seq->unk_expr = text_of(f, t);
				obj->u.seq->unk_reason = "a slice assigned with bounds or items not known";
			}
		} else if (obj->k == VK_LIST) {
			k = as_int(idx, &ok);
			if (ok && k < 0)
				k += (long long)obj->u.seq->n;
			if (ok && k >= 0 && (size_t)k < obj->u.seq->n) {
				journal_note_seq(in, obj->u.seq, 1);
				obj->u.seq->items[k] = v;
			} else if (!ok || obj->u.seq->unk_reason) {
				journal_note_seq(in, obj->u.seq, 1);
				list_store_any(in, obj->u.seq, v);
			}
		} else if (obj->k == VK_INST && obj->u.inst->mod == VM_CONTAINER) {
			module_store_child(f, obj->u.inst, idx, v, t);
		}
		return;
	}
	case AST_Tuple: case AST_List: {
		const struct ast_list *elts = t->kind == AST_Tuple ? &AST_AS(t, Tuple)->elts : &AST_AS(t, List)->elts;
		struct vseq *items = NULL;
		int star = -1;

		for (i = 0; i < elts->n; i++)
			if (AST_IS(elts->items[i], Starred))
				star = (int)i;
		/* a typing.NamedTuple instance unpacks as the tuple of its fields */
		if (v->k == VK_INST) {
			value_t *nt = nt_inst_tuple(f, v->u.inst);

			if (nt)
				v = nt;
		}
		/* a sequence, or an array whose first axis is known (its rows) */
		if ((v->k == VK_TUPLE || v->k == VK_LIST || (v->k == VK_UNKNOWN && v->arr_shape)) &&
		    !iter_items(f, v, &items) &&
		    (star >= 0 ? items->n + 1 >= elts->n : items->n == elts->n)) {
			size_t after = star >= 0 ? elts->n - (size_t)star - 1 : 0;

			for (i = 0; i < elts->n; i++) {
				if ((int)i == star) {
					value_t *rest = v_seq(in->a, VK_LIST, 0);
					size_t k;

					for (k = i; k < items->n - after; k++)
						vseq_push(in->a, rest->u.seq, items->items[k]);
					assign(f, AST_AS(elts->items[i], Starred)->value, rest);
				} else if (star >= 0 && (int)i > star) {
					assign(f, elts->items[i], items->items[items->n - (elts->n - i)]);
				} else {
					assign(f, elts->items[i], items->items[i]);
				}
			}
			return;
		}
		/* a tensor unpacks into tensors; anything else into unknowns */
		for (i = 0; i < elts->n; i++) {
			const struct ast_hdr *x = elts->items[i];

			if (AST_IS(x, Starred))
				x = AST_AS(x, Starred)->value;
			if ((v->k == VK_TUPLE || v->k == VK_LIST) && v->u.seq->unk_reason &&
			    !strcmp(v->u.seq->unk_reason, TENSOR_PIECES_REASON) && v->u.seq->n >= 1 &&
			    is_tensorish(v->u.seq->items[0]) && !AST_IS(elts->items[i], Starred)) {
				/* xmin, ymin, xmax, ymax = boxes.unbind(1): pieces of
				 * x, where x lives (how many not known) */
				assign(f, x, v_tensor_dev(in->a, v->u.seq->items[0]->dev, v->u.seq->items[0]->pinned));
			} else if ((v->k == VK_TUPLE || v->k == VK_LIST) && v->u.seq->unk_reason && !v->u.seq->prefix &&
			           v->u.seq->n == 1 && is_tensorish(v->u.seq->items[0]) &&
			           v->u.seq->items[0]->dev != DEV_UNKNOWN && !AST_IS(elts->items[i], Starred)) {
				/* x, y = [t.to(dev) for t in batch], the batch's
				 * items not known: a sequence of a length not known
				 * holds one representative item, which stands for
				 * each -- a tensor where it lives (its shape and
				 * dtype may differ from one item to the next) */
				assign(f, x, v_tensor_dev(in->a, v->u.seq->items[0]->dev, v->u.seq->items[0]->pinned));
			} else if (is_tensorish(v)) {
				/* rows of the tensor: its shape without dim 0 */
				value_t *row = v_tensor_dev(in->a, v->dev, v->pinned);
				const struct vshape *s = shape_of(v);

				if (s && s->nd >= 1 && s->n[0] == (long long)elts->n)
					row->shape = shape_index(in->a, s, v_int(in->a, 0));
				row->dt = v->dt;
				row->loose = v->loose;
				assign(f, x, row);
			} else if (v->k == VK_UNKNOWN && v->reason == size_unknown_reason && !v->alts) {
				/* h, w = x.shape[-2:]: Python ints (a starred one a list of them) */
				assign(f, x, v_unknown(in->a, text_of(f, x),
				                       AST_IS(elts->items[i], Starred) ? "unpacked from a value not known"
				                                                       : shape_dim_reason));
			} else {
				assign(f, x, v_unknown(in->a, text_of(f, x), v->reason ? v->reason : "unpacked from a value not known"));
			}
		}
		return;
	}
	case AST_Starred:
		assign(f, AST_AS(t, Starred)->value, v);
		return;
	default:
		return;
	}
}

/* ECG_TRACE_SHAPES=1 (a development aid): every assignment's value kind
 * and shape on stderr, "file:line: kind [dims]". */
static void trace_shape(struct frame *f, const struct ast_hdr *st, const value_t *v)
{
	const struct vshape *s = shape_of(v);
	unsigned i;

	if (!s && v->k == VK_UNKNOWN && v->arr_shape)   /* an array's shape known in part */
		s = v->arr_shape;
	fprintf(stderr, "shape %s:%d: k=%d dt=%d", f->file ? f->file->path : "?", st->line, (int)v->k, (int)v->dt);
	if (v->k == VK_TENSOR && v->dev)
		fputs(v->dev == DEV_DEVICE ? " dev" : " host", stderr);
	if (v->k == VK_TUPLE || v->k == VK_LIST)
		fprintf(stderr, " len=%zu%s", v->u.seq->n, v->u.seq->unk_reason ? "?" : "");
	if (s) {
		fputs(" [", stderr);
		for (i = 0; i < s->nd; i++) {
			if (s->n[i] >= 0)
				fprintf(stderr, "%s%lld", i ? ", " : "", s->n[i]);
			else
				fprintf(stderr, "%s%s", i ? ", " : "", s->sym[i] ? s->sym[i] : "?");
		}
		fputc(']', stderr);
	} else if (v->k == VK_UNKNOWN) {
		fprintf(stderr, " (%s)", v->reason ? v->reason : "");
	}
	fputc('\n', stderr);
}

/* A plain name or a chain of attributes of one: reading it runs nothing. */
static int is_pure_ref(const struct ast_hdr *e, int depth)
{
	if (depth > 8)
		return 0;
	if (AST_IS(e, Name))
		return 1;
	return AST_IS(e, Attribute) && is_pure_ref(AST_AS(e, Attribute)->value, depth + 1);
}

/* `B, T, C = x.size()` (or x.shape) names x's dims: where a dim of x is
 * not known, it takes the name the code gives it, and every shape built
 * from it later says "B" or "T". */
static void name_dims(struct frame *f, const struct ast_hdr *target, const struct ast_hdr *value)
{
	const struct ast_list *elts;
	const struct ast_hdr *x = NULL;
	const char *names[VSHAPE_MAX];
	const struct vshape *s;
	value_t *obj;
	size_t i;

	if (AST_IS(target, Tuple))
		elts = &AST_AS(target, Tuple)->elts;
	else if (AST_IS(target, List))
		elts = &AST_AS(target, List)->elts;
	else
		return;
	if (!elts->n || elts->n > VSHAPE_MAX)
		return;
	if (AST_IS(value, Attribute) && !strcmp(AST_AS(value, Attribute)->attr, "shape"))
		x = AST_AS(value, Attribute)->value;
	else if (AST_IS(value, Call) && !AST_AS(value, Call)->args.n && !AST_AS(value, Call)->keywords.n &&
	         AST_IS(AST_AS(value, Call)->func, Attribute) &&
	         !strcmp(AST_AS(AST_AS(value, Call)->func, Attribute)->attr, "size"))
		x = AST_AS(AST_AS(value, Call)->func, Attribute)->value;
	if (!x || !is_pure_ref(x, 0))
		return;
	for (i = 0; i < elts->n; i++) {
		const struct ast_hdr *t = elts->items[i];

		if (!AST_IS(t, Name))
			return;         /* *rest and the like: the rank is not known */
		/* `_`: the dim is still x's dim i, and says so */
		names[i] = strcmp(AST_AS(t, Name)->id, "_") ? AST_AS(t, Name)->id
		           : AST_IS(x, Name) ? afmt(f->in, "%s.shape[%zu]", AST_AS(x, Name)->id, i) : NULL;
	}
	obj = eval(f, x);
	if (obj->k != VK_TENSOR)
		return;
	s = shape_named(f->in->a, obj->shape, names, (unsigned)elts->n);
	if (s)
		obj->shape = s;
}

/* A loop body under repeat: forward mode records the multiplier. */
static enum flow run_body_once(struct frame *f, const struct ast_list *body, long long n, const char *expr,
                               const char *src, int via, const char *reason)
{
	long long om = f->mult.n;
	const char *oe = f->mult.expr, *os = f->mult.src, *orr = f->mult.reason;
	int ov = f->mult.via;
	unsigned ol = f->loop_serial;
	enum flow fl;

	if (n < 0 || om < 0) {
		f->mult.n = -1;
		f->mult.reason = reason ? reason : orr;
	} else if (n > 0 && om > LLONG_MAX / n) {
		f->mult.n = -1;
		f->mult.reason = "a repeat count too large to hold";
	} else {
		f->mult.n = om * n;
	}
	if (n != 1) {
		f->mult.expr = om != 1 && oe ? afmt(f->in, "%s * %s", oe, expr ? expr : "?") : expr;
		f->mult.src = src;
		f->mult.via = via;
		f->loop_serial = ++f->in->loop_serials;
	}
	fl = exec_block(f, body);
	f->loop_serial = ol;
	f->mult.n = om;
	f->mult.expr = oe;
	f->mult.src = os;
	f->mult.via = ov;
	f->mult.reason = orr;
	return fl == FL_BREAK || fl == FL_CONTINUE ? FL_NORMAL : fl;
}

/* The values the loop target's names are bound to (`x` of `for x in ...`,
 * `a` and `b` of `for a, (b, _) in ...`), at most max of them, into out;
 * returns how many.  A name not bound is skipped; never fails. */
#define MAX_TARGET_VALUES 8
static size_t target_values(struct frame *f, const struct ast_hdr *t, value_t **out, size_t max)
{
	const struct ast_list *elts = NULL;
	size_t n = 0, i;

	if (!t || !max)
		return 0;
	if (AST_IS(t, Name)) {
		value_t *v = lookup(f, AST_AS(t, Name)->id);

		if (v)
			out[n++] = v;
		return n;
	}
	if (AST_IS(t, Tuple))
		elts = &AST_AS(t, Tuple)->elts;
	else if (AST_IS(t, List))
		elts = &AST_AS(t, List)->elts;
	else if (AST_IS(t, Starred))
		return target_values(f, AST_AS(t, Starred)->value, out, max);
	for (i = 0; elts && i < elts->n && n < max; i++)
		n += target_values(f, elts->items[i], out + n, max - n);
	return n;
}

/* A job's `for` over a list not known of which some items are known
 * (value.some: the modules seen of a model's modules()): each of those
 * read, as a known list's are (`for m in model.modules():
 * m.register_forward_pre_hook(...)` registers on each), then the body
 * once more for the items not known; the loop's trip count not known;
 * what the body bound is not known after it. */
/* the most items a loop over items known one by one may have to be read
 * as a list of different passes (jctx item_list), not a repeated step */
#define ITEM_LIST_MAX 16

/* Is v a record of settings (a dict, an object: a GAN's phase with its
 * module and optimizer), or a tuple holding one (zip()'s)?  Not data: a
 * tensor, a number, a tuple of batches. */
static int is_record(const value_t *v)
{
	size_t i;

	if (v->k == VK_DICT || v->k == VK_INST)
		return 1;
	if (v->k == VK_TUPLE && !v->u.seq->unk_reason)
		for (i = 0; i < v->u.seq->n; i++)
			if (v->u.seq->items[i]->k == VK_DICT || v->u.seq->items[i]->k == VK_INST)
				return 1;
	return 0;
}

/* A loop over 2..ITEM_LIST_MAX items known one by one, each a record of
 * settings (`for phase in phases`): the parts of one step, not its
 * repetition (jctx item_list; schedule.c) */
static int item_list(const struct vseq *items)
{
	size_t i;

	if (!items || items->n < 2 || items->n > ITEM_LIST_MAX)
		return 0;
	for (i = 0; i < items->n; i++)
		if (!is_record(items->items[i]))
			return 0;
	return 1;
}

static enum flow exec_for_some(struct frame *f, const struct ast_For *s, value_t *it)
{
	struct interp *in = f->in;
	const struct jctx *ojc = f->jc;
	const char *omr = f->mult.reason, *ome = f->mult.expr;
	struct jctx *lj = jc_push_loop(f, &s->h, afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
	struct vdict snap;
	value_t *item[MAX_TARGET_VALUES];
	size_t nitem;
	enum flow fl;

	lj->trips = -1;
	lj->item_list = it->some_bound && item_list(it->some);
	dict_save(in, f->locals ? f->locals : f->globals->dict, &snap);
	f->jc = lj;
	f->mult.reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
	f->mult.expr = text_of(f, s->iter);
	fl = exec_for_items(f, s, it->some, NULL);
	/* and once for the items not known (a submodule of a library's
	 * model, whose modules are not seen): what they may bind -- a list
	 * appended to under a test on the item -- is not known either.  None
	 * when the items read are all there can be (some_bound: a zip() cut
	 * to a known list's length) */
	if (fl != FL_RETURN && fl != FL_RAISE && !it->some_bound) {
		assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "an item of those not known"));
		fl = exec_block(f, &s->body);
	}
	f->mult.reason = omr;
	f->mult.expr = ome;
	f->jc = ojc;
	if (fl == FL_RETURN || fl == FL_RAISE)
		return fl;
	nitem = target_values(f, s->target, item, MAX_TARGET_VALUES);
	while_widen(f, f->locals ? f->locals : f->globals->dict, &snap,
	            afmt(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)), item, nitem);
	/* the last item is none of those read */
	assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop's last item: its items are not all known"));
	return FL_NORMAL;
}

/* Does a statement list hold a `break` of the loop it is the body of
 * (nested loops' own excluded)? */
static int breaks_loop(const struct ast_list *b)
{
	unsigned i, j;

	for (i = 0; i < b->n; i++) {
		const struct ast_hdr *st = b->items[i];

		if (AST_IS(st, Break))
			return 1;
		if (AST_IS(st, If) && (breaks_loop(&AST_AS(st, If)->body) || breaks_loop(&AST_AS(st, If)->orelse)))
			return 1;
		if (AST_IS(st, With) && breaks_loop(&AST_AS(st, With)->body))
			return 1;
		if (AST_IS(st, Try)) {
			const struct ast_Try *t = AST_AS(st, Try);

			if (breaks_loop(&t->body) || breaks_loop(&t->orelse) || breaks_loop(&t->finalbody))
				return 1;
			for (j = 0; j < t->handlers.n; j++)
				if (AST_IS(t->handlers.items[j], ExceptHandler) &&
				    breaks_loop(&AST_AS(t->handlers.items[j], ExceptHandler)->body))
					return 1;
		}
	}
	return 0;
}

/* A known int of a name or constant, read without running anything. */
static int plain_int(struct frame *f, const struct ast_hdr *e, long long *out)
{
	value_t *v;

	if (!e || (!AST_IS(e, Name) && !AST_IS(e, Constant)))
		return 0;
	v = eval(f, e);
	if (v->k != VK_INT)
		return 0;
	*out = v->u.i;
	return 1;
}

/* After `for i, x in enumerate(it, start=S):` over an endless iterator
 * (iter_endless) whose body begins `if i >= B: break` (or `>`, `==`) and
 * breaks nowhere else: the loop ends only there, so i is B (at least S)
 * after it -- the job's `if i % N != 0:` after the loop is decided. */
static void loop_exit_counter(struct frame *f, const struct ast_For *s)
{
	const struct ast_Call *c;
	const struct ast_hdr *first = s->body.n ? s->body.items[0] : NULL, *src, *sx = NULL, *cnt;
	const struct ast_If *iff;
	const struct ast_Compare *cmp;
	long long start = 0, bound;
	unsigned i;
	value_t *itv;

	if (!AST_IS(s->iter, Call) || !AST_IS(AST_AS(s->iter, Call)->func, Name) ||
	    strcmp(AST_AS(AST_AS(s->iter, Call)->func, Name)->id, "enumerate") || !AST_IS(s->target, Tuple) ||
	    AST_AS(s->target, Tuple)->elts.n != 2 || !AST_IS(AST_AS(s->target, Tuple)->elts.items[0], Name))
		return;
	c = AST_AS(s->iter, Call);
	if (c->args.n < 1 || c->args.n > 2 || !AST_IS(c->args.items[0], Name))
		return;
	src = c->args.items[0];
	if (c->args.n == 2)
		sx = c->args.items[1];
	for (i = 0; i < c->keywords.n; i++) {
		const struct ast_keyword *k = AST_AS(c->keywords.items[i], keyword);

		if (!k->arg || strcmp(k->arg, "start"))
			return;
		sx = k->value;
	}
	if (sx && !plain_int(f, sx, &start))
		return;
	cnt = AST_AS(s->target, Tuple)->elts.items[0];
	if (!first || !AST_IS(first, If))
		return;
	iff = AST_AS(first, If);
	if (iff->orelse.n || iff->body.n != 1 || !AST_IS(iff->body.items[0], Break) || !AST_IS(iff->test, Compare))
		return;
	cmp = AST_AS(iff->test, Compare);
	if (cmp->ops.n != 1 || !AST_IS(cmp->left, Name) || strcmp(AST_AS(cmp->left, Name)->id, AST_AS(cnt, Name)->id) ||
	    !plain_int(f, cmp->comparators.items[0], &bound))
		return;
	{
		struct ast_list rest = s->body;

		rest.items++;
		rest.n--;
		if (breaks_loop(&rest))
			return;
	}
	itv = eval(f, src);
	if (!iter_endless(f, itv))
		return;
	switch (cmp->ops.items[0]) {
	case AST_CMP_GTE:
		assign(f, cnt, v_int(f->in->a, start > bound ? start : bound));
		break;
	case AST_CMP_GT:
		assign(f, cnt, v_int(f->in->a, start > bound + 1 ? start : bound + 1));
		break;
	case AST_CMP_EQ:
		if (start <= bound)
			assign(f, cnt, v_int(f->in->a, bound));
		break;
	default:
		break;
	}
}

/* The events a forward's loop over known items made (sev[from ..]), the
 * iterations' first events at starts[0 .. n-1], starts[n] the end: each
 * event of this frame's own lines (a helper's are its own runs, which
 * schedule.c adds up) is the first of its line in the loop, so it
 * counts for every iteration that made one at that line -- or for a
 * count not known when the loop was left early (a break, a raise: the
 * later items' passes were not read). */
static void fwd_unrolled(struct frame *f, size_t from, const size_t *starts, size_t n, int cut)
{
	struct interp *in = f->in;
	const void *me = f->locals ? (const void *)f->locals : (const void *)f->globals;
	size_t j, k, it;

	if (n < 2 && !cut)
		return;
	for (j = from; j < starts[n] && j < in->nsev; j++) {
		struct sched_ev *e = &in->sev[j];
		long long times = 0;
		int seen = 0;

		if (!e->in_forward || e->frame != me || !e->anchor)
			continue;
		for (k = from; k < j && !seen; k++)
			seen = in->sev[k].kind == e->kind && in->sev[k].frame == me && in->sev[k].anchor &&
			       !strcmp(in->sev[k].anchor, e->anchor);
		if (seen)
			continue;
		for (it = 0; it < n; it++)
			for (k = starts[it] > j ? starts[it] : j; k < starts[it + 1] && k < in->nsev; k++)
				if (in->sev[k].kind == e->kind && in->sev[k].frame == me && in->sev[k].anchor &&
				    !strcmp(in->sev[k].anchor, e->anchor)) {
					times++;
					break;
				}
		e->fwd_mult = cut ? -1 : runs_times(e->fwd_mult, times);
	}
}

static enum flow exec_for(struct frame *f, const struct ast_For *s)
{
	struct interp *in = f->in;
	value_t *it = eval(f, s->iter);
	struct vseq *items = NULL;
	value_t *why;
	size_t i;

	if (f->mode == M_FWD) {
		const char *expr = text_of(f, s->iter);

		/* a container of modules: one pass per group of identical children */
		if (it->k == VK_INST && it->u.inst->mod == VM_CONTAINER && it->u.inst->nchildren) {
			struct vinst *m = it->u.inst;
			value_t *unk = vdict_gets(m->attrs, "__ecg_len_unknown__");
			size_t *starts, ng = container_groups(in, m, &starts), g;
			enum flow fl = FL_NORMAL;

			value_t *le = vdict_gets(m->attrs, "__ecg_len_expr__");
			value_t *ls = vdict_gets(m->attrs, "__ecg_len_src__");
			value_t *lv = vdict_gets(m->attrs, "__ecg_len_via__");
			const char *lexpr = le ? le->u.str.s : afmt(in, "len(%s)", expr);
			const char *lsrc = ls ? ls->u.str.s : m->constructed_at;

			for (g = 0; g < ng && fl != FL_RETURN && fl != FL_RAISE; g++) {
				struct vinst *rep = m->children[starts[g]].inst;
				size_t lo = starts[g], hi = starts[g + 1];

				value_t *item = m->ext && !strcmp(m->ext, "torch.nn.ModuleDict")
				                ? v_str(in->a, m->children[lo].name) : mk_inst_value(in, rep);

				if (m->enumerated) {
					value_t *pair = v_seq(in->a, VK_TUPLE, 2);
					value_t *idx = hi - lo == 1 ? v_int(in->a, (long long)lo)
					               : v_unknown(in->a, "the index", "the loop counter");

					/* enumerate's count is a Python int >= 0, never a
					 * tensor: `register_blk == i` with register_blk -1
					 * is False, a test of it no branch on the device */
					if (idx->k == VK_UNKNOWN) {
						idx->nonneg = FACT_NONNEG_INT;
						idx->plain = 1;
					}
					vseq_push(in->a, pair->u.seq, idx);
					vseq_push(in->a, pair->u.seq, item);
					item = pair;
				}
				assign(f, s->target, item);
				fl = run_body_once(f, &s->body, unk ? -1 : (long long)(hi - lo),
				                   ng == 1 ? lexpr : afmt(in, "children %zu..%zu of %s", lo, hi - 1, expr),
				                   lsrc, ls && lv && lv->k == VK_INT ? (int)lv->u.i : VIA_DEFAULT,
				                   unk ? (unk->reason ? unk->reason : "the container's length is not known") : NULL);
			}
			free(starts);
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}
		/* range(n) with n known: n iterations, however many (the body is
		 * read once either way) */
		if (it->k == VK_RANGE && range_len(it) > MAX_UNROLL) {
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, range_len(it), it->expr ? it->expr : expr, it->src, it->via, NULL);
		}
		/* range(n), n <= MAX_UNROLL: the same, without making the n
		 * items (only the first and the count are used below; making
		 * them cost ~7 MB a loop, and a fuzzed job of nested loops 3.7
		 * GB) */
		if (it->k == VK_RANGE) {
			long long n = range_len(it);

			if (n <= 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? v_int(in->a, it->u.range.start)
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		/* enumerate/zip over a container: the same, with the index unknown */
		why = iter_items(f, it, &items);
		if (!why && items && it->k != VK_RANGE && items->n <= MAX_FWD_UNROLL) {
			/* zip(self.layers, self.windows), enumerate(...), a list:
			 * each iteration is read with its own items; the module
			 * tree merges what repeats at the same call site, and
			 * the schedule counts an event of this frame's lines
			 * once per iteration that made it (fwd_unrolled) */
			size_t from = in->nsev, *starts = xcalloc(items->n + 1, sizeof *starts);
			enum flow fl = FL_NORMAL;

			for (i = 0; i < items->n; i++) {
				starts[i] = in->nsev;
				assign(f, s->target, items->items[i]);
				fl = exec_block(f, &s->body);
				if (fl == FL_BREAK || fl == FL_RETURN || fl == FL_RAISE)
					break;
			}
			starts[i < items->n ? i + 1 : i] = in->nsev;
			fwd_unrolled(f, from, starts, i < items->n ? i + 1 : i,
			             (fl == FL_BREAK || fl == FL_RAISE) && i + 1 < items->n);
			free(starts);
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}
		if (!why && items) {
			long long n = (long long)items->n;

			/* items of equal kind: one pass with the first */
			if (n == 0)
				return FL_NORMAL;
			assign(f, s->target, n == 1 ? items->items[0]
			                    : items->items[0]->k == VK_INST ? items->items[0]
			                    : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
			return run_body_once(f, &s->body, n, it->k == VK_RANGE && it->expr ? it->expr : afmt(in, "len(%s)", expr),
			                     it->src, it->via, NULL);
		}
		/* a list or tuple of a length not known (made by one loop or
		 * comprehension): its representative item, as in job code --
		 * `for pred in result` with result's dicts built by one loop
		 * keeps their keys (`"masks" in pred` is decided) */
		{
			value_t *rep = it->k == VK_LIST || it->k == VK_TUPLE ? iter_rep_item(f, it) : NULL;

			assign(f, s->target, rep ? rep : v_unknown(in->a, text_of(f, s->target), "the loop variable"));
		}
		return run_body_once(f, &s->body, -1, expr, NULL, VIA_DEFAULT,
		                     afmt(in, "the trip count of `for ... in %s` is not known%s%s", expr,
		                          why && why->reason ? ": " : "", why && why->reason ? why->reason : ""));
	}
	/* A range is iterated without making its items first: a loop that
	 * stops after one iteration (below) would otherwise have made up to
	 * MAX_UNROLL of them (~7 MB), again at each of its executions. */
	{
		/* `for x in obj` of a repository class whose __iter__ is a
		 * generator (a prefetching loader's copies to the device):
		 * the generator it makes, read as each item is taken */
		value_t *g = iter_dunder_gen(f, it, &s->h);

		if (g)
			it = g;
	}
	it = gen_import_items(f, it, &s->h);
	if (it->k == VK_RANGE && range_len(it) <= MAX_UNROLL) {
		why = NULL;
		items = NULL;
	} else
		why = iter_items(f, it, &items);
	if (why)
		in->approx++;
	if (why && ((it->k == VK_UNKNOWN && it->some && it->some->n) ||
	            (it->k == VK_LIST && it->some_bound && it->some && it->some->n)))
		return exec_for_some(f, s, it);
	if (why) {
		/* read the body once; lists built in it have an unknown length */
		const char *omr = f->mult.reason, *ome = f->mult.expr;
		enum flow fl;
		const struct jctx *ojc = f->jc;
		const char *ol = f->loop_anchor;
		const struct ast_For *olf = f->loop_for;
		int from_loader = is_loader(it);
		struct vdict snap;
		struct jctx *lj;
		value_t *item[MAX_TARGET_VALUES];
		size_t nitem;

		lj = jc_push_loop(f, &s->h, afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)));
		f->jc = lj;
		if (from_loader) {
			value_t *batch = loader_batch(f, it->u.inst, afmt_memo(in, "for ... in %s", text_of(f, s->iter), NULL), &s->h);

			f->mult.reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
			f->mult.expr = text_of(f, s->iter);
			if (it->u.inst->enumerated) {
				value_t *pair = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the batch index", "a loop counter"));
				vseq_push(in->a, pair->u.seq, batch);
				batch = pair;
			}
			assign(f, s->target, batch);
			f->loop_anchor = lj->anchor;
			f->loop_for = s;
			{
				struct carry cy = { &s->body, &snap, 0, f->carry, NULL, 0, s->target, f->carry != NULL };
				size_t first_sev = in->nsev;

				dict_save(in, f->locals ? f->locals : f->globals->dict, &snap);
				f->carry = &cy;
				fl = exec_block(f, &s->body);
				f->carry = cy.up;
				/* a test decided on a counter at its value from
				 * before the loop: a later iteration read too */
				if (cy.hit && fl != FL_RETURN && fl != FL_RAISE)
					carry_reread(f, NULL, NULL, s->target, &s->body, &snap,
					             afmt(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)),
					             first_sev);
			}
			f->loop_anchor = ol;
			f->loop_for = olf;
			f->mult.reason = omr;
			f->mult.expr = ome;
			f->jc = ojc;
			/* read once for a number of batches not known: what the
			 * body bound is not known after it either */
			if (fl != FL_RETURN && fl != FL_RAISE) {
				nitem = target_values(f, s->target, item, MAX_TARGET_VALUES);
				while_widen(f, f->locals ? f->locals : f->globals->dict, &snap,
				            afmt(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)),
				            item, nitem);
			}
			return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
		}

		f->mult.reason = afmt_memo(in, "built in a loop over %s, whose length is not known", text_of(f, s->iter), NULL);
		f->mult.expr = text_of(f, s->iter);
		f->loop_anchor = anchor_at(f, &s->h);
		f->loop_for = s;
		dict_save(in, f->locals ? f->locals : f->globals->dict, &snap);
		if (is_gen_value(it)) {
			/* a repo generator: each item is what its first yield gives
			 * (paired with an index by gen_next() under enumerate());
			 * its body under a JC_GEN marker (jobctx.c's gen_reroot) */
			f->jc = jc_push(f, JC_GEN, lj->anchor, lj->text);
			assign(f, s->target, gen_next(f, it->u.inst, &s->h));
			f->jc = lj;
			/* as many trips as the generator's code pins items
			 * (genitems.c), or not known */
			lj->trips = gen_loop_trips(s, it->u.inst);
		}
		else if (iter_self_next(f, it)) {
			/* an iterator object of a repository class (its __iter__
			 * returns itself): what its __next__ gives, read in
			 * the loop (with an index under enumerate()) */
			value_t *x = next_dunder(f, it, &s->h);

			if (it->u.inst->enumerated) {
				value_t *pair = v_seq(in->a, VK_TUPLE, 2);

				vseq_push(in->a, pair->u.seq, v_unknown(in->a, "the index", "a loop counter"));
				vseq_push(in->a, pair->u.seq, x);
				x = pair;
			}
			assign(f, s->target, x);
		}
		else if (iter_rep_item(f, it))
			/* a sequence of unknown length, a host tensor: its
			 * representative item */
			assign(f, s->target, iter_rep_item(f, it));
		else if (enumerate_unknown_pair(f, it, s->target))
			/* `for i, x in enumerate(items not known)`: i an int >= 0 */
			assign(f, s->target, enumerate_unknown_pair(f, it, s->target));
		else
			assign(f, s->target, v_unknown(in->a, text_of(f, s->target), why->reason ? why->reason : "the loop variable"));
		nitem = target_values(f, s->target, item, MAX_TARGET_VALUES);
		{
			struct carry cy = { &s->body, &snap, 0, f->carry, NULL, 0, s->target, f->carry != NULL };
			size_t first_sev = in->nsev;
			struct dict_refill rf;

			f->carry = &cy;
			(void)refill_begin(f, s, &rf);    /* d[k] = ... over d's items (dictrefill.c) */
			fl = exec_block(f, &s->body);
			refill_end(&rf, fl);
			f->carry = cy.up;
			/* a test decided on a counter at its value from before
			 * the loop: a later iteration read too */
			if (cy.hit && fl != FL_RETURN && fl != FL_RAISE)
				carry_reread(f, NULL, NULL, s->target, &s->body, &snap,
				             afmt(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)), first_sev);
		}
		f->loop_anchor = ol;
		f->loop_for = olf;
		f->mult.reason = omr;
		f->mult.expr = ome;
		f->jc = ojc;
		/* read once for a trip count not known: what it bound is not known */
		if (fl != FL_RETURN && fl != FL_RAISE) {
			while_widen(f, f->locals ? f->locals : f->globals->dict, &snap,
			            afmt(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)),
			            item, nitem);
			loop_exit_counter(f, s);
		}
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	{
		/* a known iterable: its trip count is known too */
		struct jctx *lj = jc_push_loop(f, &s->h, afmt_memo(in, "for %s in %s", text_of(f, s->target),
		                                                   text_of(f, s->iter)));
		const struct jctx *ojc = f->jc;
		enum flow fl = FL_NORMAL;

		lj->trips = items ? (long long)items->n : range_len(it);
		lj->item_list = it->k != VK_RANGE && item_list(items);
		if (it->k == VK_RANGE && it->expr)
			lj->period_expr = it->expr;     /* for a loop: the trip count's expression */
		f->jc = lj;
		fl = exec_for_items(f, s, items, items ? NULL : it);
		f->jc = ojc;
		return fl;
	}
}

/* ---- does one iteration say what every one does? */

/* Does the expression read a name that the target binds (`m` of `for m in
 * model.modules()`, `d` of `for i, (d, m) in ...`)?  Nested lambdas and
 * comprehensions count: they read it too. */
struct names_walk {
	const struct ast_hdr *target;
};

static int target_binds(const struct ast_hdr *t, const char *id)
{
	unsigned i;

	if (!t)
		return 0;
	if (AST_IS(t, Name))
		return !strcmp(AST_AS(t, Name)->id, id);
	if (AST_IS(t, Tuple)) {
		for (i = 0; i < AST_AS(t, Tuple)->elts.n; i++)
			if (target_binds(AST_AS(t, Tuple)->elts.items[i], id))
				return 1;
	} else if (AST_IS(t, List)) {
		for (i = 0; i < AST_AS(t, List)->elts.n; i++)
			if (target_binds(AST_AS(t, List)->elts.items[i], id))
				return 1;
	} else if (AST_IS(t, Starred)) {
		return target_binds(AST_AS(t, Starred)->value, id);
	}
	return 0;
}

static int reads_target_cb(const struct ast_hdr *n, void *ctx)
{
	const struct names_walk *w = ctx;

	if (AST_IS(n, Name))
		return target_binds(w->target, AST_AS(n, Name)->id);
	return ast_visit_children(n, reads_target_cb, ctx);
}

static int reads_target(const struct ast_hdr *e, const struct ast_hdr *target)
{
	struct names_walk w = { target };

	return e && target && reads_target_cb(e, &w);
}

/* Did an event since `from` that the schedule counts happen on a branch
 * decided by the loop's item? */
static int item_cond_events(const struct interp *in, size_t from)
{
	size_t i;

	for (i = from; i < in->nsev; i++)
		if (in->sev[i].item_cond && sev_is_runtime(in->sev[i].kind))
			return 1;
	return 0;
}

/* 1: f runs a class's __init__ (a method named so, with a self) */
static int in_constructor(const struct frame *f)
{
	size_t n = f->qualname ? strlen(f->qualname) : 0;

	return f->self && n > 9 && !strcmp(f->qualname + n - 9, ".__init__");
}

/* After a job loop of n known iterations (exec_for_items) read whole
 * (before NULL) or cut short -- read one iteration for all, or stopped by
 * the budget -- with before the frame's names from before it: what the
 * iterations read changed is not what the last iteration leaves, so the
 * names they bound anew, the attributes and dict entries they set and the
 * lists they changed are not known (while_widen, journal_close_loop);
 * a plain target is bound to the last item, as Python leaves it. */
static void loop_cut_widen(struct frame *f, const struct ast_For *s, struct attr_journal *lj,
                           const struct vdict *before, const struct vseq *items, const value_t *range, size_t n)
{
	struct interp *in = f->in;
	const char *cond = before ? afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)) : NULL;

	journal_close_loop(in, lj, cond, alike_items(items));
	if (!before)
		return;
	widen_names(f, f->locals ? f->locals : f->globals->dict, before, cond, NULL, 0, 1);
	if (n && (AST_IS(s->target, Name) || AST_IS(s->target, Tuple)) && (items || range))
		assign(f, s->target, items ? items->items[n - 1]
		                     : v_int(in->a, (long long)((__int128)range->u.range.start +
		                                                (__int128)(n - 1) * range->u.range.step)));
}

/* The loop over items->items, or (items NULL) over the values of `range`,
 * made one at a time. */
static enum flow exec_for_items(struct frame *f, const struct ast_For *s, struct vseq *items, const value_t *range)
{
	struct interp *in = f->in;
	size_t i, n = items ? items->n : (size_t)(range_len(range) > 0 ? range_len(range) : 0);
	int cut = 0;   /* iterations a decided `continue` cut short */
	size_t quiet = 0;   /* iterations read that made no event */
	const struct ast_hdr *oit = f->item_target;
	enum flow ret = FL_NORMAL;
	struct carry cy;
	struct vdict snap;
	int carried = f->mode != M_FWD && !in_constructor(f) && n > 1;
	int widen = carried;   /* a cut short leaves what the loop changed not known */
	size_t cut_at = 0;     /* the iterations read when the loop was cut short (0: not) */
	struct attr_journal lj;

	if (carried) {
		journal_open_loop(in, &lj);
		dict_save(in, f->locals ? f->locals : f->globals->dict, &snap);
		cy.body = &s->body;
		cy.before = &snap;
		cy.up = f->carry;
		cy.target = s->target;
		cy.later = 0;
		cy.for_target = s->target;
		cy.inner = f->carry != NULL;
		f->carry = &cy;
	}
	f->item_target = s->target;
	for (i = 0; i < n; i++) {
		long long before = in->job_events;
		size_t sev_before = in->nsev;
		enum flow fl;
		const char *ol = f->loop_anchor;
		const struct ast_For *olf = f->loop_for;

		if (!budget(f)) {
			cut_at = i + 1;
			break;
		}
		cy.hit = 0;
		assign(f, s->target, items ? items->items[i]
		                     : v_int(in->a, (long long)((__int128)range->u.range.start +
		                                                (__int128)i * range->u.range.step)));
		f->loop_anchor = anchor_at(f, &s->h);
		f->loop_for = s;
		fl = exec_block(f, &s->body);
		f->loop_anchor = ol;
		f->loop_for = olf;
		if (fl == FL_BREAK)
			break;
		if (fl == FL_RETURN || fl == FL_RAISE) {
			f->item_target = oit;
			if (carried)
				f->carry = cy.up;
			if (widen)
				journal_close_loop(in, &lj, NULL, 0);
			return fl;
		}
		/* a training or serving loop: one iteration says what it does;
		 * so does any loop whose body copies, syncs, talks to other
		 * ranks or loads data -- the schedule records it once, with the
		 * loop around it, not once per iteration.  Not an iteration
		 * that a decided `continue` cut short (a warm-up iteration,
		 * `if i == -1: continue`): the next one reads the rest of the
		 * body (once: its events at the same anchors are recorded once) */
		/* ... but not a constructor's loop: each of its iterations
		 * builds a part of the object (a submodule appended to a
		 * ModuleList, its buffer moved by .cuda()), so one read for
		 * all would leave the object with its first part alone (llama's
		 * Transformer.__init__: one TransformerBlock of n_layers) */
		if ((in->job_events != before || (f->mode != M_FWD && runtime_events(in, sev_before))) &&
		    items && mixed_items(items)) {
			/* items of different kinds take different branches:
			 * each is read (mixeditems.c); an event of some items
			 * only is not counted by the trips */
			if (f->jc && f->jc->kind == JC_LOOP)
				((struct jctx *)f->jc)->trips = -1;
			continue;
		}
		if ((in->job_events != before || (f->mode != M_FWD && runtime_events(in, sev_before))) &&
		    !in_constructor(f) && !(fl == FL_CONTINUE && !cut++)) {
			/* read once for all: the trip count is each event's count
			 * only when every iteration does what this one did -- not
			 * after iterations that did nothing (`if isinstance(m,
			 * nn.Conv2d)` false for the first items, an item not known:
			 * a dict's key set on one path of an undecided `if`), the
			 * last item's included (`if k == "c"` of ["a", "b", "c"]
			 * runs once, not three times), nor when an `if` on the
			 * item may turn the other way for later ones */
			if (f->jc && f->jc->kind == JC_LOOP &&
			    (quiet || (i + 1 < n && item_cond_events(in, sev_before))))
				((struct jctx *)f->jc)->trips = -1;
			/* ... and when it decided a test on a counter at its
			 * value from before the loop, a later iteration is
			 * read too (carry_reread): the last one itself when
			 * it is the only one left (`for i, dl in
			 * enumerate(loaders)` of two loaders: `if i == 0`
			 * decided, and dl the second loader), else one with
			 * the loop variable not known */
			if (carried && cy.hit && i + 1 < n) {
				value_t *next = i + 2 != n ? v_unknown(in->a, text_of(f, s->target), "the loop variable")
				                : items ? items->items[i + 1]
				                : v_int(in->a, (long long)((__int128)range->u.range.start +
				                                           (__int128)(i + 1) * range->u.range.step));

				f->carry = cy.up;
				carried = 0;
				f->loop_anchor = anchor_at(f, &s->h);
				carry_reread(f, s->target, next, s->target,
				             &s->body, &snap,
				             afmt_memo(in, "for %s in %s", text_of(f, s->target), text_of(f, s->iter)),
				             sev_before);
				f->loop_anchor = ol;
			}
			if (i + 1 < n)
				cut_at = i + 1;
			break;
		}
		if (in->job_events == before && !runtime_events(in, sev_before))
			quiet++;
	}
	if (carried)
		f->carry = cy.up;
	if (cut_at)
		in->approx++;   /* the later iterations not read */
	if (widen)
		loop_cut_widen(f, s, &lj, cut_at ? &snap : NULL, items, range, n);
	f->item_target = oit;
	if (s->orelse.n)
		ret = exec_block(f, &s->orelse);
	return ret;
}

static void dict_save(struct interp *in, const struct vdict *d, struct vdict *out)
{
	out->n = d->n;
	out->alloc = d->n;
	out->a = in->a;
	out->ix = NULL;
	out->keys = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->keys);
	out->vals = ast_arena_alloc(in->a, (d->n + 1) * sizeof *out->vals);
	if (d->n) {
		memcpy(out->keys, d->keys, d->n * sizeof *out->keys);
		memcpy(out->vals, d->vals, d->n * sizeof *out->vals);
	}
}

/* d becomes a copy of from (a dict_save() or a merge of them: no key
 * twice), in place. */
static void dict_restore(struct interp *in, struct vdict *d, const struct vdict *from)
{
	if (d->alloc < from->n) {
		size_t na = from->n < 8 ? 8 : from->n;

		d->keys = ast_arena_alloc(in->a, na * sizeof *d->keys);
		d->vals = ast_arena_alloc(in->a, na * sizeof *d->vals);
		d->alloc = na;
	}
	if (from->n) {
		memcpy(d->keys, from->keys, from->n * sizeof *d->keys);
		memcpy(d->vals, from->vals, from->n * sizeof *d->vals);
	}
	d->n = from->n;
	vdict_truncated(d);   /* its positions are other keys now */
}

/* a and b both what torch.load (or a loader of its kind) read, with no
 * alternatives of their own */
static int loaded_pair(const value_t *a, const value_t *b)
{
	return a->k == VK_UNKNOWN && b->k == VK_UNKNOWN && !a->alts && !b->alts && IS_LOADED_REASON(a->reason) &&
	       IS_LOADED_REASON(b->reason);
}

/* The join of two paths' values of one name or attribute (key) that are
 * both what a load read (loaded_pair; torch.hub.load_state_dict_from_url
 * on one path, torch.load on the other; or the loaded object on one path
 * and a loaded class's from_dict of it on the other): loaded from a file
 * either way, on the host when both say so (the place when both name the
 * same one).  NULL when a and b are not such a pair.  Shared by
 * merge_branches (names) and journal.c (attributes). */
value_t *loaded_join(struct interp *in, const char *key, const value_t *a, const value_t *b)
{
	value_t *r;

	if (!a || !b || !loaded_pair(a, b))
		return NULL;
	r = v_unknown(in->a, key, !strcmp(a->reason, b->reason) ? a->reason : LOADED_OBJECT_REASON);
	r->dev = a->dev == b->dev ? a->dev : DEV_UNKNOWN;
	return r;
}

/* What the other path of an undecided `if` bound to a name where this
 * one bound a module: anything but nothing, None or a plain value may be
 * another module, or hold parameters (another module, a value not known). */
int other_path_holds(const value_t *v)
{
	return v && v->k != VK_NONE && !value_is_known_scalar(v);
}

/* After both paths of an undecided `if`: d holds the else path's names.
 * A name both paths left alike keeps its value; tensors stay tensors; two
 * dicts of the same keys stay one dict of them (dictjoin.c); a
 * module built on one path is kept (it is conditional, and says so); two
 * library modules in the same place stay one (libvalues.c); two
 * objects loaded from files stay loaded (on the host if both are); any
 * other difference is unknown, depending on the condition (cond: its
 * text_of(), interned). */
static void merge_branches(struct frame *f, struct vdict *d, const struct vdict *before,
                           const struct vdict *body, const char *cond)
{
	struct interp *in = f->in;
	struct vdict merged;
	size_t i, p = 0, lim = before->n;

	/* The names bound before the `if` keep their places (and key
	 * objects) on both paths, unless one deleted a name: over that
	 * common prefix the three dicts are read by position, not looked up
	 * (a module's few hundred names, at every undecided `if`). */
	if (body->n < lim)
		lim = body->n;
	if (d->n < lim)
		lim = d->n;
	while (p < lim && body->keys[p] == before->keys[p] && d->keys[p] == before->keys[p])
		p++;
	dict_save(in, d, &merged);
	for (i = 0; i < p; i++)
		if (!merged.vals[i])
			merged.vals[i] = body->vals[i];
	for (i = p; i < body->n; i++)
		if (!vdict_get(&merged, body->keys[i]))
			vdict_set(in->a, &merged, body->keys[i], body->vals[i]);
	for (i = 0; i < merged.n; i++) {
		value_t *k = merged.keys[i];
		value_t *a, *b, *o;
		value_t *r;

		if (i < p) {
			a = body->vals[i];
			b = d->vals[i];
			o = before->vals[i];
		} else {
			a = vdict_get(body, k);
			b = vdict_get(d, k);
			o = vdict_get(before, k);
		}

		if (!a)
			a = o;
		if (!b)
			b = o;
		if (a == b || (a && b && value_is_known_scalar(a) && value_key_eq(a, b)) || lazy_same(a, b))
			continue;      /* (two equal tuples of known scalars too) */
		if (a && b && a->k == VK_TENSOR && b->k == VK_TENSOR) {
			r = tensor_join(in, a, b);
		} else if ((r = arr_join(in, a, b))) {
			/* two arrays of one rank */
		} else if (lazy_none_pair(a, b)) {
			r = lazy_none_join(in, cond, a, b);   /* a value and None */
		} else if (a && b && (r = tensor_seqs_join(f, a, b))) {
			/* two batches of tensors, one per path (a cycling
			 * iterator's next() and its restart's) */
		} else if ((r = dict_pair_join(in, a, b, cond))) {
			/* two dicts of the same keys (dictjoin.c) */
		} else if (a && a->k == VK_INST && a->u.inst->mod != VM_NONE) {
			r = a;
			if (other_path_holds(b))
				module_alt_other(in, a->u.inst, b->k == VK_INST ? b->u.inst : NULL);
		} else if (b && b->k == VK_INST && b->u.inst->mod != VM_NONE) {
			r = b;
			if (other_path_holds(a))
				module_alt_other(in, b->u.inst, a->k == VK_INST ? a->u.inst : NULL);
		} else if (a && b && alts_scalar_pair(a, b)) {
			r = v_alts_scalars(in, cond, a, b);  /* Python scalars or None: alts.c */
		} else if (a && b && ((alts_object(a) && (alts_object(b) || b->k == VK_NONE)) ||
		                      (a->k == VK_NONE && alts_object(b)) || alts_callable_pair(a, b) ||
		                      alts_group_pair(a, b) || alts_dev_scalar_pair(a, b) || alts_seq_pair(a, b) ||
		                      alts_seq_other_pair(a, b) ||
		                      alts_scalar_pair(a, b) || devchoice_pair(a, b))) {
			r = v_alts(f, cond, a, b);  /* both objects kept: alts.c */
		} else if (!a || !b) {
			r = a ? a : b;      /* bound on one path only: it exists if that path ran */
		} else if (libv_same_place_modules(a, b)) {
			/* MllamaForConditionalGeneration.from_pretrained(p) on one
			 * path, LlamaForCausalLM.from_pretrained(p) on the other: a
			 * library's module either way, in the same place (its class
			 * is not read in either case) */
			r = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL, a->reason);
		} else if ((r = loaded_join(in, k->k == VK_STR ? k->u.str.s : NULL, a, b))) {
			/* loaded from a file on both paths */
		} else {
			r = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL,
			              afmt_memo(in, "depends on `%s`, which is not decided here", cond, NULL));
			r->may_none = a->k == VK_NONE || b->k == VK_NONE || a->may_none || b->may_none;
		}
		merged.vals[i] = r;
	}
	dict_restore(in, d, &merged);
}

/* `if args.every > 0 and it % args.every == 0` with every -1: a part of
 * the `and` that does not depend on the iteration is false, so the guard
 * is false on every iteration, not only on the one read.  Only names,
 * attributes, comparisons, `not`, and isinstance(x, T) of those (T a
 * name or a tuple of names: open-instruct's `isinstance(checkpointing_steps,
 * int) and completed_steps % checkpointing_steps == 0` with None) are
 * evaluated again (no other call). */
static int pure_test(const struct ast_hdr *e, int depth)
{
	unsigned i;

	if (!e || depth > 8)
		return 0;
	switch (e->kind) {
	case AST_Name: case AST_Constant:
		return 1;
	case AST_Tuple:
		for (i = 0; i < AST_AS(e, Tuple)->elts.n; i++)
			if (!pure_test(AST_AS(e, Tuple)->elts.items[i], depth + 1))
				return 0;
		return 1;
	case AST_Call: {
		const struct ast_Call *c = AST_AS(e, Call);

		return AST_IS(c->func, Name) && !strcmp(AST_AS(c->func, Name)->id, "isinstance") &&
		       c->args.n == 2 && !c->keywords.n && !AST_IS(c->args.items[0], Starred) &&
		       pure_test(c->args.items[0], depth + 1) && pure_test(c->args.items[1], depth + 1);
	}
	case AST_Attribute:
		return pure_test(AST_AS(e, Attribute)->value, depth + 1);
	case AST_UnaryOp:
		return pure_test(AST_AS(e, UnaryOp)->operand, depth + 1);
	case AST_Compare: {
		const struct ast_Compare *c = AST_AS(e, Compare);

		for (i = 0; i < c->comparators.n; i++)
			if (!pure_test(c->comparators.items[i], depth + 1))
				return 0;
		return pure_test(c->left, depth + 1);
	}
	default:
		return 0;
	}
}

int test_pure(const struct ast_hdr *e)
{
	return pure_test(e, 0);
}

/* `not is_accumulating and step_count % n == 0`: an `and` one of whose
 * operands is the test of a library accumulation's step end
 * (framework_step_end_test): what it guards is tested on the pass that
 * ends a step only. */
static int step_end_and(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_BoolOp *b;
	unsigned k;

	if (!AST_IS(test, BoolOp) || AST_AS(test, BoolOp)->op != AST_BOOL_AND)
		return 0;
	b = AST_AS(test, BoolOp);
	for (k = 0; k < b->values.n; k++)
		if (framework_step_end_test(f, b->values.items[k]))
			return 1;
	return 0;
}

int guard_dead(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_BoolOp *b;
	unsigned i;

	/* `if should_test:` after `should_test = (freq > 0) and (i % freq == 0)`
	 * in the loop (guardflag.c): the flag's test, read here */
	if (AST_IS(test, Name)) {
		const struct ast_hdr *bound = flag_bound_test(f, AST_AS(test, Name), 0);

		return bound && guard_dead(f, bound);
	}
	/* `if step % 300 == 0` in a loop that breaks at step 200 (guardrange.c) */
	if (guard_out_of_range(f, test))
		return 1;
	if (!AST_IS(test, BoolOp) || AST_AS(test, BoolOp)->op != AST_BOOL_AND)
		return 0;
	b = AST_AS(test, BoolOp);
	for (i = 0; i < b->values.n; i++) {
		const struct ast_hdr *v = b->values.items[i];

		if (framework_step_end_test(f, v))
			continue;       /* true on the pass that ends a step */
		if (!find_modulo(f, v, 0) && pure_test(v, 0) && value_truth(eval(f, v)) == 0)
			return 1;
		if (guard_dead(f, v))   /* `(a > 0 and i % a == 0) and b`: a's test */
			return 1;
	}
	return 0;
}

/* `while x is not None` (or `is None`) where x is now unknown: whether the
 * loop goes on is not known, though `unknown is None` reads as False
 * elsewhere; read as true, the loop would run MAX_UNROLL times over the
 * same unknowns (a walk down `module = getattr(module, "module", None)`).
 * Only a name or attribute chain is evaluated again (no call). */
static int while_test_unknown_none(struct frame *f, const struct ast_hdr *test)
{
	const struct ast_Compare *c;
	const struct ast_hdr *l, *r;
	value_t *v;

	if (!AST_IS(test, Compare))
		return 0;
	c = AST_AS(test, Compare);
	if (c->ops.n != 1 || c->comparators.n != 1 ||
	    (c->ops.items[0] != AST_CMP_IS && c->ops.items[0] != AST_CMP_ISNOT))
		return 0;
	l = c->left;
	r = c->comparators.items[0];
	if (AST_IS(l, Constant) && !AST_IS(r, Constant)) {
		const struct ast_hdr *t = l;

		l = r;
		r = t;
	}
	if (!AST_IS(r, Constant) || !pure_test(l, 0))
		return 0;
	v = eval(f, r);
	if (v->k != VK_NONE)
		return 0;
	return eval(f, l)->k == VK_UNKNOWN;
}

/* After a `while` not followed to its end: a name the body bound anew
 * is unknown (tensors stay tensors, modules stay modules), since the
 * iterations not read would bind it again. */
static void while_widen(struct frame *f, struct vdict *d, const struct vdict *before, const char *cond,
                        value_t *const *keep, size_t nkeep)
{
	widen_names(f, d, before, cond, keep, nkeep, 0);
}

/* The same; rebound 1: a name bound again to an equal number or str is
 * not known either (a loop cut short: `best = i` bound 0 over 0 by its
 * first iteration, the later ones bind other values). */
static void widen_names(struct frame *f, struct vdict *d, const struct vdict *before, const char *cond,
                        value_t *const *keep, size_t nkeep, int rebound)
{
	struct interp *in = f->in;
	size_t i, j;

	for (i = 0; i < d->n; i++) {
		value_t *k = d->keys[i], *a = d->vals[i];
		value_t *o = i < before->n && before->keys[i] == k ? before->vals[i] : vdict_get(before, k);

		if (!a || a == o || (!rebound && o && value_is_known_scalar(a) && value_key_eq(a, o)))
			continue;
		for (j = 0; j < nkeep && keep[j] != a; j++)
			;
		if (j < nkeep)
			continue;       /* the loop's item (`final = x`): what the last iteration bound */
		if (loop_keeps_kind(a))
			continue;       /* tensors, modules, objects, functions keep their kind, and
			                   tuples/lists of them (loopkeep.c) */
		d->vals[i] = v_unknown(in->a, k->k == VK_STR ? k->u.str.s : NULL,
		                       afmt_memo(in, "assigned in `%s`, whose iterations are not all read", cond, NULL));
		d->vals[i]->plain = loop_number(o, a);   /* a counter: a Python number still */
	}
}

/* A generator's yield reached: the loops of its body around it (this
 * frame's, up to where it was called) make one item an iteration
 * (jctx.gen_items): what they do is the taking of an item. */
static void mark_gen_items(struct frame *f)
{
	const struct jctx *c;

	for (c = f->jc; c && c != f->jc_entry; c = c->up)
		if (c->kind == JC_LOOP)
			((struct jctx *)c)->gen_items = 1;
}

/* Is e the only event of its kind at its line among in->sev[lo..hi)?
 * (A helper's line reached on two paths in one reading is two events:
 * which of the first reading's is the second's is not known.) */
static int sev_line_once(const struct interp *in, size_t lo, size_t hi, const struct sched_ev *e)
{
	size_t i, n = 0;

	for (i = lo; i < hi; i++)
		n += in->sev[i].kind == e->kind && in->sev[i].anchor && !strcmp(in->sev[i].anchor, e->anchor);
	return n == 1;
}

/* After the first reading of a job loop's body (from event first_sev),
 * when it decided a test on a name the body binds at its value from
 * before the loop (carry.c): the body read again as a later iteration
 * runs it -- the names it changed not known (while_widen), the loop's
 * target bound to `item` when not NULL.  What the second reading records
 * at a line the first reading recorded already is that event again (a
 * copy of it: the schedule counts it once), in the second reading's
 * context when that adds an undecided test (carry_cond_added); a model's forward called
 * again there is the same call, its events' counts the first reading's.
 * What the second reading returns or raises is not this loop's flow. */
static void carry_reread(struct frame *f, const struct ast_hdr *target, value_t *item,
                         const struct ast_hdr *for_target, const struct ast_list *body,
                         const struct vdict *before, const char *cond, size_t first_sev)
{
	struct interp *in = f->in;
	struct vdict *d = f->locals ? f->locals : f->globals->dict;
	size_t n0 = in->nsev, j, k;
	long long *mult = xcalloc(n0 + 1, sizeof *mult);
	value_t *oret = f->ret;
	struct carry *oc = f->carry, later = { body, before, 0, NULL, NULL, 1, for_target, oc != NULL };

	for (j = 0; j < n0; j++)
		mult[j] = in->sev[j].fwd_mult;
	while_widen(f, d, before, cond, NULL, 0);
	if (target && item)
		assign(f, target, item);
	f->carry = &later;
	(void)exec_block(f, body);
	f->carry = oc;
	f->ret = oret;
	for (j = 0; j < n0 && j < in->nsev; j++)
		in->sev[j].fwd_mult = mult[j];
	free(mult);
	for (j = n0; j < in->nsev; j++)
		for (k = first_sev; k < n0; k++)
			if (in->sev[k].kind == in->sev[j].kind && in->sev[k].anchor && in->sev[j].anchor &&
			    !strcmp(in->sev[k].anchor, in->sev[j].anchor)) {
				/* under a test the first reading decided on a
				 * value from before the loop: the later passes'
				 * context, with that condition */
				if (!in->sev[k].in_forward && !in->sev[j].in_forward &&
				    carry_cond_added(in->sev[k].ctx, in->sev[j].ctx, f->jc) &&
				    sev_line_once(in, first_sev, n0, &in->sev[k]) &&
				    sev_line_once(in, n0, in->nsev, &in->sev[j]))
					in->sev[k].ctx = in->sev[j].ctx;
				in->sev[j] = in->sev[k];
				break;
			}
	/* what the first reading bound and the second did not change is
	 * what every iteration binds; the rest is not known */
	while_widen(f, d, before, cond, NULL, 0);
}

/* In a forward, is the test `X.training` (1) or `not X.training` (2) of a
 * model the job calls both in training and in eval mode (attr.c's
 * TRAINING_BOTH_MODES)?  Then its body runs in one mode only, its else in
 * the other.  0 otherwise (`self.training and x` included).  Reading the
 * attribute again changes nothing.  Never fails. */
int training_test(struct frame *f, const struct ast_hdr *test)
{
	int neg = 0;
	value_t *v;

	if (f->mode != M_FWD)
		return 0;
	if (AST_IS(test, UnaryOp) && AST_AS(test, UnaryOp)->op == AST_UNARY_NOT) {
		test = AST_AS(test, UnaryOp)->operand;
		neg = 1;
	}
	if (!AST_IS(test, Attribute) || strcmp(AST_AS(test, Attribute)->attr, "training"))
		return 0;
	v = eval(f, test);
	if (v->k != VK_UNKNOWN || !v->reason || strcmp(v->reason, TRAINING_BOTH_MODES))
		return 0;
	return neg ? 2 : 1;
}

/* How a path of an undecided `if` (or a handler) left, for journal_close. */
static int jpath_left(enum flow fl)
{
	return fl == FL_RAISE ? JPATH_RAISED : fl == FL_RETURN ? JPATH_RETURNED : 0;
}

/* A JC_COND of a path that runs in mode `mode` only (training_test; 0:
 * either). */
const struct jctx *cond_ctx(struct frame *f, const struct ast_hdr *at, const char *text, int mode)
{
	struct jctx *j = (struct jctx *)jc_push(f, JC_COND, anchor_at(f, at), text);

	j->mode_only = mode;
	return j;
}

static enum flow exec_if(struct frame *f, const struct ast_If *s)
{
	const struct ast_hdr *otn = f->test_node;
	value_t *tv;

	f->test_node = s->test;    /* only its truth is used (eval.c's BoolOp) */
	tv = eval(f, s->test);
	f->test_node = otn;
	int t = value_truth(tv);
	const char *oc = f->cond.text;
	int ot = f->cond.taken;
	enum flow fl, fl2;
	const char *text;
	int mode;
	const struct jctx *last = NULL;   /* last_iter_ctx()'s context (NULL: none */
	int is_last;                      /* around the loop), when it is one */

	if (is_tensorish(tv)) {
		if (device_truth(tv))
			sev(f, SEV_SYNC, afmt(f->in, "if %s (a branch on a device tensor)", text_of(f, s->test)), &s->h);
		t = -1;
	} else if (alts_sync(f, tv, afmt(f->in, "if %s (a branch on a device tensor on one path)", text_of(f, s->test)),
	                     &s->h)) {
		t = -1;
	}
	/* `if not is_accumulating:` on a library's sync-skip flag that varies
	 * between micro-steps: the micro-step that ends a step, whatever
	 * the one reading computed */
	if ((t == 0 || t == 1) && framework_step_end_test(f, s->test))
		t = -1;
	if ((t == 0 || t == 1) && carry_later_undecided(f, s->test))
		t = -1;
	/* `if step % n != 0: continue` on the pass counter: true on some
	 * passes, false on every n-th (contguard.c) */
	if ((t == 0 || t == 1) && continue_guard_if(f, s))
		t = -1;
	/* undecided, or false on the iteration read: true on the loop's
	 * last one when it is a flag the loop breaks on (firstiter.c
	 * last_iter_ctx; its block is read in that context below) */
	is_last = t != 1 && f->mode != M_FWD && last_iter_ctx(f, s->test, &last);
	if (is_last)
		t = -1;
	if (t == 0 || t == 1)
		carry_decided(f, s->test);
	else
		f->in->approx++;
	text = test_text(f, s->test, tv);
	devchoice_test(f, tv, text);
	/* `if it % N == 0` in job code: periodic.  ecg reads one iteration;
	 * when `it` there skips the guard, the guarded code is still read (a
	 * constructor's `if i % 2 == 0` keeps its meaning: it is not job code;
	 * neither is a module's method.  A trainer's method is) */
	/* undecided (a later pass's counter not known), but the loop's own
	 * bound never lets it hold (guardrange.c): false on every pass */
	if (t == -1 && !is_last && f->mode != M_FWD && guard_out_of_range(f, s->test))
		t = 0;
	if (f->mode != M_FWD && find_modulo(f, s->test, 0)) {
		const struct jctx *ojc = f->jc;
		enum flow gfl;
		int ctor = f->cls && (f->cls->is_module || (f->qualname && strstr(f->qualname, "__init__")));

		if (t == 1 || (t == 0 && !ctor && f->loop_anchor && !guard_dead(f, s->test))) {
			if (step_end_and(f, s->test))
				f->jc = jc_push(f, JC_STEP_END, anchor_at(f, &s->h), text);
			f->jc = guard_ctx(f, s->test, text);
			gfl = exec_block(f, &s->body);
			f->jc = ojc;
			if (t == 1)
				return gfl;
			/* t == 0: the else branch runs on the other iterations */
			return exec_block(f, &s->orelse);
		}
	}
	if (!f->locals && f->globals == f->in->entry_ns && !f->in->ev.main_guard && strstr(text, "__name__") &&
	    strstr(text, "__main__"))
		f->in->ev.main_guard = anchor_at(f, &s->h);
	if (t == 1 && f->mode != M_FWD) {
		/* `if i == 0:` read in the loop's first iteration (a known
		 * count, read one iteration for all): the block runs once each
		 * time the loop runs, the else branch on the other iterations
		 * (firstiter.c) */
		const struct jctx *first, *ojc = f->jc;

		if (first_iter_ctx(f, s->test, &first) || first_flag_ctx(f, s, &first)) {
			f->jc = first;
			fl = exec_block(f, &s->body);
			f->jc = ojc;
			if (fl != FL_NORMAL || !s->orelse.n)
				return fl;
			return exec_block(f, &s->orelse);
		}
	}
	if (t == 1 || t == 0) {
		/* decided by the item of a loop read one iteration for all:
		 * another item may decide it the other way */
		int by_item = f->mode != M_FWD && reads_target(s->test, f->item_target);
		struct carry *c;

		/* ... so a later iteration is read too, its item not known
		 * (`if step > 0:` false at a range's first value: exec_for_items
		 * carry_reread) */
		for (c = f->mode != M_FWD ? f->carry : NULL; c; c = c->up)
			if (c->target && reads_target(s->test, c->target))
				c->hit = 1;
		/* ... and so it is when the test reads a parameter given such
		 * an item by the caller (itemargs.c) */
		itemargs_test(f, s->test);

		if (f->mode == M_FWD) {
			f->cond.text = t ? text : afmt_memo(f->in, "not (%s)", text, NULL);
			f->cond.taken = 1;
		}
		const struct jctx *ojc = f->jc;

		f->item_cond += by_item;
		if (f->jc && one_shot_if(f, s, t))
			f->jc = jc_push(f, JC_ONCE, anchor_at(f, &s->h), text);
		fl = exec_block(f, t ? &s->body : &s->orelse);
		f->jc = ojc;
		f->item_cond -= by_item;
		f->cond.text = oc;
		f->cond.taken = ot;
		return fl;
	}
	f->cond.text = text;
	f->cond.taken = -1;
	mode = training_test(f, s->test);
	{
		const struct jctx *ojc = f->jc;
		struct vdict *d = f->locals ? f->locals : f->globals->dict;
		struct vdict snap, after_body;

		/* Each branch starts from the same names; afterwards a name
		 * bound differently on the two paths is what the condition
		 * decides (see merge_branches). */
		value_t *oret = f->ret, *body_ret;
		struct attr_journal aj;        /* attribute writes: journal.c */
		struct narrowing nwn;           /* `x is [not] None` of a name (narrow.c) */

		const struct jctx *first;

		dict_save(f->in, d, &snap);
		/* `if i == 0:` on the loop's own counter: the first iteration,
		 * once each time the loop runs (firstiter.c); a library's
		 * end-of-step flag (`if accelerator.sync_gradients:`): once a
		 * step; in a forward too, the schedule events of a path are
		 * under its condition (the work of one pipeline stage only) */
		if (f->mode != M_FWD && first_iter_ctx(f, s->test, &first)) {
			f->jc = first;
			/* `i == 0 and X`, X not decided: X stays a condition */
			if (AST_IS(s->test, BoolOp))
				f->jc = cond_ctx(f, &s->h, text, mode);
		}
		else if (is_last)
			f->jc = last;
		else if (f->mode != M_FWD && (framework_step_flag(f->in, tv) || framework_step_end_test(f, s->test)))
			f->jc = jc_push(f, JC_STEP_END, anchor_at(f, &s->h), text);  /* once a step */
		else {
			if (f->mode != M_FWD && step_end_and(f, s->test))
				f->jc = jc_push(f, JC_STEP_END, anchor_at(f, &s->h), text);
			f->jc = f->mode != M_FWD ? guard_ctx(f, s->test, text) : cond_ctx(f, &s->h, text, mode);
			if (f->jc != ojc && f->jc->kind == JC_COND && carry_reads_bound(f, s->test))
				((struct jctx *)f->jc)->carried = 1;
			/* `if all_done: ...; break`: once, as the loop is left */
			f->jc = loop_exit_ctx(f, &s->body, &s->h, text);
		}
		journal_open(f->in, &aj);
		narrow_none_attr(f, s->test, 1);   /* `if self.x is not None:` */
		(void)narrow_none_name(f, s->test, 1, &nwn);   /* `if x is not None:` */
		fl = exec_block(f, &s->body);
		narrow_leave(f, &nwn);
		/* a return on one path only: kept aside (ret_note_alt) */
		body_ret = fl == FL_RETURN ? f->ret : NULL;
		f->ret = oret;
		dict_save(f->in, d, &after_body);
		dict_restore(f->in, d, &snap);
		journal_after_body(f->in, &aj);
		/* the else path is under "not (test)" alone: the body's context
		 * (the test itself) is no parent of it */
		f->jc = ojc;
		f->jc = cond_ctx(f, &s->h, afmt_memo(f->in, "not (%s)", text, NULL), mode ? 3 - mode : 0);
		if (carry_reads_bound(f, s->test))
			((struct jctx *)f->jc)->carried = 1;
		f->cond.text = afmt_memo(f->in, "not (%s)", text, NULL);
		narrow_none_attr(f, s->test, 0);   /* the else of `if self.x is None:` */
		(void)narrow_none_name(f, s->test, 0, &nwn);   /* the else of `if x is None:` */
		fl2 = exec_block(f, &s->orelse);
		narrow_leave(f, &nwn);
		f->jc = ojc;
		journal_close(f->in, &aj, text, jpath_left(fl), jpath_left(fl2));
		if (fl == FL_RETURN && fl2 == FL_RETURN) {
			f->ret = ret_join(f, body_ret, f->ret, text);
		} else if (fl == FL_RETURN) {
			if (fl2 != FL_RAISE)
				ret_note_alt(f, body_ret, text);
			else
				f->ret = body_ret;
		} else if (fl2 == FL_RETURN && fl != FL_RAISE) {
			ret_note_alt(f, f->ret, f->cond.text);
			f->ret = oret;
		}
		if (fl == FL_RETURN || fl == FL_RAISE)
			;                                     /* only the else path goes on */
		else if (fl2 == FL_RETURN || fl2 == FL_RAISE)
			dict_restore(f->in, d, &after_body);  /* only the body's */
		else
			merge_branches(f, d, &snap, &after_body, text);
	}
	f->cond.text = oc;
	f->cond.taken = ot;
	/* One path leaves the block (`if ws < 2: return x`): the rest of the
	 * block runs only on the other, under its condition (exec_block puts
	 * the context back at its end).  Not for a path that raises (a check
	 * of the input): the run described is the one that goes on.  Nor for
	 * the loop's own exit test (`if last_step: break`, carry_varies): the
	 * rest runs on every iteration that goes on. */
	if ((fl == FL_NORMAL) != (fl2 == FL_NORMAL) && fl != FL_RAISE && fl2 != FL_RAISE &&
	    !((fl == FL_BREAK || fl2 == FL_BREAK) && carry_varies(f, s->test))) {
		const char *rest = fl == FL_NORMAL ? text : afmt_memo(f->in, "not (%s)", text, NULL);
		const struct jctx *before_rest = f->jc, *g;

		/* `if step % n != 0: continue` on the loop's pass counter: the
		 * rest runs every n passes, a periodic guard (contguard.c) */
		if (fl == FL_CONTINUE && fl2 == FL_NORMAL && (g = continue_guard_ctx(f, s->test, rest)))
			f->jc = g;
		else
			f->jc = cond_ctx(f, &s->h, rest, !mode ? 0 : fl == FL_NORMAL ? mode : 3 - mode);
		/* on a loop-carried name (a `continue` on a counter the body
		 * advances): a later iteration's reading keeps this
		 * condition on the rest (carry.c carry_cond_added) */
		if (f->mode != M_FWD && f->jc != before_rest && f->jc->kind == JC_COND && carry_reads_bound(f, s->test))
			((struct jctx *)f->jc)->carried = 1;
		f->cond.text = rest;
		f->cond.taken = -1;
		f->rest_cond = rest;
	}
	/* both paths end the block only if both do */
	if (fl == FL_RETURN && fl2 == FL_RETURN)
		return FL_RETURN;
	if ((fl == FL_RAISE || fl == FL_RETURN) && (fl2 == FL_RAISE || fl2 == FL_RETURN))
		return fl == FL_RETURN ? FL_RETURN : fl2;
	return FL_NORMAL;
}

/* Python's own method decorators, by name (sorted: NTAB_FIND), and the
 * flag of struct vfunc each one sets. */
static const struct method_deco {
	const char *name;
	size_t flag;                  /* offsetof an int of struct vfunc */
} method_decos[] = {
	{ "classmethod", offsetof(struct vfunc, is_classmethod) },
	{ "property", offsetof(struct vfunc, is_property) },
	{ "staticmethod", offsetof(struct vfunc, is_static) },
};

/* The methods type makes classmethods without a decorator (sorted). */
static const char *const implicit_classmethods[] = { "__class_getitem__", "__init_subclass__" };

const struct ntab method_decos_ntab = NTAB(method_decos);
const struct ntab implicit_classmethods_ntab = NTAB(implicit_classmethods);

/* def and async def: the function bound to its name after its decorators
 * (torch and web-framework ones read by decorator_hooks(), then those of
 * the repository run, innermost first). */
static enum flow exec_funcdef(struct frame *f, const struct ast_hdr *st)
{
	unsigned i;
	const char *name = st->kind == AST_FunctionDef ? AST_AS(st, FunctionDef)->name
	                                                : AST_AS(st, AsyncFunctionDef)->name;
	const struct ast_list *decos = st->kind == AST_FunctionDef ? &AST_AS(st, FunctionDef)->decorator_list
	                                                           : &AST_AS(st, AsyncFunctionDef)->decorator_list;
	value_t *fv = make_function(f, st, name);

	/* type makes these two classmethods without a decorator */
	if (f->cls && f->locals == f->cls->ns && fv->k == VK_FUNC &&
	    NAME_IN(implicit_classmethods, name))
		fv->u.fn->is_classmethod = 1;
	for (i = 0; i < decos->n; i++) {
		const struct ast_hdr *d = decos->items[i];

		decorator_hooks(f, fv, st, d);
		if (AST_IS(d, Name)) {
			const struct method_deco *md = NTAB_FIND(method_decos, AST_AS(d, Name)->id);

			if (md)
				*(int *)((char *)fv->u.fn + md->flag) = 1;
		}
	}
	/* @<name>.setter / @<name>.deleter of a property of this class body:
	 * a new property with the same getter (and this setter), as
	 * property.setter() makes one */
	if (decos->n == 1 && AST_IS(decos->items[0], Attribute) && AST_IS(AST_AS(decos->items[0], Attribute)->value, Name) &&
	    (!strcmp(AST_AS(decos->items[0], Attribute)->attr, "setter") ||
	     !strcmp(AST_AS(decos->items[0], Attribute)->attr, "deleter"))) {
		value_t *pv = eval(f, AST_AS(decos->items[0], Attribute)->value);

		if (pv->k == VK_FUNC && pv->u.fn->is_property && fv->k == VK_FUNC) {
			value_t *nv = ast_arena_alloc(f->in->a, sizeof *nv);
			struct vfunc *nf = ast_arena_alloc(f->in->a, sizeof *nf);

			*nf = *pv->u.fn;
			if (!strcmp(AST_AS(decos->items[0], Attribute)->attr, "setter"))
				nf->setter = fv->u.fn;
			*nv = *pv;
			nv->u.fn = nf;
			scope_bind(f, name, nv);
			return FL_NORMAL;
		}
	}
	/* Decorators written in the repository run, innermost first, as
	 * Python runs them: @register_model fills a registry.  What one
	 * returns is the function's value if it is a function; anything
	 * else keeps the function itself (a wrapper ecg cannot see into
	 * still calls it). */
	{
		value_t *cur = fv;
		unsigned k;

		for (k = decos->n; k-- > 0;) {
			value_t *dv = eval(f, decos->items[k]);
			value_t *r;

			if (dv->k == VK_INST && dv->u.inst->ext && !strcmp(dv->u.inst->ext, "functools.wraps") &&
			    cur->k == VK_FUNC) {
				/* @functools.wraps(w): this function, showing w's names
				 * (update_wrapper sets them on it and hands it back) */
				cur->u.fn->wraps = vdict_gets(dv->u.inst->attrs, "wrapped");
				continue;
			}
			if (click_decorate(f, cur, dv))   /* @click.option(...), @click.command() */
				continue;
			if (registry_file(f, dv, cur))     /* @register_model: filed by name */
				continue;
			if (dv->k == VK_CLASS && !dv->u.cls->is_module && class_lookup(dv->u.cls, "__call__", NULL)) {
				/* a class of the repository over a def, whose instances
				 * are called (`@flags.compile_wrap`, a lazy torch.compile
				 * in its __call__): the instance it makes is the name's
				 * value, and calls go through its __call__ */
				r = call(f, dv, &cur, 1, NULL, decos->items[k]);
				if (r->k == VK_INST && r->u.inst->cls == dv->u.cls)
					cur = r;
				continue;
			}
			if (dv->k != VK_FUNC && dv->k != VK_BOUND)
				continue;
			r = call(f, dv, &cur, 1, NULL, decos->items[k]);
			if (r->k == VK_FUNC || r->k == VK_BOUND)
				cur = r;
		}
		scope_bind(f, name, cur);
	}
	return FL_NORMAL;
}

/* After a pass of `while <test>:` that recorded job events: the test
 * read again, decided false (`while opts is not None:` whose pass set
 * opts = None on the path the invocation takes) -- 1, the loop runs once;
 * 0 when it is true or not decided, or reading it records events (those
 * are dropped: the test is read once, at the top) */
static int while_ends_after_pass(struct frame *f, const struct ast_While *w)
{
	struct interp *in = f->in;
	long long before = in->job_events;
	size_t sev_before = in->nsev;
	value_t *tv = eval(f, w->test);

	if (in->job_events != before || in->nsev != sev_before) {
		in->job_events = before;
		in->nsev = sev_before;
		while (in->nmodel_calls && in->model_calls[in->nmodel_calls - 1] >= in->nsev)
			in->nmodel_calls--;
		return 0;
	}
	return value_truth(tv) == 0;
}

/* with and async with: each item's value bound, the job context it opens
 * (with_jctx()) around the body; a repository's context manager (a
 * @contextmanager generator, an object whose class has __enter__ and
 * __exit__) entered before the body and left after it, last first. */
static enum flow exec_with(struct frame *f, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	unsigned i;
	const struct ast_With *w = (const struct ast_With *)st;
	int ng = 0, sd_scoped = 0;
	struct sd_full sdf;        /* a `with` keeping FSDP's full state dict */
	const struct sd_full *osdf = in->sd_full;
	enum flow fl;
	const struct jctx *ojc = f->jc, *pushed = NULL;
	value_t *entered[8];       /* generator objects and objects with __exit__ */
	unsigned nentered = 0;
	const struct jctx *held;   /* a @contextmanager's contexts at its yield */
	struct devscope ds[8];     /* `with torch.device(d):` items (devscope.c) */
	unsigned nds = 0;

	for (i = 0; i < w->items.n; i++) {
		const struct ast_withitem *wi = AST_AS(w->items.items[i], withitem);
		value_t *cv = eval(f, wi->context_expr);
		int skip = 0;
		value_t *y;

		/* a @contextmanager generator of the repository: its body up
		 * to the yield runs now, the value yielded is the `as` value;
		 * the rest runs when the block ends (gen_ctx_exit) */
		if (is_gen_value(cv) && nentered < sizeof entered / sizeof entered[0]) {
			y = gen_ctx_enter(f, cv->u.inst, st);

			if (y) {
				entered[nentered++] = cv;
				/* `with no_grad(), autocast(): yield` in its body:
				 * those contexts hold over this block, as in Python */
				ng += gen_ctx_held(f, cv->u.inst, &held);
				if (held)
					f->jc = held;
				if (wi->optional_vars)
					assign(f, wi->optional_vars, y);
				continue;
			}
		}
		/* an object of a repository class with __enter__/__exit__:
		 * __enter__ runs now, its value is the `as` value; a wrapper's
		 * gradient-sync skip it leaves held covers the block */
		if (nentered < sizeof entered / sizeof entered[0] && (y = ctxclass_enter(f, cv, st, &skip))) {
			entered[nentered++] = cv;
			if (skip)
				f->jc = jc_push(f, JC_NO_SYNC, anchor_at(f, st),
				                afmt(in, "%s (its __enter__ holds the wrapper's no_sync)",
				                     text_of(f, wi->context_expr)));
			if (wi->optional_vars)
				assign(f, wi->optional_vars, y);
			continue;
		}

		/* with FSDP.state_dict_type(model, ...): another state-dict
		 * type for the body */
		if (AST_IS(wi->context_expr, Call)) {
			value_t *fn = eval(f, AST_AS(wi->context_expr, Call)->func);
			const char *sdt = fn->k == VK_EXT ? sd_type_method(in, canon_ext(in, fn->u.ext)) : NULL;

			if (sdt && !strcmp(sdt, "scope")) {
				if (sdfull_scope(f, AST_AS(wi->context_expr, Call), &sdf))
					in->sd_full = &sdf;
				else
					sd_scoped++;
			}
		}

		if (nds < sizeof ds / sizeof ds[0] && is_device_value(cv))
			devscope_enter(f, cv, &ds[nds++]);
		pushed = with_jctx(f, st, wi, cv, &ng);
		if (pushed) {
			f->jc = pushed;
			pushed = NULL;
		}
		if (wi->optional_vars)
			/* (a @contextmanager's generator not entered: what it
			 * yields is not known, the generator object is not it) */
			assign(f, wi->optional_vars, cv->k == VK_INST && !is_gen_value(cv) ? cv
			       : v_unknown(in->a, text_of(f, wi->optional_vars), "a context manager's value"));
	}
	f->no_grad += ng;
	in->sd_type_scoped += sd_scoped;
	fl = exec_block(f, &w->body);
	in->sd_type_scoped -= sd_scoped;
	in->sd_full = osdf;
	f->no_grad -= ng;
	f->jc = ojc;
	while (nds)
		devscope_exit(f, &ds[--nds]);
	/* the context managers left, last first; not when the block raises
	 * (the exception thrown in at the yield skips what follows it, and
	 * __exit__ would be given it) */
	while (nentered && fl != FL_RAISE) {
		value_t *cv = entered[--nentered];

		if (is_gen_value(cv))
			gen_ctx_exit(f, cv->u.inst, st);
		else
			ctxclass_exit(f, cv, st);
	}
	/* `with ExitStack() as stack:` left: what stack.enter_context()
	 * entered in the block is left now, last first (exitstack.c) */
	for (i = w->items.n; fl != FL_RAISE && i-- > 0;) {
		const struct ast_withitem *wi = AST_AS(w->items.items[i], withitem);

		if (wi->optional_vars && AST_IS(wi->optional_vars, Name))
			(void)exitstack_exit(f, eval(f, wi->optional_vars), st);
	}
	return fl;
}

/* Whether `except T:` catches exception class exc ("ValueError"): a bare
 * except, Exception, BaseException, exc itself, or a tuple naming one. */
int handler_catches(struct frame *f, const struct ast_ExceptHandler *h, const char *exc)
{
	const struct ast_hdr *ty = h->type;
	unsigned i;

	(void)f;
	if (!ty)
		return 1;
	/* ModuleNotFoundError is an ImportError */
	if (!strcmp(exc, "ModuleNotFoundError") && handler_catches(f, h, "ImportError"))
		return 1;
	if (AST_IS(ty, Tuple)) {
		for (i = 0; i < AST_AS(ty, Tuple)->elts.n; i++) {
			const struct ast_hdr *e = AST_AS(ty, Tuple)->elts.items[i];

			if (AST_IS(e, Name) && (!strcmp(AST_AS(e, Name)->id, exc) || !strcmp(AST_AS(e, Name)->id, "Exception") ||
			                        !strcmp(AST_AS(e, Name)->id, "BaseException")))
				return 1;
		}
		return 0;
	}
	return AST_IS(ty, Name) && (!strcmp(AST_AS(ty, Name)->id, exc) || !strcmp(AST_AS(ty, Name)->id, "Exception") ||
	                            !strcmp(AST_AS(ty, Name)->id, "BaseException"));
}

/* The handler h of a `try` read as a path of its own, under cond, from
 * where the body left off: as an undecided `if` with no else (its events
 * under the condition, the names and attributes it changes merged).  A
 * return on both paths joins the two values.  fl is the body's flow
 * (normal or return); the flow after both. */
static enum flow try_handler_path(struct frame *f, const struct ast_ExceptHandler *h, enum flow fl,
                                  const char *cond, const char *exc, enum flow *hflow)
{
	struct interp *in = f->in;
	struct vdict *d = f->locals ? f->locals : f->globals->dict;
	struct vdict snap, after;
	struct attr_journal aj;
	const struct jctx *ojc = f->jc;
	value_t *oret = f->ret;
	enum flow hf;

	dict_save(in, d, &snap);
	journal_open(in, &aj);
	f->jc = jc_push(f, JC_COND, anchor_at(f, &h->h), cond);
	if (h->name)
		scope_bind(f, h->name, v_unknown(in->a, h->name, afmt(in, "the %s caught", exc)));
	hf = exec_block(f, &h->body);
	*hflow = hf;
	f->jc = ojc;
	dict_save(in, d, &after);
	dict_restore(in, d, &snap);
	journal_after_body(in, &aj);
	journal_close(in, &aj, cond, jpath_left(hf), 0);
	if (fl == FL_RETURN && hf == FL_RETURN)
		f->ret = ret_join(f, oret, f->ret, cond);
	else
		f->ret = oret;
	if (fl == FL_NORMAL && hf == FL_NORMAL)
		merge_branches(f, d, &snap, &after, cond);
	return fl;
}

/* A `try` whose body took the next item of an iterator whose end is not
 * known (next(loader_iter), a cycling iterator's __next__) and whose
 * handler catches StopIteration: that handler runs when the iterator is
 * spent. */
static enum flow try_stop_iteration(struct frame *f, const struct ast_Try *t, enum flow fl, const char **cond,
                                    enum flow *hflow)
{
	unsigned i;

	for (i = 0; i < t->handlers.n; i++)
		if (handler_catches(f, AST_AS(t->handlers.items[i], ExceptHandler), "StopIteration")) {
			*cond = "the iterator is spent (next() raises StopIteration)";
			return try_handler_path(f, AST_AS(t->handlers.items[i], ExceptHandler), fl, *cond, "StopIteration",
			                        hflow);
		}
	return fl;
}

/* `except OSError:` (IOError, EnvironmentError, FileNotFoundError), named
 * as such: the handler of a file the body reads that may be absent (a
 * cache of statistics, a checkpoint to resume) -- whether it is, is the
 * run's state: the handler is a path under that condition.  A bare
 * except or `except Exception` says nothing of the kind. */
static const struct ast_ExceptHandler *os_error_handler(const struct ast_Try *t, const char **exc)
{
	static const char *const names[] = { "OSError", "IOError", "EnvironmentError", "FileNotFoundError" };
	unsigned i, j, k;

	for (i = 0; i < t->handlers.n; i++) {
		const struct ast_ExceptHandler *h = AST_AS(t->handlers.items[i], ExceptHandler);
		const struct ast_hdr *ty = h->type;
		unsigned n = !ty ? 0 : AST_IS(ty, Tuple) ? AST_AS(ty, Tuple)->elts.n : 1;

		for (j = 0; j < n; j++) {
			const struct ast_hdr *e = AST_IS(ty, Tuple) ? AST_AS(ty, Tuple)->elts.items[j] : ty;

			for (k = 0; k < sizeof names / sizeof *names; k++)
				if (AST_IS(e, Name) && !strcmp(AST_AS(e, Name)->id, names[k])) {
					*exc = names[k];
					return h;
				}
		}
	}
	return NULL;
}

static enum flow exec_stmt(struct frame *f, const struct ast_hdr *st)
{
	struct interp *in = f->in;
	unsigned i;

	if (!budget(f))
		return FL_RAISE;
	switch (st->kind) {
	case AST_Expr:
		/* a drained generator's yield: its item collected, the body goes on */
		if (f->drain && drain_yield(f, st))
			return FL_NORMAL;
		/* a lifespan's `yield`: what follows runs at shutdown */
		if (in->run_generators && (AST_IS(AST_AS(st, Expr)->value, Yield) ||
		                           AST_IS(AST_AS(st, Expr)->value, YieldFrom))) {
			f->ret = v_none(in->a);
			return FL_RETURN;
		}
		if (f->gen_body && (AST_IS(AST_AS(st, Expr)->value, Yield) || AST_IS(AST_AS(st, Expr)->value, YieldFrom))) {
			mark_gen_items(f);
			in->gen_yield_items = gen_yield_trips(f, st);   /* genitems.c */
		}
		/* a generator object advanced: its first yield is the item */
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, Yield)) {
			const struct ast_Yield *y = AST_AS(AST_AS(st, Expr)->value, Yield);

			f->ret = y->value ? eval(f, y->value) : v_none(in->a);
			f->yielded = 1;
			gen_note_yield(f, st);
			gen_ctx_note_yield(f);
			return FL_RETURN;
		}
		if (f->gen_body && AST_IS(AST_AS(st, Expr)->value, YieldFrom)) {
			/* the first item of what it delegates to: a DataLoader's
			 * batch (`while True: yield from loader`), a known
			 * sequence's first item, a representative one */
			value_t *src = eval(f, AST_AS(AST_AS(st, Expr)->value, YieldFrom)->value);
			struct vseq *items = NULL;
			value_t *y;

			/* a context manager entered, delegating to another
			 * generator: that one entered (function.c) */
			if (f->ctx_gen && (y = gen_ctx_delegate(f, src, st))) {
				f->ret = y;
				f->yielded = 1;
				return FL_RETURN;
			}
			if (is_loader(src))
				f->ret = loader_batch(f, src->u.inst, afmt_memo(in, "yield from %s",
				                      text_of(f, AST_AS(AST_AS(st, Expr)->value, YieldFrom)->value), NULL), st);
			else if (!iter_items(f, src, &items) && items && items->n)
				f->ret = items->items[0];
			else if (iter_rep_item(f, src))
				f->ret = iter_rep_item(f, src);
			else
				f->ret = unknown_at(f, st, "an item of `yield from`");
			gen_note_yield(f, st);
			return FL_RETURN;
		}
		if (AST_IS(AST_AS(st, Expr)->value, Constant)) {
			/* a docstring (or `...`): nothing to read, but the
			 * step that eval() would count */
			(void)budget(f);
			return FL_NORMAL;
		}
		(void)eval(f, AST_AS(st, Expr)->value);
		return FL_NORMAL;
	case AST_Assign: {
		const struct ast_Assign *a = AST_AS(st, Assign);
		value_t *v;
		int logs = log_accum_store(f, st);

		if (a->targets.n == 1)
			name_dims(f, a->targets.items[0], a->value);
		/* a store into a name only logged: its reads are the log's */
		f->in_log += logs;
		{
			/* self.X = self.X.to(device): moved on the first call only
			 * (a forward's events carry no job context: a flag) */
			const struct jctx *ojc = f->jc;
			int once = one_shot_move(f, st);

			if (once && f->mode != M_FWD && f->jc)
				f->jc = jc_push(f, JC_ONCE, anchor_at(f, st), text_of(f, st));
			in->fwd_once += once && f->mode == M_FWD;
			v = eval(f, a->value);
			in->fwd_once -= once && f->mode == M_FWD;
			f->jc = ojc;
		}
		f->in_log -= logs;
		if (in->trace_shapes)
			trace_shape(f, st, v);
		if (in->exc_pending)     /* the value raised: nothing is bound (exec_block) */
			return FL_NORMAL;

		for (i = 0; i < a->targets.n; i++)
			assign(f, a->targets.items[i], v);
		return FL_NORMAL;
	}
	case AST_AnnAssign: {
		const struct ast_AnnAssign *a = AST_AS(st, AnnAssign);

		if (a->value)
			assign(f, a->target, eval(f, a->value));
		return FL_NORMAL;
	}
	case AST_AugAssign: {
		const struct ast_AugAssign *a = AST_AS(st, AugAssign);
		int logs = log_accum_store(f, st);
		value_t *cur, *r;

		/* a store into a name only logged: its reads are the log's */
		f->in_log += logs;
		cur = eval(f, a->target);
		r = eval(f, a->value);
		f->in_log -= logs;

		hostints_forget(cur);   /* x += 1 of a tensor writes x */
		if (cur->k == VK_LIST && a->op == AST_OP_ADD && !iter_items(f, r, &(struct vseq *){ NULL })) {
			struct vseq *items;

			(void)iter_items(f, r, &items);
			journal_note_seq(in, cur->u.seq, 0);
			for (i = 0; i < items->n; i++)
				vseq_push(in->a, cur->u.seq, items->items[i]);
			seq_bound(cur->u.seq, 1);   /* a bounded deque += drops its oldest */
			return FL_NORMAL;
		}
		assign(f, a->target, binop(f, a->op, cur, r, st, 1));
		return FL_NORMAL;
	}
	case AST_FunctionDef:
	case AST_AsyncFunctionDef:
		return exec_funcdef(f, st);
	case AST_ClassDef:
		exec_classdef(f, AST_AS(st, ClassDef));
		return FL_NORMAL;
	case AST_Return:
		f->ret = AST_AS(st, Return)->value ? eval(f, AST_AS(st, Return)->value) : v_none(in->a);
		f->ret_is_yield = 0;    /* a generator's return: no item (gen_item) */
		return FL_RETURN;
	case AST_If:
		return exec_if(f, AST_AS(st, If));
	case AST_For: case AST_AsyncFor:
		return exec_for(f, (const struct ast_For *)st);
	case AST_Assert: {
		/* assert <a device tensor condition>: its truth is read on the
		 * host; a device tensor on one path of an undecided `if` only
		 * (alts.c: `d = t[0]` in one arm, `d = n - 1` in the other):
		 * a read under that path's side, as exec_if's test */
		value_t *tv = eval(f, AST_AS(st, Assert)->test);

		if (device_truth(tv))
			sev(f, SEV_SYNC, afmt(in, "assert %s (the truth of a device tensor)", text_of(f, AST_AS(st, Assert)->test)),
			    st);
		else
			(void)alts_sync(f, tv, afmt(in, "assert %s (the truth of a device tensor on one path)",
			                            text_of(f, AST_AS(st, Assert)->test)), st);
		machine_assert(f, AST_AS(st, Assert)->test, tv);   /* assert torch.cuda.is_available() */
		return FL_NORMAL;
	}
	case AST_While: {
		const struct ast_While *w = AST_AS(st, While);
		value_t *tv = eval(f, w->test);
		enum flow fl;

		in->approx++;   /* its passes are not read one by one */

		if (device_truth(tv))
			sev(f, SEV_SYNC, afmt(in, "while %s (a loop condition on a device tensor)", text_of(f, w->test)),
			    &w->h);

		if (value_truth(tv) == 0)
			return exec_block(f, &w->orelse);
		if (f->mode == M_FWD) {
			fl = run_body_once(f, &w->body, -1, text_of(f, w->test), NULL, VIA_DEFAULT,
			                   afmt(in, "the trip count of `while %s` is not known", text_of(f, w->test)));
		} else {
			const char *ol = f->loop_anchor;
			const struct ast_For *olf = f->loop_for;
			const struct ast_While *olw = f->loop_while;
			const struct jctx *ojc = f->jc;

			struct vdict *d = f->locals ? f->locals : f->globals->dict;
			struct vdict snap;
			int exact = 0, by_events = 0;
			long long trips = 0;
			struct carry cy;
			size_t first_sev = in->nsev;

			/* Iterated while the condition is known true and the body
			 * records no job event (a training loop is read once, as a
			 * for loop's); a loop not followed to its end leaves what
			 * it assigned unknown. */
			struct jctx *lj;

			dict_save(in, d, &snap);
			f->jc = lj = jc_push_loop(f, st, afmt(in, "while %s", text_of(f, w->test)));
			f->loop_anchor = anchor_at(f, st);
			f->loop_for = NULL;
			f->loop_while = w;
			cy.body = &w->body;
			cy.before = &snap;
			cy.up = f->carry;
			cy.target = NULL;
			cy.later = 0;
			cy.for_target = NULL;
			cy.inner = f->carry != NULL;
			f->carry = &cy;
			for (;;) {
				long long before = in->job_events;
				size_t sev_before = in->nsev;
				value_t *alt0 = f->ret_alt;
				long drained = drain_count(f);

				struct narrowing nwn;

				cy.hit = 0;
				first_sev = in->nsev;
				(void)narrow_none_name(f, w->test, 1, &nwn);   /* `while x is not None:` */
				fl = exec_block(f, &w->body);
				narrow_leave(f, &nwn);
				if (fl == FL_BREAK)
					exact = 1;
				if (fl == FL_BREAK || fl == FL_RETURN || fl == FL_RAISE)
					break;
				if (in->job_events != before || runtime_events(in, sev_before)) {
					by_events = 1;
					/* the pass decided the test false: the loop runs
					 * once (a CLI's interactive loop run for one
					 * prompt), no repeating loop, followed to its end */
					if (while_ends_after_pass(f, w)) {
						lj->trips = 1;
						exact = 1;
					}
					break;
				}
				/* `while True:` whose pass returns (or yields) on one
				 * path of a test not decided here, and else does
				 * nothing the job sees (a generator filling a buffer
				 * until it holds a batch): the loop is left only by
				 * that return, which is what the call gives back --
				 * reading more passes would only repeat this one */
				if (f->ret_alt != alt0 && const_truth(w->test) == 1) {
					f->ret = f->ret_alt;
					f->ret_alt = alt0;
					fl = FL_RETURN;
					break;
				}
				/* the same loop in a generator drained whole
				 * (list(G)): a pass that yielded stands for every
				 * pass (gendrain.c keeps the first item, the count
				 * not known) -- not read again */
				if (drained >= 0 && drain_count(f) > drained && const_truth(w->test) == 1)
					break;
				if (++trips >= MAX_UNROLL || !budget(f))
					break;
				before = in->job_events;
				sev_before = in->nsev;
				tv = eval(f, w->test);
				if (in->job_events != before || in->nsev != sev_before) {
					/* the condition itself records events
					 * (`.item()`): read once, at the top */
					in->job_events = before;
					in->nsev = sev_before;
					while (in->nmodel_calls && in->model_calls[in->nmodel_calls - 1] >= in->nsev)
						in->nmodel_calls--;
					break;
				}
				/* a container whose items are not all known (a
				 * deque fed from data not known): true now, but how
				 * many passes empty it is not known */
				if (value_truth(tv) != 1 || while_test_unknown_none(f, w->test) ||
				    ((tv->k == VK_LIST || tv->k == VK_TUPLE) && tv->u.seq->unk_reason) ||
				    (tv->k == VK_DICT && (tv->u.dict->anykey || tv->u.dict->rep))) {
					exact = value_truth(tv) == 0;
					break;
				}
			}
			f->carry = cy.up;
			/* read once for all, the first iteration's decisions
			 * on a counter not every iteration's: a later one read */
			if (by_events && cy.hit && lj->trips != 1)
				carry_reread(f, NULL, NULL, NULL, &w->body, &snap, afmt(in, "while %s", text_of(f, w->test)),
				             first_sev);
			f->loop_anchor = ol;
			f->loop_for = olf;
			f->loop_while = olw;
			f->jc = ojc;
			if (exact && fl != FL_BREAK)
				fl = exec_block(f, &w->orelse);
			else if (!exact && fl != FL_RETURN && fl != FL_RAISE)
				while_widen(f, d, &snap, afmt(in, "while %s", text_of(f, w->test)), NULL, 0);
		}
		return fl == FL_RETURN || fl == FL_RAISE ? fl : FL_NORMAL;
	}
	case AST_With: case AST_AsyncWith:
		return exec_with(f, st);
	case AST_Try: case AST_TryStar: {
		const struct ast_Try *t = (const struct ast_Try *)st;
		enum flow fl;
		const struct frame *otf = in->try_import_frame;
		unsigned long nexts0;
		const char *hcond = NULL;       /* the condition of a handler path read */
		enum flow hflow = FL_NORMAL;    /* how that handler ended */
		const struct ast_ExceptHandler *lh;

		/* an absent package imported in the body raises (import.c) */
		in->exc_name = NULL;
		int catches_exit = 0;

		for (i = 0; i < t->handlers.n; i++) {
			if (handler_catches(f, AST_AS(t->handlers.items[i], ExceptHandler), "ModuleNotFoundError"))
				in->try_import_frame = f;
			if (handler_catches(f, AST_AS(t->handlers.items[i], ExceptHandler), "SystemExit"))
				catches_exit = 1;
		}
		in->try_exit += catches_exit;
		nexts0 = in->nexts_may_stop;
		/* a name the handler binds on its first use (lazybind.c): the
		 * handler is the first pass, the body every later one */
		if ((lh = lazybind_handler(f, t)) != NULL)
			(void)exec_block(f, &lh->body);
		fl = exec_block(f, &t->body);
		in->try_exit -= catches_exit;
		in->try_import_frame = otf;
		if ((fl == FL_NORMAL || fl == FL_RETURN) && f->mode != M_FWD && in->nexts_may_stop > nexts0)
			fl = try_stop_iteration(f, t, fl, &hcond, &hflow);
		else if ((fl == FL_NORMAL || fl == FL_RETURN) && f->mode != M_FWD) {
			const char *exc = NULL;
			const struct ast_ExceptHandler *h = os_error_handler(t, &exc);

			if (h) {
				hcond = afmt(in, "the try body raises %s (a file it reads is absent)", exc);
				fl = try_handler_path(f, h, fl, hcond, exc, &hflow);
			}
		}
		if (fl == FL_RAISE && in->exc_name && in->exc_depth == f->depth) {
			/* an exception known to be raised here: its handler runs */
			const char *exc = in->exc_name;

			in->exc_name = NULL;
			for (i = 0; i < t->handlers.n; i++) {
				const struct ast_ExceptHandler *h = AST_AS(t->handlers.items[i], ExceptHandler);

				if (handler_catches(f, h, exc)) {
					if (h->name)
						scope_bind(f, h->name, v_unknown(in->a, h->name, afmt(in, "the %s caught", exc)));
					fl = exec_block(f, &h->body);
					break;
				}
			}
		} else if (fl == FL_NORMAL && t->orelse.n)
			fl = exec_block(f, &t->orelse);
		if (t->finalbody.n) {
			enum flow f2 = exec_block(f, &t->finalbody);

			if (f2 != FL_NORMAL)
				fl = f2;
		}
		/* the handler of that path leaves the block (`except
		 * FileNotFoundError: return`, a snapshot to resume from): the
		 * rest of the block runs only when the body did not raise,
		 * under that condition (exec_stmts, as exec_if's rest_cond) */
		if (hcond && fl == FL_NORMAL && (hflow == FL_RETURN || hflow == FL_BREAK || hflow == FL_CONTINUE) &&
		    !t->orelse.n) {
			const char *rest = afmt_memo(in, "not (%s)", hcond, NULL);

			f->jc = jc_push(f, JC_COND, anchor_at(f, st), rest);
			f->rest_cond = rest;
		}
		return fl == FL_RAISE ? FL_NORMAL : fl;
	}
	case AST_Import:
		exec_import(f, AST_AS(st, Import));
		return FL_NORMAL;
	case AST_ImportFrom:
		exec_import_from(f, AST_AS(st, ImportFrom));
		return FL_NORMAL;
	case AST_Global: {
		const struct ast_Global *g = AST_AS(st, Global);

		if (!f->globals_decl)
			f->globals_decl = ast_arena_alloc(in->a, sizeof *f->globals_decl);
		for (i = 0; i < g->names.n; i++) {
			const char **ns = ast_arena_alloc(in->a, (f->globals_decl->n + 1) * sizeof *ns);

			if (f->globals_decl->n)
				memcpy(ns, f->globals_decl->s, f->globals_decl->n * sizeof *ns);
			ns[f->globals_decl->n++] = g->names.items[i];
			f->globals_decl->s = ns;
		}
		return FL_NORMAL;
	}
	case AST_Nonlocal: {
		const struct ast_Nonlocal *g = AST_AS(st, Nonlocal);

		if (!f->nonlocals_decl)
			f->nonlocals_decl = ast_arena_alloc(in->a, sizeof *f->nonlocals_decl);
		for (i = 0; i < g->names.n; i++) {
			const char **ns = ast_arena_alloc(in->a, (f->nonlocals_decl->n + 1) * sizeof *ns);

			if (f->nonlocals_decl->n)
				memcpy(ns, f->nonlocals_decl->s, f->nonlocals_decl->n * sizeof *ns);
			ns[f->nonlocals_decl->n++] = g->names.items[i];
			f->nonlocals_decl->s = ns;
		}
		return FL_NORMAL;
	}
	case AST_Raise:
		return FL_RAISE;
	case AST_Break:
		return FL_BREAK;
	case AST_Continue:
		return FL_CONTINUE;
	case AST_Delete: {
		const struct ast_Delete *d = AST_AS(st, Delete);

		for (i = 0; i < d->targets.n; i++) {
			const struct ast_hdr *t = d->targets.items[i];

			if (AST_IS(t, Name))
				vdict_del(f->locals ? f->locals : f->globals->dict, v_str(in->a, AST_AS(t, Name)->id));
			else if (AST_IS(t, Attribute)) {
				/* del ns.x: the object's attribute gone (vars(ns) has
				 * no x); a class with its own __delattr__ is not read */
				value_t *obj = eval(f, AST_AS(t, Attribute)->value);
				value_t *key = v_str(in->a, AST_AS(t, Attribute)->attr);

				if (obj->k != VK_INST || obj->u.inst->mod != VM_NONE ||
				    repo_method(in, obj, "__delattr__", 0))
					continue;
				journal_note_key(in, obj->u.inst->attrs, key);
				vdict_del(obj->u.inst->attrs, key);
			} else if (AST_IS(t, Subscript)) {
				/* del xs[i], del xs[a:b], del d[k] */
				const struct ast_Subscript *su = AST_AS(t, Subscript);
				value_t *obj = eval(f, su->value);
				int ok = 0;
				long long k = 0;

				if (!AST_IS(su->slice, Slice) && repo_method(in, obj, "__delitem__", 0) &&
				    itemproto_del(f, obj, eval(f, su->slice), t))
					continue;   /* its class's __delitem__ */
				if (obj->k == VK_DICT) {
					value_t *key = eval(f, su->slice);

					journal_note_key(in, obj->u.dict, key);
					vdict_del(obj->u.dict, key);
					continue;
				}
				if (obj->k != VK_LIST)
					continue;
				journal_note_seq(in, obj->u.seq, 1);
				if (AST_IS(su->slice, Slice) ? list_splice(f, obj->u.seq, AST_AS(su->slice, Slice), NULL) : 0)
					continue;
				if (!AST_IS(su->slice, Slice) && !obj->u.seq->unk_reason)
					k = as_int(eval(f, su->slice), &ok);
				if (ok && k < 0)
					k += (long long)obj->u.seq->n;
				if (ok && k >= 0 && (size_t)k < obj->u.seq->n) {
					memmove(obj->u.seq->items + k, obj->u.seq->items + k + 1,
					        (obj->u.seq->n - (size_t)k - 1) * sizeof *obj->u.seq->items);
					obj->u.seq->n--;
				} else if (!obj->u.seq->unk_reason) {
					obj->u.seq->unk_expr = text_of(f, t);
					obj->u.seq->unk_reason = "an item deleted that is not known";
				}
			}
		}
		return FL_NORMAL;
	}
	case AST_Match:
		return FL_NORMAL;
	default:
		return FL_NORMAL;
	}
}

/* The statements of body from i on.  After an `if` one path of which
 * left the block (`if not ok: return cfg`), the rest runs on the other
 * path only: its attribute writes are journaled (journal.c) and merged
 * with the objects as the path that left saw them, so that an attribute
 * the rest sets (`cfg.impl = "sdpa"`) is not known where the paths
 * differ, never the rest's value taken for certain. */
static enum flow exec_stmts(struct frame *f, const struct ast_list *body, unsigned i)
{
	enum flow fl = FL_NORMAL;

	for (; i < body->n; i++) {
		f->rest_cond = NULL;
		fl = exec_stmt(f, body->items[i]);
		if (f->in->exc_pending) {      /* a call in it surely raised */
			f->in->exc_name = f->in->exc_pending;
			f->in->exc_depth = f->depth;
			f->in->exc_pending = NULL;
			fl = FL_RAISE;
		}
		if (fl != FL_NORMAL)
			break;
		if (f->rest_cond && i + 1 < body->n) {
			const char *cond = f->rest_cond;
			struct attr_journal aj;

			f->rest_cond = NULL;
			journal_open(f->in, &aj);
			fl = exec_stmts(f, body, i + 1);
			journal_after_body(f->in, &aj);
			journal_close(f->in, &aj, cond, fl == FL_RAISE, 0);
			return fl;
		}
	}
	f->rest_cond = NULL;
	return fl;
}

enum flow exec_block(struct frame *f, const struct ast_list *body)
{
	const struct jctx *ojc = f->jc;
	struct frame_cond oc = f->cond;
	enum flow fl;

	if (!body)
		return FL_NORMAL;
	fl = exec_stmts(f, body, 0);
	/* an `if` one path of which left the block conditioned the rest of
	 * it (exec_if): that ends with the block */
	f->jc = ojc;
	f->cond = oc;
	return fl;
}
