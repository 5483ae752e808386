#!/bin/sh
# The step of a server whose model ecg cannot see: request handlers
# registered with a web framework make the job a server even when the model
# comes from a library that says nothing of what it returns (not read); what
# the handlers do runs once per request, and no step is invented (ecg exits
# 6: no model, no step).  With transformers' AutoModelForCausalLM the model's
# class is known (an external module, sizes null), so the handler that calls
# it is the step.  A training loop that takes an argmax (an accuracy) is not a
# decode loop; a batch job's step is its loop over a loader's batches, not
# a loop over files around it.  A loop around the step loop counts epochs
# only when it is one; another (a benchmark's stages) runs once, its
# iterations multiplying.
. "$top_srcdir/tests/lib.sh"

R="$T/worker"
mkrepo "$R"
cat >"$R/worker.py" <<'PY'
import argparse

import torch
import uvicorn
from fastapi import FastAPI, Request
from servelib import load_model

app = FastAPI()
state = {}


@app.post("/score")
async def score(request: Request):
    params = await request.json()
    ids = torch.tensor([params["input_ids"]], dtype=torch.long)
    ids = ids.to(state["device"])
    with torch.inference_mode():
        out = state["model"](ids)
    torch.cuda.synchronize()
    return {"n": len(params["input_ids"])}


@app.get("/status")
async def status():
    return {"device": state["device"], "ready": "model" in state}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path", default="gpt2")
    parser.add_argument("--port", type=int, default=21002)
    args = parser.parse_args()
    state["device"] = "cuda"
    state["model"] = load_model(args.model_path, device_map="cuda")
    uvicorn.run(app, host="0.0.0.0", port=args.port)
PY
commit "$R" "worker"
run_ecg extract --repo "$R" --entry worker.py -q --no-env --out "$T/o" -- --model-path gpt2
is "$rc" 6 "extract exits 6: no model ecg can read, so no step"
S="$T/o/execution_schedule.json"
q() { json "$S" "$1"; }
hd() { q "[(h['kind'], h['phase'], h['frequency']) for h in d['host_device'] if h['anchor'] == '$1']"; }

is "$(q 'd["job_type"]["value"], d["job_type"]["evidence"]')" "('inference_serving', ['worker.py:<module>:12'])" \
	"job_type: a server, on its route decorator, though the model is a library's"
is "$(q 'd["entrypoint"]["step"]')" "None" "no step: no handler is seen calling a model"
is "$(hd worker.py:score:16)" "[('h2d', 'request', 'every request')]" "line 16: the request's ids copied to the device, every request"
is "$(hd worker.py:score:19)" "[('sync', 'request', 'every request')]" "line 19: synchronize() in the handler, every request"

# The same worker with transformers' Auto class, not installed: the model is
# an external module of that class, so the handler calling it is the step.
sed -e 's/^from servelib import load_model$/from transformers import AutoModelForCausalLM/' \
    -e 's/load_model(args.model_path,/AutoModelForCausalLM.from_pretrained(args.model_path,/' \
    "$R/worker.py" >"$R/worker_hf.py"
grep -q 'AutoModelForCausalLM.from_pretrained' "$R/worker_hf.py" || echo "Bail out! sed did not apply"
commit "$R" "worker_hf"
run_ecg extract --repo "$R" --entry worker_hf.py -q --no-env --out "$T/ohf" -- --model-path gpt2
is "$rc" 0 "transformers worker: extract exits 0 (the model's class is known)"
is "$(json "$T/ohf/execution_schedule.json" 'd["entrypoint"]["step"]')" "worker_hf.py:score:12" \
	"transformers worker: the step is the request handler that calls the model"
is "$(json "$T/ohf/computation_graph.json" '[(m["class"], m["params"]) for m in d["modules"]][:1]')" "[('transformers.AutoModelForCausalLM', None)]" \
	"transformers worker: the model is the Auto class, its size null"

# --- a training loop over range() with an argmax in it: steps, not tokens
R="$T/acc"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(16, 4).cuda()
opt = torch.optim.AdamW(model.parameters())
for it in range(1000):
    x = torch.randn(32, 16, device="cuda")
    y = torch.randint(0, 4, (32,), device="cuda")
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    acc = (logits.argmax(dim=-1) == y).float().mean().item()
PY
commit "$R" "acc"
run_ecg extract --repo "$R" --entry train.py -q --no-env --out "$T/o2"
is "$rc" 0 "the training job: extract exits 0"
is "$(json "$T/o2/execution_schedule.json" "[(h['phase'], h['frequency']) for h in d['host_device'] if h['anchor'] == 'train.py:<module>:15']")" \
	"[('step', 'every step')]" "line 15: the accuracy's .item(), every step (the argmax in a training loop decodes nothing)"

# --- a batch job: files, each read by a loader; the step is the batch loop
R="$T/score"
mkrepo "$R"
cat >"$R/score.py" <<'PY'
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(8, 1).cuda().eval()
with torch.no_grad(), open("scores.txt", "w") as out:
    for path in sys.argv[1:]:
        loader = DataLoader(TensorDataset(torch.load(path)), batch_size=256)
        for (x,) in loader:
            s = model(x.cuda())
            out.write(f"{s.sum().item()}\n")
PY
commit "$R" "score"
run_ecg extract --repo "$R" --entry score.py -q --no-env --out "$T/o3" -- a.pt b.pt
is "$rc" 0 "the batch job: extract exits 0"
is "$(json "$T/o3/execution_schedule.json" 'd["job_type"]["value"], d["entrypoint"]["step"]')" \
	"('batch', 'score.py:<module>:11')" "the batch job's step: the loop over the loader's batches (line 11), not the files"
is "$(json "$T/o3/execution_schedule.json" "[(h['kind'], h['frequency']) for h in d['host_device'] if h['anchor'] == 'score.py:<module>:13']")" \
	"[('sync', 'every step')]" "line 13: .item() per batch, every step"

# --- a benchmark: two stages, each a step loop; the sync after each stage
R="$T/bench"
mkrepo "$R"
cat >"$R/bench.py" <<'PY'
import torch
import torch.nn as nn

model = nn.Linear(64, 64).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 64, device="cuda")
for stage, num_steps in enumerate([10, 20]):
    for k in range(num_steps):
        loss = model(x).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    torch.cuda.synchronize()
PY
commit "$R" "bench"
run_ecg extract --repo "$R" --entry bench.py -q --no-env --out "$T/o4"
is "$rc" 0 "the benchmark: extract exits 0"
is "$(json "$T/o4/execution_schedule.json" 'd["entrypoint"]["step"]')" "bench.py:<module>:8" "its step: the inner loop"
is "$(json "$T/o4/execution_schedule.json" "[h['frequency'] for h in d['host_device'] if h['anchor'] == 'bench.py:<module>:13']")" \
	"['once ×2']" "line 13: synchronize() after each stage: once, twice (the stage loop is no epoch loop)"

# A periodic test on a counter the loop advances only past a `continue`
# (EDM's `cur_tick += 1` after its per-tick continue) counts ticks, not
# passes of the loop: its period is not stated in steps.  A counter every
# pass reaches is read in steps as before.
R="$T/ticks"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch

device = torch.device("cuda")
model = torch.nn.Linear(8, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
nimg, tick, tick_start, it = 0, 0, 0, 0
for step in range(1000):
    loss = model(torch.randn(16, 8, device=device)).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    it += 1
    if it % 10 == 0:
        print(loss.item())
    nimg += 16
    if tick != 0 and nimg < tick_start + 160:
        continue
    tick_start = nimg
    if tick % 5 == 0:
        torch.save(model.state_dict(), "ckpt.pt")
    tick += 1
PY
commit "$R" "ticks"
run_ecg extract --repo "$R" --entry train.py -q --no-env --out "$T/o5"
is "$rc" 0 "ticks: extract exits 0"
is "$(json "$T/o5/execution_schedule.json" "[h['frequency'] for h in d['host_device'] if h['anchor'] == 'train.py:<module>:20']")" \
	"['every 5=5 counts of \`tick\` (not every pass of \`for step in range(1000)\`: how many passes a count takes is not known)']" \
	"line 20: every 5 ticks, not every 5 steps"
is "$(json "$T/o5/execution_schedule.json" "[h['frequency'] for h in d['host_device'] if h['anchor'] == 'train.py:<module>:14']")" \
	"['every 10=10 steps']" "line 14: a counter every pass reaches is read in steps"
is "$(json "$T/o5/execution_schedule.json" "[h['condition'] for h in d['host_device'] if h['anchor'] == 'train.py:<module>:20']")" \
	"['not (tick != 0 and nimg < tick_start + 160) and tick % 5 == 0']" \
	"line 20: past the per-tick continue: under its negation (tick is carried: the first pass's decision is not every pass's)"

done_testing
