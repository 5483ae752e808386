import torch

from .pipeline_utils import DiffusionPipeline


class ToyPipeline(DiffusionPipeline):
    def __init__(self, unet, scheduler, safety_checker, requires_safety_checker=True):
        super().__init__()
        self.register_modules(unet=unet, scheduler=scheduler, safety_checker=safety_checker)

    def run_safety_checker(self, image, device):
        if self.safety_checker is None:
            has_nsfw = None
        else:
            clip_input = torch.randn(1, 3, 8, 8).to(device)
            image, has_nsfw = self.safety_checker(images=image, clip_input=clip_input)
        return image, has_nsfw

    @torch.no_grad()
    def __call__(self, x):
        device = x.device
        out = self.unet(x)
        out, nsfw = self.run_safety_checker(out, device)
        return out.cpu()
