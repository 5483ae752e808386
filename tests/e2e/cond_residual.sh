#!/bin/sh
# The condition of an `and`/`or` test as far as the run leaves it
# undecided (interp/residual.c): `if opt.accel and
# torch.accelerator.is_available():` run with --accel holds exactly when
# the machine has an accelerator, so its rows carry
# "torch.accelerator.is_available()", not the whole test; a later operand
# the command line decides (`and not args.no_cuda`) is left out of a test
# too; run without --accel the test is decided and nothing is a copy.
. "$top_srcdir/tests/lib.sh"

# job DIR [ARG ...]: commit DIR/train.py (from stdin), extract it with ARGs
job() {
	d=$1
	shift
	mkrepo "$T/$d"
	cat >"$T/$d/train.py"
	commit "$T/$d" "job"
	run_ecg extract --repo "$T/$d" --entry train.py --out "$T/$d/o" -q --no-env -- "$@"
	is "$rc" 0 "$d: extract exits 0"
}
# conds DIR: the distinct conditions of DIR's host-device rows, sorted
conds() { json "$T/$1/o/execution_schedule.json" "sorted({str(h['condition']) for h in d['host_device']})"; }
nrows() { json "$T/$1/o/execution_schedule.json" "len(d['host_device'])"; }

ACCEL='import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--accel", action="store_true")
opt = parser.parse_args()
if opt.accel and torch.accelerator.is_available():
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")
model = torch.nn.Linear(4, 4).to(device)
opt_ = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    loss.backward()
    opt_.step()
    print(loss.item())'

job accel --accel <<PY
$ACCEL
PY
is "$(nrows accel)" 3 "accel: the model's move, the batch's copy, the read"
is "$(conds accel)" "['torch.accelerator.is_available()']" \
	"accel: --accel given, the rows hold when the machine has an accelerator (opt.accel is no condition)"

job noaccel <<PY
$ACCEL
PY
is "$(nrows noaccel)" 0 "noaccel: without --accel the job runs on the host: no copy, no read"

job trailing <<'PY'
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()
device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(conds trailing)" "['torch.cuda.is_available()']" \
	"trailing: \`and not args.no_cuda\` decided true by the command line is no part of the condition"

job either <<'PY'
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--cpu", action="store_true")
args = parser.parse_args()
if args.cpu or not torch.cuda.is_available():
    device = "cpu"
else:
    device = "cuda"
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(conds either)" "['torch.cuda.is_available()']" \
	"either: \`args.cpu or\` decided false leaves the machine's answer (the GPU on the else path: not (not X) is X)"

job grouped <<'PY'
import torch
use_gpu = True
if use_gpu and (torch.cuda.is_available() or torch.backends.mps.is_available()):
    device = "cuda"
else:
    device = "cpu"
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(conds grouped)" "['(torch.cuda.is_available() or torch.backends.mps.is_available())']" \
	"grouped: the undecided operand keeps its parentheses"

done_testing
