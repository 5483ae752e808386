#!/usr/bin/python3
"""score.py -- repeat counts that a real job's configuration layers pin down

    score.py --ecg PATH [--mirror DIR] [--verbose] [JOB ...]

Standard library only.  Every tests/real/config/<job>.json names a public
repository at a commit, the job's entry and arguments, and the repeat counts
its configuration layers (command line, config files, registries) pin:

    {"repo": "owner/name", "commit": "<40 hex>", "entry": "FILE[:FUNC]",
     "argv": [...], "notes": "...",
     "counts": [{"id": "transformer.h.*", "count": 22, "wrong": [16]}],
     "classes": [{"id": "", "class": "GPT"}]}

A count may also carry "whole_model": n, the whole model's count of a block
a pipeline rank builds its share of (records.md: repeat.whole_model); ecg's
repeat.whole_model is judged the same way (absent: not given; another
number: wrong).  "wrong" lists counts that are known to be wrong for this invocation (a
default that a layer overrides).  ecg is run as

    ECG extract --repo SRC --rev COMMIT --entry ENTRY --out TMP --no-cache -q -- argv

and each labelled module's repeat.count is judged: the count (right), null
(not given: allowed, when ecg says why), anything else (wrong).  The source
is $ECG_REAL_MIRROR (default /work/.mirror)/<owner>+<name>/repo; a job whose
source or commit is absent is skipped.  Exit 1 when a count is wrong (a
wrong count is never acceptable), when ecg fails, or when a label is
malformed; with ECG_REAL_STRICT=1 also when a count is not given.

"classes" (optional) names the model's class at a module path (issue 16:
"job type, model class, the repeating block with its count"): the entry
of that id must exist with that class; another class, or no entry, is
wrong (exit 1).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    ecg, mirror, verbose, jobs = None, os.environ.get("ECG_REAL_MIRROR", "/work/.mirror"), False, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--ecg" and i + 1 < len(argv):
            ecg = argv[i + 1]
            i += 1
        elif a == "--mirror" and i + 1 < len(argv):
            mirror = argv[i + 1]
            i += 1
        elif a == "--verbose" or a == "-v":
            verbose = True
        elif a.startswith("-"):
            print("score.py: unknown option %s" % a, file=sys.stderr)
            return 2
        else:
            jobs.append(a)
        i += 1
    if not ecg:
        print("usage: score.py --ecg PATH [--mirror DIR] [--verbose] [JOB ...]", file=sys.stderr)
        return 2
    names = jobs or sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".json"))
    status, right, given, total, scored = 0, 0, 0, 0, 0
    cls_right, cls_total = 0, 0
    for name in names:
        with open(os.path.join(HERE, name + ".json")) as fh:
            lab = json.load(fh)
        src = os.path.join(mirror, lab["repo"].replace("/", "+"), "repo")
        if not os.path.isdir(mirror) or not os.path.isdir(src) or subprocess.run(
                ["git", "--git-dir", src, "cat-file", "-e", lab["commit"] + "^{commit}"],
                stderr=subprocess.DEVNULL).returncode != 0:
            print("skip %s: source not present at %s" % (name, src), file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory() as out:
            cmd = [ecg, "extract", "--repo", src, "--rev", lab["commit"], "--entry", lab["entry"],
                   "--out", out, "--no-cache", "-q", "--"] + lab.get("argv", [])
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode not in (0, 6):
                print("%s: ecg exited %d: %s" % (name, p.returncode, p.stderr.decode(errors="replace")[-400:]))
                status = 1
                continue
            with open(os.path.join(out, "computation_graph.json")) as fh:
                g = json.load(fh)
        scored += 1
        mods = {m["id"]: m for m in g.get("modules", [])}
        for c in lab["counts"]:
            total += 1
            rep = (mods.get(c["id"]) or {}).get("repeat") or {}
            got = rep.get("count")
            if got == c["count"]:
                right += 1
                given += 1
                verdict = "right"
            elif got is None:
                verdict = "not given (%s)" % (rep.get("reason") or "no entry" if rep else "no entry")
            else:
                given += 1
                verdict = "WRONG (want %r%s)" % (c["count"], ", a known wrong value" if got in c.get("wrong", []) else "")
                status = 1
            if "whole_model" in c:
                total += 1
                w = rep.get("whole_model")
                if w == c["whole_model"]:
                    right += 1
                    given += 1
                    verdict += "; whole_model %s right" % json.dumps(w)
                elif w is None:
                    verdict += "; whole_model not given"
                else:
                    given += 1
                    verdict += "; whole_model %s WRONG (want %r)" % (json.dumps(w), c["whole_model"])
                    status = 1
            print("%-28s %-24s count %-5s %s" % (name, c["id"], json.dumps(got), verdict))
            if verbose and rep:
                print("    %s" % json.dumps(rep))
        for c in lab.get("classes", []):
            cls_total += 1
            got = (mods.get(c["id"]) or {}).get("class")
            if got == c["class"]:
                cls_right += 1
                verdict = "right"
            else:
                verdict = "WRONG (want %s)" % c["class"] if c["id"] in mods else "WRONG (no entry %r)" % c["id"]
                status = 1
            print("%-28s %-24s class %-16s %s" % (name, c["id"] or "(model)", got, verdict))
    print("totals: counts right %d/%d, given %d, wrong %d; model classes right %d/%d"
          % (right, total, given, given - right, cls_right, cls_total))
    print("config: %d jobs scored" % scored)
    if os.environ.get("ECG_REAL_STRICT") == "1" and given < total:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
