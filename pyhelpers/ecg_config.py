"""Configuration files a job reads, turned into plain data for ecg.

Loaded by ecg from its package data directory by absolute path (never through
sys.path), in ecg's isolated interpreter.  Standard library only.  It parses
data; it never imports or runs anything of the job's.

ecg calls load(name, data) and gets back a dict (or list) of str, int, float,
bool, None, and nested dicts and lists -- or raises ValueError with a message
that names the line when the format gives one.
"""

import json
import re

# The interface ecg expects; ecg refuses helpers with another number.
ECG_HELPERS_API = 1


def _load_json(text):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError("line %d: %s" % (e.lineno, e.msg)) from None


def _load_toml(text):
    import tomllib  # 3.11+

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(str(e)) from None


def _tag_bool(text):
    v = _scalar(text)
    if not isinstance(v, bool):
        raise ValueError("!!bool of %r" % text)
    return v


def _tag_int(text):
    t = text.replace("_", "")
    try:
        return int(t)
    except ValueError:
        return int(t, 0)            # 0x.., 0o.., 0b..


# The core schema's explicit scalar tags (`lr: !!float 1e-4`): the tag names
# the type, the text after it is converted to it (PyYAML's constructors).
# Any other tag is refused.
_TAGS = {
    "float": lambda t: float(t.replace("_", "")),
    "int": _tag_int,
    "str": lambda t: t,
    "bool": _tag_bool,
    "null": lambda t: None,
}
_UNSUPPORTED_TAG = re.compile(r"!!(?!(?:%s)(?:\s|$))" % "|".join(_TAGS))


def _tagged(t):
    """`!!TAG text` -> the text converted as TAG says."""
    tag, _, rest = t[2:].partition(" ")
    conv = _TAGS.get(tag)
    if conv is None:
        raise ValueError("YAML tag !!%s not supported here" % tag)
    rest = rest.strip()
    if len(rest) >= 2 and rest[0] in "'\"" and rest[-1] == rest[0]:
        rest = rest[1:-1]
    try:
        return conv(rest)
    except ValueError:
        raise ValueError("!!%s of %r" % (tag, rest)) from None


def _scalar(text):
    """A YAML plain or quoted scalar, the YAML 1.1 core types, or one with
    an explicit core tag (!!float, !!int, !!str, !!bool, !!null)."""
    t = text.strip()
    if t.startswith("!!"):
        return _tagged(t)
    if not t or t in ("~", "null", "Null", "NULL"):
        return None
    if t[0] in "'\"" and t[-1] == t[0] and len(t) >= 2:
        return t[1:-1]
    if t in ("true", "True", "TRUE", "yes", "Yes", "on", "On"):
        return True
    if t in ("false", "False", "FALSE", "no", "No", "off", "Off"):
        return False
    if t[0] in "[{":
        try:
            return _flow(t)
        except ValueError:
            return t                 # not a flow collection after all: plain text
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    return t


def _flow(text):
    """A YAML flow collection, nested: [a, [b, c]], {k: v, l: [1, 2]}
    (plain scalars end at , ] } -- and a key at its ': ')."""
    pos = [0]

    def ws():
        while pos[0] < len(text) and text[pos[0]] in " \t":
            pos[0] += 1

    def value(stops):
        ws()
        if pos[0] >= len(text):
            raise ValueError("flow collection ends early: %s" % text)
        ch = text[pos[0]]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            pos[0] += 1
            out = [] if ch == "[" else {}
            while True:
                ws()
                if pos[0] < len(text) and text[pos[0]] == close:
                    pos[0] += 1
                    return out
                if ch == "[":
                    out.append(value(",]"))
                else:
                    key = value(":,}")
                    ws()
                    val = None
                    if pos[0] < len(text) and text[pos[0]] == ":":
                        pos[0] += 1
                        val = value(",}")
                    out[str(key)] = val
                ws()
                if pos[0] < len(text) and text[pos[0]] == ",":
                    pos[0] += 1
                elif not (pos[0] < len(text) and text[pos[0]] == close):
                    raise ValueError("flow collection: expected ',' or '%s' in %s" % (close, text))
        if ch in "'\"":
            end = text.find(ch, pos[0] + 1)
            if end < 0:
                raise ValueError("unterminated quoted scalar in %s" % text)
            start, pos[0] = pos[0] + 1, end + 1
            return text[start:end]
        start = pos[0]
        while pos[0] < len(text) and text[pos[0]] not in stops:
            if text[pos[0]] == ":" and ":" in stops and (pos[0] + 1 == len(text) or text[pos[0] + 1] in " \t"):
                break
            pos[0] += 1
        return _scalar(text[start:pos[0]])

    v = value("")
    ws()
    if pos[0] != len(text):
        raise ValueError("text after a flow collection: %s" % text)
    return v


def _open_brackets(line):
    """[ and { not closed on the line (quotes skipped)."""
    depth, quote = 0, None
    for ch in line:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


def _flow_open(content):
    """Does a line's value start a flow collection it does not close?"""
    v = content
    if v.startswith("- "):
        v = v[2:].strip()
    elif v[:1] not in "[{" and ":" in v:
        v = v.partition(":")[2].strip()
    return v[:1] in "[{" and _open_brackets(v) > 0


def _strip_comment(line):
    out, quote = [], None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out).rstrip()


def _load_yaml(text):
    """The block subset of YAML that configuration files use: nested
    mappings, lists of scalars or mappings, plain and quoted scalars, flow
    collections (nested lists and mappings, also spanning lines: a model
    yaml's `backbone: [[-1, 1, Conv, [64, 3, 2]], ...]`), scalars with a
    core tag (`!!float 1e-4`).  Anchors, other tags and multi-line strings
    are refused."""
    lines = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        if any(tok in line for tok in ("&", "*", "!!", "|", ">")) and ":" not in line.split("#")[0][:1]:
            stripped = line.strip()
            if stripped.endswith(("|", ">")) or " &" in line or " *" in line or _UNSUPPORTED_TAG.search(line):
                raise ValueError("line %d: YAML feature not supported here" % no)
        indent = len(line) - len(line.lstrip(" "))
        if lines and _flow_open(lines[-1][2]):
            # a flow collection spanning lines: one logical line
            lines[-1] = (lines[-1][0], lines[-1][1], lines[-1][2] + " " + line.strip())
            continue
        lines.append((no, indent, line.strip()))

    def block(i, indent):
        if i >= len(lines):
            return None, i
        if lines[i][2][:1] in "[{":
            return _scalar(lines[i][2]), i + 1     # a flow collection as the block's value
        if lines[i][2].startswith("- ") or lines[i][2] == "-":
            out = []
            while i < len(lines) and lines[i][1] == indent and (lines[i][2].startswith("- ") or lines[i][2] == "-"):
                no, ind, content = lines[i]
                rest = content[1:].strip()
                if not rest:
                    val, i = block(i + 1, lines[i + 1][1] if i + 1 < len(lines) else indent + 2)
                    out.append(val)
                    continue
                if ":" in rest and not rest.startswith(("'", '"', "[")):
                    # a mapping inside a list item
                    sub_indent = ind + (len(content) - len(rest))
                    lines[i] = (no, sub_indent, rest)
                    val, i = mapping(i, sub_indent)
                    out.append(val)
                    continue
                out.append(_scalar(rest))
                i += 1
            return out, i
        return mapping(i, indent)

    def mapping(i, indent):
        out = {}
        while i < len(lines) and lines[i][1] == indent:
            no, ind, content = lines[i]
            if ":" not in content:
                raise ValueError("line %d: expected 'key: value'" % no)
            key, _, rest = content.partition(":")
            key = key.strip().strip("'\"")
            rest = rest.strip()
            if rest:
                out[key] = _scalar(rest)
                i += 1
            elif i + 1 < len(lines) and lines[i + 1][1] > indent:
                out[key], i = block(i + 1, lines[i + 1][1])
            elif i + 1 < len(lines) and lines[i + 1][1] == indent and lines[i + 1][2].startswith("- "):
                out[key], i = block(i + 1, indent)
            else:
                out[key] = None
                i += 1
        return out, i

    value, i = block(0, lines[0][1]) if lines else ({}, 0)
    if i != len(lines):
        raise ValueError("line %d: unexpected indentation" % lines[i][0])
    return value


LOADERS = {
    ".json": _load_json,
    ".toml": _load_toml,
    ".yaml": _load_yaml,
    ".yml": _load_yaml,
}


def supported(name):
    """True if load() knows the format of a file called `name`."""
    return any(name.endswith(ext) for ext in LOADERS)


def load(name, data):
    """Parse the bytes `data` of the configuration file `name`."""
    for ext, loader in LOADERS.items():
        if name.endswith(ext):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ValueError("not UTF-8 at byte %d" % e.start) from None
            return loader(text)
    raise ValueError("no reader for the format of %s" % name)


def load_as_json(name, data):
    """load(), serialised as JSON text for ecg's C side."""
    return json.dumps(load(name, data), allow_nan=False, default=str)
