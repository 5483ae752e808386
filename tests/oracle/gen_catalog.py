#!/usr/bin/python3
"""gen_catalog.py -- regenerate and verify ecg's torch catalogue against torch.

ecg never runs torch.  What it knows about torch.nn built-ins and torch's
names lives in two data files that ship with it:

    catalog/torch_nn.json     torch.nn classes: constructor and forward
                              parameters, the ops each forward issues (with
                              the conditions they depend on), a parameter-
                              count formula, an output-shape rule, the
                              submodules a composite builds
    catalog/torch_names.json  Tensor methods and properties, torch.* and
                              torch.nn.functional names, "meta" names,
                              factories, Python operators -> Tensor dunders

This script is their source: the hand-written knowledge is in SPEC below (in
the JSON expression form the C side evaluates, see EXPRESSIONS), and what
can be asked of torch (signatures, name lists) is asked.  Every claim is
then checked against torch by running each class, for each case in SPEC, in
training mode, in eval mode and in eval mode under no_grad, twice each (the
first call of a fresh module, then a second call), under a TorchFunctionMode
that records exactly what tests/oracle/record.py records for a module call:
the outermost torch calls its forward makes, the submodules it calls, with
record.py's own naming (base_name, is_meta, the Tensor.__getitem__ wrapper).

Run it at development time, from anywhere (needs torch; recorded with
Debian's python3-torch 1.13, CPU):

    /usr/bin/python3 tests/oracle/gen_catalog.py            # verify (default)
    /usr/bin/python3 tests/oracle/gen_catalog.py --write    # verify, then rewrite
                                                            # catalog/*.json
    /usr/bin/python3 tests/oracle/gen_catalog.py --dump Linear [Conv2d ...]
                        # print what torch records for these classes' cases

Verify exits 0 when every signature, parameter count, op sequence, output
shape and name list agrees with torch and the JSON files on disk are exactly
what SPEC generates; otherwise it prints each mismatch and exits 1.  --write
refuses to write when a check fails.  Classes newer than the installed torch
(min_torch) are written from the PyTorch documentation and only checked for
form.

EXPRESSIONS (the small JSON language of "param_count", "when", "repeat",
"vars", child "args" and shape rules; the C evaluator is csrc/catalog.c):

    3, 2.5, true, null      literals            {"lit": "zeros"} string literal
    "name"                  a class var ("vars"), else a constructor argument
                            (its default when not passed); "a.b" is the
                            constructor argument b of the module passed as a
    {"fwd": "hx"}           a forward-call argument (its default if not passed)
    {"rank": "input"}       the number of dims of a forward tensor argument
    {"size": ["input", -1]} one dim of a forward tensor argument
    {"dtype": "mask"}       dtype of a forward tensor argument ("torch.bool")
    {"same": ["query", "key"]}   the two forward arguments are the same object
    {"state": "training"}   module.training; "first_call": the module's first
                            forward (lazy modules materialise then);
                            "distributed": torch.distributed world size > 1
    {"not": e} {"and": [..]} {"or": [..]} {"is_none": e}
    {"eq"|"ne"|"lt"|"le"|"gt"|"ge": [a, b]}   {"in": [e, {"lit": [..]}]}
    {"sum": [..]} {"mul": [..]} {"sub": [a, b]} {"div": [a, b]} (floor)
    {"mod": [a, b]}  {"if": c, "then": a, "else": b}
    {"prod": e, "dims": n}  product of an int-or-tuple argument; an int k
                            stands for (k,) * dims (dims defaults to 1)
    {"children": "args"}    the sum over a container's contents: never
                            computable from the catalogue (reports "args")

A string value compares equal to a callable or module argument of that
dotted name, so {"in": ["activation", {"lit": ["relu", "torch.nn.ReLU"]}]}
holds for activation="relu" and for activation=nn.ReLU().  {"new": "C",
"args": {...}} (in a child's arguments) is a module of class C built there.

STEPS ("ops": what one forward call does at top level, in order; null for a
class without forward).  Each step may carry "when" (an expression):

    {"op": "torch.nn.functional.linear", "meta": true}   a torch call, named
        as record.py names it; "meta" when record.py marks it metadata-only
    {"module": "linear1"}                 a call of that child module
    {"module": "layers.*", "repeat": e}   each child of that container, e of them
    {"module": "*"}                       each child of this module (Sequential)
    {"call_arg": "activation", "strings": {"relu": "torch.nn.functional.relu"}}
        a call of the constructor argument: a string maps through "strings",
        a function is an op of its own name, a module is a call of the child
        registered under the argument's name

SHAPE RULES ("shape": the first output's shape from the shape of the first
forward argument, or of "of"; null when not simple):

    {"rule": "same"} | {"rule": "scalar"} | {"rule": "last", "dim": e}
    {"rule": "append", "dim": e} | {"rule": "halve", "dim": e} (GLU)
    {"rule": "drop", "dim": e} | {"rule": "flatten", "start": e, "end": e}
    {"rule": "unflatten", "dim": e, "sizes": e}
    {"rule": "conv", "dims": n, "channels": e|null, "kernel": e, "stride": e,
     "padding": e, "dilation": e, "ceil": e, "transposed": true,
     "output_padding": e}        the last n dims, PyTorch's output-size formula
    {"rule": "conv_same", "dims": n, "channels": e}   padding="same"
    {"rule": "adaptive", "dims": n, "size": e} | {"rule": "interpolate"}
    {"rule": "pixel_shuffle" | "pixel_unshuffle", "factor": e}
    {"rule": "pad", "dims": n, "padding": e}
    {"if": e, "then": rule, "else": rule | null}

CHILDREN ("children": the submodules a composite builds): {"name", "class":
dotted name or {"arg": p} (the module passed as p), "when", "args": {param:
e}, "items": {"copy_of": p, "count": e} (a ModuleList of deep copies)}.
"""

import argparse
import importlib.util
import inspect
import json
import math
import os
import sys
import types
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.modules.module as nn_module_mod
from torch.overrides import TorchFunctionMode

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
NN_JSON = os.path.join(TOP, "catalog", "torch_nn.json")
NAMES_JSON = os.path.join(TOP, "catalog", "torch_names.json")

_spec = importlib.util.spec_from_file_location("ecg_oracle_record", os.path.join(HERE, "record.py"))
R = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(R)

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

NN_FORMAT = "ecg.catalog.torch_nn/1"
NAMES_FORMAT = "ecg.catalog.torch_names/1"


def vtuple(v):
    return tuple(int(x) for x in v.split(".")[:2] if x.isdigit())


TORCH_VERSION = vtuple(torch.__version__)


# ================================================================ expressions
# Shorthands that build the JSON form.

def LIT(v): return {"lit": v}
def FWD(n): return {"fwd": n}
def RANK(n): return {"rank": n}
def SIZE(n, i): return {"size": [n, i]}
def DTYPE(n): return {"dtype": n}
def SAME(a, b): return {"same": [a, b]}
def NOT(e): return {"not": e}
def AND(*e): return {"and": list(e)}
def OR(*e): return {"or": list(e)}
def ISNONE(e): return {"is_none": e}
def NOTNONE(e): return {"not": {"is_none": e}}
def EQ(a, b): return {"eq": [a, b]}
def NE(a, b): return {"ne": [a, b]}
def GT(a, b): return {"gt": [a, b]}
def IN(e, lst): return {"in": [e, LIT(lst)]}
def SUM(*e): return {"sum": list(e)}
def MUL(*e): return {"mul": list(e)}
def SUB(a, b): return {"sub": [a, b]}
def DIV(a, b): return {"div": [a, b]}
def MOD(a, b): return {"mod": [a, b]}
def IF(c, a, b): return {"if": c, "then": a, "else": b}
def B(name): return {"if": name, "then": 1, "else": 0}
def PROD(e, dims=None): return {"prod": e, "dims": dims} if dims else {"prod": e}


TRAINING = {"state": "training"}
FIRST = {"state": "first_call"}
DISTRIBUTED = {"state": "distributed"}


class Unknown(Exception):
    pass


class CallableName(str):
    """A callable default ({"callable": "torch.nn.functional.relu"})."""


class NewModule:
    """{"new": "torch.nn.LayerNorm", "args": {...}}: a module a constructor builds."""

    def __init__(self, cls, args):
        self.cls = cls
        self.args = args


class Env:
    """What an expression is evaluated against in this script: the real
    module, its constructor arguments as passed (bound, defaults filled),
    the forward arguments as passed (bound, defaults filled)."""

    def __init__(self, cls, args, fwd, training, first_call, ctor_args):
        self.cls = cls
        self.args = args
        self.fwd = fwd
        self.training = training
        self.first_call = first_call
        self.ctor_args = ctor_args     # id(module) -> bound ctor args
        self.children_numel = False    # {"children": p}: count p's parameters
        self._vars = {}

    def name(self, n):
        if n in self.cls.get("vars", {}):
            if n not in self._vars:
                self._vars[n] = evaluate(self.cls["vars"][n], self)
            return self._vars[n]
        if "." in n:
            head, rest = n.split(".", 1)
            sub = self.args[head]
            if isinstance(sub, NewModule):
                if rest not in sub.args:
                    raise Unknown(n)
                return evaluate(sub.args[rest], self)
            return ctor_args(sub)[rest]
        if n not in self.args:
            raise KeyError("%s: unknown name %r" % (self.cls["name"], n))
        return self.args[n]


def _numel(v):
    """Parameters held by a constructor argument (a module, a parameter, or
    a list / dict / tuple of them)."""
    if v is None:
        return 0
    if isinstance(v, nn.Module):
        return sum(p.numel() for p in v.parameters())
    if isinstance(v, torch.Tensor):
        return v.numel() if isinstance(v, nn.Parameter) else 0
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (list, tuple)):
        return sum(_numel(x) for x in v)
    return 0


def _callable_name(v):
    if isinstance(v, CallableName):
        return str(v)
    if isinstance(v, NewModule):
        return v.cls
    if isinstance(v, nn.Module):
        return R.class_label(type(v), R.Files("/nonexistent"))
    if callable(v):
        return R.base_name(v)
    return None


def _eq(a, b):
    if isinstance(a, str) and not isinstance(b, str):
        a, b = b, a
    if isinstance(b, str) and not isinstance(a, str):
        return _callable_name(a) == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return a == b


def _prod(v, dims):
    if isinstance(v, (list, tuple, torch.Size)):
        return math.prod(int(x) for x in v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("prod of %r" % (v,))
    return v ** (dims or 1)


def evaluate(e, env):
    if e is None or isinstance(e, (bool, int, float)):
        return e
    if isinstance(e, str):
        return env.name(e)
    if isinstance(e, list):
        raise TypeError("bare list in expression: %r" % (e,))
    (k, v), = [(k, v) for k, v in e.items() if k not in ("then", "else", "dims", "args")] or [(None, None)]
    if k == "lit":
        return v
    if k == "fwd":
        return env.fwd[v]
    if k == "rank":
        return env.fwd[v].dim()
    if k == "size":
        return env.fwd[v[0]].shape[evaluate(v[1], env)]
    if k == "dtype":
        return str(env.fwd[v].dtype)
    if k == "same":
        return env.fwd[v[0]] is env.fwd[v[1]]
    if k == "state":
        if v == "training":
            return env.training
        if v == "first_call":
            return env.first_call
        if v == "distributed":
            return False
        raise KeyError(v)
    if k == "not":
        return not evaluate(v, env)
    if k == "and":
        return all(evaluate(x, env) for x in v)
    if k == "or":
        return any(evaluate(x, env) for x in v)
    if k == "is_none":
        return evaluate(v, env) is None
    if k in ("eq", "ne"):
        r = _eq(evaluate(v[0], env), evaluate(v[1], env))
        return r if k == "eq" else not r
    if k in ("lt", "le", "gt", "ge"):
        a, b = evaluate(v[0], env), evaluate(v[1], env)
        return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[k]
    if k == "in":
        x = evaluate(v[0], env)
        return any(_eq(x, y) for y in evaluate(v[1], env))
    if k == "sum":
        return sum(int(evaluate(x, env)) for x in v)
    if k == "mul":
        return math.prod(int(evaluate(x, env)) for x in v)
    if k == "sub":
        return int(evaluate(v[0], env)) - int(evaluate(v[1], env))
    if k == "div":
        return int(evaluate(v[0], env)) // int(evaluate(v[1], env))
    if k == "mod":
        return int(evaluate(v[0], env)) % int(evaluate(v[1], env))
    if k == "if":
        return evaluate(e["then"] if evaluate(v, env) else e["else"], env)
    if k == "prod":
        return _prod(evaluate(v, env), e.get("dims"))
    if k == "children":
        if not env.children_numel:
            raise Unknown(v)
        return _numel(env.name(v))
    if k == "new":
        return NewModule(v, e.get("args", {}))
    if k == "is_module":
        return isinstance(env.name(v), nn.Module)
    raise KeyError("bad expression %r" % (e,))


# ================================================================ op steps

def op(name, when=None):
    d = {"op": name}
    if when is not None:
        d["when"] = when
    return d


def mod(name, when=None, repeat=None):
    d = {"module": name}
    if repeat is not None:
        d["repeat"] = repeat
    if when is not None:
        d["when"] = when
    return d


def call_arg(arg, strings, when=None):
    d = {"call_arg": arg, "strings": strings}
    if when is not None:
        d["when"] = when
    return d


def group(when, *items):
    return {"group": list(items), "when": when}


def flatten_steps(items, outer=None):
    out = []
    for it in items:
        conds = [c for c in (outer, it.get("when")) if c is not None]
        when = None if not conds else conds[0] if len(conds) == 1 else AND(*conds)
        if "group" in it:
            out.extend(flatten_steps(it["group"], when))
            continue
        d = {k: v for k, v in it.items() if k != "when"}
        if when is not None:
            d["when"] = when
        out.append(d)
    return out


# ================================================================ cases

class In:
    """A forward input: a shape (float randn), or a special maker."""

    def __init__(self, make):
        self.make = make


def T(*shape):
    return In(lambda prev: torch.randn(*shape))


def L(hi, *shape):
    return In(lambda prev: torch.randint(0, hi, shape))


def U(*shape):
    return In(lambda prev: torch.rand(*shape).clamp(0.05, 0.95))


def Z(*shape, dtype=torch.bool):
    return In(lambda prev: torch.zeros(*shape, dtype=dtype))


def AGAIN(i):
    """The same tensor object as input i (self-attention)."""
    return In(lambda prev: prev[i])


def TUP(*ins):
    return In(lambda prev: tuple(x.make(prev) for x in ins))


def V(value):
    return In(lambda prev: value)


def make_inputs(specs):
    out = []
    for s in specs:
        if isinstance(s, tuple):
            s = T(*s)
        out.append(s.make(out))
    return out


class Case:
    def __init__(self, *args, x=(), fwd=None, build=None, **kwargs):
        self.args = args
        self.kwargs = kwargs
        self.x = list(x)
        self.fwd = fwd or {}
        self.build = build      # callable returning (args, kwargs) built fresh

    def ctor(self):
        if self.build:
            return self.build()
        return self.args, dict(self.kwargs)

    def __repr__(self):
        a = [repr(x) for x in self.args] + ["%s=%r" % kv for kv in self.kwargs.items()]
        if self.build:
            a = ["<built>"]
        shapes = []
        for x in self.x:
            shapes.append("x".join(map(str, x)) if isinstance(x, tuple) else "*")
        return "(%s)[%s]" % (", ".join(a), ",".join(shapes))


C = Case


# ================================================================ the spec

SPEC = []
SHOW_HIDDEN = {"device", "dtype", "size_average", "reduce", "min_value", "max_value",
               "recompute_scale_factor", "_random_samples", "custom_encoder",
               "custom_decoder", "process_group", "_weight", "_freeze"}


def K(name, cases, count=0, shape=None, ops=None, kind="layer", vars=None,
      extra_params=(), params=None, children=None, notes=None, min_torch=None,
      module=None, forward_params=None, recorded=True, fwd_extra=(), show=None):
    SPEC.append({
        "name": "torch.nn." + name, "short": name, "cases": cases, "count": count,
        "shape": shape, "ops": ops, "kind": kind, "vars": vars or {},
        "extra_params": list(extra_params), "params": params,
        "children": children, "notes": notes, "min_torch": min_torch,
        "module": module, "forward_params": forward_params, "recorded": recorded,
        "fwd_extra": list(fwd_extra), "show": show,
    })


def P(name, default=inspect.Parameter.empty, kind="positional", min_torch=None):
    d = {"name": name}
    if default is not inspect.Parameter.empty:
        d["default"] = default
        if isinstance(default, float):
            d["float"] = True   # JSON readers (cJSON) cannot tell 1.0 from 1
    if kind != "positional":
        d["kind"] = kind
    if min_torch:
        d["min_torch"] = min_torch
    return d


# ---- shape rules

SAME_SHAPE = {"rule": "same"}
SCALAR = {"rule": "scalar"}


def LAST(e): return {"rule": "last", "dim": e}
def APPEND(e): return {"rule": "append", "dim": e}


def CONV(dims, channels, kernel, stride, padding, dilation, ceil=False, transposed=False,
         output_padding=0):
    r = {"rule": "conv", "dims": dims, "channels": channels, "kernel": kernel,
         "stride": stride, "padding": padding, "dilation": dilation}
    if ceil is not False:
        r["ceil"] = ceil
    if transposed:
        r["transposed"] = True
        r["output_padding"] = output_padding
    return r


def ADAPTIVE(dims): return {"rule": "adaptive", "dims": dims, "size": "output_size"}


REDUCED = {"if": EQ("reduction", LIT("none")), "then": SAME_SHAPE, "else": SCALAR}


# ---- linear and friends

K("Identity", [C(x=[(2, 4)]), C(3, foo=1, x=[(5,)])], shape=SAME_SHAPE, ops=[],
  params=[P("args", kind="var_positional"), P("kwargs", kind="var_keyword")])
K("Linear", [C(4, 3, x=[(2, 4)]), C(4, 3, bias=False, x=[(5, 2, 4)]), C(in_features=6, out_features=1, x=[(6,)])],
  count=MUL("out_features", SUM("in_features", B("bias"))), shape=LAST("out_features"))
K("Bilinear", [C(4, 5, 3, x=[(2, 4), (2, 5)]), C(4, 5, 3, bias=False, x=[(2, 4), (2, 5)])],
  count=MUL("out_features", SUM(MUL("in1_features", "in2_features"), B("bias"))),
  shape=LAST("out_features"))


def MATERIALIZE():
    """What UninitializedParameter.materialize() reads and calls (torch 1.13)."""
    return [op("Tensor.data"), op("Tensor.device"), op("Tensor.data"), op("Tensor.dtype"),
            op("torch.empty"), op("?.getset_descriptor.__set__")]


K("LazyLinear", [C(3, x=[(2, 4)]), C(3, bias=False, x=[(5, 6)])],
  count=MUL("out_features", SUM(SIZE("input", -1), B("bias"))), shape=LAST("out_features"),
  ops=[group(FIRST, op("Tensor.shape"), *MATERIALIZE(),
             group("bias", *MATERIALIZE()),
             op("torch.nn.init.kaiming_uniform_"),
             group("bias", op("Tensor.dim"), op("Tensor.size"), op("Tensor.size"), op("Tensor.dim"),
                   op("torch.nn.init.uniform_"))),
       op("torch.nn.functional.linear")],
  notes="After its first forward the module's class becomes torch.nn.Linear (cls_to_become).")

# ---- convolutions

def conv_count(dims, transposed=False):
    k = PROD("kernel_size", dims)
    if transposed:
        w = MUL("in_channels", DIV("out_channels", "groups"), k)
    else:
        w = MUL("out_channels", DIV("in_channels", "groups"), k)
    return SUM(w, MUL(B("bias"), "out_channels"))


def conv_shape(dims):
    return {"if": IN("padding", ["same"]),
            "then": {"rule": "conv_same", "dims": dims, "channels": "out_channels"},
            "else": CONV(dims, "out_channels", "kernel_size", "stride",
                         IF(IN("padding", ["valid"]), 0, "padding"), "dilation")}


for d in (1, 2, 3):
    sp = (6,) * d
    K("Conv%dd" % d,
      [C(2, 4, 3, x=[(1, 2) + sp]), C(2, 4, 3, bias=False, stride=2, padding=1, x=[(2, 2) + sp]),
       C(4, 6, 3, groups=2, dilation=2, padding=2, padding_mode="reflect", x=[(1, 4) + sp]),
       C(2, 4, (3,) * d, padding="same", padding_mode="circular", x=[(1, 2) + sp]),
       C(2, 4, 1, padding="valid", x=[(1, 2) + sp])],
      count=conv_count(d), shape=conv_shape(d),
      ops=[op("torch.nn.functional.pad", NE("padding_mode", LIT("zeros"))),
           op("torch.nn.functional.conv%dd" % d)])
    K("ConvTranspose%dd" % d,
      [C(2, 4, 3, x=[(1, 2) + sp]), C(2, 4, 3, bias=False, stride=2, padding=1, output_padding=1, x=[(2, 2) + sp]),
       C(4, 6, 3, groups=2, dilation=2, x=[(1, 4) + sp]),
       C(2, 3, 3, stride=2, x=[(1, 2) + sp], fwd={"output_size": [14] * d}),
       C(2, 3, 3, stride=2, x=[(2,) + sp], fwd={"output_size": [3] + [14] * d})],
      count=conv_count(d, True),
      shape={"if": ISNONE(FWD("output_size")),
             "then": CONV(d, "out_channels", "kernel_size", "stride", "padding", "dilation",
                          transposed=True, output_padding="output_padding"),
             "else": None},
      ops=[group(NOTNONE(FWD("output_size")), op("Tensor.dim"), *[op("Tensor.size")] * d),
           op("torch.nn.functional.conv_transpose%dd" % d)])
    K("LazyConv%dd" % d,
      [C(4, 3, x=[(1, 2) + sp]), C(4, 3, bias=False, x=[(2,) + sp])],
      count=SUM(MUL("out_channels", DIV(SIZE("input", -(d + 1)), "groups"), PROD("kernel_size", d)),
                MUL(B("bias"), "out_channels")),
      shape=CONV(d, "out_channels", "kernel_size", "stride", "padding", "dilation"),
      ops=[group(FIRST, op("Tensor.dim"), op("Tensor.dim"), op("Tensor.shape"), *MATERIALIZE(),
                 group("bias", *MATERIALIZE()),
                 op("torch.nn.init.kaiming_uniform_"),
                 group("bias", op("Tensor.dim"), op("Tensor.size"), op("Tensor.size"),
                       op("Tensor.dim"), op("Tensor.shape"), op("torch.nn.init.uniform_"))),
           op("torch.nn.functional.pad", NE("padding_mode", LIT("zeros"))),
           op("torch.nn.functional.conv%dd" % d)],
      notes="After its first forward the module's class becomes torch.nn.Conv%dd." % d)

# ---- normalisation

for d, shp in ((1, (2, 4)), (2, (2, 4, 3, 3)), (3, (2, 4, 2, 2, 2))):
    extra = [C(4, x=[(2, 4, 5)])] if d == 1 else []
    bn_ops = [op("Tensor.dim"), op("Tensor.dim", NE(RANK("input"), 2)) if d == 1 else None,
              group(AND(TRAINING, "track_running_stats"), op("Tensor.add_"),
                    op("Tensor.__float__", ISNONE("momentum"))),
              op("torch.nn.functional.batch_norm")]
    bn_ops = [x for x in bn_ops if x is not None]
    K("BatchNorm%dd" % d,
      [C(4, x=[shp]), C(4, affine=False, x=[shp]), C(4, track_running_stats=False, x=[shp]),
       C(4, momentum=None, x=[shp])] + extra,
      count=MUL(2, "num_features", B("affine")), shape=SAME_SHAPE, ops=bn_ops)
    K("LazyBatchNorm%dd" % d,
      [C(x=[shp]), C(affine=False, x=[shp]), C(track_running_stats=False, momentum=None, x=[shp])],
      count=MUL(2, SIZE("input", 1), B("affine")), shape=SAME_SHAPE,
      ops=[group(FIRST, op("Tensor.shape"),
                 group("affine", *MATERIALIZE(), *MATERIALIZE()),
                 group("track_running_stats", *MATERIALIZE(), *MATERIALIZE()),
                 group("track_running_stats", op("Tensor.zero_"), op("Tensor.fill_"), op("Tensor.zero_")),
                 group("affine", op("Tensor.fill_"), op("Tensor.zero_")))] + bn_ops,
      notes="After its first forward the module's class becomes torch.nn.BatchNorm%dd." % d)
    in_shp = shp if d > 1 else (2, 4, 5)
    nobatch = in_shp[1:]
    K("InstanceNorm%dd" % d,
      [C(4, x=[in_shp]), C(4, affine=True, x=[in_shp]), C(4, track_running_stats=True, x=[nobatch])],
      count=MUL(2, "num_features", B("affine")), shape=SAME_SHAPE,
      ops=[op("Tensor.dim"), op("Tensor.dim"),
           op("Tensor.unsqueeze", EQ(RANK("input"), d + 1)),
           op("torch.nn.functional.instance_norm"),
           op("Tensor.squeeze", EQ(RANK("input"), d + 1))])

K("SyncBatchNorm", [C(4, x=[(2, 4)])], count=MUL(2, "num_features", B("affine")), shape=SAME_SHAPE,
  recorded=False,
  ops=[op("Tensor.is_cuda"), op("Tensor.dim"), op("Tensor.size"),
       group(AND(TRAINING, "track_running_stats"), op("Tensor.add_"),
             op("Tensor.item", ISNONE("momentum"))),
       op("torch.nn.functional.batch_norm", NOT(AND(TRAINING, DISTRIBUTED))),
       op("torch.nn.modules._functions.SyncBatchNorm.apply", AND(TRAINING, DISTRIBUTED))],
  notes="forward raises on a CPU tensor, so these ops are written from torch 1.13's source, not "
        "recorded; in training with a process group of world size > 1 it calls the autograd "
        "function SyncBatchNorm.apply instead of F.batch_norm (name as Python spells it)")
K("LayerNorm", [C(4, x=[(2, 3, 4)]), C((3, 4), elementwise_affine=False, x=[(2, 3, 4)]),
                C([3, 4], eps=1e-6, x=[(3, 4)])],
  count=IF("elementwise_affine", MUL(PROD("normalized_shape"), IF("bias", 2, 1)), 0),
  extra_params=[P("bias", True, min_torch="2.1")], shape=SAME_SHAPE)
K("GroupNorm", [C(2, 4, x=[(2, 4, 3)]), C(1, 6, affine=False, x=[(2, 6, 2, 2)])],
  count=MUL(2, "num_channels", B("affine")), shape=SAME_SHAPE)
K("LocalResponseNorm", [C(2, x=[(1, 4, 5, 5)])], shape=SAME_SHAPE)
K("RMSNorm", [], min_torch="2.4",
  params=[P("normalized_shape"), P("eps", None), P("elementwise_affine", True), P("device", None),
          P("dtype", None)],
  forward_params=[P("x")],
  count=IF("elementwise_affine", PROD("normalized_shape"), 0), shape=SAME_SHAPE,
  ops=[op("torch.nn.functional.rms_norm")])

# ---- embeddings

K("Embedding", [C(10, 3, x=[L(10, 2, 5)]), C(10, 3, padding_idx=0, max_norm=1.0, x=[L(10, 7)])],
  count=MUL("num_embeddings", "embedding_dim"), shape=APPEND("embedding_dim"),
  extra_params=[P("_freeze", False, min_torch="2.0")])
K("EmbeddingBag", [C(10, 3, x=[L(10, 2, 4)]), C(10, 3, mode="sum", x=[L(10, 8)], fwd={"offsets": V(torch.tensor([0, 3]))})],
  count=MUL("num_embeddings", "embedding_dim"),
  shape={"if": EQ(RANK("input"), 2), "then": {"rule": "last", "dim": "embedding_dim"}, "else": None})

# ---- dropout

for n, fn in (("Dropout", "dropout"), ("Dropout1d", "dropout1d"), ("Dropout2d", "dropout2d"),
              ("Dropout3d", "dropout3d"), ("AlphaDropout", "alpha_dropout"),
              ("FeatureAlphaDropout", "feature_alpha_dropout")):
    shp = {"Dropout1d": (2, 3, 4), "Dropout2d": (2, 3, 4, 4), "Dropout3d": (2, 3, 2, 2, 2)}.get(n, (2, 3, 4, 4))
    K(n, [C(x=[shp]), C(0.1, inplace=True, x=[shp])], shape=SAME_SHAPE)

# ---- activations

ACT = [
    ("ReLU", [C(x=[(2, 3)]), C(inplace=True, x=[(2, 3)])]),
    ("ReLU6", [C(x=[(2, 3)])]),
    ("GELU", [C(x=[(2, 3)]), C(approximate="tanh", x=[(2, 3)])]),
    ("SiLU", [C(x=[(2, 3)])]),
    ("Mish", [C(x=[(2, 3)])]),
    ("Tanh", [C(x=[(2, 3)])]),
    ("Sigmoid", [C(x=[(2, 3)])]),
    ("Softmax", [C(dim=-1, x=[(2, 3)]), C(x=[(2, 3)])]),
    ("Softmin", [C(dim=1, x=[(2, 3)])]),
    ("Softmax2d", [C(x=[(2, 3, 4, 4)])]),
    ("LogSoftmax", [C(dim=-1, x=[(2, 3)])]),
    ("LeakyReLU", [C(x=[(2, 3)]), C(0.2, True, x=[(2, 3)])]),
    ("ELU", [C(x=[(2, 3)])]),
    ("SELU", [C(x=[(2, 3)])]),
    ("CELU", [C(x=[(2, 3)])]),
    ("PReLU", [C(x=[(2, 3)]), C(3, x=[(2, 3, 4)])]),
    ("RReLU", [C(x=[(2, 3)])]),
    ("Hardtanh", [C(x=[(2, 3)]), C(-2.0, 2.0, x=[(2, 3)])]),
    ("Hardswish", [C(x=[(2, 3)])]),
    ("Hardsigmoid", [C(x=[(2, 3)])]),
    ("Hardshrink", [C(x=[(2, 3)])]),
    ("Softshrink", [C(x=[(2, 3)])]),
    ("Softplus", [C(x=[(2, 3)])]),
    ("Softsign", [C(x=[(2, 3)])]),
    ("LogSigmoid", [C(x=[(2, 3)])]),
    ("Tanhshrink", [C(x=[(2, 3)])]),
    ("Threshold", [C(0.1, 20.0, x=[(2, 3)])]),
]
for n, cases in ACT:
    K(n, cases, shape=SAME_SHAPE, count="num_parameters" if n == "PReLU" else 0)
K("GLU", [C(x=[(2, 4)]), C(dim=1, x=[(2, 6, 3)])], shape={"rule": "halve", "dim": "dim"})

# ---- pooling

for d in (1, 2, 3):
    sp = (8,) * d
    K("MaxPool%dd" % d,
      [C(2, x=[(1, 2) + sp]), C(3, stride=2, padding=1, dilation=1, ceil_mode=True, x=[(2,) + sp]),
       C(2, return_indices=True, x=[(1, 2) + sp])],
      shape=CONV(d, None, "kernel_size", IF(ISNONE("stride"), "kernel_size", "stride"), "padding",
                 "dilation", ceil="ceil_mode"),
      ops=[op("torch.nn.functional.max_pool%dd" % d, NOT("return_indices")),
           op("torch.nn.functional.max_pool%dd_with_indices" % d, "return_indices")])
    K("AvgPool%dd" % d,
      [C(2, x=[(1, 2) + sp]), C(3, stride=2, padding=1, ceil_mode=True, x=[(2,) + sp])],
      shape=CONV(d, None, "kernel_size", IF(ISNONE("stride"), "kernel_size", "stride"), "padding", 1,
                 ceil="ceil_mode"))
    K("AdaptiveAvgPool%dd" % d, [C(1, x=[(1, 2) + sp]), C((3,) * d, x=[(2,) + sp])], shape=ADAPTIVE(d))
    K("AdaptiveMaxPool%dd" % d, [C(1, x=[(1, 2) + sp]), C((3,) * d, return_indices=True, x=[(2,) + sp])],
      shape=ADAPTIVE(d),
      ops=[op("torch.nn.functional.adaptive_max_pool%dd" % d, NOT("return_indices")),
           op("torch.nn.functional.adaptive_max_pool%dd_with_indices" % d, "return_indices")])
    if d < 3:
        K("LPPool%dd" % d, [C(2, 2, x=[(1, 2) + sp])],
          shape=CONV(d, None, "kernel_size", IF(ISNONE("stride"), "kernel_size", "stride"), 0, 1,
                     ceil="ceil_mode"))
    K("MaxUnpool%dd" % d,
      [C(2, build=None, x=[(1, 2) + (4,) * d, L(2, 1, 2, *((4,) * d))])],
      shape=CONV(d, None, "kernel_size", IF(ISNONE("stride"), "kernel_size", "stride"), "padding", 1,
                 transposed=True, output_padding=0),
      notes="shape rule ignores a forward output_size")
K("FractionalMaxPool2d", [C(2, output_size=3, x=[(1, 2, 8, 8)])], shape=None)

# ---- resampling, reshaping, padding

K("Upsample", [C(scale_factor=2, x=[(1, 2, 4, 4)]), C(size=(5, 6), mode="bilinear", align_corners=False, x=[(1, 2, 4, 4)])],
  shape={"rule": "interpolate"})
K("UpsamplingNearest2d", [C(scale_factor=2, x=[(1, 2, 4, 4)])], shape={"rule": "interpolate"})
K("UpsamplingBilinear2d", [C(size=6, x=[(1, 2, 4, 4)])], shape={"rule": "interpolate"})
K("PixelShuffle", [C(2, x=[(1, 8, 3, 3)])], shape={"rule": "pixel_shuffle", "factor": "upscale_factor"})
K("PixelUnshuffle", [C(2, x=[(1, 2, 4, 4)])], shape={"rule": "pixel_unshuffle", "factor": "downscale_factor"})
K("ChannelShuffle", [C(2, x=[(1, 4, 3, 3)])], shape=SAME_SHAPE)
K("Flatten", [C(x=[(2, 3, 4)]), C(0, 1, x=[(2, 3, 4)])],
  shape={"rule": "flatten", "start": "start_dim", "end": "end_dim"})
K("Unflatten", [C(1, (2, 2), x=[(3, 4, 5)]), C(-1, [2, 3], x=[(6,)])],
  shape={"rule": "unflatten", "dim": "dim", "sizes": "unflattened_size"})
K("Fold", [C((4, 5), 2, x=[(1, 12, 12)])], shape=None)
K("Unfold", [C(2, x=[(1, 3, 4, 5)])], shape=None)

PADS = [("ZeroPad2d", 2, [C(1, x=[(1, 2, 3, 3)]), C((1, 0, 2, 1), x=[(2, 3, 3)])]),
        ("ConstantPad1d", 1, [C(2, 0.5, x=[(1, 2, 3)])]),
        ("ConstantPad2d", 2, [C((1, 1, 2, 0), 1.0, x=[(1, 2, 3, 3)])]),
        ("ConstantPad3d", 3, [C(1, 0.0, x=[(1, 2, 3, 3, 3)])]),
        ("ReflectionPad1d", 1, [C(1, x=[(1, 2, 3)])]),
        ("ReflectionPad2d", 2, [C(1, x=[(1, 2, 3, 3)]), C((1, 1, 2, 0), x=[(1, 2, 3, 3)])]),
        ("ReflectionPad3d", 3, [C(1, x=[(1, 2, 3, 3, 3)])]),
        ("ReplicationPad1d", 1, [C(1, x=[(1, 2, 3)])]),
        ("ReplicationPad2d", 2, [C(1, x=[(1, 2, 3, 3)])]),
        ("ReplicationPad3d", 3, [C(1, x=[(1, 2, 3, 3, 3)])])]
for n, d, cases in PADS:
    K(n, cases, shape={"rule": "pad", "dims": d, "padding": "padding"})
for n, d in (("ZeroPad1d", 1), ("ZeroPad3d", 3), ("CircularPad1d", 1), ("CircularPad2d", 2),
             ("CircularPad3d", 3)):
    K(n, [], min_torch="2.1", params=[P("padding")], forward_params=[P("input")],
      shape={"rule": "pad", "dims": d, "padding": "padding"}, ops=[op("torch.nn.functional.pad")])

# ---- attention and transformers

MHA_SELF = AND(SAME("query", "key"), SAME("key", "value"))
MHA_CHAIN = AND(EQ(RANK("query"), 3), MHA_SELF)
K("MultiheadAttention",
  [C(8, 2, x=[(3, 2, 8), AGAIN(0), AGAIN(0)]),
   C(8, 2, batch_first=True, x=[(2, 3, 8), AGAIN(0), AGAIN(0)]),
   C(8, 2, batch_first=True, x=[(2, 3, 8), (2, 4, 8), AGAIN(1)]),
   C(8, 2, batch_first=True, x=[(2, 3, 8), (2, 4, 8), (2, 4, 8)], fwd={"need_weights": False}),
   C(8, 2, batch_first=True, bias=False, x=[(2, 3, 8), AGAIN(0), AGAIN(0)]),
   C(8, 4, dropout=0.1, add_bias_kv=True, add_zero_attn=True, kdim=5, vdim=6,
     x=[(3, 2, 8), (4, 2, 5), (4, 2, 6)]),
   C(8, 2, kdim=8, vdim=8, batch_first=True, x=[(2, 3, 8), AGAIN(0), AGAIN(0)],
     fwd={"attn_mask": V(torch.zeros(3, 3))}),
   C(8, 2, x=[(3, 8), AGAIN(0), AGAIN(0)]),
   C(8, 2, batch_first=True, x=[(2, 3, 8), AGAIN(0), AGAIN(0)],
     fwd={"key_padding_mask": Z(2, 3)}),
   C(8, 2, x=[(3, 2, 8), AGAIN(0), AGAIN(0)], fwd={"key_padding_mask": Z(2, 3, dtype=torch.float32)}),
   C(8, 1, batch_first=True, x=[(2, 3, 8), AGAIN(0), AGAIN(0)])],
  vars={"qkv_same": AND(OR(ISNONE("kdim"), EQ("kdim", "embed_dim")),
                        OR(ISNONE("vdim"), EQ("vdim", "embed_dim")))},
  count=SUM(MUL("embed_dim", SUM("embed_dim", IF(ISNONE("kdim"), "embed_dim", "kdim"),
                                 IF(ISNONE("vdim"), "embed_dim", "vdim"))),
            MUL("embed_dim", "embed_dim"),
            MUL(4, "embed_dim", B("bias")), MUL(2, "embed_dim", B("add_bias_kv"))),
  shape=SAME_SHAPE, fwd_extra=[P("is_causal", False, min_torch="2.0")],
  ops=[op("Tensor.dim"),
       group(NOTNONE(FWD("key_padding_mask")), op("Tensor.dtype"),
             op("torch.is_floating_point", NE(DTYPE("key_padding_mask"), LIT("torch.bool")))),
       op("Tensor.dim", NE(RANK("query"), 3)),
       group(AND(MHA_CHAIN, "bias"), op("Tensor.dtype"), op("Tensor.dtype")),
       group(AND(MHA_CHAIN, "qkv_same"), op("Tensor.dtype"), op("Tensor.dtype")),
       op("Tensor.is_nested", AND(MHA_CHAIN, NOT(TRAINING), "batch_first", NOT("add_bias_kv"),
                                  EQ("dropout", 0), NOT("add_zero_attn"), "qkv_same",
                                  ISNONE(FWD("attn_mask")))),
       op("Tensor.is_nested"), op("Tensor.is_nested"), op("Tensor.is_nested"),
       group(AND("batch_first", EQ(RANK("query"), 3)),
             op("Tensor.transpose"),
             op("Tensor.transpose", NOT(MHA_SELF)),
             op("Tensor.transpose", NOT(SAME("key", "value")))),
       op("torch.nn.functional.multi_head_attention_forward"),
       op("Tensor.transpose", AND("batch_first", EQ(RANK("query"), 3)))],
  children=[{"name": "out_proj", "class": "torch.nn.modules.linear.NonDynamicallyQuantizableLinear",
             "args": {"in_features": "embed_dim", "out_features": "embed_dim", "bias": "bias"}}],
  notes="torch 1.13 has a fast path (torch._native_multi_head_attention) for batched self-attention "
        "in eval mode with batch_first, no grad, no bias_kv, no dropout, even num_heads, no "
        "attn_mask; it is never taken while a TorchFunctionMode is active (has_torch_function is "
        "then true), so the oracle, and these ops, always show the slow path. out_proj is never "
        "called as a module: its weight and bias go to F.multi_head_attention_forward.")

ACT_FAST = IN("activation", ["relu", "gelu", "torch.nn.functional.relu", "torch.nn.functional.gelu",
                             "torch.nn.ReLU", "torch.nn.GELU"])
ACT_STRINGS = {"relu": "torch.nn.functional.relu", "gelu": "torch.nn.functional.gelu"}


def ff_block(dropout_name):
    return [mod("linear1"), call_arg("activation", ACT_STRINGS), mod("dropout"), mod("linear2"),
            mod(dropout_name)]


def tel_children(prefix=""):
    a = lambda n: prefix + n
    return [
        {"name": "self_attn", "class": "torch.nn.MultiheadAttention",
         "args": {"embed_dim": a("d_model"), "num_heads": a("nhead"), "dropout": a("dropout"),
                  "batch_first": a("batch_first")}},
        {"name": "linear1", "class": "torch.nn.Linear",
         "args": {"in_features": a("d_model"), "out_features": a("dim_feedforward")}},
        {"name": "dropout", "class": "torch.nn.Dropout", "args": {"p": a("dropout")}},
        {"name": "linear2", "class": "torch.nn.Linear",
         "args": {"in_features": a("dim_feedforward"), "out_features": a("d_model")}},
        {"name": "norm1", "class": "torch.nn.LayerNorm",
         "args": {"normalized_shape": a("d_model"), "eps": a("layer_norm_eps")}},
        {"name": "norm2", "class": "torch.nn.LayerNorm",
         "args": {"normalized_shape": a("d_model"), "eps": a("layer_norm_eps")}},
        {"name": "dropout1", "class": "torch.nn.Dropout", "args": {"p": a("dropout")}},
        {"name": "dropout2", "class": "torch.nn.Dropout", "args": {"p": a("dropout")}},
    ]


def tdl_children():
    c = tel_children()
    c.insert(1, {"name": "multihead_attn", "class": "torch.nn.MultiheadAttention",
                 "args": {"embed_dim": "d_model", "num_heads": "nhead", "dropout": "dropout",
                          "batch_first": "batch_first"}})
    c.insert(7, {"name": "norm3", "class": "torch.nn.LayerNorm",
                 "args": {"normalized_shape": "d_model", "eps": "layer_norm_eps"}})
    c.append({"name": "dropout3", "class": "torch.nn.Dropout", "args": {"p": "dropout"}})
    return c


TRANSFORMER_LAYER_COUNT = lambda n_mha, n_norm: SUM(
    MUL(n_mha, SUM(MUL(4, "d_model", "d_model"), MUL(4, "d_model"))),
    MUL(2, "d_model", "dim_feedforward"), "dim_feedforward", "d_model",
    MUL(n_norm, 2, "d_model"))

K("TransformerEncoderLayer",
  [C(8, 2, 16, x=[(3, 2, 8)]), C(8, 2, 16, batch_first=True, x=[(2, 3, 8)]),
   C(8, 2, 16, batch_first=True, norm_first=True, activation="gelu", x=[(2, 3, 8)]),
   C(8, 2, 16, batch_first=True, activation=F.silu, x=[(2, 3, 8)]),
   C(8, 2, 16, batch_first=True, build=lambda: ((8, 2, 16), {"batch_first": True, "activation": nn.GELU()}),
     x=[(2, 3, 8)]),
   C(8, 2, 16, batch_first=True, x=[(2, 3, 8)], fwd={"src_mask": Z(3, 3)}),
   C(8, 2, 16, batch_first=True, x=[(2, 3, 8)], fwd={"src_key_padding_mask": Z(2, 3)}),
   C(8, 2, 16, x=[(3, 8)])],
  count=TRANSFORMER_LAYER_COUNT(1, 2), shape=SAME_SHAPE,
  extra_params=[P("bias", True, min_torch="2.1")],
  fwd_extra=[P("is_causal", False, min_torch="2.0")],
  ops=[group(NOTNONE(FWD("src_key_padding_mask")), op("Tensor.dtype"),
             op("torch.is_floating_point", NE(DTYPE("src_key_padding_mask"), LIT("torch.bool")))),
       op("Tensor.dim"),
       op("Tensor.dim", NE(RANK("src"), 3)),
       op("Tensor.is_nested", AND(EQ(RANK("src"), 3), NOT(TRAINING), "batch_first", ACT_FAST,
                                  ISNONE(FWD("src_mask")))),
       group("norm_first", mod("norm1"), mod("self_attn"), mod("dropout1"), op("Tensor.add"),
             mod("norm2"), *ff_block("dropout2"), op("Tensor.add")),
       group(NOT("norm_first"), mod("self_attn"), mod("dropout1"), op("Tensor.add"), mod("norm1"),
             *ff_block("dropout2"), op("Tensor.add"), mod("norm2"))],
  children=tel_children() + [{"name": "activation", "class": {"arg": "activation"},
                              "when": {"is_module": "activation"}}],
  notes="the fast path torch._transformer_encoder_layer_fwd (eval, batch_first, no grad) is never "
        "taken under a TorchFunctionMode; see MultiheadAttention.  The activation is called as "
        "given: a string maps through 'strings', a function is an op, a module is a child call.")
K("TransformerDecoderLayer",
  [C(8, 2, 16, x=[(4, 2, 8), (3, 2, 8)]), C(8, 2, 16, norm_first=True, batch_first=True, x=[(2, 4, 8), (2, 3, 8)])],
  count=TRANSFORMER_LAYER_COUNT(2, 3), shape=SAME_SHAPE,
  extra_params=[P("bias", True, min_torch="2.1")],
  fwd_extra=[P("tgt_is_causal", False, min_torch="2.0"), P("memory_is_causal", False, min_torch="2.0")],
  ops=[group("norm_first", mod("norm1"), mod("self_attn"), mod("dropout1"), op("Tensor.add"),
             mod("norm2"), mod("multihead_attn"), mod("dropout2"), op("Tensor.add"),
             mod("norm3"), *ff_block("dropout3"), op("Tensor.add")),
       group(NOT("norm_first"), mod("self_attn"), mod("dropout1"), op("Tensor.add"), mod("norm1"),
             mod("multihead_attn"), mod("dropout2"), op("Tensor.add"), mod("norm2"),
             *ff_block("dropout3"), op("Tensor.add"), mod("norm3"))],
  children=tdl_children())


K("TransformerEncoder",
  [C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16), 2), {}), x=[(3, 2, 8)]),
   C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 3),
                    {"norm": nn.LayerNorm(8)}), x=[(2, 3, 8)]),
   C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2), {}),
     x=[(2, 3, 8)], fwd={"src_key_padding_mask": Z(2, 3)}),
   C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2),
                    {"enable_nested_tensor": False}),
     x=[(2, 3, 8)], fwd={"src_key_padding_mask": Z(2, 3)}),
   C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, norm_first=True), 1), {}),
     x=[(2, 3, 8)]),
   C(build=lambda: ((nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1), {}), x=[(3, 8)])],
  vars={"reach": AND(NOT("encoder_layer.norm_first"), NOT(TRAINING), "encoder_layer.batch_first",
                     IN("encoder_layer.activation", ["relu", "gelu", "torch.nn.functional.relu",
                                                     "torch.nn.functional.gelu", "torch.nn.ReLU",
                                                     "torch.nn.GELU"]))},
  count=SUM(MUL("num_layers", {"children": "encoder_layer"}), {"children": "norm"}),
  shape=SAME_SHAPE, fwd_extra=[P("is_causal", None, min_torch="2.0")],
  ops=[group(NOTNONE(FWD("src_key_padding_mask")), op("Tensor.dtype"),
             op("torch.is_floating_point", NE(DTYPE("src_key_padding_mask"), LIT("torch.bool")))),
       group("reach", op("Tensor.dim"),
             op("Tensor.dim", NE(RANK("src"), 3)),
             group(AND(EQ(RANK("src"), 3), "enable_nested_tensor", NOTNONE(FWD("src_key_padding_mask"))),
                   group("mask_check", op("Tensor.logical_not"),
                         op("torch._nested_tensor_from_mask_left_aligned")),
                   op("Tensor.is_nested"))),
       mod("layers.*", repeat="num_layers"),
       mod("norm", NOTNONE("norm"))],
  children=[{"name": "layers", "class": "torch.nn.ModuleList",
             "items": {"copy_of": "encoder_layer", "count": "num_layers"}},
            {"name": "norm", "class": {"arg": "norm"}, "when": NOTNONE("norm")}],
  notes="the layers are copy.deepcopy()s of encoder_layer (never constructed by a call); the "
        "nested-tensor fast path is never taken under a TorchFunctionMode")
K("TransformerDecoder",
  [C(build=lambda: ((nn.TransformerDecoderLayer(8, 2, 16), 2), {}), x=[(4, 2, 8), (3, 2, 8)]),
   C(build=lambda: ((nn.TransformerDecoderLayer(8, 2, 16), 1), {"norm": nn.LayerNorm(8)}),
     x=[(4, 2, 8), (3, 2, 8)])],
  count=SUM(MUL("num_layers", {"children": "decoder_layer"}), {"children": "norm"}),
  shape=SAME_SHAPE,
  fwd_extra=[P("tgt_is_causal", None, min_torch="2.0"), P("memory_is_causal", False, min_torch="2.0")],
  ops=[mod("layers.*", repeat="num_layers"), mod("norm", NOTNONE("norm"))],
  children=[{"name": "layers", "class": "torch.nn.ModuleList",
             "items": {"copy_of": "decoder_layer", "count": "num_layers"}},
            {"name": "norm", "class": {"arg": "norm"}, "when": NOTNONE("norm")}])
K("Transformer",
  [C(8, 2, 1, 1, 16, x=[(3, 2, 8), (4, 2, 8)]),
   C(8, 2, 2, 1, 16, batch_first=True, norm_first=True, x=[(2, 3, 8), (2, 4, 8)])],
  count=SUM(MUL("num_encoder_layers", TRANSFORMER_LAYER_COUNT(1, 2)),
            MUL("num_decoder_layers", TRANSFORMER_LAYER_COUNT(2, 3)), MUL(4, "d_model")),
  shape={"rule": "same", "of": "tgt"},
  extra_params=[P("bias", True, min_torch="2.1")],
  fwd_extra=[P("src_is_causal", None, min_torch="2.0"), P("tgt_is_causal", None, min_torch="2.0"),
             P("memory_is_causal", False, min_torch="2.0")],
  ops=[op("Tensor.dim"), op("Tensor.size"), op("Tensor.size"), op("Tensor.size"), op("Tensor.size"),
       mod("encoder"), mod("decoder")],
  children=[{"name": "encoder", "class": "torch.nn.TransformerEncoder",
             "args": {"encoder_layer": {"new": "torch.nn.TransformerEncoderLayer",
                                        "args": {"d_model": "d_model", "nhead": "nhead",
                                                 "dim_feedforward": "dim_feedforward",
                                                 "dropout": "dropout", "activation": "activation",
                                                 "layer_norm_eps": "layer_norm_eps",
                                                 "batch_first": "batch_first",
                                                 "norm_first": "norm_first"}},
                      "num_layers": "num_encoder_layers",
                      "norm": {"new": "torch.nn.LayerNorm",
                               "args": {"normalized_shape": "d_model", "eps": "layer_norm_eps"}}},
             "when": ISNONE("custom_encoder")},
            {"name": "decoder", "class": "torch.nn.TransformerDecoder",
             "args": {"decoder_layer": {"new": "torch.nn.TransformerDecoderLayer",
                                        "args": {"d_model": "d_model", "nhead": "nhead",
                                                 "dim_feedforward": "dim_feedforward",
                                                 "dropout": "dropout", "activation": "activation",
                                                 "layer_norm_eps": "layer_norm_eps",
                                                 "batch_first": "batch_first",
                                                 "norm_first": "norm_first"}},
                      "num_layers": "num_decoder_layers",
                      "norm": {"new": "torch.nn.LayerNorm",
                               "args": {"normalized_shape": "d_model", "eps": "layer_norm_eps"}}},
             "when": ISNONE("custom_decoder")}],
  notes="param_count assumes the built-in encoder and decoder (custom_encoder/custom_decoder None)")

# ---- recurrent

RNN_COMMON = [P("input_size"), P("hidden_size"), P("num_layers", 1), P("bias", True),
              P("batch_first", False), P("dropout", 0.0), P("bidirectional", False)]


def rnn_count(gates, proj):
    real = "real_hidden"
    twob = MUL(2, B("bias"))
    first = MUL(gates, "hidden_size", SUM("input_size", real, twob))
    rest = MUL(SUB("num_layers", 1), gates, "hidden_size", SUM(MUL(real, "dirs"), real, twob))
    parts = [first, rest]
    if proj:
        parts.append(MUL("num_layers", "proj_size", "hidden_size"))
    return MUL("dirs", SUM(*parts))


def rnn_ops(vf, two_states):
    """vf: the op steps of the _VF call."""
    hx_none = ISNONE(FWD("hx"))
    batched = EQ(RANK("input"), 3)
    if two_states:
        init = [op("Tensor.dtype"), op("Tensor.device"), op("torch.zeros"),
                op("Tensor.dtype"), op("Tensor.device"), op("torch.zeros")]
        given = [op("Tensor.dim", batched), op("Tensor.dim", batched),
                 op("Tensor.dim", NOT(batched)), op("Tensor.dim", NOT(batched)),
                 op("Tensor.unsqueeze", NOT(batched)), op("Tensor.unsqueeze", NOT(batched))]
        checks = [op("Tensor.dim"), op("Tensor.size"), op("Tensor.size"), op("Tensor.size"),
                  op("Tensor.size"), op("Tensor.size")]
        tail = [op("Tensor.squeeze", NOT(batched)), op("Tensor.squeeze", NOT(batched)),
                op("Tensor.squeeze", NOT(batched))]
        return ([op("Tensor.dim"), op("Tensor.unsqueeze", NOT(batched)), op("Tensor.size"),
                 group(hx_none, *init), group(NOT(hx_none), *given)] + checks + vf + tail)
    return [op("Tensor.dim"),
            group(NOT(batched), op("Tensor.unsqueeze"),
                  group(NOT(hx_none), op("Tensor.dim"), op("Tensor.unsqueeze"))),
            op("Tensor.dim", AND(batched, NOT(hx_none))),
            op("Tensor.size"),
            group(hx_none, op("Tensor.dtype"), op("Tensor.device"), op("torch.zeros")),
            op("Tensor.dim"), op("Tensor.size"), op("Tensor.size"), op("Tensor.size"),
            *vf,
            group(NOT(batched), op("Tensor.squeeze"), op("Tensor.squeeze"))]


RNN_VARS = {"dirs": IF("bidirectional", 2, 1), "real_hidden": "hidden_size"}
RNN_NOTE = ("torch 1.13's signature is (*args, **kwargs); these are the effective parameters "
            "(RNNBase's, in its positional order). ")
K("LSTM",
  [C(4, 5, 2, x=[(3, 2, 4)]), C(4, 5, x=[(3, 4)]),
   C(4, 5, 2, bias=False, batch_first=True, bidirectional=True, proj_size=3, x=[(2, 3, 4)]),
   C(4, 5, x=[(3, 2, 4)], fwd={"hx": TUP(T(1, 2, 5), T(1, 2, 5))}),
   C(4, 5, x=[(3, 4)], fwd={"hx": TUP(T(1, 5), T(1, 5))}),
   C(input_size=4, hidden_size=5, num_layers=3, dropout=0.1, x=[(3, 2, 4)])],
  params=RNN_COMMON + [P("proj_size", 0), P("device", None), P("dtype", None)],
  vars={"dirs": IF("bidirectional", 2, 1), "real_hidden": IF(GT("proj_size", 0), "proj_size", "hidden_size")},
  count=rnn_count(4, True),
  shape=LAST(MUL("dirs", "real_hidden")),
  ops=rnn_ops([op("torch.lstm")], True),
  notes=RNN_NOTE + "ops assume a Tensor input (not a PackedSequence).")
K("GRU",
  [C(4, 5, 2, x=[(3, 2, 4)]), C(4, 5, x=[(3, 4)]), C(4, 5, x=[(3, 4)], fwd={"hx": T(1, 5)}),
   C(4, 5, 2, bias=False, batch_first=True, bidirectional=True, x=[(2, 3, 4)], fwd={"hx": T(4, 2, 5)})],
  params=RNN_COMMON + [P("device", None), P("dtype", None)], vars=RNN_VARS,
  count=rnn_count(3, False), shape=LAST(MUL("dirs", "hidden_size")),
  ops=rnn_ops([op("torch.gru")], False),
  notes=RNN_NOTE + "ops assume a Tensor input (not a PackedSequence).")
K("RNN",
  [C(4, 5, 2, x=[(3, 2, 4)]), C(4, 5, nonlinearity="relu", x=[(3, 4)]),
   C(4, 5, 1, True, True, 0.0, True, x=[(2, 3, 4)], fwd={"hx": T(2, 2, 5)})],
  params=RNN_COMMON + [P("device", None), P("dtype", None), P("nonlinearity", "tanh", kind="keyword_only")],
  vars=RNN_VARS, count=rnn_count(1, False), shape=LAST(MUL("dirs", "hidden_size")),
  ops=rnn_ops([op("torch.rnn_tanh", EQ("nonlinearity", LIT("tanh"))),
               op("torch.rnn_relu", EQ("nonlinearity", LIT("relu")))], False),
  notes=RNN_NOTE + "nonlinearity is keyword-only in 1.13 (popped from **kwargs); in torch 2.x "
                   "it is the fourth positional parameter.  ops assume a Tensor input.")


def cell_ops(vf, two):
    batched = EQ(RANK("input"), 2)
    hx_none = ISNONE(FWD("hx"))
    return [op("Tensor.dim"), op("Tensor.dim"),
            op("Tensor.unsqueeze", NOT(batched)),
            group(hx_none, op("Tensor.size"), op("Tensor.dtype"), op("Tensor.device"), op("torch.zeros")),
            group(AND(NOT(hx_none), NOT(batched)), *([op("Tensor.unsqueeze")] * (2 if two else 1))),
            ] + vf + [group(NOT(batched), *([op("Tensor.squeeze")] * (2 if two else 1)))]


K("LSTMCell", [C(4, 5, x=[(2, 4)]), C(4, 5, bias=False, x=[(4,)], fwd={"hx": TUP(T(5), T(5))})],
  count=MUL(4, "hidden_size", SUM("input_size", "hidden_size", MUL(2, B("bias")))),
  shape=LAST("hidden_size"), ops=cell_ops([op("torch.lstm_cell")], True))
K("GRUCell", [C(4, 5, x=[(2, 4)]), C(4, 5, x=[(4,)], fwd={"hx": T(5)})],
  count=MUL(3, "hidden_size", SUM("input_size", "hidden_size", MUL(2, B("bias")))),
  shape=LAST("hidden_size"), ops=cell_ops([op("torch.gru_cell")], False))
K("RNNCell", [C(4, 5, x=[(2, 4)]), C(4, 5, False, "relu", x=[(4,)], fwd={"hx": T(5)})],
  count=MUL("hidden_size", SUM("input_size", "hidden_size", MUL(2, B("bias")))),
  shape=LAST("hidden_size"),
  ops=cell_ops([op("torch.rnn_tanh_cell", EQ("nonlinearity", LIT("tanh"))),
                op("torch.rnn_relu_cell", EQ("nonlinearity", LIT("relu")))], False))

# ---- losses

def REDUCED_TO(rule):
    """Loss shape: a scalar unless reduction='none', then `rule`."""
    return {"if": EQ("reduction", LIT("none")), "then": rule, "else": SCALAR}


DROP1 = {"rule": "drop", "dim": 1}
DROPLAST = {"rule": "drop", "dim": -1}
LOSSES = [
    ("CrossEntropyLoss", [C(x=[(4, 5), L(5, 4)]), C(label_smoothing=0.1, reduction="none", x=[(4, 5), L(5, 4)]),
                          C(reduction="none", x=[(4, 5, 3), L(5, 4, 3)])], DROP1),
    ("NLLLoss", [C(x=[(4, 5), L(5, 4)]), C(reduction="none", x=[(4, 5), L(5, 4)])], DROP1),
    ("MSELoss", [C(x=[(4, 5), (4, 5)]), C(reduction="none", x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("L1Loss", [C(x=[(4, 5), (4, 5)]), C(reduction="none", x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("SmoothL1Loss", [C(x=[(4, 5), (4, 5)]), C(reduction="none", beta=0.5, x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("HuberLoss", [C(x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("BCELoss", [C(x=[U(4, 5), U(4, 5)]), C(reduction="none", x=[U(4, 5), U(4, 5)])], SAME_SHAPE),
    ("BCEWithLogitsLoss", [C(x=[(4, 5), U(4, 5)]), C(reduction="sum", pos_weight=torch.ones(5), x=[(4, 5), U(4, 5)])],
     SAME_SHAPE),
    ("KLDivLoss", [C(reduction="batchmean", x=[(4, 5), U(4, 5)]), C(reduction="none", log_target=True, x=[(4, 5), (4, 5)])],
     SAME_SHAPE),
    ("SoftMarginLoss", [C(x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("MultiLabelSoftMarginLoss", [C(x=[(4, 5), U(4, 5)]), C(reduction="none", x=[(4, 5), U(4, 5)])], DROPLAST),
    ("MultiLabelMarginLoss", [C(x=[(4, 5), L(5, 4, 5)])], DROPLAST),
    ("HingeEmbeddingLoss", [C(x=[(4, 5), (4, 5)])], SAME_SHAPE),
    ("PoissonNLLLoss", [C(x=[(4, 5), U(4, 5)])], SAME_SHAPE),
    ("GaussianNLLLoss", [C(x=[(4, 5), (4, 5), U(4, 5)])], SAME_SHAPE),
    ("CosineEmbeddingLoss", [C(x=[(4, 5), (4, 5), (4,)]), C(reduction="none", x=[(4, 5), (4, 5), (4,)])], DROPLAST),
    ("MarginRankingLoss", [C(x=[(4,), (4,), (4,)])], SAME_SHAPE),
    ("TripletMarginLoss", [C(x=[(4, 5), (4, 5), (4, 5)]), C(reduction="none", x=[(4, 5), (4, 5), (4, 5)])], DROPLAST),
    ("MultiMarginLoss", [C(x=[(4, 5), L(5, 4)]), C(reduction="none", x=[(4, 5), L(5, 4)])], DROPLAST),
    ("CTCLoss", [C(x=[In(lambda p: torch.randn(6, 2, 5).log_softmax(2)),
                      L(4, 2, 3), V(torch.tensor([6, 6])), V(torch.tensor([3, 2]))])], None),
]
for n, cases, none_rule in LOSSES:
    K(n, cases, shape=REDUCED_TO(none_rule))
K("TripletMarginWithDistanceLoss",
  [C(x=[(4, 5), (4, 5), (4, 5)]), C(reduction="none", x=[(4, 5), (4, 5), (4, 5)]),
   C(build=lambda: ((), {"distance_function": nn.CosineSimilarity()}), x=[(4, 5), (4, 5), (4, 5)]),
   C(build=lambda: ((), {"distance_function": F.pairwise_distance}), x=[(4, 5), (4, 5), (4, 5)])],
  shape=REDUCED_TO(DROPLAST),
  children=[{"name": "distance_function", "class": "torch.nn.PairwiseDistance",
             "when": ISNONE("distance_function")},
            {"name": "distance_function", "class": {"arg": "distance_function"},
             "when": {"is_module": "distance_function"}}],
  notes="distance_function (default: a PairwiseDistance child) is called inside "
        "F.triplet_margin_with_distance_loss, so the oracle never sees it as a module call")
K("CosineSimilarity", [C(x=[(4, 5), (4, 5)]), C(dim=0, x=[(4, 5), (4, 5)])],
  shape={"rule": "drop", "dim": "dim"})
K("PairwiseDistance", [C(x=[(4, 5), (4, 5)]), C(keepdim=True, x=[(4, 5), (4, 5)])],
  shape={"if": "keepdim", "then": LAST(1), "else": {"rule": "drop", "dim": -1}})

# ---- containers

K("Sequential",
  [C(build=lambda: ((nn.Linear(4, 4), nn.ReLU()), {}), x=[(2, 4)]),
   C(build=lambda: ((), {}), x=[(2, 4)])],
  kind="container", count={"children": "args"}, ops=[mod("*")], shape=None,
  notes="also built from one OrderedDict argument; the children run in order, each on the "
        "previous one's output")
K("ModuleList", [C(build=lambda: (([nn.Linear(2, 2)],), {}))], kind="container",
  count={"children": "modules"}, ops=None,
  notes="no forward: the parent iterates or indexes it")
K("ModuleDict", [C(build=lambda: (({"a": nn.Linear(2, 2)},), {}))], kind="container",
  count={"children": "modules"}, ops=None, notes="no forward: the parent indexes it")
K("ParameterList", [C(build=lambda: (([nn.Parameter(torch.zeros(3))],), {}))], kind="container",
  count={"children": "values"}, ops=None, notes="no forward")
K("ParameterDict", [C(build=lambda: (({"w": nn.Parameter(torch.zeros(3))},), {}))], kind="container",
  count={"children": "parameters"}, ops=None, notes="no forward")

# a class that is not in torch.nn but that a built-in constructs
K("NonDynamicallyQuantizableLinear", [C(4, 3, x=[(2, 4)])],
  module="torch.nn.modules.linear",
  count=MUL("out_features", SUM("in_features", B("bias"))), shape=LAST("out_features"),
  notes="MultiheadAttention.out_proj; lives only at torch.nn.modules.linear")


# ================================================================ recording

CTOR = {}       # id(module) -> (class, args, kwargs) as passed to the constructor
_KEEP = []      # keeps every module built alive, so ids stay unique


def install_new():
    def __new__(cls, *args, **kwargs):
        obj = object.__new__(cls)
        CTOR[id(obj)] = (cls, args, kwargs)
        _KEEP.append(obj)
        return obj

    nn.Module.__new__ = __new__


class OpRecorder(TorchFunctionMode):
    """What record.py records for one module call: the outermost torch calls
    its forward makes and the submodules it calls, in order."""

    def __init__(self, root):
        super().__init__()
        self.names = {id(m): n for n, m in root.named_modules()}
        self.stack = []
        self.seq = []
        self.busy = 0

    def pre(self, module, args):
        if self.busy:
            return
        if len(self.stack) == 1:
            self.seq.append(("module", self.names.get(id(module), "?" + type(module).__name__), False))
        self.stack.append(module)

    def post(self, module, args, out):
        if self.busy:
            return
        while self.stack:
            if self.stack.pop() is module:
                break

    def add(self, func):
        name = R.base_name(func)
        self.seq.append(("op", name, R.is_meta(name, func)))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.busy or len(self.stack) != 1:
            return func(*args, **kwargs)
        self.busy += 1
        try:
            result = func(*args, **kwargs)
        finally:
            self.busy -= 1
        self.add(func)
        return result


def record_call(module, inputs, fwd, no_grad):
    rec = OpRecorder(module)
    orig = torch.Tensor.__getitem__

    def __getitem__(self, idx):
        if rec.busy or len(rec.stack) != 1:
            return orig(self, idx)
        rec.busy += 1
        try:
            result = orig(self, idx)
        finally:
            rec.busy -= 1
        rec.add(orig)
        return result

    torch.Tensor.__getitem__ = __getitem__
    h1 = nn_module_mod.register_module_forward_pre_hook(rec.pre)
    h2 = nn_module_mod.register_module_forward_hook(rec.post)
    try:
        with rec:
            if no_grad:
                with torch.no_grad():
                    out = module(*inputs, **fwd)
            else:
                out = module(*inputs, **fwd)
    finally:
        h1.remove()
        h2.remove()
        torch.Tensor.__getitem__ = orig
    return rec.seq, out


# ================================================================ building

def json_default(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)):
        return [json_default(x) for x in v]
    if callable(v):
        return {"callable": R.base_name(v)}
    raise TypeError("no JSON form for default %r" % (v,))


def sig_params(fn):
    out = []
    ps = list(inspect.signature(fn).parameters.values())[1:]
    for p in ps:
        kind = {p.VAR_POSITIONAL: "var_positional", p.VAR_KEYWORD: "var_keyword",
                p.KEYWORD_ONLY: "keyword_only"}.get(p.kind, "positional")
        d = P(p.name, kind=kind) if p.default is p.empty else P(p.name, json_default(p.default), kind=kind)
        out.append(d)
    return out


def insert_extra(params, extra):
    params = [dict(p) for p in params]
    for e in extra:
        names = [p["name"] for p in params]
        at = names.index("device") if "device" in names else len(params)
        params.insert(at, dict(e))
    return params


def torch_class(spec):
    if spec["module"]:
        mod = sys.modules.get(spec["module"]) or importlib.import_module(spec["module"])
        return getattr(mod, spec["short"], None)
    return getattr(nn, spec["short"], None)


def is_meta_name(name, props):
    if not name.startswith("Tensor."):
        return False
    short = name[len("Tensor."):]
    return short in R.META_METHODS or short in props


def build_class(spec, props, errors):
    cls = torch_class(spec)
    available = cls is not None
    if spec["min_torch"] and vtuple(spec["min_torch"]) <= TORCH_VERSION and not available:
        errors.append("%s: min_torch %s but torch %s lacks it" % (spec["name"], spec["min_torch"], torch.__version__))
    if not spec["min_torch"] and not available:
        errors.append("%s: not in torch %s (mark min_torch?)" % (spec["name"], torch.__version__))
    if spec["min_torch"] and available:
        errors.append("%s: marked min_torch %s but torch %s has it" % (spec["name"], spec["min_torch"], torch.__version__))
    out = {"name": spec["name"] if not spec["module"] else spec["module"] + "." + spec["short"],
           "module": cls.__module__ if available else spec["module"] or _MIN_TORCH_MODULES[spec["short"]],
           "kind": spec["kind"]}
    if spec["min_torch"]:
        out["min_torch"] = spec["min_torch"]
    # constructor parameters
    if available:
        real = sig_params(cls.__init__)
        if spec["params"] is not None:
            expect = spec["params"]
            if [p.get("kind", "positional") for p in real] == ["var_positional", "var_keyword"] and \
                    [p.get("kind", "positional") for p in expect] != ["var_positional", "var_keyword"]:
                if issubclass(cls, nn.RNNBase):
                    base = [p for p in sig_params(nn.RNNBase.__init__) if p["name"] != "mode"]
                    if cls is not nn.LSTM:
                        base = [p for p in base if p["name"] != "proj_size"]
                    mine = [{k: v for k, v in p.items() if k not in ("show",)} for p in expect
                            if p.get("kind", "positional") == "positional"]
                    if mine != base:
                        errors.append("%s: effective params %s != RNNBase's %s" % (spec["name"], mine, base))
                    out["torch_signature"] = str(inspect.signature(cls.__init__)).replace("self, ", "")
                else:
                    errors.append("%s: explicit params for a (*args, **kwargs) class" % spec["name"])
            elif [{k: v for k, v in p.items() if k != "show"} for p in expect if "min_torch" not in p] != real:
                errors.append("%s: params %s != torch %s" % (spec["name"], expect, real))
            params = expect
        else:
            params = insert_extra(real, spec["extra_params"])
    else:
        params = spec["params"]
    for p in params:
        p["show"] = p["name"] not in SHOW_HIDDEN and not p["name"].startswith("_") and \
            p.get("kind", "positional") not in ("var_keyword",)
        if spec["show"] is not None:
            p["show"] = p["name"] in spec["show"]
    out["params"] = params
    # forward parameters
    has_forward = available and cls.forward is not nn.Module.forward
    if spec["forward_params"] is not None:
        out["forward"] = spec["forward_params"]
    elif has_forward:
        out["forward"] = sig_params(cls.forward) + [dict(p) for p in spec["fwd_extra"]]
    else:
        out["forward"] = None
    if spec["vars"]:
        out["vars"] = spec["vars"]
    out["ops"] = None
    if spec["ops"] is not None:
        out["ops"] = flatten_steps(spec["ops"])
    out["recorded"] = spec["recorded"] and available
    out["param_count"] = spec["count"]
    out["shape"] = spec["shape"]
    if spec["children"]:
        out["children"] = spec["children"]
    if spec["notes"]:
        out["notes"] = spec["notes"]
    return out, cls


_MIN_TORCH_MODULES = {"RMSNorm": "torch.nn.modules.normalization", "ZeroPad1d": "torch.nn.modules.padding",
                      "ZeroPad3d": "torch.nn.modules.padding", "CircularPad1d": "torch.nn.modules.padding",
                      "CircularPad2d": "torch.nn.modules.padding", "CircularPad3d": "torch.nn.modules.padding"}


def bind(params, args, kwargs):
    """Constructor or forward arguments bound to catalogue parameters, defaults
    filled in (what the C side does with a call site)."""
    out = {}
    pos = [p for p in params if p.get("kind", "positional") == "positional"]
    var = [p for p in params if p.get("kind") == "var_positional"]
    args = list(args)
    for p in pos:
        if args:
            out[p["name"]] = args.pop(0)
    if var:
        out[var[0]["name"]] = args
        args = []
    if args:
        raise TypeError("too many positional arguments")
    for k, v in kwargs.items():
        if k in out:
            raise TypeError("%s given twice" % k)
        if any(p["name"] == k for p in params):
            out[k] = v
        else:
            vk = [p for p in params if p.get("kind") == "var_keyword"]
            if not vk:
                raise TypeError("unexpected keyword %s" % k)
            out.setdefault(vk[0]["name"], {})[k] = v
    for p in params:
        if p["name"] not in out and "default" in p:
            d = p["default"]
            out[p["name"]] = CallableName(d["callable"]) if isinstance(d, dict) else d
    return out


# ================================================================ checking

def expand(steps, env, module, where, errors):
    out = []
    for s in steps:
        if "when" in s and not evaluate(s["when"], env):
            continue
        if "op" in s:
            out.append(("op", s["op"]))
        elif "module" in s:
            n = s["module"]
            if n == "*":
                names = [c for c, _ in module.named_children()]
            elif n.endswith(".*"):
                base = n[:-2]
                names = ["%s.%s" % (base, c) for c, _ in module.get_submodule(base).named_children()]
                if "repeat" in s and evaluate(s["repeat"], env) != len(names):
                    errors.append("%s: repeat of %s is %r, torch has %d" % (where, n, evaluate(s["repeat"], env), len(names)))
            else:
                names = [n]
            out.extend(("module", x) for x in names)
        elif "call_arg" in s:
            v = env.name(s["call_arg"])
            if isinstance(v, CallableName):
                out.append(("op", str(v)))
            elif isinstance(v, str):
                out.append(("op", s["strings"][v]))
            elif isinstance(v, nn.Module):
                out.append(("module", s["call_arg"]))
            else:
                out.append(("op", R.base_name(v)))
    return out


def first_tensor(out):
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out:
        return first_tensor(out[0])
    return None


def _tup(v, n):
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v] * n


def apply_shape(rule, env, shapes):
    """The output shape a rule gives for the forward inputs' shapes (dict)."""
    if rule is None:
        return None
    if "if" in rule:
        return apply_shape(rule["then"] if evaluate(rule["if"], env) else rule["else"], env, shapes)
    src = rule.get("of")
    x = list(shapes[src] if src else shapes[None])
    k = rule["rule"]
    ev = lambda e: evaluate(e, env)
    if k == "same":
        return x
    if k == "scalar":
        return []
    if k == "last":
        return x[:-1] + [ev(rule["dim"])]
    if k == "append":
        return x + [ev(rule["dim"])]
    if k == "halve":
        d = ev(rule["dim"]) % len(x)
        x[d] //= 2
        return x
    if k == "drop":
        d = ev(rule["dim"]) % len(x)
        return x[:d] + x[d + 1:]
    if k == "flatten":
        a, b = ev(rule["start"]) % len(x), ev(rule["end"]) % len(x)
        return x[:a] + [math.prod(x[a:b + 1])] + x[b + 1:]
    if k == "unflatten":
        d = ev(rule["dim"]) % len(x)
        return x[:d] + list(ev(rule["sizes"])) + x[d + 1:]
    if k == "pixel_shuffle":
        r = ev(rule["factor"])
        return x[:-3] + [x[-3] // (r * r), x[-2] * r, x[-1] * r]
    if k == "pixel_unshuffle":
        r = ev(rule["factor"])
        return x[:-3] + [x[-3] * r * r, x[-2] // r, x[-1] // r]
    if k in ("conv", "conv_same", "adaptive", "interpolate", "pad"):
        n = rule.get("dims")
        if k == "interpolate":
            n = len(x) - 2
        sp = x[len(x) - n:]
        if k == "conv_same":
            res = sp
        elif k == "conv":
            ks, st = _tup(ev(rule["kernel"]), n), _tup(ev(rule["stride"]), n)
            pd, dl = _tup(ev(rule["padding"]), n), _tup(ev(rule["dilation"]), n)
            res = []
            for i, L_ in enumerate(sp):
                if rule.get("transposed"):
                    op_ = _tup(ev(rule["output_padding"]), n)
                    res.append((L_ - 1) * st[i] - 2 * pd[i] + dl[i] * (ks[i] - 1) + op_[i] + 1)
                    continue
                num = L_ + 2 * pd[i] - dl[i] * (ks[i] - 1) - 1
                if "ceil" in rule and ev(rule["ceil"]):
                    o = -(-num // st[i]) + 1
                    if (o - 1) * st[i] >= L_ + pd[i]:
                        o -= 1
                else:
                    o = num // st[i] + 1
                res.append(o)
        elif k == "adaptive":
            s = _tup(ev(rule["size"]), n)
            res = [sp[i] if s[i] is None else s[i] for i in range(n)]
        elif k == "interpolate":
            size, scale = ev("size"), ev("scale_factor")
            if size is not None:
                res = _tup(size, n)
            else:
                res = [int(math.floor(L_ * f)) for L_, f in zip(sp, _tup(scale, n))]
        elif k == "pad":
            p = _tup(ev(rule["padding"]), 2 * n)
            res = list(sp)
            for i in range(n):
                res[n - 1 - i] += p[2 * i] + p[2 * i + 1]
        out = x[:len(x) - n] + res
        ch = rule.get("channels")
        if ch is not None and len(x) > n:
            out[len(x) - n - 1] = ev(ch)
        return out
    raise KeyError("unknown shape rule %r" % k)


def check_children(spec_out, module, env, where, errors):
    kids = spec_out.get("children")
    real = dict(module.named_children())
    if spec_out["kind"] == "container":
        return
    if not kids:
        if real:
            errors.append("%s: torch builds children %s the catalogue does not list" % (where, sorted(real)))
        return
    expect = set()
    present_names = {c["name"] for c in kids if "when" not in c or evaluate(c["when"], env)}
    for c in kids:
        present = "when" not in c or evaluate(c["when"], env)
        if not present:
            if c["name"] in real and c["name"] not in present_names:
                errors.append("%s: child %s exists though its condition is false" % (where, c["name"]))
            continue
        expect.add(c["name"])
        ch = real.get(c["name"])
        if ch is None:
            errors.append("%s: no child %s" % (where, c["name"]))
            continue
        want = c["class"]
        if isinstance(want, dict):
            if type(ch) is not type(env.name(want["arg"])):
                errors.append("%s: child %s is %s, not the %s argument's class" % (where, c["name"], type(ch), want["arg"]))
        elif R.class_label(type(ch), R.Files("/nonexistent")) != want:
            errors.append("%s: child %s is %s, not %s" % (where, c["name"], R.class_label(type(ch), R.Files("/x")), want))
        if "items" in c:
            it = c["items"]
            n = evaluate(it["count"], env)
            proto = env.name(it["copy_of"])
            if len(ch) != n or any(type(x) is not type(proto) for x in ch):
                errors.append("%s: %s holds %d %s, catalogue says %d copies" % (where, c["name"], len(ch), type(proto), n))
        for pname, expr in c.get("args", {}).items():
            got = ctor_args(ch).get(pname)
            want_v = evaluate(expr, env)
            if isinstance(want_v, NewModule):
                ok = isinstance(got, nn.Module) and R.class_label(type(got), R.Files("/x")) == want_v.cls
            else:
                ok = _eq(got, want_v)
            if not ok:
                errors.append("%s: child %s arg %s = %r, catalogue says %r" % (where, c["name"], pname, got, want_v))
    if set(real) != expect:
        errors.append("%s: children %s, catalogue %s" % (where, sorted(real), sorted(expect)))


BUILT = {}      # class name -> catalogue entry (for binding nested modules' args)


def ctor_args(module):
    cls, args, kwargs = CTOR.get(id(module), (type(module), (), {}))
    entry = BUILT.get(R.class_label(cls, R.Files("/x")))
    if entry is not None:
        return bind(entry["params"], args, kwargs)
    sig = inspect.signature(cls.__init__)
    ba = sig.bind_partial(None, *args, **kwargs)
    ba.apply_defaults()
    return dict(list(ba.arguments.items())[1:])


def derive_ops(spec, entry, cls, errors):
    """The ops of a class whose forward has no conditions: what torch records
    for its first case in training mode (every case and mode is then checked
    against it)."""
    case = spec["cases"][0]
    a, k = case.ctor()
    module = cls(*a, **k)
    inputs = make_inputs(case.x)
    fwd = {kk: (vv.make(inputs) if isinstance(vv, In) else vv) for kk, vv in case.fwd.items()}
    try:
        seq, _ = record_call(module, inputs, fwd, False)
    except Exception as e:
        errors.append("%s%r: forward raised %r" % (spec["short"], case, e))
        return []
    return [op(n) if kind == "op" else mod(n) for kind, n, _ in seq]


MODES = (("train", True, False), ("eval", False, False), ("eval+no_grad", False, True))


def check_class(spec, entry, cls, props, errors, dump=False):
    n_checked = 0
    for ci, case in enumerate(spec["cases"]):
        for mode, training, no_grad in MODES:
            torch.manual_seed(0)
            where = "%s%r %s" % (spec["short"], case, mode)
            a, k = case.ctor()
            try:
                module = cls(*a, **k)
            except Exception as e:
                errors.append("%s: constructing: %s" % (where, e))
                break
            try:
                args = bind(entry["params"], a, k)
            except TypeError as e:
                errors.append("%s: binding to the catalogue's params: %s" % (where, e))
                break
            module.train(training)
            inputs = make_inputs(case.x)
            fwd = {}
            for kk, vv in case.fwd.items():
                fwd[kk] = vv.make(inputs) if isinstance(vv, In) else vv
            fwd_bound = bind(entry["forward"], inputs, fwd) if entry["forward"] is not None else {}
            env = None
            for call in (1, 2):
                env = Env(entry, args, fwd_bound, training, call == 1, None)
                if not case.x:
                    break
                try:
                    seq, out = record_call(module, inputs, fwd, no_grad)
                except Exception as e:
                    errors.append("%s call %d: forward raised %r" % (where, call, e))
                    break
                n_checked += 1
                if dump:
                    print("%s call %d: %s" % (where, call, [s[1] + ("*" if s[2] else "") for s in seq]))
                for kind, name, meta in seq:
                    if kind == "op" and meta != is_meta_name(name, props):
                        errors.append("%s: %s meta=%s in record.py, %s by the catalogue's rule" % (where, name, meta, not meta))
                if entry["ops"] is None:
                    errors.append("%s: has a forward but no ops" % where)
                    continue
                try:
                    want = expand(entry["ops"], env, module, where, errors)
                except Exception as e:
                    errors.append("%s call %d: evaluating ops: %r" % (where, call, e))
                    continue
                got = [(s[0], s[1]) for s in seq]
                if want != got:
                    errors.append("%s call %d: ops differ\n    torch:     %s\n    catalogue: %s"
                                  % (where, call, got, want))
                if call == 1 and mode == "train":
                    # output shape
                    t = first_tensor(out)
                    if entry["shape"] is not None and t is not None:
                        shapes = {None: list(inputs[0].shape)}
                        for kk, vv in fwd_bound.items():
                            if isinstance(vv, torch.Tensor):
                                shapes[kk] = list(vv.shape)
                        try:
                            got_s = apply_shape(entry["shape"], env, shapes)
                        except Exception as e:
                            errors.append("%s: shape rule: %r" % (where, e))
                            got_s = None
                        if got_s is not None and got_s != list(t.shape):
                            errors.append("%s: output shape %s, rule gives %s" % (where, list(t.shape), got_s))
            if mode == "train":
                check_children(entry, module, env, where, errors)
                n = sum(p.numel() for p in module.parameters())
                try:
                    # {"children": p} counts what the argument p holds; the
                    # C side reports p as unknown instead
                    env.children_numel = True
                    c = evaluate(entry["param_count"], env)
                    if c != n:
                        errors.append("%s: %d parameters, formula gives %r" % (where, n, c))
                except Exception as e:
                    errors.append("%s: param_count: %r" % (where, e))
                finally:
                    env.children_numel = False
    return n_checked


# ================================================================ names

# Names added after torch 1.13 (from the PyTorch documentation; not checked
# against an installed torch, only that 1.13 lacks them).
LATER_TENSOR_METHODS = {"register_post_accumulate_grad_hook": "2.1", "nonzero_static": "2.1",
                        "dim_order": "2.2", "module_load": "2.3"}
LATER_TENSOR_PROPERTIES = {"itemsize": "2.1", "nbytes": "2.1"}
LATER_TORCH_FUNCTIONS = {"compile": "2.0", "vmap": "2.0", "set_default_device": "2.0",
                         "sym_int": "2.0", "sym_float": "2.0", "sym_not": "2.0",
                         "nonzero_static": "2.1", "unravel_index": "2.2",
                         "get_default_device": "2.3"}
LATER_FUNCTIONAL = {"scaled_dot_product_attention": "2.0", "rms_norm": "2.4"}

FACTORIES = ["arange", "as_tensor", "asarray", "complex", "empty", "empty_like", "empty_strided",
             "eye", "from_numpy", "frombuffer", "full", "full_like", "linspace", "logspace",
             "normal", "ones", "ones_like", "polar", "rand", "rand_like", "randint",
             "randint_like", "randn", "randn_like", "randperm", "range", "scalar_tensor",
             "sparse_coo_tensor", "tensor", "tril_indices", "triu_indices", "zeros", "zeros_like"]

# Python's AST operator class names -> the Tensor dunder record.py names the
# operation by (record.py's BINOP_DUNDER / CMP_DUNDER / UNARY_DUNDER).
AST_BINOPS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%",
              "Pow": "**", "MatMult": "@", "BitAnd": "&", "BitOr": "|", "BitXor": "^",
              "LShift": "<<", "RShift": ">>"}
AST_CMPOPS = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">="}
AST_UNARY = {"USub": "UNARY_NEGATIVE", "Invert": "UNARY_INVERT", "UAdd": "UNARY_POSITIVE"}
NOT_OPS = {"__init__", "__new__", "__init_subclass__", "__subclasshook__", "__getattribute__",
           "__setattr__", "__delattr__", "__dir__", "__sizeof__", "__reduce__", "__reduce_ex__",
           "__getstate__", "__setstate__", "__torch_function__", "__torch_dispatch__",
           "__class__", "__dict__", "__weakref__", "__module__", "__doc__", "__array_priority__",
           "__str__", "__eq__x"}


def _public_callables(ns, allow_types=False):
    out = []
    for n in dir(ns):
        if n.startswith("_"):
            continue
        try:
            o = getattr(ns, n)
        except Exception:
            continue
        if isinstance(o, types.ModuleType) or not callable(o):
            continue
        if isinstance(o, type) != allow_types:
            continue
        m = getattr(o, "__module__", None) or ""
        if m == "typing" or n in ("boolean_dispatch", "handle_torch_function") or n.startswith("has_torch_function"):
            continue
        out.append(n)
    return out


def tensor_properties():
    props = []
    for n in dir(torch.Tensor):
        if n.startswith("_"):
            continue
        a = inspect.getattr_static(torch.Tensor, n)
        if isinstance(a, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            props.append(n)
    return sorted(props)


def with_later(names, later, errors, what):
    out = sorted(set(names))
    for n, v in sorted(later.items()):
        if n in names:
            errors.append("%s %s is marked min_torch %s but torch %s has it" % (what, n, v, torch.__version__))
        else:
            out.append({"name": n, "min_torch": v})
    return out


def build_names(errors):
    props = tensor_properties()
    methods = []
    for n in dir(torch.Tensor):
        if n in props or n in NOT_OPS:
            continue
        if n.startswith("_") and not (n.startswith("__") and n.endswith("__")):
            continue
        a = inspect.getattr_static(torch.Tensor, n, None)
        if a is None or isinstance(a, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            continue
        if n.startswith("__") and getattr(object, n, None) is a:
            continue
        if not callable(getattr(torch.Tensor, n)):
            continue
        methods.append(n)
    funcs = _public_callables(torch)
    classes = _public_callables(torch, allow_types=True)
    functional = _public_callables(F)
    for f in FACTORIES:
        if f not in funcs:
            errors.append("factory torch.%s is not a torch function" % f)
    meta = sorted(set(R.META_METHODS) | set(props))
    for m in R.META_METHODS:
        if m not in methods:
            errors.append("meta name %s is not a Tensor method" % m)
    binary = {}
    for cls_name, sym in AST_BINOPS.items():
        d = R.BINOP_DUNDER[sym]
        binary[cls_name] = {"op": "__%s__" % d, "reflected": "__r%s__" % d, "inplace": "__i%s__" % d}
    compare = {c: "__%s__" % R.CMP_DUNDER[sym] for c, sym in AST_CMPOPS.items()}
    unary = {c: "__%s__" % R.UNARY_DUNDER[opn] for c, opn in AST_UNARY.items()}
    unary["Not"] = "__bool__"
    compare["In"] = "__contains__"
    compare["NotIn"] = "__contains__"
    for d in list(binary.values()) + [{"x": v} for v in compare.values()] + [{"x": v} for v in unary.values()]:
        for v in d.values():
            if v not in methods and v not in ("__imatmul__", "__rdiv__"):
                if v != "__imatmul__":
                    errors.append("operator dunder %s is not a Tensor method in torch %s" % (v, torch.__version__))
    doc = {
        "format": NAMES_FORMAT,
        "torch": torch.__version__,
        "tensor_methods": with_later(methods, LATER_TENSOR_METHODS, errors, "Tensor method"),
        "tensor_properties": with_later(props, LATER_TENSOR_PROPERTIES, errors, "Tensor property"),
        "meta": meta,
        "torch_functions": with_later(funcs, LATER_TORCH_FUNCTIONS, errors, "torch function"),
        "torch_classes": sorted(classes),
        "functional": with_later(functional, LATER_FUNCTIONAL, errors, "functional"),
        "factories": FACTORIES,
        "operators": {
            "binary": binary,
            "compare": compare,
            "unary": unary,
            "truth": "__bool__",
            "subscript": {"Load": "__getitem__", "Store": "__setitem__", "Del": "__delitem__"},
        },
    }
    return doc, set(props)


def known_op(name, names):
    def has(lst, n):
        return any((x if isinstance(x, str) else x["name"]) == n for x in lst)
    if name.startswith("Tensor."):
        s = name[len("Tensor."):]
        return has(names["tensor_methods"], s) or has(names["tensor_properties"], s)
    if name.startswith("torch.nn.functional."):
        return has(names["functional"], name[len("torch.nn.functional."):])
    if name.startswith("torch.") and name.count(".") == 1:
        s = name[len("torch."):]
        return has(names["torch_functions"], s) or s in ("_nested_tensor_from_mask_left_aligned",)
    return name in ("?.getset_descriptor.__set__", "torch.nn.init.kaiming_uniform_",
                    "torch.nn.init.uniform_", "torch.nn.modules._functions.SyncBatchNorm.apply")


# ================================================================ main

def _compact(v):
    return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))


def _render(v, path, out):
    """Objects key per line and lists item per line down to a class's own
    fields (params, ops ... one item per line); below that, one line per
    value (a diff then shows which parameter or step changed)."""
    pad = " " * len(path)
    is_class = len(path) == 2 and path[0] == "classes"
    expand_dict = isinstance(v, dict) and (not path or is_class or path == ("operators",) or
                                           path == ("operators", "binary"))
    expand_list = isinstance(v, list) and v and (len(path) == 1 or (len(path) == 3 and path[0] == "classes"))
    if expand_dict:
        out.append("{\n")
        items = list(v.items())
        for i, (k, x) in enumerate(items):
            out.append("%s %s: " % (pad, json.dumps(k)))
            _render(x, path + (k,), out)
            out.append(",\n" if i + 1 < len(items) else "\n")
        out.append(pad + "}")
    elif expand_list:
        out.append("[\n")
        for i, x in enumerate(v):
            out.append(pad + " ")
            _render(x, path + (i,), out)
            out.append(",\n" if i + 1 < len(v) else "\n")
        out.append(pad + "]")
    else:
        out.append(_compact(v))


def render(doc):
    out = []
    _render(doc, (), out)
    return "".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description="regenerate and verify catalog/*.json against torch")
    ap.add_argument("--write", action="store_true", help="rewrite the JSON files when every check passes")
    ap.add_argument("--dump", nargs="+", metavar="CLASS", help="print what torch records for these classes")
    opts = ap.parse_args()

    install_new()
    errors = []
    names, props = build_names(errors)
    built = []
    for spec in SPEC:
        entry, cls = build_class(spec, props, errors)
        BUILT[entry["name"]] = entry
        built.append((spec, entry, cls))
    if opts.dump:
        for spec, entry, cls in built:
            if spec["short"] in opts.dump:
                errs = []
                check_class(spec, entry, cls, props, errs, dump=True)
                for e in errs:
                    print("  " + e)
        return 0
    for spec, entry, cls in built:
        if entry["ops"] is None and entry["forward"] is not None and spec["cases"] and spec["cases"][0].x:
            entry["ops"] = derive_ops(spec, entry, cls, errors)
    runs = 0
    for spec, entry, cls in built:
        if cls is not None and entry["recorded"]:
            runs += check_class(spec, entry, cls, props, errors)
        elif cls is None and spec["cases"]:
            errors.append("%s: cases for a class torch %s lacks" % (spec["name"], torch.__version__))
        for s in entry["ops"] or []:
            if "op" in s:
                if not known_op(s["op"], names):
                    errors.append("%s: op %s is not a known name" % (entry["name"], s["op"]))
                if is_meta_name(s["op"], props):
                    s["meta"] = True
    classes = sorted((e for _, e, _ in built), key=lambda e: e["name"])
    nn_doc = {"format": NN_FORMAT, "torch": torch.__version__, "classes": classes}
    if len(classes) < 70:
        errors.append("only %d classes" % len(classes))
    texts = {NN_JSON: render(nn_doc), NAMES_JSON: render(names)}
    if not opts.write:
        for path, text in texts.items():
            try:
                with open(path, encoding="utf-8") as fh:
                    if fh.read() != text:
                        errors.append("%s differs from what SPEC generates (run with --write)" % path)
            except OSError as e:
                errors.append("%s: %s" % (path, e))
    for e in errors:
        print("gen_catalog: " + e, file=sys.stderr)
    if errors:
        print("gen_catalog: %d problem(s)" % len(errors), file=sys.stderr)
        return 1
    if opts.write:
        for path, text in texts.items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
    print("gen_catalog: %d classes, %d recorded forward calls, all agree with torch %s"
          % (len(classes), runs, torch.__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main())
