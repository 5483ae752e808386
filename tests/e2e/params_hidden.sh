#!/bin/sh
# A module's parameter count is null, never a sum that leaves a part out,
# when an attribute may hold parameters ecg does not see (modtree.c
# mt_hidden_params): a module built by calling a class not known (a layer
# spec's `submodules.linear_qkv(...)`, an `act_layer()`), a Parameter set
# on one path of an undecided `if` (`self.weight = Parameter(...)` else
# None), or a child built under an undecided condition.  Megatron-LM's
# TransformerLayer said 0 parameters this way.  Known layers beside them
# keep their counts.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.nn as nn


def build(spec, *args):
    return spec(*args)


class Lin(nn.Module):
    def __init__(self, n, skip):
        super().__init__()
        if not skip:
            self.weight = nn.Parameter(torch.empty(n, n))
        else:
            self.weight = None

    def forward(self, x):
        return x @ self.weight


class Attn(nn.Module):
    def __init__(self, sub):
        super().__init__()
        self.qkv = build(sub, 4, 12)
        self.proj = nn.Linear(4, 4)
        self.flash = hasattr(nn.functional, "scaled_dot_product_attention")

    def forward(self, x):
        return self.proj(self.qkv(x))


class Gate(nn.Module):
    def __init__(self, gated):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        if gated:
            self.gate = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class Net(nn.Module):
    def __init__(self, sub, skip):
        super().__init__()
        self.attn = Attn(sub)
        self.lin = Lin(4, skip)
        self.gate = Gate(skip)
        self.plain = nn.Linear(4, 4)

    def forward(self, x):
        return self.gate(self.lin(self.attn(x))) + self.plain(x)


spec = getattr(nn, open("kind.txt").read().strip())
model = Net(spec, torch.cuda.device_count() > 1)
for i in range(10):
    model(torch.randn(2, 4)).sum().backward()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-env
is "$rc" 0 "extract exits 0"
P() { json "$T/o/computation_graph.json" "[m['params'] for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P attn)" "None" "a module built by calling a class not known: its holder's count is null"
is "$(P lin)" "None" "a Parameter on one path of an undecided if: null (was 0)"
is "$(P gate)" "None" "a child built under an undecided condition: null"
is "$(json "$T/o/computation_graph.json" "d['modules'][0]['params']")" "None" "and so the model's"
is "$(P plain)" "20" "a known layer beside them keeps its count"
is "$(P attn.proj)" "20" "  as does one inside"

# A child of no parameters built under an undecided condition (a DropPath
# made when a rate not known is > 0, else None): the count is the same
# whether it is there or not, so it is stated; its row carries that
# condition, undecided (not the decided `self.extra is not None` of the
# path that built it).  Where the other path binds a module of its own in
# its place (a Linear), or one built before, the count stays null: one
# path's module is what merge_branches keeps (interp/exec.c alt_other).
cat >"$R/cond.py" <<'PY'
import sys
import torch
from torch import nn


class DropPath(nn.Module):
    def forward(self, x):
        return x


class Net(nn.Module):
    def __init__(self, p, mode):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        if mode == 1:
            if p > 0.:
                dp = nn.Linear(4, 4)
            else:
                dp = DropPath()
        elif mode == 2:
            if p > 0.:
                dp = DropPath()
            else:
                dp = None
        else:
            self.extra = nn.Linear(4, 4)
            if p > 0.:
                dp = DropPath()
            else:
                dp = self.extra
        self.extra = dp

    def forward(self, x):
        if self.extra is not None:
            x = self.extra(x)
        return self.fc(x)


class Net2(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        if p > 0.:
            self.extra = nn.Linear(4, 4)
        else:
            self.extra = DropPath()

    def forward(self, x):
        return self.extra(self.fc(x))


p = float(sys.argv[1])
m1 = Net(p, 1)
m2 = Net(p, 2)
m3 = Net(p, 3)
m4 = Net2(p)
opt = torch.optim.SGD([q for m in (m1, m2, m3, m4) for q in m.parameters()], lr=0.1)
for step in range(2):
    x = torch.randn(2, 4)
    loss = m1(x).sum() + m2(x).sum() + m3(x).sum() + m4(x).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "cond"
run_ecg extract --repo "$R" --entry cond.py --out "$T/oc" -q --no-env
is "$rc" 0 "conditional children: exit 0"
PC() { json "$T/oc/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(PC m2)" "('Net', 20)" "a DropPath when p > 0., else None: 20 on both paths"
is "$(json "$T/oc/computation_graph.json" "[m.get('condition') for m in d['modules'] if m['id'] == 'm2/extra'][0]")" \
	"{'expr': 'p > 0.', 'taken': None}" "  its row: built when p > 0., not decided"
is "$(PC m1)" "('Net', None)" "a Linear when p > 0., else a DropPath (kept): null"
is "$(PC m3)" "('Net', None)" "a DropPath when p > 0., else the Linear bound before: null"
is "$(PC m4)" "('Net2', None)" "self.extra a Linear or a DropPath in the if's two paths: null"
done_testing
