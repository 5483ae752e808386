#!/bin/sh
# A library's registry read to the model's parameters (issue 17): a
# registry decorator that finds the module of the function it registers by
# sys.modules[fn.__module__] (timm's register_model) to read the default
# config that module bound above the function, and an activation chosen by
# `get_act_layer(act_layer) or nn.GELU` with get_act_layer(None) None
# (timm's VisionTransformer).  Both are pinned by the library's code:
#   Net(dim=16, hidden=32): fc1 16x32 + 32 = 544, act nn.GELU 0,
#   fc2 32x16 + 16 = 528: 1,072 (hidden from default_cfgs['small']).
# An activation the library's code does not pin (a name read from a file
# at run time: ReLU, GELU or a class of the job's own) leaves the count null.  The site is written here, with a dist-info.
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/cfglib" "$SP/cfglib-0.2.dist-info"
printf 'Metadata-Version: 2.1\nName: cfglib\nVersion: 0.2\nRequires-Dist: torch\n' >"$SP/cfglib-0.2.dist-info/METADATA"
cat >"$SP/cfglib/__init__.py" <<'PY'
from .registry import create_model
from .models import Net
PY
cat >"$SP/cfglib/registry.py" <<'PY'
import sys

_entrypoints = {}
_cfgs = {}


def register_model(fn):
    mod = sys.modules[fn.__module__]
    name = fn.__name__
    _entrypoints[name] = fn
    if hasattr(mod, 'default_cfgs') and name in mod.default_cfgs:
        _cfgs[name] = mod.default_cfgs[name]
    return fn


def create_model(name, **kwargs):
    cfg = _cfgs.get(name, {})
    return _entrypoints[name](hidden=cfg.get('hidden', 8), **kwargs)
PY
cat >"$SP/cfglib/layers.py" <<'PY'
import torch.nn as nn

_ACTS = dict(relu=nn.ReLU, gelu=nn.GELU)


def get_act_layer(name=None):
    if name is None:
        return None
    if not isinstance(name, str):
        return name
    return _ACTS[name]
PY
cat >"$SP/cfglib/models.py" <<'PY'
import torch.nn as nn
from .layers import get_act_layer
from .registry import register_model

default_cfgs = {'small': {'hidden': 32}}


class Net(nn.Module):
    def __init__(self, dim=16, hidden=8, act_layer=None):
        super().__init__()
        act_layer = get_act_layer(act_layer) or nn.GELU
        self.fc1 = nn.Linear(dim, hidden)
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


@register_model
def small(**kwargs):
    return Net(dim=16, **kwargs)
PY

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import cfglib

model = cfglib.create_model("small")
other = cfglib.create_model("small", act_layer=torch.load("act.pt")["act"])
opt = torch.optim.SGD(list(model.parameters()) + list(other.parameters()), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 16)).sum() + other(torch.randn(2, 16)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "a registry read through sys.modules[fn.__module__]: exit 0"
P() { json "$T/o/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P model)" "('Net', 1072)" "  Net: 1,072 parameters, hidden 32 from the module's default_cfgs"
is "$(P model/fc1)" "('torch.nn.Linear', 544)" "  fc1: Linear(16, 32)"
is "$(P model/act)" "('torch.nn.GELU', 0)" "  act: get_act_layer(None) or nn.GELU is nn.GELU"
is "$(P other)" "('Net', None)" "an activation named by a file read at run time: parameters null"
json "$T/o/computation_graph.json" "[m['code_anchor'] for m in d['modules'] if m['id'] == 'model'][0]" |
	grep -q "^site:cfglib/models.py:Net.forward:"
ok $? "  anchored site:cfglib/models.py"
done_testing
