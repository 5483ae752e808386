#!/bin/sh
# A checkpoint directory outside the repository (issue 17 point 3): the
# job's from_pretrained(path) with an absolute path, named by --set or by
# the code's default.  Its config.json is read from the filesystem as data
# (never run) and recorded in the header's environment.files with its
# blob id; a directory that is not there gives null sizes with the reason,
# never a config class's defaults.  The stand-in package of
# tests/fixtures/site_transformers.
. "$top_srcdir/tests/lib.sh"

FX="$top_srcdir/tests/fixtures/site_transformers"
SP="$FX/_env/site-packages"
R="$T/job"
mkrepo "$R"
cp "$FX/train.py" "$R/"
commit "$R" "job"
CK="$T/outside/ckpt"          # absolute: $T is
mkdir -p "$CK"
cp "$FX/ckpt/config.json" "$CK/config.json"

G() { json "$1/computation_graph.json" "$2"; }

run_ecg extract --repo "$R" --entry train.py --out "$T/o1" -q --no-cache --no-site-env --site "$SP" \
	--set model_name_or_path="$CK"
is "$rc" 0 "--set model_name_or_path=/abs/ckpt (outside the repository): exit 0"
is "$(G "$T/o1" 'd["modules"][0]["class"]')" "TinyLlamaForCausalLM" "  the class of its config.json's model_type"
is "$(G "$T/o1" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" 3 \
	"  layers x 3: num_hidden_layers of /abs/ckpt/config.json"
is "$(G "$T/o1" 'd["modules"][0]["params"]')" 54240 "  the same parameter count as from the repository's ckpt/"
is "$(G "$T/o1" "[m['repeat']['source'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" \
	"$CK/config.json" "  the count says where it comes from (the file outside)"
blob=$("$GIT" hash-object "$CK/config.json")
is "$(G "$T/o1" 'd["environment"]["files"]')" "[{'path': '$CK/config.json', 'blob': '$blob'}]" \
	"  the header records the file read outside the repository, with its blob id"
G "$T/o1" '[f["path"] for f in d["files"]]' | grep -q "config.json"
ok $((! $?)) "  and not among the repository's files"

# the default of the code an absolute path
sed "s|default=\"./ckpt\"|default=\"$CK\"|" "$FX/train.py" >"$R/train.py"
commit "$R" "default outside"
run_ecg extract --repo "$R" --entry train.py --out "$T/o2" -q --no-cache --no-site-env --site "$SP"
is "$(G "$T/o2" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" 3 \
	"an absolute default in the code: read the same way"

# not there: null sizes, the reason, no defaults
run_ecg extract --repo "$R" --entry train.py --out "$T/o3" -q --no-cache --no-site-env --site "$SP" \
	--set model_name_or_path="$T/nowhere"
is "$rc" 0 "a checkpoint directory that is not there: exit 0"
is "$(G "$T/o3" 'd["modules"][0]["params"]')" None "  the sizes are null"
G "$T/o3" 'd["modules"][0]["subtree"]["reason"]' | grep -q "'$T/nowhere/config.json' was not read"
ok $? "  with the reason naming the file"
is "$(G "$T/o3" "[m['id'] for m in d['modules'] if m['id'].startswith('model.layers')]")" "[]" \
	"  no layers from the config class's defaults"
is "$(G "$T/o3" '"files" in d["environment"]')" False "  and no file is recorded as read"
done_testing
