#!/usr/bin/python3
"""record_real.py JOB.json [JOB.json ...] [--mirror DIR] -- record the truth of
a real public job of the graph corpus (tests/real/graph/<job>.json) ONCE, with
PyTorch, into the label file's "truth" member.

Dev-time tool: stdlib + Debian's python3-torch (and python3-torchvision,
python3-scipy where a job imports them), CPU only, no network.

The job's source is the bare git dir $ECG_REAL_MIRROR (default /work/.mirror)
/<owner>+<name>/repo; the label's commit is exported (git archive) into a
temporary directory, which is the "fixture" root of tests/oracle/record.py:
anchors and defined_in are relative to the repository's top.  The entry is run
as __main__ with the label's argv exactly as tests/oracle/record.py runs a
fixture (its Recorder, __new__ and __getitem__ hooks are imported and reused),
after the job's stand-ins (STANDINS below) are installed: random data files
or datasets of the right shape instead of downloads, small fake modules for
packages Debian does not ship (never for the job's own code), and random
initialisation instead of pretrained weights.  The run is stopped (an
exception raised from the module forward hook) as soon as every model of the
label has finished its first root call, so a trainer runs one forward.

Written into "truth": what record.py writes to truth.json, plus for every
module "forward": the anchor "file:Qual.forward:line" of the forward its class
runs when that forward is in the repository (line = the code object's
co_firstlineno, i.e. the first decorator's line for a decorated forward, as
profilers' python_function frames show it), else null.
"""

import json
import os
import random
import runpy
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "oracle"))

import torch                       # noqa: E402
import torch.nn as nn              # noqa: E402
import torch.nn.modules.module as nn_module_mod   # noqa: E402
import platform                    # noqa: E402

import record as R                 # noqa: E402  tests/oracle/record.py

# this file's frames (stand-in wrappers) sit between a torch call and the
# job's code that made it, like torch's own glue
R.GLUE_FILES.add(os.path.realpath(__file__))


class Stop(BaseException):
    """Raised from the forward hook once every model's first call is done."""


class StopRecorder(R.Recorder):
    direct = ()          # class names whose forward the job calls as .forward()
    patched = set()

    def on_new(self, module, cls, args, kwargs, frame):
        super().on_new(module, cls, args, kwargs, frame)
        if cls.__name__ in self.direct and cls not in self.patched:
            self.patched.add(cls)
            route_forward(cls)

    def post_hook(self, module, args, output):
        r = super().post_hook(module, args, output)
        if not self.busy and self.models and all(m.done for m in self.models):
            raise Stop()
        return r


def route_forward(cls):
    """The job calls model.forward(x) directly (llama's generate, DiT's
    forward_with_cfg), which bypasses the module hooks: route such a call
    through nn.Module.__call__ so that it is recorded as the model's root
    call.  The forward itself is unchanged (__wrapped__ leads to it)."""
    orig = cls.__dict__.get("forward") or cls.forward

    def forward(self, *a, **k):
        if self.__dict__.get("_rr_inside"):
            return orig(self, *a, **k)
        self.__dict__["_rr_inside"] = True
        try:
            return nn.Module.__call__(self, *a, **k)
        finally:
            self.__dict__["_rr_inside"] = False
    forward.__wrapped__ = orig
    cls.forward = forward


def forward_anchor(cls, files):
    fwd = getattr(cls, "forward", None)
    fwd = getattr(fwd, "__func__", fwd)
    seen = 0
    # unwrap functools.wraps decorators (torch.no_grad() etc.)
    while hasattr(fwd, "__wrapped__") and seen < 8:
        fwd, seen = fwd.__wrapped__, seen + 1
    code = getattr(fwd, "__code__", None)
    if code is None:
        return None
    rel = files.rel(code.co_filename)
    if rel is None:
        return None
    return "%s:%s:%d" % (rel, R.qualname_of(code), code.co_firstlineno)


# ---------------------------------------------------------------- stand-ins

def fake_module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__file__ = "<standin %s>" % name
    sys.modules[name] = m
    parent, _, leaf = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], leaf, m)
    return m


class RandomImages(torch.utils.data.Dataset):
    """Stand-in for a torchvision image dataset: random tensors, the
    transform is not applied (it wants PIL images)."""

    def __init__(self, shape, n, classes, target=int):
        self.shape, self.n, self.classes = shape, n, classes
        self.target = target

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.randn(*self.shape, generator=g), int(i % self.classes)


def _cifar(root=None, train=True, download=False, transform=None, **kw):
    return RandomImages((3, 32, 32), 512, 10)


def _mnist(root=None, train=True, download=False, transform=None, **kw):
    return RandomImages((1, 28, 28), 256, 10)


def standin_cifar(root):
    import io
    import torchvision
    # pytorch-cifar's utils.py asks `stty size` for the terminal's width
    orig_popen = os.popen

    def popen(cmd, *a, **k):
        if cmd.strip() == "stty size":
            return io.StringIO("24 80\n")
        return orig_popen(cmd, *a, **k)
    os.popen = popen
    torchvision.datasets.CIFAR10 = _cifar


def standin_mnist(root):
    import torchvision
    torchvision.datasets.MNIST = _mnist


def _write_bin(path, n, vocab):
    import numpy as np
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rng = np.random.default_rng(0)
    rng.integers(0, vocab, size=n, dtype=np.uint16).tofile(path)


def standin_nanogpt_char(root):
    import pickle
    d = os.path.join(root, "data", "shakespeare_char")
    _write_bin(os.path.join(d, "train.bin"), 100000, 65)
    _write_bin(os.path.join(d, "val.bin"), 20000, 65)
    chars = [chr(32 + i) for i in range(65)]
    with open(os.path.join(d, "meta.pkl"), "wb") as fh:
        pickle.dump({"vocab_size": 65, "itos": dict(enumerate(chars)),
                     "stoi": {c: i for i, c in enumerate(chars)}}, fh)


def standin_nanogpt_owt(root):
    d = os.path.join(root, "data", "openwebtext")
    _write_bin(os.path.join(d, "train.bin"), 200000, 50257)
    _write_bin(os.path.join(d, "val.bin"), 50000, 50257)


def _fake_hf_gpt2():
    """transformers.GPT2LMHeadModel.from_pretrained stand-in: a state dict of
    the shapes nanoGPT's GPT.from_pretrained asks for (its own `sd`, with the
    Conv1D weights transposed), random values: no weights are downloaded."""
    class GPT2LMHeadModel:
        @classmethod
        def from_pretrained(cls, name):
            f = sys._getframe(1)
            sd = f.f_locals["sd"]
            trans = f.f_locals.get("transposed") or [
                "attn.c_attn.weight", "attn.c_proj.weight",
                "mlp.c_fc.weight", "mlp.c_proj.weight"]
            g = torch.Generator().manual_seed(0)
            out = {}
            for k, v in sd.items():
                if k.endswith(".attn.bias"):
                    continue
                shp = tuple(v.shape)
                if any(k.endswith(w) for w in trans):
                    shp = shp[::-1]
                out[k] = torch.randn(*shp, generator=g) * 0.02
            obj = cls()
            obj._sd = out
            return obj

        def state_dict(self):
            return self._sd
    return GPT2LMHeadModel


def standin_nanogpt_sample(root):
    fake_module("transformers", GPT2LMHeadModel=_fake_hf_gpt2())



class _Enc:
    n_vocab = 50257
    eot_token = 50256
    max_token_value = 50256

    def decode_bytes(self, ids):
        return bytes(32 + (i % 90) for i in ids)

    def encode(self, s, allowed_special=None):
        return [ord(c) % 50257 for c in s] or [0]

    def decode(self, ids):
        return "".join(chr(32 + (i % 90)) for i in ids)


def _install_tiktoken():
    fake_module("tiktoken", get_encoding=lambda name: _Enc())
    sys.modules["tiktoken_standin"] = sys.modules["tiktoken"]


def standin_mingpt_char(root):
    d = os.path.join(root, "projects", "chargpt")
    rng = random.Random(0)
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ,.\n") for _ in range(20000))
    with open(os.path.join(d, "input.txt"), "w") as fh:
        fh.write(text)


def standin_llmc(root):
    """llm.c train_gpt2.py: torch._inductor (torch >= 2.0) imported at the
    top for its config; a token shard with llm.c's header (magic 20240520,
    version 1, token count) at the default --input_bin; HF GPT-2 weights as
    for nanoGPT's from_pretrained (random, no download)."""
    import numpy as np
    import importlib
    try:
        importlib.import_module("torch._inductor.config")
    except ImportError:
        fake_module("torch._inductor", __path__=[])
        fake_module("torch._inductor.config")
        torch._inductor = sys.modules["torch._inductor"]
    fake_module("transformers", GPT2LMHeadModel=_fake_hf_gpt2())
    # torch >= 2.1's init.normal_(..., generator=): the values only
    import inspect
    if "generator" not in inspect.signature(nn.init.normal_).parameters:
        orig = nn.init.normal_

        def normal_(tensor, mean=0.0, std=1.0, generator=None):
            return orig(tensor, mean, std)
        nn.init.normal_ = normal_
    path = os.path.join(root, "dev", "data", "tinyshakespeare", "tiny_shakespeare_val.bin")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    n = 40000
    header = np.zeros(256, dtype=np.int32)
    header[0], header[1], header[2] = 20240520, 1, n
    toks = np.random.default_rng(0).integers(0, 50257, size=n, dtype=np.uint16)
    with open(path, "wb") as fh:
        fh.write(header.tobytes())
        fh.write(toks.tobytes())


def _fake_timm_032():
    """timm 0.3.2's vision_transformer PatchEmbed / Block (Attention, Mlp)
    and optim_factory.add_weight_decay, as MAE imports them (timm is not
    packaged): the same children and forward; external, so not judged."""
    import torch.nn.functional as F  # noqa: F401

    class PatchEmbed(nn.Module):
        def __init__(self, img_size=224, patch_size=16, in_chans=3, embed_dim=768):
            super().__init__()
            img_size, patch_size = (img_size, img_size), (patch_size, patch_size)
            self.img_size, self.patch_size = img_size, patch_size
            self.num_patches = (img_size[1] // patch_size[1]) * (img_size[0] // patch_size[0])
            self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

        def forward(self, x):
            return self.proj(x).flatten(2).transpose(1, 2)

    class Mlp(nn.Module):
        def __init__(self, in_features, hidden_features=None, out_features=None,
                     act_layer=nn.GELU, drop=0.):
            super().__init__()
            out_features = out_features or in_features
            hidden_features = hidden_features or in_features
            self.fc1 = nn.Linear(in_features, hidden_features)
            self.act = act_layer()
            self.fc2 = nn.Linear(hidden_features, out_features)
            self.drop = nn.Dropout(drop)

        def forward(self, x):
            x = self.drop(self.act(self.fc1(x)))
            return self.drop(self.fc2(x))

    class Attention(nn.Module):
        def __init__(self, dim, num_heads=8, qkv_bias=False, qk_scale=None, attn_drop=0., proj_drop=0.):
            super().__init__()
            self.num_heads = num_heads
            self.scale = qk_scale or (dim // num_heads) ** -0.5
            self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
            self.attn_drop = nn.Dropout(attn_drop)
            self.proj = nn.Linear(dim, dim)
            self.proj_drop = nn.Dropout(proj_drop)

        def forward(self, x):
            B, N, C = x.shape
            qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            attn = (q @ k.transpose(-2, -1)) * self.scale
            attn = self.attn_drop(attn.softmax(dim=-1))
            x = (attn @ v).transpose(1, 2).reshape(B, N, C)
            return self.proj_drop(self.proj(x))

    class Block(nn.Module):
        def __init__(self, dim, num_heads, mlp_ratio=4., qkv_bias=False, qk_scale=None, drop=0.,
                     attn_drop=0., drop_path=0., act_layer=nn.GELU, norm_layer=nn.LayerNorm):
            super().__init__()
            self.norm1 = norm_layer(dim)
            self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias, qk_scale=qk_scale,
                                  attn_drop=attn_drop, proj_drop=drop)
            self.drop_path = nn.Identity()
            self.norm2 = norm_layer(dim)
            self.mlp = Mlp(in_features=dim, hidden_features=int(dim * mlp_ratio),
                           act_layer=act_layer, drop=drop)

        def forward(self, x):
            x = x + self.drop_path(self.attn(self.norm1(x)))
            return x + self.drop_path(self.mlp(self.norm2(x)))

    for c in (PatchEmbed, Mlp, Attention, Block):
        c.__module__ = "timm.models.vision_transformer"
        c.__qualname__ = c.__name__

    def add_weight_decay(model, weight_decay=1e-5, skip_list=()):
        decay, no_decay = [], []
        for name, param in model.named_parameters():
            if not param.requires_grad:
                continue
            if len(param.shape) == 1 or name.endswith(".bias") or name in skip_list:
                no_decay.append(param)
            else:
                decay.append(param)
        return [{"params": no_decay, "weight_decay": 0.},
                {"params": decay, "weight_decay": weight_decay}]
    fake_module("timm", __path__=[], __version__="0.3.2")
    fake_module("timm.models", __path__=[])
    fake_module("timm.models.vision_transformer", PatchEmbed=PatchEmbed, Block=Block,
                Attention=Attention, Mlp=Mlp)
    fake_module("timm.optim", __path__=[])
    fake_module("timm.optim.optim_factory", add_weight_decay=add_weight_decay)


def standin_mae(root):
    """MAE main_pretrain.py: timm 0.3.2 (not packaged), tensorboard's
    SummaryWriter (not installed: a no-op writer), and a tiny ImageFolder."""
    _fake_timm_032()
    import numpy as np
    if not hasattr(np, "float"):
        np.float = float       # util/pos_embed.py uses the alias numpy 1.24 removed
    try:
        import importlib
        importlib.import_module("torch.utils.tensorboard")
    except ImportError:
        fake_module("torch.utils.tensorboard", SummaryWriter=_Anything)
    standin_imagefolder(root)


def _install_sdpa():
    """F.scaled_dot_product_attention (torch >= 2.0) for torch 1.13: the
    same math, dispatched through __torch_function__ like a torch function
    so that the recorder sees one op torch.nn.functional.
    scaled_dot_product_attention at the caller's line."""
    import math
    import torch.nn.functional as F
    if hasattr(F, "scaled_dot_product_attention"):
        return
    from torch.overrides import has_torch_function, handle_torch_function

    def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                     is_causal=False, scale=None):
        if has_torch_function((query, key, value)):
            return handle_torch_function(
                scaled_dot_product_attention, (query, key, value), query, key, value,
                attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal, scale=scale)
        L, S = query.size(-2), key.size(-2)
        s = scale if scale is not None else 1 / math.sqrt(query.size(-1))
        att = query @ key.transpose(-2, -1) * s
        if is_causal:
            att = att.masked_fill(torch.ones(L, S, dtype=torch.bool).tril().logical_not(),
                                  float("-inf"))
        if attn_mask is not None:
            att = att.masked_fill(attn_mask.logical_not(), float("-inf")) \
                if attn_mask.dtype == torch.bool else att + attn_mask
        att = torch.softmax(att, dim=-1)
        if dropout_p > 0:
            att = torch.dropout(att, dropout_p, True)
        return att @ value
    scaled_dot_product_attention.__module__ = "torch.nn.functional"
    scaled_dot_product_attention.__qualname__ = "scaled_dot_product_attention"
    F.scaled_dot_product_attention = scaled_dot_product_attention


def standin_minrf(root):
    """minRF rf.py: no GPU here, so .cuda() of a module or a tensor stays on
    the CPU (only placement changes); MNIST as random tensors of the shape
    its transform gives (Pad(2): 1x32x32); wandb is not installed (a no-op);
    F.scaled_dot_product_attention for torch 1.13 (_install_sdpa)."""
    import torchvision
    torchvision.datasets.MNIST = lambda *a, **k: RandomImages((1, 32, 32), 256, 10)
    _install_sdpa()
    from torch.overrides import has_torch_function, handle_torch_function

    def cuda(self, *a, **k):
        # still one op Tensor.cuda at the caller's line for the recorder
        if has_torch_function((self,)):
            return handle_torch_function(cuda, (self,), self, *a, **k)
        return self
    cuda.__module__, cuda.__qualname__ = "Tensor", "cuda"
    torch.Tensor.cuda = cuda
    nn.Module.cuda = lambda self, *a, **k: self
    fake_module("wandb", init=lambda *a, **k: None, log=lambda *a, **k: None)


def standin_yolo(root):
    """PyTorch-YOLOv3 train.py: imgaug, terminaltables, torchsummary and
    tensorboard are not installed (do-nothing modules: the augmentation
    pipeline is built but never run); ListDataset is replaced by random
    images and boxes of its shape (3 x img_size x img_size, targets
    [sample, class, x, y, w, h]), and its collate_fn keeps one image of the
    batch (the forward's structure does not depend on the batch size; a
    16-image YOLOv3 forward is minutes on one CPU thread)."""
    for name in ("imgaug", "imgaug.augmenters", "imgaug.augmentables",
                 "imgaug.augmentables.bbs"):
        fake_module(name, __path__=[], __getattr__=lambda k: _Anything())
    fake_module("terminaltables", AsciiTable=_Anything)
    fake_module("torchsummary", summary=lambda *a, **k: None)
    try:
        import importlib
        importlib.import_module("torch.utils.tensorboard")
    except ImportError:
        fake_module("torch.utils.tensorboard", SummaryWriter=_Anything)
    import pytorchyolo.utils.datasets as ds

    class ListDataset(torch.utils.data.Dataset):
        def __init__(self, list_path, img_size=416, multiscale=True, transform=None):
            self.img_size = img_size

        def __len__(self):
            return 4

        def __getitem__(self, i):
            g = torch.Generator().manual_seed(i)
            img = torch.rand(3, self.img_size, self.img_size, generator=g)
            boxes = torch.rand(3, 6, generator=g) * 0.5 + 0.25
            boxes[:, 1] = torch.randint(0, 80, (3,), generator=g).float()
            return "img%d.jpg" % i, img, boxes

        def collate_fn(self, batch):
            paths, imgs, targets = zip(*batch[:1])
            for i, b in enumerate(targets):
                b[:, 0] = i
            return paths, torch.stack(imgs), torch.cat(targets, 0)
    ds.ListDataset = ListDataset


def standin_none(root):
    pass


def _cifar224(root=None, train=True, download=False, transform=None, **kw):
    return RandomImages((3, 224, 224), 64, 10)


def standin_cifar224(root):
    import torchvision
    torchvision.datasets.CIFAR10 = _cifar224
    torchvision.datasets.CIFAR100 = _cifar224


class _Anything:
    """A stand-in object: any attribute is another one, calls return one."""
    def __init__(self, *a, **k):
        pass

    def __getattr__(self, name):
        return _Anything()

    def __call__(self, *a, **k):
        return _Anything()


def standin_vit_pytorch(root):
    # apex (NVIDIA, not packaged): only used with --fp16 / distributed runs
    fake_module("apex", amp=_Anything())
    fake_module("apex.parallel", DistributedDataParallel=_Anything)
    sys.modules["apex"].parallel = sys.modules["apex.parallel"]
    # tensorboard's writer (not packaged for this torch)
    fake_module("torch.utils.tensorboard", SummaryWriter=_Anything)

    class ConfigDict(dict):
        def __getattr__(self, k):
            try:
                return self[k]
            except KeyError:
                raise AttributeError(k)

        def __setattr__(self, k, v):
            self[k] = v

        def __delattr__(self, k):
            try:
                del self[k]
            except KeyError:
                raise AttributeError(k)
    fake_module("ml_collections", ConfigDict=ConfigDict)
    standin_cifar224(root)
    # no pretrained .npz: load_from only copies weights into the modules the
    # constructor built, so it is skipped (random init)
    import models.modeling as mm
    mm.VisionTransformer.load_from = lambda self, weights: None
    import numpy as np
    os.makedirs(os.path.join(root, "checkpoint"), exist_ok=True)
    np.savez(os.path.join(root, "checkpoint", "ViT-B_16.npz"))


class _COCOLike(torch.utils.data.Dataset):
    def __init__(self, n=8):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        h, w = 320 + 32 * (i % 3), 384
        img = torch.randn(3, h, w, generator=g)
        k = 3
        boxes = torch.rand(k, 4, generator=g) * 0.5 + 0.25
        target = {"boxes": boxes, "labels": torch.randint(1, 91, (k,), generator=g),
                  "image_id": torch.tensor([i]), "orig_size": torch.tensor([h, w]),
                  "size": torch.tensor([h, w]), "area": torch.ones(k),
                  "iscrowd": torch.zeros(k, dtype=torch.int64)}
        return img, target


def standin_detr(root):
    # pycocotools is only used by the data pipeline and the evaluator
    fake_module("pycocotools", __path__=[])
    fake_module("pycocotools.mask", encode=_Anything(), decode=_Anything(),
                frPyObjects=_Anything(), area=_Anything(), toBbox=_Anything())
    fake_module("pycocotools.coco", COCO=_Anything)
    fake_module("pycocotools.cocoeval", COCOeval=_Anything)
    import torchvision.models as tvm
    orig = tvm.resnet50

    def resnet50(*a, **k):
        k["pretrained"] = False        # no download: random init
        return orig(*a, **k)
    tvm.resnet50 = resnet50
    import datasets as ds
    ds.build_dataset = lambda image_set, args: _COCOLike()
    ds.get_coco_api_from_dataset = lambda d: None


def standin_guided_diffusion(root):
    class Comm:
        rank, size = 0, 1

        def Get_rank(self):
            return 0

        def Get_size(self):
            return 1

        def bcast(self, v, root=0):
            return v

        def allreduce(self, v, op=None):
            return v

        def barrier(self):
            pass
    fake_module("mpi4py", __path__=[])
    fake_module("mpi4py.MPI", COMM_WORLD=Comm(), SUM=None)
    sys.modules["mpi4py"].MPI = sys.modules["mpi4py.MPI"]
    fake_module("blobfile", join=os.path.join, exists=os.path.exists,
                dirname=os.path.dirname, basename=os.path.basename,
                BlobFile=open, listdir=os.listdir, isdir=os.path.isdir,
                makedirs=lambda p: os.makedirs(p, exist_ok=True))
    os.environ["OPENAI_LOGDIR"] = os.path.join(root, ".logs")
    import guided_diffusion.image_datasets as gd

    def load_data(*, data_dir, batch_size, image_size, class_cond=False, **kw):
        g = torch.Generator().manual_seed(0)
        while True:
            x = torch.randn(batch_size, 3, image_size, image_size, generator=g)
            cond = {}
            if class_cond:
                cond["y"] = torch.randint(0, 1000, (batch_size,), generator=g)
            yield x, cond
    gd.load_data = load_data


def standin_wikitext(root):
    d = os.path.join(root, "word_language_model", "data", "wikitext-2")
    rng = random.Random(0)
    words = ["w%d" % i for i in range(2000)]
    for name, n in (("train.txt", 3000), ("valid.txt", 400), ("test.txt", 400)):
        path = os.path.join(d, name)
        if os.path.exists(path):
            continue
        with open(path, "w") as fh:
            for _ in range(n):
                fh.write(" " + " ".join(rng.choice(words) for _ in range(12)) + " \n")


def _fake_fairscale():
    """fairscale's model-parallel layers for one process: the same
    parameters and the same F.linear / F.embedding as fairscale does with a
    model-parallel world of 1 (fairscale is not packaged)."""
    import torch.nn.functional as F

    class ColumnParallelLinear(nn.Module):
        def __init__(self, in_features, out_features, bias=True, gather_output=True,
                     init_method=None, stride=1, keep_master_weight_for_test=False):
            super().__init__()
            self.in_features, self.out_features = in_features, out_features
            self.weight = nn.Parameter(torch.empty(out_features, in_features))
            nn.init.normal_(self.weight, std=0.02)
            self.bias = nn.Parameter(torch.zeros(out_features)) if bias else None

        def forward(self, x):
            return F.linear(x, self.weight, self.bias)

    class RowParallelLinear(ColumnParallelLinear):
        def __init__(self, in_features, out_features, bias=True, input_is_parallel=False,
                     init_method=None, stride=1, keep_master_weight_for_test=False):
            super().__init__(in_features, out_features, bias)

    class ParallelEmbedding(nn.Module):
        def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                     norm_type=2.0, scale_grad_by_freq=False, sparse=False,
                     init_method=None, keep_master_weight_for_test=False):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(num_embeddings, embedding_dim) * 0.02)

        def forward(self, x):
            return F.embedding(x, self.weight)

    for c in (ColumnParallelLinear, RowParallelLinear, ParallelEmbedding):
        c.__module__ = "fairscale.nn.model_parallel.layers"
        c.__qualname__ = c.__name__
    fake_module("fairscale", __path__=[])
    fake_module("fairscale.nn", __path__=[])
    fake_module("fairscale.nn.model_parallel", __path__=[])
    state = {"init": False}

    def initialize_model_parallel(n, *a, **k):
        state["init"] = True
    fake_module("fairscale.nn.model_parallel.initialize",
                initialize_model_parallel=initialize_model_parallel,
                model_parallel_is_initialized=lambda: state["init"],
                get_model_parallel_rank=lambda: 0,
                get_model_parallel_world_size=lambda: 1)
    fake_module("fairscale.nn.model_parallel.layers", ColumnParallelLinear=ColumnParallelLinear,
                RowParallelLinear=RowParallelLinear, ParallelEmbedding=ParallelEmbedding)


class _SPM:
    """sentencepiece processor stand-in (no tokenizer.model): Llama 2's
    vocabulary size and special ids, a byte-level encoding."""
    def __init__(self, model_file=None, **k):
        pass

    def vocab_size(self):
        return 32000

    get_piece_size = vocab_size

    def bos_id(self):
        return 1

    def eos_id(self):
        return 2

    def pad_id(self):
        return -1

    def encode(self, s):
        # one id a word (the prompts fit max_seq_len as with the real
        # tokenizer; their lengths differ from its)
        return [3 + sum(w.encode()) % 31997 for w in s.split()]

    def decode(self, t):
        return "".join(chr(32 + (i % 90)) for i in t if i >= 3)


def standin_llama(root):
    _fake_fairscale()
    fake_module("sentencepiece", SentencePieceProcessor=_SPM)
    ck = os.path.join(root, "llama-2-tiny")
    os.makedirs(ck, exist_ok=True)
    torch.save({}, os.path.join(ck, "consolidated.00.pth"))
    with open(os.path.join(ck, "params.json"), "w") as fh:
        json.dump({"dim": 256, "multiple_of": 64, "n_heads": 4, "n_layers": 3,
                   "norm_eps": 1e-05, "vocab_size": -1}, fh)
    with open(os.path.join(root, "tokenizer.model"), "wb") as fh:
        fh.write(b"")
    # one process, no GPU: a gloo group of one instead of nccl; cuda calls
    # that only place tensors become no-ops
    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    if not dist.is_initialized():
        dist.init_process_group("gloo", rank=0, world_size=1)
    torch.cuda.set_device = lambda *a, **k: None
    torch.Tensor.cuda = lambda self, *a, **k: self
    orig = torch.set_default_tensor_type

    def set_default_tensor_type(t):
        if "cuda" in str(t):
            return orig(torch.FloatTensor)
        return orig(t)
    torch.set_default_tensor_type = set_default_tensor_type

    def on_cpu(f):
        def g(*a, **k):
            if str(k.get("device", "")).startswith("cuda"):
                k["device"] = "cpu"
            return f(*a, **k)
        return g
    for n in ("full", "tensor", "zeros", "ones", "arange", "empty"):
        setattr(torch, n, on_cpu(getattr(torch, n)))


def standin_llama2c(root):
    """llama2.c train.py: the pretokenized TinyStories shards it globs at
    data/TinyStories_all_data/*.bin (random uint16 tokens below 32000, shard
    0 is the val split, the others train); sentencepiece and tqdm, imported
    at tinystories.py's top and not packaged, as fakes (no tokenizer is
    used by training); F.scaled_dot_product_attention for torch 1.13
    (_install_sdpa), so Attention.flash is True as with torch >= 2.0."""
    d = os.path.join(root, "data", "TinyStories_all_data")
    for i in range(3):
        _write_bin(os.path.join(d, "data%02d.bin" % i), 256 * 40, 32000)
    fake_module("sentencepiece", SentencePieceProcessor=_SPM)
    fake_module("tqdm", tqdm=lambda it=None, *a, **k: it)
    _install_sdpa()


def standin_dit(root):
    import torch.nn.functional as F

    class PatchEmbed(nn.Module):
        def __init__(self, img_size=224, patch_size=16, in_chans=3, embed_dim=768,
                     norm_layer=None, flatten=True, bias=True):
            super().__init__()
            img = (img_size, img_size)
            self.patch_size = (patch_size, patch_size)
            self.grid_size = (img[0] // patch_size, img[1] // patch_size)
            self.num_patches = self.grid_size[0] * self.grid_size[1]
            self.flatten = flatten
            self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size,
                                  stride=patch_size, bias=bias)
            self.norm = norm_layer(embed_dim) if norm_layer else nn.Identity()

        def forward(self, x):
            x = self.proj(x)
            if self.flatten:
                x = x.flatten(2).transpose(1, 2)
            return self.norm(x)

    class Attention(nn.Module):
        def __init__(self, dim, num_heads=8, qkv_bias=False, attn_drop=0., proj_drop=0.):
            super().__init__()
            self.num_heads = num_heads
            self.scale = (dim // num_heads) ** -0.5
            self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
            self.attn_drop = nn.Dropout(attn_drop)
            self.proj = nn.Linear(dim, dim)
            self.proj_drop = nn.Dropout(proj_drop)

        def forward(self, x):
            B, N, C = x.shape
            qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
            q, k, v = qkv.unbind(0)
            attn = (q @ k.transpose(-2, -1)) * self.scale
            attn = self.attn_drop(attn.softmax(dim=-1))
            x = (attn @ v).transpose(1, 2).reshape(B, N, C)
            return self.proj_drop(self.proj(x))

    class Mlp(nn.Module):
        def __init__(self, in_features, hidden_features=None, out_features=None,
                     act_layer=nn.GELU, bias=True, drop=0.):
            super().__init__()
            out_features = out_features or in_features
            hidden_features = hidden_features or in_features
            self.fc1 = nn.Linear(in_features, hidden_features, bias=bias)
            self.act = act_layer()
            self.drop1 = nn.Dropout(drop)
            self.fc2 = nn.Linear(hidden_features, out_features, bias=bias)
            self.drop2 = nn.Dropout(drop)

        def forward(self, x):
            return self.drop2(self.fc2(self.drop1(self.act(self.fc1(x)))))

    for c in (PatchEmbed, Attention, Mlp):
        c.__module__ = "timm.models.vision_transformer"
        c.__qualname__ = c.__name__
    fake_module("timm", __path__=[])
    fake_module("timm.models", __path__=[])
    fake_module("timm.models.vision_transformer", PatchEmbed=PatchEmbed,
                Attention=Attention, Mlp=Mlp)
    fake_module("diffusers", __path__=[])
    class AutoencoderKL(_Anything):
        @classmethod
        def from_pretrained(cls, *a, **k):
            return _Anything()
    fake_module("diffusers.models", AutoencoderKL=AutoencoderKL)
    import download

    def find_model(path):
        # no checkpoint: the model's own (random) weights
        return sys._getframe(1).f_locals["model"].state_dict()
    download.find_model = find_model


def standin_imagefolder(root):
    """A tiny ImageFolder (2 classes x 4 PNGs, 64x64) at data/imagenet/
    {train,validation}: the job's own data pipeline reads it."""
    from PIL import Image
    import numpy as np
    rng = np.random.default_rng(0)
    for split in ("train", "validation"):
        for c in ("n01440764", "n01443537"):
            d = os.path.join(root, "data", "imagenet", split, c)
            os.makedirs(d, exist_ok=True)
            for i in range(4):
                a = rng.integers(0, 255, size=(64, 64, 3), dtype=np.uint8)
                Image.fromarray(a).save(os.path.join(d, "%d.png" % i))


def standin_neural_style(root):
    standin_imagefolder(root)
    if not hasattr(torch, "accelerator"):
        # torch >= 2.6's device-neutral API, asked unconditionally; no
        # accelerator here
        torch.accelerator = types.SimpleNamespace(is_available=lambda: False)
    import torchvision.models as tvm
    orig = tvm.vgg16

    def vgg16(*a, **k):
        k["weights"] = None            # no download: random init
        return orig(*a, **k)
    tvm.vgg16 = vgg16
    style = os.path.join(root, "fast_neural_style", "images", "style-images", "mosaic.jpg")
    if not os.path.exists(style):      # blob absent from the mirror
        from PIL import Image
        import numpy as np
        a = np.random.default_rng(1).integers(0, 255, size=(96, 96, 3), dtype=np.uint8)
        Image.fromarray(a).save(style, format="JPEG")


STANDINS = {
    "neural_style": standin_neural_style,
    "imagefolder": standin_imagefolder,
    "llama": standin_llama,
    "llama2c": standin_llama2c,
    "dit": standin_dit,
    "wikitext": standin_wikitext,
    "cifar": standin_cifar,
    "mnist": standin_mnist,
    "nanogpt_char": standin_nanogpt_char,
    "nanogpt_owt": standin_nanogpt_owt,
    "nanogpt_sample": standin_nanogpt_sample,
    "mingpt_char": standin_mingpt_char,
    "none": standin_none,
    "llmc": standin_llmc,
    "mae": standin_mae,
    "minrf": standin_minrf,
    "yolo": standin_yolo,
    "cifar224": standin_cifar224,
    "vit_pytorch": standin_vit_pytorch,
    "detr": standin_detr,
    "guided_diffusion": standin_guided_diffusion,
}


# ---------------------------------------------------------------- run

def export(src, commit, dst):
    """Write the commit's files under dst (blobs absent from the mirror,
    such as large data files, are skipped and named on stderr)."""
    ls = subprocess.run(["git", "--git-dir", src, "ls-tree", "-r", "-z", commit],
                        check=True, stdout=subprocess.PIPE).stdout.split(b"\0")
    items = []
    for rec in ls:
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            items.append((mode, sha.decode(), path.decode()))
    p = subprocess.Popen(["git", "--git-dir", src, "cat-file", "--batch"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for mode, sha, path in items:
        p.stdin.write(sha.encode() + b"\n")
        p.stdin.flush()
        head = p.stdout.readline().split()
        if len(head) < 3:
            sys.stderr.write("record_real.py: %s absent from the mirror, skipped\n" % path)
            continue
        data = p.stdout.read(int(head[2]))
        p.stdout.read(1)
        full = os.path.join(dst, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if mode == b"120000":
            continue
        with open(full, "wb") as fh:
            fh.write(data)
    p.stdin.close()
    p.wait()


def source_dir(mirror, repo):
    d = os.path.join(mirror, repo.replace("/", "+"))
    return os.path.join(d, "repo") if os.path.isdir(os.path.join(d, "repo")) else d


def record(label_path, mirror):
    job = os.path.basename(label_path)[:-len(".json")]
    tmp = tempfile.mkdtemp(prefix="ecg-real-%s-" % job)
    try:
        return _record(label_path, mirror, job, tmp)
    finally:
        os.chdir("/")
        subprocess.run(["rm", "-rf", tmp])


def _record(label_path, mirror, job, tmp):
    with open(label_path) as fh:
        label = json.load(fh)
    src = source_dir(mirror, label["repo"])
    export(src, label["commit"], tmp)
    root = os.path.realpath(tmp)
    entry = label["entry"]
    argv = list(label.get("argv", []))
    models_spec = label["models"]

    sys.dont_write_bytecode = True
    os.chdir(os.path.join(root, label.get("cwd", ".")))
    sys.path[0] = os.path.dirname(os.path.join(root, entry))
    for p in label.get("pythonpath", []):
        sys.path.insert(1, os.path.join(root, p))
    _install_tiktoken()
    for name in label.get("standins", ["none"]):
        STANDINS[name](root)
    sys.argv = [entry] + argv
    torch.manual_seed(0)
    random.seed(0)
    try:
        import numpy
        numpy.random.seed(0)
    except ImportError:
        pass
    torch.set_num_threads(1)

    # installed libraries the job reads (the label's "site", absolute):
    # their frames are anchored "site:<path>", their classes are read ones
    sites = list(label.get("site", []))
    missing = [r for r in label.get("requires", [])
               if not any(os.path.isdir(os.path.join(d, r)) for d in sites)]
    if missing:
        sys.stderr.write("record_real.py: %s: %s not installed in %s\n" % (job, " ".join(missing), " ".join(sites)))
        return 1
    rec = StopRecorder(root, models_spec, sites)
    rec.direct = tuple(label.get("direct_forward", ()))
    restore_new = R.install_new(rec)
    orig_getitem = R.install_getitem(rec)
    h1 = nn_module_mod.register_module_forward_pre_hook(rec.pre_hook)
    h2 = nn_module_mod.register_module_forward_hook(rec.post_hook)
    stopped = False
    try:
        with rec:
            try:
                runpy.run_path(os.path.join(root, entry), run_name="__main__")
            except SystemExit as e:
                if e.code not in (None, 0):
                    raise
            except Stop:
                stopped = True
    finally:
        h1.remove()
        h2.remove()
        torch.Tensor.__getitem__ = orig_getitem
        restore_new()

    models = []
    for m in rec.models:
        if m.root is None:
            sys.stderr.write("record_real.py: %s: model %r (class %s) was never called\n"
                             % (job, m.name, m.cls_name))
            return 1
        calls = []
        for c in m.calls:
            c = dict(c)
            del c["_obj"]
            calls.append(c)
        table = R.module_table(rec, m)
        for row, (path, sub) in zip(table, m.modules):
            row["forward"] = forward_anchor(type(sub), rec.files)
        models.append({
            "name": m.name if m.prefixed else "",
            "class": R.class_label(type(m.root), rec.files),
            "wrapped_by": m.wrapped_by,
            "training": getattr(m, "training", None),
            "grad_enabled": getattr(m, "grad", None),
            "forward_calls_in_job": m.job_calls,
            "modules": table,
            "calls": calls,
        })
    truth = {
        "fixture": job,
        "truth_format": "ecg.truth/1",
        "recorded_with": {"torch": torch.__version__,
                          "python": platform.python_version(),
                          "threads": 1},
        "entry": entry,
        "argv": argv,
        "stopped_after_first_call": stopped,
        "models": models,
        "other_roots": [{"class": k, "calls": v} for k, v in sorted(rec.other_roots.items())],
    }
    label["truth"] = truth
    text = json.dumps(label, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    tmpf = label_path + ".tmp"
    with open(tmpf, "w") as fh:
        fh.write(text)
    os.replace(tmpf, label_path)
    for mm in models:
        nops = sum(1 for c in mm["calls"] for s in c["seq"] if s["kind"] == "op")
        sys.stderr.write("record_real.py: %s model %r %s: %d modules, %d module calls, %d op records\n"
                         % (job, mm["name"], mm["class"], len(mm["modules"]), len(mm["calls"]), nops))
    return 0


def main(argv):
    mirror = os.environ.get("ECG_REAL_MIRROR", "/work/.mirror")
    paths = []
    i = 0
    while i < len(argv):
        if argv[i] == "--mirror":
            mirror = argv[i + 1]
            i += 2
            continue
        paths.append(argv[i])
        i += 1
    if len(paths) != 1:
        sys.stderr.write("usage: record_real.py JOB.json [--mirror DIR]  (one job per process)\n")
        return 2
    return record(os.path.realpath(paths[0]), mirror)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
