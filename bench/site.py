#!/usr/bin/python3
"""bench/site.py - what reading an installed library costs `ecg extract`.

A job whose model is torchvision's (tests/fixtures/site_torchvision: the
imagenet idiom, models.__dict__[arch]()) is read with --site DIR, where DIR
holds torchvision (default /usr/lib/python3/dist-packages, Debian's
python3-torchvision).  Three ways, best of K runs each, alternately:

  cold    a new, empty tree cache every run: every library file is read and
          parsed;
  warm    the same cache again: no library file is parsed (the trees are
          kept by the content's blob id);
  none    --no-site-env and no --site: the library stays external (what the
          job costs without an environment).

The floor is CPython's own parse of the same library files ecg read (their
list is what ECG_TRACE_SITE=1 prints): /usr/bin/python3 -I -S compiling
each with ast.PyCF_ONLY_AST, interpreter start-up included.  The ratio
cold/floor says what ecg adds on top of the parse it cannot avoid: its
start-up, the walk, the interpretation of the library's module bodies.

Goals: warm <= 0.5 x cold (the cache does its work); the files ecg reads
are only torchvision's (no numpy, PIL: libraries that do not use torch are
not read).  Exit status: 0 met, 1 missed, 2 ecg failed, 77 torchvision is
not installed in DIR.

--job transformers times a fine-tune job instead (tests/fixtures/
site_transformers: AutoModelForCausalLM.from_pretrained("./ckpt")), with
the fixture's stand-in package by default, or the real transformers in
--site DIR with --ckpt DIR (a checkpoint directory whose config.json names
a model type of that version); --ecg-arg passes more options (--no-env).
The goals are the same, over the library's own files.

    bench/site.py --ecg ./ecg [--job torchvision|transformers] [--site DIR]
                  [--ckpt DIR] [--ecg-arg ARG]... [--runs K] [--json]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")
# job -> (fixture, entry, files of the job, library, default site)
JOBS = {
    "torchvision": ("site_torchvision", "main.py", ["main.py"], "torchvision", "/usr/lib/python3/dist-packages"),
    "transformers": ("site_transformers", "train.py", ["train.py", "ckpt"], "transformers",
                     os.path.join(FIXTURES, "site_transformers", "_env", "site-packages")),
}


def timed(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - t0, p.returncode, p.stderr.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ecg", required=True)
    ap.add_argument("--job", choices=sorted(JOBS), default="torchvision")
    ap.add_argument("--site")
    ap.add_argument("--ckpt", help="--job transformers: the checkpoint directory (its config.json)")
    ap.add_argument("--ecg-arg", action="append", default=[])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    fixture, entry, job_files, lib, default_site = JOBS[a.job]
    a.site = a.site or default_site
    if not os.path.isdir(os.path.join(a.site, lib)):
        print("skip: %s is not installed in %s" % (lib, a.site), file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="ecg-bench-site-")
    try:
        repo = os.path.join(work, "job")
        os.makedirs(repo)
        for f in job_files:
            src = os.path.join(FIXTURES, fixture, f)
            if f == "ckpt" and a.ckpt:
                src = a.ckpt
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(repo, f))
            else:
                shutil.copy(src, repo)
        env = dict(os.environ, GIT_AUTHOR_DATE="2000-01-01T00:00:00Z", GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")
        for c in (["init", "-q"], ["add", "."], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "job"]):
            subprocess.run(["git", "-C", repo] + c, check=True, env=env)
        base = [a.ecg, "extract", "--repo", repo, "--entry", entry, "-q", "--no-site-env"] + a.ecg_arg
        out = os.path.join(work, "out")
        warm_cache = os.path.join(work, "warm")

        # the files ecg reads from the library
        tenv = dict(os.environ, ECG_TRACE_SITE="1")
        _, rc, err = timed(base + ["--site", a.site, "--no-cache", "--out", out], env=tenv)
        if rc != 0:
            print(err, file=sys.stderr)
            return 2
        files = [l.split("ecg: site file: ", 1)[1] for l in err.splitlines() if l.startswith("ecg: site file: ")]
        outside = [f for f in files if not os.path.relpath(f, a.site).startswith(lib + os.sep)]
        listing = os.path.join(work, "files.txt")
        with open(listing, "w") as fh:
            fh.write("\n".join(files))
        floor_code = ("import ast,sys\n"
                      "for p in open(sys.argv[1]).read().split('\\n'):\n"
                      "    compile(open(p,'rb').read(), p, 'exec', ast.PyCF_ONLY_AST)\n")
        size = sum(os.path.getsize(f) for f in files)

        subprocess.run(base + ["--site", a.site, "--cache-dir", warm_cache, "--out", out], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = {"floor": [], "cold": [], "warm": [], "none": []}
        for i in range(a.runs):
            t, rc, _ = timed([a.python, "-I", "-S", "-c", floor_code, listing])
            best["floor"].append(t)
            cold_cache = os.path.join(work, "cold%d" % i)
            t, rc, err = timed(base + ["--site", a.site, "--cache-dir", cold_cache, "--out", out])
            if rc != 0:
                print(err, file=sys.stderr)
                return 2
            best["cold"].append(t)
            t, rc, _ = timed(base + ["--site", a.site, "--cache-dir", warm_cache, "--out", out])
            best["warm"].append(t)
            t, rc, _ = timed(base + ["--no-cache", "--out", out])
            best["none"].append(t)
        r = {k: min(v) for k, v in best.items()}
        res = {"job": a.job, "files": len(files), "bytes": size, "outside_library": outside,
               "seconds": r, "cold_over_floor": r["cold"] / r["floor"], "warm_over_cold": r["warm"] / r["cold"],
               "load": os.getloadavg()}
        ok = res["warm_over_cold"] <= 0.5 and not outside
        res["goals_met"] = ok
        if a.json:
            print(json.dumps(res, indent=2))
        else:
            print("library files read: %d (%.1f KB), outside %s: %d" % (len(files), size / 1024, lib, len(outside)))
            for k in ("floor", "cold", "warm", "none"):
                print("  %-6s %8.1f ms" % (k, r[k] * 1e3))
            print("cold / floor = %.2f   warm / cold = %.2f (goal <= 0.5)   load %.1f"
                  % (res["cold_over_floor"], res["warm_over_cold"], res["load"][0]))
            print("goals met" if ok else "GOAL MISSED")
        return 0 if ok else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
