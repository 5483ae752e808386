# A model built on the meta device and filled from a safetensors file
# loaded straight onto the GPU with load_state_dict(assign=True): the file's
# tensors are copied host to device once, at the load; the model then holds
# them (its later .to("cuda") copies nothing).
import torch
import torch.nn as nn
from safetensors.torch import load_file


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x)


def main():
    with torch.device("meta"):
        model = Net()
    sd = load_file("net.safetensors", device="cuda")
    model.load_state_dict(sd, strict=False, assign=True)
    model.to("cuda")
    host_sd = load_file("net.safetensors")
    print(len(host_sd))
    with torch.no_grad():
        for i in range(10):
            x = torch.randn(4, 16, device="cuda")
            print(model(x).cpu())


if __name__ == "__main__":
    main()
