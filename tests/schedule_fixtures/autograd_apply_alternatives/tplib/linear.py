import torch

import tplib_cuda as tex

from .comm import allreduce, gather_parts


def gemm(weight, inp, bias):
    out, *_, extra = tex.generic_gemm(weight, inp, bias), None, None
    return out


def _forward_impl(weight, inp, bias, args):
    inp = gather_parts(inp, args["tp_group"])
    out = gemm(weight, inp, bias)
    if args["parallel_mode"] == "row" and args["tp_size"] > 1:
        out, _ = allreduce(out, args["tp_group"])
    return out


class _LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, inp, bias, args):
        out = _forward_impl(weight, inp, bias, args)
        if ctx is not None:
            ctx.args = args
        return out, None

    @staticmethod
    def backward(ctx, grad_output, _unused):
        dgrad = grad_output.clone()
        if ctx.args["parallel_mode"] == "column" and ctx.args["tp_size"] > 1:
            dgrad, handle = allreduce(dgrad, ctx.args["tp_group"], async_op=True)
            handle.wait()
        return None, dgrad, None, None


class Linear(torch.nn.Module):
    def __init__(self, in_features, out_features, bias=True, tp_group=None, tp_size=1, parallel_mode=None):
        super().__init__()
        self.tp_group = tp_group
        self.tp_size = tp_size
        self.parallel_mode = parallel_mode
        if parallel_mode == "column":
            out_features = out_features // tp_size
        elif parallel_mode == "row":
            in_features = in_features // tp_size
        self.weight = torch.nn.Parameter(torch.empty(out_features, in_features))
        self.bias = torch.nn.Parameter(torch.empty(out_features)) if bias else None

    def forward(self, inp):
        if torch.is_grad_enabled():
            linear_fn = _LinearFn.apply
            autograd_ctx = []
        else:
            linear_fn = _LinearFn.forward
            autograd_ctx = [None]
        args = {"tp_group": self.tp_group, "tp_size": self.tp_size, "parallel_mode": self.parallel_mode}
        out, _ = linear_fn(*autograd_ctx, self.weight, inp, self.bias, args)
        return out
