#!/bin/sh
# Transformer Engine (2.20.0.dev0), read from its source (issue 17): the
# layers Megatron-LM's default transformer_impl ('transformer_engine')
# builds, as TE modules -- megatron/core/extensions/transformer_engine.py's
# TELayerNormColumnParallelLinear, TERowParallelLinear and
# TEDotProductAttention subclass te.pytorch.LayerNormLinear, Linear and
# DotProductAttention, and Megatron's TE layer spec (gpt_layer_specs.py
# get_gpt_layer_with_transformer_engine_submodules) is linear_qkv =
# LayerNormLinear (the input layernorm fused: input_layernorm IdentityOp),
# core_attention, linear_proj = Linear (row), pre_mlp_layernorm IdentityOp,
# linear_fc1 = LayerNormLinear (column), linear_fc2 = Linear (row).  The
# job builds one such layer of GPT-3 175B (hidden 12288, 96 heads,
# ffn 4 x hidden, add_bias_linear True, TP 8) with the arguments Megatron
# passes (tp_group, tp_size, parallel_mode, bias); Megatron's own job does
# not reach them here (its layer spec's choice depends on arguments ecg
# does not pin).  TE imports its C extension (transformer_engine_torch,
# not installed: `import transformer_engine_torch as tex` at the top of
# module/linear.py and base.py): an unknown module, the files read all
# the same.  No PyTorch truth is possible (TE needs CUDA to import); every
# number below is derived by hand from TE's code, as written beside it.
# The source is a git dir of NVIDIA/TransformerEngine (ECG_TE_MIRROR,
# default /work/.mirror/NVIDIA+TransformerEngine/repo) at commit d0067d0da;
# never committed.  The test skips, saying so, without it.
. "$top_srcdir/tests/lib.sh"

MIRROR=${ECG_TE_MIRROR:-/work/.mirror/NVIDIA+TransformerEngine/repo}
REV=d0067d0da6cb01811b8072a7d304f0e00344ce2b
"$GIT" --git-dir="$MIRROR" cat-file -e "$REV^{commit}" 2>/dev/null ||
	skip_all "Transformer Engine's source is not here (a git dir with commit $REV; ECG_TE_MIRROR names it)"

SP="$T/site"
mkdir -p "$SP/transformer_engine-2.20.0.dev0.dist-info"
"$GIT" --git-dir="$MIRROR" archive "$REV" transformer_engine/__init__.py transformer_engine/common \
	transformer_engine/debug transformer_engine/pytorch | tar -x -C "$SP"
printf 'Metadata-Version: 2.1\nName: transformer_engine\nVersion: 2.20.0.dev0\nRequires-Dist: torch\n' \
	>"$SP/transformer_engine-2.20.0.dev0.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import os

import torch
import torch.distributed as dist
import transformer_engine.pytorch as te

dist.init_process_group("nccl")
tp = dist.new_group(list(range(8)))
H = 12288
SEQ_PAR = os.environ.get("SEQ_PAR") == "1"


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_qkv = te.LayerNormLinear(H, 3 * H, bias=True, tp_group=tp, tp_size=8,
                                             parallel_mode="column", sequence_parallel=SEQ_PAR)
        self.core_attention = te.DotProductAttention(96, 128, attn_mask_type="causal", tp_group=tp, tp_size=8)
        self.linear_proj = te.Linear(H, H, bias=True, tp_group=tp, tp_size=8, parallel_mode="row",
                                     sequence_parallel=SEQ_PAR)
        self.linear_fc1 = te.LayerNormLinear(H, 4 * H, bias=True, tp_group=tp, tp_size=8,
                                             parallel_mode="column", sequence_parallel=SEQ_PAR)
        self.linear_fc2 = te.Linear(4 * H, H, bias=True, tp_group=tp, tp_size=8, parallel_mode="row",
                                    sequence_parallel=SEQ_PAR)

    def forward(self, x):
        q, k, v = torch.chunk(self.linear_qkv(x).view(2048, 1, 12, 384), 3, dim=-1)
        x = x + self.linear_proj(self.core_attention(q, k, v))
        return x + self.linear_fc2(torch.nn.functional.gelu(self.linear_fc1(x)))


model = Layer().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2048, 1, H, device="cuda")).float().sum()
    loss.backward()
    opt.step()
PY
commit "$R" "one GPT-3 175B layer of TE modules, TP 8"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env \
	--env WORLD_SIZE=8 --env RANK --env SEQ_PAR=0 --site "$SP"
is "$rc" 0 "Transformer Engine from its source: exit 0"
G() { json "$T/o/computation_graph.json" "$1"; }
S() { json "$T/o/execution_schedule.json" "$1"; }
# Per rank, TP 8, hidden h = 12288 (module/linear.py Linear.__init__:
# out_features // tp_size for "column", in_features // tp_size for "row";
# weight [out, in]; bias [out] -- a row-parallel bias is whole;
# layernorm_linear.py LayerNormLinear adds layer_norm_weight and
# layer_norm_bias of in_features each, normalization 'LayerNorm'):
#   linear_qkv  3h/8 x h + 3h/8 + 2h  = 56,623,104 + 4,608 + 24,576 = 56,652,288
#   linear_proj h x h/8 + h           = 18,874,368 + 12,288          = 18,886,656
#   linear_fc1  4h/8 x h + 4h/8 + 2h  = 75,497,472 + 6,144 + 24,576 = 75,528,192
#   linear_fc2  h x 4h/8 + h          = 75,497,472 + 12,288          = 75,509,760
#   core_attention: DotProductAttention holds no parameter (softmax_type
#   'vanilla': no softmax_offset); its backends neither
#   the layer: 12h^2/8 + 3h/8 + h + 4h/8 + h + 4h = 226,576,896
#   (= GPT-3 175B's 12h^2 + 13h per layer with the TP-split parts / 8)
is "$(G "[(m['id'], m['class'], m['params']) for m in d['modules'] if m['id'] in ('', 'linear_qkv', 'core_attention', 'linear_proj', 'linear_fc1', 'linear_fc2')]")" \
	"[('', 'Layer', 226576896), ('linear_qkv', 'LayerNormLinear', 56652288), ('core_attention', 'DotProductAttention', 0), ('linear_proj', 'Linear', 18886656), ('linear_fc1', 'LayerNormLinear', 75528192), ('linear_fc2', 'Linear', 75509760)]" \
	"  TE's modules, per-rank counts by hand from its code"
is "$(G "[m['code_anchor'] for m in d['modules'] if m['id'] in ('linear_qkv', 'linear_proj')]")" \
	"['site:transformer_engine/pytorch/module/layernorm_linear.py:LayerNormLinear.forward:1674', 'site:transformer_engine/pytorch/module/linear.py:Linear.forward:1872']" \
	"  anchored in TE's files"
is "$(G "'transformer_engine_torch' in d['environment'].get('absent', [])")" True \
	"  its C extension is named absent; the modules importing it are read"
# Forward, sequence_parallel False (module/linear.py _linear_forward_impl):
# `elif parallel_mode == "row" and args.tp_size > 1:` ... `elif
# args.tensor_parallel: out, _ = allreduce(out, tp_group)` (symmetric_ar_type
# None) -- distributed.py allreduce: torch.distributed.all_reduce(inp,
# group=tp_group, async_op=False), in linear_proj and linear_fc2, every
# step, under no condition.  The column-parallel layers gather nothing in
# forward (TE has no gather_output); their backward all-reduces the input
# gradient through the same helper (async_op=True), under
# `ctx.parallel_mode == "column" ...` which ecg does not decide: one row for
# the anchor, the forward's.
is "$(S "[(c['op'], c['parallelism'], c['async_op'], c['anchor'], c['phase']) for c in d['device_device'] if c['condition'] is None]")" \
	"[('all_reduce', 'tensor', False, 'site:transformer_engine/pytorch/distributed.py:allreduce:2107', 'forward')]" \
	"  the row-parallel output all-reduce over the TP group, in forward, unconditional"
is "$(S "sorted(set(c['parallelism'] for c in d['device_device']))")" "['context', 'tensor']" \
	"  every other row tensor-parallel, or the context-parallel exchange under its condition"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "  the records are valid (schema_check.py)"

# sequence_parallel True: the row-parallel output is reduce-scattered
# instead (`if sequence_parallel: out, _ = reduce_scatter_along_first_dim(
# out, tp_group)`, distributed.py: torch.distributed.reduce_scatter_tensor,
# async_op False), under no condition; the column-parallel input is
# all-gathered (layernorm_linear.py: `with_input_all_gather = parallel_mode
# == "column" and sequence_parallel` -> gather_along_first_dim), whose
# branch depends on the input's quantized type, not known here: a row
# with a condition.  The counts do not change.
run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --no-env \
	--env WORLD_SIZE=8 --env RANK --env SEQ_PAR=1 --site "$SP"
is "$rc" 0 "sequence parallel: exit 0"
is "$(json "$T/o2/execution_schedule.json" "[(c['op'], c['parallelism'], c['async_op'], c['anchor'], c['phase']) for c in d['device_device'] if c['condition'] is None]")" \
	"[('reduce_scatter_tensor', 'tensor', False, 'site:transformer_engine/pytorch/distributed.py:reduce_scatter_along_first_dim:955', 'forward')]" \
	"  the row-parallel output reduce-scattered, in forward, unconditional"
is "$(json "$T/o2/execution_schedule.json" "[(c['op'], c['phase']) for c in d['device_device'] if c['anchor'] == 'site:transformer_engine/pytorch/distributed.py:gather_along_first_dim:1825']")" \
	"[('all_gather_into_tensor', 'forward')]" \
	"  the column-parallel input all-gathered in forward (with the condition of its branch)"
is "$(json "$T/o2/computation_graph.json" "d['modules'][0]['params']")" 226576896 "  the layer's count unchanged"

# Without tp_size, Linear.__init__ takes get_distributed_world_size(
# tp_group): the size of the group new_group(range(TP)) made -- null while
# TP is not pinned (never the count of some size), known once it is:
# TP=4, Linear(64, 64, row) 64 x 64/4 + 64 = 1,088; LayerNormLinear(64,
# 128, column) 128/4 x 64 + 128/4 + 2 x 64 = 2,208.
R2="$T/job2"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import os

import torch
import torch.distributed as dist
import transformer_engine.pytorch as te

dist.init_process_group("nccl")
tp = dist.new_group(list(range(int(os.environ["TP"]))))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = te.Linear(64, 64, tp_group=tp, parallel_mode="row")
        self.b = te.LayerNormLinear(64, 128, tp_group=tp, parallel_mode="column")

    def forward(self, x):
        return self.a(self.b(x)[..., :64])


model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 64, device="cuda")).sum()
    loss.backward()
    opt.step()
PY
commit "$R2" "the group's size from the environment"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o3" -q --no-cache --no-site-env --no-env --env WORLD_SIZE=8 --site "$SP"
is "$rc" 0 "tp_size from the group, TP not pinned: exit 0"
is "$(json "$T/o3/computation_graph.json" "[(m['id'], m['params']) for m in d['modules'] if m['id'] in ('', 'a', 'b')]")" \
	"[('', None), ('b', None), ('a', None)]" "  the counts are null, never a guess"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o4" -q --no-cache --no-site-env --no-env --env WORLD_SIZE=8 --env TP=4 --site "$SP"
is "$(json "$T/o4/computation_graph.json" "[(m['id'], m['params']) for m in d['modules'] if m['id'] in ('', 'a', 'b')]")" \
	"[('', 3296), ('b', 2208), ('a', 1088)]" "  TP=4: the per-rank counts"
done_testing
