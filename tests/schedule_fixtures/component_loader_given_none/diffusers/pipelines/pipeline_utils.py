import json
import os

import torch
from huggingface_hub import snapshot_download


class DiffusionPipeline:
    def register_modules(self, **kwargs):
        for name, module in kwargs.items():
            setattr(self, name, module)

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, **kwargs):
        cached_folder = snapshot_download(pretrained_model_name_or_path)
        with open(os.path.join(cached_folder, "model_index.json")) as f:
            config_dict = json.load(f)
        passed_class_obj = {k: kwargs.pop(k) for k in ("unet", "safety_checker") if k in kwargs}
        init_kwargs = {}
        for name, (library_name, class_name) in config_dict.items():
            if name in passed_class_obj:
                loaded = passed_class_obj[name]
            else:
                loaded = getattr(__import__(library_name), class_name).from_pretrained(cached_folder)
            init_kwargs[name] = loaded
        missing = set(passed_class_obj) - set(init_kwargs)
        for name in missing:
            init_kwargs[name] = passed_class_obj.get(name, None)
        return cls(**init_kwargs)

    def to(self, device):
        self.unet.to(device)
        return self
