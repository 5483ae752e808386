#!/usr/bin/python3
"""Write a GPU-shaped profiler trace of tests/schedule_fixtures/amp_accum_resnet,
by hand, and the attribution it must get.

    /usr/bin/python3 tests/traces/gpu/build.py tests/traces/gpu

writes amp_resnet.json.gz (the trace, Kineto's chrome-trace format) and
amp_resnet.expected.json (per entry: calls and device time forward/backward;
the device time no entry owns; the idle gaps by cause).  Nothing here reads
the records or runs ecg: what ran where is written below, step by step, as
the fixture's code does it (train.py main(), model.py ResNet/PreActBlock), and
the expected attribution is this script's own bookkeeping of it.

The trace looks like one that torch.profiler writes on a GPU with
with_stack=True and with_modules=True: a host process (pid 4242) with the
main thread (tid 4242) and the autograd thread (tid 4250), a GPU (pid 0)
whose stream 7 runs the kernels and memcpys; cpu_op, python_function
("path(DEF LINE): name", absolute paths of another machine), "nn.Module:
Cls_N", user_annotation (ProfilerStep#N, DataLoader, Optimizer.step),
cuda_runtime (cudaLaunchKernel, cudaMemcpyAsync, cudaStreamSynchronize,
cudaDeviceSynchronize) with "correlation", kernel/gpu_memcpy with the same
correlation and "External id", ac2g flows, "Sequence number" on forward ops
and on the backward ops (autograd::engine::evaluate_function: XBackward0)
that link to them.  Times come from a small simulator: a kernel starts 5 us
after its launch or when the stream is free; a sync call returns when the
stream is drained.

The two profiled steps are loop iterations i=199 (the accumulation boundary
and step 50: unscale, clip, scaler.step's found_inf.item(), SGD, update,
zero_grad, then the log: torch.cuda.synchronize(), loss.item(),
grad_norm.item()) and i=200 (a micro-step).

To extend: add a step function, or ops to forward() below; every launch()
names the entry id it belongs to (None: outside the model), and
the expectations follow.
"""
import gzip
import json
import os
import sys

ROOT = "/home/alice/src/amp_accum_resnet"
TRAIN, MODEL = ROOT + "/train.py", ROOT + "/model.py"
PID, MAIN, AUTOGRAD, STREAM = 4242, 4242, 4250, 7
T0 = 1700000000000000


class Sim:
    def __init__(self):
        self.ev = []
        self.t = {MAIN: T0, AUTOGRAD: T0}
        self.gpu = T0
        self.ext = 0
        self.corr = 1000
        self.seq = 500
        self.pyid = 0
        self.tid = MAIN
        self.mods = {}
        self.dev = {}          # (entry or None, 'fwd'|'bwd') -> device us
        self.calls = {}        # entry -> calls
        self.seq_entry = {}    # forward op sequence number -> entry
        self.stack = []

    # host spans ---------------------------------------------------------
    def begin(self, cat, name, args=None):
        self.t[self.tid] += 1
        e = {"ph": "X", "cat": cat, "name": name, "pid": PID, "tid": self.tid,
             "ts": self.t[self.tid], "dur": 0, "args": dict(args or {})}
        self.ev.append(e)
        self.stack.append(e)
        return e

    def end(self):
        e = self.stack.pop()
        self.t[self.tid] += 1
        e["dur"] = self.t[self.tid] - e["ts"]

    def work(self, us):
        self.t[self.tid] += us

    def frame(self, path, line, func):
        self.pyid += 1
        parent = next((s["args"]["Python id"] for s in reversed(self.stack)
                       if s["cat"] == "python_function"), 0)
        return self.begin("python_function", "%s(%d): %s" % (path, line, func),
                          {"Python id": self.pyid, "Python parent id": parent, "Python thread": 0})

    def module(self, cls, entry):
        n = self.mods.setdefault(cls, [])
        if entry not in n:
            n.append(entry)
        self.calls[entry] = self.calls.get(entry, 0) + 1
        self.pyid += 1
        return self.begin("python_function", "nn.Module: %s_%d" % (cls, n.index(entry)),
                          {"Python id": self.pyid, "Python parent id": 0, "Python thread": 0})

    def op(self, name, seq=None, fwd_thread=None):
        self.ext += 1
        args = {"External id": self.ext, "Record function id": 0}
        if seq is not None:
            args["Sequence number"] = seq
            args["Fwd thread id"] = fwd_thread if fwd_thread is not None else 0
        return self.begin("cpu_op", name, args)

    def ann(self, name):
        self.ext += 1
        return self.begin("user_annotation", name, {"External id": self.ext})

    # the device -----------------------------------------------------------
    def launch(self, kernel, dur, entry, phase="fwd", rt="cudaLaunchKernel", cat="kernel", extra=None):
        self.corr += 1
        ext = next((s["args"]["External id"] for s in reversed(self.stack) if s["cat"] == "cpu_op"), 0)
        r = self.begin("cuda_runtime", rt, {"External id": ext, "cbid": 211, "correlation": self.corr})
        self.work(3)
        self.end()
        start = max(r["ts"] + 5, self.gpu)
        self.gpu = start + dur
        args = {"External id": ext, "device": 0, "context": 1, "stream": STREAM, "correlation": self.corr}
        args.update(extra or {})
        self.ev.append({"ph": "X", "cat": cat, "name": kernel, "pid": 0, "tid": STREAM, "ts": start,
                        "dur": dur, "args": args})
        self.ev.append({"ph": "s", "id": self.corr, "pid": PID, "tid": self.tid, "ts": r["ts"],
                        "cat": "ac2g", "name": "ac2g"})
        self.ev.append({"ph": "f", "id": self.corr, "pid": 0, "tid": STREAM, "ts": start,
                        "cat": "ac2g", "name": "ac2g", "bp": "e"})
        key = (entry, phase)
        self.dev[key] = self.dev.get(key, 0) + dur

    def wait_stream(self, rt):
        self.corr += 1
        self.begin("cuda_runtime", rt, {"External id": 0, "cbid": 131, "correlation": self.corr})
        self.t[self.tid] = max(self.t[self.tid] + 3, self.gpu + 2)
        self.end()

    # ops as the model's code runs them ----------------------------------
    def fwd_op(self, name, kernel, dur, entry, nested=None):
        self.seq += 1
        self.seq_entry[self.seq] = entry
        self.op(name, self.seq)
        self.work(2)
        if nested:
            self.op(nested, self.seq)
            self.work(2)
            self.launch(kernel, dur, entry)
            self.end()
        else:
            self.launch(kernel, dur, entry)
        self.end()

    def host_op(self, name, kernel, dur, phase="fwd"):
        self.op(name)
        self.work(2)
        if kernel:
            self.launch(kernel, dur, None, phase)
        self.end()


def conv(s, entry, dur):
    s.module("Conv2d", entry)
    s.fwd_op("aten::conv2d", "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32", dur, entry + "#1", "aten::convolution")
    s.end()


def bn(s, entry, dur):
    s.module("BatchNorm2d", entry)
    s.fwd_op("aten::add_", "vectorized_elementwise_kernel<add>", 2, entry + "#1")
    s.fwd_op("aten::batch_norm", "cudnn::bn_fw_tr_1C11_kernel_NCHW", dur, entry + "#2", "aten::cudnn_batch_norm")
    s.end()


def block(s, entry, shortcut, scale):
    s.module("PreActBlock", entry)
    s.frame(MODEL, 18, "forward")
    bn(s, entry + ".bn1", 10 * scale)
    s.fwd_op("aten::relu", "vectorized_elementwise_kernel<relu>", 4 * scale, entry + "#2")
    if shortcut:
        conv(s, entry + ".shortcut", 12 * scale)
    conv(s, entry + ".conv1", 30 * scale)
    bn(s, entry + ".bn2", 10 * scale)
    s.fwd_op("aten::relu", "vectorized_elementwise_kernel<relu>", 4 * scale, entry + "#%d" % (6 if shortcut else 5))
    conv(s, entry + ".conv2", 30 * scale)
    s.fwd_op("aten::add", "vectorized_elementwise_kernel<add>", 5 * scale, entry + "#%d" % (8 if shortcut else 7))
    s.end()
    s.end()


BLOCKS = [("layers.0:2", False, 4), ("layers.0:2", False, 4), ("layers.2", True, 3), ("layers.3", False, 3),
          ("layers.4", True, 2), ("layers.5", False, 2), ("layers.6", True, 1), ("layers.7", False, 1)]


def forward(s):
    s.module("ResNet", "")
    s.frame(MODEL, 42, "forward")
    conv(s, "stem", 40)
    s.module("Sequential", "layers")
    for entry, shortcut, scale in BLOCKS:
        block(s, entry, shortcut, scale)
    s.end()
    bn(s, "norm", 6)
    s.fwd_op("aten::relu", "vectorized_elementwise_kernel<relu>", 3, "#4")
    s.fwd_op("aten::adaptive_avg_pool2d", "adaptive_avg_pool2d_kernel", 4, "#5", "aten::mean")
    s.op("aten::flatten", None)   # a view: no kernel
    s.work(1)
    s.end()
    s.module("Linear", "head")
    s.fwd_op("aten::linear", "ampere_fp16_s1688gemm_fp16_128x128", 9, "head#1", "aten::addmm")
    s.end()
    s.end()
    s.end()


def backward(s):
    """Backward on the autograd thread: one evaluate_function per forward op
    that has a grad_fn, in reverse order; the first (the loss) is outside
    the model."""
    s.tid = AUTOGRAD
    s.t[AUTOGRAD] = max(s.t[AUTOGRAD], s.t[MAIN])
    for seq in sorted(s.seq_entry, reverse=True):
        entry = s.seq_entry[seq]
        if seq < s.step_first_seq:
            break
        name = "ConvolutionBackward0" if entry and "conv" in entry or entry in ("stem#1",) else "Backward0"
        s.op("autograd::engine::evaluate_function: " + name, seq, 1)
        s.op(name, seq, 1)
        s.work(2)
        s.launch("backward_kernel_" + name, 2 if entry is None else 8, entry, "bwd")
        s.end()
        s.end()
    s.tid = MAIN
    s.t[MAIN] = max(s.t[MAIN], s.t[AUTOGRAD])


def step(s, n, boundary):
    s.ann("ProfilerStep#%d" % n)
    s.ann("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__")
    s.work(400)                                   # the loader has no batch ready
    s.end()
    for _ in range(2):                            # images, labels .to(device, non_blocking=True)
        s.op("aten::to")
        s.op("aten::_to_copy")
        s.op("aten::copy_")
        s.launch("Memcpy HtoD (Pinned -> Device)", 15, None, rt="cudaMemcpyAsync", cat="gpu_memcpy",
                 extra={"bytes": 1572864})
        s.end()
        s.end()
        s.end()
    s.step_first_seq = s.seq + 1
    forward(s)
    s.seq += 1                                    # loss = F.cross_entropy(...) in main()
    s.seq_entry[s.seq] = None
    s.op("aten::cross_entropy_loss", s.seq)
    s.work(2)
    s.launch("nll_loss_forward_reduce_cuda_kernel_2d", 6, None)
    s.end()
    s.host_op("aten::div", "vectorized_elementwise_kernel<div>", 2)     # loss / args.accum_steps
    s.host_op("aten::mul", "vectorized_elementwise_kernel<mul>", 2)     # scaler.scale(...)
    backward(s)
    if boundary:
        s.host_op("aten::_amp_foreach_non_finite_check_and_unscale_", "amp_unscale_kernel", 20)
        s.host_op("aten::linalg_vector_norm", "reduce_kernel<norm>", 15)  # clip_grad_norm_
        s.host_op("aten::_foreach_mul_", "multi_tensor_apply_kernel<mul>", 12)
        # scaler.step(optimizer): found_inf.item() in torch/cuda/amp/grad_scaler.py
        s.frame("/usr/lib/python3/dist-packages/torch/cuda/amp/grad_scaler.py", 286, "_maybe_opt_step")
        s.op("aten::item")
        s.op("aten::_local_scalar_dense")
        s.launch("Memcpy DtoH (Device -> Pageable)", 2, None, rt="cudaMemcpyAsync", cat="gpu_memcpy")
        s.wait_stream("cudaStreamSynchronize")
        s.end()
        s.end()
        s.work(30)                                # Python between the sync and the next launch
        s.ann("Optimizer.step#SGD.step")
        s.host_op("aten::_foreach_add_", "multi_tensor_apply_kernel<add>", 25)
        s.end()
        s.end()
        s.host_op("aten::_amp_update_scale_", "amp_update_scale_kernel", 2)  # scaler.update()
        s.host_op("aten::zero_", "vectorized_elementwise_kernel<zero>", 4)  # zero_grad
        # the log line: torch.cuda.synchronize(), loss.item(), grad_norm.item()
        s.wait_stream("cudaDeviceSynchronize")
        s.work(25)
        for _ in range(2):
            s.op("aten::item")
            s.op("aten::_local_scalar_dense")
            s.launch("Memcpy DtoH (Device -> Pageable)", 2, None, rt="cudaMemcpyAsync", cat="gpu_memcpy")
            s.wait_stream("cudaStreamSynchronize")
            s.end()
            s.end()
            s.work(40)
    s.end()


def main(out, steps=2, name="amp_resnet"):
    s = Sim()
    s.frame(TRAIN, 56, "main")
    for n in range(steps):
        step(s, n, n % 2 == 0)
    s.end()
    meta = [{"name": "process_name", "ph": "M", "ts": T0, "pid": PID, "tid": 0, "args": {"name": "python3.11"}},
            {"name": "process_name", "ph": "M", "ts": T0, "pid": 0, "tid": 0, "args": {"name": "python3.11"}},
            {"name": "process_labels", "ph": "M", "ts": T0, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
            {"name": "thread_name", "ph": "M", "ts": T0, "pid": 0, "tid": STREAM, "args": {"name": "stream 7"}}]
    trace = {"schemaVersion": 1, "distributedInfo": {"rank": 0}, "deviceProperties": [],
             "traceEvents": meta + s.ev, "traceName": name + ".json", "displayTimeUnit": "ms",
             "baseTimeNanoseconds": 1700000000000000000}
    # one event per line, so that `zcat | diff` reads
    head = {k: v for k, v in trace.items() if k != "traceEvents"}
    text = (json.dumps(head)[:-1] + ', "traceEvents": [\n' +
            ",\n".join(json.dumps(e, separators=(",", ":")) for e in trace["traceEvents"]) + "\n]}\n")
    if steps == 2:   # the committed one: gzipped, mtime 0 (the same bytes every time)
        with open(os.path.join(out, name + ".json.gz"), "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
                f.write(text.encode())
    else:
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(text)
    dev = {}
    for (entry, phase), us in sorted(s.dev.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        dev.setdefault(entry or "", {"fwd": 0, "bwd": 0})[phase] += us
    expected = {
        "steps": 2,
        "calls": dict(sorted(s.calls.items())),
        "self_device_us": {k: v for k, v in dev.items() if k},
    }
    un = sum(us for (entry, _), us in s.dev.items() if entry is None)
    expected["unattributed_device_us"] = un
    # The idle gaps of at least 20 us on stream 7, by what the host did
    # (read off step() above, not computed):
    # - step 1 opens with a 400 us DataLoader wait while the device has
    #   drained step 0 (step 0's own wait comes before the first device
    #   event, so it is no gap between two).  The frame is main(), which
    #   holds both DataLoaders (lines 64, 66) and the loop's next batch (85).
    # - found_inf.item() in scaler.step and loss.item() in the log: the
    #   device drains while the host waits in cudaStreamSynchronize, then
    #   the host runs Python before its next launch.  The frame is main()
    #   (grad_scaler.py is outside the repository): the syncs of main()
    #   that are not a synchronize() call are candidates (100, 109, 110,
    #   and 116 for torch.save's copies).  grad_norm.item()'s drain runs
    #   into the next step's DataLoader wait, which is longer: that gap is
    #   the data one.
    # - torch.cuda.synchronize() before the log: candidates 83 and 106.
    expected["gaps"] = [
        {"cause": "data", "host": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "count": 1,
         "schedule": ["train.py:main:64", "train.py:main:66", "train.py:main:85"]},
        {"cause": "sync", "host": "aten::item", "count": 2,
         "schedule": ["train.py:main:100", "train.py:main:109", "train.py:main:110", "train.py:main:116"]},
        {"cause": "sync", "host": "cudaDeviceSynchronize", "count": 1,
         "schedule": ["train.py:main:83", "train.py:main:106"]},
    ]
    if steps != 2:
        return  # a bigger trace for bench/trace.py: no expectations
    with open(os.path.join(out, "amp_resnet.expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    # build.py [OUTDIR [STEPS NAME]]: STEPS other than 2 write NAME.json only
    # (bench/trace.py uses it for large traces)
    a = sys.argv[1:]
    main(a[0] if a else os.path.dirname(os.path.abspath(__file__)),
         int(a[1]) if len(a) > 1 else 2, a[2] if len(a) > 2 else "amp_resnet")
