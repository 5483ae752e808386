#!/bin/sh
# What an installed library builds may hang on the versions installed
# beside it (issue 17): transformers 4.36-4.47 builds LlamaSdpaAttention
# where torch >= 2.1.1 is installed, LlamaAttention below, by
#   importlib.util.find_spec("torch"), importlib.metadata.version("torch"),
#   version.parse(_torch_version) >= version.parse("2.1.1"),
#   find_spec("torch_xla") (XLA installed: eager),
#   a config property with a setter, and an early `return config`.
# The versions are data: the `Version:` of the site's dist-info METADATA
# (interp/pkgmeta.c), never an import.  When torch's version is not in the
# site read, the attention's class is not decided: its class is the table
# lookup as written, its count null, and the reason names the candidates;
# never one of them taken for certain.  The package is a stand-in written
# here in that shape (verlib).
. "$top_srcdir/tests/lib.sh"

SP="$T/site"
mkdir -p "$SP/verlib" "$SP/verlib-0.1.dist-info"
printf 'Metadata-Version: 2.1\nName: verlib\nVersion: 0.1\nRequires-Dist: torch\n' >"$SP/verlib-0.1.dist-info/METADATA"
cat >"$SP/verlib/utils.py" <<'PY'
import importlib.metadata
import importlib.util
import os

from packaging import version


def _is_package_available(pkg_name, return_version=False):
    package_exists = importlib.util.find_spec(pkg_name) is not None
    package_version = "N/A"
    if package_exists:
        try:
            package_version = importlib.metadata.version(pkg_name)
        except importlib.metadata.PackageNotFoundError:
            package_exists = False
    if return_version:
        return package_exists, package_version
    return package_exists


_torch_available, _torch_version = _is_package_available("torch", return_version=True)
_xla_available = _is_package_available("fake_xla")


def is_torch_sdpa_available():
    if not _torch_available:
        return False
    elif _torch_version == "N/A":
        return False
    return version.parse(_torch_version) >= version.parse("2.1.1")


def is_xla_available():
    return _xla_available
PY
cat >"$SP/verlib/__init__.py" <<'PY'
import torch
from torch import nn

from .utils import is_torch_sdpa_available, is_xla_available


class Config:
    def __init__(self, hidden=8, **kwargs):
        self.hidden = hidden
        self._attn_implementation_internal = kwargs.pop("attn_implementation", None)

    @property
    def _attn_implementation(self):
        if hasattr(self, "_attn_implementation_internal"):
            if self._attn_implementation_internal is None:
                return "eager"
            else:
                return self._attn_implementation_internal
        else:
            return "eager"

    @_attn_implementation.setter
    def _attn_implementation(self, value):
        self._attn_implementation_internal = value


class Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.qkv = nn.Linear(config.hidden, 3 * config.hidden)

    def forward(self, x):
        return self.qkv(x)


class SdpaAttention(Attention):
    pass


ATTENTION_CLASSES = {"eager": Attention, "sdpa": SdpaAttention}


class Model(nn.Module):
    _supports_sdpa = True

    def __init__(self, config):
        super().__init__()
        config = self._autoset_attn_implementation(config)
        self.attn = ATTENTION_CLASSES[config._attn_implementation](config)
        self.out = nn.Linear(config.hidden, 2)

    @classmethod
    def _autoset_attn_implementation(cls, config):
        requested = config._attn_implementation_internal
        if requested in [None, "sdpa"] and not is_xla_available():
            config = cls._check_and_enable_sdpa(config)
        else:
            config._attn_implementation = "eager"
        return config

    @classmethod
    def _check_and_enable_sdpa(cls, config):
        if not is_torch_sdpa_available() or not cls._supports_sdpa:
            return config
        config._attn_implementation = "sdpa"
        return config

    def forward(self, x):
        return self.out(self.attn(x))
PY

R="$T/job"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
from verlib import Config, Model

model = Model(Config(hidden=8))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in torch.randn(4, 2, 8):
    loss = model(x).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "job"

# attn: qkv 8x24 + 24 = 216; out 8x2 + 2 = 18; the model 234
G() { json "$T/o/computation_graph.json" "$1"; }
attn() { G "[(m['class'], m['params']) for m in d['modules'] if m['id'] == 'attn'][0]"; }
with_torch() {
	rm -rf "$SP"/torch-*.dist-info "$SP"/torch-*.egg-info
	[ -n "$1" ] || return 0
	mkdir -p "$SP/torch-$1.dist-info"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: %s\n' "$1" >"$SP/torch-$1.dist-info/METADATA"
}
x() { run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"; }

for v in 2.1.1 2.3.0+cu121 2.2.0.dev20231010 2.10.0 3.0; do
	with_torch "$v"
	x
	is "$rc" 0 "torch $v: exit 0"
	is "$(attn)" "('SdpaAttention', 216)" "  torch $v >= 2.1.1: SdpaAttention, its version read from the site's METADATA"
done
for v in 2.1.0 2.1.1rc1 2.1.1.dev0 1.13.0a0+gitunknown 2.0; do
	with_torch "$v"
	x
	is "$(attn)" "('Attention', 216)" "torch $v < 2.1.1 (PEP 440 order): Attention"
done

with_torch 2.3.0
x
is "$(G "[(p['name'], p['version']) for p in d['environment']['packages']]")" \
	"[('torch', '2.3.0'), ('verlib', '0.1')]" "the header names torch's version, which decided the class"
is "$(G 'd["modules"][0]["params"]')" 234 "  the model: 234 parameters"

# an XLA installed beside it (a package directory, not read): eager
mkdir -p "$SP/fake_xla"
: >"$SP/fake_xla/__init__.py"
x
is "$(attn)" "('Attention', 216)" "find_spec('fake_xla'): installed in the site read, so eager"
rm -rf "$SP/fake_xla"
: >"$SP/fake_xla.cpython-311-x86_64-linux-gnu.so"
x
is "$(attn)" "('Attention', 216)" "  an extension module file is installed too"
rm -f "$SP/fake_xla.cpython-311-x86_64-linux-gnu.so"

# torch's version not in the site: not decided, never a class taken
with_torch ""
x
is "$rc" 0 "no torch dist-info in the site: exit 0"
is "$(G "[m['params'] for m in d['modules'] if m['id'] == 'attn'][0]")" None "  the attention's count is null"
is "$(G "[m['class'] for m in d['modules'] if m['id'] == 'attn'][0]")" \
	"ATTENTION_CLASSES[config._attn_implementation]" "  its class is the lookup as written, not one of the two"
G "[m['subtree']['reason'] for m in d['modules'] if m['id'] == 'attn'][0]" | grep -q "one of Attention, SdpaAttention"
ok $? "  the reason names the candidates"
is "$(G 'd["modules"][0]["params"]')" None "  the model's count is null, not short of the attention's"

# a version ecg does not order (an epoch): not decided either
with_torch "1!2.0"
x
is "$(G "[m['params'] for m in d['modules'] if m['id'] == 'attn'][0]")" None "torch 1!2.0 (an epoch): not decided"
done_testing
