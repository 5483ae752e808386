"""A regression net with optional experiment trackers: each client is
imported in a try that catches ImportError and used only when the import
succeeded.  requirements.txt lists comet-ml and leaves wandb and clearml
out (commented): in the environment it sets up, comet_ml is there and
the others are not.

    pip install -r requirements.txt && python train.py
"""
import torch
import torch.nn as nn

try:
    import wandb
except ImportError:
    wandb = None

try:
    import clearml
    assert hasattr(clearml, "__version__")
except (ImportError, AssertionError):
    clearml = None

try:
    import comet_ml
except ImportError:
    comet_ml = None


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    run = wandb.init(project="fixture") if wandb else None
    task = clearml.Task.init(project_name="fixture") if clearml else None
    exp = comet_ml.Experiment(project_name="fixture") if comet_ml else None
    for step in range(1000):
        x = torch.randn(64, 32, device=device)
        y = torch.randn(64, 1, device=device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if run:
            run.log({"loss": loss.item()})
        if task:
            task.get_logger().report_scalar("loss", "train", loss.cpu().numpy(), step)
        if exp:
            exp.log_metric("loss", loss.detach().cpu(), step=step)


if __name__ == "__main__":
    main()
