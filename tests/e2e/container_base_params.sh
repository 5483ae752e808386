#!/bin/sh
# A repository class on nn.ModuleDict / nn.Sequential (torchvision's
# IntermediateLayerGetter(nn.ModuleDict): super().__init__(layers) of an
# OrderedDict filled from another model's named_children(), stopping at
# the last layer it returns): the base holds no parameters of its own,
# the count is its children's (modtree.c).  Children from arguments not
# known keep the count null.  By hand: Backbone = conv 3*8*9+8 = 224,
# bn 16, head Linear(8, 10) 90; the getter keeps conv and bn: 240;
# Seq(Linear(4, 4), Linear(4, 2)) 20 + 10 = 30.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import os
from collections import OrderedDict

import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Linear(8, 10)


class Getter(nn.ModuleDict):
    def __init__(self, model, return_layers):
        return_layers = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in return_layers:
                del return_layers[name]
            if not return_layers:
                break
        super().__init__(layers)

    def forward(self, x):
        for name, module in self.items():
            x = module(x)
        return x


class Seq(nn.Sequential):
    def __init__(self, n):
        super().__init__(nn.Linear(4, 4), nn.Linear(4, n))


class Opaque(nn.Sequential):
    def __init__(self, *mods):
        super().__init__(*mods)


class M(nn.Module):
    def __init__(self, extra):
        super().__init__()
        self.g = Getter(Backbone(), {"bn": "out"})
        self.s = Seq(2)
        self.o = Opaque(*extra)

    def forward(self, x):
        return self.g(x).sum() + self.s(torch.randn(2, 4)).sum() + self.o(x).sum()


m = M(list(os.environ.get("EXTRA", [])))
for i in range(2):
    m(torch.randn(2, 3, 8, 8)).backward()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env
is "$rc" 0 "extract: exit 0"
P() { json "$T/o/computation_graph.json" "[m['params'] for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P g)" 240 "ModuleDict subclass of an OrderedDict cut at the last returned layer: conv + bn"
is "$(P s)" 30 "Sequential subclass, super().__init__(Linear(4, 4), Linear(4, 2)): 30"
is "$(P o)" None "Sequential subclass of modules not known: null"
is "$(P '')" None "  so the model's count is null, never short"
done_testing
