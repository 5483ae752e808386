#!/bin/sh
# ecg extract on a small job: the common header is what git says it is,
# in every way of naming the repository and the revision.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
mkdir -p "$R/model" "$R/configs"
cat >"$R/model/__init__.py" <<'PY'
from .gpt import GPT, GPTConfig
PY
cat >"$R/model/gpt.py" <<'PY'
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class GPTConfig:
    n_layer: int = 4
    n_embd: int = 64


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln = nn.LayerNorm(c.n_embd)
        self.fc = nn.Linear(c.n_embd, c.n_embd)

    def forward(self, x):
        return x + self.fc(self.ln(x))


class GPT(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.h = nn.ModuleList([Block(c) for _ in range(c.n_layer)])

    def forward(self, x):
        for blk in self.h:
            x = blk(x)
        return x
PY
cat >"$R/train.py" <<'PY'
import torch
from model import GPT, GPTConfig

def main():
    model = GPT(GPTConfig())
    opt = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(2, 8, 64)).sum()
        loss.backward()
        opt.step()

if __name__ == "__main__":
    main()
PY
printf '{"n_layer": 4}\n' >"$R/configs/small.json"
commit "$R" "first"
echo "# a comment" >>"$R/train.py"
commit "$R" "second"
head=$("$GIT" -C "$R" rev-parse HEAD)
first=$("$GIT" -C "$R" rev-parse HEAD~1)

# --- from the work tree, default output directory
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract exits 0"
G="$R/records/computation_graph.json"
S="$R/records/execution_schedule.json"
ok "$(test -f "$G" && test -f "$S"; echo $?)" "both records are written to records/ at the work tree's root"
is "$(cat "$T/out")" "$R/records/computation_graph.json
$R/records/execution_schedule.json" "stdout names the two records"
is "$(json "$G" 'd["commit"]')" "$head" "commit is HEAD's sha"
is "$(json "$S" 'd["commit"]')" "$head" "the schedule names the same commit"
is "$(json "$G" 'd["schema"]')" "ecg.computation_graph/1" "graph schema"
is "$(json "$S" 'd["schema"]')" "ecg.execution_schedule/1" "schedule schema"
is "$(json "$G" 'd["dirty"]')" "False" "dirty is false for a commit read"
is "$(json "$G" 'd["python"]')" "$("$TEST_PYTHON" -c 'import platform; print(platform.python_version())')" \
	"python names the embedded parser's version"
is "$(json "$G" 'd["entrypoint"]["file"]')" "train.py" "entrypoint file as given"
is "$(json "$G" 'd["tool"]["name"] + " " + d["tool"]["version"]')" "ecg $("$ECG" --version | sed -n '1s/.* //p')" "tool and version"
want=$("$GIT" -C "$R" ls-tree -r HEAD | awk '$4 ~ /\.py$/ {print $4" "$3}' | LC_ALL=C sort)
got=$(json "$G" '"\n".join(f["path"]+" "+f["blob"] for f in d["files"])')
is "$got" "$want" "files: every .py blob of the commit, path and sha, sorted"
is "$(json "$G" 'len(d["parse_errors"]) + len(d["unresolved"])')" 0 "no parse errors, nothing unresolved"
# GPTConfig.n_layer = 4 (model/gpt.py line 9): four identical Blocks, one entry
is "$(json "$G" '[(m["id"], m.get("class"), m.get("total_repeat")) for m in d["modules"] if m["kind"] != "op"]')" \
	"[('', 'GPT', 1), ('h', 'torch.nn.ModuleList', 1), ('h.*', 'Block', 4), ('h.*.ln', 'torch.nn.LayerNorm', 4), ('h.*.fc', 'torch.nn.Linear', 4)]" \
	"the model the step calls, its ModuleList of 4 Blocks collapsed to h.*, in forward order"
is "$(json "$G" '[m["repeat"]["expr"] + " @ " + m["repeat"]["source"] for m in d["modules"] if m["id"] == "h.*"][0]')" \
	"c.n_layer @ model/gpt.py:GPTConfig:9" "the repeat names its expression and where the value was set"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$R/records" >"$T/schema.out" 2>&1
ok $? "both records validate against schemas/"
sed 's/^/# /' "$T/schema.out" | grep -v '^# ok' || true

# the job: read from its code (train.py above, by line)
is "$(json "$G" 'd["job_type"]["value"] + " " + " ".join(d["job_type"]["evidence"])')" \
	"training train.py:main:9 train.py:main:10" "job_type: training, on loss.backward() and opt.step()"
is "$(json "$G" 'd["entrypoint"]["anchor"] + " " + d["entrypoint"]["step"]')" \
	"train.py:<module>:12 train.py:main:7" "entrypoint: the __main__ guard, and the step loop"
is "$(json "$S" 'd["job_type"]["value"] + " " + d["entrypoint"]["step"]')" "training train.py:main:7" \
	"the schedule has the same header"

# --- --set overrides a configuration value, as the profiled run did
run_ecg extract --repo "$R" --entry train.py -q --set n_layer=6 --out "$T/o-set"
is "$(json "$T/o-set/computation_graph.json" '[(m["total_repeat"], m["repeat"]["source"]) for m in d["modules"] if m["id"] == "h.*"][0]')" \
	"(6, 'model/gpt.py:GPTConfig:9')" "--set n_layer=6: six blocks, the source still where the default is"
is "$(json "$T/o-set/computation_graph.json" '[c["via"] for c in d["config"] if c["name"] == "n_layer"]')" "[]" \
	"  (a repeat's count is not a constructor argument: config lists what the args used)"
run_ecg extract --repo "$R" --entry train.py -q --set bogus --out "$T/o-set2"
is "$rc" 2 "--set without = is a usage error"
run_ecg extract --repo "$R" --entry train.py -q --model GPT --out "$T/o-model"
is "$(json "$T/o-model/computation_graph.json" 'd["modules"][0]["class"]')" "GPT" "--model by class name"
run_ecg extract --repo "$R" --entry train.py -q --model Nope --out "$T/o-model2"
is "$rc" 3 "--model naming no model the job calls: exit 3"
grep -q "GPT" "$T/err"
ok $? "  and the message lists what it calls: $(cat "$T/err")"

# --- determinism: a second run is byte-identical
cp "$G" "$T/g1"; cp "$S" "$T/s1"
run_ecg extract --repo "$R" --entry train.py -q
cmp -s "$G" "$T/g1" && cmp -s "$S" "$T/s1"
ok $? "two runs give byte-identical records"

# --- the same with parsing in worker processes, whatever their number
for j in 2 5; do
	run_ecg extract --repo "$R" --entry train.py -q -j "$j" --out "$T/o-j$j"
	cmp -s "$T/o-j$j/computation_graph.json" "$T/g1" && cmp -s "$T/o-j$j/execution_schedule.json" "$T/s1"
	ok $? "-j $j gives byte-identical records"
done

# --- from a subdirectory; --entry relative to it or to the root
(cd "$R/model" && "$ECG" extract -q --entry ../train.py >"$T/out" 2>"$T/err"); rc=$?
is "$rc" 0 "extract from a subdirectory (--repo defaults to .)"
cmp -s "$G" "$T/g1"
ok $? "  gives the same record, still in records/ at the root"
run_ecg extract --repo "$R/model" --entry gpt.py -q --out "$T/o-sub"
is "$(json "$T/o-sub/computation_graph.json" 'd["entrypoint"]["file"]')" "model/gpt.py" \
	"--entry is relative to --repo when --repo is a subdirectory"

# --- another revision
run_ecg extract --repo "$R" --rev HEAD~1 -q --out "$T/o-first"
is "$(json "$T/o-first/computation_graph.json" 'd["commit"]')" "$first" "--rev HEAD~1"
is "$(json "$T/o-first/computation_graph.json" 'd["entrypoint"]')" "None" "no --entry: entrypoint is null"
want=$("$GIT" -C "$R" rev-parse HEAD~1:train.py)
is "$(json "$T/o-first/computation_graph.json" '[f["blob"] for f in d["files"] if f["path"]=="train.py"][0]')" \
	"$want" "  and the blob is the one at that revision"
run_ecg extract --repo "$R" --rev "$(echo "$first" | cut -c1-8)" -q --out "$T/o-short"
cmp -s "$T/o-short/computation_graph.json" "$T/o-first/computation_graph.json"
ok $? "a short sha names the same commit"

# --- a bare repository
"$GIT" clone -q --bare "$R" "$T/bare.git"
run_ecg extract --repo "$T/bare.git" -q --entry train.py --out "$T/o-bare"
is "$rc" 0 "a bare repository with --out"
cmp -s "$T/o-bare/computation_graph.json" "$T/g1"
ok $? "  gives the same record as the work tree"
run_ecg extract --repo "$T/bare.git" -q
is "$rc" 2 "a bare repository without --out is a usage error"
grep -q -- "--out" "$T/err"
ok $? "  and the message says to give --out"

# --- the work tree, dirty
echo "x = 1" >>"$R/model/gpt.py"
echo "y = 2" >"$R/extra.py"
run_ecg extract --repo "$R" --worktree -q --out "$T/o-wt"
is "$rc" 0 "--worktree"
is "$(json "$T/o-wt/computation_graph.json" 'd["dirty"]')" "True" "  dirty is set when the work tree differs"
is "$(json "$T/o-wt/computation_graph.json" 'd["commit"]')" "$head" "  commit is still HEAD"
want=$("$GIT" -C "$R" hash-object model/gpt.py)
is "$(json "$T/o-wt/computation_graph.json" '[f["blob"] for f in d["files"] if f["path"]=="model/gpt.py"][0]')" \
	"$want" "  the blob of a modified file is the sha of its bytes"
is "$(json "$T/o-wt/computation_graph.json" '[f["path"] for f in d["files"]].count("extra.py")')" 1 \
	"  an untracked file is read"
"$GIT" -C "$R" checkout -q -- model/gpt.py; rm -f "$R/extra.py"
rm -rf "$R/records"
run_ecg extract --repo "$R" --worktree -q --out "$T/o-wt2"
is "$(json "$T/o-wt2/computation_graph.json" 'd["dirty"]')" "False" "  a clean work tree is not dirty"
run_ecg extract --repo "$R" --worktree --rev HEAD -q
is "$rc" 2 "--worktree with --rev is a usage error"

# A model that is a torch.nn built-in called from job code (the DDP
# tutorials' nn.Linear); the loss module and an activation called the same
# way are not models.
L="$T/linear"
mkrepo "$L"
cat >"$L/train.py" <<'PY'
import torch
from torch import nn


def main():
    model = nn.Linear(20, 1).cuda()
    criterion = nn.MSELoss()
    act = nn.Sigmoid()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(8, 20, device="cuda")
        loss = criterion(act(model(x)), torch.zeros(8, 1, device="cuda"))
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$L" "linear"
run_ecg extract --repo "$L" --entry train.py -q --out "$T/o-lin"
is "$(json "$T/o-lin/computation_graph.json" '[(m["id"], m["kind"], m.get("class")) for m in d["modules"] if m["kind"] != "op"]')" \
	"[('', 'model', 'torch.nn.Linear')]" "an nn.Linear called by the job is the model; the loss and the activation are not"
is "$(json "$T/o-lin/computation_graph.json" '[m["op"] for m in d["modules"] if m["kind"] == "op"]')" \
	"['torch.nn.functional.linear']" "  with its op from the catalogue"

# nn.Sequential with one element ecg cannot know: the others keep their
# indices, nothing is grouped with the unknown one, and it is said.
cat >"$L/seq.py" <<'PY'
import torch
import torch.nn as nn
from somewhere_external import make_norm


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 8, 1), make_norm(8), nn.Conv2d(8, 8, 1))

    def forward(self, x):
        return self.down(x)


model = Net()
for _ in range(3):
    model(torch.randn(2, 3, 8, 8)).sum().backward()
PY
commit "$L" "seq"
run_ecg extract --repo "$L" --entry seq.py -q --out "$T/o-seq"
is "$(json "$T/o-seq/computation_graph.json" '[(m["id"], m.get("class")) for m in d["modules"] if m["kind"] != "op"]')" \
	"[('', 'Net'), ('down', 'torch.nn.Sequential'), ('down.0', 'torch.nn.Conv2d'), ('down.2', 'torch.nn.Conv2d')]" \
	"Sequential(conv, <unknown>, conv): down.0 and down.2, not a group claiming three Conv2d"
is "$(json "$T/o-seq/computation_graph.json" '[u["what"] for u in d["unresolved"]]')" \
	"['element 1 of nn.Sequential(nn.Conv2d(3, 8, 1), make_norm(8), nn.Conv2d(8, 8, 1))']" "  the unknown element is listed"

# An entry that builds no model: an empty modules list, and it is said.
printf 'import json\n\nprint(json.dumps({"ok": True}))\n' >"$L/prep.py"
commit "$L" "prep"
run_ecg extract --repo "$L" --entry prep.py -q --out "$T/o-prep"
is "$(json "$T/o-prep/computation_graph.json" '(d["modules"], [(u["anchor"], u["what"]) for u in d["unresolved"]])')" \
	"([], [('prep.py', 'which model the job runs')])" "no model found: the empty modules list is explained in unresolved"

done_testing
