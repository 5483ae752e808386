/* interp/hfbase.c - the model an Auto class builds from a checkpoint whose
 * config is not read: its class unknown, its base's methods known
 *
 * `AutoModelForCausalLM.from_pretrained("openai-community/gpt2")` reads
 * config.json from the Hub, so the class it builds is not known here
 * (hf.c leaves the model an external module).  Without remote code
 * (trust_remote_code not given, or known False) that class is one of the
 * classes of the Auto class's table, every one a subclass of the library's
 * model base; catalog fact library_auto_bases names, per Auto class, that
 * base and the methods none of the table's classes overrides (verified by
 * reading the table's modeling files).  A call of one of those methods on
 * the model is the base's method, read with the model as self:
 * PreTrainedModel.to when accelerate's prepare places the model,
 * PreTrainedModel.save_pretrained when the job saves it.  A word
 * NAME=KW,KW... of the fact is class data of the base that only
 * from_pretrained given one of those keywords sets on the model
 * (PreTrainedModel._tp_size, set by tensor parallelism): without them the
 * model's NAME is the base's value.  Any other attribute stays as hf.c
 * left it.  Only when the library is the repository itself: the events of
 * an installed library stay anchored at the job's call, so its model is
 * left as hf.c made it.
 *
 * hfbase_mark() records on the model the fact's text (attribute
 * HFBASE_ATTR) and the keywords from_pretrained was given (HFBASE_KW_ATTR);
 * hfbase_method() gives the bound method, or the base's class data, or
 * NULL.  Both allocate only in the interpreter's arena; neither fails.
 */
#include "config.h"

#include <string.h>

#include "internal.h"
#include "ecg/catalog.h"

#define HFBASE_ATTR "__ecg_library_base__"
#define HFBASE_KW_ATTR "__ecg_library_base_keywords__"

/* the keywords from_pretrained was given, as " KW KW ... " ("*" when a
 * **kwargs of keys not known was given: it may hold any) */
static const char *hfbase_kw_words(struct interp *in, const struct vdict *kw)
{
	const char *s = " ";
	size_t i;

	for (i = 0; kw && i < kw->n; i++)
		if (kw->keys[i]->k == VK_STR)
			s = afmt(in, "%s%s ", s, kw->keys[i]->u.str.s);
	return kw && vdict_gets(kw, KW_UNK_DSTAR) ? "*" : s;
}

/* the class `dotted` (package.module.Class) of the library, read by the
 * interpreter; NULL when it is not there */
static struct vclass *hfbase_class(struct frame *f, const char *dotted)
{
	struct interp *in = f->in;
	const char *dot = strrchr(dotted, '.');
	value_t *name, *mod, *c;

	if (!dot || dot == dotted)
		return NULL;
	name = v_str(in->a, afmt(in, "%.*s", (int)(dot - dotted), dotted));
	mod = call_import_module(f, "importlib.import_module", &name, 1, NULL, NULL);
	if (!mod || mod->k != VK_NS)
		return NULL;
	c = ns_attr(f, mod->u.ns, dot + 1);
	return c && c->k == VK_CLASS ? c->u.cls : NULL;
}

void hfbase_mark(struct frame *f, value_t *model, const char *auto_dotted, const struct vdict *kw)
{
	struct interp *in = f->in;
	const char *fact;
	value_t *rc;

	if (!model || model->k != VK_INST || model->u.inst->mod != VM_EXTERNAL ||
	    !(fact = catalog_fact(in->cat, CATALOG_F_LIBRARY_AUTO_BASES, auto_dotted)))
		return;
	/* remote code: the Hub's own class, no table's */
	if (kw && ((rc = vdict_gets(kw, "trust_remote_code")) ? value_truth(rc) != 0 : vdict_gets(kw, KW_UNK_DSTAR) != NULL))
		return;
	vdict_sets(in->a, model->u.inst->attrs, HFBASE_ATTR, v_str(in->a, fact));
	vdict_sets(in->a, model->u.inst->attrs, HFBASE_KW_ATTR, v_str(in->a, hfbase_kw_words(in, kw)));
}

/* name's word in the fact after the base's dotted name: 1 a method, 2
 * class data (NAME=KW,...; *guard then points at the keywords), 0 none */
static int hfbase_lists(const char *fact, const char *name, const char **guard)
{
	const char *p = strchr(fact, ' ');
	size_t n = strlen(name);

	while (p) {
		p++;
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		if (!strncmp(p, name, n) && p[n] == '=') {
			*guard = p + n + 1;
			return 2;
		}
		p = strchr(p, ' ');
	}
	return 0;
}

/* one of the keywords of guard (KW,KW... up to a space or the end) is
 * among the words of given (" KW KW ", what from_pretrained was given) */
static int hfbase_guarded(struct interp *in, const char *guard, const char *given)
{
	size_t n;

	while (*guard && *guard != ' ') {
		n = strcspn(guard, ", ");
		if (strstr(given, afmt(in, " %.*s ", (int)n, guard)))
			return 1;
		guard += n;
		if (*guard == ',')
			guard++;
	}
	return 0;
}

value_t *hfbase_method(struct frame *f, value_t *obj, const char *name)
{
	struct interp *in = f->in;
	value_t *fact, *given, *v;
	struct vclass *base;
	const char *sp, *guard = NULL;
	int word;

	if (!obj || obj->k != VK_INST || obj->u.inst->mod != VM_EXTERNAL || obj->u.inst->cls ||
	    !(fact = vdict_gets(obj->u.inst->attrs, HFBASE_ATTR)) || fact->k != VK_STR ||
	    !(word = hfbase_lists(fact->u.str.s, name, &guard)) || !(sp = strchr(fact->u.str.s, ' ')))
		return NULL;
	/* the library is the repository: an installed one's events stay at
	 * the job's call, as every outside library's */
	if (!(base = hfbase_class(f, afmt(in, "%.*s", (int)(sp - fact->u.str.s), fact->u.str.s))) || !base->file ||
	    !strncmp(base->file->path, PROG_SITE_PREFIX, sizeof PROG_SITE_PREFIX - 1))
		return NULL;
	v = class_lookup(base, name, NULL);
	if (word == 2) {
		/* the base's class data, unless from_pretrained was given a
		 * keyword that sets it (or keywords not known) */
		given = vdict_gets(obj->u.inst->attrs, HFBASE_KW_ATTR);
		if (!v || v->k == VK_FUNC || v->k == VK_UNKNOWN || !given || given->k != VK_STR ||
		    !strcmp(given->u.str.s, "*") || hfbase_guarded(in, guard, given->u.str.s))
			return NULL;
		return v;
	}
	if (!v || v->k != VK_FUNC || v->u.fn->is_static || v->u.fn->is_classmethod || v->u.fn->is_property)
		return NULL;
	return bound(in, v, obj);
}
