# Periodic blocks of a training loop: the work in each takes the phase of
# what the block does -- a block that saves a checkpoint is the checkpoint,
# one that evaluates the model is the evaluation, one that only prints is
# logging.
import torch
import torch.nn as nn

EVAL_EVERY = 100
SAVE_EVERY = 500
LOG_EVERY = 10


def save_weights(model, path):
    torch.save(model.state_dict(), path)


@torch.no_grad()
def evaluate(model):
    x = torch.randn(64, 32, device="cuda")
    return model(x).pow(2).mean()


def main():
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for it in range(1000):
        x = torch.randn(64, 32, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % LOG_EVERY == 0:
            print(it, loss.item())
        if (it + 1) % EVAL_EVERY == 0:
            val = evaluate(model)
            torch.cuda.synchronize()
            print("val", val.item())
        if (it + 1) % SAVE_EVERY == 0:
            save_weights(model, f"ckpt_{it}.pt")
            torch.cuda.synchronize()


if __name__ == "__main__":
    main()
