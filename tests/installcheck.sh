#!/bin/sh
# tests/installcheck.sh BINDIR PKGDATADIR: the installed ecg finds its
# helpers and catalogue with no environment variable, and reads a job.
# Run by `make installcheck` (and so by `make distcheck`).
set -eu
bindir=$1
pkgdatadir=$2
ecg="$bindir/ecg"
t=$(mktemp -d "${TMPDIR:-/tmp}/ecg-installcheck.XXXXXX")
trap 'rm -rf "$t"' EXIT

"$ecg" --version >"$t/version"
grep -qx "helpers: $pkgdatadir/pyhelpers" "$t/version" || {
	echo "installcheck: the installed ecg does not find its helpers in $pkgdatadir/pyhelpers:" >&2
	cat "$t/version" >&2
	exit 1
}
mkdir "$t/job"
cat >"$t/job/train.py" <<'PY'
import torch.nn as nn

class Net(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

model = Net()
for batch in range(10):
    model(batch)
PY
git -C "$t/job" init -q
git -C "$t/job" add train.py
git -C "$t/job" -c user.name=ecg -c user.email=ecg@ecg.invalid commit -q -m job
(cd "$t/job" && "$ecg" extract --entry train.py -q >/dev/null)
grep -q '"id": "layers.\*"' "$t/job/records/computation_graph.json" || {
	echo "installcheck: the installed ecg did not read the job's model" >&2
	exit 1
}
grep -q '"op": "torch.nn.functional.linear"' "$t/job/records/computation_graph.json" || {
	echo "installcheck: the installed ecg did not expand a layer from its catalogue" >&2
	exit 1
}
echo "installcheck: ok ($ecg)"
