"""Sample completions for a file of prompts, one prompt at a time, with a
static KV cache and a compiled single-token decode step.

    python generate.py --ckpt ckpt/tiny-1b.pt --prompts prompts.txt --out completions.jsonl
"""
import argparse
import json
import time

import torch

from model import ModelArgs, Transformer
from tokenizer import ByteTokenizer


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default="ckpt/tiny-1b.pt")
    p.add_argument("--prompts", default="prompts.txt")
    p.add_argument("--out", default="completions.jsonl")
    p.add_argument("--max-new-tokens", type=int, default=256)
    p.add_argument("--max-seq-len", type=int, default=2048)
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--top-p", type=float, default=0.95)
    p.add_argument("--no-compile", dest="compile", action="store_false")
    p.add_argument("--seed", type=int, default=1234)
    return p.parse_args()


def sample(logits, temperature, top_p):
    if temperature == 0.0:
        return logits.argmax(dim=-1, keepdim=True)
    probs = torch.softmax(logits / temperature, dim=-1)
    sorted_probs, sorted_idx = probs.sort(dim=-1, descending=True)
    above = sorted_probs.cumsum(dim=-1) - sorted_probs > top_p
    sorted_probs = torch.where(above, torch.zeros_like(sorted_probs), sorted_probs)
    choice = torch.multinomial(sorted_probs, num_samples=1)
    return sorted_idx.gather(-1, choice)


def prefill(model, tokens, input_pos, temperature, top_p):
    logits = model(tokens, input_pos)
    return sample(logits[:, -1], temperature, top_p)


def decode_one(model, token, input_pos, temperature, top_p):
    logits = model(token, input_pos)
    return sample(logits[:, -1], temperature, top_p)


@torch.inference_mode()
def generate(model, prompt_ids, max_new_tokens, eos_id, temperature, top_p, decode_fn, device):
    T = len(prompt_ids)
    if T + max_new_tokens > model.max_seq_len:
        raise ValueError(f"prompt of {T} tokens + {max_new_tokens} new ones exceeds the cache")
    tokens = torch.tensor(prompt_ids, dtype=torch.long, device=device).unsqueeze(0)
    next_tok = prefill(model, tokens, torch.arange(T, device=device), temperature, top_p)
    generated = [next_tok]
    input_pos = torch.tensor([T], dtype=torch.long, device=device)
    for _ in range(max_new_tokens - 1):
        next_tok = decode_fn(model, next_tok, input_pos, temperature, top_p)
        generated.append(next_tok.clone())
        input_pos += 1
        if next_tok.item() == eos_id:
            break
    return torch.cat(generated, dim=1)[0].tolist()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda")
    tok = ByteTokenizer()

    ckpt = torch.load(args.ckpt, map_location="cpu", mmap=True, weights_only=True)
    print(f"checkpoint from step {ckpt['step'].item()}")
    model = Transformer(ModelArgs(**ckpt["model_args"]))
    model.load_state_dict(ckpt["model"], assign=True)
    model = model.to(device=device, dtype=torch.bfloat16).eval()
    model.setup_caches(max_batch_size=1, max_seq_len=args.max_seq_len)

    decode_fn = decode_one
    if args.compile:
        decode_fn = torch.compile(decode_one, mode="reduce-overhead", fullgraph=True)

    prompts = [line.rstrip("\n") for line in open(args.prompts) if line.strip()]
    with open(args.out, "w") as f:
        for i, prompt in enumerate(prompts):
            ids = tok.encode(prompt, bos=True)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            new_ids = generate(model, ids, args.max_new_tokens, tok.eos_id, args.temperature, args.top_p,
                               decode_fn, device)
            torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            print(f"[{i}] {len(new_ids)} tokens in {dt:.2f} s, {len(new_ids) / dt:.1f} tok/s")
            f.write(json.dumps({"prompt": prompt, "completion": tok.decode(new_ids)}) + "\n")


if __name__ == "__main__":
    main()
