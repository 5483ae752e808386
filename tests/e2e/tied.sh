#!/bin/sh
# A tied weight (wte.weight = lm_head.weight) is counted once in the
# parameter totals, as sum(p.numel() for p in m.parameters()) counts it
# (the truth recorded under PyTorch, tests/fixtures/*/truth.json), and the
# layer that took the other's weight says so: "tied": {"weight": "<the
# holder's id>.weight"}.  A tie under an undecided `if` leaves the totals
# null: a wrong count is worse than none.  (issue 19)
. "$top_srcdir/tests/lib.sh"

truth_params() {  # truth.json, module id
	"$TEST_PYTHON" -c 'import json,sys; t=json.load(open(sys.argv[1])); print([m["params"] for m in t["models"][0]["modules"] if m["id"] == sys.argv[2]][0])' "$1" "$2"
}
params() {  # records dir, id
	json "$1/computation_graph.json" "[m.get('params') for m in d['modules'] if m['id'] == '$2'][0]"
}

for f in gpt_dataclass gpt_configurator; do
	R="$T/$f"
	mkrepo "$R"
	cp -r "$top_srcdir/tests/fixtures/$f/." "$R/"
	chmod -R u+w "$R"
	rm -f "$R/truth.json" "$R/fixture.json"
	commit "$R" "$f"
	args=$("$TEST_PYTHON" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["argv"]))' "$top_srcdir/tests/fixtures/$f/fixture.json")
	run_ecg extract --repo "$R" --entry train.py -q -- $args
	is "$rc" 0 "$f: extract"
	TR="$top_srcdir/tests/fixtures/$f/truth.json"
	is "$(params "$R/records" "")" "$(truth_params "$TR" "")" "  the model's parameters count the tied weight once (PyTorch's count)"
done
is "$(params "$T/gpt_dataclass/records" transformer)" "$(truth_params "$top_srcdir/tests/fixtures/gpt_dataclass/truth.json" transformer)" \
	"  gpt_dataclass: transformer holds wte, the tie's other side is outside it: its weight counted there"
is "$(json "$T/gpt_dataclass/records/computation_graph.json" "[m.get('tied') for m in d['modules'] if m['id'] == 'transformer.wte'][0]")" \
	"{'weight': 'lm_head.weight'}" "  gpt_dataclass: transformer.wte says its weight is lm_head.weight"
is "$(json "$T/gpt_configurator/records/computation_graph.json" "[m.get('tied') for m in d['modules'] if m['id'] == 'head'][0]")" \
	"{'weight': 'tok_emb.weight'}" "  gpt_configurator: head says its weight is tok_emb.weight"
is "$(json "$T/gpt_dataclass/records/computation_graph.json" "[m['id'] for m in d['modules'] if 'tied' in m]")" \
	"['transformer.wte']" "  only the layer that took another's weight carries the field"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/gpt_dataclass/records" >"$T/schema.out" 2>&1
ok $? "  the records validate against schemas/"

# a tie under an undecided if: no total, and the other side not named
R="$T/undecided"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import os
import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.head = nn.Linear(16, 100, bias=False)
        if os.environ.get("TIE"):
            self.head.weight = self.emb.weight

    def forward(self, x):
        return self.head(self.emb(x))


model = LM()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.zeros(2, 8, dtype=torch.long)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "undecided tie"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "undecided tie: extract"
is "$(params "$R/records" "") $(params "$R/records" head) $(params "$R/records" emb)" "None 1600 1600" \
	"  the model's total is null (3200 or 1600), each layer's own count stays"
is "$(json "$R/records/computation_graph.json" "[m.get('tied') for m in d['modules'] if m['id'] == 'head'][0]")" \
	"{'weight': None}" "  head: tied, the other side not known"

done_testing
