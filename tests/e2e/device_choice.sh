#!/bin/sh
# A device the job chooses at run time (interp/devchoice.c): `"cuda" if
# torch.cuda.is_available() else "cpu"`, a helper's two returns, an
# if/else on `use_accel`, cuda/mps/cpu in turn.  With no GPU such a job
# runs on the host, where nothing is copied or read off a device: every
# host-device row carries the choice's condition, first.  A job that needs
# a GPU whatever the machine (torch.cuda.set_device, an NCCL group, a
# `.cuda()` on a path it always takes) states its rows with no condition;
# so does one whose only choice is not a question to the machine
# (`"cpu" if device.type == "mps" else device`), and x.device of a device
# tensor is no GPU the job names.
. "$top_srcdir/tests/lib.sh"

# job DIR: commit DIR/train.py (from stdin) and extract it into DIR/o
job() {
	mkrepo "$T/$1"
	cat >"$T/$1/train.py"
	commit "$T/$1" "job"
	run_ecg extract --repo "$T/$1" --entry train.py --out "$T/$1/o" -q --no-env
	is "$rc" 0 "$1: extract exits 0"
}
# conds DIR: the distinct conditions of DIR's host-device rows, sorted
conds() { json "$T/$1/o/execution_schedule.json" "sorted({str(h['condition']) for h in d['host_device']})"; }
nrows() { json "$T/$1/o/execution_schedule.json" "len(d['host_device'])"; }

job ifexp <<'PY'
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    loss.backward()
    opt.step()
    print(loss.item())
PY
is "$(nrows ifexp)" 3 "ifexp: the model's move, the batch's copy, the read"
is "$(conds ifexp)" "['torch.cuda.is_available()']" "ifexp: every row under the machine's answer"

# cuda, then mps, then the host, as one nested conditional expression of
# torch.device objects (huggingface/nanoVLM's train.py); the mps test
# guarded by hasattr: still a question to the machine
job ifexp_threeway <<'PY'
import torch
device = (
    torch.device("cuda") if torch.cuda.is_available()
    else torch.device("mps") if hasattr(torch.backends, "mps") and torch.backends.mps.is_available()
    else torch.device("cpu")
)
model = torch.nn.Linear(4, 4)
model.to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    loss.backward()
    opt.step()
    print(loss.item())
PY
is "$(nrows ifexp_threeway)" 3 "ifexp_threeway: the model's move, the batch's copy, the read"
is "$(conds ifexp_threeway)" "['torch.cuda.is_available() or (hasattr(torch.backends, \"mps\") and torch.backends.mps.is_available())']" \
	"ifexp_threeway: every row under cuda's or mps's answer"

# the conditional expression's arms are torch.device objects, not specs,
# and the choice is made again in a constructor whose device argument is
# left None (ermongroup/ddim's main.py and runners/diffusion.py)
job ifexp_devices <<'PY'
import torch


class Runner:
    def __init__(self, device=None):
        if device is None:
            device = (
                torch.device("cuda")
                if torch.cuda.is_available()
                else torch.device("cpu")
            )
        self.device = device
        self.betas = torch.linspace(0.0001, 0.02, 1000).to(self.device)

    def train(self):
        model = torch.nn.Linear(4, 4).to(self.device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(10):
            x = torch.randn(8, 4).to(self.device)
            loss = model(x).sum() * self.betas[i]
            loss.backward()
            opt.step()
            print(loss.item())


device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
Runner().train()
PY
is "$(nrows ifexp_devices)" 4 "ifexp_devices: the schedule's move, the model's, the batch's copy, the read"
is "$(conds ifexp_devices)" "['torch.cuda.is_available()']" \
	"ifexp_devices: torch.device(...) if torch.cuda.is_available() else torch.device('cpu') chooses as the spec form does"

job helper <<'PY'
import torch


def dev():
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def main():
    model = torch.nn.Linear(4, 4).to(dev())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(10):
        x = torch.randn(8, 4, device=dev())
        loss = model(x).sum()
        loss.backward()
        opt.step()
        if i % 5 == 0:
            print(loss.item())


main()
PY
is "$(conds helper)" "['torch.cuda.is_available()', 'torch.cuda.is_available() and i % 5 == 0']" \
	"helper: a helper's two returns choose; the row's own condition follows the choice's"

job accel <<'PY'
import argparse
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--no-accel", action="store_true")
args = parser.parse_args()
use_accel = not args.no_accel and torch.accelerator.is_available()
if use_accel:
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")
model = torch.nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    loss.backward()
    opt.step()
    print(loss.item())
PY
is "$(conds accel)" "['use_accel']" "accel: the accelerator on one path, the host on the other"

job threeway <<'PY'
import torch
if torch.cuda.is_available():
    device = torch.device("cuda")
elif torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(conds threeway)" "['torch.cuda.is_available() or torch.backends.mps.is_available()']" \
	"threeway: a device on two paths, the host on the third"

job sure <<'PY'
import torch
torch.cuda.set_device(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(nrows sure)" 3 "sure: the same rows"
is "$(conds sure)" "['None']" "sure: torch.cuda.set_device fails with no GPU, so the rows hold in every run"

job cudacall <<'PY'
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 4).cuda()
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(conds cudacall)" "['None']" "cudacall: model.cuda() on the job's path needs a GPU"

job lookalike <<'PY'
import torch


def noise(shape, device):
    rand_device = "cpu" if device.type == "mps" else device
    return torch.randn(shape, device=rand_device).to(device)


device = torch.device(open("device.txt").read().strip())
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = noise((8, 4), device)
    print(model(x).sum().item())
PY
is "$(nrows lookalike)" 2 "lookalike: the model's move and the read"
is "$(conds lookalike)" "['None']" \
	"lookalike: a choice by device.type is no question to the machine: no condition of it"

job tensordev <<'PY'
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    t = torch.zeros(1, device=x.device)
    print((model(x).sum() + t).item())
PY
is "$(conds tensordev)" "['torch.cuda.is_available()']" \
	"tensordev: device=x.device of a device tensor is where the data is, not a GPU the job names"

# a GPU named only under the machine's answer (HobbitLong/SupContrast's
# `if torch.cuda.is_available(): model = model.cuda()`): the model reaches
# the device only then, so do its outputs and the loss read off them --
# every row under that answer, the copies in the `if` too (once)
job ifcuda <<'PY'
import torch
model = torch.nn.Linear(4, 4)
if torch.cuda.is_available():
    model = model.cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    x = torch.randn(8, 4)
    if torch.cuda.is_available():
        x = x.cuda(non_blocking=True)
    loss = model(x).sum()
    loss.backward()
    opt.step()
    print(loss.item())
PY
is "$(nrows ifcuda)" 3 "ifcuda: the model's move, the batch's copy, the read"
is "$(conds ifcuda)" "['torch.cuda.is_available()']" "ifcuda: every row under the machine's answer"

# ... but a `.cuda()` on the path the job always takes needs a GPU; and one
# under another test too (a flag) is no choice by the machine alone
job ifcudasure <<'PY'
import torch
model = torch.nn.Linear(4, 4)
if torch.cuda.is_available():
    model = model.cuda()
for i in range(10):
    x = torch.randn(8, 4).cuda()
    print(model(x).sum().item())
PY
is "$(json "$T/ifcudasure/o/execution_schedule.json" "[str(h['condition']) for h in d['host_device']]")" \
	"['torch.cuda.is_available()', 'None', 'None']" \
	"ifcudasure: the batch's .cuda() on every path: the move keeps its own test, the copy and the read no condition"
job ifcudaflag <<'PY'
import torch
model = torch.nn.Linear(4, 4)
if open("gpu.txt").read() == "yes":
    if torch.cuda.is_available():
        model = model.cuda()
for i in range(10):
    x = torch.randn(8, 4).to(next(model.parameters()).device)
    print(model(x).sum().item())
PY
is "$(json "$T/ifcudaflag/o/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == 'train.py:<module>:8' and h['kind'] == 'sync']")" "[None]" \
	"ifcudaflag: the machine's answer under another test chooses nothing for the whole job"

# --machine (interp/machine.c): the machine named answers the questions.
# On a CUDA machine the GPU is chosen and the rows need no condition; on
# the CPU nothing is copied or read off a device; the word is recorded in
# invocation.machine, and refresh reads the job on the same machine.
# machine_queries' other accelerators are False on a CUDA machine, and
# current_accelerator() is the cuda device there.
machine() {   # machine DIR WORD
	run_ecg extract --repo "$T/$1" --entry train.py --out "$T/$1/m_$2" -q --no-env --machine "$2"
	is "$rc" 0 "$1: extract --machine $2 exits 0"
}
mrows() { json "$T/$1/m_$2/execution_schedule.json" "len(d['host_device'])"; }
mconds() { json "$T/$1/m_$2/execution_schedule.json" "sorted({str(h['condition']) for h in d['host_device']})"; }
machine ifexp cuda
is "$(mrows ifexp cuda)" 3 "ifexp --machine cuda: the three rows"
is "$(mconds ifexp cuda)" "['None']" "ifexp --machine cuda: no condition (the machine has a GPU)"
is "$(json "$T/ifexp/m_cuda/execution_schedule.json" "d['invocation']['machine']")" cuda \
	"ifexp --machine cuda: invocation.machine"
machine ifexp cpu
is "$(mrows ifexp cpu)" 0 "ifexp --machine cpu: the job runs on the host: no copy, no device read"
is "$(json "$T/ifexp/o/execution_schedule.json" "d['invocation']['machine']")" None \
	"ifexp: no --machine, invocation.machine null"
sed 's/range(10)/range(20)/' "$T/ifexp/train.py" >"$T/ifexp/t2" && mv "$T/ifexp/t2" "$T/ifexp/train.py"
commit "$T/ifexp" "twenty steps"
run_ecg refresh --repo "$T/ifexp" --out "$T/ifexp/m_cuda" -q
is "$rc" 0 "ifexp: refresh of the --machine cuda records, the loop changed, exits 0"
is "$(json "$T/ifexp/m_cuda/execution_schedule.json" "d['run'] != '$(json "$T/ifexp/m_cpu/execution_schedule.json" "d['run']")' and d['invocation']['machine']")" cuda \
	"ifexp: refresh keeps the machine recorded"
is "$(mconds ifexp cuda)" "['None']" "ifexp: refresh reads the job on that machine (no condition)"
run_ecg extract --repo "$T/ifexp" --entry train.py --out "$T/ifexp/m_x" -q --machine tpu
is "$rc" 2 "--machine tpu: bad usage (exit 2)"

job accelq <<'PY'
import torch
if torch.backends.mps.is_available():
    device = torch.device("mps")
elif torch.cuda.is_available():
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")
model = torch.nn.Linear(4, 4).to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
machine accelq cuda
is "$(mrows accelq cuda)" 3 "accelq --machine cuda: mps False, cuda True: the three rows"
is "$(mconds accelq cuda)" "['None']" "accelq --machine cuda: no condition"

# a launcher line's accelerate launch --multi_gpu names GPUs (launcher.c)
mkrepo "$T/launch"
cp "$T/ifexp/train.py" "$T/launch/train.py"
printf '#!/bin/sh\naccelerate launch --multi_gpu --num_processes 2 train.py\n' >"$T/launch/run.sh"
commit "$T/launch" "launch"
run_ecg extract --repo "$T/launch" --launcher run.sh --out "$T/launch/o" -q
is "$rc" 0 "launch: extract --launcher run.sh exits 0"
is "$(json "$T/launch/o/execution_schedule.json" "d['invocation']['machine']")" cuda \
	"launch: accelerate launch --multi_gpu is a CUDA machine"
is "$(json "$T/launch/o/execution_schedule.json" "sorted({str(h['condition']) for h in d['host_device']})")" "['None']" \
	"launch: so the device chosen by torch.cuda.is_available() is the GPU: no condition"

# the machine's device count asked (bark's _grab_best_device): a count
# above 0 chooses the GPU as is_available() does, and a checkpoint loaded
# onto the chosen device is on it under that test
job count <<'PY'
import torch


def best_device():
    if torch.cuda.device_count() > 0:
        return "cuda"
    return "cpu"


device = best_device()
model = torch.nn.Linear(4, 4)
model.load_state_dict(torch.load("m.pt", map_location=device))
model.to(device)
for i in range(10):
    x = torch.randn(8, 4).to(device)
    print(model(x).sum().item())
PY
is "$(nrows count)" 5 "count: the load, its copy into the host model, the move, the batch, the read"
is "$(conds count)" "['torch.cuda.device_count() > 0']" "count: every row under the machine's device count"

# accelerate's Accelerator of one process chooses its device at run time
# (catalog run_time_devices: CUDA when the machine has it, else the host):
# a model moved to accelerator.device by hand and a loss read off it hold
# only on a GPU.  Launched as several processes, it is a GPU each.
job accelone <<'PY'
import torch
from accelerate import Accelerator
accelerator = Accelerator()
model = torch.nn.Linear(4, 4)
model.to(accelerator.device)
for i in range(10):
    x = torch.randn(8, 4, device=accelerator.device)
    print(model(x).sum().item())
PY
is "$(nrows accelone)" 2 "accelone: the model's move and the loss read"
is "$(conds accelone)" "[\"the accelerator's device is a GPU (torch.cuda.is_available())\"]" \
	"accelone: one process: every row under the accelerator's choice"
run_ecg extract --repo "$T/accelone" --entry train.py --out "$T/accelone/o2" -q --no-env \
	--env WORLD_SIZE=2 --env LOCAL_WORLD_SIZE=2 --env RANK --env LOCAL_RANK \
	--env MASTER_ADDR=127.0.0.1 --env MASTER_PORT=29500 --env ACCELERATE_MIXED_PRECISION=no
is "$rc" 0 "accelone: extract as two processes exits 0"
is "$(json "$T/accelone/o2/execution_schedule.json" "sorted({str(h['condition']) for h in d['host_device']})")" "['None']" \
	"accelone: two processes: a GPU each, no condition"

done_testing
