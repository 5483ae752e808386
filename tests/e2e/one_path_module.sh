#!/bin/sh
# A module a call builds on one path of an undecided condition only (the
# other path's callable is not known): it is there when its path runs,
# and the module tree says so -- its condition, and no parameter count for
# the model (interp/alts.c one_path_module).  Before, the module was stated
# as the one built, unconditionally (Megatron's layers.*.mlp read as
# TEFusedMLPWithGroupedLinear, one of three specs chosen by flags not
# decided).
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import functools

import torch
import torch.nn as nn

cfg = torch.load("cfg.pt")


class Fused(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return self.fc(x)


def plain_mlp(dim):
    return cfg.make_mlp(dim)


def mlp_spec(fused):
    if fused:
        module = Fused
    else:
        module = plain_mlp
    return functools.partial(module, 16)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = mlp_spec(torch.cuda.device_count() > 1)()
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(self.mlp(x))


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
is "$(json "$T/o/computation_graph.json" "[(m['class'], (m.get('condition') or {}).get('expr')) for m in d['modules'] if m['id'] == 'mlp']")" \
	"[('Fused', 'fused')]" "the module built on one path carries that path's condition"
is "$(json "$T/o/computation_graph.json" "[m['params'] for m in d['modules'] if m['id'] == '']")" "[None]" \
	"the model's count is not known (the other path's module is not)"
done_testing
