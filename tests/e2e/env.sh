#!/bin/sh
# --env KEY[=VALUE] and --no-env: the job's environment, every other
# variable unset; branches on it are decided (rows pruned, conditions
# dropped).  Without either, the environment is not known: the rows stay,
# with their condition.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import os
import torch
import torch.nn as nn
import torch.distributed as dist

distributed = "WORLD_SIZE" in os.environ
rank = int(os.environ.get("RANK", 0))
if distributed:
    dist.init_process_group("nccl")
model = nn.Linear(8, 8).to("cuda")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(4, 8).to("cuda")
    loss = model(x).sum()
    loss.backward()
    opt.step()
    if distributed:
        dist.all_reduce(loss)
    if rank == 0:
        print(loss.item())
PY
commit "$R" "job"
S="$T/o/execution_schedule.json"
rows() { json "$S" "sorted((r['anchor'], r.get('op') or r['kind'], r['condition']) for r in d['host_device'] + d['device_device'] if r['anchor'].split(':')[-1] in ('18', '20'))"; }

run_ecg extract --repo "$R" --entry train.py -q --out "$T/o"
is "$rc" 0 "extract exits 0 (environment not known)"
is "$(rows)" "[('train.py:<module>:18', 'all_reduce', 'distributed'), ('train.py:<module>:20', 'sync', 'rank == 0')]" \
	"environment not known: the all_reduce and the .item() keep their conditions"
is "$(json "$S" 'd["invocation"]["env"]')" "None" "invocation.env is null when not known"

run_ecg extract --repo "$R" --entry train.py -q --out "$T/o" --no-env
is "$rc" 0 "extract --no-env exits 0"
is "$(rows)" "[('train.py:<module>:20', 'sync', None)]" \
	"--no-env: WORLD_SIZE unset, no all_reduce; RANK unset, rank 0 prints every step"
is "$(json "$S" 'd["invocation"]["env"]')" "[]" "invocation.env: none set"

run_ecg extract --repo "$R" --entry train.py -q --out "$T/o" --env WORLD_SIZE=2 --env RANK
is "$rc" 0 "extract --env exits 0"
is "$(rows)" "[('train.py:<module>:18', 'all_reduce', None), ('train.py:<module>:20', 'sync', 'rank == 0')]" \
	"--env WORLD_SIZE=2 --env RANK: the all_reduce runs; the rank is not known, so the print keeps its condition"
is "$(json "$S" 'd["invocation"]["env"]')" "['WORLD_SIZE=2', 'RANK']" "invocation.env lists what was given"

run_ecg extract --repo "$R" --entry train.py -q --out "$T/o" --env =1
is "$rc" 2 "--env =1 is bad usage"
done_testing
