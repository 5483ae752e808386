#!/bin/sh
# transformers' from_pretrained read, never run (interp/hf.c, issue 17
# point 3), on the stand-in package of tests/fixtures/site_transformers
# (_env/site-packages/transformers: the real package's layout, a few
# hundred lines of its own).  A checkpoint directory of the repository,
# named by the job's default, its command line or --set, gives config.json;
# its model_type goes through the library's own tables (models/auto/
# configuration_auto.py CONFIG_MAPPING_NAMES, model_type_to_module_name(),
# the Auto class's _model_mapping), read from its source.  Without a
# config.json the sizes are null with the reason, never the config class's
# defaults.
. "$top_srcdir/tests/lib.sh"

FX="$top_srcdir/tests/fixtures/site_transformers"
SP="$FX/_env/site-packages"
R="$T/job"
mkrepo "$R"
cp "$FX/train.py" "$R/"
cp -R "$FX/ckpt" "$R/ckpt"
mkdir -p "$R/ckpt2"
cat >"$R/ckpt2/config.json" <<'JSON'
{"model_type": "tiny-gpt2", "vocab_size": 100, "n_positions": 16, "n_embd": 8, "n_layer": 2, "n_head": 2}
JSON
commit "$R" "job"

G() { json "$1/computation_graph.json" "$2"; }
root() { G "$1" 'd["modules"][0]["class"]'; }
count() { G "$1" "[m['repeat']['count'] for m in d['modules'] if m['id'] == '$2'][0]"; }

run_ecg extract --repo "$R" --entry train.py --out "$T/o1" -q --no-cache --no-site-env --site "$SP"
is "$rc" 0 "AutoModelForCausalLM.from_pretrained('./ckpt'): exit 0"
is "$(root "$T/o1")" "TinyLlamaForCausalLM" "  the class of config.json's model_type, by the library's tables"
is "$(count "$T/o1" model.layers.*)" 3 "  layers x 3: num_hidden_layers of ckpt/config.json"
is "$(G "$T/o1" "[m['repeat']['source'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" \
	"ckpt/config.json" "  and the count says where it comes from (a repository path)"
is "$(G "$T/o1" 'd["modules"][0]["params"]')" 54240 "  the parameter count of that config (as PyTorch counts it)"
is "$(G "$T/o1" "[m['code_anchor'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" \
	"site:transformers/models/tiny_llama/modeling_tiny_llama.py:TinyLlamaDecoderLayer.forward:61" \
	"  anchored in the library's file"
G "$T/o1" '[f["path"] for f in d["files"]]' | grep -q "ckpt/config.json"
ok $? "  ckpt/config.json is among the records' files (check and refresh see it change)"
is "$(G "$T/o1" '[(p["name"], p["version"]) for p in d["environment"]["packages"]]')" \
	"[('transformers', '0.0.1')]" "  the header names the package and its version"

run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --site "$SP" -- --model_name_or_path ckpt2/
is "$(root "$T/o2")" "TinyGPT2LMHeadModel" "the checkpoint the command line names: model_type tiny-gpt2"
is "$(count "$T/o2" h.*)" 2 "  h x 2 (its module by the library's model_type_to_module_name(): tiny_gpt2)"

run_ecg extract --repo "$R" --entry train.py --out "$T/o3" -q --no-cache --no-site-env --site "$SP" --set model_name_or_path=./ckpt2
is "$(root "$T/o3")" "TinyGPT2LMHeadModel" "the checkpoint --set names"
run_ecg extract --repo "$R" --entry train.py --out "$T/o4" -q --no-cache --no-site-env --site "$SP" --set num_hidden_layers=5
is "$(count "$T/o4" model.layers.*)" 5 "--set KEY=VALUE overrides a key of config.json, as for any config file"

# the tables are the installed library's: edit one, the class follows
SP2="$T/sp2"
cp -R "$SP" "$SP2"
chmod -R u+w "$SP2"
sed 's/("tiny_llama", "TinyLlamaForCausalLM")/("tiny_llama", "TinyLlamaModel")/' \
	"$SP/transformers/models/auto/modeling_auto.py" >"$SP2/transformers/models/auto/modeling_auto.py"
run_ecg extract --repo "$R" --entry train.py --out "$T/o5" -q --no-cache --no-site-env --site "$SP2"
is "$(root "$T/o5")" "TinyLlamaModel" "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES is read from the library's source, not a table of ecg's"

# other entry points of the API
R2="$T/job2"
mkrepo "$R2"
cp -R "$FX/ckpt" "$R2/ckpt"
cat >"$R2/train.py" <<'PY'
import torch
from transformers import AutoConfig, AutoModelForCausalLM, TinyLlamaForCausalLM

config = AutoConfig.from_pretrained("ckpt")
a = AutoModelForCausalLM.from_config(config)
b = TinyLlamaForCausalLM.from_pretrained("ckpt", num_hidden_layers=2)
c = TinyLlamaForCausalLM.from_pretrained("someone/tiny-llama-7b")
d = AutoModelForCausalLM.from_pretrained("someone/tiny-llama-7b")
for step in range(2):
    x = torch.randint(0, 256, (2, 8))
    a(x)
    b(x)
    c(x)
    d(x)
PY
commit "$R2" "job2"
run_ecg extract --repo "$R2" --entry train.py --out "$T/o6" -q --no-cache --no-site-env --site "$SP"
is "$rc" 0 "AutoConfig.from_pretrained, Auto*.from_config, a concrete class, hub names: exit 0"
is "$(G "$T/o6" "sorted(str(m['repeat']['count']) for m in d['modules'] if m['id'].endswith('layers.*'))")" \
	"['2', '3']" "  from_config(AutoConfig.from_pretrained('ckpt')) has 3 layers; from_pretrained('ckpt', num_hidden_layers=2) has 2"
G "$T/o6" "[m['class'] for m in d['modules'] if m['kind'] == 'model']" >"$T/classes6"
grep -q "'transformers.TinyLlamaForCausalLM'" "$T/classes6" && grep -q "'transformers.AutoModelForCausalLM'" "$T/classes6"
ok $? "  a hub name: the class the job names, or the Auto class it calls (no config.json to choose one)"
is "$(G "$T/o6" "sorted(set(str(m['params']) for m in d['modules'] if m.get('class') in ('transformers.TinyLlamaForCausalLM', 'transformers.AutoModelForCausalLM')))")" \
	"['None']" "  their sizes are null, never the config class's defaults"
G "$T/o6" "[m['subtree']['reason'] for m in d['modules'] if m.get('class') == 'transformers.TinyLlamaForCausalLM'][0]" |
	grep -q "someone/tiny-llama-7b/config.json' was not read"
ok $? "  with the reason: which config.json was not read, and what gives the sizes"
G "$T/o6" "[m['id'] for m in d['modules'] if m.get('class') == 'TinyLlamaDecoderLayer']" | grep -q "32"
ok $((! $?)) "  no layers from the config class's default num_hidden_layers=32"

# a tokenizer's from_pretrained is no model: read as it is written
SP3="$T/sp3"
cp -R "$SP" "$SP3"
chmod -R u+w "$SP3"
cat >"$SP3/transformers/models/auto/tokenization_auto.py" <<'PY'
class PreTrainedTokenizer:
    def __init__(self, vocab):
        self.vocab = vocab


class AutoTokenizer:
    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, **kwargs):
        return PreTrainedTokenizer(pretrained_model_name_or_path)
PY
R3="$T/job3"
mkrepo "$R3"
cp -R "$FX/ckpt" "$R3/ckpt"
cat >"$R3/train.py" <<'PY'
import torch
from transformers import AutoModelForCausalLM
from transformers.models.auto.tokenization_auto import AutoTokenizer

tok = AutoTokenizer.from_pretrained("ckpt")
model = AutoModelForCausalLM.from_pretrained("ckpt")
for step in range(2):
    ids = tok("some text")
    model(torch.randint(0, 256, (2, 8)))
PY
commit "$R3" "job3"
run_ecg extract --repo "$R3" --entry train.py --out "$T/o8" -q --no-cache --no-site-env --site "$SP3"
is "$(G "$T/o8" "sorted(set(m.get('class') for m in d['modules'] if m['kind'] == 'model'))")" "['TinyLlamaForCausalLM']" \
	"AutoTokenizer.from_pretrained is no module: the one model is TinyLlamaForCausalLM"

# without the environment: as before, nothing of the library
run_ecg extract --repo "$R" --entry train.py --out "$T/o7" -q --no-cache --no-site-env
is "$rc" 0 "without --site: exit 0"
grep -q "site:transformers" "$T/o7/computation_graph.json"
ok $((! $?)) "  and nothing is read from the library"
is "$(G "$T/o7" "[(m['class'], m['params']) for m in d['modules'] if m['kind'] == 'model']")" \
	"[('transformers.AutoModelForCausalLM', None)]" "  the model is external, by the Auto class the job calls, its sizes null"
G "$T/o7" 'd["modules"][0]["subtree"]["reason"]' | grep -q -- "--site DIR"
ok $? "  with a reason that names --site"
for o in o1 o6; do
	"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/$o" >"$T/schema.out" 2>&1
	ok $? "the records are valid (schema_check.py, $o)"
done
done_testing
