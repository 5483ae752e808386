# Unconditional training with labels of width 0 (the StyleGAN/EDM dataset
# pattern): every label batch is empty, and torch copies nothing for it.
import os
import numpy as np
import torch
import torch.nn as nn


class ImageDataset(torch.utils.data.Dataset):
    def __init__(self, n, use_labels=False, xflip=False, max_size=None):
        self._n = n
        self._use_labels = use_labels
        self._raw_labels = None
        self._raw_idx = np.arange(n, dtype=np.int64)
        if (max_size is not None) and (self._raw_idx.size > max_size):
            np.random.RandomState(0).shuffle(self._raw_idx)
            self._raw_idx = np.sort(self._raw_idx[:max_size])
        if xflip:
            self._raw_idx = np.tile(self._raw_idx, 2)

    def _load_raw_labels(self):
        return np.load('labels.npy')

    def _get_raw_labels(self):
        if self._raw_labels is None:
            self._raw_labels = self._load_raw_labels() if self._use_labels else None
            if self._raw_labels is None:
                self._raw_labels = np.zeros([self._n, 0], dtype=np.float32)
        return self._raw_labels

    def __len__(self):
        return self._raw_idx.size

    def get_label(self, idx):
        label = self._get_raw_labels()[self._raw_idx[idx]]
        if label.dtype == np.int64:
            onehot = np.zeros(self.label_shape, dtype=np.float32)
            onehot[label] = 1
            label = onehot
        return label.copy()

    @property
    def label_shape(self):
        raw_labels = self._get_raw_labels()
        if raw_labels.dtype == np.int64:
            return [int(np.max(raw_labels)) + 1]
        return list(raw_labels.shape[1:])

    def __getitem__(self, idx):
        image = np.load('img%d.npy' % idx)
        return image.copy(), self.get_label(idx)


class G(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, z, c):
        return self.fc(z)


def main():
    device = torch.device('cuda')
    ds = ImageDataset(1000, xflip=True, max_size=len(os.listdir('.')))
    loader = iter(torch.utils.data.DataLoader(ds, batch_size=8, shuffle=True))
    g = G().to(device)
    opt = torch.optim.Adam(g.parameters())
    classes = torch.from_numpy(np.zeros([8, 10], dtype=np.float32)).to(device)
    for it in range(100):
        img, c = next(loader)
        img = img.to(device)
        c = c.to(device)
        gen_c = [ds.get_label(np.random.randint(len(ds))) for _ in range(8)]
        gen_c = torch.from_numpy(np.stack(gen_c)).pin_memory().to(device)
        z = torch.randn([8, 16], device=device)
        loss = g(z, gen_c).square().mean() + img.float().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())


if __name__ == '__main__':
    main()
