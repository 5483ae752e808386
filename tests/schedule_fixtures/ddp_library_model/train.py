# DDP around a model a library builds from a name (timm's registry): ecg
# does not build it, but the wrap is DDP's all the same -- it broadcasts
# the module states from rank 0 when it is built, and the gradients are
# all-reduced in buckets during each backward.  The classifier head on the
# backbone's features is a DDP model of its own.
import os
import timm
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="nccl")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)

backbone = timm.create_model(os.environ.get("MODEL_NAME", "vit_small_patch16_224"), num_classes=0)
backbone.to(device)
backbone = DDP(backbone, device_ids=[local_rank])
head = DDP(nn.Linear(384, 10).to(device), device_ids=[local_rank])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1)

for step in range(500):
    images = torch.randn(32, 3, 224, 224, device=device)
    target = torch.randint(0, 10, (32,), device=device)
    loss = criterion(head(backbone(images)), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
