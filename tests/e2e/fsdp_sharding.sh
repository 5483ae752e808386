#!/bin/sh
# FSDP's collectives follow the wrap's sharding (catalog fsdp_sharding,
# schedule.c sc_fsdp_sharding): FULL_SHARD (the default) all-gathers the
# parameters again before backward; SHARD_GRAD_OP keeps them from forward to
# backward (no backward all-gather); NO_SHARD shards nothing (DDP's gradient
# all-reduce, no all-gather); a strategy the code does not pin keeps the
# backward all-gather with a condition.  fully_shard likewise by
# reshard_after_forward, and its root unit (no other fully_shard unit
# holds it) with the keyword not given is kept gathered (torch's lazy
# init: "For the root, do not reshard after forward").  The wrap goes through functools.partial, as
# DINOv2's get_fsdp_wrapper does.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import argparse
import os
from functools import partial

import torch
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy
from torch.distributed.fsdp import fully_shard

STRATEGIES = {"full": ShardingStrategy.FULL_SHARD, "grad_op": ShardingStrategy.SHARD_GRAD_OP,
              "none": ShardingStrategy.NO_SHARD}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--strategy", default="full")
    p.add_argument("--fsdp2", action="store_true")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--root-default", action="store_true")
    args = p.parse_args()
    net = nn.Linear(16, 16).cuda()
    if args.fsdp2:
        model = fully_shard(net) if args.root_default else fully_shard(net, reshard_after_forward=not args.keep)
    elif args.strategy == "env":
        model = FSDP(net, sharding_strategy=STRATEGIES[os.environ["STRATEGY"]])
    else:
        wrapper = partial(FSDP, sharding_strategy=STRATEGIES[args.strategy])
        model = wrapper(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(4, 16, device="cuda")).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
PY
commit "$R" "job"

# rows ROWS-FILE: (op, phase, condition is set) of every collective at the
# backward (train.py:main:33) and at the model call (line 32)
rows() { json "$1" "sorted((c['op'], c['anchor'].rsplit(':', 1)[1], c['phase'], c['condition'] is not None) for c in d['device_device'])"; }

case_of() {  # case_of NAME ARGS...
	name=$1
	shift
	run_ecg extract --repo "$R" --entry train.py --out "$T/$name" -q --no-env -- "$@"
	is "$rc" 0 "$name: extract exits 0"
}

case_of full --strategy full
is "$(rows "$T/full/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('all_gather', '33', 'backward', False), ('reduce_scatter', '33', 'backward', False)]" \
	"FULL_SHARD through partial(FSDP, ...): all-gather before forward and again before backward, reduce-scatter"
case_of grad_op --strategy grad_op
is "$(rows "$T/grad_op/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('reduce_scatter', '33', 'backward', False)]" \
	"SHARD_GRAD_OP: the parameters stay gathered from forward to backward: no backward all-gather"
case_of none --strategy none
is "$(rows "$T/none/execution_schedule.json")" \
	"[('all_reduce', '33', 'backward', False)]" \
	"NO_SHARD: nothing sharded, the gradients all-reduced as DDP does"
case_of env --strategy env
is "$(rows "$T/env/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('all_gather', '33', 'backward', True), ('reduce_scatter', '33', 'backward', False)]" \
	"a strategy the invocation does not pin (STRATEGY unset): the backward all-gather kept, with a condition"
case_of fsdp2 --fsdp2
is "$(rows "$T/fsdp2/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('all_gather', '33', 'backward', False), ('reduce_scatter', '33', 'backward', False)]" \
	"fully_shard, reshard_after_forward True: the backward all-gather"
case_of fsdp2_keep --fsdp2 --keep
is "$(rows "$T/fsdp2_keep/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('reduce_scatter', '33', 'backward', False)]" \
	"fully_shard(reshard_after_forward=False): no backward all-gather"
case_of fsdp2_root --fsdp2 --root-default
is "$(rows "$T/fsdp2_root/execution_schedule.json")" \
	"[('all_gather', '32', 'forward', False), ('reduce_scatter', '33', 'backward', False)]" \
	"fully_shard of the root only, reshard_after_forward not given: FSDP2 keeps the root unit gathered to backward"
done_testing
