# The job of site_transformers_real.sh and site_transformers_llama_real.sh:
# a causal LM fine-tuned from the checkpoint directory ./ckpt.
import argparse

import torch
from transformers import AutoModelForCausalLM


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="./ckpt")
    p.add_argument("--steps", type=int, default=2)
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(args.steps):
        ids = torch.randint(0, 1000, (2, 16))
        out = model(input_ids=ids, labels=ids)
        out.loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
