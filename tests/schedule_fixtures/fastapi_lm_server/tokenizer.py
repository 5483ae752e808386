"""Greedy longest-match tokenizer over a fixed vocabulary (stored in the checkpoint)."""


class VocabTokenizer:
    def __init__(self, vocab, eos_token="</s>"):
        self.id_of = {piece: i for i, piece in enumerate(vocab)}
        self.piece_of = list(vocab)
        self.eos_id = self.id_of[eos_token]
        self.max_len = max(len(p) for p in vocab)

    def encode(self, text):
        ids, i = [], 0
        while i < len(text):
            for n in range(min(self.max_len, len(text) - i), 0, -1):
                piece = text[i:i + n]
                if piece in self.id_of:
                    ids.append(self.id_of[piece])
                    i += n
                    break
            else:
                i += 1  # unknown character: dropped
        return ids

    def decode(self, ids):
        return "".join(self.piece_of[i] for i in ids if i != self.eos_id)
