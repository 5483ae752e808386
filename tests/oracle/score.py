#!/usr/bin/python3
"""score.py -- score ecg's computation_graph.json against a fixture's truth.json

    score.py TRUTH.json GRAPH.json [--fixture-dir DIR] [--json] [--verbose]
    score.py --self-test [TRUTH.json ...]
    score.py --perfect TRUTH.json [--header GRAPH.json] [--expand] [--fixture-dir DIR]

Standard library only; no torch.  TRUTH.json is what tests/oracle/record.py
recorded (format: tests/oracle/README), GRAPH.json is what `ecg extract`
wrote (contract: records.md).  DIR is the fixture's source, used to find the
`def forward` lines (default: the directory of TRUTH.json).  Exit status: 0
when every threshold holds, 1 when one does not, 2 on bad input.

Metrics (a threshold on each; the numbers are per fixture)
----------------------------------------------------------

Ids.  An ecg id covers a truth module id when both have the same model
prefix (the part before "/" when the job has several models; a bare id is
then that model's root) and the same number of "."-separated segments, and
each ecg segment equals the truth segment, or is "*" (any child), or is
"a:b" (an integer child a <= n < b).  `down.*.res.0:2` covers
`down.3.res.1`.  Module entries are ecg entries of kind model, module,
layer or container.

1. modules -- module paths and classes, threshold 100%.
   Every module of the truth (root.named_modules(), whether it ran or not)
   must be covered by at least one ecg module entry, and every entry that
   covers it must name its class: the truth's class exactly for torch.nn
   built-ins ("torch.nn.Linear") and third-party classes; for a class
   defined in the fixture
   (defined_in "model.py:Block") "Block", the full qualname, or the dotted
   module path ("model.Block"); a third-party class may be named by a
   package above its defining module, as it is imported
   ("torchvision.ops.StochasticDepth" for the truth's
   "torchvision.ops.stochastic_depth.StochasticDepth").  Reported but not
   thresholded: ecg module entries that cover no truth module (spurious;
   precision = entries that cover something / all module entries) and
   truth modules covered by more than one entry.  Not judged: a module
   inside a module whose source is not in the repository -- a torch.nn
   layer (MultiheadAttention's out_proj) or a third-party class
   (torchvision's MLP) -- when no ecg entry covers it; its outermost such
   ancestor is judged like any module.

2. repeat -- total_repeat, thresholds: exact 100% where given, given for
   >= 95% of the repeating units, and at least one unit judged.
   A truth module runs `calls` times per recorded root call.  For each ecg
   module entry E, the expected total_repeat is the sum of `calls` over the
   truth modules E covers (12 blocks each called once -> transformer.h.* is
   12; a ReLU called 3 times in each of 5 blocks -> 15; a module that never
   ran -> 0).  Entries covering
   nothing are skipped (they are spurious, see 1), and so are entries that
   cover only ModuleList/ModuleDict/ParameterList/ParameterDict modules that
   were never called (iterated, not called: their "runs" are undefined).
   For an ecg `function` entry the expected total is read from the truth's
   `via` chains: the chain is the code_anchors of E and its function
   ancestors up to the nearest module entry M, outermost first; in the
   calls of every truth module M covers, each maximal run of consecutive
   seq items whose `via` starts with that chain is one call of the
   function (a helper called back to back from one line with nothing
   between is counted once; no fixture does that).  A function entry with
   no such item has no truth to judge and is skipped.
   A unit *repeats* when its expected total is > 1.  given = repeating units
   whose total_repeat is not null / repeating units.  exact = judged
   entries whose non-null total_repeat equals the expected total / judged
   entries with a non-null total_repeat (every judged entry counts here,
   repeating or not: total_repeat 1 on a module that runs once is checked
   too).  With no judged entry at all the metric fails ("nothing judged").

3. ops -- matched as sets of (op, file, line), thresholds: recall >= 95%,
   precision >= 90%.
   Truth set: every op record of the recorded first root call(s) of every
   model (all module calls), except meta ops (records with "meta": true,
   and any op whose name is a meta name, below) and except ops made by
   torch's own code ("caller" set) -- but those made directly inside the
   call of a torch.nn built-in (the call record's class is "torch.nn.*":
   F.linear in Linear, F.batch_norm and the num_batches_tracked
   Tensor.add_ in BatchNorm2d in training) are kept: they are what ecg's
   layer catalogue expands a layer into, and their site is already the
   call site in the parent's forward.  An op whose site is null is left
   out, and so are the ops of a module inside a torch.nn layer or a
   third-party module (see 1: not in the repository, not judged).
   (file, line) come from the op's `site` anchor.
   ecg set: every entry of kind op, (op, file, line) from its code_anchor
   (an op with no anchor counts, and matches nothing), minus meta names.
   Meta names: Tensor.<m> for m in size, dim, ndimension, numel, nelement,
   stride, is_contiguous, is_floating_point, is_complex, element_size,
   get_device, data_ptr, storage_offset, __len__, __format__, __repr__,
   __hash__ (record.py's META_METHODS), every Tensor property read (shape,
   device, dtype, T, mT, H, mH, ndim, is_cuda, requires_grad, grad, data,
   layout, ...), and every op name the truth marks meta.
   recall = |T & E| / |T|, precision = |T & E| / |E| (n/a, a failure, when
   E is empty).

4. anchors -- forward code anchors, threshold 100%.
   For every truth module whose class is defined in the fixture, every ecg
   entry covering it must have code_anchor "<file>:<Qual>.forward:<line>",
   the `def forward` of the class or of the first fixture base class that
   defines it (ast, left-to-right depth-first over bases resolved through
   the fixture's own imports); line is the code object's co_firstlineno:
   the first decorator's line for a decorated forward, else the `def` line
   (what profilers' python_function frames show; records.md).
   Uncovered modules fail.  Modules whose forward is not in the fixture
   (inherited from torch) are not counted.

5. shapes -- the `shapes` of module entries, thresholds: every dim given is
   right (100%), and >= 50% of judged entries give both sides in full.
   Judged: every ecg entry of kind model, module or layer that covers a
   truth module which ran; it is compared with the first CALL record of
   the first truth module it covers.  `in` and `out` are lists with one
   item per tensor (null: a tensor whose shape is not given); when given,
   the list must have the truth's length, and each shape given the truth's
   rank.  A dim given as an integer must equal the truth's; a dim given as
   a symbol ("B", "config.n_embd") must stand for one value within the
   entry (in and out together); null is not given.  An entry gives a side
   "in full" when that side is present and every dim of every tensor in it
   is an integer or a symbol.  With no judged entry the metric fails.

--self-test builds a perfect graph from each truth (identical consecutive
children of ModuleList/Sequential collapsed into "*" or "a:b" entries,
function entries for `via` chains, ops with their anchors, total_repeat and
repeat counts as the contract computes them), checks it scores 100% --
collapsed and expanded -- and that broken copies fail the metric they
break and only that one.  --perfect prints that graph (with --header, as a
whole record: GRAPH.json's header with the perfect modules).
"""

import ast
import json
import math
import os
import re
import sys

MODULE_KINDS = ("model", "module", "layer", "container")
METRICS = ("modules", "repeat", "ops", "anchors", "shapes", "params", "op_shapes")
ITERATED = {"torch.nn.ModuleList", "torch.nn.ModuleDict",
            "torch.nn.ParameterList", "torch.nn.ParameterDict"}
CONTAINERS = ITERATED | {"torch.nn.Sequential"}
INDEXED = {"torch.nn.ModuleList", "torch.nn.Sequential"}

META_METHODS = {"size", "dim", "ndimension", "numel", "nelement", "stride",
                "is_contiguous", "is_floating_point", "is_complex",
                "element_size", "get_device", "data_ptr", "storage_offset",
                "__len__", "__format__", "__repr__", "__hash__"}
META_PROPERTIES = {"shape", "device", "dtype", "T", "mT", "H", "mH", "ndim",
                   "is_cuda", "is_sparse", "is_quantized", "is_meta",
                   "is_mkldnn", "is_nested", "layout", "requires_grad",
                   "grad", "grad_fn", "data", "names", "is_leaf",
                   "output_nr", "_version", "real", "imag", "itemsize",
                   "nbytes", "_base", "_cdata"}
META_NAMES = {"Tensor." + n for n in META_METHODS | META_PROPERTIES}

THRESHOLDS = {"modules": 1.0, "repeat_exact": 1.0, "repeat_given": 0.95,
              "op_recall": 0.95, "op_precision": 0.90, "anchors": 1.0,
              "shapes_right": 1.0, "shapes_given": 0.5,
              "params_exact": 1.0, "params_given": 0.5,
              "op_shapes_given": 0.5}

ANCHOR_RE = re.compile(r"^((?:site:)?[^:]*\.py):(.+):([0-9]+)$")


def split_defined_in(di):
    """(file, qualname) of a 'file:Qual' (file may be 'site:pkg/mod.py',
    a class of an installed library read with --site)."""
    if di.startswith("site:"):
        f, qual = di[len("site:"):].split(":", 1)
        return "site:" + f, qual
    return di.split(":", 1)


def fixture_sites(fixture_dir):
    """The site directories a fixture's job reads its libraries from
    (fixture.json "site", relative to the fixture or absolute)."""
    try:
        with open(os.path.join(fixture_dir, "fixture.json")) as fh:
            spec = json.load(fh)
    except (OSError, ValueError):
        return []
    sites = [os.path.join(fixture_dir, d) for d in spec.get("site", [])]
    for d in list(sites):
        try:
            pths = sorted(x for x in os.listdir(d) if x.endswith(".pth"))
        except OSError:
            continue
        for pth in pths:
            with open(os.path.join(d, pth)) as fh:
                for line in fh:
                    line = line.rstrip()
                    if line and not line.startswith("#") and not line.startswith(("import ", "import\t")):
                        p = os.path.join(d, line)
                        if os.path.isdir(p):
                            sites.append(p)
    return sites
RANGE_RE = re.compile(r"^([0-9]+):([0-9]+)$")


class InputError(Exception):
    pass


# ---------------------------------------------------------------- ids

def split_id(ident, multi):
    """(model prefix, [segments]) of a module id or id pattern."""
    if multi:
        if "/" in ident:
            pre, rest = ident.split("/", 1)
            return pre, rest.split(".")
        return ident, []
    return "", ([] if ident == "" else ident.split("."))


def seg_match(pat, seg):
    if pat == seg or pat == "*":
        return True
    m = RANGE_RE.match(pat)
    if m and seg.isdigit():
        return int(m.group(1)) <= int(seg) < int(m.group(2))
    return False


def id_match(pattern, ident, multi):
    """Does the ecg id `pattern` cover the concrete truth id `ident`?"""
    pp, ps = split_id(pattern, multi)
    ip, iseg = split_id(ident, multi)
    return pp == ip and len(ps) == len(iseg) and all(seg_match(p, s) for p, s in zip(ps, iseg))


def parse_anchor(a):
    """(file, symbol, line) of an anchor, or None."""
    if not isinstance(a, str):
        return None
    m = ANCHOR_RE.match(a)
    if not m:
        return None
    return m.group(1), m.group(2), int(m.group(3))


# ---------------------------------------------------------------- forward lines

class ClassIndex:
    """The fixture's classes, found with ast: where each class's forward is."""

    def __init__(self, root):
        self.root = root
        self.sites = fixture_sites(root) if root else []
        self.files = {}      # rel path -> {"classes": {qual: node}, "from": {...}, "mods": {...}}
        self.cache = {}

    def _path(self, rel):
        """Where file rel is: in the fixture, or ("site:...") in its sites."""
        if rel.startswith("site:"):
            for d in self.sites:
                cand = os.path.join(d, rel[len("site:"):])
                if os.path.isfile(cand):
                    return cand
            return None
        return os.path.join(self.root, rel)

    def _load(self, rel):
        if rel in self.files:
            return self.files[rel]
        info = None
        path = self._path(rel) or os.path.join(self.root, "\0missing")
        try:
            with open(path, "rb") as fh:
                tree = ast.parse(fh.read(), filename=rel)
        except (OSError, SyntaxError, ValueError):
            tree = None
        if tree is not None:
            info = {"classes": {}, "from": {}, "mods": {}}

            def walk(body, prefix):
                for node in body:
                    if isinstance(node, ast.ClassDef):
                        q = prefix + node.name
                        info["classes"][q] = node
                        walk(node.body, q + ".")
                    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        walk(node.body, prefix + node.name + ".<locals>.")
                    elif isinstance(node, (ast.If, ast.Try, ast.With)):
                        # classes defined under if/try/with at the same level
                        sub = list(node.body) + list(getattr(node, "orelse", []))
                        sub += list(getattr(node, "finalbody", []))
                        for h in getattr(node, "handlers", []):
                            sub += list(h.body)
                        walk(sub, prefix)
                        continue
                    if prefix == "" and isinstance(node, ast.ImportFrom):
                        for a in node.names:
                            info["from"][a.asname or a.name] = (node.module or "", node.level, a.name)
                    elif prefix == "" and isinstance(node, ast.Import):
                        for a in node.names:
                            if a.asname:
                                info["mods"][a.asname] = (a.name, 0)
                            else:
                                info["mods"][a.name.split(".")[0]] = (a.name.split(".")[0], 0)
            walk(tree.body, "")
        self.files[rel] = info
        return info

    def _module_file(self, cur, modname, level):
        parts = [p for p in modname.split(".") if p] if modname else []
        if level:
            base = os.path.dirname(cur)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases = [base]
        else:
            bases = ["", os.path.dirname(cur)]
        if self.sites and not level:
            bases.append("site:")
        for base in bases:
            site = base.startswith("site:")
            b = base[len("site:"):] if site else base
            stem = os.path.join(b, *parts) if parts else b
            for cand in (stem + ".py", os.path.join(stem, "__init__.py")):
                cand = os.path.normpath(cand)
                if cand.startswith("..") or cand.startswith("/"):
                    continue
                cand = "site:" + cand if site else cand
                p = self._path(cand)
                if p and os.path.isfile(p):
                    return cand
        return None

    def _resolve_name(self, rel, name, depth=0):
        info = self._load(rel)
        if info is None or depth > 8:
            return None
        if name in info["classes"]:
            return rel, name
        if name in info["from"]:
            mod, level, attr = info["from"][name]
            f = self._module_file(rel, mod, level)
            if f is not None:
                return self._resolve_name(f, attr, depth + 1)
        return None

    def _resolve_base(self, rel, qual, expr):
        info = self._load(rel)
        if isinstance(expr, ast.Name):
            # enclosing scopes first, innermost out
            parts = qual.split(".")[:-1]
            while parts:
                cand = ".".join(parts) + "." + expr.id
                if cand in info["classes"]:
                    return rel, cand
                parts.pop()
            return self._resolve_name(rel, expr.id)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            a = expr.value.id
            f = None
            if a in info["mods"]:
                f = self._module_file(rel, info["mods"][a][0], 0)
            elif a in info["from"]:
                mod, level, attr = info["from"][a]
                f = self._module_file(rel, (mod + "." + attr) if mod else attr, level)
            if f is not None:
                return self._resolve_name(f, expr.attr)
        return None

    def forward_anchor(self, defined_in):
        """'file:Qual.forward:line' for a class 'file:Qual', or None when its
        forward is not in the fixture."""
        if defined_in in self.cache:
            return self.cache[defined_in]
        rel, qual = split_defined_in(defined_in)
        result = self._find(rel, qual, set())
        self.cache[defined_in] = result
        return result

    def _find(self, rel, qual, seen):
        if (rel, qual) in seen:
            return None
        seen.add((rel, qual))
        info = self._load(rel)
        if info is None or qual not in info["classes"]:
            return None
        node = info["classes"][qual]
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "forward":
                line = min([stmt.lineno] + [d.lineno for d in stmt.decorator_list])
                return "%s:%s.forward:%d" % (rel, qual, line)
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if any(isinstance(t, ast.Name) and t.id == "forward" for t in targets):
                    return None   # forward = something: no def to point at
        for b in node.bases:
            r = self._resolve_base(rel, qual, b)
            if r is not None:
                got = self._find(r[0], r[1], seen)
                if got is not None:
                    return got
        return None


# ---------------------------------------------------------------- truth

class Truth:
    def __init__(self, doc):
        if not isinstance(doc, dict) or "models" not in doc:
            raise InputError("not a truth file (no models)")
        self.doc = doc
        self.fixture = doc.get("fixture", "?")
        models = doc["models"]
        self.multi = len(models) > 1 or any(m.get("name") for m in models)
        self.modules = []          # every MODULE record, all models
        self.by_id = {}
        self.calls = []            # every CALL record, all models
        self.meta_names = set(META_NAMES)
        for m in models:
            for mod in m["modules"]:
                self.modules.append(mod)
                self.by_id[mod["id"]] = mod
            self.calls.extend(m["calls"])
        for c in self.calls:
            for it in c["seq"]:
                if it["kind"] == "op" and it.get("meta"):
                    self.meta_names.add(it["op"])
        self.children = {}
        for mod in self.modules:
            self.children.setdefault(mod["parent"], []).append(mod)

    def inside_opaque(self, module_id):
        """True when a proper ancestor of the module is a torch.nn layer or a
        third-party module (its inside is not in the repository)."""
        mod = self.by_id.get(module_id)
        cur, hops = self.by_id.get(mod.get("parent")) if mod else None, 0
        while cur is not None and hops < 256:
            if not cur.get("defined_in") and cur["class"] not in CONTAINERS:
                return True
            cur, hops = self.by_id.get(cur.get("parent")), hops + 1
        return False

    def op_included(self, call, item):
        if item["kind"] != "op" or item.get("meta") or item["op"] in self.meta_names:
            return False
        if self.inside_opaque(call.get("module")):
            return False
        if item.get("caller") and not (call.get("class") or "").startswith("torch.nn."):
            return False
        return parse_anchor(item.get("site")) is not None

    def op_set(self):
        """{(op, file, line): example (site, module id)}"""
        out = {}
        for c in self.calls:
            for it in c["seq"]:
                if self.op_included(c, it):
                    f, _, line = parse_anchor(it["site"])
                    out.setdefault((it["op"], f, line), (it["site"], c.get("module")))
        return out


def class_ok(ecg_cls, tmod):
    if not isinstance(ecg_cls, str):
        return False
    if ecg_cls == tmod["class"]:
        return True
    di = tmod.get("defined_in")
    if di:
        f, qual = split_defined_in(di)
        if f.startswith("site:"):
            f = f[len("site:"):]
        dotted = f[:-3].replace("/", ".") if f.endswith(".py") else f
        if dotted.endswith(".__init__"):
            dotted = dotted[:-len(".__init__")]
        return ecg_cls in (qual, qual.rsplit(".", 1)[-1], dotted + "." + qual, di)
    t = tmod["class"]
    if not t.startswith("torch.nn.") and "." in t and "." in ecg_cls:
        # a third-party class named by the package that re-exports it:
        # torchvision.ops.StochasticDepth for torchvision.ops.stochastic_depth.StochasticDepth
        tmod_path, tname = t.rsplit(".", 1)
        emod, ename = ecg_cls.rsplit(".", 1)
        return ename == tname and (tmod_path + ".").startswith(emod + ".")
    return False


# ---------------------------------------------------------------- scoring

def function_runs(truth, calls, chain):
    """Calls of a function: maximal runs of consecutive seq items whose via
    starts with chain, over the given truth calls.  None if never seen."""
    total, seen, k = 0, False, len(chain)
    for c in calls:
        inrun = False
        for it in c["seq"]:
            b = list(it.get("via") or [])[:k] == chain
            if b and not inrun:
                total += 1
            seen = seen or b
            inrun = b
    return total if seen else None


class Scorer:
    def __init__(self, truth, graph, fixture_dir):
        self.t = truth
        self.graph = graph
        mods = graph.get("modules") if isinstance(graph, dict) else None
        if not isinstance(mods, list):
            raise InputError("graph has no modules list")
        self.entries = [e for e in mods if isinstance(e, dict)]
        self.by_id = {e.get("id"): e for e in self.entries}
        self.classes = ClassIndex(fixture_dir)
        self.mod_entries = [e for e in self.entries
                            if e.get("kind") in MODULE_KINDS and isinstance(e.get("id"), str)]
        index = {}
        for e in self.mod_entries:
            pre, segs = split_id(e["id"], truth.multi)
            index.setdefault((pre, len(segs)), []).append(e)
        self.cover = {}          # truth id -> [entries]
        self.covered_by = {}     # entry id -> [truth modules]
        for tm in truth.modules:
            pre, segs = split_id(tm["id"], truth.multi)
            got = [e for e in index.get((pre, len(segs)), ())
                   if id_match(e["id"], tm["id"], truth.multi)]
            self.cover[tm["id"]] = got
            for e in got:
                self.covered_by.setdefault(e["id"], []).append(tm)

    # 1
    def opaque_ancestor(self, tm):
        """The nearest proper ancestor whose source ecg cannot read (a torch.nn
        layer or a third-party module, not a torch.nn container), or None."""
        by_id = {m["id"]: m for m in self.t.modules}
        cur, hops = by_id.get(tm.get("parent")), 0
        while cur is not None and hops < 256:
            if not cur.get("defined_in") and cur["class"] not in CONTAINERS:
                return cur
            cur, hops = by_id.get(cur.get("parent")), hops + 1
        return None

    def modules(self):
        fails, dup, inside = [], [], []
        for tm in self.t.modules:
            es = self.cover[tm["id"]]
            anc = self.opaque_ancestor(tm)
            if anc is not None and not es:
                # the inside of torch's or a third-party's module: not in
                # the repository, so not judged (its ancestor is)
                inside.append("%r inside %r (%s)" % (tm["id"], anc["id"], anc["class"]))
                continue
            if not es:
                fails.append("%r (%s): no ecg entry covers it" % (tm["id"], tm["class"]))
                continue
            bad = [e for e in es if not class_ok(e.get("class"), tm)]
            if bad:
                fails.append("%r: class %s, ecg %r says %r" % (tm["id"], tm["class"], bad[0]["id"], bad[0].get("class")))
            if len(es) > 1:
                dup.append("%r covered by %s" % (tm["id"], ", ".join(repr(e["id"]) for e in es)))
        spurious = ["%r (%s, %s)" % (e["id"], e.get("kind"), e.get("class"))
                    for e in self.mod_entries if e["id"] not in self.covered_by]
        n = len(self.t.modules) - len(inside)
        good = n - len(fails)
        rate = good / n if n else 1.0
        nm = len(self.mod_entries)
        return {"truth_modules": n, "ok": good, "rate": rate,
                "ecg_module_entries": nm, "spurious": len(spurious),
                "precision": (nm - len(spurious)) / nm if nm else None,
                "covered_twice": len(dup), "not_judged_inside_external": len(inside),
                "pass": n > 0 and rate >= THRESHOLDS["modules"],
                "failures": fails, "spurious_entries": spurious, "overlaps": dup}

    def expected_total(self, e):
        """Expected total_repeat of an entry, or None when not judged."""
        kind = e.get("kind")
        if kind in MODULE_KINDS:
            tms = self.covered_by.get(e["id"])
            if not tms:
                return None
            # a container is iterated, not called: no repeat of its own
            # (a torch.nn one, or a repo subclass without a forward, which
            # ecg writes as kind "container")
            if all((tm["class"] in ITERATED or kind == "container") and tm["calls"] == 0 for tm in tms):
                return None
            return sum(tm["calls"] for tm in tms)
        if kind == "function":
            chain, cur, hops = [], e, 0
            while cur is not None and cur.get("kind") == "function" and hops < 64:
                chain.append(cur.get("code_anchor"))
                cur = self.by_id.get(cur.get("parent"))
                hops += 1
            if cur is None or cur.get("kind") not in MODULE_KINDS or None in chain:
                return None
            chain.reverse()
            calls = [c for c in self.t.calls if c.get("module") is not None
                     and id_match(cur["id"], c["module"], self.t.multi)]
            return function_runs(self.t, calls, chain)
        return None

    # 2
    def undecided(self, e):
        """Does ecg's entry e, or one of its ancestors, run under a
        condition ecg says it cannot decide (condition.taken null)?"""
        by_id = {x.get("id"): x for x in self.entries}
        seen = 0
        while e is not None and seen < 64:
            c = e.get("condition")
            if isinstance(c, dict) and c.get("taken") is None:
                return True
            e = by_id.get(e.get("parent"))
            seen += 1
        return False

    def repeat(self):
        judged = repeating = given = given_all = exact = 0
        wrong, missing, conditional = [], [], []
        for e in self.entries:
            exp = self.expected_total(e)
            if exp is None:
                continue
            judged += 1
            tr = e.get("total_repeat")
            has = tr is not None
            if exp > 1 and not has and self.undecided(e):
                # ecg says it runs only under a condition it cannot
                # decide (a torch version's `self.flash`): null is the
                # honest count, not a missing one
                conditional.append("%r (%s): under an undecided condition, runs %d times here" %
                                   (e["id"], e.get("kind"), exp))
            elif exp > 1:
                repeating += 1
                if has:
                    given += 1
                else:
                    missing.append("%r (%s): total_repeat null, runs %d times" % (e["id"], e.get("kind"), exp))
            if has:
                given_all += 1
                if tr == exp and not isinstance(tr, bool):
                    exact += 1
                else:
                    wrong.append("%r (%s): total_repeat %r, runs %d times" % (e["id"], e.get("kind"), tr, exp))
        g_rate = given / repeating if repeating else None
        x_rate = exact / given_all if given_all else None
        ok = (judged > 0 and given_all > 0 and x_rate >= THRESHOLDS["repeat_exact"]
              and (g_rate is None or g_rate >= THRESHOLDS["repeat_given"]))
        return {"judged": judged, "repeating": repeating, "given": given,
                "given_rate": g_rate, "with_total": given_all, "exact": exact,
                "exact_rate": x_rate, "pass": ok,
                "failures": wrong, "not_given": missing, "conditional": conditional}

    # 3
    def ops(self):
        T = self.t.op_set()
        E = {}
        for e in self.entries:
            if e.get("kind") != "op":
                continue
            name = e.get("op")
            if name in self.t.meta_names:
                continue
            a = parse_anchor(e.get("code_anchor"))
            key = (name, a[0], a[2]) if a else (name, None, None)
            E.setdefault(key, e.get("id"))
        hit = set(T) & set(E)
        recall = len(hit) / len(T) if T else 1.0
        precision = len(hit) / len(E) if E else None
        miss = ["%s at %s (in %r)" % (k[0], T[k][0], T[k][1]) for k in sorted(set(T) - hit, key=_okey)]
        extra = ["%s at %s:%s (ecg %r)" % (k[0], k[1], k[2], E[k]) for k in sorted(set(E) - hit, key=_okey)]
        return {"truth_ops": len(T), "ecg_ops": len(E), "matched": len(hit),
                "recall": recall, "precision": precision,
                "pass": bool(T) and recall >= THRESHOLDS["op_recall"]
                and precision is not None and precision >= THRESHOLDS["op_precision"],
                "missing": miss, "extra": extra}

    # 4
    def anchors(self):
        n = good = skipped = 0
        fails = []
        for tm in self.t.modules:
            if not tm.get("defined_in"):
                continue
            want = self.classes.forward_anchor(tm["defined_in"])
            if want is None:
                skipped += 1
                continue
            n += 1
            es = self.cover[tm["id"]]
            if not es:
                fails.append("%r: not covered (want %s)" % (tm["id"], want))
                continue
            bad = [e for e in es if e.get("code_anchor") != want]
            if bad:
                fails.append("%r: ecg %r has %r, want %s" % (tm["id"], bad[0]["id"], bad[0].get("code_anchor"), want))
            else:
                good += 1
        rate = good / n if n else 1.0
        return {"judged": n, "ok": good, "rate": rate, "not_in_fixture": skipped,
                "pass": rate >= THRESHOLDS["anchors"], "failures": fails}

    # 5
    def first_call(self, tm):
        for c in self.t.calls:
            if c.get("module") == tm["id"]:
                return c
        return None

    @staticmethod
    def compare_shapes(eid, sh, call, wrong):
        """(dims given, dims right, sides given in full) for one entry's
        shapes against a truth record with "in"/"out"; problems to wrong."""
        syms = {}
        sides_full = dims_given = dims_right = 0
        for side in ("in", "out"):
            got = sh.get(side)
            want = call.get(side) or []
            if got is None:
                continue
            if not isinstance(got, list) or len(got) != len(want):
                wrong.append("%r %s: %d tensors, truth %d (%s)" % (eid, side, len(got) if isinstance(got, list) else -1, len(want), want))
                continue
            side_full = True
            for i, (g, w) in enumerate(zip(got, want)):
                if g is None:
                    side_full = False
                    continue
                if not isinstance(g, list) or len(g) != len(w):
                    wrong.append("%r %s[%d]: %r, truth %r (rank)" % (eid, side, i, g, w))
                    side_full = False
                    continue
                for d, (gd, wd) in enumerate(zip(g, w)):
                    if gd is None:
                        side_full = False
                        continue
                    dims_given += 1
                    if isinstance(gd, str):
                        if syms.setdefault(gd, wd) == wd:
                            dims_right += 1
                        else:
                            wrong.append("%r %s[%d] dim %d: symbol %r is %d here and %d elsewhere in the entry"
                                         % (eid, side, i, d, gd, wd, syms[gd]))
                    elif isinstance(gd, int) and not isinstance(gd, bool) and gd == wd:
                        dims_right += 1
                    else:
                        wrong.append("%r %s[%d]: %r, truth %r" % (eid, side, i, g, w))
            if side_full:
                sides_full += 1
        return dims_given, dims_right, sides_full

    # 7
    def op_shapes(self):
        """Ops written in a forward: their shapes against the first truth
        record of the same (op, site) in a call of the module that holds
        them."""
        judged = full = dims_given = dims_right = 0
        wrong = []
        keys = set()
        for e in self.entries:
            if e.get("kind") != "op" or not isinstance(e.get("shapes"), dict):
                continue
            if e.get("op") in self.t.meta_names:
                continue
            a = parse_anchor(e.get("code_anchor"))
            if not a:
                continue
            mod, hops = self.by_id.get(e.get("parent")), 0
            while mod is not None and mod.get("kind") == "function" and hops < 64:
                mod, hops = self.by_id.get(mod.get("parent")), hops + 1
            if mod is None or not isinstance(mod.get("id"), str):
                continue
            rec = None
            for c in self.t.calls:
                if c.get("module") is None or not id_match(mod["id"], c["module"], self.t.multi):
                    continue
                for it in c["seq"]:
                    if it["kind"] == "op" and it.get("op") == e.get("op") and it.get("site") == e.get("code_anchor") \
                            and "out" in it:
                        rec = it
                        break
                if rec is not None:
                    break
            if rec is None:
                continue
            judged += 1
            keys.add((e.get("op"), a[0], a[2]))
            g, r, f = self.compare_shapes(e["id"], e["shapes"], rec, wrong)
            dims_given += g
            dims_right += r
            if f == 2 or (f == 1 and (e["shapes"].get("in") is None) != (e["shapes"].get("out") is None)):
                full += 1
        # the denominator: ops written in the repository's forwards (not
        # those a torch.nn layer makes, which carry no shapes in the record)
        written = set()
        for c in self.t.calls:
            if (c.get("class") or "").startswith("torch.nn."):
                continue
            for it in c["seq"]:
                if self.t.op_included(c, it):
                    f, _, line = parse_anchor(it["site"])
                    written.add((it["op"], f, line))
        truth_ops = len(written)
        given_rate = len(keys & written) / truth_ops if truth_ops else None
        return {"judged": judged, "full": full, "truth_ops": truth_ops, "given_rate": given_rate,
                "dims_given": dims_given, "dims_right": dims_right,
                "pass": not wrong and given_rate is not None and given_rate >= THRESHOLDS["op_shapes_given"],
                "failures": wrong}

    def shapes(self):
        judged = full = dims_given = dims_right = 0
        wrong, partial = [], []
        for e in self.mod_entries:
            if e.get("kind") not in ("model", "module", "layer"):
                continue
            tms = [tm for tm in self.covered_by.get(e["id"], ()) if tm.get("calls")]
            if not tms:
                continue
            call = self.first_call(tms[0])
            if call is None or "out" not in call:
                continue
            judged += 1
            sh = e.get("shapes")
            if not isinstance(sh, dict):
                partial.append("%r: no shapes" % e["id"])
                continue
            g, r, sides_full = self.compare_shapes(e["id"], sh, call, wrong)
            dims_given += g
            dims_right += r
            if sides_full == 2:
                full += 1
            else:
                partial.append("%r: %r, truth in %r out %r" % (e["id"], sh, call.get("in"), call.get("out")))
        right_rate = dims_right / dims_given if dims_given else None
        given_rate = full / judged if judged else None
        return {"judged": judged, "full": full, "given_rate": given_rate,
                "dims_given": dims_given, "dims_right": dims_right, "right_rate": right_rate,
                "pass": judged > 0 and not wrong and given_rate >= THRESHOLDS["shapes_given"],
                "failures": wrong, "not_full": partial}

    # 6
    def params(self):
        judged = given = exact = 0
        wrong, missing = [], []
        for e in self.mod_entries:
            tms = [tm for tm in self.covered_by.get(e["id"], ()) if tm.get("params") is not None]
            if not tms:
                continue
            judged += 1
            want = tms[0]["params"]
            got = e.get("params")
            if got is None:
                missing.append("%r (%s): params null, has %d" % (e["id"], e.get("class"), want))
                continue
            given += 1
            if isinstance(got, int) and not isinstance(got, bool) and got == want:
                exact += 1
            else:
                wrong.append("%r (%s): params %r, has %d" % (e["id"], e.get("class"), got, want))
        g_rate = given / judged if judged else None
        return {"judged": judged, "given": given, "exact": exact, "given_rate": g_rate,
                "pass": judged > 0 and not wrong and g_rate >= THRESHOLDS["params_given"],
                "failures": wrong, "not_given": missing}

    def score(self):
        r = {"fixture": self.t.fixture, "modules": self.modules(), "repeat": self.repeat(),
             "ops": self.ops(), "anchors": self.anchors(), "shapes": self.shapes(),
             "params": self.params(), "op_shapes": self.op_shapes()}
        r["pass"] = all(r[k]["pass"] for k in METRICS)
        return r


def _okey(k):
    return (k[1] or "", k[2] or 0, k[0] or "")


# ---------------------------------------------------------------- output

def pct(x):
    return "n/a" if x is None else "%.1f%%" % (100.0 * x)


def print_table(r, verbose, out=sys.stdout):
    lim = None if verbose else 20

    def items(title, lst):
        if not lst:
            return
        out.write("  %s (%d):\n" % (title, len(lst)))
        for s in lst[:lim]:
            out.write("    %s\n" % s)
        if lim is not None and len(lst) > lim:
            out.write("    ... %d more (--verbose)\n" % (len(lst) - lim))

    def row(name, got, rate, need, ok):
        out.write("%-28s %-14s %-7s %-7s %s\n" % (name, got, pct(rate), need, "PASS" if ok else "FAIL"))

    m, rp, o, a = r["modules"], r["repeat"], r["ops"], r["anchors"]
    out.write("fixture %s: %s\n" % (r["fixture"], "PASS" if r["pass"] else "FAIL"))
    out.write("%-28s %-14s %-7s %-7s %s\n" % ("metric", "got", "rate", "need", "result"))
    row("module paths + classes", "%d/%d" % (m["ok"], m["truth_modules"]), m["rate"], "100%", m["pass"])
    out.write("  ecg module entries %d, spurious %d (precision %s), truth modules covered twice %d\n"
              % (m["ecg_module_entries"], m["spurious"], pct(m["precision"]), m["covered_twice"]))
    items("failing", m["failures"])
    items("spurious", m["spurious_entries"])
    items("covered twice", m["overlaps"])
    gate = rp["judged"] > 0 and rp["with_total"] > 0
    row("repeat given (repeating)", "%d/%d" % (rp["given"], rp["repeating"]), rp["given_rate"], ">=95%",
        gate and (rp["given_rate"] is None or rp["given_rate"] >= THRESHOLDS["repeat_given"]))
    row("repeat exact (given)", "%d/%d" % (rp["exact"], rp["with_total"]), rp["exact_rate"], "100%",
        gate and rp["exact_rate"] >= THRESHOLDS["repeat_exact"])
    if not gate:
        out.write("  nothing judged: no ecg entry with a total_repeat covers a truth module that ran\n")
    items("repeating units without a total_repeat", rp["not_given"])
    items("repeating units ecg gives as conditional (null, not counted as missing)", rp.get("conditional", []))
    items("wrong total_repeat", rp["failures"])
    row("op recall", "%d/%d" % (o["matched"], o["truth_ops"]), o["recall"], ">=95%",
        bool(o["truth_ops"]) and o["recall"] >= THRESHOLDS["op_recall"])
    row("op precision", "%d/%d" % (o["matched"], o["ecg_ops"]), o["precision"],
        ">=90%", o["precision"] is not None and o["precision"] >= THRESHOLDS["op_precision"])
    items("truth ops ecg misses", o["missing"])
    items("ecg ops not in the truth", o["extra"])
    row("forward code anchors", "%d/%d" % (a["ok"], a["judged"]), a["rate"], "100%", a["pass"])
    if a["not_in_fixture"]:
        out.write("  %d modules inherit forward from outside the fixture (not counted)\n" % a["not_in_fixture"])
    items("failing", a["failures"])
    sh = r["shapes"]
    row("shape dims right (given)", "%d/%d" % (sh["dims_right"], sh["dims_given"]), sh["right_rate"], "100%",
        not sh["failures"])
    row("shapes given in full", "%d/%d" % (sh["full"], sh["judged"]), sh["given_rate"], ">=50%",
        sh["judged"] > 0 and sh["given_rate"] >= THRESHOLDS["shapes_given"])
    items("wrong shapes", sh["failures"])
    pa = r["params"]
    row("params exact (given)", "%d/%d" % (pa["exact"], pa["given"]), pa["exact"] / pa["given"] if pa["given"] else None,
        "100%", not pa["failures"])
    row("params given", "%d/%d" % (pa["given"], pa["judged"]), pa["given_rate"], ">=50%",
        pa["judged"] > 0 and pa["given_rate"] >= THRESHOLDS["params_given"])
    items("wrong params", pa["failures"])
    os_ = r["op_shapes"]
    row("op shape dims right (given)", "%d/%d" % (os_["dims_right"], os_["dims_given"]),
        os_["dims_right"] / os_["dims_given"] if os_["dims_given"] else None, "100%", not os_["failures"])
    row("ops with shapes", "%d/%d" % (round((os_["given_rate"] or 0) * os_["truth_ops"]), os_["truth_ops"]), os_["given_rate"], ">=50%",
        os_["given_rate"] is not None and os_["given_rate"] >= THRESHOLDS["op_shapes_given"])
    items("wrong op shapes", os_["failures"])
    if verbose:
        items("params not given", pa["not_given"])
    if verbose:
        items("shapes not given in full", sh["not_full"])


def json_numbers(r):
    """The numbers only (no item lists)."""
    out = {"fixture": r["fixture"], "pass": r["pass"]}
    for k in METRICS:
        out[k] = {kk: v for kk, v in r[k].items() if not isinstance(v, list)}
    return out


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError) as e:
        raise InputError("cannot read %s %s: %s" % (what, path, e))


def score_files(truth_path, graph_path, fixture_dir):
    truth = Truth(load_json(truth_path, "truth"))
    graph = load_json(graph_path, "graph")
    return Scorer(truth, graph, fixture_dir or os.path.dirname(os.path.abspath(truth_path))).score()


# ---------------------------------------------------------------- perfect graph

def build_perfect(truth, fixture_dir, collapse=True):
    """The graph a perfect ecg would write for this truth (modules list)."""
    cls_index = ClassIndex(fixture_dir)
    calls_of = {}
    for c in truth.calls:
        calls_of.setdefault(c.get("module"), []).append(c)
    out = []

    def sig(mod):
        acc = []

        def rec(m, rel):
            acc.append((rel, m["class"], m["calls"]))
            for ch in truth.children.get(m["id"], ()):
                rec(ch, rel + "." + ch["path"].rsplit(".", 1)[-1])
        rec(mod, "")
        return tuple(acc)

    def child_id(parent_eid, parent_is_root, seg):
        if parent_is_root:
            if truth.multi:
                return parent_eid + "/" + seg
            return seg
        return parent_eid + "." + seg

    def groups(members):
        """[(segment, [child members...])] for the children of parallel members."""
        first = members[0]
        kids = truth.children.get(first["id"], [])
        names = [k["path"].rsplit(".", 1)[-1] for k in kids]
        per_member = []
        for mm in members:
            ks = truth.children.get(mm["id"], [])
            per_member.append({k["path"].rsplit(".", 1)[-1]: k for k in ks})
        res = []
        indexed = collapse and first["class"] in INDEXED and names and all(n.isdigit() for n in names)
        if not indexed:
            for n in names:
                res.append((n, [pm[n] for pm in per_member]))
            return res
        i = 0
        while i < len(names):
            j = i + 1
            s = sig(kids[i])
            while j < len(names) and int(names[j]) == int(names[j - 1]) + 1 and sig(kids[j]) == s:
                j += 1
            if j - i == 1:
                seg = names[i]
            elif i == 0 and j == len(names) and int(names[0]) == 0:
                seg = "*"
            else:
                seg = "%d:%d" % (int(names[i]), int(names[j - 1]) + 1)
            res.append((seg, [pm[n] for pm in per_member for n in names[i:j]]))
            i = j
        return res

    def total_of(members):
        return sum(m["calls"] for m in members)

    def repeat_fields(entry, total, parent_total, unit):
        """repeat / total_repeat consistent with the contract's product rule."""
        if parent_total is None:
            entry["total_repeat"] = None
            return None
        if total == parent_total:
            entry["total_repeat"] = total
            return total
        if parent_total > 0 and total % parent_total == 0:
            entry["repeat"] = {"count": total // parent_total, "unit": unit}
            entry["total_repeat"] = total
            return total
        if parent_total == 0 and total == 0:
            entry["total_repeat"] = 0
            return 0
        entry["repeat"] = {"count": None, "unit": unit, "expr": "data-dependent",
                           "reason": "runs %d times over %d parent runs" % (total, parent_total)}
        entry["total_repeat"] = None
        return None

    def emit_ops(eid, members, parent_total, next_order):
        """Ops (and function entries for via chains) of the calls of members."""
        calls = [c for m in members for c in calls_of.get(m["id"], [])]
        # children keyed by via chain: chain tuple -> entry id; ops by (chain, op, site)
        func_ids = {(): eid}
        func_total = {(): parent_total}
        counters = {eid: next_order}
        seen_ops = set()
        pending = []
        for c in calls:
            builtin = (c.get("class") or "").startswith("torch.nn.")
            for it in c["seq"]:
                if it["kind"] != "op":
                    continue
                if it.get("caller") and not builtin:
                    continue
                if parse_anchor(it.get("site")) is None:
                    continue
                if truth.inside_opaque(c.get("module")):
                    continue
                via = tuple(it.get("via") or ())
                for k in range(1, len(via) + 1):
                    ch = via[:k]
                    if ch in func_ids:
                        continue
                    par = func_ids[ch[:-1]]
                    counters[par] = counters.get(par, 0) + 1
                    fid = "%s#%d" % (par, counters[par])
                    func_ids[ch] = fid
                    counters[fid] = 0
                    fe = {"id": fid, "kind": "function", "parent": par, "order": counters[par],
                          "class": None, "code_anchor": ch[-1]}
                    runs = function_runs(truth, calls, list(ch))
                    func_total[ch] = repeat_fields(fe, runs, func_total[ch[:-1]], "call")
                    pending.append(fe)
                key = (via, it["op"], it["site"])
                if key in seen_ops:
                    continue
                seen_ops.add(key)
                par = func_ids[via]
                counters[par] = counters.get(par, 0) + 1
                op_entry = {"id": "%s#%d" % (par, counters[par]), "kind": "op", "parent": par,
                            "order": counters[par], "op": it["op"], "code_anchor": it["site"]}
                if "out" in it:
                    op_entry["shapes"] = {"in": it.get("in") or [], "out": it.get("out") or []}
                pending.append(op_entry)
        return pending, counters[eid]

    def emit(members, eid, parent_eid, order, parent_total, is_root):
        first = members[0]
        cls = first["class"]
        if is_root:
            kind = "model"
        elif cls in CONTAINERS:
            kind = "container"
        elif first.get("defined_in"):
            kind = "module"
        else:
            kind = "layer"
        entry = {"id": eid, "kind": kind, "parent": parent_eid,
                 "order": order, "class": cls}
        first_call = next((c for c in truth.calls if c.get("module") == first["id"]), None)
        if kind != "container" and first_call is not None and "out" in first_call:
            entry["shapes"] = {"in": first_call.get("in") or [], "out": first_call.get("out") or []}
        entry["params"] = first.get("params")
        if first.get("defined_in"):
            entry["code_anchor"] = cls_index.forward_anchor(first["defined_in"])
            # a repo class whose forward is not in the fixture (a subclass
            # of nn.ModuleDict): what it runs is outside, as the schema says
            entry["external"] = entry["code_anchor"] is None
        else:
            entry["code_anchor"] = None
            entry["external"] = True
        total = total_of(members)
        if cls in ITERATED and total == 0:
            entry["total_repeat"] = parent_total   # iterated, not called: no repeat of its own
            my_total = parent_total
        else:
            my_total = repeat_fields(entry, total, parent_total if not is_root else 1,
                                     cls.rsplit(".", 1)[-1])
        if total == 0 and not (cls in ITERATED):
            entry["order"] = None
        out.append(entry)
        ops, n = emit_ops(eid, members, my_total, 0)
        out.extend(ops)
        for seg, kids in groups(members):
            n += 1
            emit(kids, child_id(eid, is_root, seg), eid, n, my_total, False)

    for m in truth.doc["models"]:
        root = [mm for mm in m["modules"] if mm["parent"] is None][0]
        emit([root], root["id"], None, 1, 1, True)
    # ops of calls made by modules not in named_modules(): under their model's root
    return out


def perfect_document(truth, fixture_dir, header=None, collapse=True):
    mods = build_perfect(truth, fixture_dir, collapse)
    if header is None:
        return {"schema": "ecg.computation_graph/1", "modules": mods}
    doc = dict(header)
    doc["modules"] = mods
    return doc


# ---------------------------------------------------------------- self-test

PATTERN_CASES = [
    ("down.*.res.0:2", "down.3.res.1", False, True),
    ("down.*.res.0:2", "down.3.res.2", False, False),
    ("down.*.res.0:2", "down.3.res", False, False),
    ("", "", False, True),
    ("", "a", False, False),
    ("layer3.1:6", "layer3.0", False, False),
    ("layer3.1:6", "layer3.1", False, True),
    ("layer3.1:6", "layer3.5", False, True),
    ("layer3.1:6", "layer3.6", False, False),
    ("layer3.1:6.relu", "layer3.4.relu", False, True),
    ("h.*", "h.0.attn", False, False),
    ("transformer.h.*", "transformer.h.11", False, True),
    ("experts.*", "experts.gate", False, True),
    ("netG", "netG", True, True),
    ("netG/main.*", "netG/main.3", True, True),
    ("netG/main.*", "netD/main.3", True, False),
    ("netG/main.*", "netG", True, False),
    ("netG", "netG/main", True, False),
]


CLASS_CASES = [
    ("torch.nn.Linear", {"class": "torch.nn.Linear", "defined_in": None}, True),
    ("Linear", {"class": "torch.nn.Linear", "defined_in": None}, False),
    ("torch.nn.modules.linear.Linear", {"class": "torch.nn.Linear", "defined_in": None}, False),
    ("Block", {"class": "Block", "defined_in": "model.py:Block"}, True),
    ("model.Block", {"class": "Block", "defined_in": "model.py:Block"}, True),
    ("pkg.model.Outer.Inner", {"class": "Outer.Inner", "defined_in": "pkg/model.py:Outer.Inner"}, True),
    ("Inner", {"class": "Outer.Inner", "defined_in": "pkg/model.py:Outer.Inner"}, True),
    ("MLP", {"class": "Block", "defined_in": "model.py:Block"}, False),
    ("torchvision.ops.StochasticDepth",
     {"class": "torchvision.ops.stochastic_depth.StochasticDepth", "defined_in": None}, True),
    ("torchvision.StochasticDepth",
     {"class": "torchvision.ops.stochastic_depth.StochasticDepth", "defined_in": None}, True),
    ("timm.ops.StochasticDepth",
     {"class": "torchvision.ops.stochastic_depth.StochasticDepth", "defined_in": None}, False),
    ("torchvision.ops.stochastic.StochasticDepth",
     {"class": "torchvision.ops.stochastic_depth.StochasticDepth", "defined_in": None}, False),
    ("StochasticDepth",
     {"class": "torchvision.ops.stochastic_depth.StochasticDepth", "defined_in": None}, False),
]


def _metric_results(r):
    return {k: r[k]["pass"] for k in METRICS}


def self_test(truth_paths, out=sys.stdout):
    failures = [0]

    def check(cond, what):
        out.write("%s - %s\n" % ("ok" if cond else "FAIL", what))
        if not cond:
            failures[0] += 1

    for pat, ident, multi, want in PATTERN_CASES:
        check(id_match(pat, ident, multi) == want,
              "pattern %r %s %r" % (pat, "covers" if want else "does not cover", ident))
    for ecls, tm, want in CLASS_CASES:
        check(class_ok(ecls, tm) == want,
              "class %r %s truth %r" % (ecls, "names" if want else "does not name", tm["class"]))
    _self_test_forward(check)
    for tp in truth_paths:
        _self_test_fixture(tp, check, out)
    out.write("self-test: %d failure(s)\n" % failures[0])
    return failures[0] == 0


FORWARD_FILES = {
    "pkg/__init__.py": "from .base import Base as B0\nfrom . import base\n",
    "pkg/base.py": ("import torch.nn as nn\n\n\nclass Base(nn.Module):\n"
                    "    @staticmethod\n    def helper(x):\n        return x\n\n"
                    "    @decorated\n    def forward(self, x):\n        return x\n"),
    "model.py": ("import torch.nn as nn\nfrom pkg import B0\nimport pkg.base as pb\n\n\n"
                 "class Child(B0):\n    pass\n\n\nclass Other(pb.Base):\n    pass\n\n\n"
                 "class Own(Child):\n    def forward(self, x):\n        return x\n\n\n"
                 "class Seq(nn.Sequential):\n    pass\n\n\n"
                 "class Assigned(Child):\n    forward = nn.Module.__call__\n\n\n"
                 "def make():\n    class Local(Own):\n        pass\n    return Local\n"),
}
FORWARD_CASES = [
    # a decorated forward: co_firstlineno, the decorator's line (9)
    ("pkg/base.py:Base", "pkg/base.py:Base.forward:9"),
    ("model.py:Child", "pkg/base.py:Base.forward:9"),
    ("model.py:Other", "pkg/base.py:Base.forward:9"),
    ("model.py:Own", "model.py:Own.forward:15"),
    ("model.py:Seq", None),
    ("model.py:Assigned", None),
    ("model.py:make.<locals>.Local", "model.py:Own.forward:15"),
]


def _self_test_forward(check):
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="score-selftest-")
    try:
        for rel, text in FORWARD_FILES.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as fh:
                fh.write(text)
        ci = ClassIndex(d)
        for di, want in FORWARD_CASES:
            got = ci.forward_anchor(di)
            check(got == want, "forward of %s is %s%s" % (di, want, "" if got == want else " (got %s)" % got))
    finally:
        shutil.rmtree(d)


def _self_test_fixture(tp, check, out):
    import copy
    fdir = os.path.dirname(os.path.abspath(tp))
    truth = Truth(load_json(tp, "truth"))
    name = truth.fixture

    def run(mods):
        return Scorer(truth, {"modules": mods}, fdir).score()

    def skip(what):
        out.write("# %s: skipped: %s\n" % (name, what))

    def expect(mods, broken, what):
        r = run(mods)
        got = _metric_results(r)
        want = {k: (k not in broken) for k in got}
        ok = got == want
        verdict = ("fails " + " and ".join(sorted(broken)) + " only") if broken else "passes"
        check(ok, "%s: %s %s%s" % (name, what, verdict, "" if ok else " (got %s)" % got))
        return r

    def key_of(x):
        a = parse_anchor(x.get("code_anchor"))
        return (x.get("op"), a[0], a[2]) if a else None

    perfect = build_perfect(truth, fdir, collapse=True)
    expanded = build_perfect(truth, fdir, collapse=False)
    r = run(perfect)
    check(r["pass"] and r["modules"]["rate"] == 1.0 and r["ops"]["recall"] == 1.0
          and r["ops"]["precision"] == 1.0 and r["repeat"]["exact_rate"] == 1.0
          and r["repeat"]["given_rate"] in (1.0, None) and r["anchors"]["rate"] == 1.0
          and r["modules"]["spurious"] == 0 and r["modules"]["covered_twice"] == 0,
          "%s: perfect collapsed graph scores 100%% on every metric (%d entries, %d ops, "
          "%d repeating units)" % (name, len(perfect), r["ops"]["truth_ops"], r["repeat"]["repeating"]))
    if not r["pass"]:
        print_table(r, False, out)
    ids = [e["id"] for e in perfect if e["kind"] in MODULE_KINDS]
    n_pat = sum(1 for i in ids if any(s == "*" or RANGE_RE.match(s) for s in split_id(i, truth.multi)[1]))
    out.write("# %s: %d module entries for %d truth modules, %d with a * or a:b segment\n"
              % (name, len(ids), len(truth.modules), n_pat))
    r = run(expanded)
    check(r["pass"] and r["modules"]["rate"] == 1.0 and r["ops"]["recall"] == 1.0
          and r["ops"]["precision"] == 1.0 and r["repeat"]["exact_rate"] == 1.0,
          "%s: perfect expanded graph (no patterns) scores 100%%" % name)

    # today's ecg: an empty graph fails every metric
    expect([], set(METRICS), "an empty graph")

    # shapes: one wrong dim; a symbol for a dim; one symbol for two values
    g = copy.deepcopy(perfect)
    shaped = [x for x in g if x["kind"] != "op" and any(s for s in (x.get("shapes") or {}).get("out", []) if s)]
    if shaped:
        x = shaped[0]
        s = next(s for s in x["shapes"]["out"] if s)
        s[0] += 1
        expect(g, {"shapes"}, "a wrong output dim on %r" % x["id"])
        g = copy.deepcopy(perfect)
        x = [y for y in g if y["id"] == x["id"]][0]
        s = next(s for s in x["shapes"]["out"] if s)
        s[0] = "B"
        expect(g, set(), "a symbol for a dim on %r" % x["id"])
        two = [(x, i) for x in g if x["kind"] != "op" for i, s in enumerate((x.get("shapes") or {}).get("out", []))
               if s and len(s) >= 2 and s[0] != s[-1]]
        if two:
            x, i = two[0]
            x["shapes"]["out"][i][0] = "Q"
            x["shapes"]["out"][i][-1] = "Q"
            expect(g, {"shapes"}, "one symbol for two values on %r" % x["id"])
        g = copy.deepcopy(perfect)
        for x in g:
            if x["kind"] != "op":
                x.pop("shapes", None)
        expect(g, {"shapes"}, "no module shapes at all")
    else:
        skip("no entry with an output shape")

    # op shapes: one wrong dim; none given
    g = copy.deepcopy(perfect)
    shaped_ops = [x for x in g if x["kind"] == "op" and x["op"] not in truth.meta_names
                  and any(s for s in (x.get("shapes") or {}).get("out", []) if s)]
    if shaped_ops:
        s = next(s for s in shaped_ops[0]["shapes"]["out"] if s)
        s[0] = s[0] + 1 if isinstance(s[0], int) else 7
        expect(g, {"op_shapes"}, "a wrong output dim on op %r" % shaped_ops[0]["id"])
        g = copy.deepcopy(perfect)
        for x in g:
            if x["kind"] == "op":
                x.pop("shapes", None)
        expect(g, {"op_shapes"}, "no op shapes at all")
    else:
        skip("no op with an output shape")

    # params: one wrong count; none given
    g = copy.deepcopy(perfect)
    counted = [x for x in g if isinstance(x.get("params"), int) and x["params"] > 0]
    if counted:
        counted[-1]["params"] += 1
        expect(g, {"params"}, "a wrong parameter count on %r" % counted[-1]["id"])
        g = copy.deepcopy(perfect)
        for x in g:
            x["params"] = None
        expect(g, {"params"}, "no parameter counts")
    else:
        skip("no module with parameters")

    # a wrong class
    g = copy.deepcopy(perfect)
    layers = [x for x in g if x["kind"] in ("layer", "module")]
    if layers:
        e = layers[0]
        e["class"] = "torch.nn.Identity" if e["class"] != "torch.nn.Identity" else "torch.nn.Linear"
        expect(g, {"modules"}, "a wrong class on %r" % e["id"])
    else:
        skip("no layer or module entry for a wrong class")

    # other spellings of the same classes: dotted paths of fixture classes,
    # the re-exporting package of third-party classes
    g = copy.deepcopy(perfect)
    n_renamed = 0
    for x in g:
        if x["kind"] not in MODULE_KINDS:
            continue
        tm = next((t for t in truth.modules if id_match(x["id"], t["id"], truth.multi)), None)
        if tm is None:
            continue
        if tm.get("defined_in"):
            f, qual = split_defined_in(tm["defined_in"])
            f = f[len("site:"):] if f.startswith("site:") else f
            dotted = f[:-3].replace("/", ".")
            if dotted.endswith(".__init__"):        # a package's own module
                dotted = dotted[:-len(".__init__")]
            x["class"] = dotted + "." + qual
            n_renamed += 1
        elif not tm["class"].startswith("torch.nn.") and tm["class"].count(".") >= 2:
            parts = tm["class"].split(".")
            x["class"] = parts[0] + "." + parts[-1]
            n_renamed += 1
    expect(g, set(), "%d classes written as dotted paths (model.Block, torchvision.X)" % n_renamed)

    # a missing module entry (a leaf) fails modules and is listed
    g = copy.deepcopy(perfect)
    layers = [x for x in g if x["kind"] == "layer"]
    if layers:
        leaf = layers[-1]
        g = [x for x in g if x["id"] != leaf["id"] and x.get("parent") != leaf["id"]]
        r = run(g)
        check(not r["modules"]["pass"] and any(repr(leaf["id"]) in s for s in r["modules"]["failures"]),
              "%s: a missing entry %r fails modules and is listed" % (name, leaf["id"]))

    # a spurious module entry is reported, and fails nothing
    g = copy.deepcopy(perfect)
    root_id = [x for x in g if x["kind"] == "model"][0]["id"]
    g.append({"id": (root_id + "/" if truth.multi else "") + "no_such_layer", "kind": "layer",
              "parent": root_id, "order": None, "class": "torch.nn.Linear", "code_anchor": None,
              "external": True, "total_repeat": 1})
    r = expect(g, set(), "a spurious module entry")
    check(r["modules"]["spurious"] == 1, "%s:   and it is reported as spurious" % name)

    # a wrong repeat count
    g = copy.deepcopy(perfect)
    sc = Scorer(truth, {"modules": g}, fdir)
    cands = [x for x in g if x["kind"] in MODULE_KINDS + ("function",)
             and isinstance(x.get("total_repeat"), int) and sc.expected_total(x) is not None]
    rep = [x for x in cands if x["total_repeat"] > 1] or cands
    if rep:
        rep[0]["total_repeat"] += 1
        expect(g, {"repeat"}, "a wrong total_repeat on %r" % rep[0]["id"])
    else:
        skip("no entry with a total_repeat")

    # repeat counts not given on repeating units
    g = copy.deepcopy(perfect)
    sc = Scorer(truth, {"modules": g}, fdir)
    reps = [x for x in g if (sc.expected_total(x) or 0) > 1]
    if reps:
        for x in reps:
            x["total_repeat"] = None
        expect(g, {"repeat"}, "total_repeat null on all %d repeating units" % len(reps))
        if len(reps) >= 20:
            g = copy.deepcopy(perfect)
            sc = Scorer(truth, {"modules": g}, fdir)
            reps = [x for x in g if (sc.expected_total(x) or 0) > 1]
            reps[0]["total_repeat"] = None
            expect(g, set(), "total_repeat null on 1 of %d repeating units (>= 95%% given)" % len(reps))
    else:
        skip("no repeating unit: the given-rate case is vacuous")

    T = truth.op_set()
    ops = [x for x in perfect if x["kind"] == "op"]
    if not T or not ops:
        skip("no ops")
    else:
        # one missing op: recall drops by exactly one, and the op is listed
        drop_key = sorted(T, key=_okey)[0]
        g = [x for x in copy.deepcopy(perfect) if not (x["kind"] == "op" and key_of(x) == drop_key)]
        r = run(g)
        check(r["ops"]["matched"] == len(T) - 1
              and any(drop_key[0] in s for s in r["ops"]["missing"]),
              "%s: one missing op (%s at %s:%d) lowers recall by exactly one and is listed"
              % (name, drop_key[0], drop_key[1], drop_key[2]))

        # enough missing ops to go below 95% recall
        ndrop = int(math.floor(len(T) * (1 - THRESHOLDS["op_recall"]))) + 1
        drop = set(sorted(T, key=_okey)[:ndrop])
        g = [x for x in copy.deepcopy(perfect) if not (x["kind"] == "op" and key_of(x) in drop)]
        expect(g, {"ops"}, "%d of %d truth ops missing" % (ndrop, len(T)))

        # enough spurious ops to go below 90% precision
        g = copy.deepcopy(perfect)
        nadd = int(math.ceil(len(T) / THRESHOLDS["op_precision"])) - len(T) + 1
        anchor_op = ops[0]
        f, sym, line = parse_anchor(anchor_op["code_anchor"])
        for i in range(nadd):
            g.append({"id": "%s#%d" % (anchor_op["parent"], 1000 + i), "kind": "op",
                      "parent": anchor_op["parent"], "order": 1000 + i, "op": "torch.spurious",
                      "code_anchor": "%s:%s:%d" % (f, sym, line + 1000 + i)})
        expect(g, {"ops"}, "%d spurious ops" % nadd)

        # meta ops in the graph are not counted
        g = copy.deepcopy(perfect)
        n_meta = sum(1 for x in g if x["kind"] == "op" and x["op"] in truth.meta_names)
        g.append(dict(anchor_op, id=anchor_op["parent"] + "#999", op="Tensor.size"))
        r = run(g)
        check(r["ops"]["ecg_ops"] == len(T) and r["ops"]["pass"],
              "%s: meta ops in the graph (%d) are left out" % (name, n_meta + 1))

    # a wrong forward line
    g = copy.deepcopy(perfect)
    withfwd = [x for x in g if x["kind"] in ("model", "module") and x.get("code_anchor")]
    if withfwd:
        x = withfwd[-1]
        f, sym, line = parse_anchor(x["code_anchor"])
        x["code_anchor"] = "%s:%s:%d" % (f, sym, line + 1)
        expect(g, {"anchors"}, "a wrong forward line on %r" % x["id"])
    else:
        skip("no forward anchor")

    # a range too narrow leaves a module uncovered
    g = copy.deepcopy(perfect)
    pat = [x for x in g if x["kind"] in MODULE_KINDS
           and any(s == "*" or RANGE_RE.match(s) for s in split_id(x["id"], truth.multi)[1])]
    if pat:
        x = pat[0]
        pre, segs = split_id(x["id"], truth.multi)
        i = max(k for k, s in enumerate(segs) if s == "*" or RANGE_RE.match(s))
        if segs[i] == "*":
            n = len(truth.children.get(_concrete_parent(truth, pre, segs[:i]), []))
            segs[i] = "0:%d" % (n - 1)
        else:
            a_, b_ = map(int, segs[i].split(":"))
            segs[i] = "%d:%d" % (a_, b_ - 1)
        old = x["id"]
        new = (pre + "/" if truth.multi else "") + ".".join(segs)
        for y in g:
            for k in ("id", "parent"):
                v = y.get(k)
                if isinstance(v, str) and (v == old or v.startswith(old + ".") or v.startswith(old + "#")):
                    y[k] = new + v[len(old):]
        r = run(g)
        check(not r["modules"]["pass"], "%s: %r narrowed to %r leaves a module uncovered" % (name, old, new))


def _concrete_parent(truth, pre, segs):
    """Truth id of the first container matched by pattern segments segs."""
    for tm in truth.modules:
        p, s = split_id(tm["id"], truth.multi)
        if p == pre and len(s) == len(segs) and all(seg_match(a, b) for a, b in zip(segs, s)):
            return tm["id"]
    return None


# ---------------------------------------------------------------- main

USAGE = ("usage: score.py TRUTH.json GRAPH.json [--fixture-dir DIR] [--json] [--verbose]\n"
         "       score.py --self-test [TRUTH.json ...]\n"
         "       score.py --perfect TRUTH.json [--header GRAPH.json] [--expand] [--fixture-dir DIR]\n")


def main(argv):
    args, opts = [], {"json": False, "verbose": False, "self-test": False,
                      "perfect": False, "expand": False, "fixture-dir": None, "header": None}
    it = iter(argv[1:])
    for a in it:
        if a in ("--json", "--verbose", "--self-test", "--perfect", "--expand"):
            opts[a[2:]] = True
        elif a in ("--fixture-dir", "--header"):
            v = next(it, None)
            if v is None:
                sys.stderr.write(USAGE)
                return 2
            opts[a[2:]] = v
        elif a.startswith("--fixture-dir="):
            opts["fixture-dir"] = a.split("=", 1)[1]
        elif a in ("-h", "--help"):
            sys.stdout.write(USAGE + __doc__)
            return 0
        elif a.startswith("-"):
            sys.stderr.write("score.py: unknown option %s\n%s" % (a, USAGE))
            return 2
        else:
            args.append(a)
    try:
        if opts["self-test"]:
            if not args:
                here = os.path.dirname(os.path.abspath(__file__))
                fx = os.path.join(here, "..", "fixtures")
                args = sorted(os.path.join(fx, d, "truth.json") for d in os.listdir(fx)
                              if os.path.isfile(os.path.join(fx, d, "truth.json")))
            return 0 if self_test(args) else 1
        if opts["perfect"]:
            if len(args) != 1:
                sys.stderr.write(USAGE)
                return 2
            truth = Truth(load_json(args[0], "truth"))
            header = load_json(opts["header"], "graph") if opts["header"] else None
            fdir = opts["fixture-dir"] or os.path.dirname(os.path.abspath(args[0]))
            doc = perfect_document(truth, fdir, header, not opts["expand"])
            sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            return 0
        if len(args) != 2:
            sys.stderr.write(USAGE)
            return 2
        r = score_files(args[0], args[1], opts["fixture-dir"])
    except InputError as e:
        sys.stderr.write("score.py: %s\n" % e)
        return 2
    if opts["json"]:
        sys.stdout.write(json.dumps(json_numbers(r), indent=1, sort_keys=True) + "\n")
    else:
        print_table(r, opts["verbose"])
    return 0 if r["pass"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
