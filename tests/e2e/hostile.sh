#!/bin/sh
# Hostile repositories: code written to make an analyser loop, recurse, blow
# up or misreport.  ecg must terminate on each, with bounded memory, and say
# `null` with a reason where it gives up -- never a made-up number.
. "$top_srcdir/tests/lib.sh"

P="$TEST_PYTHON"
R="$T/hostile"
mkrepo "$R"

"$P" - "$R" <<'EOF'
import os, sys
r = sys.argv[1]
def w(p, s):
    with open(os.path.join(r, p), "w") as fh:
        fh.write(s)
# deeply nested classes (90 levels; CPython's limit is 100), a module at the bottom
lines, ind = ["import torch.nn as nn"], ""
for i in range(90):
    lines.append(ind + "class C%d:" % i)
    ind += "    "
lines += [ind + "class Deep(nn.Module):", ind + "    def forward(self, x):", ind + "        return x"]
w("nested.py", "\n".join(lines) + "\n")
# a class that inherits from itself through an import cycle
w("cyc_a.py", "from cyc_b import B\n\n\nclass A(B):\n    def forward(self, x):\n        return x\n")
w("cyc_b.py", "from cyc_a import A\n\n\nclass B(A):\n    pass\n")
w("model.py", '''import torch
import torch.nn as nn


def ping(x, n):
    return pong(x * 2, n - 1) if n > 0 else x


def pong(x, n):
    return ping(x + 1, n - 1)


class Big(nn.Module):
    def __init__(self, n=10000, huge=10**12):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])
        self.many = nn.ModuleList([nn.ReLU() for _ in range(huge)])
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        x = ping(x, 10)
        for layer in self.layers:
            x = layer(x)
        for act in self.many:
            x = act(x)
        for _ in range(10**12):
            x = self.lin(x)
        for _ in range(10**12):
            for _ in range(10**12):
                x = torch.relu(x)
        return x
''')
w("train.py", '''import torch
from model import Big
from cyc_a import A
import nested
import longline
import longexpr

model = Big()
x = torch.randn(2, 4)
y = model(x)
''')
# very long lines: a 10 MB one-line list literal (5,000,000 elements), and a
# 4 MB one-line string (one token)
w("longline.py", "DATA = [" + ",".join(["1"] * 5000000) + "]\n")
w("longexpr.py", "S = '" + "x" * (4 << 20) + "'\n")
# symlink loops, as .py names and as directories
os.symlink("loop_b.py", os.path.join(r, "loop_a.py"))
os.symlink("loop_a.py", os.path.join(r, "loop_b.py"))
os.makedirs(os.path.join(r, "pkg"))
w("pkg/__init__.py", "")
os.symlink("..", os.path.join(r, "pkg", "up"))
# a non-UTF-8 file name
with open(os.path.join(r, "caf\udce9.py").encode("utf-8", "surrogateescape"), "w") as fh:
    fh.write("x = 1\n")
EOF
commit "$R" "hostile"

# max RSS of the run, in KB (plain builds only: sanitizers and valgrind
# inflate it)
run_measured() {
	"$P" -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as o, open(sys.argv[2], "w") as e:
    rc = subprocess.run(sys.argv[4:], stdout=o, stderr=e, timeout=600).returncode
open(sys.argv[3], "w").write("%d %d\n" % (rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
' "$T/out" "$T/err" "$T/rss" "$@"
}

for mode in "" --all --worktree; do
	if [ "$ECG_ENABLE_VALGRIND" = yes ] || [ "$ECG_ENABLE_ASAN" = yes ]; then
		run_ecg extract --repo "$R" --entry train.py --out "$T/o$mode" -q $mode
		rss=0
	else
		run_measured "$ECG" extract --repo "$R" --entry train.py --out "$T/o$mode" -q $mode
		read -r rc rss <"$T/rss"
	fi
	is "$rc" 6 "extract ${mode:-(default)} terminates on the hostile repository (exit 6: written, no step found)"
	ok "$(test "$rss" -lt 400000; echo $?)" "  with bounded memory (max RSS ${rss} KB < 400 MB)"
done

G="$T/o/computation_graph.json"
"$P" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "the records are valid (schema_check.py)"
is "$(json "$G" "[(i['what'], len(i['stopped_by'])) for i in d['incomplete']]")" "[('step', 0)]" \
	"  incomplete: no step, and nothing ecg gave up on explains it (the job has no loop)"
is "$(json "$T/o/execution_schedule.json" "[i['what'] for i in d['incomplete']]")" "['step']" "  in both records"

entry() {  # entry ID EXPR: EXPR about the module entry ID
	json "$G" "[$2 for e in d['modules'] if e['id'] == '$1']"
}
is "$(entry 'layers.*' "e['repeat']['count']")" "[10000]" "a 10,000-element ModuleList comprehension: one entry, repeat 10000"
is "$(entry 'lin' "e['total_repeat']")" "[1000000000000]" "range(10**12): repeat 10**12, as the code says"
is "$(json "$G" "[(e['total_repeat'], e['repeat']['count'], 'too large' in e['repeat']['reason']) for e in d['modules'] if e.get('op') == 'torch.relu']")" \
	"[(None, None, True)]" "range(10**12) inside range(10**12): null, with the reason"
is "$(entry 'many.*' "(e['total_repeat'], e['repeat']['count'])")" "[(None, None)]" \
	"a ModuleList of range(10**12) modules: its count is null"
ok "$(json "$G" "all(e['repeat']['reason'] for e in d['modules'] if e.get('repeat') and e['repeat']['count'] is None)" | grep -qx True; echo $?)" \
	"  and every null count has a reason"
n=$(json "$G" "max(e['id'].count('#') for e in d['modules'])")
ok "$(test "$n" -le 16; echo $?)" "mutually recursive helpers in forward: nesting bounded (depth $n)"
is "$(json "$G" "[e['message'].startswith('more than 1000000 tokens') for e in d['parse_errors'] if e['file'] == 'longline.py']")" \
	"[True]" "a 10 MB one-line literal is refused by its size in tokens"
is "$(json "$G" "[e for e in d['parse_errors'] if e['file'] == 'longexpr.py']")" "[]" \
	"a 4 MB string on one line parses (one token)"
G2="$T/o--all/computation_graph.json"
is "$(json "$G2" "sorted(u['anchor'] for u in d['unresolved'] if 'symbolic link' in u['what'])")" \
	"['loop_a.py', 'loop_b.py']" "--all: .py symlinks (a loop) are listed as not followed"
is "$(json "$G2" "[f['path'] == 'caf%E9.py' for f in d['files'] if f['path'].startswith('caf')]")" "[True]" \
	"a non-UTF-8 file name is read, written as valid UTF-8 (the byte as %E9, reversibly)"
ok "$(json "$G2" "any(f['path'] == 'nested.py' for f in d['files'])" | grep -qx True; echo $?)" \
	"90 levels of nested classes parse"
G3="$T/o--worktree/computation_graph.json"
ok "$(json "$G3" "not any('up/' in f['path'] for f in d['files'])" | grep -qx True; echo $?)" \
	"--worktree: a directory symlink loop (pkg/up -> ..) is not walked"

# a recursive walk over data (a checkpoint's state-dict merge): its running
# outermost call is charged for what it has spent so far, so it stops at
# its share of the budget and the job after it is still read
R2="$T/recwalk"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torch
import torch.nn as nn


def merge(state, depth):
    if depth == 0:
        total = 0
        for i in range(20000):
            total = total + i
        return total
    out = {}
    for k in range(4):
        out[k] = merge(state, depth - 1)
    return out


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


merged = merge({}, 4)
model = Net()
y = model(torch.randn(2, 8))
PY
commit "$R2" "a recursive walk"
run_ecg extract --repo "$R2" --entry train.py --no-cache --out "$T/rw" -q
is "$rc" 6 "a recursive walk of 15,000,000 steps: exit 6 (written; the job has no step)"
grep -q "no step (the loop or handler around the model call) was found; what stopped the reading: train.py:merge:5: not followed again" "$T/err"
ok $? "  said on stderr, even with -q, with the budget spent"
is "$(json "$T/rw/computation_graph.json" "[(i['what'], [u['anchor'] for u in i['stopped_by']]) for i in d['incomplete']]")" \
	"[('step', ['train.py:merge:5'])]" "  and in the records' incomplete"
run_ecg show --records "$T/rw"
grep -q "^incomplete: no step" "$T/out" && grep -q "stopped by train.py:merge:5" "$T/out"
ok $? "  show says so above the table"
run_ecg render --records "$T/rw" -o "$T/rw.html"
grep -q "Incomplete:</b> no step" "$T/rw.html"
ok $? "  render says so above the tree"
G4="$T/rw/computation_graph.json"
is "$(json "$G4" "[(u['anchor'], u['what']) for u in d['unresolved']]")" \
	"[('train.py:merge:5', 'a costly function')]" "  the walk is a costly function, not followed past its share"
is "$(json "$G4" "[m['id'] for m in d['modules']]")" "['', 'fc', 'fc#1']" \
	"  and the model after it is read (the run's step budget did not run out)"

# Two instances bound to one name and no step: the second is said in
# unresolved, but it is no reason the reading stopped (it went on)
R3="$T/twice"
mkrepo "$R3"
cat >"$R3/train.py" <<'PY'
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


model = Net()
y = model(torch.randn(2, 8))
model = Net()
y = model(torch.randn(2, 8))
PY
commit "$R3" "one name, two models, no step"
run_ecg extract --repo "$R3" --entry train.py --no-cache --out "$T/tw" -q
is "$rc" 6 "two models bound to one name, no loop: exit 6 (written; the job has no step)"
is "$(json "$T/tw/computation_graph.json" "[u['anchor'] for u in d['unresolved'] if u['what'] == 'another module bound to the same name']")" \
	"['train.py:<module>:17']" "  the second instance is said in unresolved"
is "$(json "$T/tw/computation_graph.json" "[(i['what'], len(i['stopped_by'])) for i in d['incomplete']]")" "[('step', 0)]" \
	"  but not as what stopped the reading (nothing ecg gave up on explains the missing step)"

done_testing
