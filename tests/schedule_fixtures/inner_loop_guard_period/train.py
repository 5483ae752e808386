# A guard on the counter of a loop below the step loop -- an evaluation's
# batch loop, `if idx % 10 == 0` -- counts that loop's passes, not steps:
# its block runs every 10th validation batch of each evaluation (every 200
# steps), not every 10 steps (LoRA's gpt2_ft.py evaluate prints a CUDA
# loss every 100 batches).  The same over a DataLoader, whose length is
# not known: every 200 steps, a count not known.
import torch


def evaluate(model, batches, device):
    with torch.no_grad():
        for idx, x in enumerate(batches):
            x = x.to(device)
            loss = model(x).sum()
            if idx % 10 == 0:
                print("eval", idx, loss.item())


def evaluate_loader(model, loader, device):
    with torch.no_grad():
        for idx, data in enumerate(loader):
            x = data[0].to(device)
            loss = model(x).sum()
            if idx % 5 == 0:
                print("loader eval", idx, loss.float())


def main():
    device = torch.device("cuda")
    model = torch.nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [torch.randn(8, 4) for _ in range(40)]
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(400, 4)), batch_size=8)
    for step in range(1000):
        x = torch.randn(8, 4, device=device)
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 200 == 0:
            evaluate(model, batches, device)
            evaluate_loader(model, loader, device)


main()
