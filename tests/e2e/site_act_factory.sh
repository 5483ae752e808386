#!/bin/sh
# A library's activation and norm factories read to the parameter count
# (issue 17; the shape of timm's create_act.py and create_norm_act.py, in a
# fake library of its own):
#   - get_act_layer(name): isinstance(name, str), name.lower(), a config
#     flag (is_exportable()), dict lookups;
#   - `nn.SiLU if 'silu' in dir(torch.nn.functional) else Swish`: a test of
#     the installed torch's version that ecg does not decide.  Both classes
#     are kept (interp/eval.c, alts.c); a call builds each path's module,
#     and two leaf modules that hold the same parameters (0 here) leave the
#     count known (modtree.c mt_hidden_params).  A choice between classes
#     holding different parameters (nn.PReLU or nn.ReLU), or between
#     modules with submodules, leaves it null, and neither path's modules
#     are described;
#   - get_norm_act_layer: `norm_layer in _NORM_ACT_REQUIRES_ARG`, a set of
#     classes (a class is compared by identity: interp/object.c
#     class_same), `nn.BatchNorm2d.__name__.lower()` (a catalogue class's
#     name, interp/attr.c), isinstance('groupnorm', functools.partial)
#     False, and a partial of a norm layer not known, whose result may be a
#     module (interp/call.c: the count is null, was 576, the conv alone);
#   - a DropPath made only when a rate read from a tensor is > 0: a child
#     with no parameters may be there or not, the count is the same
#     (modtree.c), and its row carries that condition, undecided.
# The counts are PyTorch's (torch 1.13 with this library on its path; by
# hand): Net(ch=8, depth=2): stem Conv2d(3, 8, 3) 224; per Block: conv
# 8x8x3x3 576 + bn 16, SE fc 8x8 + 8 = 72: 664; head 8x10 + 10 = 90:
# 224 + 2 x 664 + 90 = 1,642, with BatchNorm2d or 'groupnorm' (GroupNorm(4,
# 8): 16).  With 'prelu' torch 1.13 counts 1,644 (a PReLU in each bn) and a
# torch without silu 1,642: null.  The site is written here, with a dist-info.
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/actlib" "$SP/actlib-0.1.dist-info"
printf 'Metadata-Version: 2.1\nName: actlib\nVersion: 0.1\nRequires-Dist: torch\n' >"$SP/actlib-0.1.dist-info/METADATA"
cat >"$SP/actlib/__init__.py" <<'PY'
from .create_act import get_act_layer, create_act_layer
from .models import Net, Net2
PY
cat >"$SP/actlib/config.py" <<'PY'
_EXPORTABLE = False
_SCRIPTABLE = False


def is_exportable():
    return _EXPORTABLE


def is_scriptable():
    return _SCRIPTABLE
PY
cat >"$SP/actlib/create_act.py" <<'PY'
from typing import Callable

import torch
from torch import nn
from torch.nn import functional as F

from .config import is_exportable, is_scriptable

# torch's own activations where the installed torch has them
_has_silu = 'silu' in dir(torch.nn.functional)
_has_hardsigmoid = 'hardsigmoid' in dir(F)


class Swish(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return x * x.sigmoid()


class HardSigmoid(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return F.relu6(x + 3.) / 6.


class HardSigmoidMe(HardSigmoid):
    pass


_ACT_LAYER_DEFAULT = dict(
    relu=nn.ReLU,
    silu=nn.SiLU if _has_silu else Swish,
    hard_sigmoid=nn.Hardsigmoid if _has_hardsigmoid else HardSigmoid,
    # a choice between classes that hold different parameters
    prelu=nn.PReLU if _has_silu else nn.ReLU,
)

_ACT_LAYER_ME = dict(
    hard_sigmoid=nn.Hardsigmoid if _has_hardsigmoid else HardSigmoidMe,
)

for a in (_ACT_LAYER_ME, _ACT_LAYER_DEFAULT):
    a.setdefault('hardsigmoid', a.get('hard_sigmoid'))


def get_act_layer(name='relu'):
    if name is None:
        return None
    if not isinstance(name, str):
        return name
    if not name:
        return None
    name = name.lower()
    if not (is_exportable() or is_scriptable()):
        if name in _ACT_LAYER_ME:
            return _ACT_LAYER_ME[name]
    return _ACT_LAYER_DEFAULT[name]


def create_act_layer(name, inplace=None, **kwargs):
    act_layer = get_act_layer(name)
    if act_layer is None:
        return None
    if inplace is None:
        return act_layer(**kwargs)
    return act_layer(inplace=inplace, **kwargs)
PY
cat >"$SP/actlib/norm_act.py" <<'PY'
import functools
import types

import torch.nn as nn
import torch.nn.functional as F

from .create_act import get_act_layer


class BatchNormAct2d(nn.BatchNorm2d):
    def __init__(self, num_features, apply_act=True, act_layer=nn.ReLU, **kwargs):
        super().__init__(num_features, **kwargs)
        act_layer = get_act_layer(act_layer)
        self.act = act_layer() if act_layer is not None and apply_act else nn.Identity()

    def forward(self, x):
        x = F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias, self.training)
        return self.act(x)


class GroupNormAct(nn.GroupNorm):
    def __init__(self, num_channels, num_groups=4, apply_act=True, act_layer=nn.ReLU, **kwargs):
        super().__init__(num_groups, num_channels, **kwargs)
        act_layer = get_act_layer(act_layer)
        self.act = act_layer() if act_layer is not None and apply_act else nn.Identity()

    def forward(self, x):
        x = F.group_norm(x, self.num_groups, self.weight, self.bias, self.eps)
        return self.act(x)


_NORM_ACT_MAP = dict(batchnorm=BatchNormAct2d, groupnorm=GroupNormAct)
_NORM_ACT_TYPES = {m for n, m in _NORM_ACT_MAP.items()}
_NORM_TO_NORM_ACT_MAP = dict(batchnorm2d=BatchNormAct2d, groupnorm=GroupNormAct)
# has an act_layer argument
_NORM_ACT_REQUIRES_ARG = {BatchNormAct2d, GroupNormAct}


def get_norm_act_layer(norm_layer, act_layer=None):
    assert isinstance(norm_layer, (type, str, types.FunctionType, functools.partial))
    norm_act_kwargs = {}
    if isinstance(norm_layer, functools.partial):
        norm_act_kwargs.update(norm_layer.keywords)
        norm_layer = norm_layer.func
    if isinstance(norm_layer, str):
        norm_act_layer = _NORM_ACT_MAP[norm_layer.replace('_', '').lower()]
    elif norm_layer in _NORM_ACT_TYPES:
        norm_act_layer = norm_layer
    else:
        type_name = norm_layer.__name__.lower()
        norm_act_layer = _NORM_TO_NORM_ACT_MAP.get(type_name, None)
        assert norm_act_layer is not None, f"No equivalent norm_act layer for {type_name}"
    if norm_act_layer in _NORM_ACT_REQUIRES_ARG:
        norm_act_kwargs.setdefault('act_layer', act_layer)
    if norm_act_kwargs:
        norm_act_layer = functools.partial(norm_act_layer, **norm_act_kwargs)
    return norm_act_layer
PY
cat >"$SP/actlib/models.py" <<'PY'
import torch
import torch.nn as nn
import torch.nn.functional as F

from .create_act import create_act_layer, get_act_layer
from .norm_act import get_norm_act_layer


class ConvNormAct(nn.Module):
    def __init__(self, cin, cout, norm_layer=nn.BatchNorm2d, act_layer=nn.ReLU):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = get_norm_act_layer(norm_layer, act_layer)(cout)

    def forward(self, x):
        return self.bn(self.conv(x))


class SE(nn.Module):
    def __init__(self, ch, gate_layer='hard_sigmoid'):
        super().__init__()
        self.fc = nn.Conv2d(ch, ch, 1)
        self.gate = create_act_layer(gate_layer)

    def forward(self, x):
        return x * self.gate(self.fc(x.mean((2, 3), keepdim=True)))


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return x


class Block(nn.Module):
    def __init__(self, ch, norm_layer, act_layer, drop_path=None):
        super().__init__()
        self.conv = ConvNormAct(ch, ch, norm_layer=norm_layer, act_layer=act_layer)
        self.attn = SE(ch)
        self.drop_path = drop_path

    def forward(self, x):
        x = self.attn(self.conv(x))
        if self.drop_path is not None:
            x = self.drop_path(x)
        return x


class Net(nn.Module):
    def __init__(self, ch=8, depth=2, norm_layer=nn.BatchNorm2d, act_layer='silu', drop_path_rate=0.):
        super().__init__()
        act_layer = get_act_layer(act_layer)
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, depth)]
        self.stem = nn.Conv2d(3, ch, 3, padding=1)
        blocks = []
        for i in range(depth):
            if dpr[i] > 0.:
                drop_path = DropPath(dpr[i])
            else:
                drop_path = None
            blocks.append(Block(ch, norm_layer, act_layer, drop_path=drop_path))
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Linear(ch, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean((2, 3)))


class WideStage(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.a = nn.Conv2d(ch, 2 * ch, 1)
        self.b = nn.Conv2d(2 * ch, ch, 1)

    def forward(self, x):
        return self.b(self.a(x))


class NarrowStage(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.a = nn.Conv2d(ch, ch, 1)

    def forward(self, x):
        return self.a(x)


# a stage class chosen by the installed torch: neither is described
_Stage = WideStage if 'mish' in dir(F) else NarrowStage


class Net2(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 3, padding=1)
        self.stage = _Stage(ch)
        self.head = nn.Linear(ch, 10)

    def forward(self, x):
        return self.head(self.stage(self.stem(x)).mean((2, 3)))
PY

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
from torch import nn
import actlib

a = actlib.Net()
b = actlib.Net(norm_layer='groupnorm', act_layer=nn.GELU)
c = actlib.Net(act_layer='prelu')
d = actlib.Net2()
params = [p for m in (a, b, c, d) for p in m.parameters()]
opt = torch.optim.SGD(params, lr=0.1)
for step in range(2):
    x = torch.randn(2, 3, 8, 8)
    loss = a(x).sum() + b(x).sum() + c(x).sum() + d(x).sum()
    loss.backward()
    opt.step()
PY
cat >"$R/partial.py" <<'PY'
import functools
import torch
from actlib.models import ConvNormAct

norm = torch.load("cfg.pt")["norm"]
g = ConvNormAct(8, 8, norm_layer=functools.partial(norm, eps=1e-3))
opt = torch.optim.SGD(g.parameters(), lr=0.1)
for step in range(2):
    loss = g(torch.randn(2, 8, 8, 8)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "activation and norm factories read from the library: exit 0"
P() { json "$T/o/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P a)" "('Net', 1642)" "Net(): 1,642, as PyTorch counts"
is "$(P 'a/blocks.*')" "('Block', 664)" "  Block: 664 (its SE's gate nn.Hardsigmoid or HardSigmoidMe: 0 either way)"
is "$(P 'a/blocks.*.conv.bn')" "('BatchNormAct2d', 16)" "  nn.BatchNorm2d to BatchNormAct2d by __name__.lower(), act_layer passed as it is in _NORM_ACT_REQUIRES_ARG"
is "$(P b)" "('Net', 1642)" "Net(norm_layer='groupnorm', act_layer=nn.GELU): 1,642"
is "$(P 'b/blocks.*.conv.bn')" "('GroupNormAct', 16)" "  'groupnorm' by the map: GroupNormAct(8), 16"
is "$(P 'b/blocks.*.conv.bn.act')" "('torch.nn.GELU', 0)" "  its act: the class given, as it is"
is "$(P c)" "('Net', None)" "Net(act_layer='prelu'): nn.PReLU or nn.ReLU by torch's version: null"
is "$(P 'c/blocks.*.attn')" "('SE', 72)" "  its SE (a gate of 0 parameters on both paths): 72"
is "$(P d)" "('Net2', None)" "Net2: a stage class with submodules chosen by torch's version: null"
is "$(json "$T/o/computation_graph.json" "[m['id'] for m in d['modules'] if m['id'].startswith('d/stage')]")" "[]" \
	"  neither path's stage is described"
is "$(json "$T/o/computation_graph.json" "[u['what'] for u in d['unresolved'] if u['what'] == 'the model built on one path']")" "[]" \
	"  and no one path's model is picked"
is "$(json "$T/o/computation_graph.json" "[m.get('condition') for m in d['modules'] if m['id'] == 'a/blocks.*.drop_path'][0]")" \
	"{'expr': 'dpr[i] > 0.', 'taken': None}" \
	"a DropPath made only when a rate not known is > 0: its row says so, undecided"

run_ecg extract --repo "$R" --entry partial.py --out "$T/op" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "a partial of a norm layer not known: exit 0"
is "$(json "$T/op/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == ''][0]")" \
	"('ConvNormAct', None)" "  ConvNormAct: null (what the partial made may hold parameters; was 576, its conv alone)"
done_testing
