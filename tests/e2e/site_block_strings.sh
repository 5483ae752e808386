#!/bin/sh
# A library that builds its model from architecture strings (issue 17;
# the shape of timm's _efficientnet_builder.py, in a fake library of its
# own): 'ir_r1_k3.5.7_s2_e6_c40_se0.5' split with str.split('_') and
# re.split(r'(\d.*)', op) into its options (interp/regex.c), the kernel
# sizes by ss.isdigit() or ss.split('.'), the stage depths scaled with
# math.ceil/round and each block's args deepcopied, channels rounded by
# a partial of round_channels; the builder pops and updates the args and
# gives the blocks partial(self.se_layer, rd_ratio=...) of a partial;
# `norm_layer or nn.BatchNorm2d` of a partial is the partial (its truth:
# interp/values.c); the head is the library's Linear(nn.Linear) with a
# forward only (interp/object.c).  A block string read from a file not in
# the repository leaves its stage's count null (never a guess), and the
# classes built under the undecided `bt == 'ir'` carry that condition.
# The counts are PyTorch's (torch 1.13 with this library on its path,
# sum of p.numel(), once): blocknet_small 73,202 (stages of 1, 2 and 3
# blocks: blocks.0.0 612, its se 148; blocks.2.0 17,468, blocks.2.1 and
# .2 17,140 each; classifier 1,290); blocknet_wide (channels x 1.25, depth
# x 1.5: stages of 2, 3 and 5) 201,198 (blocks.2.0 27,888, blocks.2.1
# 51,000, blocks.2.2..4 24,024 each).  The site is written here, with a
# dist-info.
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/blocklib" "$SP/blocklib-0.1.dist-info"
printf 'Metadata-Version: 2.1\nName: blocklib\nVersion: 0.1\nRequires-Dist: torch\n' >"$SP/blocklib-0.1.dist-info/METADATA"
cat >"$SP/blocklib/__init__.py" <<'PY'
from .builder import decode_arch_def, round_channels
from .models import BlockNet, blocknet_small, blocknet_wide
PY
cat >"$SP/blocklib/builder.py" <<'PY'
import math
import re
from copy import deepcopy


def make_divisible(v, divisor=8, min_value=None, round_limit=.9):
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < round_limit * v:
        new_v += divisor
    return new_v


def round_channels(channels, multiplier=1.0, divisor=8):
    if not multiplier:
        return channels
    return make_divisible(channels * multiplier, divisor)


def _parse_ksize(ss):
    if ss.isdigit():
        return int(ss)
    else:
        return [int(k) for k in ss.split('.')]


def _decode_block_str(block_str):
    assert isinstance(block_str, str)
    ops = block_str.split('_')
    block_type = ops[0]
    ops = ops[1:]
    options = {}
    skip = None
    for op in ops:
        if op == 'noskip':
            skip = False
        elif op.startswith('n'):
            options['n'] = op[1:]
        else:
            splits = re.split(r'(\d.*)', op)
            if len(splits) >= 2:
                key, value = splits[:2]
                options[key] = value
    num_repeat = int(options['r'])
    block_args = dict(
        block_type=block_type,
        out_chs=int(options['c']),
        stride=int(options['s']),
        kernel_size=_parse_ksize(options['k']),
        se_ratio=float(options.get('se', 0.)),
        noskip=skip is False,
    )
    if block_type == 'ir':
        block_args['exp_ratio'] = float(options['e'])
    return block_args, num_repeat


def _scale_stage_depth(stack_args, repeats, depth_multiplier=1.0):
    num_repeat = sum(repeats)
    num_repeat_scaled = int(math.ceil(num_repeat * depth_multiplier))
    repeats_scaled = []
    for r in repeats[::-1]:
        rs = max(1, round((r / num_repeat * num_repeat_scaled)))
        repeats_scaled.append(rs)
        num_repeat -= r
        num_repeat_scaled -= rs
    repeats_scaled = repeats_scaled[::-1]
    sa_scaled = []
    for ba, rep in zip(stack_args, repeats_scaled):
        sa_scaled.extend([deepcopy(ba) for _ in range(rep)])
    return sa_scaled


def decode_arch_def(arch_def, depth_multiplier=1.0):
    arch_args = []
    for block_strings in arch_def:
        stack_args = []
        repeats = []
        for block_str in block_strings:
            ba, rep = _decode_block_str(block_str)
            stack_args.append(ba)
            repeats.append(rep)
        arch_args.append(_scale_stage_depth(stack_args, repeats, depth_multiplier))
    return arch_args
PY
cat >"$SP/blocklib/models.py" <<'PY'
from functools import partial

import torch
from torch import nn

from .builder import decode_arch_def, round_channels


class Linear(nn.Linear):
    def forward(self, input):
        return super().forward(input)


class SqueezeExcite(nn.Module):
    def __init__(self, chs, rd_ratio=0.25, act_layer=nn.ReLU, gate_layer=nn.Sigmoid):
        super().__init__()
        rd = max(1, int(chs * rd_ratio))
        self.conv_reduce = nn.Conv2d(chs, rd, 1)
        self.act = act_layer()
        self.conv_expand = nn.Conv2d(rd, chs, 1)
        self.gate = gate_layer()

    def forward(self, x):
        return x * self.gate(self.conv_expand(self.act(self.conv_reduce(x.mean((2, 3), keepdim=True)))))


class MixedConv(nn.Module):
    def __init__(self, chs, kernel_sizes, stride):
        super().__init__()
        kernel_sizes = kernel_sizes if isinstance(kernel_sizes, list) else [kernel_sizes]
        splits = [chs // len(kernel_sizes)] * len(kernel_sizes)
        splits[0] += chs - sum(splits)
        self.splits = splits
        self.convs = nn.ModuleList([
            nn.Conv2d(c, c, k, stride, k // 2, groups=c, bias=False) for c, k in zip(splits, kernel_sizes)])

    def forward(self, x):
        xs = torch.split(x, self.splits, 1)
        return torch.cat([conv(xi) for conv, xi in zip(self.convs, xs)], 1)


class DepthwiseSeparable(nn.Module):
    def __init__(self, in_chs, out_chs, kernel_size=3, stride=1, se_layer=None, act_layer=nn.ReLU, norm_layer=None,
                 noskip=False):
        super().__init__()
        self.has_skip = stride == 1 and in_chs == out_chs and not noskip
        self.conv_dw = MixedConv(in_chs, kernel_size, stride)
        self.bn1 = norm_layer(in_chs)
        self.act = act_layer()
        self.se = se_layer(in_chs) if se_layer else nn.Identity()
        self.conv_pw = nn.Conv2d(in_chs, out_chs, 1, bias=False)
        self.bn2 = norm_layer(out_chs)

    def forward(self, x):
        y = self.bn2(self.conv_pw(self.se(self.act(self.bn1(self.conv_dw(x))))))
        return x + y if self.has_skip else y


class InvertedResidual(nn.Module):
    def __init__(self, in_chs, out_chs, kernel_size=3, stride=1, exp_ratio=1.0, se_layer=None, act_layer=nn.ReLU,
                 norm_layer=None, noskip=False):
        super().__init__()
        mid = round_channels(in_chs * exp_ratio)
        self.has_skip = stride == 1 and in_chs == out_chs and not noskip
        self.conv_pw = nn.Conv2d(in_chs, mid, 1, bias=False)
        self.bn1 = norm_layer(mid)
        self.act = act_layer()
        self.conv_dw = MixedConv(mid, kernel_size, stride)
        self.bn2 = norm_layer(mid)
        self.se = se_layer(mid) if se_layer else nn.Identity()
        self.conv_pwl = nn.Conv2d(mid, out_chs, 1, bias=False)
        self.bn3 = norm_layer(out_chs)

    def forward(self, x):
        y = self.bn3(self.conv_pwl(self.se(self.bn2(self.conv_dw(self.act(self.bn1(self.conv_pw(x))))))))
        return x + y if self.has_skip else y


class Builder:
    def __init__(self, round_chs_fn=round_channels, act_layer=None, norm_layer=None, se_layer=None):
        self.round_chs_fn = round_chs_fn
        self.act_layer = act_layer
        self.norm_layer = norm_layer
        self.se_layer = se_layer
        self.in_chs = None

    def _make_block(self, ba):
        bt = ba.pop('block_type')
        ba['in_chs'] = self.in_chs
        ba['out_chs'] = self.round_chs_fn(ba['out_chs'])
        ba['act_layer'] = self.act_layer
        ba['norm_layer'] = self.norm_layer
        se_ratio = ba.pop('se_ratio', None)
        if se_ratio and self.se_layer is not None:
            se_ratio /= ba.get('exp_ratio', 1.0)
            ba['se_layer'] = partial(self.se_layer, rd_ratio=se_ratio)
        if bt == 'ir':
            block = InvertedResidual(**ba)
        elif bt == 'ds':
            block = DepthwiseSeparable(**ba)
        else:
            assert False, 'Unknown block type (%s)' % bt
        self.in_chs = ba['out_chs']
        return block

    def __call__(self, in_chs, model_block_args):
        self.in_chs = in_chs
        stages = []
        for stack_args in model_block_args:
            blocks = []
            for ba in stack_args:
                blocks.append(self._make_block(ba))
            stages.append(nn.Sequential(*blocks))
        return stages


class BlockNet(nn.Module):
    def __init__(self, block_args, num_classes=10, stem_size=16, num_features=128, act_layer=None, norm_layer=None,
                 se_layer=None, round_chs_fn=round_channels):
        super().__init__()
        act_layer = act_layer or nn.ReLU
        norm_layer = norm_layer or nn.BatchNorm2d
        se_layer = se_layer or SqueezeExcite
        stem_size = round_chs_fn(stem_size)
        self.conv_stem = nn.Conv2d(3, stem_size, 3, 2, 1, bias=False)
        self.bn1 = norm_layer(stem_size)
        builder = Builder(round_chs_fn=round_chs_fn, act_layer=act_layer, norm_layer=norm_layer, se_layer=se_layer)
        self.blocks = nn.Sequential(*builder(stem_size, block_args))
        self.conv_head = nn.Conv2d(builder.in_chs, num_features, 1, bias=False)
        self.classifier = Linear(num_features, num_classes)

    def forward(self, x):
        x = self.blocks(self.bn1(self.conv_stem(x)))
        return self.classifier(self.conv_head(x).mean((2, 3)))


_ARCH = [
    ['ds_r1_k3_s1_c16_se0.25'],
    ['ir_r2_k3_s2_e6_c24'],
    ['ir_r1_k3.5.7_s2_e6_c40_se0.5', 'ir_r2_k3.5_s1_e3_c40_se0.5_noskip'],
]


def _gen(channel_multiplier=1.0, depth_multiplier=1.0, **kwargs):
    round_chs_fn = partial(round_channels, multiplier=channel_multiplier)
    return BlockNet(
        decode_arch_def(_ARCH, depth_multiplier),
        round_chs_fn=round_chs_fn,
        norm_layer=kwargs.pop('norm_layer', None) or partial(nn.BatchNorm2d, eps=1e-3),
        se_layer=partial(SqueezeExcite, gate_layer=nn.Hardsigmoid),
        **kwargs)


def blocknet_small(**kwargs):
    return _gen(1.0, 1.0, **kwargs)


def blocknet_wide(**kwargs):
    return _gen(1.25, 1.5, **kwargs)
PY

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch

import blocklib

small = blocklib.blocknet_small()
wide = blocklib.blocknet_wide()
opt = torch.optim.SGD(list(small.parameters()) + list(wide.parameters()), lr=0.1)
for step in range(2):
    x = torch.randn(2, 3, 32, 32)
    loss = small(x).sum() + wide(x).sum()
    loss.backward()
    opt.step()
PY
cat >"$R/train_file.py" <<'PY'
import os

import torch

import blocklib

arch = [['ds_r1_k3_s1_c16'], [open('/data/arch.txt').read().strip()]]
model = blocklib.BlockNet(blocklib.decode_arch_def(arch))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(2, 3, 32, 32)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "two models built from block strings by a library read from the site: exit 0"
P() { json "$T/o/computation_graph.json" "[(m['class'], m['params'], (m.get('repeat') or {}).get('count')) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(P small)" "('BlockNet', 73202, None)" "blocknet_small: 73,202"
is "$(P small/blocks.0.0)" "('DepthwiseSeparable', 612, None)" "  blocks.0.0: 'ds_r1_k3_s1_c16_se0.25', 612"
is "$(P small/blocks.0.0.se)" "('SqueezeExcite', 148, None)" "  its se: rd_ratio 0.25 from 'se0.25' by re.split, 148"
is "$(P small/blocks.2.0)" "('InvertedResidual', 17468, None)" "  blocks.2.0: kernels 'k3.5.7' by str.split('.'), 17,468"
is "$(P small/blocks.2.1:3)" "('InvertedResidual', 17140, 2)" "  blocks.2.1:3: 'ir_r2_..._noskip', x 2, 17,140 each"
is "$(P small/classifier)" "('Linear', 1290, None)" "  classifier: the library's Linear(nn.Linear) with a forward only, 1,290"
is "$(P wide)" "('BlockNet', 201198, None)" "blocknet_wide (channels x 1.25, depth x 1.5): 201,198"
is "$(P wide/blocks.0.*)" "('DepthwiseSeparable', 1206, 2)" "  blocks.0: ceil(1 x 1.5) = 2 blocks of 1,206"
is "$(P wide/blocks.2.1)" "('InvertedResidual', 51000, None)" "  blocks.2.1: the first string's second block, 51,000"
is "$(P wide/blocks.2.2:5)" "('InvertedResidual', 24024, 3)" "  blocks.2.2:5: round(2/3 x 5) = 3 of the second string, 24,024 each"

run_ecg extract --repo "$R" --entry train_file.py --out "$T/of" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "a block string read from a file not in the repository: exit 0"
PF() { json "$T/of/computation_graph.json" "[(m['class'], m['params']) for m in d['modules'] if m['id'] == '$1'][0]"; }
is "$(PF '')" "('BlockNet', None)" "  the model's count is null"
is "$(PF blocks.0.0)" "('DepthwiseSeparable', 464)" "  the stage of a known string is counted: 464"
is "$(PF blocks.1)" "('torch.nn.Sequential', None)" "  the stage of the string not known: null"
is "$(json "$T/of/computation_graph.json" "[(m.get('condition') or {}).get('expr') for m in d['modules'] if m['id'] == 'blocks.1.*'][0]")" \
	"bt == 'ir'" "  its blocks built under bt == 'ir', undecided"
done_testing
