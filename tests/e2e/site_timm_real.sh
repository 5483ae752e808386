#!/bin/sh
# The real timm, read from its source (issue 17 point 2): a job that builds
# timm.create_model("vit_tiny_patch16_224", num_classes=10) through the
# library's registry, and a model of its own around timm's Block.  timm's
# LayerNorm is a subclass of nn.LayerNorm with its own __init__ calling
# super().__init__(num_channels, eps=eps, elementwise_affine=affine,
# **kwargs): its count comes from the arguments given to the base
# (interp/module.c, __ecg_base_args__).  The counts are PyTorch's:
#   vit_tiny_patch16_224: 5,717,416 with 1000 classes, so with 10:
#   5,717,416 - (192*1000 + 1000) + (192*10 + 10) = 5,526,346;
#   one Block(192, 3 heads): norm1 384, qkv 192x576 + 576, proj 192x192 +
#   192, norm2 384, fc1 192x768 + 768, fc2 768x192 + 192 = 444,864;
#   Block(dim=192, num_heads=3) directly: qkv_bias False, 444,288;
#   "vit_tiny_patch16_224.augreg_in21k" (its pretrained cfg: 21,843
#   classes): 5,717,416 - 193,000 + (192*21843 + 21843) = 9,740,115.
# The source is a git dir of huggingface/pytorch-image-models
# (ECG_TIMM_MIRROR, default /work/.mirror/huggingface+pytorch-image-models/
# repo) at commit aa4b5850 (timm 1.0.29.dev0); never committed.  The test
# skips, saying so, when it is not there.  The dist-info is written here.
. "$top_srcdir/tests/lib.sh"

MIRROR=${ECG_TIMM_MIRROR:-/work/.mirror/huggingface+pytorch-image-models/repo}
REV=aa4b5850c1543fa488abf260f18390eda46cf85d
"$GIT" --git-dir="$MIRROR" cat-file -e "$REV^{commit}" 2>/dev/null ||
	skip_all "timm's source is not here (a git dir with commit $REV; ECG_TIMM_MIRROR names it)"

SP="$T/site"
mkdir -p "$SP/timm-1.0.29.dev0.dist-info"
"$GIT" --git-dir="$MIRROR" archive "$REV" timm | tar -x -C "$SP"
printf 'Metadata-Version: 2.1\nName: timm\nVersion: 1.0.29.dev0\nRequires-Dist: torch\n' \
	>"$SP/timm-1.0.29.dev0.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import timm
from timm.models.vision_transformer import Block


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.Sequential(*[Block(dim=192, num_heads=3) for _ in range(2)])
        self.fc = torch.nn.Linear(192, 10)

    def forward(self, x):
        return self.fc(self.blocks(x).mean(1))


model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=10)
head = Head()
opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 3, 224, 224)).sum() + head(torch.randn(2, 197, 192)).sum()
    loss.backward()
    opt.step()
PY
cat >"$R/train21k.py" <<'PY'
import torch
import timm

model = timm.create_model("vit_tiny_patch16_224.augreg_in21k", pretrained=False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 3, 224, 224)).sum()
    loss.backward()
    opt.step()
PY
cat >"$R/trainlate.py" <<'PY'
import torch
import timm

vgg = timm.create_model("vgg11", pretrained=False)
xcit = timm.create_model("xcit_tiny_12_p16_224", pretrained=False)
opt = torch.optim.SGD(list(vgg.parameters()) + list(xcit.parameters()), lr=0.1)
for step in range(2):
    loss = vgg(torch.randn(2, 3, 224, 224)).sum() + xcit(torch.randn(2, 3, 224, 224)).sum()
    loss.backward()
    opt.step()
PY
for v in ese_vovnet19b_dw vovnet39a cspresnet50; do
	cat >"$R/train_$v.py" <<PY
import torch
import timm

model = timm.create_model("$v", pretrained=False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 3, 224, 224)).sum()
    loss.backward()
    opt.step()
PY
done
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "timm.create_model('vit_tiny_patch16_224') read from timm's source: exit 0"
P() { json "$T/o/computation_graph.json" "[(m['class'], m['params'], (m.get('repeat') or {}).get('count')) for m in d['modules'] if m['id'] == '$1'][0]"; }
# PyTorch's counts.  VisionTransformer passes `get_act_layer(act_layer) or
# nn.GELU`: get_act_layer(None) is None, so the `or` gives nn.GELU whatever
# ecg knows of a class's truth (the last operand of an `or` is its value,
# interp/eval.c).  build_model_with_cfg reads the model's pretrained cfg from
# timm's registry: register_model finds default_cfgs through
# sys.modules[fn.__module__], DefaultCfg.tags is a collections.deque, and
# PretrainedCfg.to_dict() is dataclasses.asdict() -- its num_classes sets
# the head of a tag whose cfg says 21,843 classes.
is "$(P model)" "('VisionTransformer', 5526346, None)" "  VisionTransformer(num_classes=10): 5,526,346"
is "$(P 'model/blocks.*')" "('Block', 444864, 12)" "  blocks: Block x 12 (depth of the registry's vit_tiny), 444,864 each: get_act_layer(None) or nn.GELU is nn.GELU"
is "$(P 'model/blocks.*.mlp.act')" "('torch.nn.GELU', 0, None)" "  its Mlp's activation: nn.GELU"
is "$(P 'model/blocks.*.norm1')" "('LayerNorm', 384, None)" "  timm's LayerNorm(nn.LayerNorm): 384, from what its __init__ gave the base"
is "$(P 'head/blocks.*')" "('Block', 444288, 2)" "the job's own model around timm's Block: x 2, 444,288 each (qkv_bias False)"
is "$(P head)" "('Head', 890506, None)" "  Head: 890,506"
json "$T/o/computation_graph.json" "[m['code_anchor'] for m in d['modules'] if m['id'] == 'model/blocks.*'][0]" |
	grep -q "^site:timm/models/vision_transformer.py:Block.forward:"
ok $? "  anchored site:timm/models/vision_transformer.py"
is "$(json "$T/o/computation_graph.json" '[(p["name"], p["version"]) for p in d["environment"]["packages"]]')" \
	"[('timm', '1.0.29.dev0')]" "  the header names timm and its version"

run_ecg extract --repo "$R" --entry train21k.py --out "$T/o21" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "timm.create_model('vit_tiny_patch16_224.augreg_in21k'): exit 0"
P21() { json "$T/o21/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P21 '')" "('VisionTransformer', 9740115)" "  the tag's pretrained cfg (21,843 classes) read from the registry: 9,740,115"
is "$(P21 head)" "('torch.nn.Linear', 4215699)" "  its head: Linear(192, 21843)"

# Models of the modules timm imports last (vgg, xcit: after ~1,000 models
# registered by @register_model, ~210 evaluation steps each).  Charged to
# register_model as one account they passed the per-function bound and
# these names were not in the registry; a call from a module's statements
# is charged to its site (interp/function.c).  vgg11's count is PyTorch's
# (torchvision's vgg11 too): 132,863,336; its convs' widths are
# cast(int, v) (typing.cast is v).
run_ecg extract --repo "$R" --entry trainlate.py --out "$T/olate" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "timm.create_model of models in the modules imported last: exit 0"
# (the two roots, by class: their ids are not what this checks)
PL() { json "$T/olate/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m.get('class') == '$1' and m['kind'] == 'model']"; }
is "$(PL VGG)" "[('VGG', 132863336)]" "  vgg11 found in the registry: 132,863,336"
is "$(json "$T/olate/computation_graph.json" "[m['class'] for m in d['modules'] if m.get('class') == 'Xcit' and m['kind'] == 'model']")" "['Xcit']" \
	"  xcit_tiny_12_p16_224 (xcit, the last module) found in the registry"
is "$(json "$T/olate/computation_graph.json" "[u['anchor'] for u in d['unresolved'] if u['what'] == 'a costly function']")" "[]" \
	"  no registry function cut at the per-function bound"

# vovnet (PyTorch's counts: torch 1.13 with timm at this commit on its
# path, sum of p.numel()): its ConvNormAct asks `norm_act_layer in
# _NORM_ACT_REQUIRES_ARG`, a set of classes (a class compared by identity,
# interp/object.c class_same); each stage's OsaBlock holds a DropPath made
# only when a rate read from torch.linspace(...).tolist() is > 0 (0
# parameters either way, modtree.c); ese's EffectiveSEModule gate is
# create_act_layer('hard_sigmoid'): `nn.Hardsigmoid if _has_hardsigmoid
# else HardSigmoidMe`, `'hardsigmoid' in dir(torch.nn.functional)` a test
# of torch's version: both leaf modules kept, 0 parameters either way
# (interp/alts.c).  Both counts were null.
for v in ese_vovnet19b_dw vovnet39a cspresnet50; do
	run_ecg extract --repo "$R" --entry "train_$v.py" --out "$T/o_$v" -q --no-cache --no-site-env --no-env --site "$SP"
	is "$rc" 0 "timm.create_model('$v'): exit 0"
done
PV() { json "$T/o_$1/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$2'][0]"; }
is "$(PV ese_vovnet19b_dw '')" "('VovNet', 6543080)" "  ese_vovnet19b_dw: 6,543,080"
is "$(PV ese_vovnet19b_dw stages.0.blocks.0.attn)" "('EffectiveSEModule', 65792)" "  its EffectiveSEModule: fc 256x256 + 256, a gate of 0 either way"
is "$(PV vovnet39a '')" "('VovNet', 22600296)" "  vovnet39a: 22,600,296"
# cspnet's stages: `[dict(zip(cfg_dict.keys(), values)) for values in
# zip(*cfg_dict.values())]`, where dict() of pairs gave {} (interp/
# builtins.c): no stage was built, and the stem's ConvNormAct said 9,408
# (its BatchNormAct2d from a partial not read); PyTorch: 21,616,168, four
# CrossStage of 227,840, 1,053,952, 5,913,088 and 13,386,752.
is "$(PV cspresnet50 '')" "('CspNet', 21616168)" "cspresnet50: 21,616,168"
is "$(PV cspresnet50 stages.0)" "('CrossStage', 227840)" "  stages.0: CrossStage, 227,840"
is "$(PV cspresnet50 stem.conv1)" "('ConvNormAct', 9536)" "  stem.conv1: ConvNormAct, 9,536 (conv 9,408 and its BatchNormAct2d 128)"
done_testing
