from .model import ModelArgs, Transformer
from .parallelize import apply_fsdp, build_mesh

__all__ = ["ModelArgs", "Transformer", "apply_fsdp", "build_mesh"]
