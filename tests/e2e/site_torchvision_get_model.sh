#!/bin/sh
# torchvision's registry read from the installed library (issue 17 point
# 2): torchvision.models.get_model(name, weights=None) with the name from
# argparse, as recent imagenet jobs write it.  get_model looks the builder
# up in BUILTIN_MODELS, which @register_model fills when each model file
# is imported; the builder is resnet18, the model ResNet with resnet18's
# 11,689,512 parameters (PyTorch's count), anchored into the library.
# Needs torchvision installed in /usr/lib/python3/dist-packages (Debian's
# python3-torchvision 0.14; ECG_TORCHVISION_SITE names another directory);
# skips, saying so, without it.
. "$top_srcdir/tests/lib.sh"

SP=${ECG_TORCHVISION_SITE:-/usr/lib/python3/dist-packages}
[ -f "$SP/torchvision/models/_api.py" ] ||
	skip_all "torchvision >= 0.14 is not installed in $SP (its models/_api.py; ECG_TORCHVISION_SITE names the directory)"

R="$T/job"
mkrepo "$R"
cat >"$R/main.py" <<'PY'
import argparse

import torch
import torchvision

p = argparse.ArgumentParser()
p.add_argument("--arch", default="resnet18")
a = p.parse_args()
model = torchvision.models.get_model(a.arch, weights=None)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(2):
    model(torch.randn(2, 3, 224, 224)).sum().backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry main.py --out "$T/o" -q --no-cache --no-site-env --site "$SP"
is "$rc" 0 "torchvision.models.get_model('resnet18'): exit 0"
G() { json "$T/o/computation_graph.json" "$1"; }
is "$(G "(d['modules'][0]['class'], d['modules'][0]['params'])")" "('ResNet', 11689512)" \
	"  ResNet, 11,689,512 parameters"
G "d['modules'][0]['code_anchor']" | grep -q "^site:torchvision/models/resnet.py:ResNet.forward:"
ok $? "  anchored site:torchvision/models/resnet.py"
is "$(G "[p['name'] for p in d['environment']['packages']]")" "['torchvision']" "  the header names torchvision"
done_testing
