#!/usr/bin/python3
"""schema_check.py SCHEMA_DIR RECORDS_DIR

Check RECORDS_DIR/computation_graph.json and RECORDS_DIR/execution_schedule.json
against the JSON Schemas in SCHEMA_DIR (records contract v1, draft 2020-12),
plus what a schema cannot say:

  - the text is exactly json.dumps(obj, indent=2, ensure_ascii=False) + "\\n"
    (2-space indent, no trailing blanks, final newline, no duplicate keys).
    Numbers are compared byte for byte too: the emitter prints integers
    without a fraction and other numbers as the shortest text that reads back,
    as repr() does, so a well-formed record re-serialises to itself;
  - key order: the common header, then the record's own sections;
  - commit (or null, with dirty null: no commit) and blobs are 40 hex; `files` sorted by path, no duplicates;
  - code anchors follow `path/file.py:Qualified.symbol:line` (`<module>` at
    module level);
  - modules: unique ids, every parent exists and comes before its children,
    `order` is 1-based, op ids are `<parent id>#<n>`, module ids extend their
    parent's id, `total_repeat` is the product of the repeat counts above.

Prints one "ok: ..." or "FAIL: ..." line per check; exits 1 on any FAIL.
Needs only the standard library and jsonschema (Debian python3-jsonschema).
"""
import json
import os
import re
import sys

import jsonschema

HEADER = ["schema", "tool", "commit", "dirty", "python", "entrypoint", "job_type",
          "config", "files", "parse_errors", "unresolved"]
RECORDS = {
    "computation_graph": ["modules"],
    "execution_schedule": ["phases", "data_path", "host_device", "device_device", "compute", "overlap"],
}
SHA = re.compile(r"[0-9a-f]{40}")
SEG = r"(?:[^\W\d]\w*|<locals>|<lambda>)"
ANCHOR = re.compile(r"(?:site:)?(?:(?!\.\.?/)[^/:\x00-\x1f]+/)*[^/:\x00-\x1f]*\.py"
                    rf":(?:<module>|{SEG}(?:\.{SEG})*):[1-9][0-9]*")
ANCHOR_KEYS = ("anchor", "code_anchor", "constructed_at")

failures = 0


def report(name, problems):
    global failures
    for p in problems:
        print(f"FAIL: {name}: {p}")
    failures += bool(problems)
    if not problems:
        print(f"ok: {name}")


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"duplicate key(s) {dup}")
    return dict(pairs)


def reject_constant(c):
    raise ValueError(f"{c} is not JSON")


def text_problems(raw):
    """Compare the file with its canonical re-serialisation; return (doc, problems)."""
    try:
        text = raw.decode("utf-8")
        doc = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=reject_constant)
    except ValueError as e:  # includes UnicodeDecodeError and JSONDecodeError
        return None, [f"not valid JSON: {e}"]
    canon = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if canon == text:
        return doc, []
    got, want = text.split("\n"), canon.split("\n")
    for i, (g, w) in enumerate(zip(got, want), 1):
        if g != w:
            return doc, [f"line {i} is {g!r}, canonical form is {w!r} (2-space indent, json.dumps layout)"]
    return doc, ["text differs from its canonical form at the end (missing or extra final newline?)"]


def anchors(node, where):
    """Yield (where, value) for every code anchor in node."""
    if isinstance(node, dict):
        for k, v in node.items():
            w = f"{where}.{k}"
            if k in ANCHOR_KEYS and isinstance(v, str) and where != "$.unresolved[]":
                yield w, v
            elif k == "source" and isinstance(v, str) and ":" in v:   # anchor or plain file path
                yield w, v
            elif k == "evidence" and isinstance(v, list):
                yield from ((f"{w}[]", a) for a in v if isinstance(a, str))
            else:
                yield from anchors(v, w)
    elif isinstance(node, list):
        for v in node:
            yield from anchors(v, f"{where}[]")


def header_problems(doc, sections):
    problems = []
    keys, want = list(doc), HEADER + sections
    if keys[:len(want)] != want:
        problems.append(f"top-level keys are {keys}, must start with {want}")
    if doc.get("commit") is None:
        # a directory outside any git repository: no commit, so no dirty
        if doc.get("dirty") is not None:
            problems.append(f"commit null but dirty {doc.get('dirty')!r}: dirty is null when there is no commit")
    elif not SHA.fullmatch(str(doc.get("commit"))):
        problems.append(f"commit {doc.get('commit')!r} is not 40 hex")
    files = doc.get("files") if isinstance(doc.get("files"), list) else []
    paths = [f.get("path") for f in files if isinstance(f, dict)]
    for f in files:
        if isinstance(f, dict) and not SHA.fullmatch(str(f.get("blob"))):
            problems.append(f"files: blob {f.get('blob')!r} of {f.get('path')!r} is not 40 hex")
    if all(isinstance(p, str) for p in paths):
        if len(set(paths)) != len(paths):
            problems.append("files: duplicate paths " + str(sorted({p for p in paths if paths.count(p) > 1})))
        if paths != sorted(paths):   # code point order == UTF-8 byte order
            problems.append("files: not sorted by path")
    step = (doc.get("entrypoint") or {}).get("step") if isinstance(doc.get("entrypoint"), dict) else None
    found = list(anchors(doc, "$")) + ([("$.entrypoint.step", step)] if isinstance(step, str) else [])
    problems += [f"{w}: {a!r} is not an anchor path/file.py:Qualified.symbol:line"
                 for w, a in found if not ANCHOR.fullmatch(a)]
    return problems


def module_problems(modules):
    problems, by_id, total = [], {}, {}
    models = [m.get("id") for m in modules if m.get("kind") == "model"]
    if len(models) == 1 and models != [""]:
        problems.append(f"the single model's id is {models[0]!r}, must be \"\"")
    if len(models) > 1 and "" in models:
        problems.append("with several models every model id must be the name the job binds it to, not \"\"")
    for i, m in enumerate(modules):
        mid, parent, kind, order = m.get("id"), m.get("parent"), m.get("kind"), m.get("order")
        at = f"modules[{i}] ({mid!r})"
        if not isinstance(mid, str) or not isinstance(parent, (str, type(None))):
            continue   # the schema has said so
        if mid in by_id:
            problems.append(f"{at}: duplicate id")
        by_id[mid] = m
        if parent is not None and parent not in by_id:
            where = "comes after it" if any(n.get("id") == parent for n in modules) else "does not exist"
            problems.append(f"{at}: parent {parent!r} {where}")
        if order is not None and (not isinstance(order, int) or isinstance(order, bool) or order < 1):
            problems.append(f"{at}: order {order!r} is not 1-based")
        if kind == "op" and parent is not None and not re.fullmatch(re.escape(parent) + r"#[1-9][0-9]*", mid):
            problems.append(f"{at}: an op id must be '<parent id>#<n>' with n >= 1 (parent {parent!r})")
        pkind = by_id.get(parent, {}).get("kind")
        if kind in ("module", "layer", "container") and pkind in ("model", "module", "layer", "container") and parent:
            prefix = parent + ("/" if pkind == "model" else ".")
            if not mid.startswith(prefix):
                problems.append(f"{at}: a module id below {parent!r} must start with {prefix!r}")
        # total_repeat: product of the repeat counts of the entry and its ancestors (parents come first)
        rep = m.get("repeat")
        count = rep.get("count") if isinstance(rep, dict) else 1
        up = total.get(parent, 1) if parent is not None else 1
        total[mid] = count * up if isinstance(count, int) and isinstance(up, int) else None
        if "total_repeat" in m and m["total_repeat"] != total[mid]:
            problems.append(f"{at}: total_repeat is {m['total_repeat']!r}, the product of the repeat counts "
                            f"of it and its ancestors is {total[mid]!r}")
    return problems


def explain(error):
    """One line for a schema error: the most relevant sub-error, patterns by their description."""
    e = jsonschema.exceptions.best_match([error])
    while e.context:
        e = jsonschema.exceptions.best_match(e.context)
    msg = e.message
    if e.validator == "pattern":
        msg = f"{e.instance!r} is not {e.schema.get('title', 'matching ' + e.validator_value)}"
    return f"{e.json_path}: {msg}"


def main(argv):
    if len(argv) != 3:
        print("usage: " + __doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    schema_dir, records_dir = argv[1], argv[2]
    for name, sections in RECORDS.items():
        fname = f"{name}.json"
        try:
            with open(os.path.join(schema_dir, f"{name}.schema.json"), encoding="utf-8") as f:
                schema = json.load(f)
            jsonschema.Draft202012Validator.check_schema(schema)
            with open(os.path.join(records_dir, fname), "rb") as f:
                raw = f.read()
        except (OSError, ValueError, jsonschema.SchemaError) as e:
            report(fname, [f"cannot check: {e}"])
            continue
        doc, problems = text_problems(raw)
        report(f"{fname}: JSON text and layout", problems)
        if doc is None:
            continue
        validator = jsonschema.Draft202012Validator(schema)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        report(f"{fname}: schema {schema.get('$id')}", [explain(e) for e in errors])
        if not isinstance(doc, dict):
            continue
        report(f"{fname}: header, key order, shas, files, anchors", header_problems(doc, sections))
        if name == "computation_graph" and isinstance(doc.get("modules"), list):
            report(f"{fname}: module tree", module_problems([m for m in doc["modules"] if isinstance(m, dict)]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
