#!/bin/sh
# execution_schedule.json for the example job (examples/minigpt), every
# expectation written by hand from its code, with the look-alikes that must
# not be flagged.
. "$top_srcdir/tests/lib.sh"

R="$T/minigpt"
mkrepo "$R"
cp "$top_srcdir/examples/minigpt/"*.py "$R/"
chmod -R u+w "$R"
commit "$R" "example job"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o"
is "$rc" 0 "extract exits 0"
S="$T/o/execution_schedule.json"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "both records validate"
sed 's/^/# /' "$T/schema.out" | grep -v '^# ok' || true

q() { json "$S" "$1"; }
hd() { q "[(h['kind'], h['call'], h['pinned'], h['non_blocking'], h['phase'], h['frequency']) for h in d['host_device'] if h['anchor'] == '$1']"; }

is "$(q 'd["job_type"]["value"], d["job_type"]["evidence"]')" \
	"('training', ['train.py:main:76', 'train.py:main:79'])" \
	"job_type: training, on scaler.scale(loss).backward() and scaler.step(opt)"
is "$(q 'd["entrypoint"]["step"]')" "train.py:main:64" "the step: the iteration loop above the accumulation loop"

# --- host <-> device (train.py)
is "$(hd train.py:main:70)" "[('h2d', '.to(device)', True, True, 'data', 'every micro-step')]" \
	"line 70: the batch copy, pinned by the DataLoader, non_blocking, every micro-step"
is "$(hd train.py:main:85)" "[('sync', '.item()', None, None, 'logging', 'every args.log_interval=10 steps')]" \
	"line 85: loss.item() in the log line, every log_interval=10 steps"
is "$(hd train.py:evaluate:36)" "[('sync', '.item()', None, None, 'eval', 'every args.eval_interval=250 steps ×? (\`for k, (x, y) in zip(range(iters), loader)\`)')]" \
	"line 36: loss.item() in evaluate(), once per eval batch, every eval_interval=250 steps (zip with the loader: how many batches is not known)"
is "$(hd train.py:main:67)" "[]" "line 67: formatting val, a host tensor (losses = torch.zeros(iters)), is not a sync"
is "$(hd train.py:main:78)" "[]" "line 78: clip_grad_norm_ returns a device tensor no one reads: not a sync"
is "$(hd train.py:main:79)" "[('sync', 'scaler.step(optimizer) (reads found_inf with .item())', None, None, 'optimizer', 'every step')]" \
	"line 79: GradScaler.step reads found_inf on the host, every step"
is "$(hd train.py:main:53)" "[('h2d', 'model.to(device): parameters and buffers', False, False, 'startup', 'once')]" \
	"line 53: the model's parameters copied to the device, once"
is "$(q 'len([h for h in d["host_device"] if h["kind"] == "sync"])')" 3 "no other sync point"

# --- data path (data.py:22)
is "$(q '[(h["hop"], h["async"], h["blocks_step"], h["detail"]["num_workers"], h["detail"]["pin_memory"]) for h in d["data_path"] if h["anchor"] == "data.py:make_loader:22"]')" \
	"[('DataLoader', True, False, 2, True)]" "the DataLoader: 2 workers, pinned, asynchronous"

# --- collectives: DDP only when RANK is set (line 47: ddp = ...); the
# model registers a causal mask buffer (model.py:47), so DDP broadcasts it
# before the first forward of each evaluation (no_grad, after a synced
# training forward) and before the first micro-step's forward
is "$(q '[(c["op"], c["parallelism"], c["async_op"], c["phase"], c["implied_by"], c["condition"]) for c in d["device_device"]]')" \
	"[('broadcast', 'data', 'implicit', 'startup', 'DistributedDataParallel', 'ddp'), ('broadcast', 'data', 'implicit', 'eval', 'DistributedDataParallel', 'ddp'), ('broadcast', 'data', 'implicit', 'forward', 'DistributedDataParallel', 'ddp'), ('all_reduce', 'data', 'implicit', 'backward', 'DistributedDataParallel', 'ddp')]" \
	"DDP's start-up broadcast, buffer broadcasts (eval, first micro-step) and bucketed all-reduce, under 'if ddp'"
is "$(q '[(c["anchor"], c["frequency"]) for c in d["device_device"] if c["op"] == "broadcast" and c["phase"] != "startup"]')" \
	"[('train.py:evaluate:35', 'every args.eval_interval=250 steps'), ('train.py:main:74', 'every step')]" \
	"the buffer broadcasts: once an evaluation, once a step (the sync is on only on the last micro-step)"

# --- compute
is "$(q 'd["compute"]["grad_accumulation"]["steps"], d["compute"]["grad_accumulation"]["expr"], d["compute"]["grad_accumulation"]["sync_skipped_on_micro_steps"]')" \
	"(4, 'args.grad_accum', True)" "gradient accumulation: 4 micro-steps, DDP sync skipped on all but the last"
is "$(q 'd["compute"]["autocast"]["anchor"], d["compute"]["backward"]["anchor"], d["compute"]["optimizer_step"]["anchor"]')" \
	"('train.py:main:73', 'train.py:main:76', 'train.py:main:79')" "autocast, backward and optimizer step anchors"
is "$(q 'd["compute"]["compile_regions"]')" "[]" "torch.compile is behind --compile (off by default): no region"

# --- phases and overlap
is "$(q '[(p["name"], p["kind"]) for p in d["phases"]]')" \
	"[('eval', 'periodic'), ('logging', 'periodic'), ('data', 'repeated'), ('forward', 'repeated'), ('backward', 'repeated'), ('optimizer', 'repeated')]" \
	"phases, in the order the job reaches them"
is "$(q 'sorted(o["mechanism"] for o in d["overlap"])')" \
	"['DataLoader(num_workers > 0)', 'DistributedDataParallel gradient bucketing', 'pinned memory + non_blocking=True', 'pinned memory + non_blocking=True']" \
	"intended overlaps: loader workers, DDP buckets under backward, the pinned non-blocking copies"
is "$(q 'sorted(o["anchor"] for o in d["overlap"] if o["mechanism"].startswith("pinned"))')" \
	"['train.py:evaluate:34', 'train.py:main:70']" \
	"  the copies of the eval batches (zip(range, loader)) and of the training batches"

# --- the same job compiled: the region and nothing invented
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o2" -- --compile
is "$(json "$T/o2/execution_schedule.json" '[(c["target"], c["anchor"], c["mode"], c["graph_breaks"]) for c in d["compute"]["compile_regions"]]')" \
	"[('model', 'train.py:main:55', None, [])]" "--compile: one region, the model, no graph break in its forward"

done_testing
