"""A tiny LM built on the GPU and a greedy decode loop whose per-token
step replays a CUDA graph captured on the first call."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=128, dim=64, device=None):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, device=device)
        self.head = nn.Linear(dim, vocab, device=device)

    def forward(self, ids):
        return self.head(self.emb(ids))


_graphs = {}


def capture(model, batch):
    ids = torch.zeros((batch, 1), dtype=torch.long, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        logits = model(ids)   # warm-up before capture
        s.synchronize()
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        logits = model(ids)

    def run(new_ids):
        ids.copy_(new_ids)
        graph.replay()
        return logits.clone()

    return run


@torch.inference_mode()
def generate(model, input_ids, max_length):
    batch = input_ids.shape[0]
    if batch not in _graphs:
        _graphs[batch] = capture(model, batch)
    run = _graphs[batch]
    seqs = [input_ids]
    logits = None
    while sum(x.shape[1] for x in seqs) < max_length:
        if logits is None:
            logits = model(seqs[-1])[:, -1]
        else:
            logits = run(seqs[-1])[:, -1]
        tok = logits.argmax(dim=-1, keepdim=True)
        seqs.append(tok)
    return torch.cat(seqs, dim=1)
