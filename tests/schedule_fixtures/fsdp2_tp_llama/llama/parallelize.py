"""2-D parallelism: FSDP2 over the "dp" mesh dimension, Megatron TP over "tp"."""
import torch
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def build_mesh(world_size, tp_degree):
    if world_size % tp_degree != 0:
        raise ValueError(f"world size {world_size} is not a multiple of tp={tp_degree}")
    return init_device_mesh("cuda", (world_size // tp_degree, tp_degree), mesh_dim_names=("dp", "tp"))


def apply_fsdp(model, dp_mesh, reshard_after_forward=True):
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for i, block in enumerate(model.layers):
        # the last block is resharded by the root right away: keep it gathered
        last = i == len(model.layers) - 1
        fully_shard(block, mesh=dp_mesh, mp_policy=mp, reshard_after_forward=reshard_after_forward and not last)
    fully_shard(model, mesh=dp_mesh, mp_policy=mp, reshard_after_forward=reshard_after_forward)
    return model
