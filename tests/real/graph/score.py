#!/usr/bin/env python3
"""score.py -- score ecg's computation graph on the real-code graph corpus

    score.py --ecg PATH [--mirror DIR] [--json] [--keep DIR] [--verbose] [JOB ...]
    score.py --self-test

Standard library only (and git, to check that a commit is present).  Each
label file tests/real/graph/<job>.json names a public repository, a commit,
an entry script, the job's argv and the truth recorded once with PyTorch by
record_real.py (format: README next to this file).  The job's source is
$ECG_REAL_MIRROR (default /work/.mirror, --mirror overrides)/<owner>+<name>/
repo, or that directory itself when it is a git dir; when it is absent or
lacks the commit the job is skipped ("skip <job>: source not present at
<path>").  Otherwise

    ECG extract --repo SRC --rev COMMIT --entry ENTRY --out TMP --no-cache -q
                [--site DIR ...] [ecg_args] [-- argv]

(--site for each of the label's "site" directories: the installed
libraries the truth was recorded with; a job whose "requires" names a
package none of them holds is skipped: "skip <job>: <package> not
installed in <dirs>")

is run and its records/computation_graph.json scored with the matching of
tests/oracle/score.py (ids with "*" / "a:b" patterns cover truth ids; class
names as there), on these metrics:

  paths     module paths and classes: recall = truth modules covered by an
            entry naming the right class / truth modules judged (the inside
            of a torch.nn layer or a third-party module is not judged when
            nothing covers it); precision = ecg module entries that cover a
            truth module / ecg module entries.            need >= 0.97 each
  repeats   wrong = ecg entries whose total_repeat is given and is not the
            number of runs, in the recorded root call, of the truth modules
            they cover (must be 0); given = the truth's repeating units
            (modules grouped by id with ModuleList/Sequential indices made
            "*", and by class; runs > 1) that ecg covers with a total_repeat
            on every covering entry / such units whose count the
            repository pins (the label's "unpinned" list names the
            others).  need 0 wrong, given >= 0.90
  ops       (op, file, line) sets as tests/oracle/score.py builds them
            (meta reads and torch-internal ops left out): recall and
            precision.                                    need >= 0.90 each
  anchors   for every truth module whose forward is in the repository, every
            entry covering it has the code_anchor the truth recorded
            ("file:Qual.forward:line", line = co_firstlineno: the first
            decorator's line for a decorated forward).    need >= 0.97

Totals pool the counts of all scored jobs (micro-average).  Exit status: 0;
1 when a label file is malformed or ecg exits with status 5 or above 6 (6:
records written, no model or no step found) or dies of a
signal; with ECG_REAL_STRICT=1 also 1 when a total misses its threshold.
--keep DIR keeps each job's records in DIR/<job>/.  --json prints one JSON
document instead of the table.  JOB names restrict the run to those labels.

--self-test (TAP, no ecg, no mirror): every label's truth turned into the
graph a perfect ecg would write (tests/oracle/score.py's build_perfect,
collapsed and expanded) scores 100%, and broken copies (ids prefixed with a
wrapper's name, a wrong or null total_repeat, an op moved, a forward anchor
one line off) fail the metric they break.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import importlib.util

HERE = os.path.dirname(os.path.realpath(__file__))


def _load_oracle():
    """tests/oracle/score.py, under its own name (this file is score.py too)."""
    path = os.path.join(HERE, "..", "..", "oracle", "score.py")
    spec = importlib.util.spec_from_file_location("oracle_score", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["oracle_score"] = mod
    spec.loader.exec_module(mod)
    return mod


O = _load_oracle()

THRESHOLDS = {"paths_recall": 0.97, "paths_precision": 0.97,
              "repeat_given": 0.90, "op_recall": 0.90, "op_precision": 0.90,
              "anchors": 0.97}
HEX40 = re.compile(r"^[0-9a-f]{40}$")
ECG_TIMEOUT = 600


class Malformed(Exception):
    pass


def check_label(job, d):
    def need(cond, what):
        if not cond:
            raise Malformed("%s.json: %s" % (job, what))
    need(isinstance(d, dict), "not a JSON object")
    need(isinstance(d.get("repo"), str) and d["repo"].count("/") == 1, '"repo" is not "owner/name"')
    need(isinstance(d.get("commit"), str) and HEX40.match(d["commit"]), '"commit" is not 40 hex digits')
    need(isinstance(d.get("entry"), str) and d["entry"], '"entry" is not a path')
    for k in ("argv", "ecg_args"):
        need(isinstance(d.get(k, []), list) and all(isinstance(x, str) for x in d.get(k, [])),
             '"%s" is not a list of strings' % k)
    need(isinstance(d.get("models"), dict) and d["models"], '"models" is not a non-empty object')
    t = d.get("truth")
    need(isinstance(t, dict) and isinstance(t.get("models"), list) and t["models"],
         '"truth" has no models (record it with record_real.py)')
    for m in t["models"]:
        need(isinstance(m, dict) and isinstance(m.get("modules"), list)
             and isinstance(m.get("calls"), list), "a truth model lacks modules or calls")
        for mod in m["modules"]:
            need(isinstance(mod, dict) and isinstance(mod.get("id"), str)
                 and "class" in mod and "calls" in mod, "a truth module lacks id, class or calls")
    for k in ("site", "requires"):
        need(isinstance(d.get(k, []), list) and all(isinstance(x, str) and x for x in d.get(k, [])),
             '"%s" is not a list of strings' % k)
    need(all(os.path.isabs(x) for x in d.get("site", [])), '"site" holds a relative path')
    for k in ("unpinned", "not_judged"):
        un = d.get(k, [])
        need(isinstance(un, list) and all(isinstance(u, dict) and isinstance(u.get("id"), str)
                                          and isinstance(u.get("why"), str) for u in un),
             '"%s" is not a list of {"id": ..., "why": ...}' % k)


def source_of(mirror, repo):
    d = os.path.join(mirror, repo.replace("/", "+"))
    if os.path.isdir(os.path.join(d, "repo")):
        return os.path.join(d, "repo")
    return d


def has_commit(src, commit):
    if not os.path.isdir(src):
        return False
    try:
        r = subprocess.run(["git", "--git-dir", src, "cat-file", "-e", commit + "^{commit}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return False
    if r.returncode == 0:
        return True
    # a work tree rather than a bare dir
    r = subprocess.run(["git", "-C", src, "cat-file", "-e", commit + "^{commit}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def subtree_match(patterns, ident, multi):
    """Is the truth id, or one of its ancestors, matched by a pattern?"""
    ip, iseg = O.split_id(ident, multi)
    for u in patterns:
        up, useg = O.split_id(u["id"], multi)
        if up == ip and len(useg) <= len(iseg) and \
                all(O.seg_match(a, b) for a, b in zip(useg, iseg)):
            return True
    return False


class RealScorer(O.Scorer):
    def __init__(self, truth, graph, unpinned, inexpressible=None, not_judged=()):
        super().__init__(truth, graph, os.devnull)
        self.unpinned = unpinned
        self.not_judged = list(not_judged)
        if inexpressible is None:
            inexpressible = inexpressible_ids(truth)
        self.inexpressible = inexpressible
        if self.not_judged and not getattr(truth, "_nj_wrapped", False):
            # ops of modules the label leaves unjudged are not in the truth set
            orig, nj, multi = truth.op_included, self.not_judged, truth.multi
            truth.op_included = lambda c, it: orig(c, it) and not (
                c.get("module") is not None and subtree_match(nj, c["module"], multi))
            truth._nj_wrapped = True

    def opaque_ancestor(self, tm):
        """As the oracle's, and a module the label's "not_judged" names (a
        library's module placed in the repository's container) counts as
        inside something ecg cannot read: judged only when ecg covers it."""
        if self.not_judged and subtree_match(self.not_judged, tm["id"], self.t.multi):
            return tm
        return super().opaque_ancestor(tm)

    def _unpinned(self, tm):
        """True when the truth module is, or is inside, a unit the label
        lists as "unpinned" (its count is not in the repository)."""
        return subtree_match(self.unpinned, tm["id"], self.t.multi)

    def _pinned_entry(self, e):
        return not any(self._unpinned(tm) for tm in self.covered_by.get(e.get("id"), ()))

    def units(self):
        """The truth's repeated units: modules grouped by their id with every
        index into a ModuleList / Sequential made "*", and by class
        (transformer.h.* Block, transformer.h.*.attn CausalSelfAttention);
        a unit's runs are the sum of its modules' calls."""
        pre_cls = {m["id"]: m["class"] for m in self.t.modules}
        groups = {}
        for tm in self.t.modules:
            if tm["class"] in O.ITERATED and not tm["calls"]:
                continue
            pre, segs = O.split_id(tm["id"], self.t.multi)
            pat = []
            for i, seg in enumerate(segs):
                parent = ".".join(segs[:i])
                if self.t.multi:
                    parent = pre + ("/" + parent if parent else "")
                if seg.isdigit() and pre_cls.get(parent) in O.INDEXED:
                    pat.append("*")
                else:
                    pat.append(seg)
            key = (pre, ".".join(pat), tm["class"])
            groups.setdefault(key, []).append(tm)
        return groups

    def repeat(self):
        """wrong: the oracle's check of every entry's total_repeat against
        the runs of the truth modules it covers.  given: over the truth's
        repeating units (runs > 1) whose count the repository pins and
        whose inside is judged: given when ecg covers the unit and every
        entry covering it has a total_repeat."""
        r = super().repeat()
        wrong = list(r["failures"])
        repeating = given = 0
        missing = []
        for (pre, pat, cls), tms in sorted(self.units().items()):
            runs = sum(tm["calls"] for tm in tms)
            if runs <= 1 or any(self._unpinned(tm) or tm["id"] in self.inexpressible for tm in tms):
                continue
            es = {}
            for tm in tms:
                for e in self.cover[tm["id"]]:
                    es[e["id"]] = e
            if not es and any(self.opaque_ancestor(tm) is not None for tm in tms):
                continue       # inside a torch.nn layer or a library module
            repeating += 1
            name = (pre + "/" if pre else "") + pat
            if es and all(e.get("total_repeat") is not None for e in es.values()):
                given += 1
            elif not es:
                missing.append("%s (%s, runs %d): not covered" % (name, cls, runs))
            else:
                bad = [i for i, e in es.items() if e.get("total_repeat") is None]
                missing.append("%s (%s, runs %d): total_repeat null on %s" % (name, cls, runs, ", ".join(map(repr, bad))))
        return {"judged": r["judged"], "with_total": r["with_total"], "wrong": len(wrong),
                "repeating_pinned": repeating, "given": given,
                "given_rate": given / repeating if repeating else None,
                "failures": wrong, "not_given": missing}

    def anchors(self):
        n = good = 0
        fails = []
        for tm in self.t.modules:
            want = tm.get("forward")
            if not want:
                continue
            n += 1
            es = self.cover[tm["id"]]
            if not es:
                fails.append("%r: not covered (want %s)" % (tm["id"], want))
                continue
            bad = [e for e in es if e.get("code_anchor") != want]
            if bad:
                fails.append("%r: ecg %r has %r, want %s" % (tm["id"], bad[0]["id"], bad[0].get("code_anchor"), want))
            else:
                good += 1
        return {"judged": n, "ok": good, "rate": good / n if n else None, "failures": fails}

    def score_real(self):
        m = self.modules()
        return {"paths": {"truth": m["truth_modules"], "ok": m["ok"],
                          "recall": m["rate"], "ecg_entries": m["ecg_module_entries"],
                          "spurious": m["spurious"],
                          "precision": m["precision"],
                          "failures": m["failures"], "spurious_entries": m["spurious_entries"]},
                "repeats": self.repeat(), "ops": self.ops(), "anchors": self.anchors()}


def label_sites(label):
    """The label's "site" directories as --site options, and the packages of
    its "requires" that none of them holds (the job is then skipped: its
    truth was recorded with them, anchored into their files)."""
    sites = label.get("site", [])
    missing = [r for r in label.get("requires", [])
               if not any(os.path.isdir(os.path.join(s, r)) for s in sites)]
    opts = []
    for s in sites:
        opts += ["--site", s]
    return opts, missing


def run_ecg(ecg, src, label, out):
    cmd = [ecg, "extract", "--repo", src, "--rev", label["commit"], "--entry", label["entry"],
           "--out", out, "--no-cache", "-q"] + label_sites(label)[0] + list(label.get("ecg_args", []))
    argv = list(label.get("argv", []))
    if argv:
        cmd += ["--"] + argv
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=ECG_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out after %ds" % ECG_TIMEOUT
    return p.returncode, p.stderr.decode(errors="replace").strip()


def pct(x):
    return " n/a " if x is None else "%5.1f%%" % (100.0 * x)


def ratio(a, b):
    return a / b if b else None


class Totals:
    def __init__(self):
        self.n = {k: 0 for k in ("p_truth", "p_ok", "p_ent", "p_spur", "r_wrong", "r_rep", "r_given",
                                 "o_truth", "o_ecg", "o_hit", "a_n", "a_ok")}

    def add(self, r):
        n = self.n
        n["p_truth"] += r["paths"]["truth"]
        n["p_ok"] += r["paths"]["ok"]
        n["p_ent"] += r["paths"]["ecg_entries"]
        n["p_spur"] += r["paths"]["spurious"]
        n["r_wrong"] += r["repeats"]["wrong"]
        n["r_rep"] += r["repeats"]["repeating_pinned"]
        n["r_given"] += r["repeats"]["given"]
        n["o_truth"] += r["ops"]["truth_ops"]
        n["o_ecg"] += r["ops"]["ecg_ops"]
        n["o_hit"] += r["ops"]["matched"]
        n["a_n"] += r["anchors"]["judged"]
        n["a_ok"] += r["anchors"]["ok"]

    def rows(self):
        n = self.n
        rows = [
            ("paths+classes recall", "%d/%d" % (n["p_ok"], n["p_truth"]), ratio(n["p_ok"], n["p_truth"]),
             ">=97%", THRESHOLDS["paths_recall"]),
            ("paths precision", "%d/%d" % (n["p_ent"] - n["p_spur"], n["p_ent"]),
             ratio(n["p_ent"] - n["p_spur"], n["p_ent"]), ">=97%", THRESHOLDS["paths_precision"]),
            ("repeat counts wrong", "%d" % n["r_wrong"], None, "0", None),
            ("repeat counts given", "%d/%d" % (n["r_given"], n["r_rep"]), ratio(n["r_given"], n["r_rep"]),
             ">=90%", THRESHOLDS["repeat_given"]),
            ("ops recall", "%d/%d" % (n["o_hit"], n["o_truth"]), ratio(n["o_hit"], n["o_truth"]),
             ">=90%", THRESHOLDS["op_recall"]),
            ("ops precision", "%d/%d" % (n["o_hit"], n["o_ecg"]), ratio(n["o_hit"], n["o_ecg"]),
             ">=90%", THRESHOLDS["op_precision"]),
            ("forward anchors", "%d/%d" % (n["a_ok"], n["a_n"]), ratio(n["a_ok"], n["a_n"]),
             ">=97%", THRESHOLDS["anchors"]),
        ]
        out = []
        for name, got, rate, need, th in rows:
            if th is None:
                ok = n["r_wrong"] == 0
            else:
                ok = rate is not None and rate >= th
            out.append((name, got, rate, need, ok))
        return out


def job_line(job, r):
    p, rp, o, a = r["paths"], r["repeats"], r["ops"], r["anchors"]
    return ("%-28s paths %4d/%-4d %s prec %s | repeats wrong %d given %d/%d | ops R %s P %s (%d/%d/%d) | anchors %d/%d %s"
            % (job, p["ok"], p["truth"], pct(p["recall"]), pct(p["precision"]),
               rp["wrong"], rp["given"], rp["repeating_pinned"],
               pct(o["recall"]), pct(o["precision"]), o["matched"], o["truth_ops"], o["ecg_ops"],
               a["ok"], a["judged"], pct(a["rate"])))


def details(r, lim, out):
    def items(title, lst):
        if not lst:
            return
        out.write("    %s (%d):\n" % (title, len(lst)))
        for s in lst[:lim]:
            out.write("      %s\n" % s)
        if lim is not None and len(lst) > lim:
            out.write("      ... %d more\n" % (len(lst) - lim))
    items("paths/classes failing", r["paths"]["failures"])
    items("spurious module entries", r["paths"]["spurious_entries"])
    items("wrong repeat counts", r["repeats"]["failures"])
    items("repeating units without total_repeat", r["repeats"]["not_given"])
    items("truth ops ecg misses", r["ops"]["missing"])
    items("ecg ops not in the truth", r["ops"]["extra"])
    items("forward anchors failing", r["anchors"]["failures"])


class _TruthForwards:
    """Stands in for tests/oracle/score.py's ClassIndex when building a
    perfect graph: the forward anchors are the ones the truth recorded."""
    def __init__(self, truth):
        self.by_class = {}
        for m in truth.modules:
            if m.get("defined_in") and m.get("forward"):
                self.by_class.setdefault(m["defined_in"], m["forward"])

    def forward_anchor(self, defined_in):
        return self.by_class.get(defined_in)


def inexpressible_ids(truth):
    """Truth modules whose runs the contract's product rule cannot state
    (total_repeat = product of the counts up the tree): a module that runs
    while its parent container never does (guided-diffusion's ResBlock
    calls a slice in_layers[:-1], a new Sequential holding in_layers' own
    children).  The perfect graph leaves their total_repeat null; they are
    left out of "given"."""
    out = set()
    g = perfect_graph(truth)
    sc = O.Scorer(truth, g, os.devnull)
    for e in sc.mod_entries:
        if e.get("total_repeat") is None:
            for tm in sc.covered_by.get(e["id"], ()):
                out.add(tm["id"])
    return out


def perfect_graph(truth, collapse=True):
    saved = O.ClassIndex
    O.ClassIndex = lambda _dir: _TruthForwards(truth)
    try:
        return {"modules": O.build_perfect(truth, os.devnull, collapse)}
    finally:
        O.ClassIndex = saved


def _all_pass(r):
    p, rp, o, a = r["paths"], r["repeats"], r["ops"], r["anchors"]
    # the perfect builder writes no ops for a module built and called inside
    # a forward (ViT-pytorch's CrossEntropyLoss): not in named_modules()
    missed = [m for m in o["missing"] if not m.endswith("(in None)")]
    return (p["recall"] == 1.0 and p["precision"] in (1.0, None) and rp["wrong"] == 0
            and rp["given"] == rp["repeating_pinned"] and not missed
            and o["precision"] in (1.0, None) and a["rate"] in (1.0, None))


def self_test(out):
    _RealScorer = globals()["RealScorer"]
    """Every label's truth, turned into the graph a perfect ecg would write
    (collapsed and expanded), scores 100% on every metric; broken copies
    (ids prefixed with a wrapper's name, a wrong total_repeat, a null
    total_repeat, an op moved a line, a wrong forward anchor) fail the
    metric they break.  No ecg, no mirror, stdlib only."""
    fails = n = 0

    def check(cond, what):
        nonlocal fails, n
        n += 1
        out.write("%s %d - %s\n" % ("ok" if cond else "not ok", n, what))
        if not cond:
            fails += 1
    for job in sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".json")):
        with open(os.path.join(HERE, job + ".json"), encoding="utf-8") as fh:
            label = json.load(fh)
        try:
            check_label(job, label)
        except Malformed as e:
            check(False, "%s: label well-formed (%s)" % (job, e))
            continue
        truth = O.Truth(label["truth"])
        un = label.get("unpinned", [])
        inex = inexpressible_ids(truth)

        def RealScorer(t, g, u, _inex=inex, _nj=label.get("not_judged", [])):
            return _RealScorer(t, g, u, _inex, _nj)
        nj = label.get("not_judged", [])

        def judged_only(g):
            # a perfect ecg that does not read libraries leaves those out
            if not nj:
                return g
            return {"modules": [e for e in g["modules"] if not (
                isinstance(e.get("id"), str)
                and subtree_match(nj, e["id"].split("#", 1)[0], truth.multi))]}
        for collapse in (True, False):
            g = judged_only(perfect_graph(truth, collapse))
            r = RealScorer(truth, g, un).score_real()
            check(_all_pass(r), "%s: perfect graph (%s) scores 100%%" % (job, "collapsed" if collapse else "expanded"))
        g = judged_only(perfect_graph(truth))
        mods = g["modules"]
        # a wrapper's name before every id of a single model
        if not truth.multi:
            bad = {"modules": [dict(e, id="task/" + e["id"] if e.get("id") else "task") for e in mods]}
            r = RealScorer(truth, bad, un).score_real()
            check(r["paths"]["recall"] < 0.5, "%s: prefixed ids fail paths" % job)
        # a wrong / a missing total_repeat on a repeating unit
        rep = [i for i, e in enumerate(mods) if e.get("kind") in O.MODULE_KINDS
               and isinstance(e.get("total_repeat"), int) and e["total_repeat"] > 1
               and RealScorer(truth, g, un)._pinned_entry(e)]
        if rep:
            i = rep[0]
            bad = {"modules": [dict(e, total_repeat=e["total_repeat"] + 1) if k == i else e
                               for k, e in enumerate(mods)]}
            r = RealScorer(truth, bad, un).score_real()
            check(r["repeats"]["wrong"] == 1, "%s: a wrong total_repeat is counted wrong" % job)
            bad = {"modules": [dict(e, total_repeat=None) if k == i else e for k, e in enumerate(mods)]}
            r = RealScorer(truth, bad, un).score_real()
            check(r["repeats"]["wrong"] == 0 and r["repeats"]["given"] < r["repeats"]["repeating_pinned"],
                  "%s: a null total_repeat is not given" % job)
        tset = truth.op_set()

        def tkey(e):
            a = O.parse_anchor(e.get("code_anchor"))
            return (e.get("op"), a[0], a[2]) if a else None
        ops = [i for i, e in enumerate(mods) if e.get("kind") == "op" and tkey(e) in tset]
        if ops:
            i = ops[0]
            f, sym, line = O.parse_anchor(mods[i]["code_anchor"])
            moved = "%s:%s:%d" % (f, sym, line + 1000)
            key = (mods[i]["op"], mods[i]["code_anchor"])
            bad = {"modules": [dict(e, code_anchor=moved) if (e.get("op"), e.get("code_anchor")) == key else e
                               for e in mods]}
            r = RealScorer(truth, bad, un).score_real()
            check(r["ops"]["recall"] < 1.0 and r["ops"]["precision"] < 1.0, "%s: a moved op is missed and extra" % job)
        fw = [i for i, e in enumerate(mods) if e.get("kind") in O.MODULE_KINDS and e.get("code_anchor")
              and any(tm.get("forward") == e["code_anchor"] for tm in truth.modules)]
        if fw:
            i = fw[0]
            f, sym, line = O.parse_anchor(mods[i]["code_anchor"])
            bad = {"modules": [dict(e, code_anchor="%s:%s:%d" % (f, sym, line + 1)) if k == i else e
                               for k, e in enumerate(mods)]}
            r = RealScorer(truth, bad, un).score_real()
            check(r["anchors"]["rate"] < 1.0, "%s: a forward anchor one line off fails" % job)
    out.write("1..%d\n" % n)
    return 1 if fails else 0


def main(argv):
    ecg = None
    mirror = os.environ.get("ECG_REAL_MIRROR", "/work/.mirror")
    as_json = verbose = False
    keep = None
    only = []
    i = 0
    try:
        while i < len(argv):
            a = argv[i]
            if a == "--ecg":
                ecg = argv[i + 1]
                i += 2
            elif a == "--mirror":
                mirror = argv[i + 1]
                i += 2
            elif a == "--keep":
                keep = argv[i + 1]
                i += 2
            elif a == "--json":
                as_json = True
                i += 1
            elif a in ("-v", "--verbose"):
                verbose = True
                i += 1
            elif a == "--self-test":
                return self_test(sys.stdout)
            elif a in ("-h", "--help"):
                sys.stdout.write(__doc__)
                return 0
            elif a.startswith("-"):
                raise IndexError
            else:
                only.append(a[:-5] if a.endswith(".json") else a)
                i += 1
    except IndexError:
        sys.stderr.write("usage: score.py --ecg PATH [--mirror DIR] [--json] [--keep DIR] [--verbose] [JOB ...]\n")
        return 2
    if not ecg:
        sys.stderr.write("score.py: --ecg PATH is required\n")
        return 2
    strict = os.environ.get("ECG_REAL_STRICT") == "1"
    out = sys.stdout
    labels = sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".json"))
    if only:
        labels = [j for j in labels if j in only]
    status = 0
    scored = skipped = 0
    totals = Totals()
    results = {}
    for job in labels:
        path = os.path.join(HERE, job + ".json")
        try:
            try:
                with open(path, encoding="utf-8") as fh:
                    label = json.load(fh)
            except (OSError, ValueError) as e:
                raise Malformed("%s.json: %s" % (job, e))
            check_label(job, label)
            truth = O.Truth(label["truth"])
        except (Malformed, O.InputError, KeyError, TypeError, AttributeError) as e:
            sys.stderr.write("score.py: malformed label %s\n" % e)
            results[job] = {"error": "malformed label: %s" % e}
            status = 1
            continue
        src = source_of(mirror, label["repo"])
        if not has_commit(src, label["commit"]):
            if not as_json:
                out.write("skip %s: source not present at %s\n" % (job, src))
            results[job] = {"skipped": "source not present at %s" % src}
            skipped += 1
            continue
        missing = label_sites(label)[1]
        if missing:
            why = "%s not installed in %s" % (" ".join(missing), " ".join(label.get("site", [])) or "any site directory")
            if not as_json:
                out.write("skip %s: %s\n" % (job, why))
            results[job] = {"skipped": why}
            skipped += 1
            continue
        tmp = tempfile.mkdtemp(prefix="ecg-real-graph-")
        try:
            rc, err = run_ecg(ecg, src, label, tmp)
            if rc is None or rc < 0 or rc == 5 or rc > 6:   # 6: written, no model or step
                why = err.splitlines()[-1] if err else ""
                msg = "ecg %s" % ("died of signal %d" % -rc if rc is not None and rc < 0
                                  else "exit status %d" % rc if rc is not None else err)
                sys.stderr.write("score.py: %s: %s%s\n" % (job, msg, (": " + why) if why and rc is not None else ""))
                if not as_json:
                    out.write("error %s: %s\n" % (job, msg))
                results[job] = {"error": msg}
                status = 1
                continue
            gpath = os.path.join(tmp, "computation_graph.json")
            try:
                with open(gpath, encoding="utf-8") as fh:
                    graph = json.load(fh)
            except (OSError, ValueError) as e:
                graph = {"modules": []}
                sys.stderr.write("score.py: %s: ecg exit status %d and no readable graph (%s); scored as empty\n"
                                 % (job, rc, e))
            if keep:
                dst = os.path.join(keep, job)
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(tmp, dst)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        try:
            r = RealScorer(truth, graph, label.get("unpinned", []),
                           not_judged=label.get("not_judged", [])).score_real()
        except O.InputError as e:
            r = RealScorer(truth, {"modules": []}, label.get("unpinned", []),
                           not_judged=label.get("not_judged", [])).score_real()
            sys.stderr.write("score.py: %s: %s; scored as empty\n" % (job, e))
        totals.add(r)
        scored += 1
        results[job] = r
        if not as_json:
            out.write(job_line(job, r) + "\n")
            if verbose:
                details(r, None, out)
    rows = totals.rows()
    failed = [name for name, _, _, _, ok in rows if not ok]
    if as_json:
        doc = {"jobs": {}, "totals": {name: {"got": got, "rate": rate, "need": need, "pass": ok}
                                      for name, got, rate, need, ok in rows},
               "scored": scored, "skipped": skipped}
        for job, r in results.items():
            if "paths" in r:
                doc["jobs"][job] = {k: {kk: v for kk, v in r[k].items()} for k in r}
            else:
                doc["jobs"][job] = r
        json.dump(doc, out, indent=1, sort_keys=True)
        out.write("\n")
    else:
        out.write("totals:\n")
        for name, got, rate, need, ok in rows:
            out.write("  %-24s %-12s %-7s %-6s %s\n" % (name, got, pct(rate).strip(), need,
                                                      "PASS" if ok else "FAIL"))
        out.write("graph: %d jobs scored, %d skipped\n" % (scored, skipped))
    if strict and scored and failed:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
