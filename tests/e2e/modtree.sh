#!/bin/sh
# The module tree where ecg cannot see everything (issue 21): it says so
# instead of stating a structure.
#
# - a Sequential(*layers) whose children of different classes (Linear,
#   GELU, ...) are appended in a loop of unknown trip count: the container
#   is listed, its children are not (no `net.0`, no `net.*` claiming one
#   class for all), and `subtree.reason` says why;
# - the same loop appending one class: `net.*` with repeat.count null;
# - a dataclass built with **d whose keys are not known: its defaults are
#   not taken as the values (the loop bound is not the default 8);
# - a ModuleList of unknown length whose children (one class) differ
#   inside: `stages.*` with the class, its subtree not listed (the first
#   child's tree is not everyone's);
# - a module called on one path of an undecided condition while its parts
#   are called directly on the other (`out[0](x); out[1:](h)` vs
#   `out(x)`): its count is null, not 1;
# - library modules (fairscale's ColumnParallelLinear, a torchvision
#   factory): listed at their path with their class, `subtree` saying that
#   their inside is not read; a torchvision factory names the class it
#   builds (resnet18 -> ResNet) and keeps the factory in `factory`.
# - submodules registered by setattr(self, f"l{i}", ...) in a loop whose
#   trip count is not known (issue 20 B9): the root's params is null and
#   `subtree.reason` says the names are not known (not `params: 0`).
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import json
import sys
from dataclasses import dataclass

import torch
import torch.nn as nn
import torchvision
from fairscale.nn.model_parallel.layers import ColumnParallelLinear


@dataclass
class Args:
    dim: int = 16
    n_layers: int = 8
    scale_shift: bool = False


class Stage(nn.Module):
    def __init__(self, dim, attn):
        super().__init__()
        self.ff = nn.Linear(dim, dim)
        if attn:
            self.attn = nn.Linear(dim, dim)

    def forward(self, x):
        return self.ff(x)


class Res(nn.Module):
    def __init__(self, dim, scale_shift):
        super().__init__()
        self.scale_shift = scale_shift
        self.out = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim))

    def forward(self, x):
        if self.scale_shift:
            h = self.out[0](x) * 2
            h = self.out[1:](h)
        else:
            h = self.out(x)
        return h


class Net(nn.Module):
    def __init__(self, args):
        super().__init__()
        mixed = []
        for _ in range(args.n_layers):
            mixed.append(nn.Linear(args.dim, args.dim))
            mixed.append(nn.GELU())
        self.mixed = nn.Sequential(*mixed)
        same = []
        for _ in range(args.n_layers):
            same.append(nn.Linear(args.dim, args.dim))
        self.same = nn.Sequential(*same)
        self.proj = ColumnParallelLinear(args.dim, args.dim, bias=False)
        self.backbone = torchvision.models.resnet18()
        self.stages = nn.ModuleList([Stage(args.dim, False)])
        for _ in range(args.n_layers):
            self.stages.append(Stage(args.dim, True))
        self.res = Res(args.dim, args.scale_shift)

    def forward(self, x):
        h = self.proj(self.same(self.mixed(x)))
        for stage in self.stages:
            h = stage(h)
        return self.res(h)


params = json.load(open(sys.argv[1]))
model = Net(Args(**params))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 16)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o" -- params.json
is "$rc" 0 "extract exits 0"
G="$T/o/computation_graph.json"
ent() { json "$G" "[(m['id'], m.get('class'), $2) for m in d['modules'] if m['kind'] != 'op' and m['id'].startswith('$1')]"; }

is "$(ent mixed "m.get('subtree', {}).get('listed')")" "[('mixed', 'torch.nn.Sequential', False)]" \
	"Linear, GELU appended in a loop of unknown trip count: the Sequential is listed, its children are not"
json "$G" "[m for m in d['modules'] if m['id'] == 'mixed'][0]['subtree']['reason']" | grep -q 'range(args.n_layers)'
ok $? "  its subtree.reason names the loop"
is "$(ent same. "m['repeat']['count'], m['total_repeat']")" "[('same.*', 'torch.nn.Linear', None, None)]" \
	"one class appended in that loop: same.* with repeat.count null (not the dataclass default 8)"
is "$(ent proj "m['external'], m.get('subtree', {}).get('listed')")" \
	"[('proj', 'fairscale.nn.model_parallel.layers.ColumnParallelLinear', True, False)]" \
	"fairscale's ColumnParallelLinear is listed at its path with its class; its inside is said not to be read"
is "$(ent backbone "m.get('factory'), m.get('subtree', {}).get('listed')")" \
	"[('backbone', 'torchvision.models.ResNet', 'torchvision.models.resnet18', False)]" \
	"torchvision.models.resnet18(): class ResNet, the factory kept"
is "$(ent stages "m.get('subtree', {}).get('listed')")" "[('stages', 'torch.nn.ModuleList', None), ('stages.*', 'Stage', False)]" \
	"Stage children that differ inside, in a loop of unknown trip count: stages.* (Stage), its subtree not listed"
is "$(ent res.out "m.get('total_repeat')")" "[('res.out', 'torch.nn.Sequential', None), ('res.out.0', 'torch.nn.LayerNorm', None), ('res.out.1', 'torch.nn.Linear', None)]" \
	"out(x) on one path of an undecided condition, out[0] and out[1:] on the other: no total_repeat stated"
json "$G" "[m for m in d['modules'] if m['id'] == 'res.out'][0]['repeat']['reason']" | grep -q 'self.scale_shift'
ok $? "  its reason names the condition"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "the records are valid (schema_check.py)"

# A layer called in both arms of an undecided conditional expression
# (DETR's MLP: `F.relu(layer(x)) if i < n - 1 else layer(x)`) is not
# counted twice: its count is null, with the condition, never 4 for 2.
R2="$T/ifexp"
mkrepo "$R2"
cp "$top_srcdir/tests/fixtures/ifexp_both_arms/model.py" "$top_srcdir/tests/fixtures/ifexp_both_arms/train.py" "$R2/"
chmod -R u+w "$R2"
commit "$R2" "an MLP head"
run_ecg extract --repo "$R2" --entry train.py -q --out "$T/ifexp-o"
G="$T/ifexp-o/computation_graph.json"
is "$(json "$G" "[(m['id'], m['repeat']['count'], m['total_repeat']) for m in d['modules'] if m['id'].startswith('bbox.layers.') and m['kind'] != 'op']")" \
	"[('bbox.layers.*', None, None)]" "ifexp: the layers called in both arms have a null count (they were counted twice)"
grep -q "called on more than one path of" "$G"
ok $? "  with the condition as the reason"

# A loss module called next to the model is not a model, but its forward
# is still read for the schedule: the matcher's .cpu() of a device tensor
# is a copy of the step (it was lost when the criterion stopped being a
# model: DETR's matcher syncs)
R3="$T/crit"
mkrepo "$R3"
cp "$top_srcdir/tests/fixtures/model_and_criterion/model.py" "$top_srcdir/tests/fixtures/model_and_criterion/train.py" "$R3/"
chmod -R u+w "$R3"
sed 's/        return cost.argmin(dim=0)$/        return cost.argmin(dim=0).cpu()/' "$R3/model.py" >"$T/m.py" && cp "$T/m.py" "$R3/model.py"
sed -e 's/    model, criterion = build(num_classes=4)$/    model, criterion = build(num_classes=4)\n    model.cuda()\n    criterion.cuda()/' \
	-e 's/torch.randn(2, 3, 16)/torch.randn(2, 3, 16, device="cuda")/' \
	-e 's/torch.randint(0, 4, (2, 3))/torch.randint(0, 4, (2, 3), device="cuda")/' \
	-e 's/torch.rand(2, 3, 4)}/torch.rand(2, 3, 4, device="cuda")}/' "$R3/train.py" >"$T/t.py" && cp "$T/t.py" "$R3/train.py"
commit "$R3" "a criterion whose matcher copies to the host"
run_ecg extract --repo "$R3" --entry train.py -q --out "$T/crit-o"
is "$(json "$T/crit-o/execution_schedule.json" "[(e['anchor'], e['kind']) for e in d['host_device'] if 'Matcher' in e['anchor']]")" \
	"[('model.py:Matcher.forward:27', 'd2h')]" "the criterion (not a model) still has its forward read: the matcher's .cpu() is a d2h of the step"
is "$(json "$T/crit-o/computation_graph.json" "sorted(set(m['id'].split('.')[0] for m in d['modules'] if '/' in m['id']))")" "[]" \
	"  and the graph's ids are the model's, unprefixed"

# --- setattr(self, f"l{i}", ...) with names not known
R4="$T/setattr"
mkrepo "$R4"
cat >"$R4/train.py" <<'PY'
import json

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        for i in range(n):
            setattr(self, f"l{i}", nn.Linear(8, 8))

    def forward(self, x):
        for i in range(self.n):
            x = getattr(self, f"l{i}")(x)
        return x


model = Net(json.load(open("depth.json"))["depth"])
for step in range(2):
    y = model(torch.randn(2, 8))
PY
commit "$R4" "job"
run_ecg extract --repo "$R4" --entry train.py -q --out "$T/setattr-o"
is "$(json "$T/setattr-o/computation_graph.json" "[(m['id'], m.get('params'), m.get('subtree', {}).get('listed')) for m in d['modules'] if m['kind'] == 'model']")" \
	"[('', None, False)]" "setattr(self, f\"l{i}\", ...) of names not known: the root's params is null and its subtree is not listed"
is "$(json "$T/setattr-o/computation_graph.json" "int('registers submodules under names not known' in d['modules'][0]['subtree']['reason'])")" \
	1 "  and the reason says why"

done_testing
