#!/usr/bin/python3
"""How fast is `ecg extract`, measured against CPython's own parser?

    run.py --ecg PATH [--repo REPO ...] [--files N] [--runs K] [--json]

For each repository -- a generated PyTorch-style one of N files (unless
--no-synthetic), every --repo, and a generated 10-file one -- the .py blobs
of HEAD are taken out with one `git cat-file --batch` before anything is
timed, into one length-prefixed file.  Then, best of K, wall clock, with the
peak RSS of each child from wait4():

  floor  /usr/bin/python3 -I -S reading that file and calling
         compile(src, path, 'exec', ast.PyCF_ONLY_AST) (what ast.parse does)
         on each blob, once with the cyclic GC disabled and once enabled;
         the floor is the faster of the two;
  ecg    ecg extract --repo REPO --out TMP, three ways: -j1 (parsed in the
         ecg process), -j2 (two parser processes) and ecg's default (no -j),
         interleaved with the floor's runs (unless --ecg-arg gives a -j: then
         that one way).

ecg's computation_graph.json is checked: its `files` must be the blobs the
floor parsed and its `parse_errors` as many as the floor's SyntaxErrors,
and every way must write the same records, byte for byte.
A 10-file generated repository gives the end-to-end time of a small job.

Exit status: 0 all goals met; 1 a goal missed; 2 ecg failed or its records
disagree with the floor.  stdlib only; a development tool, not part of ecg.
See bench/README.
"""

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True   # bench/ is in EXTRA_DIST: no __pycache__ there
import gen_repo                  # noqa: E402  (bench/ is sys.path[0])

GOAL_RATIO = 1.2       # -j1 (one process)
GOAL_RATIO_J2 = 0.65   # -j2 (two parser processes)
GOAL_RATIO_MIN_BYTES = 1000000   # below 1 MB of source the ratio is mostly start-up
GOAL_TINY_S = 0.050
TINY_FILES = 10
TINY_RUNS = 10          # at least this many runs of the small case: it is quick

# The floor process: start-up, one read, then ast.parse's compile() per blob.
# Blob file layout, repeated: path length (4 bytes, big endian), source length
# (4 bytes), path (UTF-8), source (bytes as in the blob).
FLOOR_SCRIPT = """\
import sys, gc
if sys.argv[2] == 'nogc':
    gc.disable()
with open(sys.argv[1], 'rb') as f:
    data = f.read()
n = errors = 0
i, end = 0, len(data)
while i < end:
    pl = int.from_bytes(data[i:i + 4], 'big')
    sl = int.from_bytes(data[i + 4:i + 8], 'big')
    i += 8
    path = data[i:i + pl].decode('utf-8', 'surrogateescape')
    i += pl
    src = data[i:i + sl]
    i += sl
    n += 1
    try:
        compile(src, path, 'exec', %d)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        errors += 1
sys.stdout.write('%%d %%d\\n' %% (n, errors))
""" % ast.PyCF_ONLY_AST


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def git(repo, *args, **kw):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          stdout=subprocess.PIPE, **kw).stdout


# ---------------------------------------------------------------- machine

def machine_info(ecg, python):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    pyver = subprocess.run([python, "-I", "-S", "-c", "import sys; print(sys.version.split()[0])"],
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    v = subprocess.run([ecg, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ecgver = (v.stdout.strip().splitlines() or ["(no output)"])[0]
    if v.returncode != 0:
        ecgver += " (exit %d)" % v.returncode
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "cpu": cpu,
        "kernel": os.uname().release,
        "python": pyver,
        "python_path": python,
        "ecg_version": ecgver,
        "ecg_path": os.path.abspath(ecg),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "loadavg_start": os.getloadavg()[0],
    }


# ---------------------------------------------------------------- children

# The children are started by a small helper process, not by this one: a
# child's ru_maxrss can never read below the high-water mark of the process
# that forked it (the kernel copies it at fork and carries it over exec).
# This process imports a good deal (about 12 MiB); a bare `python3 -I -S`
# that imports nothing more peaks at about 7.5 MiB, below anything it starts
# here, since the floor is that same interpreter and ecg embeds it.
SPAWNER = """\
import posix, sys, time
rd, wr = sys.stdin.buffer, sys.stdout
while True:
    line = rd.readline()
    if not line:
        break
    fields = [rd.read(int(rd.readline())) for _ in range(int(line))]
    out_path, err_path, argv = fields[0], fields[1], fields[2:]
    fds = [posix.open('/dev/null', posix.O_RDONLY),
           posix.open(out_path, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o644),
           posix.open(err_path, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o644)]
    t0 = time.perf_counter()
    pid = posix.fork()
    if pid == 0:
        try:
            for i in range(3):
                posix.dup2(fds[i], i)
            posix.execv(argv[0], argv)
        finally:
            posix._exit(127)
    _, status, ru = posix.wait4(pid, 0)
    wall = time.perf_counter() - t0
    for fd in fds:
        posix.close(fd)
    wr.write('%r %d %d %r\\n' % (wall, posix.waitstatus_to_exitcode(status),
                                ru.ru_maxrss, ru.ru_utime + ru.ru_stime))
    wr.flush()
"""


class Spawner:
    """fork/exec + wait4 in the helper process above.  run() gives the wall
    seconds, exit code, peak RSS (KiB) and user+system CPU seconds of one
    child, its stdin /dev/null and its stdout and stderr in files."""

    def __init__(self, python):
        self.p = subprocess.Popen([python, "-I", "-S", "-c", SPAWNER],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, argv, out_path, err_path):
        fields = [os.fsencode(x) for x in [out_path, err_path] + list(argv)]
        msg = b"%d\n" % len(fields) + b"".join(b"%d\n" % len(f) + f for f in fields)
        self.p.stdin.write(msg)
        self.p.stdin.flush()
        reply = self.p.stdout.readline().split()
        if len(reply) != 4:
            raise RuntimeError("the spawner helper died")
        return {"wall": float(reply[0]), "rc": int(reply[1]),
                "maxrss_kib": int(reply[2]), "cpu": float(reply[3])}

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def tail(path, n=2000):
    try:
        with open(path, "rb") as f:
            return f.read()[-n:].decode("utf-8", "replace")
    except OSError:
        return ""


# ---------------------------------------------------------------- the blobs

def py_blobs(repo):
    """(commit, [(path bytes, sha)]) for the regular-file .py blobs of HEAD."""
    commit = git(repo, "rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    entries = []
    for e in git(repo, "ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0"):
        if not e:
            continue
        meta, path = e.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755") and path.endswith(b".py"):
            entries.append((path, sha.decode()))
    return commit, entries


def write_blob_file(repo, entries, dest):
    """Stream the blobs through one `git cat-file --batch` into dest.
    Returns the total source bytes."""
    p = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():   # a thread, or both pipes fill up and block each other
        try:
            for _, sha in entries:
                p.stdin.write(sha.encode() + b"\n")
        finally:
            p.stdin.close()
    t = threading.Thread(target=feed)
    t.start()
    total = 0
    with open(dest, "wb") as out:
        for path, sha in entries:
            hdr = p.stdout.readline().split()
            if len(hdr) != 3 or hdr[1] != b"blob":
                raise RuntimeError("git cat-file: unexpected %r for %s" % (hdr, sha))
            size = int(hdr[2])
            out.write(len(path).to_bytes(4, "big") + size.to_bytes(4, "big") + path)
            left = size
            while left:
                chunk = p.stdout.read(min(left, 1 << 20))
                if not chunk:
                    raise RuntimeError("git cat-file: short read for %s" % sha)
                out.write(chunk)
                left -= len(chunk)
            p.stdout.read(1)   # the newline after each object
            total += size
    t.join()
    if p.wait() != 0:
        raise RuntimeError("git cat-file failed")
    return total


# ---------------------------------------------------------------- one repository

def best(runs):
    return min(r["wall"] for r in runs)


def repo_name(path):
    """A short name: foo for /x/foo, /x/foo.git and /x/foo/.git, and the
    directory above for a mirror's /x/owner+name/repo."""
    parts = [p for p in os.path.abspath(path).split("/") if p and p != ".git"]
    name = parts[-1] if parts else path
    if name == "repo" and len(parts) > 1:
        name = parts[-2]
    return name[:-4] if name.endswith(".git") else name


def bench_repo(name, repo, runs, a, work, problems):
    log("%s: reading the .py blobs of HEAD" % name)
    commit, entries = py_blobs(repo)
    blobfile = os.path.join(work, "blobs.bin")
    nbytes = write_blob_file(repo, entries, blobfile)
    out_txt, err_txt = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    res = {"name": name, "path": os.path.abspath(repo), "commit": commit,
           "files": len(entries), "bytes": nbytes}

    floor = {"nogc": [], "gc": []}
    ecg = {label: [] for label, _ in a.variants}
    records = None

    def floor_run(mode):
        r = a.spawner.run([a.python, "-I", "-S", "-c", FLOOR_SCRIPT, blobfile, mode], out_txt, err_txt)
        if r["rc"] != 0:
            raise RuntimeError("floor (%s) failed: %s" % (mode, tail(err_txt)))
        n, errors = (int(x) for x in open(out_txt).read().split())
        if n != len(entries):
            raise RuntimeError("floor parsed %d blobs of %d" % (n, len(entries)))
        r["errors"] = errors
        return r

    def ecg_run(args):
        """(result or None if ecg failed, its output directory)."""
        outdir = tempfile.mkdtemp(prefix="out-", dir=work)
        r = a.spawner.run([a.ecg, "extract", "--repo", repo, "--out", outdir] + a.ecg_arg + args,
                          out_txt, err_txt)
        if r["rc"] != 0:
            problems.append("%s: ecg extract %s exited %d: %s"
                            % (name, " ".join(a.ecg_arg + args), r["rc"], tail(err_txt).strip()))
            r = None
        return r, outdir

    def records_bytes(outdir):
        out = []
        for f in ("computation_graph.json", "execution_schedule.json"):
            try:
                with open(os.path.join(outdir, f), "rb") as fh:
                    out.append(fh.read())
            except OSError:
                out.append(None)
        return out

    # One untimed run of each warms the page cache; ecg's records are checked.
    log("%s: %d files, %.1f MB; warm-up" % (name, len(entries), nbytes / 1e6))
    floor_errors = floor_run("nogc")["errors"]
    ok = {}
    first = None
    for label, args in a.variants:
        ok[label], outdir = ecg_run(args)
        if ok[label]:
            got = records_bytes(outdir)
            if first is None:
                first = (label, got)
                records = check_records(name, outdir, commit, entries, floor_errors, a.python_version, problems)
            elif got != first[1]:
                problems.append("%s: MISMATCH: ecg %s and ecg %s wrote different records"
                                % (name, first[0], label))
        shutil.rmtree(outdir)
    res["floor_parse_errors"] = floor_errors
    res["records"] = records
    res["records_identical"] = first is not None and not any(
        "wrote different records" in p and p.startswith(name + ":") for p in problems)

    # Interleaved, so that a slow spell of the machine hits them all alike.
    log("%s: %d timed runs of each" % (name, runs))
    for k in range(runs):
        floor["nogc"].append(floor_run("nogc"))
        floor["gc"].append(floor_run("gc"))
        for label, args in a.variants:
            if ok[label]:
                r, outdir = ecg_run(args)
                shutil.rmtree(outdir)
                if r is None:
                    ok[label] = None
                else:
                    ecg[label].append(r)

    for mode in ("nogc", "gc"):
        res["floor_" + mode] = {
            "best_s": best(floor[mode]),
            "runs_s": [r["wall"] for r in floor[mode]],
            "cpu_s": min(r["cpu"] for r in floor[mode]),
            "maxrss_kib": max(r["maxrss_kib"] for r in floor[mode]),
        }
    fmode = min(("nogc", "gc"), key=lambda m: res["floor_" + m]["best_s"])
    res["floor_mode"] = fmode
    res["floor_s"] = res["floor_" + fmode]["best_s"]
    res["floor_maxrss_kib"] = res["floor_" + fmode]["maxrss_kib"]
    res["floor_cpu_s"] = res["floor_" + fmode]["cpu_s"]
    res["ecg"] = {}
    for label, _ in a.variants:
        v = {"args": a.ecg_arg + dict(a.variants)[label], "s": None, "ratio": None, "maxrss_kib": None,
             "cpu_s": None, "cpu_ratio": None}
        runs_l = ecg[label]
        if runs_l:
            v["s"] = best(runs_l)
            v["runs_s"] = [r["wall"] for r in runs_l]
            v["maxrss_kib"] = max(r["maxrss_kib"] for r in runs_l)
            v["cpu_s"] = min(r["cpu"] for r in runs_l)
            v["ratio"] = v["s"] / res["floor_s"]
            v["cpu_ratio"] = v["cpu_s"] / res["floor_cpu_s"]
        res["ecg"][label] = v
    return res


def check_records(name, outdir, commit, entries, floor_errors, python_version, problems):
    """What ecg's computation_graph.json says against what the floor parsed."""
    path = os.path.join(outdir, "computation_graph.json")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("%s: cannot read computation_graph.json: %s" % (name, e))
        return None
    if not os.path.exists(os.path.join(outdir, "execution_schedule.json")):
        problems.append("%s: ecg wrote no execution_schedule.json" % name)
    files = doc.get("files") or []
    errs = doc.get("parse_errors") or []
    rec = {"files": len(files), "parse_errors": len(errs),
           "commit": doc.get("commit"), "python": doc.get("python")}
    if len(files) != len(entries):
        problems.append("%s: MISMATCH: ecg's records list %d files, the floor parsed %d .py blobs"
                        % (name, len(files), len(entries)))
    want = {p.decode("utf-8", "surrogateescape") for p, _ in entries}
    have = {f.get("path") for f in files if isinstance(f, dict)}
    if want != have:
        only_ecg, only_floor = sorted(have - want), sorted(want - have)
        problems.append("%s: MISMATCH: file sets differ: %d only in ecg's records %s, %d only in HEAD's .py blobs %s"
                        % (name, len(only_ecg), only_ecg[:3], len(only_floor), only_floor[:3]))
    if len(errs) != floor_errors:
        problems.append("%s: MISMATCH: ecg reports %d parse errors, compile() raised %d"
                        % (name, len(errs), floor_errors))
    if doc.get("commit") != commit:
        problems.append("%s: MISMATCH: records say commit %s, HEAD is %s" % (name, doc.get("commit"), commit))
    if doc.get("python") and doc.get("python") != python_version:
        problems.append("%s: ecg's parser is Python %s, the floor's %s: the ratio compares different parsers"
                        % (name, doc.get("python"), python_version))
    return rec


def python_startup(a, work, runs):
    """Best wall time of `python3 -I -S -c pass`: the start-up inside the floor."""
    out_txt, err_txt = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    return min(a.spawner.run([a.python, "-I", "-S", "-c", "pass"], out_txt, err_txt)["wall"]
               for _ in range(runs + 1))


# ---------------------------------------------------------------- output

def fmt(x, spec):
    return "-" if x is None else spec % x


def mib(kib):
    return None if kib is None else kib / 1024


def report(result):
    m = result["machine"]
    print("machine: %d CPUs (%s), Linux %s; load average %.2f at start, %.2f at end"
          % (m["nproc"], m["cpu"], m["kernel"], m["loadavg_start"], m["loadavg_end"]))
    print("floor:   %s -I -S (Python %s)" % (m["python_path"], m["python"]))
    print("ecg:     %s (%s) extract %s" % (m["ecg_path"], m["ecg_version"],
                                        " | ".join(" ".join(args) or "(default)" for _, args in result["variants"])))
    print("date:    %s; best of %d runs (%d for the small one); wall clock; RSS: peak of the child"
          % (m["date"], result["runs"], max(result["runs"], TINY_RUNS)))
    if max(m["loadavg_start"], m["loadavg_end"]) > 0.25 * m["nproc"]:
        print("WARNING: other work is running (load average above); the times below are noisy")
    print()
    rows = list(result["repos"])
    if result["tiny"]:
        rows.append(result["tiny"])
    hdr = "%-24s %-8s %6s %6s %8s %8s %6s %8s %9s" % ("repo", "ecg", "files", "MB", "floor s", "ecg s",
                                                       "ratio", "ecg MiB", "floor MiB")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        for label, _ in result["variants"]:
            v = r["ecg"][label]
            print("%-24s %-8s %6d %6.2f %8.3f %8s %6s %8s %9.1f"
                  % (r["name"][:24], label, r["files"], r["bytes"] / 1e6, r["floor_s"],
                     fmt(v["s"], "%.3f"), fmt(v["ratio"], "%.2f"),
                     fmt(mib(v["maxrss_kib"]), "%.1f"), mib(r["floor_maxrss_kib"])))
    print()
    for r in rows:
        rec = r["records"] or {}
        print("%s: floor %.3f s with the gc off, %.3f s with it on (%.1f MB/s); "
              "cpu s: floor %.3f, ecg %s; records: %s files, %s parse errors "
              "(compile() raised %d), %s; commit %s"
              % (r["name"], r["floor_nogc"]["best_s"], r["floor_gc"]["best_s"],
                 r["bytes"] / 1e6 / r["floor_s"], r["floor_cpu_s"],
                 ", ".join("%s %s" % (label, fmt(r["ecg"][label]["cpu_s"], "%.3f"))
                           for label, _ in result["variants"]),
                 rec.get("files", "-"), rec.get("parse_errors", "-"), r["floor_parse_errors"],
                 "the same for every way" if r["records_identical"] else "NOT the same for every way",
                 r["commit"][:12]))
    t = result["tiny"]
    if t:
        print("%s: `python3 -I -S -c pass` alone %.1f ms (ecg has no way to time its own start-up alone)"
              % (t["name"], t["python_startup_s"] * 1e3))
    print("(the helper that starts the children peaks at %.1f MiB; no RSS above reads below that)"
          % mib(result["wrapper_rss_kib"]))
    print()
    for g in result["goals"]:
        print("%-60s %s" % (g["goal"] + ":", "PASS" if g["pass"] else "FAIL"))
    for p in result["problems"]:
        print("PROBLEM: " + p)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ecg", required=True, help="the ecg binary")
    ap.add_argument("--repo", action="append", default=[], help="also benchmark this repository's HEAD (repeatable)")
    ap.add_argument("--files", type=int, default=2000, help="files in the generated repository (default 2000)")
    ap.add_argument("--runs", type=int, default=5, help="best of K runs (default 5)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--no-synthetic", action="store_true", help="only the --repo repositories and the tiny case")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "ecg-bench-cache"),
                    help="where generated repositories are kept and reused (default $TMPDIR/ecg-bench-cache)")
    ap.add_argument("--python", default="/usr/bin/python3", help="the interpreter of the floor (default /usr/bin/python3)")
    ap.add_argument("--ecg-arg", action="append", default=[], metavar="ARG",
                    help="pass ARG to `ecg extract` as well (repeatable), e.g. --ecg-arg=-j2")
    a = ap.parse_args()
    if a.runs < 1 or a.files < 1:
        ap.error("--runs and --files must be at least 1")
    a.ecg = os.path.abspath(a.ecg)
    if any(x.startswith(("-j", "--jobs")) for x in a.ecg_arg):
        a.variants = [(" ".join(a.ecg_arg), [])]
    else:
        a.variants = [("-j1", ["-j1"]), ("-j2", ["-j2"]), ("default", [])]
    if not os.access(a.ecg, os.X_OK):
        ap.error("%s is not executable" % a.ecg)

    machine = machine_info(a.ecg, a.python)
    a.python_version = machine["python"]
    os.makedirs(a.cache, exist_ok=True)

    def synthetic(n):
        path = os.path.join(a.cache, "synth-v%d-n%d-s%d" % (gen_repo.GENERATOR_VERSION, n, gen_repo.DEFAULT_SEED))
        if not os.path.isdir(path):
            log("generating %d files into %s" % (n, path))
            # In a child, so that this process stays small (see SPAWNER).
            subprocess.run([sys.executable, "-I", gen_repo.__file__, "--files", str(n),
                            "--seed", str(gen_repo.DEFAULT_SEED), path],
                           check=True, stdout=subprocess.DEVNULL)
        return path

    repos = []
    if not a.no_synthetic:
        repos.append(("synthetic-%d" % a.files, synthetic(a.files)))
    for r in a.repo:
        repos.append((repo_name(r), r))
    tiny = synthetic(TINY_FILES)

    problems = []
    a.spawner = None
    work = tempfile.mkdtemp(prefix="ecg-bench-")
    try:
        a.spawner = Spawner(a.python)
        wrapper = a.spawner.run(["/bin/true"], os.devnull, os.devnull)["maxrss_kib"]
        results = []
        for name, path in repos:
            try:
                results.append(bench_repo(name, path, a.runs, a, work, problems))
            except (RuntimeError, subprocess.CalledProcessError) as e:
                problems.append("%s: %s" % (name, e))
        tiny_res = None
        try:
            tiny_res = bench_repo("synthetic-%d" % TINY_FILES, tiny, max(a.runs, TINY_RUNS), a, work, problems)
            tiny_res["python_startup_s"] = python_startup(a, work, max(a.runs, TINY_RUNS))
        except (RuntimeError, subprocess.CalledProcessError) as e:
            problems.append("synthetic-%d: %s" % (TINY_FILES, e))
    finally:
        if a.spawner:
            a.spawner.close()
        shutil.rmtree(work, ignore_errors=True)
    machine["loadavg_end"] = os.getloadavg()[0]

    goals = []
    for r in results:
        if r["bytes"] < GOAL_RATIO_MIN_BYTES:
            continue
        for label, limit in (("-j1", GOAL_RATIO), ("-j2", GOAL_RATIO_J2)):
            v = r["ecg"].get(label)
            if v is not None:
                goals.append({"goal": "%s: ecg %s / floor <= %.2f" % (r["name"], label, limit),
                              "pass": v["ratio"] is not None and v["ratio"] <= limit})
    tl = "default" if any(l == "default" for l, _ in a.variants) else a.variants[0][0]
    tv = tiny_res["ecg"][tl] if tiny_res else None
    goals.append({"goal": "%d-file repository end to end (ecg %s) < %d ms" % (TINY_FILES, tl, GOAL_TINY_S * 1000),
                  "pass": bool(tv and tv["s"] is not None and tv["s"] < GOAL_TINY_S)})
    result = {"machine": machine, "runs": a.runs, "ecg_args": a.ecg_arg, "variants": a.variants, "repos": results,
              "tiny": tiny_res, "wrapper_rss_kib": wrapper, "goals": goals, "problems": problems}
    if a.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        report(result)
    for p in problems:
        log("PROBLEM: " + p)
    if problems:
        return 2
    return 0 if all(g["pass"] for g in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
