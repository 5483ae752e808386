"""Running averages for the log line, kept on the device between logs."""
import torch


class RunningMean:
    """Sums a device tensor and formats its mean on demand."""

    def __init__(self, device):
        self.total = torch.zeros((), device=device)
        self.count = 0

    def update(self, value):
        self.total += value.detach()
        self.count += 1

    def reset(self):
        self.total.zero_()
        self.count = 0

    def __format__(self, spec):
        mean = self.total.item() / max(self.count, 1)
        return format(mean, spec)


class ModelEma:
    """Exponential moving average of the weights, updated after each step."""

    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow, model.parameters()):
            s.lerp_(p.detach(), 1.0 - self.decay)
