#!/usr/bin/python3
"""score.py -- score ecg's execution schedule on real public jobs (issue 15)

    score.py --ecg PATH [--mirror DIR] [--json] [--keep DIR] [--verbose] [JOB ...]
    score.py --check-labels [--mirror DIR] [JOB ...]

Standard library only.  Every tests/real/schedule/<job>.json is a label file
written by hand from a public repository's code at one commit (format below).
For each job the source is $ECG_REAL_MIRROR (default /work/.mirror)/
<owner>+<name>/repo, or that directory itself when it is a git directory
(--mirror DIR overrides the environment).  When the source is absent or lacks
the commit the job is skipped ("skip <job>: source not present at <path>").
Otherwise ecg is run as

    ECG extract --repo SRC --rev COMMIT --entry ENTRY --out TMP --no-cache -q \\
        [ecg_args] [-- argv]

and TMP/execution_schedule.json (or TMP/records/execution_schedule.json) is
scored.  Before that, every anchor of the label is checked against the source
at the commit (the file exists there, the line holds code, the innermost
def/class around it has the anchor's qualified name, and the line shows the
call): a label that fails that is malformed.

With --json the report is one JSON document on stdout ({"jobs", "totals",
"skipped", "errors"}) and the skip lines and the final count go to stderr.

Exit status: 0 normally; 1 when a label is malformed or ecg exits with a
status 5 or above 6 or dies of a signal (6: records written, no model or
no step found); with ECG_REAL_STRICT=1 also 1 when a
threshold of the totals fails.  2 on bad usage.

The label file
--------------

The keys of tests/schedule_fixtures/*/expected.json (read by
tests/oracle/score_schedule.py, whose scoring of syncs, collectives and h2d
this file reuses), plus what real jobs need:

    {"repo": "owner/name", "commit": "<40 hex>",
     "entry": "path/in/repo.py[:FUNC]", "argv": [...], "ecg_args": [...],
     "entry_text": [...]   (optional) the entry script's lines, when the job's
                           script is not in the repository (a README's usage
                           run from the repository's root): the file must be
                           absent at the commit; ecg then reads a commit made
                           on top of it holding that one file more (a bare
                           repository in a temporary directory whose objects
                           are borrowed from the source's, nothing written to
                           the source), and anchors in the entry read these lines
     "env": {...}          the environment of the invocation ({} = none set),
                           given to ecg as --no-env --env KEY=VALUE ...
     "notes": "...",
     "job_type": "training" | "inference_serving" | "batch",
     "parallel": {"tensor": {"size": 8, "via": "override"}, ...}   (optional)
                           the header's parallel degrees: each named one's
                           size (null included) and, when named, its via
     "step": {"anchor": A, "unit": "token" | "request" (optional),
              "micro_steps": N (optional: micro-steps per step), "note": ...}
                           the step: the header of the loop that trains /
                           serves / decodes, or the step function; "unit"
                           when each step is one token or one request (then
                           ecg's "every step" reads as that unit)
     "complete": ["syncs", "h2d", "collectives", "compile_regions"]
                           the kinds labelled completely for this invocation:
                           only for these does a row ecg writes that matches
                           no label and no negative count against precision
     "syncs":        [ROW + {"call"}]
     "h2d":          [ROW + {"call", "pinned", "non_blocking"}]
     "collectives":  [ROW + {"op", "parallelism", "async_op", "implied_by",
                             "call" (optional: the call on the line that issues it,
                             when it is not spelt as the op: DTensor.full_tensor)}]
     "compile_regions": [{"anchor", "target", "note"}]
     "not_syncs" | "not_h2d" | "not_collectives" | "not_compile_regions" |
     "not_rows": [{"anchor", "note"}]      look-alikes: ecg must write no row
                           of that kind there ("not_rows": of any kind)
     "unsure": [{"anchor", "note"}]        lines whose behaviour the code does not
                           settle (a torch internal that may or may not sync):
                           a row there is neither right nor wrong (left out of
                           precision)}

ROW: {"anchor", "phase": "eval" | [...accepted], "frequency": FREQ,
      "condition": null | "the undecided condition", "note"}

    A sync set is as in score_schedule.py: host_device rows of kind "sync",
    and of kind "d2h" whose non_blocking is not true (.cpu(), torch.save of
    device state).  One entry per line.

FREQ is how often the event runs, in the unit of the loop around it:
    "once" | "micro-step" | "step" | "step/2000" (every 2000 steps) |
    "epoch" | "epoch/20" | "token" | "request" | "batch" | "eval", and an
    optional "xN" for N runs each time ("step/2000x200": eval_iters=200 reads
    every eval_interval=2000 steps; "xN" with N "?" when it depends on data;
    "x1" pins one run each time, without "xN" the count is not checked).
    ecg's text ("every eval_interval=2000 steps", "every micro-step", "once")
    is read into the same (unit, every, times).

Metrics
-------

Per job, and summed over the jobs scored (micro-averaged):
    sync recall / precision (precision only on jobs complete for syncs),
    h2d recall (pinned and non_blocking right), collectives recall (op,
    parallelism and async_op right), compile-region recall (anchor), look-
    alike negatives flagged, job type, step anchor, phase of each matched
    row, and (reported, not thresholded) frequency of each matched row and a
    condition on each row the label says is undecided.
Thresholds (issue 15): each rate >= 0.9, phase 100%, 0 negatives flagged,
job type and step right on every job.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "oracle"))
import score_schedule as ss  # noqa: E402  (the fixture scorer: one scoring logic)

PHASES = ("startup", "data", "forward", "backward", "optimizer", "step", "eval", "checkpoint",
          "logging", "teardown", "generate", "decode", "prefill", "request", "batch")
UNITS = ("once", "micro-step", "step", "epoch", "token", "request", "batch", "eval")
FREQ = re.compile(r"(once|micro-step|step|epoch|token|request|batch|eval)(?:/([0-9]+))?(?:x([0-9]+|\?))?")
KINDS = ("syncs", "h2d", "collectives", "compile_regions")
NEG_KEYS = ("not_syncs", "not_h2d", "not_collectives", "not_compile_regions", "not_rows")
OTHER_KEYS = ("unsure",)
THRESH = 0.9


class LabelError(Exception):
    pass


# ---------------------------------------------------------------- labels

def check_label(lab, name):
    p = []
    for k in ("repo", "commit", "entry", "job_type", "step", "complete", "syncs", "not_syncs", "h2d",
              "collectives"):
        if k not in lab:
            p.append("missing key %r" % k)
    if p:
        raise LabelError("; ".join(p))
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*", lab["repo"]):
        p.append("repo %r is not owner/name" % lab["repo"])
    if not re.fullmatch(r"[0-9a-f]{40}", lab["commit"]):
        p.append("commit must be 40 hex digits")
    for k in ("argv", "ecg_args", "entry_text"):
        v = lab.get(k, [])
        if not isinstance(v, list) or not all(isinstance(a, str) for a in v):
            p.append("%s must be a list of strings" % k)
    if not isinstance(lab["step"], dict) or not ss.ANCHOR.fullmatch(str(lab["step"].get("anchor"))):
        p.append("step must be {\"anchor\": path:Symbol:line}")
    if not isinstance(lab["complete"], list) or any(c not in KINDS for c in lab["complete"]):
        p.append("complete must list kinds among %s" % (KINDS,))
    p += ss.expected_problems(lab, None)
    for k in ("syncs", "h2d", "collectives"):
        for i, e in enumerate(lab.get(k) or []):
            at = "%s[%d]" % (k, i)
            if not isinstance(e, dict):
                continue
            ph = e.get("phase")
            for x in (ph if isinstance(ph, list) else [ph]):
                if x not in PHASES:
                    p.append("%s: phase %r is not one of %s" % (at, x, PHASES))
            if not isinstance(e.get("frequency"), str) or not FREQ.fullmatch(e["frequency"]):
                p.append("%s: frequency %r is not unit[/every][xN]" % (at, e.get("frequency")))
            if "condition" not in e or not (e["condition"] is None or isinstance(e["condition"], str)):
                p.append("%s: condition must be null or a string" % at)
    for i, e in enumerate(lab.get("compile_regions") or []):
        if not isinstance(e, dict) or not ss.ANCHOR.fullmatch(str(e.get("anchor"))):
            p.append("compile_regions[%d]: no anchor" % i)
    for k in NEG_KEYS + OTHER_KEYS:
        for i, e in enumerate(lab.get(k) or []):
            if not isinstance(e, dict) or not ss.ANCHOR.fullmatch(str(e.get("anchor"))):
                p.append("%s[%d]: no anchor" % (k, i))
            elif not e.get("note"):
                p.append("%s[%d]: a negative says why in its note" % (k, i))
    if p:
        raise LabelError("; ".join(p))


def git(src, *args):
    return subprocess.run(["git", "--git-dir", src] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL)


def entry_text(lab):
    """The label's entry script (entry_text) as the file's text, or None."""
    if not lab.get("entry_text"):
        return None
    return "\n".join(lab["entry_text"]) + "\n"


class GitSource:
    """Files of one commit, read with git show, parsed once; `extra` maps a
    path to the text of a file the label adds (entry_text)."""

    def __init__(self, src, commit, extra=None):
        self.src, self.commit, self.cache, self.extra = src, commit, {}, dict(extra or {})

    def in_commit(self, rel):
        return git(self.src, "cat-file", "-e", "%s:%s" % (self.commit, rel)).returncode == 0

    def get(self, rel):
        if rel not in self.cache:
            r = git(self.src, "show", "%s:%s" % (self.commit, rel))
            if rel in self.extra:
                r = subprocess.CompletedProcess([], 0, self.extra[rel].encode("utf-8"))
            if r.returncode != 0:
                self.cache[rel] = OSError("not in commit %s" % self.commit[:12])
            else:
                try:
                    text = r.stdout.decode("utf-8")
                    self.cache[rel] = (text.split("\n"), ss.ast.parse(text, filename=rel))
                except (UnicodeDecodeError, SyntaxError, ValueError) as e:
                    self.cache[rel] = e
        return self.cache[rel]


def def_at(tree, line):
    """Qualified name of the def whose `def` line is `line` (a step function's
    anchor), or whose code object's first line it is (the first decorator's,
    records.md), or None."""
    found = [None]

    def visit(node, quals, in_def):
        for child in ss.ast.iter_child_nodes(node):
            if isinstance(child, (ss.ast.FunctionDef, ss.ast.AsyncFunctionDef, ss.ast.ClassDef)):
                q = quals + (["<locals>"] if in_def else []) + [child.name]
                first = child.decorator_list[0].lineno if child.decorator_list else child.lineno
                if line in (child.lineno, first) and not isinstance(child, ss.ast.ClassDef):
                    found[0] = ".".join(q)
                visit(child, q, not isinstance(child, ss.ast.ClassDef))
            else:
                visit(child, quals, in_def)
    visit(tree, [], False)
    return found[0]


def anchor_problems(gs, at, anchor, tokens=(), def_line_ok=False):
    m = ss.ANCHOR.fullmatch(anchor)
    rel, qual, line = m.group(1), m.group(2), int(m.group(3))
    src = gs.get(rel)
    if isinstance(src, Exception):
        return ["%s: cannot read %s: %s" % (at, rel, src)]
    lines, tree = src
    if line > len(lines):
        return ["%s: %s has %d lines" % (at, rel, len(lines))]
    text = lines[line - 1].strip()
    if not text or text.startswith("#"):
        return ["%s: line %d of %s holds no code (%r)" % (at, line, rel, text)]
    got = ss.scope_at(tree, line)
    if got != qual and not (def_line_ok and def_at(tree, line) == qual):
        return ["%s: line %d of %s is in %s, not %s" % (at, line, rel, got, qual)]
    if tokens and not any(tok in text for tok in tokens):
        return ["%s: line %d of %s (%r) does not show %s" % (at, line, rel, text, " or ".join(map(repr, tokens)))]
    return []


def label_source_problems(lab, gs):
    p = []
    entry_file = lab["entry"].split(":", 1)[0]   # FILE[:FUNC], as ecg's --entry takes it
    if entry_text(lab) is not None and gs.in_commit(entry_file):
        p.append("entry_text given, but %s is in the commit" % entry_file)
    if isinstance(gs.get(entry_file), (OSError, SyntaxError)):
        p.append("entry %s is not in the commit (nor a Python entry_text)" % lab["entry"])
    p += anchor_problems(gs, "step", lab["step"]["anchor"], def_line_ok=True)
    for k in ("syncs", "h2d", "collectives"):
        for i, e in enumerate(lab.get(k) or []):
            if k == "collectives" and e.get("call"):   # issued by a call that is not spelt as the op
                toks = [e["call"].split("(", 1)[0].strip()]
            else:
                toks = ss.line_tokens(k, e)
            p += anchor_problems(gs, "%s[%d]" % (k, i), e["anchor"], toks)
    for i, e in enumerate(lab.get("compile_regions") or []):
        p += anchor_problems(gs, "compile_regions[%d]" % i, e["anchor"])
    for k in NEG_KEYS + OTHER_KEYS:
        for i, e in enumerate(lab.get(k) or []):
            p += anchor_problems(gs, "%s[%d]" % (k, i), e["anchor"])
    return p


# ---------------------------------------------------------------- frequency

# one reading of frequencies for the fixtures and the real jobs
parse_label_freq, parse_ecg_freq, freq_ok = ss.parse_label_freq, ss.parse_ecg_freq, ss.freq_ok


# ---------------------------------------------------------------- scoring

def sync_rows(hd):
    return [h for h in hd if h.get("kind") == "sync" or (h.get("kind") == "d2h" and h.get("non_blocking") is not True)]


def score_job(lab, sched):
    hd = [h for h in sched.get("host_device") or [] if isinstance(h, dict)]
    dd = [c for c in sched.get("device_device") or [] if isinstance(c, dict)]
    comp = sched.get("compute") if isinstance(sched.get("compute"), dict) else {}
    base = ss.score(lab, sched, lab.get("_name", "?"))
    complete = set(lab["complete"])
    r = {"job": lab.get("_name")}

    # negatives (every kind)
    flagged = []
    got_sync = {h.get("anchor") for h in sync_rows(hd)}
    got_h2d = {h.get("anchor") for h in hd if h.get("kind") == "h2d"}
    got_coll = {c.get("anchor") for c in dd}
    regions = [x for x in comp.get("compile_regions") or [] if isinstance(x, dict)]
    got_comp = {x.get("anchor") for x in regions}
    got_any = {h.get("anchor") for h in hd} | got_coll | got_comp
    for k, got in (("not_syncs", got_sync), ("not_h2d", got_h2d), ("not_collectives", got_coll),
                   ("not_compile_regions", got_comp), ("not_rows", got_any)):
        for e in lab.get(k) or []:
            if e["anchor"] in got:
                flagged.append("%s %s" % (k, e["anchor"]))
    r["negatives"] = {"labelled": sum(len(lab.get(k) or []) for k in NEG_KEYS), "flagged": flagged}

    s = base["syncs"]
    neg_s = set(ss.anchors_of(lab.get("not_syncs"))) | set(ss.anchors_of(lab.get("not_rows")))
    unsure = set(ss.anchors_of(lab.get("unsure")))
    extra_s = [a for a in s["extra"] if a not in neg_s and a not in unsure]
    r["syncs"] = {"expected": s["expected"], "matched": s["matched"], "missing": s["missing"],
                  "extra": extra_s, "complete": "syncs" in complete,
                  # precision: ecg anchors that are labelled / ecg anchors judged, on complete jobs only
                  "reported": s["matched"] + len(extra_s) + len([a for a in s["flagged"]]) if "syncs" in complete else None}
    h = base["h2d"]
    neg_h = set(ss.anchors_of(lab.get("not_h2d"))) | set(ss.anchors_of(lab.get("not_rows")))
    r["h2d"] = {"expected": h["expected"], "right": h["right"], "missing": h["missing"], "wrong": h["wrong"],
                "extra": [a for a in h["extra"] if a not in neg_h and a not in unsure], "complete": "h2d" in complete}
    # precision (information): labelled anchors ecg reports / anchors it reports, left-out unsure ones
    exp_h = set(ss.anchors_of(lab.get("h2d")))
    judged_h = {a for a in got_h2d if a not in unsure}
    r["h2d"]["precision"] = (len(judged_h & exp_h), len(judged_h))
    c = base["collectives"]
    r["collectives"] = {"expected": c["expected"], "right": c["right"], "missing": c["missing"], "wrong": c["wrong"],
                        "extra": c["extra"], "complete": "collectives" in complete}
    exp_c = {(e["anchor"], ss.norm_op(e["op"])) for e in lab.get("collectives") or []}
    got_c = {(x.get("anchor"), ss.norm_op(x.get("op"))) for x in dd}
    r["collectives"]["precision"] = (len(got_c & exp_c), len(got_c))
    want_comp = lab.get("compile_regions") or []
    hit_comp = [e["anchor"] for e in want_comp if e["anchor"] in got_comp]
    r["compile_regions"] = {"expected": len(want_comp), "right": len(hit_comp),
                            "missing": [e["anchor"] for e in want_comp if e["anchor"] not in got_comp],
                            "extra": sorted(a for a in got_comp if a not in {e["anchor"] for e in want_comp}
                                            and str(a) not in ss.anchors_of(lab.get("not_compile_regions"))),
                            "complete": "compile_regions" in complete}

    # phase, frequency and condition of each matched row
    rows_at = {"syncs": {}, "h2d": {}, "collectives": {}}
    for x in sync_rows(hd):
        rows_at["syncs"].setdefault(x.get("anchor"), []).append(x)
    for x in hd:
        if x.get("kind") == "h2d":
            rows_at["h2d"].setdefault(x.get("anchor"), []).append(x)
    for x in dd:
        rows_at["collectives"].setdefault((x.get("anchor"), ss.norm_op(x.get("op"))), []).append(x)
    ph = {"checked": 0, "right": 0, "wrong": []}
    fq = {"checked": 0, "right": 0, "wrong": []}
    cd = {"checked": 0, "right": 0, "wrong": []}
    for k in ("syncs", "h2d", "collectives"):
        for e in lab.get(k) or []:
            key = (e["anchor"], ss.norm_op(e["op"])) if k == "collectives" else e["anchor"]
            found = rows_at[k].get(key)
            if not found:
                continue
            want_ph = e["phase"] if isinstance(e["phase"], list) else [e["phase"]]
            ph["checked"] += 1
            bad = sorted({str(x.get("phase")) for x in found if x.get("phase") not in want_ph})
            if bad:
                ph["wrong"].append("%s %s: phase %s, want %s" % (k, e["anchor"], "/".join(bad), "|".join(want_ph)))
            else:
                ph["right"] += 1
            if "frequency" in e and k != "collectives" or (k == "collectives" and "frequency" in e):
                fq["checked"] += 1
                badf = sorted({str(x.get("frequency")) for x in found if not freq_ok(e["frequency"], x.get("frequency"),
                                                                                         lab["step"].get("unit"),
                                                                                         lab["step"].get("micro_steps") == 1)})
                if k == "collectives" and all("frequency" not in x for x in found):
                    badf = ["(no frequency field)"]
                if badf:
                    fq["wrong"].append("%s %s: %s, want %s" % (k, e["anchor"], " / ".join(badf), e["frequency"]))
                else:
                    fq["right"] += 1
            if e.get("condition"):
                cd["checked"] += 1
                if all(x.get("condition") for x in found):
                    cd["right"] += 1
                else:
                    cd["wrong"].append("%s %s: no condition, want one (%s)" % (k, e["anchor"], e["condition"]))
    r["phase"], r["frequency"], r["condition"] = ph, fq, cd

    jt = sched.get("job_type")
    r["job_type"] = {"expected": lab["job_type"], "got": jt.get("value") if isinstance(jt, dict) else None}
    r["job_type"]["pass"] = r["job_type"]["got"] == lab["job_type"]
    ep = sched.get("entrypoint") if isinstance(sched.get("entrypoint"), dict) else {}
    r["step"] = {"expected": lab["step"]["anchor"], "got": ep.get("step")}
    r["step"]["pass"] = r["step"]["got"] == lab["step"]["anchor"]
    par = sched.get("parallel") if isinstance(sched.get("parallel"), dict) else {}
    r["parallel"] = {"checked": 0, "right": 0, "wrong": []}
    for k, want in sorted((lab.get("parallel") or {}).items()):
        got = par.get(k) if isinstance(par.get(k), dict) else {}
        r["parallel"]["checked"] += 1
        if got.get("size") == want.get("size") and ("via" not in want or got.get("via") == want["via"]):
            r["parallel"]["right"] += 1
        else:
            r["parallel"]["wrong"].append("%s %r via %r, want %r via %r" % (k, got.get("size"), got.get("via"),
                                                                            want.get("size"), want.get("via")))
    return r


def rate(n, d):
    return None if not d else n / d


def fmt(n, d):
    return "%d/%d" % (n, d) if d else "-"


def job_line(r):
    s, h, c, k = r["syncs"], r["h2d"], r["collectives"], r["compile_regions"]
    prec = fmt(s["matched"], s["reported"]) if s["complete"] else "n/a"
    return ("%-28s sync R %-5s P %-5s  h2d %-5s  coll %-5s  compile %-5s  neg %d  type %s  step %s  phase %s  freq %s"
            % (r["job"], fmt(s["matched"], s["expected"]), prec, fmt(h["right"], h["expected"]),
               fmt(c["right"], c["expected"]), fmt(k["right"], k["expected"]), len(r["negatives"]["flagged"]),
               "ok" if r["job_type"]["pass"] else "WRONG(%s)" % r["job_type"]["got"],
               "ok" if r["step"]["pass"] else "WRONG", fmt(r["phase"]["right"], r["phase"]["checked"]),
               fmt(r["frequency"]["right"], r["frequency"]["checked"])))


def details(r, out):
    def items(title, lst):
        if lst:
            out.write("    %s (%d):\n" % (title, len(lst)))
            for x in lst:
                out.write("      %s\n" % x)
    items("syncs missing", r["syncs"]["missing"])
    items("syncs not labelled" + (" (count against precision)" if r["syncs"]["complete"] else " (kind not complete: neutral)"),
          r["syncs"]["extra"])
    items("h2d missing", r["h2d"]["missing"])
    items("h2d wrong", r["h2d"]["wrong"])
    items("h2d not labelled", r["h2d"]["extra"])
    items("collectives missing", r["collectives"]["missing"])
    items("collectives wrong", r["collectives"]["wrong"])
    items("collectives not labelled", r["collectives"]["extra"])
    items("compile regions missing", r["compile_regions"]["missing"])
    items("compile regions not labelled", r["compile_regions"]["extra"])
    items("negatives flagged", r["negatives"]["flagged"])
    items("phase wrong", r["phase"]["wrong"])
    items("frequency wrong", r["frequency"]["wrong"])
    items("condition missing", r["condition"]["wrong"])
    if not r["job_type"]["pass"]:
        out.write("    job type %s, want %s\n" % (r["job_type"]["got"], r["job_type"]["expected"]))
    if not r["step"]["pass"]:
        out.write("    step %s, want %s\n" % (r["step"]["got"], r["step"]["expected"]))
    items("parallel degrees wrong", r["parallel"]["wrong"])


def totals(results):
    t = {}
    S = lambda f: sum(f(r) for r in results)  # noqa: E731
    t["sync_recall"] = (S(lambda r: r["syncs"]["matched"]), S(lambda r: r["syncs"]["expected"]))
    t["sync_precision"] = (S(lambda r: r["syncs"]["matched"] if r["syncs"]["complete"] else 0),
                           S(lambda r: r["syncs"]["reported"] if r["syncs"]["complete"] else 0))
    t["h2d_recall"] = (S(lambda r: r["h2d"]["right"]), S(lambda r: r["h2d"]["expected"]))
    t["collective_recall"] = (S(lambda r: r["collectives"]["right"]), S(lambda r: r["collectives"]["expected"]))
    t["compile_recall"] = (S(lambda r: r["compile_regions"]["right"]), S(lambda r: r["compile_regions"]["expected"]))
    for k, name in (("h2d", "h2d_precision"), ("collectives", "collective_precision")):
        t[name] = (S(lambda r: r[k]["precision"][0] if r[k]["complete"] else 0),
                   S(lambda r: r[k]["precision"][1] if r[k]["complete"] else 0))
    t["negatives_flagged"] = (S(lambda r: len(r["negatives"]["flagged"])), S(lambda r: r["negatives"]["labelled"]))
    t["job_type"] = (S(lambda r: r["job_type"]["pass"]), len(results))
    t["step"] = (S(lambda r: r["step"]["pass"]), len(results))
    t["phase"] = (S(lambda r: r["phase"]["right"]), S(lambda r: r["phase"]["checked"]))
    t["frequency"] = (S(lambda r: r["frequency"]["right"]), S(lambda r: r["frequency"]["checked"]))
    t["condition"] = (S(lambda r: r["condition"]["right"]), S(lambda r: r["condition"]["checked"]))
    t["parallel"] = (S(lambda r: r["parallel"]["right"]), S(lambda r: r["parallel"]["checked"]))
    return t


GATES = [  # name, need text, test(n, d)
    ("sync_recall", ">=0.90", lambda n, d: not d or n / d >= THRESH),
    ("sync_precision", ">=0.90", lambda n, d: not d or n / d >= THRESH),
    ("h2d_recall", ">=0.90", lambda n, d: not d or n / d >= THRESH),
    ("collective_recall", ">=0.90", lambda n, d: not d or n / d >= THRESH),
    ("compile_recall", ">=0.90", lambda n, d: not d or n / d >= THRESH),
    ("h2d_precision", "(info)", None),
    ("collective_precision", "(info)", None),
    ("negatives_flagged", "0", lambda n, d: n == 0),
    ("job_type", "all", lambda n, d: n == d),
    ("step", "all", lambda n, d: n == d),
    ("phase", "all", lambda n, d: n == d),
    ("frequency", "(info)", None),
    ("condition", "(info)", None),
    ("parallel", "all", lambda n, d: n == d),
]


# ---------------------------------------------------------------- running

def source_dir(mirror, repo):
    d = os.path.join(mirror, repo.replace("/", "+"))
    if os.path.isfile(os.path.join(d, "HEAD")) and os.path.isdir(os.path.join(d, "objects")):
        return d
    return os.path.join(d, "repo")


def has_commit(src, commit):
    if not os.path.isdir(src):
        return False
    return git(src, "cat-file", "-e", commit + "^{commit}").returncode == 0


def with_entry(src, lab, tmp):
    """A bare repository under tmp whose one commit is the label's commit with
    its entry_text added at the entry's path (objects borrowed from src through
    objects/info/alternates: src is not written) -> (git dir, commit)."""
    gd = os.path.join(tmp, "src.git")
    env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, "index"), GIT_AUTHOR_NAME="score.py",
               GIT_AUTHOR_EMAIL="score.py@localhost", GIT_AUTHOR_DATE="2000-01-01T00:00:00Z",
               GIT_COMMITTER_NAME="score.py", GIT_COMMITTER_EMAIL="score.py@localhost",
               GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")

    def run(*args, data=None):
        p = subprocess.run(["git", "--git-dir", gd] + list(args), input=data, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        if p.returncode != 0:
            raise OSError("git %s: %s" % (args[0], p.stderr.decode("utf-8", "replace").strip()))
        return p.stdout.decode("utf-8").strip()
    subprocess.run(["git", "init", "-q", "--bare", gd], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(gd, "objects", "info", "alternates"), "w", encoding="utf-8") as fh:
        fh.write(os.path.abspath(os.path.join(src, "objects")) + "\n")
    run("read-tree", lab["commit"])
    blob = run("hash-object", "-w", "--stdin", data=entry_text(lab).encode("utf-8"))
    run("update-index", "--add", "--cacheinfo", "100644,%s,%s" % (blob, lab["entry"].split(":", 1)[0]))
    tree = run("write-tree")
    commit = run("commit-tree", tree, "-p", lab["commit"], "-m", "the label's entry_text")
    return gd, commit


def run_ecg(ecg, src, lab, out):
    rev, gtmp = lab["commit"], None
    if entry_text(lab) is not None:
        gtmp = tempfile.mkdtemp(prefix="ecg-real-entry-")
        try:
            src, rev = with_entry(src, lab, gtmp)
        except (OSError, subprocess.CalledProcessError) as e:
            shutil.rmtree(gtmp, ignore_errors=True)
            return 5, "cannot add the entry_text: %s" % e
    try:
        return run_ecg_at(ecg, src, rev, lab, out)
    finally:
        if gtmp:
            shutil.rmtree(gtmp, ignore_errors=True)


def run_ecg_at(ecg, src, rev, lab, out):
    cmd = [ecg, "extract", "--repo", src, "--rev", rev, "--entry", lab["entry"], "--out", out,
           "--no-cache", "-q"] + list(lab.get("ecg_args") or [])
    if isinstance(lab.get("env"), dict):     # the invocation's environment, the rest unset
        # "0..3": a value that differs between the processes: set, not known
        cmd += ["--no-env"] + ["--env=" + (k if ".." in v else "%s=%s" % (k, v)) for k, v in sorted(lab["env"].items())]
    if lab.get("argv"):
        cmd += ["--"] + list(lab["argv"])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def load_schedule(out):
    for rel in ("execution_schedule.json", os.path.join("records", "execution_schedule.json")):
        path = os.path.join(out, rel)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)
    return None


def label_files(names):
    files = sorted(f for f in os.listdir(HERE) if f.endswith(".json"))
    if names:
        want = {n[:-5] if n.endswith(".json") else n for n in names}
        files = [f for f in files if f[:-5] in want]
    return files


USAGE = ("usage: score.py --ecg PATH [--mirror DIR] [--json] [--keep DIR] [--verbose] [JOB ...]\n"
         "       score.py --check-labels [--mirror DIR] [JOB ...]\n"
         "       score.py --self-test [JOB ...]\n")


# ---------------------------------------------------------------- self-test

def perfect_schedule(lab):
    """The schedule a perfect ecg would write for a label: every labelled row
    with its phase, frequency and condition, nothing else."""
    doc = ss.perfect_document(lab)
    freq_text = {"once": "once", "micro-step": "every micro-step", "step": "every step", "epoch": "every epoch",
                 "token": "every token", "request": "every request", "batch": "every batch", "eval": "every eval"}

    def text(f):
        u, e, t = parse_label_freq(f)
        out = ("every %d %ss" % (e, u)) if e else freq_text[u]
        return out + (" x%d" % t if t else "")

    by = {}
    for k in ("syncs", "h2d"):
        for e in lab.get(k) or []:
            by[(k, e["anchor"])] = e
    for h in doc["host_device"]:
        e = by[("syncs" if h["kind"] == "sync" else "h2d", h["anchor"])]
        h["phase"] = e["phase"][0] if isinstance(e["phase"], list) else e["phase"]
        h["frequency"] = text(e["frequency"])
        h["condition"] = e.get("condition")
    cols = {(e["anchor"], ss.norm_op(e["op"])): e for e in lab.get("collectives") or []}
    for c in doc["device_device"]:
        e = cols[(c["anchor"], ss.norm_op(c["op"]))]
        c["phase"] = e["phase"][0] if isinstance(e["phase"], list) else e["phase"]
        c["condition"] = e.get("condition")
        if "frequency" in e:
            c["frequency"] = text(e["frequency"])
    doc["compute"] = {"compile_regions": [{"target": e.get("target"), "anchor": e["anchor"], "mode": None,
                                           "graph_breaks": []} for e in lab.get("compile_regions") or []]}
    doc["entrypoint"] = {"file": lab["entry"], "anchor": None, "step": lab["step"]["anchor"]}
    if lab.get("parallel"):
        doc["parallel"] = json.loads(json.dumps(lab["parallel"]))
    return doc


def self_test(names, out=sys.stdout):
    """Each label: a perfect schedule scores 100% on every metric; broken copies
    fail the metric they break."""
    import copy
    fails = [0]

    def check(cond, what):
        out.write("%s - %s\n" % ("ok" if cond else "FAIL", what))
        if not cond:
            fails[0] += 1

    check(parse_ecg_freq("every eval_interval=2000 steps") == ("step", 2000, None)
          and parse_ecg_freq("every micro-step") == ("micro-step", None, None)
          and parse_ecg_freq("once") == ("once", None, None)
          and parse_ecg_freq("every log_interval steps") == ("step", "?", None)
          and parse_ecg_freq("every token") == ("token", None, None)
          and parse_ecg_freq("every iteration of `for x in y`")[0] is None,
          "ecg's frequency text is read into (unit, every, times)")
    check(freq_ok("step/2000x400", "every 2000 steps x400") and not freq_ok("step/2000x400", "every 2000 steps")
          and freq_ok("epochx?", "every epoch") and not freq_ok("epoch/20", "every 20 steps")
          and freq_ok("token", "every step", "token") and freq_ok("step", "every micro-step", None, True),
          "frequencies compare by unit, period and count ('every 20 epochs' is not 'every 20 steps')")
    for f in label_files(names):
        name = f[:-5]
        with open(os.path.join(HERE, f), encoding="utf-8") as fh:
            lab = json.load(fh)
        try:
            check_label(lab, name)
        except LabelError as e:
            check(False, "%s: well-formed (%s)" % (name, e))
            continue
        lab["_name"] = name
        perfect = perfect_schedule(lab)
        r = score_job(lab, perfect)
        t = totals([r])
        full = all(n == d for k, (n, d) in t.items() if k != "negatives_flagged") and t["negatives_flagged"][0] == 0
        check(full, "%s: the perfect schedule scores 100%% on every metric" % name)
        if not full:
            details(r, out)

        def broken(mutate, metric, what):
            d = copy.deepcopy(perfect)
            if mutate(d) is False:
                return
            tt = totals([score_job(lab, d)])
            n, dd = tt[metric]
            bad = (n != 0) if metric == "negatives_flagged" else (n < dd)
            check(bad, "%s: %s lowers %s" % (name, what, metric))

        if lab["syncs"]:
            broken(lambda d: d.update(host_device=[h for h in d["host_device"] if h["kind"] != "sync"]),
                   "sync_recall", "dropping the syncs")
        if lab["h2d"]:
            broken(lambda d: d.update(host_device=[h for h in d["host_device"] if h["kind"] != "h2d"]),
                   "h2d_recall", "dropping the copies")
        if lab["collectives"]:
            def flip(d):
                for c in d["device_device"]:
                    c["parallelism"] = "tensor" if c["parallelism"] != "tensor" else "data"
            broken(flip, "collective_recall", "the wrong parallelism")
        if lab.get("compile_regions"):
            broken(lambda d: d["compute"].update(compile_regions=[]), "compile_recall", "dropping compile regions")
        negs = [(k, e["anchor"]) for k in NEG_KEYS for e in lab.get(k) or []]
        if negs:
            def flag(d, k=negs[0][0], a=negs[0][1]):
                if k == "not_collectives":
                    d["device_device"].append({"op": "all_reduce", "parallelism": "data", "async_op": False,
                                               "anchor": a})
                elif k == "not_compile_regions":
                    d["compute"]["compile_regions"].append({"target": "x", "anchor": a})
                else:
                    d["host_device"].append({"kind": "h2d" if k == "not_h2d" else "sync", "call": "x",
                                             "anchor": a, "pinned": False, "non_blocking": False})
            broken(flag, "negatives_flagged", "a look-alike reported (%s)" % negs[0][1])
        if "syncs" in lab["complete"]:
            broken(lambda d: d["host_device"].extend({"kind": "sync", "call": ".item()", "anchor": "x.py:f:%d" % i}
                                                     for i in range(1, 12)) and False or None,
                   "sync_precision", "unlabelled syncs on a job complete for syncs")
        rows = [h for h in perfect["host_device"]]
        if rows:
            def wrong_phase(d):
                d["host_device"][0]["phase"] = "teardown-x"
            broken(wrong_phase, "phase", "a wrong phase")
        broken(lambda d: d.update(job_type={"value": None}), "job_type", "no job type")
        broken(lambda d: d["entrypoint"].update(step="x.py:f:1"), "step", "the wrong step")
    out.write("self-test: %d failure(s)\n" % fails[0])
    return fails[0] == 0


def main(argv):
    opts = {"ecg": None, "mirror": os.environ.get("ECG_REAL_MIRROR") or "/work/.mirror", "json": False,
            "keep": None, "verbose": False, "check": False, "self_test": False}
    names = []
    it = iter(argv[1:])
    for a in it:
        if a in ("--ecg", "--mirror", "--keep"):
            v = next(it, None)
            if v is None:
                sys.stderr.write(USAGE)
                return 2
            opts[a[2:]] = v
        elif a in ("--json", "--verbose"):
            opts[a[2:]] = True
        elif a == "--check-labels":
            opts["check"] = True
        elif a == "--self-test":
            opts["self_test"] = True
        elif a in ("-h", "--help"):
            sys.stdout.write(USAGE + __doc__)
            return 0
        elif a.startswith("-"):
            sys.stderr.write("score.py: unknown option %s\n%s" % (a, USAGE))
            return 2
        else:
            names.append(a)
    if opts["self_test"]:
        return 0 if self_test(names) else 1
    if not opts["ecg"] and not opts["check"]:
        sys.stderr.write(USAGE)
        return 2
    # with --json, stdout holds the JSON document only: the skip / error lines
    # and the final count go to stderr
    out = sys.stderr if opts["json"] else sys.stdout
    status = 0
    results, skipped, errors = [], [], []
    for f in label_files(names):
        name = f[:-5]
        try:
            with open(os.path.join(HERE, f), encoding="utf-8") as fh:
                lab = json.load(fh)
            if not isinstance(lab, dict):
                raise LabelError("not a JSON object")
            check_label(lab, name)
        except (OSError, ValueError, LabelError) as e:
            out.write("error %s: malformed label: %s\n" % (name, e))
            errors.append(name)
            status = 1
            continue
        lab["_name"] = name
        src = source_dir(opts["mirror"], lab["repo"])
        if not has_commit(src, lab["commit"]):
            out.write("skip %s: source not present at %s\n" % (name, src))
            skipped.append(name)
            continue
        extra = {lab["entry"].split(":", 1)[0]: entry_text(lab)} if entry_text(lab) is not None else {}
        probs = label_source_problems(lab, GitSource(src, lab["commit"], extra))
        if probs:
            out.write("error %s: label does not match the source at %s: %s\n" % (name, lab["commit"][:12],
                                                                                 "; ".join(probs)))
            errors.append(name)
            status = 1
            continue
        if opts["check"]:
            out.write("ok %s: label well-formed, %d anchors resolve at %s\n" % (
                name, 1 + sum(len(lab.get(k) or []) for k in KINDS + NEG_KEYS), lab["commit"][:12]))
            continue
        tmp = tempfile.mkdtemp(prefix="ecg-real-")
        try:
            rc, err = run_ecg(opts["ecg"], src, lab, tmp)
            if rc < 0 or rc == 5 or rc > 6:   # 6: written, no model or step
                what = ("killed by signal %d" % -rc) if rc < 0 else ("exit status %d" % rc)
                out.write("error %s: ecg %s: %s\n" % (name, what, err.strip().splitlines()[-1:] or ""))
                errors.append(name)
                status = 1
                continue
            sched = load_schedule(tmp) if rc in (0, 6) else None
            if sched is None:
                out.write("note %s: ecg exit status %d, no schedule (%s); scored as empty\n"
                          % (name, rc, " ".join(err.strip().splitlines()[-1:])))
                sched = {}
            if opts["keep"]:
                dst = os.path.join(opts["keep"], name)
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(tmp, dst)
        except (OSError, ValueError) as e:
            out.write("error %s: %s\n" % (name, e))
            errors.append(name)
            status = 1
            continue
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        r = score_job(lab, sched)
        results.append(r)
        if not opts["json"]:
            out.write(job_line(r) + "\n")
            if opts["verbose"]:
                details(r, out)
    if opts["check"]:
        out.write("labels: %d checked, %d skipped, %d bad\n" % (
            len(label_files(names)) - len(skipped) - len(errors), len(skipped), len(errors)))
        return status
    t = totals(results)
    failed = False
    if opts["json"]:
        json.dump({"jobs": results, "totals": {k: {"n": n, "d": d, "rate": rate(n, d)} for k, (n, d) in t.items()},
                   "skipped": skipped, "errors": errors}, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        for name, need, test in GATES:
            if test and not test(*t[name]):
                failed = True
    else:
        out.write("totals over %d job(s):\n" % len(results))
        for name, need, test in GATES:
            n, d = t[name]
            if test is None:
                verdict = ""
            else:
                ok = test(n, d)
                failed = failed or not ok
                verdict = "PASS" if ok else "FAIL"
            r_ = rate(n, d)
            out.write("  %-21s %-9s %-6s %-7s %s\n" % (name, fmt(n, d) if name != "negatives_flagged" else
                                                     "%d of %d" % (n, d),
                                                     "" if r_ is None or name == "negatives_flagged" else "%.2f" % r_,
                                                     need, verdict))
    out.write("schedule: %d jobs scored, %d skipped\n" % (len(results), len(skipped)))
    if failed and os.environ.get("ECG_REAL_STRICT") == "1":
        status = 1
    return status


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv))
