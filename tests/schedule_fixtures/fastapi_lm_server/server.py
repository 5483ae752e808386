"""HTTP text generation.

    python server.py --ckpt ckpt/lm-125m.pt --port 8000
    curl -s localhost:8000/generate -H 'content-type: application/json' -d '{"prompt": "Once upon"}'
"""
import argparse
import time
from contextlib import asynccontextmanager

import torch
import uvicorn
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

from engine import Engine

args = None
engine = None


class GenerateRequest(BaseModel):
    prompt: str
    max_tokens: int = Field(128, ge=1)
    temperature: float = Field(0.8, ge=0.0)
    stop: list[str] = []


class GenerateResponse(BaseModel):
    text: str
    tokens: int
    latency_ms: float


@asynccontextmanager
async def lifespan(app):
    global engine
    engine = Engine.from_checkpoint(args.ckpt, torch.device("cuda", args.gpu))
    engine.warmup()
    yield
    engine = None


app = FastAPI(title="lm-server", lifespan=lifespan)


@app.get("/health")
def health():
    return {"ready": engine is not None, "gpu_mem_gib": round(torch.cuda.memory_allocated() / 2**30, 2)}


@app.post("/generate", response_model=GenerateResponse)
def generate(req: GenerateRequest):
    if len(req.prompt) == 0:
        raise HTTPException(status_code=400, detail="empty prompt")
    if req.max_tokens > engine.max_new_tokens:
        raise HTTPException(status_code=400, detail=f"max_tokens is at most {engine.max_new_tokens}")
    t0 = time.perf_counter()
    ids, n_new = engine.generate(req.prompt, req.max_tokens, req.temperature)
    text = engine.tokenizer.decode(ids)
    for s in req.stop:
        cut = text.find(s)
        if cut >= 0:
            text = text[:cut]
    latency = (time.perf_counter() - t0) * 1000
    print(f"generate: {n_new} tokens in {latency:.0f} ms")
    return GenerateResponse(text=text, tokens=n_new, latency_ms=latency)


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default="ckpt/lm-125m.pt")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--gpu", type=int, default=0)
    args = p.parse_args()
    uvicorn.run(app, host=args.host, port=args.port, workers=1)


if __name__ == "__main__":
    main()
