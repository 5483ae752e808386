#!/bin/sh
# A row's condition names every undecided condition around it, outermost
# first, joined by "and" -- across calls: a sync inside `if many:` in a
# helper called under `if fast:` runs only when both hold (schedule.c
# sc_condition).  A row under one condition keeps that one alone.  The
# else path of an undecided `if` runs under its negation alone, not under
# the body's condition too (exec.c exec_if).
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.nn as nn


def report(loss, many):
    if many:
        print(loss.item())


def main():
    model = nn.Linear(8, 1).cuda()
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
        if many:
            torch.cuda.synchronize()
        else:
            print(loss.item())


if __name__ == "__main__":
    main()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-env
is "$rc" 0 "extract exits 0"
cond() { json "$T/o/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == '$1']"; }
is "$(cond train.py:report:7)" "['fast and many']" \
	"the sync in report() runs under both conditions: the caller's, then its own"
is "$(cond train.py:main:22)" "['fast']" "the synchronize under the caller's condition alone"
is "$(cond train.py:main:26)" "['not (many)']" "the else path under the negation alone (not 'many and not (many)')"
done_testing
