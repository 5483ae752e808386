#!/bin/sh
# Start-up code as frameworks write it (issue 16.3).
#
# A helper that returns on a path an undecided condition takes and returns
# something else later (`if not os.path.isdir(path): return False ...
# return True`, Megatron's has_modelopt_state) returns a value that is not
# known: a layer count chosen by it is null, never the later path's value.
#
# A type walker that calls itself on typing.get_args(t)[0] -- values ecg
# does not know -- under undecided `if`s read both paths at every level,
# 2^depth calls per field: parse_args() of a dataclass-generated parser
# spent the per-function budget and was not followed again the third time
# it ran, so the layer count read from its result was lost.  A recursive
# call on values none of which is known now returns unknown at once.
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

R2="$T/walker"
mkrepo "$R2"
{
cat <<'PY'
import argparse
import typing
from typing import List, Optional

import torch
import torch.nn as nn


OPTIONS = [
PY
i=0
while [ $i -lt 200 ]; do
	echo "    (\"opt_$i\", Optional[List[int]]),"
	i=$((i + 1))
done
cat <<'PY'
]


def extract_type(t):
    origin = typing.get_origin(t)
    if origin is None:
        return {"type": t}
    if origin is typing.Union:
        return extract_type(typing.get_args(t)[0])
    elif origin is list:
        kw = extract_type(typing.get_args(t)[0])
        kw["nargs"] = "+"
        return kw
    raise TypeError(t)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-layers", type=int, default=4)
    for name, hint in OPTIONS:
        parser.add_argument("--" + name.replace("_", "-"), default=None, **extract_type(hint))
    return parser.parse_args()


parse_args()          # as a restart wrapper reads them
parse_args()          # and the validation
args = parse_args()


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


model = Net(args.num_layers)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(4, 8)).sum()
    loss.backward()
    opt.step()
PY
} >"$R2/train.py"
commit "$R2" "type walker"
run_ecg extract --repo "$R2" --entry train.py -q --out "$T/o2"
is "$rc" 0 "a parser built by a recursive type walker: extract exits 0"
G="$T/o2/computation_graph.json"
is "$(rep 'layers.*')" "[4]" \
	"parse_args() read three times with a recursive type walker over 200 fields: --num-layers' default 4 is kept"
is "$(json "$G" "[u['anchor'] for u in d['unresolved'] if u['what'] == 'a costly function']")" "[]" \
	"and no function is given up as too costly"

done_testing
