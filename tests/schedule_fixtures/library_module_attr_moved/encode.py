# A repository module holding a Hugging Face text encoder (loaded on the
# host by from_pretrained) in an attribute: moving the wrapper moves the
# encoder (nn.Module registers it as a submodule), so what it returns is on
# the device.
import torch
import torch.nn as nn
from transformers import CLIPTextModel, CLIPTokenizer


class Embedder(nn.Module):
    def __init__(self, version):
        super().__init__()
        self.tokenizer = CLIPTokenizer.from_pretrained(version)
        self.hf_module = CLIPTextModel.from_pretrained(version)
        self.hf_module = self.hf_module.eval().requires_grad_(False)

    def forward(self, text):
        enc = self.tokenizer(text, padding="max_length", return_tensors="pt")
        out = self.hf_module(input_ids=enc["input_ids"].to(self.hf_module.device))
        return out["pooler_output"]


def main():
    device = torch.device("cuda")
    clip = Embedder("openai/clip-vit-large-patch14").to(device)
    prompts = ["a cat", "a dog"]
    with torch.no_grad():
        for p in prompts:
            vec = clip([p])
            vec = vec.to(device)
            print(vec.norm().item())


if __name__ == "__main__":
    main()
