#!/bin/sh
# Start-up code as frameworks write it (issue 16.3).
#
# A helper that returns on a path an undecided condition takes and returns
# something else later (`if not os.path.isdir(path): return False ...
# return True`, Megatron's has_modelopt_state) returns a value that is not
# known: a layer count chosen by it is null, never the later path's value.
# (The model built through a builder named by a dotted path, a callback in
# functools.partial and ModuleSpec/build_module specs is the oracle fixture
# tests/fixtures/spec_builder_callback.)
. "$top_srcdir/tests/lib.sh"

R="$T/ret"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import argparse
import os

import torch
import torch.nn as nn


def has_extra_state(path):
    if not os.path.isdir(os.path.join(path, "extra_state")):
        return False
    return True


def same_either_way(path):
    if not os.path.isdir(path):
        return 2
    return 2


parser = argparse.ArgumentParser()
parser.add_argument("--load", type=str, default="ckpt")
args = parser.parse_args()

n_layer = 6 if has_extra_state(args.load) else 2
n_head = 3 if same_either_way(args.load) == 2 else 5


class Net(nn.Module):
    def __init__(self, n_layer, n_head):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(n_layer)])
        self.heads = nn.ModuleList([nn.Linear(8, 8) for _ in range(n_head)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        for h in self.heads:
            x = h(x)
        return x


model = Net(n_layer, n_head)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(4, 8)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "return on one path"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o"
is "$rc" 0 "extract exits 0"
G="$T/o/computation_graph.json"
rep() { json "$G" "[m.get('repeat', {}).get('count') for m in d['modules'] if m['id'] == '$1']"; }
is "$(rep 'layers.*')" "[None]" \
	"a count chosen by a helper that returns False on one undecided path and True on the other is null, not 6"
is "$(rep 'heads.*')" "[3]" \
	"a helper that returns the same value on both paths keeps it (3 heads)"

done_testing
