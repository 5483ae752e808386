#!/bin/sh
# The real transformers, read from its source (issue 17 point 3): a
# fine-tune job doing AutoModelForCausalLM.from_pretrained("./ckpt") with
# a small GPT-2 config.json.  The source is transformers 4.9.0.dev0 at
# commit 9519f0cd (a fork's mirror of huggingface/transformers: the main
# repository is too large to fetch here); it is never committed.  The test
# skips, saying so, when that git dir is not there (ECG_HF_MIRROR names
# it; default /work/.mirror/NielsRogge+transformers/repo).
#
# The site directory is built here: transformers/ from src/, and a
# transformers-4.9.0.dev0.dist-info/METADATA written by this script, with
# "Requires-Dist: torch" standing for the torch extra the real wheel's
# METADATA lists (test scaffolding: a source checkout has no dist-info).
# --no-env: the library's USE_TF/USE_TORCH switches read os.environ, whose
# variables are otherwise not known.
. "$top_srcdir/tests/lib.sh"

MIRROR=${ECG_HF_MIRROR:-/work/.mirror/NielsRogge+transformers/repo}
REV=9519f0cd63b1b5d895f9f993e3198ec55d1e57fa
"$GIT" --git-dir="$MIRROR" cat-file -e "$REV^{commit}" 2>/dev/null ||
	skip_all "transformers' source is not here (a git dir with commit $REV; ECG_HF_MIRROR names it)"

SP="$T/site"
mkdir -p "$SP/transformers-4.9.0.dev0.dist-info"
"$GIT" --git-dir="$MIRROR" archive "$REV" src/transformers | tar -x -C "$SP" --strip-components=1
printf 'Metadata-Version: 2.1\nName: transformers\nVersion: 4.9.0.dev0\nRequires-Dist: torch\n' \
	>"$SP/transformers-4.9.0.dev0.dist-info/METADATA"

R="$T/job"
mkrepo "$R"
mkdir -p "$R/ckpt"
cat >"$R/ckpt/config.json" <<'JSON'
{"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": 1000, "n_positions": 128, "n_ctx": 128,
 "n_embd": 64, "n_layer": 3, "n_head": 4, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05}
JSON
cp "$top_srcdir/tests/e2e/hf_finetune.py" "$R/finetune.py"
commit "$R" "job"

G() { json "$T/o/computation_graph.json" "$1"; }
ECG_TRACE_SITE=1 run_ecg extract --repo "$R" --entry finetune.py --out "$T/o" -q --no-cache --no-site-env --no-env --site "$SP"
is "$rc" 0 "transformers 4.9: AutoModelForCausalLM.from_pretrained('./ckpt'): exit 0"
is "$(G 'd["modules"][0]["class"]')" "GPT2LMHeadModel" "  GPT2LMHeadModel: model_type gpt2 through the library's CONFIG_MAPPING and MODEL_FOR_CAUSAL_LM_MAPPING"
is "$(G "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'transformer.h.*'][0]")" 3 "  transformer.h x 3 (n_layer)"
# by hand: wte 1000x64 + wpe 128x64 + 3 blocks x 49984 (ln 128, c_attn 64x192+192,
# c_proj 64x64+64, ln 128, c_fc 64x256+256, c_proj 256x64+64) + ln_f 128
is "$(G "[m['params'] for m in d['modules'] if m['id'] == 'transformer'][0]")" 222272 "  transformer: 222272 parameters"
is "$(G "[m['params'] for m in d['modules'] if m['id'] == 'transformer.h.*'][0]")" 49984 "  one block: 49984"
is "$(G "[m['class'] for m in d['modules'] if m['id'] == 'transformer.h.*.attn.c_attn'][0]")" "Conv1D" \
	"  the library's own layers (Conv1D of modeling_utils.py) are read"
G "[m.get('code_anchor') for m in d['modules'] if m['id'] == 'transformer.h.*'][0]" |
	grep -q "^site:transformers/models/gpt2/modeling_gpt2.py:GPT2Block.forward:"
ok $? "  anchored site:transformers/models/gpt2/modeling_gpt2.py"
# transformers 4.9's modeling_auto.py imports every PyTorch model eagerly,
# as Python does; its lazy __init__'s `if TYPE_CHECKING:` imports (every
# TensorFlow and Flax model too) are not taken
grep "ecg: site file: " "$T/err" | grep -q "models/[a-z0-9_]*/modeling_\(tf\|flax\)_"
ok $((! $?)) "  no TensorFlow or Flax model file is parsed (TYPE_CHECKING is False)"
done_testing
