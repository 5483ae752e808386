#!/bin/sh
# A directory outside any git repository is read as a work tree (issue 19):
# the records say there is no commit (commit and dirty null) and carry each
# file's content hash (files[].blob: the git blob id of its bytes); check
# and refresh judge them against the files on disk.  The directory lives
# in $TMPDIR, since the build tree may be inside a clone.
. "$top_srcdir/tests/lib.sh"

P=$(mktemp -d "${TMPDIR:-/tmp}/ecg-plaindir.XXXXXX")
trap 'rm -rf "$P"' EXIT
if "$GIT" -C "$P" rev-parse --git-dir >/dev/null 2>&1; then
	skip_all "$P is inside a git repository"
fi
cp -r "$top_srcdir/tests/fixtures/gpt_configurator/." "$P/"
chmod -R u+w "$P"
rm -f "$P/truth.json" "$P/fixture.json"
# not the job's code: a hidden directory and a byte-code cache
mkdir -p "$P/.venv/lib" "$P/__pycache__"
printf 'if __name__ == "__main__":\n    print(1)\n' >"$P/.venv/lib/tool.py"
cp "$P/train.py" "$P/__pycache__/train.py"

run_ecg extract --repo "$P" --entry train.py --no-cache -- config/train_tiny.py
is "$rc" 0 "extract a directory that is not a git repository: exit 0"
G="$P/records/computation_graph.json"
S="$P/records/execution_schedule.json"
is "$(json "$G" 'd["commit"], d["dirty"]') $(json "$S" 'd["commit"], d["dirty"]')" "(None, None) (None, None)" \
	"  both records: commit and dirty null (no commit)"
grep -q "^ecg: read 5 files in a directory with no commit: " "$T/err"
ok $? "  and stderr says so, not 'at <sha>'"
"$TEST_PYTHON" - "$G" "$P" >"$T/blobs" <<'PY'
import hashlib, json, sys
g = json.load(open(sys.argv[1]))
bad = []
for f in g["files"]:
    data = open(sys.argv[2] + "/" + f["path"], "rb").read()
    if hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() != f["blob"]:
        bad.append(f["path"])
print(sorted(f["path"] for f in g["files"]), bad)
PY
is "$(cat "$T/blobs")" "['config/train_tiny.py', 'configurator.py', 'data/corpus.txt', 'model.py', 'train.py'] []" \
	"  files: the Python, config and text files read, each with its content hash (git blob id of its bytes)"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$P/records" >"$T/schema.out" 2>&1
ok $? "  both records validate against schemas/ (commit and dirty may be null)"
json "$G" '[m["code_anchor"] for m in d["modules"] if m["id"] == "blocks.*"][0]' >"$T/a0"

run_ecg jobs --repo "$P" --json --no-cache
"$TEST_PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["commit"], sorted(j["file"] for j in d["jobs"] if j["file"].startswith((".venv", "__pycache__"))))' "$T/out" >"$T/jobs" 2>&1
is "$(cat "$T/jobs")" "None []" "jobs on it: no commit, nothing under a hidden directory or __pycache__"

run_ecg extract --repo "$P" --entry train.py -q --rev HEAD~1 --out "$T/o"
is "$rc" 3 "--rev on a directory with no commit: exit 3"
grep -q "is not a git repository: it has no revision 'HEAD~1'" "$T/err"
ok $? "  the message says why: $(cat "$T/err")"

E="$P.empty"
mkdir -p "$E/.hidden"
run_ecg extract --repo "$E" --out "$T/oe"
is "$rc" 3 "an empty directory (only a hidden one in it) is refused as an empty repository is: exit 3"
grep -q "is an empty directory and not a git repository: nothing to read" "$T/err"
ok $? "  the message says why: $(cat "$T/err")"
test ! -e "$T/oe/computation_graph.json"
ok $? "  and no record is written"
rm -rf "$E"

run_ecg check --repo "$P"
is "$rc" 0 "check, nothing changed: exit 0 (fresh)"
grep -q "^records of no commit, checked against the files on disk (no commit)$" "$T/out"
ok $? "  and says what it compared"

# two lines above everything in model.py: its recorded version is not on
# disk any more, so its anchors cannot be called fresh
{ printf '# moved\n# moved\n'; cat "$P/model.py"; } >"$T/m" && mv "$T/m" "$P/model.py"
run_ecg check --repo "$P"
is "$rc" 1 "check after model.py changed on disk: exit 1 (stale)"
grep -q "model.py:.* # the recorded version of the file is not in the repository: not compared" "$T/out"
ok $? "  its anchors are not compared (the old text is gone), never called fresh"
run_ecg check --repo "$P" --json
is "$(json "$T/out" 'd["recorded_commit"], d["commit"], d["fresh"]')" "(None, None, False)" "  --json: both commits null, not fresh"

run_ecg refresh --repo "$P" --no-cache -q
is "$rc" 0 "refresh: exit 0"
is "$(json "$G" 'd["commit"], d["dirty"]')" "(None, None)" "  the records still say there is no commit"
a0=$(cat "$T/a0")
is "$(json "$G" '[m["code_anchor"] for m in d["modules"] if m["id"] == "blocks.*"][0]')" \
	"${a0%:*}:$((${a0##*:} + 2))" "  the anchors follow the code (two lines down)"
run_ecg check --repo "$P"
is "$rc" 0 "  check after the refresh: fresh"

# with the tree cache, refresh relocates from the cached tree of the old blob
{ printf '# moved\n'; cat "$P/model.py"; } >"$T/m" && mv "$T/m" "$P/model.py"
run_ecg extract --repo "$P" --entry train.py -q -- config/train_tiny.py
{ printf '# moved\n'; cat "$P/model.py"; } >"$T/m" && mv "$T/m" "$P/model.py"
run_ecg refresh --repo "$P"
is "$rc" 0 "refresh with the tree cache: exit 0"
grep -q "^refreshed (no commit) -> (no commit)" "$T/out"
ok $? "  the report says there is no commit on either side"
is "$(json "$G" '[m["code_anchor"] for m in d["modules"] if m["id"] == "blocks.*"][0]')" \
	"${a0%:*}:$((${a0##*:} + 4))" "  the anchors follow the code"

done_testing
