# Settings overrides, exec()'d by train.py right after its defaults:
#
#   torchrun --nproc_per_node=8 train.py config/owt_124m.py --eval_interval=500
#
# A plain argument names a Python file of assignments, run in train.py's
# globals; --name=value replaces one existing setting (a Python literal when it
# parses as one, else the string), and its type must not change.
import sys
from ast import literal_eval

for _arg in sys.argv[1:]:
    if not _arg.startswith("--"):
        print(f"config: reading {_arg}")
        with open(_arg) as _f:
            exec(_f.read())
        continue
    _name, _sep, _text = _arg[2:].partition("=")
    if not _sep:
        raise SystemExit(f"config: expected --name=value, got {_arg}")
    if _name not in globals():
        raise SystemExit(f"config: unknown setting {_name}")
    try:
        _value = literal_eval(_text)
    except (SyntaxError, ValueError):
        _value = _text
    if type(_value) is not type(globals()[_name]):
        raise SystemExit(f"config: {_name} must be a {type(globals()[_name]).__name__}")
    print(f"config: {_name} = {_value!r}")
    globals()[_name] = _value
