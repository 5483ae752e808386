#!/bin/sh
# The real fairscale (0.4.13), read from its source (issue 17 point 2): a
# llama-style model of VocabParallelEmbedding, ColumnParallelLinear and
# RowParallelLinear.  Their forwards' collectives are tensor-parallel ones
# (the group the library holds as _MODEL_PARALLEL_GROUP): RowParallel's
# all_reduce (mappings.py _reduce) and ColumnParallel's all_gather
# (_gather, gather_output=True of the output layer).  Their weights are
# Parameter(torch.empty(out_features // world_size, ...)) with the
# model-parallel world size the run's: the counts are null, never 0.
# The source is a git dir of facebookresearch/fairscale (ECG_FAIRSCALE_
# MIRROR, default /work/.mirror/facebookresearch+fairscale/repo) at commit
# 146f1602; never committed.  The test skips, saying so, without it.
. "$top_srcdir/tests/lib.sh"

MIRROR=${ECG_FAIRSCALE_MIRROR:-/work/.mirror/facebookresearch+fairscale/repo}
REV=146f160241651e1211c4247979f159a4ef43b54a
"$GIT" --git-dir="$MIRROR" cat-file -e "$REV^{commit}" 2>/dev/null ||
	skip_all "fairscale's source is not here (a git dir with commit $REV; ECG_FAIRSCALE_MIRROR names it)"

SP="$T/site"
mkdir -p "$SP/fairscale-0.4.13.dist-info"
"$GIT" --git-dir="$MIRROR" archive "$REV" fairscale | tar -x -C "$SP"
printf 'Metadata-Version: 2.1\nName: fairscale\nVersion: 0.4.13\nRequires-Dist: torch\n' \
	>"$SP/fairscale-0.4.13.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.distributed as dist
import torch.nn.functional as F
from fairscale.nn.model_parallel.initialize import initialize_model_parallel
from fairscale.nn.model_parallel.layers import ColumnParallelLinear, RowParallelLinear, VocabParallelEmbedding


class Block(torch.nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = ColumnParallelLinear(dim, hidden, bias=False, gather_output=False, init_method=lambda x: x)
        self.w2 = RowParallelLinear(hidden, dim, bias=False, input_is_parallel=True, init_method=lambda x: x)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)))


class Model(torch.nn.Module):
    def __init__(self, vocab, dim, n_layers):
        super().__init__()
        self.tok = VocabParallelEmbedding(vocab, dim, init_method=lambda x: x)
        self.layers = torch.nn.ModuleList([Block(dim, 4 * dim) for _ in range(n_layers)])
        self.out = ColumnParallelLinear(dim, vocab, bias=False, init_method=lambda x: x)

    def forward(self, t):
        h = self.tok(t)
        for layer in self.layers:
            h = layer(h)
        return self.out(h)


dist.init_process_group("nccl")
initialize_model_parallel(2)
model = Model(1000, 64, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randint(0, 1000, (2, 16), device="cuda")).float().mean()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "fairscale 0.4.13 from its source: exit 0"
G() { json "$T/o/computation_graph.json" "$1"; }
is "$(G "[(m['class'], (m.get('repeat') or {}).get('count')) for m in d['modules'] if m['id'] in ('layers.*', 'layers.*.w1', 'layers.*.w2', 'tok', 'out')]")" \
	"[('VocabParallelEmbedding', None), ('Block', 4), ('ColumnParallelLinear', None), ('RowParallelLinear', None), ('ColumnParallelLinear', None)]" \
	"  the library's layers, Block x 4"
is "$(G "[m['params'] for m in d['modules'] if m['id'] in ('', 'layers.*.w1', 'layers.*.w2')]")" "[None, None, None]" \
	"  their counts are null (the model-parallel size is the run's), never 0"
is "$(json "$T/o/execution_schedule.json" "sorted(set((c['op'], c['parallelism']) for c in d['device_device'] if c['anchor'].startswith('site:fairscale/')))")" \
	"[('all_gather', 'tensor'), ('all_reduce', 'tensor')]" \
	"  RowParallel's all_reduce and the output's all_gather: tensor-parallel collectives"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "  the records are valid (schema_check.py)"
# WORLD_SIZE pinned to 2, initialize_model_parallel(2): groups =
# LongTensor(range(2)).reshape(1, 1, 1, 2), known element by element; the
# one model-parallel group is new_group(groups[0, 0, 0, :].tolist()), two
# ranks.  The `if` that keeps it compares with the rank (the run's), so
# _MODEL_PARALLEL_GROUP is that group or still None -- the default group,
# the world of 2 -- two ranks on every path: each layer holds half its
# weight (layers.py: out_features // world_size rows, in_features //
# world_size columns)
run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --no-env --env WORLD_SIZE=2 --site "$SP"
is "$rc" 0 "WORLD_SIZE=2: exit 0"
is "$(json "$T/o2/computation_graph.json" "[(m['id'], m['params']) for m in d['modules'] if m['id'] in ('layers.*', 'layers.*.w1', 'layers.*.w2', 'out')]")" \
	"[('layers.*', 16384), ('layers.*.w1', 8192), ('layers.*.w2', 8192), ('out', 32000)]" \
	"  the per-rank counts: 256 // 2 x 64, 64 x 256 // 2, 1000 // 2 x 64"
done_testing
