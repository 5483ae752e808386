#!/bin/sh
# For the engineer at the terminal (issue 19): jobs ranked so that the
# trainer comes first, every table within the width (--width N, 80 in a
# pipe) with paths shortened in their middle and never a line number lost,
# --json wherever a table is, progress on a terminal, "did you mean".
. "$top_srcdir/tests/lib.sh"

# widest LINE of FILE
maxw() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

# ---------------------------------------------------------------- jobs
R="$T/repo"
mkrepo "$R"
mkdir -p "$R/tests" "$R/tools/ci" "$R/work/very_long_directory_name_for_the_team/subproject_number_two"
D="$R/work/very_long_directory_name_for_the_team/subproject_number_two"
for n in 1 2 3; do
	printf 'if __name__ == "__main__":\n    print(%d)\n' $n >"$R/tests/test_thing_$n.py"
done
printf 'import sys\nif __name__ == "__main__":\n    print(sys.argv)\n' >"$R/tools/ci/lint_the_repository.py"
cat >"$D/pretrain_the_big_language_model.py" <<'PY'
import torch


def train_loop_with_a_rather_long_function_name(steps):
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = model(torch.randn(2, 4)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    train_loop_with_a_rather_long_function_name(10)
PY
commit "$R" "a trainer, deep, among tests and tooling"

run_ecg jobs --repo "$R" --json
is "$rc" 0 "jobs --json"
cp "$T/out" "$T/jobs.json"
is "$(json "$T/jobs.json" "[j['entry'] for j in sorted(d['jobs'], key=lambda j: j['rank'])][0]")" \
   "work/very_long_directory_name_for_the_team/subproject_number_two/pretrain_the_big_language_model.py" \
   "jobs: the trainer ranks first (rank 1 in --json), before tests and tooling earlier in path order"
is "$(json "$T/jobs.json" "[j['entry'] for j in sorted(d['jobs'], key=lambda j: j['rank'])][-1].startswith('tests/')")" \
   True "  tests rank last"
is "$(json "$T/jobs.json" "[j['entry'] for j in d['jobs']] == sorted(j['entry'] for j in d['jobs'])")" True \
   "  --json keeps its jobs in path order; rank gives the table's"

run_ecg jobs --repo "$R"
is "$(sed -n 2p "$T/out" | awk '{print $2}')" training "jobs in a pipe: the first row is the trainer, with its type"
is "$(maxw "$T/out")" 80 "  80 columns in a pipe (the trainer's step is longer)"

STEP=$(json "$T/jobs.json" "[j['step'] for j in d['jobs'] if j['job_type']][0]")
LINE=${STEP##*:}
for w in 60 80 120 200; do
	run_ecg jobs --repo "$R" --width $w
	is "$rc" 0 "jobs --width $w"
	mw=$(maxw "$T/out")
	[ "$mw" -le $w ]
	ok $? "  no line wider than $w (widest $mw)"
	sed -n 2p "$T/out" | grep -q ":$LINE\( \|\$\)"
	ok $? "  the step keeps its line number :$LINE"
	sed -n 2p "$T/out" | grep -q 'model\.py'
	ok $? "  the entry keeps its file name (the middle of the path goes)"
done
run_ecg jobs --repo "$R" --width 400
grep -q "$STEP" "$T/out"
ok $? "  at 400 columns the step is whole"
run_ecg jobs --repo "$R" --width 30
is "$rc" 2 "--width below 40: exit 2"

# jobs takes extract's cache options
run_ecg jobs --repo "$R" --cache-dir "$T/cache" --json
is "$rc" 0 "jobs --cache-dir DIR"
[ -d "$T/cache" ]
ok $? "  the tree cache is written there"
run_ecg jobs --repo "$R" --no-cache --json
is "$rc" 0 "jobs --no-cache"

# what was left unread, and why (more than 64 jobs)
R3="$T/many"
mkrepo "$R3"
mkdir -p "$R3/tests" "$R3/examples"
n=0
while [ $n -lt 66 ]; do
	printf 'if __name__ == "__main__":\n    print(%d)\n' $n >"$R3/examples/convert_weights_$n.py"
	n=$((n + 1))
done
for n in 1 2 3; do
	printf 'if __name__ == "__main__":\n    print(%d)\n' $n >"$R3/tests/test_$n.py"
done
commit "$R3" "many"
run_ecg jobs --repo "$R3"
grep -q "69 jobs: the 64 that rank first were read.*5 were not, 3 of them tests or tooling; the others include examples/convert_weights_" "$T/err"
ok $? "jobs: stderr names the unread jobs that are not tests or tooling"
grep -q "at most 64 are read in a run" "$T/err"
ok $? "  and why they were not read"
is "$(sed -n '$p' "$T/out" | awk '{print $2}')" unread "  unread jobs are last in the table, TYPE 'unread'"

# ---------------------------------------------------------------- show
J="$T/job"
mkrepo "$J"
cp "$top_srcdir/examples/minigpt/model.py" "$top_srcdir/examples/minigpt/data.py" \
	"$top_srcdir/examples/minigpt/train.py" "$J/"
chmod -R u+w "$J"
commit "$J" "the example job"
run_ecg extract --repo "$J" --entry train.py -q
is "$rc" 0 "extract the example job"
for view in "" "--top 20" "--schedule"; do
	for w in 60 80 120 200; do
		run_ecg show --records "$J/records" $view --width $w
		is "$rc" 0 "show $view --width $w"
		mw=$(maxw "$T/out")
		[ "$mw" -le $w ]
		ok $? "  no line wider than $w (widest $mw)"
		# every anchor cell (the last, ending in a file name and more)
		# keeps its line number
		bad=$(grep -E '\.py[^ ]*$' "$T/out" | grep -vcE '\.py(:[^ ]*)?:[0-9]+$')
		is "$bad" 0 "  every anchor keeps its line number"
	done
done
run_ecg show --records "$J/records" --top 5
is "$(maxw "$T/out")" 80 "show in a pipe: 80 columns"

run_ecg show --records "$J/records" --json
is "$(json "$T/out" "(d['view'], d['rows'][0]['id'], d['rows'][0]['class'], d['rows'][0]['anchor'])")" \
   "('tree', '', 'MiniGPT', 'model.py:MiniGPT.forward:107')" "show --json: the tree's rows, anchors whole"
run_ecg show --records "$J/records" --top 3 --json
is "$(json "$T/out" "[(r['rank'], r['id'], r['flops_total'], r['flops_symbols'], r['ranked_by']) for r in d['rows']]")" \
   "[(1, 'blocks.*.mlp.fc', 12582912, 'b*t', 'flops'), (2, 'blocks.*.mlp.out', 12582912, 'b*t', 'flops'), (3, 'blocks.*.attn.qkv', 9437184, 'b*t', 'flops')]" \
   "show --top --json: rank, FLOPs x total_repeat in the shapes' symbols, ranked_by"
run_ecg show --records "$J/records" --schedule --json
is "$(json "$T/out" "[h['frequency_words'] for h in d['schedule']['host_device']][-2:]")" \
   "['every 10 steps (args.log_interval)', 'once']" \
   "show --schedule --json: frequencies as words with their unit, the config name aside"
run_ecg show --records "$J/records" --schedule --width 200
grep -q "every 10 steps (args.log_interval)" "$T/out"
ok $? "show --schedule: 'every 10 steps (args.log_interval)', not loop text"
# the loop text the records quote is words in the table
mkdir -p "$T/freq"
cp "$J/records/"*.json "$T/freq/"
"$TEST_PYTHON" -I -S - "$T/freq/execution_schedule.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
forms = ["every epoch (iteration of `for epoch in range(args.start_epoch, args.epochs)`) \u00d72",
         "every step \u00d7? (`for samples, targets in metric_logger.log_every(data_loader, 10, header)`)",
         "every step \u00d71", "every 500=500 steps", "every iteration of `for x in (a, b)`"]
h = d["host_device"][0]
d["host_device"] = [dict(h, frequency=f, anchor="train.py:main:%d" % (i + 1)) for i, f in enumerate(forms)]
json.dump(d, open(sys.argv[1], "w"))
PY
run_ecg show --records "$T/freq" --schedule --json
is "$(json "$T/out" "sorted(h['frequency_words'] for h in d['schedule']['host_device'])")" \
   "['2 x every epoch', 'every 500 steps', 'every iteration of a loop', 'every step', \"every step x? (a loop's count not known)\"]" \
   "  the loops the records quote read as words: 'every epoch', 'x? (a loop's count not known)', no 'x1', no '(500)'"
run_ecg render --records "$T/freq" -o "$T/freq.html"
grep -q '<td>2 x every epoch</td>' "$T/freq.html" && ! grep -q 'iteration of `for epoch' "$T/freq.html"
ok $? "  and so on the page"

# the step lanes draw the compile regions (outlined on the forward) and the
# copies of a phase the schedule does not list (drawn with the step's first
# repeated phase, said so), not only those of the lanes' own phases
mkdir -p "$T/lanes"
cp "$J/records/"*.json "$T/lanes/"
"$TEST_PYTHON" -I -S - "$T/lanes/execution_schedule.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["phases"] = [p for p in d["phases"] if p["name"] != "data"]
d["compute"]["compile_regions"] = [{"target": "model", "anchor": "train.py:main:40", "mode": None, "graph_breaks": []}]
json.dump(d, open(sys.argv[1], "w"))
PY
run_ecg render --records "$T/lanes" -o "$T/lanes.html"
sed -n '/<svg/,/<\/svg>/p' "$T/lanes.html" >"$T/lanes.svg"
grep -q 'torch.compile: model at train.py:main:40; </title><rect[^>]*stroke-dasharray="2,2"/><text[^>]*>compiled (1)</text>' "$T/lanes.svg"
ok $? "page: the step lanes outline the compiled forward (torch.compile: model, its anchor)"
grep -q "(data, before the step's work) -- every micro-step" "$T/lanes.svg"
ok $? "  and draw the per-step copy of the data phase, not a lane of its own, with the first repeated phase"

# what the analysis did not find comes first, wrapped to the width too
N="$T/nostep"
mkrepo "$N"
cat >"$N/run.py" <<'PY'
import torch

model = torch.nn.Linear(4, 4)
out = model(torch.randn(2, 4))
PY
commit "$N" "a model called once, outside any loop or handler"
run_ecg extract --repo "$N" --entry run.py -q
for w in 60 80; do
	run_ecg show --records "$N/records" --width $w
	mw=$(maxw "$T/out")
	head -1 "$T/out" | grep -q '^incomplete: ' && [ "$mw" -le $w ]
	ok $? "show of records with an 'incomplete' reason, --width $w: the reason first, no line wider (widest $mw)"
done
# an anchor that stopped the reading, longer than a line: its file and line
"$TEST_PYTHON" -I -S - "$N/records/computation_graph.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
g["incomplete"][0]["stopped_by"] = [{"anchor": "src/a_package/utils/other_things.py:compile_regions.<locals>._compile_regions:155",
                                     "reason": "stopped after 4000000 evaluation steps; later values are unknown"}]
json.dump(g, open(sys.argv[1], "w"))
PY
run_ecg show --records "$N/records" --width 60
mw=$(maxw "$T/out")
grep -q '^  stopped by other_things.py:155: stopped after' "$T/out" && [ "$mw" -le 60 ]
ok $? "  a long anchor that stopped the reading is its file and line number at --width 60 (widest $mw)"

# ---------------------------------------------------------------- the page
run_ecg render --records "$J/records" -o "$T/page.html"
is "$rc" 0 "render the example job"
grep -q '<span class="sh">\[b, t, 512\]</span>' "$T/page.html"
ok $? "page: shapes read [b, t, 512], not raw JSON"
run_ecg extract --repo "$R" --entry "$(json "$T/jobs.json" "[j['entry'] for j in d['jobs'] if j['job_type']][0]")" \
	--out "$T/rp" -q
run_ecg render --records "$T/rp" -o "$T/page1.html"
! grep -q '<table><tr><th>op</th>' "$T/page1.html" &&
	grep -q '<p class="empty">None found on the paths ecg read: no DistributedDataParallel' "$T/page1.html"
ok $? "page of a one-process job: no empty Collectives table, the reason instead"
sed -n '/<h2>Cost<\/h2>/,/Syncs per step/p' "$T/page.html" >"$T/cost.html"
grep -o '<tr><td><b>[^<]*</b>' "$T/cost.html" | head -2 | sed 's/.*<b>//; s/<.b>//' | tr '\n' ' ' >"$T/cost.top"
is "$(cat "$T/cost.top")" "blocks.*.mlp.fc blocks.*.mlp.out " "page: a cost view, the blocks and layers by FLOPs x repeat as bars, largest first"
grep -q '<span class="bar" style="width:100.0%"></span></td><td class="n">12.6M\*b\*t</td>' "$T/cost.html"
ok $? "  the largest bar full width, with its FLOPs x total_repeat in the shapes' symbols"
grep -q 'No bar (FLOPs not known, or in other symbols): blocks, blocks.\*.' "$T/cost.html"
ok $? "  the blocks without a bar are named, with why"
grep -q '<p><b>Syncs per step:</b> 1 every step' "$T/cost.html"
ok $? "  with the syncs per step beside them"
grep -q '<div class="scroll"><table>' "$T/page.html"
ok $? "page: tables inside a scrolling box (long tables stay inside the page)"
# the repeated block and every details around it are open
"$TEST_PYTHON" -I -S - "$T/page.html" >"$T/open.out" 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
stack, ok = [], None
for m in re.finditer(r'<details([^>]*)>|</details>|<span class="rep">', text):
    if m.group(0) == '</details>':
        stack.pop()
    elif m.group(0).startswith('<details'):
        stack.append('open' in m.group(1))
    elif ok is None:
        ok = all(stack)
print("repeated block open:", ok)
PY
grep -q "repeated block open: True" "$T/open.out"
ok $? "page: the repeated block is open by default, its xN badge in view"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ "$ECG_ENABLE_VALGRIND" = yes ] || [ -z "$CHROMIUM" ]; then
	ok 0 "# SKIP chromium not installed (or under valgrind): the page's geometry is not checked"
else
	# a probe page (test only; the page itself has no script) measures the
	# page in an iframe of each width: horizontal overflow, the lanes' right
	# edge, the badge's box
	for px in 1000 1400; do
		cat >"$T/probe$px.html" <<EOF
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="page.html" style="width:${px}px;height:900px;border:0"></iframe>
<pre id="out">pending</pre><script>
document.getElementById('f').onload = function () {
  var d = this.contentDocument, e = d.documentElement, svg = d.querySelector('#timeline svg');
  var rep = d.querySelector('span.rep'), r = rep ? rep.getBoundingClientRect() : null, worst = 0;
  /* the right edge of every element not inside a scrolling box */
  d.querySelectorAll('body *').forEach(function (el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o == 'auto' || o == 'scroll' || o == 'hidden') return;
    }
    var b = el.getBoundingClientRect();
    if (b.width > 0 && b.right > worst) worst = b.right;
  });
  document.getElementById('out').textContent = 'overflow=' + (e.scrollWidth > e.clientWidth ? 1 : 0) +
    ' lanes_right=' + (svg ? Math.round(svg.getBoundingClientRect().right) : -1) +
    ' width=' + e.clientWidth + ' badge=' + (r && r.width > 0 && r.height > 0 ? 1 : 0) +
    ' rightmost=' + Math.ceil(worst);
};
</script></body></html>
EOF
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
			--virtual-time-budget=5000 --window-size=$((px + 100)),1000 --dump-dom "file://$T/probe$px.html" \
			2>/dev/null | grep -o 'overflow=[0-9]* lanes_right=[-0-9]* width=[0-9]* badge=[0-9] rightmost=[0-9]*' \
			>"$T/geo$px"
		diag "at $px px: $(cat "$T/geo$px")"
		grep -q 'overflow=0' "$T/geo$px"
		ok $? "page at $px px (chromium): no horizontal overflow"
		rm=$(sed 's/.*rightmost=\([0-9]*\).*/\1/' "$T/geo$px")
		[ "${rm:-99999}" -le "$(sed 's/.*width=\([0-9]*\).*/\1/' "$T/geo$px")" ]
		ok $? "  every element outside a scrolling box ends inside the page (right edge ${rm:-?})"
		# the screenshot's geometry: nothing cut at the window's right edge
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--window-size=$px,900 --screenshot="$T/shot$px.png" "file://$T/page.html" >/dev/null 2>&1
		"$TEST_PYTHON" -I -S "$top_srcdir/tests/e2e/pngedge.py" "$T/shot$px.png" >"$T/edge$px" 2>&1
		diag "$(cat "$T/edge$px")"
		grep -q "${px}x900 edge_pixels_not_bg=0 " "$T/edge$px"
		ok $? "  the screenshot at $px px: no content cut at its right edge"
		lr=$(sed 's/.*lanes_right=\([-0-9]*\).*/\1/' "$T/geo$px")
		wd=$(sed 's/.*width=\([0-9]*\).*/\1/' "$T/geo$px")
		[ "${lr:-0}" -gt 0 ] && [ "$lr" -le "${wd:-0}" ]
		ok $? "  the step lanes fit (${lr:-?} <= ${wd:-?})"
		grep -q 'badge=1' "$T/geo$px"
		ok $? "  the xN badge is drawn"
	done
fi

# ---------------------------------------------------------------- progress
if command -v script >/dev/null 2>&1; then
	ECG_PROGRESS_MS=0 script -qec "'$ECG' jobs --repo '$R' >/dev/null" "$T/typescript" >/dev/null 2>&1
	grep -q "ecg: jobs: reading job 1/" "$T/typescript"
	ok $? "progress: on a terminal, jobs says which job it reads (stderr)"
	run_ecg jobs --repo "$R"
	! grep -q "reading job" "$T/err"
	ok $? "  never in a pipe"
	ECG_PROGRESS_MS=0 script -qec "'$ECG' extract --repo '$J' --entry train.py --out '$T/recp'" "$T/typescript" \
		>/dev/null 2>&1
	grep -q "ecg: extract: reading the job from train.py" "$T/typescript"
	ok $? "progress: extract says its phase on a terminal"
else
	ok 0 "# SKIP script(1) not installed: no terminal to test progress on"
fi

# ---------------------------------------------------------------- did you mean
run_ecg extarct --repo "$R"
is "$rc" 2 "a misspelled subcommand: exit 2"
grep -q "did you mean 'extract'" "$T/err"
ok $? "  did you mean 'extract'"
run_ecg help shwo
grep -q "did you mean 'show'" "$T/err"
ok $? "  ecg help shwo: did you mean 'show'"
run_ecg jobs --repo "$R" --jsno
is "$rc" 2 "a misspelled option: exit 2"
grep -q "did you mean '--json'" "$T/err"
ok $? "  did you mean '--json'"
run_ecg extract --repo "$R" --entyr x.py
grep -q "did you mean '--entry'" "$T/err"
ok $? "  extract --entyr: did you mean '--entry'"
run_ecg show --widht 80
grep -q "did you mean '--width'" "$T/err"
ok $? "  show --widht: did you mean '--width'"
run_ecg extract --repo "$J" --entry trian.py --out "$T/rx"
is "$rc" 3 "a misspelled entry file: exit 3"
grep -q "did you mean 'train.py'" "$T/err"
ok $? "  did you mean 'train.py'"

# --set KEY=VALUE that the job never reads
run_ecg extract --repo "$J" --entry train.py --out "$T/rs" -q --set n_layr=2 --set n_layer=2 --set zzqqxx=1
is "$rc" 0 "extract with --set keys the job does not read: still exit 0"
grep -q "warning: --set n_layr: the job never reads a configuration name 'n_layr'; did you mean 'n_layer'?" "$T/err"
ok $? "  --set n_layr: a warning with the nearest name the job reads"
grep -q "warning: --set zzqqxx: the job never reads" "$T/err"
ok $? "  --set zzqqxx: a warning, no guess"
! grep -q "warning: --set n_layer:" "$T/err"
ok $? "  --set n_layer (read): no warning"

run_ecg frobnicate
! grep -q "did you mean" "$T/err"
ok $? "  nothing near: no guess"

done_testing
