# A GAN's step made by a factory and called later (BigGAN's train_fns):
# the discriminator's steps in a loop of their own (each accumulating over
# micro-batches), then the generator's step after that loop, in the same
# call.  The loop over the loader's batches is the step; D's loop is a part
# of it, so the reads after it run every step, not once.
import torch


def training_function(G, D, G_opt, D_opt, num_D_steps, num_accum):
    def train(x):
        for step_index in range(num_D_steps):
            D_opt.zero_grad()
            for accumulation_index in range(num_accum):
                z = torch.randn(4, 8, device='cuda')
                D_loss = D(x).mean() - D(G(z).detach()).mean()
                D_loss.backward()
            D_opt.step()
        G_opt.zero_grad()
        z = torch.randn(4, 8, device='cuda')
        G_loss = -D(G(z)).mean()
        G_loss.backward()
        G_opt.step()
        return {'G_loss': float(G_loss.item()), 'D_loss': float(D_loss.item())}
    return train


def main():
    G = torch.nn.Linear(8, 8).to('cuda')
    D = torch.nn.Linear(8, 1).to('cuda')
    G_opt = torch.optim.Adam(G.parameters())
    D_opt = torch.optim.Adam(D.parameters())
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 8)), batch_size=4)
    train = training_function(G, D, G_opt, D_opt, 1, 2)
    for epoch in range(10):
        for i, (x,) in enumerate(loader):
            x = x.to('cuda')
            metrics = train(x)
            print(i, metrics['G_loss'])


if __name__ == '__main__':
    main()
