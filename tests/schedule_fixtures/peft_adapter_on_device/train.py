import torch
import torch.nn as nn
from peft import LoraConfig, inject_adapter_in_model


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_q = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        return self.head(self.to_q(x) + self.to_v(x))


def main():
    device = torch.device("cuda")
    config = LoraConfig(r=4, lora_alpha=4, target_modules=["to_q", "to_v"])
    teacher = Block(32)
    inject_adapter_in_model(config, teacher)
    model = Block(32)
    model.requires_grad_(False)
    model.to(device)
    inject_adapter_in_model(config, model)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for step in range(100):
        x = torch.randn(8, 32, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 10 == 0:
            print(loss.item())


if __name__ == "__main__":
    main()
