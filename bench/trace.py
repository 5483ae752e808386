#!/usr/bin/python3
"""bench/trace.py - how fast does `ecg attribute` read a profiler trace?

    bench/trace.py --ecg ./ecg [--mb 200] [--runs 3] [--cache DIR] [--json]

Makes a large GPU-shaped trace of the amp_accum_resnet schedule fixture
(tests/traces/gpu/build.py with many steps; ~170 KB of JSON per step) and
its records (ecg extract on a copy of the fixture), gzips it, and times

  ecg      `ecg attribute --json --records R TRACE`, plain and gzip, timed
           whole (wall clock, best of --runs), with its peak RSS;
  python   /usr/bin/python3 -I -S doing json.load() of the same plain file
           and dropping it: what the least a Python tool holding the
           document costs, for scale (best of --runs, with its peak RSS);
  zcat     `zcat TRACE.gz > /dev/null`: decompression alone.

Prints MB/s of JSON text (and of gzip file), events/s, and peak RSS against
the file's size: ecg streams the text, so its RSS follows the events it keeps
(about 100 bytes each), not the document.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
PER_STEP = 170 * 1024


def run(argv, stdout=subprocess.DEVNULL):
    """Wall seconds and peak RSS (KB) of one child."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    return dt, ru.ru_maxrss, code, err


def best(argv, runs, stdout=subprocess.DEVNULL):
    res = [run(argv, stdout) for _ in range(runs)]
    for _, _, code, err in res:
        if code not in (0, 1):
            sys.exit("bench/trace.py: %s failed (%d): %s" % (argv[0], code, err.strip()))
    return min(r[0] for r in res), max(r[1] for r in res)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ecg", required=True)
    ap.add_argument("--mb", type=int, default=200, help="size of the trace's JSON text (default 200)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "ecg-bench-cache"))
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    steps = max(2, a.mb * 1024 * 1024 // PER_STEP)
    os.makedirs(a.cache, exist_ok=True)
    name = "trace-%d" % steps
    plain = os.path.join(a.cache, name + ".json")
    gz = plain + ".gz"
    if not os.path.exists(gz):
        print("making a %d-step trace in %s ..." % (steps, a.cache), file=sys.stderr)
        subprocess.check_call([a.python, os.path.join(SRC, "tests/traces/gpu/build.py"), a.cache, str(steps), name])
        with open(gz, "wb") as f:
            subprocess.check_call(["gzip", "-6", "-c", plain], stdout=f)
    repo = os.path.join(a.cache, "amp-records")
    if not os.path.exists(os.path.join(repo, "records", "computation_graph.json")):
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(os.path.join(SRC, "tests/schedule_fixtures/amp_accum_resnet"), repo)
        env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b",
                   GIT_COMMITTER_EMAIL="b@b")
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "fixture"]):
            subprocess.check_call(cmd, cwd=repo, env=env)
        subprocess.check_call([a.ecg, "extract", "--repo", repo, "--entry", "train.py", "-q"], stdout=subprocess.DEVNULL)
    text_mb = os.path.getsize(plain) / 1e6
    gz_mb = os.path.getsize(gz) / 1e6
    with open(plain) as f:
        events = sum(1 for line in f if line.startswith("{\""))
    records = os.path.join(repo, "records")

    t_plain, rss_plain = best([a.ecg, "attribute", "--json", "--records", records, plain], a.runs)
    t_gz, rss_gz = best([a.ecg, "attribute", "--json", "--records", records, gz], a.runs)
    t_py, rss_py = best([a.python, "-I", "-S", "-c", "import json,sys; json.load(open(sys.argv[1]))", plain],
                        a.runs)
    t_z, _ = best(["zcat", gz], a.runs)
    load = os.getloadavg()[0]
    res = {
        "trace_mb": round(text_mb, 1), "gzip_mb": round(gz_mb, 1), "events": events, "steps": steps,
        "ecg_plain_s": round(t_plain, 3), "ecg_plain_mb_s": round(text_mb / t_plain, 1),
        "ecg_plain_rss_mb": round(rss_plain / 1024, 1),
        "ecg_gzip_s": round(t_gz, 3), "ecg_gzip_text_mb_s": round(text_mb / t_gz, 1),
        "ecg_gzip_file_mb_s": round(gz_mb / t_gz, 1), "ecg_gzip_rss_mb": round(rss_gz / 1024, 1),
        "ecg_events_per_s": round(events / t_plain),
        "python_json_load_s": round(t_py, 3), "python_rss_mb": round(rss_py / 1024, 1),
        "zcat_s": round(t_z, 3), "load_average": round(load, 2),
    }
    if a.json:
        print(json.dumps(res, indent=2))
        return
    print("trace: %.1f MB of JSON (%.1f MB gzip), %d events, %d steps" % (text_mb, gz_mb, events, steps))
    print("ecg attribute, plain: %.2f s = %.1f MB/s, %.0f events/s, peak RSS %.1f MB" %
          (t_plain, text_mb / t_plain, events / t_plain, rss_plain / 1024))
    print("ecg attribute, gzip:  %.2f s = %.1f MB/s of text (%.1f MB/s of file), peak RSS %.1f MB" %
          (t_gz, text_mb / t_gz, gz_mb / t_gz, rss_gz / 1024))
    print("python3 json.load:    %.2f s, peak RSS %.1f MB   (ecg/python time %.2f)" %
          (t_py, rss_py / 1024, t_plain / t_py))
    print("zcat alone:           %.2f s" % t_z)
    print("load average: %.2f" % load)


if __name__ == "__main__":
    main()
