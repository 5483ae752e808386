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
# A line reached on several paths of one phase: what the paths share, then
# each path's rest joined by `or`; a test and its negation drop out, and
# so does a path the shorter one absorbs.  A test with `or` stays one
# conjunct in parentheses.
R2="$T/job2"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torch
import torch.nn as nn


def log(loss):
    print(loss.item())


def gather(t):
    return t.cpu()


def main():
    model = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    amp = torch.cuda.is_bf16_supported()
    debug = torch.cuda.device_count() > 2
    tiny = torch.cuda.device_count() == 1
    for step in range(100):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()
        if amp or tiny:
            if debug:
                log(loss)
            elif tiny:
                log(loss)
            if debug:
                gather(loss)
            else:
                gather(loss)


if __name__ == "__main__":
    main()
PY
commit "$R2" "job"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o2" -q --no-env
is "$rc" 0 "extract of the two-path job exits 0"
cond2() { json "$T/o2/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond2 train.py:log:6)" "['(amp or tiny) and (debug or tiny)']" \
	"log()'s read: the shared (amp or tiny), then either path's rest"
is "$(cond2 train.py:gather:10)" "['amp or tiny']" \
	"gather()'s copy on both ways of \`if debug\`: only the shared condition"

# A break on the loop's own exit test (`if last_step: break`, a name the
# body binds) ends the loop: the work after it runs on every iteration
# that goes on, under no condition (exec.c, carry_varies).  A break on a
# flag the loop never changes (`if dry: break`) is a condition of the
# rest: with it set, the rest never runs.
R3="$T/job3"
mkrepo "$R3"
cat >"$R3/train.py" <<'PY'
import torch
import torch.nn as nn


def main():
    model = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    dry = torch.cuda.device_count() > 2
    num_iterations = torch.cuda.device_count() * 1000
    step = 0
    while True:
        last_step = step == num_iterations
        if last_step:
            break
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()
        print(loss.item())
        step += 1
    for i in range(10):
        if dry:
            break
        print(model(torch.randn(4, 8, device="cuda")).sum().item())


if __name__ == "__main__":
    main()
PY
commit "$R3" "job"
run_ecg extract --repo "$R3" --entry train.py --out "$T/o3" -q --no-env
is "$rc" 0 "extract of the break job exits 0"
cond3() { json "$T/o3/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond3 train.py:main:18)" "[None]" "after the loop's own exit test: every step, no condition"
is "$(cond3 train.py:main:23)" "['not (dry)']" "after a break on a flag the loop never changes: under not (dry)"

# A library module that reads its own device buffers (catalog
# device_module_host_reads: ema_pytorch's EMA.update) moved to the device
# under an undecided condition: its read is under that condition too
# (interp/jobctx.c), not stated for every call
R4="$T/job4"
mkrepo "$R4"
cat >"$R4/train.py" <<'PY'
import torch
import torch.nn as nn
from ema_pytorch import EMA

model = nn.Linear(8, 1).cuda()
ema = EMA(model)
if torch.cuda.device_count() > 1:
    ema.to("cuda")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    opt.step()
    ema.update()
PY
commit "$R4" "job"
run_ecg extract --repo "$R4" --entry train.py --out "$T/o4" -q --no-env
is "$rc" 0 "extract of the EMA job exits 0"
is "$(json "$T/o4/execution_schedule.json" "[h['condition'] is not None for h in d['host_device'] if h['anchor'] == 'train.py:<module>:14' and h['kind'] == 'sync']")" \
	"[True]" "EMA.update's read of a module moved under a condition: under a condition"

# A line reached on two paths whose tests, as written, negate each other
# (`if not is_main:` before a yield, `if is_main:` after it, each calling
# one helper: accelerate's main_process_first): every process passes it,
# so no condition -- not "(not is_main or is_main)".
R5="$T/job5"
mkrepo "$R5"
cat >"$R5/train.py" <<'PY'
from contextlib import contextmanager

import torch
import torch.distributed as dist


def wait_for_everyone():
    dist.barrier()


@contextmanager
def main_first(is_main):
    if not is_main:
        wait_for_everyone()
    yield
    if is_main:
        wait_for_everyone()


def main():
    dist.init_process_group("nccl")
    with main_first(dist.get_rank() == 0):
        data = torch.randn(64, 8)
    model = torch.nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(data[:4].cuda()).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$R5" "job"
run_ecg extract --repo "$R5" --entry train.py --out "$T/o5" -q --no-env
is "$rc" 0 "extract of the main-first job exits 0"
is "$(json "$T/o5/execution_schedule.json" "sorted({str(c.get('condition')) for c in d['device_device'] if c['op'] == 'barrier'})")" \
	"['None']" "a barrier before the block on one side and after it on the other: no condition"

# `try: ... except FileNotFoundError: return` (a snapshot to resume from):
# the rest of the function runs only when the file was there -- its rows
# carry that condition, as the rest after an `if ...: return` does.
R6="$T/job6"
mkrepo "$R6"
cat >"$R6/train.py" <<'PY'
import torch


def resume(model):
    try:
        state = torch.load("snapshot.pt", map_location="cpu")
    except FileNotFoundError:
        print("no snapshot")
        return
    model.load_state_dict(state)
    print(model.weight.sum().item())


def main():
    model = torch.nn.Linear(8, 1).cuda()
    resume(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$R6" "job"
run_ecg extract --repo "$R6" --entry train.py --out "$T/o6" -q --no-env
is "$rc" 0 "extract of the resume job exits 0"
is "$(json "$T/o6/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == 'train.py:resume:11']")" \
	"['not (the try body raises FileNotFoundError (a file it reads is absent))']" \
	"a read after a try whose FileNotFoundError handler returns: under the file being there"


# A conditional expression in a model's forward whose test is not decided
# (`p[1].item() if len(p) > 1 else n`: how many pads the data holds): the
# read in its arm runs under the test, as in an undecided `if` (eval.c's
# IfExp, exec.c's cond_ctx); the nonzero() before it under none.
R7="$T/job7"
mkrepo "$R7"
cat >"$R7/train.py" <<'PY'
import torch
import torch.nn as nn


class Ends(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, ids, x):
        pads = (ids == 0).nonzero()
        end = pads[1].item() if len(pads) > 1 else ids.shape[0]
        return self.fc(x)[:end].sum()


def main():
    model = Ends().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        ids = torch.randint(0, 5, (16,), device="cuda")
        loss = model(ids, torch.randn(16, 8, device="cuda"))
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$R7" "job"
run_ecg extract --repo "$R7" --entry train.py --out "$T/o7" -q --no-env
is "$rc" 0 "extract of the conditional-expression job exits 0"
cond7() { json "$T/o7/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond7 train.py:Ends.forward:11)" "[None]" "the nonzero() before the test: under no condition"
is "$(cond7 train.py:Ends.forward:12)" "['len(pads) > 1']" \
	"the .item() in the arm of an undecided conditional expression: under its test"


# In a model's forward, a name a device tensor on one path of an undecided
# `if` and a Python int on the other (`start = diff[0]` when the rows
# differ, `n - 1` when not): assert of it and a slice bounded by it read
# it on the host on that path only, so their rows are under that side
# (alts.c alts_sync, eval.c's slice bounds, exec.c's assert).
R8="$T/job8"
mkrepo "$R8"
cat >"$R8/train.py" <<'PY'
import torch
import torch.nn as nn


class Span(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, ids, x):
        r = self.fc(x).squeeze(-1)
        diff = (ids != 0).nonzero()
        if len(diff) == 0:
            start = ids.size(0) - 1
        else:
            start = diff[0]
        assert start > 0
        return r[start:].sum()


def main():
    model = Span().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        ids = torch.randint(0, 5, (16,), device="cuda")
        loss = model(ids, torch.randn(16, 8, device="cuda"))
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
PY
commit "$R8" "job"
run_ecg extract --repo "$R8" --entry train.py --out "$T/o8" -q --no-env
is "$rc" 0 "extract of the one-path tensor job exits 0"
cond8() { json "$T/o8/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond8 train.py:Span.forward:17)" "['not (len(diff) == 0)']" \
	"assert of a device tensor on one path in a forward: a read under that path's side"
is "$(cond8 train.py:Span.forward:18)" "['not (len(diff) == 0)']" \
	"a slice bound that is a device tensor on one path in a forward: a read under that path's side"

# A checkpoint kept on a best metric (`if best is None or val < best:`,
# best None before the loop and bound in the branch): the loop's first
# reading decides it true on the value from before the loop, a later
# iteration does not, so the save is under that test (interp/carry.c:
# carry_cond_added when the first reading reached the save, and
# carry_later_undecided when only the later reading did, the evaluation
# being skipped at step 0).  A helper's line reached on two paths (save()
# of the last and of the best state) keeps the join of its paths: none.
R9="$T/job9"
mkrepo "$R9"
cat >"$R9/train.py" <<'PY'
import torch


def save(obj, path):
    torch.save(obj, path)


def evaluate(model):
    return model(torch.randn(4, 8, device="cuda")).sum().item()


def main():
    model = torch.nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = None
    top = None
    for epoch in range(10):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()
        val = evaluate(model)
        if best is None or val < best:
            torch.save(model.state_dict(), "best.pt")
            best = val
        save(model.state_dict(), "last.pt")
        if top is None or val > top:
            save(model.state_dict(), "top.pt")
            top = val
    best_loss = None
    step = 0
    while True:
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        opt.step()
        if step > 0 and step % 500 == 0:
            test_loss = evaluate(model)
            if best_loss is None or test_loss < best_loss:
                torch.save(model.state_dict(), "model.pt")
                best_loss = test_loss
        step += 1


if __name__ == "__main__":
    main()
PY
commit "$R9" "job"
run_ecg extract --repo "$R9" --entry train.py --out "$T/o9" -q --no-env
is "$rc" 0 "extract of the best-checkpoint job exits 0"
cond9() { json "$T/o9/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond9 train.py:main:23)" "['best is None or val < best']" \
	"a save the first epoch's reading reached: under the best-metric test, as every later epoch"
is "$(cond9 train.py:main:38)" "['best_loss is None or test_loss < best_loss']" \
	"a save reached only on later steps: under the best-loss test"
is "$(cond9 train.py:save:5)" "[None]" \
	"a helper's line reached every epoch on one path and under a best test on another: no condition"

# A periodic guard with another undecided part (`if cfg.env and is_eval:`,
# is_eval a `step % n == 0` flag) around a helper with an `if` of its own:
# the period is the row's frequency, but `cfg.env` stays in its condition
# (jctx.mixed), beside the helper's own test; a guard of the period and a
# test of the same counter (`step > 0`) leaves its text to the frequency.
R10="$T/job10"
mkrepo "$R10"
cat >"$R10/train.py" <<'PY'
import torch
import torch.nn as nn
import draccus


def evaluate(model, x, n):
    if n <= 1:
        model(x).sum().item()


def report(loss, m):
    if m:
        print(loss.item())


def train(cfg):
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(8, 4).cuda()
        loss = model(x).sum()
        loss.backward()
        opt.step()
        is_eval = step % cfg.freq == 0
        if cfg.env and is_eval:
            with torch.no_grad():
                evaluate(model, x, cfg.n)
        if step > 0 and step % cfg.log == 0:
            report(loss, cfg.m)


train(draccus.parse())
PY
commit "$R10" "job"
run_ecg extract --repo "$R10" --entry train.py --out "$T/o10" -q --no-env
is "$rc" 0 "extract of the mixed-guard job exits 0"
is "$(json "$T/o10/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == 'train.py:evaluate:8']")" \
	"['cfg.env and n <= 1']" \
	"under the mixed guard: its other part kept beside the helper's test"
is "$(json "$T/o10/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == 'train.py:report:13']")" \
	"['m']" \
	"under a guard of the period and a test of the same counter: the helper's test alone"

done_testing
