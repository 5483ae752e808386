#!/bin/sh
# timm's EfficientNet and MobileNetV3 families read from timm's source
# (issue 17): their blocks are built from architecture strings
# (timm/models/_efficientnet_builder.py).  _decode_block_str splits
# 'ir_r2_k3_s2_e6_c24_se0.25' with str.split and re.split(r'(\d.*)', op)
# (interp/regex.c), _parse_ksize asks ss.isdigit(), _scale_stage_depth
# takes math.ceil/round of the depth multiplier and deepcopies each block's
# args; EfficientNet's `norm_layer or nn.BatchNorm2d` is a functools.partial
# (true) and `act_layer or nn.ReLU` nn.SiLU or timm's Swish by a test of
# torch's version (both true: interp/values.c value_truth of alternatives);
# the builder's get_attn(partial(SqueezeExcite, ...)) asks isinstance() of
# the partial against nn.Module, str and bool (interp/builtins.c);
# MobileNetV3's classifier is timm's Linear(nn.Linear) with a forward only,
# built by nn.Linear's constructor with the call's arguments (interp/
# object.c).  Every count was null.
# The counts are PyTorch's (torch 1.13 with timm at this commit on its
# path, sum of p.numel(), computed once):
#   efficientnet_b0 5,288,548 (blocks 3,594,460; blocks.0.0 1,448;
#     blocks.2.0.se 1,878); tf_efficientnet_b0 5,288,548 (the same blocks,
#     'same' padding); efficientnet_b2 9,109,994 (width 1.1, depth 1.2:
#     blocks.5 holds 5 blocks, blocks.5.1..4 686,868 each);
#   mobilenetv3_large_100 5,483,032 (blocks.2.0.se 3,552, its gate
#     hard_sigmoid); mobilenetv3_small_100 2,542,856 (classifier timm's
#     Linear 1,025,000; blocks.5.0 ConvBnAct 56,448); mixnet_s 4,134,606
#     (MixedConv2d's kernel lists '3.5.7' via _parse_ksize).
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

MODELS="efficientnet_b0 tf_efficientnet_b0 efficientnet_b2 mobilenetv3_large_100 mobilenetv3_small_100 mixnet_s"
R="$T/job"
mkrepo "$R"
for v in $MODELS; do
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

for v in $MODELS; do
	run_ecg extract --repo "$R" --entry "train_$v.py" --out "$T/o_$v" -q --no-cache --no-site-env --no-env --site "$SP"
	is "$rc" 0 "timm.create_model('$v'): exit 0"
done
P() { json "$T/o_$1/computation_graph.json" "[(m['class'], m['params'], (m.get('repeat') or {}).get('count')) for m in d['modules'] if m['id'] == '$2'][0]"; }
is "$(P efficientnet_b0 '')" "('EfficientNet', 5288548, None)" "efficientnet_b0: 5,288,548"
is "$(P efficientnet_b0 blocks)" "('torch.nn.Sequential', 3594460, None)" "  its blocks, built from the block strings: 3,594,460"
is "$(P efficientnet_b0 blocks.0.0)" "('DepthwiseSeparableConv', 1448, None)" "  blocks.0.0: 'ds_r1_k3_s1_e1_c16_se0.25', a DepthwiseSeparableConv of 1,448"
is "$(P efficientnet_b0 blocks.2.0.se)" "('SqueezeExcite', 1878, None)" "  blocks.2.0.se: SqueezeExcite, 1,878 (se_ratio 0.25 from 'se0.25')"
is "$(P tf_efficientnet_b0 '')" "('EfficientNet', 5288548, None)" "tf_efficientnet_b0: 5,288,548"
is "$(P efficientnet_b2 '')" "('EfficientNet', 9109994, None)" "efficientnet_b2 (channel 1.1, depth 1.2): 9,109,994"
is "$(P efficientnet_b2 blocks.5.1:5)" "('InvertedResidual', 686868, 4)" "  blocks.5.1:5: InvertedResidual x 4 (ceil(4 x 1.2) = 5 in the stage), 686,868 each"
is "$(P mobilenetv3_large_100 '')" "('MobileNetV3', 5483032, None)" "mobilenetv3_large_100: 5,483,032"
is "$(P mobilenetv3_large_100 blocks.2.0.se)" "('SqueezeExcite', 3552, None)" "  blocks.2.0.se: partial(SqueezeExcite, gate_layer='hard_sigmoid', ...) through get_attn, 3,552"
is "$(P mobilenetv3_small_100 '')" "('MobileNetV3', 2542856, None)" "mobilenetv3_small_100: 2,542,856"
is "$(P mobilenetv3_small_100 classifier)" "('Linear', 1025000, None)" "  classifier: timm's Linear(nn.Linear), a forward only: 1,025,000"
is "$(P mobilenetv3_small_100 blocks.5.0)" "('ConvBnAct', 56448, None)" "  blocks.5.0: 'cn_r1_k1_s1_c576', ConvBnAct, 56,448"
is "$(P mixnet_s '')" "('EfficientNet', 4134606, None)" "mixnet_s (kernel lists 'k3.5.7'): 4,134,606"
done_testing
