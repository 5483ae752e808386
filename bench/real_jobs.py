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

Jobs whose model comes from an installed library (issue 17, point 4):
SITE_JOBS below.  The library is taken out of its mirror at a commit into a
site-packages directory of a temporary tree (with a *.dist-info naming its
version), the job is a small repository written there, and `ecg extract
--site DIR --no-site-env --no-env` reads it, two ways, K runs each:

  cold    a new, empty tree cache (--cache-dir) every run: the job's file
          and every library file it reaches are parsed;
  warm    one cache, filled by a run before the timed ones: the same
          environment again, nothing new is parsed.

The floor is CPython's ast.parse() of the same files (the job's, and the
library's that ECG_TRACE_SITE=1 names), in CPU time; cold/floor and
warm/floor are ecg's CPU time over it.  A warm run that parses any file
(--stats: fewer trees from the cache than files read) is a PROBLEM: exit 2.
No goal in seconds: the figure is the ratio.
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


# name: (owner/name of the library's source, commit, package, version, the
# job's train.py).  timm's vit_tiny is tests/e2e/site_timm_real.sh's model.
SITE_JOBS = {
    "timm-site-vit-tiny": (
        "huggingface/pytorch-image-models", "aa4b5850c1543fa488abf260f18390eda46cf85d", "timm", "1.0.29.dev0",
        "import torch\nimport timm\n\n"
        "model = timm.create_model(\"vit_tiny_patch16_224\", pretrained=False, num_classes=10)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for step in range(2):\n"
        "    loss = model(torch.randn(2, 3, 224, 224)).sum()\n"
        "    loss.backward()\n"
        "    opt.step()\n"),
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
    return floor_texts_cpu(texts, runs)


def floor_texts_cpu(texts, runs):
    """CPython's ast.parse() of these sources: best CPU seconds of runs."""
    code = ("import ast, sys, time\nt = [sys.stdin.buffer.read().split(b'\\0')]\nbest = None\n"
            "for _ in range(%d):\n    c0 = time.process_time()\n"
            "    for s in t[0]:\n        ast.parse(s)\n"
            "    c = time.process_time() - c0\n    best = c if best is None else min(best, c)\n"
            "print(best)\n" % runs)
    q = subprocess.run(["/usr/bin/python3", "-I", "-S", "-c", code], input=b"\0".join(texts),
                       stdout=subprocess.PIPE, check=True)
    return float(q.stdout)


def site_job(ecg, mirror, name, runs):
    """One SITE_JOBS entry, cold and warm: a result dict, None when the
    library's source is absent, or an int exit status on failure."""
    repo, commit, pkg, version, script = SITE_JOBS[name]
    src = os.path.join(mirror, repo.replace("/", "+"), "repo")
    if not os.path.isdir(src) or subprocess.run(
            ["git", "--git-dir", src, "cat-file", "-e", commit + "^{commit}"],
            stderr=subprocess.DEVNULL).returncode != 0:
        print("skip %s: source not present at %s" % (name, src), file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory(prefix="ecg-bench-site-") as w:
        sp, job, out = os.path.join(w, "site"), os.path.join(w, "job"), os.path.join(w, "out")
        os.makedirs(os.path.join(sp, "%s-%s.dist-info" % (pkg, version)))
        os.makedirs(job)
        arc = subprocess.run(["git", "--git-dir", src, "archive", commit, pkg], stdout=subprocess.PIPE, check=True)
        subprocess.run(["tar", "-x", "-C", sp], input=arc.stdout, check=True)
        with open(os.path.join(sp, "%s-%s.dist-info" % (pkg, version), "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: %s\nVersion: %s\nRequires-Dist: torch\n" % (pkg, version))
        with open(os.path.join(job, "train.py"), "w") as f:
            f.write(script)
        env = dict(os.environ, GIT_AUTHOR_DATE="2000-01-01T00:00:00Z", GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")
        for c in (["init", "-q"], ["add", "."], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "job"]):
            subprocess.run(["git", "-C", job] + c, check=True, env=env, stdout=subprocess.DEVNULL)
        base = [ecg, "extract", "--repo", job, "--entry", "train.py", "--out", out, "-q",
                "--no-site-env", "--no-env", "--site", sp]

        def timed(args, env=None):
            r0 = os.times()
            t0 = time.monotonic()
            p = subprocess.run(base + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
            wall = time.monotonic() - t0
            r1 = os.times()
            cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
            return wall, cpu, p.returncode, p.stderr.decode(errors="replace")

        # the files a run reads (the library's, as ECG_TRACE_SITE names them)
        # and the warm cache, filled once
        warm = os.path.join(w, "warm")
        _, _, rc, err = timed(["--cache-dir", warm], env=dict(os.environ, ECG_TRACE_SITE="1"))
        if rc not in (0, 6):
            print("%s: ecg exited %d: %s" % (name, rc, err[-400:]), file=sys.stderr)
            return 2
        lib_files = [l.split("ecg: site file: ", 1)[1] for l in err.splitlines()
                     if l.startswith("ecg: site file: ")]
        texts = [open(os.path.join(job, "train.py"), "rb").read()] + [open(p, "rb").read() for p in lib_files]
        cold, warm_t = [], []
        for k in range(runs):
            cold.append(timed(["--cache-dir", os.path.join(w, "cold%d" % k)]))
            warm_t.append(timed(["--cache-dir", warm]))
            for r in (cold[-1], warm_t[-1]):
                if r[2] not in (0, 6):
                    print("%s: ecg exited %d: %s" % (name, r[2], r[3][-400:]), file=sys.stderr)
                    return 2
        # what a warm run parses: every tree from the cache
        _, _, rc, err = timed(["--cache-dir", warm, "--stats"])
        read = hits = lib_read = lib_hits = None
        for l in err.splitlines():
            m = l.split("ecg: stats: of the analysis, reading and parsing ", 1)
            if len(m) == 2:
                read, hits = int(m[1].split()[0]), int(m[1].rsplit("(", 1)[1].split()[0])
            m = l.split("ecg: stats: of which installed libraries' files: ", 1)
            if len(m) == 2:
                lib_read, lib_hits = int(m[1].split()[0]), int(m[1].split("(", 1)[1].split()[0])
        floor = floor_texts_cpu(texts, runs)
        cold_cpu, warm_cpu = min(c[1] for c in cold), min(c[1] for c in warm_t)
        return {"job": name, "library": "%s %s (%s)" % (pkg, version, commit[:10]),
                "files": len(texts), "library_files": len(lib_files),
                "bytes": sum(len(t) for t in texts), "runs": runs,
                "cold_best_s": round(min(c[0] for c in cold), 3), "warm_best_s": round(min(c[0] for c in warm_t), 3),
                "cold_cpu_s": round(cold_cpu, 3), "warm_cpu_s": round(warm_cpu, 3),
                "floor_cpu_s": round(floor, 3),
                "cold_ratio": round(cold_cpu / floor, 2), "warm_ratio": round(warm_cpu / floor, 2),
                "warm_files_read": read, "warm_trees_from_cache": hits,
                "warm_library_files": lib_read, "warm_library_trees_from_cache": lib_hits,
                "warm_parsed_nothing": read is not None and read == hits and lib_read == lib_hits == len(lib_files),
                "exit": cold[-1][2]}


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
    status, results, site_results = 0, [], []
    for name in names or sorted(JOBS) + sorted(SITE_JOBS):
        if name in SITE_JOBS:
            r = site_job(ecg, mirror, name, runs)
            if isinstance(r, int):
                return r
            if r is not None:
                if not r["warm_parsed_nothing"]:
                    print("PROBLEM %s: a warm run parsed files again (%s of %s trees from the cache)" %
                          (name, r["warm_trees_from_cache"], r["warm_files_read"]), file=sys.stderr)
                    status = 2
                site_results.append(r)
            continue
        if name not in JOBS:
            print("real_jobs.py: no job %s (known: %s)" % (name, ", ".join(sorted(JOBS) + sorted(SITE_JOBS))),
                  file=sys.stderr)
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
        if not met and status == 0:
            status = 1
        results.append({"job": name, "best_s": round(best, 3), "median_s": round(med, 3), "runs": runs,
                        "cpu_s": round(min(cpus), 3), "py_files": len(blobs),
                        "floor_cpu_s": round(floor, 3) if floor is not None else None,
                        "ratio": round(min(cpus) / floor, 2) if floor else None,
                        "exit": rc, "goal_s": goal, "met": met})
    load = os.getloadavg()[0]
    if as_json:
        print(json.dumps({"load_average": load, "jobs": results, "site_jobs": site_results}, indent=1))
    else:
        for r in results:
            print("%-24s best %6.3f s  median %6.3f s  (%d runs, exit %d)  goal < %.1f s: %s" %
                  (r["job"], r["best_s"], r["median_s"], r["runs"], r["exit"], r["goal_s"],
                   "met" if r["met"] else "MISSED"))
            if r["floor_cpu_s"] is not None:
                print("%-24s cpu %6.3f s  floor (ast.parse of its %d .py files) %6.3f s  ecg/floor %.2f" %
                      ("", r["cpu_s"], r["py_files"], r["floor_cpu_s"], r["ratio"]))
        for r in site_results:
            print("%-24s %s: the job and %d library files (%.0f KB), %d runs, exit %d" %
                  (r["job"], r["library"], r["library_files"], r["bytes"] / 1024, r["runs"], r["exit"]))
            print("%-24s floor (ast.parse of those %d files) cpu %6.3f s" % ("", r["files"], r["floor_cpu_s"]))
            print("%-24s cold  cpu %6.3f s  ecg/floor %.2f  (best wall %.3f s)" %
                  ("", r["cold_cpu_s"], r["cold_ratio"], r["cold_best_s"]))
            print("%-24s warm  cpu %6.3f s  ecg/floor %.2f  (best wall %.3f s)  %s of %s files' trees from the cache%s" %
                  ("", r["warm_cpu_s"], r["warm_ratio"], r["warm_best_s"], r["warm_trees_from_cache"],
                   r["warm_files_read"], "" if r["warm_parsed_nothing"] else "  PROBLEM: parsed again"))
        print("load average %.2f" % load)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
