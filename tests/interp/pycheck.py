#!/usr/bin/env python3
"""pycheck.py - run the snippet cases of tests/interp/*.test in CPython and
check that their expectations are what Python itself computes.

The expectations of a case are what Python does, written the way
test_interp renders values (tests/interp/README).  This script keeps them
honest: for each case whose expectations are all plain values (no
`unknown`, `forward`, `sched`, `len`, `note:`) and whose snippet does not
import torch and has no `# nopy:` line, it runs the files in a temporary
directory with the case's argv and compares.  It needs no torch.

    python3 tests/interp/pycheck.py [FILE.test ...]

Exit status 1 when an expectation differs from CPython's value.
"""
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

RUNNER = r'''
import os, sys, types, json
def render(v, depth=0):
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(render(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(render(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(render(k) + ": " + render(x) for k, x in v.items()) + "}"
    if isinstance(v, range):
        return repr(v) if v.step != 1 else "range(%d, %d)" % (v.start, v.stop)
    if isinstance(v, types.FunctionType):
        return "<function %s>" % v.__qualname__
    if isinstance(v, types.MethodType):
        return "<bound method %s>" % v.__func__.__qualname__
    if isinstance(v, type):
        return "<class '%s'>" % v.__qualname__
    if isinstance(v, types.ModuleType):
        return "<module '%s'>" % os.path.relpath(v.__file__)
    return "<%s object>" % type(v).__name__
def lookup(g, path):
    parts = path.split(".")
    v = g[parts[0]]
    for p in parts[1:]:
        v = v[p] if isinstance(v, dict) else getattr(v, p)
    return v
g = {"__name__": "__main__", "__file__": "main.py"}
want_lines = json.loads(sys.argv[2])
sys.argv = ["main.py"] + json.loads(sys.argv[1])
sys.path.insert(0, ".")
exec(compile(open("main.py").read(), "main.py", "exec"), g)
out = {}
for line in want_lines:
    lhs, want = line.split(" = ", 1)
    try:
        if lhs.startswith("mro "):
            got = " ".join(c.__name__ for c in lookup(g, lhs[4:]).__mro__ if c is not object)
        else:
            got = render(lookup(g, lhs))
    except KeyError:
        got = "<unbound>"
    except Exception as e:
        got = "<error %r>" % e
    out[line] = got
print(json.dumps(out))
'''


def cases(path):
    """Yield (line, name, argv, src, expects) of each case of a .test file."""
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        if not l.strip() or l.startswith("##"):
            i += 1
            continue
        start, name, argv = i + 1, l[1:].strip(), []
        i += 1
        while i < len(lines) and (lines[i].startswith("# xfail:") or lines[i].startswith("# argv:")):
            if lines[i].startswith("# argv:"):
                argv = lines[i][7:].split()
            i += 1
        src = []
        while i < len(lines) and lines[i].rstrip() != "---":
            src.append(lines[i])
            i += 1
        i += 1
        exp = []
        while i < len(lines) and lines[i].strip():
            exp.append(lines[i].strip())
            i += 1
        yield start, name, argv, "\n".join(src) + "\n", exp


def split_files(src):
    files, cur, name = {}, [], "main.py"
    # src ends in "\n": the last file ends as the others do, not with a
    # blank line more (a text file's lines are read as they are)
    for l in (src[:-1] if src.endswith("\n") else src).split("\n"):
        if l.startswith("#%% "):
            files[name] = "\n".join(cur) + "\n"
            name, cur = l[4:].strip(), []
        else:
            cur.append(l)
    files[name] = "\n".join(cur) + "\n"
    return files


def main():
    import json
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "*.test")))
    bad = checked = skipped = 0
    for path in paths:
        for line, name, argv, src, exp in cases(path):
            plain = [e for e in exp if " = " in e and not e.startswith(("forward ", "sched ", "len "))
                     and "unknown" not in e.split(" = ", 1)[1]]
            if "import torch" in src or "# nopy:" in src or len(plain) != len(exp):
                skipped += 1
                continue
            checked += 1
            with tempfile.TemporaryDirectory() as d:
                for fn, text in split_files(src).items():
                    os.makedirs(os.path.dirname(os.path.join(d, fn)), exist_ok=True)
                    with open(os.path.join(d, fn), "w") as f:
                        f.write(text)
                r = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(argv), json.dumps(exp)],
                                   cwd=d, capture_output=True, text=True)
            if r.returncode != 0:
                bad += 1
                print("%s:%d: %s: CPython fails: %s" % (path, line, name, r.stderr.strip().split("\n")[-1]))
                continue
            for e, got in json.loads(r.stdout.strip().split("\n")[-1]).items():
                if e.split(" = ", 1)[1] != got:
                    bad += 1
                    print("%s:%d: %s: `%s` but CPython gives `%s`" % (path, line, name, e, got))
    print("pycheck: %d cases checked against CPython, %d skipped, %d differences" % (checked, skipped, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
