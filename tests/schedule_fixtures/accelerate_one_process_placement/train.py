import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset, TensorDataset


class Prompts(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, index):
        return {"prompt": "a photo", "index": index}


def main():
    accelerator = Accelerator()
    sample_loader = accelerator.prepare(DataLoader(Prompts(), batch_size=4))
    for example in sample_loader:
        for i in range(len(example["prompt"])):
            print(f"{example['index'][i] + 1}.jpg")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(256, 32), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())


if __name__ == "__main__":
    main()
