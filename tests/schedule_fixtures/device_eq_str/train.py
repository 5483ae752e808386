"""A staging buffer whose pinning and non_blocking copy hang on
`device == "cuda"`, with device a torch.device: torch.device compares
equal only to another device, so the test is False, the buffer pageable
and the copy blocking, every step."""
import torch
import torch.nn as nn

device = torch.device("cuda")
use_cuda = device == "cuda"
model = nn.Linear(64, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
cpu_buffer = torch.empty(32, 64, pin_memory=use_cuda)
gpu_buffer = torch.empty(32, 64, device=device)
for step in range(100):
    cpu_buffer.normal_()
    gpu_buffer.copy_(cpu_buffer, non_blocking=use_cuda)
    loss = model(gpu_buffer).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
