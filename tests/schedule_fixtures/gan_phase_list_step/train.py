# A GAN's step as StyleGAN's training loop writes it: one `while True`
# fetches the batch, then a loop over a list of phases (G, then D), each
# with its own module and optimizer, zipped with latents split per phase
# and with labels whose count the code does not pin (a file's rows).
import numpy as np
import torch


def main():
    device = torch.device('cuda')
    G = torch.nn.Linear(8, 8).to(device)
    D = torch.nn.Linear(8, 1).to(device)
    phases = [dict(name='G', module=G, opt=torch.optim.Adam(G.parameters())),
              dict(name='D', module=D, opt=torch.optim.Adam(D.parameters()))]
    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 8)), batch_size=4)
    it = iter(data)
    labels = np.load('labels.npy')
    step = 0
    while True:
        (real,) = next(it)
        real = real.to(device)
        all_z = torch.randn([len(phases) * 4, 8], device=device).split(4)
        all_c = torch.from_numpy(np.stack([labels[i] for i in np.random.randint(len(labels), size=8)])).to(device)
        all_c = all_c.split(4)
        for phase, z, c in zip(phases, all_z, all_c):
            phase['opt'].zero_grad()
            if phase['name'] == 'G':
                loss = D(G(z)).mean()
            else:
                loss = D(real).mean() + D(G(z).detach()).mean()
                print(loss.item())
            loss.backward()
            phase['opt'].step()
        step += 1
        if step >= 1000:
            break


if __name__ == '__main__':
    main()
