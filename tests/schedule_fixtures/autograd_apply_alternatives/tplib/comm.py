import torch


def allreduce(inp, tp_group, async_op=False):
    handle = torch.distributed.all_reduce(inp, group=tp_group, async_op=async_op)
    return inp, handle


def gather_parts(inp, group):
    # a quantized tensor is gathered part by part, each part again by this
    # function (a type decided only where the job runs)
    if isinstance(inp, PartsTensor):
        rows = gather_parts(inp.rows(), group)
        cols = gather_parts(inp.cols(), group)
        return PartsTensor(rows, cols)
    return inp


class PartsTensor:
    def __init__(self, rows, cols):
        self._rows = rows
        self._cols = cols

    def rows(self):
        return self._rows

    def cols(self):
        return self._cols
