import torch

from model import Block


def main():
    device = torch.device("cuda")
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float32
    model = Block(64).to(device=device, dtype=dtype)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(100):
        x = torch.randn(8, 64, device=device, dtype=dtype)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    main()
