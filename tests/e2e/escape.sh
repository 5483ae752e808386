#!/bin/sh
# No injection (issue 20 B5): strings from records and from a repository's
# file names reach a page or a terminal only escaped.
#
# - render: a schema-valid records pair whose phase name, module id, class
#   and calls hold "</title><script>..." gives a page with no script element
#   (the phase name is in the "communication meant to overlap" title);
# - show (tree, --top, --schedule) and attribute print no raw ESC or BEL
#   from names holding "\033]0;...\007" (window title) and "\033[2J" (clear),
#   but their visible form \x1b...;
# - a repository whose file names hold a newline, ESC and BEL: jobs' table
#   and extract's warnings show them as \n \x1b \x07, and the newline does
#   not start a forged "ecg: warning:" line.
. "$top_srcdir/tests/lib.sh"

ESC=$(printf '\033')
BEL=$(printf '\007')
raw_ctl() {  # raw_ctl FILE: status 0 when FILE holds a raw ESC or BEL
	grep -q "[$ESC$BEL]" "$1"
}

# mut.py DIR [short]: the records in DIR with hostile strings, still
# valid against schemas/ (checked below).  "short": controls only, so that
# a name cut to a column keeps them.
cat >"$T/mut.py" <<'EOF'
import json, sys
d = sys.argv[1]
EVIL = "\x1b]0;pwned\x07\x1b[2J\u009b2J\n</title><script>alert(1)</script>"
if len(sys.argv) > 2:
    EVIL = "\x1b]0;pwned\x07\x1b[2J"
gp, sp = d + "/computation_graph.json", d + "/execution_schedule.json"
g, s = json.load(open(gp)), json.load(open(sp))
# the first layer without sub-modules: EVIL at the end of its id (its ops
# follow), so that every id still extends its parent's
kids = {m.get("parent") for m in g["modules"] if m["kind"] != "op"}
old = next(m["id"] for m in g["modules"] if m["kind"] == "layer" and m["id"] not in kids)
for m in g["modules"]:
    if m["id"] == old or m["id"].startswith(old + "#"):
        m["id"] = old + EVIL + m["id"][len(old):]
    if m.get("parent") == old:
        m["parent"] = old + EVIL
    if m["kind"] == "model":
        m["class"] = m["class"] + EVIL
ph = "backward"
for p in s["phases"]:
    if p["name"] == ph:
        p["name"] = ph + EVIL
for sec in ("host_device", "device_device"):
    for e in s[sec]:
        if e.get("phase") == ph:
            e["phase"] = ph + EVIL
        if sec == "host_device":
            e["call"] = EVIL + (e.get("call") or "")
for o in s["overlap"]:
    if o["with"] == ph:
        o["with"] = ph + EVIL
for x, p in ((g, gp), (s, sp)):
    open(p, "w", encoding="utf-8").write(json.dumps(x, indent=2, ensure_ascii=False) + "\n")
EOF

R="$T/job"
mkrepo "$R"
cp "$top_srcdir/examples/minigpt/model.py" "$top_srcdir/examples/minigpt/data.py" \
	"$top_srcdir/examples/minigpt/train.py" "$R/"
chmod -R u+w "$R"
commit "$R" "the example job"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract the example job"
E="$T/evil"
cp -r "$R/records" "$E"
"$TEST_PYTHON" -I -S "$T/mut.py" "$E"
ok $? "hostile strings put into its records"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$E" >"$T/schema.out" 2>&1
ok $? "  the records still validate against schemas/"
sed 's/^/# /' "$T/schema.out" | grep -v '^# ok' || true

run_ecg render --records "$E" -o "$T/page.html"
is "$rc" 0 "render: exit 0"
grep -qi '<script' "$T/page.html"
ok $((! $?)) "  no script element in the page"
tr '\n' ' ' <"$T/page.html" | grep -q '<title>communication meant to overlap backward[^<]*&lt;/title&gt;&lt;script&gt;'

ok $? "  the phase name is in the overlap's title, escaped"
tr '\n' ' ' <"$T/page.html" | grep -q '<b>[^<]*&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</b>'
ok $? "  the module's name is in the tree, escaped"

for args in "" "--top 50" "--schedule" "--width 400" "--schedule --width 400"; do
	# shellcheck disable=SC2086
	run_ecg show --records "$E" $args
	is "$rc" 0 "show $args: exit 0"
	raw_ctl "$T/out" || raw_ctl "$T/err"
	ok $((! $?)) "  no raw ESC or BEL"
done
grep -q 'x1b\]0;pwned\\x07\\x1b\[2J\\xc2\\x9b2J\\n</title>' "$T/out"
ok $? "  ESC, BEL, a C1 control and the newline shown as escapes (x1b, x07, xc2 x9b, n)"
run_ecg show --records "$E"
grep -q 'wte\\x1b\]' "$T/out"
ok $? "  the tree shows the module's name with its ESC escaped"

# attribute: the amp resnet job and its hand-written GPU trace
A="$T/amp"
mkrepo "$A"
cp -r "$top_srcdir/tests/schedule_fixtures/amp_accum_resnet/." "$A/"
rm -f "$A/expected.json"
chmod -R u+w "$A"
commit "$A" "the amp resnet job"
run_ecg extract --repo "$A" --entry train.py -q
is "$rc" 0 "extract the amp resnet job"
cp -r "$A/records" "$T/evil-amp"
"$TEST_PYTHON" -I -S "$T/mut.py" "$T/evil-amp" short
gzip -dc "$top_srcdir/tests/traces/gpu/amp_resnet.json.gz" >"$T/gpu.json"
run_ecg attribute --records "$T/evil-amp" --width 200 "$T/gpu.json"
is "$rc" 0 "attribute: exit 0"
raw_ctl "$T/out" || raw_ctl "$T/err"
ok $((! $?)) "  no raw ESC or BEL"
grep -q '\\x1b\]0;pwned\\x07\\x1b\[2J ' "$T/out"
ok $? "  the entry's name shown with ESC and BEL escaped"

# file names with a newline, ESC and BEL
B="$T/names"
mkrepo "$B"
bad=$(printf 'bad\033[2J\necg: warning: forged\007.py')
run=$(printf 'run\033]0;pwn\007\nx.py')
printf 'def f(:\n' >"$B/$bad"
printf 'def main():\n    pass\n\n\nif __name__ == "__main__":\n    main()\n' >"$B/$run"
commit "$B" "hostile file names"
run_ecg jobs --repo "$B"
is "$rc" 0 "jobs: exit 0"
raw_ctl "$T/out" || raw_ctl "$T/err"
ok $((! $?)) "  no raw ESC or BEL"
# (repository paths are written %XX for control bytes and ':', as in the records)
grep -q '^run%1B\]0;pwn%07%0Ax\.py  *[-?] ' "$T/out"
ok $? "  the job's file on one line, its controls and newline visible"
run_ecg extract --repo "$B" --all --out "$T/o"
is "$rc" 0 "extract --all: exit 0"
raw_ctl "$T/err"
ok $((! $?)) "  no raw ESC or BEL in the warnings"
is "$(grep -c '^ecg: warning:' "$T/err")" 1 "  one warning line: the newline in the name forges none"
grep -q '^ecg: warning: bad%1B\[2J%0Aecg%3A warning%3A forged%07\.py:1:7: invalid syntax$' "$T/err"
ok $? "  the file name in it with ESC, newline and BEL escaped"
run_ecg extract --repo "$B" --entry "$bad" --out "$T/o2"
raw_ctl "$T/err"
ok $((! $?)) "extract --entry of that file: no raw ESC or BEL in the warnings"

# check and refresh print entries of the records: the hostile ones in
# $R/records (an id, an anchor) stay visible-only when the code changes
cp "$E/computation_graph.json" "$E/execution_schedule.json" "$R/records/"
sed 's/^import torch$/import torch  # moved/' "$R/model.py" >"$T/m.py" && { printf '\n\n'; cat "$T/m.py"; } >"$R/model.py"
commit "$R" "model.py moved down"
run_ecg check --repo "$R"
raw_ctl "$T/out" || raw_ctl "$T/err"
ok $((! $?)) "check after a change: no raw ESC or BEL from the records' ids and anchors"
grep -q 'x1b\]0;pwned' "$T/out"
ok $? "  the hostile id is shown, visible"

done_testing
