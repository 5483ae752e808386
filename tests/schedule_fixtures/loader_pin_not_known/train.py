import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
model = nn.Linear(16, 16).to(device)
data = TensorDataset(torch.randn(64, 16))
# pinned as the environment says: not known to ecg
loader = DataLoader(data, batch_size=8, pin_memory=os.environ.get("PIN_BATCHES") == "1")
# pinned wherever a batch reaches a CUDA device
val_loader = DataLoader(data, batch_size=8, pin_memory=torch.cuda.is_available())
for (x,) in loader:
    x = x.to(device, non_blocking=True)
    loss = model(x).sum()
    loss.backward()
with torch.no_grad():
    for (x,) in val_loader:
        model(x.to(device))
