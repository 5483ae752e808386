#!/usr/bin/python3
"""Compare `ecg attribute --json` with a trace's expected attribution.

    compare.py REPORT.json EXPECTED.json GRAPH.json
    compare.py --truth REPORT.json TRUTH.json GRAPH.json

The second form checks the measured calls of every model, module, layer and
container entry against the calls PyTorch made, recorded with the trace by
tests/oracle/trace.py (TRUTH: {"models": {class: {"calls": {path: n}}}}):
an entry id covers the paths it names (`transformer.h.*` covers
transformer.h.0..N, `layers.1:6` covers layers.1..5), and its calls must
be the sum of theirs.  Entries the truth has no path for are reported.

EXPECTED (written with the trace, by whoever made it, never from ecg):
  calls              {entry id: calls the trace makes}            exact
  self_device_us     {entry id: {"fwd": us, "bwd": us}}  device time
                     issued by the entry itself; ecg reports it
                     inclusive of the entry's descendants, so it is rolled
                     up here along the records' parent links     exact
  unattributed_device_us                                           exact
  gaps               [{"cause", "host", "count", "schedule"}]      exact set
Prints one TAP-ish line per disagreement and exits 1 on any.
"""
import json
import sys


def main(rep_path, exp_path, graph_path):
    rep = json.load(open(rep_path))
    exp = json.load(open(exp_path))
    graph = json.load(open(graph_path))
    parent = {m["id"]: m.get("parent") for m in graph["modules"]}
    got = {e["id"]: e for e in rep["entries"]}
    bad = []

    for eid, n in sorted(exp.get("calls", {}).items()):
        g = got.get(eid)
        if g is None:
            bad.append("calls: %r is not in the report" % eid)
        elif g["calls"] != n:
            bad.append("calls: %r measured %r, the trace makes %r" % (eid, g["calls"], n))
    incl = {}
    for eid, d in exp.get("self_device_us", {}).items():
        x, hops = eid, 0
        while x is not None and hops < 1000:
            t = incl.setdefault(x, {"fwd": 0, "bwd": 0})
            t["fwd"] += d.get("fwd", 0)
            t["bwd"] += d.get("bwd", 0)
            x, hops = parent.get(x), hops + 1
    for eid, d in sorted(incl.items()):
        g = got.get(eid)
        if g is None:
            bad.append("device: %r is not in the report" % eid)
            continue
        for ph, key in (("fwd", "forward"), ("bwd", "backward")):
            if abs((g[key]["device_us"] or 0) - d[ph]) > 1e-6:
                bad.append("device %s: %r has %r us, the trace gives it %r" % (ph, eid, g[key]["device_us"], d[ph]))
    for eid, g in sorted(got.items()):
        if eid not in incl and ((g["forward"]["device_us"] or 0) or (g["backward"]["device_us"] or 0)):
            bad.append("device: %r got time the trace does not give it" % eid)
    if "unattributed_device_us" in exp:
        u = rep["unattributed"]["device_us"]
        if abs(u - exp["unattributed_device_us"]) > 1e-6:
            bad.append("unattributed device: %r us, expected %r" % (u, exp["unattributed_device_us"]))
    if "gaps" in exp:
        gg = sorted((g["cause"], g["host"], g["count"], g["schedule"]) for g in rep["gaps"]["groups"])
        ee = sorted((g["cause"], g["host"], g["count"], g["schedule"]) for g in exp["gaps"])
        if gg != ee:
            bad.append("gaps: got %s, expected %s" % (gg, ee))
    for b in bad:
        print("# " + b)
    return 1 if bad else 0


def covers(eid, path):
    if eid == "" or path == "":
        return eid == path
    a, b = eid.split("."), path.split(".")
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if not y.isdigit():
            return False
        if x == "*":
            continue
        if ":" in x:
            lo, hi = x.split(":", 1)
            if lo.isdigit() and hi.isdigit() and int(lo) <= int(y) < int(hi):
                continue
        return False
    return True


def truth(rep_path, truth_path, graph_path):
    rep = json.load(open(rep_path))
    tr = json.load(open(truth_path))
    graph = json.load(open(graph_path))
    mods = {m["id"]: m for m in graph["modules"]}
    bad, n = [], 0
    for e in rep["entries"]:
        if e["kind"] not in ("model", "module", "layer", "container"):
            continue
        root, hops = e["id"], 0
        while mods[root].get("parent") is not None and hops < 1000:
            root, hops = mods[root]["parent"], hops + 1
        cls = mods[root].get("class", "").rsplit(".", 1)[-1]
        calls = tr["models"].get(cls, {}).get("calls")
        if calls is None:
            bad.append("%r: the truth has no model %r" % (e["id"], cls))
            continue
        paths = [p for p in calls if covers(e["id"], p)]
        if not paths:
            bad.append("%r: covers no module that exists" % e["id"])
            continue
        want = sum(calls[p] for p in paths)
        n += 1
        if e["calls"] != want:
            bad.append("%r: measured %r calls, PyTorch made %r (%s)" % (e["id"], e["calls"], want, ", ".join(paths)))
    for b in bad:
        print("# " + b)
    print("# %d entries compared with the truth" % n)
    return 1 if bad or not n else 0


if __name__ == "__main__":
    if sys.argv[1] == "--truth":
        sys.exit(truth(*sys.argv[2:5]))
    sys.exit(main(*sys.argv[1:4]))
