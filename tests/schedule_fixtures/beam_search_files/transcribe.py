import argparse
import os

import torch

from model import TinyDecoder


def beam_update(tokens, logits, beam_size):
    logprobs = torch.log_softmax(logits.float(), dim=-1)
    candidates = []
    for j in range(beam_size):
        prefix = tokens[j].tolist()
        for logprob, token in zip(*logprobs[j].topk(beam_size + 1)):
            candidates.append((logprob.item(), prefix + [token.item()]))
    candidates.sort(key=lambda c: c[0], reverse=True)
    best = [c[1] for c in candidates[:beam_size]]
    return torch.tensor(best, device=tokens.device)


def decode(model, segment, beam_size, sample_len):
    tokens = torch.zeros(beam_size, 1, dtype=torch.long, device=segment.device)
    for i in range(sample_len):
        logits = model(tokens, segment)
        tokens = beam_update(tokens, logits[:, -1], beam_size)
    return tokens


@torch.no_grad()
def transcribe(model, path, beam_size, device):
    mel = torch.randn(8, os.path.getsize(path) // 160)   # the audio's frames, on the host
    seek = 0
    while seek < mel.shape[-1]:
        segment = mel[:, seek:seek + 300].to(device)
        tokens = decode(model, segment, beam_size, 20)
        print(path, tokens[0].tolist())
        seek += 300


def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("audio", nargs="+", type=str)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--beam_size", type=int, default=3)
    args = parser.parse_args().__dict__
    device = args.pop("device")
    model = TinyDecoder().to(device)
    model.eval()
    for path in args.pop("audio"):
        transcribe(model, path, **args, device=device)


if __name__ == "__main__":
    cli()
