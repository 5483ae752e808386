#!/bin/sh
# Rows from the path that leads to them: an `if` one path of which
# returns conditions the rest of the function; the repository's own
# torch.optim.Optimizer subclass steps the optimizer (so the loop around
# the forward, with the step outside it, is the micro-step loop); torch.save
# of device state in a helper is a checkpoint.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.nn as nn
import torch.distributed as dist


class MyOpt(torch.optim.Optimizer):
    def __init__(self, params):
        super().__init__(params, dict(lr=0.1))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            pass


def world_size():
    if not dist.is_initialized():
        return 1
    return dist.get_world_size()


def mean(t):
    ws = world_size()
    if ws == 1:
        return t
    dist.all_reduce(t)
    return t / ws


def save(model, path):
    torch.save(model.state_dict(), path)


model = nn.Linear(4, 4).cuda()
opt = MyOpt(model.parameters())
for it in range(10):
    for micro in range(4):
        loss = model(torch.randn(2, 4, device='cuda')).sum()
        loss.backward()
    opt.step()
    print(mean(loss.detach()).item())
    if it % 5 == 0:
        save(model, 'ckpt.pt')
    if it % 2 == 0:
        with torch.no_grad():
            for k in range(8):
                print(model(torch.randn(2, 4, device='cuda')).sum().item())
for k in range(3):
    print(model(torch.randn(2, 4, device='cuda')).sum().item())
PY
commit "$R" "job"
S="$T/o/execution_schedule.json"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o"
is "$rc" 0 "extract exits 0"
row() { json "$S" "[(r.get('kind') or r.get('op'), r['phase'], r.get('frequency'), r['condition']) for r in d['host_device'] + d['device_device'] if r['anchor'] == '$1']"; }
is "$(json "$S" 'd["compute"]["optimizer_step"]["anchor"]')" "train.py:<module>:40" \
	"MyOpt.step() (a torch.optim.Optimizer of the repository) is the optimizer step"
is "$(json "$S" 'd["entrypoint"]["step"]')" "train.py:<module>:36" \
	"the step is the loop above the micro-step loop (the optimizer steps outside the latter)"
is "$(row 'train.py:<module>:41')" "[('sync', 'logging', 'every step', None)]" \
	".item() once per step, not per micro-step (read for print's argument: logging)"
is "$(row 'train.py:save:31')" "[('sync', 'checkpoint', 'every 5=5 steps', 'it % 5 == 0')]" \
	"torch.save of the state dict in a helper: a checkpoint"
is "$(row 'train.py:mean:26')" "[('all_reduce', 'step', 'every step', 'not (ws == 1)')]" \
	"the all_reduce after \`if ws == 1: return t\` runs only when ws is not 1 (environment not known)"
is "$(row 'train.py:<module>:47')" "[('sync', 'eval', 'every 2=2 steps ×8', 'it % 2 == 0')]" \
	"an .item() in an eval loop of 8 batches every 2 steps runs 8 times each time"
is "$(json "$S" "[r['frequency'] for r in d['host_device'] if r['anchor'] == 'train.py:<module>:49']")" "['once ×3']" \
	"an .item() in a loop after the training loop: once, 3 times"

# --- where tensors live: torch.save of host values is no sync; .cpu() is one
# event (a blocking copy to the host), not a copy and a sync
R2="$T/job2"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torch
import torch.nn as nn

model = nn.Linear(4, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for it in range(10):
    loss = model(torch.randn(2, 4, device='cuda')).sum()
    loss.backward()
    opt.step()
    w = loss.detach().cpu()
    torch.save({'epoch': it, 'w': w}, 'host.pt')
    torch.save(model.state_dict(), 'model.pt')
PY
commit "$R2" "job"
run_ecg extract --repo "$R2" --entry train.py -q --out "$T/o2"
is "$rc" 0 "extract exits 0 (job2)"
S="$T/o2/execution_schedule.json"
is "$(row 'train.py:<module>:10')" "[('d2h', 'step', 'every step', None)]" ".cpu() of a device tensor: one row, a blocking copy"
is "$(json "$S" "[r['non_blocking'] for r in d['host_device'] if r['anchor'] == 'train.py:<module>:10']")" "[False]" \
	".cpu() blocks (non_blocking false): it is a sync point"
is "$(row 'train.py:<module>:11')" "[]" "torch.save of an int and a host tensor copies nothing from the device"
is "$(row 'train.py:<module>:12')" "[('sync', 'checkpoint', 'every step', None)]" "torch.save of the model's state dict: a sync"

# --- a function under functools.lru_cache runs once
R3="$T/job3"
mkrepo "$R3"
cat >"$R3/train.py" <<'PY'
import functools
import torch
import torch.nn as nn

model = nn.Linear(4, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


@functools.lru_cache(maxsize=None)
def scale():
    return torch.ones(1, device='cuda').item()


for it in range(10):
    loss = model(torch.randn(2, 4, device='cuda')).sum() * scale()
    loss.backward()
    opt.step()
PY
commit "$R3" "job"
run_ecg extract --repo "$R3" --entry train.py -q --out "$T/o3"
is "$rc" 0 "extract exits 0 (job3)"
S="$T/o3/execution_schedule.json"
is "$(row 'train.py:scale:11')" "[('sync', 'startup', 'once', None)]" \
	"the .item() in an @functools.lru_cache function called every step runs once"
done_testing
