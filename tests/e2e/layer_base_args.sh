#!/bin/sh
# A repository (or library) class on a torch.nn layer with a constructor
# of its own (timm's LayerNorm(nn.LayerNorm): super().__init__(
# num_channels, eps=eps, elementwise_affine=affine, **kwargs)): its
# parameters are the base layer's, from the arguments its super().__init__
# gave the base (interp/module.c __ecg_base_args__, modtree.c).  Where an
# argument list not known may have set one (**kw of the caller's, not
# known), the count stays null.  By hand: LayerNorm(8) 16, LayerNorm(8,
# elementwise_affine=False) 0, Linear(8, 4, bias=False) 32.
# A class with a forward only (timm's Linear(nn.Linear)) is built by the
# base's constructor with the call's own arguments (interp/object.c):
# FwdLinear(8, 4) 36, FwdLinear(8, 2, bias=False) 16 -- two rows, not a
# repeat of one (interp/forward.c compares the base's arguments).
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import os

import torch
from torch import nn
from torch.nn.parameter import Parameter


class LayerNorm(nn.LayerNorm):
    def __init__(self, num_channels, eps=1e-6, affine=True, **kwargs):
        super().__init__(num_channels, eps=eps, elementwise_affine=affine, **kwargs)
        self.fast = False


class NoBiasLinear(nn.Linear):
    def __init__(self, i, o):
        super().__init__(i, o, bias=False)


class Opaque(nn.Linear):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


class FwdLinear(nn.Linear):
    def forward(self, x):
        return super().forward(x)


class Raw(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(torch.empty(4, 8))

    def forward(self, x):
        return x @ self.weight.t()


class M(nn.Module):
    def __init__(self, extra):
        super().__init__()
        self.r = Raw()
        self.a = LayerNorm(8)
        self.b = LayerNorm(8, affine=False)
        self.c = NoBiasLinear(8, 4)
        self.d = Opaque(4, 4, **extra)
        self.s = nn.Sequential(FwdLinear(8, 4), FwdLinear(8, 2, bias=False))

    def forward(self, x):
        return self.d(self.c(self.b(self.a(x)))) + self.r(x).sum() + self.s[1](x).sum() + self.s[0](x).sum()


m = M(dict(os.environ.get("EXTRA", {})))
for i in range(2):
    m(torch.randn(2, 8)).sum().backward()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env
is "$rc" 0 "extract: exit 0"
P() { json "$T/o/computation_graph.json" "[m['params'] for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P a)" 16 "LayerNorm(nn.LayerNorm) with its own __init__: 16, from super().__init__(8, ...)"
is "$(P b)" 0 "  elementwise_affine=False given to the base: 0"
is "$(P c)" 32 "Linear subclass passing bias=False: 32"
is "$(P r)" 32 "torch.nn.parameter.Parameter(torch.empty(4, 8)): 32"
is "$(P s.0)" 36 "Linear subclass with a forward only: FwdLinear(8, 4) 36, its base built with the call's arguments"
is "$(P s.1)" 16 "  FwdLinear(8, 2, bias=False): 16, a row of its own (not a repeat of s.0)"
is "$(P d)" None "super().__init__(*args, **kwargs) with **kwargs not known: null"
is "$(P '')" None "  so the model's count is null, never short"
done_testing
