#!/usr/bin/python3
"""record.py FIXTURE_DIR -- run a fixture job once under PyTorch and record
what its model(s) really ran, into FIXTURE_DIR/truth.json.

Dev-time tool (stdlib + torch).  The format is described in README next to
this file.  Mechanism, in short:

* global module hooks (torch.nn.modules.module.register_module_forward_pre_hook
  / register_module_forward_hook) keep a stack of active module calls;
* a torch.overrides.TorchFunctionMode sees every top-level torch function,
  Tensor method, Tensor property and operator call.  In torch 1.13 the mode is
  popped from the mode stack while its own __torch_function__ runs, so the
  torch calls a function makes internally (F.softmax -> Tensor.softmax) never
  reach the mode: only the outermost call is recorded;
* Tensor.__getitem__ is wrapped in Python, because 1.13's C indexing path does
  not consult the mode for a non-tuple index (x[0], x[1:], x[mask], x[None]);
* torch.nn.Module gets a __new__ that remembers where each module was
  constructed and with which constructor arguments (as passed, bound to the
  parameter names of the class's __init__, defaults filled in).
"""

import ast
import dataclasses
import dis
import enum
import inspect
import json
import linecache
import math
import os
import platform
import random
import runpy
import sys
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.modules.module as nn_module_mod
from torch.overrides import TorchFunctionMode

TORCH_DIR = os.path.dirname(os.path.realpath(torch.__file__)) + os.sep
SELF_FILE = os.path.realpath(__file__)
# torch files whose frames sit between a torch call and the user code that
# made it, without being "torch code that made the call itself"
GLUE_FILES = {
    os.path.realpath(os.path.join(TORCH_DIR, "overrides.py")),
    os.path.realpath(os.path.join(TORCH_DIR, "_tensor.py")),
    SELF_FILE,
}
CALL_IMPL_FILE = os.path.realpath(nn_module_mod.__file__)

WRAPPER_CLASSES = {"DistributedDataParallel", "DataParallel",
                   "FullyShardedDataParallel", "OptimizedModule"}

# Tensor methods / properties that read metadata and compute no tensor.
META_METHODS = {"size", "dim", "ndimension", "numel", "nelement", "stride",
                "is_contiguous", "is_floating_point", "is_complex",
                "element_size", "get_device", "data_ptr", "storage_offset",
                "__len__", "__format__", "__repr__", "__hash__"}

COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")

BINOP_DUNDER = {"+": "add", "-": "sub", "*": "mul", "/": "truediv",
                "//": "floordiv", "%": "mod", "**": "pow", "@": "matmul",
                "&": "and", "|": "or", "^": "xor", "<<": "lshift",
                ">>": "rshift"}
CMP_DUNDER = {"<": "lt", "<=": "le", "==": "eq", "!=": "ne", ">": "gt",
              ">=": "ge"}
UNARY_DUNDER = {"UNARY_NEGATIVE": "neg", "UNARY_INVERT": "invert",
                "UNARY_POSITIVE": "pos"}


# ---------------------------------------------------------------- naming

def _name_table(namespace, prefix):
    table = {}
    for n in dir(namespace):
        if n.startswith("__") and prefix != "Tensor.":
            continue
        try:
            obj = getattr(namespace, n)
        except Exception:
            continue
        if isinstance(obj, type) or type(obj).__name__ == "module":
            continue
        if not callable(obj):
            continue
        table.setdefault(id(obj), (obj, []))[1].append(n)
    return table


F_TABLE = _name_table(F, "torch.nn.functional.")
T_TABLE = _name_table(torch, "torch.")
TENSOR_TABLE = _name_table(torch.Tensor, "Tensor.")
# objects that are the same function under torch.nn.functional and torch
ALIASES = {k for k in F_TABLE if k in T_TABLE}


def _pick(func, names):
    """One name for an object known under several: the Python 3 spelling of
    the division dunders, else its own __name__ unless private, else the
    first public name."""
    for pref in ("__rtruediv__", "__itruediv__"):
        if pref in names:
            return pref
    public = [n for n in names if not n.startswith("_") or n.startswith("__")]
    n = getattr(func, "__name__", None)
    if n in public:
        return n
    return sorted(public or names)[0]


def base_name(func):
    """Canonical name by identity: F first, then torch, then Tensor."""
    k = id(func)
    if k in F_TABLE and F_TABLE[k][0] is func:
        return "torch.nn.functional." + _pick(func, F_TABLE[k][1])
    if k in T_TABLE and T_TABLE[k][0] is func:
        return "torch." + _pick(func, T_TABLE[k][1])
    if k in TENSOR_TABLE and TENSOR_TABLE[k][0] is func:
        return "Tensor." + _pick(func, TENSOR_TABLE[k][1])
    owner = getattr(func, "__self__", None)
    if getattr(func, "__name__", None) == "__get__" and owner is not None:
        # a Tensor property read through its descriptor (x.shape, x.T)
        if isinstance(owner, property):
            return "Tensor." + owner.fget.__name__
        if hasattr(owner, "__name__"):
            return "Tensor." + owner.__name__
    mod = getattr(func, "__module__", None) or "?"
    return "%s.%s" % (mod, getattr(func, "__qualname__", repr(func)))


def is_meta(name, func):
    if not name.startswith("Tensor."):
        return False
    short = name[len("Tensor."):]
    if short in META_METHODS:
        return True
    return getattr(func, "__name__", None) == "__get__"


# ---------------------------------------------------------------- frames

class Files:
    def __init__(self, root, sites=()):
        self.root = root
        self.sites = [os.path.realpath(d) for d in sites]
        self.cache = {}

    def rel(self, filename):
        """Path relative to the fixture, "site:<path>" inside one of its
        site directories (fixture.json "site"), or None if outside both."""
        r = self.cache.get(filename, False)
        if r is False:
            real = os.path.realpath(filename) if not filename.startswith("<") else filename
            r = None
            for d in self.sites:
                if real.startswith(d + os.sep):
                    r = os.path.relpath(real, d)
                    # torch itself is the catalogue's, never read (site.c)
                    r = None if r.split(os.sep)[0] in ("torch", "torchgen", "functorch") else "site:" + r
                    break
            if r is None and real.startswith(self.root + os.sep):
                r = os.path.relpath(real, self.root)
            self.cache[filename] = r
        return r


def qualname_of(code):
    q = getattr(code, "co_qualname", code.co_name)
    parts = q.split(".")
    while len(parts) >= 2 and parts[-1] in COMPREHENSIONS and parts[-2] == "<locals>":
        parts = parts[:-2]
    if parts and parts[-1] in COMPREHENSIONS and len(parts) == 1:
        parts = ["<module>"]
    return ".".join(parts) or "<module>"


def anchor(files, frame):
    return "%s:%s:%d" % (files.rel(frame.f_code.co_filename),
                         qualname_of(frame.f_code), frame.f_lineno)


def caller_name(frame):
    """Where torch's own code made a call: module:qualname, no path, no line."""
    return "%s:%s" % (frame.f_globals.get("__name__", "?"), qualname_of(frame.f_code))


def is_call_impl(frame):
    c = frame.f_code
    return c.co_name == "_call_impl" and os.path.realpath(c.co_filename) == CALL_IMPL_FILE


_INSTR_CACHE = {}


def instr_at(frame):
    code = frame.f_code
    table = _INSTR_CACHE.get(code)
    if table is None:
        table = {i.offset: i for i in dis.get_instructions(code)}
        _INSTR_CACHE[code] = table
    return table.get(frame.f_lasti)


def source_segment(frame):
    code = frame.f_code
    try:
        pos = list(code.co_positions())[frame.f_lasti // 2]
    except Exception:
        return None
    l0, l1, c0, c1 = pos
    if None in pos:
        return None
    lines = linecache.getlines(code.co_filename)
    if not lines or l1 > len(lines):
        return None
    if l0 == l1:
        seg = lines[l0 - 1].encode()[c0:c1].decode(errors="replace")
    else:
        parts = [lines[l0 - 1].encode()[c0:].decode(errors="replace")]
        parts += lines[l0:l1 - 1]
        parts.append(lines[l1 - 1].encode()[:c1].decode(errors="replace"))
        seg = "".join(parts)
    try:
        return ast.parse("(" + seg + "\n)", mode="eval").body
    except SyntaxError:
        return None


def _resolve(node, frame):
    """Value of a Name / Attribute chain in frame, or raise."""
    if isinstance(node, ast.Name):
        if node.id in frame.f_locals:
            return frame.f_locals[node.id]
        if node.id in frame.f_globals:
            return frame.f_globals[node.id]
        return frame.f_builtins[node.id]
    if isinstance(node, ast.Attribute):
        return getattr(_resolve(node.value, frame), node.attr)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return node.operand.value
    raise LookupError


_SAFE_BUILTINS = {abs, float, int, round, min, max, pow, len}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
           ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
           ast.Pow: lambda a, b: a ** b}


def _py_value(node, frame, depth=0):
    """Evaluate a side-effect-free expression made of constants, names,
    attributes, subscripts of tuples, arithmetic, math.* / a few builtins and
    Tensor.size/dim/numel.  Raises LookupError on anything else."""
    if depth > 20:
        raise LookupError
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return _resolve(node, frame)
    if isinstance(node, ast.Attribute):
        return getattr(_py_value(node.value, frame, depth + 1), node.attr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _py_value(node.operand, frame, depth + 1)
        if not isinstance(v, (int, float)):
            raise LookupError
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a = _py_value(node.left, frame, depth + 1)
        b = _py_value(node.right, frame, depth + 1)
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            raise LookupError
        return _BINOPS[type(node.op)](a, b)
    if isinstance(node, ast.Subscript):
        base = _py_value(node.value, frame, depth + 1)
        if not isinstance(base, (tuple, list)):
            raise LookupError
        return base[_py_value(node.slice, frame, depth + 1)]
    if isinstance(node, ast.Call) and not node.keywords:
        f = _py_value(node.func, frame, depth + 1)
        owner = getattr(f, "__self__", None)
        ok = (getattr(f, "__module__", None) == "math"
              or any(f is b for b in _SAFE_BUILTINS)
              or (isinstance(owner, torch.Tensor)
                  and getattr(f, "__name__", "") in ("size", "dim", "numel")))
        if not ok:
            raise LookupError
        return f(*[_py_value(a, frame, depth + 1) for a in node.args])
    raise LookupError


def refine_name(name, func, direct):
    """Name by syntax when the user's own frame made the call directly:
    a @ b -> Tensor.__matmul__, a + b -> Tensor.__add__, 2 * a ->
    Tensor.__rmul__, x += y -> Tensor.__iadd__, -x -> Tensor.__neg__,
    x > 0 -> Tensor.__gt__, torch.conv2d vs F.conv2d as written."""
    ins = instr_at(direct)
    if ins is None:
        return name
    short = name.split(".")[-1]
    if ins.opname == "BINARY_OP" and not short.startswith("__"):
        sym = ins.argrepr
        inplace = sym.endswith("=") and sym not in ("==", "!=", "<=", ">=")
        d = BINOP_DUNDER.get(sym.rstrip("=") if inplace else sym)
        if d is None:
            return name
        if inplace:
            return "Tensor.__i%s__" % d
        node = source_segment(direct)
        if isinstance(node, ast.BinOp):
            try:
                left = _py_value(node.left, direct)
                if isinstance(left, (int, float, complex)) and not isinstance(left, torch.Tensor):
                    return "Tensor.__r%s__" % d
            except Exception:
                pass
        return "Tensor.__%s__" % d
    if ins.opname == "COMPARE_OP" and not short.startswith("__"):
        d = CMP_DUNDER.get(ins.argrepr)
        return "Tensor.__%s__" % d if d else name
    if ins.opname in UNARY_DUNDER and not short.startswith("__"):
        return "Tensor.__%s__" % UNARY_DUNDER[ins.opname]
    if ins.opname in ("CALL", "PRECALL") and id(func) in ALIASES:
        node = source_segment(direct)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            try:
                owner = _resolve(node.func.value, direct)
            except Exception:
                owner = None
            if owner is torch:
                return "torch." + node.func.attr
            if owner is F:
                return "torch.nn.functional." + node.func.attr
    return name


# ---------------------------------------------------------------- values

def shapes(obj, out, depth=0):
    if isinstance(obj, torch.Tensor):
        out.append(list(obj.shape))
    elif depth < 4 and isinstance(obj, (list, tuple)):
        for x in obj:
            shapes(x, out, depth + 1)
    elif depth < 4 and isinstance(obj, dict):
        for x in obj.values():
            shapes(x, out, depth + 1)
    return out


def class_file(cls):
    """File defining cls: from its own functions' code (works for classes
    defined in the entry script, whose __main__ module is gone by the time
    the truth is written), else from its module."""
    for v in vars(cls).values():
        v = getattr(v, "__func__", v)
        code = getattr(v, "__code__", None)
        if code is not None:
            return code.co_filename
    mod = sys.modules.get(cls.__module__)
    return getattr(mod, "__file__", None)


def class_label(cls, files):
    if getattr(nn, cls.__name__, None) is cls:
        return "torch.nn." + cls.__name__
    f = class_file(cls)
    if f and files.rel(f) is not None:
        return cls.__qualname__
    return "%s.%s" % (cls.__module__, cls.__qualname__)


def summarize(v, files, depth=0):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, enum.Enum):
        return "%s.%s" % (type(v).__name__, v.name)
    if isinstance(v, (torch.dtype, torch.device)):
        return str(v)
    if isinstance(v, torch.Tensor):
        return {"tensor": list(v.shape)}
    if isinstance(v, nn.Module):
        return {"module": class_label(type(v), files)}
    if depth >= 3:
        return {"type": type(v).__qualname__}
    if isinstance(v, (list, tuple)):
        return [summarize(x, files, depth + 1) for x in list(v)[:64]]
    if isinstance(v, dict):
        return {str(k): summarize(x, files, depth + 1) for k, x in v.items()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {"dataclass": type(v).__qualname__,
                "fields": {f.name: summarize(getattr(v, f.name), files, depth + 1)
                           for f in dataclasses.fields(v)}}
    if isinstance(v, type) or callable(v):
        return {"callable": getattr(v, "__qualname__", type(v).__qualname__)}
    return {"type": type(v).__qualname__}


# ---------------------------------------------------------------- recorder

class Entry:
    __slots__ = ("module", "frame", "rec", "model", "transparent", "pending", "item")

    def __init__(self, module, frame):
        self.module = module
        self.frame = frame      # the module's _call_impl frame
        self.rec = None         # call record while recording, else None
        self.model = None       # Model this call belongs to (recording)
        self.transparent = False
        self.pending = None     # wrapped module a wrapper root will call
        self.item = None        # this call's ITEM in the parent's seq


class Model:
    def __init__(self, name, cls_name, prefixed):
        self.name = name
        self.cls_name = cls_name
        self.prefixed = prefixed
        self.root = None
        self.wrapped_by = []
        self.ids = {}           # id(module) -> (id, path)
        self.counts = {}
        self.calls = []
        self.done = False
        self.job_calls = 0
        self.modules = []

    def mid(self, path):
        if not self.prefixed:
            return path
        return self.name + ("/" + path if path else "")


class Recorder(TorchFunctionMode):
    def __init__(self, root, models_spec, sites=()):
        super().__init__()
        self.files = Files(root, sites)
        self.stack = []
        self.busy = 0           # > 0 while our own code or a recorded op runs
        prefixed = len(models_spec) > 1
        self.models = [Model(n, c, prefixed) for n, c in sorted(models_spec.items())]
        self.other_roots = {}
        self.ctor = weakref.WeakKeyDictionary()   # module -> (site, args)

    # -- frames
    def _chain(self, start):
        f = start
        while f is not None:
            yield f
            f = f.f_back

    def _sync(self, frames):
        """Drop stack entries whose _call_impl frame is gone (a forward that
        raised)."""
        live = {id(f) for f in frames if is_call_impl(f)}
        while self.stack and id(self.stack[-1].frame) not in live:
            self.stack.pop()

    def _sites(self, frames, skip_first_call_impl, own_code=None):
        """(site frame, via anchors, direct caller frame).  own_code: the code
        object of the called function itself (a Python torch function that
        dispatched to the mode from inside its body), not its caller."""
        site = None
        via = []
        direct = None
        boundary = False
        seen_impl = not skip_first_call_impl
        if own_code is not None:
            # the called function's own frame is on the stack: everything
            # inside it is its implementation; its caller is the direct caller
            for i, f in enumerate(frames):
                if f.f_code is own_code:
                    if i + 1 < len(frames):
                        direct = frames[i + 1]
                    break
        for f in frames:
            fn = f.f_code.co_filename
            if direct is None and os.path.realpath(fn) not in GLUE_FILES \
                    and f.f_code is not own_code:
                direct = f
            if is_call_impl(f):
                if seen_impl:
                    boundary = True
                seen_impl = True
                continue
            if self.files.rel(fn) is not None:
                if site is None:
                    site = f
                elif not boundary:
                    via.append(anchor(self.files, f))
                if boundary:
                    break
        # a comprehension's frame and its function's frame give one anchor
        site_anchor = anchor(self.files, site) if site is not None else None
        out = []
        for a in reversed(via):
            if a != site_anchor and (not out or out[-1] != a):
                out.append(a)
        return site, out, direct

    def _recording_entry(self):
        for e in reversed(self.stack):
            if e.rec is not None:
                return e
            if e.transparent:
                return None
        return None

    # -- module construction
    def on_new(self, module, cls, args, kwargs, frame):
        """Remember where a module is constructed (innermost fixture frame at
        the `Cls(...)` call) and the arguments as passed, bound to the
        parameter names of cls.__init__ with defaults filled in."""
        if self.busy:
            return
        self.busy += 1
        try:
            site = None
            for f in self._chain(frame):
                if self.files.rel(f.f_code.co_filename) is not None:
                    site = anchor(self.files, f)
                    break
            bound = {}
            try:
                sig = inspect.signature(cls.__init__)
                ba = sig.bind_partial(None, *args, **kwargs)
                ba.apply_defaults()
                first = next(iter(sig.parameters))
                for k, v in ba.arguments.items():
                    if k != first:
                        bound[k] = summarize(v, self.files)
            except (TypeError, ValueError):
                bound = {"*": summarize(list(args), self.files),
                         "**": summarize(dict(kwargs), self.files)}
            self.ctor[module] = (site, bound)
        finally:
            self.busy -= 1

    # -- module calls
    def _match(self, inner):
        cls = type(inner)
        for m in self.models:
            if m.root is inner:
                return m
        for m in self.models:
            if m.root is None and cls.__name__ == m.cls_name:
                return m
        return None

    def _start_root(self, model, module, entry, site, args):
        model.root = module
        for path, sub in module.named_modules():
            model.ids[id(sub)] = (model.mid(path), path)
            model.counts[id(sub)] = 0
            model.modules.append((path, sub))
        entry.model = model
        entry.rec = self._new_call(model, module, site, args)

    def _new_call(self, model, module, site, args):
        k = id(module)
        mid = model.ids.get(k, (None, None))[0]
        if k in model.counts:
            model.counts[k] += 1
        n = sum(1 for c in model.calls if c["_obj"] is module) + 1
        rec = {"_obj": module, "module": mid,
               "class": class_label(type(module), self.files),
               "call": n, "site": anchor(self.files, site) if site else None,
               "in": shapes(args, []), "seq": []}
        model.calls.append(rec)
        return rec

    def pre_hook(self, module, args):
        if self.busy:
            return None
        self.busy += 1
        try:
            me = sys._getframe(1)
            frames = list(self._chain(me))
            self._sync(frames[1:])
            entry = Entry(module, me)
            if not self.stack:
                inner, wrappers = module, []
                while type(inner).__name__ in WRAPPER_CLASSES:
                    wrappers.append(class_label(type(inner), self.files))
                    inner = getattr(inner, "module", None) or getattr(inner, "_orig_mod")
                model = self._match(inner)
                if model is None:
                    lbl = class_label(type(module), self.files)
                    self.other_roots[lbl] = self.other_roots.get(lbl, 0) + 1
                else:
                    model.job_calls += 1
                    if not model.done:
                        site, _, _ = self._sites(frames, True)
                        if wrappers:
                            model.wrapped_by = wrappers
                            entry.transparent = True
                            entry.pending = inner
                            entry.model = model
                        else:
                            self._start_root(model, module, entry, site, args)
            else:
                top = self.stack[-1]
                if top.transparent:
                    if top.pending is module and top.model is not None:
                        site, _, _ = self._sites(frames, True)
                        self._start_root(top.model, module, entry, site, args)
                        top.pending = None
                    else:
                        entry.transparent = True
                else:
                    parent = self._recording_entry()
                    if parent is not None:
                        model = parent.model
                        site, via, _ = self._sites(frames, True)
                        direct = frames[1] if len(frames) > 1 else None
                        rec = self._new_call(model, module, site, args)
                        item = {"kind": "module", "module": rec["module"],
                                "class": rec["class"], "call": rec["call"],
                                "site": rec["site"], "in": rec["in"],
                                "order": len(parent.rec["seq"]) + 1}
                        entry.item = item
                        if via:
                            item["via"] = via
                        if direct is not None and direct is not site:
                            item["caller"] = caller_name(direct)
                        parent.rec["seq"].append(item)
                        entry.rec = rec
                        entry.model = model
            self.stack.append(entry)
        finally:
            self.busy -= 1
        return None

    def post_hook(self, module, args, output):
        if self.busy:
            return None
        self.busy += 1
        try:
            while self.stack:
                e = self.stack.pop()
                if e.module is module:
                    if e.rec is not None:
                        e.rec["out"] = shapes(output, [])
                        if e.item is not None:
                            e.item["out"] = e.rec["out"]
                        if e.model.root is module and e.rec is e.model.calls[0]:
                            e.model.done = True
                            e.model.training = module.training
                            e.model.grad = torch.is_grad_enabled()
                    break
        finally:
            self.busy -= 1
        return None

    # -- ops
    def record_op(self, func, args, kwargs, result, frame):
        frames = list(self._chain(frame))
        self._sync(frames)
        parent = self._recording_entry()
        if parent is None:
            return
        site, via, direct = self._sites(frames, False, getattr(func, "__code__", None))
        name = base_name(func)
        if direct is not None and direct is site:
            name = refine_name(name, func, direct)
        item = {"kind": "op", "op": name,
                "site": anchor(self.files, site) if site else None,
                "in": shapes((args, kwargs), []),
                "out": shapes(result, []),
                "order": len(parent.rec["seq"]) + 1}
        if is_meta(name, func):
            item["meta"] = True
        raw = base_name(func)
        if raw != name:
            item["func"] = raw
        if via:
            item["via"] = via
        if direct is not None and direct is not site:
            item["caller"] = caller_name(direct)
        parent.rec["seq"].append(item)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.busy or not self.stack:
            return func(*args, **kwargs)
        self.busy += 1
        try:
            result = func(*args, **kwargs)
        finally:
            self.busy -= 1
        self.busy += 1
        try:
            self.record_op(func, args, kwargs, result, sys._getframe(1))
        finally:
            self.busy -= 1
        return result


def install_getitem(rec):
    orig = torch.Tensor.__getitem__

    def __getitem__(self, idx):
        if rec.busy or not rec.stack:
            return orig(self, idx)
        rec.busy += 1
        try:
            result = orig(self, idx)
        finally:
            rec.busy -= 1
        rec.busy += 1
        try:
            rec.record_op(orig, (self, idx), {}, result, sys._getframe(0))
        finally:
            rec.busy -= 1
        return result

    torch.Tensor.__getitem__ = __getitem__
    return orig


def install_new(rec):
    """nn.Module has no __new__ of its own (object.__new__); give it one that
    sees the constructor arguments exactly as the caller passed them."""
    assert nn.Module.__new__ is object.__new__

    def __new__(cls, *args, **kwargs):
        obj = object.__new__(cls)
        caller = sys._getframe(1)
        # copy.deepcopy / pickle build objects through copyreg.__newobj__
        # without calling __init__: those are not constructions
        if os.path.basename(caller.f_code.co_filename) not in ("copyreg.py", "copy.py", "pickle.py"):
            rec.on_new(obj, cls, args, kwargs, caller)
        return obj

    nn.Module.__new__ = __new__
    return lambda: setattr(nn.Module, "__new__", object.__new__)


# ---------------------------------------------------------------- output

def module_table(rec, model):
    out = []
    files = rec.files
    for path, sub in model.modules:
        cls = type(sub)
        f = class_file(cls)
        relf = files.rel(f) if f else None
        site, args = rec.ctor.get(sub, (None, {}))
        parent = None
        if path:
            pp = path.rsplit(".", 1)[0] if "." in path else ""
            parent = model.mid(pp)
        elif model.prefixed:
            parent = None
        out.append({"id": model.mid(path), "path": path, "parent": parent,
                    "class": class_label(cls, files),
                    "defined_in": "%s:%s" % (relf, cls.__qualname__) if relf else None,
                    "external": relf is None,
                    "constructed_at": site,
                    "args": args,
                    "calls": model.counts.get(id(sub), 0),
                    "params": param_count(sub)})
    return out


def param_count(mod):
    """What sum(p.numel() for p in mod.parameters()) gives (shared tensors
    once); None for a module with uninitialized (lazy) parameters."""
    try:
        return sum(p.numel() for p in mod.parameters())
    except (RuntimeError, ValueError):
        return None


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: record.py FIXTURE_DIR\n")
        return 2
    root = os.path.realpath(sys.argv[1])
    with open(os.path.join(root, "fixture.json")) as fh:
        spec = json.load(fh)
    entry = spec["entry"]
    argv = list(spec.get("argv", []))
    models_spec = spec.get("models", {})

    def listing():
        seen = set()
        for d, dirs, fs in os.walk(root):
            for x in dirs + fs:
                seen.add(os.path.relpath(os.path.join(d, x), root))
        return seen

    sys.dont_write_bytecode = True
    before = listing()
    os.chdir(root)
    sys.path[0] = root
    # installed libraries the job reads (fixture.json "site"): on sys.path
    # as site.py would put them, .pth path lines too -- but a .pth line
    # that is code (import ...) is not run, as ecg never runs it
    sites = [os.path.join(root, d) for d in spec.get("site", [])]
    for d in list(sites):
        sys.path.append(d)
        for pth in sorted(x for x in os.listdir(d) if x.endswith(".pth")):
            with open(os.path.join(d, pth)) as fh:
                for line in fh:
                    line = line.rstrip()
                    if line and not line.startswith("#") and not line.startswith(("import ", "import\t")):
                        p = os.path.join(d, line)
                        if os.path.isdir(p):
                            sys.path.append(p)
                            sites.append(p)
    sys.argv = [entry] + argv
    torch.manual_seed(0)
    random.seed(0)
    try:
        import numpy
        numpy.random.seed(0)
    except ImportError:
        pass
    torch.set_num_threads(1)

    rec = Recorder(root, models_spec, sites)
    restore_new = install_new(rec)
    orig_getitem = install_getitem(rec)
    h1 = nn_module_mod.register_module_forward_pre_hook(rec.pre_hook)
    h2 = nn_module_mod.register_module_forward_hook(rec.post_hook)
    try:
        with rec:
            try:
                runpy.run_path(os.path.join(root, entry), run_name="__main__")
            except SystemExit as e:
                if e.code not in (None, 0):
                    raise
    finally:
        h1.remove()
        h2.remove()
        torch.Tensor.__getitem__ = orig_getitem
        restore_new()

    created = sorted(listing() - before)
    for p in sorted(created, key=lambda s: -s.count(os.sep)):
        full = os.path.join(root, p)
        if os.path.isdir(full) and not os.path.islink(full):
            try:
                os.rmdir(full)
            except OSError:
                pass
        else:
            os.remove(full)

    models = []
    for m in rec.models:
        if m.root is None:
            sys.stderr.write("record.py: model %r (class %s) was never called\n"
                             % (m.name, m.cls_name))
            return 1
        calls = []
        for c in m.calls:
            c = dict(c)
            del c["_obj"]
            calls.append(c)
        models.append({
            "name": m.name if m.prefixed else "",
            "class": class_label(type(m.root), rec.files),
            "wrapped_by": m.wrapped_by,
            "training": getattr(m, "training", None),
            "grad_enabled": getattr(m, "grad", None),
            "forward_calls_in_job": m.job_calls,
            "modules": module_table(rec, m),
            "calls": calls,
        })
    truth = {
        "fixture": os.path.basename(root),
        "truth_format": "ecg.truth/1",
        "recorded_with": {"torch": torch.__version__,
                          "python": platform.python_version(),
                          "threads": 1},
        "entry": entry,
        "argv": argv,
        "steps": spec.get("steps"),
        "models": models,
        "other_roots": [{"class": k, "calls": v} for k, v in sorted(rec.other_roots.items())],
        "outputs_written": created,
    }
    text = json.dumps(truth, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    dst = os.path.join(root, "truth.json")
    tmp = dst + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, dst)
    for m in models:
        nops = sum(1 for c in m["calls"] for s in c["seq"] if s["kind"] == "op")
        nmeta = sum(1 for c in m["calls"] for s in c["seq"] if s.get("meta"))
        sys.stderr.write("record.py: %s model %r %s: %d modules, %d module calls, "
                         "%d op records (%d meta)\n"
                         % (truth["fixture"], m["name"], m["class"], len(m["modules"]),
                            len(m["calls"]), nops, nmeta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
