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
done_testing
