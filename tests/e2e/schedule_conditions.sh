#!/bin/sh
# A row's condition names every undecided condition around it, outermost
# first, joined by "and" -- across calls: a sync inside `if many:` in a
# helper called under `if fast:` runs only when both hold (schedule.c
# sc_condition).  A row under one condition keeps that one alone; a row
# on the else path is under `not (...)` alone, not under the body's
# condition too.  In a model's forward the same: a collective under an
# undecided `if` (a pipeline stage's own work) has that condition.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.distributed as dist
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, last):
        super().__init__()
        self.last = last
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        y = self.fc(x)
        if self.last:
            dist.all_reduce(y)
        return y


def report(loss, many):
    if many:
        print(loss.item())


def main():
    dist.init_process_group("nccl")
    model = Net(dist.get_rank() == dist.get_world_size() - 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    fast = torch.cuda.device_count() > 1
    many = torch.cuda.get_device_capability()[0] >= 8
    for step in range(100):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if fast:
            report(loss, many)
            torch.cuda.synchronize()
        else:
            print(float(loss))


if __name__ == "__main__":
    main()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-env
is "$rc" 0 "extract exits 0"
cond() { json "$T/o/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond train.py:report:21)" "['fast and many']" \
	"the sync in report() runs under both conditions: the caller's, then its own"
is "$(cond train.py:main:37)" "['fast']" "the synchronize under the caller's condition alone"
is "$(cond train.py:main:39)" "['not (fast)']" "the read on the else path: under not (fast) alone"
is "$(json "$T/o/execution_schedule.json" "[c['condition'] for c in d['device_device'] if c['anchor'] == 'train.py:Net.forward:15']")" \
	"['self.last']" "the forward's all-reduce under its undecided branch"
done_testing
