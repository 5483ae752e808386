/*
 * pandas.c -- a table built from known rows, read back by column.
 *
 * Jobs keep small tables of facts in pandas (yolov5's export_formats():
 * the suffix of each model format, read to decide which backend loads a
 * weights file):
 *
 *     x = [["PyTorch", "-", ".pt", True, True], ["ONNX", "onnx", ".onnx", True, True], ...]
 *     df = pd.DataFrame(x, columns=["Format", "Argument", "Suffix", "CPU", "GPU"])
 *     sf = list(df.Suffix)                    # or df["Suffix"]
 *
 * pandas_call() reads pd.DataFrame(rows, columns=names) of a known list
 * of known rows, each as long as the names, and pd.DataFrame({name:
 * column}) of known lists, as an object of class pandas.DataFrame whose
 * attributes are its columns (df.Suffix); each column an object of class
 * pandas.Series with its values (`values`, a list) -- iterated, list()ed
 * or indexed by df["name"] (pandas_column, pandas_values).  Anything else
 * (a DataFrame read from a file, rows not known) is not this: NULL, and
 * the call stays a library's object of which nothing is known.
 *
 * Everything is allocated in the interpreter's arena; nothing fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define PD_FRAME "pandas.DataFrame"
#define PD_SERIES "pandas.Series"
#define PD_MAX_CELLS 65536

static int is_class_obj(const value_t *v, const char *cls)
{
	return v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, cls);
}

/* A known list or tuple (no representative items), or NULL. */
static const struct vseq *known_seq(const value_t *v)
{
	if (!v || (v->k != VK_LIST && v->k != VK_TUPLE) || v->u.seq->unk_reason)
		return NULL;
	return v->u.seq;
}

static value_t *new_series(struct interp *in, struct vseq *vals)
{
	struct vinst *s = new_inst(in);
	value_t *l = v_seq(in->a, VK_LIST, vals->n);
	size_t i;

	s->ext = PD_SERIES;
	for (i = 0; i < vals->n; i++)
		vseq_push(in->a, l->u.seq, vals->items[i]);
	vdict_sets(in->a, s->attrs, "values", l);
	return mk_inst_value(in, s);
}

/* pd.DataFrame(rows, columns=names): the frame, or NULL. */
static value_t *frame_of_rows(struct interp *in, const struct vseq *rows, const struct vseq *names)
{
	struct vinst *df;
	size_t i, j;

	if (rows->n * names->n > PD_MAX_CELLS)
		return NULL;
	for (j = 0; j < names->n; j++)
		if (names->items[j]->k != VK_STR)
			return NULL;
	for (i = 0; i < rows->n; i++) {
		const struct vseq *r = known_seq(rows->items[i]);

		if (!r || r->n != names->n)
			return NULL;
	}
	df = new_inst(in);
	df->ext = PD_FRAME;
	for (j = 0; j < names->n; j++) {
		struct vseq col = { 0 };

		for (i = 0; i < rows->n; i++)
			vseq_push(in->a, &col, known_seq(rows->items[i])->items[j]);
		vdict_sets(in->a, df->attrs, names->items[j]->u.str.s, new_series(in, &col));
	}
	return mk_inst_value(in, df);
}

/* pd.DataFrame({name: column, ...}): the frame, or NULL. */
static value_t *frame_of_dict(struct interp *in, const struct vdict *d)
{
	struct vinst *df;
	size_t j, n = 0;

	if (d->anykey || d->rep)
		return NULL;
	for (j = 0; j < d->n; j++) {
		const struct vseq *c = known_seq(d->vals[j]);

		if (d->keys[j]->k != VK_STR || !c || (j && c->n != n) || c->n > PD_MAX_CELLS)
			return NULL;
		n = c->n;
	}
	df = new_inst(in);
	df->ext = PD_FRAME;
	for (j = 0; j < d->n; j++)
		vdict_sets(in->a, df->attrs, d->keys[j]->u.str.s,
		           new_series(in, (struct vseq *)known_seq(d->vals[j])));
	return mk_inst_value(in, df);
}

value_t *pandas_call(struct frame *f, const char *d, value_t **args, size_t nargs, struct vdict *kw,
                     const struct ast_hdr *site)
{
	struct interp *in = f->in;
	const value_t *data = nargs >= 1 ? args[0] : kw ? vdict_gets(kw, "data") : NULL;
	const value_t *cols = nargs >= 2 ? args[1] : kw ? vdict_gets(kw, "columns") : NULL;
	const struct vseq *rows, *names;

	(void)site;
	if (strcmp(d, PD_FRAME) && strcmp(d, "pandas.core.frame.DataFrame"))
		return NULL;
	if (!data || nargs > 2)
		return NULL;
	if (data->k == VK_DICT && !cols)
		return frame_of_dict(in, data->u.dict);
	if ((rows = known_seq(data)) && (names = known_seq(cols)))
		return frame_of_rows(in, rows, names);
	return NULL;
}

value_t *pandas_column(const value_t *obj, const value_t *key)
{
	if (!is_class_obj(obj, PD_FRAME) || !key || key->k != VK_STR)
		return NULL;
	return vdict_gets(obj->u.inst->attrs, key->u.str.s);
}

struct vseq *pandas_values(const value_t *obj)
{
	const value_t *l;

	if (!is_class_obj(obj, PD_SERIES) || !(l = vdict_gets(obj->u.inst->attrs, "values")) || l->k != VK_LIST)
		return NULL;
	return l->u.seq;
}
