import torch
import torch.nn as nn
import wandb
from tqdm import tqdm


def main():
    device = torch.device("cuda")
    model = nn.Linear(8, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, "min", patience=5)
    run = wandb.init(project="x")
    with tqdm(total=100) as pbar:
        for step in range(100):
            x = torch.randn(4, 8, device=device)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            pbar.update(1)
            run.log({
                "loss": loss.item(),
                "lr": opt.param_groups[0]["lr"],
            })
            pbar.set_postfix(**{"loss": loss.item()})
            scheduler.step(loss.detach())
            scheduler.step(0.5)


if __name__ == "__main__":
    main()
