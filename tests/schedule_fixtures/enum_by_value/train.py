import os
from dataclasses import dataclass, field
from enum import Enum, EnumMeta

import torch
import torch.nn as nn


class KeyMeta(EnumMeta):
    def __contains__(cls, item):
        try:
            cls(item)
        except ValueError:
            return False
        return True


class BaseEnum(Enum, metaclass=KeyMeta):
    def __str__(self):
        return self.value


class Backend(str, BaseEnum):
    NO = "NO"
    INDUCTOR = "INDUCTOR"


@dataclass
class DynamoPlugin:
    backend: Backend = field(default=None)

    def __post_init__(self):
        if self.backend is None:
            self.backend = os.environ.get("APP_DYNAMO_BACKEND", "no")
        self.backend = Backend(self.backend.upper())


def main():
    plugin = DynamoPlugin()
    device = torch.device("cuda")
    model = nn.Linear(8, 8).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(2, 8, device=device)).sum()
        if plugin.backend != Backend.NO:
            print("loss", loss.item())
        if plugin.backend == Backend("NO"):
            print("loss", loss.detach().cpu())
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
