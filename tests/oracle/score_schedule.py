#!/usr/bin/python3
"""score_schedule.py -- score ecg's execution_schedule.json against a fixture's expected.json

    score_schedule.py EXPECTED.json SCHEDULE.json [--json] [--verbose]
    score_schedule.py --self-test [EXPECTED.json ...]
    score_schedule.py --perfect EXPECTED.json [--header SCHEDULE.json]

Standard library only.  EXPECTED.json is a hand-written expectation for one
fixture job (tests/schedule_fixtures/<name>/expected.json), SCHEDULE.json is
what `ecg extract` wrote (contract: shared/design/records.md).  Exit status:
0 when every metric passes, 1 when one does not, 2 on bad input.

EXPECTED.json
-------------

    {"entry": "train.py", "argv": [...],          how ecg is run on the job
     "env": {...},                                optional: the job's environment, every
                                                  other variable unset (ecg --no-env --env K=V)
     "job_type": "training" | "inference_serving" | "batch" | null,
                                                  null: the job must not be typed (the code
                                                  seen does not decide it)
     "syncs":     [{"anchor", "call", "note"}],   every host<-device sync point
     "not_syncs": [{"anchor", "note"}],           look-alikes: must not be flagged
     "h2d":       [{"anchor", "call", "pinned": true|false|null,
                    "non_blocking": true|false, "note"}],
     "not_h2d":   [{"anchor", "note"}],           optional: must not be flagged
     "collectives": [{"anchor", "op", "parallelism",
                      "async_op": true|false|"implicit",
                      "implied_by": null|"DistributedDataParallel"|..., "note"}],
     "not_collectives": [{"anchor", "note"}],     optional: must not be flagged
     "parallel": {"tensor": {"size": 8, "via": "override"}, ...}
                                                  optional: the header's parallel degrees
                                                  (size, and via when named), scored with
                                                  compute_overlap
     "backward": "path:Symbol:line",              optional: compute.backward's anchor, the
                                                  step's backward (scored with compute_overlap)
     "step": "path:Symbol:line",                  optional: entrypoint.step, the loop or
                                                  handler that is one step of the job;
                                                  null: entrypoint.step must be null
     "conditions_checked": true,                  optional: each row's "condition" is
                                                  scored (null: ecg's rows there carry
                                                  none; a text: each carries one)
     "notes": "..."}

A sync or h2d entry may also name its "frequency" (FREQ below) and its
"phase" (a name or a list of accepted names); the collectives likewise.

FREQ is how often the event runs, in the unit of the loop around it:
"once" | "micro-step" | "micro-step/16" (a guard on the pass counter) |
"step" | "step/250" (every 250 steps) | "epoch" |
"epoch/20" | "token" | "request" | "batch" | "eval", with an optional "xN"
for N runs each time ("step/250x640"; "x?" when the count depends on data,
and ecg must then state no count: a stated one is wrong; "x1" when the
code pins one run each time: a stated count above 1 is wrong, and without
any "xN" the count is not checked).
ecg's text ("every eval_interval=250 steps \u00d7640", "every token",
"once") is read into the same (unit, every, times).

Anchors are the contract's `path/file.py:Qualified.symbol:line`.  One entry
per line: two copies on one line are one h2d entry, two .item() calls in one
print are one sync.  --self-test checks every anchor against the fixture's
source (the directory of EXPECTED.json): the file exists, the line holds code,
and the innermost def/class around it has that qualified name (module-level
code is <module>; comprehensions belong to the function around them), and
the line shows the call (a sync's or copy's "call" up to its first "(", a
called collective's op or its torch spelling).

Metrics (per fixture; every one must pass)
------------------------------------------

1. syncs -- sets of anchors; recall >= 95%, precision >= 90%, and no
   look-alike flagged.
   ecg's sync set: the anchors of its host_device entries of kind "sync",
   and of kind "d2h" whose non_blocking is not true (a blocking copy to the
   host waits for the device: the contract lists .cpu() among the syncs).
   recall = expected anchors ecg has / expected anchors;
   precision = ecg anchors expected / ecg anchors, where an ecg anchor at
   an expected h2d entry with non_blocking false is neutral (left out of
   both counts): a blocking H2D copy does make the host wait for the
   stream (copy then synchronize), so calling it a sync is not wrong, but
   it is scored under h2d.  An ecg anchor listed in not_syncs fails the
   metric whatever the rates ("flagged").  No expected sync and none
   reported: recall and precision are vacuous (100%).

2. collectives -- matched on (anchor, op); 100% of the expected ones found
   with the right parallelism (and the right async_op); none listed in
   not_collectives flagged; and when the expected list is empty (the job
   issues no collective), none reported at all.
   ops are compared after stripping a "torch.distributed." / "dist."
   prefix and folding aliases (all_to_all_single -> all_to_all,
   all_gather_into_tensor / _all_gather_base -> all_gather,
   reduce_scatter_tensor / _reduce_scatter_base -> reduce_scatter,
   isend -> send, irecv -> recv).  When ecg has several entries with one
   (anchor, op) (FSDP's all-gather before forward and before backward)
   every one must have the right parallelism / async_op.  ecg collectives
   that match nothing are reported ("extra", with precision) but do not
   fail the metric unless listed in not_collectives or the expected list
   is empty.  implied_by is reported, not scored.

3. h2d -- matched on anchor among ecg's entries of kind "h2d"; recall >= 95%
   where an entry counts only when pinned and non_blocking are right (equal
   to the expected values, null included; every ecg h2d entry at that
   anchor must agree); no not_h2d anchor flagged.  Extras are reported.

4. job_type -- job_type.value equals the expected value.

5. compute_overlap -- the compute and overlap facts the expectation names.

6. step_freq -- when the expectation names them: entrypoint.step equals
   "step", and every ecg row at an entry with a "frequency" / "phase"
   has that frequency / one of those phases (a row ecg does not report is
   scored by the metric of its kind, not here).

--json prints {"fixture", "pass", "syncs", "collectives", "h2d", "job_type"},
each metric with "pass", its counts, rates and lists.

--perfect prints the execution schedule a perfect ecg would write for
EXPECTED.json: the header and other sections of --header SCHEDULE.json (or
empty ones) with job_type, host_device and device_device built from the
expectation, in the record's canonical layout.

--self-test checks each expected.json (well-formed, anchors resolve in the
source), that its perfect schedule passes every metric at 100%, and that
broken copies (syncs missing, a look-alike flagged, extra syncs, a
collective missing or with the wrong parallelism / async_op, a look-alike
collective, pinned or non_blocking wrong, an h2d look-alike flagged, the
wrong job type) fail the metric they break and only that one.  With no
argument it takes every tests/schedule_fixtures/*/expected.json.
"""
import ast
import copy
import json
import math
import os
import re
import sys

THRESHOLDS = {"sync_recall": 0.95, "sync_precision": 0.90, "h2d_recall": 0.95, "collective_recall": 1.0}
METRICS = ("syncs", "collectives", "h2d", "job_type", "compute_overlap", "step_freq")
JOB_TYPES = ("training", "inference_serving", "batch")
PARALLELISMS = ("data", "tensor", "pipeline", "expert", "sequence", "context")
SEG = r"(?:[^\W\d]\w*|<locals>|<lambda>)"
ANCHOR = re.compile(r"((?:(?!\.\.?/)[^/:\x00-\x1f]+/)*[^/:\x00-\x1f]*\.py)"
                    rf":(<module>|{SEG}(?:\.{SEG})*):([1-9][0-9]*)")
OP_ALIASES = {
    "all_to_all_single": "all_to_all",
    "all_gather_into_tensor": "all_gather",
    "_all_gather_base": "all_gather",
    "reduce_scatter_tensor": "reduce_scatter",
    "_reduce_scatter_base": "reduce_scatter",
    "isend": "send",
    "irecv": "recv",
}


class InputError(Exception):
    pass


# ---------------------------------------------------------------- frequency

FREQ = re.compile(r"(once|micro-step|step|epoch|token|request|batch|eval)(?:/([0-9]+))?(?:x([0-9]+|\?))?")


def parse_label_freq(s):
    m = FREQ.fullmatch(s)
    return (m.group(1), int(m.group(2)) if m.group(2) else None,
            None if not m.group(3) or m.group(3) == "?" else int(m.group(3)))


def parse_ecg_freq(s):
    """ecg's frequency text -> (unit, every, times); unit None when unreadable."""
    if not isinstance(s, str):
        return (None, None, None)
    t = s.lower()
    times = None
    m = re.search(r"(?:x|\u00d7)\s*([0-9]+)|([0-9]+)\s+times", t)
    if m:
        times = int(m.group(1) or m.group(2))
    unit = None
    # the unit is named before the count and its loop's text: "every
    # N steps ×? (`map(decode_token, tokens)`)" is per step
    head = re.split(r"\u00d7| x[0-9?]| \(", t, maxsplit=1)[0]
    # whole words only: "every eval_interval=2000 steps" (or "every
    # eval.interval=1000 steps", a dotted name) is per step, not per eval
    for u, pat in (("once", r"\bonce\b"), ("micro-step", r"\bmicro[- ]?steps?\b"),
                   ("token", r"\btokens?\b"), ("request", r"\brequests?\b"), ("epoch", r"\bepochs?\b"),
                   ("eval", r"\b(?:every|per) evals?\b(?!\.\w)"), ("batch", r"\bbatch(?:es)?\b"), ("step", r"\bsteps?\b")):
        if re.search(pat, head):
            unit = u
            break
    every = None
    if unit == "micro-step":
        # "every log_interval=16 micro-steps": a guard on the pass counter
        m = re.search(r"=\s*([0-9]+)\s+micro[- ]?steps?\b", t) or re.search(r"every\s+([0-9]+)\s+micro[- ]?steps?\b", t)
        if m:
            every = int(m.group(1))
        elif re.search(r"every\s+[A-Za-z_][\w.\[\]\"']*\s+micro[- ]?steps?\b", t):
            every = "?"
    elif unit not in (None, "once"):
        m = re.search(r"=\s*([0-9]+)\s+%ss?\b" % re.escape(unit), t) or \
            re.search(r"every\s+([0-9]+)\s+%ss?\b" % re.escape(unit), t)
        if m:
            every = int(m.group(1))
        elif re.search(r"every\s+[A-Za-z_][\w.]*\s+%ss?\b" % re.escape(unit), t):
            every = "?"
    if every == 1:
        every = None
    return (unit, every, times)


def freq_ok(want, got, step_unit=None, one_micro=False):
    wu, we, wt = parse_label_freq(want)
    gu, ge, gt = parse_ecg_freq(got)
    if one_micro and gu == "micro-step":   # one micro-step per step: the same thing
        gu = "step"
    if step_unit and gu == "step":   # the step loop is itself per token / per request
        gu = step_unit
    if we == 1:
        we = None
    if isinstance(want, str) and want.endswith("x?") and gt is not None:
        return False   # a count the code does not pin down, stated: a wrong row
    # "x1" pins one run each time (ecg writes no count, or x1); no "xN" at
    # all leaves the count unchecked
    return wu == gu and we == ge and (wt is None or wt == (1 if gt is None else gt))


def freq_text(want):
    """A label frequency written as ecg writes one (the perfect schedule)."""
    u, every, times = parse_label_freq(want)
    head = "once" if u == "once" else "every micro-step" if u == "micro-step" and not every else \
        "every %d %ss" % (every, u) if every else "every %s" % u
    m = FREQ.fullmatch(want)
    return head + (" \u00d7%s" % m.group(3) if m.group(3) else "")


def step_anchor(expected):
    st = expected.get("step")
    return st.get("anchor") if isinstance(st, dict) else st


def norm_op(op):
    if not isinstance(op, str):
        return op
    for prefix in ("torch.distributed.", "dist."):
        if op.startswith(prefix):
            op = op[len(prefix):]
    return OP_ALIASES.get(op, op)


def anchors_of(lst):
    return [x["anchor"] for x in lst or ()]


# ---------------------------------------------------------------- scoring

def score(expected, sched, name="?"):
    """Score one schedule document against one expectation; returns the result dict."""
    hd = [h for h in sched.get("host_device") or [] if isinstance(h, dict)]
    dd = [c for c in sched.get("device_device") or [] if isinstance(c, dict)]
    r = {"fixture": name}

    # 1. syncs
    want = set(anchors_of(expected.get("syncs")))
    neg = set(anchors_of(expected.get("not_syncs")))
    neutral = {h["anchor"] for h in expected.get("h2d") or () if h.get("non_blocking") is False} - want
    got = set()
    for h in hd:
        if h.get("kind") == "sync" or (h.get("kind") == "d2h" and h.get("non_blocking") is not True):
            if isinstance(h.get("anchor"), str):
                got.add(h["anchor"])
    judged = got - neutral
    hit = want & got
    recall = len(hit) / len(want) if want else 1.0
    precision = len(hit) / len(judged) if judged else 1.0
    flagged = sorted(got & neg)
    r["syncs"] = {
        "expected": len(want), "reported": len(judged), "matched": len(hit),
        "recall": recall, "precision": precision,
        "neutral": sorted(got & neutral),
        "missing": sorted(want - got), "extra": sorted(judged - want - neg), "flagged": flagged,
        "pass": recall >= THRESHOLDS["sync_recall"] and precision >= THRESHOLDS["sync_precision"] and not flagged,
    }

    # 2. collectives
    by_key = {}
    for c in dd:
        by_key.setdefault((c.get("anchor"), norm_op(c.get("op"))), []).append(c)
    exp_coll = expected.get("collectives") or []
    right, missing, wrong = 0, [], []
    exp_keys = set()
    for e in exp_coll:
        key = (e["anchor"], norm_op(e["op"]))
        exp_keys.add(key)
        found = by_key.get(key)
        label = "%s %s" % (e["op"], e["anchor"])
        if not found:
            missing.append("%s (%s, async_op %s)" % (label, e["parallelism"], json.dumps(e.get("async_op"))))
            continue
        bad = []
        for c in found:
            if c.get("parallelism") != e["parallelism"]:
                bad.append("parallelism %s, want %s" % (json.dumps(c.get("parallelism")), e["parallelism"]))
            if "async_op" in e and c.get("async_op") != e["async_op"]:
                bad.append("async_op %s, want %s" % (json.dumps(c.get("async_op")), json.dumps(e["async_op"])))
        if bad:
            wrong.append("%s: %s" % (label, "; ".join(sorted(set(bad)))))
        else:
            right += 1
    neg_c = set(anchors_of(expected.get("not_collectives")))
    extra = sorted("%s %s (%s%s)" % (k[1], k[0], v[0].get("parallelism"),
                                      ", implied_by " + v[0]["implied_by"] if v[0].get("implied_by") else "")
                   for k, v in by_key.items() if k not in exp_keys)
    flagged_c = sorted({c.get("anchor") for c in dd if c.get("anchor") in neg_c})
    n_keys = len(by_key)
    c_recall = right / len(exp_coll) if exp_coll else 1.0
    none_expected_but_reported = not exp_coll and bool(dd)
    r["collectives"] = {
        "expected": len(exp_coll), "reported": n_keys, "right": right,
        "recall": c_recall,
        "precision": (len(set(by_key) & exp_keys) / n_keys) if n_keys else None,
        "missing": missing, "wrong": wrong, "extra": extra, "flagged": flagged_c,
        "implied_by": sorted("%s %s: %s" % (k[1], k[0], v[0].get("implied_by"))
                             for k, v in by_key.items() if k in exp_keys and v[0].get("implied_by")),
        "none_expected_but_reported": none_expected_but_reported,
        "pass": c_recall >= THRESHOLDS["collective_recall"] and not flagged_c and not none_expected_but_reported,
    }

    # 3. h2d
    h2d_at = {}
    for h in hd:
        if h.get("kind") == "h2d":
            h2d_at.setdefault(h.get("anchor"), []).append(h)
    exp_h = expected.get("h2d") or []
    ok_h, missing_h, wrong_h = 0, [], []
    for e in exp_h:
        found = h2d_at.get(e["anchor"])
        if not found:
            missing_h.append("%s (pinned %s, non_blocking %s)" % (e["anchor"], json.dumps(e["pinned"]),
                                                                  json.dumps(e["non_blocking"])))
            continue
        bad = []
        for h in found:
            if h.get("pinned") != e["pinned"]:
                bad.append("pinned %s, want %s" % (json.dumps(h.get("pinned")), json.dumps(e["pinned"])))
            if h.get("non_blocking") != e["non_blocking"]:
                bad.append("non_blocking %s, want %s" % (json.dumps(h.get("non_blocking")),
                                                         json.dumps(e["non_blocking"])))
        if bad:
            wrong_h.append("%s: %s" % (e["anchor"], "; ".join(sorted(set(bad)))))
        else:
            ok_h += 1
    neg_h = set(anchors_of(expected.get("not_h2d")))
    exp_h_anchors = set(anchors_of(exp_h))
    flagged_h = sorted(a for a in h2d_at if a in neg_h)
    h_recall = ok_h / len(exp_h) if exp_h else 1.0
    r["h2d"] = {
        "expected": len(exp_h), "reported": len(h2d_at), "right": ok_h, "recall": h_recall,
        "precision": (len(set(h2d_at) & exp_h_anchors) / len(h2d_at)) if h2d_at else None,
        "missing": missing_h, "wrong": wrong_h,
        "extra": sorted(a for a in h2d_at if a not in exp_h_anchors and a not in neg_h), "flagged": flagged_h,
        "pass": h_recall >= THRESHOLDS["h2d_recall"] and not flagged_h,
    }

    # 4. job type
    jt = sched.get("job_type")
    got_jt = jt.get("value") if isinstance(jt, dict) else None
    r["job_type"] = {"expected": expected["job_type"], "got": got_jt, "pass": got_jt == expected["job_type"]}

    # 5. compute and overlap facts the expectation names (optional keys):
    #    "overlap": [{"anchor", "stream"}] must each be in ecg's overlap with
    #    that stream; "ema": the anchor of compute.ema; "backward": the
    #    anchor of compute.backward (the step's backward)
    fails = []
    ov = [o for o in sched.get("overlap") or [] if isinstance(o, dict)]
    for want_o in expected.get("overlap") or []:
        if not any(o.get("anchor") == want_o["anchor"] and o.get("stream") == want_o.get("stream") for o in ov):
            fails.append("overlap at %s on stream %r not reported" % (want_o["anchor"], want_o.get("stream")))
    if expected.get("ema"):
        comp = sched.get("compute") if isinstance(sched.get("compute"), dict) else {}
        ema = comp.get("ema") if isinstance(comp.get("ema"), dict) else {}
        if ema.get("anchor") != expected["ema"]:
            fails.append("compute.ema at %s, want %s" % (ema.get("anchor"), expected["ema"]))
    if expected.get("backward"):
        comp = sched.get("compute") if isinstance(sched.get("compute"), dict) else {}
        bw = comp.get("backward") if isinstance(comp.get("backward"), dict) else {}
        if bw.get("anchor") != expected["backward"]:
            fails.append("compute.backward at %s, want %s" % (bw.get("anchor"), expected["backward"]))
    # the parallel layout (header key "parallel"): each degree named with
    # its size (null included) and, when named, its via
    par = sched.get("parallel") if isinstance(sched.get("parallel"), dict) else {}
    for k, want_p in sorted((expected.get("parallel") or {}).items()):
        got_p = par.get(k) if isinstance(par.get(k), dict) else {}
        if got_p.get("size") != want_p.get("size") or ("via" in want_p and got_p.get("via") != want_p["via"]):
            fails.append("parallel.%s %r via %r, want %r via %r" % (k, got_p.get("size"), got_p.get("via"),
                                                                  want_p.get("size"), want_p.get("via")))
    r["compute_overlap"] = {"checked": len(expected.get("overlap") or []) + (1 if expected.get("ema") else 0)
                            + (1 if expected.get("backward") else 0)
                            + len(expected.get("parallel") or {}),
                            "pass": not fails, "failures": fails}

    # 6. the step, and the frequency / phase of the rows that name them
    fails = []
    checked = 0
    if step_anchor(expected) or ("step" in expected and expected["step"] is None):
        checked += 1
        ep = sched.get("entrypoint") if isinstance(sched.get("entrypoint"), dict) else {}
        if ep.get("step") != step_anchor(expected):
            fails.append("step %s, want %s" % (ep.get("step"), step_anchor(expected)))
    st = expected.get("step") if isinstance(expected.get("step"), dict) else {}
    rows = {"syncs": [h for h in hd if h.get("kind") == "sync" or (h.get("kind") == "d2h" and h.get("non_blocking") is not True)],
            "h2d": [h for h in hd if h.get("kind") == "h2d"], "collectives": dd}
    for k in ("syncs", "h2d", "collectives"):
        for e in expected.get(k) or []:
            found = [x for x in rows[k] if x.get("anchor") == e["anchor"] and
                     (k != "collectives" or norm_op(x.get("op")) == norm_op(e["op"]))]
            if not found:
                continue
            if e.get("frequency"):
                checked += 1
                bad = sorted({str(x.get("frequency")) for x in found
                              if not freq_ok(e["frequency"], x.get("frequency"), st.get("unit"), st.get("micro_steps") == 1)})
                if bad:
                    fails.append("%s %s: frequency %s, want %s" % (k, e["anchor"], " / ".join(bad), e["frequency"]))
            # "conditions_checked": true (opt-in): a row's "condition" null
            # wants ecg's rows there with none, a text wants one on each
            if expected.get("conditions_checked") and "condition" in e:
                checked += 1
                bad = sorted({str(x.get("condition")) for x in found
                              if bool(x.get("condition")) != bool(e["condition"])})
                if bad:
                    fails.append("%s %s: condition %s, want %s" % (k, e["anchor"], " / ".join(bad),
                                                                   json.dumps(e["condition"])))
            if e.get("phase"):
                checked += 1
                ok_ph = e["phase"] if isinstance(e["phase"], list) else [e["phase"]]
                bad = sorted({str(x.get("phase")) for x in found if x.get("phase") not in ok_ph})
                if bad:
                    fails.append("%s %s: phase %s, want %s" % (k, e["anchor"], "/".join(bad), "|".join(ok_ph)))
    r["step_freq"] = {"checked": checked, "pass": not fails, "failures": fails}
    r["pass"] = all(r[m]["pass"] for m in METRICS)
    return r


# ---------------------------------------------------------------- output

def pct(x):
    return "n/a" if x is None else "%.1f%%" % (100.0 * x)


def print_table(r, verbose=False, out=sys.stdout):
    def row(name, got, rate, need, ok):
        out.write("%-34s %-12s %-7s %-7s %s\n" % (name, got, rate, need, "PASS" if ok else "FAIL"))

    def items(title, lst):
        if lst:
            out.write("  %s (%d):\n" % (title, len(lst)))
            for s in lst:
                out.write("    %s\n" % s)

    s, c, h, j = r["syncs"], r["collectives"], r["h2d"], r["job_type"]
    out.write("fixture %s: %s\n" % (r["fixture"], "PASS" if r["pass"] else "FAIL"))
    out.write("%-34s %-12s %-7s %-7s %s\n" % ("metric", "got", "rate", "need", "result"))
    row("sync recall", "%d/%d" % (s["matched"], s["expected"]), pct(s["recall"]), ">=95%",
        s["recall"] >= THRESHOLDS["sync_recall"])
    row("sync precision", "%d/%d" % (s["matched"], s["reported"]), pct(s["precision"]), ">=90%",
        s["precision"] >= THRESHOLDS["sync_precision"])
    row("sync look-alikes flagged", str(len(s["flagged"])), "", "0", not s["flagged"])
    items("expected syncs ecg misses", s["missing"])
    items("look-alikes ecg flags as syncs", s["flagged"])
    items("ecg syncs not expected", s["extra"])
    if verbose:
        items("blocking H2D copies ecg calls syncs (neutral)", s["neutral"])
    row("collectives (op, parallelism)", "%d/%d" % (c["right"], c["expected"]), pct(c["recall"]), "100%",
        c["recall"] >= THRESHOLDS["collective_recall"])
    row("collective look-alikes flagged", str(len(c["flagged"])), "", "0", not c["flagged"])
    if c["none_expected_but_reported"]:
        row("no collective in this job", "%d reported" % c["reported"], "", "0", False)
    items("expected collectives ecg misses", c["missing"])
    items("found, but wrong", c["wrong"])
    items("look-alikes ecg reports as collectives", c["flagged"])
    items("ecg collectives not expected (reported, precision %s)" % pct(c["precision"]), c["extra"])
    if verbose:
        items("implied_by", c["implied_by"])
    row("h2d (pinned, non_blocking)", "%d/%d" % (h["right"], h["expected"]), pct(h["recall"]), ">=95%",
        h["recall"] >= THRESHOLDS["h2d_recall"])
    row("h2d look-alikes flagged", str(len(h["flagged"])), "", "0", not h["flagged"])
    items("expected copies ecg misses", h["missing"])
    items("found, but wrong", h["wrong"])
    items("look-alikes ecg reports as h2d", h["flagged"])
    items("ecg h2d not expected (reported, precision %s)" % pct(h["precision"]), h["extra"])
    row("job type", str(j["got"]), "", j["expected"], j["pass"])
    co, sf = r["compute_overlap"], r["step_freq"]
    row("compute and overlap facts", "%d checked" % co["checked"], "", "all", co["pass"])
    items("compute and overlap facts wrong", co["failures"])
    row("step, phases, frequencies", "%d checked" % sf["checked"], "", "all", sf["pass"])
    items("step, phases or frequencies wrong", sf["failures"])


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError) as e:
        raise InputError("cannot read %s %s: %s" % (what, path, e))


# ---------------------------------------------------------------- expected.json checks

def scope_at(tree, line):
    """Qualified name of the innermost def/class whose body holds `line`, by
    Python's __qualname__ rules (comprehensions fold into the function around
    them; a def's signature lines and decorators belong to the enclosing
    scope), or '<module>'."""
    best = ["<module>"]

    def visit(node, quals, in_def):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if child.body and child.body[0].lineno <= line <= child.end_lineno:
                    q = quals + (["<locals>"] if in_def else []) + [child.name]
                    best[0] = ".".join(q)
                    visit(child, q, not isinstance(child, ast.ClassDef))
            else:
                visit(child, quals, in_def)
    visit(tree, [], False)
    return best[0]


SOURCE_CACHE = {}


def source_of(fdir, rel):
    key = (fdir, rel)
    if key not in SOURCE_CACHE:
        path = os.path.join(fdir, rel)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            SOURCE_CACHE[key] = (text.split("\n"), ast.parse(text, filename=rel))
        except (OSError, SyntaxError, ValueError) as e:
            SOURCE_CACHE[key] = e
    return SOURCE_CACHE[key]


def expected_problems(expected, fdir):
    """Problems with an expected.json: its shape, and its anchors against the fixture source."""
    p = []
    for k in ("entry", "job_type", "syncs", "not_syncs", "h2d", "collectives"):
        if k not in expected:
            p.append("missing key %r" % k)
    if p:
        return p
    if expected["job_type"] not in JOB_TYPES + (None,):
        p.append("job_type %r is not one of %s" % (expected["job_type"], JOB_TYPES))
    if not isinstance(expected.get("argv", []), list) or not all(isinstance(a, str) for a in expected.get("argv", [])):
        p.append("argv must be a list of strings")
    if fdir and not os.path.isfile(os.path.join(fdir, expected["entry"])):
        p.append("entry %r is not a file of the fixture" % expected["entry"])
    lists = ("syncs", "not_syncs", "h2d", "not_h2d", "collectives", "not_collectives")
    seen = {}
    for k in lists:
        lst = expected.get(k, [])
        if not isinstance(lst, list):
            p.append("%s must be a list" % k)
            continue
        for i, e in enumerate(lst):
            at = "%s[%d]" % (k, i)
            if not isinstance(e, dict) or not isinstance(e.get("anchor"), str):
                p.append("%s: no anchor" % at)
                continue
            m = ANCHOR.fullmatch(e["anchor"])
            if not m:
                p.append("%s: %r is not an anchor path/file.py:Qualified.symbol:line" % (at, e["anchor"]))
                continue
            if k in ("syncs", "h2d") and not e.get("call"):
                p.append("%s: no call" % at)
            if k == "h2d":
                if e.get("pinned") not in (True, False, None) or "pinned" not in e:
                    p.append("%s: pinned must be true, false or null" % at)
                if e.get("non_blocking") not in (True, False):
                    p.append("%s: non_blocking must be true or false" % at)
            if k == "collectives":
                if not isinstance(e.get("op"), str) or not e.get("op"):
                    p.append("%s: no op" % at)
                if e.get("parallelism") not in PARALLELISMS:
                    p.append("%s: parallelism %r is not one of %s" % (at, e.get("parallelism"), PARALLELISMS))
                if "async_op" not in e or e["async_op"] not in (True, False, "implicit"):
                    p.append("%s: async_op must be true, false or \"implicit\"" % at)
                if e.get("implied_by") is not None and not isinstance(e["implied_by"], str):
                    p.append("%s: implied_by must be a string or null" % at)
                if (e.get("async_op") == "implicit") != bool(e.get("implied_by")):
                    p.append("%s: async_op \"implicit\" goes with implied_by (a wrapper issues it)" % at)
            key = (k, e["anchor"], norm_op(e.get("op")) if k == "collectives" else None)
            if key in seen:
                p.append("%s: duplicate of %s" % (at, seen[key]))
            seen[key] = at
            if fdir:
                p += anchor_problems(fdir, at, m, line_tokens(k, e))
    for k in ("syncs", "h2d", "collectives"):
        for i, e in enumerate(expected.get(k) or []):
            if not isinstance(e, dict):
                continue
            if e.get("frequency") is not None and (not isinstance(e["frequency"], str) or
                                                   not FREQ.fullmatch(e["frequency"])):
                p.append("%s[%d]: frequency %r is not unit[/every][xN]" % (k, i, e["frequency"]))
            ph = e.get("phase")
            if ph is not None and not (isinstance(ph, str) or
                                       (isinstance(ph, list) and ph and all(isinstance(x, str) for x in ph))):
                p.append("%s[%d]: phase must be a name or a list of names" % (k, i))
    if expected.get("step") is not None:
        sa = step_anchor(expected)
        m = ANCHOR.fullmatch(sa) if isinstance(sa, str) else None
        if not m:
            p.append("step %r is not an anchor" % (expected.get("step"),))
        elif fdir:
            # a loop's header, or a step function (its first line: the first
            # decorator's when it has one, as the records contract says)
            probs = anchor_problems(fdir, "step", m)
            src = source_of(fdir, m.group(1))
            if probs and not isinstance(src, Exception) and any(
                    isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                    int(m.group(3)) in (n.lineno, min([d.lineno for d in n.decorator_list] or [n.lineno])) and
                    n.name == m.group(2).split(".")[-1] for n in ast.walk(src[1])):
                probs = []
            p += probs
    for pos, negk in (("syncs", "not_syncs"), ("h2d", "not_h2d"), ("collectives", "not_collectives")):
        both = set(anchors_of(expected.get(pos))) & set(anchors_of(expected.get(negk)))
        if both:
            p.append("%s and %s share anchors %s" % (pos, negk, sorted(both)))
    blocking = {h["anchor"] for h in expected.get("h2d") or () if h.get("non_blocking") is False}
    both = blocking & set(anchors_of(expected.get("not_syncs")))
    if both:
        p.append("not_syncs %s are blocking h2d copies, which do wait for the device" % sorted(both))
    return p


TORCH_SPELLING = {v: k for k, v in OP_ALIASES.items() if not k.startswith("_")}


def line_tokens(kind, e):
    """Text that must appear on the anchored line (a guard against an off-by-one
    line): the call up to its first "(" for syncs and copies, the op (or its
    torch spelling) for a collective that is called, not implied by a wrapper
    (its "call" when given: a library call that issues it, spelt otherwise)."""
    if kind in ("syncs", "h2d"):
        head = e["call"].split("(", 1)[0].strip()
        return [head] if head else []
    if kind == "collectives" and not e.get("implied_by"):
        if e.get("call"):   # a library call that issues it (engine.save_checkpoint)
            head = e["call"].split("(", 1)[0].strip()
            return [head] if head else []
        op = norm_op(e["op"])
        return [op, TORCH_SPELLING.get(op, op)]
    return []


def anchor_problems(fdir, at, m, tokens=()):
    rel, qual, line = m.group(1), m.group(2), int(m.group(3))
    src = source_of(fdir, rel)
    if isinstance(src, Exception):
        return ["%s: cannot read %s: %s" % (at, rel, src)]
    lines, tree = src
    if line > len(lines):
        return ["%s: %s has %d lines" % (at, rel, len(lines))]
    text = lines[line - 1].strip()
    if not text or text.startswith("#"):
        return ["%s: line %d of %s holds no code (%r)" % (at, line, rel, text)]
    got = scope_at(tree, line)
    if got != qual:
        return ["%s: line %d of %s is in %s, not %s" % (at, line, rel, got, qual)]
    if tokens and not any(tok in text for tok in tokens):
        return ["%s: line %d of %s (%r) does not show %s" % (at, line, rel, text, " or ".join(map(repr, tokens)))]
    return []


# ---------------------------------------------------------------- perfect schedule

def _ph(e):
    ph = e.get("phase")
    return ph[0] if isinstance(ph, list) else ph


def _fq(e):
    return freq_text(e["frequency"]) if e.get("frequency") else None


def perfect_sections(expected):
    hd = []
    for s in expected.get("syncs", []):
        hd.append({"kind": "sync", "call": s["call"], "anchor": s["anchor"], "pinned": None,
                   "non_blocking": None, "phase": _ph(s), "frequency": _fq(s), "condition": s.get("condition")})
    for h in expected.get("h2d", []):
        hd.append({"kind": "h2d", "call": h["call"], "anchor": h["anchor"], "pinned": h["pinned"],
                   "non_blocking": h["non_blocking"], "phase": _ph(h), "frequency": _fq(h), "condition": h.get("condition")})
    dd = []
    for c in expected.get("collectives", []):
        dd.append({"op": c["op"], "parallelism": c["parallelism"], "async_op": c["async_op"],
                   "anchor": c["anchor"], "phase": _ph(c), "condition": c.get("condition"),
                   "implied_by": c.get("implied_by")})
        if c.get("frequency"):
            dd[-1]["frequency"] = _fq(c)
    return hd, dd


def perfect_document(expected, header=None):
    hd, dd = perfect_sections(expected)
    if header is None:
        header = {"job_type": {"value": None, "evidence": []}, "host_device": [], "device_device": []}
    doc = {}
    for k, v in header.items():
        if k == "job_type":
            ev = v.get("evidence", []) if isinstance(v, dict) else []
            doc[k] = {"value": expected["job_type"], "evidence": ev}
        elif k == "host_device":
            doc[k] = hd
        elif k == "device_device":
            doc[k] = dd
        else:
            doc[k] = v
    if expected.get("overlap"):
        doc["overlap"] = list(doc.get("overlap") or []) + [
            {"what": "expected", "with": "expected", "stream": o.get("stream"), "mechanism": "expected",
             "anchor": o["anchor"]} for o in expected["overlap"]]
    if expected.get("ema"):
        comp = dict(doc.get("compute") or {})
        comp["ema"] = {"anchor": expected["ema"], "call": "expected", "phase": None}
        doc["compute"] = comp
    if expected.get("backward"):
        comp = dict(doc.get("compute") or {})
        comp["backward"] = {"anchor": expected["backward"]}
        doc["compute"] = comp
    if expected.get("parallel"):
        doc["parallel"] = copy.deepcopy(expected["parallel"])
    if step_anchor(expected) or ("step" in expected and expected["step"] is None):
        ep = dict(doc.get("entrypoint") or {"file": expected["entry"], "anchor": None})
        ep["step"] = step_anchor(expected)
        doc["entrypoint"] = ep
    return doc


# ---------------------------------------------------------------- self-test

def _results(r):
    return {m: r[m]["pass"] for m in METRICS}


def self_test(paths, out=sys.stdout):
    failures = [0]

    def check(cond, what):
        out.write("%s - %s\n" % ("ok" if cond else "FAIL", what))
        if not cond:
            failures[0] += 1

    check(norm_op("dist.all_to_all_single") == "all_to_all" and norm_op("isend") == "send"
          and norm_op("torch.distributed.all_gather_into_tensor") == "all_gather"
          and norm_op("broadcast") == "broadcast", "op aliases fold")
    _self_test_scope(check)
    for path in paths:
        _self_test_fixture(path, check)
    out.write("self-test: %d failure(s)\n" % failures[0])
    return failures[0] == 0


SCOPE_SRC = '''\
import torch


class A:
    x = 1

    def f(self):
        ys = [torch.tensor(i) for i in range(3)]
        return ys

    @staticmethod
    def g(a,
          b=2):
        def inner():
            return a
        return inner


def top():
    class Local:
        def m(self):
            return 1
    return Local


t = top()
'''
SCOPE_CASES = [(1, "<module>"), (5, "A"), (13, "A"), (14, "A.g"), (8, "A.f"), (9, "A.f"), (15, "A.g.<locals>.inner"),
               (16, "A.g"), (22, "top.<locals>.Local.m"), (23, "top"), (26, "<module>")]


def _self_test_scope(check):
    tree = ast.parse(SCOPE_SRC)
    for line, want in SCOPE_CASES:
        got = scope_at(tree, line)
        check(got == want, "the scope of line %d is %s%s" % (line, want, "" if got == want else " (got %s)" % got))


def _self_test_fixture(path, check):
    fdir = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(fdir)
    try:
        expected = load_json(path, "expectation")
    except InputError as e:
        check(False, "%s: %s" % (name, e))
        return
    probs = expected_problems(expected, fdir)
    check(not probs, "%s: expected.json is well-formed and its anchors resolve in the source" % name)
    for pr in probs:
        sys.stdout.write("#   %s\n" % pr)
    if probs:
        return

    def expect(doc, broken, what):
        r = score(expected, doc, name)
        got = _results(r)
        want = {m: m not in broken for m in METRICS}
        ok = got == want
        verdict = ("fails " + " and ".join(sorted(broken)) + " only") if broken else "passes"
        check(ok, "%s: %s %s%s" % (name, what, verdict, "" if ok else " (got %s)" % got))

    perfect = perfect_document(expected)
    r = score(expected, perfect, name)
    check(r["pass"] and r["syncs"]["recall"] == 1.0 and r["syncs"]["precision"] == 1.0
          and r["collectives"]["recall"] == 1.0 and r["h2d"]["recall"] == 1.0,
          "%s: the perfect schedule scores 100%% on every metric" % name)

    def variant():
        return copy.deepcopy(perfect)

    def k_of(n):  # enough entries to drop a rate below 95%
        return int(math.floor(0.05 * n)) + 1

    syncs = expected["syncs"]
    hd_syncs = lambda d: [h for h in d["host_device"] if h["kind"] == "sync"]  # noqa: E731
    if syncs:
        d = variant()
        drop = set(anchors_of(syncs[:k_of(len(syncs))]))
        d["host_device"] = [h for h in d["host_device"] if not (h["kind"] == "sync" and h["anchor"] in drop)]
        expect(d, {"syncs"}, "%d sync(s) missing" % len(drop))
        d = variant()
        for h in hd_syncs(d):
            h["kind"], h["non_blocking"] = "d2h", False
        expect(d, set(), "every sync reported as a blocking d2h copy")
        d = variant()
        for h in hd_syncs(d):
            h["kind"], h["non_blocking"] = "d2h", True
        expect(d, {"syncs"}, "every sync reported as a non-blocking d2h copy")
    n_extra = int(len(syncs) / 9) + 1   # precision n / (n + extra) < 90%
    d = variant()
    for i in range(n_extra):
        d["host_device"].append({"kind": "sync", "call": ".item()", "anchor": "selftest.py:f:%d" % (i + 1)})
    expect(d, {"syncs"}, "%d unexpected sync(s)" % n_extra)
    if expected["not_syncs"]:
        d = variant()
        d["host_device"].append({"kind": "sync", "call": ".item()", "anchor": expected["not_syncs"][0]["anchor"]})
        expect(d, {"syncs"}, "a look-alike flagged as a sync (%s)" % expected["not_syncs"][0]["anchor"])
    blocking = [h for h in expected["h2d"] if h["non_blocking"] is False
                and h["anchor"] not in anchors_of(syncs)]
    if blocking:
        d = variant()
        d["host_device"].append({"kind": "sync", "call": ".to(device)", "anchor": blocking[0]["anchor"]})
        expect(d, set(), "a blocking H2D copy also called a sync (neutral)")

    if step_anchor(expected) or ("step" in expected and expected["step"] is None):
        d = variant()
        d["entrypoint"]["step"] = "selftest.py:f:1"
        expect(d, {"step_freq"}, "the wrong step")
    timed = [h for h in d["host_device"] if h.get("frequency")]
    if timed:
        d = variant()
        h = [h for h in d["host_device"] if h.get("frequency")][0]
        h["frequency"] = "every epoch" if "epoch" not in h["frequency"] else "once"
        expect(d, {"step_freq"}, "a row's frequency wrong (%s)" % h["anchor"])
    phased = [h for h in d["host_device"] if h.get("phase")]
    if phased:
        d = variant()
        h = [h for h in d["host_device"] if h.get("phase")][0]
        h["phase"] = "selftest-phase"
        expect(d, {"step_freq"}, "a row's phase wrong (%s)" % h["anchor"])

    colls = expected["collectives"]
    if expected.get("overlap") or expected.get("ema") or expected.get("backward"):
        d = copy.deepcopy(perfect)
        d["overlap"] = []
        d.get("compute", {}).pop("ema", None)
        d.get("compute", {}).pop("backward", None)
        expect(d, {"compute_overlap"}, "the overlap and compute facts left out")
    if expected.get("parallel"):
        d = copy.deepcopy(perfect)
        k = sorted(expected["parallel"])[0]
        d["parallel"][k]["size"] = (d["parallel"][k].get("size") or 0) + 1
        expect(d, {"compute_overlap"}, "a parallel degree wrong (%s)" % k)
    if colls:
        d = variant()
        d["device_device"] = d["device_device"][1:]
        expect(d, {"collectives"}, "a collective missing")
        d = variant()
        c = d["device_device"][0]
        c["parallelism"] = "tensor" if c["parallelism"] != "tensor" else "data"
        expect(d, {"collectives"}, "a collective with the wrong parallelism")
        d = variant()
        c = d["device_device"][0]
        c["async_op"] = {True: False, False: True, "implicit": False}[c["async_op"]]
        expect(d, {"collectives"}, "a collective with the wrong async_op")
        d = variant()
        rev = {"all_to_all": "all_to_all_single", "send": "isend", "recv": "irecv",
               "all_gather": "all_gather_into_tensor", "reduce_scatter": "reduce_scatter_tensor"}
        for c in d["device_device"]:
            c["op"] = "dist." + rev.get(c["op"], c["op"])
        expect(d, set(), "collective ops spelled as torch calls (dist.all_to_all_single, dist.isend ...)")
        d = variant()
        d["device_device"].append({"op": "barrier", "parallelism": "data", "async_op": False,
                                   "anchor": "selftest.py:f:1"})
        expect(d, set(), "an unexpected collective (reported, not scored)")
        d = variant()
        d["device_device"].append(dict(d["device_device"][0], parallelism="sequence"))
        expect(d, {"collectives"}, "one of two entries at the same (anchor, op) with the wrong parallelism")
    else:
        d = variant()
        d["device_device"].append({"op": "all_reduce", "parallelism": "data", "async_op": False,
                                   "anchor": "selftest.py:f:1"})
        expect(d, {"collectives"}, "a collective in a job that issues none")
    if expected.get("not_collectives"):
        d = variant()
        d["device_device"].append({"op": "all_reduce", "parallelism": "data", "async_op": False,
                                   "anchor": expected["not_collectives"][0]["anchor"]})
        expect(d, {"collectives"}, "a look-alike reported as a collective")

    h2d = expected["h2d"]
    if h2d:
        k = k_of(len(h2d))
        d = variant()
        for h in [h for h in d["host_device"] if h["kind"] == "h2d"][:k]:
            h["pinned"] = {True: False, False: None, None: True}[h["pinned"]]
        expect(d, {"h2d"}, "pinned wrong on %d copy(ies)" % k)
        d = variant()
        for h in [h for h in d["host_device"] if h["kind"] == "h2d"][:k]:
            h["non_blocking"] = not h["non_blocking"]
        expect(d, {"h2d"}, "non_blocking wrong on %d copy(ies)" % k)
        d = variant()
        drop = set(anchors_of(h2d[:k]))
        d["host_device"] = [h for h in d["host_device"] if not (h["kind"] == "h2d" and h["anchor"] in drop)]
        expect(d, {"h2d"}, "%d copy(ies) missing" % k)
        d = variant()
        d["host_device"].append({"kind": "h2d", "call": ".to(device)", "anchor": "selftest.py:f:1",
                                 "pinned": None, "non_blocking": False})
        expect(d, set(), "an unexpected copy (reported, not scored)")
    if expected.get("not_h2d"):
        d = variant()
        d["host_device"].append({"kind": "h2d", "call": ".to(device)", "anchor": expected["not_h2d"][0]["anchor"],
                                 "pinned": False, "non_blocking": False})
        expect(d, {"h2d"}, "a look-alike reported as an h2d copy")

    d = variant()
    d["job_type"]["value"] = [t for t in JOB_TYPES if t != expected["job_type"]][0]
    expect(d, {"job_type"}, "the wrong job type")
    if expected["job_type"] is not None:
        d = variant()
        d["job_type"]["value"] = None
        expect(d, {"job_type"}, "job type null")


# ---------------------------------------------------------------- main

USAGE = ("usage: score_schedule.py EXPECTED.json SCHEDULE.json [--json] [--verbose]\n"
         "       score_schedule.py --self-test [EXPECTED.json ...]\n"
         "       score_schedule.py --perfect EXPECTED.json [--header SCHEDULE.json]\n")


def main(argv):
    args, opts = [], {"json": False, "verbose": False, "self-test": False, "perfect": False, "header": None}
    it = iter(argv[1:])
    for a in it:
        if a in ("--json", "--verbose", "--self-test", "--perfect"):
            opts[a[2:]] = True
        elif a == "--header":
            v = next(it, None)
            if v is None:
                sys.stderr.write(USAGE)
                return 2
            opts["header"] = v
        elif a in ("-h", "--help"):
            sys.stdout.write(USAGE + __doc__)
            return 0
        elif a.startswith("-"):
            sys.stderr.write("score_schedule.py: unknown option %s\n%s" % (a, USAGE))
            return 2
        else:
            args.append(a)
    try:
        if opts["self-test"]:
            if not args:
                here = os.path.dirname(os.path.abspath(__file__))
                fx = os.path.join(here, "..", "schedule_fixtures")
                args = sorted(os.path.join(fx, d, "expected.json") for d in os.listdir(fx)
                              if os.path.isfile(os.path.join(fx, d, "expected.json")))
            return 0 if self_test(args) else 1
        if opts["perfect"]:
            if len(args) != 1:
                sys.stderr.write(USAGE)
                return 2
            expected = load_json(args[0], "expectation")
            header = load_json(opts["header"], "schedule") if opts["header"] else None
            sys.stdout.write(json.dumps(perfect_document(expected, header), indent=2, ensure_ascii=False) + "\n")
            return 0
        if len(args) != 2:
            sys.stderr.write(USAGE)
            return 2
        expected = load_json(args[0], "expectation")
        probs = expected_problems(expected, None)
        if probs:
            raise InputError("%s: %s" % (args[0], "; ".join(probs)))
        sched = load_json(args[1], "schedule")
        if not isinstance(sched, dict):
            raise InputError("%s is not a JSON object" % args[1])
        r = score(expected, sched, os.path.basename(os.path.dirname(os.path.abspath(args[0]))))
    except InputError as e:
        sys.stderr.write("score_schedule.py: %s\n" % e)
        return 2
    if opts["json"]:
        sys.stdout.write(json.dumps(r, indent=1, sort_keys=True) + "\n")
    else:
        print_table(r, opts["verbose"])
    return 0 if r["pass"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
