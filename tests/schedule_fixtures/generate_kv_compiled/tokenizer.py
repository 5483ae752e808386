"""Byte-level tokenizer: ids 0..255 are bytes, then BOS, EOS, PAD."""


class ByteTokenizer:
    bos_id, eos_id, pad_id = 256, 257, 258

    def encode(self, text, bos=True):
        ids = list(text.encode("utf-8"))
        return [self.bos_id] + ids if bos else ids

    def decode(self, ids):
        return bytes(i for i in ids if i < 256).decode("utf-8", errors="replace")
