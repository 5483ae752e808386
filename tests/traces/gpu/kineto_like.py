#!/usr/bin/env python3
"""kineto_like.py DIR - write four GPU profiler traces shaped like real ones.

The real traces in ../shared/traces (Kineto traces from NVIDIA GPUs) are not
shipped with ecg, so a test that needs their shape gets these instead: our own
synthetic events, with the categories, args and layout Kineto writes (as
tests/traces/README and ../shared/traces/README.md describe them) and, like the
real ones, no python_function events.  Deterministic: the same bytes every run
(gzip mtime 0, fixed order, no randomness).

    gen-1gpu-step.json.gz         one GPU, two profiler steps: cpu_op, cuda_runtime
                                  launches with ac2g flows, kernels on stream 7,
                                  a pageable HtoD memcpy, Stream Sync, a memset,
                                  idle gaps behind the copy and the sync
    gen-event-sync-2stream.json.gz two streams ordered by a CUDA event
                                  (cudaEventRecord / cudaStreamWaitEvent, Event Sync)
    gen-nccl-ddp.json.gz          rank 0 of 2: backward on the autograd thread with
                                  Sequence numbers and fwdbwd flows, NCCL all-reduce
                                  kernels on a communication stream, distributedInfo
                                  with its process group
    gen-backward-thread.json      plain JSON: a backward op on the autograd thread
                                  and the kernel it launched

DIR/MANIFEST gets one line per file: its name and its number of events
(len(traceEvents)), for the tests to check the reader's count against.
"""
import gzip
import json
import os
import sys

PID, TID, BWD = 4242, 4242, 4307


class Trace:
    def __init__(self, t0):
        self.ev = []
        self.t = t0
        self.corr = 100
        self.ext = 1

    def add(self, **e):
        self.ev.append(e)

    def meta(self):
        self.add(name="process_name", ph="M", ts=self.t, pid=PID, tid=0, args={"name": "python3.11"})
        self.add(name="thread_name", ph="M", ts=self.t, pid=PID, tid=TID, args={"name": "thread 4242 (python3.11)"})
        self.add(name="process_name", ph="M", ts=self.t, pid=0, tid=0, args={"name": "GPU 0"})
        self.add(ph="X", cat="Trace", ts=self.t, dur=50000, pid="Spans", tid="PyTorch Profiler",
                 name="PyTorch Profiler (0)", args={"Op count": 0})
        self.add(name="Iteration Start: PyTorch Profiler", ph="i", s="g", pid="Traces",
                 tid="Trace PyTorch Profiler", ts=self.t)

    def op(self, name, dur, tid=TID, **args):
        a = {"External id": self.ext, "Ev Idx": len(self.ev)}
        a.update(args)
        self.add(ph="X", cat="cpu_op", name=name, pid=PID, tid=tid, ts=self.t, dur=dur, args=a)
        self.ext += 1
        self.t += 2

    def launch(self, api, cat, name, dur, stream=7, gpu_at=None, tid=TID, **gargs):
        """A runtime call on the host and what it put on the device, joined by
        a correlation id and an ac2g flow; returns the device event's end."""
        c = self.corr
        self.corr += 1
        self.add(ph="X", cat="cuda_runtime", name=api, pid=PID, tid=tid, ts=self.t, dur=5,
                 args={"External id": self.ext - 1, "cbid": 211, "correlation": c})
        self.add(ph="s", id=c, pid=PID, tid=tid, ts=self.t, cat="ac2g", name="ac2g")
        at = max(self.t + 8, gpu_at or 0)
        a = {"External id": self.ext - 1, "device": 0, "context": 1, "stream": stream, "correlation": c}
        a.update(gargs)
        self.add(ph="X", cat=cat, name=name, pid=0, tid=stream, ts=at, dur=dur, args=a)
        self.add(ph="f", id=c, pid=0, tid=stream, ts=at, cat="ac2g", name="ac2g", bp="e")
        self.t += 7
        return at + dur

    def write(self, path, info):
        doc = {"schemaVersion": 1, "distributedInfo": info,
               "deviceProperties": [{"id": 0, "name": "Synthetic GPU", "totalGlobalMem": 1 << 34}],
               "traceEvents": self.ev, "traceName": os.path.basename(path)}
        data = json.dumps(doc, indent=1).encode()
        if path.endswith(".gz"):
            with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
                z.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)
        return len(self.ev)


def one_gpu(path):
    t = Trace(1700000000000000)
    t.meta()
    gpu = 0
    for step in range(2):
        t.add(ph="X", cat="user_annotation", name="ProfilerStep#%d" % step, pid=PID, tid=TID,
              ts=t.t, dur=9000, args={"External id": t.ext})
        t.op("aten::copy_", 40)
        gpu = t.launch("cudaMemcpyAsync", "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 60,
                       gpu_at=gpu + 400, bytes=602112, **{"memory bandwidth (GB/s)": 10.0})
        t.launch("cudaStreamSynchronize", "cuda_sync", "Stream Sync", 3, gpu_at=gpu,
                 cuda_sync_kind="Stream Sync")
        t.t = max(t.t, gpu + 5)
        for name, dur in (("aten::conv2d", 120), ("aten::relu_", 15), ("aten::max_pool2d", 30),
                          ("aten::linear", 80), ("aten::log_softmax", 12)):
            t.op(name, 20)
            gpu = t.launch("cudaLaunchKernel", "kernel", "void synthetic_%s_kernel<float>()" % name[6:],
                           dur, gpu_at=gpu + 2, grid=[64, 1, 1], block=[256, 1, 1])
        t.op("aten::zero_", 10)
        gpu = t.launch("cudaMemsetAsync", "gpu_memset", "Memset (Device)", 2, gpu_at=gpu + 2, bytes=4096)
        t.op("aten::item", 10)
        gpu = t.launch("cudaMemcpyAsync", "gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 3,
                       gpu_at=gpu + 2, bytes=4)
        t.launch("cudaStreamSynchronize", "cuda_sync", "Stream Sync", 2, gpu_at=gpu,
                 cuda_sync_kind="Stream Sync")
        t.t = max(t.t, gpu + 2000)   # the host is busy: the device idles
    return t.write(path, {"rank": 0})


def two_streams(path):
    t = Trace(1710000000000000)
    t.meta()
    t.op("aten::matmul", 60, **{"Sequence number": 0, "Fwd thread id": 0})
    end = t.launch("cudaLaunchKernel", "kernel", "synthetic_sgemm_128x64_nn", 120, stream=20)
    t.op("aten::record_event", 4)
    t.launch("cudaEventRecord", "cuda_sync", "Event Record", 1, stream=20, gpu_at=end)
    t.op("aten::wait_event", 4)
    c = t.corr
    t.launch("cudaStreamWaitEvent", "cuda_sync", "Wait Event", 1, stream=7, gpu_at=end,
             cuda_sync_kind="Wait Event", wait_on_stream=20, wait_on_cuda_event_record_corr_id=c - 1,
             wait_on_cuda_event_id=9)
    t.op("aten::add", 20)
    end = t.launch("cudaLaunchKernel", "kernel", "synthetic_elementwise_add", 10, stream=7, gpu_at=end + 1)
    t.op("aten::synchronize", 4)
    t.launch("cudaEventSynchronize", "cuda_sync", "Event Sync", 4, stream=-1, gpu_at=end,
             cuda_sync_kind="Event Sync", wait_on_cuda_event_id=9)
    return t.write(path, {"rank": 0})


def nccl_ddp(path):
    t = Trace(4458676388068)
    t.meta()
    comm = 0
    for i, (bwd, elems) in enumerate((("AddmmBackward0", 262144), ("ConvolutionBackward0", 73728))):
        seq = 1080 - i
        t.add(ph="s", id=seq, pid=PID, tid=TID, ts=t.t, cat="fwdbwd", name="fwdbwd")
        t.op("aten::" + bwd[:-9].lower(), 30, **{"Sequence number": seq, "Fwd thread id": 0})
        t.add(ph="f", id=seq, pid=PID, tid=BWD, ts=t.t + 500, cat="fwdbwd", name="fwdbwd", bp="e")
    t.t += 500
    gpu = t.t
    for i, (bwd, elems) in enumerate((("AddmmBackward0", 262144), ("ConvolutionBackward0", 73728))):
        t.op("autograd::engine::evaluate_function: " + bwd, 150, tid=BWD,
             **{"Sequence number": 1080 - i, "Fwd thread id": 1})
        gpu = t.launch("cudaLaunchKernel", "kernel", "synthetic_%s_kernel" % bwd.lower(), 90,
                       tid=BWD, gpu_at=gpu + 2)
        t.add(ph="X", cat="user_annotation", name="nccl:all_reduce", pid=PID, tid=BWD, ts=t.t, dur=40,
              args={"External id": t.ext})
        comm = t.launch("cudaLaunchKernel", "kernel", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
                        200, stream=20, tid=BWD, gpu_at=max(gpu, comm),
                        **{"Collective name": "allreduce", "In msg nelems": elems, "Out msg nelems": elems,
                           "Group size": 2, "dtype": "Float", "Process Group Name": "0",
                           "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1]"})
    t.add(ph="X", cat="gpu_user_annotation", name="## backward ##", pid=0, tid=7, ts=t.t, dur=comm - t.t,
          args={"External id": t.ext})
    return t.write(path, {"backend": "nccl", "rank": 0, "world_size": 2, "pg_count": 1,
                          "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl",
                                         "pg_size": 2, "ranks": [0, 1]}], "nccl_version": "2.18.1"})


def backward_thread(path):
    t = Trace(1666149715033200)
    t.add(ph="X", cat="user_annotation", name="ProfilerStep#7", pid=PID, tid=TID, ts=t.t, dur=400000,
          args={"External id": 49220})
    t.op("aten::addmm", 60, **{"Sequence number": 714649, "Fwd thread id": 0})
    t.add(ph="X", cat="user_annotation", name="autograd::engine::backward", pid=PID, tid=BWD, ts=t.t,
          dur=3000, args={"External id": t.ext})
    t.op("autograd::engine::evaluate_function: AddmmBackward0", 145, tid=BWD,
         **{"Sequence number": 714649, "Fwd thread id": 1})
    t.op("aten::mm", 40, tid=BWD)
    c = t.corr
    t.add(ph="X", cat="cuda_runtime", name="cudaLaunchKernel", pid=PID, tid=BWD, ts=t.t, dur=10,
          args={"External id": t.ext - 1, "cbid": 211, "correlation": c})
    t.add(ph="X", cat="kernel", name="synthetic_gemm_128x128_nn", pid=0, tid=7, ts=t.t + 60, dur=45,
          args={"External id": t.ext - 1, "device": 0, "context": 1, "stream": 7, "correlation": c})
    return t.write(path, {"rank": 0})


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n")[0])
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    lines = []
    for name, fn in (("gen-1gpu-step.json.gz", one_gpu), ("gen-event-sync-2stream.json.gz", two_streams),
                     ("gen-nccl-ddp.json.gz", nccl_ddp), ("gen-backward-thread.json", backward_thread)):
        lines.append("%s %d\n" % (name, fn(os.path.join(d, name))))
    with open(os.path.join(d, "MANIFEST"), "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
