#!/bin/sh
# `ecg check` and `ecg refresh` see what changed outside the repository
# (issue 17): a file the job read from outside it (environment.files: a
# checkpoint's config.json at an absolute path, with its blob id) and an
# installed package read (environment.packages: its version in its
# recorded site directory: a library upgraded).  Either makes the records
# stale, as a changed repository file does; refresh then reads the job
# again (not the relocation fast path) and reports the change.  The
# stand-in package of tests/fixtures/site_transformers, copied so that it
# can be upgraded here.
. "$top_srcdir/tests/lib.sh"

FX="$top_srcdir/tests/fixtures/site_transformers"
SP="$T/site"
mkdir -p "$SP"
cp -R "$FX/_env/site-packages/." "$SP/"
chmod -R u+w "$SP"
R="$T/job"
mkrepo "$R"
cp "$FX/train.py" "$R/"
commit "$R" "job"
CK="$T/outside/ckpt"
mkdir -p "$CK"
cp "$FX/ckpt/config.json" "$CK/config.json"
chmod u+w "$CK/config.json"

run_ecg extract --repo "$R" --entry train.py --out "$T/o" -q --no-cache --no-site-env --site "$SP" \
	--set model_name_or_path="$CK"
is "$rc" 0 "extract with a checkpoint outside the repository and --site: exit 0"
is "$(json "$T/o/computation_graph.json" '[(p["name"], p["version"]) for p in d["environment"]["packages"]]')" \
	"[('transformers', '0.0.1')]" "  the header names the package read"

run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check: nothing changed: fresh (exit 0)"

# the checkpoint's config.json changed
sed 's/"num_hidden_layers": *3/"num_hidden_layers": 4/' "$FX/ckpt/config.json" >"$CK/config.json"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the config.json outside the repository changed: stale (exit 1)"
grep -q "file     $CK/config.json changed (read by the job from outside the repository" "$T/out"
ok $? "  the file is named"
run_ecg check --repo "$R" --out "$T/o" --json
is "$(json "$T/out" '[(e["kind"], e["status"]) for e in d["environment"]]')" "[('file', 'changed')]" \
	"  --json: environment [file changed]"
is "$(json "$T/out" 'd["fresh"]')" False "  --json: fresh false"

# refresh reads the job again and names the change
run_ecg refresh --repo "$R" --out "$T/o"
is "$rc" 0 "refresh: exit 0"
grep -q "environment_changed $CK/config.json" "$T/out"
ok $? "  the report names the changed file"
is "$(json "$T/o/computation_graph.json" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'model.layers.*'][0]")" 4 \
	"  the job read again: layers x 4"
run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check after refresh: fresh"

# the library upgraded: its METADATA's version
mv "$SP/transformers-0.0.1.dist-info" "$SP/transformers-0.0.2.dist-info"
sed 's/^Version: 0.0.1/Version: 0.0.2/' "$SP/transformers-0.0.2.dist-info/METADATA" >"$T/meta"
cp "$T/meta" "$SP/transformers-0.0.2.dist-info/METADATA"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the installed transformers upgraded: stale (exit 1)"
grep -q "package  transformers 0.0.1 in .*: now 0.0.2" "$T/out"
ok $? "  the package and both versions are named"
run_ecg refresh --repo "$R" --out "$T/o" --json
is "$rc" 0 "refresh: exit 0"
is "$(json "$T/out" '[(e["name"], e["from"], e["to"]) for e in d["environment_changed"]]')" \
	"[('transformers', '0.0.1', '0.0.2')]" "  --json: environment_changed transformers 0.0.1 -> 0.0.2"
is "$(json "$T/out" 'd["read_again"]')" True "  the job was read again (not only anchors moved)"
run_ecg check --repo "$R" --out "$T/o" -q
is "$rc" 0 "check after refresh: fresh"

# the library removed
rm -rf "$SP/transformers-0.0.2.dist-info"
run_ecg check --repo "$R" --out "$T/o"
is "$rc" 1 "check: the package no longer installed: stale"
grep -q "package  transformers 0.0.2 in .*: no longer installed" "$T/out"
ok $? "  named so"
done_testing
