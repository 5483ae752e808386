"""Query/passage pairs from a JSONL file, tokenised and padded in the workers."""
import json

import torch
from torch.utils.data import Dataset


class PairsDataset(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(line) for line in f if line.strip()]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        r = self.rows[i]
        return r["pair_id"], r["query"], r["passage"]


class WordPiece:
    def __init__(self, vocab_path):
        with open(vocab_path) as f:
            self.vocab = {w.rstrip("\n"): i for i, w in enumerate(f)}
        self.cls, self.sep, self.unk, self.pad = (self.vocab[t] for t in ("[CLS]", "[SEP]", "[UNK]", "[PAD]"))

    def word_ids(self, word):
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    out.append(self.vocab[piece])
                    break
                end -= 1
            if end == start:
                return [self.unk]
            start = end
        return out

    def encode(self, text):
        return [i for w in text.lower().split() for i in self.word_ids(w)]


class PairCollator:
    def __init__(self, tokenizer, max_len):
        self.tok, self.max_len = tokenizer, max_len

    def __call__(self, items):
        ids, types = [], []
        for _, query, passage in items:
            q = self.tok.encode(query)[: self.max_len // 4]
            p = self.tok.encode(passage)[: self.max_len - len(q) - 3]
            ids.append([self.tok.cls] + q + [self.tok.sep] + p + [self.tok.sep])
            types.append([0] * (len(q) + 2) + [1] * (len(p) + 1))
        width = max(len(x) for x in ids)
        input_ids = torch.full((len(ids), width), self.tok.pad, dtype=torch.long)
        token_type_ids = torch.zeros((len(ids), width), dtype=torch.long)
        attention_mask = torch.zeros((len(ids), width), dtype=torch.long)
        for row, (x, t) in enumerate(zip(ids, types)):
            input_ids[row, : len(x)] = torch.tensor(x)
            token_type_ids[row, : len(t)] = torch.tensor(t)
            attention_mask[row, : len(x)] = 1
        return {"pair_id": [it[0] for it in items], "input_ids": input_ids,
                "token_type_ids": token_type_ids, "attention_mask": attention_mask}
