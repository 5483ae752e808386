#!/usr/bin/python3
"""real_jobs.py -- how long `ecg extract` takes on real framework jobs

    bench/real_jobs.py --ecg PATH [--mirror DIR] [--runs K] [--json] [JOB ...]

Times `ecg extract` end to end (wall clock, best and median of K runs,
default 5) on the jobs below, whose sources are bare git directories under
$ECG_REAL_MIRROR (default /work/.mirror), <owner>+<name>/repo; a job whose
source or commit is absent is skipped.  Each run uses --no-cache (every file
parsed again) unless --cache is given, and -q; the records go to a
temporary directory.  Exit status 0; 1 when a job's best time is over its
goal; 2 when ecg fails (an exit status other than 0 or 6: 6 is "no model or
no step found", a result, not a failure).  Standard library only.

The goal of issue 16: the Megatron-LM job of its 175B launcher in < 3 s;
megatron-gpt3-175b-16n is that job with the arguments and environment of
tests/real/schedule/megatron_gpt3_175b.json (the 16-node configuration
that trains; the launcher's line as written does not at that commit).

Beside the wall clock: ecg's CPU time (user + system of the child, best of
K), and a floor: CPython's own ast.parse() of the .py files the records
list under "files" (their blobs read from the git directory first, not
timed; best of K), in CPU time.  ecg/floor is the ratio of the two, which a
busy machine moves less than the wall clock.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def label_args(label):
    """ecg extract's arguments for a tests/real/schedule label's invocation:
    its entry, its environment (--no-env --env ...) and its argv."""
    with open(os.path.join(HERE, "..", "tests", "real", "schedule", label)) as f:
        d = json.load(f)
    env = ["--no-env"]
    for k, v in sorted(d.get("env", {}).items()):
        env += ["--env", k if ".." in v else "%s=%s" % (k, v)]
    return ["--entry", d["entry"]] + env + list(d.get("ecg_args", [])) + ["--"] + d["argv"]


# name: (owner/name, commit, ecg extract arguments after --repo/--rev, goal s)
JOBS = {
    # the launcher's line as written (at this commit it does not train:
    # see tests/real/config/megatron-pretrain-gpt3-175b.json)
    "megatron-gpt3-175b": (
        "NVIDIA/Megatron-LM", "d98e8a64ddf34856e74b24714e3bedb2f5a39553",
        ["--launcher", "examples/gpt3/train_gpt3_175b_distributed.sh"], 3.0),
    # the job it means, on 16 nodes (TP 8 x PP 16), as the real-code
    # labels state it: the model is built and trained
    "megatron-gpt3-175b-16n": (
        "NVIDIA/Megatron-LM", "d98e8a64ddf34856e74b24714e3bedb2f5a39553",
        label_args("megatron_gpt3_175b.json"), 3.0),
    # the same with the distributed optimizer and its overlap flags, DP 32
    "megatron-gpt3-175b-distopt": (
        "NVIDIA/Megatron-LM", "d98e8a64ddf34856e74b24714e3bedb2f5a39553",
        label_args("megatron_gpt3_175b_distopt.json"), 3.0),
}


def run_once(ecg, src, commit, args, cache, files=None):
    with tempfile.TemporaryDirectory() as out:
        cmd = [ecg, "extract", "--repo", src, "--rev", commit, "--out", out, "-q"] + \
              ([] if cache else ["--no-cache"]) + args
        r0 = os.times()
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.monotonic() - t0
        r1 = os.times()
        cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
        if files is not None:
            try:
                with open(os.path.join(out, "execution_schedule.json")) as f:
                    files.extend(e["blob"] for e in json.load(f).get("files", []) if e["path"].endswith(".py"))
            except (OSError, ValueError, KeyError):
                pass
        return wall, cpu, p.returncode, p.stderr.decode(errors="replace")


def floor_cpu(src, blobs, runs):
    """CPython's ast.parse() of these blobs: best CPU seconds of runs."""
    if not blobs:
        return None
    p = subprocess.run(["git", "--git-dir", src, "cat-file", "--batch"], input="\n".join(blobs).encode() + b"\n",
                       stdout=subprocess.PIPE, check=True)
    data, texts, i = p.stdout, [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        head = data[i:nl].split()
        size = int(head[2])
        texts.append(data[nl + 1:nl + 1 + size])
        i = nl + 1 + size + 1
    code = ("import ast, sys, time\nt = [sys.stdin.buffer.read().split(b'\\0')]\nbest = None\n"
            "for _ in range(%d):\n    c0 = time.process_time()\n"
            "    for s in t[0]:\n        ast.parse(s)\n"
            "    c = time.process_time() - c0\n    best = c if best is None else min(best, c)\n"
            "print(best)\n" % runs)
    q = subprocess.run(["/usr/bin/python3", "-I", "-S", "-c", code], input=b"\0".join(texts),
                       stdout=subprocess.PIPE, check=True)
    return float(q.stdout)


def main(argv):
    ecg, mirror, runs, as_json, cache, names = None, os.environ.get("ECG_REAL_MIRROR", "/work/.mirror"), 5, False, False, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--ecg" and i + 1 < len(argv):
            ecg, i = argv[i + 1], i + 1
        elif a == "--mirror" and i + 1 < len(argv):
            mirror, i = argv[i + 1], i + 1
        elif a == "--runs" and i + 1 < len(argv):
            runs, i = max(1, int(argv[i + 1])), i + 1
        elif a == "--json":
            as_json = True
        elif a == "--cache":
            cache = True
        elif a.startswith("-"):
            print("real_jobs.py: unknown option %s" % a, file=sys.stderr)
            return 2
        else:
            names.append(a)
        i += 1
    if not ecg:
        print("usage: real_jobs.py --ecg PATH [--mirror DIR] [--runs K] [--cache] [--json] [JOB ...]", file=sys.stderr)
        return 2
    status, results = 0, []
    for name in names or sorted(JOBS):
        if name not in JOBS:
            print("real_jobs.py: no job %s (known: %s)" % (name, ", ".join(sorted(JOBS))), file=sys.stderr)
            return 2
        repo, commit, args, goal = JOBS[name]
        src = os.path.join(mirror, repo.replace("/", "+"), "repo")
        if not os.path.isdir(src) or subprocess.run(
                ["git", "--git-dir", src, "cat-file", "-e", commit + "^{commit}"],
                stderr=subprocess.DEVNULL).returncode != 0:
            print("skip %s: source not present at %s" % (name, src), file=sys.stderr)
            continue
        times, cpus, blobs = [], [], []
        for k in range(runs):
            t, cpu, rc, err = run_once(ecg, src, commit, args, cache, blobs if k == 0 else None)
            if rc not in (0, 6):
                print("%s: ecg exited %d: %s" % (name, rc, err[-400:]), file=sys.stderr)
                return 2
            times.append(t)
            cpus.append(cpu)
        best, med = min(times), statistics.median(times)
        floor = floor_cpu(src, blobs, runs)
        met = best < goal
        if not met:
            status = 1
        results.append({"job": name, "best_s": round(best, 3), "median_s": round(med, 3), "runs": runs,
                        "cpu_s": round(min(cpus), 3), "py_files": len(blobs),
                        "floor_cpu_s": round(floor, 3) if floor is not None else None,
                        "ratio": round(min(cpus) / floor, 2) if floor else None,
                        "exit": rc, "goal_s": goal, "met": met})
    load = os.getloadavg()[0]
    if as_json:
        print(json.dumps({"load_average": load, "jobs": results}, indent=1))
    else:
        for r in results:
            print("%-24s best %6.3f s  median %6.3f s  (%d runs, exit %d)  goal < %.1f s: %s" %
                  (r["job"], r["best_s"], r["median_s"], r["runs"], r["exit"], r["goal_s"],
                   "met" if r["met"] else "MISSED"))
            if r["floor_cpu_s"] is not None:
                print("%-24s cpu %6.3f s  floor (ast.parse of its %d .py files) %6.3f s  ecg/floor %.2f" %
                      ("", r["cpu_s"], r["py_files"], r["floor_cpu_s"], r["ratio"]))
        print("load average %.2f" % load)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
