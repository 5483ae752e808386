#!/usr/bin/env python3
"""How much does `ecg refresh` cost after a one-file change, against a full
`ecg extract`?  And `ecg check` on an unchanged repository?

    bench/refresh.py --ecg ./ecg --repo PATH --entry SCRIPT \
        --edit FILE:FUNCTION [--rev REV] [--runs N] [-- JOB-ARGS...]

The repository is cloned (--shared) into a temporary directory.  Commit A
is REV (default HEAD); commit B is A plus one statement at the top of
FUNCTION's body in FILE (a change to the code of a function the job runs,
so the job has to be read again: not the anchors-only fast path).  Then:

  check    `ecg check --rev A` on records written at A (nothing changed)
  refresh  `ecg refresh --rev B --cache-dir C` of a copy of A's records, the
           cache C warm from `ecg extract --rev A --cache-dir C` (the trees
           written by earlier rounds for B's changed file are deleted before
           each round, so each refresh parses it)
  extract  `ecg extract --rev B --no-cache` (the full extract)

timed whole, wall clock, in N interleaved rounds (default 7).  It prints
the best and the median of each and the ratio refresh / extract, and
checks that the refreshed records are the extract's, byte for byte.
Nothing is cached between runs but the tree cache itself and the OS's page
cache (warmed by one untimed run of each).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def git(repo, *args, **kw):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kw).stdout.strip()


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    return p.returncode, dt, p.stderr


def edit_function(path, function):
    """Insert `_ecg_bench_edit = 1` as the first statement of FUNCTION's body
    (after its docstring, if any).  The line numbers of what follows move by
    one: the anchors after it move too."""
    import ast
    src = open(path).read()
    tree = ast.parse(src)
    target = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function.split(".")[-1]:
            target = node
            break
    if target is None:
        sys.exit("refresh.py: no function %s in %s" % (function, path))
    first = target.body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str) and len(target.body) > 1):
        first = target.body[1]
    lines = src.splitlines(keepends=True)
    indent = re.match(r"\s*", lines[first.lineno - 1]).group(0)
    lines.insert(first.lineno - 1, indent + "_ecg_bench_edit = 1\n")
    open(path, "w").write("".join(lines))


def same_records(a, b):
    for f in ("computation_graph.json", "execution_schedule.json"):
        with open(os.path.join(a, f), "rb") as x, open(os.path.join(b, f), "rb") as y:
            if x.read() != y.read():
                return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ecg", default="./ecg")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--entry", required=True)
    ap.add_argument("--edit", required=True, metavar="FILE:FUNCTION")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("job_args", nargs="*")
    a = ap.parse_args()
    ecg = os.path.abspath(a.ecg)
    efile, _, efunc = a.edit.partition(":")
    tmp = tempfile.mkdtemp(prefix="ecg-refresh-bench-")
    try:
        repo = os.path.join(tmp, "repo")
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", os.path.abspath(a.repo), repo],
                       check=True)
        A = git(repo, "rev-parse", a.rev + "^{commit}")
        git(repo, "checkout", "-q", A)
        edit_function(os.path.join(repo, efile), efunc)
        env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@ecg.invalid",
                   GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@ecg.invalid",
                   GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
        subprocess.run(["git", "-C", repo, "commit", "-q", "-a", "-m", "bench: one statement added"],
                       check=True, env=env)
        B = git(repo, "rev-parse", "HEAD")
        cache = os.path.join(tmp, "cache")
        recA = os.path.join(tmp, "recA")
        extra = ["--"] + a.job_args if a.job_args else []
        rc, dt, err = timed([ecg, "extract", "--repo", repo, "--rev", A, "--entry", a.entry, "--cache-dir", cache,
                             "--out", recA, "-q"] + extra)
        if rc != 0:
            sys.exit("refresh.py: extract at A failed (%d): %s" % (rc, err.strip()))
        time.sleep(0.05)
        marker = time.time()
        trees = os.path.join(cache, "trees")
        ntrees = len(os.listdir(trees))

        def round_check():
            return timed([ecg, "check", "--repo", repo, "--rev", A, "--out", recA, "-q"])

        def round_refresh():
            recR = os.path.join(tmp, "recR")
            shutil.rmtree(recR, ignore_errors=True)
            shutil.copytree(recA, recR)
            for f in os.listdir(trees):
                p = os.path.join(trees, f)
                if os.stat(p).st_mtime > marker:
                    os.unlink(p)
            return timed([ecg, "refresh", "--repo", repo, "--rev", B, "--out", recR, "--cache-dir", cache, "-q"])

        def round_extract():
            return timed([ecg, "extract", "--repo", repo, "--rev", B, "--entry", a.entry, "--no-cache",
                          "--out", os.path.join(tmp, "recE"), "-q"] + extra)

        ways = [("check", round_check), ("refresh", round_refresh), ("extract", round_extract)]
        times = {w: [] for w, _ in ways}
        for i in range(a.runs + 1):     # round 0, untimed: the page cache
            for w, f in ways:
                rc, dt, err = f()
                if rc != 0:             # check: 0 is fresh (1 would be stale)
                    sys.exit("refresh.py: %s failed in round %d (%d): %s" % (w, i, rc, err.strip()))
                if i:
                    times[w].append(dt)
        identical = same_records(os.path.join(tmp, "recR"), os.path.join(tmp, "recE"))
        new_trees = len(os.listdir(trees)) - ntrees
        ver = subprocess.run([ecg, "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]
        print("%s, %s at %s, entry %s, %d .py files read; %d rounds (%d CPUs)" %
              (ver, os.path.basename(os.path.abspath(a.repo)), A[:10], a.entry, ntrees, a.runs,
               os.cpu_count() or 1))
        print("B = A + one statement at the top of %s in %s" % (efunc, efile))
        med = {}
        for w, _ in ways:
            t = sorted(times[w])
            med[w] = t[len(t) // 2]
            print("  %-8s best %6.3f s   median %6.3f s" % (w, t[0], med[w]))
        best = {w: min(times[w]) for w, _ in ways}
        print("  ratio refresh / extract: %.2f (best), %.2f (median)" %
              (best["refresh"] / best["extract"], med["refresh"] / med["extract"]))
        print("  check on the unchanged repository under 100 ms: %s (best %.0f ms)" %
              ("PASS" if best["check"] < 0.1 else "FAIL", best["check"] * 1e3))
        print("  refreshed records = extract's, byte for byte: %s; trees added by the last refresh: %d" %
              ("yes" if identical else "NO", new_trees))
        return 0 if identical else 1
    finally:
        if a.keep:
            print("kept", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
