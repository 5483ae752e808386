#!/bin/sh
# Configuration soundness: a value comes from a default only when every
# layer that could override it was read (command line, config files,
# registries, environment).  When a layer is not followed -- an unknown
# CLI parser, a config loader outside the repository, **kwargs or setattr
# with names not known -- the values it may set are unknown, with that
# layer as the reason, and a repeat count derived from one is null.
# Where the layer is read (jsonargparse's --config YAML, fire's --opts),
# the count is the one it sets.
. "$top_srcdir/tests/lib.sh"

MODEL='import torch
import torch.nn as nn
from dataclasses import dataclass


@dataclass
class Config:
    n_layer: int = 16
    n_embd: int = 8


class Net(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(config.n_embd, config.n_embd) for _ in range(config.n_layer))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
'

# job NAME: a repository with model.py, the train.py read from stdin and
# the files named after it (NAME:TEXT pairs through the environment).
job() {
	R="$T/$1"
	mkrepo "$R"
	printf '%s' "$MODEL" >"$R/model.py"
	cat >"$R/train.py"
	printf 'model:\n  n_layer: 5\nn_layer: 5\n' >"$R/c.yaml"
	printf 'model:\n  n_layer: 5\n  dropout: 0.1\n' >"$R/notfield.yaml"
	commit "$R" "$1"
}

# count NAME ARGS...: run ecg on job NAME; prints layers.*'s repeat count
# (None when null) and sets $reason to its reason.
count() {
	n=$1
	shift
	run_ecg extract --repo "$T/$n" --entry train.py -q --out "$T/o-$n" "$@"
	G="$T/o-$n/computation_graph.json"
	got=$(json "$G" '[m["repeat"]["count"] for m in d["modules"] if m["id"] == "layers.*"]')
	reason=$(json "$G" '[m["repeat"].get("reason") for m in d["modules"] if m["id"] == "layers.*"][0]')
}

# 1. **cfg from a loader outside the repository: the dataclass default
#    (16) must not be stated
job unknown_loader <<'PY'
import torch
from settings_lib import load_settings
from model import Config, Net

cfg = load_settings("c.yaml")
config = Config(**cfg.model)
model = Net(config)
model(torch.randn(2, 8))
PY
count unknown_loader
is "$got" "[None]" "Config(**cfg) of a mapping not read: the count is null, not the default 16"
case $reason in *"**cfg.model"*) st=0 ;; *) st=1 ;; esac
ok "$st" "the reason names **cfg.model, the layer not read ($reason)"

# 2. setattr(config, k, v) over an environment variable's keys
job setattr_loop <<'PY'
import json, os
import torch
from model import Config, Net

config = Config()
for k, v in json.loads(os.environ.get("NET_CONFIG", "{}")).items():
    setattr(config, k, v)
model = Net(config)
model(torch.randn(2, 8))
PY
count setattr_loop
is "$got" "[None]" "setattr(config, k, v) with names not known: null count"
case $reason in *setattr*) st=0 ;; *) st=1 ;; esac
ok "$st" "the reason names the setattr ($reason)"

# 3. globals()[k] = v with keys not known (a configurator reading a file
#    ecg does not read)
job globals_update <<'PY'
import json, sys
import torch
from model import Config, Net

n_layer = 16
for key, val in json.load(open(sys.argv[1])).items():
    globals()[key] = val
model = Net(Config(n_layer=n_layer))
model(torch.randn(2, 8))
PY
count globals_update -- /etc/overrides.json
is "$got" "[None]" "globals()[key] = val with keys not known: null count"

# 1b. the same file through a loader ecg reads (OmegaConf.load): 5
sed 's/from settings_lib import load_settings/from omegaconf import OmegaConf/; s/load_settings(/OmegaConf.load(/' \
	"$T/unknown_loader/train.py" >"$T/unknown_loader/train2.py"
commit "$T/unknown_loader" "known loader"
run_ecg extract --repo "$T/unknown_loader" --entry train2.py -q --out "$T/o-known"
is "$(json "$T/o-known/computation_graph.json" '[m["repeat"]["count"] for m in d["modules"] if m["id"] == "layers.*"]')" \
	"[5]" "Config(**cfg.model) of a file OmegaConf.load reads: 5"

# 4. dict.update(x) of a mapping not known, then Config(**d)
job dict_update <<'PY'
import torch
import yaml_loader_elsewhere
from model import Config, Net

d = {"n_layer": 16}
d.update(yaml_loader_elsewhere.read("c.yaml"))
model = Net(Config(**d))
model(torch.randn(2, 8))
PY
count dict_update
is "$got" "[None]" "d.update(mapping not known): null count"

# 4b. {**defaults, **overrides} with overrides not known
job dict_display <<'PY'
import torch
import overrides_elsewhere
from model import Config, Net

defaults = {"n_layer": 16}
cfg = {**defaults, **overrides_elsewhere.get()}
model = Net(Config(**cfg))
model(torch.randn(2, 8))
PY
count dict_display
is "$got" "[None]" "{**defaults, **x} of x not known: null count"

# 5. a CLI parser ecg does not read (hydra) calls the function: its
#    parameters are not the defaults
job hydra_cli <<'PY'
import hydra
import torch
from model import Config, Net


def main(n_layer: int = 16):
    model = Net(Config(n_layer=n_layer))
    model(torch.randn(2, 8))


if __name__ == "__main__":
    hydra.main(main)
PY
count hydra_cli
is "$got" "[None]" "hydra: the configuration it composes is not read: null count"

# 6. jsonargparse's CLI with --config FILE: the YAML is read, the count is 5
job jsonargparse_cli <<'PY'
import torch
from jsonargparse import CLI
from model import Config, Net


def train(n_layer: int = 16, n_embd: int = 8):
    model = Net(Config(n_layer=n_layer, n_embd=n_embd))
    model(torch.randn(2, n_embd))


if __name__ == "__main__":
    CLI({"train": train})
PY
count jsonargparse_cli -- train --config c.yaml
is "$got" "[5]" "jsonargparse CLI --config c.yaml: n_layer read from the file (5)"
is "$(json "$G" '[f["path"] for f in d["files"] if f["path"].endswith(".yaml")]')" "['c.yaml']" \
	"the YAML file read is listed in files"
count jsonargparse_cli -- train --n_layer=7
is "$got" "[7]" "jsonargparse CLI --n_layer=7: 7"
count jsonargparse_cli -- train
is "$got" "[16]" "jsonargparse CLI with no options: every layer read, the default 16 holds"
count jsonargparse_cli -- train --config missing.yaml
is "$got" "[None]" "jsonargparse CLI --config of a file not in the repository: null count"
case $reason in *missing.yaml*) st=0 ;; *) st=1 ;; esac
ok "$st" "the reason names the file not read ($reason)"
count jsonargparse_cli -- train positional
is "$got" "[None]" "a command-line word ecg does not map to a parameter: null count"

# 6b. jsonargparse: a YAML mapping for a dataclass-typed parameter is
#     merged over the parameter's default instance (its fields the group's
#     defaults): model.n_layer 5 from c.yaml, n_embd 4 from the default
job jsonargparse_section <<'PY'
import torch
from typing import Optional
from jsonargparse import CLI
from model import Config, Net


def train(model: Config = Config(n_embd=4)):
    net = Net(model)
    net(torch.randn(2, model.n_embd))


def train_opt(model: Optional[Config] = Config(n_embd=4)):
    net = Net(model)
    net(torch.randn(2, model.n_embd))


if __name__ == "__main__":
    CLI({"train": train, "train_opt": train_opt})
PY
count jsonargparse_section -- train --config c.yaml
is "$got" "[5]" "jsonargparse: the YAML's model: section builds Config over the default instance (5)"
count jsonargparse_section -- train
is "$got" "[16]" "jsonargparse: no --config, the default instance (16)"
count jsonargparse_section -- train --config notfield.yaml
is "$got" "[None]" "jsonargparse: a section key that is not a field of the dataclass: null count"
count jsonargparse_section -- train --model.n_layer=3 --config c.yaml
is "$got" "[None]" "jsonargparse: a nested option not followed before the file: the section does not replace it (null)"
count jsonargparse_section -- train_opt --config c.yaml
is "$got" "[None]" "jsonargparse: Optional[Config] is not read as the dataclass: null count"

# 7. fire.Fire(fn): --name value
job fire_cli <<'PY'
import fire
import torch
from model import Config, Net


def main(n_layer=16):
    model = Net(Config(n_layer=n_layer))
    model(torch.randn(2, 8))


if __name__ == "__main__":
    fire.Fire(main)
PY
count fire_cli -- --n_layer 3
is "$got" "[3]" "fire.Fire: --n_layer 3 is read"

# 8. the configurator idiom: literal_eval of a bare word raises ValueError
#    and the except keeps the string (--init=big), which picks a table row
job configurator <<'PY'
import sys
from ast import literal_eval
import torch
from model import Config, Net

init = "small"
for arg in sys.argv[1:]:
    key, val = arg.split("=")
    key = key[2:]
    try:
        attempt = literal_eval(val)
    except (SyntaxError, ValueError):
        attempt = val
    globals()[key] = attempt
n_layer = {"small": 2, "big": 6}[init]
model = Net(Config(n_layer=n_layer))
model(torch.randn(2, 8))
PY
count configurator -- --init=big
is "$got" "[6]" "--init=big through literal_eval's ValueError: the 'big' row (6)"

# 9. a table of ml_collections ConfigDicts keyed by a command-line value
#    (CONFIGS[args.model_type]): read by attribute and by key
job configdict_table <<'PY'
import argparse
import ml_collections
import torch
from model import Config, Net


def small():
    c = ml_collections.ConfigDict()
    c.transformer = ml_collections.ConfigDict({"num_layers": 2})
    return c


def large():
    c = small()
    c.transformer.num_layers = 9
    return c


CONFIGS = {"small": small(), "large": large()}
p = argparse.ArgumentParser()
p.add_argument("--model_type", default="small")
args = p.parse_args()
config = CONFIGS[args.model_type]
model = Net(Config(n_layer=config.transformer["num_layers"]))
model(torch.randn(2, 8))
PY
count configdict_table -- --model_type large
is "$got" "[9]" "CONFIGS[args.model_type] of ConfigDicts: the 'large' row (9)"

# 10. argparse options made from a dict of defaults (type(v), a str2bool
#     converter of the repository), in a parent parser
job argparse_parents <<'PY'
import argparse
import torch
from model import Config, Net


def str2bool(v):
    if isinstance(v, bool):
        return v
    if v.lower() in ("yes", "true", "t", "y", "1"):
        return True
    return False


def add_dict_to_argparser(parser, default_dict):
    for k, v in default_dict.items():
        v_type = type(v)
        if isinstance(v, bool):
            v_type = str2bool
        parser.add_argument(f"--{k}", default=v, type=v_type)


def get_args_parser():
    parser = argparse.ArgumentParser("base", add_help=False)
    add_dict_to_argparser(parser, dict(n_layer=2, deep=False, mult="1,2,3"))
    return parser


parser = argparse.ArgumentParser("train", parents=[get_args_parser()])
args = parser.parse_args()
mult = [int(x) for x in args.mult.split(",")][::-1]
n = args.n_layer * (2 if args.deep else 1) + mult[0]
model = Net(Config(n_layer=n))
model(torch.randn(2, 8))
PY
count argparse_parents -- --n_layer 3 --deep True --mult 4,5
is "$got" "[11]" "parents=[...], type(v) and a str2bool converter read: 3 * 2 + 5 = 11"

done_testing
