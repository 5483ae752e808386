#!/usr/bin/python3
"""Generate a synthetic PyTorch-style git repository for the benchmark.

    gen_repo.py [--files N] [--seed S] DEST

Writes N .py files (nn.Module classes with forward methods, dataclass
configs, training loops, data pipelines, argparse entry points) plus a few
non-Python files, then commits them with the git CLI under a fixed author,
committer and date, and packs the objects as a fetched repository would have
them.  The same N, seed and GENERATOR_VERSION give the same files and the same
commit sha.  Sizes are drawn from a log-normal (median about 5 KB) clamped to
1-40 KB; 2000 files come to about 16 MB.

A few files carry what real repositories carry: CRLF line ends, a UTF-8 BOM,
tab indentation, non-ASCII comments, a latin-1 file with a PEP 263 cookie.
Every generated .py file parses with CPython 3.10 and later (match, :=).

stdlib only; a development tool, not part of ecg.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys

# Bump when the generated content changes, so that cached repositories are
# not mistaken for the new ones (run.py puts it in the cache directory name).
GENERATOR_VERSION = 2
DEFAULT_SEED = 20240601

MIN_SIZE = 1024
MAX_SIZE = 40 * 1024

GIT_ENV = {
    "GIT_AUTHOR_NAME": "ecg bench",
    "GIT_AUTHOR_EMAIL": "bench@ecg.invalid",
    "GIT_AUTHOR_DATE": "2024-06-01T12:00:00+00:00",
    "GIT_COMMITTER_NAME": "ecg bench",
    "GIT_COMMITTER_EMAIL": "bench@ecg.invalid",
    "GIT_COMMITTER_DATE": "2024-06-01T12:00:00+00:00",
    # No user or system configuration: no hooks, no signing, no autocrlf.
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}

WORDS_A = ["Causal", "Self", "Cross", "Multi", "Patch", "Token", "Pos", "Spatial",
           "Temporal", "Vision", "Text", "Audio", "Gated", "Sparse", "Dense", "Local",
           "Global", "Residual", "Conv", "Depthwise", "Pointwise", "Rotary", "Latent",
           "Fused", "Shared", "Adaptive", "Dilated", "Mixed", "Window", "Shifted"]
WORDS_B = ["Attention", "Block", "MLP", "Encoder", "Decoder", "Embedding", "Head",
           "Proj", "Norm", "Router", "Expert", "Pool", "Upsample", "Downsample",
           "Stem", "Stage", "Layer", "Mixer", "Gate", "Fusion", "Adapter", "Bottleneck",
           "Transformer", "Backbone", "Neck", "Classifier", "Predictor", "Tokenizer"]
FIELDS = ["n_layer", "n_head", "n_embd", "block_size", "vocab_size", "dropout",
          "bias", "hidden_dim", "num_classes", "in_channels", "out_channels",
          "kernel_size", "stride", "padding", "num_experts", "top_k", "window_size",
          "mlp_ratio", "patch_size", "img_size", "depth", "drop_path", "eps",
          "rope_theta", "max_seq_len", "n_kv_head", "intermediate_size", "groups"]
TRAIN_FIELDS = ["batch_size", "learning_rate", "weight_decay", "max_iters",
                "warmup_iters", "lr_decay_iters", "min_lr", "beta1", "beta2",
                "grad_clip", "log_interval", "eval_interval", "eval_iters",
                "gradient_accumulation_steps", "num_workers", "seed", "epochs",
                "save_every", "compile", "dtype", "device", "out_dir"]
LAYERS = [
    "nn.Linear({a}, {b}, bias={bias})",
    "nn.LayerNorm({a}, eps={eps})",
    "nn.Dropout({p})",
    "nn.GELU()",
    "nn.SiLU()",
    "nn.ReLU(inplace=True)",
    "nn.Conv2d({a}, {b}, kernel_size={k}, stride={s}, padding={pd})",
    "nn.BatchNorm2d({b})",
    "nn.Embedding({v}, {a})",
    "nn.GroupNorm({g}, {b})",
    "nn.Conv1d({a}, {b}, {k}, padding={pd}, groups={g})",
    "nn.MaxPool2d(kernel_size={k}, stride={s})",
    "nn.AdaptiveAvgPool2d((1, 1))",
    "nn.Identity()",
]
COMMENTS = [
    "# NOTE: keep this in sync with the checkpoint format",
    "# TODO(perf): fuse these two ops once the kernel lands",
    "# flash attention makes GPU go brrrrr but support is only in PyTorch >= 2.0",
    "# the residual path is scaled as in GPT-2: 1/sqrt(2 * n_layer)",
    "# weight tying, see https://paperswithcode.com/method/weight-tying",
    "# (B, T, C) -> (B, nh, T, hs)",
    "# pre-norm variant; post-norm diverges above 24 layers",
    "# keep fp32 here, bf16 loses too much in the softmax",
    "# µs-level latency matters here → avoid the host sync",
    "# 注意: 这里的维度顺序是 (batch, seq, dim)",
    "# ≥ 2 experts are routed per token; capacity factor 1.25",
    "# copied from the reference implementation, with the bias removed",
]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.used = set()

    def name(self):
        r = self.r
        for _ in range(100):
            n = r.choice(WORDS_A) + r.choice(WORDS_B)
            if n not in self.used:
                self.used.add(n)
                return n
        n = "%s%s%d" % (r.choice(WORDS_A), r.choice(WORDS_B), len(self.used))
        self.used.add(n)
        return n

    def num(self):
        return self.r.choice([64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096])

    def layer(self):
        r = self.r
        return r.choice(LAYERS).format(
            a=r.choice(["config.n_embd", "dim", "hidden_dim", str(self.num())]),
            b=r.choice(["config.n_embd", "4 * dim", "out_dim", str(self.num())]),
            bias=r.choice(["config.bias", "False", "True"]),
            eps=r.choice(["1e-5", "1e-6", "config.eps"]),
            p=r.choice(["config.dropout", "0.1", "0.0", "drop"]),
            k=r.choice([1, 3, 5, 7]), s=r.choice([1, 2]), pd=r.choice([0, 1, 2, 3]),
            v=r.choice(["config.vocab_size", "50304", "32000"]),
            g=r.choice([1, 8, 32, "groups"]))

    def comment(self, ind):
        return ind + self.r.choice(COMMENTS) + "\n"

    # ---------------------------------------------------------------- blocks
    def config_class(self):
        r = self.r
        name = self.name() + "Config"
        out = ["@dataclass\nclass %s:\n" % name,
               '    """Hyper-parameters for %s."""\n\n' % name[:-6]]
        for f in r.sample(FIELDS, r.randint(5, 16)):
            if f in ("dropout", "drop_path", "eps", "mlp_ratio", "rope_theta"):
                v = r.choice(["0.0", "0.1", "1e-5", "4.0", "10000.0"])
                t = "float"
            elif f == "bias":
                v, t = r.choice(["True", "False"]), "bool"
            else:
                v, t = str(r.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, self.num()])), "int"
            line = "    %s: %s = %s" % (f, t, v)
            if r.random() < 0.3:
                line += "  # %s" % r.choice(["GPT-2 default", "see paper, table 3",
                                             "padded up to a multiple of 64",
                                             "must divide n_embd", "0 disables"])
            out.append(line + "\n")
        if r.random() < 0.4:
            out.append("    extra: Dict[str, Any] = field(default_factory=dict)\n")
        if r.random() < 0.5:
            out.append("\n    def __post_init__(self):\n"
                       "        if self.n_embd % self.n_head != 0:\n"
                       "            raise ValueError(f\"n_embd={self.n_embd} must be divisible by n_head={self.n_head}\")\n")
        if r.random() < 0.3:
            out.append("\n    @classmethod\n"
                       "    def from_dict(cls, d: Dict[str, Any]) -> \"%s\":\n"
                       "        known = {f.name for f in fields(cls)}\n"
                       "        return cls(**{k: v for k, v in d.items() if k in known})\n" % name)
        return "".join(out) + "\n\n"

    def module_class(self):
        r = self.r
        name = self.name()
        kind = r.random()
        out = ["class %s(nn.Module):\n" % name]
        if r.random() < 0.7:
            out.append('    """%s.\n\n    Args:\n        config: model configuration.\n    """\n\n'
                       % r.choice(["Multi-head causal self-attention",
                                   "A transformer block: attention then MLP, pre-norm",
                                   "Mixture-of-experts feed-forward layer",
                                   "Convolutional stem with batch norm",
                                   "Patch embedding for a vision transformer",
                                   "Residual bottleneck block"]))
        out.append("    def __init__(self, config, dim: int = %d, out_dim: Optional[int] = None):\n" % self.num())
        out.append("        super().__init__()\n")
        attrs = []
        for i in range(r.randint(2, 9)):
            a = r.choice(["c_attn", "c_proj", "c_fc", "ln_1", "ln_2", "attn_dropout",
                          "resid_dropout", "conv1", "conv2", "bn1", "bn2", "act", "norm",
                          "proj", "gate", "up", "down", "wte", "wpe", "head", "pool"])
            if a in attrs:
                a = "%s_%d" % (a, i)
            attrs.append(a)
            if r.random() < 0.2:
                out.append(self.comment("        "))
            out.append("        self.%s = %s\n" % (a, self.layer()))
        if kind < 0.35:
            out.append("        self.blocks = nn.ModuleList([%s(config) for _ in range(config.n_layer)])\n"
                       % r.choice(["Block", "TransformerBlock", "ResidualBlock"]))
        elif kind < 0.55:
            out.append("        self.layers = nn.Sequential(\n")
            for _ in range(r.randint(2, 6)):
                out.append("            %s,\n" % self.layer())
            out.append("        )\n")
        elif kind < 0.7:
            out.append("        self.experts = nn.ModuleDict({\n")
            for i in range(r.randint(2, 5)):
                out.append("            \"expert_%d\": %s,\n" % (i, self.layer()))
            out.append("        })\n")
        out.append("        self.n_head = config.n_head\n"
                   "        self.n_embd = config.n_embd\n"
                   "        self.flash = hasattr(torch.nn.functional, \"scaled_dot_product_attention\")\n")
        if r.random() < 0.4:
            out.append("        if not self.flash:\n"
                       "            self.register_buffer(\"bias\", torch.tril(torch.ones(config.block_size, config.block_size))\n"
                       "                                 .view(1, 1, config.block_size, config.block_size))\n")
        out.append("\n")
        out.append("    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:\n")
        out.append(self.forward_body(attrs, kind))
        for _ in range(r.randint(0, 3)):
            out.append("\n" + self.method(attrs))
        return "".join(out) + "\n\n"

    def forward_body(self, attrs, kind):
        r = self.r
        a = lambda: r.choice(attrs)
        body = []
        if r.random() < 0.6:
            body.append("        B, T, C = x.size()  # batch size, sequence length, embedding dimensionality (n_embd)\n"
                        "        q, k, v = self.%s(x).split(self.n_embd, dim=2)\n"
                        "        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)\n"
                        "        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)\n"
                        "        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)\n"
                        "        if self.flash:\n"
                        "            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)\n"
                        "        else:\n"
                        "            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))\n"
                        "            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))\n"
                        "            att = F.softmax(att, dim=-1)\n"
                        "            att = self.%s(att)\n"
                        "            y = att @ v  # (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)\n"
                        "        y = y.transpose(1, 2).contiguous().view(B, T, C)\n"
                        "        x = x + self.%s(y)\n" % (a(), a(), a()))
        for _ in range(r.randint(1, 6)):
            c = r.random()
            if c < 0.3:
                body.append("        x = x + self.%s(self.%s(x))\n" % (a(), a()))
            elif c < 0.5:
                body.append("        h = F.%s(self.%s(x))\n        x = self.%s(h) * torch.sigmoid(h)\n"
                            % (r.choice(["gelu", "silu", "relu"]), a(), a()))
            elif c < 0.65:
                body.append("        if mask is not None:\n            x = x.masked_fill(~mask[..., None], 0.0)\n")
            elif c < 0.8:
                body.append("        x = rearrange(x, \"b (h w) c -> b c h w\", h=int(math.sqrt(x.shape[1])))\n"
                            "        x = self.%s(x).flatten(2).transpose(1, 2)\n" % a())
            else:
                body.append(self.comment("        "))
                body.append("        x = torch.cat([x, self.%s(x)], dim=-1)[..., : self.n_embd]\n" % a())
        if kind < 0.35:
            body.append("        for i, block in enumerate(self.blocks):\n"
                        "            if self.training and self.grad_checkpointing:\n"
                        "                x = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)\n"
                        "            else:\n"
                        "                x = block(x)\n")
        elif kind < 0.55:
            body.append("        x = self.layers(x)\n")
        elif kind < 0.7:
            body.append("        logits = self.%s(x)\n"
                        "        weights, idx = torch.topk(F.softmax(logits, dim=-1, dtype=torch.float), k=2, dim=-1)\n"
                        "        out = torch.zeros_like(x)\n"
                        "        for j, (name, expert) in enumerate(self.experts.items()):\n"
                        "            sel = (idx == j).any(dim=-1)\n"
                        "            if sel.any():\n"
                        "                out[sel] += weights[sel][..., :1] * expert(x[sel])\n"
                        "        x = out\n" % a())
        body.append("        return x\n")
        return "".join(body)

    def method(self, attrs):
        r = self.r
        c = r.random()
        if c < 0.3:
            return ("    def _init_weights(self, module):\n"
                    "        if isinstance(module, nn.Linear):\n"
                    "            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)\n"
                    "            if module.bias is not None:\n"
                    "                torch.nn.init.zeros_(module.bias)\n"
                    "        elif isinstance(module, nn.Embedding):\n"
                    "            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)\n")
        if c < 0.5:
            return ("    def get_num_params(self, non_embedding: bool = True) -> int:\n"
                    "        n_params = sum(p.numel() for p in self.parameters())\n"
                    "        if non_embedding and hasattr(self, \"wpe\"):\n"
                    "            n_params -= self.wpe.weight.numel()\n"
                    "        return n_params\n")
        if c < 0.7:
            return ("    @torch.no_grad()\n"
                    "    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k: Optional[int] = None):\n"
                    "        for _ in range(max_new_tokens):\n"
                    "            idx_cond = idx if idx.size(1) <= self.block_size else idx[:, -self.block_size:]\n"
                    "            logits = self(idx_cond)\n"
                    "            logits = logits[:, -1, :] / temperature\n"
                    "            if top_k is not None:\n"
                    "                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))\n"
                    "                logits[logits < v[:, [-1]]] = -float('Inf')\n"
                    "            probs = F.softmax(logits, dim=-1)\n"
                    "            idx_next = torch.multinomial(probs, num_samples=1)\n"
                    "            idx = torch.cat((idx, idx_next), dim=1)\n"
                    "        return idx\n")
        if c < 0.85:
            return ("    @property\n"
                    "    def device(self) -> torch.device:\n"
                    "        return next(self.parameters()).device\n\n"
                    "    def extra_repr(self) -> str:\n"
                    "        return f\"n_head={self.n_head}, n_embd={self.n_embd}, flash={self.flash}\"\n")
        return ("    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):\n"
                "        param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}\n"
                "        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]\n"
                "        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]\n"
                "        optim_groups = [\n"
                "            {'params': decay_params, 'weight_decay': weight_decay},\n"
                "            {'params': nodecay_params, 'weight_decay': 0.0},\n"
                "        ]\n"
                "        use_fused = 'fused' in inspect.signature(torch.optim.AdamW).parameters and device_type == 'cuda'\n"
                "        extra_args = dict(fused=True) if use_fused else dict()\n"
                "        return torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)\n")

    def train_loop(self):
        r = self.r
        fn = r.choice(["train", "train_one_epoch", "fit", "run_training", "main_loop"]) + "_%d" % r.randint(0, 999)
        return (
            "def %s(model, optimizer, loader, cfg, scaler=None, scheduler=None, rank: int = 0):\n"
            "    model.train()\n"
            "    t0 = time.time()\n"
            "    running_loss = 0.0\n"
            "    for step, batch in enumerate(loader):\n"
            "        x, y = batch[\"input_ids\"].to(cfg.device, non_blocking=True), batch[\"labels\"].to(cfg.device, non_blocking=True)\n"
            "        with torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16, enabled=cfg.%s):\n"
            "            logits = model(x)\n"
            "            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1), ignore_index=-1)\n"
            "            loss = loss / cfg.gradient_accumulation_steps\n"
            "        if scaler is not None:\n"
            "            scaler.scale(loss).backward()\n"
            "        else:\n"
            "            loss.backward()\n"
            "        if (step + 1) %% cfg.gradient_accumulation_steps == 0:\n"
            "            if cfg.grad_clip != 0.0:\n"
            "                if scaler is not None:\n"
            "                    scaler.unscale_(optimizer)\n"
            "                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)\n"
            "            if scaler is not None:\n"
            "                scaler.step(optimizer)\n"
            "                scaler.update()\n"
            "            else:\n"
            "                optimizer.step()\n"
            "            optimizer.zero_grad(set_to_none=True)\n"
            "            if scheduler is not None:\n"
            "                scheduler.step()\n"
            "        running_loss += loss.item()\n"
            "        if step %% cfg.log_interval == 0 and rank == 0:\n"
            "            dt = time.time() - t0\n"
            "            t0 = time.time()\n"
            "            print(f\"step {step}: loss {running_loss / max(1, step + 1):.4f}, time {dt * 1000:.2f}ms, lr {optimizer.param_groups[0]['lr']:.2e}\")\n"
            "        if cfg.save_every and step %% cfg.save_every == 0 and step > 0:\n"
            "            checkpoint = {\n"
            "                \"model\": model.state_dict(),\n"
            "                \"optimizer\": optimizer.state_dict(),\n"
            "                \"step\": step,\n"
            "                \"config\": asdict(cfg),\n"
            "            }\n"
            "            torch.save(checkpoint, os.path.join(cfg.out_dir, f\"ckpt_{step:07d}.pt\"))\n"
            "        if dist.is_initialized() and step %% %d == 0:\n"
            "            t = torch.tensor([running_loss], device=cfg.device)\n"
            "            dist.all_reduce(t, op=dist.ReduceOp.SUM)\n"
            "    return running_loss\n\n\n"
            % (fn, r.choice(["amp", "use_amp", "mixed_precision"]), r.choice([10, 50, 100])))

    def dataset_class(self):
        name = self.name() + "Dataset"
        return (
            "class %s(Dataset):\n"
            "    def __init__(self, root: str, split: str = \"train\", block_size: int = %d, transform=None):\n"
            "        self.root = root\n"
            "        self.split = split\n"
            "        self.block_size = block_size\n"
            "        self.transform = transform\n"
            "        self.data = np.memmap(os.path.join(root, f\"{split}.bin\"), dtype=np.uint16, mode=\"r\")\n\n"
            "    def __len__(self) -> int:\n"
            "        return (len(self.data) - 1) // self.block_size\n\n"
            "    def __getitem__(self, i: int) -> Dict[str, torch.Tensor]:\n"
            "        start = i * self.block_size\n"
            "        chunk = torch.from_numpy(self.data[start:start + self.block_size + 1].astype(np.int64))\n"
            "        sample = {\"input_ids\": chunk[:-1], \"labels\": chunk[1:]}\n"
            "        if self.transform is not None:\n"
            "            sample = self.transform(sample)\n"
            "        return sample\n\n\n"
            "def build_loader(cfg, split: str = \"train\") -> DataLoader:\n"
            "    ds = %s(cfg.data_dir, split=split, block_size=cfg.block_size)\n"
            "    sampler = DistributedSampler(ds, shuffle=(split == \"train\")) if dist.is_initialized() else None\n"
            "    return DataLoader(ds, batch_size=cfg.batch_size, shuffle=(sampler is None and split == \"train\"),\n"
            "                      sampler=sampler, num_workers=cfg.num_workers, pin_memory=True, drop_last=True,\n"
            "                      collate_fn=lambda b: {k: torch.stack([s[k] for s in b]) for k in b[0]})\n\n\n"
            % (name, self.num(), name))

    def helpers(self):
        r = self.r
        c = r.random()
        if c < 0.25:
            return ("def get_lr(it: int, cfg) -> float:\n"
                    "    if it < cfg.warmup_iters:\n"
                    "        return cfg.learning_rate * (it + 1) / (cfg.warmup_iters + 1)\n"
                    "    if it > cfg.lr_decay_iters:\n"
                    "        return cfg.min_lr\n"
                    "    decay_ratio = (it - cfg.warmup_iters) / (cfg.lr_decay_iters - cfg.warmup_iters)\n"
                    "    assert 0 <= decay_ratio <= 1\n"
                    "    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))\n"
                    "    return cfg.min_lr + coeff * (cfg.learning_rate - cfg.min_lr)\n\n\n")
        if c < 0.45:
            return ("@torch.no_grad()\n"
                    "def estimate_loss(model, loaders, eval_iters: int = %d) -> Dict[str, float]:\n"
                    "    out = {}\n"
                    "    model.eval()\n"
                    "    for split, loader in loaders.items():\n"
                    "        losses = torch.zeros(eval_iters)\n"
                    "        for k, (x, y) in zip(range(eval_iters), loader):\n"
                    "            _, loss = model(x, y)\n"
                    "            losses[k] = loss.item()\n"
                    "        out[split] = losses.mean().item()\n"
                    "    model.train()\n"
                    "    return out\n\n\n" % r.choice([20, 100, 200]))
        if c < 0.6:
            return ("def setup_distributed() -> Tuple[int, int, int]:\n"
                    "    if \"RANK\" not in os.environ:\n"
                    "        return 0, 0, 1\n"
                    "    rank = int(os.environ[\"RANK\"])\n"
                    "    local_rank = int(os.environ[\"LOCAL_RANK\"])\n"
                    "    world_size = int(os.environ[\"WORLD_SIZE\"])\n"
                    "    torch.cuda.set_device(local_rank)\n"
                    "    dist.init_process_group(backend=\"nccl\", rank=rank, world_size=world_size)\n"
                    "    dist.barrier()\n"
                    "    return rank, local_rank, world_size\n\n\n")
        if c < 0.75:
            n = self.name().lower()
            return ("_REGISTRY_%s: Dict[str, Callable[..., nn.Module]] = {}\n\n\n"
                    "def register_%s(name: str):\n"
                    "    def deco(fn):\n"
                    "        if name in _REGISTRY_%s:\n"
                    "            raise KeyError(f\"duplicate model name {name!r}\")\n"
                    "        _REGISTRY_%s[name] = fn\n"
                    "        return fn\n"
                    "    return deco\n\n\n" % (n, n, n, n))
        if c < 0.85:
            rows = ",\n".join("    (%s)" % ", ".join("%.6f" % r.uniform(-1, 1) for _ in range(8))
                              for _ in range(r.randint(4, 24)))
            return "_TABLE_%d = [\n%s,\n]\n\n\n" % (r.randint(0, 99999), rows)
        return ("def parse_shape(spec: str) -> List[int]:\n"
                "    \"\"\"'2x3x224x224' -> [2, 3, 224, 224].\"\"\"\n"
                "    if not (m := re.fullmatch(r\"(\\d+(?:x\\d+)*)\", spec.strip())):\n"
                "        raise ValueError(f\"bad shape {spec!r}\")\n"
                "    return [int(p) for p in m.group(1).split(\"x\")]\n\n\n")

    def main_block(self):
        r = self.r
        out = ["def main(argv: Optional[List[str]] = None) -> int:\n",
               "    parser = argparse.ArgumentParser(description=__doc__)\n"]
        for f in r.sample(TRAIN_FIELDS, r.randint(4, 14)):
            if f in ("learning_rate", "weight_decay", "min_lr", "beta1", "beta2", "grad_clip"):
                out.append("    parser.add_argument(\"--%s\", type=float, default=%s)\n"
                           % (f.replace("_", "-"), r.choice(["6e-4", "0.1", "0.9", "0.95", "1.0"])))
            elif f in ("compile",):
                out.append("    parser.add_argument(\"--compile\", action=\"store_true\")\n")
            elif f in ("dtype", "device", "out_dir"):
                out.append("    parser.add_argument(\"--%s\", type=str, default=%r)\n"
                           % (f.replace("_", "-"), r.choice(["bfloat16", "cuda", "out"])))
            else:
                out.append("    parser.add_argument(\"--%s\", type=int, default=%d)\n"
                           % (f.replace("_", "-"), r.choice([1, 4, 8, 12, 64, 100, 2000, 600000])))
        out.append("    args = parser.parse_args(argv)\n"
                   "    torch.manual_seed(1337 + args.seed if hasattr(args, \"seed\") else 1337)\n"
                   "    model = GPT(GPTConfig())\n"
                   "    if getattr(args, \"compile\", False):\n"
                   "        model = torch.compile(model)\n"
                   "    match getattr(args, \"device\", \"cuda\"):\n"
                   "        case \"cpu\":\n"
                   "            pass\n"
                   "        case str(dev) if dev.startswith(\"cuda\"):\n"
                   "            model = model.to(dev)\n"
                   "        case _:\n"
                   "            raise SystemExit(\"unknown device\")\n"
                   "    return 0\n\n\n"
                   "if __name__ == \"__main__\":\n"
                   "    sys.exit(main())\n")
        return "".join(out)


HEADER = '''"""{doc}"""
from __future__ import annotations

import argparse
import inspect
import math
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange
from torch.utils.data import DataLoader, Dataset, DistributedSampler
'''

DOCS = ["Model definitions.", "Training entry point.", "Data loading and batching.",
        "Configuration objects and defaults.", "Layers shared by the models.",
        "Utilities for distributed training.", "Evaluation helpers.",
        "A small transformer language model, in the style of nanoGPT."]

PACKAGES = ["models", "models/layers", "models/vision", "models/text", "configs",
            "training", "data", "data/transforms", "utils", "scripts", "tools",
            "tests", "experiments/ablations", "third_party/timm_lite/layers",
            "inference", "distributed"]


def gen_source(g, target, want_main):
    r = g.r
    parts = [HEADER.format(doc=r.choice(DOCS))]
    size = len(parts[0])
    makers = [g.config_class, g.module_class, g.module_class, g.module_class,
              g.train_loop, g.dataset_class, g.helpers, g.helpers]
    while size < target:
        block = r.choice(makers)()
        if size + len(block.encode("utf-8")) > MAX_SIZE - 1500:
            if size >= MIN_SIZE:
                break
            continue
        parts.append("\n\n" + block)
        size += len(block.encode("utf-8")) + 2
    if want_main:
        parts.append("\n\n" + g.main_block())
    return "".join(parts).rstrip("\n") + "\n"


def gen_files(n, seed):
    """Yield (path, bytes) for n .py files and a few others, deterministically."""
    r = random.Random(seed)
    proj = "torchlab"
    # About 60 files a package, so that a small repository is not all
    # __init__.py files.
    dirs = []
    for p in PACKAGES[:max(1, min(len(PACKAGES), n // 60))]:
        dirs.append("src/%s/%s" % (proj, p) if not p.startswith(("scripts", "tools", "tests")) else p)
    # Deeper packages so that the tree has realistic depth.
    for i in range(max(0, n // 100)):
        dirs.append("src/%s/%s/%s_%d" % (proj, r.choice(PACKAGES[:8]), r.choice(["v1", "v2", "legacy", "exp"]), i))
    files = {}
    for d in dirs:
        if d.startswith("src/"):
            files[d + "/__init__.py"] = None
    stems = ["model", "layers", "attention", "mlp", "blocks", "train", "trainer",
             "config", "dataset", "loader", "utils", "dist", "eval", "export",
             "sampler", "optim", "scheduler", "losses", "metrics", "modeling"]
    while len(files) < n:
        d = r.choice(dirs)
        name = "%s/%s%s.py" % (d, r.choice(stems), r.choice(["", "", "_%d" % r.randint(0, 999)]))
        files.setdefault(name, None)
    paths = sorted(files)[:n]
    for i, path in enumerate(paths):
        g = Gen(random.Random("%d:%s" % (seed, path)))
        target = min(MAX_SIZE, max(MIN_SIZE, int(r.lognormvariate(8.5, 0.8))))
        base = path.rsplit("/", 1)[1]
        src = gen_source(g, target, want_main=base.startswith(("train", "trainer", "eval", "export")))
        data = src.encode("utf-8")
        # A few oddities that real repositories have.
        k = i % 500
        if k == 17:
            data = data.replace(b"\n", b"\r\n")
        elif k == 101:
            data = b"\xef\xbb\xbf" + data
        elif k == 203:
            data = data.replace(b"    ", b"\t")
        elif k == 307:
            src = "# -*- coding: latin-1 -*-\n# Auteur: Fran\u00e7ois, r\u00e9vis\u00e9 en ao\u00fbt\n" + src.encode("ascii", "replace").decode("ascii")
            data = src.encode("latin-1")
        yield path, data
    # Non-Python files, which ecg must skip.
    yield "README.md", b"# torchlab\n\nSynthetic repository generated by ecg's bench/gen_repo.py.\n"
    yield "requirements.txt", b"torch>=2.1\nnumpy\neinops\n"
    yield "configs/base.yaml", b"model:\n  n_layer: 12\n  n_head: 12\n  n_embd: 768\n"
    yield "scripts/launch.sh", b"#!/bin/sh\nexec torchrun --nproc_per_node=8 src/torchlab/training/train.py \"$@\"\n"
    yield "src/torchlab/data/vocab.json", b"{\"<pad>\": 0, \"<eos>\": 1}\n"
    yield "docs/notes.pyi", b"def f(x: int) -> int: ...\n"


def git(args, cwd, **kw):
    env = dict(os.environ)
    env.update(GIT_ENV)
    return subprocess.run(["git"] + args, cwd=cwd, env=env, check=True, **kw)


def generate(dest, n, seed=DEFAULT_SEED):
    """Create the repository at dest (which must not exist) and return its HEAD sha.

    Built in dest + '.tmp' and renamed, so an interrupted run leaves no
    half-made repository behind under the name a later run would reuse."""
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    git(["init", "-q", "--initial-branch=main", tmp], cwd="/")
    for path, data in gen_files(n, seed):
        full = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    git(["-c", "core.autocrlf=false", "add", "-A"], cwd=tmp)
    git(["commit", "-q", "--no-verify", "-m", "synthetic repository: %d files, seed %d" % (n, seed)], cwd=tmp)
    # Packed, as a cloned repository is: libgit2 then reads from a pack, not
    # thousands of loose objects.
    git(["repack", "-adq"], cwd=tmp)
    git(["prune"], cwd=tmp)
    os.rename(tmp, dest)
    return git(["rev-parse", "HEAD"], cwd=dest, capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("dest")
    a = ap.parse_args()
    if os.path.exists(a.dest):
        sys.exit("gen_repo.py: %s exists" % a.dest)
    print(generate(a.dest, a.files, a.seed))


if __name__ == "__main__":
    main()
