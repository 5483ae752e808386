"""A transformers model (from_pretrained: the library's module, not read)
moved to the process's GPU and wrapped in DDP.  The wrapper runs that
module: the job's model call is the DDP object's, and the loss it returns,
read by key from the model's output (outputs["loss"]), is a device tensor
whose .item() syncs every step."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from transformers import AutoModelForSeq2SeqLM


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    model.to(local_rank)
    model = DDP(model, device_ids=[local_rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(1000):
        input_ids = torch.randint(0, 32000, (8, 128))
        labels = torch.randint(0, 32000, (8, 32))
        input_ids = input_ids.to(local_rank)
        labels = labels.to(local_rank)
        optimizer.zero_grad()
        outputs = model(input_ids=input_ids, labels=labels)
        loss = outputs["loss"]
        loss.backward()
        optimizer.step()
        if dist.get_rank() == 0:
            print(step, loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
