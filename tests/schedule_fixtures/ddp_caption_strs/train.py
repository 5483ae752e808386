import json
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset


class Captions(Dataset):
    def __init__(self, ann_file, prompt="a picture of "):
        self.annotation = json.load(open(ann_file, "r"))
        self.prompt = prompt

    def __len__(self):
        return len(self.annotation)

    def __getitem__(self, index):
        ann = self.annotation[index]
        image = torch.randn(3, 32, 32)
        caption = self.prompt + ann["caption"].lower().strip()
        return image, caption


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(32, 8)

    def forward(self, image, caption):
        return self.enc(image).mean() * len(caption)


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    model = Captioner().to(rank)
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    loader = DataLoader(Captions("annotation/train.json"), batch_size=32, num_workers=4, pin_memory=True)
    for image, caption in loader:
        image = image.to(rank)
        loss = ddp_model(image, caption)
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
