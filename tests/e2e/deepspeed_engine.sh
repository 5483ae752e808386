#!/bin/sh
# A DeepSpeed engine states only what its configuration pins
# (interp/dsengine.c, schedule.c).  ZeRO stages 1 and 2 run
# DeepSpeedZeroOptimizer (stage_1_and_2.py) -- except stage 1 with bf16
# and no optimizer offload, which is BF16_Optimizer (not read: nothing
# stated) -- whose backward all-reduces flattened gradient buckets
# (average_tensor, reduce_scatter and use_multi_rank_bucket_allreduce on
# by default) and whose step all-reduces the gradient norm and all-gathers
# the updated partitions; the parameter broadcast at initialize is stated
# at every pinned stage.  With the optimizer offloaded to the host the
# engine also copies its fp32 partition off the device at initialize,
# reads each gradient's inf/nan flag at backward, reads the norm with
# .item() and copies the partition back at step.  Built without
# training_data, the engine's forward starts the throughput timer (a
# synchronize).  engine.save_checkpoint: a barrier, and the tag's
# validation (H2D, all_reduce, host read) unless set to Ignore.  A
# configuration handed as a path (a JSON file ecg does not read as the
# engine does) pins nothing: the step's fp16 and timer syncs carry a
# condition, and neither the broadcast nor a gradient collective is
# stated.  fixture deepspeed_engine_fp16 holds the stage-0 case.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import sys

import deepspeed
import torch
import torch.nn as nn


def main():
    model = nn.Linear(32, 10)
    if sys.argv[1] == "dict":
        config = {"train_batch_size": 32, "bf16": {"enabled": True}, "zero_optimization": {"stage": 2},
                  "timers": {"throughput": {"enabled": False}}}
    else:
        config = sys.argv[2]
    engine, opt, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    for step in range(100):
        x = torch.randn(32, 32, device="cuda")
        loss = engine(x).sum()
        engine.backward(loss)
        engine.step()


if __name__ == "__main__":
    main()
PY
commit "$R" "job"
run_ecg extract --repo "$R" --entry train.py --out "$T/o1" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2 -- dict
is "$rc" 0 "extract of the stage-2 job exits 0"
coll() { json "$1/execution_schedule.json" "sorted((c['op'], c['anchor']) for c in d['device_device'])"; }
is "$(coll "$T/o1")" "[('all_gather', 'train.py:main:20'), ('all_reduce', 'train.py:main:19'), ('all_reduce', 'train.py:main:20'), ('broadcast', 'train.py:main:15')]" \
	"stage 2: the broadcast at initialize, the gradient all-reduce at backward, the norm all-reduce and the all-gather at step"
is "$(json "$T/o1/execution_schedule.json" "sorted(set(c['phase'] for c in d['device_device'] if c['anchor'] == 'train.py:main:19'))")" \
	"['backward']" "the engine's gradient all-reduce is the backward's"
rows() { json "$1/execution_schedule.json" "sorted((h['kind'], h['anchor'], h['condition']) for h in d['host_device'] if h['anchor'] == 'train.py:main:20')"; }
is "$(rows "$T/o1")" "[]" "bf16 and the throughput timer off: the step states no sync or copy"
is "$(json "$T/o1/execution_schedule.json" "[h['kind'] for h in d['host_device'] if h['anchor'] == 'train.py:main:15']")" \
	"['h2d']" "the engine moves the model to the device at initialize"

run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2 -- path ds.json
is "$rc" 0 "extract of the configuration-file job exits 0"
is "$(coll "$T/o2")" "[]" "a configuration not read: no broadcast and no gradient collective stated"
is "$(json "$T/o2/execution_schedule.json" "[(h['kind'], h['condition'] is not None) for h in d['host_device'] if h['anchor'] == 'train.py:main:20']")" \
	"[('sync', True)]" "the step's sync under a condition (fp16 or the timer: not known)"

# ZeRO 1 with the optimizer on the host, no training_data, checkpoints
R2="$T/job2"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import sys

import deepspeed
import torch
import torch.nn as nn


def main():
    model = nn.Linear(32, 10)
    offload = {"device": "cpu"} if sys.argv[1] == "offload" else {"device": "none"}
    config = {"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": True},
              "zero_optimization": {"stage": 1, "offload_optimizer": offload}}
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    for step in range(1000):
        x = torch.randn(8, 32, device="cuda")
        loss = engine(x).sum()
        engine.backward(loss)
        engine.step()
        if step % 100 == 0:
            engine.save_checkpoint("ckpt")


if __name__ == "__main__":
    main()
PY
commit "$R2" "job"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o3" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2 -- offload
is "$rc" 0 "extract of the stage-1 offload job exits 0"
is "$(coll "$T/o3")" "[('all_gather', 'train.py:main:18'), ('all_reduce', 'train.py:main:17'), ('all_reduce', 'train.py:main:18'), ('all_reduce', 'train.py:main:20'), ('barrier', 'train.py:main:20'), ('broadcast', 'train.py:main:13')]" \
	"stage 1 + offload: backward all-reduce, step all-reduce + all-gather, save_checkpoint's barrier and tag all-reduce"
hd() { json "$1/execution_schedule.json" "sorted((h['kind'], h['anchor'].split(':')[-1]) for h in d['host_device'])"; }
is "$(hd "$T/o3")" "[('h2d', '13'), ('h2d', '18'), ('h2d', '20'), ('sync', '13'), ('sync', '16'), ('sync', '17'), ('sync', '18'), ('sync', '20')]" \
	"offload: the partition copied off at initialize, the timer at the forward, inf/nan reads at backward, the norm read and copies at step, the tag at save"
is "$(json "$T/o3/execution_schedule.json" "sorted(set(h['phase'] for h in d['host_device'] if h['anchor'] == 'train.py:main:20'))")" \
	"['checkpoint']" "save_checkpoint's rows are checkpoint work"

run_ecg extract --repo "$R2" --entry train.py --out "$T/o4" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2 -- none
is "$rc" 0 "extract of the stage-1 bf16 job exits 0"
is "$(coll "$T/o4")" "[('all_reduce', 'train.py:main:20'), ('barrier', 'train.py:main:20'), ('broadcast', 'train.py:main:13')]" \
	"stage 1 + bf16 without offload is BF16_Optimizer: no backward or step collective stated"
is "$(hd "$T/o4")" "[('h2d', '13'), ('h2d', '20'), ('sync', '16'), ('sync', '18'), ('sync', '20')]" \
	"no offload: no partition copies or inf/nan reads; the timer's syncs stay"
# Four micro-steps a step (gradient_accumulation_steps 4): engine.step()
# and engine.backward() are called every micro-step, but the optimizer's
# reads and stage 0's gradient all-reduce happen at an accumulation
# boundary only -- said as a condition, not as every call's
R3="$T/job3"
mkrepo "$R3"
cat >"$R3/train.py" <<'PY'
import deepspeed
import torch
import torch.nn as nn


def main():
    model = nn.Linear(32, 10)
    config = {"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 4, "fp16": {"enabled": True},
              "timers": {"throughput": {"enabled": False}}}
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    for step in range(1000):
        loss = engine(torch.randn(8, 32, device="cuda")).sum()
        engine.backward(loss)
        engine.step()


if __name__ == "__main__":
    main()
PY
commit "$R3" "job"
run_ecg extract --repo "$R3" --entry train.py --out "$T/o3" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2
is "$rc" 0 "extract of the accumulation job exits 0"
is "$(json "$T/o3/execution_schedule.json" "[('boundary' in (h['condition'] or '')) for h in d['host_device'] if h['anchor'] == 'train.py:main:14' and h['kind'] == 'sync']")" \
	"[True]" "fp16's step reads: at an accumulation boundary only"
is "$(json "$T/o3/execution_schedule.json" "[('boundary' in (c['condition'] or '')) for c in d['device_device'] if c['anchor'] == 'train.py:main:13']")" \
	"[True]" "stage 0's gradient all-reduce: at an accumulation boundary only"

done_testing
