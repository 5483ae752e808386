#!/bin/sh
# apex's FusedLayerNorm / FusedRMSNorm, read from apex's source (issue 17:
# Megatron's `local` transformer_impl normalizes with apex's
# FusedLayerNorm).  Its constructor asks `isinstance(normalized_shape,
# numbers.Integral)` -- an int is one (the numeric tower of numbers,
# interp/builtins.c) -- and makes weight and bias Parameter(torch.empty(
# *normalized_shape)) when elementwise_affine (default True); FusedRMSNorm
# only a weight.  It imports its C extension (importlib.import_module(
# "fused_layer_norm_cuda"), not installed): an unknown module, the rest
# read.  By hand: FusedLayerNorm(1024) 2 x 1024 = 2048, FusedLayerNorm(
# [4, 256]) 2 x 4 x 256 = 2048, FusedLayerNorm(1024,
# elementwise_affine=False) 0, FusedRMSNorm(1024) 1024.  The source is a
# git dir of NVIDIA/apex (ECG_APEX_MIRROR, default
# /work/.mirror/NVIDIA+apex/repo) at commit 6424da3b; never committed.
# The test skips, saying so, without it.
. "$top_srcdir/tests/lib.sh"

MIRROR=${ECG_APEX_MIRROR:-/work/.mirror/NVIDIA+apex/repo}
REV=6424da3b4faa6c8f062da4a48c424fff3f02d42d
"$GIT" --git-dir="$MIRROR" cat-file -e "$REV^{commit}" 2>/dev/null ||
	skip_all "apex's source is not here (a git dir with commit $REV; ECG_APEX_MIRROR names it)"

SP="$T/site"
mkdir -p "$SP/apex-0.1.dist-info"
"$GIT" --git-dir="$MIRROR" archive "$REV" apex/__init__.py apex/_autocast_utils.py apex/normalization | tar -x -C "$SP"
printf 'Metadata-Version: 2.1\nName: apex\nVersion: 0.1\nRequires-Dist: torch\n' >"$SP/apex-0.1.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
from apex.normalization import FusedLayerNorm, FusedRMSNorm


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = FusedLayerNorm(1024, eps=1e-5)
        self.ln2 = FusedLayerNorm([4, 256])
        self.ln3 = FusedLayerNorm(1024, elementwise_affine=False)
        self.rms = FusedRMSNorm(1024)

    def forward(self, x):
        return self.rms(self.ln3(self.ln(x))) + self.ln2(x.view(-1, 4, 256)).view(-1, 1024)


model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 1024, device="cuda")).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "apex norms"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "apex from its source: exit 0"
is "$(json "$T/o/computation_graph.json" "sorted((m['id'], m['class'], m['params']) for m in d['modules'] if m.get('class'))")" \
	"[('', 'Net', 5120), ('ln', 'FusedLayerNorm', 2048), ('ln2', 'FusedLayerNorm', 2048), ('ln3', 'FusedLayerNorm', 0), ('rms', 'FusedRMSNorm', 1024)]" \
	"  the norms' counts by hand from apex's code"
is "$(json "$T/o/computation_graph.json" "[m['code_anchor'] for m in d['modules'] if m['id'] == 'ln']")" \
	"['site:apex/normalization/fused_layer_norm.py:FusedLayerNorm.forward:815']" \
	"  anchored in apex's file"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "  the records are valid (schema_check.py)"
done_testing
