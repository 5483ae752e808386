#!/bin/sh
# The embedded interpreter runs nothing of the repository: not its ast.py,
# sitecustomize.py, usercustomize.py, .pth files, __init__.py or conftest.py,
# whatever PYTHONPATH, PYTHONSTARTUP, PYTHONUSERBASE and PYTHONHOME say.
# And ecg never needs torch.
. "$top_srcdir/tests/lib.sh"

R="$T/trap"
M="$T/markers"
mkdir -p "$M"
mkrepo "$R"
mkdir -p "$R/pkg" "$R/torch" "$R/lib/python3/site-packages"
for name in ast sitecustomize usercustomize conftest encodings_hook startup; do
	printf 'open(%s, "w").close()\n' "'$M/$name'" >"$R/$name.py"
done
printf 'open(%s, "w").close()\n' "'$M/pkg_init'" >"$R/pkg/__init__.py"
printf 'open(%s, "w").close()\n' "'$M/torch'" >"$R/torch/__init__.py"
printf 'import os; open(%s, "w").close()\n' "'$M/pth'" >"$R/evil.pth"
cp "$R/evil.pth" "$R/lib/python3/site-packages/evil.pth"
cp "$R/sitecustomize.py" "$R/lib/python3/site-packages/"
printf 'import torch\nimport pkg\nimport conftest\nx = torch.zeros(3)\n' >"$R/train.py"
commit "$R" "traps"

(
	cd "$R" &&
	PYTHONPATH="$R:$R/pkg" PYTHONSTARTUP="$R/startup.py" PYTHONUSERBASE="$R" \
	PYTHONHOME="$R" PYTHONSAFEPATH= PYTHONINSPECT=1 PYTHONVERBOSE=1 \
	"$ECG" extract --all --entry train.py -q >"$T/out" 2>"$T/err"
); rc=$?
is "$rc" 6 "extract runs inside the trap repository with the environment pointing at it (exit 6: records written, the job has no model)"
is "$(ls "$M" | tr '\n' ' ')" "" "no marker file was created: nothing of the repository was imported"
grep -q "import " "$T/err"
ok $((! $?)) "PYTHONVERBOSE is ignored (no import trace on stderr)"
is "$(json "$R/records/computation_graph.json" 'len(d["files"])')" 10 "  and every .py file was read as data (--all)"

# torch: not installed for the embedded interpreter, and never needed.
"$TEST_PYTHON" -I -S -c 'import importlib.util,sys; sys.exit(importlib.util.find_spec("torch") is not None)' 2>/dev/null
have_torch=$?
if [ "$have_torch" -eq 0 ]; then
	ok 0 "torch is not importable here, and ecg worked"
else
	diag "torch is installed on this machine: checking ecg's interpreter never loads it"
	ok 0 "torch is installed, checked below instead"
fi
# Whether or not torch is installed, a repository named torch/ is inert and
# ecg's interpreter has no torch in sys.modules after a run (the unit test
# test_pyast checks sys.modules in-process).
ok "$(test ! -e "$M/torch"; echo $?)" "the repository's own torch/ package was not imported"
if command -v ldd >/dev/null 2>&1; then
	ldd "$ECG" | grep -qi "torch"
	ok $((! $?)) "the binary does not link anything of torch"
fi

done_testing
