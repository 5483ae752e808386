#!/bin/sh
# `ecg check` and `ecg refresh` see what changed outside the repository
# (issue 17): a file the job read from outside it (environment.files: a
# checkpoint's config.json at an absolute path, with its blob id) and an
# installed package read (environment.packages: its version in its
# recorded site directory: a library upgraded).  Either makes the records
# stale, as a changed repository file does; refresh then reads the job
# again (not the relocation fast path) and reports the change.  The
# stand-in package of tests/fixtures/site_transformers, copied so that it
# can be upgraded here.
. "$top_srcdir/tests/lib.sh"

FX="$top_srcdir/tests/fixtures/site_transformers"
SP="$T/site"
mkdir -p "$SP"
cp -R "$FX/_env/site-packages/." "$SP/"
chmod -R u+w "$SP"
R="$T/job"
mkrepo "$R"
cp "$FX/train.py" "$R/"
commit "$R" "job"
CK="$T/outside/ckpt"
mkdir -p "$CK"
cp "$FX/ckpt/config.json" "$CK/config.json"
chmod u+w "$CK/config.json"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --site "$SP" \
	--set model_name_or_path="$CK"
is "$rc" 0 "extract with a checkpoint outside the repository and --site: exit 0"
is "$(json "$T/o/computation_graph.json" '[(p["name"], p["version"]) for p in d["environment"]["packages"]]')" \
	"[('transformers', '0.0.1')]" "  the header names the package read"

run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check: nothing changed: fresh (exit 0)"

# the checkpoint's config.json changed
sed 's/"num_hidden_layers": *3/"num_hidden_layers": 4/' "$FX/ckpt/config.json" >"$CK/config.json"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the config.json outside the repository changed: stale (exit 1)"
grep -q "file     $CK/config.json changed (read by the job from outside the repository" "$T/out"
ok $? "  the file is named"
run_ecg check --repo "$R" --out "$T/o" --json
is "$(json "$T/out" '[(e["kind"], e["status"]) for e in d["environment"]]')" "[('file', 'changed')]" \
	"  --json: environment [file changed]"
is "$(json "$T/out" 'd["fresh"]')" False "  --json: fresh false"

# refresh reads the job again and names the change
run_ecg refresh --repo "$R" --out "$T/o"
is "$rc" 0 "refresh: exit 0"
grep -q "environment_changed $CK/config.json" "$T/out"
ok $? "  the report names the changed file"
is "$(json "$T/o/computation_graph.json" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" 4 \
	"  the job read again: layers x 4"
run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check after refresh: fresh"

# the library upgraded: its METADATA's version
mv "$SP/transformers-0.0.1.dist-info" "$SP/transformers-0.0.2.dist-info"
sed 's/^Version: 0.0.1/Version: 0.0.2/' "$SP/transformers-0.0.2.dist-info/METADATA" >"$T/meta"
cp "$T/meta" "$SP/transformers-0.0.2.dist-info/METADATA"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the installed transformers upgraded: stale (exit 1)"
grep -q "package  transformers 0.0.1 in .*: now 0.0.2" "$T/out"
ok $? "  the package and both versions are named"
run_ecg refresh --repo "$R" --out "$T/o" --json
is "$rc" 0 "refresh: exit 0"
is "$(json "$T/out" '[(e["name"], e["from"], e["to"]) for e in d["environment_changed"]]')" \
	"[('transformers', '0.0.1', '0.0.2')]" "  --json: environment_changed transformers 0.0.1 -> 0.0.2"
is "$(json "$T/out" 'd["read_again"]')" True "  the job was read again (not only anchors moved)"
run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check after refresh: fresh"

# the library removed
rm -rf "$SP/transformers-0.0.2.dist-info"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the package no longer installed: stale"
grep -q "package  transformers 0.0.2 in .*: no longer installed" "$T/out"
ok $? "  named so"

# a name the job looked up and did not find (environment.absent) installed
# since: what it builds may differ (site_versions.sh's verlib: the
# attention class hangs on torch's version, not decided without it)
SV="$T/vsite"
mkdir -p "$SV/verlib" "$SV/verlib-0.1.dist-info"
printf 'Metadata-Version: 2.1\nName: verlib\nVersion: 0.1\nRequires-Dist: torch\n' >"$SV/verlib-0.1.dist-info/METADATA"
cat >"$SV/verlib/__init__.py" <<'PY'
import importlib.metadata
import importlib.util

from packaging import version
from torch import nn

try:
    _tv = importlib.metadata.version("torch")
except importlib.metadata.PackageNotFoundError:
    _tv = "0"
_xla = importlib.util.find_spec("fake_xla") is not None


class Eager(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(4, 4)

    def forward(self, x):
        return self.l(x)


class Fast(Eager):
    pass


def build():
    if _xla:
        return Eager()
    return Fast() if version.parse(_tv) >= version.parse("2.1.1") else Eager()
PY
R2="$T/job2"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torch
import verlib

model = verlib.build()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
PY
commit "$R2" "job2"
mkdir -p "$SV/torch-2.3.0.dist-info"
printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.3.0\n' >"$SV/torch-2.3.0.dist-info/METADATA"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --no-env --site "$SV"
is "$(json "$T/o2/computation_graph.json" 'd["modules"][0]["class"]')" "Fast" "torch 2.3.0 and no fake_xla in the site: Fast"
is "$(json "$T/o2/computation_graph.json" 'd["environment"]["absent"]')" "['fake_xla']" \
	"  the header lists fake_xla, looked up and not found (environment.absent)"
run_ecg check --repo "$R2" --out "$T/o2" -q
is "$rc" 0 "  check: fresh"
mkdir -p "$SV/fake_xla"
: >"$SV/fake_xla/__init__.py"
run_ecg check --repo "$R2" --out "$T/o2"
is "$rc" 1 "fake_xla installed since: check says stale"
grep -q "package  fake_xla .*installed since" "$T/out"
ok $? "  and names it"
run_ecg refresh --repo "$R2" --out "$T/o2" -q
is "$(json "$T/o2/computation_graph.json" 'd["modules"][0]["class"]')" "Eager" "  refresh: Eager now"
is "$(json "$T/o2/computation_graph.json" "d['environment'].get('absent')")" "None" "  and nothing is absent"
done_testing
