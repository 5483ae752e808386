#!/bin/sh
# A Transformer-Engine-style package installed in a site directory (issue
# 17): tplib (tests/schedule_fixtures/autograd_apply_alternatives' package,
# copied into the site with a dist-info) imports a C extension that is not
# installed (`import tplib_cuda as tex` at the top of tplib/linear.py): an
# unknown module, the file read all the same.  Its Linear
# picks _LinearFn.apply or _LinearFn.forward by torch.is_grad_enabled()
# and passes *[] or *[None] before the tensors; the row-parallel layer's
# forward all-reduces its output over the group it is given (tp_group=):
# a tensor-parallel collective anchored in the site's file.  Its weight
# is [out, in // tp_size] (tp_size given): the count is known.
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/tplib-1.0.dist-info"
cp -R "$top_srcdir/tests/schedule_fixtures/autograd_apply_alternatives/tplib" "$SP/"
printf 'Metadata-Version: 2.1\nName: tplib\nVersion: 1.0\nRequires-Dist: torch\n' >"$SP/tplib-1.0.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.distributed as dist
from tplib import Linear

dist.init_process_group("nccl")
tp_group = dist.new_group([0, 1])
model = Linear(32, 16, tp_group=tp_group, tp_size=2, parallel_mode="row").cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 16, device="cuda")).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "row-parallel"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --env WORLD_SIZE=2 --site "$SP"
is "$rc" 0 "a TE-style package with a C extension not installed: exit 0"
is "$(json "$T/o/computation_graph.json" "[(m['class'], m['params'], m['code_anchor']) for m in d['modules'] if m['id'] == '']")" \
	"[('Linear', 272, 'site:tplib/linear.py:Linear.forward:51')]" \
	"  the layer read from the site: weight [16, 32 // 2] + bias 16 = 272"
is "$(json "$T/o/computation_graph.json" "sorted(set(m['op'] for m in d['modules'] if (m.get('op') or '').startswith('tplib_cuda.')))")" \
	"['tplib_cuda.generic_gemm']" \
	"  its C extension's gemm: a call of the unknown module, the file read past it"
is "$(json "$T/o/execution_schedule.json" "[(c['op'], c['parallelism'], c['async_op'], c['anchor'], c['phase'], c['condition']) for c in d['device_device']]")" \
	"[('all_reduce', 'tensor', False, 'site:tplib/comm.py:allreduce:5', 'forward', None)]" \
	"  the row-parallel output all-reduced over tp_group in forward, through F.apply or F.forward"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "  the records are valid (schema_check.py)"
done_testing
