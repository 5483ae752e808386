from timm.models.vision_transformer import VisionTransformer


class VisionTransformerSSL(VisionTransformer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)


def vit_tiny(**kwargs):
    return VisionTransformerSSL(patch_size=16, embed_dim=192, depth=4, num_heads=3, **kwargs)
