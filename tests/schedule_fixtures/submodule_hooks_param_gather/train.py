"""Forward pre-hooks on every submodule, made by a factory (a wrapper
overlapping the parameter all-gather of a sharded optimizer with the
forward, as Megatron-LM's DistributedDataParallel does).

- The wrapper registers, over `self.module.modules()`, one closure from
  `_make_forward_pre_hook()` on each submodule; the handles are kept in a
  dict keyed by the module.  The hook finds each parameter's bucket
  group in a dict keyed by the parameter and finishes its gather, which
  dispatches the gather first when it is not dispatched yet: an async
  all-gather in the forward, once a step (the dispatched flag is reset
  at the end of each step, zero_grad_buffer(); whichever submodule's hook
  comes first dispatches it, the others find it dispatched).
- The hooks are taken off (handle.remove()) before the first step and put
  back after it, taken off around each checkpoint save (every 50 steps)
  and at the end of training: taking them off gathers synchronously
  (force_sync) at the same line.  That forced gather is not the per-step
  one: the row's async_op and phase are the hooks'.
"""
import torch
import torch.distributed as dist


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 256)
        self.fc2 = torch.nn.Linear(256, 64)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Linear(32, 64)
        self.blocks = torch.nn.ModuleList([Block() for _ in range(4)])
        self.head = torch.nn.Linear(64, 8)

    def forward(self, x):
        h = self.embed(x)
        for b in self.blocks:
            h = b(h)
        return self.head(h)


class BucketGroup:
    def __init__(self, params, shard, full):
        self.params = params
        self.shard = shard
        self.full = full
        self.handle = None
        self.dispatched = False

    def start_param_sync(self, force_sync=False):
        if force_sync and self.handle is not None:
            self.handle.wait()
            self.handle = None
            return
        async_op = not force_sync
        self.handle = dist.all_gather_into_tensor(self.full, self.shard, async_op=async_op)
        self.dispatched = True

    def finish_param_sync(self):
        if not self.dispatched:
            self.start_param_sync()
        if self.handle is not None:
            self.handle.wait()
            self.handle = None


class GatherWrapper(torch.nn.Module):
    def __init__(self, module, shard, full):
        super().__init__()
        self.module = module
        self.bucket_group = BucketGroup(list(module.parameters()), shard, full)
        self.param_to_bucket_group = {}
        for param in module.parameters():
            self.param_to_bucket_group[param] = self.bucket_group
        self.hook_handles = {}
        self.enable_forward_pre_hook()

    def enable_forward_pre_hook(self):
        for module in self.module.modules():
            self.hook_handles[module] = module.register_forward_pre_hook(self._make_forward_pre_hook())

    def disable_forward_pre_hook(self, param_sync=True):
        for module in self.module.modules():
            self.hook_handles[module].remove()
            del self.hook_handles[module]
        if param_sync:
            self.bucket_group.start_param_sync(force_sync=True)

    def _make_forward_pre_hook(self):
        def hook(module, *unused):
            for param in module.parameters(recurse=False):
                if param not in self.param_to_bucket_group:
                    continue
                self.param_to_bucket_group[param].finish_param_sync()

        return hook

    def zero_grad_buffer(self):
        self.bucket_group.dispatched = False

    def forward(self, x):
        return self.module(x)


def save_checkpoint(model, step):
    model.disable_forward_pre_hook()
    torch.save(model.state_dict(), "ckpt-%d.pt" % step)
    model.enable_forward_pre_hook()


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    world = dist.get_world_size()
    shard = torch.zeros(1024, device="cuda")
    full = torch.zeros(1024 * world, device="cuda")
    model = GatherWrapper(Net().cuda(), shard, full)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.disable_forward_pre_hook(param_sync=False)
    for step in range(1000):
        x = torch.randn(16, 32, device="cuda")
        loss = model(x).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step == 0:
            model.enable_forward_pre_hook()
        if step % 50 == 0:
            save_checkpoint(model, step)
        model.zero_grad_buffer()
    model.disable_forward_pre_hook()


if __name__ == "__main__":
    main()
