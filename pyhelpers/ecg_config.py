"""Configuration files a job reads, turned into plain data for ecg.

Loaded by ecg from its package data directory by absolute path (never through
sys.path), in ecg's isolated interpreter.  Standard library only.  It parses
data; it never imports or runs anything of the job's.

ecg calls load(name, data) and gets back a dict (or list) of str, int, float,
bool, None, and nested dicts and lists -- or raises ValueError with a message
that names the line when the format gives one.
"""

import json

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


LOADERS = {
    ".json": _load_json,
    ".toml": _load_toml,
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
