"""Streams generated tokens over HTTP, one JSON line per token.

    python server.py --port 8000
"""
import argparse

import torch
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from model import TinyLM
from stream import stream_tokens

device = "cuda"
model = TinyLM().to(device).eval()
app = FastAPI()


@app.post("/generate_stream")
async def generate_stream(request: Request):
    params = await request.json()
    gen = stream_tokens(model, params["ids"], int(params.get("max_new_tokens", 64)), device)
    return StreamingResponse(gen, media_type="application/x-ndjson")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8000)
    args = p.parse_args()
    uvicorn.run(app, host="0.0.0.0", port=args.port)
