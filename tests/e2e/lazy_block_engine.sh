#!/bin/sh
# Two readings of a pipeline-parallel trainer (huggingface/nanotron):
# - a class that extends one of Python's own (abc.ABC) and defines
#   forward is no module: a pipeline engine whose forward(model=...) runs
#   the model is not the job's model (interp/object.c).  Before, the engine
#   was taken for the model, with 0 parameters;
# - a module whose forward calls an attribute it was not seen to get (a
#   block built later by a method ecg did not follow) has no parameter
#   count: its children are not known (interp/attr.c, eval.c; modtree.c).
#   Before, its count read 0.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
from abc import ABC

import numpy as np
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, builder):
        super().__init__()
        self.builder = builder

    def build(self, rank):
        if rank >= 0:
            self.inner = self.builder()

    def forward(self, x):
        return self.inner(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(lambda: nn.Linear(16, 16)) for _ in range(4)])
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


class Engine(ABC):
    def forward(self, model, batch):
        return model(batch)

    def train_batch(self, model, batch):
        return self.forward(model, batch)


model = Net()
costs = np.cumsum([torch.cuda.device_count() for _ in model.blocks])
for block, cost in zip(model.blocks, costs):
    block.build(0)
model = model.cuda()
engine = Engine()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = engine.train_batch(model, torch.randn(4, 16, device="cuda")).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-env
is "$rc" 0 "extract exits 0"
is "$(json "$T/o/computation_graph.json" "[m['class'] for m in d['modules'] if m['id'] == '']")" "['Net']" \
	"the model is Net, not the engine whose forward runs it"
is "$(json "$T/o/computation_graph.json" "[(m['id'], m['params']) for m in d['modules'] if m['id'] in ('', 'head')]")" \
	"[('', None), ('head', 34)]" "the model's count is not known (blocks whose submodule ecg did not see built); the head's 34"
is "$(json "$T/o/computation_graph.json" "[m['id'] for m in d['modules'] if m.get('class') == 'Block' and m.get('params') == 0]")" \
	"[]" "no block is said to hold 0 parameters"
done_testing
