import os

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from transformers import CLIPTextModel


def main():
    accelerator = Accelerator()
    text_encoder = CLIPTextModel.from_pretrained("openai/clip-vit-large-patch14")

    def save_model_hook(models, weights, output_dir):
        if accelerator.is_main_process:
            for model in models:
                model.save_pretrained(os.path.join(output_dir, "text_encoder"))
                weights.pop()

    accelerator.register_save_state_pre_hook(save_model_hook)
    optimizer = torch.optim.AdamW(text_encoder.parameters(), lr=1e-5)
    loader = DataLoader(TensorDataset(torch.randint(0, 1000, (64, 77))), batch_size=8)
    text_encoder, optimizer, loader = accelerator.prepare(text_encoder, optimizer, loader)
    for step, (ids,) in enumerate(loader):
        out = text_encoder(ids)
        loss = out.last_hidden_state.float().pow(2).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())
        if step % 100 == 0:
            accelerator.save_state(f"checkpoint-{step}")
    accelerator.unwrap_model(text_encoder).save_pretrained("out")


if __name__ == "__main__":
    main()
