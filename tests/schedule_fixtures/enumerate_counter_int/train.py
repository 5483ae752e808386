import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim)
        self.attention_map = None

    def save_attention_map(self, attn):
        self.attention_map = attn

    def forward(self, x, register_hook=False):
        attn = self.qkv(x).softmax(dim=-1)
        if register_hook:
            self.save_attention_map(attn)
        return attn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = Attention(dim)

    def forward(self, x, register_hook=False):
        return x + self.attn(x, register_hook=register_hook)


class Encoder(nn.Module):
    def __init__(self, dim=16, depth=12):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for i in range(depth)])

    def forward(self, x, register_blk=-1):
        for i, blk in enumerate(self.blocks):
            x = blk(x, register_blk == i)
        return x


model = Encoder().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 16).cuda()
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
