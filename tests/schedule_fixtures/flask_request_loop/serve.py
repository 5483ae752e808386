"""Text generation and embeddings over HTTP.

    python serve.py --port 8000
"""
import argparse

import torch
from flask import Flask, jsonify, request

from model import LM

app = Flask(__name__)
device = "cuda"
model = LM().to(device).eval()


@app.route("/generate", methods=["POST"])
def generate():
    body = request.get_json()
    ids = torch.tensor([body["ids"]], dtype=torch.long).to(device)
    with torch.inference_mode():
        for _ in range(body.get("max_tokens", 64)):
            logits = model(ids)[:, -1, :]
            probs = torch.softmax(logits / body.get("temperature", 1.0), dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            ids = torch.cat([ids, nxt], dim=1)
    return jsonify({"ids": ids[0].tolist()})


@app.route("/embed", methods=["POST"])
def embed():
    body = request.get_json()
    ids = torch.tensor([body["ids"]], dtype=torch.long).to(device)
    chunks = []
    with torch.inference_mode():
        for start in range(0, ids.size(1), 32):
            h = model.hidden(ids[:, start:start + 32])
            chunks.append(h.mean(dim=1))
            if torch.isnan(h).any().item():
                break
    return jsonify({"embedding": torch.cat(chunks).mean(dim=0).cpu().tolist()})


@app.route("/health")
def health():
    return jsonify({"ok": True, "memory": torch.cuda.memory_allocated()})


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8000)
    args = p.parse_args()
    app.run(host="0.0.0.0", port=args.port)
