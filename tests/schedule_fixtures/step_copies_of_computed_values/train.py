import torch
import torch.nn as nn
from librosa.filters import mel as librosa_mel_fn

mel_basis = {}

def mel_spec(y, n_fft, num_mels, sr, fmin, fmax):
    if fmax not in mel_basis:
        mel = librosa_mel_fn(sr, n_fft, num_mels, fmin, fmax)
        mel_basis[str(fmax) + '_' + str(y.device)] = torch.from_numpy(mel).float().to(y.device)
        w = torch.hann_window(n_fft).to(y.device)
    return y.sum()

net = nn.Linear(8, 8).cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 8)), batch_size=8)
for (x,) in loader:
    x = x.cuda()
    y = net(x)
    loss = mel_spec(y, 1024, 80, 22050, 0, None)
    loss.backward()
    opt.step()
