#!/bin/sh
# ecg show --top ranks by FLOPs as numbers where the job pins its batch
# shape: a nanoGPT-style get_batch() (np.memmap of the token file, windows
# data[i:i+block_size] at starts drawn by torch.randint, torch.stack) gives
# the model's input [batch_size, block_size] from the config values the job
# holds -- after a config file of the repository and --key=value arguments
# read by an exec()'d configurator -- and a config file ecg cannot read
# leaves them symbols (b*t), never the defaults.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
mkdir -p "$R/config"
cat >"$R/train.py" <<'EOF'
import os
import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

batch_size = 4
block_size = 32
n_embd = 64
vocab_size = 1024
exec(open('configurator.py').read())


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(n_embd, 4 * n_embd)
        self.proj = nn.Linear(4 * n_embd, n_embd)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return x + self.dropout(self.proj(F.gelu(self.fc(x))))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.h = nn.ModuleList([Block() for _ in range(2)])
        self.drop = nn.Dropout(0.1)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx, targets):
        b, t = idx.size()
        x = self.drop(self.wte(idx))
        for block in self.h:
            x = block(x)
        logits = self.lm_head(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


def get_batch(split):
    data = np.memmap(os.path.join('data', split + '.bin'), dtype=np.uint16, mode='r')
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])
    return x, y


model = GPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for it in range(100):
    X, Y = get_batch('train')
    logits, loss = model(X, Y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
EOF
cat >"$R/configurator.py" <<'EOF'
import sys
from ast import literal_eval
for arg in sys.argv[1:]:
    if '=' not in arg:
        assert not arg.startswith('--')
        config_file = arg
        exec(open(config_file).read())
    else:
        assert arg.startswith('--')
        key, val = arg.split('=')
        key = key[2:]
        if key in globals():
            try:
                attempt = literal_eval(val)
            except (SyntaxError, ValueError):
                attempt = val
            assert type(attempt) == type(globals()[key])
            globals()[key] = attempt
        else:
            raise ValueError(f"Unknown config key: {key}")
EOF
printf 'block_size = 16\n' >"$R/config/short.py"
commit "$R" "a job whose batch shape its config pins"

shapes() {  # shapes ID: the entry's shapes in the records of $T/rec, as JSON
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps([m.get("shapes") for m in d["modules"] if m["id"]==sys.argv[2]][0], separators=(",", ":")))' \
		"$T/rec/computation_graph.json" "$1"
}

run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q
is "$rc" 0 "extract the job"
is "$(shapes '')" '{"in":[[4,32],[4,32]],"out":[[4,32,1024],[]]}' \
	"the model's inputs are [batch_size, block_size] = [4, 32]: the stacked windows of the token file"
is "$(shapes lm_head)" '{"in":[[4,32,64]],"out":[[4,32,1024]]}' "  and so are its layers' shapes (lm_head)"
run_ecg show --records "$T/rec" --top 10 --width 120
is "$rc" 0 "show --top: exit 0"
is "$(sed -n '2,6p' "$T/out" | awk '{print $2}' | tr '\n' ' ')" "lm_head h.*.fc h.*.proj h.*.dropout drop " \
	"  ranked by FLOPs x total_repeat: the tied lm_head's matmul first, dropout last"
grep -q '^   1 lm_head  *65.5K  *1  *16.8M  *16.8M  *49.8% flops ' "$T/out"
ok $? "  lm_head (weight tied to wte): 2*4*32*64*1024 = 16.8M FLOPs, as a number"
grep -q '^   2 h.\*.fc  *16.6K  *2  *4.2M  *8.5M .* flops ' "$T/out"
ok $? "  h.*.fc: 4.2M per call x 2 blocks"
grep -q 'b\*t' "$T/out"
ok $((! $?)) "  no count is left in the symbols b*t"
grep -q '^model: 33.7M FLOPs per call' "$T/out"
ok $? "  the model's FLOPs per call are a number"

run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q -- --batch_size=8
is "$(shapes '')" '{"in":[[8,32],[8,32]],"out":[[8,32,1024],[]]}' "--batch_size=8 (the configurator's globals()[key]): [8, 32]"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q -- config/short.py --batch_size=2
is "$(shapes '')" '{"in":[[2,16],[2,16]],"out":[[2,16,1024],[]]}' "config/short.py then --batch_size=2: [2, 16]"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q -- /home/someone/my_config.py
is "$(shapes '')" '{"in":[["b","t"],null],"out":[null,[]]}' \
	"a config file outside the repository (not read): the batch shape stays symbols, not the defaults"
run_ecg show --records "$T/rec" --top 10 --width 120
grep -q '^   [0-9] lm_head  *?  *1  *?  *?  *? params ' "$T/out"
ok $? "  and --top states no count for lm_head (n_embd, vocab_size may be set there too)"

# a window whose start is a Python int (chunks of a loop: the last may be
# shorter) does not pin the length
sed -i 's/for i in ix\])/for i in range(0, 100, block_size)])/' "$R/train.py"
commit "$R" "windows at Python-int starts"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q
is "$(shapes '' | cut -c1-20)" '{"in":[[4,"t"],[4,nu' "windows at Python-int starts: 4 of them (range(0, 100, 32)), no length stated"

# one window of block_size + 1 tokens per start, cut into inputs and
# targets (x = chunk[:, :-1]): the window's bounds cancel to block_size + 1
python3 - "$R/train.py" <<'PYEOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"    x = torch.stack\(.*\n    y = torch.stack\(.*\n",
           "    chunk = torch.stack([torch.from_numpy((data[i:i + block_size + 1]).astype(np.int64)) for i in ix])\n"
           "    x, y = chunk[:, :-1], chunk[:, 1:]\n", s)
open(p, "w").write(s)
PYEOF
grep -q 'x, y = chunk' "$R/train.py"
ok $? "  (the job now cuts one window of block_size + 1 tokens)"
commit "$R" "one window of block_size + 1 tokens per start"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q
is "$(shapes '')" '{"in":[[4,32],[4,32]],"out":[[4,32,1024],[]]}' \
	"windows data[i:i + block_size + 1] cut into chunk[:, :-1], chunk[:, 1:]: [4, 32]"
run_ecg show --records "$T/rec" --top 10 --width 120
grep -q '^model: 33.7M FLOPs per call' "$T/out"
ok $? "  the model's FLOPs per call are a number again"

# the starts drawn by numpy and the windows stacked by numpy: the same shape
python3 - "$R/train.py" <<'PYEOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"    ix = torch.randint\(.*\n    chunk = torch.stack\(.*\n",
           "    ix = np.random.randint(len(data) - block_size - 1, size=(batch_size,))\n"
           "    chunk = torch.from_numpy(np.stack([data[i:i + block_size + 1].astype(np.int64) for i in ix]))\n", s)
open(p, "w").write(s)
PYEOF
grep -q 'np.stack' "$R/train.py"
ok $? "  (the job now draws its starts and stacks its windows with numpy)"
commit "$R" "numpy draws and stacks"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q
is "$(shapes '')" '{"in":[[4,32],[4,32]],"out":[[4,32,1024],[]]}' \
	"np.random.randint starts, np.stack of the windows, torch.from_numpy: [4, 32]"
run_ecg extract --repo "$R" --entry train.py --out "$T/rec" -q -- /home/someone/my_config.py
is "$(shapes '')" '{"in":[["b","t"],[null,null]],"out":[null,[]]}' \
	"  and a config file ecg cannot read leaves the symbols: no size stated (the stacked targets' rank only)"

done_testing
