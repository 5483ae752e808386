#!/usr/bin/python3
"""trace.py FIXTURE_DIR OUT.json.gz -- run a fixture job under PyTorch's profiler
and write a Kineto-format (Chrome trace) JSON of its first steps, gzipped, and
OUT.truth.json, which module instances ran in those steps.

    /usr/bin/python3 tests/oracle/trace.py tests/fixtures/<name> OUT.json.gz
        [--max-steps N] [--step-line FILE:LINE] [--python-events all|pycall|user]
        [--paths absolute|trimmed] [--open-frames def|current] [--keep-workdir]
    /usr/bin/python3 tests/oracle/trace.py --check TRACE.json.gz tests/fixtures/<name>
        [--max-steps N] [--step-line FILE:LINE] [--open-frames def|current]

Dev-time tool (stdlib + torch 1.13, CPU).  tests/traces/README describes the
output; in short:

* Debian's torch 1.13 is built without libkineto, so export_chrome_trace()
  writes the legacy format (no "cat", no python_function events).  But the
  profiler's own event collection is the one Kineto builds on, and it runs
  without libkineto: profile(record_shapes=True, with_stack=True,
  with_modules=True) records the aten ops AND, through torch's C Python tracer
  (the one Kineto's with_stack uses), every Python call ("<file>(<def
  line>): <name>", "<built-in method ...>", "nn.Module: <Class>_<k>").
  kineto_results.experimental_event_tree() hands them all out, with
  nanosecond start/end times on one clock.  This tool serialises that tree
  the way libkineto's ChromeTraceLogger does (cpu_op, user_annotation,
  python_function events; process/thread "M" events; the "Trace" span).

* Steps: a sys.settrace hook watches only the frame that runs the step loop
  (--step-line FILE:LINE = the first line of the loop body; defaults per
  fixture in STEP_LINES) and brackets each iteration with a
  "ProfilerStep#<n>" range opened by torch.ops.profiler.
  _record_function_enter (what record_function and torch.profiler's step()
  use: a USER_SCOPE RecordFunction on the profiler's clock).  As with a
  prof.step() call at the end of the body, step n ends where the n-th run
  of the body ends and step n+1 begins there: steps follow each other
  without a gap, and the work between two runs of the body (the loop header
  fetching the next batch, or whatever runs before an inner loop is entered
  again) belongs to the step that follows; see StepMarker.  After
  --max-steps steps the hook uninstalls itself; the profiler runs to the
  end of the job (see run_fixture for why it is not stopped early).  Only
  events inside [start of step 0, end of the last step] are written;
  Python frames open across that window (the loop's own function,
  <module>) are clipped to it, as a profiler started at step 0 and stopped
  after the last step records them.

* --paths absolute (default) makes the tracer keep fixture paths absolute
  ("/tmp/ecg-trace-XXXX/gpt_dataclass/model.py(82): forward").  A genuine
  run of `python train.py` trims every sys.path prefix -- the script's own
  directory included -- so real traces say "model.py(82): forward";
  --paths trimmed keeps that behaviour.  torch's own files are always
  trimmed ("torch/nn/modules/module.py(1256): __getattr__").

* --open-frames current names the frames already running when step 0
  begins (the loop's function and its callers) by the line they are at, as
  a profiler started inside them does; by default (def) they keep their
  first line, like every other frame (the profiler really runs from the
  job's start, so the tracer saw them enter).

* Truth: OUT.truth.json (OUT without .json.gz) comes from the same run:
  {"steps": N, "models": {"<root class>": {"calls": {"<path>": n, ...},
  "classes": {"<path>": "<Class>", ...}}}, "outside_models": {"<Class>": n}},
  paths as root.named_modules() gives them ('' = the root, every module,
  0 for those that never ran), n = the module's "nn.Module: <Class>_<k>"
  events in the written trace.  The roots are fixture.json's "models"
  (instances of those classes seen entering __init__); a module under
  several roots belongs to the first one listed.  The tracer does not hand
  out the module object, so ModuleWatch (in the same settrace hook) notes
  the `self` of every Module.__call__ frame and convert() pairs the n-th
  with the tracer's n-th nn.Module event, checking class and parameters;
  the counts are made where the events are written, and the file is
  written only if, per class, the truth's calls (plus outside_models, the
  modules under no root) equal the written trace's nn.Module events.

* --python-events: all = everything the tracer saw (Python functions,
  built-ins, nn.Module), pycall = drop the "<built-in ...>" events,
  user = only functions defined in the fixture's files and nn.Module
  events.  Dropped events' children are re-parented ("Python parent id") to
  the nearest kept ancestor, exactly like Kineto's exporter does for
  events that are not Python events.
"""

import argparse
import ast
import gzip
import json
import os
import random
import re
import runpy
import shutil
import sys
import tempfile
import threading

# The step loop of each fixture: FILE:LINE of the first line of the loop body.
STEP_LINES = {
    "gpt_dataclass": "train.py:74",        # for iter_num in range(max_iters): body
    "resnet_make_layer": "train.py:37",    # for step, (images, target) in enumerate(loader): body
    "kv_cache_generate": "model.py:92",    # TinyLM.generate: for _ in range(max_new_tokens): body
    "decorated_forward": "generate.py:14", # for _ in range(3): body
}

BASE_TIME_NS = 1700000000000000000    # "baseTimeNanoseconds"; ts are relative to it
TS_OFFSET_US = 1000000.0              # ts of the trace start (1 s after the base)


# ------------------------------------------------------------------ helpers

def parse_step_line(spec):
    f, _, line = spec.rpartition(":")
    if not f or not line.isdigit():
        raise SystemExit("trace.py: --step-line wants FILE:LINE, got %r" % spec)
    return f, int(line)


def find_loop(path, line):
    """The for/while loop whose body starts at `line` in file `path`:
    (first header line, first body line, last body line, name of the code
    object that runs the loop)."""
    with open(path) as fh:
        tree = ast.parse(fh.read(), path)

    def visit(node, owner):
        for child in ast.iter_child_nodes(node):
            own = owner
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own = child.name
            if isinstance(child, (ast.For, ast.AsyncFor, ast.While)) and child.body \
                    and child.body[0].lineno == line:
                return (child.lineno, line, max(s.end_lineno for s in child.body), owner)
            r = visit(child, own)
            if r:
                return r
        return None

    r = visit(tree, "<module>")
    if r is None:
        raise SystemExit("trace.py: %s:%d is not the first line of a for/while body"
                         % (path, line))
    return r


def first_offsets(code):
    table = {}
    for start, _end, ln in code.co_lines():
        if ln is not None and ln not in table:
            table[ln] = start
    return table


class StepMarker:
    """sys.settrace hook that brackets the iterations of one loop with
    ProfilerStep#<n> RecordFunction ranges, the way a loop that calls
    torch.profiler's prof.step() as the last statement of its body gets
    them: step n ends where the n-th run of the body ends and step n+1
    begins right there, so the steps follow each other without a gap and
    whatever runs between two iterations (the loop header fetching the next
    batch; after an inner loop, the code around it until that loop runs
    again) belongs to the step that follows.  Step 0 begins when the loop is
    first reached.

    Only the frame that runs the loop is traced line by line.  The body ends
    when that frame goes from a line of the body to a line outside it (the
    loop header, the code after the loop) or returns, or when it jumps back
    to the body's first instruction (a `while True:` loop, whose back-edge
    has no header line).  A step still open when the job ends had no body
    end; it is dropped when converting (self.status)."""

    def __init__(self, path, line, max_steps):
        self.path = path
        self.line = line
        self.head_lo, self.body_lo, self.body_hi, self.owner = find_loop(path, line)
        self.max_steps = max_steps
        self.confirmed = 0        # steps closed at the end of a body run
        self.status = []          # per ProfilerStep range opened: confirmed?
        self.handle = None        # RecordFunction handle of the open step
        self.in_body = False
        self.done = False
        self.stack_at_start = []
        self.codes = {}           # code -> first offset of the step line, or None
        self.watch = None         # a ModuleWatch, shown every new frame
        torch = __import__("torch")
        self.enter = torch.ops.profiler._record_function_enter
        self.exit = torch.ops.profiler._record_function_exit

    def _target(self, code):
        r = self.codes.get(code, False)
        if r is False:
            r = None
            if code.co_filename == self.path and code.co_name == self.owner:
                r = first_offsets(code).get(self.line)
            self.codes[code] = r
        return r

    def global_trace(self, frame, event, arg):
        if self.done:
            return None
        if self.watch is not None:
            self.watch.see(frame)
        if event == "call" and self._target(frame.f_code) is not None:
            self.in_body = False
            return self.local_trace
        return None

    def _open(self, frame):
        if not self.status:
            # the Python stack when step 0 begins: (file, function, current
            # line), innermost first, for --open-frames current
            f = frame
            while f is not None:
                self.stack_at_start.append((f.f_code.co_filename, f.f_code.co_name, f.f_lineno))
                f = f.f_back
        self.handle = self.enter("ProfilerStep#%d" % self.confirmed, None)
        self.status.append(False)

    def _boundary(self, frame):
        """The body just ended: close the step, open the next one."""
        if self.handle is not None:
            self.exit(self.handle)
            self.handle = None
            self.status[-1] = True
            self.confirmed += 1
        if self.confirmed >= self.max_steps:
            self.done = True
            sys.settrace(None)
        else:
            self._open(frame)

    def finish(self):
        """The job ended: close a step whose body never ran (unconfirmed)."""
        if self.handle is not None:
            self.exit(self.handle)
            self.handle = None

    def local_trace(self, frame, event, arg):
        if self.done:
            return None
        if event == "line":
            ln = frame.f_lineno
            if self.body_lo <= ln <= self.body_hi:
                if not self.in_body:
                    self.in_body = True
                    if self.handle is None:
                        self._open(frame)
                elif ln == self.line and frame.f_lasti == self._target(frame.f_code):
                    self._boundary(frame)
            elif self.in_body:
                self.in_body = False
                self._boundary(frame)
            elif self.handle is None and self.head_lo <= ln < self.body_lo:
                self._open(frame)     # the loop is reached: step 0 begins
        elif event == "return" and self.in_body:
            self.in_body = False
            self._boundary(frame)
        return None if self.done else self.local_trace


class ModuleWatch:
    """Which module instance each nn.Module event is, for the truth file.

    torch 1.13's tracer makes an "nn.Module: <Class>_<k>" event for every
    run of a Module.__call__ frame (_call_impl), but does not hand out the
    module object (_NNModuleInfo has only cls_name and params).  The
    StepMarker's global settrace hook, which sees every new frame of the
    main thread from the job's start until the last step ends, shows each
    one to see(): a Module.__call__ frame's `self` is appended to `calls`,
    so calls[j] is the module of the j-th nn.Module event (convert() pairs
    them and checks every class name).  The objects are held until the end,
    so no address (the tracer's key for <k>) is reused meanwhile.  An
    __init__ frame whose first argument is an nn.Module of a root class
    (fixture.json's "models") registers that instance as a root candidate,
    so roots that are never called are known too.  The settrace hook runs
    with the profiler's tracer off: none of this appears in the trace."""

    def __init__(self, root_classes):
        torch = __import__("torch")
        self.module_type = torch.nn.Module
        self.call_code = torch.nn.Module.__call__.__code__
        self.root_classes = set(root_classes)
        self.calls = []           # module objects, in the order of their calls
        self.roots = {}           # class name -> {id: instance}, in construction order

    def see(self, frame):
        code = frame.f_code
        if code is self.call_code:
            self.calls.append(frame.f_locals[code.co_varnames[0]])
        elif code.co_name == "__init__" and code.co_argcount:
            obj = frame.f_locals.get(code.co_varnames[0])
            cls = type(obj).__name__
            if cls in self.root_classes and isinstance(obj, self.module_type):
                self.roots.setdefault(cls, {}).setdefault(id(obj), obj)


# ------------------------------------------------------------------ running

def run_fixture(fixture, workroot, step_spec, max_steps, paths_mode):
    """Copy the fixture into workroot/<name>, run it under the profiler, and
    return (profile, info)."""
    import torch
    import torch.profiler.python_tracer as python_tracer

    name = os.path.basename(os.path.realpath(fixture))
    root = os.path.join(workroot, name)
    shutil.copytree(fixture, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    with open(os.path.join(root, "fixture.json")) as fh:
        spec = json.load(fh)
    entry = spec["entry"]
    argv = list(spec.get("argv", []))
    step_file, step_line = parse_step_line(step_spec)

    if paths_mode == "absolute":
        # the tracer names files relative to the longest sys.path / site
        # prefix; leave the fixture's directory out so its paths stay absolute
        orig_prefixes = python_tracer._prefix_regex

        def prefixes():
            return [p for p in orig_prefixes() if not (root + os.sep).startswith(p)]
        python_tracer._prefix_regex = prefixes

    sys.dont_write_bytecode = True
    os.chdir(root)
    sys.path[0] = root
    sys.argv = [entry] + argv
    torch.manual_seed(0)
    random.seed(0)
    try:
        import numpy
        numpy.random.seed(0)
    except ImportError:
        pass
    torch.set_num_threads(1)

    prof = torch.autograd.profiler.profile(record_shapes=True, with_stack=True,
                                           with_modules=True)
    # The profiler runs until the job ends; events outside the steps are
    # dropped when converting.  It is not stopped from the settrace hook after
    # the last step: torch 1.13's Python tracer would then lose the return
    # events that came after the last Python call (it records them when the
    # next call arrives, and no call reaches it from inside a trace hook), and
    # frames that had returned would look open until the stop.
    marker = StepMarker(os.path.join(root, step_file), step_line, max_steps)
    models = spec.get("models", {})
    marker.watch = ModuleWatch(models.values())
    info = {"root": root, "name": name, "entry": entry, "argv": argv, "models": models,
            "pid": os.getpid(), "main_tid": threading.get_native_id()}
    prof.__enter__()
    sys.settrace(marker.global_trace)
    try:
        runpy.run_path(os.path.join(root, entry), run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    finally:
        sys.settrace(None)
        marker.finish()
        prof.__exit__(None, None, None)
    info["steps"] = marker.confirmed
    info["module_calls"] = marker.watch.calls
    info["module_roots"] = marker.watch.roots
    info["step_status"] = marker.status
    info["stack_at_start"] = marker.stack_at_start
    if marker.confirmed < max_steps:
        sys.stderr.write("trace.py: only %d of %d steps ran\n" % (marker.confirmed, max_steps))
    return prof, info


# ------------------------------------------------------------------ converting

def comm(path):
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return "python3"


def convert(prof, info, python_events, trace_name, open_frames="def"):
    from torch._C._profiler import _EventType, RecordScope

    res = prof.kineto_results
    kev = {e.correlation_id(): e for e in res.events()}
    roots = res.experimental_event_tree()

    nodes = []          # (node, depth, parent index) in tree pre-order

    def walk(n, depth, parent):
        idx = len(nodes)
        nodes.append((n, depth, parent))
        for c in n.children:
            walk(c, depth + 1, idx)
    for r in roots:
        walk(r, 0, None)

    steps = sorted((n for n, _, _ in nodes if n.tag == _EventType.TorchOp
                    and re.fullmatch(r"ProfilerStep#\d+", n.name)),
                   key=lambda n: n.start_time_ns)
    if len(steps) != len(info["step_status"]):
        raise SystemExit("trace.py: %d ProfilerStep ranges recorded, %d opened"
                         % (len(steps), len(info["step_status"])))
    dropped = {n.id for n, ok in zip(steps, info["step_status"]) if not ok}
    steps = [n for n, ok in zip(steps, info["step_status"]) if ok]
    if not steps:
        raise SystemExit("trace.py: no ProfilerStep ranges were recorded")
    w0 = min(n.start_time_ns for n in steps)
    w1 = max(n.end_time_ns for n in steps)

    root = info["root"] + os.sep
    entry_mod = None
    for n, _, _ in nodes:
        if n.tag == _EventType.PyCall and n.name.endswith("): <module>") \
                and n.extra_fields.callsite.file_name in (os.path.join(info["root"], info["entry"]),
                                                          info["entry"]):
            entry_mod = n
            break

    def is_user_py(n):
        """Defined in the fixture's files (absolute, or trimmed to the
        fixture-relative path with --paths trimmed)."""
        fn = n.extra_fields.callsite.file_name
        if fn.startswith(root):
            return True
        return not os.path.isabs(fn) and not fn.startswith("torch/") \
            and os.path.isfile(os.path.join(info["root"], fn))

    # which nodes to keep
    keep = [False] * len(nodes)
    ancestors_of_entry = set()
    if entry_mod is not None:
        p = entry_mod.parent
        while p is not None:
            ancestors_of_entry.add(p.id)
            p = p.parent
    for i, (n, _, _) in enumerate(nodes):
        if n.end_time_ns <= w0 or n.start_time_ns >= w1:
            continue
        if n.tag == _EventType.TorchOp:
            keep[i] = n.start_time_ns >= w0 and n.end_time_ns <= w1 and n.id not in dropped
        elif n.tag in (_EventType.PyCall, _EventType.PyCCall):
            if n.id in ancestors_of_entry:
                continue           # runpy and this tool's own frames
            if n.tag == _EventType.PyCCall:
                keep[i] = python_events == "all"
            elif n.extra_fields.module is not None:
                keep[i] = True
            else:
                keep[i] = python_events in ("all", "pycall") or is_user_py(n)

    module_of = pair_module_events(nodes, keep, steps, info, w1)

    tid_map = {}

    def tid_of(t):
        if t not in tid_map:
            tid_map[t] = info["main_tid"] + (len(tid_map) if tid_map else 0)
        return tid_map[t]

    def us(t_ns):
        return round(TS_OFFSET_US + (t_ns - w0) / 1000.0, 3)

    pid = info["pid"]
    out = []
    py_id = {}               # node index -> Python id
    module_ids = {}
    kept_py = [i for i, (n, _, _) in enumerate(nodes) if keep[i]
               and n.tag in (_EventType.PyCall, _EventType.PyCCall)]
    kept_py.sort(key=lambda i: (max(nodes[i][0].start_time_ns, w0), nodes[i][1]))
    for k, i in enumerate(kept_py):
        py_id[i] = k + 1
    counts = {}
    module_calls = {}        # id(module) -> nn.Module events written
    clipped = []             # python events running when step 0 began
    for i, (n, depth, parent) in enumerate(nodes):
        if not keep[i]:
            continue
        s = max(n.start_time_ns, w0)
        e = min(n.end_time_ns, w1)
        ev = {"ph": "X", "cat": None, "name": n.name, "pid": pid, "tid": tid_of(n.start_tid),
              "ts": us(s), "dur": round((e - s) / 1000.0, 3), "args": {}}
        if n.tag == _EventType.TorchOp:
            ke = kev.get(n.correlation_id)
            scope = n.extra_fields.scope
            ev["cat"] = "user_annotation" if scope == RecordScope.USER_SCOPE else "cpu_op"
            a = ev["args"]
            a["External id"] = n.correlation_id
            a["Record function id"] = 0
            if ke is not None:
                shapes, dtypes = ke.shapes(), ke.dtypes()
                if shapes and ev["cat"] == "cpu_op":
                    a["Input Dims"] = [list(x) for x in shapes]
                    a["Input type"] = list(dtypes)
                if ke.sequence_nr() >= 0:
                    a["Fwd thread id"] = ke.fwd_thread_id()
                    a["Sequence number"] = ke.sequence_nr()
        else:
            ev["cat"] = "python_function"
            a = ev["args"]
            a["Python id"] = py_id[i]
            p = parent
            while p is not None and p not in py_id:
                p = nodes[p][2]
            a["Python parent id"] = py_id.get(p) if p is not None else None
            a["Python thread"] = 0
            if n.tag == _EventType.PyCall and n.extra_fields.module is not None:
                module_ids.setdefault(n.name, len(module_ids))
                a["Python module id"] = module_ids[n.name]
                m = module_of[i]
                module_calls[id(m)] = module_calls.get(id(m), 0) + 1
        counts[ev["cat"]] = counts.get(ev["cat"], 0) + 1
        out.append((s, -(e - s), depth, ev))
        if n.start_time_ns < w0 and ev["cat"] == "python_function":
            clipped.append((depth, n, ev))
    out.sort(key=lambda x: x[:3])
    events = [x[3] for x in out]
    if open_frames == "current":
        # A profiler started while these frames run names them by the line
        # they are at, not by where they start (the tracer reads the
        # frame's current line when it first sees it).
        chain = list(info["stack_at_start"])
        for _depth, n, ev in sorted(clipped, key=lambda x: -x[0]):
            if n.tag != _EventType.PyCall or n.extra_fields.module is not None:
                continue
            m = re.match(r"^(.*)\((\d+)\): (.+)$", ev["name"])
            if not m:
                continue
            while chain and chain[0][1] != m.group(3):
                chain.pop(0)
            if chain:
                ev["name"] = "%s(%d): %s" % (m.group(1), chain[0][2], m.group(3))
                chain.pop(0)

    t0 = us(w0)
    proc = comm("/proc/self/comm")
    meta = [
        {"name": "process_name", "ph": "M", "ts": t0, "pid": pid, "tid": 0, "args": {"name": proc}},
        {"name": "process_labels", "ph": "M", "ts": t0, "pid": pid, "tid": 0, "args": {"labels": "CPU"}},
        {"name": "process_sort_index", "ph": "M", "ts": t0, "pid": pid, "tid": 0,
         "args": {"sort_index": pid}},
    ]
    for _t, tid in sorted(tid_map.items(), key=lambda kv: kv[1]):
        tname = comm("/proc/self/task/%d/comm" % tid) if tid == info["main_tid"] else "pt_autograd"
        meta.append({"name": "thread_name", "ph": "M", "ts": t0, "pid": pid, "tid": tid,
                     "args": {"name": "thread %d (%s)" % (tid, tname)}})
        meta.append({"name": "thread_sort_index", "ph": "M", "ts": t0, "pid": pid, "tid": tid,
                     "args": {"sort_index": tid}})
    tail = [
        {"ph": "X", "cat": "Trace", "ts": t0, "dur": round((w1 - w0) / 1000.0, 3),
         "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)",
         "args": {"Op count": 0}},
        {"name": "process_sort_index", "ph": "M", "ts": t0, "pid": "Spans", "tid": 0,
         "args": {"sort_index": 536870912}},
        {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces",
         "tid": "Trace PyTorch Profiler", "ts": t0},
    ]
    trace = {"schemaVersion": 1, "deviceProperties": [],
             "traceEvents": events + meta + tail,
             "traceName": trace_name, "displayTimeUnit": "ms",
             "baseTimeNanoseconds": BASE_TIME_NS}
    return trace, counts, module_calls


def pair_module_events(nodes, keep, steps, info, w1):
    """{node index: module object} for the nn.Module events of the tree.

    The j-th nn.Module event of the main thread (in start order) is the j-th
    Module.__call__ frame the ModuleWatch saw: both come from the same
    frames, from the job's start until the last step ended.  Every pair must
    agree on the class, every kept nn.Module event must be paired, and each
    kept "nn.Module: <Class>_<k>" name must be one instance (the tracer
    numbers instances by address)."""
    from torch._C._profiler import _EventType

    calls = info["module_calls"]
    main = steps[0].start_tid
    mods = sorted((i for i, (n, _, _) in enumerate(nodes)
                   if n.tag == _EventType.PyCall and n.extra_fields.module is not None),
                  key=lambda i: (nodes[i][0].start_time_ns, nodes[i][1]))
    for i in mods:
        if nodes[i][0].start_tid != main and keep[i]:
            raise SystemExit("trace.py: truth: %r runs on another thread (tid %r); "
                             "only the main thread's module calls are watched"
                             % (nodes[i][0].name, nodes[i][0].start_tid))
    mods = [i for i in mods if nodes[i][0].start_tid == main]
    if len(mods) < len(calls):
        raise SystemExit("trace.py: truth: %d Module.__call__ frames seen, only %d nn.Module "
                         "events recorded" % (len(calls), len(mods)))
    out = {}
    for j, (i, m) in enumerate(zip(mods, calls)):
        cls = nodes[i][0].extra_fields.module.cls_name
        if cls != type(m).__name__:
            raise SystemExit("trace.py: truth: nn.Module event #%d is %r but Module.__call__ "
                             "frame #%d is a %s" % (j, nodes[i][0].name, j, type(m).__name__))
        # the tracer records the module's own parameters (name, data_ptr)
        # at the call: they must be this instance's
        want = [(k, v.data_ptr()) for k, v in m._parameters.items() if v is not None]
        got = [tuple(x) for x in nodes[i][0].extra_fields.module.params]
        if sorted(got) != sorted(want):
            raise SystemExit("trace.py: truth: nn.Module event #%d %r has the parameters %r, "
                             "Module.__call__ frame #%d's %s has %r"
                             % (j, nodes[i][0].name, got, j, type(m).__name__, want))
        out[i] = m
    for i in mods[len(calls):]:
        if keep[i] or nodes[i][0].start_time_ns < w1:
            raise SystemExit("trace.py: truth: %r (in the steps) has no Module.__call__ frame"
                             % nodes[i][0].name)
    by_name, by_obj = {}, {}
    for i, m in out.items():
        if keep[i]:
            by_name.setdefault(nodes[i][0].name, set()).add(id(m))
            by_obj.setdefault(id(m), set()).add(nodes[i][0].name)
    for nm, ids in by_name.items():
        if len(ids) != 1:
            raise SystemExit("trace.py: truth: %r is %d module instances" % (nm, len(ids)))
    for ids, names in by_obj.items():
        if len(names) != 1:
            raise SystemExit("trace.py: truth: one module instance has the events %s"
                             % sorted(names))
    return out


def module_truth(info, n_steps, module_calls):
    """The truth file's content: {"steps", "models": {root class: {"calls":
    {path: calls}, "classes": {path: class}}}, "outside_models": {class:
    calls}}; paths as root.named_modules() gives them ('' = the root)."""
    roots = info["module_roots"]
    called = {id(m) for m in info["module_calls"]}
    owner = {}                # id(module) -> (root class, path)
    models = {}
    for var, cls in info["models"].items():
        if cls in models:
            raise SystemExit("trace.py: truth: two roots of class %s (fixture.json models); "
                             "the truth is keyed by class" % cls)
        cands = list(roots.get(cls, {}).values())
        if len(cands) > 1:
            cands = [m for m in cands if id(m) in called] or cands
        if len(cands) != 1:
            raise SystemExit("trace.py: truth: %d instances of root class %s (%s) were built%s"
                             % (len(cands), cls, var,
                                "" if not cands else " and called; cannot tell which is %s" % var))
        calls, classes = {}, {}
        for path, m in cands[0].named_modules():
            if id(m) in owner:
                continue          # under an earlier root: it belongs there
            owner[id(m)] = (cls, path)
            calls[path] = module_calls.get(id(m), 0)
            classes[path] = type(m).__name__
        models[cls] = {"calls": calls, "classes": classes}
    outside = {}
    objs = {id(m): m for m in info["module_calls"]}
    for k, n in module_calls.items():
        if k not in owner:
            c = type(objs[k]).__name__
            outside[c] = outside.get(c, 0) + n
    return {"steps": n_steps, "models": models, "outside_models": outside}


def truth_path(trace_path):
    base = trace_path
    for ext in (".gz", ".json"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    return base + ".truth.json"


def write_truth(truth, out):
    data = json.dumps(truth, sort_keys=True, indent=1) + "\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(data)
    os.replace(tmp, out)
    return len(data)


def check_truth(truth, evs):
    """Errors of a truth file against the trace's events: its steps are
    the trace's, and per class, the calls of its modules (plus
    outside_models) are the trace's nn.Module events of that class."""
    errors = []
    n_steps = sum(1 for e in evs if e.get("cat") == "user_annotation"
                  and re.fullmatch(r"ProfilerStep#\d+", e["name"]))
    if truth.get("steps") != n_steps:
        errors.append("truth: steps %r, the trace has %d" % (truth.get("steps"), n_steps))
    in_trace = {}
    for e in evs:
        m = re.fullmatch(r"nn\.Module: (.+)_\d+", e["name"]) \
            if e.get("cat") == "python_function" else None
        if m:
            in_trace[m.group(1)] = in_trace.get(m.group(1), 0) + 1
    in_truth = dict(truth.get("outside_models", {}))
    for root, mdl in sorted(truth.get("models", {}).items()):
        if set(mdl["calls"]) != set(mdl.get("classes", mdl["calls"])):
            errors.append("truth: %s: calls and classes name different paths" % root)
        if "" not in mdl["calls"]:
            errors.append("truth: %s: no root path ''" % root)
        for path, n in mdl["calls"].items():
            if not isinstance(n, int) or n < 0:
                errors.append("truth: %s: %r has calls %r" % (root, path, n))
            elif "classes" in mdl:
                c = mdl["classes"][path]
                in_truth[c] = in_truth.get(c, 0) + n
    if any("classes" in mdl for mdl in truth.get("models", {}).values()):
        for c in sorted(set(in_trace) | set(in_truth)):
            if in_trace.get(c, 0) != in_truth.get(c, 0):
                errors.append("truth: %d calls of %s, the trace has %d nn.Module: %s_<k> events"
                              % (in_truth.get(c, 0), c, in_trace.get(c, 0), c))
    return errors, in_trace


def write_trace(trace, out):
    lines = ['{\n  "schemaVersion": 1,\n  "deviceProperties": [\n  ],\n  "traceEvents": [\n']
    evs = trace["traceEvents"]
    for i, e in enumerate(evs):
        lines.append("  " + json.dumps(e, ensure_ascii=False) + (",\n" if i + 1 < len(evs) else "\n"))
    lines.append('  ],\n  "traceName": %s,\n  "displayTimeUnit": "ms",\n'
                 '  "baseTimeNanoseconds": %d\n}\n'
                 % (json.dumps(trace["traceName"]), trace["baseTimeNanoseconds"]))
    data = "".join(lines).encode()
    json.loads(data)       # must round-trip
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(data)
    os.replace(tmp, out)
    return len(data)


# ------------------------------------------------------------------ checking

def def_lines(path):
    """{(first line, code name)} of every code object the file defines, as
    CPython numbers them (co_firstlineno: the first decorator's line for a
    decorated def/class)."""
    with open(path) as fh:
        tree = ast.parse(fh.read(), path)
    out = {(1, "<module>")}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out.add((first, node.name))
        elif isinstance(node, ast.Lambda):
            out.add((node.lineno, "<lambda>"))
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            nm = {ast.ListComp: "<listcomp>", ast.SetComp: "<setcomp>",
                  ast.DictComp: "<dictcomp>", ast.GeneratorExp: "<genexpr>"}[type(node)]
            out.add((node.lineno, nm))
    return out


def code_spans(path):
    """[(name, first line, last line)] of every def and generator expression,
    and the names of the defs that are generators."""
    with open(path) as fh:
        tree = ast.parse(fh.read(), path)
    spans, gens = [], set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spans.append((node.name, node.lineno, node.end_lineno))
            if any(isinstance(x, (ast.Yield, ast.YieldFrom)) for x in ast.walk(node)):
                gens.add(node.name)
        elif isinstance(node, ast.GeneratorExp):
            spans.append(("<genexpr>", node.lineno, node.end_lineno))
    return spans, gens


def check(trace_path, fixture, max_steps, step_spec, open_frames="def"):
    with gzip.open(trace_path, "rt") as fh:
        d = json.load(fh)
    errors = []
    for k in ("schemaVersion", "deviceProperties", "traceEvents", "traceName",
              "displayTimeUnit", "baseTimeNanoseconds"):
        if k not in d:
            errors.append("missing top-level key %s" % k)
    evs = d["traceEvents"]
    cats = {}
    for e in evs:
        k = e.get("cat") or ("M" if e["ph"] == "M" else e["ph"])
        cats[k] = cats.get(k, 0) + 1

    # 1. python_function events of fixture files carry the def line
    fixture = os.path.realpath(fixture)
    st0 = [e["ts"] for e in evs if e.get("cat") == "user_annotation"
           and e["name"] == "ProfilerStep#0"]
    steps0 = st0[0] if st0 else None
    files, spans, gens = {}, {}, {}
    for dp, _dn, fns in os.walk(fixture):
        for f in fns:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dp, f), fixture)
                files[rel] = def_lines(os.path.join(dp, f))
                spans[rel], gens[rel] = code_spans(os.path.join(dp, f))
    name_re = re.compile(r"^(.*)\((\d+)\): (.+)$")
    user_py = 0
    for e in evs:
        if e.get("cat") != "python_function":
            continue
        m = name_re.match(e["name"])
        if not m:
            if not (e["name"].startswith("nn.Module: ") or e["name"].startswith("<built-in")):
                errors.append("odd python_function name %r" % e["name"])
            continue
        path, line, fn = m.group(1), int(m.group(2)), m.group(3)
        rel = None
        for r in files:
            if path == r or path.endswith("/" + r) and ("/" + os.path.basename(fixture) + "/") in path:
                rel = r
                break
        if rel is None:
            continue
        user_py += 1
        if fn == "<module>" and line == 0:
            continue    # 3.11: a module's first instruction (RESUME) is on line 0
        if steps0 is not None and e["ts"] == steps0 and open_frames == "current" and \
                (fn == "<module>" or any(fn == n and a <= line <= b for n, a, b in spans[rel])):
            continue    # running when step 0 began: named by its current line
        if fn == "<genexpr>" or fn in gens.get(rel, ()):
            # a generator is re-entered at each next(): the tracer names it
            # by the line it resumes at
            if any(fn == n and a <= line <= b for n, a, b in spans[rel]):
                continue
        if (line, fn) not in files[rel]:
            errors.append("%s: %s:%d is not where %s is defined" % (e["name"], rel, line, fn))

    # 2. nesting, per thread.  python_function and cpu_op events must nest
    #    properly, each python event's "Python parent id" must be the python
    #    event that encloses it, and every cpu_op must lie inside a python
    #    event.  user_annotation ranges opened from Python (record_function,
    #    Optimizer.step#..., enumerate(DataLoader)#...) start inside one
    #    python call (_record_function_enter) and end inside another, so they
    #    cross python_function boundaries, as in genuine traces: they are
    #    checked against the cpu_ops only.
    def nest(lst, what):
        lst.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in lst:
            s, t = e["ts"], round(e["ts"] + e["dur"], 3)
            while stack and round(stack[-1]["ts"] + stack[-1]["dur"], 3) <= s \
                    and not (e["dur"] == 0 and stack[-1]["ts"] == s):
                stack.pop()
            if stack and t > round(stack[-1]["ts"] + stack[-1]["dur"], 3):
                errors.append("%s: %r [%s, %s] overlaps %r [%s, %s]"
                              % (what, e["name"], s, t, stack[-1]["name"], stack[-1]["ts"],
                                 round(stack[-1]["ts"] + stack[-1]["dur"], 3)))
            yield e, stack
            stack.append(e)

    by_tid = {}
    for e in evs:
        if e["ph"] == "X" and e.get("cat") in ("cpu_op", "python_function", "user_annotation"):
            by_tid.setdefault(e["tid"], []).append(e)
    outside = 0
    for tid, lst in sorted(by_tid.items()):
        for e, stack in nest([x for x in lst if x["cat"] != "user_annotation"], "python/op"):
            encl = [x for x in stack if x["cat"] == "python_function"]
            if e["cat"] == "cpu_op" and not encl:
                outside += 1
            if e["cat"] == "python_function":
                want = encl[-1]["args"]["Python id"] if encl else None
                if e["args"]["Python parent id"] != want:
                    errors.append("%r: Python parent id %r but enclosed by %r"
                                  % (e["name"], e["args"]["Python parent id"], want))
        for e, stack in nest([x for x in lst if x["cat"] != "python_function"], "annotation/op"):
            pass
    if outside:
        errors.append("%d cpu_ops are not inside any python_function" % outside)

    # 3. steps
    steps = sorted((e for e in evs if e.get("cat") == "user_annotation"
                    and re.fullmatch(r"ProfilerStep#\d+", e["name"])), key=lambda e: e["ts"])
    if [e["name"] for e in steps] != ["ProfilerStep#%d" % i for i in range(max_steps)]:
        errors.append("steps are %r, want %d" % ([e["name"] for e in steps], max_steps))
    if steps:
        hi = round(steps[-1]["ts"] + steps[-1]["dur"], 3)
        spans = [(st["ts"], round(st["ts"] + st["dur"], 3)) for st in steps]
        for (a0, b0), (a1, b1) in zip(spans, spans[1:]):
            if not 0 <= a1 - b0 < 100:
                errors.append("steps are not back to back: %s ends at %s, the next starts at %s"
                              % (steps[spans.index((a0, b0))]["name"], b0, a1))
        for e in evs:
            if e["ph"] == "X" and e.get("cat") in ("cpu_op", "user_annotation") and \
                    not re.fullmatch(r"ProfilerStep#\d+", e["name"]) and \
                    not any(a <= e["ts"] and round(e["ts"] + e["dur"], 3) <= b for a, b in spans):
                errors.append("%r [%s +%s] is not inside a step" % (e["name"], e["ts"], e["dur"]))

        # Steps begin and end in the loop's own frame, between two of its
        # lines or at its return (the settrace hook), so at every step
        # boundary the innermost python event in progress is that frame; a
        # python event clipped at the trace's end (still open when the last
        # step ended) must have started before that step (the loop's frame
        # and its callers), never inside it.
        loop_file, loop_line = parse_step_line(step_spec)
        owner = find_loop(os.path.join(fixture, loop_file), loop_line)[3]
        pys = sorted((e for e in evs if e.get("cat") == "python_function"),
                     key=lambda e: (e["ts"], -e["dur"]))
        for b in [x[1] for x in spans[:-1]]:
            inner = None
            for e in pys:
                if e["ts"] > b:
                    break
                if e["ts"] < b < round(e["ts"] + e["dur"], 3):
                    inner = e
            want = re.compile(r"(^|/)%s\(\d+\): %s$" % (re.escape(loop_file), re.escape(owner)))
            if inner is None or not want.search(inner["name"]):
                errors.append("at the step boundary %s the innermost python event is %r, "
                              "not the loop's frame (%s: %s)"
                              % (b, inner and inner["name"], loop_file, owner))
        for e in pys:
            s, t = e["ts"], round(e["ts"] + e["dur"], 3)
            if t == hi and s > steps[-1]["ts"]:
                errors.append("%r [%s, %s] is still open at the end of the last step"
                              % (e["name"], s, t))

    # 4. backward ops link to a forward op by sequence number
    ops = [e for e in evs if e.get("cat") == "cpu_op"]
    ops.sort(key=lambda e: (e["ts"], -e["dur"]))
    bwd_ranges = [(e["ts"], e["ts"] + e["dur"]) for e in ops
                  if e["name"].startswith("autograd::engine::evaluate_function: ")]

    def in_bwd(e):
        return any(a <= e["ts"] and e["ts"] + e["dur"] <= b + 1e-6 for a, b in bwd_ranges)
    fwd_seq = {}
    for e in ops:
        if "Sequence number" in e["args"] and not in_bwd(e):
            fwd_seq.setdefault(e["args"]["Sequence number"], e)
    linked = unlinked = 0
    for e in ops:
        if e["name"].startswith("autograd::engine::evaluate_function: ") \
                and "Sequence number" in e["args"]:
            f = fwd_seq.get(e["args"]["Sequence number"])
            if f is None or f["ts"] > e["ts"]:
                unlinked += 1
                errors.append("%r seq %d has no earlier forward op"
                              % (e["name"], e["args"]["Sequence number"]))
            else:
                linked += 1

    # 5. the truth file next to the trace, if there is one
    tpath = truth_path(trace_path)
    truth_report = None
    if os.path.exists(tpath):
        with open(tpath) as fh:
            truth = json.load(fh)
        terrs, _ = check_truth(truth, evs)
        errors.extend(terrs)
        if truth.get("steps") != max_steps:
            errors.append("truth: steps %r, want %d" % (truth.get("steps"), max_steps))
        truth_report = {r: {"modules": len(m["calls"]), "calls": sum(m["calls"].values()),
                            "never_called": sum(1 for v in m["calls"].values() if v == 0)}
                        for r, m in truth.get("models", {}).items()}
        truth_report["outside_models"] = truth.get("outside_models")

    report = {"events": len(evs), "by_category": cats, "fixture_python_events": user_py,
              "truth": truth_report,
              "steps": [e["name"] for e in steps], "backward_linked": linked,
              "backward_unlinked": unlinked,
              "nn_module_events": sum(1 for e in evs if e["name"].startswith("nn.Module: "))}
    return report, errors


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fixture_or_trace")
    ap.add_argument("out_or_fixture")
    ap.add_argument("--max-steps", type=int, default=2)
    ap.add_argument("--step-line", default=None,
                    help="FILE:LINE (relative to the fixture) of the first line of the step loop's body")
    ap.add_argument("--python-events", choices=("all", "pycall", "user"), default="all")
    ap.add_argument("--paths", choices=("absolute", "trimmed"), default="absolute")
    ap.add_argument("--open-frames", choices=("def", "current"), default="def",
                    help="how to name the frames already running when step 0 begins (the loop's "
                         "function and its callers): by their first line (default), or by the "
                         "line they are at, as a profiler started at step 0 names them")
    ap.add_argument("--keep-workdir", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="check TRACE.json.gz against FIXTURE_DIR instead of recording")
    a = ap.parse_args()

    if a.check:
        fx = os.path.realpath(a.out_or_fixture)
        step = a.step_line or STEP_LINES.get(os.path.basename(fx))
        if step is None:
            sys.stderr.write("trace.py: no default step line for %s; pass --step-line\n" % fx)
            return 2
        report, errors = check(a.fixture_or_trace, fx, a.max_steps, step, a.open_frames)
        print(json.dumps(report, sort_keys=True))
        for e in errors[:50]:
            print("ERROR:", e)
        if len(errors) > 50:
            print("... %d errors in all" % len(errors))
        return 1 if errors else 0

    fixture = os.path.realpath(a.fixture_or_trace)
    out = os.path.abspath(a.out_or_fixture)
    name = os.path.basename(fixture)
    step = a.step_line or STEP_LINES.get(name)
    if step is None:
        sys.stderr.write("trace.py: no default step line for %s; pass --step-line FILE:LINE\n" % name)
        return 2
    workroot = tempfile.mkdtemp(prefix="ecg-trace-")
    try:
        prof, info = run_fixture(fixture, workroot, step, a.max_steps, a.paths)
        trace_name = os.path.basename(out)
        if trace_name.endswith(".gz"):
            trace_name = trace_name[:-3]
        trace, counts, module_calls = convert(prof, info, a.python_events, trace_name,
                                              a.open_frames)
        n_steps = sum(1 for e in trace["traceEvents"] if e.get("cat") == "user_annotation"
                      and re.fullmatch(r"ProfilerStep#\d+", e["name"]))
        truth = module_truth(info, n_steps, module_calls)
    finally:
        os.chdir("/")
        if not a.keep_workdir:
            shutil.rmtree(workroot, ignore_errors=True)
    n = write_trace(trace, out)
    tout = truth_path(out)
    # the truth must agree with the nn.Module events of the file just written
    with gzip.open(out, "rt") as fh:
        errors, per_class = check_truth(truth, json.load(fh)["traceEvents"])
    if errors:
        for e in errors:
            sys.stderr.write("trace.py: %s\n" % e)
        if os.path.exists(tout):
            os.remove(tout)       # never leave an older truth next to the new trace
        sys.stderr.write("trace.py: the truth disagrees with %s; %s not written\n" % (out, tout))
        return 1
    write_truth(truth, tout)
    sys.stderr.write("trace.py: %s: %s nn.Module events %s, outside the models %s\n"
                     % (os.path.basename(tout),
                        ", ".join("%s %d modules %d calls" % (r, len(m["calls"]),
                                                              sum(m["calls"].values()))
                                  for r, m in sorted(truth["models"].items())),
                        json.dumps(per_class, sort_keys=True),
                        json.dumps(truth["outside_models"], sort_keys=True)))
    sys.stderr.write("trace.py: %s: %d steps, %d events %s, %d bytes json, %d bytes gz\n"
                     % (name, info["steps"], len(trace["traceEvents"]),
                        json.dumps(counts, sort_keys=True), n, os.path.getsize(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
