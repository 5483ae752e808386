#!/bin/sh
# A library whose registry decorator runs at each of many model defs across
# many modules (issue 17: timm's @register_model, ~1,300 defs in ~90
# modules).  Each call is cheap (a few hundred steps: the module's cfg
# tags, dataclasses.replace), but together they are past the per-function
# step bound (MAX_FN_STEPS, 250,000): charged to the function as one
# account, the registrations of the modules imported last were not
# followed and their models were not found.  A call from a module's own
# statements runs once per import, so its cost is its site's
# (interp/function.c, budget.c site_cost()); the bound still holds for a
# call repeated from one site (a module-level loop).
#   zoo: 40 modules m00..m39, 40 models each, three cfg tags each
#   ('', 'a', 'b'); create_model(name) builds Net(dim=16, hidden=H) with H
#   from the registry's cfg of that name and tag:
#   net39_39 (default tag ''): H = 39 + 39 + 8 = 86:
#     fc1 16x86 + 86 = 1,462; fc2 86x16 + 16 = 1,392: 2,854;
#   net39_39.b: H = 86 + 2 = 88: 16x88 + 88 + 88x16 + 16 = 2,920;
#   net00_00: H = 8: 16x8 + 8 + 8x16 + 16 = 280.
# The job's own module-level loop calling slow() 3,000 times from one site
# is still cut at its share: `a costly function` names it.
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/zoo/models" "$SP/zoo-0.3.dist-info"
printf 'Metadata-Version: 2.1\nName: zoo\nVersion: 0.3\nRequires-Dist: torch\n' >"$SP/zoo-0.3.dist-info/METADATA"
cat >"$SP/zoo/__init__.py" <<'PY'
from .models import create_model, list_models
PY
cat >"$SP/zoo/models/_registry.py" <<'PY'
import sys
from collections import defaultdict, deque
from dataclasses import dataclass, field, replace


@dataclass
class Cfg:
    hidden: int = 8
    url: str = ''
    hf_hub_id: str = ''
    tag: str = None
    architecture: str = None
    mean: tuple = (0.5, 0.5, 0.5)
    std: tuple = (0.5, 0.5, 0.5)

    @property
    def has_weights(self):
        return bool(self.url or self.hf_hub_id)


@dataclass
class DefaultCfg:
    tags: deque = field(default_factory=deque)
    cfgs: dict = field(default_factory=dict)


_entrypoints = {}
_cfgs = {}
_module_to_models = defaultdict(set)


def split_name(name):
    model, *tags = name.split('.', 1)
    return model, tags[0] if tags else ''


def generate_default_cfgs(cfgs):
    out = defaultdict(DefaultCfg)
    for k, v in cfgs.items():
        if isinstance(v, dict):
            v = Cfg(**v)
        model, tag = split_name(k)
        d = out[model]
        if v.has_weights and not tag:
            d.tags.appendleft(tag)
        else:
            d.tags.append(tag)
        d.cfgs[tag] = v
    return out


def register_model(fn):
    mod = sys.modules[fn.__module__]
    name = fn.__name__
    module_name = fn.__module__.split('.')[-1]
    if hasattr(mod, '__all__'):
        mod.__all__.append(name)
    else:
        mod.__all__ = [name]
    _entrypoints[name] = fn
    _module_to_models[module_name].add(name)
    if hasattr(mod, 'default_cfgs') and name in mod.default_cfgs:
        dc = mod.default_cfgs[name]
        for i, tag in enumerate(dc.tags):
            full = '.'.join([name, tag]) if tag else name
            cfg = replace(dc.cfgs[tag], architecture=name, tag=tag if tag else None)
            if cfg.hf_hub_id == 'zoo/':
                cfg = replace(cfg, hf_hub_id='zoo/' + full)
            if i == 0:
                _cfgs[name] = cfg
            if tag:
                _cfgs[full] = cfg
    return fn


def list_models():
    return sorted(_entrypoints)


def create_model(name, **kwargs):
    arch, tag = split_name(name)
    cfg = _cfgs[name]
    return _entrypoints[arch](hidden=cfg.hidden, **kwargs)
PY
cat >"$SP/zoo/models/_layers.py" <<'PY'
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, dim=16, hidden=8):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
PY
"$TEST_PYTHON" - "$SP/zoo/models" <<'EOF'
import os, sys
d = sys.argv[1]
with open(os.path.join(d, "__init__.py"), "w") as fh:
    for m in range(40):
        fh.write("from .m%02d import *\n" % m)
    fh.write("from ._registry import create_model, list_models\n")
for m in range(40):
    lines = ["from ._layers import Net", "from ._registry import generate_default_cfgs, register_model", "",
             "default_cfgs = generate_default_cfgs({"]
    for k in range(40):
        h = m + k + 8
        lines.append("    'net%02d_%02d': {'hidden': %d, 'hf_hub_id': 'zoo/'}," % (m, k, h))
        lines.append("    'net%02d_%02d.a': {'hidden': %d, 'url': 'https://example.org/a'}," % (m, k, h + 1))
        lines.append("    'net%02d_%02d.b': {'hidden': %d}," % (m, k, h + 2))
    lines.append("})")
    for k in range(40):
        lines += ["", "", "@register_model", "def net%02d_%02d(pretrained=False, **kwargs):" % (m, k),
                  "    return Net(dim=16, **kwargs)"]
    with open(os.path.join(d, "m%02d.py" % m), "w") as fh:
        fh.write("\n".join(lines) + "\n")
EOF

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import zoo


def slow(n):
    t = 0
    for i in range(n):
        t = t + i
    return t


for i in range(3000):
    s = slow(100)

last = zoo.create_model("net39_39")
tagged = zoo.create_model("net39_39.b")
first = zoo.create_model("net00_00")
opt = torch.optim.SGD(list(last.parameters()) + list(tagged.parameters()) + list(first.parameters()), lr=0.1)
for step in range(2):
    x = torch.randn(2, 16)
    loss = last(x).sum() + tagged(x).sum() + first(x).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "1,600 registrations over 40 modules: exit 0"
P() { json "$T/o/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P last)" "('Net', 2854)" "a model of the module imported last found in the registry: hidden 86 from its cfg, 2,854"
is "$(P tagged)" "('Net', 2920)" "  its tag 'b' (hidden 88): 2,920"
is "$(P first)" "('Net', 280)" "  a model of the first module: 280"
is "$(json "$T/o/computation_graph.json" "sorted(set(u['anchor'] for u in d['unresolved'] if u['what'] == 'a costly function'))")" \
	"['train.py:slow:5']" "the job's module-level loop calling slow() 3,000 times from one site is still cut at its share; no registry function is"
done_testing
