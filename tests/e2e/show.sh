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
grep -q '^  11 blocks.\*.attn.attn_drop .* ? params ' "$T/out"
ok $? "  a layer whose FLOPs are in other symbols (b*t*t) is ranked after, by parameters, and says so"
grep -q '^by params: 1 rows' "$T/out"
ok $? "  and a line says how many rows are ranked by parameters"

run_ecg show --records "$R/records" --schedule --width 200
is "$rc" 0 "--schedule: exit 0"
sed -n '/^sync points/,/^collectives/p' "$T/out" | sed '1d;$d' | awk '{print $NF}' >"$T/order"
is "$(head -1 "$T/order")" "train.py:main:70" "  the copy made every micro-step comes first"
is "$(tail -1 "$T/order")" "train.py:main:53" "  the one made once comes last"
grep -q "^  data:" "$T/out"
ok $? "  collectives grouped by parallelism"

run_ecg show --records "$T/nowhere"
is "$rc" 3 "no records: exit 3"
run_ecg show --top 0
is "$rc" 2 "--top 0: exit 2"

done_testing
