"""An EMA helper in the style of diffusers' EMAModel, given
model.parameters() of a model built on the CPU: `isinstance(parameters,
torch.nn.Module)` is False (a list of parameters), the shadow copies are
clones on the host, and EMA.to(device) moves each one -- the floating-point
branch of its conditional expression, since a module's parameters hold
floats.  Around the per-epoch evaluation, store() copies the CUDA
parameters to the host and restore() copies them back (copy_to a CPU copy)."""
import torch
import torch.nn as nn


class EMA:
    def __init__(self, parameters, decay=0.999):
        if isinstance(parameters, torch.nn.Module):
            parameters = parameters.parameters()
        parameters = list(parameters)
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.temp_stored_params = None
        self.decay = decay

    @torch.no_grad()
    def step(self, parameters):
        parameters = list(parameters)
        for s_param, param in zip(self.shadow_params, parameters):
            if param.requires_grad:
                s_param.sub_((1 - self.decay) * (s_param - param))
            else:
                s_param.copy_(param)

    def to(self, device=None, dtype=None, non_blocking=False):
        self.shadow_params = [
            p.to(device=device, dtype=dtype, non_blocking=non_blocking)
            if p.is_floating_point()
            else p.to(device=device, non_blocking=non_blocking)
            for p in self.shadow_params
        ]

    def copy_to(self, parameters):
        parameters = list(parameters)
        for s_param, param in zip(self.shadow_params, parameters):
            param.data.copy_(s_param.to(param.device).data)

    def store(self, parameters):
        self.temp_stored_params = [param.detach().cpu().clone() for param in parameters]

    def restore(self, parameters):
        for c_param, param in zip(self.temp_stored_params, parameters):
            param.data.copy_(c_param.data)
        self.temp_stored_params = None


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
    ema = EMA(model.parameters())
    model.to(device)
    ema.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for step in range(100):
            x = torch.randn(4, 8, device=device)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.step(model.parameters())
        ema.store(model.parameters())
        ema.copy_to(model.parameters())
        with torch.no_grad():
            y = model(torch.randn(4, 8, device=device))
        ema.restore(model.parameters())
        cpu_copy = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
        ema.copy_to(cpu_copy.parameters())


if __name__ == "__main__":
    main()
