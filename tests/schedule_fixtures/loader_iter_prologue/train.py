# A data loader of the repository whose __iter__ is a generator: before its
# loop around the yield it synchronizes the sampler's random state across
# processes (accelerate's DataLoaderShard.__iter__ -> synchronize_rng_states),
# in a helper with a loop of its own.  That work runs once each time a pass
# over the loader starts (once an epoch), not once per batch.
import os

import torch
import torch.distributed as dist


def synchronize_rng_states(rng_types, generator):
    for rng_type in rng_types:
        state = generator.get_state()
        state = state.to("cuda")
        dist.broadcast(state, 0)
        generator.set_state(state.cpu())


class ShardedLoader:
    def __init__(self, loader, rng_types):
        self.loader = loader
        self.rng_types = rng_types
        self.generator = torch.Generator()

    def __iter__(self):
        if self.rng_types:
            synchronize_rng_states(self.rng_types, self.generator)
        for batch in self.loader:
            yield batch.to("cuda")


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = torch.nn.Linear(8, 8).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(64, 8)
    loader = ShardedLoader(torch.utils.data.DataLoader(data, batch_size=8, shuffle=True), ["generator"])
    for epoch in range(5):
        for step, batch in enumerate(loader):
            loss = model(batch).pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()


if __name__ == "__main__":
    main()
