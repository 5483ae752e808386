#!/bin/sh
# Reliability (issue 20 part B): the two records are one unit (B3), the
# command line refuses what it cannot honour (B9), writes and reads stay
# where they belong (B7), files the job reads are part of the records (B2),
# and refresh never loses a person's fields (B4).  Each block is the probe
# that found the problem, kept so that it runs on every change.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import argparse

import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--n_layer", type=int, default=2)
args = p.parse_args()


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


model = Net(args.n_layer)
for step in range(10):
    y = model(torch.randn(4, 8))
    y.sum().backward()
PY
commit "$R" "a small job"

# pair_ok DIR: both records of DIR come from one run: the same `run` id,
# and the same --set (each concurrent run below sets its own n_layer).
pair_ok() {
	"$TEST_PYTHON" -I -S - "$1" <<'PY'
import json, sys
g = json.load(open(sys.argv[1] + "/computation_graph.json"))
s = json.load(open(sys.argv[1] + "/execution_schedule.json"))
if g["invocation"]["set"] != s["invocation"]["set"]:
    sys.exit("mixed: graph %s, schedule %s" % (g["invocation"]["set"], s["invocation"]["set"]))
if "run" not in g or g.get("run") != s.get("run"):
    sys.exit("run ids: %s %s" % (g.get("run"), s.get("run")))
PY
}

# ------------------------------------------------------------ B3: one unit
O="$T/o"
run_ecg extract --repo "$R" --entry train.py -q --out "$O"
is "$rc" 0 "extract into --out"
pair_ok "$O"
ok $? "  both records carry one run id"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$O" >"$T/schema.out" 2>&1
ok $? "  and stay valid against their schemas"

# concurrent runs into one --out never mix: 50 pairs of runs, each pair in
# parallel with different --set values; after each, the pair is one run's
mixed=0
i=0
while [ $i -lt 50 ]; do
	"$ECG" extract --repo "$R" --entry train.py -q --out "$O" --set n_layer=$((i + 3)) >/dev/null 2>"$T/e1" &
	p1=$!
	"$ECG" extract --repo "$R" --entry train.py -q --out "$O" --set n_layer=$((i + 60)) >/dev/null 2>"$T/e2" &
	p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	if [ $r1 -ne 0 ] || [ $r2 -ne 0 ]; then
		mixed=$((mixed + 1))
		diag "run $i exited $r1 $r2: $(cat "$T/e1" "$T/e2")"
	elif ! pair_ok "$O" 2>"$T/pair.err"; then
		mixed=$((mixed + 1))
		diag "pair $i: $(cat "$T/pair.err")"
	fi
	i=$((i + 1))
done
is "$mixed" 0 "50 pairs of concurrent runs into one --out: every final pair is one run's"
is "$(ls -A "$O" | grep -c '^\.\(computation_graph\|execution_schedule\)\.json\.')" 0 "  and no temporary is left"

# a mixed pair (a run killed between its two renames, or a writer of an
# older ecg) is refused by check and refresh, which would otherwise call it
# fresh or stamp the stale schedule with the new commit
run_ecg extract --repo "$R" --entry train.py -q --out "$T/a" --set n_layer=4
run_ecg extract --repo "$R" --entry train.py -q --out "$T/b" --set n_layer=5
mkdir -p "$T/mixed"
cp "$T/a/computation_graph.json" "$T/mixed/"
cp "$T/b/execution_schedule.json" "$T/mixed/"
run_ecg check --repo "$R" --out "$T/mixed"
is "$rc" 2 "check refuses a mixed pair (exit 2, an error, not fresh)"
grep -q "not one pair" "$T/err"
ok $? "  and says why: $(head -1 "$T/err")"
cp "$T/mixed/execution_schedule.json" "$T/mixed.sched"
run_ecg refresh --repo "$R" --out "$T/mixed" -q
is "$rc" 3 "refresh refuses a mixed pair (exit 3)"
cmp -s "$T/mixed/execution_schedule.json" "$T/mixed.sched"
ok $? "  and writes nothing"

# a killed run's temporaries are removed by the next run
: >"$O/.computation_graph.json.Ab3xYz"
: >"$O/.execution_schedule.json.Q1w2E3"
run_ecg extract --repo "$R" --entry train.py -q --out "$O"
is "$(ls -A "$O" | grep -c '^\.\(computation_graph\|execution_schedule\)\.json\.')" 0 \
	"the temporaries of a killed run are cleaned by the next one"

# refresh holds the lock from its reading to its writing: an extract
# started meanwhile waits, then writes its own pair whole
run_ecg extract --repo "$R" --entry train.py -q
"$ECG" refresh --repo "$R" -q >/dev/null 2>"$T/e1" &
p1=$!
"$ECG" extract --repo "$R" --entry train.py -q --set n_layer=7 >/dev/null 2>"$T/e2"
r2=$?
wait $p1
r1=$?
is "$r1:$r2" "0:0" "refresh and extract at once both succeed"
pair_ok "$R/records"
ok $? "  and leave one run's pair"

# ------------------------------------------------------------ B9: the command line
printf 'n_layer = \n' >"$T/bad.toml"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/c" --config "$T/bad.toml"
is "$rc" 2 "a --config file that does not parse: exit 2 (bad usage), not 5 (internal error)"
grep -q "config '$T/bad.toml' is not valid TOML: .*line 1" "$T/err"
ok $? "  the message names the file, the format and the line: $(head -1 "$T/err")"
printf 'n_layer: 3\n' >"$T/c.ini"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/c" --config "$T/c.ini"
is "$rc" 2 "a --config file of a format ecg does not read: exit 2"

printf 'A job.\n' >"$R/README"
commit "$R" "a README"
run_ecg extract --repo "$R" --entry README -q --out "$T/c"
is "$rc" 3 "--entry README (not a Python file) is refused: exit 3"
grep -q "README is not a Python file" "$T/err"
ok $? "  and says so: $(head -1 "$T/err")"
run_ecg extract --repo "$R" --entry README:main -q --out "$T/c"
is "$rc" 3 "  README:main too"

run_ecg extract --repo "$R" --entry train.py -j
is "$rc" 2 "-j without a value: exit 2"
grep -q "option '-j' needs a value" "$T/err"
ok $? "  says the value is missing: $(head -1 "$T/err")"
run_ecg extract --repo "$R" --entry train.py --out
grep -q "option '--out' needs a value" "$T/err"
ok $? "  --out without a value too: $(head -1 "$T/err")"
run_ecg extract --repo "$R" --entry train.py -x
grep -q "unknown option '-x'" "$T/err"
ok $? "  an unknown option is still unknown: $(head -1 "$T/err")"

for v in 99999999999999999999999999 18446744073709551616 18446744073709551615 4294967296000; do
	run_ecg extract --repo "$R" --entry train.py -q --out "$T/c" --max-file-size "$v"
	is "$rc" 2 "--max-file-size $v (overflow, or more than a file ecg reads) is refused"
done
run_ecg extract --repo "$R" --entry train.py -q --out "$T/c" --max-file-tokens 99999999999999999999999
is "$rc" 2 "--max-file-tokens 999...9 is refused"

# --worktree: a 5 GB untracked file (sparse) is not hashed; main took a
# minute of CPU time to hash it, under a 10 s CPU limit it is killed
W="$T/wt"
"$GIT" clone -q "$R" "$W"
if truncate -s 5G "$W/big.bin" 2>/dev/null; then
	(ulimit -t 10; exec "$ECG" extract --repo "$W" --worktree --entry train.py -q --out "$T/w") >/dev/null 2>"$T/err"
	is "$?" 0 "--worktree with a 5 GB untracked file: done well within 10 s of CPU (not hashed)"
	rm -f "$W/big.bin"
else
	ok 0 "# SKIP no sparse 5 GB file here"
fi
d="$W/deep"
i=0
while [ $i -lt 110 ]; do d="$d/d"; i=$((i + 1)); done
mkdir -p "$d" && echo x >"$d/f.txt"
run_ecg extract --repo "$W" --worktree --entry train.py -q --out "$T/w"
is "$rc" 0 "--worktree with an untracked path nested 111 directories deep: the run goes on"
grep -q "nested deeper than 100 directories: not listed" "$T/err"
ok $? "  with a warning that names it"
rm -rf "$W/deep"

# ------------------------------------------------------------ B7: where writes and reads go
run_ecg extract --repo "$R" --entry train.py -q --out "$O"
mkfifo "$T/fifo"
run_ecg render --records "$O" -o "$T/fifo"
is "$rc" 4 "render -o FIFO is refused (exit 4)"
test -p "$T/fifo"
ok $? "  and the FIFO is still a FIFO: $(head -1 "$T/err")"
echo keep >"$T/target.html"
ln -s "$T/target.html" "$T/link.html"
run_ecg render --records "$O" -o "$T/link.html"
is "$rc" 4 "render -o SYMLINK is refused"
test -L "$T/link.html" && [ "$(cat "$T/target.html")" = keep ]
ok $? "  the link and its target are untouched"
mkdir -p "$T/adir"
run_ecg render --records "$O" -o "$T/adir"
is "$rc" 4 "render -o DIRECTORY is refused"
if [ "$(id -u)" = 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
	run_ecg render --records "$O" -o "$T/null"
	is "$rc" 4 "render -o DEVICE (a null device made in the test's directory) is refused"
	test -c "$T/null"
	ok $? "  and it is still a device"
else
	ok 0 "# SKIP not root: no device node to try"
	ok 0 "# SKIP not root"
fi
run_ecg render --records "$O" -o -
is "$rc" 0 "render -o - writes to standard output"
head -c 15 "$T/out" | grep -q '<!DOCTYPE html>'
ok $? "  the page itself, not a path"
test ! -e "$T/-" && test ! -e "./-"
ok $? "  and no file named '-'"

# a committed `records` symbolic link does not send the records outside
S="$T/symrec"
mkrepo "$S"
cp "$R/train.py" "$S/"
mkdir -p "$T/outside"
ln -s "$T/outside" "$S/records"
commit "$S" "records is a link"
run_ecg extract --repo "$S" --entry train.py -q
is "$rc" 4 "extract refuses a default records/ that is a symbolic link (exit 4)"
is "$(ls -A "$T/outside")" "" "  nothing was written where it points"
grep -q "symbolic link" "$T/err"
ok $? "  and says why: $(head -1 "$T/err")"
run_ecg extract --repo "$S" --entry train.py -q --out "$T/outside"
is "$rc" 0 "  --out DIR is still followed (the user named it)"

# --worktree: a tracked directory replaced by a link to outside is not read through
V="$T/vendored"
mkrepo "$V"
mkdir -p "$V/pkg" "$T/evil/pkg"
cat >"$V/pkg/model.py" <<'PY'
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)
PY
cat >"$V/train.py" <<'PY'
import torch

from pkg.model import Net

model = Net()
y = model(torch.randn(2, 4))
PY
commit "$V" "a package"
sed 's/self.fc = nn.Linear(4, 4)/self.backdoor = nn.Linear(4, 4)/; s/self.fc(x)/self.backdoor(x)/' \
	"$V/pkg/model.py" >"$T/evil/pkg/model.py"
rm -rf "$V/pkg"
ln -s "$T/evil/pkg" "$V/pkg"
run_ecg extract --repo "$V" --worktree --entry train.py -q --out "$T/v"
is "$rc" 6 "--worktree with a tracked directory replaced by a link: records written, no model (exit 6: its file is not in the work tree)"
grep -q backdoor "$T/v/computation_graph.json"
ok $((! $?)) "  nothing was read through the link (no 'backdoor' module)"
is "$(json "$T/v/computation_graph.json" "[f['path'] for f in d['files']]")" "['train.py']" \
	"  pkg/model.py is not among the files read"
is "$(json "$T/v/computation_graph.json" "d['dirty']")" "True" "  and the work tree is dirty (pkg/model.py is gone from it)"

# ------------------------------------------------------------ B2: files the job reads
C="$T/cfgjob"
mkrepo "$C"
mkdir -p "$C/configs"
cat >"$C/train.py" <<'PY'
import json

import torch
import torch.nn as nn
import yaml

with open("configs/model.json") as f:
    cfg = json.load(f)
with open("configs/train.yaml") as f:
    tcfg = yaml.safe_load(f)


class Net(nn.Module):
    def __init__(self, n_layer, dim):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layer)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


model = Net(cfg["n_layer"], tcfg["dim"])
for step in range(10):
    y = model(torch.randn(4, tcfg["dim"]))
    y.sum().backward()
PY
printf '{"n_layer": 2}\n' >"$C/configs/model.json"
printf 'dim: 8\n' >"$C/configs/train.yaml"
commit "$C" "a job with config files"
run_ecg extract --repo "$C" --entry train.py -q
is "$rc" 0 "extract a job that reads a JSON and a YAML config file"
CG="$C/records/computation_graph.json"
is "$(json "$CG" "[f['path'] for f in d['files']]")" "['configs/model.json', 'configs/train.yaml', 'train.py']" \
	"  both config files are listed in files"
is "$(json "$CG" "[f['blob'] for f in d['files'] if f['path'] == 'configs/model.json'] == ['$("$GIT" -C "$C" rev-parse HEAD:configs/model.json)']")" \
	"True" "  with their blobs"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$C/records" >"$T/schema.out" 2>&1
ok $? "  and the records stay schema-valid"
run_ecg check --repo "$C"
is "$rc" 0 "  check: fresh"

printf '{"n_layer": 5}\n' >"$C/configs/model.json"
run_ecg extract --repo "$C" --worktree --entry train.py -q --out "$T/cw"
is "$(json "$T/cw/computation_graph.json" "d['dirty']")" "True" "--worktree with the config file modified: dirty: true"
run_ecg check --repo "$C" --worktree
is "$rc" 1 "check --worktree: stale (exit 1)"
commit "$C" "n_layer 2 -> 5, in the config file only"
run_ecg check --repo "$C"
is "$rc" 1 "check after a commit that changes only the config file: stale (exit 1)"
grep -q "file     configs/model.json changed" "$T/out"
ok $? "  it names the file"
grep -q "config   n_layer = 2 (configs/model.json): its source changed" "$T/out"
ok $? "  and the value read from it"
run_ecg check --repo "$C" --json
is "$(json "$T/out" "(d['fresh'], [c['name'] for c in d['config']])")" "(False, ['n_layer'])" "  (--json too)"
run_ecg refresh --repo "$C" -q
is "$rc" 0 "refresh: exit 0"
is "$(json "$CG" "[c['value'] for c in d['config'] if c['name'] == 'n_layer']")" "[5]" "  reads the config file again: n_layer 5"
is "$(json "$CG" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'layers.*']")" "[5]" "  and the layers repeat 5 times"
is "$(json "$CG" "d['commit']")" "$("$GIT" -C "$C" rev-parse HEAD)" "  under the new commit"
run_ecg check --repo "$C"
is "$rc" 0 "  then check is fresh"
printf 'dim: 16\n' >"$C/configs/train.yaml"
commit "$C" "dim 8 -> 16 in the YAML file"
run_ecg check --repo "$C"
is "$rc" 1 "a YAML config file changing makes the records stale too"

# ------------------------------------------------------------ B4: refresh never loses a person's fields
# Choice: refresh refuses (exit 3, nothing written) when a file that parsed
# before does not parse now and entries carrying hand-added fields would be
# dropped; after the fix, a refresh carries the fields over.
B="$T/b4"
mkrepo "$B"
cat >"$B/model.py" <<'PY'
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(3)])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x
PY
cat >"$B/train.py" <<'PY'
import torch

from model import Net

model = Net()
for step in range(5):
    y = model(torch.randn(2, 8))
    y.sum().backward()
PY
commit "$B" "a model"
run_ecg extract --repo "$B" --entry train.py -q
BG="$B/records/computation_graph.json"
"$TEST_PYTHON" -I -S - "$BG" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["modules"]:
    if e["id"] == "blocks.*.fc":
        e["note"] = "40% of the step"
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
cp "$BG" "$T/b4-before.json"
sed -i 's/return self.fc(x)$/return self.fc(x) +/' "$B/model.py"
commit "$B" "model.py does not parse"
run_ecg refresh --repo "$B" -q
is "$rc" 3 "refresh across a commit where model.py does not parse: refused (exit 3)"
grep -q "model.py:10 (invalid syntax).*'blocks.\*.fc'" "$T/err"
ok $? "  naming the file and the entry whose fields would be lost: $(head -c 200 "$T/err")"
cmp -s "$BG" "$T/b4-before.json"
ok $? "  and nothing was written"
sed -i 's/return self.fc(x) +$/return self.fc(x)/' "$B/model.py"
sed -i 's/range(3)/range(4)/' "$B/model.py"
commit "$B" "fixed, and 4 blocks"
run_ecg refresh --repo "$B" -q
is "$rc" 0 "after the fix, refresh succeeds"
is "$(json "$BG" "[e.get('note') for e in d['modules'] if e['id'] == 'blocks.*.fc']")" "['40% of the step']" \
	"  and the hand-added field is still there"
is "$(json "$BG" "[e['repeat']['count'] for e in d['modules'] if e['id'] == 'blocks.*']")" "[4]" "  on the new reading"

# ------------------------------------------------------------ B9: byte paths, lossless and unique
# ':' , control characters, '%' and bytes that are not UTF-8 are written
# %XX: the records stay valid against their own schemas, and two names
# that differ only in a non-UTF-8 byte stay two paths
P="$T/bytepaths"
mkrepo "$P"
printf 'import torch.nn as nn\nmodel = nn.Linear(2, 2)\n' >"$P/a:b.py"
printf 'x = 2\n' >"$P/$(printf 'tab\there.py')"
printf 'x = 3\n' >"$P/$(printf 'x\377.py')"
printf 'x = 4\n' >"$P/$(printf 'x\376.py')"
printf 'x = 5\n' >"$P/100%.py"
printf 'x = 6\n' >"$P/$(printf 'ctl\001.py')"
commit "$P" "hostile names"
run_ecg extract --repo "$P" -q --out "$T/p"
is "$rc" 0 "extract of a tree with ':', control characters, '%' and non-UTF-8 bytes in names"
is "$(json "$T/p/computation_graph.json" "[f['path'] for f in d['files']]")" \
	"['100%25.py', 'a%3Ab.py', 'ctl%01.py', 'tab%09here.py', 'x%FE.py', 'x%FF.py']" \
	"  every path escaped as %XX, distinct"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/p" >"$T/schema.out" 2>&1
ok $? "  and both records are valid against their schemas"
grep FAIL "$T/schema.out" | head -3 | sed 's/^/# /'
"$TEST_PYTHON" -I -S - "$T/p/computation_graph.json" "$P" <<'PY'
import json, os, re, sys
d = json.load(open(sys.argv[1]))
want = sorted(os.fsencode(n) for n in os.listdir(sys.argv[2]) if n != ".git" and n != "records")
got = sorted(re.sub(rb"%([0-9A-F]{2})", lambda m: bytes([int(m.group(1), 16)]), f["path"].encode())
             for f in d["files"])
sys.exit(0 if got == want else "got %r, want %r" % (got, want))
PY
ok $? "  decoding %XX gives each name's bytes back"
run_ecg extract --repo "$P" -q --worktree --out "$T/pw"
is "$(json "$T/pw/computation_graph.json" "(d['dirty'], len(d['files']), d['parse_errors'])")" "(False, 6, [])" \
	"  --worktree reads the same files by their own bytes (clean, nothing unreadable)"
run_ecg extract --repo "$P" -q --entry 'a:b.py' --out "$T/pe"
is "$(json "$T/pe/computation_graph.json" "d['entrypoint']['file']")" "a%3Ab.py" "  --entry takes the name as it is on disk"
run_ecg check --repo "$P" --out "$T/pe"
is "$rc" 0 "  and check finds the records fresh"

done_testing
