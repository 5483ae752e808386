/* devchoice.c - a device the job chooses at run time.
 *
 * `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")`,
 * `torch.device("cuda") if torch.cuda.is_available() else
 * torch.device("cpu")` (devchoice_devices: the same one torch.device),
 * `if use_accel: device = torch.accelerator.current_accelerator() else:
 * device = torch.device("cpu")`, dist_util.dev()'s `if th.cuda.is_available():
 * return th.device("cuda")` / `return th.device("cpu")`: the job runs on a
 * GPU when the machine has one, and on the host otherwise.  ecg reads a
 * job as run on a GPU; such a job's copies and host reads of device
 * tensors happen only when the condition holds, so every host-device row
 * of the job carries it -- unless the job needs a GPU whatever the
 * machine (a `.cuda()`, a `.to("cuda:0")`, torch.cuda.set_device, an
 * NCCL process group, on a path it always takes): a run that goes on past
 * those has a GPU, and the rows need no condition.
 *
 * The choice is the alternatives (alts.c) that an undecided `if`, a
 * conditional expression or a function's two returns leave: a host device
 * ("cpu", torch.device("cpu")) on one path, another device, or a value
 * not known bound where the other path bound the host device, on the
 * other -- each test on the way a question to the machine (catalog
 * machine_queries: torch.cuda.is_available(); `not`, `and` and `or` of
 * it, a name bound to it), which devchoice_test() notes as the job's
 * `if`s and conditional expressions read them.  A choice by another test
 * (`"cpu" if device.type == "mps" else device`, a library routing its
 * random numbers) is none.  devchoice_cond() reads the condition under which it is the GPU;
 * devchoice_place() notes, where the job places data by a device, which
 * of the two it is; interp_gpu_condition() gives the schedule the
 * condition of the job's rows, or NULL.  A library's own choice is one
 * too: `model.to(accelerator.device)` of accelerate's Accelerator run as
 * one process, whose state picks CUDA when the machine has it and the
 * host otherwise (framework.c framework_device_cond, catalog
 * run_time_devices).  So is a GPU named (`.cuda()`, "cuda") only under
 * an undecided test that asks the machine and no other: `if
 * torch.cuda.is_available(): model = model.cuda()` leaves the model on
 * the host on the other path (machine_guard).
 *
 * Values live in the interpreter's arena; nothing here can fail.
 */
#include <string.h>

#include "internal.h"
#include "ecg/strmap.h"

/* What a device value names, read through the alternatives (alts.c)
 * the paths that chose it left: */
enum dc { DC_NO,        /* not a device chosen so */
	  DC_HOST,      /* the host on every path */
	  DC_GPU,       /* a device, not the host, on every path */
	  DC_COND };    /* a device when *text holds, else the host */

/* a sub-condition as an operand of "and" / "or" */
static const char *operand(struct interp *in, const char *t)
{
	return strstr(t, " and ") || strstr(t, " or ") ? afmt_memo(in, "(%s)", t, NULL) : t;
}

/* "not (c)", plainer where c is `not x` (one operand: no `and`, `or`,
 * conditional expression or lambda in it; `not f(a)`, `not x == y`): x;
 * or `not x and not y` (no parentheses in it): `x or y` */
static const char *negate(struct interp *in, const char *c)
{
	const char *p, *q = NULL, *out = NULL;

	if (!strncmp(c, "not ", 4) && !strstr(c, " and ") && !strstr(c, " or ") && !strstr(c, " if ") &&
	    !strstr(c, "lambda"))
		return c + 4;
	if (strncmp(c, "not ", 4) || strchr(c, '(') || strstr(c, " or "))
		return afmt_memo(in, "not (%s)", c, NULL);
	for (p = c; p; p = q ? q + 5 : NULL) {
		size_t n;

		if (strncmp(p, "not ", 4))
			return afmt_memo(in, "not (%s)", c, NULL);
		q = strstr(p, " and ");
		n = q ? (size_t)(q - p) : strlen(p);
		out = out ? afmt(in, "%s or %.*s", out, (int)(n - 4), p + 4) : afmt(in, "%.*s", (int)(n - 4), p + 4);
	}
	return out;
}

/* v's kind, with the condition of DC_COND in *text.  leaf_unknown: a
 * value not known stands for a device (it is bound where another path
 * bound a device). */
static enum dc dc_read(struct interp *in, const value_t *v, const char **text, int leaf_unknown, int depth)
{
	const char *ta = NULL, *tb = NULL, *c;
	enum dc a, b;

	if (!v || depth > 8)
		return DC_NO;
	if (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device")) {
		v = vdict_gets(v->u.inst->attrs, "type");
		if (!v)
			return DC_NO;
		leaf_unknown = 1;
	}
	if (v->k == VK_STR)
		return dev_is_host(v) == 1 ? DC_HOST : DC_GPU;
	if (v->k != VK_UNKNOWN || v->may_none)
		return DC_NO;
	if (!v->alts)
		return leaf_unknown ? DC_GPU : DC_NO;
	if (!v->alt_cond || !strmap_get(&in->machine_conds, v->alt_cond))
		return DC_NO;       /* a choice by another test (device.type == "mps") */
	a = dc_read(in, v->alts[0], &ta, 1, depth + 1);
	b = dc_read(in, v->alts[1], &tb, 1, depth + 1);
	if (a == DC_NO || b == DC_NO)
		return DC_NO;
	c = v->alt_cond;
	if (a == b && a != DC_COND)
		return a;
	if (a == DC_GPU && b == DC_HOST)
		*text = c;
	else if (a == DC_HOST && b == DC_GPU)
		*text = negate(in, c);
	else if (a == DC_GPU && b == DC_COND)
		*text = afmt_memo(in, "%s or %s", operand(in, c), operand(in, tb));
	else if (a == DC_COND && b == DC_HOST)
		*text = afmt_memo(in, "%s and %s", operand(in, c), operand(in, ta));
	else if (a == DC_HOST && b == DC_COND)
		*text = afmt_memo(in, "%s and %s", operand(in, negate(in, c)), operand(in, tb));
	else if (a == DC_COND && b == DC_GPU)
		*text = afmt_memo(in, "%s or %s", operand(in, negate(in, c)), operand(in, ta));
	else
		return DC_NO;   /* a choice on both paths: not said */
	return DC_COND;
}

/* The condition under which v names a device that is not the host, when
 * v is alternatives of the host on some path and a device (or a value
 * not known where another path bound a device) on the others; a
 * torch.device whose type is such alternatives too.  NULL otherwise. */
const char *devchoice_cond(struct interp *in, const value_t *v)
{
	const char *t = NULL;

	if (!v || !((v->k == VK_UNKNOWN && v->alts) || (v->k == VK_INST && v->u.inst->ext &&
	                                              !strcmp(v->u.inst->ext, "torch.device"))))
		return NULL;
	return dc_read(in, v, &t, 0, 0) == DC_COND ? t : NULL;
}

/* a device on every path: a str, a torch.device, or alternatives of them */
static int devish(const value_t *v, int depth)
{
	if (!v || depth > 8)
		return 0;
	if (v->k == VK_STR || (v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device")))
		return 1;
	return v->k == VK_UNKNOWN && v->alts && devish(v->alts[0], depth + 1) && devish(v->alts[1], depth + 1);
}

/* a and b, what two paths bound to one name, when alts.c's own pairs do
 * not keep them: the host device on one, a value not known on the other
 * (`device = torch.accelerator.current_accelerator()` when use_accel,
 * else torch.device("cpu")); or a device on one and a choice of devices
 * on the other (`if cuda: ... elif mps: ... else: cpu`).  merge_branches
 * and the journal keep both as alternatives, so that the choice is read
 * (devchoice_cond).  Every other reader sees an unknown. */
int devchoice_pair(const value_t *a, const value_t *b)
{
	if (!a || !b)
		return 0;
	if ((a->alts || b->alts) && devish(a, 0) && devish(b, 0))
		return 1;
	return (dev_is_host(a) == 1 && b->k == VK_UNKNOWN && !b->alts && !b->may_none) ||
	       (dev_is_host(b) == 1 && a->k == VK_UNKNOWN && !a->alts && !a->may_none);
}

/* Two device specs on the arms of a conditional expression whose test is
 * not decided: "cuda" if ... else "cpu". */
int devchoice_specs(const value_t *a, const value_t *b)
{
	int ha = dev_is_host(a), hb = dev_is_host(b);

	return a && b && a->k == VK_STR && b->k == VK_STR && ((ha == 1 && hb == 0) || (ha == 0 && hb == 1));
}

/* v a torch.device object, its type known (a str) or itself chosen at
 * run time (the alternatives devchoice_devices made for an inner
 * conditional expression) */
static value_t *device_type(struct interp *in, const value_t *v)
{
	value_t *t;
	const char *c = NULL;

	if (!v || v->k != VK_INST || !v->u.inst->ext || strcmp(v->u.inst->ext, "torch.device"))
		return NULL;
	t = vdict_gets(v->u.inst->attrs, "type");
	if (t && t->k == VK_UNKNOWN && t->alts && dc_read(in, t, &c, 1, 0) == DC_COND)
		return t;
	return t && t->k == VK_STR ? t : NULL;
}

/* A device type spec on one arm of a conditional expression, a choice
 * made at run time on the other, whichever arm is which: `torch.device(
 * "cuda") if torch.cuda.is_available() else torch.device("mps") if
 * torch.backends.mps.is_available() else torch.device("cpu")` -- the
 * inner expression chose between a device and the host, the outer one
 * adds a device in front (dc_read reads the nest: "cuda's test or
 * mps's").  A choice between two choices is not one (dc_read says none). */
static int nested_specs(struct interp *in, const value_t *a, const value_t *b)
{
	const char *c = NULL;

	if (!a || !b)
		return 0;
	if (a->k == VK_STR && b->k == VK_UNKNOWN && b->alts)
		return dc_read(in, b, &c, 1, 0) == DC_COND;
	if (b->k == VK_STR && a->k == VK_UNKNOWN && a->alts)
		return dc_read(in, a, &c, 1, 0) == DC_COND;
	return 0;
}

/* `torch.device("cuda") if torch.cuda.is_available() else
 * torch.device("cpu")`: two torch.device objects on the arms of a
 * conditional expression whose test (text) is not decided, the host on
 * one and a device on the other.  The one torch.device that
 * torch.device("cuda" if ... else "cpu") makes (torch.c): its type the
 * two types as alternatives under text, its index the arms' when they
 * agree (None, None), else not known.  NULL when a and b are not so. */
value_t *devchoice_devices(struct frame *f, const struct ast_hdr *site, const char *text, value_t *a, value_t *b)
{
	value_t *ta = device_type(f->in, a), *tb = device_type(f->in, b), *ia, *ib;
	struct vinst *c;

	if (!ta || !tb || !(devchoice_specs(ta, tb) || nested_specs(f->in, ta, tb)))
		return NULL;
	ia = vdict_gets(a->u.inst->attrs, "index");
	ib = vdict_gets(b->u.inst->attrs, "index");
	c = new_inst(f->in);
	c->ext = "torch.device";
	vdict_sets(f->in->a, c->attrs, "type", v_alts(f, text, ta, tb));
	vdict_sets(f->in->a, c->attrs, "index",
	           ia && ib && ia->k == VK_NONE && ib->k == VK_NONE
	           ? ia : unknown_at(f, site, "a device index of a spec chosen at run time"));
	return mk_inst_value(f->in, c);
}

/* Does v name a GPU for sure: "cuda", "cuda:0", torch.device("cuda")
 * (jobctx.c names_cuda), an int (a CUDA device index) -- not x.device of
 * a device tensor, which is where the job's data already is, not a GPU
 * it names? */
static int sure_gpu(const value_t *v)
{
	value_t *t;

	if (v && v->k == VK_INST && v->u.inst->ext && !strcmp(v->u.inst->ext, "torch.device") &&
	    (t = vdict_gets(v->u.inst->attrs, "index")) && t->k == VK_UNKNOWN && t->reason &&
	    !strcmp(t->reason, TENSOR_DEVICE_INDEX_REASON))
		return 0;
	return v && (v->k == VK_INT || names_cuda(v));
}

/* The question to the machine a GPU is named under: the text of the one
 * undecided test around f's line (a JC_COND) when that test asks the
 * machine (machine_conds: `if torch.cuda.is_available(): model =
 * model.cuda()`); NULL when there is none, or when another test not
 * decided is around it too (a periodic guard, a flag's `if`, a loop's
 * exit: the GPU is then named on a path the machine alone does not
 * choose). */
static const char *machine_guard(const struct frame *f)
{
	const struct jctx *j;
	const char *t = NULL;

	for (j = f->jc; j; j = j->up) {
		if (j->kind == JC_GUARD || j->kind == JC_ONCE || j->kind == JC_LOOP_EXIT)
			return NULL;
		if (j->kind != JC_COND)
			continue;
		if (t || !j->text || !strmap_get(&f->in->machine_conds, j->text))
			return NULL;
		t = j->text;
	}
	return t;
}

/* The job places data on `target` (NULL: .cuda(), a GPU named), outside a
 * forward: a choice notes its condition, a GPU named on a path the job
 * always takes makes the GPU sure; a GPU named only where the machine
 * answered yes (`if torch.cuda.is_available(): model.cuda()`) is a choice
 * too, the host on the other path: the data the job keeps there (the
 * model, then its outputs and the loss read off them) reach a device only
 * under that answer. */
void devchoice_place(struct frame *f, const value_t *target)
{
	struct interp *in = f->in;
	const char *c;

	if (f->mode == M_FWD)
		return;
	if (target && ((c = devchoice_cond(in, target)) || (c = framework_device_cond(in, target)))) {
		/* the first choice the job places data by (the model's, the
		 * batches'): a helper's own test of the same machine
		 * (`self.use_accel`) is that one's */
		if (!in->gpu_choice)
			in->gpu_choice = c;
		return;
	}
	if (target && !sure_gpu(target))
		return;
	if ((c = machine_guard(f))) {
		if (!in->gpu_choice)
			in->gpu_choice = c;
		return;
	}
	devchoice_sure(f);
}

/* The job needs a GPU whatever the machine from here on (set_device, an
 * NCCL process group), on a path it always takes. */
void devchoice_sure(struct frame *f)
{
	if (f->mode != M_FWD && !jc_find(f->jc, JC_COND) && !jc_find(f->jc, JC_GUARD))
		f->in->gpu_sure = 1;
}

/* The test of an `if` or a conditional expression read, its text: a
 * property of the machine (MACHINE_REASON: torch.cuda.is_available(),
 * `not` it, `and`/`or` with it undecided) makes the text one whose
 * alternatives choose a device. */
void devchoice_test(struct frame *f, const value_t *tv, const char *text)
{
	int added;

	if (tv && tv->k == VK_UNKNOWN && !tv->alts && tv->reason && !strcmp(tv->reason, MACHINE_REASON) && text)
		strmap_put(&f->in->machine_conds, text, &added);
}

const char *interp_gpu_condition(struct interp *in)
{
	if (!in || in->gpu_sure)
		return NULL;
	return in->gpu_choice;
}
