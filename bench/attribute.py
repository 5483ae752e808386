#!/usr/bin/python3
"""bench/attribute.py - does `ecg attribute`'s memory stay flat as a trace grows?

    bench/attribute.py --ecg ./ecg [--events 100000,400000,1600000] [--runs 1]
                       [--cache DIR] [--json]

Makes traces of N events (the shape of tests/e2e/attribute.sh's memory test:
one python_function frame, a cpu_op, its cudaLaunchKernel and its kernel,
repeated N/4 times, every op with its own External id and correlation id,
so that the joins have N/4 distinct ids each) and records for them (the
amp_accum_resnet schedule fixture, as bench/trace.py), then for each N:

  ecg     `ecg attribute --json --records R TRACE`: CPU time, user + system
          (best of --runs; CPU rather than wall clock, which a busy machine
          makes wander by 50%), and peak RSS (both from /usr/bin/time,
          whose own RSS is about 2 MB, below ecg's);
  floor   /usr/bin/python3 -I -S doing json.load() of the same file: the
          least a tool that parses the JSON costs (CPU time, best of --runs).

Prints events, seconds, ecg/floor, and peak RSS in MB; the goal is that the
peak RSS at the largest N is within 8 MiB of the smallest (memory follows
the distinct names, not the events: issue 20 B8).  Speed is a ratio to the
floor, so that a slow or busy machine does not read as a slow ecg.
Exit status 0 goal met, 1 missed, 2 ecg failed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)


def make_trace(path, n):
    with open(path, "w") as f:
        f.write('{"traceEvents":[')
        t, first = 0.0, True
        for i in range(n // 4):
            for e in (dict(ph="X", cat="cpu_op", name="aten::mm", pid=1, tid=1, ts=t, dur=5,
                           args={"External id": i}),
                      dict(ph="X", cat="cuda_runtime", name="cudaLaunchKernel", pid=1, tid=1, ts=t + 1, dur=2,
                           args={"correlation": i}),
                      dict(ph="X", cat="kernel", name="gemm", pid=0, tid=7, ts=t + 3, dur=4,
                           args={"correlation": i, "External id": i}),
                      dict(ph="X", cat="python_function", name="model.py(10): forward", pid=1, tid=1, ts=t,
                           dur=6, args={})):
                f.write(("" if first else ",") + json.dumps(e))
                first = False
            t += 10
        f.write("]}")


def timed(argv):
    """(CPU seconds (user + system), peak RSS KB, exit code, stderr) of one child."""
    out = tempfile.NamedTemporaryFile(prefix="ecg-bench-time", delete=False)
    out.close()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", out.name] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    with open(out.name) as f:
        last = f.read().strip().splitlines()[-1].split()
    os.unlink(out.name)
    return float(last[0]) + float(last[1]), int(last[2]), p.returncode, p.stderr.decode(errors="replace")


def records(ecg, cache):
    repo = os.path.join(cache, "amp-records")
    if not os.path.exists(os.path.join(repo, "records", "computation_graph.json")):
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(os.path.join(SRC, "tests/schedule_fixtures/amp_accum_resnet"), repo)
        env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b",
                   GIT_COMMITTER_EMAIL="b@b")
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "fixture"]):
            subprocess.check_call(cmd, cwd=repo, env=env)
        subprocess.check_call([ecg, "extract", "--repo", repo, "--entry", "train.py", "-q"],
                              stdout=subprocess.DEVNULL)
    return os.path.join(repo, "records")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ecg", required=True)
    ap.add_argument("--events", default="100000,400000,1600000")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "ecg-bench-cache"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("bench/attribute.py: /usr/bin/time is needed for the peak RSS")
    os.makedirs(a.cache, exist_ok=True)
    recs = records(a.ecg, a.cache)
    rows = []
    for n in [int(x) for x in a.events.split(",")]:
        path = os.path.join(a.cache, "flat-%d.json" % n)
        if not os.path.exists(path):
            print("making a %d-event trace ..." % n, file=sys.stderr)
            make_trace(path + ".tmp", n)
            os.rename(path + ".tmp", path)
        best_e, rss, best_f = None, 0, None
        for _ in range(a.runs):
            dt, kb, code, err = timed([a.ecg, "attribute", "--json", "--records", recs, path])
            if code not in (0, 1):
                print("bench/attribute.py: ecg failed (%d): %s" % (code, err.strip()), file=sys.stderr)
                return 2
            best_e = dt if best_e is None else min(best_e, dt)
            rss = max(rss, kb or 0)
            df, _, _, _ = timed([a.python, "-I", "-S", "-c", "import json,sys; json.load(open(sys.argv[1]))", path])
            best_f = df if best_f is None else min(best_f, df)
        rows.append({"events": n, "mb": round(os.path.getsize(path) / 1e6, 1), "ecg_s": round(best_e, 3),
                     "floor_s": round(best_f, 3), "ratio": round(best_e / best_f, 2),
                     "ecg_rss_mb": round(rss / 1024, 1)})
    growth = rows[-1]["ecg_rss_mb"] - rows[0]["ecg_rss_mb"]
    goal = growth < 8
    if a.json:
        print(json.dumps({"rows": rows, "rss_growth_mb": round(growth, 1), "goal_met": goal,
                          "load_average": round(os.getloadavg()[0], 2)}, indent=2))
    else:
        print("%10s %8s %8s %9s %7s %8s" % ("events", "MB", "ecg cpu", "floor cpu", "ratio", "RSS MB"))
        for r in rows:
            print("%10d %8.1f %8.2f %9.2f %7.2f %8.1f" % (r["events"], r["mb"], r["ecg_s"], r["floor_s"],
                                                         r["ratio"], r["ecg_rss_mb"]))
        print("peak RSS growth from %d to %d events: %.1f MB (goal < 8): %s" %
              (rows[0]["events"], rows[-1]["events"], growth, "PASS" if goal else "FAIL"))
        print("load average: %.2f" % os.getloadavg()[0])
    return 0 if goal else 1


if __name__ == "__main__":
    sys.exit(main())
