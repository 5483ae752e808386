#!/bin/sh
# ecg show: the records as a person reads them -- the module tree as a
# table, the costliest layers, the schedule -- in a pipe (no colour), within
# 80 columns, with '?' (never 0) where something is not known.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cp "$top_srcdir/examples/minigpt/model.py" "$top_srcdir/examples/minigpt/data.py" \
	"$top_srcdir/examples/minigpt/train.py" "$R/"
chmod -R u+w "$R"
commit "$R" "the example job"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract the example job"

run_ecg show --records "$R/records"
is "$rc" 0 "show: exit 0"
cp "$T/out" "$T/tree"
is "$(head -1 "$T/tree" | tr -s ' ')" "module class rep total params out shape anchor" "the table's header"
grep -q '^    \*  *Block  *x6  *6  *3\.1M \[b,t,512\]  *model\.py:[0-9]*$' "$T/tree"
ok $? "a repeated unit is one line with its count, total, parameters, shape and anchor"
is "$(grep -c 'Linear' "$T/tree")" 5 "  the layers inside it are shown once"
grep -q '^(model)  *MiniGPT  *1  *23\.2M ' "$T/tree"
ok $? "the model's parameter count counts the tied weight once: 23.2M (PyTorch: 23,206,400)"
ok "$(awk 'length($0) > 80' "$T/tree" | wc -l | tr -d ' ')" "every line fits 80 columns"
grep -q "$(printf '\033')" "$T/tree"
ok $((! $?)) "no colour in a pipe"

run_ecg show --records "$R/records" --depth 1
is "$(sed 1d "$T/out" | wc -l | tr -d ' ')" 7 "--depth 1: the model and its 6 children"
run_ecg show --records "$R/records" --width 160
awk 'length($0) > 80' "$T/out" | grep -q "model.py:MiniGPT.forward:"
ok $? "--width 160: anchors in full"

run_ecg show --records "$R/records" --top 3
is "$rc" 0 "--top 3: exit 0"
is "$(sed -n '2,4p' "$T/out" | awk '{print $2}' | tr '\n' ' ')" "blocks.*.mlp.fc blocks.*.mlp.out blocks.*.attn.qkv " \
	"  the three heaviest layers by parameters x total_repeat"
grep -q '^   1 blocks.\*.mlp.fc  *1.0M  *6  *12.6M\*b\*t  *27.3% flops  *model.py:75$' "$T/out"
ok $? "  ranked by FLOPs x total_repeat, kept in the shapes' symbols (b*t), with their share and BY flops"
grep -q "^model: FLOPs per call not known" "$T/out"
ok $? "  and the model's FLOPs are said to be unknown (attention's b*t*t), not 0"
run_ecg show --records "$R/records" --top 12 --width 200
grep -q '^   4 lm_head  *4.2M  *1  *8.4M\*b\*t  *8.4M\*b\*t  *18.2% flops ' "$T/out"
ok $? "  the largest matmul (lm_head, its weight tied to wte) is in --top, by its FLOPs"
grep -q '^   6 blocks.\*.attn.attn_drop .* ? params ' "$T/out"
ok $? "  a layer whose FLOPs are in other symbols (b*t*t) is ranked after, by parameters, and says so"
is "$(sed -n '8,12p' "$T/out" | awk '{print $2}' | tr '\n' ' ')" "blocks.*.mlp.act blocks.*.attn.resid_drop drop wpe wte " \
	"  the layers under 1% of the FLOPs ranked come after it: a cost known to be small after one not known"
grep -q '^small: 5 rows under 1% ' "$T/out"
ok $? "  and a line says so"
grep -q '^by params: 1 rows' "$T/out"
ok $? "  and a line says how many rows are ranked by parameters"

run_ecg show --records "$R/records" --schedule --width 200
is "$rc" 0 "--schedule: exit 0"
sed -n '/^sync points/,/^collectives/p' "$T/out" | sed '1d;$d' | awk '{print $NF}' >"$T/order"
is "$(head -1 "$T/order")" "train.py:main:70" "  the copy made every micro-step comes first"
is "$(tail -1 "$T/order")" "train.py:main:53" "  the one made once comes last"
grep -q "^  data:" "$T/out"
ok $? "  collectives grouped by parallelism"

# A vocabulary read from a file at run time: the head's out_features is not
# known, its FLOPs keep it as the symbol of the layer's own argument, the
# head (tied) is in --top, ranked by parameters ahead of the known small
# dropout; at a narrow width the long count is cut at a symbol, never a number.
V="$T/vocab"
mkrepo "$V"
cat >"$V/train.py" <<'EOF'
import os
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, 64)
        self.fc = nn.Linear(64, 64)
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(64, vocab_size, bias=False)
        self.wte.weight = self.head.weight

    def forward(self, idx):
        b, t = idx.size()
        x = self.wte(idx)
        x = self.drop(self.fc(x))
        return self.head(x)


meta_vocab_size = None
if os.path.exists('data/meta.txt'):
    meta_vocab_size = int(open('data/meta.txt').read())
model = Net(meta_vocab_size if meta_vocab_size is not None else 50304)
for step in range(10):
    idx = torch.randint(100, (8, 16))
    out = model(idx)
    out.sum().backward()
EOF
commit "$V" "a vocabulary read at run time"
run_ecg extract --repo "$V" --entry train.py -q
is "$rc" 0 "extract a job whose vocabulary is read at run time"
run_ecg show --records "$V/records" --top 5 --width 200
is "$(sed -n '2,4p' "$T/out" | awk '{print $2}' | tr '\n' ' ')" "fc head drop " \
	"  --top: the head (tied, out_features not known) before the dropout (0.8% of the FLOPs ranked)"
grep -q '^   2 head  *?  *1 16.4K\*head.out_features  *16.4K\*head.out_features  *? params ' "$T/out"
ok $? "  its FLOPs keep the unknown out_features as the symbol head.out_features"
run_ecg show --records "$V/records" --top 5 --json
python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1]))["rows"] if x["id"]=="head"][0]; sys.exit(0 if r["flops_symbols"]=="head.out_features" and r["flops_per_call"]==16384 and r["ranked_by"]=="params" else 1)' "$T/out"
ok $? "  --json: flops_per_call 16384, flops_symbols head.out_features, ranked_by params"
run_ecg show --records "$V/records" --top 5 --width 60
ok "$(awk 'length($0) > 60' "$T/out" | wc -l | tr -d ' ')" "  width 60: every line fits"
grep -q '^   2 head .* 16.4K\*\.\.\. ' "$T/out" && grep -q "^flops: a count ending in '...'" "$T/out"
ok $? "  a count too long is cut at a symbol ('16.4K*...'), and a line says so"
# --dim: a value the records do not hold, given by the person; the counts
# then rank as numbers, and a line says where the value came from
run_ecg show --records "$V/records" --top 5 --width 200 --dim head.out_features=100
grep -q '^   1 head  *?  *1  *1.6M  *1.6M .* flops ' "$T/out" && grep -q '^dims: from --dim, not the records: head.out_features=100$' "$T/out"
ok $? "--dim head.out_features=100: the head's 16.4K*100 FLOPs rank first, by FLOPs, and a line names the value given"
run_ecg show --records "$V/records" --top 5 --dim head.out_features
is "$rc" 2 "--dim without =N: exit 2"
run_ecg show --records "$V/records" --top 5 --dim t=-3
is "$rc" 2 "--dim with a value not a positive number: exit 2"

# a model's FLOPs are a sum only of parts that surely run: one under a
# condition not decided (flash or not) makes the sum not known; a library's
# model whose subtree the records do not list is not known either, never 0
C="$T/cond"
mkrepo "$C"
cat >"$C/train.py" <<'EOF'
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 64)
        self.flash = hasattr(F, 'scaled_dot_product_attention')

    def forward(self, x):
        x = self.fc1(x)
        if self.flash:
            x = self.fc2(x)
        return x


model = Net()
for step in range(10):
    out = model(torch.randn(8, 64))
    out.sum().backward()
EOF
commit "$C" "a layer under a condition not decided"
run_ecg extract --repo "$C" --entry train.py -q
run_ecg show --records "$C/records" --top 5 --width 200
grep -q '^   2 fc2 .* ? .* 66.0K .* ? .* params ' "$T/out" && grep -q '^model: FLOPs per call not known' "$T/out"
ok $? "a layer under 'if self.flash' (not decided) is ranked by parameters (its count null: it runs or it does not), the model's sum is not known"
L="$T/lib"
mkrepo "$L"
cat >"$L/train.py" <<'EOF'
import torch
import torchvision

model = torchvision.models.resnet18()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    out = model(torch.randn(8, 3, 224, 224))
    out.sum().backward()
    opt.step()
EOF
commit "$L" "a library's model"
run_ecg extract --repo "$L" --entry train.py -q
run_ecg show --records "$L/records" --top 5 --width 200
grep -q '^model: FLOPs per call not known' "$T/out"
ok $? "a library's model whose subtree is not listed: its FLOPs are not known (not 0)"

run_ecg show --records "$T/nowhere"
is "$rc" 3 "no records: exit 3"
run_ecg show --top 0
is "$rc" 2 "--top 0: exit 2"

done_testing
