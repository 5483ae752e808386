#!/bin/sh
# ecg check and ecg refresh on git histories made on purpose (fixed dates):
# an edit above a symbol, a renamed method, a deleted layer, a config
# default from 12 to 24 layers, a moved file, a dirty work tree, a record
# edited by hand.  Each step asserts the report and the refreshed records,
# which must equal what extract writes at that commit (plus the hand-added
# fields).
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/model.py" <<'PY'
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    n_layer: int = 12
    dim: int = 32


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm = nn.LayerNorm(cfg.dim)
        self.fc = nn.Linear(cfg.dim, cfg.dim)
        self.act = nn.GELU()

    def forward(self, x):
        return x + self.act(self.fc(self.norm(x)))


class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.head = nn.Linear(cfg.dim, 10)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)
PY
cat >"$R/train.py" <<'PY'
import torch

from model import Config, Net


def main():
    model = Net(Config())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(8, 32)
        loss = model(x).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$R" "a small job"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract writes the records"
G="$R/records/computation_graph.json"
is "$(json "$G" "d['invocation']")" "{'entry': 'train.py', 'argv': [], 'set': [], 'config_values': None, 'model': None, 'machine': None, 'env': None}" \
	"the records say how extract was run (invocation)"

check_json() {  # `ecg check --json` into $T/check.json; $rc its status
	run_ecg check --repo "$R" --json
	cp "$T/out" "$T/check.json"
}
stale() {  # the non-fresh anchors as "status id field anchor -> new"
	json "$T/check.json" "sorted('%s %s %s %s -> %s' % (a['status'], a['id'], a['field'], a['anchor'], a['new_anchor']) for a in d['anchors'] if a['status'] != 'fresh')"
}
refreshed_equals_extract() {  # the refreshed records == extract at HEAD, but for hand-added fields
	run_ecg extract --repo "$R" --entry train.py -q --out "$T/fresh"
	"$TEST_PYTHON" -I -S - "$R/records" "$T/fresh" <<'PY'
import json, sys
for name in ("computation_graph.json", "execution_schedule.json"):
    a = json.load(open(sys.argv[1] + "/" + name))
    b = json.load(open(sys.argv[2] + "/" + name))
    a.pop("reviewed_by", None)
    # the pair's id hashes the texts, hand-added fields included
    a.pop("run", None)
    b.pop("run", None)
    for e in a.get("modules", []):
        e.pop("note", None)
    if a != b:
        sys.exit("%s differs from a fresh extract" % name)
PY
}

# --- nothing changed
run_ecg check --repo "$R"
is "$rc" 0 "check on the recorded commit: exit 0"
grep -q "^fresh: " "$T/out"
ok $? "  and says fresh"

# --- an edit above a symbol: everything below moves by two lines
sed -i '1i # a licence header\n#' "$R/model.py"
commit "$R" "edit above"
check_json
is "$(json "$T/check.json" "d['fresh']")" "False" "an edit above: stale"
is "$rc" 1 "  exit 1"
is "$(json "$T/check.json" "sorted({a['status'] for a in d['anchors'] if a['anchor'].startswith('model.py')})")" "['moved']" \
	"  every anchor in model.py moved, none changed"
is "$(json "$T/check.json" "[a['new_anchor'] for a in d['anchors'] if a['id'] == 'blocks.*' and a['field'] == 'code_anchor']")" \
	"['model.py:Block.forward:22']" "  Block.forward:20 -> Block.forward:22"
is "$(json "$T/check.json" "sorted({a['status'] for a in d['anchors'] if a['anchor'].startswith('train.py')})")" "['fresh']" \
	"  train.py's anchors are fresh (its blob did not change)"
run_ecg refresh --repo "$R" -q
is "$rc" 0 "refresh: exit 0"
grep -q "0 added, 0 removed (dropped), [0-9]* moved" "$T/out"
ok $? "  reports moves only: $(tail -1 "$T/out")"
grep -q "anchors relocated, the job not read again" "$T/out"
ok $? "  only code moved: the anchors are relocated without reading the job again"
refreshed_equals_extract
ok $? "  the refreshed records equal a fresh extract"
run_ecg check --repo "$R"
is "$rc" 0 "  and check is fresh again"

# --- a record edited by hand: extra fields survive a refresh
"$TEST_PYTHON" -I -S - "$G" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["reviewed_by"] = "alice"
for e in d["modules"]:
    if e["id"] == "blocks.*.fc":
        e["note"] = "40% of the step"
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
# --- a renamed method
sed -i 's/def forward(self, x):\n        return x + self.act/&/' "$R/model.py"
"$TEST_PYTHON" -I -S - "$R/model.py" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("        return x + self.act(self.fc(self.norm(x)))",
              "        return self.residual(x)\n\n    def residual(self, x):\n        return x + self.act(self.fc(self.norm(x)))")
open(p, "w").write(s)
PY
commit "$R" "rename"
check_json
is "$(json "$T/check.json" "sorted({a['status'] for a in d['anchors'] if a['id'].startswith('blocks.*') and a['field'] == 'code_anchor' and 'Block.forward' in a['anchor']})")" \
	"['changed']" "a method's body changed (forward now calls residual): its anchors are changed"
run_ecg refresh --repo "$R" --json
is "$rc" 0 "refresh after the change"
printf '%s' "$(sed -n '/^{/,$p' "$T/out")" >"$T/refresh.json"
is "$(json "$T/refresh.json" "d['read_again']")" "True" "  a body changed: the job is read again"
is "$(json "$T/refresh.json" "d['kept_fields']")" "['blocks.*.fc', '(computation_graph top level)']" \
	"  the hand-added fields are kept (an entry's note, a top-level key)"
is "$(json "$G" "([e.get('note') for e in d['modules'] if e['id'] == 'blocks.*.fc'], d.get('reviewed_by'))")" \
	"(['40% of the step'], 'alice')" "  and are in the refreshed record"
is "$(json "$G" "[e['function'] for e in d['modules'] if e.get('function')]")" "['Block.residual']" \
	"  the new helper is an entry of its own"
refreshed_equals_extract
ok $? "  the refreshed records equal a fresh extract but for those fields"

# --- a renamed method: the old name is gone, the new one is there
sed -i 's/self\.residual(x)/self.branch(x)/; s/def residual(self, x):/def branch(self, x):/' "$R/model.py"
commit "$R" "rename residual -> branch"
check_json
is "$(json "$T/check.json" "sorted(set('%s %s' % (a['status'], a['anchor'].split(':')[1]) for a in d['anchors'] if 'Block.residual' in a['anchor']))")" \
	"['gone Block.residual']" "a renamed method: anchors into the old name are gone"
run_ecg refresh --repo "$R" --json
printf '%s' "$(sed -n '/^{/,$p' "$T/out")" >"$T/refresh.json"
is "$(json "$G" "[e['function'] for e in d['modules'] if e.get('function')]")" "['Block.branch']" \
	"  refresh: the function entry is the new name"
refreshed_equals_extract
ok $? "  the refreshed records equal a fresh extract but for the hand-added fields"

# --- a deleted layer
"$TEST_PYTHON" -I -S - "$R/model.py" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("        self.act = nn.GELU()\n", "").replace("x + self.act(self.fc(", "x + (self.fc(")
open(p, "w").write(s)
PY
commit "$R" "drop the activation"
run_ecg refresh --repo "$R" --json
printf '%s' "$(sed -n '/^{/,$p' "$T/out")" >"$T/refresh.json"
is "$(json "$T/refresh.json" "d['removed']")" "['blocks.*.act', 'blocks.*.act#1']" "a deleted layer: refresh drops it and lists it"
refreshed_equals_extract
ok $? "  the refreshed records equal a fresh extract"

# --- a config default from 12 to 24 layers: the repeat changes
sed -i 's/    n_layer: int = 12/    n_layer: int = 24/' "$R/model.py"
commit "$R" "24 layers"
check_json
is "$(json "$T/check.json" "sorted('%s %s' % (a['status'], a['anchor']) for a in d['anchors'] if a['field'] == 'repeat.source')")" \
	"['changed model.py:Config:11']" "a default from 12 to 24: the repeat's source is changed"
is "$(json "$T/check.json" "[(c['name'], c['value'], c['new_value_text']) for c in d['config']]")" \
	"[('cfg.n_layer', 12, '24')]" "  and the config value is reported with its new value"
run_ecg refresh --repo "$R" --json
printf '%s' "$(sed -n '/^{/,$p' "$T/out")" >"$T/refresh.json"
is "$(json "$T/refresh.json" "[(r['id'], r['from'], r['to']) for r in d['repeat_changed']][:1]")" "[('blocks.*', 12, 24)]" \
	"  refresh: the repeat count goes from 12 to 24"
is "$(json "$G" "[e['repeat']['count'] for e in d['modules'] if e['id'] == 'blocks.*']")" "[24]" "  and the record says 24"

# --- a file moved
"$GIT" -C "$R" mv model.py net.py
sed -i 's/from model import/from net import/' "$R/train.py"
commit "$R" "model.py -> net.py"
check_json
is "$(json "$T/check.json" "[(f['path'], f['status'], f.get('new_path')) for f in d['files']]")" \
	"[('model.py', 'moved', 'net.py'), ('train.py', 'changed', None)]" "a moved file is found by its blob"
is "$(json "$T/check.json" "[a['new_anchor'] for a in d['anchors'] if a['id'] == 'blocks.*' and a['field'] == 'code_anchor']")" \
	"['net.py:Block.forward:21']" "  its anchors move with it"
run_ecg refresh --repo "$R" -q
refreshed_equals_extract
ok $? "  refresh: the records equal a fresh extract"

# --- a dirty work tree
printf '\n# a local edit\n' >>"$R/train.py"
run_ecg check --repo "$R"
is "$rc" 0 "a dirty work tree does not change what HEAD holds: check against HEAD is fresh"
run_ecg check --repo "$R" --worktree --json
printf '%s' "$(cat "$T/out")" >"$T/check.json"
is "$(json "$T/check.json" "(d['worktree'], [(f['path'], f['status']) for f in d['files']])")" \
	"(True, [('net.py', 'unchanged'), ('train.py', 'changed')])" "--worktree: the edited file is changed"
is "$(json "$T/check.json" "d['fresh']")" "True" "  an edit below every anchor keeps them fresh"

# --- errors
run_ecg check --repo "$R" --out "$T/nowhere"
is "$rc" 2 "no records: exit 2 (any error is 2 for check)"
grep -q "no records in" "$T/err"
ok $? "  message: $(cat "$T/err")"

done_testing
