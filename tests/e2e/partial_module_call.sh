#!/bin/sh
# A module called through functools.partial in a forward (OLMo's
# checkpointing wrapper): the module's event keeps its own copy of the
# call's arguments -- the partial's argument array is freed after the call
# (interp/call.c), and the record's shapes read the arguments later
# (modtree.c mt_shapes).  Before, this read freed memory: allenai/OLMo's
# scripts/train.py crashed ecg (SIGSEGV); ASan names it a use after free.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import functools

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(16, 16) for _ in range(3)])

    def forward(self, x):
        for block in self.blocks:
            run = functools.partial(block)
            x = run(x)
        return x


model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 16, device="cuda")).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-env
is "$rc" 0 "extract exits 0"
is "$(json "$T/o/computation_graph.json" "[m.get('shapes', {}).get('in') for m in d['modules'] if m['id'] == 'blocks.*']")" \
	"[[[4, 16]]]" "the block called through the partial has its input's shape"
done_testing
