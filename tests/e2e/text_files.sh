#!/bin/sh
# Text files of the job's tree read with open(): a darknet-style .cfg the
# model is built from (open(p).read().split('\n'), `for line in f`), read
# from the commit and listed in `files` with its blob; a change to it is a
# change check sees and refresh follows.  A file outside the tree, one that
# holds NUL bytes, or one the job reads a second time stays unknown.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
mkdir -p "$R/cfg"
cat >"$R/model.py" <<'PY'
import torch.nn as nn


def parse(path):
    defs = []
    for line in open(path, 'r').read().split('\n'):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if line.startswith('['):
            defs.append({'type': line[1:-1]})
        else:
            k, v = line.split('=')
            defs[-1][k.strip()] = v.strip()
    return defs


class Net(nn.Module):
    def __init__(self, path):
        super().__init__()
        self.layers = nn.ModuleList()
        for d in parse(path):
            s = nn.Sequential()
            s.add_module(f"fc_{len(self.layers)}", nn.Linear(int(d['width']), int(d['width'])))
            self.layers.append(s)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
PY
cat >"$R/train.py" <<'PY'
import argparse

import torch

from model import Net

p = argparse.ArgumentParser()
p.add_argument('--cfg', default='cfg/net.cfg')
args = p.parse_args()
model = Net(args.cfg)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(2, 8)).sum()
    loss.backward()
    opt.step()
PY
layers() {  # layers N: a cfg of N [linear] sections of width 8
	: >"$R/cfg/net.cfg"
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '[linear]\nwidth = 8\n\n' >>"$R/cfg/net.cfg"
		i=$((i + 1))
	done
}
layers 3
commit "$R" "a net of 3 layers from cfg/net.cfg"
G="$R/records/computation_graph.json"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract reads the job"
is "$(json "$G" "[m['id'] for m in d['modules'] if m['id'].startswith('layers.') and m['kind'] == 'container']")" \
	"['layers.0', 'layers.1', 'layers.2']" "the module list has one entry a section of the text file"
is "$(json "$G" "sorted(m['id'] for m in d['modules'] if m['id'].startswith('layers.') and m['kind'] == 'layer')")" \
	"['layers.0.fc_0', 'layers.1.fc_1', 'layers.2.fc_2']" "  each with its add_module name"
is "$(json "$G" "[f['path'] for f in d['files'] if f['path'].endswith('.cfg')]")" "['cfg/net.cfg']" \
	"the text file is listed in files"
is "$(json "$G" "[f['blob'] for f in d['files'] if f['path'] == 'cfg/net.cfg']")" \
	"['$("$GIT" -C "$R" rev-parse HEAD:cfg/net.cfg)']" "  with its blob at the commit"

# --- the cfg grows to 4 layers: check sees the file, refresh the count
layers 4
commit "$R" "4 layers"
run_ecg check --repo "$R" --json
is "$(json "$T/out" "[(f['path'], f['status']) for f in d['files'] if f['path'].endswith('.cfg')]")" \
	"[('cfg/net.cfg', 'changed')]" "check: the text file the model is built from has changed"
run_ecg refresh --repo "$R" -q
is "$(json "$G" "[m['id'] for m in d['modules'] if m['id'].startswith('layers.') and m['kind'] == 'container']")" \
	"['layers.0', 'layers.1', 'layers.2', 'layers.3']" \
	"refresh: the module list follows the file (4 sections)"

# --- a path outside the tree: unknown, with the reason, no count
run_ecg extract --repo "$R" --entry train.py -q -- --cfg cfg/other.cfg
is "$rc" 0 "a cfg not in the tree: extract goes on"
is "$(json "$G" "[(m['id'], m['repeat']['count']) for m in d['modules'] if m.get('repeat')]")" \
	"[('layers.*', None)]" "  the module list's length is not stated"
is "$(json "$G" "[u['reason'] for u in d['unresolved'] if 'other.cfg' in u['what']]")" \
	"['the file is not in the repository at this commit']" "  and the file is named in unresolved with the reason"

# --- a file with NUL bytes is no text
printf '[linear]\nwidth = 8\n\000\n' >"$R/cfg/bin.cfg"
commit "$R" "a binary cfg"
run_ecg extract --repo "$R" --entry train.py -q -- --cfg cfg/bin.cfg
is "$(json "$G" "[u['reason'] for u in d['unresolved'] if 'bin.cfg' in u['what']]")" \
	"['the file is not text (it holds NUL bytes)']" "a file holding NUL bytes is not read as text"

done_testing
