#!/bin/sh
# Installed libraries (site.h, issue 17): found without running anything
# (--site, --python's path, VIRTUAL_ENV, CONDA_PREFIX, a .venv/ at the
# repository root), read like the repository's code, never imported: a .pth
# file's import line is not run, the interpreter named by --python is not
# run, torch itself is never read (the catalogue covers it), and a library
# that does not use torch stays external.  The header's `environment` names
# the directories and the packages read, with versions.
. "$top_srcdir/tests/lib.sh"

FX="$top_srcdir/tests/fixtures/site_library"
R="$T/job"
mkrepo "$R"
cp "$FX/train.py" "$FX/local.py" "$R/"
cat >>"$R/train.py" <<'PY'

import plainlib   # a library that does not use torch: stays external
import torch.nn as nn2
PY
commit "$R" "job"

# the environment, in a venv layout: PREFIX/lib/python3.X/site-packages
V="$T/venv"
SP="$V/lib/python3.11/site-packages"
mkdir -p "$SP" "$V/bin"
cp -R "$FX/_env/site-packages/." "$SP/"
cp -R "$FX/_env/extra" "$V/lib/python3.11/extra"
printf 'import os; open("%s/PTH_RAN", "w").close()\n../extra\n' "$T" >"$SP/zz_editable.pth"
mkdir -p "$SP/plainlib" "$SP/torch"
echo 'import json as _json' >"$SP/plainlib/__init__.py"
printf 'raise SystemExit("torch read")\nclass Linear: pass\n' >"$SP/torch/__init__.py"
# an interpreter that leaves a mark if it is ever run
printf '#!/bin/sh\ntouch "%s/PYTHON_RAN"\n' "$T" >"$V/bin/python3"
chmod +x "$V/bin/python3"

classes() { json "$1/computation_graph.json" '" ".join(sorted(set(str(m.get("class")) for m in d["modules"] if m["kind"] in ("model", "module"))))'; }
env_of() { json "$1/computation_graph.json" 'd.get("environment")'; }

run_ecg extract --repo "$R" --entry train.py --out "$T/o1" -q --no-cache --no-site-env --site "$SP"
is "$rc" 0 "--site DIR: exit 0"
is "$(classes "$T/o1")" "Adapter Block Head Model Net" "  the library's classes are read: Net and its Blocks, Head through a .pth path line"
is "$(json "$T/o1/computation_graph.json" '[m["repeat"]["count"] for m in d["modules"] if m.get("class") == "Block"][0]')" 3 \
	"  Block x 3, the depth the job passes through the library's registry"
is "$(json "$T/o1/computation_graph.json" '[m["code_anchor"] for m in d["modules"] if m.get("class") == "Block"][0]')" \
	"site:fakelib/blocks.py:Block.forward:11" "  anchored site:<path inside site-packages>"
is "$(json "$T/o1/computation_graph.json" '[(p["name"], p["version"]) for p in d["environment"]["packages"]]')" \
	"[('fakelib', '1.2.3')]" "  the header names the package read and its version (dist-info METADATA)"
is "$(json "$T/o1/execution_schedule.json" 'd["environment"]["site"]')" "['$SP']" "  and the site directory as given, in both records"
ok "$(test ! -e "$T/PTH_RAN"; echo $?)" "  a .pth file's import line is never run"
json "$T/o1/computation_graph.json" 'd["files"]' | grep -q site
ok $((! $?)) "  library files are not in \`files\` (they are not the repository's)"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o1" >"$T/schema.out" 2>&1
ok $? "  the records are valid (schema_check.py)"

grep -q "plainlib" "$T/o1/computation_graph.json"
ok $((! $?)) "a library that does not import torch is not read"
grep -q "site:torch/" "$T/o1/computation_graph.json" "$T/o1/execution_schedule.json"
ok $((! $?)) "  and torch itself is never read from the environment (the catalogue covers it)"
is "$(json "$T/o1/computation_graph.json" '[m["class"] for m in d["modules"] if m["id"].endswith("fc")][0]')" \
	"torch.nn.Linear" "  its layers are the catalogue's torch.nn.Linear"

run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --python "$V/bin/python3"
is "$(classes "$T/o2")" "Adapter Block Head Model Net" "--python PATH: its site-packages is found from the path"
ok "$(test ! -e "$T/PYTHON_RAN"; echo $?)" "  and the interpreter is never run"

VIRTUAL_ENV="$V" run_ecg extract --repo "$R" --entry train.py --out "$T/o3" -q --no-cache
is "$(classes "$T/o3")" "Adapter Block Head Model Net" "an active VIRTUAL_ENV is read by default"
VIRTUAL_ENV="$V" run_ecg extract --repo "$R" --entry train.py --out "$T/o4" -q --no-cache --no-site-env
is "$(classes "$T/o4")" "Adapter Model" "  not with --no-site-env"
is "$(env_of "$T/o4")" "None" "  and then the header has no environment"
CONDA_PREFIX="$V" run_ecg extract --repo "$R" --entry train.py --out "$T/o5" -q --no-cache
is "$(classes "$T/o5")" "Adapter Block Head Model Net" "so is an active CONDA_PREFIX"

mv "$V" "$R/.venv"
run_ecg extract --repo "$R" --entry train.py --out "$T/o6" -q --no-cache
is "$(classes "$T/o6")" "Adapter Block Head Model Net" "and a .venv/ at the repository root"
mv "$R/.venv" "$V"

# without an environment: as before, with a reason that says what reads it
run_ecg extract --repo "$R" --entry train.py --out "$T/o7" -q --no-cache --no-site-env
is "$(classes "$T/o7")" "Adapter Model" "without an environment the library's classes are not there"
R2="$T/tv"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torchvision.models as models

model = models.resnet18()
for step in range(2):
    model(x).sum().backward()
PY
commit "$R2" "tv"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o8" -q --no-cache --no-site-env
json "$T/o8/computation_graph.json" 'd["modules"][0]["subtree"]["reason"]' | grep -q -- "--site DIR"
ok $? "  an external library class says --site / --python would read it"

# refresh reads the same libraries again (environment.site), and only them
echo "# a change" >>"$R/local.py"
commit "$R" "change"
VIRTUAL_ENV="$T/nowhere" run_ecg refresh --repo "$R" --out "$T/o1" -q
is "$rc" 0 "refresh of records read with --site: exit 0"
is "$(classes "$T/o1")" "Adapter Block Head Model Net" "  the library's classes are read again"
is "$(json "$T/o1/computation_graph.json" 'd["environment"]["site"]')" "['$SP']" "  from the same directory, not this shell's VIRTUAL_ENV"

# a site directory that is not there: a warning, the run goes on
run_ecg extract --repo "$R" --entry train.py --out "$T/o9" --no-cache --no-site-env --site "$T/nowhere"
is "$rc" 0 "a --site directory that does not exist: exit 0"
grep -q "installed libraries: .*nowhere: not a directory" "$T/err"
ok $? "  with a warning naming it"

done_testing
