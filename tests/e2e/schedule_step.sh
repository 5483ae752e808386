#!/bin/sh
# The step of a server whose model ecg cannot see: request handlers
# registered with a web framework make the job a server even when the model
# comes from a library (transformers, not read); what the handlers do runs
# once per request, and no step is invented (ecg exits 6: no model, no
# step).
. "$top_srcdir/tests/lib.sh"

R="$T/worker"
mkrepo "$R"
cat >"$R/worker.py" <<'PY'
import argparse

import torch
import uvicorn
from fastapi import FastAPI, Request
from transformers import AutoModelForCausalLM

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
    state["model"] = AutoModelForCausalLM.from_pretrained(args.model_path, device_map="cuda")
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

done_testing
