#!/bin/sh
# A DeepSpeed engine states only what its configuration pins
# (interp/dsengine.c, schedule.c).  ZeRO stage 2 reduces gradients by
# partition, not with stage 0's all-reduce: no gradient row is stated
# (which collective is the configuration's), while the parameter
# broadcast at initialize is.  A configuration handed as a path (a JSON
# file ecg does not read as the engine does) pins nothing: the step's
# fp16 and timer syncs carry a condition, and neither the broadcast nor a
# gradient collective is stated.  fixture deepspeed_engine_fp16 holds the
# stage-0 case.
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
is "$(coll "$T/o1")" "[('broadcast', 'train.py:main:15')]" \
	"stage 2: the broadcast at initialize, and no gradient all-reduce stated"
rows() { json "$1/execution_schedule.json" "sorted((h['kind'], h['anchor'], h['condition']) for h in d['host_device'] if h['anchor'] == 'train.py:main:20')"; }
is "$(rows "$T/o1")" "[]" "bf16 and the throughput timer off: the step states no sync or copy"
is "$(json "$T/o1/execution_schedule.json" "[h['kind'] for h in d['host_device'] if h['anchor'] == 'train.py:main:15']")" \
	"['h2d']" "the engine moves the model to the device at initialize"

run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-env --env RANK --env LOCAL_RANK --env WORLD_SIZE=2 -- path ds.json
is "$rc" 0 "extract of the configuration-file job exits 0"
is "$(coll "$T/o2")" "[]" "a configuration not read: no broadcast and no gradient collective stated"
is "$(json "$T/o2/execution_schedule.json" "[(h['kind'], h['condition'] is not None) for h in d['host_device'] if h['anchor'] == 'train.py:main:20']")" \
	"[('sync', True)]" "the step's sync under a condition (fp16 or the timer: not known)"
done_testing
