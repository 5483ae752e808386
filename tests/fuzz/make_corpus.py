#!/usr/bin/python3
"""make_corpus.py -- (re)write tests/fuzz/corpus/extract/ seeds from the
project's own fixture jobs: each job's .py files joined with "#%% PATH"
markers, its entry script renamed train.py (fuzz_extract.c's entry).
Hand-written edge cases (edge-*) and found crashes (crash-*) are kept."""
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(TOP, "tests", "fuzz", "corpus", "extract")


def job(d, entry, name):
    parts = []
    for root, _, files in os.walk(d):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            p = os.path.relpath(os.path.join(root, f), d)
            text = open(os.path.join(root, f), encoding="utf-8").read()
            parts.append(("train.py" if p == entry else p, text))
    parts.sort()
    blob = "".join("#%% " + p + "\n" + t + ("" if t.endswith("\n") else "\n") for p, t in parts)
    with open(os.path.join(OUT, "seed-" + name), "w", encoding="utf-8") as fh:
        fh.write(blob)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.startswith("seed-"):
            os.unlink(os.path.join(OUT, f))
    for group in ("fixtures", "schedule_fixtures"):
        base = os.path.join(TOP, "tests", group)
        for n in sorted(os.listdir(base)):
            for meta in ("fixture.json", "expected.json"):
                fj = os.path.join(base, n, meta)
                if os.path.exists(fj):
                    job(os.path.join(base, n), json.load(open(fj))["entry"], n)
                    break
    job(os.path.join(TOP, "examples", "minigpt"), "train.py", "minigpt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
